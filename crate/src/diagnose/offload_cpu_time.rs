//! `offload.cpu-time`: an operator profile shows how much of the inference time ran on the CPU
//! beside a delegate or execution provider (TFLite's `benchmark_model --enable_op_profiling`,
//! ONNX Runtime's profile). Node counts and "unsupported op" lines say what fell back; the
//! profile says what it cost, which is what sizes the fallback.
//!
//! A profile with no accelerator time at all says nothing here: the run was meant for the CPU,
//! or the accelerator took nothing, which the partition and fallback lines tell.

use super::run_facts::fmt;
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::op_profile::OpProfile;
use crate::evidence::Evidence;
use crate::views::Views;

pub const IDS: &[&str] = &["offload.cpu-time"];

/// From this share of the time on the CPU the split is the run's main cost.
const CRITICAL_SHARE: f64 = 0.5;
/// Below this share the CPU's part is small beside the accelerator's (ONNX Runtime places shape
/// ops on the CPU on purpose): worth knowing, not a cause.
const MINOR_SHARE: f64 = 0.1;
/// Below this share there is nothing to say.
const NEGLIGIBLE_SHARE: f64 = 0.01;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    ev.op_profiles.iter().filter_map(finding).collect()
}

fn finding(p: &OpProfile) -> Option<Finding> {
    if p.accelerator_ms() <= 0.0 {
        return None;
    }
    let share = p.cpu_share()?;
    if share < NEGLIGIBLE_SHARE {
        return None;
    }
    let severity = if share >= CRITICAL_SHARE {
        Severity::Critical
    } else if share >= MINOR_SHARE {
        Severity::Warning
    } else {
        Severity::Info
    };
    let delegate = p
        .accelerators
        .iter()
        .map(|(name, _)| name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let ops = p
        .cpu_ops
        .iter()
        .take(3)
        .map(|(op, ms)| format!("{op} {} ms", fmt(*ms)))
        .collect::<Vec<_>>()
        .join(", ");
    let params = vec![
        ("delegate", delegate),
        ("cpu_share", format!("{:.0}%", share * 100.0)),
        ("cpu_ms", fmt(p.cpu_ms)),
        ("total_ms", fmt(p.total_ms())),
        ("ops", ops),
    ];
    // Times over the whole profile when it does not say how many inferences it covers.
    let variant = p.runs.is_none().then_some("total");
    let quote = Quote::phrase(
        if variant.is_some() {
            "quote.offload.cpu-time-total"
        } else {
            "quote.offload.cpu-time"
        },
        vec![
            ("cpu_ms", fmt(p.cpu_ms)),
            ("total_ms", fmt(p.total_ms())),
            ("cpu_share", format!("{:.0}%", share * 100.0)),
        ],
    );
    Some(
        Finding::new(
            IDS[0],
            severity,
            params,
            vec![EvidenceRef {
                input: p.input,
                lines: Some((p.first_line, p.last_line)),
                time_s: None,
                quote: Some(quote),
            }],
        )
        .with_variant(variant),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::op_profile::ProfileSource;

    fn profile(accel_ms: f64, cpu_ms: f64, runs: Option<u32>) -> OpProfile {
        OpProfile {
            input: 0,
            source: ProfileSource::TfliteBenchmark,
            first_line: 10,
            last_line: 14,
            accelerators: if accel_ms > 0.0 {
                vec![("TfLiteGpuDelegateV2".into(), accel_ms)]
            } else {
                Vec::new()
            },
            cpu_ms,
            cpu_ops: vec![
                ("RESIZE_BILINEAR".into(), cpu_ms * 0.6),
                ("ARG_MAX".into(), cpu_ms * 0.4),
            ],
            runs,
        }
    }

    fn run(p: OpProfile) -> Vec<Finding> {
        let mut ev = Evidence::default();
        ev.add_op_profile(p);
        rule(&ev, &Views::of(&ev))
    }

    #[test]
    fn the_cpu_share_of_the_time_sets_the_severity() {
        let f = run(profile(4.0, 6.0, Some(1)));
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].param("cpu_share"), Some("60%"));
        assert_eq!(
            f[0].param("ops"),
            Some("RESIZE_BILINEAR 3.60 ms, ARG_MAX 2.40 ms")
        );
        assert_eq!(f[0].evidence[0].lines, Some((10, 14)));
        assert_eq!(
            run(profile(8.0, 2.0, Some(1)))[0].severity,
            Severity::Warning
        );
        assert_eq!(run(profile(95.0, 5.0, Some(1)))[0].severity, Severity::Info);
        assert!(run(profile(999.0, 1.0, Some(1))).is_empty());
    }

    #[test]
    fn a_cpu_only_profile_says_nothing_and_totals_say_so() {
        assert!(run(profile(0.0, 6.0, Some(1))).is_empty());
        assert_eq!(run(profile(4.0, 6.0, None))[0].variant, Some("total"));
    }
}

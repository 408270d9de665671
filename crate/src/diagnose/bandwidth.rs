//! `bandwidth.below-ceiling`: a logged decode speed set against the ceiling this device's measured
//! bandwidth allows for the logged model size (`kernel::ceiling`: t = bytes/(η·BW) + c).
//!
//! It needs both halves: a run with a decode speed and a model size (from a framework log), and the
//! probe's bandwidth (from "Measure this device"), and the user's word that the log was recorded
//! on the device that ran the probe (`Evidence::probe_for_inputs`): the bandwidth of the browser's
//! device is no ceiling for another device's log.

use super::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, Run};
use crate::kernel::ceiling::{ceiling_tok_s, expected_tok_s, ETA, FIXED_COST_S};
use crate::views::Views;

pub const IDS: &[&str] = &["bandwidth.below-ceiling"];

/// Below this share of the expected speed, the run left a lot on the table: a warning.
const WARN_BELOW_EXPECTED: f64 = 0.6;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let Some(bw) = ev
        .probe_for_inputs()
        .map(|d| d.read_gbps_best)
        .filter(|b| *b > 0.0)
    else {
        return Vec::new();
    };
    ev.runs
        .iter()
        .filter_map(|run| finding(ev, run, bw))
        .collect()
}

fn finding(ev: &Evidence, run: &Run, bw: f64) -> Option<Finding> {
    let tok_s = run
        .decode
        .as_ref()?
        .tok_s
        .filter(|t| t.is_finite() && *t > 0.0)?;
    let bytes = run.model_bytes.filter(|b| *b > 0)? as f64;
    let ceiling = ceiling_tok_s(bytes, bw);
    let expected = expected_tok_s(bytes, bw);
    let of_expected = tok_s / expected;
    let severity = if of_expected < WARN_BELOW_EXPECTED {
        Severity::Warning
    } else {
        Severity::Info
    };
    let input = ev.inputs.iter().position(|i| i.name == run.input)?;
    let lines = run.line_start.map(|s| (s, run.line_end.unwrap_or(s)));
    Some(Finding::new(
        IDS[0],
        severity,
        vec![
            ("tok_s", fmt(tok_s)),
            ("ceiling_tok_s", fmt(ceiling)),
            ("expected_tok_s", fmt(expected)),
            ("pct_of_ceiling", format!("{:.0}", 100.0 * tok_s / ceiling)),
            ("pct_of_expected", format!("{:.0}", 100.0 * of_expected)),
            ("bandwidth_gbps", fmt(bw)),
            ("model_size", crate::figures::size(bytes)),
            ("eta", format!("{ETA}")),
            ("fixed_ms", format!("{:.0}", FIXED_COST_S * 1e3)),
        ],
        vec![EvidenceRef {
            input,
            lines,
            time_s: None,
            quote: None,
        }],
    ))
}

/// Three significant figures at most: 0.123, 1.23, 12.3, 123 (the bandwidth findings' figures).
pub(super) fn fmt(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{DeviceProbe, Phase};

    fn evidence(tok_s: Option<f64>, model_bytes: Option<u64>, bw: Option<f64>) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("llama.log");
        ev.runs.push(Run {
            input: "llama.log".into(),
            line_start: Some(40),
            line_end: Some(52),
            model_bytes,
            decode: tok_s.map(|t| Phase {
                tok_s: Some(t),
                ..Phase::default()
            }),
            ..Run::default()
        });
        ev.device = bw.map(|b| DeviceProbe {
            read_gbps_best: b,
            ..DeviceProbe::default()
        });
        ev.inputs_from_probe_device = true;
        ev
    }

    fn param<'a>(f: &'a Finding, name: &str) -> &'a str {
        &f.params.iter().find(|(k, _)| *k == name).unwrap().1
    }

    #[test]
    fn a_slow_decode_is_a_warning_with_its_share_of_the_ceiling() {
        // 4 GB of weights at 20 GB/s: ceiling 5 tok/s; expected 1/(4/17 + 0.005) = 4.16 tok/s.
        let f = crate::diagnose::apply(rule, &evidence(Some(1.0), Some(4_000_000_000), Some(20.0)));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(param(&f[0], "ceiling_tok_s"), "5.00");
        assert_eq!(param(&f[0], "expected_tok_s"), "4.16");
        assert_eq!(param(&f[0], "pct_of_ceiling"), "20");
        assert_eq!(param(&f[0], "pct_of_expected"), "24");
        assert_eq!(f[0].evidence[0].lines, Some((40, 52)));
    }

    #[test]
    fn a_decode_near_the_ceiling_is_info() {
        let f = crate::diagnose::apply(rule, &evidence(Some(4.0), Some(4_000_000_000), Some(20.0)));
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(param(&f[0], "pct_of_ceiling"), "80");
    }

    #[test]
    fn the_probe_applies_only_to_a_log_from_its_device() {
        let mut ev = evidence(Some(1.0), Some(4_000_000_000), Some(20.0));
        ev.inputs_from_probe_device = false;
        assert!(
            crate::diagnose::apply(rule, &ev).is_empty(),
            "another device's log gets no ceiling"
        );
        ev.inputs_from_probe_device = true;
        assert_eq!(crate::diagnose::apply(rule, &ev).len(), 1);
    }

    #[test]
    fn it_needs_speed_size_and_bandwidth() {
        assert!(
            crate::diagnose::apply(rule, &evidence(None, Some(4_000_000_000), Some(20.0)))
                .is_empty()
        );
        assert!(crate::diagnose::apply(rule, &evidence(Some(3.0), None, Some(20.0))).is_empty());
        assert!(
            crate::diagnose::apply(rule, &evidence(Some(3.0), Some(4_000_000_000), None))
                .is_empty()
        );
        assert!(crate::diagnose::apply(
            rule,
            &evidence(Some(f64::INFINITY), Some(4_000_000_000), Some(20.0))
        )
        .is_empty());
        assert!(
            crate::diagnose::apply(rule, &evidence(Some(3.0), Some(4_000_000_000), Some(0.0)))
                .is_empty()
        );
    }
}

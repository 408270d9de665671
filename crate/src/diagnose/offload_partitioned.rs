//! `offload.partitioned`: a delegate or execution provider took only part of the graph (TFLite's
//! GPU, NNAPI, Hexagon and QNN delegates; ONNX Runtime's NNAPI, CoreML, QNN and WebNN providers).
//! The rest runs on the CPU, and each partition boundary copies tensors between the two and
//! makes each wait for the other, so a graph cut into many pieces often runs slower than the CPU
//! alone.
//!
//! A split announced more than once for the same delegate in one input (ONNX Runtime asks each
//! provider again after its graph rewrites) counts once, by its last announcement: that is the
//! placement the session ran. Delegates that run on the CPU themselves (XNNPACK) hand nothing
//! over, and are left out.
//!
//! Not sized: node counts are not time. An op profile sizes it.

use super::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, PartitionLine, EXECUTORCH_SPLIT};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.partitioned"];

/// From this share of the nodes on the CPU, or this many partitions, the split is the run's
/// likely bottleneck rather than a detail.
const CRITICAL_CPU_SHARE: f64 = 0.5;
const CRITICAL_PARTITIONS: u32 = 10;
/// Below this share and with this few partitions, ONNX Runtime's usual placement of the shape
/// ops on the CPU (which it does on purpose): worth knowing, not a cause.
const MINOR_CPU_SHARE: f64 = 0.05;
const MINOR_PARTITIONS: u32 = 3;
const NEGLIGIBLE_CPU_SHARE: f64 = 0.01;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, p) in ev.partitions.iter().enumerate() {
        let superseded = ev.partitions[i + 1..]
            .iter()
            .any(|q| q.input == p.input && q.split.delegate == p.split.delegate);
        if superseded || p.split.on_cpu() {
            continue;
        }
        if let Some(f) = finding(p) {
            out.push(f);
        }
    }
    out
}

fn finding(p: &PartitionLine) -> Option<Finding> {
    let s = &p.split;
    let delegate = ("delegate", s.delegate.clone());
    // An unknown partition count (the Hexagon delegate's older line) counts as one: only the
    // node share then decides.
    let parts = s.partitions.unwrap_or(1);
    let (severity, variant, params) = match (s.total, s.cpu_nodes()) {
        (Some(total), _) if s.delegated == 0 => (
            Severity::Critical,
            Some("none"),
            vec![delegate, ("total", total.to_string())],
        ),
        (Some(total), Some(cpu)) => {
            let share = f64::from(cpu) / f64::from(total.max(1));
            // One partition with a handful of nodes outside it is the graph's edges (ExecuTorch
            // counts the `getitem`s that unpack a delegate's outputs): nothing to move.
            if parts <= 1 && share < NEGLIGIBLE_CPU_SHARE {
                return None;
            }
            // ExecuTorch counts the scalar bookkeeping of dynamic shapes (`_assert_scalar`,
            // `_local_scalar_dense`, `getitem`) among its non-delegated nodes, and names no
            // backend: the count is a lead to read its table with, not proof of a slow split.
            if s.delegate == EXECUTORCH_SPLIT {
                let severity = if share >= MINOR_CPU_SHARE || parts >= CRITICAL_PARTITIONS {
                    Severity::Warning
                } else {
                    Severity::Info
                };
                let params = vec![
                    ("delegated", s.delegated.to_string()),
                    ("total", total.to_string()),
                    ("cpu_nodes", cpu.to_string()),
                    ("cpu_share", format!("{:.0}%", share * 100.0)),
                    ("partitions", parts.to_string()),
                ];
                return Some(at(p, severity, Some("executorch"), params));
            }
            let severity = if share >= CRITICAL_CPU_SHARE || parts >= CRITICAL_PARTITIONS {
                Severity::Critical
            } else if share < MINOR_CPU_SHARE && parts <= MINOR_PARTITIONS {
                Severity::Info
            } else {
                Severity::Warning
            };
            let mut params = vec![
                delegate,
                ("delegated", s.delegated.to_string()),
                ("total", total.to_string()),
                ("cpu_nodes", cpu.to_string()),
                ("cpu_share", format!("{:.0}%", share * 100.0)),
            ];
            let variant = match s.partitions {
                Some(n) => {
                    params.push(("partitions", n.to_string()));
                    None
                }
                None => Some("count-only"),
            };
            (severity, variant, params)
        }
        // TFLite before its `out of` wording: more than one partition means nodes between them
        // stayed on the CPU, but not how many.
        _ => {
            if parts <= 1 {
                return None;
            }
            let severity = if parts >= CRITICAL_PARTITIONS {
                Severity::Critical
            } else {
                Severity::Warning
            };
            let params = vec![
                delegate,
                ("delegated", s.delegated.to_string()),
                ("partitions", parts.to_string()),
            ];
            (severity, Some("no-total"), params)
        }
    };
    Some(at(p, severity, variant, params))
}

fn at(
    p: &PartitionLine,
    severity: Severity,
    variant: Option<&'static str>,
    params: Vec<(&'static str, String)>,
) -> Finding {
    Finding::new(
        IDS[0],
        severity,
        params,
        vec![EvidenceRef::at_line(p.input, p.line, &p.text)],
    )
    .with_variant(variant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Partition;

    fn ev(lines: &[(&str, u32, Option<u32>, Option<u32>)]) -> Evidence {
        let mut ev = Evidence::default();
        for (n, (d, delegated, total, partitions)) in lines.iter().enumerate() {
            ev.add_partition(
                0,
                n as u64 + 1,
                Partition {
                    delegate: (*d).into(),
                    delegated: *delegated,
                    total: *total,
                    partitions: *partitions,
                },
                "line",
            );
        }
        ev
    }

    fn run(lines: &[(&str, u32, Option<u32>, Option<u32>)]) -> Vec<Finding> {
        let ev = ev(lines);
        rule(&ev, &Views::of(&ev))
    }

    #[test]
    fn a_fragmented_graph_is_critical_and_a_whole_one_says_nothing() {
        let f = run(&[("CoreML", 169, Some(643), Some(121))]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].param("cpu_nodes"), Some("474"));
        assert_eq!(f[0].param("cpu_share"), Some("74%"));
        assert!(run(&[("TfLiteQnnDelegate", 357, Some(357), Some(1))]).is_empty());
        assert!(run(&[("ExecuTorch", 5076, Some(5079), Some(1))]).is_empty());
        let f = run(&[("ExecuTorch", 2588, Some(5101), Some(368))]);
        assert_eq!(
            (f[0].severity, f[0].variant),
            (Severity::Warning, Some("executorch"))
        );
    }

    #[test]
    fn the_last_announcement_per_delegate_stands_and_cpu_delegates_are_left_out() {
        let f = run(&[
            ("NNAPI", 100, Some(612), Some(30)),
            ("TfLiteXNNPackDelegate", 10, Some(40), Some(4)),
            ("NNAPI", 600, Some(612), Some(2)),
        ]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info, "12 of 612 in 2 partitions");
        assert_eq!(f[0].evidence[0].lines, Some((3, 3)));
    }

    #[test]
    fn without_a_total_the_partitions_speak_and_none_delegated_is_its_own_wording() {
        let f = run(&[("TfLiteGpuDelegateV2", 12, None, Some(3))]);
        assert_eq!(f[0].variant, Some("no-total"));
        assert_eq!(f[0].severity, Severity::Warning);
        let f = run(&[("NNAPI", 0, Some(87), Some(0))]);
        assert_eq!(f[0].variant, Some("none"));
        assert_eq!(f[0].severity, Severity::Critical);
        let f = run(&[("Hexagon", 30, Some(64), None)]);
        assert_eq!(
            (f[0].variant, f[0].severity),
            (Some("count-only"), Severity::Critical)
        );
    }
}

//! `sched.little-cores`: inference threads spend a large share of their running time (or
//! samples) on little cores. A decode step waits at a barrier for its slowest thread, so one
//! thread on a little core sets the pace of all of them.

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::sched::{self, pct, Unit};
use crate::views::topology::cpu_list;
use crate::views::topology::Cluster;
use crate::views::Views;

pub const IDS: &[&str] = &["sched.little-cores"];

/// Share of inference residency on little cores above which the finding fires.
pub const WARN_SHARE: f64 = 0.20;
/// Share above which it is critical.
pub const CRITICAL_SHARE: f64 = 0.50;
/// Snapshots (frames) needed before a snapshot-based finding may be critical.
pub const MIN_SNAPSHOTS_CRITICAL: u64 = 3;

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let (topo, views) = (&views.topology, &views.traces);
    let little = topo.cpus_in(Cluster::Little);
    if little.is_empty() || !topo.known() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in views {
        if !v.enough() {
            continue;
        }
        let by = v.inference_by_cluster();
        let share = by[Cluster::Little.index()] / v.known_total();
        if share < WARN_SHARE {
            continue;
        }
        let mut worst: Vec<(f64, String)> = v
            .inference()
            .map(|t| {
                let b = t.by_cluster;
                let known = (b[0] + b[1] + b[2]).max(f64::MIN_POSITIVE);
                (b[Cluster::Little.index()] / known, sched::label(t.thread))
            })
            .collect();
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        let n = worst.len();
        let top: Vec<String> = worst
            .iter()
            .take(3)
            .map(|(s, l)| format!("{l} {}", pct(*s)))
            .collect();
        let what = match v.unit {
            Unit::Seconds => "@sched.measure.running-time",
            Unit::Samples => "@sched.measure.samples",
        };
        let mut params = vec![
            ("share", pct(share)),
            ("threads", n.to_string()),
            ("little_cpus", cpu_list(&little)),
            ("measure", what.to_string()),
            ("worst", top.join(", ")),
            ("topology_source", topo.source.phrase()),
        ];
        params.extend(sched::basis(v.trace));
        // For the verdict's estimate: the little cores' clock against the fast ones'.
        if let Some(r) = clock_ratio(topo, &little) {
            params.push(("little_share", format!("{share:.3}")));
            params.push(("little_clock_ratio", format!("{r:.2}")));
        }
        out.push(Finding {
            variant: None,
            id: IDS[0],
            // One or two snapshots are a glimpse: enough to warn, not to call it critical.
            severity: if share >= CRITICAL_SHARE
                && !(sched::is_snapshots(v.trace)
                    && v.trace.snapshot_frames < MIN_SNAPSHOTS_CRITICAL)
            {
                Severity::Critical
            } else {
                Severity::Warning
            },
            params,
            count: None,
            evidence: vec![EvidenceRef {
                input: v.trace.input,
                lines: None,
                time_s: Some((0.0, v.trace.end_s)),
                quote: Some(Quote::phrase(
                    "quote.sched.little-cores",
                    vec![
                        ("share", pct(share)),
                        ("measure", what.to_string()),
                        ("little_cpus", cpu_list(&little)),
                        ("worst", top.join(", ")),
                    ],
                )),
            }],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

/// Mean maximum clock of the little CPUs over that of the fast ones, when both are known.
fn clock_ratio(topo: &crate::views::topology::Topology, little: &[u32]) -> Option<f64> {
    let mean = |cpus: &[u32]| {
        let v: Vec<f64> = cpus.iter().filter_map(|c| topo.max_mhz(*c)).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    let (l, f) = (mean(little)?, mean(&topo.fast_cpus())?);
    (f > 0.0 && l > 0.0 && l < f).then(|| l / f)
}

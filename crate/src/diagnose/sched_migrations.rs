//! `sched.migrations`: inference threads move between clusters often. Each cross-cluster move
//! leaves the caches behind and lands the thread on a core of another speed.
//!
//! Counted from `sched_migrate_task` when the trace has it, else from changes of the CPU
//! between consecutive samples or switch-ins of the same thread (a lower bound).

use super::sched_view::{self, label};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;

pub const IDS: &[&str] = &["sched.migrations"];

/// Cross-cluster migrations per second (all inference threads together) that fire the finding.
pub const MIN_RATE_PER_S: f64 = 5.0;
/// And at least this many migrations, so a short trace does not fire on a handful.
pub const MIN_COUNT: u64 = 10;

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let (topo, views) = sched_view::views(ev);
    if !topo.known()
        || topo
            .cpus
            .iter()
            .map(|c| c.cluster)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            < 2
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in &views {
        let duration = v.trace.end_s;
        if duration <= 0.0 || !v.enough() {
            continue;
        }
        let from_tracepoint = v.trace.migrate_events > 0;
        let mut count = 0u64;
        let mut per_thread: Vec<(u64, String)> = Vec::new();
        for t in v.inference() {
            let moves = if from_tracepoint {
                &t.thread.migrations
            } else {
                &t.thread.cpu_moves
            };
            let n: u64 = moves
                .iter()
                .filter(|((a, b), _)| topo.cluster(*a as u32) != topo.cluster(*b as u32))
                .map(|(_, n)| n)
                .sum();
            count += n;
            if n > 0 {
                per_thread.push((n, label(t.thread)));
            }
        }
        let rate = count as f64 / duration;
        if count < MIN_COUNT || rate < MIN_RATE_PER_S {
            continue;
        }
        per_thread.sort_by_key(|p| std::cmp::Reverse(p.0));
        let top: Vec<String> = per_thread
            .iter()
            .take(3)
            .map(|(n, l)| format!("{l} ×{n}"))
            .collect();
        let source = if from_tracepoint {
            "sched_migrate_task"
        } else {
            "@sched.source.samples"
        };
        out.push(Finding {
            id: IDS[0],
            severity: Severity::Warning,
            params: vec![
                ("count", count.to_string()),
                ("rate", format!("{rate:.1}")),
                ("duration", format!("{duration:.2}")),
                ("source", source.to_string()),
                ("worst", top.join(", ")),
            ],
            count: Some(count),
            evidence: vec![EvidenceRef {
                input: v.trace.input,
                lines: None,
                time_s: Some((0.0, duration)),
                quote: Some(Quote::phrase(
                    "quote.sched.migrations",
                    vec![
                        ("count", count.to_string()),
                        ("duration", format!("{duration:.2}")),
                        ("rate", format!("{rate:.1}")),
                        ("source", source.to_string()),
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

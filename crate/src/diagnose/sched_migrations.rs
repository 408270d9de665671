//! `sched.migrations`: inference threads move between clusters often. Each cross-cluster move
//! leaves the caches behind and lands the thread on a core of another speed.
//!
//! Counted from `sched_migrate_task` when the trace has it, else from changes of the CPU
//! between consecutive samples or switch-ins of the same thread (a lower bound). Snapshots
//! (`top -H`, `ps -T`, `/proc/*/task/*/stat` frames) see at most one move per frame, so they are
//! judged by the share of frame pairs that found a thread on another cluster.

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::sched::{self, label};
use crate::views::Views;

pub const IDS: &[&str] = &["sched.migrations"];

/// Cross-cluster migrations per second (all inference threads together) that fire the finding.
pub const MIN_RATE_PER_S: f64 = 5.0;
/// And at least this many migrations, so a short trace does not fire on a handful.
pub const MIN_COUNT: u64 = 10;
/// From snapshots: at least this many cross-cluster changes between frames...
pub const MIN_SNAPSHOT_MOVES: u64 = 4;
/// ...in at least this share of the consecutive frame pairs of the inference threads.
pub const MIN_SNAPSHOT_MOVE_SHARE: f64 = 0.25;

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let (topo, views) = (&views.topology, &views.traces);
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
    for v in views {
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
        let snapshots = !from_tracepoint && sched::is_snapshots(v.trace);
        if snapshots {
            // Frames seconds apart see at most one move each: the rate of a trace cannot be
            // reached, but a thread found on another cluster at many frames moves at least
            // that often.
            let pairs: u64 = v.inference().map(|t| t.thread.snapshot_pairs).sum();
            if count < MIN_SNAPSHOT_MOVES || (count as f64) < MIN_SNAPSHOT_MOVE_SHARE * pairs as f64
            {
                continue;
            }
        } else if count < MIN_COUNT || rate < MIN_RATE_PER_S {
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
        } else if snapshots {
            "cluster changes between snapshots, a lower bound"
        } else {
            "@sched.source.samples"
        };
        let mut params = vec![
            ("count", count.to_string()),
            ("rate", format!("{rate:.1}")),
            ("duration", format!("{duration:.2}")),
            ("source", source.to_string()),
            ("worst", top.join(", ")),
        ];
        params.extend(sched::basis(v.trace));
        out.push(Finding {
            variant: None,
            id: IDS[0],
            severity: Severity::Warning,
            params,
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

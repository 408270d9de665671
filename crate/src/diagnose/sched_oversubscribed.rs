//! `sched.oversubscribed`: more busy inference threads than fast (mid plus big) cores. The
//! extra threads either wait runnable or land on little cores; either way a barrier-synced
//! decode step waits for them (seed 000: 8 threads ran slower than 4).

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::sched::{self, pct};
use crate::views::Views;

pub const IDS: &[&str] = &["sched.oversubscribed"];

/// A thread counts as busy with at least this fraction of the busiest inference thread's time.
pub const BUSY_FRACTION: f64 = 0.25;

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let (topo, views) = (&views.topology, &views.traces);
    let fast = topo.fast_cpus().len();
    if !topo.known() || fast == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in views {
        if !v.enough() {
            continue;
        }
        let top = v.inference().map(|t| t.total).fold(0.0, f64::max);
        let busy: Vec<_> = v
            .inference()
            .filter(|t| t.total >= BUSY_FRACTION * top)
            .collect();
        if busy.len() <= fast {
            continue;
        }
        // Snapshots give running time but not the time spent waiting for a CPU.
        let (runnable, waited) = match sched::measures_runnable(v) {
            true => {
                let run: f64 = busy.iter().map(|t| t.total).sum();
                let wait: f64 = busy.iter().map(|t| t.thread.runnable_s).sum();
                (
                    format!("{wait:.2} s"),
                    pct(wait / (run + wait).max(f64::MIN_POSITIVE)),
                )
            }
            false => (
                "@sched.runnable.unmeasured".to_string(),
                "@sched.runnable.samples-only".to_string(),
            ),
        };
        let mut params = vec![
            ("threads", busy.len().to_string()),
            ("fast_cores", fast.to_string()),
            ("runnable", runnable.clone()),
            ("runnable_share", waited.clone()),
        ];
        params.extend(sched::basis(v.trace));
        out.push(Finding::new(
            IDS[0],
            Severity::Warning,
            params,
            vec![EvidenceRef {
                input: v.trace.input,
                lines: None,
                time_s: Some((0.0, v.trace.end_s)),
                quote: Some(Quote::phrase(
                    "quote.sched.oversubscribed",
                    vec![
                        ("busy", busy.len().to_string()),
                        ("fast", fast.to_string()),
                        ("runnable", runnable.clone()),
                        ("waited", waited.clone()),
                    ],
                )),
            }],
        ));
    }
    out
}

//! `thermal.rotating-throttle`: cores of one cluster take turns at a low frequency while the
//! others stay high (seed 002, §4.5). Multi-threaded decode runs at the pace of whichever core is
//! low at the moment, so latency jumps; fewer cores, each with more of the power budget, help.
//!
//! Method: split the trace into windows; in each, a CPU is capped when its time-weighted mean
//! frequency is below [`CAPPED_FRACTION`] of its maximum. A window is partial when some CPUs of
//! a cluster are capped and others are not. Rotation: at least [`MIN_PARTIAL_WINDOWS`] partial
//! windows, at least two different CPUs capped in them, and the capped set changing at least
//! twice. CPUs that share one frequency policy move together and never rotate, so a cluster
//! stepping down as a whole does not fire this (it is `thermal.freq-capped` or a thermal wall).

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::freq;
use crate::views::topology::cpu_list;
use crate::views::topology::Cluster;
use crate::views::Views;
use std::collections::BTreeSet;

pub const IDS: &[&str] = &["thermal.rotating-throttle"];

pub const CAPPED_FRACTION: f64 = 0.8;
pub const WINDOWS: usize = 20;
pub const MIN_PARTIAL_WINDOWS: usize = 3;

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let topo = &views.topology;
    let mut out = Vec::new();
    for trace in &ev.sched.traces {
        let freqs = freq::cpu_freqs(ev, trace.input);
        let end = trace.end_s;
        if freqs.len() < 2 || end <= 0.0 {
            continue;
        }
        // Groups: CPUs of one cluster (all CPUs when clusters are unknown).
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for cl in [
            Cluster::Little,
            Cluster::Mid,
            Cluster::Big,
            Cluster::Unknown,
        ] {
            let g: Vec<u32> = freqs
                .keys()
                .copied()
                .filter(|&c| topo.cluster(c) == cl)
                .collect();
            if g.len() >= 2 {
                groups.push(g);
            }
        }
        for g in groups {
            let max = |cpu: u32| {
                topo.max_mhz(cpu)
                    .unwrap_or_else(|| freqs[&cpu].iter().map(|p| p.1).fold(0.0, f64::max))
            };
            let w = end / WINDOWS as f64;
            let mut partial = 0;
            let mut capped_cpus: BTreeSet<u32> = BTreeSet::new();
            let mut changes = 0;
            let mut last: Option<BTreeSet<u32>> = None;
            let (mut low, mut high) = (Vec::new(), Vec::new());
            let mut first_partial: Option<f64> = None;
            let mut last_partial = 0.0;
            for i in 0..WINDOWS {
                let (a, b) = (i as f64 * w, (i + 1) as f64 * w);
                let means: Vec<(u32, f64)> = g
                    .iter()
                    .filter_map(|&c| freq::mean(freqs[&c], a, b).map(|m| (c, m)))
                    .collect();
                if means.len() < 2 {
                    continue;
                }
                let capped: BTreeSet<u32> = means
                    .iter()
                    .filter(|(c, m)| *m < CAPPED_FRACTION * max(*c))
                    .map(|(c, _)| *c)
                    .collect();
                if capped.is_empty() || capped.len() == means.len() {
                    continue;
                }
                partial += 1;
                first_partial.get_or_insert(a);
                last_partial = b;
                for (c, m) in &means {
                    if capped.contains(c) {
                        low.push(*m);
                    } else {
                        high.push(*m);
                    }
                }
                capped_cpus.extend(capped.iter().copied());
                if last.as_ref().is_some_and(|l| *l != capped) {
                    changes += 1;
                }
                last = Some(capped);
            }
            if partial < MIN_PARTIAL_WINDOWS || capped_cpus.len() < 2 || changes < 2 {
                continue;
            }
            let median = |v: &[f64]| crate::stats::median(v.iter().copied()).unwrap_or(0.0);
            let (lo, hi) = (median(&low), median(&high));
            let cpus = cpu_list(&capped_cpus.iter().copied().collect::<Vec<_>>());
            out.push(Finding::new(
                IDS[0],
                Severity::Warning,
                vec![
                    ("cpus", cpus.clone()),
                    ("group", cpu_list(&g)),
                    ("partial", partial.to_string()),
                    ("windows", WINDOWS.to_string()),
                    ("window_s", format!("{w:.2}")),
                    ("low_mhz", format!("{lo:.0}")),
                    ("high_mhz", format!("{hi:.0}")),
                ],
                vec![EvidenceRef {
                    input: trace.input,
                    lines: None,
                    time_s: Some((first_partial.unwrap_or(0.0), last_partial)),
                    quote: Some(Quote::phrase(
                        "quote.thermal.rotating-throttle",
                        vec![
                            ("cpus", cpus.to_string()),
                            ("low", format!("{lo:.0}")),
                            ("group", cpu_list(&g)),
                            ("high", format!("{hi:.0}")),
                            ("partial", partial.to_string()),
                            ("windows", WINDOWS.to_string()),
                            ("window_s", format!("{w:.2}")),
                        ],
                    )),
                }],
            ));
        }
    }
    out
}

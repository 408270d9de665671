//! `thermal.freq-capped`: the fast cores never come near their maximum frequency over the trace
//! (power-save mode or a power/thermal cap from the start; seed 000, §2.3).
//!
//! Needs a maximum that does not come from the trace itself (`cpuinfo_max_freq`, a preset, or
//! the user): a trace's own highest frequency cannot show that it was capped throughout.

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::sched::TopologySource;
use crate::evidence::Evidence;
use crate::views::freq;
use crate::views::topology::cpu_list;
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.freq-capped"];

/// The time-weighted 95th percentile frequency below this share of max counts as capped.
pub const CAP_SHARE: f64 = 0.70;

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let topo = &views.topology;
    if matches!(topo.max_source, None | Some(TopologySource::ObservedFreq)) {
        return Vec::new();
    }
    let fast = topo.fast_cpus();
    let mut out = Vec::new();
    for trace in &ev.sched.traces {
        let freqs = freq::cpu_freqs(ev, trace.input);
        let mut capped = Vec::new();
        let mut checked = 0;
        let (mut p95s, mut maxes) = (Vec::new(), Vec::new());
        for &cpu in &fast {
            let (Some(points), Some(max)) = (freqs.get(&cpu), topo.max_mhz(cpu)) else {
                continue;
            };
            let Some(p95) = freq::quantile(points, trace.end_s, 0.95) else {
                continue;
            };
            checked += 1;
            if p95 < CAP_SHARE * max {
                capped.push(cpu);
                p95s.push(p95);
                maxes.push(max);
            }
        }
        // All fast cores with data are held down (one busy core alone says little).
        if checked == 0 || capped.len() < checked {
            continue;
        }
        let p95 = p95s.iter().copied().fold(0.0, f64::max);
        let max = maxes.iter().copied().fold(0.0, f64::max);
        let share = p95s
            .iter()
            .zip(&maxes)
            .map(|(p, m)| p / m)
            .fold(0.0, f64::max);
        out.push(Finding::new(
            IDS[0],
            Severity::Warning,
            vec![
                ("cpus", cpu_list(&capped)),
                ("p95_mhz", format!("{p95:.0}")),
                ("max_mhz", format!("{max:.0}")),
                ("share", format!("{:.0}%", share * 100.0)),
                (
                    "max_source",
                    topo.max_source.unwrap_or(TopologySource::None).phrase(),
                ),
            ],
            vec![EvidenceRef {
                input: trace.input,
                lines: None,
                time_s: Some((0.0, trace.end_s)),
                quote: Some(Quote::phrase(
                    "quote.thermal.freq-capped",
                    vec![
                        ("cpus", cpu_list(&capped)),
                        ("p95", format!("{p95:.0}")),
                        ("max", format!("{max:.0}")),
                    ],
                )),
            }],
        ));
    }
    out
}

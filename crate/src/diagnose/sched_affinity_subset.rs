//! `sched.affinity-subset`: the inference threads never touch some fast (mid or big) cores
//! while they crowd others or the little ones: the pattern of a default CPU group or affinity
//! mask that holds only part of the big cores (seed 000, §2.2).

use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::sched::{self, pct};
use crate::views::topology::cpu_list;
use crate::views::topology::Cluster;
use crate::views::Views;

pub const IDS: &[&str] = &["sched.affinity-subset"];

/// A fast core with less than this share of inference residency counts as untouched.
pub const UNTOUCHED_SHARE: f64 = 0.005;
/// A core with at least this share counts as used.
pub const USED_SHARE: f64 = 0.02;
/// Little-core share that, with untouched fast cores, shows crowding onto little cores.
pub const LITTLE_SHARE: f64 = 0.10;

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let (topo, views) = (&views.topology, &views.traces);
    let fast = topo.fast_cpus();
    if !topo.known() || fast.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in views {
        if !v.enough() {
            continue;
        }
        let per_cpu = v.inference_per_cpu();
        let total = v.known_total();
        let share = |cpu: u32| per_cpu.get(cpu as usize).copied().unwrap_or(0.0) / total;
        let untouched: Vec<u32> = fast
            .iter()
            .copied()
            .filter(|&c| share(c) < UNTOUCHED_SHARE)
            .collect();
        let used_fast: Vec<u32> = fast
            .iter()
            .copied()
            .filter(|&c| share(c) >= USED_SHARE)
            .collect();
        let little_share = v.inference_by_cluster()[Cluster::Little.index()] / total;
        let threads = v.inference().count();
        let crowded = little_share >= LITTLE_SHARE || threads > used_fast.len();
        if untouched.is_empty() || used_fast.is_empty() || !crowded {
            continue;
        }
        let mut params = vec![
            ("used_fast", cpu_list(&used_fast)),
            ("untouched_fast", cpu_list(&untouched)),
            ("threads", threads.to_string()),
            ("little_share", pct(little_share)),
        ];
        params.extend(sched::basis(v.trace));
        let mut evidence = vec![EvidenceRef {
            input: v.trace.input,
            lines: None,
            time_s: Some((0.0, v.trace.end_s)),
            quote: Some(Quote::phrase(
                "quote.sched.affinity-subset",
                vec![
                    ("threads", threads.to_string()),
                    ("used", cpu_list(&used_fast)),
                    ("untouched", cpu_list(&untouched)),
                    ("little_share", pct(little_share)),
                ],
            )),
        }];
        evidence.extend(stated_masks(ev, v, &untouched));
        out.push(Finding::new(IDS[0], Severity::Warning, params, evidence));
    }
    out
}

/// The affinity masks the inputs state (`taskset -p`, `Cpus_allowed_list`) for the inference
/// threads or their process, when they leave out the untouched fast CPUs: the cause, in words.
fn stated_masks(ev: &Evidence, v: &sched::TraceView<'_>, untouched: &[u32]) -> Vec<EvidenceRef> {
    ev.sched
        .affinity
        .iter()
        .filter(|((_, task), (cpus, _))| {
            v.inference()
                .any(|t| t.thread.tid == *task || t.thread.pid == Some(*task))
                && !untouched.iter().any(|c| cpus.contains(c))
        })
        .take(3)
        .map(|((input, task), (cpus, line))| EvidenceRef {
            input: *input,
            lines: Some((*line, *line)),
            time_s: None,
            quote: Some(Quote::phrase(
                "quote.sched.affinity-mask",
                vec![("task", task.to_string()), ("cpus", cpu_list(cpus))],
            )),
        })
        .collect()
}

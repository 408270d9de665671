//! Memory from snapshots. `memory.resident`: the workload's resident memory is known but no log
//! gives the model's size and quant, so whether its weights sit expanded cannot be told (the
//! finding says what would decide it). `memory.low-available`: the system had little memory
//! left (`free`, `/proc/meminfo`), so mapped weights are evicted and read back from storage.
//!
//! The workload's reading is shared with `quant.weights-expanded`, which compares it with the
//! size the quant promises.

use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::memory::{ProcessFigure, ProcessMemory, SystemMemory};
use crate::evidence::Evidence;
use crate::figures::size;
use crate::views::sched::name_matches;
use crate::views::Views;

pub const IDS: &[&str] = &["memory.resident", "memory.low-available"];

/// Available memory under this share of the total is low.
pub const LOW_AVAILABLE_SHARE: f64 = 0.10;
/// Swap in use above this share of the swap space (and [`MIN_SWAP_USED`]) is heavy.
pub const HEAVY_SWAP_SHARE: f64 = 0.5;
pub const MIN_SWAP_USED: u64 = 512 << 20;

/// The reading of the inference process: a process named like an inference runtime (the
/// largest of its readings), or the only process the snapshots describe. Resident size (`RSS`,
/// `VmHWM`) is preferred to `PSS`, which divides shared pages and so undercounts a mapping.
pub fn workload(ev: &Evidence) -> Option<&ProcessMemory> {
    let all = &ev.memory.processes;
    let rank = |p: &&ProcessMemory| (p.figure != ProcessFigure::Pss, p.bytes);
    let named: Vec<&ProcessMemory> = all.iter().filter(|p| name_matches(&p.name)).collect();
    if !named.is_empty() {
        return named.into_iter().max_by_key(rank);
    }
    let first = all.first()?;
    all.iter()
        .all(|p| p.name == first.name && p.pid == first.pid)
        .then(|| all.iter().max_by_key(rank))
        .flatten()
}

/// `file line N`, for the texts.
pub fn source(ev: &Evidence, input: usize, line: u64) -> String {
    let name = ev.inputs.get(input).map_or("", |i| i.name.as_str());
    format!("{name}:{line}")
}

/// Whether some run gives the model's size and a quant to compare a footprint with.
fn a_run_knows_the_model(ev: &Evidence) -> bool {
    ev.runs
        .iter()
        .any(|r| r.quant.is_some() && (r.params.is_some() || r.model_bytes.is_some()))
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(p) = workload(ev).filter(|_| !a_run_knows_the_model(ev)) {
        let rss = size(p.bytes as f64);
        out.push(Finding::new(
            IDS[0],
            Severity::Info,
            vec![
                ("process", p.name.clone()),
                ("figure", p.label.to_string()),
                ("rss", rss.clone()),
                ("source", source(ev, p.input, p.line)),
            ],
            vec![EvidenceRef {
                input: p.input,
                lines: Some((p.line, p.line)),
                time_s: None,
                quote: Some(Quote::phrase(
                    "quote.memory.rss",
                    vec![
                        ("process", p.name.clone()),
                        ("figure", p.label.to_string()),
                        ("rss", rss),
                    ],
                )),
            }],
        ));
    }
    if let Some(f) = low_available(ev) {
        out.push(f);
    }
    out
}

/// The lowest reading of the system's available memory, when it is low or swap is heavy.
fn low_available(ev: &Evidence) -> Option<Finding> {
    let share = |s: &SystemMemory| match (s.available, s.total) {
        (Some(a), Some(t)) if t > 0 => Some(a as f64 / t as f64),
        _ => None,
    };
    let swap_used = |s: &SystemMemory| match (s.swap_total, s.swap_free) {
        (Some(t), Some(f)) if t > 0 => Some((t.saturating_sub(f), t)),
        _ => None,
    };
    let worst = ev
        .memory
        .system
        .iter()
        .filter(|s| share(s).is_some())
        .min_by(|a, b| share(a).unwrap_or(1.0).total_cmp(&share(b).unwrap_or(1.0)))?;
    let low = share(worst).is_some_and(|s| s < LOW_AVAILABLE_SHARE);
    let (used, total_swap) = swap_used(worst).unwrap_or((0, 0));
    let heavy = used >= MIN_SWAP_USED && used as f64 >= HEAVY_SWAP_SHARE * total_swap as f64;
    if !low && !heavy {
        return None;
    }
    let available = size(worst.available.unwrap_or(0) as f64);
    let total = size(worst.total.unwrap_or(0) as f64);
    let (swap_used, swap_total) = (size(used as f64), size(total_swap as f64));
    let share_pct = format!("{:.0}%", share(worst).unwrap_or(0.0) * 100.0);
    Some(Finding::new(
        IDS[1],
        Severity::Warning,
        vec![
            ("available", available.clone()),
            ("total", total.clone()),
            ("available_share", share_pct.clone()),
            ("swap_used", swap_used.clone()),
            ("swap_total", swap_total.clone()),
            ("source", source(ev, worst.input, worst.line)),
        ],
        vec![EvidenceRef {
            input: worst.input,
            lines: Some((worst.line, worst.line)),
            time_s: None,
            quote: Some(Quote::phrase(
                "quote.memory.available",
                vec![
                    ("available", available),
                    ("total", total),
                    ("share", share_pct),
                    ("swap_used", swap_used),
                    ("swap_total", swap_total),
                ],
            )),
        }],
    ))
}

//! `thermal.rotating-cap` and `thermal.oscillating-cap`, from per-CPU clock samples.
//!
//! Rotating: in a cluster of two or more CPUs, a busy cell's capped set is the CPUs below
//! [`CAP_RATIO`] of the cluster peak. When some but not all CPUs are capped in at least a fifth
//! of the busy cells, the set changes at least three times, and its size stays (spread ≤ 1
//! CPU), the cores take turns. The traces rule finds the same pattern from `cpu_frequency`
//! events by another method, with other figures, under its own id (`thermal.rotating-throttle`).
//!
//! Oscillating: a domain's busy-cell clock has an autocorrelation peak (r ≥ 0.5) at a lag of at
//! least two cells, with at least three full swings between levels ≥ 10 % of peak apart.

use super::stats::{autocorrelation, quantile};
use super::{num, Ctx, CAP_RATIO};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::evidence::InputKind;
use crate::views::topology::cpu_list;
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.rotating-cap", "thermal.oscillating-cap"];

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let Some(ctx) = views.telemetry.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in &ctx.domains {
        // Traces get this finding from the traces rule (cpu_frequency events); do not repeat it.
        let from_trace =
            ev.inputs.get(d.input).and_then(|i| i.kind.as_ref()) == Some(&InputKind::Trace);
        if let Some(f) = rotating(ctx, d).filter(|_| !from_trace) {
            out.push(f);
        } else if let Some(f) = oscillating(ctx, d) {
            out.push(f);
        }
    }
    out
}

fn rotating(ctx: &Ctx, d: &super::Domain) -> Option<Finding> {
    if d.cpus.len() < 2 {
        return None;
    }
    let busy = ctx.busy_cells(&d.values);
    let limit = CAP_RATIO * d.peak;
    let mut sets: Vec<(usize, Vec<u32>)> = Vec::new();
    for &k in &busy {
        let set: Vec<u32> = d
            .cpus
            .iter()
            .filter(|c| c.1[k].is_finite() && c.1[k] < limit)
            .map(|c| c.0)
            .collect();
        if !set.is_empty() && set.len() < d.cpus.len() {
            sets.push((k, set));
        }
    }
    if sets.len() * 5 < busy.len().max(1) || sets.len() < 4 {
        return None;
    }
    let changes = sets.windows(2).filter(|w| w[0].1 != w[1].1).count();
    let sizes: Vec<f64> = sets.iter().map(|s| s.1.len() as f64).collect();
    let (lo, hi) = (
        quantile(sizes.iter().copied(), 0.1)?,
        quantile(sizes.iter().copied(), 0.9)?,
    );
    let mut involved: Vec<u32> = sets.iter().flat_map(|s| s.1.iter().copied()).collect();
    involved.sort_unstable();
    involved.dedup();
    if changes < 3 || hi - lo > 1.0 || involved.len() < 2 {
        return None;
    }
    let mean_size = sizes.iter().sum::<f64>() / sizes.len() as f64;
    let (a, b) = (sets.first()?.0, sets.last()?.0);
    let (t0, t1) = (ctx.grid.t(a), ctx.grid.t(b) + ctx.grid.dt);
    Some(Finding {
        variant: None,
        id: "thermal.rotating-cap",
        severity: Severity::Warning,
        params: vec![
            ("domain", d.name.clone()),
            ("cpus", cpu_list(&involved)),
            ("capped", num(mean_size, 1)),
            ("of", d.cpus.len().to_string()),
            ("changes", changes.to_string()),
            ("t_start", num(t0, 0)),
            ("t_end", num(t1, 0)),
        ],
        count: Some(changes as u64),
        evidence: vec![EvidenceRef {
            input: d.input,
            lines: None,
            time_s: Some((t0, t1)),
            quote: Some(Quote::phrase(
                "quote.telemetry.rotating-cap",
                vec![
                    ("domain", d.name.clone()),
                    ("changes", changes.to_string()),
                    ("cpus", cpu_list(&involved)),
                ],
            )),
        }],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

fn oscillating(ctx: &Ctx, d: &super::Domain) -> Option<Finding> {
    let busy = ctx.busy_cells(&d.values);
    if busy.len() < 20 {
        return None;
    }
    let x: Vec<f64> = busy.iter().map(|&k| d.values[k]).collect();
    let (lo, hi) = (
        quantile(x.iter().copied(), 0.1)?,
        quantile(x.iter().copied(), 0.9)?,
    );
    if hi - lo < 0.1 * d.peak || lo >= CAP_RATIO * d.peak && hi - lo < 0.15 * d.peak {
        return None;
    }
    let mid = (lo + hi) / 2.0;
    let swings = x
        .windows(2)
        .filter(|w| (w[0] < mid) != (w[1] < mid))
        .count()
        / 2;
    if swings < 3 {
        return None;
    }
    let max_lag = x.len() / 3;
    let r: Vec<f64> = (0..=max_lag)
        .map(|l| autocorrelation(&x, l).unwrap_or(f64::NAN))
        .collect();
    // The first local maximum after the autocorrelation first dips below zero.
    let dip = r.iter().position(|v| *v < 0.0)?;
    let lag = (dip.max(2)..max_lag).find(|&l| {
        r[l] >= 0.5
            && r[l] >= r[l - 1]
            && r[l] >= r.get(l + 1).copied().unwrap_or(f64::NEG_INFINITY)
    })?;
    let (t0, t1) = (ctx.grid.t(busy[0]), ctx.grid.t(*busy.last()?) + ctx.grid.dt);
    Some(Finding {
        variant: None,
        id: "thermal.oscillating-cap",
        severity: Severity::Warning,
        params: vec![
            ("domain", d.name.clone()),
            ("period_s", num(lag as f64 * ctx.grid.dt, 0)),
            ("low_mhz", num(lo, 0)),
            ("high_mhz", num(hi, 0)),
            ("swings", swings.to_string()),
            ("r", num(r[lag], 2)),
            ("t_start", num(t0, 0)),
            ("t_end", num(t1, 0)),
        ],
        count: Some(swings as u64),
        evidence: vec![EvidenceRef {
            input: d.input,
            lines: None,
            time_s: Some((t0, t1)),
            quote: Some(Quote::phrase(
                "quote.telemetry.oscillating-cap",
                vec![
                    ("domain", d.name.clone()),
                    ("lo", num(lo, 0)),
                    ("hi", num(hi, 0)),
                    ("period", num(lag as f64 * ctx.grid.dt, 0)),
                ],
            )),
        }],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

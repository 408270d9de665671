//! `thermal.sustained-decay`: tokens/s at the end of a long run well below its start.
//!
//! Trend: Theil–Sen slope with a Mann-Kendall test (Z ≤ −2.58) over busy cells. The start and
//! end levels are the medians of the first and last tenth; a decay needs end ≤ 85 % of start.
//! Time to steady state: the first cell after which throughput stays within 5 % of the end
//! level. The same windows are read from the busiest clock, the hottest sensor and the largest
//! power rail, so the finding says whether the decay follows the clock, heat, or neither (then
//! the LLM confound applies: per-token cost grows with context even at a fixed clock).

use super::stats::trend;
use super::{num, signed, Ctx};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::stats::median;
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.sustained-decay"];

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let Some(ctx) = views.telemetry.as_ref() else {
        return Vec::new();
    };
    find(ctx).into_iter().collect()
}

fn find(ctx: &Ctx) -> Option<Finding> {
    let tok = ctx.tokens.as_ref()?;
    let busy = ctx.busy_cells(&tok.values);
    if busy.len() < 20 {
        return None;
    }
    let pts: Vec<(f64, f64)> = busy
        .iter()
        .map(|&k| (ctx.grid.t(k), tok.values[k]))
        .collect();
    let (slope, z) = trend(&pts)?;
    let tenth = (busy.len() / 10).max(2);
    let head = &busy[..tenth];
    let tail = &busy[busy.len() - tenth..];
    let level = |v: &[f64], cells: &[usize]| median(cells.iter().map(|&k| v[k]));
    let (start, end) = (level(&tok.values, head)?, level(&tok.values, tail)?);
    if z > -2.58 || start <= 0.0 || end > 0.85 * start {
        return None;
    }
    let steady = busy
        .iter()
        .rposition(|&k| (tok.values[k] - end).abs() > 0.05 * end)
        .map_or(busy[0], |i| busy[(i + 1).min(busy.len() - 1)]);
    let change = |v: &[f64]| -> Option<f64> { Some(level(v, tail)? / level(v, head)? - 1.0) };
    let clock = ctx
        .domains
        .iter()
        .max_by(|a, b| a.peak.total_cmp(&b.peak))
        .and_then(|d| change(&d.values))
        .map_or_else(|| "?".into(), |c| format!("{}%", signed(100.0 * c, 0)));
    let heat = ctx
        .temps
        .iter()
        .filter_map(|t| Some(level(&t.values, tail)? - level(&t.values, head)?))
        .max_by(f64::total_cmp)
        .map_or_else(|| "?".into(), |d| format!("{} °C", signed(d, 1)));
    let t0 = ctx.grid.t(busy[0]);
    let t1 = ctx.grid.t(*busy.last()?) + ctx.grid.dt;
    let slope_per_h = num(slope * 3600.0, 2);
    // A step down (two flat levels) has a Theil–Sen slope of 0: most pairs of points lie on one
    // level. Its summary then speaks of a step, not of a rate that reads as "no decay".
    let step = slope_per_h.parse::<f64>().is_ok_and(|s| s == 0.0);
    let mut params = vec![
        ("start", num(start, 1)),
        ("end", num(end, 1)),
        ("ratio_pct", num(100.0 * end / start, 0)),
        ("steady_s", num(ctx.grid.t(steady) - t0, 0)),
        ("clock_change", clock),
        ("temp_change", heat),
        ("t_start", num(t0, 0)),
        ("t_end", num(t1, 0)),
    ];
    if !step {
        params.push(("slope_per_h", slope_per_h));
    }
    Some(
        Finding::new(
            "thermal.sustained-decay",
            Severity::Warning,
            params,
            vec![EvidenceRef {
                input: tok.input,
                lines: None,
                time_s: Some((t0, t1)),
                quote: Some(Quote::phrase(
                    "quote.telemetry.decay",
                    vec![
                        ("series", tok.name.clone()),
                        ("start", num(start, 1)),
                        ("end", num(end, 1)),
                        ("slope", num(slope * 3600.0, 2)),
                        ("z", num(z, 1)),
                    ],
                )),
            }],
        )
        .with_variant(step.then_some("step")),
    )
}

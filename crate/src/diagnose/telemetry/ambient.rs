//! `thermal.ambient`: the recorded ambient temperature, and what a rise costs. Seed 002: about
//! 5 °C more ambient costs 8–12 % of maximum frequency.

use super::num;
use super::stats::quantile;
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.ambient"];

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let Some(ctx) = views.telemetry.as_ref() else {
        return Vec::new();
    };
    let Some(amb) = ctx
        .temps
        .iter()
        .find(|t| super::threshold(&t.name).is_none())
    else {
        return Vec::new();
    };
    let cells: Vec<usize> = (0..ctx.grid.n)
        .filter(|&k| amb.values[k].is_finite())
        .collect();
    let (Some(&a), Some(&b)) = (cells.first(), cells.last()) else {
        return Vec::new();
    };
    let (Some(lo), Some(hi)) = (
        quantile(cells.iter().map(|&k| amb.values[k]), 0.05),
        quantile(cells.iter().map(|&k| amb.values[k]), 0.95),
    ) else {
        return Vec::new();
    };
    let rise = hi - lo;
    let (t0, t1) = (ctx.grid.t(a), ctx.grid.t(b) + ctx.grid.dt);
    vec![Finding::new(
        "thermal.ambient",
        if rise >= 3.0 {
            Severity::Warning
        } else {
            Severity::Info
        },
        vec![
            ("sensor", amb.name.clone()),
            ("low_c", num(lo, 1)),
            ("high_c", num(hi, 1)),
            ("cost_low", num(rise / 5.0 * 8.0, 0)),
            ("cost_high", num(rise / 5.0 * 12.0, 0)),
            ("t_start", num(t0, 0)),
            ("t_end", num(t1, 0)),
        ],
        vec![EvidenceRef {
            input: amb.input,
            lines: None,
            time_s: Some((t0, t1)),
            quote: Some(Quote::phrase(
                "quote.telemetry.range-c",
                vec![
                    ("series", amb.name.clone()),
                    ("lo", num(lo, 1)),
                    ("hi", num(hi, 1)),
                ],
            )),
        }],
    )]
}

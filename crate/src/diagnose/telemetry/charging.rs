//! `power.charging-contention` and `power.low-battery`: throughput by plugged state and by
//! battery level.
//!
//! Charging: busy cells are split by the plugged state (`AC/USB/Wireless powered`,
//! `power_supply/*/online`, a charging column); never by the sign of battery current, which
//! drivers disagree on. Throughput (tokens/s, else the busiest clock) is compared at equal
//! elapsed time: each plugged cell is paired with the unplugged cells within ±10 % of the run's
//! busy span of the same elapsed time when there are any (runs that toggle the charger), else
//! the segment medians are compared and the order is stated (heat soak can favour the first).
//!
//! Low battery: busy cells below 20 % charge against those at or above it.

use super::{num, Ctx};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::stats::median;
use crate::views::Views;

pub const IDS: &[&str] = &["power.charging-contention", "power.low-battery"];

/// Smallest slowdown worth a finding.
const SLOWER: f64 = 0.10;

pub fn rule(_ev: &Evidence, views: &Views) -> Vec<Finding> {
    let Some(ctx) = views.telemetry.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    out.extend(charging(ctx));
    out.extend(low_battery(ctx));
    out
}

fn charging(ctx: &Ctx) -> Option<Finding> {
    let plug = ctx.charging.as_ref()?;
    let (name, _, thr, unit) = ctx.throughput()?;
    let busy = ctx.busy_cells(thr);
    let on: Vec<usize> = busy
        .iter()
        .copied()
        .filter(|&k| plug.values[k] >= 0.5)
        .collect();
    let off: Vec<usize> = busy
        .iter()
        .copied()
        .filter(|&k| plug.values[k].is_finite() && plug.values[k] < 0.5)
        .collect();
    if on.len() < 5 || off.len() < 5 {
        return None;
    }
    // Equal elapsed time: keep the cells of each state that have a cell of the other state
    // within ±10 % of the busy span (a run that toggles the charger); else whole segments.
    let span = busy.last()?.saturating_sub(busy[0]).max(1);
    let near = |k: usize, other: &[usize]| other.iter().any(|&j| k.abs_diff(j) * 10 <= span);
    let on_m: Vec<usize> = on.iter().copied().filter(|&k| near(k, &off)).collect();
    let off_m: Vec<usize> = off.iter().copied().filter(|&k| near(k, &on)).collect();
    let matched = on_m.len() >= 5 && off_m.len() >= 5;
    let (on_c, off_c) = if matched {
        (&on_m, &off_m)
    } else {
        (&on, &off)
    };
    let med_on = median(on_c.iter().map(|&k| thr[k]))?;
    let med_off = median(off_c.iter().map(|&k| thr[k]))?;
    if med_off <= 0.0 || 1.0 - med_on / med_off < SLOWER {
        return None;
    }
    let first_on = on[0] < off[0];
    let t_on = (ctx.grid.t(on[0]), ctx.grid.t(*on.last()?) + ctx.grid.dt);
    Some(Finding::new(
        "power.charging-contention",
        Severity::Warning,
        vec![
            ("charging", num(med_on, 1)),
            ("battery", num(med_off, 1)),
            ("unit", unit.into()),
            ("slower_pct", num(100.0 * (1.0 - med_on / med_off), 0)),
            ("series", name.to_string()),
            (
                "order",
                if matched {
                    "@telemetry.order.matched"
                } else if first_on {
                    "@telemetry.order.charging-first"
                } else {
                    "@telemetry.order.battery-first"
                }
                .into(),
            ),
            ("t_start", num(t_on.0, 0)),
            ("t_end", num(t_on.1, 0)),
        ],
        vec![EvidenceRef {
            input: plug.input,
            lines: None,
            time_s: Some(t_on),
            quote: Some(Quote::phrase(
                "quote.telemetry.plugged",
                vec![
                    ("series", name.to_string()),
                    ("on", num(med_on, 1)),
                    ("off", num(med_off, 1)),
                    ("unit", unit.to_string()),
                ],
            )),
        }],
    ))
}

fn low_battery(ctx: &Ctx) -> Option<Finding> {
    let level = ctx.battery.as_ref()?;
    let (name, _, thr, unit) = ctx.throughput()?;
    let busy = ctx.busy_cells(thr);
    let low: Vec<usize> = busy
        .iter()
        .copied()
        .filter(|&k| level.values[k] < 20.0)
        .collect();
    let ok: Vec<usize> = busy
        .iter()
        .copied()
        .filter(|&k| level.values[k] >= 20.0)
        .collect();
    if low.len() < 5 || ok.len() < 5 {
        return None;
    }
    let (m_low, m_ok) = (
        median(low.iter().map(|&k| thr[k]))?,
        median(ok.iter().map(|&k| thr[k]))?,
    );
    if m_ok <= 0.0 || 1.0 - m_low / m_ok < SLOWER {
        return None;
    }
    let min_level = low
        .iter()
        .map(|&k| level.values[k])
        .fold(f64::INFINITY, f64::min);
    let t = (ctx.grid.t(low[0]), ctx.grid.t(*low.last()?) + ctx.grid.dt);
    let volt = ctx.voltages.first().and_then(|v| {
        let lo = low
            .iter()
            .map(|&k| v.values[k])
            .filter(|x| x.is_finite())
            .fold(f64::INFINITY, f64::min);
        lo.is_finite().then(|| num(lo, 0))
    });
    let mut params = vec![
        ("low", num(m_low, 1)),
        ("ok", num(m_ok, 1)),
        ("unit", unit.into()),
        ("slower_pct", num(100.0 * (1.0 - m_low / m_ok), 0)),
        ("level", num(min_level, 0)),
        ("series", name.to_string()),
        ("t_start", num(t.0, 0)),
        ("t_end", num(t.1, 0)),
    ];
    params.push(("min_mv", volt.unwrap_or_else(|| "?".into())));
    Some(Finding::new(
        "power.low-battery",
        Severity::Warning,
        params,
        vec![EvidenceRef {
            input: level.input,
            lines: None,
            time_s: Some(t),
            quote: Some(Quote::phrase(
                "quote.telemetry.low-battery",
                vec![
                    ("series", name.to_string()),
                    ("low", num(m_low, 1)),
                    ("ok", num(m_ok, 1)),
                    ("unit", unit.to_string()),
                ],
            )),
        }],
    ))
}

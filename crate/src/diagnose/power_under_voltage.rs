//! `power.under-voltage`: the supply dropped below what the board needs (seed 002 §3.3). The SoC
//! then caps its clocks, and USB devices on the same rail reset, so throughput stalls or falls
//! whatever the temperature.
//!
//! Three sources say so: kernel messages (with their lines and times), a supply rail recorded by
//! telemetry (sbc-bench's `DC(V)`, a `vdd_5v` column) that sags more than 5 % below its median
//! while the clock falls below 90 % of its peak, and status flags (`vcgencmd get_throttled`:
//! bit 0 "under-voltage now", bit 16 "has occurred since boot"). Kernel messages win when there
//! are several, then the rail: both carry the times.

use super::kernel_events::{episode, of_kind};
use super::telemetry::num;
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, KernelEventKind, Quantity};
use crate::stats::median;
use crate::views::telemetry::axis_t;
use crate::views::Views;

pub const IDS: &[&str] = &["power.under-voltage"];

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let drops = of_kind(ev, KernelEventKind::UnderVoltage);
    if drops.is_empty() {
        return from_rail(ev, views)
            .or_else(|| from_flags(ev, views))
            .into_iter()
            .collect();
    }
    let usb = of_kind(ev, KernelEventKind::Usb);
    let e = episode(ev, &drops);
    vec![Finding {
        variant: None,
        id: "power.under-voltage",
        severity: Severity::Critical,
        params: vec![
            ("count", drops.len().to_string()),
            ("first", e.first),
            ("last", e.last),
            ("usb", usb.len().to_string()),
        ],
        count: Some(drops.len() as u64),
        evidence: e.evidence,
        lines: e.lines,
        lines_truncated: false,
    }]
}

/// Under-voltage from status flags: how many samples had it now, how many said it had occurred.
fn from_flags(ev: &Evidence, views: &Views) -> Option<Finding> {
    let origins = &views.time_origins;
    let flag = |name: &str| {
        ev.series
            .iter()
            .find(|s| matches!(&s.quantity, Quantity::ThrottleFlag { reason } if reason == name))
    };
    let now = flag("under-voltage");
    let occurred = flag("under-voltage has occurred");
    let on = |s: Option<&crate::evidence::Series>| {
        s.map_or(0, |s| s.points.iter().filter(|p| p.1 >= 0.5).count())
    };
    let (n_now, n_occurred) = (on(now), on(occurred));
    if n_now == 0 && n_occurred == 0 {
        return None;
    }
    let s = if n_now > 0 { now? } else { occurred? };
    let samples = s.points.len();
    let active: Vec<f64> = s
        .points
        .iter()
        .filter(|p| p.1 >= 0.5)
        .map(|p| axis_t(s, p.0, origins))
        .collect();
    let (t0, t1) = (active.first().copied()?, active.last().copied()?);
    Some(Finding {
        variant: Some("flags"),
        id: "power.under-voltage",
        severity: if n_now > 0 {
            Severity::Critical
        } else {
            Severity::Warning
        },
        params: vec![
            ("now", n_now.to_string()),
            ("occurred", n_occurred.to_string()),
            ("samples", samples.to_string()),
            ("source", s.source.clone()),
            ("t_start", num(t0, 0)),
            ("t_end", num(t1, 0)),
        ],
        count: Some(n_now.max(n_occurred) as u64),
        evidence: vec![EvidenceRef {
            input: s.input,
            lines: None,
            time_s: Some((t0, t1)),
            quote: Some(Quote::phrase(
                "quote.power.under-voltage-flags",
                vec![
                    ("source", s.source.clone()),
                    ("now", n_now.to_string()),
                    ("samples", samples.to_string()),
                    ("occurred", n_occurred.to_string()),
                ],
            )),
        }],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

/// A rail that feeds the board (not a core or battery rail), by its name.
fn is_supply_rail(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "dc in", "dc-in", "vdd_in", "vin", "5v", "vbus", "input", "supply",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// Under-voltage from a supply rail: cells more than 5 % below the rail's median in which the
/// busiest clock also ran below 90 % of its peak.
fn from_rail(_ev: &Evidence, views: &Views) -> Option<Finding> {
    let ctx = views.telemetry.as_ref()?;
    let (clock, _, thr, unit) = ctx.throughput()?;
    if unit != "MHz" {
        return None;
    }
    let peak = thr
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max);
    ctx.voltages
        .iter()
        .filter(|v| is_supply_rail(&v.name))
        .find_map(|v| {
            let nominal = median(v.values.iter().copied().filter(|x| x.is_finite()))?;
            let low: Vec<usize> = (0..ctx.grid.n)
                .filter(|&k| v.values[k].is_finite() && v.values[k] < 0.95 * nominal)
                .collect();
            let with_clock: Vec<usize> = low
                .iter()
                .copied()
                .filter(|&k| thr[k].is_finite() && thr[k] < 0.9 * peak)
                .collect();
            if with_clock.len() < 2 || with_clock.len() * 2 < low.len() {
                return None;
            }
            let min = with_clock
                .iter()
                .map(|&k| v.values[k])
                .fold(f64::INFINITY, f64::min);
            let clock_at = median(with_clock.iter().map(|&k| thr[k]))?;
            let (t0, t1) = (
                ctx.grid.t(with_clock[0]),
                ctx.grid.t(*with_clock.last()?) + ctx.grid.dt,
            );
            let seconds = with_clock.len() as f64 * ctx.grid.dt;
            Some(Finding {
                variant: Some("rail"),
                id: "power.under-voltage",
                severity: Severity::Critical,
                params: vec![
                    ("rail", v.name.clone()),
                    ("min_v", num(min / 1e3, 2)),
                    ("nominal_v", num(nominal / 1e3, 2)),
                    ("seconds", num(seconds, 0)),
                    ("clock", clock.to_string()),
                    ("clock_mhz", num(clock_at, 0)),
                    ("peak_mhz", num(peak, 0)),
                    // Sizes the cause in the verdict, as a clock cap's share does.
                    ("capped_pct", num(100.0 * (1.0 - clock_at / peak), 0)),
                    ("t_start", num(t0, 0)),
                    ("t_end", num(t1, 0)),
                ],
                count: Some(with_clock.len() as u64),
                evidence: vec![EvidenceRef {
                    input: v.input,
                    lines: None,
                    time_s: Some((t0, t1)),
                    quote: Some(Quote::phrase(
                        "quote.power.under-voltage-rail",
                        vec![
                            ("rail", v.name.clone()),
                            ("min_v", num(min / 1e3, 2)),
                            ("nominal_v", num(nominal / 1e3, 2)),
                            ("clock", clock.to_string()),
                            ("clock_mhz", num(clock_at, 0)),
                        ],
                    )),
                }],
                lines: Vec::new(),
                lines_truncated: false,
            })
        })
}

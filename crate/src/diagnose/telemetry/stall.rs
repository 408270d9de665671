//! `power.periodic-stall`: throughput dips at a regular period (seed 002: an unpowered USB disk
//! pulling the supply down every few seconds).
//!
//! Baseline: the rolling median of throughput over ±7 busy cells. A dip is a run of cells below
//! 70 % of it. At least three dips whose start-to-start intervals vary by at most 25 %
//! (coefficient of variation) make a periodic stall. When a voltage is recorded, the dips are
//! checked against it; when a kernel log has USB resets, against their times ([`super::usb_tie`]).

use super::stats::mean;
use super::usb_tie;
use super::{num, Ctx};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::stats::median;
use crate::views::Views;

pub const IDS: &[&str] = &["power.periodic-stall"];

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let Some(ctx) = views.telemetry.as_ref() else {
        return Vec::new();
    };
    find(ev, views, ctx).into_iter().collect()
}

/// Whether the USB events of the kernel log line up with periodic stalls (then the stall finding
/// shows them).
pub fn usb_tied(ev: &Evidence, views: &Views) -> bool {
    let Some(ctx) = views.telemetry.as_ref() else {
        return false;
    };
    find(ev, views, ctx).is_some_and(|f| f.variant == Some("usb"))
}

fn find(ev: &Evidence, views: &Views, ctx: &Ctx) -> Option<Finding> {
    let (name, input, thr, unit) = ctx.throughput()?;
    let busy = ctx.busy_cells(thr);
    if busy.len() < 20 {
        return None;
    }
    let x: Vec<f64> = busy.iter().map(|&k| thr[k]).collect();
    let half = 7;
    let base: Vec<f64> = (0..x.len())
        .map(|i| {
            median(
                x[i.saturating_sub(half)..(i + half + 1).min(x.len())]
                    .iter()
                    .copied(),
            )
            .unwrap_or(f64::NAN)
        })
        .collect();
    let mut dips: Vec<(usize, usize, f64)> = Vec::new(); // (start, end, depth)
    let mut i = 0;
    while i < x.len() {
        if x[i] < 0.7 * base[i] {
            let start = i;
            let mut depth: f64 = 0.0;
            while i < x.len() && x[i] < 0.7 * base[i] {
                depth = depth.max(1.0 - x[i] / base[i]);
                i += 1;
            }
            dips.push((start, i, depth));
        }
        i += 1;
    }
    if dips.len() < 3 {
        return None;
    }
    let starts: Vec<f64> = dips.iter().map(|d| ctx.grid.t(busy[d.0])).collect();
    let gaps: Vec<f64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    let m = mean(gaps.iter().copied())?;
    let sd = (gaps.iter().map(|g| (g - m) * (g - m)).sum::<f64>() / gaps.len() as f64).sqrt();
    if m <= 0.0 || sd / m > 0.25 {
        return None;
    }
    let depth = median(dips.iter().map(|d| d.2))?;
    let voltage = ctx.voltages.first().and_then(|v| {
        let at_dips = mean(dips.iter().map(|d| v.values[busy[d.0]]))?;
        let overall = median(busy.iter().map(|&k| v.values[k]))?;
        Some((at_dips, overall))
    });
    let (t0, t1) = (
        starts[0],
        ctx.grid.t(busy[dips.last()?.1.min(busy.len() - 1)]) + ctx.grid.dt,
    );
    let mut params = vec![
        ("count", dips.len().to_string()),
        ("period_s", num(m, 1)),
        ("depth_pct", num(100.0 * depth, 0)),
        ("series", name.to_string()),
        ("unit", unit.into()),
        ("t_start", num(t0, 0)),
        ("t_end", num(t1, 0)),
    ];
    params.push((
        "voltage",
        match voltage {
            Some((d, o)) => format!("{} / {} mV", num(d, 0), num(o, 0)),
            None => "?".into(),
        },
    ));
    let windows: Vec<(f64, f64)> = dips
        .iter()
        .map(|d| {
            (
                ctx.grid.t(busy[d.0]),
                ctx.grid.t(busy[(d.1.max(d.0 + 1) - 1).min(busy.len() - 1)]) + ctx.grid.dt,
            )
        })
        .collect();
    let tie = usb_tie::assess(ev, views, input, &windows, ctx.grid.dt, m);
    let mut f = Finding {
        variant: None,
        id: "power.periodic-stall",
        severity: Severity::Warning,
        params,
        count: Some(dips.len() as u64),
        evidence: vec![EvidenceRef {
            input,
            lines: None,
            time_s: Some((t0, t1)),
            quote: Some(Quote::phrase(
                "quote.telemetry.stall",
                vec![
                    ("series", name.to_string()),
                    ("dips", dips.len().to_string()),
                    ("depth", num(100.0 * depth, 0)),
                    ("period", num(m, 1)),
                ],
            )),
        }],
        lines: Vec::new(),
        lines_truncated: false,
    };
    if let Some(tie) = tie {
        usb_tie::annotate(&mut f, &tie, &windows);
    }
    Some(f)
}

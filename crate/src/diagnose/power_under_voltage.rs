//! `power.under-voltage`: the supply dropped below what the board needs (seed 002 §3.3). The SoC
//! then caps its clocks, and USB devices on the same rail reset, so throughput stalls or falls
//! whatever the temperature.
//!
//! Two sources say so: kernel messages (with their lines and times), and status flags
//! (`vcgencmd get_throttled`: bit 0 "under-voltage now", bit 16 "has occurred since boot").
//! Kernel messages win when both are there: they carry the times.

use super::kernel_events::{episode, of_kind};
use super::telemetry::{axis_t, num, time_origins};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, KernelEventKind, Quantity};

pub const IDS: &[&str] = &["power.under-voltage"];

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let drops = of_kind(ev, KernelEventKind::UnderVoltage);
    if drops.is_empty() {
        return from_flags(ev).into_iter().collect();
    }
    let usb = of_kind(ev, KernelEventKind::Usb);
    let e = episode(ev, &drops);
    vec![Finding {
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
fn from_flags(ev: &Evidence) -> Option<Finding> {
    let origins = time_origins(ev);
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
        .map(|p| axis_t(s, p.0, &origins))
        .collect();
    let (t0, t1) = (active.first().copied()?, active.last().copied()?);
    Some(Finding {
        id: "power.under-voltage",
        severity: if n_now > 0 {
            Severity::Critical
        } else {
            Severity::Warning
        },
        params: vec![
            ("variant", "flags".into()),
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

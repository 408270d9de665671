//! `power.under-voltage`: the kernel says the supply dropped below what the board needs (seed 002
//! §3.3). The SoC then caps its clocks, and USB devices on the same rail reset, so throughput
//! stalls or falls whatever the temperature.

use super::kernel_events::{episode, of_kind};
use super::{Finding, Severity};
use crate::evidence::{Evidence, KernelEventKind};

pub const IDS: &[&str] = &["power.under-voltage"];

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let drops = of_kind(ev, KernelEventKind::UnderVoltage);
    if drops.is_empty() {
        return Vec::new();
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

//! `power.usb-errors`: the kernel log shows USB resets, disconnects or enumeration errors. Seed
//! 002 §4.4: a USB device without its own supply drops the rail and resets, and the run stalls
//! with it. Alone they prove no slowdown, so this only shows them; `power.under-voltage` counts
//! them next to the supply's own messages, and `power.periodic-stall` carries them when their
//! times line up with its stalls, so neither case repeats them here.

use super::kernel_events::{episode, of_kind};
use super::telemetry::stall;
use super::{Finding, Severity};
use crate::evidence::{Evidence, KernelEventKind};
use crate::views::Views;

pub const IDS: &[&str] = &["power.usb-errors"];

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let usb = of_kind(ev, KernelEventKind::Usb);
    if usb.is_empty()
        || !of_kind(ev, KernelEventKind::UnderVoltage).is_empty()
        || stall::usb_tied(ev, views)
    {
        return Vec::new();
    }
    let e = episode(ev, &usb);
    vec![Finding {
        variant: None,
        id: IDS[0],
        severity: Severity::Info,
        params: vec![
            ("count", usb.len().to_string()),
            ("first", e.first),
            ("last", e.last),
        ],
        count: Some(usb.len() as u64),
        evidence: e.evidence,
        lines: e.lines,
        lines_truncated: false,
    }]
}

//! `thermal.kernel-throttle`: the kernel itself says it throttled the CPU or that a thermal zone
//! tripped. Unlike a clock curve, this needs no inference: the count, the times and the zones
//! are in the log.

use super::kernel_events::{episode, of_kind};
use super::{Finding, Severity};
use crate::evidence::{Evidence, KernelEventKind};
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.kernel-throttle"];

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let events = of_kind(ev, KernelEventKind::ThermalThrottle);
    if events.is_empty() {
        return Vec::new();
    }
    let mut zones: Vec<&str> = events.iter().filter_map(|e| e.subject.as_deref()).collect();
    zones.sort_unstable();
    zones.dedup();
    let zones = if zones.is_empty() {
        "?".to_string()
    } else {
        zones.iter().take(8).copied().collect::<Vec<_>>().join(", ")
    };
    let e = episode(ev, &events);
    vec![Finding {
        variant: None,
        id: "thermal.kernel-throttle",
        severity: Severity::Warning,
        params: vec![
            ("count", events.len().to_string()),
            ("first", e.first),
            ("last", e.last),
            ("zones", zones),
        ],
        count: Some(events.len() as u64),
        evidence: e.evidence,
        lines: e.lines,
        lines_truncated: false,
    }]
}

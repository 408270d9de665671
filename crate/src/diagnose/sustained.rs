//! `thermal.sustained-drop`: the kernel, run without pause in the page's sustained mode, lost
//! throughput over time — the device throttled (seed 002 §3.2: the first minute is not the tenth).
//! It speaks of the device running the browser, so it joins an analysis of dropped inputs only
//! when the user says they came from that device (`Evidence::probe_for_inputs`).
//!
//! The start level is the median of the first [`EDGE`] of the samples, the end level the median of
//! the last [`EDGE`]. The run "settled" at the first sample after which every sample stays within
//! [`SETTLE_BAND`] of the end level.

use super::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::stats::median;
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.sustained-drop"];

/// Share of the samples at each end that set the start and end levels.
const EDGE: f64 = 0.15;
/// A drop smaller than this is noise on a shared device.
const MIN_DROP: f64 = 0.10;
/// A drop of this much or more is critical: decode speed falls by about as much.
const CRITICAL_DROP: f64 = 0.30;
const SETTLE_BAND: f64 = 0.05;
/// Fewer samples, or a shorter run, say nothing about sustained behaviour.
const MIN_POINTS: usize = 6;
const MIN_SPAN_S: f64 = 20.0;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let Some(d) = ev.probe_for_inputs() else {
        return Vec::new();
    };
    let pts = &d.sustained;
    if pts.len() < MIN_POINTS {
        return Vec::new();
    }
    let span = pts[pts.len() - 1].0 - pts[0].0;
    if span < MIN_SPAN_S {
        return Vec::new();
    }
    let k = ((pts.len() as f64 * EDGE).ceil() as usize).max(2);
    let level = |s: &[(f64, f64)]| median(s.iter().map(|p| p.1)).unwrap_or(0.0);
    let start = level(&pts[..k]);
    let end = level(&pts[pts.len() - k..]);
    if start <= 0.0 {
        return Vec::new();
    }
    let drop = 1.0 - end / start;
    if drop < MIN_DROP {
        return Vec::new();
    }
    let settled_at = pts
        .iter()
        .rposition(|p| (p.1 - end).abs() > SETTLE_BAND * end)
        .map_or(pts[0].0, |i| pts[(i + 1).min(pts.len() - 1)].0);
    vec![Finding::new(
        IDS[0],
        if drop >= CRITICAL_DROP {
            Severity::Critical
        } else {
            Severity::Warning
        },
        vec![
            ("drop_pct", format!("{:.0}", drop * 100.0)),
            ("start_gbps", format!("{start:.2}")),
            ("end_gbps", format!("{end:.2}")),
            ("settled_s", format!("{:.0}", settled_at - pts[0].0)),
            ("duration_s", format!("{span:.0}")),
        ],
        Vec::<EvidenceRef>::new(),
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::DeviceProbe;

    fn ev(points: Vec<(f64, f64)>) -> Evidence {
        let mut e = Evidence::default();
        e.device = Some(DeviceProbe {
            read_gbps_best: 10.0,
            sustained: points,
            ..DeviceProbe::default()
        });
        e
    }

    #[test]
    fn a_throttled_run_reports_the_drop_and_when_it_settled() {
        // 10 GB/s for 60 s, sliding to 6 GB/s by 120 s, then flat to 300 s; one sample per 5 s.
        let pts: Vec<(f64, f64)> = (0..=60)
            .map(|i| {
                let t = i as f64 * 5.0;
                let v = if t <= 60.0 {
                    10.0
                } else if t >= 120.0 {
                    6.0
                } else {
                    10.0 - 4.0 * (t - 60.0) / 60.0
                };
                (t, v)
            })
            .collect();
        let f = crate::diagnose::apply(rule, &ev(pts));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        let p = |n: &str| f[0].params.iter().find(|(k, _)| *k == n).unwrap().1.clone();
        assert_eq!(p("drop_pct"), "40");
        assert_eq!(p("start_gbps"), "10.00");
        assert_eq!(p("end_gbps"), "6.00");
        // Within 5% of 6 GB/s (≤ 6.3) from t = 120 s; 6.33 at 115 s is still outside.
        assert_eq!(p("settled_s"), "120");
    }

    #[test]
    fn a_steady_or_short_run_says_nothing() {
        let steady: Vec<(f64, f64)> = (0..60)
            .map(|i| (i as f64 * 5.0, 10.0 - (i % 3) as f64 * 0.2))
            .collect();
        assert!(crate::diagnose::apply(rule, &ev(steady)).is_empty());
        let short: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 10.0 - i as f64)).collect();
        assert!(crate::diagnose::apply(rule, &ev(short)).is_empty());
        assert!(crate::diagnose::apply(rule, &Evidence::default()).is_empty());
    }

    #[test]
    fn a_throttled_probe_is_no_finding_about_another_devices_log() {
        let falling: Vec<(f64, f64)> = (0..60)
            .map(|i| (i as f64 * 5.0, 10.0 - i as f64 * 0.1))
            .collect();
        let mut e = ev(falling);
        assert_eq!(
            crate::diagnose::apply(rule, &e).len(),
            1,
            "alone, the probe speaks of its own device"
        );
        e.add_input("phone.log");
        assert!(crate::diagnose::apply(rule, &e).is_empty());
        e.inputs_from_probe_device = true;
        assert_eq!(crate::diagnose::apply(rule, &e).len(), 1);
    }
}

//! USB resets against periodic stalls (seed 002 §2.3, §4.4): a USB disk without its own supply
//! pulls the board's rail down each time it spins or reads, the USB controller resets it, and the
//! run stalls with it. The kernel log says when the resets happened; the telemetry says when the
//! stalls did. Only when both clocks are wall clocks can they be compared: a `dmesg` uptime stamp
//! or a telemetry file counting from its own start cannot be placed on the other's axis, and then
//! the finding says so instead of guessing.
//!
//! Tolerance: the kernel logs a reset after the fault, once the hub's port reset or an xHCI
//! command has timed out (1–5 s), and a telemetry sample places a dip only to within its
//! interval; so a reset within max(5 s, two samples) of a dip window counts, and never more than
//! a third of the stall period, so that one reset cannot stand for two stalls.

use super::num;
use crate::diagnose::{EvidenceRef, Finding, InputLines, Quote};
use crate::evidence::{Evidence, InputId, KernelEvent, KernelEventKind};
use crate::views::Views;

/// USB events quoted as evidence; the line list names all of them.
const QUOTED: usize = 3;

pub enum Tie<'a> {
    /// Most stalls had a reset next to them.
    Tied {
        matched: Vec<(&'a KernelEvent, f64)>,
        stalls_hit: usize,
        in_span: usize,
        tol_s: f64,
    },
    /// Both clocks are wall clocks, and the resets fall elsewhere.
    Apart {
        stalls_hit: usize,
        in_span: usize,
        total: usize,
        tol_s: f64,
    },
    /// The kernel log stamps its events with uptime or without the year.
    KernelClockUnknown { total: usize },
    /// The telemetry counts from its own start.
    TelemetryRelative { total: usize },
}

/// Compares the USB events of every kernel log with the stall windows of `input` (seconds on its
/// axis). `None` without USB events.
pub fn assess<'a>(
    ev: &'a Evidence,
    views: &Views,
    input: InputId,
    windows: &[(f64, f64)],
    dt: f64,
    period_s: f64,
) -> Option<Tie<'a>> {
    let usb: Vec<&KernelEvent> = ev
        .kernel_events
        .iter()
        .filter(|e| e.kind == KernelEventKind::Usb)
        .collect();
    if usb.is_empty() || windows.is_empty() {
        return None;
    }
    let total = usb.len();
    let absolute = ev.series.iter().any(|s| s.input == input && s.absolute);
    let origin = views.time_origins.get(input).copied().flatten();
    let Some(origin) = origin.filter(|_| absolute) else {
        return Some(Tie::TelemetryRelative { total });
    };
    let placed: Vec<(&KernelEvent, f64)> = usb
        .iter()
        .filter_map(|e| Some((*e, e.wall_s? - origin)))
        .collect();
    if placed.is_empty() {
        return Some(Tie::KernelClockUnknown { total });
    }
    let tol_s = (2.0 * dt).max(5.0).min(period_s / 3.0);
    let (start, end) = (windows[0].0, windows[windows.len() - 1].1);
    let in_span = placed
        .iter()
        .filter(|(_, t)| *t >= start - period_s && *t <= end + period_s)
        .count();
    let near = |t: f64| windows.iter().any(|w| t >= w.0 - tol_s && t <= w.1 + tol_s);
    let matched: Vec<(&KernelEvent, f64)> =
        placed.iter().copied().filter(|(_, t)| near(*t)).collect();
    let stalls_hit = windows
        .iter()
        .filter(|w| {
            matched
                .iter()
                .any(|(_, t)| *t >= w.0 - tol_s && *t <= w.1 + tol_s)
        })
        .count();
    // Two coincidences can be chance; most of the stalls having one is not.
    if stalls_hit >= 2 && stalls_hit * 2 >= windows.len() {
        Some(Tie::Tied {
            matched,
            stalls_hit,
            in_span,
            tol_s,
        })
    } else {
        Some(Tie::Apart {
            stalls_hit,
            in_span,
            total,
            tol_s,
        })
    }
}

/// `t=25–27, 55–57 s`-style list of the first windows (numbers only: the catalogue adds units).
fn window_list(windows: &[(f64, f64)]) -> String {
    let mut out: Vec<String> = windows
        .iter()
        .take(8)
        .map(|w| format!("{}–{}", num(w.0, 0), num(w.1, 0)))
        .collect();
    if windows.len() > 8 {
        out.push("…".into());
    }
    out.join(", ")
}

/// Words the stall finding by what the kernel log's USB events say about it.
pub fn annotate(f: &mut Finding, tie: &Tie, windows: &[(f64, f64)]) {
    let set = |f: &mut Finding, variant: &'static str, extra: Vec<(&'static str, String)>| {
        f.variant = Some(variant);
        f.params.extend(extra);
    };
    match tie {
        Tie::Tied {
            matched,
            stalls_hit,
            in_span,
            tol_s,
        } => {
            set(
                f,
                "usb",
                vec![
                    ("usb_hit", stalls_hit.to_string()),
                    ("usb_n", in_span.to_string()),
                    ("tol_s", num(*tol_s, 0)),
                    ("windows", window_list(windows)),
                ],
            );
            for (e, t) in matched.iter().take(QUOTED) {
                f.evidence.push(EvidenceRef {
                    input: e.input,
                    lines: Some((e.line, e.line)),
                    time_s: Some((*t, *t)),
                    quote: Some(Quote::Input(e.text.clone())),
                });
            }
            for (e, _) in matched {
                match f.lines.iter_mut().find(|l| l.input == e.input) {
                    Some(l) if l.lines.len() < 1000 => l.lines.push(e.line),
                    Some(_) => f.lines_truncated = true,
                    None => f.lines.push(InputLines {
                        input: e.input,
                        lines: vec![e.line],
                    }),
                }
            }
        }
        Tie::Apart {
            stalls_hit,
            in_span,
            total,
            tol_s,
        } => set(
            f,
            "usb-apart",
            vec![
                ("usb_hit", stalls_hit.to_string()),
                ("usb_n", in_span.to_string()),
                ("usb_total", total.to_string()),
                ("tol_s", num(*tol_s, 0)),
            ],
        ),
        Tie::KernelClockUnknown { total } => set(
            f,
            "usb-kernel-clock",
            vec![("usb_total", total.to_string())],
        ),
        Tie::TelemetryRelative { total } => {
            set(f, "usb-relative", vec![("usb_total", total.to_string())])
        }
    }
}

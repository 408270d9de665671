//! The thread timeline (one lane per thread, each time bin coloured by the cluster the thread ran
//! on) and the per-CPU frequency strip, drawn from the report's `sched` section.
//!
//! The layout (which rectangle, which colour) is plain Rust, tested natively; only the final
//! drawing into a `<canvas>` through `plotters` + `plotters-canvas` is wasm-only.

use crate::report::sched::TraceReport;

pub type Rgb = (u8, u8, u8);

/// Cluster colours: little red, mid amber, big teal, unknown grey. Colour-blind safe pairs.
pub const LITTLE: Rgb = (209, 73, 91);
pub const MID: Rgb = (237, 174, 73);
pub const BIG: Rgb = (0, 121, 140);
pub const UNKNOWN: Rgb = (141, 153, 174);

/// Width of the label column, pixels.
pub const LABEL_W: i32 = 150;
pub const LANE_H: i32 = 14;
pub const AXIS_H: i32 = 18;

/// A filled rectangle in canvas pixels: (x0, y0, x1, y1, colour).
pub type Rect = (i32, i32, i32, i32, Rgb);
/// A text label: (x, y, text).
pub type Label = (i32, i32, String);

pub fn cell_colour(c: char) -> Option<Rgb> {
    match c {
        'L' => Some(LITTLE),
        'M' => Some(MID),
        'B' => Some(BIG),
        'U' => Some(UNKNOWN),
        _ => None,
    }
}

/// Height the timeline needs for `lanes` lanes.
pub fn timeline_height(lanes: usize) -> i32 {
    AXIS_H + LANE_H * lanes.max(1) as i32 + 4
}

/// Time ticks: about `n` round values across `[0, duration]`.
fn ticks(duration: f64, n: usize) -> Vec<f64> {
    if duration <= 0.0 {
        return vec![0.0];
    }
    let raw = duration / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(mag * 10.0);
    (0..)
        .map(|i| (i as f64 * step * 1e9).round() / 1e9)
        .take_while(|t| *t <= duration + 1e-9)
        .collect()
}

fn tick_label(t: f64) -> String {
    if t == 0.0 || t >= 1.0 {
        format!("{t:.1} s")
    } else {
        format!("{:.0} ms", t * 1000.0)
    }
}

/// The timeline's rectangles and labels for a canvas `width` pixels wide.
pub fn timeline_layout(trace: &TraceReport, width: i32) -> (Vec<Rect>, Vec<Label>) {
    let tl = &trace.timeline;
    let plot_w = (width - LABEL_W - 8).max(10);
    let bins = tl.bins.max(1) as f64;
    let x_of = |b: f64| LABEL_W + ((b / bins) * plot_w as f64).round() as i32;
    let mut rects = Vec::new();
    let mut labels = Vec::new();
    for (i, lane) in tl.lanes.iter().enumerate() {
        let y0 = AXIS_H + i as i32 * LANE_H;
        let mut name = format!("{} {}", lane.comm, lane.tid);
        if name.chars().count() > 22 {
            name = name.chars().take(21).collect::<String>() + "…";
        }
        labels.push((4, y0 + 2, name));
        // Runs of the same cluster make one rectangle each.
        let cells: Vec<char> = lane.cells.chars().collect();
        let mut b = 0;
        while b < cells.len() {
            let c = cells[b];
            let mut e = b + 1;
            while e < cells.len() && cells[e] == c {
                e += 1;
            }
            if let Some(col) = cell_colour(c) {
                rects.push((
                    x_of(b as f64),
                    y0 + 1,
                    x_of(e as f64).max(x_of(b as f64) + 1),
                    y0 + LANE_H - 1,
                    col,
                ));
            }
            b = e;
        }
    }
    let duration = tl.bin_s * bins;
    for t in ticks(duration.min(trace.duration_s.max(tl.bin_s)), 8) {
        labels.push((tick_x(x_of(t / tl.bin_s), width), 2, tick_label(t)));
    }
    (rects, labels)
}

/// Keeps the last tick label inside the canvas.
fn tick_x(x: i32, width: i32) -> i32 {
    x.min(width - 44)
}

/// Colour of a frequency as a share of the CPU's maximum: pale (low) to dark (at max).
pub fn freq_colour(share: f64) -> Rgb {
    let s = share.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64| (a + (b - a) * s).round() as u8;
    (lerp(253.0, 8.0), lerp(231.0, 64.0), lerp(37.0, 129.0))
}

pub fn freq_height(cpus: usize) -> i32 {
    AXIS_H + 10 * cpus.max(1) as i32 + 4
}

/// The frequency strip: one row per CPU, each bin coloured by MHz / max MHz.
pub fn freq_layout(trace: &TraceReport, width: i32) -> (Vec<Rect>, Vec<Label>) {
    let plot_w = (width - LABEL_W - 8).max(10);
    let mut rects = Vec::new();
    let mut labels = Vec::new();
    let tl = &trace.timeline;
    let bins = tl.bins.max(1) as f64;
    for t in ticks((tl.bin_s * bins).min(trace.duration_s.max(tl.bin_s)), 8) {
        let x = LABEL_W + ((t / tl.bin_s / bins) * plot_w as f64).round() as i32;
        labels.push((tick_x(x, width), 2, tick_label(t)));
    }
    for (i, strip) in trace.freq.iter().enumerate() {
        let y0 = AXIS_H + i as i32 * 10;
        let max = strip
            .max_mhz
            .unwrap_or_else(|| strip.mhz.iter().flatten().copied().fold(0.0, f64::max))
            .max(1.0);
        let letter = match strip.cluster {
            crate::topology::Cluster::Little => "L",
            crate::topology::Cluster::Mid => "M",
            crate::topology::Cluster::Big => "B",
            crate::topology::Cluster::Unknown => "?",
        };
        labels.push((4, y0, format!("cpu{} {letter} {:.0} MHz", strip.cpu, max)));
        let n = strip.mhz.len().max(1) as f64;
        for (b, v) in strip.mhz.iter().enumerate() {
            if let Some(v) = v {
                let x0 = LABEL_W + ((b as f64 / n) * plot_w as f64).round() as i32;
                let x1 = LABEL_W + (((b + 1) as f64 / n) * plot_w as f64).round() as i32;
                rects.push((x0, y0 + 1, x1.max(x0 + 1), y0 + 9, freq_colour(v / max)));
            }
        }
    }
    (rects, labels)
}

#[cfg(target_arch = "wasm32")]
mod draw {
    use super::{Label, Rect};
    use plotters::prelude::*;
    use plotters_canvas::CanvasBackend;

    /// Draws rectangles and labels into the canvas with the given element id.
    pub fn paint(canvas_id: &str, rects: &[Rect], labels: &[Label]) -> Result<(), String> {
        let backend =
            CanvasBackend::new(canvas_id).ok_or_else(|| format!("no canvas #{canvas_id}"))?;
        let root = backend.into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        for &(x0, y0, x1, y1, (r, g, b)) in rects {
            root.draw(&Rectangle::new(
                [(x0, y0), (x1, y1)],
                RGBColor(r, g, b).filled(),
            ))
            .map_err(|e| e.to_string())?;
        }
        let style = ("sans-serif", 11).into_font().color(&RGBColor(40, 40, 40));
        for (x, y, text) in labels {
            root.draw(&Text::new(text.as_str(), (*x, *y), style.clone()))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())
    }
}

#[cfg(target_arch = "wasm32")]
pub use draw::paint;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sched::{Lane, LineCounts, Timeline};

    fn trace(cells: &str) -> TraceReport {
        TraceReport {
            input: "t".into(),
            format: None,
            duration_s: 1.0,
            unit: "samples".into(),
            samples: 0,
            switches: 0,
            migrations: 0,
            freq_events: 0,
            lines: LineCounts {
                event: 0,
                detail: 0,
                header: 0,
                blank: 0,
                skipped: 0,
            },
            threads: Vec::new(),
            timeline: Timeline {
                bin_s: 0.25,
                bins: cells.len(),
                lanes: vec![Lane {
                    tid: 7,
                    comm: "llama-cli".into(),
                    inference: true,
                    cells: cells.into(),
                }],
            },
            freq: Vec::new(),
        }
    }

    #[test]
    fn runs_become_one_rectangle_per_cluster_run() {
        let (rects, labels) = timeline_layout(&trace("BB.L"), 558);
        assert_eq!(rects.len(), 2);
        assert_eq!(rects[0].4, BIG);
        assert_eq!(rects[1].4, LITTLE);
        // 400 px of plot for 4 bins: the big run covers bins 0-1.
        assert_eq!((rects[0].0, rects[0].2), (LABEL_W, LABEL_W + 200));
        assert!(labels.iter().any(|l| l.2 == "llama-cli 7"));
        assert!(labels.iter().any(|l| l.2 == "0.0 s"));
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(tick_label(0.25), "250 ms");
    }
}

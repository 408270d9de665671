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
pub const FREQ_ROW_H: i32 = 10;

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

/// Time ticks: about `n` round values across `[t0, t1]`.
fn ticks(t0: f64, t1: f64, n: usize) -> Vec<f64> {
    let span = t1 - t0;
    if span <= 0.0 || !span.is_finite() {
        return vec![t0.max(0.0)];
    }
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(mag * 10.0);
    let first = (t0 / step - 1e-9).ceil() as i64;
    (first..)
        .map(|i| (i as f64 * step * 1e9).round() / 1e9)
        .take_while(|t| *t <= t1 + 1e-9)
        .collect()
}

/// The visible window of a trace in seconds; `None` for the whole trace. Clamped to the trace.
pub fn window(trace: &TraceReport, view: Option<(f64, f64)>) -> (f64, f64) {
    let full = trace.timeline.bin_s * trace.timeline.bins.max(1) as f64;
    let end = full
        .min(trace.duration_s.max(trace.timeline.bin_s))
        .max(1e-9);
    match view {
        Some((a, b)) if b > a && a.is_finite() && b.is_finite() => {
            (a.max(0.0), b.min(full.max(end)))
        }
        _ => (0.0, end),
    }
}

/// The plot's horizontal pixel range on a canvas `width` pixels wide (both layouts use it).
pub fn plot_x_range(width: i32) -> (i32, i32) {
    (LABEL_W, LABEL_W + (width - LABEL_W - 8).max(10))
}

fn tick_label(t: f64) -> String {
    if t == 0.0 || t >= 1.0 {
        format!("{t:.1} s")
    } else {
        format!("{:.0} ms", t * 1000.0)
    }
}

/// Maps seconds to pixels over the window `(t0, t1)`, clamped to the plot.
fn x_mapper(width: i32, (t0, t1): (f64, f64)) -> impl Fn(f64) -> i32 {
    let (left, right) = plot_x_range(width);
    move |t: f64| {
        let f = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
        left + (f * (right - left) as f64).round() as i32
    }
}

/// The timeline's rectangles and labels for a canvas `width` pixels wide, showing the window
/// `view` (seconds; `None`: the whole trace).
pub fn timeline_layout(
    trace: &TraceReport,
    width: i32,
    view: Option<(f64, f64)>,
) -> (Vec<Rect>, Vec<Label>) {
    let tl = &trace.timeline;
    let win = window(trace, view);
    let x_of = x_mapper(width, win);
    let mut rects = Vec::new();
    let mut labels = Vec::new();
    for (i, lane) in tl.lanes.iter().enumerate() {
        let y0 = AXIS_H + i as i32 * LANE_H;
        labels.push((4, y0 + 2, lane_name(&lane.comm, lane.tid)));
        // Runs of the same cluster make one rectangle each.
        let cells: Vec<char> = lane.cells.chars().collect();
        let mut b = 0;
        while b < cells.len() {
            let c = cells[b];
            let mut e = b + 1;
            while e < cells.len() && cells[e] == c {
                e += 1;
            }
            let (t_b, t_e) = (b as f64 * tl.bin_s, e as f64 * tl.bin_s);
            if let Some(col) = cell_colour(c).filter(|_| t_e > win.0 && t_b < win.1) {
                rects.push((
                    x_of(t_b),
                    y0 + 1,
                    x_of(t_e).max(x_of(t_b) + 1),
                    y0 + LANE_H - 1,
                    col,
                ));
            }
            b = e;
        }
    }
    for t in ticks(win.0, win.1, tick_count(width)) {
        labels.push((tick_x(x_of(t), width), 2, tick_label(t)));
    }
    (rects, labels)
}

/// Ticks that fit the plot: a label ("100 ms") needs about 70 px.
fn tick_count(width: i32) -> usize {
    let (left, right) = plot_x_range(width);
    ((right - left) / 70).clamp(2, 8) as usize
}

/// A lane's label: the thread name and tid, cut to fit the label column.
fn lane_name(comm: &str, tid: u32) -> String {
    let name = format!("{comm} {tid}");
    if name.chars().count() > 22 {
        name.chars().take(21).collect::<String>() + "…"
    } else {
        name
    }
}

/// What the timeline and the frequency strip show at `t` seconds: per lane the cluster letter
/// (`L`, `M`, `B`, `U`, `.`), per CPU the MHz. For the page's readout.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Readout {
    pub t: f64,
    pub lanes: Vec<(String, char)>,
    pub cpus: Vec<(u32, Option<f64>)>,
}

pub fn readout(trace: &TraceReport, t: f64) -> Readout {
    let tl = &trace.timeline;
    let bin = if tl.bin_s > 0.0 && t >= 0.0 {
        (t / tl.bin_s).floor() as usize
    } else {
        0
    };
    Readout {
        t,
        lanes: tl
            .lanes
            .iter()
            .map(|l| {
                (
                    lane_name(&l.comm, l.tid),
                    l.cells.chars().nth(bin).unwrap_or('.'),
                )
            })
            .collect(),
        cpus: trace
            .freq
            .iter()
            .map(|f| {
                let n = f.mhz.len().max(1);
                let i = ((bin as f64 + 0.5) / tl.bins.max(1) as f64 * n as f64) as usize;
                (f.cpu, f.mhz.get(i.min(n - 1)).copied().flatten())
            })
            .collect(),
    }
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

/// Height the frequency strip needs for `cpus` rows.
pub fn freq_height(cpus: usize) -> i32 {
    AXIS_H + FREQ_ROW_H * cpus.max(1) as i32 + 4
}

/// The frequency strip: one row per CPU, each bin coloured by MHz / max MHz, over the same
/// window as the timeline.
pub fn freq_layout(
    trace: &TraceReport,
    width: i32,
    view: Option<(f64, f64)>,
) -> (Vec<Rect>, Vec<Label>) {
    let mut rects = Vec::new();
    let mut labels = Vec::new();
    let tl = &trace.timeline;
    let win = window(trace, view);
    let x_of = x_mapper(width, win);
    let span = tl.bin_s * tl.bins.max(1) as f64;
    for t in ticks(win.0, win.1, tick_count(width)) {
        labels.push((tick_x(x_of(t), width), 2, tick_label(t)));
    }
    for (i, strip) in trace.freq.iter().enumerate() {
        let y0 = AXIS_H + i as i32 * FREQ_ROW_H;
        let max = strip
            .max_mhz
            .unwrap_or_else(|| strip.mhz.iter().flatten().copied().fold(0.0, f64::max))
            .max(1.0);
        let letter = match strip.cluster {
            crate::views::topology::Cluster::Little => "L",
            crate::views::topology::Cluster::Mid => "M",
            crate::views::topology::Cluster::Big => "B",
            crate::views::topology::Cluster::Unknown => "?",
        };
        labels.push((4, y0, format!("cpu{} {letter} {:.0} MHz", strip.cpu, max)));
        let n = strip.mhz.len().max(1) as f64;
        for (b, v) in strip.mhz.iter().enumerate() {
            let (t_b, t_e) = (b as f64 / n * span, (b + 1) as f64 / n * span);
            if let Some(v) = v.filter(|_| t_e > win.0 && t_b < win.1) {
                let (x0, x1) = (x_of(t_b), x_of(t_e));
                rects.push((
                    x0,
                    y0 + 1,
                    x1.max(x0 + 1),
                    y0 + FREQ_ROW_H - 1,
                    freq_colour(v / max),
                ));
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
        let (rects, labels) = timeline_layout(&trace("BB.L"), 558, None);
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
        assert_eq!(ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(ticks(0.3, 0.7, 4), vec![0.3, 0.4, 0.5, 0.6, 0.7]);
        assert_eq!(tick_label(0.25), "250 ms");
    }

    #[test]
    fn a_zoomed_window_spreads_its_bins_over_the_plot() {
        // Bins of 0.25 s; the window 0.5-1.0 s shows only the last two bins (". L").
        let (rects, labels) = timeline_layout(&trace("BB.L"), 558, Some((0.5, 1.0)));
        assert_eq!(rects.len(), 1);
        assert_eq!(rects[0].4, LITTLE);
        assert_eq!((rects[0].0, rects[0].2), (LABEL_W + 200, LABEL_W + 400));
        assert!(labels.iter().any(|l| l.2 == "500 ms"));
        assert!(!labels.iter().any(|l| l.2 == "0.0 s"));
        // A phone-wide canvas gets fewer ticks, far enough apart not to overlap.
        let (_, labels) = timeline_layout(&trace("BB.L"), 366, None);
        let xs: Vec<i32> = labels.iter().filter(|l| l.1 == 2).map(|l| l.0).collect();
        assert!(
            xs.len() >= 2 && xs.windows(2).all(|w| w[1] - w[0] >= 50),
            "{xs:?}"
        );
    }

    #[test]
    fn every_layout_fits_the_height_the_page_gives_its_canvas() {
        use crate::report::sched::FreqStrip;
        let mut tr = trace("BB.L");
        tr.timeline.lanes.push(tr.timeline.lanes[0].clone());
        tr.freq = (0..3)
            .map(|cpu| FreqStrip {
                cpu,
                cluster: crate::views::topology::Cluster::Big,
                max_mhz: Some(2400.0),
                mhz: vec![Some(600.0), None, Some(2400.0), Some(1800.0)],
            })
            .collect();
        let (lanes, _) = timeline_layout(&tr, 558, None);
        let h = timeline_height(tr.timeline.lanes.len());
        assert!(
            lanes.iter().all(|r| r.1 >= 0 && r.3 <= h),
            "{lanes:?} in {h}"
        );
        let (rows, labels) = freq_layout(&tr, 558, None);
        let h = freq_height(tr.freq.len());
        assert_eq!(rows.len(), 9, "three CPUs, three bins with a frequency");
        assert!(
            rows.iter().all(|r| r.1 >= AXIS_H && r.3 <= h),
            "{rows:?} in {h}"
        );
        // The colour runs from pale at a low clock to dark at the maximum.
        assert_eq!(rows[1].4, freq_colour(1.0));
        assert_eq!(rows[0].4, freq_colour(0.25));
        assert_ne!(freq_colour(0.0), freq_colour(1.0));
        assert!(labels.iter().any(|l| l.2 == "cpu2 B 2400 MHz"));
    }

    #[test]
    fn the_readout_names_the_cluster_under_the_pointer() {
        let tr = trace("BB.L");
        assert_eq!(
            readout(&tr, 0.1).lanes,
            vec![("llama-cli 7".to_string(), 'B')]
        );
        assert_eq!(readout(&tr, 0.8).lanes[0].1, 'L');
        assert_eq!(readout(&tr, 9.0).lanes[0].1, '.');
    }
}

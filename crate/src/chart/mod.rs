//! Charts: stacked panels on one shared time axis, drawn with `plotters` onto any backend — a
//! `<canvas>` in the page (through the `wasm` bindings) or a bitmap natively (tests, benchmarks).
//!
//! A chart is a plain [`ChartSpec`] (panels of lines, shaded ranges), so any page module can
//! build one from the report: the telemetry lanes (frequency per cluster, temperature per
//! sensor, power, tokens/s), a trace's frequency strip, or the kernel's sustained-mode run.
//! Each frame draws only the visible window, reduced to the minimum and maximum per pixel
//! column ([`columns_minmax`]), so peaks survive and the cost is bounded by the canvas width,
//! not by the data.
//!
//! ```
//! use tokscope::chart::{ChartSpec, LineSpec, Panel, View};
//! let spec = ChartSpec {
//!     panels: vec![Panel {
//!         title: "MHz".into(),
//!         lines: vec![LineSpec { label: "cpu7".into(), points: vec![[0.0, 2400.0], [60.0, 1800.0]] }],
//!         ..Panel::default()
//!     }],
//!     ..ChartSpec::default()
//! };
//! let view = View::of(&spec);
//! assert_eq!((view.x0, view.x1), (0.0, 60.0));
//! // What one frame draws of a line: at most two points per pixel column.
//! let drawn = tokscope::chart::columns_minmax(&spec.panels[0].lines[0].points, view, 400);
//! assert_eq!(drawn, vec![(0.0, 2400.0), (60.0, 1800.0)]);
//! // Natively, `draw_bitmap` renders into an RGB buffer; the page draws on a canvas.
//! ```

// Only the page draws the thread timeline.
#[cfg(any(target_arch = "wasm32", test))]
pub(crate) mod timeline;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// Width of the y-axis label area and the right margin, in CSS pixels (scaled by `scale`).
pub const LEFT_PX: f64 = 64.0;
pub const RIGHT_PX: f64 = 12.0;
/// Height of the shared time axis under the last panel.
pub const AXIS_PX: f64 = 40.0;
/// Height of each panel's title row.
pub const TITLE_PX: f64 = 18.0;
/// Height of one panel on the page, in CSS pixels.
pub const PANEL_PX: f64 = 150.0;
/// Rows for the labels of shaded ranges; a label that fits in none is left out (its range is
/// still shaded, and the readout names it).
pub const SHADE_LABEL_ROWS: usize = 3;
const SHADE_LABEL_ROW_PX: f64 = 12.0;

/// The CSS height of a chart of `panels` panels (the page sizes its canvas with it).
pub fn height_px(panels: usize) -> f64 {
    panels.max(1) as f64 * PANEL_PX + AXIS_PX
}

/// Rows for labels at pixel spans `[x0, x1)`, in the order given: each goes to the first row whose
/// last label ends before it starts, so no two labels overlap; `None` when all rows are taken.
pub fn label_rows(spans: &[(i32, i32)], rows: usize) -> Vec<Option<usize>> {
    let mut ends: Vec<i32> = Vec::new();
    spans
        .iter()
        .map(|&(x0, x1)| {
            let row = ends.iter().position(|&e| e <= x0).or_else(|| {
                (ends.len() < rows).then(|| {
                    ends.push(i32::MIN);
                    ends.len() - 1
                })
            })?;
            ends[row] = x1;
            Some(row)
        })
        .collect()
}

/// The value of each line at time `t`, panel by panel: the nearest point's value, or `None` when
/// `t` lies outside the line's span (the readout says "no data" there, not a stale value).
pub fn values_at(spec: &ChartSpec, t: f64) -> Vec<Vec<Option<f64>>> {
    spec.panels
        .iter()
        .map(|p| {
            p.lines
                .iter()
                .map(|l| {
                    let (first, last) = (l.points.first()?, l.points.last()?);
                    if t < first[0] || t > last[0] {
                        return None;
                    }
                    let i = l.points.partition_point(|q| q[0] < t);
                    let near = match (i.checked_sub(1).map(|j| l.points[j]), l.points.get(i)) {
                        (Some(a), Some(b)) if (t - a[0]) <= (b[0] - t) => a,
                        (_, Some(b)) => *b,
                        (Some(a), None) => a,
                        (None, None) => return None,
                    };
                    near[1].is_finite().then_some(near[1])
                })
                .collect()
        })
        .collect()
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChartSpec {
    pub panels: Vec<Panel>,
    #[serde(default)]
    pub shades: Vec<Shade>,
    /// Label of the shared time axis.
    #[serde(default)]
    pub x_label: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<LineSpec>,
    /// Fixed y range; otherwise fitted to the visible points.
    #[serde(default)]
    pub y_min: Option<f64>,
    #[serde(default)]
    pub y_max: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct LineSpec {
    pub label: String,
    /// `[t, value]`, t non-decreasing.
    pub points: Vec<[f64; 2]>,
}

/// A time range to shade in every panel (a finding's `t_start_s`..`t_end_s`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Shade {
    pub t0: f64,
    pub t1: f64,
    #[serde(default)]
    pub label: String,
    /// `critical`, `warning` or `info`: picks the colour.
    #[serde(default)]
    pub severity: String,
}

/// The visible time window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    pub x0: f64,
    pub x1: f64,
}

impl View {
    /// The whole time extent of a spec.
    pub fn of(spec: &ChartSpec) -> View {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &spec.panels {
            for l in &p.lines {
                if let (Some(a), Some(b)) = (l.points.first(), l.points.last()) {
                    lo = lo.min(a[0]);
                    hi = hi.max(b[0]);
                }
            }
        }
        if !lo.is_finite() || !hi.is_finite() {
            return View { x0: 0.0, x1: 1.0 };
        }
        if hi <= lo {
            hi = lo + 1.0;
        }
        View { x0: lo, x1: hi }
    }
}

/// What one frame drew.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub points_drawn: usize,
}

/// The visible part of `points` reduced to at most two points (min and max, in time order) per
/// pixel column, plus the neighbours just outside the window so lines reach the edges.
pub fn columns_minmax(points: &[[f64; 2]], view: View, columns: usize) -> Vec<(f64, f64)> {
    let columns = columns.max(1);
    let start = points.partition_point(|p| p[0] < view.x0).saturating_sub(1);
    let end = (points.partition_point(|p| p[0] <= view.x1) + 1).min(points.len());
    let Some(visible) = points.get(start..end) else {
        return Vec::new();
    };
    if visible.len() <= 2 * columns {
        return visible
            .iter()
            .filter(|p| p[1].is_finite())
            .map(|p| (p[0], p[1]))
            .collect();
    }
    let width = (view.x1 - view.x0) / columns as f64;
    let mut out = Vec::with_capacity(2 * columns + 2);
    let mut i = 0;
    while i < visible.len() {
        let col = ((visible[i][0] - view.x0) / width).floor();
        let (mut lo, mut hi) = (visible[i], visible[i]);
        let mut j = i + 1;
        while j < visible.len() && ((visible[j][0] - view.x0) / width).floor() == col {
            if visible[j][1] < lo[1] {
                lo = visible[j];
            }
            if visible[j][1] > hi[1] {
                hi = visible[j];
            }
            j += 1;
        }
        let (a, b) = if lo[0] <= hi[0] { (lo, hi) } else { (hi, lo) };
        out.push((a[0], a[1]));
        if b != a {
            out.push((b[0], b[1]));
        }
        i = j;
    }
    out.retain(|p| p.1.is_finite());
    out
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn shade_color(severity: &str) -> RGBAColor {
    match severity {
        "critical" => RGBColor(214, 39, 40).mix(0.16),
        "info" => RGBColor(31, 119, 180).mix(0.12),
        _ => RGBColor(255, 160, 0).mix(0.18),
    }
}

fn y_range(panel: &Panel, lines: &[Vec<(f64, f64)>]) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for l in lines {
        for p in l {
            lo = lo.min(p.1);
            hi = hi.max(p.1);
        }
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-6);
    (
        panel.y_min.unwrap_or(lo - pad),
        panel.y_max.unwrap_or(hi + pad),
    )
}

/// Draws the chart onto `root`. `scale` is the device pixel ratio; `labels` false skips every
/// text element (the native bitmap backend has no font without extra crates).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    view: View,
    scale: f64,
    labels: bool,
) -> Result<DrawStats, String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let n = spec.panels.len().max(1);
    let axis = (AXIS_PX * scale) as u32;
    let panel_h = (h.saturating_sub(axis) / n as u32).max(10);
    let left = (LEFT_PX * scale) as u32;
    let right = (RIGHT_PX * scale) as u32;
    let columns = w.saturating_sub(left + right).max(1) as usize;
    let view = if view.x1 > view.x0 {
        view
    } else {
        View {
            x0: view.x0,
            x1: view.x0 + 1.0,
        }
    };
    let font = |px: f64| ("sans-serif", (px * scale).round()).into_font();
    let mut stats = DrawStats::default();
    let mut rest = root.clone();
    for (i, panel) in spec.panels.iter().enumerate() {
        let last = i + 1 == spec.panels.len();
        // The last panel takes what is left, with the shared time axis under it.
        let area = if last {
            rest.clone()
        } else {
            let (area, below) = rest.split_vertically(panel_h);
            rest = below;
            area
        };
        let lines: Vec<Vec<(f64, f64)>> = panel
            .lines
            .iter()
            .map(|l| columns_minmax(&l.points, view, columns))
            .collect();
        let (y0, y1) = y_range(panel, &lines);
        let mut builder = ChartBuilder::on(&area);
        builder
            .margin_top((TITLE_PX * scale) as u32)
            .margin_right(right)
            .y_label_area_size(left)
            .x_label_area_size(if last { axis } else { 0 });
        let mut chart = builder
            .build_cartesian_2d(view.x0..view.x1, y0..y1)
            .map_err(err)?;
        let mut mesh = chart.configure_mesh();
        mesh.max_light_lines(2)
            .light_line_style(RGBColor(240, 240, 240))
            .bold_line_style(RGBColor(215, 215, 215));
        if labels {
            mesh.x_labels(if last { 8 } else { 0 })
                .y_labels(4)
                .label_style(font(11.0))
                .y_label_formatter(&|v| short(*v))
                .x_label_formatter(&|v| short(*v));
            if last && !spec.x_label.is_empty() {
                mesh.x_desc(spec.x_label.as_str())
                    .axis_desc_style(font(11.0));
            }
        } else {
            mesh.x_labels(0).y_labels(0);
        }
        mesh.draw().map_err(err)?;
        for s in &spec.shades {
            let (a, b) = (s.t0.max(view.x0), s.t1.min(view.x1));
            if b > a {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(a, y0), (b, y1)],
                        shade_color(&s.severity).filled(),
                    )))
                    .map_err(err)?;
            }
        }
        for (k, pts) in lines.into_iter().enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            stats.points_drawn += pts.len();
            chart
                .draw_series(LineSeries::new(
                    pts,
                    color.stroke_width((1.5 * scale).max(1.0) as u32),
                ))
                .map_err(err)?;
        }
        if labels {
            // Title, then a one-row legend beside it. Drawn by hand: plotters' own legend
            // measures text through the font layer, which in a browser means a DOM span per
            // label and an inline style the page's CSP forbids.
            let title_font = font(12.0).color(&BLACK);
            let y = (3.0 * scale) as i32;
            area.draw_text(&panel.title, &title_font, (left as i32, y))
                .map_err(err)?;
            let (tw, _) = area
                .estimate_text_size(&panel.title, &title_font)
                .map_err(err)?;
            let mut x = left as i32 + tw as i32 + (16.0 * scale) as i32;
            let label_font = font(10.5);
            let mid = y + (7.0 * scale) as i32;
            for (k, l) in panel
                .lines
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.label.is_empty())
            {
                let color = PALETTE[k % PALETTE.len()];
                let seg = (14.0 * scale) as i32;
                let style = label_font.color(&RGBColor(60, 60, 60));
                let room = w as i32 - right as i32 - x - seg - (4.0 * scale) as i32;
                let mut text = l.label.clone();
                let (mut lw, _) = area.estimate_text_size(&text, &style).map_err(err)?;
                // The first entry is shortened to fit (a narrow phone chart keeps one); later
                // ones are left out whole rather than cut at the edge (the readout names them).
                while lw as i32 > room && k == 0 && text.chars().count() > 4 {
                    let keep = text.chars().count().saturating_sub(2).max(3);
                    text = text.chars().take(keep - 1).collect::<String>() + "…";
                    lw = area.estimate_text_size(&text, &style).map_err(err)?.0;
                }
                if lw as i32 > room {
                    break;
                }
                area.draw(&PathElement::new(
                    vec![(x, mid), (x + seg, mid)],
                    color.stroke_width((2.0 * scale) as u32),
                ))
                .map_err(err)?;
                x += seg + (4.0 * scale) as i32;
                area.draw_text(&text, &style, (x, y + (1.0 * scale) as i32))
                    .map_err(err)?;
                x += lw as i32 + (12.0 * scale) as i32;
            }
            if i == 0 {
                // Labels of the visible ranges, each at its range's start, stacked into rows so
                // that neighbours never print over each other.
                let style = font(10.0).color(&RGBColor(150, 90, 0));
                let (_, top) = area.get_base_pixel();
                let visible: Vec<&Shade> = spec
                    .shades
                    .iter()
                    .filter(|s| s.t0 >= view.x0 && s.t0 <= view.x1 && !s.label.is_empty())
                    .collect();
                let mut spans = Vec::with_capacity(visible.len());
                for s in &visible {
                    let (px, _) = chart.backend_coord(&(s.t0, y1));
                    let (lw, _) = area.estimate_text_size(&s.label, &style).map_err(err)?;
                    spans.push((px + 3, px + 3 + lw as i32 + (6.0 * scale) as i32));
                }
                let rows = label_rows(&spans, SHADE_LABEL_ROWS);
                for ((s, span), row) in visible.iter().zip(&spans).zip(rows) {
                    let Some(row) = row else { continue };
                    let y = top
                        + (TITLE_PX * scale) as i32
                        + 2
                        + (row as f64 * SHADE_LABEL_ROW_PX * scale) as i32;
                    root.draw_text(&s.label, &style, (span.0, y)).map_err(err)?;
                }
            }
        }
    }
    root.present().map_err(err)?;
    Ok(stats)
}

/// Axis numbers: `1.2k`, `350`, `0.25`.
fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The plot area's horizontal pixel range for a canvas `width` px wide (device pixels), so the
/// page can map the pointer to time.
pub fn plot_x_range(width: f64, scale: f64) -> (f64, f64) {
    (
        (LEFT_PX * scale).floor(),
        width - (RIGHT_PX * scale).floor(),
    )
}

/// Draws into an RGB buffer natively (no text): for tests and the redraw benchmark.
#[cfg(not(target_arch = "wasm32"))]
pub fn draw_bitmap(
    spec: &ChartSpec,
    view: View,
    width: u32,
    height: u32,
    rgb: &mut [u8],
) -> Result<DrawStats, String> {
    let root = BitMapBackend::with_buffer(rgb, (width, height)).into_drawing_area();
    draw(&root, spec, view, 1.0, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minmax_keeps_peaks_and_bounds_points() {
        let pts: Vec<[f64; 2]> = (0..100_000)
            .map(|i| [i as f64, if i == 54_321 { 99.0 } else { (i % 7) as f64 }])
            .collect();
        let v = View {
            x0: 0.0,
            x1: 99_999.0,
        };
        let d = columns_minmax(&pts, v, 500);
        assert!(d.len() <= 1002, "{}", d.len());
        assert!(d.contains(&(54_321.0, 99.0)));
        // A zoomed window keeps only what is visible (plus one neighbour each side).
        let z = columns_minmax(
            &pts,
            View {
                x0: 100.0,
                x1: 110.0,
            },
            500,
        );
        assert_eq!(z.first().map(|p| p.0), Some(99.0));
        assert_eq!(z.last().map(|p| p.0), Some(111.0));
        assert!(columns_minmax(&[], v, 10).is_empty());
    }

    #[test]
    fn shade_labels_take_rows_and_never_overlap() {
        // Labels 50 px wide: the second starts inside the first, so it takes a row of its own.
        let rows = label_rows(&[(0, 50), (20, 70), (60, 110), (65, 115), (66, 116)], 3);
        assert_eq!(rows, vec![Some(0), Some(1), Some(0), Some(2), None]);
        // A label that starts after the first ended reuses row 0.
        assert_eq!(label_rows(&[(0, 10), (10, 20)], 3), vec![Some(0), Some(0)]);
    }

    #[test]
    fn values_at_a_time_are_the_nearest_points_inside_each_span() {
        let line = |pts: Vec<[f64; 2]>| LineSpec {
            label: String::new(),
            points: pts,
        };
        let spec = ChartSpec {
            panels: vec![Panel {
                title: "p".into(),
                lines: vec![
                    line(vec![[0.0, 1.0], [10.0, 2.0], [20.0, 3.0]]),
                    line(vec![[15.0, 7.0], [30.0, 8.0]]),
                ],
                ..Panel::default()
            }],
            ..ChartSpec::default()
        };
        assert_eq!(values_at(&spec, 12.0), vec![vec![Some(2.0), None]]);
        assert_eq!(values_at(&spec, 16.0), vec![vec![Some(3.0), Some(7.0)]]);
        assert_eq!(values_at(&spec, 25.0), vec![vec![None, Some(8.0)]]);
        assert_eq!(height_px(3), 3.0 * PANEL_PX + AXIS_PX);
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn draws_panels_and_shades_into_a_bitmap() {
        let line = |k: f64| LineSpec {
            label: String::new(),
            points: (0..1000)
                .map(|i| [i as f64, k * (i as f64).sin()])
                .collect(),
        };
        let spec = ChartSpec {
            panels: vec![
                Panel {
                    title: "a".into(),
                    lines: vec![line(1.0)],
                    ..Panel::default()
                },
                Panel {
                    title: "b".into(),
                    lines: vec![line(2.0), line(3.0)],
                    ..Panel::default()
                },
            ],
            shades: vec![Shade {
                t0: 100.0,
                t1: 300.0,
                label: "x".into(),
                severity: "warning".into(),
            }],
            x_label: String::new(),
        };
        let (w, h) = (600u32, 400u32);
        let mut buf = vec![0u8; (w * h * 3) as usize];
        let stats = draw_bitmap(&spec, View::of(&spec), w, h, &mut buf).unwrap();
        assert!(stats.points_drawn > 100 && stats.points_drawn <= 3 * 2 * 600);
        // The shade tints pixels orange inside its range; outside stays white or line-coloured.
        let px = |x: u32, y: u32| &buf[((y * w + x) * 3) as usize..((y * w + x) * 3 + 3) as usize];
        let x_in = (LEFT_PX + (600.0 - LEFT_PX - RIGHT_PX) * 0.2) as u32;
        let tinted = (30..150)
            .filter(|&y| {
                let p = px(x_in, y);
                p[0] > 240 && p[2] < 225
            })
            .count();
        assert!(tinted > 20, "{tinted}");
        // The shared time axis under the last panel is not part of any plot (no shade there).
        let axis_row = h - (AXIS_PX as u32) / 2;
        assert!(
            !{
                let p = px(x_in, axis_row);
                p[0] > 240 && p[2] < 225
            },
            "shade spills into the axis"
        );
        // Empty and degenerate specs draw without error.
        let empty = ChartSpec::default();
        assert!(draw_bitmap(&empty, View::of(&empty), w, h, &mut buf).is_ok());
    }
}

//! The browser binding: the only module that knows about JavaScript. The analyzer worker
//! (`www/analyzer.worker.js`) streams each File through `Analysis` in slices and posts the report
//! JSON to the page.

use crate::catalogue::Lang;
use crate::chart::{self, ChartSpec, View};
use crate::session::Session;
use plotters::prelude::IntoDrawingArea;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

#[wasm_bindgen]
pub struct Analysis {
    session: Session,
}

#[wasm_bindgen]
impl Analysis {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Analysis {
        Analysis {
            session: Session::new(),
        }
    }

    /// Opens an input and returns its id.
    pub fn begin(&mut self, name: &str) -> u32 {
        self.session.begin(name) as u32
    }

    pub fn push(&mut self, id: u32, chunk: &[u8]) {
        self.session.push(id as usize, chunk);
    }

    pub fn end(&mut self, id: u32) {
        self.session.end(id as usize);
    }

    /// Stops reading an input; the part read is kept.
    pub fn cancel(&mut self, id: u32) {
        self.session.cancel(id as usize);
    }

    /// Gives the analysis what "Measure this device" measured (JSON of `evidence::DeviceProbe`),
    /// so the ceiling and sustained-drop findings can use it.
    pub fn set_device_json(&mut self, json: &str) -> Result<(), JsError> {
        let probe: crate::evidence::DeviceProbe =
            serde_json::from_str(json).map_err(|e| JsError::new(&format!("device probe: {e}")))?;
        self.session.set_device(probe);
        Ok(())
    }

    /// The user's answer to "this log came from this device": only then do the probe's figures
    /// apply to the inputs.
    pub fn set_inputs_from_probe_device(&mut self, yes: bool) {
        self.session.set_inputs_from_probe_device(yes);
    }

    /// Sets the CPU topology: a preset id (`sd8gen2`) or a cluster list
    /// (`0-3:little,4-6:mid,7:big@3200`); empty for what the inputs say.
    pub fn set_topology(&mut self, spec: &str) {
        self.session.set_topology(spec);
    }

    /// Sets the inference threads (tids or name fragments, comma-separated); empty for automatic.
    pub fn set_threads(&mut self, spec: &str) {
        self.session.set_threads(spec);
    }

    /// Sets the compare view's choice (JSON of `evidence::CompareChoice`: `groups`, `excluded`,
    /// `reference`, by input name); `{}` for automatic grouping.
    pub fn set_compare_json(&mut self, json: &str) -> Result<(), JsError> {
        let choice: crate::evidence::CompareChoice =
            serde_json::from_str(json).map_err(|e| JsError::new(&format!("compare: {e}")))?;
        self.session.set_compare(choice);
        Ok(())
    }

    /// The report as JSON (the schema of `docs/report.md`), rendered in `lang` (`en`, `zh`, ...).
    pub fn report_json(&mut self, lang: &str) -> String {
        let report = self.session.report(Lang::from_tag(lang));
        serde_json::to_string(&report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

impl Default for Analysis {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The core's numbers that the page works with, as JSON (read once by `www/core.js`), so the page
/// holds no copy: the share link's budget and raw-input limit, the probe's timing windows (the
/// same as `tokscope bench`'s) and the decode ceiling's context length.
#[wasm_bindgen]
pub fn page_constants() -> String {
    use crate::kernel::{ceiling_table, work};
    serde_json::json!({
        "share_budget_bytes": crate::share::BUDGET_BYTES,
        "share_raw_max_bytes": crate::share::RAW_MAX_BYTES,
        "probe_windows": work::WINDOWS,
        "probe_window_ms": work::WINDOW_S * 1000.0,
        "ceiling_context": ceiling_table::DEFAULT_CONTEXT,
    })
    .to_string()
}

/// A share link for a report (see `share::encode_json`): the report JSON, the raw input as
/// `[{"name","text"}]` JSON or "", and the byte budget (0: only the hard limit).
#[wasm_bindgen]
pub fn share_encode(report_json: &str, raw_json: &str, budget: u32) -> String {
    crate::share::encode_json(report_json, raw_json, budget as usize)
}

/// Reads a share link (the whole address or its `#r=...` fragment) under the decoder's hard
/// limits (see `share::decode_json`).
#[wasm_bindgen]
pub fn share_decode(link: &str) -> String {
    crate::share::decode_json(link)
}

/// The Markdown export of a report JSON; an error names what is wrong with the JSON.
#[wasm_bindgen]
pub fn report_markdown(report_json: &str) -> Result<String, JsError> {
    let report =
        crate::share::report_from_json(report_json).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(crate::report::markdown::render(&report))
}

/// One Web Worker's share of the bandwidth probe (see `www/probe-worker.js`): its own buffer in
/// its own wasm instance, and short calls that the worker times.
#[wasm_bindgen]
pub struct Probe {
    worker: crate::kernel::work::Worker,
}

#[wasm_bindgen]
impl Probe {
    /// Allocates and fills about `bytes` bytes of Q4_0 weights.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: f64, seed: u32) -> Result<Probe, JsError> {
        if !(bytes.is_finite() && bytes >= 1.0) {
            return Err(JsError::new("the probe needs a positive buffer size"));
        }
        let worker = crate::kernel::work::Worker::new(bytes as usize, seed as u64)
            .map_err(|e| JsError::new(&e))?;
        Ok(Probe { worker })
    }

    /// Bytes of the buffer actually allocated.
    pub fn bytes(&self) -> f64 {
        self.worker.bytes() as f64
    }

    /// One read call over the first `working_set` bytes; returns the bytes read.
    pub fn read(&mut self, working_set: f64) -> f64 {
        self.worker.read_call(working_set.max(0.0) as usize) as f64
    }

    /// One kernel call on `path` (`scalar`, `simd128`, `relaxed`) over the first `working_set`
    /// bytes of weights; returns the weight bytes processed, or 0 for a path this build lacks.
    pub fn q4(&mut self, path: &str, working_set: f64) -> f64 {
        match crate::kernel::q4::Path::from_name(path) {
            Some(p) => self.worker.q4_call(p, working_set.max(0.0) as usize) as f64,
            None => 0.0,
        }
    }

    /// A value that depends on every byte read so far, so no engine can skip the work.
    pub fn sink(&self) -> f64 {
        (self.worker.sink & 0xffff_ffff) as f64
    }
}

/// The kernel paths of this build, slowest first: `scalar,simd128[,relaxed]`.
#[wasm_bindgen]
pub fn kernel_paths() -> String {
    crate::kernel::q4::Path::available()
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// The decode ceiling table (`kernel::ceiling_table::table`) at `bandwidth_gbps`, as JSON.
#[wasm_bindgen]
pub fn ceiling_table_json(bandwidth_gbps: f64, context: u32) -> String {
    let t = crate::kernel::ceiling_table::table(bandwidth_gbps, context);
    serde_json::to_string(&t).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// A chart (the spec of `crate::chart`, as JSON) that the page redraws on each zoom or pan
/// frame. The spec is parsed once; a frame only reduces the visible window and draws it.
#[wasm_bindgen]
pub struct Chart {
    spec: ChartSpec,
    full: View,
}

#[wasm_bindgen]
impl Chart {
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str) -> Result<Chart, JsError> {
        let spec: ChartSpec =
            serde_json::from_str(spec_json).map_err(|e| JsError::new(&e.to_string()))?;
        let full = View::of(&spec);
        Ok(Chart { spec, full })
    }

    /// The time extent of all lines: `[t0, t1]`.
    pub fn extent(&self) -> Vec<f64> {
        vec![self.full.x0, self.full.x1]
    }

    /// Each line's value at time `t`, per panel, as JSON `[[v | null, ...], ...]`.
    pub fn values_at(&self, t: f64) -> String {
        serde_json::to_string(&chart::values_at(&self.spec, t)).unwrap_or_else(|_| "[]".into())
    }

    /// The plot area's horizontal pixel range on a canvas `width` device pixels wide.
    pub fn plot_x_range(&self, width: f64, scale: f64) -> Vec<f64> {
        let (a, b) = chart::plot_x_range(width, scale);
        vec![a, b]
    }

    /// Draws the window `x0..x1` onto `canvas` (sized in device pixels; `scale` is the device
    /// pixel ratio). Returns the number of points drawn.
    pub fn draw(
        &self,
        canvas: HtmlCanvasElement,
        x0: f64,
        x1: f64,
        scale: f64,
    ) -> Result<u32, JsError> {
        let context: CanvasRenderingContext2d = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into().ok())
            .ok_or_else(|| JsError::new("no 2d context"))?;
        let inner = CanvasBackend::with_canvas_object(canvas)
            .ok_or_else(|| JsError::new("no 2d context"))?;
        let root = MeasuredCanvas { inner, context }.into_drawing_area();
        let stats = chart::draw(&root, &self.spec, View { x0, x1 }, scale, true)
            .map_err(|e| JsError::new(&e))?;
        Ok(stats.points_drawn as u32)
    }
}

/// plotters' canvas backend, with text measured by the canvas itself. plotters' web font
/// measures text by adding a styled `<span>` to the page for every label: that is slow (a DOM
/// layout per label per frame) and the page's Content-Security-Policy blocks its inline style.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(a, b, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        let size = style.size();
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            size,
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(size * 0.6 * text.chars().count() as f64);
        Ok((width.ceil() as u32, (size * 1.2).ceil() as u32))
    }
}

/// The thread timeline and frequency strip of one `sched.traces[]` entry (given as JSON, parsed
/// once), redrawn on each zoom or pan frame over a window of seconds.
#[wasm_bindgen]
pub struct TraceChart {
    trace: crate::report::sched::TraceReport,
}

#[wasm_bindgen]
impl TraceChart {
    #[wasm_bindgen(constructor)]
    pub fn new(trace_json: &str) -> Result<TraceChart, JsError> {
        let trace = serde_json::from_str(trace_json).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(TraceChart { trace })
    }

    /// The whole window, seconds: `[t0, t1]`.
    pub fn extent(&self) -> Vec<f64> {
        let (a, b) = crate::chart::timeline::window(&self.trace, None);
        vec![a, b]
    }

    /// CSS height of the timeline canvas.
    pub fn timeline_height(&self) -> i32 {
        crate::chart::timeline::timeline_height(self.trace.timeline.lanes.len())
    }

    /// CSS height of the frequency strip canvas.
    pub fn freq_height(&self) -> i32 {
        crate::chart::timeline::freq_height(self.trace.freq.len())
    }

    /// The plot's horizontal pixel range on a canvas `width` pixels wide: `[left, right]`.
    pub fn plot_x_range(&self, width: i32) -> Vec<i32> {
        let (a, b) = crate::chart::timeline::plot_x_range(width);
        vec![a, b]
    }

    /// Draws the timeline over `t0..t1` seconds into the canvas `canvas_id`.
    pub fn draw_timeline(
        &self,
        canvas_id: &str,
        width: i32,
        t0: f64,
        t1: f64,
    ) -> Result<(), JsError> {
        let (rects, labels) =
            crate::chart::timeline::timeline_layout(&self.trace, width, Some((t0, t1)));
        crate::chart::timeline::paint(canvas_id, &rects, &labels).map_err(|e| JsError::new(&e))
    }

    /// Draws the per-CPU frequency strip over `t0..t1` seconds into the canvas `canvas_id`.
    pub fn draw_freq(&self, canvas_id: &str, width: i32, t0: f64, t1: f64) -> Result<(), JsError> {
        let (rects, labels) =
            crate::chart::timeline::freq_layout(&self.trace, width, Some((t0, t1)));
        crate::chart::timeline::paint(canvas_id, &rects, &labels).map_err(|e| JsError::new(&e))
    }

    /// What the charts show at `t` seconds, as JSON (`chart::timeline::Readout`).
    pub fn readout(&self, t: f64) -> String {
        serde_json::to_string(&crate::chart::timeline::readout(&self.trace, t))
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// CSS height of a telemetry chart of `panels` panels.
#[wasm_bindgen]
pub fn chart_height(panels: u32) -> f64 {
    chart::height_px(panels as usize)
}

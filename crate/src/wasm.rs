//! The browser binding: the only module that knows about JavaScript. The page streams each
//! File through `Analysis` in slices and renders the report JSON.

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

//! The browser binding: the only module that knows about JavaScript. The page streams each
//! File through `Analysis` in slices and renders the report JSON.

use crate::catalogue::Lang;
use crate::session::Session;
use wasm_bindgen::prelude::*;

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

    /// Sets the CPU topology: a preset id (`sd8gen2`) or a cluster list
    /// (`0-3:little,4-6:mid,7:big@3200`); empty for what the inputs say.
    pub fn set_topology(&mut self, spec: &str) {
        self.session.set_topology(spec);
    }

    /// Sets the inference threads (tids or name fragments, comma-separated); empty for automatic.
    pub fn set_threads(&mut self, spec: &str) {
        self.session.set_threads(spec);
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

fn trace_of(trace_json: &str) -> Result<crate::report::sched::TraceReport, JsValue> {
    serde_json::from_str(trace_json).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Draws the thread timeline of one `sched.traces[]` entry (as JSON) into the canvas `canvas_id`.
#[wasm_bindgen]
pub fn draw_timeline(canvas_id: &str, trace_json: &str, width: i32) -> Result<(), JsValue> {
    let trace = trace_of(trace_json)?;
    let (rects, labels) = crate::chart::timeline::timeline_layout(&trace, width);
    crate::chart::timeline::paint(canvas_id, &rects, &labels).map_err(|e| JsValue::from_str(&e))
}

/// Draws the per-CPU frequency strip of one `sched.traces[]` entry into the canvas `canvas_id`.
#[wasm_bindgen]
pub fn draw_freq_strip(canvas_id: &str, trace_json: &str, width: i32) -> Result<(), JsValue> {
    let trace = trace_of(trace_json)?;
    let (rects, labels) = crate::chart::timeline::freq_layout(&trace, width);
    crate::chart::timeline::paint(canvas_id, &rects, &labels).map_err(|e| JsValue::from_str(&e))
}

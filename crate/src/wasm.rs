//! The browser binding: the only module that knows about JavaScript. The analyzer worker
//! (`www/analyzer.worker.js`) streams each File through `Analysis` in slices and posts the report
//! JSON to the page.

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

    /// Stops reading an input; the part read is kept.
    pub fn cancel(&mut self, id: u32) {
        self.session.cancel(id as usize);
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

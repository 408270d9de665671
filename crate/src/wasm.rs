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

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

    /// Gives the analysis what "Measure this device" measured (JSON of `evidence::DeviceProbe`),
    /// so the ceiling and sustained-drop findings can use it.
    pub fn set_device_json(&mut self, json: &str) -> Result<(), JsError> {
        let probe: crate::evidence::DeviceProbe =
            serde_json::from_str(json).map_err(|e| JsError::new(&format!("device probe: {e}")))?;
        self.session.set_device(probe);
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

/// The decode ceiling table (`kernel::ceiling::table`) at `bandwidth_gbps`, as JSON.
#[wasm_bindgen]
pub fn ceiling_table_json(bandwidth_gbps: f64, context: u32) -> String {
    let t = crate::kernel::ceiling::table(bandwidth_gbps, context);
    serde_json::to_string(&t).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Runs the kernel self-check of this build (every path against the definition, bit for bit);
/// returns how many (case, path) pairs agreed, or throws the first disagreement.
#[wasm_bindgen]
pub fn kernel_self_check() -> Result<u32, JsError> {
    crate::kernel::q4::cases::check_paths()
        .map(|n| n as u32)
        .map_err(|e| JsError::new(&e))
}

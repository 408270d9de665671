//! Operator profiles inside a log or dropped as files: where each op's time went.
//! `tflite_table` reads TFLite / LiteRT `benchmark_model`'s op-profiling tables, `ort_json`
//! ONNX Runtime's profile JSON. Both give an [`crate::evidence::op_profile::OpProfile`].

mod ort_json;
mod tflite_table;

use crate::evidence::{Evidence, InputId};
use std::collections::BTreeMap;

/// Literals one of which opens or carries what the readers read (the log scanner's gate).
pub fn keywords() -> impl Iterator<Item = &'static &'static str> {
    tflite_table::KEYWORDS.iter().chain(ort_json::KEYWORDS)
}

#[derive(Default)]
pub struct OpProfiles {
    tflite: tflite_table::TfliteTables,
    ort: ort_json::OrtProfile,
}

impl OpProfiles {
    /// Whether a table is open, whose rows carry no keyword of their own.
    pub fn active(&self) -> bool {
        self.tflite.active()
    }

    pub fn line(&mut self, input: InputId, number: u64, message: &str, ev: &mut Evidence) {
        if ort_json::KEYWORDS.iter().any(|k| message.contains(k)) {
            self.ort.line(number, message);
            return;
        }
        self.tflite.line(input, number, message, ev);
    }

    pub fn finish(&mut self, input: InputId, ev: &mut Evidence) {
        self.tflite.finish(input, ev);
        self.ort.finish(input, ev);
    }
}

/// Milliseconds by name, slowest first and without the zeros, at most `keep`.
fn slowest_first(map: BTreeMap<String, f64>, keep: usize) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = map.into_iter().filter(|(_, ms)| *ms > 0.0).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v.truncate(keep);
    v
}

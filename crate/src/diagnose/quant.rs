//! `quant.weights-expanded`: the run holds far more weight memory than its quant promises.
//! A 7B int4 model is about 3.5–4 GiB; 7 GiB or more means the weights sit in memory as fp16.

use super::run_facts::{framework_label, quant_bits, run_ref, weight_mib};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::figures::size_of_mib;

pub const IDS: &[&str] = &["quant.weights-expanded"];

/// Memory over the expectation that counts as expanded: int4 -> fp16 is about 3.5×, and
/// buffers carry some slack (embeddings kept at higher precision, alignment), so 1.6× is safe.
const EXPANDED_RATIO: f64 = 1.6;

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in &ev.runs {
        let Some(resident) = weight_mib(run) else {
            continue;
        };
        let Some(quant) = run.quant.as_deref() else {
            continue;
        };
        let Some(bits) = quant_bits(quant).filter(|b| *b < 10.0) else {
            continue;
        };
        // What the weights should take: from the parameter count, else the file size.
        let from_params = run.params.map(|p| p * bits / 8.0 / (1024.0 * 1024.0));
        let from_file = run.model_bytes.map(|b| b as f64 / (1024.0 * 1024.0));
        let Some(expected) = from_params.or(from_file).filter(|e| *e > 0.0) else {
            continue;
        };
        let ratio = resident / expected;
        if ratio < EXPANDED_RATIO {
            continue;
        }
        let buffers: Vec<String> = run
            .buffers_mib
            .iter()
            .filter(|(k, _)| k.ends_with(" model"))
            .map(|(k, v)| format!("{k} buffer = {v:.2} MiB"))
            .collect();
        out.push(Finding {
            id: "quant.weights-expanded",
            severity: Severity::Critical,
            params: vec![
                ("framework", framework_label(run)),
                ("quant", quant.to_string()),
                ("resident", size_of_mib(resident)),
                ("expected", size_of_mib(expected)),
                ("ratio", format!("{ratio:.1}")),
                ("bits", format!("{:.0}", (bits * ratio).min(32.0))),
            ],
            count: None,
            evidence: vec![run_ref(ev, run, Quote::Input(buffers.join("; ")))],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

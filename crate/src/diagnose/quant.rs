//! `quant.weights-expanded`: the run holds far more weight memory than its quant promises.
//! A 7B int4 model is about 3.5–4 GiB; 7 GiB or more means the weights sit in memory as fp16.
//!
//! The memory is the run's model buffers when its log prints them, else the resident memory of
//! the inference process from a snapshot in the same analysis (`top` RES, `dumpsys meminfo`,
//! `/proc/<pid>/status`), less the buffers the log states beside the weights (KV cache,
//! compute).

use super::memory::{source, workload};
use super::run_facts::{framework_label, quant_bits, run_ref, weight_mib};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::figures::size_of_mib;
use crate::views::Views;

pub const IDS: &[&str] = &["quant.weights-expanded"];

/// Memory over the expectation that counts as expanded: int4 -> fp16 is about 3.5×, and
/// buffers carry some slack (embeddings kept at higher precision, alignment), so 1.6× is safe.
const EXPANDED_RATIO: f64 = 1.6;
/// The same from a process's resident memory when the log states no KV or compute buffer:
/// the footprint then also holds an unknown KV cache (2 GB for a 7B model at 4096 tokens in
/// fp16, about 1.5× over its int4 weights with the runtime), so the bar is higher.
const EXPANDED_RATIO_RSS_UNKNOWN_KV: f64 = 1.8;

const MIB: f64 = 1024.0 * 1024.0;

/// What the weights of `run` should take, MiB: from the parameter count, else the file size.
fn expected_mib(run: &Run, bits: f64) -> Option<f64> {
    let from_params = run.params.map(|p| p * bits / 8.0 / MIB);
    let from_file = run.model_bytes.map(|b| b as f64 / MIB);
    from_params.or(from_file).filter(|e| *e > 0.0)
}

/// The run's quant, when it is one that promises fewer bits than fp16 (with its bits).
fn low_bit_quant(run: &Run) -> Option<(&str, f64)> {
    let quant = run.quant.as_deref()?;
    let bits = quant_bits(quant).filter(|b| *b < 10.0)?;
    Some((quant, bits))
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in &ev.runs {
        let Some(resident) = weight_mib(run) else {
            continue;
        };
        let Some((quant, bits)) = low_bit_quant(run) else {
            continue;
        };
        let Some(expected) = expected_mib(run, bits) else {
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
        out.push(Finding::new(
            "quant.weights-expanded",
            Severity::Critical,
            vec![
                ("framework", framework_label(run)),
                ("quant", quant.to_string()),
                ("held", "@quant.held.buffers".to_string()),
                ("basis", String::new()),
                ("resident", size_of_mib(resident)),
                ("expected", size_of_mib(expected)),
                ("ratio", format!("{ratio:.1}")),
                ("bits", format!("{:.0}", (bits * ratio).min(32.0))),
            ],
            vec![run_ref(ev, run, Quote::Input(buffers.join("; ")))],
        ));
    }
    if out.is_empty() {
        out.extend(from_snapshot(ev));
    }
    out
}

/// The inference process's resident memory against the one model the logs describe.
fn from_snapshot(ev: &Evidence) -> Option<Finding> {
    let p = workload(ev)?;
    let mut models = ev.runs.iter().filter_map(|r| {
        let (quant, bits) = low_bit_quant(r)?;
        Some((r, quant, bits, expected_mib(r, bits)?))
    });
    let (run, quant, bits, expected) = models.next()?;
    // Several models in the logs: the snapshot cannot be matched to one.
    if models.any(|(_, q, _, e)| q != quant || (e - expected).abs() > 0.05 * expected) {
        return None;
    }
    let other: f64 = run
        .buffers_mib
        .iter()
        .filter(|(k, _)| !k.ends_with(" model"))
        .fold(0.0, |a, (_, v)| a + v);
    let rss = p.bytes as f64 / MIB;
    let resident = (rss - other).max(0.0);
    let ratio = resident / expected;
    let bar = if other > 0.0 {
        EXPANDED_RATIO
    } else {
        EXPANDED_RATIO_RSS_UNKNOWN_KV
    };
    if ratio < bar {
        return None;
    }
    let at = source(ev, p.input, p.line);
    Some(Finding::new(
        IDS[0],
        Severity::Critical,
        vec![
            ("framework", framework_label(run)),
            ("quant", quant.to_string()),
            ("held", "@quant.held.snapshot".to_string()),
            (
                "basis",
                if other > 0.0 {
                    "@quant.basis.snapshot"
                } else {
                    "@quant.basis.snapshot-no-kv"
                }
                .to_string(),
            ),
            ("resident", size_of_mib(resident)),
            ("expected", size_of_mib(expected)),
            ("ratio", format!("{ratio:.1}")),
            ("bits", format!("{:.0}", (bits * ratio).min(32.0))),
            ("process", p.name.clone()),
            ("figure", p.label.to_string()),
            ("rss", size_of_mib(rss)),
            ("other", size_of_mib(other)),
            ("source", at.clone()),
        ],
        vec![
            EvidenceRef {
                input: p.input,
                lines: Some((p.line, p.line)),
                time_s: None,
                quote: Some(Quote::phrase(
                    "quote.memory.rss-vs-weights",
                    vec![
                        ("process", p.name.clone()),
                        ("figure", p.label.to_string()),
                        ("rss", size_of_mib(rss)),
                        ("source", at.clone()),
                        ("expected", size_of_mib(expected)),
                        ("quant", quant.to_string()),
                    ],
                )),
            },
            run_ref(
                ev,
                run,
                Quote::phrase(
                    "quote.memory.model",
                    vec![
                        ("quant", quant.to_string()),
                        ("expected", size_of_mib(expected)),
                    ],
                ),
            ),
        ],
    ))
}

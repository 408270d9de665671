//! Qualcomm QNN / Genie: `genie-t2t-run`'s version line, the HTP backend libraries it names,
//! `Allocated total size = N across K buffers`, and the `--profile` JSON
//! (`"artifact_type": "GENIE_PROFILE"`): per `GenieDialog_query` event the prompt and generated
//! token counts and rates, and `GenieDialog_create`'s init time. Unit strings differ by tool
//! (`toks/sec`, `TPS`; `us`, `MICROSEC`), so they are matched loosely.

use super::cap;
use super::json_block::Doc;
use super::runs::{phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

const FW: Framework = Framework::Qnn;

struct Re {
    gate: Regex,
    version: Regex,
    htp: Regex,
    allocated: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &["libGenie", "libQnn", "Allocated total size"];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("Genie pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            version: r(r"Using libGenie\.so version ([\w.]+)"),
            htp: r(r"libQnn(Htp|Gpu|Cpu|Dsp)\w*\.so"),
            allocated: r(r"Allocated total size = (\d+) across (\d+) buffers"),
        }
    })
}

#[derive(Default)]
pub struct Genie;

/// A KPI's value, whether it is a bare number or `{"value": …, "unit": …}`; microseconds are
/// turned into milliseconds.
fn kpi(v: &Value, key: &str) -> Option<f64> {
    let e = v.get(key)?;
    let (val, unit) = match e {
        Value::Object(o) => (
            o.get("value")?.as_f64()?,
            o.get("unit").and_then(Value::as_str).unwrap_or(""),
        ),
        other => (other.as_f64()?, ""),
    };
    let unit = unit.to_ascii_lowercase();
    Some(if unit == "us" || unit.starts_with("micro") {
        val / 1000.0
    } else {
        val
    })
}

impl FrameworkParser for Genie {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.version, msg) {
            runs.boundary(FW, at, |r| r.build.is_some() || r.decode.is_some());
            runs.run(FW, at).build = Some(format!("libGenie {}", &c[1]));
            return;
        }
        // The QNN backend libraries are named by ORT's QNN EP and ExecuTorch too: they only
        // complete a Genie run already open, never start one.
        if let Some(c) = cap(&r.htp, msg) {
            if let Some(run) = runs.open(FW) {
                run.backend
                    .get_or_insert_with(|| format!("QNN {}", c[1].to_ascii_uppercase()));
                run.line_end = Some(at);
            }
            return;
        }
        if let Some(c) = cap(&r.allocated, msg) {
            if let Ok(bytes) = c[1].parse::<f64>() {
                runs.run(FW, at).buffers_mib.insert(
                    "allocated".into(),
                    (bytes / 1048576.0 * 100.0).round() / 100.0,
                );
            }
        }
    }

    fn doc(&mut self, doc: &Doc, runs: &mut RunCollector) {
        let v = &doc.value;
        // genie-t2t-run writes the artifact type inside `header`; some builds repeat it at the top.
        fn artifact(v: &Value) -> Option<&str> {
            v.get("artifact_type").and_then(Value::as_str)
        }
        let kind = artifact(v).or_else(|| v.get("header").and_then(artifact));
        if kind != Some("GENIE_PROFILE") {
            return;
        }
        let at = doc.line_end;
        let events = v
            .get("components")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("events").and_then(Value::as_array))
            .flatten();
        for e in events {
            match e.get("type").and_then(Value::as_str) {
                Some("GenieDialog_create") => {
                    runs.run(FW, at).load_ms = kpi(e, "init-time");
                }
                Some("GenieDialog_query") => {
                    let pt = kpi(e, "num-prompt-tokens").map(|t| t as u64);
                    let gt = kpi(e, "num-generated-tokens").map(|t| t as u64);
                    runs.phase(
                        FW,
                        at,
                        PhaseKind::Prefill,
                        phase(pt, None, None, kpi(e, "prompt-processing-rate")),
                    );
                    runs.phase(
                        FW,
                        at,
                        PhaseKind::Decode,
                        phase(
                            gt,
                            kpi(e, "token-generation-time"),
                            None,
                            kpi(e, "token-generation-rate"),
                        ),
                    );
                }
                _ => {}
            }
        }
        if let Some(run) = runs.open(FW) {
            run.line_start = Some(
                run.line_start
                    .map_or(doc.line_start, |s| s.min(doc.line_start)),
            );
            run.backend.get_or_insert_with(|| "QNN HTP".into());
        }
    }
}

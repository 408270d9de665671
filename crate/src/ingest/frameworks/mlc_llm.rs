//! MLC-LLM: `/stats` (`prefill: 48.3 tok/s, decode: 13.2 tok/s`), the newer engine's token
//! counts line, 2023 per-token `decoding-time=…ms tok/s: …` debug lines (averaged), the quant
//! and backend from the model id or library name (`Llama-2-7b-chat-hf-q4f16_1-Vulkan.so`), and
//! the devices `auto_device` found.

use super::cap;
use super::runs::{num, phase, quant_from_name, round3, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use crate::evidence::Phase;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::MlcLlm;

struct Re {
    gate: Regex,
    stats: Regex,
    counts: Regex,
    per_token: Regex,
    model_id: Regex,
    lib_backend: Regex,
    found: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "tok/s",
    "tokens:",
    "decoding-time",
    "Found device",
    "f16",
    "f32",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("MLC pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            stats: r(r"prefill:\s*([\d.]+|inf|nan)\s*tok/s,\s*decode:\s*([\d.]+|inf|nan)\s*tok/s"),
            counts: r(r"prompt tokens:\s*(\d+),\s*completion tokens:\s*(\d+)"),
            per_token: r(r"decoding-time=([\d.]+)ms"),
            model_id: r(r"([\w.-]+?-q\d+f\d+(?:_\d)?)(?:-MLC)?\b"),
            lib_backend: r(r"(?i)-(vulkan|opencl|metal|cuda|webgpu|android|iphone)\.(?:so|tar|dylib|dll|wasm)\b"),
            found: r(r"Found device: (\w+):(\d+)"),
        }
    })
}

#[derive(Default)]
pub struct MlcLlm {
    per_token_ms: f64,
    per_token_n: u64,
}

impl FrameworkParser for MlcLlm {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.stats, msg) {
            runs.phase(
                FW,
                at,
                PhaseKind::Prefill,
                phase(None, None, None, num(&c[1])),
            );
            runs.phase(
                FW,
                at,
                PhaseKind::Decode,
                phase(None, None, None, num(&c[2])),
            );
            self.per_token_n = 0;
            self.per_token_ms = 0.0;
            return;
        }
        if let Some(c) = cap(&r.counts, msg) {
            if let Some(run) = runs.open(FW) {
                if let Some(p) = run.prefill.as_mut() {
                    p.tokens.get_or_insert(c[1].parse().unwrap_or(0));
                }
                if let Some(d) = run.decode.as_mut() {
                    d.tokens.get_or_insert(c[2].parse().unwrap_or(0));
                }
                run.line_end = Some(at);
            }
            return;
        }
        if let Some(c) = cap(&r.per_token, msg) {
            if let Some(ms) = num(&c[1]) {
                self.per_token_ms += ms;
                self.per_token_n += 1;
                let run = runs.run(FW, at);
                // The mean of the per-token lines so far: a decode speed the log implies.
                run.decode = Some(Phase {
                    tokens: Some(self.per_token_n),
                    ms: Some(round3(self.per_token_ms)),
                    tok_s: Some(round3(
                        self.per_token_n as f64 * 1000.0 / self.per_token_ms.max(1e-9),
                    )),
                    derived: true,
                });
            }
            return;
        }
        if let Some(c) = cap(&r.found, msg) {
            let run = runs.run(FW, at);
            let d = format!("{}:{}", &c[1], &c[2]);
            if !run.devices.contains(&d) {
                run.devices.push(d);
            }
            return;
        }
        // Model ids carry `q4f16_1`-style quants: a cheap gate before the regex.
        if msg.contains("f16") || msg.contains("f32") {
            if let Some(c) = cap(&r.model_id, msg) {
                let id = c[1].rsplit(['/', '\\']).next().unwrap_or(&c[1]).to_string();
                let backend = cap(&r.lib_backend, msg).map(|b| b[1].to_string());
                let run = runs.run(FW, at);
                run.model.get_or_insert(id.clone());
                if run.quant.is_none() {
                    run.quant = quant_from_name(&id);
                }
                if let Some(b) = backend {
                    run.backend.get_or_insert(b);
                }
            }
        }
    }
}

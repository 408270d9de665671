//! MediaPipe LLM Inference: the engine's `Session config: backend: …, threads: N, …` line and
//! the model file it loads (`gemma-2b-it-cpu-int4.bin`: the quant is in the name). It prints no
//! prefill or decode speed (a maintainer said so in mediapipe-samples #412).

use super::cap;
use super::runs::{quant_from_name, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Mediapipe;

struct Re {
    gate: Regex,
    session: Regex,
    threads: Regex,
    model: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &["Session config", "-cpu-", "-gpu-"];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("MediaPipe pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            session: r(r"Session config:"),
            threads: r(r"\bthreads:\s*(\d+)"),
            model: r(r"([\w.-]+-(?:cpu|gpu)-(?:int4|int8|fp16|f16|fp32)[\w.-]*\.(?:bin|task))\b"),
        }
    })
}

#[derive(Default)]
pub struct Mediapipe;

impl FrameworkParser for Mediapipe {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if r.session.is_match(msg) {
            runs.boundary(FW, at, |r| r.n_threads.is_some());
            let run = runs.run(FW, at);
            if let Some(c) = cap(&r.threads, msg) {
                run.n_threads = c[1].parse().ok();
            }
            return;
        }
        if !(msg.contains("-cpu-") || msg.contains("-gpu-")) {
            return;
        }
        if let Some(c) = cap(&r.model, msg) {
            let name = c[1].to_string();
            let run = runs.run(FW, at);
            if run.quant.is_none() {
                run.quant = quant_from_name(&name);
            }
            // The file name says which engine it was built for: `-cpu-` or `-gpu-`.
            if run.backend.is_none() {
                run.backend = Some(if name.contains("-gpu-") {
                    "GPU".into()
                } else {
                    "CPU".into()
                });
            }
            run.model.get_or_insert(name);
        }
    }
}

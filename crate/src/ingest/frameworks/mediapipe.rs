//! MediaPipe LLM Inference: the engine's `Session config: backend: …, threads: N, …` line and
//! the model file it loads (`gemma-2b-it-cpu-int4.bin`: the quant and the backend are in the
//! name; `gemma3-1b-it-int4.task`: only the quant), and the CPU
//! engine's `Loaded model in N ms`. It prints no prefill or decode speed (a maintainer said so in
//! mediapipe-samples #412).

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
    loaded: Regex,
    task: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "Session config",
    "-cpu-",
    "-gpu-",
    "Loaded model in ",
    ".task",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("MediaPipe pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            session: r(r"Session config:"),
            threads: r(r"\bthreads:\s*(\d+)"),
            model: r(r"([\w.-]+-(?:cpu|gpu)-(?:int4|int8|fp16|f16|fp32)[\w.-]*\.(?:bin|task))\b"),
            loaded: r(r"^\s*Loaded model in (\d+(?:\.\d+)?) ?ms\s*$"),
            task: r(r"([\w.-]+\.task)\b"),
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
        // Other runtimes say "Loaded model in" too: it only completes a session already open.
        if let Some(c) = cap(&r.loaded, msg) {
            if let Some(run) = runs.open(FW) {
                run.load_ms = super::runs::num(&c[1]);
                run.line_end = Some(at);
            }
            return;
        }
        if !(msg.contains("-cpu-") || msg.contains("-gpu-")) {
            // The `.task` bundles (Gemma 3 and later) do not name the backend, only the quant;
            // a vision task's bundle (`hand_landmarker.task`) names neither and is left alone.
            if let Some(c) = cap(&r.task, msg) {
                if let Some(q) = quant_from_name(&c[1]) {
                    if let Some(run) = runs.weak(FW, at) {
                        run.quant.get_or_insert(q);
                        run.model.get_or_insert_with(|| c[1].to_string());
                    }
                }
            }
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

#[cfg(test)]
mod tests {
    use crate::evidence::Run;

    fn runs(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    #[test]
    fn the_engine_s_load_time_completes_the_session_s_run() {
        let r = runs(concat!(
            "I0000 00:00:1721895466.174139    1280 llm_inference_engine.cc:186] Session config: backend: 1, threads: 8, num_output_candidates: 1, topk: 40\n",
            "I0000 00:00:1721895469.882010    1316 llm_inference_engine_cpu.cc:247] Loaded model in 3707 ms\n",
        ));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].n_threads, Some(8));
        assert_eq!(r[0].load_ms, Some(3707.0));
        // Alone, the line opens no run of its own.
        assert!(runs(
            "I0000 00:00:1.0 1316 llm_inference_engine_cpu.cc:247] Loaded model in 3707 ms\n"
        )
        .is_empty());
    }

    #[test]
    fn a_task_bundle_gives_its_quant_but_no_backend() {
        let r = runs("I/LlmInference( 8812): Loading /data/local/tmp/llm/gemma3-1b-it-int4.task\n");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].quant.as_deref(), Some("int4"));
        assert_eq!(r[0].model.as_deref(), Some("gemma3-1b-it-int4.task"));
        assert!(r[0].backend.is_none());
        assert!(runs("I/HandLandmarker( 8812): Loading hand_landmarker.task\n").is_empty());
    }
}

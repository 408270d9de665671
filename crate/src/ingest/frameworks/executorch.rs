//! ExecuTorch's LLM runner: the stats block (`Prompt Tokens: N    Generated Tokens: M`,
//! `Model Load Time`, `Prompt evaluation: … Rate: …`, `Generated N tokens: … Rate: …`, with TABs
//! or spaces), the `PyTorchObserver {...}` JSON line, the first runner's `Achieved tok/s: R`
//! (2024-01 to 2024-03), the thread pool size, and the QNN backend lines. `Rate: inf` is missing, not infinite. The QNN partitioner's unsupported ops and the
//! quantizer's "No quant config" go through the fallback table.

use super::cap;
use super::json_block::Doc;
use super::runs::{num, phase, quant_from_name, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Executorch;

struct Re {
    gate: Regex,
    tokens: Regex,
    load: Regex,
    prefill: Regex,
    decode: Regex,
    threads: Regex,
    qnn: Regex,
    pte: Regex,
    demo_backend: Regex,
    demo_load: Regex,
    achieved: Regex,
    warmup: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "Prompt Tokens",
    "Model Load Time",
    "Prompt evaluation",
    "Generated ",
    "threadpool",
    "Qnn",
    "qnn",
    ".pte",
    "Backend:",
    "loaded time",
    "Achieved tok/s",
    " warmup] ",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ExecuTorch pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            tokens: r(r"Prompt Tokens:\s*(\d+)\s+Generated Tokens:\s*(\d+)"),
            load: r(r"Model Load Time:\s*([\d.]+)\s*\(seconds\)"),
            prefill: r(r"Prompt evaluation:\s*([\d.]+)\s*\(seconds\)\s*Rate:\s*([\w.+-]+)"),
            decode: r(r"Generated (\d+) tokens:\s*([\d.]+)\s*\(seconds\)\s*Rate:\s*([\w.+-]+)"),
            threads: r(r"Resetting threadpool with num threads = (\d+)"),
            qnn: r(r"\[Qnn ExecuTorch\]|QnnBackend|qnn_executorch_backend"),
            pte: r(r"([\w.-]+\.pte)\b"),
            // The Android demo app's `Load complete.` message, one field per continuation line.
            demo_backend: r(r"^\s*Backend:\s*(\w+)\s*$"),
            demo_load: r(r"Model loaded time:\s*([\d.]+)\s*ms"),
            achieved: r(r"Achieved tok/s:\s*([\d.]+)"),
            warmup: r(r"^\s*\[iter \d+ warmup\] prefill "),
        }
    })
}

/// The runner prints the observer JSON and the stats block for the same generation, in either
/// order: a printed phase replaces one derived from the observer with the same token count.
fn replace_or_add(runs: &mut RunCollector, at: u64, kind: PhaseKind, p: crate::evidence::Phase) {
    if let Some(run) = runs.open(FW) {
        let slot = match kind {
            PhaseKind::Prefill => &mut run.prefill,
            PhaseKind::Decode => &mut run.decode,
        };
        if slot
            .as_ref()
            .is_some_and(|old| old.derived && old.tokens == p.tokens)
        {
            *slot = Some(p);
            run.line_end = Some(at);
            return;
        }
    }
    runs.phase(FW, at, kind, p);
}

#[derive(Default)]
pub struct Executorch {
    prompt_tokens: Option<u64>,
}

impl FrameworkParser for Executorch {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.tokens, msg) {
            self.prompt_tokens = c[1].parse().ok();
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.load, msg) {
            // A new stats block starts a new run, unless the open one only has the observer's figures.
            runs.boundary(FW, at, |r| r.decode.as_ref().is_some_and(|d| !d.derived));
            runs.run(FW, at).load_ms = num(&c[1]).map(|s| s * 1000.0);
            return;
        }
        if let Some(c) = cap(&r.prefill, msg) {
            let p = phase(
                self.prompt_tokens,
                num(&c[1]).map(|s| s * 1000.0),
                None,
                num(&c[2]),
            );
            replace_or_add(runs, at, PhaseKind::Prefill, p);
            return;
        }
        if let Some(c) = cap(&r.decode, msg) {
            let p = phase(
                c[1].parse().ok(),
                num(&c[2]).map(|s| s * 1000.0),
                None,
                num(&c[3]),
            );
            replace_or_add(runs, at, PhaseKind::Decode, p);
            return;
        }
        // The Qwen3.5 MoE runner's warm-up iteration is printed like a measured one; it is not a
        // run, so the generic timings reader must not take it for one.
        if r.warmup.is_match(msg) {
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.achieved, msg) {
            // That runner fed the prompt one token per forward, as it fed generated tokens, and
            // timed both from the second step: a rate of one-token steps, which is decode's.
            runs.phase(
                FW,
                at,
                PhaseKind::Decode,
                phase(None, None, None, num(&c[1])),
            );
            return;
        }
        if let Some(c) = cap(&r.threads, msg) {
            runs.run(FW, at).n_threads = c[1].parse().ok();
            return;
        }
        if let Some(c) = cap(&r.demo_backend, msg) {
            if let Some(run) = runs.open(FW) {
                run.backend = Some(c[1].to_string());
                run.line_end = Some(at);
            }
            return;
        }
        if let Some(c) = cap(&r.demo_load, msg) {
            if let Some(run) = runs.open(FW) {
                run.load_ms = num(&c[1]);
                run.line_end = Some(at);
            }
            return;
        }
        if r.qnn.is_match(msg) {
            let run = runs.run(FW, at);
            run.backend.get_or_insert_with(|| "QNN".into());
            return;
        }
        if !msg.contains(".pte") {
            return;
        }
        if let Some(c) = cap(&r.pte, msg) {
            let run = runs.run(FW, at);
            run.model.get_or_insert(c[1].to_string());
            if run.quant.is_none() {
                run.quant = quant_from_name(&c[1]);
            }
        }
    }

    fn doc(&mut self, doc: &Doc, runs: &mut RunCollector) {
        let v = &doc.value;
        if v.get("generated_tokens").is_none() || v.get("inference_end_ms").is_none() {
            return;
        }
        let f = |k: &str| v.get(k).and_then(serde_json::Value::as_f64);
        // Timestamps are in 1/SCALING_FACTOR seconds (ms by default).
        let scale = 1000.0
            / f("SCALING_FACTOR_UNITS_PER_SECOND")
                .filter(|s| *s > 0.0)
                .unwrap_or(1000.0);
        let span = |a: &str, b: &str| match (f(a), f(b)) {
            (Some(x), Some(y)) if y >= x => Some((y - x) * scale),
            _ => None,
        };
        let generated = f("generated_tokens").map(|t| t as u64);
        // The runner prints the observer line next to its stats block: the same run, once.
        if runs
            .open(FW)
            .is_some_and(|r| r.decode.as_ref().is_some_and(|d| d.tokens == generated))
        {
            return;
        }
        let at = doc.line_end;
        let prompt = f("prompt_tokens").map(|t| t as u64);
        runs.phase(
            FW,
            at,
            PhaseKind::Prefill,
            phase(
                prompt,
                span("inference_start_ms", "prompt_eval_end_ms"),
                None,
                None,
            ),
        );
        runs.phase(
            FW,
            at,
            PhaseKind::Decode,
            phase(
                generated,
                span("prompt_eval_end_ms", "inference_end_ms"),
                None,
                None,
            ),
        );
        if let Some(run) = runs.open(FW) {
            run.load_ms = span("model_load_start_ms", "model_load_end_ms");
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
    fn the_first_runner_s_achieved_rate_is_a_decode_rate() {
        let r =
            runs("I 00:00:09.412000 executorch:llama_runner.cpp:214] Achieved tok/s: 23.417355\n");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].decode.as_ref().and_then(|d| d.tok_s), Some(23.417355));
        assert!(r[0].prefill.is_none());
    }

    #[test]
    fn a_warm_up_iteration_is_not_a_run() {
        let r = runs(concat!(
            "[iter 0 warmup] prefill 120.4 tok/s (27 tok, 224.2 ms) | decode 41.2 tok/s (128 tok, 3106.8 ms)\n",
            "noise\n",
            "[iter 1] prefill 121.4 tok/s (27 tok, 222.2 ms) | decode 41.5 tok/s (128 tok, 3084.8 ms)\n",
        ));
        let decode: Vec<_> = r
            .iter()
            .map(|run| run.decode.as_ref().and_then(|d| d.tok_s))
            .collect();
        assert_eq!(decode, [Some(41.5)], "{r:?}");
    }
}

//! ONNX Runtime and onnxruntime-genai: where the graph was placed (`Node(s) placed on
//! [QNNExecutionProvider]. Number of nodes: N`), and genai's `benchmark_e2e.py` figures, printed
//! as `Average Prompt Processing Throughput (per token): 453.40 tps` or as a markdown table, and
//! its C++ `model_benchmark` blocks (`Token generation:` over tab-indented `avg (us):` and
//! `avg (tokens/s):` lines, after `Batch size: 1, prompt tokens: 128, …`).
//! The example programs (`model-qa.py`, `model-chat.py`, C `model_qa` / `model_chat`) print one
//! stats line per answer with `--timings`: `Prompt length: 16, New tokens: 33, Time to first:
//! 5.91s, Prompt tokens per second: 2.71 tps, New tokens per second: 0.22 tps`.
//! ORT itself prints no token speeds; NNAPI / QNN unsupported nodes go through the fallback table.

use super::cap;
use super::runs::{num, phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::OnnxRuntime;

struct Re {
    gate: Regex,
    placed: Regex,
    genai: Regex,
    prompt_len: Regex,
    heading: Regex,
    ep_flag: Regex,
    model: Regex,
    cpp_batch: Regex,
    cpp_block: Regex,
    cpp_avg: Regex,
    cpp_n: Regex,
    cpp_peak: Regex,
    example: Regex,
    example_cmd: Regex,
    example_ep: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    // `Node(s) placed on [X]` and `All nodes placed on [X]`.
    "placed on",
    "Throughput",
    "Latency",
    "benchmark",
    "genai",
    "Model path",
    "Prompt Length",
    "INT4",
    "INT8",
    "FP16",
    "FP32",
    "Batch size:",
    "Prompt processing (",
    "Token generation:",
    "Token sampling:",
    "E2E generation",
    "avg (",
    // The prefill block's `n:  5 * 256 token(s)`: the repetitions.
    "token(s)",
    "Peak working set size",
    // The example programs' stats line.
    "tokens per second:",
    // Their command lines, for the model folder and `-e`.
    "model-qa",
    "model_qa",
    "model-chat",
    "model_chat",
    "phi3-qa",
    "Execution provider:",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ORT pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            // `All nodes placed on [X]` when one EP holds the whole graph (then the count may be cut
            // off in a paste), `Node(s) placed on [X]` once per EP otherwise.
            placed: r(r"(All nodes|Node\(s\)) placed on \[(\w+?)(?:ExecutionProvider)?\](?:\.\s*Number of nodes:\s*(\d+))?"),
            genai: r(r"(Prompt Processing|Token Generation) (Throughput|Latency)(?: \(per token\))?(?: \(\w+\))?\s*[:|]\s*([\d.]+)"),
            model: r(r"(?:-i|-m|--model_path|--input_folder|Model path:?)\s+(\S+)"),
            prompt_len: r(r"(?i)^\|?\s*(?:Average\s+)?Prompt Length\s*(?:\(\w+\)\s*)?[:|]\s*(\d+)"),
            // A heading the user wrote over the table: `INT4 CUDA`, `FP16 DML`.
            heading: r(r"(?i)^#*\s*(INT4|INT8|FP16|FP32|BF16)[\s/,-]+(CPU|CUDA|DML|DirectML|QNN|NPU|GPU|WebGPU|ROCm|TensorRT)\s*:?\s*$"),
            ep_flag: r(r"(?:^|\s)(?:-e|--execution_provider)\s+(cpu|cuda|dml|qnn|webgpu|rocm|openvino|NvTensorRtRtx)\b"),
            cpp_batch: r(r"^Batch size: \d+, prompt tokens: (\d+), tokens to generate: \d+"),
            cpp_block: r(r"^(Prompt processing \(time to first token\)|Token generation|Token sampling|E2E generation[^:]*):$"),
            // C++ streams print large floats in scientific form: `1.54323e+06`.
            cpp_n: r(r"^n:\s+(\d+)(?: \* \d+ token\(s\))?$"),
            // `(bytes): N` before 2026, `: N bytes (3.20 GB)` after.
            cpp_peak: r(r"^Peak working set size(?: \(bytes\))?:\s+(\d+)"),
            cpp_avg: r(r"^avg \((us|tokens/s)\):\s+([\d.]+(?:e[+-]?\d+)?)\s*$"),
            // `Total tokens:` since 0.12 (Python only); C++ prints `inf` for a zero time, and
            // Python's `:.2f` the same digits.
            // The examples' `-i` is `--min_length`, not a model folder.
            example_cmd: r(r"(?:model[-_](?:qa|chat)|phi3-qa)\S*\s(?:.*\s)?(?:-m|--model_path|--model)\s+(\S+)"),
            // The C examples' banner: `Execution provider: cuda` (`follow_config`: the model's).
            example_ep: r(r"^Execution provider: (cpu|cuda|dml|qnn|webgpu|rocm|openvino|NvTensorRtRtx)\s*$"),
            example: r(r"Prompt length:\s*(\d+),\s*New tokens:\s*(\d+),(?:\s*Total tokens:\s*\d+,)?\s*Time to first:\s*([\d.]+|inf|nan)\s*s,\s*Prompt tokens per second:\s*([\d.]+|inf|nan)\s*tps,\s*New tokens per second:\s*([\d.]+|inf|nan)\s*tps"),
        }
    })
}

#[derive(Default)]
pub struct OnnxRuntime {
    /// Nodes per execution provider, for the run's backend: the EP that got the most nodes
    /// after the CPU, since the CPU EP always keeps some shape ops.
    placed: Vec<(String, u64)>,
    prompt_latency_ms: Option<f64>,
    gen_latency_ms: Option<f64>,
    prompt_tokens: Option<u64>,
    /// Quant and EP named over the figures (a heading, `-e cuda`), for the run they open.
    note: (Option<String>, Option<String>),
    /// The `model_benchmark` block being read, and its `avg (us)` line.
    cpp: Option<(CppBlock, Option<f64>)>,
}

#[derive(Clone, Copy, PartialEq)]
enum CppBlock {
    Prefill,
    Decode,
    /// Sampling and the end-to-end loop: their averages are not a phase's speed.
    Other,
}

impl FrameworkParser for OnnxRuntime {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.placed, msg) {
            let ep = c[2].to_string();
            if &c[1] == "All nodes" {
                // The whole graph on one EP, the CPU's included: nothing else to weigh.
                self.placed = vec![(
                    ep.clone(),
                    c.get(3).map_or(0, |m| m.as_str().parse().unwrap_or(0)),
                )];
                runs.run(FW, at).backend = Some(ep);
                return;
            }
            let Some(n) = c.get(3).and_then(|m| m.as_str().parse::<u64>().ok()) else {
                return;
            };
            match self.placed.iter_mut().find(|(e, _)| *e == ep) {
                Some(e) => e.1 = n,
                None => self.placed.push((ep, n)),
            }
            let best = self
                .placed
                .iter()
                .filter(|(e, _)| e != "CPU")
                .max_by_key(|(_, n)| *n)
                .or_else(|| self.placed.first())
                .map(|(e, _)| e.clone());
            let run = runs.run(FW, at);
            run.backend = best;
            return;
        }
        if let Some(c) = cap(&r.genai, msg) {
            runs.claim(at);
            let Some(v) = num(&c[3]) else { return };
            match (&c[1], &c[2]) {
                ("Prompt Processing", "Latency") => self.prompt_latency_ms = Some(v),
                ("Token Generation", "Latency") => self.gen_latency_ms = Some(v),
                ("Prompt Processing", _) => {
                    runs.phase(
                        FW,
                        at,
                        PhaseKind::Prefill,
                        phase(self.prompt_tokens, None, self.prompt_latency_ms, Some(v)),
                    );
                    if let Some(run) = runs.open(FW) {
                        let (q, b) = &self.note;
                        if run.quant.is_none() {
                            run.quant = q.clone();
                        }
                        if run.backend.is_none() {
                            run.backend = b.clone();
                        }
                    }
                }
                _ => {
                    runs.phase(
                        FW,
                        at,
                        PhaseKind::Decode,
                        phase(None, None, self.gen_latency_ms, Some(v)),
                    );
                }
            }
            return;
        }
        if let Some(c) = cap(&r.example, msg) {
            self.example(&c, at, runs);
            return;
        }
        if self.cpp_line(msg.trim(), at, runs) {
            return;
        }
        if let Some(c) = cap(&r.prompt_len, msg) {
            self.prompt_tokens = c[1].parse().ok();
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.heading, msg) {
            self.note = (
                Some(c[1].to_ascii_uppercase()),
                Some(c[2].to_ascii_uppercase()),
            );
            return;
        }
        if let Some(c) = cap(&r.example_cmd, msg) {
            let run = runs.run(FW, at);
            run.model.get_or_insert(c[1].to_string());
            if run.quant.is_none() {
                run.quant = super::runs::quant_from_name(&c[1]);
            }
            if let Some(e) = cap(&r.ep_flag, msg) {
                self.note.1 = Some(e[1].to_ascii_uppercase());
                run.backend.get_or_insert(e[1].to_ascii_uppercase());
            }
            return;
        }
        if let Some(c) = cap(&r.example_ep, msg.trim()) {
            let ep = c[1].to_ascii_uppercase();
            self.note.1 = Some(ep.clone());
            runs.run(FW, at).backend.get_or_insert(ep);
            return;
        }
        if msg.contains("benchmark") {
            if let Some(c) = cap(&r.ep_flag, msg) {
                self.note.1 = Some(c[1].to_ascii_uppercase());
            }
        }
        if msg.contains("benchmark") || msg.contains("genai") || msg.starts_with("Model path") {
            // `python -m mlx_lm.benchmark` names a Python module, not an ONNX model folder.
            let module = |c: &regex::Captures| {
                let before = msg[..c.get(0).map_or(0, |m| m.start())].trim_end();
                before.ends_with("python") || before.ends_with("python3")
            };
            if let Some(c) = cap(&r.model, msg).filter(|c| !module(c)) {
                let run = runs.run(FW, at);
                run.model.get_or_insert(c[1].to_string());
                if run.quant.is_none() {
                    run.quant = super::runs::quant_from_name(&c[1]);
                }
            }
        }
    }
}

impl OnnxRuntime {
    /// The example programs' stats line: one answer, its prompt's time to first token and both
    /// rates. Decode's rate counts every new token over the time after the first one, as printed.
    fn example(&mut self, c: &regex::Captures, at: u64, runs: &mut RunCollector) {
        let prompt: Option<u64> = c[1].parse().ok();
        let new: Option<u64> = c[2].parse().ok();
        let ttft_ms = num(&c[3]).map(|s| s * 1000.0);
        // Each answer of a chat is its own run: the collector opens a new one on a second prefill.
        runs.phase(
            FW,
            at,
            PhaseKind::Prefill,
            phase(prompt, ttft_ms, None, num(&c[4])),
        );
        runs.phase(
            FW,
            at,
            PhaseKind::Decode,
            phase(new, None, None, num(&c[5])),
        );
        if let Some(run) = runs.open(FW) {
            let (q, b) = &self.note;
            if run.quant.is_none() {
                run.quant = q.clone();
            }
            if run.backend.is_none() {
                run.backend = b.clone();
            }
        }
    }

    /// One line of a C++ `model_benchmark` report; true when it was one.
    fn cpp_line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) -> bool {
        let r = re();
        if let Some(c) = cap(&r.cpp_batch, msg) {
            self.prompt_tokens = c[1].parse().ok();
            runs.run(FW, at);
            return true;
        }
        if let Some(c) = cap(&r.cpp_block, msg) {
            let block = match &c[1] {
                "Token generation" => CppBlock::Decode,
                l if l.starts_with("Prompt") => CppBlock::Prefill,
                _ => CppBlock::Other,
            };
            self.cpp = Some((block, None));
            runs.claim(at);
            return true;
        }
        let Some((block, avg_us)) = self.cpp.as_mut() else {
            return false;
        };
        if let Some(c) = cap(&r.cpp_peak, msg) {
            if let Some(run) = runs.open(FW) {
                run.peak_memory_bytes = c[1].parse().ok();
            }
            runs.claim(at);
            return true;
        }
        if let Some(c) = cap(&r.cpp_n, msg) {
            // Decode's count is tokens over all repetitions; prefill's is the repetitions.
            if *block == CppBlock::Prefill {
                if let Some(run) = runs.open(FW) {
                    run.repeats = c[1].parse().ok();
                }
            }
            runs.claim(at);
            return true;
        }
        let Some(c) = cap(&r.cpp_avg, msg) else {
            return false;
        };
        runs.claim(at);
        let Some(v) = num(&c[2]) else { return true };
        if &c[1] == "us" {
            *avg_us = Some(v);
            return true;
        }
        // The prefill average is the whole prompt's time; the decode one is one token's.
        let ms = avg_us.map(|us| us / 1000.0);
        match *block {
            CppBlock::Prefill => runs.phase(
                FW,
                at,
                PhaseKind::Prefill,
                phase(self.prompt_tokens, ms, None, Some(v)),
            ),
            CppBlock::Decode => {
                runs.phase(FW, at, PhaseKind::Decode, phase(None, None, ms, Some(v)))
            }
            CppBlock::Other => {}
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::evidence::Run;

    fn parse(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, false)
    }

    #[test]
    fn the_cpp_model_benchmark_gives_both_phases_and_its_repetitions() {
        let runs = parse(
            "Batch size: 1, prompt tokens: 256, tokens to generate: 128
Prompt processing (time to first token):
\tavg (us):       1.92817e+06
\tavg (tokens/s): 132.768
\tn:              5 * 256 token(s)
Token generation:
\tavg (us):       71384.6
\tavg (tokens/s): 14.0087
\tn:              635 * 1 token(s)
Token sampling:
\tavg (us):       18.9032
\tavg (tokens/s): 52901
E2E generation (entire generation loop):
\tavg (ms):       11001.4
\tn:              5
Peak working set size: 3061846016 bytes (2.85 GB)",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        let p = r.prefill.as_ref().unwrap();
        assert_eq!((p.tokens, p.tok_s), (Some(256), Some(132.768)));
        assert!((p.ms.unwrap() - 1928.17).abs() < 0.01, "{p:?}");
        // Sampling's 52901 tokens/s is not decode's speed.
        assert_eq!(r.decode.as_ref().unwrap().tok_s, Some(14.0087));
        assert_eq!(r.repeats, Some(5));
        assert_eq!(r.peak_memory_bytes, Some(3061846016));
    }

    #[test]
    fn the_verbose_placement_lines_name_the_ep_that_holds_the_graph() {
        let runs = parse(
            "2026-03-02 14:11:08.1103312 [V:onnxruntime:, session_state.cc:1155 VerifyEachNodeIsAssignedToAnEp] Node(s) placed on [QNNExecutionProvider]. Number of nodes: 1311
2026-03-02 14:11:08.1103550 [V:onnxruntime:, session_state.cc:1155 VerifyEachNodeIsAssignedToAnEp] Node(s) placed on [CPUExecutionProvider]. Number of nodes: 64",
        );
        assert_eq!(runs[0].backend.as_deref(), Some("QNN"), "{runs:?}");
        // One EP for the whole graph prints `All nodes`, and the CPU then is the answer.
        let runs = parse(
            "2026-03-02 14:11:08.1 [V:onnxruntime:, session_state.cc:1286 VerifyEachNodeIsAssignedToAnEp]  All nodes placed on [CPUExecutionProvider]. Number of nodes: 175",
        );
        assert_eq!(runs[0].backend.as_deref(), Some("CPU"), "{runs:?}");
        let runs = parse("All nodes placed on [WebGpuExecutionProvider]");
        assert_eq!(runs[0].backend.as_deref(), Some("WebGpu"), "{runs:?}");
    }

    #[test]
    fn the_examples_stats_line_gives_each_answer_both_phases_and_its_time_to_first_token() {
        let runs = parse(
            "$ python3 model-qa.py -m ./phi3/cpu-int4-rtn-block-32 -e cpu --timings
Output: Paris.

Prompt length: 25, New tokens: 24, Total tokens: 49, Time to first: 2.06s, Prompt tokens per second: 12.14 tps, New tokens per second: 2.61 tps
Prompt (Use quit() to exit): again
Output: Paris, again.

Prompt length: 16, New tokens: 33, Time to first: 5.91s, Prompt tokens per second: 2.71 tps, New tokens per second: 0.22 tps",
        );
        assert_eq!(runs.len(), 2, "{runs:?}");
        let (a, b) = (&runs[0], &runs[1]);
        let p = a.prefill.as_ref().unwrap();
        assert_eq!(
            (p.tokens, p.ms, p.tok_s),
            (Some(25), Some(2060.0), Some(12.14))
        );
        let d = a.decode.as_ref().unwrap();
        assert_eq!(
            (d.tokens, d.tok_s, d.derived),
            (Some(24), Some(2.61), false)
        );
        // The older form, without `Total tokens`, is the second answer of the same session.
        assert_eq!(b.prefill.as_ref().unwrap().ms, Some(5910.0));
        assert_eq!(b.decode.as_ref().unwrap().tok_s, Some(0.22));
        for r in &runs {
            assert_eq!(r.backend.as_deref(), Some("CPU"), "{r:?}");
            assert_eq!(r.model.as_deref(), Some("./phi3/cpu-int4-rtn-block-32"));
        }
    }

    #[test]
    fn the_c_examples_banner_names_the_provider_and_the_whole_sequence_rate_is_not_decode() {
        let runs = parse(
            "Model path: C:\\models\\phi\\gpu-int4-awq-block-128
Execution provider: cuda
-------------
Prompt length: 31, New tokens: 58, Time to first: 0.09s, Prompt tokens per second: 344.44 tps, New tokens per second: 71.93 tps
-------------",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].backend.as_deref(), Some("CUDA"));
        assert_eq!(runs[0].decode.as_ref().unwrap().tok_s, Some(71.93));
        // `model-generate.py` and the C# examples count the prompt in their tokens: no phase.
        let runs = parse("Tokens: 254, Time: 11.63, Tokens per second: 21.84");
        assert!(runs.iter().all(|r| r.decode.is_none()), "{runs:?}");
    }
}

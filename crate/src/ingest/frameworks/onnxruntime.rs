//! ONNX Runtime and onnxruntime-genai: where the graph was placed (`Node(s) placed on
//! [QNNExecutionProvider]. Number of nodes: N`), and genai's `benchmark_e2e.py` figures, printed
//! as `Average Prompt Processing Throughput (per token): 453.40 tps` or as a markdown table.
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
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
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
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ORT pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            placed: r(r"Node\(s\) placed on \[(\w+?)(?:ExecutionProvider)?\]\.\s*Number of nodes:\s*(\d+)"),
            genai: r(r"(Prompt Processing|Token Generation) (Throughput|Latency)(?: \(per token\))?(?: \(\w+\))?\s*[:|]\s*([\d.]+)"),
            model: r(r"(?:-i|-m|--model_path|--input_folder|Model path:?)\s+(\S+)"),
            prompt_len: r(r"(?i)^\|?\s*(?:Average\s+)?Prompt Length\s*(?:\(\w+\)\s*)?[:|]\s*(\d+)"),
            // A heading the user wrote over the table: `INT4 CUDA`, `FP16 DML`.
            heading: r(r"(?i)^#*\s*(INT4|INT8|FP16|FP32|BF16)[\s/,-]+(CPU|CUDA|DML|DirectML|QNN|NPU|GPU|WebGPU|ROCm|TensorRT)\s*:?\s*$"),
            ep_flag: r(r"(?:^|\s)(?:-e|--execution_provider)\s+(cpu|cuda|dml|qnn|webgpu|rocm|NvTensorRtRtx)\b"),
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
}

impl FrameworkParser for OnnxRuntime {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.placed, msg) {
            let ep = c[1].to_string();
            let n: u64 = c[2].parse().unwrap_or(0);
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

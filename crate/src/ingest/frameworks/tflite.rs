//! TensorFlow Lite / LiteRT: which delegate was created, `benchmark_model`'s settings and
//! timings (per-inference latency only: no tokens), and LiteRT-LM's key/value speed blocks
//! (`prefill_speed: 204.8 tokens/s`, `Decode Speed: 24.85 tokens/sec`, `accelerator: GPU`).
//! Apps that wrap LiteRT-LM's benchmark print one key/value block per configuration (`model:`,
//! `accelerator:`, `prefill_tokens:` before the speeds): the keys of a block belong to the speeds
//! that follow them, and a block that starts after speeds is a new run.
//! The GPU delegate's unsupported-op lists and "N operations will run on the GPU, and the
//! remaining M ... on the CPU" go through the fallback table.

use super::cap;
use super::runs::{num, phase, quant_from_name, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Tflite;

struct Re {
    gate: Regex,
    delegate: Regex,
    bench_setting: Regex,
    init: Regex,
    size: Regex,
    lm_speed: Regex,
    lm_turn: Regex,
    lm_accel: Regex,
    lm_init: Regex,
    lm_model: Regex,
    lm_model_key: Regex,
    lm_tokens: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "elegate",
    "OpenCL-based",
    "Num threads",
    "Use gpu",
    "Use nnapi",
    "Graph",
    "Inference timings",
    "model file size",
    "speed",
    "Speed",
    "Turn ",
    "accelerator",
    "backend",
    "Executor initialization",
    "init_time",
    "model_load_time",
    "litert",
    "LiteRt",
    "model_path",
    "model",
    "_tokens",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("TFLite pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            delegate: r(r"(?i)(?:Created TensorFlow Lite (XNNPACK) delegate for CPU|Created TensorFlow Lite delegate for (GPU)|(GPU) delegate created|Created \d+ (GPU) delegate kernels|Initialized (OpenCL)-based API|Created TensorFlow Lite delegate for (NNAPI)|(NNAPI) delegate created|(Hexagon) delegate)"),
            bench_setting: r(r"^(Num threads|Use gpu|Use xnnpack|Use nnapi|Graph):?\s*\[([^\]]*)\]"),
            init: r(r"Inference timings in us: Init: (\d+)"),
            size: r(r"The input model file size \(MB\): ([\d.]+)"),
            lm_speed: r(r"(?i)^\s*-?\s*(prefill|decode)[ _]speed\s*[:=]\s*([\d.]+|inf|nan)\s*tokens?/s"),
            lm_turn: r(r"(?i)^\s*(Prefill|Decode) Turn \d+: Processed (\d+) tokens in ([\d.]+)\s*(ms|s)"),
            lm_accel: r(r"(?i)^\s*(?:accelerator|backend)\s*[:=]\s*(CPU|GPU|NPU)\b"),
            lm_init: r(r"(?i)^\s*-?\s*(?:Executor initialization|init_time|model_load_time)\s*[:=]\s*([\d.]+)\s*(ms|s)\b"),
            lm_model: r(r"([\w.-]+\.(?:litertlm|task|tflite))\b"),
            lm_model_key: r(r"(?i)^\s*-?\s*model(?:[ _]name)?\s*[:=]\s*([\w.-]*[A-Za-z][\w.-]*)\s*$"),
            lm_tokens: r(r"(?i)^\s*-?\s*(prefill|decode)[ _]tokens\s*[:=]\s*(\d+)\s*$"),
        }
    })
}

#[derive(Default)]
pub struct Tflite {
    turn: Option<(PhaseKind, u64, f64)>,
    block: Block,
}

/// The keys of one LiteRT-LM key/value block, printed before the speeds they describe.
#[derive(Default)]
struct Block {
    model: Option<String>,
    backend: Option<String>,
    prefill_tokens: Option<u64>,
    decode_tokens: Option<u64>,
    /// A key was read since the last speed: the next speed starts this block's run.
    fresh: bool,
    /// A speed was read since the last key: the next key starts a new block.
    spoken: bool,
}

impl Block {
    /// Called before a key is stored: a key after speeds opens a new block.
    fn key(&mut self) -> &mut Self {
        if self.spoken {
            *self = Block::default();
        }
        self.fresh = true;
        self
    }
}

impl FrameworkParser for Tflite {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        // benchmark_model and the C++ runtime prefix their own level: `INFO: Num threads: [4]`.
        let msg = ["INFO: ", "WARNING: ", "ERROR: "]
            .iter()
            .find_map(|p| msg.strip_prefix(p))
            .unwrap_or(msg);
        let delegate = if msg.contains("elegate") || msg.contains("OpenCL-based") {
            cap(&r.delegate, msg)
        } else {
            None
        };
        if let Some(c) = delegate {
            let name = c
                .iter()
                .skip(1)
                .flatten()
                .next()
                .map(|m| m.as_str().to_string());
            // MediaPipe and LiteRT-LM print these delegate lines too: they belong to that run.
            let Some(run) = runs.weak(FW, at) else {
                return;
            };
            match name.as_deref() {
                Some("OpenCL") if !run.devices.iter().any(|d| d == "OpenCL") => {
                    run.devices.push("OpenCL".into());
                }
                Some("OpenCL") => {}
                // A GPU or NNAPI delegate outranks the XNNPACK one created for the rest.
                Some("XNNPACK") if run.backend.is_some() => {}
                Some(n) => run.backend = Some(n.to_ascii_uppercase()),
                None => {}
            }
            return;
        }
        if let Some(c) = cap(&r.bench_setting, msg) {
            let v = c[2].trim();
            match &c[1] {
                "Num threads" => {
                    if let Ok(n) = v.parse() {
                        runs.run(FW, at).n_threads = Some(n);
                    }
                }
                "Use gpu" if v == "1" || v == "true" => {
                    runs.run(FW, at).backend = Some("GPU".into())
                }
                "Use nnapi" if v == "1" || v == "true" => {
                    runs.run(FW, at).backend = Some("NNAPI".into())
                }
                "Graph" if !v.is_empty() => {
                    let run = runs.run(FW, at);
                    let name = v.rsplit('/').next().unwrap_or(v).to_string();
                    run.quant = quant_from_name(&name);
                    run.model = Some(name);
                }
                _ => {}
            }
            return;
        }
        if let Some(c) = cap(&r.init, msg) {
            runs.run(FW, at).load_ms = num(&c[1]).map(|us| us / 1000.0);
            return;
        }
        if let Some(c) = cap(&r.size, msg) {
            runs.run(FW, at).model_bytes =
                num(&c[1]).map(|mb| (mb * 1024.0 * 1024.0).round() as u64);
            return;
        }
        if let Some(c) = cap(&r.lm_turn, msg) {
            let kind = if c[1].eq_ignore_ascii_case("prefill") {
                PhaseKind::Prefill
            } else {
                PhaseKind::Decode
            };
            let secs = num(&c[3]).unwrap_or(0.0) * if &c[4] == "ms" { 0.001 } else { 1.0 };
            self.turn = Some((kind, c[2].parse().unwrap_or(0), secs * 1000.0));
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.lm_speed, msg) {
            let kind = if c[1].eq_ignore_ascii_case("prefill") {
                PhaseKind::Prefill
            } else {
                PhaseKind::Decode
            };
            let (tokens, ms) = match self.turn.take() {
                Some((k, t, ms)) if k == kind => (Some(t), Some(ms)),
                _ => (None, None),
            };
            let b = &mut self.block;
            let tokens = tokens.or(match kind {
                PhaseKind::Prefill => b.prefill_tokens,
                PhaseKind::Decode => b.decode_tokens,
            });
            if b.fresh
                && runs
                    .open(FW)
                    .is_some_and(|r| r.prefill.is_some() || r.decode.is_some())
            {
                runs.close();
            }
            runs.phase(FW, at, kind, phase(tokens, ms, None, num(&c[2])));
            if let Some(run) = runs.open(FW) {
                if b.fresh {
                    if let Some(m) = &b.model {
                        run.model = Some(m.clone());
                        run.quant = run.quant.take().or_else(|| quant_from_name(m));
                    }
                }
                if let Some(be) = &b.backend {
                    run.backend = Some(be.clone());
                }
            }
            b.fresh = false;
            b.spoken = true;
            return;
        }
        if let Some(c) = cap(&r.lm_accel, msg) {
            let backend = c[1].to_ascii_uppercase();
            // Inside a run whose speeds are read, the accelerator only completes it when no
            // block is being read (`benchmark_model` style); otherwise it waits for its speeds.
            if let Some(run) = runs
                .open(FW)
                .filter(|r| r.prefill.is_none() && r.decode.is_none())
            {
                run.backend = Some(backend.clone());
            }
            self.block.key().backend = Some(backend);
            return;
        }
        if let Some(c) = cap(&r.lm_tokens, msg) {
            let n = c[2].parse().ok();
            runs.claim(at);
            let b = self.block.key();
            if c[1].eq_ignore_ascii_case("prefill") {
                b.prefill_tokens = n;
            } else {
                b.decode_tokens = n;
            }
            return;
        }
        if let Some(c) = cap(&r.lm_model_key, msg) {
            self.block.key().model = Some(c[1].to_string());
            return;
        }
        if let Some(c) = cap(&r.lm_init, msg) {
            let mul = if &c[2] == "s" { 1000.0 } else { 1.0 };
            runs.run(FW, at).load_ms = num(&c[1]).map(|v| v * mul);
            return;
        }
        if msg.contains("litert") || msg.contains("LiteRt") || msg.contains("model_path") {
            if let Some(c) = cap(&r.lm_model, msg) {
                let run = runs.run(FW, at);
                run.model.get_or_insert(c[1].to_string());
                if run.quant.is_none() {
                    run.quant = quant_from_name(&c[1]);
                }
            }
        }
    }
}

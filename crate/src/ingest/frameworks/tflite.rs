//! TensorFlow Lite / LiteRT: which delegate was created, `benchmark_model`'s settings and
//! timings (per-inference latency only: no tokens), and LiteRT-LM's key/value speed blocks
//! (`prefill_speed: 204.8 tokens/s`, `Decode Speed: 24.85 tokens/sec`, `accelerator: GPU`).
//! Apps that wrap LiteRT-LM's benchmark print one key/value block per configuration (`model:`,
//! `accelerator:`, `prefill_tokens:` before the speeds): the keys of a block belong to the speeds
//! that follow them, and a block that starts after speeds is a new run.
//! `litert_lm_main --benchmark` prints `BenchmarkInfo` (`Prefill Turn 1: Processed 1024 tokens in
//! 918.812ms duration.` over `Prefill Speed: 1114.49 tokens/sec.`), or with `--log_sink_file`
//! `Prefill speed turn 0: 1114.49 tk/s`; an `Aggregated … (median of N …)` block is a run of N
//! repeats (census: `docs/formats/litert-lm.md`).
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
    lm_peak: Regex,
    lm_median: Regex,
    lm_flags: Regex,
    lm_ttft: Regex,
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
    // `Inference timings in us` (TF 2.2 on), `Average inference timings in us` (before).
    "nference timings",
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
    // `Peak system ram usage: 1843.52MB.`
    "Peak system ram",
    // `Aggregated BenchmarkInfo (median of 5 iterations):`, `Aggregated metrics (median of 5 runs)`
    "median of",
    // `Total init time: 2411.87 ms` (2025)
    "init time",
    // `Choose backend: gpu`
    "Choose backend",
    "Time to first token",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("TFLite pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            delegate: r(r"(?i)(?:Created TensorFlow Lite (XNNPACK) delegate for CPU|Created TensorFlow Lite delegate for (GPU)|(GPU) delegate created|Created \d+ (GPU) delegate kernels|Initialized (OpenCL)-based API|Created TensorFlow Lite delegate for (NNAPI)|(NNAPI) delegate created|(Hexagon) delegate)"),
            bench_setting: r(r"^(Num threads|Use gpu|Use xnnpack|Use nnapi|Graph):?\s*\[([^\]]*)\]"),
            // TF 2.2 on: `Inference timings in us: Init: I, First inference: F, Warmup (avg): W,
            // Inference (avg): X`; before: `Average inference timings in us: Warmup: W, Init: I,
            // Inference: X` (`no stats: X` in the first releases).
            init: r(r"(?:Average i|I)nference timings in us: (?:Warmup: [\d.e+]+, )?Init: (\d+)(?:.*?Inference(?: \(avg\))?: ([\d.e+]+)|.*?no stats: ([\d.e+]+))?"),
            size: r(r"The input model file size \(MB\): ([\d.]+)"),
            // `Prefill Speed: 204.80 tokens/sec.` in the BenchmarkInfo block; `Prefill speed turn 0:
            // 204.80 tk/s` when litert_lm_main logs to a file (`--log_sink_file`).
            lm_speed: r(r"(?i)^\s*-?\s*(prefill|decode)[ _]speed(?:\s+turn\s+\d+)?\s*[:=]\s*([\d.]+|inf|nan)\s*(?:tokens?|tk)/s"),
            // The turn's time is an absl::Duration as streamed: `1.367s`, `812.3ms`, `1m3.25s`.
            lm_turn: r(r"(?i)^\s*(Prefill|Decode) Turn \d+: Processed (\d+) tokens in ((?:[\d.]+(?:h|ms|us|µs|ns|m|s))+) duration"),
            lm_accel: r(r"(?i)^\s*(?:accelerator|backend|Choose backend)\s*[:=]\s*(CPU|GPU|NPU)(?:_\w+)?\b"),
            lm_init: r(r"(?i)^\s*-?\s*(Executor initialization|init_time|model_load_time|Total init time)\s*[:=]\s*([\d.]+)\s*(ms|s)\b"),
            // `Peak system ram usage: 1843.52MB.` (the tool's MB are MiB: KB / 1024).
            lm_peak: r(r"^\s*Peak system ram usage:\s*([\d.]+)\s*MB"),
            lm_median: r(r"^\s*Aggregated (?:BenchmarkInfo|metrics) \(median of (\d+) (?:iterations|runs)\)"),
            // The first turn's prefill plus one decode step: no field of its own in a run, and the
            // prefill turn gives its time; claimed so no other reader takes it for a prefill.
            lm_ttft: r(r"^\s*Time to first token:\s*[\d.]+\s*s\s*$"),
            lm_flags: r(r"Benchmark flags: benchmark_prefill_tokens=(\d+),benchmark_decode_tokens=(\d+),backend=(\w+)(?:,model_name=([^,\s]+))?"),
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
    /// `Aggregated … (median of N …)` was read: the speeds after it are a new run, a median of N.
    median: Option<u32>,
    /// `Total init time` was read: the executor's own phase no longer stands for the load.
    init_total: bool,
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
            let run = runs.run(FW, at);
            run.load_ms = num(&c[1]).map(|us| us / 1000.0);
            // One inference of a model that makes no tokens: its latency is the run's figure.
            if let Some(us) = c.get(2).or(c.get(3)).and_then(|m| num(m.as_str())) {
                run.stages.insert(
                    crate::evidence::INFERENCE_STAGE.to_string(),
                    crate::evidence::Stage {
                        ms: us / 1000.0,
                        runs: None,
                        ms_per_run: Some(us / 1000.0),
                    },
                );
            }
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
            let Some(ms) = absl_duration_ms(&c[3]) else {
                return;
            };
            self.turn = Some((kind, c[2].parse().unwrap_or(0), ms));
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
            let median = self.median.take();
            // A median's speeds repeat a phase of the open run, so the collector opens its run
            // (keeping the setup); a block's keys do not carry over, so its run is closed here.
            if b.fresh
                && runs
                    .open(FW)
                    .is_some_and(|r| r.prefill.is_some() || r.decode.is_some())
            {
                runs.close();
            }
            runs.phase(FW, at, kind, phase(tokens, ms, None, num(&c[2])));
            if let Some(run) = runs.open(FW) {
                if median.is_some() {
                    run.repeats = median;
                }
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
            let total = c[1].eq_ignore_ascii_case("Total init time");
            if self.init_total && !total {
                return;
            }
            self.init_total |= total;
            let mul = if &c[3] == "s" { 1000.0 } else { 1.0 };
            runs.run(FW, at).load_ms = num(&c[2]).map(|v| v * mul);
            return;
        }
        if let Some(c) = cap(&r.lm_peak, msg) {
            if let Some(run) = runs.open(FW) {
                run.peak_memory_bytes = num(&c[1]).map(|mb| (mb * 1024.0 * 1024.0).round() as u64);
            }
            runs.claim(at);
            return;
        }
        if r.lm_ttft.is_match(msg) && (self.block.fresh || runs.open(FW).is_some()) {
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.lm_median, msg) {
            self.median = c[1].parse().ok();
            runs.claim(at);
            return;
        }
        if let Some(c) = cap(&r.lm_flags, msg) {
            let (p, d) = (c[1].parse().ok(), c[2].parse().ok());
            let backend = c[3].to_ascii_uppercase();
            let model = c.get(4).map(|m| m.as_str().to_string());
            let b = self.block.key();
            // 0 tokens asked for: the prompt's own length was used, which the line does not say.
            b.prefill_tokens = p.filter(|n| *n > 0);
            b.decode_tokens = d.filter(|n| *n > 0);
            b.backend = Some(backend.split('_').next().unwrap_or(&backend).to_string());
            if model.is_some() {
                b.model = model;
            }
            runs.claim(at);
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

/// An `absl::Duration` as its `operator<<` prints it (`1.367s`, `812.345ms`, `1m3.25s`,
/// `2h0m1s`, `950us`), in milliseconds.
fn absl_duration_ms(s: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut rest = s;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let v: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let (unit, len) = [
            ("ms", 1.0),
            ("us", 0.001),
            ("µs", 0.001),
            ("ns", 0.000_001),
            ("h", 3_600_000.0),
            ("m", 60_000.0),
            ("s", 1000.0),
        ]
        .iter()
        .find(|(u, _)| rest.starts_with(u))
        .map(|(u, f)| (*f, u.len()))?;
        total += v * unit;
        rest = &rest[len..];
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::absl_duration_ms;
    use crate::evidence::Run;

    fn parse(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    #[test]
    fn benchmark_model_s_average_inference_is_the_run_s_latency_in_both_eras() {
        for (line, ms) in [
            ("Inference timings in us: Init: 3163, First inference: 152309, Warmup (avg): 134516, Inference (avg): 127398", 127.398),
            ("Average inference timings in us: Warmup: 41215.3, Init: 2754, Inference: 38770.9", 38.7709),
            ("Average inference timings in us: Warmup: 41215, Init: 2754, no stats: 38771", 38.771),
        ] {
            let runs = parse(line);
            let stage = &runs[0].stages[crate::evidence::INFERENCE_STAGE];
            assert!((stage.ms_per_run.unwrap() - ms).abs() < 1e-6, "{line}");
            assert!(runs[0].decode.is_none(), "{line}");
        }
    }

    #[test]
    fn absl_durations_read_in_every_unit() {
        assert_eq!(absl_duration_ms("1.367s"), Some(1367.0));
        assert_eq!(absl_duration_ms("812.5ms"), Some(812.5));
        assert_eq!(absl_duration_ms("1m3.25s"), Some(63_250.0));
        assert_eq!(absl_duration_ms("2h0m1s"), Some(7_201_000.0));
        assert!((absl_duration_ms("950us").unwrap() - 0.95).abs() < 1e-9);
        assert_eq!(absl_duration_ms("3.2x"), None);
    }

    #[test]
    fn litert_lm_mains_benchmark_block_gives_the_turns_the_backend_the_load_and_the_memory() {
        let runs = parse(
            "I0000 00:00:1749000000.100000   4242 litert_lm_lib.cc:371] Choose backend: cpu
I0000 00:00:1749000012.100000   4242 litert_lm_lib.cc:120] BenchmarkInfo:
  Init Phases (2):
    - Executor initialization: 2210.40 ms
    - Tokenizer initialization: 201.47 ms
    Total init time: 2411.87 ms
--------------------------------------------------
  Prefill Turns (Total: 1):
    Prefill Turn 1: Processed 1024 tokens in 1m3.25s duration.
      Prefill Speed: 16.19 tokens/sec.
--------------------------------------------------
  Decode Turns (Total: 1):
    Decode Turn 1: Processed 256 tokens in 28.444s duration.
      Decode Speed: 9.00 tokens/sec.
--------------------------------------------------
I0000 00:00:1749000012.200000   4242 litert_lm_lib.cc:131] Peak system ram usage: 1843.52MB.",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        assert_eq!(r.backend.as_deref(), Some("CPU"));
        let p = r.prefill.as_ref().unwrap();
        assert_eq!(
            (p.tokens, p.ms, p.tok_s),
            (Some(1024), Some(63_250.0), Some(16.19))
        );
        let d = r.decode.as_ref().unwrap();
        assert_eq!((d.tokens, d.tok_s), (Some(256), Some(9.0)));
        // The total, not the executor's phase alone.
        assert_eq!(r.load_ms, Some(2411.87));
        assert_eq!(r.peak_memory_bytes, Some(1_933_070_828));
    }

    #[test]
    fn the_log_sink_form_and_the_median_of_iterations_are_read() {
        let runs = parse(
            "Benchmark flags: benchmark_prefill_tokens=256,benchmark_decode_tokens=128,backend=gpu,model_name=gemma3-1b-it-int4
Executor initialization: 3984.12 ms
Time to first token: 0.62 s
Prefill speed turn 0: 512.33 tk/s
Decode speed turn 0: 41.20 tk/s
Aggregated metrics (median of 5 runs)
Prefill speed turn 0: 498.10 tk/s
Decode speed turn 0: 40.75 tk/s",
        );
        assert_eq!(runs.len(), 2, "{runs:?}");
        let (one, median) = (&runs[0], &runs[1]);
        assert_eq!(one.prefill.as_ref().unwrap().tokens, Some(256));
        assert_eq!(one.prefill.as_ref().unwrap().tok_s, Some(512.33));
        assert_eq!(one.backend.as_deref(), Some("GPU"));
        assert_eq!(one.model.as_deref(), Some("gemma3-1b-it-int4"));
        assert_eq!(one.load_ms, Some(3984.12));
        assert_eq!(one.repeats, None);
        assert_eq!(median.decode.as_ref().unwrap().tok_s, Some(40.75));
        assert_eq!(median.repeats, Some(5));
    }
}

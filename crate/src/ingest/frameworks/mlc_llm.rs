//! MLC-LLM: `/stats` (`prefill: 48.3 tok/s, decode: 13.2 tok/s`, `encode:` before mid-2023, one
//! half alone or `N/A` in the apps' label), the 2023 verbose stats blocks, the newer engine's
//! token counts line, 2023 per-token `decoding-time=…ms tok/s: …` debug lines (averaged),
//! `/metrics`' last finished request (prometheus text or JSON, and a reply's `usage.extra`), the
//! quant and backend from the model id or library name (`Llama-2-7b-chat-hf-q4f16_1-Vulkan.so`),
//! the devices `auto_device` found and the one it uses, and the serve engine's memory estimate.
//! The census of these shapes is `docs/formats/mlc-llm.md`.

use super::json_block::Doc;
use super::runs::{num, phase, quant_from_name, round3, PhaseKind, RunCollector};
use super::FrameworkParser;
use super::{cap, cap_if};
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
    half: Regex,
    section: Regex,
    section_kv: Regex,
    using: Regex,
    estimate: Regex,
    metric: Regex,
    script: Regex,
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
    "throughput:",
    "total time:",
    "prefill -",
    "decode -",
    "Using device:",
    "single GPU memory usage",
    "last_finished_request_",
    "decode_rate",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("MLC pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            stats: r(r"(?:prefill|encode):\s*([\d.]+|inf|nan|N/A)\s*tok/s,\s*decode:\s*([\d.]+|inf|nan|N/A)\s*tok/s"),
            // The apps' label leaves out a half it has no figure for; alone, a half is only
            // taken as the whole line, not inside another tool's prose.
            half: r(r"^\s*(prefill|encode|decode):\s*([\d.]+|inf|nan|N/A)\s*tok/s\s*$"),
            section: r(r"^-{3,}\s*(prefill|decode)\s*-{3,}$"),
            section_kv: r(r"^(throughput|total tokens|total time):\s*([\d.]+)\s*(tok/s|tok|s)$"),
            using: r(r"Using device:\s*(\w+):(\d+)"),
            estimate: r(r"single GPU memory usage:\s*[\d.]+\s*MB\s*\(Parameters:\s*([\d.]+)\s*MB"),
            metric: r(r"^last_finished_request_(\w+)\s+([\d.eE+-]+)$"),
            counts: r(r"prompt tokens:\s*(\d+),\s*completion tokens:\s*(\d+)"),
            per_token: r(r"decoding-time=\s*([\d.]+)\s*ms"),
            model_id: r(r"([\w.-]+?-q\d+f\d+(?:_\d)?)(?:-MLC)?\b"),
            lib_backend: r(r"(?i)-(vulkan|opencl|metal|cuda|webgpu|android|iphone)\.(?:so|tar|dylib|dll|wasm)\b"),
            found: r(r"Found device: (\w+):(\d+)"),
            // jetson-containers' `benchmark.py` for MLC: `<model dir>:  input=16 output=128
            // prefill_time 0.081 sec, prefill_rate 197.0 tokens/sec, decode_time 6.632 sec,
            // decode_rate 19.3 tokens/sec`; its averaged line has the model but not the counts.
            script: r(r"^(?:(\S+):\s+)?(?:input=(\d+)\s+output=(\d+)\s+)?prefill_time\s+([\d.]+)\s*sec,\s*prefill_rate\s+([\d.]+)\s*tokens/sec,\s*decode_time\s+([\d.]+)\s*sec,\s*decode_rate\s+([\d.]+)\s*tokens/sec"),
        }
    })
}

#[derive(Default)]
pub struct MlcLlm {
    per_token_ms: f64,
    per_token_n: u64,
    /// The verbose stats block being read (`----- prefill -----`), if any.
    section: Option<PhaseKind>,
    /// `/metrics`' token counts, printed before the speeds they go with.
    metric_prefill_tokens: Option<u64>,
    metric_decode_tokens: Option<u64>,
}

fn kind_of(name: &str) -> PhaseKind {
    if name == "decode" {
        PhaseKind::Decode
    } else {
        PhaseKind::Prefill
    }
}

/// A rate as `/stats` prints it; `N/A` (no figure yet) is none.
fn rate(s: &str) -> Option<f64> {
    num(s).filter(|v| *v > 0.0)
}

impl FrameworkParser for MlcLlm {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap_if(msg.contains("decode_rate"), &r.script, msg) {
            let int = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
            let secs = |i: usize| num(&c[i]).map(|s| s * 1000.0);
            runs.phase(
                FW,
                at,
                PhaseKind::Prefill,
                phase(int(2), secs(4), None, num(&c[5])),
            );
            runs.phase(
                FW,
                at,
                PhaseKind::Decode,
                phase(int(3), secs(6), None, num(&c[7])),
            );
            if let (Some(model), Some(run)) = (c.get(1), runs.open(FW)) {
                if run.quant.is_none() {
                    run.quant = quant_from_name(model.as_str());
                }
                run.model.get_or_insert_with(|| model.as_str().to_string());
            }
            return;
        }
        if let Some(c) = cap(&r.stats, msg) {
            runs.claim(at);
            // The same figures again (`stats()` after `stats(verbose=True)`, `/stats` typed twice)
            // are the same request, not a second one.
            let tenth = |v: Option<f64>| v.map(|v| (v * 10.0).round() as i64);
            let repeated = runs.open(FW).is_some_and(|run| {
                let (p, d) = (run.prefill.as_ref(), run.decode.as_ref());
                p.is_some()
                    && d.is_some()
                    && tenth(p.and_then(|p| p.tok_s)) == tenth(rate(&c[1]))
                    && tenth(d.and_then(|d| d.tok_s)) == tenth(rate(&c[2]))
            });
            if repeated {
                return;
            }
            for (kind, v) in [(PhaseKind::Prefill, &c[1]), (PhaseKind::Decode, &c[2])] {
                if let Some(v) = rate(v) {
                    runs.phase(FW, at, kind, phase(None, None, None, Some(v)));
                }
            }
            self.per_token_n = 0;
            self.per_token_ms = 0.0;
            return;
        }
        if let Some(c) = cap(&r.half, msg) {
            runs.claim(at);
            if let Some(v) = rate(&c[2]) {
                runs.phase(FW, at, kind_of(&c[1]), phase(None, None, None, Some(v)));
            }
            return;
        }
        if let Some(c) = cap(&r.section, msg) {
            runs.claim(at);
            self.section = Some(kind_of(&c[1]));
            return;
        }
        if let Some(kind) = self.section {
            if let Some(c) = cap(&r.section_kv, msg) {
                runs.claim(at);
                let v = num(&c[2]);
                match &c[1] {
                    "throughput" => runs.phase(FW, at, kind, phase(None, None, None, v)),
                    "total tokens" => {
                        if let Some(p) = open_phase(runs, kind, at) {
                            p.tokens = v.map(|v| v as u64);
                        }
                    }
                    _ => {
                        if let Some(p) = open_phase(runs, kind, at) {
                            p.ms = v.map(|s| round3(s * 1000.0));
                        }
                        if kind == PhaseKind::Decode {
                            self.section = None;
                        }
                    }
                }
                return;
            }
        }
        if let Some(c) = cap(&r.metric, msg) {
            runs.claim(at);
            let v = num(&c[2]);
            match &c[1] {
                "prefill_tokens" => self.metric_prefill_tokens = v.map(|v| v as u64),
                "decode_tokens" => self.metric_decode_tokens = v.map(|v| v as u64),
                "prefill_tokens_per_s" => {
                    let tokens = self.metric_prefill_tokens;
                    metric_phase(runs, at, PhaseKind::Prefill, tokens, v);
                }
                "decode_tokens_per_s" => {
                    let tokens = self.metric_decode_tokens;
                    metric_phase(runs, at, PhaseKind::Decode, tokens, v);
                }
                // Latencies and counts of the same request: its speeds say it already.
                _ => {}
            }
            return;
        }
        if let Some(c) = cap(&r.using, msg) {
            let run = runs.run(FW, at);
            run.backend = Some(c[1].to_string());
            let d = format!("{}:{}", &c[1], &c[2]);
            if !run.devices.contains(&d) {
                run.devices.push(d);
            }
            return;
        }
        if let Some(c) = cap(&r.estimate, msg) {
            // The estimate's MB are MiB; the parameters are the weights the GPU must hold.
            if let Some(mib) = num(&c[1]) {
                runs.run(FW, at).model_bytes = Some((mib * 1024.0 * 1024.0).round() as u64);
            }
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

    fn doc(&mut self, doc: &Doc, runs: &mut RunCollector) {
        let v = &doc.value;
        // A reply's `usage.extra`, `/metrics`' `last_finished_request`, or either alone.
        let stats = [
            v.pointer("/usage/extra"),
            v.get("last_finished_request"),
            Some(v),
        ]
        .into_iter()
        .flatten()
        .find(|o| {
            o.get("prefill_tokens_per_s").is_some() || o.get("decode_tokens_per_s").is_some()
        });
        let Some(o) = stats else {
            return;
        };
        let f = |k: &str| o.get(k).and_then(serde_json::Value::as_f64);
        let usage = |k: &str| {
            v.pointer(&format!("/usage/{k}"))
                .and_then(serde_json::Value::as_u64)
        };
        let prefill_tokens = f("prefill_tokens")
            .or(f("num_prefill_tokens"))
            .map(|t| t as u64)
            .or(usage("prompt_tokens"));
        let decode_tokens = f("decode_tokens")
            .map(|t| t as u64)
            .or(usage("completion_tokens"));
        let at = doc.line_end;
        for (kind, tokens, key) in [
            (PhaseKind::Prefill, prefill_tokens, "prefill_tokens_per_s"),
            (PhaseKind::Decode, decode_tokens, "decode_tokens_per_s"),
        ] {
            if let Some(tok_s) = f(key).filter(|t| *t > 0.0) {
                runs.phase(FW, at, kind, phase(tokens, None, None, Some(tok_s)));
            }
        }
    }
}

/// The open run's phase of `kind`, for the lines of a stats block after its throughput.
fn open_phase(runs: &mut RunCollector, kind: PhaseKind, at: u64) -> Option<&mut Phase> {
    let run = runs.open(FW)?;
    run.line_end = Some(at);
    match kind {
        PhaseKind::Prefill => run.prefill.as_mut(),
        PhaseKind::Decode => run.decode.as_mut(),
    }
}

/// A `/metrics` speed of the last request. `/stats` printed just before it is the same request
/// to one decimal: it then gets the token count and the full figure instead of a second run.
fn metric_phase(
    runs: &mut RunCollector,
    at: u64,
    kind: PhaseKind,
    tokens: Option<u64>,
    tok_s: Option<f64>,
) {
    let Some(v) = tok_s else {
        return;
    };
    if let Some(p) = open_phase(runs, kind, at).filter(|p| {
        p.tokens.is_none()
            && p.tok_s
                .is_some_and(|t| (t - (v * 10.0).round() / 10.0).abs() < 1e-9)
    }) {
        p.tokens = tokens;
        p.tok_s = Some(v);
        runs.claim(at);
        return;
    }
    runs.phase(FW, at, kind, phase(tokens, None, None, Some(v)));
}

#[cfg(test)]
mod tests {
    use crate::evidence::Run;
    use crate::ingest::frameworks::test_support::rates;

    fn parse(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, false)
    }

    #[test]
    fn the_jetson_containers_benchmark_line_gives_both_phases_and_the_model() {
        let runs = parse("/data/models/mlc/dist/Llama-2-7b-chat-hf-q4f16_1/params:  input=16 output=128 prefill_time 0.092 sec, prefill_rate 173.9 tokens/sec, decode_time 7.013 sec, decode_rate 18.3 tokens/sec");
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(rates(&runs[0]), (Some(173.9), Some(18.3)));
        assert_eq!(runs[0].decode.as_ref().unwrap().tokens, Some(128));
        assert_eq!(runs[0].prefill.as_ref().unwrap().tokens, Some(16));
        assert!(runs[0].model.as_deref().unwrap().contains("Llama-2-7b"));
        // Its averaged line gives the counts on the line before, not in it.
        let runs = parse("AVERAGE OVER 3 RUNS, input=16, output=128\n/data/models/mlc/dist/Llama-2-7b-chat-hf-q4f16_1/params:  prefill_time 0.081 sec, prefill_rate 197.0 tokens/sec, decode_time 6.632 sec, decode_rate 19.3 tokens/sec");
        assert_eq!(rates(&runs[0]), (Some(197.0), Some(19.3)));
        assert!(runs[0].model.is_some());
    }

    #[test]
    fn stats_in_every_wording_it_had() {
        let mlc = Some(crate::evidence::Framework::MlcLlm);
        for (line, want) in [
            (
                "encode: 45.6 tok/s, decode: 12.3 tok/s",
                (Some(45.6), Some(12.3)),
            ),
            (
                "prefill: 48.3 tok/s, decode: 13.2 tok/s",
                (Some(48.3), Some(13.2)),
            ),
            ("prefill: N/A tok/s, decode: 13.0 tok/s", (None, Some(13.0))),
            ("prefill: 88.1 tok/s", (Some(88.1), None)),
            ("decode: 9.5 tok/s", (None, Some(9.5))),
        ] {
            let runs = parse(line);
            assert_eq!(runs.len(), 1, "{line}");
            assert_eq!(rates(&runs[0]), want, "{line}");
            assert_eq!(runs[0].framework, mlc, "{line}");
        }
    }

    #[test]
    fn the_verbose_stats_blocks_give_tokens_and_times() {
        let runs = parse(
            "prefill: 120.5 tok/s, decode: 22.4 tok/s
----------- prefill -----------
throughput: 120.5 tok/s
total tokens: 40 tok
total time: 0.3 s
------------ decode ------------
throughput: 22.4 tok/s
total tokens: 128 tok
total time: 5.7 s
prefill: 120.5 tok/s, decode: 22.4 tok/s",
        );
        assert_eq!(
            runs.len(),
            2,
            "the figures again after the block are the same run"
        );
        let runs = &runs[1..];
        let (p, d) = (
            runs[0].prefill.clone().unwrap(),
            runs[0].decode.clone().unwrap(),
        );
        assert_eq!(
            (p.tokens, p.ms, p.tok_s),
            (Some(40), Some(300.0), Some(120.5))
        );
        assert_eq!(
            (d.tokens, d.ms, d.tok_s),
            (Some(128), Some(5700.0), Some(22.4))
        );
    }

    #[test]
    fn the_device_in_use_and_the_weights_in_the_memory_estimate() {
        let runs = parse(
            "Found device: cuda:0
Not found device: vulkan:0
Using device: cuda:0
Estimated total single GPU memory usage: 5736.325 MB (Parameters: 4308.133 MB. KVCache: 1092.268 MB. Temporary buffer: 335.925 MB). The actual usage might be slightly larger than the estimated number.",
        );
        let r = &runs[0];
        assert_eq!(r.backend.as_deref(), Some("cuda"));
        assert_eq!(r.devices, vec!["cuda:0".to_string()]);
        assert_eq!(r.model_bytes, Some(4_517_404_869));
    }

    #[test]
    fn metrics_text_and_json_give_the_last_finished_request() {
        let runs = parse(
            "prefill_tokens_per_s\t140.2
decode_tokens_per_s\t25.3
last_finished_request_prefill_tokens\t30
last_finished_request_decode_tokens\t99
last_finished_request_prefill_tokens_per_s\t150.5
last_finished_request_decode_tokens_per_s\t26.1",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(rates(&runs[0]), (Some(150.5), Some(26.1)));
        assert_eq!(runs[0].prefill.as_ref().and_then(|p| p.tokens), Some(30));
        assert_eq!(runs[0].decode.as_ref().and_then(|p| p.tokens), Some(99));
        // `/stats` then `/metrics` on the same request: one run, with the fuller figures.
        let runs = parse(
            "prefill: 312.6 tok/s, decode: 21.4 tok/s
last_finished_request_prefill_tokens\t41
last_finished_request_prefill_tokens_per_s\t312.64
last_finished_request_decode_tokens_per_s\t21.41
last_finished_request_ttft_s\t0.1356",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(rates(&runs[0]), (Some(312.64), Some(21.41)));
        assert_eq!(runs[0].prefill.as_ref().and_then(|p| p.tokens), Some(41));
        let runs = parse(
            r#"{"usage": {"prompt_tokens": 30, "completion_tokens": 100, "total_tokens": 130, "extra": {"prefill_tokens_per_s": 150.2, "decode_tokens_per_s": 23.4, "num_prefill_tokens": 30}}}"#,
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(rates(&runs[0]), (Some(150.2), Some(23.4)));
        assert_eq!(runs[0].decode.as_ref().and_then(|p| p.tokens), Some(100));
    }
}

//! MNN-LLM (llm_demo, the Android app, llm_bench): the speed block that `llm_demo` and
//! `Llm::print_speed` print between `####` rules (space-padded keys, older blocks with
//! "total speed" / "chat speed"), the `The device supports: i8sdot:1, fp16:1, i8mm: 0, sve2: 0`
//! feature line (and the `MNN_CPU_TARGET` override of it), `CPU Group` topology, AUTOTIME load
//! lines, `config.json` keys pasted with the log, llm_bench markdown tables, the iOS app's
//! benchmark, the Android app's per-reply text, and the `benchmark` tool's `Forward type` line.
//! The census of these shapes is `docs/formats/mnn.md`.

use super::bench_table::{quant_of_model_column, BenchTable};
use super::cap;
use super::runs::{num, phase, quant_from_name, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::BenchRow;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Mnn;

struct Re {
    gate: Regex,
    features: Regex,
    group: Regex,
    feature: Regex,
    kv: Regex,
    config: Regex,
    model: Regex,
    autotime: Regex,
    target: Regex,
    forward: Regex,
    app: Regex,
    ios_pair: Regex,
    ios_setup: Regex,
    ios_lens: Regex,
    ios_header: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "tokens num",
    " time =",
    "speed =",
    "The device support",
    "CPU Group",
    "\"backend_type\"",
    "\"thread_num\"",
    "\"precision\"",
    "\"llm_model\"",
    "\"llm_weight\"",
    "model path is",
    "config path is",
    "load model from",
    "Load model",
    "cost time",
    "Prepare for",
    "effective ARM features",
    "Forward type:",
    " tokens, ",
    " tok/s, decode ",
    "backend = ",
    "prompt len = ",
    "bench backend=",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("MNN pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            // Before 2024-07 without the colon: `The device support dot:1, support fp16:0`.
            features: r(r"The device supports?:?\s*(.+)$"),
            group: r(r"CPU Group: \[([\d ]+)\],\s*(\d+)\s*-\s*(\d+)"),
            feature: r(r"(\w+)\s*[:=]\s*(\d)"),
            // `average prefill speed` (Llm's summary, late 2024) and `avg  decode speed` (the
            // iOS benchmark) are the same figures, averaged over the turns or repetitions.
            kv: r(r"^\s*(?:(?:average|avg)\s+)?(prompt tokens num|decode tokens num|output tokens num|prefill time|decode time|prefill speed|decode speed|total speed)\s*=\s*([\d.]+|inf|nan)\s*(s|tok/s)?"),
            config: r(r#""(backend_type|thread_num|precision|llm_model|llm_weight)"\s*:\s*"?([\w./-]+)"?"#),
            model: r(r"^(?:model path is|config path is|load model from|Load model:?)\s+(\S+)"),
            autotime: r(r"^(\w+), \d+, cost time: ([\d.]+) ms"),
            target: r(r"effective ARM features:\s*(.+)$"),
            forward: r(r"^Forward type:\s*([\w/]+)\s+thread=(\d+)"),
            app: r(r"^\s*(Prefill|Decode):\s*([\d.]+)\s*s,\s*(\d+) tokens,\s*([\d.]+|inf|nan) tokens/s"),
            ios_pair: r(r"^\s*(warmup:\s*|run \d+:\s*)?prefill\s+([\d.]+|inf|nan) tok/s,\s*decode\s+([\d.]+|inf|nan) tok/s"),
            ios_setup: r(r"^backend = (\w+), threads = (\d+)"),
            ios_lens: r(r"^prompt len = (\d+), decode len = (\d+), repeat = (\d+)"),
            ios_header: r(r"^bench backend=(\w+) prompt=(\d+) decode=(\d+) repeat=(\d+) threads=(\d+)"),
        }
    })
}

#[derive(Default)]
pub struct Mnn {
    table: BenchTable,
    prompt_tokens: Option<u64>,
    decode_tokens: Option<u64>,
    prefill_s: Option<f64>,
    decode_s: Option<f64>,
    /// llm_demo's warm-up (`Prepare for tuning opt Begin`) was seen: later AUTOTIME lines of
    /// `main` time it, not the load.
    prepared: bool,
}

impl FrameworkParser for Mnn {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) && !msg.contains('|') {
            return;
        }
        if let Some(c) = cap(&r.kv, msg) {
            runs.claim(at);
            let v = num(&c[2]);
            match &c[1] {
                "prompt tokens num" => self.prompt_tokens = v.map(|v| v as u64),
                "decode tokens num" | "output tokens num" => {
                    self.decode_tokens = v.map(|v| v as u64)
                }
                "prefill time" => self.prefill_s = v,
                "decode time" => self.decode_s = v,
                "prefill speed" => {
                    let p = phase(
                        self.prompt_tokens,
                        self.prefill_s.map(|s| s * 1000.0),
                        None,
                        v,
                    );
                    runs.phase(FW, at, PhaseKind::Prefill, p);
                }
                "decode speed" => {
                    let p = phase(
                        self.decode_tokens,
                        self.decode_s.map(|s| s * 1000.0),
                        None,
                        v,
                    );
                    runs.phase(FW, at, PhaseKind::Decode, p);
                    *self = Mnn {
                        table: std::mem::take(&mut self.table),
                        ..Mnn::default()
                    };
                }
                _ => {} // total speed: a prefill+decode mix, never a phase
            }
            return;
        }
        if msg.starts_with("#####") {
            return;
        }
        if let Some(c) = cap(&r.app, msg) {
            let kind = if &c[1] == "Prefill" {
                PhaseKind::Prefill
            } else {
                PhaseKind::Decode
            };
            let ms = num(&c[2]).map(|s| s * 1000.0);
            runs.phase(FW, at, kind, phase(c[3].parse().ok(), ms, None, num(&c[4])));
            return;
        }
        if let Some(c) = cap(&r.ios_pair, msg) {
            runs.claim(at);
            // The repetitions (and the warm-up) are summed up by the block that follows them;
            // a bare pair is the per-prompt line of the app's prompt-file benchmark.
            if c.get(1).is_none() {
                let p = phase(None, None, None, num(&c[2]));
                runs.phase(FW, at, PhaseKind::Prefill, p);
                let d = phase(None, None, None, num(&c[3]));
                runs.phase(FW, at, PhaseKind::Decode, d);
            }
            return;
        }
        if let Some(c) = cap(&r.ios_header, msg) {
            runs.boundary(FW, at, |r| r.decode.is_some());
            let run = runs.run(FW, at);
            run.backend = Some(c[1].to_string());
            run.n_threads = c[5].parse().ok();
            run.repeats = c[4].parse().ok();
            self.prompt_tokens = c[2].parse().ok();
            self.decode_tokens = c[3].parse().ok();
            return;
        }
        if let Some(c) = cap(&r.ios_setup, msg) {
            let run = runs.run(FW, at);
            run.backend = Some(c[1].to_string());
            run.n_threads = c[2].parse().ok();
            return;
        }
        if let Some(c) = cap(&r.ios_lens, msg) {
            runs.run(FW, at).repeats = c[3].parse().ok();
            self.prompt_tokens = c[1].parse().ok();
            self.decode_tokens = c[2].parse().ok();
            return;
        }
        if let Some(c) = cap(&r.forward, msg) {
            let run = runs.run(FW, at);
            let backend = &c[1];
            if backend != "N/A" {
                run.backend = Some(backend.to_string());
            }
            // As in config.json, a GPU backend takes the thread number as a mode mask.
            if backend.eq_ignore_ascii_case("cpu") {
                run.n_threads = c[2].parse().ok();
            }
            return;
        }
        if let Some(c) = cap(&r.target, msg) {
            // `MNN_CPU_TARGET` turns features off after the device line: these are the ones used.
            let run = runs.run(FW, at);
            for f in r.feature.captures_iter(&c[1]) {
                run.cpu_features.insert(f[1].to_string(), &f[2] == "1");
            }
            return;
        }
        if let Some(c) = cap(&r.group, msg) {
            let cpus: Vec<u32> = c[1]
                .split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect();
            if let Ok(max) = c[3].parse() {
                super::runs::add_cpus(runs.run(FW, at), &cpus, max);
            }
            return;
        }
        if let Some(c) = cap(&r.features, msg) {
            let run = runs.run(FW, at);
            for f in r.feature.captures_iter(&c[1]) {
                run.cpu_features.insert(f[1].to_string(), &f[2] == "1");
            }
            return;
        }
        if let Some(c) = cap(&r.config, msg) {
            let run = runs.run(FW, at);
            match &c[1] {
                "backend_type" => run.backend = Some(c[2].to_string()),
                // On GPU backends thread_num is a mode mask (4 = tuning, 68 = buffer mode and
                // autotune), not a thread count.
                "thread_num"
                    if run
                        .backend
                        .as_deref()
                        .map_or(true, |b| b.eq_ignore_ascii_case("cpu")) =>
                {
                    run.n_threads = c[2].parse().ok()
                }
                "thread_num" => run.gpu_mode = c[2].parse().ok(),
                _ => {
                    if run.quant.is_none() {
                        run.quant = quant_from_name(&c[2]);
                    }
                }
            }
            return;
        }
        if let Some(c) = cap(&r.model, msg) {
            runs.boundary(FW, at, |r| r.model.is_some() || r.decode.is_some());
            let run = runs.run(FW, at);
            // `config path is …/Qwen2.5-1.5B-Instruct-MNN/config.json`: the model is the folder.
            let path = c[1]
                .trim_end_matches("/config.json")
                .trim_end_matches("/llm_config.json");
            run.model = Some(path.rsplit('/').next().unwrap_or(path).to_string());
            run.quant = quant_from_name(path);
            return;
        }
        if msg.starts_with("Prepare for") {
            self.prepared = true;
            return;
        }
        if let Some(c) = cap(&r.autotime, msg) {
            // llm_demo's `main` times `llm->load()` first, then the tuning warm-up; functions
            // named for the load (`loadModel`) time only that.
            let named_load = c[1].contains("oad");
            let prepared = self.prepared;
            if let Some(run) = runs.open(FW) {
                let first_main = &c[1] == "main"
                    && !prepared
                    && run.load_ms.is_none()
                    && run.prefill.is_none()
                    && run.decode.is_none();
                if named_load || first_main {
                    run.load_ms = num(&c[2]);
                    run.line_end = Some(at);
                }
            }
            return;
        }
        if msg.contains('|') {
            if let Some(row) = self.table.line(msg) {
                if !self.table.mnn_header {
                    return;
                }
                let run = runs.run(FW, at);
                if let Some(m) = &row.model {
                    run.model.get_or_insert_with(|| m.clone());
                    if run.quant.is_none() {
                        run.quant = quant_of_model_column(m).or_else(|| quant_from_name(m));
                    }
                }
                run.model_bytes = run.model_bytes.or(row.model_bytes);
                if row.backend.is_some() {
                    run.backend = row.backend;
                }
                // A `-pg` / `-kv` row times the prompt and the generation in one cell: two rows.
                let split = row.second.and_then(|s| {
                    let (pp, tg) = row.test.split_once('+')?;
                    Some([
                        (pp.to_string(), row.tok_s, row.stddev),
                        (tg.to_string(), s.0, s.1),
                    ])
                });
                let rows = split.map_or_else(
                    || vec![(row.test.clone(), row.tok_s, row.stddev)],
                    |pair| pair.to_vec(),
                );
                for (test, tok_s, stddev) in rows {
                    if run.bench.len() < 1000 {
                        run.bench.push(BenchRow {
                            test,
                            tok_s,
                            stddev,
                            n_threads: row.threads,
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::evidence::Run;
    use crate::ingest::frameworks::test_support::rates;

    fn parse(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, false)
    }

    #[test]
    fn the_late_2024_summary_averages_are_the_phases() {
        let runs = parse(
            "average   total speed = 20.123 tok/s
average prefill speed = 120.456 tok/s
average  decode speed = 12.345 tok/s",
        );
        assert_eq!(runs.len(), 1);
        assert_eq!(rates(&runs[0]), (Some(120.456), Some(12.345)));
        assert_eq!(runs[0].framework, Some(crate::evidence::Framework::Mnn));
    }

    #[test]
    fn the_ios_benchmark_is_one_run_of_its_means_with_backend_threads_and_repeats() {
        let runs = parse(
            "bench backend=metal prompt=512 decode=128 repeat=3 threads=4 attn_mode=8
reloading model...
warmup: prefill 300.12 tok/s, decode 30.40 tok/s
run 1: prefill 310.22 tok/s, decode 31.10 tok/s (gen 128)
run 2: prefill 314.50 tok/s, decode 30.95 tok/s (gen 128)

#################################
backend = metal, threads = 4
prompt len = 512, decode len = 128, repeat = 2
avg prefill speed = 312.36 tok/s
avg  decode speed = 31.02 tok/s
##################################",
        );
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        assert_eq!(rates(r), (Some(312.36), Some(31.02)));
        assert_eq!(r.backend.as_deref(), Some("metal"));
        assert_eq!(r.n_threads, Some(4));
        assert_eq!(r.repeats, Some(2));
        assert_eq!(r.prefill.as_ref().and_then(|p| p.tokens), Some(512));
        assert_eq!(r.decode.as_ref().and_then(|p| p.tokens), Some(128));
    }

    #[test]
    fn the_android_reply_text_gives_times_tokens_and_rates() {
        let runs = parse(
            "Prefill: 0.52s, 24 tokens, 46.15 tokens/s 
Decode: 3.10s, 128 tokens, 41.29 tokens/s",
        );
        assert_eq!(runs.len(), 1);
        let (p, d) = (
            runs[0].prefill.clone().unwrap(),
            runs[0].decode.clone().unwrap(),
        );
        assert_eq!(
            (p.tokens, p.ms, p.tok_s),
            (Some(24), Some(520.0), Some(46.15))
        );
        assert_eq!(
            (d.tokens, d.ms, d.tok_s),
            (Some(128), Some(3100.0), Some(41.29))
        );
    }

    #[test]
    fn the_android_benchmark_upload_lines_are_read_for_their_phase_words() {
        let runs = parse(
            "📊 Prefill Speed: 120.50 tokens/s
⚡ Decode Speed: 20.25 tokens/s",
        );
        assert_eq!(runs.len(), 1);
        assert_eq!(rates(&runs[0]), (Some(120.5), Some(20.25)));
    }

    #[test]
    fn llm_bench_pg_and_kv_cells_are_two_rows() {
        for (test_col, test) in [
            ("test", "pp512+tg128"),
            ("llm_demo", "prompt=512<br>decode=128"),
        ] {
            let runs = parse(&format!(
                "| model | modelSize | backend | threads | precision | {test_col} | speed(tok/s) |
|--:|--:|--:|--:|--:|--:|--:|
| qwen2.5-1.5b | 1.10 GiB | CPU | 4 | Low | {test} | 250.10 ± 3.20<br>30.40 ± 0.50 |"
            ));
            assert_eq!(runs.len(), 1, "{test_col}: {runs:?}");
            let b = &runs[0].bench;
            assert_eq!(b.len(), 2);
            assert_eq!(
                (b[0].test.as_str(), b[0].tok_s, b[0].stddev),
                ("pp512", 250.1, Some(3.2))
            );
            assert_eq!(
                (b[1].test.as_str(), b[1].tok_s, b[1].stddev),
                ("tg128", 30.4, Some(0.5))
            );
            assert_eq!(b[1].n_threads, Some(4));
        }
    }

    #[test]
    fn the_cpu_target_override_and_the_benchmark_tool_header() {
        let runs = parse(
            "The device supports: i8sdot:1, fp16:1, i8mm: 1, sve2: 0, sme2: 1
MNN_CPU_TARGET=1 effective ARM features: fp16=1, i8sdot=1, i8mm=0, sme2=0
Forward type: CPU thread=4 precision=2 sparsity=0 sparseBlockOC=1 testQuantizedModel=0",
        );
        let r = &runs[0];
        assert_eq!(r.cpu_features.get("i8mm"), Some(&false));
        assert_eq!(r.cpu_features.get("sme2"), Some(&false));
        assert_eq!(r.cpu_features.get("i8sdot"), Some(&true));
        assert_eq!(r.backend.as_deref(), Some("CPU"));
        assert_eq!(r.n_threads, Some(4));
        // On a GPU the thread number is a mode mask, as in config.json.
        let runs = parse("Forward type: OpenCL thread=68 precision=2 sparsity=0");
        assert_eq!(runs[0].backend.as_deref(), Some("OpenCL"));
        assert_eq!(runs[0].n_threads, None);
    }
}

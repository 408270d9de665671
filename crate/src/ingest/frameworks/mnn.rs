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
            features: r(r"The device support(?:s)?:\s*(.+)$"),
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
            ios_pair: r(r"^\s*(warmup: |run \d+: )?prefill ([\d.]+|inf|nan) tok/s, decode ([\d.]+|inf|nan) tok/s"),
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
                "thread_num" => {}
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

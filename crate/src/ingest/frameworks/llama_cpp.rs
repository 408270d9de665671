//! llama.cpp in every era of its log (llama-cli / main, llama-server, llama-bench,
//! llama-cpp-python, Android JNI apps):
//!
//! - 2023 ggml: `llama_model_load: f16 = 2`, `main: predict time = … ms per token`;
//! - 2023 ggjt: `llama_model_load_internal: ftype = 2 (mostly Q4_0)`, `llama_print_timings`
//!   without tokens per second;
//! - 2023–2024 GGUF: `llm_load_print_meta: model ftype = mostly Q4_K - Medium`,
//!   `llm_load_tensors: CPU buffer size`, `llama_print_timings` with tokens per second;
//! - late 2024: `llama_perf_context_print`, `CPU_AARCH64 model buffer size`;
//! - 2025: `print_info: file type`, `load_tensors: CPU_REPACK model buffer size`, system_info that
//!   lists only the enabled CPU features.
//!
//! The backend is decided from the model buffer names (`Vulkan0`, `CUDA0`, `RPC[...]`), never
//! from "offloaded N/N layers to GPU", which llama.cpp also prints for RPC CPU servers.

use super::bench_table::{self, BenchTable};
use super::json_block::Doc;
use super::runs::{num, phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use super::{cap, cap_if};
use crate::evidence::Framework;
use crate::evidence::{BenchRow, NoGpu, Offload, Run};
use crate::ingest::delimited::{fields, Delim};
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::LlamaCpp;

struct Re {
    gate: Regex,
    build: Regex,
    build_info: Regex,
    loaded: Regex,
    loading: Regex,
    general_name: Regex,
    meta_name: Regex,
    file_type_kv: Regex,
    tensor_type: Regex,
    ftype: Regex,
    ftype_2023: Regex,
    size: Regex,
    size_2023: Regex,
    params: Regex,
    experts: Regex,
    buffer: Regex,
    kv_self: Regex,
    compute_total: Regex,
    mem_required: Regex,
    threadpool: Regex,
    timing: Regex,
    load_time: Regex,
    predict: Regex,
    vulkan: Regex,
    opencl: Regex,
    cuda: Regex,
    metal: Regex,
    using_device: Regex,
    csv_head: Regex,
    offloaded: Regex,
    offloading: Regex,
    splits: Regex,
    ngl: Regex,
    n_layer: Regex,
    command: Regex,
    command_model: Regex,
    command_threads: Regex,
    gpu_build: Regex,
}

/// Literals at least one of which every line this parser reads contains (its first, cheap
/// check; [`super::PARSERS`] gathers them for the log parser's gate).
pub const KEYWORDS: &[&str] = &[
    "eval time",
    "load time",
    "predict time",
    "system",
    "CPU : ",
    "AVX = ",
    "build",
    "loading model",
    "llama_model_loader",
    "print_info",
    "llm_load_print_meta",
    "llama_model_load",
    "buffer size",
    "kv self size",
    "mem required",
    "threadpool",
    "ggml_",
    "Vulkan",
    "Device ",
    "using device",
    "offload",
    "GPU",
    "ngl",
    "gpu-layers",
    "gpu_layers",
    "CUDA",
    "graph splits",
    "recommendedMaxWorkingSetSize",
    // A pasted build command (`make LLAMA_CUBLAS=1`, `cmake -DGGML_CUDA=ON`).
    "LLAMA_",
    "GGML_",
    // A pasted command line (`./main -m …`).
    "-m ",
    "--model ",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("llama.cpp pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            // The commit may come as a markdown link when pasted from GitHub: `[3246fe8](https://…)`.
            build: r(r"^(?:main: )?build\s*[:=]\s*\[?(\w+)\]?(?:\(\S*\))? \((\w+)\)(?: with (.+?) for (\S+))?"),
            build_info: r(r"build info:\s*tag:\s*(\w+),\s*commit:\s*(\w+)"),
            loaded: r(r"llama_model_loader: loaded meta data with \d+ key-value pairs and \d+ tensors from (.+?)(?: \(version .*\))?\s*$"),
            loading: r(r"(?:^llama\.cpp|^llama_model_load|^main|^llama_load_model_from_file|^llama_model_load_from_file_impl): loading model from '?([^' ]+)'?"),
            general_name: r(r"general\.name\s+str\s+=\s+(.+?)\s*$"),
            meta_name: r(r"^(?:print_info|llm_load_print_meta):\s+general\.name\s+=\s+(.+?)\s*$"),
            file_type_kv: r(r"general\.file_type\s+u32\s+=\s+(\d+)"),
            tensor_type: r(r"llama_model_loader: - type\s+(\w+):\s+(\d+) tensors"),
            ftype: r(r"^(?:print_info|llm_load_print_meta|llama_model_load_internal|llama_model_loader):\s+(?:file type|model ftype|ftype)\s+=\s+(.+?)\s*$"),
            ftype_2023: r(r"^llama_model_load:\s+f16\s+=\s+(\d+)"),
            size: r(r"^(?:print_info|llm_load_print_meta):\s+(?:file size|model size)\s+=\s+([\d.]+) (GiB|MiB|KiB|GB|MB|B)\b(?: \(([\d.]+) BPW\))?"),
            size_2023: r(r"^llama_model_load:\s+model size\s+=\s+([\d.]+) MB"),
            params: r(r"^(?:print_info|llm_load_print_meta):\s+model params\s+=\s+([\d.]+) ([KMBT])"),
            experts: r(r"^(?:print_info|llm_load_print_meta):\s+n_expert(_used)?\s+=\s+(\d+)\s*$"),
            // The buffer's name may have spaces (`Adreno (TM) 750 KV buffer size`), never a colon
            // outside brackets (`RPC[10.0.0.2:50052]`): that colon ends the function prefix.
            buffer: r(r"(?:^|:)\s*((?:\[[^\]]*\]|[^\s:\[])+(?: (?:\[[^\]]*\]|[^\s:\[])+)*?)\s+(?:(model|KV|compute|output|compute pinned)\s+)?buffer size\s*=\s*([\d.]+) MiB"),
            kv_self: r(r"^llama_new_context_with_model:\s+kv self size\s+=\s+([\d.]+) MB"),
            compute_total: r(r"^llama_new_context_with_model:\s+compute buffer total size\s+=\s+([\d.]+) MB"),
            mem_required: r(r"^(?:llm_load_tensors|llama_model_load_internal):\s+mem required\s+=\s+([\d.]+) MB"),
            threadpool: r(r"llama threadpool init, n_threads = (\d+)"),
            timing: r(r#"(?:^|[:|"]\s*)(prompt eval time|generation eval time|eval time)\s*=\s*([\d.]+)\s*ms\s*/\s*(\d+)\s*(?:tokens|runs)\s*\(\s*([\d.]+)\s*ms per token(?:,\s*([\w.+-]+)\s*tokens per second)?"#),
            load_time: r(r"^(?:llama_perf_context_print|llama_print_timings|main):\s+load time\s*=\s*([\d.]+)\s*ms"),
            predict: r(r"^main:\s+predict time\s*=\s*([\d.]+)\s*ms\s*/\s*([\d.]+)\s*ms per token"),
            // The driver is the last parenthesis before the first `|`: the name may hold its own
            // (`Turnip Adreno (TM) 619 (turnip Mesa driver) | uma: 1`).
            vulkan: r(r"^(?:ggml_vulkan: (\d+) = |Vulkan(\d+): )([^|]+) \(([^()|]*)\) \|"),
            opencl: r(r"^ggml_opencl: (?:selecting )?device: '([^']+?)(?: \(OpenCL[^']*\))?'"),
            cuda: r(r"^\s*Device (\d+): (.+?), compute capability"),
            metal: r(r"^ggml_metal_(?:init|device_init): (?:found device|GPU name):\s+(.+?)\s*$"),
            using_device: r(r"using device (\S+) \((.+)\) - (\d+) MiB free"),
            csv_head: r(r"^build_commit,build_number,"),
            // Unanchored: ollama prints the same words in its own `msg="…"` since its Go engine.
            offloaded: r(r"offloaded (\d+)/(\d+) layers to GPU"),
            // `graph splits = 2`, or since 2025 `graph splits = 3 (with bs=512), 2 (with bs=1)`.
            splits: r(r"graph splits = (\d+)(?: \(with bs=\d+\), (\d+) \(with bs=1\))?"),
            // 2023: `[cublas] offloading 32 layers to GPU`, then `offloading 32 repeating layers`.
            offloading: r(r"(?i:\[(?:cublas|opencl|clblast|metal|sycl)\] )?offloading (\d+) (?:repeating )?layers to GPU"),
            n_layer: r(r"^(?:llama_model_load_internal|llm_load_print_meta|print_info):\s+n_layer\s+=\s+(\d+)\s*$"),
            // The program as a shell runs it (`./main`, `build/bin/llama-cli`, `llama-server.exe`),
            // then its model: a command line, not a log line that names the program.
            command: r(r"(?:^|[\s/\\])(?:main|llama-cli|llama-server|server|llama-run|llama-simple|llamafile)(?:\.exe)?\s(?:.*\s)?(?:-m|--model)\s+\S"),
            ngl: r(r#"(?:(?:^|\s)(?:-ngl|--n-gpu-layers|--gpu-layers)[\s=]+|n_gpu_layers"?\s*[=:]\s*)(-?\d+)"#),
            command_model: r(r"(?:^|\s)(?:-m|--model)\s+(\S+)"),
            command_threads: r(r"(?:^|\s)(?:-t|--threads)[\s=]+(\d{1,6})\b"),
            // A build configured with a GPU backend: cmake's option or make's variable, in
            // each era's spelling.
            gpu_build: r(r"(?:-D)?(?:GGML|LLAMA)_(?:CUDA|CUBLAS|CLBLAST|VULKAN|HIPBLAS|HIP|SYCL)(?:=(?:ON|1)\b)"),
        }
    })
}

/// llama_ftype numbers (`general.file_type`, the 2023 `f16 =` / `ftype =` values).
fn ftype_name(n: u32) -> Option<&'static str> {
    Some(match n {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K - Small",
        12 => "Q3_K - Medium",
        13 => "Q3_K - Large",
        14 => "Q4_K - Small",
        15 => "Q4_K - Medium",
        16 => "Q5_K - Small",
        17 => "Q5_K - Medium",
        18 => "Q6_K",
        32 => "BF16",
        _ => return None,
    })
}

fn mib_to_bytes(v: f64) -> u64 {
    (v * 1024.0 * 1024.0).round() as u64
}

#[derive(Default)]
pub struct LlamaCpp {
    table: BenchTable,
    csv_cols: Option<Vec<String>>,
    /// The quant came from `general.file_type` only; a `file type` line replaces it.
    quant_from_kv: bool,
    /// `n_layer = 40`: the layer count that the 2023 `[cublas] offloading 20 layers` leaves out.
    n_layer: Option<u32>,
    /// A pasted command line's number, until the run it starts is open.
    command: Option<u64>,
    /// What that command line states: the model file and the threads it asks for.
    command_model: Option<String>,
    command_threads: Option<u32>,
    /// The GPU backend a pasted build command enabled (`-DGGML_CUDA=ON`, `LLAMA_CUBLAS=1`).
    gpu_build: Option<String>,
    /// Commands given to their runs: (line, threads, model file), for [`FrameworkParser::finish`].
    given: Vec<(u64, Option<u32>, Option<String>)>,
}

/// Commands remembered per input: a paste holds a few.
const MAX_COMMANDS: usize = 64;

/// Lines between two timings blocks pasted as one under the other: a blank line, a fence, a
/// label and another fence fit.
const ADJACENT_BLOCKS: u64 = 8;

impl LlamaCpp {
    /// Gives the held command line to the run it started: one opened at or after it.
    fn place_command(&mut self, runs: &mut RunCollector) {
        let Some(line) = self.command else { return };
        // The run it starts opens at or after it; a run still loading (no timing yet) is the same
        // run too, when the user quoted a load line above the command and the full log.
        if let Some(run) = runs.open(FW).filter(|r| {
            r.line_start.is_some_and(|s| s >= line)
                || (r.decode.is_none() && r.prefill.is_none() && r.bench.is_empty())
        }) {
            self.give_command(line, run);
        }
    }

    fn give_command(&mut self, line: u64, run: &mut Run) {
        if self.given.len() < MAX_COMMANDS {
            self.given
                .push((line, self.command_threads, self.command_model.clone()));
        }
        let o = offload(run);
        o.command_line.get_or_insert(line);
        if o.gpu_build.is_none() {
            o.gpu_build = self.gpu_build.clone();
        }
        self.command = None;
    }
    fn bench_row(&mut self, row: bench_table::Row, at: u64, runs: &mut RunCollector) {
        // A row of another model, or of another backend (a CPU table pasted beside a Vulkan
        // one), is another run: merged, the backends' speeds would read as one run's.
        let other_run = runs.open(FW).is_some_and(|r| {
            let differs = |a: &Option<String>, b: &Option<String>| {
                a.as_deref()
                    .zip(b.as_deref())
                    .is_some_and(|(a, b)| !a.eq_ignore_ascii_case(b))
            };
            !r.bench.is_empty()
                && (differs(&r.model, &row.model) || differs(&r.backend, &row.backend))
        });
        if other_run {
            runs.close();
        }
        let run = runs.run(FW, at);
        if let Some(m) = &row.model {
            if run.quant.is_none() {
                run.quant = bench_table::quant_of_model_column(m);
            }
            run.model.get_or_insert_with(|| m.clone());
        }
        run.model_bytes = run.model_bytes.or(row.model_bytes);
        run.params = run.params.or(row.params);
        if row.backend.is_some() {
            run.backend = row.backend.clone();
        }
        for d in &row.devices {
            if !run.devices.contains(d) && run.devices.len() < 16 {
                run.devices.push(d.clone());
            }
        }
        push_bench(run, row.test, row.tok_s, row.stddev, row.threads);
    }

    fn csv_line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) -> bool {
        if re().csv_head.is_match(msg) {
            self.csv_cols = Some(split_csv(msg));
            return true;
        }
        let Some(cols) = &self.csv_cols else {
            return false;
        };
        let cells = split_csv(msg);
        if cells.len() != cols.len() {
            return false;
        }
        let obj: serde_json::Map<String, serde_json::Value> = cols
            .iter()
            .zip(cells)
            .map(|(k, v)| {
                let val = v
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map_or_else(
                        || serde_json::Value::String(v.to_string()),
                        serde_json::Value::Number,
                    );
                (k.clone(), val)
            })
            .collect();
        bench_object(&obj, at, runs);
        true
    }
}

impl LlamaCpp {
    /// llama-bench rows: CSV after its header, markdown or TSV tables.
    fn rows(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        if (self.csv_cols.is_some() || msg.starts_with("build_commit,"))
            && self.csv_line(msg, at, runs)
        {
            return;
        }
        if msg.contains('|') || msg.contains('\t') {
            if let Some(row) = self.table.line(msg) {
                if !self.table.mnn_header {
                    self.bench_row(row, at, runs);
                }
            }
        }
    }
}

fn push_bench(run: &mut Run, test: String, tok_s: f64, stddev: Option<f64>, threads: Option<u32>) {
    if run.bench.len() < 1000 {
        run.bench.push(BenchRow {
            test,
            tok_s,
            stddev,
            n_threads: threads,
        });
    }
    // One thread count across the table is the run's; a sweep leaves it unset.
    let counts: Vec<Option<u32>> = run.bench.iter().map(|b| b.n_threads).collect();
    run.n_threads = match counts.first() {
        Some(Some(t)) if counts.iter().all(|c| *c == Some(*t)) => Some(*t),
        _ => None,
    };
}

/// A llama-bench JSON / JSONL / CSV record.
fn bench_object(o: &serde_json::Map<String, serde_json::Value>, at: u64, runs: &mut RunCollector) {
    let f = |k: &str| o.get(k).and_then(serde_json::Value::as_f64);
    let s = |k: &str| {
        o.get(k)
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
    };
    let Some(tok_s) = f("avg_ts").filter(|v| v.is_finite() && *v > 0.0) else {
        return;
    };
    let (pp, tg) = (
        f("n_prompt").unwrap_or(0.0) as u64,
        f("n_gen").unwrap_or(0.0) as u64,
    );
    let test = match (pp, tg) {
        (p, 0) => format!("pp{p}"),
        (0, g) => format!("tg{g}"),
        (p, g) => format!("pp{p}+tg{g}"),
    };
    let model = s("model_filename").map(|m| basename(&m).to_string());
    let other = runs
        .open(FW)
        .is_some_and(|r| !r.bench.is_empty() && model.is_some() && r.model != model);
    if other {
        runs.close();
    }
    let run = runs.run(FW, at);
    if run.model.is_none() {
        run.model = model;
    }
    if run.quant.is_none() {
        run.quant = s("model_type").and_then(|m| bench_table::quant_of_model_column(&m));
    }
    run.model_bytes = run.model_bytes.or(f("model_size").map(|v| v as u64));
    run.params = run.params.or(f("model_n_params"));
    if run.build.is_none() {
        if let (Some(c), Some(n)) = (s("build_commit"), f("build_number")) {
            run.build = Some(format!("{c} ({n})"));
        }
    }
    if run.backend.is_none() {
        run.backend = s("backends").or(s("backend"));
    }
    if let Some(gpu) = s("gpu_info").filter(|g| !g.is_empty()) {
        if !run.devices.contains(&gpu) {
            run.devices.push(gpu);
        }
    }
    let stddev = f("stddev_ts");
    let threads = f("n_threads").map(|t| t as u32);
    push_bench(run, test, tok_s, stddev, threads);
}

/// The cells of a llama-bench CSV line, trimmed.
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = fields(line, Delim::Char(','));
    for c in &mut cells {
        let t = c.trim();
        if t.len() != c.len() {
            *c = t.to_string();
        }
    }
    cells
}

fn basename(path: &str) -> &str {
    path.trim()
        .trim_matches(['\'', '"'])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
}

fn clean_quant(s: &str) -> String {
    let s = s.trim();
    // "2 (mostly Q4_0)" -> "Q4_0"
    let s = match (s.find('('), s.rfind(')')) {
        (Some(a), Some(b)) if a < b && s[..a].trim().chars().all(|c| c.is_ascii_digit()) => {
            &s[a + 1..b]
        }
        _ => s,
    };
    let s = s.trim_end_matches(" (guessed)");
    let s = s
        .strip_prefix("mostly ")
        .or_else(|| s.strip_prefix("all "))
        .unwrap_or(s);
    s.trim().to_string()
}

impl FrameworkParser for LlamaCpp {
    fn finish(&mut self, runs: &mut RunCollector) {
        self.place_command(runs);
        // A command's threads and model fill the run it started where the log states none (a
        // 2023 timings block pasted under `./main -m … -t 8`). Only now: set while the log is
        // read, a model would open a second run at the log's own load line.
        // The blocks after it with no command of their own are the next runs of the same
        // command, as the collector carries set-up facts from one block to the next.
        let mut command: Option<&(u64, Option<u32>, Option<String>)> = None;
        let mut fill = |run: &mut Run| {
            if let Some(line) = run.offload.as_ref().and_then(|o| o.command_line) {
                command = self.given.iter().find(|g| g.0 == line);
            }
            if let Some((_, threads, model)) = command {
                run.n_threads = run.n_threads.or(*threads);
                if run.model.is_none() {
                    run.model = model.clone();
                }
            }
        };
        runs.done
            .iter_mut()
            .filter(|r| r.framework == Some(FW))
            .for_each(&mut fill);
        if let Some(run) = runs.open(FW) {
            fill(run);
        }
        // A command pasted without the log it printed is still what the user ran: its options
        // (no -ngl on a GPU build, the threads) are the facts of that run.
        // The log, when there is one, states the model and threads itself, and a fact set early
        // would open a second run at its first line; alone, the command is the only source,
        // and a run of it only when it states something (a GPU build, a thread count).
        let states = self.gpu_build.is_some() || self.command_threads.is_some();
        if let Some(line) = self.command.filter(|_| states) {
            let run = runs.run(FW, line);
            run.model = run.model.take().or(self.command_model.take());
            run.n_threads = run.n_threads.or(self.command_threads.take());
            self.give_command(line, run);
            runs.close();
        }
    }

    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        // whisper.cpp prints ggml's device lines and llama.cpp's system_info too: inside its run
        // they are its facts, not a llama.cpp run's.
        if super::whisper_cpp::owns(msg)
            || (runs.open(Framework::WhisperCpp).is_some() && !msg.starts_with("llama"))
        {
            return;
        }
        self.place_command(runs);
        if (msg.contains("-m ") || msg.contains("--model ")) && r.command.is_match(msg) {
            self.command = Some(at);
            self.command_model = r
                .command_model
                .captures(msg)
                .map(|c| c[1].rsplit(['/', '\\']).next().unwrap_or(&c[1]).to_string());
            self.command_threads = cap(&r.command_threads, msg).and_then(|c| c[1].parse().ok());
        }
        if let Some(c) = cap_if(
            msg.contains("CUDA")
                || msg.contains("CUBLAS")
                || msg.contains("CLBLAST")
                || msg.contains("VULKAN")
                || msg.contains("HIP")
                || msg.contains("SYCL"),
            &r.gpu_build,
            msg,
        ) {
            self.gpu_build = Some(c[0].trim().to_string());
        }
        if !r.gate.is_match(msg) {
            self.rows(msg, at, runs);
            return;
        }
        // Timings first: a terminal may fold several of them onto one line.
        if msg.contains("eval time") {
            let mut hit = false;
            for c in r.timing.captures_iter(msg) {
                hit = true;
                let kind = if &c[1] == "prompt eval time" {
                    PhaseKind::Prefill
                } else {
                    PhaseKind::Decode
                };
                let p = phase(
                    c[3].parse().ok(),
                    num(&c[2]),
                    num(&c[4]),
                    c.get(5).and_then(|m| num(m.as_str())),
                );
                runs.phase(FW, at, kind, p);
            }
            if hit {
                return;
            }
        }
        if let Some(c) = cap_if(msg.contains("load time"), &r.load_time, msg) {
            // The load time opens a timings block: right under a block whose run already
            // decoded (two blocks pasted one under the other, a label between), it is the next
            // run's. Further down, the lines between are that next run's load log, which the
            // open run has taken; the load time then stays with them.
            let next_block = runs.open(FW).is_some_and(|r| {
                r.decode.is_some() && r.line_end.is_some_and(|e| at <= e + ADJACENT_BLOCKS)
            });
            if next_block {
                runs.close();
            }
            if let Some(run) = runs.open(FW) {
                run.load_ms = num(&c[1]);
                run.line_end = Some(at);
            } else {
                runs.run(FW, at).load_ms = num(&c[1]);
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("predict time"), &r.predict, msg) {
            runs.phase(
                FW,
                at,
                PhaseKind::Decode,
                phase(None, num(&c[1]), num(&c[2]), None),
            );
            return;
        }
        if msg.contains("system_info")
            || msg.starts_with("system info:")
            || msg.starts_with("CPU : ")
            || (msg.starts_with("AVX = ") && msg.contains(" | "))
        {
            if msg.contains(" = ") {
                super::system_info::read(FW, msg, at, runs);
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("build"), &r.build, msg) {
            let (a, b) = (&c[1], &c[2]);
            if a.chars().all(|ch| ch.is_ascii_digit()) {
                // A banner: `build: 4621 (6eecde3c) with clang … for aarch64-…` starts a run.
                runs.boundary(FW, at, |r| {
                    r.build.is_some()
                        || r.model.is_some()
                        || r.decode.is_some()
                        || !r.bench.is_empty()
                });
                runs.run(FW, at).build = Some(format!("{a} ({b})"));
            } else if let Some(run) = runs.open(FW) {
                // llama-bench's footer `build: 6eecde3c (4621)` closes its table.
                run.build = Some(format!("{a} ({b})"));
                run.line_end = Some(at);
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("build info"), &r.build_info, msg) {
            // The Android JNI example's banner: `build info:tag:3503,commit:0fbbd884,…`.
            runs.boundary(FW, at, |r| {
                r.build.is_some() || r.model.is_some() || r.decode.is_some()
            });
            runs.run(FW, at).build = Some(format!("{} ({})", &c[1], &c[2]));
            return;
        }
        if let Some(c) = cap_if(msg.contains("general.name"), &r.meta_name, msg) {
            runs.run(FW, at)
                .model
                .get_or_insert_with(|| c[1].to_string());
            return;
        }
        if let Some(c) = cap_if(msg.contains("loaded meta data"), &r.loaded, msg) {
            runs.boundary(FW, at, |r| {
                r.model.is_some() || !r.tensor_types.is_empty() || r.decode.is_some()
            });
            runs.run(FW, at).model = Some(basename(&c[1]).to_string());
            return;
        }
        if let Some(c) = cap_if(msg.contains("loading model from"), &r.loading, msg) {
            runs.boundary(FW, at, |r| r.model.is_some() || r.decode.is_some());
            runs.run(FW, at).model = Some(basename(&c[1]).to_string());
            return;
        }
        if msg.starts_with("llama_model_loader:") {
            if let Some(c) = cap(&r.tensor_type, msg) {
                let run = runs.run(FW, at);
                if let Ok(n) = c[2].parse::<u64>() {
                    let count = run.tensor_types.entry(c[1].to_string()).or_insert(0);
                    *count = count.saturating_add(n);
                }
            } else if let Some(c) = cap(&r.general_name, msg) {
                runs.run(FW, at)
                    .model
                    .get_or_insert_with(|| c[1].to_string());
            } else if let Some(c) = cap(&r.file_type_kv, msg) {
                let run = runs.run(FW, at);
                if run.quant.is_none() {
                    if let Some(q) = c[1].parse().ok().and_then(ftype_name) {
                        run.quant = Some(q.to_string());
                        self.quant_from_kv = true;
                    }
                }
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("type"), &r.ftype, msg) {
            let run = runs.run(FW, at);
            if run.quant.is_none() || self.quant_from_kv {
                run.quant = Some(clean_quant(&c[1]));
                self.quant_from_kv = false;
            }
            return;
        }
        if let Some(c) = cap_if(msg.starts_with("llama_model_load:"), &r.ftype_2023, msg) {
            if let Some(q) = c[1].parse().ok().and_then(ftype_name) {
                runs.run(FW, at).quant.get_or_insert_with(|| q.to_string());
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains(" size"), &r.size, msg) {
            let run = runs.run(FW, at);
            let v = num(&c[1]).unwrap_or(0.0);
            match (&c[2], c.get(3)) {
                // Before mid-2023, "model size = 6.74 B" was the parameter count.
                ("B", None) => run.params = Some(v * 1e9),
                (unit, bpw) => {
                    let mul = match unit {
                        "GiB" | "GB" => 1024.0 * 1024.0 * 1024.0,
                        "MiB" | "MB" => 1024.0 * 1024.0,
                        "KiB" => 1024.0,
                        _ => 1.0,
                    };
                    run.model_bytes = Some((v * mul).round() as u64);
                    if let Some(b) = bpw.and_then(|m| num(m.as_str())) {
                        run.bits_per_weight = Some(b);
                    }
                }
            }
            return;
        }
        if let Some(c) = cap_if(msg.starts_with("llama_model_load:"), &r.size_2023, msg) {
            runs.run(FW, at).model_bytes = num(&c[1]).map(mib_to_bytes);
            return;
        }
        if let Some(c) = cap_if(msg.contains("n_expert"), &r.experts, msg) {
            let run = runs.run(FW, at);
            let n = c[2].parse().ok();
            if c.get(1).is_some() {
                run.n_expert_used = n;
            } else {
                run.n_expert = n;
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("model params"), &r.params, msg) {
            let mul = match &c[2] {
                "K" => 1e3,
                "M" => 1e6,
                "B" => 1e9,
                _ => 1e12,
            };
            runs.run(FW, at).params = num(&c[1]).map(|v| v * mul);
            return;
        }
        if let Some(c) = cap_if(msg.contains("n_layer"), &r.n_layer, msg) {
            self.n_layer = c[1].parse().ok();
            return;
        }
        if placement(msg, at, runs, self.n_layer) {
            return;
        }
        if super::ggml_metal::line(msg, at, FW, runs) {
            return;
        }
        if msg.contains("buffer size") {
            if let Some(c) = cap(&r.buffer, msg) {
                let name = c[1].to_string();
                let kind = c.get(2).map_or("model", |m| m.as_str());
                if let Some(v) = num(&c[3]) {
                    *runs
                        .run(FW, at)
                        .buffers_mib
                        .entry(format!("{name} {kind}"))
                        .or_insert(0.0) += v;
                }
                return;
            }
        }
        for (pat, key) in [
            (&r.kv_self, "KV"),
            (&r.compute_total, "compute"),
            (&r.mem_required, "CPU model"),
        ] {
            if let Some(c) = pat.captures(msg) {
                if let Some(v) = num(&c[1]) {
                    runs.run(FW, at).buffers_mib.insert(key.to_string(), v);
                }
                return;
            }
        }
        if let Some(c) = cap_if(msg.contains("threadpool"), &r.threadpool, msg) {
            runs.run(FW, at)
                .n_threads
                .get_or_insert(c[1].parse().unwrap_or(0));
            return;
        }
        let device = if msg.contains("ggml_")
            || msg.starts_with("Vulkan")
            || msg.contains("Device ")
            || msg.contains("using device")
        {
            cap(&r.vulkan, msg)
                .map(|c| c[3].to_string())
                .or_else(|| cap(&r.opencl, msg).map(|c| c[1].to_string()))
                .or_else(|| cap(&r.cuda, msg).map(|c| c[2].to_string()))
                .or_else(|| cap(&r.metal, msg).map(|c| c[1].to_string()))
                .or_else(|| {
                    let c = cap(&r.using_device, msg)?;
                    // One line per device, summed; ollama's own figure (taken before it
                    // started the runner that prints these) is the one its placement used.
                    if let Some(free) = c[3].parse::<u64>().ok().map(|m| m * 1024 * 1024) {
                        let o = offload(runs.run(FW, at));
                        if o.library.is_none() {
                            o.vram_free_bytes = Some(o.vram_free_bytes.unwrap_or(0) + free);
                        }
                    }
                    Some(format!("{} ({})", &c[1], &c[2]))
                })
        } else {
            None
        };
        if let Some(d) = device {
            let run = runs.run(FW, at);
            if !run.devices.contains(&d) && run.devices.len() < 16 {
                run.devices.push(d);
            }
            return;
        }
        self.rows(msg, at, runs);
    }

    fn in_block(&self) -> bool {
        self.csv_cols.is_some()
    }

    fn doc(&mut self, doc: &Doc, runs: &mut RunCollector) {
        let objs: Vec<&serde_json::Map<String, serde_json::Value>> = match &doc.value {
            serde_json::Value::Array(a) => a.iter().filter_map(|v| v.as_object()).collect(),
            serde_json::Value::Object(o) => vec![o],
            _ => Vec::new(),
        };
        for o in objs {
            if o.contains_key("avg_ts") {
                bench_object(o, doc.line_end, runs);
                if let Some(run) = runs.open(FW) {
                    run.line_start = Some(
                        run.line_start
                            .map_or(doc.line_start, |s| s.min(doc.line_start)),
                    );
                }
            }
        }
    }
}

/// The run's placement record, created on first use.
pub fn offload(run: &mut Run) -> &mut Offload {
    run.offload.get_or_insert_with(Offload::default)
}

/// Keeps the line that states the placement as the finding's quote: the first that gives the
/// layer count, else the first that says anything about it.
pub fn quote_placement(o: &mut Offload, at: u64, msg: &str, decisive: bool) {
    if o.text.is_none() || decisive {
        o.line = Some(at);
        o.text = Some(crate::evidence::clip(msg.trim()));
    }
}

/// Where the layers went (`offloaded N/M layers to GPU` in every era, the 2023 `[cublas]
/// offloading N layers`), what was asked (`-ngl`), and why no GPU took any (a build without a
/// GPU backend, or a GPU build that found none). True when the line was one of these.
fn placement(msg: &str, at: u64, runs: &mut RunCollector, n_layer: Option<u32>) -> bool {
    let r = re();
    if let Some(c) = cap_if(msg.contains("offloaded"), &r.offloaded, msg) {
        let o = offload(runs.run(FW, at));
        // ollama's own `offload to` line, with the memory behind it, stays the quote.
        let decisive = o.library.is_none();
        o.gpu_layers = c[1].parse().ok();
        o.model_layers = c[2].parse().ok();
        quote_placement(o, at, msg, decisive);
        return true;
    }
    // The scheduler's count of the graph's pieces: decode's (bs=1) when the two differ.
    if let Some(c) = cap_if(msg.contains("graph splits"), &r.splits, msg) {
        let decode = c
            .get(2)
            .or_else(|| c.get(1))
            .and_then(|m| m.as_str().parse().ok());
        if let Some(decode) = decode {
            runs.run(FW, at).graph_splits = Some(crate::evidence::GraphSplits {
                decode,
                line: at,
                text: crate::evidence::clip(msg.trim()),
            });
        }
        return true;
    }
    if let Some(c) = cap_if(msg.contains("offloading"), &r.offloading, msg) {
        let o = offload(runs.run(FW, at));
        // The count of that era is of the repeating layers only, so `n_layer` is its whole.
        if o.model_layers.is_none() || o.model_layers == n_layer {
            o.gpu_layers = c[1].parse().ok();
            o.model_layers = n_layer;
            quote_placement(o, at, msg, false);
        }
        return true;
    }
    let no_gpu = if msg.contains("not compiled with GPU offload support") {
        Some(NoGpu::NotCompiled)
    } else if msg.contains("no usable GPU found")
        || msg.contains("no CUDA-capable device is detected")
    {
        Some(NoGpu::NotFound)
    } else if msg.contains("driver version is insufficient for CUDA runtime") {
        Some(NoGpu::DriverTooOld)
    } else {
        None
    };
    if let Some(why) = no_gpu {
        let o = offload(runs.run(FW, at));
        o.no_gpu = Some(why);
        quote_placement(o, at, msg, o.model_layers.is_none());
        return true;
    }
    // 2023 GPU builds name their backend at load, before counting the layers: the device
    // evidence a count of that era needs (its "mem required" is the CPU's share, not a GPU's).
    if let Some(api) = msg
        .split_once(" for GPU acceleration")
        .and_then(|(head, _)| head.rsplit_once("using "))
        .map(|(_, api)| api.trim())
        .filter(|api| ["CUDA", "ROCm", "OpenCL", "Metal"].contains(api))
    {
        // A named card (`Device 0: NVIDIA …`) says more than its API.
        let run = runs.run(FW, at);
        if run.devices.is_empty() {
            run.devices.push(api.to_string());
        }
        return true;
    }
    // llamafile's start-up advice ("if you have an AMD or NVIDIA GPU then you need to pass -ngl
    // 9999") names the option; it asks for nothing.
    let advice = msg.starts_with("note:") && msg.contains("you need to pass");
    if let Some(c) = cap_if(
        !advice
            && (msg.contains("ngl") || msg.contains("gpu-layers") || msg.contains("gpu_layers")),
        &r.ngl,
        msg,
    ) {
        let o = offload(runs.run(FW, at));
        o.requested = c[1].parse().ok();
        // The ask is the placement's quote only until the log prints what was placed.
        quote_placement(o, at, msg, false);
        return true;
    }
    false
}

/// Buffer family -> backend name. `CPU_Mapped`, `CPU_REPACK`, `CPU_AARCH64` are all the CPU.
fn backend_of_buffer(name: &str) -> &str {
    let n = name.trim_start_matches("ROCm");
    for (prefix, backend) in [
        ("CPU", "CPU"),
        ("Vulkan", "Vulkan"),
        ("CUDA", "CUDA"),
        ("ROCm", "ROCm"),
        ("Metal", "Metal"),
        ("MTL", "Metal"),
        ("OpenCL", "OpenCL"),
        ("RPC", "RPC"),
        ("SYCL", "SYCL"),
        ("CANN", "CANN"),
        ("Kompute", "Kompute"),
        ("HTP", "HTP"),
        ("QNN", "QNN"),
    ] {
        if n.starts_with(prefix) {
            return backend;
        }
    }
    name
}

/// Decides the backend from the model buffers (the family holding most of the weights), and
/// the quant from the model file name (`llama-2-7b-chat.Q3_K_S.gguf`) when no line gave it.
pub fn finalize(run: &mut Run) {
    if run.quant.is_none() {
        run.quant = run.model.as_deref().and_then(super::runs::quant_from_name);
    }
    if run.backend.is_some() {
        return;
    }
    let mut by_backend: Vec<(&str, f64)> = Vec::new();
    for (k, v) in &run.buffers_mib {
        let Some(name) = k.strip_suffix(" model") else {
            continue;
        };
        let b = backend_of_buffer(name);
        match by_backend.iter_mut().find(|(n, _)| *n == b) {
            Some(e) => e.1 += v,
            None => by_backend.push((b, *v)),
        }
    }
    by_backend.sort_by(|a, b| b.1.total_cmp(&a.1));
    if let Some((b, _)) = by_backend.first() {
        run.backend = Some((*b).to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<crate::evidence::Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    #[test]
    fn era_2025_with_only_enabled_flags() {
        let runs = parse(
            "build: 4621 (6eecde3c) with clang version 18 for aarch64-unknown-linux-android24
llama_model_loader: loaded meta data with 29 key-value pairs and 339 tensors from /data/qwen2.5-7b-q4_0.gguf (version GGUF V3 (latest))
llama_model_loader: - type  f32:  141 tensors
llama_model_loader: - type q4_0:  197 tensors
print_info: file type   = Q4_0
print_info: file size   = 4.12 GiB (4.64 BPW)
print_info: model params     = 7.62 B
load_tensors: offloaded 29/29 layers to GPU
load_tensors:   CPU_Mapped model buffer size =  4219.18 MiB
llama_kv_cache_unified:        CPU KV buffer size =   112.00 MiB
system_info: n_threads = 8 (n_threads_batch = 8) / 8 | CPU : NEON = 1 | ARM_FMA = 1 | LLAMAFILE = 1 | REPACK = 1 |
llama_perf_context_print:        load time =   **31254.12 ms**
llama_perf_context_print: prompt eval time =   41210.55 ms /    38 tokens ( 1084.49 ms per token,     0.92 tokens per second)
llama_perf_context_print:        eval time =  223145.30 ms /   127 runs   ( 1757.05 ms per token,     0.57 tokens per second) cpu only",
        );
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.build.as_deref(), Some("4621 (6eecde3c)"));
        assert_eq!(r.model.as_deref(), Some("qwen2.5-7b-q4_0.gguf"));
        assert_eq!(r.quant.as_deref(), Some("Q4_0"));
        assert_eq!(r.tensor_types.get("q4_0"), Some(&197));
        assert_eq!(r.bits_per_weight, Some(4.64));
        assert_eq!(r.params, Some(7.62e9));
        assert_eq!(
            r.backend.as_deref(),
            Some("CPU"),
            "from buffers, not the offload line"
        );
        assert_eq!(r.cpu_features.get("DOTPROD"), Some(&false));
        assert_eq!(r.cpu_features.get("NEON"), Some(&true));
        assert_eq!(
            (r.n_threads, r.n_threads_batch, r.hw_threads),
            (Some(8), Some(8), Some(8))
        );
        assert_eq!(r.decode.as_ref().and_then(|d| d.tok_s), Some(0.57));
        assert_eq!(r.prefill.as_ref().and_then(|d| d.tokens), Some(38));
        assert_eq!(r.load_ms, Some(31254.12));
        assert_eq!(r.buffers_mib.get("CPU KV"), Some(&112.0));
    }

    #[test]
    fn era_2023_without_tok_s_and_all_flags_listed() {
        let runs = parse(
            "main: build = 669 (b24c304)
llama.cpp: loading model from models/7B/ggml-model-q4_0.bin
llama_model_load_internal: ftype      = 2 (mostly Q4_0)
llama_model_load_internal: mem required  = 5407.71 MB (+ 1026.00 MB per state)
system_info: n_threads = 4 / 8 | AVX = 1 | AVX2 = 1 | AVX512 = 0 | NEON = 0 | ARM_FMA = 0 | F16C = 1 |
llama_print_timings:        load time =  1234.56 ms
llama_print_timings:      sample time =    12.34 ms /    64 runs   (    0.19 ms per token)
llama_print_timings: prompt eval time =  2345.67 ms /    16 tokens (  146.60 ms per token)
llama_print_timings:        eval time =  5678.90 ms /    63 runs   (   90.14 ms per token)",
        );
        let r = &runs[0];
        assert_eq!(r.quant.as_deref(), Some("Q4_0"));
        assert_eq!(r.model.as_deref(), Some("ggml-model-q4_0.bin"));
        assert_eq!(r.cpu_features.get("AVX512"), Some(&false));
        assert_eq!(
            r.cpu_features.get("AVX_VNNI"),
            None,
            "old builds: absent is unknown"
        );
        let d = r.decode.as_ref().expect("decode");
        assert!(d.derived);
        assert_eq!(d.tok_s, Some(11.094));
        assert_eq!(d.tokens, Some(63));
    }

    #[test]
    fn server_requests_are_runs_and_rpc_buffers_decide_the_backend() {
        let runs = parse(
            "load_tensors: offloaded 81/81 layers to GPU
load_tensors: RPC[192.168.1.10:50052] model buffer size = 20000.00 MiB
load_tensors:   CPU_Mapped model buffer size =   400.00 MiB
slot print_timing: id  0 | task 0 | prompt eval time =     125.46 ms /    11 tokens (   11.41 ms per token,    87.68 tokens per second)
       eval time =    2047.94 ms /   128 tokens (   16.00 ms per token,    62.50 tokens per second)
prompt eval time =     100.00 ms /    10 tokens (   10.00 ms per token,   100.00 tokens per second)
       eval time =    2000.00 ms /   128 tokens (   15.63 ms per token,    64.00 tokens per second)",
        );
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].backend.as_deref(), Some("RPC"));
        assert_eq!(runs[1].decode.as_ref().and_then(|d| d.tok_s), Some(64.0));
        assert_eq!(
            runs[0].line_start,
            Some(1),
            "the offload line is its first fact"
        );
        assert_eq!(runs[1].line_start, Some(6));
    }

    #[test]
    fn a_timings_block_right_under_another_is_the_next_run() {
        let block = |ms: &str| {
            format!(
                "llama_print_timings:        load time =    2810.52 ms
llama_print_timings: prompt eval time =    4121.87 ms /    42 tokens (   98.14 ms per token,    10.19 tokens per second)
llama_print_timings:        eval time =   {ms} ms /   127 runs   (  139.63 ms per token,     7.16 tokens per second)
llama_print_timings:       total time =   21962.16 ms /   169 tokens"
            )
        };
        let runs = parse(&format!(
            "{}\n```\n\nWith Vulkan:\n```\n{}",
            block("17733.40"),
            block("31390.11")
        ));
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].line_start, Some(9));
        assert_eq!(runs[1].load_ms, Some(2810.52));
    }

    #[test]
    fn llamafiles_advice_asks_for_no_layers() {
        let runs = parse(
            "note: if you have an AMD or NVIDIA GPU then you need to pass -ngl 9999 to enable GPU offloading
main: llamafile version 0.6.2
llm_load_tensors: offloaded 0/33 layers to GPU",
        );
        let o = runs[0].offload.clone().unwrap_or_default();
        assert_eq!((o.requested, o.gpu_layers), (None, Some(0)));
    }

    #[test]
    fn a_command_pasted_without_its_log_is_the_run_it_states() {
        let runs = parse(
            "3. cmake .. -DGGML_CUDA=ON
4. command:  ./build/bin/llama-cli -m ../gguf_files/llama-3-8B.gguf -t 64 --ctx-size 50",
        );
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].model.as_deref(), Some("llama-3-8B.gguf"));
        assert_eq!(runs[0].n_threads, Some(64));
        let o = runs[0].offload.clone().unwrap_or_default();
        assert_eq!((o.command_line, o.requested), (Some(2), None));
        assert_eq!(o.gpu_build.as_deref(), Some("-DGGML_CUDA=ON"));
        // A template command states nothing: no run.
        assert!(parse("./build/bin/llama-cli -m models/x.gguf -p hi -t N").is_empty());
    }

    #[test]
    fn a_2023_gpu_build_names_its_backend_before_the_count() {
        let runs = parse(
            "llm_load_tensors: using CUDA for GPU acceleration
llm_load_tensors: mem required  = 3767.53 MB (+ 2000.00 MB per state)
llm_load_tensors: offloading 1 repeating layers to GPU
llm_load_tensors: offloaded 1/35 layers to GPU
llm_load_tensors: VRAM used: 124 MB",
        );
        assert_eq!(runs[0].devices, vec!["CUDA".to_string()]);
        let o = runs[0].offload.clone().unwrap_or_default();
        assert_eq!((o.gpu_layers, o.model_layers), (Some(1), Some(35)));
        assert!(parse("llm_load_tensors: using the CPU for nothing").is_empty());
    }

    #[test]
    fn layer_placement_in_every_era() {
        let placed = |text: &str| {
            let runs = parse(text);
            let o = runs[0].offload.clone().unwrap_or_default();
            (o.gpu_layers, o.model_layers, o.line)
        };
        assert_eq!(
            placed(
                "llama_model_load_internal: n_layer    = 40
llama_model_load_internal: [cublas] offloading 20 layers to GPU
llama_model_load_internal: [cublas] total VRAM used: 3475 MB"
            ),
            (Some(20), Some(40), Some(2))
        );
        assert_eq!(
            placed(
                "llm_load_print_meta: n_layer          = 32
llm_load_tensors: offloading 20 repeating layers to GPU
llm_load_tensors: offloaded 20/33 layers to GPU
llm_load_tensors:        CPU buffer size =  1500.00 MiB"
            ),
            (Some(20), Some(33), Some(3))
        );
        let runs = parse(
            "warning: not compiled with GPU offload support, --gpu-layers option will be ignored
warning: see main README.md for information on enabling GPU BLAS support
main: build = 1180 (e8422de)",
        );
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(o.no_gpu, Some(NoGpu::NotCompiled));
        assert_eq!(runs[0].build.as_deref(), Some("1180 (e8422de)"));
        let runs =
            parse("$ ./llama-cli -m models/llama-3.1-8b-q8_0.gguf -ngl 20 -c 8192 -p \"hi\"");
        assert_eq!(runs[0].offload.as_ref().unwrap().requested, Some(20));
        let runs = parse("llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4060) - 7458 MiB free");
        assert_eq!(
            runs[0].devices,
            vec!["CUDA0 (NVIDIA GeForce RTX 4060)".to_string()]
        );
        assert_eq!(
            runs[0].offload.as_ref().unwrap().vram_free_bytes,
            Some(7458 * 1024 * 1024)
        );
    }

    #[test]
    fn bench_markdown_and_csv() {
        let runs = parse(
            "| model                          |       size |     params | backend    | threads |          test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | ------: | ------------: | -------------------: |
| qwen2 1B Q4_0                  | 403.20 MiB |   494.03 M | CPU        |       4 |         pp512 |        210.55 ± 3.02 |
| qwen2 1B Q4_0                  | 403.20 MiB |   494.03 M | CPU        |       8 |         pp512 |        180.10 ± 9.02 |
| qwen2 1B Q4_0                  | 403.20 MiB |   494.03 M | CPU        |       4 |         tg128 |         41.02 ± 0.30 |

build: 6eecde3c (4621)
build_commit,build_number,cpu_info,model_filename,model_type,model_size,model_n_params,n_threads,n_prompt,n_gen,avg_ts,stddev_ts
\"6eecde3c\",\"4621\",\"Cortex-A78, X1\",\"/m/llama-7b.gguf\",\"llama 7B Q4_0\",\"3825065984\",\"6738415616\",\"4\",\"0\",\"128\",\"12.5\",\"0.2\"",
        );
        assert_eq!(runs.len(), 2);
        let a = &runs[0];
        assert_eq!(a.quant.as_deref(), Some("Q4_0"));
        assert_eq!(a.bench.len(), 3);
        assert_eq!(
            a.n_threads, None,
            "a thread sweep has no single thread count"
        );
        assert_eq!(a.build.as_deref(), Some("6eecde3c (4621)"));
        assert_eq!(a.params, Some(494.03e6));
        let b = &runs[1];
        assert_eq!(b.bench[0].test, "tg128");
        assert_eq!(b.bench[0].tok_s, 12.5);
        assert_eq!(b.model_bytes, Some(3825065984));
        assert_eq!(b.n_threads, Some(4));
    }

    #[test]
    fn a_command_line_without_ngl_leaves_the_layers_unasked() {
        let runs = parse(
            "(myenv) [root@gpu-0014 llama.cpp]# CUDA_VISIBLE_DEVICES=7 ./build/bin/main -m ./models/llama-7b/ggml-model-q4.bin -n 128
main: build = 992 (0919a0f)
ggml_init_cublas: found 1 CUDA devices:
  Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0",
        );
        let o = runs[0]
            .offload
            .as_ref()
            .expect("the command is a placement fact");
        assert_eq!((o.command_line, o.requested), (Some(1), None));
        assert_eq!(runs[0].devices, ["NVIDIA A100-SXM4-80GB"]);
        let runs = parse("$ llama-server.exe -m qwen2.5-7b-q4_k_m.gguf -ngl 33 -c 4096");
        let o = runs[0].offload.as_ref().expect("placement");
        assert_eq!((o.command_line, o.requested), (Some(1), Some(33)));
        // A log line that names the program is not its command.
        let runs = parse("main: seed  = 1692254344\nmain: build = 992 (0919a0f)");
        assert!(runs.iter().all(|r| r.offload.is_none()));
    }

    #[test]
    fn old_server_json_logs_and_jni_system_info() {
        let runs = parse(
            r#"system info:AVX = 0 | AVX2 = 0 | AVX512 = 0 | NEON = 1 | ARM_FMA = 1 | F16C = 0 | FP16_VA = 1 | WASM_SIMD = 0 | BLAS = 0 | SSE3 = 0 | VSX = 0 |
{"tid":"0x1f8","timestamp":1707301911,"level":"INFO","function":"print_timings","line":253,"msg":"prompt eval time =     563.34 ms /    15 tokens (   37.56 ms per token,    26.63 tokens per second)","slot_id":0,"t_prompt_processing":563.34,"num_prompt_tokens_processed":15}
{"tid":"0x1f8","timestamp":1707301911,"level":"INFO","function":"print_timings","line":267,"msg":"generation eval time =    5180.11 ms /   100 runs   (   51.80 ms per token,    19.30 tokens per second)","slot_id":0}"#,
        );
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.cpu_features.get("FP16_VA"), Some(&true));
        assert_eq!(r.cpu_features.get("AVX2"), Some(&false));
        assert_eq!(r.prefill.as_ref().and_then(|p| p.tok_s), Some(26.63));
        assert_eq!(r.decode.as_ref().and_then(|p| p.tok_s), Some(19.3));
    }
}

//! The census rows of `docs/formats/*.md` put through every wrapper a paste can carry: each
//! producer line, with numbers of several widths and precisions from a seeded generator, must
//! give the same run facts bare and wrapped, and must give the fact its row names.

use crate::evidence::{Evidence, Framework, Run};
use crate::ingest::lines::LineSplitter;
use crate::ingest::log::LogParser;
use crate::ingest::LineParser;

/// One census row: the producer's line shape (`{f}` a decimal, `{i}` an integer) and the fact it
/// must give.
struct Row {
    producer: &'static str,
    shape: &'static str,
    fact: fn(&Run) -> bool,
}

const ROWS: &[Row] = &[
    Row { producer: "llama.cpp 2024+ llama_perf_context_print", shape: "llama_perf_context_print:        eval time = {f} ms / {i} runs   ( {f} ms per token, {f} tokens per second)", fact: |r| r.decode.is_some() },
    Row { producer: "llama.cpp 2023-24 llama_print_timings", shape: "llama_print_timings: prompt eval time = {f} ms / {i} tokens ( {f} ms per token, {f} tokens per second)", fact: |r| r.prefill.is_some() },
    Row { producer: "llama.cpp 2023 main predict time", shape: "main: predict time = {f} ms / {f} ms per token", fact: |r| r.decode.is_some() },
    Row { producer: "llama.cpp load time", shape: "llama_perf_context_print:        load time = {f} ms", fact: |r| r.load_ms.is_some() },
    Row { producer: "llama.cpp server print_timing", shape: "       eval time = {f} ms / {i} tokens ( {f} ms per token, {f} tokens per second)", fact: |r| r.decode.is_some() },
    Row { producer: "llama.cpp build banner", shape: "build: {i} (6eecde3c) with clang version 17.0.2 for aarch64-linux-android", fact: |r| r.build.is_some() },
    Row { producer: "llama.cpp 2023 build", shape: "main: build = {i} (abcdef1)", fact: |r| r.build.is_some() },
    Row { producer: "llama.cpp system_info, all flags", shape: "system_info: n_threads = {i} / {i} | AVX = 1 | AVX2 = 0 | NEON = 1 | ARM_FMA = 1 | F16C = 0 |", fact: |r| r.n_threads.is_some() && r.cpu_features.get("AVX2") == Some(&false) },
    Row { producer: "llama.cpp system_info, only enabled", shape: "system_info: n_threads = {i} (n_threads_batch = {i}) / {i} | CPU : NEON = 1 | ARM_FMA = 1 | FP16_VA = 1 | DOTPROD = 1 |", fact: |r| r.hw_threads.is_some() && r.cpu_features.get("DOTPROD") == Some(&true) },
    Row { producer: "llama.cpp print_info file size", shape: "print_info: file size   = {f} GiB ({f} BPW)", fact: |r| r.model_bytes.is_some() },
    Row { producer: "llama.cpp buffer size", shape: "load_tensors:   CPU_Mapped model buffer size = {f} MiB", fact: |r| !r.buffers_mib.is_empty() },
    Row { producer: "llama.cpp graph splits", shape: "llama_context: graph splits = {i}", fact: |r| r.graph_splits.is_some() },
    Row { producer: "llama.cpp 2025+ graph splits per batch size", shape: "sched_reserve: graph splits = {i} (with bs=512), {i} (with bs=1)", fact: |r| r.graph_splits.is_some() },
    Row { producer: "llama.cpp loader tensor types", shape: "llama_model_loader: - type q4_0:  {i} tensors", fact: |r| !r.tensor_types.is_empty() },
    Row { producer: "llama-bench jsonl", shape: "{\"build_commit\": \"3bcd40b3\", \"build_number\": {i}, \"n_prompt\": 0, \"n_gen\": 128, \"avg_ts\": {f}, \"n_threads\": {i}}", fact: |r| !r.bench.is_empty() },
    Row { producer: "whisper.cpp print_timings", shape: "whisper_print_timings:   encode time = {f} ms / {i} runs ( {f} ms per run)", fact: |r| r.stages.contains_key("encode") && r.decode.is_none() },
    Row { producer: "koboldcpp summary", shape: "CtxLimit:{i}/4096, Amt:{i}/512, Init:{f}s, Process:{f}s ({f}ms/T = {f}T/s), Generate:{f}s ({f}ms/T = {f}T/s), Total:{f}s ({f}T/s)", fact: |r| r.decode.is_some() && r.prefill.is_some() },
    Row { producer: "ollama 2025 offload estimate", shape: "time=2025-03-11T20:06:03.175+01:00 level=INFO source=server.go:138 msg=offload library=cuda layers.requested=-1 layers.model={i} layers.offload={i} memory.available=\"[{f} GiB]\"", fact: |r| r.offload.as_ref().is_some_and(|o| o.gpu_layers.is_some() && o.vram_free_bytes.is_some()) },
    Row { producer: "mlx-lm generate", shape: "Generation: {i} tokens, {f} tokens-per-sec", fact: |r| r.decode.is_some() },
    Row { producer: "MNN llm_demo speed block", shape: " decode speed = {f} tok/s", fact: |r| r.decode.is_some() },
    Row { producer: "MNN late-2024 Llm summary average", shape: "average  decode speed = {f} tok/s", fact: |r| r.decode.is_some() },
    Row { producer: "MNN iOS benchmark mean", shape: "avg prefill speed = {f} tok/s", fact: |r| r.prefill.is_some() },
    Row { producer: "MNN iOS benchmark setup", shape: "backend = metal, threads = {i}", fact: |r| r.n_threads.is_some() && r.backend.as_deref() == Some("metal") },
    Row { producer: "MNN iOS prompt-file benchmark", shape: "  prefill {f} tok/s, decode {f} tok/s", fact: |r| r.prefill.is_some() && r.decode.is_some() },
    Row { producer: "MNN CPU features 2024+", shape: "The device supports: i8sdot:1, fp16:1, i8mm: 0, sve2: 0, sme2: 0", fact: |r| r.cpu_features.get("i8mm") == Some(&false) },
    Row { producer: "MNN CPU features 2021", shape: "The device support dot:1, support fp16:0", fact: |r| r.cpu_features.get("fp16") == Some(&false) },
    Row { producer: "MNN MNN_CPU_TARGET override", shape: "MNN_CPU_TARGET={i} effective ARM features: fp16=1, i8sdot=0, i8mm=0, sme2=0", fact: |r| r.cpu_features.get("i8sdot") == Some(&false) },
    Row { producer: "MNN CPU Group", shape: "CPU Group: [ 4  5  6 ], {i} - {i}", fact: |r| !r.cpu_clusters.is_empty() },
    Row { producer: "MNN config backend_type", shape: "    \"backend_type\": \"opencl\",", fact: |r| r.backend.as_deref() == Some("opencl") },
    Row { producer: "MNN benchmark tool Forward type", shape: "Forward type: CPU thread={i} precision=2 sparsity=0 sparseBlockOC=1 testQuantizedModel=0", fact: |r| r.n_threads.is_some() },
    Row { producer: "MNN Android app reply text", shape: "Decode: {f}s, {i} tokens, {f} tokens/s", fact: |r| r.decode.as_ref().is_some_and(|d| d.tokens.is_some() && d.ms.is_some()) },
    Row { producer: "MLC /stats", shape: "prefill: {f} tok/s, decode: {f} tok/s", fact: |r| r.prefill.is_some() && r.decode.is_some() },
    Row { producer: "jetson-containers MLC benchmark.py", shape: "/data/models/mlc/dist/Llama-2-7b-chat-hf-q4f16_1/params:  input={i} output={i} prefill_time {f} sec, prefill_rate {f} tokens/sec, decode_time {f} sec, decode_rate {f} tokens/sec", fact: |r| r.prefill.is_some() && r.decode.is_some() && r.model.is_some() },
    Row { producer: "MLC 2023-04 mlc_chat_cli stats", shape: "encode: {f} tok/s, decode: {f} tok/s", fact: |r| r.prefill.is_some() && r.decode.is_some() },
    Row { producer: "MLC app label, prefill only", shape: "prefill: {f} tok/s", fact: |r| r.prefill.is_some() && r.decode.is_none() },
    Row { producer: "MLC /stats without a prefill figure", shape: "prefill: N/A tok/s, decode: {f} tok/s", fact: |r| r.prefill.is_none() && r.decode.is_some() },
    Row { producer: "MLC 2023 per-token debug", shape: "[i: {i}] decoding-time={f}ms tok/s: {f}.", fact: |r| r.decode.is_some() },
    Row { producer: "MLC auto_device in use", shape: "Using device: vulkan:{i}", fact: |r| r.backend.as_deref() == Some("vulkan") },
    Row { producer: "MLC auto_device found", shape: "Found device: cuda:{i}", fact: |r| !r.devices.is_empty() },
    Row { producer: "MLC serve memory estimate", shape: "Estimated total single GPU memory usage: {f} MB (Parameters: {f} MB. KVCache: {f} MB. Temporary buffer: {f} MB). The actual usage might be slightly larger than the estimated number.", fact: |r| r.model_bytes.is_some() },
    Row { producer: "MLC chat_cli model library", shape: "Use model library: dist/prebuilt/lib/Llama-2-7b-chat-hf-q4f16_1-vulkan.so", fact: |r| r.quant.as_deref() == Some("q4f16_1") && r.backend.as_deref() == Some("vulkan") },
    Row { producer: "MLC /metrics last finished request", shape: "last_finished_request_decode_tokens_per_s\t{f}", fact: |r| r.decode.is_some() },
    Row { producer: "ExecuTorch stats generated tokens", shape: "\t\tGenerated {i} tokens:\t{f} (seconds)\t\t Rate: \t{f} (tokens/second)", fact: |r| r.decode.as_ref().is_some_and(|d| d.tokens.is_some() && d.ms.is_some()) },
    Row { producer: "ExecuTorch stats prompt evaluation", shape: "\t\tPrompt evaluation:\t{f} (seconds)\t\t Rate: \t{f} (tokens/second)", fact: |r| r.prefill.as_ref().is_some_and(|p| p.ms.is_some()) },
    Row { producer: "ExecuTorch stats model load time", shape: "\tModel Load Time:\t\t{f} (seconds)", fact: |r| r.load_ms.is_some() },
    Row { producer: "ExecuTorch threadpool", shape: "Resetting threadpool with num threads = {i}", fact: |r| r.n_threads.is_some() },
    Row { producer: "ExecuTorch 2024-01 runner", shape: "Achieved tok/s: {f}", fact: |r| r.decode.is_some() && r.prefill.is_none() },
    Row { producer: "ExecuTorch MediaTek runner decode", shape: "Token generation speed: {f} tok/s", fact: |r| r.decode.is_some() },
    Row { producer: "ExecuTorch MediaTek runner prefill", shape: "Done analyzing prompt in {f} sec ({f} tok/s)", fact: |r| r.prefill.is_some() },
    Row { producer: "ExecuTorch Qwen3.5 MoE prefill summary", shape: "Prefill: {i} tokens in {f} ms ({f} tok/s)", fact: |r| r.prefill.as_ref().is_some_and(|p| p.tokens.is_some()) },
    Row { producer: "ExecuTorch Qwen3.5 MoE decode summary", shape: "Decode: {i} tokens in {f} ms ({f} tok/s)", fact: |r| r.decode.as_ref().is_some_and(|d| d.tokens.is_some()) },
    Row { producer: "ExecuTorch Qwen3.5 MoE iteration", shape: "[iter {i}] prefill {f} tok/s ({i} tok, {f} ms) | decode {f} tok/s ({i} tok, {f} ms)", fact: |r| r.prefill.is_some() && r.decode.is_some() },
    Row { producer: "ExecuTorch Qwen3.5 MoE mean decode", shape: "\tDecode:  {f} tok/s", fact: |r| r.decode.is_some() },
    Row { producer: "ExecuTorch Gemma 4 report generation", shape: "  Generation:        {f} ms ({i} tokens, {f} tok/s)", fact: |r| r.decode.is_some() },
    Row { producer: "ExecuTorch MLX run_llm_hf decode", shape: "Decode time:  {f}s ({i} tokens, {f} tok/s)", fact: |r| r.decode.is_some() },
    Row { producer: "ExecuTorch .pte model name", shape: "Load complete. Model path: /data/local/tmp/llama/llama3_2_{i}b_8da4w.pte", fact: |r| r.quant.as_deref() == Some("8da4w") },
    Row { producer: "Genie version banner", shape: "Using libGenie.so version 1.{i}.0", fact: |r| r.build.is_some() },
    Row { producer: "Genie allocated buffers", shape: "[INFO]  \"Allocated total size = {i} across {i} buffers\"", fact: |r| r.buffers_mib.contains_key("allocated") },
    Row { producer: "ncnn benchncnn header threads", shape: "num_threads = {i}", fact: |r| r.n_threads.is_some() },
    Row { producer: "ncnn benchncnn header gpu_device", shape: "gpu_device = -1", fact: |r| r.backend.as_deref() == Some("CPU") },
    Row { producer: "ncnn max freq", shape: "{i} max freq = {i} khz", fact: |r| !r.cpu_clusters.is_empty() },
    Row { producer: "ncnn Vulkan queues 2019-2025", shape: "[0 Adreno (TM) 740]  queueC={i}[{i}]  queueG={i}[{i}]  queueT={i}[{i}]", fact: |r| r.devices.first().map(String::as_str) == Some("Adreno (TM) 740") },
    Row { producer: "ncnn Vulkan queues 2026+", shape: "[0 Mali-G720 MC8]  queueC={i}[{i}]  queueT={i}[{i}]  rebar=1  r-score={i}", fact: |r| r.devices.first().map(String::as_str) == Some("Mali-G720 MC8") },
    Row { producer: "ncnn Vulkan fp16 features", shape: "[0 Adreno (TM) 750]  fp16-p/s/u/a=1/1/1/1  int8-p/s/u/a=1/1/1/1  bf16-p/s=0/0", fact: |r| !r.devices.is_empty() },
    Row { producer: "ncnn benchncnn_llm prefill", shape: "      qwen3_0.6b_{i}_prefill  min = {f}  max = {f}  avg = {f}  tps = {f}", fact: |r| r.prefill.as_ref().is_some_and(|p| p.tokens.is_some() && p.tok_s.is_some()) && r.model.as_deref() == Some("qwen3_0.6b") },
    Row { producer: "ncnn benchncnn_llm decode", shape: "       llama3.2_1b_{i}_decode  min = {f}  max = {f}  avg = {f}  tps = {f}", fact: |r| r.decode.is_some() && r.model.as_deref() == Some("llama3.2_1b") },
    Row { producer: "ONNX Runtime verbose placement, one EP", shape: "[V:onnxruntime:, session_state.cc:{i} VerifyEachNodeIsAssignedToAnEp]  All nodes placed on [QNNExecutionProvider]. Number of nodes: {i}", fact: |r| r.backend.as_deref() == Some("QNN") },
    Row { producer: "ONNX Runtime verbose placement, per EP", shape: "Node(s) placed on [CUDAExecutionProvider]. Number of nodes: {i}", fact: |r| r.backend.as_deref() == Some("CUDA") },
    Row { producer: "onnxruntime-genai examples stats line 2024-04+", shape: "Prompt length: {i}, New tokens: {i}, Time to first: {f}s, Prompt tokens per second: {f} tps, New tokens per second: {f} tps", fact: |r| r.prefill.as_ref().is_some_and(|p| p.tokens.is_some() && p.ms.is_some()) && r.decode.as_ref().is_some_and(|d| d.tokens.is_some()) },
    Row { producer: "onnxruntime-genai Python examples stats line 0.12+", shape: "Prompt length: {i}, New tokens: {i}, Total tokens: {i}, Time to first: {f}s, Prompt tokens per second: {f} tps, New tokens per second: {f} tps", fact: |r| r.prefill.is_some() && r.decode.is_some() },
    Row { producer: "onnxruntime-genai C examples banner", shape: "Execution provider: qnn", fact: |r| r.backend.as_deref() == Some("QNN") },
    Row { producer: "LiteRT-LM BenchmarkInfo decode speed", shape: "      Decode Speed: {f} tokens/sec.", fact: |r| r.decode.is_some() },
    Row { producer: "LiteRT-LM log-sink prefill speed", shape: "Prefill speed turn {i}: {f} tk/s", fact: |r| r.prefill.is_some() },
    Row { producer: "LiteRT-LM 2025 total init time", shape: "    Total init time: {f} ms", fact: |r| r.load_ms.is_some() },
    Row { producer: "MediaPipe session config", shape: "Session config: backend: 1, threads: {i}, num_output_candidates: 1, topk: 40, temperature: 0.8, max_tokens: {i}", fact: |r| r.n_threads.is_some() },
    Row { producer: "MediaPipe model file", shape: "Loading /data/local/tmp/llm/gemma-2b-it-gpu-int4.bin", fact: |r| r.quant.as_deref() == Some("int4") && r.backend.as_deref() == Some("GPU") },
    Row { producer: "MediaPipe .task bundle", shape: "Loading /data/local/tmp/llm/gemma3-{i}b-it-int4.task", fact: |r| r.quant.as_deref() == Some("int4") && r.backend.is_none() },
];

/// An envelope: its name, and what it makes of a producer's line.
type Wrap = (&'static str, fn(&str) -> String);

/// The envelopes, as functions of the producer's line.
fn wrappers() -> Vec<Wrap> {
    vec![
        ("bare", |l| l.to_string()),
        ("logcat threadtime", |l| {
            format!("05-01 12:00:00.123  4321  4390 I llama-android: {l}")
        }),
        ("logcat brief", |l| format!("I/llama   ( 4321): {l}")),
        ("android studio", |l| {
            format!("2024-05-01 12:00:00.123  4321-4390  llama  com.example.app  I  {l}")
        }),
        ("llama common log", |l| format!("0.01.912.551 I {l}")),
        ("glog", |l| {
            format!("I0501 12:00:00.123456  1234 runner.cc:88] {l}")
        }),
        ("journald", |l| {
            format!("May 01 12:00:00 host llama-server[123]: {l}")
        }),
        ("journald iso", |l| {
            format!("2024-05-01T12:00:00+0000 host ollama[123]: {l}")
        }),
        ("pid", |l| format!("[41873] {l}")),
        ("pid:tid", |l| format!("[41873:41901] {l}")),
        ("iso timestamp + level", |l| {
            format!("2024-05-01 12:00:00.123 INFO {l}")
        }),
        ("docker compose", |l| {
            format!("\x1b[36mllama-1  |\x1b[0m {l}")
        }),
        ("docker compose v1", |l| format!("llm_llama_1  | {l}")),
        ("kubectl", |l| format!("[pod/llama-0/server] {l}")),
        ("python logging", |l| format!("INFO:root:{l}")),
        ("markdown quote", |l| format!("> {l}")),
        ("indent", |l| format!("    {l}")),
        ("html pre", |l| format!("<pre>{l}</pre>")),
        ("triple-quoted", |l| format!("log = \"\"\"{l}")),
        ("ansi colour", |l| format!("\x1b[1m\x1b[32m{l}\x1b[0m")),
        ("docker + common log", |l| {
            format!("llama-1  | 0.00.123.456 I {l}")
        }),
        ("journald + pid", |l| {
            format!("May 01 12:00:00 host app[9]: [123] {l}")
        }),
        ("lm studio", |l| {
            format!("[2024-05-20 13:45:12.123][INFO][LM STUDIO SERVER] {l}")
        }),
        ("lm studio debug", |l| {
            format!("[2024-05-20 13:45:12.123] [DEBUG] {l}")
        }),
    ]
}

/// A small LCG: the same numbers on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// A decimal as printf pads it: 0 to 3 decimals, left-padded to a random width.
    fn decimal(&mut self) -> String {
        let v = (self.next() % 100_000) as f64 / 10.0 + 0.5;
        let prec = (self.next() % 4) as usize;
        let width = (self.next() % 9) as usize;
        format!("{v:>width$.prec$}")
    }
    fn integer(&mut self) -> String {
        let v = 1 + self.next() % 5000;
        let width = (self.next() % 6) as usize;
        format!("{v:>width$}")
    }
}

fn fill(shape: &str, rng: &mut Rng) -> String {
    let mut out = String::new();
    let mut rest = shape;
    while let Some(i) = rest.find(['{']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(t) = tail.strip_prefix("{f}") {
            out.push_str(&rng.decimal());
            rest = t;
        } else if let Some(t) = tail.strip_prefix("{i}") {
            out.push_str(rng.integer().trim_start());
            rest = t;
        } else {
            out.push('{');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

fn runs_of(text: &str) -> Vec<Run> {
    let mut ev = Evidence::default();
    let id = ev.add_input("census");
    let mut p = LogParser::new(id, "census", Some(Framework::LlamaCpp));
    let mut s = LineSplitter::new();
    s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
    s.finish(&mut |l| p.line(l, &mut ev));
    p.finish(&mut ev);
    ev.runs
}

#[test]
fn every_census_row_reads_the_same_through_every_wrapper() {
    let mut rng = Rng(0x5eed_2026);
    let wrappers = wrappers();
    for row in ROWS {
        for _ in 0..6 {
            let line = fill(row.shape, &mut rng);
            // A noise line first, so the row is never the file's only line.
            let bare = runs_of(&format!("starting\n{line}\n"));
            assert!(
                bare.iter().any(row.fact),
                "{}: {line:?} gives {bare:?}",
                row.producer
            );
            let want = format!("{bare:?}");
            for (name, wrap) in &wrappers {
                let got = runs_of(&format!("{}\n{}\n", wrap("starting"), wrap(&line)));
                assert_eq!(
                    format!("{got:?}"),
                    want,
                    "{} through {name}: {line:?}",
                    row.producer
                );
            }
        }
    }
}

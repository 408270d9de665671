//! Decides what a dropped file is from its first bytes: a framework log (and which framework),
//! a perf/ftrace trace as text, CSV telemetry, or something tokscope does not read.

use crate::evidence::{Framework, InputKind, Rejection, TextEncoding};
use crate::ingest::decode::Transcoder;
use crate::ingest::wrapper;
use regex::Regex;
use std::sync::OnceLock;

/// How many leading bytes the sniffer looks at.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// The sniffer's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sniffed {
    pub kind: InputKind,
    pub framework: Option<Framework>,
    pub rejection: Option<Rejection>,
    /// The text encoding, for anything that is text.
    pub encoding: Option<TextEncoding>,
}

impl Sniffed {
    fn rejected(r: Rejection) -> Self {
        Sniffed {
            kind: InputKind::Unsupported,
            framework: None,
            rejection: Some(r),
            encoding: None,
        }
    }
    fn of(kind: InputKind, framework: Option<Framework>, encoding: TextEncoding) -> Self {
        Sniffed {
            kind,
            framework,
            rejection: None,
            encoding: Some(encoding),
        }
    }
}

/// Sniffs `head`, the first (up to [`SNIFF_BYTES`]) bytes of a file (already inflated if it
/// was gzipped): binary formats by magic number and byte statistics, then the text encoding, then
/// the kind of text.
pub fn sniff(head: &[u8]) -> Sniffed {
    if head.is_empty() {
        return Sniffed::rejected(Rejection::Empty);
    }
    if head.starts_with(b"PERFILE2") || head.starts_with(b"SIMPLEPERF") {
        return Sniffed {
            kind: InputKind::PerfData,
            framework: None,
            rejection: None,
            encoding: None,
        };
    }
    if let Some(r) = magic(head) {
        return Sniffed::rejected(r);
    }
    let encoding = TextEncoding::detect(head);
    let utf16 = matches!(encoding, TextEncoding::Utf16le | TextEncoding::Utf16be);
    if !utf16 && looks_binary(head) {
        return Sniffed::rejected(Rejection::Binary);
    }
    let mut decoded = Vec::with_capacity(head.len());
    Transcoder::new(encoding).feed(head, false, &mut |b| decoded.extend_from_slice(b));
    if utf16 && looks_binary(&decoded) {
        return Sniffed::rejected(Rejection::Binary);
    }
    let text = String::from_utf8_lossy(&decoded);
    let text = wrapper::clean(&text);
    if text.trim().is_empty() {
        return Sniffed::rejected(Rejection::Empty);
    }
    let lines: Vec<&str> = text.lines().take(400).collect();
    if lines
        .first()
        .is_some_and(|l| crate::ingest::bundle::looks_like(l))
    {
        return Sniffed::of(InputKind::Bundle, None, encoding);
    }
    if crate::ingest::telemetry::sbc_bench::looks_like(&lines) {
        return Sniffed::of(InputKind::Telemetry, None, encoding);
    }
    // Traces first: their callchains and command lines name frameworks too (`ggml_vec_dot`,
    // `llama-cli -m x.gguf`), but their event lines are unmistakable.
    if is_trace(&lines) {
        return Sniffed::of(InputKind::Trace, None, encoding);
    }
    if crate::ingest::kernel_log::looks_like(&lines) {
        return Sniffed::of(InputKind::KernelLog, None, encoding);
    }
    // Markers are substrings, so a prefix never hides one; the whole line is searched because
    // some envelopes are the framework's own (ONNX Runtime's `[W:onnxruntime:…]`, MediaPipe's
    // glog file names). Anchored shapes (table rows) are judged on the unwrapped message.
    let messages: Vec<&str> = lines.iter().map(|l| wrapper::unwrap(l).message).collect();
    let mut framework = detect_framework(&lines);
    // A benchmark table pasted alone (llama-bench or llm_bench rows, often tab-separated and
    // without a header) would otherwise pass for CSV telemetry.
    if framework.is_none() && is_bench_table(&messages) {
        framework = Some(Framework::LlamaCpp);
    }
    // A sweep typed as a table (`threads,tok/s`) is a log too, not CSV telemetry.
    if framework.is_none() && crate::ingest::frameworks::sweep_table::looks_like(&lines) {
        return Sniffed::of(InputKind::Log, None, encoding);
    }
    // A summary pasted after the output of the command it wrapped keeps that log's framework.
    if crate::ingest::perf_stat::looks_like(&lines) {
        return Sniffed::of(InputKind::Counters, framework, encoding);
    }
    // After the frameworks: a `top` frame names `llama-cli` only as a process, a log that pastes
    // a `top` stays a log.
    if framework.is_none() && crate::ingest::snapshot::looks_like(&lines) {
        return Sniffed::of(InputKind::Snapshot, None, encoding);
    }
    if framework.is_none() && crate::ingest::telemetry::text::looks_like(&lines) {
        return Sniffed::of(InputKind::Telemetry, None, encoding);
    }
    if framework.is_none() && (crate::ingest::telemetry::csv::looks_like(&lines) || is_csv(&lines))
    {
        return Sniffed::of(InputKind::Csv, None, encoding);
    }
    Sniffed::of(InputKind::Log, framework, encoding)
}

fn magic(head: &[u8]) -> Option<Rejection> {
    // (signature, rejection, whether a NUL must follow soon: "BM" or "MZ" can start a text line)
    const TABLE: &[(&[u8], Rejection, bool)] = &[
        (b"\x89PNG", Rejection::Image, false),
        (b"\xff\xd8\xff", Rejection::Image, false),
        (b"GIF8", Rejection::Image, false),
        (b"BM", Rejection::Image, true),
        (b"RIFF", Rejection::Image, true),
        (b"%PDF", Rejection::Pdf, false),
        (b"PK\x03\x04", Rejection::Archive, false),
        (b"7z\xbc\xaf", Rejection::Archive, false),
        (b"\x28\xb5\x2f\xfd", Rejection::Archive, false),
        (b"\x7fELF", Rejection::Executable, false),
        (b"MZ", Rejection::Executable, true),
        (b"\0asm", Rejection::Executable, false),
    ];
    let has_nul = head.iter().take(64).any(|&b| b == 0);
    TABLE
        .iter()
        .find(|(sig, _, needs_nul)| head.starts_with(sig) && (has_nul || !needs_nul))
        .map(|(_, r, _)| *r)
}

/// Text has no NULs and few control bytes; a binary file has plenty of both.
fn looks_binary(head: &[u8]) -> bool {
    let sample = &head[..head.len().min(8192)];
    if sample.contains(&0) {
        return true;
    }
    let control = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c | 0x1b))
        .count();
    control * 20 > sample.len()
}

/// Words that only one framework prints. Several hits are needed, so a stray mention in another
/// framework's log does not win.
const FRAMEWORK_MARKERS: &[(Framework, &[&str])] = &[
    // Before llama.cpp: ollama's runner relays llama.cpp's own lines (see `detect_framework`).
    (
        Framework::Ollama,
        &[
            "msg=\"inference compute\"",
            "msg=\"offload to ",
            "msg=offload library=",
            "msg=\"starting llama server\"",
            "msg=\"starting runner\"",
            "msg=\"server config\"",
            "msg=\"no compatible GPUs",
            "msg=\"llama runner started",
            "ollama_llama_server",
            "[GIN]",
            "OLLAMA_",
            "ollama run",
            "ollama serve",
            "PROCESSOR",
            "CPU/GPU",
            "% GPU ",
        ],
    ),
    (
        Framework::LlamaCpp,
        &[
            "llama_model_loader",
            "llama_model_load",
            "llm_load_",
            "llama_perf_context_print",
            "llama_print_timings",
            "llama_new_context",
            "llama_context:",
            "ggml_",
            "system_info: n_threads",
            "load_tensors:",
            "print_info:",
            "llama-bench",
            "| model ",
            "gguf",
            // koboldcpp, llamafile and LM Studio run llama.cpp and print its lines, plus these.
            "KoboldCpp",
            "koboldcpp",
            "CtxLimit:",
            "ms/T = ",
            "llamafile",
        ],
    ),
    (
        Framework::Mnn,
        &[
            "MNN",
            "CPU Group:",
            "The device supports: i8sdot",
            "llm_demo",
            "decode speed =",
            "prefill speed =",
        ],
    ),
    (
        Framework::MlcLlm,
        &[
            "mlc_llm",
            "mlc_chat",
            "mlc-llm",
            "MLCEngine",
            "tok/s, decode:",
            "decoding-time=",
            "q4f16",
        ],
    ),
    (
        Framework::OnnxRuntime,
        &[
            "onnxruntime",
            "ExecutionProvider",
            "VerifyEachNodeIsAssignedToAnEp",
            "ort-java",
            "Token Generation Throughput",
            "Prompt Processing Throughput",
            "benchmark_e2e",
            // genai's C++ `model_benchmark`: its block headers.
            "Prompt processing (time to first token):",
            "model_benchmark",
            // genai's example programs: their stats line and their names on a command line.
            "New tokens per second:",
            "model-qa.py",
            "model-chat.py",
            "model_qa",
            "model_chat",
        ],
    ),
    (
        Framework::Tflite,
        &[
            "TensorFlow Lite",
            "tflite",
            "GPU delegate",
            "XNNPACK delegate",
            "litert",
            "LiteRt",
        ],
    ),
    (
        Framework::Mediapipe,
        &[
            "mediapipe",
            "llm_inference_engine",
            "LlmInference",
            "calculator_graph",
        ],
    ),
    (
        Framework::Executorch,
        &[
            "executorch",
            "ExecuTorch",
            "PyTorchObserver",
            "Prompt evaluation:",
            "Generated Tokens:",
        ],
    ),
    (
        Framework::Qnn,
        &[
            "QnnDsp",
            "libGenie",
            "genie-t2t-run",
            "Qnn ",
            "QNN",
            "GenieDialog",
            "HTP",
            "libQnn",
            "Failed to create the dialog",
        ],
    ),
    (
        Framework::WhisperCpp,
        &[
            "whisper_init",
            "whisper_model_load",
            "whisper_print_timings",
            "whisper_backend_init",
            "WHISPER : ",
            "ggml-base",
            "whisper-cli",
        ],
    ),
    (
        Framework::MlxLm,
        &[
            "mlx_lm",
            "mlx-lm",
            "mlx-community",
            "tokens-per-sec",
            "Peak memory:",
            "prompt_tps=",
        ],
    ),
    (
        Framework::Ncnn,
        &[
            "ncnn",
            "loop_count =",
            "powersave =",
            "gpu_device =",
            "cooling_down =",
            "fp16-p/s/u/a",
        ],
    ),
];

/// Statements so particular to one producer that one line decides, even in a paste where
/// another tool's output (an `nvidia-smi` table) fills the rest: they count as two markers.
const DECISIVE_MARKERS: &[(Framework, &[&str])] = &[
    (
        Framework::Ollama,
        &[
            "msg=offload library=",
            "msg=\"offload to ",
            "msg=\"starting llama server\"",
        ],
    ),
    (
        Framework::LlamaCpp,
        &["llama_print_timings:", "llama_perf_context_print:"],
    ),
    // One answer's stats line is often all a user pastes of onnxruntime-genai's examples.
    (Framework::OnnxRuntime, &["New tokens per second:"]),
];

fn detect_framework(lines: &[&str]) -> Option<Framework> {
    let mut scores = [0u32; FRAMEWORK_MARKERS.len()];
    for line in lines {
        for (i, (fw, markers)) in FRAMEWORK_MARKERS.iter().enumerate() {
            if markers.iter().any(|m| line.contains(m)) {
                let decisive = DECISIVE_MARKERS
                    .iter()
                    .any(|(f, ms)| f == fw && ms.iter().any(|m| line.contains(m)));
                scores[i] += if decisive { 2 } else { 1 };
            }
        }
    }
    // An ollama log is mostly the llama.cpp lines its runner relays: its own lines decide.
    if scores[0] >= 2 {
        return Some(Framework::Ollama);
    }
    let (best, score) = scores
        .iter()
        .enumerate()
        .max_by_key(|(i, s)| (**s, usize::MAX - i))?;
    (*score >= 2 || (*score == 1 && lines.len() <= 3)).then(|| FRAMEWORK_MARKERS[best].0)
}

fn is_bench_table(lines: &[&str]) -> bool {
    static ROW: OnceLock<Regex> = OnceLock::new();
    let row = ROW.get_or_init(|| {
        Regex::new(r"(?:^|[\t|])\s*(?:pp|tg)\s?\d+(?:\s*\+\s*tg\s?\d+)?\s*[\t|]\s*\**[\d.]+\**\s*±")
            .expect("bench row")
    });
    lines.iter().any(|l| row.is_match(l))
}

/// Event lines as the trace parser reads them (one definition of a trace line: the parser's).
fn is_trace(lines: &[&str]) -> bool {
    let hits = lines
        .iter()
        .filter(|l| crate::ingest::trace_line::parse(l).is_some())
        .count();
    let header = lines
        .iter()
        .any(|l| l.starts_with("# captured on") || l.starts_with("# tracer:"));
    hits >= 2
        || (hits >= 1 && header)
        || crate::ingest::sched_timehist::looks_like(lines)
        || is_system_info(lines)
}

/// `/proc/cpuinfo` (with CPU part ids), a `cpuinfo_max_freq` list or `lscpu` output: read with
/// the traces, since they tell the CPU clusters apart.
fn is_system_info(lines: &[&str]) -> bool {
    // Arm kernels list `CPU part` and `Features`; x86 ones `vendor_id` and `flags`.
    let cpuinfo = lines
        .iter()
        .any(|l| l.starts_with("processor\t:") || l.starts_with("processor :"))
        && lines.iter().any(|l| {
            ["CPU part", "Features\t:", "vendor_id\t:", "flags\t\t:"]
                .iter()
                .any(|k| l.starts_with(k))
        });
    let max_freq = lines
        .iter()
        .filter(|l| l.contains("cpuinfo_max_freq"))
        .count()
        >= 2;
    cpuinfo
        || max_freq
        || crate::ingest::max_freq_list::looks_like(lines)
        || crate::ingest::lscpu::looks_like(lines)
}

/// Whether the text is delimited records: on one delimiter, most rows hold the same number of
/// fields, and none of those rows holds a clause of prose. A header row of names makes two rows
/// enough (the header and one record); without one, [`MIN_HEADERLESS_ROWS`] rows must agree,
/// since two sentences with two commas each also agree on a count.
fn is_csv(lines: &[&str]) -> bool {
    let content: Vec<&str> = lines
        .iter()
        .map(|l| wrapper::unwrap(l).message)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(40)
        .collect();
    if content.len() < 2 {
        return false;
    }
    [',', '\t', ';'].iter().any(|&d| {
        let counts: Vec<usize> = content.iter().map(|l| l.matches(d).count()).collect();
        // The most common field count, and how many rows share it (a preamble may differ).
        let mut best = (0usize, 0usize);
        for &c in &counts {
            let n = counts.iter().filter(|&&x| x == c).count();
            if c > 0 && n > best.1 {
                best = (c, n);
            }
        }
        let rows: Vec<&str> = content
            .iter()
            .zip(&counts)
            .filter(|(_, &c)| c == best.0)
            .map(|(l, _)| *l)
            .collect();
        let headed = rows.first().is_some_and(|h| is_header(h, d));
        let enough = if headed { 2 } else { MIN_HEADERLESS_ROWS };
        best.0 >= 1
            && best.1 * 10 >= content.len() * 8
            && best.1 >= enough
            && !rows.iter().any(|r| r.split(d).any(is_prose))
    })
}

/// Rows a delimited text without a header row must have in one shape.
const MIN_HEADERLESS_ROWS: usize = 3;

/// A field that is a clause of a sentence, not a name or a value: several lowercase words
/// (`on machines with smaller memory`). Names and values are one or two words, or capitalised
/// product names (`NVIDIA GeForce RTX 3050 Laptop GPU`).
fn is_prose(field: &str) -> bool {
    field
        .split_whitespace()
        .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase()))
        .count()
        >= 4
}

/// A row of column names: every field names something (holds a letter) and none is a number.
fn is_header(row: &str, d: char) -> bool {
    row.split(d).all(|f| {
        let f = f.trim().trim_matches('"');
        f.chars().any(char::is_alphabetic) && f.parse::<f64>().is_err()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_binaries_and_empty() {
        assert_eq!(sniff(b"").rejection, Some(Rejection::Empty));
        assert_eq!(sniff(b"  \n\n").rejection, Some(Rejection::Empty));
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").rejection,
            Some(Rejection::Image)
        );
        assert_eq!(sniff(b"PERFILE2\x68\0\0\0").kind, InputKind::PerfData);
        assert_eq!(
            sniff(&[1, 2, 3, 0, 5, 6]).rejection,
            Some(Rejection::Binary)
        );
        // Text that merely starts like a magic number is still text.
        assert_eq!(sniff(b"MZ is a name\nsecond line\n").kind, InputKind::Log);
    }

    #[test]
    fn recognizes_frameworks() {
        let llama =
            b"llama_model_loader: loaded meta data\nllm_load_print_meta: model ftype = Q4_0\n";
        assert_eq!(sniff(llama).framework, Some(Framework::LlamaCpp));
        let tflite = b"INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\nE/tflite: Following operations are not supported by GPU delegate:\n";
        assert_eq!(sniff(tflite).framework, Some(Framework::Tflite));
    }

    #[test]
    fn a_pasted_bench_table_is_a_log() {
        let tsv = "llama 7B Q4_0\t3.56 GiB\t6.74 B\tCPU\t4\tpp512\t55.20 ± 0.31\nllama 7B Q4_0\t3.56 GiB\t6.74 B\tCPU\t4\ttg128\t9.81 ± 0.02\n";
        let s = sniff(tsv.as_bytes());
        assert_eq!(
            (s.kind, s.framework),
            (InputKind::Log, Some(Framework::LlamaCpp))
        );
    }

    #[test]
    fn prose_with_commas_is_not_csv() {
        // Two sentences with two commas each agree on a field count, as a header and a row do.
        let prose = b"On slower machines, it can help to use fewer threads, say 4 instead of 8.\n\nTry this, which is what I run on my laptop, and see if it goes faster for you\n";
        assert_eq!(sniff(prose).kind, InputKind::Log);
        // A header and one record, or three records without a header, are still CSV.
        let headed = b"time,cpu0_freq_khz,temp_c\n0,1800000,41.5\n";
        assert_eq!(sniff(headed).kind, InputKind::Csv);
        let bare = b"0,1800000,41.5\n1,1800000,42.0\n2,1500000,45.1\n";
        assert_eq!(sniff(bare).kind, InputKind::Csv);
        let two_bare = b"0,1800000,41.5\n1,1800000,42.0\n";
        assert_eq!(sniff(two_bare).kind, InputKind::Log);
        // A product name is a value, not prose.
        let named = b"name,util\nNVIDIA GeForce RTX 3050 6GB Laptop GPU,95\n";
        assert_eq!(sniff(named).kind, InputKind::Csv);
    }

    #[test]
    fn recognizes_trace_and_csv() {
        let perf = b"swapper     0 [000]  1419.092642:    1000000 cpu-clock:pppH:\n\tffffffff9286ee22 x ([kernel.kallsyms])\n\nllama  8366 [004]  1419.093642:    1000000 cpu-clock:pppH:\n";
        assert_eq!(sniff(perf).kind, InputKind::Trace);
        let csv = b"time,cpu0_freq_khz,temp_c\n0,1800000,41.5\n1,1800000,42.0\n2,1500000,45.1\n";
        assert_eq!(sniff(csv).kind, InputKind::Csv);
        let tegra = b"RAM 2448/7772MB (lfb 4x4MB) CPU [5%@729,off] EMC_FREQ 0%@2133 GR3D_FREQ 0%@318 cpu@47.6C VDD_IN 5000mW/5000mW\nRAM 2448/7772MB (lfb 4x4MB) CPU [6%@729,off] EMC_FREQ 0%@2133 GR3D_FREQ 0%@318 cpu@47.9C VDD_IN 5000mW/5000mW\n";
        assert_eq!(sniff(tegra).kind, InputKind::Telemetry);
        let battery = b"Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  level: 80\n";
        assert_eq!(sniff(battery).kind, InputKind::Telemetry);
        // perf right-aligns thread names, and callchains name ggml functions: still a trace.
        let right = b"       llama-cli  8366 [004]  1419.093642:    1000000 cpu-clock:\n\t7f00 ggml_vec_dot_q4_0_q8_0 (/libggml.so)\n\t7f01 ggml_graph_compute (/libggml.so)\n\n       llama-cli  8367 [005]  1419.093652:    1000000 cpu-clock:\n\t7f00 ggml_vec_dot_q4_0_q8_0 (/libggml.so)\n";
        assert_eq!(sniff(right).kind, InputKind::Trace);
        let cpuinfo =
            b"processor\t: 0\nBogoMIPS\t: 38.40\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n";
        assert_eq!(sniff(cpuinfo).kind, InputKind::Trace);
        let lscpu = b"$ lscpu -e\nCPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE    MAXMHZ   MINMHZ\n  0    0      0    0 0:0:0:0          yes 1800.0000 408.0000\n  4    0      0    4 4:4:4:0          yes 2352.0000 408.0000\n";
        assert_eq!(sniff(lscpu).kind, InputKind::Trace);
        let summary = b"Architecture:            aarch64\n  CPU op-mode(s):        32-bit, 64-bit\nCPU(s):                  8\nModel name:              Cortex-A55\n";
        assert_eq!(sniff(summary).kind, InputKind::Trace);
        let nvsmi = b"==============NVSMI LOG==============\n\nTimestamp : Tue Dec  1 10:14:52 2026\nDriver Version : 550.120\n";
        assert_eq!(sniff(nvsmi).kind, InputKind::Telemetry);
        let log = b"starting up, please wait\nloaded model, 3 layers\nall good\n";
        assert_eq!(sniff(log).kind, InputKind::Log);
    }
}

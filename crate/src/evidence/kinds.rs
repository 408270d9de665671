//! What an input is, and the classes of what was read in it: the vocabulary that the sniffer and
//! the parsers write into the evidence and every later stage reads. It lives here, at the
//! evidence stage, so that reading it never means importing a parser.

use serde::{Deserialize, Serialize};

/// Inference frameworks whose logs tokscope recognizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Framework {
    LlamaCpp,
    Mnn,
    MlcLlm,
    OnnxRuntime,
    Tflite,
    Mediapipe,
    Executorch,
    Qnn,
    Ncnn,
    /// whisper.cpp, llama.cpp's speech sibling: its passes are not LLM tokens.
    WhisperCpp,
    /// Apple's mlx-lm (`mlx_lm.generate`, `mlx_lm.benchmark`).
    MlxLm,
    /// ollama's server log and `ollama ps`; the llama.cpp lines its runner relays join its runs.
    Ollama,
    /// Timings read by the generic reader from a log no framework parser knows.
    Unknown,
}

impl Framework {
    /// Every framework, for what must cover them all (each one's how-to text).
    pub const ALL: [Framework; 13] = [
        Framework::LlamaCpp,
        Framework::Mnn,
        Framework::MlcLlm,
        Framework::OnnxRuntime,
        Framework::Tflite,
        Framework::Mediapipe,
        Framework::Executorch,
        Framework::Qnn,
        Framework::Ncnn,
        Framework::WhisperCpp,
        Framework::MlxLm,
        Framework::Ollama,
        Framework::Unknown,
    ];

    /// The id used in reports and catalogue keys (`llama-cpp`, `onnx-runtime`, `unknown`).
    pub fn key(self) -> &'static str {
        match self {
            Framework::LlamaCpp => "llama-cpp",
            Framework::Mnn => "mnn",
            Framework::MlcLlm => "mlc-llm",
            Framework::OnnxRuntime => "onnx-runtime",
            Framework::Tflite => "tflite",
            Framework::Mediapipe => "mediapipe",
            Framework::Executorch => "executorch",
            Framework::Qnn => "qnn",
            Framework::Ncnn => "ncnn",
            Framework::WhisperCpp => "whisper-cpp",
            Framework::MlxLm => "mlx-lm",
            Framework::Ollama => "ollama",
            Framework::Unknown => "unknown",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Framework::LlamaCpp => "llama.cpp",
            Framework::Mnn => "MNN",
            Framework::MlcLlm => "MLC-LLM",
            Framework::OnnxRuntime => "ONNX Runtime",
            Framework::Tflite => "TFLite / LiteRT",
            Framework::Mediapipe => "MediaPipe",
            Framework::Executorch => "ExecuTorch",
            Framework::Qnn => "QNN / Genie",
            Framework::Ncnn => "ncnn",
            Framework::WhisperCpp => "whisper.cpp",
            Framework::MlxLm => "mlx-lm",
            Framework::Ollama => "ollama",
            Framework::Unknown => "unknown",
        }
    }
}

/// What a file was recognized as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// Text log of an inference framework (or an unknown one: `framework` is then `None`).
    Log,
    /// `perf script`, simpleperf or ftrace text.
    Trace,
    /// Comma-, tab- or semicolon-separated telemetry.
    Csv,
    /// Line-oriented telemetry text: tegrastats, dumpsys battery / thermalservice, sysfs dumps,
    /// powermetrics, vcgencmd, sbc-bench / armbianmonitor monitor output.
    Telemetry,
    /// Binary `perf.data` of Linux perf or simpleperf.
    PerfData,
    /// A tokscope-record bundle: log, telemetry and thread snapshots on one clock.
    Bundle,
    /// Not something tokscope reads; the reason is in `Rejection`.
    Unsupported,
    /// `dmesg`, `journalctl -k` or logcat's kernel buffer.
    KernelLog,
    /// Thread and memory snapshots: `top -H`, `ps -T`, `/proc/<pid>/task/*/stat`, `taskset -p`,
    /// `dumpsys meminfo`, `/proc/<pid>/status`, `free`, `/proc/meminfo`.
    Snapshot,
    /// Counter summaries: `perf stat` (text, `-I`, `-x` CSV) and `simpleperf stat`, possibly
    /// after the output of the command they wrapped (`framework` then names its log).
    Counters,
}

impl InputKind {
    pub fn key(&self) -> &'static str {
        match self {
            InputKind::Log => "log",
            InputKind::Trace => "trace",
            InputKind::Csv => "csv",
            InputKind::Telemetry => "telemetry",
            InputKind::PerfData => "perf-data",
            InputKind::Bundle => "bundle",
            InputKind::Unsupported => "unsupported",
            InputKind::KernelLog => "kernel-log",
            InputKind::Snapshot => "snapshot",
            InputKind::Counters => "counters",
        }
    }
}

/// Why a file was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rejection {
    Empty,
    Image,
    Archive,
    Pdf,
    Executable,
    Binary,
}

impl Rejection {
    pub fn key(self) -> &'static str {
        match self {
            Rejection::Empty => "empty",
            Rejection::Image => "image",
            Rejection::Archive => "archive",
            Rejection::Pdf => "pdf",
            Rejection::Executable => "executable",
            Rejection::Binary => "binary",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextEncoding {
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "utf-8-bom")]
    Utf8Bom,
    #[serde(rename = "utf-16le")]
    Utf16le,
    #[serde(rename = "utf-16be")]
    Utf16be,
    #[serde(rename = "gb18030")]
    Gb18030,
    /// Windows tools in Western locales (HWiNFO writes `°C` as one byte, 0xB0).
    #[serde(rename = "windows-1252")]
    Windows1252,
}

/// What fell back, as far as the wording tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FallbackClass {
    /// Quantized weights expanded or computed at fp16 / fp32.
    Precision,
    /// A reference, generic or scalar kernel instead of the optimized one.
    Reference,
    /// Ops or the whole graph went back to the CPU from an accelerator or a faster buffer type.
    Cpu,
    /// An op, kernel, type or device is reported unsupported.
    UnsupportedOp,
    /// Says "fallback" without saying to what.
    Other,
}

/// Ordered from the most telling: a mismatch or an OOM explains the crash that follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureClass {
    /// The model is built for another backend, or the versions do not match.
    Mismatch,
    /// The process ran out of memory or was killed for it.
    OutOfMemory,
    /// A configuration file the framework needs is missing, or lacks a required field.
    Config,
    /// The model, a context or a session could not be loaded or opened.
    Load,
    /// An inference library stopped on its own check: `GGML_ASSERT`, `ggml_abort`, an SDK's
    /// error code (CANN `EZ9999`). Its message names what failed.
    Abort,
    /// SIGILL: the build uses CPU instructions this CPU lacks (AVX on an old Xeon, i8mm on an
    /// older ARM core). Ahead of a crash: it names which fix applies.
    IllegalInstruction,
    /// The process died: a signal, an abort, an uncaught exception, a failed assertion.
    Crash,
}

impl FailureClass {
    pub fn key(self) -> &'static str {
        match self {
            FailureClass::Crash => "crash",
            FailureClass::OutOfMemory => "oom",
            FailureClass::Mismatch => "mismatch",
            FailureClass::Load => "load",
            FailureClass::Config => "config",
            FailureClass::Abort => "abort",
            FailureClass::IllegalInstruction => "sigill",
        }
    }
}

//! The normalized store that ingest fills and the rules read: what each input is, the problems
//! met while reading it, the runs found, and the fallback warnings grouped by message.
//!
//! Everything here is bounded by what the evidence needs, not by the size of the inputs.

pub mod backend;
pub mod counters;
mod kinds;
pub mod memory;
pub mod op_profile;
pub mod sched;

pub use kinds::{FailureClass, FallbackClass, Framework, InputKind, Rejection, TextEncoding};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Most line numbers kept per fallback group; the count goes on beyond it.
pub const MAX_LINES_PER_GROUP: usize = 10_000;
/// Quotes kept per fallback group (the first ones seen).
pub const MAX_QUOTES_PER_GROUP: usize = 5;
/// Longest quote kept, in characters.
pub const MAX_QUOTE_CHARS: usize = 300;
/// Distinct fallback messages tracked; beyond that new messages are only counted.
pub const MAX_FALLBACK_GROUPS: usize = 500;

/// Index of an input in [`Evidence::inputs`].
pub type InputId = usize;

/// Something that went wrong, or is worth knowing, while reading an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub code: ProblemCode,
    pub line: Option<u64>,
    /// The lines concerned, when the problem is about lines a parser could not read.
    pub lines: Option<SkippedLines>,
    /// How many things the problem is about, when they are not lines (runs left out).
    pub count: Option<u64>,
}

/// Lines shown verbatim for a problem about skipped or cut lines.
pub const SKIPPED_LINES_SHOWN: usize = 5;

/// Lines a parser could not read (or had to cut): how many, and the first few verbatim, so
/// nothing is dropped silently and the user can see what the parser did not understand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkippedLines {
    pub count: u64,
    pub first: Vec<(u64, String)>,
}

impl SkippedLines {
    pub fn add(&mut self, line: u64, text: &str) {
        self.count += 1;
        if self.first.len() < SKIPPED_LINES_SHOWN {
            self.first.push((line, clip(text)));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemCode {
    Rejected(Rejection),
    /// A text file with no known framework markers; it is still scanned for fallbacks.
    UnknownLog,
    /// A log that gave no run and no fallback line, with lines that look like timings in a form
    /// tokscope does not read (shown), and how to get a readable log.
    TimingsNotRead,
    /// A log that gave no run, no fallback line and has nothing that looks like a timing.
    NothingRead,
    /// Lines longer than the limit were cut.
    LongLinesCut,
    /// More distinct fallback messages than tracked.
    TooManyFallbackMessages,
    /// The gzip stream broke off; results cover what was inflated before.
    GzipCorrupt,
    /// The gzip stream inflated beyond the size guard; the rest was not read.
    GzipTooLarge,
    /// The user cancelled reading; results cover the part read.
    Cancelled,
    /// Telemetry: no header line with column names was found.
    TelemetryNoHeader,
    /// Telemetry: no time column; rows are taken as one second apart.
    TelemetryNoTime,
    /// Telemetry: rows without a readable time, or with too few fields, were skipped.
    TelemetryRowsSkipped,
    /// Telemetry: no column or line held a value tokscope could chart.
    TelemetryNoSeries,
    /// Trace lines that matched no known event, header or callchain shape.
    TraceLinesSkipped,
    /// More threads than tracked; the rest are counted only.
    TooManyThreads,
    /// A trace held more timeline cells or CPU-move pairs than kept; later detail left out.
    TraceDetailCut,
    /// A trace held more frequency / temperature points or sensors than kept.
    TraceSeriesCut,
    /// A log held more runs than kept per input; the later ones were counted, not kept.
    RunsCut,
    /// A binary perf.data larger than the in-memory limit.
    PerfDataTooLarge,
    /// A binary perf.data that could not be read (the message names the cause).
    PerfDataInvalid,
    /// A tokscope-record bundle of a newer version: read as far as this version knows.
    BundleNewer,
    /// What the recorder could not read on the device, and why (the bundle's `missing` part).
    RecorderMissed,
    /// Lines of a bundle that fit no section's shape.
    BundleLinesSkipped,
    /// Status-dump fields tokscope reads (`nvidia-smi -q`, `lscpu -e`, ...) whose value it
    /// could not read.
    StatusLinesSkipped,
    /// Lines of a thread or memory snapshot that fit none of its shapes.
    SnapshotLinesSkipped,
    /// A `perf stat` / `simpleperf stat` input in which no counter row was read.
    CountersNotRead,
    /// Lines of a counter summary input that fit no row, header or total shape.
    CounterLinesSkipped,
    /// More counter summaries than kept (`simpleperf stat --interval` repeats them).
    CountersCut,
    /// A typed table with speeds whose columns tokscope could not map to a sweep (the header
    /// is shown).
    TableNotMapped,
}

impl ProblemCode {
    /// The catalogue key suffix: `problem.<key>`.
    pub fn key(self) -> String {
        match self {
            ProblemCode::Rejected(r) => format!("rejected.{}", r.key()),
            ProblemCode::UnknownLog => "unknown-log".into(),
            ProblemCode::TimingsNotRead => "timings-not-read".into(),
            ProblemCode::NothingRead => "nothing-read".into(),
            ProblemCode::LongLinesCut => "long-lines-cut".into(),
            ProblemCode::TooManyFallbackMessages => "too-many-fallback-messages".into(),
            ProblemCode::GzipCorrupt => "gzip-corrupt".into(),
            ProblemCode::GzipTooLarge => "gzip-too-large".into(),
            ProblemCode::Cancelled => "cancelled".into(),
            ProblemCode::TelemetryNoHeader => "telemetry-no-header".into(),
            ProblemCode::TelemetryNoTime => "telemetry-no-time".into(),
            ProblemCode::TelemetryRowsSkipped => "telemetry-rows-skipped".into(),
            ProblemCode::TelemetryNoSeries => "telemetry-no-series".into(),
            ProblemCode::TraceLinesSkipped => "trace-lines-skipped".into(),
            ProblemCode::TooManyThreads => "too-many-threads".into(),
            ProblemCode::TraceDetailCut => "trace-detail-cut".into(),
            ProblemCode::TraceSeriesCut => "trace-series-cut".into(),
            ProblemCode::RunsCut => "runs-cut".into(),
            ProblemCode::PerfDataTooLarge => "perf-data-too-large".into(),
            ProblemCode::PerfDataInvalid => "perf-data-invalid".into(),
            ProblemCode::BundleNewer => "bundle-newer".into(),
            ProblemCode::RecorderMissed => "recorder-missed".into(),
            ProblemCode::BundleLinesSkipped => "bundle-lines-skipped".into(),
            ProblemCode::StatusLinesSkipped => "status-lines-skipped".into(),
            ProblemCode::SnapshotLinesSkipped => "snapshot-lines-skipped".into(),
            ProblemCode::CountersNotRead => "counters-not-read".into(),
            ProblemCode::CounterLinesSkipped => "counter-lines-skipped".into(),
            ProblemCode::CountersCut => "counters-cut".into(),
            ProblemCode::TableNotMapped => "table-not-mapped".into(),
        }
    }
}

/// What is known about one input.
#[derive(Debug, Clone)]
pub struct InputFacts {
    pub name: String,
    pub kind: Option<InputKind>,
    pub framework: Option<Framework>,
    /// Bytes as given (compressed, for a gzipped input).
    pub bytes: u64,
    pub lines: u64,
    pub encoding: Option<TextEncoding>,
    pub compression: Option<&'static str>,
    pub problems: Vec<Problem>,
    /// The first line that asks for fp16 or low precision (`Precision_Low`, `precision=2`,
    /// `"precision": "low"`, "fp16 is no faster"), with its text.
    pub asks_fp16: Option<(u64, String)>,
    /// The text names a discrete graphics card or its memory (`RTX 4090`, `12GB VRAM`, `显存`).
    pub names_card: bool,
}

/// Where one warning was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    pub input: InputId,
    pub line: u64,
}

/// Every line that carries the same normalized fallback message.
#[derive(Debug, Clone)]
pub struct FallbackGroup {
    pub class: FallbackClass,
    pub key: String,
    /// The first message seen, unwrapped and clipped: the finding's headline quote.
    pub message: String,
    pub count: u64,
    /// The first [`MAX_LINES_PER_GROUP`] occurrences, in input order.
    pub occurrences: Vec<Occurrence>,
    /// The first few lines verbatim, with where they were.
    pub quotes: Vec<(Occurrence, String)>,
}

/// Tokens and time of one phase (prefill or decode) of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Phase {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tok_s: Option<f64>,
    /// `tok_s` was computed (from ms per token, or tokens and ms), not printed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub derived: bool,
}

/// One row of a benchmark table (llama-bench, llm_bench): `pp512`, `tg128`, ...
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    pub test: String,
    pub tok_s: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stddev: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads: Option<u32>,
}

/// A group of CPUs sharing a maximum frequency (a big.LITTLE cluster), as a log states it
/// (MNN `CPU Group:` lines, ncnn `N max freq = K khz`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuCluster {
    pub cpus: Vec<u32>,
    pub max_khz: u64,
}

/// The facts of one inference run, as its log states them. Every field but `input` is absent
/// when the log does not say; nothing is guessed. Framework parsers fill these in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Run {
    pub input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<Framework>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_end: Option<u64>,
    // --- the build
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<String>,
    // --- the model
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Parameter count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_bytes: Option<u64>,
    /// Quant name as the framework spells it: `Q4_0`, `Q4_K - Medium`, `q4f16_1`, `F16`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits_per_weight: Option<f64>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tensor_types: BTreeMap<String, u64>,
    /// Experts per MoE layer and how many each token uses (llama.cpp `n_expert`,
    /// `n_expert_used`): a token then reads only the used experts' weights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_expert: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_expert_used: Option<u32>,
    // --- threads and CPU
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads: Option<u32>,
    /// MNN's `thread_num` on a GPU backend, which there is a mode mask (tuning bits 1–16, memory
    /// bits 64 buffer / 128 image), not a thread count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_mode: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads_batch: Option<u32>,
    /// The line of a llama.cpp command the user pasted without `-t`, when the run states no
    /// thread count: it ran at llama.cpp's default, which the machine's cores decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads_default_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hw_threads: Option<u32>,
    /// Flag -> on. A flag absent from the map is unknown, unless the format says absent means off.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cpu_features: BTreeMap<String, bool>,
    /// CPU clusters by maximum frequency, when the log prints the topology.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cpu_clusters: Vec<CpuCluster>,
    // --- memory
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub buffers_mib: BTreeMap<String, f64>,
    /// Where the layers went between the CPU and an accelerator, when the log says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offload: Option<Offload>,
    /// The pieces the scheduler cut decode's graph into, when the log says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph_splits: Option<GraphSplits>,
    // --- speed
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode: Option<Phase>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bench: Vec<BenchRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_ms: Option<f64>,
    /// Timed stages that are not LLM prefill or decode (whisper.cpp's mel, encode, decode and
    /// batchd passes), by the producer's name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stages: BTreeMap<String, Stage>,
    /// How many measured repetitions the producer averaged into these figures, when it says
    /// (onnxruntime-genai's `n: 5 * 128 token(s)`): such a run is already a mean, not one try.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<u32>,
    /// The process's peak memory, when the framework prints it (mlx-lm's `Peak memory`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
    /// What Metal lets the process keep resident on the GPU, and what the run allocated against
    /// it (llama.cpp's `recommendedMaxWorkingSetSize` and its allocation lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub working_set: Option<WorkingSet>,
    // --- what a typed sweep table says about the row this run is
    /// The power mode the row ran in, as typed (`MAXN`, `15W`, `powersave`, `balanced`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_mode: Option<String>,
    /// The row's trial number in a table of repeated runs (as numbered, else its position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trial: Option<u32>,
    /// The user's own name for the run, typed before its line (`0.7.0: gemma3:27b …`,
    /// `before: …`): what tells two pasted rows of one model apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Someone else's result the user quotes beside their own (under "but your result was:",
    /// "Expected:"): a reference to compare with, not a run on their device.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub quoted: bool,
    /// The user's heading says this run's window was minimized or in the background.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub background: bool,
    /// The temperature the row states, °C.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// The table marks this row as the setting in use (`default`, `current`, `默认`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default_setting: bool,
    /// One row of a typed sweep whose rows differ in a setting (quant, model, size, power
    /// mode) by design: not a repeat of the runs beside it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sweep_row: bool,
}

/// The GPU memory Metal recommends a process keep resident (`recommendedMaxWorkingSetSize`), and
/// what llama.cpp allocated against it. Past it, macOS pages the GPU's buffers in and out, or a
/// command buffer fails; each field is absent when the log does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkingSet {
    /// The limit, bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_bytes: Option<u64>,
    /// The largest allocated total printed against the limit, bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated_bytes: Option<u64>,
    /// The first line that says (or shows) the allocation went past the limit, and its text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over_text: Option<String>,
}

/// The stage of one whole inference of a model that makes no tokens (TFLite `benchmark_model`'s
/// average): the run's latency, which the verdict reports where there is no decode speed.
pub const INFERENCE_STAGE: &str = "inference";

/// One timed stage: its total, and how many passes it took when printed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    pub ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms_per_run: Option<f64>,
}

/// Where a run's layers went between the CPU and an accelerator, as the log states it. Each
/// field is absent when the log does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Offload {
    /// Layers on the accelerator: llama.cpp `offloaded N/M layers to GPU` (also the 2023
    /// `[cublas] offloading N layers to GPU`), ollama's `layers.offload`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_layers: Option<u32>,
    /// The model's layers counting the output layer: the M of `N/M`, ollama's `layers.model`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_layers: Option<u32>,
    /// Layers asked for: `-ngl` / `--n-gpu-layers` / `n_gpu_layers`, ollama's
    /// `layers.requested` (-1 there means as many as fit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<i64>,
    /// Percent of the loaded model held in system RAM (`ollama ps`: `48%/52% CPU/GPU`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_pct: Option<f64>,
    /// Accelerator memory free when the layers were placed, bytes (ollama's
    /// `memory.available`, summed over its GPUs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vram_free_bytes: Option<u64>,
    /// Memory the whole model needs on the accelerator, bytes (ollama's `memory.required.full`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_bytes: Option<u64>,
    /// Of that, the KV cache the context needs, bytes (ollama's `memory.required.kv`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_bytes: Option<u64>,
    /// The accelerator library the placement was for (ollama's `offload to cuda`: `cuda`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// The GPU backend a command line or koboldcpp's start-up options chose (`--usecublas`),
    /// whatever the layer count; `requested` is then the layers it asked for, `None` when the
    /// option was left at its default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_flag: Option<String>,
    /// The line of a pasted llama.cpp command (`./main -m …`, `llama-server -m …`), when there
    /// is one: with no `-ngl` in it, `requested` stays `None`, and llama.cpp places no layer on
    /// the GPU (its default is 0 layers unless `-ngl` or `--fit on` is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_line: Option<u64>,
    /// The GPU backend a pasted build command enabled (`-DGGML_CUDA=ON`): the GPU the command's
    /// default of no layers then leaves idle, when the log names no device.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_build: Option<String>,
    /// Why no accelerator took any layer, when the log says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_gpu: Option<NoGpu>,
    /// The line that states the placement (or the missing GPU), and its text, for the quote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl Offload {
    /// Every layer on the accelerator, as the run counts them (`offloaded 33/33 layers to GPU`).
    pub fn all_layers(&self) -> bool {
        matches!((self.gpu_layers, self.model_layers), (Some(g), Some(m)) if m > 0 && g >= m)
    }
}

/// llama.cpp's `graph splits = N`: the pieces ggml's scheduler cut the graph into, one per run
/// of nodes on the same backend. Each boundary copies the activations and waits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphSplits {
    /// Decode's count: the `bs=1` figure when the line gives two.
    pub decode: u32,
    pub line: u64,
    pub text: String,
}

/// Why a log says the accelerator took nothing: the fixes differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoGpu {
    /// The binary has no GPU backend ("not compiled with GPU offload support").
    NotCompiled,
    /// A GPU build found no usable device ("no usable GPU found", ollama's "no compatible GPUs
    /// were discovered", its `inference compute` with `library=cpu`).
    NotFound,
    /// The GPU's driver is older than the CUDA runtime the build ships (CUDA error 35,
    /// `CUDA driver version is insufficient for CUDA runtime version`, ollama's "your nvidia
    /// driver is too old or missing"): the runtime does not start.
    DriverTooOld,
    /// The x86 CPU lacks the vector extensions (AVX) the GPU runners are built with, so the
    /// server turned GPU inference off (ollama's "CPU does not have minimum vector extensions").
    CpuVectors,
    /// ollama planned layers for a GPU but started a CPU runner (`runners/cpu_avx2/
    /// ollama_llama_server`): the build holds no runner for that GPU (a source build that did
    /// not find the CUDA or ROCm toolkit), so every layer ran on the CPU.
    CpuRunner,
    /// The configuration turned the GPU off (ollama's `OLLAMA_LLM_LIBRARY=cpu`,
    /// `CUDA_VISIBLE_DEVICES=-1`).
    Disabled,
}

/// What a time series measures. Values are stored in the unit named here, converted on ingest.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "quantity", rename_all = "kebab-case")]
pub enum Quantity {
    /// MHz, of one CPU.
    CpuFreq { cpu: u32 },
    /// MHz, of a GPU or another named clock.
    ClockFreq { name: String },
    /// °C, of a named sensor (thermal zone type, column name).
    Temperature { sensor: String },
    /// mW, of a named rail or the whole device.
    Power { rail: String },
    /// mA; the sign convention of the source is kept as is (sources disagree).
    Current { rail: String },
    /// mV.
    Voltage { rail: String },
    /// Percent.
    BatteryLevel,
    /// 1 plugged / charging, 0 on battery.
    Charging,
    /// Percent busy, of one CPU.
    CpuLoad { cpu: u32 },
    /// Tokens per second (decode unless the source says otherwise).
    TokensPerSecond,
    /// Percent busy of a named unit that is not one CPU (GPU, whole CPU, NPU).
    Utilization { name: String },
    /// 1 while the source says a throttle / limit reason is active, else 0. `reason` is the
    /// source's own name for it (`clocks_throttle_reasons.sw_power_cap`, `Core Thermal
    /// Throttling`, `under-voltage`, ...); rules classify it as thermal or power by its words.
    ThrottleFlag { reason: String },
    /// Anything else, by its source column name, in its source unit.
    Other {
        name: String,
        /// Absent when read back flattened beside a report's own `unit` (see `SeriesWire`).
        #[serde(default)]
        unit: String,
    },
}

impl Quantity {
    /// The unit values are stored in.
    pub fn unit(&self) -> &str {
        match self {
            Quantity::CpuFreq { .. } | Quantity::ClockFreq { .. } => "MHz",
            Quantity::Temperature { .. } => "°C",
            Quantity::Power { .. } => "mW",
            Quantity::Current { .. } => "mA",
            Quantity::Voltage { .. } => "mV",
            Quantity::BatteryLevel | Quantity::CpuLoad { .. } | Quantity::Utilization { .. } => "%",
            Quantity::Charging | Quantity::ThrottleFlag { .. } => "",
            Quantity::TokensPerSecond => "tok/s",
            Quantity::Other { unit, .. } => unit,
        }
    }
}

/// One time series on the common time axis (seconds from the start of its source, unless the
/// source gives absolute time, then seconds since the Unix epoch; `absolute` says which).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    #[serde(flatten)]
    pub quantity: Quantity,
    pub input: InputId,
    /// The column or field the values came from, verbatim.
    pub source: String,
    pub absolute: bool,
    /// (time s, value), time non-decreasing. Bounded by the ingest's point budget.
    pub points: Vec<(f64, f64)>,
}

/// Most points kept per series on ingest. Beyond it, neighbouring buckets merge (see
/// [`SeriesBuilder`]); a 24 h run at 1 Hz keeps about 4 s resolution with its peaks.
pub const SERIES_POINT_BUDGET: usize = 16_384;

/// A bucket being filled: its minimum point, maximum point and sample count.
type OpenBucket = ((f64, f64), (f64, f64), usize);

/// Collects the points of one series within [`SERIES_POINT_BUDGET`], keeping each bucket's
/// minimum and maximum (in time order) so that peaks and dips survive downsampling.
#[derive(Debug, Clone)]
pub struct SeriesBuilder {
    budget: usize,
    /// Raw samples per bucket; doubles each time the kept points reach the budget.
    per_bucket: usize,
    kept: Vec<(f64, f64)>,
    /// The bucket being filled: (min point, max point, samples in it).
    open: Option<OpenBucket>,
    last_t: f64,
}

impl Default for SeriesBuilder {
    fn default() -> Self {
        Self::with_budget(SERIES_POINT_BUDGET)
    }
}

impl SeriesBuilder {
    pub fn with_budget(budget: usize) -> Self {
        SeriesBuilder {
            budget: budget.max(4) & !1,
            per_bucket: 1,
            kept: Vec::new(),
            open: None,
            last_t: f64::NEG_INFINITY,
        }
    }

    /// Adds one sample. Non-finite values and times that go backwards are dropped: a series'
    /// time never decreases.
    pub fn push(&mut self, t: f64, v: f64) {
        if !t.is_finite() || !v.is_finite() || t < self.last_t {
            return;
        }
        self.last_t = t;
        let (lo, hi, n) = match self.open.take() {
            None => ((t, v), (t, v), 0),
            Some((lo, hi, n)) => (
                if v < lo.1 { (t, v) } else { lo },
                if v > hi.1 { (t, v) } else { hi },
                n,
            ),
        };
        if n + 1 >= self.per_bucket {
            self.emit(lo, hi);
        } else {
            self.open = Some((lo, hi, n + 1));
        }
    }

    fn emit(&mut self, lo: (f64, f64), hi: (f64, f64)) {
        if lo == hi {
            self.kept.push(lo);
        } else if lo.0 <= hi.0 {
            self.kept.extend([lo, hi]);
        } else {
            self.kept.extend([hi, lo]);
        }
        if self.kept.len() >= self.budget {
            self.kept = minmax_merge(&self.kept);
            self.per_bucket *= 2;
        }
    }

    pub fn len(&self) -> usize {
        self.kept.len() + usize::from(self.open.is_some())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn finish(mut self) -> Vec<(f64, f64)> {
        if let Some((lo, hi, _)) = self.open.take() {
            self.emit(lo, hi);
        }
        self.kept
    }
}

/// Halves a point list: every four consecutive points become the minimum and the maximum among
/// them, in time order.
fn minmax_merge(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() / 2 + 2);
    for group in points.chunks(4) {
        let lo = group
            .iter()
            .copied()
            .fold(group[0], |a, p| if p.1 < a.1 { p } else { a });
        let hi = group
            .iter()
            .copied()
            .fold(group[0], |a, p| if p.1 > a.1 { p } else { a });
        if lo == hi {
            out.push(lo);
        } else if lo.0 <= hi.0 {
            out.extend([lo, hi]);
        } else {
            out.extend([hi, lo]);
        }
    }
    out
}

/// Downsamples a point list to at most about `max_points`, keeping min and max per bucket.
pub fn downsample(points: &[(f64, f64)], max_points: usize) -> Vec<(f64, f64)> {
    if points.len() <= max_points.max(2) {
        return points.to_vec();
    }
    let buckets = (max_points / 2).max(1);
    let per = points.len().div_ceil(buckets);
    let mut out = Vec::with_capacity(buckets * 2);
    for group in points.chunks(per) {
        let lo = group
            .iter()
            .copied()
            .fold(group[0], |a, p| if p.1 < a.1 { p } else { a });
        let hi = group
            .iter()
            .copied()
            .fold(group[0], |a, p| if p.1 > a.1 { p } else { a });
        if lo == hi {
            out.push(lo);
        } else if lo.0 <= hi.0 {
            out.extend([lo, hi]);
        } else {
            out.extend([hi, lo]);
        }
    }
    out
}

/// A line saying the run failed (crash, abort, load error, OOM, backend mismatch).
#[derive(Debug, Clone, PartialEq)]
pub struct FailureLine {
    pub input: InputId,
    pub line: u64,
    pub class: FailureClass,
    /// The line verbatim, clipped to [`MAX_QUOTE_CHARS`].
    pub text: String,
}

/// Failure lines kept per input (the first ones: the cause comes before the aftermath).
pub const MAX_FAILURE_LINES: usize = 8;

/// How a delegate or execution provider split a graph with the CPU, as the runtime announced it
/// (`ingest::delegate_partition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// The delegate or execution provider, as the line names it (`TfLiteGpuDelegateV2`, `NNAPI`).
    pub delegate: String,
    /// Nodes the delegate took.
    pub delegated: u32,
    /// Nodes in the graph; the TFLite builds before the `out of` wording do not say.
    pub total: Option<u32>,
    /// Partitions the graph was cut into (TFLite counts the delegate's and the CPU's runs of
    /// nodes; ONNX Runtime only the delegate's); the Hexagon delegate's older line omits it.
    pub partitions: Option<u32>,
}

impl Partition {
    /// A delegate that runs on the CPU itself (XNNPACK): the nodes it leaves run on the
    /// built-in CPU kernels, with no hand-over between memories.
    pub fn on_cpu(&self) -> bool {
        runs_on_cpu(&self.delegate)
    }

    /// Nodes left to the CPU, when the total is known.
    pub fn cpu_nodes(&self) -> Option<u32> {
        self.total.map(|t| t.saturating_sub(self.delegated))
    }
}

/// Whether a delegate or execution provider, by name, runs on the CPU itself: XNNPACK, Flex
/// (TensorFlow's own kernels for the ops TFLite lacks), and ONNX Runtime's CPU, DNNL, ACL and
/// ArmNN providers run on the same cores as the built-in kernels.
pub fn runs_on_cpu(name: &str) -> bool {
    let d = name.trim().to_ascii_lowercase();
    d == "cpu"
        || [
            "xnnpack",
            "flex",
            "cpuexecution",
            "dnnlexecution",
            "aclexecution",
            "armnnexecution",
        ]
        .iter()
        .any(|c| d.contains(c))
}

/// The delegate ExecuTorch's delegation summary is recorded under: it names no backend.
pub const EXECUTORCH_SPLIT: &str = "ExecuTorch";

/// A [`Partition`] where it was announced.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionLine {
    pub input: InputId,
    pub line: u64,
    pub split: Partition,
    /// The line verbatim, clipped to [`MAX_QUOTE_CHARS`].
    pub text: String,
}

/// Partition announcements kept per input: ONNX Runtime asks each provider more than once per
/// session, and only the last answer stands.
pub const MAX_PARTITION_LINES: usize = 16;

#[derive(Debug, Default)]
pub struct Evidence {
    pub inputs: Vec<InputFacts>,
    pub runs: Vec<Run>,
    pub series: Vec<Series>,
    pub fallbacks: Vec<FallbackGroup>,
    /// Lines that say a run failed, the first [`MAX_FAILURE_LINES`] per input.
    pub failures: Vec<FailureLine>,
    /// Graph splits between a delegate and the CPU, the first [`MAX_PARTITION_LINES`] per input.
    pub partitions: Vec<PartitionLine>,
    /// Operator profiles, the first [`op_profile::MAX_PROFILES`] per input.
    pub op_profiles: Vec<op_profile::OpProfile>,
    /// Where threads ran, and the CPU topology hints (traces, /proc/cpuinfo).
    pub sched: sched::SchedEvidence,
    fallback_index: HashMap<(FallbackClass, String), usize>,
    /// What the page's bandwidth probe measured on the device running the browser, when it ran.
    pub device: Option<DeviceProbe>,
    /// The user says the inputs were recorded on the device that ran the probe. Without it the
    /// probe is only a reference: a desktop's bandwidth is no ceiling for a phone's log.
    pub inputs_from_probe_device: bool,
    /// Supply, USB, thermal and OOM events from kernel logs, in input order.
    pub kernel_events: Vec<KernelEvent>,
    /// Power modes that status dumps state (Jetson `nvpmodel -q`, `jetson_clocks --show`).
    pub power_modes: Vec<PowerMode>,
    /// CPU clock readings that status tools print (`cpufreq-info`, `cpupower frequency-info`).
    pub cpu_clocks: Vec<CpuClockReading>,
    /// GPU rows of `nvidia-smi`'s default table, one per GPU and table.
    pub gpu_states: Vec<GpuState>,
    /// Process and system memory from snapshots (top, dumpsys meminfo, /proc, free).
    pub memory: memory::MemoryEvidence,
    /// Counter summaries (`perf stat`, `simpleperf stat`).
    pub counters: counters::CounterEvidence,
    /// The user's choice of which runs are compared with which, and against which reference.
    pub compare: CompareChoice,
}

/// A board power mode as a status dump names it.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerMode {
    pub input: InputId,
    pub line: u64,
    /// As printed: `MAXN`, `15W`, `MODE_10W_DESKTOP`.
    pub name: String,
    /// The mode's number (`nvpmodel -q` prints it on the next line).
    pub id: Option<u32>,
    /// The line verbatim.
    pub text: String,
    /// Who states the mode, which says what its names mean.
    pub family: ModeFamily,
    /// Where the mode stands among its family's published modes.
    pub level: ModeLevel,
}

/// The family of a stated power mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeFamily {
    /// Jetson `nvpmodel`: every mode but `MAXN` holds a board power budget.
    Jetson,
    /// An operating system's power plan or profile (Android battery saver, Linux
    /// power-profiles-daemon and ACPI platform_profile, macOS `pmset`, Windows `powercfg`).
    Os,
    /// An NPU runtime's performance profile (QNN / Genie HTP `perf_profile`, `power_mode`).
    Npu,
}

/// A mode's place in its family: the fastest, the default middle ground, or a saving mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeLevel {
    Max,
    Balanced,
    Saver,
    /// The family's name for it does not say (a Jetson mode other than `MAXN`).
    Unknown,
}

/// One CPU's clock as a status tool printed it, in MHz.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuClockReading {
    pub input: InputId,
    /// The line of the current frequency.
    pub line: u64,
    /// The current-frequency line verbatim.
    pub text: String,
    /// The CPU it is about (`analyzing CPU 3:`), when stated.
    pub cpu: Option<u32>,
    pub cur_mhz: f64,
    /// The silicon's range (`hardware limits: 400 MHz - 4.70 GHz`).
    pub hw_min_mhz: Option<f64>,
    pub hw_max_mhz: Option<f64>,
    /// The governor of the current policy (`The governor "performance" may decide ...`).
    pub governor: Option<String>,
}

/// One GPU's row of `nvidia-smi`'s default table.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuState {
    pub input: InputId,
    /// The line of the row with the performance state, power and memory.
    pub line: u64,
    pub text: String,
    /// The GPU's index (the first column of the name row), else its order in the table.
    pub gpu: u32,
    pub name: Option<String>,
    /// The performance state: 0 (P0, the fastest) to 12.
    pub pstate: Option<u32>,
    pub util_pct: Option<f64>,
    pub draw_w: Option<f64>,
    pub cap_w: Option<f64>,
    pub mem_used_mib: Option<f64>,
    pub mem_total_mib: Option<f64>,
    /// Compute processes (`C`, `C+G`) the processes table lists on this GPU; `None` when no
    /// processes table was read.
    pub compute_processes: Option<u32>,
    /// The first compute process's name, as the table prints it.
    pub process: Option<String>,
}

/// What the user chose in the compare view, by input name. Inputs it does not name are grouped
/// automatically (see `diagnose::compare_groups`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompareChoice {
    /// Groups the user formed or kept: each is compared within itself.
    #[serde(default)]
    pub groups: Vec<Vec<String>>,
    /// Inputs left out of every comparison.
    #[serde(default)]
    pub excluded: Vec<String>,
    /// The reference (device A) of the group each of these inputs is in.
    #[serde(default)]
    pub reference: Vec<String>,
}

/// What a kernel log line reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelEventKind {
    UnderVoltage,
    VoltageNormal,
    /// A USB reset, disconnect, enumeration error or over-current.
    Usb,
    /// The kernel says it throttled the CPU or a thermal zone tripped.
    ThermalThrottle,
    OomKill,
}

/// One kernel log event, where it was and when the kernel stamped it.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelEvent {
    pub input: InputId,
    pub line: u64,
    /// Seconds since boot (`[  123.456]`), when the line says.
    pub boot_s: Option<f64>,
    /// The wall-clock stamp as printed (`dmesg -T`, journalctl), when there is one.
    pub stamp: Option<String>,
    /// That stamp as Unix seconds, when it gives the year (`dmesg -T`, `journalctl -o
    /// short-iso`): local time as printed, the way telemetry clocks without a zone are read.
    pub wall_s: Option<f64>,
    pub kind: KernelEventKind,
    /// The zone, CPU or process named.
    pub subject: Option<String>,
    pub text: String,
}

/// Most sustained-mode samples kept (5 minutes at one per second is 300).
pub const MAX_SUSTAINED_POINTS: usize = 10_000;

/// The bandwidth probe's results ("Measure this device"), given to the analysis by the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct DeviceProbe {
    /// Best aggregate read bandwidth over the worker sweep, GB/s.
    pub read_gbps_best: f64,
    #[serde(default)]
    pub read_gbps_1w: Option<f64>,
    #[serde(default)]
    pub q4_gbps_best: Option<f64>,
    /// Sustained mode: (seconds since start, kernel GB/s), in time order.
    #[serde(default)]
    pub sustained: Vec<(f64, f64)>,
}

impl DeviceProbe {
    /// Keeps only what a rule can trust: finite, non-negative figures and time-ordered samples.
    pub fn sanitized(mut self) -> DeviceProbe {
        let ok = |v: f64| v.is_finite() && v >= 0.0;
        if !ok(self.read_gbps_best) {
            self.read_gbps_best = 0.0;
        }
        self.read_gbps_1w = self.read_gbps_1w.filter(|v| ok(*v));
        self.q4_gbps_best = self.q4_gbps_best.filter(|v| ok(*v));
        let mut last = f64::NEG_INFINITY;
        self.sustained.retain(|&(t, v)| {
            let keep = ok(t) && ok(v) && t >= last;
            if keep {
                last = t;
            }
            keep
        });
        self.sustained.truncate(MAX_SUSTAINED_POINTS);
        self
    }
}

impl Evidence {
    /// The probe, when its figures may be applied to the inputs: the user said they came from
    /// the device that ran it, or there are no inputs (the probe then speaks of itself).
    pub fn probe_for_inputs(&self) -> Option<&DeviceProbe> {
        self.device
            .as_ref()
            .filter(|_| self.inputs_from_probe_device || self.inputs.is_empty())
    }

    pub fn add_input(&mut self, name: &str) -> InputId {
        self.inputs.push(InputFacts {
            name: name.to_string(),
            kind: None,
            framework: None,
            bytes: 0,
            lines: 0,
            encoding: None,
            compression: None,
            problems: Vec::new(),
            asks_fp16: None,
            names_card: false,
        });
        self.inputs.len() - 1
    }

    pub fn problem(&mut self, input: InputId, code: ProblemCode, line: Option<u64>) {
        let problems = &mut self.inputs[input].problems;
        let p = Problem {
            code,
            line,
            lines: None,
            count: None,
        };
        if !problems.contains(&p) {
            problems.push(p);
        }
    }

    /// A problem about lines: reported with their count and the first few of them.
    pub fn problem_lines(&mut self, input: InputId, code: ProblemCode, lines: &SkippedLines) {
        if lines.is_empty() {
            return;
        }
        self.inputs[input].problems.push(Problem {
            code,
            line: lines.first.first().map(|(n, _)| *n),
            lines: Some(lines.clone()),
            count: None,
        });
    }

    /// A problem about `count` things (not lines), the first of them at `line`.
    pub fn problem_count(
        &mut self,
        input: InputId,
        code: ProblemCode,
        line: Option<u64>,
        count: u64,
    ) {
        self.inputs[input].problems.push(Problem {
            code,
            line,
            lines: None,
            count: Some(count),
        });
    }

    /// Records one fallback line under its normalized message.
    pub fn add_failure(&mut self, input: InputId, line: u64, class: FailureClass, text: &str) {
        if self.failures.iter().filter(|f| f.input == input).count() < MAX_FAILURE_LINES {
            self.failures.push(FailureLine {
                input,
                line,
                class,
                text: clip(text),
            });
        }
    }

    pub fn add_partition(&mut self, input: InputId, line: u64, split: Partition, text: &str) {
        if self.partitions.iter().filter(|p| p.input == input).count() < MAX_PARTITION_LINES {
            self.partitions.push(PartitionLine {
                input,
                line,
                split,
                text: clip(text),
            });
        }
    }

    pub fn add_op_profile(&mut self, profile: op_profile::OpProfile) {
        let input = profile.input;
        if self.op_profiles.iter().filter(|p| p.input == input).count() < op_profile::MAX_PROFILES {
            self.op_profiles.push(profile);
        }
    }

    pub fn add_fallback(
        &mut self,
        class: FallbackClass,
        key: String,
        message: &str,
        at: Occurrence,
        quote: &str,
    ) {
        let idx = match self.fallback_index.get(&(class, key.clone())) {
            Some(&i) => i,
            None if self.fallbacks.len() >= MAX_FALLBACK_GROUPS => {
                self.problem(
                    at.input,
                    ProblemCode::TooManyFallbackMessages,
                    Some(at.line),
                );
                return;
            }
            None => {
                self.fallbacks.push(FallbackGroup {
                    class,
                    key: key.clone(),
                    message: clip(message),
                    count: 0,
                    occurrences: Vec::new(),
                    quotes: Vec::new(),
                });
                self.fallback_index
                    .insert((class, key), self.fallbacks.len() - 1);
                self.fallbacks.len() - 1
            }
        };
        let g = &mut self.fallbacks[idx];
        g.count += 1;
        if g.quotes.len() < MAX_QUOTES_PER_GROUP {
            g.quotes.push((at.clone(), clip(quote)));
        }
        if g.occurrences.len() < MAX_LINES_PER_GROUP {
            g.occurrences.push(at);
        }
    }
}

/// Trims a line to a quotable length, on a character boundary.
pub fn clip(text: &str) -> String {
    let t = text.trim_end();
    match t.char_indices().nth(MAX_QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &t[..cut]),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod series_tests {
    use super::*;

    #[test]
    fn builder_keeps_budget_and_peaks() {
        let mut b = SeriesBuilder::with_budget(64);
        for i in 0..10_000 {
            let v = if i == 7_777 {
                500.0
            } else if i == 3_333 {
                -50.0
            } else {
                (i % 10) as f64
            };
            b.push(i as f64, v);
        }
        let pts = b.finish();
        assert!(pts.len() <= 64, "{} points", pts.len());
        assert!(pts.iter().any(|p| p.1 == 500.0 && p.0 == 7_777.0));
        assert!(pts.iter().any(|p| p.1 == -50.0 && p.0 == 3_333.0));
        assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0));
    }

    #[test]
    fn builder_drops_backwards_and_nan() {
        let mut b = SeriesBuilder::default();
        b.push(1.0, 1.0);
        b.push(0.5, 2.0);
        b.push(2.0, f64::NAN);
        b.push(3.0, 3.0);
        assert_eq!(b.finish(), vec![(1.0, 1.0), (3.0, 3.0)]);
    }

    #[test]
    fn downsample_keeps_extremes() {
        let pts: Vec<(f64, f64)> = (0..1000)
            .map(|i| (i as f64, if i == 500 { 9.0 } else { 0.0 }))
            .collect();
        let d = downsample(&pts, 100);
        assert!(d.len() <= 100);
        assert!(d.contains(&(500.0, 9.0)));
    }
}

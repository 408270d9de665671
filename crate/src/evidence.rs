//! The normalized store that ingest fills and the rules read: what each input is, the problems
//! met while reading it, the runs found, and the fallback warnings grouped by message.
//!
//! Everything here is bounded by what the evidence needs, not by the size of the inputs.

pub mod sched;

use crate::ingest::fallback_phrases::FallbackClass;
use crate::sniff::{Framework, InputKind, Rejection};
use serde::Serialize;
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemCode {
    Rejected(Rejection),
    /// A text file with no known framework markers; it is still scanned for fallbacks.
    UnknownLog,
    /// Lines longer than the limit were cut.
    LongLinesCut,
    /// Recognized, but this build does not analyze this kind yet.
    KindNotAnalyzed,
    /// More distinct fallback messages than tracked.
    TooManyFallbackMessages,
    /// Trace lines that matched no known event, header or callchain shape.
    TraceLinesSkipped,
    /// More threads than tracked; the rest are counted only.
    TooManyThreads,
    /// A binary perf.data larger than the in-memory limit.
    PerfDataTooLarge,
    /// A binary perf.data that could not be read (the message names the cause).
    PerfDataInvalid,
}

impl ProblemCode {
    /// The catalogue key suffix: `problem.<key>`.
    pub fn key(self) -> String {
        match self {
            ProblemCode::Rejected(r) => format!("rejected.{}", r.key()),
            ProblemCode::UnknownLog => "unknown-log".into(),
            ProblemCode::LongLinesCut => "long-lines-cut".into(),
            ProblemCode::KindNotAnalyzed => "kind-not-analyzed".into(),
            ProblemCode::TooManyFallbackMessages => "too-many-fallback-messages".into(),
            ProblemCode::TraceLinesSkipped => "trace-lines-skipped".into(),
            ProblemCode::TooManyThreads => "too-many-threads".into(),
            ProblemCode::PerfDataTooLarge => "perf-data-too-large".into(),
            ProblemCode::PerfDataInvalid => "perf-data-invalid".into(),
        }
    }
}

/// What is known about one input.
#[derive(Debug, Clone)]
pub struct InputFacts {
    pub name: String,
    pub kind: Option<InputKind>,
    pub framework: Option<Framework>,
    pub bytes: u64,
    pub lines: u64,
    pub problems: Vec<Problem>,
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
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BenchRow {
    pub test: String,
    pub tok_s: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stddev: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads: Option<u32>,
}

/// The facts of one inference run, as its log states them. Every field but `input` is absent
/// when the log does not say; nothing is guessed. Framework parsers fill these in.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
    // --- threads and CPU
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_threads_batch: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hw_threads: Option<u32>,
    /// Flag -> on. A flag absent from the map is unknown, unless the format says absent means off.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cpu_features: BTreeMap<String, bool>,
    // --- memory
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub buffers_mib: BTreeMap<String, f64>,
    // --- speed
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode: Option<Phase>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bench: Vec<BenchRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_ms: Option<f64>,
}

/// What a time series measures. Values are stored in the unit named here, converted on ingest.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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
    /// Anything else, by its source column name, in its source unit.
    Other { name: String, unit: String },
}

/// One time series on the common time axis (seconds from the start of its source, unless the
/// source gives absolute time, then seconds since the Unix epoch; `absolute` says which).
#[derive(Debug, Clone, PartialEq, Serialize)]
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

#[derive(Debug, Default)]
pub struct Evidence {
    pub inputs: Vec<InputFacts>,
    pub runs: Vec<Run>,
    pub series: Vec<Series>,
    pub fallbacks: Vec<FallbackGroup>,
    /// Where threads ran, and the CPU topology hints (traces, /proc/cpuinfo).
    pub sched: sched::SchedEvidence,
    fallback_index: HashMap<(FallbackClass, String), usize>,
}

impl Evidence {
    pub fn add_input(&mut self, name: &str) -> InputId {
        self.inputs.push(InputFacts {
            name: name.to_string(),
            kind: None,
            framework: None,
            bytes: 0,
            lines: 0,
            problems: Vec::new(),
        });
        self.inputs.len() - 1
    }

    pub fn problem(&mut self, input: InputId, code: ProblemCode, line: Option<u64>) {
        let problems = &mut self.inputs[input].problems;
        let p = Problem { code, line };
        if !problems.contains(&p) {
            problems.push(p);
        }
    }

    /// Records one fallback line under its normalized message.
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

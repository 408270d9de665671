//! Tables that users type or paste to show a sweep: `threads | tok/s`, `quant | size GB | tok/s`,
//! `power mode | decode`, `trial | t/s`, as markdown pipes (with or without the `|---|` rule),
//! plain pipes, TSV, CSV, semicolons or whitespace-aligned columns, inside prose, a `> ` quote
//! or a fence (the log reader unwraps those).
//!
//! The header names the columns, from a vocabulary in English and Chinese (threads / `-t` /
//! `n_threads` / 线程; quant / type / 量化; size with its unit; params; tok/s, t/s, TPS, it/s,
//! tokens per second, ms per token (inverted); pp / tg / prefill / decode / prompt / eval;
//! power mode / profile / nvpmodel; trial / run / #; time; temperature; W; J per token). Cells
//! may carry units (`12.3 t/s`, `4.1 GB`), emphasis and a spread (`12.3 ± 0.4`).
//!
//! What a table becomes depends on what varies down it:
//! - thread counts: one run whose bench rows carry `n_threads` (per quant or model, when those
//!   vary too), which the thread-sweep rule reads;
//! - anything else (quant, model, size, power mode, trial, or nothing): one run per row, with
//!   the row's line, its decode (and prefill) speed and what the row names.
//!
//! llama-bench's and llm_bench's own tables (a `test` column) are left to their readers. A table
//! with a speed column and no column that says what changed is noted, so the report can show its
//! header when no reader turned it into a run.

use super::bench_table::{param_count, quant_of_model_column, size_bytes};
use super::runs::{quant_from_name, RunCollector};
use super::FrameworkParser;
use crate::evidence::{BenchRow, Framework, Phase, Run};
use crate::ingest::delimited::{fields, Delim};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Literals one of which a header line contains: its speed column's words.
pub const KEYWORDS: &[&str] = &[
    "tok",
    "t/s",
    "tps",
    "it/s",
    "speed",
    "ms/",
    "ms per",
    "per second",
    "throughput",
    "decode",
    "prefill",
    "prompt",
    "eval",
    "gen",
    "pp",
    "tg",
    "rate",
    "速度",
    "解码",
    "预填充",
    "生成",
    "吞吐",
];

/// Rows kept per table: a typed sweep has a handful.
const MAX_ROWS: usize = 256;
/// Tables without a mapping that are noted per input.
const MAX_NOT_MAPPED: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ph {
    Prefill,
    Decode,
    /// A speed column that names no phase: users' sweep tables show the generation speed.
    Any,
    /// A total or end-to-end figure, which mixes both: not read.
    Mixed,
}

#[derive(Debug, Clone, PartialEq)]
enum Col {
    Threads,
    Quant,
    Model,
    /// The unit the header gives (`size (GB)`), else the cells carry it.
    Size(Option<&'static str>),
    Params,
    Speed {
        phase: Ph,
        per_token: bool,
        /// A test name the header gives (`pp512`, `tg128`).
        test: Option<String>,
        /// A quant the header gives (`W4A16 (TPS)`, `Q4_K_M t/s`): a table that sweeps quants
        /// across its columns, one model per row.
        quant: Option<String>,
    },
    Mode,
    Trial,
    Time,
    Temp,
    Watts,
    Energy,
    /// Known, and not needed (backend, context, notes).
    Ignored,
    Unknown,
}

impl Col {
    fn is_variable(&self) -> bool {
        matches!(
            self,
            Col::Threads
                | Col::Quant
                | Col::Model
                | Col::Size(_)
                | Col::Params
                | Col::Mode
                | Col::Trial
                | Col::Time
        )
    }
    fn numeric(&self) -> bool {
        matches!(
            self,
            Col::Threads
                | Col::Size(_)
                | Col::Speed { .. }
                | Col::Temp
                | Col::Watts
                | Col::Energy
                | Col::Params
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    Pipe,
    Char(char),
    /// Columns apart by two or more spaces (names may hold one space).
    Aligned,
    /// Single words, with unit words joined to the number before them.
    Words,
}

fn words_of(c: &str) -> Vec<&str> {
    c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '#'))
        .filter(|w| !w.is_empty())
        .collect()
}

fn has_word(words: &[&str], set: &[&str]) -> bool {
    words.iter().any(|w| set.contains(w))
}

/// A test word with its size: `pp512`, `tg128`.
fn test_word(words: &[&str], prefix: &str) -> Option<String> {
    words
        .iter()
        .find(|w| {
            w.strip_prefix(prefix)
                .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|w| w.to_string())
}

/// The column a header cell names.
fn classify(cell: &str) -> Col {
    let c = cell
        .trim()
        .trim_matches(|ch| ch == '*' || ch == '`' || ch == '_')
        .trim()
        .to_lowercase();
    let w = words_of(&c);
    let ws = w.as_slice();
    if c.is_empty() {
        return Col::Unknown;
    }
    let rate = [
        "/s",
        "/sec",
        "per second",
        "per sec",
        "速度",
        "吞吐",
        "throughput",
        "speed",
    ]
    .iter()
    .any(|u| c.contains(u))
        || has_word(ws, &["tps", "rate", "tok_s", "tokens_per_second", "toks"]);
    let per_token = ["ms/t", "ms per", "s/tok", "ms/it", "每token", "每 token"]
        .iter()
        .any(|u| c.contains(u))
        || has_word(ws, &["latency", "tpot", "itl"]);
    if ["线程", "核心数"].iter().any(|z| c.contains(z))
        || c == "-t"
        || c == "--threads"
        || w.iter().any(|x| x.starts_with("thread"))
        || has_word(
            ws,
            &[
                "n_threads",
                "num_thread",
                "num_threads",
                "nthreads",
                "nt",
                "cores",
                "#threads",
            ],
        ) && !rate
    {
        return Col::Threads;
    }
    let mixed = has_word(ws, &["total", "overall", "e2e", "combined", "end"]) || c.contains("总");
    let pre = test_word(ws, "pp");
    let dec = test_word(ws, "tg");
    let is_pre = pre.is_some()
        || has_word(
            ws,
            &["pp", "prefill", "prompt", "prefilling", "encode", "pre"],
        )
        || ["预填充", "提示", "首字"].iter().any(|z| c.contains(z));
    let is_dec = dec.is_some()
        || has_word(
            ws,
            &[
                "tg",
                "decode",
                "decoding",
                "eval",
                "gen",
                "generation",
                "generate",
                "output",
                "response",
            ],
        )
        || ["解码", "生成", "输出"].iter().any(|z| c.contains(z));
    let counts = has_word(
        ws,
        &[
            "tokens", "token", "n_prompt", "n_gen", "count", "length", "len", "ctx", "context",
        ],
    ) && !rate
        && !per_token;
    if (rate || per_token || is_pre || is_dec) && !counts {
        let phase = if mixed {
            Ph::Mixed
        } else if is_pre {
            Ph::Prefill
        } else if is_dec {
            Ph::Decode
        } else {
            Ph::Any
        };
        return Col::Speed {
            phase,
            per_token,
            test: if is_pre { pre } else { dec },
            quant: quant_from_name(cell.trim().trim_matches(|ch| ch == '*' || ch == '`'))
                .map(|q| q.to_ascii_uppercase()),
        };
    }
    if counts {
        return Col::Ignored;
    }
    let unit = if has_word(ws, &["gib"]) {
        Some("GiB")
    } else if has_word(ws, &["gb"]) {
        Some("GB")
    } else if has_word(ws, &["mib"]) {
        Some("MiB")
    } else if has_word(ws, &["mb"]) {
        Some("MB")
    } else {
        None
    };
    // A unit beside a word for the weights (`file GB`, `model GiB`) is their size too; not a
    // memory reading (`RAM GB`, `peak mem GB`), which holds the cache and buffers as well.
    let weights_word = has_word(ws, &["file", "model", "gguf", "weights", "disk"]);
    if has_word(ws, &["size", "filesize"])
        || ["大小", "体积"].iter().any(|z| c.contains(z))
        || (unit.is_some() && (w.len() == 1 || (w.len() == 2 && weights_word)))
    {
        return Col::Size(unit);
    }
    if has_word(ws, &["params", "parameters", "param"]) || c.contains("参数") {
        return Col::Params;
    }
    if has_word(
        ws,
        &[
            "quant",
            "quants",
            "quantization",
            "quantisation",
            "qtype",
            "type",
            "format",
            "precision",
            "dtype",
            "weights",
        ],
    ) || ["量化", "精度", "类型", "格式"]
        .iter()
        .any(|z| c.contains(z))
    {
        return Col::Quant;
    }
    if has_word(ws, &["model", "models", "file", "gguf", "checkpoint"]) || c.contains("模型") {
        return Col::Model;
    }
    if has_word(ws, &["w", "watts", "watt", "draw"]) || c.contains("功率") || c == "功耗 w" {
        return Col::Watts;
    }
    if has_word(
        ws,
        &["mode", "profile", "nvpmodel", "governor", "plan", "power"],
    ) || c.contains("模式")
        || c.contains("调速")
    {
        return Col::Mode;
    }
    if c.contains("j/tok") || c.contains("j/t") || has_word(ws, &["energy", "joules"]) {
        return Col::Energy;
    }
    if has_word(ws, &["temp", "temperature", "°c", "c"]) || c.contains("温度") || c.contains('℃')
    {
        return Col::Temp;
    }
    if has_word(
        ws,
        &[
            "trial",
            "trials",
            "run",
            "runs",
            "iteration",
            "iter",
            "#",
            "n",
            "no",
            "round",
            "pass",
            "attempt",
        ],
    ) || c == "#"
        || ["次数", "第几次", "轮", "序号", "次"]
            .iter()
            .any(|z| c.contains(z))
    {
        return Col::Trial;
    }
    if has_word(
        ws,
        &[
            "time",
            "elapsed",
            "minute",
            "minutes",
            "min",
            "t",
            "timestamp",
        ],
    ) || c.contains("时间")
    {
        return Col::Time;
    }
    if has_word(
        ws,
        &[
            "backend", "device", "ngl", "layers", "notes", "note", "comment", "comments", "batch",
            "n_batch", "fa", "os", "build", "commit", "date", "ram", "memory", "vram", "load",
            "ms", "s", "gpu", "cpu", "status", "ok",
        ],
    ) || c.contains("备注")
    {
        return Col::Ignored;
    }
    Col::Unknown
}

fn split_cells(line: &str, how: Split) -> Vec<String> {
    let t = line.trim();
    match how {
        Split::Pipe => {
            let inner = t.strip_prefix('|').unwrap_or(t);
            let inner = inner.strip_suffix('|').unwrap_or(inner);
            inner.split('|').map(|c| c.trim().to_string()).collect()
        }
        Split::Char(d) => fields(t, Delim::Char(d))
            .into_iter()
            .map(|c| c.trim().to_string())
            .collect(),
        Split::Aligned => {
            let mut out = Vec::new();
            let mut cur = String::new();
            let mut spaces = 0;
            for ch in t.chars() {
                if ch == ' ' || ch == '\t' {
                    spaces += if ch == '\t' { 2 } else { 1 };
                    continue;
                }
                if spaces >= 2 && !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                } else if spaces == 1 && !cur.is_empty() {
                    cur.push(' ');
                }
                spaces = 0;
                cur.push(ch);
            }
            if !cur.is_empty() {
                out.push(cur);
            }
            out
        }
        Split::Words => {
            let mut out: Vec<String> = Vec::new();
            let mut after_pm = false;
            for w in fields(t, Delim::Whitespace) {
                let unit = is_unit_word(&w);
                if after_pm || (unit && out.last().is_some_and(|p| starts_numeric(p))) {
                    if let Some(last) = out.last_mut() {
                        last.push(' ');
                        last.push_str(&w);
                    }
                    after_pm = matches!(w.as_str(), "±" | "+/-" | "+-");
                    continue;
                }
                after_pm = false;
                out.push(w);
            }
            out
        }
    }
}

fn is_unit_word(w: &str) -> bool {
    let l = w.to_lowercase();
    [
        "t/s", "tok/s", "tokens/s", "token/s", "tps", "it/s", "ms", "ms/tok", "ms/token", "ms/t",
        "gb", "gib", "mb", "mib", "w", "°c", "c", "℃", "j/tok", "±", "+/-", "+-", "s", "%",
    ]
    .contains(&l.as_str())
}

fn starts_numeric(s: &str) -> bool {
    s.trim_start_matches(['~', '≈', '<', '>'])
        .starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

/// A number cell: the value, its spread (`± 0.4`) and the words after it (`t/s`, `GB`).
fn value(cell: &str) -> Option<(f64, Option<f64>, String)> {
    static R: OnceLock<Regex> = OnceLock::new();
    let re = R.get_or_init(|| {
        Regex::new(
            r"^[~≈<>]?\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:(?:±|\+/-|\+-)\s*(\d+(?:\.\d+)?))?\s*(.*)$",
        )
        .expect("value pattern")
    });
    let c = cell
        .trim()
        .trim_matches(|ch| ch == '*' || ch == '`' || ch == '_')
        .trim();
    let m = re.captures(c)?;
    let v: f64 = m[1].parse().ok().filter(|v: &f64| v.is_finite())?;
    let sd = m.get(2).and_then(|s| s.as_str().parse().ok());
    Some((v, sd, m[3].trim().to_string()))
}

/// A cell that says the row gave no figure (`OOM`, `-`, `n/a`, `crash`).
fn is_blank(cell: &str) -> bool {
    let l = cell.trim().trim_matches('*').to_lowercase();
    l.is_empty()
        || [
            "-", "—", "–", "n/a", "na", "x", "?", "oom", "crash", "crashed", "failed", "fail",
            "err", "error", "timeout", "/",
        ]
        .contains(&l.as_str())
        || l.starts_with("oom")
        || l.starts_with("crash")
        || l.starts_with("fail")
}

/// The row marks the setting in use.
fn marks_default(cell: &str) -> bool {
    let l = cell.to_lowercase();
    [
        "default", "current", "stock", "默认", "当前", "←", "<-", "(*)",
    ]
    .iter()
    .any(|m| l.contains(m))
        || l.trim_end().ends_with('*')
}

/// A mode or quant name without the marker words around it.
fn bare_name(cell: &str) -> String {
    let mut s = cell.trim().trim_matches('`').to_string();
    for m in [
        "(default)",
        "(current)",
        "(stock)",
        "(默认)",
        "（默认）",
        "(当前)",
        "（当前）",
        "← current",
        "<- current",
        "← default",
        "(*)",
    ] {
        if let Some(at) = s.to_lowercase().find(m) {
            s.replace_range(at..at + m.len(), "");
        }
    }
    // A trailing `*` marks the default; a `**name**` pair is emphasis.
    let s = s.trim();
    let s = match s.strip_prefix("**").and_then(|x| x.strip_suffix("**")) {
        Some(inner) => inner,
        None => s.trim_end_matches('*'),
    };
    s.trim().to_string()
}

#[derive(Debug, Clone, Default)]
struct Row {
    line: u64,
    threads: Option<u32>,
    quant: Option<String>,
    model: Option<String>,
    bytes: Option<u64>,
    params: Option<f64>,
    /// (column, tok/s, spread, derived from a time per token)
    speeds: Vec<(usize, f64, Option<f64>, bool)>,
    mode: Option<String>,
    trial: Option<u32>,
    temp: Option<f64>,
    default: bool,
}

#[derive(Debug)]
struct Table {
    cols: Vec<Col>,
    how: Split,
    header_line: u64,
    header: String,
    last_line: u64,
    rows: Vec<Row>,
    /// Some column says what changed from row to row; without one the table is only watched.
    mapped: bool,
    /// Rows that fit the header's shape.
    fitting: usize,
}

pub struct SweepTable {
    framework: Framework,
    table: Option<Table>,
}

impl SweepTable {
    pub fn new(fw: Option<Framework>) -> Self {
        SweepTable {
            framework: fw.unwrap_or(Framework::Unknown),
            table: None,
        }
    }
}

/// How a header line splits, and its columns, when it is the header of a typed table.
fn header(msg: &str) -> Option<(Split, Vec<Col>)> {
    let t = msg.trim();
    if t.len() > 400 {
        return None;
    }
    let how = if t.contains('|') {
        Split::Pipe
    } else if t.contains('\t') {
        Split::Char('\t')
    } else if t.contains(',') {
        Split::Char(',')
    } else if t.contains(';') {
        Split::Char(';')
    } else if split_cells(t, Split::Aligned).len() >= 2 {
        Split::Aligned
    } else {
        Split::Words
    };
    let cells = split_cells(t, how);
    if !(2..=24).contains(&cells.len())
        || cells.iter().any(|c| {
            c.len() > 48
                || starts_numeric(c)
                || c.contains(": ")
                || c.contains('=')
                || c.eq_ignore_ascii_case("test")
                // MNN llm_bench `-kv true` names its test column so: a bench table's header.
                || c.eq_ignore_ascii_case("llm_demo")
        })
    {
        return None;
    }
    let cols: Vec<Col> = cells.iter().map(|c| classify(c)).collect();
    if !cols.iter().any(|c| matches!(c, Col::Speed { .. })) {
        return None;
    }
    let unknown = cols.iter().filter(|c| **c == Col::Unknown).count();
    let allowed = match how {
        Split::Pipe | Split::Char('\t') => cells.len(),
        Split::Char(_) | Split::Aligned => 1,
        Split::Words => 0,
    };
    if unknown > allowed || (how == Split::Words && cells.len() > 8) {
        return None;
    }
    // Prose in pipes or commas: a header is mostly names tokscope knows, or short words.
    if unknown * 2 > cells.len() + 1 {
        return None;
    }
    Some((how, cols))
}

/// Whether the first lines hold a sweep table's header: a speed column and a column that says
/// what changed (a time column alone is telemetry's).
pub fn looks_like(lines: &[&str]) -> bool {
    lines.iter().take(60).any(|l| {
        let m = crate::ingest::wrapper::unwrap(l).message.replace("**", "");
        header(&m).is_some_and(|(_, cols)| cols.iter().any(|c| c.is_variable() && *c != Col::Time))
    })
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.chars().any(|c| c == '-' || c == '=')
        && t.chars()
            .all(|c| matches!(c, '-' | ':' | '|' | ' ' | '\t' | '=' | '+'))
}

impl Table {
    /// Reads a row; `false` when the line is not one (the table ended).
    fn row(&mut self, msg: &str, at: u64) -> bool {
        let mut cells = split_cells(msg, self.how);
        if self.how == Split::Aligned && cells.len() != self.cols.len() {
            cells = split_cells(msg, Split::Words);
        }
        if self.how == Split::Pipe && !msg.contains('|') {
            return false;
        }
        if cells.len() != self.cols.len() {
            return false;
        }
        let mut row = Row {
            line: at,
            ..Row::default()
        };
        for (i, (col, cell)) in self.cols.iter().zip(&cells).enumerate() {
            let v = value(cell);
            if col.numeric() && v.is_none() && !is_blank(cell) {
                // A size or parameter count may be a word (`7B`); anything else ends the table.
                if !(matches!(col, Col::Params) && param_count(cell).is_some()) {
                    return false;
                }
            }
            if marks_default(cell) && col.is_variable() {
                row.default = true;
            }
            match col {
                Col::Threads => {
                    row.threads = first_int(cell).filter(|n| (1..=4096).contains(n));
                }
                Col::Quant => {
                    let name = bare_name(cell);
                    if !name.is_empty() {
                        row.quant = Some(name);
                    }
                }
                Col::Model => {
                    let name = bare_name(cell);
                    if !name.is_empty() {
                        row.quant = row
                            .quant
                            .take()
                            .or_else(|| quant_of_model_column(&name))
                            .or_else(|| quant_from_name(&name));
                        row.model = Some(name);
                    }
                }
                Col::Size(unit) => {
                    row.bytes = v.as_ref().and_then(|(n, _, u)| {
                        let unit = if u.is_empty() { (*unit)? } else { u.as_str() };
                        size_bytes(&format!("{n} {unit}"))
                    });
                }
                Col::Params => {
                    row.params = param_count(cell.trim()).or_else(|| {
                        v.as_ref()
                            .and_then(|(n, _, u)| param_count(&format!("{n}{u}")))
                    });
                }
                Col::Speed { per_token, .. } => {
                    if let Some((n, sd, unit)) = v {
                        let u = unit.to_lowercase();
                        let cell_per_token = u.starts_with("ms") || u.starts_with("s/");
                        let per = *per_token || cell_per_token;
                        let seconds = u.starts_with("s/") || u.starts_with("sec");
                        let tok_s = match (per, seconds) {
                            (true, true) if n > 0.0 => 1.0 / n,
                            (true, false) if n > 0.0 => 1000.0 / n,
                            (true, _) => continue,
                            (false, _) => n,
                        };
                        if tok_s > 0.0 && tok_s.is_finite() {
                            row.speeds
                                .push((i, tok_s, if per { None } else { sd }, per));
                        }
                    }
                }
                Col::Mode => {
                    let name = bare_name(cell);
                    if !name.is_empty() {
                        row.mode = Some(name);
                    }
                }
                Col::Trial => row.trial = first_int(cell),
                Col::Temp => row.temp = v.map(|(n, _, _)| n).filter(|t| *t > -40.0 && *t < 150.0),
                _ => {}
            }
        }
        self.fitting += 1;
        self.last_line = at;
        if self.rows.len() < MAX_ROWS {
            self.rows.push(row);
        }
        true
    }

    fn phase_of(&self, col: usize) -> Option<(Ph, Option<String>)> {
        match self.cols.get(col) {
            Some(Col::Speed { phase, test, .. }) => Some((*phase, test.clone())),
            _ => None,
        }
    }

    /// The row's decode and prefill speeds: the first column of each phase that has a figure,
    /// a phaseless speed counting as decode when no column names decode.
    fn phases(&self, row: &Row) -> (Option<Phase>, Option<Phase>) {
        let pick = |want: Ph| {
            row.speeds
                .iter()
                .find(|(c, ..)| self.phase_of(*c).is_some_and(|(p, _)| p == want))
                .map(|(_, v, _, derived)| Phase {
                    tok_s: Some(*v),
                    derived: *derived,
                    ..Phase::default()
                })
        };
        (
            pick(Ph::Decode).or_else(|| pick(Ph::Any)),
            pick(Ph::Prefill),
        )
    }

    fn flush(self, fw: Framework, runs: &mut RunCollector) {
        let rows: Vec<&Row> = self.rows.iter().filter(|r| !r.speeds.is_empty()).collect();
        if !self.mapped || rows.is_empty() {
            if self.fitting > 0 && runs.tables_not_mapped.len() < MAX_NOT_MAPPED {
                runs.tables_not_mapped.push((
                    self.header_line,
                    self.last_line,
                    self.header.clone(),
                ));
            }
            return;
        }
        let distinct = |f: &dyn Fn(&Row) -> Option<String>| {
            rows.iter()
                .filter_map(|r| f(r))
                .collect::<BTreeSet<_>>()
                .len()
        };
        let threads_vary = distinct(&|r| r.threads.map(|t| t.to_string())) >= 2;
        let timed = self
            .cols
            .iter()
            .any(|c| matches!(c, Col::Trial | Col::Time));
        if threads_vary {
            // One run per setting that is not the thread count.
            let key = |r: &Row| (r.quant.clone(), r.model.clone(), r.mode.clone(), r.bytes);
            let mut keys: Vec<_> = Vec::new();
            for r in &rows {
                if !keys.contains(&key(r)) {
                    keys.push(key(r));
                }
            }
            for k in keys {
                let group: Vec<&&Row> = rows.iter().filter(|r| key(r) == k).collect();
                let mut run = Run {
                    framework: Some(fw),
                    line_start: group.first().map(|r| r.line),
                    line_end: group.last().map(|r| r.line),
                    quant: k.0.clone(),
                    model: k.1.clone(),
                    power_mode: k.2.clone(),
                    model_bytes: k.3,
                    params: group.iter().find_map(|r| r.params),
                    ..Run::default()
                };
                run.n_threads = group.iter().find(|r| r.default).and_then(|r| r.threads);
                for r in &group {
                    for (c, v, sd, _) in &r.speeds {
                        let Some((phase, test)) = self.phase_of(*c) else {
                            continue;
                        };
                        let test = match phase {
                            Ph::Prefill => test.unwrap_or_else(|| "pp".into()),
                            Ph::Decode | Ph::Any => test.unwrap_or_else(|| "tg".into()),
                            Ph::Mixed => continue,
                        };
                        run.bench.push(BenchRow {
                            test,
                            tok_s: *v,
                            stddev: *sd,
                            n_threads: r.threads,
                        });
                    }
                }
                if !run.bench.is_empty() {
                    runs.push(run);
                }
            }
            return;
        }
        // Quants across the columns: one run per row and quant column.
        let quant_cols: Vec<(usize, &str)> = self
            .cols
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Col::Speed {
                    quant: Some(q),
                    phase: Ph::Decode | Ph::Any,
                    ..
                } => Some((i, q.as_str())),
                _ => None,
            })
            .collect();
        if quant_cols.len() >= 2 {
            for r in &rows {
                for (col, quant) in &quant_cols {
                    let Some((_, v, _, derived)) = r.speeds.iter().find(|(c, ..)| c == col) else {
                        continue;
                    };
                    runs.push(Run {
                        framework: Some(fw),
                        line_start: Some(r.line),
                        line_end: Some(r.line),
                        quant: Some((*quant).to_string()),
                        model: r.model.clone(),
                        params: r.params,
                        n_threads: r.threads,
                        sweep_row: true,
                        decode: Some(Phase {
                            tok_s: Some(*v),
                            derived: *derived,
                            ..Phase::default()
                        }),
                        ..Run::default()
                    });
                }
            }
            return;
        }
        let settings_vary = distinct(&|r| {
            Some(format!(
                "{:?}{:?}{:?}{:?}",
                r.quant, r.model, r.bytes, r.params
            ))
        }) >= 2
            || distinct(&|r| r.mode.clone()) >= 2;
        for (i, r) in rows.iter().enumerate() {
            let (decode, prefill) = self.phases(r);
            if decode.is_none() && prefill.is_none() {
                continue;
            }
            let bits = match (r.bytes, r.params) {
                (Some(b), Some(p)) if p > 0.0 => Some(b as f64 * 8.0 / p),
                _ => None,
            };
            runs.push(Run {
                framework: Some(fw),
                line_start: Some(r.line),
                line_end: Some(r.line),
                quant: r.quant.clone(),
                model: r.model.clone(),
                model_bytes: r.bytes,
                params: r.params,
                bits_per_weight: bits.filter(|b| (1.0..=33.0).contains(b)),
                n_threads: r.threads,
                power_mode: r.mode.clone(),
                trial: if timed {
                    r.trial.or(Some(i as u32 + 1))
                } else {
                    None
                },
                temp_c: r.temp,
                default_setting: r.default,
                sweep_row: settings_vary && !timed,
                decode,
                prefill,
                ..Run::default()
            });
        }
    }
}

fn first_int(cell: &str) -> Option<u32> {
    let digits: String = cell
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .take(6)
        .collect();
    digits.parse().ok()
}

impl FrameworkParser for SweepTable {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        if let Some(t) = &mut self.table {
            if is_rule(msg) {
                if t.mapped {
                    runs.claim(at);
                }
                return;
            }
            if t.row(msg, at) {
                if t.mapped {
                    runs.claim(at);
                }
                return;
            }
            if let Some(t) = self.table.take() {
                t.flush(self.framework, runs);
            }
        }
        if let Some((how, cols)) = header(msg) {
            let mapped = cols.iter().any(Col::is_variable);
            if mapped {
                runs.claim(at);
            }
            self.table = Some(Table {
                cols,
                how,
                header_line: at,
                header: crate::evidence::clip(msg.trim()),
                last_line: at,
                rows: Vec::new(),
                mapped,
                fitting: 0,
            });
        }
    }

    fn in_block(&self) -> bool {
        self.table.is_some()
    }

    fn finish(&mut self, runs: &mut RunCollector) {
        if let Some(t) = self.table.take() {
            t.flush(self.framework, runs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Run>, Vec<(u64, u64, String)>) {
        let mut p = SweepTable::new(None);
        let mut runs = RunCollector::new("t");
        for (i, l) in text.lines().enumerate() {
            p.line(l, i as u64 + 1, &mut runs);
        }
        p.finish(&mut runs);
        let c = runs.finish();
        (c.runs, c.tables_not_mapped)
    }

    #[test]
    fn header_vocabulary() {
        assert_eq!(classify("Threads"), Col::Threads);
        assert_eq!(classify("-t"), Col::Threads);
        assert_eq!(classify("线程数"), Col::Threads);
        assert_eq!(classify("num_thread"), Col::Threads);
        assert!(matches!(
            classify("tok/s"),
            Col::Speed {
                phase: Ph::Any,
                per_token: false,
                ..
            }
        ));
        assert!(matches!(
            classify("ms per token"),
            Col::Speed {
                per_token: true,
                ..
            }
        ));
        assert!(matches!(
            classify("Prompt (t/s)"),
            Col::Speed {
                phase: Ph::Prefill,
                ..
            }
        ));
        assert!(matches!(
            classify("tg128"),
            Col::Speed { phase: Ph::Decode, test: Some(t), .. } if t == "tg128"
        ));
        assert!(matches!(
            classify("解码速度"),
            Col::Speed {
                phase: Ph::Decode,
                ..
            }
        ));
        assert!(matches!(
            classify("Total t/s"),
            Col::Speed {
                phase: Ph::Mixed,
                ..
            }
        ));
        assert_eq!(classify("size (GB)"), Col::Size(Some("GB")));
        assert_eq!(classify("file GB"), Col::Size(Some("GB")));
        assert_eq!(classify("model GiB"), Col::Size(Some("GiB")));
        assert_ne!(classify("RAM GB"), Col::Size(Some("GB")));
        assert_eq!(classify("Quant"), Col::Quant);
        assert_eq!(classify("量化"), Col::Quant);
        assert_eq!(classify("power mode"), Col::Mode);
        assert_eq!(classify("nvpmodel"), Col::Mode);
        assert_eq!(classify("Trial"), Col::Trial);
        assert_eq!(classify("#"), Col::Trial);
        assert_eq!(classify("Temp (°C)"), Col::Temp);
        assert_eq!(classify("Power (W)"), Col::Watts);
        assert_eq!(classify("prompt tokens"), Col::Ignored);
        assert_eq!(classify("Device"), Col::Ignored);
    }

    #[test]
    fn thread_sweep_in_markdown_with_units_and_emphasis() {
        let (runs, not) = read(
            "My results:\n\n| Threads | Speed |\n|---|---|\n| 1 | 3.1 t/s |\n| 2 | 6.0 t/s |\n| 4 | **12.0 t/s** |\n| 8 | 0.27 t/s |\n\nwhy?",
        );
        assert!(not.is_empty());
        assert_eq!(runs.len(), 1);
        let b = &runs[0].bench;
        assert_eq!(b.len(), 4);
        assert_eq!((b[3].n_threads, b[3].tok_s), (Some(8), 0.27));
        assert_eq!(b[2].test, "tg");
        assert_eq!((runs[0].line_start, runs[0].line_end), (Some(5), Some(8)));
    }

    #[test]
    fn quants_across_the_columns_one_run_per_cell() {
        let (runs, _) = read("| Model | W16A16 (TPS) | W8A16 (TPS) | W4A16 (TPS) |\n| **Qwen2.5-3B-VL** | ~27.2 | ~45.2 | ~71.8 |\n| Qwen3-4B-VL | ~20.2 | ~35.5 | ~52.2 |\n");
        assert_eq!(runs.len(), 6, "{runs:?}");
        let first = &runs[0];
        assert_eq!(first.quant.as_deref(), Some("W16A16"));
        assert_eq!(first.model.as_deref(), Some("Qwen2.5-3B-VL"));
        assert_eq!(first.decode.as_ref().and_then(|d| d.tok_s), Some(27.2));
        assert_eq!(runs[5].quant.as_deref(), Some("W4A16"));
        assert_eq!(runs[5].decode.as_ref().and_then(|d| d.tok_s), Some(52.2));
    }

    #[test]
    fn quant_sweep_one_run_per_row() {
        let (runs, _) =
            read("quant,size GB,tok/s\nQ8_0,7.16,9.8\nQ4_K_M,4.07 GB,16.9\nQ2_K,2.96,22.4 ± 0.3\n");
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[1].quant.as_deref(), Some("Q4_K_M"));
        assert_eq!(runs[1].model_bytes, Some(4_370_129_224));
        assert_eq!(runs[2].decode.as_ref().and_then(|d| d.tok_s), Some(22.4));
        assert_eq!(runs[2].line_start, Some(4));
    }

    #[test]
    fn aligned_columns_and_ms_per_token() {
        let (runs, _) = read(
            "Model                     Size     ms/tok   prompt t/s\nllama-2-7b.Q4_0.gguf      3.6 GiB  85.2     41.0\nllama-2-7b.Q8_0.gguf      6.7 GiB  150.1    38.2\n",
        );
        assert_eq!(runs.len(), 2);
        let d = runs[0].decode.as_ref().unwrap();
        assert!((d.tok_s.unwrap() - 11.737).abs() < 0.01 && d.derived);
        assert_eq!(runs[0].quant.as_deref(), Some("Q4_0"));
        assert_eq!(runs[1].prefill.as_ref().and_then(|p| p.tok_s), Some(38.2));
    }

    #[test]
    fn power_modes_and_trials() {
        let (runs, _) = read(
            "| nvpmodel | decode tok/s |\n|:--|--:|\n| 15W (default) | 9.1 |\n| 30W | 14.2 |\n| MAXN | 17.6 |\n",
        );
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].power_mode.as_deref(), Some("15W"));
        assert!(runs[0].default_setting && !runs[1].default_setting);
        let (runs, _) = read("run\ttok/s\ttemp\n1\t21.0\t48\n2\t18.3\t63\n3\t15.9\t71\n");
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[2].trial, Some(3));
        assert_eq!(runs[2].temp_c, Some(71.0));
    }

    #[test]
    fn bench_tables_prose_and_unmapped_tables() {
        // llama-bench's own table stays with its reader.
        let (runs, not) = read(
            "| model | size | params | backend | threads | test | t/s |\n| --- | --- | --- | --- | --- | --- | --- |\n| llama 1B Q4_0 | 727.75 MiB | 1.24 B | CPU | 4 | tg128 | 42.61 ± 0.27 |\n",
        );
        assert!(runs.is_empty() && not.is_empty());
        // Prose that names a speed is no header.
        let (runs, not) =
            read("The decode speed drops when I use more threads, see below.\nI get 12 tok/s\n");
        assert!(runs.is_empty() && not.is_empty());
        // A speed table that says nothing of what changed is noted with its header.
        let (runs, not) = read("| Phone | tok/s |\n|---|---|\n| Pixel 8 | 9.1 |\n| S24 | 14.0 |\n");
        assert!(runs.is_empty());
        assert_eq!(not.len(), 1);
        assert_eq!(not[0].0, 1);
        assert!(not[0].2.contains("Phone"));
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "| tok/s |",
            "| threads | tok/s |\n| 99999999999999 | 1e999 |\n| x | y |",
            "threads tok/s\n1 2 3 4 5\n- -\n",
            "threads,tok/s\n,\n\"\",\"\"\n",
            "| size (GB) | tok/s |\n| 1e308 | 5 |\n| 5 GB | ± |\n",
            "| 线程 | 速度 |\n| 四 | 五 |\n",
        ] {
            read(t);
        }
    }
}

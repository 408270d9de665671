//! TFLite / LiteRT `benchmark_model --enable_op_profiling=true` tables, as its stats calculator
//! prints them (`StatsCalculator::HeaderString` / `ColumnString` / `GetStatsByNodeType`, shared
//! with TensorFlow's own benchmark):
//!
//! - a section line from the profiling listener: `Profiling Info for Benchmark Initialization:`,
//!   `Operator-wise Profiling Info for Regular Benchmark Runs:`, and after the subgraphs'
//!   tables, `Delegate internal:` (the delegate's own breakdown of its node's time);
//!   `Primary graph profile:` / `Subgraph (index: N) profile:` when the model has subgraphs;
//! - per table, `============================== Run Order ==============================` (or
//!   `Top by Computation Time`, `Top by Memory Use`, `Summary by node type`), then a header of
//!   bracketed column names, then one row per node or node type, all tab-separated with the
//!   fields right-aligned; or, with `--op_profiling_output_mode=csv`, the same as `, `-separated
//!   fields under a plain header (`node type, count, avg_ms, avg %, cdf %, mem KB, times called`);
//! - the columns changed over the versions (`[start]` went, `[times called]` came), so they are
//!   read from each table's header.
//!
//! A delegate's kernel is one node whose type is the delegate's name (`TfLiteGpuDelegateV2`,
//! `TfLiteNnapiDelegate`, or `DELEGATE` when it gives none); every other node ran on the CPU.
//! Only the regular runs count, and of them the primary graph: initialization is not inference,
//! a control-flow node's time already holds its subgraph's, and the delegate's internal table
//! splits a time already counted.

use super::slowest_first;
use crate::evidence::op_profile::{accelerator_of, OpProfile, ProfileSource, MAX_CPU_OPS};
use crate::evidence::{Evidence, InputId};
use std::collections::BTreeMap;

/// Literals that open what this reader reads (the log scanner's gate).
pub const KEYWORDS: &[&str] = &[
    "Profiling Info for",
    "Delegate internal",
    "==============================",
    "Subgraph (index:",
];

/// Rows read per table: a model has hundreds of nodes at most; a runaway paste stops here.
const MAX_ROWS: usize = 20_000;
/// Lines that are not rows a table may hold (interleaved logcat noise) before it is taken as
/// ended.
const MAX_STRAYS: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// No section line seen: a table pasted alone.
    Unstated,
    Init,
    Regular,
    /// A subgraph's tables, or the delegate's internal ones: their time is counted elsewhere.
    Counted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    RunOrder,
    ByType,
    /// `Top by ...`: the first ten nodes only, so no total.
    Partial,
}

#[derive(Debug, Clone, Copy)]
struct Columns {
    /// Numeric fields between the node type and the name.
    numeric: usize,
    /// Where `avg ms` is among them.
    avg: usize,
    csv: bool,
}

struct Table {
    kind: Kind,
    columns: Option<Columns>,
    first_line: u64,
    last_line: u64,
    /// Node type and its milliseconds per inference, row by row.
    rows: Vec<(String, f64)>,
    /// Lines since the last row that were not rows: other apps' logcat lines between them.
    strays: usize,
}

pub struct TfliteTables {
    section: Section,
    table: Option<Table>,
    /// The section's best table so far: the summary by node type, else the run order.
    chosen: Option<Table>,
}

impl Default for TfliteTables {
    fn default() -> Self {
        TfliteTables {
            section: Section::Unstated,
            table: None,
            chosen: None,
        }
    }
}

impl TfliteTables {
    /// Whether a table is open: its rows carry no keyword.
    pub fn active(&self) -> bool {
        self.table.is_some()
    }

    pub fn line(&mut self, input: InputId, number: u64, message: &str, ev: &mut Evidence) {
        let t = message.trim();
        if let Some(section) = section_of(t) {
            self.close_table();
            self.flush(input, ev);
            self.section = section;
            return;
        }
        if let Some(kind) = table_title(t) {
            self.close_table();
            self.table = Some(Table {
                kind,
                columns: None,
                first_line: number,
                last_line: number,
                rows: Vec::new(),
                strays: 0,
            });
            return;
        }
        let Some(table) = &mut self.table else {
            return;
        };
        match table.columns {
            None => match columns(t) {
                Some(c) => table.columns = Some(c),
                None => self.close_table(),
            },
            Some(c) => match row(t, c) {
                Some(r) => {
                    if table.rows.len() < MAX_ROWS {
                        table.rows.push(r);
                    }
                    table.last_line = number;
                    table.strays = 0;
                }
                None if ends_table(t) || table.strays >= MAX_STRAYS => self.close_table(),
                None => table.strays += 1,
            },
        }
    }

    pub fn finish(&mut self, input: InputId, ev: &mut Evidence) {
        self.close_table();
        self.flush(input, ev);
    }

    fn close_table(&mut self) {
        let Some(table) = self.table.take() else {
            return;
        };
        let counts = matches!(self.section, Section::Regular | Section::Unstated)
            && table.kind != Kind::Partial
            && !table.rows.is_empty()
            && !table.rows.iter().all(|(ty, _)| is_initialization(ty));
        if !counts {
            return;
        }
        let better = match &self.chosen {
            None => true,
            Some(c) => c.kind == Kind::RunOrder && table.kind == Kind::ByType,
        };
        if better {
            self.chosen = Some(table);
        }
    }

    fn flush(&mut self, input: InputId, ev: &mut Evidence) {
        if let Some(table) = self.chosen.take() {
            ev.add_op_profile(profile(input, table));
        }
    }
}

fn section_of(t: &str) -> Option<Section> {
    if t.contains("Profiling Info for Benchmark Initialization") {
        Some(Section::Init)
    } else if t.contains("Operator-wise Profiling Info for Regular Benchmark Runs") {
        Some(Section::Regular)
    } else if t.starts_with("Delegate internal")
        || (t.starts_with("Subgraph (index:") && t.ends_with("profile:"))
    {
        Some(Section::Counted)
    } else {
        None
    }
}

fn table_title(t: &str) -> Option<Kind> {
    let inner = t.strip_prefix("==========")?.trim_matches('=').trim();
    if !t.ends_with("==========") {
        return None;
    }
    match inner {
        "Run Order" => Some(Kind::RunOrder),
        "Summary by node type" => Some(Kind::ByType),
        _ if inner.starts_with("Top by") => Some(Kind::Partial),
        _ => None,
    }
}

/// The header's columns: bracketed (`[node type]  [start]  [first]  [avg ms] ...`) or CSV.
fn columns(t: &str) -> Option<Columns> {
    let csv = !t.contains('[');
    let names: Vec<String> = if csv {
        t.split(',').map(normalize).collect()
    } else {
        t.split('[')
            .skip(1)
            .filter_map(|s| s.split_once(']'))
            .map(|(name, _)| normalize(name))
            .collect()
    };
    if names.first().map(String::as_str) != Some("nodetype") {
        return None;
    }
    let numeric: Vec<&String> = names[1..].iter().filter(|n| *n != "name").collect();
    let avg = numeric.iter().position(|n| *n == "avgms")?;
    Some(Columns {
        numeric: numeric.len(),
        avg,
        csv,
    })
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '%')
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// One row: the node type (which may hold spaces and commas: XNNPACK's `Convolution (NHWC,
/// F32) IGEMM`) is what comes before the first run of numeric fields, the name what follows.
fn row(t: &str, c: Columns) -> Option<(String, f64)> {
    if ends_table(t) {
        return None;
    }
    let fields: Vec<&str> = if t.contains('\t') {
        t.split('\t')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect()
    } else if c.csv {
        t.split(',').map(str::trim).collect()
    } else {
        t.split_whitespace().collect()
    };
    let is_num = |f: &str| f.trim_end_matches('%').parse::<f64>().is_ok();
    let start = (1..fields.len()).find(|&i| {
        i + c.numeric <= fields.len() && fields[i..i + c.numeric].iter().all(|f| is_num(f))
    })?;
    let ms: f64 = fields[start + c.avg].parse().ok()?;
    let sep = if c.csv { ", " } else { " " };
    let ty = fields[..start].join(sep);
    (ms.is_finite() && ms >= 0.0).then_some((ty, ms))
}

/// The lines the stats calculator prints after a table.
fn ends_table(t: &str) -> bool {
    t.is_empty() || t.starts_with("Timings (") || t.starts_with("Number of nodes")
}

fn is_initialization(ty: &str) -> bool {
    matches!(ty, "ModifyGraphWithDelegate" | "AllocateTensors")
}

fn profile(input: InputId, table: Table) -> OpProfile {
    let mut accelerators: BTreeMap<String, f64> = BTreeMap::new();
    let mut cpu: BTreeMap<String, f64> = BTreeMap::new();
    for (ty, ms) in &table.rows {
        match delegate_of(ty) {
            Some(d) => *accelerators.entry(d.to_string()).or_default() += ms,
            None => *cpu.entry(ty.clone()).or_default() += ms,
        }
    }
    let cpu_ms = cpu.values().sum();
    OpProfile {
        input,
        source: ProfileSource::TfliteBenchmark,
        first_line: table.first_line,
        last_line: table.last_line,
        accelerators: slowest_first(accelerators, usize::MAX),
        cpu_ms,
        cpu_ops: slowest_first(cpu, MAX_CPU_OPS),
        runs: Some(1),
    }
}

/// A delegate's kernel node, by its type: the delegate's name, or `DELEGATE`.
fn delegate_of(ty: &str) -> Option<&str> {
    let lower = ty.to_ascii_lowercase();
    if !lower.contains("delegate") {
        return None;
    }
    accelerator_of(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let mut t = TfliteTables::default();
        for (i, l) in text.lines().enumerate() {
            t.line(0, i as u64 + 1, l, &mut ev);
        }
        t.finish(0, &mut ev);
        ev
    }

    const RUNS: &str = "Operator-wise Profiling Info for Regular Benchmark Runs:\n\
============================== Run Order ==============================\n\
\t             [node type]\t          [start]\t  [first]\t [avg ms]\t     [%]\t  [cdf%]\t  [mem KB]\t[times called]\t[Name]\n\
\t     TfLiteGpuDelegateV2\t            0.000\t    6.120\t    5.870\t 58.700%\t 58.700%\t     0.000\t        1\t[conv1, block_9/add]:71\n\
\t         RESIZE_BILINEAR\t            5.870\t    2.410\t    2.330\t 23.300%\t 82.000%\t     0.000\t        1\t[resize]:72\n\
\t                 ARG_MAX\t            8.200\t    1.800\t    1.800\t 18.000%\t100.000%\t     0.000\t        1\t[argmax]:73\n\
\n\
============================== Summary by node type ==============================\n\
\t             [Node type]\t  [count]\t  [avg ms]\t    [avg %]\t    [cdf %]\t  [mem KB]\t[times called]\n\
\t     TfLiteGpuDelegateV2\t        1\t     5.870\t    58.700%\t    58.700%\t     0.000\t        1\n\
\t         RESIZE_BILINEAR\t        1\t     2.330\t    23.300%\t    82.000%\t     0.000\t        1\n\
\t                 ARG_MAX\t        1\t     1.800\t    18.000%\t   100.000%\t     0.000\t        1\n\
\n\
Timings (microseconds): count=50 first=10330 curr=9990 min=9870 max=10510 avg=10000 std=120\n";

    #[test]
    fn the_summary_by_node_type_splits_delegate_and_cpu() {
        let ev = read(RUNS);
        assert_eq!(ev.op_profiles.len(), 1);
        let p = &ev.op_profiles[0];
        assert_eq!(p.accelerators, vec![("TfLiteGpuDelegateV2".into(), 5.87)]);
        assert!((p.cpu_ms - 4.13).abs() < 1e-9);
        assert_eq!(p.cpu_ops[0], ("RESIZE_BILINEAR".into(), 2.33));
        assert_eq!((p.first_line, p.last_line), (8, 12), "the summary table");
    }

    #[test]
    fn spaces_for_tabs_and_a_run_order_alone_read_the_same() {
        let run_order: String = RUNS.lines().take(6).collect::<Vec<_>>().join("\n");
        let spaced = run_order.replace('\t', "    ");
        let ev = read(&spaced);
        let p = &ev.op_profiles[0];
        assert_eq!(p.cpu_ops.len(), 2);
        assert!((p.cpu_ms - 4.13).abs() < 1e-9);
    }

    #[test]
    fn initialization_and_the_delegates_internal_table_are_not_inference() {
        let text = format!(
            "Profiling Info for Benchmark Initialization:\n\
============================== Run Order ==============================\n\
\t             [node type]\t          [start]\t  [first]\t [avg ms]\t     [%]\t  [cdf%]\t  [mem KB]\t[times called]\t[Name]\n\
\t ModifyGraphWithDelegate\t            0.000\t  998.012\t  998.012\t 98.211%\t 98.211%\t 12044.000\t        1\tModifyGraphWithDelegate/0\n\
\n{RUNS}\nDelegate internal: \n\
============================== Summary by node type ==============================\n\
\t             [Node type]\t  [count]\t  [avg ms]\t    [avg %]\t    [cdf %]\t  [mem KB]\t[times called]\n\
\t                 CONV_2D\t       40\t     5.000\t   100.000%\t   100.000%\t     0.000\t       40\n"
        );
        let ev = read(&text);
        assert_eq!(ev.op_profiles.len(), 1);
        assert!((ev.op_profiles[0].cpu_ms - 4.13).abs() < 1e-9);
    }

    #[test]
    fn csv_and_op_names_with_commas_and_spaces() {
        let text = "Operator-wise Profiling Info for Regular Benchmark Runs:\n\
============================== Summary by node type ==============================\n\
node type, count, avg_ms, avg %, cdf %, mem KB, times called\n\
Fully Connected (NC, QD8, F32, QC4W), 24, 7.5, 75%, 75%, 0, 24\n\
TfLiteNnapiDelegate, 1, 2.5, 25%, 100%, 0, 1\n";
        let p = &read(text).op_profiles[0];
        assert_eq!(p.cpu_ops[0].0, "Fully Connected (NC, QD8, F32, QC4W)");
        assert_eq!(p.accelerators[0], ("TfLiteNnapiDelegate".into(), 2.5));
    }

    #[test]
    fn a_top_ten_or_a_broken_header_gives_no_profile() {
        let text = "============================== Top by Computation Time ==============================\n\
\t             [node type]\t          [start]\t  [first]\t [avg ms]\t     [%]\t  [cdf%]\t  [mem KB]\t[times called]\t[Name]\n\
\t                 CONV_2D\t            0.066\t   87.754\t   60.957\t  2.066%\t  2.066%\t     0.000\t        1\t[c]:0\n";
        assert!(read(text).op_profiles.is_empty());
        let text = "============================== Run Order ==============================\n\
something else entirely\n\
\t                 CONV_2D\t 1.0\n";
        assert!(read(text).op_profiles.is_empty());
    }
}

//! Delimited telemetry: generic CSV / TSV / semicolon files and the exporters that write them
//! (nvidia-smi `--format=csv`, HWiNFO, PerfDog, Trepn, turbostat).
//!
//! The first [`HEAD_LINES`] lines are held back to decide the layout (delimiter, the header
//! line after any preamble, the time column); they are then replayed, and every later row is
//! parsed as it arrives. A hand parser rather than the `csv` crate: rows arrive as lines from
//! [`crate::ingest::InputReader`], the fast path (no quotes) never allocates per cell, and the
//! quirks (units in cells, trailing commas, repeated turbostat headers, per-metric time columns
//! in Trepn) need per-column handling anyway.

use super::time::{self, NumericHint};
use super::units::{self, Kind, Scale};
use super::Sink;
use crate::evidence::{Evidence, InputId, ProblemCode, SkippedLines};
use crate::ingest::delimited::{count_fields, fields, for_each_field, Delim};
use crate::ingest::lines::Line;
use crate::ingest::LineParser;

/// Lines looked at before deciding the layout.
pub const HEAD_LINES: usize = 48;

#[derive(Debug)]
struct Column {
    kind: Kind,
    scale: Scale,
    source: String,
    /// The time column this value belongs to (Trepn writes one per metric).
    time_col: Option<usize>,
    /// (row key, sink slot); one entry unless rows carry a key.
    slots: Vec<(String, usize)>,
    /// Holds values (not time, date, row key or an ignored column).
    is_value: bool,
}

#[derive(Debug)]
struct Layout {
    delim: Delim,
    header: String,
    columns: Vec<Column>,
    date_col: Option<usize>,
    key_col: Option<usize>,
    time_hints: Vec<NumericHint>,
    /// Indices of the time columns.
    time_cols: Vec<usize>,
    cpu_base: u32,
    turbostat: bool,
}

pub struct CsvParser {
    input: InputId,
    head: Vec<(u64, String)>,
    layout: Option<Layout>,
    sink: Sink,
    rows: u64,
    skipped: SkippedLines,
    /// Per time column: last time and the days added for clocks that passed midnight.
    last_t: Vec<(f64, f64)>,
    first_key: Option<String>,
    /// Samples started again by the first row key, for keyed rows without a time column.
    key_rounds: u64,
    /// turbostat: interval number and length.
    interval: (u64, f64),
    // Reused per row.
    cells: Vec<(usize, usize)>,
    row_buf: String,
    /// The keys of a JSON Lines input's first object: its rows' columns.
    json_keys: Option<Vec<String>>,
}

impl CsvParser {
    pub fn new(input: InputId) -> Self {
        CsvParser {
            input,
            head: Vec::new(),
            layout: None,
            sink: Sink::default(),
            rows: 0,
            skipped: SkippedLines::default(),
            last_t: Vec::new(),
            first_key: None,
            key_rounds: 0,
            interval: (0, 5.0),
            cells: Vec::new(),
            row_buf: String::new(),
            json_keys: None,
        }
    }

    fn decide(&mut self, ev: &mut Evidence) {
        let head = std::mem::take(&mut self.head);
        // `--format=csv,noheader` prints no header; the command line, when pasted, names the
        // columns instead, and the rows start after it.
        let query = head
            .iter()
            .enumerate()
            .find_map(|(i, (_, t))| Some((i, synthetic_header(t)?)));
        let from = query.as_ref().map_or(0, |(i, _)| i + 1);
        // dmon's units line and repeated headers are comments under its synthetic header.
        let comment = |t: &str| query.is_some() && t.starts_with('#');
        let mut texts: Vec<&str> = query.iter().map(|(_, h)| h.as_str()).collect();
        texts.extend(
            head[from..]
                .iter()
                .map(|(_, t)| t.as_str())
                .filter(|t| !t.trim().is_empty() && !comment(t)),
        );
        let Some(layout) = detect_layout(&texts) else {
            ev.problem(self.input, ProblemCode::TelemetryNoHeader, None);
            self.layout = None;
            return;
        };
        let header = layout.header.clone();
        self.last_t = vec![(f64::NEG_INFINITY, 0.0); layout.columns.len()];
        self.layout = Some(layout);
        let mut seen_header = query.is_some();
        for (number, text) in head.into_iter().skip(from) {
            if !seen_header {
                seen_header = text.trim() == header.trim();
                continue;
            }
            self.row(number, &text);
        }
    }

    fn skip(&mut self, number: u64, text: &str) {
        self.skipped.add(number, text);
    }

    fn row(&mut self, number: u64, text: &str) {
        let Some(layout) = self.layout.as_mut() else {
            return;
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return;
        }
        if layout.turbostat {
            if trimmed == layout.header.trim() {
                self.interval.0 += 1;
                return;
            }
            // turbostat -i prints "5.003 sec" before each table.
            if let Some(s) = trimmed
                .strip_suffix("sec")
                .and_then(|s| s.trim().parse::<f64>().ok())
            {
                self.interval.1 = s;
                return;
            }
        } else if trimmed == layout.header.trim() {
            return; // a header repeated by concatenated exports
        }
        // Split once into byte ranges of the row buffer.
        self.row_buf.clear();
        self.cells.clear();
        {
            let buf = &mut self.row_buf;
            let cells = &mut self.cells;
            for_each_field(text, layout.delim, &mut |_, s| {
                let start = buf.len();
                buf.push_str(s);
                cells.push((start, buf.len()));
            });
        }
        let ncols = layout.columns.len();
        if self.cells.len() * 2 < ncols || self.cells.len() < 2 {
            self.skip(number, text);
            return;
        }
        let cell = |i: usize| -> &str {
            self.cells
                .get(i)
                .map_or("", |&(a, b)| self.row_buf.get(a..b).unwrap_or(""))
        };
        let key = layout.key_col.map(|k| cell(k).trim().to_string());
        // Times of this row, per time column.
        let mut times: Vec<Option<f64>> = vec![None; ncols];
        let mut any_time = false;
        let has_time_col = !layout.time_cols.is_empty();
        for &i in &layout.time_cols {
            let raw = cell(i);
            let stamp = match layout.date_col {
                Some(d) if !raw.contains(['-', '/']) => {
                    let joined = format!(
                        "{} {}",
                        cell(d).trim().trim_matches('"'),
                        raw.trim().trim_matches('"')
                    );
                    time::parse(&joined, layout.time_hints[i])
                }
                _ => time::parse(raw, layout.time_hints[i]),
            };
            if let Some(st) = stamp {
                let (last, days) = &mut self.last_t[i];
                let mut t = st.s + *days;
                if !st.absolute && t + 43_200.0 < *last {
                    // A time of day that passed midnight.
                    *days += 86_400.0;
                    t += 86_400.0;
                }
                *last = t;
                times[i] = Some(t);
                any_time = true;
                self.sink.set_absolute(st.absolute);
            }
        }
        // Rows of several devices (`nvidia-smi dmon` on two GPUs) share one sample: without a
        // time column, the next sample starts when the first device's row comes again.
        if key.is_some() && key == self.first_key {
            self.key_rounds += 1;
        }
        let fallback_t = if layout.turbostat {
            self.interval.0 as f64 * self.interval.1
        } else if key.is_some() {
            self.key_rounds as f64
        } else {
            self.rows as f64
        };
        if has_time_col && !any_time {
            self.skip(number, text);
            return;
        }
        if !has_time_col {
            self.sink.set_absolute(false);
        }
        self.rows += 1;
        let key_suffix = match (&key, &self.first_key) {
            (Some(k), None) => {
                self.first_key = Some(k.clone());
                None
            }
            (Some(k), Some(first)) if k != first => Some(k.clone()),
            _ => None,
        };
        for (i, col) in layout.columns.iter_mut().enumerate() {
            if !col.is_value {
                continue;
            }
            let t = match col.time_col {
                Some(tc) => match times.get(tc).copied().flatten() {
                    Some(t) => t,
                    None => continue,
                },
                None => fallback_t,
            };
            let raw = self
                .cells
                .get(i)
                .map_or("", |&(a, b)| self.row_buf.get(a..b).unwrap_or(""));
            let Some((v, cell_scale)) = units::cell(raw) else {
                continue;
            };
            let factor = match (col.scale, cell_scale) {
                (Scale::Known(f), _) => f,
                (Scale::FromValue, Some(f)) => {
                    col.scale = Scale::Known(f);
                    f
                }
                (Scale::FromValue, None) => {
                    if v == 0.0 {
                        // Zero says nothing about the unit; wait for a real value.
                        continue;
                    }
                    let f = units::scale_from_value(&col.kind, v);
                    col.scale = Scale::Known(f);
                    f
                }
            };
            // turbostat: per-CPU rows become per-CPU series; the "-" row is the summary.
            let row_key = key.as_deref().unwrap_or("");
            // Without a row key every column has one series: skip the lookup on the hot path.
            let cached = match (&key, col.slots.first()) {
                (None, Some(&(_, s))) => Some(s),
                _ => None,
            };
            let slot = match cached.or_else(|| {
                col.slots
                    .iter()
                    .find(|(k, _)| k == row_key)
                    .map(|&(_, s)| s)
            }) {
                Some(s) => s,
                None => {
                    let mut kind = col.kind.clone();
                    let mut source = col.source.clone();
                    if layout.turbostat {
                        if let Ok(cpu) = row_key.parse::<u32>() {
                            kind = match kind {
                                Kind::Freq { name, .. } => Kind::Freq {
                                    cpu: Some(cpu),
                                    name,
                                },
                                Kind::Load { name, .. } => Kind::Load {
                                    cpu: Some(cpu),
                                    name,
                                },
                                Kind::Temp { sensor } => Kind::Temp {
                                    sensor: format!("{sensor} cpu{cpu}"),
                                },
                                other => other,
                            };
                            source = format!("{source} (CPU {cpu})");
                        }
                    } else if let Some(k) = &key_suffix {
                        source = format!("{source} [{k}]");
                        kind = suffixed(kind, k);
                    }
                    let Some(q) = units::quantity(&kind, layout.cpu_base) else {
                        continue;
                    };
                    let s = self.sink.slot(q, &source);
                    if col.slots.len() < 256 {
                        col.slots.push((row_key.to_string(), s));
                    }
                    s
                }
            };
            self.sink.push_at(slot, t, units::apply(v, factor));
        }
    }
}

/// A header for an export that prints none a parser can take: `nvidia-smi --query-gpu` rows
/// under `noheader` (named by the pasted command line), or `nvidia-smi dmon` (named in a
/// `#` comment line).
fn synthetic_header(line: &str) -> Option<String> {
    query_gpu_header(line).or_else(|| dmon_header(line))
}

/// `nvidia-smi dmon`'s `# gpu pwr gtemp mtemp sm mem enc dec jpg ofa mclk pclk` line (the
/// `# Idx W C C % …` units line under it, and the repeats of both, are comments to the rows),
/// renamed to the `--query-gpu` fields that hold the same figures, with their units.
fn dmon_header(line: &str) -> Option<String> {
    let t = line.trim().strip_prefix('#')?;
    let names: Vec<&str> = t.split_whitespace().collect();
    if !names.contains(&"gpu") || !names.iter().any(|n| matches!(*n, "pwr" | "sm" | "pclk")) {
        return None;
    }
    // No space before a unit: the rows split on whitespace, and so does this header.
    let renamed: Vec<String> = names
        .iter()
        .map(|&n| match n {
            "pwr" => "power.draw[W]".to_string(),
            "gtemp" => "temperature.gpu".to_string(),
            "mtemp" => "temperature.memory".to_string(),
            "sm" => "utilization.gpu[%]".to_string(),
            "mem" => "utilization.memory[%]".to_string(),
            "enc" | "dec" | "jpg" | "ofa" => format!("utilization.{n}[%]"),
            "mclk" => "clocks.mem[MHz]".to_string(),
            "pclk" => "clocks.gr[MHz]".to_string(),
            "fb" | "bar1" => format!("memory.{n}[MiB]"),
            other => other.to_string(),
        })
        .collect();
    Some(renamed.join(" "))
}

/// The header that `nvidia-smi --query-gpu=A,B,C --format=csv,noheader[,nounits]` would have
/// printed, from that command line: each field with the unit nvidia-smi documents for it, since
/// `nounits` leaves the cells bare. `None` for any other line, and when the header is printed.
fn query_gpu_header(line: &str) -> Option<String> {
    let at = line.find("--query-gpu")?;
    if !line.contains("noheader") {
        return None;
    }
    let rest = line[at + "--query-gpu".len()..].trim_start_matches(['=', ' ']);
    let list = rest.split_whitespace().next()?.trim_matches(['"', '\'']);
    let names: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            let unit = if n.starts_with("power.") {
                " [W]"
            } else if n.starts_with("clocks.") {
                " [MHz]"
            } else if n.starts_with("memory.") && !n.starts_with("memory.temp") {
                " [MiB]"
            } else if n.starts_with("utilization.") || n == "fan.speed" {
                " [%]"
            } else {
                ""
            };
            format!("{n}{unit}")
        })
        .collect();
    (names.len() >= 2).then(|| names.join(", "))
}

/// Names a series after the device it belongs to when rows interleave several (multi-GPU).
fn suffixed(kind: Kind, key: &str) -> Kind {
    let tag = |s: String| format!("{s} [{key}]");
    match kind {
        Kind::Freq { cpu: None, name } => Kind::Freq {
            cpu: None,
            name: tag(name),
        },
        Kind::Temp { sensor } => Kind::Temp {
            sensor: tag(sensor),
        },
        Kind::Power { rail } => Kind::Power { rail: tag(rail) },
        Kind::Load { cpu: None, name } => Kind::Load {
            cpu: None,
            name: tag(name),
        },
        Kind::Flag { reason } => Kind::Flag {
            reason: tag(reason),
        },
        Kind::Other { name, unit } => Kind::Other {
            name: tag(name),
            unit,
        },
        other => other,
    }
}

fn is_numberish(s: &str) -> bool {
    let t = s.trim().trim_matches('"').trim();
    !t.is_empty() && (units::cell(t).is_some() || time::parse(t, NumericHint::Unknown).is_some())
}

/// Picks the delimiter and the header line, and classifies the columns.
fn detect_layout(lines: &[&str]) -> Option<Layout> {
    let mut best: Option<(Delim, usize, usize)> = None; // (delim, modal count, rows with it)
    for delim in [
        Delim::Char(','),
        Delim::Char('\t'),
        Delim::Char(';'),
        Delim::Char('|'),
        Delim::Whitespace,
    ] {
        let counts: Vec<usize> = lines.iter().map(|l| count_fields(l, delim)).collect();
        let mut modal = (0, 0);
        for &c in &counts {
            let n = counts.iter().filter(|&&x| x == c).count();
            if c >= 2 && (n > modal.1 || (n == modal.1 && c > modal.0)) {
                modal = (c, n);
            }
        }
        if modal.1 < 2 {
            continue;
        }
        // Whitespace splits any prose; take it only when nothing else works.
        let better = match best {
            None => true,
            Some((Delim::Whitespace, ..)) => true,
            Some(_) if delim == Delim::Whitespace => false,
            Some((_, _, rows)) => modal.1 > rows,
        };
        if better {
            best = Some((delim, modal.0, modal.1));
        }
    }
    let (delim, width, _) = best?;
    // The header: the first line of (about) the modal width that is mostly not numbers and is
    // followed by a numeric row.
    let header_idx = lines.iter().enumerate().position(|(i, l)| {
        let f = fields(l, delim);
        let near = f.len() == width || f.len() + 1 == width || f.len() == width + 1;
        let texty = f
            .iter()
            .filter(|c| !c.trim().is_empty() && !is_numberish(c))
            .count();
        near && texty * 2 > f.iter().filter(|c| !c.trim().is_empty()).count()
            && lines[i + 1..].iter().take(4).any(|n| {
                let g = fields(n, delim);
                g.iter().filter(|c| is_numberish(c)).count() * 2 >= g.len()
            })
    })?;
    let header = lines[header_idx].to_string();
    let names = fields(&header, delim);
    let mut columns: Vec<Column> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut date_col = None;
    let mut key_col = None;
    let mut time_hints = Vec::new();
    let has_cpu_col = names.iter().any(|n| n.trim().eq_ignore_ascii_case("cpu"));
    // `%Busy` until turbostat 17.02 (Linux 4.11), `Busy%` since.
    let turbostat = names.iter().any(|n| matches!(n.trim(), "Busy%" | "%Busy"))
        && names
            .iter()
            .any(|n| matches!(n.trim(), "Avg_MHz" | "Bzy_MHz"));
    for (i, name) in names.iter().enumerate() {
        let (mut kind, scale) = units::classify(name);
        time_hints.push(NumericHint::from_header(name));
        if turbostat && name.trim() == "Avg_MHz" {
            // Averaged over idle time too: not the clock the CPU ran at.
            kind = Kind::Other {
                name: "Avg_MHz".into(),
                unit: "MHz".into(),
            };
        }
        if kind == Kind::Time && !is_time_column(lines, header_idx, i, delim) {
            kind = Kind::Other {
                name: units::bare_name(name),
                unit: String::new(),
            };
        }
        match kind {
            Kind::Date => date_col = Some(i),
            Kind::RowKey => {
                let trimmed = name.trim();
                if has_cpu_col && !trimmed.eq_ignore_ascii_case("cpu") {
                    kind = Kind::Skip;
                } else if key_col.is_none() {
                    key_col = Some(i);
                } else {
                    kind = Kind::Skip;
                }
            }
            _ => {}
        }
        let base = name.trim().trim_matches('"').trim().to_string();
        let dupes = seen.iter().filter(|s| **s == base).count();
        seen.push(base.clone());
        let source = if dupes > 0 {
            format!("{base} #{}", dupes + 1)
        } else {
            base
        };
        let is_value = !matches!(kind, Kind::Time | Kind::Date | Kind::RowKey | Kind::Skip);
        columns.push(Column {
            kind,
            scale,
            source,
            time_col: None,
            slots: Vec::new(),
            is_value,
        });
    }
    // Each value column belongs to the nearest time column on its left, else the first one.
    let first_time = columns.iter().position(|c| c.kind == Kind::Time);
    let mut nearest = first_time;
    for (i, c) in columns.iter_mut().enumerate() {
        if c.kind == Kind::Time {
            nearest = Some(i);
        }
        c.time_col = nearest.or(first_time);
    }
    // Trepn numbers CPUs from 1: no CPU 0 column, but a CPU 1.
    let cpus: Vec<u32> = columns
        .iter()
        .filter_map(|c| match c.kind {
            Kind::Freq { cpu: Some(n), .. } => Some(n),
            _ => None,
        })
        .collect();
    let cpu_base = u32::from(!cpus.is_empty() && !cpus.contains(&0) && cpus.contains(&1));
    let time_cols = columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == Kind::Time)
        .map(|(i, _)| i)
        .collect();
    Some(Layout {
        delim,
        header,
        time_cols,
        columns,
        date_col,
        key_col,
        time_hints,
        cpu_base,
        turbostat,
    })
}

/// A column named like time must hold times in the rows below the header.
fn is_time_column(lines: &[&str], header_idx: usize, col: usize, delim: Delim) -> bool {
    lines[header_idx + 1..]
        .iter()
        .filter_map(|l| fields(l, delim).get(col).cloned())
        .filter(|c| !c.trim().is_empty())
        .take(4)
        .any(|c| time::parse(&c, NumericHint::Unknown).is_some())
}

/// Whether raw lines look like a delimited telemetry export: a header (after any preamble) whose
/// columns are mostly time and known quantities, followed by numeric rows. Used by the sniffer
/// for exports that its generic CSV check misses (preambles, turbostat's interleaved lines).
pub fn looks_like(lines: &[&str]) -> bool {
    if let Some(rows) = super::json_lines::as_rows(lines) {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        return looks_like(&rows);
    }
    let query = lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| Some((i, synthetic_header(l)?)));
    let from = query.as_ref().map_or(0, |(i, _)| i + 1);
    let content: Vec<&str> = query
        .iter()
        .map(|(_, h)| h.as_str())
        .chain(
            lines[from..]
                .iter()
                .copied()
                .filter(|l| !(query.is_some() && l.starts_with('#'))),
        )
        .filter(|l| !l.trim().is_empty())
        .take(HEAD_LINES)
        .collect();
    let Some(layout) = detect_layout(&content) else {
        return false;
    };
    let named = layout
        .columns
        .iter()
        .filter(|c| !matches!(c.kind, Kind::Skip))
        .count();
    let known = layout
        .columns
        .iter()
        .filter(|c| !matches!(c.kind, Kind::Skip | Kind::Other { .. }))
        .count();
    let has_time = layout.columns.iter().any(|c| c.kind == Kind::Time);
    // turbostat's wide tables (`--show all`, C-state columns) hold more columns of its own than
    // known quantities; its header names it alone.
    layout.turbostat || (named >= 2 && known * 2 >= named && (has_time || known >= 3))
}

impl LineParser for CsvParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        // JSON Lines: the first object names the columns, each object is a row.
        let converted;
        let text = match &self.json_keys {
            Some(keys) => match super::json_lines::row(line.text, keys) {
                Some(r) => {
                    converted = r;
                    converted.as_str()
                }
                None => line.text,
            },
            None if self.head.is_empty() && self.rows == 0 => {
                match super::json_lines::header(line.text) {
                    Some((keys, head)) => {
                        self.head.push((line.number, head));
                        converted = super::json_lines::row(line.text, &keys).unwrap_or_default();
                        self.json_keys = Some(keys);
                        converted.as_str()
                    }
                    None => line.text,
                }
            }
            None => line.text,
        };
        if self.layout.is_none() {
            if self.head.len() < HEAD_LINES {
                self.head.push((line.number, text.to_string()));
                return;
            }
            self.decide(ev);
        }
        self.row(line.number, text);
    }

    fn finish(&mut self, ev: &mut Evidence) {
        if self.layout.is_none() && !self.head.is_empty() {
            self.decide(ev);
        }
        if let Some(layout) = &self.layout {
            if !layout.columns.iter().any(|c| c.kind == Kind::Time) && !layout.turbostat {
                ev.problem(self.input, ProblemCode::TelemetryNoTime, None);
            }
        }
        ev.problem_lines(self.input, ProblemCode::TelemetryRowsSkipped, &self.skipped);
        if self.layout.is_some() && self.sink.is_empty() {
            ev.problem(self.input, ProblemCode::TelemetryNoSeries, None);
        }
        self.sink.finish(self.input, ev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Quantity;

    fn parse(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("t.csv");
        let mut p = CsvParser::new(id);
        for (i, l) in text.lines().enumerate() {
            p.line(
                Line {
                    number: i as u64 + 1,
                    text: l,
                },
                &mut ev,
            );
        }
        p.finish(&mut ev);
        ev
    }

    fn series<'a>(ev: &'a Evidence, q: &Quantity) -> &'a [(f64, f64)] {
        ev.series
            .iter()
            .find(|s| &s.quantity == q)
            .map_or(&[], |s| &s.points)
    }

    #[test]
    fn nvidia_smi_units_in_cells() {
        let ev = parse("timestamp, utilization.gpu [%], temperature.gpu, power.draw [W], clocks.current.sm [MHz], clocks_throttle_reasons.sw_power_cap\n2023/08/25 06:16:27.394, 100 %, 76, 348.06 W, 840 MHz, Active\n2023/08/25 06:16:28.394, 100 %, 77, [N/A], 825 MHz, Not Active\n");
        let sm = series(
            &ev,
            &Quantity::ClockFreq {
                name: "clocks.current.sm".into(),
            },
        );
        assert_eq!(sm.len(), 2);
        assert!((sm[1].0 - sm[0].0 - 1.0).abs() < 1e-6);
        assert_eq!(sm[0].1, 840.0);
        assert_eq!(
            series(
                &ev,
                &Quantity::Power {
                    rail: "power.draw".into()
                }
            ),
            &[(sm[0].0, 348_060.0)]
        );
        assert_eq!(
            series(
                &ev,
                &Quantity::Temperature {
                    sensor: "temperature.gpu".into()
                }
            )[1]
            .1,
            77.0
        );
        let flag = series(
            &ev,
            &Quantity::ThrottleFlag {
                reason: "clocks_throttle_reasons.sw_power_cap".into(),
            },
        );
        assert_eq!(flag.iter().map(|p| p.1).collect::<Vec<_>>(), vec![1.0, 0.0]);
        assert!(ev.series.iter().all(|s| s.absolute));
    }

    #[test]
    fn hwinfo_date_time_trailing_comma_duplicates() {
        let ev = parse("\"Date\",\"Time\",\"Core 0 Clock [MHz]\",\"Read Activity [%]\",\"Read Activity [%]\",\"CPU Package [°C]\",\"Core Thermal Throttling (avg) [Yes/No]\",\n20.12.2022,9:48:22.384,\"3600,5\",1.0,2.0,71,No,\n20.12.2022,9:48:23.390,2400,1.5,2.5,96,Yes,\n");
        let f = series(&ev, &Quantity::CpuFreq { cpu: 0 });
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].1, 3600.5);
        assert!((f[0].0 - 1_671_529_702.384).abs() < 1e-3);
        assert!(ev.series.iter().any(|s| s.source == "Read Activity [%] #2"));
        assert_eq!(
            series(
                &ev,
                &Quantity::ThrottleFlag {
                    reason: "Core Thermal Throttling (avg)".into()
                }
            )[1]
            .1,
            1.0
        );
    }

    #[test]
    fn trepn_preamble_and_one_based_cpus() {
        let ev = parse("Trepn Profiler\nDevice: Nexus\nVersion 6.2\nTime  [ms],CPU1 Frequency [kHz],Time  [ms],Battery Temperature [1/10 C]\n\n0,1497600,0,312\n1000,1190400,1000,315\n");
        assert_eq!(
            series(&ev, &Quantity::CpuFreq { cpu: 0 }),
            &[(0.0, 1497.6), (1.0, 1190.4)]
        );
        assert_eq!(
            series(
                &ev,
                &Quantity::Temperature {
                    sensor: "Battery Temperature".into()
                }
            )[1],
            (1.0, 31.5)
        );
    }

    #[test]
    fn sysfs_units_inferred_and_semicolon_decimal_comma() {
        let ev = parse("t;cpu7 freq;soc temp\n0;2419200;45000\n1;1804800;47500\n");
        assert_eq!(
            series(&ev, &Quantity::CpuFreq { cpu: 7 }),
            &[(0.0, 2419.2), (1.0, 1804.8)]
        );
        assert_eq!(
            series(
                &ev,
                &Quantity::Temperature {
                    sensor: "soc temp".into()
                }
            )[1]
            .1,
            47.5
        );
        let ev = parse("time\tgpu temp\n0\t45,5\n1\t46,0\n");
        assert_eq!(
            series(
                &ev,
                &Quantity::Temperature {
                    sensor: "gpu temp".into()
                }
            )[0]
            .1,
            45.5
        );
    }

    #[test]
    fn turbostat_tables() {
        let ev = parse("5.003 sec\nCore\tCPU\tAvg_MHz\tBusy%\tBzy_MHz\tPkgTmp\tPkgWatt\n-\t-\t2000\t90.0\t2222\t80\t45.5\n0\t0\t2100\t95.0\t2210\t\t\n0\t1\t1900\t85.0\t2235\t\t\n5.003 sec\nCore\tCPU\tAvg_MHz\tBusy%\tBzy_MHz\tPkgTmp\tPkgWatt\n-\t-\t1500\t90.0\t1666\t95\t35.0\n0\t0\t1500\t95.0\t1600\t\t\n0\t1\t1400\t85.0\t1700\t\t\n");
        assert_eq!(series(&ev, &Quantity::CpuFreq { cpu: 1 }).len(), 2);
        let f0 = series(&ev, &Quantity::CpuFreq { cpu: 0 });
        assert_eq!(f0.len(), 2);
        assert!((f0[1].0 - 5.003).abs() < 1e-9, "{f0:?}");
        assert_eq!(
            series(
                &ev,
                &Quantity::Power {
                    rail: "PkgWatt".into()
                }
            )
            .len(),
            2
        );
    }

    #[test]
    fn nvidia_smi_noheader_rows_take_their_names_from_the_command_line() {
        let text = "$ nvidia-smi --query-gpu=timestamp,utilization.gpu,temperature.gpu,power.draw,clocks.sm,clocks.max.sm --format=csv,noheader,nounits -l 1\n2024/05/01 10:00:00.123, 97, 71, 310.55, 2520, 3120\n2024/05/01 10:00:01.124, 98, 72, 312.10, 2505, 3120\n2024/05/01 10:00:02.125, 98, 73, [N/A], 2490, 3120\n";
        let lines: Vec<&str> = text.lines().collect();
        assert!(looks_like(&lines));
        let ev = parse(text);
        let sm = series(
            &ev,
            &Quantity::ClockFreq {
                name: "clocks.sm".into(),
            },
        );
        assert_eq!(
            sm.iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![2520.0, 2505.0, 2490.0]
        );
        assert!((sm[1].0 - sm[0].0 - 1.001).abs() < 1e-6);
        assert_eq!(
            series(
                &ev,
                &Quantity::Power {
                    rail: "power.draw".into()
                }
            )
            .iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
            vec![310_550.0, 312_100.0]
        );
        // Units left in the cells (`noheader` alone) read the same.
        let ev = parse("nvidia-smi --query-gpu=utilization.gpu,power.draw --format=csv,noheader\n97 %, 310.55 W\n98 %, 312.10 W\n");
        assert_eq!(
            series(
                &ev,
                &Quantity::Power {
                    rail: "power.draw".into()
                }
            )[1]
            .1,
            312_100.0
        );
        assert_eq!(
            query_gpu_header("nvidia-smi --query-gpu=a,b --format=csv"),
            None
        );
    }

    #[test]
    fn nvidia_smi_dmon_columns_and_repeated_comment_headers() {
        let text = "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk \n# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz \n    0    287     68      -     97     45      0      0      0      0  10501   2520 \n    1     31     40      -      0      0      0      0      0      0    405    210 \n    0    290     69      -     98     46      0      0      0      0  10501   2505 \n    1     30     40      -      0      0      0      0      0      0    405    210 \n# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk \n# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz \n    0    120     66      -     40     20      0      0      0      0  10501   1410 \n    1     30     40      -      0      0      0      0      0      0    405    210 \n";
        let lines: Vec<&str> = text.lines().collect();
        assert!(looks_like(&lines));
        let ev = parse(text);
        let gr0: Vec<f64> = ev
            .series
            .iter()
            .filter(|s| {
                s.quantity
                    == Quantity::ClockFreq {
                        name: "clocks.gr".into(),
                    }
            })
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .collect();
        assert_eq!(gr0, vec![2520.0, 2505.0, 1410.0]);
        // `-o DT`: a YYYYMMDD date and a clock lead each row.
        let dt = "#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk\n#YYYYMMDD   HH:MM:SS    Idx      W      C      C      %      %      %      %    MHz    MHz\n 20240501   10:00:00      0    287     68      -     97     45      0      0  10501   2520\n 20240501   10:00:02      0    290     69      -     98     46      0      0  10501   2505\n";
        let with_date = parse(dt);
        let p = series(
            &with_date,
            &Quantity::Power {
                rail: "power.draw".into(),
            },
        );
        assert_eq!(p.len(), 2);
        assert!(
            (p[1].0 - p[0].0 - 2.0).abs() < 1e-9 && with_date.series.iter().all(|s| s.absolute)
        );
        // One sample per round of both GPUs, one second apart.
        let gr1 = series(
            &ev,
            &Quantity::ClockFreq {
                name: "clocks.gr [1]".into(),
            },
        );
        assert_eq!(
            gr1.iter().map(|p| p.0).collect::<Vec<_>>(),
            vec![0.0, 1.0, 2.0]
        );
        assert!(ev.series.iter().any(|s| s.quantity
            == Quantity::Power {
                rail: "power.draw [1]".into()
            }));
        assert!(!ev.series.iter().any(|s| matches!(&s.quantity, Quantity::Temperature { sensor } if sensor.starts_with("temperature.memory"))));
    }

    #[test]
    fn turbostat_before_4_11_and_wide_tables() {
        let old = "turbostat version 4.8 26-Sep, 2015 - Len Brown <lenb@kernel.org>\n     Core     CPU Avg_MHz   %Busy Bzy_MHz TSC_MHz  CPU%c1  CoreTmp  PkgTmp PkgWatt CorWatt\n       -       -    1876   65.21    2877    2904   12.30      78      80   14.89   11.20\n       0       0    1900   66.00    2879    2904   12.00      78      80   14.89   11.20\n       0       2    1850   64.00    2875    2904   12.60\n     Core     CPU Avg_MHz   %Busy Bzy_MHz TSC_MHz  CPU%c1  CoreTmp  PkgTmp PkgWatt CorWatt\n       -       -    1276   65.21    1977    2904   12.30      95      97   10.89    8.20\n       0       0    1300   66.00    1979    2904   12.00      95      97   10.89    8.20\n       0       2    1250   64.00    1975    2904   12.60\n";
        let ev = parse(old);
        assert_eq!(
            series(&ev, &Quantity::CpuFreq { cpu: 2 }),
            &[(0.0, 2875.0), (5.0, 1975.0)]
        );
        assert!(!ev.series.iter().any(|s| s.quantity
            == Quantity::ClockFreq {
                name: "Avg_MHz".into()
            }));
        let mut wide = String::from("Core\tCPU\tAvg_MHz\tBusy%\tBzy_MHz\tTSC_MHz\tIPC\tIRQ\tSMI\tPOLL\tC1\tC1E\tC6\tPOLL%\tC1%\tC1E%\tC6%\tCPU%c1\tCPU%c6\tCoreTmp\tCoreThr\tPkgTmp\tGFX%rc6\tGFXMHz\tTotl%C0\tAny%C0\tGFX%C0\tCPUGFX%\tPkg%pc2\tPkg%pc6\tPkgWatt\tCorWatt\tGFXWatt\tRAMWatt\tPKG_%\tRAM_%\n");
        for row in ["-\t-", "0\t0", "0\t1"] {
            wide.push_str(row);
            wide.push_str("\t2650\t95.02\t2789\t2304\t1.05\t20011\t0\t0\t10\t20\t30\t0.00\t0.10\t0.20\t4.00\t2.00\t3.00\t99\t12\t100\t99.00\t300\t99.0\t99.0\t0.5\t0.4\t0.00\t0.00\t28.01\t24.50\t0.10\t1.20\t0.00\t0.00\n");
        }
        let lines: Vec<&str> = wide.lines().collect();
        assert!(looks_like(&lines));
        let ev = parse(&wide);
        assert_eq!(series(&ev, &Quantity::CpuFreq { cpu: 1 }), &[(0.0, 2789.0)]);
    }

    #[test]
    fn garbage_is_survived() {
        let ev = parse("a,b\n\"unterminated,1\n1,2,3,4,5,6,7\n,,,\n");
        assert!(ev.series.len() <= 2);
        let ev = parse("");
        assert!(ev.series.is_empty());
    }
}

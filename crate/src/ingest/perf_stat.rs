//! Counter summaries: `perf stat` (Linux perf) and `simpleperf stat` (Android), as printed at
//! the end of a run.
//!
//! - **perf stat, text.** `Performance counter stats for './cmd'` (or `process id '1234'`,
//!   `thread id`, `'system wide'`, `'CPU(s) 0-3'`, with `(5 runs)` under `-r`), then one row per
//!   event: `count [unit] event [# metric] [(share%)] [( +- x% )]`. Counts carry the locale's
//!   thousands separator (`1,234,567`, or `1.234.567` with a decimal comma); `task-clock` is in
//!   msec (`12,345.67 msec task-clock`, older `12345.670000 task-clock (msec)`, very old
//!   `task-clock-msecs`); an event may carry modifiers (`cycles:u`) or a hybrid PMU
//!   (`cpu_core/cycles/`, `cpu_atom/cycles/`, added up); `<not supported>` and `<not counted>`
//!   stand for a count. A `#` line without a count continues the metrics of the row above.
//!   Then `N seconds time elapsed` (`+- x` under `-r`), `N seconds user`, `N seconds sys`.
//! - **perf stat -I** prefixes every row with the interval's end time; the rows are added up,
//!   and the last stamp is the wall time when no elapsed line follows.
//! - **perf stat -x SEP** (CSV): `count,unit,event,run time,share,metric,metric unit`, after
//!   any prefix fields (`-I` time, `-A` CPU, `--per-core` ids, `--per-thread` name); no header
//!   and usually no elapsed line, so the wall time is task-clock over the printed CPUs utilized.
//! - **simpleperf stat.** `Performance counter statistics:` then an optional
//!   `#  count  event_name  # count / runtime` header and rows `count event # comment (share%)`,
//!   task-clock as `886.008130(ms)`, instructions commented as cycles per instruction; it ends
//!   with `Total test time: 10.023829 seconds.`. `--per-thread` puts `thread_name pid tid`
//!   first, `--per-core` a CPU, `--csv` separates the fields with commas (`Total test time,10.02,
//!   seconds,`), `--interval` repeats the whole block (each becomes a summary).
//!
//! A summary is often pasted after the output of the command it wrapped (`perf stat -- llama-cli
//! ...`): when the sniffer found a framework, every line outside the counter rows goes to that
//! framework's log parser as well, so the run and its counters come from one input.

use super::delimited::{fields, Delim};
use super::lines::Line;
use super::log::LogParser;
use super::{wrapper, LineParser};
use crate::evidence::counters::{
    CounterScope, CounterSummary, CounterTool, CounterValue, MAX_SUMMARIES,
};
use crate::evidence::Framework;
use crate::evidence::{Evidence, InputId, ProblemCode, SkippedLines};
use regex::Regex;
use std::sync::OnceLock;

struct Re {
    perf_header: Regex,
    elapsed: Regex,
    user_sys: Regex,
    total_time: Regex,
    share: Regex,
    spread: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("perf stat pattern compiles");
        Re {
            perf_header: r(r"^Performance counter stats for (.+?)(?:\s*\((\d+) runs\))?:?\s*$"),
            elapsed: r(r"^([\d.,]+)\s+(?:\+-\s*[\d.,]+\s+)?seconds time elapsed"),
            user_sys: r(r"^([\d.,]+)\s+seconds (user|sys)\s*$"),
            total_time: r(r"^Total test time[:,]\s*(\d+(?:[.,]\d+)*)\s*,?\s*seconds"),
            share: r(r"\(\s*([\d.,]+)\s*%\s*\)"),
            spread: r(r"\(\s*\+-\s*[\d.,]+\s*%\s*\)"),
        }
    })
}

/// Whether a line opens a counter summary: perf's or simpleperf's header.
fn header_tool(t: &str) -> Option<CounterTool> {
    if t.starts_with("Performance counter stats for") {
        Some(CounterTool::Perf)
    } else if t.starts_with("Performance counter statistics") {
        Some(CounterTool::Simpleperf)
    } else {
        None
    }
}

/// An input is a counter summary when a header opens one, or when it starts with rows of
/// `perf stat -x` naming the usual events (CSV has no header).
pub fn looks_like(lines: &[&str]) -> bool {
    if lines.iter().any(|l| header_tool(unquote(l)).is_some()) {
        return true;
    }
    let body: Vec<&str> = lines
        .iter()
        .map(|l| unquote(l))
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('$'))
        .take(40)
        .collect();
    let csv = body
        .iter()
        .filter(|l| csv_row(l, false).is_some_and(|r| r.kind != Kind::Other))
        .count();
    let json = body
        .iter()
        .filter(|l| json_row(l).is_some_and(|r| r.kind != Kind::Other))
        .count();
    if json >= 2 {
        return true;
    }
    // Headerless text rows: `perf stat -I` pasted without its first lines.
    let text = body
        .iter()
        .filter(|l| l.contains('#') && text_row(l, false).is_some_and(|r| r.kind != Kind::Other))
        .count();
    (csv >= 2 && csv * 10 >= body.len() * 6) || (text >= 3 && text * 10 >= body.len() * 6)
}

/// A pasted line without its quote marks (`> `) and surrounding blanks.
fn unquote(line: &str) -> &str {
    let mut t = line.trim();
    while let Some(rest) = t.strip_prefix('>') {
        t = rest.trim_start();
    }
    // A Ctrl-C echoed in front of the last interval of `perf stat -I`.
    t.strip_prefix("^C").map_or(t, str::trim_start)
}

/// What an event counts, for the figures tokscope derives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    TaskClock,
    CpuClock,
    ContextSwitches,
    Migrations,
    PageFaults,
    Cycles,
    Instructions,
    Duration,
    Other,
}

/// The event's base name and whether modifiers restrict it to user or kernel mode.
fn classify(event: &str) -> (Kind, bool) {
    let e = event.to_ascii_lowercase();
    // `cpu_core/cycles/`, `armv8_pmuv3_0/cpu_cycles/u`: the event sits between the slashes.
    let (name, mods) = match e.split_once('/') {
        Some((_, rest)) => match rest.split_once('/') {
            Some((inner, after)) => (inner.to_string(), after.trim_start_matches(':').to_string()),
            None => (rest.to_string(), String::new()),
        },
        None => match e.split_once(':') {
            Some((n, m)) => (n.to_string(), m.to_string()),
            None => (e.clone(), String::new()),
        },
    };
    let partial = {
        let (u, k) = (mods.contains('u'), mods.contains('k'));
        u != k
    };
    let kind = match name.as_str() {
        "task-clock" | "task-clock-msecs" | "task-clock-ticks" => Kind::TaskClock,
        "cpu-clock" => Kind::CpuClock,
        "context-switches" | "cs" => Kind::ContextSwitches,
        "cpu-migrations" | "migrations" => Kind::Migrations,
        "page-faults" | "faults" => Kind::PageFaults,
        "cycles" | "cpu-cycles" | "cpu_cycles" => Kind::Cycles,
        "instructions" | "inst_retired" | "inst_retired.any" => Kind::Instructions,
        "duration_time" => Kind::Duration,
        _ => Kind::Other,
    };
    (kind, partial)
}

/// A token that names an event: a letter first, no spaces, no sentence punctuation.
fn is_event(t: &str) -> bool {
    let mut chars = t.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && t.len() <= 120
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/=,@".contains(c))
}

/// A unit token of perf (`msec`, `ns`, `Joules`, `MiB`): letters only, short.
fn is_unit(t: &str) -> bool {
    !t.is_empty() && t.len() <= 8 && t.chars().all(|c| c.is_ascii_alphabetic())
}

/// A count as printed: a number in the input's locale, simpleperf's `886.0(ms)`, or a stand-in
/// for a counter that did not count.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Count {
    Value(f64),
    /// simpleperf's task-clock in milliseconds.
    Millis(f64),
    NotCounted,
}

fn parse_count(t: &str, comma: bool) -> Option<Count> {
    match t {
        "<not-counted>" | "<not-supported>" | "<not counted>" | "<not supported>" => {
            return Some(Count::NotCounted)
        }
        _ => {}
    }
    if let Some(n) = t.strip_suffix("(ms)") {
        return number(n, comma).map(Count::Millis);
    }
    number(t, comma).map(Count::Value)
}

/// A number with thousands separators in either convention. `comma` says the input writes a
/// decimal comma (seen on a value with both separators, or a time with a comma before a
/// fraction that is no group of three).
pub fn number(t: &str, comma: bool) -> Option<f64> {
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    if !t.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let groups_of_three = |sep: char| t.split(sep).skip(1).all(|g| g.len() == 3);
    let plain = match (t.contains('.'), t.contains(',')) {
        (true, true) => {
            if t.rfind(',') > t.rfind('.') {
                t.replace('.', "").replace(',', ".")
            } else {
                t.replace(',', "")
            }
        }
        (false, true) => {
            if !comma && groups_of_three(',') {
                t.replace(',', "")
            } else {
                t.replace(',', ".")
            }
        }
        (true, false) => {
            if comma && groups_of_three('.') {
                t.replace('.', "")
            } else {
                t.to_string()
            }
        }
        (false, false) => t.to_string(),
    };
    plain.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Drops the thousands separators that locales other than C and en write between digit groups:
/// a no-break or narrow no-break space (fr_FR, ru_RU, sv_SE, pl_PL), a thin space, or an
/// apostrophe (de_CH, it_CH). perf prints counts through `%'` under the user's LC_NUMERIC, and
/// these separators would otherwise split one count into two words.
fn join_digit_groups(t: &str) -> std::borrow::Cow<'_, str> {
    const SEPARATORS: [char; 5] = ['\u{a0}', '\u{202f}', '\u{2009}', '\'', '\u{2019}'];
    if !t.contains(SEPARATORS) {
        return std::borrow::Cow::Borrowed(t);
    }
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if SEPARATORS.contains(&c) && between_digits {
            continue;
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a printed value shows a decimal comma.
fn shows_decimal_comma(t: &str) -> bool {
    match (t.rfind('.'), t.rfind(',')) {
        (Some(d), Some(c)) => c > d,
        (None, Some(c)) => t.len() - c - 1 != 3,
        _ => false,
    }
}

/// One counter row, from text or CSV.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    stamp: Option<f64>,
    count: Count,
    unit: String,
    event: String,
    kind: Kind,
    partial: bool,
    metric: Option<(f64, String)>,
    share: Option<f64>,
}

/// A `perf stat` / `simpleperf stat` text row.
fn text_row(t: &str, comma: bool) -> Option<Row> {
    let r = re();
    let t = t
        .replace("<not supported>", "<not-supported>")
        .replace("<not counted>", "<not-counted>");
    let (left, right) = match t.split_once('#') {
        Some((l, m)) => (l.trim(), Some(m.trim())),
        None => (t.trim(), None),
    };
    let mut share = None;
    let mut unit = String::new();
    // Trailing groups on the left: `(83.33%)`, `( +- 0.52% )`, `(msec)`.
    let mut left = left.to_string();
    loop {
        let l = left.trim_end();
        if !l.ends_with(')') {
            break;
        }
        let Some(open) = l.rfind('(') else { break };
        let group = &l[open..];
        if let Some(c) = r.share.captures(group) {
            share = number(&c[1], comma);
        } else if group == "(msec)" {
            unit = "msec".into();
        } else if !r.spread.is_match(group) {
            break;
        }
        // simpleperf's `886.0(ms)` is a count, not a trailing group.
        if l[..open].ends_with(|c: char| c.is_ascii_digit()) && group == "(ms)" {
            break;
        }
        left = l[..open].to_string();
    }
    let tokens: Vec<&str> = left.split_whitespace().collect();
    let (&event, rest) = tokens.split_last()?;
    if !is_event(event) {
        return None;
    }
    let (count_at, unit_tok) = match rest.split_last() {
        Some((u, before)) if is_unit(u) && !before.is_empty() => (before.len() - 1, Some(*u)),
        Some(_) => (rest.len() - 1, None),
        None => return None,
    };
    let count = parse_count(rest[count_at], comma)?;
    if let Some(u) = unit_tok {
        unit = u.to_string();
    }
    let prefix = &rest[..count_at];
    let stamp = prefix
        .first()
        .filter(|p| prefix.len() <= 2 && p.contains(['.', ',']))
        .and_then(|p| number(p, comma));
    let mut metric = None;
    if let Some(m) = right {
        let mut m = m.to_string();
        if let Some(c) = r.share.captures(&m) {
            share = share.or_else(|| number(&c[1], comma));
        }
        m = r.share.replace_all(&m, "").to_string();
        m = r.spread.replace_all(&m, "").to_string();
        let mut words = m.split_whitespace();
        if let Some(v) = words.next().and_then(|w| number(w, comma)) {
            metric = Some((v, words.collect::<Vec<_>>().join(" ")));
        }
    }
    let (kind, partial) = classify(event);
    Some(Row {
        stamp,
        count,
        unit,
        event: event.to_string(),
        kind,
        partial,
        metric,
        share,
    })
}

/// A row of `perf stat -j` (perf 6.2 and later): one JSON object per line, `"counter-value"` a
/// string (`"12345.670000"`, `"<not counted>"`), `"interval"` under `-I`, the metric as
/// `"metric-value"` (a number or a string by version) and `"metric-unit"`.
fn json_row(t: &str) -> Option<Row> {
    if !t.starts_with('{') || !t.contains("\"counter-value\"") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(t).ok()?;
    let text = |key: &str| -> Option<String> {
        match v.get(key)? {
            serde_json::Value::String(s) => Some(s.trim().to_string()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    };
    let figure = |key: &str| text(key).and_then(|s| number(&s, false));
    let count = parse_count(&text("counter-value")?, false)?;
    let event = text("event")?;
    if !is_event(&event) {
        return None;
    }
    let (kind, partial) = classify(&event);
    let metric = figure("metric-value").zip(text("metric-unit"));
    Some(Row {
        stamp: figure("interval"),
        count,
        unit: text("unit").unwrap_or_default(),
        event,
        kind,
        partial,
        metric,
        share: figure("pcnt-running"),
    })
}

/// A CSV row of `perf stat -x SEP` or `simpleperf stat --csv`; `simpleperf` tries the latter's
/// field order (count, event, comment) first.
fn csv_row(t: &str, simpleperf: bool) -> Option<Row> {
    let sep = [',', ';', '\t', '|']
        .into_iter()
        .filter(|s| t.contains(*s))
        .max_by_key(|s| t.matches(*s).count())?;
    let cells = fields(t, Delim::Char(sep));
    let f: Vec<&str> = cells.iter().map(|c| c.trim()).collect();
    if f.len() < 3 || f.len() > 40 {
        return None;
    }
    let comma = sep != ',' && f.iter().any(|x| shows_decimal_comma(x));
    let perf_at = |i: usize| {
        let count = parse_count(f[i], comma)?;
        let unit = *f.get(i + 1)?;
        let event = *f.get(i + 2)?;
        ((unit.is_empty() || is_unit(unit)) && is_event(event)).then_some((count, unit, event))
    };
    let sp_at = |i: usize| {
        let count = parse_count(f[i], comma)?;
        let event = *f.get(i + 1)?;
        is_event(event).then_some((count, event))
    };
    for i in 0..f.len().min(6) {
        let stamp = (i >= 1 && f[0].contains('.'))
            .then(|| number(f[0], comma))
            .flatten();
        let sp = if simpleperf || i + 2 >= f.len() {
            sp_at(i)
        } else {
            None
        };
        if let Some((count, event)) = sp {
            let (kind, partial) = classify(event);
            let metric = f.get(i + 2).and_then(|c| {
                let mut w = c.split_whitespace();
                let v = number(w.next()?, comma)?;
                Some((v, w.collect::<Vec<_>>().join(" ")))
            });
            let share = f
                .get(i + 3)
                .and_then(|s| re().share.captures(s).and_then(|c| number(&c[1], comma)));
            return Some(Row {
                stamp: None,
                count,
                unit: String::new(),
                event: event.to_string(),
                kind,
                partial,
                metric,
                share,
            });
        }
        if let Some((count, unit, event)) = perf_at(i) {
            let (kind, partial) = classify(event);
            let share = f.get(i + 4).and_then(|s| number(s, comma));
            let metric = f
                .get(i + 5)
                .and_then(|v| number(v, comma))
                .map(|v| (v, f.get(i + 6).map(|u| u.to_string()).unwrap_or_default()));
            return Some(Row {
                stamp,
                count,
                unit: unit.to_string(),
                event: event.to_string(),
                kind,
                partial,
                metric,
                share,
            });
        }
    }
    None
}

/// Lines perf prints around a summary that carry no figure.
fn is_tool_note(t: &str) -> bool {
    const NOTES: &[&str] = &[
        "Some events weren't counted",
        "echo 0 > /proc/sys/kernel/nmi_watchdog",
        "echo 1 > /proc/sys/kernel/nmi_watchdog",
        "perf stat ",
        "simpleperf stat",
        "The events in group usually have to be from the same PMU",
        "WARNING:",
        "Error:",
    ];
    // Shell prompts (`$ cmd`, a bare `host:/dir $` after the output) and simpleperf's own log
    // lines (`simpleperf W cmd_stat.cpp:868] ...`).
    let prompt = t.starts_with('$') || t.ends_with('$') || t.ends_with(" #");
    let tool_log = t
        .strip_prefix("simpleperf ")
        .is_some_and(|r| r.len() > 2 && r.as_bytes()[1] == b' ' && "VDIWEF".contains(&r[..1]));
    NOTES
        .iter()
        .any(|n| t.starts_with(n) || t.contains(" perf stat "))
        || prompt
        || tool_log
}

/// The scope a perf header names.
fn perf_scope(target: &str) -> CounterScope {
    let target = target.trim();
    if target.contains("system wide") || target.contains("CPU(s)") {
        CounterScope::SystemWide
    } else if target.starts_with("process id") || target.starts_with("thread id") {
        CounterScope::Attached(crate::evidence::clip(target))
    } else {
        CounterScope::Command(crate::evidence::clip(target.trim_matches('\'')))
    }
}

/// The scope a simpleperf command line (echoed before its output) names.
fn simpleperf_scope(cmd: &str) -> CounterScope {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let value = |flag: &str| {
        words
            .iter()
            .position(|w| *w == flag)
            .and_then(|i| words.get(i + 1))
    };
    if words.contains(&"-a") {
        CounterScope::SystemWide
    } else if let Some(p) = value("-p") {
        CounterScope::Attached(crate::evidence::clip(&format!("process id '{p}'")))
    } else if let Some(t) = value("-t") {
        CounterScope::Attached(crate::evidence::clip(&format!("thread id '{t}'")))
    } else if let Some(a) = value("--app") {
        CounterScope::Attached(crate::evidence::clip(&format!("app '{a}'")))
    } else {
        CounterScope::Unknown
    }
}

/// What a line was to the counter reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// A line of a summary: header, row, total.
    Counter,
    /// A line around it that holds no figure (a prompt, the command, a tool note): known, and
    /// also handed to the framework log parser, since a command line names threads and model.
    Aside,
    Unknown,
}

pub struct PerfStatParser {
    input: InputId,
    /// The framework log the summary was pasted after, when the sniffer found one.
    log: Option<LogParser>,
    current: Option<CounterSummary>,
    /// The last `simpleperf stat` / `perf stat` command line seen (its scope, for simpleperf).
    command: Option<String>,
    /// The input writes a decimal comma (`4.005,12 msec`).
    comma: bool,
    /// Lines of no counter shape when there is no log to hand them to.
    skipped: SkippedLines,
    /// The open summary's CPU time comes from `cpu-clock` (no `task-clock` row yet).
    from_cpu_clock: bool,
    /// The open summary has printed its total (`seconds time elapsed`, `Total test time`) or
    /// its code fence closed: only `user` / `sys` lines still belong to it, and only rows of
    /// known events start another one (a table after it is no counter).
    ended: bool,
}

impl PerfStatParser {
    pub fn new(input: InputId, name: &str, framework: Option<Framework>) -> Self {
        PerfStatParser {
            input,
            log: framework.map(|f| LogParser::new(input, name, Some(f))),
            current: None,
            command: None,
            comma: false,
            skipped: SkippedLines::default(),
            from_cpu_clock: false,
            ended: false,
        }
    }

    fn close(&mut self, ev: &mut Evidence) {
        let Some(mut s) = self.current.take() else {
            return;
        };
        if !s.has_figures() {
            return;
        }
        fix_task_clock_unit(&mut s);
        if ev.counters.summaries.len() >= MAX_SUMMARIES {
            ev.counters.dropped += 1;
        } else {
            ev.counters.summaries.push(s);
        }
    }

    fn open(&mut self, tool: CounterTool, scope: CounterScope, line: u64, ev: &mut Evidence) {
        self.close(ev);
        self.from_cpu_clock = false;
        self.ended = false;
        self.current = Some(CounterSummary::new(self.input, tool, scope, line));
    }

    /// Reads a line of the summary, if it is one.
    fn counter_line(&mut self, n: u64, t: &str, ev: &mut Evidence) -> Seen {
        let r = re();
        let joined = join_digit_groups(t);
        let t = joined.as_ref();
        if let Some(c) = r.perf_header.captures(t) {
            let scope = perf_scope(&c[1]);
            self.open(CounterTool::Perf, scope, n, ev);
            if let Some(s) = self.current.as_mut() {
                s.repeats = c.get(2).and_then(|m| m.as_str().parse().ok());
            }
            return Seen::Counter;
        }
        if header_tool(t) == Some(CounterTool::Simpleperf) {
            let scope = self
                .command
                .as_deref()
                .filter(|c| c.contains("simpleperf"))
                .map_or(CounterScope::Unknown, simpleperf_scope);
            self.open(CounterTool::Simpleperf, scope, n, ev);
            return Seen::Counter;
        }
        if t.contains("perf stat") {
            self.command = Some(crate::evidence::clip(t));
            return Seen::Aside;
        }
        if let Some(c) = r.elapsed.captures(t) {
            self.note_comma(&c[1]);
            let v = number(&c[1], self.comma);
            return self.wall_time(CounterTool::Perf, n, t, v);
        }
        if let Some(c) = r.user_sys.captures(t) {
            self.note_comma(&c[1]);
            let v = number(&c[1], self.comma);
            let s = self.summary(CounterTool::Perf, n);
            match &c[2] {
                "user" => s.user_s = v,
                _ => s.sys_s = v,
            }
            s.last_line = n;
            return Seen::Counter;
        }
        if let Some(c) = r.total_time.captures(t) {
            let v = number(&c[1], false);
            return self.wall_time(CounterTool::Simpleperf, n, t, v);
        }
        // Column headers (`#  count  event_name  # count / runtime`, with `thread_name pid tid`
        // or `cpu` in front under --per-thread / --per-core), metric continuation lines.
        let column_header = t.contains("event_name") && t.contains("count");
        if column_header || (t.starts_with('#') && self.current.is_some()) {
            return Seen::Counter;
        }
        if t.starts_with('#') || is_tool_note(t) {
            return Seen::Aside;
        }
        // A metric-only line inside a summary: `TopdownL1 (cpu_core)  #  45.6 %  tma_backend_bound`.
        if let (Some(_), false, Some((left, _))) = (&self.current, self.ended, t.split_once('#')) {
            let counted = left
                .split_whitespace()
                .any(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '<'));
            if !counted {
                return Seen::Counter;
            }
        }
        let simpleperf = self
            .current
            .as_ref()
            .is_some_and(|s| s.tool == CounterTool::Simpleperf);
        let text_like = t.contains("  ") || !t.contains([',', ';', '\t']);
        if text_like {
            self.note_text_comma(t);
        }
        let row = if t.starts_with('{') {
            json_row(t)
        } else if text_like {
            text_row(t, self.comma)
        } else {
            None
        }
        .or_else(|| csv_row(t, simpleperf));
        let Some(row) = row else {
            return Seen::Unknown;
        };
        // Outside an open summary, only rows of known events start a (headerless) one: a log
        // or table line that happens to end in a word is no counter.
        let open = self.current.is_some() && !self.ended;
        if !open && row.kind == Kind::Other {
            return Seen::Unknown;
        }
        // A known row after a finished summary starts the next (headerless) one.
        if self.ended {
            self.close(ev);
            self.ended = false;
            self.from_cpu_clock = false;
        }
        let tool = if simpleperf {
            CounterTool::Simpleperf
        } else {
            CounterTool::Perf
        };
        self.add_row(n, t, row, tool);
        Seen::Counter
    }

    /// A text row shows a decimal comma on a count with both separators (`32.041,77`) or on a
    /// time in msec, which always has a fraction (`1000,5 msec`).
    fn note_text_comma(&mut self, t: &str) {
        let tokens: Vec<&str> = t.split_whitespace().collect();
        for (i, tok) in tokens.iter().enumerate() {
            let both = tok.contains('.') && tok.contains(',');
            let time = tokens.get(i + 1) == Some(&"msec");
            if (both || time) && tok.starts_with(|c: char| c.is_ascii_digit()) {
                self.note_comma(tok);
            }
        }
    }

    /// The summary's closing wall time (`seconds time elapsed`, `Total test time`).
    fn wall_time(&mut self, tool: CounterTool, n: u64, t: &str, v: Option<f64>) -> Seen {
        let s = self.summary(tool, n);
        if let Some(v) = v {
            s.elapsed_s = Some(CounterValue::new(v, n, t));
        }
        s.last_line = n;
        self.ended = true;
        Seen::Counter
    }

    fn note_comma(&mut self, value: &str) {
        if shows_decimal_comma(value) {
            self.comma = true;
        }
    }

    /// The open summary, or a new one of `tool` for rows that come without a header.
    fn summary(&mut self, tool: CounterTool, line: u64) -> &mut CounterSummary {
        let input = self.input;
        self.current
            .get_or_insert_with(|| CounterSummary::new(input, tool, CounterScope::Unknown, line))
    }

    fn add_row(&mut self, n: u64, text: &str, row: Row, tool: CounterTool) {
        let input = self.input;
        let s = self
            .current
            .get_or_insert_with(|| CounterSummary::new(input, tool, CounterScope::Unknown, n));
        s.last_line = n;
        s.rows += 1;
        if let Some(stamp) = row.stamp {
            s.intervals += 1;
            if s.last_stamp.as_ref().map_or(true, |e| stamp >= e.value) {
                s.last_stamp = Some(CounterValue::new(stamp, n, text));
            }
        }
        let value = match row.count {
            Count::NotCounted => {
                if s.not_counted.len() < 32 {
                    s.not_counted.push((row.event.clone(), n));
                }
                return;
            }
            Count::Millis(v) => v,
            Count::Value(v) => match (row.kind, row.unit.as_str()) {
                (Kind::TaskClock | Kind::CpuClock, "ns") => v / 1e6,
                (Kind::TaskClock | Kind::CpuClock, "sec" | "s") => v * 1000.0,
                (Kind::Duration, "msec") => v / 1000.0,
                (Kind::Duration, _) => v / 1e9,
                _ => v,
            },
        };
        let metric_is = |words: &[&str]| {
            row.metric.as_ref().and_then(|(v, u)| {
                let u = u.to_ascii_lowercase();
                words.iter().any(|w| u.starts_with(w)).then_some(*v)
            })
        };
        let cpus_metric =
            metric_is(&["cpus utilized", "cpus used"]).filter(|_| row.stamp.is_none());
        let slot = match row.kind {
            Kind::TaskClock => {
                if std::mem::take(&mut self.from_cpu_clock) {
                    s.task_clock_ms = None;
                    s.cpus_printed = None;
                }
                s.cpus_printed = cpus_metric.or(s.cpus_printed);
                &mut s.task_clock_ms
            }
            // cpu-clock stands in for task-clock when there is none (`perf stat -a`).
            Kind::CpuClock if s.task_clock_ms.is_none() || self.from_cpu_clock => {
                self.from_cpu_clock = true;
                s.cpus_printed = cpus_metric.or(s.cpus_printed);
                &mut s.task_clock_ms
            }
            Kind::ContextSwitches => &mut s.context_switches,
            Kind::Migrations => &mut s.cpu_migrations,
            Kind::PageFaults => &mut s.page_faults,
            Kind::Cycles => {
                if row.stamp.is_none() {
                    s.ghz_printed = metric_is(&["ghz"]).or(s.ghz_printed);
                }
                &mut s.cycles
            }
            Kind::Instructions => &mut s.instructions,
            Kind::Duration => {
                if s.elapsed_s.is_none() {
                    s.elapsed_s = Some(CounterValue::new(value, n, text));
                }
                return;
            }
            Kind::CpuClock | Kind::Other => return,
        };
        match slot {
            Some(v) => v.add(value, row.partial, row.share),
            None => {
                let mut v = CounterValue::new(value, n, text);
                v.partial = row.partial;
                v.share_pct = row.share;
                *slot = Some(v);
            }
        }
    }
}

/// simpleperf builds that print task-clock as a bare count of nanoseconds: the printed CPUs used
/// give them away (a million times the CPU time the wall time allows).
fn fix_task_clock_unit(s: &mut CounterSummary) {
    let (Some(cpus), Some(t), Some(e)) =
        (s.cpus_printed, s.task_clock_ms.as_ref(), s.stated_elapsed())
    else {
        return;
    };
    if cpus <= 0.0 || e.value <= 0.0 {
        return;
    }
    let ratio = t.value / 1000.0 / e.value / cpus;
    if (1e5..1e7).contains(&ratio) {
        if let Some(t) = s.task_clock_ms.as_mut() {
            t.value /= 1e6;
        }
    }
}

impl LineParser for PerfStatParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let t = unquote(line.text);
        let fence = wrapper::is_markdown_fence(line.text);
        let mut seen = if t.is_empty() || fence {
            Seen::Aside
        } else {
            self.counter_line(line.number, t, ev)
        };
        if fence && self.current.is_some() {
            self.ended = true;
        }
        if seen == Seen::Unknown {
            // A logcat- or journald-wrapped summary.
            let inner = wrapper::unwrap(line.text).message.trim();
            if inner != t && !inner.is_empty() {
                seen = self.counter_line(line.number, inner, ev);
            }
        }
        match (seen, self.log.as_mut()) {
            (Seen::Counter, _) | (Seen::Aside, None) => {}
            (_, Some(log)) => log.line(line, ev),
            (Seen::Unknown, None) => self.skipped.add(line.number, line.text),
        }
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.close(ev);
        if let Some(log) = self.log.as_mut() {
            log.finish(ev);
        }
        if !ev.counters.summaries.iter().any(|s| s.input == self.input) {
            ev.problem(self.input, ProblemCode::CountersNotRead, None);
        }
        ev.problem_lines(self.input, ProblemCode::CounterLinesSkipped, &self.skipped);
        if ev.counters.dropped > 0 {
            ev.problem_count(
                self.input,
                ProblemCode::CountersCut,
                None,
                ev.counters.dropped,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Evidence {
        read_with(text, None)
    }

    fn read_with(text: &str, fw: Option<Framework>) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("stat.txt");
        let mut p = PerfStatParser::new(id, "stat.txt", fw);
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

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn numbers_in_both_conventions() {
        assert_eq!(number("1,234,567", false), Some(1_234_567.0));
        assert_eq!(number("12,345.67", false), Some(12_345.67));
        assert_eq!(number("4.005,12", false), Some(4005.12));
        assert_eq!(number("1.234.567", true), Some(1_234_567.0));
        assert_eq!(number("1.234", true), Some(1234.0));
        assert_eq!(number("1.234", false), Some(1.234));
        assert_eq!(number("10,01", false), Some(10.01));
        assert_eq!(number("-1", false), None);
        assert_eq!(number("1e400", false), None);
        assert_eq!(number("", false), None);
    }

    #[test]
    fn perf_text_summary() {
        let t = "\
 Performance counter stats for './llama-cli -m q4.gguf -t 8 -n 128':

         21,812.45 msec task-clock                       #    2.104 CPUs utilized
            48,211      context-switches                 #    2.210 K/sec
             9,874      cpu-migrations                   #  452.680 /sec
           612,004      page-faults                      #   28.058 K/sec
    26,174,940,000      cycles                           #    1.200 GHz                         (83.31%)
    31,409,928,000      instructions                     #    1.20  insn per cycle              (83.34%)
   <not supported>      stalled-cycles-frontend

      10.367180244 seconds time elapsed

      20.951000000 seconds user
       0.862000000 seconds sys
";
        let ev = read(t);
        assert!(
            ev.inputs[0].problems.is_empty(),
            "{:?}",
            ev.inputs[0].problems
        );
        let s = &ev.counters.summaries[0];
        assert_eq!(s.tool, CounterTool::Perf);
        assert!(matches!(&s.scope, CounterScope::Command(c) if c.contains("-t 8")));
        assert_eq!(s.task_clock_ms.as_ref().unwrap().line, 3);
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 21_812.45));
        assert!(close(s.cpus_used().unwrap(), 21.81245 / 10.367180244));
        assert_eq!(s.cpu_migrations.as_ref().unwrap().value, 9874.0);
        assert!(close(s.ghz().unwrap(), 26_174_940_000.0 / 21_812.45e6));
        assert!(close(s.ipc().unwrap(), 1.2));
        assert_eq!(s.cycles.as_ref().unwrap().share_pct, Some(83.31));
        assert_eq!(
            s.not_counted,
            vec![("stalled-cycles-frontend".to_string(), 9)]
        );
        assert_eq!(s.user_s, Some(20.951));
        assert_eq!((s.first_line, s.last_line), (1, 14));
    }

    #[test]
    fn older_perf_rows_and_repeats() {
        let t = "\
 Performance counter stats for process id '4242' (5 runs):

       4189.057424 task-clock (msec)         #    3.995 CPUs utilized            ( +-  0.41% )
             1,052 context-switches:u        #    0.251 K/sec                    ( +-  2.10% )
                15 CPU-migrations            #    0.004 K/sec
     13,389,872,561 cycles:u                 #    3.196 GHz                      ( +-  0.12% )  (83.30%)

       1.048614811 seconds time elapsed                                          ( +-  0.52% )
";
        let ev = read(t);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.repeats, Some(5));
        assert!(matches!(s.scope, CounterScope::Attached(_)));
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 4189.057424));
        assert_eq!(s.cpu_migrations.as_ref().unwrap().value, 15.0);
        assert!(s.cycles.as_ref().unwrap().partial);
        assert_eq!(s.cycles.as_ref().unwrap().share_pct, Some(83.30));
        assert!(close(s.elapsed().unwrap(), 1.048614811));
    }

    #[test]
    fn decimal_comma_locale() {
        let t = "\
 Performance counter stats for 'system wide':

         32.041,77 msec cpu-clock                        #    8,001 CPUs utilized
            12.345      context-switches                 #  385,280 /sec
     9.123.456.789      cycles                           #    0,285 GHz

       4,004651232 seconds time elapsed
";
        let ev = read(t);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.scope, CounterScope::SystemWide);
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 32_041.77));
        assert_eq!(s.context_switches.as_ref().unwrap().value, 12_345.0);
        assert_eq!(s.cycles.as_ref().unwrap().value, 9_123_456_789.0);
        assert!(close(s.elapsed().unwrap(), 4.004651232));
    }

    #[test]
    fn locales_that_group_digits_with_spaces_or_apostrophes() {
        // fr_FR: narrow no-break space and a decimal comma; ru_RU: no-break space.
        let fr = "\
 Performance counter stats for './llama-cli -m m.gguf':

        12\u{202f}345,67 msec task-clock                       #    3,912 CPUs utilized
    45\u{202f}678\u{202f}901\u{202f}234      cycles                           #    3,700 GHz
         1\u{a0}234      context-switches                 #  100,000 /sec

       3,156234567 seconds time elapsed
";
        let ev = read(fr);
        let s = &ev.counters.summaries[0];
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 12_345.67));
        assert_eq!(s.cycles.as_ref().unwrap().value, 45_678_901_234.0);
        assert_eq!(s.context_switches.as_ref().unwrap().value, 1_234.0);
        assert!(close(s.elapsed().unwrap(), 3.156234567));
        // de_CH: an apostrophe (or its typographic form) between groups, a decimal point.
        let ch = "\
 Performance counter stats for './llama-cli':

          8'001.50 msec task-clock                       #    1.999 CPUs utilized
     9\u{2019}123\u{2019}456      cycles                           #    1.140 GHz

       4.002 seconds time elapsed
";
        let ev = read(ch);
        let s = &ev.counters.summaries[0];
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 8_001.5));
        assert_eq!(s.cycles.as_ref().unwrap().value, 9_123_456.0);
    }

    #[test]
    fn hybrid_pmus_add_up() {
        let t = "\
 Performance counter stats for './llama-bench':

         40,000.00 msec task-clock                       #    7.990 CPUs utilized
    60,000,000,000      cpu_core/cycles/                 #    3.000 GHz
    20,000,000,000      cpu_atom/cycles/                 #    2.000 GHz                         (50.10%)
    90,000,000,000      cpu_core/instructions/
    10,000,000,000      cpu_atom/instructions/

       5.006000000 seconds time elapsed
";
        let s = read(t).counters.summaries[0].clone();
        assert_eq!(s.cycles.as_ref().unwrap().value, 80e9);
        assert_eq!(s.cycles.as_ref().unwrap().rows, 2);
        assert!(close(s.ghz().unwrap(), 2.0));
        assert!(close(s.ipc().unwrap(), 1.25));
    }

    #[test]
    fn interval_rows_add_up() {
        let t = "\
#           time             counts unit events
     1.001004567           3,998.21 msec task-clock                       #    3.994 CPUs utilized
     1.001004567                 40      cpu-migrations                   #   10.005 /sec
     2.002311908           3,999.02 msec task-clock                       #    3.995 CPUs utilized
     2.002311908                 60      cpu-migrations                   #   15.003 /sec
";
        let ev = read(t);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.intervals, 4);
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 7997.23));
        assert_eq!(s.cpu_migrations.as_ref().unwrap().value, 100.0);
        assert!(close(s.elapsed().unwrap(), 2.002311908));
        assert_eq!(s.cpus_printed, None);
    }

    #[test]
    fn perf_csv_with_and_without_prefixes() {
        let t = "\
4189.06,msec,task-clock,4189057424,100.00,3.995,CPUs utilized
1052,,context-switches,4189055898,100.00,251.139,/sec
15,,cpu-migrations,4189055330,100.00,3.581,/sec
13389872561,,cycles,4188981541,83.30,3.196,GHz
<not supported>,,stalled-cycles-frontend,0,100.00,,
";
        let ev = read(t);
        assert!(
            ev.inputs[0].problems.is_empty(),
            "{:?}",
            ev.inputs[0].problems
        );
        let s = &ev.counters.summaries[0];
        assert_eq!(s.cpus_printed, Some(3.995));
        assert!(close(s.elapsed().unwrap(), 4.18906 / 3.995));
        assert_eq!(s.cycles.as_ref().unwrap().share_pct, Some(83.30));
        assert_eq!(s.not_counted.len(), 1);
        let interval = "1.000123,3998.2,msec,task-clock,3998200000,100.00,3.998,CPUs utilized\n1.000123,25,,cpu-migrations,3998200000,100.00,6.25,/sec\n";
        let s = read(interval).counters.summaries[0].clone();
        assert_eq!(s.intervals, 2);
        assert_eq!(s.cpu_migrations.as_ref().unwrap().value, 25.0);
        let per_cpu = "CPU0;1000,5;msec;cpu-clock;1000500000;100,00;1,000;CPUs utilized\nCPU1;999,5;msec;cpu-clock;999500000;100,00;0,999;CPUs utilized\n";
        let s = read(per_cpu).counters.summaries[0].clone();
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 2000.0));
    }

    #[test]
    fn perf_json_rows_and_intervals() {
        let t = r#"{"counter-value" : "4189.057424", "unit" : "msec", "event" : "task-clock", "event-runtime" : 4189057424, "pcnt-running" : 100.00, "metric-value" : "3.995000", "metric-unit" : "CPUs utilized"}
{"counter-value" : "1052.000000", "unit" : "", "event" : "context-switches", "event-runtime" : 4189055898, "pcnt-running" : 100.00, "metric-value" : "251.139000", "metric-unit" : "/sec"}
{"counter-value" : "13389872561.000000", "unit" : "", "event" : "cycles", "event-runtime" : 4188981541, "pcnt-running" : 83.30, "metric-value" : "3.196000", "metric-unit" : "GHz"}
{"counter-value" : "<not supported>", "unit" : "", "event" : "stalled-cycles-frontend", "event-runtime" : 0, "pcnt-running" : 100.00}
"#;
        let lines: Vec<&str> = t.lines().collect();
        assert!(looks_like(&lines));
        let ev = read(t);
        assert!(
            ev.inputs[0].problems.is_empty(),
            "{:?}",
            ev.inputs[0].problems
        );
        let s = &ev.counters.summaries[0];
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 4189.057424));
        assert_eq!(s.cpus_printed, Some(3.995));
        assert_eq!(s.cycles.as_ref().unwrap().share_pct, Some(83.30));
        assert_eq!(s.not_counted.len(), 1);
        // `-I`: the interval leads each object; the metric is a number in some versions.
        let t = r#"{"interval" : 1.001004567, "counter-value" : "3998.210000", "unit" : "msec", "event" : "task-clock", "event-runtime" : 3998210000, "pcnt-running" : 100.00, "metric-value" : 3.994000, "metric-unit" : "CPUs utilized"}
{"interval" : 2.002311908, "counter-value" : "3999.020000", "unit" : "msec", "event" : "task-clock", "event-runtime" : 3999020000, "pcnt-running" : 100.00, "metric-value" : 3.995000, "metric-unit" : "CPUs utilized"}
"#;
        let s = read(t).counters.summaries[0].clone();
        assert_eq!(s.intervals, 2);
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 7997.23));
        assert!(json_row("{\"counter-value\" : \"1\", \"event\" : ").is_none());
        assert!(json_row("{\"counter-value\" : [], \"event\" : \"cycles\"}").is_none());
    }

    #[test]
    fn simpleperf_text_csv_and_per_thread() {
        let t = "\
Performance counter statistics:

#         count  event_name                # count / runtime
  1,320,496,145  cpu-cycles                # 0.131736 GHz                     (100%)
    510,426,028  instructions              # 2.587047 cycles per instruction  (100%)
 886.008130(ms)  task-clock                # 0.088390 cpus used               (100%)
            753  context-switches          # 75.121 /sec                      (100%)

Total test time: 10.023829 seconds.
";
        let ev = read(t);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.tool, CounterTool::Simpleperf);
        assert!(close(s.task_clock_ms.as_ref().unwrap().value, 886.008130));
        assert!(close(s.cpus_used().unwrap(), 0.886008130 / 10.023829));
        assert!(close(s.ipc().unwrap(), 510_426_028.0 / 1_320_496_145.0));
        let csv = "Performance counter statistics,\n1320496145,cpu-cycles,0.131736 GHz,(100%),\n886.008130(ms),task-clock,0.088390 cpus used,(100%),\nTotal test time,10.023829,seconds,\n";
        let s = read(csv).counters.summaries[0].clone();
        assert_eq!(s.cycles.as_ref().unwrap().value, 1_320_496_145.0);
        assert!(close(s.elapsed().unwrap(), 10.023829));
        let threads = "Performance counter statistics:\n\n thread_name  pid    tid    count  event_name  # count / runtime\n llama-cli    8021   8021   1,000,000,000  cpu-cycles  # 1.0 GHz (100%)\n llama-cli    8021   8030   2,000,000,000  cpu-cycles  # 2.0 GHz (100%)\n\nTotal test time: 1.0 seconds.\n";
        let ev = read(threads);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.cycles.as_ref().unwrap().value, 3e9);
        assert_eq!(
            ev.inputs[0].problems,
            vec![],
            "the column header is not a row"
        );
    }

    #[test]
    fn simpleperf_per_core_and_per_thread_csv_add_up() {
        let cores = "Performance counter statistics:\n\n# cpu       count  event_name    # count / runtime\n  0  1,000,000,000  cpu-cycles    # 1.000 GHz (100%)\n  4  3,000,000,000  cpu-cycles    # 3.000 GHz (100%)\n  0           120  cpu-migrations # 120 /sec (100%)\n\nTotal test time: 1.000 seconds.\n";
        let ev = read(cores);
        assert!(
            ev.inputs[0].problems.is_empty(),
            "{:?}",
            ev.inputs[0].problems
        );
        let s = &ev.counters.summaries[0];
        assert_eq!(s.cycles.as_ref().unwrap().value, 4e9);
        assert_eq!(s.cpu_migrations.as_ref().unwrap().value, 120.0);
        assert_eq!(s.intervals, 0, "a CPU number is no interval stamp");
        let threads = "Performance counter statistics,\nllama-cli,8021,8021,1000000000,cpu-cycles,1.0 GHz,(100%),\nllama-cli,8021,8030,2000000000,cpu-cycles,2.0 GHz,(100%),\nTotal test time,1.000000,seconds,\n";
        let s = read(threads).counters.summaries[0].clone();
        assert_eq!(s.cycles.as_ref().unwrap().value, 3e9);
        assert_eq!(s.cycles.as_ref().unwrap().rows, 2);
    }

    #[test]
    fn interval_blocks_are_summaries_each() {
        let block = "Performance counter statistics:\n\n 1,000  context-switches # 1.0 K/sec (100%)\n\nTotal test time: 1.000 seconds.\n";
        let ev = read(&block.repeat(3));
        assert_eq!(ev.counters.summaries.len(), 3);
        assert_eq!(ev.counters.summaries[2].first_line, 11);
    }

    #[test]
    fn a_log_before_the_summary_goes_to_its_parser() {
        let t = "\
llama_model_loader: loaded meta data with 19 key-value pairs
system_info: n_threads = 8 (n_threads_batch = 8) / 8 | AVX = 0 | NEON = 1 |
llama_perf_context_print:        eval time =   10000.00 ms /   127 runs   (   78.74 ms per token,    12.70 tokens per second)

 Performance counter stats for './llama-cli -t 8':

         21,812.45 msec task-clock                       #    2.104 CPUs utilized

      10.367180244 seconds time elapsed
";
        let ev = read_with(t, Some(Framework::LlamaCpp));
        assert_eq!(ev.runs.len(), 1);
        assert_eq!(ev.runs[0].n_threads, Some(8));
        assert_eq!(ev.counters.summaries.len(), 1);
    }

    #[test]
    fn a_table_after_a_finished_summary_goes_to_the_log() {
        let t = "> ```\n> Performance counter statistics:\n>\n>   4,000,000,000  cpu-cycles   # 2.000 GHz\n>   2000.000000(ms)  task-clock   # 4.000000 cpus used\n> ```\n>\n> model\tsize\tparams\tbackend\tthreads\ttest\tt/s\n> llama 1B Q4_0\t600.00 MiB\t1.10 B\tCPU\t4\ttg128\t40.10 ± 0.20\n";
        let ev = read_with(t, Some(Framework::LlamaCpp));
        assert_eq!(ev.counters.summaries.len(), 1);
        let s = &ev.counters.summaries[0];
        assert_eq!(s.rows, 2, "the bench row is no counter row");
        assert_eq!(s.last_line, 5);
        assert_eq!(ev.runs.len(), 1);
        assert_eq!(ev.runs[0].bench[0].tok_s, 40.10);
    }

    #[test]
    fn other_lines_are_shown_and_an_empty_summary_is_a_problem() {
        let ev = read("Performance counter stats for 'x':\n\nsomething odd here\n");
        let codes: Vec<_> = ev.inputs[0].problems.iter().map(|p| p.code).collect();
        assert!(codes.contains(&ProblemCode::CountersNotRead), "{codes:?}");
        assert!(
            codes.contains(&ProblemCode::CounterLinesSkipped),
            "{codes:?}"
        );
    }

    #[test]
    fn sniffs_headers_and_csv_but_not_a_log() {
        assert!(looks_like(&["", " Performance counter stats for 'ls':"]));
        assert!(looks_like(&["> Performance counter statistics:"]));
        assert!(looks_like(&[
            "4189.06,msec,task-clock,4189057424,100.00,3.995,CPUs utilized",
            "15,,cpu-migrations,4189055330,100.00,3.581,/sec",
        ]));
        assert!(!looks_like(&[
            "time,cpu0_freq_khz,temp_c",
            "0,1800000,41.5",
            "1,1800000,42.0"
        ]));
        assert!(!looks_like(&["starting", "loaded 3 layers"]));
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "Performance counter stats for",
            "Performance counter statistics:\n(((((\n#\n 1 (ms)\n",
            "Performance counter stats for 'x':\n 99999999999999999999999999999 cycles\n 1e5 task-clock\n",
            ",,,,,,,,\n,,cycles,,\n<not counted>,,,\n",
            "1.0 1.0 1.0 1.0 task-clock # # # ( ( ) )\n",
            "Performance counter stats for 'x':\n 0 msec task-clock # 0 CPUs utilized\n 0 seconds time elapsed\n",
        ] {
            let ev = read(t);
            for s in &ev.counters.summaries {
                let _ = (s.cpus_used(), s.ghz(), s.ipc(), s.elapsed());
            }
        }
    }
}

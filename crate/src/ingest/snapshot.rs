//! Snapshots: what `top`, `ps`, `/proc`, `taskset`, `dumpsys meminfo` and `free` print about
//! threads and memory at one instant, one or many times over (`top -d 1 -n 30`, a shell loop
//! around `ps -T` or `cat /proc/<pid>/task/*/stat`).
//!
//! One input kind, [`InputKind::Snapshot`](crate::evidence::InputKind::Snapshot), covers all of
//! them, because users paste them together (a `top -H` frame, then `dumpsys meminfo`, then
//! `free -h`) and because they share one meaning: a sample, not a record. Each part is found by
//! its own shape, line by line:
//!
//! - **Thread tables** (toybox and procps `top -H`, `ps -T` / `-L` / `-eLo`): the column header
//!   names the columns (`TID`/`LWP`/`SPID`/`PID`, the last CPU as `P`, `PSR` or `CPU`, `%CPU`,
//!   `TIME+`/`TIME`, `S`, `RES`/`RSS`, the names). Every header starts a frame. A thread's CPU
//!   time over a frame is its `%CPU` times the interval (procps prints the clock in `top -`
//!   lines; else both tools' default `-d` of 3 s is assumed), or the growth of its `TIME` column;
//!   it is credited to the CPU the row names through [`TraceFacts::snapshot`], the path the
//!   tokscope-record bundles use. A snapshot shows where a thread was at that instant only, so
//!   moves between frames are a lower bound and residency an estimate.
//! - **`/proc/<pid>/task/<tid>/stat` dumps**: `tid (comm) state ...`, the comm in parentheses may
//!   hold spaces and parentheses (the last `)` ends it); field 39 is the last CPU, 14 and 15 the
//!   user and system ticks (100 per second assumed). A tid seen again starts the next frame.
//! - **`taskset -p` / `-ap` / `-cp`**: each thread's affinity, as a hex mask or a CPU list.
//! - **Process memory**: the `RES` / `RSS` column of those tables (the peak per process),
//!   `dumpsys meminfo <pkg>` (`TOTAL PSS` / `TOTAL RSS`, or the older `TOTAL` row),
//!   `/proc/<pid>/status` (`VmRSS`, `VmHWM`).
//! - **System memory**: `free` (`-h`, `-m`, `-k`, busybox) and `/proc/meminfo`: total, available
//!   and swap, kept apart from any process's footprint.
//!
//! Lines of none of these shapes are counted and shown as a problem with examples.
//!
//! [`TraceFacts::snapshot`]: crate::evidence::sched::TraceFacts::snapshot

use super::lines::Line;
use super::LineParser;
use crate::evidence::memory::{ProcessFigure, ProcessMemory, SystemMemory};
use crate::evidence::sched::{TraceFormat, MAX_CPU};
use crate::evidence::{Evidence, InputId, ProblemCode, SkippedLines};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Seconds between frames when the output does not say: the default `-d` of toybox and procps
/// `top`, and the period a shell loop around `ps` is usually given.
pub const DEFAULT_INTERVAL_S: f64 = 3.0;
/// Clock ticks per second of `/proc/<pid>/stat` (`USER_HZ`, 100 on every Linux ABI in use).
const USER_HZ: f64 = 100.0;
/// Threads and processes followed per input (a flood of ids must not grow the maps without end).
const MAX_TRACKED: usize = 4096;
/// Columns of a table header: more is not a `top` or `ps` header.
const MAX_COLUMNS: usize = 40;

/// What a column of a thread table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Pid,
    Tid,
    Cpu,
    Pcpu,
    /// `TIME+`: minutes:seconds.hundredths.
    TimePlus,
    /// `TIME`: [DD-]HH:MM:SS or MM:SS.
    Time,
    State,
    /// Resident memory: `RES` (top, human-readable or KiB) or `RSS` (ps, KiB).
    Res,
    /// The thread's own name (toybox `THREAD`).
    Thread,
    /// The process's or thread's name (`PROCESS`, `NAME`, `CMD`, `COMMAND`, `COMM`).
    Name,
    /// A command line (`ARGS`, `CMDLINE`): its first word, without the path, names it.
    Args,
    Other,
}

fn column(name: &str) -> Col {
    match name.to_ascii_uppercase().as_str() {
        "PID" => Col::Pid,
        "TID" | "LWP" | "SPID" => Col::Tid,
        "P" | "PSR" | "CPU" | "#C" | "LAST_CPU" => Col::Cpu,
        "%CPU" | "CPU%" | "PCPU" => Col::Pcpu,
        "TIME+" => Col::TimePlus,
        "TIME" => Col::Time,
        "S" | "STAT" => Col::State,
        "RES" | "RSS" => Col::Res,
        "THREAD" => Col::Thread,
        "PROCESS" | "NAME" | "CMD" | "COMMAND" | "COMM" => Col::Name,
        "ARGS" | "CMDLINE" => Col::Args,
        _ => Col::Other,
    }
}

/// The columns of the table being read.
#[derive(Debug, Clone)]
struct Table {
    cols: Vec<Col>,
    /// Whether a separate TID column exists (else the PID column holds thread ids under `top -H`,
    /// or process ids in a process listing).
    has_tid: bool,
    /// The header is `top`'s (RES is then in top's units, `%CPU` over the last interval).
    top: bool,
}

/// A header line's columns, when it is a `top` / `ps` header naming a task id.
fn parse_header(text: &str) -> Option<Table> {
    // toybox marks the sort column with brackets: `S[%CPU]`.
    let norm = text.replace(['[', ']'], " ");
    let names: Vec<&str> = norm.split_whitespace().collect();
    if names.len() < 3 || names.len() > MAX_COLUMNS {
        return None;
    }
    let cols: Vec<Col> = names.iter().map(|n| column(n)).collect();
    let known = cols.iter().filter(|c| **c != Col::Other).count();
    let ids = cols.iter().any(|c| matches!(c, Col::Pid | Col::Tid));
    // Every name must be a column word (upper case, digits, % + # _): a sentence is not a header.
    let shaped = names.iter().all(|n| {
        n.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "%+#_-".contains(c))
            || matches!(n.to_ascii_uppercase().as_str(), "COMMAND" | "CMD")
    });
    if !ids || known < 3 || !shaped {
        return None;
    }
    let top = names
        .iter()
        .any(|n| *n == "TIME+" || *n == "RES" || *n == "VIRT");
    Some(Table {
        has_tid: cols.contains(&Col::Tid),
        cols,
        top,
    })
}

/// `M:SS.hh`, `MM:SS.hh`, `H:MM:SS` (procps when minutes overflow), `[DD-]HH:MM:SS`: seconds.
pub fn parse_clock(s: &str) -> Option<f64> {
    let (days, rest) = match s.split_once('-') {
        Some((d, r)) => (d.parse::<f64>().ok()?, r),
        None => (0.0, s),
    };
    let mut total = 0.0;
    let parts: Vec<&str> = rest.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for p in &parts {
        let v: f64 = p.parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    Some(days * 86400.0 + total)
}

/// A memory figure: plain numbers are KiB (`RES` of procps, `RSS` of ps); suffixes
/// K/M/G/T (toybox's human-readable, procps scaled `m`/`g`), optionally `i` and `B`.
pub fn parse_kib_or_scaled(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let v: f64 = num.parse().ok()?;
    let mult = match unit.trim_end_matches(['B', 'b']).trim_end_matches('i') {
        "" => {
            if unit.eq_ignore_ascii_case("b") {
                1.0
            } else {
                1024.0
            }
        }
        "k" | "K" => 1024.0,
        "m" | "M" => 1024.0 * 1024.0,
        "g" | "G" => 1024.0 * 1024.0 * 1024.0,
        "t" | "T" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    let bytes = v * mult;
    (0.0..1e18).contains(&bytes).then_some(bytes as u64)
}

/// CPUs of a `taskset` mask (`f0`, `0xff`, `ff,ffffffff`) or list (`0-3,6`).
pub fn parse_affinity(value: &str, list: bool) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    if list {
        for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            if a > b || b > MAX_CPU {
                return None;
            }
            cpus.extend(a..=b);
        }
    } else {
        let hex: String = value
            .trim()
            .trim_start_matches("0x")
            .chars()
            .filter(|c| *c != ',')
            .collect();
        if hex.is_empty() || hex.len() > (MAX_CPU as usize + 1) / 4 {
            return None;
        }
        for (i, c) in hex.chars().rev().enumerate() {
            let d = c.to_digit(16)?;
            for bit in 0..4 {
                if d & (1 << bit) != 0 {
                    cpus.push(i as u32 * 4 + bit);
                }
            }
        }
    }
    (!cpus.is_empty()).then_some(cpus)
}

/// The process id of a `/proc/<pid>/task/<tid>/stat` path in front of a stat line.
fn line_pid(prefix: &str) -> Option<u32> {
    let at = prefix.find("/proc/")? + 6;
    let digits: String = prefix[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    prefix[at + digits.len()..]
        .starts_with("/task/")
        .then(|| digits.parse().ok())
        .flatten()
}

struct Patterns {
    stat: Regex,
    taskset: Regex,
    procps_top: Regex,
    meminfo_head: Regex,
    total_pss: Regex,
    total_rss: Regex,
    status: Regex,
    proc_meminfo: Regex,
    /// procps top's `MiB Mem :  15944.6 total, ...` and `MiB Swap: ... 11168.4 avail Mem`.
    top_mem: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        // `tid (comm) S ppid ...`, possibly after a file name (`grep .`, `head` headers).
        stat: Regex::new(r"(?:^|[\s:])(\d+) \((.*)\) ([RSDTtZXxKWPIN]) (-?\d+(?: -?\d+){20,})")
            .expect("stat"),
        taskset: Regex::new(
            r"^pid (\d+)'s (?:current|new) affinity (mask|list): ([0-9a-fA-Fx,\-\s]+)$",
        )
        .expect("taskset"),
        procps_top: Regex::new(r"^top - (\d{1,2}):(\d{2}):(\d{2})\b").expect("top"),
        meminfo_head: Regex::new(r"^\*\* MEMINFO in pid (\d+) \[([^\]]*)\] \*\*").expect("dumpsys"),
        total_pss: Regex::new(r"TOTAL PSS:\s+(\d+)").expect("pss"),
        total_rss: Regex::new(r"TOTAL RSS:\s+(\d+)").expect("rss"),
        status: Regex::new(r"^(Name|Pid|VmRSS|VmHWM|Cpus_allowed_list):\s+(.*?)\s*$")
            .expect("status"),
        proc_meminfo: Regex::new(
            r"^(MemTotal|MemFree|MemAvailable|SwapTotal|SwapFree|Cached|Buffers):\s+(\d+)\s*kB$",
        )
        .expect("meminfo"),
        top_mem: Regex::new(
            r"^(KiB|MiB|GiB|TiB) (Mem|Swap)\s*:\s*([\d.]+) total,\s*([\d.]+) free,.*?(?:([\d.]+) avail Mem)?\s*$",
        )
        .expect("top mem"),
    })
}

/// Whether the first lines of a file are snapshots (checked after traces and framework logs).
pub fn looks_like(lines: &[&str]) -> bool {
    let p = patterns();
    let mut headers = 0;
    let mut rows = 0;
    let mut strong = 0;
    let mut meminfo = 0;
    let mut status = 0;
    let mut free_head = false;
    let mut free_row = false;
    for l in lines {
        let t = l.trim();
        if parse_header(t).is_some() {
            headers += 1;
        } else if headers > 0
            && t.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        {
            rows += 1;
        }
        if p.stat.is_match(t) || p.taskset.is_match(t) || p.meminfo_head.is_match(t) {
            strong += 1;
        }
        if p.proc_meminfo.is_match(t) {
            meminfo += 1;
        }
        if p.status.is_match(t) {
            status += 1;
        }
        if t.starts_with("total") && t.contains("used") && t.contains("free") {
            free_head = true;
        }
        if t.starts_with("Mem:") {
            free_row = true;
        }
    }
    (headers >= 1 && rows >= 1)
        || strong >= 1
        || meminfo >= 3
        || status >= 3
        || (free_head && free_row)
}

pub struct SnapshotParser {
    input: InputId,
    table: Option<Table>,
    /// Frames begun (table headers, or a repeated tid in a stat dump).
    frames: u64,
    /// Nominal time of the current frame, seconds from the first.
    frame_t: f64,
    /// Interval before the current frame.
    interval: f64,
    /// The clock of the last `top -` line (seconds of the day), and of the frame before.
    clock: Option<f64>,
    last_clock: Option<f64>,
    /// tid -> (frame time, cumulative CPU seconds) at its previous sighting.
    prev: HashMap<u32, (f64, Option<f64>)>,
    /// tids of the stat dump's current frame.
    stat_frame: std::collections::HashSet<u32>,
    stat_frames: u64,
    /// Peak resident memory per process of the tables: name -> (pid, bytes, line, label).
    peak_res: HashMap<String, (Option<u32>, u64, u64, &'static str)>,
    /// `dumpsys meminfo` / `/proc/<pid>/status` context: the process being described.
    proc_name: Option<String>,
    proc_pid: Option<u32>,
    /// `/proc/meminfo` being read, and `free`'s columns.
    system: Option<SystemMemory>,
    free_cols: Option<Vec<String>>,
    /// Bytes per unit of the plain numbers of the current `free` block, from its `Mem:` row: the
    /// `Swap:` row is in the same unit, however small its own total.
    free_scale: Option<f64>,
    skipped: SkippedLines,
}

impl SnapshotParser {
    pub fn new(input: InputId) -> Self {
        SnapshotParser {
            input,
            table: None,
            frames: 0,
            frame_t: 0.0,
            interval: DEFAULT_INTERVAL_S,
            clock: None,
            last_clock: None,
            prev: HashMap::new(),
            stat_frame: Default::default(),
            stat_frames: 0,
            peak_res: HashMap::new(),
            proc_name: None,
            proc_pid: None,
            system: None,
            free_cols: None,
            free_scale: None,
            skipped: SkippedLines::default(),
        }
    }

    /// Starts a frame: its time from procps' clock when printed, else the default interval.
    fn next_frame(&mut self, ev: &mut Evidence) {
        let step = match (self.last_clock, self.clock) {
            (Some(a), Some(b)) if b > a => b - a,
            // Past midnight.
            (Some(a), Some(b)) if b < a => b + 86400.0 - a,
            _ => DEFAULT_INTERVAL_S,
        };
        if self.frames > 0 {
            self.frame_t += step;
            self.interval = step;
        }
        self.last_clock = self.clock;
        self.frames += 1;
        let trace = ev.sched.trace(self.input);
        trace.format = Some(TraceFormat::Snapshots);
        trace.count_event("snapshot-frame");
    }

    /// One thread seen in the current frame.
    #[allow(clippy::too_many_arguments)]
    fn thread(
        &mut self,
        ev: &mut Evidence,
        tid: u32,
        pid: Option<u32>,
        comm: &str,
        cpu: u32,
        pcpu: Option<f64>,
        cum_s: Option<f64>,
        running: bool,
        prefer_pcpu: bool,
    ) {
        if cpu > MAX_CPU {
            return;
        }
        let prev = self.prev.get(&tid).copied();
        if prev.is_none() && self.prev.len() >= MAX_TRACKED {
            return;
        }
        self.prev.insert(tid, (self.frame_t, cum_s));
        let t = self.frame_t;
        let since = t - self.interval;
        // The growth of the cumulative time is exact; %CPU is over the last interval; a bare
        // state says only whether it was running at that instant.
        let delta = match (prev, cum_s) {
            (Some((_, Some(a))), Some(b)) if b >= a => Some(b - a),
            _ => None,
        };
        let pcpu = pcpu.filter(|p| p.is_finite() && *p >= 0.0);
        // top's %CPU is over the interval before the frame: the same weight in every frame,
        // the first included. ps's %CPU is over the thread's life, so the growth of its TIME
        // is better when there are two frames.
        let delta = if prefer_pcpu && pcpu.is_some() {
            None
        } else {
            delta
        };
        let cpu_s = match (delta, pcpu) {
            (Some(d), _) => d,
            (None, Some(p)) => p / 100.0 * self.interval,
            (None, _) if running => self.interval,
            _ => 0.0,
        };
        let since = match prev {
            Some((t0, _)) if delta.is_some() && t0 < t => t0,
            _ => since,
        };
        let trace = ev.sched.trace(self.input);
        trace.snapshot(tid, pid, comm, cpu, since, t, cpu_s);
    }

    fn table_row(&mut self, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let Some(table) = self.table.clone() else {
            return false;
        };
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let h = table.cols.len();
        let name_cols: Vec<usize> = (0..h)
            .filter(|&i| matches!(table.cols[i], Col::Thread | Col::Name | Col::Args))
            .collect();
        // Names may hold spaces: the extra tokens belong to the name columns.
        let extra = tokens.len().checked_sub(h);
        let mut values: Vec<String> = Vec::with_capacity(h);
        match (extra, name_cols.as_slice()) {
            (Some(0), _) => values.extend(tokens.iter().map(|s| s.to_string())),
            (Some(x), [j]) => {
                values.extend(tokens[..*j].iter().map(|s| s.to_string()));
                values.push(tokens[*j..*j + x + 1].join(" "));
                values.extend(tokens[*j + x + 1..].iter().map(|s| s.to_string()));
            }
            // Two trailing names (toybox `THREAD PROCESS`): the process name is one word.
            (Some(x), [a, b]) if *b == h - 1 && *a == h - 2 => {
                values.extend(tokens[..*a].iter().map(|s| s.to_string()));
                values.push(tokens[*a..*a + x + 1].join(" "));
                values.push(tokens[tokens.len() - 1].to_string());
            }
            // A name cut short or empty (kernel threads under `-o` with no args): only when the
            // names are last.
            (None, _) if name_cols.first().is_some_and(|&j| tokens.len() >= j) => {
                values.extend(tokens.iter().map(|s| s.to_string()));
                values.resize(h, String::new());
            }
            _ => return false,
        }
        let get = |c: Col| {
            table
                .cols
                .iter()
                .position(|x| *x == c)
                .map(|i| values[i].as_str())
        };
        let pid_v = get(Col::Pid).and_then(|v| v.parse::<u32>().ok());
        let tid_v = get(Col::Tid).and_then(|v| v.parse::<u32>().ok());
        let tid = if table.has_tid { tid_v } else { pid_v };
        let Some(tid) = tid else {
            return false;
        };
        let pid = if table.has_tid { pid_v } else { None };
        let thread = get(Col::Thread).unwrap_or("");
        // A name is whole (`Web Content`); a command line is named by its first word.
        let process = match (get(Col::Name), get(Col::Args)) {
            (Some(n), _) if !n.is_empty() => n,
            (_, Some(a)) => a
                .split_whitespace()
                .next()
                .map(|w| w.rsplit('/').next().unwrap_or(w))
                .unwrap_or(""),
            _ => "",
        };
        let comm = if thread.is_empty() { process } else { thread };
        if let Some(res) = get(Col::Res).and_then(parse_kib_or_scaled) {
            let key = if process.is_empty() {
                comm.to_string()
            } else {
                process.to_string()
            };
            let label = if table.top { "RES" } else { "RSS" };
            // Under `top -H` the PID column holds thread ids: the process is known by name.
            let owner = if table.has_tid || !table.top {
                pid_v
            } else {
                None
            };
            if self.peak_res.len() < MAX_TRACKED || self.peak_res.contains_key(&key) {
                let e = self
                    .peak_res
                    .entry(key)
                    .or_insert((owner, 0, number, label));
                if res > e.1 {
                    *e = (owner, res, number, label);
                }
            }
        }
        let cpu = get(Col::Cpu).and_then(|v| v.parse::<u32>().ok());
        if let Some(cpu) = cpu {
            let pcpu = get(Col::Pcpu).and_then(|v| v.parse::<f64>().ok());
            let cum = get(Col::TimePlus).or(get(Col::Time)).and_then(parse_clock);
            let running = get(Col::State).is_some_and(|s| s.starts_with('R'));
            self.thread(ev, tid, pid, comm, cpu, pcpu, cum, running, table.top);
        }
        true
    }

    fn stat_line(&mut self, line: &str, caps: &regex::Captures<'_>, ev: &mut Evidence) -> bool {
        let (Ok(tid), comm) = (caps[1].parse::<u32>(), &caps[2]) else {
            return false;
        };
        let fields: Vec<&str> = caps[4].split(' ').collect();
        // After the state (field 3): ppid is field 4 = index 0, so field N is index N - 4.
        let field = |n: usize| fields.get(n - 4).and_then(|v| v.parse::<i64>().ok());
        let (Some(ut), Some(st)) = (field(14), field(15)) else {
            return false;
        };
        let Some(cpu) = field(39).and_then(|c| u32::try_from(c).ok()) else {
            return false;
        };
        if ut < 0 || st < 0 {
            return false;
        }
        if self.stat_frames == 0 || self.stat_frame.contains(&tid) {
            self.stat_frame.clear();
            self.stat_frames += 1;
            self.next_frame(ev);
        }
        if self.stat_frame.len() < MAX_TRACKED {
            self.stat_frame.insert(tid);
        }
        let cum = (ut.saturating_add(st)) as f64 / USER_HZ;
        // Field 1 is the tid; the process id is only in a path before it, when there is one.
        let pid = caps.get(0).and_then(|m| line_pid(&line[..m.start() + 1]));
        self.thread(
            ev,
            tid,
            pid,
            comm,
            cpu,
            None,
            Some(cum),
            &caps[3] == "R",
            false,
        );
        true
    }

    fn set_affinity(&self, ev: &mut Evidence, task: u32, cpus: Vec<u32>, line: u64) {
        ev.sched.set_affinity(self.input, task, cpus, line);
    }

    fn process_reading(
        &mut self,
        ev: &mut Evidence,
        line: u64,
        figure: ProcessFigure,
        kib: u64,
        label: &'static str,
    ) {
        ev.memory.process(ProcessMemory {
            input: self.input,
            line,
            pid: self.proc_pid,
            name: self.proc_name.clone().unwrap_or_default(),
            figure,
            bytes: kib.saturating_mul(1024),
            label,
        });
    }

    fn system_mut(&mut self, line: u64) -> &mut SystemMemory {
        let input = self.input;
        self.system.get_or_insert_with(|| SystemMemory {
            input,
            line,
            ..SystemMemory::default()
        })
    }

    fn flush_system(&mut self, ev: &mut Evidence) {
        if let Some(s) = self.system.take() {
            if s.total.is_some() || s.available.is_some() {
                ev.memory.system_reading(s);
            }
        }
    }

    /// procps top's memory summary: the system's total, and swap with the available memory.
    fn top_memory(&mut self, number: u64, c: &regex::Captures<'_>, ev: &mut Evidence) {
        let unit = match &c[1] {
            "KiB" => 1024.0,
            "MiB" => 1048576.0,
            "GiB" => 1073741824.0,
            _ => 1099511627776.0,
        };
        let v = |i: usize| {
            c.get(i)
                .and_then(|m| m.as_str().parse::<f64>().ok())
                .map(|x| (x * unit) as u64)
        };
        if &c[2] == "Mem" {
            // Each frame repeats it: one reading per frame.
            let input = self.input;
            self.flush_system(ev);
            self.system = Some(SystemMemory {
                input,
                line: number,
                total: v(3),
                ..SystemMemory::default()
            });
        } else {
            let s = self.system_mut(number);
            s.swap_total = v(3);
            s.swap_free = v(4);
            s.available = v(5).or(s.available);
        }
    }

    /// A `free` row (`Mem:` / `Swap:`) under its header. Units: `-h` prints them; otherwise the
    /// `Mem:` row decides. `free -b` prints bytes, which are whole KiB (the kernel counts memory in
    /// KiB), so every figure of the row divides by 1024; a KiB row almost never does. Else the
    /// size of the total tells KiB (the default), MiB (`-m`) and GiB (`-g`) apart.
    fn free_row(&mut self, number: u64, text: &str) -> bool {
        let Some(cols) = self.free_cols.clone() else {
            return false;
        };
        let mut words = text.split_whitespace();
        let label = words.next().unwrap_or("");
        if matches!(label, "-/+" | "Total:" | "Low:" | "High:") {
            return true;
        }
        let vals: Vec<&str> = words.collect();
        let human = vals
            .iter()
            .any(|v| v.ends_with(|c: char| c.is_ascii_alphabetic()));
        let scale = if human {
            None
        } else {
            let Some(total) = vals.first().and_then(|v| v.parse::<f64>().ok()) else {
                return false;
            };
            let whole_kib = || {
                let n: Vec<u64> = vals.iter().filter_map(|v| v.parse::<u64>().ok()).collect();
                n.len() == vals.len()
                    && n.iter().filter(|&&x| x > 0).count() >= 3
                    && n.iter().all(|x| x % 1024 == 0)
            };
            Some(if label == "Swap:" && self.free_scale.is_some() {
                self.free_scale.unwrap_or(1024.0)
            } else if total >= 1_073_741_824.0 && whole_kib() {
                1.0
            } else if total >= 1_048_576.0 {
                1024.0
            } else if total >= 1024.0 {
                1024.0 * 1024.0
            } else {
                1024.0 * 1024.0 * 1024.0
            })
        };
        let bytes = |i: usize| -> Option<u64> {
            let v = vals.get(i)?;
            match scale {
                Some(s) => v.parse::<f64>().ok().map(|x| (x * s) as u64),
                None => parse_kib_or_scaled(v),
            }
        };
        let at = |name: &str| cols.iter().position(|c| c == name);
        match label {
            "Mem:" => {
                self.free_scale = scale;
                let total = bytes(0);
                let available = at("available").and_then(bytes);
                let s = self.system_mut(number);
                s.total = total.or(s.total);
                s.available = available.or(s.available);
                s.line = number;
                true
            }
            "Swap:" => {
                let (total, free) = (bytes(0), at("free").and_then(bytes));
                let s = self.system_mut(number);
                s.swap_total = total;
                s.swap_free = free;
                true
            }
            _ => false,
        }
    }
}

impl SnapshotParser {
    fn read(&mut self, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let p = patterns();
        let t = text.trim();
        if let Some(c) = p.procps_top.captures(t) {
            let n = |i: usize| c[i].parse::<f64>().unwrap_or(0.0);
            self.clock = Some(n(1) * 3600.0 + n(2) * 60.0 + n(3));
            return true;
        }
        if let Some(table) = parse_header(t) {
            self.table = Some(table);
            self.free_cols = None;
            self.next_frame(ev);
            return true;
        }
        // top's summary lines (toybox and procps), noise between frames.
        let summary = [
            "Tasks:", "Threads:", "Mem:", "Swap:", "%Cpu", "Cpu(s)", "KiB ", "MiB ", "GiB ",
            "User ",
        ];
        if let Some(c) = p.top_mem.captures(t) {
            self.top_memory(number, &c, ev);
            return true;
        }
        if summary.iter().any(|s| t.starts_with(s)) && self.free_cols.is_none() {
            if t.starts_with("Mem:") || t.starts_with("Swap:") {
                self.table = None;
            }
            return true;
        }
        if t.contains("%cpu") && t.contains("%idle") {
            self.table = None;
            return true;
        }
        if let Some(c) = p.stat.captures(t) {
            self.table = None;
            return self.stat_line(t, &c, ev);
        }
        if let Some(c) = p.taskset.captures(t) {
            let Ok(tid) = c[1].parse::<u32>() else {
                return false;
            };
            let Some(cpus) = parse_affinity(c[3].trim(), &c[2] == "list") else {
                return false;
            };
            self.set_affinity(ev, tid, cpus, number);
            return true;
        }
        if let Some(c) = p.meminfo_head.captures(t) {
            self.flush_system(ev);
            self.table = None;
            self.proc_pid = c[1].parse().ok();
            self.proc_name = Some(c[2].to_string());
            return true;
        }
        if let Some(c) = p.total_pss.captures(t) {
            if let Ok(kib) = c[1].parse::<u64>() {
                self.process_reading(ev, number, ProcessFigure::Pss, kib, "TOTAL PSS");
            }
            if let Some(r) = p
                .total_rss
                .captures(t)
                .and_then(|r| r[1].parse::<u64>().ok())
            {
                self.process_reading(ev, number, ProcessFigure::Rss, r, "TOTAL RSS");
            }
            return true;
        }
        if let Some(c) = p.total_rss.captures(t) {
            if let Ok(kib) = c[1].parse::<u64>() {
                self.process_reading(ev, number, ProcessFigure::Rss, kib, "TOTAL RSS");
            }
            return true;
        }
        // Older dumpsys: the table's `TOTAL` row, whose first number is the PSS.
        if self.proc_name.is_some() && (t.starts_with("TOTAL ") || t.starts_with("TOTAL:")) {
            let first = t[5..]
                .trim_start_matches(':')
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok());
            if let Some(kib) = first {
                self.process_reading(ev, number, ProcessFigure::Pss, kib, "TOTAL");
            }
            return true;
        }
        if let Some(c) = p.status.captures(t) {
            self.table = None;
            let v = &c[2];
            match &c[1] {
                "Name" => {
                    self.proc_name = Some(v.to_string());
                    self.proc_pid = None;
                }
                "Pid" => self.proc_pid = v.parse().ok(),
                "Cpus_allowed_list" => {
                    let (Some(pid), Some(cpus)) = (self.proc_pid, parse_affinity(v, true)) else {
                        return false;
                    };
                    self.set_affinity(ev, pid, cpus, number);
                }
                key => {
                    let kib = v.trim_end_matches("kB").trim().parse::<u64>().ok();
                    let Some(kib) = kib else { return false };
                    let (fig, label) = if key == "VmRSS" {
                        (ProcessFigure::Rss, "VmRSS")
                    } else {
                        (ProcessFigure::PeakRss, "VmHWM")
                    };
                    self.process_reading(ev, number, fig, kib, label);
                }
            }
            return true;
        }
        if let Some(c) = p.proc_meminfo.captures(t) {
            self.table = None;
            let Ok(kib) = c[2].parse::<u64>() else {
                return false;
            };
            let b = Some(kib.saturating_mul(1024));
            if &c[1] == "MemTotal" {
                self.flush_system(ev);
            }
            let s = self.system_mut(number);
            match &c[1] {
                "MemTotal" => s.total = b,
                "MemAvailable" => s.available = b,
                "SwapTotal" => s.swap_total = b,
                "SwapFree" => s.swap_free = b,
                _ => {}
            }
            return true;
        }
        if t.starts_with("total") && t.contains("used") && t.contains("free") {
            self.table = None;
            self.flush_system(ev);
            self.free_cols = Some(t.split_whitespace().map(str::to_string).collect());
            return true;
        }
        if self.free_cols.is_some() && self.free_row(number, t) {
            return true;
        }
        if self.table.is_some() {
            return self.table_row(number, t, ev);
        }
        // Other `/proc/<pid>/status` and `/proc/meminfo` keys, dumpsys sections: `Key: value`.
        let keyed = t.split_once(':').is_some_and(|(k, _)| {
            k.len() <= 40
                && k.starts_with(|c: char| c.is_ascii_alphabetic())
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || " _()-.".contains(c))
                && !k.contains("  ")
        });
        keyed
            || self.proc_name.is_some()
            || t.starts_with("==>")
            || super::lines::is_shell_prompt(t)
    }
}

impl LineParser for SnapshotParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let text = line.text.trim_end_matches('\r');
        if text.trim().is_empty() {
            // A blank line ends a table (a `ps` after a `top`) and a `free` block.
            self.table = None;
            self.free_cols = None;
            return;
        }
        if !self.read(line.number, text, ev) {
            self.skipped.add(line.number, text);
        }
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.flush_system(ev);
        let mut peaks: Vec<_> = self.peak_res.drain().collect();
        peaks.sort_by_key(|(_, (_, _, line, _))| *line);
        for (name, (pid, bytes, line, label)) in peaks {
            if bytes == 0 {
                continue;
            }
            ev.memory.process(ProcessMemory {
                input: self.input,
                line,
                pid,
                name,
                figure: ProcessFigure::Rss,
                bytes,
                label,
            });
        }
        if let Some(trace) = ev.sched.traces.iter_mut().find(|t| t.input == self.input) {
            trace.finish();
        }
        ev.problem_lines(self.input, ProblemCode::SnapshotLinesSkipped, &self.skipped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::lines::LineSplitter;

    fn read(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("snap.txt");
        let mut p = SnapshotParser::new(id);
        let mut s = LineSplitter::new();
        s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
        s.finish(&mut |l| p.line(l, &mut ev));
        p.finish(&mut ev);
        ev
    }

    fn skipped(ev: &Evidence) -> Option<SkippedLines> {
        ev.inputs[0]
            .problems
            .iter()
            .find(|p| p.code == ProblemCode::SnapshotLinesSkipped)
            .and_then(|p| p.lines.clone())
    }

    const TOYBOX: &str = "\
Threads: 1827 total,   9 running, 1818 sleeping,   0 stopped,   0 zombie
  Mem:  7631448K total,  7264020K used,   367428K free,    19788K buffers
 Swap:  4194300K total,  1420560K used,  2773740K free,  2377108K cached
800%cpu 566%user   1%nice  48%sys 178%idle   0%iow   6%irq   1%sirq   0%host
  TID   PID USER         PR  NI S[%CPU] CPU  RES     TIME+ THREAD          PROCESS
14233 14201 shell         20   0 R 95.0    2 4.1G   1:02.90 llama-cli       llama-cli
14235 14201 shell         20   0 R 50.0    5 4.1G   1:03.62 llama-cli       llama-cli
 1622  1490 system        20   0 S  1.0    6 412M   0:00.31 Signal Catcher  system_server

Threads: 1827 total,   8 running, 1819 sleeping,   0 stopped,   0 zombie
  TID   PID USER         PR  NI S[%CPU] CPU  RES     TIME+ THREAD          PROCESS
14233 14201 shell         20   0 R 90.0    1 4.2G   1:03.80 llama-cli       llama-cli
14235 14201 shell         20   0 R 60.0    5 4.1G   1:04.22 llama-cli       llama-cli
";

    #[test]
    fn toybox_top_frames_give_residency_moves_and_the_peak_res() {
        let ev = read(TOYBOX);
        assert!(skipped(&ev).is_none(), "{:?}", skipped(&ev));
        let t = &ev.sched.traces[0];
        assert_eq!(t.format, Some(TraceFormat::Snapshots));
        assert_eq!(t.snapshot_frames, 2);
        let th = t.threads.iter().find(|x| x.tid == 14233).unwrap();
        assert_eq!(th.pid, Some(14201));
        // %CPU times the default 3 s interval, on the CPU of each frame.
        assert!((th.run_s[2] - 2.85).abs() < 1e-6, "{:?}", th.run_s);
        assert!((th.run_s[1] - 2.7).abs() < 1e-6, "{:?}", th.run_s);
        assert_eq!(th.cpu_moves.get(&(2, 1)), Some(&1));
        assert_eq!(th.snapshot_pairs, 1);
        // A thread name with a space stays whole; the process name is the last word.
        assert!(t.threads.iter().any(|x| x.comm == "Signal Catcher"));
        let llama = ev
            .memory
            .processes
            .iter()
            .find(|p| p.name == "llama-cli")
            .unwrap();
        assert_eq!(llama.bytes, (4.2 * 1024.0 * 1024.0 * 1024.0) as u64);
        assert_eq!((llama.line, llama.label), (12, "RES"));
    }

    #[test]
    fn procps_top_h_reads_the_clock_and_the_last_cpu_column() {
        let text = "\
top - 23:59:59 up 3 days,  2:11,  1 user,  load average: 4.12, 3.05, 1.80
Threads:   9 total,   4 running,   5 sleeping,   0 stopped,   0 zombie
%Cpu(s): 50.2 us,  0.9 sy,  0.0 ni, 48.1 id,  0.0 wa,  0.0 hi,  0.3 si,  0.0 st
MiB Mem :  15944.6 total,   9021.3 free,   4512.7 used,   2410.6 buff/cache
MiB Swap:      0.0 total,      0.0 free,      0.0 used.  11168.4 avail Mem

    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ P COMMAND
   2307 orangepi  20   0 4312344 4087364 3998120 R 100.0  25.6   1:12.00 5 llama-cli

top - 00:00:01 up 3 days,  2:11,  1 user,  load average: 4.12, 3.05, 1.80
    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ P COMMAND
   2307 orangepi  20   0 4312344 4087364 3998120 R  50.0  25.6   1:13.00 6 llama-cli
";
        let ev = read(text);
        assert!(skipped(&ev).is_none(), "{:?}", skipped(&ev));
        let t = &ev.sched.traces[0];
        // Under top -H the PID column holds the thread id; the second frame is 2 s later
        // (past midnight), so 50% of it is 1 s.
        let th = &t.threads[0];
        assert_eq!((th.tid, th.pid), (2307, None));
        assert!((th.run_s[6] - 1.0).abs() < 1e-6, "{:?}", th.run_s);
        // The first frame's %CPU covers the default interval before it.
        assert!((t.end_s - 5.0).abs() < 1e-6, "{}", t.end_s);
        let m = &ev.memory.processes[0];
        assert_eq!((m.bytes, m.pid), (4087364 * 1024, None));
        // The summary's memory is the system's, with top's own `avail Mem`.
        let s = &ev.memory.system[0];
        assert_eq!(s.total, Some((15944.6 * 1048576.0) as u64));
        assert_eq!(s.available, Some((11168.4 * 1048576.0) as u64));
        assert_eq!((s.swap_total, s.line), (Some(0), 4));
    }

    #[test]
    fn ps_tables_keep_names_with_spaces_and_use_time_growth() {
        let text = "\
    PID     LWP PSR %CPU STAT     TIME COMMAND
   1873    1901   2  1.2 Sl   00:00:35 Web Content
   2305    2307   4 96.1 Rl   00:01:12 llama-cli
    PID     LWP PSR %CPU STAT     TIME COMMAND
   2305    2307   7 96.1 Rl   00:01:14 llama-cli
";
        let ev = read(text);
        assert!(skipped(&ev).is_none(), "{:?}", skipped(&ev));
        let t = &ev.sched.traces[0];
        assert!(t
            .threads
            .iter()
            .any(|x| x.comm == "Web Content" && x.tid == 1901));
        let th = t.threads.iter().find(|x| x.tid == 2307).unwrap();
        // First frame: lifetime %CPU over the default interval; then the 2 s TIME grew.
        assert!((th.run_s[4] - 2.883).abs() < 1e-6, "{:?}", th.run_s);
        assert!((th.run_s[7] - 2.0).abs() < 1e-6, "{:?}", th.run_s);
    }

    #[test]
    fn toybox_ps_t_gives_memory_without_placement() {
        let text = "\
USER           PID   TID  PPID     VSZ    RSS WCHAN            ADDR S CMD
shell        14201 14201  9877 5012344 4283120 do_sys_poll         0 S llama-cli
shell        14201 14231  9877 5012344 4283120 0                   0 R llama-cli
";
        let ev = read(text);
        assert!(skipped(&ev).is_none(), "{:?}", skipped(&ev));
        let m = &ev.memory.processes[0];
        assert_eq!(
            (m.pid, m.bytes, m.label),
            (Some(14201), 4283120 * 1024, "RSS")
        );
        assert!(ev.sched.traces[0].threads.is_empty());
    }

    #[test]
    fn proc_stat_dumps_find_frames_comm_in_parens_and_bad_lines() {
        let stat = |tid: u32, comm: &str, ut: u64, cpu: u32| {
            let mut f: Vec<String> = vec!["R".into(), "1".into()];
            f.extend((5..=52).map(|n| match n {
                14 => ut.to_string(),
                15 => "0".to_string(),
                39 => cpu.to_string(),
                _ => "0".to_string(),
            }));
            format!("{tid} ({comm}) {}", f.join(" "))
        };
        let text = [
            format!(
                "/proc/40/task/41/stat:{}",
                stat(41, "ggml (pool) 1", 100, 1)
            ),
            stat(42, "Jit thread pool", 5, 6),
            "43 (llama) S 1 40 0".to_string(),
            stat(41, "ggml (pool) 1", 250, 2),
        ]
        .join("\n");
        let ev = read(&text);
        let t = &ev.sched.traces[0];
        assert_eq!(t.snapshot_frames, 2);
        let th = t.threads.iter().find(|x| x.tid == 41).unwrap();
        assert_eq!(th.comm, "ggml (pool) 1");
        assert_eq!(th.pid, Some(40));
        // 150 ticks at 100 per second between the two frames, credited to CPU 2.
        assert!((th.run_s[2] - 1.5).abs() < 1e-6, "{:?}", th.run_s);
        let s = skipped(&ev).expect("the cut line is a problem");
        assert_eq!(s.count, 1);
        assert_eq!(s.first[0].0, 3);
    }

    #[test]
    fn affinity_masks_and_lists() {
        assert_eq!(parse_affinity("f0", false), Some(vec![4, 5, 6, 7]));
        assert_eq!(parse_affinity("0x3", false), Some(vec![0, 1]));
        assert_eq!(parse_affinity("1,00000000", false), Some(vec![32]));
        assert_eq!(parse_affinity("0-3,6", true), Some(vec![0, 1, 2, 3, 6]));
        assert_eq!(parse_affinity("3-1", true), None);
        assert_eq!(parse_affinity("0", false), None);
        assert_eq!(parse_affinity("zz", false), None);
        let ev = read(
            "pid 14231's current affinity mask: f\npid 14201's current affinity list: 0-7\npid 9's current affinity mask: \n",
        );
        let a = &ev.sched.affinity;
        assert_eq!(a[&(0, 14231)], (vec![0, 1, 2, 3], 1));
        assert_eq!(a[&(0, 14201)].0.len(), 8);
        assert!(ev.sched.traces.is_empty(), "masks alone are no trace");
        assert_eq!(skipped(&ev).map(|s| s.count), Some(1));
    }

    #[test]
    fn dumpsys_meminfo_and_proc_status_give_process_memory() {
        let ev = read(
            "** MEMINFO in pid 14201 [com.example.llamachat] **\n        TOTAL  7373465  7031922\n           TOTAL PSS:  7373465            TOTAL RSS:  7433832       TOTAL SWAP PSS:      150\n",
        );
        let figs: Vec<_> = ev
            .memory
            .processes
            .iter()
            .map(|p| (p.figure, p.bytes / 1024, p.pid, p.name.as_str()))
            .collect();
        assert!(figs.contains(&(
            ProcessFigure::Rss,
            7433832,
            Some(14201),
            "com.example.llamachat"
        )));
        assert!(figs.contains(&(
            ProcessFigure::Pss,
            7373465,
            Some(14201),
            "com.example.llamachat"
        )));
        let ev = read("Name:\tllama-cli\nState:\tS (sleeping)\nPid:\t2305\nVmHWM:\t 4102344 kB\nVmRSS:\t 4087364 kB\nCpus_allowed_list:\t4-7\n");
        assert!(skipped(&ev).is_none());
        let p = &ev.memory.processes;
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].figure, p[0].bytes, p[0].pid),
            (ProcessFigure::PeakRss, 4102344 * 1024, Some(2305))
        );
        assert_eq!(p[1].label, "VmRSS");
        assert_eq!(ev.sched.affinity[&(0, 2305)].0, vec![4, 5, 6, 7]);
    }

    #[test]
    fn free_in_every_unit_and_proc_meminfo() {
        let gib = 1024u64 * 1024 * 1024;
        let h = read("               total        used        free      shared  buff/cache   available\nMem:            15Gi       4.4Gi       8.8Gi        25Mi       2.4Gi        10Gi\nSwap:          2.0Gi          0B       2.0Gi\n");
        let s = &h.memory.system[0];
        assert_eq!((s.total, s.available), (Some(15 * gib), Some(10 * gib)));
        assert_eq!((s.swap_total, s.swap_free), (Some(2 * gib), Some(2 * gib)));
        let m = read("               total        used        free      shared  buff/cache   available\nMem:            7452        7021         112          38         318         187\n");
        assert_eq!(m.memory.system[0].available, Some(187 * 1024 * 1024));
        let k = read("             total       used       free     shared    buffers     cached\nMem:       7631448    7190012     441436          0      21040     318184\n-/+ buffers/cache:    6850788     780660\nSwap:      4194300    3389440     804860\n");
        assert!(skipped(&k).is_none());
        let s = &k.memory.system[0];
        assert_eq!((s.total, s.available), (Some(7631448 * 1024), None));
        assert_eq!(s.swap_free, Some(804860 * 1024));
        // `free -b`: bytes, whole KiB; the swap row is in the same unit as the memory row.
        let b = read("               total        used        free      shared  buff/cache   available\nMem:     7823507456  6912348160   215633920    52428800   695525376   598212608\nSwap:    2147479552  1073741824  1073737728\n");
        let s = &b.memory.system[0];
        assert_eq!((s.total, s.available), (Some(7823507456), Some(598212608)));
        assert_eq!(
            (s.swap_total, s.swap_free),
            (Some(2147479552), Some(1073737728))
        );
        // The same machine in KiB (plain `free`): figures that do not all divide by 1024.
        let kib = read("               total        used        free      shared  buff/cache   available\nMem:        7640144     6750340      210580       51200      679224      584192\nSwap:       2097148     1048576     1048572\n");
        assert_eq!(kib.memory.system[0].total, Some(7640144 * 1024));
        assert_eq!(kib.memory.system[0].swap_total, Some(2097148 * 1024));
        let p = read("MemTotal:        7631448 kB\nMemFree:          367428 kB\nMemAvailable:    3412096 kB\nActive(anon):    1533120 kB\nSwapTotal:       4194300 kB\nSwapFree:        2773740 kB\n");
        let s = &p.memory.system[0];
        assert_eq!(
            (s.total, s.available),
            (Some(7631448 * 1024), Some(3412096 * 1024))
        );
        assert_eq!(s.line, 1);
    }

    #[test]
    fn clocks_and_sizes() {
        assert_eq!(parse_clock("1:02.35"), Some(62.35));
        assert_eq!(parse_clock("00:01:12"), Some(72.0));
        assert_eq!(parse_clock("2-00:00:01"), Some(172801.0));
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(parse_clock("-"), None);
        assert_eq!(parse_kib_or_scaled("4087364"), Some(4087364 * 1024));
        assert_eq!(
            parse_kib_or_scaled("3.9g"),
            Some((3.9 * 1073741824.0) as u64)
        );
        assert_eq!(parse_kib_or_scaled("0B"), Some(0));
        assert_eq!(parse_kib_or_scaled("12X"), None);
    }

    #[test]
    fn sniffed_as_snapshots_and_a_log_with_a_top_stays_a_log() {
        use crate::evidence::InputKind;
        use crate::ingest::sniff::sniff;
        for text in [
            TOYBOX,
            "pid 1's current affinity mask: ff\n",
            "MemTotal:  1 kB\nMemFree:  1 kB\nMemAvailable:  1 kB\n",
        ] {
            assert_eq!(sniff(text.as_bytes()).kind, InputKind::Snapshot, "{text}");
        }
        let log = format!("llama_model_loader: loaded meta data with 19 key-value pairs\nllama_model_load: model ftype = Q4_0\n{TOYBOX}");
        assert_eq!(sniff(log.as_bytes()).kind, InputKind::Log);
    }

    #[test]
    fn garbage_never_panics() {
        let lines = [
            "  TID   PID S[%CPU] CPU",
            "x y z",
            "99999999999 1 R 50 4294967295",
            "1 ((() R 1 2 3",
            "1 (a) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 -5 -5",
            "pid 1's current affinity mask: ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0",
            "pid 1's current affinity list: 0-99999999999",
            "total used free",
            "Mem: x",
            "Mem:",
            "** MEMINFO in pid 99999999999 [x] **",
            "TOTAL PSS: 999999999999999999999999",
            "VmRSS: 18446744073709551615 kB",
            "top - 99:99:99 up",
            "\u{0}\u{ff}é",
        ];
        for a in lines {
            for b in lines {
                let _ = read(&format!("{a}\n{b}\n{a}\n"));
            }
        }
    }
}

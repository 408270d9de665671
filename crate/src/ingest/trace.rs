//! Trace text, line by line: `perf script` (every `-F` layout, with or without callchains and
//! `--header`), simpleperf (`report_sample.py`, `report-sample`, and the
//! `simpleperf report --sort comm,tid,cpu` table), ftrace / trace-cmd / systrace text, and the
//! system information that tells CPU clusters apart (`/proc/cpuinfo`, `cpuinfo_max_freq` lists,
//! `lscpu`, `getprop` SoC names).
//!
//! Each line is one of: an event header, a detail line under a sample (callchain frames and the
//! like), a header/comment line, a blank line, or a line of system information. Anything else is
//! counted as skipped, with its line number, so nothing is dropped silently.

use super::cpu_limits::CpuLimits;
use super::lines::Line;
use super::lscpu::Lscpu;
use super::max_freq_list::MaxFreqList;
use super::trace_line::{self, Style};
use super::tracepoints::{self as tp, Tracepoint};
use super::LineParser;
use crate::evidence::sched::{
    TraceFormat, MAX_THREADS, MAX_TRACE_SENSORS, MAX_TRACE_SERIES_POINTS,
};
use crate::evidence::{Evidence, InputId, ProblemCode, Quantity, Series};
use std::collections::HashMap;

/// Points kept per frequency or temperature series (only changes are stored).
pub const MAX_SERIES_POINTS: usize = 50_000;

pub struct TraceParser {
    input: InputId,
    /// Inside a sample block: indented lines are its callchain or other details.
    in_block: bool,
    /// simpleperf `report-sample` record being read.
    sp_record: Option<SpRecord>,
    /// Column starts of a `simpleperf report` table header.
    table: Option<Vec<(String, usize)>>,
    table_total_samples: Option<f64>,
    /// `/proc/cpuinfo`: the processor whose lines follow.
    processor: Option<u32>,
    lscpu: Lscpu,
    limits: CpuLimits,
    /// A bare `cat .../cpu*/cpufreq/cpuinfo_max_freq` list being read.
    max_freq_list: Option<MaxFreqList>,
    /// Series index per CPU (frequency) and per zone (temperature).
    freq_series: HashMap<u32, usize>,
    temp_series: HashMap<String, usize>,
}

#[derive(Default)]
struct SpRecord {
    time_ns: Option<u64>,
    tid: Option<u32>,
    comm: String,
    cpu: Option<u32>,
}

impl TraceParser {
    pub fn new(input: InputId) -> Self {
        TraceParser {
            input,
            in_block: false,
            sp_record: None,
            table: None,
            table_total_samples: None,
            processor: None,
            lscpu: Lscpu::default(),
            limits: CpuLimits::default(),
            max_freq_list: None,
            freq_series: HashMap::new(),
            temp_series: HashMap::new(),
        }
    }

    fn set_format(&self, ev: &mut Evidence, f: TraceFormat) {
        let t = ev.sched.trace(self.input);
        match t.format {
            None | Some(TraceFormat::SystemInfo) => t.format = Some(f),
            _ => {}
        }
    }

    fn event(&mut self, h: &trace_line::Head<'_>, raw: &str, ev: &mut Evidence) -> bool {
        let format = match h.style {
            Style::Ftrace => TraceFormat::Ftrace,
            // report_sample.py separates its columns with tabs; perf script never does.
            Style::Perf if raw.as_bytes().iter().take(64).any(|&b| b == b'\t') => {
                TraceFormat::Simpleperf
            }
            Style::Perf => TraceFormat::PerfScript,
        };
        self.set_format(ev, format);
        let kind = tp::classify(h.event);
        if h.style == Style::Perf && kind == Tracepoint::Other && tp::is_sampled_event(h.event) {
            let t = ev.sched.trace(self.input);
            t.count_event(h.event);
            t.sample(h.tid, h.pid, h.comm, h.cpu, h.time);
            self.in_block = true;
            return true;
        }
        self.in_block = h.style == Style::Perf;
        let input = self.input;
        let t = ev.sched.trace(input);
        t.count_event(h.event);
        let p = h.rest;
        match kind {
            Tracepoint::SchedSwitch => {
                let Some(s) = tp::sched_switch(p) else {
                    return false;
                };
                match h.cpu {
                    Some(cpu) => t.switch(
                        cpu,
                        h.time,
                        s.prev_pid,
                        s.prev_comm,
                        s.preempted,
                        s.next_pid,
                        s.next_comm,
                    ),
                    None => t.switches += 1,
                }
            }
            Tracepoint::SchedWakeup => {
                let Some((comm, pid)) = tp::sched_wakeup(p) else {
                    return false;
                };
                t.wakeup(pid, comm, h.time);
            }
            Tracepoint::SchedMigrate => {
                let Some((comm, pid, orig, dest)) = tp::sched_migrate(p) else {
                    return false;
                };
                t.migrate(pid, comm, orig, dest, h.time);
            }
            Tracepoint::CpuFrequency => {
                let Some((cpu, khz)) = tp::cpu_frequency(p) else {
                    return false;
                };
                if cpu > crate::evidence::sched::MAX_CPU {
                    return false;
                }
                t.freq_events += 1;
                t.note_cpu(cpu);
                let r = t.rel(h.time);
                let max = t.freq_seen_max_khz.entry(cpu).or_insert(0);
                *max = (*max).max(khz);
                let source = h.event.to_string();
                self.push_point(
                    ev,
                    Key::Freq(cpu),
                    Quantity::CpuFreq { cpu },
                    &source,
                    r,
                    khz as f64 / 1000.0,
                );
            }
            Tracepoint::ThermalTemperature => {
                let Some((zone, milli)) = tp::thermal_temperature(p) else {
                    return false;
                };
                let r = t.rel(h.time);
                let zone = zone.to_string();
                let source = h.event.to_string();
                self.push_point(
                    ev,
                    Key::Temp(zone.clone()),
                    Quantity::Temperature { sensor: zone },
                    &source,
                    r,
                    milli as f64 / 1000.0,
                );
            }
            Tracepoint::Other => {
                // Any other tracepoint still marks the trace's time span.
                t.rel(h.time);
                if let Some(c) = h.cpu {
                    t.note_cpu(c);
                }
            }
        }
        true
    }

    fn push_point(
        &mut self,
        ev: &mut Evidence,
        key: Key,
        quantity: Quantity,
        source: &str,
        t: f64,
        v: f64,
    ) {
        let map_idx = match &key {
            Key::Freq(c) => self.freq_series.get(c).copied(),
            Key::Temp(z) => self.temp_series.get(z).copied(),
        };
        let idx = match map_idx {
            Some(i) => i,
            None => {
                if matches!(key, Key::Temp(_)) && self.temp_series.len() >= MAX_TRACE_SENSORS {
                    ev.sched.trace(self.input).series_cut = true;
                    return;
                }
                ev.series.push(Series {
                    quantity,
                    input: self.input,
                    source: source.to_string(),
                    absolute: false,
                    points: Vec::new(),
                });
                let i = ev.series.len() - 1;
                match key {
                    Key::Freq(c) => self.freq_series.insert(c, i),
                    Key::Temp(z) => self.temp_series.insert(z, i),
                };
                i
            }
        };
        push_change(ev, self.input, idx, t, v);
    }

    /// Lines that are not events: headers, system information, simpleperf text forms.
    fn other(&mut self, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let trimmed = text.trim();
        // Before comments: a root prompt (`# cat ...`) can open the list.
        if let Some(list) = self.max_freq_list.as_mut() {
            if list.push(trimmed) {
                return true;
            }
        }
        if let Some(list) = self.max_freq_list.take() {
            list.finish(&mut ev.sched.hints);
        }
        if let Some(list) = MaxFreqList::start(trimmed) {
            self.max_freq_list = Some(list);
            self.set_format(ev, TraceFormat::SystemInfo);
            return true;
        }
        if let Some(h) = text.strip_prefix('#') {
            self.header_comment(h, ev);
            return true;
        }
        if self.simpleperf_sample(text, trimmed, ev) || self.simpleperf_table(trimmed, ev) {
            return true;
        }
        self.system_info(number, trimmed, ev)
    }

    fn header_comment(&mut self, h: &str, ev: &mut Evidence) {
        let hints = &mut ev.sched.hints;
        if let Some((k, v)) = h.split_once(" : ") {
            let (k, v) = (k.trim(), v.trim());
            match k {
                "nrcpus avail" | "nrcpus online" => {
                    if let Ok(n) = v.parse::<u32>() {
                        hints.nr_cpus = Some(hints.nr_cpus.map_or(n, |m| m.max(n)));
                    }
                }
                "cpudesc" => hints.cpu_desc = Some(crate::evidence::clip(v)),
                "arch" => hints.arch = Some(crate::evidence::clip(v)),
                _ => {}
            }
        }
        if let Some(p) = h.find("#P:") {
            if let Ok(n) = h[p + 3..].trim().parse::<u32>() {
                hints.nr_cpus = Some(n);
            }
        }
    }

    /// simpleperf `report-sample` text: `sample:` then indented `key: value` lines.
    fn simpleperf_sample(&mut self, text: &str, trimmed: &str, ev: &mut Evidence) -> bool {
        if trimmed == "sample:" || (trimmed.starts_with("sample ") && trimmed.ends_with(':')) {
            self.flush_sp(ev);
            self.sp_record = Some(SpRecord::default());
            self.set_format(ev, TraceFormat::Simpleperf);
            return true;
        }
        let Some(rec) = self.sp_record.as_mut() else {
            return false;
        };
        if !text.starts_with([' ', '\t']) {
            return false;
        }
        let depth = text.len() - text.trim_start().len();
        if depth <= 2 {
            if let Some((k, v)) = trimmed.split_once(": ") {
                let v = v.trim();
                match k {
                    "time" => rec.time_ns = v.parse().ok(),
                    "thread_id" => rec.tid = v.parse().ok(),
                    "thread_name" => rec.comm = v.to_string(),
                    "cpu" => rec.cpu = v.parse().ok(),
                    _ => {}
                }
            }
        }
        true
    }

    fn flush_sp(&mut self, ev: &mut Evidence) {
        if let Some(rec) = self.sp_record.take() {
            if let (Some(tid), Some(ns)) = (rec.tid, rec.time_ns) {
                let t = ev.sched.trace(self.input);
                t.count_event("sample");
                t.sample(tid, None, &rec.comm, rec.cpu, ns as f64 / 1e9);
            }
        }
    }

    /// `simpleperf report --sort comm,tid,cpu` (and perf report's similar table).
    fn simpleperf_table(&mut self, trimmed: &str, ev: &mut Evidence) -> bool {
        for k in [
            "Cmdline:",
            "Arch:",
            "Event:",
            "Event count:",
            "Samples:",
            "Samples ",
        ] {
            if let Some(v) = trimmed.strip_prefix(k) {
                if k == "Samples:" {
                    self.table_total_samples = v.trim().parse().ok();
                }
                if k == "Arch:" {
                    ev.sched.hints.arch = Some(crate::evidence::clip(v.trim()));
                }
                self.set_format(ev, TraceFormat::Simpleperf);
                return true;
            }
        }
        if trimmed.starts_with("Overhead") && trimmed.contains("Tid") {
            let mut cols = Vec::new();
            let mut pos = 0;
            for word in trimmed.split_whitespace() {
                let at = pos + trimmed[pos..].find(word).unwrap_or(0);
                cols.push((word.to_string(), at));
                pos = at + word.len();
            }
            self.table = Some(cols);
            return true;
        }
        let Some(cols) = &self.table else {
            return false;
        };
        let Some(pct) = trimmed.split_whitespace().next() else {
            return false;
        };
        let Some(pct) = pct.strip_suffix('%').and_then(|p| p.parse::<f64>().ok()) else {
            return false;
        };
        // Cells are aligned under their column names; a name may hold spaces.
        let cell = |name: &str| -> Option<&str> {
            let i = cols.iter().position(|(n, _)| n == name)?;
            let start = cols[i].1;
            let end = cols.get(i + 1).map_or(trimmed.len(), |c| c.1);
            trimmed
                .get(start.min(trimmed.len())..end.min(trimmed.len()))
                .map(str::trim)
        };
        let Some(tid) = cell("Tid").and_then(|v| v.parse::<u32>().ok()) else {
            return false;
        };
        let comm = cell("Command").unwrap_or("").to_string();
        let cpu = cell("Cpu").and_then(|v| v.parse::<u32>().ok());
        let n = match cell("Samples").and_then(|v| v.parse::<f64>().ok()) {
            Some(n) => n,
            None => pct / 100.0 * self.table_total_samples.unwrap_or(10_000.0),
        };
        let t = ev.sched.trace(self.input);
        t.count_event("report-row");
        t.weighted_samples(tid, &comm, cpu, n.round() as u64);
        true
    }

    /// `/proc/cpuinfo`, `cpuinfo_max_freq` lists, `lscpu`, `getprop` SoC names, trace-cmd's
    /// `cpus=N`.
    fn system_info(&mut self, number: u64, trimmed: &str, ev: &mut Evidence) -> bool {
        let before = ev.sched.hints.cpu_limits.len();
        self.limits
            .line(self.input, number, trimmed, &mut ev.sched.hints);
        if ev.sched.hints.cpu_limits.len() > before {
            return true;
        }
        // The prompt of a pasted `cat /proc/cpuinfo` or the like: the command that printed what
        // follows. Other commands stay skipped lines, shown to the user.
        if super::lines::is_shell_prompt(trimmed)
            && ["/proc/", "/sys/", "lscpu", "getprop"]
                .iter()
                .any(|c| trimmed.contains(c))
        {
            return true;
        }
        if super::cpu_mhz::note(
            &mut ev.sched.hints,
            self.input,
            number,
            trimmed,
            self.processor,
        ) {
            self.set_format(ev, TraceFormat::SystemInfo);
            return true;
        }
        if let Some(ok) = self
            .lscpu
            .line(self.input, number, trimmed, &mut ev.sched.hints)
        {
            if ok {
                self.set_format(ev, TraceFormat::SystemInfo);
            }
            return ok;
        }
        let hints = &mut ev.sched.hints;
        if let Some(n) = trimmed.strip_prefix("cpus=") {
            if let Ok(n) = n.trim().parse() {
                hints.nr_cpus = Some(n);
                return true;
            }
        }
        if trimmed.starts_with("version = ")
            || (trimmed.starts_with("CPU ") && trimmed.ends_with(" is empty"))
        {
            return true;
        }
        if trimmed.contains("cpuinfo_max_freq") || trimmed.contains("scaling_max_freq") {
            // `/sys/devices/system/cpu/cpu4/cpufreq/cpuinfo_max_freq:2419200` and the like.
            let cpu = trimmed
                .match_indices("cpu")
                .filter_map(|(i, _)| {
                    let digits: String = trimmed[i + 3..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    digits.parse::<u32>().ok()
                })
                .next();
            let value = trimmed
                .rsplit(|c: char| !c.is_ascii_digit())
                .find(|s| !s.is_empty())
                .and_then(|s| s.parse::<u64>().ok());
            if let (Some(cpu), Some(khz)) = (cpu, value) {
                if trimmed.contains("cpuinfo_max_freq") && cpu <= crate::evidence::sched::MAX_CPU {
                    hints.max_khz.insert(cpu, khz);
                }
                self.set_format(ev, TraceFormat::SystemInfo);
                return true;
            }
            return false;
        }
        for prop in [
            "[ro.soc.model]:",
            "[ro.board.platform]:",
            "[ro.hardware.chipname]:",
        ] {
            if let Some(v) = trimmed.strip_prefix(prop) {
                let v = v.trim().trim_start_matches('[').trim_end_matches(']');
                if !v.is_empty() && hints.hardware.is_none() {
                    hints.hardware = Some(crate::evidence::clip(v));
                }
                hints.note_device_name(v);
                return true;
            }
        }
        if let Some((k, v)) = trimmed.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            let hex = |v: &str| u32::from_str_radix(v.trim_start_matches("0x"), 16).ok();
            match k {
                "processor" => {
                    if let Ok(n) = v.parse() {
                        self.processor = Some(n);
                        self.set_format(ev, TraceFormat::SystemInfo);
                        return true;
                    }
                    // "Processor : AArch64 Processor rev 0 (aarch64)" on old kernels.
                    return true;
                }
                "CPU part" => {
                    if let (Some(p), Some(part)) = (self.processor, hex(v)) {
                        hints.cpu_part.insert(p, part);
                    }
                    return true;
                }
                "CPU implementer" => {
                    if let (Some(p), Some(imp)) = (self.processor, hex(v)) {
                        hints.cpu_implementer.insert(p, imp);
                    }
                    return true;
                }
                "Hardware" | "Model" | "model name" => {
                    if k == "Hardware" || hints.hardware.is_none() {
                        hints.hardware = Some(crate::evidence::clip(v));
                    }
                    hints.note_device_name(v);
                    return true;
                }
                "Features" | "flags" if self.processor.is_some() => {
                    let field = if k == "Features" { "Features" } else { "flags" };
                    ev.sched.hints.note_cpu_flags(self.input, number, field, v);
                    return true;
                }
                "BogoMIPS" | "Features" | "CPU architecture" | "CPU variant" | "CPU revision"
                | "Revision" | "Serial" | "flags" | "vendor_id" | "cpu family" | "model"
                | "stepping" | "microcode" | "cpu MHz" | "cache size" | "physical id"
                | "siblings" | "core id" | "cpu cores" | "apicid" | "initial apicid" | "fpu"
                | "fpu_exception" | "cpuid level" | "wp" | "bugs" | "bogomips" | "clflush size"
                | "cache_alignment" | "address sizes" | "power management" | "vmx flags" => {
                    return self.processor.is_some()
                }
                _ => {}
            }
        }
        false
    }
}

enum Key {
    Freq(u32),
    Temp(String),
}

impl LineParser for TraceParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let text = line.text;
        let Some(&first) = text.as_bytes().first() else {
            // A blank line ends a perf sample block.
            self.in_block = false;
            ev.sched.trace(self.input).lines_blank += 1;
            return;
        };
        let indented = first == b' ' || first == b'\t';
        // The hot path: callchain frames under a sample.
        if indented && self.in_block && trace_line::is_frame(text) {
            ev.sched.trace(self.input).lines_detail += 1;
            return;
        }
        if first != b'#' {
            if let Some(row) = super::sched_timehist::parse(text) {
                self.set_format(ev, TraceFormat::SchedTimehist);
                let t = ev.sched.trace(self.input);
                super::sched_timehist::record(t, &row);
                t.lines_event += 1;
                return;
            }
            if super::sched_timehist::is_header(text) {
                ev.sched.trace(self.input).lines_header += 1;
                return;
            }
            if let Some(h) = trace_line::parse(text) {
                let ok = self.event(&h, text, ev);
                let t = ev.sched.trace(self.input);
                if ok {
                    t.lines_event += 1;
                } else {
                    t.skip(line.number, text);
                }
                return;
            }
        }
        if text.trim().is_empty() {
            self.in_block = false;
            ev.sched.trace(self.input).lines_blank += 1;
            return;
        }
        if indented && self.in_block {
            // Other per-sample detail: srcline, brstack, symoff continuation lines.
            ev.sched.trace(self.input).lines_detail += 1;
            return;
        }
        if self.other(line.number, text, ev) {
            ev.sched.trace(self.input).lines_header += 1;
        } else {
            ev.sched.trace(self.input).skip(line.number, text);
        }
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.flush_sp(ev);
        if let Some(list) = self.max_freq_list.take() {
            list.finish(&mut ev.sched.hints);
        }
        let input = self.input;
        let t = ev.sched.trace(input);
        t.finish();
        let skipped = t.skipped.clone();
        let dropped = t.threads_dropped > 0 && t.threads.len() >= MAX_THREADS;
        ev.problem_lines(input, ProblemCode::TraceLinesSkipped, &skipped);
        if dropped {
            ev.problem(input, ProblemCode::TooManyThreads, None);
        }
        limit_problems(input, ev);
    }
}

/// Adds a point to series `idx` of trace `input` if the value changed (a step signal: the last
/// value holds until the next event), within the per-series and per-trace point budgets.
pub(super) fn push_change(ev: &mut Evidence, input: InputId, idx: usize, t: f64, v: f64) {
    let Some(s) = ev.series.get_mut(idx) else {
        return;
    };
    if s.points.last().is_some_and(|&(_, last)| last == v) {
        return;
    }
    let series_full = s.points.len() >= MAX_SERIES_POINTS;
    let trace = ev.sched.trace(input);
    if series_full || trace.series_points >= MAX_TRACE_SERIES_POINTS {
        trace.series_cut = true;
        return;
    }
    trace.series_points += 1;
    if let Some(s) = ev.series.get_mut(idx) {
        s.points.push((t, v));
    }
}

/// Says in the report which of the trace's memory limits were hit (the analysis went on).
pub(super) fn limit_problems(input: InputId, ev: &mut Evidence) {
    let t = ev.sched.trace(input);
    let (detail_cut, series_cut) = (t.timeline_truncated || t.moves_cut, t.series_cut);
    if detail_cut {
        ev.problem(input, ProblemCode::TraceDetailCut, None);
    }
    if series_cut {
        ev.problem(input, ProblemCode::TraceSeriesCut, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::lines::LineSplitter;

    fn run(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("t");
        let mut p = TraceParser::new(id);
        let mut s = LineSplitter::new();
        s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
        s.finish(&mut |l| p.line(l, &mut ev));
        p.finish(&mut ev);
        ev
    }

    #[test]
    fn perf_samples_with_callchains() {
        let ev = run("# ========\n# nrcpus avail : 8\n# ========\n#\nllama-cli  100/101 [004] 10.000: 250000 cpu-clock:pppH:\n\t7f0 ggml_vec_dot_q4_0_q8_0+0x1c (/data/local/tmp/libggml.so)\n\t7f1 ggml_compute_forward (/data/local/tmp/libggml.so)\n\nllama-cli  100/101 [001] 10.001: 250000 cpu-clock:pppH:\n\t7f0 ggml_vec_dot_q4_0_q8_0+0x1c (/data/local/tmp/libggml.so)\n");
        let t = &ev.sched.traces[0];
        assert_eq!(t.skipped.count, 0, "{:?}", t.skipped.first);
        assert_eq!(t.format, Some(TraceFormat::PerfScript));
        assert_eq!(t.lines_detail, 3);
        assert_eq!(t.threads[0].samples, vec![0, 1, 0, 0, 1]);
        assert_eq!(ev.sched.hints.nr_cpus, Some(8));
    }

    #[test]
    fn ftrace_freq_and_switch() {
        let ev = run("# tracer: nop\n#\n   llama-cli-101   [004] d..3   10.000000: sched_switch: prev_comm=llama-cli prev_pid=101 prev_prio=120 prev_state=R ==> next_comm=kworker/4:1 next_pid=55 next_prio=120\n   kworker/4:1-55    [004] d..3   10.250000: sched_switch: prev_comm=kworker/4:1 prev_pid=55 prev_prio=120 prev_state=S ==> next_comm=llama-cli next_pid=101 next_prio=120\n          <idle>-0     [000] d..2   10.300000: cpu_frequency: state=1804800 cpu_id=0\n          <idle>-0     [000] d..2   10.400000: cpu_frequency: state=1804800 cpu_id=0\nsome garbage line\n");
        let t = &ev.sched.traces[0];
        assert_eq!(t.format, Some(TraceFormat::Ftrace));
        assert_eq!(t.skipped.count, 1);
        assert_eq!(t.skipped.first, vec![(7, "some garbage line".to_string())]);
        let llama = t.threads.iter().find(|th| th.tid == 101).unwrap();
        assert!((llama.runnable_s - 0.25).abs() < 1e-9);
        assert_eq!(ev.series.len(), 1);
        assert_eq!(ev.series[0].points.len(), 1);
        let (t, mhz) = ev.series[0].points[0];
        assert!((t - 0.3).abs() < 1e-9 && mhz == 1804.8);
    }

    #[test]
    fn cpuinfo_and_max_freq() {
        let ev = run("processor\t: 0\nBogoMIPS\t: 38.40\nCPU implementer\t: 0x41\nCPU part\t: 0xd46\n\nprocessor\t: 7\nCPU part\t: 0xd4e\nHardware\t: Qualcomm Technologies, Inc SM8550\n/sys/devices/system/cpu/cpu7/cpufreq/cpuinfo_max_freq:3187200\n");
        let h = &ev.sched.hints;
        assert_eq!(h.cpu_part.get(&0), Some(&0xd46));
        assert_eq!(h.cpu_part.get(&7), Some(&0xd4e));
        assert_eq!(h.max_khz.get(&7), Some(&3_187_200));
        assert!(h.hardware.as_deref().unwrap().contains("SM8550"));
        assert_eq!(ev.sched.traces[0].skipped.count, 0);
    }

    #[test]
    fn cpu_flags_are_those_every_processor_lists() {
        // An old big.LITTLE pairing: the A53s have no dot product, so the CPU as a whole has none.
        let ev = run("processor\t: 0\nFeatures\t: fp asimd evtstrm aes crc32 cpuid\nCPU part\t: 0xd03\n\nprocessor\t: 4\nFeatures\t: fp asimd evtstrm aes crc32 cpuid asimddp\nCPU part\t: 0xd0a\n");
        let f = ev.sched.hints.cpu_flags.as_ref().expect("flags");
        assert_eq!((f.line, f.field), (2, "Features"));
        assert!(f.names.contains("asimd") && !f.names.contains("asimddp"));
        let x86 = run("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu vme sse3 avx avx2 AVX_VNNI\n");
        let f = x86.sched.hints.cpu_flags.as_ref().expect("flags");
        assert_eq!(f.field, "flags");
        assert!(f.names.contains("avx2") && f.names.contains("avx_vnni"));
    }

    #[test]
    fn garbage_never_panics() {
        // Fragments of every shape the parser knows, glued at random, cut at random.
        const BITS: &[&str] = &[
            "llama-cli",
            " 12",
            "/13",
            " [",
            "003",
            "]",
            " 5.25",
            ":",
            " 1000",
            " cpu-clock:",
            " sched:sched_switch:",
            " prev_comm=a b",
            " prev_pid=",
            "7",
            " ==> ",
            "next_pid=x",
            " power:cpu_frequency: state=",
            "cpu_id=9999999",
            "\t",
            "    ",
            "ffff",
            "-",
            "(",
            ")",
            "#",
            "processor\t: ",
            "CPU part\t: 0x",
            "Overhead  Command  Tid  Cpu",
            "%",
            "sample:",
            "  time: ",
            "é",
            "\u{fffd}",
            "cpuinfo_max_freq:",
            "=",
        ];
        let mut x: u64 = 7;
        let mut text = String::new();
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            let b = BITS[(x >> 33) as usize % BITS.len()];
            text.push_str(b);
            if (x >> 20) % 7 == 0 {
                text.push('\n');
            }
        }
        let ev = run(&text);
        assert!(ev.sched.traces[0].skipped.count > 0);
    }

    #[test]
    fn sensors_and_cpu_pairs_beyond_their_limits_are_cut_and_said() {
        use crate::evidence::sched::MAX_MOVE_PAIRS;
        let mut text = String::new();
        // 100 sensors, each changing: only the first MAX_TRACE_SENSORS are charted.
        for z in 0..100 {
            text += &format!("  kworker/0:1-42 [000] d..3  10.{z:06}: thermal_temperature: thermal_zone=zone{z} id={z} temp_prev=40000 temp={}\n", 41000 + z);
        }
        // One thread hopping over 200 CPUs at random: far more distinct pairs than kept.
        let mut x: u64 = 3;
        for i in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            let cpu = (x >> 33) % 200;
            text += &format!("llama-cli 100/101 [{cpu:03}] 11.{i:06}: 250000 cpu-clock:\n\n");
        }
        let ev = run(&text);
        let t = &ev.sched.traces[0];
        assert_eq!(t.skipped.count, 0, "{:?}", t.skipped.first);
        let sensors = ev
            .series
            .iter()
            .filter(|s| matches!(s.quantity, Quantity::Temperature { .. }))
            .count();
        assert_eq!(sensors, MAX_TRACE_SENSORS);
        assert!(t.series_cut);
        let th = t.threads.iter().find(|th| th.tid == 101).unwrap();
        assert_eq!(th.cpu_moves.len(), MAX_MOVE_PAIRS);
        assert!(t.moves_cut);
        // Every sample still counts, whatever was cut.
        assert_eq!(th.total_samples(), 20_000);
        let codes: Vec<_> = ev.inputs[0].problems.iter().map(|p| p.code).collect();
        assert!(codes.contains(&ProblemCode::TraceSeriesCut), "{codes:?}");
        assert!(codes.contains(&ProblemCode::TraceDetailCut), "{codes:?}");
        // A trace within every limit says nothing of the kind.
        let ev = run("llama-cli 100/101 [004] 10.000: 250000 cpu-clock:\n\nllama-cli 100/101 [001] 10.001: 250000 cpu-clock:\n");
        assert!(
            ev.inputs[0].problems.is_empty(),
            "{:?}",
            ev.inputs[0].problems
        );
    }

    #[test]
    fn simpleperf_report_sample_and_table() {
        let ev = run("sample:\n  event_type: cpu-clock\n  time: 5000000000\n  event_count: 1000000\n  thread_id: 4242\n  thread_name: mnn_worker\n  vaddr_in_file: 1a2b\n  file: /data/app/libMNN.so\n  symbol: MNNGemmInt8\n  callchain:\n    vaddr_in_file: 1a2c\n    file: /data/app/libMNN.so\n    symbol: foo\nsample:\n  time: 5001000000\n  thread_id: 4242\n  thread_name: mnn_worker\n");
        let t = &ev.sched.traces[0];
        assert_eq!(t.skipped.count, 0);
        assert_eq!(t.threads[0].total_samples(), 2);
        let ev = run("Cmdline: /system/bin/simpleperf record -a --duration 5\nArch: arm64\nEvent: cpu-clock (type 1, config 0)\nSamples: 2000\nEvent count: 2000000000\n\nOverhead  Command     Tid    Cpu\n60.00%    llama-cli   8123   1\n40.00%    llama-cli   8123   7\n");
        let t = &ev.sched.traces[0];
        assert_eq!(t.skipped.count, 0, "{:?}", t.skipped.first);
        assert_eq!(t.threads[0].samples[1], 1200);
        assert_eq!(t.threads[0].samples[7], 800);
    }
}

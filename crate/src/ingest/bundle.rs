//! tokscope-record bundles (`scripts/tokscope-record.sh`, format in `docs/bundle.md`): one text
//! file whose first line is `tokscope-record <version>`, then named sections (`@name`) on one
//! clock, the seconds of `/proc/uptime`.
//!
//! The reader hands each part to the parser that already knows its kind, so a bundle gives what
//! its parts would give alone: the captured log goes through [`LogParser`] (run facts,
//! fallbacks), `/proc/cpuinfo` and the SoC properties through [`TraceParser`] (topology hints),
//! the sampled sysfs values into telemetry [`Sink`] series (clock per CPU, temperatures, cooling,
//! GPU, battery and charging, CPU load), and the per-thread `/proc/<pid>/task/<tid>/stat`
//! snapshots into the scheduling evidence through [`TraceFacts::snapshot`]. Each run's decode
//! speed is placed on the clock at the time its last line was read, giving tok/s over time.
//!
//! [`TraceFacts::snapshot`]: crate::evidence::sched::TraceFacts::snapshot

use super::lines::Line;
use super::log::LogParser;
use super::telemetry::{units, Sink};
use super::trace::TraceParser;
use super::LineParser;
use crate::evidence::sched::TraceFormat;
use crate::evidence::{Evidence, InputId, ProblemCode, Quantity, SkippedLines};
use std::collections::HashMap;

/// What the first line starts with.
pub const MAGIC: &str = "tokscope-record ";
/// The newest bundle version this reader knows.
pub const VERSION: u32 = 1;
/// Threads and processes followed per bundle (a fork bomb must not grow the maps without end).
const MAX_TRACKED: usize = 4096;

/// Whether `first_line` opens a bundle.
pub fn looks_like(first_line: &str) -> bool {
    first_line
        .trim_start_matches('\u{feff}')
        .strip_prefix(MAGIC)
        .is_some_and(|v| v.trim().parse::<u32>().is_ok())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Head,
    Meta,
    /// Raw text sections: their lines start with `|`.
    Uname,
    Cpuinfo,
    Props,
    Log,
    Missing,
    Static,
    Sample,
    End,
    Unknown,
}

/// Per-CPU `/proc/stat` counters of the previous sample: (busy, total) jiffies.
type StatCounters = (u64, u64);

pub struct BundleParser {
    input: InputId,
    section: Section,
    log: LogParser,
    sysinfo: TraceParser,
    sink: Sink,
    /// `start` of the meta section; times are seconds from it.
    start: Option<f64>,
    clk_tck: f64,
    page_size: f64,
    /// Sample columns declared by `cols`: CPUs, thermal zones, cooling devices, devfreq names.
    cols: HashMap<String, Vec<String>>,
    zone_names: HashMap<String, String>,
    cdev_types: HashMap<String, String>,
    supply_types: HashMap<String, String>,
    /// The sample being read: its uptime, and what it says about the supply.
    tick: Option<f64>,
    offline: Vec<String>,
    adapter_online: Option<bool>,
    battery_status: Option<bool>,
    stat_prev: HashMap<String, StatCounters>,
    /// Resident pages of the workload's processes in the sample being read.
    rss_pages: Option<f64>,
    /// tid -> (uptime, utime + stime ticks) of its previous snapshot.
    tasks: HashMap<u32, (f64, u64)>,
    /// (first bundle line of a log block, uptime it was read at).
    log_blocks: Vec<(u64, f64)>,
    missed: SkippedLines,
    skipped: SkippedLines,
    newer: bool,
}

impl BundleParser {
    pub fn new(input: InputId, name: &str) -> Self {
        BundleParser {
            input,
            section: Section::Head,
            // The captured log's framework is not known before its lines: the log parser finds
            // it from them, as for a log whose sniffing saw no framework.
            log: LogParser::new(input, name, None),
            sysinfo: TraceParser::new(input),
            sink: Sink::default(),
            start: None,
            clk_tck: 100.0,
            page_size: 4096.0,
            cols: HashMap::new(),
            zone_names: HashMap::new(),
            cdev_types: HashMap::new(),
            supply_types: HashMap::new(),
            tick: None,
            offline: Vec::new(),
            adapter_online: None,
            battery_status: None,
            stat_prev: HashMap::new(),
            rss_pages: None,
            tasks: HashMap::new(),
            log_blocks: Vec::new(),
            missed: SkippedLines::default(),
            skipped: SkippedLines::default(),
            newer: false,
        }
    }

    /// Seconds on the bundle's axis (from the recorder's start).
    fn rel(&mut self, uptime: f64) -> f64 {
        uptime - *self.start.get_or_insert(uptime)
    }

    fn header(&mut self, number: u64, text: &str) -> bool {
        let mut words = text[1..].split_whitespace();
        let name = words.next().unwrap_or("");
        let time = words.next().and_then(|w| w.parse::<f64>().ok());
        self.section = match name {
            "meta" => Section::Meta,
            "uname" => Section::Uname,
            "cpuinfo" => Section::Cpuinfo,
            "props" => Section::Props,
            "static" => Section::Static,
            "missing" => Section::Missing,
            "log" => {
                let Some(t) = time else { return false };
                self.log_blocks.push((number + 1, t));
                Section::Log
            }
            "t" => {
                let Some(t) = time else { return false };
                self.end_tick();
                self.tick = Some(t);
                self.rel(t);
                Section::Sample
            }
            "attach" => return time.is_some(),
            "end" => {
                self.end_tick();
                Section::End
            }
            _ => {
                self.skipped.add(number, text);
                return true;
            }
        };
        true
    }

    /// Closes the sample: the charging state it showed.
    fn end_tick(&mut self) {
        let Some(t) = self.tick.take() else { return };
        if let Some(pages) = self.rss_pages.take() {
            // The workload's processes together: helpers come and go, the memory is the sum.
            let q = Quantity::Other {
                name: "RSS (workload)".into(),
                unit: "MiB".into(),
            };
            let rel = self.rel(t);
            self.sink
                .push(q, "statm", rel, pages * self.page_size / 1048576.0);
        }
        let plugged = self.adapter_online.take().or(self.battery_status.take());
        self.battery_status = None;
        self.offline.clear();
        if let Some(p) = plugged {
            let t = self.rel(t);
            self.sink.push(
                Quantity::Charging,
                "power_supply online / status",
                t,
                f64::from(u8::from(p)),
            );
        }
    }

    fn meta(&mut self, text: &str) {
        let (k, v) = text.split_once(' ').unwrap_or((text, ""));
        let num = v.trim().parse::<f64>().ok().filter(|x| *x > 0.0);
        match k {
            "start" => self.start = self.start.or(num),
            "clk_tck" => self.clk_tck = num.unwrap_or(100.0),
            "page_size" => self.page_size = num.unwrap_or(4096.0),
            _ => {}
        }
    }

    /// Hands a cpuinfo or property line to the trace parser when it names the topology.
    fn sysinfo_line(&mut self, number: u64, text: &str, ev: &mut Evidence) {
        let key = text.split(':').next().unwrap_or("").trim();
        let wanted = matches!(
            key,
            "processor" | "CPU part" | "CPU implementer" | "Hardware" | "Model" | "model name"
        ) || [
            "[ro.soc.model]",
            "[ro.board.platform]",
            "[ro.hardware.chipname]",
        ]
        .contains(&key);
        if wanted {
            self.sysinfo.line(Line { number, text }, ev);
        }
    }

    fn static_line(&mut self, text: &str, ev: &mut Evidence) -> bool {
        let mut w = text.splitn(4, ' ');
        let (kind, id) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
        if kind == "cols" {
            let ids: Vec<String> = text
                .split_whitespace()
                .skip(2)
                .map(str::to_string)
                .collect();
            if id == "cpu" {
                let n = ids.iter().filter_map(|c| c.parse::<u32>().ok()).max();
                if let Some(n) = n.filter(|&n| n <= crate::evidence::sched::MAX_CPU) {
                    let hints = &mut ev.sched.hints;
                    hints.nr_cpus = Some(hints.nr_cpus.map_or(n + 1, |m| m.max(n + 1)));
                }
            }
            self.cols.insert(id.to_string(), ids);
            return true;
        }
        let (key, value) = (w.next().unwrap_or(""), w.next().unwrap_or("").trim());
        match (kind, key) {
            ("cpu", "cpuinfo_max_freq") => {
                if let (Ok(cpu), Ok(khz)) = (id.parse::<u32>(), value.parse::<u64>()) {
                    if cpu <= crate::evidence::sched::MAX_CPU {
                        ev.sched.hints.max_khz.insert(cpu, khz);
                    }
                }
            }
            ("zone", "type") => {
                self.zone_names.insert(id.to_string(), value.to_string());
            }
            ("cdev", "type") => {
                self.cdev_types.insert(id.to_string(), value.to_string());
            }
            ("supply", "type") => {
                self.supply_types.insert(id.to_string(), value.to_string());
            }
            ("cpu" | "zone" | "cdev" | "kgsl" | "devfreq" | "supply", _) => {}
            _ => return false,
        }
        true
    }

    fn sample_line(&mut self, text: &str, ev: &mut Evidence) -> bool {
        let Some(tick) = self.tick else { return false };
        let t = self.rel(tick);
        let (kind, rest) = text.split_once(' ').unwrap_or((text, ""));
        match kind {
            "online" | "cur" | "min" | "max" | "temp" | "cdev" | "devfreq" => {
                let col = match kind {
                    "online" | "cur" | "min" | "max" => "cpu",
                    "temp" => "zone",
                    k => k,
                };
                let Some(ids) = self.cols.get(col).cloned() else {
                    return false;
                };
                for (id, v) in ids.iter().zip(rest.split_whitespace()) {
                    if let Ok(v) = v.parse::<f64>() {
                        self.column_value(kind, id, t, v);
                    }
                }
            }
            "kgsl" => {
                if let Ok(hz) = rest.trim().parse::<f64>() {
                    let q = Quantity::ClockFreq { name: "GPU".into() };
                    self.sink.push(q, "kgsl-3d0 gpuclk", t, hz / 1e6);
                }
            }
            "supply" => self.supply(rest, t),
            "stat" => self.stat(rest, t),
            "task" => return self.task(rest, tick, ev),
            "rss" => {
                let pages = rest.split_whitespace().nth(1).map(str::parse::<f64>);
                let Some(Ok(pages)) = pages else { return false };
                *self.rss_pages.get_or_insert(0.0) += pages;
            }
            _ => return false,
        }
        true
    }

    fn column_value(&mut self, kind: &str, id: &str, t: f64, v: f64) {
        match kind {
            "online" if v == 0.0 => self.offline.push(id.to_string()),
            "online" => {}
            "cur" | "min" | "max" if self.offline.iter().any(|o| o == id) => {}
            "cur" => {
                if let Ok(cpu) = id.parse::<u32>() {
                    let q = Quantity::CpuFreq { cpu };
                    self.sink.push(q, "scaling_cur_freq", t, v / 1000.0);
                }
            }
            // The cap the governors set (the floor stays in the bundle: no rule reads it).
            "max" => {
                let q = Quantity::Other {
                    name: format!("cpu{id} scaling_max_freq"),
                    unit: "MHz".into(),
                };
                self.sink.push(q, "scaling_max_freq", t, v / 1000.0);
            }
            "temp" => {
                let sensor = self
                    .zone_names
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| format!("thermal_zone{id}"));
                let kind = units::Kind::Temp {
                    sensor: String::new(),
                };
                let c = units::apply(v, units::scale_from_value(&kind, v));
                let q = Quantity::Temperature { sensor };
                self.sink.push(q, &format!("thermal_zone{id}"), t, c);
            }
            "cdev" => {
                let ty = self.cdev_types.get(id).cloned().unwrap_or_default();
                let l = ty.to_ascii_lowercase();
                // Cooling devices that slow a processor down are throttles; a fan is not.
                let throttle = [
                    "cpu",
                    "gpu",
                    "freq",
                    "processor",
                    "powerclamp",
                    "isolat",
                    "hotplug",
                ]
                .iter()
                .any(|w| l.contains(w));
                let source = format!("cooling_device{id}");
                if throttle {
                    let q = Quantity::ThrottleFlag {
                        reason: format!("thermal cooling {ty}"),
                    };
                    self.sink.push(q, &source, t, f64::from(u8::from(v > 0.0)));
                } else {
                    let q = Quantity::Other {
                        name: format!("cooling {ty}"),
                        unit: "state".into(),
                    };
                    self.sink.push(q, &source, t, v);
                }
            }
            "devfreq" => {
                let kind = units::Kind::Freq {
                    cpu: None,
                    name: String::new(),
                };
                let mhz = units::apply(v, units::scale_from_value(&kind, v));
                let q = Quantity::ClockFreq {
                    name: id.to_string(),
                };
                self.sink.push(q, "devfreq cur_freq", t, mhz);
            }
            _ => {}
        }
    }

    /// `supply NAME FIELD VALUE`: power_supply class attributes (µA, µV, tenths of °C).
    fn supply(&mut self, rest: &str, t: f64) {
        let mut w = rest.splitn(3, ' ');
        let (name, field, value) = (
            w.next().unwrap_or(""),
            w.next().unwrap_or(""),
            w.next().unwrap_or("").trim(),
        );
        let ty = self.supply_types.get(name).map_or("", String::as_str);
        let battery = ty.eq_ignore_ascii_case("battery")
            || (ty.is_empty() && name.to_ascii_lowercase().contains("bat"));
        let num = value.parse::<f64>().ok();
        let source = format!("power_supply/{name}/{field}");
        let rail = if battery {
            "battery".to_string()
        } else {
            name.to_string()
        };
        match (field, num) {
            ("online", Some(v)) if !battery => {
                self.adapter_online = Some(self.adapter_online.unwrap_or(false) || v >= 1.0);
            }
            ("status", _) if battery => {
                self.battery_status = match value.to_ascii_lowercase().as_str() {
                    "charging" | "full" | "not charging" => Some(true),
                    "discharging" => Some(false),
                    _ => None,
                };
            }
            ("capacity", Some(v)) if battery => {
                self.sink.push(Quantity::BatteryLevel, &source, t, v)
            }
            ("current_now", Some(v)) => {
                let kind = units::Kind::Current {
                    rail: String::new(),
                };
                let ma = units::apply(v, units::scale_from_value(&kind, v));
                self.sink.push(Quantity::Current { rail }, &source, t, ma);
            }
            ("voltage_now", Some(v)) => {
                let kind = units::Kind::Voltage {
                    rail: String::new(),
                };
                let mv = units::apply(v, units::scale_from_value(&kind, v));
                self.sink.push(Quantity::Voltage { rail }, &source, t, mv);
            }
            ("temp", Some(v)) => {
                let sensor = if battery {
                    rail
                } else {
                    format!("{name} supply")
                };
                self.sink
                    .push(Quantity::Temperature { sensor }, &source, t, v / 10.0);
            }
            _ => {}
        }
    }

    /// `stat cpuN user nice system idle iowait irq softirq steal ...` (jiffies since boot).
    fn stat(&mut self, rest: &str, t: f64) {
        let mut w = rest.split_whitespace();
        let Some(name) = w.next() else { return };
        let Some(cpu) = name.strip_prefix("cpu").and_then(|n| n.parse::<u32>().ok()) else {
            return;
        };
        let f: Vec<u64> = w.take(8).filter_map(|x| x.parse().ok()).collect();
        if f.len() < 4 {
            return;
        }
        let idle = f[3] + f.get(4).copied().unwrap_or(0);
        let total: u64 = f.iter().sum();
        let busy = total - idle;
        if self.stat_prev.len() >= MAX_TRACKED && !self.stat_prev.contains_key(name) {
            return;
        }
        if let Some((b0, t0)) = self.stat_prev.insert(name.to_string(), (busy, total)) {
            if total > t0 && busy >= b0 {
                let pct = 100.0 * (busy - b0) as f64 / (total - t0) as f64;
                self.sink
                    .push(Quantity::CpuLoad { cpu }, "/proc/stat", t, pct.min(100.0));
            }
        }
    }

    /// `task PID TID CPU UTIME STIME COMM`: one thread's snapshot.
    fn task(&mut self, rest: &str, tick: f64, ev: &mut Evidence) -> bool {
        let mut w = rest.splitn(6, ' ');
        let mut n = || w.next().and_then(|x| x.parse::<u64>().ok());
        let (Some(pid), Some(tid), Some(cpu), Some(ut), Some(st)) = (n(), n(), n(), n(), n())
        else {
            return false;
        };
        let comm = w.next().unwrap_or("").trim_end();
        let (Ok(pid), Ok(tid), Ok(cpu)) =
            (u32::try_from(pid), u32::try_from(tid), u32::try_from(cpu))
        else {
            return false;
        };
        let ticks = ut.saturating_add(st);
        let prev = self.tasks.get(&tid).copied();
        if prev.is_none() && self.tasks.len() >= MAX_TRACKED {
            return true;
        }
        self.tasks.insert(tid, (tick, ticks));
        let (since, cpu_s) = match prev {
            // A tid reused by a new thread starts over: its counter went back.
            Some((t0, k0)) if ticks >= k0 => (t0, (ticks - k0) as f64 / self.clk_tck),
            _ => (tick, 0.0),
        };
        let trace = ev.sched.trace(self.input);
        trace.format = Some(TraceFormat::Snapshots);
        trace.count_event("task-stat");
        trace.snapshot(tid, Some(pid), comm, cpu, since, tick, cpu_s);
        true
    }

    /// The uptime a log line was read at.
    fn log_time(&self, line: u64) -> Option<f64> {
        let i = self.log_blocks.partition_point(|&(first, _)| first <= line);
        i.checked_sub(1).map(|i| self.log_blocks[i].1)
    }
}

impl LineParser for BundleParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let (number, text) = (line.number, line.text.trim_end_matches('\r'));
        if self.section == Section::Head {
            let version = text
                .trim_start_matches('\u{feff}')
                .strip_prefix(MAGIC)
                .and_then(|v| v.trim().parse::<u32>().ok());
            if version.is_some_and(|v| v > VERSION) {
                self.newer = true;
            }
            self.section = Section::Unknown;
            if version.is_some() {
                return;
            }
        }
        if let Some(raw) = text.strip_prefix('|') {
            match self.section {
                Section::Log => self.log.line(Line { number, text: raw }, ev),
                Section::Cpuinfo | Section::Props => self.sysinfo_line(number, raw, ev),
                Section::Missing => self.missed.add(number, raw),
                Section::Uname => {}
                _ => self.skipped.add(number, text),
            }
            return;
        }
        if text.trim().is_empty() || text.starts_with('#') {
            return;
        }
        let ok = if text.starts_with('@') {
            self.header(number, text)
        } else {
            match self.section {
                Section::Meta => {
                    self.meta(text);
                    true
                }
                Section::Static => self.static_line(text, ev),
                Section::Sample => self.sample_line(text, ev),
                Section::End => true,
                _ => false,
            }
        };
        if !ok {
            self.skipped.add(number, text);
        }
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.end_tick();
        let before = ev.runs.len();
        self.log.finish(ev);
        self.sysinfo.finish(ev);
        // Each run's decode speed at the time its last line was read: tok/s over the run.
        let mut points = Vec::new();
        for run in &ev.runs[before..] {
            let tok_s = run.decode.as_ref().and_then(|d| d.tok_s).or_else(|| {
                let tg: Vec<f64> = run
                    .bench
                    .iter()
                    .filter(|b| b.test.starts_with("tg"))
                    .map(|b| b.tok_s)
                    .collect();
                (!tg.is_empty()).then(|| tg.iter().sum::<f64>() / tg.len() as f64)
            });
            let at = run
                .line_end
                .or(run.line_start)
                .and_then(|l| self.log_time(l));
            if let (Some(v), Some(at)) = (tok_s, at) {
                points.push((at, v));
            }
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (at, v) in points {
            let t = self.rel(at);
            self.sink
                .push(Quantity::TokensPerSecond, "log (decode per run)", t, v);
        }
        if ev.inputs[self.input].framework.is_none() {
            ev.inputs[self.input].framework = ev.runs[before..].iter().find_map(|r| r.framework);
        }
        self.sink.finish(self.input, ev);
        if self.newer {
            ev.problem(self.input, ProblemCode::BundleNewer, Some(1));
        }
        ev.problem_lines(self.input, ProblemCode::RecorderMissed, &self.missed);
        ev.problem_lines(self.input, ProblemCode::BundleLinesSkipped, &self.skipped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::lines::LineSplitter;

    fn read(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("run.txt");
        let mut p = BundleParser::new(id, "run.txt");
        let mut s = LineSplitter::new();
        s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
        s.finish(&mut |l| p.line(l, &mut ev));
        p.finish(&mut ev);
        ev
    }

    fn points(ev: &Evidence, q: &Quantity) -> Vec<(f64, f64)> {
        ev.series
            .iter()
            .filter(|s| &s.quantity == q)
            .flat_map(|s| s.points.clone())
            .collect()
    }

    const BUNDLE: &str = "tokscope-record 1
@meta
start 100.00
clk_tck 100
page_size 4096
@cpuinfo
|processor\t: 0
|CPU part\t: 0xd46
|processor\t: 1
|CPU part\t: 0xd48
@static
cpu 0 cpuinfo_max_freq 1804800
cpu 1 cpuinfo_max_freq 3014400
zone 0 type cpu-1-0-usr
cdev 0 type thermal-cpufreq-0
cdev 1 type Fan
supply battery type Battery
supply usb type USB
cols cpu 0 1
cols zone 0
cols cdev 0 1
cols devfreq
@t 100.00
online - 1
cur 1804800 3014400
max 1804800 3014400
temp 45000
cdev 0 2
supply battery status Discharging
supply battery capacity 80
supply battery current_now -350000
supply usb online 0
stat cpu0 100 0 0 900 0 0 0 0
task 7 8 1 50 10 llama-cli worker
@log 100.50
|llama_perf_context_print: prompt eval time =     500.00 ms /    10 tokens (   50.00 ms per token,    20.00 tokens per second)
|llama_perf_context_print:        eval time =    5000.00 ms /    50 runs   (  100.00 ms per token,    10.00 tokens per second)
|llama_perf_context_print:       total time =    5600.00 ms /    60 tokens
@t 101.00
online - 0
cur 1804800 -
max 1804800 1000000
temp 51500
cdev 1 2
supply battery status Not charging
supply battery capacity 79
supply usb online 1
stat cpu0 190 0 0 910 0 0 0 0
task 7 8 0 140 10 llama-cli worker
what is this
@missing
|/sys/class/kgsl\tabsent
@end 101.00
exit 0
";

    #[test]
    fn every_part_lands_in_its_evidence() {
        let ev = read(BUNDLE);
        assert_eq!(
            points(&ev, &Quantity::CpuFreq { cpu: 1 }),
            vec![(0.0, 3014.4)],
            "offline CPU 1 has no clock in the second sample"
        );
        assert_eq!(
            points(
                &ev,
                &Quantity::Temperature {
                    sensor: "cpu-1-0-usr".into()
                }
            ),
            vec![(0.0, 45.0), (1.0, 51.5)]
        );
        let flag = Quantity::ThrottleFlag {
            reason: "thermal cooling thermal-cpufreq-0".into(),
        };
        assert_eq!(points(&ev, &flag), vec![(0.0, 0.0), (1.0, 1.0)]);
        assert_eq!(
            points(&ev, &Quantity::Charging),
            vec![(0.0, 0.0), (1.0, 1.0)]
        );
        assert_eq!(
            points(
                &ev,
                &Quantity::Current {
                    rail: "battery".into()
                }
            ),
            vec![(0.0, -350.0)]
        );
        assert_eq!(
            points(&ev, &Quantity::CpuLoad { cpu: 0 }),
            vec![(1.0, 90.0)]
        );
        // The run from the log, and its decode speed at the time its lines were read.
        assert_eq!(ev.runs.len(), 1, "{:?}", ev.runs);
        assert_eq!(points(&ev, &Quantity::TokensPerSecond), vec![(0.5, 10.0)]);
        // Topology hints from cpuinfo and cpuinfo_max_freq.
        assert_eq!(ev.sched.hints.max_khz.get(&1), Some(&3_014_400));
        assert_eq!(ev.sched.hints.cpu_part.get(&1), Some(&0xd48));
        // 0.9 s of CPU time between the snapshots, credited to CPU 0, where it was at the end.
        let t = &ev.sched.traces[0];
        assert_eq!(t.format, Some(TraceFormat::Snapshots));
        let th = &t.threads[0];
        assert_eq!(
            (th.tid, th.pid, th.comm.as_str()),
            (8, Some(7), "llama-cli worker")
        );
        assert!((th.run_s[0] - 0.9).abs() < 1e-9, "{:?}", th.run_s);
        assert_eq!(th.cpu_moves.get(&(1, 0)), Some(&1));
        let codes: Vec<_> = ev.inputs[0].problems.iter().map(|p| p.code).collect();
        assert_eq!(
            codes,
            vec![ProblemCode::RecorderMissed, ProblemCode::BundleLinesSkipped]
        );
        let skipped = ev.inputs[0].problems[1].lines.as_ref().unwrap();
        assert_eq!(skipped.first, vec![(50, "what is this".to_string())]);
    }

    #[test]
    fn a_newer_version_is_said_and_read_as_far_as_known() {
        let ev = read("tokscope-record 2\n@t 5.0\ncols zone 0\n@static\ncols zone 0\n@t 5.0\ntemp 40000\n@future 6.0\nx y\n");
        assert!(ev.inputs[0]
            .problems
            .iter()
            .any(|p| p.code == ProblemCode::BundleNewer));
        assert_eq!(ev.series.len(), 1);
        assert!(looks_like("tokscope-record 1"));
        assert!(!looks_like("tokscope-record"));
        assert!(!looks_like("tokscope-recorder 1"));
    }

    #[test]
    fn garbage_never_panics() {
        const BITS: &[&str] = &[
            "@t ",
            "@log ",
            "@static",
            "@meta",
            "1.5",
            "-",
            " ",
            "\n",
            "|",
            "task ",
            "9",
            "cols ",
            "cpu ",
            "stat cpu0 ",
            "99999999999999999999",
            "supply b ",
            "rss ",
            "é",
            "@end",
            "cur ",
            "temp ",
            "online ",
        ];
        let mut x: u64 = 11;
        let mut text = String::from("tokscope-record 1\n");
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            text.push_str(BITS[(x >> 33) as usize % BITS.len()]);
        }
        let ev = read(&text);
        assert!(ev.inputs[0]
            .problems
            .iter()
            .any(|p| p.code == ProblemCode::BundleLinesSkipped));
    }
}

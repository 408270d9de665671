//! Scheduling evidence: where each thread ran, per CPU, from sampled events (`[cpu]` of perf /
//! simpleperf samples) and from scheduler tracepoints (`sched_switch`, `sched_wakeup`,
//! `sched_migrate_task`), plus the CPU topology hints the inputs carry.
//!
//! Everything is aggregated per thread and per CPU as it streams in: no sample is kept. The
//! thread timeline is a fixed number of time bins whose width doubles when the trace outgrows
//! them, so its size does not depend on the trace length.

use super::{InputId, SkippedLines};
use std::collections::{BTreeMap, HashMap};

/// Threads tracked per trace; later threads are counted in `threads_dropped`.
pub const MAX_THREADS: usize = 4096;
/// Highest CPU number accepted (inclusive bound); beyond it a line is treated as malformed.
pub const MAX_CPU: u32 = 1023;
/// Time bins of the thread timeline.
pub const TIMELINE_BINS: usize = 256;
/// Initial width of a timeline bin; it doubles as the trace grows.
const FIRST_BIN_S: f64 = 0.001;
/// Timeline cells (thread, bin, CPU) kept per trace; beyond it new cells are dropped and
/// `timeline_truncated` is set.
pub const MAX_TIMELINE_CELLS: usize = 1 << 20;
/// Distinct (from, to) CPU pairs counted per thread, for CPU changes and for migrations: a real
/// SoC has a few dozen; a trace naming hundreds of CPUs at random must not grow a map per thread
/// without end. Beyond it new pairs are dropped and `moves_cut` is set.
pub const MAX_MOVE_PAIRS: usize = 1024;
/// Frequency and temperature points kept per trace, all series together (each series also keeps
/// at most `ingest::trace::MAX_SERIES_POINTS`); beyond it `series_cut` is set.
pub const MAX_TRACE_SERIES_POINTS: usize = 1_000_000;
/// Temperature sensors charted per trace; later sensors set `series_cut`.
pub const MAX_TRACE_SENSORS: usize = 64;

/// Which producer wrote the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceFormat {
    /// `perf script` text.
    PerfScript,
    /// simpleperf `report_sample.py` or `report-sample` text, or a `simpleperf report` table.
    Simpleperf,
    /// ftrace / trace-cmd report / systrace / atrace text.
    Ftrace,
    /// Binary `perf.data` (Linux perf or simpleperf).
    PerfData,
    /// Only system information (`/proc/cpuinfo`, `cpuinfo_max_freq` lists), no events.
    SystemInfo,
    /// `perf sched timehist`: run intervals and scheduling delays per task.
    SchedTimehist,
    /// Thread placement sampled at intervals (`/proc/<pid>/task/*/stat` in a tokscope-record
    /// bundle): running time per CPU from each thread's CPU time between snapshots.
    Snapshots,
}

/// One cell of a thread's timeline: weight (samples or seconds) on one CPU in one bin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub bin: u16,
    pub cpu: u16,
    pub weight: f32,
}

/// Everything known about one thread in one trace.
#[derive(Debug, Clone, Default)]
pub struct ThreadAgg {
    pub tid: u32,
    pub pid: Option<u32>,
    pub comm: String,
    /// Samples per CPU (index = CPU number), from sampled events.
    pub samples: Vec<u64>,
    /// Samples whose CPU is unknown (the trace has no `[cpu]` column).
    pub samples_no_cpu: u64,
    /// Seconds running per CPU, from `sched_switch` (or context-switch records).
    pub run_s: Vec<f64>,
    /// Seconds runnable but not running (woken or preempted, waiting for a CPU).
    pub runnable_s: f64,
    /// CPU changes between consecutive observations (samples, switch-ins): (from, to) -> count.
    pub cpu_moves: BTreeMap<(u16, u16), u64>,
    /// `sched_migrate_task` moves: (orig, dest) -> count.
    pub migrations: BTreeMap<(u16, u16), u64>,
    /// Relative time of the first and last event of this thread.
    pub first_s: f64,
    pub last_s: f64,
    /// Sample cells and running-time cells of the timeline.
    pub sample_cells: Vec<Cell>,
    pub run_cells: Vec<Cell>,
    /// Consecutive snapshots of this thread, both with CPU time: the chances to see a move.
    pub snapshot_pairs: u64,
    // --- streaming state
    last_cpu: Option<u32>,
    running_since: Option<(u32, f64)>,
    runnable_since: Option<f64>,
}

impl ThreadAgg {
    pub fn total_samples(&self) -> u64 {
        self.samples
            .iter()
            .fold(self.samples_no_cpu, |a, &n| a.saturating_add(n))
    }
    pub fn total_run_s(&self) -> f64 {
        self.run_s.iter().sum()
    }
}

/// The facts and aggregates of one trace input.
#[derive(Debug, Clone)]
pub struct TraceFacts {
    pub input: InputId,
    pub format: Option<TraceFormat>,
    /// Absolute timestamp (seconds, as printed) of the first event; relative times count from it.
    pub t0: Option<f64>,
    /// Relative time of the last event.
    pub end_s: f64,
    pub threads: Vec<ThreadAgg>,
    index: HashMap<u32, usize>,
    pub threads_dropped: u64,
    /// Width of one timeline bin, seconds.
    pub bin_s: f64,
    pub timeline_truncated: bool,
    cells: usize,
    /// A thread met more distinct CPU pairs than [`MAX_MOVE_PAIRS`]; later new pairs not counted.
    pub moves_cut: bool,
    /// Frequency / temperature points stored so far, and whether a limit dropped some.
    pub series_points: usize,
    pub series_cut: bool,
    /// Event name -> count, for the events seen.
    pub events: BTreeMap<String, u64>,
    pub samples: u64,
    pub switches: u64,
    pub wakeups: u64,
    pub migrate_events: u64,
    pub freq_events: u64,
    /// Highest CPU number seen in the trace, plus one.
    pub cpus_seen: u32,
    /// Highest `cpu_frequency` seen per CPU, kHz.
    pub freq_seen_max_khz: BTreeMap<u32, u64>,
    /// Lines of the trace that were read, by role.
    pub lines_event: u64,
    pub lines_detail: u64,
    pub lines_header: u64,
    pub lines_blank: u64,
    /// Lines that matched no known shape.
    pub skipped: SkippedLines,
    /// CPU -> (thread running, since) from `sched_switch`.
    on_cpu: HashMap<u32, (u32, f64)>,
    /// Distinct instants of thread snapshots (frames of `top`, samples of a bundle).
    pub snapshot_frames: u64,
    last_snapshot_t: Option<f64>,
}

impl TraceFacts {
    fn new(input: InputId) -> Self {
        TraceFacts {
            input,
            format: None,
            t0: None,
            end_s: 0.0,
            threads: Vec::new(),
            index: HashMap::new(),
            threads_dropped: 0,
            bin_s: FIRST_BIN_S,
            timeline_truncated: false,
            cells: 0,
            moves_cut: false,
            series_points: 0,
            series_cut: false,
            events: BTreeMap::new(),
            samples: 0,
            switches: 0,
            wakeups: 0,
            migrate_events: 0,
            freq_events: 0,
            cpus_seen: 0,
            freq_seen_max_khz: BTreeMap::new(),
            lines_event: 0,
            lines_detail: 0,
            lines_header: 0,
            lines_blank: 0,
            skipped: SkippedLines::default(),
            on_cpu: HashMap::new(),
            snapshot_frames: 0,
            last_snapshot_t: None,
        }
    }

    /// Converts an absolute timestamp to seconds from the first event, growing the timeline.
    pub fn rel(&mut self, t: f64) -> f64 {
        let t0 = *self.t0.get_or_insert(t);
        let r = (t - t0).max(0.0);
        if r > self.end_s {
            self.end_s = r;
        }
        while r >= self.bin_s * TIMELINE_BINS as f64 {
            self.double_bins();
        }
        r
    }

    fn double_bins(&mut self) {
        self.bin_s *= 2.0;
        let mut total = 0;
        for th in &mut self.threads {
            for cells in [&mut th.sample_cells, &mut th.run_cells] {
                for c in cells.iter_mut() {
                    c.bin /= 2;
                }
                compact(cells);
                total += cells.len();
            }
        }
        self.cells = total;
    }

    pub fn note_cpu(&mut self, cpu: u32) {
        if cpu < MAX_CPU && cpu + 1 > self.cpus_seen {
            self.cpus_seen = cpu + 1;
        }
    }

    /// The thread `tid`, created on first sight (None once [`MAX_THREADS`] are tracked).
    fn thread(&mut self, tid: u32, comm: &str, r: f64) -> Option<usize> {
        if let Some(&i) = self.index.get(&tid) {
            let th = &mut self.threads[i];
            if !comm.is_empty() && th.comm != comm {
                th.comm = comm.to_string();
            }
            th.last_s = th.last_s.max(r);
            return Some(i);
        }
        if self.threads.len() >= MAX_THREADS {
            self.threads_dropped += 1;
            return None;
        }
        self.threads.push(ThreadAgg {
            tid,
            comm: comm.to_string(),
            first_s: r,
            last_s: r,
            ..ThreadAgg::default()
        });
        self.index.insert(tid, self.threads.len() - 1);
        Some(self.threads.len() - 1)
    }

    pub fn count_event(&mut self, name: &str) {
        match self.events.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                // Bounded: a trace names a handful of events; a flood of names is noise.
                if self.events.len() < 256 {
                    self.events.insert(name.to_string(), 1);
                }
            }
        }
    }

    /// One sampled event of thread `tid` at absolute time `t` on `cpu` (None: not recorded).
    pub fn sample(&mut self, tid: u32, pid: Option<u32>, comm: &str, cpu: Option<u32>, t: f64) {
        self.samples += 1;
        if tid == 0 {
            // The idle task (swapper): it is not a thread of anyone's workload.
            if let Some(c) = cpu {
                self.note_cpu(c);
            }
            return;
        }
        let r = self.rel(t);
        let Some(i) = self.thread(tid, comm, r) else {
            return;
        };
        if pid.is_some() {
            self.threads[i].pid = pid;
        }
        match cpu {
            Some(c) if c <= MAX_CPU => {
                self.note_cpu(c);
                let bin = self.bin(r);
                let th = &mut self.threads[i];
                grow(&mut th.samples, c as usize);
                th.samples[c as usize] += 1;
                if let Some(prev) = th.last_cpu {
                    if prev != c {
                        count_pair(&mut th.cpu_moves, (prev, c), &mut self.moves_cut);
                    }
                }
                th.last_cpu = Some(c);
                self.add_cell(i, false, bin, c, 1.0);
            }
            _ => self.threads[i].samples_no_cpu += 1,
        }
    }

    /// `n` samples of `tid` on `cpu` from a summary table (no time: no timeline cells).
    pub fn weighted_samples(&mut self, tid: u32, comm: &str, cpu: Option<u32>, n: u64) {
        // n comes from the report's own counts (a 70-digit `Samples:` header was seen by the
        // fuzzer): the totals saturate rather than wrap.
        self.samples = self.samples.saturating_add(n);
        if tid == 0 {
            return;
        }
        let Some(i) = self.thread(tid, comm, 0.0) else {
            return;
        };
        match cpu {
            Some(c) if c <= MAX_CPU => {
                self.note_cpu(c);
                let th = &mut self.threads[i];
                grow(&mut th.samples, c as usize);
                th.samples[c as usize] = th.samples[c as usize].saturating_add(n);
            }
            _ => {
                let th = &mut self.threads[i];
                th.samples_no_cpu = th.samples_no_cpu.saturating_add(n);
            }
        }
    }

    fn bin(&self, r: f64) -> u16 {
        ((r / self.bin_s) as usize).min(TIMELINE_BINS - 1) as u16
    }

    fn add_cell(&mut self, i: usize, run: bool, bin: u16, cpu: u32, w: f32) {
        let cells = if run {
            &mut self.threads[i].run_cells
        } else {
            &mut self.threads[i].sample_cells
        };
        // Cells arrive almost in time order: the match is among the last few.
        if let Some(c) = cells
            .iter_mut()
            .rev()
            .take(8)
            .find(|c| c.bin == bin && c.cpu == cpu as u16)
        {
            c.weight += w;
            return;
        }
        if self.cells >= MAX_TIMELINE_CELLS {
            self.timeline_truncated = true;
            return;
        }
        cells.push(Cell {
            bin,
            cpu: cpu as u16,
            weight: w,
        });
        self.cells += 1;
    }

    /// Credits thread `i` with running on `cpu` from relative `from` to `to`, across bins.
    fn add_run(&mut self, i: usize, cpu: u32, from: f64, to: f64) {
        self.add_run_weighted(i, cpu, from, to, to - from);
    }

    /// Credits thread `i` with `run` seconds on `cpu`, spread evenly from `from` to `to`.
    fn add_run_weighted(&mut self, i: usize, cpu: u32, from: f64, to: f64, run: f64) {
        if to <= from {
            return;
        }
        let density = run / (to - from);
        {
            let th = &mut self.threads[i];
            grow(&mut th.run_s, cpu as usize);
            th.run_s[cpu as usize] += run;
        }
        let mut a = from;
        while a < to {
            let bin = self.bin(a);
            let bin_end = (bin as f64 + 1.0) * self.bin_s;
            let b = if bin as usize == TIMELINE_BINS - 1 {
                to
            } else {
                bin_end.min(to)
            };
            self.add_cell(i, true, bin, cpu, ((b - a) * density) as f32);
            if b <= a {
                break;
            }
            a = b;
        }
    }

    /// `sched_switch` on `cpu` at absolute `t`: `prev` leaves (still runnable if `preempted`),
    /// `next` starts running.
    #[allow(clippy::too_many_arguments)]
    pub fn switch(
        &mut self,
        cpu: u32,
        t: f64,
        prev_tid: u32,
        prev_comm: &str,
        preempted: bool,
        next_tid: u32,
        next_comm: &str,
    ) {
        if cpu > MAX_CPU {
            return;
        }
        self.switches += 1;
        self.note_cpu(cpu);
        let r = self.rel(t);
        if prev_tid != 0 {
            if let Some(i) = self.thread(prev_tid, prev_comm, r) {
                if let Some((c, since)) = self.threads[i].running_since.take() {
                    self.add_run(i, c, since, r);
                }
                self.threads[i].runnable_since = preempted.then_some(r);
                self.threads[i].last_cpu = Some(cpu);
            }
        }
        // A switch away from a thread we saw start elsewhere closes that interval too.
        if let Some((tid, since)) = self.on_cpu.remove(&cpu) {
            if tid != prev_tid && tid != 0 {
                if let Some(&i) = self.index.get(&tid) {
                    if self.threads[i].running_since == Some((cpu, since)) {
                        self.threads[i].running_since = None;
                        self.add_run(i, cpu, since, r);
                    }
                }
            }
        }
        if next_tid != 0 {
            if let Some(i) = self.thread(next_tid, next_comm, r) {
                let th = &mut self.threads[i];
                if let Some(w) = th.runnable_since.take() {
                    th.runnable_s += (r - w).max(0.0);
                }
                if let Some(prev) = th.last_cpu {
                    if prev != cpu {
                        count_pair(&mut th.cpu_moves, (prev, cpu), &mut self.moves_cut);
                    }
                }
                th.last_cpu = Some(cpu);
                th.running_since = Some((cpu, r));
            }
        }
        self.on_cpu.insert(cpu, (next_tid, r));
    }

    /// One interval `tid` ran on `cpu`, ending at absolute `end` after `run` seconds, having
    /// waited `delay` seconds runnable before it: what `perf sched timehist` prints per row.
    #[allow(clippy::too_many_arguments)]
    pub fn ran(
        &mut self,
        cpu: u32,
        end: f64,
        run: f64,
        delay: f64,
        tid: u32,
        pid: Option<u32>,
        comm: &str,
    ) {
        if cpu > MAX_CPU || tid == 0 || !(run.is_finite() && delay.is_finite()) {
            return;
        }
        self.switches += 1;
        self.note_cpu(cpu);
        let to = self.rel(end);
        let from = (to - run.max(0.0)).max(0.0);
        let Some(i) = self.thread(tid, comm, from) else {
            return;
        };
        let th = &mut self.threads[i];
        th.pid = th.pid.or(pid);
        th.runnable_s += delay.max(0.0);
        th.first_s = th.first_s.min(from);
        th.last_s = th.last_s.max(to);
        if let Some(prev) = th.last_cpu {
            if prev != cpu {
                count_pair(&mut th.cpu_moves, (prev, cpu), &mut self.moves_cut);
            }
        }
        th.last_cpu = Some(cpu);
        self.add_run(i, cpu, from, to);
    }

    /// `sched_wakeup` / `sched_waking` of `tid` at absolute `t`.
    pub fn wakeup(&mut self, tid: u32, comm: &str, t: f64) {
        self.wakeups += 1;
        if tid == 0 {
            return;
        }
        let r = self.rel(t);
        if let Some(i) = self.thread(tid, comm, r) {
            let th = &mut self.threads[i];
            if th.running_since.is_none() && th.runnable_since.is_none() {
                th.runnable_since = Some(r);
            }
        }
    }

    /// `sched_migrate_task` of `tid` from `orig` to `dest` at absolute `t`.
    pub fn migrate(&mut self, tid: u32, comm: &str, orig: u32, dest: u32, t: f64) {
        self.migrate_events += 1;
        if tid == 0 || orig > MAX_CPU || dest > MAX_CPU {
            return;
        }
        self.note_cpu(orig);
        self.note_cpu(dest);
        let r = self.rel(t);
        if let Some(i) = self.thread(tid, comm, r) {
            count_pair(
                &mut self.threads[i].migrations,
                (orig, dest),
                &mut self.moves_cut,
            );
        }
    }

    /// A snapshot of thread `tid` at absolute `t` (`/proc/<pid>/task/<tid>/stat` read at
    /// intervals): it last ran on `cpu` and used `cpu_s` seconds of CPU since absolute `since`.
    /// That time is credited to `cpu`, spread over the interval on the timeline; a change of CPU
    /// since the thread's previous snapshot with CPU time counts as a move (a lower bound: a
    /// snapshot misses moves between samples).
    #[allow(clippy::too_many_arguments)]
    pub fn snapshot(
        &mut self,
        tid: u32,
        pid: Option<u32>,
        comm: &str,
        cpu: u32,
        since: f64,
        t: f64,
        cpu_s: f64,
    ) {
        if cpu > MAX_CPU || !(cpu_s.is_finite() && cpu_s >= 0.0) {
            return;
        }
        self.samples += 1;
        if self.last_snapshot_t != Some(t) {
            self.last_snapshot_t = Some(t);
            self.snapshot_frames += 1;
        }
        self.note_cpu(cpu);
        let from = self.rel(since.min(t));
        let to = self.rel(t);
        let Some(i) = self.thread(tid, comm, to) else {
            return;
        };
        if pid.is_some() {
            self.threads[i].pid = pid;
        }
        let prev = self.threads[i].last_cpu.replace(cpu);
        if cpu_s <= 0.0 {
            return;
        }
        if prev.is_some() {
            self.threads[i].snapshot_pairs += 1;
        }
        if let Some(prev) = prev.filter(|&p| p != cpu) {
            count_pair(
                &mut self.threads[i].cpu_moves,
                (prev, cpu),
                &mut self.moves_cut,
            );
        }
        // Two snapshots at one instant still hold the CPU time: give it a millisecond.
        let from = if from < to { from } else { to - 1e-3 };
        self.add_run_weighted(i, cpu, from, to, cpu_s);
    }

    /// Closes the intervals still open at the end of the trace.
    pub fn finish(&mut self) {
        let end = self.end_s;
        for i in 0..self.threads.len() {
            if let Some((c, since)) = self.threads[i].running_since.take() {
                self.add_run(i, c, since, end);
            }
            if let Some(w) = self.threads[i].runnable_since.take() {
                self.threads[i].runnable_s += (end - w).max(0.0);
            }
        }
        self.on_cpu.clear();
    }

    pub fn skip(&mut self, line: u64, text: &str) {
        self.skipped.add(line, text);
    }

    /// True when running time from the scheduler is known for some thread.
    pub fn has_run_time(&self) -> bool {
        self.threads.iter().any(|t| t.total_run_s() > 0.0)
    }
}

/// Counts one (from, to) CPU pair, within [`MAX_MOVE_PAIRS`] distinct pairs per map.
fn count_pair(map: &mut BTreeMap<(u16, u16), u64>, (from, to): (u32, u32), cut: &mut bool) {
    let key = (from as u16, to as u16);
    if let Some(n) = map.get_mut(&key) {
        *n += 1;
    } else if map.len() < MAX_MOVE_PAIRS {
        map.insert(key, 1);
    } else {
        *cut = true;
    }
}

fn grow<T: Default + Clone>(v: &mut Vec<T>, idx: usize) {
    if v.len() <= idx {
        v.resize(idx + 1, T::default());
    }
}

/// Sorts cells by (bin, cpu) and merges equal ones.
fn compact(cells: &mut Vec<Cell>) {
    cells.sort_by_key(|c| (c.bin, c.cpu));
    let mut out: Vec<Cell> = Vec::with_capacity(cells.len());
    for c in cells.drain(..) {
        match out.last_mut() {
            Some(l) if l.bin == c.bin && l.cpu == c.cpu => l.weight += c.weight,
            _ => out.push(c),
        }
    }
    *cells = out;
}

/// Where a CPU topology fact came from, best first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TopologySource {
    /// Clusters the user set in the page (or with the CLI).
    User,
    /// `cpuinfo_max_freq` per CPU.
    CpuinfoMaxFreq,
    /// `/proc/cpuinfo` CPU part ids.
    CpuPart,
    /// A SoC preset, named by the user or recognized from the inputs.
    Preset,
    /// The highest `cpu_frequency` seen per CPU.
    ObservedFreq,
    /// Nothing tells the clusters apart: one cluster assumed (x86, uniform boards).
    Uniform,
    /// No topology information at all.
    None,
}

impl TopologySource {
    /// The id in reports and catalogue keys (`cpuinfo-max-freq`), as serde writes it.
    pub fn key(self) -> &'static str {
        match self {
            TopologySource::User => "user",
            TopologySource::CpuinfoMaxFreq => "cpuinfo-max-freq",
            TopologySource::CpuPart => "cpu-part",
            TopologySource::Preset => "preset",
            TopologySource::ObservedFreq => "observed-freq",
            TopologySource::Uniform => "uniform",
            TopologySource::None => "none",
        }
    }

    /// The catalogue phrase that names it, as a finding's `@key` parameter.
    pub fn phrase(self) -> String {
        format!("@ui.sched.source.{}", self.key())
    }
}

/// How users and tools name Apple's ARM chips, lowercased: the prose reader keeps a sentence
/// naming one as a device name, and the x86-on-ARM rule reads it as an ARM machine. "Apple M"
/// alone is not one of them: "Apple MacBook Pro" may be an Intel Mac.
pub const APPLE_SILICON_NAMES: &[&str] = &[
    "apple silicon",
    "apple m1",
    "apple m2",
    "apple m3",
    "apple m4",
    "apple m5",
    // Pro / Max / Ultra named without "Apple": "Mac mini M4 Pro".
    "m1 pro",
    "m1 max",
    "m1 ultra",
    "m2 pro",
    "m2 max",
    "m2 ultra",
    "m3 pro",
    "m3 max",
    "m3 ultra",
    "m4 pro",
    "m4 max",
];

/// Topology facts the inputs state, merged over all inputs (one device is assumed).
#[derive(Debug, Clone, Default)]
pub struct TopologyHints {
    /// `cpuinfo_max_freq` per CPU, kHz.
    pub max_khz: BTreeMap<u32, u64>,
    /// `/proc/cpuinfo` "CPU part" per processor.
    pub cpu_part: BTreeMap<u32, u32>,
    /// `/proc/cpuinfo` "CPU implementer" per processor.
    pub cpu_implementer: BTreeMap<u32, u32>,
    /// `Hardware :` of /proc/cpuinfo, `ro.board.platform`, or a SoC name in a header.
    pub hardware: Option<String>,
    /// Every device, SoC or board name the inputs state (`Hardware`, `Model`, `model name`,
    /// `ro.soc.model`, `ro.board.platform`, ...), each once, the first [`MAX_DEVICE_NAMES`]:
    /// `hardware` keeps one, and a Raspberry Pi's `Hardware : BCM2835` hides its `Model`.
    pub device_names: Vec<String>,
    /// `# nrcpus avail`, `#P:8`, `cpus=8`.
    pub nr_cpus: Option<u32>,
    /// `# cpudesc` / `# arch` of a perf header.
    pub cpu_desc: Option<String>,
    pub arch: Option<String>,
    /// The instructions the CPU itself offers: `/proc/cpuinfo` `Features` (Arm) or `flags`
    /// (x86), or lscpu's `Flags`. The build's own flags are a run's `cpu_features`.
    pub cpu_flags: Option<CpuFlags>,
    /// lscpu's `Thread(s) per core` (2 on SMT machines).
    pub threads_per_core: Option<u32>,
    /// Physical cores: lscpu's `Core(s) per socket` × `Socket(s)`.
    pub physical_cores: Option<u32>,
    /// The core each CPU belongs to (`lscpu -e`'s CORE column): CPUs of one core are SMT
    /// siblings.
    pub core_of: BTreeMap<u32, u32>,
    /// Limits on how many CPUs a process may use, in input order (first [`MAX_CPU_LIMITS`]).
    pub cpu_limits: Vec<CpuLimit>,
    /// Current clocks `/proc/cpuinfo` and `lscpu` state (`cpu MHz`, `CPU MHz`, `CPU(s) scaling
    /// MHz` as a share of the maximum), the first [`MAX_CLOCK_LINES`]. Their maximum is
    /// resolved where they are read: it may come later, or from another input.
    pub clock_lines: Vec<ClockLine>,
    /// lscpu's `CPU max MHz`.
    pub stated_max_mhz: Option<f64>,
}

/// Clock lines kept: a many-core `/proc/cpuinfo` states one per CPU.
pub const MAX_CLOCK_LINES: usize = 1024;

/// A current clock as `/proc/cpuinfo` or `lscpu` states it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockLine {
    pub input: InputId,
    pub line: u64,
    pub text: String,
    /// The processor block it sits in (`/proc/cpuinfo`); `None` for lscpu's one figure.
    pub cpu: Option<u32>,
    pub value: ClockValue,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClockValue {
    Mhz(f64),
    /// Percent of the CPU's maximum (lscpu since util-linux 2.38).
    PctOfMax(f64),
}

/// Limits kept: a paste states a handful.
pub const MAX_CPU_LIMITS: usize = 32;

impl TopologyHints {
    /// Records a clock line of `/proc/cpuinfo` or `lscpu` (`ingest::cpu_mhz`).
    pub fn note_clock(
        &mut self,
        input: InputId,
        line: u64,
        text: &str,
        cpu: Option<u32>,
        v: ClockValue,
    ) {
        if self.clock_lines.len() < MAX_CLOCK_LINES {
            self.clock_lines.push(ClockLine {
                input,
                line,
                text: super::clip(text),
                cpu,
                value: v,
            });
        }
    }

    /// The base clock a CPU's marketing name states (`Intel(R) Core(TM) i7-8550U CPU @
    /// 1.80GHz`), MHz: below the turbo maximum, so a cap measured against it is a lower bound.
    pub fn stated_base_mhz(&self) -> Option<f64> {
        self.cpu_desc
            .iter()
            .chain(&self.device_names)
            .chain(&self.hardware)
            .find_map(|name| {
                let (_, rest) = name.rsplit_once('@')?;
                let ghz: f64 = rest.trim().strip_suffix("GHz")?.trim().parse().ok()?;
                (ghz.is_finite() && (0.2..20.0).contains(&ghz)).then_some(ghz * 1000.0)
            })
    }
}

/// Where a limit on usable CPUs was stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CpuLimitKind {
    /// cgroup v2 `cpu.max` or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`: quota / period.
    CgroupQuota,
    /// `nproc`: the CPUs the calling process may run on.
    Nproc,
    /// docker / podman `--cpus`.
    ContainerCpus,
    /// `taskset -c LIST cmd`, `taskset -p` output, `Cpus_allowed_list`.
    Affinity,
    /// lscpu's `CPU(s)` or system_info's hardware threads: every logical CPU.
    Online,
    /// A batch scheduler's allocation: SLURM `--cpus-per-task` / `-c`, `SLURM_CPUS_PER_TASK`.
    Scheduler,
    /// The user's own words: "a SLURM job restricted to 24 cores", "a VM with 6 vCPUs".
    Stated,
}

impl CpuLimitKind {
    pub fn key(self) -> &'static str {
        match self {
            CpuLimitKind::CgroupQuota => "cgroup-quota",
            CpuLimitKind::Nproc => "nproc",
            CpuLimitKind::ContainerCpus => "container-cpus",
            CpuLimitKind::Affinity => "affinity",
            CpuLimitKind::Online => "online",
            CpuLimitKind::Scheduler => "scheduler",
            CpuLimitKind::Stated => "stated",
        }
    }
}

/// One statement of how many CPUs may run the process.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuLimit {
    pub input: InputId,
    pub line: u64,
    pub kind: CpuLimitKind,
    /// CPUs' worth of time or count (a quota may be fractional: 1.5).
    pub cpus: f64,
    /// The line verbatim, clipped.
    pub text: String,
}

impl TopologyHints {
    pub fn add_cpu_limit(&mut self, limit: CpuLimit) {
        if self.cpu_limits.len() < MAX_CPU_LIMITS && limit.cpus.is_finite() && limit.cpus > 0.0 {
            self.cpu_limits.push(limit);
        }
    }
}

/// A CPU's instruction flags as the kernel lists them, kept where all listed processors agree:
/// a kernel built for one core only runs everywhere if every core has its instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuFlags {
    pub input: InputId,
    /// The first line that listed them.
    pub line: u64,
    /// `Features`, `flags` or `Flags`: the field as the input names it.
    pub field: &'static str,
    pub names: std::collections::BTreeSet<String>,
}

/// At most this many flags are kept: x86 lists about 150.
const MAX_CPU_FLAGS: usize = 512;

/// At most this many device names are kept: a cpuinfo dump repeats its few names.
pub const MAX_DEVICE_NAMES: usize = 8;

impl TopologyHints {
    /// Notes a device, SoC or board name as the input states it.
    pub fn note_device_name(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty()
            || self.device_names.len() >= MAX_DEVICE_NAMES
            || self.device_names.iter().any(|n| n == name)
        {
            return;
        }
        self.device_names.push(crate::evidence::clip(name));
    }

    /// Notes a processor's flag list (`fp asimd ... asimddp`) read at `input`:`line`.
    pub fn note_cpu_flags(&mut self, input: InputId, line: u64, field: &'static str, list: &str) {
        let names: std::collections::BTreeSet<String> = list
            .split_whitespace()
            .take(MAX_CPU_FLAGS)
            .map(|f| f.to_ascii_lowercase())
            .collect();
        if names.is_empty() {
            return;
        }
        match &mut self.cpu_flags {
            Some(have) => have.names.retain(|n| names.contains(n)),
            None => {
                self.cpu_flags = Some(CpuFlags {
                    input,
                    line,
                    field,
                    names,
                })
            }
        }
    }
}

/// The scheduling part of the evidence.
#[derive(Debug, Default)]
pub struct SchedEvidence {
    pub traces: Vec<TraceFacts>,
    pub hints: TopologyHints,
    /// A topology the user chose: a preset id or a cluster list (see `topology::parse_spec`).
    pub topology_override: Option<String>,
    /// Threads the user chose as the inference threads: tids or names, comma-separated.
    pub threads_override: Option<String>,
    /// Affinity the inputs state (`taskset -p`, `Cpus_allowed_list`): (input, task) -> (CPUs,
    /// line); the last statement wins.
    pub affinity: BTreeMap<(InputId, u32), (Vec<u32>, u64)>,
    /// A hybrid CPU named beside a slowdown in the background, per input.
    pub background_slowdowns: Vec<BackgroundSlowdown>,
}

/// The text names a hybrid Intel CPU (12th gen Core and later: performance and efficiency
/// cores) and says the run slows when its window is minimized or in the background: Windows
/// then schedules it as background work, on the efficiency cores.
#[derive(Debug, Clone, PartialEq)]
pub struct BackgroundSlowdown {
    pub input: InputId,
    pub cpu_line: u64,
    /// The CPU as written (`12th Gen Intel(R) Core(TM) i5-12450H`).
    pub cpu: String,
    pub line: u64,
    /// The sentence that says it, clipped.
    pub text: String,
}

impl SchedEvidence {
    /// The CPUs task `task` may run on, as `input` states at `line`.
    pub fn set_affinity(&mut self, input: InputId, task: u32, cpus: Vec<u32>, line: u64) {
        let key = (input, task);
        if self.affinity.len() < MAX_THREADS || self.affinity.contains_key(&key) {
            self.affinity.insert(key, (cpus, line));
        }
    }

    /// The trace facts of `input`, created on first use.
    pub fn trace(&mut self, input: InputId) -> &mut TraceFacts {
        let pos = match self.traces.iter().position(|t| t.input == input) {
            Some(p) => p,
            None => {
                self.traces.push(TraceFacts::new(input));
                self.traces.len() - 1
            }
        };
        &mut self.traces[pos]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topology_source_key_is_its_serde_name() {
        for s in [
            TopologySource::User,
            TopologySource::CpuinfoMaxFreq,
            TopologySource::CpuPart,
            TopologySource::Preset,
            TopologySource::ObservedFreq,
            TopologySource::Uniform,
            TopologySource::None,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.key());
        }
    }

    #[test]
    fn timeline_stays_bounded_and_keeps_totals() {
        let mut t = TraceFacts::new(0);
        for i in 0..100_000u32 {
            t.sample(
                42,
                Some(40),
                "worker",
                Some(i % 4),
                100.0 + i as f64 * 0.001,
            );
        }
        let th = &t.threads[0];
        assert_eq!(th.total_samples(), 100_000);
        assert!(th.sample_cells.len() <= TIMELINE_BINS * 4);
        let w: f32 = th.sample_cells.iter().map(|c| c.weight).sum();
        assert!((w - 100_000.0).abs() < 1.0, "{w}");
        assert!(t.bin_s * TIMELINE_BINS as f64 > 99.0);
    }

    #[test]
    fn switches_give_running_and_runnable_time() {
        let mut t = TraceFacts::new(0);
        t.switch(2, 10.0, 0, "swapper/2", false, 7, "w");
        t.switch(2, 10.5, 7, "w", true, 9, "other");
        t.switch(2, 10.8, 9, "other", false, 7, "w");
        t.finish();
        let w = &t.threads[t.index[&7]];
        assert!((w.run_s[2] - 0.5).abs() < 1e-9);
        assert!((w.runnable_s - 0.3).abs() < 1e-9);
    }
}

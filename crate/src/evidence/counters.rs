//! Counter summaries (`perf stat`, `simpleperf stat`): what a run's counters add up to, each
//! value with the line it came from. Totals only: they say how much CPU time, how many switches
//! and moves, how many cycles, never which thread ran where or when.

use super::InputId;

/// Summaries kept per analysis; `simpleperf stat --interval` prints one per interval.
pub const MAX_SUMMARIES: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterTool {
    Perf,
    Simpleperf,
}

impl CounterTool {
    pub fn label(self) -> &'static str {
        match self {
            CounterTool::Perf => "perf stat",
            CounterTool::Simpleperf => "simpleperf stat",
        }
    }
}

/// What the counters were attached to, as the header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CounterScope {
    /// A command perf ran (`for './llama-cli -t 8 ...'`).
    Command(String),
    /// Existing processes or threads (`for process id '1234'`, `simpleperf stat -p`).
    Attached(String),
    /// Every CPU (`for 'system wide'`, `-a`, `for 'CPU(s) 0-3'`): the totals mix every task.
    SystemWide,
    /// The header does not say (CSV, simpleperf without its command line).
    Unknown,
}

/// One counter's total over the summary (rows of hybrid PMUs, CPUs or threads added up).
#[derive(Debug, Clone, PartialEq)]
pub struct CounterValue {
    pub value: f64,
    /// The first row that gave it.
    pub line: u64,
    /// That row verbatim (clipped).
    pub text: String,
    /// Counted in user or kernel mode only (`cycles:u`): not the whole time on CPU.
    pub partial: bool,
    /// The lowest share of time the counter was actually counting (multiplexing, `(83.33%)`).
    pub share_pct: Option<f64>,
    /// How many rows were added into it.
    pub rows: u32,
}

impl CounterValue {
    pub fn new(value: f64, line: u64, text: &str) -> Self {
        CounterValue {
            value,
            line,
            text: super::clip(text),
            partial: false,
            share_pct: None,
            rows: 1,
        }
    }

    pub fn add(&mut self, value: f64, partial: bool, share: Option<f64>) {
        self.value += value;
        self.rows += 1;
        self.partial |= partial;
        self.share_pct = match (self.share_pct, share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// One `Performance counter stats` / `statistics` block (or the rows of a CSV paste).
#[derive(Debug, Clone, PartialEq)]
pub struct CounterSummary {
    pub input: InputId,
    pub tool: CounterTool,
    pub scope: CounterScope,
    /// The header line, or the first row when there is none.
    pub first_line: u64,
    pub last_line: u64,
    /// CPU time of the measured tasks, milliseconds (`task-clock`, else `cpu-clock`).
    pub task_clock_ms: Option<CounterValue>,
    /// "CPUs utilized" / "cpus used" as the tool printed it.
    pub cpus_printed: Option<f64>,
    /// "GHz" as the tool printed it.
    pub ghz_printed: Option<f64>,
    pub context_switches: Option<CounterValue>,
    pub cpu_migrations: Option<CounterValue>,
    pub page_faults: Option<CounterValue>,
    pub cycles: Option<CounterValue>,
    pub instructions: Option<CounterValue>,
    /// Wall time: `seconds time elapsed`, `Total test time`, the last `-I` stamp.
    pub elapsed_s: Option<CounterValue>,
    /// The last `perf stat -I` stamp: the wall time when no elapsed line says it.
    pub last_stamp: Option<CounterValue>,
    pub user_s: Option<f64>,
    pub sys_s: Option<f64>,
    /// Events the tool printed as `<not supported>` / `<not counted>`, with their line.
    pub not_counted: Vec<(String, u64)>,
    /// `-r N`: the figures are averages of N runs.
    pub repeats: Option<u32>,
    /// Interval rows (`perf stat -I`) added up into this summary.
    pub intervals: u32,
    /// Counter rows read.
    pub rows: u32,
}

impl CounterSummary {
    pub fn new(input: InputId, tool: CounterTool, scope: CounterScope, line: u64) -> Self {
        CounterSummary {
            input,
            tool,
            scope,
            first_line: line,
            last_line: line,
            task_clock_ms: None,
            cpus_printed: None,
            ghz_printed: None,
            context_switches: None,
            cpu_migrations: None,
            page_faults: None,
            cycles: None,
            instructions: None,
            elapsed_s: None,
            last_stamp: None,
            user_s: None,
            sys_s: None,
            not_counted: Vec::new(),
            repeats: None,
            intervals: 0,
            rows: 0,
        }
    }

    /// The wall time the output states: the elapsed line, else the last interval stamp.
    pub fn stated_elapsed(&self) -> Option<&CounterValue> {
        [&self.elapsed_s, &self.last_stamp]
            .into_iter()
            .flatten()
            .find(|e| e.value > 0.0)
    }

    /// Wall seconds the counters ran: stated, or task-clock over the printed CPUs utilized.
    pub fn elapsed(&self) -> Option<f64> {
        if let Some(e) = self.stated_elapsed() {
            return Some(e.value);
        }
        let task = self.task_clock_ms.as_ref()?.value / 1000.0;
        let cpus = self.cpus_printed.filter(|c| *c > 0.0)?;
        Some(task / cpus)
    }

    /// CPUs kept busy on average: CPU time over wall time.
    pub fn cpus_used(&self) -> Option<f64> {
        match (&self.task_clock_ms, self.stated_elapsed()) {
            (Some(t), Some(e)) => Some(t.value / 1000.0 / e.value),
            _ => self.cpus_printed,
        }
        .filter(|c| c.is_finite() && *c >= 0.0)
    }

    /// Average clock while the tasks ran: cycles per second of CPU time, in GHz.
    pub fn ghz(&self) -> Option<f64> {
        match (&self.cycles, &self.task_clock_ms) {
            (Some(c), Some(t)) if t.value > 0.0 => Some(c.value / (t.value * 1e6)),
            _ => self.ghz_printed,
        }
        .filter(|g| g.is_finite() && *g > 0.0)
    }

    /// Instructions per cycle.
    pub fn ipc(&self) -> Option<f64> {
        match (&self.instructions, &self.cycles) {
            (Some(i), Some(c)) if c.value > 0.0 => Some(i.value / c.value),
            _ => None,
        }
    }

    /// A counter per second of wall time.
    pub fn per_second(&self, v: &CounterValue) -> Option<f64> {
        self.elapsed().filter(|e| *e > 0.0).map(|e| v.value / e)
    }

    /// A counter per second of CPU time (how `perf stat` prints its `/sec` rates).
    pub fn per_cpu_second(&self, v: &CounterValue) -> Option<f64> {
        let t = self.task_clock_ms.as_ref()?.value / 1000.0;
        (t > 0.0).then(|| v.value / t)
    }

    /// Whether anything worth reporting was read.
    pub fn has_figures(&self) -> bool {
        self.rows > 0 || self.elapsed_s.is_some()
    }
}

#[derive(Debug, Clone, Default)]
pub struct CounterEvidence {
    pub summaries: Vec<CounterSummary>,
    /// Summaries beyond [`MAX_SUMMARIES`], counted only.
    pub dropped: u64,
}

impl CounterEvidence {
    /// The summaries of one input, in order.
    pub fn of(&self, input: InputId) -> impl Iterator<Item = &CounterSummary> {
        self.summaries.iter().filter(move |s| s.input == input)
    }
}

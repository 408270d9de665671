//! Counter summaries (`perf stat`, `simpleperf stat`): totals of a run, so they say how much,
//! never where or when.
//!
//! - `counters.summary` (info): the figures themselves, always, so the input is never silent:
//!   CPUs used (CPU time over wall time), context switches and CPU migrations per second, the
//!   average clock (cycles per second of CPU time) and instructions per cycle.
//! - `threads.waiting`: a log in the same analysis asked for N threads, the counters saw far
//!   fewer CPUs busy. Memory stalls count as time on CPU, so the missing time is time the
//!   threads did not run: waiting for a CPU, sleeping, or outside the run.
//! - `sched.migrations`, from the counter: many moves per second of CPU time. The counter adds
//!   up every move, within a cluster or across, so it says "often", not "across clusters".
//! - `counters.low-clock`: the average clock far below the fastest core's maximum from a
//!   topology source in the same analysis: capped, or spent on slower cores.

use super::run_facts::{fmt, framework_label, run_ref};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::counters::{CounterScope, CounterSummary, CounterValue};
use crate::evidence::{backend, Evidence, Run};
use crate::views::topology::Cluster;
use crate::views::Views;

pub const IDS: &[&str] = &["counters.summary", "threads.waiting", "counters.low-clock"];

/// CPUs used under this share of the threads asked for is waiting.
pub const WAITING_SHARE: f64 = 0.6;
/// Moves per second of CPU time, and in total, that make migrations frequent. A compute thread
/// that keeps its core moves a few times a second at most; ten a second of its running time
/// means one every 100 ms.
pub const MIN_MIGRATIONS_PER_CPU_S: f64 = 10.0;
pub const MIN_MIGRATIONS: f64 = 200.0;
/// The average clock under this share of the fastest core's maximum is low.
pub const LOW_CLOCK_SHARE: f64 = 0.6;

/// The summaries judged: the last one with figures of each input (`simpleperf --interval`
/// repeats cumulative blocks; a `-I` summary is already added up), with how many it had.
fn judged(ev: &Evidence) -> Vec<(&CounterSummary, usize)> {
    let mut out = Vec::new();
    for (input, _) in ev.inputs.iter().enumerate() {
        let all: Vec<&CounterSummary> = ev.counters.of(input).collect();
        if let Some(last) = all.last() {
            out.push((*last, all.len()));
        }
    }
    out
}

fn line_ref(s: &CounterSummary, v: Option<&CounterValue>, quote: Quote) -> EvidenceRef {
    EvidenceRef {
        input: s.input,
        lines: Some(v.map_or((s.first_line, s.last_line), |v| (v.line, v.line))),
        time_s: None,
        quote: Some(quote),
    }
}

fn or_unknown(v: Option<String>) -> String {
    v.unwrap_or_else(|| "@counters.unknown".to_string())
}

fn scope_param(s: &CounterSummary) -> String {
    match &s.scope {
        // The program, not its whole command line (prompts and paths make it unreadable).
        CounterScope::Command(c) => {
            let mut words = c.split_whitespace();
            let program = words.next().unwrap_or("");
            let program = program.rsplit('/').next().unwrap_or(program);
            let more = if words.next().is_some() { " …" } else { "" };
            format!("'{program}{more}'")
        }
        CounterScope::Attached(a) => a.clone(),
        CounterScope::SystemWide => "@counters.scope.system".into(),
        CounterScope::Unknown => "@counters.scope.unknown".into(),
    }
}

/// The fastest and slowest maximum clocks the topology knows, in GHz.
fn max_clocks(topo: &crate::views::topology::Topology) -> Option<(f64, Option<f64>)> {
    let maxes: Vec<(Cluster, f64)> = topo
        .cpus
        .iter()
        .filter_map(|c| c.max_mhz.map(|m| (c.cluster, m / 1000.0)))
        .filter(|(_, g)| g.is_finite() && *g > 0.0)
        .collect();
    let fastest = maxes.iter().map(|m| m.1).fold(0.0, f64::max);
    if fastest <= 0.0 {
        return None;
    }
    let little = maxes
        .iter()
        .filter(|m| m.0 == Cluster::Little)
        .map(|m| m.1)
        .fold(None, |a: Option<f64>, g| Some(a.map_or(g, |a| a.max(g))))
        .filter(|l| *l < fastest);
    Some((fastest, little))
}

fn ghz(v: f64) -> String {
    format!("{v:.2} GHz")
}

/// The run whose thread count the counters are judged against: one from the same input (the
/// log the summary followed), else the only thread count the analysis' runs agree on.
fn asked_threads<'a>(ev: &'a Evidence, s: &CounterSummary) -> Option<(&'a Run, u32)> {
    let name = &ev.inputs.get(s.input)?.name;
    if let Some(r) = ev
        .runs
        .iter()
        .rev()
        .find(|r| &r.input == name && r.n_threads.is_some())
    {
        return Some((r, r.n_threads?));
    }
    let with: Vec<&Run> = ev.runs.iter().filter(|r| r.n_threads.is_some()).collect();
    let first = with.first()?;
    with.iter()
        .all(|r| r.n_threads == first.n_threads)
        .then(|| (*first, first.n_threads.unwrap_or(0)))
}

/// Threads of a run that offloads to an accelerator sleep while it works: no waiting to judge.
fn offloads(run: &Run) -> bool {
    let accelerator = |s: &str| backend::place_of(s) == Some(backend::Place::Accelerator);
    run.backend.as_deref().is_some_and(accelerator) || run.devices.iter().any(|d| accelerator(d))
}

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    let clocks = max_clocks(&views.topology);
    for (s, blocks) in judged(ev) {
        out.push(summary(s, blocks, clocks.as_ref()));
        let system = s.scope == CounterScope::SystemWide;
        if let (Some(cpus), Some((run, n)), false) = (s.cpus_used(), asked_threads(ev, s), system) {
            if n >= 2 && cpus < WAITING_SHARE * n as f64 && !offloads(run) {
                out.push(waiting(ev, s, run, n, cpus));
            }
        }
        // A system-wide count moves every task, not the inference threads.
        if let Some(f) = migrations(s).filter(|_| !system) {
            out.push(f);
        }
        if let (Some(g), Some((fastest, little)), false) = (s.ghz(), clocks.as_ref(), system) {
            let partial = s.cycles.as_ref().is_some_and(|c| c.partial);
            if !partial && g < LOW_CLOCK_SHARE * fastest {
                out.push(low_clock(s, g, *fastest, *little));
            }
        }
    }
    out
}

fn summary(s: &CounterSummary, blocks: usize, clocks: Option<&(f64, Option<f64>)>) -> Finding {
    let rate = |v: &Option<CounterValue>| v.as_ref().and_then(|v| s.per_second(v)).map(fmt);
    let total = |v: &Option<CounterValue>| v.as_ref().map(|v| format!("{:.0}", v.value));
    // Each figure is a phrase with its numbers, or one that says it was not counted.
    let part = |known: bool, rate: bool, [with_rate, total, none]: [&str; 3]| {
        match (known, rate) {
            (true, true) => with_rate,
            (true, false) => total,
            _ => none,
        }
        .to_string()
    };
    let switch_rate = rate(&s.context_switches);
    let migration_rate = rate(&s.cpu_migrations);
    let params = vec![
        ("tool", s.tool.label().to_string()),
        ("scope", scope_param(s)),
        ("cpus", or_unknown(s.cpus_used().map(fmt))),
        ("elapsed", or_unknown(s.elapsed().map(fmt))),
        (
            "task",
            or_unknown(s.task_clock_ms.as_ref().map(|t| fmt(t.value / 1000.0))),
        ),
        (
            "cpus_part",
            if s.cpus_used().is_some() && s.task_clock_ms.is_some() && s.elapsed().is_some() {
                "@counters.fig.cpus".to_string()
            } else {
                "@counters.fig.cpus-none".to_string()
            },
        ),
        ("switches", or_unknown(total(&s.context_switches))),
        ("switch_rate", or_unknown(switch_rate.clone())),
        (
            "switches_part",
            part(
                s.context_switches.is_some(),
                switch_rate.is_some(),
                [
                    "@counters.fig.switches",
                    "@counters.fig.switches-total",
                    "@counters.fig.switches-none",
                ],
            ),
        ),
        ("migrations", or_unknown(total(&s.cpu_migrations))),
        ("migration_rate", or_unknown(migration_rate.clone())),
        (
            "migrations_part",
            part(
                s.cpu_migrations.is_some(),
                migration_rate.is_some(),
                [
                    "@counters.fig.migrations",
                    "@counters.fig.migrations-total",
                    "@counters.fig.migrations-none",
                ],
            ),
        ),
        ("ghz", or_unknown(s.ghz().map(ghz))),
        ("ipc", or_unknown(s.ipc().map(fmt))),
        (
            "max_clock",
            clocks.map_or("@counters.max-unknown".to_string(), |c| ghz(c.0)),
        ),
    ];
    let quote = Quote::phrase(
        "quote.counters.figures",
        params
            .iter()
            .filter(|(k, _)| {
                matches!(
                    *k,
                    "cpus" | "elapsed" | "switch_rate" | "migration_rate" | "ghz" | "ipc"
                )
            })
            .cloned()
            .collect(),
    );
    let mut evidence = vec![line_ref(s, None, quote)];
    evidence.extend(notes(s, blocks));
    Finding::new(IDS[0], Severity::Info, params, evidence)
}

/// What qualifies the figures, each at its line: events not counted, multiplexed or
/// mode-restricted counts, averages, interval sums, repeated blocks, a system-wide scope.
fn notes(s: &CounterSummary, blocks: usize) -> Vec<EvidenceRef> {
    let mut out = Vec::new();
    let at = |line: u64, key: &'static str, params: Vec<(&'static str, String)>| EvidenceRef {
        input: s.input,
        lines: Some((line, line)),
        time_s: None,
        quote: Some(Quote::phrase(key, params)),
    };
    if let Some((_, line)) = s.not_counted.first() {
        let events: Vec<&str> = s.not_counted.iter().map(|(e, _)| e.as_str()).collect();
        out.push(at(
            *line,
            "quote.counters.not-counted",
            vec![("events", events.join(", "))],
        ));
    }
    let hw = [&s.cycles, &s.instructions];
    if let Some(v) = hw
        .iter()
        .filter_map(|v| v.as_ref())
        .filter(|v| v.share_pct.is_some_and(|p| p < 99.5))
        .min_by(|a, b| {
            a.share_pct
                .partial_cmp(&b.share_pct)
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    {
        let share = format!("{:.0}%", v.share_pct.unwrap_or(100.0));
        out.push(at(
            v.line,
            "quote.counters.multiplexed",
            vec![("share", share)],
        ));
    }
    if let Some(v) = hw.iter().filter_map(|v| v.as_ref()).find(|v| v.partial) {
        let event = v
            .text
            .split_whitespace()
            .rev()
            .find(|w| w.contains(':') || w.contains('/'));
        out.push(at(
            v.line,
            "quote.counters.partial",
            vec![("event", event.unwrap_or("cycles").to_string())],
        ));
    }
    if let Some(r) = s.repeats {
        out.push(at(
            s.first_line,
            "quote.counters.repeats",
            vec![("repeats", r.to_string())],
        ));
    }
    if s.intervals > 0 {
        out.push(at(
            s.first_line,
            "quote.counters.intervals",
            vec![("intervals", s.intervals.to_string())],
        ));
    }
    if blocks > 1 {
        out.push(at(
            s.first_line,
            "quote.counters.blocks",
            vec![("blocks", blocks.to_string())],
        ));
    }
    if s.scope == CounterScope::SystemWide {
        out.push(at(s.first_line, "quote.counters.system", Vec::new()));
    }
    out
}

fn waiting(ev: &Evidence, s: &CounterSummary, run: &Run, n: u32, cpus: f64) -> Finding {
    let share = format!("{:.0}%", cpus / n as f64 * 100.0);
    let elapsed = or_unknown(s.elapsed().map(fmt));
    Finding::new(
        IDS[1],
        Severity::Warning,
        vec![
            ("framework", framework_label(run)),
            ("n_threads", n.to_string()),
            ("cpus", fmt(cpus)),
            ("share", share.clone()),
            ("elapsed", elapsed.clone()),
            ("tool", s.tool.label().to_string()),
        ],
        vec![
            line_ref(
                s,
                s.task_clock_ms.as_ref(),
                Quote::phrase(
                    "quote.counters.cpus-used",
                    vec![
                        ("cpus", fmt(cpus)),
                        ("elapsed", elapsed),
                        ("tool", s.tool.label().to_string()),
                    ],
                ),
            ),
            run_ref(
                ev,
                run,
                Quote::phrase("quote.counters.threads-asked", vec![("n", n.to_string())]),
            ),
        ],
    )
}

fn migrations(s: &CounterSummary) -> Option<Finding> {
    let m = s.cpu_migrations.as_ref()?;
    let per_cpu_s = s.per_cpu_second(m)?;
    if m.value < MIN_MIGRATIONS || per_cpu_s < MIN_MIGRATIONS_PER_CPU_S {
        return None;
    }
    let rate = or_unknown(s.per_second(m).map(fmt));
    let duration = or_unknown(s.elapsed().map(fmt));
    let params = vec![
        ("count", format!("{:.0}", m.value)),
        ("rate", rate.clone()),
        ("cpu_rate", fmt(per_cpu_s)),
        ("duration", duration.clone()),
        ("tool", s.tool.label().to_string()),
        ("scope", scope_param(s)),
    ];
    Some(Finding {
        variant: Some("counters"),
        id: super::sched_migrations::IDS[0],
        severity: Severity::Warning,
        params,
        count: Some(m.value as u64),
        evidence: vec![line_ref(
            s,
            Some(m),
            Quote::phrase(
                "quote.counters.migrations",
                vec![
                    ("count", format!("{:.0}", m.value)),
                    ("duration", duration),
                    ("rate", rate),
                    ("cpu_rate", fmt(per_cpu_s)),
                ],
            ),
        )],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

fn low_clock(s: &CounterSummary, g: f64, fastest: f64, little: Option<f64>) -> Finding {
    let share = format!("{:.0}%", g / fastest * 100.0);
    let little_note = match little {
        Some(l) if g <= l * 1.05 => "@counters.clock.at-little",
        Some(_) => "@counters.clock.above-little",
        None => "@counters.clock.uniform",
    };
    Finding::new(
        IDS[2],
        Severity::Warning,
        vec![
            ("ghz", ghz(g)),
            ("max_clock", ghz(fastest)),
            ("share", share.clone()),
            ("little_clock", little.map_or(String::new(), ghz)),
            ("little_note", little_note.to_string()),
            ("tool", s.tool.label().to_string()),
        ],
        vec![line_ref(
            s,
            s.cycles.as_ref(),
            Quote::phrase(
                "quote.counters.clock",
                vec![
                    ("ghz", ghz(g)),
                    ("max_clock", ghz(fastest)),
                    ("share", share),
                ],
            ),
        )],
    )
}

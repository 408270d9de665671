//! Diagnose: independent rules, each `fn(&Evidence) -> Vec<Finding>`.
//!
//! Findings here are language-neutral: an id, a severity, the measured numbers as named
//! parameters, and the evidence. The report stage turns the id and parameters into text from the
//! bilingual catalogue.

mod bandwidth;
mod bandwidth_physics;
pub mod compare;
mod compare_builds;
pub mod compare_groups;
mod compare_stages;
mod counters;
mod cpu;
mod cpu_emulated;
mod cpu_fp16;
mod fallback;
mod kernel_events;
mod load;
mod measure;
mod measure_reference;
mod memory;
mod memory_fit;
mod offload;
mod offload_cpu_time;
mod offload_gpu_idle;
mod offload_gpu_mode;
mod offload_gpu_slower;
mod offload_graph_splits;
mod offload_partitioned;
mod power_cpu_clock;
mod power_gpu_state;
mod power_jetson_mode;
mod power_saver_mode;
mod power_sweeps;
mod power_under_voltage;
mod quant;
pub mod run_facts;
mod run_failed;
mod sched_affinity_subset;
mod sched_little_cores;
mod sched_migrations;
mod sched_oversubscribed;
mod sustained;
pub mod telemetry;
mod thermal_freq_capped;
mod thermal_kernel_throttle;
mod thermal_rotating_throttle;
mod threads;
mod threads_machine;
mod usb_errors;
pub mod verdict;

use crate::evidence::{Evidence, InputId};
use crate::views::Views;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    Warning,
    Info,
}

impl Severity {
    pub fn key(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A pointer into an input: a line range or a time range, and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceRef {
    pub input: InputId,
    pub lines: Option<(u64, u64)>,
    pub time_s: Option<(f64, f64)>,
    pub quote: Option<Quote>,
}

impl EvidenceRef {
    /// One line of an input, quoted as the input has it: what a status line or an announcement
    /// gives.
    pub fn at_line(input: InputId, line: u64, text: &str) -> Self {
        Self::quoted_at(input, line, Quote::Input(text.to_string()))
    }

    /// One line of an input, with what it says in the catalogue's words.
    pub fn quoted_at(input: InputId, line: u64, quote: Quote) -> Self {
        EvidenceRef {
            input,
            lines: Some((line, line)),
            time_s: None,
            quote: Some(quote),
        }
    }
}

impl Finding {
    /// A finding that cites its evidence without listing every line it was seen on.
    pub fn new(
        id: &'static str,
        severity: Severity,
        params: Vec<(&'static str, String)>,
        evidence: Vec<EvidenceRef>,
    ) -> Self {
        Finding {
            id,
            severity,
            variant: None,
            params,
            count: None,
            evidence,
            lines: Vec::new(),
            lines_truncated: false,
        }
    }

    /// The same finding in another wording (see `variant`).
    pub fn with_variant(mut self, variant: Option<&'static str>) -> Self {
        self.variant = variant;
        self
    }

    /// A parameter's rendered value, by name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The wording this finding takes, when not the rule's first (`likely`, `cpu-lacks`, ...).
    pub fn variant(&self) -> Option<&'static str> {
        self.variant
    }

    /// The catalogue key of one of its texts (`title`, `summary`, ...): a finding read from
    /// another kind of evidence, or on weaker grounds, words it as `<key>-<variant>` where the
    /// catalogue has that text.
    pub fn text_key(&self, part: &str) -> String {
        let key = format!("finding.{}.{part}", self.id);
        match self.variant {
            Some(v) if crate::catalogue::entries().contains_key(&format!("{key}-{v}")) => {
                format!("{key}-{v}")
            }
            _ => key,
        }
    }
}

/// What a piece of evidence says: the input's own words, or tokscope's summary of what it
/// measured there. The summary is a catalogue phrase, so a Chinese report reads it in Chinese.
#[derive(Debug, Clone, PartialEq)]
pub enum Quote {
    /// Text as the input has it (a log line, a setting it echoes); never translated.
    Input(String),
    Phrase(Phrase),
}

impl Quote {
    pub fn phrase(key: &'static str, params: Vec<(&'static str, String)>) -> Quote {
        Quote::Phrase(Phrase { key, params })
    }
}

/// A catalogue text and its parameters, rendered by the report in its language.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub key: &'static str,
    pub params: Vec<(&'static str, String)>,
}

impl Phrase {
    pub fn new(key: &'static str, params: Vec<(&'static str, String)>) -> Self {
        Phrase { key, params }
    }
}

/// Every line number at which a finding was seen, per input.
#[derive(Debug, Clone, PartialEq)]
pub struct InputLines {
    pub input: InputId,
    pub lines: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Stable id, also the catalogue key: `finding.<id>.title` and so on.
    pub id: &'static str,
    pub severity: Severity,
    /// The wording, when not the rule's first: the texts are `finding.<id>.<part>-<variant>`
    /// where the catalogue has them (`likely`, `cpu-lacks`, `counters`, ...).
    pub variant: Option<&'static str>,
    /// Values the catalogue texts refer to as `{name}`.
    pub params: Vec<(&'static str, String)>,
    pub count: Option<u64>,
    pub evidence: Vec<EvidenceRef>,
    pub lines: Vec<InputLines>,
    /// True when `lines` stops short of `count`.
    pub lines_truncated: bool,
}

/// A rule: the finding ids it may emit, and how it reads the evidence. The registry below is
/// the one list of rules; `diagnose` holds each rule to its ids, and the catalogue test holds
/// the catalogue to every id.
pub struct Rule {
    pub ids: &'static [&'static str],
    pub also: &'static [&'static str],
    /// Parameters given for the programs that read the report's JSON, which no text of the
    /// rule shows (every other parameter is a text's `{name}`; the render test holds them to it).
    pub data: &'static [&'static str],
    pub run: fn(&Evidence, &Views) -> Vec<Finding>,
}

/// Every rule, in the order their findings are listed when severities tie.
const RULES: &[Rule] = &[
    rule(run_failed::IDS, run_failed::rule),
    rule(fallback::IDS, fallback::rule),
    rule(quant::IDS, quant::rule),
    rule(memory::IDS, memory::rule),
    rule(memory_fit::IDS, memory_fit::rule),
    rule(offload::IDS, offload::rule),
    rule(offload_partitioned::IDS, offload_partitioned::rule),
    rule(offload_cpu_time::IDS, offload_cpu_time::rule),
    rule(offload_graph_splits::IDS, offload_graph_splits::rule),
    rule(cpu_emulated::IDS, cpu_emulated::rule),
    rule(cpu_fp16::IDS, cpu_fp16::rule),
    Rule {
        data: &["hw_flag"],
        ..rule(cpu::IDS, cpu::rule)
    },
    rule(compare::IDS, compare::rule),
    rule(threads::IDS, threads::rule),
    rule(threads_machine::IDS, threads_machine::rule),
    rule(power_sweeps::IDS, power_sweeps::rule),
    rule(power_jetson_mode::IDS, power_jetson_mode::rule),
    rule(measure::IDS, measure::rule),
    rule(load::IDS, load::rule),
    rule(power_under_voltage::IDS, power_under_voltage::rule),
    rule(usb_errors::IDS, usb_errors::rule),
    rule(thermal_kernel_throttle::IDS, thermal_kernel_throttle::rule),
    rule(bandwidth::IDS, bandwidth::rule),
    // Where the figures come from (the table's entry and its citation), for programs; the
    // texts show the device and its peak.
    Rule {
        data: &["named", "memory", "source"],
        ..rule(bandwidth_physics::IDS, bandwidth_physics::rule)
    },
    rule(sustained::IDS, sustained::rule),
    // The cap's full measurement: shown in part by each wording, read whole by programs.
    Rule {
        data: &[
            "flag",
            "lag_s",
            "limit_c",
            "max_c",
            "rise_c",
            "sustained_pct",
            "time_to_cap_s",
        ],
        ..rule(telemetry::thermal_wall::IDS, telemetry::thermal_wall::rule)
    },
    rule(telemetry::caps::IDS, telemetry::caps::rule),
    rule(telemetry::charging::IDS, telemetry::charging::rule),
    Rule {
        data: &["unit"],
        ..rule(telemetry::stall::IDS, telemetry::stall::rule)
    },
    rule(telemetry::decay::IDS, telemetry::decay::rule),
    rule(telemetry::ambient::IDS, telemetry::ambient::rule),
    rule(sched_little_cores::IDS, sched_little_cores::rule),
    rule(sched_affinity_subset::IDS, sched_affinity_subset::rule),
    rule(sched_oversubscribed::IDS, sched_oversubscribed::rule),
    rule(sched_migrations::IDS, sched_migrations::rule),
    // The counter summary locates no migration, but counts them: the same finding, worded
    // for a count.
    Rule {
        ids: counters::IDS,
        also: sched_migrations::IDS,
        data: &[],
        run: counters::rule,
    },
    rule(
        thermal_rotating_throttle::IDS,
        thermal_rotating_throttle::rule,
    ),
    rule(thermal_freq_capped::IDS, thermal_freq_capped::rule),
    rule(power_cpu_clock::IDS, power_cpu_clock::rule),
    rule(power_gpu_state::IDS, power_gpu_state::rule),
    rule(offload_gpu_idle::IDS, offload_gpu_idle::rule),
    rule(offload_gpu_slower::IDS, offload_gpu_slower::rule),
    rule(compare_stages::IDS, compare_stages::rule),
    rule(compare_builds::IDS, compare_builds::rule),
    rule(measure_reference::IDS, measure_reference::rule),
    rule(offload_gpu_mode::IDS, offload_gpu_mode::rule),
    rule(power_saver_mode::IDS, power_saver_mode::rule),
];

const fn rule(ids: &'static [&'static str], run: fn(&Evidence, &Views) -> Vec<Finding>) -> Rule {
    Rule {
        ids,
        also: &[],
        data: &[],
        run,
    }
}

/// A finding that answers another: where `by` covers an overlapping time, the guess `id` worded
/// as `variant` says nothing more, and is dropped.
struct Answers {
    by: &'static str,
    id: &'static str,
    variant: &'static str,
}

/// A cool clock cap is only "likely" a power wall, with a power-save mode as the alternative; a
/// supply that sagged over the same time is the answer, and that finding gives the cap's figures.
const ANSWERS: &[Answers] = &[Answers {
    by: "power.under-voltage",
    id: "power.wall",
    variant: "likely",
}];

/// Runs every rule; findings come most severe first.
pub fn diagnose(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let mut findings = Vec::new();
    for rule in RULES {
        let found = (rule.run)(ev, views);
        debug_assert!(
            found
                .iter()
                .all(|f| rule.ids.contains(&f.id) || rule.also.contains(&f.id)),
            "a rule emitted an id it does not declare: {:?}",
            found.iter().map(|f| f.id).collect::<Vec<_>>()
        );
        findings.extend(found);
    }
    drop_answered(&mut findings);
    findings.sort_by_key(|f| f.severity);
    findings
}

/// The parameters of finding `id` that are for programs, not texts ([`Rule::data`]).
pub fn data_params(id: &str) -> Vec<&'static str> {
    RULES
        .iter()
        .filter(|r| r.ids.contains(&id) || r.also.contains(&id))
        .flat_map(|r| r.data.iter().copied())
        .collect()
}

/// Runs one rule on `ev` with its own views, as `diagnose` would.
#[cfg(test)]
pub fn apply(rule: fn(&Evidence, &Views) -> Vec<Finding>, ev: &Evidence) -> Vec<Finding> {
    rule(ev, &Views::of(ev))
}

/// Removes the guesses that another finding answers ([`ANSWERS`]).
fn drop_answered(findings: &mut Vec<Finding>) {
    let times =
        |f: &Finding| -> Vec<(f64, f64)> { f.evidence.iter().filter_map(|e| e.time_s).collect() };
    for a in ANSWERS {
        let by: Vec<(f64, f64)> = findings
            .iter()
            .filter(|f| f.id == a.by)
            .flat_map(times)
            .collect();
        findings.retain(|f| {
            let guess = f.id == a.id && f.variant() == Some(a.variant);
            !(guess
                && times(f)
                    .iter()
                    .any(|&(a0, a1)| by.iter().any(|&(b0, b1)| a0 <= b1 && b0 <= a1)))
        });
    }
}

/// Every finding id a rule can emit, each once, so the catalogue can be checked for completeness.
#[cfg(test)]
pub fn finding_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = RULES.iter().flat_map(|r| r.ids.iter().copied()).collect();
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(*id));
    ids
}

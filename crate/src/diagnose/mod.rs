//! Diagnose: independent rules, each `fn(&Evidence) -> Vec<Finding>`.
//!
//! Findings here are language-neutral: an id, a severity, the measured numbers as named
//! parameters, and the evidence. The report stage turns the id and parameters into text from the
//! bilingual catalogue.

mod bandwidth;
pub mod compare;
pub mod compare_groups;
mod counters;
mod cpu;
mod fallback;
pub mod freq_view;
mod kernel_events;
mod load;
mod measure;
mod memory;
mod offload;
mod power_under_voltage;
mod quant;
pub mod run_facts;
mod run_failed;
mod sched_affinity_subset;
mod sched_little_cores;
mod sched_migrations;
mod sched_oversubscribed;
pub mod sched_view;
mod sustained;
pub mod telemetry;
mod thermal_freq_capped;
mod thermal_kernel_throttle;
mod thermal_rotating_throttle;
mod threads;
mod usb_errors;
pub mod verdict;

use crate::evidence::{Evidence, InputId};
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

impl Finding {
    /// The catalogue key of one of its texts (`title`, `summary`, ...): a finding read from
    /// another kind of evidence, or on weaker grounds, words it as `<key>-<variant>` where the
    /// catalogue has that text.
    pub fn text_key(&self, part: &str) -> String {
        let key = format!("finding.{}.{part}", self.id);
        match self.params.iter().find(|(k, _)| *k == "variant") {
            Some((_, v)) if crate::catalogue::entries().contains_key(&format!("{key}-{v}")) => {
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
    /// Values the catalogue texts refer to as `{name}`.
    pub params: Vec<(&'static str, String)>,
    pub count: Option<u64>,
    pub evidence: Vec<EvidenceRef>,
    pub lines: Vec<InputLines>,
    /// True when `lines` stops short of `count`.
    pub lines_truncated: bool,
}

type Rule = fn(&Evidence) -> Vec<Finding>;

/// Every rule, in the order their findings are listed when severities tie.
const RULES: &[Rule] = &[
    run_failed::rule,
    fallback::rule,
    quant::rule,
    memory::rule,
    offload::rule,
    cpu::rule,
    compare::rule,
    threads::rule,
    measure::rule,
    load::rule,
    power_under_voltage::rule,
    usb_errors::rule,
    thermal_kernel_throttle::rule,
    bandwidth::rule,
    sustained::rule,
    telemetry::thermal_wall::rule,
    telemetry::caps::rule,
    telemetry::charging::rule,
    telemetry::stall::rule,
    telemetry::decay::rule,
    telemetry::ambient::rule,
    sched_little_cores::rule,
    sched_affinity_subset::rule,
    sched_oversubscribed::rule,
    sched_migrations::rule,
    counters::rule,
    thermal_rotating_throttle::rule,
    thermal_freq_capped::rule,
];

/// Runs every rule; findings come most severe first.
pub fn diagnose(ev: &Evidence) -> Vec<Finding> {
    let mut findings: Vec<Finding> = RULES.iter().flat_map(|rule| rule(ev)).collect();
    drop_explained(&mut findings);
    findings.sort_by_key(|f| f.severity);
    findings
}

/// Removes a guess that a stronger finding answers. A cool clock cap is only "likely" a power
/// wall, with a power-save mode as the alternative; a supply that sagged over the same time is
/// the answer, and that finding already gives the cap's figures.
fn drop_explained(findings: &mut Vec<Finding>) {
    let times =
        |f: &Finding| -> Vec<(f64, f64)> { f.evidence.iter().filter_map(|e| e.time_s).collect() };
    let supply: Vec<(f64, f64)> = findings
        .iter()
        .filter(|f| f.id == "power.under-voltage")
        .flat_map(times)
        .collect();
    findings.retain(|f| {
        let likely = f.id == "power.wall"
            && f.params
                .iter()
                .any(|(k, v)| *k == "variant" && v == "likely");
        !(likely
            && times(f)
                .iter()
                .any(|&(a0, a1)| supply.iter().any(|&(b0, b1)| a0 <= b1 && b0 <= a1)))
    });
}

/// Every finding id a rule can emit, so the catalogue can be checked for completeness.
pub fn finding_ids() -> Vec<&'static str> {
    [
        run_failed::IDS,
        fallback::IDS,
        quant::IDS,
        memory::IDS,
        offload::IDS,
        cpu::IDS,
        compare::IDS,
        threads::IDS,
        measure::IDS,
        load::IDS,
        power_under_voltage::IDS,
        usb_errors::IDS,
        thermal_kernel_throttle::IDS,
        bandwidth::IDS,
        sustained::IDS,
        telemetry::thermal_wall::IDS,
        telemetry::caps::IDS,
        telemetry::charging::IDS,
        telemetry::stall::IDS,
        telemetry::decay::IDS,
        telemetry::ambient::IDS,
        sched_little_cores::IDS,
        sched_affinity_subset::IDS,
        sched_oversubscribed::IDS,
        sched_migrations::IDS,
        counters::IDS,
        thermal_rotating_throttle::IDS,
        thermal_freq_capped::IDS,
    ]
    .concat()
}

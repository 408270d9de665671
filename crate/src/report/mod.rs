//! Report: the one serde value that the page, the CLI, the JSON export and (later) the share
//! link all read. Its schema is documented in `docs/report.md`.

pub mod sched;
pub mod text;

use crate::catalogue::{self, Lang};
use crate::diagnose::{self, Severity};
use crate::evidence::{Evidence, InputFacts, ProblemCode, Run};
use crate::sniff::{Framework, InputKind};
use serde::Serialize;

/// Version of the report schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema: u32,
    pub tool: String,
    pub lang: Lang,
    pub inputs: Vec<InputReport>,
    pub runs: Vec<Run>,
    pub findings: Vec<FindingReport>,
    /// Where threads ran: topology, residency, timeline, frequency (only when traces were read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sched: Option<sched::SchedReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InputReport {
    pub name: String,
    /// `null` only if the input ended before it could be sniffed (it never does in practice).
    pub kind: Option<InputKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<Framework>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework_label: Option<&'static str>,
    pub bytes: u64,
    pub lines: u64,
    pub problems: Vec<ProblemReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProblemReport {
    /// `error` when the input could not be read at all, else `warning` or `info`.
    pub level: &'static str,
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FindingReport {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    /// One line: what was seen, with the measured numbers.
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    pub evidence: Vec<EvidenceReport>,
    /// Every line the finding was seen on, per input.
    pub lines: Vec<LinesReport>,
    pub lines_truncated: bool,
    pub explain: String,
    pub fix: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct EvidenceReport {
    pub input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_end: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t_start_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t_end_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LinesReport {
    pub input: String,
    pub lines: Vec<u64>,
}

/// Diagnoses the evidence and renders everything in `lang`.
pub fn build(ev: &Evidence, lang: Lang) -> Report {
    let name = |i: usize| {
        ev.inputs
            .get(i)
            .map_or_else(String::new, |f| f.name.clone())
    };
    let findings = diagnose::diagnose(ev)
        .into_iter()
        .map(|f| {
            let params: Vec<(&str, &str)> =
                f.params.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let t =
                |part: &str| catalogue::text(lang, &format!("finding.{}.{part}", f.id), &params);
            FindingReport {
                id: f.id,
                severity: f.severity,
                title: t("title"),
                summary: t("summary"),
                count: f.count,
                evidence: f
                    .evidence
                    .iter()
                    .map(|e| EvidenceReport {
                        input: name(e.input),
                        line_start: e.lines.map(|l| l.0),
                        line_end: e.lines.map(|l| l.1),
                        t_start_s: e.time_s.map(|t| t.0),
                        t_end_s: e.time_s.map(|t| t.1),
                        quote: e.quote.clone(),
                    })
                    .collect(),
                lines: f
                    .lines
                    .iter()
                    .map(|l| LinesReport {
                        input: name(l.input),
                        lines: l.lines.clone(),
                    })
                    .collect(),
                lines_truncated: f.lines_truncated,
                explain: t("explain"),
                fix: t("fix"),
            }
        })
        .collect();
    Report {
        schema: SCHEMA_VERSION,
        tool: format!("tokscope {}", env!("CARGO_PKG_VERSION")),
        lang,
        inputs: ev.inputs.iter().map(|i| input_report(i, lang)).collect(),
        runs: ev.runs.clone(),
        findings,
        sched: sched::build(ev),
    }
}

fn input_report(facts: &InputFacts, lang: Lang) -> InputReport {
    let accepts = catalogue::text(lang, "ui.accepts", &[]);
    let kind_text = facts
        .kind
        .as_ref()
        .map(|k| catalogue::text(lang, &format!("kind.{}", k.key()), &[]))
        .unwrap_or_default();
    let problems = facts
        .problems
        .iter()
        .map(|p| {
            let code = p.code.key();
            let mut message = catalogue::text(
                lang,
                &format!("problem.{code}"),
                &[
                    ("name", &facts.name),
                    ("accepts", &accepts),
                    ("kind", &kind_text),
                ],
            );
            if let Some(line) = p.line {
                message.push(' ');
                message.push_str(&catalogue::text(
                    lang,
                    "problem.at-line",
                    &[("line", &line.to_string())],
                ));
            }
            ProblemReport {
                level: match p.code {
                    ProblemCode::Rejected(_)
                    | ProblemCode::PerfDataInvalid
                    | ProblemCode::PerfDataTooLarge => "error",
                    ProblemCode::LongLinesCut
                    | ProblemCode::TooManyFallbackMessages
                    | ProblemCode::TraceLinesSkipped
                    | ProblemCode::TooManyThreads => "warning",
                    ProblemCode::UnknownLog | ProblemCode::KindNotAnalyzed => "info",
                },
                code,
                line: p.line,
                message,
            }
        })
        .collect();
    InputReport {
        name: facts.name.clone(),
        kind: facts.kind.clone(),
        framework: facts.framework,
        framework_label: facts.framework.map(Framework::label),
        bytes: facts.bytes,
        lines: facts.lines,
        problems,
    }
}

//! The verdict as the report carries it: the diagnose stage's causes and headline rendered in the
//! report's language. Schema in `docs/report.md` ("Verdict").

use super::{FindingReport, PhraseReport};
use crate::catalogue::{self, Lang};
use crate::diagnose::verdict::{fmt_factor, Verdict};
use crate::diagnose::Phrase;
use crate::diagnose::Severity;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VerdictReport {
    /// The answer in one or a few sentences.
    pub headline: String,
    /// Decode and prefill speed per input with a run, and the ceiling when known.
    #[serde(default)]
    pub runs: Vec<RunNumbersReport>,
    /// Most important first: a failed run, then build, threads, power, ceiling, measurement.
    pub causes: Vec<CauseReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<GapReport>,
    /// What to add to the analysis to decide what these inputs leave open.
    #[serde(default)]
    pub next: Vec<String>,
    /// The phrases `headline` and `next` were rendered from, as data.
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub headline_phrases: Vec<PhraseReport>,
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub next_phrases: Vec<PhraseReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunNumbersReport {
    pub input: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode_tok_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill_tok_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceiling_tok_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<f64>,
    /// Device A of a comparison.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CauseReport {
    /// `failed`, `build`, `threads`, `power`, `ceiling` or `measure`.
    pub id: String,
    pub severity: Severity,
    pub title: String,
    /// The ids of the findings this cause groups, in report order, each once.
    pub findings: Vec<String>,
    /// Indexes into the report's `findings` of the cards this cause groups.
    #[serde(default)]
    pub finding_indexes: Vec<usize>,
    pub impact: Impact,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Impact {
    /// Estimated slowdown (≥ 1) this cause accounts for; `null` when the data cannot size it.
    pub factor: Option<f64>,
    /// How the factor was estimated, or what would size it: one sentence per mechanism that
    /// compounds into the factor, largest first.
    pub basis: String,
    /// The phrases `basis` was rendered from, as data.
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub basis_phrases: Vec<PhraseReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GapReport {
    pub factor: f64,
    pub explained_factor: f64,
    pub unexplained_factor: f64,
    /// One sentence saying the split.
    #[serde(default)]
    pub text: String,
}

/// Renders a phrase: `@key` parameters are catalogue texts, `@a|@b` lists of them.
/// "estimated impact ~1.7×", or "impact not sized": one wording for the CLI text and Markdown.
pub fn impact_label(lang: Lang, impact: &Impact) -> String {
    match impact.factor {
        Some(x) => format!(
            "{} ~{}×",
            catalogue::text(lang, "ui.verdict.impact", &[]),
            fmt_factor(x)
        ),
        None => catalogue::text(lang, "ui.verdict.impact.unsized", &[]),
    }
}

pub fn phrase(lang: Lang, p: &Phrase) -> String {
    // A phrase a parameter names (a finding's title) fills its slots from this phrase's own
    // plain parameters.
    let plain: Vec<(&str, &str)> = p
        .params
        .iter()
        .filter(|(_, v)| !v.starts_with('@'))
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    let once: Vec<(&str, String)> = p
        .params
        .iter()
        .map(|(k, v)| (*k, resolve_with(lang, v, &plain)))
        .collect();
    // A title may itself hold a phrase parameter (`Threads on every core{cores}`): a second
    // pass fills it from the phrases the first pass rendered.
    let filled: Vec<(&str, &str)> = once.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let resolved: Vec<(&str, String)> = p
        .params
        .iter()
        .map(|(k, v)| (*k, resolve_with(lang, v, &filled)))
        .collect();
    let params: Vec<(&str, &str)> = resolved.iter().map(|(k, v)| (*k, v.as_str())).collect();
    catalogue::text(lang, p.key, &params)
}

/// A parameter value: `@key` is a catalogue phrase, `@a|@b` a list of them, else itself.
pub fn resolve(lang: Lang, v: &str) -> String {
    resolve_with(lang, v, &[])
}

/// [`resolve`], filling the phrases' slots from `params`.
fn resolve_with(lang: Lang, v: &str, params: &[(&str, &str)]) -> String {
    if !v.starts_with('@') {
        return v.to_string();
    }
    let sep = catalogue::text(lang, "verdict.list-sep", &[]);
    v.split('|')
        .map(|part| match part.strip_prefix('@') {
            Some(key) => catalogue::text(lang, key, params),
            None => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join(&sep)
}

/// Joins sentences the way the language does (a space in English, nothing in Chinese).
pub fn sentences(lang: Lang, parts: impl Iterator<Item = String>) -> String {
    let joiner = match lang {
        Lang::En => " ",
        Lang::Zh => "",
    };
    parts.collect::<Vec<_>>().join(joiner)
}

pub fn render(v: &Verdict, findings: &[FindingReport], lang: Lang) -> VerdictReport {
    let causes = v
        .causes
        .iter()
        .map(|c| {
            let mut ids: Vec<String> = Vec::new();
            for &i in &c.findings {
                if let Some(f) = findings.get(i) {
                    if !ids.contains(&f.id) {
                        ids.push(f.id.clone());
                    }
                }
            }
            CauseReport {
                id: c.layer.id().to_string(),
                severity: c.severity,
                title: catalogue::text(lang, &format!("verdict.cause.{}.title", c.layer.id()), &[]),
                findings: ids,
                finding_indexes: c.findings.clone(),
                impact: Impact {
                    factor: c.factor,
                    basis: sentences(lang, c.basis.iter().map(|p| phrase(lang, p))),
                    basis_phrases: c.basis.iter().map(PhraseReport::from).collect(),
                },
            }
        })
        .collect();
    let gap = v.gap.as_ref().map(|g| GapReport {
        factor: g.factor,
        explained_factor: g.explained_factor,
        unexplained_factor: g.unexplained_factor,
        text: catalogue::text(
            lang,
            if g.explained_factor > 1.0 {
                "verdict.gap"
            } else {
                "verdict.gap.unsized"
            },
            &[
                ("factor", &fmt_factor(g.factor)),
                ("explained", &fmt_factor(g.explained_factor)),
                ("unexplained", &fmt_factor(g.unexplained_factor)),
            ],
        ),
    });
    VerdictReport {
        headline: sentences(lang, v.headline.iter().map(|p| phrase(lang, p))),
        runs: v
            .runs
            .iter()
            .map(|r| RunNumbersReport {
                input: r.input.clone(),
                decode_tok_s: r.decode_tok_s,
                prefill_tok_s: r.prefill_tok_s,
                ceiling_tok_s: r.ceiling_tok_s,
                latency_ms: r.latency_ms,
                reference: r.reference,
            })
            .collect(),
        causes,
        gap,
        next: v.next.iter().map(|p| phrase(lang, p)).collect(),
        headline_phrases: v.headline.iter().map(PhraseReport::from).collect(),
        next_phrases: v.next.iter().map(PhraseReport::from).collect(),
    }
}

//! Report: the one serde value that the page, the CLI, the JSON export and (later) the share
//! link all read. Its schema is documented in `docs/report.md`.

mod compare;
pub mod markdown;
mod merge;
pub(crate) mod sched;
pub mod text;
mod verdict;

use crate::catalogue::{self, Lang};
use crate::diagnose::{self, Quote, Severity};
use crate::evidence::TextEncoding;
use crate::evidence::{downsample, Evidence, InputFacts, ProblemCode, Quantity, Run};
use crate::evidence::{Framework, InputKind};
use crate::ingest::frameworks::runs::MAX_RUNS_PER_INPUT;
use crate::views::telemetry::axis_t;
use crate::views::Views;
use serde::{Deserialize, Serialize};

/// Version of the report schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    pub schema: u32,
    pub tool: String,
    pub lang: Lang,
    pub inputs: Vec<InputReport>,
    pub runs: Vec<Run>,
    /// Device A versus device B: present when two or more inputs have runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<compare::Comparison>,
    /// The answer: headline, ranked causes with their estimated impact, and a comparison's gap.
    /// Absent only in reports from before it existed (old share links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<verdict::VerdictReport>,
    pub findings: Vec<FindingReport>,
    /// Time series for charts, downsampled (min/max per bucket) to at most
    /// [`REPORT_SERIES_POINTS`] points each, on the axis of `time_origin_epoch_s`.
    #[serde(default)]
    pub series: Vec<SeriesReport>,
    /// When every input with absolute times shares one clock: the Unix time that `t = 0` stands
    /// for. Inputs with unrelated clocks each have their own (`inputs[].time_origin_epoch_s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_origin_epoch_s: Option<f64>,
    /// Where threads ran: topology, residency, timeline, frequency (only when traces were read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sched: Option<sched::SchedReport>,
    /// What "Measure this device" measured on the device running the browser, and whether the
    /// user said the inputs came from it (only then do its figures enter the findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<DeviceReport>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceReport {
    /// Best read bandwidth, GB/s (three significant figures).
    pub read_gbps_best: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q4_gbps_best: Option<f64>,
    /// The user ticked "this log came from this device" (or there are no inputs).
    pub applies: bool,
}

fn device_report(ev: &Evidence) -> Option<DeviceReport> {
    let d = ev.device.as_ref()?;
    let round = |v: f64| {
        let digits = 2 - v.abs().max(1e-9).log10().floor() as i32;
        let k = 10f64.powi(digits.max(0));
        (v * k).round() / k
    };
    Some(DeviceReport {
        read_gbps_best: round(d.read_gbps_best),
        q4_gbps_best: d.q4_gbps_best.map(round),
        applies: ev.probe_for_inputs().is_some(),
    })
}

/// Most points per series in the report (two per pixel column of a wide chart).
pub const REPORT_SERIES_POINTS: usize = 2400;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(from = "SeriesWire")]
pub struct SeriesReport {
    #[serde(flatten)]
    pub quantity: Quantity,
    pub input: String,
    pub source: String,
    pub unit: String,
    /// `[t_s, value]` pairs, time non-decreasing.
    pub points: Vec<[f64; 2]>,
}

/// [`SeriesReport`] as read back (share links, the page's Markdown export). `unit` is both this
/// key and a field of `Quantity::Other`; flattened, this key takes it, so an `other` quantity
/// gets its unit back from here.
#[derive(Deserialize)]
struct SeriesWire {
    #[serde(flatten)]
    quantity: Quantity,
    input: String,
    source: String,
    unit: String,
    points: Vec<[f64; 2]>,
}

impl From<SeriesWire> for SeriesReport {
    fn from(w: SeriesWire) -> Self {
        let mut quantity = w.quantity;
        if let Quantity::Other { unit, .. } = &mut quantity {
            unit.clone_from(&w.unit);
        }
        SeriesReport {
            quantity,
            input: w.input,
            source: w.source,
            unit: w.unit,
            points: w.points,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InputReport {
    pub name: String,
    /// `null` only if the input ended before it could be sniffed (it never does in practice).
    pub kind: Option<InputKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<Framework>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework_label: Option<String>,
    /// What the input was read as, in the report's language (`kind` names the parser; a trace
    /// input of only `/proc/cpuinfo` or `lscpu` reads "system information").
    #[serde(default)]
    pub kind_label: String,
    /// Bytes as given (compressed, for a gzipped input).
    pub bytes: u64,
    /// `bytes` as a reader writes it (`5.79 KiB`), so every renderer shows the same figure.
    #[serde(default)]
    pub size: String,
    pub lines: u64,
    /// `utf-8`, `utf-8-bom`, `utf-16le`, `utf-16be` or `gb18030`; absent for rejected inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<TextEncoding>,
    /// `gzip` when the input was inflated on the fly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<String>,
    /// For an input with absolute times: the Unix time its `t = 0` stands for. Inputs whose
    /// clocks overlap share one; times of an input without it count from its own start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_origin_epoch_s: Option<f64>,
    pub problems: Vec<ProblemReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProblemReport {
    /// `error` when the input could not be read at all, else `warning` or `info`.
    pub level: String,
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub message: String,
    /// For problems about lines (skipped, cut): how many, and the first few verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<LineQuote>,
}

/// One line of an input, quoted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LineQuote {
    pub line: u64,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FindingReport {
    pub id: String,
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
    /// The inputs this card is about: one card stands for every input a finding id was seen in.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// The values the texts were rendered from, by name, as the rule gave them (`@key` names a
    /// catalogue phrase): what a program reads instead of the prose. On a card merged from
    /// inputs whose values differ, only the values they all share; `per_input` has the rest.
    #[serde(skip_deserializing, skip_serializing_if = "Params::is_empty")]
    pub params: Params,
    /// A merged card whose inputs' values differ: each set of values and the inputs that gave it.
    #[serde(skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub per_input: Vec<InputParams>,
}

/// A finding's or phrase's parameters, sorted by name so the JSON is stable, written as an
/// object of strings. (A sorted list, not a map type: the wasm carries less code.)
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for Params {
    /// A name given twice keeps its last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut out: Vec<(String, String)> = Vec::new();
        for (k, v) in items {
            let (k, v) = (k.into(), v.into());
            match out.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Params(out)
    }
}

impl Serialize for Params {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

fn params_of(params: &[(&'static str, String)]) -> Params {
    params.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputParams {
    pub inputs: Vec<String>,
    pub params: Params,
}

/// A catalogue text by key, with its parameters: `quote` rendered, as data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhraseReport {
    pub key: String,
    #[serde(skip_serializing_if = "Params::is_empty")]
    pub params: Params,
}

impl From<&crate::diagnose::Phrase> for PhraseReport {
    fn from(p: &crate::diagnose::Phrase) -> Self {
        PhraseReport {
            key: p.key.to_string(),
            params: params_of(&p.params),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// When `quote` is tokscope's own words: the catalogue phrase it was rendered from.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub phrase: Option<PhraseReport>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    let views = Views::of(ev);
    let diagnosed = diagnose::diagnose(ev, &views);
    let findings: Vec<FindingReport> = diagnosed
        .iter()
        .map(|f| {
            // A parameter `@key` is a catalogue phrase, rendered in the report's language; its own
            // placeholders take the finding's other parameters.
            let raw: Vec<(&str, &str)> = f.params.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let resolved: Vec<(&str, String)> = f
                .params
                .iter()
                .map(|(k, v)| {
                    let r = verdict::resolve(lang, v);
                    let r = if v.starts_with('@') {
                        catalogue::fill(&r, &raw)
                    } else {
                        r
                    };
                    (*k, r)
                })
                .collect();
            let params: Vec<(&str, &str)> =
                resolved.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let t = |part: &str| catalogue::text(lang, &f.text_key(part), &params);
            let mut card = FindingReport {
                id: f.id.to_string(),
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
                        // Milliseconds: what the sources resolve, without float noise.
                        t_start_s: e.time_s.map(|t| (t.0 * 1e3).round() / 1e3),
                        t_end_s: e.time_s.map(|t| (t.1 * 1e3).round() / 1e3),
                        quote: e.quote.as_ref().map(|q| match q {
                            Quote::Input(text) => text.clone(),
                            Quote::Phrase(p) => verdict::phrase(lang, p),
                        }),
                        phrase: match &e.quote {
                            Some(Quote::Phrase(p)) => Some(p.into()),
                            _ => None,
                        },
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
                inputs: Vec::new(),
                // The wording variant is a value a program reads like the others.
                params: f
                    .params
                    .iter()
                    .map(|(k, v)| (*k, v.as_str()))
                    .chain(f.variant.map(|v| ("variant", v)))
                    .collect(),
                per_input: Vec::new(),
            };
            card.inputs = merge::inputs_of(&card);
            card
        })
        .collect();
    let (findings, card_of) = merge::merge(findings, lang);
    let mut diagnosis = diagnose::verdict::build(ev, &views, &diagnosed);
    diagnosis.point_at_cards(&card_of);
    Report {
        schema: SCHEMA_VERSION,
        tool: format!("tokscope {}", env!("CARGO_PKG_VERSION")),
        lang,
        inputs: {
            let origins = &views.time_origins;
            ev.inputs
                .iter()
                .enumerate()
                .map(|(i, facts)| {
                    // A trace input that held only /proc/cpuinfo, lscpu or cpufreq dumps.
                    let system_info = ev.sched.traces.iter().any(|t| {
                        t.input == i
                            && t.format == Some(crate::evidence::sched::TraceFormat::SystemInfo)
                    });
                    let mut r = input_report(facts, system_info, lang);
                    r.time_origin_epoch_s = origins.get(i).copied().flatten();
                    r
                })
                .collect()
        },
        runs: ev.runs.clone(),
        comparison: compare::build(ev, lang),
        verdict: Some(verdict::render(&diagnosis, &findings, lang)),
        findings,
        series: series_report(ev, &views),
        time_origin_epoch_s: views.time_origin,
        sched: sched::build(ev, &views),
        device: device_report(ev),
    }
}

/// A framework's name as a reader sees it, in the report's language when it is not a product name.
pub fn framework_name(lang: Lang, f: Framework) -> String {
    match f {
        Framework::Unknown => catalogue::text(lang, "framework.unknown", &[]),
        known => known.label().to_string(),
    }
}

fn input_report(facts: &InputFacts, system_info: bool, lang: Lang) -> InputReport {
    let accepts = catalogue::text(lang, "ui.accepts", &[]);
    let kind_text = facts
        .kind
        .as_ref()
        .map(|k| match k {
            InputKind::Trace if system_info => catalogue::text(lang, "kind.system-info", &[]),
            k => catalogue::text(lang, &format!("kind.{}", k.key()), &[]),
        })
        .unwrap_or_default();
    // What the log was read as, and how to get a readable one from that framework.
    let fw = facts
        .framework
        .unwrap_or(crate::evidence::Framework::Unknown);
    let fw_label = match fw {
        crate::evidence::Framework::Unknown => catalogue::text(lang, "howto.unknown-label", &[]),
        known => catalogue::text(lang, "howto.known-label", &[("framework", known.label())]),
    };
    let howto = catalogue::text(lang, &format!("howto.{}", fw.key()), &[]);
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
                    ("framework", &fw_label),
                    ("howto", &howto),
                    (
                        "count",
                        &p.count.map_or_else(String::new, |c| c.to_string()),
                    ),
                    ("max", &MAX_RUNS_PER_INPUT.to_string()),
                ],
            );
            if let Some(lines) = &p.lines {
                message.push(' ');
                message.push_str(&catalogue::text(
                    lang,
                    "problem.line-count",
                    &[("count", &lines.count.to_string())],
                ));
            } else if let Some(line) = p.line {
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
                    | ProblemCode::GzipCorrupt
                    | ProblemCode::GzipTooLarge
                    | ProblemCode::TelemetryNoHeader
                    | ProblemCode::TelemetryNoSeries
                    | ProblemCode::TraceLinesSkipped
                    | ProblemCode::TooManyThreads
                    | ProblemCode::TraceDetailCut
                    | ProblemCode::TraceSeriesCut
                    | ProblemCode::RunsCut
                    | ProblemCode::BundleNewer
                    | ProblemCode::BundleLinesSkipped
                    | ProblemCode::StatusLinesSkipped
                    | ProblemCode::SnapshotLinesSkipped
                    | ProblemCode::CountersNotRead
                    | ProblemCode::CounterLinesSkipped
                    | ProblemCode::CountersCut
                    | ProblemCode::TableNotMapped => "warning",
                    ProblemCode::TimingsNotRead | ProblemCode::NothingRead => "warning",
                    ProblemCode::UnknownLog
                    | ProblemCode::Cancelled
                    | ProblemCode::TelemetryNoTime
                    | ProblemCode::TelemetryRowsSkipped
                    | ProblemCode::RecorderMissed => "info",
                }
                .to_string(),
                code,
                line: p.line,
                message,
                count: p.lines.as_ref().map(|l| l.count).or(p.count),
                examples: p
                    .lines
                    .iter()
                    .flat_map(|l| &l.first)
                    .map(|(line, text)| LineQuote {
                        line: *line,
                        text: text.clone(),
                    })
                    .collect(),
            }
        })
        .collect();
    InputReport {
        name: facts.name.clone(),
        kind: facts.kind.clone(),
        framework: facts.framework,
        framework_label: facts.framework.map(|f| framework_name(lang, f)),
        kind_label: kind_text.clone(),
        bytes: facts.bytes,
        size: crate::figures::size(facts.bytes as f64),
        lines: facts.lines,
        encoding: facts.encoding,
        compression: facts.compression.map(str::to_string),
        time_origin_epoch_s: None,
        problems,
    }
}

fn series_report(ev: &Evidence, views: &Views) -> Vec<SeriesReport> {
    ev.series
        .iter()
        .map(|s| SeriesReport {
            quantity: s.quantity.clone(),
            input: ev
                .inputs
                .get(s.input)
                .map_or_else(String::new, |f| f.name.clone()),
            source: s.source.clone(),
            unit: s.quantity.unit().to_string(),
            points: downsample(&s.points, REPORT_SERIES_POINTS)
                .into_iter()
                // Milliseconds are plenty on a chart and keep the JSON small.
                .map(|(t, v)| {
                    let t = axis_t(s, t, &views.time_origins);
                    [(t * 1e3).round() / 1e3, (v * 1e3).round() / 1e3]
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::catalogue::{self, Lang};
    use crate::evidence::Framework;

    /// A log read with no timing names how to get a readable one from its framework: a missing
    /// text would show its key to the user.
    #[test]
    fn every_framework_has_its_how_to() {
        for fw in Framework::ALL {
            let key = format!("howto.{}", fw.key());
            let entry = catalogue::entries().get(&key);
            assert!(entry.is_some(), "{key} is not in the catalogue");
            for lang in [Lang::En, Lang::Zh] {
                assert!(!catalogue::text(lang, &key, &[]).is_empty(), "{key}");
            }
        }
    }
}

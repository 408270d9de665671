//! One card per finding id: the findings a rule gives for several inputs (six "A single run"
//! cards for six logs) merge into one that lists the files, with every input's evidence and
//! lines kept and, where the inputs' figures differ, each input's summary under its name.

use super::verdict::sentences;
use super::{EvidenceReport, FindingReport, InputParams, LinesReport, Params};
use crate::catalogue::{self, Lang};

/// The inputs a finding points at, in the order its evidence and lines name them.
pub fn inputs_of(f: &FindingReport) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let named = f
        .evidence
        .iter()
        .map(|e| &e.input)
        .chain(f.lines.iter().map(|l| &l.input));
    for name in named {
        if !name.is_empty() && !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// Merges the findings of one id that come from different inputs. Returns the cards, in the
/// order of each card's first finding, and for every finding given the index of its card.
///
/// An id whose findings share an input stays as the rule gave it: there the rule itself tells
/// several things apart in one input (one card per fallback message, one per comparison), and
/// pairing them up across inputs would be arbitrary.
pub fn merge(findings: Vec<FindingReport>, lang: Lang) -> (Vec<FindingReport>, Vec<usize>) {
    let mergeable = |id: &str| {
        let mut seen: Vec<&String> = Vec::new();
        for f in findings.iter().filter(|f| f.id == id) {
            if f.inputs.is_empty() || f.inputs.iter().any(|i| seen.contains(&i)) {
                return false;
            }
            seen.extend(&f.inputs);
        }
        true
    };
    let merged_ids: Vec<String> = findings
        .iter()
        .map(|f| f.id.clone())
        .filter(|id| mergeable(id))
        .collect();
    let mut cards: Vec<Vec<FindingReport>> = Vec::new();
    let mut map = Vec::with_capacity(findings.len());
    for f in findings {
        let home = merged_ids
            .contains(&f.id)
            .then(|| cards.iter().position(|c| c[0].id == f.id))
            .flatten();
        match home {
            Some(i) => {
                cards[i].push(f);
                map.push(i);
            }
            None => {
                map.push(cards.len());
                cards.push(vec![f]);
            }
        }
    }
    let merged = cards.into_iter().map(|c| card(c, lang)).collect();
    (merged, map)
}

fn distinct<'a>(texts: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut out: Vec<&String> = Vec::new();
    for t in texts {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn card(mut parts: Vec<FindingReport>, lang: Lang) -> FindingReport {
    if parts.len() == 1 {
        return parts.remove(0);
    }
    // Inputs that say the same sentence share it; where the figures differ, each says its own.
    let mut said: Vec<(&String, Vec<&String>)> = Vec::new();
    for f in &parts {
        match said.iter_mut().find(|(s, _)| *s == &f.summary) {
            Some((_, inputs)) => {
                for i in &f.inputs {
                    if !inputs.contains(&i) {
                        inputs.push(i);
                    }
                }
            }
            None => said.push((&f.summary, f.inputs.iter().collect())),
        }
    }
    let summary = if let [(only, _)] = said.as_slice() {
        (*only).clone()
    } else {
        sentences(
            lang,
            said.iter().map(|(text, inputs)| {
                let names: Vec<&str> = inputs.iter().map(|s| s.as_str()).collect();
                catalogue::text(
                    lang,
                    "ui.finding.per-input",
                    &[("input", &names.join(", ")), ("text", text)],
                )
            }),
        )
    };
    let joined = |pick: fn(&FindingReport) -> &String| {
        sentences(lang, distinct(parts.iter().map(pick)).into_iter().cloned())
    };
    let explain = joined(|f| &f.explain);
    let fix = joined(|f| &f.fix);
    let mut evidence: Vec<EvidenceReport> = Vec::new();
    let mut lines: Vec<LinesReport> = Vec::new();
    let mut inputs: Vec<String> = Vec::new();
    for f in &parts {
        for e in &f.evidence {
            if !evidence.contains(e) {
                evidence.push(e.clone());
            }
        }
        for l in &f.lines {
            match lines.iter_mut().find(|x| x.input == l.input) {
                Some(x) => {
                    x.lines.extend(&l.lines);
                    x.lines.sort_unstable();
                    x.lines.dedup();
                }
                None => lines.push(l.clone()),
            }
        }
        for i in &f.inputs {
            if !inputs.contains(i) {
                inputs.push(i.clone());
            }
        }
    }
    let (params, per_input) = params_of(&parts);
    let counts: Vec<u64> = parts.iter().filter_map(|f| f.count).collect();
    let first = &parts[0];
    FindingReport {
        id: first.id.clone(),
        severity: parts
            .iter()
            .map(|f| f.severity)
            .min()
            .unwrap_or(first.severity),
        // The findings come most severe first, so the first title is the one to lead with.
        title: first.title.clone(),
        summary,
        count: (!counts.is_empty()).then(|| counts.iter().sum()),
        evidence,
        lines,
        lines_truncated: parts.iter().any(|f| f.lines_truncated),
        explain,
        fix,
        inputs,
        params,
        per_input,
    }
}

/// The values every part shares, and, when the parts' values differ, each distinct set with the
/// inputs that gave it: the data behind the per-input sentences of the summary.
fn params_of(parts: &[FindingReport]) -> (Params, Vec<InputParams>) {
    let mut sets: Vec<InputParams> = Vec::new();
    for f in parts {
        match sets.iter_mut().find(|s| s.params == f.params) {
            Some(s) => {
                for i in &f.inputs {
                    if !s.inputs.contains(i) {
                        s.inputs.push(i.clone());
                    }
                }
            }
            None => sets.push(InputParams {
                inputs: f.inputs.clone(),
                params: f.params.clone(),
            }),
        }
    }
    if sets.len() <= 1 {
        return (sets.pop().map(|s| s.params).unwrap_or_default(), Vec::new());
    }
    let shared = sets[0]
        .params
        .iter()
        .filter(|(k, v)| sets.iter().all(|s| s.params.get(k) == Some(*v)))
        .collect();
    (shared, sets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::Severity;

    fn report(id: &str, input: &str, summary: &str, severity: Severity) -> FindingReport {
        FindingReport {
            id: id.into(),
            severity,
            title: format!("{id} title"),
            summary: summary.into(),
            count: Some(2),
            evidence: vec![EvidenceReport {
                input: input.into(),
                line_start: Some(3),
                line_end: Some(3),
                t_start_s: None,
                t_end_s: None,
                quote: Some("q".into()),
                phrase: None,
            }],
            lines: vec![LinesReport {
                input: input.into(),
                lines: vec![3, 9],
            }],
            lines_truncated: false,
            explain: "why".into(),
            fix: "fix".into(),
            inputs: vec![input.into()],
            params: [("tok_s", summary)].into_iter().collect(),
            per_input: Vec::new(),
        }
    }

    #[test]
    fn one_card_per_id_with_every_input_kept() {
        let fs = vec![
            report("a.x", "one.log", "decode 3 tok/s", Severity::Warning),
            report("b.y", "one.log", "other", Severity::Info),
            report("a.x", "two.log", "decode 5 tok/s", Severity::Critical),
            report("a.x", "three.log", "decode 3 tok/s", Severity::Info),
        ];
        let (cards, map) = merge(fs, Lang::En);
        assert_eq!(map, [0, 1, 0, 0]);
        assert_eq!(cards.len(), 2);
        let c = &cards[0];
        assert_eq!(c.inputs, ["one.log", "two.log", "three.log"]);
        assert_eq!(c.severity, Severity::Critical);
        assert_eq!(c.count, Some(6));
        assert_eq!(c.evidence.len(), 3);
        assert_eq!(c.lines.len(), 3);
        // The figures differ: each input says its own.
        assert!(
            c.summary.contains("one.log, three.log: decode 3 tok/s"),
            "{}",
            c.summary
        );
        assert!(
            c.summary.contains("two.log: decode 5 tok/s"),
            "{}",
            c.summary
        );
        assert_eq!(c.explain, "why");
        // The data behind those sentences: nothing shared, each input's values under its names.
        assert!(c.params.is_empty(), "{:?}", c.params);
        let sets: Vec<(Vec<&str>, &str)> = c
            .per_input
            .iter()
            .map(|s| {
                (
                    s.inputs.iter().map(String::as_str).collect(),
                    s.params.get("tok_s").unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            sets,
            [
                (vec!["one.log", "three.log"], "decode 3 tok/s"),
                (vec!["two.log"], "decode 5 tok/s")
            ]
        );
    }

    #[test]
    fn findings_of_one_id_within_one_input_stay_apart() {
        let fs = vec![
            report("f.x", "one.log", "message 1", Severity::Warning),
            report("f.x", "one.log", "message 2", Severity::Warning),
            report("f.x", "two.log", "message 1", Severity::Warning),
        ];
        let (cards, map) = merge(fs, Lang::En);
        assert_eq!(map, [0, 1, 2]);
        assert_eq!(cards.len(), 3);
    }

    #[test]
    fn the_same_sentence_is_said_once() {
        let fs = vec![
            report("a.x", "one.log", "same", Severity::Info),
            report("a.x", "two.log", "same", Severity::Info),
        ];
        let (cards, _) = merge(fs, Lang::En);
        assert_eq!(cards[0].summary, "same");
        assert_eq!(cards[0].params.get("tok_s"), Some("same"));
        assert!(cards[0].per_input.is_empty());
    }
}

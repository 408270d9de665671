//! `run.failed`: the input says its run failed (a crash, an abort, a model or session that could
//! not load, an out-of-memory kill, a model built for another backend). Nothing else in the
//! report matters until the run works, so it is critical, unless the same input still logged
//! a decode speed (the crash came after the measurement). A load error the framework recovered
//! from (it still decoded) is left to the fallback findings.

use super::run_facts::decode_tok_s;
use super::{EvidenceRef, Finding, InputLines, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::evidence::FailureClass;
use crate::views::Views;

pub const IDS: &[&str] = &["run.failed"];

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for (input, facts) in ev.inputs.iter().enumerate() {
        let lines: Vec<_> = ev.failures.iter().filter(|f| f.input == input).collect();
        let Some(first) = lines.first() else {
            continue;
        };
        let class = lines
            .iter()
            .map(|f| f.class)
            .min()
            .unwrap_or(FailureClass::Crash);
        let measured = ev
            .runs
            .iter()
            .any(|r| r.input == facts.name && decode_tok_s(r).is_some());
        // An error the framework recovered from (it went on to decode) is not a failed run;
        // the fallback findings tell the rest.
        if measured && matches!(class, FailureClass::Load | FailureClass::Mismatch) {
            continue;
        }
        out.push(Finding {
            // The class decides the fix: a smaller footprint for an OOM, the assert's own
            // message for an abort, the file for a missing field.
            variant: Some(class.key()),
            id: IDS[0],
            severity: if measured {
                Severity::Warning
            } else {
                Severity::Critical
            },
            params: vec![
                ("input", facts.name.clone()),
                ("what", format!("@run.failed.class.{}", class.key())),
                ("meaning", format!("@run.failed.meaning.{}", class.key())),
                ("line", first.line.to_string()),
                ("count", lines.len().to_string()),
            ],
            count: Some(lines.len() as u64),
            evidence: lines
                .iter()
                .map(|f| EvidenceRef {
                    input,
                    lines: Some((f.line, f.line)),
                    time_s: None,
                    quote: Some(Quote::Input(f.text.clone())),
                })
                .collect(),
            lines: vec![InputLines {
                input,
                lines: lines.iter().map(|f| f.line).collect(),
            }],
            lines_truncated: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Phase, Run};

    fn evidence(class: FailureClass, decoded: bool) -> Evidence {
        let mut ev = Evidence::default();
        let i = ev.add_input("app.log");
        ev.add_failure(i, 12, class, "Map error ptrCL == nullptr");
        ev.add_failure(
            i,
            13,
            FailureClass::Crash,
            "Segmentation fault (core dumped)",
        );
        if decoded {
            ev.runs.push(Run {
                input: "app.log".into(),
                decode: Some(Phase {
                    tok_s: Some(4.4),
                    ..Phase::default()
                }),
                ..Run::default()
            });
        }
        ev
    }

    #[test]
    fn a_failed_run_is_critical_and_quotes_its_lines() {
        let f = crate::diagnose::apply(rule, &evidence(FailureClass::Load, false));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].evidence.len(), 2);
        assert_eq!(f[0].evidence[0].lines, Some((12, 12)));
        // The load error explains the segfault after it.
        assert!(f[0]
            .params
            .contains(&("what", "@run.failed.class.load".into())));
    }

    #[test]
    fn a_crash_after_decoding_is_a_warning() {
        let mut ev = evidence(FailureClass::Load, true);
        ev.failures.retain(|f| f.class == FailureClass::Crash);
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn a_load_error_the_run_recovered_from_is_not_a_failure() {
        let mut ev = evidence(FailureClass::Load, true);
        ev.failures.retain(|f| f.class == FailureClass::Load);
        assert!(crate::diagnose::apply(rule, &ev).is_empty());
    }
}

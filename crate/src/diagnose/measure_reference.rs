//! `measure.reference-gap`: the user pastes their own run beside a result they quote (the
//! README's, a maintainer's: "but your result was:"), same model, and theirs is much slower. The
//! paste alone cannot say why, so the finding states the gap and what would decide it: a gap
//! between two devices running the same command is in the device (power mode, clocks, cores,
//! memory) or the build.

use super::compare_groups::same_model;
use super::run_facts::{decode_tok_s, fmt, framework_label, input_of, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["measure.reference-gap"];

/// A run this much slower than the result quoted beside it is a real gap, not noise.
pub(super) const SLOWER: f64 = 1.3;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for own in ev.runs.iter().filter(|r| !r.quoted) {
        let Some(own_tok_s) = decode_tok_s(own).filter(|t| *t > 0.0) else {
            continue;
        };
        let input = input_of(ev, own);
        // The fastest result quoted in the same paste for the same model.
        let reference = ev
            .runs
            .iter()
            .filter(|r| r.quoted && input_of(ev, r) == input && same_model(own, r) != Some(false))
            .filter_map(|r| Some((r, decode_tok_s(r)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((quoted, ref_tok_s)) = reference else {
            continue;
        };
        let ratio = ref_tok_s / own_tok_s;
        if !ratio.is_finite() || ratio < SLOWER {
            continue;
        }
        if out
            .iter()
            .any(|f: &Finding| f.evidence.iter().any(|e| e.input == input))
        {
            continue;
        }
        let quote = |r: &Run, tok_s: f64| {
            let key = if r.quoted {
                "quote.measure.quoted-decode"
            } else {
                "quote.measure.own-decode"
            };
            Quote::phrase(key, vec![("tok_s", fmt(tok_s))])
        };
        out.push(Finding::new(
            "measure.reference-gap",
            Severity::Info,
            vec![
                ("framework", framework_label(own)),
                ("own_tok_s", fmt(own_tok_s)),
                ("ref_tok_s", fmt(ref_tok_s)),
                ("ratio", fmt(ratio)),
            ],
            vec![
                run_ref(ev, own, quote(own, own_tok_s)),
                run_ref(ev, quoted, quote(quoted, ref_tok_s)),
            ],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Framework, Phase};

    fn run(tok_s: f64, line: u64, quoted: bool) -> Run {
        Run {
            input: "paste.md".into(),
            framework: Some(Framework::MlcLlm),
            model: Some("Llama-2-7b-chat-hf-q4f16_ft".into()),
            line_start: Some(line),
            quoted,
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Phase::default()
            }),
            ..Run::default()
        }
    }

    fn findings(runs: Vec<Run>) -> Vec<Finding> {
        let mut ev = Evidence::default();
        ev.add_input("paste.md");
        ev.runs = runs;
        crate::diagnose::apply(rule, &ev)
    }

    #[test]
    fn a_run_well_below_the_result_it_quotes_states_the_gap() {
        let f = findings(vec![run(19.3, 5, false), run(42.9, 8, true)]);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].param("ratio"), Some("2.22"));
        assert_eq!(f[0].param("own_tok_s"), Some("19.3"));
        assert_eq!(f[0].severity, Severity::Info);
        // Close to the reference, or faster, or nothing quoted: nothing to say.
        assert!(findings(vec![run(40.0, 5, false), run(42.9, 8, true)]).is_empty());
        assert!(findings(vec![run(50.0, 5, false), run(42.9, 8, true)]).is_empty());
        assert!(findings(vec![run(19.3, 5, false), run(42.9, 8, false)]).is_empty());
    }
}

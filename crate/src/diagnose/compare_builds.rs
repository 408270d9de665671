//! `compare.build-gap`: one paste holds runs of the same model under different builds or
//! releases (blocks the user labelled `b2785` and `b2787`, or logs that print their build), and
//! one build decodes much slower. Users bisect a slowdown after an update and paste each
//! build's timings (ggml-org/llama.cpp #7176: 6.93 tok/s at b2785, 3.81 at b2787); ollama users
//! paste `ollama ps` from two releases. On one machine and one model, what changed is the build:
//! its defaults (threads, layers offloaded, backend chosen) or its kernels. The finding names the
//! two builds and the ratio; a rule with the mechanism (threads, offload) says which.

use super::compare_groups::same_model;
use super::run_facts::{fmt, input_of, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["compare.build-gap"];

/// A decode this much slower is a change between the builds, not run-to-run noise.
const SLOWER: f64 = 1.5;
/// Runs compared per input: a bisection pastes a handful.
const MAX_COMPARED: usize = 32;

fn decode(run: &Run) -> Option<f64> {
    run.decode
        .as_ref()?
        .tok_s
        .filter(|t| t.is_finite() && *t > 0.0)
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut per_input: Vec<(usize, Vec<&Run>)> = Vec::new();
    for r in ev
        .runs
        .iter()
        .filter(|r| r.build.is_some() && decode(r).is_some())
    {
        let input = input_of(ev, r);
        match per_input.iter_mut().find(|(i, _)| *i == input) {
            Some((_, rs)) if rs.len() < MAX_COMPARED => rs.push(r),
            Some(_) => {}
            None => per_input.push((input, vec![r])),
        }
    }
    let mut out = Vec::new();
    for (_, runs) in &per_input {
        // The fastest and the slowest run of one model and framework under two builds.
        let mut best: Option<(&Run, &Run, f64)> = None;
        for (i, a) in runs.iter().enumerate() {
            for b in &runs[i + 1..] {
                if a.framework != b.framework
                    || a.build == b.build
                    || same_model(a, b) == Some(false)
                {
                    continue;
                }
                let (Some(x), Some(y)) = (decode(a), decode(b)) else {
                    continue;
                };
                let (fast, slow, ratio) = if x >= y {
                    (*a, *b, x / y)
                } else {
                    (*b, *a, y / x)
                };
                if ratio >= SLOWER && best.map_or(true, |(_, _, r)| ratio > r) {
                    best = Some((fast, slow, ratio));
                }
            }
        }
        let Some((fast, slow, ratio)) = best else {
            continue;
        };
        let build = |r: &Run| r.build.clone().unwrap_or_default();
        let (fast_tok_s, slow_tok_s) = (decode(fast).unwrap_or(0.0), decode(slow).unwrap_or(0.0));
        let quote = |r: &Run, tok_s: f64| {
            Quote::phrase(
                "quote.compare.build-decode",
                vec![("build", build(r)), ("tok_s", fmt(tok_s))],
            )
        };
        out.push(Finding::new(
            "compare.build-gap",
            Severity::Warning,
            vec![
                ("fast_build", build(fast)),
                ("slow_build", build(slow)),
                ("fast_tok_s", fmt(fast_tok_s)),
                ("slow_tok_s", fmt(slow_tok_s)),
                ("ratio", fmt(ratio)),
            ],
            vec![
                run_ref(ev, slow, quote(slow, slow_tok_s)),
                run_ref(ev, fast, quote(fast, fast_tok_s)),
            ],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Framework, Phase};

    fn run(build: &str, tok_s: f64, line: u64) -> Run {
        Run {
            input: "paste.md".into(),
            framework: Some(Framework::LlamaCpp),
            build: Some(build.into()),
            model: Some("Phi-3-mini-4k-instruct.IQ4_XS.gguf".into()),
            line_start: Some(line),
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
        rule(&ev, &Views::of(&ev))
    }

    fn param<'a>(f: &'a Finding, k: &str) -> &'a str {
        f.params
            .iter()
            .find(|(n, _)| *n == k)
            .map_or("", |(_, v)| v)
    }

    #[test]
    fn a_bisection_names_the_fastest_and_slowest_builds() {
        let f = findings(vec![
            run("b2750", 7.2, 1),
            run("b2826", 3.84, 5),
            run("b2785", 6.93, 9),
            run("b2787", 3.81, 13),
        ]);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (param(&f[0], "fast_build"), param(&f[0], "slow_build")),
            ("b2750", "b2787")
        );
        assert_eq!(param(&f[0], "ratio"), "1.89");
        assert_eq!(f[0].evidence.len(), 2);
    }

    #[test]
    fn noise_one_build_or_two_models_say_nothing() {
        assert!(findings(vec![run("b2785", 6.9, 1), run("b2787", 6.1, 5)]).is_empty());
        assert!(findings(vec![run("b2785", 6.9, 1), run("b2785", 3.1, 5)]).is_empty());
        let mut other = run("b2787", 3.1, 5);
        other.model = Some("llama-2-13b.Q4_0.gguf".into());
        assert!(findings(vec![run("b2785", 6.9, 1), other]).is_empty());
    }
}

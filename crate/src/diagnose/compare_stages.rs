//! `compare.stage-gap`: one paste holds two runs of the same program timing the same stages
//! (whisper.cpp's `encode time`, `decode time`), and one run takes several times longer for the
//! same stage. Users paste the stock binary's timings beside their own app's and ask why theirs
//! is slower (ggml-org/whisper.cpp #205: encode 13.4 s against 65.0 s): on one machine, the
//! build is what differs, most often the CPU features compiled in or the optimisation level.
//!
//! Both runs come from one input, so from one user's machine; the finding says which build to
//! look at, and the size is the stage's ratio.

use super::compare_groups::same_model;
use super::run_facts::{fmt, input_of, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["compare.stage-gap"];

/// A stage this much slower is a different build, not run-to-run noise.
const SLOWER: f64 = 1.5;
/// Runs compared per input.
const MAX_COMPARED: usize = 16;

/// The stage both runs time that says most: the encoder is whisper's heaviest pass, else the
/// stage both spent longest in.
fn stage<'a>(a: &'a Run, b: &'a Run) -> Option<(&'a str, f64, f64)> {
    let both = |name: &str| Some((a.stages.get(name)?.ms, b.stages.get(name)?.ms));
    if let Some((x, y)) = both("encode").filter(|(x, y)| *x > 0.0 && *y > 0.0) {
        return Some(("encode", x, y));
    }
    a.stages
        .iter()
        .filter(|(k, _)| k.as_str() != "total" && k.as_str() != "load")
        .filter_map(|(k, s)| Some((k.as_str(), s.ms, b.stages.get(k)?.ms)))
        .filter(|(_, x, y)| *x > 0.0 && *y > 0.0)
        .max_by(|p, q| p.1.max(p.2).total_cmp(&q.1.max(q.2)))
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    // A paste holds a handful of such runs; the first few per input are compared, so a
    // capture of hundreds stays linear.
    let mut per_input: Vec<(usize, Vec<&Run>)> = Vec::new();
    for r in ev.runs.iter().filter(|r| !r.stages.is_empty()) {
        let input = input_of(ev, r);
        match per_input.iter_mut().find(|(i, _)| *i == input) {
            Some((_, rs)) if rs.len() < MAX_COMPARED => rs.push(r),
            Some(_) => {}
            None => per_input.push((input, vec![r])),
        }
    }
    let mut out: Vec<Finding> = Vec::new();
    for (input, staged) in &per_input {
        for (i, a) in staged.iter().enumerate() {
            for b in &staged[i + 1..] {
                let input = *input;
                if a.framework != b.framework
                    || same_model(a, b) == Some(false)
                    || out.iter().any(|f| f.evidence[0].input == input)
                {
                    continue;
                }
                let Some((name, x, y)) = stage(a, b) else {
                    continue;
                };
                let (fast, slow, fast_ms, slow_ms) =
                    if x <= y { (a, b, x, y) } else { (b, a, y, x) };
                if slow_ms < SLOWER * fast_ms {
                    continue;
                }
                let ms = |v: f64| format!("{v:.0}");
                out.push(Finding::new(
                    "compare.stage-gap",
                    Severity::Warning,
                    vec![
                        ("stage", name.to_string()),
                        ("a_ms", ms(fast_ms)),
                        ("b_ms", ms(slow_ms)),
                        ("ratio", fmt(slow_ms / fast_ms)),
                    ],
                    vec![
                        run_ref(
                            ev,
                            slow,
                            Quote::Input(format!("{name} time = {} ms", ms(slow_ms))),
                        ),
                        run_ref(
                            ev,
                            fast,
                            Quote::Input(format!("{name} time = {} ms", ms(fast_ms))),
                        ),
                    ],
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Framework, Stage};

    fn run(input: &str, encode: f64, line: u64) -> Run {
        let mut r = Run {
            input: input.into(),
            framework: Some(Framework::WhisperCpp),
            line_start: Some(line),
            ..Run::default()
        };
        for (k, ms) in [
            ("encode", encode),
            ("decode", 1000.0),
            ("total", encode + 1200.0),
        ] {
            r.stages.insert(
                k.into(),
                Stage {
                    ms,
                    ..Stage::default()
                },
            );
        }
        r
    }

    fn findings(runs: Vec<Run>) -> Vec<Finding> {
        let mut ev = Evidence::default();
        for r in &runs {
            if !ev.inputs.iter().any(|i| i.name == r.input) {
                ev.add_input(&r.input);
            }
        }
        ev.runs = runs;
        rule(&ev, &Views::of(&ev))
    }

    #[test]
    fn the_same_stage_several_times_slower_in_one_paste_is_the_finding() {
        let f = findings(vec![run("a", 13432.69, 3), run("a", 64995.89, 11)]);
        assert_eq!(f.len(), 1);
        let p = |k: &str| f[0].params.iter().find(|(n, _)| *n == k).unwrap().1.clone();
        assert_eq!(p("stage"), "encode");
        assert_eq!(p("ratio"), "4.84");
        // The slower run is quoted first.
        assert_eq!(f[0].evidence[0].lines, Some((11, 11)));
    }

    #[test]
    fn close_runs_or_two_files_give_nothing() {
        assert!(findings(vec![run("a", 13000.0, 3), run("a", 15000.0, 11)]).is_empty());
        assert!(findings(vec![run("a", 13000.0, 3), run("b", 65000.0, 1)]).is_empty());
    }
}

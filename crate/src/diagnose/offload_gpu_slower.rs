//! `offload.gpu-slower`: one model decoded both on the CPU and on an accelerator on one machine,
//! and the accelerator's run is the slower. Users ask "why is the GPU slower than the CPU?"
//! with exactly this pair pasted: a llama-bench table per backend, or the timings of a CPU run
//! and a GPU run one above the other.
//!
//! One machine: both runs come from one input (a paste holds one user's machine), or from two
//! inputs whose runs state the same model and the same hardware thread count. The size is the
//! ratio itself: moving the model to the CPU gives it.

use super::compare_groups::same_model;
use super::run_facts::{decode_tok_s, fmt, input_of, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::backend::{place_of, Place};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.gpu-slower"];

/// The CPU must be this much faster: closer than that, run-to-run noise can reverse the order.
const SLOWER: f64 = 1.15;

fn place(run: &Run) -> Option<Place> {
    run.backend.as_deref().and_then(place_of)
}

/// Whether two runs were measured on one machine, of one model.
fn comparable(ev: &Evidence, a: &Run, b: &Run) -> bool {
    if input_of(ev, a) == input_of(ev, b) {
        return same_model(a, b) != Some(false);
    }
    same_model(a, b) == Some(true) && a.hw_threads.is_some() && a.hw_threads == b.hw_threads
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    // Each input's fastest run per place: an input holds up to 500 runs, and only the best of
    // each side answers "is the GPU slower here" (a table of several settings gives one answer).
    let mut bests: Vec<(Place, &Run, f64)> = Vec::new();
    for r in &ev.runs {
        let (Some(p), Some(t)) = (place(r), decode_tok_s(r).filter(|t| *t > 0.0)) else {
            continue;
        };
        let input = input_of(ev, r);
        match bests
            .iter_mut()
            .find(|(bp, br, _)| *bp == p && input_of(ev, br) == input)
        {
            Some(slot) if slot.2 < t => *slot = (p, r, t),
            Some(_) => {}
            None => bests.push((p, r, t)),
        }
    }
    let side = |p: Place| bests.iter().filter(move |b| b.0 == p).map(|b| (b.1, b.2));
    // The widest gap among comparable pairs: one finding.
    let mut best: Option<(&Run, f64, &Run, f64)> = None;
    for (g, gt) in side(Place::Accelerator) {
        for (c, ct) in side(Place::Cpu) {
            if !comparable(ev, g, c) || ct < SLOWER * gt {
                continue;
            }
            let wider = match best {
                Some((_, bg, _, bc)) => ct / gt > bc / bg,
                None => true,
            };
            if wider {
                best = Some((g, gt, c, ct));
            }
        }
    }
    let Some((g, gt, c, ct)) = best else {
        return Vec::new();
    };
    let backend = g.backend.clone().unwrap_or_default();
    let cpu_backend = c.backend.clone().unwrap_or_default();
    vec![Finding::new(
        "offload.gpu-slower",
        Severity::Warning,
        vec![
            ("backend", backend.clone()),
            ("cpu_backend", cpu_backend.clone()),
            ("gpu_tok_s", fmt(gt)),
            ("cpu_tok_s", fmt(ct)),
            ("ratio", fmt(ct / gt)),
        ],
        vec![
            run_ref(
                ev,
                g,
                Quote::phrase(
                    "quote.backend-decode",
                    vec![("backend", backend), ("tok_s", fmt(gt))],
                ),
            ),
            run_ref(
                ev,
                c,
                Quote::phrase(
                    "quote.backend-decode",
                    vec![("backend", cpu_backend), ("tok_s", fmt(ct))],
                ),
            ),
        ],
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Phase;

    fn run(input: &str, backend: &str, tok_s: f64) -> Run {
        Run {
            input: input.into(),
            backend: Some(backend.into()),
            model: Some("llama 7B Q4_0".into()),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Phase::default()
            }),
            ..Run::default()
        }
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
    fn a_gpu_run_slower_than_the_cpu_run_of_one_paste_is_the_finding() {
        let f = findings(vec![run("a", "Vulkan", 1.43), run("a", "CPU", 3.95)]);
        assert_eq!(f.len(), 1);
        let p = |k: &str| f[0].params.iter().find(|(n, _)| *n == k).unwrap().1.clone();
        assert_eq!(p("backend"), "Vulkan");
        assert_eq!(p("ratio"), "2.76");
    }

    #[test]
    fn a_faster_gpu_close_runs_or_other_machines_give_nothing() {
        assert!(findings(vec![run("a", "CUDA", 40.0), run("a", "CPU", 8.0)]).is_empty());
        assert!(findings(vec![run("a", "Vulkan", 3.6), run("a", "CPU", 3.95)]).is_empty());
        // Two files with nothing to say they share a machine.
        assert!(findings(vec![run("a", "Vulkan", 1.43), run("b", "CPU", 3.95)]).is_empty());
        let mut other = run("a", "CPU", 3.95);
        other.model = Some("qwen2 0.5B Q4_0".into());
        assert!(findings(vec![run("a", "Vulkan", 1.43), other]).is_empty());
    }

    #[test]
    fn two_files_of_one_machine_are_compared() {
        let mut g = run("gpu.log", "Metal", 9.0);
        let mut c = run("cpu.log", "CPU", 14.0);
        g.hw_threads = Some(16);
        c.hw_threads = Some(16);
        assert_eq!(findings(vec![g, c]).len(), 1);
    }
}

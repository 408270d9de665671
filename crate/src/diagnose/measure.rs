//! `measure.*`: numbers that cannot carry a fair comparison.
//! - `measure.mixed-average`: only a prefill+decode average was reported;
//! - `measure.first-run-slow`: the first of several runs is much slower (no warm-up);
//! - `measure.single-run`: one run only, so there is no median;
//! - `measure.blas-prefill`: a BLAS build is slower at prefill while decode is unchanged.

use super::run_facts::{decode_tok_s, fmt, framework_label, input_of, prefill_tok_s, run_ref};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &[
    "measure.mixed-average",
    "measure.first-run-slow",
    "measure.single-run",
    "measure.blas-prefill",
];

fn finding(
    id: &'static str,
    severity: Severity,
    run: &Run,
    ev: &Evidence,
    params: Vec<(&'static str, String)>,
    quote: Quote,
) -> Finding {
    let mut p = vec![("framework", framework_label(run))];
    p.extend(params);
    Finding::new(id, severity, p, vec![run_ref(ev, run, quote)])
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for input in 0..ev.inputs.len() {
        let runs: Vec<&Run> = ev
            .runs
            .iter()
            .filter(|r| input_of(ev, r) == input)
            .collect();
        // Mixed: bench rows that are all combined tests, or a run with neither phase split.
        for run in &runs {
            let combined = !run.bench.is_empty() && run.bench.iter().all(|b| b.test.contains('+'));
            if combined && run.decode.is_none() {
                let b = &run.bench[0];
                out.push(finding(
                    "measure.mixed-average",
                    Severity::Warning,
                    run,
                    ev,
                    vec![("test", b.test.clone()), ("tok_s", fmt(b.tok_s))],
                    Quote::Input(format!("{}: {} tok/s", b.test, fmt(b.tok_s))),
                ));
            }
        }
        let timed: Vec<&Run> = runs
            .iter()
            .copied()
            .filter(|r| r.decode.as_ref().and_then(|d| d.tok_s).is_some())
            // The rows of a quant or power-mode sweep differ by design, not by warm-up.
            .filter(|r| !r.sweep_row)
            .collect();
        if timed.len() >= 3 {
            let first = decode_tok_s(timed[0]).unwrap_or(0.0);
            let rest: Vec<f64> = timed[1..].iter().filter_map(|r| decode_tok_s(r)).collect();
            let m = crate::stats::median(rest.iter().copied()).unwrap_or(0.0);
            if first > 0.0 && first < 0.7 * m {
                out.push(finding(
                    "measure.first-run-slow",
                    Severity::Warning,
                    timed[0],
                    ev,
                    vec![
                        ("first", fmt(first)),
                        ("median", fmt(m)),
                        ("runs", timed.len().to_string()),
                    ],
                    Quote::phrase(
                        "quote.measure.first-run",
                        vec![("first", fmt(first)), ("median", fmt(m))],
                    ),
                ));
            }
        } else if timed.len() == 1
            && runs.iter().all(|r| r.bench.is_empty())
            && timed[0].repeats.unwrap_or(1) < 2
        {
            let run = timed[0];
            let tok_s = decode_tok_s(run).unwrap_or(0.0);
            out.push(finding(
                "measure.single-run",
                Severity::Info,
                run,
                ev,
                vec![("tok_s", fmt(tok_s))],
                Quote::phrase("quote.measure.once", vec![("tok_s", fmt(tok_s))]),
            ));
        }
    }
    // BLAS: two runs of the same model and quant, one built with BLAS, prefill slower there
    // while decode stays within 15%.
    for a in &ev.runs {
        for b in &ev.runs {
            if a.cpu_features.get("BLAS") != Some(&true)
                || b.cpu_features.get("BLAS") != Some(&false)
            {
                continue;
            }
            if a.quant != b.quant || a.quant.is_none() {
                continue;
            }
            let (Some(pa), Some(pb), Some(da), Some(db)) = (
                prefill_tok_s(a),
                prefill_tok_s(b),
                decode_tok_s(a),
                decode_tok_s(b),
            ) else {
                continue;
            };
            if pa < 0.7 * pb
                && (da / db - 1.0).abs() <= 0.15
                && !out.iter().any(|f| f.id == "measure.blas-prefill")
            {
                out.push(finding(
                    "measure.blas-prefill",
                    Severity::Warning,
                    a,
                    ev,
                    vec![
                        ("blas_prefill", fmt(pa)),
                        ("plain_prefill", fmt(pb)),
                        ("blas_decode", fmt(da)),
                        ("plain_decode", fmt(db)),
                    ],
                    Quote::phrase(
                        "quote.measure.blas",
                        vec![("prefill", fmt(pa)), ("decode", fmt(da))],
                    ),
                ));
            }
        }
    }
    out
}

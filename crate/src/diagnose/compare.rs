//! `compare.*`: device A versus device B. With runs from two or more inputs, the fastest input
//! is the reference and every other one is compared with it; each difference that explains a
//! speed gap is a finding, the likeliest causes first (fallbacks, expanded weights, quant,
//! missing instructions, then backend, threads, model file, build).

use super::run_facts::{decode_tok_s, fmt, input_of, run_ref, weight_mib};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, InputId, Run};
use crate::figures::{size, size_of_mib};

pub const IDS: &[&str] = &[
    "compare.decode-gap",
    "compare.fallback",
    "compare.weights",
    "compare.quant",
    "compare.cpu-features",
    "compare.backend",
    "compare.threads",
    "compare.model",
    "compare.build",
];

/// CPU flags whose absence slows quantized kernels, in every spelling the parsers record.
pub const KEY_FLAGS: &[&str] = &[
    "DOTPROD",
    "i8sdot",
    "MATMUL_INT8",
    "i8mm",
    "SVE",
    "sve2",
    "AVX2",
    "AVX_VNNI",
    "AVX512",
    "fp16",
];

/// One run stands for each input that has any: the last one with a decode speed (warmed up),
/// else the last one.
pub fn representatives(ev: &Evidence) -> Vec<(InputId, &Run)> {
    let mut out: Vec<(InputId, &Run)> = Vec::new();
    for (i, _) in ev.inputs.iter().enumerate() {
        let runs: Vec<&Run> = ev.runs.iter().filter(|r| input_of(ev, r) == i).collect();
        let pick = runs
            .iter()
            .rev()
            .find(|r| decode_tok_s(r).is_some())
            .or(runs.last());
        if let Some(r) = pick {
            out.push((i, r));
        }
    }
    out
}

/// Fallback lines per input.
pub fn fallback_count(ev: &Evidence, input: InputId) -> u64 {
    ev.fallbacks
        .iter()
        .map(|g| g.occurrences.iter().filter(|o| o.input == input).count() as u64)
        .sum()
}

fn norm_quant(q: &str) -> String {
    q.to_ascii_uppercase().replace([' ', '-'], "")
}

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let reps = representatives(ev);
    if reps.len() < 2 {
        return Vec::new();
    }
    // The reference: the fastest decode; inputs without one compare against it too.
    let Some(&(ia, a)) = reps.iter().max_by(|x, y| {
        decode_tok_s(x.1)
            .unwrap_or(0.0)
            .total_cmp(&decode_tok_s(y.1).unwrap_or(0.0))
    }) else {
        return Vec::new();
    };
    let name = |i: InputId| {
        ev.inputs
            .get(i)
            .map_or_else(String::new, |f| f.name.clone())
    };
    let mut out = Vec::new();
    for &(ib, b) in &reps {
        if ib == ia {
            continue;
        }
        let (fa, fb) = (fallback_count(ev, ia), fallback_count(ev, ib));
        if fb > 0 && fa == 0 {
            out.push(Finding {
                id: "compare.fallback",
                severity: Severity::Critical,
                params: vec![("a", name(ia)), ("b", name(ib)), ("count", fb.to_string())],
                count: Some(fb),
                evidence: ev
                    .fallbacks
                    .iter()
                    .flat_map(|g| g.quotes.iter())
                    .filter(|(o, _)| o.input == ib)
                    .take(3)
                    .map(|(o, q)| EvidenceRef {
                        input: o.input,
                        lines: Some((o.line, o.line)),
                        time_s: None,
                        quote: Some(Quote::Input(q.clone())),
                    })
                    .collect(),
                lines: Vec::new(),
                lines_truncated: false,
            });
        }
        let mut push = |id: &'static str,
                        severity: Severity,
                        mut params: Vec<(&'static str, String)>,
                        qa: Quote,
                        qb: Quote| {
            params.insert(0, ("a", name(ia)));
            params.insert(1, ("b", name(ib)));
            out.push(Finding {
                id,
                severity,
                params,
                count: None,
                evidence: vec![run_ref(ev, a, qa), run_ref(ev, b, qb)],
                lines: Vec::new(),
                lines_truncated: false,
            });
        };
        if let (Some(da), Some(db)) = (decode_tok_s(a), decode_tok_s(b)) {
            if db > 0.0 {
                push(
                    "compare.decode-gap",
                    Severity::Info,
                    vec![
                        ("a_tok_s", fmt(da)),
                        ("b_tok_s", fmt(db)),
                        ("ratio", fmt(da / db)),
                    ],
                    Quote::phrase("quote.decode", vec![("tok_s", fmt(da))]),
                    Quote::phrase("quote.decode", vec![("tok_s", fmt(db))]),
                );
            }
        }
        if let (Some(wa), Some(wb)) = (weight_mib(a), weight_mib(b)) {
            if wb >= 1.5 * wa {
                push(
                    "compare.weights",
                    Severity::Critical,
                    vec![
                        ("a_size", size_of_mib(wa)),
                        ("b_size", size_of_mib(wb)),
                        ("ratio", fmt(wb / wa)),
                    ],
                    Quote::phrase("quote.weights", vec![("size", size_of_mib(wa))]),
                    Quote::phrase("quote.weights", vec![("size", size_of_mib(wb))]),
                );
            }
        }
        if let (Some(qa), Some(qb)) = (&a.quant, &b.quant) {
            if norm_quant(qa) != norm_quant(qb) {
                push(
                    "compare.quant",
                    Severity::Critical,
                    vec![("a_quant", qa.clone()), ("b_quant", qb.clone())],
                    Quote::phrase("quote.quant", vec![("quant", qa.to_string())]),
                    Quote::phrase("quote.quant", vec![("quant", qb.to_string())]),
                );
            }
        }
        let missing: Vec<&str> = KEY_FLAGS
            .iter()
            .copied()
            .filter(|f| {
                a.cpu_features.get(*f) == Some(&true) && b.cpu_features.get(*f) == Some(&false)
            })
            .collect();
        if !missing.is_empty() {
            let list = missing.join(", ");
            push(
                "compare.cpu-features",
                Severity::Critical,
                vec![("flags", list.clone())],
                Quote::Input(format!("{list} = 1")),
                Quote::Input(format!("{list} = 0")),
            );
        }
        if let (Some(ba), Some(bb)) = (&a.backend, &b.backend) {
            if !ba.eq_ignore_ascii_case(bb) {
                push(
                    "compare.backend",
                    Severity::Warning,
                    vec![("a_backend", ba.clone()), ("b_backend", bb.clone())],
                    Quote::phrase("quote.backend", vec![("backend", ba.to_string())]),
                    Quote::phrase("quote.backend", vec![("backend", bb.to_string())]),
                );
            }
        }
        if let (Some(ta), Some(tb)) = (a.n_threads, b.n_threads) {
            if ta != tb {
                let hw = |r: &Run| r.hw_threads.map_or_else(String::new, |h| format!(" / {h}"));
                push(
                    "compare.threads",
                    Severity::Warning,
                    vec![("a_threads", ta.to_string()), ("b_threads", tb.to_string())],
                    Quote::Input(format!("n_threads = {ta}{}", hw(a))),
                    Quote::Input(format!("n_threads = {tb}{}", hw(b))),
                );
            }
        }
        let size_differs = match (a.model_bytes, b.model_bytes) {
            (Some(x), Some(y)) => (x as f64 / y as f64 - 1.0).abs() > 0.02,
            _ => false,
        };
        if size_differs {
            let gb = |r: &Run| r.model_bytes.map_or_else(String::new, |m| size(m as f64));
            push(
                "compare.model",
                Severity::Warning,
                vec![("a_size", gb(a)), ("b_size", gb(b))],
                Quote::phrase("quote.model-file", vec![("size", gb(a))]),
                Quote::phrase("quote.model-file", vec![("size", gb(b))]),
            );
        }
        if let (Some(xa), Some(xb)) = (&a.build, &b.build) {
            if xa != xb {
                push(
                    "compare.build",
                    Severity::Info,
                    vec![("a_build", xa.clone()), ("b_build", xb.clone())],
                    Quote::phrase("quote.build", vec![("build", xa.to_string())]),
                    Quote::phrase("quote.build", vec![("build", xb.to_string())]),
                );
            }
        }
    }
    out
}

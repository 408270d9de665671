//! `compare.*`: device A versus device B. Runs of one model are grouped
//! ([`compare_groups`](super::compare_groups)); within each group every run is compared with the
//! group's reference, and each difference that explains a speed gap is a finding, the likeliest
//! causes first (fallbacks, expanded weights, quant, missing instructions, then backend, threads,
//! model file, build). Runs of different models are never compared.

use super::compare_groups::grouping;
use super::run_facts::{decode_tok_s, fmt, run_ref, weight_mib};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, InputId, Run};
use crate::figures::{size, size_of_mib};
use crate::views::Views;

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

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for g in grouping(ev).groups {
        let a = g.reference();
        for b in g.others() {
            pair(ev, (a.input, a.run), (b.input, b.run), &mut out);
        }
    }
    out
}

/// The findings of `b` against the reference `a`.
fn pair(ev: &Evidence, (ia, a): (InputId, &Run), (ib, b): (InputId, &Run), out: &mut Vec<Finding>) {
    let name = |i: InputId| {
        ev.inputs
            .get(i)
            .map_or_else(String::new, |f| f.name.clone())
    };
    let (fa, fb) = (fallback_count(ev, ia), fallback_count(ev, ib));
    if fb > 0 && fa == 0 {
        out.push(Finding {
            variant: None,
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
        out.push(Finding::new(
            id,
            severity,
            params,
            vec![run_ref(ev, a, qa), run_ref(ev, b, qb)],
        ));
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
        .filter(|f| a.cpu_features.get(*f) == Some(&true) && b.cpu_features.get(*f) == Some(&false))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Phase;

    fn add(ev: &mut Evidence, input: &str, model: &str, params: f64, tok_s: f64, threads: u32) {
        ev.add_input(input);
        ev.runs.push(Run {
            input: input.into(),
            model: Some(model.into()),
            params: Some(params),
            quant: Some("Q4_0".into()),
            n_threads: Some(threads),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Default::default()
            }),
            ..Default::default()
        });
    }

    #[test]
    fn only_runs_of_one_model_are_compared() {
        let mut ev = Evidence::default();
        add(&mut ev, "llama-a.log", "llama 7B Q4_0", 6.74e9, 9.8, 4);
        add(
            &mut ev,
            "qwen.log",
            "qwen2.5-0.5b-instruct-q4_0.gguf",
            4.9e8,
            79.2,
            4,
        );
        add(&mut ev, "llama-b.log", "llama 7B Q4_0", 6.74e9, 2.96, 8);
        let out = crate::diagnose::apply(rule, &ev);
        let gap = out.iter().find(|f| f.id == "compare.decode-gap");
        let params = &gap.expect("the llama pair is compared").params;
        assert!(
            params.contains(&("a", "llama-a.log".to_string())),
            "{params:?}"
        );
        assert!(
            params.contains(&("ratio", "3.31".to_string())),
            "{params:?}"
        );
        // No finding measures anything against the 0.5B run.
        for f in &out {
            assert!(f.params.iter().all(|(_, v)| v != "qwen.log"), "{f:?}");
        }
        assert_eq!(
            out.iter().filter(|f| f.id == "compare.decode-gap").count(),
            1
        );
    }
}

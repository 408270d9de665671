//! The bandwidth a decode achieved, without the probe: decoding one token reads every weight
//! once, so bytes per token × decode tok/s is the memory bandwidth the run used. Set against the
//! peak of the device that ran it (`views::memory_bandwidth`, a table of known devices) or
//! against the other runs of a sweep, it tells a run that is bandwidth-bound (nothing is wrong;
//! only fewer bytes per token go faster) from one whose figures cannot be right, and hints at a
//! run far below what its memory allows.
//!
//! - `bandwidth.at-ceiling` (info): the run decodes at 60% or more of what the ceiling model
//!   (`kernel::ceiling`, t = bytes/(η·BW) + c) expects at the device's peak, and uses at least
//!   35% of that peak. The model with the datasheet peak fits llama.cpp's published Apple
//!   silicon table (discussion #4167, LLaMA 7B Q4_0 tg128) within about 10%: M1 14.2 t/s
//!   (model 14.0), M2 Pro 38.9 (36.4), M1 Max 61.2 (61.3), M2 Ultra 94.3 (94.3); the M1 Ultra's
//!   74.9 is 80% of its 94. The raw share of peak falls with the bus width (M2 83%, M1 Ultra
//!   36%) because of the fixed cost per token, which is why the test is on the model and the
//!   floor on the share is low. Variant `sweep`: several runs of different sizes whose bytes ×
//!   tok/s agree within 15% are bandwidth-bound whatever the device. Variant `threads`: a thread
//!   sweep whose decode stops gaining at some count, with at least 1.5× that count tried and
//!   no more than 10% gained (nor 5% lost) past it: the cores are waiting on memory, the pattern
//!   llama.cpp's maintainers answer "more threads are not faster" with (issues #18, #163,
//!   #12966). Runs with layers on a GPU are left out: there the GPU sets the pace.
//! - `bandwidth.above-ceiling` (warning, a measurement problem): the achieved figure exceeds the
//!   device's peak by more than 10%. No decode reads weights faster than the memory delivers,
//!   so the tok/s, the size or the device is wrong. Mixture-of-experts models read only their
//!   active experts and are left out.
//! - `bandwidth.far-below` (warning): under a quarter of what the device allows, with the
//!   weights' place known. A hint, not a proof: the other layers say where the time went.

use super::bandwidth::fmt;
use super::run_facts::{decode_tok_s, params_from_name, quant_bits, quant_bits_from_name, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::kernel::ceiling::expected_tok_s;
use crate::views::memory_bandwidth::{for_run, RunDevice};
use crate::views::Views;

pub const IDS: &[&str] = &[
    "bandwidth.at-ceiling",
    "bandwidth.above-ceiling",
    "bandwidth.far-below",
];

/// Share of the model's expectation at which a run counts as at the ceiling (see module doc).
const AT_EXPECTED: f64 = 0.6;
/// ... provided it also uses this share of the peak: a tiny model on a wide bus is bound by the
/// fixed cost per token, not by the memory.
const AT_PEAK_FLOOR: f64 = 0.35;
/// Above this multiple of the peak the figures cannot be right (datasheet peaks are rounded,
/// sizes include embedding rows a token does not read).
const ABOVE_PEAK: f64 = 1.1;
/// Below this share of the expectation something else costs the time.
const FAR_BELOW_EXPECTED: f64 = 0.25;
/// A sweep's achieved bandwidths agree when their spread is within this share of their median.
const SWEEP_SPREAD: f64 = 0.15;
/// ... over sizes that differ at least this much (else a constant tok/s looks the same).
const SWEEP_SIZE_SPAN: f64 = 1.5;
/// A thread count within this share of the sweep's best decode has reached the plateau.
const PLATEAU_OF_BEST: f64 = 0.9;
/// ... and the sweep must try at least this multiple of that count.
const PLATEAU_SPAN: f64 = 1.5;
/// More threads that lose more than this share are `threads.sweep-slower`'s, not a plateau.
const PLATEAU_LOSS: f64 = 0.05;

/// What one run read per token and how fast.
struct Achieved<'a> {
    run: &'a Run,
    bytes: f64,
    tok_s: f64,
    /// GB/s.
    gbps: f64,
    bits: Option<f64>,
    /// The parameter count behind `bytes` when only the model's file name gave it.
    named_params: Option<f64>,
}

/// Bits per weight: as the log states them, else from the quant, else from size and params,
/// else from the quant the model's file name states.
fn bits_of(run: &Run) -> Option<f64> {
    run.bits_per_weight
        .or_else(|| quant_bits(run.quant.as_deref()?))
        .or_else(|| Some(run.model_bytes? as f64 * 8.0 / run.params?))
        .or_else(|| quant_bits_from_name(run.model.as_deref()?))
        .filter(|b| b.is_finite() && *b > 0.5 && *b <= 32.0)
}

/// A token of a mixture-of-experts model reads only the experts it uses.
fn is_moe(run: &Run) -> bool {
    matches!((run.n_expert, run.n_expert_used), (Some(n), _) if n > 1)
}

fn achieved(run: &Run) -> Option<Achieved<'_>> {
    if is_moe(run) {
        return None;
    }
    let tok_s = decode_tok_s(run).filter(|t| t.is_finite() && *t > 0.0)?;
    let bits = bits_of(run);
    // A size the log states beats one told from the model's name, which is an estimate.
    let named_params = match (run.model_bytes, run.params) {
        (None, None) => params_from_name(run.model.as_deref()?),
        _ => None,
    };
    let bytes = run
        .model_bytes
        .map(|b| b as f64)
        .or_else(|| Some(run.params.or(named_params)? * bits? / 8.0))
        .filter(|b| b.is_finite() && *b > 1e6)?;
    Some(Achieved {
        run,
        bytes,
        tok_s,
        gbps: bytes * tok_s / 1e9,
        bits,
        named_params,
    })
}

/// The next smaller common quant below `bits`, with its bits per weight.
fn smaller_quant(bits: f64) -> Option<(&'static str, f64)> {
    [
        ("Q8_0", 8.5, 12.0),
        ("Q4_K_M", 4.85, 6.0),
        ("Q3_K_M", 3.9, 4.4),
    ]
    .into_iter()
    .find(|(_, _, above)| bits > *above)
    .map(|(q, b, _)| (q, b))
}

/// The lever a bandwidth-bound run has: a smaller quant at the speed its bytes allow, or, below
/// 4.4 bits, a smaller model; either, when the bits per weight are not known.
fn lever(a: &Achieved) -> Vec<(&'static str, String)> {
    lever_of(a.bits, a.tok_s)
}

/// [`lever`] for a run decoding at `tok_s` with `bits` per weight, if known.
fn lever_of(bits: Option<f64>, tok_s: f64) -> Vec<(&'static str, String)> {
    match bits.and_then(|b| smaller_quant(b).map(|s| (b, s))) {
        Some((bits, (quant, to))) => vec![
            ("lever", "@bandwidth.lever.quant".to_string()),
            ("smaller_quant", quant.to_string()),
            ("smaller_tok_s", fmt(tok_s * bits / to)),
        ],
        None if bits.is_some() => vec![("lever", "@bandwidth.lever.model".to_string())],
        None => vec![("lever", "@bandwidth.lever.bytes".to_string())],
    }
}

fn quote(a: &Achieved) -> Quote {
    let mut params = vec![
        ("tok_s", fmt(a.tok_s)),
        ("model_size", crate::figures::size(a.bytes)),
        ("achieved_gbps", fmt(a.gbps)),
    ];
    match (a.named_params, a.bits) {
        (Some(p), Some(bits)) => {
            params.push(("params", crate::figures::params(p)));
            params.push(("bits", fmt(bits)));
            Quote::phrase("quote.bandwidth.achieved-named", params)
        }
        _ => Quote::phrase("quote.bandwidth.achieved", params),
    }
}

fn device_params(d: &RunDevice) -> Vec<(&'static str, String)> {
    vec![
        ("device", d.entry.name.clone()),
        ("named", d.named.clone()),
        ("peak_gbps", fmt(d.entry.gbps)),
        ("memory", d.entry.memory.clone()),
        ("source", d.entry.source.clone()),
    ]
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let runs: Vec<Achieved> = ev.runs.iter().filter_map(achieved).collect();
    let mut out: Vec<Finding> = Vec::new();
    // Runs of several sizes at one bandwidth say it for all of them: one run's own figure
    // would name only the first row of the sweep, and its lever would not be the fastest's.
    let mut swept = sweep(ev, &runs);
    let mut far_below = false;
    // One finding of each kind per input: a server log's requests, or a bundle's repeated runs,
    // say the same thing, and the first says it where it starts.
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for a in &runs {
        // A result the user quotes (a README's, a maintainer's) may come from another device:
        // it is compared with, never judged against this device's memory.
        if a.run.quoted {
            continue;
        }
        let Some(d) = for_run(ev, a.run) else {
            continue;
        };
        let peak = d.entry.gbps;
        let expected = expected_tok_s(a.bytes, peak);
        let of_expected = a.tok_s / expected;
        let of_peak = a.gbps / peak;
        let mut params = vec![
            ("tok_s", fmt(a.tok_s)),
            ("model_size", crate::figures::size(a.bytes)),
            ("achieved_gbps", fmt(a.gbps)),
            ("pct_of_peak", pct(of_peak)),
            ("expected_tok_s", fmt(expected)),
            ("pct_of_expected", pct(of_expected)),
        ];
        params.extend(device_params(&d));
        let (id, severity) = if of_peak > ABOVE_PEAK {
            (IDS[1], Severity::Warning)
        } else if of_expected >= AT_EXPECTED && of_peak >= AT_PEAK_FLOOR {
            // The sibling scan runs once per input: a repeated finding is dropped below anyway.
            if swept.is_some()
                || seen.contains(&(IDS[0], a.run.input.as_str()))
                || slower_sibling(&runs, a)
                || quoted_faster(&runs, a)
            {
                continue;
            }
            params.extend(lever(a));
            (IDS[0], Severity::Info)
        } else if d.placed
            && of_expected < FAR_BELOW_EXPECTED
            && !faster_sibling(&runs, a)
            && !long_context(a.run)
        {
            // A faster run of the same model beside it (a thread or build sweep) shows what
            // this device reaches: the fastest one is judged, and the sweep's rule explains
            // the slower ones.
            far_below = true;
            (IDS[2], Severity::Warning)
        } else {
            continue;
        };
        if seen.contains(&(id, a.run.input.as_str())) {
            continue;
        }
        seen.push((id, a.run.input.as_str()));
        out.push(Finding::new(
            id,
            severity,
            params,
            vec![run_ref(ev, a.run, quote(a))],
        ));
    }
    if !far_below && !out.iter().any(|f| f.id == IDS[0]) {
        out.extend(swept.take());
    }
    // Beside a device's figure too: it answers "why are more threads not faster?".
    if !far_below {
        out.extend(ev.runs.iter().find_map(|r| thread_plateau(ev, r)));
    }
    out
}

/// Another run of the same model in the same input decodes far slower than `a` (a user's run
/// beside the figure they expected): `a` at the ceiling does not say the device is fine, since
/// the slower one is the question.
fn slower_sibling(runs: &[Achieved], a: &Achieved) -> bool {
    runs.iter().any(|b| {
        b.run.input == a.run.input
            && b.run.model.is_some()
            && b.run.model == a.run.model
            && b.tok_s < a.tok_s * AT_EXPECTED
    })
}

/// A result the user quotes for the same model decodes well above `a`: "nothing is wrong" would
/// contradict the figure they compare with (`measure.reference-gap` states the gap).
fn quoted_faster(runs: &[Achieved], a: &Achieved) -> bool {
    runs.iter().any(|b| {
        b.run.quoted
            && b.run.input == a.run.input
            && b.run.model == a.run.model
            && b.tok_s > a.tok_s * super::measure_reference::SLOWER
    })
}

/// Context (prompt and half the generated tokens) past which the KV cache a decode step reads
/// may rival the weights: 32K tokens of Llama 3.1 8B's cache are about 4 GiB against its 4.6 GiB
/// of Q4 weights, and 2K tokens of a small model's cache are a tenth of it already.
const LONG_CONTEXT: u64 = 2048;

/// The weights alone undercount what each step read when the context is long, so the run may
/// be at its ceiling while the weights' figure says it is far below.
fn long_context(run: &Run) -> bool {
    let prompt = run.prefill.as_ref().and_then(|p| p.tokens).unwrap_or(0);
    let generated = run.decode.as_ref().and_then(|d| d.tokens).unwrap_or(0);
    prompt + generated / 2 >= LONG_CONTEXT
}

/// Another run of the same model in the same input decodes faster than `a`.
fn faster_sibling(runs: &[Achieved], a: &Achieved) -> bool {
    runs.iter().any(|b| {
        b.run.input == a.run.input
            && b.run.model.is_some()
            && b.run.model == a.run.model
            && b.tok_s > a.tok_s
    })
}

/// A run's decode as a share of what the ceiling model expects on the device the inputs name,
/// with that device, the achieved GB/s and the quote that shows the sum: for rules that read
/// the gap as another layer's.
pub(super) fn share_of_expected(ev: &Evidence, run: &Run) -> Option<(f64, f64, RunDevice, Quote)> {
    let a = achieved(run)?;
    let d = for_run(ev, run)?;
    let expected = expected_tok_s(a.bytes, d.entry.gbps);
    Some((a.tok_s / expected, a.gbps, d, quote(&a)))
}

/// A thread sweep whose decode stops gaining: see the module doc.
fn thread_plateau(ev: &Evidence, run: &Run) -> Option<Finding> {
    if run
        .offload
        .as_ref()
        .is_some_and(|o| o.gpu_layers.is_some_and(|g| g > 0))
    {
        return None;
    }
    let mut rows: Vec<(u32, f64)> = run
        .bench
        .iter()
        .filter(|b| b.test.starts_with("tg") && b.tok_s.is_finite() && b.tok_s > 0.0)
        .filter_map(|b| Some((b.n_threads?, b.tok_s)))
        .collect();
    rows.sort_by_key(|r| r.0);
    let best = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    let &(knee, knee_tok_s) = rows.iter().find(|r| r.1 >= PLATEAU_OF_BEST * best)?;
    let &(many, many_tok_s) = rows.last()?;
    if f64::from(many) < PLATEAU_SPAN * f64::from(knee)
        || rows
            .iter()
            .any(|r| r.0 > knee && r.1 < (1.0 - PLATEAU_LOSS) * best)
    {
        return None;
    }
    let mut params = vec![
        ("framework", super::run_facts::framework_label(run)),
        ("few", knee.to_string()),
        ("few_tok_s", fmt(knee_tok_s)),
        ("many", many.to_string()),
        ("many_tok_s", fmt(many_tok_s)),
        (
            "gain_pct",
            format!("{:+.0}", 100.0 * (many_tok_s / knee_tok_s - 1.0)),
        ),
    ];
    params.extend(lever_of(bits_of(run), best));
    Some(
        Finding::new(
            IDS[0],
            Severity::Info,
            params,
            vec![run_ref(
                ev,
                run,
                super::threads::sweep_quote("tg", (knee, knee_tok_s), (many, many_tok_s)),
            )],
        )
        .with_variant(Some("threads")),
    )
}

/// Runs of one device (one input, or inputs naming the same device) whose sizes differ and whose
/// bytes × tok/s agree: the memory sets the pace, whatever the device's peak.
fn sweep(ev: &Evidence, runs: &[Achieved]) -> Option<Finding> {
    if runs.len() < 2 {
        return None;
    }
    let same_input = runs.iter().all(|a| a.run.input == runs[0].run.input);
    let same_device = !runs[0].run.devices.is_empty()
        && runs.iter().all(|a| a.run.devices == runs[0].run.devices);
    if !same_input && !same_device {
        return None;
    }
    let (lo_b, hi_b) = min_max(runs.iter().map(|a| a.bytes));
    if hi_b < SWEEP_SIZE_SPAN * lo_b {
        return None;
    }
    let mut bw: Vec<f64> = runs.iter().map(|a| a.gbps).collect();
    bw.sort_by(f64::total_cmp);
    let median = bw[bw.len() / 2];
    let (lo, hi) = (bw[0], bw[bw.len() - 1]);
    if median <= 0.0 || (hi - lo) / median > SWEEP_SPREAD {
        return None;
    }
    // The lever is told from the smallest run: it is the fastest, the speed the headline gives,
    // so only a quant or model smaller than every one tried goes faster still.
    let smallest = runs.iter().min_by(|a, b| a.bytes.total_cmp(&b.bytes))?;
    let (lo_t, hi_t) = min_max(runs.iter().map(|a| a.tok_s));
    let mut params = vec![
        ("runs", runs.len().to_string()),
        (
            "sizes",
            crate::figures::size(lo_b) + "–" + &crate::figures::size(hi_b),
        ),
        ("tok_s_range", format!("{}–{}", fmt(lo_t), fmt(hi_t))),
        ("achieved_gbps", fmt(median)),
        ("spread_pct", format!("{:.0}", 100.0 * (hi - lo) / median)),
        ("tok_s", fmt(smallest.tok_s)),
    ];
    params.extend(lever(smallest));
    Some(Finding {
        variant: Some("sweep"),
        id: IDS[0],
        severity: Severity::Info,
        params,
        count: Some(runs.len() as u64),
        evidence: runs.iter().map(|a| run_ref(ev, a.run, quote(a))).collect(),
        lines: Vec::new(),
        lines_truncated: false,
    })
}

/// A share as a percentage: whole numbers, and two decimals under 1% (a run at 0.03% of its
/// memory is not at "0%").
fn pct(share: f64) -> String {
    let p = 100.0 * share;
    if p < 0.995 {
        format!("{p:.2}")
    } else {
        format!("{p:.0}")
    }
}

fn min_max(it: impl Iterator<Item = f64>) -> (f64, f64) {
    it.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Phase;

    fn run(input: &str, device: Option<&str>, bytes: u64, tok_s: f64, quant: &str) -> Run {
        Run {
            input: input.into(),
            line_start: Some(3),
            line_end: Some(40),
            devices: device.map(|d| vec![d.to_string()]).unwrap_or_default(),
            model_bytes: Some(bytes),
            quant: Some(quant.into()),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Phase::default()
            }),
            ..Run::default()
        }
    }

    fn ev(runs: Vec<Run>) -> Evidence {
        let mut ev = Evidence::default();
        for r in &runs {
            if !ev.inputs.iter().any(|i| i.name == r.input) {
                ev.add_input(&r.input);
            }
        }
        ev.runs = runs;
        ev
    }

    fn param<'a>(f: &'a Finding, name: &str) -> &'a str {
        &f.params.iter().find(|(k, _)| *k == name).unwrap().1
    }

    #[test]
    fn an_m2_pro_near_its_200_gbps_is_at_the_ceiling_with_a_smaller_quant_named() {
        // Mistral 7B Q4_K_M, 4.37 GB at 34 tok/s: 149 GB/s of 200; the model expects 33.6.
        let f = crate::diagnose::apply(
            rule,
            &ev(vec![run(
                "m2.log",
                Some("Apple M2 Pro"),
                4_370_000_000,
                34.0,
                "Q4_K - Medium",
            )]),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "bandwidth.at-ceiling");
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(param(&f[0], "pct_of_peak"), "74");
        assert_eq!(param(&f[0], "lever"), "@bandwidth.lever.quant");
        assert_eq!(param(&f[0], "smaller_quant"), "Q3_K_M");
    }

    #[test]
    fn a_run_at_the_ceiling_beside_a_far_slower_one_of_the_same_model_is_not_the_answer() {
        // The user's 15 tok/s pasted beside the 34 tok/s they expected: the device is not
        // shown to be fine.
        let mut mine = run(
            "q.md",
            Some("Apple M2 Pro"),
            4_370_000_000,
            15.0,
            "Q4_K - Medium",
        );
        let mut theirs = run(
            "q.md",
            Some("Apple M2 Pro"),
            4_370_000_000,
            34.0,
            "Q4_K - Medium",
        );
        mine.model = Some("mistral-7b".into());
        theirs.model = Some("mistral-7b".into());
        let f = crate::diagnose::apply(rule, &ev(vec![mine, theirs]));
        assert!(f.iter().all(|f| f.id != "bandwidth.at-ceiling"), "{f:?}");
    }

    #[test]
    fn figures_above_the_peak_are_a_measurement_problem_unless_the_model_is_moe() {
        // 4.37 GB at 80 tok/s is 350 GB/s on a 200 GB/s machine.
        let r = run(
            "m2.log",
            Some("Apple M2 Pro"),
            4_370_000_000,
            80.0,
            "Q4_K - Medium",
        );
        let f = crate::diagnose::apply(rule, &ev(vec![r.clone()]));
        assert_eq!(f[0].id, "bandwidth.above-ceiling");
        assert_eq!(f[0].severity, Severity::Warning);
        let moe = Run {
            n_expert: Some(8),
            n_expert_used: Some(2),
            ..r
        };
        assert!(crate::diagnose::apply(rule, &ev(vec![moe])).is_empty());
    }

    #[test]
    fn far_below_needs_the_weights_placed() {
        // An RTX 4090 at 8 tok/s for 4.37 GB: 35 GB/s of 1008.
        let mut r = run(
            "cuda.log",
            Some("NVIDIA GeForce RTX 4090"),
            4_370_000_000,
            8.0,
            "Q4_K - Medium",
        );
        assert!(
            crate::diagnose::apply(rule, &ev(vec![r.clone()])).is_empty(),
            "placement unknown"
        );
        r.buffers_mib.insert("CUDA0 model".into(), 4095.0);
        r.buffers_mib.insert("CPU model".into(), 70.0);
        let f = crate::diagnose::apply(rule, &ev(vec![r.clone()]));
        assert_eq!(f[0].id, "bandwidth.far-below");
        // After a 32K-token prompt the KV cache each step reads is not in the figure.
        let long = Run {
            prefill: Some(crate::evidence::Phase {
                tokens: Some(32_159),
                ..Default::default()
            }),
            ..r.clone()
        };
        assert!(crate::diagnose::apply(rule, &ev(vec![long])).is_empty());
        // Weights on the CPU side: the card's VRAM is not what was read, and the desktop's
        // memory is unknown.
        r.buffers_mib.insert("CPU model".into(), 40_000.0);
        assert!(crate::diagnose::apply(rule, &ev(vec![r])).is_empty());
    }

    #[test]
    fn a_sweep_of_quants_at_one_bandwidth_is_bandwidth_bound_without_a_table() {
        // 7B at Q8_0, Q4_K_M, Q2_K on an unnamed machine: about 38 GB/s each.
        let runs = vec![
            run("sweep.md", None, 7_700_000_000, 4.9, "Q8_0"),
            run("sweep.md", None, 4_370_000_000, 8.8, "Q4_K_M"),
            run("sweep.md", None, 2_830_000_000, 13.2, "Q2_K"),
        ];
        let f = crate::diagnose::apply(rule, &ev(runs.clone()));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].variant, Some("sweep"));
        assert_eq!(f[0].count, Some(3));
        // The smallest tried, Q2_K, is already below the common quants: a smaller model is left.
        assert_eq!(param(&f[0], "lever"), "@bandwidth.lever.model");
        assert!(f[0].params.iter().all(|(k, _)| *k != "smaller_quant"));
        // Speeds that do not follow the size are no bandwidth sweep.
        let mut flat = runs;
        flat[0].decode.as_mut().unwrap().tok_s = Some(8.8);
        assert!(crate::diagnose::apply(rule, &ev(flat)).is_empty());
    }

    #[test]
    fn an_unknown_device_alone_says_nothing() {
        let f = crate::diagnose::apply(
            rule,
            &ev(vec![run(
                "x.log",
                Some("Mystery GPU"),
                4_370_000_000,
                20.0,
                "Q4_0",
            )]),
        );
        assert!(f.is_empty());
    }

    fn thread_sweep(rows: &[(u32, f64)]) -> Run {
        Run {
            input: "sweep.md".into(),
            line_start: Some(5),
            line_end: Some(9),
            bench: rows
                .iter()
                .map(|&(t, v)| crate::evidence::BenchRow {
                    test: "tg".into(),
                    tok_s: v,
                    stddev: None,
                    n_threads: Some(t),
                })
                .collect(),
            ..Run::default()
        }
    }

    #[test]
    fn a_thread_sweep_that_stops_gaining_is_bandwidth_bound() {
        let flat = thread_sweep(&[(4, 6.9), (8, 8.8), (16, 9.1), (32, 8.9)]);
        let f = crate::diagnose::apply(rule, &ev(vec![flat.clone()]));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            (f[0].id, f[0].variant()),
            ("bandwidth.at-ceiling", Some("threads"))
        );
        assert_eq!(param(&f[0], "few"), "8");
        assert_eq!(param(&f[0], "many"), "32");
        assert_eq!(param(&f[0], "gain_pct"), "+1");
        assert_eq!(param(&f[0], "lever"), "@bandwidth.lever.bytes");
        // Still gaining at the top: not a plateau.
        let scaling = thread_sweep(&[(1, 7.9), (2, 14.6), (4, 24.1), (6, 26.8), (8, 27.4)]);
        assert!(crate::diagnose::apply(rule, &ev(vec![scaling])).is_empty());
        // More threads that lose are the threads rule's, not a ceiling.
        let slower = thread_sweep(&[(4, 12.0), (8, 12.1), (16, 9.0)]);
        assert!(crate::diagnose::apply(rule, &ev(vec![slower])).is_empty());
        // With layers on a GPU, the GPU sets the pace.
        let offloaded = Run {
            offload: Some(crate::evidence::Offload {
                gpu_layers: Some(20),
                model_layers: Some(41),
                ..Default::default()
            }),
            ..flat
        };
        assert!(crate::diagnose::apply(rule, &ev(vec![offloaded])).is_empty());
    }
}

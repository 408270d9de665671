//! The verdict: the findings grouped into causes, ranked the way seed 000 checks a slow device
//! (a failed run, then the framework and quant path, threads and scheduling, power, heat and
//! supply, and last the hardware ceiling), each with an estimated factor and its basis, and a
//! headline that answers "why is it slow?".
//!
//! Factors are estimates from the findings' own figures, never measurements: decode reads every
//! weight once per token, so weights at 1.8× their expected bytes cost about 1.8×; a clock
//! capped 42% costs at most 1/(1 − 0.42) ≈ 1.7×; little-core residency costs 1/((1 − s) + s·r)
//! with s the share on little cores and r their clock relative to the big ones.

use super::compare_groups::{grouping, representatives};
use super::run_facts::{decode_tok_s, fmt, input_of, prefill_tok_s};
use super::{Finding, Phrase, Severity};
use crate::evidence::Evidence;
use crate::views::topology::Cluster;
use crate::views::Views;

/// The layers of the diagnosis, in the order the seed checks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    Failed,
    /// The model against the memory it must stay in: past it, weights come from storage every
    /// token, which no build, thread or power fix makes up for.
    Memory,
    Build,
    Threads,
    Power,
    Ceiling,
    Measure,
}

impl Layer {
    /// The cause id in the report, and the catalogue key suffix `verdict.cause.<id>`.
    pub fn id(self) -> &'static str {
        match self {
            Layer::Failed => "failed",
            Layer::Memory => "memory",
            Layer::Build => "build",
            Layer::Threads => "threads",
            Layer::Power => "power",
            Layer::Ceiling => "ceiling",
            Layer::Measure => "measure",
        }
    }

    /// The layer a finding belongs to; `None` for the compare headline, which the gap carries.
    pub fn of(id: &str) -> Option<Layer> {
        let prefix = id.split('.').next().unwrap_or(id);
        Some(match (prefix, id) {
            (_, "compare.decode-gap") => return None,
            // Figures beyond what the memory delivers are a measurement to redo, not a ceiling.
            (_, "bandwidth.above-ceiling") => Layer::Measure,
            ("run", _) => Layer::Failed,
            (_, "memory.over-budget" | "memory.low-available") => Layer::Memory,
            (_, "compare.threads") => Layer::Threads,
            // A low average clock is a cap or little cores; the clock is what it measures.
            (_, "counters.low-clock") => Layer::Power,
            ("fallback" | "quant" | "cpu" | "offload" | "compare", _) => Layer::Build,
            ("threads" | "sched", _) => Layer::Threads,
            ("thermal" | "power" | "throttle", _) => Layer::Power,
            ("bandwidth", _) => Layer::Ceiling,
            _ => Layer::Measure,
        })
    }
}

/// One cause: the findings that share a root, its severity (their worst) and its estimated size.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    pub layer: Layer,
    pub severity: Severity,
    /// Indexes into the findings the verdict was built from, in their order.
    pub findings: Vec<usize>,
    /// The finding that names the cause: the sized one at the cause's severity, else the first.
    pub lead: usize,
    /// Estimated slowdown this cause accounts for (≥ 1), when the data allows one.
    pub factor: Option<f64>,
    /// How the factor was estimated (one phrase per mechanism that compounds into it, largest
    /// first), or what would size it.
    pub basis: Vec<Phrase>,
}

/// A comparison's gap, split into what the sized causes explain and what is left.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub factor: f64,
    pub explained_factor: f64,
    pub unexplained_factor: f64,
    /// The `compare.decode-gap` finding it comes from.
    pub finding: usize,
}

/// The key numbers of one input's run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunNumbers {
    pub input: String,
    pub decode_tok_s: Option<f64>,
    pub prefill_tok_s: Option<f64>,
    /// The bandwidth ceiling for this run, when a bandwidth was measured.
    pub ceiling_tok_s: Option<f64>,
    /// Milliseconds per inference of a model that makes no tokens (TFLite `benchmark_model`).
    pub latency_ms: Option<f64>,
    /// The reference run of a comparison (device A).
    pub reference: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Sentences, in order, that make the headline.
    pub headline: Vec<Phrase>,
    pub runs: Vec<RunNumbers>,
    pub causes: Vec<Cause>,
    pub gap: Option<Gap>,
    /// What to add to decide what the inputs cannot.
    pub next: Vec<Phrase>,
}

impl Verdict {
    /// Re-points finding indexes at the report's cards, where one card holds every finding of an
    /// id: `card_of[i]` is the card of finding `i`.
    pub fn point_at_cards(&mut self, card_of: &[usize]) {
        let card = |i: usize| card_of.get(i).copied().unwrap_or(i);
        for c in &mut self.causes {
            let mut cards: Vec<usize> = Vec::new();
            for &i in &c.findings {
                if !cards.contains(&card(i)) {
                    cards.push(card(i));
                }
            }
            c.findings = cards;
            c.lead = card(c.lead);
        }
        if let Some(g) = &mut self.gap {
            g.finding = card(g.finding);
        }
    }
}

/// The finding parameters the verdict reads to size and word its causes: values a rule gives for
/// the verdict even where none of the finding's own texts shows them.
pub const VERDICT_PARAMS: &[&str] = &[
    "a",
    "a_ms",
    "a_tok_s",
    "achieved_gbps",
    "b",
    "b_ms",
    "b_tok_s",
    "background_tok_s",
    "backend",
    "best_mode",
    "best_tok_s",
    "bw_ratio",
    "capped_pct",
    "ceiling_tok_s",
    "cpu_share",
    "cpu_tok_s",
    "cur_mhz",
    "device",
    "expected_tok_s",
    "fast_build",
    "fast_tok_s",
    "few",
    "few_tok_s",
    "front_tok_s",
    "first_tok_s",
    "flags",
    "gpu_tok_s",
    "input",
    "last_tok_s",
    "lever",
    "line",
    "little_clock_ratio",
    "little_share",
    "many",
    "many_tok_s",
    "max_mhz",
    "mode",
    "mode_tok_s",
    "pct_of_expected",
    "pct_of_peak",
    "peak_gbps",
    "prefill_decode",
    "ratio",
    "ratio_pct",
    "runs",
    "share",
    "slow_build",
    "slow_tok_s",
    "slower_pct",
    "smaller_quant",
    "smaller_tok_s",
    "stage",
    "tok_s",
    "trials",
    "what",
];

/// A finding parameter as a number (`"42"`, `"73%"`, `"1.8"`).
fn num(f: &Finding, name: &str) -> Option<f64> {
    debug_assert!(
        VERDICT_PARAMS.contains(&name),
        "{name} is not in VERDICT_PARAMS"
    );
    let v = f.param(name)?.trim();
    v.trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

fn param(f: &Finding, name: &str) -> String {
    debug_assert!(
        VERDICT_PARAMS.contains(&name),
        "{name} is not in VERDICT_PARAMS"
    );
    f.param(name).unwrap_or_default().to_string()
}

/// Factors are said with two significant figures: they are estimates.
fn round_factor(x: f64) -> f64 {
    if x >= 10.0 {
        x.round()
    } else {
        (x * 10.0).round() / 10.0
    }
}

/// A factor as the texts say it: 1.7, 14, 23.5.
pub fn fmt_factor(x: f64) -> String {
    let s = format!("{x:.1}");
    match s.strip_suffix(".0") {
        Some(whole) if x >= 10.0 => whole.to_string(),
        _ => s,
    }
}

/// Findings that name why a run failed, so their cause leads the failed run's.
const EXPLAINS_FAILURE: &[&str] = &["offload.gpu-mode"];

/// Findings that show the slowdown happening rather than what causes it, given the ids beside
/// it in its cause: a log's "falling back to CPU" is what `offload.gpu-unused` explains (no GPU
/// found, a driver too old, no layer asked for).
fn is_symptom(id: &str, beside: &[&str]) -> bool {
    match id {
        "thermal.sustained-decay" => true,
        "fallback.cpu" => beside.contains(&"offload.gpu-unused"),
        // Both came with Armv8.2: beside a user's fp16 question on a CPU without fp16, the
        // missing dot product is the same old core, and the fp16 finding answers what they asked.
        "cpu.missing-dotprod" => beside.contains(&"cpu.missing-fp16"),
        // A build that decodes slower is what the user saw; a thread finding on the same
        // input is how (a release's new default thread count: llama.cpp #7176).
        "compare.build-gap" => beside.iter().any(|b| b.starts_with("threads.")),
        _ => false,
    }
}

/// What an estimate measures. Estimates of one mechanism describe the same loss and overlap (the
/// largest stands); estimates of different mechanisms compound: weights expanded to twice their
/// bytes double the memory traffic, and a generic kernel is slower on every byte it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mechanism {
    /// Bytes moved per token.
    Traffic,
    /// Work per byte: the kernels the build has.
    Kernels,
    /// Everything else a cause's findings size (threads, clocks, the ceiling): one figure each.
    Other,
}

/// One finding's estimate: the factor, how it was made, and what it measures.
struct Estimate {
    factor: f64,
    basis: Phrase,
    mechanism: Mechanism,
}

/// Published measurements the estimates are calibrated on, where a finding's own figures cannot
/// size it. Each is the low end of what was reported, so a cause is not overstated.
///
/// - A build without the int8 dot product (armv8-a) against one with it (armv8.6-a+dotprod+i8mm),
///   llama-bench on a Pixel 10a, q4_0 models, 6 threads: decode (tg64) 2.0–2.1× slower, prompt
///   processing (pp128) 3.9–4.7× slower (trevornk/ramblr issue 187, 2026). Arm's dot-product
///   GEMV kernels gave 2× decode over the plain NEON dot on Graviton3 (ggml-org/llama.cpp PR
///   5780), and NEON+DP against NEON alone 1.7× on a Snapdragon 7 Gen 3 (PR 23358).
/// - Threads spread over every core of a phone: on an SM8550, 6 or more threads pull in the
///   Cortex-A510 efficiency cores and cost 30–40% of decode (omnimind-ai/OmniInfer PR 66); seed
///   000 measured 7 → 22 tok/s once the threads were bound to the 4 big cores.
mod calibration {
    /// Decode slowdown of the generic kernels when decode is memory-bound (the usual case).
    pub const NO_DOTPROD_DECODE: f64 = 2.0;
    /// The slowdown when decode is bound by the kernels themselves: it then scales like prompt
    /// processing, which the missing instruction slows the most.
    pub const NO_DOTPROD_COMPUTE: f64 = 3.9;
    /// A decode whose prefill is less than this many times faster is bound by its kernels: on
    /// the same phone the dot-product build prefills 7.2× faster than it decodes, the generic
    /// build 3.2× (ramblr issue 187); a memory-bound CPU decode prefills 5–20× faster.
    pub const COMPUTE_BOUND_BELOW: f64 = 2.5;
    /// Threads on every core of a big.LITTLE phone, little cores included.
    pub const ALL_CORES_PHONE: f64 = 1.4;
    /// How much faster an accelerator runs the ops a profile shows on the CPU, once they are
    /// moved to it: TensorFlow Lite's delegate guide gives "up to 5×" lower latency for GPUs
    /// (tensorflow.org/lite/performance/delegates). The best case bounds the estimate.
    pub const ACCELERATOR_SPEEDUP: f64 = 5.0;
}

/// The estimate one finding gives, with its basis.
fn estimate(f: &Finding) -> Option<Estimate> {
    let from_pct_lost = |pct: f64| (pct > 0.0 && pct < 100.0).then(|| 100.0 / (100.0 - pct));
    let mut mechanism = Mechanism::Other;
    let (factor, key, params) = match f.id {
        "quant.weights-expanded" | "compare.weights" => {
            let r = num(f, "ratio")?;
            mechanism = Mechanism::Traffic;
            (
                r,
                "verdict.basis.weights",
                vec![("ratio", param(f, "ratio"))],
            )
        }
        // The instruction the integer kernels are built on: its absence costs on every byte.
        "cpu.missing-dotprod" => {
            mechanism = Mechanism::Kernels;
            match num(f, "prefill_decode") {
                Some(r) if r < calibration::COMPUTE_BOUND_BELOW => (
                    calibration::NO_DOTPROD_COMPUTE,
                    "verdict.basis.kernels-compute",
                    vec![("prefill_decode", fmt(r))],
                ),
                _ => (
                    calibration::NO_DOTPROD_DECODE,
                    "verdict.basis.kernels",
                    Vec::new(),
                ),
            }
        }
        "compare.cpu-features"
            if param(f, "flags")
                .split(", ")
                .any(|flag| flag == "DOTPROD" || flag == "i8sdot") =>
        {
            mechanism = Mechanism::Kernels;
            (
                calibration::NO_DOTPROD_DECODE,
                "verdict.basis.kernels",
                Vec::new(),
            )
        }
        // Every core of a phone, little ones included (the rule fires on ARM with 6 or more).
        "threads.all-cores" => (
            calibration::ALL_CORES_PHONE,
            "verdict.basis.all-cores",
            Vec::new(),
        ),
        // Decode streams every layer once per token, each from the memory it sits in, so time
        // per token goes as s/BW_cpu + (1 − s)/BW_gpu; a full offload removes the first term's
        // excess. Only for a discrete GPU, with its memory taken `bw_ratio`× faster.
        "offload.partial" => {
            let s = num(f, "cpu_share")? / 100.0;
            let r = num(f, "bw_ratio")?;
            (
                s * r + (1.0 - s),
                // A share told from a layer bound is a floor, and the basis says so.
                if f.variant == Some("asked") {
                    "verdict.basis.offload-asked"
                } else {
                    "verdict.basis.offload"
                },
                vec![
                    ("share", param(f, "cpu_share")),
                    ("ratio", param(f, "bw_ratio")),
                ],
            )
        }
        // Amdahl over the profile: the CPU's share of the time, moved to the accelerator at its
        // best-case speed.
        "offload.cpu-time" => {
            let s = num(f, "cpu_share")? / 100.0;
            (
                1.0 / ((1.0 - s) + s / calibration::ACCELERATOR_SPEEDUP),
                "verdict.basis.cpu-time",
                vec![
                    ("share", param(f, "cpu_share")),
                    (
                        "speedup",
                        format!("{:.0}", calibration::ACCELERATOR_SPEEDUP),
                    ),
                ],
            )
        }
        "sched.little-cores" => {
            let s = num(f, "little_share")?;
            let r = num(f, "little_clock_ratio")?;
            let x = 1.0 / ((1.0 - s) + s * r);
            (
                x,
                "verdict.basis.little-cores",
                vec![("share", param(f, "share")), ("clock", format!("{r:.2}"))],
            )
        }
        "threads.efficiency-cores" if f.variant == Some("background") => {
            let (front, behind) = (num(f, "front_tok_s")?, num(f, "background_tok_s")?);
            (
                front / behind,
                "verdict.basis.background",
                vec![
                    ("front_tok_s", param(f, "front_tok_s")),
                    ("background_tok_s", param(f, "background_tok_s")),
                ],
            )
        }
        "threads.sweep-slower"
        | "threads.over-usable"
        | "threads.smt-siblings"
        | "threads.efficiency-cores" => {
            let (few, many) = (num(f, "few_tok_s")?, num(f, "many_tok_s")?);
            (
                few / many,
                "verdict.basis.sweep",
                vec![
                    ("few", param(f, "few")),
                    ("many", param(f, "many")),
                    ("few_tok_s", param(f, "few_tok_s")),
                    ("many_tok_s", param(f, "many_tok_s")),
                ],
            )
        }
        // A sagging supply rail (variant `rail`) carries the cap it caused.
        "thermal.wall" | "power.wall" | "throttle.undetermined" | "power.under-voltage" => {
            let p = num(f, "capped_pct")?;
            (
                from_pct_lost(p)?,
                "verdict.basis.clock",
                vec![("pct", param(f, "capped_pct"))],
            )
        }
        // A CPU clock a status tool read under load: decode on the CPU scales at most with it.
        "power.cpu-clock-low" => {
            let p = num(f, "capped_pct")?;
            (
                from_pct_lost(p)?,
                "verdict.basis.cpu-clock",
                vec![("cur", param(f, "cur_mhz")), ("max", param(f, "max_mhz"))],
            )
        }
        "thermal.freq-capped" => {
            let share = num(f, "share")?;
            (
                100.0 / share.max(1.0),
                "verdict.basis.clock-share",
                vec![("share", param(f, "share"))],
            )
        }
        "power.charging-contention" | "power.low-battery" => {
            let p = num(f, "slower_pct")?;
            (
                from_pct_lost(p)?,
                "verdict.basis.slower",
                vec![("pct", param(f, "slower_pct"))],
            )
        }
        // The faster build of the same program on the same machine.
        "compare.stage-gap" => (
            num(f, "ratio")?,
            "verdict.basis.stage-gap",
            vec![
                ("stage", param(f, "stage")),
                ("a_ms", param(f, "a_ms")),
                ("b_ms", param(f, "b_ms")),
            ],
        ),
        // The faster build of the same model on the same machine.
        "compare.build-gap" => (
            num(f, "ratio")?,
            "verdict.basis.build-gap",
            vec![
                ("slow_build", param(f, "slow_build")),
                ("slow_tok_s", param(f, "slow_tok_s")),
                ("fast_build", param(f, "fast_build")),
                ("fast_tok_s", param(f, "fast_tok_s")),
            ],
        ),
        // The CPU run of the same model on the same machine: the speed moving there gives.
        "offload.gpu-slower" => (
            num(f, "ratio")?,
            "verdict.basis.gpu-slower",
            vec![
                ("cpu_tok_s", param(f, "cpu_tok_s")),
                ("gpu_tok_s", param(f, "gpu_tok_s")),
                ("backend", param(f, "backend")),
            ],
        ),
        "power.mode-sweep" => (
            num(f, "ratio")?,
            "verdict.basis.mode-sweep",
            vec![
                ("mode", param(f, "mode")),
                ("mode_tok_s", param(f, "mode_tok_s")),
                ("best_mode", param(f, "best_mode")),
                ("best_tok_s", param(f, "best_tok_s")),
            ],
        ),
        "power.trials-decline" => {
            let r = num(f, "ratio_pct")?;
            (
                100.0 / r.max(1.0),
                "verdict.basis.trials",
                vec![
                    ("trials", param(f, "trials")),
                    ("first_tok_s", param(f, "first_tok_s")),
                    ("last_tok_s", param(f, "last_tok_s")),
                ],
            )
        }
        "thermal.sustained-decay" => {
            let r = num(f, "ratio_pct")?;
            (
                100.0 / r.max(1.0),
                "verdict.basis.decay",
                vec![("pct", param(f, "ratio_pct"))],
            )
        }
        "bandwidth.below-ceiling" if f.severity != Severity::Info => {
            let p = num(f, "pct_of_expected")?;
            (
                100.0 / p.max(1.0),
                "verdict.basis.ceiling",
                vec![
                    ("pct", param(f, "pct_of_expected")),
                    ("expected_tok_s", param(f, "expected_tok_s")),
                ],
            )
        }
        "bandwidth.far-below" => {
            let p = num(f, "pct_of_expected")?;
            (
                100.0 / p.max(1.0),
                "verdict.basis.device-ceiling",
                vec![
                    ("pct", param(f, "pct_of_expected")),
                    ("expected_tok_s", param(f, "expected_tok_s")),
                    ("device", param(f, "device")),
                    ("peak_gbps", param(f, "peak_gbps")),
                ],
            )
        }
        _ => return None,
    };
    (factor.is_finite() && factor > 1.0).then(|| Estimate {
        factor: round_factor(factor),
        basis: Phrase::new(key, params),
        mechanism,
    })
}

/// A cause's size from its findings' estimates: the largest of each mechanism, multiplied across
/// mechanisms, with the bases largest first. `None` when no finding sizes it.
fn combine(estimates: Vec<(usize, Estimate)>) -> Option<(usize, f64, Vec<Phrase>)> {
    let mut best: Vec<(usize, Estimate)> = Vec::new();
    for (i, e) in estimates {
        match best.iter_mut().find(|(_, b)| b.mechanism == e.mechanism) {
            Some(slot) if slot.1.factor < e.factor => *slot = (i, e),
            Some(_) => {}
            None => best.push((i, e)),
        }
    }
    best.sort_by(|a, b| b.1.factor.total_cmp(&a.1.factor));
    let (lead, _) = best.first()?;
    let lead = *lead;
    let factor = round_factor(best.iter().map(|(_, e)| e.factor).product());
    Some((
        lead,
        factor,
        best.into_iter().map(|(_, e)| e.basis).collect(),
    ))
}

/// Whether two findings cite a line of the same input.
fn shares_input(a: &Finding, b: &Finding) -> bool {
    a.evidence
        .iter()
        .any(|e| b.evidence.iter().any(|o| o.input == e.input))
}

/// What would size a finding whose inputs cannot, where it is more than its layer's default.
fn unsized_basis_of(f: &Finding) -> Option<Phrase> {
    let key = match (f.id, f.variant) {
        ("power.gpu-state", _) => "verdict.basis.gpu-state-unsized",
        ("power.saver-mode", _) | ("power.wall", Some("mode")) | ("power.mode-unread", _) => {
            "verdict.basis.mode-unsized"
        }
        ("cpu.x86-build-on-arm", _) => "verdict.basis.emulated-unsized",
        ("measure.reference-gap", _) => "verdict.basis.reference-gap-unsized",
        ("offload.gpu-idle", _) => "verdict.basis.gpu-idle-unsized",
        ("offload.gpu-mode", _) => "verdict.basis.gpu-mode-unsized",
        ("offload.gpu-unused", Some("cpu-as-asked")) => "verdict.basis.cpu-as-asked",
        ("offload.gpu-unused", _) => "verdict.basis.gpu-unused-unsized",
        ("offload.partial", _) => "verdict.basis.partial-unsized",
        ("fallback.unsupported-op", Some("nnapi-platform" | "delegate-platform")) => {
            "verdict.basis.delegate-unsized"
        }
        ("offload.graph-splits", _) => "verdict.basis.splits-unsized",
        ("offload.partitioned", Some("executorch")) => "verdict.basis.partition-unsized-etdump",
        ("offload.partitioned", _) => "verdict.basis.partition-unsized",
        _ => return None,
    };
    Some(Phrase::new(key, Vec::new()))
}

/// What sizes a cause when no finding gives a figure.
fn unsized_basis(layer: Layer) -> Phrase {
    let key = match layer {
        Layer::Failed => "verdict.basis.failed",
        Layer::Memory => "verdict.basis.memory-unsized",
        Layer::Build => "verdict.basis.build-unsized",
        Layer::Threads => "verdict.basis.threads-unsized",
        Layer::Power => "verdict.basis.power-unsized",
        Layer::Ceiling => "verdict.basis.at-ceiling",
        Layer::Measure => "verdict.basis.measure",
    };
    Phrase::new(key, Vec::new())
}

pub fn build(ev: &Evidence, views: &Views, findings: &[Finding]) -> Verdict {
    let mut causes: Vec<Cause> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let Some(mut layer) = Layer::of(f.id) else {
            continue;
        };
        // A build gap is a symptom of whatever the builds changed: beside a thread finding on
        // the same input it joins that cause, and its measured ratio sizes it.
        if f.id == "compare.build-gap"
            && findings
                .iter()
                .any(|g| g.id.starts_with("threads.") && shares_input(f, g))
        {
            layer = Layer::Threads;
        }
        match causes.iter_mut().find(|c| c.layer == layer) {
            Some(c) => {
                c.findings.push(i);
                c.severity = c.severity.min(f.severity);
            }
            None => causes.push(Cause {
                layer,
                severity: f.severity,
                findings: vec![i],
                lead: i,
                factor: None,
                basis: vec![unsized_basis(layer)],
            }),
        }
    }
    for c in &mut causes {
        let best = combine(
            c.findings
                .iter()
                .filter_map(|&i| estimate(&findings[i]).map(|e| (i, e)))
                .collect(),
        );
        // The lead names the cause, so a finding that only observes the slowdown (a decay)
        // gives way to one of the same severity that explains it (the wall behind the decay).
        let beside: Vec<&str> = c.findings.iter().map(|&i| findings[i].id).collect();
        let explains = |i: &usize| !is_symptom(findings[*i].id, &beside);
        let worst: Vec<usize> = c
            .findings
            .iter()
            .copied()
            .filter(|&i| findings[i].severity == c.severity)
            .collect();
        // A symptom never names the cause while a finding that explains it is in the cause,
        // even one stated less surely.
        c.lead = worst
            .iter()
            .copied()
            .find(explains)
            .or_else(|| c.findings.iter().copied().find(explains))
            .or(worst.first().copied())
            .unwrap_or(c.findings[0]);
        if best.is_none() {
            let own = std::iter::once(c.lead)
                .chain(c.findings.iter().copied())
                .find_map(|i| unsized_basis_of(&findings[i]));
            if let Some(b) = own {
                c.basis = vec![b];
            }
        }
        if let Some((i, x, basis)) = best {
            c.factor = Some(x);
            c.basis = basis;
            if findings[i].severity == c.severity && (explains(&i) || !explains(&c.lead)) {
                c.lead = i;
            }
        }
    }
    // The measurement goes last, at info whatever its findings say: it qualifies the numbers,
    // it does not slow decoding, and a warning badge below an info cause would misread as rank.
    for c in causes.iter_mut().filter(|c| c.layer == Layer::Measure) {
        c.severity = Severity::Info;
    }
    // A run at its bandwidth ceiling has no room for another info-level cause to cost much:
    // among the info causes, the ceiling names the run.
    let at_ceiling = |c: &Cause| {
        c.severity == Severity::Info
            && c.findings
                .iter()
                .any(|&i| findings[i].id == "bandwidth.at-ceiling")
    };
    // A failure that a configuration finding explains (a GPU mode that cannot load an LLM)
    // is fixed by that finding's fix: it leads, the failure follows.
    let explained_failure = causes.iter().any(|c| {
        c.findings
            .iter()
            .any(|&i| EXPLAINS_FAILURE.contains(&findings[i].id))
    });
    causes.sort_by(|a, b| {
        let key = |c: &Cause| {
            (
                c.layer == Layer::Measure,
                c.severity,
                explained_failure && c.layer == Layer::Failed,
                !at_ceiling(c),
                c.layer,
            )
        };
        key(a)
            .cmp(&key(b))
            .then(b.factor.unwrap_or(0.0).total_cmp(&a.factor.unwrap_or(0.0)))
    });
    let gap = gap(findings, &causes);
    let runs = run_numbers(ev, findings);
    let headline = headline(ev, views, findings, &causes, gap.as_ref(), &runs);
    let next = next_steps(ev, &causes, findings);
    Verdict {
        headline,
        runs,
        causes,
        gap,
        next,
    }
}

fn gap(findings: &[Finding], causes: &[Cause]) -> Option<Gap> {
    let (i, factor) = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.id == "compare.decode-gap")
        .filter_map(|(i, f)| num(f, "ratio").map(|r| (i, r)))
        // A reference the user picked can be the slower run: then there is no gap to explain.
        .filter(|(_, r)| *r > 1.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    // The sized causes of the slow path multiply; the ceiling and the measurement are not
    // differences between the devices.
    let explained: f64 = causes
        .iter()
        .filter(|c| matches!(c.layer, Layer::Build | Layer::Threads | Layer::Power))
        .filter_map(|c| c.factor)
        .product::<f64>()
        .min(factor)
        .max(1.0);
    Some(Gap {
        factor,
        explained_factor: round_factor(explained),
        unexplained_factor: round_factor(factor / explained),
        finding: i,
    })
}

fn run_numbers(ev: &Evidence, findings: &[Finding]) -> Vec<RunNumbers> {
    let references: Vec<usize> = grouping(ev)
        .groups
        .iter()
        .map(|g| g.reference().input)
        .collect();
    representatives(ev)
        .into_iter()
        .map(|m| {
            let name = ev
                .inputs
                .get(m.input)
                .map_or_else(String::new, |f| f.name.clone());
            let ceiling = findings
                .iter()
                .filter(|f| f.id == "bandwidth.below-ceiling")
                .find(|f| {
                    f.evidence
                        .first()
                        .is_some_and(|e| e.input == input_of(ev, m.run))
                })
                .and_then(|f| num(f, "ceiling_tok_s"));
            RunNumbers {
                reference: references.contains(&m.input),
                input: name,
                decode_tok_s: decode_tok_s(m.run),
                prefill_tok_s: prefill_tok_s(m.run),
                ceiling_tok_s: ceiling,
                latency_ms: m
                    .run
                    .stages
                    .get(crate::evidence::INFERENCE_STAGE)
                    .and_then(|s| s.ms_per_run)
                    .filter(|ms| ms.is_finite() && *ms > 0.0),
            }
        })
        .collect()
}

fn headline(
    ev: &Evidence,
    views: &Views,
    findings: &[Finding],
    causes: &[Cause],
    gap: Option<&Gap>,
    runs: &[RunNumbers],
) -> Vec<Phrase> {
    let mut out = Vec::new();
    if let Some(g) = gap {
        let f = &findings[g.finding];
        out.push(Phrase::new(
            "verdict.speed.compare",
            vec![
                ("a", param(f, "a")),
                ("b", param(f, "b")),
                ("a_tok_s", param(f, "a_tok_s")),
                ("b_tok_s", param(f, "b_tok_s")),
                ("ratio", param(f, "ratio")),
            ],
        ));
    } else if let Some((f, a, b)) = findings
        .iter()
        .filter(|f| f.id == "compare.decode-gap")
        .find_map(|f| Some((f, num(f, "a_tok_s")?, num(f, "b_tok_s")?)))
        .filter(|(_, a, b)| *a > 0.0 && b > a)
    {
        out.push(Phrase::new(
            "verdict.speed.compare-faster",
            vec![
                ("a", param(f, "a")),
                ("b", param(f, "b")),
                ("a_tok_s", param(f, "a_tok_s")),
                ("b_tok_s", param(f, "b_tok_s")),
                ("ratio", fmt(b / a)),
            ],
        ));
    } else if let [r] = runs {
        match (r.decode_tok_s, r.prefill_tok_s) {
            (Some(d), Some(p)) => out.push(Phrase::new(
                "verdict.speed.one-prefill",
                vec![
                    ("input", r.input.clone()),
                    ("tok_s", fmt(d)),
                    ("prefill_tok_s", fmt(p)),
                ],
            )),
            (Some(d), None) => out.push(Phrase::new(
                "verdict.speed.one",
                vec![("input", r.input.clone()), ("tok_s", fmt(d))],
            )),
            _ => out.push(match r.latency_ms {
                Some(ms) => Phrase::new(
                    "verdict.speed.latency",
                    vec![("input", r.input.clone()), ("ms", fmt(ms))],
                ),
                None => Phrase::new("verdict.speed.none", vec![("input", r.input.clone())]),
            }),
        }
    } else if runs.len() > 1 {
        let list: Vec<String> = runs
            .iter()
            .filter_map(|r| r.decode_tok_s.map(|d| format!("{} {}", r.input, fmt(d))))
            .collect();
        if !list.is_empty() {
            out.push(Phrase::new(
                "verdict.speed.several",
                vec![("list", list.join(", "))],
            ));
        }
    }
    // Runs of different models get no factor between them: say why they stand apart.
    let grouped = grouping(ev);
    let unrelated: Vec<String> = grouped
        .unrelated
        .iter()
        .filter_map(|m| ev.inputs.get(m.input).map(|f| f.name.clone()))
        .collect();
    if runs.len() > 1 && !unrelated.is_empty() {
        out.push(if grouped.groups.is_empty() {
            Phrase::new("verdict.unrelated.all", Vec::new())
        } else {
            Phrase::new("verdict.unrelated", vec![("list", unrelated.join(", "))])
        });
    }
    let serious: Vec<&Cause> = causes
        .iter()
        .filter(|c| c.severity != Severity::Info && c.layer != Layer::Measure)
        .collect();
    match serious.first() {
        Some(c) if c.layer == Layer::Failed => {
            let f = &findings[c.lead];
            // "gives no decode speed" says nothing once the run is known to have failed.
            out.retain(|p| p.key != "verdict.speed.none");
            out.push(Phrase::new(
                "verdict.lead.failed",
                vec![
                    ("input", param(f, "input")),
                    ("what", param(f, "what")),
                    ("line", param(f, "line")),
                ],
            ));
        }
        Some(c) => {
            let f = &findings[c.lead];
            let key = match c.factor {
                Some(_) => "verdict.lead.sized",
                None => "verdict.lead",
            };
            let mut params = vec![
                ("cause", format!("@verdict.cause.{}.title", c.layer.id())),
                ("finding", format!("@{}", f.text_key("title"))),
                ("factor", c.factor.map(fmt_factor).unwrap_or_default()),
            ];
            params.extend(title_params(f));
            out.push(Phrase::new(key, params));
            if serious.len() > 1 {
                let rest: Vec<String> = serious[1..]
                    .iter()
                    .map(|c| format!("@verdict.cause.{}.title", c.layer.id()))
                    .collect();
                out.push(Phrase::new(
                    "verdict.also",
                    vec![("causes", rest.join("|"))],
                ));
            }
        }
        None if runs.iter().all(|r| r.decode_tok_s.is_none()) && !runs.is_empty() => {
            let key = if runs.iter().any(|r| r.latency_ms.is_some()) {
                "verdict.no-cause-latency"
            } else {
                "verdict.no-cause-no-speed"
            };
            out.push(Phrase::new(key, Vec::new()));
        }
        None => out.extend(healthy(ev, views, findings)),
    }
    out
}

/// The lead finding's parameters that its title names: the headline renders that title
/// ("Decode uses {pct_of_peak}% of the {device}'s memory bandwidth"), so they travel with it.
fn title_params(f: &Finding) -> Vec<(&'static str, String)> {
    let Some(title) = crate::catalogue::entries().get(&f.text_key("title")) else {
        return Vec::new();
    };
    f.params
        .iter()
        .filter(|(k, _)| {
            let slot = format!("{{{k}}}");
            title.en.contains(&slot) || title.zh.contains(&slot)
        })
        .cloned()
        .collect()
}

/// The headline when nothing slows decoding: the numbers that show it.
fn healthy(ev: &Evidence, views: &Views, findings: &[Finding]) -> Vec<Phrase> {
    if ev.runs.is_empty() && ev.series.is_empty() && ev.sched.traces.is_empty() {
        return vec![Phrase::new("verdict.nothing-read", Vec::new())];
    }
    // Figures the memory cannot deliver: no verdict on speed holds until they are redone.
    if let Some(f) = findings.iter().find(|f| f.id == "bandwidth.above-ceiling") {
        return vec![Phrase::new(
            "verdict.above-ceiling",
            vec![
                ("achieved_gbps", param(f, "achieved_gbps")),
                ("device", param(f, "device")),
                ("peak_gbps", param(f, "peak_gbps")),
            ],
        )];
    }
    let mut out = vec![Phrase::new("verdict.healthy", Vec::new())];
    if let Some(f) = findings.iter().find(|f| f.id == "bandwidth.at-ceiling") {
        out.push(match f.variant() {
            Some("sweep") => Phrase::new(
                "verdict.healthy.at-ceiling-sweep",
                vec![
                    ("runs", param(f, "runs")),
                    ("achieved_gbps", param(f, "achieved_gbps")),
                ],
            ),
            Some("threads") => Phrase::new(
                "verdict.healthy.at-ceiling-threads",
                ["few", "many", "few_tok_s", "many_tok_s"]
                    .map(|k| (k, param(f, k)))
                    .to_vec(),
            ),
            _ => {
                // With several runs the headline's speed may be another run's: name this one's.
                let several = ev
                    .runs
                    .iter()
                    .filter(|r| decode_tok_s(r).is_some())
                    .nth(1)
                    .is_some();
                let mut params = ["achieved_gbps", "device", "peak_gbps", "pct_of_peak"]
                    .map(|k| (k, param(f, k)))
                    .to_vec();
                if several {
                    params.insert(0, ("tok_s", param(f, "tok_s")));
                }
                let key = if several {
                    "verdict.healthy.at-ceiling-run"
                } else {
                    "verdict.healthy.at-ceiling"
                };
                Phrase::new(key, params)
            }
        });
        out.push(match num(f, "smaller_tok_s") {
            Some(_) => Phrase::new(
                "verdict.healthy.lever-quant",
                vec![
                    ("smaller_quant", param(f, "smaller_quant")),
                    ("smaller_tok_s", param(f, "smaller_tok_s")),
                ],
            ),
            None if param(f, "lever") == "@bandwidth.lever.bytes" => {
                Phrase::new("verdict.healthy.lever-bytes", Vec::new())
            }
            None => Phrase::new("verdict.healthy.lever-model", Vec::new()),
        });
    }
    if let Some(f) = findings.iter().find(|f| f.id == "bandwidth.below-ceiling") {
        out.push(Phrase::new(
            "verdict.healthy.ceiling",
            vec![("pct", param(f, "pct_of_expected"))],
        ));
    }
    let (topo, traces) = (&views.topology, &views.traces);
    if topo.known() && !topo.cpus_in(Cluster::Little).is_empty() {
        let (mut fast, mut all) = (0.0, 0.0);
        for v in traces.iter().filter(|v| v.enough()) {
            let by = v.inference_by_cluster();
            fast += by[Cluster::Mid.index()] + by[Cluster::Big.index()];
            all += v.known_total();
        }
        if all > 0.0 {
            out.push(Phrase::new(
                "verdict.healthy.big-cores",
                vec![("share", format!("{:.0}", 100.0 * fast / all))],
            ));
        }
    }
    out
}

/// What would decide what the inputs leave open: the kinds of input not given.
fn next_steps(ev: &Evidence, causes: &[Cause], findings: &[Finding]) -> Vec<Phrase> {
    let mut out = Vec::new();
    let has = |l: Layer| causes.iter().any(|c| c.layer == l);
    let failed = causes
        .first()
        .is_some_and(|c| c.layer == Layer::Failed && c.severity == Severity::Critical);
    if failed {
        return out;
    }
    // An op profile is the run's measurement already: its log would add no speed to it.
    if ev.runs.is_empty() && ev.op_profiles.is_empty() {
        out.push(Phrase::new("verdict.add.log", Vec::new()));
    }
    // A delegate's split is sized by the time each side took, which only an op profile says.
    let profilable = ev
        .partitions
        .iter()
        .any(|p| p.split.delegate != crate::evidence::EXECUTORCH_SPLIT);
    if profilable && ev.op_profiles.is_empty() {
        out.push(Phrase::new("verdict.add.op-profile", Vec::new()));
    }
    // No layer on a GPU, and no GPU named: the server's start says whether one was found.
    if findings
        .iter()
        .any(|f| f.id == "offload.gpu-unused" && f.variant == Some("layers-no-device"))
    {
        out.push(Phrase::new("verdict.add.startup-log", Vec::new()));
    }
    // Where the weights sit decides first: a trace or telemetry of a run on the wrong device
    // says nothing about the fix.
    let placement_first = causes.first().is_some_and(|c| {
        c.severity != Severity::Info
            && findings
                .get(c.lead)
                .is_some_and(|f| matches!(f.id, "offload.gpu-unused" | "offload.partial"))
    });
    if placement_first {
        return out;
    }
    // A run at its memory's ceiling with nothing else wrong is answered: where the threads ran
    // or how the clock moved cannot make it faster.
    let answered = has(Layer::Ceiling)
        && !causes.iter().any(|c| {
            matches!(c.layer, Layer::Build | Layer::Threads | Layer::Power)
                && c.severity != Severity::Info
        });
    if answered {
        return out;
    }
    let threads_sized = causes
        .iter()
        .any(|c| c.layer == Layer::Threads && c.factor.is_some());
    if ev.sched.traces.is_empty() && !threads_sized {
        out.push(Phrase::new("verdict.add.trace", Vec::new()));
    }
    if ev.series.is_empty() && !has(Layer::Power) {
        out.push(Phrase::new("verdict.add.telemetry", Vec::new()));
    }
    // The probe's ceiling is in tokens per second: a model that makes no tokens (a latency
    // benchmark) has nothing to hold against it.
    let makes_tokens = ev.runs.iter().any(|r| {
        !r.stages.contains_key(crate::evidence::INFERENCE_STAGE) || decode_tok_s(r).is_some()
    });
    if makes_tokens && ev.probe_for_inputs().is_none() {
        // A probe of another device is no ceiling: say how to make it one.
        let key = if ev.device.is_some() {
            "verdict.add.probe-same-device"
        } else {
            "verdict.add.probe"
        };
        out.push(Phrase::new(key, Vec::new()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(id: &'static str, severity: Severity, params: &[(&'static str, &str)]) -> Finding {
        Finding::new(
            id,
            severity,
            params.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            Vec::new(),
        )
    }

    /// A bisected slowdown beside the default thread count reaching little cores: the threads
    /// are the cause the user can act on, sized by the measured gap between the builds.
    #[test]
    fn a_build_gap_beside_a_thread_finding_sizes_the_thread_cause() {
        let at = |input: usize| {
            vec![crate::diagnose::EvidenceRef::at_line(
                input,
                5,
                "./main -m x.gguf",
            )]
        };
        let gap = |input: usize| {
            Finding::new(
                "compare.build-gap",
                Severity::Warning,
                vec![
                    ("ratio", "1.84".to_string()),
                    ("slow_build", "b2787".to_string()),
                    ("slow_tok_s", "3.81".to_string()),
                    ("fast_build", "b2750".to_string()),
                    ("fast_tok_s", "7.00".to_string()),
                ],
                at(input),
            )
        };
        let threads = Finding::new(
            "threads.efficiency-cores",
            Severity::Info,
            Vec::new(),
            at(0),
        );
        let mut ev = Evidence::default();
        ev.add_input("a.md");
        ev.add_input("b.md");
        let fs = vec![gap(0), threads.clone()];
        let v = build(&ev, &Views::of(&ev), &fs);
        assert_eq!(v.causes.len(), 1, "{:?}", v.causes);
        let c = &v.causes[0];
        assert_eq!(c.layer, Layer::Threads);
        assert_eq!(fs[c.lead].id, "threads.efficiency-cores");
        assert_eq!(c.factor, Some(1.8));
        // On another input the gap stays a build cause of its own.
        let fs = vec![gap(1), threads];
        let v = build(&ev, &Views::of(&ev), &fs);
        let layers: Vec<Layer> = v.causes.iter().map(|c| c.layer).collect();
        assert!(layers.contains(&Layer::Build), "{layers:?}");
    }

    #[test]
    fn counter_findings_join_the_layer_of_what_they_measure() {
        assert_eq!(Layer::of("counters.low-clock"), Some(Layer::Power));
        assert_eq!(Layer::of("threads.waiting"), Some(Layer::Threads));
        assert_eq!(Layer::of("counters.summary"), Some(Layer::Measure));
    }

    #[test]
    fn causes_group_by_layer_rank_by_severity_then_layer_and_carry_estimates() {
        let fs = vec![
            finding("fallback.precision", Severity::Critical, &[]),
            finding(
                "quant.weights-expanded",
                Severity::Critical,
                &[("ratio", "1.8")],
            ),
            finding(
                "throttle.undetermined",
                Severity::Info,
                &[("capped_pct", "42")],
            ),
            finding("threads.exceeds-big-cores", Severity::Warning, &[]),
            finding("measure.single-run", Severity::Info, &[]),
        ];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        let ids: Vec<&str> = v.causes.iter().map(|c| c.layer.id()).collect();
        assert_eq!(ids, ["build", "threads", "power", "measure"]);
        assert_eq!(v.causes[0].findings, [0, 1]);
        assert_eq!(v.causes[0].factor, Some(1.8));
        assert_eq!(v.causes[0].basis[0].key, "verdict.basis.weights");
        // 1 / (1 − 0.42) = 1.72: about 1.7×.
        assert_eq!(v.causes[2].factor, Some(1.7));
        assert_eq!(v.causes[1].factor, None);
        assert_eq!(v.causes[1].basis[0].key, "verdict.basis.threads-unsized");
        assert_eq!(v.headline[0].key, "verdict.lead.sized");
        assert!(v.gap.is_none());
    }

    #[test]
    fn kernels_and_memory_traffic_compound_and_overlapping_estimates_do_not() {
        let weights = finding(
            "quant.weights-expanded",
            Severity::Critical,
            &[("ratio", "1.8")],
        );
        let kernels = |prefill_decode: &str| {
            finding(
                "cpu.missing-dotprod",
                Severity::Critical,
                &[("prefill_decode", prefill_decode)],
            )
        };
        let ev = Evidence::default();
        let size = |fs: &[Finding]| {
            let v = build(&ev, &Views::of(&ev), fs);
            let c = &v.causes[0];
            (
                c.factor,
                c.lead,
                c.basis.iter().map(|p| p.key).collect::<Vec<_>>(),
            )
        };
        // A decode that prefills 1.7× faster is bound by its kernels: 1.8 × 3.9 = 7.0, the
        // kernels first.
        let (factor, lead, bases) = size(&[weights.clone(), kernels("1.70")]);
        assert_eq!(factor, Some(7.0));
        assert_eq!(lead, 1);
        assert_eq!(
            bases,
            ["verdict.basis.kernels-compute", "verdict.basis.weights"]
        );
        // A memory-bound decode (prefill 7× faster) pays the decode figure, 2×: 3.6 in all.
        assert_eq!(size(&[weights.clone(), kernels("7.05")]).0, Some(3.6));
        // Two findings of the same mechanism overlap: the comparison's missing DOTPROD and
        // the run's own say one thing, so the factor stays 2× and is not squared.
        let compared = finding(
            "compare.cpu-features",
            Severity::Critical,
            &[("flags", "DOTPROD, MATMUL_INT8")],
        );
        assert_eq!(size(&[compared.clone(), kernels("9")]).0, Some(2.0));
        // An x86 flag the comparison names is not sized by the ARM measurements.
        let avx = finding(
            "compare.cpu-features",
            Severity::Critical,
            &[("flags", "AVX2")],
        );
        assert_eq!(size(&[avx]).0, None);
    }

    #[test]
    fn the_wall_behind_a_decay_leads_its_cause_and_measurement_ranks_as_info() {
        let fs = vec![
            finding(
                "thermal.sustained-decay",
                Severity::Warning,
                &[("ratio_pct", "55")],
            ),
            finding("power.wall", Severity::Warning, &[("capped_pct", "45")]),
            finding("load.slow", Severity::Warning, &[]),
            finding("threads.all-cores", Severity::Info, &[]),
        ];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        assert_eq!(v.causes[0].layer, Layer::Power);
        assert_eq!(v.causes[0].lead, 1, "the wall names the cause");
        // The factor is still the largest estimate (the decay's 1 / 0.55).
        assert_eq!(v.causes[0].factor, Some(1.8));
        let ids: Vec<&str> = v.causes.iter().map(|c| c.layer.id()).collect();
        assert_eq!(ids, ["power", "threads", "measure"]);
        assert_eq!(v.causes[2].severity, Severity::Info);
    }

    #[test]
    fn a_failed_run_leads_even_before_a_critical_build_cause() {
        let fs = vec![
            finding(
                "quant.weights-expanded",
                Severity::Critical,
                &[("ratio", "2.0")],
            ),
            finding("run.failed", Severity::Critical, &[]),
        ];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        assert_eq!(v.causes[0].layer, Layer::Failed);
        assert!(v.next.is_empty(), "nothing to add before the run works");
    }

    #[test]
    fn little_core_residency_times_the_clock_ratio() {
        // 60% of the time at half the clock: 1 / (0.4 + 0.3) = 1.43.
        let fs = vec![finding(
            "sched.little-cores",
            Severity::Critical,
            &[
                ("share", "60%"),
                ("little_share", "0.600"),
                ("little_clock_ratio", "0.50"),
            ],
        )];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        assert_eq!(v.causes[0].factor, Some(1.4));
    }

    #[test]
    fn a_gap_splits_into_explained_and_unexplained() {
        let fs = vec![
            finding(
                "compare.decode-gap",
                Severity::Info,
                &[("a", "a.log"), ("b", "b.log"), ("ratio", "23.5")],
            ),
            finding("compare.weights", Severity::Critical, &[("ratio", "1.73")]),
            finding("compare.threads", Severity::Warning, &[]),
        ];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        let g = v.gap.expect("a gap");
        assert_eq!(g.factor, 23.5);
        assert_eq!(g.explained_factor, 1.7);
        // 23.5 / 1.7 = 13.8: the unexplained part comes from the unrounded explained factor.
        assert_eq!(g.unexplained_factor, 14.0);
        assert_eq!(v.headline[0].key, "verdict.speed.compare");
        assert!(v.causes.iter().all(|c| !c.findings.contains(&0)));
    }

    #[test]
    fn a_slower_reference_gives_no_gap_and_says_faster() {
        let fs = vec![finding(
            "compare.decode-gap",
            Severity::Info,
            &[
                ("a", "slow.log"),
                ("b", "fast.log"),
                ("a_tok_s", "2.96"),
                ("b_tok_s", "9.80"),
                ("ratio", "0.30"),
            ],
        )];
        let ev = Evidence::default();
        let v = build(&ev, &Views::of(&ev), &fs);
        assert!(v.gap.is_none());
        assert_eq!(v.headline[0].key, "verdict.speed.compare-faster");
        assert!(v.headline[0]
            .params
            .contains(&("ratio", "3.31".to_string())));
    }

    #[test]
    fn a_model_that_makes_no_tokens_is_told_by_its_latency() {
        let mut ev = Evidence::default();
        ev.add_input("bench.txt");
        let mut run = crate::evidence::Run {
            input: "bench.txt".into(),
            ..Default::default()
        };
        run.stages.insert(
            crate::evidence::INFERENCE_STAGE.into(),
            crate::evidence::Stage {
                ms: 127.4,
                runs: None,
                ms_per_run: Some(127.4),
            },
        );
        ev.runs.push(run);
        let v = build(&ev, &Views::of(&ev), &[]);
        let keys: Vec<&str> = v.headline.iter().map(|p| p.key).collect();
        assert_eq!(keys, ["verdict.speed.latency", "verdict.no-cause-latency"]);
        assert!(v.headline[0].params.contains(&("ms", "127".to_string())));
        // The probe's ceiling is in tokens per second: nothing here to hold against it.
        let next: Vec<&str> = v.next.iter().map(|p| p.key).collect();
        assert!(
            !next.iter().any(|k| k.starts_with("verdict.add.probe")),
            "{next:?}"
        );
        // The same run with a decode rate is asked for the probe.
        ev.runs[0].decode = Some(crate::evidence::Phase {
            tok_s: Some(9.0),
            ..Default::default()
        });
        let v = build(&ev, &Views::of(&ev), &[]);
        assert!(v.next.iter().any(|p| p.key == "verdict.add.probe"));
    }

    #[test]
    fn nothing_wrong_says_so() {
        let fs = vec![finding("measure.single-run", Severity::Info, &[])];
        let mut ev = Evidence::default();
        ev.add_input("x.log");
        ev.runs.push(crate::evidence::Run {
            input: "x.log".into(),
            decode: Some(crate::evidence::Phase {
                tok_s: Some(30.0),
                ..Default::default()
            }),
            ..Default::default()
        });
        let v = build(&ev, &Views::of(&ev), &fs);
        assert!(v.headline.iter().any(|p| p.key == "verdict.healthy"));
        assert!(v.causes.iter().all(|c| c.layer == Layer::Measure));
        // Without a speed, no cause is not the same as fast.
        ev.runs[0].decode = None;
        let v = build(&ev, &Views::of(&ev), &fs);
        assert!(v
            .headline
            .iter()
            .any(|p| p.key == "verdict.no-cause-no-speed"));
        assert!(v.next.iter().any(|p| p.key == "verdict.add.trace"));
    }
}

//! `memory.over-budget`: the model does not fit the memory it has to stay in. Decode reads
//! every weight once per token, so weights that do not stay resident are read back from storage
//! (a phone's flash, an SD card, an SSD) every token, tens to thousands of times slower than
//! from RAM. Two budgets:
//!
//! - **Metal's working set** (variants `metal`, `metal-warned`): macOS lets a process keep
//!   about two thirds to three quarters of unified memory resident on the GPU
//!   (`recommendedMaxWorkingSetSize`); llama.cpp warns when its buffers pass it. Past it the GPU's
//!   buffers are paged, or a command buffer fails.
//! - **The machine's memory** (variants `ram`, `ram-tight`): the weights against the RAM the
//!   inputs state (`free`, `/proc/meminfo`, `dumpsys meminfo`, or the user's own "8GB RAM").
//!   Weights past the whole memory cannot stay resident; past [`TIGHT_SHARE`] of it they leave
//!   the system, the app and the KV cache too little, and the kernel evicts mapped weights
//!   (ChatterUI #127: a 3B model on 4–6 GB phones, paged from flash).
//!
//! A decode that reads its weights at half the device's memory speed or more is served from
//! memory whatever the sums say ([`SERVED_FROM_MEMORY`]), and the rule stays quiet.

use super::bandwidth_physics::share_of_expected;
use super::memory::source;
use super::offload::{buffer_split, discrete};
use super::run_facts::{
    decode_tok_s, input_of, quant_bits_from_name, run_ref, total_params_from_name, weight_mib,
};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::memory::{same_size, NamedModel};
use crate::evidence::{Evidence, InputId, Run};
use crate::figures::{params as param_count, size};
use crate::views::Views;

pub const IDS: &[&str] = &["memory.over-budget"];

/// Weights above this share of the machine's memory leave too little for the rest.
pub const TIGHT_SHARE: f64 = 0.8;
/// A decode at this share of what the device's memory allows reads its weights from memory.
const SERVED_FROM_MEMORY: f64 = 0.5;
/// With no known device: weights read faster than this (GB/s, a fast NVMe drive's sequential
/// read) cannot be coming from storage.
const FASTER_THAN_STORAGE_GBPS: f64 = 7.0;

/// Bits per weight a named model is taken to hold when its name gives no quant: a 4-bit
/// download with its scales (Q4_0, Q4_K_M, q4f16), the smallest it is commonly run at, so the
/// size told is a floor.
const ASSUMED_BITS: f64 = 4.5;

const MIB: f64 = 1024.0 * 1024.0;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for run in &ev.runs {
        let input = input_of(ev, run);
        if out.iter().any(|f| f.evidence[0].input == input) || served_from_memory(ev, run) {
            continue;
        }
        if let Some(f) = metal(ev, run).or_else(|| ram(ev, run, input)) {
            out.push(f);
        }
    }
    for (input, _) in ev.inputs.iter().enumerate() {
        if out.iter().any(|f| f.evidence[0].input == input) {
            continue;
        }
        if let Some(f) = named(ev, input) {
            out.push(f);
        }
    }
    out
}

/// MiB of weights: the model buffers, else the model's size as the log states it.
fn weights_mib(run: &Run) -> Option<f64> {
    weight_mib(run).or_else(|| run.model_bytes.map(|b| b as f64 / MIB))
}

/// The decode's speed shows the weights come from memory, not storage.
fn served_from_memory(ev: &Evidence, run: &Run) -> bool {
    if let Some((share, ..)) = share_of_expected(ev, run) {
        return share >= SERVED_FROM_MEMORY;
    }
    match (weights_mib(run), decode_tok_s(run)) {
        (Some(w), Some(t)) => w * MIB * t / 1e9 >= FASTER_THAN_STORAGE_GBPS,
        _ => false,
    }
}

/// MiB of the run's buffers in Metal's memory (model, KV cache, compute).
fn metal_mib(run: &Run) -> f64 {
    run.buffers_mib
        .iter()
        .filter(|(k, _)| k.to_ascii_lowercase().starts_with("metal"))
        .map(|(_, v)| *v)
        .sum()
}

fn metal(ev: &Evidence, run: &Run) -> Option<Finding> {
    let ws = run.working_set.as_ref()?;
    let buffers = metal_mib(run) * MIB;
    let allocated = ws
        .allocated_bytes
        .map(|b| b as f64)
        .or((buffers > 0.0).then_some(buffers));
    let past = ws.over_line.is_some()
        || matches!((allocated, ws.limit_bytes), (Some(a), Some(l)) if l > 0 && a > l as f64);
    if !past {
        return None;
    }
    let input = input_of(ev, run);
    let evidence = match (ws.over_line, &ws.over_text) {
        (Some(line), Some(text)) => EvidenceRef::at_line(input, line, text),
        _ => run_ref(
            ev,
            run,
            Quote::phrase(
                "quote.memory.metal-buffers",
                vec![("allocated", size(buffers))],
            ),
        ),
    };
    let at = ws
        .over_line
        .or(run.line_start)
        .map_or_else(String::new, |l| source(ev, input, l));
    let (variant, params) = match (allocated, ws.limit_bytes) {
        (Some(a), Some(l)) => (
            "metal",
            vec![
                ("allocated", size(a)),
                ("limit", size(l as f64)),
                ("share", format!("{:.0}", 100.0 * a / l as f64)),
                ("source", at),
            ],
        ),
        _ => ("metal-warned", vec![("source", at)]),
    };
    Some(
        Finding::new(IDS[0], Severity::Critical, params, vec![evidence])
            .with_variant(Some(variant)),
    )
}

/// MiB of weights the run holds in system RAM: all of them, less what sits on a discrete card
/// (a Jetson's or a Mac's GPU buffers are in the same memory).
fn weights_in_ram_mib(run: &Run) -> Option<f64> {
    let all = weights_mib(run)?;
    if !discrete(run) {
        return Some(all);
    }
    let (on_card, _) = buffer_split(run);
    // No buffers listed and every layer on the card: nothing of the model is in RAM.
    if on_card == 0.0 && run.offload.as_ref().is_some_and(|o| o.all_layers()) {
        return None;
    }
    Some((all - on_card).max(0.0))
}

/// The machine's memory: the one figure the inputs state (this input's first), with where.
fn machine_ram(ev: &Evidence, input: InputId) -> Option<(u64, InputId, u64)> {
    let stated: Vec<(u64, InputId, u64)> = ev
        .memory
        .system
        .iter()
        .filter_map(|s| Some((s.total?, s.input, s.line)))
        .filter(|(t, ..)| *t > 0)
        .collect();
    let own = stated.iter().find(|s| s.1 == input);
    let first = own.or(stated.first())?;
    // Two machines' figures: which one ran this is not known.
    let agree = stated.iter().all(|s| same_size(s.0, first.0));
    (own.is_some() || agree).then_some(*first)
}

fn ram(ev: &Evidence, run: &Run, input: InputId) -> Option<Finding> {
    let weights = weights_in_ram_mib(run)? * MIB;
    let (total, ram_input, ram_line) = machine_ram(ev, input)?;
    let share = weights / total as f64;
    let (variant, severity) = over_budget(share, ("ram", "ram-tight"))?;
    let params = vec![
        ("weights", size(weights)),
        ("ram", size(total as f64)),
        ("share", format!("{:.0}", share * 100.0)),
        ("source", source(ev, ram_input, ram_line)),
    ];
    let quote = Quote::phrase("quote.memory.weights", vec![("weights", size(weights))]);
    let evidence = vec![run_ref(ev, run, quote), ram_ref(ram_input, ram_line, total)];
    Some(Finding::new(IDS[0], severity, params, evidence).with_variant(Some(variant)))
}

/// Weights at or past the memory are the failure; past `TIGHT_SHARE` of it, a warning (the
/// system and the context need the rest). The variants name which weights were weighed.
fn over_budget(
    share: f64,
    (over, tight): (&'static str, &'static str),
) -> Option<(&'static str, Severity)> {
    if share >= 1.0 {
        Some((over, Severity::Critical))
    } else if share >= TIGHT_SHARE {
        Some((tight, Severity::Warning))
    } else {
        None
    }
}

/// The line that states the machine's memory.
fn ram_ref(input: InputId, line: u64, total: u64) -> EvidenceRef {
    EvidenceRef::quoted_at(
        input,
        line,
        Quote::phrase("quote.memory.ram", vec![("ram", size(total as f64))]),
    )
}

/// The model an input names and its weights' bytes, for an input whose runs state no size:
/// the largest it names (users name the one that fails beside the ones that work).
fn named_weights(ev: &Evidence, input: InputId) -> Option<(&NamedModel, f64, f64, f64)> {
    ev.memory
        .named_models
        .iter()
        .filter(|m| m.input == input && !m.beside_card)
        .filter_map(|m| {
            let params = total_params_from_name(&m.name)?;
            let bits = quant_bits_from_name(&m.name)
                .filter(|b| (1.0..=32.0).contains(b))
                .unwrap_or(ASSUMED_BITS);
            Some((m, params, bits, params * bits / 8.0))
        })
        .fold(
            None,
            |best: Option<(&NamedModel, f64, f64, f64)>, m| match best {
                Some(b) if b.3 >= m.3 => Some(b),
                _ => Some(m),
            },
        )
}

/// `memory.over-budget` from the model the user names against the memory they state, when no
/// log gives the model's size (`Mixtral 8x7B` on a `16GB` Mac that crashes).
fn named(ev: &Evidence, input: InputId) -> Option<Finding> {
    let runs = || ev.runs.iter().filter(move |r| input_of(ev, r) == input);
    // A log's own size, or weights on a card, decide it there.
    if runs().any(|r| weights_mib(r).is_some() || discrete(r)) {
        return None;
    }
    let (model, params, bits, weights) = named_weights(ev, input)?;
    // A decode as fast as memory, or faster than storage could feed it, ran from memory.
    if runs().any(|r| {
        share_of_expected(ev, r).is_some_and(|(s, ..)| s >= SERVED_FROM_MEMORY)
            || decode_tok_s(r).is_some_and(|t| weights * t / 1e9 >= FASTER_THAN_STORAGE_GBPS)
    }) {
        return None;
    }
    let (total, ram_input, ram_line) = machine_ram(ev, input)?;
    let share = weights / total as f64;
    let (variant, severity) = over_budget(share, ("named", "named-tight"))?;
    let params = vec![
        ("model", model.name.clone()),
        ("params", param_count(params)),
        ("bits", format!("{bits}")),
        ("weights", size(weights)),
        ("ram", size(total as f64)),
        ("share", format!("{:.0}", share * 100.0)),
        ("source", source(ev, ram_input, ram_line)),
    ];
    let quote = Quote::phrase(
        "quote.memory.named-model",
        vec![("model", model.name.clone()), ("weights", size(weights))],
    );
    let evidence = vec![
        EvidenceRef::quoted_at(input, model.line, quote),
        ram_ref(ram_input, ram_line, total),
    ];
    Some(Finding::new(IDS[0], severity, params, evidence).with_variant(Some(variant)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::memory::SystemMemory;
    use crate::evidence::{Phase, WorkingSet};

    const GIB: u64 = 1 << 30;

    fn run(model_bytes: u64, tok_s: Option<f64>) -> Run {
        Run {
            input: "pi.md".into(),
            line_start: Some(3),
            model_bytes: Some(model_bytes),
            quant: Some("Q4_K - Medium".into()),
            decode: tok_s.map(|t| Phase {
                tok_s: Some(t),
                ..Phase::default()
            }),
            ..Run::default()
        }
    }

    fn ev(run: Run, ram: Option<u64>) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("pi.md");
        ev.runs.push(run);
        if let Some(total) = ram {
            ev.memory.system_reading(SystemMemory {
                input: 0,
                line: 1,
                total: Some(total),
                available: None,
                swap_total: None,
                swap_free: None,
            });
        }
        ev
    }

    fn variants(ev: &Evidence) -> Vec<(&'static str, Severity)> {
        rule(ev, &Views::of(ev))
            .iter()
            .map(|f| (f.variant.unwrap_or(""), f.severity))
            .collect()
    }

    #[test]
    fn weights_against_the_stated_memory() {
        // 7B Q4_K_M (4.07 GiB) on a 4 GB board at 0.1 tok/s: it cannot stay resident.
        let big = ev(run(4_368_000_000, Some(0.1)), Some(4 * GIB));
        assert_eq!(variants(&big), [("ram", Severity::Critical)]);
        // 3.4 GiB of 4: too little room left.
        let tight = ev(run(3_650_000_000, Some(0.2)), Some(4 * GIB));
        assert_eq!(variants(&tight), [("ram-tight", Severity::Warning)]);
        // Half the memory: fits.
        assert!(variants(&ev(run(2 * GIB, Some(0.5)), Some(4 * GIB))).is_empty());
        // No memory stated: nothing to compare.
        assert!(variants(&ev(run(4_368_000_000, Some(0.1)), None)).is_empty());
    }

    fn named_ev(name: &str, ram: u64, beside_card: bool) -> Evidence {
        let mut e = Evidence::default();
        e.add_input("jan.md");
        e.memory.named_models.push(NamedModel {
            input: 0,
            line: 2,
            name: name.into(),
            beside_card,
        });
        e.memory.system_reading(SystemMemory {
            input: 0,
            line: 9,
            total: Some(ram),
            ..SystemMemory::default()
        });
        e
    }

    #[test]
    fn a_named_model_against_the_stated_memory() {
        // Mixtral 8x7B at 4-bit is about 25 GB: past a 16 GB Mac.
        let e = named_ev("MIXTRAL 8X7B", 16 * GIB, false);
        let found = rule(&e, &Views::of(&e));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].variant, Some("named"));
        assert_eq!(found[0].severity, Severity::Critical);
        assert_eq!(found[0].param("bits"), Some("4.5"));
        assert_eq!(found[0].evidence[0].lines, Some((2, 2)));
        assert_eq!(found[0].evidence[1].lines, Some((9, 9)));
        // The quant in the name sets the bits: 13B at Q8_0 is 13.8 GB of 16.
        let e = named_ev("llama-2-13b-chat.Q8_0.gguf", 16 * GIB, false);
        assert_eq!(variants(&e), [("named-tight", Severity::Warning)]);
        // A 7B at 4-bit fits 16 GB; beside a graphics card the card may hold it.
        assert!(variants(&named_ev("Mistral 7B", 16 * GIB, false)).is_empty());
        assert!(variants(&named_ev("MIXTRAL 8X7B", 16 * GIB, true)).is_empty());
        // Of two named, the larger: the one that fails beside the one that works.
        let mut e = named_ev("Mistral 7B", 16 * GIB, false);
        e.memory.named_models.push(NamedModel {
            input: 0,
            line: 4,
            name: "llama 2 70b".into(),
            beside_card: false,
        });
        assert_eq!(variants(&e), [("named", Severity::Critical)]);
    }

    #[test]
    fn a_named_model_that_decodes_from_memory_or_a_log_s_size_wins() {
        // 25 GB read 5 times a second is 125 GB/s: from memory, whatever the name says.
        let mut e = named_ev("MIXTRAL 8X7B", 16 * GIB, false);
        e.runs.push(Run {
            input: "jan.md".into(),
            decode: Some(Phase {
                tok_s: Some(5.0),
                ..Phase::default()
            }),
            ..Run::default()
        });
        assert!(variants(&e).is_empty());
        // The log's own size fits: the name is not used.
        let mut e = named_ev("MIXTRAL 8X7B", 16 * GIB, false);
        e.runs.push(run(2 * GIB, None));
        e.runs[0].input = "jan.md".into();
        assert!(variants(&e).is_empty());
    }

    #[test]
    fn a_decode_faster_than_storage_is_served_from_memory() {
        // 7.3 GiB read 8 times a second is 63 GB/s: no storage delivers that.
        let fast = ev(run(7_840_000_000, Some(8.0)), Some(8 * GIB));
        assert!(variants(&fast).is_empty());
    }

    #[test]
    fn weights_on_a_discrete_card_are_not_in_ram() {
        let mut r = run(7_840_000_000, Some(0.5));
        r.buffers_mib.insert("CUDA0 model".into(), 7000.0);
        r.buffers_mib.insert("CPU_Mapped model".into(), 477.0);
        assert!(variants(&ev(r, Some(8 * GIB))).is_empty());
    }

    #[test]
    fn a_jetson_s_gpu_buffers_are_in_its_ram() {
        // An 8 GB Orin Nano: CUDA0 holds the weights, in the one memory it shares with the CPU.
        let mut r = run(7_840_000_000, Some(0.3));
        r.buffers_mib.insert("CUDA0 model".into(), 7000.0);
        r.buffers_mib.insert("CPU_Mapped model".into(), 477.0);
        r.devices.push("Orin".into());
        assert_eq!(
            variants(&ev(r, Some(8 * GIB))),
            [("ram-tight", Severity::Warning)]
        );
    }

    #[test]
    fn metal_past_its_working_set() {
        let mut r = run(7_320_000_000, Some(0.9));
        r.working_set = Some(WorkingSet {
            limit_bytes: Some(5_726_630_000),
            allocated_bytes: Some(7_400_000_000),
            over_line: Some(20),
            over_text: Some("ggml_metal_add_buffer: warning: current allocated size is greater than the recommended max working set size".into()),
        });
        let e = ev(r.clone(), None);
        let found = rule(&e, &Views::of(&e));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].variant, Some("metal"));
        assert_eq!(found[0].evidence[0].lines, Some((20, 20)));
        // The warning alone, without the figures.
        r.working_set = Some(WorkingSet {
            over_line: Some(20),
            over_text: Some("warning: current allocated size is greater than the recommended max working set size".into()),
            ..WorkingSet::default()
        });
        assert_eq!(
            variants(&ev(r.clone(), None)),
            [("metal-warned", Severity::Critical)]
        );
        // Within the limit: nothing.
        r.working_set = Some(WorkingSet {
            limit_bytes: Some(22_906_500_000),
            allocated_bytes: Some(7_500_000_000),
            ..WorkingSet::default()
        });
        assert!(variants(&ev(r, None)).is_empty());
    }
}

//! Shared readings of [`Run`] facts for the rules: which input a run came from, the weight
//! memory it reports, what its quant promises per weight, and number formatting.

use super::EvidenceRef;
use crate::diagnose::Quote;
use crate::evidence::Framework;
use crate::evidence::{Evidence, InputId, Run};

/// The input a run was read from (runs carry the input name).
pub fn input_of(ev: &Evidence, run: &Run) -> InputId {
    ev.inputs
        .iter()
        .position(|i| i.name == run.input)
        .unwrap_or(0)
}

/// Evidence pointing at the lines a run spans, with a short statement of the fact.
pub fn run_ref(ev: &Evidence, run: &Run, quote: Quote) -> EvidenceRef {
    EvidenceRef {
        input: input_of(ev, run),
        lines: run.line_start.map(|s| (s, run.line_end.unwrap_or(s))),
        time_s: None,
        quote: Some(quote),
    }
}

/// Buffer types that hold a re-laid-out copy of some tensors for faster CPU kernels (llama.cpp
/// `CPU_REPACK`, its older name `CPU_AARCH64`, and KleidiAI's).
pub fn is_repack(buffer: &str) -> bool {
    ["CPU_REPACK", "CPU_AARCH64", "CPU_KLEIDIAI"]
        .iter()
        .any(|p| buffer.starts_with(p))
}

/// MiB of weights the run holds in memory: the sum of its model buffers (`<type> model`, or the
/// older `CPU model` from "mem required"). A repack buffer counts only when the other buffers
/// fall short of the model: with mmap, `CPU_Mapped` can hold the whole file while the repacked
/// tensors are a second copy, and decode reads one copy, not both.
pub fn weight_mib(run: &Run) -> Option<f64> {
    let models = || {
        run.buffers_mib
            .iter()
            .filter(|(k, _)| k.ends_with(" model"))
    };
    let plain: f64 = models()
        .filter(|(k, _)| !is_repack(k))
        .map(|(_, v)| *v)
        .sum();
    let repack: f64 = models()
        .filter(|(k, _)| is_repack(k))
        .map(|(_, v)| *v)
        .sum();
    let model_mib = run
        .model_bytes
        .map(|b| b as f64 / (1024.0 * 1024.0))
        .or_else(|| {
            let bits = quant_bits(run.quant.as_deref()?)?;
            Some(run.params? * bits / 8.0 / (1024.0 * 1024.0))
        });
    let total = match model_mib {
        Some(m) if plain >= 0.9 * m => plain,
        _ => plain + repack,
    };
    (total > 0.0).then_some(total)
}

/// Bits per weight a quant stores, including its scales (ggml block sizes; MLC `q4f16`,
/// `int4`, `w4a16` and the like). `None` for names it does not know.
pub fn quant_bits(quant: &str) -> Option<f64> {
    let q = quant.to_ascii_lowercase();
    let q = q.trim();
    let table: &[(&str, f64)] = &[
        ("iq1", 1.6),
        ("q2_k", 2.6),
        ("iq2", 2.3),
        ("q3_k", 3.4),
        ("iq3", 3.3),
        ("q4_0", 4.5),
        ("q4_1", 5.0),
        ("q4_k", 4.6),
        ("iq4", 4.5),
        ("q5_0", 5.5),
        ("q5_1", 6.0),
        ("q5_k", 5.5),
        ("q6_k", 6.6),
        ("q8_0", 8.5),
        ("q4f16", 4.5),
        ("q4f32", 4.5),
        ("q3f16", 3.5),
        ("q8f16", 8.5),
        ("q0f16", 16.0),
        ("q0f32", 32.0),
        ("bf16", 16.0),
        ("f16", 16.0),
        ("fp16", 16.0),
        ("f32", 32.0),
        ("fp32", 32.0),
        ("int4", 4.5),
        ("w4a16", 4.5),
        ("w16a16", 16.0),
        ("8da4w", 4.5),
        ("w4a8", 4.5),
        ("4bit", 4.5),
        ("int8", 8.5),
        ("w8a8", 8.5),
        ("w8a16", 8.5),
        ("8bit", 8.5),
    ];
    table
        .iter()
        .find(|(k, _)| {
            q.starts_with(k) || q.contains(&format!("-{k}")) || q.contains(&format!("_{k}"))
        })
        .map(|(_, b)| *b)
}

/// The parameter count a model's file name states (`llama-2-7b-chat`, `Qwen2.5-0.5B-Instruct`,
/// `smollm-360m`), for runs whose log gives none. `None` for a mixture of experts (`8x7B`,
/// `30B-A3B`), whose tokens read only some of the weights, and for names with two counts.
pub fn params_from_name(name: &str) -> Option<f64> {
    count_in_name(name).filter(|c| !c.mixture).map(|c| c.total)
}

/// Parameters a model's name says it holds in all, what must sit in memory: the count
/// [`params_from_name`] reads, or for a mixture of experts its total (`8x7B` about 45B,
/// `30B-A3B` 30B).
pub fn total_params_from_name(name: &str) -> Option<f64> {
    count_in_name(name).map(|c| c.total)
}

/// Share of `N × M` a mixture of `N` experts of `M` parameters holds in all: the experts share
/// attention and embeddings (Mixtral 8x7B holds 46.7B, 8x22B 141B). The lower figure, so a
/// size told from it is never too large.
const MOE_SHARED: f64 = 0.8;

/// The parameter count a model's name states.
struct NamedCount {
    /// Every parameter, all experts' for a mixture.
    total: f64,
    /// A mixture of experts, which reads only some of them per token.
    mixture: bool,
}

/// One reading of the names: the dense count (`7B`, `360m`, the folder's `7B/`), or a mixture's
/// total (`8x7B`, `30B-A3B`, a `MoE` name's count).
fn count_in_name(name: &str) -> Option<NamedCount> {
    static RE: std::sync::OnceLock<(regex::Regex, regex::Regex, regex::Regex)> =
        std::sync::OnceLock::new();
    let (count, moe, mixture_total) = RE.get_or_init(|| {
        (
            regex::Regex::new(r"(?i)(?:^|[^a-z0-9.])(\d{1,4}(?:\.\d{1,2})?)([bm])(?:[^a-z0-9]|$)")
                .expect("parameter count pattern compiles"),
            // Mixtures whose names do not say so: gpt-oss, DeepSeek V2 / V3 / R1 (not the
            // R1 distills, which are dense Qwen and Llama models), DBRX, Grok, Kimi K2.
            regex::Regex::new(
                r"(?i)\d\s*x\s*\d+(?:\.\d+)?b|[^a-z0-9]a\d+(?:\.\d+)?b(?:[^a-z0-9]|$)|moe|gpt-oss|deepseek-(?:coder-)?(?:v[23]|r1)|dbrx|grok-?\d|kimi-k2",
            )
            .expect("mixture pattern compiles"),
            regex::Regex::new(
                r"(?i)(?:^|[^a-z0-9.])(?:(\d{1,2})\s*x\s*(\d{1,3}(?:\.\d+)?)|(\d{1,4}(?:\.\d+)?))b[-_ ]?(?:a\d+(?:\.\d+)?b)?(?:[^a-z0-9]|$)",
            )
            .expect("mixture total pattern compiles"),
        )
    });
    // The file name, not the folders (`models/7B/ggml-model-q4_0.bin` names it there too).
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if moe.is_match(name) && !name.to_ascii_lowercase().contains("distill") {
        let c = mixture_total.captures(base)?;
        let billions = match (c.get(1), c.get(2), c.get(3)) {
            (Some(n), Some(m), _) => {
                n.as_str().parse::<f64>().ok()? * m.as_str().parse::<f64>().ok()? * MOE_SHARED
            }
            (_, _, Some(t)) => t.as_str().parse::<f64>().ok()?,
            _ => return None,
        };
        return Some(NamedCount {
            total: billions * 1e9,
            mixture: true,
        })
        .filter(|c| (1e8..=2e12).contains(&c.total));
    }
    let value = |c: regex::Captures| -> Option<f64> {
        let mul = if c[2].eq_ignore_ascii_case("b") {
            1e9
        } else {
            1e6
        };
        Some(c[1].parse::<f64>().ok()? * mul)
    };
    let mut counts = count.captures_iter(base).filter_map(value);
    // `models/7B/ggml-model-q4_0.bin`: the count is the folder's.
    let first = counts
        .next()
        .or_else(|| count.captures_iter(name).find_map(value))?;
    if counts.any(|v| v != first) {
        return None;
    }
    Some(NamedCount {
        total: first,
        mixture: false,
    })
    .filter(|c| (1e7..=2e12).contains(&c.total))
}

/// The fewest transformer layers a dense model of this many parameters has, among the families
/// people run (from their published configs' `num_hidden_layers`): 1B and up, Llama 3.2 1B's 16;
/// 2.5B, Gemma 2 2B's 26; 6.5B, Qwen2 7B's and Gemma 7B's 28; 12B, Llama 2 13B's, Mistral Nemo's
/// and Phi-3 medium's 40; 30B, Command-R 35B's 40; 60B, Command-R+ 104B's 64 (Llama 2 and 3
/// 70B, Qwen 72B: 80). `None` below 1B, where families differ too much to bound.
/// A lower bound, so a count of layers asked for that falls short of it is short for certain.
pub fn layers_at_least(params: f64) -> Option<u32> {
    const BOUNDS: &[(f64, u32)] = &[
        (60e9, 64),
        (30e9, 40),
        (12e9, 40),
        (6.5e9, 28),
        (2.5e9, 26),
        (1e9, 16),
    ];
    BOUNDS
        .iter()
        .find(|(from, _)| params >= *from)
        .map(|(_, layers)| *layers)
}

/// Bits per weight of the quant a model's file name states (`…-7b-chat.Q4_K_M.gguf`,
/// `ggml-model-q4_0.bin`).
pub fn quant_bits_from_name(name: &str) -> Option<f64> {
    // The file's name first; then its folders, nearest first (MLC's
    // `dist/Llama-2-7b-chat-hf-q4f16_1/params`).
    name.rsplit(['/', '\\']).find_map(|part| {
        part.split(['.', '-', ' '])
            .filter(|t| t.len() >= 3)
            .find_map(quant_bits)
    })
}

/// Decode tok/s of a run: its decode phase, else its `tg` bench rows' best.
pub fn decode_tok_s(run: &Run) -> Option<f64> {
    run.decode.as_ref().and_then(|d| d.tok_s).or_else(|| {
        run.bench
            .iter()
            .filter(|b| b.test.starts_with("tg"))
            .map(|b| b.tok_s)
            .reduce(f64::max)
    })
}

/// Prefill tok/s of a run: its prefill phase, else its `pp` bench rows' best.
pub fn prefill_tok_s(run: &Run) -> Option<f64> {
    run.prefill.as_ref().and_then(|d| d.tok_s).or_else(|| {
        run.bench
            .iter()
            .filter(|b| b.test.starts_with("pp") && !b.test.contains('+'))
            .map(|b| b.tok_s)
            .reduce(f64::max)
    })
}

/// A figure with sensible precision for a sentence: 0.57, 12.3, 431.
pub fn fmt(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The run's framework as the user knows it.
pub fn framework_label(run: &Run) -> String {
    run.framework.map_or_else(String::new, framework_param)
}

/// A framework as a finding parameter: its name, or a catalogue phrase for an unrecognised one
/// (so a Chinese report does not print "unknown").
pub fn framework_param(f: Framework) -> String {
    match f {
        Framework::Unknown => "@framework.unknown".to_string(),
        known => known.label().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quant_names() {
        assert_eq!(quant_bits("Q4_0"), Some(4.5));
        assert_eq!(quant_bits("Q4_K - Medium"), Some(4.6));
        assert_eq!(quant_bits("q4f16_1"), Some(4.5));
        assert_eq!(quant_bits("F16"), Some(16.0));
        assert_eq!(quant_bits("mystery"), None);
        assert_eq!(fmt(0.5712), "0.57");
    }

    #[test]
    fn a_repack_copy_is_not_counted_twice() {
        let run = |mapped: f64, repack: f64| Run {
            model_bytes: Some(1_277_752_771),
            buffers_mib: [
                ("CPU_Mapped model".to_string(), mapped),
                ("CPU_REPACK model".to_string(), repack),
            ]
            .into(),
            ..Run::default()
        };
        // The mapped file is whole (1.19 GiB): the repack buffer is a copy.
        assert_eq!(weight_mib(&run(1210.6, 645.75)), Some(1210.6));
        // The mapped part is only the rest: the repacked tensors live in the repack buffer.
        assert_eq!(weight_mib(&run(292.36, 926.81)), Some(292.36 + 926.81));
    }

    #[test]
    fn total_parameters_count_every_expert() {
        let t = |n: &str| total_params_from_name(n).map(|p| (p / 1e8).round() / 10.0);
        assert_eq!(t("MIXTRAL 8X7B"), Some(44.8));
        assert_eq!(t("mixtral-8x22b-instruct.Q4_K_M.gguf"), Some(140.8));
        assert_eq!(t("qwen3:30b-a3b"), Some(30.0));
        assert_eq!(t("Qwen3-30B-A3B-Instruct"), Some(30.0));
        assert_eq!(t("llama 2 13b"), Some(13.0));
        assert_eq!(t("70B"), Some(70.0));
        assert_eq!(t("tinyllama"), None);
        // Mixtures by family: the total, never a dense count.
        assert_eq!(t("gpt-oss-20b-MXFP4.gguf"), Some(20.0));
        assert_eq!(params_from_name("gpt-oss-120b"), None);
        assert_eq!(params_from_name("DeepSeek-V3-671B-Q2_K"), None);
        assert_eq!(
            params_from_name("DeepSeek-R1-Distill-Qwen-32B-Q4_K_M.gguf"),
            Some(32e9)
        );
    }

    #[test]
    fn a_dense_model_of_a_size_has_at_least_so_many_layers() {
        let at_least = |name: &str| params_from_name(name).and_then(layers_at_least);
        assert_eq!(at_least("llama-2-70b-chat.Q4_K_M.gguf"), Some(64));
        assert_eq!(at_least("mistral-7b-instruct-v0.2.Q8_0.gguf"), Some(28));
        assert_eq!(at_least("llama-2-13b.Q5_K_M.gguf"), Some(40));
        assert_eq!(at_least("Llama-3.2-1B-Instruct-Q8_0.gguf"), Some(16));
        assert_eq!(at_least("qwen2.5-0.5b-instruct-q4_0.gguf"), None);
        // A mixture's layers follow its experts, not its total.
        assert_eq!(at_least("mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf"), None);
        assert_eq!(at_least("gpt-oss-20b-mxfp4.gguf"), None);
    }

    #[test]
    fn parameter_counts_and_quants_from_model_names() {
        let p = params_from_name;
        assert_eq!(p("llama-2-7b-chat.Q4_K_M.gguf"), Some(7e9));
        assert_eq!(p("Qwen2.5-0.5B-Instruct-q4f16_1-MLC"), Some(0.5e9));
        assert_eq!(p("smollm-360m-instruct.gguf"), Some(360e6));
        assert_eq!(p("models/7B/ggml-model-q4_0.bin"), Some(7e9));
        assert_eq!(p("/data/Meta-Llama-3.1-8B-Instruct-Q8_0.gguf"), Some(8e9));
        // Mixtures read only some weights per token; names without a count say nothing.
        assert_eq!(p("mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf"), None);
        assert_eq!(p("Qwen3-30B-A3B-Q4_K_M.gguf"), None);
        assert_eq!(p("gemma-3n-E4B-it-int4.task"), None);
        assert_eq!(p("phi-2.Q4_0.gguf"), None);
        assert_eq!(p("model-7b-distilled-from-70b.gguf"), None);
        let q = quant_bits_from_name;
        assert_eq!(q("llama-2-7b-chat.Q4_K_M.gguf"), Some(4.6));
        assert_eq!(q("models/7B/ggml-model-q4_0.bin"), Some(4.5));
        assert_eq!(q("gemma-2b-it-f16.gguf"), Some(16.0));
        assert_eq!(q("llama-2-7b-chat-instruct.gguf"), None);
    }
}

//! The probe's table: the decode ceiling of common models at the bandwidth this device
//! measured ([`super::ceiling`] gives the model of a decode; this module the models' shapes).
//! Only the page shows it.

use super::ceiling::{ceiling_tok_s, expected_tok_s, ETA, FIXED_COST_S};
use serde::Serialize;

/// The context length the table assumes for the KV cache.
pub const DEFAULT_CONTEXT: u32 = 2048;

/// The shape of a model: what decides its bytes per token.
#[derive(Debug, Clone, Copy)]
pub struct ModelShape {
    pub name: &'static str,
    /// Parameters, all tensors (from the model's config and safetensors index).
    pub params: f64,
    pub vocab: u32,
    pub hidden: u32,
    pub layers: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    /// The output matrix is the token embedding: then the embedding is read in full every token.
    pub tied: bool,
}

/// Common small models, from their published configs.
pub const MODELS: &[ModelShape] = &[
    m("Qwen2.5 0.5B", 0.494e9, 151_936, 896, 24, 2, 64, true),
    m("Llama 3.2 1B", 1.236e9, 128_256, 2048, 16, 8, 64, true),
    m("Qwen2.5 1.5B", 1.544e9, 151_936, 1536, 28, 2, 128, true),
    m("Qwen2.5 3B", 3.086e9, 151_936, 2048, 36, 2, 128, true),
    m("Llama 3.2 3B", 3.213e9, 128_256, 3072, 28, 8, 128, true),
    m("Qwen2.5 7B", 7.616e9, 152_064, 3584, 28, 4, 128, false),
    m("Llama 3.1 8B", 8.030e9, 128_256, 4096, 32, 8, 128, false),
    m("Qwen2.5 14B", 14.77e9, 152_064, 5120, 48, 8, 128, false),
];

#[allow(clippy::too_many_arguments)]
const fn m(
    name: &'static str,
    params: f64,
    vocab: u32,
    hidden: u32,
    layers: u32,
    kv_heads: u32,
    head_dim: u32,
    tied: bool,
) -> ModelShape {
    ModelShape {
        name,
        params,
        vocab,
        hidden,
        layers,
        kv_heads,
        head_dim,
        tied,
    }
}

/// A weight format, as llama.cpp's quantize writes it.
#[derive(Debug, Clone, Copy)]
pub struct Quant {
    pub name: &'static str,
    /// Bits per weight of the bulk of the matrices (block scales included).
    pub bpw: f64,
    /// Bits per weight of the output matrix: llama.cpp keeps it at Q6_K for the 4-bit types.
    pub output_bpw: f64,
}

/// Q4_0: 18 bytes per 32 weights; Q8_0: 34 per 32; Q4_K_M mixes Q4_K (4.5 bpw) with Q6_K for
/// attn_v and half of ffn_down, 4.85 bpw overall on LLaMA 7B (3.80 GiB for 6.74 B).
pub const QUANTS: &[Quant] = &[
    Quant {
        name: "Q4_0",
        bpw: 4.5,
        output_bpw: 6.5625,
    },
    Quant {
        name: "Q4_K_M",
        bpw: 4.85,
        output_bpw: 6.5625,
    },
    Quant {
        name: "Q8_0",
        bpw: 8.5,
        output_bpw: 8.5,
    },
    Quant {
        name: "F16",
        bpw: 16.0,
        output_bpw: 16.0,
    },
];

impl ModelShape {
    fn embedding_params(&self) -> f64 {
        self.vocab as f64 * self.hidden as f64
    }

    /// Size of the weights in this quant (the GGUF file, less metadata).
    pub fn weight_bytes(&self, q: &Quant) -> f64 {
        let out = self.embedding_params();
        let rest = self.params - out;
        (rest * q.bpw + out * q.output_bpw) / 8.0
    }

    /// Bytes read per token: the weights, less the embedding rows not used when the output matrix
    /// is separate (one row of it is read), plus an f16 KV cache filled to `context` positions.
    pub fn bytes_per_token(&self, q: &Quant, context: u32) -> f64 {
        let mut bytes = self.weight_bytes(q);
        if !self.tied {
            bytes -= self.embedding_params() * q.bpw / 8.0;
        }
        bytes + self.kv_bytes(context)
    }

    pub fn kv_bytes(&self, context: u32) -> f64 {
        2.0 * self.layers as f64
            * self.kv_heads as f64
            * self.head_dim as f64
            * 2.0
            * context as f64
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub model: &'static str,
    pub quant: &'static str,
    pub weight_bytes: u64,
    pub bytes_per_token: u64,
    pub ceiling_tok_s: f64,
    pub expected_tok_s: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub bandwidth_gbps: f64,
    pub context: u32,
    pub eta: f64,
    pub fixed_cost_ms: f64,
    pub rows: Vec<Row>,
}

/// The decode ceiling of every model × quant at `bw_gbps`, with the KV cache at `context`.
pub fn table(bw_gbps: f64, context: u32) -> Table {
    let rows = MODELS
        .iter()
        .flat_map(|model| {
            QUANTS.iter().map(move |q| {
                let bpt = model.bytes_per_token(q, context);
                Row {
                    model: model.name,
                    quant: q.name,
                    weight_bytes: model.weight_bytes(q) as u64,
                    bytes_per_token: bpt as u64,
                    ceiling_tok_s: ceiling_tok_s(bpt, bw_gbps),
                    expected_tok_s: expected_tok_s(bpt, bw_gbps),
                }
            })
        })
        .collect();
    Table {
        bandwidth_gbps: bw_gbps,
        context,
        eta: ETA,
        fixed_cost_ms: FIXED_COST_S * 1e3,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_published_files() {
        // LLaMA 2 7B (6.74 B, vocab 32000, 4096 wide, untied): llama-bench lists Q4_0 at
        // 3.56 GiB, Q8_0 at 6.67 GiB and F16 at 12.55 GiB.
        let llama2 = m("LLaMA 2 7B", 6.738e9, 32_000, 4096, 32, 32, 128, false);
        let gib = |q: usize| llama2.weight_bytes(&QUANTS[q]) / (1u64 << 30) as f64;
        assert!((gib(0) - 3.56).abs() < 0.03, "Q4_0 {}", gib(0));
        assert!((gib(1) - 3.80).abs() < 0.05, "Q4_K_M {}", gib(1));
        assert!((gib(2) - 6.67).abs() < 0.03, "Q8_0 {}", gib(2));
        assert!((gib(3) - 12.55).abs() < 0.03, "F16 {}", gib(3));
    }

    #[test]
    fn the_model_reproduces_the_published_fit() {
        // M2 Ultra, 800 GB/s: 7B Q4_0 at 88.5 t/s and Q8_0 at 62.1 t/s (llama.cpp PR #2917).
        // The defaults predict both within 10%.
        let llama2 = m("LLaMA 2 7B", 6.738e9, 32_000, 4096, 32, 32, 128, false);
        for (q, published) in [(0, 88.54), (2, 62.05)] {
            let bpt = llama2.bytes_per_token(&QUANTS[q], 0);
            let e = expected_tok_s(bpt, 800.0);
            assert!(
                (e / published - 1.0).abs() < 0.10,
                "{} {e} vs {published}",
                QUANTS[q].name
            );
            assert!(ceiling_tok_s(bpt, 800.0) > e);
        }
    }

    #[test]
    fn the_table_covers_every_model_and_quant() {
        let t = table(25.0, DEFAULT_CONTEXT);
        assert_eq!(t.rows.len(), MODELS.len() * QUANTS.len());
        // seed 000: a 7B int4 model at 25 GB/s cannot exceed about 7 tok/s.
        let q7 = t
            .rows
            .iter()
            .find(|r| r.model == "Qwen2.5 7B" && r.quant == "Q4_0")
            .unwrap();
        assert!(
            q7.ceiling_tok_s > 5.0 && q7.ceiling_tok_s < 7.5,
            "{}",
            q7.ceiling_tok_s
        );
        assert!(q7.expected_tok_s < q7.ceiling_tok_s);
        assert_eq!(table(0.0, 0).rows[0].ceiling_tok_s, 0.0);
    }
}

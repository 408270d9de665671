//! mlx-lm (`mlx_lm.generate` and `mlx_lm.benchmark`): the verbose summary (`Prompt: N tokens,
//! X tokens-per-sec`, `Generation: N tokens, X tokens-per-sec`, `Peak memory: X GB`; before
//! late 2024 the counts were not printed: `Prompt: X tokens-per-sec`), and the benchmark's
//! `Timing with prompt_tokens=…, generation_tokens=…`, `Trial N:  prompt_tps=…,
//! generation_tps=…, peak_memory=…, total_time=…` and `Averages: …` lines.

use super::cap;
use super::runs::{num, phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::{BenchRow, Framework};
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::MlxLm;

struct Re {
    summary: Regex,
    peak: Regex,
    timing_with: Regex,
    trial: Regex,
    key: Regex,
    command: Regex,
}

/// Literals at least one of which every line this parser reads contains.
pub const KEYWORDS: &[&str] = &[
    "tokens-per-sec",
    "Peak memory",
    "prompt_tps=",
    "prompt_tokens=",
    "mlx_lm",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("mlx-lm pattern compiles");
        Re {
            summary: r(r"^(Prompt|Generation):\s*(?:(\d+) tokens,\s*)?([\d.]+) tokens-per-sec"),
            peak: r(r"^Peak memory:\s*([\d.]+)\s*GB"),
            timing_with: r(r"prompt_tokens=(\d+),\s*generation_tokens=(\d+)"),
            trial: r(r"^(Trial \d+|Averages):"),
            key: r(r"(prompt_tps|generation_tps|peak_memory)=([\d.]+)"),
            // `mlx_lm.generate --model mlx-community/Meta-Llama-3.1-8B-Instruct-4bit`, also
            // `python -m mlx_lm generate --model …` and `-m`: the model id names size and bits.
            command: r(r"\bmlx_lm(?:\.|\s+)(?:generate|benchmark|chat|server)\b.*?\s(?:--model|-m)[=\s]+(\S+)"),
        }
    })
}

#[derive(Default)]
pub struct MlxLm {
    /// The benchmark's prompt and generation lengths, from its `Timing with` line.
    lengths: Option<(u64, u64)>,
}

fn gb_bytes(gb: f64) -> u64 {
    (gb * 1e9).round() as u64
}

impl FrameworkParser for MlxLm {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if let Some(c) = cap(&r.summary, msg) {
            let kind = if &c[1] == "Prompt" {
                PhaseKind::Prefill
            } else {
                PhaseKind::Decode
            };
            let tokens = c.get(2).and_then(|m| m.as_str().parse().ok());
            runs.phase(FW, at, kind, phase(tokens, None, None, num(&c[3])));
            return;
        }
        if let Some(c) = cap(&r.peak, msg) {
            if let Some(run) = runs.open(FW) {
                run.peak_memory_bytes = num(&c[1]).map(gb_bytes);
                run.line_end = Some(at);
            }
            return;
        }
        if let Some(c) = cap(&r.command, msg) {
            runs.boundary(FW, at, |r| r.decode.is_some() || !r.bench.is_empty());
            let run = runs.run(FW, at);
            let model = c[1].trim_matches(['"', '\'', '`']);
            run.model = Some(model.to_string());
            run.quant = super::runs::quant_from_name(model);
            return;
        }
        if let Some(c) = cap(&r.timing_with, msg) {
            runs.boundary(FW, at, |r| !r.bench.is_empty() || r.decode.is_some());
            self.lengths = c[1].parse().ok().zip(c[2].parse().ok());
            return;
        }
        let Some(c) = cap(&r.trial, msg) else { return };
        let mut tps = (None, None);
        let mut peak = None;
        for k in r.key.captures_iter(msg) {
            let v = num(&k[2]);
            match &k[1] {
                "prompt_tps" => tps.0 = v,
                "generation_tps" => tps.1 = v,
                _ => peak = v,
            }
        }
        let (pp, tg) = self.lengths.unwrap_or((0, 0));
        let run = runs.run(FW, at);
        if let Some(p) = peak {
            run.peak_memory_bytes = Some(gb_bytes(p));
        }
        if &c[1] == "Averages" {
            run.prefill = Some(phase(Some(pp).filter(|n| *n > 0), None, None, tps.0));
            run.decode = Some(phase(Some(tg).filter(|n| *n > 0), None, None, tps.1));
            return;
        }
        for (test, v) in [(format!("pp{pp}"), tps.0), (format!("tg{tg}"), tps.1)] {
            if let Some(tok_s) = v.filter(|v| *v > 0.0) {
                if run.bench.len() < 1000 {
                    run.bench.push(BenchRow {
                        test,
                        tok_s,
                        stddev: None,
                        n_threads: None,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {

    fn parse(text: &str) -> Vec<crate::evidence::Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    #[test]
    fn generate_summary_both_eras() {
        let new = "==========\nPrompt: 24 tokens, 181.203 tokens-per-sec\nGeneration: 100 tokens, 52.661 tokens-per-sec\nPeak memory: 4.581 GB\n";
        let runs = parse(new);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].framework, Some(crate::evidence::Framework::MlxLm));
        assert_eq!(runs[0].decode.as_ref().unwrap().tok_s, Some(52.661));
        assert_eq!(runs[0].decode.as_ref().unwrap().tokens, Some(100));
        assert_eq!(runs[0].prefill.as_ref().unwrap().tok_s, Some(181.203));
        assert_eq!(runs[0].peak_memory_bytes, Some(4_581_000_000));
        let old = "Prompt: What is MLX?\n==========\nPrompt: 95.124 tokens-per-sec\nGeneration: 33.710 tokens-per-sec\n";
        let runs = parse(old);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].decode.as_ref().unwrap().tok_s, Some(33.71));
    }

    #[test]
    fn benchmark_trials() {
        let text = "\
Running warmup..
Timing with prompt_tokens=512, generation_tokens=1024, batch_size=1.
Trial 1:  prompt_tps=1203.558, generation_tps=61.247, peak_memory=5.120, total_time=17.201
Trial 2:  prompt_tps=1199.010, generation_tps=58.902, peak_memory=5.120, total_time=17.903
Averages: prompt_tps=1201.284, generation_tps=60.075, peak_memory=5.120
";
        let runs = parse(text);
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        assert_eq!(r.bench.len(), 4);
        assert_eq!(r.bench[1].test, "tg1024");
        assert_eq!(r.decode.as_ref().unwrap().tok_s, Some(60.075));
    }
}

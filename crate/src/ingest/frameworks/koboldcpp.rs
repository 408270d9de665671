//! koboldcpp, a llama.cpp fork with its own console: the per-request summary in its three
//! spellings (`Time Taken - Processing:…` in 2023, `ContextLimit: …, Processing:…, Generation:…`
//! in January 2024, `CtxLimit:…[, Amt:N/M][, Init:…s], Process:…s (…ms/T = …T/s),
//! Generate:…s (…ms/T = …T/s), Total:…` since), its `System Info:` flags and the thread count
//! it announces. The llama.cpp loader lines it also prints are llama.cpp's reader's; the facts
//! land in the same llama.cpp run. The `\r`-overwritten `Processing Prompt [BLAS] (N / N tokens)`
//! and `Generating (N / M tokens)` progress lines carry no time and are left to the summary.

use super::llama_cpp::{offload, quote_placement};
use super::runs::{num, phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use super::{cap, cap_if};
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::LlamaCpp;

struct Re {
    process: Regex,
    generate: Regex,
    amount: Regex,
    threads: Regex,
    version: Regex,
    backend_flag: Regex,
    layers_flag: Regex,
    namespace_layers: Regex,
    namespace_backend: Regex,
}

/// Literals at least one of which every line this parser reads contains.
pub const KEYWORDS: &[&str] = &[
    "ms/T",
    "System Info:",
    "Threads: ",
    "Threads=",
    "Welcome to KoboldCpp",
    "koboldcpp",
    "Namespace(",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("koboldcpp pattern compiles");
        Re {
            process: r(r"\bProcess(?:ing)?:\s*([\d.]+)s\s*\(\s*([\d.]+)\s*ms/T(?:\s*=\s*([\d.]+)\s*T/s)?\)"),
            generate: r(r"\bGenerat(?:e|ion):\s*([\d.]+)s\s*\(\s*([\d.]+)\s*ms/T(?:\s*=\s*([\d.]+)\s*T/s)?\)"),
            amount: r(r"\bAmt:\s*(\d+)/(\d+)"),
            threads: r(r"^(?:Auto Set Threads: (\d+)|.*\bThreads[=:] ?(\d+)\b)"),
            version: r(r"Welcome to KoboldCpp - Version (\d+)\.(\d+)"),
            // The command line: `./koboldcpp-linux-x64 --usecublas`, `koboldcpp.exe --usevulkan 0`,
            // `python koboldcpp.py model.gguf --useclblast 0 0`.
            backend_flag: r(r"(?i)\bkoboldcpp[\w.-]*\s.*?(--use(?:cublas|vulkan|clblast|hipblas))\b"),
            layers_flag: r(r"(?:--gpulayers|--gpu-layers|--n-gpu-layers|-ngl)[\s=]+(-?\d+)"),
            // `print(args)` at start-up: every option's value, defaults included.
            namespace_layers: r(r"\bgpulayers=(-?\d+)"),
            namespace_backend: r(r"\b(use(?:cublas|vulkan|clblast|hipblas))=(\[[^\]]*\]|\d+|True)"),
        }
    })
}

#[derive(Default)]
pub struct Koboldcpp;

impl FrameworkParser for Koboldcpp {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if msg.contains("ms/T") {
            let generated = cap(&r.amount, msg).and_then(|c| c[1].parse::<u64>().ok());
            let mut seen = false;
            for (re, kind) in [
                (&r.process, PhaseKind::Prefill),
                (&r.generate, PhaseKind::Decode),
            ] {
                let Some(c) = cap(re, msg) else { continue };
                let secs = num(&c[1]);
                let ms_per_token = num(&c[2]);
                let tok_s = c.get(3).and_then(|m| num(m.as_str()));
                let ms = secs.map(|s| s * 1000.0);
                // Only `Amt` says how many tokens were generated; the prompt's count follows from
                // its time and ms per token, so it is left unset rather than rounded.
                let tokens = match kind {
                    PhaseKind::Decode => generated,
                    PhaseKind::Prefill => None,
                };
                runs.phase(FW, at, kind, phase(tokens, ms, ms_per_token, tok_s));
                seen = true;
            }
            if seen {
                return;
            }
        }
        if let Some(c) = cap_if(msg.contains("Welcome to KoboldCpp"), &r.version, msg) {
            runs.run(FW, at).build = Some(format!("koboldcpp {}.{}", &c[1], &c[2]));
            return;
        }
        if msg.starts_with("Namespace(") {
            if let Some(b) = cap(&r.namespace_backend, msg) {
                let o = offload(runs.run(FW, at));
                o.gpu_flag = Some(format!("--{}", &b[1]));
                o.requested = cap(&r.namespace_layers, msg).and_then(|c| c[1].parse().ok());
                quote_placement(o, at, msg, false);
            }
            return;
        }
        if let Some(c) = cap_if(msg.contains("koboldcpp"), &r.backend_flag, msg) {
            let o = offload(runs.run(FW, at));
            o.gpu_flag = Some(c[1].to_string());
            o.requested = cap(&r.layers_flag, msg).and_then(|c| c[1].parse().ok());
            quote_placement(o, at, msg, false);
            return;
        }
        if let Some(rest) = msg.strip_prefix("System Info: ") {
            super::system_info::read(FW, &format!("system_info: {rest}"), at, runs);
            return;
        }
        if msg.contains("Threads") {
            if let Some(c) = cap(&r.threads, msg) {
                let n = c.get(1).or(c.get(2)).and_then(|m| m.as_str().parse().ok());
                if let Some(n) = n {
                    runs.run(FW, at).n_threads = Some(n);
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
    fn each_era_of_the_summary_line() {
        let lines = [
            ("CtxLimit:1422/4096, Amt:200/512, Init:0.02s, Process:1.87s (1.5ms/T = 651.87T/s), Generate:9.46s (47.3ms/T = 21.14T/s), Total:11.33s (17.65T/s)", 651.87, 21.14, Some(200)),
            ("CtxLimit:900/2048, Amt:120/120, Process:3.10s (4.1ms/T = 243.90T/s), Generate:8.00s (66.7ms/T = 15.00T/s), Total:11.10s (10.81T/s)", 243.9, 15.0, Some(120)),
            ("CtxLimit: 512/2048, Process:0.90s (2.3ms/T = 434.78T/s), Generate:6.40s (64.0ms/T = 15.62T/s), Total:7.30s (13.70T/s)", 434.78, 15.62, None),
            ("ContextLimit: 512/2048, Processing:0.90s (2.3ms/T), Generation:6.40s (64.0ms/T), Total:7.30s (73.0ms/T = 13.70T/s)", 1000.0 / 2.3, 1000.0 / 64.0, None),
            ("Time Taken - Processing:1.2s (6ms/T), Generation:8.0s (80ms/T), Total:9.2s", 1000.0 / 6.0, 12.5, None),
        ];
        for (line, pp, tg, amt) in lines {
            let text = format!("Processing Prompt [BLAS] (200 / 200 tokens)\nGenerating (12 / 200 tokens)\n{line}\n");
            let runs = parse(&text);
            assert_eq!(runs.len(), 1, "{line}: {runs:?}");
            let r = &runs[0];
            let (p, d) = (r.prefill.as_ref().unwrap(), r.decode.as_ref().unwrap());
            assert!((p.tok_s.unwrap() - pp).abs() < 0.01, "{line}: {p:?}");
            assert!((d.tok_s.unwrap() - tg).abs() < 0.01, "{line}: {d:?}");
            assert_eq!(d.tokens, amt, "{line}");
        }
    }

    #[test]
    fn a_gpu_backend_chosen_with_or_without_layers() {
        let runs = parse(
            "$ ./koboldcpp-linux-x64 --usecublas\n***\nWelcome to KoboldCpp - Version 1.61.2\n",
        );
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(
            (o.gpu_flag.as_deref(), o.requested),
            (Some("--usecublas"), None)
        );
        assert_eq!(runs[0].build.as_deref(), Some("koboldcpp 1.61"));
        let runs =
            parse("koboldcpp.exe --model m.gguf --usevulkan 0 --gpulayers 33 --contextsize 4096");
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(
            (o.gpu_flag.as_deref(), o.requested),
            (Some("--usevulkan"), Some(33))
        );
        let runs = parse("Namespace(model=None, model_param='x.gguf', port=5001, threads=7, usecublas=['normal', '0'], usevulkan=None, useclblast=None, gpulayers=0, tensor_split=None)");
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(
            (o.gpu_flag.as_deref(), o.requested),
            (Some("--usecublas"), Some(0))
        );
        // A CPU-only start names no GPU backend.
        let runs =
            parse("Namespace(model_param='x.gguf', usecublas=None, usevulkan=None, gpulayers=0)");
        assert!(runs.iter().all(|r| r.offload.is_none()), "{runs:?}");
    }

    #[test]
    fn system_info_and_threads() {
        let text = "\
Auto Set Threads: 6
System Info: AVX = 1 | AVX_VNNI = 0 | AVX2 = 1 | AVX512 = 0 | FMA = 1 | NEON = 0 | F16C = 1 |
CtxLimit:300/2048, Amt:50/512, Init:0.01s, Process:0.40s (1.3ms/T = 750.00T/s), Generate:2.50s (50.0ms/T = 20.00T/s), Total:2.90s (17.24T/s)
";
        let runs = parse(text);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].n_threads, Some(6));
        assert_eq!(runs[0].cpu_features.get("AVX512"), Some(&false));
        assert_eq!(runs[0].cpu_features.get("AVX2"), Some(&true));
    }
}

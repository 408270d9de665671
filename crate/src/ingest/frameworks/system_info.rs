//! llama.cpp's `system_info` line, which its siblings print too (whisper.cpp, koboldcpp's
//! `System Info:`): threads, and the CPU features in each era's spelling.

use super::cap;
use super::runs::RunCollector;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

struct Re {
    threads: Regex,
    flag: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("system_info pattern compiles");
        Re {
            threads: r(r"n_threads\s*=\s*(\d+)(?:\s*\(n_threads_batch\s*=\s*(\d+)\))?\s*/\s*(\d+)"),
            flag: r(r"([A-Za-z][A-Za-z0-9_]*)\s*=\s*(\d+)\s*$"),
        }
    })
}

/// llama.cpp's `system_info` line (and its siblings', which print the same flags): threads, and
/// the CPU features in each era's spelling, into the open run of `fw`.
pub fn read(fw: Framework, msg: &str, at: u64, runs: &mut RunCollector) {
    let r = re();
    // A second feature line is a second program's (llama.cpp's beside llama-cpp-python's, two
    // builds compared): its flags are not the first build's.
    runs.boundary(fw, at, |run| !run.cpu_features.is_empty());
    let run = runs.run(fw, at);
    if let Some(c) = cap(&r.threads, msg) {
        run.n_threads = c.get(1).and_then(|m| m.as_str().parse().ok());
        run.n_threads_batch = c.get(2).and_then(|m| m.as_str().parse().ok());
        run.hw_threads = c.get(3).and_then(|m| m.as_str().parse().ok());
    }
    let mut any_zero = false;
    let mut flags = Vec::new();
    for seg in msg.split('|') {
        if seg.contains("n_threads") {
            continue;
        }
        if let Some(c) = cap(&r.flag, seg.trim()) {
            let name = c[1].to_string();
            match &c[2] {
                "0" => {
                    any_zero = true;
                    flags.push((name, false));
                }
                "1" => flags.push((name, true)),
                _ => {} // SVE_CNT = 16 and the like: a size, not a flag
            }
        }
    }
    let new_style = msg.contains("CPU :") && !any_zero;
    let arm = flags.iter().any(|(n, on)| *on && n == "NEON");
    // An arm64 build always lists NEON, and any x86 build above the x86-64 baseline lists SSE3:
    // a CPU section with neither is the baseline x86 build, with no vector extension at all
    // (ollama 0.12.7's CPU backend: `CPU.0.LLAMAFILE=1` and nothing else).
    let cpu_section = msg.split_once("CPU :").map_or("", |(_, rest)| rest);
    let simd = |n: &str| {
        n.starts_with("SSE") || n.starts_with("AVX") || n.starts_with("SVE") || n == "NEON"
    };
    let baseline_x86 =
        new_style && !cpu_section.trim().is_empty() && !flags.iter().any(|(n, on)| *on && simd(n));
    let x86 = baseline_x86
        || flags
            .iter()
            .any(|(n, on)| *on && matches!(n.as_str(), "SSE3" | "AVX" | "AVX2"));
    for (n, on) in flags {
        run.cpu_features.insert(n, on);
    }
    // Since the CPU-backend split (Nov 2024, b4216 on) only enabled features are listed, so
    // a missing flag is off; before, every flag was printed with 0 or 1.
    if new_style {
        let implied: &[&str] = if arm {
            &["DOTPROD", "MATMUL_INT8", "SVE"]
        } else if x86 {
            &["AVX", "AVX2", "AVX_VNNI", "AVX512", "F16C", "FMA"]
        } else {
            &[]
        };
        for f in implied {
            run.cpu_features.entry((*f).to_string()).or_insert(false);
        }
    }
}

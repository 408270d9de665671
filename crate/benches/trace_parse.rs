//! `cargo bench -p tokscope --bench trace_parse`: parse speed of `perf script` text with
//! callchains, through the same chunked `Session` path the page and the CLI use.
//!
//! Writes the generated input to `target/bench/perf-script-callchains.txt`; `make bench` measures
//! the native CLI and wasm side by side (`scripts/bench-inputs.mjs
//! perf=target/bench/perf-script-callchains.txt` does it for this file).

use std::time::Instant;
use tokscope::{Lang, Session};

#[path = "support/perf_script.rs"]
mod perf_script;

/// About `mb` MiB of `perf script` output with callchains (`gen_bench_data perf` writes the same).
fn synthetic(mb: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity((mb << 20) + (64 << 10));
    // Writing into a Vec cannot fail.
    let _ = perf_script::write((mb as u64) << 20, &mut out);
    out
}

fn main() {
    let mb: usize = std::env::var("TRACE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128);
    let data = synthetic(mb);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("perf-script-callchains.txt"), &data);
    let mut best = f64::MAX;
    let mut findings = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let mut s = Session::new();
        // 4 MiB slices, as the page reads a File.
        let id = s.begin("bench.perf.txt");
        for c in data.chunks(4 << 20) {
            s.push(id, c);
        }
        s.end(id);
        let r = s.report(Lang::En);
        findings = r.findings.len();
        best = best.min(start.elapsed().as_secs_f64());
    }
    let mbs = data.len() as f64 / (1 << 20) as f64 / best;
    println!(
        "native: {mbs:.0} MB/s (perf script with callchains, {:.1} MiB, best of 5: {:.3} s; {findings} findings)",
        data.len() as f64 / (1 << 20) as f64,
        best
    );
}

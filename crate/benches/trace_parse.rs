//! `cargo bench -p tokscope --bench trace_parse`: parse speed of `perf script` text with
//! callchains, through the same chunked `Session` path the page and the CLI use.
//!
//! Writes the generated input to `target/bench/perf-script-callchains.txt` so the browser
//! benchmark (`node tests/e2e/bench-traces.mjs`) measures the very same bytes in wasm.

use std::time::Instant;
use tokscope::{Lang, Session};

/// Deterministic pseudo-random numbers (no dependency, same bytes every run).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

const SYMS: &[&str] = &[
    "ggml_vec_dot_q4_0_q8_0+0x1c4",
    "ggml_compute_forward_mul_mat_one_chunk+0x2f0",
    "ggml_compute_forward_mul_mat+0x5a8",
    "ggml_graph_compute_thread.isra.0+0x1a0",
    "ggml_barrier+0x7c",
    "quantize_row_q8_0+0x88",
    "llama_decode_impl+0x9d4",
    "__pthread_mutex_lock+0x30",
];

/// About `mb` MiB of `perf script` output: sample headers with 6-14 frame callchains.
pub fn synthetic(mb: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(mb << 20);
    let mut r = Lcg(42);
    let mut t = 81_234.000_001_f64;
    while out.len() < mb << 20 {
        let tid = 2231 + r.next() % 8;
        let cpu = r.next() % 8;
        t += 0.000_25;
        out.extend_from_slice(
            format!("       llama-cli  2231/{tid} [{cpu:03}] {t:.6}:     250000 cpu-clock:pppH:\n")
                .as_bytes(),
        );
        for _ in 0..6 + r.next() % 9 {
            let sym = SYMS[(r.next() % SYMS.len() as u64) as usize];
            let addr = 0xffff_8c00_0000u64 + r.next() % 0x40_0000;
            out.extend_from_slice(
                format!("\t    {addr:x} {sym} (/home/user/llama.cpp/build/bin/libggml-cpu.so)\n")
                    .as_bytes(),
            );
        }
        out.push(b'\n');
    }
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

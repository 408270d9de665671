//! Writes realistic large inputs of a chosen size to stdout, so the throughput and memory
//! benchmarks need no committed giant files.
//!
//! `cargo run --release --example gen_bench_data -- log 1024 > /tmp/big.log` (size in MiB)
//! `cargo run --release --example gen_bench_data -- perf 2048 > /tmp/big.perf.txt`: `perf script`
//! text with callchains (`make bench-data` writes both into target/bench/).

use std::io::{BufWriter, Write};

#[path = "../benches/support/perf_script.rs"]
mod perf_script;

/// A llama.cpp session inside Android logcat (threadtime), with the noise of other tags and the
/// fallback lines a real compatibility build prints: the mix the log parsers see in the wild.
fn log_block(n: u64, out: &mut impl Write) -> std::io::Result<()> {
    let (mm, ss, ms) = ((n / 60_000) % 60, (n / 1000) % 60, n % 1000);
    let ts = format!("11-29 14:{mm:02}:{ss:02}.{ms:03}");
    writeln!(out, "{ts} 12034 12071 I llama-android.cpp: llama_model_loader: - kv  {:>2}:                          qwen2.block_count u32              = 28", n % 30)?;
    writeln!(
        out,
        "{ts} 12034 12071 I llama-android.cpp: llama_model_loader: - type q4_0:  197 tensors"
    )?;
    writeln!(out, "{ts} 12034 12034 I Choreographer: Skipped {} frames!  The application may be doing too much work on its main thread.", n % 90)?;
    // A real fallback line now and then: often enough to exercise the whole path, rare as in life.
    if n % 50 == 0 {
        writeln!(out, "{ts} 12034 12071 I llama-android.cpp: done_getting_tensors: tensor 'blk.{}.attn_q.weight' (q4_0) (and {} others) cannot be used with preferred buffer type CPU_REPACK, using CPU instead", n % 28, n % 200)?;
    }
    writeln!(out, "{ts} 12034 12071 I llama-android.cpp: load_tensors:   CPU_Mapped model buffer size =  4219.18 MiB")?;
    writeln!(
        out,
        "{ts} 12034 12049 W System  : A resource failed to call close."
    )?;
    writeln!(out, "{ts} 12034 12071 I llama-android.cpp: system_info: n_threads = 8 (n_threads_batch = 8) / 8 | CPU : NEON = 1 | ARM_FMA = 1 | LLAMAFILE = 1 | REPACK = 1 |")?;
    writeln!(out, "{ts} 12034 12071 I llama-android.cpp: llama_perf_context_print:        eval time =  223145.30 ms /   127 runs   ( 1757.05 ms per token,     0.57 tokens per second)")?;
    writeln!(
        out,
        "{ts}  1520  1544 D WifiStateMachine: Connected to network id {} rssi -{} dBm",
        n % 7,
        40 + n % 50
    )?;
    writeln!(
        out,
        "{ts} 12034 12071 I llama-android.cpp: print_info: file size   = 4.12 GiB (4.64 BPW)"
    )
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "log".into());
    let mib: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(64);
    let target = mib << 20;
    let stdout = std::io::stdout();
    let mut out = CountingWriter {
        inner: BufWriter::new(stdout.lock()),
        written: 0,
    };
    let mut n = 0;
    match kind.as_str() {
        "log" => {
            while out.written < target {
                log_block(n, &mut out)?;
                n += 1;
            }
        }
        "perf" => perf(target, &mut out)?,
        other => {
            eprintln!("unknown kind '{other}': use log or perf");
            std::process::exit(2);
        }
    }
    out.flush()
}

/// `perf script` with callchains of a llama.cpp decode on a big.LITTLE board (the same
/// generator as the `trace_parse` bench), streamed: memory stays a few KiB whatever the size.
fn perf(target: u64, out: &mut impl Write) -> std::io::Result<()> {
    perf_script::write(target, out).map(|_| ())
}

struct CountingWriter<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

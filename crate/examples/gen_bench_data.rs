//! Writes realistic large inputs of a chosen size to stdout, so the throughput and memory
//! benchmarks need no committed giant files.
//!
//! `cargo run --release --example gen_bench_data -- log 1024 > /tmp/big.log` (size in MiB)
//!
//! Kinds:
//! - `log`: a phone's logcat (threadtime) captured while an llama.cpp app loads and generates:
//!   mostly other tags' noise, as a real capture is, with the app's lines among it.
//! - `log-dense`: the app's own lines only (every line is one a framework parser reads): the
//!   worst case for the log parsers.
//! - `perf`: `perf script` text with callchains (`make bench-data` writes the bench inputs into
//!   target/bench/).

use std::io::{BufWriter, Write};

#[path = "../benches/support/perf_script.rs"]
mod perf_script;

/// Other tags' lines of a busy phone, as `adb logcat -v threadtime` shows them: the bulk of any
/// long capture. `n` varies the numbers so no two blocks are identical.
fn noise_block(n: u64, ts: &str, out: &mut impl Write) -> std::io::Result<()> {
    let pid = 1000 + (n * 7919) % 29000;
    let tid = pid + n % 40;
    writeln!(out, "{ts}  1520  1561 I ActivityManager: Start proc {pid}:com.android.vending:background/u0a{} for service {{com.android.vending/com.google.android.finsky.ipcservers.background.BackgroundGrpcServerAndroidService}}", n % 300)?;
    writeln!(out, "{ts}  {pid}  {pid} I Choreographer: Skipped {} frames!  The application may be doing too much work on its main thread.", n % 90)?;
    writeln!(
        out,
        "{ts}   812   812 D SurfaceFlinger: Display 4619827259835644672 HWC layers:"
    )?;
    writeln!(
        out,
        "{ts}  1520  1544 D WifiStateMachine: Connected to network id {} rssi -{} dBm",
        n % 7,
        40 + n % 50
    )?;
    writeln!(
        out,
        "{ts}  {pid}  {tid} W System  : A resource failed to call close. "
    )?;
    writeln!(out, "{ts}  2310  2387 I chatty  : uid=10143(com.google.android.gms) Binder:2310_4 identical {} lines", n % 17)?;
    writeln!(out, "{ts}   655   655 E ANDR-PERF-OPTSHANDLER: Perflock resource /sys/class/devfreq/soc:qcom,cpu-llcc-ddr-bw/min_freq not supported")?;
    writeln!(out, "{ts}  1520  1999 I WindowManager: Changing focus from Window{{{:x} u0 com.android.launcher3/.Launcher}} to null", 0x3f2a_1c00 + n)?;
    writeln!(out, "{ts}   975  1002 D audio_hw_primary: out_set_parameters: enter: usecase(1: low-latency-playback) kvpairs: routing=2")?;
    writeln!(out, "{ts}  {pid}  {tid} D OpenGLRenderer: endAllActiveAnimators on 0x{:x} (RippleDrawable) with handle 0x{:x}", 0x7a3c_0000 + n * 16, 0x7b00_0000 + n * 8)?;
    writeln!(out, "{ts}  1520  1538 I PowerManagerService: Waking up from Asleep (uid=1000, reason=WAKE_REASON_POWER_BUTTON, details=android.policy:POWER)...")?;
    writeln!(out, "{ts}   610   610 I thermal-engine: TM Id 'MONITOR-TEMP' Sensor 'cpu-1-0-usr' - alarm cleared at {}.{} degC", 40 + n % 20, n % 10)?;
    writeln!(
        out,
        "{ts}  3121  3140 V FA      : Recording user engagement, ms: {}",
        n * 37 % 100_000
    )?;
    writeln!(out, "{ts}  1520  1564 W BroadcastQueue: Background execution not allowed: receiving Intent {{ act=android.intent.action.BATTERY_CHANGED flg=0x60000010 (has extras) }} to com.example.widget/.BatteryReceiver")?;
    writeln!(out, "{ts}  {pid}  {tid} I zygote64: Background concurrent copying GC freed {}({}KB) AllocSpace objects, 12(240KB) LOS objects, 49% free, 5MB/11MB, paused 108us total {}.{}ms", n % 50_000, n % 2000, n % 90, n % 1000)
}

/// A llama.cpp session inside Android logcat (threadtime), with the noise of other tags and the
/// fallback lines a real compatibility build prints: the mix the log parsers see in the wild.
fn log_block(n: u64, out: &mut impl Write) -> std::io::Result<()> {
    let ts = timestamp(n);
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

fn timestamp(n: u64) -> String {
    let (mm, ss, ms) = ((n / 60_000) % 60, (n / 1000) % 60, n % 1000);
    format!("11-29 14:{mm:02}:{ss:02}.{ms:03}")
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
                let ts = timestamp(n);
                noise_block(n, &ts, &mut out)?;
                noise_block(n + 1, &ts, &mut out)?;
                log_block(n, &mut out)?;
                noise_block(n + 2, &ts, &mut out)?;
                n += 1;
            }
        }
        "log-dense" => {
            while out.written < target {
                log_block(n, &mut out)?;
                n += 1;
            }
        }
        "perf" => perf(target, &mut out)?,
        other => {
            eprintln!("unknown kind '{other}': use log, log-dense or perf");
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

//! The native side of the comparison (`tokscope bench`): the read loop and the kernel on 1..N
//! threads, timed the way the browser probe times them, so the two can be set side by side.
//!
//! Timing: each thread owns its buffer; after a warm-up window it runs many short calls and counts
//! bytes in windows of at least [`WINDOW_S`]; its figure is the median of [`WINDOWS`] windows.
//! Threads start together (a barrier) and their medians add up to the aggregate.

use super::q4::Path;
use super::work::{median, Worker};
use serde::Serialize;
use std::sync::{Arc, Barrier};
use std::time::Instant;

pub const WINDOWS: usize = 5;
pub const WINDOW_S: f64 = 0.020;
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    Read,
    Q4(Path),
}

/// The median GB/s of `WINDOWS` windows of calls to `call`, after one warm-up window. `call`
/// returns the bytes it processed.
pub fn measure(mut call: impl FnMut() -> u64) -> f64 {
    let mut rates = Vec::with_capacity(WINDOWS);
    for w in 0..=WINDOWS {
        let start = Instant::now();
        let mut bytes = 0u64;
        let mut elapsed;
        loop {
            bytes += call();
            elapsed = start.elapsed().as_secs_f64();
            if elapsed >= WINDOW_S {
                break;
            }
        }
        if w > 0 {
            rates.push(bytes as f64 / elapsed / 1e9);
        }
    }
    median(&mut rates)
}

impl Worker {
    pub fn run(&mut self, work: Work) -> f64 {
        let ws = self.bytes();
        match work {
            Work::Read => measure(|| self.read_call(ws)),
            Work::Q4(p) => measure(|| self.q4_call(p, ws)),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ThreadPoint {
    pub threads: usize,
    pub read_gbps: f64,
    pub q4_gbps: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct NativeBench {
    pub read_gbps_1t: f64,
    pub read_gbps_best: f64,
    /// The kernel on one thread, per path (`scalar`, `sse2`, ...).
    pub q4_gbps_1t: std::collections::BTreeMap<String, f64>,
    pub q4_gbps_best: f64,
    pub best_path: &'static str,
    /// Bytes of one thread's buffer in the single-thread run; N threads share that total.
    pub buffer_bytes: usize,
    pub threads: Vec<ThreadPoint>,
}

/// Runs `work` on `n` threads at once, each on its share of `total` bytes; the sum of their GB/s.
fn aggregate(workers: &mut [Worker], work: Work) -> f64 {
    let barrier = Arc::new(Barrier::new(workers.len()));
    std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                let b = Arc::clone(&barrier);
                s.spawn(move || {
                    b.wait();
                    w.run(work)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    })
}

/// The whole native bench: 1 thread on `total` bytes, then 1..=max_threads threads sharing it.
pub fn run(total: usize, max_threads: usize) -> Result<NativeBench, String> {
    let best = Path::best();
    let mut one = vec![Worker::new(total, 1)?];
    let buffer_bytes = one[0].bytes();
    let read_1t = one[0].run(Work::Read);
    let mut q4_1t = std::collections::BTreeMap::new();
    for p in Path::available() {
        q4_1t.insert(p.name().to_string(), one[0].run(Work::Q4(p)));
    }
    drop(one);
    let mut points = Vec::new();
    for n in 1..=max_threads.max(1) {
        let mut ws = (0..n)
            .map(|i| Worker::new(total / n, 1 + i as u64))
            .collect::<Result<Vec<_>, _>>()?;
        let read = aggregate(&mut ws, Work::Read);
        let q4 = aggregate(&mut ws, Work::Q4(best));
        points.push(ThreadPoint {
            threads: n,
            read_gbps: read,
            q4_gbps: q4,
        });
    }
    let max = |f: fn(&ThreadPoint) -> f64| points.iter().map(f).fold(0.0, f64::max);
    Ok(NativeBench {
        read_gbps_1t: read_1t,
        read_gbps_best: max(|p| p.read_gbps).max(read_1t),
        q4_gbps_best: max(|p| p.q4_gbps),
        q4_gbps_1t: q4_1t,
        best_path: best.name(),
        buffer_bytes,
        threads: points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_bench_measures_both_loops() {
        let b = run(4 << 20, 2).unwrap();
        assert!(b.read_gbps_1t > 0.0 && b.read_gbps_best >= b.read_gbps_1t);
        assert!(b.q4_gbps_1t["scalar"] > 0.0);
        assert_eq!(b.threads.len(), 2);
        assert!(b.buffer_bytes <= 4 << 20 && b.buffer_bytes > 3 << 20);
    }

    #[test]
    fn median_of_windows() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut []), 0.0);
    }
}

//! The native side of the comparison (`tokscope bench`): the read loop and the kernel on 1..N
//! threads, timed the way the browser probe times them, so the two can be set side by side.
//!
//! Timing: each thread owns its buffer; after a warm-up window per job it runs many short calls
//! and counts bytes in windows of at least [`WINDOW_S`]. Jobs measured together take turns, one
//! window each, for [`WINDOWS`] rounds, so a change in the machine's load hits them alike; each
//! job's figure is the median of its windows. Threads start together (a barrier) and their figures
//! add up to the aggregate.

use super::q4::Path;
use super::work::{Worker, WINDOWS, WINDOW_S};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    Read,
    Q4(Path),
}

/// The GB/s of one window: calls (each returns the bytes it processed) until [`WINDOW_S`] passed.
fn window(w: &mut Worker, work: Work, working_set: usize) -> f64 {
    let start = Instant::now();
    let mut bytes = 0u64;
    loop {
        bytes += match work {
            Work::Read => w.read_call(working_set),
            Work::Q4(p) => w.q4_call(p, working_set),
        };
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= WINDOW_S {
            return bytes as f64 / elapsed / 1e9;
        }
    }
}

/// Measures `works` side by side on one worker over its whole buffer: the median GB/s of each.
pub fn measure(w: &mut Worker, works: &[Work]) -> Vec<f64> {
    let ws = w.bytes();
    for &work in works {
        window(w, work, ws);
    }
    let mut rates = vec![Vec::with_capacity(WINDOWS); works.len()];
    for _ in 0..WINDOWS {
        for (&work, r) in works.iter().zip(&mut rates) {
            r.push(window(w, work, ws));
        }
    }
    rates
        .iter()
        .map(|r| crate::stats::median(r.iter().copied()).unwrap_or(0.0))
        .collect()
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
    /// The kernel on one thread, per path (`scalar`, `sse2`, `ssse3`, ...).
    pub q4_gbps_1t: BTreeMap<String, f64>,
    pub q4_gbps_best: f64,
    pub best_path: &'static str,
    /// Bytes of one thread's buffer in the single-thread run; N threads share that total.
    pub buffer_bytes: usize,
    pub threads: Vec<ThreadPoint>,
}

/// Runs `works` side by side on all `workers` at once; the sums of their GB/s, per work.
fn aggregate(workers: &mut [Worker], works: &[Work]) -> Vec<f64> {
    let barrier = Arc::new(Barrier::new(workers.len()));
    std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                let b = Arc::clone(&barrier);
                s.spawn(move || {
                    b.wait();
                    measure(w, works)
                })
            })
            .collect();
        let mut total = vec![0.0; works.len()];
        for h in handles {
            for (t, v) in total.iter_mut().zip(h.join().unwrap_or_default()) {
                *t += v;
            }
        }
        total
    })
}

/// The whole native bench: 1 thread on `total` bytes (the read loop and every path side by side),
/// then 1..=max_threads threads sharing `total` (the read loop and the best path).
pub fn run(total: usize, max_threads: usize) -> Result<NativeBench, String> {
    let best = Path::best();
    let paths = Path::available();
    let mut one = Worker::new(total, 1)?;
    let buffer_bytes = one.bytes();
    let works: Vec<Work> = std::iter::once(Work::Read)
        .chain(paths.iter().map(|&p| Work::Q4(p)))
        .collect();
    let rates = measure(&mut one, &works);
    drop(one);
    let read_1t = rates[0];
    let q4_1t: BTreeMap<String, f64> = paths
        .iter()
        .zip(&rates[1..])
        .map(|(p, v)| (p.name().to_string(), *v))
        .collect();
    let mut points = Vec::new();
    for n in 1..=max_threads.max(1) {
        let mut ws = (0..n)
            .map(|i| Worker::new(total / n, 1 + i as u64))
            .collect::<Result<Vec<_>, _>>()?;
        let both = aggregate(&mut ws, &[Work::Read, Work::Q4(best)]);
        points.push(ThreadPoint {
            threads: n,
            read_gbps: both[0],
            q4_gbps: both[1],
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
        assert_eq!(b.q4_gbps_1t.len(), Path::available().len());
        assert_eq!(b.threads.len(), 2);
        assert!(b
            .threads
            .iter()
            .all(|t| t.read_gbps > 0.0 && t.q4_gbps > 0.0));
        assert!(b.buffer_bytes <= 4 << 20 && b.buffer_bytes > 3 << 20);
    }
}

//! The native side of the comparison (`tokscope bench`): the read loop and the kernel on 1..N
//! threads, timed the way the browser probe times them, so the two can be set side by side.
//!
//! Timing: each thread owns its buffer; after a warm-up window it runs many short calls and counts
//! bytes in windows of at least [`WINDOW_S`]; its figure is the median of [`WINDOWS`] windows.
//! Threads start together (a barrier) and their medians add up to the aggregate.

use super::q4::{Path, Q4Matrix, Q8Act};
use super::read::read_sum;
use serde::Serialize;
use std::sync::{Arc, Barrier};
use std::time::Instant;

pub const WINDOWS: usize = 5;
pub const WINDOW_S: f64 = 0.020;
/// Bytes one call reads: short enough for many calls per window, long enough to hide call cost.
pub const CALL_BYTES: usize = 1 << 20;
/// Columns of the probe's matrix: a 4096-wide layer, as in a 7B model.
pub const COLS: usize = 4096;

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

pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// One thread's buffer and cursor: the unit both the CLI and the tests drive.
pub struct Worker {
    m: Q4Matrix,
    act: Q8Act,
    cursor: usize,
    group_cursor: usize,
    pub sink: u64,
}

impl Worker {
    pub fn new(bytes: usize, seed: u64) -> Result<Worker, String> {
        let m = Q4Matrix::random(bytes, COLS, seed)?;
        let x: Vec<f32> = (0..COLS).map(|i| ((i * 7919) % 255) as f32 - 127.0).collect();
        Ok(Worker {
            m,
            act: Q8Act::quantize(&x),
            cursor: 0,
            group_cursor: 0,
            sink: 0,
        })
    }

    pub fn bytes(&self) -> usize {
        self.m.data().len()
    }

    /// Reads the next `CALL_BYTES` of the first `working_set` bytes, wrapping around.
    pub fn read_call(&mut self, working_set: usize) -> u64 {
        let data = self.m.data();
        let ws = working_set.clamp(64, data.len());
        let mut left = CALL_BYTES;
        let mut done = 0u64;
        while left > 0 {
            if self.cursor >= ws {
                self.cursor = 0;
            }
            let end = (self.cursor + left).min(ws);
            self.sink = self.sink.wrapping_add(read_sum(&data[self.cursor..end]) as u64);
            done += (end - self.cursor) as u64;
            left -= end - self.cursor;
            self.cursor = end;
        }
        done
    }

    /// The kernel over the next groups worth about `CALL_BYTES` of weights.
    pub fn q4_call(&mut self, path: Path) -> u64 {
        let per_group = self.m.group_weight_bytes().max(1);
        let count = (CALL_BYTES as u64 / per_group).max(1) as usize;
        let s = self.m.gemv_span(path, &self.act, self.group_cursor, count);
        self.sink = self.sink.wrapping_add(s.to_bits() as u64);
        self.group_cursor = (self.group_cursor + count) % self.m.groups().max(1);
        count as u64 * per_group
    }

    pub fn run(&mut self, work: Work) -> f64 {
        let ws = self.bytes();
        match work {
            Work::Read => measure(|| self.read_call(ws)),
            Work::Q4(p) => measure(|| self.q4_call(p)),
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
    fn read_calls_wrap_within_the_working_set() {
        let mut w = Worker::new(1 << 20, 5).unwrap();
        assert_eq!(w.read_call(4096), CALL_BYTES as u64);
        assert!(w.cursor <= 4096);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut []), 0.0);
    }
}

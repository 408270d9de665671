//! One worker's share of the probe: its own buffer (a Q4_0 matrix in the kernel's layout), the
//! activations of one token, and cursors, so that each call is short and the next call goes on
//! where the last stopped. The browser's Web Workers and the native threads both drive this.

use super::q4::{Path, Q4Matrix, Q8Act};
use super::read::read_sum;

/// Bytes one call reads: short enough for many calls per window, long enough to hide call cost.
pub const CALL_BYTES: usize = 1 << 20;
/// Columns of the probe's matrix: a 4096-wide layer, as in a 7B model.
pub const COLS: usize = 4096;
/// Windows per job, and the least time of one window: the page's probe (its defaults and
/// minimums) and `tokscope bench` time alike, so their figures can be set side by side.
pub const WINDOWS: usize = 5;
pub const WINDOW_S: f64 = 0.020;

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
        let x: Vec<f32> = (0..COLS)
            .map(|i| ((i * 7919) % 255) as f32 - 127.0)
            .collect();
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
            self.sink = self
                .sink
                .wrapping_add(read_sum(&data[self.cursor..end]) as u64);
            done += (end - self.cursor) as u64;
            left -= end - self.cursor;
            self.cursor = end;
        }
        done
    }

    /// The kernel over the next groups worth about `CALL_BYTES` of weights, wrapping around within
    /// the groups that fit in the first `working_set` bytes; returns the weight bytes processed.
    pub fn q4_call(&mut self, path: Path, working_set: usize) -> u64 {
        let per_group = self.m.group_weight_bytes().max(1);
        let groups = ((working_set as u64 / per_group) as usize).clamp(1, self.m.groups().max(1));
        let count = (CALL_BYTES as u64 / per_group).max(1) as usize;
        if self.group_cursor >= groups {
            self.group_cursor = 0;
        }
        let s = self
            .m
            .gemv_span(path, &self.act, self.group_cursor, count, groups);
        self.sink = self.sink.wrapping_add(s.to_bits() as u64);
        self.group_cursor = (self.group_cursor + count) % groups;
        count as u64 * per_group
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_calls_wrap_within_the_working_set() {
        let mut w = Worker::new(1 << 20, 5).unwrap();
        assert_eq!(w.read_call(4096), CALL_BYTES as u64);
        assert!(w.cursor <= 4096);
        let before = w.sink;
        assert!(w.q4_call(Path::Scalar, 1 << 20) > 0);
        assert_ne!(w.sink, before);
    }
}

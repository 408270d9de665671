//! The device's own decode speed limit: an int4 GEMV kernel and a plain read loop over the same
//! bytes, and the decode ceiling that the measured bandwidth implies.
//!
//! Decoding one token reads every weight once, so decode speed is bounded by memory bandwidth.
//! The page measures that bandwidth in Web Workers with [`read`] (the yardstick) and [`q4`] (what a
//! real Q4_0 decode has to do per byte), on whichever instruction path the build has:
//!
//! | path      | where                          | inner product                                |
//! |-----------|--------------------------------|----------------------------------------------|
//! | scalar    | everywhere                     | plain integer loop                           |
//! | simd128   | wasm `+simd128`                | widen to i16, `i32x4_dot_i16x8`              |
//! | relaxed   | wasm `+simd128,+relaxed-simd`  | `i32x4_relaxed_dot_i8x16_i7x16_add`          |
//! | sse2      | x86-64 (native CLI)            | widen to i16, `_mm_madd_epi16`               |
//!
//! All paths give bit-identical int32 block sums and bit-identical f32 outputs (same float
//! operations in the same order), which the tests check natively and in the browser.
//!
//! ```
//! use tokscope::kernel::q4::{self, BlockQ4_0, Path, Q4Matrix, Q8Act};
//! let w = vec![BlockQ4_0 { d: q4::f32_to_f16(0.5), qs: [0x9a; 16] }; 2]; // 2 rows x 32 cols
//! let a = Q8Act::quantize(&[127.0; 32]); // scale 1.0, every value 127
//! let m = Q4Matrix::from_ggml(2, 32, &w).unwrap();
//! let mut y = vec![0.0; 2];
//! m.gemv(Path::Scalar, &a, &mut y);
//! // nibbles 0xa and 0x9 are +2 and +1 after the -8 offset: 0.5 · (16·2 + 16·1) · 127
//! assert_eq!(y, vec![3048.0, 3048.0]);
//! ```

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub(crate) mod ceiling;
#[cfg(any(target_arch = "wasm32", test))]
pub(crate) mod ceiling_table;
pub mod q4;
mod read;
pub(crate) mod work;

#[cfg(target_arch = "wasm32")]
pub use ceiling_table::DEFAULT_CONTEXT;
/// What the page's probe and its ceiling table take from the core (`wasm::page_constants`).
pub use work::{WINDOWS, WINDOW_S};

/// A small deterministic generator for benchmark and test data (xorshift64*): the content of the
/// buffers does not matter for timing, but it must be reproducible and not compressible to zero
/// pages.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

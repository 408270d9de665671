//! ggml Q4_0 weights × Q8_0 activations, as a GEMV: `y[r] = Σ_b d_w[r,b]·d_a[b]·Σ_i (q_w−8)·q_a`.
//!
//! The input is ggml's exact block layout ([`BlockQ4_0`], [`BlockQ8_0`]). Weights are repacked once,
//! at load ([`Q4Matrix::from_ggml`]), into a layout the SIMD paths read with aligned 16-byte loads:
//! rows go in groups of [`GROUP_ROWS`], and for every pair of blocks a group stores one 144-byte
//! chunk — the four rows' 16 nibble bytes of block 2p, then of block 2p+1 (128 bytes), then the
//! eight fp16 scales (16 bytes). The matrix keeps ggml's 18 bytes per 32 weights; only padding
//! (rows to a multiple of 4, blocks to a multiple of 2) adds bytes.
//!
//! Activations are prepared once per token ([`Q8Act`]): fp16 scales to f32, and the −8·Σa
//! correction of every block, so every path can multiply the *unsigned* nibbles (0..15) and add the
//! correction afterwards. That is what makes the relaxed-SIMD dot product deterministic: its 7-bit
//! operand gets values 0..15, where every engine agrees.
//!
//! Every path computes the same int32 block sums and then the same f32 operations in the same
//! order, so outputs are bit-identical across paths (checked by the tests, natively and in the
//! browser).

/// Weights per block, in both formats.
pub const QK: usize = 32;
/// Rows processed together: the activations and their widening are shared by these rows.
pub const GROUP_ROWS: usize = 4;
/// Bytes of one repacked chunk: 4 rows × 2 blocks × 16 nibble bytes + 8 fp16 scales.
pub const CHUNK: usize = GROUP_ROWS * 2 * 16 + GROUP_ROWS * 2 * 2;
/// Bytes of one ggml Q4_0 block: what a model file (and the decode) reads per 32 weights.
pub const Q4_0_BLOCK_BYTES: usize = 18;

/// ggml's `block_q4_0`: an fp16 scale and 16 bytes of nibbles. The low nibble of byte j is element
/// j, the high nibble element j+16; value = d·(q−8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct BlockQ4_0 {
    pub d: u16,
    pub qs: [u8; 16],
}

/// ggml's `block_q8_0`: an fp16 scale and 32 int8; value = d·q.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct BlockQ8_0 {
    pub d: u16,
    pub qs: [i8; 32],
}

/// An instruction path of the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Scalar,
    /// wasm simd128: widen to i16 and `i32x4_dot_i16x8`.
    Simd128,
    /// wasm relaxed-simd: `i32x4_relaxed_dot_i8x16_i7x16_add`.
    Relaxed,
    /// x86-64 SSE2 (always present there): widen to i16 and `_mm_madd_epi16`.
    Sse2,
    /// x86-64 SSSE3 (detected at run time): `_mm_maddubs_epi16`, unsigned nibbles × int8, the
    /// native counterpart of the relaxed dot product.
    Ssse3,
}

impl Path {
    pub fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Simd128 => "simd128",
            Path::Relaxed => "relaxed",
            Path::Sse2 => "sse2",
            Path::Ssse3 => "ssse3",
        }
    }

    pub fn from_name(name: &str) -> Option<Path> {
        Path::available().into_iter().find(|p| p.name() == name)
    }

    /// The paths this build can run, slowest first; the last is the best.
    pub fn available() -> Vec<Path> {
        #[allow(unused_mut)]
        let mut v = vec![Path::Scalar];
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        v.push(Path::Simd128);
        #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
        v.push(Path::Relaxed);
        #[cfg(target_arch = "x86_64")]
        {
            v.push(Path::Sse2);
            if std::arch::is_x86_feature_detected!("ssse3") {
                v.push(Path::Ssse3);
            }
        }
        v
    }

    pub fn best() -> Path {
        Path::available().pop().unwrap_or(Path::Scalar)
    }
}

/// fp16 bits to f32, the way every path does it: exact for zeros, subnormals and normals
/// (the exponent is rebased by a multiply by 2^112). Infinities and NaNs, which no usable weight
/// scale holds, come out as large finite numbers — identically on every path.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let magnitude = f32::from_bits(((h & 0x7fff) as u32) << 13) * F16_REBASE;
    f32::from_bits(magnitude.to_bits() | (((h & 0x8000) as u32) << 16))
}

/// 2^112: moves an fp16 exponent (bias 15) shifted into f32 position to the f32 bias (127).
const F16_REBASE: f32 = 5.192_297e33; // rounds to exactly 2^112 (checked by the tests)

/// f32 to fp16 bits, rounding to nearest even (as ggml's `GGML_FP32_TO_FP16`).
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let mut r = m >> shift;
        let rem = m & ((1 << shift) - 1);
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1; // a carry into the exponent is the correct rounding, up to infinity
    }
    sign | r as u16
}

/// ggml's reference `quantize_row_q8_0`; a length not a multiple of 32 is padded with zeros.
pub fn quantize_q8_0(x: &[f32]) -> Vec<BlockQ8_0> {
    x.chunks(QK)
        .map(|chunk| {
            let amax = chunk.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let d = amax / 127.0;
            let id = if d != 0.0 { 1.0 / d } else { 0.0 };
            let mut qs = [0i8; 32];
            for (q, v) in qs.iter_mut().zip(chunk) {
                *q = (v * id).round() as i8;
            }
            BlockQ8_0 {
                d: f32_to_f16(d),
                qs,
            }
        })
        .collect()
}

/// The activations of one token, prepared once for every row: f32 scales, the int8 values, and
/// −8·Σa per block. Padded to whole block pairs.
#[derive(Debug, Clone)]
pub struct Q8Act {
    nb: usize,
    qs: Vec<i8>,
    d: Vec<f32>,
    corr: Vec<i32>,
}

impl Q8Act {
    pub fn from_blocks(blocks: &[BlockQ8_0]) -> Q8Act {
        let padded = blocks.len().div_ceil(2) * 2;
        let mut qs = vec![0i8; padded * QK];
        let mut d = vec![0.0f32; padded];
        let mut corr = vec![0i32; padded];
        for (b, blk) in blocks.iter().enumerate() {
            qs[b * QK..(b + 1) * QK].copy_from_slice(&blk.qs);
            d[b] = f16_to_f32(blk.d);
            corr[b] = -8 * blk.qs.iter().map(|&q| q as i32).sum::<i32>();
        }
        Q8Act {
            nb: blocks.len(),
            qs,
            d,
            corr,
        }
    }

    pub fn quantize(x: &[f32]) -> Q8Act {
        Q8Act::from_blocks(&quantize_q8_0(x))
    }

    /// Number of (unpadded) blocks.
    pub fn blocks(&self) -> usize {
        self.nb
    }
}

/// Q4_0 weights in the kernel's layout (see the module doc).
#[derive(Debug, Clone)]
pub struct Q4Matrix {
    rows: usize,
    nb: usize,
    pairs: usize,
    data: Vec<u8>,
}

impl Q4Matrix {
    /// Repacks `rows × cols` weights given as ggml blocks, row-major (`rows · cols/32` blocks).
    pub fn from_ggml(rows: usize, cols: usize, blocks: &[BlockQ4_0]) -> Result<Q4Matrix, String> {
        if cols == 0 || cols % QK != 0 {
            return Err(format!(
                "Q4_0 rows need a multiple of {QK} columns, not {cols}"
            ));
        }
        let nb = cols / QK;
        if rows.checked_mul(nb) != Some(blocks.len()) {
            return Err(format!(
                "{rows} rows of {nb} blocks need {} blocks, got {}",
                rows.saturating_mul(nb),
                blocks.len()
            ));
        }
        let mut m = Q4Matrix::zeroed(rows, nb)?;
        for (r, row) in blocks.chunks(nb).enumerate() {
            for (b, blk) in row.iter().enumerate() {
                let (chunk, k) = m.chunk_of(r, b);
                let base = chunk * CHUNK;
                let lane = r % GROUP_ROWS;
                let at = base + k * 64 + lane * 16;
                m.data[at..at + 16].copy_from_slice(&blk.qs);
                let s = base + 128 + (k * GROUP_ROWS + lane) * 2;
                m.data[s..s + 2].copy_from_slice(&blk.d.to_le_bytes());
            }
        }
        Ok(m)
    }

    /// A matrix of random nibbles and modest scales, for the bandwidth probe: `cols` columns and as
    /// many rows (a multiple of 4) as fit in about `bytes`. Every byte is written, so no page of it
    /// is the shared zero page. A 64 KiB pattern of whole chunks is generated and then copied,
    /// which is as fast as memcpy.
    pub fn random(bytes: usize, cols: usize, seed: u64) -> Result<Q4Matrix, String> {
        if cols == 0 || cols % (2 * QK) != 0 {
            return Err(format!("the probe needs a multiple of {} columns", 2 * QK));
        }
        let nb = cols / QK;
        let group_bytes = nb / 2 * CHUNK;
        let groups = (bytes / group_bytes).max(1);
        let mut m = Q4Matrix::zeroed(groups * GROUP_ROWS, nb)?;
        let mut rng = Rng::new(seed);
        let mut pattern = vec![0u8; 455 * CHUNK];
        rng.fill(&mut pattern);
        for chunk in pattern.chunks_mut(CHUNK) {
            for s in 0..2 * GROUP_ROWS {
                // Scales in [2^-8, 2^-7): finite, normal, and varied in the mantissa.
                let h = 0x1c00 | (rng.next_u64() & 0x3ff) as u16;
                chunk[128 + 2 * s..130 + 2 * s].copy_from_slice(&h.to_le_bytes());
            }
        }
        for dst in m.data.chunks_mut(pattern.len()) {
            dst.copy_from_slice(&pattern[..dst.len()]);
        }
        Ok(m)
    }

    fn zeroed(rows: usize, nb: usize) -> Result<Q4Matrix, String> {
        let pairs = nb.div_ceil(2);
        let groups = rows.div_ceil(GROUP_ROWS);
        let len = groups
            .checked_mul(pairs)
            .and_then(|n| n.checked_mul(CHUNK))
            .ok_or("matrix too large")?;
        let mut data = Vec::new();
        data.try_reserve_exact(len)
            .map_err(|_| format!("cannot allocate {len} bytes for the weights"))?;
        data.resize(len, 0);
        Ok(Q4Matrix {
            rows,
            nb,
            pairs,
            data,
        })
    }

    /// (chunk index, block within the chunk) of row r, block b.
    fn chunk_of(&self, r: usize, b: usize) -> (usize, usize) {
        ((r / GROUP_ROWS) * self.pairs + b / 2, b % 2)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.nb * QK
    }

    pub fn groups(&self) -> usize {
        self.rows.div_ceil(GROUP_ROWS)
    }

    /// The bytes a decode reads for these weights in ggml's format (18 per 32 weights).
    pub fn weight_bytes(&self) -> u64 {
        (self.rows * self.nb * Q4_0_BLOCK_BYTES) as u64
    }

    /// Bytes of one row group in ggml's format: what one group of a GEMV pass reads.
    pub fn group_weight_bytes(&self) -> u64 {
        (GROUP_ROWS * self.nb * Q4_0_BLOCK_BYTES) as u64
    }

    /// The repacked bytes: what the read loop reads, the same way.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// y = W·a over all rows. `y` must hold `rows` values; `a` must have `cols/32` blocks.
    pub fn gemv(&self, path: Path, a: &Q8Act, y: &mut [f32]) {
        let mut out = [0.0f32; GROUP_ROWS];
        for g in 0..self.groups() {
            self.gemv_group(path, a, g, &mut out);
            let r0 = g * GROUP_ROWS;
            for (i, v) in out.iter().enumerate() {
                if let Some(slot) = y.get_mut(r0 + i) {
                    *slot = *v;
                }
            }
        }
    }

    /// The four outputs of row group `g` (rows past the end come out as 0).
    pub fn gemv_group(&self, path: Path, a: &Q8Act, g: usize, out: &mut [f32; GROUP_ROWS]) {
        let mut touched = 0;
        self.gemv_group_ahead(path, a, g, out, &mut touched);
    }

    /// [`Q4Matrix::gemv_group`], and while at it, one plain load per cache line of the next
    /// group, summed into `touched`. wasm has no prefetch instruction, and a core's hardware
    /// prefetcher stops at page boundaries; these loads keep more lines in flight while the kernel
    /// computes, so memory time and compute time overlap instead of adding up.
    pub fn gemv_group_ahead(
        &self,
        path: Path,
        a: &Q8Act,
        g: usize,
        out: &mut [f32; GROUP_ROWS],
        touched: &mut u32,
    ) {
        let len = self.pairs * CHUNK;
        let (Some(group), true) = (self.data.get(g * len..(g + 1) * len), a.nb == self.nb) else {
            *out = [0.0; GROUP_ROWS];
            return;
        };
        let ahead = self.data.get((g + 1) * len..).unwrap_or(&[]);
        *out = match path {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Simd128 => wasm_simd::gemv_group::<false>(group, ahead, touched, a),
            #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
            Path::Relaxed => wasm_simd::gemv_group::<true>(group, ahead, touched, a),
            #[cfg(target_arch = "x86_64")]
            Path::Sse2 => sse2::gemv_group::<false>(group, ahead, touched, a),
            // SAFETY: Path::Ssse3 is only available() when the CPU has SSSE3; a caller passing it
            // on another CPU gets the SSE2 path instead (checked again here).
            #[cfg(target_arch = "x86_64")]
            Path::Ssse3 if std::arch::is_x86_feature_detected!("ssse3") => unsafe {
                sse2::gemv_group_ssse3(group, ahead, touched, a)
            },
            #[cfg(target_arch = "x86_64")]
            Path::Ssse3 => sse2::gemv_group::<false>(group, ahead, touched, a),
            _ => scalar::gemv_group(group, ahead, touched, a),
        };
    }

    /// A GEMV over groups `start..start+count`, wrapping around at `groups` (at most all of them),
    /// summed into one number so the work cannot be optimized away: the probe's unit of work.
    pub fn gemv_span(
        &self,
        path: Path,
        a: &Q8Act,
        start: usize,
        count: usize,
        groups: usize,
    ) -> f32 {
        let groups = groups.clamp(1, self.groups().max(1));
        let mut sink = 0.0f32;
        let mut touched = 0u32;
        let mut out = [0.0f32; GROUP_ROWS];
        for i in 0..count {
            self.gemv_group_ahead(path, a, (start + i) % groups, &mut out, &mut touched);
            sink += out[0];
        }
        sink + (touched & 1) as f32
    }

    /// The int32 sum Σ(q_w−8)·q_a of every (row, block), row-major: what the tests compare.
    pub fn block_sums(&self, path: Path, a: &Q8Act) -> Vec<i32> {
        let mut out = vec![0i32; self.rows * self.nb];
        if a.nb != self.nb {
            return out;
        }
        for g in 0..self.groups() {
            for p in 0..self.pairs {
                let at = (g * self.pairs + p) * CHUNK;
                let Some(chunk) = self.data.get(at..at + CHUNK) else {
                    continue;
                };
                let sums: [[i32; GROUP_ROWS]; 2] = match path {
                    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                    Path::Simd128 => wasm_simd::pair_sums::<false>(chunk, a, p),
                    #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
                    Path::Relaxed => wasm_simd::pair_sums::<true>(chunk, a, p),
                    #[cfg(target_arch = "x86_64")]
                    Path::Sse2 => sse2::pair_sums::<false>(chunk, a, p),
                    #[cfg(target_arch = "x86_64")]
                    Path::Ssse3 if std::arch::is_x86_feature_detected!("ssse3") => unsafe {
                        sse2::pair_sums_ssse3(chunk, a, p)
                    },
                    _ => scalar::pair_sums(chunk, a, p),
                };
                for (k, s) in sums.iter().enumerate() {
                    let b = 2 * p + k;
                    for (lane, v) in s.iter().enumerate() {
                        let r = g * GROUP_ROWS + lane;
                        if r < self.rows && b < self.nb {
                            out[r * self.nb + b] = *v;
                        }
                    }
                }
            }
        }
        out
    }
}

use super::Rng;

/// Lines touched ahead per chunk: 144 bytes span at most three 64-byte lines.
const TOUCH_OFFSETS: [usize; 3] = [0, 64, 128];

/// One plain load per cache line of chunk `p` of the next group (see `gemv_group_ahead`).
#[inline(always)]
fn touch(ahead: &[u8], p: usize, touched: &mut u32) {
    for off in TOUCH_OFFSETS {
        if let Some(b) = ahead.get(p * CHUNK + off) {
            *touched = touched.wrapping_add(*b as u32);
        }
    }
}

mod scalar {
    use super::*;

    /// Block sums of one chunk: [block 2p, block 2p+1] × 4 rows, with the −8·Σa correction.
    #[inline(always)]
    pub fn pair_sums(chunk: &[u8], a: &Q8Act, p: usize) -> [[i32; GROUP_ROWS]; 2] {
        let mut out = [[0i32; GROUP_ROWS]; 2];
        for (k, sums) in out.iter_mut().enumerate() {
            let b = 2 * p + k;
            let act = &a.qs[b * QK..(b + 1) * QK];
            for (lane, s) in sums.iter_mut().enumerate() {
                let w = &chunk[k * 64 + lane * 16..k * 64 + lane * 16 + 16];
                let mut acc = 0i32;
                for j in 0..16 {
                    acc += (w[j] & 0x0f) as i32 * act[j] as i32;
                    acc += (w[j] >> 4) as i32 * act[j + 16] as i32;
                }
                *s = acc + a.corr[b];
            }
        }
        out
    }

    pub fn gemv_group(
        group: &[u8],
        ahead: &[u8],
        touched: &mut u32,
        a: &Q8Act,
    ) -> [f32; GROUP_ROWS] {
        // One accumulator per block of the pair: the same two chains the SIMD paths keep.
        let mut acc = [[0.0f32; GROUP_ROWS]; 2];
        for (p, chunk) in group.chunks_exact(CHUNK).enumerate() {
            touch(ahead, p, touched);
            let sums = pair_sums(chunk, a, p);
            for k in 0..2 {
                let da = a.d[2 * p + k];
                for lane in 0..GROUP_ROWS {
                    let s = 128 + (k * GROUP_ROWS + lane) * 2;
                    let dw = f16_to_f32(u16::from_le_bytes([chunk[s], chunk[s + 1]]));
                    acc[k][lane] += (dw * da) * sums[k][lane] as f32;
                }
            }
        }
        let mut y = [0.0f32; GROUP_ROWS];
        for lane in 0..GROUP_ROWS {
            y[lane] = acc[0][lane] + acc[1][lane];
        }
        y
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm_simd {
    use super::*;
    use core::arch::wasm32::*;

    /// Four rows' i32x4 partial sums to one i32x4 of row totals.
    #[inline(always)]
    fn reduce4(s: [v128; 4]) -> v128 {
        let u0 = i32x4_add(
            i32x4_shuffle::<0, 4, 1, 5>(s[0], s[1]),
            i32x4_shuffle::<2, 6, 3, 7>(s[0], s[1]),
        );
        let u1 = i32x4_add(
            i32x4_shuffle::<0, 4, 1, 5>(s[2], s[3]),
            i32x4_shuffle::<2, 6, 3, 7>(s[2], s[3]),
        );
        i32x4_add(
            i32x4_shuffle::<0, 1, 4, 5>(u0, u1),
            i32x4_shuffle::<2, 3, 6, 7>(u0, u1),
        )
    }

    /// The corrected int32 sums of block `b` for the four rows of a chunk, as i32x4.
    // The relaxed intrinsics are stable since Rust 1.82; only the relaxed build compiles them.
    #[allow(clippy::incompatible_msrv)]
    #[inline(always)]
    fn block<const RELAXED: bool>(chunk: &[u8], k: usize, a: &Q8Act, b: usize) -> v128 {
        let act = &a.qs[b * QK..(b + 1) * QK];
        let w = &chunk[k * 64..k * 64 + 64];
        // SAFETY: `act` holds 32 bytes and `w` 64 (slices checked above); v128_load is unaligned.
        let (alo, ahi) = unsafe {
            (
                v128_load(act.as_ptr() as *const v128),
                v128_load(act.as_ptr().add(16) as *const v128),
            )
        };
        let mask = u8x16_splat(0x0f);
        let mut s = [i32x4_splat(0); 4];
        if RELAXED {
            #[cfg(target_feature = "relaxed-simd")]
            {
                let ones = i16x8_splat(1);
                for (lane, out) in s.iter_mut().enumerate() {
                    // SAFETY: lane*16+16 <= 64.
                    let q = unsafe { v128_load(w.as_ptr().add(lane * 16) as *const v128) };
                    let lo = v128_and(q, mask);
                    let hi = v128_and(u16x8_shr(q, 4), mask);
                    // The nibbles (0..15) are the 7-bit operand, so every engine computes the
                    // same. Pairs sum to i16 (|x| ≤ 2·15·128), the two halves add in i16
                    // (≤ 7680), and one i16 dot with ones widens to i32: one pmaddubsw per half
                    // and one pmaddwd per row on x86, where the i32 form costs two of each.
                    let p = i16x8_add(
                        i16x8_relaxed_dot_i8x16_i7x16(alo, lo),
                        i16x8_relaxed_dot_i8x16_i7x16(ahi, hi),
                    );
                    *out = i32x4_dot_i16x8(p, ones);
                }
            }
        } else {
            let a0 = i16x8_extend_low_i8x16(alo);
            let a1 = i16x8_extend_high_i8x16(alo);
            let a2 = i16x8_extend_low_i8x16(ahi);
            let a3 = i16x8_extend_high_i8x16(ahi);
            for (lane, out) in s.iter_mut().enumerate() {
                // SAFETY: lane*16+16 <= 64.
                let q = unsafe { v128_load(w.as_ptr().add(lane * 16) as *const v128) };
                let lo = v128_and(q, mask);
                let hi = v128_and(u16x8_shr(q, 4), mask);
                let d0 = i32x4_add(
                    i32x4_dot_i16x8(u16x8_extend_low_u8x16(lo), a0),
                    i32x4_dot_i16x8(u16x8_extend_high_u8x16(lo), a1),
                );
                let d1 = i32x4_add(
                    i32x4_dot_i16x8(u16x8_extend_low_u8x16(hi), a2),
                    i32x4_dot_i16x8(u16x8_extend_high_u8x16(hi), a3),
                );
                *out = i32x4_add(d0, d1);
            }
        }
        i32x4_add(reduce4(s), i32x4_splat(a.corr[b]))
    }

    #[inline(always)]
    fn f16x4_to_f32x4(h: v128) -> v128 {
        let magnitude = f32x4_mul(
            i32x4_shl(v128_and(h, i32x4_splat(0x7fff)), 13),
            f32x4_splat(F16_REBASE),
        );
        v128_or(magnitude, i32x4_shl(v128_and(h, i32x4_splat(0x8000)), 16))
    }

    pub fn pair_sums<const RELAXED: bool>(
        chunk: &[u8],
        a: &Q8Act,
        p: usize,
    ) -> [[i32; GROUP_ROWS]; 2] {
        let mut out = [[0i32; GROUP_ROWS]; 2];
        for (k, o) in out.iter_mut().enumerate() {
            let v = block::<RELAXED>(chunk, k, a, 2 * p + k);
            *o = [
                i32x4_extract_lane::<0>(v),
                i32x4_extract_lane::<1>(v),
                i32x4_extract_lane::<2>(v),
                i32x4_extract_lane::<3>(v),
            ];
        }
        out
    }

    pub fn gemv_group<const RELAXED: bool>(
        group: &[u8],
        ahead: &[u8],
        touched: &mut u32,
        a: &Q8Act,
    ) -> [f32; GROUP_ROWS] {
        let mut acc0 = f32x4_splat(0.0);
        let mut acc1 = f32x4_splat(0.0);
        for (p, chunk) in group.chunks_exact(CHUNK).enumerate() {
            touch(ahead, p, touched);
            let s0 = block::<RELAXED>(chunk, 0, a, 2 * p);
            let s1 = block::<RELAXED>(chunk, 1, a, 2 * p + 1);
            // SAFETY: a chunk is 144 bytes; the scales are its last 16.
            let h = unsafe { v128_load(chunk.as_ptr().add(128) as *const v128) };
            let dw0 = f16x4_to_f32x4(u32x4_extend_low_u16x8(h));
            let dw1 = f16x4_to_f32x4(u32x4_extend_high_u16x8(h));
            let sc0 = f32x4_mul(dw0, f32x4_splat(a.d[2 * p]));
            let sc1 = f32x4_mul(dw1, f32x4_splat(a.d[2 * p + 1]));
            acc0 = f32x4_add(acc0, f32x4_mul(sc0, f32x4_convert_i32x4(s0)));
            acc1 = f32x4_add(acc1, f32x4_mul(sc1, f32x4_convert_i32x4(s1)));
        }
        let y = f32x4_add(acc0, acc1);
        [
            f32x4_extract_lane::<0>(y),
            f32x4_extract_lane::<1>(y),
            f32x4_extract_lane::<2>(y),
            f32x4_extract_lane::<3>(y),
        ]
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::*;
    use core::arch::x86_64::*;

    // SSE2 is part of x86-64, so these intrinsics are always available there.

    #[inline(always)]
    fn reduce4(s: [__m128i; 4]) -> __m128i {
        // SAFETY (all blocks below): SSE2 is baseline on x86-64; loads are unaligned and in bounds.
        unsafe {
            let u0 = _mm_add_epi32(
                _mm_unpacklo_epi32(s[0], s[1]),
                _mm_unpackhi_epi32(s[0], s[1]),
            );
            let u1 = _mm_add_epi32(
                _mm_unpacklo_epi32(s[2], s[3]),
                _mm_unpackhi_epi32(s[2], s[3]),
            );
            _mm_add_epi32(_mm_unpacklo_epi64(u0, u1), _mm_unpackhi_epi64(u0, u1))
        }
    }

    #[inline(always)]
    fn block<const SSSE3: bool>(chunk: &[u8], k: usize, a: &Q8Act, b: usize) -> __m128i {
        let act = &a.qs[b * QK..(b + 1) * QK];
        let w = &chunk[k * 64..k * 64 + 64];
        unsafe {
            let alo = _mm_loadu_si128(act.as_ptr() as *const __m128i);
            let ahi = _mm_loadu_si128(act.as_ptr().add(16) as *const __m128i);
            if SSSE3 {
                let mask = _mm_set1_epi8(0x0f);
                let ones = _mm_set1_epi16(1);
                let mut s = [_mm_setzero_si128(); 4];
                for (lane, out) in s.iter_mut().enumerate() {
                    let q = _mm_loadu_si128(w.as_ptr().add(lane * 16) as *const __m128i);
                    let lo = _mm_and_si128(q, mask);
                    let hi = _mm_and_si128(_mm_srli_epi16(q, 4), mask);
                    // Unsigned nibbles × int8, pairs summed to i16 (|sum| ≤ 2·15·128: no
                    // saturation); the two halves add in i16 (≤ 7680) before widening.
                    let p = _mm_add_epi16(_mm_maddubs_epi16(lo, alo), _mm_maddubs_epi16(hi, ahi));
                    *out = _mm_madd_epi16(p, ones);
                }
                return _mm_add_epi32(reduce4(s), _mm_set1_epi32(a.corr[b]));
            }
            // Sign-extend int8 to int16: duplicate each byte, then arithmetic shift.
            let a0 = _mm_srai_epi16(_mm_unpacklo_epi8(alo, alo), 8);
            let a1 = _mm_srai_epi16(_mm_unpackhi_epi8(alo, alo), 8);
            let a2 = _mm_srai_epi16(_mm_unpacklo_epi8(ahi, ahi), 8);
            let a3 = _mm_srai_epi16(_mm_unpackhi_epi8(ahi, ahi), 8);
            let mask = _mm_set1_epi8(0x0f);
            let zero = _mm_setzero_si128();
            let mut s = [zero; 4];
            for (lane, out) in s.iter_mut().enumerate() {
                let q = _mm_loadu_si128(w.as_ptr().add(lane * 16) as *const __m128i);
                let lo = _mm_and_si128(q, mask);
                let hi = _mm_and_si128(_mm_srli_epi16(q, 4), mask);
                let d0 = _mm_add_epi32(
                    _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), a0),
                    _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), a1),
                );
                let d1 = _mm_add_epi32(
                    _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), a2),
                    _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), a3),
                );
                *out = _mm_add_epi32(d0, d1);
            }
            _mm_add_epi32(reduce4(s), _mm_set1_epi32(a.corr[b]))
        }
    }

    #[inline(always)]
    fn f16x4_to_f32x4(h: __m128i) -> __m128 {
        unsafe {
            let magnitude = _mm_mul_ps(
                _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x7fff)), 13)),
                _mm_set1_ps(F16_REBASE),
            );
            let sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
            _mm_or_ps(magnitude, _mm_castsi128_ps(sign))
        }
    }

    fn lanes_i32(v: __m128i) -> [i32; 4] {
        let mut out = [0i32; 4];
        unsafe { _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, v) };
        out
    }

    #[inline(always)]
    pub fn pair_sums<const SSSE3: bool>(
        chunk: &[u8],
        a: &Q8Act,
        p: usize,
    ) -> [[i32; GROUP_ROWS]; 2] {
        [
            lanes_i32(block::<SSSE3>(chunk, 0, a, 2 * p)),
            lanes_i32(block::<SSSE3>(chunk, 1, a, 2 * p + 1)),
        ]
    }

    /// # Safety
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub unsafe fn pair_sums_ssse3(chunk: &[u8], a: &Q8Act, p: usize) -> [[i32; GROUP_ROWS]; 2] {
        pair_sums::<true>(chunk, a, p)
    }

    /// # Safety
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub unsafe fn gemv_group_ssse3(
        group: &[u8],
        ahead: &[u8],
        touched: &mut u32,
        a: &Q8Act,
    ) -> [f32; GROUP_ROWS] {
        gemv_group::<true>(group, ahead, touched, a)
    }

    #[inline(always)]
    pub fn gemv_group<const SSSE3: bool>(
        group: &[u8],
        ahead: &[u8],
        touched: &mut u32,
        a: &Q8Act,
    ) -> [f32; GROUP_ROWS] {
        unsafe {
            let mut acc0 = _mm_setzero_ps();
            let mut acc1 = _mm_setzero_ps();
            let zero = _mm_setzero_si128();
            for (p, chunk) in group.chunks_exact(CHUNK).enumerate() {
                touch(ahead, p, touched);
                let s0 = block::<SSSE3>(chunk, 0, a, 2 * p);
                let s1 = block::<SSSE3>(chunk, 1, a, 2 * p + 1);
                let h = _mm_loadu_si128(chunk.as_ptr().add(128) as *const __m128i);
                let dw0 = f16x4_to_f32x4(_mm_unpacklo_epi16(h, zero));
                let dw1 = f16x4_to_f32x4(_mm_unpackhi_epi16(h, zero));
                let sc0 = _mm_mul_ps(dw0, _mm_set1_ps(a.d[2 * p]));
                let sc1 = _mm_mul_ps(dw1, _mm_set1_ps(a.d[2 * p + 1]));
                acc0 = _mm_add_ps(acc0, _mm_mul_ps(sc0, _mm_cvtepi32_ps(s0)));
                acc1 = _mm_add_ps(acc1, _mm_mul_ps(sc1, _mm_cvtepi32_ps(s1)));
            }
            let mut y = [0.0f32; 4];
            _mm_storeu_ps(y.as_mut_ptr(), _mm_add_ps(acc0, acc1));
            y
        }
    }
}

/// Test cases shared by the native tests and the browser tests (`crate/tests/web.rs`): random
/// inputs and the edges (all-min, all-max, odd row counts, odd block counts).
pub mod cases {
    use super::*;

    pub struct Case {
        pub name: String,
        pub matrix: Q4Matrix,
        pub weights: Vec<BlockQ4_0>,
        pub act: Q8Act,
        pub act_blocks: Vec<BlockQ8_0>,
    }

    fn case(name: String, rows: usize, nb: usize, w: BlockQ4_0Gen, a: BlockQ8Gen) -> Case {
        let mut rng = Rng::new(0x5eed ^ (rows as u64) << 8 ^ nb as u64);
        let weights: Vec<BlockQ4_0> = (0..rows * nb).map(|_| w(&mut rng)).collect();
        let act_blocks: Vec<BlockQ8_0> = (0..nb).map(|_| a(&mut rng)).collect();
        let matrix = match Q4Matrix::from_ggml(rows, nb * QK, &weights) {
            Ok(m) => m,
            Err(e) => unreachable!("test case shapes are valid: {e}"),
        };
        Case {
            name,
            matrix,
            weights,
            act: Q8Act::from_blocks(&act_blocks),
            act_blocks,
        }
    }

    type BlockQ4_0Gen = fn(&mut Rng) -> BlockQ4_0;
    type BlockQ8Gen = fn(&mut Rng) -> BlockQ8_0;

    fn rand_w(rng: &mut Rng) -> BlockQ4_0 {
        let mut qs = [0u8; 16];
        rng.fill(&mut qs);
        // Scales of both signs across a wide range of normal and subnormal fp16 values.
        BlockQ4_0 {
            d: (rng.next_u64() as u16) & 0xfbff,
            qs,
        }
    }
    fn rand_a(rng: &mut Rng) -> BlockQ8_0 {
        let mut qs = [0u8; 32];
        rng.fill(&mut qs);
        BlockQ8_0 {
            d: (rng.next_u64() as u16) & 0xfbff,
            qs: qs.map(|b| b as i8),
        }
    }
    fn min_w(_: &mut Rng) -> BlockQ4_0 {
        BlockQ4_0 {
            d: f32_to_f16(-1.0),
            qs: [0x00; 16],
        }
    }
    fn min_a(_: &mut Rng) -> BlockQ8_0 {
        BlockQ8_0 {
            d: f32_to_f16(1.0),
            qs: [-128; 32],
        }
    }
    fn max_w(_: &mut Rng) -> BlockQ4_0 {
        BlockQ4_0 {
            d: 0x7bff, // the largest finite fp16
            qs: [0xff; 16],
        }
    }
    fn max_a(_: &mut Rng) -> BlockQ8_0 {
        BlockQ8_0 {
            d: 0x7bff,
            qs: [127; 32],
        }
    }

    pub fn all() -> Vec<Case> {
        let mut v = Vec::new();
        for rows in [1, 2, 3, 4, 5, 7, 8, 9, 13] {
            for nb in [1, 2, 3, 8] {
                v.push(case(
                    format!("random {rows}x{nb}"),
                    rows,
                    nb,
                    rand_w,
                    rand_a,
                ));
            }
        }
        v.push(case("random 64x128".into(), 64, 128, rand_w, rand_a));
        v.push(case("all-min 5x3".into(), 5, 3, min_w, min_a));
        v.push(case("all-max 7x5".into(), 7, 5, max_w, max_a));
        v.push(case("min weights, max acts 3x2".into(), 3, 2, min_w, max_a));
        v.push(case("max weights, min acts 6x1".into(), 6, 1, max_w, min_a));
        v
    }

    /// The block sums straight from ggml's layout, with signed weights: the definition.
    pub fn reference_sums(c: &Case) -> Vec<i32> {
        let nb = c.act_blocks.len();
        c.weights
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let a = &c.act_blocks[i % nb].qs;
                (0..16)
                    .map(|j| {
                        ((w.qs[j] & 0x0f) as i32 - 8) * a[j] as i32
                            + ((w.qs[j] >> 4) as i32 - 8) * a[j + 16] as i32
                    })
                    .sum()
            })
            .collect()
    }

    /// Checks every available path against the definition and against each other, bit for bit.
    /// Returns a description of the first disagreement.
    pub fn check_paths() -> Result<usize, String> {
        let paths = Path::available();
        let mut checked = 0;
        for c in all() {
            let want = reference_sums(&c);
            let mut y_scalar = vec![0.0f32; c.matrix.rows()];
            c.matrix.gemv(Path::Scalar, &c.act, &mut y_scalar);
            for &p in &paths {
                let got = c.matrix.block_sums(p, &c.act);
                if got != want {
                    let i = got.iter().zip(&want).position(|(g, w)| g != w).unwrap_or(0);
                    return Err(format!(
                        "{}: {} block sum {i} is {:?}, want {:?}",
                        c.name,
                        p.name(),
                        got.get(i),
                        want.get(i)
                    ));
                }
                let mut y = vec![f32::NAN; c.matrix.rows()];
                c.matrix.gemv(p, &c.act, &mut y);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                if bits(&y) != bits(&y_scalar) {
                    return Err(format!(
                        "{}: {} output {y:?} differs from scalar {y_scalar:?}",
                        c.name,
                        p.name()
                    ));
                }
                checked += 1;
            }
        }
        Ok(checked)
    }
}

#[cfg(test)]
mod tests {
    use super::cases::*;
    use super::*;

    #[test]
    fn every_path_agrees_bit_for_bit_with_the_definition() {
        let n = check_paths().unwrap();
        assert_eq!(n, all().len() * Path::available().len());
        #[cfg(target_arch = "x86_64")]
        assert!(Path::available().contains(&Path::Sse2));
    }

    #[test]
    fn edge_sums_are_exact() {
        let cases = all();
        let min = cases
            .iter()
            .find(|c| c.name.starts_with("all-min"))
            .unwrap();
        // (0-8)·(-128)·32 per block
        assert!(min
            .matrix
            .block_sums(Path::Scalar, &min.act)
            .iter()
            .all(|&s| s == 32768));
        let max = cases
            .iter()
            .find(|c| c.name.starts_with("all-max"))
            .unwrap();
        // (15-8)·127·32
        assert!(max
            .matrix
            .block_sums(Path::best(), &max.act)
            .iter()
            .all(|&s| s == 28448));
    }

    #[test]
    fn gemv_matches_the_dequantized_float_product() {
        let mut rng = Rng::new(7);
        let (rows, cols) = (9, 96);
        let weights: Vec<BlockQ4_0> = (0..rows * cols / QK)
            .map(|_| {
                let mut qs = [0u8; 16];
                rng.fill(&mut qs);
                BlockQ4_0 {
                    d: f32_to_f16(0.01 + (rng.next_u64() % 100) as f32 * 1e-3),
                    qs,
                }
            })
            .collect();
        let x: Vec<f32> = (0..cols)
            .map(|i| ((i * 37 % 19) as f32 - 9.0) / 3.0)
            .collect();
        let act = Q8Act::quantize(&x);
        let blocks = quantize_q8_0(&x);
        let m = Q4Matrix::from_ggml(rows, cols, &weights).unwrap();
        let mut y = vec![0.0; rows];
        m.gemv(Path::best(), &act, &mut y);
        for r in 0..rows {
            let mut want = 0.0f64;
            for b in 0..cols / QK {
                let w = &weights[r * cols / QK + b];
                let a = &blocks[b];
                for j in 0..16 {
                    let dw = f16_to_f32(w.d) as f64;
                    let da = f16_to_f32(a.d) as f64;
                    want += dw * ((w.qs[j] & 15) as f64 - 8.0) * da * a.qs[j] as f64;
                    want += dw * ((w.qs[j] >> 4) as f64 - 8.0) * da * a.qs[j + 16] as f64;
                }
            }
            assert!(
                (y[r] as f64 - want).abs() <= 1e-4 * want.abs().max(1.0),
                "row {r}: {} vs {want}",
                y[r]
            );
        }
    }

    #[test]
    fn fp16_conversions_round_trip_and_round_to_even() {
        for h in 0..0x7c00u16 {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
            assert_eq!(f32_to_f16(-f16_to_f32(h)), h | 0x8000, "-{h:#x}");
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00); // halfway: to even
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(f32_to_f16(1e6), 0x7c00);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(F16_REBASE, 2f32.powi(112));
    }

    #[test]
    fn quantize_q8_0_follows_ggml() {
        let x: Vec<f32> = (0..32).map(|i| i as f32 - 16.0).collect();
        let b = &quantize_q8_0(&x)[0];
        assert_eq!(f16_to_f32(b.d), f16_to_f32(f32_to_f16(16.0 / 127.0)));
        assert_eq!(b.qs[0], -127);
        assert_eq!(b.qs[16], 0);
        assert_eq!(b.qs[31], (15.0f32 * 127.0 / 16.0).round() as i8);
    }

    #[test]
    fn bad_shapes_are_errors_not_panics() {
        assert!(Q4Matrix::from_ggml(2, 31, &[]).is_err());
        assert!(Q4Matrix::from_ggml(2, 32, &[min_block()]).is_err());
        assert!(Q4Matrix::random(1 << 16, 48, 1).is_err());
        // A mismatched activation gives zeros, never an out-of-bounds read.
        let m = Q4Matrix::from_ggml(1, 32, &[min_block()]).unwrap();
        let mut y = vec![1.0];
        m.gemv(Path::best(), &Q8Act::quantize(&[1.0; 64]), &mut y);
        assert_eq!(y, vec![0.0]);
    }

    fn min_block() -> BlockQ4_0 {
        BlockQ4_0 { d: 0, qs: [0; 16] }
    }

    #[test]
    fn random_matrix_is_sized_and_sane() {
        let m = Q4Matrix::random(1 << 20, 4096, 3).unwrap();
        assert_eq!(m.groups() * m.pairs * CHUNK, m.data().len());
        assert!(m.data().len() <= 1 << 20 && m.data().len() > (1 << 20) - 4 * 4096);
        assert_eq!(m.weight_bytes(), m.data().len() as u64);
        let a = Q8Act::quantize(&vec![0.5; 4096]);
        let s = m.gemv_span(Path::best(), &a, 0, m.groups() + 3, usize::MAX);
        assert!(s.is_finite() && s != 0.0);
    }
}

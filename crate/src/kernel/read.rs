//! The yardstick: a plain read loop over the same bytes the kernel reads, with the same 16-byte
//! loads. It adds the bytes as 32-bit lanes into four independent accumulators, which costs less
//! than one instruction per load, so it runs at the memory's speed, not the core's.

/// Reads all of `data` and returns a checksum (so the reads cannot be optimized away). The best
/// path of this build: wasm simd128, x86-64 SSE2, or portable 64-bit words.
pub fn read_sum(data: &[u8]) -> u32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return simd::read_sum(data);
    #[cfg(target_arch = "x86_64")]
    return sse2::read_sum(data);
    #[allow(unreachable_code)]
    read_sum_scalar(data)
}

/// The portable loop: 64-bit words, four accumulators.
pub fn read_sum_scalar(data: &[u8]) -> u32 {
    let mut acc = [0u64; 4];
    let mut blocks = data.chunks_exact(32);
    for b in &mut blocks {
        for (i, a) in acc.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i * 8..i * 8 + 8]);
            *a = a.wrapping_add(u64::from_le_bytes(w));
        }
    }
    fold(
        acc.iter().fold(0u64, |s, a| s.wrapping_add(*a)),
        blocks.remainder(),
    )
}

/// The tail bytes, and 64 bits folded to 32.
fn fold(acc: u64, tail: &[u8]) -> u32 {
    let t = tail.iter().fold(acc, |s, &b| s.wrapping_add(b as u64));
    (t as u32) ^ ((t >> 32) as u32)
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::*;

    pub fn read_sum(data: &[u8]) -> u32 {
        let mut acc = [i32x4_splat(0); 4];
        let mut blocks = data.chunks_exact(64);
        for b in &mut blocks {
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: i*16+16 <= 64 = b.len(); v128_load is unaligned.
                *a = i32x4_add(*a, unsafe {
                    v128_load(b.as_ptr().add(i * 16) as *const v128)
                });
            }
        }
        let s = i32x4_add(i32x4_add(acc[0], acc[1]), i32x4_add(acc[2], acc[3]));
        let lanes = [
            i32x4_extract_lane::<0>(s),
            i32x4_extract_lane::<1>(s),
            i32x4_extract_lane::<2>(s),
            i32x4_extract_lane::<3>(s),
        ];
        let acc = lanes
            .iter()
            .fold(0u64, |t, &l| t.wrapping_add(l as u32 as u64));
        super::fold(acc, blocks.remainder())
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;

    pub fn read_sum(data: &[u8]) -> u32 {
        let mut blocks = data.chunks_exact(64);
        // SAFETY: SSE2 is baseline on x86-64; every load is 16 bytes inside a 64-byte block.
        let lanes = unsafe {
            let mut acc = [_mm_setzero_si128(); 4];
            for b in &mut blocks {
                for (i, a) in acc.iter_mut().enumerate() {
                    *a = _mm_add_epi32(
                        *a,
                        _mm_loadu_si128(b.as_ptr().add(i * 16) as *const __m128i),
                    );
                }
            }
            let s = _mm_add_epi32(_mm_add_epi32(acc[0], acc[1]), _mm_add_epi32(acc[2], acc[3]));
            let mut lanes = [0u32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, s);
            lanes
        };
        let acc = lanes.iter().fold(0u64, |t, &l| t.wrapping_add(l as u64));
        super::fold(acc, blocks.remainder())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_counts() {
        let mut data = vec![0u8; 1000];
        let base = read_sum(&data);
        assert_eq!(base, read_sum_scalar(&data));
        for at in [0, 15, 16, 63, 64, 500, 959, 960, 999] {
            data[at] = 1;
            assert_ne!(read_sum(&data), base, "byte {at} was not read");
            data[at] = 0;
        }
    }

    #[test]
    fn checksums_are_stable() {
        let mut data = vec![0u8; 4096 + 7];
        crate::kernel::Rng::new(9).fill(&mut data);
        assert_eq!(read_sum(&data), read_sum(&data));
        assert_eq!(read_sum(&[]), 0);
    }
}

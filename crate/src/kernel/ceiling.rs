//! The decode ceiling: how many tokens per second a memory bandwidth allows.
//!
//! Decoding one token reads every weight once (less the token-embedding rows not used), plus the
//! KV cache up to the current position. So `tok/s ≤ BW / bytes_per_token`. Real runs also pay a
//! fixed cost per token (thread barriers, kernel launches, sampling), and reach only part of the
//! bandwidth; the model is
//!
//! ```text
//! t_token = bytes_per_token / (η · BW) + c
//! ```
//!
//! η and c come from published llama-bench tables that vary the bytes on one machine (so BW is
//! fixed and the slope and intercept separate):
//! - M2 Ultra (800 GB/s), llama.cpp PR #2917: LLaMA 7B Q8_0 (6.67 GiB) tg128 62.05 t/s and Q4_0
//!   (3.56 GiB) 88.54 t/s give a slope of 1.45 ms/GB, η = 0.86 of 800 GB/s, and c = 5.8 ms.
//! - M2 Ultra, llama.cpp PR #10238: llama 3B F16 tg128 72.3 t/s and Q4_0 155.9 t/s give
//!   η ≈ 0.76 and c ≈ 3.3 ms.
//!
//! η = 0.85 and c = 5 ms are used; with them the model reproduces both 7B rows within 10%. η is
//! applied to the bandwidth this probe measures (a read loop), which a decode can approach more
//! closely than a datasheet figure, so the expectation errs on the generous side. The page states
//! both values.

/// Share of the measured read bandwidth a decode reaches (see the module doc).
pub const ETA: f64 = 0.85;
/// Fixed cost per token, in seconds (see the module doc).
pub const FIXED_COST_S: f64 = 0.005;
/// The hard bound: every byte at the measured bandwidth.
pub fn ceiling_tok_s(bytes_per_token: f64, bw_gbps: f64) -> f64 {
    if bytes_per_token <= 0.0 || bw_gbps <= 0.0 {
        return 0.0;
    }
    bw_gbps * 1e9 / bytes_per_token
}

/// What a good decode reaches: `1 / (bytes / (η·BW) + c)`.
pub fn expected_tok_s(bytes_per_token: f64, bw_gbps: f64) -> f64 {
    if bytes_per_token <= 0.0 || bw_gbps <= 0.0 {
        return 0.0;
    }
    1.0 / (bytes_per_token / (ETA * bw_gbps * 1e9) + FIXED_COST_S)
}

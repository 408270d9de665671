//! The share-link decoder on arbitrary link text: every outcome must be a report or a clean error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = tokscope::share::decode(&text);
    // Also through a valid prefix, so the fuzzer reaches the inflater and the checks quickly.
    let _ = tokscope::share::decode(&format!("#r=1.{text}"));
});

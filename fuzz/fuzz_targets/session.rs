//! The whole pipeline — transport, encoding, sniffing, every parser the sniffer can pick, the
//! rules and the report — on arbitrary bytes cut into arbitrary chunks. The first byte picks the
//! chunk size, so chunk-boundary bugs are explored too.
#![no_main]
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| common::run(None, data));

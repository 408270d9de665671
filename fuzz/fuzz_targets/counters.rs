//! The counter summary parser (`perf stat` text, `-I` and `-x` CSV, `simpleperf stat` text and
//! CSV, and the framework log it may follow) on arbitrary bytes read as a counter summary
//! whatever the sniffer would say, chunked and reported like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Counters), data));

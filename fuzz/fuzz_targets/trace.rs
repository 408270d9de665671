//! The trace text parser (`perf script`, simpleperf, ftrace / systrace, cpuinfo and other system
//! information) on arbitrary bytes read as a trace whatever the sniffer would say, chunked and
//! reported like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Trace), data));

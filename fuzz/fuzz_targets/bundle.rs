//! The tokscope-record bundle reader (log, cpuinfo, sysfs samples and per-thread snapshots in one
//! file) on arbitrary bytes read as a bundle whatever the sniffer would say, chunked and reported
//! like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Bundle), data));

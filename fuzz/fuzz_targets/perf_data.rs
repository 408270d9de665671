//! The binary perf.data reader (`ingest::perf_data`, over `linux-perf-data`) on arbitrary bytes
//! read as perf.data whatever their magic, chunked and reported like the `session` target. Seeds
//! start with `PERFILE2`, so mutations explore the header, the sections and the records.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::PerfData), data));

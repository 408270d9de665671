//! The delimited telemetry parser (generic CSV/TSV, nvidia-smi, HWiNFO, PerfDog, Trepn,
//! turbostat) on arbitrary bytes read as CSV whatever the sniffer would say, chunked and reported
//! like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Csv), data));

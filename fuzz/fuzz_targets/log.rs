//! The framework-log parser (`ingest::log::LogParser`: wrapper unwrapping, the fallback wording
//! table and every framework parser) on arbitrary bytes read as a log whatever the sniffer would
//! say, chunked and reported like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Log), data));

//! The line-oriented telemetry parser (tegrastats, dumpsys battery / thermalservice, sysfs dumps,
//! powermetrics, vcgencmd, nvidia-smi -q, Jetson nvpmodel / jetson_clocks) on arbitrary bytes read as telemetry text whatever the sniffer would
//! say, chunked and reported like the `session` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::InputKind;

mod common;

fuzz_target!(|data: &[u8]| common::run(Some(InputKind::Telemetry), data));

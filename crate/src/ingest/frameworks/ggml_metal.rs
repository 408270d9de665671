//! ggml's Metal backend on the GPU memory it may keep resident (llama.cpp, and everything built
//! on it: llama-cpp-python, ollama's runner, LM Studio's engine). Read in `ggml-metal.m`, later
//! `ggml-metal-device.m`; see `docs/formats/llama.cpp.md`:
//!
//! - `<fn>: recommendedMaxWorkingSetSize  = N MB`, at start-up (`ggml_metal_init`, since 2025
//!   `ggml_metal_device_init`). Mid-2023 builds divided by 1024², later ones by 10⁶; both
//!   print `MB`, so the limit is read as 10⁶ and is at most 5% off for the old builds.
//! - `ggml_metal_add_buffer: allocated 'name' buffer, size = N MB, (current / limit)` (2023),
//!   then `<fn>_log_allocated_size: allocated buffer, size = N MiB, (current / limit)`: both
//!   pair the process's running total with the limit, in MiB. Since 2025 this is debug output.
//! - `warning: current allocated size is greater than the recommended max working set size`,
//!   on the allocation line (2023) or on its own, at warning level, in every version since.

use super::cap_if;
use super::runs::{num, RunCollector};
use crate::evidence::{Framework, Run, WorkingSet};
use regex::Regex;
use std::sync::OnceLock;

const OVER: &str = "greater than the recommended max working set size";

struct Re {
    limit: Regex,
    allocated: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ggml Metal pattern compiles");
        Re {
            limit: r(r"recommendedMaxWorkingSetSize\s*=\s*([\d.]+)\s*MB"),
            allocated: r(r"allocated\b.*?buffer, size\s*=\s*[\d.]+\s*Mi?B,\s*\(\s*([\d.]+)\s*/\s*([\d.]+)\s*\)"),
        }
    })
}

fn working_set(run: &mut Run) -> &mut WorkingSet {
    run.working_set.get_or_insert_with(WorkingSet::default)
}

const MIB: f64 = 1024.0 * 1024.0;

/// Reads one message into the open run of `fw`; true when the line was one of these.
pub fn line(msg: &str, at: u64, fw: Framework, runs: &mut RunCollector) -> bool {
    if !msg.contains("ggml_") && !msg.contains("recommendedMaxWorkingSetSize") {
        return false;
    }
    let r = re();
    if let Some(c) = cap_if(msg.contains("recommendedMax"), &r.limit, msg) {
        if let Some(mb) = num(&c[1]) {
            working_set(runs.run(fw, at)).limit_bytes = Some((mb * 1e6) as u64);
        }
        return true;
    }
    let over = msg.contains(OVER);
    let pair = cap_if(msg.contains("allocated"), &r.allocated, msg)
        .and_then(|c| Some((num(&c[1])?, num(&c[2])?)));
    if pair.is_none() && !over {
        return false;
    }
    let ws = working_set(runs.run(fw, at));
    if let Some((current, limit)) = pair {
        let current_bytes = (current * MIB) as u64;
        // The running total only grows; the largest is what was asked of the limit.
        ws.allocated_bytes = Some(
            ws.allocated_bytes
                .map_or(current_bytes, |x| x.max(current_bytes)),
        );
        ws.limit_bytes.get_or_insert((limit * MIB) as u64);
    }
    let past = over || pair.is_some_and(|(current, limit)| limit > 0.0 && current > limit);
    if past && ws.over_line.is_none() {
        ws.over_line = Some(at);
        ws.over_text = Some(crate::evidence::clip(msg.trim()));
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::evidence::WorkingSet;
    use crate::ingest::frameworks::test_support::runs;

    fn ws(log: &str) -> Option<WorkingSet> {
        runs(log, false).into_iter().find_map(|r| r.working_set)
    }

    #[test]
    fn the_2023_buffer_lines_carry_the_total_the_limit_and_the_warning() {
        let w = ws("ggml_metal_init: hasUnifiedMemory             = true\n\
ggml_metal_init: recommendedMaxWorkingSetSize  =  5461.34 MB\n\
ggml_metal_init: maxTransferRate              = built-in GPU\n\
llama_new_context_with_model: compute buffer total size =   91.47 MB\n\
ggml_metal_add_buffer: allocated 'data            ' buffer, size =  6984.06 MB, ( 6984.52 /  5461.34), warning: current allocated size is greater than the recommended max working set size\n\
ggml_metal_add_buffer: allocated 'eval            ' buffer, size =    10.00 MB, ( 6994.52 /  5461.34), warning: current allocated size is greater than the recommended max working set size\n")
        .expect("a working set");
        assert_eq!(w.limit_bytes, Some(5_461_340_000));
        assert_eq!(w.allocated_bytes, Some((6994.52 * 1024.0 * 1024.0) as u64));
        assert_eq!(w.over_line, Some(5));
        assert!(w.over_text.unwrap().starts_with("ggml_metal_add_buffer"));
    }

    #[test]
    fn the_warning_on_its_own_line_is_enough() {
        let w = ws("ggml_metal_device_init: recommendedMaxWorkingSetSize  = 11453.25 MB\n\
load_tensors:   Metal_Mapped model buffer size = 12288.00 MiB\n\
ggml_metal_log_allocated_size: warning: current allocated size is greater than the recommended max working set size\n")
        .expect("a working set");
        assert_eq!(w.limit_bytes, Some(11_453_250_000));
        assert_eq!(w.allocated_bytes, None);
        assert_eq!(w.over_line, Some(3));
    }

    #[test]
    fn a_total_within_the_limit_is_no_warning() {
        let w = ws("ggml_backend_metal_log_allocated_size: allocated buffer, size =  4096.00 MiB, ( 4096.06 / 10922.67)\n\
ggml_backend_metal_log_allocated_size: allocated buffer, size =   512.00 MiB, ( 4608.06 / 10922.67)\n")
        .expect("a working set");
        assert_eq!(w.allocated_bytes, Some((4608.06 * 1024.0 * 1024.0) as u64));
        assert_eq!(w.limit_bytes, Some((10922.67 * 1024.0 * 1024.0) as u64));
        assert_eq!(w.over_line, None);
    }

    #[test]
    fn a_total_past_the_limit_without_the_warning_still_counts() {
        // iOS builds print the pair; the warning is the same comparison.
        let w = ws("ggml_backend_metal_log_allocated_size: allocated buffer, size =  3000.00 MiB, ( 3000.06 /  2730.67)\n")
            .expect("a working set");
        assert_eq!(w.over_line, Some(1));
    }
}

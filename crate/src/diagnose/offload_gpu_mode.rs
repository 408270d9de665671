//! `offload.gpu-mode`: an MNN LLM configured for OpenCL whose `thread_num` leaves out the
//! buffer-memory bit. On a GPU backend MNN reads `thread_num` as a mode mask (tuning: 1 none, 2
//! heavy, 4 wide, 8 normal, 16 fast; memory: 64 buffer, 128 image), and MNN's LLM documentation
//! gives 68 (buffer memory, wide tuning) for OpenCL. Users carry the CPU's 4, 8 or 16 over, and
//! then the LLM's kernels do not all build on the GPU: operators fall back to the CPU, or the
//! load fails (alibaba/MNN #3308: `thread_num: 16` on an SD 8 Gen 2, "Map error ptrCL ==
//! nullptr").
//!
//! Critical when the same input's run failed (no decode speed, a failure line): the mode is then
//! the first thing to change.

use super::run_facts::{decode_tok_s, framework_label, input_of, run_ref};
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Framework};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.gpu-mode"];

/// `MNN_GPU_MEMORY_BUFFER`.
const BUFFER_BIT: u32 = 1 << 6;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for run in &ev.runs {
        let opencl = run
            .backend
            .as_deref()
            .is_some_and(|b| b.eq_ignore_ascii_case("opencl"));
        let Some(mode) = run.gpu_mode.filter(|m| m & BUFFER_BIT == 0) else {
            continue;
        };
        if run.framework != Some(Framework::Mnn) || !opencl {
            continue;
        }
        let input = input_of(ev, run);
        if out.iter().any(|f| f.evidence[0].input == input) {
            continue;
        }
        // A run that still decoded fell back rather than failed (run_failed's rule too).
        let failed = decode_tok_s(run).is_none() && ev.failures.iter().any(|f| f.input == input);
        out.push(Finding::new(
            "offload.gpu-mode",
            if failed {
                Severity::Critical
            } else {
                Severity::Warning
            },
            vec![
                ("framework", framework_label(run)),
                ("mode", mode.to_string()),
            ],
            vec![run_ref(
                ev,
                run,
                Quote::Input(format!(
                    "\"backend_type\": \"opencl\", \"thread_num\": {mode}"
                )),
            )],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Run;

    fn findings(backend: &str, mode: u32, failed: bool) -> Vec<Finding> {
        let mut ev = Evidence::default();
        let input = ev.add_input("mnn.log");
        ev.runs.push(Run {
            input: "mnn.log".into(),
            framework: Some(Framework::Mnn),
            backend: Some(backend.into()),
            gpu_mode: Some(mode),
            ..Run::default()
        });
        if failed {
            ev.failures.push(crate::evidence::FailureLine {
                input,
                line: 13,
                class: crate::evidence::FailureClass::Load,
                text: "Map error ptrCL == nullptr".into(),
            });
        }
        rule(&ev, &Views::of(&ev))
    }

    #[test]
    fn a_cpu_thread_count_on_opencl_is_the_finding_and_68_is_not() {
        let f = findings("opencl", 16, true);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(findings("opencl", 4, false)[0].severity, Severity::Warning);
        assert!(findings("opencl", 68, false).is_empty());
        assert!(findings("opencl", 64 | 16, false).is_empty());
        assert!(findings("vulkan", 16, false).is_empty());
    }
}

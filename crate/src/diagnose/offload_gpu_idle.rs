//! `offload.gpu-idle`: `nvidia-smi`'s table shows a GPU doing nothing: utilization at most 5 %,
//! almost no memory in use (under 1 GiB and under a tenth of the card; a loaded model takes
//! gigabytes) and no compute process. Where the analysis also holds a run, or the table was
//! pasted into the framework's log, the model ran elsewhere (the CPU): a warning. Alone, the table
//! may have been taken between runs, so it only says what would decide (read it while
//! generating).

use super::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, InputKind};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.gpu-idle"];

const IDLE_PCT: f64 = 5.0;
const EMPTY_MIB: f64 = 1024.0;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let generating = !ev.runs.is_empty();
    let mut out: Vec<Finding> = Vec::new();
    for g in &ev.gpu_states {
        let idle = g.util_pct.is_some_and(|u| u <= IDLE_PCT);
        let empty = match (g.mem_used_mib, g.mem_total_mib) {
            (Some(u), Some(t)) => u < EMPTY_MIB && u < 0.1 * t,
            (Some(u), None) => u < EMPTY_MIB,
            _ => false,
        };
        if !(idle && empty && g.compute_processes.unwrap_or(0) == 0) {
            continue;
        }
        // Every table of a loop must show it idle; one finding per input and GPU.
        let busy_elsewhere = ev.gpu_states.iter().any(|o| {
            o.input == g.input && o.gpu == g.gpu && o.util_pct.is_some_and(|u| u > IDLE_PCT)
        });
        if busy_elsewhere
            || out.iter().any(|f| {
                f.evidence[0].input == g.input
                    && f.params
                        .iter()
                        .any(|p| p.0 == "gpu" && p.1 == g.gpu.to_string())
            })
        {
            continue;
        }
        let in_log = ev.inputs.get(g.input).and_then(|i| i.kind.as_ref()) == Some(&InputKind::Log);
        let warn = generating || in_log;
        out.push(
            Finding::new(
                "offload.gpu-idle",
                if warn {
                    Severity::Warning
                } else {
                    Severity::Info
                },
                vec![
                    ("gpu", g.gpu.to_string()),
                    (
                        "name",
                        g.name.clone().unwrap_or_else(|| format!("GPU {}", g.gpu)),
                    ),
                    (
                        "util",
                        g.util_pct.map_or_else(|| "?".into(), |u| format!("{u:.0}")),
                    ),
                    (
                        "used_mib",
                        g.mem_used_mib
                            .map_or_else(|| "?".into(), |u| format!("{u:.0}")),
                    ),
                    (
                        "total_mib",
                        g.mem_total_mib
                            .map_or_else(|| "?".into(), |u| format!("{u:.0}")),
                    ),
                ],
                vec![EvidenceRef::at_line(g.input, g.line, &g.text)],
            )
            .with_variant((!warn).then_some("alone")),
        );
    }
    out
}

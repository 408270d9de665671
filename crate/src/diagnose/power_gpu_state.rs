//! `power.gpu-state`: a GPU that `nvidia-smi`'s table shows busy (utilization ≥ 50 %) yet in a
//! performance state below P2, or drawing under a fifth of its power cap at ≥ 90 % utilization.
//! CUDA work runs at P0, or at P2 on GeForce boards (the driver's compute state), both healthy;
//! P3 and below are clock tables the driver or a power policy chose to save power, so the work
//! is held below the GPU's clocks. The table shows no clock, so the cause is not sized here: a
//! clock reading against its maximum (`nvidia-smi -q -d CLOCK,PERFORMANCE`) would size it.

use super::telemetry::num;
use super::{EvidenceRef, Finding, Severity};
use crate::evidence::Evidence;
use crate::views::Views;

pub const IDS: &[&str] = &["power.gpu-state"];

/// Utilization from which a GPU counts as working.
const BUSY_PCT: f64 = 50.0;
/// The deepest performance state CUDA work runs in unhindered (P2 on GeForce boards).
const COMPUTE_PSTATE: u32 = 2;
/// Draw under this share of the cap at high utilization is starved.
const LOW_DRAW_SHARE: f64 = 0.2;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for g in &ev.gpu_states {
        let Some(util) = g.util_pct.filter(|u| *u >= BUSY_PCT) else {
            continue;
        };
        let share = match (g.draw_w, g.cap_w) {
            (Some(d), Some(c)) if c > 0.0 => Some(d / c),
            _ => None,
        };
        let slow_state = g.pstate.is_some_and(|p| p > COMPUTE_PSTATE);
        let starved = util >= 90.0 && share.is_some_and(|s| s < LOW_DRAW_SHARE);
        if !(slow_state || starved) {
            continue;
        }
        // One finding per input and GPU: a `-l` loop repeats the table.
        if out.iter().any(|f| {
            f.evidence[0].input == g.input
                && f.params
                    .iter()
                    .any(|p| p.0 == "gpu" && p.1 == g.gpu.to_string())
        }) {
            continue;
        }
        let unknown = || "?".to_string();
        out.push(Finding {
            variant: (!slow_state).then_some("draw"),
            id: "power.gpu-state",
            severity: Severity::Warning,
            params: vec![
                ("gpu", g.gpu.to_string()),
                (
                    "name",
                    g.name.clone().unwrap_or_else(|| format!("GPU {}", g.gpu)),
                ),
                ("pstate", g.pstate.map_or_else(unknown, |p| format!("P{p}"))),
                ("util", num(util, 0)),
                ("draw_w", g.draw_w.map_or_else(unknown, |d| num(d, 0))),
                ("cap_w", g.cap_w.map_or_else(unknown, |c| num(c, 0))),
                (
                    "draw_pct",
                    share.map_or_else(unknown, |s| num(100.0 * s, 0)),
                ),
            ],
            count: None,
            evidence: vec![EvidenceRef::at_line(g.input, g.line, &g.text)],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::apply;
    use crate::evidence::GpuState;

    pub fn gpu(pstate: u32, util: f64, draw: f64, cap: f64) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("smi.txt");
        ev.gpu_states.push(GpuState {
            input: 0,
            line: 9,
            text: "| 30%   45C    P3    33W / 170W |".into(),
            gpu: 0,
            name: Some("NVIDIA GeForce RTX 3060".into()),
            pstate: Some(pstate),
            util_pct: Some(util),
            draw_w: Some(draw),
            cap_w: Some(cap),
            mem_used_mib: Some(5000.0),
            mem_total_mib: Some(12288.0),
            compute_processes: Some(1),
            process: None,
        });
        ev
    }

    #[test]
    fn a_busy_gpu_held_in_p3_or_starved_of_power() {
        let f = apply(rule, &gpu(3, 95.0, 33.0, 170.0));
        assert_eq!((f.len(), f[0].variant), (1, None));
        let f = apply(rule, &gpu(2, 95.0, 20.0, 170.0));
        assert_eq!(f[0].variant, Some("draw"));
    }

    #[test]
    fn compute_states_near_the_cap_and_idle_gpus_are_silent() {
        assert!(apply(rule, &gpu(2, 97.0, 160.0, 170.0)).is_empty());
        assert!(apply(rule, &gpu(0, 99.0, 300.0, 350.0)).is_empty());
        assert!(apply(rule, &gpu(8, 0.0, 12.0, 170.0)).is_empty());
    }
}

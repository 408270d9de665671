//! `power.gpu-state`: a GPU that `nvidia-smi`'s table shows busy (utilization ≥ 50 %) yet in a
//! performance state below P2, or drawing under a fifth of its power cap at ≥ 90 % utilization.
//! CUDA work runs at P0, or at P2 on GeForce boards (the driver's compute state), both healthy;
//! P3 and below are clock tables the driver or a power policy chose to save power, so the work
//! is held below the GPU's clocks. The table shows no clock, so the cause is not sized here: a
//! clock reading against its maximum (`nvidia-smi -q -d CLOCK,PERFORMANCE`) would size it.
//!
//! A GPU that shares the model with the CPU (a partial offload) waits for the CPU's layers on
//! every token, so its utilization is low by construction and the 50 % gate never sees it. Such
//! a GPU, with most of its memory taken (a model loaded), some work (≥ 20 %), in P3 or deeper and
//! drawing well under its cap (so no power limit explains the state), is the `loaded` wording:
//! the driver chose the lower clock table for work that comes in bursts. NVAPI calls P2/P3
//! "balanced" and P0/P1 "maximum" 3D performance, and CUDA on GeForce runs in P2, so P3 holds the
//! clocks below what compute gets; the wording says what would confirm it.

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
/// Utilization from which a GPU holding a model counts as working in bursts: an idle GPU with a
/// model resident reads 0–5 %, a partial offload 20–60 %.
const LOADED_BUSY_PCT: f64 = 20.0;
/// Share of its memory in use from which a GPU is taken to hold a model: a desktop alone takes
/// well under half of a card's memory.
const LOADED_MEM_SHARE: f64 = 0.5;
/// Draw under this share of the cap: the power limit is not what holds the state down.
const UNDER_CAP_SHARE: f64 = 0.5;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for g in &ev.gpu_states {
        let Some(util) = g.util_pct else {
            continue;
        };
        let share = match (g.draw_w, g.cap_w) {
            (Some(d), Some(c)) if c > 0.0 => Some(d / c),
            _ => None,
        };
        let below_compute = g.pstate.is_some_and(|p| p > COMPUTE_PSTATE);
        let slow_state = util >= BUSY_PCT && below_compute;
        let starved = util >= 90.0 && share.is_some_and(|s| s < LOW_DRAW_SHARE);
        let loaded = match (g.mem_used_mib, g.mem_total_mib) {
            (Some(u), Some(t)) if t > 0.0 => u / t >= LOADED_MEM_SHARE,
            _ => false,
        };
        let bursts = util >= LOADED_BUSY_PCT
            && below_compute
            && loaded
            && share.is_some_and(|s| s < UNDER_CAP_SHARE);
        if !(slow_state || starved || bursts) {
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
        let variant = match (slow_state, starved) {
            (true, _) => None,
            (false, true) => Some("draw"),
            (false, false) => Some("loaded"),
        };
        let mut memory = Vec::new();
        // Only the loaded wording rests on the memory in use, so only it names it.
        if variant == Some("loaded") {
            let mib = |v: Option<f64>| v.map_or_else(unknown, |m| num(m, 0));
            memory.push(("mem_used", mib(g.mem_used_mib)));
            memory.push(("mem_total", mib(g.mem_total_mib)));
        }
        out.push(
            Finding::new(
                "power.gpu-state",
                Severity::Warning,
                vec![
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
                ]
                .into_iter()
                .chain(memory)
                .collect(),
                vec![EvidenceRef::at_line(g.input, g.line, &g.text)],
            )
            .with_variant(variant),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::apply;
    use crate::evidence::GpuState;

    pub fn gpu(pstate: u32, util: f64, draw: f64, cap: f64) -> Evidence {
        holding(pstate, util, draw, cap, 5000.0)
    }

    fn holding(pstate: u32, util: f64, draw: f64, cap: f64, used_mib: f64) -> Evidence {
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
            mem_used_mib: Some(used_mib),
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

    #[test]
    fn a_gpu_holding_a_model_in_p3_is_held_though_busy_only_in_bursts() {
        // A partial offload on a 12 GiB card (llama.cpp #17880's row): 39 % busy, 11.6 GiB in use.
        let f = apply(rule, &holding(3, 39.0, 33.0, 170.0, 11888.0));
        assert_eq!((f.len(), f[0].variant), (1, Some("loaded")));
        assert!(f[0].params.contains(&("mem_used", "11888".into())));
        // The busy path keeps its own wording when both hold.
        let f = apply(rule, &holding(3, 95.0, 33.0, 170.0, 11888.0));
        assert_eq!(f[0].variant, None);
    }

    #[test]
    fn a_loaded_gpu_idle_or_in_a_compute_state_or_at_its_cap_is_silent() {
        // Idle at P8 with no model, idle at P8 with one loaded, too little work to judge.
        assert!(apply(rule, &holding(8, 0.0, 12.0, 170.0, 400.0)).is_empty());
        assert!(apply(rule, &holding(8, 3.0, 15.0, 170.0, 11888.0)).is_empty());
        assert!(apply(rule, &holding(3, 12.0, 30.0, 170.0, 11888.0)).is_empty());
        // A P3 GPU with little in its memory is not running the model.
        assert!(apply(rule, &holding(3, 39.0, 33.0, 170.0, 2100.0)).is_empty());
        // P2 is the compute state, and drawing near its cap a lower state is the limit at work.
        assert!(apply(rule, &holding(2, 39.0, 60.0, 170.0, 11888.0)).is_empty());
        assert!(apply(rule, &holding(3, 39.0, 150.0, 170.0, 11888.0)).is_empty());
    }
}

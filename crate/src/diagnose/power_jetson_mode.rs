//! `power.mode-unread`: a Jetson whose decode falls well short of what its memory allows, with
//! no power mode in the inputs. Jetson modules ship and are often left in a budget mode below
//! MAXN (15 W / 30 W on AGX Orin, 7 W / 15 W on Orin Nano), which lowers the memory (EMC) and GPU
//! clock limits; decode, which reads every weight once per token, follows the memory clock.
//! The mode is the first thing the maintainers ask for (dusty-nv/jetson-containers #412,
//! "Is it in maximum power mode (nvpmodel)?"). Only a question: `nvpmodel -q` decides it.
//!
//! A stated mode below MAXN is `power.wall`'s (variant `mode`); a stated MAXN rules this out.

use super::bandwidth::fmt;
use super::bandwidth_physics::share_of_expected;
use super::run_facts::{input_of, run_ref};
use super::{Finding, Severity};
use crate::evidence::{Evidence, ModeFamily};
use crate::views::Views;

pub const IDS: &[&str] = &["power.mode-unread"];

/// Below this share of the ceiling model's expectation the gap is worth a question: the
/// share at which a run stops counting as at the ceiling (`bandwidth.at-ceiling`).
const BELOW_EXPECTED: f64 = 0.6;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    if ev
        .power_modes
        .iter()
        .any(|m| m.family == ModeFamily::Jetson)
    {
        return Vec::new();
    }
    let mut out: Vec<Finding> = Vec::new();
    for run in &ev.runs {
        let Some((share, gbps, d, quote)) = share_of_expected(ev, run) else {
            continue;
        };
        if !d.entry.name.starts_with("Jetson") || share >= BELOW_EXPECTED {
            continue;
        }
        let input = input_of(ev, run);
        if out.iter().any(|f| f.evidence[0].input == input) {
            continue;
        }
        out.push(Finding {
            variant: None,
            id: "power.mode-unread",
            severity: Severity::Warning,
            params: vec![
                ("device", d.entry.name.clone()),
                ("pct_of_expected", format!("{:.0}", share * 100.0)),
                ("achieved_gbps", fmt(gbps)),
                ("peak_gbps", fmt(d.entry.gbps)),
            ],
            count: None,
            evidence: vec![run_ref(ev, run, quote)],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{ModeLevel, Phase, PowerMode, Run};

    fn ev(tok_s: f64) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("orin.md");
        ev.sched
            .hints
            .device_names
            .push("my device is: AGX ORIN 32G JetPack 6.0".into());
        ev.runs.push(Run {
            input: "orin.md".into(),
            line_start: Some(5),
            model_bytes: Some(3_900_000_000),
            quant: Some("q4f16_1".into()),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Phase::default()
            }),
            ..Run::default()
        });
        ev
    }

    fn ids(ev: &Evidence) -> Vec<&'static str> {
        rule(ev, &Views::of(ev)).iter().map(|f| f.id).collect()
    }

    #[test]
    fn a_slow_jetson_asks_for_its_mode_unless_the_inputs_state_it() {
        // 3.9 GB × 19.3 tok/s = 75 GB/s of the AGX Orin's 204.8.
        assert_eq!(ids(&ev(19.3)), ["power.mode-unread"]);
        // 42.9 tok/s is at the ceiling: nothing to ask.
        assert!(ids(&ev(42.9)).is_empty());
        let mut stated = ev(19.3);
        stated.power_modes.push(PowerMode {
            input: 0,
            line: 1,
            name: "MAXN".into(),
            id: Some(0),
            text: "NV Power Mode: MAXN".into(),
            family: ModeFamily::Jetson,
            level: ModeLevel::Max,
        });
        assert!(ids(&stated).is_empty());
    }
}

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
use super::compare_groups::same_model;
use super::measure_reference::SLOWER;
use super::run_facts::{decode_tok_s, input_of, run_ref};
use super::{Finding, Severity};
use crate::evidence::{Evidence, ModeFamily, Run};
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
    for run in ev.runs.iter().filter(|r| !r.quoted) {
        let Some((share, gbps, d, quote)) = share_of_expected(ev, run) else {
            continue;
        };
        if !d.entry.name.starts_with("Jetson") {
            continue;
        }
        let input = input_of(ev, run);
        // A result the user quotes for the same model, well above this run: the same
        // question, asked from the gap they see rather than from the memory's speed.
        let quoted = (share >= BELOW_EXPECTED)
            .then(|| quoted_above(ev, run, input))
            .flatten();
        if share >= BELOW_EXPECTED && quoted.is_none() {
            continue;
        }
        if out.iter().any(|f| f.evidence[0].input == input) {
            continue;
        }
        let mut params = vec![
            ("device", d.entry.name.clone()),
            ("pct_of_expected", format!("{:.0}", share * 100.0)),
            ("achieved_gbps", fmt(gbps)),
            ("peak_gbps", fmt(d.entry.gbps)),
        ];
        if let Some((own, reference)) = quoted {
            params.push(("own_tok_s", fmt(own)));
            params.push(("ref_tok_s", fmt(reference)));
            params.push(("ratio", fmt(reference / own)));
        }
        out.push(
            Finding::new(
                "power.mode-unread",
                Severity::Warning,
                params,
                vec![run_ref(ev, run, quote)],
            )
            .with_variant(quoted.map(|_| "reference")),
        );
    }
    out
}

/// This run's decode and the fastest result quoted beside it for the same model, when that is
/// [`SLOWER`] or more above it.
fn quoted_above(ev: &Evidence, run: &Run, input: usize) -> Option<(f64, f64)> {
    let own = decode_tok_s(run).filter(|t| *t > 0.0)?;
    let reference = ev
        .runs
        .iter()
        .filter(|r| r.quoted && input_of(ev, r) == input && same_model(run, r) != Some(false))
        .filter_map(decode_tok_s)
        .reduce(f64::max)?;
    (reference >= own * SLOWER).then_some((own, reference))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{ModeLevel, Phase, PowerMode};

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

    #[test]
    fn a_jetson_near_its_ceiling_still_asks_when_a_quoted_result_is_far_above() {
        // 30 tok/s is within the ceiling model's reach, but the result the user quotes for the
        // same model is 1.43× faster.
        let mut ev = ev(30.0);
        let mut quoted = ev.runs[0].clone();
        quoted.quoted = true;
        quoted.line_start = Some(9);
        quoted.decode.as_mut().unwrap().tok_s = Some(42.9);
        ev.runs.push(quoted);
        let f = rule(&ev, &Views::of(&ev));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].variant, Some("reference"));
        assert_eq!(f[0].param("ratio"), Some("1.43"));
        // Within noise of the quoted figure: nothing to ask.
        ev.runs[1].decode.as_mut().unwrap().tok_s = Some(33.0);
        assert!(ids(&ev).is_empty());
    }
}

//! `power.saver-mode`: an operating system or an NPU runtime states a power-saving mode
//! (Android battery saver, a Linux `power-saver` / `low-power` profile, macOS Low Power Mode,
//! Windows' Power saver scheme, a QNN / Genie HTP `power_saver` profile). Each caps the clocks
//! or the accelerator's voltage corner below what the silicon runs at in its performance mode.
//! A `balanced` NPU profile is below `burst` too, but smaller: an info. An operating system's
//! balanced plan is its default and boosts under load, so it says nothing. Jetson `nvpmodel`
//! modes are `power.wall` (their own rule).
//!
//! Not sized: the modes' limits are not in the inputs; one run in the performance mode sizes it.

use super::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, ModeFamily, ModeLevel};
use crate::views::Views;

pub const IDS: &[&str] = &["power.saver-mode"];

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for m in &ev.power_modes {
        let (severity, variant) = match (m.family, m.level) {
            (ModeFamily::Jetson, _) | (_, ModeLevel::Max | ModeLevel::Unknown) => continue,
            (ModeFamily::Os, ModeLevel::Balanced) => continue,
            (ModeFamily::Npu, ModeLevel::Balanced) => (Severity::Info, "npu"),
            (ModeFamily::Npu, ModeLevel::Saver) => (Severity::Warning, "npu"),
            (ModeFamily::Os, ModeLevel::Saver) => (Severity::Warning, "os"),
        };
        // A later reading of the same input wins: the mode may have been switched in between.
        let later_max = ev.power_modes.iter().any(|o| {
            o.input == m.input
                && o.family == m.family
                && o.line > m.line
                && o.level == ModeLevel::Max
        });
        if later_max || out.iter().any(|f| f.evidence[0].input == m.input) {
            continue;
        }
        out.push(
            Finding::new(
                "power.saver-mode",
                severity,
                vec![("mode", m.name.clone())],
                vec![EvidenceRef::at_line(m.input, m.line, &m.text)],
            )
            .with_variant(Some(variant)),
        );
    }
    out
}

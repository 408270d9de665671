//! `cpu.x86-build-on-arm`: a build whose flags are x86 (SSE3, AVX, F16C on; NEON off) on a
//! machine the same inputs show to be ARM: an Apple M-series Mac, a Snapdragon X laptop, an
//! aarch64 board, or a native build's own system_info beside it. The x86 binary runs translated
//! (Rosetta 2, Windows' Prism), with SSE kernels at best and none of the NEON or dot-product
//! ones. An x86 Python that built llama-cpp-python for x86 is the usual way there.

use super::run_facts::{framework_label, input_of, run_ref};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::sched::APPLE_SILICON_NAMES;
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["cpu.x86-build-on-arm"];

/// Flags only an x86 build prints as on.
const X86_FLAGS: &[&str] = &["SSE3", "SSSE3", "AVX", "AVX2", "F16C", "FMA", "AVX512"];
/// Flags only an ARM build prints as on.
const ARM_FLAGS: &[&str] = &["NEON", "ARM_FMA", "FP16_VA", "DOTPROD", "MATMUL_INT8"];

/// Words beside [`APPLE_SILICON_NAMES`] that name an ARM machine in the user's text, `lscpu`
/// or `uname -m`, lowercased.
const ARM_MACHINE: &[&str] = &["snapdragon x", "aarch64", "arm64"];

fn any_on(run: &Run, flags: &[&str]) -> Vec<String> {
    flags
        .iter()
        .filter(|f| run.cpu_features.get(**f) == Some(&true))
        .map(|f| (*f).to_string())
        .collect()
}

fn is_on(run: &Run, flags: &[&str]) -> bool {
    flags
        .iter()
        .any(|f| run.cpu_features.get(*f) == Some(&true))
}

/// The run's build is x86: some x86 flag on, no ARM flag on.
fn x86_build(run: &Run) -> bool {
    is_on(run, X86_FLAGS) && !is_on(run, ARM_FLAGS)
}

/// What says the machine is ARM, computed once for all runs: a native ARM build's flags per
/// input (a run's own input decides), else a name for the machine in the inputs' text.
pub struct ArmMachine<'a> {
    native: Vec<(&'a str, &'a Run)>,
    named: Option<&'a String>,
}

impl<'a> ArmMachine<'a> {
    pub fn of(ev: &'a Evidence) -> Self {
        let mut native: Vec<(&str, &Run)> = Vec::new();
        for r in &ev.runs {
            if is_on(r, ARM_FLAGS) && !native.iter().any(|(i, _)| *i == r.input) {
                native.push((r.input.as_str(), r));
            }
        }
        let h = &ev.sched.hints;
        let named = h
            .arch
            .iter()
            .chain(h.cpu_desc.iter())
            .chain(h.hardware.iter())
            .chain(h.device_names.iter())
            .find(|name| {
                let lower = name.to_ascii_lowercase();
                ARM_MACHINE
                    .iter()
                    .chain(APPLE_SILICON_NAMES)
                    .any(|w| lower.contains(w))
            });
        ArmMachine { native, named }
    }

    /// Whether `run` is an x86 build on a machine these inputs show to be ARM.
    pub fn emulates(&self, run: &Run) -> bool {
        x86_build(run) && (self.named.is_some() || self.native.iter().any(|(i, _)| *i == run.input))
    }

    /// What shows it for `run`: the quote, and the lines when a native run says it.
    fn shown(&self, ev: &Evidence, run: &Run) -> Option<(String, Option<EvidenceRef>)> {
        if !x86_build(run) {
            return None;
        }
        if let Some((_, r)) = self.native.iter().find(|(i, _)| *i == run.input) {
            let seen = any_on(r, ARM_FLAGS)
                .iter()
                .map(|f| format!("{f} = 1"))
                .collect::<Vec<_>>()
                .join(" | ");
            let at = run_ref(ev, r, Quote::Input(seen.clone()));
            return Some((seen, Some(at)));
        }
        self.named.map(|n| (n.clone(), None))
    }
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let arm = ArmMachine::of(ev);
    let mut out: Vec<Finding> = Vec::new();
    for run in &ev.runs {
        let input = input_of(ev, run);
        if out
            .iter()
            .any(|f| f.evidence.first().is_some_and(|e| e.input == input))
        {
            continue;
        }
        let Some((seen, arm_ref)) = arm.shown(ev, run) else {
            continue;
        };
        let on = any_on(run, X86_FLAGS).join(", ");
        out.push(Finding::new(
            "cpu.x86-build-on-arm",
            Severity::Critical,
            vec![
                ("framework", framework_label(run)),
                ("on", on.clone()),
                ("arm_seen", seen),
            ],
            std::iter::once(run_ref(
                ev,
                run,
                Quote::phrase("quote.cpu.x86-flags", vec![("on", on)]),
            ))
            .chain(arm_ref)
            .collect(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(input: &str, flags: &[(&str, bool)]) -> Run {
        let mut r = Run {
            input: input.into(),
            ..Run::default()
        };
        for (f, on) in flags {
            r.cpu_features.insert((*f).to_string(), *on);
        }
        r
    }

    const X86: &[(&str, bool)] = &[("AVX", false), ("SSE3", true), ("NEON", false)];
    const ARM: &[(&str, bool)] = &[("NEON", true), ("ARM_FMA", true), ("SSE3", false)];

    fn ids(ev: &Evidence) -> Vec<&'static str> {
        rule(ev, &Views::of(ev)).iter().map(|f| f.id).collect()
    }

    #[test]
    fn an_x86_build_beside_a_native_one_or_under_a_named_arm_machine() {
        let mut ev = Evidence::default();
        ev.add_input("paste.md");
        ev.runs = vec![build("paste.md", ARM), build("paste.md", X86)];
        let found = rule(&ev, &Views::of(&ev));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].param("on"), Some("SSE3"));
        assert_eq!(
            found[0].evidence.len(),
            2,
            "the x86 flags and the native ones"
        );

        let mut ev = Evidence::default();
        ev.add_input("paste.md");
        ev.runs = vec![build("paste.md", X86)];
        assert!(
            ids(&ev).is_empty(),
            "an x86 build alone is an x86 machine's"
        );
        ev.sched
            .hints
            .device_names
            .push("Builds are slow on MacOS with Apple silicon".into());
        assert_eq!(ids(&ev), ["cpu.x86-build-on-arm"]);
    }

    #[test]
    fn a_native_arm_build_in_another_input_is_another_machine() {
        let mut ev = Evidence::default();
        ev.add_input("phone.log");
        ev.add_input("desktop.log");
        ev.runs = vec![build("phone.log", ARM), build("desktop.log", X86)];
        assert!(ids(&ev).is_empty());
    }
}

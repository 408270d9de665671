//! `cpu.missing-*`: the build or the CPU lacks the instruction the quant kernels need. The
//! flags come from llama.cpp's system_info (build features), MNN's "The device supports" line
//! (CPU features), or any parser that fills `cpu_features`; only flags stated off count.

use super::run_facts::{framework_label, run_ref};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, Run};

pub const IDS: &[&str] = &[
    "cpu.missing-dotprod",
    "cpu.missing-i8mm",
    "cpu.missing-avx2",
    "cpu.missing-avx-vnni",
];

/// (finding id, severity, names the flag goes by, names that must be on for it to matter).
const CHECKS: &[(&str, Severity, &[&str], &[&str])] = &[
    (
        "cpu.missing-dotprod",
        Severity::Critical,
        &["DOTPROD", "i8sdot", "dotprod", "asimddp"],
        &[],
    ),
    // I8MM only matters once the dot-product path is there; without DOTPROD that finding leads.
    (
        "cpu.missing-i8mm",
        Severity::Info,
        &["MATMUL_INT8", "i8mm", "I8MM"],
        &["DOTPROD", "i8sdot", "dotprod"],
    ),
    (
        "cpu.missing-avx2",
        Severity::Critical,
        &["AVX2"],
        &["AVX", "SSE3"],
    ),
    (
        "cpu.missing-avx-vnni",
        Severity::Info,
        &["AVX_VNNI"],
        &["AVX2"],
    ),
];

fn flag(run: &Run, names: &[&str]) -> Option<(String, bool)> {
    names
        .iter()
        .find_map(|n| run.cpu_features.get(*n).map(|v| ((*n).to_string(), *v)))
}

pub fn rule(ev: &Evidence) -> Vec<Finding> {
    let mut out = Vec::new();
    for &(id, severity, names, needs) in CHECKS {
        // One finding per id: every run that lacks the flag is evidence.
        let mut refs = Vec::new();
        let mut first: Option<(&Run, String)> = None;
        for run in &ev.runs {
            let Some((name, false)) = flag(run, names) else {
                continue;
            };
            if !needs.is_empty()
                && !needs
                    .iter()
                    .any(|n| run.cpu_features.get(*n) == Some(&true))
            {
                continue;
            }
            let on: Vec<&str> = run
                .cpu_features
                .iter()
                .filter(|(_, v)| **v)
                .map(|(k, _)| k.as_str())
                .collect();
            refs.push(run_ref(
                ev,
                run,
                Quote::phrase(
                    "quote.cpu.flag-off",
                    vec![("flag", name.to_string()), ("on", on.join(", "))],
                ),
            ));
            first.get_or_insert((run, name));
        }
        let Some((run, name)) = first else {
            continue;
        };
        let quant = run.quant.clone().unwrap_or_else(|| "?".into());
        out.push(Finding {
            id,
            severity,
            params: vec![
                ("framework", framework_label(run)),
                ("flag", name),
                ("quant", quant),
                ("runs", refs.len().to_string()),
            ],
            count: Some(refs.len() as u64),
            evidence: refs.into_iter().take(5).collect(),
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

//! `load.slow`: the model took tens of seconds to load (slow storage, no mmap, no cache).

use super::run_facts::{fmt, framework_label, run_ref};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::Evidence;
use crate::views::Views;

pub const IDS: &[&str] = &["load.slow"];

/// Loads slower than this are worth a look; a phone's UFS reads a 4 GB model in a few seconds.
const SLOW_MS: f64 = 20_000.0;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    ev.runs
        .iter()
        .filter_map(|run| {
            let ms = run.load_ms.filter(|ms| *ms >= SLOW_MS)?;
            Some(Finding::new(
                "load.slow",
                Severity::Warning,
                vec![
                    ("framework", framework_label(run)),
                    ("seconds", fmt(ms / 1000.0)),
                ],
                vec![run_ref(
                    ev,
                    run,
                    Quote::Input(format!("load time = {ms:.2} ms")),
                )],
            ))
        })
        .collect()
}

//! What typed sweep tables say about the power state:
//! - `power.mode-sweep`: the power mode in use (marked `default` / `current` in the table, else
//!   the one a status dump names, else the table's first row) decodes much slower than another
//!   mode of the same table;
//! - `power.trials-decline`: repeated runs of one workload fall from trial to trial (heat soak on
//!   a fanless device, or a power budget running out), with the temperatures when the table
//!   has them.

use super::run_facts::{decode_tok_s, fmt, framework_label, input_of};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["power.mode-sweep", "power.trials-decline"];

/// Below this ratio a mode's difference is within what repeated runs vary by.
const MODE_RATIO: f64 = 1.15;
/// The last trial at or below this share of the first is a decline.
const DECLINE_SHARE: f64 = 0.85;

fn trial_ref(ev: &Evidence, run: &Run, trial: u32, tok_s: f64) -> EvidenceRef {
    EvidenceRef {
        input: input_of(ev, run),
        lines: run.line_start.map(|s| (s, run.line_end.unwrap_or(s))),
        time_s: None,
        quote: Some(Quote::phrase(
            "quote.power.trial-row",
            vec![("trial", trial.to_string()), ("tok_s", fmt(tok_s))],
        )),
    }
}

fn inputs(ev: &Evidence) -> Vec<usize> {
    let mut v: Vec<usize> = ev.runs.iter().map(|r| input_of(ev, r)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn mode_sweep(ev: &Evidence, input: usize) -> Option<Finding> {
    let rows: Vec<(&Run, &str, f64)> = ev
        .runs
        .iter()
        .filter(|r| input_of(ev, r) == input)
        .filter_map(|r| Some((r, r.power_mode.as_deref()?, decode_tok_s(r)?)))
        .collect();
    let mut modes: Vec<&str> = rows.iter().map(|r| r.1).collect();
    modes.sort_unstable();
    modes.dedup();
    if modes.len() < 2 {
        return None;
    }
    let status = |name: &str| {
        ev.power_modes
            .iter()
            .any(|m| m.name.eq_ignore_ascii_case(name))
    };
    let (current, variant) = rows
        .iter()
        .find(|r| r.0.default_setting)
        .map(|r| (r, None))
        .or_else(|| {
            rows.iter()
                .find(|r| status(r.1))
                .map(|r| (r, Some("status")))
        })
        .or_else(|| rows.first().map(|r| (r, Some("first-row"))))?;
    let best = rows.iter().max_by(|a, b| a.2.total_cmp(&b.2))?;
    let ratio = best.2 / current.2;
    if best.1 == current.1 || ratio.is_nan() || ratio < MODE_RATIO {
        return None;
    }
    let quote = |r: &(&Run, &str, f64)| EvidenceRef {
        input,
        lines: r.0.line_start.map(|s| (s, r.0.line_end.unwrap_or(s))),
        time_s: None,
        quote: Some(Quote::phrase(
            "quote.power.mode-row",
            vec![("mode", r.1.to_string()), ("tok_s", fmt(r.2))],
        )),
    };
    Some(Finding {
        variant,
        id: "power.mode-sweep",
        severity: Severity::Warning,
        params: vec![
            ("framework", framework_label(current.0)),
            ("mode", current.1.to_string()),
            ("mode_tok_s", fmt(current.2)),
            ("best_mode", best.1.to_string()),
            ("best_tok_s", fmt(best.2)),
            ("ratio", fmt(ratio)),
            ("modes", modes.len().to_string()),
        ],
        count: None,
        evidence: vec![quote(current), quote(best)],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

fn trials_decline(ev: &Evidence, input: usize) -> Option<Finding> {
    let mut rows: Vec<(&Run, u32, f64)> = ev
        .runs
        .iter()
        .filter(|r| input_of(ev, r) == input)
        .filter_map(|r| Some((r, r.trial?, decode_tok_s(r)?)))
        .collect();
    rows.sort_by_key(|r| r.1);
    if rows.len() < 3 {
        return None;
    }
    let (first, last) = (rows.first()?, rows.last()?);
    let falls = rows.windows(2).filter(|w| w[1].2 < w[0].2).count();
    // Steadily: most steps go down, and the end is well below the start.
    if last.2 > DECLINE_SHARE * first.2 || falls * 3 < (rows.len() - 1) * 2 {
        return None;
    }
    let temps = first.0.temp_c.zip(last.0.temp_c);
    let mut params = vec![
        ("framework", framework_label(first.0)),
        ("trials", rows.len().to_string()),
        ("first_tok_s", fmt(first.2)),
        ("last_tok_s", fmt(last.2)),
        ("ratio_pct", format!("{:.0}", 100.0 * last.2 / first.2)),
    ];
    let variant = match temps {
        Some((a, b)) if b - a >= 5.0 => {
            params.push(("temp_first", format!("{a:.0}")));
            params.push(("temp_last", format!("{b:.0}")));
            Some("hot")
        }
        _ => None,
    };
    Some(Finding {
        variant,
        id: "power.trials-decline",
        severity: Severity::Warning,
        params,
        count: None,
        evidence: vec![
            trial_ref(ev, first.0, first.1, first.2),
            trial_ref(ev, last.0, last.1, last.2),
        ],
        lines: Vec::new(),
        lines_truncated: false,
    })
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for input in inputs(ev) {
        out.extend(mode_sweep(ev, input));
        out.extend(trials_decline(ev, input));
    }
    out
}

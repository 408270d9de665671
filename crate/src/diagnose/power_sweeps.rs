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
/// The lowest later trial at or below this share of the first is a decline ...
const DECLINE_SHARE: f64 = 0.85;
/// ... and the last trial still at or below this share of the first.
const STAYS_DOWN_SHARE: f64 = 0.92;

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
    Some(
        Finding::new(
            "power.mode-sweep",
            Severity::Warning,
            vec![
                ("framework", framework_label(current.0)),
                ("mode", current.1.to_string()),
                ("mode_tok_s", fmt(current.2)),
                ("best_mode", best.1.to_string()),
                ("best_tok_s", fmt(best.2)),
                ("ratio", fmt(ratio)),
                ("modes", modes.len().to_string()),
            ],
            vec![quote(current), quote(best)],
        )
        .with_variant(variant),
    )
}

/// One trial: the run it belongs to, its number and its decode speed.
type Trial<'a> = (&'a Run, u32, f64);

/// The trials of one input: rows of a typed table numbered by trial, one run each; and the
/// repeated decode rows of one benchmark run (mlx-lm's `Trial N:` lines), in the order printed.
fn trial_series(ev: &Evidence, input: usize) -> Vec<Vec<Trial<'_>>> {
    let mut tabled: Vec<Trial> = ev
        .runs
        .iter()
        .filter(|r| input_of(ev, r) == input)
        .filter_map(|r| Some((r, r.trial?, decode_tok_s(r)?)))
        .collect();
    tabled.sort_by_key(|r| r.1);
    let mut series = vec![tabled];
    for run in ev.runs.iter().filter(|r| input_of(ev, r) == input) {
        let mut tests: Vec<&str> = run
            .bench
            .iter()
            .map(|b| b.test.as_str())
            .filter(|t| t.starts_with("tg"))
            .collect();
        tests.sort_unstable();
        tests.dedup();
        for test in tests {
            let rows = run.bench.iter().filter(|b| b.test == test);
            series.push(rows.zip(1..).map(|(b, n)| (run, n, b.tok_s)).collect());
        }
    }
    series
}

fn trials_decline(ev: &Evidence, rows: &[Trial]) -> Option<Finding> {
    if rows.len() < 3 {
        return None;
    }
    let first = rows.first()?;
    // The lowest later trial, not the last: a device that throttles can recover a little
    // between trials, and the fall is still the finding.
    let low = rows[1..].iter().min_by(|a, b| a.2.total_cmp(&b.2))?;
    let falls = rows.windows(2).filter(|w| w[1].2 < w[0].2).count();
    // Steadily: most steps go down, the low is well below the start, and the end has not
    // come back to it (one slow trial between normal ones is noise, not heat).
    let last = rows.last()?;
    if low.2 > DECLINE_SHARE * first.2
        || last.2 > STAYS_DOWN_SHARE * first.2
        || falls * 3 < (rows.len() - 1) * 2
    {
        return None;
    }
    let temps = first.0.temp_c.zip(low.0.temp_c);
    let mut params = vec![
        ("framework", framework_label(first.0)),
        ("trials", rows.len().to_string()),
        ("first_tok_s", fmt(first.2)),
        ("last_tok_s", fmt(low.2)),
        ("ratio_pct", format!("{:.0}", 100.0 * low.2 / first.2)),
    ];
    let variant = match temps {
        Some((a, b)) if b - a >= 5.0 => {
            params.push(("temp_first", format!("{a:.0}")));
            params.push(("temp_last", format!("{b:.0}")));
            Some("hot")
        }
        _ => None,
    };
    Some(
        Finding::new(
            "power.trials-decline",
            Severity::Warning,
            params,
            vec![
                trial_ref(ev, first.0, first.1, first.2),
                trial_ref(ev, low.0, low.1, low.2),
            ],
        )
        .with_variant(variant),
    )
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for input in inputs(ev) {
        out.extend(mode_sweep(ev, input));
        for series in trial_series(ev, input) {
            out.extend(trials_decline(ev, &series));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::BenchRow;

    fn bench_run(tg: &[f64]) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("bench.txt");
        ev.runs.push(Run {
            input: "bench.txt".into(),
            line_start: Some(3),
            line_end: Some(9),
            bench: tg
                .iter()
                .map(|&tok_s| BenchRow {
                    test: "tg2048".into(),
                    tok_s,
                    stddev: None,
                    n_threads: None,
                })
                .collect(),
            ..Run::default()
        });
        ev
    }

    #[test]
    fn repeated_benchmark_trials_that_fall_are_a_decline_even_after_a_small_rebound() {
        // A fanless laptop's five back-to-back trials: the fourth is the low, the fifth
        // recovers a little.
        let ev = bench_run(&[21.086, 18.929, 18.775, 17.456, 18.051]);
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].id, "power.trials-decline");
        assert_eq!(f[0].param("last_tok_s"), Some("17.5"));
        assert_eq!(f[0].param("ratio_pct"), Some("83"));
        // Trials that wander within the noise, or only dip once, are not a decline.
        for steady in [
            &[20.1, 19.8, 20.3, 19.9, 20.0][..],
            &[20.0, 16.5, 20.2, 20.1, 19.9][..],
        ] {
            assert!(
                crate::diagnose::apply(rule, &bench_run(steady)).is_empty(),
                "{steady:?}"
            );
        }
    }
}

//! `power.cpu-clock-low`: CPUs that a status tool (`cpufreq-info`, `cpupower frequency-info`)
//! read far below their hardware maximum while they had to be busy: the `performance` governor
//! asks for the top of the range whatever the load, so a clock at the floor under it is held
//! down from outside the governor (BD PROCHOT, a firmware power limit, a power-saving platform
//! profile); so is a low clock in an analysis that holds a decode run.
//!
//! `measure.clock-unloaded`: the same low reading with nothing to show the CPUs were busy (a
//! `powersave` / `schedutil` governor idles the clock down): one reading cannot tell an idle CPU
//! from a capped one, so it only says what would decide.
//!
//! The size: decode on the CPU scales at most with the clock, so the median low CPU's clock
//! against the hardware maximum bounds what the cap costs.

use super::telemetry::num;
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::{CpuClockReading, Evidence, InputId};
use crate::views::Views;

pub const IDS: &[&str] = &["power.cpu-clock-low", "measure.clock-unloaded"];

/// A CPU under this share of its hardware maximum is low.
const LOW_SHARE: f64 = 0.6;

fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    (n > 0).then(|| {
        if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2.0
        }
    })
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let generating = !ev.runs.is_empty();
    let mut inputs: Vec<InputId> = ev.cpu_clocks.iter().map(|c| c.input).collect();
    inputs.dedup();
    let mut out = Vec::new();
    for input in inputs {
        let read: Vec<&CpuClockReading> = ev
            .cpu_clocks
            .iter()
            .filter(|c| c.input == input && c.hw_max_mhz.is_some_and(|m| m > 0.0))
            .collect();
        let low: Vec<&CpuClockReading> = read
            .iter()
            .copied()
            .filter(|c| c.hw_max_mhz.is_some_and(|m| c.cur_mhz < LOW_SHARE * m))
            .collect();
        let Some(first) = low.first() else {
            continue;
        };
        let max = first.hw_max_mhz.unwrap_or(0.0);
        let Some(cur) = median(low.iter().map(|c| c.cur_mhz).collect()) else {
            continue;
        };
        let performance = low
            .iter()
            .any(|c| c.governor.as_deref() == Some("performance"));
        let at_floor = low.iter().all(|c| {
            c.hw_min_mhz
                .is_some_and(|lo| c.cur_mhz <= 1.05 * lo && c.hw_max_mhz.unwrap_or(0.0) >= 1.5 * lo)
        });
        let busy = performance || generating;
        let governor = first.governor.clone().unwrap_or_else(|| "?".into());
        let mut params = vec![
            ("cpus", low.len().to_string()),
            ("of", read.len().to_string()),
            ("cur_mhz", num(cur, 0)),
            ("max_mhz", num(max, 0)),
            ("governor", governor),
        ];
        let (id, severity, variant) = if busy {
            params.push(("capped_pct", num(100.0 * (1.0 - cur / max), 0)));
            (
                "power.cpu-clock-low",
                Severity::Warning,
                at_floor.then_some("floor"),
            )
        } else {
            ("measure.clock-unloaded", Severity::Info, None)
        };
        out.push(Finding {
            variant,
            id,
            severity,
            params,
            count: Some(low.len() as u64),
            evidence: vec![EvidenceRef {
                input,
                lines: Some((first.line, first.line)),
                time_s: None,
                quote: Some(Quote::Input(first.text.clone())),
            }],
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

    fn reading(cur: f64, governor: &str) -> CpuClockReading {
        CpuClockReading {
            input: 0,
            line: 9,
            text: format!("current CPU frequency is {cur} MHz (asserted by call to hardware)."),
            cpu: Some(0),
            cur_mhz: cur,
            hw_min_mhz: Some(400.0),
            hw_max_mhz: Some(4700.0),
            governor: Some(governor.into()),
        }
    }

    fn ev(readings: &[CpuClockReading]) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("c.txt");
        ev.cpu_clocks = readings.to_vec();
        ev
    }

    #[test]
    fn the_floor_under_performance_is_a_sized_cap() {
        let f = apply(
            rule,
            &ev(&[reading(400.0, "performance"), reading(400.0, "performance")]),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].id, f[0].variant),
            ("power.cpu-clock-low", Some("floor"))
        );
        let pct = f[0].params.iter().find(|p| p.0 == "capped_pct").unwrap();
        assert_eq!(pct.1, "91");
    }

    #[test]
    fn an_idle_reading_only_says_what_would_decide_and_full_clock_is_silent() {
        let f = apply(rule, &ev(&[reading(800.0, "powersave")]));
        assert_eq!(
            (f[0].id, f[0].severity),
            ("measure.clock-unloaded", Severity::Info)
        );
        assert!(apply(rule, &ev(&[reading(4500.0, "performance")])).is_empty());
        assert!(apply(rule, &ev(&[])).is_empty());
    }
}

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
//! The same from the clocks `/proc/cpuinfo` and `lscpu` state (`grep MHz /proc/cpuinfo`),
//! against `cpuinfo_max_freq` or lscpu's maximum (wording `stated`), else against the base clock
//! in the CPU's name (wording `base`, a lower bound). They name no governor, so only a run in the
//! same analysis says the CPUs were busy; without one they say nothing.
//!
//! The size: decode on the CPU scales at most with the clock, so the median low CPU's clock
//! against the hardware maximum bounds what the cap costs.

use super::telemetry::num;
use super::{EvidenceRef, Finding, Severity};
use crate::evidence::sched::{ClockValue, TopologyHints};
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

/// Where a reading's maximum comes from, which decides the wording.
#[derive(Clone, Copy, PartialEq)]
enum Max {
    /// The tool's own hardware limits (`cpufreq-info`), with its governor.
    Tool,
    /// `cpuinfo_max_freq`, `lscpu`'s maximum: no governor is named.
    Stated,
    /// The base clock of the CPU's name: a cap against it is a lower bound.
    Base,
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let generating = !ev.runs.is_empty();
    let mut out = Vec::new();
    let mut inputs: Vec<InputId> = ev.cpu_clocks.iter().map(|c| c.input).collect();
    inputs.dedup();
    for input in inputs {
        let read: Vec<CpuClockReading> = ev
            .cpu_clocks
            .iter()
            .filter(|c| c.input == input)
            .cloned()
            .collect();
        out.extend(judge(input, &read, generating, Max::Tool));
    }
    let (stated, base) = from_hints(&ev.sched.hints);
    for (read, kind) in [(stated, Max::Stated), (base, Max::Base)] {
        let mut inputs: Vec<InputId> = read.iter().map(|c| c.input).collect();
        inputs.sort_unstable();
        inputs.dedup();
        for input in inputs {
            if out.iter().any(|f| f.evidence[0].input == input) {
                continue;
            }
            let mine: Vec<CpuClockReading> =
                read.iter().filter(|c| c.input == input).cloned().collect();
            out.extend(judge(input, &mine, generating, kind));
        }
    }
    out
}

/// The clocks `/proc/cpuinfo` and `lscpu` state, each with the best maximum the inputs give:
/// the CPU's own `cpuinfo_max_freq`, lscpu's `CPU max MHz`, the highest maximum of any CPU; else
/// the base clock of the CPU's name (the second list).
fn from_hints(h: &TopologyHints) -> (Vec<CpuClockReading>, Vec<CpuClockReading>) {
    let any_max = h.max_khz.values().max().map(|k| *k as f64 / 1000.0);
    let base = h.stated_base_mhz();
    let (mut stated, mut based) = (Vec::new(), Vec::new());
    for c in &h.clock_lines {
        let own = c
            .cpu
            .and_then(|cpu| h.max_khz.get(&cpu))
            .map(|k| *k as f64 / 1000.0);
        let max = own.or(h.stated_max_mhz).or(any_max);
        let (cur, max, list) = match (c.value, max) {
            (ClockValue::Mhz(m), Some(max)) => (m, max, &mut stated),
            (ClockValue::PctOfMax(p), Some(max)) => (p / 100.0 * max, max, &mut stated),
            (ClockValue::Mhz(m), None) => match base {
                Some(b) => (m, b, &mut based),
                None => continue,
            },
            (ClockValue::PctOfMax(_), None) => continue,
        };
        list.push(CpuClockReading {
            input: c.input,
            line: c.line,
            text: c.text.clone(),
            cpu: c.cpu,
            cur_mhz: cur,
            hw_min_mhz: None,
            hw_max_mhz: Some(max),
            governor: None,
        });
    }
    (stated, based)
}

fn judge(input: InputId, all: &[CpuClockReading], generating: bool, kind: Max) -> Option<Finding> {
    let read: Vec<&CpuClockReading> = all
        .iter()
        .filter(|c| c.hw_max_mhz.is_some_and(|m| m > 0.0))
        .collect();
    let low: Vec<&CpuClockReading> = read
        .iter()
        .copied()
        .filter(|c| c.hw_max_mhz.is_some_and(|m| c.cur_mhz < LOW_SHARE * m))
        .collect();
    let first = low.first()?;
    let max = first.hw_max_mhz.unwrap_or(0.0);
    let cur = median(low.iter().map(|c| c.cur_mhz).collect())?;
    let performance = low
        .iter()
        .any(|c| c.governor.as_deref() == Some("performance"));
    let at_floor = low.iter().all(|c| {
        c.hw_min_mhz
            .is_some_and(|lo| c.cur_mhz <= 1.05 * lo && c.hw_max_mhz.unwrap_or(0.0) >= 1.5 * lo)
    });
    let busy = performance || generating;
    // Without a governor or a run, a stated clock is as likely idle as capped, and an lscpu
    // pasted for its topology is no question about the clock: say nothing.
    if !busy && kind != Max::Tool {
        return None;
    }
    let mut params = vec![
        ("cpus", low.len().to_string()),
        ("of", read.len().to_string()),
        ("cur_mhz", num(cur, 0)),
        ("max_mhz", num(max, 0)),
    ];
    let wording = match kind {
        Max::Tool => {
            params.push((
                "governor",
                first.governor.clone().unwrap_or_else(|| "?".into()),
            ));
            None
        }
        Max::Stated => Some("stated"),
        Max::Base => Some("base"),
    };
    let (id, severity, variant) = if busy {
        params.push(("capped_pct", num(100.0 * (1.0 - cur / max), 0)));
        let variant = if kind == Max::Tool && at_floor {
            Some("floor")
        } else {
            wording
        };
        ("power.cpu-clock-low", Severity::Warning, variant)
    } else {
        ("measure.clock-unloaded", Severity::Info, wording)
    };
    Some(Finding {
        variant,
        id,
        severity,
        params,
        count: Some(low.len() as u64),
        evidence: vec![EvidenceRef::at_line(input, first.line, &first.text)],
        lines: Vec::new(),
        lines_truncated: false,
    })
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

    #[test]
    fn stated_clocks_take_the_best_maximum_and_the_base_clock_is_a_last_resort() {
        let mut e = ev(&[]);
        let h = &mut e.sched.hints;
        h.note_clock(0, 3, "cpu MHz : 400.0", Some(0), ClockValue::Mhz(400.0));
        h.note_clock(0, 4, "cpu MHz : 3300.0", Some(1), ClockValue::Mhz(3300.0));
        h.max_khz.insert(0, 3_400_000);
        h.max_khz.insert(1, 3_400_000);
        assert!(
            apply(rule, &e).is_empty(),
            "no run and no governor: idle and capped look the same"
        );
        e.runs.push(crate::evidence::Run::default());
        let f = apply(rule, &e);
        assert_eq!(
            (f[0].id, f[0].variant, f[0].count),
            ("power.cpu-clock-low", Some("stated"), Some(1))
        );
        // lscpu's share of the maximum, and only the CPU's name for a maximum.
        let mut e = ev(&[]);
        e.runs.push(crate::evidence::Run::default());
        let h = &mut e.sched.hints;
        h.cpu_desc = Some("Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz".into());
        h.note_clock(0, 5, "cpu MHz : 400.0", None, ClockValue::Mhz(400.0));
        h.note_clock(
            0,
            6,
            "CPU(s) scaling MHz: 9%",
            None,
            ClockValue::PctOfMax(9.0),
        );
        let f = apply(rule, &e);
        assert_eq!(
            (f[0].id, f[0].variant),
            ("power.cpu-clock-low", Some("base"))
        );
        assert_eq!(f[0].count, Some(1), "a share needs a real maximum");
        let pct = f[0].params.iter().find(|p| p.0 == "capped_pct").unwrap();
        assert_eq!(pct.1, "78");
    }
}

//! The clock lines users paste from `/proc/cpuinfo` and `lscpu`, usually with `grep MHz`:
//!
//! - `/proc/cpuinfo` on x86: `cpu MHz\t\t: 399.963`, one per processor (the kernel's
//!   `show_cpuinfo` prints the current clock there; Arm kernels print none);
//! - lscpu (util-linux) summary: `CPU MHz: 400.000` until 2.37, `CPU(s) scaling MHz: 9%` since
//!   (the current clock as a share of the maximum), beside `CPU max MHz: 4700.0000` and `CPU min
//!   MHz: 400.0000`.
//!
//! The maximum comes from lscpu, `cpuinfo_max_freq` or `lscpu -e`'s MAXMHZ; without one, a
//! `model name` like `Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz` states the base clock, which
//! bounds the cap from below ([`TopologyHints::stated_base_mhz`]).

use crate::evidence::sched::{ClockValue, TopologyHints};
use crate::evidence::InputId;

/// What one line states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MhzLine {
    /// The current clock of one CPU (cpuinfo) or of all (lscpu), MHz.
    Current(f64),
    /// lscpu's `CPU max MHz`.
    Max(f64),
    /// lscpu's `CPU(s) scaling MHz`: the current clock, percent of the maximum.
    ScalingPct(f64),
}

fn mhz(v: &str) -> Option<f64> {
    let x: f64 = v.trim().parse().ok()?;
    (x.is_finite() && x > 0.0 && x < 100_000.0).then_some(x)
}

/// The clock a line states, if it is one of these.
pub fn parse(trimmed: &str) -> Option<MhzLine> {
    let (k, v) = trimmed.split_once(':')?;
    match k.trim() {
        "cpu MHz" | "CPU MHz" => mhz(v).map(MhzLine::Current),
        "CPU max MHz" => mhz(v).map(MhzLine::Max),
        "CPU(s) scaling MHz" => {
            let p: f64 = v.trim().strip_suffix('%')?.trim().parse().ok()?;
            (p > 0.0 && p <= 200.0).then_some(MhzLine::ScalingPct(p))
        }
        _ => None,
    }
}

/// Reads a line into the hints when it states a clock; `true` when it did.
pub fn note(
    hints: &mut TopologyHints,
    input: InputId,
    line: u64,
    trimmed: &str,
    cpu: Option<u32>,
) -> bool {
    match parse(trimmed) {
        Some(MhzLine::Current(m)) => {
            hints.note_clock(input, line, trimmed, cpu, ClockValue::Mhz(m))
        }
        Some(MhzLine::ScalingPct(p)) => {
            hints.note_clock(input, line, trimmed, None, ClockValue::PctOfMax(p))
        }
        Some(MhzLine::Max(m)) => hints.stated_max_mhz = Some(m),
        None => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tools_line_is_read_and_others_are_not() {
        assert_eq!(
            parse("cpu MHz\t\t: 399.963"),
            Some(MhzLine::Current(399.963))
        );
        assert_eq!(
            parse("CPU MHz:             400.000"),
            Some(MhzLine::Current(400.0))
        );
        assert_eq!(
            parse("CPU max MHz:         4700.0000"),
            Some(MhzLine::Max(4700.0))
        );
        assert_eq!(
            parse("CPU(s) scaling MHz:  9%"),
            Some(MhzLine::ScalingPct(9.0))
        );
        assert_eq!(parse("CPU min MHz:         400.0000"), None);
        assert_eq!(parse("cpu MHz : n/a"), None);
        assert_eq!(parse("BogoMIPS: 3999.93"), None);
    }
}

//! Telemetry rules: what frequency, temperature, power, battery and tokens/s did over time.
//!
//! Every rule reads the same grid ([`crate::views::telemetry::Ctx`]), built once per report.
//! Times in findings are seconds from the input's origin.

pub mod ambient;
pub mod caps;
pub mod charging;
pub mod decay;
pub mod snapshot_caps;
pub mod stall;
pub mod stats;
pub mod thermal_wall;
pub mod usb_tie;

pub use crate::views::telemetry::{Ctx, Domain, Track};

/// A clock below this share of its domain's peak counts as capped (seed 002's rule of thumb).
pub const CAP_RATIO: f64 = 0.8;

/// Formats a number with at most `digits` decimals, dropping trailing zeros.
pub fn num(v: f64, digits: usize) -> String {
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `+3.5`, `−12`, `0`: a change with its sign.
pub fn signed(v: f64, digits: usize) -> String {
    let n = num(v.abs(), digits);
    if n == "0" {
        n
    } else if v < 0.0 {
        format!("−{n}")
    } else {
        format!("+{n}")
    }
}

/// Mean of `values` over cells `a..b` (clamped).
pub fn window_mean(values: &[f64], a: usize, b: usize) -> Option<f64> {
    let b = b.min(values.len());
    let a = a.min(b);
    stats::mean(values[a..b].iter().copied())
}

/// Classifies a throttle flag's name as thermal (`true`), power (`false`) or neither.
pub fn flag_is_thermal(reason: &str) -> Option<bool> {
    let l = reason.to_lowercase();
    // A "has occurred" flag (vcgencmd bits 16-19) stays set from the event to the next boot: it
    // says nothing about what holds the clock at a given moment.
    if l.contains("occurred") {
        return None;
    }
    if ["thermal", "temp", "tj", "prochot", "pressure", "corethr"]
        .iter()
        .any(|w| l.contains(w))
    {
        Some(true)
    } else if [
        "power", "pl1", "pl2", "rapl", "pkg_%", "ram_%", "voltage", "current", "edp", "capped",
        "brake",
    ]
    .iter()
    .any(|w| l.contains(w))
    {
        Some(false)
    } else {
        None
    }
}

/// Throttle point by sensor class: (°C, class key).
pub fn threshold(sensor: &str) -> Option<(f64, &'static str)> {
    let l = sensor.to_lowercase();
    if l.contains("ambient") || l.starts_with("amb") {
        return None;
    }
    Some(
        if [
            "skin", "xo-therm", "quiet", "mtktsap", "case", "surface", "shell", "back",
        ]
        .iter()
        .any(|w| l.contains(w))
        {
            (45.0, "skin")
        } else if ["batt", "btemp", "bat"].iter().any(|w| l.contains(w)) {
            (45.0, "battery")
        } else if l.contains("memory") || l.contains("hbm") {
            (95.0, "memory")
        } else if l == "soc" {
            // The one sensor of a single-board computer (vcgencmd, sbc-bench): their SoCs throttle
            // well below a phone or desktop die: a Raspberry Pi from 80 °C, an RK3399 from 70-75 °C,
            // an RK3588 at 85 °C.
            (80.0, "soc")
        } else {
            (90.0, "die")
        },
    )
}

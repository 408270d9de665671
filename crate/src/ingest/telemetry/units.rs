//! What a telemetry column measures and in which unit, from its header (`CPU1 Frequency [kHz]`,
//! `temperature.gpu`, `BTemp[℃]`, `cpu4_freq_khz`, `Battery Temperature [1/10 C]`), and how one
//! cell reads (`348.06 W`, `[N/A]`, `Yes`, `45,3`).

use crate::evidence::Quantity;

/// What a column holds, before its unit is known.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// The time stamp (or elapsed time) of the row.
    Time,
    /// A date-only column that a separate clock column completes (HWiNFO `Date`,`Time`).
    Date,
    /// A key that splits rows into separate series (nvidia-smi `index`, turbostat `CPU`).
    RowKey,
    Freq {
        cpu: Option<u32>,
        name: String,
    },
    Temp {
        sensor: String,
    },
    Power {
        rail: String,
    },
    Current {
        rail: String,
    },
    Voltage {
        rail: String,
    },
    BatteryLevel,
    Charging,
    Load {
        cpu: Option<u32>,
        name: String,
    },
    TokensPerSecond,
    Flag {
        reason: String,
    },
    Other {
        name: String,
        unit: String,
    },
    /// Empty header (a trailing delimiter) or a text-only column.
    Skip,
}

/// The multiplier from the source unit to the stored unit, once known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    Known(f64),
    /// Decided from the first value (sysfs kHz, milli-degC, ...).
    FromValue,
}

/// The text inside the last `[...]` or `(...)` of a header, lowercased.
pub fn bracketed(name: &str) -> Option<String> {
    let (open, close) = match (name.rfind('['), name.rfind('(')) {
        (Some(b), Some(p)) if p > b => ('(', ')'),
        (Some(_), _) => ('[', ']'),
        (None, Some(_)) => ('(', ')'),
        (None, None) => return None,
    };
    let start = name.rfind(open)? + open.len_utf8();
    let end = name[start..].find(close).map_or(name.len(), |e| start + e);
    Some(name[start..end].trim().to_lowercase())
}

/// The header without its unit brackets and quotes: the series' name.
pub fn bare_name(header: &str) -> String {
    let h = header.trim().trim_matches('"').trim();
    let cut = h
        .char_indices()
        .filter(|&(_, c)| c == '[' || c == '(')
        .map(|(i, _)| i)
        .find(|&i| {
            let close = if h[i..].starts_with('[') { ']' } else { ')' };
            let inner = h[i + 1..].split(close).next().unwrap_or("");
            unit_family(inner).is_some()
        })
        .unwrap_or(h.len());
    h[..cut]
        .trim()
        .trim_end_matches(['_', ':', '-'])
        .to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Freq,
    Temp,
    Power,
    Current,
    Voltage,
    Percent,
    YesNo,
    TimeUnit,
    Other,
}

/// Unit text -> family and factor to the stored unit (MHz, °C, mW, mA, mV, %).
fn unit_family(unit: &str) -> Option<(Family, f64)> {
    let u = unit.trim().to_lowercase().replace(' ', "");
    Some(match u.as_str() {
        "hz" => (Family::Freq, 1e-6),
        "khz" => (Family::Freq, 1e-3),
        "mhz" => (Family::Freq, 1.0),
        "ghz" => (Family::Freq, 1e3),
        "°c" | "℃" | "c" | "degc" | "deg" | "celsius" | "�c" | "'c" => (Family::Temp, 1.0),
        "m°c" | "mc" | "mdegc" | "millidegc" => (Family::Temp, 1e-3),
        "1/10c" | "0.1c" | "dc" | "1/10°c" => (Family::Temp, 0.1),
        "w" => (Family::Power, 1e3),
        "mw" => (Family::Power, 1.0),
        "uw" | "µw" => (Family::Power, 1e-3),
        "a" => (Family::Current, 1e3),
        "ma" => (Family::Current, 1.0),
        "ua" | "µa" => (Family::Current, 1e-3),
        "v" => (Family::Voltage, 1e3),
        "mv" => (Family::Voltage, 1.0),
        "uv" | "µv" => (Family::Voltage, 1e-3),
        "%" => (Family::Percent, 1.0),
        "yes/no" => (Family::YesNo, 1.0),
        "ms" | "s" | "ns" | "us" | "sec" => (Family::TimeUnit, 1.0),
        "mb" | "kb" | "gb" | "b" | "fps" | "rpm" | "x" | "mb/s" | "kb/s" | "t" => {
            (Family::Other, 1.0)
        }
        _ => return None,
    })
}

/// A unit written as a suffix of a snake_case name: `cpu0_freq_khz`, `temp_mc`, `vbat_mv`.
fn suffix_unit(lower: &str) -> Option<(Family, f64)> {
    let last = lower.rsplit(['_', ' ', '.']).next()?;
    match last {
        "khz" | "mhz" | "ghz" | "hz" | "mw" | "uw" | "ma" | "ua" | "mv" | "uv" | "mc" | "degc" => {
            unit_family(last)
        }
        _ => None,
    }
}

/// A CPU number in a column name: `cpu3`, `CPU 3`, `core_3`, `CPUClock3`, `Core 3 Clock`.
fn cpu_index(lower: &str) -> Option<u32> {
    let bytes = lower.as_bytes();
    for key in ["cpuclock", "cpuusage", "cpu", "core"] {
        let mut from = 0;
        while let Some(pos) = lower[from..].find(key) {
            let mut i = from + pos + key.len();
            while i < bytes.len() && matches!(bytes[i], b' ' | b'_' | b'-' | b'#') {
                i += 1;
            }
            let digits: String = lower[i..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !digits.is_empty() && digits.len() <= 3 {
                return digits.parse().ok();
            }
            from += pos + key.len();
        }
    }
    None
}

fn has_any(s: &str, words: &[&str]) -> bool {
    words.iter().any(|w| s.contains(w))
}

/// `time`, `timestamp`, `time_s`, `epoch_ms`, `elapsed`, `TimeSec`, `Num` (PerfDog's row
/// counter), ... after non-alphanumerics are removed.
fn is_time_name(compact: &str) -> bool {
    const STEMS: &[&str] = &[
        "time",
        "timestamp",
        "datetime",
        "localtime",
        "elapsed",
        "elapsedtime",
        "epoch",
        "unixtime",
        "uptime",
        "timeofdayseconds",
    ];
    const TAILS: &[&str] = &["", "s", "sec", "secs", "seconds", "ms", "us", "ns", "utc"];
    matches!(compact, "t" | "ts" | "sec" | "seconds" | "num")
        || STEMS.iter().any(|stem| {
            compact
                .strip_prefix(stem)
                .is_some_and(|tail| TAILS.contains(&tail))
        })
}

/// Classifies one header cell. The first time-like column is chosen by the caller.
pub fn classify(header: &str) -> (Kind, Scale) {
    let raw = header.trim().trim_matches('"').trim();
    let lower = raw.to_lowercase();
    if lower.is_empty() {
        return (Kind::Skip, Scale::Known(1.0));
    }
    let name = bare_name(raw);
    let lname = name.to_lowercase();
    let unit = bracketed(&lower)
        .and_then(|u| unit_family(&u))
        .or_else(|| suffix_unit(&lname));
    let family = unit.map(|u| u.0);
    let scale = unit.map_or(Scale::FromValue, |u| Scale::Known(u.1));
    let compact: String = lname
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '/' || *c == '%')
        .collect();

    if family == Some(Family::TimeUnit) || is_time_name(&compact) || lname == "date time" {
        // `Time [ms]` and friends are time only when the name says time.
        if family != Some(Family::TimeUnit)
            || has_any(&lname, &["time", "sec", "elapsed", "ts", "epoch"])
        {
            return (Kind::Time, Scale::Known(1.0));
        }
    }
    if compact == "date" {
        return (Kind::Date, Scale::Known(1.0));
    }
    if matches!(
        compact.as_str(),
        "index" | "pcibusid" | "gpu" | "gpuindex" | "cpu" | "package" | "core"
    ) && family.is_none()
    {
        return (Kind::RowKey, Scale::Known(1.0));
    }
    if has_any(
        &compact,
        &[
            "tok/s",
            "tokens/s",
            "tokenspers",
            "tokenspersec",
            "toks",
            "tokpers",
        ],
    ) || matches!(compact.as_str(), "tps" | "decodetps" | "tokps")
    {
        return (Kind::TokensPerSecond, Scale::Known(1.0));
    }
    if family == Some(Family::YesNo)
        || has_any(
            &lname,
            &[
                "throttl",
                "slowdown",
                "power_cap",
                "limit exceeded",
                "event_reasons",
                "prochot",
                "thermal event",
                "corethr",
                "pkg_%",
                "ram_%",
            ],
        )
    {
        return (Kind::Flag { reason: name }, Scale::Known(1.0));
    }
    if has_any(
        &lname,
        &[
            "charging",
            "plugged",
            "ac powered",
            "usb powered",
            "power source",
            "powered",
            "is_charging",
        ],
    ) {
        return (Kind::Charging, Scale::Known(1.0));
    }
    if (lname.contains("battery") && has_any(&lname, &["level", "capacity", "%", "percent"]))
        || compact == "batterylevel"
        || compact == "level"
        || compact == "batt%"
    {
        return (Kind::BatteryLevel, Scale::Known(1.0));
    }
    let is_mem_clock = has_any(
        &lname,
        &["mem", "emc", "ddr", "dram", "uncore", "ring", "tsc"],
    );
    if family == Some(Family::Freq)
        || has_any(&lname, &["freq", "clock", "clk", "bzy_mhz", "avg_mhz"])
    {
        let cpu = if is_mem_clock || lname.contains("gpu") {
            None
        } else {
            cpu_index(&lname)
        };
        return (Kind::Freq { cpu, name }, scale);
    }
    if family == Some(Family::Temp)
        || has_any(&lname, &["temp", "tmp", "therm", "tj", "°c", "℃"])
        || matches!(compact.as_str(), "btemp" | "ctemp" | "gtemp")
    {
        return (Kind::Temp { sensor: name }, scale);
    }
    if family == Some(Family::Power) || has_any(&lname, &["power", "watt"]) {
        let scale = match scale {
            Scale::FromValue if lname.contains("watt") || lname.ends_with(".draw") => {
                Scale::Known(1e3)
            }
            s => s,
        };
        return (Kind::Power { rail: name }, scale);
    }
    if family == Some(Family::Current) || has_any(&lname, &["current", "ibat"]) {
        return (Kind::Current { rail: name }, scale);
    }
    if family == Some(Family::Voltage) || has_any(&lname, &["volt", "vbat", "vcore"]) {
        return (Kind::Voltage { rail: name }, scale);
    }
    // Percent columns are load only when they say so: HWiNFO's disk "Read Activity [%]" is not.
    if has_any(&lname, &["util", "usage", "load", "busy", "residency"])
        || (family == Some(Family::Percent) && has_any(&lname, &["cpu", "gpu", "npu", "core"]))
    {
        let cpu = if lname.contains("gpu") {
            None
        } else {
            cpu_index(&lname)
        };
        return (Kind::Load { cpu, name }, Scale::Known(1.0));
    }
    let unit = bracketed(&lower).unwrap_or_default();
    (Kind::Other { name, unit }, Scale::Known(1.0))
}

/// Converts to the stored unit. Dividing by the exact inverse keeps `2419200 kHz` at exactly
/// `2419.2 MHz` (multiplying by `1e-3` would not).
pub fn apply(v: f64, factor: f64) -> f64 {
    if factor < 1.0 {
        v / (1.0 / factor).round()
    } else {
        v * factor
    }
}

/// Decides a scale from the first value when the header named no unit.
pub fn scale_from_value(kind: &Kind, v: f64) -> f64 {
    let a = v.abs();
    match kind {
        Kind::Freq { .. } => {
            if a >= 2e7 {
                1e-6 // Hz (Adreno devfreq, measure_clock)
            } else if a >= 2e4 {
                1e-3 // kHz (sysfs cpufreq)
            } else if a > 0.0 && a < 10.0 {
                1e3 // GHz
            } else {
                1.0
            }
        }
        Kind::Temp { .. } => {
            if a >= 1000.0 {
                1e-3 // millidegree (sysfs thermal_zone)
            } else if a >= 150.0 {
                0.1 // tenths (dumpsys battery, Trepn)
            } else {
                1.0
            }
        }
        Kind::Current { .. } if a >= 20_000.0 => 1e-3, // µA (power_supply current_now)
        Kind::Voltage { .. } if a >= 100_000.0 => 1e-3, // µV
        Kind::Voltage { .. } if a > 0.0 && a < 30.0 => 1e3, // V
        _ => 1.0,
    }
}

/// The value of one cell, and the unit written inside it if any. `None` for empty, `[N/A]`,
/// and text that is not a number or a boolean.
pub fn cell(text: &str) -> Option<(f64, Option<f64>)> {
    let t = text.trim();
    if let Ok(v) = t.parse::<f64>() {
        return v.is_finite().then_some((v, None));
    }
    let t = t.trim_matches('"').trim();
    if t.is_empty() {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "yes" | "true" | "active" | "on" | "y" | "charging" => return Some((1.0, None)),
        "no" | "false" | "not active" | "off" | "n" | "discharging" | "not charging" => {
            return Some((0.0, None))
        }
        _ => {}
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok().map(|v| (v as f64, None));
    }
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e' | 'E')))
        .map_or(t.len(), |(i, _)| i);
    let (num, unit) = t.split_at(end);
    let num = num.trim();
    let v: f64 = match num.parse() {
        Ok(v) => v,
        // A locale decimal comma: `45,3`.
        Err(_) if num.matches(',').count() == 1 && !num.contains('.') => {
            num.replace(',', ".").parse().ok()?
        }
        Err(_) => return None,
    };
    if !v.is_finite() {
        return None;
    }
    let unit = unit.trim();
    if unit.is_empty() {
        return Some((v, None));
    }
    let factor = unit_family(unit).map(|u| u.1);
    factor.map(|f| (v, Some(f)))
}

/// The stored quantity for a classified column (with the CPU number shifted for 1-based
/// exporters such as Trepn).
pub fn quantity(kind: &Kind, cpu_base: u32) -> Option<Quantity> {
    Some(match kind {
        Kind::Freq { cpu: Some(c), .. } => Quantity::CpuFreq {
            cpu: c.saturating_sub(cpu_base),
        },
        Kind::Freq { cpu: None, name } => Quantity::ClockFreq { name: name.clone() },
        Kind::Temp { sensor } => Quantity::Temperature {
            sensor: sensor.clone(),
        },
        Kind::Power { rail } => Quantity::Power { rail: rail.clone() },
        Kind::Current { rail } => Quantity::Current { rail: rail.clone() },
        Kind::Voltage { rail } => Quantity::Voltage { rail: rail.clone() },
        Kind::BatteryLevel => Quantity::BatteryLevel,
        Kind::Charging => Quantity::Charging,
        Kind::Load { cpu: Some(c), .. } => Quantity::CpuLoad {
            cpu: c.saturating_sub(cpu_base),
        },
        Kind::Load { cpu: None, name } => Quantity::Utilization { name: name.clone() },
        Kind::TokensPerSecond => Quantity::TokensPerSecond,
        Kind::Flag { reason } => Quantity::ThrottleFlag {
            reason: reason.clone(),
        },
        Kind::Other { name, unit } => Quantity::Other {
            name: name.clone(),
            unit: unit.clone(),
        },
        Kind::Time | Kind::Date | Kind::RowKey | Kind::Skip => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(h: &str) -> Option<Quantity> {
        quantity(&classify(h).0, 0)
    }

    #[test]
    fn headers() {
        assert_eq!(
            classify("CPU1 Frequency [kHz]").0,
            Kind::Freq {
                cpu: Some(1),
                name: "CPU1 Frequency".into()
            }
        );
        assert_eq!(classify("CPU1 Frequency [kHz]").1, Scale::Known(1e-3));
        assert_eq!(q("CPUClock3[MHz]"), Some(Quantity::CpuFreq { cpu: 3 }));
        assert_eq!(
            q("\"Core 2 Clock [MHz]\""),
            Some(Quantity::CpuFreq { cpu: 2 })
        );
        assert_eq!(q("cpu4_freq_khz"), Some(Quantity::CpuFreq { cpu: 4 }));
        assert_eq!(classify("cpu4_freq_khz").1, Scale::Known(1e-3));
        assert_eq!(
            q(" clocks.current.sm [MHz]"),
            Some(Quantity::ClockFreq {
                name: "clocks.current.sm".into()
            })
        );
        assert_eq!(
            q(" temperature.gpu"),
            Some(Quantity::Temperature {
                sensor: "temperature.gpu".into()
            })
        );
        assert_eq!(
            classify("Battery Temperature [1/10 C]").1,
            Scale::Known(0.1)
        );
        assert_eq!(
            q("BTemp[℃]"),
            Some(Quantity::Temperature {
                sensor: "BTemp".into()
            })
        );
        assert_eq!(classify(" power.draw [W]").1, Scale::Known(1e3));
        assert_eq!(
            q("Current[mA]"),
            Some(Quantity::Current {
                rail: "Current".into()
            })
        );
        assert_eq!(q("BatteryLevel[%]"), Some(Quantity::BatteryLevel));
        assert_eq!(
            q(" utilization.gpu [%]"),
            Some(Quantity::Utilization {
                name: "utilization.gpu".into()
            })
        );
        assert_eq!(q("CPUUsage2[%]"), Some(Quantity::CpuLoad { cpu: 2 }));
        assert_eq!(
            q("\"Core Thermal Throttling (avg) [Yes/No]\""),
            Some(Quantity::ThrottleFlag {
                reason: "Core Thermal Throttling (avg)".into()
            })
        );
        assert_eq!(
            q(" clocks_throttle_reasons.sw_power_cap"),
            Some(Quantity::ThrottleFlag {
                reason: "clocks_throttle_reasons.sw_power_cap".into()
            })
        );
        assert_eq!(
            q("PL2 Power Limit [W]"),
            Some(Quantity::Power {
                rail: "PL2 Power Limit".into()
            })
        );
        assert_eq!(q("tok/s"), Some(Quantity::TokensPerSecond));
        assert_eq!(
            q("TotalCPU[%]"),
            Some(Quantity::Utilization {
                name: "TotalCPU".into()
            })
        );
        assert_eq!(
            q("Read Activity [%]"),
            Some(Quantity::Other {
                name: "Read Activity".into(),
                unit: "%".into()
            })
        );
        assert_eq!(classify("Time  [ms]").0, Kind::Time);
        assert_eq!(classify("timestamp").0, Kind::Time);
        assert_eq!(classify("Date").0, Kind::Date);
        assert_eq!(classify("").0, Kind::Skip);
    }

    #[test]
    fn cells() {
        assert_eq!(cell(" 348.06 W"), Some((348.06, Some(1e3))));
        assert_eq!(cell("840 MHz"), Some((840.0, Some(1.0))));
        assert_eq!(cell(" [N/A]"), None);
        assert_eq!(cell("Yes"), Some((1.0, None)));
        assert_eq!(cell("Not Active"), Some((0.0, None)));
        assert_eq!(cell("45,3"), Some((45.3, None)));
        assert_eq!(cell("100 %"), Some((100.0, Some(1.0))));
        assert_eq!(cell("hello"), None);
    }

    #[test]
    fn value_scales() {
        let f = Kind::Freq {
            cpu: Some(0),
            name: String::new(),
        };
        assert_eq!(scale_from_value(&f, 1_804_800.0), 1e-3);
        assert_eq!(scale_from_value(&f, 1804.0), 1.0);
        let t = Kind::Temp {
            sensor: String::new(),
        };
        assert_eq!(scale_from_value(&t, 45_000.0), 1e-3);
        assert_eq!(scale_from_value(&t, 326.0), 0.1);
        assert_eq!(scale_from_value(&t, 45.5), 1.0);
    }
}

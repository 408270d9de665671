//! Time stamps as telemetry exporters write them: epoch seconds / ms / µs / ns, ISO 8601,
//! `YYYY/MM/DD HH:MM:SS.fff` (nvidia-smi), day-first `DD.MM.YYYY` (HWiNFO), `MM-DD-YYYY`
//! (tegrastats), bare `H:M:S.ms` without zero padding, and relative seconds.

/// A parsed time: seconds, and whether they count from the Unix epoch (else from an arbitrary
/// origin such as midnight or the start of the recording).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stamp {
    pub s: f64,
    pub absolute: bool,
}

/// What the column header says about a numeric time column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumericHint {
    Unknown,
    Seconds,
    Millis,
    Micros,
    Nanos,
}

impl NumericHint {
    pub fn from_header(name: &str) -> NumericHint {
        let n = name.to_ascii_lowercase();
        let unit = super::units::bracketed(&n).unwrap_or_default();
        let has =
            |w: &str| unit == w || n.ends_with(&format!("_{w}")) || n.ends_with(&format!("({w})"));
        if has("ns") {
            NumericHint::Nanos
        } else if has("us") || has("µs") {
            NumericHint::Micros
        } else if has("ms") || n.contains("millis") {
            NumericHint::Millis
        } else if has("s") || has("sec") || n.contains("timesec") || n.contains("seconds") {
            NumericHint::Seconds
        } else {
            NumericHint::Unknown
        }
    }
}

/// Parses a numeric time cell. Without a hint, the magnitude decides: epoch ns, µs, ms or s
/// (after 2001), else relative seconds.
pub fn numeric(v: f64, hint: NumericHint) -> Stamp {
    let (s, absolute_floor) = match hint {
        NumericHint::Nanos => (v / 1e9, true),
        NumericHint::Micros => (v / 1e6, true),
        NumericHint::Millis => (v / 1e3, true),
        NumericHint::Seconds => (v, true),
        NumericHint::Unknown => {
            let a = v.abs();
            let s = if a >= 1e17 {
                v / 1e9
            } else if a >= 1e14 {
                v / 1e6
            } else if a >= 1e11 {
                v / 1e3
            } else {
                v
            };
            (s, true)
        }
    };
    Stamp {
        s,
        // After 2001-09-09 as epoch seconds: anything smaller is a relative clock.
        absolute: absolute_floor && s >= 1e9,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> Option<i64> {
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=2200).contains(&y) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `H:M:S[.frac]` without zero padding requirements; returns seconds of the day.
pub fn clock(text: &str) -> Option<f64> {
    let mut parts = text.trim().split(':');
    let h: f64 = parts.next()?.trim().parse().ok()?;
    let m: f64 = parts.next()?.trim().parse().ok()?;
    let s: f64 = match parts.next() {
        Some(p) => p.trim().replace(',', ".").parse().ok()?,
        None => 0.0,
    };
    if parts.next().is_some()
        || !(0.0..48.0).contains(&h)
        || !(0.0..60.0).contains(&m)
        || !(0.0..61.0).contains(&s)
    {
        return None;
    }
    Some(h * 3600.0 + m * 60.0 + s)
}

/// A date in one of `YYYY-MM-DD`, `YYYY/MM/DD`, `DD.MM.YYYY`, `MM-DD-YYYY`, `DD/MM/YYYY`
/// (day-first when the first number cannot be a month). Returns days since the epoch.
pub fn date(text: &str) -> Option<i64> {
    let t = text.trim();
    // `nvidia-smi dmon -o D` writes YYYYMMDD; a bare number never gets here (it parses as one).
    if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        let (y, m, d) = (
            t[..4].parse().ok()?,
            t[4..6].parse().ok()?,
            t[6..].parse().ok()?,
        );
        return if (1970..=2100).contains(&y) {
            days_from_civil(y, m, d)
        } else {
            None
        };
    }
    let sep = t.chars().find(|c| matches!(c, '-' | '/' | '.'))?;
    let nums: Vec<i64> = t
        .split(sep)
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    let [a, b, c] = nums[..] else { return None };
    if a > 31 {
        return days_from_civil(a, b, c);
    }
    match sep {
        // HWiNFO writes d.m.y; dots are day-first across Europe.
        '.' => days_from_civil(c, b, a),
        // tegrastats writes MM-DD-YYYY; a first number above 12 must be the day.
        _ if a > 12 => days_from_civil(c, b, a),
        '-' => days_from_civil(c, a, b),
        _ => days_from_civil(c, a, b).or_else(|| days_from_civil(c, b, a)),
    }
}

/// The C library's `ctime` form that nvidia-smi and `dmesg -T` print: `Tue Dec  1 10:00:00 2026`
/// (weekday optional, day space-padded). Local time as printed: absolute, zone unknown.
pub fn ctime(text: &str) -> Option<Stamp> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.len() == 5 {
        words.remove(0);
    }
    let [mon, day, clock_part, year] = words[..] else {
        return None;
    };
    let mon = mon.get(..3)?.to_ascii_lowercase();
    let m = MONTHS.iter().position(|x| *x == mon)? as i64 + 1;
    let days = days_from_civil(year.parse().ok()?, m, day.parse().ok()?)?;
    Some(Stamp {
        s: days as f64 * 86_400.0 + clock(clock_part)?,
        absolute: true,
    })
}

/// A whole time stamp in one cell: a number, ISO 8601 (`T` or space, optional zone),
/// `date time`, or a bare clock.
pub fn parse(text: &str, hint: NumericHint) -> Option<Stamp> {
    let t = text.trim().trim_matches('"').trim();
    if t.is_empty() {
        return None;
    }
    if let Ok(v) = t.parse::<f64>() {
        return v.is_finite().then(|| numeric(v, hint));
    }
    let (date_part, rest) = match t.find(['T', ' ']) {
        Some(i) => (&t[..i], t[i + 1..].trim()),
        None if t.contains(':') => ("", t),
        None => (t, ""),
    };
    if date_part.is_empty() {
        return clock(rest).map(|s| Stamp { s, absolute: false });
    }
    let days = date(date_part)?;
    let (clock_part, offset) = split_zone(rest);
    let secs = if clock_part.is_empty() {
        0.0
    } else {
        clock(clock_part)?
    };
    Some(Stamp {
        s: days as f64 * 86_400.0 + secs - offset,
        absolute: true,
    })
}

/// Splits a trailing `Z`, `+hh:mm`, `-hhmm` or ` UTC` zone from a clock; returns the offset in s.
fn split_zone(text: &str) -> (&str, f64) {
    let t = text.trim();
    if let Some(c) = t.strip_suffix('Z').or_else(|| t.strip_suffix("UTC")) {
        return (c.trim(), 0.0);
    }
    if let Some(i) = t.rfind(['+', '-']) {
        let zone = &t[i + 1..].replace(':', "");
        if i > 0 && zone.len() == 4 && zone.bytes().all(|b| b.is_ascii_digit()) {
            let h: f64 = zone[..2].parse().unwrap_or(0.0);
            let m: f64 = zone[2..].parse().unwrap_or(0.0);
            let sign = if t.as_bytes().get(i) == Some(&b'-') {
                -1.0
            } else {
                1.0
            };
            return (t[..i].trim(), sign * (h * 3600.0 + m * 60.0));
        }
    }
    (t, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let nv = parse("2023/08/25 06:10:28.052", NumericHint::Unknown).unwrap();
        assert!(nv.absolute);
        assert!((nv.s - 1_692_943_828.052).abs() < 1e-3, "{}", nv.s);
        let iso = parse("2023-08-25T06:10:28.052+02:00", NumericHint::Unknown).unwrap();
        assert!((iso.s - (1_692_943_828.052 - 7200.0)).abs() < 1e-3);
        let hw = parse("20.12.2022 9:48:22.384", NumericHint::Unknown).unwrap();
        assert!((hw.s - 1_671_529_702.384).abs() < 1e-3, "{}", hw.s);
        let tegra = parse("03-14-2024 10:00:01", NumericHint::Unknown).unwrap();
        assert!((tegra.s - 1_710_410_401.0).abs() < 1e-3, "{}", tegra.s);
        assert_eq!(
            parse("9:48:22.384", NumericHint::Unknown),
            Some(Stamp {
                s: 35_302.384,
                absolute: false
            })
        );
        assert_eq!(
            parse("12.5", NumericHint::Unknown),
            Some(Stamp {
                s: 12.5,
                absolute: false
            })
        );
        let ms = parse("1692943828052", NumericHint::Unknown).unwrap();
        assert!(ms.absolute && (ms.s - 1_692_943_828.052).abs() < 1e-3);
        assert_eq!(parse("1500", NumericHint::Millis).map(|s| s.s), Some(1.5));
        assert_eq!(parse("n/a", NumericHint::Unknown), None);
        assert_eq!(parse("2023-13-45", NumericHint::Unknown), None);
        let dmon = parse("20240501 10:00:00", NumericHint::Unknown).unwrap();
        assert!(
            dmon.absolute && (dmon.s - 1_714_557_600.0).abs() < 1e-3,
            "{}",
            dmon.s
        );
        assert_eq!(parse("20241399 10:00:00", NumericHint::Unknown), None);
        assert_eq!(parse("12345678 10:00:00", NumericHint::Unknown), None);
    }
}

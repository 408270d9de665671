//! `sbc-bench` and `armbianmonitor -m` monitor output, alone or inside a full sbc-bench results
//! file.
//!
//! The monitor prints a header, then one row per sample (sbc-bench repeats the header every 15
//! rows on a terminal, and starts each "System health while running X:" section with one):
//!
//! ```text
//! Time       big.LITTLE   load %cpu %sys %usr %nice %io %irq   Temp   DC(V)
//! 16:52:50: 2400/1800MHz  3.51 100%   0%  99%   0%   0%   0%  71.3°C   5.12
//! ```
//!
//! - the clock columns are `CPU` (one cluster, policy0), `big.LITTLE` (big first), `cpu0/cpu4/cpu6`
//!   (the first CPU of each cluster), `fake/real` on a Raspberry Pi (cpufreq's claim, then the
//!   firmware's measured ARM clock), `CPU n/a`, and armbianmonitor's `CPU_cl0/CPU_cl1` (cpu0 and
//!   cpu4) with `MHz` as its own word; `%4s` padding can split `1608/ 600MHz` in two;
//! - after `%irq` come the optional columns: `Temp` / armbianmonitor's `Tcpu`, `VCore` (V),
//!   `PMIC` (watts on a Pi 5, a temperature in armbianmonitor), `DC(V)` / `DC-IN` (the supply),
//!   `C.St.` (cooling device state `cur/max`) and Netio `mW` columns;
//! - rows are stamped with the wall clock (`HH:MM:SS:` in sbc-bench, `HH:MM:SS` in
//!   armbianmonitor), so a run past midnight wraps: a stamp more than 12 h before the previous one
//!   is the next day.
//!
//! A results file opens with `sbc-bench v0.9.65 <board> (Tue, 19 Mar 2024 19:04:10 +0100)`: that
//! date makes the stamps absolute, read as the local time they were printed in (as `dmesg -T`
//! and journalctl print theirs), so the offset is not applied. Its "System health now:" row is a
//! copy of a later row and is not read again. Its throttling notes ("Throttling occured",
//! "Frequency capping (under-voltage) occured") become the same "has occurred" flags that
//! `vcgencmd get_throttled` gives, at the time of the last row.

use super::time;
use super::Sink;
use crate::evidence::{Quantity, SkippedLines};

const SOURCE: &str = "sbc-bench monitor";

/// Whether a line is this tool's own: its header, a results file's first line, or a section title.
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    is_header(t) || t.starts_with("sbc-bench v") || t.starts_with("System health while")
}

/// Whether the first lines are sbc-bench's or armbianmonitor's: a results file's first line, or a
/// monitor header with a row under it. Read before traces and snapshots: a results file also
/// holds `lscpu` and `free` output.
pub fn looks_like(lines: &[&str]) -> bool {
    let body = lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    if body
        .clone()
        .next()
        .is_some_and(|l| l.starts_with("sbc-bench v"))
    {
        return true;
    }
    let mut header = false;
    for l in body {
        // Results of early versions open with lsb_release and hold the monitor past the
        // sniffer's window, but name sbc-bench's own steps first.
        if l.starts_with("Executing tinymembench") || l.starts_with("Checking cpufreq OPP") {
            return true;
        }
        if is_header(l) {
            header = true;
        } else if header && looks_like_row(l) {
            return true;
        }
    }
    false
}

fn is_header(t: &str) -> bool {
    t.starts_with("Time") && t.contains(" load ") && t.contains("%cpu") && t.contains("%irq")
}

/// What a clock column holds.
#[derive(Debug, Clone, PartialEq)]
enum Clock {
    Cpu(u32),
    Named(&'static str),
    /// cpufreq's figure on a Raspberry Pi: what the kernel asked for, not what the firmware ran.
    Reported,
}

/// What an extra column (after `%irq`) holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Extra {
    Temp,
    /// `PMIC`: watts on a Pi 5 (sbc-bench), a temperature in armbianmonitor.
    Pmic,
    CoreVolt,
    SupplyVolt,
    Cooling,
    NetioPower,
    Unknown,
}

#[derive(Debug, Clone, Default)]
struct Columns {
    clocks: Vec<Clock>,
    percents: usize,
    extras: Vec<Extra>,
}

fn columns(header: &str) -> Option<Columns> {
    let words: Vec<&str> = header.split_whitespace().collect();
    let load = words.iter().position(|w| *w == "load")?;
    let clock_words = &words[1..load];
    let clocks = match clock_words {
        ["CPU"] => vec![Clock::Cpu(0)],
        ["big.LITTLE"] => vec![Clock::Named("big"), Clock::Named("LITTLE")],
        ["fake/real"] => vec![Clock::Reported, Clock::Named("arm")],
        ["CPU", "n/a"] | [] => Vec::new(),
        [w] => w
            .split('/')
            .map(|c| {
                let c = c.to_ascii_lowercase();
                // armbianmonitor's two clusters are cpu0 and cpu4.
                match c.as_str() {
                    "cpu_cl0" => Some(Clock::Cpu(0)),
                    "cpu_cl1" => Some(Clock::Cpu(4)),
                    _ => c.strip_prefix("cpu")?.parse().ok().map(Clock::Cpu),
                }
            })
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    let rest = &words[load + 1..];
    let percents = rest.iter().take_while(|w| w.starts_with('%')).count();
    let extras = rest[percents..]
        .iter()
        .map(|w| match *w {
            // Early sbc-bench versions called the Pi's temperature column `CPU`.
            "Temp" | "Tcpu" | "CPU" => Extra::Temp,
            "PMIC" => Extra::Pmic,
            "VCore" | "Vcore" => Extra::CoreVolt,
            "DC(V)" | "DC-IN" => Extra::SupplyVolt,
            "C.St." => Extra::Cooling,
            "mW" => Extra::NetioPower,
            _ => Extra::Unknown,
        })
        .collect();
    Some(Columns {
        clocks,
        percents,
        extras,
    })
}

/// A parsed row: seconds of the day, clocks (None for `n/a`), %cpu, and the extras as written.
struct Row {
    clock_s: f64,
    mhz: Vec<Option<f64>>,
    cpu_pct: Option<f64>,
    extras: Vec<String>,
}

fn row(text: &str, cols: &Columns) -> Option<Row> {
    let t = text.trim();
    let (stamp, rest) = t.split_once(char::is_whitespace)?;
    let stamp = stamp.strip_suffix(':').unwrap_or(stamp);
    if stamp.len() != 8 || stamp.matches(':').count() != 2 {
        return None;
    }
    let clock_s = time::clock(stamp)?;
    let rest = rest.trim_start();
    // The clocks run up to the first `MHz` (armbianmonitor puts a space before it); without a
    // clock column the row has `---` or `n/aMHz`, or nothing.
    let (mhz, rest) = match rest.find("MHz") {
        Some(i) if !cols.clocks.is_empty() || rest[..i].trim() == "n/a" => {
            let group = rest[..i].trim();
            let mhz: Vec<Option<f64>> = group
                .split('/')
                .map(|v| v.trim().parse::<f64>().ok())
                .collect();
            (mhz, &rest[i + 3..])
        }
        _ => match rest.strip_prefix("---") {
            Some(r) => (Vec::new(), r),
            None => (Vec::new(), rest),
        },
    };
    if !cols.clocks.is_empty() && mhz.len() != cols.clocks.len() {
        return None;
    }
    let mut words = rest.split_whitespace().peekable();
    // The load average; empty where /proc/loadavg cannot be read (Android).
    if !words.peek()?.ends_with('%') {
        words.next()?.parse::<f64>().ok()?;
    }
    let mut pcts = Vec::with_capacity(cols.percents);
    for _ in 0..cols.percents {
        pcts.push(
            words
                .next()?
                .strip_suffix('%')?
                .trim()
                .parse::<f64>()
                .ok()?,
        );
    }
    // A unit printed apart from its number (`45.5 °C`) joins it.
    let mut extras: Vec<String> = Vec::new();
    for w in words {
        match extras.last_mut() {
            Some(prev) if matches!(w, "°C" | "C" | "V" | "W") => prev.push_str(w),
            _ => extras.push(w.to_string()),
        }
    }
    Some(Row {
        clock_s,
        mhz,
        cpu_pct: pcts.first().copied(),
        extras,
    })
}

/// A value and its unit word: `71.3°C` → (71.3, "°C"), `5.12V` → (5.12, "V"), `5.12` → (5.12, "").
fn value_unit(v: &str) -> Option<(f64, String)> {
    let v: String = v.split_whitespace().collect();
    let end = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(v.len());
    let x = v[..end].parse::<f64>().ok()?;
    Some((x, v[end..].to_string()))
}

#[derive(Default)]
pub struct SbcBench {
    cols: Option<Columns>,
    /// The results file's start, as Unix seconds of its local date and time.
    start: Option<f64>,
    /// Days added for midnight wraps, and the previous row's time (with those days).
    wrap_s: f64,
    last: Option<f64>,
    /// Seconds of the day of the first row, the zero of a recording without a date.
    first_clock: Option<f64>,
    /// Inside a "System health now:" block: a copy of a later row.
    snapshot: bool,
    /// The results are from an x86 machine (iostat's `_x86_64_`): its sensor is the CPU
    /// package, not a single-board computer's SoC.
    x86: bool,
    /// The `get_throttled` bits in binary come on the next line.
    health_next: bool,
    /// A results file: every line is sbc-bench's, none is another tool's.
    pub whole_file: bool,
    pub skipped: SkippedLines,
}

/// `sbc-bench v0.9.65 Raspberry Pi 5 Model B Rev 1.0 (Tue, 19 Mar 2024 19:04:10 +0100)`: the
/// start as Unix seconds of the local date and time. Early versions wrote `sbc-bench v0.4 -- Sun, 29 Jul 2018 18:33:39 +0000`.
fn results_start(line: &str) -> Option<f64> {
    let inner = match line.rsplit_once('(') {
        Some((_, r)) => r.strip_suffix(')')?,
        None => line.split_once(" -- ")?.1,
    };
    let inner = inner.split_once(", ").map_or(inner, |x| x.1);
    let w: Vec<&str> = inner.split_whitespace().collect();
    let [day, mon, year, clock, ..] = w[..] else {
        return None;
    };
    time::ctime(&format!("{mon} {day} {clock} {year}")).map(|s| s.s)
}

impl SbcBench {
    /// Reads one line; `false` when it is not the monitor's (the caller may read it otherwise).
    pub fn line(&mut self, number: u64, text: &str, sink: &mut Sink) -> bool {
        let t = text.trim();
        if t.starts_with("sbc-bench v") {
            self.whole_file = number <= 3;
            self.start = self.start.or(results_start(t));
            return true;
        }
        if t.contains("_x86_64_") {
            self.x86 = true;
        }
        if t.ends_with("for thermal or undervoltage issues:") {
            self.health_next = true;
            return true;
        }
        if std::mem::take(&mut self.health_next) && self.health(t, sink) {
            return true;
        }
        if t.contains("System health now") {
            self.snapshot = true;
            return true;
        }
        if t.starts_with("System health while") {
            self.snapshot = false;
            return true;
        }
        if is_header(t) {
            if !self.snapshot {
                self.cols = columns(t);
                if self.cols.is_none() {
                    self.skipped.add(number, text);
                }
            }
            return true;
        }
        if self.snapshot {
            if looks_like_row(t) {
                return true;
            }
            self.snapshot = false;
        }
        if self.notes(t, sink) {
            return true;
        }
        if let Some(cols) = self.cols.clone() {
            if looks_like_row(t) {
                match row(t, &cols) {
                    Some(r) => self.push(&cols, &r, number, text, sink),
                    None => self.skipped.add(number, text),
                }
                return true;
            }
        }
        self.whole_file
    }

    /// `vcgencmd get_throttled` in binary, as sbc-bench prints it under "Querying ThreadX /
    /// firmware on RPi for thermal or undervoltage issues:". Newer versions cut the first four
    /// digits, so the string may lose its high bits but never shifts: a bit is read only when
    /// the string reaches it.
    fn health(&mut self, t: &str, sink: &mut Sink) -> bool {
        if t.is_empty() || t.len() > 32 || !t.bytes().all(|b| b == b'0' || b == b'1') {
            return false;
        }
        let Ok(bits) = u32::from_str_radix(t, 2) else {
            return false;
        };
        let at = self.last.unwrap_or(0.0);
        for (bit, reason) in super::THROTTLED_BITS {
            if (*bit as usize) < t.len() {
                let on = f64::from(u8::from(bits & (1 << bit) != 0));
                sink.push(
                    Quantity::ThrottleFlag {
                        reason: (*reason).into(),
                    },
                    SOURCE,
                    at,
                    on,
                );
            }
        }
        true
    }

    /// The throttling notes sbc-bench prints after a run.
    fn notes(&mut self, t: &str, sink: &mut Sink) -> bool {
        // The `vcgencmd get_throttled` legend (`||||_ Under-voltage has occurred ...`) names
        // every bit, set or not: it is no claim.
        if t.starts_with('|') {
            return true;
        }
        let l = t.trim_start_matches(['*', ' ']).to_ascii_lowercase();
        let occurred = l.contains("occured") || l.contains("occurred");
        if !occurred && !l.starts_with("throttling statistics") {
            return false;
        }
        let at = self.last.unwrap_or(0.0);
        let flag = |sink: &mut Sink, reason: &str| {
            sink.push(
                Quantity::ThrottleFlag {
                    reason: reason.into(),
                },
                SOURCE,
                at,
                1.0,
            )
        };
        // "might have occured" and "No downclocking ... occured" claim nothing.
        if l.contains("might have") || l.starts_with("no ") {
            return true;
        }
        if l.contains("frequency capping") {
            flag(sink, "arm frequency capping has occurred");
        }
        if l.contains("under-voltage") || l.contains("undervoltage") {
            flag(sink, "under-voltage has occurred");
        }
        if l.contains("throttling") && !l.starts_with("throttling statistics") {
            flag(sink, "throttling has occurred");
        }
        true
    }

    fn push(&mut self, cols: &Columns, r: &Row, number: u64, text: &str, sink: &mut Sink) {
        let day_s = r.clock_s;
        let t = match self.start {
            Some(start) => {
                // The row's time on the start's day, then wrapped past every midnight since.
                let midnight = (start / 86_400.0).floor() * 86_400.0;
                let mut t = midnight + day_s + self.wrap_s;
                let prev = self.last.unwrap_or(start);
                while t < prev - 43_200.0 {
                    self.wrap_s += 86_400.0;
                    t += 86_400.0;
                }
                sink.set_absolute(true);
                t
            }
            None => {
                let first = *self.first_clock.get_or_insert(day_s);
                let mut t = day_s - first + self.wrap_s;
                let prev = self.last.unwrap_or(0.0);
                while t < prev - 43_200.0 {
                    self.wrap_s += 86_400.0;
                    t += 86_400.0;
                }
                sink.set_absolute(false);
                t
            }
        };
        if self.last.is_some_and(|p| t < p) {
            // Out of order (a row copied from later on): a series' time never goes back.
            self.skipped.add(number, text);
            return;
        }
        self.last = Some(t);
        for (clock, mhz) in cols.clocks.iter().zip(&r.mhz) {
            let Some(v) = *mhz else { continue };
            let q = match clock {
                Clock::Cpu(cpu) => Quantity::CpuFreq { cpu: *cpu },
                Clock::Named(name) => Quantity::ClockFreq {
                    name: (*name).into(),
                },
                Clock::Reported => Quantity::Other {
                    name: "cpufreq (reported)".into(),
                    unit: "MHz".into(),
                },
            };
            sink.push(q, SOURCE, t, v);
        }
        if let Some(p) = r.cpu_pct {
            sink.push(Quantity::Utilization { name: "CPU".into() }, SOURCE, t, p);
        }
        let mut kinds = cols.extras.iter();
        for raw in &r.extras {
            let Some((v, unit)) = value_unit(raw) else {
                // `n/a°C`, a column this tool does not fill: the slot is still used.
                kinds.next();
                continue;
            };
            let temp = unit.ends_with('C');
            let (kind, q) = loop {
                let Some(&kind) = kinds.next() else {
                    return;
                };
                // A column is taken by the next value whose unit fits it; a column tokscope does
                // not know takes its value with it, so the ones after it stay aligned.
                let q = match (kind, unit.as_str()) {
                    (Extra::Unknown, _) => break (kind, None),
                    (Extra::Temp, _) if temp => Some(Quantity::Temperature {
                        sensor: if self.x86 { "CPU" } else { "SoC" }.into(),
                    }),
                    (Extra::Pmic, _) if temp => Some(Quantity::Temperature {
                        sensor: "PMIC".into(),
                    }),
                    (Extra::Pmic, "W") => Some(Quantity::Power {
                        rail: "PMIC".into(),
                    }),
                    (Extra::CoreVolt, "V") => Some(Quantity::Voltage {
                        rail: "core".into(),
                    }),
                    (Extra::SupplyVolt, "V" | "") => Some(Quantity::Voltage {
                        rail: "DC in".into(),
                    }),
                    (Extra::NetioPower, "") => Some(Quantity::Power {
                        rail: "Netio".into(),
                    }),
                    (Extra::Cooling, _) => Some(Quantity::Other {
                        name: "cooling state".into(),
                        unit: String::new(),
                    }),
                    _ => continue,
                };
                break (kind, q);
            };
            let Some(q) = q else { continue };
            let v = match kind {
                Extra::CoreVolt | Extra::SupplyVolt => v * 1e3,
                Extra::Pmic if !temp => v * 1e3,
                _ => v,
            };
            sink.push(q, SOURCE, t, v);
        }
    }
}

/// A monitor row starts with a `HH:MM:SS` stamp (sbc-bench adds a colon).
fn looks_like_row(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 9
        && b[..8].iter().enumerate().all(|(i, c)| {
            if i % 3 == 2 {
                *c == b':'
            } else {
                c.is_ascii_digit()
            }
        })
        && (b[8] == b':' || b[8] == b' ')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Evidence, Series};

    fn read(text: &str) -> (Evidence, SbcBench) {
        let mut ev = Evidence::default();
        let id = ev.add_input("m.txt");
        let mut p = SbcBench::default();
        let mut sink = Sink::default();
        for (i, l) in text.lines().enumerate() {
            if !l.trim().is_empty() {
                p.line(i as u64 + 1, l, &mut sink);
            }
        }
        sink.finish(id, &mut ev);
        (ev, p)
    }

    fn series<'a>(ev: &'a Evidence, q: &Quantity) -> &'a Series {
        ev.series
            .iter()
            .find(|s| &s.quantity == q)
            .unwrap_or_else(|| panic!("no {q:?} in {:?}", ev.series))
    }

    #[test]
    fn big_little_rows_with_split_padding_and_supply_voltage() {
        let text = "Time       big.LITTLE   load %cpu %sys %usr %nice %io %irq   Temp   DC(V)\n16:52:50: 2400/1800MHz  3.51 100%   0%  99%   0%   0%   0%  71.3°C   5.12\n16:53:00: 1608/ 600MHz  3.60  97%   1%  96%   0%   0%   0%  85.0°C   4.98\n";
        let (ev, p) = read(text);
        let big = series(&ev, &Quantity::ClockFreq { name: "big".into() });
        assert_eq!(big.points, vec![(0.0, 2400.0), (10.0, 1608.0)]);
        assert!(!big.absolute);
        let little = series(
            &ev,
            &Quantity::ClockFreq {
                name: "LITTLE".into(),
            },
        );
        assert_eq!(little.points[1].1, 600.0);
        let temp = series(
            &ev,
            &Quantity::Temperature {
                sensor: "SoC".into(),
            },
        );
        assert_eq!(temp.points[1].1, 85.0);
        let dc = series(
            &ev,
            &Quantity::Voltage {
                rail: "DC in".into(),
            },
        );
        assert_eq!(dc.points[1].1, 4980.0);
        assert_eq!(p.skipped.count, 0);
    }

    #[test]
    fn cluster_columns_name_their_cpus_and_midnight_wraps() {
        let text = "Time       cpu0/cpu4/cpu6    load %cpu %sys %usr %nice %io %irq   Temp\n23:59:50: 1800/2400/2400MHz  7.9 100%   0%  99%   0%   0%   0%  80.4°C\n\nTime       cpu0/cpu4/cpu6    load %cpu %sys %usr %nice %io %irq   Temp\n00:00:00: 1800/2256/2400MHz  8.0 100%   0%  99%   0%   0%   0%  81.3°C\n00:00:10: 1800/2016/2208MHz  8.0 100%   0%  99%   0%   0%   0%  82.2°C\n";
        let (ev, _) = read(text);
        let c4 = series(&ev, &Quantity::CpuFreq { cpu: 4 });
        assert_eq!(
            c4.points,
            vec![(0.0, 2400.0), (10.0, 2256.0), (20.0, 2016.0)]
        );
        assert_eq!(series(&ev, &Quantity::CpuFreq { cpu: 6 }).points.len(), 3);
        assert_eq!(series(&ev, &Quantity::CpuFreq { cpu: 0 }).points.len(), 3);
    }

    #[test]
    fn results_file_gives_absolute_times_and_skips_the_copied_row() {
        let text = "sbc-bench v0.9.65 Raspberry Pi 5 Model B Rev 1.0 (Tue, 19 Mar 2024 23:58:10 +0100)\n\nTesting maximum cpufreq again, still under full load. System health now:\n\nTime        fake/real   load %cpu %sys %usr %nice %io %irq   Temp    VCore    PMIC   DC(V)\n00:05:45: 2400/2400MHz  4.01 100%   0%  99%   0%   0%   0%  50.7°C  0.8684V   5.8W   5.14V\n\nChecking cpufreq OPP (Cortex-A76):\n\nSystem health while running tinymembench:\n\nTime        fake/real   load %cpu %sys %usr %nice %io %irq   Temp    VCore    PMIC   DC(V)\n23:59:56: 2400/2400MHz  0.53  18%   0%  18%   0%   0%   0%  27.6°C  0.8690V   4.0W   5.14V\n00:00:07: 2400/1500MHz  0.60  25%   0%  25%   0%   0%   0%  28.1°C  0.8693V   4.0W   4.71V\n\n  * Frequency capping (under-voltage) occured\n";
        let (ev, p) = read(text);
        let arm = series(&ev, &Quantity::ClockFreq { name: "arm".into() });
        assert!(arm.absolute);
        // 2024-03-19 23:59:56 local, then 11 s later across midnight.
        assert_eq!(arm.points[0].0, 1_710_892_796.0);
        assert_eq!(arm.points[1], (1_710_892_807.0, 1500.0));
        let dc = series(
            &ev,
            &Quantity::Voltage {
                rail: "DC in".into(),
            },
        );
        assert_eq!(dc.points[1].1, 4710.0);
        let pmic = series(
            &ev,
            &Quantity::Power {
                rail: "PMIC".into(),
            },
        );
        assert_eq!(pmic.points[0].1, 4000.0);
        assert_eq!(
            series(
                &ev,
                &Quantity::Voltage {
                    rail: "core".into()
                }
            )
            .points[0]
                .1,
            869.0
        );
        let capped = series(
            &ev,
            &Quantity::ThrottleFlag {
                reason: "under-voltage has occurred".into(),
            },
        );
        assert_eq!(capped.points, vec![(1_710_892_807.0, 1.0)]);
        assert!(p.whole_file);
        assert_eq!(p.skipped.count, 0);
    }

    #[test]
    fn early_versions_banner_and_temperature_column() {
        assert_eq!(
            results_start("sbc-bench v0.4 -- Sun, 29 Jul 2018 18:33:39 +0000"),
            Some(1_532_889_219.0)
        );
        let text = "Time        fake/real   load %cpu %sys %usr %nice %io %irq    CPU   VCore\n16:56:39: 1400/1400MHz  0.28  14%   0%  12%   0%   0%   0%  60.1°C  1.3250V\n";
        let (ev, _) = read(text);
        let t = series(
            &ev,
            &Quantity::Temperature {
                sensor: "SoC".into(),
            },
        );
        assert_eq!(t.points, vec![(0.0, 60.1)]);
        // A results file whose monitor comes after 200 lines of system details is still one.
        let mut lines = vec!["Distributor ID:\tRaspbian"; 300];
        lines.push("Time        CPU    load %cpu %sys %usr %nice %io %irq   Temp");
        lines.push("01:12:53: 1785MHz  0.59  30%   5%  15%   0%   9%   0%  41.5°C");
        assert!(looks_like(&lines));
        assert!(!looks_like(&lines[..301]));
        lines[40] = "Executing tinymembench on a little core:";
        assert!(looks_like(&lines[..301]));
    }

    #[test]
    fn the_firmware_bits_are_read_where_the_string_reaches_them() {
        let rows = "Time        fake/real   load %cpu %sys %usr %nice %io %irq   Temp   VCore\n18:54:48: 1400/ 600MHz  3.83  88%   2%  85%   0%   0%   0%  64.5°C  1.2V\n";
        let flag = |ev: &Evidence, r: &str| {
            ev.series
                .iter()
                .find(|s| s.quantity == Quantity::ThrottleFlag { reason: r.into() })
                .map(|s| s.points.clone())
        };
        let (ev, _) = read(&format!("{rows}Querying ThreadX on RPi for thermal or undervoltage issues:\n\n1010000000000000101\n|||             |||_ under-voltage\n"));
        assert_eq!(flag(&ev, "under-voltage"), Some(vec![(0.0, 1.0)]));
        assert_eq!(
            flag(&ev, "under-voltage has occurred"),
            Some(vec![(0.0, 1.0)])
        );
        assert_eq!(flag(&ev, "arm frequency capped"), Some(vec![(0.0, 0.0)]));
        // Four digits cut off the front: bits 16 and up are no longer there to read.
        let (ev, _) = read(&format!("{rows}Querying firmware on RPi for thermal or undervoltage issues:\n\n000000000000101\n"));
        assert_eq!(flag(&ev, "under-voltage"), Some(vec![(0.0, 1.0)]));
        assert_eq!(flag(&ev, "under-voltage has occurred"), None);
    }

    #[test]
    fn armbianmonitor_rows_and_damage_is_counted() {
        let text = "Stop monitoring using [ctrl]-[c]\nTime    CPU_cl0/CPU_cl1  load %cpu %sys %usr %nice %io %irq   Tcpu   PMIC   DC-IN  C.St.\n10:00:00  1200/1800 MHz  1.00  25%   0%  24%   0%   0%   0%  45.5 °C  38.0 °C   5.10V  0/4\n10:00:05  1200/1416 MHz  1.20  99%   0%  98%   0%   0%   0%  70.1 °C  40.0 °C   5.02V  2/4\n10:00:10  12x0/1416 MHz  1.20  99%   0%  98%   0%   0%   0%  70.1 °C\n10:00:15  1200/1416 MHz\n";
        let (ev, p) = read(text);
        assert_eq!(
            series(&ev, &Quantity::CpuFreq { cpu: 4 }).points,
            vec![(0.0, 1800.0), (5.0, 1416.0), (10.0, 1416.0)]
        );
        assert_eq!(
            series(
                &ev,
                &Quantity::Temperature {
                    sensor: "PMIC".into()
                }
            )
            .points[1]
                .1,
            40.0
        );
        assert_eq!(
            series(
                &ev,
                &Quantity::Other {
                    name: "cooling state".into(),
                    unit: String::new()
                }
            )
            .points[1]
                .1,
            2.0
        );
        // cpu0 is unreadable in one row, and the last row is cut short.
        assert_eq!(series(&ev, &Quantity::CpuFreq { cpu: 0 }).points.len(), 2);
        assert_eq!(p.skipped.count, 1);
    }

    #[test]
    fn android_rows_without_load_and_x86_results() {
        let text = "Time        CPU    load %cpu %sys %usr %nice %io %irq   Temp\n13:22:54:  864MHz        20%  10%   8%   0%   0%   0%      °C\n";
        let (ev, p) = read(text);
        assert_eq!(
            series(&ev, &Quantity::CpuFreq { cpu: 0 }).points,
            vec![(0.0, 864.0)]
        );
        assert_eq!(p.skipped.count, 0);
        let x86 = "Linux 6.8.0-49-generic (nuc) \t12/01/24 \t_x86_64_\t(16 CPU)\nTime        CPU    load %cpu %sys %usr %nice %io %irq   Temp\n16:37:02: 4800MHz  1.00  20%  10%   8%   0%   0%   0%  45.0°C\n";
        let (ev, _) = read(x86);
        series(
            &ev,
            &Quantity::Temperature {
                sensor: "CPU".into(),
            },
        );
    }

    #[test]
    fn an_unknown_column_keeps_the_others_aligned() {
        let text = "Time        CPU    load %cpu %sys %usr %nice %io %irq   Temp   Fan   DC(V)\n10:00:00: 1800MHz  1.00  25%   0%  24%   0%   0%   0%  45.5°C  1200  5.10\n";
        let (ev, _) = read(text);
        let dc = series(
            &ev,
            &Quantity::Voltage {
                rail: "DC in".into(),
            },
        );
        assert_eq!(dc.points, vec![(0.0, 5100.0)]);
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "Time load %cpu %irq\n00:00:00: MHz",
            "Time       cpu0/cpuX    load %cpu %sys %usr %nice %io %irq\n12:00:00: 1/2MHz 1 1% 1% 1% 1% 1% 1%",
            "Time        CPU    load %cpu %sys %usr %nice %io %irq   Temp\n99:99:99: 1MHz 1 1% 1% 1% 1% 1% 1% 1°C\n12:00:00: 1e999MHz nan 1% 1% 1% 1% 1% 1% °C°C",
            "sbc-bench v (\nsbc-bench v0 x (Tue, 99 Foo 2024 25:00:00 +0100)\nSystem health now:\n",
            "Time      CPU n/a    load %cpu %sys %usr %nice %io %irq   Temp\n12:00:00:  n/aMHz    1.00  25%   0%  24%   0%   0%   0%  n/a°C",
        ] {
            read(t);
        }
    }
}

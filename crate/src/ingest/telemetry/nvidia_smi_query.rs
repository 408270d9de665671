//! `nvidia-smi -q` (and `-q -d PERFORMANCE,POWER,TEMPERATURE,CLOCK`, and its `-l N` loops): the
//! human-readable query report, one indented `Key : Value` block per GPU under a
//! `==============NVSMI LOG==============` banner and a `Timestamp`.
//!
//! Read here, per GPU (named `GPU 0`, `GPU 1`, ... in the order the report lists them):
//! - the clock event reasons (`Clocks Event Reasons` since driver 535, `Clocks Throttle Reasons`
//!   before): each reason `Active` / `Not Active`, as a throttle flag named as printed;
//! - `Power Draw` (or `Instantaneous Power Draw`) and the limit the driver applies: `Enforced
//!   Power Limit` before driver 535, `Current Power Limit` since (`Requested`, `Default`, `Min`
//!   and `Max` only feed it);
//! - current and maximum SM and memory clocks, and GPU utilization (it tells busy from idle);
//! - `GPU Current Temp` and `Memory Current Temp`. The other temperature lines are thresholds
//!   (`GPU Slowdown Temp`), a target, or, on newer drivers, margins to a limit (`GPU T.Limit Temp`
//!   is how many degrees below the limit the GPU is), so none of them is read as a temperature.
//!
//! A field this reader uses whose value is neither a number, `Active` / `Not Active` nor `N/A`
//! is counted as skipped, with its line.

use super::time;
use super::{SampleClock, Sink};
use crate::evidence::{Quantity, SkippedLines};

/// The banner that starts each report (and each sample of a `-l` loop).
pub const BANNER: &str = "NVSMI LOG";

/// Whether a line belongs to an `nvidia-smi -q` report (used by the sniffer).
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    t.contains("==NVSMI LOG==")
        || t == "Clocks Event Reasons"
        || t == "Clocks Throttle Reasons"
        || (t.starts_with("Attached GPUs") && t.contains(':'))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    Other,
    Reasons,
    Temperature,
    Power,
    Clocks,
    MaxClocks,
    Utilization,
}

fn section_of(header: &str) -> Section {
    match header {
        "Clocks Event Reasons" | "Clocks Throttle Reasons" => Section::Reasons,
        "Temperature" => Section::Temperature,
        "Power Readings" | "GPU Power Readings" => Section::Power,
        "Clocks" => Section::Clocks,
        "Max Clocks" => Section::MaxClocks,
        "Utilization" => Section::Utilization,
        _ => Section::Other,
    }
}

#[derive(Default)]
pub struct NvidiaSmiQuery {
    gpus: u32,
    /// Section headers by indent, innermost last.
    stack: Vec<(usize, Section)>,
    /// A power limit was read for the current GPU block.
    limit_seen: bool,
    pub skipped: SkippedLines,
    pub lines_used: u64,
}

enum Value {
    Number(f64),
    Absent,
    Bad,
}

/// A field's value: `Active` / `Not Active`, or a number with its unit (`349.12 W`, `66 C`).
fn value(v: &str) -> Value {
    let v = v.trim();
    let l = v.to_ascii_lowercase();
    if v.is_empty()
        || l.contains("n/a")
        || l.starts_with("unknown")
        || l.starts_with("not supported")
        || l.starts_with("requested functionality")
        || l == "none"
    {
        return Value::Absent;
    }
    match l.as_str() {
        "active" => return Value::Number(1.0),
        "not active" => return Value::Number(0.0),
        _ => {}
    }
    let (num, unit) = v.split_once(' ').unwrap_or((v, ""));
    match num.parse::<f64>() {
        Ok(x) if x.is_finite() && unit.chars().all(|c| c.is_ascii_alphabetic() || c == '%') => {
            Value::Number(x)
        }
        _ => Value::Bad,
    }
}

impl NvidiaSmiQuery {
    /// The GPU the current block is about, as series names call it.
    fn gpu(&self) -> String {
        format!("GPU {}", self.gpus.saturating_sub(1))
    }

    /// Reads one line; `false` when it is not part of an `nvidia-smi -q` report.
    pub fn line(
        &mut self,
        number: u64,
        text: &str,
        clock: &mut SampleClock,
        sink: &mut Sink,
    ) -> bool {
        let indent = text.len() - text.trim_start().len();
        let t = text.trim();
        if t.contains(BANNER) && t.starts_with('=') {
            clock.next_sample(None);
            self.gpus = 0;
            self.stack.clear();
            self.limit_seen = false;
            self.lines_used += 1;
            return true;
        }
        while self.stack.last().is_some_and(|&(i, _)| i >= indent) {
            self.stack.pop();
        }
        let Some((key, v)) = t
            .split_once(" : ")
            .or_else(|| t.strip_suffix(" :").map(|k| (k, "")))
        else {
            // A header: a GPU's bus id at the left margin, or a section.
            if indent == 0 && t.starts_with("GPU ") && t.contains(':') {
                self.gpus += 1;
                self.stack.clear();
                self.limit_seen = false;
            } else if !t.is_empty() {
                self.stack.push((indent, section_of(t)));
            }
            self.lines_used += 1;
            return true;
        };
        let key = key.trim();
        self.lines_used += 1;
        if indent == 0 {
            if key == "Timestamp" {
                if let Some(st) = time::ctime(v) {
                    clock.set(st.s);
                    sink.set_absolute(true);
                }
            }
            return true;
        }
        let Some(&(_, section)) = self.stack.last() else {
            return true;
        };
        let gpu = self.gpu();
        let quantity = match (section, key) {
            (Section::Reasons, _) => Quantity::ThrottleFlag {
                reason: format!("{gpu} {key}"),
            },
            (Section::Temperature, "GPU Current Temp") => Quantity::Temperature {
                sensor: gpu.clone(),
            },
            (Section::Temperature, "Memory Current Temp") => Quantity::Temperature {
                sensor: format!("{gpu} memory"),
            },
            (Section::Power, "Power Draw" | "Instantaneous Power Draw") => Quantity::Power {
                rail: format!("{gpu} power draw"),
            },
            // The limit in force: `Enforced` before driver 535, `Current` since.
            (Section::Power, "Enforced Power Limit" | "Current Power Limit")
                if !self.limit_seen =>
            {
                self.limit_seen = true;
                Quantity::Power {
                    rail: format!("{gpu} power limit"),
                }
            }
            (Section::Clocks, "SM" | "Memory") => Quantity::ClockFreq {
                name: format!("{gpu} {key} clock"),
            },
            (Section::MaxClocks, "SM" | "Memory") => Quantity::Other {
                name: format!("{gpu} {key} clock max"),
                unit: "MHz".into(),
            },
            (Section::Utilization, "Gpu" | "GPU") => Quantity::Utilization { name: gpu.clone() },
            _ => return true,
        };
        let x = match value(v) {
            Value::Number(x) => x,
            Value::Absent => return true,
            Value::Bad => {
                self.skipped.add(number, text);
                return true;
            }
        };
        // Reasons read as 1 / 0; watts to the store's milliwatts.
        let x = match &quantity {
            Quantity::ThrottleFlag { .. } if !(x == 0.0 || x == 1.0) => {
                self.skipped.add(number, text);
                return true;
            }
            Quantity::Power { .. } => x * 1e3,
            _ => x,
        };
        let source = format!("nvidia-smi -q {key}");
        let at = clock.at(&format!("{gpu} {section:?} {key}"));
        sink.push(quantity, &source, at, x);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Evidence;

    const BLOCK: &str = "==============NVSMI LOG==============

Timestamp                                 : Tue Dec  1 10:00:00 2026
Driver Version                            : 550.54.15
CUDA Version                              : 12.4

Attached GPUs                             : 1
GPU 00000000:01:00.0
    Product Name                          : NVIDIA GeForce RTX 3090
    Performance State                     : P2
    Clocks Event Reasons
        Idle                              : Not Active
        Applications Clocks Setting       : Not Active
        SW Power Cap                      : Active
        HW Slowdown                       : Not Active
            HW Thermal Slowdown           : Not Active
            HW Power Brake Slowdown       : Not Active
        Sync Boost                        : Not Active
        SW Thermal Slowdown               : Not Active
        Display Clock Setting             : Not Active
    Utilization
        Gpu                               : 100 %
        Memory                            : 71 %
    Temperature
        GPU Current Temp                  : 66 C
        GPU T.Limit Temp                  : 17 C
        GPU Shutdown T.Limit Temp         : -7 C
        Memory Current Temp               : N/A
    GPU Power Readings
        Power Draw                        : 349.12 W
        Current Power Limit               : 350.00 W
        Enforced Power Limit              : 350.00 W
        Max Power Limit                   : 400.00 W
    Clocks
        Graphics                          : 1515 MHz
        SM                                : 1515 MHz
        Memory                            : 9501 MHz
    Max Clocks
        Graphics                          : 2100 MHz
        SM                                : 2100 MHz
        Memory                            : 9751 MHz
";

    fn read(text: &str) -> (Evidence, NvidiaSmiQuery) {
        let mut q = NvidiaSmiQuery::default();
        let mut clock = SampleClock::new(1.0);
        let mut sink = Sink::default();
        for (i, l) in text.lines().enumerate() {
            q.line(i as u64 + 1, l, &mut clock, &mut sink);
        }
        let mut ev = Evidence::default();
        let id = ev.add_input("q.txt");
        sink.finish(id, &mut ev);
        (ev, q)
    }

    fn values(ev: &Evidence, q: &Quantity) -> Vec<f64> {
        ev.series
            .iter()
            .filter(|s| &s.quantity == q)
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .collect()
    }

    #[test]
    fn reasons_power_clocks_and_only_real_temperatures() {
        let (ev, q) = read(BLOCK);
        let flag = |r: &str| Quantity::ThrottleFlag {
            reason: format!("GPU 0 {r}"),
        };
        assert_eq!(values(&ev, &flag("SW Power Cap")), vec![1.0]);
        assert_eq!(values(&ev, &flag("HW Thermal Slowdown")), vec![0.0]);
        assert_eq!(
            values(
                &ev,
                &Quantity::Power {
                    rail: "GPU 0 power limit".into()
                }
            ),
            vec![350_000.0]
        );
        assert_eq!(
            values(
                &ev,
                &Quantity::ClockFreq {
                    name: "GPU 0 SM clock".into()
                }
            ),
            vec![1515.0]
        );
        assert_eq!(
            values(
                &ev,
                &Quantity::Other {
                    name: "GPU 0 SM clock max".into(),
                    unit: "MHz".into()
                }
            ),
            vec![2100.0]
        );
        // The T.Limit lines are margins, not readings; N/A is absent, not zero.
        let temps: Vec<&str> = ev
            .series
            .iter()
            .filter_map(|s| match &s.quantity {
                Quantity::Temperature { sensor } => Some(sensor.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(temps, vec!["GPU 0"]);
        assert!(q.skipped.is_empty());
        assert!(ev.series.iter().all(|s| s.absolute));
    }

    #[test]
    fn loops_give_one_sample_per_block_and_damaged_values_are_skipped() {
        let second = BLOCK
            .replace("10:00:00", "10:00:05")
            .replace(
                "SW Power Cap                      : Active",
                "SW Power Cap                      : Acti",
            )
            .replace("349.12 W", "3x9 W");
        let (ev, q) = read(&format!("{BLOCK}{second}"));
        let sm = ev
            .series
            .iter()
            .find(|s| {
                s.quantity
                    == Quantity::ClockFreq {
                        name: "GPU 0 SM clock".into(),
                    }
            })
            .unwrap();
        assert_eq!(sm.points.len(), 2);
        assert!((sm.points[1].0 - sm.points[0].0 - 5.0).abs() < 1e-9);
        assert_eq!(q.skipped.count, 2, "{:?}", q.skipped.first);
        assert!(q.skipped.first[0].1.contains(": Acti"));
        assert!(q.skipped.first[1].1.contains("3x9 W"));
        // The damaged reason is left out, not read as "Not Active".
        let flag = Quantity::ThrottleFlag {
            reason: "GPU 0 SW Power Cap".into(),
        };
        assert_eq!(values(&ev, &flag), vec![1.0]);
    }

    #[test]
    fn older_drivers_and_two_gpus() {
        let old = "==============NVSMI LOG==============\n\nTimestamp : Mon Mar  4 09:12:01 2019\nAttached GPUs : 2\nGPU 00000000:3B:00.0\n    Clocks Throttle Reasons\n        Idle : Active\n        SW Power Cap : Not Active\n    Power Readings\n        Power Management : Supported\n        Power Draw : 25.11 W\n        Power Limit : 250.00 W\n        Enforced Power Limit : 250.00 W\nGPU 00000000:D8:00.0\n    Clocks Throttle Reasons\n        Idle : Not Active\n        SW Power Cap : Active\n";
        let (ev, _) = read(old);
        let flag = |g: u32| Quantity::ThrottleFlag {
            reason: format!("GPU {g} SW Power Cap"),
        };
        assert_eq!(values(&ev, &flag(0)), vec![0.0]);
        assert_eq!(values(&ev, &flag(1)), vec![1.0]);
    }

    #[test]
    fn garbage_and_cut_reports_never_panic() {
        let junk = "\u{0}\u{feff}  : \n    Clocks Event Reasons\n :\n GPU\n        SW Power Cap : 1e309 W\n        Power Draw : -inf W\nTimestamp : Feb 30 99:99:99 20260\n";
        for cut in (0..BLOCK.len()).step_by(7) {
            if BLOCK.is_char_boundary(cut) {
                read(&format!("{}{junk}{}", &BLOCK[..cut], &BLOCK[cut..]));
            }
        }
    }
}

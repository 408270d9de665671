//! `cpufreq-info` (cpufrequtils) and its successor `cpupower frequency-info` (the kernel's
//! tools/power/cpupower), which kept the layout and changed a few words. Per CPU:
//!
//! ```text
//! analyzing CPU 0:
//!   hardware limits: 400 MHz - 4.70 GHz
//!   available cpufreq governors: performance, powersave
//!   current policy: frequency should be within 400 MHz and 4.70 GHz.
//!                   The governor "performance" may decide which speed to use
//!                   within this range.
//!   current CPU frequency is 400 MHz (asserted by call to hardware).   <- cpufreq-info
//!   current CPU frequency: 400 MHz (asserted by call to kernel)        <- cpupower
//! ```
//!
//! Both print speeds the same way: `N kHz`, `N.N MHz`, `N MHz` or `N.NN GHz`. cpupower prints
//! `current CPU frequency: Unable to call hardware` when it cannot read the hardware's figure,
//! and then the kernel's on a second line. A CPU block's current frequency becomes one reading
//! with the block's limits and governor; the hardware's figure wins over the kernel's.

use crate::evidence::{clip, CpuClockReading, Evidence, InputId};

/// Readings kept per input: a many-core dump must not grow without end.
const MAX_READINGS: usize = 1024;

/// Whether a line is one these tools alone print.
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("analyzing CPU ")
        || t.starts_with("hardware limits:")
        || t.starts_with("current CPU frequency is ")
        || t.starts_with("current CPU frequency:")
        || t.starts_with("current policy: frequency should be within")
        || t.starts_with("cpufrequtils ")
}

/// A speed as these tools print it, in MHz.
pub fn speed_mhz(s: &str) -> Option<f64> {
    let s = s.trim().trim_end_matches(['.', ',']);
    let (num, unit) = s.split_once(' ')?;
    let x: f64 = num.trim().parse().ok()?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "khz" => 1e-3,
        "mhz" => 1.0,
        "ghz" => 1e3,
        _ => return None,
    };
    let mhz = x * scale;
    (mhz.is_finite() && mhz > 0.0 && mhz < 1e5).then_some(mhz)
}

#[derive(Default)]
pub struct CpufreqInfo {
    cpu: Option<u32>,
    hw: Option<(f64, f64)>,
    governor: Option<String>,
    /// The reading of the current block, pushed when the block ends; `true` when it came from
    /// the hardware.
    current: Option<(CpuClockReading, bool)>,
}

impl CpufreqInfo {
    fn flush(&mut self, ev: &mut Evidence) {
        if let Some((mut r, _)) = self.current.take() {
            r.hw_min_mhz = self.hw.map(|h| h.0);
            r.hw_max_mhz = self.hw.map(|h| h.1);
            r.governor.clone_from(&self.governor);
            if ev.cpu_clocks.len() < MAX_READINGS {
                ev.cpu_clocks.push(r);
            }
        }
    }

    /// Reads one line; `false` when it is not one of these tools' own.
    pub fn line(&mut self, input: InputId, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let t = text.trim();
        if let Some(rest) = t.strip_prefix("analyzing CPU ") {
            self.flush(ev);
            self.cpu = rest.trim_end_matches(':').trim().parse().ok();
            self.hw = None;
            self.governor = None;
            return true;
        }
        if let Some(rest) = t.strip_prefix("hardware limits:") {
            if let Some((lo, hi)) = rest.split_once(" - ") {
                if let (Some(lo), Some(hi)) = (speed_mhz(lo), speed_mhz(hi)) {
                    self.hw = (lo <= hi).then_some((lo, hi));
                }
            }
            return true;
        }
        if let Some(rest) = t.strip_prefix("The governor \"") {
            if let Some((g, _)) = rest.split_once('"') {
                self.governor = Some(clip(g));
            }
            return true;
        }
        let value = t
            .strip_prefix("current CPU frequency is ")
            .or_else(|| t.strip_prefix("current CPU frequency:"));
        if let Some(v) = value {
            let hardware = v.contains("call to hardware");
            let speed = v.split(" (").next().unwrap_or(v);
            let Some(mhz) = speed_mhz(speed) else {
                return true;
            };
            // The hardware's figure wins over the kernel's within one block.
            if self.current.as_ref().is_some_and(|c| c.1 && !hardware) {
                return true;
            }
            self.current = Some((
                CpuClockReading {
                    input,
                    line: number,
                    text: clip(t),
                    cpu: self.cpu,
                    cur_mhz: mhz,
                    hw_min_mhz: None,
                    hw_max_mhz: None,
                    governor: None,
                },
                hardware,
            ));
            return true;
        }
        t.starts_with("current policy:")
            || t.starts_with("available cpufreq governors:")
            || t.starts_with("available frequency steps:")
            || t.starts_with("cpufreq stats:")
            || t.starts_with("cpufrequtils ")
            || t.starts_with("driver:")
            || t.starts_with("CPUs which ")
            || t.starts_with("maximum transition latency:")
            || t.starts_with("within this range")
    }

    pub fn finish(&mut self, ev: &mut Evidence) {
        self.flush(ev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("c.txt");
        let mut r = CpufreqInfo::default();
        for (i, l) in text.lines().enumerate() {
            r.line(id, i as u64 + 1, l, &mut ev);
        }
        r.finish(&mut ev);
        ev
    }

    #[test]
    fn both_tools_give_the_clock_its_limits_and_governor() {
        let info = "cpufrequtils 008: cpufreq-info (C) Dominik Brodowski 2004-2009\nanalyzing CPU 0:\n  driver: intel_pstate\n  hardware limits: 400 MHz - 4.70 GHz\n  current policy: frequency should be within 400 MHz and 4.70 GHz.\n                  The governor \"performance\" may decide which speed to use\n                  within this range.\n  current CPU frequency is 400 MHz (asserted by call to hardware).\nanalyzing CPU 1:\n  hardware limits: 800 kHz - 1.20 GHz\n  current CPU frequency is 998.4 MHz.\n";
        let ev = read(info);
        assert_eq!(ev.cpu_clocks.len(), 2);
        let r = &ev.cpu_clocks[0];
        assert_eq!((r.cpu, r.cur_mhz), (Some(0), 400.0));
        assert_eq!((r.hw_min_mhz, r.hw_max_mhz), (Some(400.0), Some(4700.0)));
        assert_eq!(r.governor.as_deref(), Some("performance"));
        assert_eq!(r.line, 8);
        assert_eq!(ev.cpu_clocks[1].cur_mhz, 998.4);
        assert_eq!(ev.cpu_clocks[1].hw_min_mhz, Some(0.8));

        let cpupower = "analyzing CPU 2:\n  hardware limits: 1.10 GHz - 3.50 GHz\n  current CPU frequency: Unable to call hardware\n  current CPU frequency: 1.10 GHz (asserted by call to kernel)\n  boost state support:\n";
        let ev = read(cpupower);
        assert_eq!(ev.cpu_clocks[0].cur_mhz, 1100.0);
        assert_eq!(ev.cpu_clocks[0].hw_max_mhz, Some(3500.0));
        let both = "analyzing CPU 0:\n  current CPU frequency: 3.40 GHz (asserted by call to hardware)\n  current CPU frequency: 1.10 GHz (asserted by call to kernel)\n";
        assert_eq!(read(both).cpu_clocks[0].cur_mhz, 3400.0);
    }

    #[test]
    fn garbage_never_panics() {
        for junk in [
            "hardware limits: - \n",
            "current CPU frequency is  MHz\n",
            "current CPU frequency: 1e400 GHz\n",
            "analyzing CPU x:\nhardware limits: 5 GHz - 1 GHz\ncurrent CPU frequency is 9 THz\n",
            "The governor \"\n",
        ] {
            let ev = read(junk);
            assert!(ev.cpu_clocks.iter().all(|c| c.cur_mhz.is_finite()));
        }
    }
}

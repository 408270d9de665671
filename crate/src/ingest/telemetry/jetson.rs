//! Jetson status: `nvpmodel -q` (`NV Power Mode: 15W` and the mode number on the next line) and
//! `jetson_clocks --show` (`SOC family:tegra234  Machine:...`, one `cpuN: Online=1
//! Governor=schedutil MinFreq=... MaxFreq=... CurrentFreq=...` line per CPU in kHz, `GPU` and
//! `EMC` lines in Hz, and the same `NV Power Mode:` line).
//!
//! The power mode goes to the evidence as stated; the CPU lines give each CPU's current clock and
//! policy maximum (`MaxFreq` is the cap the mode sets, not the silicon's), the GPU and EMC lines
//! their clocks.

use super::{SampleClock, Sink};
use crate::evidence::{
    Evidence, InputId, ModeFamily, ModeLevel, PowerMode, Quantity, SkippedLines,
};

/// Whether a line is one of these tools' own.
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("NV Power Mode:")
        || t.starts_with("SOC family:")
        || (t.starts_with("cpu") && t.contains(": Online=") && t.contains("MaxFreq="))
}

#[derive(Default)]
pub struct Jetson {
    /// The mode line just read, waiting for `nvpmodel -q`'s number on the next line.
    pending: Option<usize>,
    pub skipped: SkippedLines,
}

/// `Key=value` pairs of a `jetson_clocks --show` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

impl Jetson {
    /// Reads one line; `false` when it is none of these tools' own.
    pub fn line(
        &mut self,
        input: InputId,
        number: u64,
        text: &str,
        clock: &mut SampleClock,
        sink: &mut Sink,
        ev: &mut Evidence,
    ) -> bool {
        let t = text.trim();
        if let Some(i) = self.pending.take() {
            if let Ok(id) = t.parse::<u32>() {
                if let Some(m) = ev.power_modes.get_mut(i) {
                    m.id = Some(id);
                }
                return true;
            }
        }
        if let Some(mode) = t.strip_prefix("NV Power Mode:") {
            let name = mode.trim();
            if name.is_empty() {
                self.skipped.add(number, text);
                return true;
            }
            if ev.power_modes.len() < 64 {
                ev.power_modes.push(PowerMode {
                    input,
                    line: number,
                    name: crate::evidence::clip(name),
                    id: None,
                    text: crate::evidence::clip(t),
                    family: ModeFamily::Jetson,
                    level: if name.to_ascii_uppercase().contains("MAXN") {
                        ModeLevel::Max
                    } else {
                        ModeLevel::Unknown
                    },
                });
                self.pending = Some(ev.power_modes.len() - 1);
            }
            return true;
        }
        if t.starts_with("SOC family:") || t.starts_with("Online CPUs:") {
            return true;
        }
        if t.starts_with("NVPM ") {
            // nvpmodel's own warnings and verbose lines.
            return true;
        }
        let Some((name, rest)) = t.split_once(' ').or_else(|| t.split_once(':')) else {
            return false;
        };
        let name = name.trim_end_matches(':');
        let cpu = name.strip_prefix("cpu").and_then(|n| n.parse::<u32>().ok());
        let (cur, max) = (field(rest, "CurrentFreq"), field(rest, "MaxFreq"));
        if cur.is_none() && max.is_none() {
            return false;
        }
        let parse = |v: Option<&str>| v.map(|v| v.parse::<f64>().ok());
        let (Some(cur), max) = (parse(cur), parse(max)) else {
            return true;
        };
        let (Some(cur), Some(max)) = (cur, max.unwrap_or(Some(f64::NAN))) else {
            self.skipped.add(number, text);
            return true;
        };
        // CPU lines are in kHz, GPU / EMC / DLA lines in Hz.
        let (scale, key) = match cpu {
            Some(_) if field(rest, "Online") == Some("0") => return true,
            Some(_) => (1e-3, name.to_string()),
            None => (1e-6, name.to_string()),
        };
        let at = clock.at(&key);
        match cpu {
            Some(c) => sink.push(
                Quantity::CpuFreq { cpu: c },
                "jetson_clocks --show",
                at,
                cur * scale,
            ),
            None => sink.push(
                Quantity::ClockFreq {
                    name: name.to_string(),
                },
                "jetson_clocks --show",
                at,
                cur * scale,
            ),
        }
        if max.is_finite() {
            sink.push(
                Quantity::Other {
                    name: format!("{name} MaxFreq"),
                    unit: "MHz".into(),
                },
                "jetson_clocks --show",
                at,
                max * scale,
            );
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Evidence, Jetson) {
        let mut ev = Evidence::default();
        let id = ev.add_input("j.txt");
        let mut j = Jetson::default();
        let (mut clock, mut sink) = (SampleClock::new(1.0), Sink::default());
        for (i, l) in text.lines().enumerate() {
            if !l.trim().is_empty() {
                j.line(id, i as u64 + 1, l, &mut clock, &mut sink, &mut ev);
            }
        }
        sink.finish(id, &mut ev);
        (ev, j)
    }

    #[test]
    fn nvpmodel_query_gives_the_mode_and_its_number() {
        let (ev, _) = read("NVPM WARN: fan mode is not set!\nNV Power Mode: 15W\n2\n");
        assert_eq!(ev.power_modes.len(), 1);
        assert_eq!(
            (ev.power_modes[0].name.as_str(), ev.power_modes[0].id),
            ("15W", Some(2))
        );
        assert_eq!(ev.power_modes[0].line, 2);
    }

    #[test]
    fn jetson_clocks_show_reads_cpus_gpu_and_skips_damage() {
        let text = "SOC family:tegra234  Machine:NVIDIA Jetson AGX Orin Developer Kit\nOnline CPUs: 0-7\ncpu0: Online=1 Governor=schedutil MinFreq=729600 MaxFreq=1420800 CurrentFreq=1420800 IdleStates: WFI=0 c7=0\ncpu8: Online=0 Governor=schedutil MinFreq=729600 MaxFreq=1420800 CurrentFreq=729600 IdleStates: WFI=0 c7=0\ncpu1: Online=1 Governor=schedutil MinFreq=729600 MaxFreq=14x0800 CurrentFreq=1420800\nGPU MinFreq=306000000 MaxFreq=612000000 CurrentFreq=612000000\nEMC MinFreq=204000000 MaxFreq=3199000000 CurrentFreq=2133000000 FreqOverride=0\nNV Power Mode: 30W\n";
        let (ev, j) = read(text);
        let f0: Vec<f64> = ev
            .series
            .iter()
            .filter(|s| s.quantity == Quantity::CpuFreq { cpu: 0 })
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .collect();
        assert_eq!(f0, vec![1420.8]);
        assert!(!ev
            .series
            .iter()
            .any(|s| s.quantity == Quantity::CpuFreq { cpu: 8 }));
        assert!(ev
            .series
            .iter()
            .any(|s| s.quantity == Quantity::ClockFreq { name: "GPU".into() }
                && s.points[0].1 == 612.0));
        assert_eq!(j.skipped.count, 1);
        assert_eq!(ev.power_modes[0].name, "30W");
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "NV Power Mode:",
            "NV Power Mode: 15W\n99999999999999",
            "cpu: Online=0 MaxFreq=",
            "cpu99999999999: Online=1 MaxFreq=1 CurrentFreq=1e999",
            "GPU CurrentFreq=-1 MaxFreq=x",
            "SOC family:\n\u{0}MaxFreq==",
        ] {
            read(t);
        }
    }
}

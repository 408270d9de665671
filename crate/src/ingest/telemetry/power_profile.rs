//! Power modes as the operating system or an NPU runtime states them:
//!
//! - Android `dumpsys power`: `mLowPowerModeEnabled=true` (PowerManagerService's state dump),
//!   `mSettingBatterySaverEnabled=true` (the battery saver state machine), and `settings get
//!   global low_power` (its value, `1`, on the line after the command);
//! - Linux power-profiles-daemon: `powerprofilesctl get` (the profile alone, after the command)
//!   and `powerprofilesctl list` (the active profile marked `* power-saver:`), and the ACPI
//!   platform profile (`/sys/firmware/acpi/platform_profile`: `low-power`, `quiet`, `cool`,
//!   `balanced`, `balanced-performance`, `performance`), read by `cat` or `grep .`;
//! - macOS `pmset -g`: `lowpowermode 1`, or `powermode 1` (0 automatic, 1 low power, 2 high
//!   power);
//! - Windows `powercfg /getactivescheme` and `/list`: the scheme's GUID decides, because its name
//!   is translated (`a1841308-...` Power saver, `381b4222-...` Balanced, `8c5e7fda-...` High
//!   performance, `e9a42b02-...` Ultimate Performance);
//! - Qualcomm QNN / Genie HTP: `--perf_profile power_saver` on a `qnn-net-run` /
//!   `qnn-throughput-net-run` command line, and `"perf_profile"` / `"perf-profile"` /
//!   `"power_mode"` keys in HTP backend and Genie configs (`burst`, `sustained_high_performance`,
//!   `high_performance`, `balanced`, `low_balanced`, `power_saver`, `low_power_saver`,
//!   `high_power_saver`, `extreme_power_saver`, `system_settings`), and ONNX Runtime's QNN EP
//!   option `htp_performance_mode` with the same values.

use crate::evidence::{clip, Evidence, InputId, ModeFamily, ModeLevel, PowerMode};

/// Modes kept per input.
const MAX_MODES: usize = 64;

/// A command whose answer is the next line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    LowPower,
    Profile,
    PlatformProfile,
}

#[derive(Default)]
pub struct PowerProfile {
    asked: Option<Asked>,
    /// An unstarred scheme line, taken as active until a list shows it is one of many.
    provisional: Option<usize>,
    listing: bool,
}

/// Whether a line states one of these modes (used by the sniffer and the log gate).
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    t.contains("mLowPowerModeEnabled=")
        || t.contains("mSettingBatterySaverEnabled=")
        || t.contains("settings get global low_power")
        || t.contains("powerprofilesctl")
        || t.contains("platform_profile")
        || t.starts_with("Power Scheme GUID:")
        || t.contains("perf_profile")
        || t.contains("perf-profile")
        || t.contains("\"power_mode\"")
        || t.contains("htp_performance_mode")
        || pmset_mode(t).is_some()
}

/// A QNN HTP performance profile's place.
fn qnn_level(v: &str) -> Option<ModeLevel> {
    let v = v.to_ascii_lowercase().replace('-', "_");
    Some(match v.as_str() {
        "burst" | "sustained_high_performance" | "high_performance" | "extreme_performance" => {
            ModeLevel::Max
        }
        "balanced" | "low_balanced" | "default" | "system_settings" => ModeLevel::Balanced,
        s if s.ends_with("power_saver") => ModeLevel::Saver,
        _ => return None,
    })
}

/// A Linux power profile or ACPI platform profile's place.
fn profile_level(v: &str) -> Option<ModeLevel> {
    Some(match v.trim().to_ascii_lowercase().as_str() {
        "performance" => ModeLevel::Max,
        "balanced" | "balanced-performance" => ModeLevel::Balanced,
        "power-saver" | "low-power" | "quiet" | "cool" => ModeLevel::Saver,
        _ => return None,
    })
}

/// `pmset -g`'s `lowpowermode 1` / `powermode 1` (a key and a number, nothing else).
fn pmset_mode(t: &str) -> Option<(String, ModeLevel)> {
    let mut w = t.split_whitespace();
    let (k, v) = (w.next()?, w.next()?);
    if w.next().is_some() {
        return None;
    }
    let level = match (k, v) {
        ("lowpowermode", "1") | ("powermode", "1") => ModeLevel::Saver,
        ("lowpowermode", "0") | ("powermode", "0") => ModeLevel::Balanced,
        ("powermode", "2") => ModeLevel::Max,
        _ => return None,
    };
    Some((format!("{k} {v}"), level))
}

/// Windows' built-in schemes by GUID.
fn scheme_level(t: &str) -> Option<ModeLevel> {
    let l = t.to_ascii_lowercase();
    Some(if l.contains("a1841308-3541-4fab-bc81-f71556f20b4a") {
        ModeLevel::Saver
    } else if l.contains("381b4222-f694-41f0-9685-ff5bb260df2e") {
        ModeLevel::Balanced
    } else if l.contains("8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c")
        || l.contains("e9a42b02-d5df-448d-aa00-03f14749eb61")
    {
        ModeLevel::Max
    } else {
        return None;
    })
}

/// The value after `key` in `key=v`, `key v`, `"key": "v"` or `key: v`.
fn value_after<'a>(t: &'a str, key: &str) -> Option<&'a str> {
    let at = t.find(key)? + key.len();
    let rest = t[at..].trim_start_matches(['"', '\'', ':', '=', ' ', '\t']);
    let v = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()?;
    (!v.is_empty()).then_some(v)
}

impl PowerProfile {
    fn push(
        ev: &mut Evidence,
        input: InputId,
        number: u64,
        text: &str,
        name: &str,
        family: ModeFamily,
        level: ModeLevel,
    ) {
        if ev.power_modes.len() < MAX_MODES {
            ev.power_modes.push(PowerMode {
                input,
                line: number,
                name: clip(name),
                id: None,
                text: clip(text.trim()),
                family,
                level,
            });
        }
    }

    /// Reads one line; `false` when it states none of these modes.
    pub fn line(&mut self, input: InputId, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let t = text.trim();
        if let Some(asked) = self.asked.take() {
            let level = match asked {
                Asked::LowPower => match t {
                    "1" => Some(ModeLevel::Saver),
                    "0" => Some(ModeLevel::Max),
                    _ => None,
                },
                Asked::Profile | Asked::PlatformProfile => profile_level(t),
            };
            if let Some(level) = level {
                let name = match asked {
                    Asked::LowPower => format!("low_power={t}"),
                    _ => t.to_string(),
                };
                Self::push(ev, input, number, t, &name, ModeFamily::Os, level);
                return true;
            }
        }
        for key in ["mLowPowerModeEnabled=", "mSettingBatterySaverEnabled="] {
            if let Some(v) = t.split(key).nth(1) {
                let level = if v.starts_with("true") {
                    ModeLevel::Saver
                } else {
                    ModeLevel::Max
                };
                let name = format!("{key}{}", v.split_whitespace().next().unwrap_or(""));
                Self::push(ev, input, number, t, &name, ModeFamily::Os, level);
                return true;
            }
        }
        if t.contains("settings get global low_power") {
            self.asked = Some(Asked::LowPower);
            return true;
        }
        if t.contains("powerprofilesctl") {
            if t.contains("powerprofilesctl get") || t.ends_with("powerprofilesctl") {
                self.asked = Some(Asked::Profile);
            }
            return true;
        }
        // `powerprofilesctl list`: the active profile carries the star.
        if let Some(p) = t.strip_prefix("* ").and_then(|p| p.strip_suffix(':')) {
            if let Some(level) = profile_level(p) {
                Self::push(ev, input, number, t, p, ModeFamily::Os, level);
                return true;
            }
        }
        if let Some(i) = t.find("platform_profile") {
            let rest = &t[i + "platform_profile".len()..];
            if let Some(v) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('=')) {
                if let Some(level) = profile_level(v) {
                    Self::push(ev, input, number, t, v.trim(), ModeFamily::Os, level);
                }
            } else if !rest.starts_with('_') {
                // `cat .../platform_profile`: the value is the next line.
                self.asked = Some(Asked::PlatformProfile);
            }
            return true;
        }
        if let Some((name, level)) = pmset_mode(t) {
            Self::push(ev, input, number, t, &name, ModeFamily::Os, level);
            return true;
        }
        if t.starts_with("Power Scheme GUID:") {
            // `/getactivescheme` prints the active scheme alone; `/list` prints them all and
            // stars the active one, so an unstarred line followed by another is not the active.
            let starred = t.ends_with('*');
            if let Some(i) = self.provisional.take() {
                if i + 1 == ev.power_modes.len() {
                    ev.power_modes.pop();
                }
                self.listing = true;
            }
            if let Some(level) = scheme_level(t) {
                if starred || !self.listing {
                    let name = t
                        .split_once('(')
                        .and_then(|(_, n)| n.split_once(')'))
                        .map_or("?", |n| n.0)
                        .to_string();
                    Self::push(ev, input, number, t, &name, ModeFamily::Os, level);
                    if !starred {
                        self.provisional = Some(ev.power_modes.len() - 1);
                    }
                }
            }
            if !starred && self.provisional.is_none() {
                self.listing = true;
            }
            return true;
        }
        self.provisional = None;
        for key in [
            "perf_profile",
            "perf-profile",
            "\"power_mode\"",
            "htp_performance_mode",
        ] {
            if let Some(v) = value_after(t, key) {
                if let Some(level) = qnn_level(v) {
                    Self::push(ev, input, number, t, v, ModeFamily::Npu, level);
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(String, ModeFamily, ModeLevel, u64)> {
        let mut ev = Evidence::default();
        let id = ev.add_input("m.txt");
        let mut r = PowerProfile::default();
        for (i, l) in text.lines().enumerate() {
            r.line(id, i as u64 + 1, l, &mut ev);
        }
        ev.power_modes
            .iter()
            .map(|m| (m.name.clone(), m.family, m.level, m.line))
            .collect()
    }

    #[test]
    fn each_family_states_its_mode() {
        use ModeLevel::*;
        let saver = |text: &str| read(text).into_iter().map(|m| m.2).collect::<Vec<_>>();
        assert_eq!(saver("  mLowPowerModeEnabled=true\n"), [Saver]);
        assert_eq!(saver("  mSettingBatterySaverEnabled=false\n"), [Max]);
        assert_eq!(
            saver("$ adb shell settings get global low_power\n1\n"),
            [Saver]
        );
        assert_eq!(saver("$ powerprofilesctl get\npower-saver\n"), [Saver]);
        assert_eq!(
            saver("  performance:\n    CpuDriver:\tintel_pstate\n\n* balanced:\n    CpuDriver:\tintel_pstate\n\n  power-saver:\n"),
            [Balanced]
        );
        assert_eq!(
            saver("$ cat /sys/firmware/acpi/platform_profile\nlow-power\n"),
            [Saver]
        );
        assert_eq!(
            saver("/sys/firmware/acpi/platform_profile:performance\n"),
            [Max]
        );
        assert_eq!(
            saver("/sys/firmware/acpi/platform_profile_choices:low-power balanced performance\n"),
            Vec::<ModeLevel>::new()
        );
        assert_eq!(
            saver(" lowpowermode         1\n powermode 2\n"),
            [Saver, Max]
        );
        assert_eq!(
            saver("Power Scheme GUID: a1841308-3541-4fab-bc81-f71556f20b4a  (Energiesparmodus)\n"),
            [Saver]
        );
        assert_eq!(
            saver("Power Scheme GUID: 381b4222-f694-41f0-9685-ff5bb260df2e  (Balanced)\nPower Scheme GUID: 8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c  (High performance) *\n"),
            [Max]
        );
        let q = read("$ ./qnn-net-run --backend libQnnHtp.so --model libllama.so --perf_profile power_saver --input_list in.txt\n");
        assert_eq!(q, [("power_saver".into(), ModeFamily::Npu, Saver, 1)]);
        assert_eq!(saver("      \"perf_profile\": \"burst\",\n"), [Max]);
        assert_eq!(
            saver("  \"perf-profile\": \"sustained_high_performance\"\n"),
            [Max]
        );
    }

    #[test]
    fn garbage_never_panics() {
        for junk in [
            "perf_profile",
            "platform_profile:",
            "Power Scheme GUID: (",
            "* :",
            "powermode",
        ] {
            read(junk);
        }
    }
}

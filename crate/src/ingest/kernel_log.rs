//! Kernel logs: `dmesg` (`[  123.456789] msg`, `-T` `[Tue Dec  1 10:00:00 2026] msg`, `-x`
//! `kern  :warn  : [ 12.3] msg`), `journalctl -k` (`Dec 01 10:00:00 host kernel: msg`) and
//! logcat's kernel buffer (`logcat -b kernel`, tag `kernel`). The events seed 002 names as
//! causes are kept with their line and time:
//!
//! - supply: the Raspberry Pi firmware's `Under-voltage detected! (0x00050005)` and hwmon's
//!   `Undervoltage detected!` / `Voltage normalised`, PMIC brown-out and under-voltage lines;
//! - USB: `reset high-speed USB device number 2 using xhci_hcd`, `USB disconnect`,
//!   `device descriptor read/64, error -71`, over-current, an xHCI host that died;
//! - thermal: x86 `mce: CPU3: Core temperature above threshold, cpu clock throttled`, the
//!   `Package` variant, thermal-zone trips and critical temperatures, throttling by the
//!   thermal framework or the Qualcomm limits (LMh) driver;
//! - `Out of memory: Killed process N (name)`.

use super::lines::Line;
use super::telemetry::time::{self, NumericHint};
use super::LineParser;
use crate::evidence::{Evidence, InputId, KernelEvent, KernelEventKind};
use regex::Regex;
use std::sync::OnceLock;

/// Events kept per input; a flood of USB resets keeps the first ones (and counts the rest).
pub const MAX_EVENTS: usize = 10_000;

struct Re {
    boot: Regex,
    wall: Regex,
    journal: Regex,
    logcat_kernel: Regex,
    under_voltage: Regex,
    voltage_ok: Regex,
    usb: Regex,
    mce: Regex,
    thermal: Regex,
    zone: Regex,
    oom: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("kernel log pattern compiles");
        Re {
            boot: r(r"^(?:\w+\s*:\s*\w+\s*:\s*)?\[\s*(\d+\.\d+)\]\s?(.*)$"),
            wall: r(r"^\[((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3}\s+\d{1,2} \d{2}:\d{2}:\d{2} \d{4})\]\s?(.*)$"),
            journal: r(r"^(\w{3} \d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)?|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:?\d{2}|Z)?) \S+ kernel: (?:\[\s*(\d+\.\d+)\]\s?)?(.*)$"),
            logcat_kernel: r(r"^\d{2}-\d{2} (\d{2}:\d{2}:\d{2}\.\d+)\s+\d+\s+\d+\s+[VDIWEF] kernel\s*: (?:\[\s*(\d+\.\d+)\]\s?)?(.*)$"),
            under_voltage: r(r"(?i)\bunder-?\s?voltage\b|\bbrown-?out\b|\bvoltage (?:drop|too low)\b"),
            voltage_ok: r(r"(?i)voltage normali[sz]ed"),
            usb: r(r"(?i)\busb \S+: (?:reset \S+ USB device|USB disconnect|device descriptor read\S* error|device not accepting address|unable to enumerate)|\bover-?current\b|\bxHCI host (?:controller )?not responding|\bHC died\b"),
            mce: r(r"CPU(\d+): (Core|Package) temperature above threshold, cpu clock throttled"),
            thermal: r(r"(?i)(?:\bthermal\b|\btsens\b|\blmh\b|\bdcvs\b|\blimits\b|\bcooling\b|temperature).*\b(?:throttl\w*|trip(?:ped)?\b|critical temperature|mitigat\w*)|\bthrottl\w*\b.*\b(?:thermal|temperature|temp)\b"),
            zone: r(r"\b(thermal_zone\d+|cpu\d+|CPU\d+|tsens_tz_sensor\d+|[\w-]+-thermal|cpu-\d-\d(?:-\w+)?|Package|Core)\b"),
            oom: r(r"Out of memory: Kill(?:ed)? process (\d+) \(([^)]+)\)"),
        }
    })
}

/// True when most of the first lines are kernel log lines.
pub fn looks_like(lines: &[&str]) -> bool {
    let r = re();
    let body: Vec<&str> = lines
        .iter()
        .map(|l| l.trim_end())
        .filter(|l| !l.is_empty() && !l.starts_with("-- ") && !l.starts_with("---------"))
        .take(200)
        .collect();
    if body.len() < 2 {
        return false;
    }
    let kernel = body
        .iter()
        .filter(|l| {
            r.boot.is_match(l)
                || r.wall.is_match(l)
                || r.journal.is_match(l)
                || r.logcat_kernel.is_match(l)
        })
        .count();
    kernel * 10 >= body.len() * 7
}

pub struct KernelLogParser {
    input: InputId,
}

impl KernelLogParser {
    pub fn new(input: InputId) -> Self {
        KernelLogParser { input }
    }
}

/// The stamp and message of a kernel line: seconds since boot when it says, and the time as
/// printed.
fn split(text: &str) -> Option<(Option<f64>, Option<String>, &str)> {
    let r = re();
    let t = text.trim_end();
    if let Some(c) = r.boot.captures(t) {
        return Some((c[1].parse().ok(), None, c.get(2).map_or("", |m| m.as_str())));
    }
    if let Some(c) = r.wall.captures(t) {
        return Some((
            None,
            Some(c[1].to_string()),
            c.get(2).map_or("", |m| m.as_str()),
        ));
    }
    for re in [&r.journal, &r.logcat_kernel] {
        if let Some(c) = re.captures(t) {
            return Some((
                c.get(2).and_then(|m| m.as_str().parse().ok()),
                Some(c[1].to_string()),
                c.get(3).map_or("", |m| m.as_str()),
            ));
        }
    }
    None
}

/// A stamp as Unix seconds when it names its year: `dmesg -T`'s ctime form or journalctl's ISO
/// form. The short journal form (`Dec 01 10:00:03`) has no year, and logcat's none either.
fn wall_seconds(stamp: &str) -> Option<f64> {
    if stamp.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return time::parse(stamp, NumericHint::Unknown)
            .filter(|s| s.absolute)
            .map(|s| s.s);
    }
    time::ctime(stamp).map(|s| s.s)
}

fn classify(msg: &str) -> Option<(KernelEventKind, Option<String>)> {
    let r = re();
    if r.voltage_ok.is_match(msg) {
        return Some((KernelEventKind::VoltageNormal, None));
    }
    if r.under_voltage.is_match(msg) {
        return Some((KernelEventKind::UnderVoltage, None));
    }
    if r.usb.is_match(msg) {
        return Some((KernelEventKind::Usb, None));
    }
    if let Some(c) = r.mce.captures(msg) {
        return Some((
            KernelEventKind::ThermalThrottle,
            Some(format!("{} (CPU{})", &c[2], &c[1])),
        ));
    }
    if r.thermal.is_match(msg) {
        // "... temperature/speed normal" ends an episode, it is not one.
        if msg.contains("normal") && !msg.contains("abnormal") {
            return None;
        }
        let zone = r.zone.captures(msg).map(|c| c[1].to_string());
        return Some((KernelEventKind::ThermalThrottle, zone));
    }
    if let Some(c) = r.oom.captures(msg) {
        return Some((KernelEventKind::OomKill, Some(c[2].to_string())));
    }
    None
}

impl LineParser for KernelLogParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let Some((boot_s, stamp, msg)) = split(line.text) else {
            return;
        };
        let Some((kind, subject)) = classify(msg) else {
            return;
        };
        if ev.kernel_events.len() >= MAX_EVENTS {
            return;
        }
        let wall_s = stamp.as_deref().and_then(wall_seconds);
        ev.kernel_events.push(KernelEvent {
            input: self.input,
            line: line.number,
            boot_s,
            wall_s,
            stamp,
            kind,
            subject,
            text: crate::evidence::clip(msg),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_of_every_form() {
        assert_eq!(
            split("[   12.345678] usb 1-1: USB disconnect").map(|s| s.0),
            Some(Some(12.345678))
        );
        let (b, s, m) =
            split("[Tue Dec  1 10:00:03 2026] hwmon hwmon1: Undervoltage detected!").expect("-T");
        assert_eq!(
            (b, s.as_deref(), m),
            (
                None,
                Some("Tue Dec  1 10:00:03 2026"),
                "hwmon hwmon1: Undervoltage detected!"
            )
        );
        let (_, s, m) =
            split("Dec 01 10:00:03 raspberrypi kernel: Under-voltage detected! (0x00050005)")
                .expect("journal");
        assert_eq!(s.as_deref(), Some("Dec 01 10:00:03"));
        assert!(m.starts_with("Under-voltage"));
        assert!(split("kern  :warn  : [ 3.1] mce: CPU1: Core temperature above threshold, cpu clock throttled (total events = 1)").is_some());
        assert!(split("just text").is_none());
    }

    #[test]
    fn wall_stamps_with_a_year_become_unix_seconds() {
        assert_eq!(
            wall_seconds("Tue Dec  1 10:00:03 2026"),
            Some(1_796_119_203.0)
        );
        assert_eq!(
            wall_seconds("2026-12-01T10:00:03.250000+00:00"),
            Some(1_796_119_203.25)
        );
        assert_eq!(wall_seconds("Dec 01 10:00:03"), None);
        assert_eq!(wall_seconds("10:00:03.250"), None);
    }

    #[test]
    fn events_are_classified() {
        let k = |m: &str| classify(m).map(|c| c.0);
        assert_eq!(
            k("hwmon hwmon1: Undervoltage detected!"),
            Some(KernelEventKind::UnderVoltage)
        );
        assert_eq!(
            k("hwmon hwmon1: Voltage normalised"),
            Some(KernelEventKind::VoltageNormal)
        );
        assert_eq!(
            k("usb 1-1.3: reset high-speed USB device number 4 using xhci_hcd"),
            Some(KernelEventKind::Usb)
        );
        assert_eq!(
            classify("mce: CPU2: Package temperature above threshold, cpu clock throttled (total events = 7)"),
            Some((KernelEventKind::ThermalThrottle, Some("Package (CPU2)".into())))
        );
        assert_eq!(k("mce: CPU2: Package temperature/speed normal"), None);
        assert_eq!(
            k("thermal thermal_zone3: critical temperature reached (105 C), shutting down"),
            Some(KernelEventKind::ThermalThrottle)
        );
        assert_eq!(
            k("Out of memory: Killed process 4242 (llama-cli) total-vm:8123456kB"),
            Some(KernelEventKind::OomKill)
        );
        assert_eq!(
            k("usb 1-1: new high-speed USB device number 2 using xhci_hcd"),
            None
        );
        assert_eq!(
            k("thermal_sys: Registered thermal governor 'step_wise'"),
            None
        );
    }
}

//! Line-oriented telemetry that is not delimited: Jetson `tegrastats`, Android `dumpsys battery`
//! and `dumpsys thermalservice`, sysfs dumps (`grep . /sys/.../scaling_cur_freq`, thermal zone
//! `type`/`temp`), macOS `powermetrics`, Raspberry Pi `vcgencmd`, and (in their own modules)
//! `nvidia-smi -q`, Jetson status and sbc-bench / armbianmonitor monitor output.
//!
//! These sources repeat a block or a line per sample, usually without a time of their own. A
//! leading date or a bare epoch line sets the time; otherwise [`SampleClock`] starts a new
//! sample when a key repeats and counts samples one interval (1 s, the tools' usual default)
//! apart.

use super::jetson::{self, Jetson};
use super::nvidia_smi_query::{self, NvidiaSmiQuery};
use super::power_state::{self, PowerStates};
use super::sbc_bench::{self, SbcBench};
use super::time::{self, NumericHint};
use super::units;
use super::{SampleClock, Sink};
use crate::evidence::{Evidence, InputId, ProblemCode, Quantity, SkippedLines};
use crate::ingest::lines::Line;
use crate::ingest::LineParser;
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

struct Patterns {
    tegra_cpu: Regex,
    tegra_engine: Regex,
    tegra_temp: Regex,
    tegra_rail: Regex,
    thermal_hal: Regex,
    sysfs: Regex,
    pm_cluster: Regex,
    pm_cpu: Regex,
    pm_power: Regex,
    pm_header: Regex,
    vc: Regex,
    lead_stamp: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        tegra_cpu: Regex::new(r"(?:CPU|cpu) \[([^\]]*)\](?:@(\d+))?").expect("tegra cpu"),
        tegra_engine: Regex::new(r"\b(GR3D_FREQ|EMC_FREQ|GR3D2_FREQ|VIC_FREQ|NVDEC\d?|NVENC\d?|NVJPG\d?|APE|EMC|GR3D|AVP|VDE)\s+(?:(\d+)%)?@?\[?(\d+)?").expect("tegra engine"),
        tegra_temp: Regex::new(r"\b([A-Za-z][\w-]*)@(-?\d+(?:\.\d+)?)C\b").expect("tegra temp"),
        tegra_rail: Regex::new(r"\b([A-Z][A-Z0-9_]+) (\d+)(?:mW)?/(\d+)(?:mW)?\b").expect("tegra rail"),
        thermal_hal: Regex::new(r"Temperature\{mValue=(-?[\d.]+(?:[eE]-?\d+)?), mType=(-?\d+), mName=([^,]+), mStatus=(\d+)").expect("thermal hal"),
        sysfs: Regex::new(r"^\s*(/?(?:sys|proc)/\S+?)\s*[:=\s]\s*(\S+)\s*$").expect("sysfs"),
        pm_cluster: Regex::new(r"^([\w-]+(?: [\w-]+)?) HW active (frequency|residency):\s+([\d.]+)\s*(MHz|%)").expect("pm cluster"),
        pm_cpu: Regex::new(r"^CPU (\d+) (frequency|active residency):\s+([\d.]+)\s*(MHz|%)").expect("pm cpu"),
        pm_power: Regex::new(r"^([\w ()+-]*?Power)[^:]*:\s+([\d.]+)\s*(mW|W)").expect("pm power"),
        pm_header: Regex::new(r"^\*\*\* Sampled system activity \(([^)]*)\)(?: \(([\d.]+)ms elapsed\))?").expect("pm header"),
        vc: Regex::new(r"^(throttled|temp|frequency\(\d+\)|volt)=(\S+)").expect("vcgencmd"),
        lead_stamp: Regex::new(r"^(\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}[ T]\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+").expect("lead stamp"),
    })
}

#[derive(Default, PartialEq, Eq, Clone, Copy)]
enum Section {
    #[default]
    None,
    ThermalCached,
    ThermalCurrent,
    ThermalOther,
    Battery,
}

pub struct TextTelemetryParser {
    input: InputId,
    sink: Sink,
    clock: SampleClock,
    section: Section,
    zone_names: HashMap<String, String>,
    plugged: Option<bool>,
    battery_t: f64,
    last_elapsed: Option<f64>,
    lines_used: u64,
    /// Set once the input shows itself as an `nvidia-smi -q` report.
    nvsmi: Option<NvidiaSmiQuery>,
    /// Set once the input shows Jetson `nvpmodel -q` / `jetson_clocks --show` lines.
    jetson: Option<Jetson>,
    /// Set once the input shows sbc-bench / armbianmonitor monitor lines.
    sbc: Option<SbcBench>,
    /// cpufreq-info, `nvidia-smi`'s table and stated power modes.
    states: PowerStates,
    /// Status fields (vcgencmd) whose value could not be read.
    skipped: SkippedLines,
}

impl TextTelemetryParser {
    pub fn new(input: InputId) -> Self {
        TextTelemetryParser {
            input,
            sink: Sink::default(),
            clock: SampleClock::new(1.0),
            section: Section::None,
            zone_names: HashMap::new(),
            plugged: None,
            battery_t: 0.0,
            last_elapsed: None,
            lines_used: 0,
            nvsmi: None,
            jetson: None,
            sbc: None,
            states: PowerStates::default(),
            skipped: SkippedLines::default(),
        }
    }

    fn flush_battery(&mut self) {
        if let Some(p) = self.plugged.take() {
            self.sink.push(
                Quantity::Charging,
                "AC/USB/Wireless powered",
                self.battery_t,
                f64::from(u8::from(p)),
            );
        }
    }

    fn tegrastats(&mut self, line: &str) {
        let p = patterns();
        let t = self.clock.at("tegrastats");
        if let Some(c) = p.tegra_cpu.captures(line) {
            let shared = c.get(2).and_then(|m| m.as_str().parse::<f64>().ok());
            for (cpu, core) in c[1].split(',').enumerate() {
                let core = core.trim();
                if core == "off" {
                    continue;
                }
                let (load, freq) = match core.split_once('@') {
                    Some((l, f)) => (l, f.parse::<f64>().ok()),
                    None => (core, shared),
                };
                if let Ok(l) = load.trim_end_matches('%').parse::<f64>() {
                    self.sink
                        .push(Quantity::CpuLoad { cpu: cpu as u32 }, "CPU", t, l);
                }
                if let Some(f) = freq {
                    self.sink
                        .push(Quantity::CpuFreq { cpu: cpu as u32 }, "CPU", t, f);
                }
            }
        }
        for c in p.tegra_engine.captures_iter(line) {
            let name = &c[1];
            if let Some(l) = c.get(2).and_then(|m| m.as_str().parse::<f64>().ok()) {
                self.sink.push(
                    Quantity::Utilization {
                        name: name.to_string(),
                    },
                    name,
                    t,
                    l,
                );
            }
            if let Some(f) = c.get(3).and_then(|m| m.as_str().parse::<f64>().ok()) {
                self.sink.push(
                    Quantity::ClockFreq {
                        name: name.to_string(),
                    },
                    name,
                    t,
                    f,
                );
            }
        }
        for c in p.tegra_temp.captures_iter(line) {
            if let Ok(v) = c[2].parse::<f64>() {
                // Jetson prints -256 for sensors that are not fitted, and PMIC@100C is a constant
                // placeholder on every board seen, not a reading.
                if v > -100.0 && !(c[1].eq_ignore_ascii_case("PMIC") && v == 100.0) {
                    self.sink.push(
                        Quantity::Temperature {
                            sensor: c[1].to_string(),
                        },
                        &c[1],
                        t,
                        v,
                    );
                }
            }
        }
        for c in p.tegra_rail.captures_iter(line) {
            // Xavier on JetPack 4 names its rails bare (`GPU 0/0 CPU 463/463 SOC 1392/1392`), so a
            // `CPU` that the pattern reaches is a rail; the memory figures are not, nor Orin's
            // unconnected inputs (`NC 0mW/0mW`, printed once per empty channel).
            if matches!(&c[1], "RAM" | "SWAP" | "IRAM" | "NC") {
                continue;
            }
            if let Ok(v) = c[2].parse::<f64>() {
                self.sink.push(
                    Quantity::Power {
                        rail: c[1].to_string(),
                    },
                    &c[1],
                    t,
                    v,
                );
            }
        }
    }

    fn sysfs(&mut self, path: &str, value: &str) {
        let key = path.trim_start_matches('/');
        let parts: Vec<&str> = key.split('/').collect();
        let num = |prefix: &str| {
            parts
                .iter()
                .find_map(|p| p.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok()))
        };
        let last = parts.last().copied().unwrap_or("");
        if last == "type" {
            if let Some(z) = num("thermal_zone") {
                self.zone_names
                    .insert(format!("thermal_zone{z}"), value.to_string());
            }
            return;
        }
        let Some((v, _)) = units::cell(value) else {
            return;
        };
        let t = self.clock.at(key);
        let freq_kind = units::Kind::Freq {
            cpu: None,
            name: String::new(),
        };
        match last {
            "scaling_cur_freq" | "cpuinfo_cur_freq" => {
                if let Some(cpu) = num("cpu").or_else(|| num("policy")) {
                    self.sink
                        .push(Quantity::CpuFreq { cpu }, path, t, v / 1000.0);
                }
            }
            "scaling_max_freq" => {
                if let Some(cpu) = num("cpu").or_else(|| num("policy")) {
                    let name = format!("cpu{cpu} scaling_max_freq");
                    self.sink.push(
                        Quantity::Other {
                            name,
                            unit: "MHz".into(),
                        },
                        path,
                        t,
                        v / 1000.0,
                    );
                }
            }
            "temp" if num("thermal_zone").is_some() => {
                let zone = parts
                    .iter()
                    .find(|p| p.starts_with("thermal_zone"))
                    .copied()
                    .unwrap_or("");
                let sensor = self
                    .zone_names
                    .get(zone)
                    .cloned()
                    .unwrap_or_else(|| zone.to_string());
                let scale = units::scale_from_value(
                    &units::Kind::Temp {
                        sensor: String::new(),
                    },
                    v,
                );
                self.sink.push(
                    Quantity::Temperature { sensor },
                    path,
                    t,
                    units::apply(v, scale),
                );
            }
            "gpuclk" | "cur_freq" | "clock_mhz" => {
                let scale = if last == "clock_mhz" {
                    1.0
                } else {
                    units::scale_from_value(&freq_kind, v)
                };
                self.sink.push(
                    Quantity::ClockFreq { name: "GPU".into() },
                    path,
                    t,
                    units::apply(v, scale),
                );
            }
            "capacity" if key.contains("power_supply") => {
                self.sink.push(Quantity::BatteryLevel, path, t, v)
            }
            "current_now" => {
                let s = units::scale_from_value(
                    &units::Kind::Current {
                        rail: String::new(),
                    },
                    v,
                );
                self.sink.push(
                    Quantity::Current {
                        rail: "battery".into(),
                    },
                    path,
                    t,
                    units::apply(v, s),
                );
            }
            "voltage_now" => {
                let s = units::scale_from_value(
                    &units::Kind::Voltage {
                        rail: String::new(),
                    },
                    v,
                );
                self.sink.push(
                    Quantity::Voltage {
                        rail: "battery".into(),
                    },
                    path,
                    t,
                    units::apply(v, s),
                );
            }
            "online" if key.contains("power_supply") && !key.contains("battery") => {
                self.sink.push(Quantity::Charging, path, t, v.min(1.0));
            }
            _ => {}
        }
    }

    fn powermetrics(&mut self, line: &str) -> bool {
        let p = patterns();
        if let Some(c) = p.pm_header.captures(line) {
            self.clock.next_sample(self.last_elapsed.map(|ms| ms / 1e3));
            self.last_elapsed = c.get(2).and_then(|m| m.as_str().parse().ok());
            return true;
        }
        let l = line.trim();
        if let Some(c) = p.pm_cpu.captures(l) {
            let Ok(cpu) = c[1].parse::<u32>() else {
                return true;
            };
            let Ok(v) = c[3].parse::<f64>() else {
                return true;
            };
            let t = self.clock.at(&c[0]);
            let q = if &c[4] == "MHz" {
                Quantity::CpuFreq { cpu }
            } else {
                Quantity::CpuLoad { cpu }
            };
            self.sink.push(q, "powermetrics", t, v);
            return true;
        }
        if let Some(c) = p.pm_cluster.captures(l) {
            let Ok(v) = c[3].parse::<f64>() else {
                return true;
            };
            let t = self.clock.at(&format!("{} {}", &c[1], &c[2]));
            let name = c[1].to_string();
            let q = if &c[4] == "MHz" {
                Quantity::ClockFreq { name }
            } else {
                Quantity::Utilization { name }
            };
            self.sink.push(q, "powermetrics", t, v);
            return true;
        }
        if let Some(c) = p.pm_power.captures(l) {
            let Ok(v) = c[2].parse::<f64>() else {
                return true;
            };
            let t = self.clock.at(&c[1]);
            let scale = if &c[3] == "W" { 1e3 } else { 1.0 };
            self.sink.push(
                Quantity::Power {
                    rail: c[1].to_string(),
                },
                "powermetrics",
                t,
                units::apply(v, scale),
            );
            return true;
        }
        if let Some(level) = l.strip_prefix("Current pressure level:") {
            let t = self.clock.at("pressure");
            let v = f64::from(u8::from(!level.trim().eq_ignore_ascii_case("nominal")));
            self.sink.push(
                Quantity::ThrottleFlag {
                    reason: "thermal pressure".into(),
                },
                "powermetrics",
                t,
                v,
            );
            return true;
        }
        false
    }

    fn vcgencmd(&mut self, key: &str, value: &str, number: u64, raw: &str) {
        let t = self.clock.at(key);
        let v = value.trim_end_matches(['V', 'C', '\'']);
        match key {
            "throttled" => {
                // A damaged mask is skipped, not read as "nothing happened".
                let Ok(bits) = u64::from_str_radix(v.trim_start_matches("0x"), 16) else {
                    self.skipped.add(number, raw);
                    return;
                };
                for (bit, reason) in super::THROTTLED_BITS {
                    let on = f64::from(u8::from(bits & (1 << bit) != 0));
                    self.sink.push(
                        Quantity::ThrottleFlag {
                            reason: (*reason).into(),
                        },
                        "vcgencmd get_throttled",
                        t,
                        on,
                    );
                }
            }
            "temp" => match v.parse::<f64>() {
                Ok(c) => self.sink.push(
                    Quantity::Temperature {
                        sensor: "SoC".into(),
                    },
                    "vcgencmd measure_temp",
                    t,
                    c,
                ),
                Err(_) => self.skipped.add(number, raw),
            },
            "volt" => match v.parse::<f64>() {
                Ok(x) => self.sink.push(
                    Quantity::Voltage {
                        rail: "core".into(),
                    },
                    "vcgencmd measure_volts",
                    t,
                    x * 1e3,
                ),
                Err(_) => self.skipped.add(number, raw),
            },
            _ => match v.parse::<f64>() {
                Ok(hz) => self.sink.push(
                    Quantity::ClockFreq { name: "arm".into() },
                    "vcgencmd measure_clock",
                    t,
                    hz / 1e6,
                ),
                Err(_) => self.skipped.add(number, raw),
            },
        }
    }

    fn battery_field(&mut self, key: &str, value: &str) -> bool {
        let k = key.trim().to_ascii_lowercase();
        let v = value.trim();
        let t = self.battery_t;
        match k.as_str() {
            "ac powered" | "usb powered" | "wireless powered" | "dock powered" => {
                let on = v.eq_ignore_ascii_case("true");
                self.plugged = Some(self.plugged.unwrap_or(false) || on);
            }
            "level" => {
                if let Ok(x) = v.parse::<f64>() {
                    self.sink
                        .push(Quantity::BatteryLevel, "dumpsys battery level", t, x);
                }
            }
            "voltage" => {
                if let Ok(x) = v.parse::<f64>() {
                    let s = units::scale_from_value(
                        &units::Kind::Voltage {
                            rail: String::new(),
                        },
                        x,
                    );
                    self.sink.push(
                        Quantity::Voltage {
                            rail: "battery".into(),
                        },
                        "dumpsys battery voltage",
                        t,
                        units::apply(x, s),
                    );
                }
            }
            "temperature" => {
                if let Ok(x) = v.parse::<f64>() {
                    self.sink.push(
                        Quantity::Temperature {
                            sensor: "battery".into(),
                        },
                        "dumpsys battery temperature",
                        t,
                        x / 10.0,
                    );
                }
            }
            "current now" | "current_now" => {
                if let Ok(x) = v.parse::<f64>() {
                    let s = units::scale_from_value(
                        &units::Kind::Current {
                            rail: String::new(),
                        },
                        x,
                    );
                    self.sink.push(
                        Quantity::Current {
                            rail: "battery".into(),
                        },
                        "dumpsys battery current now",
                        t,
                        units::apply(x, s),
                    );
                }
            }
            _ => return false,
        }
        true
    }
}

impl LineParser for TextTelemetryParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        let p = patterns();
        let mut text = line.text.trim_end();
        if text.trim().is_empty() {
            return;
        }
        if self.sbc.is_none() && sbc_bench::is_marker(text) {
            self.sbc = Some(SbcBench::default());
        }
        if let Some(m) = &mut self.sbc {
            if m.line(line.number, text, &mut self.sink) {
                self.lines_used += 1;
                return;
            }
        }
        if self.states.line(self.input, line.number, text, ev) {
            self.lines_used += 1;
            return;
        }
        if self.nvsmi.is_none() && nvidia_smi_query::is_marker(text) {
            self.nvsmi = Some(NvidiaSmiQuery::default());
        }
        if let Some(q) = &mut self.nvsmi {
            if q.line(line.number, text, &mut self.clock, &mut self.sink) {
                return;
            }
        }
        if self.jetson.is_none() && jetson::is_marker(text) {
            self.jetson = Some(Jetson::default());
        }
        if let Some(j) = &mut self.jetson {
            let input = self.input;
            if j.line(
                input,
                line.number,
                text,
                &mut self.clock,
                &mut self.sink,
                ev,
            ) {
                return;
            }
        }
        // A time stamp that starts the line (tegrastats since JetPack 5, `ts` loops).
        if let Some(c) = p.lead_stamp.captures(text) {
            if let Some(st) = time::parse(&c[1], NumericHint::Unknown) {
                self.clock.set(st.s);
                self.sink.set_absolute(st.absolute);
                text = &text[c[0].len()..];
            }
        } else if let Ok(epoch) = text.trim().parse::<f64>() {
            // `date +%s` between samples.
            let st = time::numeric(epoch, NumericHint::Unknown);
            if st.absolute {
                self.clock.set(st.s);
                self.sink.set_absolute(true);
                self.lines_used += 1;
            }
            return;
        }
        let trimmed = text.trim();
        self.lines_used += 1;
        if trimmed.contains("RAM ") && is_tegrastats(trimmed) {
            self.tegrastats(text);
            return;
        }
        // dumpsys thermalservice
        if let Some(status) = trimmed.strip_prefix("Thermal Status:") {
            self.clock.next_sample(None);
            if let Ok(s) = status.trim().parse::<f64>() {
                let t = self.clock.at("thermal status");
                self.sink.push(
                    Quantity::ThrottleFlag {
                        reason: "Android thermal status".into(),
                    },
                    "dumpsys thermalservice",
                    t,
                    f64::from(u8::from(s >= 1.0)),
                );
            }
            return;
        }
        if trimmed.starts_with("Cached temperatures:") {
            self.section = Section::ThermalCached;
            return;
        }
        if trimmed.starts_with("Current temperatures from HAL:") {
            self.section = Section::ThermalCurrent;
            return;
        }
        if trimmed.starts_with("Current cooling devices")
            || trimmed.starts_with("Temperature static thresholds")
            || trimmed.starts_with("HAL Ready")
        {
            self.section = Section::ThermalOther;
            return;
        }
        if let Some(c) = p.thermal_hal.captures(trimmed) {
            if self.section != Section::ThermalCurrent && self.section != Section::None {
                return; // the cache can be stale; thresholds are not readings
            }
            let name = c[3].trim().to_string();
            if let Ok(v) = c[1].parse::<f64>() {
                let t = self.clock.at(&name);
                self.sink.push(
                    Quantity::Temperature {
                        sensor: name.clone(),
                    },
                    "dumpsys thermalservice",
                    t,
                    v,
                );
            }
            return;
        }
        // dumpsys battery
        if trimmed.starts_with("Current Battery Service state") {
            self.flush_battery();
            self.clock.next_sample(None);
            self.battery_t = self.clock.at("battery");
            self.section = Section::Battery;
            return;
        }
        if self.section == Section::Battery {
            if let Some((k, v)) = trimmed.split_once(':') {
                if self.battery_field(k, v) {
                    return;
                }
            }
        }
        // sysfs dumps
        if let Some(c) = p.sysfs.captures(trimmed) {
            let (path, value) = (c[1].to_string(), c[2].to_string());
            self.sysfs(&path, &value);
            return;
        }
        if self.powermetrics(text) {
            return;
        }
        if let Some(c) = p.vc.captures(trimmed) {
            let (k, v) = (c[1].to_string(), c[2].to_string());
            self.vcgencmd(&k, &v, line.number, trimmed);
            return;
        }
        self.lines_used -= 1;
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.flush_battery();
        self.states.finish(ev);
        let nested = [
            self.nvsmi.as_ref().map(|q| &q.skipped),
            self.jetson.as_ref().map(|j| &j.skipped),
            self.sbc.as_ref().map(|m| &m.skipped),
        ];
        for s in nested.into_iter().flatten() {
            for (n, l) in &s.first {
                self.skipped.add(*n, l);
            }
            self.skipped.count += s.count - s.first.len() as u64;
        }
        ev.problem_lines(self.input, ProblemCode::StatusLinesSkipped, &self.skipped);
        let stated_mode = ev.power_modes.iter().any(|m| m.input == self.input)
            || ev.cpu_clocks.iter().any(|c| c.input == self.input)
            || ev.gpu_states.iter().any(|g| g.input == self.input);
        if self.sink.is_empty() && !stated_mode {
            ev.problem(self.input, ProblemCode::TelemetryNoSeries, None);
        }
        self.sink.finish(self.input, ev);
    }
}

/// The CPU list (`CPU [`, `cpu [` on L4T R21 / TK1) or the GPU engine that every tegrastats line
/// prints beside its `RAM` figure.
fn is_tegrastats(t: &str) -> bool {
    t.contains("CPU [") || t.contains("cpu [") || t.contains("GR3D")
}

/// Whether text lines look like one of the exporters above (used by the sniffer).
pub fn looks_like(lines: &[&str]) -> bool {
    let p = patterns();
    let hits = lines
        .iter()
        .filter(|l| {
            let t = l.trim();
            (t.contains("RAM ") && is_tegrastats(t))
                || t.starts_with("Current Battery Service state")
                || t.starts_with("AC powered:")
                || t.contains("Temperature{mValue=")
                || t.starts_with("Thermal Status:")
                || (p.sysfs.is_match(t)
                    && (t.contains("cpufreq/")
                        || t.contains("thermal_zone")
                        || t.contains("power_supply/")))
                || t.starts_with("*** Sampled system activity")
                || t.contains("HW active frequency:")
                || t.starts_with("throttled=0x")
                || (t.starts_with("temp=") && t.ends_with("'C"))
                || nvidia_smi_query::is_marker(t)
                || jetson::is_marker(t)
                || sbc_bench::is_marker(t)
                || power_state::is_marker(t)
        })
        .count();
    // nvidia-smi's banner and nvpmodel's mode line are unmistakable on their own (a `-d POWER`
    // report has no other marker; `nvpmodel -q --verbose` buries its mode in NVPM lines).
    hits >= 2
        || (hits >= 1 && lines.len() <= 3)
        || lines
            .iter()
            .any(|l| l.contains("==NVSMI LOG==") || l.trim().starts_with("NV Power Mode:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("t.txt");
        let mut p = TextTelemetryParser::new(id);
        for (i, l) in text.lines().enumerate() {
            p.line(
                Line {
                    number: i as u64 + 1,
                    text: l,
                },
                &mut ev,
            );
        }
        p.finish(&mut ev);
        ev
    }

    fn pts(ev: &Evidence, q: &Quantity) -> Vec<(f64, f64)> {
        ev.series
            .iter()
            .filter(|s| &s.quantity == q)
            .flat_map(|s| s.points.clone())
            .collect()
    }

    #[test]
    fn tegrastats_lines() {
        let ev = parse("03-14-2024 10:00:01 RAM 2448/7772MB (lfb 4x4MB) SWAP 0/3886MB (cached 0MB) CPU [5%@729,off,3%@729,100%@1984] EMC_FREQ 0%@2133 GR3D_FREQ 99%@[305,305] cpu@47.687C tj@48.8C VDD_IN 5000mW/5000mW VDD_CPU_GPU_CV 779mW/779mW\n03-14-2024 10:00:02 RAM 2448/7772MB CPU [5%@729,off,3%@729,100%@1420] cpu@58.5C VDD_IN 5100/5050\n");
        let f3 = pts(&ev, &Quantity::CpuFreq { cpu: 3 });
        assert_eq!(
            f3.iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![1984.0, 1420.0]
        );
        assert!((f3[1].0 - f3[0].0 - 1.0).abs() < 1e-9);
        assert!(pts(&ev, &Quantity::CpuFreq { cpu: 1 }).is_empty());
        assert_eq!(
            pts(
                &ev,
                &Quantity::Temperature {
                    sensor: "cpu".into()
                }
            )[1]
            .1,
            58.5
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::Power {
                    rail: "VDD_IN".into()
                }
            )
            .len(),
            2
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::ClockFreq {
                    name: "GR3D_FREQ".into()
                }
            )[0]
            .1,
            305.0
        );
        assert!(ev.series.iter().all(|s| s.absolute));
    }

    #[test]
    fn tegrastats_tk1_xavier_and_jetpack6_spellings() {
        // L4T R21 (TK1): lowercase `cpu`, one clock after the list, bare engine names.
        let ev = parse("RAM 1331/1746MB (lfb 2x4MB) SWAP 0/0MB (cached 0MB) cpu [52%,15%,off,0%]@2065 EMC 17%@924 AVP 0%@204 VDE 120 GR3D 0%@72 EDP limit 2065\nRAM 1331/1746MB (lfb 2x4MB) SWAP 0/0MB (cached 0MB) cpu [60%,15%,off,0%]@1836 EMC 35%@924 AVP 0%@204 VDE 120 GR3D 97%@852 EDP limit 1836\n");
        assert_eq!(
            pts(&ev, &Quantity::CpuFreq { cpu: 0 }),
            vec![(0.0, 2065.0), (1.0, 1836.0)]
        );
        assert_eq!(pts(&ev, &Quantity::CpuLoad { cpu: 1 })[1].1, 15.0);
        assert!(pts(&ev, &Quantity::CpuLoad { cpu: 2 }).is_empty());
        assert_eq!(
            pts(
                &ev,
                &Quantity::ClockFreq {
                    name: "GR3D".into()
                }
            )[1]
            .1,
            852.0
        );
        assert_eq!(
            pts(&ev, &Quantity::Utilization { name: "EMC".into() })[1].1,
            35.0
        );
        // Xavier, JetPack 4: rails without a VDD_ prefix or a unit, `CPU` among them.
        let ev = parse("RAM 2134/31920MB (lfb 6523x4MB) SWAP 0/15960MB (cached 0MB) CPU [1%@1190,0%@1190] EMC_FREQ 0%@2133 GR3D_FREQ 0%@1377 APE 150 AO@34C GPU@34.5C PMIC@100C CPU@35C GPU 0/0 CPU 463/463 SOC 1392/1392 CV 0/0 VDDRQ 309/309 SYS5V 2224/2224\n");
        assert_eq!(
            pts(&ev, &Quantity::Power { rail: "CPU".into() }),
            vec![(0.0, 463.0)]
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::Power {
                    rail: "SYS5V".into()
                }
            ),
            vec![(0.0, 2224.0)]
        );
        assert!(pts(&ev, &Quantity::Power { rail: "RAM".into() }).is_empty());
        // TX2 on R28 / R32: loads without clocks, `VDD_SYS_*` rails, no SWAP figure.
        let ev = parse("RAM 2020/7852MB (lfb 1164x4MB) CPU [9%@345,21%@345] EMC_FREQ 0% GR3D_FREQ 7% PLL@42.5C MCPU@42.5C PMIC@100C GPU@41C BCPU@42.5C thermal@41.9C VDD_SYS_GPU 153/158 VDD_SYS_SOC 536/547 VDD_IN 3140/3208 VDD_SYS_CPU 536/590\n");
        assert_eq!(
            pts(
                &ev,
                &Quantity::Utilization {
                    name: "GR3D_FREQ".into()
                }
            ),
            vec![(0.0, 7.0)]
        );
        assert!(pts(
            &ev,
            &Quantity::ClockFreq {
                name: "GR3D_FREQ".into()
            }
        )
        .is_empty());
        assert_eq!(
            pts(
                &ev,
                &Quantity::Power {
                    rail: "VDD_SYS_CPU".into()
                }
            ),
            vec![(0.0, 536.0)]
        );
        // JetPack 6 on AGX Orin: upper-case sensors, a clock without a load, unconnected inputs.
        let ev = parse("04-11-2025 10:36:27 RAM 4321/62801MB (lfb 1759x4MB) SWAP 19/31400MB (cached 0MB) CPU [0%@729,0%@729] EMC_FREQ 0%@2133 GR3D_FREQ 0%@[0,0] VIC_FREQ 729 APE 174 CV0@-256C CPU@44.562C SOC2@40.093C GPU@-256C tj@44.343C VDD_GPU_SOC 2340mW/2340mW VIN_SYS_5V0 4025mW/4025mW NC 0mW/0mW VDDQ_VDD2_1V8AO 301mW/301mW NC 0mW/0mW\n");
        assert!(pts(&ev, &Quantity::Power { rail: "NC".into() }).is_empty());
        assert_eq!(
            pts(
                &ev,
                &Quantity::ClockFreq {
                    name: "VIC_FREQ".into()
                }
            )
            .iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
            vec![729.0]
        );
        assert!(pts(
            &ev,
            &Quantity::Temperature {
                sensor: "GPU".into()
            }
        )
        .is_empty());
        assert_eq!(
            pts(
                &ev,
                &Quantity::Power {
                    rail: "VDDQ_VDD2_1V8AO".into()
                }
            )
            .iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
            vec![301.0]
        );
        assert!(pts(
            &ev,
            &Quantity::Temperature {
                sensor: "PMIC".into()
            }
        )
        .is_empty());
    }

    #[test]
    fn dumpsys_blocks() {
        let ev = parse("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  level: 85\n  voltage: 4012\n  temperature: 326\nCurrent Battery Service state:\n  AC powered: false\n  USB powered: false\n  level: 84\n  voltage: 3990\n  temperature: 330\n");
        assert_eq!(pts(&ev, &Quantity::Charging), vec![(0.0, 1.0), (1.0, 0.0)]);
        assert_eq!(
            pts(
                &ev,
                &Quantity::Temperature {
                    sensor: "battery".into()
                }
            )[0]
            .1,
            32.6
        );
        let ev = parse("Thermal Status: 0\nCached temperatures:\n\tTemperature{mValue=99.0, mType=0, mName=STALE, mStatus=0}\nHAL Ready: true\nCurrent temperatures from HAL:\n\tTemperature{mValue=41.5, mType=3, mName=VIRTUAL-SKIN, mStatus=0}\nThermal Status: 1\nCurrent temperatures from HAL:\n\tTemperature{mValue=44.0, mType=3, mName=VIRTUAL-SKIN, mStatus=1}\n");
        assert_eq!(
            pts(
                &ev,
                &Quantity::Temperature {
                    sensor: "VIRTUAL-SKIN".into()
                }
            ),
            vec![(0.0, 41.5), (1.0, 44.0)]
        );
        assert!(pts(
            &ev,
            &Quantity::Temperature {
                sensor: "STALE".into()
            }
        )
        .is_empty());
    }

    #[test]
    fn sysfs_powermetrics_vcgencmd() {
        let ev = parse("/sys/class/thermal/thermal_zone3/type:cpu-1-0-usr\n/sys/devices/system/cpu/cpu4/cpufreq/scaling_cur_freq:2419200\n/sys/class/thermal/thermal_zone3/temp:45000\n/sys/devices/system/cpu/cpu4/cpufreq/scaling_cur_freq:1804800\n/sys/class/thermal/thermal_zone3/temp:52000\n");
        assert_eq!(
            pts(&ev, &Quantity::CpuFreq { cpu: 4 }),
            vec![(0.0, 2419.2), (1.0, 1804.8)]
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::Temperature {
                    sensor: "cpu-1-0-usr".into()
                }
            )[1],
            (1.0, 52.0)
        );
        let ev = parse("*** Sampled system activity (Wed Mar 15 10:00:00 2023 -0700) (1002.90ms elapsed) ***\nE-Cluster HW active frequency: 1248 MHz\nCPU 4 frequency: 2039 MHz\nCPU Power: 823 mW\n**** Thermal pressure ****\nCurrent pressure level: Nominal\n*** Sampled system activity (Wed Mar 15 10:00:01 2023 -0700) (1000.00ms elapsed) ***\nCPU 4 frequency: 1500 MHz\nCurrent pressure level: Heavy\n");
        let f = pts(&ev, &Quantity::CpuFreq { cpu: 4 });
        assert_eq!(f.len(), 2);
        assert!((f[1].0 - 1.0029).abs() < 1e-6, "{f:?}");
        assert_eq!(
            pts(
                &ev,
                &Quantity::ThrottleFlag {
                    reason: "thermal pressure".into()
                }
            )
            .iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
            vec![0.0, 1.0]
        );
        let ev = parse("throttled=0x50005\ntemp=47.2'C\nthrottled=0x0\ntemp=48.0'C\n");
        // Bit 16 holds "has occurred" after the low bit cleared; bit 18 too.
        assert_eq!(
            pts(
                &ev,
                &Quantity::ThrottleFlag {
                    reason: "under-voltage has occurred".into()
                }
            )
            .iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
            vec![1.0, 0.0]
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::ThrottleFlag {
                    reason: "under-voltage".into()
                }
            ),
            vec![(0.0, 1.0), (1.0, 0.0)]
        );
        assert_eq!(
            pts(
                &ev,
                &Quantity::Temperature {
                    sensor: "SoC".into()
                }
            )[1]
            .1,
            48.0
        );
    }

    #[test]
    fn damaged_status_values_are_skipped_not_zero() {
        let ev = parse("throttled=0x50000\nthrottled=0xZZ\ntemp=4x.2'C\nthrottled=0x80008\n");
        let occurred = pts(
            &ev,
            &Quantity::ThrottleFlag {
                reason: "under-voltage has occurred".into(),
            },
        );
        assert_eq!(
            occurred.iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![1.0, 0.0]
        );
        let p = &ev.inputs[0].problems;
        let skipped = p
            .iter()
            .find(|p| p.code == ProblemCode::StatusLinesSkipped)
            .and_then(|p| p.lines.clone())
            .expect("skipped lines reported");
        assert_eq!(skipped.count, 2);
        assert_eq!(skipped.first[0], (2, "throttled=0xZZ".to_string()));
    }
}

//! The power-state status tools as one reader, for the two places their output arrives: alone
//! (a telemetry text input) and pasted into a framework log (an issue that holds the server log,
//! then `nvidia-smi`, then `cpufreq-info`). Each tool starts reading at its first marker line.

use super::cpufreq_info::{self, CpufreqInfo};
use super::nvidia_smi_table::{self, NvidiaSmiTable};
use super::power_profile::{self, PowerProfile};
use crate::evidence::{Evidence, InputId};

/// Words at least one line of each tool holds, for a log's keyword gate: the reader then follows
/// the tool's other lines itself.
pub const KEYWORDS: &[&str] = &[
    "analyzing CPU",
    "hardware limits:",
    "current CPU frequency",
    "NVIDIA-SMI",
    "Pwr:Usage/Cap",
    "MiB /",
    "LowPowerModeEnabled=",
    "BatterySaverEnabled=",
    "global low_power",
    "powerprofilesctl",
    "platform_profile",
    "lowpowermode",
    "powermode",
    "Power Scheme GUID",
    "perf_profile",
    "perf-profile",
    "\"power_mode\"",
    "htp_performance_mode",
];

#[derive(Default)]
pub struct PowerStates {
    cpufreq: Option<CpufreqInfo>,
    smi: Option<NvidiaSmiTable>,
    profile: Option<PowerProfile>,
}

/// Whether a line belongs to one of these tools (used by the sniffer).
pub fn is_marker(line: &str) -> bool {
    cpufreq_info::is_marker(line)
        || nvidia_smi_table::is_marker(line)
        || power_profile::is_marker(line)
}

impl PowerStates {
    /// Whether a tool has started reading.
    pub fn active(&self) -> bool {
        self.cpufreq.is_some() || self.smi.is_some() || self.profile.is_some()
    }

    /// Reads one line; `false` when none of the tools claims it.
    pub fn line(&mut self, input: InputId, number: u64, text: &str, ev: &mut Evidence) -> bool {
        if self.smi.is_none() && nvidia_smi_table::is_marker(text) {
            self.smi = Some(NvidiaSmiTable::default());
        }
        if let Some(s) = &mut self.smi {
            if s.line(input, number, text, ev) {
                return true;
            }
        }
        if self.cpufreq.is_none() && cpufreq_info::is_marker(text) {
            self.cpufreq = Some(CpufreqInfo::default());
        }
        if let Some(c) = &mut self.cpufreq {
            if c.line(input, number, text, ev) {
                return true;
            }
        }
        if self.profile.is_none() && power_profile::is_marker(text) {
            self.profile = Some(PowerProfile::default());
        }
        self.profile
            .as_mut()
            .is_some_and(|p| p.line(input, number, text, ev))
    }

    pub fn finish(&mut self, ev: &mut Evidence) {
        if let Some(c) = &mut self.cpufreq {
            c.finish(ev);
        }
    }
}

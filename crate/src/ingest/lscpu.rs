//! util-linux `lscpu`: the extended table (`lscpu -e` / `--extended`) and the summary form.
//!
//! The table's header names its columns, and which ones appear depends on the version and the
//! machine: `CPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE MAXMHZ MINMHZ MHZ` on a recent Arm board,
//! without `NODE` or the cache column elsewhere, without the `MHZ` columns where there is no
//! cpufreq driver (VMs, some boards). Rows hold one token per column; an offline CPU shows `-`
//! (or nothing) in the columns it cannot know. `MAXMHZ` is lscpu's reading of each CPU's
//! `cpufreq/cpuinfo_max_freq`, so it feeds the same topology hint (clusters by maximum clock).
//!
//! The summary (`Architecture:`, `CPU(s):`, `Model name:`, ...) gives the CPU count, the
//! architecture and the model, which tell a uniform x86 CPU from an unknown one.

use crate::evidence::sched::{CpuLimit, CpuLimitKind, TopologyHints, MAX_CPU};
use crate::evidence::InputId;

/// Whether `line` is the header of `lscpu -e`.
pub fn is_header(line: &str) -> bool {
    let cols: Vec<&str> = line.split_whitespace().collect();
    cols.first() == Some(&"CPU")
        && cols.len() >= 3
        && cols.iter().all(|c| {
            c.chars()
                .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || matches!(ch, ':' | '%'))
                || c.contains(':')
        })
        && cols
            .iter()
            .any(|c| matches!(*c, "CORE" | "SOCKET" | "ONLINE" | "MAXMHZ"))
}

/// Whether `line` opens the summary form (its first field is `Architecture:`).
pub fn is_summary_start(line: &str) -> bool {
    line.trim_start().starts_with("Architecture:")
}

/// Field names of lscpu's summary (util-linux 2.2x to 2.40), by prefix.
const SUMMARY_KEYS: &[&str] = &[
    "Architecture",
    "CPU op-mode",
    "Address sizes",
    "Byte Order",
    "CPU(s)",
    "On-line CPU",
    "Off-line CPU",
    "Vendor ID",
    "Model name",
    "Model",
    "BIOS",
    "CPU family",
    "Thread(s) per",
    "Core(s) per",
    "Socket(s)",
    "Cluster(s)",
    "Book(s)",
    "Drawer(s)",
    "Stepping",
    "Frequency boost",
    "CPU max MHz",
    "CPU min MHz",
    "CPU MHz",
    "CPU(s) scaling MHz",
    "BogoMIPS",
    "Flags",
    "Virtualization",
    "Hypervisor",
    "L1d",
    "L1i",
    "L2",
    "L3",
    "L4",
    "Caches",
    "NUMA",
    "Vulnerabilit",
    "Dispatching mode",
    "Machine type",
];

/// Whether an input is lscpu output (either form) from its first line on, so a log that merely
/// quotes lscpu further down is still read as a log.
pub fn looks_like(lines: &[&str]) -> bool {
    let body: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('$') && !l.contains("$ lscpu"))
        .take(200)
        .collect();
    let Some(first) = body.first() else {
        return false;
    };
    if !(is_header(first) || is_summary_start(first)) {
        return false;
    }
    let ours = body
        .iter()
        .filter(|l| {
            is_header(l)
                || l.split_whitespace()
                    .next()
                    .is_some_and(|c| c.parse::<u32>().is_ok())
                || l.split_once(':')
                    .is_some_and(|(k, _)| SUMMARY_KEYS.iter().any(|s| k.trim().starts_with(s)))
        })
        .count();
    ours * 10 >= body.len() * 8
}

#[derive(Default)]
pub struct Lscpu {
    /// Column names of the extended table being read.
    columns: Option<Vec<String>>,
    /// Inside the summary form: its `Key: value` lines are all lscpu's.
    summary: bool,
}

impl Lscpu {
    /// Reads a line of either form into the topology hints. `None` when the line is not
    /// lscpu's; `Some(false)` when it is a table row that does not fit its header.
    pub fn line(
        &mut self,
        input: InputId,
        number: u64,
        trimmed: &str,
        hints: &mut TopologyHints,
    ) -> Option<bool> {
        // The shell prompt of a pasted session: `user@host:~$ lscpu -e`, or a bare prompt.
        if (super::lines::is_shell_prompt(trimmed) && trimmed.contains("lscpu")) || trimmed == "$" {
            return Some(true);
        }
        if trimmed.ends_with('$') && trimmed.contains('@') && !trimmed.contains(' ') {
            return Some(true);
        }
        if is_header(trimmed) {
            self.columns = Some(trimmed.split_whitespace().map(str::to_string).collect());
            self.summary = false;
            return Some(true);
        }
        if let Some(cols) = &self.columns {
            let first = trimmed.split_whitespace().next().unwrap_or("");
            if first.parse::<u32>().is_ok() {
                return Some(row(cols, trimmed, hints));
            }
            self.columns = None;
        }
        if is_summary_start(trimmed) {
            self.summary = true;
        }
        if !self.summary {
            return None;
        }
        let (k, v) = trimmed.split_once(':')?;
        let (k, v) = (k.trim(), v.trim());
        match k {
            // /proc/cpuinfo pasted after the summary.
            "processor" => {
                self.summary = false;
                return None;
            }
            "Architecture" => hints.arch = Some(crate::evidence::clip(v)),
            "CPU(s)" => {
                if let Ok(n) = v.parse::<u32>() {
                    hints.nr_cpus = Some(hints.nr_cpus.map_or(n, |m| m.max(n)));
                    hints.add_cpu_limit(CpuLimit {
                        input,
                        line: number,
                        kind: CpuLimitKind::Online,
                        cpus: f64::from(n),
                        text: crate::evidence::clip(trimmed),
                    });
                }
            }
            "Thread(s) per core" => {
                hints.threads_per_core = v.parse::<u32>().ok().filter(|n| (1..=8).contains(n))
            }
            // Sockets follow the cores per socket in every util-linux version.
            "Core(s) per socket" | "Core(s) per cluster" => {
                hints.physical_cores = v.parse::<u32>().ok().filter(|n| (1..=4096).contains(n))
            }
            "Socket(s)" => {
                if let (Some(c), Ok(s)) = (hints.physical_cores, v.parse::<u32>()) {
                    if (2..=64).contains(&s) {
                        hints.physical_cores = Some(c * s);
                    }
                }
            }
            "Flags" => hints.note_cpu_flags(input, number, "Flags", v),
            "Model name" if hints.cpu_desc.is_none() => {
                hints.cpu_desc = Some(crate::evidence::clip(v))
            }
            _ => {}
        }
        Some(true)
    }
}

/// One row of the table: the CPU and, when online with a known maximum, its maximum clock.
fn row(cols: &[String], text: &str, hints: &mut TopologyHints) -> bool {
    let cells: Vec<&str> = text.split_whitespace().collect();
    let cell = |name: &str| {
        cols.iter()
            .position(|c| c == name)
            .and_then(|i| cells.get(i).copied())
    };
    let Some(cpu) = cell("CPU").and_then(|c| c.parse::<u32>().ok()) else {
        return false;
    };
    // Offline CPUs may leave trailing cells empty; anything else must fill every column.
    let offline = cell("ONLINE") == Some("no");
    if cells.len() != cols.len() && !offline {
        return false;
    }
    if offline || cpu > MAX_CPU {
        return true;
    }
    if let Some(core) = cell("CORE").and_then(|c| c.parse::<u32>().ok()) {
        hints.core_of.insert(cpu, core);
    }
    match cell("MAXMHZ") {
        None | Some("-") => true,
        Some(v) => match v.parse::<f64>() {
            Ok(mhz) if mhz.is_finite() && mhz > 0.0 && mhz < 100_000.0 => {
                hints.max_khz.insert(cpu, (mhz * 1000.0).round() as u64);
                true
            }
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (TopologyHints, Vec<usize>) {
        let mut l = Lscpu::default();
        let mut h = TopologyHints::default();
        let mut bad = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if l.line(0, i as u64 + 1, line.trim(), &mut h) == Some(false) {
                bad.push(i + 1);
            }
        }
        (h, bad)
    }

    #[test]
    fn extended_table_variants() {
        let rk = "CPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE    MAXMHZ   MINMHZ      MHZ\n  0    0      0    0 0:0:0:0          yes 1800.0000 408.0000 1800.0000\n  3    0      0    3 3:3:3:0          yes 1800.0000 408.0000  408.0000\n  4    0      0    4 4:4:4:0          yes 2352.0000 408.0000 2352.0000\n  7    0      0    7 7:7:7:0          yes 2352.0000 408.0000 1608.0000\n";
        let (h, bad) = read(rk);
        assert_eq!(h.core_of.get(&7), Some(&7));
        assert_eq!(h.max_khz.get(&0), Some(&1_800_000));
        assert_eq!(h.max_khz.get(&7), Some(&2_352_000));
        assert!(bad.is_empty());
        // No NODE or cache column, one CPU offline, no MHz columns at all.
        let pi = "CPU SOCKET CORE ONLINE MAXMHZ MINMHZ\n0 0 0 yes 1500.0000 600.0000\n1 - - no - -\n2 0 2 yes 1500.0000 600.0000\n";
        let (h, bad) = read(pi);
        assert_eq!(h.max_khz.keys().copied().collect::<Vec<_>>(), vec![0, 2]);
        assert!(bad.is_empty());
        let vm = "CPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE\n  0    0      0    0 0:0:0:0          yes\n  1    0      0    1 1:1:1:0          yes\n";
        let (h, _) = read(vm);
        assert!(h.max_khz.is_empty());
    }

    #[test]
    fn damaged_rows_are_reported_and_the_rest_kept() {
        let t = "CPU SOCKET CORE ONLINE MAXMHZ MINMHZ\n0 0 0 yes 1800.0000 408.0000\n1 0 1 yes 18x0.0 408.0000\n2 0 2 yes 1800.0000\n3 0 3 yes 1800.0000 408.0000\n";
        let (h, bad) = read(t);
        assert_eq!(bad, vec![3, 4]);
        assert_eq!(h.max_khz.keys().copied().collect::<Vec<_>>(), vec![0, 3]);
    }

    #[test]
    fn summary_form() {
        let t = "Architecture:                    x86_64\nCPU op-mode(s):                  32-bit, 64-bit\nCPU(s):                          16\nVendor ID:                       AuthenticAMD\nModel name:                      AMD Ryzen 7 7840U w/ Radeon  780M Graphics\nFlags:                           fpu vme de pse avx2 avx512f\n";
        let (h, bad) = read(t);
        assert_eq!(h.nr_cpus, Some(16));
        assert_eq!(h.arch.as_deref(), Some("x86_64"));
        assert!(h.cpu_desc.as_deref().unwrap().contains("Ryzen"));
        let flags = h.cpu_flags.expect("the Flags line");
        assert_eq!((flags.line, flags.field), (6, "Flags"));
        assert!(flags.names.contains("avx2") && flags.names.contains("avx512f"));
        assert!(bad.is_empty());
        let t = "Architecture: x86_64\nCPU(s): 20\nOn-line CPU(s) list: 0-19\nThread(s) per core: 2\nCore(s) per socket: 14\nSocket(s): 1\n";
        let (h, _) = read(t);
        assert_eq!((h.threads_per_core, h.physical_cores), (Some(2), Some(14)));
        assert_eq!(h.cpu_limits.len(), 1);
        assert_eq!(h.cpu_limits[0].cpus, 20.0);
        let (h, _) = read("Architecture: x86_64\nCore(s) per socket: 8\nSocket(s): 2\n");
        assert_eq!(h.physical_cores, Some(16));
        assert!(!is_header("CPU usage is high"));
        assert!(is_header("CPU SOCKET CORE ONLINE"));
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "CPU",
            "CPU CORE\n",
            "CPU CORE\n99999999999 1",
            "CPU MAXMHZ CORE\n0 1e400 0\n1 -5 0\n2 nan 0",
            "Architecture:\n:\nCPU(s): -1\nModel name:",
            "CPU SOCKET CORE ONLINE MAXMHZ\n4294967296 0 0 yes 1.0\n",
        ] {
            read(t);
        }
    }
}

//! The bare list a shell prints for every CPU's maximum clock:
//!
//! ```text
//! $ cat /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq
//! 1804800
//! 1804800
//! 2419200
//! ```
//!
//! The values carry no CPU number, so the command decides the order: a glob (`cpu*`,
//! `cpu[0-9]*`) expands in name order (`cpu0 cpu1 cpu10 cpu11 cpu2 ...`), a brace range or a
//! `for i in 0 1 2 ...` loop in number order. With a `grep . .../cpu*/...` the lines carry their
//! path and are read one by one instead (`trace.rs`).

use crate::evidence::sched::{TopologyHints, MAX_CPU};

/// A list being read: one value per CPU, in the order the command produced them.
#[derive(Debug)]
pub struct MaxFreqList {
    glob: bool,
    khz: Vec<u64>,
}

/// Whether `line` is a command that prints the bare list (it names `cpuinfo_max_freq` for many
/// CPUs at once, and carries no value itself).
fn is_command(line: &str) -> bool {
    line.contains("cpuinfo_max_freq")
        && (line.contains("cpu*")
            || line.contains("cpu[")
            || line.contains("cpu{")
            || line.contains("for "))
        && !line.trim_end().ends_with(|c: char| c.is_ascii_digit())
}

/// A plausible maximum clock in kHz (100 MHz to 10 GHz), alone on its line.
fn value(line: &str) -> Option<u64> {
    let v: u64 = line.trim().parse().ok()?;
    (100_000..=10_000_000).contains(&v).then_some(v)
}

impl MaxFreqList {
    pub fn start(line: &str) -> Option<MaxFreqList> {
        is_command(line).then(|| MaxFreqList {
            glob: line.contains("cpu*") || line.contains("cpu["),
            khz: Vec::new(),
        })
    }

    /// Takes the next value; `false` when `line` is not one (the list has ended).
    pub fn push(&mut self, line: &str) -> bool {
        match value(line) {
            Some(v) if self.khz.len() <= MAX_CPU as usize => {
                self.khz.push(v);
                true
            }
            _ => false,
        }
    }

    /// Gives each value its CPU, in the command's order.
    pub fn finish(self, hints: &mut TopologyHints) {
        let n = self.khz.len() as u32;
        let mut cpus: Vec<u32> = (0..n).collect();
        if self.glob {
            cpus.sort_by_key(|c| c.to_string());
        }
        for (cpu, khz) in cpus.into_iter().zip(self.khz) {
            hints.max_khz.entry(cpu).or_insert(khz);
        }
    }
}

/// Whether the first lines of an input are such a command and its list.
pub fn looks_like(lines: &[&str]) -> bool {
    lines.iter().enumerate().any(|(i, l)| {
        is_command(l)
            && lines[i + 1..]
                .iter()
                .take(2)
                .filter(|v| value(v).is_some())
                .count()
                == 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> TopologyHints {
        let mut hints = TopologyHints::default();
        let mut list = None;
        for line in text.lines() {
            if let Some(l) = list.as_mut() {
                if MaxFreqList::push(l, line) {
                    continue;
                }
            }
            if let Some(l) = list.take() {
                MaxFreqList::finish(l, &mut hints);
            }
            list = MaxFreqList::start(line);
        }
        if let Some(l) = list {
            l.finish(&mut hints);
        }
        hints
    }

    #[test]
    fn a_glob_lists_cpus_in_name_order() {
        // Twelve CPUs: the glob gives cpu0 cpu1 cpu10 cpu11 cpu2 ... cpu9.
        let mut text =
            String::from("$ cat /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq\n");
        let order = [0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9];
        for cpu in order {
            text += &format!(
                "{}\n",
                if cpu >= 8 {
                    3_000_000
                } else {
                    2_000_000 + cpu * 1000
                }
            );
        }
        let h = read(&text);
        assert_eq!(h.max_khz.len(), 12);
        assert_eq!(h.max_khz[&2], 2_002_000);
        assert_eq!(h.max_khz[&10], 3_000_000);
        assert_eq!(h.max_khz[&7], 2_007_000);
    }

    #[test]
    fn a_loop_lists_cpus_in_number_order() {
        let h = read("console:/ # for i in 0 1 2 3 4 5 6 7; do cat /sys/devices/system/cpu/cpu$i/cpufreq/cpuinfo_max_freq; done\n1804800\n1804800\n1804800\n1804800\n2419200\n2419200\n2419200\n3187200\n");
        assert_eq!(h.max_khz.len(), 8);
        assert_eq!(h.max_khz[&4], 2_419_200);
        assert_eq!(h.max_khz[&7], 3_187_200);
        // A loop over a glob still runs in the glob's order.
        let h = read("$ for f in /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq; do cat $f; done\n1\n");
        assert!(h.max_khz.is_empty(), "1 kHz is no clock");
        assert!(
            MaxFreqList::start(
                "$ for f in /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq; do cat $f; done"
            )
            .unwrap()
            .glob
        );
        assert!(looks_like(&[
            "$ cat /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq",
            "1804800",
            "2419200"
        ]));
    }

    #[test]
    fn numbers_without_the_command_mean_nothing() {
        let h = read("1804800\n2419200\n");
        assert!(h.max_khz.is_empty());
        assert!(!looks_like(&["1804800", "2419200", "3187200"]));
        // A single file read with its value on the command line is not a list.
        assert!(!is_command(
            "/sys/devices/system/cpu/cpu4/cpufreq/cpuinfo_max_freq:2419200"
        ));
    }
}

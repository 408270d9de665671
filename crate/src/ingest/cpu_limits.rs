//! How many CPUs a process may use, as users paste it next to a log: cgroup v2 `cpu.max`
//! (`200000 100000` is 2 CPUs of time), cgroup v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`,
//! `nproc`, docker / podman `--cpus`, compose `cpus:`, `taskset -c LIST` / a hex mask in a
//! command line, `taskset -p` answers, `numactl --physcpubind`, `Cpus_allowed_list`, SLURM's
//! `--cpus-per-task` / `SLURM_CPUS_PER_TASK`, and a limit the user states in words ("the job is
//! restricted to 24 cores", "a VM with 6 vCPUs", "限制为 4 核").
//!
//! A value comes on the line that names its source (`/sys/fs/cgroup/cpu.max:200000 100000`, as
//! `grep -H` or `head` print it) or on the line after a command that prints it (`$ nproc`, then
//! `4`). Nothing else is taken: a bare `4` means nothing without its command.

use super::snapshot::parse_affinity;
use crate::evidence::sched::{CpuLimit, CpuLimitKind, TopologyHints};
use crate::evidence::InputId;
use regex::Regex;
use std::sync::OnceLock;

/// What the previous line asked for, when it printed no value itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    CpuMax,
    CfsQuota,
    CfsPeriod,
    Nproc,
}

#[derive(Debug, Default)]
pub struct CpuLimits {
    pending: Option<(Pending, u64)>,
    /// cgroup v1 quota and period, µs, with the line of the later one.
    quota: Option<i64>,
    period: Option<i64>,
}

struct Re {
    cpus_flag: Regex,
    compose: Regex,
    taskset_c: Regex,
    taskset_mask: Regex,
    affinity_answer: Regex,
    physcpubind: Regex,
    allowed: Regex,
    slurm: Regex,
    stated: Regex,
    stated_zh: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("cpu limit pattern compiles");
        Re {
            cpus_flag: r(r#"--cpus(?:=|\s+)["']?(\d+(?:\.\d+)?)["']?(?:\s|$)"#),
            compose: r(r#"^cpus:\s*["']?(\d+(?:\.\d+)?)["']?\s*$"#),
            taskset_c: r(r"\btaskset\s+(?:-[a-z]*c[a-z]*|--cpu-list)\s+([0-9][0-9,\-]*)\s+\S"),
            taskset_mask: r(r"\btaskset\s+(0x[0-9a-fA-F]+|[0-9a-fA-F]+)\s+[./A-Za-z]"),
            affinity_answer: r(r"current affinity (list|mask):\s*([0-9a-fA-F,\-x]+)\s*$"),
            physcpubind: r(r"(?:--physcpubind|\s-C)(?:=|\s+)([0-9][0-9,\-]*)(?:\s|$)"),
            allowed: r(r"^Cpus_allowed_list:\s*([0-9][0-9,\-]*)\s*$"),
            slurm: r(r"(?:--cpus-per-task(?:=|\s+)|SLURM_CPUS_PER_TASK=|SLURM_CPUS_ON_NODE=|\bsrun\b.*\s-c\s*)(\d+)\b"),
            // A limit, not the machine: the verb or the container says the process gets fewer.
            stated: r(r"(?i)\b(?:(?:restricted|limited|capped|confined|allocated|assigned|given|pinned)\s+(?:it\s+)?to\s+(?:only\s+)?(\d+)|(?:vm|container|pod|job|instance|lxc|wsl)\s+(?:with|has|gets|of)\s+(?:only\s+)?(\d+))\s*(?:physical\s+|logical\s+)?(?:v?cpus?|v?cores?|vcpu)\b"),
            stated_zh: r(r"(?:限制|分配|只给|限定)(?:了|为|在|到)?\s*(\d+)\s*(?:个)?\s*(?:核|CPU|vCPU)"),
        }
    })
}

/// Cheap test that a message may concern this reader.
fn may_concern(msg: &str) -> bool {
    [
        "cpu.max",
        "cfs_",
        "nproc",
        "--cpus",
        "cpus:",
        "taskset",
        "affinity",
        "physcpubind",
    ]
    .iter()
    .any(|w| msg.contains(w))
        || msg.starts_with("Cpus_allowed")
        || msg.contains("numactl")
        || msg.contains("SLURM")
        || msg.contains("srun")
        || msg.contains("cpus-per-task")
        || stated_may(msg)
}

/// Literals a stated limit needs, checked before its case-blind pattern: this runs on every
/// line of a log, so it allocates nothing.
fn stated_may(msg: &str) -> bool {
    [
        " to ", " with ", " has ", " gets ", " of ", "限制", "分配", "只给", "限定",
    ]
    .iter()
    .any(|w| msg.contains(w))
}

/// `200000 100000` (quota and period, µs) or `max 100000` (no limit): the quota's CPUs.
fn cpu_max(value: &str) -> Option<Option<f64>> {
    let mut it = value.split_whitespace();
    let (q, p) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let period: f64 = p.parse().ok().filter(|p: &f64| *p > 0.0)?;
    if q == "max" {
        return Some(None);
    }
    let quota: f64 = q.parse().ok().filter(|q: &f64| *q > 0.0)?;
    Some(Some(quota / period))
}

impl CpuLimits {
    /// Reads one unwrapped message.
    pub fn line(&mut self, input: InputId, number: u64, msg: &str, hints: &mut TopologyHints) {
        let msg = msg.trim();
        if msg.is_empty() {
            return;
        }
        let mut add = |kind, cpus: f64, hints: &mut TopologyHints| {
            hints.add_cpu_limit(CpuLimit {
                input,
                line: number,
                kind,
                cpus,
                text: crate::evidence::clip(msg),
            })
        };
        if let Some((want, _)) = self.pending.take() {
            let first = msg.split_whitespace().next().unwrap_or("");
            match want {
                Pending::CpuMax => {
                    if let Some(Some(c)) = cpu_max(msg) {
                        add(CpuLimitKind::CgroupQuota, c, hints);
                        return;
                    }
                }
                Pending::Nproc => {
                    if let Ok(n) = msg.parse::<u32>() {
                        if (1..=4096).contains(&n) {
                            add(CpuLimitKind::Nproc, f64::from(n), hints);
                        }
                        return;
                    }
                }
                Pending::CfsQuota | Pending::CfsPeriod => {
                    if let Ok(v) = first.parse::<i64>() {
                        self.cfs(want, v, &mut add, hints);
                        return;
                    }
                }
            }
        }
        if !may_concern(msg) {
            return;
        }
        let r = re();
        // `/sys/fs/cgroup/cpu.max:200000 100000`, `cpu.max = 200000 100000`, or the command alone.
        if let Some(at) = msg.find("cpu.max") {
            let rest = msg[at + "cpu.max".len()..].trim_start_matches([':', '=', ' ', '\t']);
            match cpu_max(rest) {
                Some(Some(c)) => add(CpuLimitKind::CgroupQuota, c, hints),
                Some(None) => {}
                None if rest.is_empty() => self.pending = Some((Pending::CpuMax, number)),
                None => {}
            }
            return;
        }
        for (name, want) in [
            ("cfs_quota_us", Pending::CfsQuota),
            ("cfs_period_us", Pending::CfsPeriod),
        ] {
            if let Some(at) = msg.find(name) {
                let rest = msg[at + name.len()..].trim_start_matches([':', '=', ' ', '\t']);
                match rest.split_whitespace().next().map(str::parse::<i64>) {
                    Some(Ok(v)) => self.cfs(want, v, &mut add, hints),
                    None => self.pending = Some((want, number)),
                    Some(Err(_)) => {}
                }
                return;
            }
        }
        // `$ nproc`, `nproc: 4`, `nproc = 4`, `nproc → 4`.
        if let Some(at) = msg.find("nproc") {
            let before_ok = msg[..at].chars().last().map_or(true, |c| {
                c.is_whitespace() || c == '$' || c == '#' || c == '`'
            });
            let rest = msg[at + 5..].trim_start_matches([':', '=', ' ', '`', '→', '-', '>']);
            if before_ok {
                if rest.is_empty() || rest.starts_with("--all") {
                    if rest.is_empty() {
                        self.pending = Some((Pending::Nproc, number));
                    }
                } else if let Ok(n) = rest.split_whitespace().next().unwrap_or("").parse::<u32>() {
                    if (1..=4096).contains(&n) {
                        add(CpuLimitKind::Nproc, f64::from(n), hints);
                    }
                }
            }
            return;
        }
        if let Some(c) = r
            .cpus_flag
            .captures(msg)
            .or_else(|| r.compose.captures(msg))
        {
            if let Ok(v) = c[1].parse::<f64>() {
                if v > 0.0 && v <= 4096.0 {
                    add(CpuLimitKind::ContainerCpus, v, hints);
                }
            }
            return;
        }
        let list = r
            .taskset_c
            .captures(msg)
            .or_else(|| {
                r.physcpubind
                    .captures(msg)
                    .filter(|_| msg.contains("numactl"))
            })
            .or_else(|| r.allowed.captures(msg))
            .and_then(|c| parse_affinity(&c[1], true))
            .or_else(|| {
                let c = r.affinity_answer.captures(msg)?;
                parse_affinity(&c[2], &c[1] == "list")
            })
            .or_else(|| {
                let c = r.taskset_mask.captures(msg)?;
                parse_affinity(&c[1], false)
            });
        if let Some(cpus) = list {
            add(CpuLimitKind::Affinity, cpus.len() as f64, hints);
            return;
        }
        let count = |c: regex::Captures| {
            (1..c.len())
                .find_map(|i| c.get(i))
                .and_then(|m| m.as_str().parse::<u32>().ok())
                .filter(|n| (1..=4096).contains(n))
        };
        if let Some(n) = r.slurm.captures(msg).and_then(count) {
            add(CpuLimitKind::Scheduler, f64::from(n), hints);
            return;
        }
        if let Some(n) = r
            .stated
            .captures(msg)
            .or_else(|| r.stated_zh.captures(msg))
            .and_then(count)
        {
            add(CpuLimitKind::Stated, f64::from(n), hints);
        }
    }

    fn cfs(
        &mut self,
        which: Pending,
        v: i64,
        add: &mut impl FnMut(CpuLimitKind, f64, &mut TopologyHints),
        hints: &mut TopologyHints,
    ) {
        match which {
            Pending::CfsQuota => self.quota = Some(v),
            _ => self.period = Some(v),
        }
        if let (Some(q), Some(p)) = (self.quota, self.period) {
            // A quota of -1 is no limit.
            if q > 0 && p > 0 {
                add(CpuLimitKind::CgroupQuota, q as f64 / p as f64, hints);
            }
            self.quota = None;
            self.period = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(CpuLimitKind, f64, u64)> {
        let mut r = CpuLimits::default();
        let mut h = TopologyHints::default();
        for (i, l) in text.lines().enumerate() {
            r.line(0, i as u64 + 1, l, &mut h);
        }
        h.cpu_limits
            .iter()
            .map(|l| (l.kind, l.cpus, l.line))
            .collect()
    }

    #[test]
    fn a_scheduler_allocation_and_a_limit_in_words() {
        use CpuLimitKind::*;
        assert_eq!(
            read(
                "#SBATCH --cpus-per-task=24\nSLURM_CPUS_PER_TASK=8\nsrun -N 1 -c 16 ollama serve\n"
            ),
            vec![
                (Scheduler, 24.0, 1),
                (Scheduler, 8.0, 2),
                (Scheduler, 16.0, 3)
            ]
        );
        let said = read(
            "It's on a machine with 128 cores, but in a SLURM job which is restricted to 24 cores.\n\
             Running in a VM with 6 vCPUs.\n\
             容器限制为 4 核\n\
             I set it to 8 threads.\n\
             the model is limited to 4 GB\n",
        );
        assert_eq!(
            said,
            vec![(Stated, 24.0, 1), (Stated, 6.0, 2), (Stated, 4.0, 3)]
        );
    }

    #[test]
    fn each_source_as_pasted() {
        use CpuLimitKind::*;
        assert_eq!(
            read("$ cat /sys/fs/cgroup/cpu.max\n200000 100000\n$ nproc\n4\n"),
            vec![(CgroupQuota, 2.0, 2), (Nproc, 4.0, 4)]
        );
        assert_eq!(
            read("/sys/fs/cgroup/cpu.max:150000 100000"),
            vec![(CgroupQuota, 1.5, 1)]
        );
        assert!(read("$ cat /sys/fs/cgroup/cpu.max\nmax 100000\n").is_empty());
        assert_eq!(
            read("$ cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us\n400000\n$ cat /sys/fs/cgroup/cpu/cpu.cfs_period_us\n100000\n"),
            vec![(CgroupQuota, 4.0, 4)]
        );
        assert!(read("cpu.cfs_quota_us: -1\ncpu.cfs_period_us: 100000\n").is_empty());
        assert_eq!(
            read("docker run --rm --cpus=4 -v /models:/models llama:server -t 8"),
            vec![(ContainerCpus, 4.0, 1)]
        );
        assert_eq!(read("      cpus: '2.5'"), vec![(ContainerCpus, 2.5, 1)]);
        assert_eq!(
            read("taskset -c 4-7 ./llama-cli -m m.gguf -t 8"),
            vec![(Affinity, 4.0, 1)]
        );
        assert_eq!(
            read("pid 2305's current affinity list: 0-3"),
            vec![(Affinity, 4.0, 1)]
        );
        assert_eq!(read("taskset f0 ./main -t 4"), vec![(Affinity, 4.0, 1)]);
        assert_eq!(
            read("numactl --physcpubind=0-5 ./llama-bench"),
            vec![(Affinity, 6.0, 1)]
        );
        assert_eq!(read("nproc: 24"), vec![(Nproc, 24.0, 1)]);
        // A bare number without its command, and words that only contain the names.
        assert!(read("4\nprocessors: nprocs 8\nthe cpu.maximum is 3\n").is_empty());
    }

    #[test]
    fn garbage_never_panics() {
        for t in [
            "cpu.max",
            "cpu.max: 1 0",
            "cpu.max: -5 100000",
            "nproc\n99999999999",
            "--cpus=1e999",
            "taskset -c 0-99999999 x",
            "current affinity mask: zz",
            "cfs_quota_us\ncfs_period_us\n",
        ] {
            read(t);
        }
    }
}

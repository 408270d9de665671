//! CPU topology: the cluster (little, mid, big) and maximum frequency of every CPU, from the
//! best source the inputs give, and where it came from:
//!
//! 1. what the user set (a preset id, or a cluster list such as `0-3:little,4-6:mid,7:big@3200`);
//! 2. `cpuinfo_max_freq` per CPU;
//! 3. `/proc/cpuinfo` CPU part ids (0xd05 Cortex-A55, 0xd4e Cortex-X3, ...);
//! 4. a SoC preset recognized from the inputs (`Hardware : ... SM8550`, `ro.soc.model`);
//! 5. the highest `cpu_frequency` seen per CPU (a throttled trace understates it);
//! 6. one uniform cluster when the inputs say x86 or nothing tells cores apart.
//!
//! Maximum frequencies come from `cpuinfo_max_freq`, else the preset, else the observed maximum.

use crate::evidence::sched::{CpuLimitKind, SchedEvidence, TopologySource};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cluster {
    Little,
    Mid,
    Big,
    Unknown,
}

impl Cluster {
    pub fn index(self) -> usize {
        self as usize
    }
    /// Mid and big cores: the ones inference threads should run on.
    pub fn is_fast(self) -> bool {
        matches!(self, Cluster::Mid | Cluster::Big)
    }
    fn parse(s: &str) -> Option<Cluster> {
        match s.trim().to_ascii_lowercase().as_str() {
            "little" | "l" | "small" | "efficiency" | "e" => Some(Cluster::Little),
            "mid" | "m" | "middle" | "medium" => Some(Cluster::Mid),
            "big" | "b" | "prime" | "p" | "performance" | "gold" => Some(Cluster::Big),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuTopo {
    pub cpu: u32,
    pub cluster: Cluster,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_mhz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub core: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Topology {
    pub source: TopologySource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Where the maximum frequencies came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_source: Option<TopologySource>,
    pub cpus: Vec<CpuTopo>,
}

impl Topology {
    pub fn cluster(&self, cpu: u32) -> Cluster {
        self.cpus
            .iter()
            .find(|c| c.cpu == cpu)
            .map_or(Cluster::Unknown, |c| c.cluster)
    }
    pub fn max_mhz(&self, cpu: u32) -> Option<f64> {
        self.cpus
            .iter()
            .find(|c| c.cpu == cpu)
            .and_then(|c| c.max_mhz)
    }
    pub fn cpus_in(&self, cl: Cluster) -> Vec<u32> {
        self.cpus
            .iter()
            .filter(|c| c.cluster == cl)
            .map(|c| c.cpu)
            .collect()
    }
    pub fn fast_cpus(&self) -> Vec<u32> {
        self.cpus
            .iter()
            .filter(|c| c.cluster.is_fast())
            .map(|c| c.cpu)
            .collect()
    }
    /// True when clusters are told apart (some little or mid core exists, or all are known).
    pub fn known(&self) -> bool {
        !self.cpus.is_empty() && self.cpus.iter().all(|c| c.cluster != Cluster::Unknown)
    }
}

/// A SoC preset: CPU ranges with their core type, cluster and max MHz.
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    /// Substrings that name this SoC in `Hardware :`, `ro.soc.model` or `ro.board.platform`;
    /// the ones with a digit or a space also name it in the user's own words
    /// ([`named_in_text`]).
    pub names: &'static [&'static str],
    pub groups: &'static [(u32, u32, &'static str, Cluster, f64)],
}

use Cluster::{Big, Little, Mid};

/// Presets from vendor specifications; CPU numbering ascends with capacity on these SoCs.
pub const PRESETS: &[Preset] = &[
    // Source: Qualcomm's product briefs (qualcomm.com, Snapdragon 855 / 865 / 870 / 888
    // mobile platform pages): Kryo prime, gold and silver clusters.
    Preset {
        id: "sd855",
        label: "Snapdragon 855 (SM8150)",
        names: &["SM8150", "msmnile", "Snapdragon 855", "Qualcomm 855"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1785.6),
            (4, 6, "Cortex-A76", Mid, 2419.2),
            (7, 7, "Cortex-A76 (prime)", Big, 2841.6),
        ],
    },
    Preset {
        id: "sd870",
        label: "Snapdragon 870 (SM8250-AC)",
        names: &["SM8250-AC", "Snapdragon 870", "Qualcomm 870"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1804.8),
            (4, 6, "Cortex-A77", Mid, 2419.2),
            (7, 7, "Cortex-A77 (prime)", Big, 3187.2),
        ],
    },
    Preset {
        id: "sd865",
        label: "Snapdragon 865 (SM8250)",
        names: &["SM8250", "kona", "Snapdragon 865", "Qualcomm 865"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1804.8),
            (4, 6, "Cortex-A77", Mid, 2419.2),
            (7, 7, "Cortex-A77 (prime)", Big, 2841.6),
        ],
    },
    Preset {
        id: "sd888",
        label: "Snapdragon 888 (SM8350)",
        names: &["SM8350", "lahaina", "Snapdragon 888", "Qualcomm 888"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1804.8),
            (4, 6, "Cortex-A78", Mid, 2419.2),
            (7, 7, "Cortex-X1", Big, 2841.6),
        ],
    },
    Preset {
        id: "sd8gen1",
        label: "Snapdragon 8 Gen 1 (SM8450)",
        names: &["SM8450", "taro", "Snapdragon 8 Gen 1"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1785.6),
            (4, 6, "Cortex-A710", Mid, 2496.0),
            (7, 7, "Cortex-X2", Big, 2995.2),
        ],
    },
    Preset {
        id: "sd8gen2",
        label: "Snapdragon 8 Gen 2 (SM8550)",
        names: &["SM8550", "kalama", "Snapdragon 8 Gen 2"],
        groups: &[
            (0, 2, "Cortex-A510", Little, 2016.0),
            (3, 4, "Cortex-A715", Mid, 2803.2),
            (5, 6, "Cortex-A710", Mid, 2803.2),
            (7, 7, "Cortex-X3", Big, 3187.2),
        ],
    },
    Preset {
        id: "sd8gen3",
        label: "Snapdragon 8 Gen 3 (SM8650)",
        names: &["SM8650", "pineapple", "Snapdragon 8 Gen 3"],
        groups: &[
            (0, 1, "Cortex-A520", Little, 2265.6),
            (2, 4, "Cortex-A720", Mid, 3148.8),
            (5, 6, "Cortex-A720", Mid, 2956.8),
            (7, 7, "Cortex-X4", Big, 3302.4),
        ],
    },
    Preset {
        id: "sd8elite",
        label: "Snapdragon 8 Elite (SM8750)",
        names: &["SM8750", "sun", "Snapdragon 8 Elite"],
        groups: &[
            (0, 5, "Oryon", Mid, 3532.8),
            (6, 7, "Oryon (prime)", Big, 4473.6),
        ],
    },
    Preset {
        id: "sd7pgen2",
        label: "Snapdragon 7+ Gen 2 (SM7475)",
        names: &["SM7475", "ukee", "Snapdragon 7+ Gen 2"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1804.8),
            (4, 6, "Cortex-A710", Mid, 2496.0),
            (7, 7, "Cortex-X2", Big, 2918.4),
        ],
    },
    // Source: MediaTek's product pages (mediatek.com, Dimensity 8100 / 8200 / 8300 / 9000).
    Preset {
        id: "d8100",
        label: "Dimensity 8100 (MT6895)",
        names: &["MT6895", "Dimensity 8100"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 2000.0),
            (4, 7, "Cortex-A78", Big, 2850.0),
        ],
    },
    Preset {
        id: "d8200",
        label: "Dimensity 8200 (MT6896)",
        names: &["MT6896", "Dimensity 8200"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 2000.0),
            (4, 6, "Cortex-A78", Mid, 3000.0),
            (7, 7, "Cortex-A78 (prime)", Big, 3100.0),
        ],
    },
    Preset {
        id: "d8300",
        label: "Dimensity 8300 (MT6897)",
        names: &["MT6897", "Dimensity 8300"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 2200.0),
            (4, 6, "Cortex-A715", Mid, 3200.0),
            (7, 7, "Cortex-A715 (prime)", Big, 3350.0),
        ],
    },
    Preset {
        id: "d9000",
        label: "Dimensity 9000 (MT6983)",
        names: &["MT6983", "Dimensity 9000"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1800.0),
            (4, 6, "Cortex-A710", Mid, 2850.0),
            (7, 7, "Cortex-X2", Big, 3050.0),
        ],
    },
    Preset {
        id: "d9200",
        label: "Dimensity 9200 (MT6985)",
        names: &["MT6985", "Dimensity 9200"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1800.0),
            (4, 6, "Cortex-A715", Mid, 2850.0),
            (7, 7, "Cortex-X3", Big, 3050.0),
        ],
    },
    Preset {
        id: "d9300",
        label: "Dimensity 9300 (MT6989)",
        names: &["MT6989", "Dimensity 9300"],
        groups: &[
            (0, 3, "Cortex-A720", Mid, 2000.0),
            (4, 6, "Cortex-X4", Big, 2850.0),
            (7, 7, "Cortex-X4 (prime)", Big, 3250.0),
        ],
    },
    // Source: Google's Pixel 6 / 7 / 9 tech specs (store.google.com) and Arm's core listings.
    Preset {
        id: "tensor-g1",
        label: "Google Tensor (G1)",
        names: &["Tensor G1", "gs101"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1803.0),
            (4, 5, "Cortex-A76", Mid, 2253.0),
            (6, 7, "Cortex-X1", Big, 2802.0),
        ],
    },
    Preset {
        id: "tensor-g2",
        label: "Google Tensor G2",
        names: &["Tensor G2", "gs201"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1803.0),
            (4, 5, "Cortex-A78", Mid, 2348.0),
            (6, 7, "Cortex-X1", Big, 2850.0),
        ],
    },
    Preset {
        id: "tensor-g3",
        label: "Google Tensor G3",
        names: &["Tensor G3", "zuma", "gs301"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1704.0),
            (4, 7, "Cortex-A715", Mid, 2367.0),
            (8, 8, "Cortex-X3", Big, 2910.0),
        ],
    },
    Preset {
        id: "tensor-g4",
        label: "Google Tensor G4",
        names: &["Tensor G4", "zumapro"],
        groups: &[
            (0, 3, "Cortex-A520", Little, 1920.0),
            (4, 6, "Cortex-A720", Mid, 2600.0),
            (7, 7, "Cortex-X4", Big, 3100.0),
        ],
    },
    // Source: Samsung Semiconductor's product pages (semiconductor.samsung.com, Exynos 2100).
    Preset {
        id: "exynos2100",
        label: "Exynos 2100",
        names: &["Exynos 2100", "s5e9840", "exynos2100"],
        groups: &[
            (0, 3, "Cortex-A55", Little, 2200.0),
            (4, 6, "Cortex-A78", Mid, 2800.0),
            (7, 7, "Cortex-X1", Big, 2900.0),
        ],
    },
    Preset {
        id: "exynos2200",
        label: "Exynos 2200",
        names: &["Exynos 2200", "s5e9925", "exynos2200"],
        groups: &[
            (0, 3, "Cortex-A510", Little, 1820.0),
            (4, 6, "Cortex-A710", Mid, 2520.0),
            (7, 7, "Cortex-X2", Big, 2800.0),
        ],
    },
    Preset {
        id: "exynos2400",
        label: "Exynos 2400",
        names: &["Exynos 2400", "s5e9945", "exynos2400"],
        groups: &[
            (0, 3, "Cortex-A520", Little, 1950.0),
            (4, 6, "Cortex-A720", Mid, 2600.0),
            (7, 8, "Cortex-A720", Mid, 2900.0),
            (9, 9, "Cortex-X4", Big, 3207.0),
        ],
    },
    Preset {
        id: "rk3588",
        label: "Rockchip RK3588",
        // The boards built on it, as users name their machine: Orange Pi 5 / 5B / 5 Plus /
        // 5 Max / 5 Pro (RK3588S or RK3588), Radxa ROCK 5A / 5B / 5C, Khadas Edge2.
        // Source: the boards' vendor pages (orangepi.org, radxa.com, khadas.com).
        names: &[
            "RK3588",
            "rk3588",
            "Orange Pi 5",
            "OrangePi 5",
            "orangepi5",
            "Rock 5",
            "Rock5",
            "Khadas Edge2",
        ],
        groups: &[
            (0, 3, "Cortex-A55", Little, 1800.0),
            (4, 7, "Cortex-A76", Big, 2400.0),
        ],
    },
    Preset {
        id: "rpi5",
        label: "Raspberry Pi 5 (BCM2712)",
        names: &["Raspberry Pi 5", "BCM2712"],
        groups: &[(0, 3, "Cortex-A76", Big, 2400.0)],
    },
    Preset {
        id: "jetson-orin",
        label: "NVIDIA Jetson AGX Orin",
        names: &["Jetson AGX Orin", "Orin"],
        groups: &[(0, 11, "Cortex-A78AE", Big, 2201.6)],
    },
];

/// Core name and tier (0 little, 1 big, 2 prime) of an Arm or Qualcomm CPU part id.
fn core_of(implementer: Option<u32>, part: u32) -> Option<(&'static str, u8)> {
    if implementer == Some(0x51) {
        // Qualcomm Kryo custom parts (older SoCs) and Oryon.
        return match part {
            0x801 | 0x803 | 0x805 => Some(("Kryo Silver", 0)),
            0x800 | 0x802 | 0x804 => Some(("Kryo Gold", 1)),
            0x001 => Some(("Oryon", 1)),
            _ => None,
        };
    }
    Some(match part {
        0xd03 => ("Cortex-A53", 0),
        0xd04 => ("Cortex-A35", 0),
        0xd05 => ("Cortex-A55", 0),
        0xd46 => ("Cortex-A510", 0),
        0xd80 => ("Cortex-A520", 0),
        0xd07 => ("Cortex-A57", 1),
        0xd08 => ("Cortex-A72", 1),
        0xd09 => ("Cortex-A73", 1),
        0xd0a => ("Cortex-A75", 1),
        0xd0b => ("Cortex-A76", 1),
        0xd0d => ("Cortex-A77", 1),
        0xd41 => ("Cortex-A78", 1),
        0xd42 => ("Cortex-A78AE", 1),
        0xd4b => ("Cortex-A78C", 1),
        0xd47 => ("Cortex-A710", 1),
        0xd4d => ("Cortex-A715", 1),
        0xd81 => ("Cortex-A720", 1),
        0xd87 => ("Cortex-A725", 1),
        0xd44 => ("Cortex-X1", 2),
        0xd4c => ("Cortex-X1C", 2),
        0xd48 => ("Cortex-X2", 2),
        0xd4e => ("Cortex-X3", 2),
        0xd82 => ("Cortex-X4", 2),
        0xd85 => ("Cortex-X925", 2),
        _ => return None,
    })
}

/// Clusters from distinct levels (frequencies or tiers), lowest little, highest big.
fn clusters_from_levels(values: &BTreeMap<u32, f64>) -> BTreeMap<u32, Cluster> {
    levels_with(values, 1.03)
}

/// Same, with levels at least `step` apart (observed frequencies need a wide step: a lightly
/// loaded cluster may simply not have reached its top).
fn levels_with(values: &BTreeMap<u32, f64>, step: f64) -> BTreeMap<u32, Cluster> {
    let mut levels: Vec<f64> = Vec::new();
    let mut sorted: Vec<f64> = values.values().copied().collect();
    sorted.sort_by(f64::total_cmp);
    for v in sorted {
        // Within 3% is the same level (vendors trim bins slightly per core).
        if levels.last().map_or(true, |&l| v > l * step) {
            levels.push(v);
        }
    }
    values
        .iter()
        .map(|(&cpu, &v)| {
            let i = levels.iter().rposition(|&l| v >= l).unwrap_or(0);
            let cl = if levels.len() == 1 || i + 1 == levels.len() {
                Big
            } else if i == 0 {
                Little
            } else {
                Mid
            };
            (cpu, cl)
        })
        .collect()
}

/// A CPU set as the kernel writes a cpulist: `[0,1,2,3,6]` -> `"0-3,6"`, `[4,5]` -> `"4-5"`.
pub fn cpu_list(cpus: &[u32]) -> String {
    let mut v = cpus.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    out.join(",")
}

pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS
        .iter()
        .find(|p| p.id.eq_ignore_ascii_case(id.trim()))
}

fn preset_cpus(p: &Preset) -> Vec<CpuTopo> {
    let mut out = Vec::new();
    for &(a, b, core, cl, mhz) in p.groups {
        for cpu in a..=b {
            out.push(CpuTopo {
                cpu,
                cluster: cl,
                max_mhz: Some(mhz),
                core: Some(core.to_string()),
            });
        }
    }
    out
}

/// Parses a user cluster list: `0-3:little,4-6:mid,7:big@3200` (MHz optional).
pub fn parse_spec(spec: &str) -> Option<Vec<CpuTopo>> {
    let mut out: Vec<CpuTopo> = Vec::new();
    for part in spec
        .split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (range, rest) = part.split_once(':')?;
        let (cl, mhz) = match rest.split_once('@') {
            Some((c, m)) => (c, Some(m.trim().parse::<f64>().ok()?)),
            None => (rest, None),
        };
        let cluster = Cluster::parse(cl)?;
        let (a, b) = match range.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?),
            None => {
                let a = range.trim().parse::<u32>().ok()?;
                (a, a)
            }
        };
        if b < a || b > crate::evidence::sched::MAX_CPU {
            return None;
        }
        for cpu in a..=b {
            out.retain(|c| c.cpu != cpu);
            out.push(CpuTopo {
                cpu,
                cluster,
                max_mhz: mhz,
                core: None,
            });
        }
    }
    out.sort_by_key(|c| c.cpu);
    (!out.is_empty()).then_some(out)
}

/// The tightest statement of how many CPUs the process may use (a cgroup quota, `nproc`,
/// `--cpus`, an affinity mask), with where it was said.
#[derive(Debug, Clone, PartialEq)]
pub struct Usable {
    pub cpus: f64,
    pub kind: CpuLimitKind,
    pub input: crate::evidence::InputId,
    pub line: u64,
    pub text: String,
}

/// What the machine offers the threads: usable CPUs, SMT, and the performance cores.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Machine {
    pub usable: Option<Usable>,
    /// lscpu's count of every logical CPU, with its line.
    pub online: Option<Usable>,
    /// Every logical CPU the inputs count (lscpu `CPU(s)`, a trace's CPUs).
    pub logical: Option<u32>,
    pub physical_cores: Option<u32>,
    pub threads_per_core: Option<u32>,
    /// Physical cores of the fast clusters, when the topology tells them from little ones.
    pub fast_cores: Option<u32>,
    pub little_cpus: usize,
}

/// The machine's CPUs as the threads see them, from the hints and the resolved topology.
pub fn machine(s: &SchedEvidence, topo: &Topology) -> Machine {
    let h = &s.hints;
    let mut usable: Option<Usable> = h
        .cpu_limits
        .iter()
        .filter(|l| l.kind != CpuLimitKind::Online)
        .min_by(|a, b| a.cpus.total_cmp(&b.cpus))
        .map(|l| Usable {
            cpus: l.cpus,
            kind: l.kind,
            input: l.input,
            line: l.line,
            text: l.text.clone(),
        });
    // A snapshot's affinity (taskset -p, Cpus_allowed_list): the CPUs any task of a process
    // may use.
    let mut per_input: BTreeMap<crate::evidence::InputId, (std::collections::BTreeSet<u32>, u64)> =
        BTreeMap::new();
    for ((input, _), (cpus, line)) in &s.affinity {
        let e = per_input.entry(*input).or_default();
        e.0.extend(cpus.iter().copied());
        e.1 = e.1.max(*line);
    }
    for (input, (cpus, line)) in per_input {
        let n = cpus.len() as f64;
        if n > 0.0 && usable.as_ref().map_or(true, |u| n < u.cpus) {
            let list: Vec<u32> = cpus.into_iter().collect();
            usable = Some(Usable {
                cpus: n,
                kind: CpuLimitKind::Affinity,
                input,
                line,
                text: format!("Cpus_allowed_list: {}", cpu_list(&list)),
            });
        }
    }
    let logical = h
        .cpu_limits
        .iter()
        .filter(|l| l.kind == CpuLimitKind::Online)
        .map(|l| l.cpus as u32)
        .max()
        .or(h.nr_cpus)
        .or((!topo.cpus.is_empty()).then_some(topo.cpus.len() as u32));
    let cores_listed: std::collections::BTreeSet<u32> = h.core_of.values().copied().collect();
    let physical_cores = h
        .physical_cores
        .or((!cores_listed.is_empty()).then_some(cores_listed.len() as u32));
    let threads_per_core = h.threads_per_core.or_else(|| {
        let mut per: BTreeMap<u32, u32> = BTreeMap::new();
        for core in h.core_of.values() {
            *per.entry(*core).or_default() += 1;
        }
        per.values().copied().max()
    });
    let little = topo.cpus_in(Cluster::Little);
    let fast = topo.fast_cpus();
    let fast_cores = (topo.known() && !little.is_empty() && !fast.is_empty()).then(|| {
        let cores: std::collections::BTreeSet<u32> = fast
            .iter()
            .filter_map(|c| h.core_of.get(c).copied())
            .collect();
        if cores.len() == fast.len() || cores.is_empty() {
            fast.len() as u32
        } else {
            cores.len() as u32
        }
    });
    let online = h
        .cpu_limits
        .iter()
        .filter(|l| l.kind == CpuLimitKind::Online)
        .max_by(|a, b| a.cpus.total_cmp(&b.cpus))
        .map(|l| Usable {
            cpus: l.cpus,
            kind: l.kind,
            input: l.input,
            line: l.line,
            text: l.text.clone(),
        });
    Machine {
        usable,
        online,
        logical,
        physical_cores,
        threads_per_core,
        fast_cores,
        little_cpus: little.len(),
    }
}

/// The one preset the user's words name ("my Orange Pi 5 (RK3588S)", "a Snapdragon 8 Gen 2
/// phone"), or none when they name several (a comparison of two devices). Only names with a
/// digit or a space count: a bare codename ("sun", "taro") is an ordinary word in a sentence.
fn named_in_text(names: &[String]) -> Option<&'static Preset> {
    let mut found: Option<&'static Preset> = None;
    for text in names {
        let text = text.to_ascii_lowercase();
        for p in PRESETS {
            let hit = p.names.iter().any(|n| {
                (n.contains(' ') || n.bytes().any(|b| b.is_ascii_digit()))
                    && contains_word(&text, &n.to_ascii_lowercase())
            });
            if hit {
                match found {
                    Some(f) if f.id != p.id => return None,
                    _ => found = Some(p),
                }
            }
        }
    }
    found
}

/// `needle` in `hay` not glued to a letter or digit on either side ("rk3588" in "rk3588s"
/// counts, since a SoC's suffix letter is the same CPU; "8 gen 2" in "8 gen 23" does not).
fn contains_word(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// The best topology the evidence supports.
pub fn resolve(s: &SchedEvidence) -> Topology {
    let h = &s.hints;
    let observed: BTreeMap<u32, u64> = s
        .traces
        .iter()
        .flat_map(|t| t.freq_seen_max_khz.iter())
        .fold(BTreeMap::new(), |mut m, (&c, &k)| {
            let e = m.entry(c).or_insert(0);
            *e = (*e).max(k);
            m
        });
    let n_cpus = [
        h.nr_cpus.unwrap_or(0),
        s.traces.iter().map(|t| t.cpus_seen).max().unwrap_or(0),
        h.max_khz.keys().next_back().map_or(0, |c| c + 1),
        h.cpu_part.keys().next_back().map_or(0, |c| c + 1),
        observed.keys().next_back().map_or(0, |c| c + 1),
    ]
    .into_iter()
    .max()
    .unwrap_or(0)
    .min(crate::evidence::sched::MAX_CPU + 1);
    let recognized = h
        .hardware
        .as_deref()
        .and_then(|hw| {
            let hw = hw.to_ascii_lowercase();
            PRESETS
                .iter()
                .find(|p| p.names.iter().any(|n| hw.contains(&n.to_ascii_lowercase())))
        })
        .or_else(|| named_in_text(&h.device_names));

    // Fill max MHz for each CPU from the best source that has it.
    let fill_max = |cpus: &mut Vec<CpuTopo>, preset: Option<&Preset>| -> Option<TopologySource> {
        let mut src = None;
        for c in cpus.iter_mut() {
            if let Some(&k) = h.max_khz.get(&c.cpu) {
                c.max_mhz = Some(k as f64 / 1000.0);
                src = src.or(Some(TopologySource::CpuinfoMaxFreq));
            } else if c.max_mhz.is_some() {
                src = src.or(Some(if preset.is_some() {
                    TopologySource::Preset
                } else {
                    TopologySource::User
                }));
            } else if let Some(&k) = observed.get(&c.cpu) {
                c.max_mhz = Some(k as f64 / 1000.0);
                src = src.or(Some(TopologySource::ObservedFreq));
            }
        }
        src
    };

    let user = s.topology_override.as_deref().and_then(|spec| {
        preset(spec)
            .map(|p| (preset_cpus(p), Some(p)))
            .or_else(|| parse_spec(spec).map(|c| (c, None)))
    });
    if let Some((mut cpus, p)) = user {
        let max_source = fill_max(&mut cpus, p);
        return Topology {
            source: TopologySource::User,
            preset: p.map(|p| p.id.to_string()),
            max_source,
            cpus,
        };
    }
    let all = |f: &dyn Fn(u32) -> Option<Cluster>| -> Option<Vec<CpuTopo>> {
        (0..n_cpus)
            .map(|cpu| {
                Some(CpuTopo {
                    cpu,
                    cluster: f(cpu)?,
                    max_mhz: None,
                    core: None,
                })
            })
            .collect()
    };
    let mut pick: Option<(TopologySource, Option<&'static Preset>, Vec<CpuTopo>)> = None;
    if n_cpus > 0 && h.max_khz.len() as u32 >= n_cpus.min(2) && !h.max_khz.is_empty() {
        let levels =
            clusters_from_levels(&h.max_khz.iter().map(|(&c, &k)| (c, k as f64)).collect());
        if let Some(c) = all(&|cpu| levels.get(&cpu).copied()) {
            pick = Some((TopologySource::CpuinfoMaxFreq, None, c));
        }
    }
    if pick.is_none() && !h.cpu_part.is_empty() {
        let tiers: BTreeMap<u32, f64> = h
            .cpu_part
            .iter()
            .filter_map(|(&cpu, &part)| {
                core_of(h.cpu_implementer.get(&cpu).copied(), part)
                    .map(|(_, t)| (cpu, t as f64 + 1.0))
            })
            .collect();
        let levels = clusters_from_levels(&tiers);
        if let Some(mut c) = all(&|cpu| levels.get(&cpu).copied()) {
            for ct in &mut c {
                ct.core = h.cpu_part.get(&ct.cpu).and_then(|&p| {
                    core_of(h.cpu_implementer.get(&ct.cpu).copied(), p).map(|(n, _)| n.to_string())
                });
            }
            pick = Some((TopologySource::CpuPart, None, c));
        }
    }
    if pick.is_none() {
        if let Some(p) = recognized {
            pick = Some((TopologySource::Preset, Some(p), preset_cpus(p)));
        }
    }
    if pick.is_none() && !observed.is_empty() && observed.len() as u32 >= n_cpus {
        let levels = levels_with(
            &observed.iter().map(|(&c, &k)| (c, k as f64)).collect(),
            1.15,
        );
        if let Some(c) = all(&|cpu| levels.get(&cpu).copied()) {
            pick = Some((TopologySource::ObservedFreq, None, c));
        }
    }
    let x86 = h
        .arch
        .as_deref()
        .is_some_and(|a| a.contains("x86") || a.contains("i686"))
        || h.cpu_desc
            .as_deref()
            .is_some_and(|d| d.contains("Intel") || d.contains("AMD"));
    if pick.is_none() && x86 && n_cpus > 0 {
        if let Some(c) = all(&|_| Some(Big)) {
            pick = Some((TopologySource::Uniform, None, c));
        }
    }
    let (source, p, mut cpus) = pick.unwrap_or_else(|| {
        let c = (0..n_cpus)
            .map(|cpu| CpuTopo {
                cpu,
                cluster: Cluster::Unknown,
                max_mhz: None,
                core: None,
            })
            .collect();
        (TopologySource::None, None, c)
    });
    // A recognized SoC still names the cores and their max when the clusters came from elsewhere.
    if let (Some(pr), true) = (recognized, p.is_none()) {
        let pc = preset_cpus(pr);
        for c in &mut cpus {
            if let Some(x) = pc.iter().find(|x| x.cpu == c.cpu) {
                if c.core.is_none() {
                    c.core = x.core.clone();
                }
                if !h.max_khz.contains_key(&c.cpu) {
                    c.max_mhz = x.max_mhz;
                }
            }
        }
    }
    let max_source = fill_max(&mut cpus, p.or(recognized));
    Topology {
        source,
        preset: p.or(recognized).map(|p| p.id.to_string()),
        max_source,
        cpus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_read_as_the_kernel_writes_them() {
        assert_eq!(cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(cpu_list(&[4, 5]), "4-5");
        assert_eq!(cpu_list(&[7, 3, 1, 2, 2]), "1-3,7");
        assert_eq!(cpu_list(&[]), "");
    }

    #[test]
    fn levels_make_clusters() {
        let m: BTreeMap<u32, f64> = [
            (0, 1800.0),
            (1, 1800.0),
            (2, 2800.0),
            (3, 2750.0),
            (4, 3200.0),
        ]
        .into_iter()
        .collect();
        let c = clusters_from_levels(&m);
        assert_eq!(c[&0], Little);
        assert_eq!(c[&2], Mid);
        assert_eq!(c[&3], Mid);
        assert_eq!(c[&4], Big);
        let one: BTreeMap<u32, f64> = [(0, 2400.0), (1, 2400.0)].into_iter().collect();
        assert_eq!(clusters_from_levels(&one)[&1], Big);
    }

    #[test]
    fn spec_and_presets() {
        let c = parse_spec("0-3:little, 4-6:mid,7:big@3200").unwrap();
        assert_eq!(c.len(), 8);
        assert_eq!(c[7].cluster, Big);
        assert_eq!(c[7].max_mhz, Some(3200.0));
        assert!(parse_spec("0-3:tiny").is_none());
        assert!(parse_spec("3-1:big").is_none());
        for p in PRESETS {
            assert!(!preset_cpus(p).is_empty(), "{}", p.id);
        }
    }

    #[test]
    fn cpuinfo_parts_and_preset_names() {
        let mut s = SchedEvidence::default();
        for cpu in 0..8 {
            s.hints
                .cpu_part
                .insert(cpu, if cpu < 4 { 0xd05 } else { 0xd0b });
        }
        let t = resolve(&s);
        assert_eq!(t.source, TopologySource::CpuPart);
        assert_eq!(t.cluster(0), Little);
        assert_eq!(t.cluster(7), Big);
        assert_eq!(t.cpus[7].core.as_deref(), Some("Cortex-A76"));
        let mut s = SchedEvidence::default();
        s.hints.hardware = Some("Qualcomm Technologies, Inc SM8550".into());
        let t = resolve(&s);
        assert_eq!(
            (t.source, t.preset.as_deref()),
            (TopologySource::Preset, Some("sd8gen2"))
        );
        assert_eq!(t.max_mhz(7), Some(3187.2));
    }

    #[test]
    fn a_soc_named_in_the_users_words_is_a_preset_unless_two_are_named() {
        let named = |names: &[&str]| {
            let mut s = SchedEvidence::default();
            s.hints.device_names = names.iter().map(|n| n.to_string()).collect();
            resolve(&s).preset
        };
        assert_eq!(
            named(&["Running it on my Orange Pi 5 (RK3588S, 16GB)"]).as_deref(),
            Some("rk3588")
        );
        assert_eq!(
            named(&["a Snapdragon 8 Gen 2 phone"]).as_deref(),
            Some("sd8gen2")
        );
        // A comparison names two SoCs: neither is the machine.
        assert_eq!(
            named(&["RK3588 is fine", "but on the Snapdragon 8 Gen 3 it is slow"]),
            None
        );
        // Codenames are words in a sentence, and a longer number is another chip.
        assert_eq!(named(&["the sun was out, taro for lunch"]), None);
        assert_eq!(named(&["Snapdragon 8 Gen 23"]), None);
    }

    #[test]
    fn a_board_or_an_older_soc_named_in_the_users_words_is_its_preset() {
        let named = |name: &str| {
            let mut s = SchedEvidence::default();
            s.hints.device_names = vec![name.to_string()];
            resolve(&s).preset
        };
        for (text, id) in [
            ("i'm on orange pi 5 and i use phi-3", "rk3588"),
            ("Orange Pi 5 Plus 16GB", "rk3588"),
            ("a Radxa ROCK 5B", "rk3588"),
            ("Khadas Edge2", "rk3588"),
            ("The device is qualcomm 855.", "sd855"),
            ("Snapdragon 870 tablet", "sd870"),
            ("Pixel 6 (Tensor G1)", "tensor-g1"),
            ("Dimensity 8300-Ultra", "d8300"),
            ("Galaxy S21 with Exynos 2100", "exynos2100"),
        ] {
            assert_eq!(named(text).as_deref(), Some(id), "{text}");
        }
        // Another board of the maker, or a longer number, is another chip.
        assert_eq!(named("Orange Pi 3B"), None);
        assert_eq!(named("Orange Pi 50"), None);
        // The board's clusters: four little cores under four big ones.
        let mut s = SchedEvidence::default();
        s.hints.device_names = vec!["orange pi 5".into()];
        let topo = resolve(&s);
        assert_eq!((topo.cpus_in(Little).len(), topo.fast_cpus().len()), (4, 4));
    }
}

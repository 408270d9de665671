//! The memory bandwidth of the device a run decoded on, from a table of known devices
//! (`memory_bandwidth.json`: each entry's peak GB/s, memory type and the vendor page or datasheet
//! it comes from), keyed by the names the inputs state: the run's own devices (llama.cpp CUDA,
//! Metal, Vulkan and OpenCL device lines), then the SoC or board names of system information
//! (`/proc/cpuinfo` `Hardware` / `Model` / `model name`, `ro.soc.model`, `ro.board.platform`,
//! lscpu `Model name`).
//!
//! Which memory a decode reads depends on where the weights sit: a discrete GPU's own VRAM when
//! its model buffers hold them, else the system memory (which the CPU and an integrated GPU or
//! NPU share on phones, Apple silicon, Jetson and single-board computers). A desktop's system
//! memory is not known from a CPU name, so a run whose weights sit in it gets no entry.

use crate::evidence::{Evidence, Run};
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryKind {
    /// A discrete card's own VRAM.
    Gpu,
    /// Memory the CPU and any integrated accelerator share.
    System,
    /// A desktop's memory modules (DDR4 / DDR5 channels): the CPU's, not a discrete card's.
    Modules,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DeviceEntry {
    pub name: String,
    keys: Vec<String>,
    /// Peak bandwidth, 10^9 bytes per second.
    pub gbps: f64,
    /// Memory type and bus, as the source states them (`LPDDR5X-8400, 64-bit`).
    pub memory: String,
    pub kind: MemoryKind,
    pub source: String,
}

#[derive(Deserialize)]
struct Table {
    devices: Vec<DeviceEntry>,
}

/// The table, parsed once; a test holds it to its shape.
pub fn table() -> &'static [DeviceEntry] {
    static T: OnceLock<Vec<DeviceEntry>> = OnceLock::new();
    T.get_or_init(|| {
        serde_json::from_str::<Table>(include_str!("memory_bandwidth.json"))
            .map(|t| t.devices)
            .unwrap_or_default()
    })
}

/// Lower case, `(TM)` / `(R)` dropped, every run of other characters one space, padded with a
/// space at each end so a key matches as whole words with a plain `contains`.
fn normalize(name: &str) -> String {
    let lower = name
        .to_ascii_lowercase()
        .replace("(tm)", " ")
        .replace("(r)", " ");
    let mut out = String::from(" ");
    for c in lower.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// The entry a name denotes: the longest key found in it as whole words. Keys of equal length
/// from entries of different bandwidth leave it undecided.
pub fn lookup(name: &str) -> Option<&'static DeviceEntry> {
    let n = normalize(name);
    let mut best: Option<(usize, &DeviceEntry)> = None;
    let mut tie = false;
    for e in table() {
        for k in &e.keys {
            if !n.contains(&format!(" {k} ")) {
                continue;
            }
            match best {
                Some((len, _)) if k.len() < len => {}
                Some((len, b)) if k.len() == len => tie |= b.gbps != e.gbps,
                _ => {
                    best = Some((k.len(), e));
                    tie = false;
                }
            }
        }
    }
    best.filter(|_| !tie).map(|(_, e)| e)
}

/// The device whose memory bounds a run's decode, and the name that identified it.
#[derive(Debug, Clone)]
pub struct RunDevice {
    pub entry: &'static DeviceEntry,
    /// The name as the input states it.
    pub named: String,
    /// The model buffers say where the weights sit, so the memory read is certain.
    pub placed: bool,
}

/// Buffer names of a GPU's own memory in llama.cpp (`CUDA0`, `ROCm0`, `Vulkan0`, `SYCL0`,
/// `Metal`, `OpenCL`).
fn is_gpu_buffer(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "cuda", "rocm", "vulkan", "sycl", "metal", "opencl", "hip", "musa", "cann",
    ]
    .iter()
    .any(|p| n.starts_with(p))
        && !n.contains("host")
}

/// Where the run's weights sit by its model buffers: `Some(true)` on a GPU (90% or more of them),
/// `Some(false)` on the CPU side (90% or more), `None` when split or not stated. Logs that print
/// no buffers (llama.cpp before late 2023) place them by the offloaded layer count.
fn weights_on_gpu(run: &Run) -> Option<bool> {
    weights_on_gpu_by_buffers(run).or_else(|| {
        let o = run.offload.as_ref()?;
        if o.all_layers() {
            Some(true)
        } else {
            (o.gpu_layers == Some(0)).then_some(false)
        }
    })
}

fn weights_on_gpu_by_buffers(run: &Run) -> Option<bool> {
    let models: Vec<(&String, f64)> = run
        .buffers_mib
        .iter()
        .filter(|(k, _)| k.ends_with(" model"))
        .map(|(k, v)| (k, *v))
        .collect();
    let total: f64 = models.iter().map(|(_, v)| v).sum();
    if total <= 0.0 {
        return None;
    }
    let gpu: f64 = models
        .iter()
        .filter(|(k, _)| is_gpu_buffer(k))
        .map(|(_, v)| v)
        .sum();
    if gpu >= 0.9 * total {
        Some(true)
    } else if gpu <= 0.1 * total {
        Some(false)
    } else {
        None
    }
}

/// The device whose memory a run's decode read, when the inputs name one the table knows.
pub fn for_run(ev: &Evidence, run: &Run) -> Option<RunDevice> {
    let on_gpu = weights_on_gpu(run);
    // A discrete GPU bounds the run when the weights sit on it. Unplaced, its VRAM is still the
    // fastest memory the run could have read, so it serves as an upper bound.
    if on_gpu != Some(false) {
        if let Some((named, entry)) = run
            .devices
            .iter()
            .find_map(|d| Some((d, lookup(d).filter(|e| e.kind == MemoryKind::Gpu)?)))
        {
            return Some(RunDevice {
                entry,
                named: named.clone(),
                placed: on_gpu == Some(true),
            });
        }
    }
    // Shared memory: the run's device (an Apple GPU, a phone's Adreno), else the system's
    // SoC or board. Wherever the weights sit, they are in this memory.
    let hints = &ev.sched.hints;
    let system = run
        .devices
        .iter()
        .chain(hints.device_names.iter())
        .chain(hints.hardware.iter())
        .chain(hints.cpu_desc.iter())
        .find_map(|d| Some((d, lookup(d).filter(|e| e.kind != MemoryKind::Gpu)?)));
    let (named, entry) = system?;
    // Memory modules hold the weights only where no layer went to a card: with layers asked
    // for or placed on one, and the split not known, the modules are not what decode read.
    let layers_on_card = run.offload.as_ref().is_some_and(|o| {
        o.gpu_layers.is_some_and(|n| n > 0) || o.requested.is_some_and(|n| n != 0)
    });
    if entry.kind == MemoryKind::Modules && layers_on_card && on_gpu != Some(false) {
        return None;
    }
    // A discrete GPU beside a known SoC (an eGPU on a board): unless the weights are known to
    // sit on the CPU side, the shared memory is not what was read.
    let discrete = run
        .devices
        .iter()
        .any(|d| lookup(d).is_some_and(|e| e.kind == MemoryKind::Gpu));
    if discrete && on_gpu != Some(false) {
        return None;
    }
    Some(RunDevice {
        entry,
        named: named.clone(),
        placed: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_every_entry_cites_its_source() {
        let t = table();
        assert!(t.len() > 80, "{}", t.len());
        for e in t {
            assert!(e.gbps > 1.0 && e.gbps < 10_000.0, "{}", e.name);
            assert!(e.source.starts_with("https://"), "{}", e.name);
            assert!(!e.keys.is_empty() && !e.memory.is_empty(), "{}", e.name);
            for k in &e.keys {
                assert_eq!(
                    normalize(k).trim(),
                    k,
                    "key {k} of {} is not normal",
                    e.name
                );
            }
        }
    }

    #[test]
    fn names_as_the_inputs_print_them() {
        let gbps = |n: &str| lookup(n).map(|e| e.gbps);
        assert_eq!(gbps("Apple M2 Pro"), Some(200.0));
        assert_eq!(gbps("Apple M2"), Some(100.0));
        assert_eq!(gbps("NVIDIA GeForce RTX 4090"), Some(1008.0));
        assert_eq!(gbps("NVIDIA GeForce RTX 4090 Laptop GPU"), Some(576.0));
        assert_eq!(gbps("NVIDIA GeForce RTX 3060 Ti"), Some(448.0));
        assert_eq!(gbps("AMD Radeon RX 7900 XTX"), Some(960.0));
        assert_eq!(gbps("Qualcomm Technologies, Inc SM8550"), Some(67.2));
        assert_eq!(gbps("QUALCOMM Adreno(TM) 750"), Some(76.8));
        assert_eq!(gbps("Turnip Adreno (TM) 740"), Some(67.2));
        assert_eq!(gbps("Raspberry Pi 5 Model B Rev 1.0"), Some(17.1));
        assert_eq!(gbps("NVIDIA A100-SXM4-80GB"), Some(2039.0));
        assert_eq!(gbps("zumapro"), Some(68.3));
        assert_eq!(gbps("zuma"), Some(68.3));
        // Not a whole word, or not known.
        assert_eq!(gbps("Apple M20"), None);
        assert_eq!(gbps("BCM2835"), None);
        assert_eq!(gbps("Orin"), None);
        assert_eq!(gbps("Intel(R) Core(TM) i7-12700H"), None);
    }

    #[test]
    fn memory_modules_bound_a_run_only_with_no_layer_sent_to_a_card() {
        let mut ev = Evidence::default();
        ev.sched.hints.cpu_desc = Some("64GB DDR5-5600 on a 7950X".into());
        let mut run = Run::default();
        assert_eq!(
            for_run(&ev, &run).map(|d| d.entry.kind),
            Some(MemoryKind::Modules)
        );
        run.offload = Some(crate::evidence::Offload {
            requested: Some(40),
            ..Default::default()
        });
        assert!(for_run(&ev, &run).is_none());
        run.offload = Some(crate::evidence::Offload {
            requested: Some(40),
            gpu_layers: Some(0),
            ..Default::default()
        });
        assert!(
            for_run(&ev, &run).is_some(),
            "none placed: the modules hold it"
        );
    }
}

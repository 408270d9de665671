//! ncnn (benchncnn and apps): the benchmark header (`loop_count`, `num_threads`, `powersave`,
//! `gpu_device`), the Vulkan device capability lines in both layouts, and per-core max
//! frequencies. benchncnn reports latency per model, not tokens.

use super::cap;
use super::runs::RunCollector;
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Ncnn;

struct Re {
    gate: Regex,
    header: Regex,
    freq: Regex,
    vulkan: Regex,
}

/// Literals at least one of which every line this parser reads contains.
pub const KEYWORDS: &[&str] = &[
    "loop_count",
    "num_threads",
    "powersave",
    "gpu_device",
    "cooling_down",
    " max freq = ",
    "queueC=",
    "fp16-p/s",
    "fp16p=",
    "bugsbn1=",
    "subgroup=",
];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ncnn pattern compiles");
        Re {
            gate: super::literal_gate(KEYWORDS),
            header: r(r"^(loop_count|num_threads|powersave|gpu_device|cooling_down)\s*=\s*(-?\d+)"),
            freq: r(r"^(\d+) max freq = (\d+) khz"),
            vulkan: r(r"^\[(\d+) ([^\]]+)\]\s+(?:queueC=|fp16-p/s|fp16p=|bugsbn1=|subgroup=)"),
        }
    })
}

#[derive(Default)]
pub struct Ncnn;

impl FrameworkParser for Ncnn {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if !r.gate.is_match(msg) {
            return;
        }
        if let Some(c) = cap(&r.header, msg) {
            if &c[1] == "loop_count" {
                runs.boundary(FW, at, |r| r.n_threads.is_some());
            }
            let run = runs.run(FW, at);
            match &c[1] {
                "num_threads" => run.n_threads = c[2].parse().ok(),
                "gpu_device" => {
                    run.backend = Some(if &c[2] == "-1" {
                        "CPU".into()
                    } else {
                        format!("Vulkan{}", &c[2])
                    })
                }
                _ => {}
            }
            return;
        }
        if let Some(c) = cap(&r.freq, msg) {
            if let (Ok(cpu), Ok(khz)) = (c[1].parse::<u32>(), c[2].parse::<u64>()) {
                super::runs::add_cpus(runs.run(FW, at), &[cpu], khz);
            }
            return;
        }
        if let Some(c) = cap(&r.vulkan, msg) {
            let run = runs.run(FW, at);
            let d = c[2].trim().to_string();
            if !run.devices.contains(&d) {
                run.devices.push(d);
            }
        }
    }
}

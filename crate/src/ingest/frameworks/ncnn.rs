//! ncnn (benchncnn and apps): the benchmark header (`loop_count`, `num_threads`, `powersave`,
//! `gpu_device`), the Vulkan device capability lines in both layouts, and per-core max
//! frequencies. benchncnn reports latency per model, not tokens; benchncnn_llm (2026-05 on)
//! times one prefill and one decode step per model: `llama3.2_1b_256_prefill  min = …  max = …
//! avg = …  tps = …`, then the same for `_256_decode` (`_1k_` in its first week).

use super::cap;
use super::runs::{num, phase, PhaseKind, RunCollector};
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
    llm: Regex,
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
    "tps = ",
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
            llm: r(r"^\s*(\S+?)_(\d+k?)_(prefill|decode)\s+min\s*=\s*[\d.]+\s+max\s*=\s*[\d.]+\s+avg\s*=\s*([\d.]+)\s+tps\s*=\s*([\d.]+)\s*$"),
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
        if let Some(c) = cap(&r.llm, msg) {
            let context = match c[2].strip_suffix('k') {
                Some(k) => k.parse::<u64>().ok().map(|k| k * 1024),
                None => c[2].parse().ok(),
            };
            // A prefill row times the whole prompt; a decode row one step after that context,
            // so only the rate is a decode figure.
            let (kind, p) = if &c[3] == "prefill" {
                let p = phase(context, num(&c[4]), None, num(&c[5]));
                (PhaseKind::Prefill, p)
            } else {
                (PhaseKind::Decode, phase(None, None, None, num(&c[5])))
            };
            // Each model's pair is a run of its own (the collector opens one at each prefill),
            // keeping the header's threads and device.
            runs.phase(FW, at, kind, p);
            if let Some(run) = runs.open(FW) {
                run.model = Some(c[1].to_string());
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

#[cfg(test)]
mod tests {
    use crate::evidence::Run;
    use crate::ingest::frameworks::test_support::rates;

    fn runs(text: &str) -> Vec<Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    /// benchncnn_llm's `%30s  min = %7.2f  max = %7.2f  avg = %7.2f  tps = %7.2f`, two rows a
    /// model, after the header benchncnn also prints.
    #[test]
    fn benchncnn_llm_gives_a_run_per_model_with_both_phases() {
        let r = runs(concat!(
            "loop_count = 4\n",
            "num_threads = 4\n",
            "powersave = 2\n",
            "gpu_device = -1\n",
            "cooling_down = 1\n",
            "      qwen3_0.6b_256_prefill  min =  901.12  max =  955.40  avg =  921.73  tps =  277.74\n",
            "       qwen3_0.6b_256_decode  min =   38.02  max =   41.77  avg =   39.10  tps =   25.58\n",
            "     llama3.2_1b_1k_prefill  min = 6712.55  max = 6790.01  avg = 6750.20  tps =  151.70\n",
            "      llama3.2_1b_1k_decode  min =   91.30  max =   95.12  avg =   92.88  tps =   10.77\n",
        ));
        assert_eq!(r.len(), 2);
        assert_eq!(rates(&r[0]), (Some(277.74), Some(25.58)));
        assert_eq!(r[0].model.as_deref(), Some("qwen3_0.6b"));
        assert_eq!(r[0].prefill.as_ref().and_then(|p| p.tokens), Some(256));
        assert_eq!(r[0].prefill.as_ref().and_then(|p| p.ms), Some(921.73));
        assert_eq!(r[1].model.as_deref(), Some("llama3.2_1b"));
        assert_eq!(r[1].prefill.as_ref().and_then(|p| p.tokens), Some(1024));
        assert_eq!(rates(&r[1]), (Some(151.7), Some(10.77)));
        for run in &r {
            assert_eq!(run.n_threads, Some(4));
            assert_eq!(run.backend.as_deref(), Some("CPU"));
        }
    }

    /// benchncnn's vision rows have no `tps`: latency only, not read as a phase.
    #[test]
    fn benchncnn_vision_rows_stay_unread() {
        let r = runs(
            "num_threads = 4\n          squeezenet  min =    3.38  max =    3.52  avg =    3.43\n",
        );
        assert_eq!(r.len(), 1);
        assert!(r[0].prefill.is_none() && r[0].decode.is_none());
    }
}

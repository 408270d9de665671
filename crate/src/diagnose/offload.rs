//! Where the weights went between the CPU and an accelerator.
//!
//! - `offload.partial`: part of the model on the accelerator, the rest on the CPU (llama.cpp
//!   `offloaded 20/33 layers to GPU`, ollama's `layers.offload` against `layers.model` or `ollama
//!   ps`'s `38%/62% CPU/GPU`, or the model buffers split between `CUDA0` and `CPU`). Every token
//!   passes through every layer, so the layers left in system RAM set the pace.
//! - `offload.gpu-unused`: the accelerator took nothing. Why decides the fix, so the wording
//!   says which the log shows: a GPU found and given no layer, a binary built without a GPU
//!   backend, a GPU build that found no usable device, or a configuration that turned it off.
//!
//! A layer count alone is not proof of a GPU: llama.cpp prints "offloaded 29/29 layers to GPU"
//! on a CPU-only build and for RPC CPU servers, so a count needs a GPU buffer or device beside
//! it, or no buffers listed at all (the 2023 builds printed the count only with a GPU backend).

use super::run_facts::{
    framework_label, input_of, is_repack, layers_at_least, params_from_name, run_ref,
};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, FailureClass, Framework, NoGpu, Offload, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.gpu-unused", "offload.partial"];

/// How many times faster a discrete GPU reads its own memory than the CPU reads system RAM,
/// taken low on purpose: a desktop card's GDDR6 gives 250–1000 GB/s, dual-channel DDR4/DDR5
/// 40–90 GB/s, so 5× understates most pairs.
pub const DISCRETE_BW_RATIO: f64 = 5.0;

/// From this share of a full offload's need, the KV cache is named as what to cut first:
/// shrinking the context frees it without touching the model.
const KV_SHARE: f64 = 0.15;

/// Below this share of the model on the CPU, a partial offload is worth knowing, not a cause.
const MINOR_CPU_SHARE: f64 = 0.1;

/// A buffer split counts only from this CPU share, and only where no layer count was printed:
/// the token embeddings stay on the CPU in a full offload (decode reads one row of them per
/// token), and with a large vocabulary they are a third of a 1B model (gemma-3-1b: 30%).
pub(super) const BUFFER_CPU_SHARE: f64 = 0.45;

/// Model buffers, by name (`CPU_Mapped model`, `Vulkan0 model`, ...).
pub(super) fn model_buffers(run: &Run) -> impl Iterator<Item = (&String, &f64)> {
    run.buffers_mib
        .iter()
        .filter(|(k, _)| k.ends_with(" model"))
}

/// A buffer in system RAM: the CPU's own, or a GPU backend's pinned host buffer (`CUDA_Host`,
/// `ROCm_Host`, `Vulkan_Host`, `SYCL_Host`, `CANN_Host`), where llama.cpp keeps the layers it
/// did not offload so they copy to the device faster.
pub(super) fn on_cpu(name: &str) -> bool {
    name.starts_with("CPU")
        || name
            .split_whitespace()
            .next()
            .is_some_and(|device| device.ends_with("_Host"))
}

pub(super) fn any_rpc(run: &Run) -> bool {
    model_buffers(run).any(|(k, _)| k.starts_with("RPC"))
}

/// The accelerator's and the CPU's MiB of model buffers. A repacked copy counts only when no
/// other CPU buffer holds the weights.
pub(super) fn buffer_split(run: &Run) -> (f64, f64) {
    let sum = |f: &dyn Fn(&str) -> bool| -> f64 {
        model_buffers(run)
            .filter(|(k, _)| f(k))
            .map(|(_, v)| *v)
            .sum()
    };
    let gpu = sum(&|k| !on_cpu(k) && !k.starts_with("RPC"));
    let plain = sum(&|k| on_cpu(k) && !is_repack(k));
    let cpu = if plain > 0.0 {
        plain
    } else {
        sum(&|k| is_repack(k))
    };
    (gpu, cpu)
}

/// A GPU with its own memory, as far as the names tell: CUDA and ROCm outside the unified
/// memory boards, and desktop card names whatever the backend.
pub(super) fn discrete(run: &Run) -> bool {
    let names = || run.devices.iter().map(|d| d.to_ascii_lowercase());
    let unified = names().any(|d| {
        [
            "orin", "tegra", "xavier", "jetson", "thor", "gb10", "apple", "m1", "m2", "m3", "m4",
        ]
        .iter()
        .any(|w| d.contains(w))
    });
    if unified {
        return false;
    }
    let card = names().any(|d| {
        [
            "geforce",
            "rtx",
            "gtx",
            "quadro",
            "tesla",
            "radeon rx",
            "radeon pro",
            "arc a",
            "instinct",
        ]
        .iter()
        .any(|w| d.contains(w))
    });
    let library = run
        .offload
        .as_ref()
        .and_then(|o| o.library.as_deref())
        .is_some_and(|l| l == "cuda" || l == "rocm");
    let buffers = model_buffers(run).any(|(k, _)| k.starts_with("CUDA") || k.starts_with("ROCm"));
    card || library || buffers
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1024.0 * 1024.0 * 1024.0))
}

fn pct(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// Evidence at the placement line when the log gave one, else at the run.
fn at_line(ev: &Evidence, run: &Run, o: &Offload, fallback: String) -> EvidenceRef {
    let mut e = run_ref(ev, run, Quote::Input(fallback));
    if let (Some(line), Some(text)) = (o.line, &o.text) {
        e.lines = Some((line, line));
        e.quote = Some(Quote::Input(text.clone()));
    }
    e
}

fn finding(
    id: &'static str,
    variant: Option<&'static str>,
    severity: Severity,
    params: Vec<(&'static str, String)>,
    evidence: EvidenceRef,
) -> Finding {
    Finding::new(id, severity, params, vec![evidence]).with_variant(variant)
}

/// Where the run's model sits, read from the strongest statement the log gives.
enum Placement {
    /// Part on the accelerator: the CPU's share, and the wording.
    Partial {
        cpu_share: f64,
        variant: Option<&'static str>,
        extra: Vec<(&'static str, String)>,
    },
    /// Nothing on it, and why.
    Unused {
        variant: Option<&'static str>,
        extra: Vec<(&'static str, String)>,
    },
    Fine,
}

/// The first koboldcpp whose `--gpulayers` defaults to -1, layers estimated at load (its
/// commit 53bf0fb3, Sep 2024). Before, the default was 0: a GPU backend chosen with no
/// `--gpulayers` offloaded nothing and sped up prompt processing only.
const KOBOLD_AUTO_LAYERS: (u32, u32) = (1, 75);

/// The run's koboldcpp (its `Welcome to KoboldCpp - Version` line) estimates the layers itself.
/// An unknown version is not taken to: the finding's text names the version that decides.
fn kobold_estimates_layers(run: &Run) -> bool {
    run.build
        .as_deref()
        .and_then(|b| b.strip_prefix("koboldcpp "))
        .and_then(|v| {
            let (a, b) = v.split_once('.')?;
            Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?))
        })
        .is_some_and(|v| v >= KOBOLD_AUTO_LAYERS)
}

fn placement(run: &Run) -> Placement {
    let empty = Offload::default();
    let o = run.offload.as_ref().unwrap_or(&empty);
    let (gpu_mib, cpu_mib) = buffer_split(run);
    let gpu_evidence = gpu_mib > 0.0 || !run.devices.is_empty();
    let layers = o.gpu_layers.zip(o.model_layers).filter(|(_, m)| *m > 0);
    if !layers.is_some_and(|(n, _)| n > 0) {
        if let Some(why) = o.no_gpu {
            let variant = match why {
                NoGpu::NotCompiled => "not-compiled",
                NoGpu::NotFound => "not-found",
                NoGpu::DriverTooOld => "driver-old",
                NoGpu::Disabled => "disabled",
                NoGpu::CpuVectors => "cpu-vectors",
                NoGpu::CpuRunner => "cpu-runner",
            };
            return Placement::Unused {
                variant: Some(variant),
                extra: Vec::new(),
            };
        }
    }
    // A GPU backend chosen on the command line and no layer asked for: the option, not the
    // device, is the fix, whether or not the log goes on to count the layers.
    if let Some(flag) = o.gpu_flag.as_deref() {
        let none_placed = layers.map_or(true, |(n, _)| n == 0);
        let variant = match o.requested {
            Some(0) => Some("flag-zero"),
            None if !kobold_estimates_layers(run) => Some("kobold-default"),
            _ => None,
        };
        if let (true, Some(variant)) = (none_placed, variant) {
            return Placement::Unused {
                variant: Some(variant),
                extra: vec![("flag", flag.to_string())],
            };
        }
    }
    // A pasted llama.cpp command with no -ngl on a machine whose GPU the log names: the
    // default places nothing on it, whatever else the log goes on to print.
    // A GPU build pasted beside it is the same case, worded for a GPU the log does not name.
    let none_counted = layers.map_or(true, |(n, _)| n == 0);
    if run.framework == Some(Framework::LlamaCpp)
        && o.command_line.is_some()
        && o.requested.is_none()
        && none_counted
        && (gpu_evidence || o.gpu_build.is_some())
        && !any_rpc(run)
    {
        return match (run.devices.first(), &o.gpu_build) {
            (None, Some(flag)) if gpu_mib == 0.0 => Placement::Unused {
                variant: Some("ngl-default-build"),
                extra: vec![("flag", flag.clone())],
            },
            (device, _) => Placement::Unused {
                variant: Some("ngl-default"),
                extra: vec![("device", device.cloned().unwrap_or_default())],
            },
        };
    }
    if let Some(pct) = o.cpu_pct {
        // `ollama ps`: the model's bytes in system RAM against VRAM.
        return match pct {
            p if p >= 100.0 => Placement::Fine,
            p if p > 0.0 => Placement::Partial {
                cpu_share: p / 100.0,
                variant: Some("share"),
                extra: Vec::new(),
            },
            _ => Placement::Fine,
        };
    }
    let ollama_gpu = o.library.as_deref().is_some_and(|l| l != "cpu");
    // ollama ships GPU runners only, and names its buffers itself: its count needs no GPU
    // buffer beside it, unlike llama.cpp's, which a CPU-only build prints too.
    let ollama = run.framework == Some(Framework::Ollama);
    let unbuffered = model_buffers(run).next().is_none();
    let counted = gpu_evidence || ollama_gpu || unbuffered || ollama;
    if let Some((n, m)) = layers.filter(|_| counted && !any_rpc(run)) {
        if n == 0 && (gpu_evidence || ollama_gpu) {
            let device = run
                .devices
                .first()
                .cloned()
                .or_else(|| o.library.clone())
                .unwrap_or_default();
            let mut extra = vec![("device", device), ("model_layers", m.to_string())];
            // ollama sizes the layers itself (`layers.requested=-1`) against the free VRAM:
            // none placed means what a load keeps on the GPU besides them did not fit.
            let variant = match (o.requested, o.vram_free_bytes) {
                (Some(0), _) => "asked-zero",
                (None | Some(-1), Some(free)) if ollama => {
                    extra.push(("free", gib(free)));
                    "memory"
                }
                _ => "layers",
            };
            return Placement::Unused {
                variant: Some(variant),
                extra,
            };
        }
        // No device, no buffer: the count is all the log says (ollama's engine prints it beside
        // its own memory lines; llama.cpp before late 2023 only with a GPU backend built in).
        if n == 0 && (unbuffered || ollama) {
            // A llama.cpp command that asked for no layer, on a log that names no GPU: the CPU
            // run it asked for (a Raspberry Pi, a server without a supported card).
            let as_asked = !ollama && o.command_line.is_some() && o.requested.is_none();
            return Placement::Unused {
                variant: Some(if as_asked {
                    "cpu-as-asked"
                } else {
                    "layers-no-device"
                }),
                extra: vec![("model_layers", m.to_string())],
            };
        }
        if n > 0 && n < m {
            let mut extra = vec![
                ("gpu_layers", n.to_string()),
                ("model_layers", m.to_string()),
            ];
            let mut variant = None;
            if let (Some(free), Some(full)) = (o.vram_free_bytes, o.full_bytes) {
                if full > free {
                    variant = Some("memory");
                    extra.push(("free", gib(free)));
                    extra.push(("need", gib(full)));
                    // A long context's cache can be what pushes the layers out: say so first.
                    if let Some(kv) = o.kv_bytes.filter(|kv| *kv as f64 >= KV_SHARE * full as f64) {
                        variant = Some("memory-kv");
                        extra.push(("kv", gib(kv)));
                    }
                }
            }
            let mut cpu_share = f64::from(m - n) / f64::from(m);
            // The layers left behind are often the big ones (the output layer, a large vocab's
            // embeddings): the buffers say how many bytes decode reads from system RAM, which
            // is what sets its pace, where the count alone would understate it.
            // A memory-mapped CPU buffer spans from its first tensor to its last in the file,
            // GPU tensors between them included: taken only when the buffers add up to the
            // file, no more.
            let mapped = model_buffers(run).any(|(k, _)| k.contains("_Mapped"));
            let adds_up = run
                .model_bytes
                .is_some_and(|b| (gpu_mib + cpu_mib) * 1024.0 * 1024.0 <= 1.05 * b as f64);
            if variant.is_none() && gpu_mib > 0.0 && cpu_mib > 0.0 && (adds_up || !mapped) {
                let bytes_share = cpu_mib / (cpu_mib + gpu_mib);
                if bytes_share > cpu_share {
                    cpu_share = bytes_share;
                    variant = Some("layers-bytes");
                    extra.push(("cpu_mib", format!("{cpu_mib:.0}")));
                }
            }
            return Placement::Partial {
                cpu_share,
                variant,
                extra,
            };
        }
        if n > 0 {
            return Placement::Fine;
        }
    }
    // A command that asked for fewer layers than a model of its size has, where the log
    // prints neither the count nor the buffers that would say what was placed.
    if let Some(asked) = asked_short(run, o) {
        return asked;
    }
    if gpu_mib > 0.0 && !any_rpc(run) && o.gpu_layers.is_none() {
        let share = cpu_mib / (cpu_mib + gpu_mib);
        if share >= BUFFER_CPU_SHARE {
            return Placement::Partial {
                cpu_share: share,
                variant: Some("buffers"),
                extra: vec![
                    ("gpu_mib", format!("{gpu_mib:.0}")),
                    ("cpu_mib", format!("{cpu_mib:.0}")),
                ],
            };
        }
        return Placement::Fine;
    }
    // The buffers' own verdict: a device named, every model buffer on the CPU.
    let all_cpu = model_buffers(run).next().is_some() && model_buffers(run).all(|(k, _)| on_cpu(k));
    match run.devices.first() {
        Some(d) if all_cpu => Placement::Unused {
            variant: None,
            extra: vec![("device", d.clone())],
        },
        _ => Placement::Fine,
    }
}

/// `-ngl N` against the layers a dense model of the named size has at least
/// ([`layers_at_least`]): the CPU's share is at least what the bound leaves over.
fn asked_short(run: &Run, o: &Offload) -> Option<Placement> {
    let unprinted = o.gpu_layers.is_none() && model_buffers(run).next().is_none();
    if run.framework != Some(Framework::LlamaCpp) || !unprinted || any_rpc(run) {
        return None;
    }
    let asked = u32::try_from(o.requested?).ok().filter(|n| *n > 0)?;
    let params = run
        .params
        .or_else(|| params_from_name(run.model.as_deref()?))?;
    let layers = layers_at_least(params).filter(|l| asked < *l)?;
    Some(Placement::Partial {
        cpu_share: f64::from(layers - asked) / f64::from(layers),
        variant: Some("asked"),
        extra: vec![
            ("gpu_layers", asked.to_string()),
            ("model_layers", layers.to_string()),
            ("params", crate::figures::params(params)),
        ],
    })
}

/// The run's input says it ran out of memory: then the layers on the GPU were already too many.
fn ran_out_of_memory(ev: &Evidence, run: &Run) -> bool {
    let Some(input) = ev.inputs.iter().position(|i| i.name == run.input) else {
        return false;
    };
    ev.failures
        .iter()
        .any(|f| f.input == input && f.class == FailureClass::OutOfMemory)
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in &ev.runs {
        let buffers: Vec<String> = model_buffers(run)
            .map(|(k, v)| format!("{k} buffer = {v:.2} MiB"))
            .collect();
        let empty = Offload::default();
        let o = run.offload.as_ref().unwrap_or(&empty);
        let fallback = match run.devices.first() {
            Some(d) => format!("device: {d}; {}", buffers.join("; ")),
            None => buffers.join("; "),
        };
        let mut params = vec![("framework", framework_label(run))];
        match placement(run) {
            Placement::Fine => {}
            Placement::Unused { variant, extra } => {
                params.extend(extra);
                // The buffers' wording quotes the buffers, which prove it; the others their line.
                let evidence = if variant.is_none() {
                    run_ref(ev, run, Quote::Input(fallback))
                } else {
                    at_line(ev, run, o, fallback)
                };
                // A CPU run as the command asked is worth knowing, not a cause.
                let severity = if variant == Some("cpu-as-asked") {
                    Severity::Info
                } else {
                    Severity::Warning
                };
                out.push(finding(IDS[0], variant, severity, params, evidence));
            }
            Placement::Partial {
                cpu_share,
                variant,
                extra,
            } => {
                // Advising more layers on a GPU whose memory just ran out would be harmful;
                // run.failed asks for a smaller footprint instead.
                if ran_out_of_memory(ev, run) {
                    continue;
                }
                params.push(("cpu_share", pct(cpu_share)));
                params.extend(extra);
                // A card the user names counts where the log names no device of its own.
                let named_card = run.devices.is_empty()
                    && o.library.is_none()
                    && ev.inputs[input_of(ev, run)].names_card;
                if discrete(run) || named_card {
                    params.push(("bw_ratio", format!("{DISCRETE_BW_RATIO:.0}")));
                }
                let severity = if cpu_share < MINOR_CPU_SHARE {
                    Severity::Info
                } else {
                    Severity::Warning
                };
                let evidence = if variant == Some("buffers") {
                    run_ref(ev, run, Quote::Input(fallback))
                } else {
                    at_line(ev, run, o, fallback)
                };
                out.push(finding(IDS[1], variant, severity, params, evidence));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(devices: &[&str], buffers: &[(&str, f64)]) -> Evidence {
        with(devices, buffers, None)
    }

    fn with(devices: &[&str], buffers: &[(&str, f64)], offload: Option<Offload>) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("a.log");
        ev.runs.push(Run {
            input: "a.log".into(),
            devices: devices.iter().map(|d| d.to_string()).collect(),
            buffers_mib: buffers.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            offload,
            ..Run::default()
        });
        ev
    }

    fn layers(n: u32, m: u32) -> Option<Offload> {
        Some(Offload {
            gpu_layers: Some(n),
            model_layers: Some(m),
            line: Some(7),
            text: Some(format!("load_tensors: offloaded {n}/{m} layers to GPU")),
            ..Offload::default()
        })
    }

    #[test]
    fn fewer_layers_asked_than_the_named_size_has_is_partial_at_least() {
        let asked = |model: &str, n: i64, count: Option<(u32, u32)>| {
            let mut ev = with(
                &[],
                &[],
                Some(Offload {
                    requested: Some(n),
                    gpu_layers: count.map(|c| c.0),
                    model_layers: count.map(|c| c.1),
                    ..Offload::default()
                }),
            );
            ev.runs[0].framework = Some(Framework::LlamaCpp);
            ev.runs[0].model = Some(model.to_string());
            crate::diagnose::apply(rule, &ev)
        };
        let f = asked("llama-2-70b-chat.Q4_K_M.gguf", 40, None);
        assert_eq!((f[0].id, f[0].variant), ("offload.partial", Some("asked")));
        assert!(f[0].params.contains(&("cpu_share", "38%".into())));
        assert!(f[0].params.contains(&("params", "70B".into())));
        // Enough for any model of the size, a mixture, an unsized name, or a printed count: the
        // ask says nothing more.
        assert!(asked("llama-2-70b-chat.Q4_K_M.gguf", 99, None).is_empty());
        assert!(asked("mixtral-8x7b-v0.1.Q4_K_M.gguf", 20, None).is_empty());
        assert!(asked("ggml-model-q4_0.gguf", 20, None).is_empty());
        assert!(asked("llama-2-7b.Q4_0.gguf", 33, Some((33, 33))).is_empty());
    }

    #[test]
    fn a_found_gpu_with_no_model_buffer_is_unused() {
        let ev = run(
            &["Samsung Xclipse 920"],
            &[("CPU_Mapped model", 1210.6), ("CPU_REPACK model", 645.75)],
        );
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "offload.gpu-unused");
        assert!(f[0]
            .params
            .contains(&("device", "Samsung Xclipse 920".into())));
    }

    #[test]
    fn weights_on_the_gpu_or_rpc_or_no_device_are_not() {
        assert!(crate::diagnose::apply(
            rule,
            &run(
                &["Adreno 740"],
                &[("Vulkan0 model", 3900.0), ("CPU_Mapped model", 80.0)]
            )
        )
        .is_empty());
        assert!(crate::diagnose::apply(
            rule,
            &run(
                &["RPC[172.31.27.42:50052]"],
                &[("RPC[172.31.27.42:50052] model", 18821.0)]
            )
        )
        .is_empty());
        assert!(crate::diagnose::apply(rule, &run(&[], &[("CPU model", 7296.0)])).is_empty());
        assert!(crate::diagnose::apply(rule, &run(&["Adreno 740"], &[])).is_empty());
    }

    #[test]
    fn a_layer_split_is_partial_and_sized_only_for_a_discrete_gpu() {
        let ev = with(
            &["NVIDIA GeForce RTX 3060"],
            &[("CUDA0 model", 2800.0), ("CPU_Mapped model", 1900.0)],
            layers(20, 33),
        );
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "offload.partial");
        assert_eq!(f[0].severity, Severity::Warning);
        // 13 of 33 layers is 39%. The mapped buffer's 1900 MiB may span GPU tensors too: with
        // no file size to check it against, the count stands.
        assert_eq!(f[0].param("cpu_share"), Some("39%"));
        assert_eq!(f[0].variant, None);
        assert_eq!(f[0].param("bw_ratio"), Some("5"));
        assert_eq!(f[0].evidence[0].lines, Some((7, 7)));
        let igpu = with(
            &["AMD Radeon Graphics (RADV RENOIR)"],
            &[("Vulkan0 model", 2800.0), ("CPU_Mapped model", 1900.0)],
            layers(20, 33),
        );
        let f = crate::diagnose::apply(rule, &igpu);
        assert_eq!(f[0].param("bw_ratio"), None, "shared memory: unsized");
        // The buffers add up to the file: the bytes (1900 of 4700 MiB) set the pace.
        let mut sized = ev;
        sized.runs[0].model_bytes = Some(4700 * 1024 * 1024);
        let f = crate::diagnose::apply(rule, &sized);
        assert_eq!(f[0].param("cpu_share"), Some("40%"));
        assert_eq!(f[0].variant, Some("layers-bytes"));
    }

    #[test]
    fn the_layers_left_in_pinned_host_memory_are_sized_by_their_bytes() {
        // 31 of 33 layers is 6% by count, but what stayed behind (the output layer, the
        // embeddings) is 18% of the bytes, in CUDA's pinned host buffer.
        let ev = with(
            &[],
            &[("CUDA_Host model", 809.84), ("CUDA0 model", 3627.97)],
            layers(31, 33),
        );
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "offload.partial");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].param("cpu_share"), Some("18%"));
        assert_eq!(f[0].param("cpu_mib"), Some("810"));
        // A count that already says more than the bytes keeps its own wording.
        let ev = with(
            &["NVIDIA GeForce RTX 3060"],
            &[("CUDA0 model", 4000.0), ("CPU_Mapped model", 100.0)],
            layers(20, 33),
        );
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f[0].variant, None);
        assert_eq!(f[0].param("cpu_share"), Some("39%"));
    }

    #[test]
    fn a_split_that_ran_out_of_memory_is_not_told_to_offload_more() {
        let mut ev = with(
            &["QUALCOMM Adreno(TM)"],
            &[("OpenCL0 model", 3900.0), ("CPU model", 70.0)],
            layers(32, 33),
        );
        ev.failures.push(crate::evidence::FailureLine {
            input: 0,
            line: 23,
            class: FailureClass::OutOfMemory,
            text: "ggml_opencl: clCreateBuffer error -5 at ggml-opencl.cpp:1312".into(),
        });
        assert!(crate::diagnose::apply(rule, &ev).is_empty());
        // A crash of another kind leaves the placement advice standing.
        ev.failures[0].class = FailureClass::Crash;
        assert_eq!(crate::diagnose::apply(rule, &ev)[0].id, "offload.partial");
    }

    #[test]
    fn a_full_count_or_a_cpu_build_count_is_not_partial() {
        let full = with(
            &["NVIDIA GeForce RTX 4090"],
            &[("CUDA0 model", 4400.0), ("CPU_Mapped model", 280.0)],
            layers(33, 33),
        );
        assert!(crate::diagnose::apply(rule, &full).is_empty());
        // A CPU-only build prints the count too; without a GPU it says nothing.
        let cpu = with(&[], &[("CPU_Mapped model", 4219.0)], layers(12, 29));
        assert!(crate::diagnose::apply(rule, &cpu).is_empty());
    }

    #[test]
    fn a_bare_zero_count_is_a_cause_unless_the_command_asked_for_the_cpu() {
        let framed = |o: Option<Offload>| {
            let mut ev = with(&[], &[], o);
            ev.runs[0].framework = Some(Framework::LlamaCpp);
            crate::diagnose::apply(rule, &ev)
        };
        let f = framed(layers(0, 33));
        assert_eq!(f[0].variant(), Some("layers-no-device"));
        assert_eq!(f[0].severity, Severity::Warning);
        let commanded = Offload {
            command_line: Some(3),
            ..layers(0, 33).unwrap()
        };
        let f = framed(Some(commanded.clone()));
        assert_eq!(f[0].variant(), Some("cpu-as-asked"));
        assert_eq!(f[0].severity, Severity::Info);
        // Asked for layers and given none: the GPU was not found, a cause again.
        let asked = Offload {
            requested: Some(9999),
            ..commanded
        };
        assert_eq!(framed(Some(asked))[0].severity, Severity::Warning);
    }

    #[test]
    fn the_reason_for_an_unused_gpu_is_named() {
        let o = Offload {
            no_gpu: Some(NoGpu::NotCompiled),
            text: Some(
                "warning: not compiled with GPU offload support, --gpu-layers option will be ignored"
                    .into(),
            ),
            line: Some(1),
            ..Offload::default()
        };
        let f = crate::diagnose::apply(rule, &with(&[], &[("CPU model", 3900.0)], Some(o)));
        assert_eq!(f[0].id, "offload.gpu-unused");
        assert_eq!(f[0].variant(), Some("not-compiled"));
        let asked = Offload {
            requested: Some(0),
            ..layers(0, 33).unwrap()
        };
        let f = crate::diagnose::apply(
            rule,
            &with(
                &["NVIDIA GeForce RTX 3060"],
                &[("CPU model", 3900.0)],
                Some(asked),
            ),
        );
        assert_eq!(f[0].variant(), Some("asked-zero"));
    }

    #[test]
    fn ollama_ps_and_buffer_splits() {
        let ps = Offload {
            cpu_pct: Some(48.0),
            ..Offload::default()
        };
        let f = crate::diagnose::apply(rule, &with(&[], &[], Some(ps)));
        assert_eq!(
            (f[0].id, f[0].variant()),
            ("offload.partial", Some("share"))
        );
        let gpu = Offload {
            cpu_pct: Some(0.0),
            ..Offload::default()
        };
        assert!(crate::diagnose::apply(rule, &with(&[], &[], Some(gpu))).is_empty());
        let split = run(
            &[],
            &[
                ("Vulkan0 model", 4595.27),
                ("CPU_Mapped model", 7024.0),
                ("CPU_AARCH64 model", 2212.03),
            ],
        );
        let f = crate::diagnose::apply(rule, &split);
        assert_eq!(f[0].variant(), Some("buffers"));
        assert_eq!(f[0].param("cpu_share"), Some("60%"));
    }
}

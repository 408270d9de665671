//! `cpu.missing-*`: the build or the CPU lacks the instruction the quant kernels need. The
//! flags come from llama.cpp's system_info (build features), MNN's "The device supports" line
//! (CPU features), or any parser that fills `cpu_features`; only flags stated off count.
//!
//! Whether the CPU itself has the instruction decides the fix: a rebuild where it does, another
//! backend where it does not. `/proc/cpuinfo` or `lscpu` in the same analysis tells; without
//! them the finding says that they would.

use super::run_facts::{framework_label, run_ref};
use super::{EvidenceRef, Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::sched::CpuFlags;
use crate::evidence::{Evidence, Offload, Run};
use crate::views::Views;

pub const IDS: &[&str] = &[
    "cpu.missing-dotprod",
    "cpu.missing-i8mm",
    "cpu.missing-avx2",
    "cpu.missing-avx-vnni",
];

/// One instruction the kernels want.
struct Check {
    id: &'static str,
    severity: Severity,
    /// The names the build's flag goes by.
    names: &'static [&'static str],
    /// Build flags that must be on for it to matter.
    needs: &'static [&'static str],
    /// Build flags that do its job when on: a wider kernel that makes the missing one moot.
    superseded_by: &'static [&'static str],
    /// The kernel's name for it in `/proc/cpuinfo` / lscpu, and a flag every CPU of that
    /// architecture lists (so an x86 `flags` line says nothing of an Arm instruction).
    cpu_flag: &'static str,
    arch_flag: &'static str,
}

const CHECKS: &[Check] = &[
    Check {
        id: "cpu.missing-dotprod",
        severity: Severity::Critical,
        names: &["DOTPROD", "i8sdot", "dotprod", "asimddp"],
        needs: &[],
        superseded_by: &[],
        cpu_flag: "asimddp",
        arch_flag: "asimd",
    },
    // I8MM only matters once the dot-product path is there; without DOTPROD that finding leads.
    Check {
        id: "cpu.missing-i8mm",
        severity: Severity::Info,
        names: &["MATMUL_INT8", "i8mm", "I8MM"],
        needs: &["DOTPROD", "i8sdot", "dotprod"],
        superseded_by: &[],
        cpu_flag: "i8mm",
        arch_flag: "asimd",
    },
    Check {
        id: "cpu.missing-avx2",
        severity: Severity::Critical,
        names: &["AVX2"],
        needs: &["AVX", "SSE3"],
        superseded_by: &[],
        cpu_flag: "avx2",
        arch_flag: "sse2",
    },
    Check {
        id: "cpu.missing-avx-vnni",
        severity: Severity::Info,
        names: &["AVX_VNNI"],
        needs: &["AVX2"],
        // The AVX-512 VNNI kernels do the same int8 multiply-add, 512 bits wide.
        superseded_by: &["AVX512_VNNI"],
        cpu_flag: "avx_vnni",
        arch_flag: "sse2",
    },
];

/// Whether `run`'s flags describe the CPU rather than the build: MNN prints what it detected
/// on the device ("The device supports: i8sdot:0 ..."); llama.cpp prints what it was built with.
fn flags_describe_cpu(run: &Run) -> bool {
    run.framework == Some(crate::evidence::Framework::Mnn)
}

/// What the CPU's own flag list says of `check`: `Some(true)` it has the instruction,
/// `Some(false)` it lacks it, `None` no list of that architecture in the analysis.
fn cpu_has<'a>(ev: &'a Evidence, check: &Check) -> Option<(bool, &'a CpuFlags)> {
    let flags = ev.sched.hints.cpu_flags.as_ref()?;
    flags
        .names
        .contains(check.arch_flag)
        .then(|| (flags.names.contains(check.cpu_flag), flags))
}

/// A build with no vector extension on at all, and AVX stated off: the x86-64 baseline (an
/// arm64 build always has NEON, POWER VSX, RISC-V its V flag), whose kernels are scalar.
fn x86_baseline(run: &Run) -> bool {
    let vector = |n: &str| {
        [
            "SSE",
            "AVX",
            "NEON",
            "SVE",
            "VSX",
            "WASM_SIMD",
            "RISCV_V",
            "VXE",
            "LASX",
            "LSX",
        ]
        .iter()
        .any(|p| n.starts_with(p))
    };
    run.cpu_features.get("AVX") == Some(&false)
        && !run.cpu_features.iter().any(|(n, on)| *on && vector(n))
}

/// Prefill tok/s over decode tok/s, when the run states both from a prompt long enough to batch.
fn prefill_over_decode(run: &Run) -> Option<f64> {
    let prefill = run.prefill.as_ref()?;
    if prefill.tokens.is_some_and(|n| n < MIN_BATCHED_PROMPT) {
        return None;
    }
    let (p, d) = (prefill.tok_s?, run.decode.as_ref()?.tok_s?);
    (p > 0.0 && d > 0.0).then(|| p / d)
}

/// Prompts shorter than this say little of batched throughput.
const MIN_BATCHED_PROMPT: u64 = 16;

fn flag(run: &Run, names: &[&str]) -> Option<(String, bool)> {
    names
        .iter()
        .find_map(|n| run.cpu_features.get(*n).map(|v| ((*n).to_string(), *v)))
}

/// Arm cores without the int8 matrix-multiply extension (it came with Armv8.6: Cortex-A510,
/// A710, X2 and later have it).
const NO_I8MM: &[&str] = &[
    "Cortex-A53",
    "Cortex-A55",
    "Cortex-A57",
    "Cortex-A72",
    "Cortex-A73",
    "Cortex-A75",
    "Cortex-A76",
    "Cortex-A77",
    "Cortex-A78",
    "Cortex-A78AE",
    "Cortex-X1",
];

/// Every core the topology names (a SoC preset, `/proc/cpuinfo` part ids) lacks I8MM.
fn cores_lack_i8mm(views: &Views) -> bool {
    let cpus = &views.topology.cpus;
    !cpus.is_empty()
        && cpus
            .iter()
            .all(|c| c.core.as_deref().is_some_and(|n| NO_I8MM.contains(&n)))
}

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let arm = super::cpu_emulated::ArmMachine::of(ev);
    let mut out = Vec::new();
    for check in CHECKS {
        let (id, severity, names, needs) = (check.id, check.severity, check.names, check.needs);
        let hardware = cpu_has(ev, check);
        // An optional instruction the CPU does not have is not missing from the build.
        if severity == Severity::Info && matches!(hardware, Some((false, _))) {
            continue;
        }
        if id == "cpu.missing-i8mm" && hardware.is_none() && cores_lack_i8mm(views) {
            continue;
        }
        // One finding per id: every run that lacks the flag is evidence.
        let mut refs = Vec::new();
        let mut first: Option<(&Run, String)> = None;
        for run in &ev.runs {
            let Some((name, false)) = flag(run, names) else {
                continue;
            };
            // An x86 build on an ARM machine lacks every x86 extension for another reason
            // (`cpu.x86-build-on-arm` says which).
            if arm.emulates(run) {
                continue;
            }
            // An optional instruction speeds the CPU's kernels only: with every layer on the
            // GPU (Metal on an M1, CUDA) the CPU does not decode.
            if severity == Severity::Info && run.offload.as_ref().is_some_and(Offload::all_layers) {
                continue;
            }
            let needed = needs
                .iter()
                .any(|n| run.cpu_features.get(*n) == Some(&true));
            let baseline = check.arch_flag == "sse2" && x86_baseline(run);
            if !needs.is_empty() && !needed && !baseline {
                continue;
            }
            if check
                .superseded_by
                .iter()
                .any(|n| run.cpu_features.get(*n) == Some(&true))
            {
                continue;
            }
            let on: Vec<&str> = run
                .cpu_features
                .iter()
                .filter(|(_, v)| **v)
                .map(|(k, _)| k.as_str())
                .collect();
            refs.push(run_ref(
                ev,
                run,
                Quote::phrase(
                    "quote.cpu.flag-off",
                    vec![("flag", name.to_string()), ("on", on.join(", "))],
                ),
            ));
            first.get_or_insert((run, name));
        }
        let Some((run, name)) = first else {
            continue;
        };
        let quant = run
            .quant
            .clone()
            .unwrap_or_else(|| "@cpu.quant.unknown".into());
        let runs = refs.len();
        let mut params = vec![
            ("framework", framework_label(run)),
            ("flag", name),
            ("quant", quant),
            ("runs", runs.to_string()),
            ("hw_flag", check.cpu_flag.to_string()),
        ];
        // How much faster prefill ran than decode: the verdict reads a decode as bound by the
        // kernels rather than by memory when prefill, which reuses each weight for a whole
        // batch, is barely faster.
        if let Some(r) = prefill_over_decode(run) {
            params.push(("prefill_decode", format!("{r:.2}")));
        }
        let mut variant = None;
        match hardware {
            Some((has, flags)) => {
                let source = format!("{}:{}", ev.inputs[flags.input].name, flags.line);
                params.extend([
                    (
                        "hardware",
                        if has {
                            "@cpu.hardware.has"
                        } else {
                            "@cpu.hardware.lacks"
                        }
                        .to_string(),
                    ),
                    ("hw_field", flags.field.to_string()),
                    ("hw_source", source),
                ]);
                variant = Some(if has { "cpu-has" } else { "cpu-lacks" });
                refs.push(EvidenceRef {
                    input: flags.input,
                    lines: Some((flags.line, flags.line)),
                    time_s: None,
                    quote: Some(Quote::phrase(
                        if has {
                            "quote.cpu.hw-has"
                        } else {
                            "quote.cpu.hw-lacks"
                        },
                        vec![
                            ("field", flags.field.to_string()),
                            ("flag", check.cpu_flag.to_string()),
                        ],
                    )),
                });
            }
            // The framework checked the device itself: its "off" is the CPU's.
            None if flags_describe_cpu(run) => {
                if severity == Severity::Info {
                    continue;
                }
                params.push(("hardware", "@cpu.hardware.framework-says".to_string()));
                variant = Some("cpu-lacks");
            }
            None => params.push(("hardware", "@cpu.hardware.unknown".to_string())),
        }
        out.push(Finding {
            variant,
            id,
            severity,
            params,
            count: Some(runs as u64),
            // The CPU's own flags, last, stay in view however many runs there are.
            evidence: {
                let cpu = hardware.is_some().then(|| refs.pop()).flatten();
                refs.into_iter().take(5).chain(cpu).collect()
            },
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

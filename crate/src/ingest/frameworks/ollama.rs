//! ollama: the server log (`ollama serve` stderr, `journalctl -u ollama`, the Windows
//! `server.log`) and `ollama ps`. The server logs through Go's slog text handler, one
//! `time=… level=… source=… msg="…" key=value …` record per line, wherever it is wrapped:
//!
//! - `msg="inference compute"`: each GPU found (`library=cuda … name="…" total="…"
//!   available="…"`), or `library=cpu` when none was; `msg="no compatible GPUs were discovered"`;
//!   `msg="CPU does not have minimum vector extensions, GPU inference disabled"` (x86 without AVX);
//! - `msg="offload to cuda"` (2024-06 to 2025-05; `offload to gpu` before it): the layer
//!   placement it chose, `layers.requested` / `layers.model` / `layers.offload`, and the memory
//!   behind it, `memory.available` (per GPU) against `memory.required.full`;
//! - `msg="starting llama server" cmd="… --n-gpu-layers 20 --threads 8 …"` (`starting runner`
//!   since 2025); its runner's own llama.cpp lines, and since 2025 the Go engine's
//!   `msg="offloaded 20/33 layers to GPU"`, are read by the llama.cpp parser into the same run;
//! - `msg="server config" env="map[… OLLAMA_LLM_LIBRARY:cpu …]"`: settings that turn the GPU off;
//! - `msg="model weights" device=CUDA0 size="5.2 GiB"` (the Go engine's memory summary, one line
//!   per device holding weights, `CPU` for system RAM): the model buffers, as llama.cpp's
//!   `CUDA0 model buffer size` lines would give them.
//!
//! `ollama ps` prints `NAME ID SIZE PROCESSOR [CONTEXT] UNTIL`, the processor as `100% GPU`,
//! `100% CPU` or `48%/52% CPU/GPU` (the model's bytes in system RAM against VRAM).
//! Users paste its rows under their own label to compare versions or settings (`0.7.0: …`):
//! the label names the run.

use super::llama_cpp::{offload, quote_placement};
use super::runs::{num, RunCollector};
use super::FrameworkParser;
use crate::evidence::{Framework, NoGpu, Run};
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::Ollama;

/// Literals at least one of which every line this parser reads contains.
pub const KEYWORDS: &[&str] = &["msg=", "CPU", "GPU", "server config"];

struct Re {
    ps_row: Regex,
    bytes: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("ollama pattern compiles");
        Re {
            // A pasted row may carry the user's short label before it (`0.7.0: `, `before: `,
            // `v0.6.8 -> `, `**new:** `). The label must end in a separator and a space, so the
            // `name:tag` of an unlabelled row is never taken for one.
            ps_row: r(
                r"^\s*(?:\**([\w.+-]{1,24})(?:\s*(?:->|=>|→)|:\**\s|：)\**\s*)?(\S+)\s+([0-9a-f]{12})\s+([\d.]+\s*[KMGT]?B)\s+(100% GPU|100% CPU|(\d+)%/(\d+)% CPU/GPU)(?:\s|$)",
            ),
            bytes: r(r"([\d.]+)\s*([KMGT]i?B|B)\b"),
        }
    })
}

/// The value of `key=` in a slog text record: quoted (`"…"`, with `\"` escapes left in) or up
/// to the next space. The key must start a field, so `layers.model` never matches inside
/// `xlayers.model`.
fn field<'a>(msg: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = msg[from..].find(key) {
        let start = from + i;
        let end = start + key.len();
        from = end;
        let bounded = start == 0 || msg.as_bytes()[start - 1] == b' ';
        if !bounded || msg.as_bytes().get(end) != Some(&b'=') {
            continue;
        }
        let rest = &msg[end + 1..];
        return Some(match rest.strip_prefix('"') {
            Some(q) => {
                let mut close = q.len();
                let b = q.as_bytes();
                let mut j = 0;
                while j < b.len() {
                    match b[j] {
                        b'\\' => j += 2,
                        b'"' => {
                            close = j;
                            break;
                        }
                        _ => j += 1,
                    }
                }
                &q[..close.min(q.len())]
            }
            None => rest.split(' ').next().unwrap_or(""),
        });
    }
    None
}

/// Every size in a value (`11.6 GiB`, `[7.6 GiB 7.6 GiB]`, `6.9 GB`), summed, in bytes.
fn bytes(v: &str) -> Option<u64> {
    let mut total = 0.0;
    let mut any = false;
    for c in re().bytes.captures_iter(v) {
        let Some(x) = num(&c[1]) else { continue };
        let mul = match &c[2] {
            "KiB" => 1024.0,
            "MiB" => 1024.0 * 1024.0,
            "GiB" => 1024.0 * 1024.0 * 1024.0,
            "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
            "KB" => 1e3,
            "MB" => 1e6,
            "GB" => 1e9,
            "TB" => 1e12,
            _ => 1.0,
        };
        total += x * mul;
        any = true;
    }
    any.then(|| total.round() as u64)
}

/// What the server said at start-up, before any model loaded: it holds for every model it
/// loads later.
#[derive(Default)]
pub struct Ollama {
    gpus: Vec<String>,
    no_gpu: Option<(NoGpu, u64, String)>,
    /// 2024's GPU discovery (`Discovered GPU libraries: []`): the first empty search, and
    /// whether any search found a library or a GPU. Every search empty is no GPU, told at the
    /// end of the input: the ROCm search follows the NVIDIA one.
    empty_discovery: Option<(u64, String)>,
    discovered: bool,
    /// The first line saying the CUDA runtime needs a newer driver.
    old_driver: Option<(u64, String)>,
}

impl Ollama {
    fn startup_facts(&self, run: &mut Run) {
        for g in &self.gpus {
            if !run.devices.contains(g) && run.devices.len() < 16 {
                run.devices.push(g.clone());
            }
        }
        if let Some((why, at, text)) = &self.no_gpu {
            let o = offload(run);
            if o.no_gpu.is_none() {
                o.no_gpu = Some(*why);
                quote_placement(o, *at, text, false);
            }
        }
    }

    fn record(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        // Before slog (to early 2024, and the start-up's `server config` to late 2024), ollama
        // logged through Go's log package: `2024/06/10 10:00:00 routes.go:1008: INFO server
        // config env=…`, `gpu.go:248: Discovered GPU libraries: []`.
        let what = match field(msg, "msg").or_else(|| go_log_message(msg)) {
            Some(w) if w.starts_with("server config env=") => "server config",
            Some(w) => w,
            None => return,
        };
        if let Some(found) = what.strip_prefix("Discovered GPU libraries:") {
            if found.trim() == "[]" {
                self.empty_discovery
                    .get_or_insert_with(|| (at, msg.to_string()));
            } else {
                self.discovered = true;
            }
            return;
        }
        // The runtime ollama ships needs a newer driver (`cudart init failure: 35`): kept as
        // the reason for a search that then finds nothing.
        if what.contains("driver is too old") || what.contains("cudart init failure: 35") {
            self.old_driver.get_or_insert_with(|| (at, msg.to_string()));
            return;
        }
        if what.ends_with(" GPU detected") && what != "no GPU detected" {
            // `Nvidia GPU detected`, `Radeon GPU detected` (2024).
            self.discovered = true;
            return;
        }
        if what == "inference compute" {
            let library = field(msg, "library").unwrap_or("");
            if library == "cpu" {
                self.no_gpu
                    .get_or_insert((NoGpu::NotFound, at, msg.to_string()));
            } else {
                let name = field(msg, "name")
                    .filter(|n| !n.is_empty())
                    .or(field(msg, "description"))
                    .unwrap_or(library);
                if !name.is_empty() && self.gpus.len() < 16 {
                    self.gpus.push(name.to_string());
                }
                let run = runs.run(FW, at);
                self.startup_facts(run);
                return;
            }
        } else if what.starts_with("no compatible GPUs") || what == "no GPU detected" {
            self.no_gpu = Some(match self.old_driver.clone() {
                Some((line, text)) => (NoGpu::DriverTooOld, line, text),
                None => (NoGpu::NotFound, at, msg.to_string()),
            });
        } else if what.starts_with("CPU does not have minimum vector extensions")
            || what.starts_with("CPU does not have AVX")
        {
            // gpu.go (2024): the GPU runners are built with AVX, so on an x86 CPU without it
            // the GPUs are not used. Early 2024: `msg="CPU does not have AVX or AVX2, disabling
            // GPU support."`; then `msg="CPU does not have minimum vector extensions, GPU
            // inference disabled" required=avx detected="no vector extensions"`, and later one
            // message ending `Required:avx  Detected:no vector extensions`.
            self.no_gpu = Some((NoGpu::CpuVectors, at, msg.to_string()));
        } else if what == "server config" {
            let env = field(msg, "env").unwrap_or("");
            let off = env.contains("OLLAMA_LLM_LIBRARY:cpu")
                || env.contains("CUDA_VISIBLE_DEVICES:-1")
                || env.contains("OLLAMA_NUM_GPU:0 ");
            if !off {
                return;
            }
            self.no_gpu = Some((NoGpu::Disabled, at, msg.to_string()));
        } else if what == "system" {
            self.system(msg, at, runs);
            return;
        } else if what == "model weights" {
            // The engine's memory summary (ml/backend.go, from late 2025): one line per device
            // that holds weights, the model buffers llama.cpp prints, in ollama's words.
            let device = field(msg, "device").filter(|d| !d.is_empty());
            if let (Some(device), Some(size)) = (device, field(msg, "size").and_then(bytes)) {
                let run = runs.run(FW, at);
                *run.buffers_mib
                    .entry(format!("{device} model"))
                    .or_insert(0.0) += size as f64 / (1024.0 * 1024.0);
            }
            return;
        } else if let Some(library) = what.strip_prefix("offload to ") {
            self.offload_to(library, msg, at, runs);
            return;
        } else if what == "offload" {
            // From 2025-02 the server logs the estimate once per load as `msg=offload
            // library=cuda layers.…`, with the same fields as `offload to cuda`.
            let library = field(msg, "library").unwrap_or("gpu").to_string();
            self.offload_to(&library, msg, at, runs);
            return;
        } else if what == "starting llama server" || what == "starting runner" {
            let cmd = field(msg, "cmd").unwrap_or("");
            let run = runs.run(FW, at);
            let arg = |name: &str| {
                let mut words = cmd.split_whitespace();
                words.find(|w| *w == name)?;
                words.next()?.parse::<i64>().ok()
            };
            if let Some(t) = arg("--threads").and_then(|t| u32::try_from(t).ok()) {
                run.n_threads = Some(t);
            }
            if let Some(n) = arg("--n-gpu-layers") {
                offload(run).requested = Some(n);
            }
            // The runner is the build's: a CPU one after a plan for a GPU means the build has
            // no runner for it, and the planned layers stay on the CPU.
            let program = cmd.split_whitespace().next().unwrap_or("");
            let cpu_runner = program.contains("/runners/cpu") || program.contains("\\runners\\cpu");
            if let Some(o) = run.offload.as_mut().filter(|o| {
                cpu_runner
                    && o.gpu_layers.is_some_and(|n| n > 0)
                    && o.library.as_deref().is_some_and(|l| l != "cpu")
            }) {
                o.gpu_layers = Some(0);
                o.no_gpu = Some(NoGpu::CpuRunner);
                let from = msg.find("msg=").unwrap_or(0);
                quote_placement(o, at, &msg[from..], true);
            }
            self.startup_facts(run);
            return;
        } else {
            return;
        }
        let run = runs.run(FW, at);
        self.startup_facts(run);
    }

    /// `offload to cuda`: one per model load, so a second one is a second run.
    fn offload_to(&mut self, library: &str, msg: &str, at: u64, runs: &mut RunCollector) {
        runs.boundary(FW, at, |r| {
            r.offload.as_ref().is_some_and(|o| o.gpu_layers.is_some()) || r.decode.is_some()
        });
        let run = runs.run(FW, at);
        self.startup_facts(run);
        let weights = field(msg, "memory.weights.total").and_then(bytes);
        if run.model_bytes.is_none() {
            run.model_bytes = weights;
        }
        let o = offload(run);
        let int = |k: &str| field(msg, k).and_then(|v| v.trim().parse::<i64>().ok());
        o.requested = int("layers.requested").or(o.requested);
        o.model_layers = int("layers.model").and_then(|v| u32::try_from(v).ok());
        o.gpu_layers = int("layers.offload").and_then(|v| u32::try_from(v).ok());
        o.vram_free_bytes = field(msg, "memory.available").and_then(bytes);
        o.full_bytes = field(msg, "memory.required.full").and_then(bytes);
        o.kv_bytes = field(msg, "memory.required.kv").and_then(bytes);
        // `offload to gpu` (before mid-2024) names no library.
        if library != "gpu" {
            o.library = Some(library.to_string());
        }
        // From `msg=` on: the journald and timestamp prefix would push the memory fields past
        // the quote's length.
        // The reason no GPU took part, when the server gave one, stays the quote.
        let from = msg.find("msg=").unwrap_or(0);
        let decisive = o.no_gpu.is_none();
        quote_placement(o, at, &msg[from..], decisive);
    }

    fn ps_row(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let Some(c) = re().ps_row.captures(msg) else {
            return;
        };
        runs.boundary(FW, at, |_| true);
        let run = runs.run(FW, at);
        run.label = c.get(1).map(|l| l.as_str().to_string());
        run.model = Some(c[2].to_string());
        let cpu_pct = match (&c[5], c.get(6)) {
            ("100% GPU", _) => 0.0,
            ("100% CPU", _) => 100.0,
            (_, Some(p)) => num(p.as_str()).unwrap_or(0.0),
            _ => return,
        };
        let o = offload(run);
        o.cpu_pct = Some(cpu_pct);
        // SIZE (group 4) is the model with its cache and graph, not the weights: left unread.
        quote_placement(o, at, msg, true);
    }
}

impl Ollama {
    /// The Go engine's `msg=system` record (ml/backend/ggml, from 2025): each backend's build
    /// features as `CPU.0.AVX2=1 … CUDA.0.ARCHS=… compiler=cgo(gcc)`, the CPU backend listing
    /// only what it was compiled with. Read as llama.cpp's system_info line of the same era,
    /// whose CPU section lists the same features the same way.
    fn system(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let cpu: Vec<String> = msg
            .split_whitespace()
            .filter_map(|kv| {
                let (key, value) = kv.split_once('=')?;
                let rest = key.strip_prefix("CPU.")?;
                let (index, name) = rest.split_once('.')?;
                (index.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty())
                    .then(|| format!("{name} = {value}"))
            })
            .collect();
        if cpu.is_empty() {
            return;
        }
        let line = format!("CPU : {} |", cpu.join(" | "));
        super::system_info::read(FW, &line, at, runs);
    }
}

impl FrameworkParser for Ollama {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        if msg.contains("msg=")
            || (msg.contains(".go:") && (msg.contains("GPU") || msg.contains("server config")))
        {
            self.record(msg, at, runs);
        } else if msg.contains("CPU") || msg.contains("GPU") {
            self.ps_row(msg, at, runs);
        }
    }

    fn finish(&mut self, runs: &mut RunCollector) {
        if self.discovered || self.no_gpu.is_some() {
            return;
        }
        let why = match (self.old_driver.take(), self.empty_discovery.take()) {
            (Some((at, text)), _) => (NoGpu::DriverTooOld, at, text),
            (None, Some((at, text))) => (NoGpu::NotFound, at, text),
            (None, None) => return,
        };
        let at = why.1;
        self.no_gpu = Some(why);
        let run = runs.run(FW, at);
        self.startup_facts(run);
    }
}

/// The message of a record from Go's `log` package with the file and line flag, as ollama
/// printed its start-up before slog (to early 2024): `2024/01/13 20:14:03 gpu.go:248:
/// Discovered GPU libraries: []`, `routes.go:1042: no GPU detected`.
fn go_log_message(msg: &str) -> Option<&str> {
    let i = msg.find(".go:")?;
    let rest = &msg[i + 4..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let text = rest[digits..].strip_prefix(": ")?;
    (digits > 0).then(|| text.trim_start_matches("INFO ").trim())
}

#[cfg(test)]
mod tests {
    use crate::evidence::NoGpu;

    fn parse(text: &str) -> Vec<crate::evidence::Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    /// Each `msg=system` record is one build's features: a CPU backend listing every vector
    /// extension, then one listing none, which is the x86 baseline with AVX2 and FMA off.
    #[test]
    fn the_engines_system_record_gives_the_cpu_backends_features() {
        let runs = parse(
            "time=2025-10-31T15:24:39.908Z level=INFO source=ggml.go:104 msg=system CPU.0.SSE3=1 CPU.0.SSSE3=1 CPU.0.AVX=1 CPU.0.AVX2=1 CPU.0.F16C=1 CPU.0.FMA=1 CPU.0.LLAMAFILE=1 CPU.1.LLAMAFILE=1 compiler=cgo(gcc)\n\
             time=2025-10-31T15:26:24.078Z level=INFO source=ggml.go:104 msg=system CPU.0.LLAMAFILE=1 compiler=cgo(gcc)\n",
        );
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!(runs[0].cpu_features.get("AVX2"), Some(&true));
        assert_eq!(runs[0].cpu_features.get("AVX512"), Some(&false));
        assert_eq!(runs[1].cpu_features.get("AVX2"), Some(&false));
        assert_eq!(runs[1].cpu_features.get("FMA"), Some(&false));
        assert_eq!(runs[1].cpu_features.get("LLAMAFILE"), Some(&true));
        // An arm64 build lists NEON: nothing x86 is implied.
        let arm = parse("time=2025-10-31T15:24:39.908Z level=INFO source=ggml.go:104 msg=system CPU.0.NEON=1 CPU.0.ARM_FMA=1 CPU.0.LLAMAFILE=1 compiler=cgo(clang)\n");
        assert_eq!(arm[0].cpu_features.get("AVX2"), None);
        assert_eq!(arm[0].cpu_features.get("DOTPROD"), Some(&false));
    }

    #[test]
    fn slog_fields() {
        let m = r#"time=x level=INFO msg="offload to cuda" layers.model=33 memory.available="[7.6 GiB 1.0 GiB]" a="q\"x" b=1"#;
        assert_eq!(super::field(m, "msg"), Some("offload to cuda"));
        assert_eq!(super::field(m, "layers.model"), Some("33"));
        assert_eq!(super::field(m, "model"), None);
        assert_eq!(super::field(m, "a"), Some(r#"q\"x"#));
        assert_eq!(super::field(m, "b"), Some("1"));
        let avail = super::field(m, "memory.available").and_then(super::bytes);
        assert_eq!(
            avail,
            Some((8.6 * 1024.0 * 1024.0 * 1024.0_f64).round() as u64)
        );
    }

    #[test]
    fn server_log_partial_offload_with_relayed_llama_lines() {
        let runs = parse(
            r#"Mar 04 21:10:02 box ollama[1187]: time=2025-03-04T21:10:02.114Z level=INFO source=types.go:130 msg="inference compute" id=GPU-5a1c library=cuda variant=v12 compute=8.6 driver=12.4 name="NVIDIA GeForce RTX 3060" total="11.8 GiB" available="10.9 GiB"
Mar 04 21:14:40 box ollama[1187]: time=2025-03-04T21:14:40.733Z level=INFO source=memory.go:356 msg="offload to cuda" layers.requested=-1 layers.model=49 layers.offload=31 layers.split="" memory.available="[10.9 GiB]" memory.gpu_overhead="0 B" memory.required.full="16.3 GiB" memory.required.partial="10.7 GiB" memory.required.kv="1.5 GiB" memory.weights.total="13.1 GiB"
Mar 04 21:14:40 box ollama[1187]: time=2025-03-04T21:14:40.735Z level=INFO source=server.go:376 msg="starting llama server" cmd="/usr/lib/ollama/runners/cuda_v12_avx/ollama_llama_server runner --model /usr/share/ollama/.ollama/models/blobs/sha256-2049f5674b1e --ctx-size 8192 --batch-size 512 --n-gpu-layers 31 --threads 6 --parallel 4 --port 36073"
Mar 04 21:14:42 box ollama[1187]: llm_load_tensors: offloading 31 repeating layers to GPU
Mar 04 21:14:42 box ollama[1187]: llm_load_tensors: offloaded 31/49 layers to GPU"#,
        );
        assert_eq!(runs.len(), 1, "{runs:#?}");
        let r = &runs[0];
        assert_eq!(r.framework, Some(crate::evidence::Framework::Ollama));
        assert_eq!(r.devices, vec!["NVIDIA GeForce RTX 3060".to_string()]);
        assert_eq!(r.n_threads, Some(6));
        let o = r.offload.as_ref().expect("offload");
        assert_eq!((o.gpu_layers, o.model_layers), (Some(31), Some(49)));
        assert_eq!(o.requested, Some(31));
        assert_eq!(o.library.as_deref(), Some("cuda"));
        assert!(o.full_bytes.unwrap() > o.vram_free_bytes.unwrap());
        assert_eq!(o.line, Some(2), "the offload line is the quote");
    }

    #[test]
    fn the_2025_offload_estimate_names_its_library_in_a_field() {
        let runs = parse(
            r#"time=2025-03-11T20:06:03.175+01:00 level=INFO source=server.go:138 msg=offload library=cuda layers.requested=-1 layers.model=65 layers.offload=41 layers.split="" memory.available="[22.8 GiB]" memory.gpu_overhead="0 B" memory.required.full="34.9 GiB" memory.required.partial="22.4 GiB" memory.required.kv="16.0 GiB" memory.weights.total="17.5 GiB""#,
        );
        let o = runs[0].offload.as_ref().expect("offload read");
        assert_eq!((o.gpu_layers, o.model_layers), (Some(41), Some(65)));
        assert_eq!(o.library.as_deref(), Some("cuda"));
        assert_eq!(o.kv_bytes, Some(16 * 1024 * 1024 * 1024));
        assert!(o.full_bytes.unwrap() > o.vram_free_bytes.unwrap());
    }

    #[test]
    fn the_2024_discovery_with_every_search_empty_is_no_gpu() {
        // ollama 0.1.20 on a JetPack 5 board, whose driver has no NVML (ollama #1979).
        let runs = parse(
            "2024/01/13 20:14:02 routes.go:930: Listening on 127.0.0.1:11434 (version 0.1.20)
2024/01/13 20:14:03 shim_ext_server.go:142: Dynamic LLM variants [cuda]
2024/01/13 20:14:03 gpu.go:88: Detecting GPU type
2024/01/13 20:14:03 gpu.go:203: Searching for GPU management library libnvidia-ml.so
2024/01/13 20:14:03 gpu.go:248: Discovered GPU libraries: []",
        );
        let o = runs[0].offload.as_ref().expect("a placement");
        assert_eq!(o.no_gpu, Some(NoGpu::NotFound));
        assert_eq!(o.line, Some(5));
        // The slog form of the same, and its closing `no GPU detected`.
        let runs = parse(
            r#"time=2024-02-25T13:47:29.789-05:00 level=INFO source=gpu.go:311 msg="Discovered GPU libraries: []"
time=2024-02-25T13:47:29.790-05:00 level=INFO source=routes.go:1042 msg="no GPU detected""#,
        );
        assert_eq!(
            runs[0].offload.as_ref().unwrap().no_gpu,
            Some(NoGpu::NotFound)
        );
        // A later search that finds the library is a GPU.
        let runs = parse(
            "2024/01/17 09:43:58 gpu.go:248: Discovered GPU libraries: []
2024/01/17 09:43:58 gpu.go:248: Discovered GPU libraries: [/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.129.03]
2024/01/17 09:44:00 gpu.go:94: Nvidia GPU detected",
        );
        assert!(runs
            .iter()
            .all(|r| r.offload.as_ref().and_then(|o| o.no_gpu).is_none()));
    }

    #[test]
    fn a_runtime_that_needs_a_newer_driver_is_the_reason() {
        // ollama 0.5.x on JetPack 6.2 (ollama #9503), its last line cut short in the paste.
        let runs = parse(
            r#"ollama      | time=2025-03-04T20:48:09.206Z level=DEBUG source=gpu.go:558 msg="discovered GPU libraries" paths="[/usr/lib/ollama/cuda_v12/libcudart.so.12.4.127]"
ollama      | cudaSetDevice err: 35
ollama      | time=2025-03-04T20:48:09.210Z level=DEBUG source=gpu.go:574 msg="Unable to load cudart library /usr/lib/ollama/cuda_v12/libcudart.so.12.4.127: your nvidia driver is too old or missing.  If you have a CUDA GPU please upgrade to run ollama"
ollama      | time=2025-03-04T20:48:09.210Z level=INFO source=gpu.go:377 msg="no compa"#,
        );
        let o = runs[0].offload.as_ref().expect("a placement");
        assert_eq!(o.no_gpu, Some(NoGpu::DriverTooOld));
        assert_eq!(o.line, Some(3));
    }

    #[test]
    fn a_cpu_without_avx_turns_the_gpu_off_in_both_wordings() {
        for line in [
            r#"time=2024-09-17T10:00:00.000Z level=WARN source=gpu.go:222 msg="CPU does not have minimum vector extensions, GPU inference disabled" required=avx detected="no vector extensions""#,
            "time=2024-11-02T09:00:00.000Z level=WARN source=gpu.go:239 msg=\"CPU does not have minimum vector extensions, GPU inference disabled.  Required:avx  Detected:no vector extensions\"",
            r#"time=2024-03-02T11:20:31.115Z level=WARN source=gpu.go:162 msg="CPU does not have AVX or AVX2, disabling GPU support.""#,
        ] {
            let runs = parse(line);
            assert_eq!(runs.len(), 1, "{line}");
            let o = runs[0].offload.as_ref().unwrap();
            assert_eq!(o.no_gpu, Some(NoGpu::CpuVectors), "{line}");
        }
    }

    #[test]
    fn a_cpu_runner_after_a_plan_for_the_gpu() {
        let plan = r#"time=2024-12-02T10:14:03.211Z level=INFO source=memory.go:343 msg="offload to cuda" layers.requested=-1 layers.model=29 layers.offload=29 layers.split="" memory.available="[11.2 GiB]" memory.required.full="5.9 GiB" memory.weights.total="4.4 GiB""#;
        let cpu = r#"time=2024-12-02T10:14:03.214Z level=INFO source=server.go:383 msg="starting llama server" cmd="/tmp/ollama118467/runners/cpu_avx2/ollama_llama_server --model /root/.ollama/models/blobs/sha256-6a0746a1ec1a --ctx-size 8192 --batch-size 512 --n-gpu-layers 29 --threads 8 --parallel 4 --port 41473""#;
        let runs = parse(&format!("{plan}\n{cpu}"));
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(o.no_gpu, Some(NoGpu::CpuRunner));
        assert_eq!(o.gpu_layers, Some(0));
        assert_eq!(o.line, Some(2));
        // The CUDA runner it should have started: the plan stands.
        let cuda = cpu.replace("cpu_avx2", "cuda_v12");
        let runs = parse(&format!("{plan}\n{cuda}"));
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!((o.no_gpu, o.gpu_layers), (None, Some(29)));
    }

    #[test]
    fn no_gpu_found_and_ps_rows() {
        let runs = parse(
            r#"time=2025-01-10T08:00:00.100+01:00 level=INFO source=gpu.go:386 msg="no compatible GPUs were discovered"
time=2025-01-10T08:00:00.100+01:00 level=INFO source=types.go:131 msg="inference compute" id=0 library=cpu variant=avx2 compute="" driver=0.0 name="" total="31.2 GiB" available="28.0 GiB"
time=2025-01-10T08:01:00.000+01:00 level=INFO source=memory.go:356 msg="offload to cpu" layers.requested=-1 layers.model=33 layers.offload=0 layers.split="" memory.available="[28.0 GiB]""#,
        );
        assert_eq!(runs.len(), 1);
        let o = runs[0].offload.as_ref().unwrap();
        assert_eq!(o.no_gpu, Some(NoGpu::NotFound));
        assert_eq!(o.gpu_layers, Some(0));
        let ps = parse(
            "NAME              ID              SIZE      PROCESSOR          UNTIL
llama3.1:8b       46e0c10c039e    6.9 GB    38%/62% CPU/GPU    4 minutes from now
qwen2.5:0.5b      a8b0c5157701    1.4 GB    100% GPU           Forever",
        );
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].model.as_deref(), Some("llama3.1:8b"));
        assert_eq!(ps[0].offload.as_ref().unwrap().cpu_pct, Some(38.0));
        assert_eq!(ps[1].offload.as_ref().unwrap().cpu_pct, Some(0.0));
    }

    #[test]
    fn ps_rows_under_a_users_label_are_runs_named_by_it() {
        // ollama #10746: one model under two versions, rows pasted after the version.
        let runs = parse(
            "0.7.0: gemma3:27b-it-qat    29eb0b9aeda3    25 GB    11%/89% CPU/GPU    4 minutes from now
0.6.8: gemma3:27b-it-qat    29eb0b9aeda3    22 GB    100% GPU     4 minutes from now
v0.6.8 -> qwen3:14b     bdbd181c33f2    10 GB    100% CPU     Forever
**before:** llama3.1:8b       46e0c10c039e    6.9 GB    38%/62% CPU/GPU    32768    4 minutes from now",
        );
        assert_eq!(runs.len(), 4, "{runs:#?}");
        let seen: Vec<_> = runs
            .iter()
            .map(|r| {
                (
                    r.label.as_deref(),
                    r.model.as_deref(),
                    r.offload.as_ref().and_then(|o| o.cpu_pct),
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                (Some("0.7.0"), Some("gemma3:27b-it-qat"), Some(11.0)),
                (Some("0.6.8"), Some("gemma3:27b-it-qat"), Some(0.0)),
                (Some("v0.6.8"), Some("qwen3:14b"), Some(100.0)),
                (Some("before"), Some("llama3.1:8b"), Some(38.0)),
            ]
        );
        // An unlabelled row keeps its `name:tag` whole; a sentence before a row is no label.
        let runs =
            parse("gemma3:27b-it-qat    29eb0b9aeda3    25 GB    11%/89% CPU/GPU    Forever");
        assert_eq!(runs[0].label, None);
        assert_eq!(runs[0].model.as_deref(), Some("gemma3:27b-it-qat"));
        let runs = parse(
            "after the update ollama ps shows: gemma3:27b    a2af6cc3eb7f    21 GB    100% GPU    Forever",
        );
        assert!(runs.iter().all(|r| r.offload.is_none()), "{runs:#?}");
    }

    #[test]
    fn the_engine_memory_summary_gives_the_model_buffers_per_device() {
        let runs = parse(
            r#"time=2026-01-10T10:00:00.000Z level=INFO source=ggml.go:494 msg="offloaded 30/49 layers to GPU"
time=2026-01-10T10:00:00.001Z level=INFO source=device.go:245 msg="model weights" device=CUDA0 size="5.2 GiB"
time=2026-01-10T10:00:00.001Z level=INFO source=device.go:245 msg="model weights" device=CPU size="3.4 GiB"
time=2026-01-10T10:00:00.001Z level=INFO source=device.go:256 msg="kv cache" device=CUDA0 size="1.0 GiB""#,
        );
        assert_eq!(runs.len(), 1);
        let b = &runs[0].buffers_mib;
        assert_eq!(b.len(), 2, "{b:?}");
        assert!((b["CUDA0 model"] - 5.2 * 1024.0).abs() < 0.5);
        assert!((b["CPU model"] - 3.4 * 1024.0).abs() < 0.5);
        let o = runs[0].offload.as_ref().expect("offload");
        assert_eq!((o.gpu_layers, o.model_layers), (Some(30), Some(49)));
    }
}

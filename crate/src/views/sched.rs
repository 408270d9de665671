//! The view the scheduling rules share: the resolved topology, and per trace the inference
//! threads with their residency per CPU and per cluster.
//!
//! Residency is running time when the trace has `sched_switch` (or context-switch records),
//! else sample counts. Inference threads are picked by name (llama.cpp / ggml, MNN, XNNPACK,
//! TFLite, ONNX Runtime, MLC, ExecuTorch, ncnn, ...), then the rest of their process's busy
//! threads; without a name match, the busiest process's busy threads. The user can override.

use crate::evidence::sched::{ThreadAgg, TraceFacts};
use crate::evidence::Evidence;
use crate::views::topology::{Cluster, Topology};

/// Thread-name fragments of inference runtimes (lower case).
const INFERENCE_NAMES: &[&str] = &[
    "llama",
    "ggml",
    "whisper",
    "mnn",
    "tflite",
    "xnnpack",
    "pthreadpool",
    "onnx",
    "ort_",
    "ort-",
    "intra-op",
    "mlc",
    "tvm",
    "executorch",
    "ncnn",
    "qnn",
    "genie",
    "mediapipe",
    "litert",
    "llm",
    "infer",
    "ollama",
];

/// Threads that are never the workload: idle, tracing tools, kernel housekeeping.
const SYSTEM_NAMES: &[&str] = &[
    "swapper",
    "<idle>",
    "perf",
    "simpleperf",
    "trace-cmd",
    "atrace",
    "kworker",
    "ksoftirqd",
    "migration/",
    "rcu_",
    "rcuop",
    "irq/",
    "kthreadd",
    "cpuhp/",
    "watchdog",
];

/// What residency is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Seconds,
    Samples,
}

impl Unit {
    pub fn key(self) -> &'static str {
        match self {
            Unit::Seconds => "seconds",
            Unit::Samples => "samples",
        }
    }
}

pub struct ThreadView<'a> {
    pub thread: &'a ThreadAgg,
    /// Weight per CPU (seconds or samples).
    pub per_cpu: Vec<f64>,
    pub total: f64,
    /// Weight per cluster, indexed by `Cluster::index`.
    pub by_cluster: [f64; 4],
    pub inference: bool,
}

pub struct TraceView<'a> {
    pub trace: &'a TraceFacts,
    pub unit: Unit,
    /// Every thread with some residency, busiest first.
    pub threads: Vec<ThreadView<'a>>,
}

impl<'a> TraceView<'a> {
    pub fn inference(&self) -> impl Iterator<Item = &ThreadView<'a>> {
        self.threads.iter().filter(|t| t.inference)
    }
    /// Residency of all inference threads per CPU.
    pub fn inference_per_cpu(&self) -> Vec<f64> {
        let mut v: Vec<f64> = Vec::new();
        for t in self.inference() {
            if v.len() < t.per_cpu.len() {
                v.resize(t.per_cpu.len(), 0.0);
            }
            for (i, w) in t.per_cpu.iter().enumerate() {
                v[i] += w;
            }
        }
        v
    }
    pub fn inference_by_cluster(&self) -> [f64; 4] {
        let mut s = [0.0; 4];
        for t in self.inference() {
            for (i, w) in t.by_cluster.iter().enumerate() {
                s[i] += w;
            }
        }
        s
    }
    /// Residency of the inference threads on CPUs of a known cluster.
    pub fn known_total(&self) -> f64 {
        let by = self.inference_by_cluster();
        by[0] + by[1] + by[2]
    }
    /// Enough data to judge: 50 samples or 0.1 s of running time on CPUs of known clusters.
    pub fn enough(&self) -> bool {
        let total = self.known_total();
        match self.unit {
            Unit::Seconds => total >= 0.1,
            Unit::Samples => total >= 50.0,
        }
    }
}

fn is_system(comm: &str) -> bool {
    let c = comm.to_ascii_lowercase();
    SYSTEM_NAMES.iter().any(|s| c.starts_with(s))
}

/// Whether a thread or process name is an inference runtime's.
pub fn name_matches(comm: &str) -> bool {
    let c = comm.to_ascii_lowercase();
    INFERENCE_NAMES.iter().any(|n| c.contains(n))
}

fn user_pick(spec: &str, t: &ThreadAgg) -> bool {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .any(|s| {
            s.parse::<u32>().map_or_else(
                |_| {
                    t.comm
                        .to_ascii_lowercase()
                        .contains(&s.to_ascii_lowercase())
                },
                |tid| t.tid == tid || t.pid == Some(tid),
            )
        })
}

pub fn trace_view<'a>(ev: &'a Evidence, trace: &'a TraceFacts, topo: &Topology) -> TraceView<'a> {
    let unit = if trace.has_run_time() {
        Unit::Seconds
    } else {
        Unit::Samples
    };
    let mut threads: Vec<ThreadView<'a>> = trace
        .threads
        .iter()
        .map(|th| {
            let per_cpu: Vec<f64> = match unit {
                Unit::Seconds => th.run_s.clone(),
                Unit::Samples => th.samples.iter().map(|&n| n as f64).collect(),
            };
            let mut by_cluster = [0.0; 4];
            for (cpu, w) in per_cpu.iter().enumerate() {
                by_cluster[topo.cluster(cpu as u32).index()] += w;
            }
            // Samples without a CPU column count, on an unknown cluster.
            let no_cpu = match unit {
                Unit::Seconds => 0.0,
                Unit::Samples => th.samples_no_cpu as f64,
            };
            by_cluster[Cluster::Unknown.index()] += no_cpu;
            ThreadView {
                thread: th,
                total: per_cpu.iter().sum::<f64>() + no_cpu,
                per_cpu,
                by_cluster,
                inference: false,
            }
        })
        .filter(|t| t.total > 0.0)
        .collect();
    threads.sort_by(|a, b| {
        b.total
            .total_cmp(&a.total)
            .then(a.thread.tid.cmp(&b.thread.tid))
    });

    if let Some(spec) = ev
        .sched
        .threads_override
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        for t in &mut threads {
            t.inference = user_pick(spec, t.thread);
        }
        return TraceView {
            trace,
            unit,
            threads,
        };
    }
    // By name, then the busy threads of the same processes (pools often keep the app's name).
    let named_pids: Vec<u32> = threads
        .iter()
        .filter(|t| name_matches(&t.thread.comm) && !is_system(&t.thread.comm))
        .filter_map(|t| t.thread.pid)
        .collect();
    let any_named = threads
        .iter()
        .any(|t| name_matches(&t.thread.comm) && !is_system(&t.thread.comm));
    let busiest_pid = threads
        .iter()
        .filter(|t| !is_system(&t.thread.comm))
        .find_map(|t| t.thread.pid);
    let top = threads
        .iter()
        .filter(|t| !is_system(&t.thread.comm))
        .map(|t| t.total)
        .fold(0.0, f64::max);
    for t in &mut threads {
        if is_system(&t.thread.comm) {
            continue;
        }
        let busy = t.total >= 0.1 * top;
        t.inference = if any_named {
            name_matches(&t.thread.comm) && (busy || t.total >= 0.02 * top)
                || (busy && t.thread.pid.is_some_and(|p| named_pids.contains(&p)))
        } else {
            busy && match (busiest_pid, t.thread.pid) {
                (Some(a), Some(b)) => a == b,
                _ => t.total >= 0.2 * top,
            }
        };
    }
    TraceView {
        trace,
        unit,
        threads,
    }
}

/// Whether the trace's residency comes from snapshots (a thread's CPU at instants) rather than
/// from every switch or sample.
pub fn is_snapshots(trace: &TraceFacts) -> bool {
    trace.format == Some(crate::evidence::sched::TraceFormat::Snapshots)
}

/// Whether the view measures the time threads spent waiting for a CPU: only switch events do.
/// Samples and snapshots say where a thread was when looked at, not how long it waited.
pub fn measures_runnable(v: &TraceView) -> bool {
    v.unit == Unit::Seconds && !is_snapshots(v.trace)
}

/// The parameters that say what a scheduling finding rests on: `{basis}` is empty for traces
/// and, for snapshots, a phrase giving their number and saying they only sample.
pub fn basis(trace: &TraceFacts) -> Vec<(&'static str, String)> {
    if !is_snapshots(trace) {
        return vec![("basis", String::new())];
    }
    vec![
        ("basis", "@sched.basis.snapshots".to_string()),
        ("frames", trace.snapshot_frames.to_string()),
        ("thread_samples", trace.samples.to_string()),
    ]
}

/// The topology and a view of every trace input.
pub fn trace_views<'a>(ev: &'a Evidence, topo: &Topology) -> Vec<TraceView<'a>> {
    ev.sched
        .traces
        .iter()
        .filter(|t| t.format != Some(crate::evidence::sched::TraceFormat::SystemInfo))
        .map(|t| trace_view(ev, t, topo))
        .collect()
}

pub fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The thread label used in findings: `comm/tid`.
pub fn label(t: &ThreadAgg) -> String {
    format!("{}/{}", t.comm, t.tid)
}

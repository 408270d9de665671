//! The `sched` section of the report: the CPU topology and where it came from, and per trace
//! the thread residency table, the thread timeline (one lane per thread, one cluster letter per
//! time bin) and the per-CPU frequency strip. The page draws these; exports carry them.

use crate::evidence::sched::{TraceFormat, TIMELINE_BINS};
use crate::evidence::Evidence;
use crate::views::freq;
use crate::views::sched::{self, TraceView};
use crate::views::topology::{Cluster, Topology, PRESETS};
use crate::views::Views;
use serde::{Deserialize, Serialize};

/// Threads listed in the residency table.
pub const MAX_TABLE_THREADS: usize = 32;
/// Lanes of the timeline.
pub const MAX_LANES: usize = 24;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SchedReport {
    pub topology: Topology,
    /// Presets the user can pick: (id, label).
    pub presets: Vec<PresetRef>,
    pub traces: Vec<TraceReport>,
    /// The inference threads the user chose, if any (tids or name fragments).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads_override: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PresetRef {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceReport {
    pub input: String,
    pub format: Option<String>,
    pub duration_s: f64,
    /// `seconds` (from sched_switch) or `samples`.
    pub unit: String,
    pub samples: u64,
    pub switches: u64,
    pub migrations: u64,
    pub freq_events: u64,
    pub lines: LineCounts,
    pub threads: Vec<ThreadRow>,
    pub timeline: Timeline,
    pub freq: Vec<FreqStrip>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LineCounts {
    pub event: u64,
    pub detail: u64,
    pub header: u64,
    pub blank: u64,
    pub skipped: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThreadRow {
    pub tid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    pub comm: String,
    pub inference: bool,
    /// Total residency, in `unit`.
    pub total: f64,
    /// Shares of residency per cluster (0..1).
    pub little: f64,
    pub mid: f64,
    pub big: f64,
    pub unknown: f64,
    /// CPUs used, as ranges.
    pub cpus: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runnable_s: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timeline {
    pub bin_s: f64,
    pub bins: usize,
    pub lanes: Vec<Lane>,
}

/// One thread's lane: per bin the cluster it ran on most — `L`, `M`, `B`, `U` (unknown), or
/// `.` (not running or not sampled).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Lane {
    pub tid: u32,
    pub comm: String,
    pub inference: bool,
    pub cells: String,
}

/// One CPU's frequency: the time-weighted mean MHz per timeline bin (`null` before data).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FreqStrip {
    pub cpu: u32,
    pub cluster: Cluster,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_mhz: Option<f64>,
    pub mhz: Vec<Option<f64>>,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn format_key(f: Option<TraceFormat>) -> Option<String> {
    serde_json::to_value(f?).ok()?.as_str().map(str::to_string)
}

pub fn build(ev: &Evidence, views: &Views) -> Option<SchedReport> {
    if ev.sched.traces.is_empty() {
        return None;
    }
    let topo = &views.topology;
    let traces = views
        .traces
        .iter()
        .map(|v| trace_report(ev, v, topo))
        .collect();
    Some(SchedReport {
        presets: PRESETS
            .iter()
            .map(|p| PresetRef {
                id: p.id.to_string(),
                label: p.label.to_string(),
            })
            .collect(),
        topology: topo.clone(),
        traces,
        threads_override: ev.sched.threads_override.clone(),
    })
}

fn trace_report(ev: &Evidence, v: &TraceView<'_>, topo: &Topology) -> TraceReport {
    let t = v.trace;
    let name = ev
        .inputs
        .get(t.input)
        .map_or_else(String::new, |i| i.name.clone());
    let mut rows: Vec<&sched::ThreadView<'_>> = v.threads.iter().collect();
    // Inference threads first, then the busiest.
    rows.sort_by(|a, b| {
        b.inference
            .cmp(&a.inference)
            .then(b.total.total_cmp(&a.total))
    });
    let threads = rows
        .iter()
        .take(MAX_TABLE_THREADS)
        .map(|r| {
            let s = |c: Cluster| round2(r.by_cluster[c.index()] / r.total);
            let cpus: Vec<u32> = r
                .per_cpu
                .iter()
                .enumerate()
                .filter(|(_, w)| **w > 0.0)
                .map(|(c, _)| c as u32)
                .collect();
            ThreadRow {
                tid: r.thread.tid,
                pid: r.thread.pid,
                comm: r.thread.comm.clone(),
                inference: r.inference,
                total: round3(r.total),
                little: s(Cluster::Little),
                mid: s(Cluster::Mid),
                big: s(Cluster::Big),
                unknown: s(Cluster::Unknown),
                cpus: crate::views::topology::cpu_list(&cpus),
                runnable_s: sched::measures_runnable(v).then(|| round3(r.thread.runnable_s)),
            }
        })
        .collect();
    let bins = (((t.end_s / t.bin_s).floor() as usize) + 1).min(TIMELINE_BINS);
    let use_run = v.unit == sched::Unit::Seconds;
    let lanes = rows
        .iter()
        .filter(|r| r.inference || !v.threads.iter().any(|x| x.inference))
        .take(MAX_LANES)
        .map(|r| {
            let cells = if use_run {
                &r.thread.run_cells
            } else {
                &r.thread.sample_cells
            };
            let mut weights = vec![[0f32; 4]; bins];
            for c in cells {
                if let Some(w) = weights.get_mut(c.bin as usize) {
                    w[topo.cluster(c.cpu as u32).index()] += c.weight;
                }
            }
            let cells: String = weights
                .iter()
                .map(|w| {
                    let (i, max) =
                        w.iter().enumerate().fold(
                            (0, 0f32),
                            |acc, (i, &x)| if x > acc.1 { (i, x) } else { acc },
                        );
                    if max <= 0.0 {
                        '.'
                    } else {
                        ['L', 'M', 'B', 'U'][i]
                    }
                })
                .collect();
            Lane {
                tid: r.thread.tid,
                comm: r.thread.comm.clone(),
                inference: r.inference,
                cells,
            }
        })
        .collect();
    let freq = freq::cpu_freqs(ev, t.input)
        .into_iter()
        .map(|(cpu, points)| FreqStrip {
            cpu,
            cluster: topo.cluster(cpu),
            max_mhz: topo.max_mhz(cpu),
            mhz: (0..bins)
                .map(|b| {
                    let a = b as f64 * t.bin_s;
                    freq::mean(points, a, (a + t.bin_s).min(t.end_s.max(a + 1e-9)))
                        .map(|m| m.round())
                })
                .collect(),
        })
        .collect();
    TraceReport {
        input: name,
        format: format_key(t.format),
        duration_s: (t.end_s * 1e6).round() / 1e6,
        unit: v.unit.key().to_string(),
        samples: t.samples,
        switches: t.switches,
        migrations: t.migrate_events,
        freq_events: t.freq_events,
        lines: LineCounts {
            event: t.lines_event,
            detail: t.lines_detail,
            header: t.lines_header,
            blank: t.lines_blank,
            skipped: t.skipped.count,
        },
        threads,
        timeline: Timeline {
            bin_s: t.bin_s,
            bins,
            lanes,
        },
        freq,
    }
}

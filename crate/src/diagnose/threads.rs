//! `threads.*`: thread counts that work against a big.LITTLE phone.
//! - `threads.all-cores`: n_threads equals every hardware thread on an ARM SoC, so some
//!   threads run on little cores and the whole step waits for them;
//! - `threads.sweep-slower`: a benchmark sweep where more threads decode or prefill slower.

use super::run_facts::{fmt, framework_label, run_ref};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, Run};
use crate::views::topology::cpu_list;
use crate::views::Views;

pub const IDS: &[&str] = &[
    "threads.all-cores",
    "threads.exceeds-big-cores",
    "threads.sweep-slower",
];

/// (big cores, little cores) from the clusters: the slowest cluster is the little one.
fn big_little(run: &Run) -> Option<(usize, usize)> {
    if run.cpu_clusters.len() < 2 {
        return None;
    }
    let little = run
        .cpu_clusters
        .iter()
        .min_by_key(|c| c.max_khz)?
        .cpus
        .len();
    let total: usize = run.cpu_clusters.iter().map(|c| c.cpus.len()).sum();
    Some((total - little, little))
}

/// A trace or /proc/cpuinfo given with the log shows CPUs of different speeds.
fn traced_big_little(topo: &crate::views::topology::Topology) -> bool {
    topo.known()
        && !topo
            .cpus_in(crate::views::topology::Cluster::Little)
            .is_empty()
}

/// The run is on an ARM (phone) SoC, as far as the log says.
fn is_arm(run: &Run) -> bool {
    run.cpu_features.get("NEON") == Some(&true)
        || run.cpu_features.contains_key("i8sdot")
        || run
            .build
            .as_deref()
            .is_some_and(|b| b.contains("aarch64") || b.contains("android") || b.contains("arm64"))
}

/// A thread sweep's two ends as a quote: `test` at `few` and at `many` threads (count, tok/s).
pub(super) fn sweep_quote(test: &str, few: (u32, f64), many: (u32, f64)) -> Quote {
    Quote::phrase(
        "quote.threads.sweep",
        vec![
            ("test", test.to_string()),
            ("few", few.0.to_string()),
            ("few_tok_s", fmt(few.1)),
            ("many", many.0.to_string()),
            ("many_tok_s", fmt(many.1)),
        ],
    )
}

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in &ev.runs {
        if let (Some(n), Some(hw)) = (run.n_threads, run.hw_threads) {
            // With every layer on a GPU the CPU threads only feed it.
            let on_gpu = run
                .offload
                .as_ref()
                .is_some_and(crate::evidence::Offload::all_layers);
            if n >= hw
                && hw >= 6
                && is_arm(run)
                && !on_gpu
                && !out.iter().any(|f: &Finding| {
                    f.id == "threads.all-cores"
                        && f.evidence
                            .first()
                            .is_some_and(|e| e.input == super::run_facts::input_of(ev, run))
                })
            {
                // Only a known big.LITTLE topology makes "little cores included" a fact.
                let traced = traced_big_little(&views.topology);
                let hetero = big_little(run).is_some() || traced;
                // A named SoC (a preset) counts the cores, so the fix names the count and CPUs.
                let preset = views
                    .topology
                    .preset
                    .as_deref()
                    .and_then(crate::views::topology::preset)
                    .filter(|_| traced);
                let mut params = Vec::new();
                if let Some(p) = preset {
                    let topo = &views.topology;
                    let fast = topo.fast_cpus();
                    params.push(("fast", fast.len().to_string()));
                    params.push(("fast_cpus", cpu_list(&fast)));
                    params.push((
                        "little_cpus",
                        cpu_list(&topo.cpus_in(crate::views::topology::Cluster::Little)),
                    ));
                    params.push(("machine", p.label.to_string()));
                }
                out.push(Finding {
                    variant: preset.map(|_| "counted"),
                    id: "threads.all-cores",
                    severity: if hetero {
                        Severity::Warning
                    } else {
                        Severity::Info
                    },
                    params: vec![
                        ("framework", framework_label(run)),
                        ("n_threads", n.to_string()),
                        ("hw_threads", hw.to_string()),
                        (
                            "cores",
                            if hetero {
                                "@threads.cores.big-little"
                            } else {
                                "@threads.cores.unknown"
                            }
                            .into(),
                        ),
                        (
                            "topology",
                            if hetero {
                                "@threads.topology.big-little"
                            } else {
                                "@threads.topology.unknown"
                            }
                            .into(),
                        ),
                    ]
                    .into_iter()
                    // The counted summary names the clusters instead.
                    .filter(|(k, _)| !(preset.is_some() && *k == "topology"))
                    .chain(params)
                    .collect(),
                    count: None,
                    evidence: vec![run_ref(
                        ev,
                        run,
                        Quote::Input(format!("n_threads = {n} / {hw}")),
                    )],
                    lines: Vec::new(),
                    lines_truncated: false,
                });
            }
        }
        if let (Some(n), Some((big, little))) = (run.n_threads, big_little(run)) {
            if n as usize > big && big > 0 {
                let clusters: Vec<String> = run
                    .cpu_clusters
                    .iter()
                    .map(|c| format!("CPU {} {} MHz", cpu_list(&c.cpus), c.max_khz / 1000))
                    .collect();
                out.push(Finding {
                    variant: None,
                    id: "threads.exceeds-big-cores",
                    severity: Severity::Warning,
                    params: vec![
                        ("framework", framework_label(run)),
                        ("n_threads", n.to_string()),
                        ("big", big.to_string()),
                        ("little", little.to_string()),
                    ],
                    count: None,
                    evidence: vec![run_ref(
                        ev,
                        run,
                        Quote::phrase(
                            "quote.threads.clusters",
                            vec![("n", n.to_string()), ("clusters", clusters.join(", "))],
                        ),
                    )],
                    lines: Vec::new(),
                    lines_truncated: false,
                });
            }
        }
        // A sweep: the same test at several thread counts. The count to beat is the fastest;
        // the count that costs is the largest (the default most tools and users reach for).
        let mut worst: Option<(String, u32, f64, u32, f64)> = None;
        let mut tests: Vec<&str> = run.bench.iter().map(|b| b.test.as_str()).collect();
        tests.sort_unstable();
        tests.dedup();
        for test in tests {
            let rows: Vec<_> = run
                .bench
                .iter()
                .filter(|b| b.test == test)
                .filter_map(|b| Some((b.n_threads?, b)))
                .collect();
            let best = rows.iter().max_by(|a, b| a.1.tok_s.total_cmp(&b.1.tok_s));
            let largest = rows.iter().max_by_key(|(t, _)| *t);
            let (Some((ta, a)), Some((tb, b))) = (best, largest) else {
                continue;
            };
            if tb <= ta {
                continue;
            }
            // Slower by more than the noise: 5% and both deviations.
            let noise = a.stddev.unwrap_or(0.0) + b.stddev.unwrap_or(0.0);
            if b.tok_s < a.tok_s * 0.95 && a.tok_s - b.tok_s > noise {
                let loss = 1.0 - b.tok_s / a.tok_s;
                if worst.as_ref().map_or(true, |w| loss > 1.0 - w.4 / w.2) {
                    worst = Some((test.to_string(), *ta, a.tok_s, *tb, b.tok_s));
                }
            }
        }
        if let Some((test, ta, sa, tb, sb)) = worst {
            out.push(Finding {
                variant: None,
                id: "threads.sweep-slower",
                severity: Severity::Warning,
                params: vec![
                    ("framework", framework_label(run)),
                    ("test", test.clone()),
                    ("few", ta.to_string()),
                    ("few_tok_s", fmt(sa)),
                    ("many", tb.to_string()),
                    ("many_tok_s", fmt(sb)),
                ],
                count: None,
                evidence: vec![run_ref(ev, run, sweep_quote(&test, (ta, sa), (tb, sb)))],
                lines: Vec::new(),
                lines_truncated: false,
            });
        }
    }
    out
}

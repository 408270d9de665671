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
                out.push(
                    Finding::new(
                        "threads.all-cores",
                        if hetero {
                            Severity::Warning
                        } else {
                            Severity::Info
                        },
                        vec![
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
                        vec![run_ref(
                            ev,
                            run,
                            Quote::Input(format!("n_threads = {n} / {hw}")),
                        )],
                    )
                    .with_variant(preset.map(|_| "counted")),
                );
            }
        }
        if let (Some(n), Some((big, little))) = (run.n_threads, big_little(run)) {
            if n as usize > big && big > 0 {
                let clusters: Vec<String> = run
                    .cpu_clusters
                    .iter()
                    .map(|c| format!("CPU {} {} MHz", cpu_list(&c.cpus), c.max_khz / 1000))
                    .collect();
                out.push(Finding::new(
                    "threads.exceeds-big-cores",
                    Severity::Warning,
                    vec![
                        ("framework", framework_label(run)),
                        ("n_threads", n.to_string()),
                        ("big", big.to_string()),
                        ("little", little.to_string()),
                    ],
                    vec![run_ref(
                        ev,
                        run,
                        Quote::phrase(
                            "quote.threads.clusters",
                            vec![("n", n.to_string()), ("clusters", clusters.join(", "))],
                        ),
                    )],
                ));
            }
        }
        // A sweep: the same test at several thread counts.
        let mut worst: Option<(String, Point, Point)> = None;
        let mut tests: Vec<&str> = run.bench.iter().map(|b| b.test.as_str()).collect();
        tests.sort_unstable();
        tests.dedup();
        for test in tests {
            let rows: Vec<_> = run
                .bench
                .iter()
                .filter(|b| b.test == test)
                .filter_map(|b| Some((b.n_threads?, b.tok_s, b.stddev)))
                .collect();
            if let Some((few, many)) = costly_threads(&rows) {
                let loss = 1.0 - many.1 / few.1;
                if worst
                    .as_ref()
                    .map_or(true, |w| loss > 1.0 - w.2 .1 / w.1 .1)
                {
                    worst = Some((test.to_string(), few, many));
                }
            }
        }
        if let Some((test, few, many)) = worst {
            out.push(sweep_slower(
                run,
                &test,
                few,
                many,
                vec![run_ref(ev, run, sweep_quote(&test, few, many))],
            ));
        }
    }
    out.extend(sweeps_across_runs(ev));
    out
}

/// A thread count and its speed (tok/s).
type Point = (u32, f64);

/// The thread count to beat (the fastest) and the one that costs (the largest, the default most
/// tools and users reach for) of one test's `(threads, tok/s, stddev)` rows, when the largest is
/// slower than the fastest by more than the noise: 5% and both deviations.
fn costly_threads(rows: &[(u32, f64, Option<f64>)]) -> Option<(Point, Point)> {
    let best = rows.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let largest = rows.iter().max_by_key(|r| r.0)?;
    if largest.0 <= best.0 {
        return None;
    }
    let noise = best.2.unwrap_or(0.0) + largest.2.unwrap_or(0.0);
    (largest.1 < best.1 * 0.95 && best.1 - largest.1 > noise)
        .then_some(((best.0, best.1), (largest.0, largest.1)))
}

fn sweep_slower(
    run: &Run,
    test: &str,
    few: Point,
    many: Point,
    evidence: Vec<super::EvidenceRef>,
) -> Finding {
    Finding::new(
        "threads.sweep-slower",
        Severity::Warning,
        vec![
            ("framework", framework_label(run)),
            ("test", test.to_string()),
            ("few", few.0.to_string()),
            ("few_tok_s", fmt(few.1)),
            ("many", many.0.to_string()),
            ("many_tok_s", fmt(many.1)),
        ],
        evidence,
    )
}

/// Runs of one input that differ in their thread count alone (blocks pasted under `8 threads:`
/// and `with -t 4:`, or one log per count): a decode sweep, as a benchmark's rows would be.
fn sweeps_across_runs(ev: &Evidence) -> Vec<Finding> {
    let same_setup = |a: &Run, b: &Run| {
        a.input == b.input
            && a.framework == b.framework
            && a.model == b.model
            && a.quant == b.quant
            && a.backend == b.backend
    };
    let swept: Vec<&Run> = ev
        .runs
        .iter()
        .filter(|r| r.bench.is_empty() && r.n_threads.is_some())
        .filter(|r| r.decode.as_ref().and_then(|d| d.tok_s).is_some())
        .collect();
    let mut out = Vec::new();
    let mut seen = vec![false; swept.len()];
    for i in 0..swept.len() {
        if seen[i] {
            continue;
        }
        let group: Vec<&Run> = (i..swept.len())
            .filter(|&j| same_setup(swept[i], swept[j]))
            .inspect(|&j| seen[j] = true)
            .map(|j| swept[j])
            .collect();
        let rows: Vec<_> = group
            .iter()
            .filter_map(|r| Some((r.n_threads?, r.decode.as_ref()?.tok_s?, None)))
            .collect();
        let Some((few, many)) = costly_threads(&rows) else {
            continue;
        };
        let run_at = |(t, tok_s): Point| {
            group
                .iter()
                .find(|r| {
                    r.n_threads == Some(t) && r.decode.as_ref().and_then(|d| d.tok_s) == Some(tok_s)
                })
                .copied()
        };
        let (Some(fast), Some(slow)) = (run_at(few), run_at(many)) else {
            continue;
        };
        let quote = sweep_quote("tg", few, many);
        out.push(sweep_slower(
            slow,
            "tg",
            few,
            many,
            vec![run_ref(ev, slow, quote.clone()), run_ref(ev, fast, quote)],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Phase;

    fn run(model: &str, threads: u32, tok_s: f64, line: u64) -> Run {
        Run {
            input: "paste.md".into(),
            model: Some(model.into()),
            n_threads: Some(threads),
            line_start: Some(line),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Phase::default()
            }),
            ..Run::default()
        }
    }

    fn sweeps(runs: Vec<Run>) -> Vec<Finding> {
        let mut ev = Evidence::default();
        ev.add_input("paste.md");
        ev.runs = runs;
        sweeps_across_runs(&ev)
    }

    #[test]
    fn runs_of_one_model_at_two_thread_counts_are_a_sweep() {
        let f = sweeps(vec![run("m.gguf", 8, 1.03, 1), run("m.gguf", 4, 4.41, 9)]);
        assert_eq!(f.len(), 1);
        let p = |k| {
            f[0].params
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!((p("few"), p("many")), (Some("4"), Some("8")));
        assert_eq!(f[0].evidence.len(), 2);
        // Two models, or more threads that are faster, are no costly sweep.
        assert!(sweeps(vec![run("a.gguf", 8, 1.0, 1), run("b.gguf", 4, 4.4, 9)]).is_empty());
        assert!(sweeps(vec![run("m.gguf", 8, 4.4, 1), run("m.gguf", 4, 2.5, 9)]).is_empty());
    }
}

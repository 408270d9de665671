//! Thread counts against the machine the inputs describe:
//! - `threads.over-usable`: more threads than the CPUs the process may use (a cgroup quota,
//!   `--cpus`, `nproc`, an affinity mask, or the hardware threads system_info counts). The OS
//!   then time-slices them, and every token waits for the thread that was preempted last;
//! - `threads.smt-siblings`: more threads than physical cores on an SMT machine, so pairs of
//!   threads share one core's execution units while the step waits for the slower of each pair;
//! - `threads.efficiency-cores`: more threads than performance cores on a hybrid CPU (P/E,
//!   big/LITTLE told apart by their maximum clocks), so some threads run on the slow cores;
//!   variant `default`: a llama.cpp command without `-t` on a SoC the user names, whose default
//!   thread count takes every core (inferred, at info).
//!
//! Each is sized from a thread sweep in the inputs when there is one (the best count within the
//! limit against the count used), else left unsized with what would size it.

use super::run_facts::{fmt, framework_label, input_of, run_ref};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::sched::BackgroundSlowdown;
use crate::evidence::{Evidence, Framework, Run};
use crate::views::topology::Usable;
use crate::views::Views;

pub const IDS: &[&str] = &[
    "threads.over-usable",
    "threads.smt-siblings",
    "threads.efficiency-cores",
];

/// More logical CPUs than the largest servers have (two 192-core EPYC 9965 sockets with SMT
/// give 768): a thread count above it is not a CPU count at all.
const MOST_CPUS: u32 = 1024;

/// The run is on an ARM SoC (the phone rules `threads.all-cores` / `exceeds-big-cores` speak
/// for those).
fn is_arm(run: &Run) -> bool {
    run.cpu_features.get("NEON") == Some(&true)
        || run.cpu_features.contains_key("i8sdot")
        || run
            .build
            .as_deref()
            .is_some_and(|b| b.contains("aarch64") || b.contains("android") || b.contains("arm64"))
}

/// From any thread sweep in the inputs: the fastest decode at no more than `cap` threads and
/// the decode at `n` threads (or the nearest count above `cap`), when both were measured.
fn sweep(ev: &Evidence, cap: f64, n: u32) -> Option<(u32, f64, u32, f64)> {
    let rows: Vec<(u32, f64)> = ev
        .runs
        .iter()
        .flat_map(|r| r.bench.iter())
        .filter(|b| b.test.starts_with("tg"))
        .filter_map(|b| Some((b.n_threads?, b.tok_s)))
        .collect();
    let (few, few_s) = rows
        .iter()
        .filter(|(t, _)| f64::from(*t) <= cap + 1e-9)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .copied()?;
    let (many, many_s) = rows
        .iter()
        .find(|(t, _)| *t == n)
        .or_else(|| {
            rows.iter()
                .filter(|(t, _)| f64::from(*t) > cap)
                .min_by_key(|(t, _)| *t)
        })
        .copied()?;
    (many > few && many_s < few_s).then_some((few, few_s, many, many_s))
}

fn sized(params: &mut Vec<(&'static str, String)>, s: Option<(u32, f64, u32, f64)>) {
    if let Some((few, few_s, many, many_s)) = s {
        params.push(("few", few.to_string()));
        params.push(("few_tok_s", fmt(few_s)));
        params.push(("many", many.to_string()));
        params.push(("many_tok_s", fmt(many_s)));
    }
}

fn cpus_text(c: f64) -> String {
    if (c - c.round()).abs() < 1e-9 {
        format!("{}", c.round() as u64)
    } else {
        format!("{c:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// A llama.cpp run started without `-t` on a named big.LITTLE SoC. llama.cpp's default is
/// `cpu_get_num_math()`: one thread per physical core, leaving out efficiency cores only on
/// x86 Linux. An Arm core has no SMT sibling, so the default is every core, little ones
/// included. The log does not state the count, so the finding is an inference, at info.
fn default_threads(ev: &Evidence, views: &Views, run: &Run) -> Option<Finding> {
    let line = run.threads_default_line?;
    let topo = &views.topology;
    let preset = topo
        .preset
        .as_deref()
        .and_then(crate::views::topology::preset)?;
    let fast = views.machine.fast_cores?;
    let n = u32::try_from(topo.cpus.len()).ok()?;
    if n <= fast || views.machine.little_cpus == 0 {
        return None;
    }
    let mut params = vec![
        ("framework", Framework::LlamaCpp.label().to_string()),
        ("n_threads", n.to_string()),
        ("fast", fast.to_string()),
        ("little", views.machine.little_cpus.to_string()),
        ("machine", preset.label.to_string()),
    ];
    sized(&mut params, sweep(ev, f64::from(fast), n));
    Some(
        Finding::new(
            "threads.efficiency-cores",
            Severity::Info,
            params,
            vec![EvidenceRef {
                input: input_of(ev, run),
                lines: Some((line, line)),
                time_s: None,
                quote: Some(Quote::phrase(
                    "quote.threads.default",
                    vec![("n", n.to_string())],
                )),
            }],
        )
        .with_variant(Some("default")),
    )
}

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let m = &views.machine;
    let mut out: Vec<Finding> = Vec::new();
    // One finding per id and input: a server log repeats its set-up for every request.
    let mut seen: Vec<(&'static str, usize)> = Vec::new();
    for run in &ev.runs {
        let input = input_of(ev, run);
        let Some(n) = run.n_threads else {
            if !seen.contains(&("threads.efficiency-cores", input)) {
                if let Some(f) = default_threads(ev, views, run) {
                    seen.push(("threads.efficiency-cores", input));
                    out.push(f);
                }
            }
            continue;
        };
        let threads_quote = || {
            run_ref(
                ev,
                run,
                Quote::Input(match run.hw_threads {
                    Some(hw) => format!("n_threads = {n} / {hw}"),
                    None => format!("n_threads = {n}"),
                }),
            )
        };
        // The tightest cap the threads exceed: a stated limit, the hardware threads the log
        // counts, or every logical CPU lscpu lists.
        let mut caps: Vec<(f64, Option<&Usable>, &'static str)> = Vec::new();
        if let Some(u) = &m.usable {
            caps.push((u.cpus, Some(u), u.kind.key()));
        }
        if let Some(hw) = run.hw_threads.filter(|hw| *hw > 0) {
            caps.push((f64::from(hw), None, "hw-threads"));
        }
        if let Some(l) = &m.online {
            caps.push((l.cpus, Some(l), "online"));
        }
        let cap = caps
            .into_iter()
            .filter(|(c, ..)| f64::from(n) > *c + 1e-9)
            .min_by(|a, b| a.0.total_cmp(&b.0));
        // A count no machine's CPUs reach says so whatever else the inputs hold: it is
        // usually a GPU's core count (an A100's 6912) given to the CPU thread option.
        if cap.is_none() && n > MOST_CPUS && !seen.contains(&("threads.over-usable", input)) {
            seen.push(("threads.over-usable", input));
            out.push(
                Finding::new(
                    "threads.over-usable",
                    Severity::Warning,
                    vec![
                        ("framework", framework_label(run)),
                        ("n_threads", n.to_string()),
                        ("usable", MOST_CPUS.to_string()),
                    ],
                    vec![threads_quote()],
                )
                .with_variant(Some("implausible")),
            );
            continue;
        }
        if let Some((cpus, limit, source)) = cap {
            if !seen.contains(&("threads.over-usable", input)) {
                seen.push(("threads.over-usable", input));
                let mut evidence = vec![threads_quote()];
                if let Some(u) = limit {
                    evidence.push(EvidenceRef {
                        input: u.input,
                        lines: Some((u.line, u.line)),
                        time_s: None,
                        quote: Some(Quote::Input(u.text.clone())),
                    });
                }
                let mut params = vec![
                    ("framework", framework_label(run)),
                    ("n_threads", n.to_string()),
                    ("usable", cpus_text(cpus)),
                    ("source", format!("@threads.usable.{source}")),
                    (
                        "ratio",
                        cpus_text((f64::from(n) / cpus * 10.0).round() / 10.0),
                    ),
                ];
                sized(&mut params, sweep(ev, cpus, n));
                out.push(Finding::new(
                    "threads.over-usable",
                    Severity::Warning,
                    params,
                    evidence,
                ));
            }
            continue;
        }
        // A phone's big.LITTLE split is the phone rules' (they read the log's own clusters).
        let phone = !run.cpu_clusters.is_empty()
            || (is_arm(run) && run.hw_threads.is_some_and(|hw| n >= hw));
        if let (Some(fast), false) = (m.fast_cores, phone) {
            if n > fast && !seen.contains(&("threads.efficiency-cores", input)) {
                seen.push(("threads.efficiency-cores", input));
                let mut params = vec![
                    ("framework", framework_label(run)),
                    ("n_threads", n.to_string()),
                    ("fast", fast.to_string()),
                    ("little", m.little_cpus.to_string()),
                ];
                sized(&mut params, sweep(ev, f64::from(fast), n));
                out.push(Finding::new(
                    "threads.efficiency-cores",
                    Severity::Warning,
                    params,
                    vec![threads_quote()],
                ));
                continue;
            }
        }
        if let (Some(cores), Some(tpc)) = (m.physical_cores, m.threads_per_core) {
            if tpc >= 2
                && n > cores
                && m.fast_cores.is_none()
                && !seen.contains(&("threads.smt-siblings", input))
            {
                seen.push(("threads.smt-siblings", input));
                let mut params = vec![
                    ("framework", framework_label(run)),
                    ("n_threads", n.to_string()),
                    ("cores", cores.to_string()),
                    ("per_core", tpc.to_string()),
                    ("logical", m.logical.unwrap_or(cores * tpc).to_string()),
                ];
                sized(&mut params, sweep(ev, f64::from(cores), n));
                out.push(Finding::new(
                    "threads.smt-siblings",
                    Severity::Warning,
                    params,
                    vec![threads_quote()],
                ));
            }
        }
    }
    for b in &ev.sched.background_slowdowns {
        if seen.contains(&("threads.efficiency-cores", b.input)) {
            continue;
        }
        seen.push(("threads.efficiency-cores", b.input));
        out.push(background(ev, b));
    }
    out
}

/// `threads.efficiency-cores`, variant `background`: a hybrid Intel CPU and a run that slows
/// when its window is minimized. Windows' scheduler gives background processes the efficiency
/// cores (EcoQoS, Thread Director), so every thread runs there.
fn background(ev: &Evidence, b: &BackgroundSlowdown) -> Finding {
    let mut params = vec![("cpu", b.cpu.clone())];
    // The user's own two runs, in front and in the background, size it.
    let speeds = |behind: bool| {
        ev.runs
            .iter()
            .filter(move |r| input_of(ev, r) == b.input && r.background == behind && !r.quoted)
            .filter_map(crate::diagnose::run_facts::decode_tok_s)
    };
    let front = speeds(false).reduce(f64::max);
    let behind = speeds(true).reduce(f64::min);
    if let (Some(f), Some(s)) = (front, behind) {
        if f > s {
            params.push(("front_tok_s", fmt(f)));
            params.push(("background_tok_s", fmt(s)));
        }
    }
    Finding::new(
        "threads.efficiency-cores",
        Severity::Warning,
        params,
        vec![
            EvidenceRef::at_line(b.input, b.line, &b.text),
            EvidenceRef::at_line(b.input, b.cpu_line, &b.cpu),
        ],
    )
    .with_variant(Some("background"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threads(n: u32) -> Vec<Finding> {
        let mut ev = Evidence::default();
        ev.add_input("paste.md");
        ev.runs.push(Run {
            input: "paste.md".into(),
            framework: Some(Framework::LlamaCpp),
            n_threads: Some(n),
            ..Run::default()
        });
        crate::diagnose::apply(rule, &ev)
    }

    #[test]
    fn a_count_no_machine_has_is_over_usable_with_nothing_else_known() {
        let f = threads(6912);
        assert_eq!(
            (f[0].id, f[0].variant),
            ("threads.over-usable", Some("implausible"))
        );
        // A server's count, with nothing to hold it against, says nothing.
        assert!(threads(192).is_empty());
    }
}

//! Counter summaries end to end: `perf stat` (text, `-I` in a decimal-comma locale, `-x,` CSV
//! with hybrid PMUs, `<not supported>` rows) and `simpleperf stat`. Every one shows its figures;
//! the threads, migrations and clock findings fire only where the evidence carries them.

use tokscope::{Lang, Session};
use tokscope_tests::{assert_chunk_size_invariant, finding, ids, report_of, report_of_set, root};

fn path(name: &str) -> std::path::PathBuf {
    root().join("samples/system").join(name)
}

fn system(name: &str, lang: Lang) -> serde_json::Value {
    report_of(&path(name), lang)
}

fn summary<'a>(r: &'a serde_json::Value, id: &str) -> &'a str {
    finding(r, id)["summary"].as_str().unwrap()
}

fn quotes(f: &serde_json::Value) -> Vec<(u64, String)> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["line_start"].as_u64().unwrap_or(0),
                e["quote"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn eight_threads_on_two_cpus_wait_and_migrate() {
    let r = system("perf-stat-llama-8-threads-2-cpus-rk3588.txt", Lang::En);
    assert_eq!(r["inputs"][0]["kind"], "counters");
    assert_eq!(r["inputs"][0]["framework"], "llama-cpp");
    // The llama.cpp log before the summary is read as a run of the same input.
    assert_eq!(r["runs"][0]["n_threads"], 8);
    let w = summary(&r, "threads.waiting");
    assert!(w.contains("asked for 8 threads"), "{w}");
    assert!(w.contains("only 2.10 CPUs busy"), "{w}");
    assert!(w.contains("29.2 s (26% of"), "{w}");
    // Its evidence points at the task-clock row and at the run.
    let q = quotes(finding(&r, "threads.waiting"));
    assert_eq!(q[0].0, 48, "{q:?}");
    let m = summary(&r, "sched.migrations");
    assert!(m.contains("18904 CPU migrations in 29.2 s"), "{m}");
    assert!(m.contains("within a cluster or across"), "{m}");
    assert_eq!(quotes(finding(&r, "sched.migrations"))[0].0, 50);
    let s = summary(&r, "counters.summary");
    assert!(s.contains("2.10 CPUs used"), "{s}");
    assert!(s.contains("1.25 GHz"), "{s}");
    assert!(s.contains("IPC (instructions per cycle) 0.81"), "{s}");
    // No topology in this analysis: no clock finding, and the summary says what is missing.
    assert!(!ids(&r).contains(&"counters.low-clock".to_string()));
    assert!(s.contains("unknown (add lscpu -e"), "{s}");
    let zh = system("perf-stat-llama-8-threads-2-cpus-rk3588.txt", Lang::Zh);
    let w = summary(&zh, "threads.waiting");
    assert!(w.contains("设置了 8 个线程"), "{w}");
    assert!(w.contains("平均只看到 2.10 个 CPU 在忙"), "{w}");
    assert!(summary(&zh, "sched.migrations").contains("18904 次 CPU 迁移"));
}

#[test]
fn a_topology_beside_the_counters_judges_the_clock() {
    let r = report_of_set(
        &[
            path("perf-stat-llama-8-threads-2-cpus-rk3588.txt"),
            path("lscpu-e-rk3588.txt"),
        ],
        Lang::En,
    );
    let c = summary(&r, "counters.low-clock");
    assert!(c.contains("1.25 GHz"), "{c}");
    assert!(c.contains("54% of the 2.30 GHz"), "{c}");
    assert!(c.contains("little cores' maximum (1.80 GHz)"), "{c}");
    assert!(summary(&r, "counters.summary").contains("analysis: 2.30 GHz"));
    // The verdict counts a low clock with power and heat, not with how it was measured.
    let power = r["verdict"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "power")
        .expect("a power cause");
    assert!(
        power["findings"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("counters.low-clock")),
        "{power}"
    );
    // A clock near the maximum is no finding.
    let mut s = Session::new();
    s.add(
        "stat.txt",
        &std::fs::read(path("perf-stat-healthy-x86.txt")).unwrap(),
    );
    s.add(
        "max.txt",
        b"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq:5100000\n/sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq:5100000\n",
    );
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    assert!(
        summary(&r, "counters.summary").contains("analysis: 5.10 GHz"),
        "{:?}",
        summary(&r, "counters.summary")
    );
    assert!(!ids(&r).contains(&"counters.low-clock".to_string()));
}

#[test]
fn a_healthy_run_shows_its_figures_and_nothing_else_from_the_counters() {
    let r = system("perf-stat-healthy-x86.txt", Lang::En);
    let counter_ids: Vec<String> = ids(&r)
        .into_iter()
        .filter(|i| i.starts_with("counters.") || i == "threads.waiting" || i == "sched.migrations")
        .collect();
    assert_eq!(counter_ids, vec!["counters.summary"]);
    let s = summary(&r, "counters.summary");
    assert!(s.contains("7.87 CPUs used"), "{s}");
    assert!(s.contains("93 CPU migrations (6.95/s)"), "{s}");
    assert!(s.contains("4.55 GHz"), "{s}");
    let q = quotes(finding(&r, "counters.summary"));
    assert!(
        q.iter()
            .any(|(l, t)| *l == 15 && t.contains("counted 83% of the time")),
        "{q:?}"
    );
}

#[test]
fn simpleperf_on_android() {
    let r = system("simpleperf-stat-android-llama.txt", Lang::En);
    assert_eq!(r["inputs"][0]["kind"], "counters");
    assert_eq!(r["inputs"][0]["problems"], serde_json::json!([]));
    let s = summary(&r, "counters.summary");
    assert!(s.contains("simpleperf stat for process id '21877'"), "{s}");
    assert!(
        s.contains("2.38 CPUs used on average (23.8 s of CPU time in 10.0 s)"),
        "{s}"
    );
    assert!(s.contains("1.04 GHz"), "{s}");
    // simpleperf prints cycles per instruction; the report gives IPC.
    assert!(s.contains("IPC (instructions per cycle) 0.78"), "{s}");
    assert!(summary(&r, "sched.migrations").contains("13417 CPU migrations"));
    // No log says how many threads were asked for: no waiting finding.
    assert!(!ids(&r).contains(&"threads.waiting".to_string()));
    let zh = system("simpleperf-stat-android-llama.txt", Lang::Zh);
    assert!(summary(&zh, "counters.summary").contains("平均使用 2.38 个 CPU"));
}

#[test]
fn csv_hybrid_and_unsupported_counters() {
    let r = system("perf-stat-x-csv-hybrid.txt", Lang::En);
    assert_eq!(r["inputs"][0]["kind"], "counters");
    let s = summary(&r, "counters.summary");
    // cpu_core and cpu_atom cycles add up; the wall time comes from the printed CPUs utilized.
    assert!(
        s.contains("5.95 CPUs used on average (31.9 s of CPU time in 5.35 s)"),
        "{s}"
    );
    assert!(s.contains("3.74 GHz"), "{s}");
    assert!(s.contains("IPC (instructions per cycle) 1.49"), "{s}");
    let r = system("perf-stat-vm-not-supported.txt", Lang::En);
    assert_eq!(ids(&r), vec!["counters.summary"]);
    let s = summary(&r, "counters.summary");
    assert!(
        s.contains("average clock not counted, IPC (instructions per cycle) not counted"),
        "{s}"
    );
    let q = quotes(finding(&r, "counters.summary"));
    assert!(
        q.iter()
            .any(|(l, t)| *l == 9 && t.contains("cycles, instructions")),
        "{q:?}"
    );
}

#[test]
fn interval_rows_in_a_decimal_comma_locale() {
    let r = system("perf-stat-I-interval-de.txt", Lang::En);
    assert_eq!(r["inputs"][0]["kind"], "counters");
    let s = summary(&r, "counters.summary");
    assert!(
        s.contains("3.90 CPUs used on average (13.6 s of CPU time in 3.48 s)"),
        "{s}"
    );
    assert!(s.contains("2794 context switches"), "{s}");
    assert!(s.contains("2.24 GHz"), "{s}");
    let q = quotes(finding(&r, "counters.summary"));
    assert!(
        q.iter().any(|(_, t)| t.contains("16 interval rows")),
        "{q:?}"
    );
}

#[test]
fn system_wide_counters_judge_no_threads() {
    let text = "$ perf stat -a -- sleep 5\n\n Performance counter stats for 'system wide':\n\n         40,031.12 msec cpu-clock                        #    8.001 CPUs utilized\n            51,203      context-switches                 #    1.279 K/sec\n             9,120      cpu-migrations                   #  227.823 /sec\n     4,203,991,100      cycles                           #    0.105 GHz\n\n       5.003115722 seconds time elapsed\n";
    let log = b"system_info: n_threads = 16 (n_threads_batch = 16) / 16 | AVX = 1 |\nllama_perf_context_print:        eval time =   10000.00 ms /   127 runs   (   78.74 ms per token,    12.70 tokens per second)\nllama_model_loader: loaded meta data\n";
    let mut s = Session::new();
    s.add("wide.txt", text.as_bytes());
    s.add("run.log", log);
    s.add(
        "max.txt",
        b"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq:3000000\n/sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq:3000000\n",
    );
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    // 16 threads asked for, 8 CPUs busy: a per-process count would call that waiting.
    assert_eq!(r["runs"][0]["n_threads"], 16);
    let i = ids(&r);
    assert!(i.contains(&"counters.summary".to_string()), "{i:?}");
    // Idle CPUs count in cpu-clock and not in cycles: neither the clock nor the thread count
    // can be judged from a system-wide count.
    assert!(!i.contains(&"counters.low-clock".to_string()), "{i:?}");
    assert!(!i.contains(&"threads.waiting".to_string()), "{i:?}");
    // Nor whether the inference threads moved: every task's migrations are in the count.
    assert!(!i.contains(&"sched.migrations".to_string()), "{i:?}");
    let q = quotes(finding(&r, "counters.summary"));
    assert!(
        q.iter().any(|(_, t)| t.contains("system wide (-a)")),
        "{q:?}"
    );
}

#[test]
fn chunk_size_does_not_change_a_counter_report() {
    for name in [
        "perf-stat-llama-8-threads-2-cpus-rk3588.txt",
        "simpleperf-stat-android-llama.txt",
        "perf-stat-x-csv-hybrid.txt",
    ] {
        assert_chunk_size_invariant(&path(name), 17);
    }
}

#[test]
fn a_header_with_nothing_readable_says_so() {
    let mut s = Session::new();
    s.add(
        "cut.txt",
        b" Performance counter stats for './llama-cli -t 4':\n\n  (output cut here by the terminal)\n",
    );
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    let codes: Vec<&str> = r["inputs"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"counters-not-read"), "{codes:?}");
    assert!(codes.contains(&"counter-lines-skipped"), "{codes:?}");
}

#[test]
fn figures_without_a_wall_time_say_what_is_missing() {
    let mut s = Session::new();
    s.add(
        "cut.txt",
        b"Performance counter statistics:\n\n        1,204  context-switches   # 0.000 /sec (100%)\n           77  cpu-migrations     # 0.000 /sec (100%)\n",
    );
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    let t = summary(&r, "counters.summary");
    assert!(t.contains("CPUs used not known"), "{t}");
    assert!(
        t.contains("1204 context switches and 77 CPU migrations;"),
        "{t}"
    );
    let mut s = Session::new();
    s.add(
        "cut.txt",
        b"Performance counter statistics:\n\n        1,204  context-switches   # 0.000 /sec (100%)\n",
    );
    let r = serde_json::to_value(s.report(Lang::Zh)).unwrap();
    let t = summary(&r, "counters.summary");
    assert!(t.contains("上下文切换 1204 次，未统计 CPU 迁移"), "{t}");
}

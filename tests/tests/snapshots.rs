//! Snapshots end to end: `top -H`, `ps`, `/proc` stat dumps and `taskset` with a CPU topology
//! give the scheduling findings, with how many snapshots they rest on; process memory with a
//! log's model size gives `quant.weights-expanded`; healthy snapshots give no alarm.

use tokscope::{Lang, Session};
use tokscope_tests::{find_finding as finding, ids, root};

/// The report of several sample files analyzed together, as the page does.
fn report(files: &[&str], lang: Lang) -> serde_json::Value {
    let mut s = Session::new();
    for f in files {
        let bytes = std::fs::read(root().join("samples").join(f)).expect(f);
        s.add(f, &bytes);
    }
    serde_json::to_value(s.report(lang)).expect("report serializes")
}

const CPUINFO: &str = "traces/llama-little-cores.cpuinfo.txt";
const BENCH_7B_Q4_0: &str = "logs/llama-bench-headerless.tsv";

#[test]
fn toybox_top_with_a_topology_finds_little_cores_and_says_it_sampled() {
    let r = report(
        &[CPUINFO, "snapshots/toybox-top-H-little-cores.txt"],
        Lang::En,
    );
    let f = finding(&r, "sched.little-cores").expect("sched.little-cores");
    assert_eq!(f["severity"], "critical");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("little CPUs 0-3"), "{s}");
    assert!(s.contains("From 4 snapshots (56 thread samples)"), "{s}");
    assert!(s.contains("only where a thread was at that instant"), "{s}");
    let m = finding(&r, "sched.migrations").expect("sched.migrations");
    assert!(m["summary"]
        .as_str()
        .unwrap()
        .contains("between snapshots, a lower bound"));
    let zh = report(
        &[CPUINFO, "snapshots/toybox-top-H-little-cores.txt"],
        Lang::Zh,
    );
    let s = finding(&zh, "sched.little-cores").unwrap()["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.contains("依据 4 次快照"), "{s}");
}

#[test]
fn without_a_topology_snapshots_claim_no_little_cores() {
    let r = report(&["snapshots/toybox-top-H-little-cores.txt"], Lang::En);
    let found = ids(&r);
    assert!(!found.iter().any(|i| i.starts_with("sched.")), "{found:?}");
    // The residency is still there to see, on CPUs of unknown cluster.
    let t = &r["sched"]["traces"][0];
    assert_eq!(t["format"], "snapshots");
    assert!(t["threads"].as_array().unwrap().len() >= 8);
    // Snapshots see where a thread was, not how long it waited for a CPU: no runnable figure.
    for th in t["threads"].as_array().unwrap() {
        assert!(th.get("runnable_s").is_none(), "{th}");
    }
}

#[test]
fn proc_stat_dumps_and_ps_feed_the_same_rules() {
    let r = report(&[CPUINFO, "snapshots/proc-task-stat-little.txt"], Lang::En);
    let f = finding(&r, "sched.little-cores").expect("from /proc stat");
    assert!(f["summary"].as_str().unwrap().contains("From 3 snapshots"));
    // One ps frame: a glimpse, so a warning at most.
    let r = report(&[CPUINFO, "snapshots/ps-T-toybox.txt"], Lang::En);
    let f = finding(&r, "sched.little-cores").expect("from ps -T -o PSR");
    assert_eq!(f["severity"], "warning");
}

#[test]
fn taskset_masks_are_cited_as_the_cause() {
    let r = report(
        &[
            CPUINFO,
            "snapshots/toybox-top-H-little-cores.txt",
            "snapshots/taskset-ap.txt",
        ],
        Lang::En,
    );
    let f = finding(&r, "sched.affinity-subset").expect("affinity-subset");
    let masks: Vec<&serde_json::Value> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["input"] == "snapshots/taskset-ap.txt")
        .collect();
    assert!(!masks.is_empty(), "{f}");
    assert_eq!(masks[0]["line_start"], 3);
    assert!(masks[0]["quote"].as_str().unwrap().contains("CPUs 0-3"));
}

#[test]
fn resident_memory_far_above_the_quant_is_the_fp16_path() {
    let r = report(
        &[
            BENCH_7B_Q4_0,
            "snapshots/dumpsys-meminfo-llama-expanded.txt",
        ],
        Lang::En,
    );
    let f = finding(&r, "quant.weights-expanded").expect("quant.weights-expanded");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("TOTAL RSS 7.09 GiB"), "{s}");
    assert!(s.contains("dumpsys-meminfo-llama-expanded.txt:37"), "{s}");
    assert!(s.contains("about 3.53 GiB is expected (2.0×"), "{s}");
    assert_eq!(f["evidence"][0]["line_start"], 37);
    assert!(finding(&r, "memory.resident").is_none());
}

#[test]
fn memory_without_a_model_size_says_what_would_decide() {
    let r = report(&["snapshots/dumpsys-meminfo-llama-expanded.txt"], Lang::En);
    assert!(finding(&r, "quant.weights-expanded").is_none());
    let f = finding(&r, "memory.resident").expect("memory.resident");
    assert_eq!(f["severity"], "info");
    assert!(f["summary"].as_str().unwrap().contains("cannot be told"));
    assert!(f["fix"].as_str().unwrap().contains("framework log"));
}

#[test]
fn healthy_snapshots_raise_no_alarm() {
    for files in [
        &[
            CPUINFO,
            "snapshots/procps-top-H-big-cores.txt",
            BENCH_7B_Q4_0,
        ][..],
        &[CPUINFO, "snapshots/ps-eLo-procps.txt"][..],
        &[BENCH_7B_Q4_0, "snapshots/proc-status-llama.txt"][..],
        &["snapshots/free-h.txt"][..],
        &["snapshots/proc-meminfo-phone.txt"][..],
    ] {
        let r = report(files, Lang::En);
        let found = ids(&r);
        assert!(
            !found.iter().any(|i| i.starts_with("sched.")
                || i.starts_with("quant.")
                || i.starts_with("memory.low")),
            "{files:?}: {found:?}"
        );
    }
}

#[test]
fn low_available_memory_is_system_context_not_a_footprint() {
    let r = report(&["snapshots/free-m-low.txt"], Lang::En);
    let f = finding(&r, "memory.low-available").expect("memory.low-available");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("Only 187 MiB of 7.28 GiB (3%)"), "{s}");
    assert!(s.contains("not the model's footprint"), "{s}");
    assert!(finding(&r, "memory.resident").is_none());
}

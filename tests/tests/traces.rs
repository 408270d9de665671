//! Traces end to end: each sample of samples/traces/ yields its finding (and the healthy one
//! none), chunking does not change a report, and the real perf-script / ftrace corpus in
//! ../shared/corpus/ parses with zero unexplained skipped lines (read only when present).

use std::io::Read;
use std::path::{Path, PathBuf};
use tokscope::{Lang, Session};
use tokscope_tests::{assert_chunk_size_invariant, ids, report_of, root};

fn sample(name: &str) -> serde_json::Value {
    report_of(&root().join("samples/traces").join(name), Lang::En)
}

#[test]
fn little_cores_sample_fires_little_cores() {
    let r = sample("llama-little-cores.perf.txt");
    let found = ids(&r);
    assert!(
        found.contains(&"sched.little-cores".to_string()),
        "{found:?}"
    );
    assert!(
        found.contains(&"sched.oversubscribed".to_string()),
        "{found:?}"
    );
    let f = &r["findings"].as_array().unwrap()[0];
    assert!(
        f["summary"].as_str().unwrap().contains("little CPUs 0-3"),
        "{f}"
    );
    let t = &r["sched"]["traces"][0];
    assert_eq!(t["format"], "perf-script");
    assert_eq!(t["lines"]["skipped"], 0);
    // Eight llama-cli threads, every one an inference thread.
    let inference = t["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["inference"] == true)
        .count();
    assert_eq!(inference, 8);
    assert_eq!(r["sched"]["topology"]["source"], "observed-freq");
}

#[test]
fn affinity_sample_fires_affinity_subset() {
    let r = sample("affinity-subset.systrace.txt");
    let found = ids(&r);
    assert!(
        found.contains(&"sched.affinity-subset".to_string()),
        "{found:?}"
    );
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "sched.affinity-subset")
        .unwrap();
    let s = f["summary"].as_str().unwrap();
    assert!(
        s.contains("fast CPUs 4-5") && s.contains("never on 6-7"),
        "{s}"
    );
    assert_eq!(r["sched"]["traces"][0]["unit"], "seconds");
}

#[test]
fn rotating_sample_fires_rotating_throttle_only() {
    let r = sample("rotating-throttle.perf.txt");
    assert_eq!(ids(&r), vec!["thermal.rotating-throttle".to_string()]);
    let f = &r["findings"][0];
    assert!(f["summary"].as_str().unwrap().contains("CPUs 3-7"), "{f}");
    // The frequency strip has every CPU that reported cpu_frequency.
    assert_eq!(r["sched"]["traces"][0]["freq"].as_array().unwrap().len(), 8);
}

#[test]
fn healthy_sample_fires_nothing() {
    let r = sample("healthy.perf.txt");
    assert_eq!(ids(&r), Vec::<String>::new());
    let t = &r["sched"]["traces"][0];
    let lanes = t["timeline"]["lanes"].as_array().unwrap();
    assert_eq!(lanes.len(), 4);
    for lane in lanes {
        let cells = lane["cells"].as_str().unwrap();
        assert!(!cells.contains('L') && cells.contains('B'), "{cells}");
    }
}

#[test]
fn binary_perf_data_is_read() {
    let r = sample("python-4-threads-on-2-cpus.perf.data");
    assert_eq!(r["inputs"][0]["kind"], "perf-data");
    assert_eq!(r["inputs"][0]["problems"].as_array().unwrap().len(), 0);
    let t = &r["sched"]["traces"][0];
    assert_eq!(t["format"], "perf-data");
    assert_eq!(t["unit"], "seconds");
    let llama = t["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["comm"] == "llama-cli")
        .count();
    assert!(llama >= 4, "{t}");
    assert!(t["switches"].as_u64().unwrap() > 10);
}

#[test]
fn truncated_perf_data_is_a_clear_error() {
    let bytes =
        std::fs::read(root().join("samples/traces/python-4-threads-on-2-cpus.perf.data")).unwrap();
    let mut s = Session::new();
    s.add("cut.perf.data", &bytes[..bytes.len() / 3]);
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    let codes: Vec<&str> = r["inputs"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert!(!codes.is_empty(), "a truncated perf.data must say so");
}

#[test]
fn damaged_perf_data_never_panics() {
    let bytes =
        std::fs::read(root().join("samples/traces/python-4-threads-on-2-cpus.perf.data")).unwrap();
    let mut x: u64 = 11;
    for round in 0..300 {
        let mut b = bytes.clone();
        if round % 2 == 0 {
            // Cut anywhere, the header included.
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            b.truncate(8 + (x >> 33) as usize % (bytes.len() - 8));
        } else {
            // Flip bytes anywhere after the magic.
            for _ in 0..8 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                let i = 8 + (x >> 33) as usize % (b.len() - 8);
                b[i] ^= (x >> 13) as u8 | 1;
            }
        }
        let mut s = Session::new();
        s.add("damaged.perf.data", &b);
        let r = serde_json::to_value(s.report(Lang::En)).unwrap();
        assert_eq!(r["inputs"][0]["kind"], "perf-data");
    }
}

#[test]
fn chunk_size_does_not_change_the_report() {
    for name in [
        "llama-little-cores.perf.txt",
        "affinity-subset.systrace.txt",
    ] {
        assert_chunk_size_invariant(&root().join("samples/traces").join(name), 997);
    }
}

#[test]
fn user_topology_and_threads_override() {
    let bytes = std::fs::read(root().join("samples/traces/healthy.perf.txt")).unwrap();
    let mut s = Session::new();
    s.add("healthy.perf.txt", &bytes);
    // Declaring CPUs 4-7 little makes the same trace a little-core problem.
    s.set_topology("0-3:big,4-7:little");
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    assert_eq!(r["sched"]["topology"]["source"], "user");
    assert!(ids(&r).contains(&"sched.little-cores".to_string()));
    s.set_topology("rk3588");
    s.set_threads("sshd");
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    assert_eq!(r["sched"]["topology"]["preset"], "rk3588");
    let rows = r["sched"]["traces"][0]["threads"].as_array().unwrap();
    assert!(rows
        .iter()
        .all(|x| (x["comm"] == "sshd") == (x["inference"] == true)));
}

fn corpus_files() -> Vec<PathBuf> {
    let base = root().join("../shared/corpus");
    let mut files = Vec::new();
    if let Ok(dir) = std::fs::read_dir(base.join("perf-script")) {
        files.extend(
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| !p.ends_with("MANIFEST.md")),
        );
    }
    if let Ok(dir) = std::fs::read_dir(base.join("telemetry")) {
        files.extend(
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with("trappy.txt")),
        );
    }
    files.sort();
    files
}

fn read_maybe_gz(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    if p.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .expect("gunzip");
        out
    } else {
        raw
    }
}

#[test]
fn real_corpus_parses_without_unexplained_skipped_lines() {
    let files = corpus_files();
    if files.is_empty() {
        println!("corpus: ../shared/corpus not present, skipped");
        return;
    }
    for p in &files {
        let bytes = read_maybe_gz(p);
        let name = p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".gz")
            .to_string();
        let mut s = Session::new();
        s.add(&name, &bytes);
        let r = serde_json::to_value(s.report(Lang::En)).unwrap();
        assert_eq!(r["inputs"][0]["kind"], "trace", "{name}");
        let t = &r["sched"]["traces"][0];
        let lines = &t["lines"];
        assert_eq!(lines["skipped"], 0, "{name}: {lines}");
        let total: u64 = ["event", "detail", "header", "blank"]
            .iter()
            .map(|k| lines[k].as_u64().unwrap())
            .sum();
        assert_eq!(
            total,
            r["inputs"][0]["lines"].as_u64().unwrap(),
            "{name}: every line accounted for"
        );
        assert!(lines["event"].as_u64().unwrap() > 0, "{name}");
        println!(
            "corpus: {name}: {lines} format={} unit={}",
            t["format"], t["unit"]
        );
    }
    println!("corpus: read {} files from ../shared/corpus", files.len());
}

//! Framework logs end to end: the seed-000 pair read together (device A vs device B), checked
//! by hand for the findings and the comparison that tell the story of the seed.

use serde_json::Value;
use tokscope::{Lang, Session};
use tokscope_tests::root;

fn pair() -> Value {
    let mut s = Session::new();
    for name in ["seed000-device-a.logcat.txt", "seed000-device-b.logcat.txt"] {
        let path = root().join("samples/compare").join(name);
        let bytes = std::fs::read(&path).expect("sample exists");
        s.add(name, &bytes);
    }
    serde_json::to_value(s.report(Lang::En)).expect("serializes")
}

fn ids(r: &Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn seed_000_pair_explains_the_gap() {
    let r = pair();
    let ids = ids(&r);
    for id in [
        "fallback.precision",
        "fallback.cpu",
        "quant.weights-expanded",
        "cpu.missing-dotprod",
        "threads.all-cores",
        "load.slow",
        "compare.fallback",
        "compare.weights",
        "compare.cpu-features",
        "compare.threads",
        "compare.decode-gap",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} missing from {ids:?}");
    }
    // Same file and quant on both: no quant, model or build difference is claimed.
    for id in [
        "compare.quant",
        "compare.model",
        "compare.build",
        "compare.backend",
    ] {
        assert!(!ids.iter().any(|i| i == id), "{id} must not fire");
    }
    // Device A is healthy: no finding points at it except as the reference of a comparison
    // and the single-run note, which holds for both logs.
    for f in r["findings"].as_array().expect("findings") {
        let id = f["id"].as_str().unwrap_or_default();
        if id.starts_with("compare.") || id == "measure.single-run" {
            continue;
        }
        for e in f["evidence"].as_array().expect("evidence") {
            assert_eq!(
                e["input"], "seed000-device-b.logcat.txt",
                "{id} points at A"
            );
        }
    }
    let runs = r["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["decode"]["tok_s"], 13.39);
    assert_eq!(runs[1]["decode"]["tok_s"], 0.57);
    assert_eq!(runs[1]["buffers_mib"]["CPU model"], 7296.42);
    assert_eq!(runs[1]["cpu_features"]["DOTPROD"], false);
    assert_eq!(runs[0]["cpu_features"]["DOTPROD"], true);
    let cmp = &r["comparison"];
    assert_eq!(cmp["inputs"].as_array().map(Vec::len), Some(2));
    let row = |fact: &str| {
        cmp["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["fact"] == fact))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(row("threads")["differs"], true);
    assert_eq!(row("quant")["differs"], false);
    assert_eq!(row("quant")["values"][1], "Q4_0");
}

#[test]
fn one_input_has_no_comparison() {
    let mut s = Session::new();
    let bytes =
        std::fs::read(root().join("samples/compare/seed000-device-a.logcat.txt")).expect("sample");
    s.add("a.log", &bytes);
    let r = serde_json::to_value(s.report(Lang::En)).expect("serializes");
    assert!(r.get("comparison").is_none());
    assert!(!ids(&r).iter().any(|i| i.starts_with("compare.")));
    // A healthy run: nothing but the single-run hygiene note.
    assert_eq!(ids(&r), vec!["measure.single-run".to_string()]);
}

//! The `fallback` rule over the samples, asserted by hand (not only by golden files): the right
//! ids, counts and every line number, and silence on the negative samples.

use serde_json::Value;
use tokscope::Lang;
use tokscope_tests::{report_of, root, samples};

fn report(rel: &str) -> Value {
    report_of(&root().join(rel), Lang::En)
}

/// (id, count, lines) of every `fallback.*` finding (other rules are tested elsewhere).
fn findings(r: &Value) -> Vec<(String, u64, Vec<u64>)> {
    r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["id"].as_str().is_some_and(|i| i.starts_with("fallback.")))
        .map(|f| {
            let lines = f["lines"][0]["lines"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            (
                f["id"].as_str().unwrap_or_default().to_string(),
                f["count"].as_u64().unwrap_or(0),
                lines,
            )
        })
        .collect()
}

#[test]
fn demo_log_finds_the_repack_and_gpu_fallbacks() {
    let r = report("samples/demo/device-b-llama-android.logcat.txt");
    assert_eq!(r["inputs"][0]["framework"], "llama-cpp");
    let f = findings(&r);
    assert_eq!(
        f,
        vec![
            ("fallback.cpu".to_string(), 2, vec![29, 30]),
            ("fallback.cpu".to_string(), 1, vec![6]),
        ]
    );
    let first_cpu = r["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["id"] == "fallback.cpu"))
        .cloned()
        .unwrap_or(Value::Null);
    let quote = first_cpu["evidence"][0]["quote"]
        .as_str()
        .unwrap_or_default();
    assert!(
        quote.contains("cannot be used with preferred buffer type CPU_REPACK"),
        "{quote}"
    );
    assert_eq!(first_cpu["evidence"][0]["line_start"], 29);
}

#[test]
fn chinese_app_log_is_a_precision_fallback() {
    let r = report("samples/logs/compat-build-zh.logcat.txt");
    let f = findings(&r);
    assert_eq!(f[0], ("fallback.precision".to_string(), 3, vec![4, 5, 6]));
    assert_eq!(r["findings"][0]["severity"], "critical");
    assert_eq!(f[1], ("fallback.reference-kernel".to_string(), 1, vec![7]));
    assert_eq!(
        f.len(),
        2,
        "the `fallback: none` line must stay quiet: {f:?}"
    );
}

#[test]
fn tflite_partial_delegation_lists_the_cpu_share_and_the_ops() {
    let f = findings(&report("samples/logs/tflite-gpu-delegate.studio.txt"));
    assert_eq!(f[0], ("fallback.cpu".to_string(), 1, vec![9]));
    let ops: Vec<u64> = f
        .iter()
        .filter(|x| x.0 == "fallback.unsupported-op")
        .flat_map(|x| x.2.clone())
        .collect();
    assert_eq!(ops, vec![3, 4, 5, 6, 7, 8]);
}

#[test]
fn onnxruntime_groups_repeated_unsupported_ops() {
    let f = findings(&report("samples/logs/onnxruntime-nnapi.log"));
    assert!(
        f.contains(&("fallback.unsupported-op".to_string(), 3, vec![3, 4, 6])),
        "{f:?}"
    );
    assert!(
        f.contains(&("fallback.cpu".to_string(), 1, vec![8])),
        "{f:?}"
    );
}

#[test]
fn negative_samples_fire_nothing() {
    for sample in samples("negative") {
        let r = report_of(&sample, Lang::En);
        assert_eq!(findings(&r), vec![], "{} fired", sample.display());
        assert!(
            r["inputs"][0]["lines"].as_u64().unwrap_or(0) > 5,
            "{} was read",
            sample.display()
        );
    }
}

#[test]
fn invalid_files_get_a_named_error_and_do_not_stop_the_others() {
    let mut s = tokscope::Session::new();
    for name in [
        "invalid/screenshot.png",
        "invalid/empty.log",
        "invalid/model-shard.bin",
        "demo/device-b-llama-android.logcat.txt",
    ] {
        let bytes = std::fs::read(root().join("samples").join(name)).expect("sample");
        s.add(name, &bytes);
    }
    let r = serde_json::to_value(s.report(Lang::En)).expect("json");
    let problem = |i: usize| r["inputs"][i]["problems"][0].clone();
    assert_eq!(problem(0)["code"], "rejected.image");
    assert_eq!(problem(1)["code"], "rejected.empty");
    assert_eq!(problem(2)["code"], "rejected.binary");
    for i in 0..3 {
        assert_eq!(problem(i)["level"], "error");
        let msg = problem(i)["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let name = r["inputs"][i]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(msg.contains(&name), "the error names the file: {msg}");
        assert!(
            msg.contains("llama.cpp") && msg.contains("CSV"),
            "the error says what is accepted: {msg}"
        );
    }
    assert_eq!(r["inputs"][3]["problems"].as_array().map(Vec::len), Some(0));
    assert_eq!(findings(&r).len(), 2, "the good log is still analyzed");
}

#[test]
fn chunk_size_does_not_change_the_report() {
    let bytes = std::fs::read(root().join("samples/demo/device-b-llama-android.logcat.txt"))
        .expect("sample");
    let whole = {
        let mut s = tokscope::Session::new();
        s.add("x", &bytes);
        serde_json::to_value(s.report(Lang::En)).expect("json")
    };
    for size in [1, 7, 100, 4096] {
        let mut s = tokscope::Session::new();
        let id = s.begin("x");
        for c in bytes.chunks(size) {
            s.push(id, c);
        }
        s.end(id);
        assert_eq!(
            serde_json::to_value(s.report(Lang::En)).expect("json"),
            whole,
            "chunk size {size}"
        );
    }
}

#[test]
fn chinese_report_uses_the_chinese_catalogue() {
    let r = report_of(
        &root().join("samples/logs/compat-build-zh.logcat.txt"),
        Lang::Zh,
    );
    assert_eq!(r["lang"], "zh");
    assert_eq!(r["findings"][0]["title"], "量化权重回退为浮点计算");
}

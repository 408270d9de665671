//! Framework logs end to end: the seed-000 pair read together (device A vs device B), checked
//! by hand for the findings and the comparison that tell the story of the seed.

use serde_json::Value;
use tokscope::{Lang, Session};
use tokscope_tests::{ids, root};

fn pair() -> Value {
    let mut s = Session::new();
    for name in ["seed000-device-a.logcat.txt", "seed000-device-b.logcat.txt"] {
        let path = root().join("samples/compare").join(name);
        let bytes = std::fs::read(&path).expect("sample exists");
        s.add(name, &bytes);
    }
    serde_json::to_value(s.report(Lang::En)).expect("serializes")
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
    // One model on two devices: one group, device A (the faster) its reference, nothing listed
    // apart.
    let groups = r["comparison"]["groups"].as_array().expect("groups");
    assert_eq!(groups.len(), 1);
    assert_eq!(r["comparison"]["unrelated"], serde_json::json!([]));
    let cmp = &groups[0];
    assert_eq!(cmp["reference"], "seed000-device-a.logcat.txt");
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

/// One sample per row: how many runs, facts of the last run (`/pointer`, value), findings that
/// must appear and ones that must not. Written by hand from the sample text, not from output.
struct Case {
    file: &'static str,
    framework: &'static str,
    runs: usize,
    facts: &'static [(&'static str, &'static str)],
    fire: &'static [&'static str],
    quiet: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        file: "llama-2023-ggjt-quoted.md",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/quant", "\"Q4_0\""),
            ("/decode/tok_s", "0.895"),
            ("/decode/derived", "true"),
            ("/n_threads", "8"),
            ("/cpu_features/NEON", "true"),
            ("/load_ms", "21318.43"),
        ],
        fire: &["threads.all-cores", "load.slow"],
        quiet: &["cpu.missing-dotprod"],
    },
    Case {
        file: "llama-2024-cuda-paste.md",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/backend", "\"CUDA\""),
            ("/quant", "\"Q4_K - Medium\""),
            ("/decode/tok_s", "53.33"),
            ("/load_ms", "2468.13"),
            ("/devices/0", "\"NVIDIA GeForce RTX 3060\""),
        ],
        fire: &[],
        quiet: &["quant.weights-expanded", "threads.all-cores"],
    },
    Case {
        file: "llama-server-timestamps.log",
        framework: "llama-cpp",
        runs: 3,
        facts: &[
            ("/backend", "\"Vulkan\""),
            ("/decode/tok_s", "67.46"),
            ("/cpu_features/DOTPROD", "true"),
            ("/n_threads", "4"),
        ],
        fire: &["measure.first-run-slow"],
        quiet: &["measure.single-run"],
    },
    Case {
        file: "llama-rpc-folded.log",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/backend", "\"RPC\""),
            ("/prefill/tok_s", "2.87"),
            ("/decode/tok_s", "0.65"),
        ],
        fire: &["load.slow"],
        quiet: &["cpu.missing-avx2"],
    },
    Case {
        file: "llama-bench-thread-sweep.md",
        framework: "llama-cpp",
        runs: 2,
        facts: &[
            ("/quant", "\"Q4_0_4_8\""),
            ("/bench/0/test", "\"pp512\""),
            ("/bench/0/tok_s", "210.4"),
        ],
        fire: &["threads.sweep-slower"],
        quiet: &[],
    },
    Case {
        file: "llama-bench.json",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/bench/1/test", "\"tg128\""),
            ("/bench/1/tok_s", "32.404163"),
            ("/n_threads", "4"),
            ("/quant", "\"Q4_0\""),
        ],
        fire: &[],
        quiet: &["measure.mixed-average"],
    },
    Case {
        file: "llama-bench-mixed.csv",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/bench/0/test", "\"pp512+tg128\""),
            ("/model_bytes", "2393232384"),
        ],
        fire: &["measure.mixed-average"],
        quiet: &[],
    },
    Case {
        file: "llama-cpp-python-x86-noavx2.txt",
        framework: "llama-cpp",
        runs: 1,
        facts: &[
            ("/cpu_features/AVX2", "false"),
            ("/decode/tok_s", "18.1"),
            ("/quant", "\"Q8_0\""),
        ],
        fire: &["cpu.missing-avx2"],
        quiet: &["fallback.other", "cpu.missing-dotprod"],
    },
    Case {
        file: "mnn-llm-demo-android.logcat.txt",
        framework: "mnn",
        runs: 1,
        facts: &[
            ("/cpu_features/i8sdot", "true"),
            ("/decode/tok_s", "42.93"),
            ("/decode/tokens", "167"),
            ("/n_threads", "4"),
            ("/model", "\"Qwen2.5-1.5B-Instruct-MNN\""),
        ],
        fire: &[],
        quiet: &["cpu.missing-dotprod"],
    },
    Case {
        file: "mnn-opencl-fallback-paste.md",
        framework: "mnn",
        runs: 1,
        facts: &[
            ("/decode/tok_s", "4.44"),
            ("/quant", "\"int4\""),
            ("/cpu_features/i8sdot", "false"),
        ],
        fire: &["cpu.missing-dotprod", "fallback.unsupported-op"],
        // OpenCL: thread_num is a mode mask there, not threads.
        quiet: &["measure.mixed-average", "threads.exceeds-big-cores"],
    },
    Case {
        file: "mnn-llm-bench.md",
        framework: "mnn",
        runs: 1,
        facts: &[("/bench/3/tok_s", "7.41"), ("/bench/3/n_threads", "8")],
        fire: &["threads.sweep-slower"],
        quiet: &[],
    },
    Case {
        file: "mlc-chat-cli-stats.txt",
        framework: "mlc-llm",
        runs: 2,
        facts: &[
            ("/quant", "\"q4f16_1\""),
            ("/backend", "\"vulkan\""),
            ("/decode/tok_s", "13.4"),
            ("/prefill/tok_s", "112.9"),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "mlc-android-per-token.logcat.txt",
        framework: "mlc-llm",
        runs: 1,
        facts: &[
            ("/decode/tokens", "5"),
            ("/decode/derived", "true"),
            ("/backend", "\"opencl\""),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "ort-genai-benchmark.md",
        framework: "onnx-runtime",
        runs: 1,
        facts: &[("/quant", "\"int4\"")],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "ort-qnn-ep.log",
        framework: "onnx-runtime",
        runs: 1,
        facts: &[("/backend", "\"QNN\"")],
        fire: &["fallback.cpu", "fallback.unsupported-op"],
        quiet: &[],
    },
    Case {
        file: "tflite-benchmark-model.txt",
        framework: "tflite",
        runs: 1,
        facts: &[
            ("/n_threads", "4"),
            ("/backend", "\"GPU\""),
            ("/quant", "\"int8\""),
            ("/load_ms", "870.557"),
        ],
        fire: &["fallback.cpu", "fallback.unsupported-op"],
        quiet: &[],
    },
    Case {
        file: "litert-lm-app.logcat.txt",
        framework: "tflite",
        runs: 2,
        facts: &[
            ("/backend", "\"GPU\""),
            ("/decode/tok_s", "8.913953803546868"),
            ("/quant", "\"int4\""),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "mediapipe-llm-inference.studio.txt",
        framework: "mediapipe",
        runs: 1,
        facts: &[
            ("/n_threads", "8"),
            ("/quant", "\"int4\""),
            ("/backend", "\"CPU\""),
        ],
        fire: &[],
        quiet: &["measure.single-run"],
    },
    Case {
        file: "mediapipe-gpu-mismatch.logcat.txt",
        framework: "mediapipe",
        runs: 1,
        facts: &[("/n_threads", "4"), ("/quant", "\"int8\"")],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "executorch-xnnpack-stats.txt",
        framework: "executorch",
        runs: 1,
        facts: &[
            ("/decode/tok_s", "39.006766"),
            ("/prefill/tokens", "14"),
            ("/load_ms", "946.0"),
            ("/n_threads", "6"),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "executorch-qnn-export.log",
        framework: "executorch",
        runs: 1,
        facts: &[
            ("/backend", "\"QNN\""),
            ("/decode/tok_s", "17.403173"),
            ("/n_threads", "8"),
        ],
        fire: &["fallback.precision", "fallback.unsupported-op"],
        quiet: &[],
    },
    Case {
        file: "genie-t2t-run.txt",
        framework: "qnn",
        runs: 1,
        facts: &[
            ("/decode/tok_s", "20.61"),
            ("/prefill/tok_s", "1017.9"),
            ("/load_ms", "2516.743"),
            ("/build", "\"libGenie 1.1.0\""),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "genie-htp-failure.logcat.txt",
        framework: "qnn",
        runs: 1,
        facts: &[("/backend", "\"QNN HTP\"")],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "ncnn-benchncnn.txt",
        framework: "ncnn",
        runs: 1,
        facts: &[
            ("/n_threads", "8"),
            ("/backend", "\"CPU\""),
            ("/cpu_clusters/0/cpus", "[0, 1, 2, 3]"),
        ],
        fire: &["threads.exceeds-big-cores"],
        quiet: &[],
    },
    Case {
        file: "ncnn-benchncnn-llm.txt",
        framework: "ncnn",
        runs: 3,
        facts: &[
            ("/model", "\"llama3.2_1b\""),
            ("/prefill/tokens", "256"),
            ("/prefill/tok_s", "147.04"),
            ("/decode/tok_s", "14.22"),
            ("/n_threads", "4"),
        ],
        fire: &[],
        quiet: &[],
    },
    Case {
        file: "ncnn-no-vulkan-device.logcat.txt",
        framework: "ncnn",
        runs: 1,
        facts: &[("/n_threads", "4")],
        fire: &["fallback.cpu"],
        quiet: &[],
    },
    Case {
        file: "executorch-missing-operator.logcat.txt",
        framework: "executorch",
        runs: 1,
        facts: &[("/quant", "\"8da4w\""), ("/n_threads", "4")],
        fire: &["run.failed"],
        quiet: &[],
    },
    Case {
        file: "executorch-qnn-finalize-failure.log",
        framework: "executorch",
        runs: 1,
        facts: &[("/backend", "\"QNN\"")],
        fire: &["run.failed", "fallback.unsupported-op"],
        quiet: &[],
    },
    Case {
        file: "ncnn-vulkan-app.logcat.txt",
        framework: "ncnn",
        runs: 1,
        facts: &[
            ("/devices/0", "\"Mali-G720 MC8\""),
            ("/backend", "\"Vulkan0\""),
        ],
        fire: &[],
        quiet: &[],
    },
];

#[test]
fn every_framework_sample_yields_its_run_facts_and_findings() {
    let mut failures = Vec::new();
    for c in CASES {
        let r = tokscope_tests::report_of(&root().join("samples/logs").join(c.file), Lang::En);
        let runs = r["runs"].as_array().cloned().unwrap_or_default();
        if runs.len() != c.runs {
            failures.push(format!(
                "{}: {} runs, expected {}",
                c.file,
                runs.len(),
                c.runs
            ));
            continue;
        }
        let last = runs.last().cloned().unwrap_or(Value::Null);
        if last["framework"] != c.framework {
            failures.push(format!("{}: framework {}", c.file, last["framework"]));
        }
        for (ptr, want) in c.facts {
            let got = last
                .pointer(ptr)
                .map(Value::to_string)
                .unwrap_or_else(|| "absent".into());
            let want_v: Value = serde_json::from_str(want).expect("fact value is JSON");
            if last.pointer(ptr) != Some(&want_v) {
                failures.push(format!("{}: {ptr} = {got}, expected {want}", c.file));
            }
        }
        let ids = ids(&r);
        for id in c.fire {
            if !ids.iter().any(|i| i == id) {
                failures.push(format!("{}: {id} did not fire ({ids:?})", c.file));
            }
        }
        for id in c.quiet {
            if ids.iter().any(|i| i == id) {
                failures.push(format!("{}: {id} fired", c.file));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_qnn_library_name_in_an_ort_log_does_not_split_its_run() {
    let log = "2025-03-02 14:11:07.5521834 [I:onnxruntime:, qnn_backend_manager.cc:286 LoadBackend] Loaded backend: libQnnHtp.so\n\
2025-03-02 14:11:08.1103312 [V:onnxruntime:, session_state.cc:1155 VerifyEachNodeIsAssignedToAnEp] Node(s) placed on [QNNExecutionProvider]. Number of nodes: 1311\n\
2025-03-02 14:11:08.2103312 [I:onnxruntime:, qnn_execution_provider.cc:400 Compile] using libQnnHtp.so from backend_path\n";
    let mut s = Session::new();
    s.add("ort.log", log.as_bytes());
    let r = serde_json::to_value(s.report(Lang::En)).expect("serializes");
    let runs = r["runs"].as_array().cloned().unwrap_or_default();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0]["framework"], "onnx-runtime");
    assert_eq!(runs[0]["backend"], "QNN");
}

#[test]
fn tflite_delegate_lines_inside_a_mediapipe_log_stay_in_its_run() {
    let log = "I0000 00:00:1721895466.174139    1280 llm_inference_engine.cc:186] Session config: backend: 1, threads: 4, num_output_candidates: 1\n\
INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n\
I0000 00:00:1721895469.882010    1316 llm_inference_engine_cpu.cc:247] model /data/local/tmp/gemma-2b-it-cpu-int4.bin\n";
    let mut s = Session::new();
    s.add("mp.log", log.as_bytes());
    let r = serde_json::to_value(s.report(Lang::En)).expect("serializes");
    let runs = r["runs"].as_array().cloned().unwrap_or_default();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0]["framework"], "mediapipe");
    assert_eq!(runs[0]["quant"], "int4");
}

/// Issue 16: a server log with more requests than kept says how many were left out and where
/// they start, instead of dropping them silently.
#[test]
fn runs_past_the_cap_are_a_problem_that_names_the_count() {
    let mut log = String::from("main: server is listening on http://127.0.0.1:8080\n");
    for i in 0..503 {
        log.push_str(&format!(
            "slot print_timing: id  0 | task {i} | \nprompt eval time =     183.25 ms /    51 tokens (    3.59 ms per token,   278.30 tokens per second)\n       eval time =    3683.90 ms /   128 tokens (   28.78 ms per token,    34.75 tokens per second)\n"
        ));
    }
    let mut s = Session::new();
    s.add("server.log", log.as_bytes());
    let r = serde_json::to_value(s.report(Lang::En)).expect("json");
    assert_eq!(r["runs"].as_array().map(Vec::len), Some(500));
    let problems = r["inputs"][0]["problems"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let cut = problems
        .iter()
        .find(|p| p["code"] == "runs-cut")
        .unwrap_or_else(|| panic!("no runs-cut in {problems:?}"));
    assert_eq!(cut["count"], 3);
    let msg = cut["message"].as_str().unwrap_or_default();
    assert!(msg.contains("3 later ones") && msg.contains("500"), "{msg}");
    // Line 1 is the banner; request k takes lines 2+3k..4+3k, and its run starts at its first
    // timing.
    assert_eq!(
        cut["line"],
        2 + 3 * 500 + 1,
        "the first left-out run's line"
    );
}

//! Messy real-world inputs: encodings, line endings, gzip (whole, broken, bomb-like), and
//! arbitrary bytes. The report must always come back, with the problem named.

use proptest::prelude::*;
use serde_json::Value;
use std::io::Write;
use tokscope::InputKind;
use tokscope::{share, Lang, Session};
use tokscope_tests::{report_of, root};

fn sample(rel: &str) -> Value {
    report_of(&root().join("samples").join(rel), Lang::En)
}

fn ids_and_lines(r: &Value) -> Vec<(String, Value)> {
    r["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["id"].as_str().unwrap_or_default().to_string(),
                        f["lines"][0]["lines"].clone(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn utf16_powershell_log_is_decoded() {
    let r = sample("encodings/ort-qnn-powershell.utf16le.log");
    assert_eq!(r["inputs"][0]["encoding"], "utf-16le");
    assert_eq!(r["inputs"][0]["framework"], "onnx-runtime");
    assert_eq!(r["inputs"][0]["lines"], 6);
    let f = ids_and_lines(&r);
    assert!(
        f.contains(&("fallback.cpu".into(), serde_json::json!([4]))),
        "{f:?}"
    );
    assert!(
        f.contains(&("fallback.unsupported-op".into(), serde_json::json!([3]))),
        "{f:?}"
    );
}

#[test]
fn gbk_log_is_decoded_and_node_names_group() {
    let r = sample("encodings/engine-gbk.log");
    assert_eq!(r["inputs"][0]["encoding"], "gb18030");
    assert_eq!(
        ids_and_lines(&r),
        vec![("fallback.precision".into(), serde_json::json!([2, 3]))]
    );
    let quote = r["findings"][0]["evidence"][0]["quote"]
        .as_str()
        .unwrap_or_default();
    assert!(quote.contains("回退到 fp16"), "{quote}");
}

#[test]
fn lone_cr_line_endings_split_lines() {
    let r = sample("encodings/tflite-cr-only.log");
    assert_eq!(r["inputs"][0]["lines"], 3);
    assert!(ids_and_lines(&r).contains(&("fallback.cpu".into(), serde_json::json!([3]))));
}

#[test]
fn gzipped_log_gives_the_same_findings_as_the_plain_one() {
    let gz = sample("encodings/device-b-llama-android.logcat.txt.gz");
    let plain = sample("demo/device-b-llama-android.logcat.txt");
    assert_eq!(gz["inputs"][0]["compression"], "gzip");
    assert_eq!(gz["inputs"][0]["lines"], plain["inputs"][0]["lines"]);
    assert_eq!(ids_and_lines(&gz), ids_and_lines(&plain));
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

#[test]
fn truncated_gzip_keeps_the_lines_before_the_break() {
    let demo =
        std::fs::read(root().join("samples/demo/device-b-llama-android.logcat.txt")).expect("demo");
    let mut gz = gzip(&demo);
    gz.truncate(gz.len() * 2 / 3);
    let mut s = Session::new();
    s.add("cut.log.gz", &gz);
    let r = serde_json::to_value(s.report(Lang::En)).expect("json");
    let problems = &r["inputs"][0]["problems"];
    assert_eq!(problems[0]["code"], "gzip-corrupt", "{problems}");
    assert!(problems[0]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("cut.log.gz"));
    let lines = r["inputs"][0]["lines"].as_u64().unwrap_or(0);
    assert!(lines > 10 && lines < 47, "partial lines kept: {lines}");
    assert_eq!(
        r["findings"][0]["id"], "fallback.cpu",
        "findings before the break are kept"
    );
}

#[test]
fn highly_compressed_input_streams_without_holding_it() {
    // 16 MiB of one repeated line compresses ~1000:1; it must stream through line by line.
    let line = b"W/app: the remaining 3 operations will run on the CPU.\n";
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block: Vec<u8> = line
        .iter()
        .copied()
        .cycle()
        .take(line.len() * 20_000)
        .collect();
    let mut total = 0;
    while total < 16 << 20 {
        e.write_all(&block).expect("gzip");
        total += block.len();
    }
    let gz = e.finish().expect("gzip");
    let mut s = Session::new();
    s.add("bomb.log.gz", &gz);
    let r = serde_json::to_value(s.report(Lang::En)).expect("json");
    let lines = r["inputs"][0]["lines"].as_u64().unwrap_or(0);
    assert_eq!(lines, (total / line.len()) as u64);
    assert_eq!(r["findings"][0]["count"].as_u64(), Some(lines));
    assert_eq!(
        r["findings"][0]["lines_truncated"], true,
        "line lists are bounded"
    );
    assert_eq!(
        r["findings"][0]["lines"][0]["lines"]
            .as_array()
            .map(Vec::len),
        Some(10_000)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_give_a_report(bytes in proptest::collection::vec(any::<u8>(), 0..3000), chunk in 1usize..700) {
        let mut s = Session::new();
        let id = s.begin("fuzz.bin");
        for c in bytes.chunks(chunk) {
            s.push(id, c);
        }
        s.end(id);
        let r = s.report(Lang::Zh);
        prop_assert_eq!(r.inputs.len(), 1);
        prop_assert_eq!(r.inputs[0].bytes, bytes.len() as u64);
    }

    #[test]
    fn any_text_gives_a_report(text in "(\\PC{0,80}(\r\n|\n|\r)){0,60}", chunk in 1usize..200) {
        let mut s = Session::new();
        let id = s.begin("fuzz.txt");
        for c in text.as_bytes().chunks(chunk) {
            s.push(id, c);
        }
        s.end(id);
        let r = s.report(Lang::En);
        prop_assert!(serde_json::to_string(&r).is_ok());
    }
}

/// Every input a fuzz target failed on, kept as `samples/fuzz/<target>-<what>.bin` and replayed
/// the way that target reads it (`fuzz/fuzz_targets/common/mod.rs`): the first byte is the chunk
/// size, the rest is fed as the target's kind. Each must give a report that makes a share link.
#[test]
fn fuzz_findings_replay() {
    let dir = root().join("samples/fuzz");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).expect("samples/fuzz exists") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let target = name.split('-').next().unwrap_or_default();
        let kind = match target {
            "session" => None,
            "log" => Some(InputKind::Log),
            "trace" => Some(InputKind::Trace),
            "perf_data" => Some(InputKind::PerfData),
            "telemetry_csv" => Some(InputKind::Csv),
            "telemetry_text" => Some(InputKind::Telemetry),
            other => panic!("{name}: unknown fuzz target '{other}'"),
        };
        let bytes = std::fs::read(&path).unwrap();
        let Some((&first, rest)) = bytes.split_first() else {
            continue;
        };
        let mut s = Session::new();
        let id = match kind {
            Some(kind) => s.begin_as(&name, kind),
            None => s.begin(&name),
        };
        for c in rest.chunks(usize::from(first) + 1) {
            s.push(id, c);
        }
        s.end(id);
        let report = s.report(Lang::En);
        assert_eq!(report.inputs[0].bytes, rest.len() as u64, "{name}");
        let value = serde_json::to_value(&report).unwrap();
        if let Err(e) = share::encode(&value, &[], share::BUDGET_BYTES) {
            panic!("{name}: no share link: {e}");
        }
        replayed += 1;
    }
    assert!(replayed > 0, "no fuzz findings under {}", dir.display());
}

#[test]
fn damaged_event_desc_is_a_clear_error() {
    // The perf_data target's first find: EVENT_DESC names a 1.7 GB event name.
    let bytes =
        std::fs::read(root().join("samples/fuzz/perf_data-event-desc-huge-name.bin")).unwrap();
    let mut s = Session::new();
    let id = s.begin("damaged.perf.data");
    s.push(id, &bytes[1..]);
    s.end(id);
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    assert_eq!(r["inputs"][0]["kind"], "perf-data");
    let codes: Vec<&str> = r["inputs"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["code"].as_str())
        .collect();
    assert_eq!(codes, vec!["perf-data-invalid"]);
}

//! The binding layer in a real browser (`wasm-pack test --headless --chrome crate`): the page's
//! calls, fed in slices as the page feeds a File, give the same report as the native core.
#![cfg(target_arch = "wasm32")]

use tokscope::wasm::Analysis;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DEMO: &[u8] = include_bytes!("../../samples/demo/device-b-llama-android.logcat.txt");
const PNG: &[u8] = include_bytes!("../../samples/invalid/screenshot.png");

fn report(a: &mut Analysis, lang: &str) -> serde_json::Value {
    serde_json::from_str(&a.report_json(lang)).expect("report_json is JSON")
}

#[wasm_bindgen_test]
fn streamed_log_gives_fallback_findings_with_lines() {
    let mut a = Analysis::new();
    let id = a.begin("device-b.log");
    for chunk in DEMO.chunks(333) {
        a.push(id, chunk);
    }
    a.end(id);
    let r = report(&mut a, "en");
    assert_eq!(r["findings"][0]["id"], "fallback.cpu");
    assert_eq!(
        r["findings"][0]["lines"][0]["lines"],
        serde_json::json!([29, 30])
    );
    assert_eq!(r["inputs"][0]["framework"], "llama-cpp");
}

#[wasm_bindgen_test]
fn same_report_as_native_core() {
    let mut a = Analysis::new();
    let id = a.begin("x");
    a.push(id, DEMO);
    a.end(id);
    let mut native = tokscope::Session::new();
    native.add("x", DEMO);
    let expected = serde_json::to_value(native.report(tokscope::Lang::Zh)).expect("json");
    assert_eq!(report(&mut a, "zh-CN"), expected);
}

#[wasm_bindgen_test]
fn binary_input_is_an_error_and_others_still_count() {
    let mut a = Analysis::new();
    let png = a.begin("shot.png");
    a.push(png, PNG);
    a.end(png);
    let log = a.begin("log.txt");
    a.push(log, DEMO);
    // Not ended: the report closes it.
    let r = report(&mut a, "en");
    assert_eq!(r["inputs"][0]["problems"][0]["code"], "rejected.image");
    assert_eq!(r["findings"].as_array().map(Vec::len), Some(2));
    // Chunks for unknown ids are ignored, not a crash.
    a.push(99, b"junk");
    a.end(99);
}

const THERMAL: &[u8] = include_bytes!("../../samples/telemetry-runs/thermal-wall.csv");

#[wasm_bindgen_test]
fn telemetry_csv_in_slices_gives_thermal_wall_and_series() {
    let mut a = Analysis::new();
    let id = a.begin("thermal-wall.csv");
    for chunk in THERMAL.chunks(4096) {
        a.push(id, chunk);
    }
    a.end(id);
    let r = report(&mut a, "en");
    let ids: Vec<&str> = r["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert!(ids.contains(&"thermal.wall"), "{ids:?}");
    assert!(r["series"].as_array().is_some_and(|s| s.len() >= 4));
}

#[wasm_bindgen_test]
fn chart_spec_is_parsed_once_and_bad_specs_are_errors() {
    let spec = r#"{"panels":[{"title":"MHz","lines":[{"label":"cpu7","points":[[5,2400],[65,1800]]}]}],"shades":[{"t0":20,"t1":40}]}"#;
    let chart = tokscope::wasm::Chart::new(spec).expect("valid spec");
    assert_eq!(chart.extent(), vec![5.0, 65.0]);
    let range = chart.plot_x_range(800.0, 2.0);
    assert!(range[0] > 0.0 && range[1] < 800.0 && range[0] < range[1]);
    assert!(tokscope::wasm::Chart::new("{\"panels\": 3}").is_err());
}

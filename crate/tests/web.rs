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
    let fallback = r["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["id"] == "fallback.cpu"))
        .expect("a fallback.cpu finding");
    assert_eq!(fallback["lines"][0]["lines"], serde_json::json!([29, 30]));
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
    let fallbacks = r["findings"]
        .as_array()
        .map(|f| f.iter().filter(|f| f["id"] == "fallback.cpu").count());
    assert_eq!(
        fallbacks,
        Some(2),
        "the log after the PNG is still analyzed"
    );
    // Chunks for unknown ids are ignored, not a crash.
    a.push(99, b"junk");
    a.end(99);
}

fn demo_report_json() -> String {
    let mut a = Analysis::new();
    let id = a.begin("device-b.log");
    a.push(id, DEMO);
    a.end(id);
    a.report_json("en")
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).expect("JSON")
}

/// What the page reads instead of keeping copies (`www/core.js` coreConstants).
#[wasm_bindgen_test]
fn page_constants_are_the_cores() {
    use tokscope::kernel;
    let c = json(&tokscope::wasm::page_constants());
    assert_eq!(c["share_budget_bytes"], tokscope::share::BUDGET_BYTES);
    assert_eq!(c["share_raw_max_bytes"], tokscope::share::RAW_MAX_BYTES);
    assert_eq!(c["probe_windows"], kernel::WINDOWS);
    assert_eq!(c["probe_window_ms"], kernel::WINDOW_S * 1000.0);
    assert_eq!(c["ceiling_context"], kernel::DEFAULT_CONTEXT);
}

#[wasm_bindgen_test]
fn share_link_round_trips_in_the_browser() {
    let report = demo_report_json();
    let made = json(&tokscope::wasm::share_encode(&report, "", 8192));
    assert_eq!(made["ok"], true);
    let fragment = made["fragment"].as_str().expect("fragment");
    assert!(fragment.starts_with("#r=1."));
    assert!(made["bytes"].as_u64().expect("bytes") <= 8192);
    let read = json(&tokscope::wasm::share_decode(&format!(
        "https://example.org/x/{fragment}"
    )));
    assert_eq!(read["ok"], true);
    // The link carries the prose; the parameters beside it are for programs reading the JSON
    // export and are left out of links, by the one definition the encoder uses.
    let mut sent = json(&report);
    assert!(
        sent["findings"][0]["params"].is_object(),
        "the report has parameters"
    );
    tokscope::share::without_data(&mut sent);
    assert_eq!(read["shared"]["report"], sent);
}

#[wasm_bindgen_test]
fn share_decoder_limits_hold_in_the_browser() {
    // A zip bomb: 30 MiB of spaces deflate to ~30 KB; the inflater stops at its limit.
    let mut bomb = b"{\"report\":\"".to_vec();
    bomb.resize(30 << 20, b' ');
    let packed = miniz_oxide::deflate::compress_to_vec(&bomb, 6);
    let b64: String = {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut s = String::new();
        for c in packed.chunks(3) {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..=c.len() {
                s.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            }
        }
        s
    };
    let read = json(&tokscope::wasm::share_decode(&format!("#r=1.{b64}")));
    assert_eq!(read["ok"], false);
    assert_eq!(read["code"], "too-large");
    let cases = [
        ("#r=2.AAAA", "wrong-version"),
        ("#r=1.<script>", "bad-encoding"),
        ("#q=1", "not-a-link"),
    ];
    for (link, code) in cases {
        assert_eq!(
            json(&tokscope::wasm::share_decode(link))["code"],
            code,
            "{link}"
        );
    }
    let long = format!("#r=1.{}", "A".repeat(60 * 1024));
    assert_eq!(
        json(&tokscope::wasm::share_decode(&long))["code"],
        "too-long"
    );
    // Truncated: half of a good link.
    let made = json(&tokscope::wasm::share_encode(&demo_report_json(), "", 8192));
    let good = made["fragment"].as_str().expect("fragment");
    let cut = json(&tokscope::wasm::share_decode(&good[..good.len() / 2]));
    assert_eq!(cut["ok"], false);
    assert!(
        cut["code"] == "corrupt" || cut["code"] == "bad-encoding",
        "{cut}"
    );
}

#[wasm_bindgen_test]
fn markdown_export_in_the_browser() {
    let md = tokscope::wasm::report_markdown(&demo_report_json()).expect("markdown");
    assert!(md.contains("` fallback.cpu `"), "{md}");
    assert!(tokscope::wasm::report_markdown("{\"schema\": 1}").is_err());
}

/// The kernel paths of this build agree with the definition and with each other, bit for bit, in
/// the browser's engine. `make test-wasm` runs this file once per build (no SIMD, simd128,
/// simd128 + relaxed-simd), so every path meets V8.
#[wasm_bindgen_test]
fn kernel_paths_agree_bit_for_bit_in_the_browser() {
    use tokscope::kernel::q4::{cases, Path};
    let paths = tokscope::wasm::kernel_paths();
    let expected: Vec<&str> = Path::available().iter().map(|p| p.name()).collect();
    assert_eq!(paths, expected.join(","));
    #[cfg(target_feature = "relaxed-simd")]
    assert_eq!(paths, "scalar,simd128,relaxed");
    #[cfg(all(target_feature = "simd128", not(target_feature = "relaxed-simd")))]
    assert_eq!(paths, "scalar,simd128");
    #[cfg(not(target_feature = "simd128"))]
    assert_eq!(paths, "scalar");
    let checked = cases::check_paths().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked, cases::all().len() * expected.len());
}

#[wasm_bindgen_test]
fn probe_calls_count_bytes_and_reject_unknown_paths() {
    use tokscope::wasm::Probe;
    let mut p = Probe::new((4 << 20) as f64, 1).expect("4 MiB");
    assert!(p.bytes() > (3 << 20) as f64 && p.bytes() <= (4 << 20) as f64);
    assert_eq!(p.read(65536.0), (1 << 20) as f64);
    assert!(p.q4("scalar", p.bytes()) > 0.0);
    assert_eq!(p.q4("avx512", p.bytes()), 0.0);
    assert!(Probe::new(0.0, 1).is_err());
    let t: serde_json::Value =
        serde_json::from_str(&tokscope::wasm::ceiling_table_json(20.0, 2048)).expect("json");
    assert_eq!(t["rows"].as_array().map(Vec::len), Some(32));
}

#[wasm_bindgen_test]
fn a_device_probe_gives_the_sustained_drop_finding() {
    let mut a = Analysis::new();
    let points: Vec<(f64, f64)> = (0..40)
        .map(|i| (i as f64 * 2.0, if i < 10 { 10.0 } else { 7.0 }))
        .collect();
    let json = serde_json::json!({ "read_gbps_best": 12.0, "sustained": points }).to_string();
    a.set_device_json(&json).expect("valid probe JSON");
    let r = report(&mut a, "en");
    assert_eq!(r["findings"][0]["id"], "thermal.sustained-drop");
    assert!(a.set_device_json("{\"read_gbps_best\": \"fast\"}").is_err());
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

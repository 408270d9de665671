//! The native CLI, run as a user runs it, over the repository's samples.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::Command;

fn tokscope() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tokscope"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    c
}

#[test]
fn analyze_json_prints_the_documented_report() {
    let out = tokscope()
        .args([
            "analyze",
            "--json",
            "samples/logs/compat-build-zh.logcat.txt",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(r["schema"], 1);
    assert_eq!(
        r["inputs"][0]["name"],
        "samples/logs/compat-build-zh.logcat.txt"
    );
    assert_eq!(r["findings"][0]["id"], "fallback.precision");
    assert_eq!(
        r["findings"][0]["lines"][0]["lines"],
        serde_json::json!([4, 5, 6])
    );
}

#[test]
fn analyze_text_in_chinese_and_bad_usage() {
    let out = tokscope()
        .args([
            "analyze",
            "--lang",
            "zh",
            "samples/demo/device-b-llama-android.logcat.txt",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("计算回退到 CPU"), "{text}");
    assert!(text.contains("29, 30"), "{text}");

    let bad = tokscope()
        .args(["analyze", "--lang", "fr", "x"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--lang takes en or zh"));

    let missing = tokscope()
        .args(["analyze", "no/such/file.log"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no/such/file.log"));
}

#[test]
fn analyze_markdown_uses_the_markdown_renderer() {
    let out = tokscope()
        .args([
            "analyze",
            "--markdown",
            "samples/logs/compat-build-zh.logcat.txt",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let md = String::from_utf8(out.stdout).expect("utf-8");
    assert!(md.starts_with("# tokscope"), "{md}");
    assert!(md.contains("## Findings"), "{md}");
    assert!(md.contains("` fallback.precision `"), "{md}");
    assert!(md.contains("```text\n"), "quotes are fenced: {md}");
}

#[test]
fn share_prints_a_link_that_decodes_to_the_same_findings() {
    let out = tokscope()
        .args([
            "share",
            "--base",
            "https://example.org/tokscope/",
            "samples/demo/device-b-llama-android.logcat.txt",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let link = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        link.starts_with("https://example.org/tokscope/#r=1."),
        "{link}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bytes of fragment"), "{err}");
    let shared = tokscope::share::decode(&link).expect("decodes");
    let ids: Vec<&str> = shared
        .report
        .findings
        .iter()
        .map(|f| f.id.as_str())
        .collect();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples/demo/device-b-llama-android.logcat.txt");
    let mut session = tokscope::Session::new();
    session.add("demo", &std::fs::read(demo).expect("demo sample"));
    let direct = session.report(tokscope::Lang::En);
    let expected: Vec<&str> = direct.findings.iter().map(|f| f.id.as_str()).collect();
    assert!(ids.contains(&"fallback.cpu"), "{ids:?}");
    assert_eq!(ids, expected);
    let bad = tokscope()
        .args(["share", "--json", "x"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn compare_puts_two_logs_side_by_side() {
    let out = tokscope()
        .args([
            "compare",
            "samples/compare/seed000-device-a.logcat.txt",
            "samples/compare/seed000-device-b.logcat.txt",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Device A vs device B"), "{text}");
    assert!(text.contains("[A] 4 / 4 / 8  [B] 8 / 8 / 8"), "{text}");
    assert!(text.contains("compare.cpu-features"), "{text}");
    let one = tokscope()
        .args(["compare", "samples/compare/seed000-device-a.logcat.txt"])
        .output()
        .expect("runs");
    assert_eq!(one.status.code(), Some(2), "compare needs two files");
}

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

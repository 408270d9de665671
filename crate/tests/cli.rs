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

/// Runs the CLI; (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = tokscope().args(args).output().expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// A usage error: exit 2, nothing on stdout, one line on stderr that says `expected` and points
/// to --help.
fn assert_usage_error(args: &[&str], expected: &[&str]) {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, not {err}");
    assert!(err.starts_with("tokscope: "), "{args:?}: {err}");
    assert!(
        err.trim_end().ends_with("see tokscope --help"),
        "{args:?}: {err}"
    );
    for e in expected {
        assert!(err.contains(e), "{args:?}: {err} lacks {e}");
    }
}

#[test]
fn help_prints_the_usage_and_exits_0() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["analyze", "--help"],
        &["bench", "-h"],
        &[],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(
            out.starts_with("usage: tokscope analyze"),
            "{args:?}: {out}"
        );
        for option in [
            "--markdown",
            "--lang en|zh",
            "--budget BYTES",
            "--base URL",
            "--threads N",
        ] {
            assert!(
                out.contains(option),
                "{args:?}: {option} missing from {out}"
            );
        }
        let budget = format!("(default {};", tokscope::share::BUDGET_BYTES);
        assert!(
            out.contains(&budget),
            "the default budget is the core's: {out}"
        );
        assert_eq!(err, "", "{args:?}");
    }
}

#[test]
fn version_prints_the_version_and_exits_0() {
    for flag in ["--version", "-V"] {
        let (code, out, err) = run(&[flag]);
        assert_eq!(code, Some(0), "{flag}: {err}");
        assert_eq!(
            out,
            format!("tokscope {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
        assert_eq!(err, "", "{flag}");
    }
}

#[test]
fn an_unknown_option_names_itself_and_what_the_command_takes() {
    let log = "samples/logs/compat-build-zh.logcat.txt";
    assert_usage_error(
        &["analyze", "--frobnicate", log],
        &[
            "unknown option '--frobnicate'",
            "analyze takes --json, --markdown, --lang",
        ],
    );
    assert_usage_error(&["analyze", "-x", log], &["unknown option '-x'"]);
    assert_usage_error(
        &["analyze", "--budget", "100", log],
        &["'--budget'", "analyze takes"],
    );
    assert_usage_error(
        &["bench", "--fast"],
        &["'--fast'", "bench takes --json, --mib N"],
    );
    assert_usage_error(&["--frobnicate"], &["'--frobnicate'", "expected a command"]);
    assert_usage_error(
        &["analyse", log],
        &["unknown command 'analyse'", "expected analyze"],
    );
    assert_usage_error(
        &["analyze", "--json=yes", log],
        &["--json takes no value, not 'yes'"],
    );
    assert_usage_error(
        &["share", "--markdown", log],
        &["--markdown is an option of analyze"],
    );
    assert_usage_error(&["analyze"], &["no input files", "FILE"]);
}

#[test]
fn a_missing_or_bad_value_says_what_was_expected() {
    let log = "samples/logs/compat-build-zh.logcat.txt";
    assert_usage_error(
        &["analyze", log, "--lang"],
        &["--lang needs a value: en or zh"],
    );
    assert_usage_error(
        &["analyze", "--lang=fr", log],
        &["--lang takes en or zh, not 'fr'"],
    );
    assert_usage_error(
        &["share", log, "--budget"],
        &["--budget needs a value: a number of bytes"],
    );
    assert_usage_error(
        &["share", "--budget", "8k", log],
        &["--budget takes a number of bytes, not '8k'"],
    );
    assert_usage_error(
        &["share", log, "--base"],
        &["--base needs a value: the page's address"],
    );
    assert_usage_error(
        &["bench", "--mib"],
        &["--mib needs a value: a positive number"],
    );
    assert_usage_error(
        &["bench", "--threads", "0"],
        &["--threads takes a positive number, not '0'"],
    );
}

#[test]
fn lang_takes_its_value_joined_or_apart() {
    let log = "samples/demo/device-b-llama-android.logcat.txt";
    let (code, joined, err) = run(&["analyze", "--lang=zh", log]);
    assert_eq!(code, Some(0), "{err}");
    assert!(joined.contains("计算回退到 CPU"), "{joined}");
    let (code, apart, err) = run(&["analyze", "--lang", "zh", log]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(joined, apart);
    let (_, english, _) = run(&["analyze", log]);
    assert!(!english.contains("计算回退到 CPU"), "{english}");
    let (code, budget, err) = run(&["share", "--budget=0", "--base=https://example.org/", log]);
    assert_eq!(code, Some(0), "{err}");
    assert!(budget.starts_with("https://example.org/#r=1."), "{budget}");
}

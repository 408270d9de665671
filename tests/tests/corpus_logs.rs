//! The real-log corpus (`../shared/corpus/logs`, 70 public logs with hand-written expectations)
//! scored by its own checker on this checkout's CLI: at least 97% of the facts, every finding
//! check, no crash. The corpus lives outside the repository; without it the test says it was
//! skipped (on standard error, which the harness does not capture) and passes.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use tokscope_tests::root;

const MIN_FACTS_PERCENT: f64 = 97.0;

fn say(msg: &str) {
    // Written past the harness's capture so a run shows whether the corpus was scored.
    let _ = writeln!(std::io::stderr(), "corpus_logs: {msg}");
}

/// `logs facts: X/Y (Z%) findings: A/B files-ok: C/D crashes: E` -> the numbers.
fn summary(line: &str) -> Option<(u64, u64, u64, u64, u64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pair = |key: &str| -> Option<(u64, u64)> {
        let i = words.iter().position(|w| *w == key)?;
        let (a, b) = words.get(i + 1)?.split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let (facts, of) = pair("facts:")?;
    let (found, checks) = pair("findings:")?;
    let crashes = words.last()?.parse().ok()?;
    Some((facts, of, found, checks, crashes))
}

#[test]
fn real_logs_score_at_least_97_percent_of_facts() {
    let shared: PathBuf = root().join("../shared");
    let (dir, checker) = (
        shared.join("corpus/logs"),
        shared.join("tools/check_logs.py"),
    );
    if !dir.join("expected.json").is_file() || !checker.is_file() {
        say(&format!(
            "skipped: {} or {} is absent",
            dir.display(),
            checker.display()
        ));
        return;
    }
    let cli = env!("CARGO_BIN_EXE_tokscope-under-test");
    let out = match Command::new("python3")
        .arg(&checker)
        .args(["--cli", cli, "--dir"])
        .arg(&dir)
        .args(["--min", "0", "--timeout", "120", "--verbose"])
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            say(&format!("skipped: python3 cannot run ({e})"));
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    say(&format!("ran {} -> {last}", checker.display()));
    let Some((facts, of, found, checks, crashes)) = summary(last) else {
        panic!(
            "the checker gave no summary line:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    assert!(of > 0, "no facts checked:\n{stdout}");
    let percent = facts as f64 * 100.0 / of as f64;
    let failing: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("FAIL") || l.starts_with("    -"))
        .collect();
    assert!(
        percent >= MIN_FACTS_PERCENT && found == checks && crashes == 0,
        "{last}\n{}",
        failing.join("\n")
    );
}

#[test]
fn the_summary_line_is_read() {
    assert_eq!(
        summary("logs facts: 394/430 (91.6%) findings: 16/16 files-ok: 58/70 crashes: 0"),
        Some((394, 430, 16, 16, 0))
    );
    assert_eq!(summary("nothing here"), None);
}

//! Golden tests: every sample in, the whole report JSON out, compared with the reviewed file in
//! `samples/expected/`. A change in output shows up as a readable diff.
//!
//! After an intended change, regenerate with `UPDATE_GOLDEN=1 cargo test -p tokscope-tests`
//! and review the diff of `samples/expected/` before committing it.

use std::path::Path;
use tokscope::Lang;
use tokscope_tests::{report_of, report_of_set, root, samples};

/// Sample folders with a golden report per file.
const FOLDERS: &[&str] = &[
    "demo",
    "logs",
    "compare",
    "compare-mixed",
    "negative",
    "invalid",
    "encodings",
    "telemetry",
    "usb-stall",
    "usb-stall-apart",
    "traces",
    "system",
    "bundles",
    "snapshots",
    "cpu-flags",
];

/// Sample folders also read as one analysis (every file of the folder dropped together), with
/// one golden report for the set: the comparison exists only across inputs.
const SETS: &[&str] = &["compare", "compare-mixed", "usb-stall", "usb-stall-apart"];

fn set_path(folder: &str) -> std::path::PathBuf {
    root()
        .join("samples/expected")
        .join(format!("set__{folder}.json"))
}

fn expected_path(sample: &Path) -> std::path::PathBuf {
    let folder = sample
        .parent()
        .and_then(Path::file_name)
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let file = sample
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    root()
        .join("samples/expected")
        .join(format!("{folder}__{file}.json"))
}

#[test]
fn every_sample_matches_its_golden_report() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for folder in FOLDERS {
        for sample in samples(folder) {
            let actual = report_of(&sample, Lang::En);
            let pretty = serde_json::to_string_pretty(&actual).expect("serializes") + "\n";
            let path = expected_path(&sample);
            if update {
                std::fs::write(&path, &pretty).expect("write golden file");
            } else {
                let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                    panic!(
                        "{} has no golden report: run with UPDATE_GOLDEN=1 and review it",
                        sample.display()
                    )
                });
                if expected != pretty {
                    mismatches.push(format!(
                        "{} differs from {}",
                        sample.display(),
                        path.display()
                    ));
                }
            }
            checked += 1;
        }
    }
    for folder in SETS {
        let actual = report_of_set(&samples(folder), Lang::En);
        let pretty = serde_json::to_string_pretty(&actual).expect("serializes") + "\n";
        let path = set_path(folder);
        if update {
            std::fs::write(&path, &pretty).expect("write golden file");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(pretty.as_str()) {
            mismatches.push(format!(
                "set samples/{folder} differs from {}",
                path.display()
            ));
        }
    }
    assert!(checked >= 8, "only {checked} samples found");
    assert!(
        mismatches.is_empty(),
        "golden mismatches (UPDATE_GOLDEN=1 to regenerate, then review):\n{}",
        mismatches.join("\n")
    );
}

#[test]
fn no_golden_file_is_orphaned() {
    let mut known = std::collections::HashSet::new();
    for folder in FOLDERS {
        for sample in samples(folder) {
            known.insert(expected_path(&sample));
        }
    }
    for folder in SETS {
        known.insert(set_path(folder));
    }
    for golden in samples("expected") {
        assert!(
            known.contains(&golden),
            "{} has no sample any more",
            golden.display()
        );
    }
}

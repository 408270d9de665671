//! Golden tests: every sample in, the facts of its report out (`tokscope_tests::facts`: ids,
//! parameters, figures and locations, no prose and no version), compared with the reviewed file
//! in `samples/expected/`. A wording change in the catalogue leaves the goldens as they are; a
//! changed figure, id or location fails with a diff. The same facts must come out of the Chinese
//! report and out of the sample fed in pieces. Every folder of `samples/` has goldens but those
//! that `tokscope_tests::NOT_SAMPLES` names, with why.
//!
//! After an intended change, regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p tokscope-tests --test golden` and review the diff of
//! `samples/expected/` before committing it.

use std::path::{Path, PathBuf};
use tokscope::Lang;
use tokscope_tests::{
    diff, facts, pretty, report_in_pieces, root, sample_folders, samples, NOT_SAMPLES,
};

/// Sample folders also read as one analysis (every file of the folder dropped together), with
/// one golden for the set: the comparison exists only across inputs.
const SETS: &[&str] = &[
    "bandwidth-pi5",
    "compare",
    "compare-mixed",
    "usb-stall",
    "usb-stall-apart",
];

/// Sizes of the pieces a sample is also fed in, each for files up to the given size: one byte
/// splits every line, seven most fields, and 4 KiB and 64 KiB are what a reader gives.
const CHUNKS: &[(usize, u64)] = &[
    (1, 16 << 10),
    (7, 512 << 10),
    (4096, u64::MAX),
    (65536, u64::MAX),
];

fn golden_samples() -> Vec<PathBuf> {
    sample_folders().iter().flat_map(|f| samples(f)).collect()
}

fn facts_path(sample: &Path) -> PathBuf {
    let name = |p: Option<&std::ffi::OsStr>| p.map(|f| f.to_string_lossy().into_owned());
    let folder = name(sample.parent().and_then(Path::file_name)).unwrap_or_default();
    let file = name(sample.file_name()).unwrap_or_default();
    root()
        .join("samples/expected")
        .join(format!("{folder}__{file}.facts.json"))
}

fn set_path(folder: &str) -> PathBuf {
    root()
        .join("samples/expected")
        .join(format!("set__{folder}.facts.json"))
}

/// Every golden case: its name, the files read together, and where its facts are kept.
fn cases() -> Vec<(String, Vec<PathBuf>, PathBuf)> {
    let mut out: Vec<(String, Vec<PathBuf>, PathBuf)> = golden_samples()
        .into_iter()
        .map(|s| {
            let name = s.strip_prefix(root()).unwrap_or(&s).display().to_string();
            let golden = facts_path(&s);
            (name, vec![s], golden)
        })
        .collect();
    for folder in SETS {
        out.push((
            format!("set samples/{folder}"),
            samples(folder),
            set_path(folder),
        ));
    }
    out
}

/// Compares `actual` with the file at `path`, or writes it there under `UPDATE_GOLDEN`; a
/// mismatch is the case's name and the diff.
fn check(name: &str, path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, actual).expect("write golden file");
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    (expected != actual).then(|| {
        format!(
            "{name}: {} differs (UPDATE_GOLDEN=1 to regenerate, then review):\n{}",
            path.strip_prefix(root()).unwrap_or(path).display(),
            diff(("golden", &expected), ("now", actual))
        )
    })
}

fn assert_none(what: &str, mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{} of {what}:\n\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn every_sample_matches_its_facts_golden() {
    let cases = cases();
    assert!(
        cases.len() >= 100,
        "only {} golden cases found",
        cases.len()
    );
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|(name, files, golden)| {
            let actual = pretty(&facts(&report_in_pieces(files, None, Lang::En)));
            check(name, golden, &actual)
        })
        .collect();
    assert_none("the facts goldens differ", &mismatches);
}

/// The zh pass: facts hold no catalogue text, so the Chinese report has the English one's.
#[test]
fn the_chinese_report_has_the_same_facts() {
    let mismatches: Vec<String> = cases()
        .iter()
        .filter_map(|(name, files, _)| {
            let en = pretty(&facts(&report_in_pieces(files, None, Lang::En)));
            let zh = pretty(&facts(&report_in_pieces(files, None, Lang::Zh)));
            (en != zh).then(|| format!("{name}:\n{}", diff(("en", &en), ("zh", &zh))))
        })
        .collect();
    assert_none("the zh reports differ from en in their facts", &mismatches);
}

/// Fed in pieces, as the page streams a file, every sample gives the same report: not only the
/// same facts, the same prose too.
#[test]
fn every_sample_reads_the_same_in_pieces() {
    let mut mismatches = Vec::new();
    let mut runs = 0;
    for (name, files, _) in cases() {
        let size = files
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .max()
            .unwrap_or(0);
        let whole = pretty(&report_in_pieces(&files, None, Lang::En));
        for &(chunk, _) in CHUNKS.iter().filter(|(_, up_to)| size <= *up_to) {
            let pieces = pretty(&report_in_pieces(&files, Some(chunk), Lang::En));
            if pieces != whole {
                mismatches.push(format!(
                    "{name} in pieces of {chunk} bytes:\n{}",
                    diff(("whole", &whole), ("in pieces", &pieces))
                ));
            }
            runs += 1;
        }
    }
    assert!(runs >= 300, "only {runs} chunked reads");
    assert_none("the samples read differently in pieces", &mismatches);
}

#[test]
fn no_golden_file_is_orphaned() {
    let known: std::collections::HashSet<PathBuf> =
        cases().into_iter().map(|(_, _, golden)| golden).collect();
    for golden in samples("expected") {
        assert!(
            known.contains(&golden),
            "{} has no sample any more",
            golden.display()
        );
    }
}

#[test]
fn every_exclusion_and_set_names_a_sample_folder() {
    for folder in NOT_SAMPLES.iter().chain(SETS) {
        assert!(
            root().join("samples").join(folder).is_dir(),
            "samples/{folder} is listed in golden.rs but does not exist"
        );
    }
    let folders = sample_folders();
    for folder in SETS {
        assert!(folders.iter().any(|f| f == folder), "{folder} is excluded");
    }
    assert!(folders.iter().any(|f| f == "telemetry-runs"), "{folders:?}");
}

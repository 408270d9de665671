//! Helpers shared by the integration tests: where the samples are, and how to run the core on
//! them exactly as the CLI does.

use std::path::{Path, PathBuf};

pub mod facts;
pub use facts::facts;

/// The repository root (the parent of this package).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Folders of `samples/` that hold no samples to analyze, and why. Every other folder is one of
/// samples, found by itself (the goldens and the render test read them all), so a new folder
/// cannot be forgotten.
pub const NOT_SAMPLES: &[&str] = &[
    // The goldens: outputs, not inputs.
    "expected",
    // Raw fuzzer finds: replayed the way their fuzz target reads them (tests/tests/inputs.rs).
    "fuzz",
];

/// Every sample folder under `samples/` (all but [`NOT_SAMPLES`]), sorted by name.
pub fn sample_folders() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("samples"))
        .expect("samples/")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !NOT_SAMPLES.contains(&name.as_str()))
        .collect();
    out.sort();
    out
}

/// Every file directly under `samples/<dir>`, sorted by name.
pub fn samples(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("samples").join(dir))
        .unwrap_or_else(|e| panic!("samples/{dir}: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The report JSON of one sample file, named as `samples/<dir>/<file>`.
pub fn report_of(path: &Path, lang: tokscope::Lang) -> serde_json::Value {
    report_of_set(&[path.to_path_buf()], lang)
}

/// The report JSON of several sample files read as one analysis, in the order given.
pub fn report_of_set(paths: &[PathBuf], lang: tokscope::Lang) -> serde_json::Value {
    report_in_pieces(paths, None, lang)
}

/// The report JSON of `paths` read as one analysis, each file given to the core whole or, with
/// `chunk`, in pieces of that many bytes (as the page streams a file). Files are named as
/// `samples/<dir>/<file>`, as the CLI names a path given from the repository root.
pub fn report_in_pieces(
    paths: &[PathBuf],
    chunk: Option<usize>,
    lang: tokscope::Lang,
) -> serde_json::Value {
    let mut s = tokscope::Session::new();
    for path in paths {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .strip_prefix(root())
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        match chunk {
            None => {
                s.add(&name, &bytes);
            }
            Some(n) => {
                let id = s.begin(&name);
                for c in bytes.chunks(n) {
                    s.push(id, c);
                }
                s.end(id);
            }
        }
    }
    serde_json::to_value(s.report(lang)).expect("report serializes")
}

/// Asserts that `path` gives the same report whether the core gets it whole or in pieces of
/// `chunk` bytes: lines, headers and blocks cut across pieces must not change what is read.
pub fn assert_chunk_size_invariant(path: &Path, chunk: usize) {
    let paths = [path.to_path_buf()];
    let whole = pretty(&report_in_pieces(&paths, None, tokscope::Lang::En));
    let pieces = pretty(&report_in_pieces(&paths, Some(chunk), tokscope::Lang::En));
    assert!(
        whole == pieces,
        "{} in pieces of {chunk} bytes:\n{}",
        path.display(),
        diff(("whole", &whole), ("in pieces", &pieces))
    );
}

/// `value` as the goldens write it: pretty JSON with a final newline.
pub fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("serializes") + "\n"
}

/// Most lines of one diff: enough to read a change, short enough to see the next one.
const DIFF_LINES: usize = 80;

/// A unified line diff from `old` to `new` (each a label and a text), three lines of context,
/// cut after [`DIFF_LINES`] lines with a count of what was left out.
pub fn diff(old: (&str, &str), new: (&str, &str)) -> String {
    let text = similar::TextDiff::from_lines(old.1, new.1)
        .unified_diff()
        .context_radius(3)
        .header(old.0, new.0)
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= DIFF_LINES {
        return text;
    }
    format!(
        "{}\n... {} more diff lines\n",
        lines[..DIFF_LINES].join("\n"),
        lines.len() - DIFF_LINES
    )
}

/// The findings of a report JSON value, which must have them.
pub fn findings(r: &serde_json::Value) -> &Vec<serde_json::Value> {
    r["findings"].as_array().expect("findings")
}

/// The id of every finding, in report order.
pub fn ids(r: &serde_json::Value) -> Vec<String> {
    findings(r)
        .iter()
        .map(|f| f["id"].as_str().expect("id").to_string())
        .collect()
}

/// The first finding with `id`, if any.
pub fn find_finding<'a>(r: &'a serde_json::Value, id: &str) -> Option<&'a serde_json::Value> {
    findings(r).iter().find(|f| f["id"] == id)
}

/// The first finding with `id`; panics naming the ids there are when there is none.
pub fn finding<'a>(r: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    find_finding(r, id).unwrap_or_else(|| panic!("no {id} in {:?}", ids(r)))
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn a_diff_shows_the_change_in_context_and_stops_at_its_cap() {
        let d = diff(("golden", "a\nb\nc\nd\n"), ("now", "a\nb\nX\nd\n"));
        assert_eq!(
            d,
            "--- golden\n+++ now\n@@ -1,4 +1,4 @@\n a\n b\n-c\n+X\n d\n"
        );
        let old: String = (0..500).map(|i| format!("{i}\n")).collect();
        let new: String = (0..500).map(|i| format!("{}\n", i * 2)).collect();
        let d = diff(("golden", &old), ("now", &new));
        assert_eq!(d.lines().count(), super::DIFF_LINES + 1, "{d}");
        assert!(d.ends_with(" more diff lines\n"), "{d}");
    }
}

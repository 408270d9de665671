//! Helpers shared by the integration tests: where the samples are, and how to run the core on
//! them exactly as the CLI does.

use std::path::{Path, PathBuf};

/// The repository root (the parent of this package).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
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
    let mut s = tokscope::Session::new();
    for path in paths {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .strip_prefix(root())
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        s.add(&name, &bytes);
    }
    serde_json::to_value(s.report(lang)).expect("report serializes")
}

/// Asserts that `path` gives the same report whether the core gets it whole or in pieces of
/// `chunk` bytes: lines, headers and blocks cut across pieces must not change what is read.
pub fn assert_chunk_size_invariant(path: &Path, chunk: usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let whole = {
        let mut s = tokscope::Session::new();
        s.add(&name, &bytes);
        serde_json::to_value(s.report(tokscope::Lang::En)).expect("report serializes")
    };
    let mut s = tokscope::Session::new();
    let id = s.begin(&name);
    for c in bytes.chunks(chunk) {
        s.push(id, c);
    }
    s.end(id);
    let pieces = serde_json::to_value(s.report(tokscope::Lang::En)).expect("report serializes");
    assert_eq!(
        pieces,
        whole,
        "{} in pieces of {chunk} bytes",
        path.display()
    );
}

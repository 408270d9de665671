//! Every finding of every sample, rendered in English and Chinese, with no `{placeholder}` left
//! over: a text whose parameters its rule does not give shows braces to the user (issue 16: the
//! telemetry rotating-cap finding once did, through a catalogue key defined twice).

use tokscope::Lang;
use tokscope_tests::{report_of, root};

/// Every folder of samples, goldens or not.
fn all_samples() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root().join("samples")).expect("samples/") {
        let dir = entry.expect("entry").path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        // Goldens are outputs and fuzz finds are raw fuzzer bytes (replayed in inputs.rs).
        if !dir.is_dir() || name == "expected" || name == "fuzz" {
            continue;
        }
        out.extend(tokscope_tests::samples(&name));
    }
    out.sort();
    out
}

/// `{name}` spans left in `text` (a name is a lowercase identifier, as the catalogue's are).
fn leftovers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(close) = after.find('}') {
            let name = &after[..close];
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                out.push(format!("{{{name}}}"));
            }
        }
        rest = after;
    }
    out
}

#[test]
fn no_finding_text_keeps_a_placeholder() {
    let samples = all_samples();
    assert!(samples.len() > 50, "only {} samples found", samples.len());
    let mut findings = 0;
    let mut bad = Vec::new();
    for path in &samples {
        for lang in [Lang::En, Lang::Zh] {
            let report = report_of(path, lang);
            for f in report["findings"].as_array().into_iter().flatten() {
                findings += 1;
                let mut texts: Vec<(&str, &str)> = ["title", "summary", "explain", "fix"]
                    .iter()
                    .map(|k| (*k, f[*k].as_str().unwrap_or("")))
                    .collect();
                for e in f["evidence"].as_array().into_iter().flatten() {
                    texts.push(("evidence", e["quote"].as_str().unwrap_or("")));
                }
                for (part, text) in texts {
                    let left = leftovers(text);
                    if !left.is_empty() {
                        bad.push(format!(
                            "{} [{}] {} {part}: {} in \"{text}\"",
                            path.strip_prefix(root()).unwrap_or(path).display(),
                            lang.tag(),
                            f["id"].as_str().unwrap_or("?"),
                            left.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(findings > 100, "only {findings} findings rendered");
    assert!(
        bad.is_empty(),
        "placeholders left in texts:\n{}",
        bad.join("\n")
    );
}

#[test]
fn leftovers_finds_placeholders_and_nothing_else() {
    assert_eq!(leftovers("CPUs {cpus} of {group}"), ["{cpus}", "{group}"]);
    assert!(leftovers("a JSON {\"n\": 1} and {} and {Not}").is_empty());
}

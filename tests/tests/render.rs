//! Every finding of every sample, rendered in English and Chinese, with no `{placeholder}` left
//! over: a text whose parameters its rule does not give shows braces to the user (issue 16: the
//! telemetry rotating-cap finding once did, through a catalogue key defined twice).

use tokscope::Lang;
use tokscope_tests::{report_of, root, sample_folders, samples};

/// Every sample of every folder.
fn all_samples() -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = sample_folders().iter().flat_map(|f| samples(f)).collect();
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

/// The text of an input as tokscope reads it (gzip inflated), lowercased, to tell the input's
/// own words from words tokscope wrote.
fn input_text(path: &std::path::Path) -> String {
    use std::io::Read;
    let bytes = std::fs::read(path).expect("sample");
    let mut text = Vec::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let _ = flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut text);
    } else {
        text = bytes;
    }
    let utf16 = |le: bool| -> String {
        let units: Vec<u16> = text[2..]
            .chunks_exact(2)
            .map(|b| {
                if le {
                    u16::from_le_bytes([b[0], b[1]])
                } else {
                    u16::from_be_bytes([b[0], b[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match text.get(..2) {
        Some([0xff, 0xfe]) => utf16(true),
        Some([0xfe, 0xff]) => utf16(false),
        _ => String::from_utf8_lossy(&text).into_owned(),
    }
    .to_lowercase()
}

/// Latin words that a Chinese text keeps as they are: units, and the names of tools, flags and
/// fields as engineers type them.
const TECHNICAL: &[&str] = &[
    "mhz",
    "ghz",
    "khz",
    "tok",
    "ms",
    "gib",
    "mib",
    "kib",
    "gb",
    "mw",
    "ma",
    "mv",
    "cpu",
    "cpus",
    "gpu",
    "npu",
    "blas",
    "theil",
    "sen",
    "mk",
    "n_threads",
    "dotprod",
    "i8mm",
    "sve",
    "fp16",
    "int4",
    "int8",
    "mmap",
    "usb",
    "trace",
    "simpleperf",
    "perf",
    "sched_switch",
    "sched_migrate_task",
    "llama",
    "cpp",
    "csv",
    "tegrastats",
    "nvidia",
    "smi",
    // CPU flags tokscope looks for by name, often absent from logs that list only enabled ones.
    "matmul_int8",
    "avx_vnni",
    "avx512",
];

/// English words in `text` that came from neither the inputs nor the list above.
fn english_words(text: &str, inputs: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 2 && w.chars().any(|c| c.is_ascii_alphabetic()))
    {
        let w = word.to_lowercase();
        let letters = w.chars().filter(|c| c.is_ascii_alphabetic()).count();
        if letters < 2 || TECHNICAL.contains(&w.as_str()) || inputs.contains(&w) {
            continue;
        }
        out.push(word.to_string());
    }
    out
}

/// Issue 13 §8: a Chinese report has no English that tokscope's code wrote — in the evidence
/// it summarises, the labels it puts in titles and summaries, or the values it names. Words the
/// inputs themselves hold (a sensor's name, a quoted log line) stay as they are, and so do the
/// Latin-script terms the Chinese catalogue keeps (flags, commands).
#[test]
fn a_chinese_report_has_no_english_written_by_tokscope() {
    let mut groups: Vec<Vec<std::path::PathBuf>> =
        all_samples().into_iter().map(|p| vec![p]).collect();
    // Pairs analysed together: the compare findings only exist across inputs.
    for dir in ["compare", "compare-mixed", "demo"] {
        groups.push(tokscope_tests::samples(dir));
    }
    // Words the Chinese catalogue itself keeps in Latin script (flags, commands, field names)
    // are a translator's choice; what is checked is English that code put around them.
    let catalogue: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("crate/src/catalogue.json")).expect("catalogue"),
    )
    .expect("catalogue parses");
    let zh_catalogue: String = catalogue
        .as_object()
        .into_iter()
        .flat_map(|o| o.values())
        .filter_map(|v| v["zh"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    // The device table's product names, memory types and source addresses are cited as their
    // makers write them: data, not tokscope's prose.
    let table: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("crate/src/views/memory_bandwidth.json"))
            .expect("device table"),
    )
    .expect("device table parses");
    let zh_catalogue = table["devices"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|d| ["name", "memory", "source"].map(|k| d[k].as_str().unwrap_or("")))
        .fold(zh_catalogue, |all, t| all + "\n" + &t.to_lowercase());
    let mut bad = Vec::new();
    let mut checked = 0;
    for group in &groups {
        let inputs: String = group
            .iter()
            .map(|p| input_text(p))
            .collect::<Vec<_>>()
            .join("\n");
        let names: String = group
            .iter()
            .map(|p| {
                p.strip_prefix(root())
                    .unwrap_or(p)
                    .to_string_lossy()
                    .to_lowercase()
            })
            .collect::<Vec<_>>()
            .join("\n");
        let known = format!("{inputs}\n{names}\n{zh_catalogue}");
        let report = tokscope_tests::report_of_set(group, Lang::Zh);
        let mut texts: Vec<(String, String)> = Vec::new();
        for f in report["findings"].as_array().into_iter().flatten() {
            let id = f["id"].as_str().unwrap_or("?");
            for part in ["title", "summary", "explain", "fix"] {
                texts.push((
                    format!("{id} {part}"),
                    f[part].as_str().unwrap_or("").to_string(),
                ));
            }
            for e in f["evidence"].as_array().into_iter().flatten() {
                texts.push((
                    format!("{id} evidence"),
                    e["quote"].as_str().unwrap_or("").to_string(),
                ));
            }
        }
        texts.push((
            "verdict".into(),
            report["verdict"]["headline"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        ));
        for (what, text) in texts {
            checked += 1;
            let words = english_words(&text, &known);
            if !words.is_empty() {
                bad.push(format!(
                    "{} {what}: {:?} in \"{text}\"",
                    group[0].strip_prefix(root()).unwrap_or(&group[0]).display(),
                    words
                ));
            }
        }
    }
    assert!(checked > 500, "only {checked} texts checked");
    assert!(
        bad.is_empty(),
        "English in Chinese reports ({}):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn english_words_skips_the_inputs_words_and_units() {
    let inputs = "skin temp [°c]";
    assert_eq!(
        english_words(
            "skin temp：t=600 秒时 3533 → 1958 MHz，running time",
            inputs
        ),
        ["running", "time"]
    );
    assert!(english_words("解码 0.57 tok/s，仅一次", "").is_empty());
}

/// The `{name}`s a catalogue text refers to.
fn placeholders(text: &str) -> Vec<String> {
    leftovers(text)
        .into_iter()
        .map(|p| p.trim_matches(['{', '}']).to_string())
        .collect()
}

/// A sample, a finding id, and the parameters its texts are rendered from.
type FindingParams = (String, String, Vec<(String, String)>);

/// What each finding's texts are rendered from, for every finding of every sample.
fn finding_params() -> Vec<FindingParams> {
    let mut out = Vec::new();
    for path in all_samples() {
        let report = report_of(&path, Lang::En);
        for f in tokscope_tests::findings(&report) {
            let id = f["id"].as_str().unwrap_or("?").to_string();
            let sets = std::iter::once(&f["params"]).chain(
                f["per_input"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| &s["params"]),
            );
            let mut params: Vec<(String, String)> = Vec::new();
            for set in sets {
                for (k, v) in set.as_object().into_iter().flatten() {
                    params.push((k.clone(), v.as_str().unwrap_or_default().to_string()));
                }
            }
            out.push((path.display().to_string(), id, params));
        }
    }
    out
}

#[test]
fn every_parameter_is_used_and_none_is_a_program_name() {
    let entries = tokscope::catalogue::entries();
    let mut bad = Vec::new();
    let mut checked = 0;
    for (sample, id, params) in finding_params() {
        let variant = params
            .iter()
            .find(|(k, _)| k == "variant")
            .map(|(_, v)| v.clone());
        let mut used: Vec<String> = Vec::new();
        for part in ["title", "summary", "explain", "fix"] {
            let key = format!("finding.{id}.{part}");
            let key = match &variant {
                Some(v) if entries.contains_key(&format!("{key}-{v}")) => format!("{key}-{v}"),
                _ => key,
            };
            if let Some(e) = entries.get(&key) {
                used.extend(placeholders(&e.en));
            }
        }
        // A `@key` value is a phrase rendered with the finding's other values.
        for (_, v) in &params {
            if let Some(e) = v.strip_prefix('@').and_then(|k| entries.get(k)) {
                used.extend(placeholders(&e.en));
            }
        }
        for (name, value) in &params {
            checked += 1;
            let read = tokscope::VERDICT_PARAMS.contains(&name.as_str())
                || tokscope::data_params(&id).contains(&name.as_str());
            if name != "variant" && !used.contains(name) && !read {
                bad.push(format!(
                    "{sample}: {id}: `{name}` = {value:?} is in no text"
                ));
            }
            // What `{:?}` writes: an Option, a list of numbers, a quoted string.
            let debug_list = value.starts_with('[')
                && value.ends_with(']')
                && value[1..value.len() - 1]
                    .split(", ")
                    .all(|n| n.parse::<f64>().is_ok());
            let quoted = value.len() > 1 && value.starts_with('"') && value.ends_with('"');
            if value.starts_with("Some(") || value == "None" || debug_list || quoted {
                bad.push(format!(
                    "{sample}: {id}: `{name}` = {value:?} looks like a program's name"
                ));
            }
        }
    }
    assert!(checked > 500, "only {checked} parameters checked");
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "{} parameters:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

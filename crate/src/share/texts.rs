//! Finding texts that the receiver already has: a finding's title, explanation and fix are
//! catalogue texts keyed by its id, and most take no parameters. The link leaves out each one
//! that is exactly its catalogue text, and the decoder puts it back from the receiver's
//! catalogue, in the report's language. On the sample reports this makes links about a third
//! shorter (`cargo run --release -p tokscope --example share_sizes`).

use crate::catalogue::{self, Lang};
use serde_json::Value;

const PARTS: [&str; 3] = ["title", "explain", "fix"];

fn lang_of(report: &Value) -> Option<Lang> {
    match report.get("lang")?.as_str()? {
        "en" => Some(Lang::En),
        "zh" => Some(Lang::Zh),
        _ => None,
    }
}

/// Removes every finding text equal to its parameterless catalogue text.
pub fn elide(report: &mut Value) {
    let Some(lang) = lang_of(report) else { return };
    let Some(findings) = report.get_mut("findings").and_then(Value::as_array_mut) else {
        return;
    };
    for f in findings.iter_mut().filter_map(Value::as_object_mut) {
        let Some(id) = f.get("id").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        for part in PARTS {
            let key = format!("finding.{id}.{part}");
            if !catalogue::entries().contains_key(&key) {
                continue;
            }
            if f.get(part).and_then(Value::as_str) == Some(&catalogue::text(lang, &key, &[])) {
                f.remove(part);
            }
        }
    }
}

/// Puts back every finding text the link left out. A text this page's catalogue does not have
/// (a link from a newer tokscope) becomes its catalogue key, which still names the finding.
pub fn restore(report: &mut Value) {
    let Some(lang) = lang_of(report) else { return };
    let Some(findings) = report.get_mut("findings").and_then(Value::as_array_mut) else {
        return;
    };
    for f in findings.iter_mut().filter_map(Value::as_object_mut) {
        let Some(id) = f.get("id").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        for part in PARTS {
            if !f.contains_key(part) {
                let text = catalogue::text(lang, &format!("finding.{id}.{part}"), &[]);
                f.insert(part.into(), Value::String(text));
            }
        }
    }
}

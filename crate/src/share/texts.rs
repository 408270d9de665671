//! Finding texts that the receiver already has: a finding's title, explanation and fix are
//! catalogue texts keyed by its id, and most take no parameters. The link leaves out each one
//! that is exactly its catalogue text, and the decoder puts it back from the receiver's
//! catalogue, in the report's language. On the sample reports this makes links about a third
//! shorter (`cargo run --release -p tokscope --example share_sizes`). The verdict's next steps
//! (`verdict.add.*`, none with parameters) travel the same way, as their keys.

use crate::catalogue::{self, Lang};
use serde_json::Value;

const PARTS: [&str; 3] = ["title", "explain", "fix"];
/// The catalogue's next steps: whole sentences, the same in every report that gives them.
const NEXT_STEP: &str = "verdict.add.";

fn next_steps(report: &mut Value) -> Option<&mut Vec<Value>> {
    report.get_mut("verdict")?.get_mut("next")?.as_array_mut()
}

fn lang_of(report: &Value) -> Option<Lang> {
    match report.get("lang")?.as_str()? {
        "en" => Some(Lang::En),
        "zh" => Some(Lang::Zh),
        _ => None,
    }
}

/// Removes every finding text equal to its parameterless catalogue text, and puts each next
/// step's key in place of its text.
pub fn elide(report: &mut Value) {
    let Some(lang) = lang_of(report) else { return };
    if let Some(steps) = next_steps(report) {
        for step in steps.iter_mut() {
            let key = step.as_str().and_then(|text| {
                catalogue::entries()
                    .keys()
                    .filter(|k| k.starts_with(NEXT_STEP))
                    .find(|k| catalogue::text(lang, k, &[]) == text)
            });
            if let Some(key) = key {
                *step = Value::String(key.clone());
            }
        }
    }
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
    if let Some(steps) = next_steps(report) {
        for step in steps.iter_mut() {
            let key = step
                .as_str()
                .filter(|k| k.starts_with(NEXT_STEP) && catalogue::entries().contains_key(*k));
            if let Some(key) = key {
                *step = Value::String(catalogue::text(lang, key, &[]));
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn next_steps_travel_as_their_keys_and_come_back_in_the_reports_language() {
        let trace = catalogue::text(Lang::Zh, "verdict.add.trace", &[]);
        let mut r = json!({"lang": "zh", "verdict": {"next": [trace.clone(), "自己写的一句"]}});
        elide(&mut r);
        assert_eq!(
            r["verdict"]["next"],
            json!(["verdict.add.trace", "自己写的一句"])
        );
        restore(&mut r);
        assert_eq!(r["verdict"]["next"], json!([trace, "自己写的一句"]));
        // A key this catalogue lacks (a newer tokscope's) stays as it came.
        let mut r = json!({"lang": "en", "verdict": {"next": ["verdict.add.not-yet"]}});
        restore(&mut r);
        assert_eq!(r["verdict"]["next"], json!(["verdict.add.not-yet"]));
    }
}

//! Telemetry as JSON Lines: one flat object per sample (`{"timestamp": 1733450000,
//! "cpu_temp_c": 41.2, "tokens_per_s": 18.4}`), the shape a script's `json.dumps` per sample
//! writes. Each object becomes a row of the delimited reader, under a header of the first
//! object's keys, so column naming, units and time handling stay in one place ([`super::csv`]).
//! A nested object's fields are named `outer.inner`; arrays and nulls leave their cell empty.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Keys read per object: a sample with more is not a telemetry row.
const MAX_KEYS: usize = 256;

/// The object a line holds, if it is one JSON object.
fn object(line: &str) -> Option<Map<String, Value>> {
    let t = line.trim();
    if !(t.starts_with('{') && t.ends_with('}')) {
        return None;
    }
    match serde_json::from_str::<Value>(t).ok()? {
        Value::Object(m) if !m.is_empty() => Some(m),
        _ => None,
    }
}

/// Leaf fields of an object, nested objects' fields named `outer.inner`, in key order.
fn leaves(prefix: &str, m: &Map<String, Value>, out: &mut Vec<(String, String)>) {
    for (k, v) in m {
        if out.len() >= MAX_KEYS {
            return;
        }
        // The delimited reader splits on commas: a key or text with one loses it.
        let name = format!("{prefix}{}", k.replace(',', " "));
        match v {
            Value::Object(inner) => leaves(&format!("{name}."), inner, out),
            Value::Number(n) => out.push((name, n.to_string())),
            Value::String(s) => out.push((name, s.replace(',', " "))),
            Value::Bool(b) => out.push((name, u8::from(*b).to_string())),
            Value::Null | Value::Array(_) => out.push((name, String::new())),
        }
    }
}

/// The header the first object's keys make, for a reader that has not seen one.
pub fn header(line: &str) -> Option<(Vec<String>, String)> {
    let m = object(line)?;
    let mut fields = Vec::new();
    leaves("", &m, &mut fields);
    let keys: Vec<String> = fields.into_iter().map(|(k, _)| k).collect();
    let text = keys.join(",");
    Some((keys, text))
}

/// One object as a row under `keys`; `None` when the line is no object.
pub fn row(line: &str, keys: &[String]) -> Option<String> {
    let m = object(line)?;
    let mut fields = Vec::new();
    leaves("", &m, &mut fields);
    // One lookup per column: a row of many keys is not scanned once per key.
    let fields: BTreeMap<String, String> = fields.into_iter().collect();
    let cells: Vec<&str> = keys
        .iter()
        .map(|k| fields.get(k).map_or("", String::as_str))
        .collect();
    Some(cells.join(","))
}

/// The lines as the delimited reader would see them, when the first non-empty one is an object.
pub fn as_rows(lines: &[&str]) -> Option<Vec<String>> {
    let first = lines.iter().find(|l| !l.trim().is_empty())?;
    let (keys, head) = header(first)?;
    let mut out = vec![head];
    out.extend(lines.iter().filter_map(|l| row(l, &keys)));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_become_rows_under_the_first_object_s_keys() {
        let lines = [
            r#"{"ts": 1733450000, "gpu": {"temp_c": 61, "clock_mhz": 1410}, "note": "a, b"}"#,
            r#"{"ts": 1733450001, "gpu": {"temp_c": 62}, "extra": [1, 2]}"#,
            "not json",
        ];
        let rows = as_rows(&lines).unwrap();
        assert_eq!(rows[0], "gpu.clock_mhz,gpu.temp_c,note,ts");
        assert_eq!(rows[1], "1410,61,a  b,1733450000");
        assert_eq!(rows[2], ",62,,1733450001");
        assert_eq!(rows.len(), 3);
        assert!(as_rows(&["[1, 2]", "{}"]).is_none());
    }
}

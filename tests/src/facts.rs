//! The facts of a report: what the goldens hold. Everything the core measured, read and decided
//! (inputs, runs, finding ids and parameters, where the evidence is, the verdict's causes and
//! figures), without any text rendered from the catalogue or the tool's version. A wording change
//! leaves it as it is; a changed figure, id or location shows in it. The projection of a Chinese
//! report equals that of the English one, which the golden suite checks.

use serde_json::{Map, Value};

/// The facts of `report` (a report JSON value).
pub fn facts(report: &Value) -> Value {
    let mut r = report.clone();
    let Some(top) = r.as_object_mut() else {
        return r;
    };
    // The version changes with every release; the language is what the prose is in.
    drop_keys(top, &["tool", "lang"]);
    for input in items(top.get_mut("inputs")) {
        // Display forms of `framework`, `kind` and `bytes`.
        drop_keys(input, &["framework_label", "kind_label", "size"]);
        for p in items(input.get_mut("problems")) {
            drop_keys(p, &["message"]);
        }
    }
    for f in items(top.get_mut("findings")) {
        drop_keys(f, &["title", "summary", "explain", "fix"]);
        for e in items(f.get_mut("evidence")) {
            // A phrase's rendering; a quote of the input itself is a fact and stays.
            if e.contains_key("phrase") {
                drop_keys(e, &["quote"]);
            }
        }
    }
    if let Some(Value::Object(v)) = top.get_mut("verdict") {
        drop_keys(v, &["headline", "next"]);
        for c in items(v.get_mut("causes")) {
            drop_keys(c, &["title"]);
            if let Some(Value::Object(i)) = c.get_mut("impact") {
                drop_keys(i, &["basis"]);
            }
        }
        if let Some(Value::Object(g)) = v.get_mut("gap") {
            drop_keys(g, &["text"]);
        }
    }
    if let Some(Value::Object(c)) = top.get_mut("comparison") {
        for g in items(c.get_mut("groups")) {
            for row in items(g.get_mut("rows")) {
                drop_keys(row, &["label"]);
            }
        }
    }
    for s in items(top.get_mut("series")) {
        if let Some(points) = s.remove("points") {
            s.insert("points".into(), series_summary(&points));
        }
    }
    if let Some(Value::Object(sched)) = top.get_mut("sched") {
        // The presets the page offers: the same list in every report.
        drop_keys(sched, &["presets"]);
        for t in items(sched.get_mut("traces")) {
            for f in items(t.get_mut("freq")) {
                if let Some(mhz) = f.remove("mhz") {
                    f.insert("mhz".into(), values_summary(&mhz));
                }
            }
        }
    }
    r
}

fn drop_keys(map: &mut Map<String, Value>, keys: &[&str]) {
    for k in keys {
        map.remove(*k);
    }
}

/// The objects of a list field (none when it is absent or not a list).
fn items(v: Option<&mut Value>) -> impl Iterator<Item = &mut Map<String, Value>> {
    v.and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// A chart series as a contract: how many points, where it starts and ends, its range and
/// mean. Thousands of points would bury a change in the diff; these move with any real change.
fn series_summary(points: &Value) -> Value {
    let pairs: Vec<(f64, f64)> = points
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .collect();
    let values: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let mut out = match values_summary(&Value::from(values)) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    if let (Some(first), Some(last)) = (pairs.first(), pairs.last()) {
        out.insert("t_first".into(), round(first.0));
        out.insert("t_last".into(), round(last.0));
    }
    Value::Object(out)
}

/// A list of numbers as its count, first, last, min, max and mean.
fn values_summary(values: &Value) -> Value {
    let v: Vec<f64> = values
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    let mut out = Map::new();
    out.insert("n".into(), Value::from(v.len()));
    if let (Some(first), Some(last)) = (v.first(), v.last()) {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        out.insert("first".into(), round(*first));
        out.insert("last".into(), round(*last));
        out.insert("min".into(), round(min));
        out.insert("max".into(), round(max));
        out.insert("mean".into(), round(mean));
    }
    Value::Object(out)
}

/// Thousandths, as the report rounds its own figures: a mean never differs in its last bit.
fn round(x: f64) -> Value {
    Value::from((x * 1e3).round() / 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prose_goes_and_facts_stay() {
        let r = json!({
            "schema": 1, "tool": "tokscope 9.9", "lang": "zh",
            "inputs": [{"name": "a.log", "kind": "log", "kind_label": "日志", "size": "1 KiB",
                        "bytes": 1024, "problems": [{"code": "unknown-log", "message": "…"}]}],
            "findings": [{"id": "load.slow", "title": "t", "summary": "s", "explain": "e",
                          "fix": "f", "params": {"seconds": "31.3"},
                          "evidence": [{"input": "a.log", "quote": "load time = 3 ms"},
                                       {"input": "a.log", "quote": "译", "phrase": {"key": "k"}}]}],
            "verdict": {"headline": "h", "next": ["n"], "gap": {"factor": 2.0, "text": "g"},
                        "causes": [{"id": "power", "title": "t",
                                    "impact": {"factor": 1.5, "basis": "b"}}]},
            "series": [{"quantity": "cpu-freq", "points": [[0.0, 3.0], [1.0, 1.0], [2.5, 2.0]]}],
        });
        let f = facts(&r);
        assert_eq!(
            f,
            json!({
                "schema": 1,
                "inputs": [{"name": "a.log", "kind": "log", "bytes": 1024,
                            "problems": [{"code": "unknown-log"}]}],
                "findings": [{"id": "load.slow", "params": {"seconds": "31.3"},
                              "evidence": [{"input": "a.log", "quote": "load time = 3 ms"},
                                           {"input": "a.log", "phrase": {"key": "k"}}]}],
                "verdict": {"gap": {"factor": 2.0},
                            "causes": [{"id": "power", "impact": {"factor": 1.5}}]},
                "series": [{"quantity": "cpu-freq", "points": {
                    "n": 3, "first": 3.0, "last": 2.0, "min": 1.0, "max": 3.0, "mean": 2.0,
                    "t_first": 0.0, "t_last": 2.5}}],
            })
        );
    }
}

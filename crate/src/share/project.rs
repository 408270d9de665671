//! What a share link carries, and how it shrinks to fit: a projection of the report JSON at one
//! level of a degradation ladder. It works on the generic JSON value, so report fields added later
//! travel too, under the same item and length budgets; the chart `series` section is downsampled
//! first, then line lists, evidence, raw input, and finally the series themselves.

use super::{Omission, RawInput};
use serde_json::{Map, Number, Value};

/// One step of the ladder. Later steps keep less.
#[derive(Debug, Clone, Copy)]
pub struct Level {
    /// Points kept per chart series; `None` drops the points.
    pub points: Option<usize>,
    /// Line numbers kept per input of a finding.
    pub lines: usize,
    /// Evidence quotes kept per finding.
    pub evidence: usize,
    /// Items kept in any other list.
    pub items: usize,
    /// Characters kept in any string.
    pub text: usize,
    pub raw: bool,
}

const L0: Level = Level {
    points: Some(1024),
    lines: 200,
    evidence: 5,
    items: 2000,
    text: 2000,
    raw: true,
};

pub const LADDER: &[Level] = &[
    L0,
    Level {
        points: Some(512),
        ..L0
    },
    Level {
        points: Some(256),
        ..L0
    },
    Level {
        points: Some(192),
        ..L0
    },
    Level {
        points: Some(128),
        ..L0
    },
    Level {
        points: Some(96),
        ..L0
    },
    Level {
        points: Some(64),
        ..L0
    },
    Level {
        points: Some(48),
        ..L0
    },
    Level {
        points: Some(32),
        lines: 100,
        ..L0
    },
    Level {
        points: Some(16),
        lines: 50,
        evidence: 3,
        items: 500,
        ..L0
    },
    Level {
        points: Some(16),
        lines: 20,
        evidence: 2,
        items: 200,
        raw: false,
        ..L0
    },
    Level {
        points: None,
        lines: 10,
        evidence: 1,
        items: 100,
        text: 600,
        raw: false,
    },
];

/// Resolution kept for series values: 1/4096 of each column's range (12 bits, finer than a chart).
const STEPS_PER_RANGE: f64 = 4096.0;

/// The envelope at `level`, and what it left out.
pub fn project(report: &Value, raw: &[RawInput], level: &Level) -> (Value, Vec<Omission>) {
    let mut out = Vec::new();
    let mut r = report.clone();
    without_data(&mut r);
    if let Value::Object(map) = &mut r {
        if let Some(series) = map.get_mut("series") {
            match level.points {
                Some(max) => {
                    if shrink_series(series, max, 0) {
                        out.push(Omission::new("series-downsampled", max));
                    }
                }
                None => {
                    if drop_points(series, 0) {
                        out.push(Omission::bare("series-dropped"));
                    }
                }
            }
        }
        if let Some(Value::Array(findings)) = map.get_mut("findings") {
            let (mut ev_cut, mut lines_cut) = (false, false);
            for f in findings.iter_mut().filter_map(Value::as_object_mut) {
                if let Some(Value::Array(ev)) = f.get_mut("evidence") {
                    ev_cut |= truncate(ev, level.evidence);
                }
                let mut cut = false;
                if let Some(Value::Array(per_input)) = f.get_mut("lines") {
                    for l in per_input.iter_mut().filter_map(Value::as_object_mut) {
                        if let Some(Value::Array(nums)) = l.get_mut("lines") {
                            cut |= truncate(nums, level.lines);
                        }
                    }
                }
                if cut {
                    f.insert("lines_truncated".into(), Value::Bool(true));
                    lines_cut = true;
                }
            }
            if ev_cut {
                out.push(Omission::new("evidence-cut", level.evidence));
            }
            if lines_cut {
                out.push(Omission::new("lines-cut", level.lines));
            }
        }
    }
    let (mut items_cut, mut text_cut) = (false, false);
    budget(&mut r, level, &mut items_cut, &mut text_cut);
    if items_cut {
        out.push(Omission::new("items-cut", level.items));
    }
    if text_cut {
        out.push(Omission::new("text-cut", level.text));
    }
    let mut env = Map::new();
    env.insert("report".into(), r);
    if !raw.is_empty() {
        if level.raw {
            let list = raw
                .iter()
                .map(|f| serde_json::json!({"name": f.name, "text": f.text}))
                .collect();
            env.insert("raw".into(), Value::Array(list));
        } else {
            out.push(Omission::bare("raw-dropped"));
        }
    }
    (Value::Object(env), out)
}

/// Leaves out what the report carries for programs beside its prose (finding and phrase
/// parameters): the shared view reads only the prose, and a link stays as short as before they
/// existed.
pub fn without_data(report: &mut Value) {
    let each = |v: Option<&mut Value>, f: &mut dyn FnMut(&mut Map<String, Value>)| {
        if let Some(Value::Array(items)) = v {
            items
                .iter_mut()
                .filter_map(Value::as_object_mut)
                .for_each(f);
        }
    };
    each(report.get_mut("findings"), &mut |f| {
        f.remove("params");
        f.remove("per_input");
        each(f.get_mut("evidence"), &mut |e| {
            e.remove("phrase");
        });
    });
    // The line of a command that set no thread count is a fact for the rules, not shown.
    each(report.get_mut("runs"), &mut |r| {
        r.remove("threads_default_line");
    });
    // The SoC presets are the page's own list for its picker, the same in every report: the
    // link carries only the one the topology names, so each preset added does not lengthen
    // every link.
    if let Some(Value::Object(sched)) = report.get_mut("sched") {
        let named = sched
            .get("topology")
            .and_then(|t| t.get("preset"))
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(Value::Array(presets)) = sched.get_mut("presets") {
            presets.retain(|p| p.get("id").and_then(Value::as_str) == named.as_deref());
        }
    }
    if let Some(Value::Object(v)) = report.get_mut("verdict") {
        v.remove("headline_phrases");
        v.remove("next_phrases");
        each(v.get_mut("causes"), &mut |c| {
            if let Some(Value::Object(i)) = c.get_mut("impact") {
                i.remove("basis_phrases");
            }
        });
    }
}

/// Cuts `v` to `max` items; true when something was cut.
fn truncate(v: &mut Vec<Value>, max: usize) -> bool {
    let cut = v.len() > max;
    v.truncate(max);
    cut
}

/// The item and length budgets, over everything.
fn budget(v: &mut Value, level: &Level, items_cut: &mut bool, text_cut: &mut bool) {
    match v {
        Value::String(s) => {
            if let Some((at, _)) = s.char_indices().nth(level.text) {
                s.truncate(at);
                s.push('…');
                *text_cut = true;
            }
        }
        Value::Array(items) => {
            *items_cut |= truncate(items, level.items);
            for i in items {
                budget(i, level, items_cut, text_cut);
            }
        }
        Value::Object(map) => {
            if map.len() > level.items {
                let keep: Map<String, Value> =
                    std::mem::take(map).into_iter().take(level.items).collect();
                *map = keep;
                *items_cut = true;
            }
            for (_, i) in map.iter_mut() {
                budget(i, level, items_cut, text_cut);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Most levels of nesting searched for point lists inside `series`.
const SERIES_DEPTH: usize = 6;

enum Shape {
    /// `[v, v, ...]`: possibly one of several parallel columns (`t: [...]`, `v: [...]`).
    Flat,
    /// `[[t, v], ...]`: self-contained points.
    Tuples,
    /// `[{"t": .., "v": ..}, ...]`: points as small all-number objects.
    Records,
}

/// A value of a point: a number, or `null` for a gap (JSON has no NaN).
fn scalar(v: &Value) -> bool {
    v.is_number() || v.is_null()
}

fn shape(items: &[Value]) -> Option<Shape> {
    let tuple = |v: &Value| {
        v.as_array()
            .is_some_and(|p| (2..=4).contains(&p.len()) && p.iter().all(scalar))
    };
    // Before the length check: a series of one point is still a point list, and the point
    // inside it (`[t, v]`) must not pass for a column of its own, to be emptied.
    if !items.is_empty() && items.iter().all(tuple) {
        return Some(Shape::Tuples);
    }
    if items.len() < 2 {
        return None;
    }
    if items.iter().all(scalar) && items.iter().any(Value::is_number) {
        return Some(Shape::Flat);
    }
    let record = |v: &Value| {
        v.as_object()
            .is_some_and(|m| (1..=6).contains(&m.len()) && m.values().all(scalar))
    };
    items.iter().all(record).then_some(Shape::Records)
}

/// Downsamples every point list under `v` to at most `max` points and rounds its values;
/// true when some list had more.
fn shrink_series(v: &mut Value, max: usize, depth: usize) -> bool {
    if depth > SERIES_DEPTH {
        return false;
    }
    match v {
        Value::Array(items) => match shape(items) {
            Some(Shape::Flat) => {
                let cut = items.len() > max;
                if cut {
                    // The same indices for every column of one length keep parallel columns aligned.
                    *items = stride(items, max);
                }
                round_column(items.iter_mut().collect());
                cut
            }
            Some(Shape::Tuples) => {
                let cut = items.len() > max;
                if cut {
                    *items = min_max(items, max);
                }
                let width = items.iter().filter_map(Value::as_array).map(Vec::len).max();
                for c in 0..width.unwrap_or(0) {
                    round_column(
                        items
                            .iter_mut()
                            .filter_map(|p| p.as_array_mut().and_then(|p| p.get_mut(c)))
                            .collect(),
                    );
                }
                cut
            }
            Some(Shape::Records) => {
                let cut = items.len() > max;
                if cut {
                    *items = stride(items, max);
                }
                let keys: std::collections::BTreeSet<String> = items
                    .iter()
                    .filter_map(Value::as_object)
                    .flat_map(|m| m.keys().cloned())
                    .collect();
                for k in &keys {
                    round_column(
                        items
                            .iter_mut()
                            .filter_map(|p| p.as_object_mut().and_then(|m| m.get_mut(k)))
                            .collect(),
                    );
                }
                cut
            }
            None => items
                .iter_mut()
                .fold(false, |cut, i| shrink_series(i, max, depth + 1) | cut),
        },
        Value::Object(map) => map
            .values_mut()
            .fold(false, |cut, i| shrink_series(i, max, depth + 1) | cut),
        _ => false,
    }
}

/// Empties every point list under `v`; true when one had points.
fn drop_points(v: &mut Value, depth: usize) -> bool {
    if depth > SERIES_DEPTH {
        return false;
    }
    match v {
        Value::Array(items) => {
            if shape(items).is_some() {
                items.clear();
                return true;
            }
            items
                .iter_mut()
                .fold(false, |cut, i| drop_points(i, depth + 1) | cut)
        }
        Value::Object(map) => map
            .values_mut()
            .fold(false, |cut, i| drop_points(i, depth + 1) | cut),
        _ => false,
    }
}

/// `max` evenly spaced items, the first and the last included.
fn stride(items: &[Value], max: usize) -> Vec<Value> {
    let n = items.len();
    if max < 2 || n <= max {
        return items.iter().take(max).cloned().collect();
    }
    (0..max)
        .filter_map(|i| items.get(i * (n - 1) / (max - 1)).cloned())
        .collect()
}

/// At most `max` points: the first, the last, and per bucket in between the lowest and the
/// highest value, in time order, so dips and peaks (a throttling step) survive.
fn min_max(items: &[Value], max: usize) -> Vec<Value> {
    let n = items.len();
    if max < 4 || n <= max {
        return stride(items, max);
    }
    let y = |v: &Value| v.get(1).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let buckets = (max - 2) / 2;
    let inner = n - 2;
    let mut out = Vec::with_capacity(max);
    out.extend(items.first().cloned());
    for b in 0..buckets {
        let lo = 1 + b * inner / buckets;
        let hi = (1 + (b + 1) * inner / buckets).min(n - 1);
        let (mut imin, mut imax) = (lo, lo);
        for i in lo..hi {
            let v = items.get(i).map_or(f64::NAN, y);
            if v < items.get(imin).map_or(f64::NAN, y) {
                imin = i;
            }
            if v > items.get(imax).map_or(f64::NAN, y) {
                imax = i;
            }
        }
        let (a, b) = (imin.min(imax), imin.max(imax));
        out.extend(items.get(a).cloned());
        if b != a {
            out.extend(items.get(b).cloned());
        }
    }
    out.extend(items.last().cloned());
    out
}

/// Rounds one column to 1/4096 of its range, in decimal places, so the digits that no chart
/// can show do not cost bytes. Whole numbers are written without a fraction.
fn round_column(col: Vec<&mut Value>) {
    let nums: Vec<f64> = col
        .iter()
        .filter_map(|v| v.as_f64())
        .filter(|x| x.is_finite())
        .collect();
    let (lo, hi) = nums
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let range = hi - lo;
    if !(range.is_finite() && range > 0.0) {
        return;
    }
    let places = (-(range / STEPS_PER_RANGE).log10()).ceil().clamp(0.0, 6.0);
    let scale = 10f64.powf(places);
    for v in col {
        let Some(x) = v.as_f64().filter(|x| x.is_finite()) else {
            continue;
        };
        if v.is_i64() || v.is_u64() {
            continue;
        }
        let r = (x * scale).round() / scale;
        *v = if r.fract() == 0.0 && r.abs() < 9.0e15 {
            Value::from(r as i64)
        } else {
            Number::from_f64(r).map_or(Value::Null, Value::Number)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tuples_keep_extremes_and_ends() {
        let mut pts: Vec<Value> = (0..1000).map(|i| json!([i as f64 * 0.5, 1000.0])).collect();
        pts[500] = json!([250.0, 300.0]); // a throttling dip
        pts[700] = json!([350.0, 2400.0]); // a spike
        let mut v = json!({"points": pts});
        assert!(shrink_series(&mut v, 64, 0));
        let out = v["points"].as_array().expect("points");
        assert!(out.len() <= 64, "{}", out.len());
        assert_eq!(out[0], json!([0, 1000]));
        assert_eq!(out.last(), Some(&json!([499.5, 1000])));
        assert!(out.contains(&json!([250, 300])), "the dip survives");
        assert!(out.contains(&json!([350, 2400])), "the spike survives");
        let times: Vec<f64> = out.iter().filter_map(|p| p[0].as_f64()).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "time order kept");
    }

    #[test]
    fn a_series_of_one_point_is_emptied_whole_never_its_point() {
        // A 1-point series once passed its `[t, v]` down as a column, which dropping emptied to
        // `[]`: the link then failed its own read-back ("expected an array of length 2").
        let mut v = json!([{"points": [[3.0, 41.0]]}, {"points": [[0.0, 1.0], [1.0, 2.0]]}]);
        assert!(drop_points(&mut v, 0));
        assert_eq!(v, json!([{"points": []}, {"points": []}]));
        let mut v = json!({"points": [[3.0, 41.0]]});
        assert!(!shrink_series(&mut v, 16, 0));
        assert_eq!(v["points"], json!([[3.0, 41.0]]));
    }

    #[test]
    fn parallel_columns_stay_aligned() {
        let t: Vec<f64> = (0..500).map(f64::from).collect();
        let v: Vec<f64> = (0..500).map(|i| f64::from(i) * 2.0).collect();
        let mut s = json!([{"t": t, "v": v}]);
        assert!(shrink_series(&mut s, 50, 0));
        let (t, v) = (s[0]["t"].as_array().unwrap(), s[0]["v"].as_array().unwrap());
        assert_eq!(t.len(), 50);
        for (a, b) in t.iter().zip(v) {
            assert_eq!(a.as_f64().unwrap() * 2.0, b.as_f64().unwrap());
        }
    }

    #[test]
    fn records_and_gaps_are_points_too() {
        let recs: Vec<Value> = (0..300)
            .map(|i| json!({"t": i, "mhz": 1000.0 + f64::from(i) / 3.0}))
            .collect();
        let mut gaps: Vec<Value> = (0..300).map(|i| json!([i, f64::from(i)])).collect();
        gaps[7] = json!([7, null]);
        let mut v = json!({"a": recs, "b": gaps, "c": [1, null, 3]});
        assert!(shrink_series(&mut v, 30, 0));
        assert_eq!(v["a"].as_array().map(Vec::len), Some(30));
        assert_eq!(v["a"][29], json!({"t": 299, "mhz": 1099.67}));
        assert!(v["b"].as_array().is_some_and(|b| b.len() <= 30));
        assert_eq!(v["c"], json!([1, null, 3]));
        assert!(drop_points(&mut v, 0));
        assert_eq!(v, json!({"a": [], "b": [], "c": []}));
    }

    #[test]
    fn rounding_follows_each_columns_range() {
        let mut col = vec![json!(1_732_900_000.123_456), json!(1_732_901_800.987_654)];
        round_column(col.iter_mut().collect());
        assert_eq!(col, vec![json!(1_732_900_000.1), json!(1_732_901_801_i64)]);
        let mut col = vec![json!(0.123_456_7), json!(0.523_456_7)];
        round_column(col.iter_mut().collect());
        assert_eq!(col, vec![json!(0.12346), json!(0.52346)]);
    }

    #[test]
    fn later_levels_keep_less_and_say_so() {
        let lines: Vec<u64> = (1..=5000).collect();
        let report = json!({
            "findings": [{"id": "x", "evidence": [1, 2, 3, 4, 5], "lines": [{"input": "a", "lines": lines}], "lines_truncated": false}],
            "series": [{"points": (0..2000).map(|i| json!([i, i % 7])).collect::<Vec<_>>()}],
            "runs": [{"note": "y".repeat(3000)}],
        });
        let raw = [RawInput {
            name: "a".into(),
            text: "abc".into(),
        }];
        let (env, om) = project(&report, &raw, &LADDER[0]);
        let codes: Vec<&str> = om.iter().map(|o| o.what.as_str()).collect();
        assert_eq!(codes, ["series-downsampled", "lines-cut", "text-cut"]);
        assert_eq!(env["report"]["findings"][0]["lines_truncated"], true);
        assert_eq!(env["raw"][0]["text"], "abc");
        let last = LADDER.last().unwrap();
        let (env, om) = project(&report, &raw, last);
        let codes: Vec<&str> = om.iter().map(|o| o.what.as_str()).collect();
        assert_eq!(
            codes,
            [
                "series-dropped",
                "evidence-cut",
                "lines-cut",
                "text-cut",
                "raw-dropped"
            ]
        );
        assert_eq!(env["report"]["series"][0]["points"], json!([]));
        assert!(env.get("raw").is_none());
        assert_eq!(env["report"]["findings"][0]["evidence"], json!([1]));
    }
}

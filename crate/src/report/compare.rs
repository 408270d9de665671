//! Device A versus device B, per group of runs of one model (as `diagnose::compare_groups`
//! forms them): one column per input, the reference first, one row per fact, each row marked
//! when the inputs disagree; and the runs that share a model with no other, listed. The page,
//! `tokscope compare`, the Markdown and the share view all render this.

use crate::catalogue::{self, Lang};
use crate::diagnose::compare::fallback_count;
use crate::diagnose::compare_groups::{grouping, representatives, Member};
use crate::diagnose::run_facts::decode_tok_s;
use crate::evidence::{Evidence, Phase, Run};
use crate::views::topology::cpu_list;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Comparison {
    /// Runs of one model, each group compared against its reference.
    #[serde(default)]
    pub groups: Vec<CompareGroup>,
    /// Runs that share a model with no other run: listed, never compared.
    #[serde(default)]
    pub unrelated: Vec<CompareRun>,
    /// Runs the user left out of the comparison.
    #[serde(default)]
    pub excluded: Vec<CompareRun>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareGroup {
    /// What the runs share, as the reference states it (`qwen2.5-7b.gguf · 7.62 B · Q4_0`).
    pub model: String,
    /// The reference input (device A).
    pub reference: String,
    /// The user picked the reference; otherwise it is the fastest decode of the group.
    #[serde(default)]
    pub reference_chosen: bool,
    /// Input names in column order, the reference first.
    pub inputs: Vec<String>,
    pub rows: Vec<CompareRow>,
}

/// A run as the compare view lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareRun {
    pub input: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode_tok_s: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareRow {
    /// Stable key: a run field name, with the buffer name after a dot (`buffers_mib.CPU KV`).
    pub fact: String,
    pub label: String,
    /// One per input; `null` where that log does not say.
    pub values: Vec<Option<String>>,
    pub differs: bool,
}

fn phase_text(p: &Option<Phase>, lang: Lang) -> Option<String> {
    let p = p.as_ref()?;
    let mut s = p.tok_s.map(|t| format!("{t:.2} tok/s"))?;
    if let Some(n) = p.tokens {
        s.push_str(&format!(" ({n} tok)"));
    }
    if p.derived {
        s.push_str(&format!(
            " [{}]",
            catalogue::text(lang, "ui.fact.derived", &[])
        ));
    }
    Some(s)
}

/// The facts of a run as (key, text) pairs, in display order.
fn facts(ev: &Evidence, input: usize, run: &Run, lang: Lang) -> Vec<(String, Option<String>)> {
    let on: Vec<&str> = run
        .cpu_features
        .iter()
        .filter(|(_, v)| **v)
        .map(|(k, _)| k.as_str())
        .collect();
    let off: Vec<&str> = run
        .cpu_features
        .iter()
        .filter(|(_, v)| !**v)
        .map(|(k, _)| k.as_str())
        .collect();
    let threads = match (run.n_threads, run.n_threads_batch, run.hw_threads) {
        (None, None, None) => None,
        (n, b, h) => {
            let s = |v: Option<u32>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
            Some(format!("{} / {} / {}", s(n), s(b), s(h)))
        }
    };
    let join = |v: &[&str]| (!v.is_empty()).then(|| v.join(", "));
    let mut out = vec![
        (
            "framework".to_string(),
            run.framework.map(|f| super::framework_name(lang, f)),
        ),
        ("build".into(), run.build.clone()),
        ("backend".into(), run.backend.clone()),
        (
            "devices".into(),
            (!run.devices.is_empty()).then(|| run.devices.join(", ")),
        ),
        ("model".into(), run.model.clone()),
        (
            "params".into(),
            run.params.map(|p| format!("{:.2} B", p / 1e9)),
        ),
        (
            "model_bytes".into(),
            run.model_bytes.map(|b| format!("{:.2} GB", b as f64 / 1e9)),
        ),
        ("quant".into(), run.quant.clone()),
        (
            "bits_per_weight".into(),
            run.bits_per_weight.map(|b| format!("{b:.2}")),
        ),
        (
            "tensor_types".into(),
            (!run.tensor_types.is_empty()).then(|| {
                run.tensor_types
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
        ),
        ("threads".into(), threads),
        ("cpu_features".into(), join(&on)),
        ("cpu_features_off".into(), join(&off)),
        (
            "cpu_clusters".into(),
            (!run.cpu_clusters.is_empty()).then(|| {
                run.cpu_clusters
                    .iter()
                    .map(|c| format!("CPU {} {} MHz", cpu_list(&c.cpus), c.max_khz / 1000))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
        ),
    ];
    for (k, v) in &run.buffers_mib {
        out.push((format!("buffers_mib.{k}"), Some(format!("{v:.2}"))));
    }
    out.push(("prefill".into(), phase_text(&run.prefill, lang)));
    out.push(("decode".into(), phase_text(&run.decode, lang)));
    if !run.bench.is_empty() {
        let b: Vec<String> = run
            .bench
            .iter()
            .take(8)
            .map(|b| match b.n_threads {
                Some(t) => format!("{} {:.2} ({t}t)", b.test, b.tok_s),
                None => format!("{} {:.2}", b.test, b.tok_s),
            })
            .collect();
        out.push(("bench".into(), Some(b.join(", "))));
    }
    out.push((
        "load_ms".into(),
        run.load_ms.map(|ms| format!("{:.1} s", ms / 1000.0)),
    ));
    out.push((
        "fallbacks".into(),
        Some(fallback_count(ev, input).to_string()),
    ));
    out
}

/// What a run says its model is: name, size and quant, as far as it says.
fn model_label(run: &Run) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = &run.model {
        parts.push(m.clone());
    }
    if let Some(p) = run.params {
        parts.push(format!("{:.2} B", p / 1e9));
    }
    if let Some(q) = &run.quant {
        parts.push(q.clone());
    }
    parts.join(" · ")
}

/// The comparison, when at least two inputs have runs (with no group, it lists them).
pub fn build(ev: &Evidence, lang: Lang) -> Option<Comparison> {
    if representatives(ev).len() < 2 {
        return None;
    }
    let name = |m: &Member| {
        ev.inputs
            .get(m.input)
            .map_or_else(String::new, |f| f.name.clone())
    };
    let listed = |m: &Member| CompareRun {
        input: name(m),
        model: Some(model_label(m.run)).filter(|s| !s.is_empty()),
        decode_tok_s: decode_tok_s(m.run),
    };
    let g = grouping(ev);
    Some(Comparison {
        groups: g
            .groups
            .iter()
            .map(|grp| {
                let columns: Vec<Member> = std::iter::once(grp.reference())
                    .chain(grp.others())
                    .collect();
                CompareGroup {
                    model: model_label(grp.reference().run),
                    reference: name(&grp.reference()),
                    reference_chosen: grp.chosen,
                    inputs: columns.iter().map(name).collect(),
                    rows: rows(ev, &columns, lang),
                }
            })
            .collect(),
        unrelated: g.unrelated.iter().map(listed).collect(),
        excluded: g.excluded.iter().map(listed).collect(),
    })
}

/// One row per fact any of the runs states, in first-seen order.
fn rows(ev: &Evidence, members: &[Member], lang: Lang) -> Vec<CompareRow> {
    let columns: Vec<Vec<(String, Option<String>)>> = members
        .iter()
        .map(|m| facts(ev, m.input, m.run, lang))
        .collect();
    let mut keys: Vec<String> = Vec::new();
    for col in &columns {
        for (k, _) in col {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    keys.into_iter()
        .filter_map(|key| {
            let values: Vec<Option<String>> = columns
                .iter()
                .map(|c| {
                    c.iter()
                        .find(|(k, _)| *k == key)
                        .and_then(|(_, v)| v.clone())
                })
                .collect();
            if values.iter().all(Option::is_none) {
                return None;
            }
            let differs = values.windows(2).any(|w| w[0] != w[1]);
            let (base, sub) = key.split_once('.').unwrap_or((&key, ""));
            let mut label = catalogue::text(lang, &format!("ui.fact.{base}"), &[]);
            if !sub.is_empty() {
                label = format!("{label}: {sub}");
            }
            Some(CompareRow {
                fact: key.clone(),
                label,
                values,
                differs,
            })
        })
        .collect()
}

//! Which runs are compared with which: one representative run per input, grouped by model (the
//! family in its name, its size, its quant's bit width), so a 7B llama is never measured against
//! a 0.5B Qwen. A group of two or more is compared against its reference (device A: the fastest
//! decode, or the user's pick); a run that matches no other is listed, not compared. The user's
//! own grouping (`Evidence::compare`) comes first; inputs it does not name are matched as usual.

use super::run_facts::{decode_tok_s, input_of, quant_bits};
use crate::evidence::{Evidence, InputId, Run};

/// One input's run, as every comparison uses it.
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    pub input: InputId,
    pub run: &'a Run,
}

/// Runs of one model, compared against `members[reference]`.
#[derive(Debug, Clone)]
pub struct Group<'a> {
    pub members: Vec<Member<'a>>,
    pub reference: usize,
    /// The reference is the user's pick, not the fastest run.
    pub chosen: bool,
}

impl<'a> Group<'a> {
    pub fn reference(&self) -> Member<'a> {
        self.members[self.reference]
    }

    /// Every member but the reference, in input order.
    pub fn others(&self) -> impl Iterator<Item = Member<'a>> + '_ {
        self.members
            .iter()
            .enumerate()
            .filter(move |(i, _)| *i != self.reference)
            .map(|(_, m)| *m)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Grouping<'a> {
    /// Groups of two or more runs, in the input order of their first member.
    pub groups: Vec<Group<'a>>,
    /// Runs no other run is known to share a model with.
    pub unrelated: Vec<Member<'a>>,
    /// Runs the user left out.
    pub excluded: Vec<Member<'a>>,
}

/// One run stands for each input that has any: the last one with a decode speed (warmed up),
/// else the last one.
pub fn representatives(ev: &Evidence) -> Vec<Member<'_>> {
    let mut out = Vec::new();
    for (i, _) in ev.inputs.iter().enumerate() {
        let runs: Vec<&Run> = ev.runs.iter().filter(|r| input_of(ev, r) == i).collect();
        // The user's own last run with a speed: a result they quote beside it (the README's,
        // a maintainer's) is what they compare with, not what they measured.
        let pick = runs
            .iter()
            .rev()
            .find(|r| decode_tok_s(r).is_some() && !r.quoted)
            .or_else(|| runs.iter().rev().find(|r| decode_tok_s(r).is_some()))
            .or(runs.last());
        if let Some(r) = pick {
            out.push(Member { input: i, run: r });
        }
    }
    out
}

/// The words a model name starts with that say nothing about which model it is.
const GENERIC_WORDS: &[&str] = &["ggml", "gguf", "model", "models", "mnn", "the"];

/// The model family a name starts with: `qwen` in `Qwen2.5-7B-Instruct-MNN`, `llama` in
/// `Llama-2-7b-chat-hf-q4f16_1`; `None` for a generic name like `ggml-model-q4_0.bin`.
fn family(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    // A path names the file last.
    let file = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    file.split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() >= 2)
        .filter(|w| !GENERIC_WORDS.contains(w))
        .map(str::to_string)
}

/// The size a model name states, in billions: `7` in `qwen2.5-7b-instruct`, `0.5` in
/// `Qwen2.5-0.5B`, `2` in `gemma-3n-E2B` (its effective size).
fn name_size_b(name: &str) -> Option<f64> {
    let lower = name.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    for (i, _) in lower.match_indices('b') {
        // The letter after must not continue a word (`7b-`, `7b.`, `7b` at the end).
        if bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric) {
            continue;
        }
        let start = lower[..i]
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(0, |p| p + 1);
        let digits = &lower[start..i];
        if let Ok(v) = digits.parse::<f64>() {
            if v > 0.0 && v.is_finite() {
                return Some(v);
            }
        }
    }
    None
}

/// The bit width class of a quant: Q4_0, Q4_K_M, q4f16_1 and int4 are all 4; F16 and BF16 16.
fn quant_class(quant: &str) -> Option<u32> {
    let bits = quant_bits(quant)?;
    Some(match bits {
        b if b < 3.0 => 2,
        b if b < 4.0 => 3,
        b if b < 5.25 => 4,
        b if b < 6.25 => 5,
        b if b < 8.0 => 6,
        b if b < 12.0 => 8,
        b if b < 24.0 => 16,
        _ => 32,
    })
}

/// Whether two runs are of the same model: `Some(false)` when a fact both state disagrees,
/// `Some(true)` when the name's family or the size agrees and nothing disagrees, `None` when they
/// share no fact that could tell. A quant width alone never says two runs are one model (most
/// runs are 4-bit); it only tells models apart.
pub fn same_model(a: &Run, b: &Run) -> Option<bool> {
    let both = |f: fn(&Run) -> Option<String>| f(a).zip(f(b)).map(|(x, y)| x == y);
    let family = both(|r| r.model.as_deref().and_then(family));
    // The sizes names state are nominal (7B for 7.62e9 parameters), so a size from a name is
    // matched against a name; a parameter count against one, within 10%; else the file sizes,
    // which the same model in the same quant width shares within 10% and two models of one
    // width rarely do (beyond 1.5× they are different models).
    let name_sizes = a
        .model
        .as_deref()
        .and_then(name_size_b)
        .zip(b.model.as_deref().and_then(name_size_b));
    let near = |x: f64, y: f64, within: f64| y > 0.0 && (x / y - 1.0).abs() <= within;
    let file_size = a.model_bytes.zip(b.model_bytes).and_then(|(x, y)| {
        let (x, y) = (x as f64, y as f64);
        if near(x, y, 0.1) {
            Some(true)
        } else if x.max(y) > 1.5 * x.min(y) {
            Some(false)
        } else {
            None
        }
    });
    let size = match (name_sizes, a.params.zip(b.params)) {
        (Some((x, y)), _) => Some(near(x, y, 0.05)),
        (None, Some((x, y))) => Some(near(x, y, 0.1)),
        _ => file_size,
    };
    let quant = a
        .quant
        .as_deref()
        .and_then(quant_class)
        .zip(b.quant.as_deref().and_then(quant_class))
        .map(|(x, y)| x == y);
    let facts = [family, size, quant];
    if facts.contains(&Some(false)) {
        return Some(false);
    }
    (family == Some(true) || size == Some(true)).then_some(true)
}

/// The groups of the evidence's runs, with the user's choice applied.
pub fn grouping(ev: &Evidence) -> Grouping<'_> {
    let reps = representatives(ev);
    let name = |m: &Member| ev.inputs.get(m.input).map_or("", |f| f.name.as_str());
    let choice = &ev.compare;
    let mut out = Grouping::default();
    let mut formed: Vec<(Vec<Member>, bool)> = Vec::new();
    // The user's groups, in their order; a name no longer among the inputs is skipped.
    let mut placed: Vec<InputId> = Vec::new();
    for names in &choice.groups {
        let members: Vec<Member> = reps
            .iter()
            .filter(|m| names.iter().any(|n| n == name(m)))
            .filter(|m| !choice.excluded.iter().any(|n| n == name(m)))
            .filter(|m| !placed.contains(&m.input))
            .copied()
            .collect();
        placed.extend(members.iter().map(|m| m.input));
        if !members.is_empty() {
            formed.push((members, true));
        }
    }
    for m in &reps {
        if choice.excluded.iter().any(|n| n == name(m)) {
            out.excluded.push(*m);
            continue;
        }
        if placed.contains(&m.input) {
            continue;
        }
        // The first group whose every member is known to share the model.
        let home = formed.iter_mut().find(|(members, _)| {
            members
                .iter()
                .all(|o| same_model(o.run, m.run) == Some(true))
        });
        match home {
            Some((members, _)) => members.push(*m),
            None => formed.push((vec![*m], false)),
        }
    }
    for (mut members, _) in formed {
        if members.len() < 2 {
            out.unrelated.extend(members);
            continue;
        }
        members.sort_by_key(|m| m.input);
        let picked = members
            .iter()
            .position(|m| choice.reference.iter().any(|n| n == name(m)));
        let fastest = members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| decode_tok_s(m.run).map(|d| (i, d)))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(0, |(i, _)| i);
        out.groups.push(Group {
            reference: picked.unwrap_or(fastest),
            chosen: picked.is_some(),
            members,
        });
    }
    out.groups.sort_by_key(|g| g.members[0].input);
    out.unrelated.sort_by_key(|m| m.input);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{CompareChoice, Phase};

    fn run(input: &str, model: &str, params: f64, quant: &str, tok_s: f64) -> Run {
        Run {
            input: input.into(),
            model: (!model.is_empty()).then(|| model.to_string()),
            params: (params > 0.0).then_some(params),
            quant: (!quant.is_empty()).then(|| quant.to_string()),
            decode: Some(Phase {
                tok_s: Some(tok_s),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn evidence(runs: Vec<Run>) -> Evidence {
        let mut ev = Evidence::default();
        for r in &runs {
            ev.add_input(&r.input);
        }
        ev.runs = runs;
        ev
    }

    fn names<'a>(ev: &'a Evidence, ms: &[Member]) -> Vec<&'a str> {
        ms.iter()
            .map(|m| ev.inputs[m.input].name.as_str())
            .collect()
    }

    const QWEN7: &str = "qwen2.5-7b-instruct-q4_0.gguf";

    #[test]
    fn one_model_on_two_devices_is_a_pair_with_the_faster_as_reference() {
        let ev = evidence(vec![
            run("b.log", QWEN7, 7.62e9, "Q4_0", 0.57),
            run("a.log", QWEN7, 7.62e9, "Q4_0", 13.4),
        ]);
        let g = grouping(&ev);
        assert_eq!(g.groups.len(), 1);
        assert!(g.unrelated.is_empty());
        assert_eq!(names(&ev, &g.groups[0].members), ["b.log", "a.log"]);
        assert_eq!(ev.inputs[g.groups[0].reference().input].name, "a.log");
        assert!(!g.groups[0].chosen);
    }

    #[test]
    fn different_models_are_listed_not_compared() {
        let ev = evidence(vec![
            run("llama.log", "llama 7B Q4_0", 6.74e9, "Q4_0", 12.0),
            run("mnn.log", "Qwen2.5-0.5B-Instruct-MNN", 0.0, "", 80.0),
            run("gemma.log", "gemma-3-1b-it-q4_0.gguf", 1.0e9, "Q4_0", 40.0),
        ]);
        let g = grouping(&ev);
        assert!(g.groups.is_empty(), "{:?}", g.groups);
        assert_eq!(
            names(&ev, &g.unrelated),
            ["llama.log", "mnn.log", "gemma.log"]
        );
    }

    #[test]
    fn three_devices_of_one_model_make_one_group_and_the_user_picks_the_reference() {
        let mut ev = evidence(vec![
            run("pixel.log", QWEN7, 7.62e9, "Q4_0", 9.0),
            run("mnn.log", "Qwen2.5-7B-Instruct-MNN", 0.0, "", 11.0),
            run("old.log", QWEN7, 7.62e9, "Q4_K - Medium", 2.0),
            run(
                "tiny.log",
                "qwen2.5-0.5b-instruct-q8_0.gguf",
                4.9e8,
                "Q8_0",
                60.0,
            ),
        ]);
        let g = grouping(&ev);
        assert_eq!(g.groups.len(), 1);
        assert_eq!(
            names(&ev, &g.groups[0].members),
            ["pixel.log", "mnn.log", "old.log"]
        );
        assert_eq!(ev.inputs[g.groups[0].reference().input].name, "mnn.log");
        assert_eq!(names(&ev, &g.unrelated), ["tiny.log"]);
        ev.compare = CompareChoice {
            reference: vec!["pixel.log".into()],
            ..Default::default()
        };
        let g = grouping(&ev);
        assert_eq!(ev.inputs[g.groups[0].reference().input].name, "pixel.log");
        assert!(g.groups[0].chosen);
    }

    #[test]
    fn the_user_can_move_and_exclude_runs() {
        let mut ev = evidence(vec![
            run("a.log", QWEN7, 7.62e9, "Q4_0", 13.0),
            run("b.log", QWEN7, 7.62e9, "Q4_0", 0.5),
            run("f16.log", QWEN7, 7.62e9, "F16", 3.0),
        ]);
        // F16 is another quant class: not matched by itself.
        assert_eq!(names(&ev, &grouping(&ev).unrelated), ["f16.log"]);
        ev.compare = CompareChoice {
            groups: vec![vec!["a.log".into(), "f16.log".into()]],
            excluded: vec!["b.log".into()],
            reference: Vec::new(),
        };
        let g = grouping(&ev);
        assert_eq!(names(&ev, &g.groups[0].members), ["a.log", "f16.log"]);
        assert_eq!(names(&ev, &g.excluded), ["b.log"]);
        assert!(g.unrelated.is_empty());
    }

    #[test]
    fn runs_that_state_nothing_comparable_are_not_assumed_alike() {
        let ev = evidence(vec![
            run("x.log", "", 0.0, "", 5.0),
            run("y.log", "", 0.0, "", 9.0),
        ]);
        assert_eq!(same_model(&ev.runs[0], &ev.runs[1]), None);
        assert!(grouping(&ev).groups.is_empty());
    }

    #[test]
    fn a_quant_width_alone_is_not_one_model_and_file_sizes_tell_models_apart() {
        let mut pythia = run("ci.log", "ggml-model-q4_0.gguf", 1.41e9, "Q4_0", 34.1);
        pythia.model_bytes = Some(824_505_795);
        let mlc = run(
            "deck.log",
            "Llama-2-7b-chat-hf-q4f16_1",
            0.0,
            "q4f16_1",
            13.2,
        );
        assert_eq!(same_model(&pythia, &mlc), None);
        let mut old = run("rk.log", "ggml-model-q4_0.bin", 0.0, "Q4_0", 2.0);
        old.model_bytes = Some(4_212_412_908);
        assert_eq!(same_model(&pythia, &old), Some(false));
        let mut same_file = old.clone();
        same_file.model_bytes = Some(4_212_412_000);
        assert_eq!(same_model(&old, &same_file), Some(true));
    }

    #[test]
    fn names_say_family_and_size() {
        assert_eq!(family("Qwen2.5-7B-Instruct-MNN").as_deref(), Some("qwen"));
        assert_eq!(
            family("/data/models/Llama-2-7b-chat-hf").as_deref(),
            Some("llama")
        );
        assert_eq!(family("ggml-model-q4_0.bin"), None);
        assert_eq!(name_size_b("Qwen2.5-0.5B-Instruct"), Some(0.5));
        assert_eq!(name_size_b("llama 7B Q4_0"), Some(7.0));
        assert_eq!(name_size_b("gemma-3n-E2B-it-int4"), Some(2.0));
        assert_eq!(name_size_b("phi-3.5-mini-instruct.Q4_K_S.gguf"), None);
        assert_eq!(quant_class("Q4_K - Medium"), quant_class("q4f16_1"));
        assert_ne!(quant_class("Q4_0"), quant_class("F16"));
    }
}

//! The fallback timings reader: any line that gives a rate or a time per token next to a phase
//! word, whatever framework printed it. It reads only lines that no framework parser took (the
//! collector says which line last gave a fact), so a known format is always read by its own
//! parser first.
//!
//! - Phase words: prompt, prefill, prompt eval, prompt processing, encode, pp, TTFT (prefill);
//!   eval, decode, generation, generated, tg, TPOT, ITL, output time (chatglm.cpp's `output
//!   time: X ms / N tokens (Y ms/token)`) (decode).
//! - Units after the number (`12.3 tok/s`, `tokens/s`, `t/s`, `tps`, `tokens per second`,
//!   `81 ms/token`, `ms per token`, `0.08 s/token`) or in the key (`decode_tps=12.3`,
//!   `"prefill_tok_s": 98.1`, `Token Generation Throughput (tps) | 41.2`, `tpot_ms: 45`).
//! - Forms: free text, `key=value` and `key: value` lists, table rows, JSON documents.
//! - A figure labelled total, overall, wall clock or end-to-end mixes prefill and decode: it
//!   is never a phase. TTFT alone gives the prefill time, not a rate.
//! - Token counts next to a phase word (`prompt eval count: 26 token(s)`, `prompt_tokens=128`)
//!   are kept for the next timing of that phase.
//!
//! - A speed with no phase word at all is decode only where the line says the model produced
//!   it (`getting 0.72 tokens per second`, `generates at 12 tok/s`) or gives the count and time
//!   it is the rate of (`Chat completion: 2590 tokens in 59.64s (43.4 tok/s)`, the figures
//!   agreeing): users quote the generation speed, as the prose sweep reader assumes. It must be
//!   the line's only speed, in a line that names no prompt, total, throughput or many requests
//!   (a benchmark's aggregate), and it is kept only when nothing else in the input gives decode:
//!   a labelled figure always wins.
//!
//! The run gets the framework the sniffer found, or `unknown`.

use super::json_block::Doc;
use super::runs::{num, phase, PhaseKind, RunCollector};
use super::FrameworkParser;
use crate::evidence::Framework;
use regex::Regex;
use std::sync::OnceLock;

/// Literals at least one of which every line this reader reads contains (lowercase; the gate
/// folds ASCII case).
pub const KEYWORDS: &[&str] = &[
    "tok/s",
    "tokens/s",
    "token/s",
    "toks/s",
    "t/s",
    "tok/sec",
    "tokens/sec",
    "toks/sec",
    "per second",
    "per sec",
    "ms/tok",
    "s/tok",
    "per token",
    "tps",
    "ttft",
    "tpot",
    "itl",
    "tok_s",
    "tokens_per",
    "eval rate",
    "count",
    "tokens",
    "throughput",
    "time to first",
];

struct Re {
    gate: Regex,
    /// A number and what follows it.
    value: Regex,
    phase: Regex,
    mixed: Regex,
    key_rate: Regex,
    key_per_token: Regex,
    key_time: Regex,
    count_label: Regex,
    count_before: Regex,
    /// A verb saying the model produced the figure that follows.
    produced: Regex,
    /// llama2.c's closing line and its ports' (`achieved tok/s: 4.023189`, before 2023-08
    /// `achieved tok/s: 312.500000. Tokens: 255, seconds: 0.816`): the rate of the tokens after
    /// the first, each one forward pass, so decode.
    achieved: Regex,
    /// `2590 tokens in 59.64s (43.4 tok/s)`.
    count_time_rate: Regex,
    /// Words of a many-request benchmark or of the input side.
    aggregate: Regex,
    /// Words of a figure hoped for, denied or quoted from elsewhere, not measured.
    hoped: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("generic timing pattern compiles");
        let lower: Vec<String> = KEYWORDS.iter().map(|k| k.to_ascii_lowercase()).collect();
        let refs: Vec<&str> = lower.iter().map(String::as_str).collect();
        Re {
            gate: super::literal_gate(&refs),
            value: r(r"(?x)
                (?:^|[^\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[+-]?\d+)?)
                [\s\x22']*
                (?P<unit>
                    (?P<rate>(?:tok(?:en)?s?\s*/\s*s(?:ec(?:ond)?)?|t/s|tps|tok(?:en)?s?\s+per\s+s(?:ec(?:ond)?)?)\b)
                  | (?P<ptok>(?:ms|s|us|µs)\s*(?:/|per)\s*(?:output\s+)?tok(?:en)?s?\b)
                  | (?P<time>(?:ms|milliseconds|s|sec|seconds|us|µs)\b)
                  | (?P<other>(?:[kmgt]i?b/s|[kmgt]i?b|b|%|x|w|mw|mhz|ghz|khz|c|°c|fps|frames?|gflops|tflops)\b)
                )?"),
            phase: r(r"(?x)\b(?:
                (?P<pre>prompt[\s_-]*eval(?:uation)?|prompt[\s_-]*processing|prompt|prefill(?:ing)?|pre-fill|encode|encoding|pp\d*|ttft|time[\s_-]to[\s_-]first[\s_-]token)
              | (?P<dec>eval(?:uation)?|decode|decoding|token[\s_-]*generation|generation|generated|gen|tg\d*|tpot|itl|inter[\s_-]token(?:[\s_-]latency)?|time[\s_-]per[\s_-]output[\s_-]token|output[\s_-]time)
            )\b"),
            mixed: r(r"\b(?:total|overall|wall|e2e|end[\s_-]to[\s_-]end|combined|tokenization|sampling)\b"),
            key_rate: r(r"(?:\btok(?:en)?s?(?:\s*/\s*|\s+per\s+|\s)s(?:ec(?:ond)?)?\b|\btps\b|\bt/s\b|\bthroughput\b|\brate\b|\bspeed\b)"),
            key_per_token: r(r"(?:\b(?:ms|us|s)[\s_/]*(?:per[\s_])?tok(?:en)?\b|\bper[\s_]token\b)"),
            key_time: r(r"\b(?P<u>ms|us|s|sec|seconds|milliseconds)\b"),
            count_label: r(r"\b(?:count|tokens?|length|len)\b[\x22'\s]*[:=|]?[\x22'\s(]*$"),
            count_before: r(r"(?P<n>\d+)\s*(?:\w+\s+)?tokens?\b"),
            produced: r(r"\b(?:getting|gets|got|get|giving|gives|gave|generates|generating|producing|produces|outputs|outputting|writes|writing|answers|responds|runs\s+at|running\s+at)\b"),
            achieved: r(r"\bachieved tok/s:\s*(?P<r>\d+(?:\.\d+)?)(?:\.\s*tokens:\s*(?P<n>\d+))?"),
            count_time_rate: r(r"(?x)\b(?P<n>\d+)\s+tok(?:en)?s?\s+in\s+(?P<t>\d+(?:\.\d+)?)\s*(?P<u>ms|s|sec|seconds)\b[\s,(]*(?P<r>\d+(?:\.\d+)?)\s*(?:tok(?:en)?s?\s*/\s*s|t/s|tps)\b"),
            aggregate: r(r"\b(?:requests?|req/s|batch(?:es)?|concurren\w*|parallel|aggregate|users|clients|input)\b"),
            hoped: r(r"(?:\bnot\b|n't\b|\bclaim\w*|\bexpect\w*|\bshould\b|\badvertis\w*|\bsupposed\b|\bpromis\w*|\bcould\b|\bwould\b|\bhop(?:e|ed|ing)\b|\btarget\w*)"),
        }
    })
}

/// True when a message has a number, a phase word and a timing word or unit: what the "not
/// read" report counts when a log gives no run. Cheap enough for every line of a capture.
pub fn looks_like_timing(msg: &str) -> bool {
    use aho_corasick::AhoCorasick;
    static WORDS: OnceLock<Option<(AhoCorasick, usize)>> = OnceLock::new();
    const PHASES: &[&str] = &[
        "prompt",
        "prefill",
        "decode",
        "eval",
        "generat",
        "encode",
        "ttft",
        "tpot",
        "itl",
        "first token",
        "per token",
    ];
    const UNITS: &[&str] = &[
        "tok",
        "/s",
        "ms",
        "sec",
        "latency",
        "throughput",
        "speed",
        "rate",
    ];
    let Some((ac, phases)) = WORDS
        .get_or_init(|| {
            let words: Vec<&str> = PHASES.iter().chain(UNITS).copied().collect();
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(words)
                .ok()
                .map(|ac| (ac, PHASES.len()))
        })
        .as_ref()
    else {
        return false;
    };
    if !msg.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let (mut phase, mut unit) = (false, false);
    for m in ac.find_overlapping_iter(msg) {
        if m.pattern().as_usize() < *phases {
            phase = true;
        } else {
            unit = true;
        }
        if phase && unit {
            return true;
        }
    }
    false
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    Rate,
    /// Time per token, in ms.
    PerToken,
    /// A duration in ms (TTFT).
    Time,
}

/// What one line says about one phase.
#[derive(Debug, Default, Clone, Copy)]
struct Said {
    tok_s: Option<f64>,
    ms_per_token: Option<f64>,
    ttft_ms: Option<f64>,
    tokens: Option<u64>,
}

impl Said {
    fn timed(&self) -> bool {
        self.tok_s.is_some() || self.ms_per_token.is_some() || self.ttft_ms.is_some()
    }
}

pub struct GenericTimings {
    framework: Framework,
    /// Token counts read before their timing: prefill, decode.
    pending: [Option<u64>; 2],
    /// Speeds with no phase word that read as decode, held until the input ends: (line, tok/s,
    /// tokens).
    unlabelled: Vec<(u64, f64, Option<u64>)>,
}

/// Unlabelled speeds kept per input: a paste quotes a few, never a table of them.
const MAX_UNLABELLED: usize = 8;

/// The one speed a line with no phase word gives for decode, when it says the model produced it
/// or gives the count and time it is the rate of: (tok/s, tokens).
fn unlabelled_decode(msg: &str) -> Option<(f64, Option<u64>)> {
    let r = re();
    let lower = msg.to_ascii_lowercase();
    if let Some(c) = r.achieved.captures(&lower) {
        let v = num(&c["r"]).filter(|v| *v > 0.0)?;
        return Some((v, c.name("n").and_then(|n| n.as_str().parse().ok())));
    }
    let keyed = lower.replace('_', " ");
    if r.phase.is_match(&keyed)
        || r.mixed.is_match(&keyed)
        || r.aggregate.is_match(&keyed)
        || r.hoped.is_match(&keyed)
    {
        return None;
    }
    if keyed.contains("throughput") || keyed.contains("ms/tok") || keyed.contains("per token") {
        return None;
    }
    let mut rates = r
        .value
        .captures_iter(&lower)
        .filter(|c| c.name("rate").is_some())
        .filter_map(|c| {
            c.name("num")
                .and_then(|n| num(n.as_str()).map(|v| (n.start(), v)))
        });
    let (at, v) = rates.next()?;
    if rates.next().is_some() || v <= 0.0 {
        return None;
    }
    // `~3 tok/s`: a rough figure, as the phase-word reader takes it.
    if lower[..at].trim_end().ends_with(['~', '≈']) {
        return None;
    }
    if let Some(c) = r.count_time_rate.captures(&lower) {
        let n: f64 = c["n"].parse().ok()?;
        let t = ms_of(c["t"].parse().ok()?, &c["u"]) / 1000.0;
        let rate: f64 = c["r"].parse().ok()?;
        // The rate is of those tokens over that time, or the three are not one measurement.
        if t > 0.0 && (n / t - rate).abs() <= 0.1 * rate && (rate - v).abs() < 1e-9 {
            return Some((v, Some(n as u64)));
        }
        return None;
    }
    // The verb must come before the figure, in its clause.
    let before = &lower[..at];
    let clause = before
        .rfind(['.', ';', '!', '?'])
        .map_or(before, |i| &before[i..]);
    r.produced.is_match(clause).then_some((v, None))
}

impl GenericTimings {
    pub fn new(framework: Option<Framework>) -> Self {
        GenericTimings {
            framework: framework.unwrap_or(Framework::Unknown),
            pending: [None; 2],
            unlabelled: Vec::new(),
        }
    }
}

fn kind_of(c: &regex::Captures) -> (PhaseKind, &'static str) {
    let word = c.get(0).map_or("", |m| m.as_str());
    let word = word.trim();
    let kind = if c.name("pre").is_some() {
        PhaseKind::Prefill
    } else {
        PhaseKind::Decode
    };
    let tag = if word == "ttft" || (word.starts_with("time") && word.contains("first")) {
        "ttft"
    } else if word == "tpot" || word.starts_with("itl") || word.starts_with("inter") {
        "tpot"
    } else {
        ""
    };
    (kind, tag)
}

fn ms_of(v: f64, unit: &str) -> f64 {
    match unit.trim_start_matches(char::is_whitespace) {
        u if u.starts_with("us") || u.starts_with("µs") => v / 1000.0,
        u if u.starts_with("ms") || u.starts_with("milli") => v,
        _ => v * 1000.0,
    }
}

/// Reads one message: each phase it gives a timing or a count for.
fn read(msg: &str) -> [Said; 2] {
    let r = re();
    let lower = msg.to_ascii_lowercase();
    let mut out = [Said::default(); 2];
    // `_` separates words in keys (`prefill_tok_s`); the same length keeps the offsets.
    let keyed = lower.replace('_', " ");
    let mut from = 0;
    // The phase word of the previous figure: `(12.70 ms per token, 78.76 tokens per second)`
    // both belong to the phase named before the first.
    let mut last: Option<(PhaseKind, &'static str, usize)> = None;
    for c in r.value.captures_iter(&lower) {
        let Some(n) = c.name("num") else { continue };
        let label = &keyed[from.min(n.start())..n.start()];
        let label_at = from.min(n.start());
        from = c.get(0).map_or(n.end(), |m| m.end());
        // The last phase word before the number names its phase.
        if let Some(pc) = r.phase.captures_iter(label).last() {
            let (kind, tag) = kind_of(&pc);
            last = Some((kind, tag, label_at + pc.get(0).map_or(0, |m| m.start())));
        }
        // Prose names the phase after the figure: `about 1.1 tokens/s for generation`. Only
        // within the figure's own clause, and only for this figure.
        let trailing = || {
            let rest = &lower[from..];
            let end = rest
                .find([',', '.', ';', '(', ')'])
                .unwrap_or(rest.len())
                .min(30);
            let end = (0..=end)
                .rev()
                .find(|&i| rest.is_char_boundary(i))
                .unwrap_or(0);
            let pc = r.phase.captures(&rest[..end])?;
            let (kind, tag) = kind_of(&pc);
            Some((kind, tag, n.start()))
        };
        let Some((kind, tag, phase_at)) =
            last.or_else(|| c.name("rate").is_some().then(trailing).flatten())
        else {
            continue;
        };
        // `~79 ms per token`: an estimate in a note, not a measurement.
        if lower[..n.start()].trim_end().ends_with(['~', '≈']) {
            continue;
        }
        let after_phase = &keyed[phase_at..n.start()];
        if r.mixed.is_match(after_phase) {
            continue;
        }
        let Some(v) = num(n.as_str()).filter(|v| *v >= 0.0) else {
            continue;
        };
        let unit_text = c.name("unit").map_or("", |m| m.as_str());
        let unit = if c.name("rate").is_some() {
            Some((Unit::Rate, v))
        } else if c.name("ptok").is_some() {
            Some((Unit::PerToken, ms_of(v, unit_text)))
        } else if c.name("time").is_some() {
            match tag {
                "ttft" => Some((Unit::Time, ms_of(v, unit_text))),
                "tpot" => Some((Unit::PerToken, ms_of(v, unit_text))),
                _ => None,
            }
        } else if c.name("other").is_some() {
            None // GB/s, %, MiB: not a timing
        } else if r.key_per_token.is_match(after_phase) {
            let u = r
                .key_time
                .captures(after_phase)
                .map_or("ms", |k| k.name("u").map_or("ms", |m| m.as_str()));
            Some((Unit::PerToken, ms_of(v, u)))
        } else if !tag.is_empty() {
            r.key_time.captures(after_phase).map(|k| {
                let ms = ms_of(v, k.name("u").map_or("ms", |m| m.as_str()));
                if tag == "ttft" {
                    (Unit::Time, ms)
                } else {
                    (Unit::PerToken, ms)
                }
            })
        } else if r.key_rate.is_match(after_phase) && !r.key_time.is_match(after_phase) {
            Some((Unit::Rate, v))
        } else {
            None
        };
        let slot = &mut out[kind as usize];
        match unit {
            Some((Unit::Rate, v)) if v > 0.0 => {
                slot.tok_s.get_or_insert(v);
            }
            Some((Unit::PerToken, ms)) if ms > 0.0 => {
                slot.ms_per_token.get_or_insert(ms);
            }
            Some((Unit::Time, ms)) => {
                slot.ttft_ms.get_or_insert(ms);
            }
            _ => {
                // No timing: maybe a token count (`prompt eval count: 26`, `prompt_tokens=128`).
                if v.fract() == 0.0
                    && unit_text.is_empty()
                    && tag.is_empty()
                    && slot.tokens.is_none()
                    && r.count_label.is_match(label)
                {
                    slot.tokens = Some(v as u64);
                }
            }
        }
    }
    // `512 prompt tokens`, `generated 128 tokens` with the phase word around the count.
    for c in r.count_before.captures_iter(&lower) {
        let Some(n) = c.name("n") else { continue };
        let end = c.get(0).map_or(n.end(), |m| m.end());
        let before = lower[..n.start()].chars().next_back();
        let rest = lower[end..].trim_start();
        // `87.31 tokens/s` is a rate, not 31 tokens.
        if before.is_some_and(|ch| ch.is_ascii_digit() || ch == '.' || ch == ',')
            || rest.starts_with('/')
            || rest.starts_with("per")
        {
            continue;
        }
        let mut start = n.start().saturating_sub(40);
        while !lower.is_char_boundary(start) {
            start += 1;
        }
        let around = &keyed[start..c.get(0).map_or(n.end(), |m| m.end())];
        if let Some(pc) = r.phase.captures_iter(around).last() {
            let (kind, tag) = kind_of(&pc);
            let slot = &mut out[kind as usize];
            if tag.is_empty() && slot.tokens.is_none() && !r.mixed.is_match(around) {
                slot.tokens = n.as_str().parse().ok();
            }
        }
    }
    out
}

impl GenericTimings {
    fn apply(&mut self, said: [Said; 2], at: u64, runs: &mut RunCollector) {
        for (i, kind) in [PhaseKind::Prefill, PhaseKind::Decode]
            .into_iter()
            .enumerate()
        {
            let s = said[i];
            if !s.timed() {
                if s.tokens.is_some() {
                    self.pending[i] = s.tokens;
                }
                continue;
            }
            let tokens = s.tokens.or(self.pending[i].take());
            let fw = self.framework;
            // A rate after a TTFT (or a count after a rate) completes the same phase.
            if let Some(run) = runs.open(fw) {
                let slot = match kind {
                    PhaseKind::Prefill => &mut run.prefill,
                    PhaseKind::Decode => &mut run.decode,
                };
                if let Some(p) = slot.as_mut().filter(|p| p.tok_s.is_none()) {
                    let filled = phase(tokens.or(p.tokens), p.ms, s.ms_per_token, s.tok_s);
                    if filled.tok_s.is_some() {
                        *p = crate::evidence::Phase {
                            ms: p.ms.or(s.ttft_ms),
                            ..filled
                        };
                        run.line_end = Some(at);
                        continue;
                    }
                }
            }
            runs.phase(
                fw,
                at,
                kind,
                phase(tokens, s.ttft_ms, s.ms_per_token, s.tok_s),
            );
        }
    }
}

impl FrameworkParser for GenericTimings {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        // A framework parser read this line: its reading stands.
        if runs.last_line == Some(at) {
            return;
        }
        if !re().gate.is_match(&msg.to_ascii_lowercase()) {
            return;
        }
        let said = read(msg);
        if !said.iter().any(Said::timed) && self.unlabelled.len() < MAX_UNLABELLED {
            if let Some((v, tokens)) = unlabelled_decode(msg) {
                self.unlabelled.push((at, v, tokens));
            }
        }
        self.apply(said, at, runs);
    }

    fn finish(&mut self, runs: &mut RunCollector) {
        if runs.any_decode() {
            return;
        }
        for (at, v, tokens) in self.unlabelled.drain(..) {
            runs.close();
            runs.phase(
                self.framework,
                at,
                PhaseKind::Decode,
                phase(tokens, None, None, Some(v)),
            );
        }
    }

    fn doc(&mut self, doc: &Doc, runs: &mut RunCollector) {
        if runs.last_line == Some(doc.line_end) {
            return;
        }
        // Each numeric leaf as `path: value`, read like a line.
        let mut leaves = Vec::new();
        flatten(&doc.value, "", 0, &mut leaves);
        let mut said = [Said::default(); 2];
        for text in leaves.iter().take(2000) {
            let one = read(text);
            for i in 0..2 {
                let (s, o) = (&mut said[i], one[i]);
                s.tok_s = s.tok_s.or(o.tok_s);
                s.ms_per_token = s.ms_per_token.or(o.ms_per_token);
                s.ttft_ms = s.ttft_ms.or(o.ttft_ms);
                s.tokens = s.tokens.or(o.tokens);
            }
        }
        self.apply(said, doc.line_end, runs);
    }
}

fn flatten(v: &serde_json::Value, path: &str, depth: usize, out: &mut Vec<String>) {
    if depth > 6 || out.len() > 2000 {
        return;
    }
    match v {
        serde_json::Value::Object(o) => {
            for (k, v) in o {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path} {k}")
                };
                flatten(v, &p, depth + 1, out);
            }
        }
        serde_json::Value::Number(n) => out.push(format!("{path}: {n}")),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(msg: &str) -> [Said; 2] {
        read(msg)
    }

    #[test]
    fn an_unlabelled_speed_the_model_produced_is_decode() {
        assert_eq!(
            unlabelled_decode("In the 1.12.2 update, I'm getting 0.72 tokens per second"),
            Some((0.72, None))
        );
        assert_eq!(
            unlabelled_decode(
                "INFO:vllm_mlx.routes.chat:Chat completion: 2590 tokens in 59.64s (43.4 tok/s)"
            ),
            Some((43.4, Some(2590)))
        );
        assert_eq!(
            unlabelled_decode("on the Pi it runs at 1.8 t/s"),
            Some((1.8, None))
        );
        // llama2.c and its ports, both eras.
        assert_eq!(
            unlabelled_decode("achieved tok/s: 4.023189"),
            Some((4.023189, None))
        );
        assert_eq!(
            unlabelled_decode("achieved tok/s: 312.500000. Tokens: 255, seconds: 0.816"),
            Some((312.5, Some(255)))
        );
        for line in [
            // No verb of producing, or the verb after the figure's clause.
            "qwen2.5 7b q4: 12.3 tok/s",
            "12.3 tok/s. I am getting worried",
            // A figure hoped for, denied or claimed, not measured.
            "it's not giving the claimed 101 tok/second for short one",
            "I expected to be getting 50 tok/s",
            // Prompt, total, throughput, many requests: not one completion's generation.
            "getting 250 tokens per second on the prompt",
            "getting 900 tok/s total over 32 requests",
            "getting 310 tok/s throughput with batch 8",
            // A rough figure.
            "the .pte runs at ~3 tok/s on a Pixel 8",
            // Two speeds: which is which is not said.
            "getting 12 tok/s on the GPU and 3 tok/s on the CPU",
            // Count, time and rate that do not agree are not one measurement.
            "Chat completion: 2590 tokens in 59.64s (12.0 tok/s)",
        ] {
            assert_eq!(unlabelled_decode(line), None, "{line}");
        }
    }

    #[test]
    fn an_unlabelled_speed_counts_only_where_nothing_else_gives_decode() {
        let runs = crate::ingest::frameworks::test_support::runs(
            "Phone: Poco X6 Pro, 12 GB\nNow I'm getting 0.72 tokens per second.",
            true,
        );
        assert_eq!(runs.len(), 1, "{runs:#?}");
        assert_eq!(runs[0].decode.as_ref().and_then(|d| d.tok_s), Some(0.72));
        // A labelled decode figure in the same input wins; the unlabelled one is not added.
        let runs = crate::ingest::frameworks::test_support::runs(
            "eval rate: 9.5 tokens/s\nwith the old build I was getting 14 tokens per second",
            true,
        );
        let decodes: Vec<_> = runs
            .iter()
            .filter_map(|r| r.decode.as_ref().and_then(|d| d.tok_s))
            .collect();
        assert_eq!(decodes, vec![9.5]);
    }

    #[test]
    fn rates_and_times_per_token_with_phase_words() {
        let s = one("prefill: 123.4 tok/s, decode: 12.5 tokens/s");
        assert_eq!(s[0].tok_s, Some(123.4));
        assert_eq!(s[1].tok_s, Some(12.5));
        let s = one("[pp] 512 tokens 88.1 t/s | [tg] 128 tokens 9.7 t/s");
        assert_eq!((s[0].tok_s, s[1].tok_s), (Some(88.1), Some(9.7)));
        let s = one("Decode: 81.3 ms/token");
        assert_eq!(s[1].ms_per_token, Some(81.3));
        let s = one("generation speed 0.25 s/token");
        assert_eq!(s[1].ms_per_token, Some(250.0));
        let s = one("TTFT: 812 ms  TPOT: 45.5 ms");
        assert_eq!((s[0].ttft_ms, s[1].ms_per_token), (Some(812.0), Some(45.5)));
        let s = one("decode_tps=14.2 prefill_tps=301.7 prompt_tokens=256");
        assert_eq!((s[0].tok_s, s[1].tok_s), (Some(301.7), Some(14.2)));
        assert_eq!(s[0].tokens, Some(256));
        let s = one("| Token Generation Throughput (tps) | 41.2 |");
        assert_eq!(s[1].tok_s, Some(41.2));
        let s = one("eval rate:            60.81 tokens/s");
        assert_eq!(s[1].tok_s, Some(60.81));
        let s = one("prompt eval count:    26 token(s)");
        assert_eq!((s[0].tokens, s[0].tok_s), (Some(26), None));
        let s = one("prompt eval rate:     87.31 tokens/s");
        assert_eq!((s[0].tokens, s[0].tok_s), (None, Some(87.31)));
        let s = one("[stats] gen_tokens=128 decode_tps=18.9 tpot_ms=52.9 total_tps=21.1");
        assert_eq!((s[1].tokens, s[1].tok_s), (Some(128), Some(18.9)));
        assert_eq!(s[1].ms_per_token, Some(52.9));
    }

    #[test]
    fn prose_names_the_phase_after_its_figure() {
        // The figure's own clause names it; a later figure of someone else's machine does not
        // take its place.
        let s =
            one("I only get about 1.1 tokens/s for generation, my friend gets 8 t/s on his Mac");
        assert_eq!((s[0].tok_s, s[1].tok_s), (None, Some(1.1)));
        let s = one("12.5 t/s prompt processing");
        assert_eq!(s[0].tok_s, Some(12.5));
        // Past the clause, or as far as a total, the phase is not the figure's.
        let s = one("I get 40 t/s, but generation feels slow");
        assert_eq!((s[0].tok_s, s[1].tok_s), (None, None));
    }

    #[test]
    fn mixed_and_foreign_figures_are_not_phases() {
        let s = one("total: 35.2 tok/s (prefill + decode)");
        assert_eq!((s[0].tok_s, s[1].tok_s), (None, None));
        let s = one("Wall Clock Throughput (tps) | 206.6 |");
        assert_eq!((s[0].tok_s, s[1].tok_s), (None, None));
        let s = one("decode bandwidth 45.1 GB/s");
        assert_eq!(s[1].tok_s, None);
        let s = one("(decode at ~79 ms per token feels slow)");
        assert_eq!(s[1].ms_per_token, None);
        let s = one("eval time: 5021 ms");
        assert_eq!((s[1].tok_s, s[1].ms_per_token), (None, None));
        let s = one("downloaded 120 tokens/s worth of nothing");
        assert_eq!((s[0].tok_s, s[1].tok_s), (None, None));
    }
}

//! Thread sweeps written as prose, one setting per line, the way users type them in a thread:
//! `6 threads: 5.7 tokens/sec`, `-t 4 => 12.1 t/s`, `with 8 threads I get 0.27 tok/s`,
//! `--threads 16: 81 ms/token`, `4 线程：12 tok/s`.
//!
//! Lines that each give a thread count and a speed, at most [`MAX_GAP`] lines apart, are one
//! group. A group with two or more thread counts is one run whose bench rows carry `n_threads`,
//! the shape a typed table gives, which the thread-sweep rules read. A group of one line is a
//! run with that thread count and speed. A speed labelled prompt / prefill / pp is the prefill's;
//! any other (users quote the generation speed) is the decode's, and a total is never a phase.
//! Table rows (`|`, tabs) belong to the table readers, and lines a framework parser read stay
//! theirs.

use super::runs::{num, RunCollector};
use super::FrameworkParser;
use crate::evidence::{BenchRow, Framework, Phase, Run};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Literals one of which every line this reader reads contains (lowercase; the gate folds ASCII
/// case).
pub const KEYWORDS: &[&str] = &["thread", "-t ", "-t=", "线程"];

/// Lines between two rows of one sweep: a blank line or a remark between settings is common.
const MAX_GAP: u64 = 3;
/// Rows kept per group: a typed sweep has a handful.
const MAX_ROWS: usize = 64;

struct Re {
    threads: Regex,
    rate: Regex,
    prefill: Regex,
    total: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("prose sweep pattern compiles");
        Re {
            threads: r(r"(?xi)
                (?:^|[^\w.])(?P<a>\d{1,3})\s*-?\s*(?:threads?\b|thr\b|线程)
                | (?:(?:^|\s)-t|--threads|\bn_threads|\bnum_threads|\bthreads?|线程数?)
                  \s*[=:：]?\s*(?P<b>\d{1,3})(?:[^\w.]|$)"),
            rate: r(r"(?xi)
                (?P<num>\d+(?:\.\d+)?)\s*
                (?P<unit>
                    (?P<per_s>tok(?:en)?s?\s*/\s*s(?:ec(?:ond)?)?\b|t/s\b|tps\b
                        |tok(?:en)?s?\s+per\s+sec(?:ond)?\b)
                  | (?P<ms>ms\s*/\s*tok(?:en)?\b|ms\s+per\s+tok(?:en)?\b))"),
            prefill: r(r"(?i)\b(?:prompt|prefill|pp\d*|pre-?fill|ttft)\b|预填充|提示"),
            total: r(r"(?i)\b(?:total|overall|end-to-end|e2e|wall)\b|总"),
        }
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Ph {
    Prefill,
    Decode,
}

/// One line's setting: its thread count and the speeds it gives.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    line: u64,
    threads: u32,
    speeds: Vec<(Ph, f64)>,
}

/// The one thread count `msg` states (`8 threads`, `-t 4`, `--threads=16`, `4线程`), if it
/// states exactly one.
pub fn thread_count(msg: &str) -> Option<u32> {
    let r = re();
    if r.threads.find_iter(msg).nth(1).is_some() {
        return None;
    }
    let t = r.threads.captures(msg)?;
    t.name("a")
        .or_else(|| t.name("b"))?
        .as_str()
        .parse()
        .ok()
        .filter(|n| (1..=512).contains(n))
}

/// The thread count and speeds `msg` gives, when it gives both.
fn read(msg: &str) -> Option<(u32, Vec<(Ph, f64)>)> {
    if msg.contains('|') || msg.contains('\t') || msg.len() > 300 {
        return None;
    }
    let r = re();
    // Two settings on one line (`8 threads: 41 t/s, 32 threads: 118 t/s`) do not say which
    // speed is whose.
    if r.threads.find_iter(msg).nth(1).is_some() {
        return None;
    }
    let t = r.threads.captures(msg)?;
    let span = t.get(0)?.range();
    let threads: u32 = t
        .name("a")
        .or_else(|| t.name("b"))?
        .as_str()
        .parse()
        .ok()
        .filter(|n| (1..=512).contains(n))?;
    let mut speeds = Vec::new();
    let mut unlabelled = Vec::new();
    let mut from = 0;
    for c in r.rate.captures_iter(msg) {
        let whole = c.get(0)?;
        // The thread count's own digits are never a speed.
        if whole.start() < span.end && span.start < whole.end() {
            continue;
        }
        let before = &msg[from..whole.start()];
        from = whole.end();
        let Some(v) = num(&c["num"]).filter(|v| *v > 0.0) else {
            continue;
        };
        let tok_s = if c.name("ms").is_some() {
            1000.0 / v
        } else {
            v
        };
        if r.total.is_match(before) {
            continue;
        }
        if r.prefill.is_match(before) {
            speeds.push((Ph::Prefill, tok_s));
        } else {
            unlabelled.push(tok_s);
        }
    }
    // Several unlabelled speeds on one line (a range, or pp and tg unnamed) say no one phase.
    if let [one] = unlabelled[..] {
        speeds.push((Ph::Decode, one));
    }
    (!speeds.is_empty()).then_some((threads, speeds))
}

pub struct SweepProse {
    framework: Framework,
    rows: Vec<Row>,
}

impl SweepProse {
    pub fn new(fw: Option<Framework>) -> Self {
        SweepProse {
            framework: fw.unwrap_or(Framework::Unknown),
            rows: Vec::new(),
        }
    }

    fn flush(&mut self, runs: &mut RunCollector) {
        let rows = std::mem::take(&mut self.rows);
        let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
            return;
        };
        let counts: BTreeSet<u32> = rows.iter().map(|r| r.threads).collect();
        let mut run = Run {
            framework: Some(self.framework),
            line_start: Some(first.line),
            line_end: Some(last.line),
            ..Run::default()
        };
        if counts.len() >= 2 {
            for r in &rows {
                for (ph, tok_s) in &r.speeds {
                    run.bench.push(BenchRow {
                        test: match ph {
                            Ph::Prefill => "pp".into(),
                            Ph::Decode => "tg".into(),
                        },
                        tok_s: *tok_s,
                        stddev: None,
                        n_threads: Some(r.threads),
                    });
                }
            }
        } else {
            // One setting (said once, or repeated): its last figures stand.
            run.n_threads = Some(first.threads);
            for r in &rows {
                for (ph, tok_s) in &r.speeds {
                    let phase = Some(Phase {
                        tok_s: Some(*tok_s),
                        ..Phase::default()
                    });
                    match ph {
                        Ph::Prefill => run.prefill = phase,
                        Ph::Decode => run.decode = phase,
                    }
                }
            }
        }
        runs.push(run);
    }
}

impl FrameworkParser for SweepProse {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        // A framework parser read this line: its reading stands.
        if runs.last_line == Some(at) {
            return;
        }
        let Some((threads, speeds)) = read(msg) else {
            return;
        };
        if self
            .rows
            .last()
            .is_some_and(|r| at.saturating_sub(r.line) > MAX_GAP)
        {
            self.flush(runs);
        }
        if self.rows.len() < MAX_ROWS {
            self.rows.push(Row {
                line: at,
                threads,
                speeds,
            });
        }
        // Read here, so the generic timings reader does not read the same speed again.
        runs.claim(at);
    }

    fn finish(&mut self, runs: &mut RunCollector) {
        self.flush(runs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speeds(msg: &str) -> Option<(u32, Vec<(Ph, f64)>)> {
        read(msg)
    }

    #[test]
    fn the_forms_users_type() {
        let d = |t: u32, v: f64| Some((t, vec![(Ph::Decode, v)]));
        assert_eq!(speeds("6 threads: 5.7 tokens/sec"), d(6, 5.7));
        assert_eq!(speeds("-t 4 => 12.1 t/s"), d(4, 12.1));
        assert_eq!(speeds("with 8 threads I get 0.27 tok/s"), d(8, 0.27));
        assert_eq!(speeds("--threads 16: 80 ms/token"), d(16, 12.5));
        assert_eq!(speeds("threads=2 -> 3.5 tokens per second"), d(2, 3.5));
        assert_eq!(speeds("4 线程：12 tok/s"), d(4, 12.0));
        assert_eq!(speeds("线程数 8，速度 0.3 tok/s"), d(8, 0.3));
        assert_eq!(
            speeds("8 threads: prompt 45.2 t/s, generation 6.1 t/s"),
            Some((8, vec![(Ph::Prefill, 45.2), (Ph::Decode, 6.1)]))
        );
    }

    #[test]
    fn what_is_not_a_sweep_line() {
        assert_eq!(speeds("system_info: n_threads = 8 / 16 | AVX = 1 |"), None);
        assert_eq!(speeds("./main -m model.gguf -t 8 -n 128"), None);
        assert_eq!(speeds("| 8 | 12.1 t/s |"), None);
        assert_eq!(speeds("8 threads: total 40 tok/s"), None);
        // Two unnamed speeds: which is the decode's is not said.
        assert_eq!(speeds("8 threads: 40 t/s and 6 t/s"), None);
        assert_eq!(speeds("threads: many, 12 tok/s"), None);
        assert_eq!(
            speeds("8 threads: prompt 41 t/s, 32 threads: prompt 118 t/s"),
            None
        );
    }

    fn runs_of(text: &str) -> Vec<Run> {
        let mut p = SweepProse::new(None);
        let mut runs = RunCollector::new("x");
        for (i, l) in text.lines().enumerate() {
            p.line(l, i as u64 + 1, &mut runs);
        }
        p.finish(&mut runs);
        runs.finish().runs
    }

    #[test]
    fn near_lines_are_one_sweep_and_a_far_one_is_its_own_run() {
        let runs = runs_of(
            "Intel 10700, Win10\n6 threads: 5.7 tokens/sec\n\n14 threads: 6.2 tokens/sec\n\
             a\nb\nc\nd\nlater, with 4 threads I get 5.1 tok/s\n",
        );
        assert_eq!(runs.len(), 2, "{runs:?}");
        let sweep: Vec<(Option<u32>, f64)> = runs[0]
            .bench
            .iter()
            .map(|b| (b.n_threads, b.tok_s))
            .collect();
        assert_eq!(sweep, [(Some(6), 5.7), (Some(14), 6.2)]);
        assert_eq!((runs[0].line_start, runs[0].line_end), (Some(2), Some(4)));
        assert_eq!(runs[1].n_threads, Some(4));
        assert_eq!(runs[1].decode.as_ref().and_then(|d| d.tok_s), Some(5.1));
    }

    #[test]
    fn garbage_never_panics() {
        for l in [
            "",
            "thread",
            "-t ",
            "999999 threads 1e400 tok/s",
            "线程：：",
            "-t 0 0 t/s",
        ] {
            let _ = read(l);
        }
        assert_eq!(read("0 threads: 5 tok/s"), None);
    }
}

//! Framework parsers: one module per framework, each reading its own lines (already unwrapped
//! from logcat, glog and paste artefacts) into [`Run`] facts through a shared [`RunCollector`].
//!
//! Every parser sees every line: logs mix frameworks (an ExecuTorch app with a QNN backend, a
//! llama.cpp app that also logs through TFLite), and the sniffer's guess is only a guess. Each
//! parser gates its patterns behind cheap substring checks.

pub mod bench_table;
pub mod executorch;
pub mod genie;
pub mod json_block;
pub mod llama_cpp;
pub mod mediapipe;
pub mod mlc_llm;
pub mod mnn;
pub mod ncnn;
pub mod onnxruntime;
pub mod runs;
pub mod tflite;

use crate::evidence::Run;
use crate::sniff::Framework;
use json_block::{Doc, JsonBlock};
use runs::RunCollector;
use std::borrow::Cow;

/// One framework's reader.
pub trait FrameworkParser {
    /// One unwrapped message, with markdown emphasis removed.
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector);
    /// A JSON document embedded in the log.
    fn doc(&mut self, _doc: &Doc, _runs: &mut RunCollector) {}
}

/// Every framework parser over one input.
pub struct Frameworks {
    parsers: Vec<Box<dyn FrameworkParser>>,
    json: JsonBlock,
    runs: RunCollector,
}

impl Frameworks {
    pub fn new(input: &str) -> Self {
        Frameworks {
            parsers: vec![
                Box::new(llama_cpp::LlamaCpp::default()),
                Box::new(mnn::Mnn::default()),
                Box::new(mlc_llm::MlcLlm::default()),
                Box::new(onnxruntime::OnnxRuntime::default()),
                Box::new(tflite::Tflite::default()),
                Box::new(mediapipe::Mediapipe),
                Box::new(executorch::Executorch::default()),
                Box::new(genie::Genie),
                Box::new(ncnn::Ncnn),
            ],
            json: JsonBlock::default(),
            runs: RunCollector::new(input),
        }
    }

    pub fn line(&mut self, message: &str, at: u64) {
        // `load time =    **7684.08 ms**`: users bold the numbers they care about.
        let msg: Cow<str> = if message.contains("**") {
            Cow::Owned(message.replace("**", ""))
        } else {
            Cow::Borrowed(message)
        };
        for p in &mut self.parsers {
            p.line(&msg, at, &mut self.runs);
        }
        if let Some(doc) = self.json.line(&msg, at) {
            for p in &mut self.parsers {
                p.doc(&doc, &mut self.runs);
            }
        }
    }

    /// The runs found, each completed by its framework's last decisions.
    pub fn finish(self) -> Vec<Run> {
        let mut runs = self.runs.finish();
        for r in &mut runs {
            finalize(r);
        }
        runs
    }
}

fn finalize(run: &mut Run) {
    if run.framework == Some(Framework::LlamaCpp) {
        llama_cpp::finalize(run);
    }
}

/// `re.captures(text)`, but only after the cheaper `is_match` says there is one: most lines
/// match none of a parser's patterns, and building captures for a miss dominates the cost.
pub fn cap<'t>(re: &regex::Regex, text: &'t str) -> Option<regex::Captures<'t>> {
    if re.is_match(text) {
        re.captures(text)
    } else {
        None
    }
}

/// A pattern matching any of `words` literally: a parser's first, cheap check that a line can
/// concern it at all (most lines of a log concern no parser).
pub fn literal_gate(words: &[&str]) -> regex::Regex {
    let alternation: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
    regex::Regex::new(&alternation.join("|")).expect("escaped literals compile")
}

/// [`cap`] behind a cheaper condition (a substring the pattern needs).
pub fn cap_if<'t>(cond: bool, re: &regex::Regex, text: &'t str) -> Option<regex::Captures<'t>> {
    if cond {
        cap(re, text)
    } else {
        None
    }
}

//! Framework parsers: one module per framework, each reading its own lines (already unwrapped
//! from logcat, glog and paste artefacts) into [`Run`] facts through a shared [`RunCollector`].
//!
//! Every parser sees every line that may concern any of them: logs mix frameworks (an
//! ExecuTorch app with a QNN backend, a llama.cpp app that also logs through TFLite), and the
//! sniffer's guess is only a guess. Each parser declares the literals its lines contain
//! ([`PARSERS`]); the log parser skips, in one pass, the lines that contain none of any parser's
//! (most lines of a real capture), and each parser gates its own patterns on its own literals.

pub mod bench_table;
pub mod executorch;
pub mod generic_timings;
pub mod genie;
pub mod ggml_metal;
pub mod json_block;
pub mod koboldcpp;
pub mod llama_cpp;
pub mod mediapipe;
pub mod mlc_llm;
pub mod mlx_lm;
pub mod mnn;
pub mod ncnn;
pub mod ollama;
pub mod onnxruntime;
pub mod runs;
pub mod sweep_prose;
pub mod sweep_table;
pub mod system_info;
pub mod tflite;
pub mod whisper_cpp;

use crate::evidence::Framework;
use crate::evidence::Run;
use json_block::{Doc, JsonBlock};
use runs::RunCollector;
use std::borrow::Cow;

/// The parsers, in the order they see a line (the order matters: they share one
/// [`RunCollector`]), each with the literals at least one of which every line it reads contains.
/// Table rows (`|`, tab) and llama-bench's CSV header count as literals of the parsers that read
/// tables, and ExecuTorch's observer line as ExecuTorch's; a message that opens an embedded JSON
/// document goes to every parser (see [`Frameworks::line`]).
pub const PARSERS: &[Spec] = &[
    Spec {
        keywords: &[llama_cpp::KEYWORDS, TABLE_ROWS, &["build_commit,"]],
        make: |_| Box::new(llama_cpp::LlamaCpp::default()),
    },
    Spec {
        keywords: &[ollama::KEYWORDS],
        make: |_| Box::new(ollama::Ollama::default()),
    },
    Spec {
        keywords: &[mnn::KEYWORDS, TABLE_ROWS],
        make: |_| Box::new(mnn::Mnn::default()),
    },
    Spec {
        keywords: &[mlc_llm::KEYWORDS],
        make: |_| Box::new(mlc_llm::MlcLlm::default()),
    },
    Spec {
        keywords: &[onnxruntime::KEYWORDS],
        make: |_| Box::new(onnxruntime::OnnxRuntime::default()),
    },
    Spec {
        keywords: &[tflite::KEYWORDS],
        make: |_| Box::new(tflite::Tflite::default()),
    },
    Spec {
        keywords: &[mediapipe::KEYWORDS],
        make: |_| Box::new(mediapipe::Mediapipe),
    },
    Spec {
        keywords: &[executorch::KEYWORDS, &["PyTorchObserver"]],
        make: |_| Box::new(executorch::Executorch::default()),
    },
    Spec {
        keywords: &[genie::KEYWORDS],
        make: |_| Box::new(genie::Genie),
    },
    Spec {
        keywords: &[ncnn::KEYWORDS],
        make: |_| Box::new(ncnn::Ncnn),
    },
    Spec {
        keywords: &[whisper_cpp::KEYWORDS],
        make: |_| Box::new(whisper_cpp::WhisperCpp),
    },
    Spec {
        keywords: &[koboldcpp::KEYWORDS],
        make: |_| Box::new(koboldcpp::Koboldcpp),
    },
    Spec {
        keywords: &[mlx_lm::KEYWORDS],
        make: |_| Box::new(mlx_lm::MlxLm::default()),
    },
    // After the framework tables (llama-bench's and llm_bench's stay theirs), before the
    // generic reader: the rows of a typed sweep are claimed so it does not read them again.
    Spec {
        keywords: &[sweep_table::KEYWORDS, TABLE_ROWS],
        make: |fw| Box::new(sweep_table::SweepTable::new(fw)),
    },
    // The same sweeps typed as prose lines, also before the generic reader, which would read a
    // line's speed without its thread count.
    Spec {
        keywords: &[sweep_prose::KEYWORDS],
        make: |fw| Box::new(sweep_prose::SweepProse::new(fw)),
    },
    // Last: it reads only the lines that none of the above took.
    Spec {
        keywords: &[generic_timings::KEYWORDS],
        make: |fw| Box::new(generic_timings::GenericTimings::new(fw)),
    },
];

const TABLE_ROWS: &[&str] = &["|", "\t"];

/// One parser: its literals and its constructor.
pub struct Spec {
    pub keywords: &'static [&'static [&'static str]],
    /// Built with the framework the sniffer found (the generic timings reader's runs take it).
    pub make: fn(Option<Framework>) -> Box<dyn FrameworkParser>,
}

/// Which parsers may read a line: bit `i` stands for `PARSERS[i]`.
pub type ParserMask = u32;

/// Every parser.
pub const ALL_PARSERS: ParserMask = (1 << PARSERS.len()) - 1;

/// One framework's reader.
pub trait FrameworkParser {
    /// One unwrapped message, with markdown emphasis removed.
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector);
    /// A JSON document embedded in the log.
    fn doc(&mut self, _doc: &Doc, _runs: &mut RunCollector) {}
    /// True while inside a block whose lines carry none of the [`PARSERS`]' keywords (a CSV table's rows).
    fn in_block(&self) -> bool {
        false
    }
    /// The input ended: a parser that holds lines back (a table's rows) gives them now.
    fn finish(&mut self, _runs: &mut RunCollector) {}
}

/// Every framework parser over one input.
pub struct Frameworks {
    parsers: Vec<Box<dyn FrameworkParser>>,
    json: JsonBlock,
    runs: RunCollector,
}

impl Frameworks {
    pub fn new(input: &str, sniffed: Option<Framework>) -> Self {
        Frameworks {
            parsers: PARSERS.iter().map(|p| (p.make)(sniffed)).collect(),
            json: JsonBlock::default(),
            runs: RunCollector::new(input),
        }
    }

    /// True while some parser must see every line, whatever it contains: inside an embedded
    /// JSON document or a table.
    pub fn in_block(&self) -> bool {
        self.json.active() || self.parsers.iter().any(|p| p.in_block())
    }

    /// True when `message` may open an embedded JSON document.
    pub fn may_open_block(message: &str) -> bool {
        message.trim_start().starts_with(['{', '[']) || message.contains("{\"")
    }

    /// Feeds one message to the parsers in `mask` (to all of them inside a block or when the
    /// message may open one).
    pub fn line(&mut self, message: &str, at: u64, mut mask: ParserMask) {
        if self.in_block() || Self::may_open_block(message) {
            mask = ALL_PARSERS;
        }
        // `load time =    **7684.08 ms**`: users bold the numbers they care about.
        let msg: Cow<str> = if message.contains("**") {
            Cow::Owned(message.replace("**", ""))
        } else {
            Cow::Borrowed(message)
        };
        // Inside an embedded JSON document the generic timings reader waits for the whole
        // document ([`FrameworkParser::doc`]): a parser reads it only when it closes.
        let was_in_json = self.json.active();
        let doc = self.json.line(&msg, at);
        let in_json = was_in_json || self.json.active() || doc.is_some();
        let generic = PARSERS.len() - 1;
        for (i, p) in self.parsers.iter_mut().enumerate() {
            if mask & (1 << i) != 0 && !(in_json && i == generic) {
                p.line(&msg, at, &mut self.runs);
            }
        }
        if let Some(doc) = doc {
            for p in &mut self.parsers {
                p.doc(&doc, &mut self.runs);
            }
        }
    }

    /// The runs found, each completed by its framework's last decisions.
    pub fn finish(mut self) -> runs::Collected {
        if let Some(doc) = self.json.salvage() {
            for p in &mut self.parsers {
                p.doc(&doc, &mut self.runs);
            }
        }
        for p in &mut self.parsers {
            p.finish(&mut self.runs);
        }
        let mut collected = self.runs.finish();
        for r in &mut collected.runs {
            finalize(r);
        }
        collected
    }
}

fn finalize(run: &mut Run) {
    if matches!(run.framework, Some(Framework::LlamaCpp | Framework::Ollama)) {
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

/// What the parsers make of a text, for the readers' own tests.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::evidence::Run;

    /// The runs of `text` read line by line, as the log reader hands them over (`unwrap`:
    /// through the wrapper layer first, as a pasted log arrives).
    pub fn runs(text: &str, unwrap: bool) -> Vec<Run> {
        let mut f = super::Frameworks::new("t", None);
        for (i, l) in text.lines().enumerate() {
            let l = if unwrap {
                crate::ingest::wrapper::unwrap(l).message
            } else {
                l
            };
            f.line(l, i as u64 + 1, super::ALL_PARSERS);
        }
        f.finish().runs
    }

    /// A run's (prefill, decode) tok/s.
    pub fn rates(r: &Run) -> (Option<f64>, Option<f64>) {
        (
            r.prefill.as_ref().and_then(|p| p.tok_s),
            r.decode.as_ref().and_then(|p| p.tok_s),
        )
    }
}

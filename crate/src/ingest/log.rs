//! Framework logs, whatever wraps them: every line is unwrapped, checked against the fallback
//! wording table, and handed to the framework parsers (`frameworks/`), which collect run facts.

use super::fallback_phrases;
use super::frameworks::Frameworks;
use super::lines::Line;
use super::wrapper;
use super::LineParser;
use crate::evidence::{Evidence, InputId, Occurrence};

pub struct LogParser {
    input: InputId,
    frameworks: Option<Frameworks>,
}

impl LogParser {
    pub fn new(input: InputId, name: &str) -> Self {
        LogParser {
            input,
            frameworks: Some(Frameworks::new(name)),
        }
    }
}

impl LineParser for LogParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        if wrapper::is_markdown_fence(line.text) {
            return;
        }
        let message = wrapper::unwrap(line.text).message;
        if message.is_empty() {
            return;
        }
        if let Some(f) = &mut self.frameworks {
            f.line(message, line.number);
        }
        // The keyword prefilter first: most lines cannot be fallbacks, and it is much cheaper
        // than the wording table.
        if !fallback_phrases::may_mention(message) {
            return;
        }
        if let Some(class) = fallback_phrases::classify(message) {
            ev.add_fallback(
                class,
                fallback_phrases::normalize(message),
                message,
                Occurrence {
                    input: self.input,
                    line: line.number,
                },
                line.text,
            );
        }
    }

    fn finish(&mut self, ev: &mut Evidence) {
        if let Some(f) = self.frameworks.take() {
            ev.runs.extend(f.finish());
        }
    }
}

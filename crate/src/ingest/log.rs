//! Framework logs, whatever wraps them: every line is unwrapped, then checked against the
//! fallback wording table. Framework-specific facts (runs, build features) come in their own
//! modules as they are added.

use super::fallback_phrases;
use super::lines::Line;
use super::wrapper;
use super::LineParser;
use crate::evidence::{Evidence, InputId, Occurrence};

pub struct LogParser {
    input: InputId,
}

impl LogParser {
    pub fn new(input: InputId) -> Self {
        LogParser { input }
    }
}

impl LineParser for LogParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        if !fallback_phrases::may_mention(line.text) || wrapper::is_markdown_fence(line.text) {
            return;
        }
        let message = wrapper::unwrap(line.text).message;
        if message.is_empty() {
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
}

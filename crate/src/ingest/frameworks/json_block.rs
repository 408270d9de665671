//! JSON documents embedded in a log, one line or many: llama-bench `-o json` / `-o jsonl`,
//! Genie `--profile` output, ExecuTorch's `PyTorchObserver {...}` line.
//!
//! A document starts on a line whose message begins with `{` or `[`, or after prose on the same
//! line when what follows is plainly JSON (`result: [{"build_commit": …`); lines are collected
//! while the brackets are open (strings and escapes respected), then parsed. A document larger
//! than [`MAX_JSON_BYTES`] or broken is dropped: the other lines still parse as text. An array
//! cut short (a paste that stops mid-object) still gives its complete elements
//! ([`JsonBlock::salvage`]).

/// Largest embedded document kept.
pub const MAX_JSON_BYTES: usize = 4 << 20;

#[derive(Debug, Default)]
pub struct JsonBlock {
    buf: String,
    depth: i64,
    in_string: bool,
    escape: bool,
    start: u64,
    active: bool,
    /// The top-level value is an array: the byte ranges in `buf` of its complete elements.
    array: bool,
    elements: Vec<(usize, usize)>,
    element_start: usize,
    last: u64,
}

/// A finished document and the lines it spanned.
pub struct Doc {
    pub value: serde_json::Value,
    pub line_start: u64,
    pub line_end: u64,
}

impl JsonBlock {
    /// True inside a document.
    pub fn active(&self) -> bool {
        self.active
    }

    /// Feeds one message. Returns a document when this line closes one.
    pub fn line(&mut self, msg: &str, at: u64) -> Option<Doc> {
        if !self.active {
            let t = msg.trim_start();
            let i = t.find(['{', '[']).filter(|&i| {
                i == 0 || t[..i].ends_with("PyTorchObserver ") || {
                    let body = &t[i..];
                    body.starts_with("{\"") || body.starts_with("[{\"")
                }
            })?;
            // A `[` only opens a document when what follows looks like JSON, not `[INFO]`.
            let body = &t[i..];
            if body.starts_with('[')
                && !matches!(
                    body[1..].trim_start().chars().next(),
                    None | Some('{' | '[' | '"' | ']' | '0'..='9' | '-')
                )
            {
                return None;
            }
            *self = JsonBlock {
                start: at,
                active: true,
                ..JsonBlock::default()
            };
            return self.feed(body, at);
        }
        self.feed(msg, at)
    }

    fn feed(&mut self, text: &str, at: u64) -> Option<Doc> {
        if self.buf.len() + text.len() > MAX_JSON_BYTES {
            *self = JsonBlock::default();
            return None;
        }
        self.last = at;
        let base = self.buf.len();
        for (i, c) in text.char_indices() {
            if self.in_string {
                if self.escape {
                    self.escape = false;
                } else if c == '\\' {
                    self.escape = true;
                } else if c == '"' {
                    self.in_string = false;
                }
                continue;
            }
            match c {
                '"' => self.in_string = true,
                '{' | '[' => {
                    if self.depth == 0 {
                        self.array = c == '[';
                    } else if self.depth == 1 && self.array {
                        self.element_start = base + i;
                    }
                    self.depth += 1;
                }
                '}' | ']' => {
                    self.depth -= 1;
                    if self.depth == 1 && self.array {
                        self.elements
                            .push((self.element_start, base + i + c.len_utf8()));
                    }
                    if self.depth == 0 {
                        self.buf.push_str(&text[..i + c.len_utf8()]);
                        let doc = serde_json::from_str(&self.buf).ok().map(|value| Doc {
                            value,
                            line_start: self.start,
                            line_end: at,
                        });
                        *self = JsonBlock::default();
                        return doc;
                    }
                }
                _ => {}
            }
        }
        self.buf.push_str(text);
        self.buf.push('\n');
        None
    }

    /// At the end of the input, a document still open: an array cut short gives the elements
    /// that closed (each parsed alone), anything else nothing.
    pub fn salvage(&mut self) -> Option<Doc> {
        let block = std::mem::take(self);
        if !block.active || !block.array {
            return None;
        }
        let items: Vec<serde_json::Value> = block
            .elements
            .iter()
            .filter_map(|&(a, b)| serde_json::from_str(block.buf.get(a..b)?).ok())
            .collect();
        (!items.is_empty()).then_some(Doc {
            value: serde_json::Value::Array(items),
            line_start: block.start,
            line_end: block.last,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_line_and_one_line_documents() {
        let mut j = JsonBlock::default();
        assert!(j.line("[", 1).is_none());
        assert!(j.line("  {\"avg_ts\": 12.5, \"s\": \"a}b\"}", 2).is_none());
        let d = j.line("]", 3).expect("doc");
        assert_eq!(d.value[0]["avg_ts"], 12.5);
        assert_eq!((d.line_start, d.line_end), (1, 3));
        let d = j
            .line("PyTorchObserver {\"prompt_tokens\":5}", 7)
            .expect("doc");
        assert_eq!(d.value["prompt_tokens"], 5);
        assert!(j.line("[INFO] starting", 8).is_none());
        assert!(j.line("{ broken", 9).is_none());
        assert!(j.line("}", 10).is_none(), "broken JSON is dropped");
    }

    #[test]
    fn prose_before_and_a_cut_array() {
        let mut j = JsonBlock::default();
        assert!(j
            .line("Here is what I got: [{\"avg_ts\": 3.5},", 4)
            .is_none());
        assert!(j.line("{\"avg_ts\": 7.25, \"n_gen\": 128},", 5).is_none());
        assert!(j
            .line("{\"avg_ts\": 9, \"samples_ts\": [9.1, 8.", 6)
            .is_none());
        let d = j.salvage().expect("complete elements");
        assert_eq!(d.value.as_array().map(Vec::len), Some(2));
        assert_eq!(d.value[1]["avg_ts"], 7.25);
        assert_eq!((d.line_start, d.line_end), (4, 6));
        assert!(j.salvage().is_none());
        // Prose with a bracket that is not JSON opens nothing.
        assert!(j.line("see [1] for details", 1).is_none());
        assert!(!j.active());
        assert!(j.line("{ \"a\": 1", 2).is_none());
        assert!(j.salvage().is_none(), "an object cut short gives nothing");
    }
}

//! Splits a byte stream that arrives in arbitrary chunks into numbered lines.
//!
//! Lines end at LF, CRLF or a lone CR (old Mac files, terminal progress output). Lines may cross
//! chunk boundaries, a CRLF too; a line longer than [`MAX_LINE_BYTES`] is cut there and the rest
//! of it is discarded (and counted), so one pathological line cannot exhaust memory.

use crate::evidence::{SkippedLines, MAX_QUOTE_CHARS};

/// Longest line kept, in bytes. Real log lines are far shorter; a longer one is garbage or a
/// minified blob, and keeping its head is enough to quote it.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input: its 1-based number and its text, without the line terminator.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    pub number: u64,
    pub text: &'a str,
}

/// Whether `line` (trimmed) is a shell prompt with the command that printed what follows, as
/// pasted sessions carry them: `pi@raspberrypi:~ $ cat /proc/cpuinfo`, `$ free -h`,
/// `# dmesg`, `user@host:~$ lscpu -e`. At most one word comes before the `$` or `#`.
pub fn is_shell_prompt(line: &str) -> bool {
    ["$ ", "# "].iter().any(|mark| {
        line.find(mark).is_some_and(|at| {
            let before = line[..at].trim_end();
            let after = &line[at + mark.len()..];
            !before.contains(char::is_whitespace)
                && line[..at].len() <= before.len() + 1
                && after.starts_with(|c: char| !c.is_whitespace())
        })
    })
}

/// Incremental splitter: feed chunks with [`LineSplitter::push`], then call
/// [`LineSplitter::finish`] for the last, unterminated line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    pending: Vec<u8>,
    /// The current line overflowed `MAX_LINE_BYTES`; drop bytes until its end.
    overflowing: bool,
    /// The previous chunk ended in CR: a LF starting this one belongs to that line break.
    after_cr: bool,
    lines_seen: u64,
    /// Lines that were cut at `MAX_LINE_BYTES`, with the head of the first few.
    pub cut: SkippedLines,
}

impl LineSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of lines emitted so far.
    pub fn lines(&self) -> u64 {
        self.lines_seen
    }

    /// Feeds one chunk and calls `on_line` for every line it completes.
    pub fn push(&mut self, mut chunk: &[u8], on_line: &mut dyn FnMut(Line<'_>)) {
        if chunk.is_empty() {
            return;
        }
        if self.after_cr && chunk.first() == Some(&b'\n') {
            chunk = &chunk[1..];
        }
        self.after_cr = false;
        // A line begun in an earlier chunk ends at the first terminator of this one.
        if !self.pending.is_empty() || self.overflowing {
            let Some(pos) = memchr::memchr2(b'\n', b'\r', chunk) else {
                self.append(chunk);
                return;
            };
            self.append(&chunk[..pos]);
            self.emit(on_line);
            let cr = chunk[pos] == b'\r';
            chunk = &chunk[pos + 1..];
            if cr {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
        }
        // The lines wholly inside the chunk, handed over without copying. Their UTF-8 is checked
        // in one pass over all of them: on short lines the check's set-up per call costs more
        // than the check itself.
        let body_end = memchr::memrchr2(b'\n', b'\r', chunk).map_or(0, |e| e + 1);
        let (body, tail) = chunk.split_at(body_end);
        let text = std::str::from_utf8(body).ok();
        let mut start = 0;
        while let Some(p) = memchr::memchr2(b'\n', b'\r', &body[start..]) {
            let end = start + p;
            let line = &body[start..end];
            if line.len() > MAX_LINE_BYTES {
                self.append(line);
                self.emit(on_line);
            } else {
                self.lines_seen += 1;
                // Terminators are ASCII, so the line's ends are char boundaries of `text`.
                match text.and_then(|t| t.get(start..end)) {
                    Some(text) => on_line(Line {
                        number: self.lines_seen,
                        text,
                    }),
                    None => emit_bytes(self.lines_seen, line, on_line),
                }
            }
            start = end + 1;
            if body[end] == b'\r' && body.get(start) == Some(&b'\n') {
                start += 1;
            }
        }
        // A CR ending the chunk: a LF starting the next one belongs to it.
        if tail.is_empty() && body.last() == Some(&b'\r') {
            self.after_cr = true;
        }
        self.append(tail);
    }

    /// Emits the final line if the input did not end with a newline.
    pub fn finish(&mut self, on_line: &mut dyn FnMut(Line<'_>)) {
        if !self.pending.is_empty() || self.overflowing {
            self.emit(on_line);
        }
    }

    fn append(&mut self, bytes: &[u8]) {
        if self.overflowing {
            return;
        }
        let room = MAX_LINE_BYTES - self.pending.len();
        if bytes.len() > room {
            self.pending.extend_from_slice(&bytes[..room]);
            self.overflowing = true;
            let head = &self.pending[..self.pending.len().min(MAX_QUOTE_CHARS)];
            self.cut
                .add(self.lines_seen + 1, &String::from_utf8_lossy(head));
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    fn emit(&mut self, on_line: &mut dyn FnMut(Line<'_>)) {
        self.lines_seen += 1;
        emit_bytes(self.lines_seen, &self.pending, on_line);
        self.pending.clear();
        self.overflowing = false;
    }
}

fn emit_bytes(number: u64, mut bytes: &[u8], on_line: &mut dyn FnMut(Line<'_>)) {
    if let [rest @ .., b'\r'] = bytes {
        bytes = rest;
    }
    // Valid UTF-8 (nearly every line) is checked by the fast validator; only broken lines pay
    // for the lossy conversion.
    match std::str::from_utf8(bytes) {
        Ok(text) => on_line(Line { number, text }),
        Err(_) => {
            let text = String::from_utf8_lossy(bytes);
            on_line(Line {
                number,
                text: &text,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_prompts() {
        for p in [
            "pi@raspberrypi:~ $ cat /proc/cpuinfo",
            "$ free -h",
            "# dmesg -T",
            "user@host:~$ lscpu -e",
            "console:/ # top -H -n 3",
        ] {
            assert!(is_shell_prompt(p), "{p}");
        }
        for t in [
            "Mem: 7.6Gi used $",
            "llama-cli 1234 [003] 123.456: sched:sched_switch: prev=a $ b",
            "$",
            "$  two spaces",
            "processor\t: 0",
        ] {
            assert!(!is_shell_prompt(t), "{t}");
        }
    }

    fn split_all(input: &[u8], chunk: usize) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let mut s = LineSplitter::new();
        let mut sink = |l: Line<'_>| out.push((l.number, l.text.to_string()));
        for c in input.chunks(chunk) {
            s.push(c, &mut sink);
        }
        s.finish(&mut sink);
        out
    }

    #[test]
    fn same_lines_whatever_the_chunk_size() {
        let text = b"alpha\r\nbeta\n\ngamma\rdelta\r\n\r\nlast without newline";
        let whole = split_all(text, text.len());
        assert_eq!(
            whole,
            vec![
                (1, "alpha".to_string()),
                (2, "beta".to_string()),
                (3, String::new()),
                (4, "gamma".to_string()),
                (5, "delta".to_string()),
                (6, String::new()),
                (7, "last without newline".to_string())
            ]
        );
        for size in 1..8 {
            assert_eq!(split_all(text, size), whole, "chunk size {size}");
        }
    }

    #[test]
    fn utf8_and_broken_bytes_split_the_same_at_every_chunk_size() {
        // Multi-byte characters cut by chunk edges, a line with an invalid byte among valid
        // ones (only that line is decoded lossily), CR, CRLF and a CR right before a chunk edge.
        let text = "温度 ok\r\nnaïve\n\u{1F600} emoji\rtail é\r\n".as_bytes();
        let mut input = text.to_vec();
        input.extend_from_slice(b"bad \xff byte\nafter\r");
        input.extend_from_slice(text);
        let whole = split_all(&input, input.len());
        assert_eq!(whole.len(), 10, "{whole:?}");
        assert_eq!(whole[0].1, "温度 ok");
        assert_eq!(whole[4].1, "bad \u{fffd} byte");
        assert_eq!(whole[5].1, "after");
        assert_eq!(whole[7].1, "naïve");
        for size in 1..=input.len() {
            assert_eq!(split_all(&input, size), whole, "chunk size {size}");
        }
    }

    #[test]
    fn overlong_line_is_cut_and_counted() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nnext\n");
        let mut s = LineSplitter::new();
        let mut lens = Vec::new();
        for c in text.chunks(1000) {
            s.push(c, &mut |l| lens.push(l.text.len()));
        }
        s.finish(&mut |l| lens.push(l.text.len()));
        assert_eq!(lens, vec![MAX_LINE_BYTES, 4]);
        assert_eq!(s.cut.count, 1);
        // The same when the long line lies wholly inside one chunk.
        let mut s = LineSplitter::new();
        let mut lens = Vec::new();
        s.push(&text, &mut |l| lens.push(l.text.len()));
        s.finish(&mut |l| lens.push(l.text.len()));
        assert_eq!(lens, vec![MAX_LINE_BYTES, 4]);
        assert_eq!(s.cut.count, 1);
    }
}

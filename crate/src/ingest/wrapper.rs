//! Strips the envelopes that framework messages arrive in: Android logcat in its several
//! layouts, glog prefixes, llama.cpp's `--log-timestamps` prefix, journald / syslog, the
//! `[pid]` and `[pid:tid]` prefixes, docker-compose and kubectl prefixes, Python `logging`,
//! and the quote markers, indents, HTML tags, terminal colours and source-string quotes of text
//! pasted from GitHub, a forum or a notebook.
//!
//! Parsers match on the bare message, so one pattern serves a framework whatever carried it.
//! The line number is never touched: a wrapper changes what a line says, not where it is.

use std::borrow::Cow;

/// What carried a line, when a known prefix was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    LogcatThreadtime,
    LogcatBrief,
    LogcatTime,
    AndroidStudioOld,
    AndroidStudioNew,
    AndroidStudioTimeOnly,
    Glog,
    LlamaTimestamps,
    /// ONNX Runtime's own `date time [L:onnxruntime:logger, file.cc:N Func] ` prefix.
    OnnxRuntime,
    /// A bare ISO date-time (optionally bracketed) and an optional level word.
    Timestamp,
    /// `May 01 12:00:00 host prog[123]: ` (journalctl's default and syslog's RFC 3164), or the
    /// same after an ISO date-time (`journalctl -o short-iso`, rsyslog's high-precision form).
    Journald,
    /// `[1234] ` or `[1234:5678] `: a process (and thread) id in brackets.
    ProcessId,
    /// `service-1  | ` (docker compose v2) or `project_service_1  | ` (v1).
    DockerCompose,
    /// `[pod/name/container] ` (`kubectl logs --prefix`).
    Kubectl,
    /// `INFO:root:` / `WARNING:__main__:` (Python `logging`'s default format).
    PythonLogging,
    /// `INFO: ` / `[WARN] `: a level word alone (uvicorn, many CLIs).
    Level,
    /// `[2024-05-20 13:45:12.123][INFO][LM STUDIO SERVER] ` (LM Studio's server and dev logs,
    /// with or without spaces between the brackets).
    LmStudio,
}

/// A line with its envelope removed.
#[derive(Debug, Clone, Copy)]
pub struct Unwrapped<'a> {
    pub message: &'a str,
    /// The log tag (logcat) or source file (glog), when the wrapper names one.
    pub tag: Option<&'a str>,
}

/// A cursor over a line's bytes. The wrappers are fixed shapes (digits, separators, a level
/// letter), so matching them by hand costs a few nanoseconds where a capturing regex per shape
/// cost most of a log's parse time. Only ASCII bytes are ever matched, so every position the
/// cursor stops at is a char boundary.
struct Cur<'a> {
    line: &'a str,
    s: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(line: &'a str) -> Self {
        Cur {
            line,
            s: line.as_bytes(),
            i: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn byte(&mut self, b: u8) -> Option<()> {
        (self.peek() == Some(b)).then(|| self.i += 1)
    }

    fn opt(&mut self, b: u8) -> bool {
        self.byte(b).is_some()
    }

    fn any_of(&mut self, set: &[u8]) -> Option<u8> {
        let b = self.peek().filter(|b| set.contains(b))?;
        self.i += 1;
        Some(b)
    }

    fn literal(&mut self, lit: &str) -> Option<()> {
        let end = self.i + lit.len();
        (self.s.get(self.i..end) == Some(lit.as_bytes())).then(|| self.i = end)
    }

    /// Bytes while `f` holds; how many.
    fn span(&mut self, f: impl Fn(u8) -> bool) -> usize {
        let start = self.i;
        while self.peek().is_some_and(&f) {
            self.i += 1;
        }
        self.i - start
    }

    fn span1(&mut self, f: impl Fn(u8) -> bool) -> Option<()> {
        (self.span(f) > 0).then_some(())
    }

    fn digits(&mut self, n: usize) -> Option<()> {
        let end = self.i + n;
        let all = self.s.get(self.i..end)?.iter().all(u8::is_ascii_digit);
        all.then(|| self.i = end)
    }

    fn digits1(&mut self) -> Option<()> {
        self.span1(|b| b.is_ascii_digit())
    }

    fn ws(&mut self) -> usize {
        self.span(is_space)
    }

    fn ws1(&mut self) -> Option<()> {
        (self.ws() > 0).then_some(())
    }

    /// Advances to the next byte in `stop` (not past it).
    fn until(&mut self, stop: &[u8]) -> Option<u8> {
        self.span(|b| !stop.contains(&b));
        self.peek()
    }

    fn text(&self, from: usize, to: usize) -> &'a str {
        // `from` and `to` sit next to ASCII bytes the cursor matched: char boundaries.
        self.line.get(from..to).unwrap_or("")
    }

    /// `MM-DD hh:mm:ss.mmm` (logcat) or `YYYY-MM-DD hh:mm:ss` (Android Studio).
    fn month_day_time_ms(&mut self) -> Option<()> {
        self.digits(2)?;
        self.byte(b'-')?;
        self.digits(2)?;
        self.byte(b' ')?;
        self.time_ms()
    }

    fn date(&mut self) -> Option<()> {
        self.digits(4)?;
        self.byte(b'-')?;
        self.digits(2)?;
        self.byte(b'-')?;
        self.digits(2)
    }

    fn time(&mut self) -> Option<()> {
        self.digits(2)?;
        self.byte(b':')?;
        self.digits(2)?;
        self.byte(b':')?;
        self.digits(2)
    }

    fn time_ms(&mut self) -> Option<()> {
        self.time()?;
        self.byte(b'.')?;
        self.digits(3)
    }

    /// `pid-tid`
    fn pid_tid(&mut self) -> Option<()> {
        self.digits1()?;
        self.byte(b'-')?;
        self.digits1()
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r' | b'\n')
}

const LEVELS: &[u8] = b"VDIWEFA";

/// A match: the tag's bounds (if the shape has one) and where the message starts.
type Found = (Option<(usize, usize)>, usize);

/// A shape's matcher.
type Shape = fn(&mut Cur) -> Option<Found>;

/// `MM-DD hh:mm:ss.mmm  pid  tid L tag: ` (`adb logcat -v threadtime`)
fn logcat_threadtime(c: &mut Cur) -> Option<Found> {
    c.month_day_time_ms()?;
    c.ws1()?;
    c.digits1()?;
    c.ws1()?;
    c.digits1()?;
    c.byte(b' ')?;
    c.any_of(LEVELS)?;
    c.byte(b' ')?;
    let tag = c.i;
    c.until(b":")?;
    let tag_end = c.i;
    c.i += 1;
    c.opt(b' ');
    Some((Some((tag, tag_end)), c.i))
}

/// `tag( pid): ` or `tag: ` after `L/` (brief and time layouts).
fn slash_tag_tail(c: &mut Cur) -> Option<Found> {
    let tag = c.i;
    let stop = c.until(b":(")?;
    if c.i == tag {
        return None;
    }
    let tag_end = c.i;
    if stop == b'(' {
        c.i += 1;
        c.ws();
        c.digits1()?;
        c.byte(b')')?;
    }
    c.byte(b':')?;
    c.opt(b' ');
    Some((Some((tag, tag_end)), c.i))
}

/// `MM-DD hh:mm:ss.mmm L/tag( pid): ` (`adb logcat -v time`)
fn logcat_time(c: &mut Cur) -> Option<Found> {
    c.month_day_time_ms()?;
    c.byte(b' ')?;
    c.any_of(LEVELS)?;
    c.byte(b'/')?;
    slash_tag_tail(c)
}

/// `L/tag( pid): ` (`adb logcat -v brief`)
fn logcat_brief(c: &mut Cur) -> Option<Found> {
    c.any_of(LEVELS)?;
    c.byte(b'/')?;
    slash_tag_tail(c)
}

/// `YYYY-MM-DD hh:mm:ss.mmm pid-tid/package L/tag: ` (Android Studio before Dolphin)
fn studio_old(c: &mut Cur) -> Option<Found> {
    c.date()?;
    c.byte(b' ')?;
    c.time_ms()?;
    c.byte(b' ')?;
    c.pid_tid()?;
    c.byte(b'/')?;
    c.span1(|b| !is_space(b))?;
    c.byte(b' ')?;
    c.any_of(LEVELS)?;
    c.byte(b'/')?;
    let tag = c.i;
    c.until(b":")?;
    if c.i == tag {
        return None;
    }
    let tag_end = c.i;
    c.i += 1;
    c.opt(b' ');
    Some((Some((tag, tag_end)), c.i))
}

/// `YYYY-MM-DD hh:mm:ss.mmm  pid-tid  tag  package  L  ` (Android Studio Dolphin and later)
fn studio_new(c: &mut Cur) -> Option<Found> {
    c.date()?;
    c.byte(b' ')?;
    c.time_ms()?;
    c.ws1()?;
    c.pid_tid()?;
    c.ws1()?;
    let tag = c.i;
    c.span1(|b| !is_space(b))?;
    let tag_end = c.i;
    c.ws1()?;
    c.span1(|b| !is_space(b))?;
    c.ws1()?;
    c.any_of(LEVELS)?;
    c.ws1()?;
    Some((Some((tag, tag_end)), c.i))
}

/// `hh:mm:ss.mmm  L  ` (Android Studio, time-only column)
fn studio_time_only(c: &mut Cur) -> Option<Found> {
    c.time_ms()?;
    c.ws1()?;
    c.any_of(LEVELS)?;
    c.ws1()?;
    Some((None, c.i))
}

/// `0.00.359.020 I ` (llama.cpp `--log-timestamps`)
fn llama_timestamps(c: &mut Cur) -> Option<Found> {
    c.digits1()?;
    c.byte(b'.')?;
    c.digits(2)?;
    c.byte(b'.')?;
    c.digits(3)?;
    c.byte(b'.')?;
    c.digits(3)?;
    c.byte(b' ')?;
    c.any_of(b"IWED")?;
    c.byte(b' ')?;
    Some((None, c.i))
}

/// `I0725 08:31:06.174139    1280 file.cc:186] ` (glog / absl)
fn glog(c: &mut Cur) -> Option<Found> {
    c.any_of(b"IWEF")?;
    c.digits(4)?;
    c.byte(b' ')?;
    c.digits(2)?;
    c.byte(b':')?;
    c.digits(2)?;
    c.byte(b':')?;
    c.span1(|b| b.is_ascii_digit() || b == b'.')?;
    c.ws1()?;
    c.digits1()?;
    c.byte(b' ')?;
    let tag = c.i;
    c.span1(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b >= 0x80)?;
    let tag_end = c.i;
    c.byte(b':')?;
    c.digits1()?;
    c.literal("] ")?;
    Some((Some((tag, tag_end)), c.i))
}

/// `[date time ][L:onnxruntime:logger, file.cc:N Func] `
fn onnxruntime(c: &mut Cur) -> Option<Found> {
    let start = c.i;
    let dated = (|| {
        c.date()?;
        c.byte(b' ')?;
        c.time()?;
        c.byte(b'.')?;
        c.digits1()?;
        c.byte(b' ')
    })();
    if dated.is_none() {
        c.i = start;
    }
    c.byte(b'[')?;
    c.any_of(b"VIWEF")?;
    c.literal(":onnxruntime:")?;
    if c.until(b",]")? != b',' {
        return None;
    }
    c.i += 1;
    c.ws();
    let tag = c.i;
    c.until(b"]")?;
    let tag_end = c.i;
    c.i += 1;
    c.ws();
    Some((Some((tag, tag_end)), c.i))
}

/// `[2025-06-02 18:20:11.5+08:00] INFO  ` and the like: an ISO date-time, then maybe a level.
fn timestamp(c: &mut Cur) -> Option<Found> {
    c.opt(b'[');
    c.date()?;
    c.any_of(b" T")?;
    c.time()?;
    if matches!(c.peek(), Some(b'.' | b',')) {
        c.i += 1;
        c.digits1()?;
    }
    match c.peek() {
        Some(b'Z') => c.i += 1,
        Some(b'+' | b'-') => {
            c.i += 1;
            c.digits(2)?;
            c.opt(b':');
            c.digits(2)?;
        }
        _ => {}
    }
    c.opt(b']');
    c.ws1()?;
    let before_level = c.i;
    if level_word(c).is_none() {
        c.i = before_level;
    }
    Some((None, c.i))
}

/// `[INFO] `, `WARNING `, `E `: a level word and the space after it.
fn level_word(c: &mut Cur) -> Option<()> {
    c.opt(b'[');
    let at = c.i;
    for word in [
        "TRACE", "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "FATAL",
    ] {
        c.i = at;
        if c.literal(word).is_some() && level_end(c).is_some() {
            return Some(());
        }
    }
    c.i = at;
    c.any_of(b"VDIWEF")?;
    level_end(c)
}

fn level_end(c: &mut Cur) -> Option<()> {
    c.opt(b']');
    c.ws1()
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `host prog[pid]: ` after a journald / syslog time stamp; the program is the tag.
fn host_program(c: &mut Cur) -> Option<Found> {
    c.ws1()?;
    c.span1(|b| !is_space(b) && b != b':')?;
    c.byte(b' ')?;
    let tag = c.i;
    c.span1(|b| !is_space(b) && !matches!(b, b'[' | b':' | b']'))?;
    let tag_end = c.i;
    if c.opt(b'[') {
        c.digits1()?;
        c.byte(b']')?;
    }
    c.byte(b':')?;
    c.ws();
    Some((Some((tag, tag_end)), c.i))
}

/// `May 01 12:00:00 host ollama[123]: ` or `2024-05-01T12:00:00+0000 host ollama[123]: `.
fn journald(c: &mut Cur) -> Option<Found> {
    if c.peek()?.is_ascii_digit() {
        c.date()?;
        c.byte(b'T')?;
        c.time()?;
        if c.opt(b'.') || c.opt(b',') {
            c.digits1()?;
        }
        match c.peek() {
            Some(b'Z') => c.i += 1,
            Some(b'+' | b'-') => {
                c.i += 1;
                c.digits(2)?;
                c.opt(b':');
                c.digits(2)?;
            }
            _ => {}
        }
    } else {
        let month = c.s.get(c.i..c.i + 3)?;
        if !MONTHS.iter().any(|m| m.as_bytes() == month) {
            return None;
        }
        c.i += 3;
        c.ws1()?;
        c.digits1()?;
        c.byte(b' ')?;
        c.time()?;
        if c.opt(b'.') {
            c.digits1()?;
        }
    }
    host_program(c)
}

/// `[1234] ` / `[1234:5678] `
fn process_id(c: &mut Cur) -> Option<Found> {
    c.byte(b'[')?;
    c.digits1()?;
    if c.opt(b':') {
        c.digits1()?;
    }
    c.byte(b']')?;
    c.ws1()?;
    Some((None, c.i))
}

/// `service-1  | ` / `project_service_1  | `: compose names a container by its service and a
/// replica number, so the name ends in `-N` or `_N`.
fn docker_compose(c: &mut Cur) -> Option<Found> {
    let tag = c.i;
    c.span1(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))?;
    let tag_end = c.i;
    let name = &c.s[tag..tag_end];
    let digits = name.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits == name.len() || !matches!(name[name.len() - digits - 1], b'-' | b'_')
    {
        return None;
    }
    c.ws1()?;
    c.byte(b'|')?;
    c.opt(b' ');
    Some((Some((tag, tag_end)), c.i))
}

/// `[pod/name/container] `
fn kubectl(c: &mut Cur) -> Option<Found> {
    c.literal("[pod/")?;
    let tag = c.i;
    c.span1(|b| !is_space(b) && b != b']')?;
    let tag_end = c.i;
    c.byte(b']')?;
    c.ws1()?;
    Some((Some((tag, tag_end)), c.i))
}

const PY_LEVELS: &[&str] = &["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];

/// `INFO:root:` — Python `logging.basicConfig`'s `%(levelname)s:%(name)s:%(message)s`.
fn python_logging(c: &mut Cur) -> Option<Found> {
    let at = c.i;
    let word = PY_LEVELS
        .iter()
        .find(|w| c.s.get(at..at + w.len()) == Some(w.as_bytes()))?;
    c.i += word.len();
    c.byte(b':')?;
    let tag = c.i;
    c.span1(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))?;
    let tag_end = c.i;
    c.byte(b':')?;
    c.opt(b' ');
    Some((Some((tag, tag_end)), c.i))
}

/// `INFO: `, `[WARN] `: a whole level word alone, then space.
fn level_only(c: &mut Cur) -> Option<Found> {
    let bracket = c.opt(b'[');
    let at = c.i;
    for word in [
        "TRACE", "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "FATAL", "CRITICAL",
    ] {
        c.i = at;
        if c.literal(word).is_none() {
            continue;
        }
        c.byte(if bracket { b']' } else { b':' })?;
        c.ws1()?;
        return Some((None, c.i));
    }
    None
}

/// `[date time][LEVEL][LM STUDIO SERVER] `
fn lm_studio(c: &mut Cur) -> Option<Found> {
    c.byte(b'[')?;
    c.date()?;
    c.byte(b' ')?;
    c.time()?;
    if c.opt(b'.') {
        c.digits1()?;
    }
    c.byte(b']')?;
    c.ws();
    c.byte(b'[')?;
    let at = c.i;
    let level = ["DEBUG", "INFO", "WARNING", "WARN", "ERROR"]
        .into_iter()
        .find(|w| c.s.get(at..at + w.len()) == Some(w.as_bytes()))?;
    c.i += level.len();
    c.byte(b']')?;
    c.ws();
    if c.literal("[LM STUDIO SERVER]").is_some() {
        c.ws();
    }
    Some((None, c.i))
}

/// The shapes, tried in this order (the first that matches wins: an Android Studio line would
/// also pass as a bare timestamp).
const SHAPES: &[(Wrapper, Shape)] = &[
    (Wrapper::LogcatThreadtime, logcat_threadtime),
    (Wrapper::LogcatTime, logcat_time),
    (Wrapper::AndroidStudioOld, studio_old),
    (Wrapper::AndroidStudioNew, studio_new),
    (Wrapper::LogcatBrief, logcat_brief),
    (Wrapper::AndroidStudioTimeOnly, studio_time_only),
    (Wrapper::LlamaTimestamps, llama_timestamps),
    (Wrapper::Glog, glog),
    (Wrapper::OnnxRuntime, onnxruntime),
    (Wrapper::Journald, journald),
    (Wrapper::LmStudio, lm_studio),
    (Wrapper::Timestamp, timestamp),
    (Wrapper::ProcessId, process_id),
    (Wrapper::Kubectl, kubectl),
    (Wrapper::PythonLogging, python_logging),
    (Wrapper::Level, level_only),
    (Wrapper::DockerCompose, docker_compose),
];

/// Removes paste artefacts (`> ` quote markers, 4-space or tab indents, HTML tags, the quotes of
/// a source string), then at most three nested wrappers (a docker-compose line can carry a
/// timestamped line that carries a `[pid]`).
pub fn unwrap(line: &str) -> Unwrapped<'_> {
    let mut message = strip_paste(line);
    let mut tag = None;
    for _ in 0..3 {
        let Some((_, t, rest)) = strip_one(message) else {
            break;
        };
        tag = tag.or(t);
        // Aligned producers (`       eval time = …`) pad after the prefix as before it.
        message = rest.trim_start_matches([' ', '\t']);
    }
    Unwrapped { message, tag }
}

fn strip_paste(mut line: &str) -> &str {
    while let Some(rest) = line.strip_prefix('>') {
        line = rest.strip_prefix(' ').unwrap_or(rest);
    }
    let mut line = line
        .trim_start_matches([' ', '\t'])
        .trim_end_matches([' ', '\t']);
    // `<pre>log line` / `<code>` / `line</pre>`, pasted into a forum post as HTML.
    for tag in ["<pre>", "<code>"] {
        if let Some(rest) = line.strip_prefix(tag) {
            line = rest;
        }
    }
    for tag in ["</pre>", "</code>", "<br>", "<br/>"] {
        if let Some(rest) = line.strip_suffix(tag) {
            line = rest;
        }
    }
    strip_source_string(line).trim_start_matches([' ', '\t'])
}

/// A log pasted into source code: `log = """first line`, `last line"""`, or one string per
/// line, `"llama_print_timings: ... \n",`.
fn strip_source_string(line: &str) -> &str {
    let mut line = line;
    for q in ["\"\"\"", "\x27\x27\x27"] {
        let trimmed = line.trim_end_matches([')', ',', ';', ' ']);
        if let Some(rest) = trimmed.strip_suffix(q) {
            line = rest;
        }
        if let Some(i) = line.find(q) {
            line = &line[i + q.len()..];
        }
    }
    if line.starts_with('"') {
        let body = line.trim_end_matches([',', ' ']);
        if let Some(inner) = body.strip_suffix("\\n\"") {
            return &inner[1..];
        }
    }
    line
}

/// Removes what a terminal or a web page adds to a line's text: ANSI colour and cursor codes
/// (kept when a coloured console is copied or `script` recorded it) and the HTML entities of a
/// page's `<pre>` block. Borrowed when there is nothing to remove (nearly every line).
pub fn clean(line: &str) -> Cow<'_, str> {
    if !line.contains(['\x1b', '&']) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(['\x1b', '&']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("\x1b[") {
            // CSI: parameters and intermediates, then one final byte in @..~.
            let end = after
                .bytes()
                .position(|b| (0x40..=0x7e).contains(&b))
                .map_or(after.len(), |p| p + 1);
            rest = &after[end..];
        } else if let Some(after) = tail.strip_prefix("\x1b]") {
            // OSC (window titles, hyperlinks): up to BEL or ST.
            let end = after
                .find('\x07')
                .map(|p| p + 1)
                .or_else(|| after.find("\x1b\\").map(|p| p + 2))
                .unwrap_or(after.len());
            rest = &after[end..];
        } else if let Some(after) = tail.strip_prefix('\x1b') {
            rest = after;
        } else {
            let entity = [
                ("&gt;", ">"),
                ("&lt;", "<"),
                ("&amp;", "&"),
                ("&quot;", "\""),
                ("&#39;", "'"),
                ("&nbsp;", " "),
            ]
            .into_iter()
            .find(|(e, _)| tail.starts_with(e));
            let (text, len) = entity.map_or(("&", 1), |(e, r)| (r, e.len()));
            out.push_str(text);
            rest = &tail[len..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

fn strip_one(message: &str) -> Option<(Wrapper, Option<&str>, &str)> {
    // A cheap gate: every wrapper starts with a digit, a letter or a bracket.
    let first = message.as_bytes().first()?;
    if !(first.is_ascii_alphanumeric() || *first == b'[') {
        return None;
    }
    for (w, shape) in SHAPES {
        let mut c = Cur::new(message);
        if let Some((tag, end)) = shape(&mut c) {
            let tag = tag.map(|(a, b)| c.text(a, b).trim());
            let rest = c.text(end, c.s.len());
            if accepts(*w, rest) {
                return Some((*w, tag, rest));
            }
        }
    }
    None
}

/// A second look at what a loose shape would leave. `name-1 | 4.2 | pp512 | ...` is a
/// headerless table row, not a compose prefix: a compose line's message does not go on as a
/// row of numbers (its own `|`s are llama.cpp's `slot ... | task 0 |` or system_info flags).
fn accepts(w: Wrapper, rest: &str) -> bool {
    match w {
        Wrapper::DockerCompose => {
            let first = rest.split('|').next().unwrap_or("").trim();
            let numeric = !first.is_empty()
                && first
                    .bytes()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b' ' | b'-'));
            !(numeric && rest.contains('|'))
        }
        _ => true,
    }
}

/// True for the fence lines of a markdown code block, which carry no content.
pub fn is_markdown_fence(line: &str) -> bool {
    strip_paste(line).starts_with("```")
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    /// The shapes as regexes: the specification the hand-written matchers were written from,
    /// kept as the oracle they are checked against.
    fn oracle() -> Vec<(Wrapper, Regex)> {
        [
            (Wrapper::LogcatThreadtime, r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEFA] (?P<tag>[^:]*?)\s*: ?"),
            (Wrapper::LogcatTime, r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [VDIWEFA]/(?P<tag>[^:(]+?)\s*(?:\(\s*\d+\))?: ?"),
            (Wrapper::AndroidStudioOld, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+-\d+/\S+ [VDIWEFA]/(?P<tag>[^:]+): ?"),
            (Wrapper::AndroidStudioNew, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+-\d+\s+(?P<tag>\S+)\s+\S+\s+[VDIWEFA]\s+"),
            (Wrapper::LogcatBrief, r"^[VDIWEFA]/(?P<tag>[^:(]+?)\s*(?:\(\s*\d+\))?: ?"),
            (Wrapper::AndroidStudioTimeOnly, r"^\d\d:\d\d:\d\d\.\d{3}\s+[VDIWEFA]\s+"),
            (Wrapper::LlamaTimestamps, r"^\d+\.\d\d\.\d{3}\.\d{3} [IWED] "),
            (Wrapper::Glog, r"^[IWEF]\d{4} \d\d:\d\d:[\d.]+\s+\d+ (?P<tag>[\w.]+):\d+\] "),
            (Wrapper::OnnxRuntime, r"^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ )?\[[VIWEF]:onnxruntime:[^,\]]*,\s*(?P<tag>[^\]]*)\]\s*"),
            (Wrapper::Journald, r"^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d+ \d\d:\d\d:\d\d(?:\.\d+)?)\s+[^\s:]+ (?P<tag>[^\s\[:\]]+)(?:\[\d+\])?:\s*"),
            (Wrapper::LmStudio, r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\]\s*\[(?:DEBUG|INFO|WARNING|WARN|ERROR)\]\s*(?:\[LM STUDIO SERVER\]\s*)?"),
            (Wrapper::Timestamp, r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s+(?:\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|[VDIWEF])\]?\s+)?"),
            (Wrapper::ProcessId, r"^\[\d+(?::\d+)?\]\s+"),
            (Wrapper::Kubectl, r"^\[pod/(?P<tag>[^\s\]]+)\]\s+"),
            (Wrapper::PythonLogging, r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):(?P<tag>[0-9A-Za-z_.-]+): ?"),
            (Wrapper::Level, r"^(?:\[(?:TRACE|DEBUG|INFO|WARNING|WARN|ERROR|FATAL|CRITICAL)\]|(?:TRACE|DEBUG|INFO|WARNING|WARN|ERROR|FATAL|CRITICAL):)\s+"),
            (Wrapper::DockerCompose, r"^(?P<tag>[0-9A-Za-z_.-]*[-_]\d+)\s+\| ?"),
        ]
        .into_iter()
        // The matchers take digits and spaces to be ASCII, and any non-ASCII char as a word char.
        .map(|(w, re)| {
            let re = re
                .replace(r"[\w.]", r"[0-9A-Za-z_.\x{80}-\x{10FFFF}]")
                .replace(r"\d", "[0-9]")
                .replace(r"\s", r"[\t\n\x0B\x0C\r ]")
                .replace(r"\S", r"[^\t\n\x0B\x0C\r ]");
            (w, Regex::new(&re).unwrap())
        })
        .collect()
    }

    fn by_oracle<'a>(
        oracle: &[(Wrapper, Regex)],
        message: &'a str,
    ) -> Option<(Wrapper, Option<&'a str>, &'a str)> {
        let first = message.as_bytes().first()?;
        if !(first.is_ascii_alphanumeric() || *first == b'[') {
            return None;
        }
        oracle.iter().find_map(|(w, re)| {
            let c = re.captures(message)?;
            let end = c.get(0)?.end();
            if !accepts(*w, &message[end..]) {
                return None;
            }
            Some((
                *w,
                c.name("tag").map(|m| m.as_str().trim()),
                &message[end..],
            ))
        })
    }

    /// Every line of every sample, and mutations of each wrapper's shape, unwrap exactly as the
    /// regexes say.
    #[test]
    fn matches_the_regex_oracle() {
        let oracle = oracle();
        let mut lines: Vec<String> = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../samples"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    lines.extend(text.lines().map(|l| strip_paste(l).to_string()));
                }
            }
        }
        assert!(lines.len() > 1000, "samples found: {}", lines.len());
        let seeds = [
            "09-13 15:41:08.460 31938  5505 I llama-android.cpp: msg",
            "09-13 15:41:08.460 31938  5505 I tag with spaces   :msg",
            "09-13 15:41:08.460 31938  5505 I : empty tag",
            "01-02 03:04:05.678 W/MNN     ( 1234): Not registered type 35",
            "01-02 03:04:05.678 W/MNN(1234):x",
            "01-02 03:04:05.678 W/MNN (abc): x",
            "2022-06-23 22:29:14.326 4381-4381/com.x E/tflite: msg",
            "2024-04-09 18:25:38.304  3468-3678  native  com.example  A  F0000 00:00:1712658338.304137 3678 x.cc:263] m",
            "E/tflite: msg", "W/ncnn    (32156): [0 Mali]", "E/ : x", "E/(12): x",
            "12:01:02.345  I  msg", "0.00.359.020 I system_info: x", "10.11.359.020 W x",
            "I0000 00:00:1721895466.174139    1280 llm_inference_engine.cc:186] Session",
            "2025-02-11 09:12:40.9901118 [W:onnxruntime:, session_state.cc:1169 Verify] Some",
            "[E:onnxruntime:Default, x.cc:1 F]   msg", "[E:onnxruntime:Default] msg",
            "[2025-06-02 18:20:11] INFO  engine: x", "2025-06-02T18:20:11.5+08:00 WARNING x",
            "2025-06-02T18:20:11Z [WARN] x", "2025-06-02 18:20:11,123 E x", "2025-06-02 18:20:11 Info x",
            "2025-06-02 18:20:11-0700 x", "2025-06-02 18:20:11WARN x", "[2025-06-02 18:20:11]  [ERROR]  x",
            "May 01 12:00:00 host ollama[123]: msg", "Dec  1 09:10:11.123456 box llama-server: x",
            "2024-05-01T12:00:00+0000 host ollama[123]: msg", "2024-05-01T12:00:00.5Z h a: b",
            "[1234] llama_print_timings: x", "[1234:5678] msg", "[pod/llama-0/server] x",
            "INFO:root:msg", "WARNING:__main__: x", "INFO:     127.0.0.1", "[WARN] x", "ERROR: x",
            "llama-server-1  | msg", "proj_svc_12 |x", "svc-1  | | model | size |", "x-1 | 4 | pp512 |",
            "llama-1  | slot print_timing: id  0 | task 0 |", "q-1 | 3.5 GiB | 7 B |",
            "[2024-05-20 13:45:12.123][INFO][LM STUDIO SERVER] x", "[2024-05-20 13:45:12] [DEBUG] llama_model_loader: x",
            "[2024-05-20 13:45:12.5] [WARNING]x",
        ];
        for seed in seeds {
            for cut in 0..=seed.len() {
                lines.push(seed[..cut].to_string());
                let mut b = seed.as_bytes().to_vec();
                if cut < b.len() {
                    for repl in [b' ', b'x', b'1', b':', b'(', b']'] {
                        b[cut] = repl;
                        lines.push(String::from_utf8_lossy(&b).into_owned());
                    }
                }
            }
        }
        for line in &lines {
            assert_eq!(strip_one(line), by_oracle(&oracle, line), "{line:?}");
        }
    }

    #[test]
    fn strips_each_wrapper() {
        let cases = [
            ("09-13 15:41:08.460 31938  5505 I llama-android.cpp: llama_model_loader: - type q5_0:  140 tensors",
             Wrapper::LogcatThreadtime, "llama_model_loader: - type q5_0:  140 tensors"),
            ("E/tflite: Next operations are not supported by GPU delegate:",
             Wrapper::LogcatBrief, "Next operations are not supported by GPU delegate:"),
            ("W/ncnn    (32156): [0 Mali-G720 MC8]  fp16-p/s/u/a=1/1/1/1",
             Wrapper::LogcatBrief, "[0 Mali-G720 MC8]  fp16-p/s/u/a=1/1/1/1"),
            ("01-02 03:04:05.678 W/MNN     ( 1234): Not registered type 35",
             Wrapper::LogcatTime, "Not registered type 35"),
            ("2022-06-23 22:29:14.326 4381-4381/com.naver.papago.artranslator E/tflite: Following operations are not supported by GPU delegate:",
             Wrapper::AndroidStudioOld, "Following operations are not supported by GPU delegate:"),
            ("0.00.359.020 I system_info: n_threads = 8",
             Wrapper::LlamaTimestamps, "system_info: n_threads = 8"),
            ("I0000 00:00:1721895466.174139    1280 llm_inference_engine.cc:186] Session config: backend: 1",
             Wrapper::Glog, "Session config: backend: 1"),
            ("2025-02-11 09:12:40.9901118 [W:onnxruntime:, session_state.cc:1169 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned",
             Wrapper::OnnxRuntime, "Some nodes were not assigned"),
            ("[2025-06-02 18:20:11] INFO  engine: fallback: none",
             Wrapper::Timestamp, "engine: fallback: none"),
        ];
        for (line, wrapper, message) in cases {
            let outer = strip_one(strip_paste(line)).map(|(w, ..)| w);
            assert_eq!(outer, Some(wrapper), "{line}");
            assert_eq!(unwrap(line).message, message, "{line}");
        }
    }

    #[test]
    fn nested_studio_and_glog() {
        let line = "2024-04-09 18:25:38.304  3468-3678  native  com.example.scigemma  A  F0000 00:00:1712658338.304137 3678 llm_inference_engine_cpu.cc:263] RET_CHECK failure";
        let u = unwrap(line);
        assert_eq!(
            strip_one(line).map(|(w, ..)| w),
            Some(Wrapper::AndroidStudioNew)
        );
        assert_eq!(u.tag, Some("native"));
        assert_eq!(u.message, "RET_CHECK failure");
    }

    #[test]
    fn paste_markers_and_plain_text() {
        assert_eq!(
            unwrap(">     llama_perf_context_print: load time").message,
            "llama_perf_context_print: load time"
        );
        assert!(strip_one("Hello world").is_none());
        assert_eq!(unwrap("Hello world").message, "Hello world");
        assert!(is_markdown_fence("> ```text"));
    }
}

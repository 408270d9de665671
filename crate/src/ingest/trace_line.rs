//! The event header line shared by `perf script`, simpleperf `report_sample.py` and ftrace text:
//!
//! ```text
//! perf:       comm [pid/]tid [cpu] time: [period] event: [ip sym (dso) | tracepoint payload]
//! simpleperf: comm<TAB>tid [cpu] time:<TAB><TAB>period event:
//! ftrace:     comm-tid [(tgid)] [cpu] [flags] time: event: payload
//! ```
//!
//! Every field but the time is optional in some `-F` layout, thread names may hold spaces and
//! digits (`FS Broker 5858  5791/5860`), and columns are padded with spaces or tabs. The time
//! token (`123.456789:`) anchors the parse: the thread is read leftwards from it, the event
//! rightwards. Hand-written (no regex): this runs once per sample of multi-gigabyte traces.

/// Which layout the thread part had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `comm tid` or `comm pid/tid` (perf, simpleperf).
    Perf,
    /// `comm-tid` (ftrace, trace-cmd, systrace).
    Ftrace,
}

/// One parsed event header.
#[derive(Debug, Clone, PartialEq)]
pub struct Head<'a> {
    pub comm: &'a str,
    pub pid: Option<u32>,
    pub tid: u32,
    pub cpu: Option<u32>,
    /// Seconds, as printed (since boot for most clocks).
    pub time: f64,
    /// Event name without the trailing colon: `cpu-clock:pppH`, `sched:sched_switch`, `sched_switch`.
    pub event: &'a str,
    /// What follows the event name, trimmed: a tracepoint payload, or `ip sym (dso)`.
    pub rest: &'a str,
    pub style: Style,
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Finds the time token: digits, '.', digits, ':' followed by whitespace or the end.
/// Returns (start, end) of the token without the colon.
fn find_time(line: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    let n = line.len();
    while i < n {
        // Find a colon whose token before it looks like a timestamp.
        let colon = i + memchr::memchr(b':', &line[i..])?;
        let after_ok = colon + 1 == n || is_ws(line[colon + 1]);
        if after_ok && colon > 0 {
            let mut s = colon;
            let mut dot = false;
            while s > 0 && (line[s - 1].is_ascii_digit() || (line[s - 1] == b'.' && !dot)) {
                if line[s - 1] == b'.' {
                    dot = true;
                }
                s -= 1;
            }
            let boundary = s == 0 || is_ws(line[s - 1]);
            if dot && boundary && colon - s >= 3 && line[s] != b'.' && line[colon - 1] != b'.' {
                return Some((s, colon));
            }
        }
        i = colon + 1;
    }
    None
}

fn parse_u32(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses an event header line; `None` if the line is not one.
pub fn parse(line: &str) -> Option<Head<'_>> {
    let bytes = line.as_bytes();
    let (ts, te) = find_time(bytes)?;
    let time: f64 = line[ts..te].parse().ok()?;
    let left = line[..ts].trim_end_matches([' ', '\t']);
    let (comm, pid, tid, cpu, style) = parse_task(left)?;
    let (event, rest) = parse_event(&line[te + 1..])?;
    Some(Head {
        comm,
        pid,
        tid,
        cpu,
        time,
        event,
        rest,
        style,
    })
}

type Task<'a> = (&'a str, Option<u32>, u32, Option<u32>, Style);

/// The part left of the time: `comm [pid/]tid [cpu]` or `comm-tid [(tgid)] [cpu] [flags]`.
fn parse_task(left: &str) -> Option<Task<'_>> {
    let mut rest = left;
    // ftrace irq/preempt flags after the CPU: 4 or 5 chars of [.dDnNhHsSbX0-9].
    if let Some(pos) = rest.rfind([' ', '\t']) {
        let last = &rest[pos + 1..];
        if (4..=6).contains(&last.len())
            && !last.starts_with('[')
            && last
                .bytes()
                .all(|b| b".dDnNhHsSbXzZpP0123456789".contains(&b))
            && rest[..pos].trim_end().ends_with(']')
        {
            rest = rest[..pos].trim_end();
        }
    }
    let mut cpu = None;
    if rest.ends_with(']') {
        let open = rest.rfind('[')?;
        cpu = Some(parse_u32(rest[open + 1..rest.len() - 1].trim())?);
        rest = rest[..open].trim_end();
    }
    // systrace TGID column: "(  959)" or "(-----)".
    if rest.ends_with(')') {
        if let Some(open) = rest.rfind('(') {
            let inner = rest[open + 1..rest.len() - 1].trim();
            if inner.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                rest = rest[..open].trim_end();
            }
        }
    }
    let rest = rest.trim_start();
    if rest.is_empty() {
        return None;
    }
    // perf: the last whitespace-separated token is `tid` or `pid/tid`.
    let (head, last) = match rest.rfind([' ', '\t']) {
        Some(p) => (rest[..p].trim_end(), &rest[p + 1..]),
        None => ("", rest),
    };
    if let Some((p, t)) = last.split_once('/') {
        if let (Some(p), Some(t)) = (parse_u32(p), parse_u32(t)) {
            return Some((head, Some(p), t, cpu, Style::Perf));
        }
    }
    if let Some(t) = parse_u32(last) {
        // `comm tid`, or a bare `tid` (-F tid,...).
        return Some((head, None, t, cpu, Style::Perf));
    }
    // ftrace: `comm-tid`, the comm may hold spaces and dashes.
    let dash = rest.rfind('-')?;
    let tid = parse_u32(&rest[dash + 1..])?;
    Some((&rest[..dash], None, tid, cpu, Style::Ftrace))
}

/// The part right of the time: `[period] event: rest`.
fn parse_event(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start_matches([' ', '\t']);
    let (mut tok, mut rest) = split_token(s);
    if !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit()) {
        // The period (sample weight).
        (tok, rest) = split_token(rest);
    }
    if tok.is_empty() {
        // `-F comm,tid,time` alone: a sample without an event name.
        return Some(("", ""));
    }
    let event = tok.strip_suffix(':')?;
    Some((event, rest.trim_matches([' ', '\t'])))
}

fn split_token(s: &str) -> (&str, &str) {
    let s = s.trim_start_matches([' ', '\t']);
    match s.find([' ', '\t']) {
        Some(p) => (&s[..p], &s[p..]),
        None => (s, ""),
    }
}

/// Byte classes for [`is_frame`]: 1 space or tab, 2 hex digit (decimal digits are hex too).
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b' ' as usize] = 1;
    t[b'\t' as usize] = 1;
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = 2;
        c += 1;
    }
    let mut c = b'a';
    while c <= b'f' {
        t[c as usize] = 2;
        t[(c - 32) as usize] = 2;
        c += 1;
    }
    t
};

/// A callchain or other detail line under a sample: indented, first token a hex address.
/// Table-driven: this runs on most lines of a trace with callchains.
pub fn is_frame(line: &str) -> bool {
    let b = line.as_bytes();
    let Some(start) = b.iter().position(|&c| CLASS[c as usize] != 1) else {
        return false;
    };
    if start == 0 {
        return false;
    }
    let rest = &b[start..];
    let end = rest
        .iter()
        .position(|&c| CLASS[c as usize] != 2)
        .unwrap_or(rest.len());
    if end == 0 || (end < rest.len() && CLASS[rest[end] as usize] != 1) {
        return false;
    }
    // perf right-aligns the thread name, so a header of a thread named like a hex word
    // (`     add 123 [000] ...`) is indented too: there the next token is the tid.
    let after = &rest[end..];
    let next = after
        .iter()
        .position(|&c| CLASS[c as usize] != 1)
        .unwrap_or(after.len());
    let tok = &after[next..];
    let tok_end = tok
        .iter()
        .position(|&c| !(c.is_ascii_digit() || c == b'/'))
        .unwrap_or(tok.len());
    let tid_like = tok_end > 0 && (tok_end == tok.len() || CLASS[tok[tok_end] as usize] == 1);
    !tid_like
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_layouts() {
        let h = parse("swapper     0 [003] 203265.377022:    1001001 cpu-clock: ").unwrap();
        assert_eq!(
            (h.comm, h.tid, h.cpu, h.event),
            ("swapper", 0, Some(3), "cpu-clock")
        );
        let h = parse("FS Broker 5858  5791/5860 2574592.9: 1 cycles:uppp: ").unwrap();
        assert_eq!((h.comm, h.pid, h.tid), ("FS Broker 5858", Some(5791), 5860));
        let h = parse("simple-terminat     9/9     198791.127353: cpu-clock: ").unwrap();
        assert_eq!((h.tid, h.cpu, h.event), (9, None, "cpu-clock"));
        let h = parse("Gecko\t25122 [007] 115539.936601:\t\t1000000 task-clock:u:").unwrap();
        assert_eq!(
            (h.comm, h.tid, h.cpu, h.event),
            ("Gecko", 25122, Some(7), "task-clock:u")
        );
        let h = parse(
            "llama-cli  8123/8130 [004] 5123.000100: sched:sched_switch: prev_comm=a prev_pid=1",
        )
        .unwrap();
        assert_eq!(h.event, "sched:sched_switch");
        assert_eq!(h.rest, "prev_comm=a prev_pid=1");
        let h = parse("ggml 91 [1] 12.5: 250000 cpu-clock:  7f00 ggml_vec_dot (/lib.so)").unwrap();
        assert_eq!((h.cpu, h.rest), (Some(1), "7f00 ggml_vec_dot (/lib.so)"));
    }

    #[test]
    fn ftrace_layouts() {
        let h =
            parse("kworker/u17:1-959   (  959) [006] d..3   538.064659: sched_switch: prev_comm=x")
                .unwrap();
        assert_eq!(
            (h.comm, h.tid, h.cpu, h.style),
            ("kworker/u17:1", 959, Some(6), Style::Ftrace)
        );
        let h = parse("   rs:main Q:Reg-238   [003] 162534.217965: sched_switch:         a:1 [120] S ==> b:2 [120]").unwrap();
        assert_eq!(
            (h.comm, h.tid, h.event),
            ("rs:main Q:Reg", 238, "sched_switch")
        );
        let h = parse(
            "          <idle>-0     (-----) [006] dnh3   538.064931: sched_wakeup: comm=x pid=1",
        )
        .unwrap();
        assert_eq!((h.comm, h.tid), ("<idle>", 0));
        assert!(parse("just some words: here").is_none());
        assert!(parse("").is_none());
    }

    #[test]
    fn frames() {
        assert!(is_frame(
            "\t ffffffffad14d115 [unknown] ([kernel.kallsyms])"
        ));
        assert!(is_frame(
            "        b3cea6c4\tLock::unlock() (/system/lib/libc.so)"
        ));
        assert!(!is_frame("ffff sym"));
        assert!(!is_frame("   comm-12 [001] 1.5: x:"));
        assert!(!is_frame(
            "             dad 26758 [000]  1905.089909: cpu-clock:"
        ));
        assert!(!is_frame(
            "             dad 26758/26758 1905.089909: cpu-clock:"
        ));
    }
}

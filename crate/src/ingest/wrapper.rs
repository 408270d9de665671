//! Strips the envelopes that framework messages arrive in: Android logcat in its several
//! layouts, glog prefixes, llama.cpp's `--log-timestamps` prefix, and the quote markers and
//! indents of text pasted from GitHub or a notebook.
//!
//! Parsers match on the bare message, so one pattern serves a framework whatever carried it.

use regex::Regex;
use std::sync::OnceLock;

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
}

/// A line with its envelope removed.
#[derive(Debug, Clone, Copy)]
pub struct Unwrapped<'a> {
    pub message: &'a str,
    pub wrapper: Option<Wrapper>,
    /// The log tag (logcat) or source file (glog), when the wrapper names one.
    pub tag: Option<&'a str>,
}

struct Patterns {
    table: Vec<(Wrapper, Regex)>,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        // Each pattern captures the tag (if any) as `tag`; the message is what follows the match.
        let table = [
            (
                Wrapper::LogcatThreadtime,
                r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ [VDIWEFA] (?P<tag>[^:]*?)\s*: ?",
            ),
            (
                Wrapper::LogcatTime,
                r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [VDIWEFA]/(?P<tag>[^:(]+?)\s*(?:\(\s*\d+\))?: ?",
            ),
            (
                Wrapper::AndroidStudioOld,
                r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+-\d+/\S+ [VDIWEFA]/(?P<tag>[^:]+): ?",
            ),
            (
                Wrapper::AndroidStudioNew,
                r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+-\d+\s+(?P<tag>\S+)\s+\S+\s+[VDIWEFA]\s+",
            ),
            (
                Wrapper::LogcatBrief,
                r"^[VDIWEFA]/(?P<tag>[^:(]+?)\s*(?:\(\s*\d+\))?: ?",
            ),
            (
                Wrapper::AndroidStudioTimeOnly,
                r"^\d\d:\d\d:\d\d\.\d{3}\s+[VDIWEFA]\s+",
            ),
            (Wrapper::LlamaTimestamps, r"^\d+\.\d\d\.\d{3}\.\d{3} [IWED] "),
            (
                Wrapper::Glog,
                r"^[IWEF]\d{4} \d\d:\d\d:[\d.]+\s+\d+ (?P<tag>[\w.]+):\d+\] ",
            ),
            (
                Wrapper::OnnxRuntime,
                r"^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ )?\[[VIWEF]:onnxruntime:[^,\]]*,\s*(?P<tag>[^\]]*)\]\s*",
            ),
            (
                Wrapper::Timestamp,
                r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s+(?:\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|[VDIWEF])\]?\s+)?",
            ),
        ];
        Patterns {
            table: table
                .into_iter()
                .map(|(w, re)| (w, Regex::new(re).expect("wrapper pattern compiles")))
                .collect(),
        }
    })
}

/// Removes paste artefacts (`> ` quote markers, 4-space or tab indents), then at most two
/// nested wrappers (an app's logcat line can carry a glog line).
pub fn unwrap(line: &str) -> Unwrapped<'_> {
    let mut message = strip_paste(line);
    let mut wrapper = None;
    let mut tag = None;
    for _ in 0..2 {
        let Some((w, t, rest)) = strip_one(message) else {
            break;
        };
        wrapper = wrapper.or(Some(w));
        tag = tag.or(t);
        message = rest;
    }
    Unwrapped {
        message,
        wrapper,
        tag,
    }
}

fn strip_paste(mut line: &str) -> &str {
    while let Some(rest) = line.strip_prefix('>') {
        line = rest.strip_prefix(' ').unwrap_or(rest);
    }
    line.trim_start_matches([' ', '\t'])
        .trim_end_matches([' ', '\t'])
}

fn strip_one(message: &str) -> Option<(Wrapper, Option<&str>, &str)> {
    // A cheap gate: every wrapper starts with a digit, an uppercase level letter or a bracket.
    let first = message.as_bytes().first()?;
    if !(first.is_ascii_digit() || first.is_ascii_uppercase() || *first == b'[') {
        return None;
    }
    for (w, re) in &patterns().table {
        if let Some(c) = re.captures(message) {
            let end = c.get(0).map_or(0, |m| m.end());
            let tag = c.name("tag").map(|m| m.as_str().trim());
            return Some((*w, tag, &message[end..]));
        }
    }
    None
}

/// True for the fence lines of a markdown code block, which carry no content.
pub fn is_markdown_fence(line: &str) -> bool {
    strip_paste(line).starts_with("```")
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let u = unwrap(line);
            assert_eq!(u.wrapper, Some(wrapper), "{line}");
            assert_eq!(u.message, message, "{line}");
        }
    }

    #[test]
    fn nested_studio_and_glog() {
        let line = "2024-04-09 18:25:38.304  3468-3678  native  com.example.scigemma  A  F0000 00:00:1712658338.304137 3678 llm_inference_engine_cpu.cc:263] RET_CHECK failure";
        let u = unwrap(line);
        assert_eq!(u.wrapper, Some(Wrapper::AndroidStudioNew));
        assert_eq!(u.tag, Some("native"));
        assert_eq!(u.message, "RET_CHECK failure");
    }

    #[test]
    fn paste_markers_and_plain_text() {
        assert_eq!(
            unwrap(">     llama_perf_context_print: load time").message,
            "llama_perf_context_print: load time"
        );
        let plain = unwrap("Hello world");
        assert_eq!(plain.wrapper, None);
        assert_eq!(plain.message, "Hello world");
        assert!(is_markdown_fence("> ```text"));
    }
}

//! Ingest: from the bytes of one input, in chunks, to records in the [`Evidence`] store.
//!
//! [`InputReader`] buffers the first bytes until the sniffer can decide the kind, then splits
//! the stream into lines and hands each to the parser for that kind. Parsers never decide
//! findings; they only record what the text says.

pub mod fallback_phrases;
pub mod lines;
pub mod log;
pub mod perf_data;
pub mod trace;
pub mod trace_line;
pub mod tracepoints;
pub mod wrapper;

use crate::evidence::{Evidence, InputId, ProblemCode};
use crate::sniff::{self, InputKind, SNIFF_BYTES};
use lines::{Line, LineSplitter};

/// A parser of one input kind, fed line by line.
pub trait LineParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence);
    fn finish(&mut self, _ev: &mut Evidence) {}
}

/// Kinds that this build recognizes but does not analyze yet: lines are counted only.
struct CountOnly;

impl LineParser for CountOnly {
    fn line(&mut self, _line: Line<'_>, _ev: &mut Evidence) {}
}

enum Stage {
    /// Collecting the first bytes for the sniffer.
    Sniffing(Vec<u8>),
    Parsing(Box<dyn LineParser>),
    /// A binary perf.data: bytes are collected, then read at the end.
    Binary(perf_data::PerfDataReader),
    /// Rejected or finished: further bytes are only counted.
    Done,
}

/// Reads one input incrementally.
pub struct InputReader {
    id: InputId,
    splitter: LineSplitter,
    stage: Stage,
}

impl InputReader {
    pub fn new(id: InputId) -> Self {
        InputReader {
            id,
            splitter: LineSplitter::new(),
            stage: Stage::Sniffing(Vec::new()),
        }
    }

    pub fn push(&mut self, chunk: &[u8], ev: &mut Evidence) {
        ev.inputs[self.id].bytes += chunk.len() as u64;
        match &mut self.stage {
            Stage::Sniffing(head) => {
                head.extend_from_slice(chunk);
                if head.len() >= SNIFF_BYTES {
                    let head = std::mem::take(head);
                    self.start(&head, ev);
                }
            }
            Stage::Parsing(_) => self.feed(chunk, ev),
            Stage::Binary(reader) => reader.push(chunk),
            Stage::Done => {}
        }
    }

    pub fn finish(mut self, ev: &mut Evidence) {
        if let Stage::Sniffing(head) = &mut self.stage {
            let head = std::mem::take(head);
            self.start(&head, ev);
        }
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Parsing(mut parser) => {
                self.splitter.finish(&mut |l| parser.line(l, ev));
                parser.finish(ev);
            }
            Stage::Binary(reader) => reader.finish(ev),
            _ => {}
        }
        let facts = &mut ev.inputs[self.id];
        facts.lines = self.splitter.lines();
        if self.splitter.truncated_lines > 0 {
            ev.problem(self.id, ProblemCode::LongLinesCut, None);
        }
    }

    fn start(&mut self, head: &[u8], ev: &mut Evidence) {
        let sniffed = sniff::sniff(&head[..head.len().min(SNIFF_BYTES)]);
        let facts = &mut ev.inputs[self.id];
        facts.kind = Some(sniffed.kind.clone());
        facts.framework = sniffed.framework;
        if let Some(r) = sniffed.rejection {
            ev.problem(self.id, ProblemCode::Rejected(r), None);
            self.stage = Stage::Done;
            return;
        }
        if sniffed.kind == InputKind::PerfData {
            let mut reader = perf_data::PerfDataReader::new(self.id);
            reader.push(head);
            self.stage = Stage::Binary(reader);
            return;
        }
        let parser: Box<dyn LineParser> = match sniffed.kind {
            InputKind::Log => {
                if sniffed.framework.is_none() {
                    ev.problem(self.id, ProblemCode::UnknownLog, None);
                }
                Box::new(log::LogParser::new(self.id))
            }
            InputKind::Trace => Box::new(trace::TraceParser::new(self.id)),
            InputKind::Csv => {
                ev.problem(self.id, ProblemCode::KindNotAnalyzed, None);
                Box::new(CountOnly)
            }
            InputKind::Unsupported | InputKind::PerfData => Box::new(CountOnly),
        };
        self.stage = Stage::Parsing(parser);
        self.feed(head, ev);
    }

    fn feed(&mut self, chunk: &[u8], ev: &mut Evidence) {
        if let Stage::Parsing(parser) = &mut self.stage {
            self.splitter.push(chunk, &mut |l| parser.line(l, ev));
        }
    }
}

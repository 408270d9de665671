//! Ingest: from the bytes of one input, in chunks, to records in the [`Evidence`] store.
//!
//! [`InputReader`] buffers the first bytes until the sniffer can decide the kind, then splits
//! the stream into lines and hands each to the parser for that kind. Parsers never decide
//! findings; they only record what the text says.

pub mod bundle;
#[cfg(test)]
mod census_tests;
pub mod cpu_limits;
pub mod cpu_mhz;
pub mod decode;
pub mod delegate_partition;
pub mod delimited;
pub mod failure_phrases;
pub mod fallback_phrases;
pub mod frameworks;
pub mod kernel_log;
pub mod lines;
pub mod log;
pub mod lscpu;
pub mod max_freq_list;
pub mod op_profile;
pub mod perf_data;
pub mod perf_stat;
pub mod prose_facts;
pub mod sched_timehist;
pub mod snapshot;
pub mod sniff;
pub mod telemetry;
pub mod trace;
pub mod trace_line;
pub mod tracepoints;
pub mod wrapper;

use crate::evidence::{Evidence, InputId, InputKind, ProblemCode, TextEncoding};
use decode::{Gunzip, InflateError, Transcoder};
use lines::{Line, LineSplitter};
use sniff::SNIFF_BYTES;

/// A parser of one input kind, fed line by line.
pub trait LineParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence);
    fn finish(&mut self, _ev: &mut Evidence) {}
}

enum Stage {
    /// Collecting the first (inflated) bytes for the sniffer.
    Sniffing(Vec<u8>),
    Parsing {
        transcoder: Transcoder,
        parser: Box<dyn LineParser>,
    },
    /// A binary perf.data: bytes are collected, then read at the end.
    Binary(perf_data::PerfDataReader),
    /// Rejected: further bytes are only counted.
    Done,
}

/// How the raw bytes are carried.
enum Transport {
    /// Fewer than 3 bytes seen: gzip or not is still open.
    Undecided(Vec<u8>),
    Plain,
    Gzip(Box<Gunzip>),
}

/// Reads one input incrementally: raw bytes -> (inflate) -> sniff -> (transcode) -> lines.
pub struct InputReader {
    id: InputId,
    /// Read as this kind whatever the sniffer says ([`InputReader::with_kind`]).
    forced: Option<InputKind>,
    transport: Transport,
    splitter: LineSplitter,
    stage: Stage,
}

impl InputReader {
    pub fn new(id: InputId) -> Self {
        InputReader {
            id,
            forced: None,
            transport: Transport::Undecided(Vec::new()),
            splitter: LineSplitter::new(),
            stage: Stage::Sniffing(Vec::new()),
        }
    }

    /// A reader that hands the input to the parser of `kind` whatever the sniffer says, even
    /// bytes it would reject: the fuzz targets aim at one parser this way. The text encoding is
    /// still detected from the first bytes.
    pub fn with_kind(id: InputId, kind: InputKind) -> Self {
        InputReader {
            forced: Some(kind),
            ..Self::new(id)
        }
    }

    pub fn push(&mut self, chunk: &[u8], ev: &mut Evidence) {
        ev.inputs[self.id].bytes += chunk.len() as u64;
        self.carry(chunk, ev);
    }

    pub fn finish(mut self, ev: &mut Evidence) {
        if let Transport::Undecided(head) = &mut self.transport {
            let head = std::mem::take(head);
            self.transport = Transport::Plain;
            self.accept(&head, ev);
        }
        if let Transport::Gzip(gz) = &mut self.transport {
            let mut gz = std::mem::take(gz);
            let (stage, splitter) = (&mut self.stage, &mut self.splitter);
            let (id, forced) = (self.id, &self.forced);
            gz.finish(&mut |b| Self::stage_bytes(id, forced, stage, splitter, b, ev));
            if let Some(e) = gz.failed() {
                Self::inflate_problem(self.id, e, self.splitter.lines(), ev);
            }
        }
        if let Stage::Sniffing(head) = &mut self.stage {
            let head = std::mem::take(head);
            self.start(&head, ev);
        }
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Parsing {
                mut transcoder,
                mut parser,
            } => {
                let splitter = &mut self.splitter;
                transcoder.feed(&[], true, &mut |b| {
                    splitter.push(b, &mut |l| parser.line(l, ev))
                });
                splitter.finish(&mut |l| parser.line(l, ev));
                parser.finish(ev);
            }
            Stage::Binary(reader) => reader.finish(ev),
            _ => {}
        }
        ev.inputs[self.id].lines = self.splitter.lines();
        ev.problem_lines(self.id, ProblemCode::LongLinesCut, &self.splitter.cut);
    }

    /// Routes raw bytes through the transport (deciding it on the first bytes).
    fn carry(&mut self, chunk: &[u8], ev: &mut Evidence) {
        match &mut self.transport {
            Transport::Undecided(head) => {
                head.extend_from_slice(chunk);
                if head.len() >= 3 {
                    let head = std::mem::take(head);
                    self.transport = if Gunzip::is_gzip(&head) {
                        ev.inputs[self.id].compression = Some("gzip");
                        Transport::Gzip(Box::default())
                    } else {
                        Transport::Plain
                    };
                    self.carry(&head, ev);
                }
            }
            Transport::Plain => self.accept(chunk, ev),
            Transport::Gzip(gz) => {
                let (id, forced) = (self.id, &self.forced);
                let (stage, splitter) = (&mut self.stage, &mut self.splitter);
                gz.feed(chunk, &mut |b| {
                    Self::stage_bytes(id, forced, stage, splitter, b, ev)
                });
            }
        }
    }

    /// Takes inflated bytes.
    fn accept(&mut self, bytes: &[u8], ev: &mut Evidence) {
        let (stage, splitter) = (&mut self.stage, &mut self.splitter);
        Self::stage_bytes(self.id, &self.forced, stage, splitter, bytes, ev);
    }

    fn stage_bytes(
        id: InputId,
        forced: &Option<InputKind>,
        stage: &mut Stage,
        splitter: &mut LineSplitter,
        bytes: &[u8],
        ev: &mut Evidence,
    ) {
        match stage {
            Stage::Sniffing(head) => {
                head.extend_from_slice(bytes);
                if head.len() >= SNIFF_BYTES {
                    let head = std::mem::take(head);
                    *stage = Self::begin_parsing(id, forced.clone(), &head, ev);
                    Self::stage_bytes(id, forced, stage, splitter, &head, ev);
                }
            }
            Stage::Parsing { transcoder, parser } => {
                transcoder.feed(bytes, false, &mut |b| {
                    splitter.push(b, &mut |l| parser.line(l, ev))
                });
            }
            Stage::Binary(reader) => reader.push(bytes),
            Stage::Done => {}
        }
    }

    fn start(&mut self, head: &[u8], ev: &mut Evidence) {
        self.stage = Self::begin_parsing(self.id, self.forced.clone(), head, ev);
        self.accept(head, ev);
    }

    fn inflate_problem(id: InputId, e: InflateError, lines: u64, ev: &mut Evidence) {
        let code = match e {
            InflateError::Corrupt => ProblemCode::GzipCorrupt,
            InflateError::TooLarge => ProblemCode::GzipTooLarge,
        };
        ev.problem(id, code, Some(lines + 1));
    }

    /// Sniffs the head and picks the parser; the head is then fed through the new stage.
    fn begin_parsing(
        id: InputId,
        forced: Option<InputKind>,
        head: &[u8],
        ev: &mut Evidence,
    ) -> Stage {
        let head = &head[..head.len().min(SNIFF_BYTES)];
        let mut sniffed = sniff::sniff(head);
        if let Some(kind) = forced {
            sniffed.rejection = None;
            sniffed.encoding = match kind {
                InputKind::PerfData => None,
                _ => sniffed.encoding.or(Some(TextEncoding::detect(head))),
            };
            if !matches!(kind, InputKind::Log | InputKind::Counters) {
                sniffed.framework = None;
            }
            sniffed.kind = kind;
        }
        let facts = &mut ev.inputs[id];
        facts.kind = Some(sniffed.kind.clone());
        facts.framework = sniffed.framework;
        facts.encoding = sniffed.encoding;
        if let Some(r) = sniffed.rejection {
            ev.problem(id, ProblemCode::Rejected(r), None);
            return Stage::Done;
        }
        if sniffed.kind == InputKind::PerfData {
            return Stage::Binary(perf_data::PerfDataReader::new(id));
        }
        let Some(encoding) = sniffed.encoding else {
            return Stage::Done;
        };
        let parser: Box<dyn LineParser> = match sniffed.kind {
            InputKind::Log => {
                if sniffed.framework.is_none() {
                    ev.problem(id, ProblemCode::UnknownLog, None);
                }
                Box::new(log::LogParser::new(
                    id,
                    &ev.inputs[id].name,
                    sniffed.framework,
                ))
            }
            InputKind::Csv => Box::new(telemetry::csv::CsvParser::new(id)),
            InputKind::Telemetry => Box::new(telemetry::text::TextTelemetryParser::new(id)),
            InputKind::Trace => Box::new(trace::TraceParser::new(id)),
            InputKind::KernelLog => Box::new(kernel_log::KernelLogParser::new(id)),
            InputKind::Bundle => Box::new(bundle::BundleParser::new(id, &ev.inputs[id].name)),
            InputKind::Snapshot => Box::new(snapshot::SnapshotParser::new(id)),
            InputKind::Counters => Box::new(perf_stat::PerfStatParser::new(
                id,
                &ev.inputs[id].name,
                sniffed.framework,
            )),
            InputKind::Unsupported | InputKind::PerfData => return Stage::Done,
        };
        Stage::Parsing {
            transcoder: Transcoder::new(encoding),
            parser,
        }
    }
}

//! Framework logs, whatever wraps them: every line is unwrapped, checked against the fallback
//! wording table, and handed to the framework parsers (`frameworks/`), which collect run facts.
//!
//! Most lines of a real capture concern neither (other apps' logcat noise), so one keyword pass
//! over each message ([`scan`]) decides whether the parsers see it at all.

use super::cpu_limits::CpuLimits;
use super::delegate_partition;
use super::failure_phrases;
use super::fallback_phrases;
use super::frameworks::{Frameworks, ParserMask, ALL_PARSERS, PARSERS};
use super::lines::Line;
use super::lscpu::Lscpu;
use super::op_profile::OpProfiles;
use super::prose_facts::ProseFacts;
use super::telemetry::power_state::{self, PowerStates};
use super::wrapper;
use super::LineParser;
use crate::evidence::Framework;
use crate::evidence::{Evidence, InputId, Occurrence, ProblemCode, SkippedLines};
use aho_corasick::{AhoCorasick, AhoCorasickKind};
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub struct LogParser {
    input: InputId,
    frameworks: Option<Frameworks>,
    /// Off only in the test that checks the gate changes nothing.
    gated: bool,
    sniffed: Option<Framework>,
    /// What the report says when the log gives nothing: lines that look like timings, the first
    /// lines of the file, and whether any fallback line was found.
    timing_like: SkippedLines,
    first_lines: SkippedLines,
    /// Set when the runs read name one framework the sniffer did not see.
    recognized: bool,
    /// A split summary begun and not finished: its line, the text so far, and its lines.
    partition_open: Option<(u64, String, usize)>,
    fallbacks: bool,
    /// cgroup quotas, `nproc`, `--cpus` and affinity pasted beside the log.
    limits: CpuLimits,
    lscpu: Lscpu,
    in_lscpu: bool,
    /// Status tools pasted into the log (`nvidia-smi`, `cpufreq-info`, power modes).
    states: PowerStates,
    /// Operator profiles: `benchmark_model`'s tables, ONNX Runtime's profile events.
    profiles: OpProfiles,
    /// The model file and the machine a user names around the log.
    prose: ProseFacts,
    /// A Go slog record held back one line, in case the next lines continue it.
    slog_held: Option<HeldRecord>,
}

/// A slog record (`time=… level=INFO msg=offload layers.model=35 …`) pasted wrapped over
/// several lines, as a terminal, an editor or a reply quoting it leaves it: readers see it whole.
struct HeldRecord {
    number: u64,
    text: String,
    lines: usize,
}

/// A wrapped record longer than this is passed on as it stands: a slog line is one record.
const MAX_HELD_LINES: usize = 16;

/// A line that only continues the record above it: indented `key=value` fields (slog's groups
/// print dotted keys, `memory.required.kv="254.0 MiB"`), never a record's own `time=`/`level=`.
fn continues_record(text: &str) -> bool {
    static FIELD: OnceLock<regex::Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        regex::Regex::new(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*=\S").expect("field pattern compiles")
    });
    let trimmed = text.trim_start();
    trimmed.len() < text.len()
        && field.is_match(trimmed)
        && !trimmed.starts_with("time=")
        && !trimmed.starts_with("level=")
}

/// The record so far ends inside a quoted value (`cmd="… --model …` wrapped before its
/// `--threads 64"`): whatever the next indented line holds belongs to it.
fn open_quote(text: &str) -> bool {
    let mut open = false;
    let mut escaped = false;
    for c in text.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => open = !open,
            _ => escaped = false,
        }
    }
    open
}

/// A slog record's start; its `msg=` may be the first thing wrapped onto the next line.
fn opens_record(text: &str) -> bool {
    text.contains("level=") && (text.contains("msg=") || text.contains("source="))
}

impl LogParser {
    pub fn new(input: InputId, name: &str, sniffed: Option<Framework>) -> Self {
        LogParser {
            input,
            frameworks: Some(Frameworks::new(name, sniffed)),
            gated: true,
            sniffed,
            timing_like: SkippedLines::default(),
            first_lines: SkippedLines::default(),
            recognized: false,
            partition_open: None,
            fallbacks: false,
            limits: CpuLimits::default(),
            lscpu: Lscpu::default(),
            in_lscpu: false,
            states: PowerStates::default(),
            profiles: OpProfiles::default(),
            prose: ProseFacts::default(),
            slog_held: None,
        }
    }

    fn flush_held(&mut self, ev: &mut Evidence) {
        if let Some(h) = self.slog_held.take() {
            self.read(
                Line {
                    number: h.number,
                    text: &h.text,
                },
                ev,
            );
        }
    }
}

/// Who may care about a message: which framework parsers, and the fallback table.
#[derive(Debug, Clone, Copy, Default)]
struct Hits {
    parsers: ParserMask,
    fallback: bool,
    /// A power-state status tool's line.
    status: bool,
    /// An operator profile's line.
    profile: bool,
}

const EVERYONE: Hits = Hits {
    parsers: ALL_PARSERS,
    fallback: true,
    status: true,
    profile: true,
};

/// Every parser's literals and the fallback table's keywords in one automaton, so one pass over
/// a message says who may care about it (ASCII case folded: a superset of what each parser then
/// checks exactly). Matches may overlap (`eval time =` is llama.cpp's `eval time` and MNN's
/// ` time =`), so all of them are found.
struct Gate {
    automaton: AhoCorasick,
    owners: Vec<Hits>,
}

fn gate() -> Option<&'static Gate> {
    static GATE: OnceLock<Option<Gate>> = OnceLock::new();
    GATE.get_or_init(|| {
        let mut owners: BTreeMap<String, Hits> = BTreeMap::new();
        for (i, spec) in PARSERS.iter().enumerate() {
            for word in spec.keywords.iter().flat_map(|w| w.iter()) {
                owners.entry(word.to_ascii_lowercase()).or_default().parsers |= 1 << i;
            }
        }
        // The failure table and the partition lines ride on the same flag: all read the line.
        for word in fallback_phrases::KEYWORDS
            .iter()
            .chain(failure_phrases::KEYWORDS)
            .chain(delegate_partition::KEYWORDS)
        {
            owners
                .entry(word.to_ascii_lowercase())
                .or_default()
                .fallback = true;
        }
        for word in power_state::KEYWORDS {
            owners.entry(word.to_ascii_lowercase()).or_default().status = true;
        }
        for word in super::op_profile::keywords() {
            owners.entry(word.to_ascii_lowercase()).or_default().profile = true;
        }
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .kind(Some(AhoCorasickKind::DFA))
            .build(owners.keys())
            .ok()?;
        Some(Gate {
            automaton,
            owners: owners.into_values().collect(),
        })
    })
    .as_ref()
}

fn scan(message: &str) -> Hits {
    // Without the automaton (it cannot fail to build from these literals), everyone reads.
    let Some(gate) = gate() else {
        return EVERYONE;
    };
    let mut hits = Hits::default();
    for m in gate.automaton.find_overlapping_iter(message) {
        if let Some(o) = gate.owners.get(m.pattern().as_usize()) {
            hits.parsers |= o.parsers;
            hits.fallback |= o.fallback;
            hits.status |= o.status;
            hits.profile |= o.profile;
        }
    }
    hits
}

impl LineParser for LogParser {
    fn line(&mut self, line: Line<'_>, ev: &mut Evidence) {
        if let Some(h) = self.slog_held.as_mut() {
            let fits = h.text.len() + line.text.len() < super::lines::MAX_LINE_BYTES;
            let continues = continues_record(line.text)
                || (open_quote(&h.text) && line.text.starts_with([' ', '\t']));
            if h.lines < MAX_HELD_LINES && fits && continues {
                h.text.push(' ');
                h.text.push_str(line.text.trim());
                h.lines += 1;
                return;
            }
            self.flush_held(ev);
        }
        if opens_record(line.text) {
            self.slog_held = Some(HeldRecord {
                number: line.number,
                text: line.text.to_string(),
                lines: 1,
            });
            return;
        }
        self.read(line, ev);
    }

    fn finish(&mut self, ev: &mut Evidence) {
        self.flush_held(ev);
        self.finish_reading(ev);
    }
}

impl LogParser {
    fn read(&mut self, line: Line<'_>, ev: &mut Evidence) {
        // Colour codes and HTML entities go first: they sit inside the prefixes as well.
        let cleaned = wrapper::clean(line.text);
        let text = cleaned.as_ref();
        if wrapper::is_markdown_fence(text) {
            return;
        }
        let unwrapped = wrapper::unwrap(text);
        let message = unwrapped.message;
        if message.is_empty() {
            return;
        }
        self.first_lines.add(line.number, text);
        self.prose.line(line.number, message, &mut ev.sched.hints);
        self.limits
            .line(self.input, line.number, message, &mut ev.sched.hints);
        // `grep MHz /proc/cpuinfo` or lscpu's clock lines, pasted beside the run.
        if (message.starts_with("cpu MHz") || message.starts_with("CPU"))
            && super::cpu_mhz::note(
                &mut ev.sched.hints,
                self.input,
                line.number,
                message.trim(),
                None,
            )
        {
            return;
        }
        // lscpu pasted into the log: its summary (every line `Key: value`) or its table.
        if self.in_lscpu || message.starts_with("Architecture:") || message.starts_with("CPU ") {
            self.in_lscpu = self
                .lscpu
                .line(self.input, line.number, message.trim(), &mut ev.sched.hints)
                .is_some()
                && (message.contains(':')
                    || message.starts_with(|c: char| c.is_ascii_digit())
                    || message.starts_with("CPU "));
        }
        // The rest of a split summary spread over lines: these carry no keyword of their own.
        if let Some((first, joined, n)) = self.partition_open.take() {
            let joined = format!("{joined} {}", message.trim());
            if let Some(split) = delegate_partition::parse(&joined) {
                self.fallbacks = true;
                ev.add_partition(self.input, first, split, &joined);
                return;
            }
            if n + 1 < delegate_partition::MAX_SPREAD_LINES {
                self.partition_open = Some((first, joined, n + 1));
            }
        }
        let hits = if self.gated { scan(message) } else { EVERYONE };
        if super::frameworks::generic_timings::looks_like_timing(message) {
            self.timing_like.add(line.number, text);
        }
        // Once a status tool has shown itself, its following lines (table rows, a command's
        // answer) carry no keyword of their own. The frameworks still see every line: a
        // llama-bench table is pipes too.
        if hits.status || self.states.active() {
            self.states.line(self.input, line.number, message, ev);
        }
        if hits.profile || self.profiles.active() {
            self.profiles.line(self.input, line.number, message, ev);
        }
        if let Some(f) = &mut self.frameworks {
            if hits.parsers != 0 || f.in_block() || Frameworks::may_open_block(message) {
                f.line(message, line.number, hits.parsers);
            }
        }
        if !hits.fallback || unwrapped.tag.is_some_and(fallback_phrases::is_system_tag) {
            return;
        }
        if let Some(class) = failure_phrases::classify(message) {
            ev.add_failure(self.input, line.number, class, text);
        }
        // A split is its own evidence, with its counts: not a fallback message as well.
        if let Some(split) = delegate_partition::parse(message) {
            self.fallbacks = true;
            ev.add_partition(self.input, line.number, split, text);
            return;
        }
        if delegate_partition::opens(message) {
            self.partition_open = Some((line.number, message.trim().to_string(), 1));
        }
        if let Some(class) = fallback_phrases::classify(message) {
            self.fallbacks = true;
            ev.add_fallback(
                class,
                fallback_phrases::normalize(message),
                message,
                Occurrence {
                    input: self.input,
                    line: line.number,
                },
                text,
            );
        }
    }

    fn finish_reading(&mut self, ev: &mut Evidence) {
        self.states.finish(ev);
        self.profiles.finish(self.input, ev);
        let mut found = self.fallbacks
            || ev.op_profiles.iter().any(|p| p.input == self.input)
            || ev.cpu_clocks.iter().any(|c| c.input == self.input)
            || ev
                .sched
                .hints
                .clock_lines
                .iter()
                .any(|c| c.input == self.input)
            || ev.gpu_states.iter().any(|g| g.input == self.input)
            || ev.power_modes.iter().any(|m| m.input == self.input);
        if let Some(f) = self.frameworks.take() {
            let collected = f.finish();
            found |= !collected.runs.is_empty();
            // The sniffer reads the first lines only; a paste that opens with prose is still one
            // framework's log when every run read from it is that framework's.
            let unknown = ev.inputs[self.input]
                .problems
                .iter()
                .any(|p| p.code == ProblemCode::UnknownLog);
            if self.sniffed.is_none() && unknown {
                let profiled = ev
                    .op_profiles
                    .iter()
                    .filter(|p| p.input == self.input)
                    .map(|p| p.source.framework());
                let mut fws = collected
                    .runs
                    .iter()
                    .filter_map(|r| r.framework)
                    .chain(profiled)
                    .filter(|f| *f != Framework::Unknown);
                if let Some(first) = fws.next() {
                    if fws.all(|f| f == first) {
                        ev.inputs[self.input].framework = Some(first);
                        self.recognized = true;
                    }
                }
            }
            // A typed table no reader turned into a run: show its header, never silence.
            let mut tables = SkippedLines::default();
            for (from, to, header) in &collected.tables_not_mapped {
                let read = collected.runs.iter().any(|r| {
                    r.line_start.is_some_and(|s| s <= *to) && r.line_end.is_some_and(|e| e >= *from)
                });
                if !read {
                    tables.add(*from, header);
                }
            }
            if !tables.is_empty() {
                ev.problem_lines(self.input, ProblemCode::TableNotMapped, &tables);
            }
            let mut runs = collected.runs;
            ev.power_modes.extend(self.prose.jetson_modes(self.input));
            if let Some((bytes, line)) = self.prose.ram() {
                ev.memory
                    .system_reading(crate::evidence::memory::SystemMemory {
                        input: self.input,
                        line,
                        total: Some(bytes),
                        available: None,
                        swap_total: None,
                        swap_free: None,
                    });
            }
            // A model named with its size beside the machine's memory is something to judge.
            found |= !self.prose.named_models().is_empty() && self.prose.ram().is_some();
            if let Some((cpu, said)) = self.prose.background_slowdown() {
                ev.sched
                    .background_slowdowns
                    .push(crate::evidence::sched::BackgroundSlowdown {
                        input: self.input,
                        cpu_line: cpu.0,
                        cpu: cpu.1.clone(),
                        line: said.0,
                        text: said.1.clone(),
                    });
                found = true;
            }
            ev.inputs[self.input].asks_fp16 = self.prose.asks_fp16().cloned();
            let beside_card = self.prose.names_card();
            ev.inputs[self.input].names_card = beside_card;
            for (name, line) in self.prose.named_models() {
                ev.memory
                    .named_models
                    .push(crate::evidence::memory::NamedModel {
                        input: self.input,
                        line: *line,
                        name: name.clone(),
                        beside_card,
                    });
            }
            if let Some(model) = self.prose.model() {
                for r in runs.iter_mut().filter(|r| r.model.is_none()) {
                    r.model = Some(model.to_string());
                }
            }
            // Timings the user labelled (`CPU:` over one block, `Metal:` over the next, `8
            // threads:` over one, `with -t 4:` over the next, `b2785` over one build's) ran as
            // the label says, when the lines themselves do not say. A thread count the run
            // inherited from the block above (the collector carries set-up facts to the next
            // block) is not its own: the label over it wins there.
            let mut above: Option<u32> = None;
            for r in runs.iter_mut() {
                let own = r.n_threads;
                if let Some(h) = r.line_start.and_then(|l| self.prose.heading_over(l)) {
                    if let (None, Some(b)) = (&r.backend, &h.backend) {
                        r.backend = Some(b.clone());
                    }
                    if let (None, Some(b)) = (&r.build, &h.build) {
                        r.build = Some(b.clone());
                    }
                    if let (None, Some(l)) = (&r.label, &h.label) {
                        r.label = Some(l.clone());
                    }
                    r.quoted |= h.quoted;
                    r.background |= h.background;
                    if let Some(t) = h.threads {
                        if r.n_threads.is_none() || r.n_threads == above {
                            r.n_threads = Some(t);
                        }
                    }
                }
                above = own;
            }
            // A llama.cpp run with no thread count of its own, started by a command without
            // `-t`: the rules judge llama.cpp's default against the machine's cores.
            if let Some(line) = self.prose.default_threads_line() {
                let llama = |f: Option<Framework>| {
                    matches!(f, None | Some(Framework::Unknown | Framework::LlamaCpp))
                };
                for r in runs
                    .iter_mut()
                    .filter(|r| r.n_threads.is_none() && llama(r.framework))
                {
                    r.threads_default_line = Some(line);
                }
            }
            ev.runs.extend(runs);
            if collected.dropped > 0 {
                ev.problem_count(
                    self.input,
                    ProblemCode::RunsCut,
                    collected.first_dropped_line,
                    collected.dropped,
                );
            }
        }
        // Never a silent "nothing found": say what was seen, with lines, and how to do better.
        // The sniffer's bare "unknown log" gets the file's first lines. Only where the sniffer
        // said so: a log inside a bundle is parsed with no sniffed framework too, and is known.
        let problems = &mut ev.inputs[self.input].problems;
        if self.sniffed.is_none() && problems.iter().any(|p| p.code == ProblemCode::UnknownLog) {
            problems.retain(|p| p.code != ProblemCode::UnknownLog);
            if !self.recognized {
                ev.problem_lines(self.input, ProblemCode::UnknownLog, &self.first_lines);
            }
        }
        if !found {
            if self.timing_like.is_empty() {
                ev.problem(self.input, ProblemCode::NothingRead, None);
            } else {
                ev.problem_lines(self.input, ProblemCode::TimingsNotRead, &self.timing_like);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::lines::LineSplitter;

    fn parse(name: &str, text: &str, gated: bool) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input(name);
        let mut p = LogParser::new(id, name, None);
        p.gated = gated;
        let mut s = LineSplitter::new();
        s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
        s.finish(&mut |l| p.line(l, &mut ev));
        p.finish(&mut ev);
        ev
    }

    #[test]
    fn a_version_heading_names_the_timings_under_it() {
        // ollama #10746's shape: each `--verbose` block under the version it ran on.
        let ev = parse(
            "v.md",
            "**0.7.0:**\neval count:           74 token(s)\neval duration:        5.657106746s\neval rate:            **13.08 tokens/s**\n\n**0.6.8:**\neval count:           63 token(s)\neval duration:        1.748827692s\neval rate:            **36.02 tokens/s**",
            false,
        );
        let labels: Vec<_> = ev.runs.iter().map(|r| r.label.as_deref()).collect();
        assert_eq!(labels, vec![Some("0.7.0"), Some("0.6.8")], "{:#?}", ev.runs);
    }

    #[test]
    fn a_slog_record_wrapped_over_lines_is_read_whole() {
        // The estimate as a terminal or a quoting reply wraps it: `msg=` itself on line 2.
        let wrapped = "May 19 10:50:36 box ollama[1995]: time=2025-05-19T10:50:36.626+05:00 level=INFO source=server.go:168
 msg=offload library=cuda layers.requested=-1 layers.model=35 layers.offload=0 layers.split=\"\"
 memory.available=\"[3.2 GiB]\" memory.gpu_overhead=\"0 B\" memory.required.full=\"2.6 GiB\"
 memory.required.kv=\"254.0 MiB\"
May 19 10:50:37 box ollama[1995]: time=2025-05-19T10:50:37.001+05:00 level=INFO source=server.go:431 msg=\"starting llama server\" cmd=\"ollama runner --ctx-size 4096 --threads 6 --port 1\"
";
        let ev = parse("wrapped.log", wrapped, true);
        assert_eq!(ev.runs.len(), 1, "{:?}", ev.runs);
        let run = &ev.runs[0];
        let o = run.offload.as_ref().expect("the placement is read");
        assert_eq!((o.gpu_layers, o.model_layers), (Some(0), Some(35)));
        assert_eq!(
            o.vram_free_bytes,
            Some((3.2 * 1024f64.powi(3)).round() as u64)
        );
        assert_eq!(o.kv_bytes, Some(254 * 1024 * 1024));
        assert_eq!(
            o.line,
            Some(1),
            "the quote points at the record's first line"
        );
        // The record after the wrapped one is read too, not swallowed by it.
        assert_eq!(run.n_threads, Some(6));
    }

    #[test]
    fn a_quoted_value_wrapped_mid_way_is_joined() {
        let wrapped = "time=2025-05-22T15:00:07.111+02:00 level=INFO source=server.go:431 msg=\"starting llama server\"
 cmd=\"/home/me/ollama runner --model /home/me/blobs/sha256-8281
 --ctx-size 8192 --batch-size 512 --threads 64 --no-mmap --parallel 2 --port 35741\"
  --not-a-field after the quote closed
";
        let ev = parse("wrapped.log", wrapped, true);
        assert_eq!(
            ev.runs.first().and_then(|r| r.n_threads),
            Some(64),
            "{:?}",
            ev.runs
        );
        assert!(open_quote("a=\"x y"));
        assert!(
            !open_quote("a=\"x \\\" y\" b=1"),
            "an escaped quote stays inside"
        );
    }

    #[test]
    fn indented_fields_after_a_line_that_is_no_record_stay_lines() {
        assert!(!continues_record("layers.offload=0"), "not indented");
        assert!(
            !continues_record("  time=2025 level=INFO msg=x"),
            "a record of its own"
        );
        assert!(continues_record("  memory.graph.full=\"1.1 GiB\""));
        assert!(!continues_record("  | 0  NVIDIA GeForce |"));
    }

    #[test]
    fn system_services_lines_are_not_fallbacks() {
        let log = "\
11-29 14:00:00.000   655   655 E ANDR-PERF-OPTSHANDLER: Perflock resource /sys/class/devfreq/soc:qcom,cpu-llcc-ddr-bw/min_freq not supported
11-29 14:00:00.001   975  1002 E audio_hw_primary: platform_set_echo_reference: echo reference not supported
11-29 14:00:00.002 12034 12071 E tflite  : Following operations are not supported by GPU delegate:
11-29 14:00:00.003 12034 12071 I tflite  : CUSTOM TFLite_Detection_PostProcess: Operation is not supported.
11-29 14:00:00.004  3310  3310 W android.hardware.neuralnetworks@1.3-service-qti: op 12 is not supported on this device
";
        let ev = parse("t.logcat", log, true);
        let lines: Vec<u64> = ev
            .fallbacks
            .iter()
            .flat_map(|g| g.occurrences.iter().map(|o| o.line))
            .collect();
        assert_eq!(lines.len(), 3, "{:?}", ev.fallbacks);
        assert!(lines.iter().all(|l| *l >= 3), "{lines:?}");
    }

    #[test]
    fn a_log_that_gives_nothing_says_what_it_saw() {
        let mut ev = Evidence::default();
        let id = ev.add_input("x.log");
        let mut p = LogParser::new(id, "x.log", Some(Framework::LlamaCpp));
        let text = "ggml_backend: loaded CPU backend\nperf | decode: 128 tok in 5.2 sec\nperf | prefill: 64 tok in 0.8 sec\n";
        let mut s = LineSplitter::new();
        s.push(text.as_bytes(), &mut |l| p.line(l, &mut ev));
        s.finish(&mut |l| p.line(l, &mut ev));
        p.finish(&mut ev);
        assert!(ev.runs.is_empty(), "{:?}", ev.runs);
        let probs = &ev.inputs[id].problems;
        let not_read = probs
            .iter()
            .find(|p| p.code == ProblemCode::TimingsNotRead)
            .expect("timings-not-read");
        let lines = not_read.lines.as_ref().expect("examples");
        assert_eq!(lines.count, 2);
        assert_eq!(lines.first[0].0, 2);

        let ev = parse("notes.txt", "just some notes\nnothing else here\n", true);
        let codes: Vec<ProblemCode> = ev.inputs[0].problems.iter().map(|p| p.code).collect();
        assert!(codes.contains(&ProblemCode::NothingRead), "{codes:?}");
        // A run found means nothing to report.
        let ev = parse(
            "ok.txt",
            "bench: prefill 212.4 tok/s, decode 18.9 tok/s\n",
            true,
        );
        assert_eq!(ev.runs.len(), 1);
        assert!(!ev.inputs[0].problems.iter().any(|p| matches!(
            p.code,
            ProblemCode::NothingRead | ProblemCode::TimingsNotRead
        )));
    }

    /// The gate only skips lines nothing reads: every sample gives the same runs and fallback
    /// groups with and without it, also with each sample's lines cut and shuffled into the noise
    /// of the others.
    #[test]
    fn gate_changes_nothing() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples");
        let mut texts = Vec::new();
        for dir in [
            "logs",
            "compare",
            "negative",
            "demo",
            "encodings",
            "invalid",
        ] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
                continue;
            };
            for entry in entries.flatten() {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    texts.push((entry.path().display().to_string(), text));
                }
            }
        }
        assert!(texts.len() > 30, "samples found: {}", texts.len());
        let all: String = texts.iter().map(|(_, t)| t.as_str()).collect();
        texts.push(("all".into(), all));
        let mut runs_seen = 0;
        for (name, text) in &texts {
            let gated = parse(name, text, true);
            let ungated = parse(name, text, false);
            assert_eq!(
                format!("{:?}", gated.runs),
                format!("{:?}", ungated.runs),
                "{name}"
            );
            assert_eq!(
                format!("{:?}", gated.fallbacks),
                format!("{:?}", ungated.fallbacks),
                "{name}"
            );
            runs_seen += gated.runs.len();
        }
        assert!(runs_seen > 30, "runs: {runs_seen}");
    }
}

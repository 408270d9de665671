//! Groups the facts that framework parsers read into [`Run`]s: one per inference run found.
//!
//! Parsers say where a run starts (a build banner, a model load) and which facts a line carries;
//! the collector decides the boundaries. A second timing for a phase already filled starts a new
//! run that keeps the set-up facts (model, build, threads, buffers) of the one before, which is
//! how a llama-server log with many requests becomes one run per request.

use crate::evidence::Framework;
use crate::evidence::{Phase, Run};

/// Runs kept per input; a server log with more requests keeps the first ones.
pub const MAX_RUNS_PER_INPUT: usize = 500;

/// Which phase a timing belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseKind {
    Prefill,
    Decode,
}

pub struct RunCollector {
    input: String,
    current: Option<Run>,
    /// Line of the last fact, so a run's `line_end` is the last line that said something.
    pub done: Vec<Run>,
    /// Runs past [`MAX_RUNS_PER_INPUT`]: how many, and the line the first of them started on.
    pub dropped: u64,
    pub first_dropped_line: Option<u64>,
    /// The last line that gave a run a fact: the generic timings reader leaves it alone.
    pub last_line: Option<u64>,
    /// Typed tables with speeds that no reader could map: (header line, last row line,
    /// header text), the first few.
    pub tables_not_mapped: Vec<(u64, u64, String)>,
}

impl RunCollector {
    pub fn new(input: &str) -> Self {
        RunCollector {
            input: input.to_string(),
            current: None,
            done: Vec::new(),
            dropped: 0,
            first_dropped_line: None,
            last_line: None,
            tables_not_mapped: Vec::new(),
        }
    }

    /// Adds a whole run (a row of a typed table) after closing the open one.
    pub fn push(&mut self, mut run: Run) {
        self.close();
        run.input = self.input.clone();
        self.current = Some(run);
        self.close();
    }

    /// The open run of `fw`, extended to `line`. A run of another framework is closed first.
    pub fn run(&mut self, fw: Framework, line: u64) -> &mut Run {
        if self
            .current
            .as_ref()
            .is_some_and(|r| !same_family(r.framework, fw))
        {
            self.close();
        }
        self.last_line = Some(line);
        let input = &self.input;
        let run = self.current.get_or_insert_with(|| Run {
            input: input.clone(),
            framework: Some(fw),
            line_start: Some(line),
            line_end: Some(line),
            ..Run::default()
        });
        run.line_end = Some(run.line_end.map_or(line, |e| e.max(line)));
        if fw == Framework::Ollama {
            run.framework = Some(fw);
        }
        run
    }

    /// Marks `line` as read by a framework parser that keeps its facts for a later line (a token
    /// count before its speed), so the generic timings reader does not read it again.
    pub fn claim(&mut self, line: u64) {
        self.last_line = Some(line);
    }

    /// The open run of `fw`, or `None` when there is none (for facts that never open a run alone).
    pub fn open(&mut self, fw: Framework) -> Option<&mut Run> {
        self.current
            .as_mut()
            .filter(|r| same_family(r.framework, fw))
    }

    /// The open run of `fw`, or a new one only when no other framework's run is open: for facts
    /// that other frameworks also print (MediaPipe and LiteRT-LM log TFLite's delegate lines).
    pub fn weak(&mut self, fw: Framework, line: u64) -> Option<&mut Run> {
        if self
            .current
            .as_ref()
            .is_some_and(|r| !same_family(r.framework, fw))
        {
            return None;
        }
        Some(self.run(fw, line))
    }

    /// Starts a new run at `line` if the open one already has what `taken` checks; a banner
    /// (build line, model load) calls this so that a second model load is a second run.
    pub fn boundary(&mut self, fw: Framework, line: u64, taken: impl Fn(&Run) -> bool) {
        if self
            .current
            .as_ref()
            .is_some_and(|r| !same_family(r.framework, fw) || taken(r))
        {
            self.close();
        }
        self.run(fw, line);
    }

    /// Records a phase timing. When the open run already has this phase (or has decode and this
    /// is a prefill), the timing opens a new run that inherits the set-up facts.
    pub fn phase(&mut self, fw: Framework, line: u64, kind: PhaseKind, p: Phase) {
        let repeat = self.open(fw).is_some_and(|r| match kind {
            PhaseKind::Prefill => r.prefill.is_some() || r.decode.is_some(),
            PhaseKind::Decode => r.decode.is_some(),
        });
        if repeat {
            let base = self.current.as_ref().map(setup_of);
            self.close();
            if let Some(mut b) = base {
                b.line_start = Some(line);
                b.line_end = Some(line);
                self.current = Some(b);
            }
        }
        let run = self.run(fw, line);
        match kind {
            PhaseKind::Prefill => run.prefill = Some(p),
            PhaseKind::Decode => run.decode = Some(p),
        }
    }

    /// True when some run of the input, kept or open, has a decode figure.
    pub fn any_decode(&self) -> bool {
        self.done
            .iter()
            .chain(self.current.as_ref())
            .any(|r| r.decode.is_some())
    }

    /// Closes the open run, keeping it if it says anything.
    pub fn close(&mut self) {
        if let Some(run) = self.current.take() {
            if has_facts(&run) {
                if self.done.len() < MAX_RUNS_PER_INPUT {
                    self.done.push(run);
                } else {
                    self.dropped += 1;
                    self.first_dropped_line = self.first_dropped_line.or(run.line_start);
                }
            }
        }
    }

    pub fn finish(mut self) -> Collected {
        self.close();
        Collected {
            runs: self.done,
            dropped: self.dropped,
            first_dropped_line: self.first_dropped_line,
            tables_not_mapped: self.tables_not_mapped,
        }
    }
}

/// True when facts of `fw` belong to a run of `open`: ollama's runner is llama.cpp and relays
/// its lines, so in an ollama log they describe the ollama run (which keeps the ollama name).
fn same_family(open: Option<Framework>, fw: Framework) -> bool {
    let family = |f: Framework| match f {
        Framework::Ollama => Framework::LlamaCpp,
        other => other,
    };
    open.is_some_and(|o| family(o) == family(fw))
}

/// What a log gave: the runs kept, and those past the cap, counted so the report can say so.
pub struct Collected {
    pub runs: Vec<Run>,
    pub dropped: u64,
    pub first_dropped_line: Option<u64>,
    pub tables_not_mapped: Vec<(u64, u64, String)>,
}

/// The facts of a run that hold for the next request on the same loaded model.
fn setup_of(r: &Run) -> Run {
    Run {
        input: r.input.clone(),
        framework: r.framework,
        build: r.build.clone(),
        backend: r.backend.clone(),
        devices: r.devices.clone(),
        model: r.model.clone(),
        params: r.params,
        model_bytes: r.model_bytes,
        quant: r.quant.clone(),
        bits_per_weight: r.bits_per_weight,
        tensor_types: r.tensor_types.clone(),
        n_expert: r.n_expert,
        n_expert_used: r.n_expert_used,
        n_threads: r.n_threads,
        n_threads_batch: r.n_threads_batch,
        hw_threads: r.hw_threads,
        cpu_features: r.cpu_features.clone(),
        cpu_clusters: r.cpu_clusters.clone(),
        buffers_mib: r.buffers_mib.clone(),
        offload: r.offload.clone(),
        ..Run::default()
    }
}

fn has_facts(r: &Run) -> bool {
    let bare = Run {
        input: r.input.clone(),
        framework: r.framework,
        line_start: r.line_start,
        line_end: r.line_end,
        ..Run::default()
    };
    *r != bare
}

/// A phase from what a log prints: tokens, total ms, and tok/s when printed. Printed tok/s that
/// is not finite or not positive (`inf`, `nan`, `0`) counts as missing; tok/s is then derived
/// from ms per token or from tokens and ms, and marked so.
pub fn phase(
    tokens: Option<u64>,
    ms: Option<f64>,
    ms_per_token: Option<f64>,
    tok_s: Option<f64>,
) -> Phase {
    let ms = ms.filter(|v| v.is_finite() && *v >= 0.0);
    let printed = tok_s.filter(|v| v.is_finite() && *v > 0.0);
    let derived = if printed.is_some() {
        None
    } else if let Some(mpt) = ms_per_token.filter(|v| v.is_finite() && *v > 0.0) {
        Some(1000.0 / mpt)
    } else {
        match (tokens, ms) {
            (Some(t), Some(m)) if t > 0 && m > 0.0 => Some(t as f64 * 1000.0 / m),
            _ => None,
        }
    };
    Phase {
        tokens,
        ms,
        tok_s: printed.or(derived.map(round3)),
        derived: derived.is_some(),
    }
}

/// Adds CPUs at a maximum frequency to the run's clusters (one cluster per frequency).
pub fn add_cpus(run: &mut Run, cpus: &[u32], max_khz: u64) {
    let len = run.cpu_clusters.len();
    match run.cpu_clusters.iter_mut().find(|c| c.max_khz == max_khz) {
        Some(c) => {
            for cpu in cpus {
                if !c.cpus.contains(cpu) && c.cpus.len() < 256 {
                    c.cpus.push(*cpu);
                }
            }
        }
        None if len < 16 => run.cpu_clusters.push(crate::evidence::CpuCluster {
            cpus: cpus.iter().copied().take(256).collect(),
            max_khz,
        }),
        None => {}
    }
    run.cpu_clusters.sort_by_key(|c| c.max_khz);
}

/// Three decimals: derived figures carry no false precision into the report.
pub fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// A number as printed, tolerating markdown emphasis and thousands separators; `inf` / `nan`
/// are not numbers here.
pub fn num(s: &str) -> Option<f64> {
    let t: String = s
        .trim()
        .trim_matches(|c| c == '*' || c == '_' || c == '`')
        .chars()
        .filter(|c| *c != ',')
        .collect();
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The quant named inside a model file or id: `q4f16_1`, `Q4_K_M`, `int4`, `w4a16`, `4bit`,
/// `fp16`, ExecuTorch's `8da4w` (8-bit dynamic activations, 4-bit weights). Only explicit
/// tokens count; a bare model name gives nothing.
pub fn quant_from_name(name: &str) -> Option<String> {
    use std::sync::OnceLock;
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"(?i)(?:^|[-_./ ])(q\d+f\d+(?:_\d)?|i?q\d_(?:k_[sml]|k|\d(?:_\d_\d)?|[sml])|int[48]|w\d+a\d+|\d+da\d+w|[48]bit|fp16|fp32|bf16|f16|f32)(?:$|[-_./ ])")
            .expect("quant token")
    });
    re.captures(name).map(|c| c[1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_timings_make_new_runs_with_the_same_setup() {
        let mut c = RunCollector::new("x.log");
        c.run(Framework::LlamaCpp, 1).quant = Some("Q4_0".into());
        c.phase(
            Framework::LlamaCpp,
            5,
            PhaseKind::Prefill,
            phase(Some(10), Some(100.0), None, None),
        );
        c.phase(
            Framework::LlamaCpp,
            6,
            PhaseKind::Decode,
            phase(Some(10), Some(1000.0), None, Some(10.0)),
        );
        c.phase(
            Framework::LlamaCpp,
            9,
            PhaseKind::Prefill,
            phase(Some(10), Some(50.0), None, None),
        );
        let runs = c.finish().runs;
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].line_start, Some(1));
        assert_eq!(runs[0].line_end, Some(6));
        assert_eq!(runs[1].line_start, Some(9));
        assert_eq!(runs[1].quant.as_deref(), Some("Q4_0"));
        assert_eq!(runs[0].prefill.as_ref().and_then(|p| p.tok_s), Some(100.0));
        assert!(runs[0].prefill.as_ref().is_some_and(|p| p.derived));
        assert!(!runs[0].decode.as_ref().is_some_and(|p| p.derived));
    }

    #[test]
    fn inf_is_missing_and_markdown_numbers_parse() {
        let p = phase(Some(0), Some(0.0), None, Some(f64::INFINITY));
        assert_eq!(p.tok_s, None);
        assert_eq!(num("**7684.08**"), Some(7684.08));
        assert_eq!(num("inf"), None);
        assert_eq!(num("1,234.5"), Some(1234.5));
    }

    #[test]
    fn quant_tokens_in_names() {
        assert_eq!(
            quant_from_name("Llama-2-7b-chat-hf-q4f16_1-MLC").as_deref(),
            Some("q4f16_1")
        );
        assert_eq!(
            quant_from_name("gemma-2b-it-cpu-int4.bin").as_deref(),
            Some("int4")
        );
        assert_eq!(
            quant_from_name("qwen2.5-7b-instruct-q4_k_m.gguf").as_deref(),
            Some("q4_k_m")
        );
        assert_eq!(quant_from_name("Qwen2.5-1.5B-Instruct-MNN"), None);
        assert_eq!(
            quant_from_name("qwen2_5-1_5b-8da4w.pte").as_deref(),
            Some("8da4w")
        );
    }

    #[test]
    fn empty_runs_are_dropped() {
        let mut c = RunCollector::new("x.log");
        c.run(Framework::Mnn, 3);
        assert!(c.finish().runs.is_empty());
    }

    #[test]
    fn runs_past_the_cap_are_counted_with_where_they_start() {
        let mut c = RunCollector::new("server.log");
        let extra = 7;
        for i in 0..(MAX_RUNS_PER_INPUT + extra) as u64 {
            c.phase(
                Framework::LlamaCpp,
                10 + 3 * i,
                PhaseKind::Decode,
                phase(Some(10), Some(500.0), None, Some(20.0)),
            );
        }
        let got = c.finish();
        assert_eq!(got.runs.len(), MAX_RUNS_PER_INPUT);
        assert_eq!(got.dropped, extra as u64);
        assert_eq!(
            got.first_dropped_line,
            Some(10 + 3 * MAX_RUNS_PER_INPUT as u64)
        );
    }
}

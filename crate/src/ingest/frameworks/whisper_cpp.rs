//! whisper.cpp, llama.cpp's speech sibling: `whisper_print_timings:` (load, mel, sample, encode,
//! decode, batchd, prompt, total; `N runs ( X ms per run)` since 2023, `X ms per layer` in the
//! first releases), the model it loads, the backend it picks and its `system_info` line.
//!
//! Its decode steps are audio-model passes, not LLM tokens: they go to [`Run::stages`](crate::evidence::Run::stages), never
//! to `decode`, so no tok/s rule reads a transcription as a slow chat.

use super::cap;
use super::runs::{num, RunCollector};
use super::FrameworkParser;
use crate::evidence::{Framework, Stage};
use regex::Regex;
use std::sync::OnceLock;

const FW: Framework = Framework::WhisperCpp;

struct Re {
    timing: Regex,
    loading: Regex,
    backend: Regex,
    model_type: Regex,
    processing: Regex,
}

/// Literals at least one of which every line this parser reads contains.
pub const KEYWORDS: &[&str] = &["whisper_", "WHISPER : ", "COREML = ", "processing '"];

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("whisper.cpp pattern compiles");
        Re {
            timing: r(r"^whisper_print_timings:\s+(load|mel|sample|encode|decode|batchd|prompt|total|vad) time\s*=\s*([\d.]+)\s*ms(?:\s*/\s*(\d+)\s*runs\s*\(\s*([\d.]+)\s*ms per run\)|\s*/\s*([\d.]+)\s*ms per layer)?"),
            loading: r(r"^whisper_(?:init_from_file\w*|model_load): loading model from '([^']+)'"),
            backend: r(r"^whisper_backend_init(?:_gpu)?: using (\S+) backend"),
            model_type: r(r"^whisper_model_load:\s+type\s*=\s*(\d+)(?:\s*\((\w+)\))?"),
            processing: r(r"processing '[^']*' \((\d+) samples, ([\d.]+) sec\), (\d+) threads"),
        }
    })
}

/// True for a line whisper.cpp prints and llama.cpp does not, so llama.cpp's reader leaves it:
/// whisper's `system_info` lists `WHISPER :` (since 2024) or `COREML =` (before).
pub fn owns(msg: &str) -> bool {
    msg.starts_with("whisper_") || msg.contains("WHISPER : ") || msg.contains("COREML = ")
}

#[derive(Default)]
pub struct WhisperCpp;

impl FrameworkParser for WhisperCpp {
    fn line(&mut self, msg: &str, at: u64, runs: &mut RunCollector) {
        let r = re();
        if let Some(c) = cap(&r.timing, msg) {
            let Some(ms) = num(&c[2]) else { return };
            let count = c.get(3).and_then(|m| m.as_str().parse().ok());
            let per_run = c.get(4).and_then(|m| num(m.as_str()));
            let run = runs.run(FW, at);
            if &c[1] == "load" {
                // A second timings block is a second run: load is its first line.
                if !run.stages.is_empty() {
                    runs.boundary(FW, at, |_| true);
                }
                runs.run(FW, at).load_ms = Some(ms);
                return;
            }
            // `encode time = 0.00 ms / 1 runs ( 0.00 ms per run)` for a stage that never ran.
            if count == Some(0) {
                return;
            }
            runs.run(FW, at).stages.insert(
                c[1].to_string(),
                Stage {
                    ms,
                    runs: count,
                    ms_per_run: per_run,
                },
            );
            return;
        }
        if let Some(c) = cap(&r.loading, msg) {
            runs.boundary(FW, at, |r| r.model.is_some() || !r.stages.is_empty());
            let path = &c[1];
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
            runs.run(FW, at).model = Some(name.to_string());
            return;
        }
        if let Some(c) = cap(&r.backend, msg) {
            runs.run(FW, at).backend = Some(c[1].to_string());
            return;
        }
        if let Some(c) = cap(&r.model_type, msg) {
            let run = runs.run(FW, at);
            if run.model.is_none() {
                run.model = c.get(2).map(|m| m.as_str().to_string());
            }
            return;
        }
        if msg.contains("system_info") && owns(msg) {
            super::system_info::read(FW, msg, at, runs);
            return;
        }
        if let Some(c) = cap(&r.processing, msg) {
            if let Some(run) = runs.open(FW) {
                run.n_threads = c[3].parse().ok();
            }
        }
    }
}

#[cfg(test)]
mod tests {

    fn parse(text: &str) -> Vec<crate::evidence::Run> {
        crate::ingest::frameworks::test_support::runs(text, true)
    }

    #[test]
    fn timings_of_each_era_are_stages_not_decode() {
        let new = "\
whisper_init_from_file_with_params_no_state: loading model from 'models/ggml-base.en.bin'
whisper_backend_init_gpu: using Metal backend
ggml_metal_init: found device: Apple M2
system_info: n_threads = 4 / 8 | WHISPER : COREML = 0 | OPENVINO = 0 | CPU : NEON = 1 | ARM_FMA = 1 | DOTPROD = 1 |
main: processing 'samples/jfk.wav' (176000 samples, 11.0 sec), 4 threads, 1 processors, 5 beams + best of 5, lang = en, task = transcribe, timestamps = 1 ...
whisper_print_timings:     load time =    95.53 ms
whisper_print_timings:     fallbacks =   0 p /   0 h
whisper_print_timings:      mel time =     8.13 ms
whisper_print_timings:   sample time =    34.20 ms /   138 runs (    0.25 ms per run)
whisper_print_timings:   encode time =   312.60 ms /     1 runs (  312.60 ms per run)
whisper_print_timings:   decode time =     0.00 ms /     1 runs (    0.00 ms per run)
whisper_print_timings:   batchd time =   421.07 ms /   136 runs (    3.10 ms per run)
whisper_print_timings:   prompt time =     0.00 ms /     1 runs (    0.00 ms per run)
whisper_print_timings:    total time =   888.40 ms
";
        let runs = parse(new);
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        assert_eq!(r.framework, Some(crate::evidence::Framework::WhisperCpp));
        assert_eq!(r.model.as_deref(), Some("ggml-base.en.bin"));
        assert_eq!(r.backend.as_deref(), Some("Metal"));
        assert_eq!(r.n_threads, Some(4));
        assert_eq!(r.cpu_features.get("DOTPROD"), Some(&true));
        assert_eq!(r.load_ms, Some(95.53));
        assert!(r.decode.is_none() && r.prefill.is_none());
        assert_eq!(r.stages["encode"].ms_per_run, Some(312.6));
        assert_eq!(r.stages["batchd"].runs, Some(136));
        assert_eq!(r.stages["total"].ms, 888.4);
        assert!(!r.stages.contains_key("decode") || r.stages["decode"].ms == 0.0);

        let old = "\
whisper_model_load: loading model from 'models/ggml-small.bin'
whisper_model_load: type          = 3
system_info: n_threads = 4 / 4 | AVX = 1 | AVX2 = 1 | AVX512 = 0 | NEON = 0 | F16C = 1 | BLAS = 0 | COREML = 0 |
whisper_print_timings:     load time =   210.00 ms
whisper_print_timings:      mel time =    41.00 ms
whisper_print_timings:   sample time =     9.00 ms
whisper_print_timings:   encode time =  4100.00 ms / 341.67 ms per layer
whisper_print_timings:   decode time =   980.00 ms / 81.67 ms per layer
whisper_print_timings:    total time =  5400.00 ms
";
        let runs = parse(old);
        assert_eq!(runs.len(), 1, "{runs:?}");
        let r = &runs[0];
        assert_eq!(r.stages["encode"].ms, 4100.0);
        assert_eq!(r.stages["decode"].ms, 980.0);
        assert_eq!(r.cpu_features.get("AVX2"), Some(&true));
        assert!(r.decode.is_none());
    }
}

//! ONNX Runtime's profile (`SessionOptions.enable_profiling`, `onnxruntime_perf_test -p`), as
//! `Profiler::EndProfiling` writes it: a JSON array with one event per line,
//! `{"cat" : "Node","pid" :1,"tid" :2,"dur" :153,"ts" :9,"ph" : "X","name" :"conv1_kernel_time",
//! "args" : {"op_name" : "Conv","provider" : "CPUExecutionProvider", ...}},`.
//!
//! - Each node gives `_fence_before`, `_kernel_time` and `_fence_after` events; the kernel's is
//!   its compute time. `provider` names where it ran (since about 1.8; older profiles lack it
//!   and cannot say).
//! - Session events (`model_loading_uri`, `session_initialization`, one `model_run` per `Run`)
//!   say how many inferences the node times cover.
//! - An execution provider that compiles its partitions (QNN, NNAPI, CoreML, TensorRT) shows each
//!   partition as one node of its provider.
//!
//! Each line is parsed alone, so a profile of any length streams; a profile reformatted with one
//! field per line gives no events, and the reader says nothing rather than guess.

use super::slowest_first;
use crate::evidence::op_profile::{accelerator_of, OpProfile, ProfileSource, MAX_CPU_OPS};
use crate::evidence::{Evidence, InputId};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Literals that every line this reader reads contains.
pub const KEYWORDS: &[&str] = &["_kernel_time", "\"model_run\""];

/// Distinct op types and providers kept: a model has dozens.
const MAX_KEYS: usize = 512;

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(borrow, default)]
    cat: Option<&'a str>,
    #[serde(borrow, default)]
    name: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    dur: Option<f64>,
    #[serde(borrow, default)]
    args: Option<Args<'a>>,
}

#[derive(Deserialize)]
struct Args<'a> {
    #[serde(borrow, default)]
    op_name: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    provider: Option<std::borrow::Cow<'a, str>>,
}

#[derive(Default)]
pub struct OrtProfile {
    first_line: Option<u64>,
    last_line: u64,
    runs: u32,
    /// Microseconds per provider, and per CPU op type.
    providers: BTreeMap<String, f64>,
    cpu_ops: BTreeMap<String, f64>,
    /// Kernel events with no provider: an older profile, which cannot place them.
    unplaced: u64,
}

impl OrtProfile {
    pub fn line(&mut self, number: u64, message: &str) {
        let t = message.trim().trim_start_matches('[').trim_end_matches(',');
        let t = t.trim_end_matches(']').trim();
        if !t.starts_with('{') {
            return;
        }
        let Ok(e) = serde_json::from_str::<Event>(t) else {
            return;
        };
        let name = e.name.as_deref().unwrap_or("");
        match e.cat {
            Some("Session") if name == "model_run" => self.runs = self.runs.saturating_add(1),
            Some("Node") if name.ends_with("_kernel_time") => {
                let Some(dur) = e.dur.filter(|d| d.is_finite() && *d >= 0.0) else {
                    return;
                };
                self.first_line.get_or_insert(number);
                self.last_line = number;
                let args = e.args.as_ref();
                let Some(provider) = args.and_then(|a| a.provider.as_deref()) else {
                    self.unplaced += 1;
                    return;
                };
                add(&mut self.providers, provider, dur);
                if accelerator_of(provider).is_none() {
                    let op = args.and_then(|a| a.op_name.as_deref()).unwrap_or("?");
                    add(&mut self.cpu_ops, op, dur);
                }
            }
            _ => {}
        }
    }

    pub fn finish(&mut self, input: InputId, ev: &mut Evidence) {
        let Some(first_line) = self.first_line else {
            return;
        };
        if self.providers.is_empty() {
            return;
        }
        // Per inference when the runs are known, else the profile's totals.
        let per = if self.runs > 0 {
            1000.0 * f64::from(self.runs)
        } else {
            1000.0
        };
        let to_ms = |m: &BTreeMap<String, f64>| -> BTreeMap<String, f64> {
            m.iter().map(|(k, us)| (k.clone(), us / per)).collect()
        };
        let providers = to_ms(&self.providers);
        let cpu_ms = providers
            .iter()
            .filter(|(p, _)| accelerator_of(p).is_none())
            .map(|(_, ms)| ms)
            .sum();
        let accelerators = providers
            .into_iter()
            .filter(|(p, _)| accelerator_of(p).is_some())
            .collect();
        ev.add_op_profile(OpProfile {
            input,
            source: ProfileSource::OrtJson,
            first_line,
            last_line: self.last_line,
            accelerators: slowest_first(accelerators, usize::MAX),
            cpu_ms,
            cpu_ops: slowest_first(to_ms(&self.cpu_ops), MAX_CPU_OPS),
            runs: (self.runs > 0).then_some(self.runs),
        });
    }
}

fn add(map: &mut BTreeMap<String, f64>, key: &str, us: f64) {
    if let Some(v) = map.get_mut(key) {
        *v += us;
    } else if map.len() < MAX_KEYS {
        map.insert(key.to_string(), us);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Evidence {
        let mut ev = Evidence::default();
        let mut p = OrtProfile::default();
        for (i, l) in lines.iter().enumerate() {
            p.line(i as u64 + 1, l);
        }
        p.finish(0, &mut ev);
        ev
    }

    fn node(name: &str, op: &str, provider: &str, dur: u32) -> String {
        format!(
            r#"{{"cat" : "Node","pid" :4242,"tid" :4250,"dur" :{dur},"ts" :1200,"ph" : "X","name" :"{name}_kernel_time","args" : {{"op_name" : "{op}","provider" : "{provider}","parameter_size" : "0"}}}},"#
        )
    }

    #[test]
    fn kernel_times_split_by_provider_per_run() {
        let run = r#"{"cat" : "Session","pid" :4242,"tid" :4242,"dur" :5000,"ts" :1000,"ph" : "X","name" :"model_run","args" : {}},"#;
        let a = node(
            "QNN_123_0",
            "QNNExecutionProvider_QNN_123_0_0",
            "QNNExecutionProvider",
            3000,
        );
        let b = node("/Resize", "Resize", "CPUExecutionProvider", 1500);
        let c = node("/ArgMax", "ArgMax", "CPUExecutionProvider", 500);
        let fence = r#"{"cat" : "Node","pid" :4242,"tid" :4250,"dur" :9999,"ts" :1200,"ph" : "X","name" :"/Resize_fence_before","args" : {"op_name" : "Resize"}},"#;
        let ev = read(&["[", run, &a, &b, fence, &c, run, &a, &b, &c, "]"]);
        let p = &ev.op_profiles[0];
        assert_eq!(p.runs, Some(2));
        assert_eq!(p.accelerators, vec![("QNNExecutionProvider".into(), 3.0)]);
        assert!((p.cpu_ms - 2.0).abs() < 1e-9);
        assert_eq!(p.cpu_ops[0], ("Resize".into(), 1.5));
        assert_eq!((p.first_line, p.last_line), (3, 10));
    }

    #[test]
    fn a_profile_without_providers_or_kernel_events_gives_nothing() {
        let old = r#"{"cat" : "Node","pid" :1,"tid" :1,"dur" :10,"ts" :1,"ph" : "X","name" :"conv_kernel_time","args" : {"op_name" : "Conv"}},"#;
        assert!(read(&["[", old, "]"]).op_profiles.is_empty());
        assert!(read(&["[", "  {", "\"cat\": \"Node\",", "]"])
            .op_profiles
            .is_empty());
    }
}

//! Operator profiles: how long each kind of op took, and where it ran (`ingest::op_profile`).
//! Only a profile says how much of the time a partial delegation left on the CPU: node counts
//! and "unsupported op" lines say what fell back, not what it cost.

use super::{Framework, InputId};

/// CPU op types kept per profile, slowest first: enough to say what to move.
pub const MAX_CPU_OPS: usize = 5;
/// Profiles kept per input (TFLite prints one per subgraph and section; the first regular one
/// is the inference).
pub const MAX_PROFILES: usize = 4;

/// Which producer's profile it is, which says what its times are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileSource {
    /// TFLite / LiteRT `benchmark_model --enable_op_profiling`: the "Summary by node type" or
    /// "Run Order" table of the regular runs, in milliseconds per inference.
    TfliteBenchmark,
    /// ONNX Runtime's `enable_profiling` JSON: every node's `_kernel_time` event over every run.
    OrtJson,
}

impl ProfileSource {
    /// The framework whose profile this is: a table pasted alone still names it.
    pub fn framework(self) -> Framework {
        match self {
            ProfileSource::TfliteBenchmark => Framework::Tflite,
            ProfileSource::OrtJson => Framework::OnnxRuntime,
        }
    }
}

/// One profile's time, split by where it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct OpProfile {
    pub input: InputId,
    pub source: ProfileSource,
    pub first_line: u64,
    pub last_line: u64,
    /// Milliseconds per accelerator (a delegate's node type, an execution provider), most first.
    pub accelerators: Vec<(String, f64)>,
    /// Milliseconds on the CPU: built-in kernels and CPU delegates (XNNPACK, Flex) alike.
    pub cpu_ms: f64,
    /// The CPU's op types with their milliseconds, slowest first, at most [`MAX_CPU_OPS`].
    pub cpu_ops: Vec<(String, f64)>,
    /// Inferences the times cover: `Some(n)` when they are per inference after dividing by
    /// `n` (TFLite's table is per inference already: 1), `None` when the profile does not say.
    pub runs: Option<u32>,
}

impl OpProfile {
    pub fn accelerator_ms(&self) -> f64 {
        self.accelerators.iter().map(|(_, ms)| ms).sum()
    }

    pub fn total_ms(&self) -> f64 {
        self.cpu_ms + self.accelerator_ms()
    }

    /// The CPU's share of the profiled time, 0–1; `None` for a profile with no time.
    pub fn cpu_share(&self) -> Option<f64> {
        let total = self.total_ms();
        (total > 0.0).then(|| self.cpu_ms / total)
    }
}

/// A place an op ran, from the name its profile gives it: a delegate's node type (TFLite) or an
/// execution provider (ONNX Runtime). `None` means the CPU.
pub fn accelerator_of(place: &str) -> Option<&str> {
    let p = place.trim();
    (!p.is_empty() && !super::runs_on_cpu(p)).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_delegates_and_providers_are_the_cpu() {
        assert_eq!(accelerator_of("TfLiteXNNPackDelegate"), None);
        assert_eq!(accelerator_of("CPUExecutionProvider"), None);
        assert_eq!(accelerator_of("TfLiteFlexDelegate"), None);
        assert_eq!(
            accelerator_of("TfLiteGpuDelegateV2"),
            Some("TfLiteGpuDelegateV2")
        );
        assert_eq!(
            accelerator_of("QNNExecutionProvider"),
            Some("QNNExecutionProvider")
        );
    }

    #[test]
    fn the_share_is_of_the_profiled_time() {
        let p = OpProfile {
            input: 0,
            source: ProfileSource::TfliteBenchmark,
            first_line: 1,
            last_line: 2,
            accelerators: vec![("TfLiteGpuDelegateV2".into(), 6.0)],
            cpu_ms: 2.0,
            cpu_ops: Vec::new(),
            runs: Some(1),
        };
        assert_eq!(p.cpu_share(), Some(0.25));
    }
}

//! What a backend's or device's name, as a framework prints it, says about where the work ran:
//! on the CPU (`CPU`, `cpu`, XNNPACK, BLAS, MNN's ARM82) or on an accelerator (a GPU, an NPU, a
//! DSP, whichever API drives it). llama-bench joins backends with commas (`Metal,BLAS`): one
//! accelerator among them means the layers it was given ran there.

/// Where a named backend runs the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Cpu,
    Accelerator,
}

/// Name parts of accelerators' backends and devices, lowercase.
const ACCELERATORS: &[&str] = &[
    "gpu", "cuda", "vulkan", "metal", "mps", "opencl", "opengl", "npu", "htp", "qnn", "dsp",
    "hexagon", "nnapi", "rocm", "hip", "sycl", "musa", "cann", "coreml", "ane", "dml", "directml",
    "webgpu", "tensorrt", "tpu", "rknpu",
];

/// Name parts of CPU backends, lowercase.
const CPUS: &[&str] = &[
    "cpu",
    "xnnpack",
    "blas",
    "accelerate",
    "arm82",
    "neon",
    "portable",
    "aarch64",
    "kleidiai",
];

/// Whether a word of `name` starts with one of `parts`: `Vulkan0`, `CUDA_Host`, `cuda_v12` all
/// name their API, while `ane` must not match inside `plane`.
fn names(name: &str, parts: &[&str]) -> bool {
    name.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| parts.iter().any(|p| w.starts_with(p)))
}

/// Where the backend `name` runs the work; `None` for a name that says neither.
pub fn place_of(name: &str) -> Option<Place> {
    if names(name, ACCELERATORS) {
        Some(Place::Accelerator)
    } else if names(name, CPUS) {
        Some(Place::Cpu)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_as_frameworks_print_them() {
        for a in [
            "CUDA",
            "Vulkan0",
            "Metal,BLAS",
            "opencl",
            "QNN HTP",
            "NNAPI",
            "GPU",
            "mps",
        ] {
            assert_eq!(place_of(a), Some(Place::Accelerator), "{a}");
        }
        for c in ["CPU", "cpu", "XNNPACK", "BLAS", "CPU_REPACK", "ARM82"] {
            assert_eq!(place_of(c), Some(Place::Cpu), "{c}");
        }
        assert_eq!(place_of("plane"), None);
        assert_eq!(place_of("RPC"), None);
    }
}

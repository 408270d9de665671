//! The wording table of the `fallback` rule: which log messages say that an op, a kernel or a
//! precision is unsupported or falls back, and which only look like they do.
//!
//! A framework's own wording is one more entry in [`PHRASES`] (or [`BENIGN`]); no code changes.

use crate::evidence::FallbackClass;
use aho_corasick::AhoCorasick;
use regex::{Regex, RegexSet};
use std::sync::OnceLock;

/// Lines that mention fallback or support but report none: checked first, and a match
/// means the line is not a fallback.
pub const BENIGN: &[&str] = &[
    // "fallback: none", "unsupported ops: 0", "fallback = false", "not supported nodes: []"
    r"(?i)\b(?:fall\s*-?backs?|unsupported(?:\s+[\w-]+){0,2}|not\s+supported(?:\s+[\w-]+){0,2}|reverts?|reverted(?:\s+[\w-]+){0,2})\s*[:=]\s*(?:none|0+|false|no|off|disabled|n/?a|\[\s*\]|\{\s*\})\s*(?:[,;|)(]|$)",
    // "no fallback", "0 unsupported nodes", "no ops fell back", "zero operations fall back"
    r"(?i)\b(?:no|zero|0)\s+(?:[\w-]+\s+){0,2}(?:fall\s*-?backs?|fell\s+back|fall(?:s|ing)?\s+back|unsupported|were\s+unsupported|not\s+supported)\b",
    // Command-line help: an option column, then its description ("  --fallback MODE   fall back to ...")
    r"^\s*-{1,2}[A-Za-z][\w-]*(?:[ =][<\[]?[\w|.-]+[>\]]?)?(?:,\s*-{1,2}[A-Za-z][\w-]*(?:[ =][<\[]?[\w|.-]+[>\]]?)?)*\s{2,}\S",
    r"(?i)^\s*usage:",
    // A setting being echoed, not an event: "allow_fallback = true", "fallback_to_cpu: 1"
    r"(?i)\b[\w.]*(?:_fallback|fallback_)[\w.]*\s*[:=]",
    // QNN SDK (QnnDsp during lowering): the profiler cannot estimate performance; no op is
    // affected
    r"(?i)\bperformance\s+estimates?\s+(?:are\s+|is\s+)?(?:unsupported|not\s+supported)\b",
    // llama-cpp-python: a chat template choice, not a compute fallback
    r"(?i)\bfallback\s+chat\s+format\b",
    // TFLite: nothing left on the CPU, or full delegation
    r"(?i)\bremaining\s+0\s+operations\b",
    r"(?i)\ball\s+0\s+operations\s+will\s+run\s+on\s+the\s+cpu",
    r"(?i)completely\s+executed\s+by\s+the\s+delegate",
    // ExecuTorch's Core ML partitioner: "X is not supported by CoreML.  Overriding op support."
    // means the op is delegated all the same
    r"(?i)\boverriding\s+op\s+support\b",
    // ollama: the KV cache quantization asked for (OLLAMA_KV_CACHE_TYPE, often empty) is not
    // used for this model; the cache stays f16 and no compute moves
    r"(?i)\bkv\s+cache\s+type\s+not\s+supported\b",
    // A CPU without an instruction set ("my Xeon doesn't support AVX", "CPU does not have
    // minimum vector extensions"): the CPU-feature rules and the placement rule read these; no
    // op falls back
    r"(?i)\b(?:does\s*n[o']t|do\s*n[o']t|not)\s+(?:support|have)\s+(?:the\s+)?(?:minimum\s+)?(?:avx[\w-]*|avx|sse[\d.]*|fma3?|f16c|neon|dotprod|i8mm|sve2?|vector\s+extensions)\b",
];

/// Logcat tags of Android system services and vendor daemons. Their lines say "not supported"
/// or "fallback" about power hints, audio routes or radios, never about an inference (a
/// Qualcomm phone logs `ANDR-PERF-OPTSHANDLER: Perflock resource ... not supported` many times
/// a second), so they are not fallback evidence. Matched as prefixes, ASCII case folded.
/// NNAPI and other accelerator HALs are deliberately absent: their lines are evidence.
pub const SYSTEM_TAGS: &[&str] = &[
    "ANDR-PERF",
    "PerfService",
    "perf-hal",
    "thermal-engine",
    "ActivityManager",
    "ActivityTaskManager",
    "WindowManager",
    "PackageManager",
    "SurfaceFlinger",
    "BufferQueue",
    "audio_hw",
    "AudioFlinger",
    "AudioPolicy",
    "chatty",
    "wificond",
    "WifiHAL",
    "WifiStateMachine",
    "bt_",
    "Bluetooth",
    "vold",
    "netd",
    "healthd",
    "hwservicemanager",
    "ServiceManager",
    "QC-time-services",
    "cnss",
    "RILJ",
    "Telephony",
    "LocSvc",
    "GnssHAL",
    "CameraService",
    "QCamera",
    "Choreographer",
    "InputDispatcher",
    "PowerManagerService",
    "OpenGLRenderer",
];

/// True for a logcat tag in [`SYSTEM_TAGS`].
pub fn is_system_tag(tag: &str) -> bool {
    SYSTEM_TAGS.iter().any(|t| {
        tag.len() >= t.len() && tag.as_bytes()[..t.len()].eq_ignore_ascii_case(t.as_bytes())
    })
}

/// Fallback wording, most specific first: a line takes the class of the first entry it matches.
pub const PHRASES: &[(FallbackClass, &str)] = &[
    // --- precision: int4/int8 expanded or computed as floats
    (
        FallbackClass::Precision,
        r"(?i)\b(?:fall(?:s|ing)?\s*-?back|fell\s+back|revert(?:s|ed|ing)?|expand(?:s|ed|ing)?|dequantiz(?:e|es|ed|ing)|upcast(?:s|ed|ing)?)\b[^.;]{0,60}?\b(?:to|into|as)\s+(?:fp(?:16|32)|f(?:16|32)|float(?:16|32)?|half|bf16)\b",
    ),
    (
        FallbackClass::Precision,
        r"(?:回退|退回|降级|展开)(?:到|至|为|成)?\s*(?i:fp16|fp32|f16|f32|float|半精度|浮点)",
    ),
    // ExecuTorch quantizer: the op is left in floating point
    (
        FallbackClass::Precision,
        r"(?i)\bno\s+quant\s+config\s+is\s+implemented\s+for\s+op\b",
    ),
    // --- reference kernels
    (
        FallbackClass::Reference,
        r"(?i)\b(?:fall(?:s|ing)?\s*-?back|fell\s+back|revert\w*|using|use|uses|selected)\b[^.;]{0,40}?\b(?:reference|generic|naive|slow|scalar|portable|unoptimi[sz]ed|compatibility)\s+(?:kernel|path|implementation|impl|version|code|build)s?\b",
    ),
    // TFLite: the default (XNNPACK) delegate could not be applied; the built-in kernels run
    (
        FallbackClass::Reference,
        r"(?i)\bfailed\s+to\s+apply\s+(?:the\s+)?(?:xnnpack|default\s+tensorflow\s+lite)\s+delegate",
    ),
    // --- back to the CPU
    (
        FallbackClass::Cpu,
        r"(?i)\b(?:fall(?:s|ing)?\s*-?back|fell\s+back|revert\w*)\b[^.;]{0,60}?\b(?:to|on|onto)\s+(?:the\s+)?(?:cpu|host)\b",
    ),
    (
        FallbackClass::Cpu,
        r"(?i)\busing\s+(?:the\s+)?cpu\s+instead\b",
    ),
    (
        FallbackClass::Cpu,
        r"(?i)\b(?:remaining\s+)?[1-9]\d*\s+operations?\s+will\s+run\s+on\s+the\s+cpu",
    ),
    (
        FallbackClass::Cpu,
        r"(?i)\bnot\s+assigned\s+to\s+the\s+preferred\s+execution\s+providers?",
    ),
    // ONNX Runtime's Python session: an EP failed (at creation or in a run) and the session is
    // made again on the CPU alone; it prints the list's repr, "Falling back to
    // ['CPUExecutionProvider'] and retrying."
    (
        FallbackClass::Cpu,
        r"(?i)\bfall(?:s|ing)?\s*-?back\s+to\s+\[\s*'CPUExecutionProvider'\s*\]",
    ),
    // ONNX Runtime: an accelerator EP whose library or dependencies would not load is left out,
    // and its nodes run on the CPU EP ("Failed to create CUDAExecutionProvider. Require cuDNN
    // 9.* and CUDA 12.*", "... Please reference ... to ensure all dependencies are met.")
    (
        FallbackClass::Cpu,
        r"(?i)\bfailed\s+to\s+create\s+(?:cuda|rocm|migraphx|dml|openvino|coreml|qnn|nnapi|webgpu|webnn|vitisai|cann|nv_?tensorrt_?rtx)\s*(?:execution\s*provider|ep)\b",
    ),
    // ONNX Runtime's QNN EP could not set its backend up (a libQnnHtp it cannot load, an
    // interface version it does not take, a device it cannot create): it claims no node
    (FallbackClass::Cpu, r"(?i)\bqnn\s+setupbackend\s+failed\b"),
    // ONNX Runtime's Python API: the package installed has no such EP (the CPU-only wheel, or
    // two wheels installed over each other); the session is made with the providers left
    (
        FallbackClass::Cpu,
        r"(?i)\bspecified\s+provider\s+'\w+ExecutionProvider'\s+is\s+(?:not\s+in\s+available\s+provider\s+names|unavailable)",
    ),
    (
        FallbackClass::Cpu,
        r"(?i)\bassigned\s+to\s+the\s+default\s+cpu\s+ep\b",
    ),
    (FallbackClass::Cpu, r"(?i)\bno\s+usable\s+gpu\s+found\b"),
    // MNN: the backend asked for (3 OpenCL, 7 Vulkan, 1 Metal) is not in the build or would not
    // start, so the session is created on its backup type, 0 being the CPU
    (
        FallbackClass::Cpu,
        r"(?i)\bcan'?t\s+find\s+type\s*=\s*\d+\s+backend,\s*use\s+0\s+instead\b",
    ),
    // TFLite, older builds: "First 5 operations will run on the GPU, and the remaining 3 on the CPU."
    (
        FallbackClass::Cpu,
        r"(?i)\bremaining\s+[1-9]\d*\s+on\s+the\s+cpu\b",
    ),
    // TFLite: a GPU / NNAPI / Hexagon delegate failed, so the graph stays on the CPU
    (
        FallbackClass::Cpu,
        r"(?i)\bfailed\s+to\s+apply\s+(?:the\s+)?(?:gpu|nnapi|hexagon|opencl|coreml)\s+delegate",
    ),
    (
        FallbackClass::Cpu,
        r"(?i)\bnot\s+compiled\s+with\s+gpu\s+offload\s+support\b",
    ),
    (FallbackClass::Cpu, r"(?:回退|退回)(?:到|至)\s*(?i:cpu)"),
    // ExecuTorch's Vulkan partitioner found nothing it can run: the whole graph stays on the CPU
    (
        FallbackClass::Cpu,
        r"(?i)\bno\s+vulkan\s+subgraphs\s+can\s+be\s+partitioned\b",
    ),
    // ncnn: with no usable Vulkan device or driver, `Net` turns `use_vulkan_compute` off and runs
    // on the CPU without saying so again
    (
        FallbackClass::Cpu,
        r"(?i)^\s*(?:no\s+vulkan\s+device|load\s+vulkan\s+driver\s+failed|vk(?:CreateInstance|EnumeratePhysicalDevices|CreateDevice)\s+failed\s+-?\d+)\s*$",
    ),
    // --- unsupported ops, kernels, types, devices
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\b(?:unsupported|not\s+supported|isn't\s+supported|not\s+implemented|not\s+registered|cannot\s+be\s+used\s+with|does\s+not\s+support|doesn't\s+support|no\s+(?:compatible|suitable|matching)\s+(?:[\w-]+\s+){0,2}kernels?)\b",
    ),
    // ONNX Runtime NNAPI EP: "Node supported: [0] Operator type: [MatMul]" is a rejected node
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\bnode\s+supported:\s*\[0\]",
    ),
    // ExecuTorch QNN partitioner: "[QNN Partitioner Op Support]: aten.index.Tensor | False"
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\[qnn\s+partitioner\s+op\s+support\]:.*\|\s*false\b",
    ),
    // The same partitioner since 2026-06, one phase name per partitioner: "[QnnPartitioner]
    // aten.index.Tensor | False"
    (
        FallbackClass::UnsupportedOp,
        r"(?i)^\s*\[\w*partitioner\w*\]\s+\S+\s*\|\s*false\s*$",
    ),
    // ExecuTorch's Vulkan partitioner: "[Vulkan Partitioner] Due to [no operator
    // implementation], skipping aten.index.Tensor"; and the partitioners' shared
    // `WhyNoPartition` line, whatever reason it gives
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\[vulkan\s+partitioner\]\s+due\s+to\s+\[[^\]]*\],\s+skipping\b",
    ),
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\bwas\s+not\s+partitioned\s+because\b",
    ),
    // MNN backends: "The Creator Don't support type [ROIPooling], roi" (the op runs on the CPU)
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\bdon'?t\s+support\s+type\b",
    ),
    // TFLite: the op exists on the GPU, but not for this (quantized) tensor type
    (
        FallbackClass::UnsupportedOp,
        r"(?i)\bop\s+is\s+supported,\s+but\s+tensor\s+type",
    ),
    (FallbackClass::UnsupportedOp, r"不支持"),
    // ONNX Runtime: TensorRT's EP would not start; CUDA's, when listed after it, takes its nodes
    (
        FallbackClass::Other,
        r"(?i)\bfailed\s+to\s+create\s+tensorrt\s*(?:execution\s*provider|ep)\b",
    ),
    // --- fallback to something unnamed
    (
        FallbackClass::Other,
        r"(?i)\b(?:fall(?:s|ing)?\s*-?back|fell\s+back|revert(?:s|ed|ing)?\s+to)\b",
    ),
    (FallbackClass::Other, r"回退|降级"),
];

/// Words at least one of which every entry of [`PHRASES`] contains (ASCII case-insensitive).
/// Most log lines contain none, and skipping them is what makes the scan fast. Adding a phrase
/// that uses none of these words needs a new keyword here; a test checks the table for that.
pub const KEYWORDS: &[&str] = &[
    "fall",
    "fell",
    "revert",
    "expand",
    "dequantiz",
    "upcast",
    "support",
    "instead",
    "on the cpu",
    "failed to apply",
    "implemented",
    "registered",
    "assigned",
    "cannot be used",
    "compatible",
    "suitable",
    "matching",
    "reference",
    "generic",
    "naive",
    "slow",
    "scalar",
    "portable",
    "unoptimi",
    "compatibility",
    "usable gpu",
    "failed to create",
    "specified provider",
    "setupbackend",
    "partitioner]",
    "partitioned",
    "vulkan device",
    "vulkan driver",
    "vkcreateinstance",
    "vkenumeratephysicaldevices",
    "vkcreatedevice",
    "回退",
    "退回",
    "降级",
    "展开",
    "不支持",
];

struct Compiled {
    keywords: AhoCorasick,
    benign: RegexSet,
    phrases: RegexSet,
    numbers: Regex,
    quoted: Regex,
    hex: Regex,
    node_index: Regex,
    spaces: Regex,
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| Compiled {
        keywords: AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(KEYWORDS)
            .expect("keywords compile"),
        benign: RegexSet::new(BENIGN).expect("benign table compiles"),
        phrases: RegexSet::new(PHRASES.iter().map(|(_, p)| *p)).expect("phrase table compiles"),
        numbers: Regex::new(r"\b\d+(?:\.\d+)?\b").expect("numbers"),
        quoted: Regex::new(r#"'[^']*'|"[^"]*"|`[^`]*`"#).expect("quoted"),
        hex: Regex::new(r"\b0x[0-9a-fA-F]+\b").expect("hex"),
        // Node names like MatMul_12 (but not quant names like q4_0, which keep their meaning).
        node_index: Regex::new(r"\b([A-Za-z][A-Za-z0-9]{2,})_\d+\b").expect("node index"),
        spaces: Regex::new(r"\s+").expect("spaces"),
    })
}

/// Classifies a bare message (wrapper already removed); `None` if it reports no fallback.
pub fn classify(message: &str) -> Option<FallbackClass> {
    let c = compiled();
    if !c.keywords.is_match(message) || c.benign.is_match(message) {
        return None;
    }
    let first = c.phrases.matches(message).into_iter().next()?;
    Some(PHRASES[first].0)
}

/// The grouping key of a message: numbers, quoted names and addresses blanked, so that the same
/// warning about different tensors or nodes counts as one.
pub fn normalize(message: &str) -> String {
    let c = compiled();
    let s = c.hex.replace_all(message, "0x#");
    let s = c.quoted.replace_all(&s, "'…'");
    let s = c.node_index.replace_all(&s, "${1}_#");
    let s = c.numbers.replace_all(&s, "#");
    let s = c.spaces.replace_all(s.trim(), " ");
    s.chars().take(240).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_real_wording() {
        let cases = [
            ("current op does not support int4, falling back to fp16 expansion", FallbackClass::Precision),
            ("tensor 'token_embd.weight' (q4_K) (and 66 others) cannot be used with preferred buffer type CPU_REPACK, using CPU instead", FallbackClass::Cpu),
            ("Following operations are not supported by GPU delegate:", FallbackClass::UnsupportedOp),
            ("12 operations will run on the GPU, and the remaining 7 operations will run on the CPU.", FallbackClass::Cpu),
            ("[W:onnxruntime:, session_state.cc:1169 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance.", FallbackClass::Cpu),
            ("MNN_QNN: Not registered type 35, ResizeBilinear_1.", FallbackClass::UnsupportedOp),
            ("Can't Find type=3 backend, use 0 instead", FallbackClass::Cpu),
            ("kleidiai: no compatible f32 kernels found for CPU features mask 3", FallbackClass::UnsupportedOp),
            ("matmul: no int8 dot-product, using reference kernel", FallbackClass::Reference),
            ("delegate init failed, fallback enabled", FallbackClass::Other),
            ("int4 算子不支持，回退到 fp16 展开", FallbackClass::Precision),
            ("First 5 operations will run on the GPU, and the remaining 3 on the CPU.", FallbackClass::Cpu),
            ("No operations will run on the GPU, and all 31 operations will run on the CPU.", FallbackClass::Cpu),
            ("Node supported: [0] Operator type: [MatMulInteger] index: [12] name: [/model/layers.0/MatMul]", FallbackClass::UnsupportedOp),
            ("[QNN Partitioner Op Support]: aten.index.Tensor | False", FallbackClass::UnsupportedOp),
            ("No quant config is implemented for op, aten.embedding.default", FallbackClass::Precision),
            ("The Creator Don't support type [ROIPooling], roi", FallbackClass::UnsupportedOp),
            ("Failed to apply XNNPACK delegate.", FallbackClass::Reference),
            ("ggml_vulkan: device Vulkan0 does not support 16-bit storage.", FallbackClass::UnsupportedOp),
            ("[QnnPartitioner] aten.index.Tensor | False", FallbackClass::UnsupportedOp),
            ("[QnnPartitioner] aten.index.Tensor | No node visitor, unsupported", FallbackClass::UnsupportedOp),
            ("[QnnPartitioner] aten.index.Tensor | Forced Fallback", FallbackClass::Other),
            ("No Vulkan subgraphs can be partitioned!", FallbackClass::Cpu),
            ("[Vulkan Partitioner] Due to [no operator implementation], skipping aten.index.Tensor", FallbackClass::UnsupportedOp),
            ("WhyNoPartition: Node aten_linear_default was not partitioned because Expected weight to be a static param.", FallbackClass::UnsupportedOp),
            ("no vulkan device", FallbackClass::Cpu),
            ("load vulkan driver failed", FallbackClass::Cpu),
            ("vkCreateInstance failed -9", FallbackClass::Cpu),
            ("vkCreateDevice failed -3", FallbackClass::Cpu),
            ("Falling back to ['CPUExecutionProvider'] and retrying.", FallbackClass::Cpu),
            ("Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies as mentioned in the GPU requirements page", FallbackClass::Cpu),
            ("Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirementsto ensure all dependencies are met.", FallbackClass::Cpu),
            ("Failed to create ROCMExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/ROCm-ExecutionProvider.html#requirements to ensure all dependencies are met.", FallbackClass::Cpu),
            ("UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'", FallbackClass::Cpu),
            ("ValueError: Specified provider 'DmlExecutionProvider' is unavailable. Available providers: 'CPUExecutionProvider'", FallbackClass::Cpu),
            // TensorRT's failure hands its nodes to CUDA, not to the CPU.
            ("Failed to create TensorrtExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/TensorRT-ExecutionProvider.html#requirements to ensure all dependencies are met.", FallbackClass::Other),
            ("Falling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.", FallbackClass::Other),
            ("QNN SetupBackend failed Unable to find a valid interface for /usr/lib/libQnnHtp.so", FallbackClass::Cpu),
            ("QNN SetupBackend failed Unable to load backend, error:  dlopen failed: library \"libQnnHtp.so\" not found", FallbackClass::Cpu),
        ];
        for (msg, class) in cases {
            assert_eq!(classify(msg), Some(class), "{msg}");
        }
    }

    #[test]
    fn stays_quiet_on_benign_mentions() {
        let cases = [
            "[WARNING] QnnDsp <W> Performance Estimates unsupported",
            "fallback: none",
            "unsupported ops: 0",
            "Unsupported nodes: 0, supported nodes: 312",
            "  --fallback MODE        fall back to the CPU when the GPU is busy (default: off)",
            "  -nf, --no-fallback     do not fall back to CPU",
            "usage: llama-cli [options] --cpu-fallback",
            "allow_fallback = true",
            "0 operations fell back",
            "no ops fell back to CPU",
            "12 operations will run on the GPU, and the remaining 0 operations will run on the CPU.",
            "Explicitly applied GPU delegate, and the model graph will be completely executed by the delegate.",
            "llama_model_loader: - type q4_0:  193 tensors",
            "system_info: n_threads = 4 / 8 | NEON = 1 | ARM_FMA = 1 | DOTPROD = 1 |",
            "Node supported: [1] Operator type: [Add] index: [3] name: [/add]",
            "Using fallback chat format: llama-2",
            "[QNN Partitioner Op Support]: aten.add.Tensor | True",
            "INFO: Created TensorFlow Lite XNNPACK delegate for CPU.",
            "[2024-10-17 17:43:01] INFO auto_device.py:88: Not found device: cuda:0",
            "[QnnPartitioner] aten.linear.default | True",
            "aten.upsample_nearest2d.vec is not supported by CoreML.  Overriding op support.",
            "Found 3 Vulkan subgraphs to be partitioned.",
            // ONNX Runtime listing what it has, or creating a CPU-side EP's session
            "Available providers: ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']",
            "Failed to create session: model.onnx not found",
            "ggml_vulkan: Found 1 Vulkan devices:",
            // ollama: a KV cache quant setting not used, and prose about the CPU's ISA
            r#"time=2025-02-18T02:21:25.646Z level=WARN source=server.go:190 msg="kv cache type not supported by model" type="""#,
            "my Xeon x5670 doesn't support AVX so I'm left with this error.",
            r#"WARN source=gpu.go:222 msg="CPU does not have minimum vector extensions, GPU inference disabled" required=avx detected="no vector extensions""#,
        ];
        for msg in cases {
            assert_eq!(classify(msg), None, "{msg}");
        }
    }

    #[test]
    fn every_phrase_entry_is_reachable_through_the_keywords() {
        // Each example that fires must pass the keyword prefilter; checked over every positive
        // case above plus one example per table entry.
        let examples = [
            "falling back to fp16",
            "fell back to f32",
            "reverted to fp32",
            "expanded to fp16",
            "dequantized to float32",
            "upcast to f32",
            "using reference kernel",
            "selected generic implementation",
            "falls back to the CPU",
            "using CPU instead",
            "the remaining 2 operations will run on the CPU",
            "not assigned to the preferred execution providers",
            "assigned to the default CPU EP",
            "no usable GPU found",
            "Falling back to ['CPUExecutionProvider'] and retrying.",
            "Failed to create QNNExecutionProvider.",
            "Specified provider 'CUDAExecutionProvider' is not in available provider names.",
            "Failed to create TensorrtExecutionProvider.",
            "QNN SetupBackend failed",
            "not compiled with GPU offload support",
            "[QnnPartitioner] aten.index.Tensor | False",
            "No Vulkan subgraphs can be partitioned!",
            "[Vulkan Partitioner] Due to [dtype not supported], skipping aten.index.Tensor",
            "Node x was not partitioned because y",
            "no vulkan device",
            "vkEnumeratePhysicalDevices failed -3",
            "回退到 CPU",
            "op not implemented",
            "Not registered type 35",
            "cannot be used with CPU_REPACK",
            "no compatible f32 kernels",
            "OP is supported, but tensor type isn't matched!",
            "不支持",
            "fallback enabled",
            "降级",
        ];
        for e in examples {
            assert!(
                compiled().keywords.is_match(e),
                "keyword prefilter misses: {e}"
            );
            assert!(classify(e).is_some(), "table misses: {e}");
        }
    }

    #[test]
    fn normalization_groups_variants() {
        let a = normalize("tensor 'blk.0.attn_q.weight' (q4_K) (and 66 others) cannot be used");
        let b = normalize("tensor  'output.weight' (q4_K) (and 3 others) cannot be used");
        assert_eq!(a, b);
        assert!(a.contains("q4_K"), "quant names survive: {a}");
        assert_ne!(
            normalize("type q4_0 unsupported"),
            normalize("type q8_0 unsupported")
        );
    }
}

//! The wording of a run that failed: crashes, aborts, a model or session that would not load,
//! out-of-memory kills, and a model built for another backend. Learnt from real logs (llama.cpp
//! load errors and zsh's `abort` job line, MNN map errors and segfaults, Genie/QNN context and
//! interface failures, MediaPipe calculator and RET_CHECK failures, TVM/MLC `Check failed`,
//! ONNX Runtime session initialization errors, Android `FATAL EXCEPTION` / `Fatal signal`).

use crate::evidence::FailureClass;
use aho_corasick::AhoCorasick;
use regex::{Regex, RegexSet};
use std::sync::OnceLock;

/// Lines that look like failures and are not: MNN prints this on every first run (no tuning
/// cache yet) and carries on; llama.cpp's CUDA backend warns when it cannot pin host memory
/// (`ggml_cuda_host_malloc`) and uses pageable memory instead. ONNX Runtime's QNN EP that cannot
/// set its backend up (`QNN SetupBackend failed Unable to find a valid interface …`) claims no
/// node, and the session runs on the CPU EP: a fallback (see `fallback_phrases`), not a failure.
const BENIGN: &str = r"(?i)load cache file error\.?|\bfailed to allocate [\d.]+ [KMG]i?B of pinned memory(?::[^.;]*)?|\bqnn setupbackend failed\b.*";

/// Most specific first: a line takes the class of the first entry it matches. The producers'
/// own wording, where known:
/// - CUDA `CUDA error: out of memory`, ggml `cudaMalloc failed: out of memory`,
///   `failed to allocate CUDA0 buffer of size N`, `unable to allocate ... buffer`, Vulkan
///   `ErrorOutOfDeviceMemory` / `ErrorOutOfHostMemory`, OpenCL `CL_OUT_OF_HOST_MEMORY`,
///   `CL_OUT_OF_RESOURCES`, `CL_MEM_OBJECT_ALLOCATION_FAILURE`, Metal `Insufficient Memory
///   (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)`, ollama `model requires more system
///   memory`, Java `java.lang.OutOfMemoryError`, MLC `Insufficient GPU memory error`, llama.cpp's
///   Metal backend of 2023 `ggml_metal_add_buffer: buffer 'data' size N is larger than buffer
///   maximum of M` (one mapping above the device's `maxBufferLength`);
/// - configuration: Genie `Missing required field`, MLC `mlc-chat-config.json` not found, a
///   `config.json` that cannot be opened or read;
/// - load: ORT `Failed to create session`, `LoadLibrary failed with error 126`, TFLite `Failed
///   to apply ... delegate`, ExecuTorch `loading method forward failed with error 0x20`,
///   `[ExecuTorch Error 0x12]`, `Backend XnnpackBackend is not registered`, QNN `QnnDsp <E>`,
///   `QNN_COMMON_ERROR`, JNI `java.lang.UnsatisfiedLinkError`, MNN llm_demo `LLM init error` and
///   `Load module failed, please check model`; ExecuTorch's runtime `Missing operator: [N] op`
///   (a kernel not linked in), `Init failed for backend X: 0x…`, `CALL_DELEGATE execute failed at
///   instruction`, `XNNCompiler::compileModel failed`, `… XNNPACK status: 0x…`, its QNN backend `Failed to finalize Qnn
///   Graph with error: N` and `qnn_graph_execute failed`, ORT's `QNN graph execute error. Error
///   code: 6001`, Genie apps' `Failed to create the Genie Dialog` and `GENIE_STATUS_ERROR_…`,
///   MediaPipe's `Can not open OpenCL library on this device` and its CPU engine's `Failed to
///   generate output` / `TF_LITE_PREFILL_DECODE not found.`, ncnn's `network graph not ready`, `parse magic failed`,
///   `layer load_model N failed` and `fopen model.param failed`;
/// - mismatch, besides the above: ExecuTorch's `Program identifier 'ET12' != expected 'ET13'` (a
///   .pte from another release), MediaPipe's CPU engine's `LoRA on CPU is not supported yet.`, and
///   ExecuTorch's QNN backend's `… version X is not supported. The minimum
///   supported version is Y`; out of memory: ExecuTorch's `Memory allocation failed: NB
///   requested`; configuration: Genie's `Missing QnnHtp field: pos-id-dim`;
/// - abort: `GGML_ASSERT(...) failed`, `ggml_abort`, `GGML_ABORT`, CANN `EZ9999: Inner Error`
///   and `aclnn...` failures, `CANN error`;
/// - crash: ExecuTorch's `ET_CHECK_MSG`, `In function f(), assert failed (cond): …`.
const PHRASES: &[(FailureClass, &str)] = &[
    (
        FailureClass::OutOfMemory,
        r"(?i)\bout of (?:device |host |gpu |video )?memory\b|\boom[-_ ]?kill|\blowmemorykiller\b|std::bad_alloc|ErrorOutOf(?:Device|Host)Memory|\bcannot allocate memory\b|\bkilled process \d+|\bCL_OUT_OF_(?:HOST_MEMORY|RESOURCES)\b|\bCL_MEM_OBJECT_ALLOCATION_FAILURE\b|\bOutOfMemoryError\b|kIOGPUCommandBufferCallbackErrorOutOfMemory|\binsufficient (?:gpu )?memory\b|\brequires more (?:system |gpu )?memory\b|\b(?:failed|unable) to allocate\b[^.;]{0,60}\bbuffers?\b|\bmemory allocation failed: \d+b requested\b|ggml_opencl: .{0,200}\berror -[456] at\b|\byou may be out of vram\b|\bis larger than buffer maximum\b|(?-i)^\s*(?:\[\d+\][+-]?\s+|\S+: line \d+:\s+\d+\s+)?Killed(?:\s{2,}\S.*)?\s*$",
    ),
    (
        FailureClass::Mismatch,
        r"(?i)\bbackend type is\b|\bbackend\s+mismatch\b|\b(?:model|version|sdk|backend|arch)\b[^.;]{0,40}\bmismatch|\bincompatible\s+(?:model|backend|version|context)\b|fallback to cpu ep has been explicitly disabled|ret_check failure.{0,160}\(backend\)|\bdidn't find op for builtin opcode\b|\blora on cpu is not supported\b|\bprogram identifier '[^']*' != expected\b|\bversion [\d.]+ is (?:not supported|mismatched)\. the minimum supported version\b|\bprovider requested, but the installed genai has not been built with \w+ support\b",
    ),
    (
        FailureClass::Config,
        r#"(?i)\bmissing required (?:field|key|parameter|property)\b|\bmlc-chat-config\.json\b[^.;]{0,60}\b(?:not found|cannot|could not|no such|missing|failed)|\b(?:cannot|can't|could not|unable to|failed to) (?:open|find|read|load|parse)\b[^.;]{0,60}\bconfig(?:\.json)?\b|\bconfig(?:\.json)?\b[^.;]{0,40}\b(?:not found|no such file)|^\s*missing \w+ field: \S"#,
    ),
    (
        FailureClass::Load,
        r"(?i)\berror loading model\b|\bfailed to (?:load|open|read|mmap) (?:the )?model\b|\bfailure to initialize model\b|\bfailed to create (?:the )?(?:dialog|session|context|interpreter|engine|model|llm)\b|\bcould not create context\b|\bcreate from binary failed\b|\bunable to find a valid interface\b|\bgetqnninterface failed\b|\bcalculator::open\(\) for node\b[^.]{0,80}\bfailed\b|\bcalculatorgraph::run\(\) failed\b|\binitialization failed\b|\bcannot open lib\w*|\bmap error\b|\bfailed to initialize (?:the )?(?:backend|session|model|runtime|delegate|engine)\b|\bunable to (?:load|open) (?:the )?model\b|\bmodel (?:load(?:ing)?|init(?:ialization)?) failed\b|\bloadlibrary failed with error \d+|\bfailed to apply (?:the )?(?:\w+ )*delegate\b|\b(?:loading|execution of) method \w+ failed with (?:error|status) 0x[0-9a-f]+|\[executorch error 0x[0-9a-f]+\]|\bbackend \w+ is not registered\b|\bqnn\w* <e>|\bqnn_common_error\w*|\bunsatisfiedlinkerror\b|\bllm init error\b|\bload module failed\b|\bmissing operator: \[\d+\]|\binit failed for backend\b|\b(?:call_delegate execute|kernelcall) failed at instruction\b|\bxnncompiler::compilemodel failed\b|\bxnnpack status: 0x[0-9a-f]+|\bfail(?:ed)? to (?:finalize|compile|execute|retrieve) (?:the )?qnn graph\b|\bfailed to finalize graph \(id\b|\bqnn_graph_execute failed\b|\bqnn graph execute error\b|\bgraph prepare failed\b|\bfailed to create (?:the )?genie (?:dialog|config)\b|\bgenie_status_error_\w+|\bcan ?not open opencl library\b|\b(?:tf_lite_prefill_decode|tokenizer_model) not found\b|\bfailed to (?:generate output|encode input|add query chunk|predict)\b|\bnetwork graph not ready\b|\b(?:parse|read) (?:magic|layer_count|blob_count) failed\b|\bparamdict load_param(?:_bin)? \d+(?: \S+)? failed\b|\blayer (?:load_model|load_param|create_pipeline|upload_model) \d+(?: \S+)? failed\b|\bfopen \S+\.(?:param|bin) failed\b",
    ),
    (
        FailureClass::Abort,
        r"(?i)\bggml_assert\b|\bggml_abort\b|\bE[A-Z]9999\b|\binner error\b|\bcann error\b|\baclnn\w*\b[^.;]{0,80}\b(?:error|failed)\b",
    ),
    (
        FailureClass::IllegalInstruction,
        r"(?i)\billegal instruction\b|\bsigill\b|\btrap invalid opcode\b|\bill_illopc\b|\bfatal signal 4\b",
    ),
    (
        FailureClass::Crash,
        r"(?i)\bsegmentation fault\b|\bsig(?:segv|abrt|bus|ill|fpe)\b|\bfatal signal \d+|\baborted\b(?:\s*\(core dumped\))?\s*$|\bcore dumped\b|^\s*(?:\[\d+\]\s+)?\d*\s*abort\s+\S|terminate called after throwing|\bassertion\b[^.]{0,120}\bfailed\b|\bassert failed \(|\bfatal exception\b|traceback \(most recent call last\)|\bpanicked at\b|\bcheck failed\b|\bret_check failure\b|\bunhandled exception\b",
    ),
];

/// Words at least one of which every entry of [`PHRASES`] contains (ASCII case-insensitive); the
/// log gate passes only lines that hold one. A test checks the table against them.
pub const KEYWORDS: &[&str] = &[
    "memory",
    "buffer maximum",
    "oom",
    "bad_alloc",
    "killed process",
    "mismatch",
    "backend type",
    "incompatible",
    "explicitly disabled",
    "segmentation",
    "sig",
    "abort",
    "core dumped",
    "terminate called",
    "assert",
    "exception",
    "traceback",
    "panicked",
    "check fail",
    "ret_check",
    "fail",
    "error loading",
    "could not create",
    "valid interface",
    "cannot open lib",
    "map error",
    "unable to",
    "cl_out_of",
    "cl_mem_object",
    "allocate",
    "didn't find op",
    "missing required",
    "config",
    "executorch error",
    "not registered",
    "qnn",
    "unsatisfiedlink",
    "cann error",
    "aclnn",
    "9999",
    "inner error",
    "init error",
    "missing",
    "program identifier",
    "minimum supported version",
    "not been built with",
    "genie_status",
    "can not open",
    "cannot open",
    "tf_lite_prefill_decode",
    "tokenizer_model",
    "graph not ready",
    "lora on cpu",
    "ggml_opencl",
    "out of vram",
    "killed",
    "illegal instruction",
    "invalid opcode",
];

struct Compiled {
    keywords: AhoCorasick,
    benign: Regex,
    phrases: RegexSet,
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| Compiled {
        keywords: AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(KEYWORDS)
            .expect("keywords compile"),
        benign: Regex::new(BENIGN).expect("benign phrase compiles"),
        phrases: RegexSet::new(PHRASES.iter().map(|(_, p)| *p)).expect("phrase table compiles"),
    })
}

/// Words of a person writing, not of a producer: a pasted question's sentence may name a
/// failure it avoided or feared ("I can not offload more without getting a CUDA out of memory
/// error", llama.cpp #3860), and only the log's own line says the run failed.
const PERSON_WORDS: &[&str] = &["i", "i'm", "i've", "i'd", "my", "we", "we're", "without"];

/// A sentence of a person: at least [`SENTENCE_WORDS`] words, one of them [`PERSON_WORDS`].
fn is_a_persons_sentence(message: &str) -> bool {
    let words: Vec<String> = message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '.'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    words.len() >= SENTENCE_WORDS && words.iter().any(|w| PERSON_WORDS.contains(&w.as_str()))
}

/// Fewer words than this are a log line whatever they say.
const SENTENCE_WORDS: usize = 10;

/// Classifies a bare message (wrapper already removed); `None` if it reports no failure.
pub fn classify(message: &str) -> Option<FailureClass> {
    let c = compiled();
    if !c.keywords.is_match(message) || is_a_persons_sentence(message) {
        return None;
    }
    // MNN glues its benign cache warning to other messages ("...APILoad Cache file error.").
    let cleaned = c.benign.replace_all(message, "");
    let first = c.phrases.matches(&cleaned).into_iter().next()?;
    Some(PHRASES[first].0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_real_wording() {
        use FailureClass::*;
        let cases = [
            ("Segmentation fault (core dumped)", Crash),
            ("LLM init error", Load),
            ("Unable to open config file: /sdcard/models/qwen/config.json", Config),
            ("[Error]: Load module failed, please check model.", Load),
            ("Insufficient GPU memory error: The available single GPU memory is 3000.000 MB, which is less than the sum of model weight size (3600.000 MB) and temporary buffer size (400.000 MB).", OutOfMemory),
            ("load ../MNN/model7b/llm.mnn ... Map error ptrCL == nullptr ", Load),
            ("Aborted (core dumped)", Crash),
            ("[1]    23013 abort      ./bin/llama-cli -ngl 33 -m ../Phi-3-mini-4k-instruct-q4.gguf -i -cnv", Crash),
            ("llama_model_load: error loading model: Unsupported device", Load),
            ("llama_load_model_from_file: failed to load model", Load),
            ("[ERROR] \"Could not create context from binary for context index = 0 : err 1009\"", Load),
            ("[ERROR] \"Unable to find a valid interface.\"", Load),
            ("Failure to initialize model", Load),
            ("Calculator::Open() for node \"LlmGpuCalculator\" failed: Please use a tensorflow lite model with gpu backend type, while the current model's backend type is: cpu", Mismatch),
            ("llm_inference_engine_cpu.cc:263] Failed to create session: INTERNAL: ; RET_CHECK failure (third_party/odml/infra/genai/inference/executor/llm_inference_engine_cpu.cc:263) (backend)==(\"cpu\")", Mismatch),
            ("llm_engine.cc:68] NOT_FOUND: ValidatedGraphConfig Initialization failed.", Load),
            ("org.apache.tvm.Base$TVMError: InternalError: Check failed: (m_libHandler != nullptr) is false: Error! Cannot open libOpenCL!", Load),
            ("FATAL EXCEPTION: main", Crash),
            ("QNNBackend.cpp:1899: int MNN::QNN::QnnBackend::getTensorIdx(const MNN::Tensor*) const: Assertion `res' failed.", Crash),
            ("CUDA error: out of memory", OutOfMemory),
            ("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4095.05 MiB on device 0: cudaMalloc failed: out of memory", OutOfMemory),
            ("alloc_tensor_range: failed to allocate CUDA0 buffer of size 4293984256", OutOfMemory),
            ("llama_init_from_model: failed to allocate compute buffers", OutOfMemory),
            ("ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory", OutOfMemory),
            ("java.lang.RuntimeException: clEnqueueNDRangeKernel failed: CL_OUT_OF_HOST_MEMORY", OutOfMemory),
            ("Caused by: java.lang.IllegalStateException: Internal error: Failed to apply delegate: TfLiteGpuDelegate Init: CL_MEM_OBJECT_ALLOCATION_FAILURE", OutOfMemory),
            ("clCreateBuffer error CL_OUT_OF_RESOURCES", OutOfMemory),
            ("error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)", OutOfMemory),
            ("ggml_metal_add_buffer: buffer 'data' size 18300780544 is larger than buffer maximum of 17179869184", OutOfMemory),
            ("Error: model requires more system memory (9.4 GiB) than is available (7.1 GiB)", OutOfMemory),
            ("java.lang.OutOfMemoryError: Failed to allocate a 536870928 byte allocation with 25165824 free bytes", OutOfMemory),
            ("/home/user/llama.cpp/ggml/src/ggml-cpu/ops.cpp:4012: GGML_ASSERT(ne00 % 32 == 0) failed", Abort),
            ("#3  0x0000fffff7d1a2b4 in ggml_abort () from libggml-base.so", Abort),
            ("EZ9999: Inner Error!", Abort),
            ("aclnnMatmulGetWorkspaceSize failed, error code 161002", Abort),
            ("QnnDsp <E> Failed to create context from binary with err 1009", Load),
            ("[ERROR] QNN_COMMON_ERROR_GENERAL while creating graph", Load),
            ("onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"onnxruntime_providers_cuda.dll\"", Load),
            ("ERROR: Failed to apply XNNPACK delegate.", Load),
            ("ERROR: Didn't find op for builtin opcode 'FULLY_CONNECTED' version '12'", Mismatch),
            ("RuntimeError: loading method forward failed with error 0x20", Load),
            ("[method.cpp:66] Backend XnnpackBackend is not registered.", Load),
            ("java.lang.UnsatisfiedLinkError: dlopen failed: library \"libllama-android.so\" not found", Load),
            ("Genie error: Missing required field \"tokenizer\" in dialog config", Config),
            ("Cannot find mlc-chat-config.json in the model folder", Config),
            ("This session contains graph nodes that are assigned to the default CPU EP, but fallback to CPU EP has been explicitly disabled by the user.", Mismatch),
            ("Out of memory: Killed process 12345 (llama-cli) total-vm:8123456kB", OutOfMemory),
            ("lowmemorykiller: Kill 'com.example.llm' (12034), uid 10123, oom_score_adj 0 to free 4123456kB", OutOfMemory),
            ("ggml_vulkan: Device memory allocation of size 4294967296 failed. ErrorOutOfDeviceMemory", OutOfMemory),
            // ggml-opencl's CL_CHECK prints the bare code: -4, -5 and -6 are OpenCL's allocation
            // failures, the 2023 builds' usual stop once -ngl put more layers than VRAM holds.
            ("ggml_opencl: (mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err), err) error -5 at ggml-opencl.cpp:1312", OutOfMemory),
            ("ggml_opencl: clEnqueueWriteBuffer(queue, dst, CL_TRUE, offset, size, src, 0, NULL, NULL) error -4 at /src/llama.cpp/ggml-opencl.cpp:1045", OutOfMemory),
            ("ggml_opencl: clCreateBuffer error -6 at ggml-opencl.cpp:1290", OutOfMemory),
            // stderr's message lands glued to the load's progress dots or the echoed prompt
            ("llm_load_tensors: VRAM used: 3921 MB ..........ggml_opencl: clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err) error -5 at ggml-opencl.cpp:1290", OutOfMemory),
            (" Tell me about Marsggml_opencl: clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err) error -4 at ggml-opencl.cpp:1290", OutOfMemory),
            ("ggml_opencl: clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err) error -4 at ggml-opencl.cpp:1290. You may be out of VRAM. Please check if you have enough.", OutOfMemory),
            // The shell's report of a SIGKILL, the kernel's OOM killer its usual sender: alone,
            // as a job's status, or as a script's line.
            ("Killed", OutOfMemory),
            ("[1]+  Killed                  ./llm_demo /data/qwen2.5-3b.rkllm 512 4096", OutOfMemory),
            ("./run.sh: line 4: 18231 Killed                  ./llama-cli -m model.gguf -ngl 99", OutOfMemory),
            // The kernel's trap line, the shell's report, Go's exec error and Android's tombstone
            ("traps: ollama-runner[2213] trap invalid opcode ip:4e0a2b sp:7ffd1c3a8f40 error:0 in ollama-runner[400000+8c2000]", IllegalInstruction),
            ("Illegal instruction (core dumped)", IllegalInstruction),
            ("llama.go:436: signal: illegal instruction (core dumped)", IllegalInstruction),
            ("Fatal signal 4 (SIGILL), code 1 (ILL_ILLOPC), fault addr 0x7b2c41e8 in tid 9120 (llama-android)", IllegalInstruction),
            ("Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid 8840 (llama-android)", Crash),
            // onnxruntime-genai asked for an EP its wheel lacks: it stops, it does not fall back.
            ("RuntimeError: DML provider requested, but the installed GenAI has not been built with DML support", Mismatch),
        ];
        for (msg, class) in cases {
            assert_eq!(classify(msg), Some(class), "{msg}");
        }
    }

    /// Written from the format strings of ExecuTorch's runtime and backends, Genie and its apps,
    /// MediaPipe's engines and ncnn's loader (the census in docs/formats).
    #[test]
    fn fires_on_the_on_device_runtimes_format_strings() {
        use FailureClass::*;
        let cases = [
            ("Missing operator: [12] llama::custom_sdpa.out", Load),
            ("Init failed for backend XnnpackBackend: 0x1", Load),
            ("CALL_DELEGATE execute failed at instruction 3: 0x1", Load),
            ("KernelCall failed at instruction 0:7 in operator aten::add.out: 0x12", Load),
            ("XNNCompiler::compileModel failed: 0x1", Load),
            ("Failed to initialize, XNNPACK status: 0x2", Load),
            ("Failed to create XNN workspace, XNNPACK status: 0x3", Load),
            ("Program identifier 'ET12' != expected 'ET13'", Mismatch),
            ("Memory allocation failed: 1048576B requested (adjusted for alignment), 0B available", OutOfMemory),
            ("[ERROR] [Qnn ExecuTorch]: Failed to finalize Qnn Graph with error: 1002", Load),
            ("[ERROR] [Qnn ExecuTorch]:  <E> Failed to finalize graph (id: 1) with err 1002", Load),
            ("[ERROR] [Qnn ExecuTorch]: Fail to compile QNN graph", Load),
            ("[ERROR] [Qnn ExecuTorch]: qnn_graph_execute failed. Error 6001", Load),
            ("[ERROR] [Qnn ExecuTorch]:  <E> RouterX86 graph prepare failed 17", Load),
            ("[ERROR] [Qnn ExecuTorch]: QNN Backend version 2.26.0 is not supported. The minimum supported version is 2.28.0. Please make sure you have the correct backend library version.", Mismatch),
            ("Status Message: QNN graph execute error. Error code: 6001", Load),
            ("Missing QnnHtp field: pos-id-dim", Config),
            ("Failed to create Genie dialog handle. Status: -1", Load),
            ("Exception in GenieWrapper constructor: Failed to create the Genie Dialog.", Load),
            ("GenieDialog_create returned GENIE_STATUS_ERROR_GENERAL", Load),
            ("FAILED_PRECONDITION: Can not open OpenCL library on this device - undefined symbol: clSetPerfHintQCOM", Load),
            ("Failed to generate output: INTERNAL: ", Load),
            ("TF_LITE_PREFILL_DECODE not found.", Load),
            ("network graph not ready", Load),
            ("layer load_model 12 conv_5 failed", Load),
            ("fopen /sdcard/yolov8n.param failed", Load),
            ("parse magic failed", Load),
            ("ParamDict load_param 3 conv1 failed", Load),
            ("LoRA on CPU is not supported yet.", Mismatch),
            ("ERROR at line 230: Failed to create the dialog config.", Load),
            ("Genie config file not found.", Config),
            ("HTP config NOT found! Expected at: /storage/emulated/0/Android/data/com.quicinc.chatapp/cache/htp_config/qualcomm-snapdragon-8-elite.json", Config),
            ("internal: Failed to initialize engine: %s Failed to create engine: INTERNAL: ; RET_CHECK failure (mediapipe/tasks/cc/genai/inference/utils/xnn_utils/tflite.cc:101)", Load),
            ("Failed to build program executable - Out of host memory", OutOfMemory),
            ("In function init(), assert failed (num_missing_ops == 0): There are 1 operators missing from registration to Executor. See logs for details", Crash),
        ];
        for (msg, class) in cases {
            assert_eq!(classify(msg), Some(class), "{msg}");
        }
        for msg in [
            "Missing value for key temperature, using default",
            "fopen /proc/self/maps failed",
            "vkCreateInstance failed -9",
            // -30 is CL_INVALID_VALUE and -54 CL_INVALID_WORK_GROUP_SIZE: a bug, not memory.
            "ggml_opencl: clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL) error -54 at ggml-opencl.cpp:1873",
            "ggml_opencl: clSetKernelArg(kernel, 0, sizeof(cl_mem), &d_X) error -30 at ggml-opencl.cpp:1401",
        ] {
            assert_eq!(classify(msg), None, "{msg}");
        }
    }

    #[test]
    fn stays_quiet_on_benign_lines() {
        for msg in [
            "Load Cache file error.",
            "llama_perf_context_print:        eval time =    9421.45 ms /   127 runs",
            "main: error = 0",
            "ggml_vulkan: Found 1 Vulkan devices:",
            "compat: no q4_0 dot-product kernel for this CPU, dequantizing q4_0 weights to f16 at load",
            "system_info: n_threads = 8 / 8 | CPU : NEON = 1 | ARM_FMA = 1 |",
            "llm_load_tensors: CPU_REPACK model buffer size = 3926.81 MiB",
            "I/tflite: Initialized TensorFlow Lite runtime.",
            "E/libEGL: validate_display:99 error 3008 (EGL_BAD_DISPLAY)",
            "ggml_cuda_host_malloc: warning: failed to allocate 512.00 MiB of pinned memory: out of memory",
            "  --no-mmap               do not memory-map model (slower load but may reduce pageouts if not using mlock)",
            "llm_load_tensors: offloading 32 repeating layers to GPU",
            "load config.json: {\"backend_type\": \"cpu\", \"thread_num\": 4}",
            "QnnDsp <W> Initializing HtpProvider",
            // ONNX Runtime's QNN EP gives its nodes to the CPU EP: a fallback, not a failure
            "QNN SetupBackend failed Unable to find a valid interface for /usr/lib/libQnnHtp.so",
            "I have offloaded one layer (since I am using a GPU having 2GB VRAM I can not offload anymore without getting a CUDA out of memory error during inference)",
            "we would get a segmentation fault if the context is larger than that",
            // "killed" inside a sentence is not the shell's report
            "The process got killed after a while",
            "Killed it with ctrl-c and restarted",
            "killed",
        ] {
            assert_eq!(classify(msg), None, "{msg}");
        }
        assert_eq!(
            classify("[Warning]: No QnnDevice_getPlatformInfo APILoad Cache file error."),
            None
        );
    }

    #[test]
    fn every_phrase_needs_a_keyword() {
        let probes = [
            "Segmentation fault",
            "Map error",
            "error loading model",
            "backend type is",
            "out of memory",
            "Fatal signal 6",
            "Traceback (most recent call last)",
            "Unable to find a valid interface",
            "ggml_opencl: clCreateBuffer error -5 at ggml-opencl.cpp:1290",
            "You may be out of VRAM.",
        ];
        let c = compiled();
        for p in probes {
            assert!(c.keywords.is_match(p), "{p}");
        }
    }
}

//! Facts users write around a pasted log rather than inside it: the model file they ran
//! (`Running llama-2-70b-chat.Q4_K_M.gguf on …`) and the machine's memory or SoC (`64GB
//! DDR4-3200 dual channel`, `Snapdragon 8 Gen 2`, `Raspberry Pi 5`). The log's own lines say
//! these when they can and always win: a model name fills only a run that has none, and a
//! hardware line is only a name the device table may recognise (`views::memory_bandwidth`).

use crate::evidence::backend::{place_of, Place};
use crate::evidence::memory::same_size;
use crate::evidence::sched::{TopologyHints, APPLE_SILICON_NAMES};
use crate::evidence::{InputId, ModeFamily, ModeLevel, PowerMode};
use crate::ingest::frameworks::sweep_prose::thread_count;
use regex::Regex;
use std::sync::OnceLock;

/// Distinct model files kept: more than one means the text names several, and none is used.
const MAX_MODELS: usize = 2;
/// Hardware lines kept per input.
const MAX_HARDWARE: usize = 3;
/// Memory figures kept per input: a second one already makes the statement ambiguous.
const MAX_RAM: usize = 2;
/// Power modes kept per input.
const MAX_MODES: usize = 4;
/// Longer lines are not a sentence about a machine (a dump, a base64 blob).
const MAX_LINE: usize = 400;

/// Words that name a machine's memory or SoC, lowercased.
const HARDWARE: &[&str] = &[
    "ddr4-",
    "ddr4 ",
    "ddr5-",
    "ddr5 ",
    "lpddr",
    "snapdragon",
    "dimensity",
    "exynos",
    "kirin",
    "tensor g",
    // An Intel Mac too ("Apple MacBook"): the device table tells them apart; Apple silicon's
    // other names are [`APPLE_SILICON_NAMES`].
    "apple m",
    "raspberry pi",
    "rk3588",
    // Boards and SoC makers as users name them: the topology presets tell the SoC.
    // Not `orangepi` glued: that is the vendor image's user and host name in a shell prompt,
    // which names the image, not the machine it was copied to.
    "orange pi",
    "orangepi 5",
    "rock 5",
    "khadas",
    "qualcomm",
    "rk3399",
    "rk3576",
    "jetson",
    "orin",
];

/// A memory configuration the table's dual-channel entries would overstate or understate: the
/// table keys DDR speeds alone, as two channels.
const OTHER_CHANNELS: &[&str] = &[
    "single channel",
    "single-channel",
    "quad",
    "octa",
    "4-channel",
    "6-channel",
    "8-channel",
    "12-channel",
    "4 channel",
    "8 channel",
    "threadripper",
    "epyc",
    "xeon",
];

fn model_file() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)(?:^|[\s`'\x22(/\\:=])([\w.+-]{3,120}\.(?:gguf|ggml|ggmlv3\.bin|safetensors|pte|tflite|task|litertlm|mnn|onnx))(?:[\s`'\x22),:;]|$)",
        )
        .expect("model file pattern compiles")
    })
}

/// The extensions `model_file` reads, lowercase with their dot.
const MODEL_EXTENSIONS: &[&str] = &[
    ".gguf",
    ".ggml",
    ".safetensors",
    ".pte",
    ".tflite",
    ".task",
    ".litertlm",
    ".mnn",
    ".onnx",
];

/// Model families users name with a size: `Mixtral 8x7B`, `Llama 3.1 70B`, `qwen2.5:32b`,
/// `gemma 3 27b`. Lowercase; matched at a word start.
const FAMILIES: &str = "llama|codellama|tinyllama|mistral|mixtral|qwen|qwq|gemma|phi|deepseek|yi|falcon|vicuna|wizardlm|wizardcoder|orca|openchat|starcoder|command-r|internlm|baichuan|chatglm|glm|minicpm|olmo|granite|smollm|nemotron|gpt-oss|solar|zephyr|dolphin|hermes|goliath|llava|bloom|stablelm|mpt|aya|codestral|ministral|exaone|hunyuan";

/// A model named with its parameter count: a family then the count (`Mixtral 8x7B`, `Llama
/// 3.1 8B`, `qwen3:30b-a3b`), or a count then `model` (`a 70B model`, `7B 模型`, `13B
/// parameters`). Not `b1234` (a build) nor `4 bits`.
fn model_mention() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)(?:^|[^\w])((?:{FAMILIES})(?:[\d.:\- _][\w.:\- ]{{0,20}}?)?(?:\d{{1,2}}\s?x\s?)?\d{{1,4}}(?:\.\d{{1,2}})?\s?b)(?:[^\w]|_|$)|(?:^|[^\w.])(\d{{1,4}}(?:\.\d)?\s?b)[\s-]*(?:param|model|llm|模型|参数|大模型)"
        ))
        .expect("model mention pattern compiles")
    })
}

/// A digit followed by `b`, or by a space and `b`.
fn has_size(b: &[u8]) -> bool {
    (0..b.len()).any(|i| {
        b[i].is_ascii_digit()
            && match b.get(i + 1) {
                Some(b'b') => true,
                Some(b' ') => b.get(i + 2) == Some(&b'b'),
                _ => false,
            }
    })
}

/// A hybrid Intel CPU: 12th to 14th gen Core (`12th Gen Intel(R) Core(TM) i5-12450H`,
/// `i7-1255U`, `i9-13900K`) or Core Ultra. Capture 1 is a desktop model number, to tell the
/// parts with no efficiency cores.
fn hybrid_intel() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:1[234]th\s+Gen\s+Intel|Core\s*(?:\(TM\)\s*)?Ultra\s+[579]\b)|\bi[3579]-(?:(1[234]\d{3})([a-z]{0,2})|1[234]\d{2}[uph])\b",
        )
        .expect("hybrid Intel pattern compiles")
    })
}

/// 12th to 14th gen desktop parts built with performance cores only (i3s and the i5 non-K
/// below 13400; the F and T variants too).
const NO_EFFICIENCY_CORES: &[&str] = &[
    "12100", "12300", "12400", "12490", "12500", "12600", "13100", "14100",
];

/// The hybrid Intel CPU a line names, if its model is one with efficiency cores.
fn hybrid_cpu(line: &str) -> Option<String> {
    let mut span: Option<(usize, usize)> = None;
    for c in hybrid_intel().captures_iter(line) {
        if let (Some(n), Some(suffix)) = (c.get(1), c.get(2)) {
            if NO_EFFICIENCY_CORES.contains(&n.as_str())
                && !suffix.as_str().to_ascii_lowercase().contains('k')
            {
                return None;
            }
        }
        let m = c.get(0)?;
        span = Some(span.map_or((m.start(), m.end()), |(a, _)| (a, m.end())));
    }
    // From the first name to the last: `12th Gen Intel(R) Core(TM) i5-12450H`.
    span.map(|(a, b)| crate::evidence::clip(&line[a..b]))
}

/// A run that slows when its window is not in front, in the user's words.
const BACKGROUND_WORDS: &[&str] = &[
    "minimiz",
    "minimis",
    "in the background",
    "on the background",
    "in background",
    "out of focus",
    "loses focus",
    "lose focus",
    "lost focus",
    "not focused",
    "unfocused",
    "another window",
    "最小化",
    "切到后台",
    "在后台",
    "后台运行",
];

/// A request for fp16 or low precision: MNN's `Precision_Low`, `precision=2`, `"precision":
/// "low"`, or fp16 named as a word. Capture 1 is what follows `fp16`: a `:` or `=` makes it a
/// feature flag (`support fp16:0`), not a request.
fn fp16_request() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r#"(?i)precision_low|precision"?\s*[=:]\s*"?(?:2|low)\b|半精度|(?-u:\b)fp16(?-u:\b)(\s*[:=])?"#,
        )
        .expect("fp16 request pattern compiles")
    })
}

fn asks_fp16(line: &str) -> bool {
    fp16_request().captures_iter(line).any(|c| {
        // MNNConvert's `--fp16` stores the weights in fp16: a file format, not arithmetic.
        let flag = c.get(0).is_some_and(|m| line[..m.start()].ends_with("--"));
        c.get(1).is_none() && !flag
    })
}

/// Words that say the device is an Arm one, whose fp16 arithmetic an Armv8.0 core lacks.
const ARM_WORDS: &[&str] = &[
    "aarch64",
    "arm64",
    "armv8",
    "armv7",
    "android",
    "cortex-a",
    "rk35",
    "rk33",
    "snapdragon",
    "dimensity",
    "kirin",
    "exynos",
    "raspberry",
    "jetson",
    "allwinner",
];

/// The (lowercased) text says the run was minimized or in the background.
fn in_background(lower: &str) -> bool {
    BACKGROUND_WORDS.iter().any(|w| lower.contains(w))
}

/// Words that say the machine has a discrete graphics card with its own memory.
const CARD_WORDS: &[&str] = &[
    "vram", "显存", "rtx", "gtx", "geforce", "radeon", "quadro", "tesla", "a100", "h100", "cuda",
    "rocm",
];

/// A GeForce card by its number alone, as users write it: `my 3060 12GB`, `a 4090`, `dual
/// 3090s`, `1080 Ti`. The number needs an article or a memory size beside it: a bare 3060 is
/// as often a port or a year.
fn card_number() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?:\b(?:my|a|an|the|one|two|dual|single|\dx)\s+(?:[2-5]0[5-9]0|1[06][5-8]0)(?:\s?ti|\s?super)?s?\b)|(?:\b(?:[2-5]0[5-9]0|1[06][5-8]0)(?:\s?ti|\s?super)?\s+(?:with\s+)?\d{1,2}\s?gb\b)",
        )
        .expect("card number pattern compiles")
    })
}

/// The cores and hardware threads a line states, in the forms users paste from a machine with
/// no lscpu: macOS `sysctl` (`hw.physicalcpu: 8`, `hw.logicalcpu: 16`, `machdep.cpu.core_count`
/// / `thread_count`), About This Mac's `2.3 GHz 8-Core Intel Core i9` (every Intel Core in a
/// Mac has Hyper-Threading), and prose `8 cores / 16 threads`, `8C/16T`. Lowercase input.
fn core_count(lower: &str, hints: &mut TopologyHints) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = R.get_or_init(|| {
        Regex::new(
            r"(?x)
            (?:hw\.physicalcpu(?:_max)?|machdep\.cpu\.core_count)\s*[:=]\s*(?P<phys>\d{1,3})\b
          | (?:hw\.logicalcpu(?:_max)?|machdep\.cpu\.thread_count)\s*[:=]\s*(?P<logi>\d{1,3})\b
          | \b(?P<mac>\d{1,2})-core\s+intel\s+core\b
          | \b(?P<c>\d{1,3})\s*(?:c|cores?|physical\s+cores?)\s*(?:/|,|and|with)?\s*(?P<t>\d{1,3})\s*(?:t|threads|logical(?:\s+(?:cpus?|processors|cores))?)\b",
        )
        .expect("core count pattern compiles")
    });
    for c in r.captures_iter(lower) {
        let n = |name: &str| c.name(name).and_then(|m| m.as_str().parse::<u32>().ok());
        if let Some(p) = n("phys").or(n("mac")).or(n("c")).filter(|p| *p > 0) {
            hints.physical_cores.get_or_insert(p);
        }
        if let Some(l) = n("logi").or(n("t")) {
            hints.nr_cpus = Some(hints.nr_cpus.map_or(l, |m| m.max(l)));
        }
        if n("mac").is_some() {
            hints.threads_per_core = Some(2);
        }
    }
    if let (Some(p), Some(l)) = (hints.physical_cores, hints.nr_cpus) {
        if l > p && l % p == 0 && hints.threads_per_core.is_none() {
            hints.threads_per_core = Some(l / p);
        }
    }
}

fn jetson_mode() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(MAXN(?:[ _]SUPER)?|\d{1,2}\s?W)\s+(?:power\s+)?mode\b|\bnvpmodel\s+-m\s*(\d{1,2})\b",
        )
        .expect("power mode pattern compiles")
    })
}

/// A llama.cpp program run on a model (`./main -m …`, `llama-cli.exe --model …`): its thread
/// count is `-t` / `--threads` when given, else llama.cpp's default. The old `main` binary
/// counts only with a path (`./main`, `bin\main.exe`): bare, it is an English word.
fn llama_command() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?:[/\\]main|(?:^|[\s/\\`$])llama-(?:cli|server|simple|run))(?:\.exe)?\s(?:.*\s)?(?:-m|--model)[\s=]",
        )
        .expect("llama.cpp command pattern compiles")
    })
}

/// `-t` with any value: a placeholder (`-t N`) over a typed sweep still says the user set it.
fn threads_option() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"(?:^|\s)(?:-t|--threads)(?:\s+|=)\S").expect("threads option pattern compiles")
    })
}

/// The machine's memory as users state it: `16GB RAM`, `8 GB of unified memory`, `64GB
/// DDR4-3200`, `RAM: 16GB`, system_profiler's `Memory: 8 GB`, neofetch's `Memory: 2345MiB /
/// 7823MiB` (the total is the second), `M1 8GB`, `8GB M2 MacBook Air`, `Raspberry Pi 5 8GB`,
/// `Jetson Orin Nano (8GB)`, a phone's `12GB+256GB`, and `8G内存` / `运行内存 12GB`.
fn ram_statement() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(concat!(
            r"(?i)",
            // 1: `16GB RAM`, `64GB DDR4-3200`, `8G内存`
            r"\b(\d{1,4}(?:\.\d)?)\s?(GB|GiB|G|TB)\s*(?:of\s+)?(?:(?:unified|system|main)\s+)?",
            r"(?:RAM\b|memory\b|内存|运存|(?:LP)?DDR\d)",
            // 3: `RAM: 16GB`, `Memory: 8 GB`, `内存：8GB`
            r"|^\s*(?:[-*•]\s+)?(?:Total\s+)?(?:RAM|Memory|内存|运行内存)\s*[:：]\s*(\d{1,4}(?:\.\d+)?)\s?(GB|GiB|G)\b\s*(?:$|[^/\s])",
            // 5: neofetch's `used / total`
            r"|\bMemory:\s*[\d.]+\s?(?:MiB|GiB)\s*/\s*([\d.]+)\s?(MiB|GiB)",
            // 6: a Mac or a board followed by its memory
            r"|\b(?:Apple\s+)?(?:M[1-5](?:\s(?:Pro|Max|Ultra))?|MacBook(?:\s(?:Air|Pro))?|Mac\s?mini|Mac\sStudio|Raspberry\s+Pi\s?\d\w*|Pi\s?[345]\b|Orange\s+Pi\s?\d\w*(?:\s(?:Plus|Pro|Max))?|Rock\s?5\w*|(?:Jetson\s+)?(?:AGX\s+|Orin\s+)?(?:Orin|Xavier)(?:\s(?:Nano|NX|AGX))?)",
            r"(?:\s+Model\s+B)?\s*(?:with\s+|\(\s*)?(\d{1,3})\s?GB\b(?:\s*(?:RAM|memory))?(\s*(?:SSD|storage|disk|ROM|flash|eMMC|NVMe))?",
            // 8: `8GB M1 MacBook Air`, `8GB Raspberry Pi 5`
            r"|\b(\d{1,3})\s?GB\s+(?:(?:Apple\s+)?M[1-5]\b|MacBook|Mac\s?mini|Mac\sStudio|iMac|Raspberry\s+Pi|Pi\s?[345]\b|Orange\s+Pi)",
            // 9: a phone's `12GB+256GB`
            r"|\b(\d{1,2})\s?(?:GB)?\s?\+\s?\d{3,4}\s?GB\b",
        ))
        .expect("memory statement pattern compiles")
    })
}

/// Words just before a figure that make it a use of memory, not the machine's total (`it uses
/// 5GB of RAM`, `占用 6GB 内存`).
const USE_WORDS: &[&str] = &[
    "use", "using", "take", "consum", "occup", "alloc", "free", "avail", "left", "need", "requir",
    "load", "peak", "占用", "需要", "剩余", "可用", "已用",
];

/// The bytes each memory statement in `line` gives.
fn ram_in(line: &str) -> impl Iterator<Item = u64> + '_ {
    ram_statement()
        .captures_iter(line)
        .filter_map(move |c| statement_bytes(line, &c))
}

fn statement_bytes(line: &str, c: &regex::Captures) -> Option<u64> {
    let start = c.get(0)?.start();
    // The words just before the figure: a char boundary at most 32 bytes back.
    let from = (start.saturating_sub(32)..=start)
        .find(|&i| line.is_char_boundary(i))
        .unwrap_or(start);
    let before = line[from..start].to_lowercase();
    if USE_WORDS.iter().any(|w| before.contains(w)) {
        return None;
    }
    let gib = |v: f64| (v * 1024.0 * 1024.0 * 1024.0) as u64;
    let unit = |v: f64, u: &str| match u.to_ascii_lowercase().as_str() {
        "tb" => gib(v * 1024.0),
        _ => gib(v),
    };
    let value = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<f64>().ok());
    let bytes = if let Some(v) = value(1) {
        unit(v, &c[2])
    } else if let Some(v) = value(3) {
        unit(v, &c[4])
    } else if let Some(v) = value(5) {
        if &c[6] == "MiB" {
            (v * 1024.0 * 1024.0) as u64
        } else {
            gib(v)
        }
    } else if let Some(v) = value(7) {
        // `MacBook Pro 512GB SSD` is its storage.
        if c.get(8).is_some() {
            return None;
        }
        gib(v)
    } else {
        gib(value(9).or_else(|| value(10))?)
    };
    // Below 1 GiB or above 2 TiB is not a machine's memory as users state it.
    (1 << 30..=2 << 40).contains(&bytes).then_some(bytes)
}

/// Words that say the machine is a Jetson, whose `nvpmodel` modes the stated mode is one of.
const JETSON: &[&str] = &["jetson", "orin", "xavier", "jetpack", "nvpmodel"];

#[derive(Debug, Default)]
pub struct ProseFacts {
    models: Vec<String>,
    hardware: usize,
    /// Power modes in the user's words (`in 30W mode`, `MAXN mode`, `sudo nvpmodel -m 2`), each
    /// a Jetson mode only if the input says Jetson somewhere ([`Self::jetson_modes`]).
    modes: Vec<PowerMode>,
    jetson: bool,
    /// The machine's memory as the text states it: (bytes, line), each distinct figure once.
    ram: Vec<(u64, u64)>,
    /// Short headings the user typed over a pasted block (`CPU:`, `With Vulkan:`, `### Metal`,
    /// `纯cpu处理速度：`, `8 threads:`, `with -t 4:`) that name its backend or thread count.
    headings: Vec<Heading>,
    /// llama.cpp commands the user pasted: (line, whether it sets the thread count).
    commands: Vec<(u64, bool)>,
    /// Models named with their size, as written, with the line: the first [`MAX_NAMED`].
    named: Vec<(String, u64)>,
    /// The text names a discrete graphics card or its memory.
    card: bool,
    /// The first line naming a hybrid Intel CPU, as written.
    hybrid: Option<Said>,
    /// The first line saying the run slows in the background.
    background: Option<Said>,
    /// The first line asking for fp16 or low precision.
    fp16: Option<Said>,
    /// The text says the device is an Arm one.
    arm: bool,
}

/// A line number and what it says.
type Said = (u64, String);

/// Sized model names kept per input.
const MAX_NAMED: usize = 8;

/// Commands kept per input: a paste holds a few.
const MAX_COMMANDS: usize = 16;

/// What a heading over a pasted block says of the run in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub line: u64,
    /// The one place the work ran, as written.
    pub backend: Option<String>,
    /// The one thread count it states.
    pub threads: Option<u32>,
    /// The build or release it names (`b2785`, `build 3620`, `v0.6.8`, `0.7.0:`), as written.
    pub build: Option<String>,
    /// A version the heading is, and nothing else (`**0.7.0:**`, `### v0.6.8`): the user's name
    /// for the run under it.
    pub label: Option<String>,
    /// The block under it is someone else's result the user quotes to compare with ("but your
    /// result was:", "Expected (README):", "官方结果："), not a run of theirs.
    pub quoted: bool,
    /// The block under it ran with its window minimized or in the background.
    pub background: bool,
}

/// Heading words that introduce a result the user did not measure: the maintainer's, the
/// README's, the one they expected. Matched on the lowercased heading.
const QUOTED_WORDS: &[&str] = &[
    "your result",
    "your number",
    "your benchmark",
    "your output",
    "yours",
    "expected",
    "official",
    "reference",
    "readme",
    "should be",
    "should get",
    "others get",
    "官方",
    "期望",
    "预期",
    "参考",
    "你的结果",
    "你们的",
];

/// A heading over someone else's result: it names one ([`QUOTED_WORDS`]) and does not speak of
/// the user's own ("I am not sure this is expected:", "my result vs the README:").
fn quoted_heading(t: &str) -> bool {
    let lower = t.to_lowercase();
    let first_person = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| {
            matches!(
                w,
                "i" | "i'm" | "my" | "mine" | "me" | "we" | "our" | "ours"
            )
        })
        || ["我的", "我们", "我"].iter().any(|w| lower.contains(w));
    !first_person && QUOTED_WORDS.iter().any(|w| lower.contains(w))
}

/// A build or release named alone on a heading line: llama.cpp's `b2785` tags and `build = 3620`
/// numbers, and dotted releases (ollama `0.7.0`, `v0.6.8`).
fn build_label() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)^(?:#+\s*|\*\*)?(?:(?:with|on|using|in)\s+)?(?:llama\.cpp\s+|ollama\s+)?(b\d{3,5}|build\s*[=:]?\s*\d{3,5}|v\d+\.\d+(?:\.\d+)?|\d+\.\d+\.\d+)\s*(?:\*\*)?\s*[:：]?$",
        )
        .expect("build label pattern compiles")
    })
}

/// The version a heading is, when it is only a version: `0.7.0`, `v0.6.8`.
fn version_label(t: &str) -> Option<String> {
    let core = t
        .trim_start_matches(['#', '*', ' '])
        .trim_end_matches(['*', ':', '：', ' ']);
    let digits = core.strip_prefix('v').unwrap_or(core);
    let parts: Vec<&str> = digits.split('.').collect();
    let version = (2..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()));
    version.then(|| core.to_string())
}

/// A heading is short; a longer line is a sentence about the runs, not a label over one.
const MAX_HEADING: usize = 60;
const MAX_HEADINGS: usize = 32;
/// Lines between a heading and the block it labels: a blank line and a fence line fit.
const HEADING_REACH: u64 = 3;

/// What a heading line says, when it is a heading (ends with a colon, or is a markdown heading or
/// bold line) and names one place the work ran or one thread count.
fn heading(number: u64, message: &str) -> Option<Heading> {
    let t = message.trim();
    // A build tag alone on its line labels the block under it, colon or not (`b2785`).
    if let Some(c) = build_label().captures(t) {
        return Some(Heading {
            line: number,
            backend: None,
            threads: None,
            build: Some(c[1].to_string()),
            label: version_label(t),
            quoted: false,
            background: false,
        });
    }
    let heading = t.len() <= MAX_HEADING
        && (t.ends_with(':')
            || t.ends_with('：')
            || t.starts_with('#')
            || (t.starts_with("**") && t.ends_with("**")));
    if !heading {
        return None;
    }
    let h = Heading {
        line: number,
        backend: backend_named(t),
        threads: thread_count(t),
        build: None,
        label: version_label(t),
        quoted: quoted_heading(t),
        background: in_background(&t.to_ascii_lowercase()),
    };
    (h.backend.is_some() || h.threads.is_some() || h.label.is_some() || h.quoted || h.background)
        .then_some(h)
}

/// The place a heading names, when it names exactly one place the work can run.
fn backend_named(t: &str) -> Option<String> {
    let mut named: Option<(&str, Place)> = None;
    for w in t
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let Some(place) = place_of(w) else { continue };
        match named {
            Some((_, p)) if p != place => return None,
            Some(_) => {}
            None => named = Some((w, place)),
        }
    }
    named.map(|(w, _)| w.to_string())
}

impl ProseFacts {
    /// One message (already unwrapped).
    pub fn line(&mut self, number: u64, message: &str, hints: &mut TopologyHints) {
        if message.len() > MAX_LINE {
            return;
        }
        // One lowercased copy per line serves every check below.
        let lower = message.to_ascii_lowercase();
        self.jetson = self.jetson || JETSON.iter().any(|w| lower.contains(w));
        // "mode" is in every shape the pattern reads (`nvpmodel` too): the regex runs only there.
        if self.modes.len() < MAX_MODES && lower.contains("mode") {
            if let Some(c) = jetson_mode().captures(message) {
                let id = c.get(2).and_then(|m| m.as_str().parse().ok());
                let name = c.get(1).map_or_else(
                    || format!("nvpmodel -m {}", id.unwrap_or(0)),
                    |m| m.as_str().to_string(),
                );
                // Mode 0 and MAXN are the board's fastest; another mode's place is not known
                // from its name alone.
                let level = if id == Some(0) || name.to_ascii_uppercase().starts_with("MAXN") {
                    ModeLevel::Max
                } else {
                    ModeLevel::Unknown
                };
                self.modes.push(PowerMode {
                    input: 0,
                    line: number,
                    name,
                    id,
                    text: crate::evidence::clip(message.trim()),
                    family: ModeFamily::Jetson,
                    level,
                });
            }
        }
        // Every shape the pattern reads has `gb`, `gib`, neofetch's `memory: … mib`, or 存; the
        // regex runs only on such lines.
        let may_state_memory = lower.contains("gb")
            || lower.contains("gib")
            || (lower.contains("mib") && lower.contains("memory"))
            || message.contains('存');
        if self.ram.len() < MAX_RAM && may_state_memory {
            for bytes in ram_in(message) {
                if self.ram.len() < MAX_RAM && !self.ram.iter().any(|(b, _)| same_size(*b, bytes)) {
                    self.ram.push((bytes, number));
                }
            }
        }
        if self.headings.len() < MAX_HEADINGS {
            if let Some(h) = heading(number, message) {
                self.headings.push(h);
            }
        }
        if self.commands.len() < MAX_COMMANDS && llama_command().is_match(message) {
            self.commands
                .push((number, threads_option().is_match(message)));
        }
        // Every name the pattern reads ends in one of these: the regex runs only there.
        if MODEL_EXTENSIONS.iter().any(|e| lower.contains(e)) {
            for c in model_file().captures_iter(message) {
                let name = c[1].to_string();
                self.name_model(&name, number);
                if !self.models.contains(&name) && self.models.len() <= MAX_MODELS {
                    self.models.push(name);
                }
            }
        }
        self.card = self.card
            || CARD_WORDS.iter().any(|w| lower.contains(w))
            || (lower.contains("0") && card_number().is_match(&lower));
        if self.hybrid.is_none()
            && (lower.contains("intel")
                || lower.contains("i5-")
                || lower.contains("i7-")
                || lower.contains("i9-")
                || lower.contains("i3-")
                || lower.contains("ultra"))
        {
            self.hybrid = hybrid_cpu(message).map(|c| (number, c));
        }
        self.arm = self.arm || ARM_WORDS.iter().any(|w| lower.contains(w));
        if self.fp16.is_none()
            && (lower.contains("fp16") || lower.contains("precision") || message.contains("半精度"))
            && asks_fp16(message)
        {
            self.fp16 = Some((number, crate::evidence::clip(message.trim())));
        }
        if self.background.is_none() && in_background(&lower) {
            self.background = Some((number, crate::evidence::clip(message.trim())));
        }
        // Every mention has a digit then `b` (`7b`, `7 B`): the regex runs only on such lines.
        if has_size(lower.as_bytes()) && self.named.len() < MAX_NAMED {
            for c in model_mention().captures_iter(message) {
                if let Some(m) = c.get(1).or_else(|| c.get(2)) {
                    self.name_model(m.as_str().trim(), number);
                }
            }
        }
        if (hints.physical_cores.is_none() || hints.threads_per_core.is_none())
            && (lower.contains("core")
                || lower.contains("hw.")
                || lower.contains("thread")
                || lower.contains("c/"))
        {
            core_count(&lower, hints);
        }
        // The clauses are looked at only when the line names some hardware at all.
        let names_hardware = || {
            HARDWARE
                .iter()
                .chain(APPLE_SILICON_NAMES)
                .any(|w| lower.contains(w.trim_end()))
        };
        if self.hardware < MAX_HARDWARE && names_hardware() {
            if OTHER_CHANNELS.iter().any(|w| lower.contains(w)) {
                return;
            }
            // The clause that names the hardware, as the report quotes it: `64GB DDR4-3200`,
            // not the whole sentence.
            // Every such clause: a board and its SoC (`Rock 5B (RK3588, 16 GB)`) are two
            // names, and the device table may know only one of them.
            let clauses = message
                .split([',', ';', '(', ')'])
                .flat_map(|c| c.split(". "))
                .filter(|c| {
                    let c = format!("{} ", c.to_ascii_lowercase());
                    HARDWARE
                        .iter()
                        .chain(APPLE_SILICON_NAMES)
                        .any(|w| c.contains(w))
                });
            let mut named = false;
            for clause in clauses {
                hints.note_device_name(clause.trim());
                named = true;
            }
            self.hardware += usize::from(named);
        }
    }

    /// The power modes the text states, when it also says the machine is a Jetson: `15W`
    /// means a Jetson mode only there.
    pub fn jetson_modes(&self, input: InputId) -> Vec<PowerMode> {
        if !self.jetson {
            return Vec::new();
        }
        self.modes
            .iter()
            .map(|m| PowerMode { input, ..m.clone() })
            .collect()
    }

    /// The machine's memory, bytes, and the line that states it, if the text states one figure
    /// (two different figures are two machines, or a use beside a total).
    pub fn ram(&self) -> Option<(u64, u64)> {
        match self.ram.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The heading over a block starting at `line`: the nearest heading at most
    /// [`HEADING_REACH`] lines above it.
    pub fn heading_over(&self, line: u64) -> Option<&Heading> {
        self.headings
            .iter()
            .rev()
            .find(|h| h.line < line && line - h.line <= HEADING_REACH)
    }

    /// The line of the llama.cpp command the runs ran at the default thread count: the text
    /// pastes commands and none of them sets `-t`. One that does may have started any run.
    pub fn default_threads_line(&self) -> Option<u64> {
        let first = self.commands.first()?;
        (!self.commands.iter().any(|(_, set)| *set)).then_some(first.0)
    }

    fn name_model(&mut self, name: &str, line: u64) {
        if self.named.len() < MAX_NAMED && !self.named.iter().any(|(n, _)| n == name) {
            self.named.push((name.to_string(), line));
        }
    }

    /// The models the text names with a size, each with its line.
    pub fn named_models(&self) -> &[(String, u64)] {
        &self.named
    }

    /// A hybrid Intel CPU and a slowdown in the background, when the text states both:
    /// ((cpu line, cpu), (line, text)).
    pub fn background_slowdown(&self) -> Option<(&Said, &Said)> {
        Some((self.hybrid.as_ref()?, self.background.as_ref()?))
    }

    /// The first line asking for fp16 or low precision, when the text says the device is an
    /// Arm one (an x86 CPU has no fp16 path in these frameworks to ask for).
    pub fn asks_fp16(&self) -> Option<&Said> {
        self.fp16.as_ref().filter(|_| self.arm)
    }

    /// The text names a discrete graphics card (not a Jetson's, whose GPU shares the RAM).
    pub fn names_card(&self) -> bool {
        self.card && !self.jetson
    }

    /// The one model file the text names, if it names exactly one.
    pub fn model(&self) -> Option<&str> {
        match self.models.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_over_a_block_names_its_backend() {
        let (p, _) =
            read("CPU only (-ngl 0):\n```\nfigures\n```\n\nWith Vulkan (-ngl 99):\n```\nfigures");
        let backend_over = |l| p.heading_over(l).and_then(|h| h.backend.as_deref());
        assert_eq!(backend_over(3), Some("CPU"));
        assert_eq!(backend_over(8), Some("Vulkan"));
        // Too far below its heading, or under a line that is a sentence or names two places.
        assert_eq!(backend_over(12), None);
        let backend = |line| heading(1, line).and_then(|h| h.backend);
        for line in [
            "I ran it on the CPU and it took about ten minutes for the whole answer:",
            "CPU vs GPU:",
            "Results",
        ] {
            assert_eq!(backend(line), None, "{line}");
        }
        assert_eq!(backend("Mac上使用纯cpu处理速度：").as_deref(), Some("cpu"));
        assert_eq!(backend("### Metal").as_deref(), Some("Metal"));
    }

    #[test]
    fn a_heading_over_a_block_names_its_build() {
        let build = |line| heading(1, line).and_then(|h| h.build);
        assert_eq!(build("b2785").as_deref(), Some("b2785"));
        assert_eq!(build("b2750:").as_deref(), Some("b2750"));
        assert_eq!(build("0.7.0:").as_deref(), Some("0.7.0"));
        assert_eq!(build("### llama.cpp b3620").as_deref(), Some("b3620"));
        assert_eq!(build("with v0.6.8:").as_deref(), Some("v0.6.8"));
        // A number alone, a sentence, or a log line is no build label.
        for line in [
            "1.5",
            "12",
            "after bisecting, b2787 is slow:",
            "build: 5021 (a8d9f0c2) with gcc",
        ] {
            assert_eq!(build(line), None, "{line}");
        }
    }

    #[test]
    fn a_heading_that_is_a_version_labels_the_run_under_it() {
        let label = |line| heading(1, line).and_then(|h| h.label);
        assert_eq!(label("**0.7.0:**").as_deref(), Some("0.7.0"));
        assert_eq!(label("### v0.6.8").as_deref(), Some("v0.6.8"));
        // A sentence, a date, a bare number or a version inside words is not a label.
        assert_eq!(label("Version 0.7.0 is 3 times slower:"), None);
        assert_eq!(label("2025-05-14:"), None);
        assert_eq!(label("12:"), None);
        assert_eq!(label("## 1.2.3.4.5"), None);
    }

    #[test]
    fn a_heading_that_introduces_someone_elses_result_marks_it_quoted() {
        for (text, quoted) in [
            ("but your result was：", true),
            ("Expected (from the README):", true),
            ("官方结果：", true),
            ("the result was：", false),
            ("mine:", false),
            ("I see this and am not sure if it is expected:", false),
            ("我的结果和官方对比：", false),
        ] {
            let h = heading(7, text);
            assert_eq!(h.as_ref().is_some_and(|h| h.quoted), quoted, "{text}");
        }
    }

    #[test]
    fn a_heading_over_a_block_names_its_thread_count() {
        let threads = |line| heading(1, line).and_then(|h| h.threads);
        assert_eq!(threads("with -t 4:"), Some(4));
        assert_eq!(threads("8 threads:"), Some(8));
        assert_eq!(threads("### --threads 16"), Some(16));
        assert_eq!(threads("**4线程**"), Some(4));
        let h = heading(1, "CPU, 6 threads:").expect("a heading");
        assert_eq!((h.backend.as_deref(), h.threads), (Some("CPU"), Some(6)));
        // Two counts, a sentence, or no colon: not a label over one block.
        assert_eq!(threads("4 threads vs 8 threads:"), None);
        assert_eq!(
            threads("I tried with 8 threads and it was much slower than I expected it to be:"),
            None
        );
        assert_eq!(threads("with -t 4"), None);
    }

    #[test]
    fn a_llama_cpp_command_without_threads_runs_at_the_default() {
        let line = |text: &str| read(text).0.default_threads_line();
        assert_eq!(
            line("I'm on orange pi 5\n\n./main -m models/phi-3.gguf -s 1 -p \"Hi\""),
            Some(3)
        );
        assert_eq!(line("llama-cli.exe --model x.gguf -n 64"), Some(1));
        // A thread count on any command: the runs may be its.
        assert_eq!(line("./main -m x.gguf -t 4 -n 512"), None);
        assert_eq!(line("./main -m x.gguf\n./main -m x.gguf --threads=4"), None);
        assert_eq!(line("llama-cli -m x.gguf -n 256 -t N"), None);
        // No model to run, or prose about the main thread.
        assert_eq!(line("make -j && ./main --help"), None);
        assert_eq!(line("the main loop -m is slow"), None);
    }

    fn read(text: &str) -> (ProseFacts, TopologyHints) {
        let mut p = ProseFacts::default();
        let mut h = TopologyHints::default();
        for (i, l) in text.lines().enumerate() {
            p.line(i as u64 + 1, l, &mut h);
        }
        (p, h)
    }

    #[test]
    fn the_model_and_the_memory_a_user_names() {
        let (p, h) = read(
            "Running llama-2-70b-chat.Q4_K_M.gguf with llama.cpp on a Ryzen 9 5950X, 64GB DDR4-3200 (dual channel).\n\
             ./main -m models/llama-2-70b-chat.Q4_K_M.gguf -n 128",
        );
        assert_eq!(p.model(), Some("llama-2-70b-chat.Q4_K_M.gguf"));
        assert_eq!(h.device_names.len(), 1);
        assert_eq!(h.device_names, ["64GB DDR4-3200"]);
    }

    #[test]
    fn two_models_or_another_channel_count_say_nothing() {
        let (p, h) = read(
            "compared mistral-7b.Q4_0.gguf and llama-2-13b.Q4_0.gguf\n\
             Threadripper 3990X, 256 GB DDR4-3200 in 8-channel",
        );
        assert_eq!(p.model(), None);
        assert!(h.device_names.is_empty());
        let (p, _) = read("see /usr/local/bin/ollama and https://example.com/x.html");
        assert_eq!(p.model(), None);
    }

    #[test]
    fn models_named_with_their_size() {
        let named = |t: &str| -> Vec<String> {
            read(t)
                .0
                .named_models()
                .iter()
                .map(|(n, _)| n.clone())
                .collect()
        };
        assert_eq!(
            named("Running the MIXTRAL 8X7B model from Jan's hub"),
            ["MIXTRAL 8X7B"]
        );
        assert_eq!(named("ollama run qwen2.5:32b-instruct"), ["qwen2.5:32b"]);
        assert_eq!(named("Llama 3.1 8B on a Pi"), ["Llama 3.1 8B"]);
        assert_eq!(
            named("`./main -m /nvme2/models/codellama70b.gguf -ngl 40`"),
            ["codellama70b.gguf", "codellama70b"]
        );
        assert_eq!(named("a 70B model on 32GB"), ["70B"]);
        assert_eq!(named("跑 7B 模型很慢"), ["7B"]);
        assert_eq!(
            named("tinyllama works, but llama 2 13b closes"),
            ["llama 2 13b"]
        );
        // A build, a bit width, a word that starts like a family: no model.
        assert!(named("llama.cpp b1234 with 4 bits").is_empty());
        assert!(named("it yielded 3 b tokens").is_empty());
        assert!(named("16 GB RAM, 512 GB SSD").is_empty());
    }

    #[test]
    fn a_hybrid_intel_cpu_and_a_slowdown_in_the_background() {
        let slow = |t: &str| read(t).0.background_slowdown().map(|(c, b)| (c.0, b.0));
        let text = "it slows down everytime the program minimized\n```\nProcessor: 12th Gen Intel(R) Core(TM) i5-12450H (12 CPUs), ~2.0GHz\n```";
        assert_eq!(slow(text), Some((3, 1)));
        assert_eq!(slow("i7-1255U laptop; 切到后台就变慢"), Some((1, 1)));
        assert_eq!(slow("Core Ultra 7 155H, slow when minimized"), Some((1, 1)));
        assert_eq!(
            slow("i9-13900K, slow when the window is minimised"),
            Some((1, 1))
        );
        // Performance cores only, an older generation, or no background at all.
        assert_eq!(slow("Intel Core i5-12400F, slow when minimized"), None);
        assert_eq!(slow("Intel Core i7-1165G7, slow when minimized"), None);
        assert_eq!(
            slow("13th Gen Intel(R) Core(TM) i7-13700H, slow at 8 threads"),
            None
        );
        assert!(slow("i5-12600K, slow when minimized").is_some());
    }

    #[test]
    fn a_request_for_fp16_but_not_a_feature_flag() {
        let asks = |t: &str| {
            read(&format!("{t}\nlinux aarch64"))
                .0
                .asks_fp16()
                .map(|s| s.0)
        };
        assert_eq!(asks("fp16和fp32的推理时间一样"), Some(1));
        assert_eq!(
            read("fp16和fp32的推理时间一样").0.asks_fp16(),
            None,
            "not said to be Arm"
        );
        assert_eq!(
            asks("./MNNConvert -f ONNX --modelFile x.onnx --MNNModel x.mnn --fp16"),
            None
        );
        assert_eq!(asks("fp16 and int8 use Precision_Low"), Some(1));
        assert_eq!(
            asks("Forward type: CPU thread=4 precision=2 sparsity=0"),
            Some(1)
        );
        assert_eq!(asks(r#"  "precision": "low","#), Some(1));
        assert_eq!(
            asks("The device support i8sdot:0, support fp16:0, support i8mm: 0"),
            None
        );
        assert_eq!(
            asks("system_info: n_threads = 4 | FP16_VA = 0 | NEON = 1"),
            None
        );
        assert_eq!(
            asks("Forward type: CPU thread=1 precision=1 sparsity=0"),
            None
        );
        assert_eq!(asks("loading model_fp16.onnx"), None);
    }

    #[test]
    fn cores_and_threads_as_a_mac_or_a_user_states_them() {
        let h = read("hw.physicalcpu: 8\nhw.logicalcpu: 16").1;
        assert_eq!(
            (h.physical_cores, h.nr_cpus, h.threads_per_core),
            (Some(8), Some(16), Some(2))
        );
        let h = read("MacBook Pro 16\" 2019, 2.3 GHz 8-Core Intel Core i9, 32 GB").1;
        assert_eq!((h.physical_cores, h.threads_per_core), (Some(8), Some(2)));
        let h = read("Ryzen 7 6850U (8C/16T), 32GB LPDDR5").1;
        assert_eq!(
            (h.physical_cores, h.nr_cpus, h.threads_per_core),
            (Some(8), Some(16), Some(2))
        );
        let h = read("i7-12700H with 14 cores and 20 threads").1;
        assert_eq!((h.physical_cores, h.nr_cpus), (Some(14), Some(20)));
        // A thread count the user ran with is not the machine's.
        let h = read("I used 8 threads and 4 cores were busy").1;
        assert_eq!(h.physical_cores, None);
        let h = read("Apple M2 Max 12-core CPU, 30-core GPU").1;
        assert_eq!(h.threads_per_core, None);
    }

    #[test]
    fn a_discrete_card_but_not_a_jetson_s_gpu() {
        assert!(read("RTX 3090 with 24GB VRAM").0.names_card());
        assert!(!read("Jetson AGX Orin, CUDA 12.2").0.names_card());
        assert!(!read("MacBook Pro M1 Pro 16GB").0.names_card());
        assert!(read("on my 3060 12GB it gives 6 t/s").0.names_card());
        assert!(read("dual 3090s, 128GB RAM").0.names_card());
        assert!(read("a 4070 Ti Super with 16 GB").0.names_card());
        assert!(!read("listening on port 3060").0.names_card());
        assert!(!read("in 2080 we will have 3050 tokens").0.names_card());
    }

    #[test]
    fn a_power_mode_in_words_is_a_jetson_mode_only_on_a_jetson() {
        let (p, _) = read("Running on a Jetson Orin Nano in 15W mode, about 9 tok/s.");
        let modes = p.jetson_modes(0);
        assert_eq!(modes.len(), 1);
        assert_eq!((modes[0].name.as_str(), modes[0].line), ("15W", 1));
        assert_eq!(modes[0].level, ModeLevel::Unknown);
        let (p, _) = read("after sudo nvpmodel -m 0 it is the same\nboard: AGX Orin 64GB");
        assert_eq!(p.jetson_modes(0)[0].level, ModeLevel::Max);
        // A laptop's 15W mode is its own power plan, not a Jetson's.
        let (p, _) = read("my laptop in 15W mode is slow");
        assert!(p.jetson_modes(0).is_empty());
    }

    #[test]
    fn the_memory_a_user_states() {
        const GIB: u64 = 1 << 30;
        let ram = |t: &str| read(t).0.ram().map(|r| r.0);
        assert_eq!(ram("MacBook Air M1 8GB, llama.cpp b1234"), Some(8 * GIB));
        assert_eq!(ram("I have an 8GB M2 MacBook Air"), Some(8 * GIB));
        assert_eq!(
            ram("Redmi Note 12 with 4GB RAM, ChatterUI 0.8"),
            Some(4 * GIB)
        );
        assert_eq!(
            ram("PC: Ryzen 7 5800X, 32 GB of RAM, RTX 3060"),
            Some(32 * GIB)
        );
        assert_eq!(ram("Raspberry Pi 5 8GB running Bookworm"), Some(8 * GIB));
        assert_eq!(ram("board: Pi 4 (4GB)"), Some(4 * GIB));
        assert_eq!(ram("Jetson Orin Nano 8GB developer kit"), Some(8 * GIB));
        assert_eq!(ram("      Memory: 16 GB"), Some(16 * GIB));
        // An issue form's list.
        assert_eq!(ram("- RAM: 32GB"), Some(32 * GIB));
        assert_eq!(ram("* 内存：16GB"), Some(16 * GIB));
        assert_eq!(ram("Memory: 2345MiB / 7823MiB"), Some(7823 << 20));
        assert_eq!(ram("Memory: 2.10 GiB / 16.00 GiB (13%)"), Some(16 * GIB));
        assert_eq!(ram("小米 14，16GB+512GB，跑 7B 很慢"), Some(16 * GIB));
        assert_eq!(ram("手机是 8G内存 的"), Some(8 * GIB));
        assert_eq!(
            ram("Ryzen 9 5950X, 64GB DDR4-3200 (dual channel)"),
            Some(64 * GIB)
        );
    }

    #[test]
    fn a_use_of_memory_or_a_card_or_a_disk_is_not_the_machine() {
        let ram = |t: &str| read(t).0.ram();
        assert_eq!(ram("it uses 5GB of RAM while generating"), None);
        assert_eq!(ram("llama.cpp takes about 6 GB memory"), None);
        assert_eq!(ram("RTX 3070 with 8GB VRAM"), None);
        assert_eq!(ram("24GB GPU memory"), None);
        assert_eq!(ram("MacBook Pro 512GB SSD"), None);
        assert_eq!(ram("Memory: 2.1 GB / 7.6 GB"), None);
        // Two figures: two machines, or a use beside a total.
        assert_eq!(ram("16GB RAM on the laptop, 8GB RAM on the Pi"), None);
        assert_eq!(ram("the model file is 4.1 GB"), None);
    }
}

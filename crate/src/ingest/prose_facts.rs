//! Facts users write around a pasted log rather than inside it: the model file they ran
//! (`Running llama-2-70b-chat.Q4_K_M.gguf on …`) and the machine's memory or SoC (`64GB
//! DDR4-3200 dual channel`, `Snapdragon 8 Gen 2`, `Raspberry Pi 5`). The log's own lines say
//! these when they can and always win: a model name fills only a run that has none, and a
//! hardware line is only a name the device table may recognise (`views::memory_bandwidth`).

use crate::evidence::sched::{TopologyHints, APPLE_SILICON_NAMES};
use crate::evidence::{InputId, ModeFamily, ModeLevel, PowerMode};
use regex::Regex;
use std::sync::OnceLock;

/// Distinct model files kept: more than one means the text names several, and none is used.
const MAX_MODELS: usize = 2;
/// Hardware lines kept per input.
const MAX_HARDWARE: usize = 3;
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

fn jetson_mode() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(MAXN(?:[ _]SUPER)?|\d{1,2}\s?W)\s+(?:power\s+)?mode\b|\bnvpmodel\s+-m\s*(\d{1,2})\b",
        )
        .expect("power mode pattern compiles")
    })
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
        for c in model_file().captures_iter(message) {
            let name = c[1].to_string();
            if !self.models.contains(&name) && self.models.len() <= MAX_MODELS {
                self.models.push(name);
            }
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
            let clause = message.split([',', ';', '(', ')']).find(|c| {
                let c = format!("{} ", c.to_ascii_lowercase());
                HARDWARE
                    .iter()
                    .chain(APPLE_SILICON_NAMES)
                    .any(|w| c.contains(w))
            });
            if let Some(clause) = clause {
                hints.note_device_name(clause.trim());
                self.hardware += 1;
            }
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
}

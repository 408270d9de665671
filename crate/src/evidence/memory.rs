//! Memory evidence from snapshots: what one process held resident (top `RES`, `dumpsys meminfo`
//! totals, `/proc/<pid>/status` `VmRSS` / `VmHWM`), and what the whole system had left (`free`,
//! `/proc/meminfo`). The two are kept apart on purpose: system memory is context, never a
//! process's footprint.

use super::InputId;

/// Process (and system) readings kept per analysis; a `top` with hundreds of frames repeats the same process.
pub const MAX_PROCESS_READINGS: usize = 4096;

/// Which figure a process reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessFigure {
    /// Resident set size now (`VmRSS`, top `RES`, ps `RSS`, dumpsys `TOTAL RSS`).
    Rss,
    /// The peak resident set size (`VmHWM`).
    PeakRss,
    /// Proportional set size (dumpsys `TOTAL PSS`): shared pages divided among their users.
    Pss,
}

impl ProcessFigure {
    pub fn key(self) -> &'static str {
        match self {
            ProcessFigure::Rss => "RSS",
            ProcessFigure::PeakRss => "VmHWM",
            ProcessFigure::Pss => "PSS",
        }
    }
}

/// One reading of one process's memory.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessMemory {
    pub input: InputId,
    pub line: u64,
    pub pid: Option<u32>,
    /// Process or package name as printed.
    pub name: String,
    pub figure: ProcessFigure,
    pub bytes: u64,
    /// The label the tool printed (`VmRSS`, `RES`, `TOTAL RSS`), for the evidence quote.
    pub label: &'static str,
}

/// One reading of the system's memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SystemMemory {
    pub input: InputId,
    pub line: u64,
    pub total: Option<u64>,
    /// `MemAvailable` / the `available` column: what can be had without swapping.
    pub available: Option<u64>,
    pub swap_total: Option<u64>,
    pub swap_free: Option<u64>,
}

/// A model the input names, with its size in the name.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedModel {
    pub input: InputId,
    pub line: u64,
    /// As written: `MIXTRAL 8X7B`, `70B model`, `llama-2-13b-chat.Q4_K_M.gguf`.
    pub name: String,
    /// The same text names a discrete graphics card (`RTX 3090`, `24GB VRAM`): part of the
    /// model may live in its memory, not the machine's.
    pub beside_card: bool,
}

/// Memory figures within this share of each other are one memory stated twice (`16GB` and
/// `16 GiB`, or a user's `4GB` beside `free`'s 3.7 Gi).
const SAME_SIZE: f64 = 0.08;

/// Two memory figures that are one memory ([`SAME_SIZE`]).
pub fn same_size(a: u64, b: u64) -> bool {
    (a as f64 - b as f64).abs() <= SAME_SIZE * a.max(b) as f64
}

#[derive(Debug, Default)]
pub struct MemoryEvidence {
    pub processes: Vec<ProcessMemory>,
    pub system: Vec<SystemMemory>,
    /// Models the text names by size (`Mixtral 8x7B`, `a 70B model`, `llama-2-13b.Q4_0.gguf`),
    /// for an input whose log states no model size: what the user wants to run.
    pub named_models: Vec<NamedModel>,
    /// Readings beyond [`MAX_PROCESS_READINGS`], not kept.
    pub dropped: u64,
}

impl MemoryEvidence {
    /// One reading of the system's memory; beyond [`MAX_PROCESS_READINGS`] only a reading with
    /// less available memory than the fullest kept one replaces it (the rule asks for the lowest).
    pub fn system_reading(&mut self, reading: SystemMemory) {
        if self.system.len() < MAX_PROCESS_READINGS {
            self.system.push(reading);
            return;
        }
        self.dropped += 1;
        let avail = |s: &SystemMemory| s.available.unwrap_or(u64::MAX);
        if let Some(most) = self.system.iter_mut().max_by_key(|s| avail(s)) {
            if avail(&reading) < avail(most) {
                *most = reading;
            }
        }
    }

    pub fn process(&mut self, reading: ProcessMemory) {
        if self.processes.len() >= MAX_PROCESS_READINGS {
            // Keep the largest: the rule asks for the peak footprint.
            if let Some(min) = self
                .processes
                .iter_mut()
                .filter(|p| p.input == reading.input && p.name == reading.name)
                .min_by_key(|p| p.bytes)
            {
                if min.bytes < reading.bytes {
                    *min = reading;
                }
            }
            self.dropped += 1;
            return;
        }
        self.processes.push(reading);
    }
}

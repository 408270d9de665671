//! Telemetry: delimited exports (generic CSV/TSV, nvidia-smi, HWiNFO, PerfDog, Trepn, turbostat)
//! in [`csv`], and line-oriented text exporters (tegrastats, dumpsys battery / thermalservice,
//! sysfs dumps, powermetrics, vcgencmd) in [`text`]; power states that status tools print
//! (`cpufreq-info`, `nvidia-smi`'s table, OS and NPU power modes) in [`power_state`]. Both fill typed [`Series`] in stored units
//! (MHz, °C, mW, mA, mV, %, tok/s) through a [`Sink`], which bounds memory with
//! [`SeriesBuilder`]'s min/max-preserving point budget.

pub mod cpufreq_info;
pub mod csv;
pub mod jetson;
pub mod json_lines;
pub mod nvidia_smi_query;
pub mod nvidia_smi_table;
pub mod power_profile;
pub mod power_state;
pub mod sbc_bench;
pub mod text;
pub mod time;
pub mod units;

use crate::evidence::{Evidence, InputId, Quantity, Series, SeriesBuilder};
use std::collections::HashMap;

/// Series under construction for one input, in first-seen order.
#[derive(Default)]
pub struct Sink {
    index: HashMap<(Quantity, String), usize>,
    series: Vec<(Quantity, String, SeriesBuilder)>,
    absolute: Option<bool>,
}

impl Sink {
    /// The slot for a series, created on first use; push with [`Sink::push_at`].
    pub fn slot(&mut self, quantity: Quantity, source: &str) -> usize {
        if let Some(&i) = self.index.get(&(quantity.clone(), source.to_string())) {
            return i;
        }
        self.series.push((
            quantity.clone(),
            source.to_string(),
            SeriesBuilder::default(),
        ));
        self.index
            .insert((quantity, source.to_string()), self.series.len() - 1);
        self.series.len() - 1
    }

    pub fn push_at(&mut self, slot: usize, t: f64, v: f64) {
        if let Some(s) = self.series.get_mut(slot) {
            s.2.push(t, v);
        }
    }

    pub fn push(&mut self, quantity: Quantity, source: &str, t: f64, v: f64) {
        let slot = self.slot(quantity, source);
        self.push_at(slot, t, v);
    }

    /// Records whether the input's times are epoch-based; the first answer holds.
    pub fn set_absolute(&mut self, absolute: bool) {
        self.absolute.get_or_insert(absolute);
    }

    pub fn is_empty(&self) -> bool {
        self.series.iter().all(|s| s.2.is_empty())
    }

    /// Moves every non-empty series into the evidence.
    pub fn finish(&mut self, input: InputId, ev: &mut Evidence) {
        let absolute = self.absolute.unwrap_or(false);
        for (quantity, source, builder) in self.series.drain(..) {
            let points = builder.finish();
            if points.is_empty() {
                continue;
            }
            ev.series.push(Series {
                quantity,
                input,
                source,
                absolute,
                points,
            });
        }
        self.index.clear();
    }
}

/// A clock for sources whose lines carry no time of their own: a new sample starts when a
/// key repeats, and each sample is `interval_s` after the previous one unless a line gives the
/// time.
pub struct SampleClock {
    pub interval_s: f64,
    t: f64,
    seen: Vec<String>,
    explicit: bool,
    started: bool,
}

impl SampleClock {
    pub fn new(interval_s: f64) -> Self {
        SampleClock {
            interval_s,
            t: 0.0,
            seen: Vec::new(),
            explicit: false,
            started: false,
        }
    }

    /// The time for a value of `key`; advances by one interval when `key` was already seen in
    /// the current sample.
    pub fn at(&mut self, key: &str) -> f64 {
        if self.seen.iter().any(|k| k == key) {
            self.seen.clear();
            if !self.explicit {
                self.t += self.interval_s;
            }
            self.explicit = false;
        }
        if self.seen.len() < 4096 {
            self.seen.push(key.to_string());
        }
        self.started = true;
        self.t
    }

    /// A line stated the time: the next values belong to a new sample at `t`.
    pub fn set(&mut self, t: f64) {
        self.t = t;
        self.seen.clear();
        self.explicit = true;
    }

    /// Starts a new sample one interval later (a block header such as `*** Sampled ...`).
    pub fn next_sample(&mut self, elapsed_s: Option<f64>) {
        if self.started && !self.explicit {
            self.t += elapsed_s.unwrap_or(self.interval_s);
        }
        self.seen.clear();
        self.explicit = false;
        self.started = true;
    }
}

/// `vcgencmd get_throttled`'s bits: the low ones say what holds now, bits 16-19 what has happened
/// since boot.
pub const THROTTLED_BITS: &[(u32, &str)] = &[
    (0, "under-voltage"),
    (1, "arm frequency capped"),
    (2, "throttled"),
    (3, "soft temperature limit"),
    (16, "under-voltage has occurred"),
    (17, "arm frequency capping has occurred"),
    (18, "throttling has occurred"),
    (19, "soft temperature limit has occurred"),
];

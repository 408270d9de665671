//! The telemetry grid: every series resampled onto one grid of evenly spaced cells (at most
//! [`MAX_CELLS`]) on a shared time axis, frequency series grouped into domains (CPU clusters by
//! their peak clock, or a named clock such as a GPU's), and the busy cells (load at least 50 %,
//! or tokens flowing; every cell when the inputs record neither). Times are seconds from each
//! input's origin ([`time_origins`]).

use crate::evidence::{Evidence, InputId, Quantity, Series};
use crate::views::topology::cpu_list;

/// Most grid cells:/// Most grid cells: enough to see a 10 s cap toggle in a one-hour run, and small enough that
/// every rule is O(cells²) at worst.
pub const MAX_CELLS: usize = 2000;

/// Absolute clocks further apart than this (and than a tenth of the longer recording) belong to
/// unrelated recordings: telemetry started a minute before the run still shares its clock, a file
/// from another day does not.
const SAME_SESSION_GAP_S: f64 = 120.0;

/// Per input (by [`InputId`]): the Unix time its `t = 0` stands for, `None` for an input without
/// absolute times (its series count from its own start). Inputs whose absolute spans overlap, or
/// nearly touch, share the earliest start among them; an input whose clock is unrelated to the
/// others gets its own origin, so a file recorded months earlier never stretches the time axis.
pub fn time_origins(ev: &Evidence) -> Vec<Option<f64>> {
    let mut spans: Vec<(InputId, f64, f64)> = Vec::new();
    for s in ev.series.iter().filter(|s| s.absolute) {
        let (Some(a), Some(b)) = (s.points.first(), s.points.last()) else {
            continue;
        };
        match spans.iter_mut().find(|x| x.0 == s.input) {
            Some(x) => {
                x.1 = x.1.min(a.0);
                x.2 = x.2.max(b.0);
            }
            None => spans.push((s.input, a.0, b.0)),
        }
    }
    spans.sort_by(|x, y| x.1.total_cmp(&y.1));
    let mut origins = vec![
        None;
        ev.inputs
            .len()
            .max(spans.iter().map(|x| x.0 + 1).max().unwrap_or(0))
    ];
    // Sweep in start order: a cluster grows while the next span starts before its end (+ slack).
    let mut cluster: Option<(f64, f64)> = None;
    for &(input, a, b) in &spans {
        let joins = cluster
            .is_some_and(|(s0, e0)| a <= e0 + SAME_SESSION_GAP_S.max(0.1 * (e0 - s0).max(b - a)));
        cluster = Some(match cluster {
            Some((s0, e0)) if joins => (s0, e0.max(b)),
            _ => (a, b),
        });
        origins[input] = cluster.map(|c| c.0);
    }
    origins
}

/// The one origin every absolute input shares, when they share one (the report's
/// `time_origin_epoch_s`); `None` without absolute inputs or when their clocks are unrelated.
pub fn shared_origin(origins: &[Option<f64>]) -> Option<f64> {
    let mut all = origins.iter().flatten().copied();
    let first = all.next()?;
    all.all(|o| o == first).then_some(first)
}

/// Seconds on the chart axis: from the input's origin (absolute clocks) or from its own start.
pub fn axis_t(s: &Series, t: f64, origins: &[Option<f64>]) -> f64 {
    match origins.get(s.input).copied().flatten() {
        Some(o) if s.absolute => t - o,
        _ => t,
    }
}

#[derive(Debug, Clone)]
pub struct Grid {
    pub t0: f64,
    pub dt: f64,
    pub n: usize,
}

impl Grid {
    pub fn t(&self, i: usize) -> f64 {
        self.t0 + self.dt * i as f64
    }
}

/// A resampled series: cell means, forward-filled across gaps inside its own span.
#[derive(Debug, Clone)]
pub struct Track {
    pub input: InputId,
    pub name: String,
    pub values: Vec<f64>,
}

/// A frequency domain: one CPU cluster or one named clock.
#[derive(Debug, Clone)]
pub struct Domain {
    pub name: String,
    pub input: InputId,
    /// Per-CPU tracks for CPU clusters (empty for named clocks).
    pub cpus: Vec<(u32, Vec<f64>)>,
    /// The domain's clock per cell (the highest CPU of the cluster).
    pub values: Vec<f64>,
    pub peak: f64,
}

pub struct Ctx {
    pub grid: Grid,
    pub domains: Vec<Domain>,
    pub temps: Vec<Track>,
    pub powers: Vec<Track>,
    pub flags: Vec<Track>,
    pub tokens: Option<Track>,
    pub charging: Option<Track>,
    pub battery: Option<Track>,
    pub voltages: Vec<Track>,
    pub busy: Vec<bool>,
}

fn resample(s: &Series, grid: &Grid, origins: &[Option<f64>]) -> Vec<f64> {
    let mut sum = vec![0.0; grid.n];
    let mut cnt = vec![0u32; grid.n];
    for &(t, v) in &s.points {
        let x = (axis_t(s, t, origins) - grid.t0) / grid.dt;
        if x.is_finite() && x >= -0.5 {
            let i = (x.floor() as usize).min(grid.n.saturating_sub(1));
            sum[i] += v;
            cnt[i] += 1;
        }
    }
    let first = cnt.iter().position(|&c| c > 0);
    let last = cnt.iter().rposition(|&c| c > 0);
    let mut out = vec![f64::NAN; grid.n];
    if let (Some(a), Some(b)) = (first, last) {
        let mut carry = f64::NAN;
        for i in a..=b {
            if cnt[i] > 0 {
                carry = sum[i] / f64::from(cnt[i]);
            }
            out[i] = carry;
        }
    }
    out
}

fn is_memory_clock(name: &str) -> bool {
    let l = name.to_lowercase();
    [
        "mem", "emc", "ddr", "dram", "uncore", "ring", "video", "nvdec", "nvenc", "vic", "ape",
        "nvjpg",
    ]
    .iter()
    .any(|w| l.contains(w))
}

impl Ctx {
    /// Builds the context, or `None` when there is no telemetry at all.
    pub fn new(ev: &Evidence, origins: &[Option<f64>]) -> Option<Ctx> {
        if ev.series.is_empty() {
            return None;
        }
        let (mut lo, mut hi, mut min_dt) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY);
        for s in &ev.series {
            if let (Some(a), Some(b)) = (s.points.first(), s.points.last()) {
                lo = lo.min(axis_t(s, a.0, origins));
                hi = hi.max(axis_t(s, b.0, origins));
            }
            let gaps: Vec<f64> = s
                .points
                .windows(2)
                .take(200)
                .map(|w| w[1].0 - w[0].0)
                .filter(|d| *d > 0.0)
                .collect();
            if let Some(d) = crate::stats::median(gaps) {
                min_dt = min_dt.min(d);
            }
        }
        if !lo.is_finite() || !hi.is_finite() || hi <= lo {
            return None;
        }
        let span = hi - lo;
        let dt = (span / MAX_CELLS as f64).max(if min_dt.is_finite() { min_dt } else { 1.0 });
        let grid = Grid {
            t0: lo,
            dt,
            n: ((span / dt).floor() as usize + 1).clamp(2, MAX_CELLS + 1),
        };
        let track = |s: &Series, name: String| Track {
            input: s.input,
            name,
            values: resample(s, &grid, origins),
        };

        let mut cpu_tracks: Vec<(InputId, u32, Vec<f64>, f64)> = Vec::new();
        let mut domains = Vec::new();
        let (mut temps, mut powers, mut flags, mut voltages, mut loads) =
            (vec![], vec![], vec![], vec![], vec![]);
        let (mut tokens, mut charging, mut battery) = (None, None, None);
        for s in &ev.series {
            match &s.quantity {
                // Several sources can report the same CPU (a CSV and a trace): keep the first.
                Quantity::CpuFreq { cpu }
                    if !cpu_tracks.iter().any(|c| c.0 == s.input && c.1 == *cpu) =>
                {
                    let v = resample(s, &grid, origins);
                    let peak = v
                        .iter()
                        .copied()
                        .filter(|x| x.is_finite())
                        .fold(0.0, f64::max);
                    cpu_tracks.push((s.input, *cpu, v, peak));
                }
                Quantity::ClockFreq { name } if !is_memory_clock(name) => {
                    let values = resample(s, &grid, origins);
                    let peak = values
                        .iter()
                        .copied()
                        .filter(|x| x.is_finite())
                        .fold(0.0, f64::max);
                    domains.push(Domain {
                        name: name.clone(),
                        input: s.input,
                        cpus: vec![],
                        values,
                        peak,
                    });
                }
                Quantity::Temperature { sensor } => temps.push(track(s, sensor.clone())),
                Quantity::Power { rail } => powers.push(track(s, rail.clone())),
                Quantity::ThrottleFlag { reason } => flags.push(track(s, reason.clone())),
                Quantity::Voltage { rail } => voltages.push(track(s, rail.clone())),
                Quantity::CpuLoad { cpu } => loads.push(track(s, format!("cpu{cpu}"))),
                Quantity::Utilization { name } => loads.push(track(s, name.clone())),
                Quantity::TokensPerSecond if tokens.is_none() => {
                    tokens = Some(track(s, s.source.clone()))
                }
                Quantity::Charging if charging.is_none() => {
                    charging = Some(track(s, s.source.clone()))
                }
                Quantity::BatteryLevel if battery.is_none() => {
                    battery = Some(track(s, s.source.clone()))
                }
                _ => {}
            }
        }
        // CPU clusters: CPUs of one input whose peak clocks agree within 3 %.
        cpu_tracks.sort_by_key(|c| (c.0, c.1));
        let mut clusters: Vec<Vec<usize>> = Vec::new();
        for (i, c) in cpu_tracks.iter().enumerate() {
            match clusters.iter_mut().find(|cl| {
                let f = &cpu_tracks[cl[0]];
                f.0 == c.0 && (f.3 - c.3).abs() <= 0.03 * f.3.max(c.3)
            }) {
                Some(cl) => cl.push(i),
                None => clusters.push(vec![i]),
            }
        }
        for cl in clusters {
            let cpus: Vec<(u32, Vec<f64>)> = cl
                .iter()
                .map(|&i| (cpu_tracks[i].1, cpu_tracks[i].2.clone()))
                .collect();
            let values: Vec<f64> = (0..grid.n)
                .map(|k| {
                    cpus.iter()
                        .map(|c| c.1[k])
                        .filter(|x| x.is_finite())
                        .fold(f64::NAN, f64::max)
                })
                .collect();
            let peak = values
                .iter()
                .copied()
                .filter(|x| x.is_finite())
                .fold(0.0, f64::max);
            let ids: Vec<u32> = cpus.iter().map(|c| c.0).collect();
            domains.push(Domain {
                name: format!("CPU {}", cpu_list(&ids)),
                input: cpu_tracks[cl[0]].0,
                cpus,
                values,
                peak,
            });
        }
        domains.retain(|d| d.peak > 0.0);
        let busy: Vec<bool> = (0..grid.n)
            .map(|k| {
                if !loads.is_empty() {
                    loads.iter().any(|l| l.values[k] >= 50.0)
                } else if let Some(t) = &tokens {
                    t.values[k] > 0.0
                } else {
                    true
                }
            })
            .collect();
        Some(Ctx {
            grid,
            domains,
            temps,
            powers,
            flags,
            tokens,
            charging,
            battery,
            voltages,
            busy,
        })
    }

    /// Busy cells where `values` has a value.
    pub fn busy_cells(&self, values: &[f64]) -> Vec<usize> {
        (0..self.grid.n)
            .filter(|&k| self.busy[k] && values[k].is_finite())
            .collect()
    }

    /// The throughput to judge slowdowns by: tokens/s when recorded, else the busiest clock.
    pub fn throughput(&self) -> Option<(&str, InputId, &[f64], &'static str)> {
        if let Some(t) = &self.tokens {
            return Some((t.name.as_str(), t.input, &t.values, "tok/s"));
        }
        self.domains
            .iter()
            .max_by(|a, b| a.peak.total_cmp(&b.peak))
            .map(|d| (d.name.as_str(), d.input, d.values.as_slice(), "MHz"))
    }

    /// Cells per second of the grid, for lags and windows given in seconds.
    pub fn cells(&self, seconds: f64) -> usize {
        ((seconds / self.grid.dt).round() as usize).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(ev: &mut Evidence, name: &str, absolute: bool, t0: f64, t1: f64) {
        let input = ev.add_input(name);
        ev.series.push(Series {
            quantity: Quantity::TokensPerSecond,
            input,
            source: "tok/s".into(),
            absolute,
            points: vec![(t0, 10.0), (t1, 9.0)],
        });
    }

    const NOV_2024: f64 = 1_732_870_000.0;

    #[test]
    fn overlapping_clocks_share_an_origin_and_unrelated_ones_get_their_own() {
        let mut ev = Evidence::default();
        series(&mut ev, "tegrastats.txt", true, NOV_2024, NOV_2024 + 600.0);
        // Started 30 s into the first recording: the same session.
        series(
            &mut ev,
            "llama.log",
            true,
            NOV_2024 + 30.0,
            NOV_2024 + 400.0,
        );
        // Recorded 290 days later: another session.
        series(
            &mut ev,
            "later.csv",
            true,
            NOV_2024 + 2.5e7,
            NOV_2024 + 2.5e7 + 300.0,
        );
        series(&mut ev, "relative.csv", false, 0.0, 100.0);
        let o = time_origins(&ev);
        assert_eq!(
            o,
            vec![Some(NOV_2024), Some(NOV_2024), Some(NOV_2024 + 2.5e7), None]
        );
        // On the axis, each input starts near 0: nothing stretches to 25 000 k s.
        let ends: Vec<f64> = ev
            .series
            .iter()
            .map(|s| axis_t(s, s.points[1].0, &o))
            .collect();
        assert_eq!(ends, vec![600.0, 400.0, 300.0, 100.0]);
        assert_eq!(
            shared_origin(&time_origins(&ev)),
            None,
            "no single origin for unrelated clocks"
        );
        ev.series.truncate(2);
        assert_eq!(shared_origin(&time_origins(&ev)), Some(NOV_2024));
    }

    #[test]
    fn a_recording_right_after_another_shares_its_clock() {
        let mut ev = Evidence::default();
        series(&mut ev, "a.csv", true, NOV_2024, NOV_2024 + 3600.0);
        // 5 minutes after the hour-long recording: within a tenth of its span.
        series(&mut ev, "b.csv", true, NOV_2024 + 3900.0, NOV_2024 + 4000.0);
        assert_eq!(time_origins(&ev), vec![Some(NOV_2024), Some(NOV_2024)]);
    }

    #[test]
    fn the_grid_of_unrelated_clocks_spans_the_longest_input_not_the_months_between() {
        let mut ev = Evidence::default();
        series(&mut ev, "old.txt", true, NOV_2024, NOV_2024 + 600.0);
        series(
            &mut ev,
            "new.log",
            true,
            NOV_2024 + 2.5e7,
            NOV_2024 + 2.5e7 + 600.0,
        );
        let ctx = Ctx::new(&ev, &time_origins(&ev)).expect("a grid");
        let end = ctx.grid.t(ctx.grid.n - 1);
        assert!(ctx.grid.t0 == 0.0 && end <= 600.0, "{:?}", ctx.grid);
    }
}

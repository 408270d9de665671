//! `thermal.wall`, `power.wall` and `throttle.undetermined`: a clock that drops below
//! [`CAP_RATIO`] of its peak while busy, and what set the cap.
//!
//! Per domain: change points on the busy cells' clock give the first capped segment (its start
//! is the time to first cap). Then, at that onset:
//! - throttle flags (nvidia-smi reasons, HWiNFO, vcgencmd, powermetrics pressure) decide first;
//! - thermal: a sensor within 10 °C of its class's throttle point (skin/battery 45 °C, die
//!   90 °C, a single-board computer's `SoC` 80 °C, HBM 95 °C) after rising, or a sensor that rose ≥ 5 °C and leads the clock decline
//!   (best lag ≥ 0 in the cross-correlation of temperature with −clock, r ≥ 0.6);
//! - power: every sensor at least 15 °C from its throttle point. The cap starting with the load,
//!   or power flat at a ceiling (spread ≤ 5 % while capped, at ≥ 90 % of its peak), confirms it;
//!   with neither, the basis says it is the likely reading and what would confirm it;
//! - otherwise undetermined, naming what is missing.
//!
//! Status dumps with too few samples for a cap over time (`nvidia-smi -q`) are judged by the
//! reasons the driver itself names, in [`super::snapshot_caps`].

use super::stats::{self, best_lag, change_points};
use super::{flag_is_thermal, num, signed, window_mean, Ctx, Domain, Track, CAP_RATIO};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, InputId};
use crate::views::Views;

pub const IDS: &[&str] = &["thermal.wall", "power.wall", "throttle.undetermined"];

/// A sustained cap found in one domain.
#[derive(Debug, Clone)]
pub struct Cap {
    /// Busy cells in order.
    pub busy: Vec<usize>,
    /// Cell where the first capped segment starts, and the last capped busy cell.
    pub onset: usize,
    pub end: usize,
    pub from_start: bool,
    pub capped_mean: f64,
    pub sustained_ratio: f64,
    /// The cap got deeper after onset (a later segment at least 3 % of peak lower).
    pub deepens: bool,
}

/// The first sustained cap of a domain, if any.
pub fn find_cap(ctx: &Ctx, d: &Domain) -> Option<Cap> {
    let busy = ctx.busy_cells(&d.values);
    if busy.len() < 10 {
        return None;
    }
    let x: Vec<f64> = busy.iter().map(|&k| d.values[k]).collect();
    // Segments of ~30 s (at least three cells; a tenth of a short recording): a cap that starts
    // two minutes into a day-long run must not be merged into the first segment.
    let min_len = ctx.cells(30.0).min(x.len() / 10).max(3);
    let mut bounds = vec![0];
    bounds.extend(change_points(&x, min_len));
    bounds.push(x.len());
    let segs: Vec<(usize, usize, f64)> = bounds
        .windows(2)
        .filter_map(|w| stats::mean(x[w[0]..w[1]].iter().copied()).map(|m| (w[0], w[1], m)))
        .collect();
    let limit = CAP_RATIO * d.peak;
    let first = segs.iter().position(|s| s.2 < limit)?;
    let after: Vec<&(usize, usize, f64)> = segs[first..].iter().filter(|s| s.2 < limit).collect();
    let capped_len: usize = after.iter().map(|s| s.1 - s.0).sum();
    // A cap must hold for a fifth of the busy time, or to the end: a dip is not a wall.
    let last = segs.last()?;
    if capped_len * 5 < x.len() && last.2 >= limit {
        return None;
    }
    // The onset is the first capped cell of that segment (a segment can start a little early).
    let (s0, s1, onset_mean) = segs[first];
    let onset_idx = (s0..s1).find(|&i| x[i] < limit).unwrap_or(s0);
    let end_idx = after.last().map_or(s1, |s| s.1) - 1;
    let tail = &x[x.len() - (x.len() / 4).max(1)..];
    let onset = busy[onset_idx];
    Some(Cap {
        onset,
        end: busy[end_idx.min(busy.len() - 1)],
        // From the start: capped within 20 s of the load starting (or the first cell).
        from_start: onset_idx == 0
            || ctx.grid.t(onset) - ctx.grid.t(busy[0]) <= 20.0_f64.max(ctx.grid.dt),
        capped_mean: stats::mean(after.iter().map(|s| s.2)).unwrap_or(onset_mean),
        sustained_ratio: stats::mean(tail.iter().copied()).unwrap_or(0.0) / d.peak,
        deepens: after.iter().any(|s| s.2 < onset_mean - 0.03 * d.peak),
        busy,
    })
}

struct SensorAtOnset<'a> {
    track: &'a Track,
    at_onset: f64,
    rise: f64,
    headroom: f64,
    limit: f64,
    lead: Option<(i64, f64)>,
}

fn sensors_at<'a>(ctx: &'a Ctx, d: &Domain, cap: &Cap) -> Vec<SensorAtOnset<'a>> {
    // Temperatures just before the cap and just after load start, over ~30 s.
    let w = ctx.cells(30.0).max(1);
    let start = cap.busy[0];
    let lag = ctx.cells(60.0).min(ctx.grid.n / 4);
    // Both series over busy cells only, so idle periods do not drive the correlation.
    let neg_freq: Vec<f64> = (0..ctx.grid.n)
        .map(|k| if ctx.busy[k] { -d.values[k] } else { f64::NAN })
        .collect();
    ctx.temps
        .iter()
        .filter_map(|t| {
            let (limit, _) = super::threshold(&t.name)?;
            let at_onset = window_mean(&t.values, cap.onset.saturating_sub(w), cap.onset + 1)?;
            let at_start = window_mean(&t.values, start, start + w)?;
            let temp: Vec<f64> = (0..ctx.grid.n)
                .map(|k| if ctx.busy[k] { t.values[k] } else { f64::NAN })
                .collect();
            Some(SensorAtOnset {
                track: t,
                at_onset,
                rise: at_onset - at_start,
                headroom: limit - at_onset,
                limit,
                lead: best_lag(&temp, &neg_freq, lag),
            })
        })
        .collect()
}

/// Share of capped cells in which a flag of this kind (thermal `true` / power `false`) is set.
fn flag_share(ctx: &Ctx, cap: &Cap, thermal: bool) -> Option<(f64, String)> {
    ctx.flags
        .iter()
        .filter(|f| flag_is_thermal(&f.name) == Some(thermal))
        .filter_map(|f| {
            let cells: Vec<usize> = cap
                .busy
                .iter()
                .copied()
                .filter(|&k| k >= cap.onset && k <= cap.end)
                .collect();
            let on = cells.iter().filter(|&&k| f.values[k] >= 0.5).count();
            (on > 0).then(|| (on as f64 / cells.len().max(1) as f64, f.name.clone()))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Power sits flat near its peak while capped: (median mW, peak mW, rail).
fn power_ceiling(ctx: &Ctx, cap: &Cap) -> Option<(f64, f64, String)> {
    let limit = ctx
        .powers
        .iter()
        .find(|p| p.name.to_lowercase().contains("limit"));
    ctx.powers
        .iter()
        .filter(|p| !p.name.to_lowercase().contains("limit"))
        .filter_map(|p| {
            let capped: Vec<f64> = cap
                .busy
                .iter()
                .filter(|&&k| k >= cap.onset && k <= cap.end)
                .map(|&k| p.values[k])
                .filter(|v| v.is_finite())
                .collect();
            if capped.len() < 5 {
                return None;
            }
            let med = crate::stats::median(capped.iter().copied())?;
            let lo = stats::quantile(capped.iter().copied(), 0.1)?;
            let hi = stats::quantile(capped.iter().copied(), 0.9)?;
            let ceiling = match limit {
                Some(l) => crate::stats::median(l.values.iter().copied())?,
                None => stats::quantile(p.values.iter().copied(), 0.99)?,
            };
            let flat = (hi - lo) <= 0.05 * med && med >= 0.9 * ceiling;
            flat.then(|| (med, ceiling, p.name.clone()))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

pub fn rule(ev: &Evidence, views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(ctx) = views.telemetry.as_ref() {
        for d in &ctx.domains {
            let Some(cap) = find_cap(ctx, d) else {
                continue;
            };
            out.push(classify(ctx, d, &cap));
        }
    }
    let done: Vec<InputId> = out
        .iter()
        .flat_map(|f| f.evidence.iter().map(|e| e.input))
        .collect();
    out.extend(super::snapshot_caps::findings(ev, views, &done));
    out
}

fn classify(ctx: &Ctx, d: &Domain, cap: &Cap) -> Finding {
    let t_onset = ctx.grid.t(cap.onset);
    let t_end = ctx.grid.t(cap.end) + ctx.grid.dt;
    let sensors = sensors_at(ctx, d, cap);
    let thermal_flag = flag_share(ctx, cap, true);
    let power_flag = flag_share(ctx, cap, false);
    // The governing sensor: the one closest to its throttle point at onset.
    let governing = sensors
        .iter()
        .min_by(|a, b| a.headroom.total_cmp(&b.headroom));
    let near = governing.filter(|s| s.headroom <= 10.0 && (s.rise >= 2.0 || s.headroom <= 0.0));
    let leading = sensors
        .iter()
        .filter(|s| s.rise >= 5.0 && s.lead.is_some_and(|(lag, r)| lag >= 0 && r >= 0.6))
        .max_by(|a, b| a.rise.total_cmp(&b.rise));
    let cool = !sensors.is_empty() && sensors.iter().all(|s| s.headroom >= 15.0);
    let ceiling = power_ceiling(ctx, cap);
    let thermal_evidence = near
        .or(leading)
        .filter(|_| !cap.from_start || near.is_some());

    let id = match (&thermal_flag, &power_flag) {
        (Some(t), Some(p)) if t.0 >= p.0 => "thermal.wall",
        (Some(_), Some(_)) => "power.wall",
        (Some(_), None) => "thermal.wall",
        (None, Some(_)) => "power.wall",
        (None, None) if thermal_evidence.is_some() => "thermal.wall",
        // Seed 002 §4.1: far from every throttle point yet the clock falls is the power wall's
        // signature; without a flag or a flat rail it stays "likely" (the basis says so).
        (None, None) if cool => "power.wall",
        _ => "throttle.undetermined",
    };
    let peak = d.peak;
    let pct = |v: f64| num(100.0 * v, 0);
    let mut variant = None;
    let mut params: Vec<(&'static str, String)> = vec![
        ("domain", d.name.clone()),
        ("peak_mhz", num(peak, 0)),
        ("capped_mhz", num(cap.capped_mean, 0)),
        ("capped_pct", pct(1.0 - cap.capped_mean / peak)),
        ("sustained_pct", pct(cap.sustained_ratio)),
        ("time_to_cap_s", num(t_onset - ctx.grid.t(cap.busy[0]), 0)),
        ("t_start", num(t_onset, 0)),
        ("t_end", num(t_end, 0)),
    ];
    let sensor_of = thermal_evidence.or(governing);
    if let Some(s) = sensor_of {
        params.push(("sensor", s.track.name.clone()));
        params.push(("temp_c", num(s.at_onset, 1)));
        params.push(("limit_c", num(s.limit, 0)));
        params.push(("rise_c", signed(s.rise, 1)));
        let max_t = s
            .track
            .values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(f64::MIN, f64::max);
        params.push(("max_c", num(max_t, 1)));
        params.push((
            "lag_s",
            s.lead
                .map_or_else(|| "?".into(), |(l, _)| num(l as f64 * ctx.grid.dt, 0)),
        ));
    }
    // The readings beside the clock: a sensor's °C and a rail's W carry no words to translate.
    let mut readings = String::new();
    if let Some(s) = sensor_of {
        readings.push_str(&format!("; {} {} °C", s.track.name, num(s.at_onset, 1)));
    }
    match id {
        "power.wall" => {
            let basis = match (&power_flag, &ceiling) {
                (Some((share, name)), _) => format!("{name} {}%", pct(*share)),
                (None, Some((med, ceil, rail))) => {
                    format!("{rail} {} W / {} W", num(med / 1e3, 1), num(ceil / 1e3, 1))
                }
                (None, None) if cap.from_start => "@telemetry.basis.from-start".into(),
                (None, None) => {
                    // Temperature alone points at a power budget: the title says "likely".
                    variant = Some("likely");
                    "@telemetry.basis.cool-only".into()
                }
            };
            if let Some((med, _, rail)) = &ceiling {
                readings.push_str(&format!("; {rail} {} W", num(med / 1e3, 1)));
            }
            params.push(("basis", basis));
        }
        "thermal.wall" => {
            if let Some((share, name)) = &thermal_flag {
                params.push(("flag", format!("{name} {}%", pct(*share))));
            }
            params.push((
                "deepens",
                if cap.deepens {
                    "@telemetry.deepens.yes"
                } else {
                    "@telemetry.deepens.no"
                }
                .into(),
            ));
        }
        _ => {
            let missing = if sensors.is_empty() {
                "@telemetry.missing.temperature"
            } else if ctx.powers.is_empty() {
                "@telemetry.missing.power"
            } else {
                "@telemetry.missing.throttle-reason"
            };
            params.push(("missing", missing.into()));
            if sensor_of.is_none() {
                params.push(("sensor", "—".into()));
                params.push(("temp_c", "?".into()));
            }
        }
    }
    Finding::new(
        id,
        if id == "throttle.undetermined" {
            Severity::Info
        } else {
            Severity::Warning
        },
        params,
        vec![EvidenceRef {
            input: d.input,
            lines: None,
            time_s: Some((t_onset, t_end)),
            quote: Some(Quote::phrase(
                "quote.telemetry.cap",
                vec![
                    ("domain", d.name.clone()),
                    ("peak", num(peak, 0)),
                    ("capped", num(cap.capped_mean, 0)),
                    ("t", num(t_onset, 0)),
                    ("readings", readings),
                ],
            )),
        }],
    )
    .with_variant(variant)
}

//! `power.wall` and `thermal.wall` from status dumps: a driver that names its own clock event
//! reason (`nvidia-smi -q`: `SW Power Cap`, `HW Power Brake Slowdown`, `HW Thermal Slowdown`,
//! `SW Thermal Slowdown`) in a dump of fewer samples than the series rule needs to see a cap
//! over time.
//!
//! Per input and GPU (the `GPU n` prefix of its series): the reasons active in at least one
//! sample, the clock at those samples against its maximum, power draw against the enforced limit,
//! and the temperature. A power reason makes `power.wall`, a thermal one `thermal.wall` (the
//! one active in more samples wins). Only a dump that states the maximum clock (`Max Clocks`)
//! sizes the cap, so only such a dump is judged here; a reason whose clock is within 3 % of its
//! maximum costs nothing and is not reported. `HW Slowdown` alone names no cause (heat or the power brake), so
//! it decides nothing; nor do "has occurred" flags or under-voltage (its own finding).
//!
//! A stated board power mode below the maximum (Jetson `nvpmodel` other than `MAXN`) is a power
//! wall by configuration, with its line as evidence.

use super::stats::mean;
use super::threshold;
use super::{flag_is_thermal, num};
use crate::diagnose::Quote;
use crate::diagnose::{EvidenceRef, Finding, Severity};
use crate::evidence::{Evidence, InputId, ModeFamily, ModeLevel, Quantity, Series};
use crate::views::telemetry::axis_t;
use crate::views::Views;

/// Fewer samples than this: the series rule cannot see a cap (it needs ten busy cells).
const MAX_SNAPSHOT_SAMPLES: usize = 10;

/// The series' owner: `GPU 1` of `GPU 1 SW Power Cap`, else the empty string.
fn owner(name: &str) -> &str {
    let mut words = name.splitn(3, ' ');
    match (words.next(), words.next()) {
        (Some("GPU"), Some(n)) if n.parse::<u32>().is_ok() => &name[..4 + n.len()],
        _ => "",
    }
}

/// Thermal (`true`) or power (`false`), only for reasons whose words say which.
fn kind(reason: &str) -> Option<bool> {
    let l = reason.to_lowercase();
    match flag_is_thermal(reason) {
        Some(true) => Some(true),
        Some(false) if l.contains("power") => Some(false),
        _ => None,
    }
}

fn active_times(s: &Series) -> Vec<f64> {
    s.points
        .iter()
        .filter(|p| p.1 >= 0.5)
        .map(|p| p.0)
        .collect()
}

/// Mean of `s` at the given source times (the same sample), else over all its points.
fn at(s: &Series, times: &[f64]) -> Option<f64> {
    let hits: Vec<f64> = s
        .points
        .iter()
        .filter(|p| times.iter().any(|t| (t - p.0).abs() < 1e-6))
        .map(|p| p.1)
        .collect();
    if hits.is_empty() {
        mean(s.points.iter().map(|p| p.1))
    } else {
        mean(hits)
    }
}

/// A board power mode below the maximum (Jetson `nvpmodel`: anything but `MAXN`) caps the
/// clocks, and on some modules takes cores offline, to hold a power budget: a power wall by
/// configuration. The first such mode stated is reported.
fn power_mode(ev: &Evidence) -> Option<Finding> {
    let m = ev
        .power_modes
        .iter()
        .find(|m| m.family == ModeFamily::Jetson && m.level != ModeLevel::Max)?;
    Some(
        Finding::new(
            "power.wall",
            Severity::Warning,
            vec![
                ("mode", m.name.clone()),
                (
                    "mode_id",
                    m.id.map_or_else(|| "?".into(), |i| i.to_string()),
                ),
            ],
            vec![EvidenceRef::at_line(m.input, m.line, &m.text)],
        )
        .with_variant(Some("mode")),
    )
}

pub fn findings(ev: &Evidence, views: &Views, done: &[InputId]) -> Vec<Finding> {
    let origins = &views.time_origins;
    let mut out: Vec<Finding> = power_mode(ev).into_iter().collect();
    let mut groups: Vec<(InputId, &str)> = Vec::new();
    for s in &ev.series {
        if let Quantity::ThrottleFlag { reason } = &s.quantity {
            if kind(reason).is_some()
                && s.points.len() < MAX_SNAPSHOT_SAMPLES
                && !done.contains(&s.input)
                && !groups.contains(&(s.input, owner(reason)))
            {
                groups.push((s.input, owner(reason)));
            }
        }
    }
    for (input, who) in groups {
        let of = |s: &&Series| s.input == input && owner(s.source_name()) == who;
        let flags: Vec<(&str, bool, &Series, Vec<f64>)> = ev
            .series
            .iter()
            .filter(of)
            .filter_map(|s| match &s.quantity {
                Quantity::ThrottleFlag { reason } => {
                    let times = active_times(s);
                    let k = kind(reason)?;
                    (!times.is_empty()).then_some((reason.as_str(), k, s, times))
                }
                _ => None,
            })
            .collect();
        let Some((reason, thermal, flag, times)) = flags
            .iter()
            .max_by_key(|f| (f.3.len(), f.1))
            .map(|f| (f.0, f.1, f.2, &f.3))
        else {
            continue;
        };
        let series = |pick: &dyn Fn(&Quantity) -> bool| {
            ev.series.iter().filter(of).find(|s| pick(&s.quantity))
        };
        let clock = series(
            &|q| matches!(q, Quantity::ClockFreq { name } if !name.to_lowercase().contains("mem")),
        );
        let clock_name = clock.map(|c| c.source_name().to_string());
        let max = clock_name.as_deref().and_then(|n| {
            series(&|q| matches!(q, Quantity::Other { name, .. } if *name == format!("{n} max")))
        });
        let now_mhz = clock.and_then(|c| at(c, times));
        let max_mhz = max.and_then(|m| m.points.iter().map(|p| p.1).reduce(f64::max));
        // Only a dump that states the maximum clock sizes the cap; a reason whose clock is
        // within 3 % of it costs nothing.
        let (Some(c), Some(m)) = (now_mhz, max_mhz) else {
            continue;
        };
        if c >= 0.97 * m {
            continue;
        }
        let draw = series(&|q| matches!(q, Quantity::Power { rail } if !rail.contains("limit")))
            .and_then(|s| at(s, times));
        let limit = series(&|q| matches!(q, Quantity::Power { rail } if rail.contains("limit")))
            .and_then(|s| at(s, times));
        let temp = ev.series.iter().filter(of).find_map(|s| match &s.quantity {
            Quantity::Temperature { sensor } => {
                Some((sensor.clone(), at(s, times)?, threshold(sensor)?.0))
            }
            _ => None,
        });
        let axis: Vec<f64> = times.iter().map(|&t| axis_t(flag, t, origins)).collect();
        let (t0, t1) = (axis[0], axis[axis.len() - 1]);
        // Every active reason of the winning kind, as the driver names them.
        let mut names: Vec<&str> = flags
            .iter()
            .filter(|f| f.1 == thermal)
            .map(|f| f.0[who.len()..].trim())
            .collect();
        names.dedup();
        let reason_name = names.join(", ");
        let domain = clock_name.unwrap_or_else(|| who.to_string());
        let unknown = || "?".to_string();
        let params = vec![
            ("reason", reason_name.clone()),
            ("domain", domain.clone()),
            ("active", times.len().to_string()),
            ("samples", flag.points.len().to_string()),
            ("capped_mhz", num(c, 0)),
            ("peak_mhz", num(m, 0)),
            ("capped_pct", num(100.0 * (1.0 - c / m), 0)),
            ("draw_w", draw.map_or_else(unknown, |d| num(d / 1e3, 1))),
            ("limit_w", limit.map_or_else(unknown, |l| num(l / 1e3, 0))),
            (
                "sensor",
                temp.as_ref().map_or_else(|| "—".into(), |t| t.0.clone()),
            ),
            (
                "temp_c",
                temp.as_ref().map_or_else(unknown, |t| num(t.1, 0)),
            ),
            (
                "limit_c",
                temp.as_ref().map_or_else(unknown, |t| num(t.2, 0)),
            ),
            ("t_start", num(t0, 0)),
            ("t_end", num(t1, 0)),
        ];
        // The readings beside the reason: MHz and W figures carry no words to translate.
        let mut readings = format!("; {domain} {} / {} MHz", num(c, 0), num(m, 0));
        if let (Some(d), Some(l)) = (draw, limit) {
            readings.push_str(&format!("; {} / {} W", num(d / 1e3, 1), num(l / 1e3, 0)));
        }
        let quote = Quote::phrase(
            "quote.power.clock-reason",
            vec![
                ("reason", reason.to_string()),
                ("active", times.len().to_string()),
                ("samples", flag.points.len().to_string()),
                ("readings", readings),
            ],
        );
        out.push(Finding {
            variant: Some("snapshot"),
            id: if thermal {
                "thermal.wall"
            } else {
                "power.wall"
            },
            severity: Severity::Warning,
            params,
            count: Some(times.len() as u64),
            evidence: vec![EvidenceRef {
                input,
                lines: None,
                time_s: Some((t0, t1)),
                quote: Some(quote),
            }],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

trait SourceName {
    /// The name a series goes by in its quantity (reason, clock, rail, sensor).
    fn source_name(&self) -> &str;
}

impl SourceName for Series {
    fn source_name(&self) -> &str {
        match &self.quantity {
            Quantity::ThrottleFlag { reason } => reason,
            Quantity::ClockFreq { name } | Quantity::Other { name, .. } => name,
            Quantity::Utilization { name } => name,
            Quantity::Power { rail } | Quantity::Voltage { rail } | Quantity::Current { rail } => {
                rail
            }
            Quantity::Temperature { sensor } => sensor,
            _ => &self.source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(ev: &Evidence, done: &[InputId]) -> Vec<Finding> {
        super::findings(ev, &Views::of(ev), done)
    }

    fn series(ev: &mut Evidence, q: Quantity, pts: &[(f64, f64)]) {
        ev.series.push(Series {
            quantity: q,
            input: 0,
            source: "nvidia-smi -q".into(),
            absolute: false,
            points: pts.to_vec(),
        });
    }

    fn gpu(reason: &str, on: f64, sm: f64) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("q.txt");
        for r in ["SW Power Cap", "HW Thermal Slowdown", "HW Slowdown", "Idle"] {
            let v = if r == reason { on } else { 0.0 };
            series(
                &mut ev,
                Quantity::ThrottleFlag {
                    reason: format!("GPU 0 {r}"),
                },
                &[(0.0, v)],
            );
        }
        series(
            &mut ev,
            Quantity::ClockFreq {
                name: "GPU 0 SM clock".into(),
            },
            &[(0.0, sm)],
        );
        series(
            &mut ev,
            Quantity::Other {
                name: "GPU 0 SM clock max".into(),
                unit: "MHz".into(),
            },
            &[(0.0, 2100.0)],
        );
        series(
            &mut ev,
            Quantity::Power {
                rail: "GPU 0 power draw".into(),
            },
            &[(0.0, 349_100.0)],
        );
        series(
            &mut ev,
            Quantity::Power {
                rail: "GPU 0 power limit".into(),
            },
            &[(0.0, 350_000.0)],
        );
        series(
            &mut ev,
            Quantity::Temperature {
                sensor: "GPU 0".into(),
            },
            &[(0.0, 66.0)],
        );
        ev
    }

    fn param<'a>(f: &'a Finding, k: &str) -> &'a str {
        f.params
            .iter()
            .find(|p| p.0 == k)
            .map_or("", |p| p.1.as_str())
    }

    #[test]
    fn a_named_power_cap_is_a_power_wall_with_its_figures() {
        let f = findings(&gpu("SW Power Cap", 1.0, 1515.0), &[]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "power.wall");
        assert_eq!(param(&f[0], "reason"), "SW Power Cap");
        assert_eq!(param(&f[0], "capped_pct"), "28");
        assert_eq!(
            (param(&f[0], "draw_w"), param(&f[0], "limit_w")),
            ("349.1", "350")
        );
        assert_eq!(param(&f[0], "temp_c"), "66");
        let t = findings(&gpu("HW Thermal Slowdown", 1.0, 900.0), &[]);
        assert_eq!(t[0].id, "thermal.wall");
    }

    #[test]
    fn no_reason_a_vague_reason_or_full_clock_is_silent() {
        assert!(findings(&gpu("SW Power Cap", 0.0, 1515.0), &[]).is_empty());
        assert!(findings(&gpu("HW Slowdown", 1.0, 900.0), &[]).is_empty());
        assert!(findings(&gpu("Idle", 1.0, 210.0), &[]).is_empty());
        assert!(findings(&gpu("SW Power Cap", 1.0, 2085.0), &[]).is_empty());
        // Already judged over time by the series rule.
        assert!(findings(&gpu("SW Power Cap", 1.0, 1515.0), &[0]).is_empty());
    }
}

//! Per-CPU frequency of a trace as step functions (a `cpu_frequency` value holds until the
//! next one), with time-weighted means per window and time-weighted percentiles.

use crate::evidence::{Evidence, InputId, Quantity};
use std::collections::BTreeMap;

/// CPU -> change points (relative s, MHz) of one input.
pub fn cpu_freqs(ev: &Evidence, input: InputId) -> BTreeMap<u32, &[(f64, f64)]> {
    ev.series
        .iter()
        .filter(|s| s.input == input)
        .filter_map(|s| match s.quantity {
            Quantity::CpuFreq { cpu } if !s.points.is_empty() => Some((cpu, s.points.as_slice())),
            _ => None,
        })
        .collect()
}

/// Time-weighted mean of a step function over [a, b); None before its first point.
pub fn mean(points: &[(f64, f64)], a: f64, b: f64) -> Option<f64> {
    let first = points.first()?.0;
    let a = a.max(first);
    if b <= a {
        return None;
    }
    let mut acc = 0.0;
    for (i, &(t, v)) in points.iter().enumerate() {
        let next = points.get(i + 1).map_or(f64::INFINITY, |p| p.0);
        let lo = t.max(a);
        let hi = next.min(b);
        if hi > lo {
            acc += v * (hi - lo);
        }
    }
    Some(acc / (b - a))
}

/// Time-weighted quantile `q` (0..1) of a step function over [0, end].
pub fn quantile(points: &[(f64, f64)], end: f64, q: f64) -> Option<f64> {
    let mut spans: Vec<(f64, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, &(t, v))| {
            let next = points.get(i + 1).map_or(end, |p| p.0).max(t);
            (v, next - t)
        })
        .collect();
    let total: f64 = spans.iter().map(|s| s.1).sum();
    if total <= 0.0 {
        return points.last().map(|p| p.1);
    }
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut acc = 0.0;
    for (v, d) in &spans {
        acc += d;
        if acc >= q * total {
            return Some(*v);
        }
    }
    spans.last().map(|s| s.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_means_and_quantiles() {
        let p = [(0.0, 1000.0), (1.0, 2000.0)];
        assert_eq!(mean(&p, 0.0, 2.0), Some(1500.0));
        assert_eq!(mean(&p, 1.5, 2.0), Some(2000.0));
        assert_eq!(mean(&[(5.0, 1.0)], 0.0, 4.0), None);
        assert_eq!(quantile(&p, 4.0, 0.95), Some(2000.0));
        assert_eq!(quantile(&p, 4.0, 0.2), Some(1000.0));
    }
}

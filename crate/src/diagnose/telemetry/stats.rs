//! The statistics the telemetry rules share, on evenly spaced cells (`NaN` = no value).
//!
//! Change points: binary segmentation with a least-squares (Gaussian mean-shift) cost and a
//! BIC-style penalty `3 σ² ln n`, σ estimated robustly from first differences (MAD). Chosen over
//! PELT because the grid has at most a few thousand cells, so the O(n log n) recursion is cheap
//! and easy to audit, and over CUSUM because it finds several steps (a cap that deepens) in one
//! pass without a tuned drift parameter.

use crate::stats::median;

/// The `q` quantile (nearest rank) of the finite values.
pub fn quantile(values: impl IntoIterator<Item = f64>, q: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let idx = ((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    v.get(idx).copied()
}

pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (s, n) = values
        .into_iter()
        .filter(|x| x.is_finite())
        .fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| s / n as f64)
}

/// Segment boundaries (start indices after the first) of `x` by binary segmentation.
pub fn change_points(x: &[f64], min_len: usize) -> Vec<usize> {
    let n = x.len();
    if n < 2 * min_len.max(2) {
        return Vec::new();
    }
    let diffs: Vec<f64> = x.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    // MAD of differences / (0.6745·√2) estimates σ of white noise around a piecewise mean.
    let sigma = median(diffs.iter().copied()).unwrap_or(0.0) / (0.6745 * std::f64::consts::SQRT_2);
    let spread = quantile(x.iter().copied(), 0.9).unwrap_or(0.0)
        - quantile(x.iter().copied(), 0.1).unwrap_or(0.0);
    // A floor on σ so a perfectly flat, quantized series does not split on every step of 1 MHz.
    let sigma = sigma.max(spread * 0.02).max(1e-9);
    let penalty = 3.0 * sigma * sigma * (n as f64).ln();
    let mut prefix = vec![(0.0, 0.0); n + 1];
    for (i, &v) in x.iter().enumerate() {
        prefix[i + 1] = (prefix[i].0 + v, prefix[i].1 + v * v);
    }
    let cost = |a: usize, b: usize| {
        let (s, s2) = (prefix[b].0 - prefix[a].0, prefix[b].1 - prefix[a].1);
        s2 - s * s / (b - a) as f64
    };
    let mut out = Vec::new();
    let mut stack = vec![(0usize, n)];
    while let Some((a, b)) = stack.pop() {
        if b - a < 2 * min_len || out.len() > 64 {
            continue;
        }
        let whole = cost(a, b);
        let mut best = (f64::INFINITY, 0);
        for k in a + min_len..=b - min_len {
            let c = cost(a, k) + cost(k, b);
            if c < best.0 {
                best = (c, k);
            }
        }
        if whole - best.0 > penalty {
            out.push(best.1);
            stack.push((a, best.1));
            stack.push((best.1, b));
        }
    }
    out.sort_unstable();
    out
}

/// Pearson correlation of the pairs where both are finite; `None` with fewer than 8 pairs or
/// no variance.
pub fn correlation(a: &[f64], b: &[f64]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect();
    if pairs.len() < 8 {
        return None;
    }
    let n = pairs.len() as f64;
    let (ma, mb) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    (saa > 0.0 && sbb > 0.0).then(|| sab / (saa * sbb).sqrt())
}

/// The lag (in cells, −max..=max) at which `lead` best correlates with `follow` shifted later,
/// and that correlation. A positive lag means `lead` moves first.
pub fn best_lag(lead: &[f64], follow: &[f64], max: usize) -> Option<(i64, f64)> {
    let n = lead.len().min(follow.len());
    let mut best: Option<(i64, f64)> = None;
    for lag in -(max as i64)..=(max as i64) {
        let (a, b) = if lag >= 0 {
            let l = lag as usize;
            if l >= n {
                continue;
            }
            (&lead[..n - l], &follow[l..n])
        } else {
            let l = (-lag) as usize;
            if l >= n {
                continue;
            }
            (&lead[l..n], &follow[..n - l])
        };
        if let Some(r) = correlation(a, b) {
            if best.map_or(true, |(_, br)| r > br + 1e-9) {
                best = Some((lag, r));
            }
        }
    }
    best
}

/// Theil–Sen slope (per unit of `t`) of up to 300 evenly picked points, and the Mann-Kendall
/// Z statistic of the same points (|Z| > 2.58: a monotonic trend at p < 0.01).
pub fn trend(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let step = points.len().div_ceil(300).max(1);
    let p: Vec<(f64, f64)> = points
        .iter()
        .step_by(step)
        .copied()
        .filter(|(t, v)| t.is_finite() && v.is_finite())
        .collect();
    let n = p.len();
    if n < 10 {
        return None;
    }
    let mut slopes = Vec::with_capacity(n * (n - 1) / 2);
    let mut s = 0i64;
    for i in 0..n {
        for j in i + 1..n {
            let dt = p[j].0 - p[i].0;
            if dt > 0.0 {
                slopes.push((p[j].1 - p[i].1) / dt);
            }
            s += match p[j].1.partial_cmp(&p[i].1) {
                Some(std::cmp::Ordering::Greater) => 1,
                Some(std::cmp::Ordering::Less) => -1,
                _ => 0,
            };
        }
    }
    let slope = median(slopes)?;
    let nf = n as f64;
    let var = nf * (nf - 1.0) * (2.0 * nf + 5.0) / 18.0;
    let z = if s > 0 {
        (s as f64 - 1.0) / var.sqrt()
    } else if s < 0 {
        (s as f64 + 1.0) / var.sqrt()
    } else {
        0.0
    };
    Some((slope, z))
}

/// Autocorrelation of the finite, mean-removed values at `lag` cells.
pub fn autocorrelation(x: &[f64], lag: usize) -> Option<f64> {
    if lag >= x.len() {
        return None;
    }
    correlation(&x[..x.len() - lag], &x[lag..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_steps_and_not_noise() {
        let mut x: Vec<f64> = (0..300)
            .map(|i| 2400.0 + ((i * 7919) % 13) as f64)
            .collect();
        for v in &mut x[100..200] {
            *v -= 600.0;
        }
        for v in &mut x[200..] {
            *v -= 1000.0;
        }
        let cps = change_points(&x, 5);
        assert_eq!(cps, vec![100, 200]);
        let flat: Vec<f64> = (0..300)
            .map(|i| 2400.0 + ((i * 7919) % 13) as f64)
            .collect();
        assert!(change_points(&flat, 5).is_empty());
    }

    #[test]
    fn lag_and_trend() {
        let a: Vec<f64> = (0..200).map(|i| ((i as f64) / 10.0).sin()).collect();
        let b: Vec<f64> = (0..200)
            .map(|i| if i >= 5 { a[i - 5] } else { 0.0 })
            .collect();
        assert_eq!(best_lag(&a, &b, 20).map(|l| l.0), Some(5));
        let pts: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                (
                    i as f64,
                    10.0 - 0.05 * i as f64 + ((i * 31) % 7) as f64 * 0.01,
                )
            })
            .collect();
        let (slope, z) = trend(&pts).unwrap();
        assert!((slope + 0.05).abs() < 0.01, "{slope}");
        assert!(z < -2.58);
    }
}

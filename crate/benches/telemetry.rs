//! Telemetry benchmark: parse + analyze a 24 h, 1 Hz, 64-column CSV (about 5.5 M cells), and
//! redraw the stacked chart per zoom frame (natively into a bitmap, without text).
//! `cargo bench -p tokscope --bench telemetry` prints the figures; nothing is asserted.

#[cfg(not(target_arch = "wasm32"))]
#[path = "../examples/gen_telemetry_csv.rs"]
mod gen;

/// The page measures its own figures (tests/e2e/bench-telemetry.mjs).
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::time::Instant;
    use tokscope::chart::{self, ChartSpec, LineSpec, Panel, View};
    use tokscope::{Lang, Session};

    let data = gen::generate(24.0);
    let cells = (data.iter().filter(|&&b| b == b',').count()
        + data.iter().filter(|&&b| b == b'\n').count()) as f64;
    println!(
        "input: {:.1} MB, {:.2} M cells",
        data.len() as f64 / 1e6,
        cells / 1e6
    );
    let mut best = (f64::INFINITY, f64::INFINITY);
    let mut report = None;
    for _ in 0..3 {
        let start = Instant::now();
        let mut s = Session::new();
        s.add("bench-24h.csv", &data);
        let parsed = start.elapsed().as_secs_f64();
        let r = s.report(Lang::En);
        let total = start.elapsed().as_secs_f64();
        if total < best.0 + best.1 {
            best = (parsed, total - parsed);
        }
        report = Some(r);
    }
    println!("parse: {:.3} s; analyze + report: {:.3} s", best.0, best.1);
    let best = best.0 + best.1;
    let report = report.expect("ran");
    println!(
        "parse+analyze (best of 3): {:.3} s, {:.0} MB/s, {:.1} M cells/s; {} series, findings: {:?}",
        best,
        data.len() as f64 / 1e6 / best,
        cells / 1e6 / best,
        report.series.len(),
        report.findings.iter().map(|f| f.id.as_str()).collect::<Vec<_>>()
    );

    // The chart the page builds: frequency, temperature, power, tokens/s from the report series.
    let lines = |q: &str| -> Vec<LineSpec> {
        report
            .series
            .iter()
            .filter(|s| {
                use tokscope::Quantity::*;
                matches!(
                    (&s.quantity, q),
                    (CpuFreq { .. }, "cpu-freq")
                        | (Temperature { .. }, "temperature")
                        | (Power { .. }, "power")
                        | (TokensPerSecond, "tokens-per-second")
                )
            })
            .take(8)
            .map(|s| LineSpec {
                label: s.source.clone(),
                points: s.points.clone(),
            })
            .collect()
    };
    let spec = ChartSpec {
        panels: ["cpu-freq", "temperature", "power", "tokens-per-second"]
            .iter()
            .map(|q| Panel {
                title: (*q).into(),
                lines: lines(q),
                ..Panel::default()
            })
            .collect(),
        ..ChartSpec::default()
    };
    let (w, h) = (1600u32, 1280u32);
    let mut buf = vec![0u8; (w * h * 3) as usize];
    let full = View::of(&spec);
    let mut times = Vec::new();
    for frame in 0..60 {
        let zoom = 0.93f64.powi(frame);
        let mid = full.x0 + (full.x1 - full.x0) * 0.6;
        let half = (full.x1 - full.x0) * zoom / 2.0;
        let start = Instant::now();
        chart::draw_bitmap(
            &spec,
            View {
                x0: mid - half,
                x1: mid + half,
            },
            w,
            h,
            &mut buf,
        )
        .expect("draws");
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "chart redraw per zoom frame ({w}x{h}, {} lines, native bitmap, no text): median {:.2} ms, max {:.2} ms",
        spec.panels.iter().map(|p| p.lines.len()).sum::<usize>(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

//! Writes a synthetic long telemetry CSV for benchmarks (nothing this size is committed):
//! `cargo run --release -p tokscope --example gen_telemetry_csv -- [hours] [out.csv]`
//! Default: 24 h at 1 Hz, 64 columns (about 5.5 million cells), to stdout.
//!
//! The run heats up, the big cluster steps down (a thermal wall), and tokens/s follows, so the
//! benchmark exercises every rule, not just the parser.

use std::io::Write;

/// Columns: time, 8 CPU clocks (kHz), 8 CPU loads, 16 thermal zones (m°C), 8 power rails (mW),
/// battery level, charging, voltage, current, tok/s, GPU clock and load, 16 other counters.
pub fn generate(hours: f64) -> Vec<u8> {
    let mut header = vec!["timestamp_ms".to_string()];
    header.extend((0..8).map(|c| format!("cpu{c} freq [kHz]")));
    header.extend((0..8).map(|c| format!("cpu{c} load [%]")));
    header.extend((0..16).map(|z| format!("tz{z} temp [m°C]")));
    header.extend((0..8).map(|r| format!("rail{r} power [mW]")));
    header.extend(
        [
            "battery level [%]",
            "charging",
            "vbat [mV]",
            "ibat [mA]",
            "tok/s",
            "gpu freq [MHz]",
            "gpu util [%]",
        ]
        .map(String::from),
    );
    header.extend((0..16).map(|k| format!("counter{k}")));
    assert_eq!(header.len(), 64);
    let rows = (hours * 3600.0) as usize;
    let mut out = Vec::with_capacity(rows * 400);
    out.extend_from_slice(header.join(",").as_bytes());
    out.push(b'\n');
    let mut temp = 35.0f64;
    let mut level = 0usize;
    const OPPS: [f64; 5] = [
        2_841_600.0,
        2_419_200.0,
        2_169_600.0,
        1_958_400.0,
        1_766_400.0,
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut noise = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 1000) as f64 / 1000.0 - 0.5
    };
    let mut line = String::with_capacity(512);
    for i in 0..rows {
        let t = i as f64;
        let f = OPPS[level];
        temp += (70.0 * (f / OPPS[0]).powi(3) - 0.6 * (temp - 30.0)) / 150.0;
        if i % 10 == 0 {
            if temp > 88.0 && level < OPPS.len() - 1 {
                level += 1;
            } else if temp < 80.0 && level > 0 {
                level -= 1;
            }
        }
        line.clear();
        use std::fmt::Write as _;
        let _ = write!(line, "{}", 1_700_000_000_000u64 + i as u64 * 1000);
        for c in 0..8 {
            let fc = if c < 4 { 1_804_800.0 } else { f };
            let _ = write!(line, ",{fc:.0}");
        }
        for _ in 0..8 {
            let _ = write!(line, ",{:.1}", 95.0 + 4.0 * noise());
        }
        for z in 0..16 {
            let _ = write!(line, ",{:.0}", (temp - z as f64 * 1.5 + noise()) * 1000.0);
        }
        for r in 0..8 {
            let _ = write!(
                line,
                ",{:.0}",
                900.0 + 300.0 * r as f64 * (f / OPPS[0]) + 20.0 * noise()
            );
        }
        let batt = 100.0 - 90.0 * t / (hours * 3600.0);
        let _ = write!(
            line,
            ",{batt:.0},0,{:.0},{:.0}",
            3600.0 + batt * 6.0,
            -1200.0 + 50.0 * noise()
        );
        let _ = write!(
            line,
            ",{:.2},{},{:.0}",
            14.0 * f / OPPS[0] + 0.3 * noise(),
            585,
            3.0 + noise()
        );
        for k in 0..16 {
            let _ = write!(line, ",{}", (i * (k + 1)) % 997);
        }
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out
}

#[allow(dead_code)]
fn main() {
    let mut args = std::env::args().skip(1);
    let hours: f64 = args.next().and_then(|h| h.parse().ok()).unwrap_or(24.0);
    let data = generate(hours);
    match args.next() {
        Some(path) => std::fs::write(&path, &data).expect("write output"),
        None => std::io::stdout().write_all(&data).expect("write stdout"),
    }
}

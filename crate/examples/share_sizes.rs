//! Prints share-link sizes for each sample set, before and after degradation, and what the codec
//! choices cost side by side:
//!
//! ```sh
//! cargo run --release -p tokscope --example share_sizes
//! ```
//!
//! "before" is the first step of the ladder (only the fixed per-field budgets); "after" is the
//! link made with the 8 KB budget. The `+series` rows add synthetic telemetry series (the shape
//! the charts section has) to show the ladder at work until real traces and CSVs land there.

use serde_json::{json, Value};
use std::path::Path;
use tokscope::{share, Lang, Session};

fn report_of(files: &[std::path::PathBuf]) -> Value {
    let mut s = Session::new();
    for f in files {
        let bytes = std::fs::read(f).unwrap_or_default();
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        s.add(&name, &bytes);
    }
    serde_json::to_value(s.report(Lang::En)).unwrap_or(Value::Null)
}

/// 8 CPU clocks, a temperature and a tok/s series over 20 minutes at 4 Hz (4800 points each).
fn with_series(mut report: Value) -> Value {
    let mut series = Vec::new();
    let wave = |i: usize, phase: f64| {
        let t = i as f64 * 0.25;
        (t, (t / 60.0 + phase).sin(), (i % 17) as f64)
    };
    for cpu in 0..8u32 {
        let points: Vec<Value> = (0..4800)
            .map(|i| {
                let (t, s, n) = wave(i, f64::from(cpu));
                json!([t, 1800.0 + 600.0 * s + n * 3.0])
            })
            .collect();
        series.push(json!({"quantity": "cpu-freq", "cpu": cpu, "input": 0, "source": format!("cpu{cpu}_freq"), "absolute": false, "points": points}));
    }
    let temp: Vec<Value> = (0..4800)
        .map(|i| {
            let (t, s, n) = wave(i, 0.0);
            json!([t, 38.0 + 0.01 * t + 2.0 * s + n * 0.01])
        })
        .collect();
    series.push(json!({"quantity": "temperature", "sensor": "cpu-thermal", "input": 0, "source": "temp", "absolute": false, "points": temp}));
    let toks: Vec<Value> = (0..4800)
        .map(|i| {
            let (t, s, n) = wave(i, 1.0);
            json!([t, 12.0 - 0.002 * t + s + n * 0.05])
        })
        .collect();
    series.push(json!({"quantity": "tokens-per-second", "input": 0, "source": "tok_s", "absolute": false, "points": toks}));
    report["series"] = Value::Array(series);
    report
}

fn row(label: &str, report: &Value) {
    let json_bytes = report.to_string().len();
    let full = share::encode(report, &[], 0);
    let fit = share::encode(report, &[], share::BUDGET_BYTES);
    match (full, fit) {
        (Ok(full), Ok(fit)) => {
            let left: Vec<String> = fit
                .omitted
                .iter()
                .map(|o| match o.limit {
                    Some(n) => format!("{}({n})", o.what),
                    None => o.what.clone(),
                })
                .collect();
            println!(
                "{label:<28} {json_bytes:>9} {:>9} {:>9} {:>5}  {}",
                full.full_bytes,
                fit.bytes,
                fit.level,
                if left.is_empty() {
                    "-".into()
                } else {
                    left.join(" ")
                }
            );
        }
        (a, b) => println!("{label:<28} error: {:?} {:?}", a.err(), b.err()),
    }
}

/// The same payload through other codec settings, for the choice of deflate level 10.
fn codecs(label: &str, report: &Value) {
    let json = json!({ "report": report }).to_string();
    let b64 = |n: usize| n.div_ceil(3) * 4;
    let sizes: Vec<String> = [1u8, 6, 9, 10]
        .iter()
        .map(|&l| {
            format!(
                "deflate-{l}: {}",
                b64(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), l).len())
            )
        })
        .collect();
    // What the link uses: deflate-10 after leaving out the catalogue texts (see share/texts.rs).
    let link = share::encode(report, &[], 0).map_or(0, |l| l.full_bytes - "#r=1.".len());
    println!(
        "{label:<28} json+base64: {}  {}  link (deflate-10, catalogue texts left out): {link}",
        b64(json.len()),
        sizes.join("  ")
    );
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut sets: Vec<(String, Vec<std::path::PathBuf>)> = Vec::new();
    let mut all = Vec::new();
    for dir in [
        "demo",
        "logs",
        "negative",
        "invalid",
        "traces",
        "telemetry",
        "csv",
    ] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        all.extend(files.iter().cloned());
        sets.push((dir.to_string(), files));
    }
    sets.push(("all samples".into(), all));
    println!(
        "share-link fragment sizes in bytes (budget {} bytes)",
        share::BUDGET_BYTES
    );
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>5}  left out",
        "sample set", "json", "before", "after", "step"
    );
    let mut reports = Vec::new();
    for (name, files) in &sets {
        let r = report_of(files);
        row(name, &r);
        reports.push((name.clone(), r));
    }
    for (name, r) in &reports {
        if name == "demo" || name == "all samples" {
            row(&format!("{name} +series"), &with_series(r.clone()));
        }
    }
    println!("\ncodec comparison (base64url characters of the payload)");
    for (name, r) in &reports {
        if name == "all samples" || name == "demo" {
            codecs(name, r);
        }
    }
}

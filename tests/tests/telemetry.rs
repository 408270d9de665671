//! Telemetry runs (samples/telemetry-runs/, written by scripts/gen-telemetry-runs.py): each
//! positive run raises its finding, each negative run does not, and the real files in
//! ../shared/corpus/telemetry/ keep their MANIFEST's conclusions when that folder is present.

use std::path::Path;
use tokscope::Lang;
use tokscope_tests::{report_of, root};

fn ids(file: &str) -> Vec<String> {
    tokscope_tests::ids(&report_of(
        &root().join("samples/telemetry-runs").join(file),
        Lang::En,
    ))
}

fn finding(file: &str, id: &str) -> serde_json::Value {
    let report = report_of(&root().join("samples/telemetry-runs").join(file), Lang::En);
    tokscope_tests::finding(&report, id).clone()
}

/// (positive run, negative run, finding id)
const PAIRS: &[(&str, &str, &str)] = &[
    ("thermal-wall.csv", "hot-but-holding.csv", "thermal.wall"),
    ("uniform-cap.tegrastats.txt", "healthy.csv", "thermal.wall"),
    (
        "power-wall.nvidia-smi.csv",
        "below-limit.nvidia-smi.csv",
        "power.wall",
    ),
    (
        "rotating-cap.tegrastats.txt",
        "uniform-cap.tegrastats.txt",
        "thermal.rotating-cap",
    ),
    (
        "oscillating-cap.perfdog.csv",
        "thermal-wall.csv",
        "thermal.oscillating-cap",
    ),
    (
        "charging-contention.csv",
        "charging-no-effect.csv",
        "power.charging-contention",
    ),
    ("low-battery.csv", "battery-fine.csv", "power.low-battery"),
    (
        "periodic-stall.csv",
        "irregular-dips.csv",
        "power.periodic-stall",
    ),
    (
        "sustained-decay.csv",
        "healthy.csv",
        "thermal.sustained-decay",
    ),
    ("ambient.csv", "healthy.csv", "thermal.ambient"),
    (
        "warm-undetermined-cap.csv",
        "thermal-wall.csv",
        "throttle.undetermined",
    ),
    ("cool-cap.csv", "warm-undetermined-cap.csv", "power.wall"),
    ("cool-cap.csv", "thermal-wall.csv", "power.wall"),
];

#[test]
fn each_finding_has_a_positive_and_a_negative_run() {
    for (pos, neg, id) in PAIRS {
        assert!(
            ids(pos).iter().any(|i| i == id),
            "{pos} should raise {id}: {:?}",
            ids(pos)
        );
        assert!(
            !ids(neg).iter().any(|i| i == id),
            "{neg} should not raise {id}: {:?}",
            ids(neg)
        );
    }
}

#[test]
fn healthy_runs_raise_nothing() {
    for file in [
        "healthy.csv",
        "hot-but-holding.csv",
        "below-limit.nvidia-smi.csv",
        "charging-no-effect.csv",
        "battery-fine.csv",
        "irregular-dips.csv",
    ] {
        assert_eq!(ids(file), Vec::<String>::new(), "{file}");
    }
}

#[test]
fn thermal_wall_names_sensor_numbers_and_range() {
    let f = finding("thermal-wall.csv", "thermal.wall");
    let summary = f["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("cpu-1-0-usr"), "{summary}");
    assert!(summary.contains("2842"), "{summary}");
    let e = &f["evidence"][0];
    let (a, b) = (
        e["t_start_s"].as_f64().unwrap_or(-1.0),
        e["t_end_s"].as_f64().unwrap_or(-1.0),
    );
    // The governor first steps down when the die sensor passes 88 °C, a few minutes in.
    assert!(a > 60.0 && a < 600.0 && b > 2000.0, "{a}..{b}");
}

#[test]
fn power_wall_cites_the_throttle_reason() {
    let f = finding("power-wall.nvidia-smi.csv", "power.wall");
    assert!(
        f["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("sw_power_cap"),
        "{f}"
    );
    assert!(!ids("power-wall.nvidia-smi.csv").contains(&"thermal.wall".to_string()));
}

/// Seed 002 §4.1: cool sensors and a falling clock read as a power wall, said as the likely
/// cause with its alternative and what would confirm it, one warning for the cluster.
#[test]
fn a_cool_cap_is_a_likely_power_wall_naming_its_alternative() {
    let report = report_of(
        &root().join("samples/telemetry-runs/cool-cap.csv"),
        Lang::En,
    );
    let walls: Vec<&serde_json::Value> = report["findings"]
        .as_array()
        .map(|fs| fs.iter().filter(|f| f["id"] == "power.wall").collect())
        .unwrap_or_default();
    assert_eq!(walls.len(), 1, "one card for CPUs 6-7: {report}");
    let f = walls[0];
    assert_eq!(f["severity"], "warning");
    let s = f["summary"].as_str().unwrap_or_default();
    for needed in [
        "likely",
        "performance daemon",
        "would confirm",
        "CPU 6-7",
        "−45%",
    ] {
        assert!(s.contains(needed), "{needed:?} missing from {s}");
    }
    let headline = report["verdict"]["headline"].as_str().unwrap_or_default();
    assert!(headline.contains("Likely a power wall"), "{headline}");
    let zh = report_of(
        &root().join("samples/telemetry-runs/cool-cap.csv"),
        Lang::Zh,
    );
    assert!(
        zh["findings"].to_string().contains("省电模式"),
        "{}",
        zh["findings"]
    );
}

#[test]
fn undetermined_says_what_is_missing() {
    let f = finding("warm-undetermined-cap.csv", "throttle.undetermined");
    let s = f["summary"].as_str().unwrap_or_default();
    assert!(
        s.contains("no power was recorded") && s.contains("76"),
        "{s}"
    );
    let zh = report_of(
        &root().join("samples/telemetry-runs/warm-undetermined-cap.csv"),
        Lang::Zh,
    );
    let text = zh["findings"].to_string();
    assert!(text.contains("没有记录功耗"), "{text}");
}

#[test]
fn series_reach_the_report_on_one_axis() {
    let report = report_of(
        &root().join("samples/telemetry-runs/thermal-wall.csv"),
        Lang::En,
    );
    let series = report["series"].as_array().expect("series");
    assert!(series
        .iter()
        .any(|s| s["quantity"] == "cpu-freq" && s["cpu"] == 7 && s["unit"] == "MHz"));
    let temp = series
        .iter()
        .find(|s| s["quantity"] == "temperature" && s["sensor"] == "cpu-1-0-usr")
        .expect("temp");
    let first = &temp["points"][0];
    assert_eq!(first[0].as_f64(), Some(0.0));
    assert!(
        first[1].as_f64().is_some_and(|c| (30.0..45.0).contains(&c)),
        "{first}"
    );
    assert!(report["time_origin_epoch_s"]
        .as_f64()
        .is_some_and(|t| (t - 1_732_870_000.0).abs() < 1.0));
}

/// The real files, when the shared corpus is mounted next to the repository.
#[test]
fn real_corpus_keeps_its_manifest_conclusions() {
    let dir = root().join("../shared/corpus/telemetry");
    let dir = if dir.exists() {
        dir
    } else {
        Path::new("/work/shared/corpus/telemetry").to_path_buf()
    };
    if !dir.exists() {
        println!("real corpus not present at {}: skipped", dir.display());
        return;
    }
    println!("reading the real corpus in {}", dir.display());
    let report = |f: &str| report_of(&dir.join(f), Lang::En);
    let ids_of = |r: &serde_json::Value| -> Vec<String> {
        r["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| f["id"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let max = report("nvidia-smi-h100pcie-350w-gemm-maxpower.csv");
    let max_ids = ids_of(&max);
    assert!(max_ids.contains(&"power.wall".to_string()), "{max_ids:?}");
    assert!(
        !max_ids.contains(&"thermal.wall".to_string()),
        "{max_ids:?}"
    );
    let sm = max["series"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "clocks.current.sm").cloned())
        .expect("sm clock");
    assert!(sm["points"].as_array().is_some_and(|p| p.len() > 100));
    let zero = ids_of(&report("nvidia-smi-h100pcie-350w-gemm-allzero.csv"));
    assert!(
        !zero.contains(&"power.wall".to_string()) && !zero.contains(&"thermal.wall".to_string()),
        "{zero:?}"
    );
}

/// Mangled telemetry never panics or hangs: every sample and the real corpus, cut at random
/// places, with lines shuffled, cells blanked or replaced by noise.
#[test]
fn mangled_telemetry_is_survived() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut files: Vec<std::path::PathBuf> = tokscope_tests::samples("telemetry");
    files.extend(tokscope_tests::samples("telemetry-runs"));
    for path in files {
        let bytes = std::fs::read(&path).expect("sample");
        for round in 0..6 {
            let mut lines: Vec<Vec<u8>> = bytes
                .split(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .take(400)
                .collect();
            for line in lines.iter_mut() {
                match rnd(8) {
                    0 => line.truncate(rnd(line.len() + 1)),
                    1 => line
                        .extend_from_slice(b",\"x,,NaN,inf,-1e309,[N/A],0x,9999999999999999999999"),
                    2 => line
                        .iter_mut()
                        .filter(|b| b.is_ascii_digit())
                        .for_each(|b| *b = b'9'),
                    3 => line.insert(rnd(line.len() + 1), 0xff),
                    _ => {}
                }
            }
            if round % 2 == 1 {
                let n = lines.len();
                for i in 0..n {
                    lines.swap(i, rnd(n));
                }
            }
            let mangled = lines.join(&b'\n');
            let mut s = tokscope::Session::new();
            s.add("mangled", &mangled);
            let r = s.report(Lang::En);
            assert!(
                r.series.iter().all(|s| s
                    .points
                    .iter()
                    .all(|p| p[0].is_finite() && p[1].is_finite())),
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn a_step_down_is_called_a_step_not_a_zero_rate() {
    // The phone fixture drops from one flat level to another: Theil–Sen gives 0 tok/s per hour.
    let report = report_of(
        &root().join("samples/bundles/phone-fixture-hot-little-cores.txt"),
        Lang::En,
    );
    let f = report["findings"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["id"] == "thermal.sustained-decay"))
        .expect("sustained-decay");
    let summary = f["summary"].as_str().unwrap();
    assert!(summary.contains("in a step"), "{summary}");
    assert!(!summary.contains("0 tok/s per hour"), "{summary}");
    // A gradual decay keeps its rate.
    let g = finding("sustained-decay.csv", "thermal.sustained-decay");
    assert!(
        g["summary"].as_str().unwrap().contains("tok/s per hour"),
        "{}",
        g["summary"]
    );
}

//! sbc-bench / armbianmonitor monitor output read as telemetry, and USB resets from a kernel log
//! against periodic stalls: each sample raises the finding its data shows, and no more.

use std::path::PathBuf;
use tokscope::Lang;
use tokscope_tests::{finding, ids, report_of, report_of_set, root};

fn sample(path: &str) -> PathBuf {
    root().join("samples").join(path)
}

fn summary(f: &serde_json::Value) -> String {
    f["summary"].as_str().unwrap_or_default().to_string()
}

#[test]
fn the_monitor_is_read_as_telemetry_and_its_throttling_found() {
    for file in [
        "telemetry/sbc-bench-m-rk3588-throttling.txt",
        "telemetry/sbc-bench-results-rock5b-throttled.txt",
    ] {
        let r = report_of(&sample(file), Lang::En);
        assert_eq!(r["inputs"][0]["kind"], "telemetry", "{file}");
        let wall = finding(&r, "thermal.wall");
        // The A76 clusters (cpu4 and cpu6, same peak) make the domain that fell.
        assert!(
            summary(wall).starts_with("CPU 4,6 fell from 2400"),
            "{file}: {wall}"
        );
    }
}

#[test]
fn a_results_file_keeps_its_date_on_the_axis() {
    let r = report_of(
        &sample("telemetry/sbc-bench-results-rock5b-throttled.txt"),
        Lang::En,
    );
    // Sat, 28 Nov 2026 21:14:41 (the first row), read as printed.
    assert_eq!(
        r["inputs"][0]["time_origin_epoch_s"].as_f64(),
        Some(1_795_900_481.0)
    );
}

#[test]
fn a_pi5_supply_dip_is_under_voltage_from_the_rail() {
    let r = report_of(
        &sample("telemetry/sbc-bench-m-rpi5-supply-dip.txt"),
        Lang::En,
    );
    let uv = summary(finding(&r, "power.under-voltage"));
    // The supply rail, the real (firmware) clock, not cpufreq's claim.
    assert!(
        uv.starts_with("DC in sagged to 4.5") || uv.starts_with("DC in sagged to 4.6"),
        "{uv}"
    );
    assert!(
        uv.contains("and arm ran at 1500 MHz against a peak of 2400"),
        "{uv}"
    );
    // The sag answers the cap: no "likely a power wall" beside it, and the cause is sized by the cap.
    assert!(
        !ids(&r).contains(&"power.wall".to_string()),
        "{:?}",
        ids(&r)
    );
    let headline = r["verdict"]["headline"].as_str().unwrap();
    assert!(
        headline.contains("The supply voltage dropped (an estimated 1.6×)"),
        "{headline}"
    );
}

#[test]
fn a_healthy_board_raises_nothing() {
    let r = report_of(
        &sample("telemetry/armbianmonitor-m-rk3399-healthy.txt"),
        Lang::En,
    );
    assert_eq!(r["inputs"][0]["kind"], "telemetry");
    assert!(ids(&r).is_empty(), "{:?}", ids(&r));
    assert!(r["series"].as_array().is_some_and(|s| s.len() >= 4));
}

fn set(folder: &str) -> serde_json::Value {
    let mut files = tokscope_tests::samples(folder);
    files.sort();
    report_of_set(&files, Lang::En)
}

#[test]
fn usb_resets_that_line_up_with_the_stalls_are_tied_to_them() {
    let r = set("usb-stall");
    let stall = finding(&r, "power.periodic-stall");
    assert!(
        summary(stall)
            .contains("8 of the 8 stalls had a USB reset or error in the kernel log within ±5 s"),
        "{stall}"
    );
    assert!(stall["fix"]
        .as_str()
        .is_some_and(|f| f.contains("seed 002 §3.3")));
    let quoted: Vec<&serde_json::Value> = stall["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter(|e| e["quote"].as_str().is_some_and(|q| q.contains("reset")))
        .collect();
    assert_eq!(quoted.len(), 3, "{stall}");
    assert!(quoted.iter().all(|e| e["input"]
        .as_str()
        .is_some_and(|i| i.ends_with("dmesg-T-usb-disk.txt"))
        && e["line_start"].is_u64()));
    // Shown in the stall finding, not again on their own.
    assert!(!ids(&r).contains(&"power.usb-errors".to_string()));
}

#[test]
fn usb_resets_elsewhere_are_not_tied() {
    let r = set("usb-stall-apart");
    let stall = summary(finding(&r, "power.periodic-stall"));
    assert!(
        stall.contains("but only 0 of the 8 stalls had one within ±5 s: they do not explain"),
        "{stall}"
    );
    finding(&r, "power.usb-errors");
}

#[test]
fn unaligned_clocks_are_said_not_guessed() {
    let uptime = report_of_set(
        &[
            sample("usb-stall/telemetry-1s.csv"),
            sample("system/dmesg-rpi5-undervoltage-usb.txt"),
        ],
        Lang::En,
    );
    let s = summary(finding(&uptime, "power.periodic-stall"));
    assert!(
        s.contains("cannot be put on the telemetry's clock; dmesg -T"),
        "{s}"
    );
    assert!(!s.contains("stalls had"), "{s}");
    let relative = report_of_set(
        &[
            sample("telemetry-runs/periodic-stall.csv"),
            sample("usb-stall/dmesg-T-usb-disk.txt"),
        ],
        Lang::En,
    );
    let s = summary(finding(&relative, "power.periodic-stall"));
    assert!(
        s.contains("counts from its own start, not on a wall clock"),
        "{s}"
    );
}

#[test]
fn usb_resets_without_stall_data_are_still_shown() {
    let r = report_of(&sample("usb-stall/dmesg-T-usb-disk.txt"), Lang::En);
    let f = finding(&r, "power.usb-errors");
    assert_eq!(f["count"], 8);
    // Stalls without any kernel log claim no tie.
    let stalls = report_of(&sample("telemetry-runs/periodic-stall.csv"), Lang::En);
    let s = summary(finding(&stalls, "power.periodic-stall"));
    assert!(!s.contains("USB"), "{s}");
}

//! Status dumps end to end: `nvidia-smi -q`, `vcgencmd get_throttled`, `lscpu`. Each sample
//! gives its finding (or its topology facts), healthy ones give none, chunking changes nothing,
//! and lscpu beside a trace decides its clusters.

use tokscope::{Lang, Session};
use tokscope_tests::{assert_chunk_size_invariant, finding, ids, report_of, root};

fn system(name: &str) -> serde_json::Value {
    report_of(&root().join("samples/system").join(name), Lang::En)
}

#[test]
fn a_software_power_cap_is_a_power_wall_naming_the_reason() {
    let r = system("nvidia-smi-q-rtx3090-sw-power-cap.txt");
    assert_eq!(r["inputs"][0]["kind"], "telemetry");
    assert_eq!(ids(&r), vec!["power.wall"]);
    let s = finding(&r, "power.wall")["summary"].as_str().unwrap();
    assert!(s.contains("SW Power Cap"), "{s}");
    assert!(s.contains("1530 MHz against a maximum of 2100 MHz"), "{s}");
    assert!(s.contains("349.4 W of its 350 W limit"), "{s}");
    assert!(s.contains("67 °C"), "{s}");
    // The verdict weighs it by the clock lost.
    let v = serde_json::to_string(&r["verdict"]).unwrap();
    assert!(v.contains("power.wall"), "{v}");
    let zh = report_of(
        &root().join("samples/system/nvidia-smi-q-rtx3090-sw-power-cap.txt"),
        Lang::Zh,
    );
    let s = finding(&zh, "power.wall")["summary"].as_str().unwrap();
    assert!(s.contains("驱动报告 SW Power Cap"), "{s}");
}

#[test]
fn a_hot_second_gpu_is_a_thermal_wall_and_the_cool_one_is_not() {
    let r = system("nvidia-smi-q-2gpu-hw-thermal.txt");
    assert_eq!(ids(&r), vec!["thermal.wall"]);
    let s = finding(&r, "thermal.wall")["summary"].as_str().unwrap();
    assert!(
        s.contains("HW Thermal Slowdown, SW Thermal Slowdown"),
        "{s}"
    );
    assert!(s.contains("GPU 1 SM clock at 840 MHz"), "{s}");
    // Margins to the limit (`GPU T.Limit Temp : -1 C`) are not read as temperatures.
    let sensors: Vec<&str> = r["series"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["quantity"] == "temperature")
        .map(|s| s["sensor"].as_str().unwrap())
        .collect();
    assert_eq!(sensors, vec!["GPU 0", "GPU 1"]);
}

#[test]
fn healthy_dumps_raise_nothing() {
    for name in [
        "nvidia-smi-q-d-loop-healthy.txt",
        "lscpu-e-vm-no-mhz.txt",
        "lscpu-x86-summary.txt",
        "lscpu-e-rk3588.txt",
        "jetson-clocks-show-orin-maxn.txt",
        "cpupower-frequency-info-healthy.txt",
        "nvidia-smi-p2-healthy.txt",
    ] {
        let r = system(name);
        assert!(ids(&r).is_empty(), "{name}: {:?}", ids(&r));
        assert!(
            r["inputs"][0]["problems"].as_array().unwrap().is_empty(),
            "{name}: {}",
            r["inputs"][0]["problems"]
        );
    }
    // The loop is read as three samples, one per NVSMI LOG block.
    let r = system("nvidia-smi-q-d-loop-healthy.txt");
    let sm = r["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "GPU 0 SM clock")
        .expect("SM clock series");
    assert_eq!(sm["points"].as_array().unwrap().len(), 3, "{sm}");
}

#[test]
fn get_throttled_says_under_voltage_now_and_since_boot() {
    let r = system("vcgencmd-get-throttled-occurred.txt");
    let f = finding(&r, "power.under-voltage");
    assert_eq!(f["severity"], "warning");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("now in 0 of 1 samples"), "{s}");
    assert!(s.contains("since boot\" in 1"), "{s}");
    let r = report_of(&root().join("samples/telemetry/vcgencmd.txt"), Lang::En);
    let f = finding(&r, "power.under-voltage");
    assert_eq!(f["severity"], "critical");
}

#[test]
fn a_jetson_below_maxn_is_a_power_wall_by_mode() {
    let r = system("jetson-nvpmodel-q-15w.txt");
    assert_eq!(ids(&r), vec!["power.wall"]);
    let f = finding(&r, "power.wall");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("power mode 15W (nvpmodel mode 2)"), "{s}");
    assert!(f["fix"].as_str().unwrap().contains("nvpmodel -m 0"), "{f}");
    assert_eq!(f["evidence"][0]["line_start"], 2);
    assert!(r["inputs"][0]["problems"].as_array().unwrap().is_empty());
    // jetson_clocks --show gives each online CPU's clock.
    let r = system("jetson-clocks-show-orin-maxn.txt");
    let cpus = r["series"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["quantity"] == "cpu-freq")
        .count();
    assert_eq!(cpus, 12);
}

#[test]
fn lscpu_gives_a_trace_its_clusters() {
    let r = system("lscpu-e-rk3588.txt");
    let topo = &r["sched"]["topology"];
    assert_eq!(topo["source"], "cpuinfo-max-freq");
    let cluster = |cpu: usize| topo["cpus"][cpu]["cluster"].as_str().unwrap().to_string();
    assert_eq!(
        (cluster(0), cluster(3), cluster(4), cluster(7)),
        ("little".into(), "little".into(), "big".into(), "big".into())
    );
    let mut s = Session::new();
    for (dir, name) in [
        ("system", "lscpu-e-rk3588.txt"),
        ("traces", "llama-little-cores.perf.txt"),
    ] {
        let bytes = std::fs::read(root().join("samples").join(dir).join(name)).unwrap();
        s.add(name, &bytes);
    }
    let r = serde_json::to_value(s.report(Lang::En)).unwrap();
    assert_eq!(r["sched"]["topology"]["source"], "cpuinfo-max-freq");
    assert!(
        ids(&r).contains(&"sched.little-cores".to_string()),
        "{:?}",
        ids(&r)
    );
    let x86 = system("lscpu-x86-summary.txt");
    assert_eq!(x86["sched"]["topology"]["source"], "uniform");
}

#[test]
fn chunk_size_does_not_change_a_status_report() {
    for name in [
        "nvidia-smi-q-rtx3090-sw-power-cap.txt",
        "lscpu-e-rk3588.txt",
    ] {
        assert_chunk_size_invariant(&root().join("samples/system").join(name), 331);
    }
}

/// The first cause of a report: its layer and the finding ids it holds.
fn first_cause(r: &serde_json::Value) -> (String, Vec<String>) {
    let c = &r["verdict"]["causes"][0];
    let ids = c["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter_map(|i| match i.as_u64() {
                    Some(n) => r["findings"][n as usize]["id"].as_str().map(String::from),
                    None => i.as_str().map(String::from),
                })
                .collect()
        })
        .unwrap_or_default();
    (c["id"].as_str().unwrap_or("").to_string(), ids)
}

#[test]
fn power_states_are_the_first_cause_with_their_reading() {
    for (name, id, quote) in [
        (
            "cpufreq-info-400mhz-performance.txt",
            "power.cpu-clock-low",
            "current CPU frequency is 400 MHz",
        ),
        (
            "nvidia-smi-p3-33w-generating.txt",
            "power.gpu-state",
            "P3    33W / 170W",
        ),
        (
            "dumpsys-power-low-power-mode.txt",
            "power.saver-mode",
            "mLowPowerModeEnabled=true",
        ),
        (
            "powerprofilesctl-platform-profile.txt",
            "power.saver-mode",
            "* power-saver:",
        ),
    ] {
        let r = system(name);
        assert_eq!(ids(&r), vec![id], "{name}");
        let (layer, _) = first_cause(&r);
        assert_eq!(layer, "power", "{name}");
        let f = finding(&r, id);
        let e = serde_json::to_string(&f["evidence"]).unwrap();
        assert!(e.contains(quote), "{name}: {e}");
        let zh = report_of(&root().join("samples/system").join(name), Lang::Zh);
        assert!(
            finding(&zh, id)["title"]
                .as_str()
                .unwrap()
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{name}"
        );
    }
    // The floor under the performance governor is sized by the clock ratio.
    let r = system("cpufreq-info-400mhz-performance.txt");
    let factor = r["verdict"]["causes"][0]["impact"]["factor"]
        .as_f64()
        .unwrap();
    assert!((10.0..=13.0).contains(&factor), "{factor}");
}

#[test]
fn an_idle_gpu_beside_a_cpu_run_and_an_npu_power_saver_profile() {
    let r = report_of(
        &root().join("samples/logs/llama-cli-cpu-nvidia-smi-idle.txt"),
        Lang::En,
    );
    assert_eq!(r["runs"].as_array().unwrap().len(), 1);
    let (layer, ids) = first_cause(&r);
    assert_eq!(
        (layer.as_str(), ids[0].as_str()),
        ("build", "offload.gpu-idle")
    );
    let r = report_of(
        &root().join("samples/logs/qnn-net-run-power-saver.txt"),
        Lang::En,
    );
    let (layer, ids) = first_cause(&r);
    assert_eq!(
        (layer.as_str(), ids[0].as_str()),
        ("power", "power.saver-mode")
    );
}

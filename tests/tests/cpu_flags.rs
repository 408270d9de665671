//! System information: the CPU's own instruction flags (`/proc/cpuinfo` Features / flags,
//! `lscpu` Flags) beside a log whose build lacks an instruction decide between "rebuild" and
//! "this CPU cannot"; a bare `cpuinfo_max_freq` list gives the topology.

use tokscope::Lang;
use tokscope_tests::{ids, report_of_set, root};

fn report(files: &[&str], lang: Lang) -> serde_json::Value {
    let paths: Vec<_> = files
        .iter()
        .map(|f| root().join("samples").join(f))
        .collect();
    report_of_set(&paths, lang)
}

fn dotprod(r: &serde_json::Value) -> serde_json::Value {
    r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == "cpu.missing-dotprod")
        .cloned()
        .expect("cpu.missing-dotprod")
}

const DEVICE_B: &str = "compare/seed000-device-b.logcat.txt";

#[test]
fn a_cpu_that_has_dotprod_makes_the_build_the_cause() {
    let f = dotprod(&report(
        &[DEVICE_B, "cpu-flags/sm8550.cpuinfo.txt"],
        Lang::En,
    ));
    let summary = f["summary"].as_str().unwrap();
    assert!(summary.contains("The CPU has it (asimddp"), "{summary}");
    assert!(summary.contains("sm8550.cpuinfo.txt:"), "{summary}");
    assert!(f["fix"]
        .as_str()
        .unwrap()
        .contains("-march=armv8.2-a+dotprod"));
    assert!(
        !f["fix"].as_str().unwrap().contains("lacks"),
        "{}",
        f["fix"]
    );
    let cited = f["evidence"].as_array().unwrap();
    assert!(cited.iter().any(
        |e| e["input"].as_str().unwrap().ends_with("sm8550.cpuinfo.txt")
            && e["quote"].as_str().unwrap().contains("lists asimddp")
    ));
}

#[test]
fn a_cpu_without_dotprod_says_a_rebuild_cannot_help() {
    let files = [
        "cpu-flags/pi3-a53.llama-cli.log",
        "cpu-flags/pi3-a53.cpuinfo.txt",
    ];
    let r = report(&files, Lang::En);
    let f = dotprod(&r);
    assert_eq!(f["severity"], "critical");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("a rebuild cannot add it"),
        "{}",
        f["summary"]
    );
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("no dot-product instructions"),
        "{}",
        f["fix"]
    );
    // The build's MATMUL_INT8 = 0 is right for a CPU without i8mm: no finding of it.
    let ids = ids(&r);
    assert!(!ids.iter().any(|i| i == "cpu.missing-i8mm"), "{ids:?}");
    // The pasted prompt of the cpuinfo is not a skipped line.
    let input = r["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"].as_str().unwrap().ends_with("pi3-a53.cpuinfo.txt"))
        .unwrap();
    assert!(
        input["problems"].as_array().is_none_or(|p| p.is_empty()),
        "{input}"
    );
    let zh = dotprod(&report(&files, Lang::Zh));
    assert!(
        zh["summary"].as_str().unwrap().contains("重新构建无法补上"),
        "{}",
        zh["summary"]
    );
}

#[test]
fn without_the_cpu_flags_the_finding_says_what_would_decide() {
    let f = dotprod(&report(&[DEVICE_B], Lang::En));
    let summary = f["summary"].as_str().unwrap();
    assert!(
        summary.contains("cat /proc/cpuinfo") && summary.contains("lscpu"),
        "{summary}"
    );
}

#[test]
fn an_x86_flag_list_says_nothing_of_an_arm_instruction() {
    let f = dotprod(&report(
        &[DEVICE_B, "system/lscpu-x86-summary.txt"],
        Lang::En,
    ));
    assert!(
        f["summary"].as_str().unwrap().contains("cat /proc/cpuinfo"),
        "{}",
        f["summary"]
    );
}

#[test]
fn mnn_reports_the_device_itself() {
    let r = report(&["logs/mnn-opencl-fallback-paste.md"], Lang::En);
    let f = dotprod(&r);
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("MNN checked the device itself"),
        "{}",
        f["summary"]
    );
    assert!(
        f["fix"]
            .as_str()
            .unwrap()
            .contains("no dot-product instructions"),
        "{}",
        f["fix"]
    );
}

#[test]
fn an_x86_proc_cpuinfo_is_read_as_system_information() {
    let r = report(
        &[
            "logs/llama-cpp-python-x86-noavx2.txt",
            "cpu-flags/i5-8250u.cpuinfo.txt",
        ],
        Lang::En,
    );
    let input = &r["inputs"][1];
    assert_eq!(input["kind"], "trace");
    assert!(
        input["kind_label"]
            .as_str()
            .unwrap()
            .starts_with("system information"),
        "{input}"
    );
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "cpu.missing-avx2")
        .expect("avx2");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("The CPU has it (avx2 in the flags of"),
        "{}",
        f["summary"]
    );
}

#[test]
fn a_bare_max_freq_list_gives_the_topology_in_the_glob_order() {
    let r = report(&["system/cpuinfo-max-freq-glob-sm8650.txt"], Lang::En);
    let cpus = r["sched"]["topology"]["cpus"].as_array().unwrap();
    let mhz: Vec<f64> = cpus
        .iter()
        .map(|c| c["max_mhz"].as_f64().unwrap())
        .collect();
    assert_eq!(
        mhz,
        [2265.6, 2265.6, 3148.8, 3148.8, 3148.8, 2956.8, 2956.8, 3302.4]
    );
    assert_eq!(cpus[0]["cluster"], "little");
    assert_eq!(cpus[7]["cluster"], "big");
    assert!(r["inputs"][0]["problems"].as_array().unwrap().is_empty());
}

#[test]
fn an_optional_cpu_instruction_is_not_named_when_every_layer_is_on_the_gpu() {
    // An M2 Pro's build prints MATMUL_INT8 = 0, but Metal decodes all 33 layers.
    let r = report(&["logs/llama-metal-m2pro-bandwidth-bound.log"], Lang::En);
    let ids = ids(&r);
    assert!(!ids.iter().any(|i| i == "cpu.missing-i8mm"), "{ids:?}");
    assert!(ids.iter().any(|i| i == "bandwidth.at-ceiling"), "{ids:?}");
}

/// ollama's engine logs each backend's build features; a CPU backend that lists no vector
/// extension is the x86 baseline, and only that run is cited.
#[test]
fn an_ollama_cpu_backend_without_vector_extensions_lacks_avx2() {
    let r = report(&["logs/ollama-cpu-backend-no-avx.txt"], Lang::En);
    let f = r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == "cpu.missing-avx2")
        .cloned()
        .expect("cpu.missing-avx2");
    let cited: Vec<_> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line_start"].as_u64())
        .collect();
    assert_eq!(cited, [Some(26)], "{f}");
    assert!(f["summary"].as_str().unwrap().contains("not stated"));
}

//! `scripts/tokscope-record.sh` for real: under dash, busybox sh and mksh against a fixture
//! /sys and /proc whose values a helper process changes during the run (every sampled value is
//! checked against the step the helper had written); against this machine's real /proc with a
//! two-thread busy workload; and against a big.LITTLE phone fixture that heats up and caps its
//! clocks while the workload is pinned to a little CPU, read back by tokscope.
//!
//! A test whose shell or tool is missing says so on stderr and passes: the Debian packages are
//! dash, busybox, mksh (scripts/setup.sh installs them).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tokscope_tests::root;

fn script() -> PathBuf {
    root().join("scripts/tokscope-record.sh")
}

fn fixture_script() -> PathBuf {
    root().join("tests/record/fixture.sh")
}

fn have(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tokscope-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn make_fixture(dir: &Path) {
    let ok = Command::new("sh")
        .arg(fixture_script())
        .args(["make", dir.to_str().unwrap()])
        .status()
        .expect("fixture.sh runs");
    assert!(ok.success(), "fixture.sh make failed");
}

/// Starts the helper that writes steps 1..=n, `period` seconds apart.
fn start_helper(dir: &Path, n: u32, period: &str, mode: &str) -> std::process::Child {
    Command::new("sh")
        .arg(fixture_script())
        .args(["run", dir.to_str().unwrap(), &n.to_string(), period, mode])
        .spawn()
        .expect("helper starts")
}

/// Runs the recorder under `shell` (a command line such as `busybox sh`).
fn record(shell: &[&str], args: &[&str]) -> std::process::Output {
    let out = Command::new(shell[0])
        .args(&shell[1..])
        .arg(script())
        .args(args)
        .output()
        .expect("recorder runs");
    assert!(
        out.status.code().is_some(),
        "recorder killed by a signal: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn uptime(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not an uptime: {s}"))
}

/// The bundle's samples: (uptime, lines of the sample).
fn samples(bundle: &str) -> Vec<(f64, Vec<String>)> {
    let mut out: Vec<(f64, Vec<String>)> = Vec::new();
    let mut open = false;
    for line in bundle.lines() {
        if let Some(t) = line.strip_prefix("@t ") {
            out.push((uptime(t), Vec::new()));
            open = true;
        } else if line.starts_with('@') {
            open = false;
        } else if open {
            out.last_mut().unwrap().1.push(line.to_string());
        }
    }
    out
}

/// Checks every value of one sample against the helper's formulas (fixture.sh `values`):
/// each value must come from a step in `lo..=hi`. Returns the steps seen.
fn check_sample(lines: &[String], lo: u64, hi: u64, shell: &str, t: f64) -> Vec<u64> {
    let mut seen = Vec::new();
    let mut rows: HashMap<String, usize> = HashMap::new();
    let ctx = |what: &str| format!("{shell}, sample at {t}: {what}");
    let mut step_of = |v: i64, base: i64, sign: i64, what: &str| {
        let k = (v - base) * sign;
        assert!(
            k >= lo as i64 && k <= hi as i64,
            "{}",
            ctx(&format!("{what} = {v} is step {k}, not in {lo}..={hi}"))
        );
        seen.push(k as u64);
    };
    let some_step = |ok: &dyn Fn(u64) -> bool, what: &str| {
        assert!((lo..=hi).any(ok), "{}", ctx(what));
    };
    for line in lines {
        let w: Vec<&str> = line.split(' ').collect();
        let key = match w[0] {
            "supply" => format!("supply {} {}", w[1], w.get(2).unwrap_or(&"")),
            "stat" => format!("stat {}", w[1]),
            k => k.to_string(),
        };
        *rows.entry(key).or_default() += 1;
        let num = |i: usize| -> i64 {
            w[i].parse()
                .unwrap_or_else(|_| panic!("{}", ctx(&format!("not a number in {line}"))))
        };
        match w[0] {
            "online" => {
                assert_eq!(w[1], "-", "{}", ctx("cpu0 has no online file"));
                for n in 1..8 {
                    let v = num(n + 1) as u64;
                    some_step(&|k| (k + n as u64) % 2 == v, &format!("online cpu{n}={v}"));
                }
            }
            "cur" | "min" | "max" => {
                assert_eq!(w.len(), 9, "{}", ctx(line));
                for n in 0..8i64 {
                    let base = match w[0] {
                        "cur" => 100_000 * (n + 1),
                        "min" => 1000 * (n + 1),
                        _ => 3_000_000 + 100 * n,
                    };
                    step_of(num(n as usize + 1), base, 1, &format!("{} cpu{n}", w[0]));
                }
            }
            "temp" => {
                assert_eq!(w.len(), 4, "{}", ctx("zones 0-2 (zone 3 is unreadable)"));
                for z in 0..3i64 {
                    step_of(num(z as usize + 1), 30_000 + 1000 * z, 1, "temp");
                }
            }
            "cdev" => {
                for c in 0..2u64 {
                    let v = num(c as usize + 1) as u64;
                    some_step(&|k| k % 5 + c == v, &format!("cdev{c}={v}"));
                }
            }
            "devfreq" => step_of(num(1), 400_000_000, 1, "devfreq"),
            "kgsl" => step_of(num(1), 300_000_000, 1, "kgsl"),
            "supply" => {
                let value = w[3..].join(" ");
                match (w[1], w[2]) {
                    ("battery", "status") => some_step(
                        &|k| {
                            value
                                == if k % 2 == 0 {
                                    "Charging"
                                } else {
                                    "Not charging"
                                }
                        },
                        &format!("status {value}"),
                    ),
                    ("battery", "capacity") => step_of(num(3), 100, -1, "capacity"),
                    ("battery", "current_now") => step_of(num(3), -100_000, -1, "current"),
                    ("battery", "voltage_now") => step_of(num(3), 4_000_000, -1, "voltage"),
                    ("battery", "temp") => step_of(num(3), 300, 1, "battery temp"),
                    ("usb", "online") => {
                        let v = num(3) as u64;
                        some_step(&|k| k % 2 == v, "usb online");
                    }
                    ("usb", "current_now") => step_of(num(3), 500_000, 1, "usb current"),
                    ("usb", "voltage_now") => step_of(num(3), 5_000_000, 1, "usb voltage"),
                    _ => panic!("{}", ctx(&format!("unexpected {line}"))),
                }
            }
            "stat" => {
                assert_eq!(w.len(), 10, "{}", ctx("eight counters per CPU"));
                {
                    let n: i64 = w[1].trim_start_matches("cpu").parse().unwrap();
                    let k = num(5) - 1000;
                    assert_eq!(
                        (num(2), num(4)),
                        (k * 10 + n, k + n),
                        "{}",
                        ctx(&format!("stat of cpu{n} in one step: {line}"))
                    );
                    step_of(k, 0, 1, "stat");
                }
            }
            "task" | "rss" => {}
            _ => panic!("{}", ctx(&format!("unexpected line {line}"))),
        }
    }
    // Every source, once per sample.
    let mut expected = vec![
        "online", "cur", "min", "max", "temp", "cdev", "devfreq", "kgsl",
    ];
    let supplies = [
        "supply battery status",
        "supply battery capacity",
        "supply battery current_now",
        "supply battery voltage_now",
        "supply battery temp",
        "supply usb online",
        "supply usb current_now",
        "supply usb voltage_now",
    ];
    expected.extend(supplies);
    for key in expected {
        assert_eq!(rows.get(key), Some(&1), "{}", ctx(&format!("{key} once")));
    }
    for n in 0..8 {
        assert_eq!(
            rows.get(&format!("stat cpu{n}")),
            Some(&1),
            "{}",
            ctx("stat")
        );
    }
    seen
}

fn shells() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("dash", vec!["dash"]),
        ("busybox sh", vec!["busybox", "sh"]),
        ("mksh", vec!["mksh"]),
    ]
}

#[test]
fn every_shell_records_every_changing_value() {
    for (name, shell) in shells() {
        if !have(shell[0], &[&shell[1..], &["-c", "true"]].concat()) {
            eprintln!(
                "record test: {name} is not installed; skipped (apt-get install dash busybox mksh)"
            );
            continue;
        }
        let dir = scratch(&name.replace(' ', "-"));
        make_fixture(&dir);
        let d = dir.to_str().unwrap();
        let out = dir.join("bundle.txt");
        let mut helper = start_helper(&dir, 8, "0.3", "values");
        let workload = format!(
            "echo start; while [ ! -e {d}/done ]; do sleep 0.1; done; echo 'end \\ back'; exit 3"
        );
        let gzip = name == "mksh";
        let (sys, proc_dir) = (format!("{d}/sys"), format!("{d}/proc"));
        let mut args = vec![
            "--quiet",
            "--sys",
            &sys,
            "--proc",
            &proc_dir,
            "--interval",
            "0.2",
            "--out",
            out.to_str().unwrap(),
        ];
        if gzip {
            args.push("--gzip");
        }
        args.extend(["--", "sh", "-c", &workload]);
        let run = record(&shell, &args);
        helper.wait().expect("helper ends");
        assert_eq!(
            run.status.code(),
            Some(3),
            "{name}: the command's exit status is the recorder's: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let bundle = if gzip {
            use std::io::Read;
            let raw = std::fs::read(dir.join("bundle.txt.gz")).expect("gzipped bundle");
            let mut s = String::new();
            flate2::read::GzDecoder::new(&raw[..])
                .read_to_string(&mut s)
                .expect("gunzips");
            s
        } else {
            std::fs::read_to_string(&out).expect("bundle written")
        };
        assert!(bundle.starts_with("tokscope-record 1\n"), "{name}");
        for line in [
            "cpu 7 cpuinfo_max_freq 3014400",
            "zone 2 type xo-therm",
            "cdev 1 type thermal-cpufreq-7",
            "supply battery type Battery",
            "cols cpu  0 1 2 3 4 5 6 7",
            "cols zone  0 1 2",
            "|CPU part\t: 0xd48",
            "|start",
            "|end \\ back",
            "exit 3",
            "ended_by exit",
        ] {
            assert!(
                bundle.lines().any(|l| l == line),
                "{name}: no line {line:?} in\n{bundle}"
            );
        }
        assert!(
            bundle.contains("thermal_zone3/temp\tread error"),
            "{name}: the unreadable zone is listed with its reason"
        );
        // Each sample against the steps the helper had finished (uptime after each step).
        let steps: Vec<(u64, f64)> = std::fs::read_to_string(dir.join("steps"))
            .expect("steps")
            .lines()
            .map(|l| {
                let (k, t) = l.split_once(' ').unwrap();
                (k.parse().unwrap(), uptime(t))
            })
            .collect();
        // /proc/uptime ticks in 10 ms: a step stamped in the same tick as a sample may have
        // finished after the sample began. `slack` widens the bound the safe way for each side.
        let done_by = |t: f64, slack: f64| {
            steps
                .iter()
                .filter(|s| s.1 + slack <= t)
                .map(|s| s.0)
                .max()
                .unwrap_or(0)
        };
        let ss = samples(&bundle);
        assert!(ss.len() >= 8, "{name}: {} samples", ss.len());
        let mut seen = Vec::new();
        for (i, (t, lines)) in ss.iter().enumerate() {
            // A value read during a sample is at least the step finished before it began, and at
            // most the step being written when the next sample began.
            let lo = done_by(*t, 0.015);
            let hi = ss
                .get(i + 1)
                .map_or(8, |n| (done_by(n.0, -0.015) + 1).min(8));
            seen.extend(check_sample(lines, lo, hi, name, *t));
        }
        seen.sort_unstable();
        seen.dedup();
        assert!(
            seen.len() >= 6,
            "{name}: the changes were followed: steps seen {seen:?}"
        );
        // The samples are on one clock, about one interval apart.
        for w in ss.windows(2) {
            let dt = w[1].0 - w[0].0;
            assert!(dt > 0.0 && dt < 1.5, "{name}: samples {dt} s apart");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The report of a bundle, as the page and the CLI build it.
fn report(path: &Path) -> serde_json::Value {
    tokscope_tests::report_of(path, tokscope::Lang::En)
}

fn perl_threads() -> bool {
    have("perl", &["-Mthreads", "-e", "1"])
}

#[test]
fn a_real_two_thread_workload_gives_its_threads_and_cpus() {
    if !perl_threads() {
        eprintln!("record test: perl with threads is missing; skipped");
        return;
    }
    let dir = scratch("real");
    let out = dir.join("bundle.txt");
    let stop = dir.join("stop");
    let busy = root().join("tests/record/busy.sh");
    // The workload stops itself after 3 s.
    let run = record(
        &["dash"],
        &[
            "--quiet",
            "--interval",
            "0.5",
            "--out",
            out.to_str().unwrap(),
            "--",
            "sh",
            busy.to_str().unwrap(),
            stop.to_str().unwrap(),
            "3",
        ],
    );
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bundle = std::fs::read_to_string(&out).expect("bundle");
    let ncpu = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    // tid -> (CPUs seen, last CPU time, last name)
    let mut threads: HashMap<u64, (Vec<u64>, u64, String)> = HashMap::new();
    let mut pids = Vec::new();
    for l in bundle.lines().filter(|l| l.starts_with("task ")) {
        let w: Vec<&str> = l.splitn(7, ' ').collect();
        let n = |i: usize| w[i].parse::<u64>().unwrap();
        pids.push(n(1));
        let e = threads.entry(n(2)).or_default();
        assert!(n(3) < ncpu.max(1), "CPU {} on a {ncpu}-CPU machine", n(3));
        e.0.push(n(3));
        e.1 = n(4) + n(5);
        // The first samples may catch the recorder's fork or `sh` before they exec perl.
        e.2 = w[6].to_string();
    }
    pids.dedup();
    assert_eq!(pids.len(), 1, "one process: {pids:?}");
    let busy_threads: Vec<u64> = threads
        .iter()
        // Some CPU time (0.05 s at 100 Hz): the test machine's cores are shared, and spinning
        // threads may get little of them; the main thread only waits.
        .filter(|(_, v)| v.1 >= 5)
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(busy_threads.len(), 2, "two busy threads: {threads:?}");
    assert!(
        busy_threads.iter().all(|t| threads[t].2 == "perl"),
        "{threads:?}"
    );
    assert!(bundle.lines().any(|l| l == "|busy: done"));
    // tokscope gives the same threads, their CPUs and their running time.
    let r = report(&out);
    let trace = &r["sched"]["traces"][0];
    assert_eq!(trace["unit"], "seconds", "{trace}");
    for tid in &busy_threads {
        let row = trace["threads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tid"] == *tid)
            .unwrap_or_else(|| panic!("thread {tid} in {trace}"));
        assert_eq!(row["inference"], true, "{row}");
        let ticks = threads[tid].1 as f64 / 100.0;
        let total = row["total"].as_f64().unwrap();
        // The report holds the CPU time between the first and the last snapshot.
        assert!(total > 0.0 && total <= ticks + 1e-6, "{row} vs {ticks} s");
        let cpus: Vec<u64> = threads[tid].0.clone();
        let listed = row["cpus"].as_str().unwrap();
        let last = cpus.last().unwrap().to_string();
        assert!(listed.contains(&last), "{listed} holds CPU {last}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hot_big_little_phone_gives_thermal_wall_and_little_cores() {
    if !perl_threads() || !have("taskset", &["-c", "0", "true"]) {
        eprintln!("record test: perl threads or taskset missing; skipped");
        return;
    }
    let dir = scratch("phone");
    make_fixture(&dir);
    let d = dir.to_str().unwrap();
    let ok = Command::new("sh")
        .arg(fixture_script())
        .args(["step", d, "0", "thermal"])
        .env("N", "24")
        .status()
        .unwrap();
    assert!(ok.success());
    let mut helper = start_helper(&dir, 24, "0.1", "thermal");
    let out = dir.join("bundle.txt");
    let run = record(
        &["dash"],
        &[
            "--quiet",
            "--sys",
            &format!("{d}/sys"),
            "--proc",
            &format!("{d}/proc"),
            "--interval",
            "0.25",
            "--out",
            out.to_str().unwrap(),
            "--",
            "taskset",
            "-c",
            "0",
            "sh",
            root().join("tests/record/busy.sh").to_str().unwrap(),
            &format!("{d}/done"),
            "60",
        ],
    );
    helper.wait().unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let r = report(&out);
    let ids: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"sched.little-cores"), "{ids:?}");
    assert!(ids.contains(&"thermal.wall"), "{ids:?}");
    assert_eq!(r["sched"]["topology"]["source"], "cpuinfo-max-freq");
    let _ = std::fs::remove_dir_all(&dir);
}

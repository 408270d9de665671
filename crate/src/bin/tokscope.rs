//! The native command line on the same core as the page:
//! `tokscope analyze [--json|--markdown] [--lang en|zh] FILE...` (`-` reads standard input), and
//! `tokscope compare [--json|--markdown] A B [MORE...]` (device A vs device B), and
//! `tokscope share [--budget BYTES] [--base URL] FILE...`, which prints a share link, and
//! `tokscope bench [--json] [--mib N] [--threads N]`: this machine's read bandwidth and int4 kernel
//! speed, the native figures the browser probe is compared with.

use std::io::{Read, Write};
use std::process::ExitCode;
use tokscope::{report, share, Lang, Session};

const USAGE: &str = "usage: tokscope analyze [--json | --markdown] [--lang en|zh] FILE...
       tokscope compare [--json | --markdown] [--lang en|zh] A B [MORE...]
       tokscope share [--lang en|zh] [--budget BYTES] [--base URL] FILE...
       tokscope bench [--json] [--mib N] [--threads N]
       tokscope --version

Reads framework logs, perf / simpleperf / ftrace text and CSV telemetry, and explains
why on-device inference is slow. FILE may be - for standard input. compare puts the runs of
two or more logs (device A, device B) side by side and explains the gap.

share prints a link that carries the report in its #r= fragment (nothing is uploaded):
append it to the address of a tokscope page, or give that address with --base. The link is
degraded step by step to fit BYTES (default 8192; 0: only the hard limit), and standard error
says its size and what was left out.

bench measures this machine's memory read bandwidth and the Q4_0 decode kernel, on 1 to N
threads (default: the available parallelism + 1), over N MiB in all (default 1024).";

/// Bytes read per chunk: the same streaming path the page takes.
const CHUNK: usize = 1 << 20;

#[derive(PartialEq)]
enum Output {
    Text,
    Json,
    Markdown,
    Share,
}

struct Args {
    output: Output,
    compare: bool,
    budget: usize,
    base: String,
    lang: Lang,
    files: Vec<String>,
}

fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let (output, compare) = match argv.next().as_deref() {
        Some("analyze") => (Output::Text, false),
        Some("compare") => (Output::Text, true),
        Some("share") => (Output::Share, false),
        Some("--version" | "-V") => return Err(format!("tokscope {}", env!("CARGO_PKG_VERSION"))),
        Some("--help" | "-h") | None => return Err(USAGE.to_string()),
        Some(other) => return Err(format!("unknown command '{other}'\n\n{USAGE}")),
    };
    let sharing = output == Output::Share;
    let mut args = Args {
        output,
        compare,
        budget: share::BUDGET_BYTES,
        base: String::new(),
        lang: Lang::En,
        files: Vec::new(),
    };
    while let Some(a) = argv.next() {
        match a.as_str() {
            "--json" | "--markdown" if sharing => {
                return Err(format!("{a} is an option of analyze, not share"))
            }
            "--json" => args.output = Output::Json,
            "--markdown" => args.output = Output::Markdown,
            "--budget" if sharing => {
                let v = argv.next().ok_or("--budget needs a number of bytes")?;
                args.budget = v
                    .parse()
                    .map_err(|_| format!("--budget takes a number of bytes, not '{v}'"))?;
            }
            "--base" if sharing => {
                args.base = argv.next().ok_or("--base needs the page's address")?;
            }
            "--lang" => {
                let tag = argv.next().ok_or("--lang needs a value: en or zh")?;
                args.lang = lang_of(&tag)?;
            }
            s if s.starts_with("--lang=") => args.lang = lang_of(&s["--lang=".len()..])?,
            "--help" | "-h" => return Err(USAGE.to_string()),
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'\n\n{USAGE}")),
            _ => args.files.push(a),
        }
    }
    if args.files.is_empty() {
        return Err(format!("no input files\n\n{USAGE}"));
    }
    if args.compare && args.files.len() < 2 {
        return Err(format!(
            "compare needs two or more files (device A, device B)\n\n{USAGE}"
        ));
    }
    Ok(args)
}

/// `compare`: the report, which holds the side-by-side table; says so when there is none.
fn compare_text(report: &report::Report) -> String {
    let mut out = String::new();
    if report.comparison.is_none() {
        out.push_str(&tokscope::catalogue::text(
            report.lang,
            "ui.compare.none",
            &[],
        ));
        out.push('\n');
    }
    out.push_str(&report::text::render(report));
    out
}

fn lang_of(tag: &str) -> Result<Lang, String> {
    match tag {
        "en" | "zh" | "zh-CN" | "zh-Hans" => Ok(Lang::from_tag(tag)),
        _ => Err(format!("--lang takes en or zh, not '{tag}'")),
    }
}

/// Streams one file into the session; an unreadable file is reported and the others go on.
fn read_into(session: &mut Session, path: &str) -> Result<(), String> {
    let mut source: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?)
    };
    let name = if path == "-" { "stdin" } else { path };
    let id = session.begin(name);
    let mut buf = vec![0u8; CHUNK];
    loop {
        match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => session.push(id, &buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                session.end(id);
                return Err(format!("{path}: read failed after some bytes: {e}"));
            }
        }
    }
    session.end(id);
    Ok(())
}

/// The link on standard output; its size and what it left out on standard error.
fn share_link(report: &report::Report, args: &Args) -> Result<String, String> {
    let value = serde_json::to_value(report).map_err(|e| e.to_string())?;
    let link = share::encode(&value, &[], args.budget).map_err(|e| e.to_string())?;
    let left_out: Vec<String> = link
        .omitted
        .iter()
        .map(|o| match o.limit {
            Some(n) => format!("{} ({n})", o.what),
            None => o.what.clone(),
        })
        .collect();
    eprintln!(
        "share link: {} bytes of fragment ({} before degradation, ladder step {}); left out: {}",
        link.bytes,
        link.full_bytes,
        link.level,
        if left_out.is_empty() {
            "nothing".to_string()
        } else {
            left_out.join(", ")
        }
    );
    let base = args.base.split('#').next().unwrap_or_default();
    Ok(format!("{base}{}\n", link.fragment))
}

struct BenchArgs {
    json: bool,
    mib: usize,
    threads: usize,
}

fn parse_bench(mut argv: impl Iterator<Item = String>) -> Result<BenchArgs, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut a = BenchArgs {
        json: false,
        mib: 1024,
        threads: cores + 1,
    };
    let number = |name: &str, v: Option<String>| -> Result<usize, String> {
        v.as_deref()
            .and_then(|s| s.parse().ok())
            .filter(|n: &usize| *n > 0)
            .ok_or(format!("{name} needs a positive number"))
    };
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "--json" => a.json = true,
            "--mib" => a.mib = number("--mib", argv.next())?,
            "--threads" => a.threads = number("--threads", argv.next())?,
            "--help" | "-h" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown bench option '{other}'\n\n{USAGE}")),
        }
    }
    Ok(a)
}

#[cfg(target_arch = "wasm32")]
fn bench(_: BenchArgs) -> ExitCode {
    eprintln!(
        "tokscope: bench runs natively; in a browser, use the page's \"Measure this device\""
    );
    ExitCode::FAILURE
}

#[cfg(not(target_arch = "wasm32"))]
fn bench(args: BenchArgs) -> ExitCode {
    let b = match tokscope::kernel::bench::run(args.mib << 20, args.threads) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("tokscope: bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let out = if args.json {
        serde_json::json!({ "native": b }).to_string() + "\n"
    } else {
        let mut s = format!(
            "buffer {} MiB, kernel path {}\nread   1 thread  {:6.2} GB/s   best {:6.2} GB/s\n",
            b.buffer_bytes >> 20,
            b.best_path,
            b.read_gbps_1t,
            b.read_gbps_best
        );
        for (path, v) in &b.q4_gbps_1t {
            s += &format!(
                "q4_0   1 thread  {v:6.2} GB/s   {path} ({:.2} of read)\n",
                v / b.read_gbps_1t.max(f64::MIN_POSITIVE)
            );
        }
        s += &format!(
            "q4_0   best      {:6.2} GB/s\nthreads  read GB/s  q4_0 GB/s\n",
            b.q4_gbps_best
        );
        for t in &b.threads {
            s += &format!("{:7}  {:9.2}  {:9.2}\n", t.threads, t.read_gbps, t.q4_gbps);
        }
        s
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

pub fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("bench") {
        return match parse_bench(std::env::args().skip(2)) {
            Ok(a) => bench(a),
            Err(msg) if msg.starts_with("usage:") => {
                println!("{msg}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("tokscope: {msg}");
                ExitCode::from(2)
            }
        };
    }
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) => {
            let ok = msg.starts_with("usage:") || msg.starts_with("tokscope ");
            if ok {
                println!("{msg}");
                return ExitCode::SUCCESS;
            }
            eprintln!("tokscope: {msg}");
            return ExitCode::from(2);
        }
    };
    let mut session = Session::new();
    let mut failed = false;
    for f in &args.files {
        if let Err(e) = read_into(&mut session, f) {
            eprintln!("tokscope: {e}");
            failed = true;
        }
    }
    let report = session.report(args.lang);
    let out = match args.output {
        Output::Text if args.compare => compare_text(&report),
        Output::Text => report::text::render(&report),
        Output::Markdown => report::markdown::render(&report),
        Output::Json => match serde_json::to_string_pretty(&report) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("tokscope: cannot serialize the report: {e}");
                return ExitCode::FAILURE;
            }
        },
        Output::Share => match share_link(&report, &args) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("tokscope: cannot make a share link: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

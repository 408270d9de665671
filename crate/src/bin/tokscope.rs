//! The native command line on the same core as the page:
//! `tokscope analyze [--json|--markdown] [--lang en|zh] FILE...` (`-` reads standard input), and
//! `tokscope compare [--json|--markdown] A B [MORE...]` (device A vs device B), and
//! `tokscope share [--budget BYTES] [--base URL] FILE...`, which prints a share link, and
//! `tokscope bench [--json] [--mib N] [--threads N]`: this machine's read bandwidth and int4 kernel
//! speed, the native figures the browser probe is compared with.

// On wasm32 the CLI is a stub (`main` says to open the page): its helpers go unused there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tokscope::{report, share, Lang, Session};

const USAGE: &str = "usage: tokscope analyze [--json | --markdown] [--lang en|zh] FILE...
       tokscope compare [--json | --markdown] [--lang en|zh] A B [MORE...]
       tokscope share [--lang en|zh] [--budget BYTES] [--base URL] FILE...
       tokscope bench [--json] [--mib N] [--threads N]
       tokscope --help | --version

Reads framework logs, perf / simpleperf / ftrace text and CSV telemetry, and explains
why on-device inference is slow. FILE may be - for standard input. compare puts the runs of
two or more logs (device A, device B) side by side and explains the gap.

share prints a link that carries the report in its #r= fragment (nothing is uploaded):
append it to the address of a tokscope page, or give that address with --base. The link is
degraded step by step to fit BYTES (default {budget}; 0: only the hard limit), and standard error
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
    files: Vec<PathBuf>,
}

struct BenchArgs {
    json: bool,
    mib: usize,
    threads: usize,
}

/// What the command line asks for.
enum Command {
    Analyze(Args),
    Bench(BenchArgs),
    Help,
    Version,
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

/// Streams one file into the session; an unreadable file is reported and the others go on.
fn read_into(session: &mut Session, path: &Path) -> Result<(), String> {
    let stdin = path.as_os_str() == "-";
    let shown = path.display();
    let mut source: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?)
    };
    let name = if stdin {
        "stdin".to_string()
    } else {
        path.to_string_lossy().into_owned()
    };
    let id = session.begin(&name);
    let mut buf = vec![0u8; CHUNK];
    loop {
        match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => session.push(id, &buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                session.end(id);
                return Err(format!("{shown}: read failed after some bytes: {e}"));
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

#[cfg(target_arch = "wasm32")]
pub fn main() -> ExitCode {
    eprintln!("tokscope: the command line runs natively; in a browser, open the page");
    ExitCode::FAILURE
}

#[cfg(not(target_arch = "wasm32"))]
pub fn main() -> ExitCode {
    let args = match args::parse(lexopt::Parser::from_env()) {
        Ok(Command::Analyze(a)) => a,
        Ok(Command::Bench(b)) => return bench(b),
        Ok(Command::Help) => {
            println!(
                "{}",
                USAGE.replace("{budget}", &share::BUDGET_BYTES.to_string())
            );
            return ExitCode::SUCCESS;
        }
        Ok(Command::Version) => {
            println!("tokscope {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("tokscope: {msg}; see tokscope --help");
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

/// The argument grammar, on lexopt. Every usage error is one line that names the option and what
/// it expects; `main` adds the pointer to `--help`.
#[cfg(not(target_arch = "wasm32"))]
mod args {
    use super::{Args, BenchArgs, Command, Output};
    use lexopt::{Arg, Parser};
    use tokscope::{share, Lang};

    /// What each command takes, for the message on an unknown option.
    const ANALYZE_TAKES: &str = "analyze takes --json, --markdown, --lang en|zh and FILE...";
    const COMPARE_TAKES: &str = "compare takes --json, --markdown, --lang en|zh and A B [MORE...]";
    const SHARE_TAKES: &str = "share takes --lang en|zh, --budget BYTES, --base URL and FILE...";
    const BENCH_TAKES: &str = "bench takes --json, --mib N and --threads N";

    pub fn parse(mut p: Parser) -> Result<Command, String> {
        let command = match p.next().map_err(|e| e.to_string())? {
            None => return Ok(Command::Help),
            Some(Arg::Long("help") | Arg::Short('h')) => return Ok(Command::Help),
            Some(Arg::Long("version") | Arg::Short('V')) => return Ok(Command::Version),
            Some(Arg::Value(v)) => v.to_string_lossy().into_owned(),
            Some(other) => {
                return Err(format!(
                    "unknown option '{}': expected a command (analyze, compare, share or bench), \
                     --help or --version",
                    flag(&other)
                ))
            }
        };
        match command.as_str() {
            "analyze" => files_command(p, Output::Text, false, ANALYZE_TAKES),
            "compare" => files_command(p, Output::Text, true, COMPARE_TAKES),
            "share" => files_command(p, Output::Share, false, SHARE_TAKES),
            "bench" => bench(p),
            other => Err(format!(
                "unknown command '{other}': expected analyze, compare, share or bench"
            )),
        }
    }

    fn files_command(
        mut p: Parser,
        output: Output,
        compare: bool,
        takes: &str,
    ) -> Result<Command, String> {
        let sharing = output == Output::Share;
        let mut args = Args {
            output,
            compare,
            budget: share::BUDGET_BYTES,
            base: String::new(),
            lang: Lang::En,
            files: Vec::new(),
        };
        while let Some(arg) = next(&mut p)? {
            match arg {
                Arg::Long(o @ ("json" | "markdown")) if sharing => {
                    return Err(format!("--{o} is an option of analyze, not share"))
                }
                Arg::Long("json") => args.output = Output::Json,
                Arg::Long("markdown") => args.output = Output::Markdown,
                Arg::Long("budget") if sharing => {
                    let v = value(&mut p, "--budget", "a number of bytes")?;
                    args.budget = v
                        .parse()
                        .map_err(|_| format!("--budget takes a number of bytes, not '{v}'"))?;
                }
                Arg::Long("base") if sharing => {
                    args.base = value(&mut p, "--base", "the page's address")?;
                }
                Arg::Long("lang") => args.lang = lang_of(&value(&mut p, "--lang", "en or zh")?)?,
                Arg::Long("help") | Arg::Short('h') => return Ok(Command::Help),
                Arg::Long("version") | Arg::Short('V') => return Ok(Command::Version),
                Arg::Value(file) => args.files.push(file.into()),
                other => return Err(format!("unknown option '{}': {takes}", flag(&other))),
            }
        }
        if args.files.is_empty() {
            return Err(format!("no input files: {takes} (- for standard input)"));
        }
        if args.compare && args.files.len() < 2 {
            return Err("compare needs two or more files (device A, device B)".to_string());
        }
        Ok(Command::Analyze(args))
    }

    fn bench(mut p: Parser) -> Result<Command, String> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut a = BenchArgs {
            json: false,
            mib: 1024,
            threads: cores + 1,
        };
        let positive = |option: &str, v: String| -> Result<usize, String> {
            v.parse()
                .ok()
                .filter(|n: &usize| *n > 0)
                .ok_or(format!("{option} takes a positive number, not '{v}'"))
        };
        while let Some(arg) = next(&mut p)? {
            match arg {
                Arg::Long("json") => a.json = true,
                Arg::Long("mib") => {
                    a.mib = positive("--mib", value(&mut p, "--mib", "a positive number")?)?
                }
                Arg::Long("threads") => {
                    let v = value(&mut p, "--threads", "a positive number")?;
                    a.threads = positive("--threads", v)?;
                }
                Arg::Long("help") | Arg::Short('h') => return Ok(Command::Help),
                Arg::Long("version") | Arg::Short('V') => return Ok(Command::Version),
                other => return Err(format!("unknown option '{}': {BENCH_TAKES}", flag(&other))),
            }
        }
        Ok(Command::Bench(a))
    }

    /// The next argument; `--json=x` (a value given to a flag) is an error that says so.
    fn next(p: &mut Parser) -> Result<Option<Arg<'_>>, String> {
        p.next().map_err(|e| match e {
            lexopt::Error::UnexpectedValue { option, value } => {
                format!("{option} takes no value, not '{}'", value.to_string_lossy())
            }
            e => e.to_string(),
        })
    }

    /// The value of `option` (`--lang zh` or `--lang=zh`), which expects `what`.
    fn value(p: &mut Parser, option: &str, what: &str) -> Result<String, String> {
        let v = p
            .value()
            .map_err(|_| format!("{option} needs a value: {what}"))?;
        v.into_string()
            .map_err(|v| format!("{option} takes {what}, not '{}'", v.to_string_lossy()))
    }

    fn lang_of(tag: &str) -> Result<Lang, String> {
        match tag {
            "en" | "zh" | "zh-CN" | "zh-Hans" => Ok(Lang::from_tag(tag)),
            _ => Err(format!("--lang takes en or zh, not '{tag}'")),
        }
    }

    fn flag(arg: &Arg) -> String {
        match arg {
            Arg::Short(c) => format!("-{c}"),
            Arg::Long(s) => format!("--{s}"),
            Arg::Value(v) => v.to_string_lossy().into_owned(),
        }
    }
}

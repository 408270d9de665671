//! The native command line on the same core as the page:
//! `tokscope analyze [--json] [--lang en|zh] FILE...` (`-` reads standard input).

use std::io::{Read, Write};
use std::process::ExitCode;
use tokscope::{report, Lang, Session};

const USAGE: &str = "usage: tokscope analyze [--json] [--lang en|zh] FILE...
       tokscope compare [--json] [--lang en|zh] A B [MORE...]
       tokscope --version

Reads framework logs, perf / simpleperf / ftrace text and CSV telemetry, and explains
why on-device inference is slow. FILE may be - for standard input. `compare` puts the runs of
two or more logs (device A, device B) side by side and explains the gap.";

/// Bytes read per chunk: the same streaming path the page takes.
const CHUNK: usize = 1 << 20;

struct Args {
    compare: bool,
    json: bool,
    lang: Lang,
    files: Vec<String>,
}

fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let compare = match argv.next().as_deref() {
        Some("analyze") => false,
        Some("compare") => true,
        Some("--version" | "-V") => return Err(format!("tokscope {}", env!("CARGO_PKG_VERSION"))),
        Some("--help" | "-h") | None => return Err(USAGE.to_string()),
        Some(other) => return Err(format!("unknown command '{other}'\n\n{USAGE}")),
    };
    let mut args = Args {
        compare,
        json: false,
        lang: Lang::En,
        files: Vec::new(),
    };
    while let Some(a) = argv.next() {
        match a.as_str() {
            "--json" => args.json = true,
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

fn main() -> ExitCode {
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
    let out = if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("tokscope: cannot serialize the report: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else if args.compare {
        compare_text(&report)
    } else {
        report::text::render(&report)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

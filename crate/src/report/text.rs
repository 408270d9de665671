//! The readable plain-text rendering of a report, for the terminal.

use super::Report;
use crate::catalogue::{self, Lang};
use std::fmt::Write;

/// Line numbers listed in full before the rest is summarized.
const LINES_SHOWN: usize = 40;

pub fn render(report: &Report) -> String {
    let lang: Lang = report.lang;
    let t = |key: &str| catalogue::text(lang, key, &[]);
    let mut out = String::new();
    let _ = writeln!(out, "{}", report.tool);
    let _ = writeln!(out, "\n{}", t("ui.inputs"));
    for i in &report.inputs {
        let kind = i
            .kind
            .as_ref()
            .map(|k| catalogue::text(lang, &format!("kind.{}", k.key()), &[]))
            .unwrap_or_default();
        let fw = i
            .framework_label
            .as_ref()
            .map(|f| format!(" · {f}"))
            .unwrap_or_default();
        let size = catalogue::text(
            lang,
            "ui.input.size",
            &[
                ("bytes", &i.bytes.to_string()),
                ("lines", &i.lines.to_string()),
            ],
        );
        let _ = writeln!(out, "  {} — {kind}{fw} — {size}", i.name);
        for p in &i.problems {
            let _ = writeln!(out, "    [{}] {}", p.level, p.message);
        }
    }
    let _ = writeln!(out, "\n{}", t("ui.findings"));
    if report.findings.is_empty() {
        let _ = writeln!(out, "  {}", t("ui.findings.none"));
    }
    for (n, f) in report.findings.iter().enumerate() {
        let sev = t(&format!("severity.{}", f.severity.key()));
        let _ = writeln!(out, "\n{}. [{sev}] {}  ({})", n + 1, f.title, f.id);
        let _ = writeln!(out, "   {}", f.summary);
        for e in &f.evidence {
            let at = match (e.line_start, e.line_end) {
                (Some(a), Some(b)) if a != b => format!("{}:{a}-{b}", e.input),
                (Some(a), _) => format!("{}:{a}", e.input),
                _ => e.input.clone(),
            };
            let _ = writeln!(out, "   {at}: {}", e.quote.as_deref().unwrap_or(""));
        }
        for l in &f.lines {
            let shown: Vec<String> = l
                .lines
                .iter()
                .take(LINES_SHOWN)
                .map(u64::to_string)
                .collect();
            let more = l.lines.len().saturating_sub(LINES_SHOWN);
            let count = f.count.unwrap_or(l.lines.len() as u64).to_string();
            let _ = write!(
                out,
                "   {} {}: {}",
                catalogue::text(lang, "ui.seen-on", &[("count", &count)]),
                l.input,
                shown.join(", ")
            );
            if more > 0 {
                let _ = write!(out, " (+{more})");
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "   {}: {}", t("ui.why"), f.explain);
        let _ = writeln!(out, "   {}: {}", t("ui.fix"), f.fix);
    }
    out
}

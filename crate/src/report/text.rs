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
    if let Some(v) = &report.verdict {
        render_verdict(v, lang, &mut out);
    }
    let _ = writeln!(out, "\n{}", t("ui.inputs"));
    for i in &report.inputs {
        let kind = &i.kind_label;
        let fw = i
            .framework_label
            .as_ref()
            .map(|f| format!(" · {f}"))
            .unwrap_or_default();
        let size = catalogue::text(
            lang,
            "ui.input.size",
            &[("size", &i.size), ("lines", &i.lines.to_string())],
        );
        let _ = writeln!(out, "  {} — {kind}{fw} — {size}", i.name);
        for p in &i.problems {
            let _ = writeln!(out, "    [{}] {}", p.level, p.message);
            for q in &p.examples {
                let _ = writeln!(out, "      {}: {}", q.line, q.text);
            }
        }
    }
    render_runs(report, &mut out);
    if let Some(c) = &report.comparison {
        render_comparison(c, lang, &mut out);
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

/// One compact line per run: where it is, and the facts that decide its speed.
fn render_runs(report: &Report, out: &mut String) {
    if report.runs.is_empty() {
        return;
    }
    let lang = report.lang;
    let _ = writeln!(out, "\n{}", catalogue::text(lang, "ui.runs", &[]));
    for r in &report.runs {
        let t = |key: &str, params: &[(&str, &str)]| catalogue::text(lang, key, params);
        let mut parts: Vec<String> = Vec::new();
        if let Some(l) = &r.label {
            parts.push(t("ui.run.label", &[("label", l)]));
        }
        if let Some(q) = &r.quant {
            parts.push(q.clone());
        }
        if let Some(p) = r.params {
            parts.push(t("ui.run.params", &[("n", &format!("{:.2}", p / 1e9))]));
        }
        if let Some(b) = &r.backend {
            parts.push(b.clone());
        }
        if let Some(n) = r.n_threads {
            let hw = r
                .hw_threads
                .map_or_else(|| "?".to_string(), |h| h.to_string());
            parts.push(t("ui.run.threads", &[("n", &n.to_string()), ("hw", &hw)]));
        }
        for (key, p) in [("ui.run.prefill", &r.prefill), ("ui.run.decode", &r.decode)] {
            if let Some(v) = p.as_ref().and_then(|p| p.tok_s) {
                parts.push(t(key, &[("v", &format!("{v:.2}"))]));
            }
        }
        if !r.bench.is_empty() {
            parts.push(t("ui.run.bench", &[("n", &r.bench.len().to_string())]));
        }
        let fw = r
            .framework
            .map_or_else(String::new, |f| super::framework_name(lang, f));
        let at = match (r.line_start, r.line_end) {
            (Some(a), Some(b)) if a != b => format!("{}:{a}-{b}", r.input),
            (Some(a), _) => format!("{}:{a}", r.input),
            _ => r.input.clone(),
        };
        let _ = writeln!(out, "  {at} {fw}: {}", parts.join(", "));
    }
}

/// Each group's facts that differ, as an aligned table; then the runs listed, not compared.
pub fn render_comparison(c: &super::compare::Comparison, lang: Lang, out: &mut String) {
    let t = |key: &str, params: &[(&str, &str)]| catalogue::text(lang, key, params);
    let _ = writeln!(out, "\n{}", t("ui.compare", &[]));
    if c.groups.is_empty() {
        let _ = writeln!(out, "  {}", t("ui.compare.none", &[]));
    }
    for (n, g) in c.groups.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}",
            t(
                "ui.compare.group",
                &[("n", &(n + 1).to_string()), ("model", &g.model)]
            )
        );
        let rows: Vec<&super::compare::CompareRow> = g.rows.iter().filter(|r| r.differs).collect();
        let width = rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let letter = |i: usize| (b'A' + (i as u8).min(25)) as char;
        for (i, name) in g.inputs.iter().enumerate() {
            let mark = if i == 0 {
                format!(" ({})", t("ui.compare.reference", &[]))
            } else {
                String::new()
            };
            let _ = writeln!(out, "    [{}] {name}{mark}", letter(i));
        }
        for r in rows {
            let vals: Vec<String> = r
                .values
                .iter()
                .enumerate()
                .map(|(i, v)| format!("[{}] {}", letter(i), v.as_deref().unwrap_or("—")))
                .collect();
            let pad = width - r.label.chars().count();
            let _ = writeln!(
                out,
                "    {}{}  {}",
                r.label,
                " ".repeat(pad),
                vals.join("  ")
            );
        }
        let _ = writeln!(out, "    {}", t("ui.compare.same", &[]));
    }
    for (key, runs) in [
        ("ui.compare.unrelated", &c.unrelated),
        ("ui.compare.excluded", &c.excluded),
    ] {
        if runs.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  {}", t(key, &[]));
        for r in runs {
            let model = r.model.as_deref().unwrap_or("?");
            let _ = writeln!(out, "    {} — {model}", r.input);
        }
    }
}

/// The verdict, first: the headline, the ranked causes with their impact, the gap, what to add.
fn render_verdict(v: &super::verdict::VerdictReport, lang: Lang, out: &mut String) {
    let t = |key: &str| catalogue::text(lang, key, &[]);
    let _ = writeln!(out, "\n{}\n  {}", t("ui.verdict"), v.headline);
    if let Some(g) = &v.gap {
        let _ = writeln!(out, "  {}", g.text);
    }
    if !v.causes.is_empty() {
        let _ = writeln!(out, "\n  {}", t("ui.verdict.causes"));
    }
    for (n, c) in v.causes.iter().enumerate() {
        let sev = t(&format!("severity.{}", c.severity.key()));
        let impact = super::verdict::impact_label(lang, &c.impact);
        let _ = writeln!(out, "  {}. [{sev}] {} — {impact}", n + 1, c.title);
        let _ = writeln!(out, "     {}", c.impact.basis);
        let _ = writeln!(out, "     {}", c.findings.join(", "));
    }
    if !v.next.is_empty() {
        let _ = writeln!(out, "\n  {}", t("ui.verdict.next"));
        for n in &v.next {
            let _ = writeln!(out, "  - {n}");
        }
    }
}

//! The Markdown rendering of a report, ready to paste into an issue tracker. The CLI
//! (`tokscope analyze --markdown`) and the page's "Download Markdown" both use it.
//!
//! Every string from an input (names, quotes) is escaped or fenced, so a crafted file name cannot
//! turn into a link, an image or HTML where the Markdown is pasted.

use super::Report;
use crate::catalogue::{self, Lang};
use std::fmt::Write;

/// Line numbers listed per input before the rest is counted.
const LINES_SHOWN: usize = 40;

pub fn render(report: &Report) -> String {
    let lang: Lang = report.lang;
    let t = |key: &str| catalogue::text(lang, key, &[]);
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", escape(&t("ui.title")));
    let _ = writeln!(out, "_{}_\n", escape(&report.tool));
    if let Some(v) = &report.verdict {
        render_verdict(v, lang, &mut out);
    }
    if let Some(c) = &report.comparison {
        render_comparison(c, lang, &mut out);
    }
    let _ = writeln!(out, "## {}\n", escape(&t("ui.inputs")));
    for i in &report.inputs {
        let kind = &i.kind_label;
        let size = catalogue::text(
            lang,
            "ui.input.size",
            &[("size", &i.size), ("lines", &i.lines.to_string())],
        );
        let meta: Vec<&str> = [
            Some(kind.as_str()),
            i.framework_label.as_deref(),
            Some(&size),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
        let _ = writeln!(out, "- {} — {}", code(&i.name), escape(&meta.join(" · ")));
        for p in &i.problems {
            let _ = writeln!(out, "  - **{}** {}", escape(&p.level), escape(&p.message));
            for q in &p.examples {
                let _ = writeln!(out, "    - {} {}", q.line, code(&q.text));
            }
        }
    }
    let _ = writeln!(out, "\n## {}\n", escape(&t("ui.findings")));
    if report.findings.is_empty() {
        let _ = writeln!(out, "{}", escape(&t("ui.findings.none")));
    }
    for (n, f) in report.findings.iter().enumerate() {
        let sev = t(&format!("severity.{}", f.severity.key()));
        let _ = writeln!(
            out,
            "### {}. [{}] {} {}\n",
            n + 1,
            escape(&sev),
            escape(&f.title),
            code(&f.id)
        );
        let _ = writeln!(out, "{}\n", escape(&f.summary));
        if !f.evidence.is_empty() {
            let _ = writeln!(out, "**{}**\n", escape(&t("ui.evidence")));
            for e in &f.evidence {
                let at = match (e.line_start, e.line_end) {
                    (Some(a), Some(b)) if a != b => format!("{}:{a}-{b}", e.input),
                    (Some(a), _) => format!("{}:{a}", e.input),
                    _ => e.input.clone(),
                };
                let _ = writeln!(out, "{}\n", code(&at));
                if let Some(q) = &e.quote {
                    let _ = writeln!(out, "{}\n", fence(q));
                }
            }
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
            let mut text = format!(
                "{} {}: {}",
                catalogue::text(lang, "ui.seen-on", &[("count", &count)]),
                l.input,
                shown.join(", ")
            );
            if more > 0 {
                let _ = write!(text, " (+{more})");
            }
            if f.lines_truncated {
                let _ = write!(text, " {}", t("ui.lines-truncated"));
            }
            let _ = writeln!(out, "{}\n", escape(&text));
        }
        let _ = writeln!(out, "**{}** {}\n", escape(&t("ui.why")), escape(&f.explain));
        let _ = writeln!(out, "**{}** {}\n", escape(&t("ui.fix")), escape(&f.fix));
    }
    out
}

/// Escapes text so Markdown (and the HTML it allows) reads it literally, on one line.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // Without `[` a `(` cannot form a link, so prose parentheses stay unescaped.
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A code span that holds `text` verbatim: the fence is longer than any backtick run inside.
fn code(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let ticks = "`".repeat(longest_run(&clean, '`') + 1);
    format!("{ticks} {clean} {ticks}")
}

/// A fenced block that holds `text` verbatim.
fn fence(text: &str) -> String {
    let clean: String = text
        .chars()
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .collect();
    let ticks = "`".repeat((longest_run(&clean, '`') + 1).max(3));
    format!("{ticks}text\n{clean}\n{ticks}")
}

fn longest_run(text: &str, ch: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == ch { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Each group's differing facts as a table, then the runs listed, not compared.
fn render_comparison(c: &super::compare::Comparison, lang: Lang, out: &mut String) {
    let t = |key: &str, params: &[(&str, &str)]| catalogue::text(lang, key, params);
    let _ = writeln!(out, "## {}\n", escape(&t("ui.compare", &[])));
    if c.groups.is_empty() {
        let _ = writeln!(out, "{}\n", escape(&t("ui.compare.none", &[])));
    }
    for (n, g) in c.groups.iter().enumerate() {
        let title = t(
            "ui.compare.group",
            &[("n", &(n + 1).to_string()), ("model", &g.model)],
        );
        let _ = writeln!(out, "### {}\n", escape(&title));
        let mut head = format!("| {} |", escape(&t("ui.compare.fact", &[])));
        for (i, name) in g.inputs.iter().enumerate() {
            let letter = (b'A' + (i as u8).min(25)) as char;
            let mark = if i == 0 {
                format!(" ({})", t("ui.compare.reference", &[]))
            } else {
                String::new()
            };
            let _ = write!(head, " {letter}: {}{} |", code(name), escape(&mark));
        }
        let _ = writeln!(out, "{head}");
        let _ = writeln!(out, "|---|{}", "---|".repeat(g.inputs.len()));
        for r in g.rows.iter().filter(|r| r.differs) {
            let mut line = format!("| {} |", escape(&r.label));
            for v in &r.values {
                let _ = write!(line, " {} |", escape(v.as_deref().unwrap_or("—")));
            }
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "\n{}\n", escape(&t("ui.compare.same", &[])));
    }
    for (key, runs) in [
        ("ui.compare.unrelated", &c.unrelated),
        ("ui.compare.excluded", &c.excluded),
    ] {
        if runs.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{}\n", escape(&t(key, &[])));
        for r in runs {
            let model = r.model.as_deref().unwrap_or("?");
            let _ = writeln!(out, "- {} — {}", code(&r.input), escape(model));
        }
        out.push('\n');
    }
}

/// The verdict, first: the headline, the ranked causes with their impact, the gap, what to add.
fn render_verdict(v: &super::verdict::VerdictReport, lang: Lang, out: &mut String) {
    let t = |key: &str| catalogue::text(lang, key, &[]);
    let _ = writeln!(out, "## {}\n", escape(&t("ui.verdict")));
    let _ = writeln!(out, "**{}**\n", escape(&v.headline));
    if let Some(g) = &v.gap {
        let _ = writeln!(out, "{}\n", escape(&g.text));
    }
    for (n, c) in v.causes.iter().enumerate() {
        let sev = t(&format!("severity.{}", c.severity.key()));
        let impact = super::verdict::impact_label(lang, &c.impact);
        let ids: Vec<String> = c.findings.iter().map(|i| code(i)).collect();
        let _ = writeln!(
            out,
            "{}. **[{}] {}** — {}: {} ({})",
            n + 1,
            escape(&sev),
            escape(&c.title),
            escape(&impact),
            escape(&c.impact.basis),
            ids.join(", ")
        );
    }
    if !v.next.is_empty() {
        let _ = writeln!(out, "\n{}:\n", escape(&t("ui.verdict.next")));
        for n in &v.next {
            let _ = writeln!(out, "- {}", escape(n));
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Session;

    #[test]
    fn renders_findings_with_fenced_quotes() {
        let mut s = Session::new();
        s.add(
            "app.log",
            b"W/tflite: 7 operations will run on the GPU, and the remaining 3 operations will run on the CPU.\n",
        );
        let md = render(&s.report(Lang::En));
        assert!(md.contains("## Findings"), "{md}");
        assert!(
            md.contains("[warning] Work falls back to the CPU ` fallback.cpu `"),
            "{md}"
        );
        assert!(md.contains("```text\nW/tflite: 7 operations"), "{md}");
        assert!(md.contains("` app.log:1 `"), "{md}");
    }

    fn llama_log(name: &str, tok_s: &str) -> String {
        format!(
            "llama_model_loader: loaded meta data with 19 key-value pairs and 291 tensors from /m/{name} (version GGUF V2)\n\
             print_info: file type   = Q4_0\n\
             print_info: model params     = 6.74 B\n\
             system_info: n_threads = 4 (n_threads_batch = 4) / 8 | CPU : NEON = 1 |\n\
             llama_perf_context_print:        eval time =    1000.00 ms /   10 runs   (  100.00 ms per token,    {tok_s} tokens per second)\n"
        )
    }

    #[test]
    fn a_comparison_renders_its_groups_and_the_runs_listed_apart() {
        let mut s = Session::new();
        s.add(
            "a.log",
            llama_log("llama-2-7b.Q4_0.gguf", "9.80").as_bytes(),
        );
        s.add(
            "b.log",
            llama_log("llama-2-7b.Q4_0.gguf", "2.96").as_bytes(),
        );
        s.add(
            "c.log",
            llama_log("qwen2.5-0.5b-q4_0.gguf", "80.0").as_bytes(),
        );
        let md = render(&s.report(Lang::En));
        assert!(md.contains("### Group 1: "), "{md}");
        assert!(
            md.contains("| A: ` a.log ` (reference) | B: ` b.log ` |"),
            "{md}"
        );
        assert!(
            md.contains("| Decode | 9.80 tok/s (10 tok) | 2.96 tok/s (10 tok) |"),
            "{md}"
        );
        assert!(md.contains("Listed, not compared"), "{md}");
        assert!(
            md.contains("- ` c.log ` — qwen2.5-0.5b-q4\\_0.gguf"),
            "{md}"
        );
    }

    #[test]
    fn crafted_text_stays_literal() {
        assert_eq!(
            escape("<img src=x onerror=a()>[x](javascript:a)\n# h"),
            "&lt;img src=x onerror=a()&gt;\\[x\\](javascript:a) \\# h"
        );
        assert_eq!(code("a ``b`` c"), "``` a ``b`` c ```");
        assert_eq!(fence("x ``` y"), "````text\nx ``` y\n````");
    }
}

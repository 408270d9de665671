//! Benchmark tables as users paste them: llama-bench's and MNN llm_bench's markdown
//! (`| model | size | params | backend | threads | test | t/s |`), the same copied out of a
//! rendered page as TSV, rows without their header, and `pp 512` written with a space.
//!
//! Column names come from the header when there is one; without it, the last two columns are
//! the test and the speed (that is how both tools lay them out) and nothing else is read.

use super::runs::num;
use regex::Regex;
use std::sync::OnceLock;

/// One data row, with what its columns said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    pub model: Option<String>,
    pub model_bytes: Option<u64>,
    pub params: Option<f64>,
    pub backend: Option<String>,
    pub threads: Option<u32>,
    pub test: String,
    pub tok_s: f64,
    pub stddev: Option<f64>,
}

#[derive(Debug, Clone, Default)]
struct Columns {
    model: Option<usize>,
    size: Option<usize>,
    params: Option<usize>,
    backend: Option<usize>,
    threads: Option<usize>,
    test: usize,
    speed: usize,
    /// The header was a markdown row (`|`), not TSV; a row of the other kind does not use it.
    pipe: bool,
}

#[derive(Debug, Default)]
pub struct BenchTable {
    cols: Option<Columns>,
    /// The header named MNN's columns (`modelSize`).
    pub mnn_header: bool,
}

fn re() -> &'static (Regex, Regex) {
    static R: OnceLock<(Regex, Regex)> = OnceLock::new();
    R.get_or_init(|| {
        (
            Regex::new(r"(?i)^(?:pp|tg)\s*\d+(?:\s*\+\s*tg\s*\d+)?(?:\s*@\s*d\s*\d+)?$")
                .expect("test"),
            Regex::new(r"^\**\s*([\d.]+)\s*\**\s*(?:(?:±|\+/-|\+-)\s*\**\s*([\d.]+))?")
                .expect("speed"),
        )
    })
}

/// The cells of a table row, and whether it was a markdown (`|`) row.
fn cells(msg: &str) -> Option<(Vec<&str>, bool)> {
    let t = msg.trim();
    if t.starts_with('|') {
        let inner = t.trim_start_matches('|').trim_end_matches('|');
        Some((inner.split('|').map(str::trim).collect(), true))
    } else if t.contains('\t') {
        Some((t.split('\t').map(str::trim).collect(), false))
    } else {
        None
    }
}

/// Bytes from a size cell: `727.75 MiB`, `3.56 GiB`, `1.2 GB`.
pub fn size_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let (n, unit) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let v = num(n)?;
    let mul = match unit.trim().to_ascii_lowercase().as_str() {
        "kib" | "kb" | "k" => 1024.0,
        "mib" | "mb" | "m" => 1024.0 * 1024.0,
        "gib" | "gb" | "g" => 1024.0 * 1024.0 * 1024.0,
        "b" | "bytes" => 1.0,
        _ => return None,
    };
    Some((v * mul).round() as u64)
}

/// A parameter count from `1.24 B`, `494.03 M`, `7B`.
pub fn param_count(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic())?;
    let v = num(&s[..split])?;
    let mul = match s[split..].trim() {
        "K" | "k" => 1e3,
        "M" | "m" => 1e6,
        "B" | "b" | "G" => 1e9,
        "T" => 1e12,
        _ => return None,
    };
    Some(v * mul)
}

impl BenchTable {
    pub fn line(&mut self, msg: &str) -> Option<Row> {
        let (cells, pipe) = cells(msg)?;
        if cells.len() < 2 {
            return None;
        }
        let lower: Vec<String> = cells.iter().map(|c| c.to_ascii_lowercase()).collect();
        if let (Some(test), Some(speed)) = (
            lower.iter().position(|c| c == "test"),
            lower
                .iter()
                .position(|c| c == "t/s" || c == "tok/s" || c == "tokens/s" || c == "speed(tok/s)"),
        ) {
            let find = |names: &[&str]| lower.iter().position(|c| names.contains(&c.as_str()));
            self.mnn_header = lower.iter().any(|c| c == "modelsize");
            self.cols = Some(Columns {
                model: find(&["model"]),
                size: find(&["size", "modelsize"]),
                params: find(&["params"]),
                backend: find(&["backend", "backends"]),
                threads: find(&["threads", "n_threads"]),
                test,
                speed,
                pipe,
            });
            return None;
        }
        let (re_test, re_speed) = re();
        // Without a header (of this row's kind), the last two columns are the test and the
        // speed, and the first names the model when it carries a quant (`llama 1B Q4_0`).
        let cols = self
            .cols
            .clone()
            .filter(|c| c.pipe == pipe)
            .unwrap_or(Columns {
                model: (cells.len() >= 3
                    && cells
                        .first()
                        .and_then(|m| quant_of_model_column(m))
                        .is_some())
                .then_some(0),
                test: cells.len().saturating_sub(2),
                speed: cells.len() - 1,
                pipe,
                ..Columns::default()
            });
        let test = cells.get(cols.test)?.trim_matches('*').trim();
        if !re_test.is_match(test) {
            return None;
        }
        let speed = re_speed.captures(cells.get(cols.speed)?)?;
        let tok_s = num(speed.get(1)?.as_str())?;
        let get = |i: Option<usize>| {
            i.and_then(|i| cells.get(i))
                .map(|c| c.trim())
                .filter(|c| !c.is_empty())
        };
        Some(Row {
            model: get(cols.model).map(str::to_string),
            model_bytes: get(cols.size).and_then(size_bytes),
            params: get(cols.params).and_then(param_count),
            backend: get(cols.backend).map(str::to_string),
            threads: get(cols.threads).and_then(|t| t.parse().ok()),
            test: test
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase(),
            tok_s,
            stddev: speed.get(2).and_then(|m| num(m.as_str())),
        })
    }
}

/// The quant inside a bench model column: `llama 7B Q4_K - Medium` -> `Q4_K - Medium`,
/// `qwen2 1B Q4_0` -> `Q4_0`, `llama ?B Q4_0_4_8` -> `Q4_0_4_8`.
pub fn quant_of_model_column(model: &str) -> Option<String> {
    let words: Vec<&str> = model.split_whitespace().collect();
    let size_at = words.iter().position(|w| {
        let w = w.trim_end_matches(['B', 'M']);
        w == "?"
            || (!w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == 'x'))
    })?;
    let rest = words.get(size_at + 1..)?.join(" ");
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_with_header() {
        let mut t = BenchTable::default();
        assert!(t
            .line("| model | size | params | backend | threads | test | t/s |")
            .is_none());
        assert!(t
            .line("| ------------- | ---------: | ---: | --- | --: | --: | ---: |")
            .is_none());
        let r = t
            .line("| llama 1B Q4_0  | 727.75 MiB |  1.24 B | CPU        |       6 |    tg64 |     188.15 ± 9.39 |")
            .expect("row");
        assert_eq!(r.test, "tg64");
        assert_eq!(r.tok_s, 188.15);
        assert_eq!(r.stddev, Some(9.39));
        assert_eq!(r.threads, Some(6));
        assert_eq!(r.model_bytes, Some(763_101_184));
        assert_eq!(r.params, Some(1.24e9));
        assert_eq!(
            quant_of_model_column("llama 1B Q4_0").as_deref(),
            Some("Q4_0")
        );
        assert_eq!(
            quant_of_model_column("llama 7B Q4_K - Medium").as_deref(),
            Some("Q4_K - Medium")
        );
        assert_eq!(
            quant_of_model_column("llama ?B Q4_0_4_8").as_deref(),
            Some("Q4_0_4_8")
        );
    }

    #[test]
    fn headerless_tsv_and_spaced_test_names() {
        let mut t = BenchTable::default();
        let r = t
            .line("llama ?B Q4_0_4_8\t70.81 MiB\t1.24 B\tCPU\t4\tpp 512\t**95.2** ± 1.1")
            .expect("row");
        assert_eq!(r.test, "pp512");
        assert_eq!(r.tok_s, 95.2);
        assert_eq!(r.threads, None, "no header: threads column unknown");
        assert!(t.line("| model | note |").is_none());
        assert!(t.line("just text").is_none());
    }
}

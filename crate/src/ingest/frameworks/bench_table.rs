//! Benchmark tables as users paste them: llama-bench's and MNN llm_bench's markdown
//! (`| model | size | params | backend | threads | test | t/s |`), the same copied out of a
//! rendered page as TSV, rows without their header, and `pp 512` written with a space.
//!
//! Column names come from the header when there is one; without it, the last two columns are
//! the test and the speed (that is how both tools lay them out), and the other columns are
//! recognised by what they hold in llama-bench's order (`model size params backend [ngl]
//! threads …`): a size with its unit, a parameter count, a backend name, the device named after
//! its backend (`HTP0`, `CUDA0`), and the thread count right after the backend (after the layer
//! count on a GPU backend). Columns that cannot be told apart (n_batch, fa) are not read.

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
    pub devices: Vec<String>,
    /// MNN llm_bench's `-pg` and `-kv` cells hold two figures, prefill over decode
    /// (`250.10 ± 3.20<br>30.40 ± 0.50`): the second one and its deviation.
    pub second: Option<(f64, Option<f64>)>,
}

#[derive(Debug, Clone, Default)]
struct Columns {
    model: Option<usize>,
    size: Option<usize>,
    params: Option<usize>,
    backend: Option<usize>,
    threads: Option<usize>,
    devices: Option<usize>,
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

fn re() -> &'static (Regex, Regex, Regex) {
    static R: OnceLock<(Regex, Regex, Regex)> = OnceLock::new();
    R.get_or_init(|| {
        (
            Regex::new(r"(?i)^(?:pp|tg)\s*\d+(?:\s*\+\s*tg\s*\d+)?(?:\s*@\s*d\s*\d+)?$")
                .expect("test"),
            Regex::new(r"^\**\s*([\d.]+)\s*\**\s*(?:(?:±|\+/-|\+-)\s*\**\s*([\d.]+))?")
                .expect("speed"),
            // llm_bench `-kv true` names its test by both lengths.
            Regex::new(r"^prompt=(\d+)\s*<br>\s*decode=(\d+)$").expect("llm_demo test"),
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
    // Whole parameters: `4.02 B` is 4020000000, not 4019999999.9999995.
    Some((v * mul).round())
}

impl BenchTable {
    pub fn line(&mut self, msg: &str) -> Option<Row> {
        let (cells, pipe) = cells(msg)?;
        if cells.len() < 2 {
            return None;
        }
        let lower: Vec<String> = cells.iter().map(|c| c.to_ascii_lowercase()).collect();
        if let (Some(test), Some(speed)) = (
            lower.iter().position(|c| c == "test" || c == "llm_demo"),
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
                devices: find(&["dev", "devices", "device"]),
                test,
                speed,
                pipe,
            });
            return None;
        }
        let (re_test, re_speed, re_kv_test) = re();
        // Without a header (of this row's kind), the last two columns are the test and the
        // speed, and the first names the model when it carries a quant (`llama 1B Q4_0`).
        let cols = self
            .cols
            .clone()
            .filter(|c| c.pipe == pipe)
            .unwrap_or_else(|| headerless_columns(&cells, pipe));
        let test_cell = cells.get(cols.test)?.trim_matches('*').trim();
        let test = match re_kv_test.captures(test_cell) {
            Some(c) => format!("pp{}+tg{}", &c[1], &c[2]),
            None if re_test.is_match(test_cell) => test_cell.to_string(),
            None => return None,
        };
        let speed_cell = cells.get(cols.speed)?;
        let speed = re_speed.captures(speed_cell)?;
        let tok_s = num(speed.get(1)?.as_str())?;
        let second = speed_cell
            .split_once("<br>")
            .and_then(|(_, s)| re_speed.captures(s.trim()))
            .and_then(|c| {
                let v = num(c.get(1)?.as_str())?;
                Some((v, c.get(2).and_then(|m| num(m.as_str()))))
            });
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
            devices: get(cols.devices)
                .map(|d| {
                    d.split([',', '/'])
                        .map(str::trim)
                        .filter(|d| !d.is_empty())
                        .take(16)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            second,
        })
    }
}

/// Backends as llama-bench names them in its `backend` column.
const BACKENDS: &[&str] = &[
    "CPU", "CUDA", "Metal", "Vulkan", "OpenCL", "SYCL", "HTP", "BLAS", "RPC", "CANN", "MUSA",
    "HIP", "ROCm", "Kompute", "WebGPU", "ZDNN", "BLIS",
];

fn is_backend(cell: &str) -> bool {
    !cell.is_empty()
        && cell
            .split(',')
            .all(|b| BACKENDS.iter().any(|k| k.eq_ignore_ascii_case(b.trim())))
}

/// The columns of a row without its header, told by their content in llama-bench's order.
fn headerless_columns(cells: &[&str], pipe: bool) -> Columns {
    let test = cells.len().saturating_sub(2);
    let before = &cells[..test];
    let first = |f: &dyn Fn(&str) -> bool| before.iter().position(|c| f(c.trim()));
    let backend = first(&is_backend);
    let threads = backend.and_then(|b| {
        let cpu_only = before[b].trim().eq_ignore_ascii_case("CPU");
        // A GPU backend prints its layer count (ngl) first.
        let at = if cpu_only { b + 1 } else { b + 2 };
        let v: u32 = before.get(at)?.trim().parse().ok()?;
        (at < test && (1..=256).contains(&v)).then_some(at)
    });
    let devices = backend.and_then(|b| {
        let names: Vec<&str> = before[b].split(',').map(str::trim).collect();
        first(&|c: &str| {
            !c.is_empty()
                && c.split(',').all(|d| {
                    let d = d.trim();
                    names.iter().any(|n| {
                        // `get`: a cell may hold any text, and a byte count can land inside
                        // a character (a fuzz find).
                        d.len() > n.len()
                            && d.get(..n.len()).is_some_and(|p| p.eq_ignore_ascii_case(n))
                            && d.get(n.len()..)
                                .is_some_and(|r| r.chars().all(|ch| ch.is_ascii_digit()))
                    })
                })
        })
    });
    Columns {
        model: (cells.len() >= 3
            && cells
                .first()
                .and_then(|m| quant_of_model_column(m))
                .is_some())
        .then_some(0),
        size: first(&|c: &str| {
            let unit = c.trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
            size_bytes(c).is_some()
                && ["KiB", "MiB", "GiB", "KB", "MB", "GB"].contains(&unit.trim())
        }),
        params: first(&|c: &str| param_count(c).is_some()),
        backend,
        threads,
        devices,
        test,
        speed: cells.len() - 1,
        pipe,
    }
}

/// The quant inside a bench model column: `llama 7B Q4_K - Medium` -> `Q4_K - Medium`,
/// `qwen2 1B Q4_0` -> `Q4_0`, `llama ?B Q4_0_4_8` -> `Q4_0_4_8`.
pub fn quant_of_model_column(model: &str) -> Option<String> {
    // The size word as llama.cpp's model type prints it: `7B`, `?B`, `8x7B`, `E2B` (Gemma's
    // effective size), `30B.A3B` (MoE active size), `494M`.
    static SIZE: OnceLock<Regex> = OnceLock::new();
    let size = SIZE.get_or_init(|| {
        Regex::new(r"^(?:\?|(?:\d+x)?[A-Z]?\d+(?:\.\d+)?)[BMK](?:\.A\d+(?:\.\d+)?B)?$")
            .expect("size word")
    });
    let words: Vec<&str> = model.split_whitespace().collect();
    let size_at = words.iter().position(|w| size.is_match(w))?;
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
        assert_eq!(
            quant_of_model_column("gemma4 E2B Q4_0").as_deref(),
            Some("Q4_0")
        );
        assert_eq!(
            quant_of_model_column("qwen3moe 30B.A3B Q4_K - Medium").as_deref(),
            Some("Q4_K - Medium")
        );
        assert_eq!(quant_of_model_column("gemma4 model"), None);
    }

    #[test]
    fn headerless_tsv_and_spaced_test_names() {
        let mut t = BenchTable::default();
        let r = t
            .line("llama ?B Q4_0_4_8\t70.81 MiB\t1.24 B\tCPU\t4\tpp 512\t**95.2** ± 1.1")
            .expect("row");
        assert_eq!(r.test, "pp512");
        assert_eq!(r.tok_s, 95.2);
        assert_eq!(r.threads, Some(4), "the column after a CPU backend");
        assert_eq!(r.backend.as_deref(), Some("CPU"));
        assert_eq!(r.params, Some(1.24e9));
        assert!(t.line("| model | note |").is_none());
        assert!(t.line("just text").is_none());
    }

    #[test]
    fn headerless_gpu_row_reads_threads_after_the_layer_count_and_the_device() {
        let mut t = BenchTable::default();
        assert!(t
            .line("| --- | ---: | ---: | --- | --: | ---: | --- | ---: |")
            .is_none());
        let r = t
            .line("| gemma4 E2B Q4_0 | 2.82 GiB | 4.65 B | HTP | 99 | 6 | 1000 | 1 | HTP0 | tg128 | 26.11 ± 1.26 |")
            .expect("row");
        assert_eq!(r.backend.as_deref(), Some("HTP"));
        assert_eq!(r.threads, Some(6));
        assert_eq!(r.devices, vec!["HTP0".to_string()]);
        assert_eq!(r.model_bytes, Some(3_027_951_944));
        assert_eq!(r.params, Some(4.65e9));
        // Without a backend cell nothing but the test and speed is trusted.
        let r = t
            .line("| some model | 512 | 4 | pp512 | 10.0 |")
            .expect("row");
        assert_eq!((r.threads, r.backend), (None, None));
    }
}

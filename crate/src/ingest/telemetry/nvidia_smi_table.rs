//! `nvidia-smi` with no options: the boxed table. Both layouts are read: before driver 535 the
//! first box is three columns of `+---+` ruled cells, since 535 (2023) the first column is wider
//! and the power figures are padded (`33W /  170W`). Per GPU, two rows:
//!
//! ```text
//! |   0  NVIDIA GeForce RTX 3060        On  | 00000000:01:00.0  On |                  N/A |
//! |  0%   45C    P3              33W / 170W |   5000MiB / 12288MiB |     95%      Default |
//! ```
//!
//! The name row gives the index and the name; the next gives the fan, the temperature, the
//! performance state, power draw and cap, memory used and total, and GPU utilization. Any of them
//! can be `N/A` (laptop GPUs report no power) or `ERR!`; such a figure is absent, not zero. The
//! processes table that follows (`|    0   N/A  N/A      1234      C   python3   4900MiB |`, and
//! the older rows without the GI / CI columns) gives each GPU's compute processes (type `C`).

use crate::evidence::{clip, Evidence, GpuState, InputId};

/// GPU rows kept per input (an `nvidia-smi -l 1` loop repeats the table every second).
const MAX_STATES: usize = 1024;

/// Whether a line is this table's own (used by the sniffer).
pub fn is_marker(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with("| NVIDIA-SMI ") && t.contains("Driver Version"))
        || (t.starts_with('|') && t.contains("Pwr:Usage/Cap"))
        || state_row(t).is_some()
}

/// The cells of a `| a | b | c |` row, trimmed.
fn cells(t: &str) -> Option<Vec<&str>> {
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

fn figure(s: &str, unit: &str) -> Option<f64> {
    let x: f64 = s.trim().strip_suffix(unit)?.trim().parse().ok()?;
    x.is_finite().then_some(x)
}

struct Row {
    pstate: Option<u32>,
    draw_w: Option<f64>,
    cap_w: Option<f64>,
    used: Option<f64>,
    total: Option<f64>,
    util: Option<f64>,
}

/// The row with the performance state: its first cell holds a `P<n>` word (or `ERR!` where it
/// stood) and its second the memory as `used / total` in MiB.
fn state_row(t: &str) -> Option<Row> {
    let c = cells(t)?;
    if c.len() < 2 || !c[1].contains("MiB") || !c[1].contains('/') {
        return None;
    }
    let words: Vec<&str> = c[0].split_whitespace().collect();
    let p = words.iter().position(|w| {
        (w.len() >= 2 && w.starts_with('P') && w[1..].chars().all(|ch| ch.is_ascii_digit()))
            || *w == "ERR!"
    })?;
    let pstate = words[p].strip_prefix('P').and_then(|n| n.parse().ok());
    let power = words[p + 1..].join(" ");
    let (draw, cap) = power.split_once('/').unwrap_or((&power, ""));
    let (used, total) = c[1].split_once('/')?;
    let util = c
        .get(2)
        .and_then(|u| u.split_whitespace().next())
        .and_then(|u| figure(u, "%"));
    Some(Row {
        pstate,
        draw_w: figure(draw, "W"),
        cap_w: figure(cap, "W"),
        used: figure(used, "MiB"),
        total: figure(total, "MiB"),
        util,
    })
}

#[derive(Default)]
pub struct NvidiaSmiTable {
    /// The name row just read: the index and the name.
    name: Option<(u32, String)>,
    /// GPUs seen in the current table (the index when no name row states one).
    in_table: u32,
    /// Where the current table's GPU rows start in the evidence.
    table_start: usize,
    in_processes: bool,
}

impl NvidiaSmiTable {
    /// Reads one line; `false` when it is not part of the table.
    pub fn line(&mut self, input: InputId, number: u64, text: &str, ev: &mut Evidence) -> bool {
        let t = text.trim();
        if t.starts_with("| NVIDIA-SMI ") {
            self.in_table = 0;
            self.table_start = ev.gpu_states.len();
            self.in_processes = false;
            return true;
        }
        if t.starts_with('+') && t.ends_with('+') && t.contains("--") || t.starts_with("|=") {
            return true;
        }
        if t.starts_with('|') && t.contains("Processes:") {
            self.in_processes = true;
            for s in &mut ev.gpu_states[self.table_start..] {
                s.compute_processes = Some(0);
            }
            return true;
        }
        if self.in_processes {
            return self.process_row(t, ev);
        }
        if let Some(r) = state_row(t) {
            let (gpu, name) = match self.name.take() {
                Some((i, n)) => (i, Some(n)),
                None => (self.in_table, None),
            };
            self.in_table += 1;
            if ev.gpu_states.len() < MAX_STATES {
                ev.gpu_states.push(GpuState {
                    input,
                    line: number,
                    text: clip(t),
                    gpu,
                    name,
                    pstate: r.pstate,
                    util_pct: r.util,
                    draw_w: r.draw_w,
                    cap_w: r.cap_w,
                    mem_used_mib: r.used,
                    mem_total_mib: r.total,
                    compute_processes: None,
                    process: None,
                });
            }
            return true;
        }
        if let Some(c) = cells(t) {
            // The name row: `0  NVIDIA GeForce RTX 3060  On` in the first cell.
            let mut words = c[0].split_whitespace();
            if let (Some(i), Some(_)) = (words.next().and_then(|w| w.parse().ok()), words.next()) {
                let name: Vec<&str> = c[0].split_whitespace().skip(1).collect();
                // The persistence / driver-model word closes the cell.
                let end = name.len().saturating_sub(1).max(1);
                self.name = Some((i, clip(&name[..end.min(name.len())].join(" "))));
                return true;
            }
            return c[0].starts_with("GPU ") || c[0].starts_with("Fan ") || c.len() >= 3;
        }
        false
    }

    /// A processes row: `GPU [GI CI] PID Type Name Memory`.
    fn process_row(&mut self, t: &str, ev: &mut Evidence) -> bool {
        let Some(c) = cells(t) else {
            self.in_processes = false;
            return false;
        };
        let words: Vec<&str> = c
            .first()
            .map_or(Vec::new(), |c| c.split_whitespace().collect());
        let Some(gpu) = words.first().and_then(|w| w.parse::<u32>().ok()) else {
            return true;
        };
        let Some(ty) = words
            .iter()
            .position(|w| matches!(*w, "C" | "G" | "C+G" | "M" | "M+C"))
        else {
            return true;
        };
        if words[ty] != "C" && words[ty] != "M+C" {
            return true;
        }
        let name_end = words
            .iter()
            .rposition(|w| w.ends_with("MiB") || *w == "N/A")
            .filter(|&e| e > ty)
            .unwrap_or(words.len());
        let name = words[ty + 1..name_end].join(" ");
        if let Some(s) = ev.gpu_states[self.table_start..]
            .iter_mut()
            .find(|s| s.gpu == gpu)
        {
            s.compute_processes = Some(s.compute_processes.unwrap_or(0) + 1);
            if s.process.is_none() && !name.is_empty() {
                s.process = Some(clip(&name));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Evidence {
        let mut ev = Evidence::default();
        let id = ev.add_input("smi.txt");
        let mut r = NvidiaSmiTable::default();
        for (i, l) in text.lines().enumerate() {
            r.line(id, i as u64 + 1, l, &mut ev);
        }
        ev
    }

    const OLD: &str = "\
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  NVIDIA GeForce ...  Off  | 00000000:01:00.0  On |                  N/A |
| 30%   45C    P3    33W / 170W |   5000MiB / 12288MiB |     95%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+
|   1  Tesla T4            Off  | 00000000:02:00.0 Off |                    0 |
| N/A   38C    P8    N/A /  N/A |      0MiB / 15109MiB |      0%      Default |
+-------------------------------+----------------------+----------------------+

+-----------------------------------------------------------------------------+
| Processes:                                                                  |
|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
|        ID   ID                                                   Usage      |
|=============================================================================|
|    0   N/A  N/A      1043      G   /usr/lib/xorg/Xorg                 95MiB |
|    0   N/A  N/A      2231      C   ./llama-server                   4900MiB |
+-----------------------------------------------------------------------------+
";

    #[test]
    fn old_layout_rows_and_processes() {
        let ev = read(OLD);
        assert_eq!(ev.gpu_states.len(), 2);
        let g = &ev.gpu_states[0];
        assert_eq!((g.gpu, g.pstate, g.util_pct), (0, Some(3), Some(95.0)));
        assert_eq!((g.draw_w, g.cap_w), (Some(33.0), Some(170.0)));
        assert_eq!(
            (g.mem_used_mib, g.mem_total_mib),
            (Some(5000.0), Some(12288.0))
        );
        assert_eq!(g.name.as_deref(), Some("NVIDIA GeForce ..."));
        assert_eq!(g.compute_processes, Some(1));
        assert_eq!(g.process.as_deref(), Some("./llama-server"));
        assert_eq!(g.line, 9);
        let t4 = &ev.gpu_states[1];
        assert_eq!(
            (t4.gpu, t4.pstate, t4.draw_w, t4.cap_w),
            (1, Some(8), None, None)
        );
        assert_eq!(t4.compute_processes, Some(0));
    }

    #[test]
    fn new_layout_and_no_processes() {
        let new = "\
| NVIDIA-SMI 550.54.14              Driver Version: 550.54.14      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 4090        On  |   00000000:01:00.0 Off |                  Off |
|  0%   38C    P8             17W /  450W |      3MiB /  24564MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
| Processes:                                                                              |
|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
|=========================================================================================|
|  No running processes found                                                             |
+-----------------------------------------------------------------------------------------+
";
        let ev = read(new);
        let g = &ev.gpu_states[0];
        assert_eq!(g.name.as_deref(), Some("NVIDIA GeForce RTX 4090"));
        assert_eq!(
            (g.pstate, g.draw_w, g.cap_w),
            (Some(8), Some(17.0), Some(450.0))
        );
        assert_eq!((g.util_pct, g.compute_processes), (Some(0.0), Some(0)));
    }

    #[test]
    fn garbage_never_panics() {
        for cut in 0..OLD.len() {
            if OLD.is_char_boundary(cut) {
                read(&format!(
                    "{}|| P|\n| P1 ERR! / |/MiB|\n{}",
                    &OLD[..cut],
                    &OLD[cut..]
                ));
            }
        }
    }
}

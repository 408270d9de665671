//! `perf sched timehist` (perf 4.10 on): one row per time a task leaves a CPU, with the time,
//! the CPU, the task as `comm[tid]` or `comm[tid/pid]`, and three durations in msec: how long it
//! slept before its wakeup (wait time), how long it then waited runnable (sch delay) and how
//! long it ran. Its variants: `-V` adds a column that draws the CPUs, `--state` a state letter
//! after run time, `-w` rows for wakeups (`awakened: comm[tid]`), `-M` rows for migrations
//! (`migrated: comm[tid] cpu A => B`); `-s` prints a summary instead, with no rows.
//!
//! Each row is a run interval on a CPU and its scheduling delay: the same scheduler evidence a
//! `sched_switch` trace gives, read by the same sched rules.

use crate::evidence::sched::TraceFacts;

/// A row of the table.
#[derive(Debug, PartialEq)]
pub enum Row<'a> {
    /// `comm[tid/pid]` ran `run_ms` on `cpu` until `time`, after `delay_ms` runnable.
    Ran {
        time: f64,
        cpu: u32,
        comm: &'a str,
        tid: u32,
        pid: Option<u32>,
        delay_ms: f64,
        run_ms: f64,
    },
    /// A `-w` wakeup or `-M` migration row.
    Event { wakeup: bool },
}

/// `comm[tid]` or `comm[tid/pid]`; `<idle>` is no task.
fn task(s: &str) -> Option<(&str, u32, Option<u32>)> {
    let s = s.strip_suffix(']')?;
    let open = s.rfind('[')?;
    let (comm, ids) = (&s[..open], &s[open + 1..]);
    let (tid, pid) = match ids.split_once('/') {
        Some((t, p)) => (t.parse().ok()?, Some(p.parse().ok()?)),
        None => (ids.parse().ok()?, None),
    };
    Some((comm, tid, pid))
}

/// Parses one line; `None` for anything that is not a row (headers, summaries, other text).
pub fn parse(line: &str) -> Option<Row<'_>> {
    let mut it = line.split_whitespace();
    let time: f64 = it.next()?.parse().ok()?;
    let cpu = it.next()?;
    let cpu: u32 = cpu.strip_prefix('[')?.strip_suffix(']')?.parse().ok()?;
    let rest: Vec<&str> = it.collect();
    // The task is the first field shaped `name[ids]` or `<idle>`; `-V` draws before it.
    let at = rest
        .iter()
        .position(|f| *f == "<idle>" || (f.ends_with(']') && f.contains('[')))?;
    let after = &rest[at + 1..];
    if let Some(kind) = after.first() {
        if *kind == "awakened:" || *kind == "migrated:" {
            return Some(Row::Event {
                wakeup: *kind == "awakened:",
            });
        }
    }
    let nums: Vec<f64> = after.iter().map_while(|f| f.parse().ok()).take(3).collect();
    let [_wait, delay_ms, run_ms] = nums[..] else {
        return None;
    };
    if rest[at] == "<idle>" {
        return Some(Row::Event { wakeup: false });
    }
    // A comm with spaces spreads over fields, and `-V`'s drawing sits before it: the last
    // field is the one that is surely the task's.
    let (comm, tid, pid) = task(rest[at])?;
    let ok = |v: f64| v.is_finite() && v >= 0.0;
    if !(ok(delay_ms) && ok(run_ms) && time.is_finite()) {
        return None;
    }
    Some(Row::Ran {
        time,
        cpu,
        comm,
        tid,
        pid,
        delay_ms,
        run_ms,
    })
}

/// The column header lines and the dashes under them.
pub fn is_header(line: &str) -> bool {
    let t = line.trim();
    (t.contains("task name") && t.contains("run time"))
        || t.starts_with("[tid/pid]")
        || (t.starts_with("---------------") && t.contains(" ------"))
}

/// True when `lines` hold a timehist table: its header, or rows.
pub fn looks_like(lines: &[&str]) -> bool {
    let header = lines.iter().any(|l| {
        let t = l.trim();
        t.contains("task name") && t.contains("wait time") && t.contains("sch delay")
    });
    let rows = lines
        .iter()
        .filter(|l| matches!(parse(l), Some(Row::Ran { .. })))
        .count();
    (header && rows >= 1) || rows >= 3
}

/// Records a row into the trace's scheduler facts.
pub fn record(t: &mut TraceFacts, row: &Row<'_>) {
    match *row {
        Row::Ran {
            time,
            cpu,
            comm,
            tid,
            pid,
            delay_ms,
            run_ms,
        } => t.ran(
            cpu,
            time,
            run_ms / 1000.0,
            delay_ms / 1000.0,
            tid,
            pid,
            comm,
        ),
        Row::Event { wakeup } => {
            if wakeup {
                t.wakeups += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_each_variant() {
        let plain = "  79371.874569 [0011]  llama-cli[31949/31900]               0.014      0.021      1.148 ";
        assert_eq!(
            parse(plain),
            Some(Row::Ran {
                time: 79371.874569,
                cpu: 11,
                comm: "llama-cli",
                tid: 31949,
                pid: Some(31900),
                delay_ms: 0.021,
                run_ms: 1.148
            })
        );
        let visual =
            "  79371.874591 [0002]   s      llama-cli[31951]     0.000      0.000      0.024  R";
        assert!(matches!(
            parse(visual),
            Some(Row::Ran {
                cpu: 2,
                tid: 31951,
                pid: None,
                ..
            })
        ));
        let spaced = "  79371.875719 [0003]  kworker/u16:2 ev[412]   0.000      0.000      0.027";
        assert!(matches!(parse(spaced), Some(Row::Ran { tid: 412, .. })));
        let idle = "  79371.875719 [0003]  <idle>                              0.000      0.000      0.027";
        assert_eq!(parse(idle), Some(Row::Event { wakeup: false }));
        let wake =
            "  79371.874600 [0011]  perf[31950]                         awakened: llama-cli[31951]";
        assert_eq!(parse(wake), Some(Row::Event { wakeup: true }));
        let migrated = "  79371.874700 [0004]  migration/4[29]                     migrated: llama-cli[31952] cpu 4 => 1";
        assert_eq!(parse(migrated), Some(Row::Event { wakeup: false }));
        for not_a_row in [
            "           time    cpu  task name                       wait time  sch delay   run time",
            "                        [tid/pid]                          (msec)     (msec)     (msec)",
            "--------------- ------  ------------------------------  ---------  ---------  ---------",
            "llama_perf_context_print: eval time = 1.0 ms",
            "  1.5 [x] y[1] 0 0 0",
        ] {
            assert!(!matches!(parse(not_a_row), Some(Row::Ran { .. })), "{not_a_row}");
        }
        assert!(is_header("--------------- ------  ------------------------------  ---------  ---------  ---------"));
    }
}

//! Payloads of the tracepoints tokscope reads, in the two spellings producers use:
//! `key=value` (the kernel's own format, perf script, systrace) and the pretty form that
//! libtraceevent plugins print for `sched_switch` (trace-cmd report, some perf builds):
//!
//! ```text
//! prev_comm=llama-cli prev_pid=8123 prev_prio=120 prev_state=R+ ==> next_comm=swapper/4 next_pid=0 next_prio=120
//! llama-cli:8123 [120] R+ ==> swapper/4:0 [120]
//! ```
//!
//! Thread names may hold spaces, colons and `=`-free punctuation (`rs:main Q:Reg`), so a value
//! runs up to the next ` key=`, never just to the next space.

/// Tracepoints with a meaning for the scheduling rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tracepoint {
    SchedSwitch,
    SchedWakeup,
    SchedMigrate,
    CpuFrequency,
    ThermalTemperature,
    /// Read elsewhere or only counted (cpu_idle, bprint, tracing_mark_write, ...).
    Other,
}

/// Classifies an event name (`sched:sched_switch`, `sched_switch`, `power:cpu_frequency`).
pub fn classify(event: &str) -> Tracepoint {
    let name = event.rsplit(':').next().unwrap_or(event);
    match name {
        "sched_switch" => Tracepoint::SchedSwitch,
        "sched_wakeup" | "sched_waking" | "sched_wakeup_new" => Tracepoint::SchedWakeup,
        "sched_migrate_task" => Tracepoint::SchedMigrate,
        "cpu_frequency" => Tracepoint::CpuFrequency,
        "thermal_temperature" => Tracepoint::ThermalTemperature,
        _ => Tracepoint::Other,
    }
}

/// True when a perf event name is a sampled event (`cycles`, `cpu-clock:pppH`, `task-clock:u`)
/// rather than a tracepoint (`sched:sched_switch`, `raw_syscalls:sys_enter`).
pub fn is_sampled_event(event: &str) -> bool {
    match event.split_once(':') {
        None => true,
        // Event modifiers: u k h p P G H I S D W e (and repeats, `ppp`).
        Some((_, mods)) => mods
            .split(':')
            .all(|m| !m.is_empty() && m.bytes().all(|b| b"ukhpPGHISDWe".contains(&b))),
    }
}

/// The value of `key=` in a `key=value ...` payload, up to the next ` word=` or ` ==>`.
pub fn field<'a>(payload: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    let start = loop {
        let pos = from + payload[from..].find(key)?;
        let end = pos + key.len();
        let at_word = pos == 0 || matches!(payload.as_bytes()[pos - 1], b' ' | b'\t');
        if at_word && payload.as_bytes().get(end) == Some(&b'=') {
            break end + 1;
        }
        from = end;
    };
    let tail = &payload[start..];
    let bytes = tail.as_bytes();
    let mut end = tail.len();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            let rest = &tail[i + 1..];
            if rest.starts_with("==>") || next_is_key(rest) {
                end = i;
                break;
            }
        }
        i += 1;
    }
    Some(tail[..end].trim_end())
}

fn next_is_key(s: &str) -> bool {
    let word_end = s
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(s.len());
    word_end > 0 && s.as_bytes().get(word_end) == Some(&b'=')
}

fn num<T: std::str::FromStr>(s: Option<&str>) -> Option<T> {
    s?.trim().parse().ok()
}

#[derive(Debug, Clone, PartialEq)]
pub struct Switch<'a> {
    pub prev_comm: &'a str,
    pub prev_pid: u32,
    /// `prev_state` is R or R+: the task was preempted and stays runnable.
    pub preempted: bool,
    pub next_comm: &'a str,
    pub next_pid: u32,
}

pub fn sched_switch(p: &str) -> Option<Switch<'_>> {
    if p.contains("prev_pid=") {
        let state = field(p, "prev_state").unwrap_or("");
        return Some(Switch {
            prev_comm: field(p, "prev_comm").unwrap_or(""),
            prev_pid: num(field(p, "prev_pid"))?,
            preempted: state.starts_with('R'),
            next_comm: field(p, "next_comm").unwrap_or(""),
            next_pid: num(field(p, "next_pid"))?,
        });
    }
    // Pretty form: `comm:pid [prio] STATE ==> comm:pid [prio]`.
    let (left, right) = p.split_once(" ==> ")?;
    let (prev_comm, prev_pid, tail) = comm_pid(left)?;
    let state = tail.split_whitespace().last().unwrap_or("");
    let (next_comm, next_pid, _) = comm_pid(right)?;
    Some(Switch {
        prev_comm,
        prev_pid,
        preempted: state.starts_with('R'),
        next_comm,
        next_pid,
    })
}

/// `comm:pid [prio] rest` -> (comm, pid, rest after the priority).
fn comm_pid(s: &str) -> Option<(&str, u32, &str)> {
    let s = s.trim();
    let (who, tail) = match s.find(" [") {
        Some(p) => (&s[..p], &s[p..]),
        None => (s, ""),
    };
    let (comm, pid) = who.rsplit_once(':')?;
    let tail = tail.split_once(']').map_or(tail, |(_, t)| t);
    Some((comm, pid.trim().parse().ok()?, tail))
}

/// `sched_wakeup`: (comm, pid).
pub fn sched_wakeup(p: &str) -> Option<(&str, u32)> {
    if let Some(pid) = num(field(p, "pid")) {
        return Some((field(p, "comm").unwrap_or(""), pid));
    }
    let (comm, pid, _) = comm_pid(p)?;
    Some((comm, pid))
}

/// `sched_migrate_task`: (comm, pid, orig_cpu, dest_cpu).
pub fn sched_migrate(p: &str) -> Option<(&str, u32, u32, u32)> {
    Some((
        field(p, "comm").unwrap_or(""),
        num(field(p, "pid"))?,
        num(field(p, "orig_cpu"))?,
        num(field(p, "dest_cpu"))?,
    ))
}

/// `cpu_frequency`: (cpu, kHz).
pub fn cpu_frequency(p: &str) -> Option<(u32, u64)> {
    Some((num(field(p, "cpu_id"))?, num(field(p, "state"))?))
}

/// `thermal_temperature`: (zone, m°C).
pub fn thermal_temperature(p: &str) -> Option<(&str, i64)> {
    Some((
        field(p, "thermal_zone").unwrap_or("thermal"),
        num(field(p, "temp"))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_both_spellings() {
        let s = sched_switch("prev_comm=rs:main Q:Reg prev_pid=238 prev_prio=120 prev_state=R+ ==> next_comm=swapper/3 next_pid=0 next_prio=120").unwrap();
        assert_eq!(
            (s.prev_comm, s.prev_pid, s.preempted),
            ("rs:main Q:Reg", 238, true)
        );
        assert_eq!((s.next_comm, s.next_pid), ("swapper/3", 0));
        let s = sched_switch("rs:main Q:Reg:238 [120] S ==> systemd-journal:161 [120]").unwrap();
        assert_eq!(
            (s.prev_comm, s.prev_pid, s.preempted),
            ("rs:main Q:Reg", 238, false)
        );
        assert_eq!((s.next_comm, s.next_pid), ("systemd-journal", 161));
        assert!(sched_switch("garbage").is_none());
    }

    #[test]
    fn other_payloads() {
        assert_eq!(
            sched_migrate("comm=rs:main Q:Reg pid=238 prio=120 orig_cpu=5 dest_cpu=3"),
            Some(("rs:main Q:Reg", 238, 5, 3))
        );
        assert_eq!(cpu_frequency("state=518400 cpu_id=2"), Some((2, 518400)));
        assert_eq!(
            thermal_temperature("thermal_zone=exynos-therm id=0 temp_prev=53411 temp=53974"),
            Some(("exynos-therm", 53974))
        );
        assert_eq!(
            sched_wakeup("comm=kworker/u16:11 pid=682 prio=120 target_cpu=000"),
            Some(("kworker/u16:11", 682))
        );
        assert!(is_sampled_event("cpu-clock:pppH"));
        assert!(is_sampled_event("cycles"));
        assert!(!is_sampled_event("sched:sched_switch"));
        assert_eq!(classify("power:cpu_frequency"), Tracepoint::CpuFrequency);
    }
}

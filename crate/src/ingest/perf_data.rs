//! Binary `perf.data` (Linux perf `PERFILE2` and simpleperf `SIMPLEPERF`) through the crate
//! `linux-perf-data`. The file format needs random access (a header points at the data and
//! feature sections), so the bytes are collected up to [`MAX_PERF_DATA_BYTES`] and read once the
//! input ends; records are then pulled one at a time and aggregated like the text traces.
//!
//! Read: samples with their CPU, COMM records (thread names), context-switch records
//! (`--switch-events`), and the payloads of the tracepoints tokscope knows (`sched_switch`,
//! `sched_wakeup`, `sched_migrate_task`, `cpu_frequency`, `thermal_temperature`), located by
//! the field offsets of the trace format text stored in the file (`TRACING_DATA`).

use super::trace::push_change;
use crate::evidence::sched::{TraceFormat, MAX_TRACE_SENSORS};
use crate::evidence::{Evidence, InputId, ProblemCode, Quantity, Series};
use linux_perf_data::linux_perf_event_reader::{ContextSwitchRecord, EventRecord, RecordType};
use linux_perf_data::{Endianness, Feature, PerfFileReader, PerfFileRecord};
use std::collections::HashMap;

/// Largest perf.data read, in bytes. Phone recordings of a decode run are far smaller.
pub const MAX_PERF_DATA_BYTES: usize = 512 * 1024 * 1024;

pub struct PerfDataReader {
    input: InputId,
    bytes: Vec<u8>,
    too_large: bool,
}

impl PerfDataReader {
    pub fn new(input: InputId) -> Self {
        PerfDataReader {
            input,
            bytes: Vec::new(),
            too_large: false,
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        if self.bytes.len() + chunk.len() > MAX_PERF_DATA_BYTES {
            self.too_large = true;
            return;
        }
        self.bytes.extend_from_slice(chunk);
    }

    pub fn finish(self, ev: &mut Evidence) {
        if self.too_large {
            ev.problem(self.input, ProblemCode::PerfDataTooLarge, None);
            return;
        }
        ev.sched.trace(self.input).format = Some(TraceFormat::PerfData);
        if read(self.input, &self.bytes, ev).is_err() {
            ev.problem(self.input, ProblemCode::PerfDataInvalid, None);
        }
        let t = ev.sched.trace(self.input);
        t.finish();
        super::trace::limit_problems(self.input, ev);
    }
}

/// Field offsets of one tracepoint: name -> (offset, size).
type Format = HashMap<String, (usize, usize)>;

/// Parses the `format:` blocks of the trace format text for the events named in `wanted`.
fn tracing_formats(data: &[u8], wanted: &[&str]) -> HashMap<String, Format> {
    let text = String::from_utf8_lossy(data);
    let mut out = HashMap::new();
    let mut current: Option<(String, Format)> = None;
    for line in text.split('\n') {
        if let Some(name) = line.strip_prefix("name: ") {
            if let Some((n, f)) = current.take() {
                out.insert(n, f);
            }
            let name = name.trim();
            if wanted.contains(&name) {
                current = Some((name.to_string(), Format::new()));
            }
            continue;
        }
        let Some((_, fmt)) = current.as_mut() else {
            continue;
        };
        let l = line.trim();
        let Some(decl) = l.strip_prefix("field:") else {
            continue;
        };
        let mut parts = decl.split(';');
        let Some(decl) = parts.next() else { continue };
        let field_name = decl
            .split_whitespace()
            .last()
            .unwrap_or("")
            .split('[')
            .next()
            .unwrap_or("")
            .to_string();
        let mut offset = None;
        let mut size = None;
        for p in parts {
            let p = p.trim();
            if let Some(v) = p.strip_prefix("offset:") {
                offset = v.parse().ok();
            } else if let Some(v) = p.strip_prefix("size:") {
                size = v.parse().ok();
            }
        }
        if let (Some(o), Some(s)) = (offset, size) {
            let key = if decl.contains("__data_loc") {
                format!("@{field_name}")
            } else {
                field_name
            };
            fmt.insert(key, (o, s));
        }
    }
    if let Some((n, f)) = current {
        out.insert(n, f);
    }
    out
}

/// The layouts of a 64-bit kernel, used when the file carries no format text.
fn default_format(event: &str) -> Format {
    let f: &[(&str, usize, usize)] = match event {
        "sched_switch" => &[
            ("prev_comm", 8, 16),
            ("prev_pid", 24, 4),
            ("prev_state", 32, 8),
            ("next_comm", 40, 16),
            ("next_pid", 56, 4),
        ],
        "sched_migrate_task" => &[
            ("comm", 8, 16),
            ("pid", 24, 4),
            ("orig_cpu", 32, 4),
            ("dest_cpu", 36, 4),
        ],
        "sched_wakeup" | "sched_waking" | "sched_wakeup_new" => &[("comm", 8, 16), ("pid", 24, 4)],
        "cpu_frequency" => &[("state", 8, 4), ("cpu_id", 12, 4)],
        "thermal_temperature" => &[("@thermal_zone", 8, 4), ("temp", 20, 4)],
        _ => &[],
    };
    f.iter()
        .map(|(n, o, s)| (n.to_string(), (*o, *s)))
        .collect()
}

struct Payload<'a> {
    data: &'a [u8],
    fmt: &'a Format,
    endian: Endianness,
}

impl Payload<'_> {
    fn int(&self, name: &str) -> Option<i64> {
        let &(o, s) = self.fmt.get(name)?;
        let b = self.data.get(o..o.checked_add(s)?)?;
        let mut v: u64 = 0;
        match self.endian {
            Endianness::LittleEndian => {
                for (i, &x) in b.iter().enumerate().take(8) {
                    v |= (x as u64) << (8 * i);
                }
            }
            Endianness::BigEndian => {
                for &x in b.iter().take(8) {
                    v = (v << 8) | x as u64;
                }
            }
        }
        // Sign-extend 4-byte fields (pids and cpus are int; -1 means none).
        Some(if s == 4 {
            v as u32 as i32 as i64
        } else {
            v as i64
        })
    }

    fn str(&self, name: &str) -> String {
        let slice = if let Some(&(o, s)) = self.fmt.get(name) {
            self.data.get(o..o.saturating_add(s))
        } else if let Some(loc) = self.int(&format!("@{name}")) {
            let (off, len) = ((loc & 0xffff) as usize, ((loc >> 16) & 0xffff) as usize);
            self.data.get(off..off + len)
        } else {
            None
        };
        let b = slice.unwrap_or(&[]);
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        String::from_utf8_lossy(&b[..end]).into_owned()
    }
}

fn u32_of(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok())
}

/// Checks, before `linux-perf-data` sees the file, everything it reads up front: every section
/// the header points at lies inside the file, and every count and length inside the attribute
/// descriptions (the `EVENT_DESC` feature, the old `event_types` section, simpleperf's id
/// sections) fits in what holds it. The crate sizes vectors from these numbers before reading
/// them and divides by the attribute size, so a damaged file would otherwise abort the page with
/// a multi-gigabyte allocation or a panic (both found by the `perf_data` fuzz target).
fn structure_fits(b: &[u8]) -> bool {
    let le = match b.get(..8) {
        Some(b"PERFILE2") => true,
        Some(b"2ELIFREP") => false,
        _ => return false,
    };
    let file = Bytes { b, le };
    let len = b.len() as u64;
    let fits = |off: u64, size: u64| off.checked_add(size).is_some_and(|end| end <= len);
    let Some(attr_size) = file.u64_at(16) else {
        return false;
    };
    // A perf_event_attr is at least 64 bytes (PERF_ATTR_SIZE_VER0); simpleperf adds 16.
    if !(64..=len).contains(&attr_size) {
        return false;
    }
    // (offset, size) of the attrs, the data and the event types.
    let mut sections = [(0, 0); 3];
    for (i, o) in [24, 40, 56].into_iter().enumerate() {
        match (file.u64_at(o), file.u64_at(o + 8)) {
            (Some(off), Some(size)) if fits(off, size) => sections[i] = (off, size),
            _ => return false,
        }
    }
    let [attrs, data, event_types] = sections;
    if !aux_data_fits(&file, data) {
        return false;
    }
    // The feature bitmap: four words of the file's byte order. The table of (offset, size), one
    // per feature present in ascending order, follows the data section.
    let mut features = Vec::new();
    for word in 0..4 {
        let Some(w) = file.u64_at(72 + 8 * word) else {
            return false;
        };
        features.extend(
            (0..64)
                .filter(|bit| w >> bit & 1 == 1)
                .map(|bit| word * 64 + bit),
        );
    }
    let table = data.0 + data.1;
    let mut section_of = HashMap::new();
    for (i, &feature) in features.iter().enumerate() {
        let at = table + 16 * i as u64;
        let (Some(off), Some(size)) = (file.u64_at_u64(at), file.u64_at_u64(at + 8)) else {
            return false;
        };
        if !fits(off, size) {
            return false;
        }
        section_of.insert(feature, (off, size));
    }
    // The attribute descriptions, from the first source the crate uses.
    if let Some(&(off, size)) = section_of.get(&(Feature::EVENT_DESC.0 as usize)) {
        return event_desc_fits(&file, off as usize, (off + size) as usize);
    }
    let ids_fit = |entries: (u64, u64), entry: u64, ids_at: u64| {
        (0..entries.1 / entry).all(|i| {
            let at = entries.0 + i * entry + ids_at;
            matches!((file.u64_at_u64(at), file.u64_at_u64(at + 8)),
                (Some(off), Some(size)) if fits(off, size))
        })
    };
    if event_types.1 != 0 {
        // Each entry: an attr of `attr_size` bytes, then the (offset, size) of its ids.
        return ids_fit(event_types, attr_size + 16, attr_size);
    }
    if section_of.contains_key(&(Feature::SIMPLEPERF_META_INFO.0 as usize)) {
        // simpleperf counts the (offset, size) of the ids inside `attr_size`.
        return ids_fit(attrs, attr_size, attr_size - 16);
    }
    true
}

/// `PERF_RECORD_AUXTRACE` records carry the size of the trace data that follows them, and the
/// crate sizes a buffer from it before reading: each must fit in the data section (found by the
/// `perf_data` fuzz target, an allocation of 100 TB). The walk stops where a header is damaged,
/// which the crate reports itself.
fn aux_data_fits(file: &Bytes<'_>, (off, size): (u64, u64)) -> bool {
    const PERF_RECORD_AUXTRACE: u32 = 71;
    let (Ok(mut at), Ok(end)) = (usize::try_from(off), usize::try_from(off + size)) else {
        return false;
    };
    while at.saturating_add(8) <= end {
        let (Some(kind), Some(sized)) = (file.u32_at(at, end), file.u32_at(at + 4, end)) else {
            return true;
        };
        // `misc` then `size`, two u16 of the file's byte order, in the word after `type`.
        let record = if file.le { sized >> 16 } else { sized & 0xffff } as usize;
        if record < 8 {
            return true;
        }
        let mut next = at + record;
        if kind == PERF_RECORD_AUXTRACE {
            let Some(aux) = file.u64_at(at + 8).and_then(|a| usize::try_from(a).ok()) else {
                return false;
            };
            next = match next.checked_add(aux) {
                Some(n) if n <= end => n,
                _ => return false,
            };
        }
        at = next;
    }
    true
}

/// Walks `EVENT_DESC`: `nr`, `attr_size`, then per event the attr, `nr_ids`, a length-prefixed
/// name and the ids; every one must fit in the section `[start, end)`.
fn event_desc_fits(file: &Bytes<'_>, start: usize, end: usize) -> bool {
    let (Some(nr), Some(attr_size)) = (file.u32_at(start, end), file.u32_at(start + 4, end)) else {
        return false;
    };
    if attr_size < 64 {
        return false;
    }
    let mut at = start + 8;
    for _ in 0..nr {
        let Some(size) = file.u32_at(at.saturating_add(4), end) else {
            return false;
        };
        at = at.saturating_add(attr_consumed(size, attr_size) as usize);
        let Some(nr_ids) = file.u32_at(at, end) else {
            return false;
        };
        let Some(name_len) = file.u32_at(at + 4, end) else {
            return false;
        };
        at = at
            .saturating_add(8)
            .saturating_add(name_len as usize)
            .saturating_add(8 * nr_ids as usize);
        if at > end {
            return false;
        }
    }
    true
}

/// How many bytes the crate's attribute parser moves over for an attr that says it is `size`
/// bytes, in a table of `attr_size`-byte slots. It reads whole fields of the perf_event_attr
/// version that `size` reaches (64, 72, 80, 96, 104, 112, 120, 128 bytes, or all of a larger
/// one), then skips `attr_size - size`: so a size between two versions moves it short of the
/// slot's end. A guard that assumed `attr_size` read the next count at the wrong place (the
/// `perf_data` fuzz target found a 1 GiB name length there). Sizes the parser refuses (below 64
/// or above `attr_size`) return `attr_size`: parsing stops at that attr anyway.
fn attr_consumed(size: u32, attr_size: u32) -> u32 {
    const VERSIONS: [u32; 8] = [64, 72, 80, 96, 104, 112, 120, 128];
    if size < VERSIONS[0] || size > attr_size {
        return attr_size;
    }
    let read = if size > 128 {
        size
    } else {
        VERSIONS
            .iter()
            .copied()
            .filter(|&v| v <= size)
            .max()
            .unwrap_or(64)
    };
    read + (attr_size - size)
}

/// Reads integers of the file's byte order, `None` past the end.
struct Bytes<'a> {
    b: &'a [u8],
    le: bool,
}

impl Bytes<'_> {
    fn u64_at(&self, o: usize) -> Option<u64> {
        let w: [u8; 8] = self.b.get(o..o.checked_add(8)?)?.try_into().ok()?;
        Some(if self.le {
            u64::from_le_bytes(w)
        } else {
            u64::from_be_bytes(w)
        })
    }

    fn u64_at_u64(&self, o: u64) -> Option<u64> {
        self.u64_at(usize::try_from(o).ok()?)
    }

    /// A u32 at `o`, which must end by `end`.
    fn u32_at(&self, o: usize, end: usize) -> Option<u32> {
        if o.checked_add(4)? > end {
            return None;
        }
        let w: [u8; 4] = self.b.get(o..o + 4)?.try_into().ok()?;
        Some(if self.le {
            u32::from_le_bytes(w)
        } else {
            u32::from_be_bytes(w)
        })
    }
}

fn read(input: InputId, bytes: &[u8], ev: &mut Evidence) -> Result<(), linux_perf_data::Error> {
    if !structure_fits(bytes) {
        return Err(linux_perf_data::Error::SectionSizeTooBig);
    }
    let PerfFileReader {
        mut perf_file,
        mut record_iter,
    } = PerfFileReader::parse_file(std::io::Cursor::new(bytes))?;
    let endian = perf_file.endian();
    if let Ok(Some(n)) = perf_file.nr_cpus() {
        ev.sched.hints.nr_cpus = Some(n.nr_cpus_available);
    }
    if let Ok(Some(d)) = perf_file.cpu_desc() {
        ev.sched.hints.cpu_desc = Some(crate::evidence::clip(d));
    }
    if let Ok(Some(a)) = perf_file.arch() {
        ev.sched.hints.arch = Some(crate::evidence::clip(a));
    }
    const WANTED: &[&str] = &[
        "sched_switch",
        "sched_wakeup",
        "sched_waking",
        "sched_wakeup_new",
        "sched_migrate_task",
        "cpu_frequency",
        "thermal_temperature",
    ];
    let formats = perf_file
        .feature_section_data(Feature::TRACING_DATA)
        .map(|d| tracing_formats(d, WANTED))
        .unwrap_or_default();
    // Per attribute: the short tracepoint name if it is one we read, and its format.
    let attrs: Vec<(String, Option<(String, Format)>)> = perf_file
        .event_attributes()
        .iter()
        .map(|a| {
            let name = a.name().unwrap_or("").to_string();
            let short = name.rsplit(':').next().unwrap_or("").to_string();
            let tp = WANTED.contains(&short.as_str()).then(|| {
                let f = formats
                    .get(&short)
                    .cloned()
                    .unwrap_or_else(|| default_format(&short));
                (short, f)
            });
            (name, tp)
        })
        .collect();
    let mut comms: HashMap<u32, String> = HashMap::new();
    let mut freq_series: HashMap<u32, usize> = HashMap::new();
    let mut temp_series: HashMap<String, usize> = HashMap::new();
    while let Some(record) = record_iter.next_record(&mut perf_file)? {
        let PerfFileRecord::EventRecord { attr_index, record } = record else {
            continue;
        };
        // Parse only the records read here: the reader asserts on some damaged others (MMAP2).
        if ![
            RecordType::SAMPLE,
            RecordType::COMM,
            RecordType::SWITCH,
            RecordType::SWITCH_CPU_WIDE,
        ]
        .contains(&record.record_type)
        {
            continue;
        }
        let Ok(parsed) = record.parse() else {
            continue;
        };
        let t = ev.sched.trace(input);
        match parsed {
            EventRecord::Comm(c) => {
                if let Ok(tid) = u32::try_from(c.tid) {
                    let name = String::from_utf8_lossy(&c.name.as_slice()).into_owned();
                    comms.insert(tid, name);
                }
            }
            EventRecord::ContextSwitch(cs) => {
                let Ok(common) = record.common_data() else {
                    continue;
                };
                let (Some(tid), Some(cpu), Some(ns)) = (
                    u32_of(common.tid.map(i64::from)),
                    common.cpu,
                    common.timestamp,
                ) else {
                    continue;
                };
                let secs = ns as f64 / 1e9;
                let comm = comms.get(&tid).cloned().unwrap_or_default();
                match cs {
                    ContextSwitchRecord::In { .. } => {
                        t.switch(cpu, secs, 0, "", false, tid, &comm);
                    }
                    ContextSwitchRecord::Out { preempted, .. } => {
                        let pre = matches!(
                            preempted,
                            linux_perf_data::linux_perf_event_reader::TaskWasPreempted::Yes
                        );
                        t.switch(cpu, secs, tid, &comm, pre, 0, "");
                    }
                }
            }
            EventRecord::Sample(s) => {
                let Some(ns) = s.timestamp else { continue };
                let secs = ns as f64 / 1e9;
                let (name, tp) = attrs
                    .get(attr_index)
                    .map(|(n, tp)| (n.as_str(), tp.as_ref()))
                    .unwrap_or(("", None));
                t.count_event(if name.is_empty() { "sample" } else { name });
                let Some((short, fmt)) = tp else {
                    let (Some(tid), pid) = (u32_of(s.tid.map(i64::from)), s.pid) else {
                        continue;
                    };
                    let comm = comms.get(&tid).map(String::as_str).unwrap_or("");
                    let pid = pid.and_then(|p| u32::try_from(p).ok());
                    t.sample(tid, pid, comm, s.cpu, secs);
                    continue;
                };
                let raw = s.raw.map(|r| r.as_slice().into_owned()).unwrap_or_default();
                let p = Payload {
                    data: &raw,
                    fmt,
                    endian,
                };
                match short.as_str() {
                    "sched_switch" => {
                        let (Some(cpu), Some(prev), Some(next)) =
                            (s.cpu, u32_of(p.int("prev_pid")), u32_of(p.int("next_pid")))
                        else {
                            continue;
                        };
                        let state = p.int("prev_state").unwrap_or(1);
                        t.switch(
                            cpu,
                            secs,
                            prev,
                            &p.str("prev_comm"),
                            state & 0xff == 0,
                            next,
                            &p.str("next_comm"),
                        );
                    }
                    "sched_migrate_task" => {
                        if let (Some(pid), Some(o), Some(d)) = (
                            u32_of(p.int("pid")),
                            u32_of(p.int("orig_cpu")),
                            u32_of(p.int("dest_cpu")),
                        ) {
                            t.migrate(pid, &p.str("comm"), o, d, secs);
                        }
                    }
                    "cpu_frequency" => {
                        if let (Some(cpu), Some(khz)) =
                            (u32_of(p.int("cpu_id")), u32_of(p.int("state")))
                        {
                            if cpu > crate::evidence::sched::MAX_CPU {
                                continue;
                            }
                            t.freq_events += 1;
                            t.note_cpu(cpu);
                            let r = t.rel(secs);
                            let m = t.freq_seen_max_khz.entry(cpu).or_insert(0);
                            *m = (*m).max(khz as u64);
                            let idx = *freq_series.entry(cpu).or_insert_with(|| {
                                ev.series.push(Series {
                                    quantity: Quantity::CpuFreq { cpu },
                                    input,
                                    source: "power:cpu_frequency".into(),
                                    absolute: false,
                                    points: Vec::new(),
                                });
                                ev.series.len() - 1
                            });
                            push_change(ev, input, idx, r, khz as f64 / 1000.0);
                        }
                    }
                    "thermal_temperature" => {
                        if let Some(milli) = p.int("temp") {
                            let zone = p.str("thermal_zone");
                            let r = t.rel(secs);
                            if temp_series.len() >= MAX_TRACE_SENSORS
                                && !temp_series.contains_key(&zone)
                            {
                                t.series_cut = true;
                                continue;
                            }
                            let idx = *temp_series.entry(zone.clone()).or_insert_with(|| {
                                ev.series.push(Series {
                                    quantity: Quantity::Temperature { sensor: zone },
                                    input,
                                    source: "thermal:thermal_temperature".into(),
                                    absolute: false,
                                    points: Vec::new(),
                                });
                                ev.series.len() - 1
                            });
                            push_change(ev, input, idx, r, milli as f64 / 1000.0);
                        }
                    }
                    _ => {
                        if let Some(pid) = u32_of(p.int("pid")) {
                            t.wakeup(pid, &p.str("comm"), secs);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Names from COMM records that arrived after a thread's first sample.
    let t = ev.sched.trace(input);
    for th in &mut t.threads {
        if th.comm.is_empty() {
            if let Some(c) = comms.get(&th.tid) {
                th.comm = c.clone();
            }
        }
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attr_consumed_follows_the_parser_between_versions() {
        // On a version boundary the attr fills its slot.
        assert_eq!(attr_consumed(128, 128), 128);
        assert_eq!(attr_consumed(136, 136), 136);
        assert_eq!(attr_consumed(64, 136), 136);
        // 100 bytes reach version 3 (96): 96 read, then 136 - 100 skipped.
        assert_eq!(attr_consumed(100, 136), 132);
        // Refused sizes: the parser stops there.
        assert_eq!(attr_consumed(8, 136), 136);
        assert_eq!(attr_consumed(200, 136), 136);
    }

    #[test]
    fn an_attr_size_between_versions_is_checked_where_the_parser_reads() {
        // The perf_data fuzz target's find: an EVENT_DESC attr whose size lies between two
        // perf_event_attr versions, so the name length the crate reads is not the one at the
        // slot's end, and it asked for 1 GiB.
        let bytes = include_bytes!(
            "../../../samples/fuzz/perf_data-event-desc-attr-size-between-versions.bin"
        );
        assert!(!structure_fits(&bytes[1..]));
        // The real sample still passes.
        assert!(structure_fits(SAMPLE));
    }

    const SAMPLE: &[u8] =
        include_bytes!("../../../samples/traces/python-4-threads-on-2-cpus.perf.data");

    fn u64_at(b: &[u8], o: usize) -> u64 {
        u64::from_le_bytes(b[o..o + 8].try_into().unwrap())
    }

    /// Offset of the `EVENT_DESC` section of the sample (feature 12, the 12th bit set).
    fn event_desc(b: &[u8]) -> usize {
        let table = (u64_at(b, 40) + u64_at(b, 48)) as usize;
        let bits = u64_at(b, 72);
        assert_eq!(bits >> 12 & 1, 1, "the sample has EVENT_DESC");
        let index = (bits & ((1 << 12) - 1)).count_ones() as usize;
        u64_at(b, table + 16 * index) as usize
    }

    #[test]
    fn the_sample_fits() {
        assert!(structure_fits(SAMPLE));
    }

    #[test]
    fn an_event_name_longer_than_its_section_is_refused() {
        // The fuzz find: a name length of 1.7 GB in EVENT_DESC, allocated by the reader at once.
        let mut b = SAMPLE.to_vec();
        let at = event_desc(&b);
        let attr_size = u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as usize;
        let name_len = at + 8 + attr_size + 4;
        b[name_len..name_len + 4].copy_from_slice(&0x6886_0000u32.to_le_bytes());
        assert!(!structure_fits(&b));
        let mut ev = Evidence::default();
        let id = ev.add_input("damaged.perf.data");
        let mut r = PerfDataReader::new(id);
        r.push(&b);
        r.finish(&mut ev);
        assert!(ev.inputs[id]
            .problems
            .iter()
            .any(|p| p.code == ProblemCode::PerfDataInvalid));
    }

    #[test]
    fn an_event_count_beyond_its_section_is_refused() {
        let mut b = SAMPLE.to_vec();
        let at = event_desc(&b);
        b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(!structure_fits(&b));
    }

    #[test]
    fn a_zero_attribute_size_is_refused() {
        // With no EVENT_DESC the reader divides the attr section by this size.
        let mut b = SAMPLE.to_vec();
        b[16..24].copy_from_slice(&0u64.to_le_bytes());
        b[72..104].fill(0);
        assert!(!structure_fits(&b));
    }
}

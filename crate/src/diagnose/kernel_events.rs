//! What the kernel-log rules share: the events of one kind, and how an episode of them is
//! quoted (first and last time, the first lines, every line number).

use super::{EvidenceRef, InputLines};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, KernelEvent, KernelEventKind};

/// Events quoted as evidence; the line list still names all of them.
const QUOTED: usize = 3;

pub fn of_kind(ev: &Evidence, kind: KernelEventKind) -> Vec<&KernelEvent> {
    ev.kernel_events.iter().filter(|e| e.kind == kind).collect()
}

pub struct Episode {
    pub first: String,
    pub last: String,
    pub evidence: Vec<EvidenceRef>,
    pub lines: Vec<InputLines>,
}

/// When an event happened, as the log stamps it: `123.4 s after boot`, the wall time, or its line.
fn when(e: &KernelEvent) -> String {
    match (&e.stamp, e.boot_s) {
        (Some(s), _) => s.clone(),
        (None, Some(b)) => format!("{b:.1} s"),
        (None, None) => format!("#{}", e.line),
    }
}

pub fn episode(_ev: &Evidence, events: &[&KernelEvent]) -> Episode {
    let evidence = events
        .iter()
        .take(QUOTED)
        .map(|e| EvidenceRef {
            input: e.input,
            lines: Some((e.line, e.line)),
            // The line locates the event; the time is in the summary (a boot offset is not on
            // the telemetry axis, so it is not given as a time range).
            time_s: None,
            quote: Some(Quote::Input(e.text.clone())),
        })
        .collect();
    let mut lines: Vec<InputLines> = Vec::new();
    for e in events {
        match lines.iter_mut().find(|l| l.input == e.input) {
            Some(l) if l.lines.len() < 1000 => l.lines.push(e.line),
            Some(_) => {}
            None => lines.push(InputLines {
                input: e.input,
                lines: vec![e.line],
            }),
        }
    }
    Episode {
        first: events.first().map(|e| when(e)).unwrap_or_default(),
        last: events.last().map(|e| when(e)).unwrap_or_default(),
        evidence,
        lines,
    }
}

//! What every parser target does with its input: read it through a [`Session`] — as one forced
//! kind, or sniffed — in chunks whose size the first byte picks (so lines, CRLFs, UTF-16 pairs
//! and gzip members cross chunk boundaries), then build the report and render it every way the
//! CLI and the page do, share link included.
use tokscope::InputKind;
use tokscope::{report, share, Lang, Session};

/// Reads `data` (its first byte being the chunk size) and renders the report.
pub fn run(kind: Option<InputKind>, data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first) + 1;
    let mut s = Session::new();
    let id = match kind {
        Some(kind) => s.begin_as("fuzz", kind),
        None => s.begin("fuzz"),
    };
    for c in rest.chunks(chunk) {
        s.push(id, c);
    }
    s.end(id);
    let report = s.report(if first & 1 == 0 { Lang::En } else { Lang::Zh });
    let json = serde_json::to_string(&report).expect("a report always serializes");
    assert!(!json.is_empty());
    let _ = report::text::render(&report);
    let _ = report::markdown::render(&report);
    // Every report must make a share link the page can read back (`encode` checks that itself).
    let value = serde_json::to_value(&report).expect("a report always serializes");
    if let Err(e) = share::encode(&value, &[], share::BUDGET_BYTES) {
        panic!("no share link for this report: {e}");
    }
}

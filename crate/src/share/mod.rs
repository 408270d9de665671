//! Share links: a report carried in the URL fragment (`#r=1.<payload>`), which no browser sends
//! to a server. The payload is the report JSON (with what was left out, and optionally the raw
//! input) compressed with raw deflate and written in base64url; `1` is the link format version.
//!
//! ```
//! use tokscope::{share, Lang, Session};
//! let mut s = Session::new();
//! s.add("app.log", b"W/tflite: 7 operations will run on the GPU, and the remaining 3 operations will run on the CPU.\n");
//! let report = serde_json::to_value(s.report(Lang::En)).unwrap();
//! let link = share::encode(&report, &[], share::BUDGET_BYTES).unwrap();
//! assert!(link.fragment.starts_with("#r=1."));
//! let shared = share::decode(&link.fragment).unwrap();
//! assert_eq!(shared.report.findings[0].id, "fallback.cpu");
//! ```
//!
//! Decoding treats the link as hostile: its length, the inflated size (a zip bomb stops at the
//! limit), the nesting, the item counts and the string lengths are all bounded before a typed
//! report is built from it. The page renders every string of it as text.

mod base64url;
mod check;
mod project;
mod texts;

pub use check::{Limits, LIMITS};
pub use project::{without_data, Level, LADDER};

use crate::report::{Report, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The link format this build writes and reads.
pub const LINK_VERSION: &str = "1";
/// What a typical report's link should fit in: chat apps and issue trackers carry 8 KB links.
pub const BUDGET_BYTES: usize = 8 * 1024;
/// The longest fragment accepted at all (the part after `r=`).
pub const MAX_LINK_CHARS: usize = 48 * 1024;
/// The largest payload accepted once inflated.
pub const MAX_JSON_BYTES: usize = 1 << 20;
/// The raw input travels only below this many bytes in all.
pub const RAW_MAX_BYTES: usize = 16 * 1024;
/// deflate level: miniz's highest. On the sample reports 6, 9 and 10 give the same size and 1 is
/// 8-19% larger (`cargo run --release -p tokscope --example share_sizes`); at these sizes the
/// slowest level costs nothing noticeable.
const DEFLATE_LEVEL: u8 = 10;

/// What a shared link holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Shared {
    pub report: Report,
    /// What the sender's link left out to fit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<Omission>,
    /// The raw input, when the sender chose to include it (small inputs only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raw: Vec<RawInput>,
}

/// One thing a link left out: `what` is a stable code (`series-downsampled`, `series-dropped`,
/// `lines-cut`, `evidence-cut`, `items-cut`, `text-cut`, `raw-dropped`, `raw-too-large`,
/// `over-budget`); `limit` the number kept (points, lines, quotes, items, characters, bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Omission {
    pub what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

impl Omission {
    fn new(what: &str, limit: usize) -> Self {
        Omission {
            what: what.into(),
            limit: Some(limit as u64),
        }
    }
    fn bare(what: &str) -> Self {
        Omission {
            what: what.into(),
            limit: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawInput {
    pub name: String,
    pub text: String,
}

/// A link, made.
#[derive(Debug, Clone, Serialize)]
pub struct Encoded {
    /// `#r=1.<payload>`: append to the page's address.
    pub fragment: String,
    /// Length of `fragment` in bytes.
    pub bytes: usize,
    /// Its length before any degradation (the first step of the ladder).
    pub full_bytes: usize,
    /// The ladder step used (0: nothing degraded beyond the fixed budgets).
    pub level: usize,
    pub omitted: Vec<Omission>,
}

/// Why a link could not be made or read. `code()` is stable (the catalogue key
/// `ui.share.error.<code>`); `Display` adds the detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    NotALink,
    TooLong { chars: usize, max: usize },
    WrongVersion(String),
    BadEncoding { at: usize },
    Corrupt,
    TooLarge { max: usize },
    BadJson(String),
    TooManyItems(String),
    StringTooLong { max: usize },
    BadShape(String),
}

/// Every `Omission::what`, for the catalogue check (`ui.share.omitted.<what>`).
#[cfg(test)]
pub const OMISSION_CODES: &[&str] = &[
    "series-downsampled",
    "series-dropped",
    "lines-cut",
    "evidence-cut",
    "items-cut",
    "text-cut",
    "raw-dropped",
    "raw-too-large",
    "over-budget",
];

/// Every `ShareError::code()`, for the catalogue check (`ui.share.error.<code>`).
#[cfg(test)]
pub const ERROR_CODES: &[&str] = &[
    "not-a-link",
    "too-long",
    "wrong-version",
    "bad-encoding",
    "corrupt",
    "too-large",
    "bad-json",
    "too-many-items",
    "string-too-long",
    "bad-shape",
];

impl ShareError {
    pub fn code(&self) -> &'static str {
        match self {
            ShareError::NotALink => "not-a-link",
            ShareError::TooLong { .. } => "too-long",
            ShareError::WrongVersion(_) => "wrong-version",
            ShareError::BadEncoding { .. } => "bad-encoding",
            ShareError::Corrupt => "corrupt",
            ShareError::TooLarge { .. } => "too-large",
            ShareError::BadJson(_) => "bad-json",
            ShareError::TooManyItems(_) => "too-many-items",
            ShareError::StringTooLong { .. } => "string-too-long",
            ShareError::BadShape(_) => "bad-shape",
        }
    }

    /// The specifics, in English (technical; the catalogue gives the explanation).
    pub fn detail(&self) -> String {
        match self {
            ShareError::NotALink => "the address has no #r= part".into(),
            ShareError::TooLong { chars, max } => {
                format!("{chars} characters, at most {max} are read")
            }
            ShareError::WrongVersion(v) => {
                format!("link format '{v}', this page reads format '{LINK_VERSION}'")
            }
            ShareError::BadEncoding { at } => format!("not base64url at character {at}"),
            ShareError::Corrupt => "the compressed data is cut short or damaged".into(),
            ShareError::TooLarge { max } => format!("it inflates beyond {max} bytes"),
            ShareError::BadJson(e) | ShareError::TooManyItems(e) | ShareError::BadShape(e) => {
                e.clone()
            }
            ShareError::StringTooLong { max } => format!("a text longer than {max} characters"),
        }
    }
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.detail())
    }
}

impl std::error::Error for ShareError {}

/// Makes a link for `report` (the report JSON value), with `raw` input if given and small
/// enough, degrading step by step until it fits in `budget` bytes (0: only the hard limit of
/// [`MAX_LINK_CHARS`]).
/// Past the last step the link is returned anyway, with an `over-budget` note, unless it is
/// longer than any link this page would read.
pub fn encode(report: &Value, raw: &[RawInput], budget: usize) -> Result<Encoded, ShareError> {
    let raw_bytes: usize = raw.iter().map(|r| r.text.len() + r.name.len()).sum();
    let (raw, raw_note) = if raw_bytes > RAW_MAX_BYTES {
        (&[][..], Some(Omission::new("raw-too-large", RAW_MAX_BYTES)))
    } else {
        (raw, None)
    };
    let budget = if budget == 0 {
        MAX_LINK_CHARS
    } else {
        budget.min(MAX_LINK_CHARS)
    };
    let mut full_bytes = 0;
    // Past the last step, the shortest link any step made: a cut's own note can cost more than
    // the cut saved, so the last step is not always the shortest.
    let mut shortest: Option<(Value, Vec<Omission>, usize, usize)> = None;
    for (step, level) in LADDER.iter().enumerate() {
        let (mut env, mut omitted) = project::project(report, raw, level);
        if let Some(r) = env.get_mut("report") {
            texts::elide(r);
        }
        omitted.extend(raw_note.clone());
        let fragment = pack(&mut env, &omitted)?;
        if step == 0 {
            full_bytes = fragment.len();
        }
        if fragment.len() <= budget {
            return finish(fragment, full_bytes, step, omitted);
        }
        if shortest.as_ref().map_or(true, |s| fragment.len() < s.3) {
            shortest = Some((env, omitted, step, fragment.len()));
        }
    }
    let Some((mut env, mut omitted, step, _)) = shortest else {
        return Err(ShareError::BadShape("empty degradation ladder".into()));
    };
    omitted.push(Omission::new("over-budget", budget));
    let fragment = pack(&mut env, &omitted)?;
    finish(fragment, full_bytes, step, omitted)
}

fn finish(
    fragment: String,
    full_bytes: usize,
    level: usize,
    omitted: Vec<Omission>,
) -> Result<Encoded, ShareError> {
    // Every link made must be one this page reads: check it the way a receiver would.
    decode(&fragment)?;
    Ok(Encoded {
        bytes: fragment.len(),
        fragment,
        full_bytes,
        level,
        omitted,
    })
}

fn pack(env: &mut Value, omitted: &[Omission]) -> Result<String, ShareError> {
    if let Value::Object(map) = env {
        if omitted.is_empty() {
            map.remove("omitted");
        } else {
            let list =
                serde_json::to_value(omitted).map_err(|e| ShareError::BadJson(e.to_string()))?;
            map.insert("omitted".into(), list);
        }
    }
    let json = serde_json::to_vec(env).map_err(|e| ShareError::BadJson(e.to_string()))?;
    let packed = miniz_oxide::deflate::compress_to_vec(&json, DEFLATE_LEVEL);
    // Length limits are the receiver's check, run on the final link in `encode`.
    let fragment = format!("#r={LINK_VERSION}.{}", base64url::encode(&packed));
    Ok(fragment)
}

/// Reads a link: a whole address, its fragment (`#r=...`) or the part after `r=`.
pub fn decode(link: &str) -> Result<Shared, ShareError> {
    let text = link.trim();
    let text = match text.find("#r=") {
        Some(at) => &text[at + 3..],
        None => text.strip_prefix("r=").ok_or(ShareError::NotALink)?,
    };
    if text.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong {
            chars: text.len(),
            max: MAX_LINK_CHARS,
        });
    }
    let (version, payload) = text
        .split_once('.')
        .ok_or_else(|| ShareError::WrongVersion(clip(text, 12)))?;
    if version != LINK_VERSION {
        return Err(ShareError::WrongVersion(clip(version, 12)));
    }
    let packed = base64url::decode(payload).map_err(|at| ShareError::BadEncoding { at })?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge {
                max: MAX_JSON_BYTES,
            },
            _ => ShareError::Corrupt,
        })?;
    let mut value: Value =
        serde_json::from_slice(&json).map_err(|e| ShareError::BadJson(e.to_string()))?;
    check::check(&value, &LIMITS, RAW_MAX_BYTES)?;
    if let Some(r) = value.get_mut("report") {
        texts::restore(r);
    }
    let mut shared: Shared =
        serde_json::from_value(value).map_err(|e| ShareError::BadShape(e.to_string()))?;
    // Links written before inputs carried their size, or trimmed to fit, still show one.
    for i in shared
        .report
        .inputs
        .iter_mut()
        .filter(|i| i.size.is_empty())
    {
        i.size = crate::figures::size(i.bytes as f64);
    }
    if shared.report.schema != SCHEMA_VERSION {
        return Err(ShareError::WrongVersion(format!(
            "report schema {}",
            shared.report.schema
        )));
    }
    Ok(shared)
}

/// [`encode`] for the page: the report JSON and the raw input as JSON
/// (`[{"name", "text"}]`, or empty) in; `{"ok": true, "fragment", "bytes", "full_bytes",
/// "level", "omitted"}` or `{"ok": false, "code", "detail"}` out.
pub fn encode_json(report_json: &str, raw_json: &str, budget: usize) -> String {
    let result = parse_value(report_json).and_then(|report| {
        let raw: Vec<RawInput> = if raw_json.trim().is_empty() {
            Vec::new()
        } else {
            serde_json::from_value(parse_value(raw_json)?)
                .map_err(|e| ShareError::BadShape(e.to_string()))?
        };
        encode(&report, &raw, budget)
    });
    match result {
        Ok(link) => {
            let mut v = serde_json::to_value(&link).unwrap_or(Value::Null);
            v["ok"] = Value::Bool(true);
            v.to_string()
        }
        Err(e) => error_json(&e),
    }
}

/// Text to a JSON value. Typed values are always built from a `Value` (`from_value`), never from
/// text directly: one instantiation of each `Deserialize` in the wasm instead of two (~60 KB).
fn parse_value(json: &str) -> Result<Value, ShareError> {
    serde_json::from_slice(json.as_bytes()).map_err(|e| ShareError::BadJson(e.to_string()))
}

/// A report from its JSON text (the Markdown export of the page).
pub fn report_from_json(json: &str) -> Result<Report, ShareError> {
    serde_json::from_value(parse_value(json)?).map_err(|e| ShareError::BadShape(e.to_string()))
}

/// [`decode`] for the page: `{"ok": true, "shared": {"report", "omitted", "raw"}}` or
/// `{"ok": false, "code", "detail"}`.
pub fn decode_json(link: &str) -> String {
    match decode(link) {
        Ok(shared) => serde_json::json!({"ok": true, "shared": shared}).to_string(),
        Err(e) => error_json(&e),
    }
}

fn error_json(e: &ShareError) -> String {
    serde_json::json!({"ok": false, "code": e.code(), "detail": e.detail()}).to_string()
}

/// A short, printable prefix of untrusted text for an error message.
fn clip(s: &str, chars: usize) -> String {
    s.chars()
        .take(chars)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests;

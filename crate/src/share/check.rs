//! Hard limits on a decoded share payload, checked on the generic JSON tree before anything
//! typed is built from it: nesting depth, item counts, and string lengths. A link is untrusted
//! input; these bound what it can make the page hold or draw.

use super::ShareError;
use serde_json::Value;

/// What a payload may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_depth: usize,
    /// Values of any kind in the whole tree.
    pub max_nodes: usize,
    /// Items of one array or keys of one object.
    pub max_items: usize,
    /// Characters of one string (keys included), except the raw input texts.
    pub max_string_chars: usize,
}

pub const LIMITS: Limits = Limits {
    max_depth: 16,
    max_nodes: 100_000,
    max_items: 10_000,
    max_string_chars: 4_000,
};

/// Checks `value` against `limits`; `raw_chars` is the allowance for strings under a top-level
/// `raw` member (the optional raw input), which are larger by design.
pub fn check(value: &Value, limits: &Limits, raw_chars: usize) -> Result<(), ShareError> {
    let mut nodes = 0usize;
    walk(
        value,
        limits,
        limits.max_string_chars,
        0,
        &mut nodes,
        true,
        raw_chars,
    )
}

fn walk(
    v: &Value,
    l: &Limits,
    string_max: usize,
    depth: usize,
    nodes: &mut usize,
    top: bool,
    raw_chars: usize,
) -> Result<(), ShareError> {
    *nodes += 1;
    if *nodes > l.max_nodes {
        return Err(ShareError::TooManyItems(format!(
            "more than {} values",
            l.max_nodes
        )));
    }
    if depth > l.max_depth {
        return Err(ShareError::TooManyItems(format!(
            "nested deeper than {} levels",
            l.max_depth
        )));
    }
    match v {
        Value::String(s) => check_string(s, string_max),
        Value::Array(items) => {
            if items.len() > l.max_items {
                return Err(ShareError::TooManyItems(format!(
                    "a list of {} items (at most {})",
                    items.len(),
                    l.max_items
                )));
            }
            for item in items {
                walk(item, l, string_max, depth + 1, nodes, false, raw_chars)?;
            }
            Ok(())
        }
        Value::Object(map) => {
            if map.len() > l.max_items {
                return Err(ShareError::TooManyItems(format!(
                    "an object of {} members (at most {})",
                    map.len(),
                    l.max_items
                )));
            }
            for (key, item) in map {
                check_string(key, l.max_string_chars)?;
                let max = if top && key == "raw" {
                    raw_chars
                } else {
                    string_max
                };
                walk(item, l, max, depth + 1, nodes, false, raw_chars)?;
            }
            Ok(())
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

fn check_string(s: &str, max: usize) -> Result<(), ShareError> {
    // Bytes bound characters from above: the cheap test first.
    if s.len() > max && s.chars().count() > max {
        return Err(ShareError::StringTooLong { max });
    }
    Ok(())
}

//! The one bilingual catalogue: every text a user sees, in English and 简体中文, keyed by a
//! stable name. Finding texts are keyed by finding id (`finding.<id>.title|summary|explain|fix`),
//! UI texts by `ui.*`. The page reads the same file (the build copies it next to the page).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// Parses a language tag (`en`, `zh`, `zh-CN`, `zh-Hans-CN`, ...); anything not Chinese is English.
    pub fn from_tag(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Entry {
    pub en: String,
    pub zh: String,
}

impl Entry {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

pub fn entries() -> &'static BTreeMap<String, Entry> {
    static C: OnceLock<BTreeMap<String, Entry>> = OnceLock::new();
    C.get_or_init(|| {
        parse(include_str!("catalogue.json"))
            .expect("catalogue.json is valid; checked by the catalogue tests")
    })
}

/// Parses a catalogue, refusing a key defined twice: JSON lets the second silently win, and
/// then texts written for one rule's parameters show for another's (`{placeholder}` left over).
fn parse(json: &str) -> Result<BTreeMap<String, Entry>, serde_json::Error> {
    struct Unique;
    impl<'de> serde::de::Visitor<'de> for Unique {
        type Value = BTreeMap<String, Entry>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of {\"en\", \"zh\"} entries with unique keys")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((key, entry)) = map.next_entry::<String, Entry>()? {
                if out.contains_key(&key) {
                    return Err(serde::de::Error::custom(format!(
                        "key '{key}' is defined twice"
                    )));
                }
                out.insert(key, entry);
            }
            Ok(out)
        }
    }
    use serde::Deserializer;
    serde_json::Deserializer::from_str(json).deserialize_map(Unique)
}

/// The text for `key` with `{name}` placeholders filled from `params`. A missing key yields the
/// key itself, so a gap shows up in review instead of as an empty string.
pub fn text(lang: Lang, key: &str, params: &[(&str, &str)]) -> String {
    let Some(entry) = entries().get(key) else {
        return key.to_string();
    };
    fill(entry.get(lang), params)
}

/// Fills `{name}` placeholders of an already chosen text (a phrase given as a parameter).
pub fn fill(template: &str, params: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match params.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_parses_with_unique_keys() {
        if let Err(e) = parse(include_str!("catalogue.json")) {
            panic!("catalogue.json: {e}");
        }
    }

    #[test]
    fn a_key_defined_twice_is_refused() {
        let twice = r#"{"a": {"en": "x", "zh": "x"}, "b": {"en": "y", "zh": "y"}, "a": {"en": "z", "zh": "z"}}"#;
        let err = parse(twice)
            .expect_err("a duplicate key must be refused")
            .to_string();
        assert!(err.contains("key 'a' is defined twice"), "{err}");
        assert!(parse(r#"{"a": {"en": "x", "zh": "x"}}"#).is_ok());
    }

    #[test]
    fn every_entry_has_both_languages() {
        for (key, e) in entries() {
            assert!(!e.en.trim().is_empty(), "{key}: English missing");
            assert!(!e.zh.trim().is_empty(), "{key}: Chinese missing");
            let placeholders = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(
                placeholders(&e.en),
                placeholders(&e.zh),
                "{key}: placeholders differ"
            );
        }
    }

    #[test]
    fn every_finding_has_its_texts() {
        for id in crate::diagnose::finding_ids() {
            for part in ["title", "summary", "explain", "fix"] {
                let key = format!("finding.{id}.{part}");
                assert!(entries().contains_key(&key), "missing {key}");
            }
        }
    }

    #[test]
    fn fills_placeholders_and_keeps_unknown_ones() {
        assert_eq!(fill("{a} and {b} {", &[("a", "1")]), "1 and {b} {");
        assert_eq!(Lang::from_tag("zh-Hans-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(text(Lang::Zh, "severity.info", &[]), "提示");
    }
}

//! Helpers for writing JSON by hand and reading it without losing a byte, shared by the transcript formats.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// A JSON object's entries in the order written, each value kept as its exact text.
#[derive(Debug)]
pub(crate) struct Entries<'a>(pub(crate) Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Ordered)
    }
}

impl<'a> Entries<'a> {
    /// The raw value of the last entry named `key` (JSON parsers keep the last of duplicates).
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(name, _)| name == key).map(|(_, value)| *value)
    }
}

/// Parse `text` as an object whose entries keep their order and exact bytes.
pub(crate) fn entries(text: &str) -> Result<Entries<'_>, serde_json::Error> {
    serde_json::from_str(text)
}

/// Parse `text` as an array whose elements keep their exact bytes.
pub(crate) fn elements(text: &str) -> Result<Vec<&RawValue>, serde_json::Error> {
    serde_json::from_str(text)
}

/// `text` as a JSON string literal.
pub(crate) fn string(text: &str) -> String {
    serde_json::to_string(text).expect("a string always encodes as JSON")
}

/// The first character of a JSON value's text, which tells its type.
pub(crate) fn first_char(value: &RawValue) -> Option<char> {
    value.get().trim_start().chars().next()
}

/// Whether `text` is one JSON object (tool-call arguments must be, in both formats).
pub(crate) fn is_object(text: &str) -> bool {
    matches!(serde_json::from_str::<serde_json::Value>(text), Ok(serde_json::Value::Object(_)))
}

/// Whether `text` is base64, as the signatures and sealed payloads of reasoning blocks are: not
/// empty, the standard or URL-safe alphabet, at most two `=` and only at the end (then a whole
/// number of four-character groups), and never a length no encoding gives (one past a group).
pub(crate) fn is_base64(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    let padding = text.len() - body.len();
    !body.is_empty()
        && padding <= 2
        && body.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'-' | b'_'))
        && body.len() % 4 != 1
        && (padding == 0 || text.len().is_multiple_of(4))
}

#[cfg(test)]
mod base64_tests {
    use super::is_base64;

    #[test]
    fn base64_is_told_from_what_is_not() {
        for good in
            ["c2ln", "c2lnbmVk", "RXFz", "EuYBCkQYAiJA", "gAAAAABo_enc", "YQ==", "YWI=", "YWI", "a-b_"]
        {
            assert!(is_base64(good), "{good:?} is base64");
        }
        for bad in ["", "=", "s", "YQ=", "Y===", "c2 ln", "c2ln!", "c2=ln", "YWJjZ"] {
            assert!(!is_base64(bad), "{bad:?} is not base64");
        }
    }
}

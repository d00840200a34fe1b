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

//! Content hashes of messages: blake3 over a documented canonical encoding.
//!
//! # Canonical encoding (version 1)
//!
//! The hash is blake3 in key-derivation mode with the context string
//! `"tidemark 2026-11 message content v1"`, fed with:
//!
//! 1. the role as one byte: system 0, user 1, assistant 2, tool 3;
//! 2. the name: byte 0 when absent, else byte 1 followed by the name as a *string*;
//! 3. the number of parts as a little-endian `u64`;
//! 4. each part: a tag byte, then its fields:
//!    text (tag 0): the text;
//!    tool call (tag 1): id, name, arguments;
//!    tool result (tag 2): call id, content, then byte 1 for an error result and 0 otherwise;
//!    attachment (tag 3): media type, then byte 0 and the URL or byte 1 and the base64 text;
//!    opaque block (tag 4): provider, kind, raw JSON text.
//!
//! A *string* is its UTF-8 length as a little-endian `u64` followed by its bytes,
//! so no two different messages share an encoding.
//! The `origin` is not part of the encoding either: it spells the same content
//! in a provider's format, and neither changes what a message says nor what it costs.
//! The `pinned` flag is not part of the encoding: pinning decides whether a message
//! is kept, not what it says, so a pinned copy hashes (and counts tokens) the same.
//! The encoding never changes within version 1; tests check fixed hashes.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::message::{AttachmentSource, Message, Part, Role};

const CONTEXT: &str = "tidemark 2026-11 message content v1";

/// A 32-byte blake3 hash of a message's content; see the module docs for what it covers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash([u8; 32]);

impl ContentHash {
    /// Hash `message` with the version 1 canonical encoding.
    pub fn of(message: &Message) -> Self {
        let mut hasher = blake3::Hasher::new_derive_key(CONTEXT);
        hasher.update(&[role_tag(message.role)]);
        match &message.name {
            None => {
                hasher.update(&[0]);
            }
            Some(name) => {
                hasher.update(&[1]);
                string(&mut hasher, name);
            }
        }
        hasher.update(&(message.parts.len() as u64).to_le_bytes());
        for part in &message.parts {
            encode_part(&mut hasher, part);
        }
        Self(*hasher.finalize().as_bytes())
    }

    /// The hash from its 32 raw bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The 32 raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Parse the 64-character lowercase or uppercase hexadecimal form.
    pub fn from_hex(hex: &str) -> Option<Self> {
        blake3::Hash::from_hex(hex).ok().map(|hash| Self(*hash.as_bytes()))
    }

    /// The 64-character lowercase hexadecimal form.
    pub fn to_hex(&self) -> String {
        blake3::Hash::from_bytes(self.0).to_hex().to_string()
    }
}

fn role_tag(role: Role) -> u8 {
    match role {
        Role::System => 0,
        Role::User => 1,
        Role::Assistant => 2,
        Role::Tool => 3,
    }
}

fn string(hasher: &mut blake3::Hasher, text: &str) {
    hasher.update(&(text.len() as u64).to_le_bytes());
    hasher.update(text.as_bytes());
}

fn encode_part(hasher: &mut blake3::Hasher, part: &Part) {
    match part {
        Part::Text { text } => {
            hasher.update(&[0]);
            string(hasher, text);
        }
        Part::ToolCall(call) => {
            hasher.update(&[1]);
            string(hasher, &call.id);
            string(hasher, &call.name);
            string(hasher, &call.arguments);
        }
        Part::ToolResult(result) => {
            hasher.update(&[2]);
            string(hasher, &result.call_id);
            string(hasher, &result.content);
            hasher.update(&[u8::from(result.is_error)]);
        }
        Part::Attachment(attachment) => {
            hasher.update(&[3]);
            string(hasher, &attachment.media_type);
            match &attachment.source {
                AttachmentSource::Url(url) => {
                    hasher.update(&[0]);
                    string(hasher, url);
                }
                AttachmentSource::Base64(data) => {
                    hasher.update(&[1]);
                    string(hasher, data);
                }
            }
        }
        Part::Opaque(block) => {
            hasher.update(&[4]);
            string(hasher, &block.provider);
            string(hasher, &block.kind);
            string(hasher, &block.raw);
        }
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", self.to_hex())
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for ContentHash {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for ContentHash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let hex = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::from_hex(&hex).ok_or_else(|| serde::de::Error::custom("expected 64 hexadecimal digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Attachment, OpaqueBlock, Origin, ToolCall};

    fn check(message: Message, expected_hex: &str) {
        assert_eq!(message.content_hash().to_hex(), expected_hex, "{message:?}");
    }

    // These values pin version 1 of the encoding. They were computed by a separate
    // implementation of the encoding described in the module docs (Python and the
    // `blake3` package), so they also check that the docs match the code. If one
    // changes, every stored hash (token caches, fact deduplication) would silently
    // stop matching.
    #[test]
    fn fixed_hashes_never_change() {
        check(Message::user("hello"), "552a2096e692bf30b1e0b5d1d11b6bf3569a20232914d5fb6b936a92a6fa55d3");
        check(
            Message::assistant_tool_calls([ToolCall::with_raw_arguments(
                "call_1",
                "read_file",
                r#"{"path":"a.rs"}"#,
            )]),
            "535fd9e6bf3de1d0ace63a135675f5fdb090c870e229d4959ca81d06eec7a5f8",
        );
        check(
            Message::tool_error("call_1", "no such file").with_name("fs"),
            "4343df714d8b874b13dee12c80d815bc6d4281357122cbcd577d725e3924242a",
        );
        check(
            Message::user("look")
                .with_part(Part::Attachment(Attachment::url("image/png", "https://example.test/a.png"))),
            "8ba1b1d9ba13e47113389f0a046dfeb48a14a9cad9cd6112c9499eddd93ff054",
        );
    }

    #[test]
    fn opaque_blocks_hash_every_byte_and_the_origin_does_not_count() {
        let block = |raw: &str| {
            Message::new(Role::Assistant, vec![Part::Opaque(OpaqueBlock::new("anthropic", "thinking", raw))])
        };
        let signed = block(r#"{"type":"thinking","thinking":"t","signature":"AAAA"}"#);
        assert_ne!(
            signed.content_hash(),
            block(r#"{"type":"thinking","thinking":"t","signature":"AAAB"}"#).content_hash()
        );
        assert_ne!(
            signed.content_hash(),
            Message::assistant(r#"{"type":"thinking","thinking":"t","signature":"AAAA"}"#).content_hash()
        );
        let spelled =
            Message::user("x").with_origin(Origin::new("anthropic", r#"[{"type":"text","text":"x"}]"#));
        assert_eq!(spelled.content_hash(), Message::user("x").content_hash());
    }

    #[test]
    fn pinning_does_not_change_the_hash() {
        assert_eq!(Message::user("x").content_hash(), Message::user("x").pinned().content_hash());
    }

    #[test]
    fn field_boundaries_are_unambiguous() {
        let a = Message::assistant_tool_calls([ToolCall::with_raw_arguments("ab", "c", "")]);
        let b = Message::assistant_tool_calls([ToolCall::with_raw_arguments("a", "bc", "")]);
        assert_ne!(a.content_hash(), b.content_hash());
    }

    #[test]
    fn hex_round_trips_and_rejects_garbage() {
        let hash = Message::user("x").content_hash();
        assert_eq!(ContentHash::from_hex(&hash.to_hex()), Some(hash));
        assert_eq!(ContentHash::from_hex("zz"), None);
        let json = serde_json::to_string(&hash).expect("serializes");
        assert_eq!(serde_json::from_str::<ContentHash>(&json).expect("parses"), hash);
        assert!(serde_json::from_str::<ContentHash>("\"abc\"").is_err());
    }
}

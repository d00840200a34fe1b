//! Chat messages made of parts, with the stable JSON format tidemark stores and exchanges.
//!
//! # JSON format (version 1)
//!
//! A message is an object with these fields:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `role` | `"system"`, `"user"`, `"assistant"` or `"tool"` | who speaks |
//! | `name` | string, optional | a participant name, as in OpenAI's `name` field |
//! | `parts` | array of parts | the content, in order |
//! | `pinned` | bool, optional (default `false`) | whether policies must keep the message |
//! | `origin` | object, optional | the provider's own JSON for the message, see [`Origin`] |
//!
//! Each part is an object tagged by `type`:
//!
//! - `{"type":"text","text":"…"}`
//! - `{"type":"tool_call","id":"call_1","name":"read_file","arguments":"{\"path\":\"a.rs\"}"}`:
//!   `arguments` is the JSON text exactly as the model produced it, kept as a string so
//!   that it round-trips byte for byte and counts the same tokens as the original.
//! - `{"type":"tool_result","call_id":"call_1","content":"…","is_error":true}`: `is_error` is omitted when false.
//! - `{"type":"attachment","media_type":"image/png","source":{"url":"https://…"}}` or
//!   `"source":{"base64":"iVBORw0…"}` for inline data.
//! - `{"type":"opaque","provider":"anthropic","kind":"thinking","raw":"{\"type\":\"thinking\",…}"}`:
//!   a provider's block that tidemark carries without understanding it (a signed
//!   `thinking` block, `redacted_thinking`, a Responses `reasoning` item with its
//!   `encrypted_content`). `raw` is the block's JSON text exactly as read; nothing
//!   in tidemark edits it, and it is counted as text.
//!
//! Readers ignore fields they do not know, so later versions may add optional fields.
//!
//! ```
//! use tidemark_core::Message;
//!
//! let message = Message::user("Ship it on Friday.").pinned();
//! let json = message.to_json();
//! assert_eq!(json, r#"{"role":"user","parts":[{"type":"text","text":"Ship it on Friday."}],"pinned":true}"#);
//! assert_eq!(Message::from_json(&json)?, message);
//! # Ok::<(), tidemark_core::DecodeError>(())
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::DecodeError;
use crate::hash::ContentHash;

/// Who speaks a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Role {
    /// Instructions that frame the whole conversation.
    System,
    /// The person (or program) the agent works for.
    User,
    /// The model, including its tool calls.
    Assistant,
    /// Results of tool calls, answering an assistant message.
    Tool,
}

impl Role {
    /// The lowercase name used in JSON and in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One request by the model to run a tool.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// The id that the matching [`ToolResult::call_id`] repeats.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON text, exactly as the model wrote them.
    pub arguments: String,
}

impl ToolCall {
    /// A call whose arguments are the compact encoding of `arguments`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: serde_json::Value) -> Self {
        Self::with_raw_arguments(id, name, arguments.to_string())
    }

    /// A call whose arguments are kept as given, byte for byte (they may even be malformed JSON, as models sometimes write).
    pub fn with_raw_arguments(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        Self { id: id.into(), name: name.into(), arguments: arguments.into() }
    }

    /// The arguments parsed as JSON.
    ///
    /// # Errors
    ///
    /// Returns [`DecodeError::Json`] when the model wrote malformed JSON.
    pub fn parsed_arguments(&self) -> Result<serde_json::Value, DecodeError> {
        serde_json::from_str(&self.arguments).map_err(|source| DecodeError::Json { source })
    }
}

/// The outcome of one tool call.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolResult {
    /// The [`ToolCall::id`] this result answers.
    pub call_id: String,
    /// What the tool returned, as text.
    pub content: String,
    /// Whether the tool failed (the content then describes the failure).
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_error: bool,
}

impl ToolResult {
    /// A successful result.
    pub fn new(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self { call_id: call_id.into(), content: content.into(), is_error: false }
    }

    /// A result that reports a failure of the tool.
    pub fn error(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self { is_error: true, ..Self::new(call_id, content) }
    }
}

/// Where an attachment's bytes are.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AttachmentSource {
    /// A URL the model provider can fetch (including `data:` URLs).
    Url(String),
    /// The bytes themselves, encoded as standard base64 text.
    Base64(String),
}

/// A reference to non-text content such as an image or a document.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Attachment {
    /// The IANA media type, such as `image/png`.
    pub media_type: String,
    /// Where the content is.
    pub source: AttachmentSource,
}

impl Attachment {
    /// An attachment fetched from `url`.
    pub fn url(media_type: impl Into<String>, url: impl Into<String>) -> Self {
        Self { media_type: media_type.into(), source: AttachmentSource::Url(url.into()) }
    }

    /// An attachment carried inline as base64 text.
    pub fn base64(media_type: impl Into<String>, data: impl Into<String>) -> Self {
        Self { media_type: media_type.into(), source: AttachmentSource::Base64(data.into()) }
    }
}

/// A provider's content block that tidemark keeps byte for byte without interpreting it.
///
/// Signed reasoning is the reason this exists: Anthropic checks the `signature`
/// of a `thinking` block, and OpenAI decrypts a `reasoning` item's
/// `encrypted_content`, so a history in which one byte of them changed cannot be
/// sent again. An opaque block is therefore never edited by any strategy: it is
/// kept whole with its message or dropped whole with its unit, and a summarizer
/// sees only a placeholder naming its kind.
///
/// ```
/// use tidemark_core::{Message, OpaqueBlock, Part};
///
/// let raw = r#"{"type":"thinking","thinking":"Check the tests first.","signature":"c2ln"}"#;
/// let message = Message::assistant("Running the tests.")
///     .with_part(Part::Opaque(OpaqueBlock::new("anthropic", "thinking", raw)));
/// let back = Message::from_json(&message.to_json())?;
/// let Some(Part::Opaque(block)) = back.parts.get(1) else { panic!("the block is kept") };
/// assert_eq!(block.raw, raw);
/// # Ok::<(), tidemark_core::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct OpaqueBlock {
    /// The format the block came from, such as `"anthropic"` or `"responses"`.
    pub provider: String,
    /// The block's own type, such as `"thinking"`, `"redacted_thinking"` or `"reasoning"`.
    pub kind: String,
    /// The block's JSON text, exactly as read.
    pub raw: String,
}

impl OpaqueBlock {
    /// A block of `provider`'s format, of type `kind`, whose JSON text is `raw`.
    pub fn new(provider: impl Into<String>, kind: impl Into<String>, raw: impl Into<String>) -> Self {
        Self { provider: provider.into(), kind: kind.into(), raw: raw.into() }
    }
}

/// The JSON a message was read from, in a provider's format, kept so that a writer of that format gives unchanged content back byte for byte.
///
/// tidemark's model has no place for some details of a provider's format
/// (Anthropic's `cache_control` markers, a content written as a string rather
/// than an array, the nested content of a tool result). A reader of the format
/// keeps the message's JSON here; the writer of the same format uses it for
/// every block that still reads back as the message's part, and ignores it
/// otherwise. Other writers ignore it. The origin is another spelling of the
/// content, not content: it is neither hashed nor counted. It is stored with
/// the message, so a message read this way takes about twice the room.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Origin {
    /// The format, such as `"anthropic"` or `"responses"`.
    pub format: String,
    /// The JSON text, in the terms that format's reader documents.
    pub raw: String,
}

impl Origin {
    /// JSON text `raw` read in `format`.
    pub fn new(format: impl Into<String>, raw: impl Into<String>) -> Self {
        Self { format: format.into(), raw: raw.into() }
    }
}

/// One piece of a message's content.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Part {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool call made by the assistant.
    ToolCall(ToolCall),
    /// The result of a tool call.
    ToolResult(ToolResult),
    /// Non-text content.
    Attachment(Attachment),
    /// A provider's block carried verbatim, never edited (see [`OpaqueBlock`]).
    Opaque(OpaqueBlock),
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text { text: text.into() }
    }
}

/// One message of a conversation: a role, optional participant name, content parts and a pin.
///
/// Build messages with the constructors ([`Message::user`], [`Message::assistant_tool_calls`],
/// [`Message::tool_result`], …) and adjust them with [`Message::pinned`] or
/// [`Message::with_name`]. A pinned message is kept by every policy and strategy,
/// at its place relative to the other kept messages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// An optional participant name (OpenAI's `name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The content, in order.
    #[serde(default)]
    pub parts: Vec<Part>,
    /// Whether policies and strategies must keep this message.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pinned: bool,
    /// The provider's JSON this message was read from, when a format reader kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

impl Message {
    /// A message with the given role and parts.
    pub fn new(role: Role, parts: Vec<Part>) -> Self {
        Self { role, name: None, parts, pinned: false, origin: None }
    }

    /// A system message holding `text`.
    pub fn system(text: impl Into<String>) -> Self {
        Self::new(Role::System, vec![Part::text(text)])
    }

    /// A user message holding `text`.
    pub fn user(text: impl Into<String>) -> Self {
        Self::new(Role::User, vec![Part::text(text)])
    }

    /// An assistant message holding `text`.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::new(Role::Assistant, vec![Part::text(text)])
    }

    /// An assistant message that makes the given tool calls (several calls are parallel calls).
    pub fn assistant_tool_calls(calls: impl IntoIterator<Item = ToolCall>) -> Self {
        Self::new(Role::Assistant, calls.into_iter().map(Part::ToolCall).collect())
    }

    /// A tool message carrying one successful result.
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self::new(Role::Tool, vec![Part::ToolResult(ToolResult::new(call_id, content))])
    }

    /// A tool message carrying one failed result.
    pub fn tool_error(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self::new(Role::Tool, vec![Part::ToolResult(ToolResult::error(call_id, content))])
    }

    /// The same message, pinned.
    #[must_use]
    pub fn pinned(mut self) -> Self {
        self.pinned = true;
        self
    }

    /// The same message with a participant name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The same message with the provider JSON it was read from.
    #[must_use]
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = Some(origin);
        self
    }

    /// The same message with `part` appended to its content.
    #[must_use]
    pub fn with_part(mut self, part: Part) -> Self {
        self.parts.push(part);
        self
    }

    /// The text parts joined by newlines (borrowed when there is exactly one).
    pub fn text(&self) -> Cow<'_, str> {
        let mut texts = self.parts.iter().filter_map(|part| match part {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        });
        let Some(first) = texts.next() else {
            return Cow::Borrowed("");
        };
        match texts.next() {
            None => Cow::Borrowed(first),
            Some(second) => {
                let mut joined = format!("{first}\n{second}");
                for text in texts {
                    joined.push('\n');
                    joined.push_str(text);
                }
                Cow::Owned(joined)
            }
        }
    }

    /// The tool calls this message makes, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolCall(call) => Some(call),
            _ => None,
        })
    }

    /// The tool results this message carries, in order.
    pub fn tool_results(&self) -> impl Iterator<Item = &ToolResult> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolResult(result) => Some(result),
            _ => None,
        })
    }

    /// Whether the message makes at least one tool call.
    pub fn has_tool_calls(&self) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::ToolCall(_)))
    }

    /// The opaque provider blocks this message carries, in order.
    pub fn opaque_blocks(&self) -> impl Iterator<Item = &OpaqueBlock> {
        self.parts.iter().filter_map(|part| match part {
            Part::Opaque(block) => Some(block),
            _ => None,
        })
    }

    /// Whether the message carries at least one tool result.
    pub fn has_tool_results(&self) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::ToolResult(_)))
    }

    /// The content hash: identical across processes and releases (see [`ContentHash`]).
    pub fn content_hash(&self) -> ContentHash {
        ContentHash::of(self)
    }

    /// The message in tidemark's JSON format.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a message has only string keys and serializable fields")
    }

    /// Read a message from tidemark's JSON format.
    ///
    /// # Errors
    ///
    /// Returns [`DecodeError::Json`] for malformed JSON or a value of the wrong shape.
    pub fn from_json(json: &str) -> Result<Self, DecodeError> {
        serde_json::from_str(json).map_err(|source| DecodeError::Json { source })
    }
}

/// Read a whole history written as a JSON array of messages.
///
/// # Errors
///
/// Returns [`DecodeError::Json`] for malformed JSON or a message of the wrong shape.
pub fn history_from_json(json: &str) -> Result<Vec<Message>, DecodeError> {
    serde_json::from_str(json).map_err(|source| DecodeError::Json { source })
}

/// Write a whole history as a JSON array of messages.
pub fn history_to_json(history: &[Message]) -> String {
    serde_json::to_string(history).expect("a message has only string keys and serializable fields")
}

// Serde's `skip_serializing_if` hands the field by reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(value: &bool) -> bool {
    !*value
}

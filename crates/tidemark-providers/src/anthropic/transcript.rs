//! Claude histories in Anthropic's Messages format, read into tidemark messages and written back byte for byte wherever tidemark changed nothing.
//!
//! # The format
//!
//! A transcript is a request body, `{"system": …, "messages": [...], …}`, or a
//! bare array of messages. `system` is a string or an array of `text` blocks.
//! Each message has a `role` (`user` or `assistant`) and a `content` that is a
//! string or an array of blocks:
//!
//! | block | turn | tidemark part |
//! | --- | --- | --- |
//! | `text` | any | [`Part::Text`] |
//! | `image`, `document` with a `base64` or `url` source | any | [`Part::Attachment`] |
//! | `tool_use` (`id`, `name`, `input`) | assistant | [`Part::ToolCall`], `input`'s exact text as the arguments |
//! | `tool_result` (`tool_use_id`, `content` string or blocks, `is_error`) | user, before other content | [`Part::ToolResult`] in a tool message, the text blocks of a nested content joined by newlines |
//! | `thinking` (`signature` required, non-empty base64), `redacted_thinking` (`data` required, non-empty base64) | assistant | [`Part::Opaque`], never edited |
//! | any other type (`server_tool_use`, `web_search_tool_result`, …) | any | [`Part::Opaque`] |
//!
//! A user turn that opens with tool results becomes a tool message holding
//! them, followed by a user message with the rest. Writing merges them back,
//! and merges every run of consecutive user-side messages (tool results first)
//! into one turn, as the API wants turns to alternate; nothing is dropped.
//! A system message after the first turn is written as user text.
//!
//! # What is kept byte for byte
//!
//! Each message remembers its `content` text in its [`Origin`]. When written,
//! a block whose part still reads back the same is copied from there
//! unchanged, with its `cache_control`, `citations` and field order; an edited
//! block (a tool result cleared by a strategy) is written afresh and keeps its
//! `cache_control`. Thinking blocks are copied from their own bytes in every
//! case. The top-level fields besides `system` and `messages` (`model`,
//! `tools`, …) are copied in their order. Only the layout around the blocks is
//! written compactly, so a compact transcript round-trips to the same bytes.
//!
//! ```
//! use tidemark_core::{Part, Role};
//! use tidemark_providers::anthropic::ClaudeTranscript;
//!
//! let json = r#"{"system":"Be brief.","messages":[{"role":"user","content":"Is the build green?"},{"role":"assistant","content":[{"type":"thinking","thinking":"Ask CI.","signature":"RXFz"},{"type":"tool_use","id":"toolu_1","name":"ci_status","input":{"branch":"main"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"green","cache_control":{"type":"ephemeral"}}]}]}"#;
//! let transcript = ClaudeTranscript::from_json(json)?;
//! let roles: Vec<Role> = transcript.messages.iter().map(|m| m.role).collect();
//! assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::Tool]);
//! assert!(matches!(transcript.messages[2].parts[0], Part::Opaque(_)));
//! assert_eq!(transcript.to_json()?, json);
//! # Ok::<(), tidemark_providers::TranscriptError>(())
//! ```

mod write;

pub(crate) use write::part_kind;

use serde_json::Value;
use serde_json::value::RawValue;
use tidemark_core::{Attachment, Message, OpaqueBlock, Origin, Part, Role, ToolCall, ToolResult};

use crate::error::{Place, TranscriptError, TranscriptProblem};
use crate::raw;

/// The name of the format in [`Origin::format`] and [`OpaqueBlock::provider`].
pub const FORMAT: &str = "anthropic";

/// The text of the user turn [`open_with_user`] puts before a history that starts with the assistant.
pub const OPENING_TURN: &str = "(Earlier turns of this conversation are not shown.)";

/// Make a history open with a user turn after its leading system messages, as the Messages API
/// requires (it refuses a first message from the assistant); returns whether a turn was added.
///
/// A compaction that drops the oldest turns can leave an assistant turn first: the
/// user message that asked for it was older than the budget. Rather than drop that
/// turn too (and a signed thinking block with it), a short user turn saying that
/// earlier turns are not shown ([`OPENING_TURN`]) is put before it. It costs a
/// few tokens, which a caller holding a budget must count.
///
/// ```
/// use tidemark_core::{Message, Role};
/// use tidemark_providers::anthropic::transcript::{OPENING_TURN, open_with_user};
///
/// let mut history = vec![Message::system("Be brief."), Message::assistant("Done.")];
/// assert!(open_with_user(&mut history));
/// assert_eq!(history[1].text(), OPENING_TURN);
/// assert!(!open_with_user(&mut history), "already opens with the user");
/// ```
pub fn open_with_user(messages: &mut Vec<Message>) -> bool {
    let at = messages.iter().take_while(|message| message.role == Role::System).count();
    let opens_with_assistant = messages.get(at).is_some_and(|message| message.role == Role::Assistant);
    if opens_with_assistant {
        messages.insert(at, Message::user(OPENING_TURN));
    }
    opens_with_assistant
}

/// A Claude history: tidemark messages and the layout of the request body they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClaudeTranscript {
    /// The history: the system prompt as a leading system message, then the turns.
    pub messages: Vec<Message>,
    layout: Layout,
    /// Where each message as read came from.
    places: Vec<Place>,
}

/// How the transcript's top level was written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Layout {
    /// A bare array of messages.
    Array,
    /// An object: each field's name and raw text, `None` for `system` and `messages`, which are written from the history.
    Object(Vec<(String, Option<String>)>),
}

impl ClaudeTranscript {
    /// A transcript of `messages` in the request-body layout, `{"system":…,"messages":[…]}`.
    pub fn new(messages: Vec<Message>) -> Self {
        let layout = Layout::Object(vec![("system".into(), None), ("messages".into(), None)]);
        Self { messages, layout, places: Vec::new() }
    }

    /// The same layout (and other top-level fields) with another history, such as a compacted one.
    #[must_use]
    pub fn with_messages(&self, messages: Vec<Message>) -> Self {
        Self { messages, layout: self.layout.clone(), places: Vec::new() }
    }

    /// Where message `index` of the history as read came from (a user turn that opens with tool results gives two messages), to name it in errors; `None` for a history set since.
    ///
    /// ```
    /// use tidemark_providers::Place;
    /// use tidemark_providers::anthropic::ClaudeTranscript;
    ///
    /// let json = r#"{"system":"Be brief.","messages":[{"role":"user","content":"hi"}]}"#;
    /// let transcript = ClaudeTranscript::from_json(json)?;
    /// assert_eq!(transcript.place_of(0), Some(Place::System));
    /// assert_eq!(transcript.place_of(1), Some(Place::Message(0)));
    /// assert_eq!(transcript.place_of(2), None);
    /// # Ok::<(), tidemark_providers::TranscriptError>(())
    /// ```
    pub fn place_of(&self, index: usize) -> Option<Place> {
        self.places.get(index).copied()
    }

    /// Read a transcript.
    ///
    /// # Errors
    ///
    /// A [`TranscriptError`] naming the message and block: malformed JSON, a
    /// missing or mistyped field, an unknown role, a block in a turn that may
    /// not hold it, or a tool result after other content in a user turn.
    pub fn from_json(json: &str) -> Result<Self, TranscriptError> {
        let at_top = |problem| TranscriptError::new(Place::Transcript, problem);
        let json_error = |error: serde_json::Error| at_top(TranscriptProblem::Json(error.to_string()));
        match json.trim_start().chars().next() {
            Some('[') => {
                let values = raw::elements(json).map_err(json_error)?;
                let (messages, places) = read_messages(&values)?;
                Ok(Self { messages, layout: Layout::Array, places })
            }
            Some('{') => {
                let entries = raw::entries(json).map_err(json_error)?;
                let Some(list) = entries.get("messages") else {
                    return Err(at_top(TranscriptProblem::Missing("messages")));
                };
                let values = raw::elements(list.get()).map_err(|_| {
                    at_top(TranscriptProblem::WrongType { field: "messages", expected: "an array" })
                })?;
                let mut messages = Vec::new();
                let mut places = Vec::new();
                if let Some(system) = entries.get("system") {
                    messages.extend(read_system(system)?);
                    places.push(Place::System);
                }
                let (turns, turn_places) = read_messages(&values)?;
                messages.extend(turns);
                places.extend(turn_places);
                let mut fields: Vec<(String, Option<String>)> = Vec::new();
                for (name, value) in entries.0 {
                    let written = name == "system" || name == "messages";
                    if fields.iter().any(|(seen, _)| *seen == name) {
                        continue;
                    }
                    let value = (!written).then(|| value.get().to_owned());
                    fields.push((name, value));
                }
                Ok(Self { messages, layout: Layout::Object(fields), places })
            }
            _ => Err(at_top(TranscriptProblem::WrongType {
                field: "transcript",
                expected: "an object with `messages` or an array of messages",
            })),
        }
    }

    /// Write the transcript: unchanged blocks byte for byte, the rest afresh (see the module docs).
    ///
    /// # Errors
    ///
    /// A [`TranscriptError`] naming the message and part that has no form in
    /// the format: an opaque block of another provider (a Responses
    /// `reasoning` item), or tool-call arguments that are not a JSON object.
    pub fn to_json(&self) -> Result<String, TranscriptError> {
        write::transcript(&self.messages, &self.layout)
    }
}

fn read_system(value: &RawValue) -> Result<Vec<Message>, TranscriptError> {
    let wrong = || {
        TranscriptError::new(
            Place::System,
            TranscriptProblem::WrongType { field: "system", expected: "a string or an array of text blocks" },
        )
    };
    let origin = Origin::new(FORMAT, value.get());
    match raw::first_char(value) {
        Some('"') => {
            let text: String = serde_json::from_str(value.get()).map_err(|_| wrong())?;
            Ok(vec![Message::system(text).with_origin(origin)])
        }
        Some('[') => {
            let blocks = raw::elements(value.get()).map_err(|_| wrong())?;
            let mut parts = Vec::with_capacity(blocks.len());
            for (index, block) in blocks.iter().enumerate() {
                let place = Place::SystemBlock(index);
                match part_of(block).map_err(|problem| TranscriptError::new(place, problem))? {
                    part @ Part::Text { .. } => parts.push(part),
                    _ => {
                        return Err(TranscriptError::new(
                            place,
                            TranscriptProblem::WrongType { field: "type", expected: "\"text\"" },
                        ));
                    }
                }
            }
            Ok(vec![Message::new(Role::System, parts).with_origin(origin)])
        }
        _ => Err(wrong()),
    }
}

/// The messages of `messages`, each with the place it came from.
fn read_messages(values: &[&RawValue]) -> Result<(Vec<Message>, Vec<Place>), TranscriptError> {
    let mut messages = Vec::with_capacity(values.len());
    let mut places = Vec::with_capacity(values.len());
    for (index, value) in values.iter().enumerate() {
        read_message(index, value, &mut messages)?;
        places.resize(messages.len(), Place::Message(index));
    }
    Ok((messages, places))
}

/// Read message `index`, pushing one tidemark message (or a tool message and a user message).
fn read_message(index: usize, value: &RawValue, out: &mut Vec<Message>) -> Result<(), TranscriptError> {
    let fail = |problem| TranscriptError::new(Place::Message(index), problem);
    let entries = raw::entries(value.get())
        .map_err(|_| fail(TranscriptProblem::WrongType { field: "message", expected: "an object" }))?;
    let role: String = required(&entries, "role", "a string").map_err(fail)?;
    let role = match role.as_str() {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return Err(fail(TranscriptProblem::UnknownRole(role))),
    };
    let content = entries.get("content").ok_or_else(|| fail(TranscriptProblem::Missing("content")))?;
    let origin = |raw: &str| Origin::new(FORMAT, raw);
    match raw::first_char(content) {
        Some('"') => {
            let text: String = serde_json::from_str(content.get()).map_err(|_| {
                fail(TranscriptProblem::WrongType { field: "content", expected: "a string or an array" })
            })?;
            out.push(Message::new(role, vec![Part::text(text)]).with_origin(origin(content.get())));
            return Ok(());
        }
        Some('[') => {}
        _ => {
            return Err(fail(TranscriptProblem::WrongType {
                field: "content",
                expected: "a string or an array",
            }));
        }
    }
    let blocks = raw::elements(content.get()).map_err(|_| {
        fail(TranscriptProblem::WrongType { field: "content", expected: "an array of blocks" })
    })?;
    let mut parts = Vec::with_capacity(blocks.len());
    for (number, block) in blocks.iter().enumerate() {
        let place = Place::Block { message: index, block: number };
        let part = part_of(block).map_err(|problem| TranscriptError::new(place, problem))?;
        check_place(&part, role, parts.last()).map_err(|problem| TranscriptError::new(place, problem))?;
        parts.push(part);
    }
    let results = parts.iter().take_while(|part| matches!(part, Part::ToolResult(_))).count();
    if role == Role::Assistant || results == 0 {
        out.push(Message::new(role, parts).with_origin(origin(content.get())));
    } else if results == parts.len() {
        out.push(Message::new(Role::Tool, parts).with_origin(origin(content.get())));
    } else {
        let rest = parts.split_off(results);
        let joined = |blocks: &[&RawValue]| {
            format!("[{}]", blocks.iter().map(|block| block.get()).collect::<Vec<_>>().join(","))
        };
        out.push(Message::new(Role::Tool, parts).with_origin(origin(&joined(&blocks[..results]))));
        out.push(Message::new(Role::User, rest).with_origin(origin(&joined(&blocks[results..]))));
    }
    Ok(())
}

/// Whether `part` may stand in a turn of `role`, after `previous`.
fn check_place(part: &Part, role: Role, previous: Option<&Part>) -> Result<(), TranscriptProblem> {
    let misplaced =
        |kind: &str, role: &'static str| Err(TranscriptProblem::Misplaced { kind: kind.to_owned(), role });
    match (part, role) {
        (Part::ToolCall(_), Role::User) => misplaced("tool_use", "a user"),
        (Part::ToolResult(_), Role::Assistant) => misplaced("tool_result", "an assistant"),
        (Part::ToolResult(_), _) if previous.is_some_and(|p| !matches!(p, Part::ToolResult(_))) => {
            Err(TranscriptProblem::ResultAfterContent)
        }
        (Part::Opaque(block), Role::User) if is_reasoning(&block.kind) => misplaced(&block.kind, "a user"),
        _ => Ok(()),
    }
}

/// Whether a block type is Claude's reasoning, which only an assistant turn holds.
fn is_reasoning(kind: &str) -> bool {
    kind == "thinking" || kind == "redacted_thinking"
}

/// The part a block reads as; every block reads as exactly one part.
pub(super) fn part_of(block: &RawValue) -> Result<Part, TranscriptProblem> {
    let entries = raw::entries(block.get())
        .map_err(|_| TranscriptProblem::WrongType { field: "block", expected: "an object" })?;
    let kind: String = required(&entries, "type", "a string")?;
    let opaque = |kind: &str| Part::Opaque(OpaqueBlock::new(FORMAT, kind, block.get()));
    Ok(match kind.as_str() {
        "text" => Part::text(required::<String>(&entries, "text", "a string")?),
        "image" | "document" => match attachment(&entries, &kind)? {
            Some(attachment) => Part::Attachment(attachment),
            None => opaque(&kind),
        },
        "tool_use" => {
            let id: String = required(&entries, "id", "a string")?;
            let name: String = required(&entries, "name", "a string")?;
            let input = entries.get("input").ok_or(TranscriptProblem::Missing("input"))?;
            if raw::first_char(input) != Some('{') {
                return Err(TranscriptProblem::WrongType { field: "input", expected: "an object" });
            }
            Part::ToolCall(ToolCall::with_raw_arguments(id, name, input.get()))
        }
        "tool_result" => {
            let id: String = required(&entries, "tool_use_id", "a string")?;
            let content = match entries.get("content") {
                None => String::new(),
                Some(content) => result_text(content)?,
            };
            let is_error: Option<bool> = optional(&entries, "is_error", "a boolean")?;
            let result = ToolResult::new(id, content);
            Part::ToolResult(if is_error == Some(true) {
                ToolResult::error(result.call_id, result.content)
            } else {
                result
            })
        }
        "thinking" => {
            required::<String>(&entries, "thinking", "a string")?;
            sealed(&entries, "signature")?;
            opaque(&kind)
        }
        "redacted_thinking" => {
            sealed(&entries, "data")?;
            opaque(&kind)
        }
        _ => opaque(&kind),
    })
}

/// An image or document with a base64 or URL source; `None` for sources tidemark does not model.
fn attachment(entries: &raw::Entries<'_>, kind: &str) -> Result<Option<Attachment>, TranscriptProblem> {
    let source = entries.get("source").ok_or(TranscriptProblem::Missing("source"))?;
    let source = raw::entries(source.get())
        .map_err(|_| TranscriptProblem::WrongType { field: "source", expected: "an object" })?;
    let source_type: String = required(&source, "type", "a string")?;
    Ok(match source_type.as_str() {
        "base64" => {
            let media_type: String = required(&source, "media_type", "a string")?;
            let data: String = required(&source, "data", "a string")?;
            Some(Attachment::base64(media_type, data))
        }
        "url" => {
            let url: String = required(&source, "url", "a string")?;
            let media_type = if kind == "image" { URL_IMAGE } else { URL_DOCUMENT };
            Some(Attachment::url(media_type, url))
        }
        _ => None,
    })
}

/// The media type given to an image read from a URL, which the format does not type.
pub(super) const URL_IMAGE: &str = "image/*";
/// The media type given to a document read from a URL: the API reads PDFs from URLs.
pub(super) const URL_DOCUMENT: &str = "application/pdf";

/// A tool result's content as text: the string, or the text blocks of an array joined by newlines.
fn result_text(content: &RawValue) -> Result<String, TranscriptProblem> {
    let wrong =
        || TranscriptProblem::WrongType { field: "content", expected: "a string or an array of blocks" };
    match serde_json::from_str::<Value>(content.get()).map_err(|_| wrong())? {
        Value::String(text) => Ok(text),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|block| block.get("text").and_then(Value::as_str))
                .collect();
            Ok(texts.join("\n"))
        }
        _ => Err(wrong()),
    }
}

/// A required string of sealed bytes (a signature, redacted thinking): present, and non-empty base64.
fn sealed(entries: &raw::Entries<'_>, field: &'static str) -> Result<(), TranscriptProblem> {
    let text: String = required(entries, field, "a string")?;
    if raw::is_base64(&text) { Ok(()) } else { Err(TranscriptProblem::NotBase64(field)) }
}

fn required<T: serde::de::DeserializeOwned>(
    entries: &raw::Entries<'_>,
    field: &'static str,
    expected: &'static str,
) -> Result<T, TranscriptProblem> {
    optional(entries, field, expected)?.ok_or(TranscriptProblem::Missing(field))
}

fn optional<T: serde::de::DeserializeOwned>(
    entries: &raw::Entries<'_>,
    field: &'static str,
    expected: &'static str,
) -> Result<Option<T>, TranscriptProblem> {
    // A `null` counts as absent, as the API reads it.
    entries
        .get(field)
        .map(|value| serde_json::from_str::<Option<T>>(value.get()))
        .transpose()
        .map(Option::flatten)
        .map_err(|_| TranscriptProblem::WrongType { field, expected })
}

#[cfg(test)]
mod tests;

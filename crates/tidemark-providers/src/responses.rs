//! Histories as OpenAI Responses API input items, read into tidemark messages and written back byte for byte wherever tidemark changed nothing.
//!
//! # The format
//!
//! A transcript is a request body, `{"input": [...], …}`, or a bare array of
//! items. Items map onto tidemark's messages like this:
//!
//! | item | tidemark |
//! | --- | --- |
//! | `message` (the `type` may be left out) with role `user`, `system` or `developer`, content a string or `input_text` / `input_image` (URL) parts | a user or system message of text and attachments |
//! | `message` with role `assistant`, `output_text` parts | text parts of an assistant message |
//! | `function_call` (`call_id`, `name`, `arguments` text) | a [`Part::ToolCall`] of an assistant message |
//! | `function_call_output` (`call_id`, `output` text, or parts whose texts are joined by newlines) | a [`Part::ToolResult`] of a tool message |
//! | `reasoning` (`encrypted_content` carried verbatim; when present it must be non-empty base64) and any other item (`web_search_call`, `computer_call_output`, …) | a [`Part::Opaque`] of the assistant message around it |
//! | a `message` with parts tidemark does not model (`input_file`, `refusal`, …) | a [`Part::Opaque`] |
//!
//! Consecutive assistant-side items (reasoning, assistant messages, calls and
//! the items of built-in tools, with their outputs) form one assistant
//! message, so a reasoning item stays in the same tool unit as the calls it
//! led to and can never be cut from them; consecutive `function_call_output`
//! items form one tool message.
//!
//! # What is kept byte for byte
//!
//! Each message keeps the JSON array of the items it was read from as its
//! [`Origin`]; when written, an item whose parts are
//! unchanged is copied from there, and an edited one (an output cleared by a
//! strategy) is written afresh. Opaque items are written from their own
//! bytes in every case. Top-level fields besides `input` are copied in order.
//!
//! ```
//! use tidemark_core::{Part, Role};
//! use tidemark_providers::responses::ResponsesTranscript;
//!
//! let json = r#"[{"role":"user","content":"Is the build green?"},{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAAB"},{"type":"function_call","call_id":"call_1","name":"ci_status","arguments":"{\"branch\":\"main\"}"},{"type":"function_call_output","call_id":"call_1","output":"green"}]"#;
//! let transcript = ResponsesTranscript::from_json(json)?;
//! let roles: Vec<Role> = transcript.messages.iter().map(|m| m.role).collect();
//! assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool]);
//! assert!(matches!(transcript.messages[1].parts[0], Part::Opaque(_)));
//! assert_eq!(transcript.to_json()?, json);
//! # Ok::<(), tidemark_providers::TranscriptError>(())
//! ```

mod write;

use serde_json::value::RawValue;
use tidemark_core::{Attachment, Message, OpaqueBlock, Origin, Part, Role, ToolCall, ToolResult};

use crate::error::{Place, TranscriptError, TranscriptProblem};
use crate::raw;

/// The name of the format in [`Origin::format`] and [`OpaqueBlock::provider`].
pub const FORMAT: &str = "responses";

/// A Responses history: tidemark messages and the layout of the request body they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResponsesTranscript {
    /// The history.
    pub messages: Vec<Message>,
    /// Each top-level field's name and raw text, `None` for `input`; `None` for a bare array.
    fields: Option<Vec<(String, Option<String>)>>,
    /// The first item of each message as read.
    places: Vec<Place>,
}

impl ResponsesTranscript {
    /// A transcript of `messages` as a bare array of items.
    pub fn new(messages: Vec<Message>) -> Self {
        Self { messages, fields: None, places: Vec::new() }
    }

    /// The same layout (and other top-level fields) with another history, such as a compacted one.
    #[must_use]
    pub fn with_messages(&self, messages: Vec<Message>) -> Self {
        Self { messages, fields: self.fields.clone(), places: Vec::new() }
    }

    /// The first item message `index` of the history as read came from, to name it in errors; `None` for a history set since.
    pub fn place_of(&self, index: usize) -> Option<Place> {
        self.places.get(index).copied()
    }

    /// Read a transcript.
    ///
    /// # Errors
    ///
    /// A [`TranscriptError`] naming the item: malformed JSON, a missing or
    /// mistyped field, or an unknown role.
    pub fn from_json(json: &str) -> Result<Self, TranscriptError> {
        let at_top = |problem| TranscriptError::new(Place::Transcript, problem);
        let json_error = |error: serde_json::Error| at_top(TranscriptProblem::Json(error.to_string()));
        match json.trim_start().chars().next() {
            Some('[') => {
                let items = raw::elements(json).map_err(json_error)?;
                let (messages, places) = read_items(&items)?;
                Ok(Self { messages, fields: None, places })
            }
            Some('{') => {
                let entries = raw::entries(json).map_err(json_error)?;
                let Some(input) = entries.get("input") else {
                    return Err(at_top(TranscriptProblem::Missing("input")));
                };
                let items = raw::elements(input.get()).map_err(|_| {
                    at_top(TranscriptProblem::WrongType { field: "input", expected: "an array of items" })
                })?;
                let (messages, places) = read_items(&items)?;
                let mut fields: Vec<(String, Option<String>)> = Vec::new();
                for (name, value) in entries.0 {
                    if fields.iter().any(|(seen, _)| *seen == name) {
                        continue;
                    }
                    let value = (name != "input").then(|| value.get().to_owned());
                    fields.push((name, value));
                }
                Ok(Self { messages, fields: Some(fields), places })
            }
            _ => Err(at_top(TranscriptProblem::WrongType {
                field: "transcript",
                expected: "an object with `input` or an array of items",
            })),
        }
    }

    /// Write the transcript: unchanged items byte for byte, the rest afresh (see the module docs).
    ///
    /// # Errors
    ///
    /// A [`TranscriptError`] naming the message and part that has no form in
    /// the format: an opaque block of another provider (an Anthropic thinking
    /// block), a failed tool result (the format has no error flag), or an
    /// attachment given as base64.
    pub fn to_json(&self) -> Result<String, TranscriptError> {
        let items = write::items(&self.messages)?;
        let list = format!("[{}]", items.join(","));
        let Some(fields) = &self.fields else { return Ok(list) };
        let written: Vec<String> = fields
            .iter()
            .map(|(name, value)| match value {
                None => format!("\"input\":{list}"),
                Some(value) => format!("{}:{value}", raw::string(name)),
            })
            .collect();
        Ok(format!("{{{}}}", written.join(",")))
    }
}

/// Which message an item belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Its own user or system message.
    Own(Role),
    /// The assistant message of the current run.
    Assistant,
    /// The tool message of the current run of outputs.
    Tool,
}

/// The messages the items make, each with the place of its first item.
fn read_items(items: &[&RawValue]) -> Result<(Vec<Message>, Vec<Place>), TranscriptError> {
    // Each message with the raw items it was read from.
    let mut messages: Vec<(Message, Vec<&str>)> = Vec::new();
    let mut places = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let (side, parts) =
            item_parts(item).map_err(|problem| TranscriptError::new(Place::Item(index), problem))?;
        let role = match side {
            Side::Own(role) => role,
            Side::Assistant => Role::Assistant,
            Side::Tool => Role::Tool,
        };
        // Assistant-side items join the assistant message before them, outputs the tool message.
        let joins = matches!(side, Side::Assistant | Side::Tool);
        match messages.last_mut() {
            Some((message, raws)) if joins && message.role == role => {
                message.parts.extend(parts);
                raws.push(item.get());
            }
            _ => {
                messages.push((Message::new(role, parts), vec![item.get()]));
                places.push(Place::Item(index));
            }
        }
    }
    let messages = messages
        .into_iter()
        .map(|(message, raws)| message.with_origin(Origin::new(FORMAT, format!("[{}]", raws.join(",")))))
        .collect();
    Ok((messages, places))
}

/// The side an item belongs to and the parts it reads as.
fn item_parts(item: &RawValue) -> Result<(Side, Vec<Part>), TranscriptProblem> {
    let entries = raw::entries(item.get())
        .map_err(|_| TranscriptProblem::WrongType { field: "item", expected: "an object" })?;
    let kind: Option<String> = optional(&entries, "type", "a string")?;
    let opaque = |kind: &str| vec![Part::Opaque(OpaqueBlock::new(FORMAT, kind, item.get()))];
    Ok(match kind.as_deref() {
        None | Some("message") => message(&entries, item)?,
        Some("function_call") => {
            let id: String = required(&entries, "call_id", "a string")?;
            let name: String = required(&entries, "name", "a string")?;
            let arguments: String = required(&entries, "arguments", "a string")?;
            (Side::Assistant, vec![Part::ToolCall(ToolCall::with_raw_arguments(id, name, arguments))])
        }
        Some("function_call_output") => {
            let id: String = required(&entries, "call_id", "a string")?;
            let output = entries.get("output").ok_or(TranscriptProblem::Missing("output"))?;
            (Side::Tool, vec![Part::ToolResult(ToolResult::new(id, output_text(output)?))])
        }
        Some("reasoning") => {
            let sealed: Option<String> = optional(&entries, "encrypted_content", "a string")?;
            if sealed.is_some_and(|sealed| !raw::is_base64(&sealed)) {
                return Err(TranscriptProblem::NotBase64("encrypted_content"));
            }
            (Side::Assistant, opaque("reasoning"))
        }
        Some(other) => (Side::Assistant, opaque(other)),
    })
}

/// A message item: its role's side and its parts, or one opaque part when its content holds what tidemark does not model.
fn message(entries: &raw::Entries<'_>, item: &RawValue) -> Result<(Side, Vec<Part>), TranscriptProblem> {
    let role: String = required(entries, "role", "a string")?;
    let side = match role.as_str() {
        "user" => Side::Own(Role::User),
        "system" | "developer" => Side::Own(Role::System),
        "assistant" => Side::Assistant,
        _ => return Err(TranscriptProblem::UnknownRole(role)),
    };
    let content = entries.get("content").ok_or(TranscriptProblem::Missing("content"))?;
    if raw::first_char(content) == Some('"') {
        let text: String = serde_json::from_str(content.get()).map_err(|_| TranscriptProblem::WrongType {
            field: "content",
            expected: "a string or an array",
        })?;
        return Ok((side, vec![Part::text(text)]));
    }
    let parts = raw::elements(content.get())
        .map_err(|_| TranscriptProblem::WrongType { field: "content", expected: "a string or an array" })?;
    let mut read = Vec::with_capacity(parts.len());
    for part in parts {
        let part = raw::entries(part.get()).map_err(|_| TranscriptProblem::WrongType {
            field: "content",
            expected: "an array of objects",
        })?;
        let kind: String = required(&part, "type", "a string")?;
        match kind.as_str() {
            "input_text" | "output_text" => {
                read.push(Part::text(required::<String>(&part, "text", "a string")?))
            }
            "input_image" => match optional::<String>(&part, "image_url", "a string")? {
                Some(url) => read.push(Part::Attachment(Attachment::url(URL_IMAGE, url))),
                None => {
                    return Ok((side, vec![Part::Opaque(OpaqueBlock::new(FORMAT, "message", item.get()))]));
                }
            },
            _ => return Ok((side, vec![Part::Opaque(OpaqueBlock::new(FORMAT, "message", item.get()))])),
        }
    }
    Ok((side, read))
}

/// A call's output as text: the string, or the text parts of an array joined by newlines (the item keeps the rest).
fn output_text(output: &RawValue) -> Result<String, TranscriptProblem> {
    let wrong =
        || TranscriptProblem::WrongType { field: "output", expected: "a string or an array of parts" };
    match serde_json::from_str::<serde_json::Value>(output.get()).map_err(|_| wrong())? {
        serde_json::Value::String(text) => Ok(text),
        serde_json::Value::Array(parts) => Ok(parts
            .iter()
            .filter(|part| {
                matches!(part.get("type").and_then(|kind| kind.as_str()), Some("input_text" | "output_text"))
            })
            .filter_map(|part| part.get("text").and_then(|text| text.as_str()))
            .collect::<Vec<_>>()
            .join("\n")),
        _ => Err(wrong()),
    }
}

/// The media type given to an image read from a URL, which the format does not type.
pub(super) const URL_IMAGE: &str = "image/*";

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
    entries
        .get(field)
        .map(|value| serde_json::from_str::<Option<T>>(value.get()))
        .transpose()
        .map(Option::flatten)
        .map_err(|_| TranscriptProblem::WrongType { field, expected })
}

#[cfg(test)]
mod tests;

//! Conversion between tidemark messages and OpenAI's chat-completions message format, both ways.
//!
//! # The format
//!
//! Each message is an object with `role` (`system`, `developer`, `user`,
//! `assistant` or `tool`) and, depending on the role:
//!
//! - `content`: a string, an array of parts (`{"type":"text","text":…}`,
//!   `{"type":"image_url","image_url":{"url":…}}`, `{"type":"file","file":{"file_data"|"file_url":…}}`),
//!   or `null` for an assistant message that only calls tools;
//! - `name`: an optional participant name;
//! - `tool_calls` (assistant): `[{"id":…,"type":"function","function":{"name":…,"arguments":"<json text>"}}]`;
//! - `tool_call_id` (tool): the call the message answers.
//!
//! tidemark's model maps onto it directly, with three differences:
//!
//! - A tidemark tool message may hold several results; the wire format has one
//!   result per tool message, so it is written as several messages (and read
//!   back as several).
//! - Assistant text comes before tool calls on the wire.
//! - Two facts have no place in OpenAI's format: pinning and failed tool
//!   results. With [`WireOptions::transcript`] they are written as the extra
//!   fields `"pinned": true` and `"is_error": true` (and an attachment's
//!   `"media_type"` and `"source"`), which readers that do not know them ignore; requests to a
//!   provider use [`WireOptions::request`], which leaves them out.
//!
//! An assistant `content` of `null` means "no text"; an empty string is kept
//! as an empty text part, so both round-trip. Base64 attachments travel as
//! `data:` URLs. Unknown fields are ignored when reading; a missing or
//! mistyped required field is a [`WireError`] naming the message and field.

use serde_json::{Map, Value, json};
use tidemark_core::{Attachment, AttachmentSource, Message, Part, Role, ToolCall, ToolResult};

/// What to write besides OpenAI's own fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WireOptions {
    /// Whether tidemark's extra fields (`pinned`, `is_error`, `media_type`) are written.
    pub extensions: bool,
}

impl WireOptions {
    /// For a request to a provider: OpenAI's fields only.
    pub fn request() -> Self {
        Self { extensions: false }
    }

    /// For a transcript file: OpenAI's fields plus tidemark's extras, so that everything round-trips.
    pub fn transcript() -> Self {
        Self { extensions: true }
    }
}

/// What is wrong with one field of a wire message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireProblem {
    /// A required field is absent.
    #[error("missing")]
    Missing,
    /// A field has the wrong JSON type.
    #[error("expected {expected}")]
    WrongType {
        /// What was expected.
        expected: &'static str,
    },
    /// The role is not one tidemark knows.
    #[error("unknown role {0:?}")]
    UnknownRole(String),
    /// A content part has a type tidemark cannot represent.
    #[error("unsupported part type {0:?}")]
    UnknownPartType(String),
}

/// A wire message that cannot be read: which message, which field, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("messages[{index}]{}{field}: {problem}", if field.is_empty() { "" } else { "." })]
#[non_exhaustive]
pub struct WireError {
    /// The index of the message in the input.
    pub index: usize,
    /// The path of the field within the message, such as `tool_calls[0].function.name` (empty for the message itself).
    pub field: String,
    /// What is wrong.
    pub problem: WireProblem,
}

impl WireError {
    fn new(index: usize, field: impl Into<String>, problem: WireProblem) -> Self {
        Self { index, field: field.into(), problem }
    }

    /// The index of the message at fault.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// Write `messages` in the wire format, one value per wire message.
///
/// ```
/// use tidemark_core::{Message, ToolCall};
/// use tidemark_providers::wire::{WireOptions, from_wire, to_wire};
///
/// let history = vec![
///     Message::user("Read a.rs"),
///     Message::assistant_tool_calls([ToolCall::with_raw_arguments("c1", "read_file", r#"{"path":"a.rs"}"#)]),
///     Message::tool_result("c1", "fn main() {}"),
/// ];
/// let wire = to_wire(&history, WireOptions::request());
/// assert_eq!(wire[1]["tool_calls"][0]["function"]["name"], "read_file");
/// assert_eq!(wire[2]["tool_call_id"], "c1");
/// assert_eq!(from_wire(&wire)?, history);
/// # Ok::<(), tidemark_providers::wire::WireError>(())
/// ```
pub fn to_wire(messages: &[Message], options: WireOptions) -> Vec<Value> {
    messages.iter().flat_map(|message| message_to_wire(message, options)).collect()
}

/// Write one message; a tool message with several results gives several wire messages.
pub fn message_to_wire(message: &Message, options: WireOptions) -> Vec<Value> {
    if message.role == Role::Tool {
        return message
            .tool_results()
            .map(|result| {
                let mut object = Map::new();
                object.insert("role".into(), json!("tool"));
                object.insert("tool_call_id".into(), json!(result.call_id));
                object.insert("content".into(), json!(result.content));
                if let Some(name) = &message.name {
                    object.insert("name".into(), json!(name));
                }
                if options.extensions && result.is_error {
                    object.insert("is_error".into(), json!(true));
                }
                if options.extensions && message.pinned {
                    object.insert("pinned".into(), json!(true));
                }
                Value::Object(object)
            })
            .collect();
    }
    let mut object = Map::new();
    object.insert("role".into(), json!(message.role.as_str()));
    if let Some(name) = &message.name {
        object.insert("name".into(), json!(name));
    }
    let calls: Vec<Value> = message
        .tool_calls()
        .map(|call| json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}))
        .collect();
    let parts: Vec<&Part> = message.parts.iter().filter(|part| !matches!(part, Part::ToolCall(_))).collect();
    let content = match parts.as_slice() {
        [] if !calls.is_empty() => Value::Null,
        [] => json!(""),
        [Part::Text { text }] => json!(text),
        parts => Value::Array(parts.iter().map(|part| part_to_wire(part, options)).collect()),
    };
    object.insert("content".into(), content);
    if !calls.is_empty() {
        object.insert("tool_calls".into(), Value::Array(calls));
    }
    if options.extensions && message.pinned {
        object.insert("pinned".into(), json!(true));
    }
    vec![Value::Object(object)]
}

fn part_to_wire(part: &Part, options: WireOptions) -> Value {
    match part {
        Part::Text { text } => json!({"type": "text", "text": text}),
        Part::Attachment(attachment) => attachment_to_wire(attachment, options),
        // Results outside tool messages have no wire form; they travel as text
        // rather than vanish.
        Part::ToolResult(result) => {
            json!({"type": "text", "text": format!("[result of {}] {}", result.call_id, result.content)})
        }
        Part::ToolCall(call) => {
            json!({"type": "text", "text": format!("[call {} {}]", call.name, call.arguments)})
        }
        _ => json!({"type": "text", "text": ""}),
    }
}

fn attachment_to_wire(attachment: &Attachment, options: WireOptions) -> Value {
    let url = match &attachment.source {
        AttachmentSource::Url(url) => url.clone(),
        AttachmentSource::Base64(data) => format!("data:{};base64,{data}", attachment.media_type),
        _ => String::new(),
    };
    let mut part = if attachment.media_type.starts_with("image/") {
        json!({"type": "image_url", "image_url": {"url": url}})
    } else if url.starts_with("data:") {
        json!({"type": "file", "file": {"file_data": url}})
    } else {
        json!({"type": "file", "file": {"file_url": url}})
    };
    if options.extensions
        && let Some(object) = part.as_object_mut()
    {
        object.insert("media_type".into(), json!(attachment.media_type));
        // A URL that happens to be a data: URL must not come back as inline data.
        let source = if matches!(attachment.source, AttachmentSource::Base64(_)) { "base64" } else { "url" };
        object.insert("source".into(), json!(source));
    }
    part
}

/// Read wire messages.
///
/// # Errors
///
/// The first [`WireError`], naming the message index and the field.
pub fn from_wire(values: &[Value]) -> Result<Vec<Message>, WireError> {
    values.iter().enumerate().map(|(index, value)| message_from_wire(value, index)).collect()
}

/// Read the wire message `value`, found at `index` of its input (for error messages).
///
/// # Errors
///
/// A [`WireError`] naming the field that is missing or of the wrong type.
pub fn message_from_wire(value: &Value, index: usize) -> Result<Message, WireError> {
    let fail = |field: &str, problem| WireError::new(index, field, problem);
    let object =
        value.as_object().ok_or_else(|| fail("", WireProblem::WrongType { expected: "an object" }))?;
    let role = match object.get("role") {
        None | Some(Value::Null) => return Err(fail("role", WireProblem::Missing)),
        Some(Value::String(role)) => match role.as_str() {
            "system" | "developer" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            other => return Err(fail("role", WireProblem::UnknownRole(other.to_owned()))),
        },
        Some(_) => return Err(fail("role", WireProblem::WrongType { expected: "a string" })),
    };
    let name = optional_string(object, "name").map_err(|problem| fail("name", problem))?;
    let pinned = object.get("pinned").and_then(Value::as_bool).unwrap_or(false);
    let parts = if role == Role::Tool {
        let call_id = match optional_string(object, "tool_call_id").map_err(|p| fail("tool_call_id", p))? {
            Some(id) => id,
            None => return Err(fail("tool_call_id", WireProblem::Missing)),
        };
        let content = match object.get("content") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(parts)) => {
                let texts = content_parts(parts, index)?;
                texts.iter().map(part_text).collect::<Vec<_>>().join("")
            }
            Some(_) => {
                return Err(fail(
                    "content",
                    WireProblem::WrongType { expected: "a string, an array of parts or null" },
                ));
            }
        };
        let is_error = object.get("is_error").and_then(Value::as_bool).unwrap_or(false);
        let result =
            if is_error { ToolResult::error(call_id, content) } else { ToolResult::new(call_id, content) };
        vec![Part::ToolResult(result)]
    } else {
        let mut parts = match object.get("content") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(text)) => vec![Part::text(text.clone())],
            Some(Value::Array(parts)) => content_parts(parts, index)?,
            Some(_) => {
                return Err(fail(
                    "content",
                    WireProblem::WrongType { expected: "a string, an array of parts or null" },
                ));
            }
        };
        if role == Role::Assistant {
            parts.extend(tool_calls(object, index)?.into_iter().map(Part::ToolCall));
        }
        parts
    };
    let mut message = Message::new(role, parts);
    message.name = name;
    message.pinned = pinned;
    Ok(message)
}

fn part_text(part: &Part) -> String {
    match part {
        Part::Text { text } => text.clone(),
        _ => String::new(),
    }
}

fn optional_string(object: &Map<String, Value>, field: &str) -> Result<Option<String>, WireProblem> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(WireProblem::WrongType { expected: "a string" }),
    }
}

fn content_parts(parts: &[Value], index: usize) -> Result<Vec<Part>, WireError> {
    parts
        .iter()
        .enumerate()
        .map(|(position, part)| {
            let field = |inner: &str| format!("content[{position}]{inner}");
            let fail = |inner: &str, problem| WireError::new(index, field(inner), problem);
            let object =
                part.as_object().ok_or_else(|| fail("", WireProblem::WrongType { expected: "an object" }))?;
            let kind = match object.get("type") {
                Some(Value::String(kind)) => kind.as_str(),
                None => return Err(fail(".type", WireProblem::Missing)),
                Some(_) => return Err(fail(".type", WireProblem::WrongType { expected: "a string" })),
            };
            let media = object.get("media_type").and_then(Value::as_str);
            let as_url = object.get("source").and_then(Value::as_str) == Some("url");
            match kind {
                "text" | "input_text" | "output_text" | "refusal" => {
                    let key = if kind == "refusal" { "refusal" } else { "text" };
                    match object.get(key) {
                        Some(Value::String(text)) => Ok(Part::text(text.clone())),
                        None => Err(fail(&format!(".{key}"), WireProblem::Missing)),
                        Some(_) => {
                            Err(fail(&format!(".{key}"), WireProblem::WrongType { expected: "a string" }))
                        }
                    }
                }
                "image_url" => {
                    let url = match object.get("image_url") {
                        Some(Value::String(url)) => url.clone(),
                        Some(Value::Object(inner)) => match inner.get("url") {
                            Some(Value::String(url)) => url.clone(),
                            None => return Err(fail(".image_url.url", WireProblem::Missing)),
                            Some(_) => {
                                return Err(fail(
                                    ".image_url.url",
                                    WireProblem::WrongType { expected: "a string" },
                                ));
                            }
                        },
                        None => return Err(fail(".image_url", WireProblem::Missing)),
                        Some(_) => {
                            return Err(fail(".image_url", WireProblem::WrongType { expected: "an object" }));
                        }
                    };
                    Ok(Part::Attachment(attachment_from_url(&url, media.unwrap_or("image/*"), as_url)))
                }
                "file" => {
                    let inner = object
                        .get("file")
                        .and_then(Value::as_object)
                        .ok_or_else(|| fail(".file", WireProblem::Missing))?;
                    let url = inner
                        .get("file_data")
                        .or_else(|| inner.get("file_url"))
                        .and_then(Value::as_str)
                        .ok_or_else(|| fail(".file.file_data", WireProblem::Missing))?;
                    Ok(Part::Attachment(attachment_from_url(
                        url,
                        media.unwrap_or("application/octet-stream"),
                        as_url,
                    )))
                }
                other => Err(fail(".type", WireProblem::UnknownPartType(other.to_owned()))),
            }
        })
        .collect()
}

/// A `data:` URL becomes inline base64 data (with its media type), unless marked as a plain URL; any other URL stays a URL.
fn attachment_from_url(url: &str, media_type: &str, as_url: bool) -> Attachment {
    if !as_url
        && let Some(rest) = url.strip_prefix("data:")
        && let Some((header, data)) = rest.split_once(',')
        && let Some(media) = header.strip_suffix(";base64")
    {
        return Attachment::base64(media, data);
    }
    Attachment::url(media_type, url)
}

fn tool_calls(object: &Map<String, Value>, index: usize) -> Result<Vec<ToolCall>, WireError> {
    let calls = match object.get("tool_calls") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(calls)) => calls,
        Some(_) => {
            return Err(WireError::new(index, "tool_calls", WireProblem::WrongType { expected: "an array" }));
        }
    };
    calls
        .iter()
        .enumerate()
        .map(|(position, call)| {
            let fail = |inner: &str, problem| {
                WireError::new(index, format!("tool_calls[{position}]{inner}"), problem)
            };
            let call =
                call.as_object().ok_or_else(|| fail("", WireProblem::WrongType { expected: "an object" }))?;
            let id = match call.get("id") {
                Some(Value::String(id)) => id.clone(),
                None | Some(Value::Null) => return Err(fail(".id", WireProblem::Missing)),
                Some(_) => return Err(fail(".id", WireProblem::WrongType { expected: "a string" })),
            };
            let function = match call.get("function") {
                Some(Value::Object(function)) => function,
                None | Some(Value::Null) => return Err(fail(".function", WireProblem::Missing)),
                Some(_) => return Err(fail(".function", WireProblem::WrongType { expected: "an object" })),
            };
            let name = match function.get("name") {
                Some(Value::String(name)) => name.clone(),
                None | Some(Value::Null) => return Err(fail(".function.name", WireProblem::Missing)),
                Some(_) => {
                    return Err(fail(".function.name", WireProblem::WrongType { expected: "a string" }));
                }
            };
            let arguments = match function.get("arguments") {
                Some(Value::String(arguments)) => arguments.clone(),
                // Some servers send the arguments as an object; keep its JSON text.
                Some(value @ Value::Object(_)) => value.to_string(),
                None | Some(Value::Null) => return Err(fail(".function.arguments", WireProblem::Missing)),
                Some(_) => {
                    return Err(fail(".function.arguments", WireProblem::WrongType { expected: "a string" }));
                }
            };
            Ok(ToolCall::with_raw_arguments(id, name, arguments))
        })
        .collect()
}

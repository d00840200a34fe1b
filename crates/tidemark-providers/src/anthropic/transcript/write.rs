//! Writing a history in Anthropic's Messages format, copying every unchanged block from its origin.

use serde_json::value::RawValue;
use tidemark_core::{AttachmentSource, Message, Part, Role};

use super::{FORMAT, Layout, part_of};
use crate::error::{Place, TranscriptError, TranscriptProblem};
use crate::raw;

/// A message's content, ready to write.
enum Content {
    /// A JSON string (the message was one text written as a string).
    Text(String),
    /// Blocks, each as JSON text.
    Blocks(Vec<String>),
}

/// Write `messages` in `layout`.
pub(super) fn transcript(messages: &[Message], layout: &Layout) -> Result<String, TranscriptError> {
    let leading = messages.iter().take_while(|message| message.role == Role::System).count();
    let system = system(&messages[..leading])?;
    let turns = turns(messages, leading)?;
    let list = format!("[{}]", turns.join(","));
    let fields = match layout {
        Layout::Array if system.is_none() => return Ok(list),
        Layout::Array => vec![("system".to_owned(), None), ("messages".to_owned(), None)],
        Layout::Object(fields) => fields.clone(),
    };
    let mut written: Vec<String> = Vec::with_capacity(fields.len() + 1);
    let has_system = fields.iter().any(|(name, _)| name == "system");
    for (name, value) in &fields {
        match (name.as_str(), value) {
            ("system", _) => {
                if let Some(system) = &system {
                    written.push(format!("\"system\":{system}"));
                }
            }
            ("messages", _) => {
                if let (false, Some(system)) = (has_system, &system) {
                    written.push(format!("\"system\":{system}"));
                }
                written.push(format!("\"messages\":{list}"));
            }
            (_, Some(value)) => written.push(format!("{}:{value}", raw::string(name))),
            (_, None) => {}
        }
    }
    Ok(format!("{{{}}}", written.join(",")))
}

/// The `system` field for the leading system messages, if any.
fn system(messages: &[Message]) -> Result<Option<String>, TranscriptError> {
    let mut contents = Vec::with_capacity(messages.len());
    for (index, message) in messages.iter().enumerate() {
        for (number, part) in message.parts.iter().enumerate() {
            if !matches!(part, Part::Text { .. }) {
                return Err(TranscriptError::new(
                    Place::Part { message: index, part: number },
                    TranscriptProblem::Lossy { kind: part_kind(part), format: "an Anthropic system prompt" },
                ));
            }
        }
        contents.push(content(message, index)?);
    }
    Ok(match contents.as_slice() {
        [] => None,
        [Content::Text(text)] => Some(text.clone()),
        _ => Some(format!("[{}]", blocks(contents).join(","))),
    })
}

/// The turns after the leading system messages: consecutive user-side messages merged into one turn.
fn turns(messages: &[Message], start: usize) -> Result<Vec<String>, TranscriptError> {
    let mut turns = Vec::new();
    let mut user: Vec<(Content, bool)> = Vec::new();
    let flush = |user: &mut Vec<(Content, bool)>, turns: &mut Vec<String>| {
        if user.is_empty() {
            return;
        }
        let merged = std::mem::take(user);
        let body = match merged.as_slice() {
            [(Content::Text(text), _)] => text.clone(),
            _ => {
                // Tool results first, as the API requires of a user turn; otherwise in order.
                let (results, rest): (Vec<_>, Vec<_>) = merged.into_iter().partition(|(_, results)| *results);
                let all: Vec<Content> = results.into_iter().chain(rest).map(|(content, _)| content).collect();
                format!("[{}]", blocks(all).join(","))
            }
        };
        turns.push(format!("{{\"role\":\"user\",\"content\":{body}}}"));
    };
    for (index, message) in messages.iter().enumerate().skip(start) {
        let content = content(message, index)?;
        if message.role == Role::Assistant {
            flush(&mut user, &mut turns);
            let body = match content {
                Content::Text(text) => text,
                Content::Blocks(blocks) => format!("[{}]", blocks.join(",")),
            };
            turns.push(format!("{{\"role\":\"assistant\",\"content\":{body}}}"));
        } else {
            user.push((content, message.role == Role::Tool));
        }
    }
    flush(&mut user, &mut turns);
    Ok(turns)
}

/// Every content as blocks, strings becoming text blocks.
fn blocks(contents: Vec<Content>) -> Vec<String> {
    contents
        .into_iter()
        .flat_map(|content| match content {
            Content::Text(text) => vec![format!("{{\"type\":\"text\",\"text\":{text}}}")],
            Content::Blocks(blocks) => blocks,
        })
        .collect()
}

/// The content of one message: copied from its origin where the parts still read back the same.
fn content(message: &Message, index: usize) -> Result<Content, TranscriptError> {
    let origin =
        message.origin.as_ref().filter(|origin| origin.format == FORMAT).map(|origin| origin.raw.as_str());
    // One text stays a string unless it was read from an array: the API takes both.
    if let [Part::Text { text }] = message.parts.as_slice() {
        match origin {
            Some(raw) if serde_json::from_str::<String>(raw).is_ok_and(|old| old == *text) => {
                return Ok(Content::Text(raw.to_owned()));
            }
            Some(raw) if raw.trim_start().starts_with('[') => {}
            _ => return Ok(Content::Text(raw::string(text))),
        }
    }
    let origin_blocks = origin.and_then(|raw| raw::elements(raw).ok()).unwrap_or_default();
    let mut blocks = Vec::with_capacity(message.parts.len());
    for (number, part) in message.parts.iter().enumerate() {
        let old = origin_blocks.get(number).copied();
        let block = match old {
            Some(old) if part_of(old).is_ok_and(|read| read == *part) => old.get().to_owned(),
            _ => fresh(part, old).map_err(|problem| {
                TranscriptError::new(Place::Part { message: index, part: number }, problem)
            })?,
        };
        blocks.push(block);
    }
    Ok(Content::Blocks(blocks))
}

/// A block written afresh for `part`, keeping the `cache_control` of the block it replaces, if of the same type.
fn fresh(part: &Part, old: Option<&RawValue>) -> Result<String, TranscriptProblem> {
    let (kind, body) = match part {
        Part::Text { text } => ("text", format!("\"text\":{}", raw::string(text))),
        Part::ToolCall(call) => {
            if !raw::is_object(&call.arguments) {
                return Err(TranscriptProblem::ArgumentsNotObject(call.id.clone()));
            }
            let body = format!(
                "\"id\":{},\"name\":{},\"input\":{}",
                raw::string(&call.id),
                raw::string(&call.name),
                call.arguments
            );
            ("tool_use", body)
        }
        Part::ToolResult(result) => {
            let mut body = format!(
                "\"tool_use_id\":{},\"content\":{}",
                raw::string(&result.call_id),
                raw::string(&result.content)
            );
            if result.is_error {
                body.push_str(",\"is_error\":true");
            }
            ("tool_result", body)
        }
        Part::Attachment(attachment) => {
            let image = attachment.media_type.starts_with("image/");
            let source = match &attachment.source {
                AttachmentSource::Base64(data) => format!(
                    "{{\"type\":\"base64\",\"media_type\":{},\"data\":{}}}",
                    raw::string(&attachment.media_type),
                    raw::string(data)
                ),
                AttachmentSource::Url(url) => format!("{{\"type\":\"url\",\"url\":{}}}", raw::string(url)),
                _ => {
                    return Err(TranscriptProblem::Lossy {
                        kind: part_kind(part),
                        format: "Anthropic's format",
                    });
                }
            };
            (if image { "image" } else { "document" }, format!("\"source\":{source}"))
        }
        Part::Opaque(block) if block.provider == FORMAT => return Ok(block.raw.clone()),
        _ => return Err(TranscriptProblem::Lossy { kind: part_kind(part), format: "Anthropic's format" }),
    };
    let cache = old
        .and_then(|old| {
            raw::entries(old.get()).ok().map(|entries| (entries.get("type"), entries.get("cache_control")))
        })
        .and_then(|(old_kind, cache)| {
            let same = old_kind.is_some_and(|old_kind| old_kind.get() == raw::string(kind));
            cache.filter(|_| same)
        });
    Ok(match cache {
        Some(cache) => format!("{{\"type\":\"{kind}\",{body},\"cache_control\":{}}}", cache.get()),
        None => format!("{{\"type\":\"{kind}\",{body}}}"),
    })
}

/// An opaque block's `id`, as JSON text, when it has one (a Responses item does).
fn block_id(block: &tidemark_core::OpaqueBlock) -> Option<String> {
    raw::entries(&block.raw).ok().and_then(|entries| entries.get("id").map(|id| id.get().to_owned()))
}

/// A part's kind, as named in errors.
pub(crate) fn part_kind(part: &Part) -> String {
    match part {
        Part::Text { .. } => "a text part".into(),
        Part::ToolCall(_) => "a tool call".into(),
        Part::ToolResult(_) => "a tool result".into(),
        Part::Attachment(attachment) => format!("an attachment of type {}", attachment.media_type),
        Part::Opaque(block) => match block_id(block) {
            Some(id) => format!("the {} block {id} from {}", block.kind, block.provider),
            None => format!("the {} block from {}", block.kind, block.provider),
        },
        _ => "a part of an unknown kind".into(),
    }
}

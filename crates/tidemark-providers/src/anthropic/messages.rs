//! Tidemark messages to the Messages API's request shape: the system prompt apart, then alternating user and assistant turns of content blocks.

use serde_json::{Map, Value, json};
use tidemark_core::{
    Attachment, AttachmentSource, CompletionError, Message, Part, Role, ToolCall, ToolResult,
};

/// The request's `system` texts and `messages` turns for `history`.
///
/// System messages, wherever they are, go to the top-level `system` field,
/// one text each in order (none when there are none), since the API has no
/// system turns; the caller joins them or sends them as blocks. Tool
/// results travel in user turns. Consecutive messages
/// of the same side are merged into one turn, their blocks kept in order,
/// because the API wants the two sides to alternate. Participant names have
/// no place in the API and are left out; blank text blocks, which the API
/// rejects, are too, and so is a turn left with no blocks.
///
/// # Errors
///
/// [`CompletionError::BadRequest`] for a tool call whose arguments are not a
/// JSON object, which the API's `input` must be.
pub(crate) fn to_messages(history: &[Message]) -> Result<(Vec<String>, Vec<Value>), CompletionError> {
    let mut system: Vec<String> = Vec::new();
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for message in history {
        let side = match message.role {
            Role::System => {
                // One text per text part: a summary grown by segments keeps its earlier
                // segments as blocks of their own, which a cache breakpoint can end at.
                let texts = message.parts.iter().filter_map(|part| match part {
                    Part::Text { text } if !text.trim().is_empty() => Some(text.clone()),
                    _ => None,
                });
                system.extend(texts);
                continue;
            }
            Role::Assistant => "assistant",
            // User and tool messages, and any role added later, speak for the user's side.
            _ => "user",
        };
        let mut blocks = Vec::with_capacity(message.parts.len());
        for part in &message.parts {
            if let Some(block) = block(part)? {
                blocks.push(block);
            }
        }
        match turns.last_mut() {
            Some((last, content)) if *last == side => content.extend(blocks),
            _ => turns.push((side, blocks)),
        }
    }
    let messages = turns
        .into_iter()
        .filter(|(_, content)| !content.is_empty())
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    Ok((system, messages))
}

/// The content block of one part, or none for a blank text.
fn block(part: &Part) -> Result<Option<Value>, CompletionError> {
    Ok(Some(match part {
        Part::Text { text } if text.trim().is_empty() => return Ok(None),
        Part::Text { text } => json!({"type": "text", "text": text}),
        Part::ToolCall(call) => tool_use(call)?,
        Part::ToolResult(result) => tool_result(result),
        Part::Attachment(attachment) => attachment_block(attachment),
        // Claude's own blocks go back as they came: a thinking block's
        // signature must reach the API unchanged when tool use continues.
        Part::Opaque(block) if block.provider == super::transcript::FORMAT => {
            serde_json::from_str(&block.raw).map_err(|_| CompletionError::BadRequest {
                message: format!("a {} block is not JSON, so it cannot be sent", block.kind),
            })?
        }
        // Another provider's blocks (Responses reasoning) mean nothing to Claude, and a
        // part kind added to core later has no block here until this module learns it.
        _ => return Ok(None),
    }))
}

fn tool_use(call: &ToolCall) -> Result<Value, CompletionError> {
    // A call without arguments is often written as an empty string; the API wants an empty object.
    let input = if call.arguments.trim().is_empty() {
        Value::Object(Map::new())
    } else {
        call.parsed_arguments().map_err(|error| CompletionError::BadRequest {
            message: format!(
                "tool call {:?} ({}) has arguments that are not JSON ({}), so they cannot be sent as its input",
                call.id,
                call.name,
                std::error::Error::source(&error).map_or_else(|| error.to_string(), ToString::to_string)
            ),
        })?
    };
    if !input.is_object() {
        return Err(CompletionError::BadRequest {
            message: format!(
                "tool call {:?} ({}) has arguments that are JSON but not an object, which its input must be",
                call.id, call.name
            ),
        });
    }
    Ok(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}))
}

fn tool_result(result: &ToolResult) -> Value {
    let mut block = json!({"type": "tool_result", "tool_use_id": result.call_id, "content": result.content});
    if result.is_error
        && let Some(object) = block.as_object_mut()
    {
        object.insert("is_error".into(), Value::Bool(true));
    }
    block
}

/// An image block for image media types, a document block for the rest (PDFs, plain text).
fn attachment_block(attachment: &Attachment) -> Value {
    let kind = if attachment.media_type.starts_with("image/") { "image" } else { "document" };
    let source = match &attachment.source {
        AttachmentSource::Base64(data) => {
            json!({"type": "base64", "media_type": attachment.media_type, "data": data})
        }
        AttachmentSource::Url(url) => json!({"type": "url", "url": url}),
        // A source kind added to core later: its media type is all there is to say.
        _ => return json!({"type": "text", "text": format!("[attachment: {}]", attachment.media_type)}),
    };
    json!({"type": kind, "source": source})
}

#[cfg(test)]
mod tests {
    use tidemark_core::OpaqueBlock;

    use super::*;

    fn convert(history: &[Message]) -> (Option<String>, Value) {
        let (system, messages) = to_messages(history).expect("converts");
        ((!system.is_empty()).then(|| system.join("\n\n")), Value::Array(messages))
    }

    #[test]
    fn each_text_part_of_a_system_message_is_a_system_text_of_its_own() {
        let segmented = Message::new(
            Role::System,
            vec![Part::text("First segment."), Part::text(" "), Part::text("Second.")],
        );
        let (system, _) = to_messages(&[segmented, Message::user("hi")]).expect("converts");
        assert_eq!(system, ["First segment.", "Second."]);
    }

    #[test]
    fn system_messages_are_joined_apart_from_the_turns() {
        let (system, messages) =
            convert(&[Message::system("Be brief."), Message::user("hi"), Message::system("Use English.")]);
        assert_eq!(system.as_deref(), Some("Be brief.\n\nUse English."));
        assert_eq!(messages, json!([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]));
        assert_eq!(convert(&[Message::user("hi")]).0, None);
    }

    #[test]
    fn same_side_messages_merge_and_empty_ones_vanish() {
        let (_, messages) = convert(&[
            Message::user("one"),
            Message::user(""),
            Message::user(" \n "),
            Message::user("two").with_name("ana"),
            Message::assistant("three"),
            Message::assistant("four"),
        ]);
        assert_eq!(
            messages,
            json!([
                {"role": "user", "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]},
                {"role": "assistant", "content": [{"type": "text", "text": "three"}, {"type": "text", "text": "four"}]}
            ])
        );
    }

    #[test]
    fn attachments_become_images_or_documents() {
        let (_, messages) = convert(&[Message::user("see")
            .with_part(Part::Attachment(Attachment::base64("image/png", "iVBO")))
            .with_part(Part::Attachment(Attachment::url("application/pdf", "https://h/a.pdf")))]);
        assert_eq!(
            messages[0]["content"],
            json!([
                {"type": "text", "text": "see"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}},
                {"type": "document", "source": {"type": "url", "url": "https://h/a.pdf"}}
            ])
        );
    }

    #[test]
    fn claude_blocks_are_sent_as_they_came_and_other_providers_blocks_left_out() {
        let thinking = r#"{"type":"thinking","thinking":"Check the log.","signature":"c2lnbmVk"}"#;
        let (_, messages) = convert(&[Message::new(
            Role::Assistant,
            vec![
                Part::Opaque(OpaqueBlock::new("anthropic", "thinking", thinking)),
                Part::Opaque(OpaqueBlock::new("responses", "reasoning", r#"{"type":"reasoning"}"#)),
                Part::text("Reading it."),
            ],
        )]);
        let expected: Value = serde_json::from_str(thinking).expect("JSON");
        assert_eq!(messages[0]["content"], json!([expected, {"type": "text", "text": "Reading it."}]));
        let broken =
            Message::new(Role::Assistant, vec![Part::Opaque(OpaqueBlock::new("anthropic", "thinking", "{"))]);
        assert!(matches!(to_messages(&[broken]), Err(CompletionError::BadRequest { .. })));
    }

    #[test]
    fn tool_arguments_must_be_a_json_object() {
        let call = |arguments: &str| {
            to_messages(&[Message::assistant_tool_calls([ToolCall::with_raw_arguments(
                "call_1", "read", arguments,
            )])])
        };
        let (_, messages) = call("  ").expect("no arguments is an empty object");
        assert_eq!(messages[0]["content"][0]["input"], json!({}));
        for bad in [r#"{"path": "a.rs""#, "[1, 2]", "\"a.rs\""] {
            let error = call(bad).expect_err(bad);
            assert!(
                matches!(&error, CompletionError::BadRequest { message } if message.contains("call_1") && message.contains("read")),
                "{bad}: {error:?}"
            );
        }
    }
}

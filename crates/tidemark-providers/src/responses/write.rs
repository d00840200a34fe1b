//! Writing a history as Responses input items, copying every unchanged item from its origin.

use std::ops::Range;

use serde_json::value::RawValue;
use tidemark_core::{AttachmentSource, Message, Part, Role};

use super::{FORMAT, item_parts};
use crate::anthropic::transcript::part_kind;
use crate::error::{Place, TranscriptError, TranscriptProblem};
use crate::raw;

/// Every message's items, in order.
pub(super) fn items(messages: &[Message]) -> Result<Vec<String>, TranscriptError> {
    let mut out = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let origin: Vec<&RawValue> = message
            .origin
            .as_ref()
            .filter(|origin| origin.format == FORMAT)
            .and_then(|origin| raw::elements(&origin.raw).ok())
            .unwrap_or_default();
        let parts = &message.parts;
        let (mut part, mut item) = (0, 0);
        while part < parts.len() || item < origin.len() {
            let Some(old) = origin.get(item) else {
                fresh(message, index, part..parts.len(), &mut out)?;
                break;
            };
            item += 1;
            let Ok((_, read)) = item_parts(old) else { continue };
            if parts.get(part..part + read.len()) == Some(read.as_slice()) {
                out.push(old.get().to_owned());
                part += read.len();
                continue;
            }
            // Changed: the parts the item stood for (what is left of them) are written afresh.
            let end = (part + read.len()).min(parts.len());
            fresh(message, index, part..end, &mut out)?;
            part = end;
        }
    }
    Ok(out)
}

/// Write the parts `range` of `message` as new items.
fn fresh(
    message: &Message,
    index: usize,
    range: Range<usize>,
    out: &mut Vec<String>,
) -> Result<(), TranscriptError> {
    let whole = range.start == 0 && range.end == message.parts.len();
    let mut content: Vec<String> = Vec::new();
    let role = match message.role {
        Role::Assistant => "assistant",
        Role::System => "system",
        _ => "user",
    };
    let flush = |content: &mut Vec<String>, out: &mut Vec<String>| {
        if !content.is_empty() {
            out.push(format!(
                "{{\"type\":\"message\",\"role\":\"{role}\",\"content\":[{}]}}",
                content.join(",")
            ));
            content.clear();
        }
    };
    for number in range {
        let Some(part) = message.parts.get(number) else { break };
        let lossy = |kind: String| {
            TranscriptError::new(
                Place::Part { message: index, part: number },
                TranscriptProblem::Lossy { kind, format: "OpenAI's Responses format" },
            )
        };
        match (part, message.role) {
            (Part::Text { text }, Role::Assistant) => content.push(format!(
                "{{\"type\":\"output_text\",\"text\":{},\"annotations\":[]}}",
                raw::string(text)
            )),
            (Part::Text { text }, Role::User | Role::System) if whole && message.parts.len() == 1 => {
                out.push(format!(
                    "{{\"type\":\"message\",\"role\":\"{role}\",\"content\":{}}}",
                    raw::string(text)
                ));
            }
            (Part::Text { text }, Role::User | Role::System) => {
                content.push(format!("{{\"type\":\"input_text\",\"text\":{}}}", raw::string(text)));
            }
            (Part::Attachment(attachment), Role::User | Role::System)
                if attachment.media_type.starts_with("image/") =>
            {
                let AttachmentSource::Url(url) = &attachment.source else {
                    return Err(lossy("a base64 attachment".into()));
                };
                content.push(format!(
                    "{{\"type\":\"input_image\",\"image_url\":{},\"detail\":\"auto\"}}",
                    raw::string(url)
                ));
            }
            (Part::ToolCall(call), Role::Assistant) => {
                flush(&mut content, out);
                out.push(format!(
                    "{{\"type\":\"function_call\",\"call_id\":{},\"name\":{},\"arguments\":{}}}",
                    raw::string(&call.id),
                    raw::string(&call.name),
                    raw::string(&call.arguments)
                ));
            }
            (Part::ToolResult(result), Role::Tool) if !result.is_error => {
                out.push(format!(
                    "{{\"type\":\"function_call_output\",\"call_id\":{},\"output\":{}}}",
                    raw::string(&result.call_id),
                    raw::string(&result.content)
                ));
            }
            (Part::ToolResult(_), Role::Tool) => return Err(lossy("a failed tool result".into())),
            (Part::Opaque(block), _) if block.provider == FORMAT => {
                flush(&mut content, out);
                out.push(block.raw.clone());
            }
            _ => return Err(lossy(part_kind(part))),
        }
    }
    flush(&mut content, out);
    Ok(())
}

//! Conversion between rig's [`Message`](RigMessage) and tidemark's [`Message`], lossless for everything rig writes.
//!
//! | rig | tidemark |
//! | --- | --- |
//! | `System { content }` | a system message of that text |
//! | `User` text | [`Part::Text`] in a user message |
//! | `User` tool results | [`Part::ToolResult`] in a tool message (a user message whose results come first becomes a tool message and a user message) |
//! | image, document or audio from a URL or base64, of a media type both name | [`Part::Attachment`] (a document of no stated type: an empty media type) |
//! | reasoning, video, other images, documents and audio, opaque blocks | [`Part::Opaque`] of provider [`RIG`], the item's JSON kept byte for byte |
//! | `Assistant` text and tool calls | [`Part::Text`] and [`Part::ToolCall`] |
//!
//! What tidemark's parts have no room for (call id kinds, tool names on
//! results, citations, provider-native items, stop reasons, image detail,
//! structured tool output) travels in the message's [`Origin`] of format
//! [`RIG`]: the rig message's own JSON. On the way back, a message whose parts
//! are still those its origin gives is restored from the origin exactly; a
//! message tidemark wrote or changed (a summary, a cleared tool output) is
//! built from its parts, and a tool result takes its tool's name from the call
//! it answers.
//!
//! ```
//! use rig_core::completion::Message as RigMessage;
//! use tidemark_rig::{to_rig, to_tidemark};
//!
//! let history = vec![RigMessage::user("Where do we deploy?"), RigMessage::assistant("To Frankfurt.")];
//! let stored = to_tidemark(&history)?;
//! assert_eq!(stored[1].text(), "To Frankfurt.");
//! assert_eq!(to_rig(&stored)?, history);
//! # Ok::<(), tidemark_rig::ConvertError>(())
//! ```

use std::collections::HashMap;

use rig_core::completion::message::{
    AssistantContent, AssistantMessage, Audio, AudioMediaType, CallId, Document, DocumentMediaType,
    DocumentSourceKind, Image, ImageMediaType, Message as RigMessage, Text, ToolCall as RigToolCall,
    ToolFunction, ToolName, ToolResult as RigToolResult, ToolResultContent, UserContent,
};
use tidemark_core::{
    Attachment, AttachmentSource, Message, OpaqueBlock, Origin, Part, Role, ToolCall, ToolResult,
};

/// The name of rig's format: the [`Origin::format`] and [`OpaqueBlock::provider`] this crate writes and reads.
pub const RIG: &str = "rig";

/// Why a history could not be converted; it names the message (by its place in the history) and the part.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// A rig message has content tidemark cannot keep in its place.
    #[error("rig message {index}: {part} {reason}")]
    FromRig {
        /// The message's place in the converted history.
        index: usize,
        /// The part, such as `"tool result 2"`.
        part: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A tidemark message has content rig has no place for.
    #[error("tidemark message {index}: {part} {reason}")]
    ToRig {
        /// The message's place in the converted history.
        index: usize,
        /// The part, such as `"part 1 (an anthropic thinking block)"`.
        part: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A rig item could not be written or read as JSON.
    #[error("message {index}: rig's JSON for {part}: {source}")]
    Json {
        /// The message's place in the converted history.
        index: usize,
        /// The part, such as `"the message"` or `"part 3"`.
        part: String,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
}

/// rig messages as tidemark messages, in order (a rig user message whose tool results come before other content gives two).
///
/// # Errors
///
/// [`ConvertError::FromRig`] for a user message with a tool result after
/// other content (tidemark keeps a turn's results in a tool message of their
/// own), [`ConvertError::Json`] if an item cannot be written as JSON.
pub fn to_tidemark(history: &[RigMessage]) -> Result<Vec<Message>, ConvertError> {
    let mut out = Vec::with_capacity(history.len());
    for (index, message) in history.iter().enumerate() {
        let plain = plain(index, message)?;
        // Without names: a tool result's tool name is not among tidemark's parts, so such a message keeps its origin.
        let exact = match rebuild(index, &plain, &HashMap::new()) {
            Ok(rebuilt) => rebuilt.len() == 1 && rebuilt.first() == Some(message),
            Err(_) => false,
        };
        if exact {
            out.extend(plain);
        } else {
            let raw = serde_json::to_string(message).map_err(|source| ConvertError::Json {
                index,
                part: "the message".into(),
                source,
            })?;
            out.extend(plain.into_iter().map(|m| m.with_origin(Origin::new(RIG, raw.clone()))));
        }
    }
    Ok(out)
}

/// tidemark messages as rig messages, in order: each restored from its rig origin while its parts are unchanged, built from its parts otherwise.
///
/// A message's participant name and pin have no place in rig and are not
/// carried.
///
/// # Errors
///
/// [`ConvertError::ToRig`] for content rig has no place for: another
/// provider's opaque block, a tool call outside an assistant message,
/// non-text content in a system message, a tool result whose call is not in
/// the history, an empty tool name.
pub fn to_rig(history: &[Message]) -> Result<Vec<RigMessage>, ConvertError> {
    let names: HashMap<&str, &str> = history
        .iter()
        .flat_map(Message::tool_calls)
        .map(|call| (call.id.as_str(), call.name.as_str()))
        .collect();
    let mut out = Vec::with_capacity(history.len());
    let mut index = 0;
    while let Some(message) = history.get(index) {
        if let Some((original, span)) = restore(index, history) {
            out.push(original);
            index += span;
            continue;
        }
        out.extend(rebuild(index, std::slice::from_ref(message), &names)?);
        index += 1;
    }
    Ok(out)
}

/// The rig message kept in `history[index]`'s origin, and how many tidemark messages it stands for, when those still hold exactly what it gives.
fn restore(index: usize, history: &[Message]) -> Option<(RigMessage, usize)> {
    let origin = history.get(index)?.origin.as_ref().filter(|origin| origin.format == RIG)?;
    let original: RigMessage = serde_json::from_str(&origin.raw).ok()?;
    let plain = plain(index, &original).ok()?;
    let held = history.get(index..index + plain.len())?;
    let same = plain.iter().zip(held).all(|(want, have)| {
        want.role == have.role
            && want.parts == have.parts
            && have.origin.as_ref().is_some_and(|o| o.format == RIG && o.raw == origin.raw)
    });
    same.then_some((original, plain.len()))
}

/// The parts of a rig message, without its origin.
fn plain(index: usize, message: &RigMessage) -> Result<Vec<Message>, ConvertError> {
    match message {
        RigMessage::System { content } => Ok(vec![Message::system(content.clone())]),
        RigMessage::User { content } => {
            let results = content.iter().take_while(|c| matches!(c, UserContent::ToolResult(_))).count();
            let (leading, rest) = content.split_at(results);
            if let Some(late) = rest.iter().position(|c| matches!(c, UserContent::ToolResult(_))) {
                return Err(ConvertError::FromRig {
                    index,
                    part: format!("content item {}", results + late),
                    reason: "is a tool result after other content; tidemark keeps a turn's results together before the rest",
                });
            }
            let mut out = Vec::with_capacity(2);
            if !leading.is_empty() {
                let parts = leading.iter().filter_map(|c| match c {
                    UserContent::ToolResult(result) => Some(Part::ToolResult(tool_result(result))),
                    _ => None,
                });
                out.push(Message::new(Role::Tool, parts.collect()));
            }
            if !rest.is_empty() || leading.is_empty() {
                let parts = rest.iter().enumerate().map(|(i, c)| user_part(index, results + i, c));
                out.push(Message::new(Role::User, parts.collect::<Result<_, _>>()?));
            }
            Ok(out)
        }
        RigMessage::Assistant(assistant) => {
            let parts = assistant.content.iter().enumerate().map(|(i, c)| assistant_part(index, i, c));
            Ok(vec![Message::new(Role::Assistant, parts.collect::<Result<_, _>>()?)])
        }
    }
}

fn tool_result(result: &RigToolResult) -> ToolResult {
    let content = result
        .content
        .iter()
        .map(|item| match item {
            ToolResultContent::Text(text) => text.text.clone(),
            ToolResultContent::Json { value } => value.to_string(),
            ToolResultContent::Image(_) => "[image]".to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = ToolResult::new(result.call.wire(), content);
    out.is_error = result.is_error;
    out
}

fn user_part(index: usize, at: usize, item: &UserContent) -> Result<Part, ConvertError> {
    match item {
        UserContent::Text(text) => Ok(Part::text(text.text.clone())),
        UserContent::Image(image) => match image_attachment(image) {
            Some(attachment) => Ok(Part::Attachment(attachment)),
            None => opaque(index, at, item),
        },
        UserContent::Document(document) => match document_attachment(document) {
            Some(attachment) => Ok(Part::Attachment(attachment)),
            None => opaque(index, at, item),
        },
        UserContent::Audio(audio) => match audio_attachment(audio) {
            Some(attachment) => Ok(Part::Attachment(attachment)),
            None => opaque(index, at, item),
        },
        _ => opaque(index, at, item),
    }
}

fn assistant_part(index: usize, at: usize, item: &AssistantContent) -> Result<Part, ConvertError> {
    match item {
        AssistantContent::Text(text) => Ok(Part::text(text.text.clone())),
        AssistantContent::ToolCall(call) => {
            let arguments =
                call.function.invalid_arguments.clone().unwrap_or_else(|| {
                    serde_json::Value::Object(call.function.arguments.clone()).to_string()
                });
            Ok(Part::ToolCall(ToolCall::with_raw_arguments(
                call.id.wire(),
                call.function.name.as_str(),
                arguments,
            )))
        }
        AssistantContent::Image(image) => match image_attachment(image) {
            Some(attachment) => Ok(Part::Attachment(attachment)),
            None => opaque(index, at, item),
        },
        _ => opaque(index, at, item),
    }
}

/// An item tidemark carries without reading it: its JSON, under its own `type`.
fn opaque(index: usize, at: usize, item: &impl serde::Serialize) -> Result<Part, ConvertError> {
    let json = |source| ConvertError::Json { index, part: format!("content item {at}"), source };
    let value = serde_json::to_value(item).map_err(json)?;
    let kind = value.get("type").and_then(serde_json::Value::as_str).unwrap_or("item").to_owned();
    let raw = serde_json::to_string(&value).map_err(json)?;
    Ok(Part::Opaque(OpaqueBlock::new(RIG, kind, raw)))
}

/// An attachment of type `mime` from rig's source, when the source is a URL or base64 data.
fn attachment(mime: &str, data: &DocumentSourceKind) -> Option<Attachment> {
    match data {
        DocumentSourceKind::Url(url) => Some(Attachment::url(mime, url.clone())),
        DocumentSourceKind::Base64(data) => Some(Attachment::base64(mime, data.clone())),
        _ => None,
    }
}

const DOCUMENTS: [(&str, DocumentMediaType); 10] = [
    ("application/pdf", DocumentMediaType::PDF),
    ("text/plain", DocumentMediaType::TXT),
    ("application/rtf", DocumentMediaType::RTF),
    ("text/html", DocumentMediaType::HTML),
    ("text/css", DocumentMediaType::CSS),
    ("text/markdown", DocumentMediaType::MARKDOWN),
    ("text/csv", DocumentMediaType::CSV),
    ("application/xml", DocumentMediaType::XML),
    ("text/javascript", DocumentMediaType::Javascript),
    ("text/x-python", DocumentMediaType::Python),
];

const AUDIO: [(&str, AudioMediaType); 7] = [
    ("audio/wav", AudioMediaType::WAV),
    ("audio/mpeg", AudioMediaType::MP3),
    ("audio/aiff", AudioMediaType::AIFF),
    ("audio/aac", AudioMediaType::AAC),
    ("audio/ogg", AudioMediaType::OGG),
    ("audio/flac", AudioMediaType::FLAC),
    ("audio/mp4", AudioMediaType::M4A),
];

const IMAGES: [(&str, ImageMediaType); 7] = [
    ("image/jpeg", ImageMediaType::JPEG),
    ("image/png", ImageMediaType::PNG),
    ("image/gif", ImageMediaType::GIF),
    ("image/webp", ImageMediaType::WEBP),
    ("image/heic", ImageMediaType::HEIC),
    ("image/heif", ImageMediaType::HEIF),
    ("image/svg+xml", ImageMediaType::SVG),
];

fn image_attachment(image: &Image) -> Option<Attachment> {
    let media = image.media_type.as_ref()?;
    let (mime, _) = IMAGES.iter().find(|(_, kind)| kind == media)?;
    attachment(mime, &image.data)
}

fn document_attachment(document: &Document) -> Option<Attachment> {
    // A document of no stated type is tidemark's attachment of unknown type (an empty media type).
    let mime = match &document.media_type {
        None => "",
        Some(media) => DOCUMENTS.iter().find(|(_, kind)| kind == media)?.0,
    };
    attachment(mime, &document.data)
}

fn audio_attachment(audio: &Audio) -> Option<Attachment> {
    let media = audio.media_type.as_ref()?;
    let (mime, _) = AUDIO.iter().find(|(_, kind)| kind == media)?;
    attachment(mime, &audio.data)
}

/// rig messages built from tidemark messages' parts alone (a tool message gives a user message of its results).
fn rebuild(
    first: usize,
    messages: &[Message],
    names: &HashMap<&str, &str>,
) -> Result<Vec<RigMessage>, ConvertError> {
    messages
        .iter()
        .enumerate()
        .map(|(offset, message)| {
            let index = first + offset;
            let refuse = |at: usize, part: &Part, reason| ConvertError::ToRig { index, part: describe(at, part), reason };
            match message.role {
                Role::System => {
                    let mut text = String::new();
                    for (at, part) in message.parts.iter().enumerate() {
                        match part {
                            Part::Text { text: piece } => text.push_str(piece),
                            other => return Err(refuse(at, other, "cannot be in a rig system message, which holds text only")),
                        }
                    }
                    Ok(RigMessage::System { content: text })
                }
                Role::User | Role::Tool => {
                    let content = message.parts.iter().enumerate().map(|(at, part)| match part {
                        Part::Text { text } => Ok(UserContent::Text(Text::new(text.clone()))),
                        Part::ToolResult(result) => {
                            let Some(name) = names.get(result.call_id.as_str()) else {
                                return Err(refuse(at, part, "answers a call that is not in the history, so its tool's name is unknown"));
                            };
                            let name = ToolName::new(*name).map_err(|_| refuse(at, part, "answers a call with an empty tool name"))?;
                            Ok(UserContent::ToolResult(RigToolResult {
                                call: CallId::from_wire(result.call_id.clone()),
                                name,
                                content: vec![ToolResultContent::Text(Text::new(result.content.clone()))],
                                is_error: result.is_error,
                            }))
                        }
                        Part::Attachment(attachment) => match rig_attachment(attachment) {
                            Some(Media::Image(image)) => Ok(UserContent::Image(image)),
                            Some(Media::Document(document)) => Ok(UserContent::Document(document)),
                            Some(Media::Audio(audio)) => Ok(UserContent::Audio(audio)),
                            None => Err(refuse(at, part, "is of a media type rig has no kind for")),
                        },
                        Part::Opaque(block) if block.provider == RIG => serde_json::from_str(&block.raw)
                            .map_err(|source| ConvertError::Json { index, part: format!("part {at}"), source }),
                        other => Err(refuse(at, other, "has no place in a rig user message")),
                    });
                    Ok(RigMessage::User { content: content.collect::<Result<_, _>>()? })
                }
                Role::Assistant => {
                    let content = message.parts.iter().enumerate().map(|(at, part)| match part {
                        Part::Text { text } => Ok(AssistantContent::Text(Text::new(text.clone()))),
                        Part::ToolCall(call) => {
                            let name = ToolName::new(call.name.clone())
                                .map_err(|_| refuse(at, part, "has an empty tool name, which rig refuses"))?;
                            Ok(AssistantContent::ToolCall(RigToolCall::from_wire(call.id.clone(), ToolFunction::parse(name, &call.arguments))))
                        }
                        Part::Attachment(attachment) => match rig_attachment(attachment) {
                            Some(Media::Image(image)) => Ok(AssistantContent::Image(image)),
                            Some(Media::Document(_) | Media::Audio(_)) => {
                                Err(refuse(at, part, "is not an image, the only attachment a rig assistant message holds"))
                            }
                            None => Err(refuse(at, part, "is of a media type rig has no kind for")),
                        },
                        Part::Opaque(block) if block.provider == RIG => serde_json::from_str(&block.raw)
                            .map_err(|source| ConvertError::Json { index, part: format!("part {at}"), source }),
                        other => Err(refuse(at, other, "has no place in a rig assistant message")),
                    });
                    Ok(RigMessage::Assistant(AssistantMessage::new(content.collect::<Result<_, _>>()?)))
                }
                _ => Err(ConvertError::ToRig { index, part: "the message".into(), reason: "has a role rig does not know" }),
            }
        })
        .collect()
}

/// How an error names a tidemark part.
fn describe(at: usize, part: &Part) -> String {
    let what = match part {
        Part::Text { .. } => "text".to_owned(),
        Part::ToolCall(call) => format!("a call of {}", call.name),
        Part::ToolResult(result) => format!("the result of call {}", result.call_id),
        Part::Attachment(attachment) => format!("an attachment ({})", attachment.media_type),
        Part::Opaque(block) => format!("{} block of {}", block.kind, block.provider),
        _ => "an unknown part".to_owned(),
    };
    format!("part {at} ({what})")
}

enum Media {
    Image(Image),
    Document(Document),
    Audio(Audio),
}

/// rig's image, document or audio for an attachment of a media type rig names (a document of no stated type for an empty one).
fn rig_attachment(attachment: &Attachment) -> Option<Media> {
    let data = match &attachment.source {
        AttachmentSource::Base64(data) => DocumentSourceKind::Base64(data.clone()),
        AttachmentSource::Url(url) => DocumentSourceKind::Url(url.clone()),
        _ => return None,
    };
    let mime = attachment.media_type.to_ascii_lowercase();
    if mime.is_empty() {
        return Some(Media::Document(Document { data, media_type: None, additional_params: None }));
    }
    if let Some((_, kind)) = IMAGES.iter().find(|(known, _)| *known == mime) {
        return Some(Media::Image(Image { data, media_type: Some(kind.clone()), ..Image::default() }));
    }
    if let Some((_, kind)) = DOCUMENTS.iter().find(|(known, _)| *known == mime) {
        return Some(Media::Document(Document {
            data,
            media_type: Some(kind.clone()),
            additional_params: None,
        }));
    }
    let (_, kind) = AUDIO.iter().find(|(known, _)| *known == mime)?;
    Some(Media::Audio(Audio { data, media_type: Some(kind.clone()) }))
}

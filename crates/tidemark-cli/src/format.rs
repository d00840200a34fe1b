//! Transcript formats: detecting which one an input is in, writing a history back in it, and refusing conversions that would lose a block.

use serde_json::Value;
use tidemark_core::{Message, Part, Role};
use tidemark_providers::anthropic::{self, ClaudeTranscript};
use tidemark_providers::responses::{self, ResponsesTranscript};

use crate::args::FormatChoice;
use crate::error::CliError;
use crate::input;

/// A transcript format, decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// OpenAI chat completions.
    Openai,
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses items.
    Responses,
    /// A Claude Code session file: read as Anthropic Messages, written as an Anthropic Messages body.
    ClaudeCode,
    /// A Codex CLI rollout file: read as Responses items, written as a list of them.
    Codex,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Openai => "OpenAI chat",
            Format::Anthropic => "Anthropic Messages",
            Format::Responses => "OpenAI Responses",
            Format::ClaudeCode => "a Claude Code session",
            Format::Codex => "a Codex rollout",
        }
    }

    /// The value of `--format` that names it.
    fn flag(self) -> &'static str {
        match self {
            Format::Openai => "openai",
            Format::Anthropic => "anthropic",
            Format::Responses => "responses",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
        }
    }

    /// The name the format's blocks carry in [`tidemark_core::OpaqueBlock::provider`].
    fn provider(self) -> &'static str {
        match self {
            Format::Openai => "openai",
            Format::Anthropic | Format::ClaudeCode => anthropic::transcript::FORMAT,
            Format::Responses | Format::Codex => responses::FORMAT,
        }
    }
}

/// How to write a history back: the format, and the layout the input had.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// JSON lines of OpenAI chat messages.
    Openai,
    /// A Claude transcript in the layout it was read in.
    Anthropic(ClaudeTranscript),
    /// A Responses transcript in the layout it was read in.
    Responses(ResponsesTranscript),
}

impl Shape {
    /// A fresh layout of `format`.
    pub(crate) fn new(format: Format) -> Self {
        match format {
            Format::Openai => Shape::Openai,
            Format::Anthropic | Format::ClaudeCode => Shape::Anthropic(ClaudeTranscript::new(Vec::new())),
            Format::Responses | Format::Codex => Shape::Responses(ResponsesTranscript::new(Vec::new())),
        }
    }

    /// The format of this shape.
    pub(crate) fn format(&self) -> Format {
        match self {
            Shape::Openai => Format::Openai,
            Shape::Anthropic(_) => Format::Anthropic,
            Shape::Responses(_) => Format::Responses,
        }
    }

    /// `messages` written in this shape, ending with a newline.
    pub(crate) fn write(&self, messages: &[Message]) -> Result<String, CliError> {
        let refused = |error: tidemark_providers::TranscriptError| {
            CliError::input(format!("cannot write the output: {error}"))
        };
        Ok(match self {
            Shape::Openai => {
                let mut text = String::new();
                for value in input::to_wire(messages) {
                    text.push_str(&value.to_string());
                    text.push('\n');
                }
                text
            }
            Shape::Anthropic(transcript) => {
                transcript.with_messages(messages.to_vec()).to_json().map_err(refused)? + "\n"
            }
            Shape::Responses(transcript) => {
                transcript.with_messages(messages.to_vec()).to_json().map_err(refused)? + "\n"
            }
        })
    }
}

/// The format `choice` names, or the one `text` is in for `auto`.
///
/// # Errors
///
/// An input error when the input shows signs of two formats (for `auto`),
/// or signs of another format than the one named and none of it, naming
/// what was seen.
pub(crate) fn resolve(choice: FormatChoice, text: &str) -> Result<Format, CliError> {
    let named = match choice {
        FormatChoice::Openai => Format::Openai,
        FormatChoice::Anthropic => Format::Anthropic,
        FormatChoice::Responses => Format::Responses,
        FormatChoice::ClaudeCode => Format::ClaudeCode,
        FormatChoice::Codex => Format::Codex,
        FormatChoice::Auto => return detect(text),
    };
    let signs = signs(text);
    // A sign of the named format settles an input that shows two; only a contradiction is refused.
    if signs.iter().any(|(format, _)| *format == named) {
        return Ok(named);
    }
    if let Some((seen, why)) = signs.first() {
        return Err(CliError::input(format!(
            "--format {} was given, but the input is {} ({why}); give --format {} or --format auto",
            named.flag(),
            seen.name(),
            seen.flag()
        )));
    }
    // Chat messages with plain `text` blocks are valid Responses items in shape, not in meaning.
    if named == Format::Responses
        && let Some(index) = first_text_block(text)
    {
        return Err(CliError::input(format!(
            "--format responses was given, but element {index} has a \"text\" block, which Responses items \
             spell \"input_text\" or \"output_text\"; give --format anthropic, --format openai or --format auto"
        )));
    }
    Ok(named)
}

/// The sign of an agent's session file in JSON lines, from its first records: Codex rollouts wrap
/// each record's content in `payload`, Claude Code events carry a `sessionId` or a `uuid`.
fn session_signs(text: &str) -> Vec<(Format, String)> {
    const CODEX: [&str; 5] = ["session_meta", "response_item", "turn_context", "event_msg", "compacted"];
    const CLAUDE_CODE: [&str; 5] = ["user", "assistant", "summary", "system", "file-history-snapshot"];
    let lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).take(8);
    for (number, line) in lines {
        let Ok(Value::Object(record)) = serde_json::from_str::<Value>(line) else { continue };
        let kind = record.get("type").and_then(Value::as_str).unwrap_or_default();
        if CODEX.contains(&kind) && record.contains_key("payload") {
            return vec![(Format::Codex, format!("line {} is a {kind:?} record with a payload", number + 1))];
        }
        let tracked = record.contains_key("sessionId")
            || record.contains_key("uuid")
            || record.contains_key("leafUuid");
        if CLAUDE_CODE.contains(&kind) && tracked {
            return vec![(
                Format::ClaudeCode,
                format!("line {} is a {kind:?} event of a session", number + 1),
            )];
        }
    }
    Vec::new()
}

/// The index of the first message whose content holds a block of type `text`, if any.
fn first_text_block(text: &str) -> Option<usize> {
    let value = serde_json::from_str::<Value>(text).ok()?;
    elements(&value).iter().position(|message| {
        message.get("content").and_then(Value::as_array).is_some_and(|blocks| {
            blocks.iter().any(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        })
    })
}

/// The messages or items of a parsed input: the array itself, or a body's `messages`.
fn elements(value: &Value) -> &[Value] {
    match value {
        Value::Object(object) => {
            object.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
        }
        Value::Array(list) => list.as_slice(),
        _ => &[],
    }
}

/// The format of `text`, from the first sign each format leaves; OpenAI chat when there is none.
///
/// Plain text turns read the same in every format, so no sign means no
/// ambiguity worth refusing: they are read as OpenAI chat, as before.
fn detect(text: &str) -> Result<Format, CliError> {
    let signs = signs(text);
    match signs.as_slice() {
        [] => Ok(Format::Openai),
        [(format, _)] => Ok(*format),
        [(first, first_why), (second, second_why), ..] => Err(CliError::input(format!(
            "the input looks like {} ({first_why}) and like {} ({second_why}); name its format with --format",
            first.name(),
            second.name()
        ))),
    }
}

/// The first sign of each format that `text` shows, with where it was seen.
fn signs(text: &str) -> Vec<(Format, String)> {
    // JSON lines are OpenAI chat's layout, or an agent's session file; the other formats are one document.
    let Ok(value) = serde_json::from_str::<Value>(text) else { return session_signs(text) };
    let mut signs: Vec<(Format, String)> = Vec::new();
    if let Value::Object(object) = &value {
        if object.contains_key("input") {
            signs.push((Format::Responses, "the body has `input`".into()));
        }
        if object.contains_key("system") {
            signs.push((Format::Anthropic, "the body has `system`".into()));
        }
    }
    for (index, message) in elements(&value).iter().enumerate() {
        if let Some(sign) = sign_of(message) {
            let (format, why) = sign;
            if !signs.iter().any(|(seen, _)| *seen == format) {
                signs.push((format, format!("element {index} {why}")));
            }
        }
    }
    signs
}

/// The format one message or item belongs to, and why, when it shows.
fn sign_of(message: &Value) -> Option<(Format, String)> {
    let object = message.as_object()?;
    if let Some(kind) = object.get("type").and_then(Value::as_str) {
        return Some((Format::Responses, format!("is an item of type {kind:?}")));
    }
    if object.contains_key("tool_calls") || object.contains_key("tool_call_id") {
        return Some((Format::Openai, "has OpenAI tool calls or results".into()));
    }
    if object.get("role").and_then(Value::as_str) == Some("tool") {
        return Some((Format::Openai, "has the role \"tool\"".into()));
    }
    let blocks = object.get("content").and_then(Value::as_array)?;
    blocks.iter().find_map(|block| {
        let kind = block.get("type").and_then(Value::as_str)?;
        let format = match kind {
            "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "image" | "document" => {
                Format::Anthropic
            }
            "input_text" | "output_text" | "input_image" | "input_file" => Format::Responses,
            "image_url" | "input_audio" | "file" => Format::Openai,
            _ => return None,
        };
        Some((format, format!("has a {kind:?} block")))
    })
}

/// Refuse `messages` if writing them in `to` would lose a part, naming the first such part.
pub(crate) fn check_lossless(messages: &[Message], from: Format, to: Format) -> Result<(), CliError> {
    let refuse = |place: String, what: String| {
        Err(CliError::input(format!(
            "{place}: {what} has no lossless form in {}; nothing was converted",
            to.name()
        )))
    };
    let mut seen_turn = false;
    for (index, message) in messages.iter().enumerate() {
        for (number, part) in message.parts.iter().enumerate() {
            if let Part::Opaque(block) = part
                && block.provider != to.provider()
            {
                return refuse(
                    format!("message {index} part {number}"),
                    format!("the {} block from {}", block.kind, block.provider),
                );
            }
        }
        if to != Format::Openai && from != to {
            if message.pinned {
                return refuse(format!("message {index}"), "the pin".into());
            }
            if let Some(name) = &message.name {
                return refuse(format!("message {index}"), format!("the participant name {name:?}"));
            }
        }
        if to == Format::Anthropic && message.role == Role::System && seen_turn {
            return refuse(format!("message {index}"), "a system message after the first turn".into());
        }
        seen_turn |= message.role != Role::System;
    }
    Ok(())
}

//! Reading transcripts, from a file or standard input: OpenAI chat messages (a JSON array, JSON lines, or a request body with `messages`), a Claude transcript, or Responses items.
//!
//! Every problem is an input error (exit status 2) naming the line or index
//! and what is wrong. Tool results whose call never appears are dropped with
//! a warning and counted as repaired, or refused with `--strict`. Nothing is
//! returned unless the whole input is acceptable.

use std::io::Read;
use std::path::Path;

use serde_json::Value;
use tidemark_core::{Message, ViolationKind, validate};
use tidemark_providers::sessions;
use tidemark_providers::wire::{self, WireOptions};

use crate::args::FormatChoice;
use crate::error::CliError;
use crate::format::{self, Format, Shape};

/// The largest single message accepted, in bytes of JSON (for Anthropic and Responses input, of the
/// message as tidemark serializes it): larger ones are refused, never echoed back as a result.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// A transcript read and checked.
#[derive(Debug)]
pub(crate) struct Transcript {
    pub(crate) messages: Vec<Message>,
    /// How many orphan tool results were dropped.
    pub(crate) repaired: usize,
    /// The format and layout it was read in, to write a result back the same way.
    pub(crate) shape: Shape,
}

/// Names the place of a message in the input, by its index among the messages read.
type Namer = Box<dyn Fn(usize) -> String>;

/// How the input was laid out, so errors can name lines or indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One message per line: element `i` was on line `lines[i]`.
    Lines,
    /// A JSON array, or the `messages` of a request body.
    Array,
}

/// Read the transcript in `path` (standard input for `None` or `-`).
pub(crate) fn read(path: Option<&Path>, strict: bool, choice: FormatChoice) -> Result<Transcript, CliError> {
    read_with(path, strict, false, choice)
}

/// Read messages to append to a stored conversation: tool results at the very
/// start may answer calls appended earlier, so they are left to the memory's
/// own check instead of being taken for orphans.
pub(crate) fn read_continuation(
    path: Option<&Path>,
    strict: bool,
    choice: FormatChoice,
) -> Result<Transcript, CliError> {
    read_with(path, strict, true, choice)
}

fn read_with(
    path: Option<&Path>,
    strict: bool,
    continuation: bool,
    choice: FormatChoice,
) -> Result<Transcript, CliError> {
    let bytes = read_bytes(path)?;
    let text = String::from_utf8(bytes).map_err(|error| {
        CliError::input(format!(
            "the input is not UTF-8 (bad byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })?;
    let (mut messages, shape, place): (Vec<Message>, Shape, Namer) = match format::resolve(choice, &text)? {
        Format::Openai => {
            let (messages, place) = read_openai(&text)?;
            (messages, Shape::Openai, place)
        }
        Format::Anthropic => {
            let transcript = tidemark_providers::anthropic::ClaudeTranscript::from_json(&text)
                .map_err(|error| CliError::input(error.to_string()))?;
            let place = placer((0..transcript.messages.len()).map(|index| transcript.place_of(index)));
            (transcript.messages.clone(), Shape::Anthropic(transcript), place)
        }
        Format::Responses => {
            let transcript = tidemark_providers::responses::ResponsesTranscript::from_json(&text)
                .map_err(|error| CliError::input(error.to_string()))?;
            let place = placer((0..transcript.messages.len()).map(|index| transcript.place_of(index)));
            (transcript.messages.clone(), Shape::Responses(transcript), place)
        }
        Format::ClaudeCode => {
            let session =
                sessions::read_claude_code(&text).map_err(|error| CliError::input(error.to_string()))?;
            let place = lines((0..session.transcript.messages.len()).map(|index| session.line_of(index)));
            (session.transcript.messages, Shape::new(Format::ClaudeCode), place)
        }
        Format::Codex => {
            let session = sessions::read_codex(&text).map_err(|error| CliError::input(error.to_string()))?;
            let place = lines((0..session.transcript.messages.len()).map(|index| session.line_of(index)));
            (session.transcript.messages, Shape::new(Format::Codex), place)
        }
    };
    if shape.format() != Format::Openai {
        // OpenAI chat is measured on its wire lines as it is read; the other formats once decoded.
        for (index, message) in messages.iter().enumerate() {
            let size = serde_json::to_vec(message).map_or(0, |bytes| bytes.len());
            if size > MAX_MESSAGE_BYTES {
                return Err(CliError::input(format!(
                    "{}: the message is {size} bytes, more than the {MAX_MESSAGE_BYTES} allowed",
                    place(index)
                )));
            }
        }
    }
    let leading = if continuation {
        messages.iter().take_while(|m| m.role == tidemark_core::Role::Tool).count()
    } else {
        0
    };
    let rest = messages.split_off(leading);
    let shifted = |index: usize| place(index + leading);
    let (checked, repaired) = repair(rest, strict, &shifted)?;
    messages.extend(checked);
    Ok(Transcript { messages, repaired, shape })
}

/// Names a message of a session file by the line it was read from.
fn lines(lines: impl Iterator<Item = Option<usize>>) -> Namer {
    let lines: Vec<Option<usize>> = lines.collect();
    Box::new(move |index| match lines.get(index).copied().flatten() {
        Some(line) => format!("line {line}"),
        None => format!("message {index}"),
    })
}

/// Names a message of an Anthropic or Responses transcript by where it was read (`messages[3]`, `input[7]`).
fn placer(places: impl Iterator<Item = Option<tidemark_providers::Place>>) -> Namer {
    let places: Vec<String> = places
        .enumerate()
        .map(|(index, place)| place.map_or_else(|| format!("message {index}"), |place| place.to_string()))
        .collect();
    Box::new(move |index| places.get(index).cloned().unwrap_or_else(|| format!("message {index}")))
}

/// Read OpenAI chat messages, with the function that names a message's place in the input.
fn read_openai(text: &str) -> Result<(Vec<Message>, Namer), CliError> {
    let (values, layout, lines) = parse(text)?;
    let place = move |index: usize| match layout {
        Layout::Lines => format!("line {}", lines.get(index).copied().unwrap_or(index + 1)),
        Layout::Array => format!("message {index}"),
    };
    for (index, value) in values.iter().enumerate() {
        let size = value.to_string().len();
        if size > MAX_MESSAGE_BYTES {
            return Err(CliError::input(format!(
                "{}: the message is {size} bytes, more than the {MAX_MESSAGE_BYTES} allowed",
                place(index)
            )));
        }
    }
    let messages = from_wire(&values)
        .map_err(|(index, problem)| CliError::input(format!("{}: {problem}", place(index))))?;
    Ok((messages, Box::new(place)))
}

fn read_bytes(path: Option<&Path>) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    match path {
        Some(path) if path != Path::new("-") => {
            bytes = std::fs::read(path)
                .map_err(|error| CliError::input(format!("cannot read {}: {error}", path.display())))?;
        }
        _ => {
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|error| CliError::input(format!("cannot read standard input: {error}")))?;
        }
    }
    Ok(bytes)
}

/// Detect the layout and parse the JSON values, with the line of each when one per line.
fn parse(text: &str) -> Result<(Vec<Value>, Layout, Vec<usize>), CliError> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(CliError::input("the input is empty"));
    }
    if trimmed.starts_with('[') {
        let values: Vec<Value> = serde_json::from_str(text).map_err(|error| {
            CliError::input(format!("line {}: malformed JSON array: {error}", error.line()))
        })?;
        return Ok((values, Layout::Array, Vec::new()));
    }
    // A single object is either a request body with `messages` or a one-line transcript.
    if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) {
        return match object.get("messages") {
            Some(Value::Array(messages)) => Ok((messages.clone(), Layout::Array, Vec::new())),
            Some(_) => Err(CliError::input("`messages` must be an array of messages")),
            None => Ok((vec![Value::Object(object)], Layout::Lines, vec![first_line(text)])),
        };
    }
    let mut values = Vec::new();
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, line)| (i + 1, line)) {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|error| CliError::input(format!("line {number}: malformed JSON: {error}")))?;
        if !value.is_object() {
            return Err(CliError::input(format!(
                "line {number}: expected a message object, found {}",
                kind(&value)
            )));
        }
        values.push(value);
        lines.push(number);
    }
    Ok((values, Layout::Lines, lines))
}

fn first_line(text: &str) -> usize {
    text.lines().position(|line| !line.trim().is_empty()).map_or(1, |index| index + 1)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Drop orphan tool results (or refuse them with `strict`), then require a valid history.
fn repair(
    mut messages: Vec<Message>,
    strict: bool,
    place: &dyn Fn(usize) -> String,
) -> Result<(Vec<Message>, usize), CliError> {
    let mut repaired = 0;
    loop {
        let Err(violation) = validate(&messages) else {
            return Ok((messages, repaired));
        };
        match (&violation.kind, strict) {
            (ViolationKind::OrphanResult { call_id }, false) => {
                let index = violation.index;
                eprintln!(
                    "tidemark: warning: {}: dropped a tool result for call id {call_id:?}, which no message makes",
                    place(index)
                );
                let message = &mut messages[index];
                message.parts.retain(
                    |part| !matches!(part, tidemark_core::Part::ToolResult(r) if &r.call_id == call_id),
                );
                if message.parts.is_empty() {
                    messages.remove(index);
                }
                repaired += 1;
            }
            _ => {
                return Err(CliError::input(format!("{}: {}", place(violation.index), violation.kind)));
            }
        }
    }
}

/// Messages in OpenAI's wire format with tidemark's extensions (pins, failed results), one value each.
pub(crate) fn to_wire(messages: &[Message]) -> Vec<Value> {
    wire::to_wire(messages, WireOptions::transcript())
}

/// Convert wire values to messages; an error names the index of the value at fault.
fn from_wire(values: &[Value]) -> Result<Vec<Message>, (usize, String)> {
    wire::from_wire(values).map_err(|error| (error.index(), error.to_string()))
}

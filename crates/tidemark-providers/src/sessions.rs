//! The session files coding agents keep on disk: Claude Code's session JSONL and Codex CLI's rollout JSONL, read as the histories they hold.
//!
//! Both are one JSON object per line, most of them bookkeeping around the
//! messages. What is read, and what is not:
//!
//! | Claude Code (`~/.claude/projects/…/<session>.jsonl`) | |
//! |---|---|
//! | `user` and `assistant` events of the main thread | read: each event's `message` is an Anthropic Messages message (text, `tool_use`, `tool_result`, `thinking` with a non-empty base64 signature, …), read by [`ClaudeTranscript`] |
//! | an assistant message written over several lines (one per content block, sharing `message.id`) | joined back into one message |
//! | the thread: `parentUuid` links | followed back from the last event of the main thread, so an abandoned branch (an edited or retried turn) is left out; across a `compact_boundary` the walk goes on through its `logicalParentUuid`, so the whole session is read |
//! | `isSidechain` events (a subagent's thread) | left out: they are another conversation; a file that holds only them (the file of a subagent's run) is read as that thread, whose opening task is then its instruction |
//! | `isCompactSummary` user messages (Claude Code's own summary after a compaction), `summary`, `system` and every other record | left out |
//! | a line that is not a JSON object, or a message the Anthropic reader refuses | refused, naming the line |
//!
//! | Codex CLI (`~/.codex/sessions/…/rollout-*.jsonl`) | |
//! |---|---|
//! | `response_item` records | read: each `payload` is a Responses input item (`message`, `function_call`, `function_call_output`, `reasoning` with its `encrypted_content`, and any other item kept opaque, such as `custom_tool_call`), read by [`ResponsesTranscript`] |
//! | `session_meta`, `turn_context`, `event_msg` (which repeat what the items say), `compacted` (Codex's own summary) | left out |
//! | a line that is not a JSON object, or an item the Responses reader refuses | refused, naming the line |
//!
//! Neither file is written back: a history read from one is written as an
//! Anthropic Messages body or a list of Responses items.
//!
//! ```
//! use tidemark_providers::sessions::read_codex;
//!
//! let rollout = concat!(
//!     r#"{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s1"}}"#, "\n",
//!     r#"{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}"#, "\n",
//!     r#"{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"function_call","call_id":"c1","name":"shell","arguments":"{\"command\":[\"ls\"]}"}}"#, "\n",
//!     r#"{"timestamp":"2026-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"README.md"}}"#, "\n",
//! );
//! let session = read_codex(rollout)?;
//! assert_eq!(session.transcript.messages.len(), 3);
//! assert_eq!(session.line_of(0), Some(2));
//! # Ok::<(), tidemark_providers::TranscriptError>(())
//! ```

use std::collections::HashMap;

use serde_json::value::RawValue;

use crate::anthropic::ClaudeTranscript;
use crate::error::{Place, TranscriptError, TranscriptProblem};
use crate::raw;
use crate::responses::ResponsesTranscript;

/// A Claude Code session file, read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ClaudeCodeSession {
    /// The main thread as an Anthropic Messages transcript.
    pub transcript: ClaudeTranscript,
    /// The line (from 1) each message of the transcript was read from.
    lines: Vec<Option<usize>>,
}

impl ClaudeCodeSession {
    /// The line (from 1) message `index` of the transcript was read from.
    pub fn line_of(&self, index: usize) -> Option<usize> {
        self.lines.get(index).copied().flatten()
    }
}

/// A Codex CLI rollout file, read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CodexSession {
    /// Its items as a Responses transcript.
    pub transcript: ResponsesTranscript,
    /// The line (from 1) each message of the transcript was read from.
    lines: Vec<Option<usize>>,
}

impl CodexSession {
    /// The line (from 1) message `index` of the transcript was read from.
    pub fn line_of(&self, index: usize) -> Option<usize> {
        self.lines.get(index).copied().flatten()
    }
}

/// One record of a session file: its line and its fields, each kept as its exact text.
struct Record<'a> {
    line: usize,
    entries: raw::Entries<'a>,
}

impl Record<'_> {
    /// A string field, if it is one.
    fn text(&self, field: &str) -> Option<String> {
        self.entries.get(field).and_then(|value| serde_json::from_str::<String>(value.get()).ok())
    }

    /// A boolean field, false when absent or not a boolean.
    fn flag(&self, field: &str) -> bool {
        self.entries
            .get(field)
            .and_then(|value| serde_json::from_str::<bool>(value.get()).ok())
            .unwrap_or(false)
    }
}

/// Every non-blank line of `text` as a record; a line that is not a JSON object is refused by its number.
fn records(text: &str) -> Result<Vec<Record<'_>>, TranscriptError> {
    let mut records = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entries = raw::entries(line).map_err(|error| {
            TranscriptError::new(Place::Line(number + 1), TranscriptProblem::Json(error.to_string()))
        })?;
        records.push(Record { line: number + 1, entries });
    }
    Ok(records)
}

/// The error `error` of the inner reader, placed at the line its message came from.
fn at_line(error: TranscriptError, line: Option<usize>) -> TranscriptError {
    match line {
        Some(line) => TranscriptError::new(Place::Line(line), error.problem),
        None => error,
    }
}

/// Read a Claude Code session file: the main thread's messages, in order.
///
/// # Errors
///
/// A [`TranscriptError`] at the line of the problem: a line that is not a
/// JSON object, an event whose `message` is missing, or a message the
/// Anthropic Messages reader refuses.
pub fn read_claude_code(text: &str) -> Result<ClaudeCodeSession, TranscriptError> {
    let records = records(text)?;
    let is_event = |record: &Record<'_>| matches!(record.text("type").as_deref(), Some("user" | "assistant"));
    // The main thread; in a file that holds none (a subagent's own file), the subagent's thread.
    let sidechain = !records.iter().any(|record| is_event(record) && !record.flag("isSidechain"));
    let is_turn = |record: &Record<'_>| is_event(record) && record.flag("isSidechain") == sidechain;
    let by_uuid: HashMap<String, usize> =
        records.iter().enumerate().filter_map(|(at, record)| Some((record.text("uuid")?, at))).collect();
    // The thread: from the last event of the main thread back along its parents.
    let mut thread = Vec::new();
    let mut next = records.iter().rposition(is_turn);
    let mut seen = vec![false; records.len()];
    while let Some(at) = next {
        if std::mem::replace(&mut seen[at], true) {
            break; // a cycle: the file is not a thread past this point
        }
        let record = &records[at];
        thread.push(at);
        let parent = record.text("parentUuid").or_else(|| record.text("logicalParentUuid"));
        next = parent.and_then(|uuid| by_uuid.get(&uuid).copied());
    }
    thread.reverse();
    // The turns of the thread, an assistant message written over several lines joined back.
    let mut messages: Vec<(usize, String, Vec<&RawValue>, Option<String>)> = Vec::new();
    for at in thread {
        let record = &records[at];
        if !is_turn(record) || record.flag("isCompactSummary") || record.flag("isMeta") {
            continue;
        }
        let Some(message) = record.entries.get("message") else {
            return Err(TranscriptError::new(
                Place::Line(record.line),
                TranscriptProblem::Missing("message"),
            ));
        };
        let fields = raw::entries(message.get()).map_err(|_| {
            TranscriptError::new(
                Place::Line(record.line),
                TranscriptProblem::WrongType { field: "message", expected: "an object" },
            )
        })?;
        let role =
            fields.get("role").and_then(|role| serde_json::from_str::<String>(role.get()).ok()).ok_or_else(
                || TranscriptError::new(Place::Line(record.line), TranscriptProblem::Missing("role")),
            )?;
        let content = fields.get("content").ok_or_else(|| {
            TranscriptError::new(Place::Line(record.line), TranscriptProblem::Missing("content"))
        })?;
        let id = fields.get("id").and_then(|id| serde_json::from_str::<String>(id.get()).ok());
        let blocks: Vec<&RawValue> = match raw::first_char(content) {
            Some('[') => raw::elements(content.get()).map_err(|error| {
                TranscriptError::new(Place::Line(record.line), TranscriptProblem::Json(error.to_string()))
            })?,
            _ => vec![content],
        };
        match messages.last_mut() {
            Some((_, last_role, last_blocks, Some(last_id)))
                if role == "assistant" && *last_role == role && id.as_deref() == Some(last_id.as_str()) =>
            {
                last_blocks.extend(blocks);
            }
            _ => messages.push((record.line, role, blocks, id)),
        }
    }
    // One Anthropic Messages array, each block copied as it was written.
    let mut json = String::from("[");
    for (index, (_, role, blocks, _)) in messages.iter().enumerate() {
        if index > 0 {
            json.push(',');
        }
        let content = match blocks.as_slice() {
            // A string content stays a string.
            [only] if raw::first_char(only) == Some('"') => only.get().to_owned(),
            _ => format!("[{}]", blocks.iter().map(|block| block.get()).collect::<Vec<_>>().join(",")),
        };
        json.push_str(&format!("{{\"role\":{},\"content\":{content}}}", raw::string(role)));
    }
    json.push(']');
    let line_of_message: Vec<usize> = messages.iter().map(|(line, ..)| *line).collect();
    let transcript = ClaudeTranscript::from_json(&json).map_err(|error| {
        let line = match error.place {
            Place::Message(message) | Place::Block { message, .. } => line_of_message.get(message).copied(),
            _ => None,
        };
        at_line(error, line)
    })?;
    let lines = (0..transcript.messages.len())
        .map(|index| match transcript.place_of(index) {
            Some(Place::Message(message) | Place::Block { message, .. }) => {
                line_of_message.get(message).copied()
            }
            _ => None,
        })
        .collect();
    Ok(ClaudeCodeSession { transcript, lines })
}

/// Read a Codex CLI rollout file: its response items, in order.
///
/// # Errors
///
/// A [`TranscriptError`] at the line of the problem: a line that is not a
/// JSON object, a `response_item` without a `payload`, or an item the
/// Responses reader refuses.
pub fn read_codex(text: &str) -> Result<CodexSession, TranscriptError> {
    let records = records(text)?;
    let mut items = Vec::new();
    let mut item_lines = Vec::new();
    for record in &records {
        if record.text("type").as_deref() != Some("response_item") {
            continue;
        }
        let Some(payload) = record.entries.get("payload") else {
            return Err(TranscriptError::new(
                Place::Line(record.line),
                TranscriptProblem::Missing("payload"),
            ));
        };
        items.push(payload.get());
        item_lines.push(record.line);
    }
    let json = format!("[{}]", items.join(","));
    let transcript = ResponsesTranscript::from_json(&json).map_err(|error| {
        let line = match error.place {
            Place::Item(item) => item_lines.get(item).copied(),
            _ => None,
        };
        at_line(error, line)
    })?;
    let lines = (0..transcript.messages.len())
        .map(|index| match transcript.place_of(index) {
            Some(Place::Item(item)) => item_lines.get(item).copied(),
            _ => None,
        })
        .collect();
    Ok(CodexSession { transcript, lines })
}

#[cfg(test)]
mod tests;

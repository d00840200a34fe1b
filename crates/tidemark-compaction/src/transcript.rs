//! Messages flattened into plain text, so that a summarizer sees every tool call and result without the request carrying any tool blocks.
//!
//! Each message becomes one entry that names its speaker; tool calls show
//! the tool's name and arguments, tool results the tool's name (looked up
//! from the call in the same slice) and its content:
//!
//! ```text
//! user: Where is the deploy key?
//! assistant called read_file {"path":"ops/keys.md"} [call_1]
//! read_file [call_1] returned: The deploy key is in vault path secret/ci/deploy.
//! assistant: It is in vault path secret/ci/deploy.
//! ```
//!
//! Long parts can be shortened to a byte limit; what was cut is counted in a
//! marker such as `… [+1840 bytes]`, so the reader knows something is missing.

use std::collections::HashMap;
use std::fmt::Write as _;

use tidemark_core::{Message, Part, Role};

use crate::strategy::cap_bytes;

/// How to flatten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Style {
    /// The most bytes kept of any one part's text (`None` keeps everything).
    pub max_part_bytes: Option<usize>,
    /// Whether line breaks inside a part are replaced by spaces, giving one line per message.
    pub one_line: bool,
}

impl Style {
    /// Everything, line breaks kept: for a model that reads the whole transcript.
    pub const FULL: Style = Style { max_part_bytes: None, one_line: false };

    /// A style with parts cut at `max_part_bytes` and one line per message.
    pub fn compact(max_part_bytes: usize) -> Self {
        Self { max_part_bytes: Some(max_part_bytes), one_line: true }
    }
}

/// Each message of `messages` flattened, in order, one entry per message.
pub fn entries(messages: &[Message], style: Style) -> Vec<String> {
    let names: HashMap<&str, &str> = messages
        .iter()
        .flat_map(Message::tool_calls)
        .map(|call| (call.id.as_str(), call.name.as_str()))
        .collect();
    messages.iter().map(|message| entry(message, &names, style)).collect()
}

/// All of `messages` flattened, one entry per line.
pub fn flatten(messages: &[Message], style: Style) -> String {
    entries(messages, style).join("\n")
}

fn entry(message: &Message, names: &HashMap<&str, &str>, style: Style) -> String {
    let speaker = match &message.name {
        Some(name) => format!("{} ({name})", message.role),
        None => message.role.to_string(),
    };
    let mut pieces: Vec<String> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for part in &message.parts {
        match part {
            Part::Text { text } => texts.push(shorten(text, style)),
            Part::ToolCall(call) => {
                pieces.push(format!(
                    "{speaker} called {} {} [{}]",
                    call.name,
                    shorten(&call.arguments, style),
                    call.id
                ));
            }
            Part::ToolResult(result) => {
                let tool = names.get(result.call_id.as_str()).copied().unwrap_or("a tool");
                let verb = if result.is_error { "failed with" } else { "returned" };
                pieces.push(format!(
                    "{tool} [{}] {verb}: {}",
                    result.call_id,
                    shorten(&result.content, style)
                ));
            }
            Part::Attachment(attachment) => texts.push(format!("[{} attachment]", attachment.media_type)),
            // A signed or encrypted block is never shown to a summarizer: it
            // could not use it, and a signature must not leak into a summary.
            Part::Opaque(block) => texts.push(format!("[{} block]", cap_bytes(&block.kind, 40))),
            _ => texts.push(String::from("[content of an unknown kind]")),
        }
    }
    let mut line = String::new();
    if !texts.is_empty() || pieces.is_empty() {
        let _ = write!(line, "{speaker}: {}", texts.join(" "));
    }
    for piece in pieces {
        if !line.is_empty() {
            line.push_str(if style.one_line { " | " } else { "\n" });
        }
        line.push_str(&piece);
    }
    if message.role == Role::Tool && line.is_empty() {
        line = format!("{speaker}: (no results)");
    }
    line
}

fn shorten(text: &str, style: Style) -> String {
    let flat;
    let text = if style.one_line {
        flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        flat.as_str()
    } else {
        text
    };
    match style.max_part_bytes {
        Some(max) if text.len() > max => {
            let kept = cap_bytes(text, max);
            format!("{kept}… [+{} bytes]", text.len() - kept.len())
        }
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use tidemark_core::{Attachment, OpaqueBlock, ToolCall};

    use super::*;

    fn check(messages: &[Message], style: Style, expected: &[&str]) {
        assert_eq!(entries(messages, style), expected);
    }

    #[test]
    fn speakers_calls_and_results_are_named() {
        let history = [
            Message::user("Where is the deploy key?").with_name("ana"),
            Message::assistant_tool_calls([ToolCall::with_raw_arguments(
                "call_1",
                "read_file",
                r#"{"path":"ops/keys.md"}"#,
            )]),
            Message::tool_result("call_1", "secret/ci/deploy"),
            Message::tool_error("call_9", "boom"),
            Message::assistant("Found it.")
                .with_part(Part::Attachment(Attachment::url("image/png", "https://x.test/a.png"))),
        ];
        check(
            &history,
            Style::FULL,
            &[
                "user (ana): Where is the deploy key?",
                r#"assistant called read_file {"path":"ops/keys.md"} [call_1]"#,
                "read_file [call_1] returned: secret/ci/deploy",
                "a tool [call_9] failed with: boom",
                "assistant: Found it. [image/png attachment]",
            ],
        );
    }

    #[test]
    fn parallel_calls_and_text_share_an_entry() {
        let history = [Message::assistant("Reading both.")
            .with_part(Part::ToolCall(ToolCall::with_raw_arguments("a", "read", "{}")))
            .with_part(Part::ToolCall(ToolCall::with_raw_arguments("b", "read", "{}")))];
        check(
            &history,
            Style::compact(100),
            &["assistant: Reading both. | assistant called read {} [a] | assistant called read {} [b]"],
        );
    }

    #[test]
    fn long_parts_are_cut_with_a_marker_and_lines_joined() {
        let history = [Message::user("héllo\nworld, this is long")];
        check(&history, Style::compact(8), &["user: héllo w… [+18 bytes]"]);
    }

    #[test]
    fn opaque_blocks_are_named_never_shown() {
        let raw = r#"{"type":"thinking","thinking":"private chain","signature":"U0lHTkVE"}"#;
        let history = [Message::assistant("Done.").with_part(Part::Opaque(OpaqueBlock::new(
            "anthropic",
            "thinking",
            raw,
        )))];
        check(&history, Style::FULL, &["assistant: Done. [thinking block]"]);
        let flat = flatten(&history, Style::compact(1000));
        assert!(!flat.contains("U0lHTkVE") && !flat.contains("private chain"), "{flat}");
    }
}

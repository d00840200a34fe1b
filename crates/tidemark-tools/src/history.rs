//! `read_history`: exact stored turns by number, scanned and bounded.

use serde_json::{Value, json};
use tidemark_core::counter::longest_prefix;
use tidemark_core::{ConversationId, ConversationStore, FactStore, Message, Part, Seq, SeqRange};
use tidemark_facts::scan::Verdict;

use crate::{MemoryTools, ToolOutput, store_error};

/// The line that ends a turn cut to fit the result's bound.
const CUT: &str = "[… the rest of this turn was cut; read it alone to see more]";

/// A stored message as the model reads it: its text, tool calls and tool results, one per line.
fn render(message: &Message) -> String {
    let mut lines = Vec::with_capacity(message.parts.len());
    for part in &message.parts {
        match part {
            Part::Text { text } => lines.push(text.clone()),
            Part::ToolCall(call) => {
                lines.push(format!("[call {} {}({})]", call.id, call.name, call.arguments))
            }
            Part::ToolResult(result) => {
                let mark = if result.is_error { "error" } else { "result" };
                lines.push(format!("[{mark} of {}] {}", result.call_id, result.content));
            }
            Part::Attachment(attachment) => lines.push(format!("[attachment {}]", attachment.media_type)),
            _ => {}
        }
    }
    lines.join("\n")
}

/// Read turns `from..=to` (at most the limit's count and tokens), each scanned as recall scans a quoted turn.
pub(crate) async fn read<S: ConversationStore + FactStore>(
    tools: &MemoryTools<S>,
    conversation: &ConversationId,
    from: u64,
    to: Option<u64>,
) -> Result<ToolOutput, ToolOutput> {
    let limits = &tools.limits;
    let to = to.unwrap_or_else(|| from.saturating_add(limits.default_turns.saturating_sub(1)));
    if to < from {
        return Err(ToolOutput::error(format!("`to` ({to}) is before `from` ({from})")));
    }
    if to == u64::MAX || from == u64::MAX {
        return Err(ToolOutput::error("there is no turn with that number"));
    }
    let end = to.min(from.saturating_add(limits.max_turns.saturating_sub(1)));
    let stored = tools
        .store
        .load_range(conversation, SeqRange::new(Seq(from), Seq(end + 1)))
        .await
        .map_err(|error| store_error(&error))?;
    let mut turns = Vec::with_capacity(stored.len());
    let mut used = 0u32;
    let mut next = (end < to).then_some(end + 1);
    for message in &stored {
        let room = limits.max_result_tokens.saturating_sub(used);
        let mut turn = json!({"turn": message.seq.0, "role": message.message.role.as_str()});
        let text = render(&message.message);
        match tools.scanner.scan(&text) {
            Verdict::Clean => turn["text"] = Value::from(text),
            Verdict::Redacted { text, .. } => turn["text"] = Value::from(text),
            _ => turn["withheld"] = Value::from("this turn failed the security scan and is not shown"),
        }
        let cost = tools.counter.count_text(&turn.to_string());
        if cost > room {
            // The first turn that does not fit is cut when it comes first; otherwise the next call starts at it.
            let Some(text) = turn["text"].as_str().filter(|_| turns.is_empty()) else {
                next = Some(message.seq.0);
                break;
            };
            let overhead = cost.saturating_sub(tools.counter.count_text(text));
            let fits =
                |prefix: &str| overhead + tools.counter.count_text(&format!("{prefix}\n{CUT}")) <= room;
            let cut = format!("{}\n{CUT}", longest_prefix(text, fits).trim_end());
            turn["text"] = Value::from(cut);
            turns.push(turn);
            next = Some(message.seq.0 + 1).filter(|next| *next <= to);
            break;
        }
        used = used.saturating_add(cost);
        turns.push(turn);
    }
    let mut answer = json!({"turns": turns});
    if let Some(next) = next {
        answer["next"] = Value::from(next);
    }
    if stored.is_empty() {
        answer["note"] = Value::from(format!("no stored turn from {from} to {to}"));
    }
    Ok(ToolOutput::ok(&answer))
}

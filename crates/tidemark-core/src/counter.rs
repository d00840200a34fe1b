//! The token-counting contract, [`TokenCounter`], the chat accounting every counter shares, and the [`HeuristicCounter`].
//!
//! The heuristic lives here, next to the contract, because it is pure
//! arithmetic on text: crates that need a default counter (such as the fact
//! coordinator's injection limit) get one without pulling in a tokenizer.
//! `tidemark-memory` re-exports it beside its exact `TiktokenCounter`.

pub mod calibrated;
pub mod heuristic;

#[cfg(test)]
mod tests;

use crate::message::{Message, Part, Role};

pub use calibrated::CalibratedCounter;
pub use heuristic::HeuristicCounter;

/// The tokens every counter of the chat accounting charges for one attachment, whatever its size or kind.
///
/// This is the base cost OpenAI charges for an image sent at low detail.
/// Higher detail costs more and other media cost differently, so this is an
/// estimate: counting attachments exactly would need their bytes and the
/// provider's pricing rules, which a synchronous counter does not have.
pub const ATTACHMENT_TOKENS: u32 = 85;

/// Counts the tokens a message costs in a model's prompt.
///
/// # Contract
///
/// - `count` is the cost of one message in the chat format, per-message
///   overhead included; it depends only on the message's content (the
///   [content hash](crate::ContentHash) covers exactly what it may read), so
///   results can be cached by hash.
/// - `prompt_overhead` is the cost paid once per prompt, such as the
///   reply-priming tokens of OpenAI's chat format; budgets add it once.
/// - Counting is synchronous and infallible: it is CPU work on text in hand.
///
/// # Example
///
/// ```
/// use tidemark_core::{Message, TokenCounter};
///
/// /// One token per four bytes of text, plus three per message.
/// struct Quarter;
///
/// impl TokenCounter for Quarter {
///     fn name(&self) -> &str {
///         "quarter"
///     }
///     fn count_text(&self, text: &str) -> u32 {
///         u32::try_from(text.len().div_ceil(4)).unwrap_or(u32::MAX)
///     }
///     fn count(&self, message: &Message) -> u32 {
///         3 + self.count_text(&message.text())
///     }
/// }
///
/// let history = [Message::user("abcdefgh"), Message::assistant("ok")];
/// assert_eq!(Quarter.count_prompt(&history), 5 + 4);
/// ```
pub trait TokenCounter: Send + Sync {
    /// A stable name that changes whenever counts could change, such as `"o200k_base"`.
    fn name(&self) -> &str;

    /// The tokens of `text` alone, without any message overhead.
    fn count_text(&self, text: &str) -> u32;

    /// The tokens `message` costs in a prompt, overhead included.
    fn count(&self, message: &Message) -> u32;

    /// Tokens paid once per prompt whatever it holds (zero unless the format says otherwise).
    fn prompt_overhead(&self) -> u32 {
        0
    }

    /// The tokens of a whole prompt: every message plus the prompt overhead, saturating.
    fn count_prompt(&self, messages: &[Message]) -> u32 {
        messages
            .iter()
            .fold(self.prompt_overhead(), |total, message| total.saturating_add(self.count(message)))
    }
}

crate::forward! {
    impl TokenCounter {
        fn name(&self) -> &str {
            (**self).name()
        }
        fn count_text(&self, text: &str) -> u32 {
            (**self).count_text(text)
        }
        fn count(&self, message: &Message) -> u32 {
            (**self).count(message)
        }
        fn prompt_overhead(&self) -> u32 {
            (**self).prompt_overhead()
        }
        fn count_prompt(&self, messages: &[Message]) -> u32 {
            (**self).count_prompt(messages)
        }
    }
}

/// The longest prefix of `text`, cut at a character boundary, that `fits` accepts, for a `fits` that accepts every prefix of a prefix it accepts.
///
/// Found by bisection over character boundaries, so it asks `fits` about
/// log₂ of the text's characters prefixes and is exact for any counter. The
/// whole text is not asked about (callers know it does not fit), and the
/// empty prefix is taken as fitting: a caller for whom it may not checks it.
///
/// ```
/// use tidemark_core::counter::longest_prefix;
///
/// assert_eq!(longest_prefix("naïve words", |prefix| prefix.len() <= 3), "na");
/// ```
pub fn longest_prefix(text: &str, mut fits: impl FnMut(&str) -> bool) -> &str {
    let boundaries: Vec<usize> = text.char_indices().map(|(index, _)| index).chain([text.len()]).collect();
    let (mut low, mut high) = (0, boundaries.len() - 1);
    // Invariant: the prefix up to boundaries[low] fits; the one up to boundaries[high] does not.
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if fits(&text[..boundaries[middle]]) {
            low = middle;
        } else {
            high = middle;
        }
    }
    &text[..boundaries[low]]
}

/// The chat accounting: what one message costs on the wire, with `tokens` pricing each string.
///
/// The price is that of the OpenAI chat-completions messages the message is
/// sent as (the mapping of `tidemark-providers`' `wire::message_to_wire` for
/// requests), counted by the rule of OpenAI's cookbook: every wire message pays
/// `framing` (the fixed per-message overhead) and `role` (the price of its role
/// string), then the tokens of every string value in its JSON object, plus one
/// for a `name`. The sum saturates.
///
/// | On the wire | Costs | Rule from |
/// | --- | --- | --- |
/// | each wire message | `framing` + `role` | the cookbook's `tokens_per_message` and the `role` field |
/// | `name` | its tokens + 1 | the cookbook's `tokens_per_name` |
/// | `content` as a string (one text part, or `""` for none) | its tokens | the `content` field |
/// | `content` of `null` (an assistant message with only tool calls) | nothing | null is no string |
/// | `content` as an array (several parts, or any attachment or stray part) | per part, the tokens of `"text"` and of its text | the part's `type` and `text` fields |
/// | each tool call | the tokens of its id, of `"function"`, of its name and of its arguments text | the `tool_calls` entry: `id`, `type`, `function.name`, `function.arguments` |
/// | a tool message | one wire message per result: `framing` + `role` + the tokens of the call id and of the content, plus the name and its 1 when there is one | the wire writes one `tool` message per result |
/// | a tool result outside a tool message | a text part `[result of {call id}] {content}` | how the wire writes it |
/// | a tool call inside a tool message | nothing | the wire drops it, as it drops every part of a tool message but the results |
/// | each attachment | [`ATTACHMENT_TOKENS`] | OpenAI's base cost of an image |
/// | each opaque provider block | the tokens of its raw JSON text | it is sent whole in the provider's own format |
///
/// Attachments are the one exception to "every string": a provider prices an
/// image by its pixel size and detail level, never by the tokens of its URL
/// or base64 text, so [`ATTACHMENT_TOKENS`] stands for the whole part.
/// Pinning and the error flag of a tool result never reach a request, so they
/// cost nothing, and a tool message that holds no result sends nothing and
/// costs nothing.
///
/// Counters pass `framing` and `role` in because a byte heuristic cannot
/// price a role from its bytes while a tokenizer can; `role` is charged once
/// per wire message.
pub fn chat_tokens(message: &Message, framing: u32, role: u32, tokens: impl Fn(&str) -> u32) -> u32 {
    let opening = framing.saturating_add(role);
    let name = message.name.as_deref().map_or(0, |name| tokens(name).saturating_add(1));
    if message.role == Role::Tool {
        return message.tool_results().fold(0, |total: u32, result| {
            total
                .saturating_add(opening)
                .saturating_add(name)
                .saturating_add(tokens(&result.call_id))
                .saturating_add(tokens(&result.content))
        });
    }
    let mut total = opening.saturating_add(name);
    for call in message.tool_calls() {
        total = total
            .saturating_add(tokens(&call.id))
            .saturating_add(tokens(FUNCTION_TYPE))
            .saturating_add(tokens(&call.name))
            .saturating_add(tokens(&call.arguments));
    }
    let content: Vec<&Part> =
        message.parts.iter().filter(|part| !matches!(part, Part::ToolCall(_))).collect();
    let content_tokens = match content.as_slice() {
        // `null` with tool calls, `""` without: either way no tokens.
        [] => 0,
        [Part::Text { text }] => tokens(text),
        parts => parts.iter().fold(0, |sum: u32, part| sum.saturating_add(array_part_tokens(part, &tokens))),
    };
    total.saturating_add(content_tokens)
}

/// The `type` of every tool call on the wire.
const FUNCTION_TYPE: &str = "function";

/// The `type` of a text part of an array `content`.
const TEXT_TYPE: &str = "text";

/// What one part of an array `content` costs: a text part's type and text, or an attachment's fixed price.
fn array_part_tokens(part: &Part, tokens: &impl Fn(&str) -> u32) -> u32 {
    // The match is exhaustive here, in the crate that defines `Part`, so a new
    // kind of part cannot be added without deciding its price.
    match part {
        Part::Text { text } => tokens(TEXT_TYPE).saturating_add(tokens(text)),
        Part::ToolResult(result) => tokens(TEXT_TYPE)
            .saturating_add(tokens(&format!("[result of {}] {}", result.call_id, result.content))),
        // Tool calls leave the content for `tool_calls` before this point; the
        // arm prices the text form the wire would give one all the same.
        Part::ToolCall(call) => {
            tokens(TEXT_TYPE).saturating_add(tokens(&format!("[call {} {}]", call.name, call.arguments)))
        }
        Part::Attachment(_) => ATTACHMENT_TOKENS,
        // A provider block is priced as the text of its JSON: its signature or
        // encrypted content travels with every request that keeps it.
        Part::Opaque(block) => tokens(&block.raw),
    }
}

//! The token-counting contract, [`TokenCounter`], the chat accounting every counter shares, and the [`HeuristicCounter`].
//!
//! The heuristic lives here, next to the contract, because it is pure
//! arithmetic on text: crates that need a default counter (such as the fact
//! coordinator's injection limit) get one without pulling in a tokenizer.
//! `tidemark-memory` re-exports it beside its exact `TiktokenCounter`.

pub mod heuristic;

#[cfg(test)]
mod tests;

use crate::message::{Message, Part};

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

/// The chat accounting: what one message costs, with `tokens` pricing each string.
///
/// A message pays `framing` (the fixed per-message overhead) and `role` (the
/// price of its role), then its participant name plus one, each text part,
/// each tool call's name and arguments (not the call id), each tool result's
/// content, and [`ATTACHMENT_TOKENS`] per attachment; the sum saturates.
/// Counters pass `framing` and `role` in because a byte heuristic cannot
/// price a role from its bytes while a tokenizer can.
pub fn chat_tokens(message: &Message, framing: u32, role: u32, tokens: impl Fn(&str) -> u32) -> u32 {
    let mut total = framing.saturating_add(role);
    if let Some(name) = &message.name {
        total = total.saturating_add(tokens(name)).saturating_add(1);
    }
    for part in &message.parts {
        let cost = match part {
            Part::Text { text } => tokens(text),
            Part::ToolCall(call) => tokens(&call.name).saturating_add(tokens(&call.arguments)),
            Part::ToolResult(result) => tokens(&result.content),
            // The match is exhaustive here, in the crate that defines `Part`, so
            // a new kind of part cannot be added without deciding its price.
            Part::Attachment(_) => ATTACHMENT_TOKENS,
        };
        total = total.saturating_add(cost);
    }
    total
}

//! Token counters: a byte heuristic, exact OpenAI counts with tiktoken, and a cache keyed by content hash.
//!
//! All counters here price a message with the same *chat accounting*, taken from
//! OpenAI's published recipe for counting chat prompts:
//!
//! | item | tokens |
//! | --- | --- |
//! | every message | a fixed framing overhead, plus the role |
//! | a participant name | the name, plus 1 |
//! | a text part | the text |
//! | a tool call | its name, plus its arguments text (the call id is not counted) |
//! | a tool result | its content (the call id is not counted) |
//! | an attachment | [`ATTACHMENT_TOKENS`], whatever its size |
//!
//! and a prompt pays [`TokenCounter::prompt_overhead`](tidemark_core::TokenCounter::prompt_overhead) once for priming the reply.
//! [`TiktokenCounter`] prices each string exactly with OpenAI's byte-pair encodings;
//! [`HeuristicCounter`] estimates each string from its length in bytes;
//! [`CachedCounter`] remembers the counts of another counter by content hash.
//!
//! ```
//! use tidemark_core::{Message, TokenCounter};
//! use tidemark_memory::counter::{CachedCounter, TiktokenCounter};
//!
//! let counter = CachedCounter::new(TiktokenCounter::for_model("gpt-4o")?);
//! // Three tokens of framing, one for the role and two for the text.
//! assert_eq!(counter.count(&Message::user("Hello world")), 3 + 1 + 2);
//! assert_eq!(counter.count(&Message::user("Hello world").pinned()), 6);
//! assert_eq!(counter.hits(), 1);
//! # Ok::<(), tidemark_memory::counter::CounterError>(())
//! ```

mod cached;
mod heuristic;
mod tiktoken;

#[cfg(test)]
mod tests;

use tidemark_core::{Message, Part};

pub use cached::CachedCounter;
pub use heuristic::HeuristicCounter;
pub use tiktoken::{Encoding, TiktokenCounter};

pub use crate::error::CounterError;

/// The tokens every counter here charges for one attachment, whatever its size or kind.
///
/// This is the base cost OpenAI charges for an image sent at low detail.
/// Higher detail costs more and other media cost differently, so this is an
/// estimate: counting attachments exactly would need their bytes and the
/// provider's pricing rules, which a synchronous counter does not have.
pub const ATTACHMENT_TOKENS: u32 = 85;

/// The chat accounting of the module docs, with `tokens` pricing each string.
///
/// `framing` is the fixed per-message overhead and `role` the price of the role;
/// counters pass them in because the heuristic cannot price a role from its bytes.
fn chat_tokens(message: &Message, framing: u32, role: u32, tokens: impl Fn(&str) -> u32) -> u32 {
    let mut total = framing.saturating_add(role);
    if let Some(name) = &message.name {
        total = total.saturating_add(tokens(name)).saturating_add(1);
    }
    for part in &message.parts {
        let cost = match part {
            Part::Text { text } => tokens(text),
            Part::ToolCall(call) => tokens(&call.name).saturating_add(tokens(&call.arguments)),
            Part::ToolResult(result) => tokens(&result.content),
            Part::Attachment(_) => ATTACHMENT_TOKENS,
            // A kind of part added by a later version of tidemark-core is priced
            // like an attachment until the counters learn it, so it is never free.
            _ => ATTACHMENT_TOKENS,
        };
        total = total.saturating_add(cost);
    }
    total
}

/// A length or count as a `u32`, saturating at `u32::MAX` as counts do.
fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

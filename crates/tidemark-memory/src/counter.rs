//! Token counters: a byte heuristic, exact OpenAI counts with tiktoken, and a cache keyed by content hash.
//!
//! All counters here price a message with the same *chat accounting*: the
//! OpenAI chat messages a request sends for it (its wire form), counted by the
//! rule of OpenAI's cookbook (*How to count tokens with tiktoken*):
//!
//! | item | tokens |
//! | --- | --- |
//! | every wire message (one per tool result of a tool message) | a fixed framing overhead, plus the role |
//! | a participant name | the name, plus 1, on every wire message of the message |
//! | a text part | the text, plus the part's type `"text"` when the content is an array of parts |
//! | a tool call | its id, its type `"function"`, its name and its arguments text |
//! | a tool result | its call id and its content |
//! | an attachment | [`ATTACHMENT_TOKENS`], whatever its size |
//!
//! [`chat_tokens`](tidemark_core::counter::chat_tokens) holds the full table and
//! [`TiktokenCounter`] the sources of each rule.
//! and a prompt pays [`TokenCounter::prompt_overhead`](tidemark_core::TokenCounter::prompt_overhead) once for priming the reply.
//! [`TiktokenCounter`] prices each string exactly with OpenAI's byte-pair encodings;
//! [`HeuristicCounter`] (defined in `tidemark-core`, re-exported here) estimates each string from its length in bytes;
//! [`CachedCounter`] remembers the counts of another counter by content hash;
//! [`CalibratedCounter`] (also core's) scales another counter's counts by the
//! ratio a provider's usage reports taught (see `tidemark_core::calibration`).
//!
//! ```
//! # #[cfg(feature = "tiktoken")]
//! # fn main() -> Result<(), tidemark_memory::counter::CounterError> {
//! use tidemark_core::{Message, TokenCounter};
//! use tidemark_memory::counter::{CachedCounter, TiktokenCounter};
//!
//! let counter = CachedCounter::new(TiktokenCounter::for_model("gpt-4o")?);
//! // Three tokens of framing, one for the role and two for the text.
//! assert_eq!(counter.count(&Message::user("Hello world")), 3 + 1 + 2);
//! assert_eq!(counter.count(&Message::user("Hello world").pinned()), 6);
//! assert_eq!(counter.hits(), 1);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "tiktoken"))]
//! # fn main() {}
//! ```

mod cached;
#[cfg(feature = "tiktoken")]
mod tiktoken;

#[cfg(test)]
mod tests;

pub use cached::CachedCounter;
#[cfg(feature = "tiktoken")]
pub use tiktoken::{Encoding, TiktokenCounter};

pub use tidemark_core::counter::{ATTACHMENT_TOKENS, CalibratedCounter, HeuristicCounter};

pub use crate::error::CounterError;

/// A length or count as a `u32`, saturating at `u32::MAX` as counts do.
#[cfg(feature = "tiktoken")]
fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

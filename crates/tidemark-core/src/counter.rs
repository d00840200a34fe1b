//! The token-counting contract: [`TokenCounter`].

use crate::message::Message;

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

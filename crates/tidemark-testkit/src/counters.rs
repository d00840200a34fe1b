//! Simple token counters for tests: their counts are easy to work out by hand, so expected values can be written down.

use tidemark_core::{Message, Part, TokenCounter};

/// One token per byte of content, plus fixed costs per message and per prompt.
///
/// Content is the text of text parts, a tool call's name and arguments, and a
/// tool result's content; an attachment costs 8. A message's name is not counted.
///
/// ```
/// use tidemark_core::{Message, TokenCounter};
/// use tidemark_testkit::counters::ByteCounter;
///
/// let counter = ByteCounter::new(1, 2);
/// assert_eq!(counter.count(&Message::user("hello")), 6);
/// assert_eq!(counter.count_prompt(&[Message::user("hello")]), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteCounter {
    per_message: u32,
    per_prompt: u32,
}

impl ByteCounter {
    /// A counter charging `per_message` on top of each message and `per_prompt` once per prompt.
    pub const fn new(per_message: u32, per_prompt: u32) -> Self {
        Self { per_message, per_prompt }
    }
}

impl TokenCounter for ByteCounter {
    fn name(&self) -> &str {
        "test-bytes"
    }

    fn count_text(&self, text: &str) -> u32 {
        u32::try_from(text.len()).unwrap_or(u32::MAX)
    }

    fn count(&self, message: &Message) -> u32 {
        message.parts.iter().fold(self.per_message, |total, part| {
            let content = match part {
                Part::Text { text } => self.count_text(text),
                Part::ToolCall(call) => {
                    self.count_text(&call.name).saturating_add(self.count_text(&call.arguments))
                }
                Part::ToolResult(result) => self.count_text(&result.content),
                Part::Opaque(block) => self.count_text(&block.raw),
                _ => 8,
            };
            total.saturating_add(content)
        })
    }

    fn prompt_overhead(&self) -> u32 {
        self.per_prompt
    }
}

/// About four bytes a token, like a real BPE tokenizer on English, with OpenAI's chat framing: 3 per message, the name plus 1, 3 per prompt.
///
/// Each field is rounded up on its own; an attachment costs 85.
///
/// ```
/// use tidemark_core::{Message, TokenCounter};
/// use tidemark_testkit::counters::QuarterCounter;
///
/// assert_eq!(QuarterCounter.count(&Message::user("hello")), 3 + 2);
/// assert_eq!(QuarterCounter.count_prompt(&[Message::user("hello")]), 3 + 2 + 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuarterCounter;

impl TokenCounter for QuarterCounter {
    fn name(&self) -> &str {
        "test-quarter"
    }

    fn count_text(&self, text: &str) -> u32 {
        u32::try_from(text.len().div_ceil(4)).unwrap_or(u32::MAX)
    }

    fn count(&self, message: &Message) -> u32 {
        let name = message.name.as_deref().map_or(0, |name| self.count_text(name).saturating_add(1));
        message.parts.iter().fold(3u32.saturating_add(name), |total, part| {
            let content = match part {
                Part::Text { text } => self.count_text(text),
                Part::ToolCall(call) => {
                    self.count_text(&call.name).saturating_add(self.count_text(&call.arguments))
                }
                Part::ToolResult(result) => self.count_text(&result.content),
                Part::Opaque(block) => self.count_text(&block.raw),
                _ => 85,
            };
            total.saturating_add(content)
        })
    }

    fn prompt_overhead(&self) -> u32 {
        3
    }
}

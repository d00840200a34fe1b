//! [`PromptCache`]: where an Anthropic request marks its prompt-cache breakpoints, and for how long the cached prefix lives.

use serde_json::{Map, Value, json};

/// The most breakpoints the Messages API accepts in one request.
pub const MAX_BREAKPOINTS: usize = 4;

/// How many of the last system blocks carry a breakpoint.
const SYSTEM_BREAKPOINTS: usize = 3;

/// Whether, and for how long, an [`AnthropicModel`](crate::AnthropicModel) asks Anthropic to cache the prompt's prefix.
///
/// Anthropic caches nothing unless a request marks breakpoints
/// (`"cache_control": {"type": "ephemeral"}`) on content blocks; a breakpoint
/// caches the prompt up to and including its block, and a later request that
/// starts with the same prefix reads it at a tenth of the input price.
/// Unless it is [`Off`](Self::Off), the model sends the system messages as
/// one text block per text part, in order (a summary of several segments,
/// from `tidemark_compaction::Segmented`, is one block per segment), and marks:
///
/// 1. the last block of the conversation (the last block of the final turn,
///    or the nearest one before it that may carry a mark), so that the next
///    request, which appends to this one, reads all of it;
/// 2. the last three system blocks. A tidemark prompt's system messages are
///    the system prompt and pinned messages, then the summary, then the
///    context blocks (facts, recall) that change every turn. The provider
///    cannot tell them apart, but with up to two context blocks one of the
///    last three system blocks is the end of the stable prefix (the summary,
///    or the system prompt before the first compaction), so that prefix is
///    written once and read by every turn until the summary changes, even
///    when the blocks after it change and the conversation's mark misses.
///
/// A mark on a block that changes costs nothing more: a request pays the
/// cache-write price once for the tokens it writes, however many marks it
/// has. There are at most four marks ([`MAX_BREAKPOINTS`], the API's limit),
/// never on an empty text block or on a `thinking` or `redacted_thinking`
/// block, which the API refuses to mark, nor on a block type tidemark does not
/// know. A request whose blocks already carry a `cache_control` of their own
/// (Claude blocks read from a transcript are sent as they came) is the
/// caller's to mark: nothing is added, so the caller's marks, their TTLs and
/// the limit stay as the caller set them.
///
/// A prefix shorter than the model's minimum (1,024 tokens or more, by
/// model) is not cached and costs nothing extra. A call that is never repeated (a
/// one-off summary) pays the write price (1.25× for five minutes, 2× for an
/// hour) on its tokens for nothing; turn the cache [`Off`](Self::Off) for such
/// a model.
///
/// ```
/// use tidemark_providers::AnthropicConfig;
/// use tidemark_providers::anthropic::PromptCache;
///
/// let config = AnthropicConfig::new("https://api.anthropic.com", "claude-sonnet-4-5")?;
/// assert_eq!(config.prompt_cache(), PromptCache::FiveMinutes);
/// let config = config.with_prompt_cache(PromptCache::OneHour);
/// assert_eq!(config.prompt_cache(), PromptCache::OneHour);
/// # Ok::<(), tidemark_providers::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PromptCache {
    /// No breakpoints: the system prompt is sent as one string, as without caching.
    Off,
    /// Breakpoints whose cached prefix lives five minutes after its last use (`{"type": "ephemeral"}`).
    #[default]
    FiveMinutes,
    /// Breakpoints whose cached prefix lives an hour (`{"type": "ephemeral", "ttl": "1h"}`), written at a higher price.
    OneHour,
}

impl PromptCache {
    /// The `cache_control` object of a breakpoint, `None` when off.
    fn control(self) -> Option<Value> {
        match self {
            Self::Off => None,
            Self::FiveMinutes => Some(json!({"type": "ephemeral"})),
            Self::OneHour => Some(json!({"type": "ephemeral", "ttl": "1h"})),
        }
    }
}

/// The `system` field for `texts`: one string when the cache is off, else one text block each; `None` when there are none.
pub(crate) fn system(texts: Vec<String>, cache: PromptCache) -> Option<Value> {
    if texts.is_empty() {
        return None;
    }
    Some(match cache {
        PromptCache::Off => Value::String(texts.join("\n\n")),
        _ => Value::Array(texts.into_iter().map(|text| json!({"type": "text", "text": text})).collect()),
    })
}

/// Mark the breakpoints of a request's `system` field and `messages` as [`PromptCache`] describes.
pub(crate) fn mark(system: Option<&mut Value>, messages: &mut [Value], cache: PromptCache) {
    let Some(control) = cache.control() else { return };
    let mut system = match system {
        Some(Value::Array(blocks)) => blocks.iter_mut().collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let mut turns: Vec<&mut Value> = messages
        .iter_mut()
        .filter_map(|turn| turn.get_mut("content").and_then(Value::as_array_mut))
        .flat_map(|content| content.iter_mut())
        .collect();
    // A caller's own marks (Claude blocks sent as they came) count against the
    // limit, and the API wants one-hour marks before five-minute ones; rather
    // than guess how to fit ours among them, the caller's marking stands alone.
    let marked = |block: &&mut Value| block.get("cache_control").is_some();
    if system.iter().any(marked) || turns.iter().any(marked) {
        return;
    }
    let tail = turns.iter_mut().rev().find(|block| markable(block));
    let last_system = system.iter_mut().rev().filter(|block| markable(block)).take(SYSTEM_BREAKPOINTS);
    for block in tail.into_iter().chain(last_system).take(MAX_BREAKPOINTS) {
        if let Some(object) = block.as_object_mut() {
            object.insert("cache_control".into(), control.clone());
        }
    }
}

/// Whether the API accepts a breakpoint on `block`: a block type it marks, and text that is not blank.
fn markable(block: &Value) -> bool {
    let Some(object) = block.as_object() else { return false };
    match object.get("type").and_then(Value::as_str) {
        Some("text") => text_is_set(object),
        Some("image" | "document" | "tool_use" | "tool_result" | "search_result") => true,
        // `thinking` and `redacted_thinking` cannot be marked, and a type
        // tidemark does not know may not accept a mark either.
        _ => false,
    }
}

fn text_is_set(object: &Map<String, Value>) -> bool {
    object.get("text").and_then(Value::as_str).is_some_and(|text| !text.trim().is_empty())
}

#[cfg(test)]
mod tests;

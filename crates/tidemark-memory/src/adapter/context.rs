//! Context sources in a load: their allowances, reserved before the policy fits the window, and their blocks, asked for once the window is chosen.

use std::fmt;
use std::sync::Arc;

use tidemark_core::boxed::DynContextSource;
use tidemark_core::context::ContextRequest;
use tidemark_core::error::chain_text;
use tidemark_core::{ConversationId, Message, Part, Ratio, Role, StoredMessage, TokenCounter};

use super::window::Served;

/// The context sources of a memory, in the order they were added, each with its allowance in tokens.
#[derive(Clone, Default)]
pub(crate) struct Contexts {
    sources: Vec<(Arc<dyn DynContextSource>, u32)>,
}

impl fmt::Debug for Contexts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let allowances: Vec<u32> = self.sources.iter().map(|(_, allowance)| *allowance).collect();
        f.debug_struct("Contexts").field("allowances", &allowances).finish()
    }
}

impl Contexts {
    pub(crate) fn push(&mut self, source: Arc<dyn DynContextSource>, max_tokens: u32) {
        self.sources.push((source, max_tokens));
    }

    pub(crate) fn len(&self) -> usize {
        self.sources.len()
    }

    /// The tokens the first `granted` sources may take together, each allowance scaled by `ratio`, saturating.
    pub(crate) fn reserve(&self, granted: usize, ratio: Ratio) -> u32 {
        self.sources
            .iter()
            .take(granted)
            .fold(0, |total, (_, allowance)| total.saturating_add(ratio.scale(*allowance)))
    }

    /// Tell every source that `evicted` have left the window (see [`tidemark_core::ContextSource::on_evicted`]).
    pub(crate) async fn evicted(&self, conversation: &ConversationId, evicted: &[StoredMessage]) {
        if evicted.is_empty() {
            return;
        }
        for (source, _) in &self.sources {
            source.on_evicted_boxed(conversation, evicted).await;
        }
    }

    /// The prompt of `served` with the blocks of its granted sources, counted with `counter`.
    ///
    /// The window's leading system messages come first (a pinned system
    /// prompt is retained below the watermark for ever and always leads the
    /// window), then the summary, then the blocks: the agent's own
    /// instructions come before quoted material, and for providers that cache
    /// prompt prefixes the part that never changes (the system prompt) comes
    /// before the part that changes at a compaction (the summary), and both
    /// before the blocks, which change with every turn.
    ///
    /// A source that fails, answers with a block over its allowance, or with a
    /// block that carries tool calls or results (which would break the
    /// prompt's tool units) is logged and left out; the load goes on.
    pub(crate) async fn compose(
        &self,
        conversation: &ConversationId,
        served: Served,
        counter: &dyn TokenCounter,
    ) -> Vec<Message> {
        if served.granted == 0 {
            return served.into_messages();
        }
        let query = latest_text(&served.window, Role::User).unwrap_or_default();
        let last_reply = latest_text(&served.window, Role::Assistant);
        let mut blocks = Vec::new();
        // The room the window leaves (in the counter's tokens) goes to the sources in order: each
        // may take its allowance and all that the sources before it left, and hands on what it
        // leaves. The blocks together never take more than the allowances and the room.
        let mut spare = served.ratio.budget(served.room);
        for (position, (source, allowance)) in self.sources.iter().take(served.granted).enumerate() {
            let allowance = allowance.saturating_add(spare);
            // A source without a block hands on all of it.
            spare = allowance;
            let request = ContextRequest::new(conversation, &query, allowance, counter)
                .with_window(served.below, &served.in_prompt);
            let request = match &last_reply {
                Some(reply) => request.with_last_reply(reply),
                None => request,
            };
            match source.context_boxed(&request).await {
                Ok(Some(block)) => match unfit(&block, allowance, counter) {
                    Ok(tokens) => {
                        spare = allowance.saturating_sub(tokens);
                        blocks.push(block);
                    }
                    Err(reason) => tracing::warn!(
                        conversation = %conversation,
                        source = position,
                        "context block left out: {reason}"
                    ),
                },
                Ok(None) => {}
                Err(error) => tracing::warn!(
                    conversation = %conversation,
                    source = position,
                    error = %chain_text(&error),
                    "context source failed; loading without its block"
                ),
            }
        }
        let Served { summary, window, .. } = served;
        let leading = super::window::leading_system(&window);
        let mut prompt = Vec::with_capacity(window.len() + blocks.len() + 1);
        let mut window = window.into_iter();
        prompt.extend(window.by_ref().take(leading));
        prompt.extend(summary);
        prompt.extend(blocks);
        prompt.extend(window);
        prompt
    }
}

/// The tokens of a block that may enter the prompt, or why it may not.
fn unfit(block: &Message, allowance: u32, counter: &dyn TokenCounter) -> Result<u32, String> {
    let tool_part = block.parts.iter().any(|part| matches!(part, Part::ToolCall(_) | Part::ToolResult(_)));
    if block.role == Role::Tool || tool_part {
        return Err("it carries tool calls or results".to_owned());
    }
    let tokens = counter.count(block);
    if tokens > allowance {
        return Err(format!("{tokens} tokens over its allowance of {allowance}"));
    }
    Ok(tokens)
}

/// The text of the newest message of `role` with any text, if there is one.
fn latest_text(window: &[Message], role: Role) -> Option<String> {
    window
        .iter()
        .rev()
        .filter(|message| message.role == role)
        .map(|message| message.text().into_owned())
        .find(|text| !text.trim().is_empty())
}

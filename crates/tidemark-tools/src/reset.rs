//! `new_context`: the model starts a fresh window of its conversation, through the memory it loads from.

use std::sync::Arc;

use serde_json::json;
use tidemark_core::boxed::BoxFuture;
use tidemark_core::{
    CompactionObserver, Compactor, ConversationId, ConversationStore, MemoryError, MemoryPolicy,
};
use tidemark_memory::{BackgroundMemory, CompactingMemory, Reset};

use crate::ToolOutput;

/// The longest hand-off note accepted, in characters.
pub(crate) const MAX_HANDOFF_CHARS: usize = 4_000;

/// A memory whose window the model may reset: what `new_context` calls.
///
/// Implemented for [`CompactingMemory`] and [`BackgroundMemory`] (and an
/// `Arc` of either), whose `new_context` methods it forwards to.
pub trait ContextReset: Send + Sync {
    /// Start a fresh window of `conversation`, keeping `note` in its summary.
    fn new_context<'a>(
        &'a self,
        conversation: &'a ConversationId,
        note: &'a str,
    ) -> BoxFuture<'a, Result<Reset, MemoryError>>;
}

impl<S, P, C, O> ContextReset for CompactingMemory<S, P, C, O>
where
    S: ConversationStore + Send + Sync,
    P: MemoryPolicy + Send + Sync,
    C: Compactor + Send + Sync,
    O: CompactionObserver + Send + Sync,
{
    fn new_context<'a>(
        &'a self,
        conversation: &'a ConversationId,
        note: &'a str,
    ) -> BoxFuture<'a, Result<Reset, MemoryError>> {
        Box::pin(CompactingMemory::new_context(self, conversation, note))
    }
}

impl<S, P, C, O> ContextReset for BackgroundMemory<S, P, C, O>
where
    S: ConversationStore + Send + Sync,
    P: MemoryPolicy + Send + Sync,
    C: Compactor + Send + Sync,
    O: CompactionObserver + Send + Sync,
{
    fn new_context<'a>(
        &'a self,
        conversation: &'a ConversationId,
        note: &'a str,
    ) -> BoxFuture<'a, Result<Reset, MemoryError>> {
        Box::pin(BackgroundMemory::new_context(self, conversation, note))
    }
}

impl<T: ContextReset + ?Sized> ContextReset for Arc<T> {
    fn new_context<'a>(
        &'a self,
        conversation: &'a ConversationId,
        note: &'a str,
    ) -> BoxFuture<'a, Result<Reset, MemoryError>> {
        (**self).new_context(conversation, note)
    }
}

/// Reset `conversation` through `memory` with `note`, as a tool answer.
pub(crate) async fn run(
    memory: &dyn ContextReset,
    conversation: &ConversationId,
    note: &str,
) -> Result<ToolOutput, ToolOutput> {
    match memory.new_context(conversation, note).await {
        Ok(reset) if reset.evicted == 0 => Err(ToolOutput::error(
            "there is nothing to clear: the window holds only the latest turn and what is always kept",
        )),
        Ok(reset) => Ok(ToolOutput::ok(&json!({
            "evicted_messages": reset.evicted,
            "window_starts_at_turn": reset.window_starts_at.0,
            "note": "the next prompt starts fresh: the summary holds your hand-off note, and earlier turns stay searchable with search_history",
        }))),
        Err(MemoryError::Busy) => Err(ToolOutput::error(
            "a compaction of this conversation is in progress; nothing was changed, try new_context again after your next step",
        )),
        Err(error) => {
            tracing::warn!(error = %tidemark_core::error::chain_text(&error), "new_context failed");
            Err(ToolOutput::error("the context could not be reset just now; nothing was changed"))
        }
    }
}

//! Demotion hooks both ways: a rig hook in tidemark's [`DemotingMemory`](https://docs.rs/tidemark-memory), a tidemark hook in rig-memory's adapters.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rig_core::completion::Message as RigMessage;
use rig_core::id::ConversationId as RigConversationId;
use rig_core::memory::{DemotionHook as RigDemotionHook, MemoryError as RigMemoryError};
use rig_core::wasm_compat::WasmBoxedFuture;
use tidemark_core::error::HookError;
use tidemark_core::store::StoredMessage;
use tidemark_core::{ConversationId, DemotionHook, HeuristicCounter, Message, Seq, SeqRange, TokenCounter};

use crate::{conversation, to_rig, to_tidemark};

/// A rig [`DemotionHook`](RigDemotionHook) that takes tidemark's demoted messages.
///
/// tidemark delivers a demoted range once per store (its delivery mark is
/// stored with the conversation, so a restart does not deliver it again);
/// the hook receives the messages converted by [`to_rig`], in order. A failed
/// conversion or a failed hook is tidemark's [`HookError`], whose source is
/// the [`ConvertError`](crate::ConvertError) or rig's
/// [`MemoryError`](RigMemoryError).
#[derive(Clone, Debug)]
pub struct FromRigHook<H>(pub H);

impl<H: RigDemotionHook> DemotionHook for FromRigHook<H> {
    async fn on_demote(
        &self,
        conversation: &ConversationId,
        _range: SeqRange,
        messages: &[StoredMessage],
    ) -> Result<(), HookError> {
        let history: Vec<Message> = messages.iter().map(|stored| Message::clone(&stored.message)).collect();
        let messages = to_rig(&history).map_err(HookError::new)?;
        let id = RigConversationId::new(conversation.as_str());
        self.0.on_demote(&id, messages).await.map_err(HookError::new)
    }
}

/// A tidemark [`DemotionHook`] that rig-memory's `DemotingPolicyMemory` (or any rig adapter) can deliver to.
///
/// rig hands over demoted messages without their places in the conversation;
/// tidemark's hooks key what they keep by conversation and sequence number.
/// This adapter numbers each conversation's demoted messages in the order
/// rig delivers them, from 0. rig's adapters keep their delivery mark in the
/// process only, so after a restart they deliver the demoted messages again
/// from the first, and the numbers come out the same: a tidemark hook that is
/// idempotent on (conversation, sequence number), as tidemark's contract asks,
/// is then idempotent on rig's redelivery, as rig's contract asks. When the
/// conversation is cleared in rig, call [`forget`](Self::forget) so that the
/// numbering starts over with it.
pub struct RigHook<H> {
    hook: H,
    counter: Arc<dyn TokenCounter>,
    delivered: Mutex<HashMap<ConversationId, u64>>,
}

impl<H> RigHook<H> {
    /// rig's view of `hook`; the token counts handed to it are [`HeuristicCounter`]'s.
    pub fn new(hook: H) -> Self {
        Self::with_counter(hook, Arc::new(HeuristicCounter::default()))
    }

    /// rig's view of `hook`, with token counts from `counter`.
    pub fn with_counter(hook: H, counter: Arc<dyn TokenCounter>) -> Self {
        Self { hook, counter, delivered: Mutex::new(HashMap::new()) }
    }

    /// Start the numbering of `conversation` over, as rig does when the conversation is cleared.
    pub fn forget(&self, conversation: &RigConversationId) {
        let mut delivered = self.delivered.lock().unwrap_or_else(PoisonError::into_inner);
        delivered.retain(|id, _| id.as_str() != conversation.as_str());
    }

    /// The tidemark hook.
    pub fn inner(&self) -> &H {
        &self.hook
    }
}

impl<H> std::fmt::Debug for RigHook<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RigHook").field("counter", &self.counter.name()).finish_non_exhaustive()
    }
}

impl<H: DemotionHook> RigDemotionHook for RigHook<H> {
    fn on_demote<'a>(
        &'a self,
        id: &'a RigConversationId,
        messages: Vec<RigMessage>,
    ) -> WasmBoxedFuture<'a, Result<(), RigMemoryError>> {
        Box::pin(async move {
            let conversation = conversation(id)?;
            let messages = to_tidemark(&messages).map_err(crate::error::backend)?;
            let start = {
                let delivered = self.delivered.lock().unwrap_or_else(PoisonError::into_inner);
                delivered.get(&conversation).copied().unwrap_or(0)
            };
            let stored: Vec<StoredMessage> = (start..)
                .zip(messages)
                .map(|(seq, message)| StoredMessage::new(Seq(seq), self.counter.count(&message), message))
                .collect();
            let end = start + stored.len() as u64;
            self.hook
                .on_demote(&conversation, SeqRange::new(Seq(start), Seq(end)), &stored)
                .await
                .map_err(crate::error::backend)?;
            // Advanced only on success, like rig's own mark: a failed batch is numbered the same when it comes again.
            let mut delivered = self.delivered.lock().unwrap_or_else(PoisonError::into_inner);
            let mark = delivered.entry(conversation).or_insert(0);
            *mark = (*mark).max(end);
            Ok(())
        })
    }
}

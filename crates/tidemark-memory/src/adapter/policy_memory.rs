//! [`PolicyMemory`]: a store behind a window policy, with the watermark kept in the store.

use std::num::NonZeroU32;

use tidemark_core::{
    Calibration, ContextSource, ConversationId, ConversationMemory, ConversationStore, MemoryError,
    MemoryPolicy, Message, SeqRange, StoreError, Usage,
};

use super::MAX_ATTEMPTS;
use super::window::Fit;
use super::{Parts, accessors};

/// A [`ConversationMemory`] that loads what its policy keeps and lets the rest go.
///
/// [`load_within`](ConversationMemory::load_within) fits the prompt to a
/// lower budget for one call (after the provider rejected a prompt as too
/// long) by demoting more, whole tool units at a time, exactly as a load
/// under a policy with that budget would; later loads use the policy's own
/// budget again.
///
/// Demoted messages leave the window for good: the watermark is stored, so a
/// later load, a new process or a wider policy does not bring them back. Use
/// [`DemotingMemory`](crate::DemotingMemory) to hand them to a hook first, or
/// [`CompactingMemory`](crate::CompactingMemory) to keep a summary of them.
///
/// ```
/// use tidemark_core::{ConversationId, ConversationMemory, Message};
/// use tidemark_memory::{InMemoryStore, PolicyMemory, SlidingWindow};
///
/// # futures::executor::block_on(async {
/// let memory = PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(2));
/// let id = ConversationId::new("demo")?;
/// memory.append(&id, vec![Message::user("a"), Message::assistant("b"), Message::user("c")]).await?;
/// assert_eq!(memory.load(&id).await?, vec![Message::assistant("b"), Message::user("c")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct PolicyMemory<S, P> {
    parts: Parts<S, P>,
}

impl<S, P> PolicyMemory<S, P> {
    /// Wrap `inner` so that every load runs through `policy`.
    pub fn new(inner: S, policy: P) -> Self {
        Self { parts: Parts::new(inner, policy) }
    }

    /// The same memory asking `source` for a block of at most `max_tokens` tokens at every load; call it once per source.
    ///
    /// It works as [`CompactingMemory::with_context`](crate::CompactingMemory::with_context)
    /// does: the allowances are reserved before the policy fits the window,
    /// and a block that fails, or is over its allowance, is left out.
    #[must_use]
    pub fn with_context(mut self, source: impl ContextSource + 'static, max_tokens: u32) -> Self {
        self.parts.add_context(source, max_tokens);
        self
    }

    accessors!();
}

impl<S: ConversationStore, P: MemoryPolicy> PolicyMemory<S, P> {
    /// A load, fitted `within` a lower budget when one is given.
    async fn load_inner(
        &self,
        conversation: &ConversationId,
        within: Option<NonZeroU32>,
    ) -> Result<Vec<Message>, MemoryError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (view, chosen) = match self.parts.look(conversation, within).await? {
                Fit::Fits(served) => return self.parts.finish(conversation, served, within).await,
                Fit::Evicts(view, chosen) => (view, chosen),
            };
            let summary = view.state.summary.clone();
            let plan = view.plan(&chosen.selection, summary.clone());
            match self.parts.inner.save_state(conversation, view.state.generation, plan.state).await {
                Ok(_) => {
                    let served = view.assemble(summary.as_ref(), &chosen);
                    return self.parts.finish(conversation, served, within).await;
                }
                // Someone moved the state first (another load, a clear): look again.
                Err(StoreError::StateConflict { .. }) if attempt < MAX_ATTEMPTS => {}
                Err(error) => return Err(error.into()),
            }
        }
    }
}

impl<S: ConversationStore, P: MemoryPolicy> ConversationMemory for PolicyMemory<S, P> {
    async fn load(&self, conversation: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        self.load_inner(conversation, None).await
    }

    async fn load_within(
        &self,
        conversation: &ConversationId,
        budget: NonZeroU32,
    ) -> Result<Vec<Message>, MemoryError> {
        self.load_inner(conversation, Some(budget)).await
    }

    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        self.parts.append(conversation, messages).await
    }

    async fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> Result<Calibration, MemoryError> {
        self.parts.observe_usage(conversation, prompt, usage).await
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        self.parts.clear(conversation).await
    }
}

//! [`DemotingMemory`]: a window policy whose evicted messages are handed to a [`DemotionHook`] before they leave.

use std::num::NonZeroU32;

use tidemark_core::error::chain_text;
use tidemark_core::{
    Calibration, ContextSource, ConversationId, ConversationMemory, ConversationStore, DemotionHook,
    MemoryError, MemoryPolicy, Message, SeqRange, StoreError, Usage,
};

use super::gate::Gates;
use super::window::Fit;
use super::{FailureMode, MAX_ATTEMPTS};
use super::{Parts, accessors};

/// A [`ConversationMemory`] that delivers every demoted message to a hook, then moves the watermark.
///
/// Delivery is at least once and in order: the watermark is stored only after
/// the hook returned `Ok`, so an error, a crash or a cancelled load in between
/// means the same messages are offered again, and never that they are lost.
/// Because the watermark lives in the store, a restart or a second adapter
/// over the same store does not deliver them again once stored. Concurrent
/// loads of one conversation deliver once: the later ones wait and then find
/// nothing new to demote.
///
/// [`load_within`](ConversationMemory::load_within) fits the prompt to a
/// lower budget for one call (after the provider rejected a prompt as too
/// long) by demoting more, whole tool units at a time, exactly as a load
/// under a policy with that budget would; later loads use the policy's own
/// budget again.
///
/// A hook error is returned to the caller by default; with
/// [`FailureMode::Degrade`] the load returns the policy's window instead and
/// the failure is logged.
///
/// ```
/// use std::sync::Mutex;
/// use tidemark_core::{ConversationId, ConversationMemory, DemotionHook, HookError, Message, SeqRange, StoredMessage};
/// use tidemark_memory::{DemotingMemory, InMemoryStore, SlidingWindow};
///
/// #[derive(Default)]
/// struct Archive(Mutex<Vec<String>>);
///
/// impl DemotionHook for Archive {
///     async fn on_demote(&self, _: &ConversationId, _: SeqRange, messages: &[StoredMessage]) -> Result<(), HookError> {
///         let mut archive = self.0.lock().map_err(|_| HookError::new("poisoned"))?;
///         archive.extend(messages.iter().map(|m| m.message.text().into_owned()));
///         Ok(())
///     }
/// }
///
/// # futures::executor::block_on(async {
/// let memory = DemotingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(1), Archive::default());
/// let id = ConversationId::new("demo")?;
/// memory.append(&id, vec![Message::user("first"), Message::user("second")]).await?;
/// assert_eq!(memory.load(&id).await?, vec![Message::user("second")]);
/// assert_eq!(*memory.hook().0.lock().unwrap(), vec!["first".to_owned()]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct DemotingMemory<S, P, H> {
    parts: Parts<S, P>,
    hook: H,
    failure: FailureMode,
    gates: Gates,
}

impl<S, P, H> DemotingMemory<S, P, H> {
    /// Wrap `inner` so that every load runs through `policy` and demoted messages go to `hook`.
    pub fn new(inner: S, policy: P, hook: H) -> Self {
        Self {
            parts: Parts::new(inner, policy),
            hook,
            failure: FailureMode::default(),
            gates: Gates::default(),
        }
    }

    /// The same memory with another failure mode.
    #[must_use]
    pub fn with_failure_mode(mut self, failure: FailureMode) -> Self {
        self.failure = failure;
        self
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

    /// The hook.
    pub fn hook(&self) -> &H {
        &self.hook
    }

    /// How many conversations have a load in flight now (for leak checks).
    pub fn in_flight(&self) -> usize {
        self.gates.len()
    }
}

impl<S, P, H> DemotingMemory<S, P, H>
where
    S: ConversationStore,
    P: MemoryPolicy,
    H: DemotionHook,
{
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
            let (_flight, view, chosen) = match self.gates.claim(conversation).try_acquire() {
                Ok(flight) => (flight, view, chosen),
                Err(claim) => {
                    let flight = claim.acquire().await;
                    // The load before us has probably delivered and moved the
                    // watermark; the window is read again only if it did.
                    let view = view.refresh(&self.parts.inner, conversation).await?;
                    match self.parts.fit(view, within) {
                        Fit::Fits(served) => return self.parts.finish(conversation, served, within).await,
                        Fit::Evicts(view, chosen) => (flight, view, chosen),
                    }
                }
            };
            let summary = view.state.summary.clone();
            let plan = view.plan(&chosen.selection, summary.clone());
            if let Err(error) = self.hook.on_demote(conversation, plan.range, &plan.demoted).await {
                return match self.failure {
                    FailureMode::Propagate => Err(MemoryError::Hook(error)),
                    FailureMode::Degrade => {
                        tracing::warn!(
                            conversation = %conversation,
                            range = %plan.range,
                            error = %chain_text(&error),
                            "demotion hook failed; serving the window without moving the watermark"
                        );
                        let served = view.assemble(summary.as_ref(), &chosen);
                        self.parts.finish(conversation, served, within).await
                    }
                };
            }
            match self.parts.inner.save_state(conversation, view.state.generation, plan.state).await {
                Ok(_) => {
                    let served = view.assemble(summary.as_ref(), &chosen);
                    return self.parts.finish(conversation, served, within).await;
                }
                // A clear or another process changed the state; the hook saw the
                // messages (at least once is the contract) and we look again.
                Err(StoreError::StateConflict { .. }) if attempt < MAX_ATTEMPTS => continue,
                Err(error) => return Err(error.into()),
            }
        }
    }
}

impl<S, P, H> ConversationMemory for DemotingMemory<S, P, H>
where
    S: ConversationStore,
    P: MemoryPolicy,
    H: DemotionHook,
{
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

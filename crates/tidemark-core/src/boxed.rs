//! Type-erased companions of the async traits, for choosing an implementation at run time.
//!
//! The traits in this crate return `impl Future`, which keeps static
//! composition free of allocations but makes them unusable as trait objects.
//! Each `Dyn*` trait here is object safe, implemented for every implementor of
//! its static twin, and `dyn Dyn*` implements the static trait again, so a
//! `Box<dyn DynConversationStore>` (alias [`BoxStore`]) or an
//! `Arc<dyn DynCompactor>` works wherever a store or a compactor is expected.
//! The price is one boxed future per call.
//!
//! ```
//! use tidemark_core::boxed::{BoxModel, BoxFuture};
//! use tidemark_core::{Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, Usage};
//!
//! struct Fixed(&'static str);
//!
//! impl CompletionModel for Fixed {
//!     async fn complete(&self, _: CompletionRequest) -> Result<Completion, CompletionError> {
//!         Ok(Completion::new(self.0, FinishReason::Stop, Usage::default()))
//!     }
//! }
//!
//! // Pick a model at run time; both arms have the same type.
//! let terse = true;
//! let model: BoxModel = if terse { Box::new(Fixed("ok")) } else { Box::new(Fixed("all good")) };
//! let answer = futures::executor::block_on(model.complete(CompletionRequest::new(vec![])))?;
//! assert_eq!(answer.text, "ok");
//! # Ok::<(), CompletionError>(())
//! ```

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::calibration::Calibration;
use crate::compactor::Compactor;
use crate::context::{ContextRequest, ContextSource};
use crate::error::{
    CompactionError, CompletionError, ContextError, HookError, MemoryError, ObserverError, StoreError,
};
use crate::event::CompactionEvent;
use crate::history::Epoch;
use crate::hook::DemotionHook;
use crate::id::{ConversationId, Seq, SeqRange};
use crate::memory::ConversationMemory;
use crate::message::Message;
use crate::model::{Completion, CompletionModel, CompletionRequest, Usage};
use crate::observer::CompactionObserver;
use crate::recall::{Passage, RecallQuery};
use crate::store::{CompactionState, ConversationStats, ConversationStore, Lease, NewMessage, StoredMessage};

mod facts;

pub use facts::DynFactStore;

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A store chosen at run time.
pub type BoxStore = Box<dyn DynConversationStore>;
/// A memory chosen at run time.
pub type BoxMemory = Box<dyn DynConversationMemory>;
/// A demotion hook chosen at run time.
pub type BoxHook = Box<dyn DynDemotionHook>;
/// A compactor chosen at run time; its artifact is an [`ErasedArtifact`].
pub type BoxCompactor = Box<dyn DynCompactor>;
/// A completion model chosen at run time.
pub type BoxModel = Box<dyn DynCompletionModel>;
/// A compaction observer chosen at run time.
pub type BoxObserver = Box<dyn DynCompactionObserver>;
/// A context source chosen at run time.
pub type BoxContextSource = Box<dyn DynContextSource>;
/// A fact store chosen at run time.
pub type BoxFactStore = Box<dyn DynFactStore>;

/// The object-safe twin of [`ConversationStore`].
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynConversationStore: Send + Sync {
    fn append_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        messages: Vec<NewMessage>,
    ) -> BoxFuture<'a, Result<SeqRange, StoreError>>;
    fn load_range_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
    ) -> BoxFuture<'a, Result<Vec<StoredMessage>, StoreError>>;
    fn load_seqs_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        seqs: &'a [Seq],
    ) -> BoxFuture<'a, Result<Vec<StoredMessage>, StoreError>>;
    fn stats_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<ConversationStats, StoreError>>;
    fn clear_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<(), StoreError>>;
    fn state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>>;
    fn save_state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>>;
    fn prune_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<u64, StoreError>>;
    fn conversations_boxed(&self) -> BoxFuture<'_, Result<Vec<ConversationId>, StoreError>>;
    fn try_lease_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        holder: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<Lease, StoreError>>;
    fn release_lease_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        holder: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    fn search_passages_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        query: &'a RecallQuery,
    ) -> BoxFuture<'a, Result<Vec<Passage>, StoreError>>;
    fn calibration_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Calibration, StoreError>>;
    fn save_calibration_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        calibration: Calibration,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    fn set_user_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        user: &'a ConversationId,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    fn user_conversations_boxed<'a>(
        &'a self,
        user: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<ConversationId>, StoreError>>;
    fn epochs_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<Epoch>, StoreError>>;
    fn restore_state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>>;
    fn fork_boxed<'a>(
        &'a self,
        source: &'a ConversationId,
        at: Seq,
        target: &'a ConversationId,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>>;
}

impl<T: ConversationStore> DynConversationStore for T {
    fn append_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        messages: Vec<NewMessage>,
    ) -> BoxFuture<'a, Result<SeqRange, StoreError>> {
        Box::pin(self.append(conversation, messages))
    }
    fn load_range_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
    ) -> BoxFuture<'a, Result<Vec<StoredMessage>, StoreError>> {
        Box::pin(self.load_range(conversation, range))
    }
    fn load_seqs_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        seqs: &'a [Seq],
    ) -> BoxFuture<'a, Result<Vec<StoredMessage>, StoreError>> {
        Box::pin(self.load_seqs(conversation, seqs))
    }
    fn stats_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<ConversationStats, StoreError>> {
        Box::pin(self.stats(conversation))
    }
    fn clear_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.clear(conversation))
    }
    fn state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>> {
        Box::pin(self.state(conversation))
    }
    fn save_state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>> {
        Box::pin(self.save_state(conversation, expected_generation, state))
    }
    fn prune_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(self.prune(conversation))
    }
    fn conversations_boxed(&self) -> BoxFuture<'_, Result<Vec<ConversationId>, StoreError>> {
        Box::pin(self.conversations())
    }
    fn try_lease_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        holder: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<Lease, StoreError>> {
        Box::pin(self.try_lease(conversation, holder, ttl))
    }
    fn release_lease_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        holder: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.release_lease(conversation, holder))
    }
    fn search_passages_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        query: &'a RecallQuery,
    ) -> BoxFuture<'a, Result<Vec<Passage>, StoreError>> {
        Box::pin(self.search_passages(conversation, query))
    }
    fn calibration_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Calibration, StoreError>> {
        Box::pin(self.calibration(conversation))
    }
    fn save_calibration_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        calibration: Calibration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.save_calibration(conversation, calibration))
    }
    fn set_user_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        user: &'a ConversationId,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.set_user(conversation, user))
    }
    fn user_conversations_boxed<'a>(
        &'a self,
        user: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<ConversationId>, StoreError>> {
        Box::pin(self.user_conversations(user))
    }
    fn epochs_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<Epoch>, StoreError>> {
        Box::pin(self.epochs(conversation))
    }
    fn restore_state_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>> {
        Box::pin(self.restore_state(conversation, expected_generation, target))
    }
    fn fork_boxed<'a>(
        &'a self,
        source: &'a ConversationId,
        at: Seq,
        target: &'a ConversationId,
    ) -> BoxFuture<'a, Result<CompactionState, StoreError>> {
        Box::pin(self.fork(source, at, target))
    }
}

// The static impls below await the boxed future inside an `async fn` rather than
// return it: the boxed future borrows `self` and the arguments under one shared
// lifetime, which the trait's `impl Future` return type cannot name, while an
// `async fn` captures each lifetime separately.
impl ConversationStore for dyn DynConversationStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        self.append_boxed(conversation, messages).await
    }
    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.load_range_boxed(conversation, range).await
    }
    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.load_seqs_boxed(conversation, seqs).await
    }
    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        self.stats_boxed(conversation).await
    }
    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.clear_boxed(conversation).await
    }
    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        self.state_boxed(conversation).await
    }
    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        self.save_state_boxed(conversation, expected_generation, state).await
    }
    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        self.prune_boxed(conversation).await
    }
    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        self.conversations_boxed().await
    }
    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        self.try_lease_boxed(conversation, holder, ttl).await
    }
    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        self.release_lease_boxed(conversation, holder).await
    }
    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        self.search_passages_boxed(conversation, query).await
    }
    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        self.calibration_boxed(conversation).await
    }
    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        self.save_calibration_boxed(conversation, calibration).await
    }
    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        self.set_user_boxed(conversation, user).await
    }
    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        self.user_conversations_boxed(user).await
    }
    async fn epochs(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        self.epochs_boxed(conversation).await
    }
    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        self.restore_state_boxed(conversation, expected_generation, target).await
    }
    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        self.fork_boxed(source, at, target).await
    }
}

/// The object-safe twin of [`ConversationMemory`].
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynConversationMemory: Send + Sync {
    fn load_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<Message>, MemoryError>>;
    fn load_within_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        budget: std::num::NonZeroU32,
    ) -> BoxFuture<'a, Result<Vec<Message>, MemoryError>>;
    fn observe_usage_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        prompt: &'a [Message],
        usage: Usage,
    ) -> BoxFuture<'a, Result<Calibration, MemoryError>>;
    fn append_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        messages: Vec<Message>,
    ) -> BoxFuture<'a, Result<SeqRange, MemoryError>>;
    fn clear_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<(), MemoryError>>;
}

impl<T: ConversationMemory> DynConversationMemory for T {
    fn load_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
    ) -> BoxFuture<'a, Result<Vec<Message>, MemoryError>> {
        Box::pin(self.load(conversation))
    }
    fn load_within_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        budget: std::num::NonZeroU32,
    ) -> BoxFuture<'a, Result<Vec<Message>, MemoryError>> {
        Box::pin(self.load_within(conversation, budget))
    }
    fn observe_usage_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        prompt: &'a [Message],
        usage: Usage,
    ) -> BoxFuture<'a, Result<Calibration, MemoryError>> {
        Box::pin(self.observe_usage(conversation, prompt, usage))
    }
    fn append_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        messages: Vec<Message>,
    ) -> BoxFuture<'a, Result<SeqRange, MemoryError>> {
        Box::pin(self.append(conversation, messages))
    }
    fn clear_boxed<'a>(&'a self, conversation: &'a ConversationId) -> BoxFuture<'a, Result<(), MemoryError>> {
        Box::pin(self.clear(conversation))
    }
}

impl ConversationMemory for dyn DynConversationMemory {
    async fn load(&self, conversation: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        self.load_boxed(conversation).await
    }
    async fn load_within(
        &self,
        conversation: &ConversationId,
        budget: std::num::NonZeroU32,
    ) -> Result<Vec<Message>, MemoryError> {
        self.load_within_boxed(conversation, budget).await
    }
    async fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> Result<Calibration, MemoryError> {
        self.observe_usage_boxed(conversation, prompt, usage).await
    }
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        self.append_boxed(conversation, messages).await
    }
    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        self.clear_boxed(conversation).await
    }
}

/// The object-safe twin of [`DemotionHook`].
#[allow(missing_docs)] // The method mirrors the documented method of the static trait.
pub trait DynDemotionHook: Send + Sync {
    fn on_demote_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
        messages: &'a [StoredMessage],
    ) -> BoxFuture<'a, Result<(), HookError>>;
}

impl<T: DemotionHook> DynDemotionHook for T {
    fn on_demote_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
        messages: &'a [StoredMessage],
    ) -> BoxFuture<'a, Result<(), HookError>> {
        Box::pin(self.on_demote(conversation, range, messages))
    }
}

impl DemotionHook for dyn DynDemotionHook {
    async fn on_demote(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        messages: &[StoredMessage],
    ) -> Result<(), HookError> {
        self.on_demote_boxed(conversation, range, messages).await
    }
}

/// The artifact of a type-erased compactor: the concrete artifact as JSON, and its rendered message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErasedArtifact {
    /// The concrete compactor's artifact, as JSON.
    pub value: serde_json::Value,
    /// The message the concrete compactor rendered for it.
    pub message: Message,
}

/// The object-safe twin of [`Compactor`], with the artifact erased to an [`ErasedArtifact`].
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynCompactor: Send + Sync {
    fn name_boxed(&self) -> &str;
    fn compact_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        evicted: &'a [Message],
        carry_over: Option<&'a ErasedArtifact>,
        hint: Option<&'a str>,
    ) -> BoxFuture<'a, Result<ErasedArtifact, CompactionError>>;
}

impl<T: Compactor> DynCompactor for T {
    fn name_boxed(&self) -> &str {
        self.name()
    }

    fn compact_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        evicted: &'a [Message],
        carry_over: Option<&'a ErasedArtifact>,
        hint: Option<&'a str>,
    ) -> BoxFuture<'a, Result<ErasedArtifact, CompactionError>> {
        Box::pin(async move {
            let carry_over = carry_over
                .map(|erased| serde_json::from_value::<T::Artifact>(erased.value.clone()))
                .transpose()
                .map_err(|source| CompactionError::Artifact { source })?;
            let artifact = self.compact(conversation, evicted, carry_over.as_ref(), hint).await?;
            let value =
                serde_json::to_value(&artifact).map_err(|source| CompactionError::Artifact { source })?;
            let message = self.render(&artifact);
            Ok(ErasedArtifact { value, message })
        })
    }
}

impl Compactor for dyn DynCompactor {
    type Artifact = ErasedArtifact;

    fn name(&self) -> &str {
        self.name_boxed()
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&ErasedArtifact>,
        hint: Option<&str>,
    ) -> Result<ErasedArtifact, CompactionError> {
        self.compact_boxed(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &ErasedArtifact) -> Message {
        artifact.message.clone()
    }
}

/// The object-safe twin of [`CompletionModel`].
#[allow(missing_docs)] // The method mirrors the documented method of the static trait.
pub trait DynCompletionModel: Send + Sync {
    fn complete_boxed(
        &self,
        request: CompletionRequest,
    ) -> BoxFuture<'_, Result<Completion, CompletionError>>;
}

impl<T: CompletionModel> DynCompletionModel for T {
    fn complete_boxed(
        &self,
        request: CompletionRequest,
    ) -> BoxFuture<'_, Result<Completion, CompletionError>> {
        Box::pin(self.complete(request))
    }
}

impl CompletionModel for dyn DynCompletionModel {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        self.complete_boxed(request).await
    }
}

/// The object-safe twin of [`CompactionObserver`].
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynCompactionObserver: Send + Sync {
    fn on_pre_compress_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
        evicted: &'a [Message],
    ) -> BoxFuture<'a, Result<Option<String>, ObserverError>>;
    fn on_session_switch_boxed<'a>(
        &'a self,
        new: &'a ConversationId,
        parent: Option<&'a ConversationId>,
        reset: bool,
    ) -> BoxFuture<'a, Result<(), ObserverError>>;
    fn on_event_boxed(&self, event: &CompactionEvent);
}

impl<T: CompactionObserver> DynCompactionObserver for T {
    fn on_pre_compress_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        range: SeqRange,
        evicted: &'a [Message],
    ) -> BoxFuture<'a, Result<Option<String>, ObserverError>> {
        Box::pin(self.on_pre_compress(conversation, range, evicted))
    }
    fn on_session_switch_boxed<'a>(
        &'a self,
        new: &'a ConversationId,
        parent: Option<&'a ConversationId>,
        reset: bool,
    ) -> BoxFuture<'a, Result<(), ObserverError>> {
        Box::pin(self.on_session_switch(new, parent, reset))
    }
    fn on_event_boxed(&self, event: &CompactionEvent) {
        self.on_event(event);
    }
}

impl CompactionObserver for dyn DynCompactionObserver {
    async fn on_pre_compress(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> Result<Option<String>, ObserverError> {
        self.on_pre_compress_boxed(conversation, range, evicted).await
    }
    async fn on_session_switch(
        &self,
        new: &ConversationId,
        parent: Option<&ConversationId>,
        reset: bool,
    ) -> Result<(), ObserverError> {
        self.on_session_switch_boxed(new, parent, reset).await
    }
    fn on_event(&self, event: &CompactionEvent) {
        self.on_event_boxed(event);
    }
}

/// The object-safe twin of [`ContextSource`].
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynContextSource: Send + Sync {
    fn context_boxed<'a>(
        &'a self,
        request: &'a ContextRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<Message>, ContextError>>;
    fn on_evicted_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        evicted: &'a [StoredMessage],
    ) -> BoxFuture<'a, ()>;
}

impl<T: ContextSource> DynContextSource for T {
    fn context_boxed<'a>(
        &'a self,
        request: &'a ContextRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<Message>, ContextError>> {
        Box::pin(self.context(request))
    }

    fn on_evicted_boxed<'a>(
        &'a self,
        conversation: &'a ConversationId,
        evicted: &'a [StoredMessage],
    ) -> BoxFuture<'a, ()> {
        Box::pin(self.on_evicted(conversation, evicted))
    }
}

impl ContextSource for dyn DynContextSource {
    async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
        self.context_boxed(request).await
    }

    async fn on_evicted(&self, conversation: &ConversationId, evicted: &[StoredMessage]) {
        self.on_evicted_boxed(conversation, evicted).await;
    }
}

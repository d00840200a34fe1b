//! [`Memory`] and its [`MemoryBuilder`]: a compacting memory with its store, counter, summarizer,
//! facts and recall wired once, in one place.

use std::fmt;
use std::num::NonZeroU32;
use std::sync::Arc;

use tidemark_compaction::{LlmCompactor, SegmentBudget, Segmented, TemplateCompactor};
use tidemark_core::boxed::{DynCompactionObserver, DynCompactor, ErasedArtifact};
use tidemark_core::cache::CachePrices;
use tidemark_core::history::Epoch;
use tidemark_core::{
    Calibration, CompactionError, CompactionEvent, CompactionObserver, Compactor, CompletionModel,
    ConversationId, ConversationMemory, ConversationStore, MemoryError, MemoryPolicy, Message, ObserverError,
    Seq, SeqRange, TokenCounter, Usage,
};
#[cfg(feature = "facts")]
use tidemark_facts::FactCoordinator;
#[cfg(feature = "recall")]
use tidemark_facts::Recall;
#[cfg(not(feature = "tiktoken"))]
use tidemark_memory::HeuristicCounter;
use tidemark_memory::{BackgroundMemory, CachePlan, CompactingMemory, TokenWindow, Undone};

use crate::store::Store;

/// The budget a builder uses unless told otherwise, in tokens.
pub const DEFAULT_BUDGET: u32 = 8_000;

/// The share of the budget a rolling summary may take, in percent (as the CLI's).
const SUMMARY_PERCENT: u32 = 25;

/// The share of the budget the facts block may take unless told otherwise, in percent.
pub const FACTS_PERCENT: u32 = 10;

/// The share of the budget the recall block may take unless told otherwise, in percent.
pub const RECALL_PERCENT: u32 = 15;

/// A counter shared by the policy, the memory and its summaries.
type Counter = Arc<dyn TokenCounter>;

/// The compacting memory a builder makes: every part erased to the one type, so that the choices
/// of store, summarizer and extras are made at run time.
type Compacting = CompactingMemory<Store, Box<dyn MemoryPolicy>, AnyCompactor, AnyObserver>;

/// A compactor chosen at run time.
///
/// A named wrapper rather than `Box<dyn DynCompactor>` itself: the memory's futures must be
/// `Send`, and the compiler cannot prove that through a bare trait object's implied lifetime.
struct AnyCompactor(Box<dyn DynCompactor>);

impl Compactor for AnyCompactor {
    type Artifact = ErasedArtifact;

    fn name(&self) -> &str {
        self.0.name_boxed()
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&ErasedArtifact>,
        hint: Option<&str>,
    ) -> Result<ErasedArtifact, CompactionError> {
        self.0.compact_boxed(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &ErasedArtifact) -> Message {
        artifact.message.clone()
    }
}

/// A compaction observer chosen at run time (named for the reason [`AnyCompactor`] is).
struct AnyObserver(Box<dyn DynCompactionObserver>);

impl CompactionObserver for AnyObserver {
    async fn on_pre_compress(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> Result<Option<String>, ObserverError> {
        self.0.on_pre_compress_boxed(conversation, range, evicted).await
    }

    async fn on_session_switch(
        &self,
        new: &ConversationId,
        parent: Option<&ConversationId>,
        reset: bool,
    ) -> Result<(), ObserverError> {
        self.0.on_session_switch_boxed(new, parent, reset).await
    }

    fn on_event(&self, event: &CompactionEvent) {
        self.0.on_event_boxed(event);
    }
}

/// Why a [`MemoryBuilder`] could not build.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The budget is zero.
    #[error("the token budget must be at least 1")]
    ZeroBudget,
    /// An allowance of a context block does not fit the budget.
    #[error("the {block} block's allowance of {tokens} tokens leaves no room in a budget of {budget}")]
    Allowance {
        /// `"facts"` or `"recall"`.
        block: &'static str,
        /// The allowance asked for.
        tokens: u32,
        /// The budget.
        budget: u32,
    },
    /// The store could not be opened.
    #[error(transparent)]
    Store(#[from] crate::store::OpenError),
    /// The tokenizer could not be loaded.
    #[error("could not load the tokenizer")]
    Tokenizer(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Builds a [`Memory`]: pick a store, a budget and the extras, then [`build`](Self::build).
///
/// Every part has a default: a store in memory, a budget of [`DEFAULT_BUDGET`] tokens counted as
/// OpenAI's o200k tokenizer counts them (the `tiktoken` feature; else a heuristic counter), a
/// rolling summary written by a template (no model call), no facts and no recall.
///
/// ```
/// # #[cfg(not(feature = "recall"))]
/// # fn main() {}
/// # #[cfg(feature = "recall")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let memory = tidemark::Memory::builder().budget(4_000).facts().recall().build()?;
/// assert_eq!(memory.budget().get(), 4_000);
/// # Ok(())
/// # }
/// ```
#[must_use]
pub struct MemoryBuilder {
    store: Option<Result<Store, crate::store::OpenError>>,
    budget: u32,
    counter: Option<Counter>,
    summarizer: Option<Summarizer>,
    #[cfg(feature = "facts")]
    facts: Option<Option<u32>>,
    #[cfg(feature = "facts")]
    user: Option<ConversationId>,
    #[cfg(feature = "recall")]
    recall: Option<Option<u32>>,
    cache: Option<CachePrices>,
    background: bool,
}

/// What writes the summaries.
enum Summarizer {
    /// A model, asked for a bounded answer.
    Model(Arc<dyn tidemark_core::boxed::DynCompletionModel>),
}

impl fmt::Debug for MemoryBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryBuilder")
            .field("budget", &self.budget)
            .field("summarizer", &self.summarizer.as_ref().map(|_| "model"))
            .field("cache", &self.cache)
            .field("background", &self.background)
            .finish_non_exhaustive()
    }
}

impl MemoryBuilder {
    fn new() -> Self {
        Self {
            store: None,
            budget: DEFAULT_BUDGET,
            counter: None,
            summarizer: None,
            #[cfg(feature = "facts")]
            facts: None,
            #[cfg(feature = "facts")]
            user: None,
            #[cfg(feature = "recall")]
            recall: None,
            cache: None,
            background: false,
        }
    }

    /// Keep the conversations (and facts) in the SQLite file at `path`, created if missing: they
    /// survive restarts, with the summary and the compaction state.
    #[cfg(feature = "sqlite")]
    pub fn sqlite(mut self, path: impl AsRef<std::path::Path>) -> Self {
        self.store = Some(Store::sqlite(path));
        self
    }

    /// Keep everything in this process's memory (the default).
    pub fn in_memory(mut self) -> Self {
        self.store = Some(Ok(Store::in_memory()));
        self
    }

    /// Use `store`: one opened with [`Store::open`] (an SQLite file or a PostgreSQL URL), or
    /// [`Store::custom`] over a store of your own.
    pub fn store(mut self, store: Store) -> Self {
        self.store = Some(Ok(store));
        self
    }

    /// The token budget every prompt fits: summary, facts, recall and window together.
    pub fn budget(mut self, tokens: u32) -> Self {
        self.budget = tokens;
        self
    }

    /// Count tokens with `counter` instead of the default.
    pub fn counter(mut self, counter: impl TokenCounter + 'static) -> Self {
        self.counter = Some(Arc::new(counter));
        self
    }

    /// Have `model` write the summaries (an `OpenAiModel`, an `AnthropicModel` or any
    /// `CompletionModel`), asked for at most a quarter of the budget; a failed or empty answer is
    /// never stored, and the turns stay until a later compaction succeeds.
    pub fn summarizer(mut self, model: impl CompletionModel + 'static) -> Self {
        self.summarizer = Some(Summarizer::Model(Arc::new(model)));
        self
    }

    /// Keep long-term facts from the turns a compaction evicts, and put the ones that bear on the
    /// latest user message back into each prompt, within a tenth of the budget.
    #[cfg(feature = "facts")]
    pub fn facts(mut self) -> Self {
        self.facts = Some(None);
        self
    }

    /// [`facts`](Self::facts) within `tokens` of the budget.
    #[cfg(feature = "facts")]
    pub fn facts_tokens(mut self, tokens: u32) -> Self {
        self.facts = Some(Some(tokens));
        self
    }

    /// The user every conversation of this memory is with, so that the user's memory follows them
    /// from one conversation to the next: with [`facts`](Self::facts), what the user says about
    /// themselves (their name, where they live, their preferences) is kept for the user and shown
    /// in each of their conversations; with [`recall`](Self::recall), each conversation loaded is
    /// recorded as the user's in the store, and recall searches the user's other conversations
    /// too (the eight most recently loaded), labelling what it quotes from them. Build one memory
    /// per user (they may share a store): the scope is the application's, never the model's.
    #[cfg(feature = "facts")]
    pub fn user(mut self, user: ConversationId) -> Self {
        self.user = Some(user);
        self
    }

    /// Quote the passages of earlier turns, no longer in the prompt, that bear on the latest user
    /// message, within 15% of the budget (and whatever room the window leaves unused).
    ///
    /// Passages are found by the words they share with the message and, with the `meaning`
    /// feature (on by default), by their meaning too: the stores [`Store`] opens embed each passage
    /// with [`embed`](crate::embed)'s bundled model, so "where do our servers live?" finds "we host
    /// everything in Frankfurt". A [`Store::custom`] store recalls as it was built to.
    #[cfg(feature = "recall")]
    pub fn recall(mut self) -> Self {
        self.recall = Some(None);
        self
    }

    /// [`recall`](Self::recall) within `tokens` of the budget.
    #[cfg(feature = "recall")]
    pub fn recall_tokens(mut self, tokens: u32) -> Self {
        self.recall = Some(Some(tokens));
        self
    }

    /// Keep the provider's prompt cache warm: cuts chosen by what they cost at `prices`, and
    /// summaries added as segments behind the earlier ones (see `docs/benchmarks.md` for what it
    /// saves and costs).
    pub fn cache_aware(mut self, prices: CachePrices) -> Self {
        self.cache = Some(prices);
        self
    }

    /// Compact in the background: a load never waits for the summarizer (it serves the previous
    /// summary and cuts the window to the budget); call [`Memory::flush`] before shutting down.
    /// Needs a Tokio runtime when loading.
    pub fn background(mut self) -> Self {
        self.background = true;
        self
    }

    /// The memory.
    ///
    /// # Errors
    ///
    /// [`BuildError`] for a zero budget, allowances that leave no room, a store that cannot be
    /// opened, or a tokenizer that cannot be loaded.
    pub fn build(self) -> Result<Memory, BuildError> {
        let budget = NonZeroU32::new(self.budget).ok_or(BuildError::ZeroBudget)?;
        let store = self.store.unwrap_or_else(|| Ok(Store::in_memory()))?;
        let counter = match self.counter {
            Some(counter) => counter,
            None => default_counter()?,
        };
        let policy: Box<dyn MemoryPolicy> = match self.cache {
            Some(prices) => Box::new(
                TokenWindow::new(budget, Arc::clone(&counter)).with_cache_plan(CachePlan::new(prices)),
            ),
            None => Box::new(TokenWindow::new(budget, Arc::clone(&counter))),
        };
        let compactor = compactor(self.summarizer, budget, &counter, self.cache.is_some());
        #[cfg(feature = "facts")]
        let facts = self.facts.map(|tokens| {
            let tokens = tokens.unwrap_or_else(|| percent(budget, FACTS_PERCENT));
            let coordinator = FactCoordinator::new(store.clone());
            let coordinator = match self.user.clone() {
                Some(user) => coordinator.for_user(user),
                None => coordinator,
            };
            (Arc::new(coordinator), tokens)
        });
        #[cfg(feature = "recall")]
        let recall = self.recall.map(|tokens| {
            let tokens = tokens.unwrap_or_else(|| percent(budget, RECALL_PERCENT));
            let recall = Recall::new(store.clone());
            let recall = match &self.user {
                Some(user) => recall.for_user(user.clone()),
                None => recall,
            };
            (Arc::new(recall), tokens)
        });
        #[cfg_attr(not(feature = "facts"), allow(unused_mut))]
        let mut reserved = 0u32;
        #[cfg(feature = "facts")]
        if let Some((_, tokens)) = &facts {
            reserved = check_allowance("facts", *tokens, reserved, budget)?;
        }
        #[cfg(feature = "recall")]
        if let Some((_, tokens)) = &recall {
            reserved = check_allowance("recall", *tokens, reserved, budget)?;
        }
        let _ = reserved;
        // The coordinator watches compactions (to keep facts before the turns are summarized) and
        // is a context source (to put them back): one object, plugged in both ways here.
        #[cfg(feature = "facts")]
        let observer = AnyObserver(match &facts {
            Some((coordinator, _)) => Box::new(Arc::clone(coordinator)),
            None => Box::new(()),
        });
        #[cfg(not(feature = "facts"))]
        let observer = AnyObserver(Box::new(()));
        #[cfg_attr(not(feature = "facts"), allow(unused_mut))]
        let mut memory: Compacting =
            CompactingMemory::new(store.clone(), policy, compactor).with_observer(observer);
        // Facts first, then recall: the prompt's order, and the order a tight budget gives them up in reverse.
        #[cfg(feature = "facts")]
        if let Some((coordinator, tokens)) = &facts {
            memory = memory.with_context(Arc::clone(coordinator), *tokens);
        }
        #[cfg(feature = "recall")]
        if let Some((recall, tokens)) = &recall {
            memory = memory.with_context(Arc::clone(recall), *tokens);
        }
        let inner = if self.background {
            Inner::Background(memory.in_background())
        } else {
            Inner::Now(Box::new(memory))
        };
        Ok(Memory {
            inner,
            store,
            budget,
            counter,
            #[cfg(feature = "facts")]
            facts: facts.map(|(coordinator, _)| coordinator),
            #[cfg(feature = "recall")]
            recall: recall.map(|(recall, _)| recall),
        })
    }
}

/// `percent` of `budget`, at least one token.
fn percent(budget: NonZeroU32, percent: u32) -> u32 {
    u32::try_from(u64::from(budget.get()) * u64::from(percent) / 100).unwrap_or(u32::MAX).max(1)
}

/// Adds a block's allowance to what the blocks before it reserved, refusing one that would leave
/// no room for the newest turn.
#[cfg(feature = "facts")]
fn check_allowance(
    block: &'static str,
    tokens: u32,
    reserved: u32,
    budget: NonZeroU32,
) -> Result<u32, BuildError> {
    let total = reserved.saturating_add(tokens);
    if total >= budget.get() {
        return Err(BuildError::Allowance { block, tokens, budget: budget.get() });
    }
    Ok(total)
}

/// OpenAI's o200k counts with the `tiktoken` feature, else the heuristic counter.
fn default_counter() -> Result<Counter, BuildError> {
    #[cfg(feature = "tiktoken")]
    {
        tidemark_memory::TiktokenCounter::o200k()
            .map(|counter| Arc::new(counter) as Counter)
            .map_err(|error| BuildError::Tokenizer(Box::new(error)))
    }
    #[cfg(not(feature = "tiktoken"))]
    {
        Ok(Arc::new(HeuristicCounter::default()))
    }
}

/// The summarizer: bounded to a quarter of the budget as a rolling summary, or sized by
/// [`SegmentBudget`] as segments when the memory keeps the prompt cache warm.
fn compactor(
    summarizer: Option<Summarizer>,
    budget: NonZeroU32,
    counter: &Counter,
    segmented: bool,
) -> AnyCompactor {
    let sizes = SegmentBudget::for_budget(budget.get());
    let share = if segmented { sizes.segment_tokens } else { percent(budget, SUMMARY_PERCENT) };
    // About three template bytes a token; English and code take about four.
    let template_bytes = (share as usize).saturating_mul(3).clamp(1, TemplateCompactor::DEFAULT_MAX_BYTES);
    AnyCompactor(match (summarizer, segmented) {
        (None, false) => Box::new(TemplateCompactor::new().with_max_bytes(Some(template_bytes))),
        (None, true) => Box::new(
            Segmented::new(TemplateCompactor::new().with_max_bytes(Some(template_bytes)))
                .within(Arc::clone(counter), sizes),
        ),
        (Some(Summarizer::Model(model)), false) => Box::new(bounded(LlmCompactor::new(model), share)),
        (Some(Summarizer::Model(model)), true) => Box::new(
            Segmented::new(bounded(LlmCompactor::new(model), share)).within(Arc::clone(counter), sizes),
        ),
    })
}

/// `compactor` asking for no more answer tokens than `share`, when that is less than its own limit.
fn bounded<M: CompletionModel>(compactor: LlmCompactor<M>, share: u32) -> LlmCompactor<M> {
    let tokens = compactor.max_tokens().map_or(share, |limit| limit.min(share));
    compactor.with_max_tokens(Some(tokens))
}

/// The memory a builder made.
enum Inner {
    Now(Box<Compacting>),
    Background(BackgroundMemory<Store, Box<dyn MemoryPolicy>, AnyCompactor, AnyObserver>),
}

/// A conversation memory: a bounded prompt per conversation, compacted into a summary as it
/// grows, with facts and recall if asked for; built by [`Memory::builder`].
///
/// It is a [`ConversationMemory`]: `append` what happened, `load` the prompt for the next model
/// call.
///
/// ```
/// use tidemark::{ConversationId, ConversationMemory, Memory, Message};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let memory = Memory::builder().budget(2_000).build()?;
/// let id = ConversationId::new("support/4711")?;
/// memory.append(&id, vec![Message::user("Where is my parcel?")]).await?;
/// let prompt = memory.load(&id).await?;
/// assert_eq!(prompt.len(), 1);
/// # Ok(())
/// # }
/// ```
pub struct Memory {
    inner: Inner,
    store: Store,
    budget: NonZeroU32,
    counter: Counter,
    #[cfg(feature = "facts")]
    facts: Option<Arc<FactCoordinator<Store>>>,
    #[cfg(feature = "recall")]
    recall: Option<Arc<Recall<Store>>>,
}

impl fmt::Debug for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Memory");
        out.field("store", &self.store).field("budget", &self.budget).field("counter", &self.counter.name());
        out.field("background", &matches!(self.inner, Inner::Background(_)));
        #[cfg(feature = "facts")]
        out.field("facts", &self.facts.is_some());
        #[cfg(feature = "recall")]
        out.field("recall", &self.recall.is_some());
        out.finish_non_exhaustive()
    }
}

impl Memory {
    /// A builder with every part at its default.
    pub fn builder() -> MemoryBuilder {
        MemoryBuilder::new()
    }

    /// The store the memory, its facts and recall share.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The token budget every prompt fits.
    #[must_use]
    pub fn budget(&self) -> NonZeroU32 {
        self.budget
    }

    /// The counter the budget is counted with.
    #[must_use]
    pub fn counter(&self) -> &dyn TokenCounter {
        &*self.counter
    }

    /// The fact coordinator, if the memory keeps facts: to remember a fact by hand, search the
    /// facts, or see what a prompt would be given.
    #[cfg(feature = "facts")]
    #[must_use]
    pub fn facts(&self) -> Option<&FactCoordinator<Store>> {
        self.facts.as_deref()
    }

    /// The recall source, if the memory quotes earlier turns: its counters say what it quoted and
    /// withheld.
    #[cfg(feature = "recall")]
    #[must_use]
    pub fn recall(&self) -> Option<&Recall<Store>> {
        self.recall.as_deref()
    }

    /// Waits for the compactions running in the background to finish (nothing to wait for when
    /// the memory compacts in the foreground). Call it before shutting down.
    pub async fn flush(&self) {
        if let Inner::Background(memory) = &self.inner {
            memory.flush().await;
        }
    }

    /// Cancels the compactions running in the background; a cancelled compaction writes nothing.
    pub async fn abandon(&self) {
        if let Inner::Background(memory) = &self.inner {
            memory.abandon().await;
        }
    }

    /// Takes the last compaction of `conversation` back: the next load serves the summary and
    /// window from before it (see [`CompactingMemory::undo`](tidemark_memory::CompactingMemory::undo)).
    ///
    /// ```
    /// use tidemark::{ConversationId, ConversationMemory, Memory, Message};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let memory = Memory::builder().budget(400).build()?;
    /// let id = ConversationId::new("thread-1")?;
    /// for turn in 0..40 {
    ///     memory.append(&id, vec![Message::user(format!("step {turn}: the build passed on runner {turn}"))]).await?;
    ///     memory.load(&id).await?;
    /// }
    /// let compactions = memory.history(&id).await?.len();
    /// assert!(compactions > 1);
    /// let undone = memory.undo(&id).await?;
    /// assert!(undone.window_starts_at < memory.history(&id).await?[compactions - 1].state.watermark);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] when there is nothing to undo or a prune deleted what the earlier
    /// state needs, [`MemoryError::Busy`] while a compaction of the conversation is in flight.
    pub async fn undo(&self, conversation: &ConversationId) -> Result<Undone, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.undo(conversation).await,
            Inner::Background(memory) => memory.undo(conversation).await,
        }
    }

    /// Makes the state of epoch `target` current again (`None`: the initial state); an undone
    /// epoch can be restored, which redoes it.
    ///
    /// # Errors
    ///
    /// As [`undo`](Self::undo), and [`MemoryError::History`] for an unknown epoch.
    pub async fn restore(
        &self,
        conversation: &ConversationId,
        target: Option<u64>,
    ) -> Result<Undone, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.restore(conversation, target).await,
            Inner::Background(memory) => memory.restore(conversation, target).await,
        }
    }

    /// Starts `target` as a fork of `source` at message `at` (the messages before it, with the
    /// summary, window and history of then); each side goes on alone (see
    /// [`CompactingMemory::fork`](tidemark_memory::CompactingMemory::fork)).
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] when `target` exists or `at` lies outside the kept history.
    pub async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<(), MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.fork(source, at, target).await,
            Inner::Background(memory) => memory.fork(source, at, target).await,
        }
    }

    /// The compaction history of `conversation`, oldest epoch first.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn history(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, MemoryError> {
        Ok(self.store.epochs(conversation).await?)
    }

    /// The summary and window a load served when `seq` was the newest message; context blocks
    /// (facts, recall) are not part of it (see
    /// [`CompactingMemory::load_as_of`](tidemark_memory::CompactingMemory::load_as_of)).
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] for a point not appended yet, before the kept history, or pruned.
    pub async fn load_as_of(
        &self,
        conversation: &ConversationId,
        seq: Seq,
    ) -> Result<Vec<Message>, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.load_as_of(conversation, seq).await,
            Inner::Background(memory) => memory.load_as_of(conversation, seq).await,
        }
    }
}

impl ConversationMemory for Memory {
    async fn load(&self, conversation: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.load(conversation).await,
            Inner::Background(memory) => memory.load(conversation).await,
        }
    }

    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.append(conversation, messages).await,
            Inner::Background(memory) => memory.append(conversation, messages).await,
        }
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.clear(conversation).await,
            Inner::Background(memory) => memory.clear(conversation).await,
        }
    }

    async fn load_within(
        &self,
        conversation: &ConversationId,
        budget: NonZeroU32,
    ) -> Result<Vec<Message>, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.load_within(conversation, budget).await,
            Inner::Background(memory) => memory.load_within(conversation, budget).await,
        }
    }

    async fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> Result<Calibration, MemoryError> {
        match &self.inner {
            Inner::Now(memory) => memory.observe_usage(conversation, prompt, usage).await,
            Inner::Background(memory) => memory.observe_usage(conversation, prompt, usage).await,
        }
    }
}

//! [`CompactingMemory`]: evicted messages are folded into a rolling summary that loads in front of the window.

mod background;
mod history;
mod reset;

pub use background::BackgroundMemory;
pub use history::Undone;
pub use reset::{HANDOFF_HEADER, Reset};

use std::num::NonZeroU32;

use std::fmt;
use std::time::{Duration, Instant};

use tidemark_core::error::chain_text;
use tidemark_core::time::Sleep;
use tidemark_core::{
    Calibration, CompactionError, CompactionEvent, CompactionObserver, Compactor, ContextSource,
    ConversationId, ConversationMemory, ConversationStore, Lease, MemoryError, MemoryPolicy, Message,
    Outcome, Part, SeqRange, StoreError, StoredSummary, TokenCounter, Usage, task,
};

use super::cut_summary::{carried_part, keeps_all_within};
use super::gate::Gates;
use super::timer::{tokio_sleep, within};
use super::window::{Chosen, Fit, Served, View};
use super::{FailureMode, MAX_ATTEMPTS, Settings, WaitMode};
use super::{Parts, accessors};

/// A [`ConversationMemory`] that keeps a rolling summary of everything its policy evicts.
///
/// A load returns `[system…, summary, ...window]` once anything was compacted
/// (the system messages that lead the window, such as a pinned system prompt,
/// then the summary, so that a provider's prompt cache keeps the system
/// prompt across compactions) and the policy's window before that. When the policy evicts messages, the load
/// asks the observer for a hint, gives the compactor the evicted messages with
/// the previous artifact as carry-over, and stores the new summary and the
/// moved watermark in one compare-and-swap on the conversation's state.
///
/// - **Persistent.** The summary and watermark live in the store: a restart, or
///   a new adapter over the same SQLite file, neither re-runs the compactor nor
///   summarizes anything twice.
/// - **Within budget.** The summary's tokens count against the policy's budget
///   (they are the window's fixed tokens), so summary and window fit.
/// - **Single flight.** Concurrent loads of one conversation run the compactor
///   once; the others wait and load the new summary ([`WaitMode::Wait`], the
///   default) or return the previous one at once ([`WaitMode::ReturnPrevious`]).
/// - **Nothing lost.** A compactor error, an empty answer or a refusal is never
///   stored as a summary. It is returned to the caller by default; with
///   [`FailureMode::Degrade`] the load returns the previous summary and the
///   policy's window, the watermark stays, and a `degraded` event is emitted.
/// - **Cancellation-safe.** A dropped load leaves no lock behind, and a clear
///   during a compaction wins: the compaction's write fails its
///   compare-and-swap and the cleared state stays.
/// - **The task stays.** The newest human instruction ([`tidemark_core::task`])
///   stays in the window while it fits beside the newest unit; when a
///   compaction evicts it and the compactor's summary does not hold it, the
///   stored summary carries it in a last part (cut with a marker to a quarter
///   of the window's limit) until a newer instruction comes.
/// - **Background mode.** [`in_background`](CompactingMemory::in_background)
///   turns it into a [`BackgroundMemory`], whose loads never wait for the
///   compactor: they serve the previous summary and the policy's window
///   while the compaction runs in a Tokio task, under the same gate and
///   lease, and the next load after it is written serves the new summary.
///
/// - **Overflow recovery.** [`load_within`](ConversationMemory::load_within)
///   fits the prompt to a lower budget for one call, when the provider
///   rejected the last one as too long: the policy's selection is cut
///   further, whole tool units at a time, and what leaves is compacted into
///   the summary as in any load, so `summary + context blocks + window` fits
///   the lower budget. The policy's own budget stays as configured: an
///   overflow usually means the provider counts differently from the
///   memory's counter, or one request ran long, and shrinking every later
///   prompt for it would be a configuration change made behind the caller's
///   back. The watermark has moved, so the window grows back from the
///   smaller prompt over the next turns. When the newest turn, pinned and
///   system messages and the summary alone are over the lower budget, the
///   load fails with [`MemoryError::OverBudget`].
///
/// Every compaction emits a [`CompactionEvent`] to the observer and to
/// `tracing` (target `tidemark::compaction`).
///
/// Context sources added with [`with_context`](CompactingMemory::with_context)
/// (long-term facts, recalled passages of earlier turns) put their blocks in
/// the same budget: `summary + context blocks + window` fits.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::{ConversationId, ConversationMemory, Message, TokenCounter};
/// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
/// use tidemark_testkit::reference::ConcatCompactor;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let policy = TokenWindow::new(NonZeroU32::new(200).unwrap(), HeuristicCounter::default());
/// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(400));
/// let id = ConversationId::new("demo")?;
/// for turn in 0..20 {
///     memory.append(&id, vec![Message::user(format!("question {turn}: what changed in the build?"))]).await?;
/// }
/// let prompt = memory.load(&id).await?;
/// assert!(prompt[0].text().starts_with("Summary of earlier messages"));
/// assert_eq!(prompt.last(), Some(&Message::user("question 19: what changed in the build?")));
///
/// // The provider said the prompt is too long: load within a lower budget and retry.
/// let lower = NonZeroU32::new(180).unwrap();
/// let smaller = memory.load_within(&id, lower).await?;
/// assert!(HeuristicCounter::default().count_prompt(&smaller) <= 180);
/// assert_eq!(smaller.last(), prompt.last());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub struct CompactingMemory<S, P, C, O = ()> {
    parts: Parts<S, P>,
    compactor: C,
    observer: O,
    settings: Settings,
    gates: Gates,
    /// This memory's name in the store's leases: unique per instance.
    holder: String,
    /// The timer for the hint's time limit and for polling a lease held elsewhere.
    sleep: Sleep,
}

/// A name no other memory instance uses: the process, the time and a counter.
fn holder_name() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    format!("pid{}-{nanos:x}-{count}", std::process::id())
}

impl<S: fmt::Debug, P: fmt::Debug, C: fmt::Debug, O: fmt::Debug> fmt::Debug for CompactingMemory<S, P, C, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompactingMemory")
            .field("parts", &self.parts)
            .field("compactor", &self.compactor)
            .field("observer", &self.observer)
            .field("settings", &self.settings)
            .field("gates", &self.gates)
            .field("holder", &self.holder)
            .finish_non_exhaustive()
    }
}

impl<S, P, C> CompactingMemory<S, P, C> {
    /// Wrap `inner` so that every load runs through `policy` and evicted messages are summarized by `compactor`.
    pub fn new(inner: S, policy: P, compactor: C) -> Self {
        Self {
            parts: Parts::new(inner, policy),
            compactor,
            observer: (),
            settings: Settings::default(),
            gates: Gates::default(),
            holder: holder_name(),
            sleep: tokio_sleep(),
        }
    }
}

impl<S, P, C, O> CompactingMemory<S, P, C, O> {
    /// The same memory reporting to `observer`, which also supplies the pre-compress hint.
    pub fn with_observer<O2>(self, observer: O2) -> CompactingMemory<S, P, C, O2> {
        CompactingMemory {
            parts: self.parts,
            compactor: self.compactor,
            observer,
            settings: self.settings,
            gates: self.gates,
            holder: self.holder,
            sleep: self.sleep,
        }
    }

    /// The same memory waiting on `sleep` instead of Tokio's timer.
    ///
    /// The timer bounds the observer's pre-compress hint
    /// ([`Settings::hint_timeout`]) and paces a load that waits for another
    /// memory's lease ([`Settings::lease_poll`]). It is only started when the
    /// observer does not answer at once or a lease is held elsewhere, so a
    /// memory without an observer over a store it alone uses never touches
    /// it. Outside a Tokio runtime with its time driver enabled, pass the
    /// timer of the runtime in use.
    #[must_use]
    pub fn with_sleep(mut self, sleep: Sleep) -> Self {
        self.sleep = sleep;
        self
    }

    /// The same memory with other settings.
    #[must_use]
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The same memory with another wait mode.
    #[must_use]
    pub fn with_wait_mode(mut self, wait: WaitMode) -> Self {
        self.settings.wait = wait;
        self
    }

    /// The same memory with another failure mode.
    #[must_use]
    pub fn with_failure_mode(mut self, failure: FailureMode) -> Self {
        self.settings.failure = failure;
        self
    }

    /// The same memory asking `source` for a block of at most `max_tokens` tokens at every load; call it once per source.
    ///
    /// - **Within budget.** The allowances of all sources are reserved before
    ///   the policy fits the window: they count as fixed tokens, like the
    ///   summary, so `summary + context blocks + window` stays within a budget
    ///   policy's budget (plus the newest turn when that alone is over, as
    ///   without context). Each block is counted again with the memory's
    ///   counter and left out, with a warning, when it is over its allowance.
    /// - **Newest turn first.** When the newest turn cannot fit beside every
    ///   allowance (an allowance near or over the budget), the sources added
    ///   last are given up for that load, one by one, until it fits; with
    ///   none left the window is what it would be without context. The
    ///   window is never cut for a block that cannot fit anyway.
    /// - **Best effort.** A source that fails is logged with `tracing` and the
    ///   load goes on without its block; nothing fails and nothing is lost.
    /// - **Order.** The prompt is the summary, the window's leading system
    ///   messages (a pinned system prompt), the blocks in the order the
    ///   sources were added, then the rest of the window. The agent's own
    ///   instructions come before quoted material, and the blocks, which
    ///   change every turn, come after the prefix that changes only at a
    ///   compaction.
    ///
    /// Each source is asked, in order, with one [`ContextRequest`](tidemark_core::ContextRequest):
    /// the text of the latest user message of the window, the last assistant
    /// text, the window's first sequence number and the retained messages
    /// below it (so a source can leave out what the prompt already holds),
    /// its allowance and the memory's counter (the policy's, or a
    /// [`HeuristicCounter`](crate::HeuristicCounter) when it has none).
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{ContextError, ContextRequest, ContextSource, ConversationId, ConversationMemory, Message, TokenCounter};
    /// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// /// Tells the model how many turns are out of sight.
    /// struct Hidden;
    ///
    /// impl ContextSource for Hidden {
    ///     async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
    ///         let note = format!("Turns before #{} are summarized above.", request.below());
    ///         Ok(Some(Message::system(note)))
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let counter = HeuristicCounter::default();
    /// let policy = TokenWindow::new(NonZeroU32::new(300).unwrap(), counter);
    /// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(300))
    ///     .with_context(Hidden, 40);
    /// let id = ConversationId::new("demo")?;
    /// for turn in 0..30 {
    ///     memory.append(&id, vec![Message::user(format!("question {turn}: what changed in the build?"))]).await?;
    /// }
    /// let prompt = memory.load(&id).await?;
    /// assert!(prompt[0].text().starts_with("Summary of earlier messages"));
    /// assert!(prompt[1].text().starts_with("Turns before #"));
    /// assert!(counter.count_prompt(&prompt) <= 300);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    #[must_use]
    pub fn with_context(mut self, source: impl ContextSource + 'static, max_tokens: u32) -> Self {
        self.parts.add_context(source, max_tokens);
        self
    }

    accessors!();

    /// The compactor.
    pub fn compactor(&self) -> &C {
        &self.compactor
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How many conversations have a compaction in flight or awaited now (for leak checks).
    pub fn in_flight(&self) -> usize {
        self.gates.len()
    }
}

/// How many compactions one load may run: the first, and more while each new summary pushes the window over the budget.
///
/// A segmented summary grows by a segment each round, so at a small budget one
/// round more than the first can still leave the window over it; the fourth
/// round is where the property `the_cache_aware_configuration_keeps_every_prompt_within_budget`
/// stopped finding such cases (two rounds failed it at a budget of 436 tokens).
const MAX_ROUNDS: usize = 4;

/// How one compaction ended.
enum Step {
    /// The prompt to return, nothing written (a degraded compaction).
    Serve(Served),
    /// The compaction was written; this is the window it leaves, to check against the policy once more.
    Applied(Box<View>),
    /// The state changed under us (a clear, another process): look again.
    Conflict,
}

impl<S, P, C, O> CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// Take the store's lease on the conversation; `false` when another memory holds it and this load should not wait.
    ///
    /// While another holder compacts, the load polls the lease on the
    /// injected timer ([`WaitMode::Wait`]); it reads nothing meanwhile, since
    /// the read under the lease sees whatever the other holder wrote.
    async fn lease(&self, id: &ConversationId) -> Result<bool, MemoryError> {
        loop {
            let wait = match self.parts.inner.try_lease(id, &self.holder, self.settings.lease_ttl).await? {
                Lease::Acquired => return Ok(true),
                Lease::HeldBy { expires_in, .. } => expires_in,
                _ => self.settings.lease_poll,
            };
            if self.settings.wait == WaitMode::ReturnPrevious {
                return Ok(false);
            }
            (self.sleep)(wait.min(self.settings.lease_poll).max(Duration::from_millis(1))).await;
        }
    }

    /// Run `work` holding the conversation's gate and the store's lease, never waiting for either: [`MemoryError::Busy`] when one is held, with `work` never started.
    pub(super) async fn now_or_busy<T>(
        &self,
        id: &ConversationId,
        work: impl Future<Output = Result<T, MemoryError>>,
    ) -> Result<T, MemoryError> {
        let Ok(_flight) = self.gates.claim(id).try_acquire() else { return Err(MemoryError::Busy) };
        match self.parts.inner.try_lease(id, &self.holder, self.settings.lease_ttl).await? {
            Lease::Acquired => {}
            _ => return Err(MemoryError::Busy),
        }
        let done = work.await;
        self.release(id).await;
        done
    }

    pub(super) async fn release(&self, id: &ConversationId) {
        if let Err(error) = self.parts.inner.release_lease(id, &self.holder).await {
            // The lease expires on its own; releasing it only lets others start sooner.
            tracing::warn!(conversation = %id, %error, "could not release the compaction lease");
        }
    }

    fn counter(&self) -> &dyn TokenCounter {
        self.parts.counter()
    }

    /// Under the gate and the lease: read once, then compact until the window fits (at most [`MAX_ROUNDS`] times).
    ///
    /// `None` means the state moved between the read and the write (a clear,
    /// another process without a lease): the caller looks again.
    ///
    /// With `within`, every round fits the window to that lower budget, so
    /// what leaves is compacted into the summary exactly as in a normal load.
    async fn compact_held(
        &self,
        id: &ConversationId,
        view: View,
        within: Option<NonZeroU32>,
    ) -> Result<Option<Served>, MemoryError> {
        let mut view = view.refresh(&self.parts.inner, id).await?;
        for _ in 0..MAX_ROUNDS {
            let (evicting, chosen) = match self.parts.fit(view, within) {
                Fit::Fits(served) => return Ok(Some(served)),
                Fit::Evicts(view, chosen) => (view, chosen),
            };
            match self.compact(id, evicting, chosen).await? {
                Step::Serve(prompt) => return Ok(Some(prompt)),
                Step::Conflict => return Ok(None),
                Step::Applied(next) => view = *next,
            }
        }
        // The window the last round left: served with its context blocks when it fits.
        match self.parts.fit(view, within) {
            Fit::Fits(served) => Ok(Some(served)),
            // A load within a lower budget must fit it: serve the fitted window
            // with the summary as it stands; what it leaves out stays stored
            // above the watermark for the next compaction.
            Fit::Evicts(view, chosen) if within.is_some() => Ok(Some(view.serve(&chosen))),
            Fit::Evicts(view, _) => {
                // Compacting again now could loop; the next load cuts afresh. This
                // prompt's copy of the summary is cut to the room the budget leaves.
                let (policy, contexts) = (&self.parts.policy, &self.parts.contexts);
                match view.serve_with_summary_cut(policy, self.counter(), contexts, within, keeps_all_within)
                {
                    Ok(served) => {
                        tracing::warn!(
                            conversation = %id,
                            "the summary leaves the window over budget after {MAX_ROUNDS} compactions: this prompt holds only its newest part; is the summary cap larger than the budget leaves?"
                        );
                        Ok(Some(served))
                    }
                    Err(view) => {
                        tracing::warn!(
                            conversation = %id,
                            "the window is over budget even without the summary; are the pinned messages and the newest turn larger than the budget?"
                        );
                        Ok(Some(view.into_prompt()))
                    }
                }
            }
        }
    }

    /// Compact the evicted part of `view` as `selection` decided, holding the conversation's gate and lease.
    async fn compact(&self, id: &ConversationId, view: View, chosen: Chosen) -> Result<Step, MemoryError> {
        self.compact_with(id, view, chosen, None).await
    }

    /// [`compact`](Self::compact), with a hand-off note the model wrote for a reset: it joins the
    /// hint, is kept in the summary's last parts, and a failure is always returned, never degraded.
    async fn compact_with(
        &self,
        id: &ConversationId,
        view: View,
        chosen: Chosen,
        handoff: Option<&str>,
    ) -> Result<Step, MemoryError> {
        let selection = &chosen.selection;
        let started = Instant::now();
        let counter = self.counter();
        let old_summary = view.state.summary.clone();
        let before_messages = view.messages.len() + usize::from(old_summary.is_some());
        let before_tokens = view.prompt_tokens(counter);
        let plan = view.plan(selection, None);
        let evicted: Vec<Message> =
            plan.demoted.iter().map(|stored| Message::clone(&stored.message)).collect();
        let (hint, observer_error) = self.hint(id, plan.range, &evicted).await;
        let hint = match (hint, handoff) {
            (Some(hint), Some(note)) => Some(format!("{hint}\n{}\n{note}", reset::HANDOFF_HEADER)),
            (None, Some(note)) => Some(format!("{}\n{note}", reset::HANDOFF_HEADER)),
            (hint, None) => hint,
        };

        let summary = match self.summarize(id, &evicted, old_summary.as_ref(), hint.as_deref()).await {
            Ok(summary) => summary,
            Err(error) => {
                let event = CompactionEvent::new(id.clone(), self.compactor.name(), Outcome::Failed)
                    .with_messages(before_messages, before_messages)
                    .with_tokens(
                        before_tokens,
                        before_tokens,
                        old_summary.as_ref().map_or(0, |s| u64::from(s.tokens)),
                    )
                    .with_duration(started.elapsed())
                    .with_error(&error);
                let event = with_observer_problem(event, observer_error);
                return match self.settings.failure {
                    _ if handoff.is_some() => {
                        self.emit(&event);
                        Err(MemoryError::Compaction(error))
                    }
                    FailureMode::Propagate => {
                        self.emit(&event);
                        Err(MemoryError::Compaction(error))
                    }
                    FailureMode::Degrade => {
                        let mut event = event;
                        event.outcome = Outcome::Degraded;
                        self.emit(&event);
                        Ok(Step::Serve(view.assemble(old_summary.as_ref(), &chosen)))
                    }
                };
            }
        };

        let summary = match handoff {
            Some(note) => reset::with_handoff(summary, note, chosen.limit, counter),
            None => summary,
        };
        let summary =
            carry_instruction(summary, &view, selection, old_summary.as_ref(), chosen.limit, counter);
        let mut state = plan.state;
        state.summary = Some(summary);
        let saved = match self.parts.inner.save_state(id, view.state.generation, state).await {
            Ok(saved) => saved,
            Err(StoreError::StateConflict { .. }) => return Ok(Step::Conflict),
            Err(error) => return Err(error.into()),
        };

        // Sources that quote earlier turns get what just left the window ready before a load asks for it.
        self.parts.contexts.evicted(id, &plan.demoted).await;
        let next = view.applied(selection, saved);
        let after_tokens = next.prompt_tokens(counter);
        let summary_tokens = next.state.summary.as_ref().map_or(0, |summary| u64::from(summary.tokens));
        let event = CompactionEvent::new(id.clone(), self.compactor.name(), Outcome::Applied)
            .with_messages(before_messages, next.messages.len() + 1)
            .with_tokens(before_tokens, after_tokens, summary_tokens)
            .with_duration(started.elapsed());
        self.emit(&with_observer_problem(event, observer_error));
        Ok(Step::Applied(Box::new(next)))
    }

    /// Run the compactor on `evicted`, with the stored artifact as carry-over.
    async fn summarize(
        &self,
        id: &ConversationId,
        evicted: &[Message],
        previous: Option<&StoredSummary>,
        hint: Option<&str>,
    ) -> Result<StoredSummary, CompactionError> {
        let carry_over = previous
            .map(|summary| <C::Artifact as serde::Deserialize>::deserialize(&summary.artifact))
            .transpose()
            .map_err(|source| CompactionError::Artifact { source })?;
        let artifact = self.compactor.compact(id, evicted, carry_over.as_ref(), hint).await?;
        let json = serde_json::to_value(&artifact).map_err(|source| CompactionError::Artifact { source })?;
        let message = self.compactor.render(&artifact);
        let tokens = self.counter().count(&message);
        Ok(StoredSummary::new(json, message, tokens, self.compactor.name()))
    }

    /// Ask the observer for a hint, within the time limit; a failure only costs the hint.
    async fn hint(
        &self,
        id: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> (Option<String>, Option<String>) {
        let asked = self.observer.on_pre_compress(id, range, evicted);
        let Some(answer) = within(&self.sleep, self.settings.hint_timeout, asked).await else {
            let problem = format!("pre-compress hint timed out after {:?}", self.settings.hint_timeout);
            tracing::warn!(conversation = %id, "{problem}; compacting without it");
            return (None, Some(problem));
        };
        match answer {
            Ok(hint) => (hint, None),
            Err(error) => {
                let problem = chain_text(&error);
                tracing::warn!(conversation = %id, error = %problem, "pre-compress hint failed; compacting without it");
                (None, Some(problem))
            }
        }
    }

    pub(super) fn emit(&self, event: &CompactionEvent) {
        tracing::info!(
            target: "tidemark::compaction",
            conversation = %event.conversation,
            strategy = %event.strategy,
            outcome = %event.outcome,
            messages_before = event.messages_before,
            messages_after = event.messages_after,
            tokens_before = event.tokens_before,
            tokens_after = event.tokens_after,
            summary_tokens = event.summary_tokens,
            duration_us = u64::try_from(event.duration.as_micros()).unwrap_or(u64::MAX),
            error = event.error.as_deref().unwrap_or(""),
            served_through = event.served_through.map(|seq| seq.0),
            "compaction"
        );
        self.observer.on_event(event);
    }
}

/// `summary` with the newest human instruction carried in a last part when the window no longer shows it.
///
/// The policy keeps the instruction ([`tidemark_core::task`]) whenever it fits
/// beside the newest unit; when it does not, it leaves the window here, and a
/// compactor may summarize it away (a model's summary, a fixed cap). So the
/// rendered summary gets a last part: [`INSTRUCTION_HEADER`](task::INSTRUCTION_HEADER)
/// and the instruction's text, cut with [`CUT_MARKER`](task::CUT_MARKER) to
/// at most a quarter of the window's limit. When the instruction left at an
/// earlier compaction and no newer one came, the previous summary's carried
/// part is carried on, since the compactor's artifact does not hold it. The
/// artifact is unchanged: the part is rebuilt at every compaction. It is added
/// even when the compactor's text quotes the instruction today: a compactor
/// that rolls old lines out would lose it at a later compaction, when the
/// instruction is no longer in view to be carried.
fn carry_instruction(
    mut summary: StoredSummary,
    view: &View,
    selection: &tidemark_core::Selection,
    previous: Option<&StoredSummary>,
    limit: Option<u32>,
    counter: &dyn TokenCounter,
) -> StoredSummary {
    let part = match task::instruction(&view.messages) {
        Some(index) if selection.kept().any(|kept| kept == index) => None,
        Some(index) => {
            let instruction = &view.messages[index];
            let tokens = view.tokens.get(index).copied().map_or(u64::MAX, u64::from);
            let room = limit.map_or(tokens, |limit| task::carry_room(tokens, u64::from(limit), counter));
            let header = u64::from(counter.count_text(task::INSTRUCTION_HEADER));
            let room = u32::try_from(room.saturating_sub(header)).unwrap_or(u32::MAX);
            task::carried(instruction, room, counter)
                .map(|copy| Part::text(format!("{}\n{}", task::INSTRUCTION_HEADER, copy.text())))
        }
        // No instruction above the watermark: the one carried before, if any, is still the newest.
        None => previous.and_then(|previous| carried_part(&previous.message)),
    };
    if let Some(part) = part {
        summary.message.parts.push(part);
        summary.tokens = counter.count(&summary.message);
    }
    summary
}

fn with_observer_problem(event: CompactionEvent, problem: Option<String>) -> CompactionEvent {
    match problem {
        Some(problem) => event.with_observer_error(problem),
        None => event,
    }
}

impl<S, P, C, O> CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// A load, fitted `within` a lower budget when one is given.
    pub(super) async fn load_inner(
        &self,
        conversation: &ConversationId,
        within: Option<NonZeroU32>,
    ) -> Result<Vec<Message>, MemoryError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            // Read without any lock: most loads find that nothing must leave and end here.
            let (view, chosen) = match self.parts.look(conversation, within).await? {
                Fit::Fits(served) => return self.parts.finish(conversation, served, within).await,
                Fit::Evicts(view, chosen) => (view, chosen),
            };
            // Something must leave: take this process's gate, then the store's lease.
            let _flight = match self.gates.claim(conversation).try_acquire() {
                Ok(flight) => flight,
                Err(_) if self.settings.wait == WaitMode::ReturnPrevious => {
                    return self.parts.finish(conversation, view.serve(&chosen), within).await;
                }
                Err(claim) => claim.acquire().await,
            };
            if !self.lease(conversation).await? {
                return self.parts.finish(conversation, view.serve(&chosen), within).await;
            }
            let compacted = self.compact_held(conversation, view, within).await;
            self.release(conversation).await;
            if let Some(served) = compacted? {
                return self.parts.finish(conversation, served, within).await;
            }
            if attempt >= MAX_ATTEMPTS {
                // Out of attempts: serve what the store holds now, without compacting.
                let view = View::read(&self.parts.inner, conversation).await?;
                let served =
                    view.serve_as_is(&self.parts.policy, self.counter(), &self.parts.contexts, within);
                return self.parts.finish(conversation, served, within).await;
            }
        }
    }
}

impl<S, P, C, O> ConversationMemory for CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
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

//! [`CompactingMemory::undo`], [`CompactingMemory::restore`] and [`CompactingMemory::load_as_of`]: compactions taken back, and prompts read as they were served.
//!
//! A compaction moves the watermark and writes a summary; the messages it
//! evicted stay stored, and the store records every state it writes as an
//! epoch (see [`tidemark_core::history`]). An undo writes an earlier epoch's
//! state back, so the next load serves the earlier summary and window again
//! and compacts only when that window is over the budget. An as-of read
//! rebuilds, from the epoch in force then and the messages appended by then,
//! the prompt a load served.

use tidemark_core::history::{Epoch, HistoryError, state_as_of, undo_target};
use tidemark_core::{
    CompactionObserver, Compactor, ConversationId, ConversationStore, MemoryError, MemoryPolicy, Message,
    Seq, SeqRange, StoreError,
};

use super::CompactingMemory;
use crate::adapter::window::View;

/// What [`CompactingMemory::undo`] or [`CompactingMemory::restore`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Undone {
    /// The generation of the state that was current before (the epoch taken back).
    pub undone: u64,
    /// The epoch whose state is current again; `None` for the initial state (nothing compacted).
    pub restored: Option<u64>,
    /// The generation of the state written now: the new epoch's number.
    pub generation: u64,
    /// Where the window starts now: every stored message from it on serves again.
    pub window_starts_at: Seq,
    /// The tokens of the summary now in force (zero without one).
    pub summary_tokens: u32,
}

impl<S, P, C, O> CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// Take the last compaction back: the state before it is current again, and the next load serves its summary and window.
    ///
    /// Undoing again goes one compaction further back; an undo is itself an
    /// epoch, so [`restore`](Self::restore) can bring the undone state back.
    /// Nothing is deleted: the messages the compaction evicted were stored all
    /// along, and facts extracted from them and their recall entries stay as
    /// they are (recall searches below the window, which starts earlier now).
    /// The next load compacts again only when the restored window is over the
    /// budget: undoing a [`new_context`](Self::new_context) or a load within a
    /// lower budget usually brings back a window that fits.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{ConversationId, ConversationMemory, Message};
    /// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let policy = TokenWindow::new(NonZeroU32::new(2_000).unwrap(), HeuristicCounter::default());
    /// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(400));
    /// let id = ConversationId::new("agent")?;
    /// for step in 0..5 {
    ///     memory.append(&id, vec![Message::user(format!("step {step}")), Message::assistant("done")]).await?;
    /// }
    /// let before = memory.load(&id).await?;
    /// memory.new_context(&id, "Steps 0-3 passed.").await?;
    /// assert_eq!(memory.load(&id).await?.len(), 2, "the summary and the newest unit");
    /// // The model reset too early: take it back.
    /// let undone = memory.undo(&id).await?;
    /// assert_eq!(undone.restored, None, "nothing was compacted before the reset");
    /// assert_eq!(memory.load(&id).await?, before);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] with [`HistoryError::NothingToUndo`] when
    /// nothing was compacted since the start or the last clear, or with
    /// [`HistoryError::Pruned`] when a prune deleted messages the earlier
    /// state needs; [`MemoryError::Busy`] while a compaction of the
    /// conversation is in flight. Nothing is changed then.
    pub async fn undo(&self, id: &ConversationId) -> Result<Undone, MemoryError> {
        self.holding(id, |current, epochs| undo_target(epochs, current)).await
    }

    /// Make the state of epoch `target` current again (`None`: the initial state, nothing compacted), as [`undo`](Self::undo) does for the epoch before the current one.
    ///
    /// Any epoch since the last clear can be restored, an undone one too,
    /// which redoes it.
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] with [`HistoryError::UnknownEpoch`] for an
    /// epoch the history does not hold, and as [`undo`](Self::undo).
    pub async fn restore(&self, id: &ConversationId, target: Option<u64>) -> Result<Undone, MemoryError> {
        self.holding(id, |_, _| Ok(target)).await
    }

    /// Start conversation `target` as a fork of `source` at message `at`: the messages before it, and the summary, window and history a load had then; from there each side loads, compacts, undoes and clears on its own.
    ///
    /// The store does it in one step ([`ConversationStore::fork`]), so a
    /// compaction of `source` running meanwhile is either wholly in the fork
    /// or not at all. Forking at the conversation's next sequence number
    /// branches it as it stands.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{ConversationId, ConversationMemory, Message, Seq};
    /// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let policy = TokenWindow::new(NonZeroU32::new(2_000).unwrap(), HeuristicCounter::default());
    /// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(400));
    /// let (main, branch) = (ConversationId::new("main")?, ConversationId::new("try-another-fix")?);
    /// memory.append(&main, vec![Message::user("the build fails"), Message::assistant("try a clean build")]).await?;
    /// memory.fork(&main, Seq(1), &branch).await?;
    /// memory.append(&branch, vec![Message::assistant("update the lock file")]).await?;
    /// assert_eq!(memory.load(&branch).await?.last(), Some(&Message::assistant("update the lock file")));
    /// assert_eq!(memory.load(&main).await?.last(), Some(&Message::assistant("try a clean build")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] when `target` exists, `at` would separate tool
    /// results from their call ([`HistoryError::SplitsToolUnit`]), lies beyond the
    /// source or before its kept history, or a prune deleted what the fork's
    /// window needs; nothing is written then.
    pub async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<(), MemoryError> {
        // Tool results follow their call at once, so the unit before `at` goes on past it exactly
        // when the message at `at` carries results.
        let next = self.parts.inner.load_seqs(source, &[at]).await?;
        if next.first().is_some_and(|stored| stored.message.role == tidemark_core::Role::Tool) {
            return Err(HistoryError::SplitsToolUnit { at }.into());
        }
        self.parts.inner.fork(source, at, target).await?;
        tracing::info!(target: "tidemark::compaction", conversation = %source, fork = %target, at = at.0, "forked a conversation");
        Ok(())
    }

    /// The compaction history of `id`: one [`Epoch`] per state written since the last clear, oldest first.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn history(&self, id: &ConversationId) -> Result<Vec<Epoch>, MemoryError> {
        Ok(self.parts.inner.epochs(id).await?)
    }

    /// The prompt a load served when `seq` was the conversation's newest message: the summary and window of the epoch in force then, with the messages appended by then.
    ///
    /// It is the prompt [`load`](tidemark_core::ConversationMemory::load) returned
    /// then, byte for byte, for a memory without context sources. Context
    /// blocks (facts, recalled passages) are not part of it: their sources
    /// answer from what they hold now, not from what they held then, so an
    /// as-of prompt shows the summary and window alone. A load made while
    /// another memory held the lease, or within a lower budget, may have
    /// served a shorter window than the one rebuilt here.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{ConversationId, ConversationMemory, Message, Seq};
    /// use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let policy = TokenWindow::new(NonZeroU32::new(120).unwrap(), HeuristicCounter::default());
    /// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(200));
    /// let id = ConversationId::new("audit")?;
    /// let mut served = Vec::new();
    /// for turn in 0..12u64 {
    ///     memory.append(&id, vec![Message::user(format!("turn {turn}: what changed in the build today?"))]).await?;
    ///     served.push(memory.load(&id).await?);
    /// }
    /// for (turn, prompt) in served.iter().enumerate() {
    ///     assert_eq!(&memory.load_as_of(&id, Seq(turn as u64)).await?, prompt);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`MemoryError::History`] for a message not appended yet, one before
    /// the kept history (a clear, or a store migrated to keep history after
    /// it), or a point whose messages a prune deleted.
    pub async fn load_as_of(&self, id: &ConversationId, seq: Seq) -> Result<Vec<Message>, MemoryError> {
        Ok(self.view_as_of(id, seq).await?.into_prompt().into_messages())
    }

    /// The window of the epoch in force when `seq` was the newest message, with the messages appended by then, checked to be whole.
    pub(super) async fn view_as_of(&self, id: &ConversationId, seq: Seq) -> Result<View, MemoryError> {
        let store = &self.parts.inner;
        let epochs = store.epochs(id).await?;
        let next_seq = store.stats(id).await?.next_seq;
        let state = state_as_of(&epochs, seq, next_seq)?;
        let upto = seq.after(1);
        let expected = upto.distance_from(state.watermark);
        let (retained, watermark) = (state.retained.len(), state.watermark);
        let ratio = store.calibration(id).await?.ratio();
        let view = View::read_upto(store, id, state, upto, ratio).await?;
        let found = view.stored.len();
        if found != retained + usize::try_from(expected).unwrap_or(usize::MAX) {
            return Err(HistoryError::Pruned {
                detail: format!(
                    "{found} of the {} messages the prompt of message {seq} held (from {watermark} on, and {retained} retained) are stored",
                    retained as u64 + expected
                ),
            }
            .into());
        }
        Ok(view)
    }

    /// Under the gate and the lease (never waiting): restore the epoch `target` picks from the history.
    async fn holding(
        &self,
        id: &ConversationId,
        target: impl FnOnce(u64, &[Epoch]) -> Result<Option<u64>, HistoryError>,
    ) -> Result<Undone, MemoryError> {
        self.now_or_busy(id, self.restore_held(id, target)).await
    }

    async fn restore_held(
        &self,
        id: &ConversationId,
        target: impl FnOnce(u64, &[Epoch]) -> Result<Option<u64>, HistoryError>,
    ) -> Result<Undone, MemoryError> {
        let store = &self.parts.inner;
        let current = store.state(id).await?.generation;
        let epochs = store.epochs(id).await?;
        let restored = target(current, &epochs)?;
        let state = match store.restore_state(id, current, restored).await {
            Ok(state) => state,
            // Someone else wrote the state between the read and the write (a clear, another process).
            Err(StoreError::StateConflict { .. }) => return Err(MemoryError::Busy),
            Err(error) => return Err(error.into()),
        };
        tracing::info!(
            target: "tidemark::compaction",
            conversation = %id,
            undone = current,
            restored = restored.map_or(-1, |generation| i64::try_from(generation).unwrap_or(i64::MAX)),
            watermark = state.watermark.0,
            "restored an earlier compaction state"
        );
        Ok(Undone {
            undone: current,
            restored,
            generation: state.generation,
            window_starts_at: state.watermark,
            summary_tokens: state.summary.as_ref().map_or(0, |summary| summary.tokens),
        })
    }
}

impl View {
    /// The view of `state` with the messages below `upto` only: the window a load saw when `upto` was the next number.
    pub(crate) async fn read_upto<S: ConversationStore>(
        store: &S,
        id: &ConversationId,
        state: tidemark_core::CompactionState,
        upto: Seq,
        ratio: tidemark_core::Ratio,
    ) -> Result<Self, StoreError> {
        let mut stored =
            if state.retained.is_empty() { Vec::new() } else { store.load_seqs(id, &state.retained).await? };
        stored.extend(store.load_range(id, SeqRange::new(state.watermark, upto)).await?);
        let messages = stored.iter().map(|s| Message::clone(&s.message)).collect();
        let tokens = stored.iter().map(|s| s.tokens).collect();
        Ok(Self { state, stored, messages, tokens, ratio })
    }
}

//! [`CompactingMemory::new_context`]: a compaction the model asks for, keeping its hand-off note.
//!
//! Codex's context management lets the model decide that its window has
//! served its purpose and start a fresh one. Here that is an ordinary
//! compaction, with every invariant of one (whole tool units, pinned and
//! system messages kept, the summary inside the budget, the newest
//! instruction carried), that evicts everything but the newest unit and the
//! units every policy keeps, with the model's note passed to the compactor as
//! a hint and kept in the stored summary.

use tidemark_core::{CompactionObserver, Compactor, ConversationStore, units};
use tidemark_core::{
    ConversationId, MemoryError, MemoryPolicy, Part, Seq, StoreError, StoredSummary, TokenCounter,
};

use super::{CompactingMemory, Step};
use crate::adapter::window::{Chosen, View};

/// The line before the model's hand-off note in a summary written by [`CompactingMemory::new_context`].
pub const HANDOFF_HEADER: &str = "[Hand-off note the model wrote when it started a fresh context]";

/// The line that ends a hand-off note cut to fit the budget.
const CUT: &str = "[… the rest of this note was cut to fit the context budget]";

/// What [`CompactingMemory::new_context`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reset {
    /// How many messages left the window for the summary (zero when nothing could leave).
    pub evicted: usize,
    /// Where the window starts now.
    pub window_starts_at: Seq,
    /// The tokens of the stored summary, hand-off note included.
    pub summary_tokens: u32,
}

/// `summary` with the hand-off `note` as a new last part, cut with a marker to a quarter of `limit`.
pub(super) fn with_handoff(
    mut summary: StoredSummary,
    note: &str,
    limit: Option<u32>,
    counter: &dyn TokenCounter,
) -> StoredSummary {
    let note = note.trim();
    if note.is_empty() {
        return summary;
    }
    let whole = format!("{HANDOFF_HEADER}\n{note}");
    let room = limit.map_or(u32::MAX, |limit| limit / 4);
    let text = if counter.count_text(&whole) <= room {
        whole
    } else {
        let fits = |prefix: &str| counter.count_text(&format!("{HANDOFF_HEADER}\n{prefix}\n{CUT}")) <= room;
        let kept = tidemark_core::counter::longest_prefix(note, fits).trim_end();
        format!("{HANDOFF_HEADER}\n{kept}\n{CUT}")
    };
    summary.message.parts.push(Part::text(text));
    summary.tokens = counter.count(&summary.message);
    summary
}

impl<S, P, C, O> CompactingMemory<S, P, C, O>
where
    S: ConversationStore,
    P: MemoryPolicy,
    C: Compactor,
    O: CompactionObserver,
{
    /// Start a fresh window now: compact everything but the newest unit (and the pinned and system units every policy keeps) into the summary, with the model's hand-off `note` kept in it.
    ///
    /// The note is passed to the compactor as part of its hint and stored as
    /// the summary's last part but one (after it only a carried instruction,
    /// see [`tidemark_core::task`]), after [`HANDOFF_HEADER`], cut with a
    /// marker to a quarter of the window's budget. The compaction is a
    /// normal one in every other way: one compare-and-swap, the observer's
    /// hint and events, the context sources told of the eviction.
    ///
    /// It never waits: when a compaction of the conversation is in flight
    /// (in this memory, or under another memory's lease) it fails with
    /// [`MemoryError::Busy`] and changes nothing. A compactor failure is
    /// returned even with [`FailureMode::Degrade`](crate::FailureMode::Degrade),
    /// since the caller asked for this compaction; nothing is written then
    /// either. When only the newest unit and kept units are in the window,
    /// nothing is written and [`Reset::evicted`] is zero.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{ConversationId, ConversationMemory, Message};
    /// use tidemark_memory::{CompactingMemory, HANDOFF_HEADER, HeuristicCounter, InMemoryStore, TokenWindow};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let policy = TokenWindow::new(NonZeroU32::new(2_000).unwrap(), HeuristicCounter::default());
    /// let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(400));
    /// let id = ConversationId::new("agent")?;
    /// for step in 0..5 {
    ///     memory.append(&id, vec![Message::user(format!("step {step}")), Message::assistant("done")]).await?;
    /// }
    /// memory.append(&id, vec![Message::user("step 5: deploy to staging")]).await?;
    /// let reset = memory.new_context(&id, "Steps 0-4 passed; step 5 needs the staging key.").await?;
    /// assert_eq!(reset.evicted, 10);
    /// let prompt = memory.load(&id).await?;
    /// assert!(prompt[0].text().contains(HANDOFF_HEADER));
    /// assert_eq!(prompt.len(), 2); // the summary, then the newest unit
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// [`MemoryError::Busy`] as above, the compactor's error, or the store's.
    pub async fn new_context(&self, id: &ConversationId, note: &str) -> Result<Reset, MemoryError> {
        self.now_or_busy(id, self.reset_held(id, note)).await
    }

    /// Under the gate and the lease: evict everything up to the newest unit, with `note`.
    async fn reset_held(&self, id: &ConversationId, note: &str) -> Result<Reset, MemoryError> {
        let view = View::read(&self.parts.inner, id).await?;
        let counter = self.counter();
        let chosen = view.choose(&self.parts.policy, counter, &self.parts.contexts, None);
        let newest = units(&view.messages).last().map(|unit| unit.start());
        let Some(floor) = newest.and_then(|start| view.stored.get(start)).map(|stored| stored.seq) else {
            return Ok(Reset { evicted: 0, window_starts_at: view.state.watermark, summary_tokens: 0 });
        };
        let selection = view.reach(chosen.selection, floor);
        let evicted = selection.demoted_len();
        if evicted == 0 {
            let summary_tokens = view.state.summary.as_ref().map_or(0, |summary| summary.tokens);
            return Ok(Reset { evicted, window_starts_at: view.window_start(&selection), summary_tokens });
        }
        let chosen = Chosen { selection, granted: chosen.granted, limit: chosen.limit };
        match self.compact_with(id, view, chosen, Some(note)).await? {
            Step::Applied(next) => Ok(Reset {
                evicted,
                window_starts_at: next.state.watermark,
                summary_tokens: next.state.summary.as_ref().map_or(0, |summary| summary.tokens),
            }),
            // The state moved between the read and the write: someone else compacted or cleared.
            Step::Conflict => Err(MemoryError::Busy),
            // A reset never degrades (see `compact_with`); should it, nothing was written.
            Step::Serve(_) => Err(MemoryError::Store(StoreError::backend(
                "new_context",
                std::io::Error::other("the reset's compaction served the previous summary"),
            ))),
        }
    }
}

//! Compaction history: every state a store writes is kept as an [`Epoch`], so a compaction can be taken back and an old prompt read again.
//!
//! A compaction only moves a conversation's watermark and writes a summary;
//! the messages stay stored. Each write of the [`CompactionState`] (a
//! compaction, a clear, a restore) is recorded by the store as an epoch,
//! numbered by the generation it gave the state. From those records:
//!
//! - **Undo** ([`undo_target`]): each epoch names the one an undo of it
//!   makes current again, so undoing twice goes back two compactions. A
//!   store's [`restore_state`](crate::ConversationStore::restore_state) writes
//!   that older state as a new epoch; nothing is deleted, so an undo can be
//!   undone as well.
//! - **As-of reads** ([`state_as_of`]): the state that served a load after a
//!   given message is the newest epoch written before that message's
//!   successor was appended.
//!
//! The rules here are pure, so every store applies them alike; the
//! `tidemark-testkit` store suite checks that they do.
//!
//! ```
//! use tidemark_core::history::{Epoch, EpochKind, undo_target};
//! use tidemark_core::{CompactionState, Seq};
//!
//! let first = Epoch::new(1, EpochKind::Saved, None, Seq(10), 0, CompactionState::new(Seq(6), vec![], None));
//! let second = Epoch::new(2, EpochKind::Saved, Some(1), Seq(20), 0, CompactionState::new(Seq(15), vec![], None));
//! let epochs = [first, second];
//! assert_eq!(undo_target(&epochs, 2), Ok(Some(1)), "undoing the second compaction restores the first");
//! assert_eq!(undo_target(&epochs, 1), Ok(None), "undoing the first restores the state before any");
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::id::Seq;
use crate::store::CompactionState;

/// What wrote an epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EpochKind {
    /// [`save_state`](crate::ConversationStore::save_state): a compaction, or another forward move of the watermark.
    Saved,
    /// [`restore_state`](crate::ConversationStore::restore_state): an earlier state made current again.
    Restored {
        /// The epoch whose state was restored; `None` for the initial state (nothing compacted).
        from: Option<u64>,
    },
    /// [`clear`](crate::ConversationStore::clear): the messages before it are gone, and so is the history.
    Cleared,
    /// The state a store held when it started keeping history (a migration); what came before is not known.
    Migrated,
}

impl EpochKind {
    /// The kind's name, as the SQL stores keep it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Saved => "saved",
            Self::Restored { .. } => "restored",
            Self::Cleared => "cleared",
            Self::Migrated => "migrated",
        }
    }
}

/// One write of a conversation's compaction state, as the store recorded it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Epoch {
    /// The generation the write gave the state: the epoch's number within its conversation.
    pub generation: u64,
    /// What wrote it.
    pub kind: EpochKind,
    /// The epoch an undo of this one makes current again; `None` for the initial state (nothing compacted).
    pub undo_to: Option<u64>,
    /// The conversation's next sequence number when the epoch was written: loads after it served
    /// this state until the next epoch.
    pub next_seq: Seq,
    /// When the epoch was written, in milliseconds since the Unix epoch (the writing machine's clock).
    pub at_ms: u64,
    /// The state written, its generation equal to [`generation`](Epoch::generation).
    pub state: CompactionState,
}

impl Epoch {
    /// An epoch record; `state.generation` is set to `generation`.
    pub fn new(
        generation: u64,
        kind: EpochKind,
        undo_to: Option<u64>,
        next_seq: Seq,
        at_ms: u64,
        mut state: CompactionState,
    ) -> Self {
        state.generation = generation;
        Self { generation, kind, undo_to, next_seq, at_ms, state }
    }
}

/// Why a history operation could not be carried out; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError {
    /// The current state has no earlier one to go back to: nothing was compacted, or a clear came last.
    #[error("nothing to undo: the current state is the first of the conversation's history")]
    NothingToUndo,
    /// No epoch of the conversation has this generation.
    #[error("the conversation has no epoch {generation}")]
    UnknownEpoch {
        /// The generation asked for.
        generation: u64,
    },
    /// A state whose messages are no longer all stored (a prune deleted them) cannot serve a prompt again.
    #[error("the messages that state needs were pruned: {detail}")]
    Pruned {
        /// Which messages are missing.
        detail: String,
    },
    /// The point asked for lies before the history the store kept (before a clear, or before the store kept epochs).
    #[error("message {seq} comes before the kept history, which starts at message {starts}")]
    BeforeHistory {
        /// The message asked about.
        seq: Seq,
        /// The first message the history covers.
        starts: Seq,
    },
    /// A fork's new conversation already has messages or state.
    #[error("conversation {conversation} already exists; a fork needs a new one")]
    Exists {
        /// The conversation named for the fork.
        conversation: crate::id::ConversationId,
    },
    /// A fork there would cut a tool unit: the message at the point answers a call made before it.
    #[error(
        "a fork at message {at} would separate tool results from their call; fork before the call or after its results"
    )]
    SplitsToolUnit {
        /// The point asked for.
        at: Seq,
    },
    /// The point asked for lies after the newest stored message.
    #[error("message {seq} was never appended (the next is {next_seq})")]
    NotYetAppended {
        /// The message asked about.
        seq: Seq,
        /// The conversation's next sequence number.
        next_seq: Seq,
    },
}

/// The epoch an undo of the current state makes current again: `Ok(None)` is the initial state.
///
/// `current` is the stored state's generation. Generation zero (never
/// written), a clear and a restored initial state have nothing before them.
/// The undo of a [`EpochKind::Migrated`] epoch is the initial state: every
/// message from the first on serves again, when none was pruned.
///
/// # Errors
///
/// [`HistoryError::NothingToUndo`] as above, [`HistoryError::UnknownEpoch`] when
/// the history holds no epoch of the current generation.
pub fn undo_target(epochs: &[Epoch], current: u64) -> Result<Option<u64>, HistoryError> {
    if current == 0 {
        return Err(HistoryError::NothingToUndo);
    }
    let epoch = find(epochs, current)?;
    match epoch.kind {
        // The initial state restored: nothing is compacted, so nothing is left to undo.
        EpochKind::Cleared | EpochKind::Restored { from: None } => Err(HistoryError::NothingToUndo),
        // A restored clear is a clear again: what came before it is gone.
        EpochKind::Restored { from: Some(from) }
            if find(epochs, from).is_ok_and(|restored| restored.kind == EpochKind::Cleared) =>
        {
            Err(HistoryError::NothingToUndo)
        }
        _ => Ok(epoch.undo_to),
    }
}

/// The epoch with `generation`.
///
/// # Errors
///
/// [`HistoryError::UnknownEpoch`] when there is none.
pub fn find(epochs: &[Epoch], generation: u64) -> Result<&Epoch, HistoryError> {
    epochs
        .binary_search_by_key(&generation, |epoch| epoch.generation)
        .map(|at| &epochs[at])
        .map_err(|_| HistoryError::UnknownEpoch { generation })
}

/// The state of `target` (`None`: the initial state) and the epoch an undo of the restore goes back to.
///
/// # Errors
///
/// [`HistoryError::UnknownEpoch`] when `target` names no epoch.
pub fn restore_plan(
    epochs: &[Epoch],
    target: Option<u64>,
) -> Result<(CompactionState, Option<u64>), HistoryError> {
    match target {
        None => Ok((CompactionState::default(), None)),
        Some(generation) => {
            let epoch = find(epochs, generation)?;
            Ok((epoch.state.clone(), epoch.undo_to))
        }
    }
}

/// Check that every message `state` serves from is still stored, before a store restores it.
///
/// `stored_from_watermark` is how many messages the store holds at or
/// above `state.watermark`, and `retained_found` how many of `state.retained`
/// it holds. Every number from the watermark to `next_seq` was handed out
/// after the last clear (a clear is the oldest epoch a restore can reach, and
/// the initial state's watermark is zero only where nothing was ever cleared),
/// so a shortfall means a prune deleted some.
///
/// # Errors
///
/// [`HistoryError::Pruned`] naming the shortfall.
pub fn check_restorable(
    state: &CompactionState,
    next_seq: Seq,
    stored_from_watermark: u64,
    retained_found: usize,
) -> Result<(), HistoryError> {
    let expected = next_seq.distance_from(state.watermark);
    if stored_from_watermark < expected {
        return Err(HistoryError::Pruned {
            detail: format!(
                "{} of the {expected} messages from {} on are stored",
                stored_from_watermark, state.watermark
            ),
        });
    }
    if retained_found < state.retained.len() {
        return Err(HistoryError::Pruned {
            detail: format!("{retained_found} of its {} retained messages are stored", state.retained.len()),
        });
    }
    Ok(())
}

/// The state that served a load made when `seq` was the newest message: the newest epoch written before `seq + 1` was appended.
///
/// `epochs` are one conversation's, ascending by generation, and
/// `next_seq` its next sequence number now. Before the first epoch the state
/// is the initial one, unless the first epoch is a clear or a migration: what
/// came before those is not known.
///
/// # Errors
///
/// [`HistoryError::NotYetAppended`] for a message not appended yet,
/// [`HistoryError::BeforeHistory`] for one before the kept history.
pub fn state_as_of(epochs: &[Epoch], seq: Seq, next_seq: Seq) -> Result<CompactionState, HistoryError> {
    if seq >= next_seq {
        return Err(HistoryError::NotYetAppended { seq, next_seq });
    }
    let upto = seq.after(1);
    let newest = epochs.iter().rev().find(|epoch| epoch.next_seq <= upto);
    if let Some(epoch) = newest {
        return Ok(epoch.state.clone());
    }
    match epochs.first() {
        Some(first) if matches!(first.kind, EpochKind::Cleared | EpochKind::Migrated) => {
            Err(HistoryError::BeforeHistory { seq, starts: first.next_seq })
        }
        _ => Ok(CompactionState::default()),
    }
}

/// The answer of [`restore_state`](crate::ConversationStore::restore_state) for a conversation the store has no record of.
///
/// Its generation is zero and it has no epoch: a restore expecting another
/// generation conflicts, one of the initial state has nothing to undo, and
/// any other names an unknown epoch.
pub fn never_written(expected: u64, target: Option<u64>) -> StoreError {
    if expected != 0 {
        return StoreError::StateConflict { expected, found: 0 };
    }
    StoreError::History(match target {
        None => HistoryError::NothingToUndo,
        Some(generation) => HistoryError::UnknownEpoch { generation },
    })
}

/// One conversation's epochs kept in process memory, with the bookkeeping of each write: what an in-memory store (or your own) embeds beside its [`CompactionState`].
///
/// The store calls [`saved`](EpochLog::saved) after each `save_state`,
/// [`cleared`](EpochLog::cleared) after each clear, and lets
/// [`restore`](EpochLog::restore) carry out `restore_state`.
///
/// ```
/// use tidemark_core::history::{EpochLog, HistoryError};
/// use tidemark_core::{CompactionState, Seq, StoreError};
///
/// let mut log = EpochLog::default();
/// let mut first = CompactionState::new(Seq(4), vec![], None);
/// first.generation = 1;
/// log.saved(&first, Seq(10));
/// let mut second = CompactionState::new(Seq(8), vec![], None);
/// second.generation = 2;
/// log.saved(&second, Seq(12));
/// // Undo the second compaction: every message from 4 on is still stored.
/// let restored = log.restore(2, 2, Some(1), Seq(12), |from| 12 - from.0, |_| true)?;
/// assert_eq!((restored.generation, restored.watermark), (3, Seq(4)));
/// # Ok::<(), StoreError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpochLog {
    epochs: Vec<Epoch>,
}

impl EpochLog {
    /// The epochs, ascending by generation.
    pub fn epochs(&self) -> &[Epoch] {
        &self.epochs
    }

    /// Record `state` (its generation already advanced) as written by `save_state` when the next sequence number was `next_seq`.
    pub fn saved(&mut self, state: &CompactionState, next_seq: Seq) {
        let previous = state.generation.saturating_sub(1);
        let undo_to = (previous > 0).then_some(previous);
        self.epochs.push(Epoch::new(
            state.generation,
            EpochKind::Saved,
            undo_to,
            next_seq,
            now_ms(),
            state.clone(),
        ));
    }

    /// Forget every epoch and record `state` as written by a clear.
    pub fn cleared(&mut self, state: &CompactionState, next_seq: Seq) {
        let epoch = Epoch::new(state.generation, EpochKind::Cleared, None, next_seq, now_ms(), state.clone());
        self.epochs = vec![epoch];
    }

    /// What a [`fork`](crate::ConversationStore::fork) of this conversation at `at` starts with: its log and its state ([`fork_plan`], checked by [`check_restorable`]).
    ///
    /// `stored_below(from)` says how many stored messages have numbers from
    /// `from` up to `at` (excluded), and `is_stored(seq)` whether one message is stored.
    ///
    /// # Errors
    ///
    /// [`StoreError::History`] as [`fork_plan`] and [`check_restorable`] say.
    pub fn fork(
        &self,
        at: Seq,
        next_seq: Seq,
        stored_below: impl FnOnce(Seq) -> u64,
        is_stored: impl Fn(Seq) -> bool,
    ) -> Result<(EpochLog, CompactionState), StoreError> {
        let (epochs, state) = fork_plan(&self.epochs, at, next_seq)?;
        let retained = state.retained.iter().filter(|seq| is_stored(**seq)).count();
        check_restorable(&state, at, stored_below(state.watermark), retained)?;
        Ok((Self { epochs }, state))
    }

    /// Carry out [`restore_state`](crate::ConversationStore::restore_state) and return the state to store.
    ///
    /// `current` is the stored generation; `stored_from(seq)` says how many
    /// stored messages have numbers at or above `seq`, and `is_stored(seq)`
    /// whether one message is stored.
    ///
    /// # Errors
    ///
    /// [`StoreError::StateConflict`] when `current` is not `expected`, and
    /// [`StoreError::History`] as [`restore_plan`] and [`check_restorable`] say.
    pub fn restore(
        &mut self,
        current: u64,
        expected: u64,
        target: Option<u64>,
        next_seq: Seq,
        stored_from: impl FnOnce(Seq) -> u64,
        is_stored: impl Fn(Seq) -> bool,
    ) -> Result<CompactionState, StoreError> {
        if current != expected {
            return Err(StoreError::StateConflict { expected, found: current });
        }
        let (mut state, undo_to) = restore_plan(&self.epochs, target)?;
        let retained = state.retained.iter().filter(|seq| is_stored(**seq)).count();
        check_restorable(&state, next_seq, stored_from(state.watermark), retained)?;
        state.generation = expected
            .checked_add(1)
            .ok_or(StoreError::InvalidState { reason: "the generation cannot grow any further" })?;
        let kind = EpochKind::Restored { from: target };
        self.epochs.push(Epoch::new(state.generation, kind, undo_to, next_seq, now_ms(), state.clone()));
        Ok(state)
    }
}

/// What a fork of a conversation at `at` starts with: the epochs written before message `at` was appended, and the state the last of them holds.
///
/// `epochs` are the source's, ascending, and `next_seq` its next sequence
/// number. A fork at `at` holds the messages numbered below `at` and goes on
/// from there on its own; its state is the one a load served when `at - 1`
/// was the newest message ([`state_as_of`]), and its history those epochs, so
/// it can undo what the source had compacted by then.
///
/// # Errors
///
/// [`HistoryError::NotYetAppended`] for `at` beyond `next_seq`,
/// [`HistoryError::BeforeHistory`] for a point before the source's kept history.
pub fn fork_plan(
    epochs: &[Epoch],
    at: Seq,
    next_seq: Seq,
) -> Result<(Vec<Epoch>, CompactionState), HistoryError> {
    if at > next_seq {
        return Err(HistoryError::NotYetAppended { seq: at, next_seq });
    }
    let kept: Vec<Epoch> = epochs.iter().filter(|epoch| epoch.next_seq <= at).cloned().collect();
    if kept.is_empty()
        && let Some(first) =
            epochs.first().filter(|first| matches!(first.kind, EpochKind::Cleared | EpochKind::Migrated))
    {
        return Err(HistoryError::BeforeHistory { seq: at, starts: first.next_seq });
    }
    let state = kept.last().map(|epoch| epoch.state.clone()).unwrap_or_default();
    Ok((kept, state))
}

/// The time now in milliseconds since the Unix epoch, as stores stamp epochs (zero before 1970).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epoch(generation: u64, kind: EpochKind, undo_to: Option<u64>, next_seq: u64, watermark: u64) -> Epoch {
        Epoch::new(
            generation,
            kind,
            undo_to,
            Seq(next_seq),
            0,
            CompactionState::new(Seq(watermark), vec![], None),
        )
    }

    #[test]
    fn undo_walks_back_through_restores() {
        let epochs = [
            epoch(1, EpochKind::Saved, None, 10, 5),
            epoch(2, EpochKind::Saved, Some(1), 20, 12),
            // The undo of epoch 2 restored epoch 1 and inherits its target.
            epoch(3, EpochKind::Restored { from: Some(1) }, None, 20, 5),
        ];
        assert_eq!(undo_target(&epochs, 3), Ok(None));
        assert_eq!(undo_target(&epochs, 2), Ok(Some(1)));
        assert_eq!(undo_target(&epochs, 0), Err(HistoryError::NothingToUndo));
        assert_eq!(undo_target(&epochs, 9), Err(HistoryError::UnknownEpoch { generation: 9 }));
    }

    #[test]
    fn a_clear_has_nothing_before_it() {
        let epochs =
            [epoch(4, EpochKind::Cleared, None, 30, 30), epoch(5, EpochKind::Saved, Some(4), 40, 35)];
        assert_eq!(undo_target(&epochs, 4), Err(HistoryError::NothingToUndo));
        assert_eq!(undo_target(&epochs, 5), Ok(Some(4)));
        assert_eq!(
            state_as_of(&epochs, Seq(10), Seq(50)),
            Err(HistoryError::BeforeHistory { seq: Seq(10), starts: Seq(30) })
        );
        assert_eq!(state_as_of(&epochs, Seq(29), Seq(50)).map(|state| state.watermark), Ok(Seq(30)));
    }

    #[test]
    fn as_of_takes_the_newest_epoch_written_before_the_next_message() {
        let epochs = [epoch(1, EpochKind::Saved, None, 10, 5), epoch(2, EpochKind::Saved, Some(1), 20, 12)];
        let at = |seq| state_as_of(&epochs, Seq(seq), Seq(25)).map(|state| state.generation);
        assert_eq!(at(8), Ok(0), "before the first compaction: the initial state");
        assert_eq!(at(9), Ok(1), "the load after message 9 compacted");
        assert_eq!(at(18), Ok(1));
        assert_eq!(at(19), Ok(2));
        assert_eq!(at(24), Ok(2));
        assert_eq!(at(25), Err(HistoryError::NotYetAppended { seq: Seq(25), next_seq: Seq(25) }));
    }

    #[test]
    fn a_fork_takes_the_epochs_written_before_its_point() {
        let epochs = [epoch(1, EpochKind::Saved, None, 10, 5), epoch(2, EpochKind::Saved, Some(1), 20, 12)];
        let (kept, state) = fork_plan(&epochs, Seq(15), Seq(25)).expect("a fork inside the history");
        assert_eq!((kept.len(), state.generation, state.watermark), (1, 1, Seq(5)));
        let (kept, state) = fork_plan(&epochs, Seq(3), Seq(25)).expect("a fork before any compaction");
        assert_eq!((kept.len(), state), (0, CompactionState::default()));
        assert_eq!(fork_plan(&epochs, Seq(25), Seq(25)).map(|(kept, _)| kept.len()), Ok(2));
        assert_eq!(
            fork_plan(&epochs, Seq(26), Seq(25)),
            Err(HistoryError::NotYetAppended { seq: Seq(26), next_seq: Seq(25) })
        );
        let cleared = [epoch(3, EpochKind::Cleared, None, 30, 30)];
        assert!(matches!(fork_plan(&cleared, Seq(12), Seq(40)), Err(HistoryError::BeforeHistory { .. })));
    }

    #[test]
    fn a_prune_makes_earlier_states_unrestorable() {
        let state = CompactionState::new(Seq(5), vec![Seq(1)], None);
        assert!(check_restorable(&state, Seq(10), 5, 1).is_ok());
        assert!(matches!(check_restorable(&state, Seq(10), 4, 1), Err(HistoryError::Pruned { .. })));
        assert!(matches!(check_restorable(&state, Seq(10), 5, 0), Err(HistoryError::Pruned { .. })));
    }

    #[test]
    fn epochs_round_trip_through_json() {
        let epoch = epoch(3, EpochKind::Restored { from: None }, Some(1), 9, 4);
        let json = serde_json::to_string(&epoch).expect("an epoch serializes");
        assert_eq!(serde_json::from_str::<Epoch>(&json).expect("and reads back"), epoch);
    }
}

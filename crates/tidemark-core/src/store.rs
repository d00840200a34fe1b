//! The persistence contract: [`ConversationStore`] and the records it keeps.

pub mod sql;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::calibration::Calibration;
use crate::error::StoreError;
use crate::history::Epoch;
use crate::id::{ConversationId, Seq, SeqRange};
use crate::message::Message;
use crate::recall::{Passage, RecallQuery};

/// A message to append, with its token count under the caller's counter.
///
/// Stores keep the count so that loads never tokenize again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewMessage {
    /// The message.
    pub message: Message,
    /// Its token count.
    pub tokens: u32,
}

impl NewMessage {
    /// A message to append with its token count.
    pub fn new(message: Message, tokens: u32) -> Self {
        Self { message, tokens }
    }
}

/// A message as stored: its sequence number, token count and shared content.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredMessage {
    /// Its place in the conversation.
    pub seq: Seq,
    /// The token count recorded at append.
    pub tokens: u32,
    /// The message, shared so that loading from an in-memory store copies no text.
    pub message: Arc<Message>,
}

impl StoredMessage {
    /// A stored message.
    pub fn new(seq: Seq, tokens: u32, message: impl Into<Arc<Message>>) -> Self {
        Self { seq, tokens, message: message.into() }
    }
}

/// The rolled-up summary of everything compacted so far in a conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StoredSummary {
    /// The compactor's artifact in JSON, handed back to it as carry-over on the next roll.
    pub artifact: serde_json::Value,
    /// The artifact rendered as the message placed in front of the kept window.
    pub message: Message,
    /// The rendered message's token count.
    pub tokens: u32,
    /// The name of the compactor that made it.
    pub compactor: String,
}

impl StoredSummary {
    /// A summary record.
    pub fn new(
        artifact: serde_json::Value,
        message: Message,
        tokens: u32,
        compactor: impl Into<String>,
    ) -> Self {
        Self { artifact, message, tokens, compactor: compactor.into() }
    }
}

/// What a memory adapter has already done to a conversation, kept beside it so that it survives restarts.
///
/// Every message with a sequence number below `watermark` has left the prompt
/// window (it was delivered to a demotion hook or folded into `summary`),
/// except those listed in `retained`, which stay in the prompt because they are
/// pinned or are system messages.
/// `generation` grows by one with every write of the state and with every
/// clear, which lets writers detect that someone else got there first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompactionState {
    /// How many times this state has been written (zero if never).
    pub generation: u64,
    /// Messages below this sequence number have left the window, except `retained` ones.
    pub watermark: Seq,
    /// Sequence numbers below the watermark that stay in the prompt, ascending.
    pub retained: Vec<Seq>,
    /// The rolling summary, once anything was compacted.
    pub summary: Option<StoredSummary>,
}

impl CompactionState {
    /// A state to write: `generation` is set by the store.
    pub fn new(watermark: Seq, retained: Vec<Seq>, summary: Option<StoredSummary>) -> Self {
        Self { generation: 0, watermark, retained, summary }
    }
}

/// How much a store holds for one conversation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ConversationStats {
    /// The sequence number the next appended message will get.
    pub next_seq: Seq,
    /// How many messages are stored (fewer than `next_seq` after a clear or a prune).
    pub stored: u64,
    /// The sum of the stored messages' token counts.
    pub stored_tokens: u64,
}

impl ConversationStats {
    /// Statistics with the given figures.
    pub fn new(next_seq: Seq, stored: u64, stored_tokens: u64) -> Self {
        Self { next_seq, stored, stored_tokens }
    }
}

/// Where conversations and their compaction state are kept: an in-memory map, an SQLite file or a PostgreSQL database.
///
/// # Contract
///
/// - `append` stores all of its messages or none, gives them consecutive
///   sequence numbers after every earlier one and returns that range. Concurrent
///   appends to one conversation never share or skip a number.
/// - Sequence numbers are never reused: `clear` deletes the messages and the
///   state but the next append continues after the last number handed out.
/// - `load_range` returns the stored messages in the range in ascending order,
///   skipping numbers that were cleared or pruned; `load_seqs` does the same for
///   a sorted list of numbers.
/// - `state` returns the stored [`CompactionState`], or the default one (generation 0)
///   if none was written. `save_state` is a compare-and-swap: it succeeds only if
///   the stored generation equals `expected_generation`, writes the state with
///   generation `expected_generation + 1` and returns it; otherwise it fails with
///   [`StoreError::StateConflict`] and changes nothing. It refuses
///   ([`StoreError::InvalidState`]) a watermark beyond `next_seq`, a watermark lower
///   than the stored one, and `retained` numbers that are unsorted or not below the watermark.
/// - `clear` removes messages, summary and calibration and advances the
///   generation, so a compaction that read the state before the clear cannot
///   write it back.
/// - Every state written (by `save_state`, `restore_state` or the `clear` of a
///   conversation that has messages or state) is recorded as an
///   [`Epoch`] numbered by its generation; `epochs`
///   returns them in ascending order. A clear deletes the epochs before it.
///   `restore_state` is the compare-and-swap of `save_state` that makes an
///   earlier epoch's state (or the initial one) current again, refusing an
///   unknown epoch and a state whose messages a prune deleted
///   ([`StoreError::History`]); see [`crate::history`] for the rules.
/// - `prune` deletes the messages below the watermark that are not retained,
///   which only a caller that no longer needs them should do.
/// - `search_passages` finds the best passages (see [`crate::recall`]) of the
///   stored messages below the query's `below` mark, ranked by
///   [`recall::rank`](crate::recall::rank); `clear` and `prune` take the
///   passages of the messages they delete out of the index.
/// - `calibration` returns the [`Calibration`] last written by
///   `save_calibration`, or the empty one. It is kept apart from the
///   compaction state: writing it never conflicts with a compaction, and the
///   last write wins. A calibration alone does not make a conversation appear
///   in `conversations`.
/// - Several handles (threads, or processes for a shared database) may use a
///   store at once; each method is atomic on its own.
///
/// The `tidemark-testkit` conformance suite checks all of this against a reference model.
///
/// # Example
///
/// A store is usually wrapped by a memory adapter; driving it directly looks like this
/// (`store` is any implementation, such as tidemark-memory's `InMemoryStore`):
///
/// ```
/// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq, SeqRange, StoreError};
///
/// async fn remember(store: &impl ConversationStore) -> Result<(), StoreError> {
///     let id = ConversationId::new("demo").expect("a valid id");
///     let range = store.append(&id, vec![NewMessage::new(Message::user("hi"), 4)]).await?;
///     let stored = store.load_range(&id, range).await?;
///     assert_eq!(stored[0].message.text(), "hi");
///     let state = store.state(&id).await?;
///     assert_eq!(state.watermark, Seq::ZERO);
///     Ok(())
/// }
/// ```
pub trait ConversationStore: Send + Sync {
    /// Append `messages` to `conversation`, all or none, and return their sequence range.
    fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> impl Future<Output = Result<SeqRange, StoreError>> + Send;

    /// The stored messages whose sequence numbers lie in `range`, ascending.
    fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> impl Future<Output = Result<Vec<StoredMessage>, StoreError>> + Send;

    /// The stored messages with the given ascending sequence numbers (missing ones are skipped).
    fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> impl Future<Output = Result<Vec<StoredMessage>, StoreError>> + Send;

    /// How much the store holds for `conversation` (all zero for an unknown one).
    fn stats(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<ConversationStats, StoreError>> + Send;

    /// Remove every message, the compaction state and the calibration of `conversation`.
    fn clear(&self, conversation: &ConversationId) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The compaction state of `conversation` (the default state if never written).
    fn state(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send;

    /// Write `state` if the stored generation is still `expected_generation`; return the state as stored.
    fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send;

    /// The compaction history of `conversation`: one [`Epoch`] per state written since the last clear, ascending (empty for an unknown one).
    ///
    /// There is no default, as for [`try_lease`](ConversationStore::try_lease):
    /// a wrapper that forgot to forward it would quietly report no history.
    fn epochs(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<Vec<Epoch>, StoreError>> + Send;

    /// Make the state of epoch `target` (`None`: the initial state, nothing compacted) current again, if the stored generation is still `expected_generation`.
    ///
    /// The restored state is written with generation `expected_generation + 1`
    /// and recorded as a new epoch whose undo target is the restored epoch's,
    /// so undoing again goes further back ([`crate::history::restore_plan`]).
    /// The watermark may move backwards here, and only here: the messages
    /// between stay stored, so the next load serves them again.
    ///
    /// # Errors
    ///
    /// [`StoreError::StateConflict`] when the generation moved;
    /// [`StoreError::History`] for an unknown epoch or a state whose messages
    /// a prune deleted ([`crate::history::check_restorable`]). Nothing changes then.
    fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send;

    /// Start conversation `target` as a copy of `source` up to message `at` (excluded), with the compaction state and history it had then; return the fork's state.
    ///
    /// The fork holds the stored messages numbered below `at` under the same
    /// numbers, continues at `at`, and has the state and epochs of
    /// [`crate::history::fork_plan`], so it loads, compacts and undoes as the
    /// source did at that point and then on its own. The source's calibration
    /// and user come along. Nothing is shared for writing: clearing or pruning
    /// either side never touches the other's messages. A store keeps the
    /// messages once where it can (the in-memory store shares them); the SQL
    /// stores copy the rows in one statement. The conversation-scoped facts of
    /// the source are not copied; user-scoped facts follow the user.
    ///
    /// # Errors
    ///
    /// [`StoreError::History`] with [`HistoryError::Exists`](crate::history::HistoryError::Exists)
    /// when `target` has messages or state, and as [`fork_plan`](crate::history::fork_plan)
    /// and [`check_restorable`](crate::history::check_restorable) say (a point beyond the
    /// source, before its kept history, or whose messages were pruned). Nothing is written then.
    fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send;

    /// Delete the messages below the watermark that are not retained; return how many were deleted.
    fn prune(&self, conversation: &ConversationId) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Every conversation that has stored messages or state, in ascending order.
    fn conversations(&self) -> impl Future<Output = Result<Vec<ConversationId>, StoreError>> + Send;

    /// Claim the right to compact `conversation` for `holder`, for at most `ttl`, across every memory sharing the store.
    ///
    /// A memory calls this after its own in-process lock and before it runs a
    /// compactor, and [`release_lease`](ConversationStore::release_lease)
    /// afterwards. A lease that is not released (its process died) expires
    /// after `ttl`, so a crash never blocks a conversation for good. The same
    /// holder may claim again to extend its lease. A `ttl` of zero gives a
    /// lease that has already expired: the next claim by anyone succeeds.
    ///
    /// There is no default: every store, and every wrapper around one, says
    /// what its leases do, so a wrapper that forgets to forward them does not
    /// compile instead of quietly turning the cross-process lock off. Two
    /// memories over one store (two processes, or two adapters in one process)
    /// only compact a conversation once at a time if the leases are exclusive;
    /// the store conformance suite checks that they are.
    fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> impl Future<Output = Result<Lease, StoreError>> + Send;

    /// Give up `holder`'s lease on `conversation` (nothing happens if it does not hold one).
    fn release_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The best passages of `conversation`'s stored messages below `query.below`, best first, at most `query.limit`.
    ///
    /// Each message is cut into passages by [`recall::passages`](crate::recall::passages);
    /// a store indexes it at the append, or at the latest when a search first
    /// reaches below it, so that every message below `query.below` is found.
    /// The answer is what [`recall::rank`](crate::recall::rank) makes of the
    /// passages of the messages [`recall::candidate_messages`](crate::recall::candidate_messages)
    /// chooses (those the query's rarest terms point at), so a search costs
    /// the same however long the conversation, scores are comparable within
    /// one answer, and every store gives the same one. Messages deleted by `clear`
    /// or `prune` are no longer found. A query without search terms (empty,
    /// punctuation, stop words, search-engine syntax) finds nothing; no query
    /// text is ever an error.
    ///
    /// There is no default, as for [`try_lease`](ConversationStore::try_lease):
    /// a wrapper that forgot to forward it would quietly find nothing.
    fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> impl Future<Output = Result<Vec<Passage>, StoreError>> + Send;

    /// The calibration of `conversation`: what the provider's usage reports taught the memory (the empty calibration if none was saved).
    ///
    /// There is no default, as for [`try_lease`](ConversationStore::try_lease):
    /// a wrapper that forgot to forward it would quietly forget what was learned.
    fn calibration(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<Calibration, StoreError>> + Send;

    /// Replace the calibration of `conversation`; the last write wins.
    ///
    /// A memory reads the calibration, adds one sample and writes it back
    /// after each model call, so two calls of one conversation that finish
    /// together may lose one sample, which a median of several samples
    /// hardly notices. The write is not tied to the compaction state's generation,
    /// so it never makes a compaction fail.
    fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Record that `conversation` is held with `user`, replacing the user it had, and make it that user's newest conversation.
    ///
    /// A user is named by a [`ConversationId`] (the same kind of name the
    /// fact scopes use). Recall with a user reads the user's other
    /// conversations through [`user_conversations`](ConversationStore::user_conversations),
    /// so what a user said in one conversation can be quoted in the next. Like a
    /// calibration, the record does not make the conversation appear in
    /// [`conversations`](ConversationStore::conversations); [`clear`](ConversationStore::clear)
    /// forgets it.
    ///
    /// There is no default, as for [`try_lease`](ConversationStore::try_lease):
    /// a wrapper that forgot to forward it would quietly keep every user's
    /// conversations apart.
    fn set_user(
        &self,
        conversation: &ConversationId,
        user: &ConversationId,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The conversations held with `user`, the most recently assigned first (empty for a user never named).
    fn user_conversations(
        &self,
        user: &ConversationId,
    ) -> impl Future<Output = Result<Vec<ConversationId>, StoreError>> + Send;
}

/// The answer to [`ConversationStore::try_lease`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lease {
    /// The caller holds the lease now.
    Acquired,
    /// Someone else does.
    HeldBy {
        /// Who holds it.
        holder: String,
        /// How long until it expires unless renewed.
        expires_in: Duration,
    },
}

/// Decide a claim on a conversation's lease for a store that keeps leases in process memory: the rule of [`ConversationStore::try_lease`].
///
/// `current` is the lease on record, if any: its holder and when it runs
/// out. Another holder's lease that has not run out refuses the claim with
/// [`Lease::HeldBy`]; otherwise the claim wins and `Ok` carries the expiry to
/// record. A `ttl` too large for the clock is capped at about 136 years.
///
/// ```
/// use std::time::{Duration, Instant};
/// use tidemark_core::store::claim_lease;
///
/// let now = Instant::now();
/// let minute = Duration::from_secs(60);
/// let expires = claim_lease(None, "a", minute, now).expect("a free lease is granted");
/// assert!(claim_lease(Some(("a", expires)), "b", minute, now).is_err(), "held by a");
/// assert!(claim_lease(Some(("a", expires)), "a", minute, now).is_ok(), "a extends its own lease");
/// assert!(claim_lease(Some(("a", now)), "b", minute, now).is_ok(), "an expired lease is free");
/// ```
///
/// # Errors
///
/// Returns [`Lease::HeldBy`] when another holder's lease is still running.
pub fn claim_lease(
    current: Option<(&str, Instant)>,
    holder: &str,
    ttl: Duration,
    now: Instant,
) -> Result<Instant, Lease> {
    if let Some((owner, expires)) = current
        && owner != holder
        && expires > now
    {
        return Err(Lease::HeldBy { holder: owner.to_owned(), expires_in: expires - now });
    }
    Ok(now.checked_add(ttl).unwrap_or_else(|| now + Duration::from_secs(u64::from(u32::MAX))))
}

/// Check a state against the rules of [`ConversationStore::save_state`]; stores call this before writing.
///
/// # Errors
///
/// Returns [`StoreError::InvalidState`] naming the broken rule.
pub fn check_state(
    current: &CompactionState,
    next_seq: Seq,
    state: &CompactionState,
) -> Result<(), StoreError> {
    if state.watermark > next_seq {
        return Err(StoreError::InvalidState { reason: "watermark beyond the last appended message" });
    }
    if state.watermark < current.watermark {
        return Err(StoreError::InvalidState { reason: "watermark moved backwards" });
    }
    let sorted = state.retained.windows(2).all(|pair| pair[0] < pair[1]);
    if !sorted || state.retained.last().is_some_and(|seq| *seq >= state.watermark) {
        return Err(StoreError::InvalidState {
            reason: "retained sequence numbers must be ascending and below the watermark",
        });
    }
    Ok(())
}

crate::forward! {
    impl ConversationStore {
        fn append(
            &self,
            conversation: &ConversationId,
            messages: Vec<NewMessage>,
        ) -> impl Future<Output = Result<SeqRange, StoreError>> + Send {
            (**self).append(conversation, messages)
        }

        fn load_range(
            &self,
            conversation: &ConversationId,
            range: SeqRange,
        ) -> impl Future<Output = Result<Vec<StoredMessage>, StoreError>> + Send {
            (**self).load_range(conversation, range)
        }

        fn load_seqs(
            &self,
            conversation: &ConversationId,
            seqs: &[Seq],
        ) -> impl Future<Output = Result<Vec<StoredMessage>, StoreError>> + Send {
            (**self).load_seqs(conversation, seqs)
        }

        fn stats(&self, conversation: &ConversationId) -> impl Future<Output = Result<ConversationStats, StoreError>> + Send {
            (**self).stats(conversation)
        }

        fn clear(&self, conversation: &ConversationId) -> impl Future<Output = Result<(), StoreError>> + Send {
            (**self).clear(conversation)
        }

        fn state(&self, conversation: &ConversationId) -> impl Future<Output = Result<CompactionState, StoreError>> + Send {
            (**self).state(conversation)
        }

        fn save_state(
            &self,
            conversation: &ConversationId,
            expected_generation: u64,
            state: CompactionState,
        ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send {
            (**self).save_state(conversation, expected_generation, state)
        }

        fn epochs(&self, conversation: &ConversationId) -> impl Future<Output = Result<Vec<Epoch>, StoreError>> + Send {
            (**self).epochs(conversation)
        }

        fn restore_state(
            &self,
            conversation: &ConversationId,
            expected_generation: u64,
            target: Option<u64>,
        ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send {
            (**self).restore_state(conversation, expected_generation, target)
        }

        fn fork(
            &self,
            source: &ConversationId,
            at: Seq,
            target: &ConversationId,
        ) -> impl Future<Output = Result<CompactionState, StoreError>> + Send {
            (**self).fork(source, at, target)
        }

        fn prune(&self, conversation: &ConversationId) -> impl Future<Output = Result<u64, StoreError>> + Send {
            (**self).prune(conversation)
        }

        fn conversations(&self) -> impl Future<Output = Result<Vec<ConversationId>, StoreError>> + Send {
            (**self).conversations()
        }

        fn try_lease(
            &self,
            conversation: &ConversationId,
            holder: &str,
            ttl: Duration,
        ) -> impl Future<Output = Result<Lease, StoreError>> + Send {
            (**self).try_lease(conversation, holder, ttl)
        }

        fn release_lease(
            &self,
            conversation: &ConversationId,
            holder: &str,
        ) -> impl Future<Output = Result<(), StoreError>> + Send {
            (**self).release_lease(conversation, holder)
        }

        fn search_passages(
            &self,
            conversation: &ConversationId,
            query: &RecallQuery,
        ) -> impl Future<Output = Result<Vec<Passage>, StoreError>> + Send {
            (**self).search_passages(conversation, query)
        }

        fn calibration(
            &self,
            conversation: &ConversationId,
        ) -> impl Future<Output = Result<Calibration, StoreError>> + Send {
            (**self).calibration(conversation)
        }

        fn save_calibration(
            &self,
            conversation: &ConversationId,
            calibration: Calibration,
        ) -> impl Future<Output = Result<(), StoreError>> + Send {
            (**self).save_calibration(conversation, calibration)
        }

        fn set_user(
            &self,
            conversation: &ConversationId,
            user: &ConversationId,
        ) -> impl Future<Output = Result<(), StoreError>> + Send {
            (**self).set_user(conversation, user)
        }

        fn user_conversations(
            &self,
            user: &ConversationId,
        ) -> impl Future<Output = Result<Vec<ConversationId>, StoreError>> + Send {
            (**self).user_conversations(user)
        }
    }
}

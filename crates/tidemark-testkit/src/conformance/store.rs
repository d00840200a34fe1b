//! The [`ConversationStore`] conformance suite: fixed scenarios for each rule of the contract, then random operations in lock-step with [`ReferenceStore`].

mod history;
mod meaning;
mod recall;

pub use meaning::{MEANING_CASES, run_by_meaning};

use std::future::Future;
use std::time::Duration;

use futures::future::join_all;
use proptest::prelude::*;
use tidemark_core::calibration::{Calibration, Ratio};
use tidemark_core::history::{Epoch, HistoryError, undo_target};
use tidemark_core::store::StoredSummary;
use tidemark_core::{
    CompactionState, ConversationId, ConversationStore, Lease, Message, NewMessage, RecallQuery, Seq,
    SeqRange, StoreError, StoredMessage,
};

use super::{Failure, Ids, Report, Samples, ensure, fail_on};
use crate::reference::ReferenceStore;
use crate::strategies::arb_message;

/// How many random operation sequences [`run`] plays in lock-step with the reference.
pub const DEFAULT_CASES: usize = 32;

/// Run every store check; `make` returns a fresh store each time it is called.
///
/// The store may hold other data: the suite only uses conversation ids unique to this run.
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run<S, F, Fut>(make: F) -> Result<Report, Failure>
where
    S: ConversationStore,
    F: FnMut() -> Fut,
    Fut: Future<Output = S>,
{
    run_with(make, DEFAULT_CASES).await
}

/// [`run`] with `cases` random operation sequences instead of [`DEFAULT_CASES`].
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run_with<S, F, Fut>(mut make: F, cases: usize) -> Result<Report, Failure>
where
    S: ConversationStore,
    F: FnMut() -> Fut,
    Fut: Future<Output = S>,
{
    let mut ids = Ids::new("store");
    append_numbers_consecutively(&make().await, &mut ids).await?;
    append_of_nothing_changes_nothing(&make().await, &mut ids).await?;
    load_range_returns_what_was_appended(&make().await, &mut ids).await?;
    load_seqs_skips_missing_numbers(&make().await, &mut ids).await?;
    conversations_are_isolated(&make().await, &mut ids).await?;
    state_defaults_then_round_trips(&make().await, &mut ids).await?;
    save_state_is_compare_and_swap(&make().await, &mut ids).await?;
    save_state_rejects_invalid_states(&make().await, &mut ids).await?;
    clear_keeps_numbering_and_advances_generation(&make().await, &mut ids).await?;
    prune_deletes_only_demoted_messages(&make().await, &mut ids).await?;
    conversations_are_listed_in_order(&make().await, &mut ids).await?;
    concurrent_appends_never_share_numbers(&make().await, &mut ids).await?;
    leases_are_exclusive_until_released_or_expired(&make().await, &mut ids).await?;
    calibrations_round_trip_apart_from_the_state_and_clear(&make().await, &mut ids).await?;
    users_list_their_conversations_newest_first(&make().await, &mut ids).await?;
    history::undo_restores_the_earlier_state(&make().await, &mut ids).await?;
    history::a_fork_shares_the_prefix_then_diverges(&make().await, &mut ids).await?;
    recall::recall_finds_identifiers(&make().await, &mut ids).await?;
    recall::recall_stays_below_the_mark(&make().await, &mut ids).await?;
    recall::recall_returns_short_passages_best_first(&make().await, &mut ids).await?;
    recall::recall_forgets_deleted_messages(&make().await, &mut ids).await?;
    recall::recall_survives_bad_queries(&make().await, &mut ids).await?;
    recall::recall_is_led_by_rare_terms(&make().await, &mut ids).await?;
    let store = make().await;
    for case in 0..cases {
        lockstep_with_reference(&store, ReferenceStore::new(), &mut ids, case).await?;
    }
    Ok(Report { checks: 24, cases })
}

/// Leases are what keeps two memories over one store from compacting a conversation at once.
///
/// Expiry is checked with a zero ttl (a lease that has already expired), so
/// the check needs no clock and no waiting.
async fn leases_are_exclusive_until_released_or_expired<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "leases_are_exclusive_until_released_or_expired";
    let id = ids.fresh("lease");
    let other = ids.fresh("lease-other");
    let long = Duration::from_secs(600);
    let claim = |holder: &'static str, conversation: &ConversationId, ttl: Duration| {
        let conversation = conversation.clone();
        async move { fail_on(CHECK, store.try_lease(&conversation, holder, ttl).await) }
    };
    ensure!(claim("a", &id, long).await? == Lease::Acquired, CHECK, "a first claim was refused");
    match claim("b", &id, long).await? {
        Lease::HeldBy { holder, expires_in } => ensure!(
            holder == "a" && expires_in <= long,
            CHECK,
            "a held lease was reported as held by {holder:?} for {expires_in:?}"
        ),
        granted => {
            return Err(Failure::new(
                CHECK,
                format!("a second holder got {granted:?} while the first held it"),
            ));
        }
    }
    ensure!(claim("a", &id, long).await? == Lease::Acquired, CHECK, "the holder could not extend its lease");
    ensure!(
        claim("b", &other, long).await? == Lease::Acquired,
        CHECK,
        "a lease blocked another conversation"
    );
    fail_on(CHECK, store.release_lease(&id, "b").await)?;
    ensure!(
        matches!(claim("b", &id, long).await?, Lease::HeldBy { .. }),
        CHECK,
        "releasing someone else's lease freed it"
    );
    fail_on(CHECK, store.release_lease(&id, "a").await)?;
    ensure!(claim("b", &id, Duration::ZERO).await? == Lease::Acquired, CHECK, "a released lease stayed held");
    ensure!(
        claim("a", &id, long).await? == Lease::Acquired,
        CHECK,
        "an expired lease (ttl zero) stayed held"
    );
    fail_on(CHECK, store.release_lease(&id, "a").await)?;
    fail_on(CHECK, store.release_lease(&other, "b").await)?;
    Ok(())
}

/// A calibration is read back as written, independent of the compaction state and of other conversations, and forgotten by `clear`.
async fn calibrations_round_trip_apart_from_the_state_and_clear<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "calibrations_round_trip_apart_from_the_state_and_clear";
    let id = ids.fresh("calibrated");
    let other = ids.fresh("calibrated-other");
    let learned =
        |millionths: &[u32]| Calibration::from_ratios(millionths.iter().copied().map(Ratio::from_millionths));
    let read = |conversation: &ConversationId| {
        let conversation = conversation.clone();
        async move { fail_on(CHECK, store.calibration(&conversation).await) }
    };
    ensure!(read(&id).await?.is_empty(), CHECK, "an unknown conversation has a calibration");
    // Before the first append: it is kept, and does not make the conversation appear.
    let first = learned(&[1_300_000, 1_250_000]);
    fail_on(CHECK, store.save_calibration(&id, first.clone()).await)?;
    ensure!(read(&id).await? == first, CHECK, "read {:?} after writing {first:?}", read(&id).await?);
    let listed = fail_on(CHECK, store.conversations().await)?;
    ensure!(
        !listed.contains(&id),
        CHECK,
        "a calibration alone made the conversation appear in conversations()"
    );
    ensure!(read(&other).await?.is_empty(), CHECK, "a calibration leaked into another conversation");
    // Apart from the state: neither write moves the other.
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c"])).await)?;
    let saved = fail_on(CHECK, store.save_state(&id, 0, CompactionState::new(Seq(1), vec![], None)).await)?;
    ensure!(read(&id).await? == first, CHECK, "saving the compaction state changed the calibration");
    let second = learned(&[1_300_000, 1_250_000, 2_000_000, 500_000]);
    fail_on(CHECK, store.save_calibration(&id, second.clone()).await)?;
    ensure!(read(&id).await? == second, CHECK, "the last write did not win: read {:?}", read(&id).await?);
    let state = fail_on(CHECK, store.state(&id).await)?;
    ensure!(state == saved, CHECK, "saving a calibration changed the state to {state:?}, expected {saved:?}");
    // Clear forgets it, with or without messages.
    fail_on(CHECK, store.clear(&id).await)?;
    ensure!(read(&id).await?.is_empty(), CHECK, "the calibration survived a clear: {:?}", read(&id).await?);
    fail_on(CHECK, store.save_calibration(&other, first.clone()).await)?;
    fail_on(CHECK, store.clear(&other).await)?;
    ensure!(read(&other).await?.is_empty(), CHECK, "clearing a conversation with only a calibration kept it");
    fail_on(CHECK, store.save_calibration(&id, first.clone()).await)?;
    ensure!(read(&id).await? == first, CHECK, "a calibration written after a clear was not kept");
    Ok(())
}

/// A conversation's user is read back by the user's list, newest assignment first; one user per conversation; `clear` forgets it.
async fn users_list_their_conversations_newest_first<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "users_list_their_conversations_newest_first";
    let [a, b, c] = [ids.fresh("held-a"), ids.fresh("held-b"), ids.fresh("held-c")];
    let [ann, bo] = [ids.fresh("user-ann"), ids.fresh("user-bo")];
    let list = |user: &ConversationId| {
        let user = user.clone();
        async move { fail_on(CHECK, store.user_conversations(&user).await) }
    };
    ensure!(list(&ann).await?.is_empty(), CHECK, "a user never named has conversations");
    // Before and after the conversation's first append alike.
    fail_on(CHECK, store.set_user(&a, &ann).await)?;
    fail_on(CHECK, store.append(&b, news(&["hello"])).await)?;
    fail_on(CHECK, store.set_user(&b, &ann).await)?;
    fail_on(CHECK, store.set_user(&c, &bo).await)?;
    ensure!(
        list(&ann).await? == [b.clone(), a.clone()],
        CHECK,
        "ann holds {:?}, expected [b, a]",
        list(&ann).await?
    );
    ensure!(list(&bo).await? == [c.clone()], CHECK, "bo holds {:?}, expected [c]", list(&bo).await?);
    let listed = fail_on(CHECK, store.conversations().await)?;
    ensure!(!listed.contains(&a), CHECK, "a user alone made the conversation appear in conversations()");
    let stored = fail_on(CHECK, store.load_range(&b, range(0, 10)).await)?;
    ensure!(seqs(&stored) == [0], CHECK, "naming the user changed the messages: {:?}", seqs(&stored));
    // Naming the user again makes the conversation the newest; naming another moves it.
    fail_on(CHECK, store.set_user(&a, &ann).await)?;
    ensure!(
        list(&ann).await? == [a.clone(), b.clone()],
        CHECK,
        "ann holds {:?}, expected [a, b]",
        list(&ann).await?
    );
    fail_on(CHECK, store.set_user(&b, &bo).await)?;
    ensure!(list(&ann).await? == [a.clone()], CHECK, "a conversation moved to bo stayed with ann");
    ensure!(
        list(&bo).await? == [b.clone(), c.clone()],
        CHECK,
        "bo holds {:?}, expected [b, c]",
        list(&bo).await?
    );
    // Clear forgets it, with or without messages.
    fail_on(CHECK, store.clear(&a).await)?;
    fail_on(CHECK, store.clear(&b).await)?;
    ensure!(list(&ann).await?.is_empty(), CHECK, "a cleared conversation stayed with its user");
    ensure!(
        list(&bo).await? == [c.clone()],
        CHECK,
        "bo holds {:?} after clearing b, expected [c]",
        list(&bo).await?
    );
    fail_on(CHECK, store.set_user(&b, &ann).await)?;
    ensure!(list(&ann).await? == [b], CHECK, "a user named after a clear was not kept");
    Ok(())
}

pub(super) fn news(texts: &[&str]) -> Vec<NewMessage> {
    texts.iter().enumerate().map(|(i, text)| NewMessage::new(Message::user(*text), 10 + i as u32)).collect()
}

fn range(start: u64, end: u64) -> SeqRange {
    SeqRange::new(Seq(start), Seq(end))
}

fn seqs(stored: &[StoredMessage]) -> Vec<u64> {
    stored.iter().map(|s| s.seq.0).collect()
}

async fn append_numbers_consecutively<S: ConversationStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "append_numbers_consecutively";
    let id = ids.fresh("append");
    let first = fail_on(CHECK, store.append(&id, news(&["a", "b", "c"])).await)?;
    ensure!(first == range(0, 3), CHECK, "first append of 3 returned {first}, expected 0..3");
    let second = fail_on(CHECK, store.append(&id, news(&["d"])).await)?;
    ensure!(second == range(3, 4), CHECK, "second append of 1 returned {second}, expected 3..4");
    let stats = fail_on(CHECK, store.stats(&id).await)?;
    ensure!(
        stats.next_seq == Seq(4) && stats.stored == 4 && stats.stored_tokens == 10 + 11 + 12 + 10,
        CHECK,
        "stats after appending 4 messages with 43 tokens: {stats:?}"
    );
    Ok(())
}

async fn append_of_nothing_changes_nothing<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "append_of_nothing_changes_nothing";
    let id = ids.fresh("empty");
    let empty = fail_on(CHECK, store.append(&id, Vec::new()).await)?;
    ensure!(empty.is_empty() && empty.start == Seq(0), CHECK, "appending nothing returned {empty}");
    let listed = fail_on(CHECK, store.conversations().await)?;
    ensure!(
        !listed.contains(&id),
        CHECK,
        "appending nothing made the conversation appear in conversations()"
    );
    fail_on(CHECK, store.append(&id, news(&["a", "b"])).await)?;
    let empty = fail_on(CHECK, store.append(&id, Vec::new()).await)?;
    ensure!(
        empty == range(2, 2),
        CHECK,
        "appending nothing after two messages returned {empty}, expected 2..2"
    );
    Ok(())
}

async fn load_range_returns_what_was_appended<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "load_range_returns_what_was_appended";
    let id = ids.fresh("load");
    let messages = vec![
        NewMessage::new(Message::system("règles: réponds en français 🇫🇷").pinned(), 7),
        NewMessage::new(Message::user("  spaces kept  \n"), 3),
        NewMessage::new(Message::tool_result("call_1", "{\"ok\":true}"), 5),
    ];
    fail_on(CHECK, store.append(&id, messages.clone()).await)?;
    let all = fail_on(CHECK, store.load_range(&id, SeqRange::from(Seq::ZERO)).await)?;
    ensure!(all.len() == 3, CHECK, "loaded {} of 3 messages", all.len());
    for (index, (stored, new)) in all.iter().zip(&messages).enumerate() {
        ensure!(
            stored.seq == Seq(index as u64) && stored.tokens == new.tokens && *stored.message == new.message,
            CHECK,
            "message {index} came back as {stored:?}, expected {new:?}"
        );
    }
    let cases =
        [(range(1, 3), vec![1, 2]), (range(1, 2), vec![1]), (range(2, 2), vec![]), (range(3, 9), vec![])];
    for (wanted, expected) in cases {
        let got = seqs(&fail_on(CHECK, store.load_range(&id, wanted).await)?);
        ensure!(got == expected, CHECK, "load_range({wanted}) gave {got:?}, expected {expected:?}");
    }
    let unknown = fail_on(CHECK, store.load_range(&ids.fresh("unknown"), SeqRange::from(Seq::ZERO)).await)?;
    ensure!(unknown.is_empty(), CHECK, "an unknown conversation loaded {} messages", unknown.len());
    Ok(())
}

async fn load_seqs_skips_missing_numbers<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "load_seqs_skips_missing_numbers";
    let id = ids.fresh("seqs");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c", "d"])).await)?;
    let got = seqs(&fail_on(CHECK, store.load_seqs(&id, &[Seq(0), Seq(2), Seq(9)]).await)?);
    ensure!(got == [0, 2], CHECK, "load_seqs([0, 2, 9]) gave {got:?}, expected [0, 2]");
    let got = fail_on(CHECK, store.load_seqs(&id, &[]).await)?;
    ensure!(got.is_empty(), CHECK, "load_seqs([]) gave {} messages", got.len());
    Ok(())
}

async fn conversations_are_isolated<S: ConversationStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "conversations_are_isolated";
    let (a, b) = (ids.fresh("a"), ids.fresh("b"));
    fail_on(CHECK, store.append(&a, news(&["a0", "a1"])).await)?;
    let in_b = fail_on(CHECK, store.append(&b, news(&["b0"])).await)?;
    ensure!(in_b == range(0, 1), CHECK, "numbering of a second conversation started at {in_b}");
    fail_on(CHECK, store.clear(&a).await)?;
    let left = fail_on(CHECK, store.load_range(&b, SeqRange::from(Seq::ZERO)).await)?;
    ensure!(
        left.len() == 1 && left[0].message.text() == "b0",
        CHECK,
        "clearing one conversation changed another: {left:?}"
    );
    Ok(())
}

pub(super) fn summary(text: &str) -> StoredSummary {
    StoredSummary::new(
        serde_json::json!({"lines": [text], "rolls": 1}),
        Message::system(format!("Summary: {text}")),
        12,
        "conformance",
    )
}

async fn state_defaults_then_round_trips<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "state_defaults_then_round_trips";
    let id = ids.fresh("state");
    let initial = fail_on(CHECK, store.state(&id).await)?;
    ensure!(initial == CompactionState::default(), CHECK, "a new conversation has state {initial:?}");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c", "d"])).await)?;
    let wanted = CompactionState::new(Seq(3), vec![Seq(0), Seq(2)], Some(summary("naïve café ✓")));
    let saved = fail_on(CHECK, store.save_state(&id, 0, wanted.clone()).await)?;
    ensure!(saved.generation == 1, CHECK, "the first save returned generation {}", saved.generation);
    let read = fail_on(CHECK, store.state(&id).await)?;
    let mut expected = wanted;
    expected.generation = 1;
    ensure!(read == expected, CHECK, "state read back as {read:?}, expected {expected:?}");
    Ok(())
}

async fn save_state_is_compare_and_swap<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "save_state_is_compare_and_swap";
    let id = ids.fresh("cas");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c"])).await)?;
    fail_on(
        CHECK,
        store.save_state(&id, 0, CompactionState::new(Seq(1), vec![], Some(summary("one")))).await,
    )?;
    let stale = store.save_state(&id, 0, CompactionState::new(Seq(2), vec![], Some(summary("two")))).await;
    ensure!(
        matches!(stale, Err(StoreError::StateConflict { expected: 0, found: 1 })),
        CHECK,
        "a save with a stale generation returned {stale:?}, expected StateConflict {{ expected: 0, found: 1 }}"
    );
    let read = fail_on(CHECK, store.state(&id).await)?;
    ensure!(
        read.watermark == Seq(1) && read.generation == 1,
        CHECK,
        "a refused save changed the state to {read:?}"
    );
    let second = fail_on(CHECK, store.save_state(&id, 1, CompactionState::new(Seq(2), vec![], None)).await)?;
    ensure!(second.generation == 2, CHECK, "the second save returned generation {}", second.generation);
    Ok(())
}

async fn save_state_rejects_invalid_states<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "save_state_rejects_invalid_states";
    let id = ids.fresh("invalid");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c", "d"])).await)?;
    fail_on(CHECK, store.save_state(&id, 0, CompactionState::new(Seq(2), vec![], None)).await)?;
    let bad = [
        ("a watermark beyond the last message", CompactionState::new(Seq(5), vec![], None)),
        ("a watermark moving backwards", CompactionState::new(Seq(1), vec![], None)),
        ("a retained number at the watermark", CompactionState::new(Seq(3), vec![Seq(3)], None)),
        ("unsorted retained numbers", CompactionState::new(Seq(3), vec![Seq(1), Seq(0)], None)),
    ];
    for (what, state) in bad {
        let result = store.save_state(&id, 1, state).await;
        ensure!(
            matches!(result, Err(StoreError::InvalidState { .. })),
            CHECK,
            "saving {what} returned {result:?}, expected InvalidState"
        );
    }
    let read = fail_on(CHECK, store.state(&id).await)?;
    ensure!(
        read.generation == 1 && read.watermark == Seq(2),
        CHECK,
        "refused saves changed the state: {read:?}"
    );
    Ok(())
}

async fn clear_keeps_numbering_and_advances_generation<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "clear_keeps_numbering_and_advances_generation";
    let id = ids.fresh("clear");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c"])).await)?;
    let before = fail_on(
        CHECK,
        store.save_state(&id, 0, CompactionState::new(Seq(2), vec![], Some(summary("x")))).await,
    )?;
    fail_on(CHECK, store.clear(&id).await)?;
    let loaded = fail_on(CHECK, store.load_range(&id, SeqRange::from(Seq::ZERO)).await)?;
    ensure!(loaded.is_empty(), CHECK, "{} messages survived a clear", loaded.len());
    let state = fail_on(CHECK, store.state(&id).await)?;
    ensure!(
        state.summary.is_none() && state.generation > before.generation && state.retained.is_empty(),
        CHECK,
        "state after clear is {state:?}; the summary must be gone and the generation past {}",
        before.generation
    );
    let stale = store
        .save_state(&id, before.generation, CompactionState::new(Seq(3), vec![], Some(summary("old"))))
        .await;
    ensure!(
        matches!(stale, Err(StoreError::StateConflict { .. })),
        CHECK,
        "a compaction that read the state before the clear could still save it: {stale:?}"
    );
    let next = fail_on(CHECK, store.append(&id, news(&["d"])).await)?;
    ensure!(
        next == range(3, 4),
        CHECK,
        "the first append after a clear got {next}, expected 3..4 (numbers are never reused)"
    );
    Ok(())
}

async fn prune_deletes_only_demoted_messages<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "prune_deletes_only_demoted_messages";
    let id = ids.fresh("prune");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c", "d", "e"])).await)?;
    let nothing = fail_on(CHECK, store.prune(&id).await)?;
    ensure!(nothing == 0, CHECK, "prune with watermark 0 deleted {nothing} messages");
    fail_on(CHECK, store.save_state(&id, 0, CompactionState::new(Seq(3), vec![Seq(1)], None)).await)?;
    let deleted = fail_on(CHECK, store.prune(&id).await)?;
    ensure!(deleted == 2, CHECK, "prune below watermark 3 retaining 1 deleted {deleted}, expected 2");
    let left = seqs(&fail_on(CHECK, store.load_range(&id, SeqRange::from(Seq::ZERO)).await)?);
    ensure!(left == [1, 3, 4], CHECK, "after prune the store holds {left:?}, expected [1, 3, 4]");
    let stats = fail_on(CHECK, store.stats(&id).await)?;
    ensure!(stats.stored == 3 && stats.next_seq == Seq(5), CHECK, "stats after prune: {stats:?}");
    let again = fail_on(CHECK, store.prune(&id).await)?;
    ensure!(again == 0, CHECK, "a second prune deleted {again} more");
    Ok(())
}

async fn conversations_are_listed_in_order<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "conversations_are_listed_in_order";
    let made: Vec<ConversationId> = (0..3).map(|_| ids.fresh("listed")).collect();
    for id in made.iter().rev() {
        fail_on(CHECK, store.append(id, news(&["x"])).await)?;
    }
    let listed = fail_on(CHECK, store.conversations().await)?;
    ensure!(
        listed.windows(2).all(|pair| pair[0] < pair[1]),
        CHECK,
        "conversations() is not strictly ascending"
    );
    let ours: Vec<&ConversationId> = listed.iter().filter(|id| made.contains(id)).collect();
    ensure!(ours.len() == 3, CHECK, "conversations() lists {} of the 3 conversations made", ours.len());
    Ok(())
}

async fn concurrent_appends_never_share_numbers<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "concurrent_appends_never_share_numbers";
    let id = ids.fresh("concurrent");
    let batches = (0..8).map(|batch| {
        let texts: Vec<String> = (0..3).map(|i| format!("{batch}.{i}")).collect();
        let messages = texts.iter().map(|text| NewMessage::new(Message::user(text.clone()), 1)).collect();
        store.append(&id, messages)
    });
    let mut ranges = Vec::new();
    for result in join_all(batches).await {
        ranges.push(fail_on(CHECK, result)?);
    }
    ranges.sort_by_key(|range| range.start);
    let contiguous = ranges.iter().enumerate().all(|(i, r)| *r == range(3 * i as u64, 3 * i as u64 + 3));
    ensure!(contiguous, CHECK, "8 concurrent appends of 3 got ranges {ranges:?}");
    let loaded = fail_on(CHECK, store.load_range(&id, SeqRange::from(Seq::ZERO)).await)?;
    for chunk in loaded.chunks(3) {
        let batch: Vec<String> =
            chunk.iter().map(|s| s.message.text().split('.').next().unwrap_or("").to_owned()).collect();
        ensure!(
            batch.windows(2).all(|p| p[0] == p[1]),
            CHECK,
            "the messages of one append were interleaved: {batch:?}"
        );
    }
    Ok(())
}

/// One random operation on a store.
#[derive(Clone, Debug)]
enum Op {
    Append(usize, Vec<NewMessage>),
    LoadRange(usize, u64, u64),
    LoadSeqs(usize, Vec<u64>),
    Stats(usize),
    Clear(usize),
    State(usize),
    /// Conversation, generation offset (0 = current), watermark step, retained picks, with summary.
    SaveState(usize, u64, u64, Vec<u64>, bool),
    Prune(usize),
    /// Conversation, picks from the vocabulary, the mark, the limit.
    Search(usize, Vec<usize>, u64, usize),
    Calibration(usize),
    /// Conversation, the samples in millionths.
    SaveCalibration(usize, Vec<u32>),
    Epochs(usize),
    /// Conversation, generation offset (0 = current), and the target: 0 the undo target, 1 the initial
    /// state, `n` the epoch `n - 2` generations back from the current one.
    Restore(usize, u64, u64),
    /// Conversation, the point of the fork (into a conversation of its own).
    Fork(usize, u64),
}

fn arb_op() -> impl Strategy<Value = Op> {
    let conversation = 0..3usize;
    prop_oneof![
        4 => (conversation.clone(), prop::collection::vec((arb_message(), 0..500u32), 0..4))
            .prop_map(|(c, batch)| Op::Append(c, batch.into_iter().map(|(m, t)| NewMessage::new(m, t)).collect())),
        2 => (conversation.clone(), 0..12u64, 0..12u64).prop_map(|(c, a, b)| Op::LoadRange(c, a, b)),
        1 => (conversation.clone(), prop::collection::vec(0..12u64, 0..4)).prop_map(|(c, s)| Op::LoadSeqs(c, s)),
        1 => conversation.clone().prop_map(Op::Stats),
        1 => conversation.clone().prop_map(Op::Clear),
        1 => conversation.clone().prop_map(Op::State),
        2 => (conversation.clone(), prop_oneof![3 => Just(0u64), 1 => 1..3u64], 0..4u64, prop::collection::vec(0..12u64, 0..3), any::<bool>())
            .prop_map(|(c, g, w, r, s)| Op::SaveState(c, g, w, r, s)),
        1 => conversation.clone().prop_map(Op::Prune),
        2 => (conversation.clone(), prop::collection::vec(0..recall::VOCABULARY.len(), 1..4), 0..14u64, 1..6usize)
            .prop_map(|(c, words, below, limit)| Op::Search(c, words, below, limit)),
        1 => conversation.clone().prop_map(Op::Calibration),
        1 => (conversation.clone(), prop::collection::vec(400_000..2_100_000u32, 0..12))
            .prop_map(|(c, ratios)| Op::SaveCalibration(c, ratios)),
        1 => conversation.clone().prop_map(Op::Epochs),
        2 => (conversation, prop_oneof![4 => Just(0u64), 1 => 1..2u64], prop_oneof![3 => Just(0u64), 1 => 1..6u64])
            .prop_map(|(c, g, target)| Op::Restore(c, g, target)),
        1 => (0..3usize, 0..14u64).prop_map(|(c, at)| Op::Fork(c, at)),
    ]
}

/// Epochs without the times they were written, which differ between stores; everything else must not.
fn timeless(epochs: Vec<Epoch>) -> Vec<Epoch> {
    epochs
        .into_iter()
        .map(|mut epoch| {
            epoch.at_ms = 0;
            epoch
        })
        .collect()
}

/// The comparable outcome of an operation: its value, or the name of its error variant.
fn outcome<T: std::fmt::Debug>(result: Result<T, StoreError>) -> Result<String, &'static str> {
    match result {
        Ok(value) => Ok(format!("{value:?}")),
        Err(StoreError::StateConflict { .. }) => Err("StateConflict"),
        Err(StoreError::InvalidState { .. }) => Err("InvalidState"),
        Err(StoreError::History(HistoryError::NothingToUndo)) => Err("NothingToUndo"),
        Err(StoreError::History(HistoryError::UnknownEpoch { .. })) => Err("UnknownEpoch"),
        Err(StoreError::History(HistoryError::Pruned { .. })) => Err("Pruned"),
        Err(StoreError::History(HistoryError::Exists { .. })) => Err("Exists"),
        Err(StoreError::History(HistoryError::NotYetAppended { .. })) => Err("NotYetAppended"),
        Err(StoreError::History(HistoryError::BeforeHistory { .. })) => Err("BeforeHistory"),
        Err(_) => Err("other error"),
    }
}

async fn apply<S: ConversationStore>(
    store: &S,
    ids: &[ConversationId],
    op: &Op,
    state: &CompactionState,
    epochs: &[Epoch],
    fork: &ConversationId,
) -> Result<String, &'static str> {
    match op {
        Op::Append(c, batch) => outcome(store.append(&ids[*c], batch.clone()).await),
        Op::LoadRange(c, a, b) => outcome(store.load_range(&ids[*c], range(*a, *b)).await),
        Op::LoadSeqs(c, picks) => {
            let mut wanted: Vec<Seq> = picks.iter().map(|s| Seq(*s)).collect();
            wanted.sort_unstable();
            wanted.dedup();
            outcome(store.load_seqs(&ids[*c], &wanted).await)
        }
        Op::Stats(c) => outcome(store.stats(&ids[*c]).await),
        Op::Clear(c) => outcome(store.clear(&ids[*c]).await),
        Op::State(c) => outcome(store.state(&ids[*c]).await),
        Op::SaveState(c, offset, step, picks, with_summary) => {
            let watermark = state.watermark.after(*step);
            let mut retained: Vec<Seq> = picks.iter().map(|s| Seq(*s)).filter(|s| *s < watermark).collect();
            retained.sort_unstable();
            retained.dedup();
            let new = CompactionState::new(watermark, retained, with_summary.then(|| summary("lockstep")));
            outcome(store.save_state(&ids[*c], state.generation + offset, new).await)
        }
        Op::Prune(c) => outcome(store.prune(&ids[*c]).await),
        Op::Search(c, words, below, limit) => {
            let text: Vec<&str> = words.iter().map(|word| recall::VOCABULARY[*word]).collect();
            let query = RecallQuery::new(text.join(" "), Seq(*below), *limit);
            // Scores are compared to the bit: every store ranks with `recall::rank`.
            outcome(store.search_passages(&ids[*c], &query).await)
        }
        Op::Calibration(c) => outcome(store.calibration(&ids[*c]).await),
        Op::SaveCalibration(c, ratios) => {
            let calibration = Calibration::from_ratios(ratios.iter().copied().map(Ratio::from_millionths));
            outcome(store.save_calibration(&ids[*c], calibration).await)
        }
        Op::Epochs(c) => outcome(store.epochs(&ids[*c]).await.map(timeless)),
        // The fork's answer, then what it holds.
        Op::Fork(c, at) => {
            let forked = outcome(store.fork(&ids[*c], Seq(*at), fork).await)?;
            let messages = outcome(store.load_range(fork, SeqRange::from(Seq::ZERO)).await)?;
            let stats = outcome(store.stats(fork).await)?;
            let epochs = outcome(store.epochs(fork).await.map(timeless))?;
            Ok(format!("{forked}\n{messages}\n{stats}\n{epochs}"))
        }
        Op::Restore(c, offset, how) => {
            let target = match how {
                0 => match undo_target(epochs, state.generation) {
                    Ok(target) => target,
                    Err(_) => return Err("NothingToUndo"),
                },
                1 => None,
                back => Some(state.generation.saturating_sub(back - 2)),
            };
            outcome(store.restore_state(&ids[*c], state.generation + offset, target).await)
        }
    }
}

async fn lockstep_with_reference<S: ConversationStore>(
    store: &S,
    reference: ReferenceStore,
    ids: &mut Ids,
    case: usize,
) -> Result<(), Failure> {
    const CHECK: &str = "lockstep_with_reference";
    let conversations: Vec<ConversationId> = (0..3).map(|_| ids.fresh("lockstep")).collect();
    let mut samples = Samples::new(prop::collection::vec(arb_op(), 1..24));
    // Skip the earlier cases' draws so that each case gets its own operations.
    for _ in 0..case {
        samples.draw();
    }
    let ops = samples.draw();
    for (step, op) in ops.iter().enumerate() {
        let conversation = match op {
            Op::Append(c, _)
            | Op::LoadRange(c, ..)
            | Op::LoadSeqs(c, _)
            | Op::Stats(c)
            | Op::Clear(c)
            | Op::State(c)
            | Op::SaveState(c, ..)
            | Op::Prune(c)
            | Op::Search(c, ..)
            | Op::Calibration(c)
            | Op::SaveCalibration(c, _)
            | Op::Epochs(c)
            | Op::Restore(c, ..)
            | Op::Fork(c, _) => *c,
        };
        let fork = ids.fresh("lockstep-fork");
        let state = fail_on(CHECK, reference.state(&conversations[conversation]).await)?;
        let epochs = fail_on(CHECK, reference.epochs(&conversations[conversation]).await)?;
        let expected = apply(&reference, &conversations, op, &state, &epochs, &fork).await;
        let got = apply(store, &conversations, op, &state, &epochs, &fork).await;
        // Appended ranges are the same values in both; everything else too,
        // since conversation ids are shared and generations start at zero.
        ensure!(
            got == expected,
            CHECK,
            "case {case}, step {step}: {op:?}\n  store gave     {got:?}\n  reference gave {expected:?}\n  operations: {ops:?}"
        );
    }
    Ok(())
}

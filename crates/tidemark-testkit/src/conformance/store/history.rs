//! The store checks of compaction history: undo and restore, and forks.

use tidemark_core::calibration::{Calibration, Ratio};
use tidemark_core::history::{EpochKind, HistoryError, undo_target};
use tidemark_core::{CompactionState, ConversationStore, Seq, SeqRange, StoreError};

use super::super::{Failure, Ids, ensure, fail_on};
use super::{news, summary};

/// Two compactions, two undos, a redo, a prune and a clear: what `epochs` records and what `restore_state` writes back.
pub(super) async fn undo_restores_the_earlier_state<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "undo_restores_the_earlier_state";
    let id = ids.fresh("undo");
    fail_on(CHECK, store.append(&id, news(&["a", "b", "c", "d", "e", "f"])).await)?;
    let first = CompactionState::new(Seq(2), vec![Seq(0)], Some(summary("first")));
    let first = fail_on(CHECK, store.save_state(&id, 0, first).await)?;
    let second = CompactionState::new(Seq(4), vec![Seq(0)], Some(summary("second")));
    fail_on(CHECK, store.save_state(&id, 1, second).await)?;
    let epochs = fail_on(CHECK, store.epochs(&id).await)?;
    let shape: Vec<(u64, EpochKind, Option<u64>, Seq)> = epochs
        .iter()
        .map(|epoch| (epoch.generation, epoch.kind, epoch.undo_to, epoch.state.watermark))
        .collect();
    ensure!(
        shape == [(1, EpochKind::Saved, None, Seq(2)), (2, EpochKind::Saved, Some(1), Seq(4))],
        CHECK,
        "two saves recorded the epochs {shape:?}"
    );
    let stale = store.restore_state(&id, 1, Some(1)).await;
    ensure!(
        matches!(stale, Err(StoreError::StateConflict { expected: 1, found: 2 })),
        CHECK,
        "a restore with a stale generation returned {stale:?}"
    );
    // Undo the second compaction: the first one's state, summary and all, under generation 3.
    let undone = fail_on(CHECK, store.restore_state(&id, 2, Some(1)).await)?;
    let read = fail_on(CHECK, store.state(&id).await)?;
    let mut expected = first.clone();
    expected.generation = 3;
    ensure!(
        undone == expected && read == expected,
        CHECK,
        "undo returned {undone:?} and stored {read:?}, expected {expected:?}"
    );
    let epochs = fail_on(CHECK, store.epochs(&id).await)?;
    let target = undo_target(&epochs, 3);
    ensure!(
        target == Ok(None),
        CHECK,
        "after one undo the next undo goes to {target:?}, expected the initial state"
    );
    // Undo again, to the initial state, then redo the second compaction by its epoch.
    let initial = fail_on(CHECK, store.restore_state(&id, 3, None).await)?;
    ensure!(
        initial.watermark == Seq::ZERO && initial.summary.is_none() && initial.generation == 4,
        CHECK,
        "undoing the first compaction gave {initial:?}"
    );
    let unknown = store.restore_state(&id, 4, Some(99)).await;
    ensure!(
        matches!(unknown, Err(StoreError::History(HistoryError::UnknownEpoch { generation: 99 }))),
        CHECK,
        "a restore of an unknown epoch returned {unknown:?}"
    );
    let redone = fail_on(CHECK, store.restore_state(&id, 4, Some(2)).await)?;
    ensure!(
        redone.watermark == Seq(4) && redone.generation == 5,
        CHECK,
        "redoing the second compaction gave {redone:?}"
    );
    // A prune deletes messages 1 to 3: the states that serve them cannot come back.
    let pruned = fail_on(CHECK, store.prune(&id).await)?;
    ensure!(pruned == 3, CHECK, "the prune deleted {pruned} messages, expected 3");
    let refused = store.restore_state(&id, 5, Some(1)).await;
    ensure!(
        matches!(refused, Err(StoreError::History(HistoryError::Pruned { .. }))),
        CHECK,
        "restoring a state whose messages were pruned returned {refused:?}"
    );
    fail_on(CHECK, store.clear(&id).await)?;
    let epochs = fail_on(CHECK, store.epochs(&id).await)?;
    let shape: Vec<(u64, EpochKind, Seq)> =
        epochs.iter().map(|epoch| (epoch.generation, epoch.kind, epoch.state.watermark)).collect();
    ensure!(shape == [(6, EpochKind::Cleared, Seq(6))], CHECK, "a clear left the epochs {shape:?}");
    let never = ids.fresh("undo-never");
    let nothing = store.restore_state(&never, 0, None).await;
    ensure!(
        matches!(nothing, Err(StoreError::History(HistoryError::NothingToUndo))),
        CHECK,
        "a restore on a conversation never written returned {nothing:?}"
    );
    ensure!(
        fail_on(CHECK, store.conversations().await)?.binary_search(&never).is_err(),
        CHECK,
        "a refused restore made the conversation appear"
    );
    Ok(())
}

/// A fork holds the messages before its point, the state and history of then, the calibration and the user, and then goes its own way.
pub(super) async fn a_fork_shares_the_prefix_then_diverges<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "a_fork_shares_the_prefix_then_diverges";
    let (source, target, user) = (ids.fresh("fork-source"), ids.fresh("fork-target"), ids.fresh("fork-user"));
    fail_on(CHECK, store.append(&source, news(&["a", "b", "c", "d", "e", "f"])).await)?;
    let first = CompactionState::new(Seq(2), vec![Seq(0)], Some(summary("first")));
    let first = fail_on(CHECK, store.save_state(&source, 0, first).await)?;
    fail_on(CHECK, store.append(&source, news(&["g", "h"])).await)?;
    fail_on(CHECK, store.save_state(&source, 1, CompactionState::new(Seq(5), vec![Seq(0)], None)).await)?;
    let calibration = Calibration::from_ratios([Ratio::from_millionths(1_250_000)]);
    fail_on(CHECK, store.save_calibration(&source, calibration.clone()).await)?;
    fail_on(CHECK, store.set_user(&source, &user).await)?;

    // At message 7 the second compaction (written when 8 was next) had not happened yet.
    let forked = fail_on(CHECK, store.fork(&source, Seq(7), &target).await)?;
    ensure!(
        forked == first,
        CHECK,
        "the fork's state is {forked:?}, expected the first compaction's {first:?}"
    );
    let read = fail_on(CHECK, store.state(&target).await)?;
    ensure!(read == first, CHECK, "the fork stored the state {read:?}");
    let copied = fail_on(CHECK, store.load_range(&target, SeqRange::from(Seq::ZERO)).await)?;
    let original = fail_on(CHECK, store.load_range(&source, SeqRange::new(Seq::ZERO, Seq(7))).await)?;
    ensure!(
        copied == original,
        CHECK,
        "the fork holds {copied:?}, expected the first 7 messages {original:?}"
    );
    let stats = fail_on(CHECK, store.stats(&target).await)?;
    ensure!(
        stats.next_seq == Seq(7) && stats.stored == 7 && stats.stored_tokens == 85,
        CHECK,
        "the fork's statistics are {stats:?}"
    );
    let epochs = fail_on(CHECK, store.epochs(&target).await)?;
    let expected = fail_on(CHECK, store.epochs(&source).await)?;
    ensure!(
        epochs[..] == expected[..1],
        CHECK,
        "the fork's history is {epochs:?}, expected {:?}",
        &expected[..1]
    );
    let read = fail_on(CHECK, store.calibration(&target).await)?;
    ensure!(read == calibration, CHECK, "the fork's calibration is {read:?}");
    let held = fail_on(CHECK, store.user_conversations(&user).await)?;
    ensure!(held == [target.clone(), source.clone()], CHECK, "the user holds {held:?}");

    // Each side goes on alone: numbering, compaction and clear.
    let range = fail_on(CHECK, store.append(&target, news(&["x"])).await)?;
    ensure!(range == SeqRange::new(Seq(7), Seq(8)), CHECK, "the fork's next append got {range}");
    let saved =
        fail_on(CHECK, store.save_state(&target, 1, CompactionState::new(Seq(6), vec![Seq(0)], None)).await)?;
    ensure!(saved.generation == 2, CHECK, "the fork's compaction got generation {}", saved.generation);
    fail_on(CHECK, store.clear(&target).await)?;
    let left = fail_on(CHECK, store.load_range(&source, SeqRange::from(Seq::ZERO)).await)?;
    ensure!(left.len() == 8, CHECK, "clearing the fork left the source {} messages", left.len());
    let state = fail_on(CHECK, store.state(&source).await)?;
    ensure!(
        state.watermark == Seq(5) && state.generation == 2,
        CHECK,
        "the fork changed the source's state to {state:?}"
    );

    let exists = store.fork(&source, Seq(3), &target).await;
    ensure!(
        matches!(exists, Err(StoreError::History(HistoryError::Exists { .. }))),
        CHECK,
        "a fork into an existing conversation returned {exists:?}"
    );
    let beyond = ids.fresh("fork-beyond");
    let refused = store.fork(&source, Seq(9), &beyond).await;
    ensure!(
        matches!(refused, Err(StoreError::History(HistoryError::NotYetAppended { .. }))),
        CHECK,
        "a fork beyond the source returned {refused:?}"
    );
    ensure!(
        fail_on(CHECK, store.conversations().await)?.binary_search(&beyond).is_err(),
        CHECK,
        "a refused fork made its conversation appear"
    );
    Ok(())
}

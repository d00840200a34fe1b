//! Compaction history: undo, restore and as-of reads over every embedded store, in lock-step with the reference store.

#[path = "support/history.rs"]
mod lockstep;
mod support;

use std::num::NonZeroU32;
use std::sync::Arc;

use proptest::prelude::*;
use tidemark_core::history::{EpochKind, HistoryError};
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, MemoryError, Message, Seq};
use tidemark_memory::{BackgroundMemory, CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;

#[cfg(feature = "sqlite")]
use tidemark_memory::SqliteStore;
#[cfg(feature = "sqlite")]
use tidemark_testkit::workload::replay;

use lockstep::{arb_ops, lockstep, long_run};
use support::{Probe, turn};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("a valid id")
}

fn window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("not zero"), HeuristicCounter::default())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Appends, loads that compact, loads within lower budgets, resets, undos, restores and clears agree with the reference store, step by step.
    #[test]
    fn history_in_memory_keeps_step_with_the_reference(ops in arb_ops(1..40)) {
        let outcome = runtime().block_on(lockstep(InMemoryStore::new(), &id("lockstep"), &ops));
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }

    #[cfg(feature = "sqlite")]
    #[test]
    fn history_on_sqlite_keeps_step_with_the_reference(ops in arb_ops(1..40)) {
        let store = SqliteStore::open_in_memory().expect("an in-memory database");
        let outcome = runtime().block_on(lockstep(store, &id("lockstep"), &ops));
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }
}

/// A long fixed run on each embedded store: the lock-step check holds and it exercised undos and as-of reads.
#[tokio::test]
async fn long_runs_undo_and_read_back_in_step_with_the_reference() {
    for seed in 1..=3 {
        let checked = lockstep(InMemoryStore::new(), &id("long"), &long_run(seed)).await.expect("in memory");
        assert!(
            checked.restores >= 10 && checked.as_of >= 20 && checked.epochs >= 30 && checked.forks >= 1,
            "{checked:?}"
        );
        #[cfg(feature = "sqlite")]
        {
            let sqlite = SqliteStore::open_in_memory().expect("open");
            let checked = lockstep(sqlite, &id("long"), &long_run(seed)).await.expect("sqlite");
            eprintln!("seed {seed} on sqlite: {checked:?}");
            assert!(
                checked.restores >= 10 && checked.as_of >= 20 && checked.epochs >= 30 && checked.forks >= 1,
                "{checked:?}"
            );
        }
    }
}

/// The acceptance replay: 2,000 turns (8,000 messages) on an SQLite file, a load after each, 50 of them read again as of their point.
#[cfg(feature = "sqlite")]
#[tokio::test]
async fn as_of_reads_give_back_the_served_prompts_of_a_long_replay() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = SqliteStore::open(dir.path().join("replay.db")).expect("open");
    let memory = CompactingMemory::new(store, window(8_000), ConcatCompactor::capped(2_000));
    let conversation = id("replay");
    let turns = replay(40, 2_000);
    let mut sampled = Vec::new();
    let mut next = 0u64;
    for (index, turn) in turns.into_iter().enumerate() {
        next += turn.len() as u64;
        memory.append(&conversation, turn).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        if index % 40 == 39 {
            sampled.push((Seq(next - 1), prompt));
        }
    }
    assert_eq!(sampled.len(), 50);
    let history = memory.history(&conversation).await.expect("history");
    assert!(history.len() > 50, "the replay compacted {} times", history.len());
    // What the history costs in room: the summaries it keeps against the messages stored.
    let kept: usize = history
        .iter()
        .filter_map(|epoch| epoch.state.summary.as_ref())
        .map(|s| s.message.to_json().len())
        .sum();
    let stored = memory
        .get_ref()
        .load_range(&conversation, tidemark_core::SeqRange::from(Seq::ZERO))
        .await
        .expect("read");
    let stored: usize = stored.iter().map(|message| message.message.to_json().len()).sum();
    eprintln!("{} epochs keep {kept} bytes of summaries beside {stored} bytes of messages", history.len());
    for (seq, prompt) in &sampled {
        let rebuilt = memory.load_as_of(&conversation, *seq).await.expect("as of");
        assert!(&rebuilt == prompt, "the prompt as of message {seq} differs from the one served");
    }
    // A message not appended yet has no prompt.
    let beyond = memory.load_as_of(&conversation, Seq(next)).await;
    assert!(matches!(beyond, Err(MemoryError::History(HistoryError::NotYetAppended { .. }))), "{beyond:?}");
}

#[tokio::test]
async fn an_undone_reset_serves_the_earlier_prompt_and_the_next_load_keeps_it() {
    let memory = CompactingMemory::new(InMemoryStore::new(), window(20_000), ConcatCompactor::capped(2_000));
    let conversation = id("undo-reset");
    for i in 0..6 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let before = memory.load(&conversation).await.expect("load");
    let reset = memory.new_context(&conversation, "halfway").await.expect("reset");
    assert!(reset.evicted > 0);
    assert_ne!(memory.load(&conversation).await.expect("load"), before);
    let undone = memory.undo(&conversation).await.expect("undo");
    assert_eq!((undone.undone, undone.restored, undone.generation), (1, None, 2));
    assert_eq!(memory.load(&conversation).await.expect("load"), before);
    // The window fits, so nothing compacts again: the history ends with the undo.
    let history = memory.history(&conversation).await.expect("history");
    let kinds: Vec<EpochKind> = history.iter().map(|epoch| epoch.kind).collect();
    assert_eq!(kinds, [EpochKind::Saved, EpochKind::Restored { from: None }]);
    // Nothing is left to undo; a redo by epoch brings the reset back.
    let again = memory.undo(&conversation).await;
    assert!(matches!(again, Err(MemoryError::History(HistoryError::NothingToUndo))), "{again:?}");
    let redone = memory.restore(&conversation, Some(1)).await.expect("redo");
    assert_eq!(redone.window_starts_at, reset.window_starts_at);
    let unknown = memory.restore(&conversation, Some(42)).await;
    assert!(matches!(unknown, Err(MemoryError::History(HistoryError::UnknownEpoch { generation: 42 }))));
}

#[tokio::test]
async fn undo_goes_back_one_compaction_at_a_time() {
    let memory = CompactingMemory::new(InMemoryStore::new(), window(3_000), ConcatCompactor::capped(1_000));
    let conversation = id("steps");
    let mut prompts = Vec::new();
    for i in 0..30 {
        memory.append(&conversation, turn(i)).await.expect("append");
        let before = memory.history(&conversation).await.expect("history").len();
        memory.load(&conversation).await.expect("load");
        if memory.history(&conversation).await.expect("history").len() > before {
            prompts.push(memory.get_ref().state(&conversation).await.expect("state"));
        }
    }
    assert!(prompts.len() >= 3, "the loads compacted {} times", prompts.len());
    // Each undo restores the state of the compaction before, newest first.
    for earlier in prompts.iter().rev().skip(1).take(2) {
        let undone = memory.undo(&conversation).await.expect("undo");
        assert_eq!(undone.restored, Some(earlier.generation));
        let state = memory.get_ref().state(&conversation).await.expect("state");
        assert_eq!((state.watermark, &state.summary), (earlier.watermark, &earlier.summary));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_while_a_compaction_is_in_flight_is_refused_and_changes_nothing() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let memory = Arc::new(CompactingMemory::new(store.clone(), window(3_000), probe.clone()));
    let other = CompactingMemory::new(store.clone(), window(3_000), probe.clone());
    let conversation = id("busy");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    // A first compaction, let through, so that there is something to undo.
    release.notify_one();
    memory.load(&conversation).await.expect("load");
    entered.notified().await;
    assert!(store.state(&conversation).await.expect("state").generation > 0, "the first load compacted");
    for i in 16..32 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let load = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    let state = store.state(&conversation).await.expect("state");
    assert!(matches!(memory.undo(&conversation).await, Err(MemoryError::Busy)));
    assert!(matches!(other.undo(&conversation).await, Err(MemoryError::Busy)));
    assert_eq!(store.state(&conversation).await.expect("state"), state, "a refused undo wrote nothing");
    release.notify_one();
    load.await.expect("joined").expect("loaded");
    let undone = memory.undo(&conversation).await.expect("undo once the compaction is done");
    assert!(undone.undone > state.generation, "the undo took back the compaction that was in flight");
}

#[tokio::test]
async fn a_background_memory_refuses_an_undo_while_its_compaction_is_pending_and_reads_as_of() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let memory: BackgroundMemory<_, _, _> =
        CompactingMemory::new(store.clone(), window(3_000), probe.clone()).in_background();
    let conversation = id("background");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let first = memory.load(&conversation).await.expect("load");
    entered.notified().await;
    assert!(matches!(memory.undo(&conversation).await, Err(MemoryError::Busy)));
    // While the compaction is pending the load served the policy's window; as of now it is rebuilt so.
    let next = memory.get_ref().stats(&conversation).await.expect("stats").next_seq;
    assert_eq!(memory.load_as_of(&conversation, Seq(next.0 - 1)).await.expect("as of"), first);
    release.notify_one();
    memory.flush().await;
    let undone = memory.undo(&conversation).await.expect("undo");
    assert_eq!(undone.restored, None);
}

#[tokio::test]
async fn a_pruned_history_is_refused_by_name() {
    let store = InMemoryStore::new();
    let memory = CompactingMemory::new(store.clone(), window(3_000), ConcatCompactor::capped(1_000));
    let conversation = id("pruned");
    for i in 0..30 {
        memory.append(&conversation, turn(i)).await.expect("append");
        memory.load(&conversation).await.expect("load");
    }
    assert!(store.prune(&conversation).await.expect("prune") > 0);
    let undo = memory.undo(&conversation).await;
    assert!(matches!(undo, Err(MemoryError::History(HistoryError::Pruned { .. }))), "{undo:?}");
    let early = memory.load_as_of(&conversation, Seq(3)).await;
    assert!(matches!(early, Err(MemoryError::History(HistoryError::Pruned { .. }))), "{early:?}");
    // The prompt of now is still whole.
    let next = store.stats(&conversation).await.expect("stats").next_seq;
    let now = memory.load_as_of(&conversation, Seq(next.0 - 1)).await.expect("as of now");
    assert_eq!(now, memory.load(&conversation).await.expect("load"));
    let _: Vec<Message> = now;
}

#[tokio::test]
async fn a_fork_never_separates_results_from_their_call() {
    let memory = CompactingMemory::new(InMemoryStore::new(), window(5_000), ConcatCompactor::capped(1_000));
    let main = id("main");
    memory.append(&main, turn(0)).await.expect("append");
    // Message 2 is the result of the call in message 1.
    let split = memory.fork(&main, Seq(2), &id("split")).await;
    assert!(
        matches!(split, Err(MemoryError::History(HistoryError::SplitsToolUnit { at: Seq(2) }))),
        "{split:?}"
    );
    assert!(
        memory.get_ref().conversations().await.expect("list").iter().all(|listed| listed != &id("split"))
    );
    for at in [0, 1, 3, 4] {
        let fork = id(&format!("at-{at}"));
        memory.fork(&main, Seq(at), &fork).await.expect("a fork at a unit boundary");
        tidemark_core::validate(&memory.load(&fork).await.expect("load")).expect("a valid prompt");
    }
}

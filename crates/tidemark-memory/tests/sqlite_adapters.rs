//! The memory adapters over SQLite: conformance, and what survives a restart (no re-delivery, no re-compaction).

mod support;

use std::num::NonZeroU32;
use std::path::Path;

use support::{Probe, Recorder, turn};
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message, validate};
use tidemark_memory::{
    CompactingMemory, DemotingMemory, HeuristicCounter, SlidingWindow, SqliteStore, TokenWindow,
};
use tidemark_testkit::conformance::memory::{self, MemoryConfig};
use tidemark_testkit::reference::ConcatCompactor;

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn token_window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

fn open(path: &Path) -> SqliteStore {
    SqliteStore::open(path).expect("open the store")
}

#[tokio::test]
async fn adapters_over_sqlite_conform() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = 0;
    let mut fresh = || {
        files += 1;
        open(&dir.path().join(format!("conformance-{files}.db")))
    };
    let config = MemoryConfig::default();
    memory::run(
        || {
            let store = fresh();
            async move { CompactingMemory::new(store, token_window(600), ConcatCompactor::capped(400)) }
        },
        &config,
    )
    .await
    .expect("compacting memory on sqlite");
    memory::run(
        || {
            let store = fresh();
            async move { DemotingMemory::new(store, SlidingWindow::last_messages(3), Recorder::default()) }
        },
        &config,
    )
    .await
    .expect("demoting memory on sqlite");
}

#[tokio::test]
async fn a_restarted_demoting_memory_does_not_deliver_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("agent.db");
    let conversation = id("restart/demote");
    let first_hook = Recorder::default();
    {
        let memory = DemotingMemory::new(open(&path), SlidingWindow::last_messages(4), first_hook.clone());
        for i in 0..6 {
            memory.append(&conversation, turn(i)).await.expect("append");
            memory.load(&conversation).await.expect("load");
        }
    }
    let delivered_before = first_hook.delivered_seqs();
    assert_eq!(delivered_before, (0..20).collect::<Vec<u64>>());

    // A new process: new store handle, new adapter, new hook.
    let second_hook = Recorder::default();
    let memory = DemotingMemory::new(open(&path), SlidingWindow::last_messages(4), second_hook.clone());
    let prompt = memory.load(&conversation).await.expect("load");
    assert_eq!(prompt, turn(5), "the window is what it was");
    assert!(second_hook.delivered_seqs().is_empty(), "nothing delivered twice");
    memory.append(&conversation, turn(6)).await.expect("append");
    memory.load(&conversation).await.expect("load");
    assert_eq!(second_hook.delivered_seqs(), vec![20, 21, 22, 23], "only the new evictions");
}

#[tokio::test]
async fn a_restarted_compacting_memory_does_not_compact_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("agent.db");
    let conversation = id("restart/compact");
    let first = Probe::default();
    let before = {
        let memory = CompactingMemory::new(open(&path), token_window(3_000), first.clone());
        let mut prompt = Vec::new();
        for i in 0..30 {
            memory.append(&conversation, turn(i)).await.expect("append");
            prompt = memory.load(&conversation).await.expect("load");
        }
        prompt
    };
    assert!(first.calls() > 0, "the first process compacted");
    let watermark_before = open(&path).state(&conversation).await.expect("state").watermark;

    // Same file, new adapter: the same prompt, and the compactor never runs.
    let second = Probe::default();
    let memory = CompactingMemory::new(open(&path), token_window(3_000), second.clone());
    let after = memory.load(&conversation).await.expect("load");
    assert_eq!(after, before, "the summary and window survived the restart");
    assert_eq!(second.calls(), 0, "no compaction after a restart");

    // A tighter policy evicts more: only messages past the old watermark are compacted.
    let third = Probe::default();
    let memory = CompactingMemory::new(open(&path), token_window(1_500), third.clone());
    let tighter = memory.load(&conversation).await.expect("load");
    validate(&tighter).expect("valid");
    assert_eq!(third.calls(), 1);
    let evicted = third.evicted.lock().expect("lock")[0].clone();
    let already: Vec<Message> =
        (0..30).flat_map(turn).take(usize::try_from(watermark_before.0).expect("small")).collect();
    assert!(evicted.iter().all(|message| !already.contains(message)), "nothing was summarized twice");
    assert!(!evicted.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handles_on_one_file_compact_once_through_the_files_lease() {
    // Two stores opened on one file have their own connections, as two
    // processes would; only the lease table in the file keeps the second
    // memory from running the compactor on what the first is compacting.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("shared.db");
    let (probe, entered, release) = Probe::gated();
    let first = std::sync::Arc::new(CompactingMemory::new(open(&path), token_window(3_000), probe.clone()));
    let second = std::sync::Arc::new(CompactingMemory::new(open(&path), token_window(3_000), probe.clone()));
    let conversation = id("two-handles");
    for i in 0..16 {
        first.append(&conversation, turn(i)).await.expect("append");
    }
    let holder = {
        let (memory, conversation) = (std::sync::Arc::clone(&first), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    let lease = second.get_ref().try_lease(&conversation, "someone-else", std::time::Duration::from_secs(60));
    assert!(
        matches!(lease.await.expect("try_lease"), tidemark_core::Lease::HeldBy { .. }),
        "the compacting handle's lease is visible through the other connection"
    );
    let waiter = {
        let (memory, conversation) = (std::sync::Arc::clone(&second), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    release.notify_one();
    let a = holder.await.expect("joined").expect("loaded");
    let b = waiter.await.expect("joined").expect("loaded");
    assert_eq!(probe.calls(), 1, "one compaction for two handles on one file");
    assert_eq!(a, b, "the waiting handle serves the new summary");
}

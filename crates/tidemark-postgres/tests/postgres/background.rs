//! Background compaction by two processes sharing one database: no load waits, and every evicted message is summarized exactly once.

use std::num::NonZeroU32;
use std::sync::Arc;

use tidemark_core::{
    ConversationId, ConversationMemory, ConversationStore, Outcome, Seq, SeqRange, TokenCounter, validate,
};
use tidemark_memory::{BackgroundMemory, CompactingMemory, HeuristicCounter, TokenWindow};
use tidemark_postgres::{PostgresOptions, PostgresStore};
use tokio::sync::Barrier;

use super::support::{Probe, Watcher};
use super::{compactions_by_tag, drop_schema, fresh_schema, tag, tagged_turn, url};

/// The window of these tests: room for the probe's capped summary (about 700 tokens) and a few turns.
const BUDGET: u32 = 1_200;

type Process = BackgroundMemory<PostgresStore, TokenWindow<HeuristicCounter>, Probe, Watcher>;

/// A background memory as one agent process would build it: its own store handle (its own pool).
async fn background_process(schema: &str, probe: Probe, watcher: Watcher) -> Process {
    let options = PostgresOptions::default().with_schema(schema).with_pool_size(4);
    let store = PostgresStore::connect_with(&url(), options).await.expect("connect");
    let window = TokenWindow::new(NonZeroU32::new(BUDGET).expect("non-zero"), HeuristicCounter::default());
    CompactingMemory::new(store, window, probe).with_observer(watcher).in_background()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_compacting_in_the_background_summarize_each_message_once() {
    const PROCESSES: usize = 2;
    const CONVERSATIONS: usize = 4;
    const TURNS: usize = 1_000;
    let schema = fresh_schema();
    let probe = Probe::default(); // shared, so every compactor call of both processes is counted
    let watcher = Watcher::default();
    let start = Arc::new(Barrier::new(PROCESSES));
    let mut tasks = Vec::new();
    for process in 0..PROCESSES {
        let memory = background_process(&schema, probe.clone(), watcher.clone()).await;
        let start = Arc::clone(&start);
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let counter = HeuristicCounter::default();
            for turn in (process..TURNS).step_by(PROCESSES) {
                let conversation = turn % CONVERSATIONS;
                let id = ConversationId::new(format!("bg-{conversation}")).expect("valid id");
                memory.append(&id, tagged_turn(conversation, turn)).await.expect("append");
                let prompt = memory.load(&id).await.expect("load");
                validate(&prompt).expect("a valid prompt");
                let tokens = counter.count_prompt(&prompt);
                assert!(tokens <= BUDGET, "turn {turn}: {tokens} tokens over the budget of {BUDGET}");
            }
            // Before the process exits: every pending compaction written.
            memory.flush().await;
            assert_eq!((memory.pending(), memory.in_flight()), (0, 0));
        }));
    }
    for task in tasks {
        task.await.expect("a process finished");
    }

    let compacted = compactions_by_tag(&probe);
    let twice: Vec<_> = compacted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "summarized more than once: {twice:?}");

    let store = PostgresStore::connect_with(&url(), PostgresOptions::default().with_schema(&schema))
        .await
        .expect("connect");
    for conversation in 0..CONVERSATIONS {
        let id = ConversationId::new(format!("bg-{conversation}")).expect("valid id");
        let state = store.state(&id).await.expect("state");
        assert!(state.summary.is_some(), "conversation {conversation} was compacted");
        let stored = store.load_range(&id, SeqRange::from(Seq::ZERO)).await.expect("load_range");
        for message in &stored {
            let below = message.seq < state.watermark && !state.retained.contains(&message.seq);
            assert_eq!(
                compacted.get(&tag(&message.message)).copied().unwrap_or(0),
                usize::from(below),
                "conversation {conversation}: seq {} summarized the wrong number of times",
                message.seq.0
            );
        }
    }
    let events = watcher.events();
    let deferred = events.iter().filter(|event| event.outcome == Outcome::Deferred).count();
    let applied = events.iter().filter(|event| event.outcome == Outcome::Applied).count();
    assert!(deferred > 0 && applied > 0, "{deferred} stale loads, {applied} summaries written");
    assert!(events.iter().all(|event| event.outcome != Outcome::Failed), "{events:?}");
    drop_schema(&schema).await;
}

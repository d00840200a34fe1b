//! `new_context`: the model starts a fresh window, keeping its hand-off note, with every invariant of a
//! compaction; while another compaction is in flight it is refused and changes nothing.

mod support;

use std::num::NonZeroU32;
use std::sync::Arc;

use proptest::prelude::*;
use tidemark_core::task::holds_instruction;
use tidemark_core::{
    ConversationId, ConversationMemory, ConversationStore, MemoryError, Message, Seq, SeqRange, TokenCounter,
    validate,
};
use tidemark_memory::{
    CompactingMemory, FailureMode, HANDOFF_HEADER, HeuristicCounter, InMemoryStore, TokenWindow,
};
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::strategies::arb_agent_loop;

use support::{Probe, turn};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("a valid id")
}

fn window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("not zero"), HeuristicCounter::default())
}

async fn everything(
    store: &InMemoryStore,
    conversation: &ConversationId,
) -> Vec<tidemark_core::StoredMessage> {
    store.load_range(conversation, SeqRange::from(Seq::ZERO)).await.expect("read")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Over generated agent loops, a reset at any step keeps the newest unit, the task, the note and every stored message, and the prompt within its budget.
    #[test]
    fn a_reset_keeps_what_a_compaction_keeps_and_the_note(
        (batches, task) in arb_agent_loop(10..=60, 1..40),
        at in 0.1f64..1.0,
        budget in 2_000u32..12_000,
        note_words in 1usize..400,
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
        runtime.block_on(async {
            let store = InMemoryStore::new();
            let policy = TokenWindow::new(NonZeroU32::new(budget).expect("not zero"), Quarter);
            let memory = CompactingMemory::new(store.clone(), policy, ConcatCompactor::capped(1_000));
            let conversation = id("agent");
            let reset_after = ((batches.len() as f64 * at) as usize).max(1);
            let note = format!("Progress so far: {}", "the parser tests pass ".repeat(note_words));
            for (index, batch) in batches.iter().enumerate() {
                memory.append(&conversation, batch.clone()).await.expect("append");
                if index + 1 != reset_after {
                    memory.load(&conversation).await.expect("load");
                    continue;
                }
                let before = everything(&store, &conversation).await;
                let reset = memory.new_context(&conversation, &note).await.expect("reset");
                prop_assert_eq!(&everything(&store, &conversation).await, &before, "a stored message changed");
                let prompt = memory.load(&conversation).await.expect("load");
                prop_assert!(validate(&prompt).is_ok(), "a tool unit was split");
                prop_assert_eq!(prompt.last(), batch.last(), "the newest unit stays");
                prop_assert!(Quarter.count_prompt(&prompt) <= budget || batch.len() * 200 > budget as usize);
                if reset.evicted > 0 {
                    // The summary follows the leading system prompt.
                    let summary = prompt.iter().map(|message| message.text()).find(|text| text.contains(HANDOFF_HEADER));
                    let carried = summary.as_deref().and_then(|text| text.split_once(HANDOFF_HEADER)).map(|(_, after)| after.trim_start());
                    let first_line = carried.and_then(|text| text.lines().next()).unwrap_or("");
                    prop_assert!(!first_line.is_empty() && note.starts_with(first_line), "the note is in the summary: {:?}", summary);
                    prop_assert!(holds_instruction(&prompt, &task), "the task is kept");
                }
            }
            Ok(())
        })?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_while_a_compaction_is_in_flight_is_refused_and_changes_nothing() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let memory = Arc::new(CompactingMemory::new(store.clone(), window(3_000), probe.clone()));
    let other = CompactingMemory::new(store.clone(), window(3_000), probe.clone());
    let conversation = id("busy");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let load = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    let state = store.state(&conversation).await.expect("state");
    // This memory's gate is held, and another memory (process) finds the store's lease held.
    assert!(matches!(memory.new_context(&conversation, "note").await, Err(MemoryError::Busy)));
    assert!(matches!(other.new_context(&conversation, "note").await, Err(MemoryError::Busy)));
    assert_eq!(store.state(&conversation).await.expect("state"), state, "a refused reset wrote nothing");
    release.notify_one();
    load.await.expect("joined").expect("loaded");
    // Once it is done, a reset goes through (its own call to the compactor is let through at once).
    release.notify_one();
    let reset = memory.new_context(&conversation, "note").await.expect("reset");
    assert!(reset.evicted > 0);
    assert_eq!(
        probe.hints.lock().expect("not poisoned").last().cloned().flatten().as_deref(),
        Some(format!("{HANDOFF_HEADER}\nnote").as_str())
    );
}

#[tokio::test]
async fn a_failing_compactor_fails_the_reset_even_when_loads_degrade() {
    let probe = Probe::default();
    let store = InMemoryStore::new();
    let memory = CompactingMemory::new(store.clone(), window(50_000), probe.clone())
        .with_failure_mode(FailureMode::Degrade);
    let conversation = id("failing");
    for i in 0..6 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let state = store.state(&conversation).await.expect("state");
    probe.set_failing(true);
    assert!(matches!(memory.new_context(&conversation, "note").await, Err(MemoryError::Compaction(_))));
    assert_eq!(store.state(&conversation).await.expect("state"), state);
    // With only the newest unit in view there is nothing to reset, and nothing is written.
    let fresh = id("fresh");
    memory.append(&fresh, vec![Message::user("Only this.")]).await.expect("append");
    assert_eq!(memory.new_context(&fresh, "note").await.expect("nothing to do").evicted, 0);
    assert_eq!(store.state(&fresh).await.expect("state").summary, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_memory_refuses_a_reset_while_its_compaction_is_pending() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let memory = CompactingMemory::new(store.clone(), window(3_000), probe).in_background();
    let conversation = id("pending");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    memory.load(&conversation).await.expect("load starts a compaction");
    entered.notified().await;
    assert_eq!(memory.pending(), 1);
    assert!(matches!(memory.new_context(&conversation, "note").await, Err(MemoryError::Busy)));
    release.notify_one();
    memory.flush().await;
    release.notify_one();
    assert!(memory.new_context(&conversation, "note").await.is_ok());
}

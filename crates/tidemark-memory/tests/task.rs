//! The task survives a compacting memory (issue 37): over generated agent loops appended step by
//! step, at budgets from 10% to 100% of their size, every prompt a [`CompactingMemory`] loads holds
//! the newest instruction, verbatim in the window or carried in the summary, whatever its compactor
//! keeps of it; and a newer instruction replaces the carried one.

use std::num::NonZeroU32;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{TestRng, TestRunner};
use tidemark_compaction::TemplateCompactor;
use tidemark_core::task::{CUT_MARKER, INSTRUCTION_HEADER, holds_instruction};
use tidemark_core::{
    CompactionError, Compactor, ConversationId, ConversationMemory, Message, TokenCounter, units,
};
use tidemark_memory::{CompactingMemory, InMemoryStore, TokenWindow};
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::strategies::{agent_step, arb_agent_loop};

/// Cases per compactor.
const CASES: u32 = 64;

/// A compactor that keeps nothing of what it reads, as a model told to be brief may do.
#[derive(Debug, Clone, Copy)]
struct Forgetful;

impl Compactor for Forgetful {
    type Artifact = u64;

    fn name(&self) -> &str {
        "forgetful"
    }

    async fn compact(
        &self,
        _conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&u64>,
        _hint: Option<&str>,
    ) -> Result<u64, CompactionError> {
        Ok(carry_over.copied().unwrap_or(0) + evicted.len() as u64)
    }

    fn render(&self, artifact: &u64) -> Message {
        Message::system(format!("Work went on for {artifact} messages."))
    }
}

/// Loops with a budget between 10% and 100% of their size.
fn with_budgets() -> impl Strategy<Value = (Vec<Vec<Message>>, String, NonZeroU32)> {
    (arb_agent_loop(10..=80, 1..300), 10..=100_u64).prop_map(|((batches, task), percent)| {
        let all: Vec<Message> = batches.iter().flatten().cloned().collect();
        let tokens = u64::from(Quarter.count_prompt(&all));
        let budget = u32::try_from(tokens * percent / 100).unwrap_or(u32::MAX).max(1);
        (batches, task, NonZeroU32::new(budget).unwrap_or(NonZeroU32::MIN))
    })
}

/// Whether the newest unit and the system prompt leave a carried copy its room: a quarter of the budget, less the summary's own words.
fn room_for_a_copy(history: &[Message], budget: NonZeroU32) -> bool {
    let newest = units(history).last().map_or(0, |unit| unit.start());
    let mut staying = vec![history[0].clone()];
    staying.extend(history[newest..].iter().cloned());
    let carrier = Quarter.count_text(CUT_MARKER) + Quarter.count_text(INSTRUCTION_HEADER) + 16;
    // The carried copy takes at most a quarter of the budget; the compactor's own summary the rest it is given.
    Quarter.count_prompt(&staying) + 200 + carrier <= budget.get() && carrier <= budget.get() / 4
}

/// What the replays saw: prompts checked, and of those, how many held the task only as a carried copy.
#[derive(Default)]
struct Seen {
    checked: AtomicUsize,
    carried: AtomicUsize,
}

/// Append every batch and load after each, checking that every prompt that fits its budget holds the task.
async fn replay<C: Compactor>(
    compactor: C,
    batches: &[Vec<Message>],
    task: &str,
    budget: NonZeroU32,
    seen: &Seen,
) -> Result<(), String> {
    let memory = CompactingMemory::new(InMemoryStore::new(), TokenWindow::new(budget, Quarter), compactor);
    let id = ConversationId::new("agent").map_err(|error| error.to_string())?;
    let mut history = Vec::new();
    for batch in batches {
        history.extend(batch.iter().cloned());
        memory.append(&id, batch.clone()).await.map_err(|error| error.to_string())?;
        let prompt = memory.load(&id).await.map_err(|error| error.to_string())?;
        if !room_for_a_copy(&history, budget) || Quarter.count_prompt(&prompt) > budget.get() {
            continue;
        }
        seen.checked.fetch_add(1, Ordering::Relaxed);
        if !prompt.iter().any(|message| message.text() == task) {
            seen.carried.fetch_add(1, Ordering::Relaxed);
        }
        if !holds_instruction(&prompt, task) {
            return Err(format!(
                "after {} messages at {budget}, the task is lost: {prompt:#?}",
                history.len()
            ));
        }
    }
    Ok(())
}

#[test]
fn every_prompt_holds_the_task_whatever_the_compactor_keeps() {
    let seen = Seen::default();
    // A fixed seed: how many prompts need the carried copy swings widely from seed to seed, and the floor below is checked on a known set.
    let config = ProptestConfig::with_cases(CASES);
    let mut runner =
        TestRunner::new_with_rng(config.clone(), TestRng::deterministic_rng(config.rng_algorithm));
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    runner
        .run(&with_budgets(), |(batches, task, budget)| {
            runtime.block_on(async {
                replay(Forgetful, &batches, &task, budget, &seen).await.map_err(TestCaseError::fail)?;
                replay(ConcatCompactor::capped(400), &batches, &task, budget, &seen)
                    .await
                    .map_err(TestCaseError::fail)?;
                replay(TemplateCompactor::new().with_max_bytes(Some(400)), &batches, &task, budget, &seen)
                    .await
                    .map_err(TestCaseError::fail)
            })
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
    let (checked, carried) = (seen.checked.into_inner(), seen.carried.into_inner());
    eprintln!("{checked} prompts checked, {carried} holding the task only in the summary");
    // Most prompts are checked, and in every case on average at least one holds the task only as the carried copy.
    assert!(checked >= CASES as usize * 3 * 10, "too few prompts checked: {checked}");
    assert!(carried >= CASES as usize, "too few prompts needed the carried copy: {carried} of {checked}");
}

#[tokio::test]
async fn the_carried_task_is_cut_with_a_marker_and_a_newer_one_replaces_it() {
    let budget = NonZeroU32::new(600).expect("not zero");
    let memory = CompactingMemory::new(InMemoryStore::new(), TokenWindow::new(budget, Quarter), Forgetful);
    let id = ConversationId::new("agent").expect("a valid id");
    // An instruction far over a quarter of the budget: only its start is carried.
    let task = format!("Rewrite the importer so that {}", "every row reports its own error line ".repeat(80));
    memory
        .append(&id, vec![Message::system("You are a coding agent."), Message::user(task.clone())])
        .await
        .expect("append");
    let mut checked = 0;
    for number in 0..30 {
        memory.append(&id, agent_step(number, 2, number % 3 == 0, &[30])).await.expect("append");
        let prompt = memory.load(&id).await.expect("load");
        assert!(Quarter.count_prompt(&prompt) <= budget.get(), "step {number}");
        assert!(holds_instruction(&prompt, &task), "step {number}: {prompt:#?}");
        if !prompt.iter().any(|message| message.text() == task) {
            let summary =
                prompt.iter().find(|message| message.text().contains(INSTRUCTION_HEADER)).expect("carried");
            assert!(summary.text().ends_with(CUT_MARKER), "cut with its marker");
            checked += 1;
        }
    }
    assert!(checked > 20, "the instruction left the window early: {checked}");

    // A new instruction: the window shows it, and the old one is carried no more once the summary is rebuilt.
    let next = "Now add a test for the importer's error lines.";
    memory.append(&id, vec![Message::user(next)]).await.expect("append");
    for number in 30..60 {
        memory.append(&id, agent_step(number, 2, false, &[30])).await.expect("append");
        let prompt = memory.load(&id).await.expect("load");
        assert!(holds_instruction(&prompt, next), "step {number}: {prompt:#?}");
    }
    let prompt = memory.load(&id).await.expect("load");
    assert!(!holds_instruction(&prompt, &task), "the older instruction is still carried: {prompt:#?}");
}

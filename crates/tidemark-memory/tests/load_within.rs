//! Loads within a lower budget: the prompt fits the budget by the memory's own count, keeps its tool units whole, and compacts what leaves.

use std::num::NonZeroU32;

use proptest::prelude::*;
use tidemark_core::{
    ContextError, ContextRequest, ContextSource, ConversationId, ConversationMemory, ConversationStore,
    MemoryError, Message, Role, TokenCounter, units, validate,
};
use tidemark_memory::{
    CompactingMemory, DemotingMemory, HeuristicCounter, InMemoryStore, PolicyMemory, TokenWindow,
};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::strategies::{HistoryConfig, arb_history_with};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn token_window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

/// The block of [`Note`].
const NOTE: &str = "Known facts: the build runs on Tuesdays.";

/// A context source answering with a fixed note.
struct Note;

impl ContextSource for Note {
    async fn context(&self, _: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
        Ok(Some(Message::system(NOTE)))
    }
}

/// A hook that accepts every demotion.
struct Accept;

impl tidemark_core::DemotionHook for Accept {
    async fn on_demote(
        &self,
        _: &ConversationId,
        _: tidemark_core::SeqRange,
        _: &[tidemark_core::StoredMessage],
    ) -> Result<(), tidemark_core::HookError> {
        Ok(())
    }
}

/// The fewest tokens any prompt of `history` may have: the overhead, pinned and system units, and the newest unit.
fn must_stay(history: &[Message], counter: &HeuristicCounter) -> u32 {
    let all: Vec<_> = units(history).collect();
    let mut total = counter.prompt_overhead();
    for (position, unit) in all.iter().enumerate() {
        let stays = unit.is_pinned(history)
            || history[unit.start()].role == Role::System
            || position + 1 == all.len();
        if stays {
            total += history[unit.range()].iter().map(|m| counter.count(m)).sum::<u32>();
        }
    }
    total
}

/// Check one answer of `load_within(budget)`: a valid prompt within the budget that ends as the history does, or `OverBudget` only when what must stay (with `summary` tokens) is over it.
fn check(
    answer: Result<Vec<Message>, MemoryError>,
    history: &[Message],
    budget: u32,
    summary: u32,
) -> Result<(), TestCaseError> {
    let counter = HeuristicCounter::default();
    match answer {
        Ok(prompt) => {
            prop_assert!(
                counter.count_prompt(&prompt) <= budget,
                "{} > {}",
                counter.count_prompt(&prompt),
                budget
            );
            prop_assert!(validate(&prompt).is_ok(), "a tool unit was split: {:?}", validate(&prompt));
            // The context block goes after the window's leading system messages, so it is last when they are all there is.
            let note = Message::system(NOTE);
            prop_assert_eq!(prompt.iter().rev().find(|message| **message != note), history.last());
        }
        Err(MemoryError::OverBudget { budget: asked, tokens }) => {
            prop_assert_eq!(asked, budget);
            prop_assert!(tokens > budget);
            let floor = must_stay(history, &counter).saturating_add(summary);
            prop_assert!(floor > budget, "over budget although {} tokens must stay within {}", floor, budget);
        }
        Err(error) => prop_assert!(false, "unexpected error {error:?}"),
    }
    Ok(())
}

fn histories() -> impl Strategy<Value = Vec<Message>> {
    arb_history_with(HistoryConfig::default().with_max_units(40).with_trailing_open_exchange(false))
        .prop_filter("not empty", |history| !history.is_empty())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `load_within` never exceeds its budget and never splits a tool unit, in each adapter, with and without a context source.
    #[test]
    fn a_load_within_a_lower_budget_never_exceeds_it(
        history in histories(),
        budget in 300..3_000u32,
        percent in 5..100u32,
        cap in 40..400usize,
        with_context in any::<bool>(),
    ) {
        let lower = (budget * percent / 100).max(1);
        let within = NonZeroU32::new(lower).expect("non-zero");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let conversation = id("within");

            let mut policy = PolicyMemory::new(InMemoryStore::new(), token_window(budget));
            let mut demoting = DemotingMemory::new(InMemoryStore::new(), token_window(budget), Accept);
            let mut compacting =
                CompactingMemory::new(InMemoryStore::new(), token_window(budget), ConcatCompactor::capped(cap));
            if with_context {
                policy = policy.with_context(Note, 30);
                demoting = demoting.with_context(Note, 30);
                compacting = compacting.with_context(Note, 30);
            }
            policy.append(&conversation, history.clone()).await.expect("append");
            demoting.append(&conversation, history.clone()).await.expect("append");
            compacting.append(&conversation, history.clone()).await.expect("append");

            check(policy.load_within(&conversation, within).await, &history, lower, 0)?;
            check(demoting.load_within(&conversation, within).await, &history, lower, 0)?;
            let answer = compacting.load_within(&conversation, within).await;
            let state = compacting.get_ref().state(&conversation).await.expect("state");
            let summary = state.summary.as_ref().map_or(0, |summary| summary.tokens);
            check(answer, &history, lower, summary)?;

            // The policy's own budget is untouched: a normal load afterwards still loads.
            prop_assert!(compacting.load(&conversation).await.is_ok());
            Ok(())
        })?;
    }
}

/// The evicted part goes into the summary, the retried prompt fits, and later loads grow back under the configured budget.
#[tokio::test]
async fn compacting_memory_compacts_into_the_summary_within_the_lower_budget() {
    let memory =
        CompactingMemory::new(InMemoryStore::new(), token_window(2_000), ConcatCompactor::capped(300));
    let conversation = id("retry");
    for turn in 0..30 {
        memory
            .append(
                &conversation,
                vec![
                    Message::user(format!("question {turn}: what changed in the build of service {turn}?")),
                    Message::assistant(format!("answer {turn}: service {turn} moved to the new runner")),
                ],
            )
            .await
            .expect("append");
    }
    let counter = HeuristicCounter::default();
    let full = memory.load(&conversation).await.expect("load");
    assert!(counter.count_prompt(&full) <= 2_000);
    assert!(memory.get_ref().state(&conversation).await.expect("state").summary.is_none(), "all fits 2000");

    let lower = NonZeroU32::new(400).expect("non-zero");
    let prompt = memory.load_within(&conversation, lower).await.expect("fits");
    assert!(counter.count_prompt(&prompt) <= 400, "{}", counter.count_prompt(&prompt));
    assert!(prompt[0].text().starts_with("Summary of earlier messages"));
    assert_eq!(
        prompt.last().map(|m| m.text().into_owned()).as_deref(),
        Some("answer 29: service 29 moved to the new runner")
    );
    let state = memory.get_ref().state(&conversation).await.expect("state");
    assert!(
        state.summary.is_some() && state.watermark.0 > 0,
        "the evicted part was compacted and the watermark moved"
    );

    // The next load uses the configured budget again: it neither compacts nor cuts.
    memory.append(&conversation, vec![Message::user("and now?")]).await.expect("append");
    let next = memory.load(&conversation).await.expect("load");
    assert_eq!(next.len(), prompt.len() + 1);
}

#[tokio::test]
async fn a_budget_below_the_newest_turn_is_over_budget() {
    let memory = PolicyMemory::new(InMemoryStore::new(), token_window(1_000));
    let conversation = id("tiny");
    memory
        .append(&conversation, vec![Message::user("a question of several words and more")])
        .await
        .expect("append");
    let error = memory.load_within(&conversation, NonZeroU32::MIN).await.expect_err("cannot fit");
    assert!(matches!(error, MemoryError::OverBudget { budget: 1, .. }), "{error:?}");
    assert_eq!(memory.load(&conversation).await.expect("load").len(), 1, "nothing was lost");
}

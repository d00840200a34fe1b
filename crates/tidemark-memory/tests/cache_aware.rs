//! The cache-aware configuration as a whole (a `CachePlan` window and `Segmented` summaries with a token limit, or sized by `SegmentBudget`): every prompt within budget, valid, and ending with the newest message.

use std::num::NonZeroU32;
use std::sync::Arc;

use proptest::prelude::*;
use tidemark_compaction::{SegmentBudget, Segmented};
use tidemark_core::boxed::BoxCompactor;
use tidemark_core::cache::CachePrices;
use tidemark_core::{
    ConversationId, ConversationMemory, ConversationStore, Message, TokenCounter, ToolCall, validate,
};
use tidemark_memory::{CachePlan, CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;

/// One turn: a user message, and either a tool call with its result or a plain answer.
fn turn(index: usize, sizes: (usize, usize, bool)) -> Vec<Message> {
    let (question, answer, tool) = sizes;
    let user = Message::user(format!("q{index} {}", "w ".repeat(question)));
    if tool {
        let id = format!("call_{index}");
        vec![
            user,
            Message::assistant_tool_calls(vec![ToolCall::new(
                id.clone(),
                "read_file",
                serde_json::json!({"path": "a.rs"}),
            )]),
            Message::tool_result(id, "x".repeat(answer * 2)),
        ]
    } else {
        vec![user, Message::assistant(format!("a{index} {}", "v ".repeat(answer)))]
    }
}

/// How the segments are sized: by hand, or as `SegmentBudget` recommends for the budget.
#[derive(Clone, Copy, Debug)]
enum Sizing {
    /// Segments of whole lines up to a sixth of the budget (in bytes, three to a token), merged before two thirds of it.
    Thirds,
    /// Segments filling a twentieth of the budget, sixteen of them and four fifths of the budget at most.
    Recommended,
}

fn memory(budget: u32, slack: f64, sizing: Sizing) -> Result<impl ConversationMemory, String> {
    let counter = HeuristicCounter::default();
    let plan = CachePlan::new(CachePrices::default()).with_slack(slack).map_err(|e| e.to_string())?;
    let budget_tokens = NonZeroU32::new(budget).ok_or("a zero budget")?;
    let policy = TokenWindow::new(budget_tokens, counter).with_cache_plan(plan);
    let compactor: BoxCompactor = match sizing {
        Sizing::Thirds => Box::new(
            Segmented::new(ConcatCompactor::capped(budget as usize / 2))
                .with_token_limit(Arc::new(counter), budget - budget / 3),
        ),
        Sizing::Recommended => {
            let sizes = SegmentBudget::for_budget(budget);
            Box::new(
                Segmented::new(ConcatCompactor::filling(3 * sizes.segment_tokens as usize))
                    .within(Arc::new(counter), sizes),
            )
        }
    };
    Ok(CompactingMemory::new(InMemoryStore::new(), policy, compactor))
}

/// A case the property found: each round's new segment took back the room its eviction made, and two rounds left the prompt 11 tokens over.
#[tokio::test]
async fn a_newest_turn_of_a_third_of_a_small_budget_fits_after_more_rounds()
-> Result<(), Box<dyn std::error::Error>> {
    let budget = 436;
    let memory = memory(budget, 1.0, Sizing::Thirds)?;
    let id = ConversationId::new("rounds")?;
    let sizes = [(8, 7, true), (22, 37, true), (22, 17, false), (1, 89, false), (11, 70, true)];
    let more = [(26, 22, false), (7, 89, true), (30, 68, false), (10, 79, false), (59, 110, true)];
    for (index, size) in sizes.iter().chain(&more).enumerate() {
        memory.append(&id, turn(index, *size)).await?;
        let prompt = memory.load(&id).await?;
        let tokens = HeuristicCounter::default().count_prompt(&prompt);
        assert!(tokens <= budget, "turn {index}: {tokens} tokens over {budget}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the budget and the turns, no prompt passes the budget, a tool call never loses its result, and the newest message is last.
    #[test]
    fn the_cache_aware_configuration_keeps_every_prompt_within_budget(
        budget in 400u32..4_000,
        sizes in proptest::collection::vec((0usize..60, 0usize..120, any::<bool>()), 20..80),
        slack in prop_oneof![Just(0.0), Just(CachePlan::DEFAULT_SLACK), Just(1.0)],
        sizing in prop_oneof![Just(Sizing::Thirds), Just(Sizing::Recommended)],
    ) {
        let counter = HeuristicCounter::default();
        let memory = memory(budget, slack, sizing).map_err(TestCaseError::fail)?;
        let id = ConversationId::new("cache-aware").map_err(|e| TestCaseError::fail(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_current_thread().build().map_err(|e| TestCaseError::fail(e.to_string()))?;
        runtime.block_on(async {
            let (mut compacted, mut appended) = (false, 0u32);
            for (index, size) in sizes.iter().enumerate() {
                let messages = turn(index, *size);
                appended += messages.iter().map(|message| counter.count(message)).sum::<u32>();
                let newest = messages.last().cloned();
                memory.append(&id, messages).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let prompt = memory.load(&id).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let tokens = counter.count_prompt(&prompt);
                prop_assert!(tokens <= budget, "turn {index}: {tokens} tokens over {budget}");
                prop_assert!(validate(&prompt).is_ok(), "turn {index}: a tool unit was split");
                prop_assert_eq!(prompt.last().cloned(), newest);
                compacted |= prompt.first().is_some_and(|first| first.text().starts_with("Summary"));
            }
            // More was appended than the budget holds: a summary was written.
            prop_assert!(compacted || appended <= budget, "no compaction: {appended} tokens appended, budget {budget}");
            Ok(())
        })?;
    }
}

/// A memory whose summaries (up to `summary_bytes`) can outgrow what a pinned system prompt of `system` tokens leaves of `budget`.
fn crowded(
    store: InMemoryStore,
    budget: u32,
    summary_bytes: usize,
    cache_aware: bool,
) -> Result<impl ConversationMemory, String> {
    let counter = HeuristicCounter::default();
    let budget_tokens = NonZeroU32::new(budget).ok_or("a zero budget")?;
    let mut policy = TokenWindow::new(budget_tokens, counter);
    if cache_aware {
        policy = policy.with_cache_plan(CachePlan::new(CachePrices::default()));
    }
    let compactor = Segmented::new(ConcatCompactor::capped(summary_bytes))
        .with_token_limit(Arc::new(counter), budget - budget / 3);
    Ok(CompactingMemory::new(store, policy, compactor))
}

/// A summary that the budget cannot hold beside a long system prompt is cut in the prompt, never sent whole over budget, and stays whole in the store.
#[tokio::test]
async fn a_summary_too_large_for_the_room_is_cut_in_the_prompt_only() -> Result<(), Box<dyn std::error::Error>>
{
    let counter = HeuristicCounter::default();
    let budget = 1_000;
    // 600 tokens of pinned system prompt, and summaries of up to 2,400 bytes (800 tokens).
    let store = InMemoryStore::new();
    let memory = crowded(store.clone(), budget, 2_400, true)?;
    let id = ConversationId::new("crowded")?;
    memory.append(&id, vec![Message::system("rule ".repeat(360)).pinned()]).await?;
    let mut cut = 0;
    for index in 0..40 {
        memory.append(&id, turn(index, (20, 60, index % 2 == 0))).await?;
        let prompt = memory.load(&id).await?;
        let tokens = counter.count_prompt(&prompt);
        assert!(tokens <= budget, "turn {index}: {tokens} tokens over {budget}");
        assert!(validate(&prompt).is_ok(), "turn {index}: a tool unit was split");
        let Some(copy) = prompt.iter().find(|message| message.text().starts_with(CUT_NOTE)) else { continue };
        cut += 1;
        // The store keeps the whole summary; the prompt holds its newest lines.
        let stored = store.state(&id).await?.summary.ok_or("a summary is stored")?;
        let newest = copy.text().lines().last().unwrap_or_default().to_owned();
        assert!(stored.tokens > counter.count(copy), "turn {index}: the stored summary was cut");
        assert!(
            stored.message.text().ends_with(&newest),
            "turn {index}: the copy is not the summary's newest part"
        );
    }
    assert!(cut > 0, "no prompt needed its summary cut: the case does not test the cut");
    Ok(())
}

/// The note the memory puts in front of a summary it cut (kept in step with the crate's own).
const CUT_NOTE: &str = "(Older parts of this summary were left out to fit the prompt's budget.)";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Whenever the pinned prompt and the newest turn fit the budget, so does every prompt, however large the summaries the compactor writes.
    #[test]
    fn a_summary_never_pushes_a_prompt_over_the_budget(
        budget in 500u32..3_000,
        system_share in 0u32..60,
        summary_bytes in 100usize..12_000,
        cache_aware in any::<bool>(),
        sizes in proptest::collection::vec((0usize..40, 0usize..80, any::<bool>()), 10..40),
    ) {
        let counter = HeuristicCounter::default();
        let memory = crowded(InMemoryStore::new(), budget, summary_bytes, cache_aware).map_err(TestCaseError::fail)?;
        let id = ConversationId::new("crowded").map_err(|e| TestCaseError::fail(e.to_string()))?;
        let system = Message::system("rule ".repeat((budget * system_share / 100 * 3 / 5) as usize)).pinned();
        let fixed = counter.count(&system) + counter.prompt_overhead();
        let runtime = tokio::runtime::Builder::new_current_thread().build().map_err(|e| TestCaseError::fail(e.to_string()))?;
        runtime.block_on(async {
            memory.append(&id, vec![system]).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
            for (index, size) in sizes.iter().enumerate() {
                let messages = turn(index, *size);
                // The newest unit: the tool call and its result, or the answer.
                let newest: u32 = messages.iter().skip(1).map(|message| counter.count(message)).sum();
                memory.append(&id, messages).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let prompt = memory.load(&id).await.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let tokens = counter.count_prompt(&prompt);
                if fixed + newest <= budget {
                    prop_assert!(tokens <= budget, "turn {index}: {tokens} tokens over {budget}");
                }
                prop_assert!(validate(&prompt).is_ok(), "turn {index}: a tool unit was split");
            }
            Ok(())
        })?;
    }
}

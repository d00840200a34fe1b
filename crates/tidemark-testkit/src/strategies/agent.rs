//! Agent loops: one instruction followed by tool steps, as a coding agent writes them.

use std::ops::{Range, RangeInclusive};

use proptest::prelude::*;
use tidemark_core::{Message, OpaqueBlock, Part, ToolCall};

/// One agent step: an assistant message of `calls` parallel calls (after a signed thinking block when `thinking`) and their results, whose sizes in repeated words cycle through `sizes`.
///
/// ```
/// use tidemark_testkit::strategies::agent_step;
///
/// let step = agent_step(7, 2, true, &[3]);
/// assert_eq!(step.len(), 3);
/// assert!(tidemark_core::validate(&step).is_ok());
/// ```
pub fn agent_step(number: usize, calls: usize, thinking: bool, sizes: &[usize]) -> Vec<Message> {
    let ids: Vec<String> = (0..calls).map(|call| format!("call_{number}_{call}")).collect();
    let mut assistant = Message::assistant_tool_calls(
        ids.iter().map(|id| ToolCall::with_raw_arguments(id, "run_shell", "{}")),
    );
    if thinking {
        let raw = format!(r#"{{"type":"thinking","thinking":"Step {number}.","signature":"c2lnbmVk"}}"#);
        assistant.parts.insert(0, Part::Opaque(OpaqueBlock::new("anthropic", "thinking", raw)));
    }
    let mut step = vec![assistant];
    for (id, size) in ids.iter().zip(sizes.iter().cycle()) {
        step.push(Message::tool_result(id, format!("{id}: {}", "log line ".repeat(*size))));
    }
    step
}

/// Agent loops as batches, the way an agent appends them, and the instruction's text.
///
/// The first batch is a system prompt and one user instruction of
/// `task_words` repeated words; each later batch is one [`agent_step`]
/// of one to four parallel calls, with a signed thinking block in three
/// steps of ten, and `steps` of them.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use tidemark_testkit::strategies::arb_agent_loop;
///
/// let (batches, task) = arb_agent_loop(10..=20, 1..5).new_tree(&mut TestRunner::default())?.current();
/// let history: Vec<_> = batches.concat();
/// assert_eq!(tidemark_core::task::instruction(&history), Some(1));
/// assert_eq!(history[1].text(), task);
/// # Ok::<(), proptest::test_runner::Reason>(())
/// ```
pub fn arb_agent_loop(
    steps: RangeInclusive<usize>,
    task_words: Range<usize>,
) -> impl Strategy<Value = (Vec<Vec<Message>>, String)> {
    let steps = prop::collection::vec(
        (1..=4_usize, prop::bool::weighted(0.3), prop::collection::vec(1..60_usize, 1..4)),
        steps,
    );
    (steps, task_words).prop_map(|(steps, words)| {
        let task = format!(
            "Fix the failing build of the billing service, then {}",
            "check every module ".repeat(words)
        );
        let mut batches =
            vec![vec![Message::system("You are a careful coding agent."), Message::user(task.clone())]];
        batches.extend(
            steps
                .into_iter()
                .enumerate()
                .map(|(number, (calls, thinking, sizes))| agent_step(number, calls, thinking, &sizes)),
        );
        (batches, task)
    })
}

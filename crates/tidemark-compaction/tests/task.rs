//! The task survives compaction (issue 37): over generated agent loops (one instruction, 10 to 200
//! tool units, parallel calls, signed thinking blocks) at budgets from 10% to 100% of their size,
//! every strategy's output holds the instruction, verbatim or carried cut, whenever the messages that
//! must stay leave room for a carried copy at all; so does `fit_prompt`.

use std::num::NonZeroU32;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use tidemark_compaction::{
    ClearToolOutputs, DynPipeline, Fallback, INSTRUCTION_HEADER, SUMMARY_HEADER, SummarizeStrategy,
    TruncateStrategy,
};
use tidemark_core::memory::fit_prompt;
use tidemark_core::task::{CUT_MARKER, MIN_CARRIED_TOKENS, holds_instruction, instruction};
use tidemark_core::{MemoryPolicy, Message, TokenCounter, Window, units, validate};
use tidemark_memory::{LastTurns, SlidingWindow, TokenWindow};
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::scripted::ScriptedModel;
use tidemark_testkit::strategies::arb_agent_loop;

/// Cases per strategy.
const CASES: u32 = 256;

/// A system prompt, one instruction of some length, and 10 to 200 agent steps.
fn agent_loops() -> impl Strategy<Value = (Vec<Message>, String)> {
    arb_agent_loop(10..=200, 1..40).prop_map(|(batches, task)| (batches.concat(), task))
}

/// A budget between 10% and 100% of what `history` costs.
fn with_budgets() -> impl Strategy<Value = (Vec<Message>, String, NonZeroU32)> {
    (agent_loops(), 10..=100_u64).prop_map(|((history, task), percent)| {
        let tokens = u64::from(Quarter.count_prompt(&history));
        let budget = u32::try_from(tokens * percent / 100).unwrap_or(u32::MAX);
        (history, task, NonZeroU32::new(budget).unwrap_or(NonZeroU32::MIN))
    })
}

/// Whether the messages that must stay whatever happens (the system prompt and the newest unit) leave room for a carried instruction.
fn room_for_a_copy(history: &[Message], budget: NonZeroU32) -> bool {
    let newest = units(history).last().map_or(0, |unit| unit.start());
    let mut staying = vec![history[0].clone()];
    staying.extend(history[newest..].iter().cloned());
    // A carried copy needs its marker and a few words, and in a summary the two header lines too.
    let carrier = Quarter.count_text(CUT_MARKER)
        + Quarter.count_text(SUMMARY_HEADER)
        + Quarter.count_text(INSTRUCTION_HEADER);
    Quarter.count_prompt(&staying) + MIN_CARRIED_TOKENS.max(carrier + 16) <= budget.get()
}

fn strategies() -> Vec<(&'static str, Box<dyn tidemark_compaction::DynStrategy>)> {
    let summarize = || SummarizeStrategy::new(ScriptedModel::digest()).with_max_summary_tokens(200);
    vec![
        ("truncate", Box::new(TruncateStrategy::new())),
        ("summarize", Box::new(summarize().with_fallback(Fallback::Truncate))),
        (
            "auto",
            Box::new(DynPipeline::boxed(vec![
                Box::new(ClearToolOutputs::new()),
                Box::new(summarize().with_fallback(Fallback::Truncate)),
                Box::new(TruncateStrategy::new()),
            ])),
        ),
        ("clear-tools, reaching the budget", Box::new(ClearToolOutputs::new().reach_budget(true))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn every_strategy_keeps_the_instruction_in_view((history, task, budget) in with_budgets()) {
        prop_assert_eq!(instruction(&history), Some(1));
        prop_assert_eq!(validate(&history), Ok(()));
        let room = room_for_a_copy(&history, budget);
        for (name, strategy) in strategies() {
            let done = futures::executor::block_on(strategy.compact_boxed(&history, budget, &Quarter))
                .expect("these strategies do not fail");
            prop_assert_eq!(validate(&done.history), Ok(()), "{}", name);
            if room && done.report.fits {
                prop_assert!(holds_instruction(&done.history, &task), "{} at {} lost the task: {:?}", name, budget, done.report);
            }
        }
        // The window policies keep it in the window: the count policies always, the token window when it fits beside the newest unit.
        let window = Window::new(&history);
        for (name, selection) in [
            ("last messages", SlidingWindow::last_messages(8).select(&window)),
            ("last turns", LastTurns::new(1).select(&window)),
        ] {
            prop_assert!(selection.kept().any(|index| index == 1), "{} left the instruction out", name);
        }
        let token_window = TokenWindow::new(budget, Quarter);
        let fits_beside = {
            let newest = units(&history).last().map_or(0, |unit| unit.start());
            let mut staying = vec![history[0].clone(), history[1].clone()];
            staying.extend(history[newest..].iter().cloned());
            Quarter.count_prompt(&staying) <= budget.get().saturating_sub(token_window.reserve())
        };
        if fits_beside {
            prop_assert!(token_window.select(&window).kept().any(|index| index == 1), "the token window left the instruction out at {}", budget);
        }
        if room {
            let fitted = fit_prompt(history.clone(), &Quarter, budget);
            if let Ok(fitted) = fitted {
                prop_assert!(holds_instruction(&fitted, &task), "fit_prompt at {} lost the task", budget);
            }
        }
    }
}

#[test]
fn most_generated_cases_leave_room_for_the_instruction() {
    // Run the property's cases again through the same generator and count how many were checked.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut roomy = 0;
    for _ in 0..CASES {
        let (history, _, budget) = with_budgets().new_tree(&mut runner).expect("a case").current();
        roomy += usize::from(room_for_a_copy(&history, budget));
    }
    assert!(roomy * 10 >= CASES as usize * 8, "only {roomy} of {CASES} cases leave room for the instruction");
}

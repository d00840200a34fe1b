//! Property tests of `TruncateStrategy` and `ClearToolOutputs` over generated histories, budgets and settings.

use std::collections::HashMap;
use std::num::NonZeroU32;

use proptest::prelude::*;
use proptest::sample::subsequence;
use tidemark_compaction::{ClearToolOutputs, Compacted, CompactionStrategy, TruncateStrategy};
use tidemark_core::{Message, Outcome, Part, Role, TokenCounter, Unit, task, units, validate};
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::strategies::{HistoryConfig, arb_history, arb_history_with};

/// Cases per property.
const CASES: u32 = 1_000;

/// Histories of the default shape, and sometimes long ones with many parallel calls, pins and system messages.
fn histories() -> impl Strategy<Value = Vec<Message>> {
    let long = HistoryConfig::default()
        .with_max_units(80)
        .with_max_parallel_calls(8)
        .with_pinned_ratio(0.2)
        .with_system_ratio(0.1);
    prop_oneof![3 => arb_history(), 1 => arb_history_with(long)]
}

/// A history and a budget between one token and a little more than the history costs.
///
/// Most budgets are close to the history's cost, where a strategy has to stop
/// part of the way rather than do all it can.
fn histories_and_budgets() -> impl Strategy<Value = (Vec<Message>, NonZeroU32)> {
    (histories(), prop_oneof![0..=120_u64, 75..=100_u64, 92..=100_u64]).prop_map(|(history, percent)| {
        let tokens = u64::from(Quarter.count_prompt(&history));
        let budget = u32::try_from(tokens * percent / 100).unwrap_or(u32::MAX);
        (history, NonZeroU32::new(budget).unwrap_or(NonZeroU32::MIN))
    })
}

/// Allowances of recent tool output, mostly smaller than what the generated histories hold.
fn allowances() -> impl Strategy<Value = u32> {
    prop_oneof![2 => 0..=40_u32, 1 => 0..=300_u32]
}

/// Clearing strategies with any allowance and some of the generated tool names excluded.
fn clear_strategies() -> impl Strategy<Value = ClearToolOutputs> {
    let tools = vec!["read_file", "run_shell", "search", "db.query", "翻訳"];
    (allowances(), subsequence(tools, 0..=2))
        .prop_map(|(tokens, excluded)| ClearToolOutputs::new().keep_recent_tokens(tokens).excluding(excluded))
}

fn run(strategy: &impl CompactionStrategy, history: &[Message], budget: NonZeroU32) -> Compacted {
    futures::executor::block_on(strategy.compact(history, budget, &Quarter))
        .expect("these strategies never fail")
}

/// The guarantees every strategy keeps: validity, no growth, and a report that tells the truth.
fn assert_contract(input: &[Message], output: &Compacted, budget: NonZeroU32) {
    assert_eq!(validate(input), Ok(()), "the generator makes valid histories");
    assert_eq!(validate(&output.history), Ok(()), "a valid history stays valid");
    let (before, after) = (Quarter.count_prompt(input), Quarter.count_prompt(&output.history));
    assert!(after <= before, "tokens rose from {before} to {after}");
    let report = &output.report;
    assert_eq!((report.tokens_before, report.tokens_after), (before, after));
    assert_eq!((report.messages_before, report.messages_after), (input.len(), output.history.len()));
    assert_eq!(report.fits, after <= budget.get());
    assert!(report.outcome == Outcome::Applied || output.history == input, "a skip changes nothing");
}

/// The pinned messages of `history`, in order.
fn pinned(history: &[Message]) -> Vec<&Message> {
    history.iter().filter(|message| message.pinned).collect()
}

/// Whether `part` appears in `whole` in order, not necessarily side by side.
fn is_subsequence(part: &[Message], whole: &[Message]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|wanted| rest.any(|message| message == wanted))
}

/// The newest human instruction by its definition: the latest user message with a part that is not a tool result.
fn instruction(history: &[Message]) -> Option<usize> {
    history.iter().rposition(|message| {
        message.role == Role::User && message.parts.iter().any(|part| !matches!(part, Part::ToolResult(_)))
    })
}

/// Truncation by the definition, recounting the whole prompt after every drop.
///
/// System and pinned units, the newest unit and the preserved tail stay; so
/// does the instruction's unit when it fits beside the units that must stay.
/// An instruction that had to go is carried in a cut copy where it stood.
fn reference_truncate(history: &[Message], budget: NonZeroU32, preserve_last: usize) -> Vec<Message> {
    let all: Vec<Unit> = units(history).collect();
    let tail_start = history.len().saturating_sub(preserve_last);
    let must = |position: usize, unit: &Unit| {
        unit.is_pinned(history) || history[unit.start()].role == Role::System || position + 1 == all.len()
    };
    let held =
        instruction(history).and_then(|index| all.iter().position(|unit| unit.range().contains(&index)));
    let staying: Vec<Message> = all
        .iter()
        .enumerate()
        .filter(|(position, unit)| must(*position, unit) || Some(*position) == held)
        .flat_map(|(_, unit)| history[unit.range()].to_vec())
        .collect();
    let instruction_stays = held.is_some() && Quarter.count_prompt(&staying) <= budget.get();
    let mut keep = vec![true; all.len()];
    let kept = |keep: &[bool]| -> Vec<Message> {
        all.iter()
            .zip(keep)
            .filter(|(_, kept)| **kept)
            .flat_map(|(unit, _)| history[unit.range()].to_vec())
            .collect()
    };
    // An instruction that cannot stay keeps room for its cut copy: itself and the marker, at most a quarter of the budget.
    let carry = match instruction(history) {
        Some(index) if held.is_some() && !instruction_stays => {
            let wanted = Quarter.count(&history[index]) + Quarter.count_text(task::CUT_MARKER);
            wanted.min(budget.get() / 4)
        }
        _ => 0,
    };
    for (position, unit) in all.iter().enumerate() {
        if Quarter.count_prompt(&kept(&keep)) + carry <= budget.get() {
            break;
        }
        let protected = must(position, unit) || (instruction_stays && Some(position) == held);
        if !protected && unit.end() <= tail_start {
            keep[position] = false;
        }
    }
    let Some(dropped) = held.filter(|position| !keep[*position]) else { return kept(&keep) };
    let room = budget.get().saturating_sub(Quarter.count_prompt(&kept(&keep)));
    let copy = instruction(history).and_then(|index| task::carried(&history[index], room, &Quarter));
    let mut out = Vec::new();
    for (position, (unit, kept)) in all.iter().zip(&keep).enumerate() {
        if position == dropped {
            out.extend(copy.clone());
        }
        if *kept {
            out.extend(history[unit.range()].iter().cloned());
        }
    }
    out
}

/// `output` without the cut or text-only copy of the instruction a truncation may carry.
fn without_carried(output: &[Message], history: &[Message]) -> Vec<Message> {
    let copy = instruction(history).map(|index| Message::user(history[index].text().into_owned()));
    output
        .iter()
        .filter(|message| {
            !message.text().ends_with(task::CUT_MARKER)
                && (history.contains(message) || Some(*message) != copy.as_ref())
        })
        .cloned()
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn truncate_keeps_the_contract((history, budget) in histories_and_budgets(), preserve in 0..6_usize) {
        let output = run(&TruncateStrategy::new().preserve_last(preserve), &history, budget);
        assert_contract(&history, &output, budget);
    }

    #[test]
    fn truncate_drops_the_oldest_units_and_no_more((history, budget) in histories_and_budgets(), preserve in 0..6_usize) {
        let output = run(&TruncateStrategy::new().preserve_last(preserve), &history, budget);
        prop_assert_eq!(output.history, reference_truncate(&history, budget, preserve));
    }

    #[test]
    fn truncate_keeps_a_subsequence_with_every_pinned_and_system_message((history, budget) in histories_and_budgets()) {
        let output = without_carried(&run(&TruncateStrategy::new(), &history, budget).history, &history);
        prop_assert!(is_subsequence(&output, &history));
        prop_assert_eq!(pinned(&output), pinned(&history));
        let system = |history: &[Message]| -> Vec<Message> {
            history.iter().filter(|message| message.role == Role::System).cloned().collect()
        };
        prop_assert_eq!(system(&output), system(&history));
    }

    #[test]
    fn truncate_keeps_the_preserved_tail((history, budget) in histories_and_budgets(), preserve in 0..12_usize) {
        let output = run(&TruncateStrategy::new().preserve_last(preserve), &history, budget).history;
        let tail = preserve.min(history.len());
        prop_assert!(output.len() >= tail);
        prop_assert_eq!(&output[output.len() - tail..], &history[history.len() - tail..]);
    }

    #[test]
    fn truncate_leaves_a_history_within_the_budget_alone(history in histories(), extra in 0..100_u32) {
        let budget = NonZeroU32::MIN.saturating_add(Quarter.count_prompt(&history).saturating_add(extra));
        let output = run(&TruncateStrategy::new(), &history, budget);
        prop_assert_eq!(output.report.outcome, Outcome::Skipped);
        prop_assert_eq!(output.history, history);
    }

    #[test]
    fn truncate_twice_is_truncate_once((history, budget) in histories_and_budgets(), preserve in 0..6_usize) {
        let strategy = TruncateStrategy::new().preserve_last(preserve);
        let once = run(&strategy, &history, budget).history;
        prop_assert_eq!(run(&strategy, &once, budget).history, once);
    }

    #[test]
    fn clear_keeps_the_contract((history, budget) in histories_and_budgets(), strategy in clear_strategies()) {
        let output = run(&strategy, &history, budget);
        assert_contract(&history, &output, budget);
    }

    #[test]
    fn clear_changes_only_the_content_of_unpinned_results((history, budget) in histories_and_budgets(), strategy in clear_strategies()) {
        let output = run(&strategy, &history, budget).history;
        prop_assert_eq!(output.len(), history.len());
        prop_assert_eq!(pinned(&output), pinned(&history));
        for (before, after) in history.iter().zip(&output) {
            prop_assert_eq!(after.role, before.role);
            prop_assert_eq!(&after.name, &before.name);
            prop_assert_eq!(after.pinned, before.pinned);
            prop_assert_eq!(after.parts.len(), before.parts.len());
            for (old, new) in before.parts.iter().zip(&after.parts) {
                match (old, new) {
                    (Part::ToolResult(old), Part::ToolResult(new)) => {
                        prop_assert_eq!((&new.call_id, new.is_error), (&old.call_id, old.is_error));
                    }
                    _ => prop_assert_eq!(new, old),
                }
            }
        }
    }

    #[test]
    fn clear_names_the_tool_spares_recent_and_excluded_output_and_stops_once_it_fits(
        (history, budget) in histories_and_budgets(),
        allowance in allowances(),
        excluded in subsequence(vec!["read_file", "run_shell", "search"], 0..=2),
    ) {
        let strategy = ClearToolOutputs::new().keep_recent_tokens(allowance).excluding(excluded.clone());
        let output = run(&strategy, &history, budget).history;
        let tools: HashMap<&str, &str> =
            history.iter().flat_map(Message::tool_calls).map(|call| (call.id.as_str(), call.name.as_str())).collect();
        let pinned_units: Vec<bool> = {
            let mut flags = vec![false; history.len()];
            for unit in units(&history).filter(|unit| unit.is_pinned(&history)) {
                flags[unit.range()].fill(true);
            }
            flags
        };
        // Every result that could be cleared, oldest first, with whether it was.
        let mut clearable: Vec<(u32, bool, (usize, usize))> = Vec::new();
        for (index, (before, after)) in history.iter().zip(&output).enumerate() {
            for (part, (old, new)) in before.tool_results().zip(after.tool_results()).enumerate() {
                let tool = tools.get(old.call_id.as_str()).copied();
                let changed = old.content != new.content;
                if changed {
                    let shown = tool.filter(|tool| !tool.is_empty()).unwrap_or("a tool");
                    prop_assert_eq!(&new.content, &expected_placeholder(shown, old.content.len()));
                }
                let spared = pinned_units[index] || tool.is_some_and(|tool| excluded.contains(&tool));
                prop_assert!(!(spared && changed), "a pinned or excluded result was cleared");
                if !spared {
                    clearable.push((Quarter.count_text(&old.content), changed, (index, part)));
                }
            }
        }
        if let Some(newest) = clearable.iter().rposition(|(_, changed, _)| *changed) {
            // The newest cleared result was beyond the allowance of recent output.
            let recent: u32 = clearable[newest..].iter().map(|(tokens, _, _)| tokens).sum();
            prop_assert!(recent > allowance, "{recent} tokens of recent output were within {allowance}");
            // Clearing stopped as soon as it fitted: without the last one cleared, it would not.
            let (index, part) = clearable[newest].2;
            let mut undone = output.clone();
            let original = history[index].tool_results().nth(part).map(|result| result.content.clone());
            if let Some(Part::ToolResult(result)) =
                undone[index].parts.iter_mut().filter(|part| matches!(part, Part::ToolResult(_))).nth(part)
            {
                result.content = original.unwrap_or_default();
            }
            prop_assert!(Quarter.count_prompt(&undone) > budget.get());
        }
    }

    #[test]
    fn clear_leaves_a_history_within_the_budget_alone(history in histories(), extra in 0..100_u32, strategy in clear_strategies()) {
        let budget = NonZeroU32::MIN.saturating_add(Quarter.count_prompt(&history).saturating_add(extra));
        let output = run(&strategy, &history, budget);
        prop_assert_eq!(output.report.outcome, Outcome::Skipped);
        prop_assert_eq!(output.history, history);
    }

    #[test]
    fn clear_twice_is_clear_once((history, budget) in histories_and_budgets(), strategy in clear_strategies()) {
        let once = run(&strategy, &history, budget).history;
        prop_assert_eq!(run(&strategy, &once, budget).history, once);
    }
}

/// The placeholder as documented: `[output of read_file cleared: 1,840 bytes]`.
fn expected_placeholder(tool: &str, bytes: usize) -> String {
    let digits = bytes.to_string();
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|chunk| std::str::from_utf8(chunk).expect("ASCII digits"))
        .collect();
    format!("[output of {tool} cleared: {} bytes]", groups.join(","))
}

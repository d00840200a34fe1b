//! Unit tests of `ClearToolOutputs`: the placeholder, which results are cleared, and when clearing stops.

use std::num::NonZeroU32;

use tidemark_core::{Message, Outcome, Part, Role, TokenCounter, ToolCall, ToolResult};

use super::*;
use tidemark_testkit::counters::ByteCounter;

/// One token per byte of content, one per message, two per prompt: sums are easy to follow by hand.
const BYTES: ByteCounter = ByteCounter::new(1, 2);

/// A call of `tool` under `id` and a tool message with its result of `bytes` bytes.
fn exchange(id: &str, tool: &str, bytes: usize) -> [Message; 2] {
    [
        Message::assistant_tool_calls([ToolCall::with_raw_arguments(id, tool, "{}")]),
        Message::tool_result(id, "r".repeat(bytes)),
    ]
}

/// A history of a question, one exchange per `(id, tool, bytes)`, and an answer.
fn history(exchanges: &[(&str, &str, usize)]) -> Vec<Message> {
    let mut history = vec![Message::user("Look around.")];
    for (id, tool, bytes) in exchanges {
        history.extend(exchange(id, tool, *bytes));
    }
    history.push(Message::assistant("Done."));
    history
}

/// What a result's content is expected to be: untouched, or cleared with a placeholder.
fn kept(bytes: usize) -> String {
    "r".repeat(bytes)
}

/// Clear `history` towards `budget` and expect the results' contents, in order, and the outcome.
fn check(
    strategy: &ClearToolOutputs,
    history: &[Message],
    budget: u32,
    expected: &[String],
    outcome: Outcome,
) -> Compacted {
    let budget = NonZeroU32::new(budget).expect("tests use non-zero budgets");
    let compacted =
        futures::executor::block_on(strategy.compact(history, budget, &BYTES)).expect("clearing never fails");
    let contents: Vec<&str> = compacted
        .history
        .iter()
        .flat_map(Message::tool_results)
        .map(|result| result.content.as_str())
        .collect();
    assert_eq!(contents, expected, "result contents");
    assert_eq!(compacted.report.outcome, outcome);
    assert_eq!(compacted.report.strategy, "clear-tool-outputs");
    assert_eq!(compacted.report.tokens_after, BYTES.count_prompt(&compacted.history));
    // Only contents change: the shape of every message is the same.
    assert_eq!(shape(&compacted.history), shape(history));
    compacted
}

/// Everything about a history but its result contents.
fn shape(history: &[Message]) -> Vec<Message> {
    let mut history = history.to_vec();
    for part in history.iter_mut().flat_map(|message| message.parts.iter_mut()) {
        if let Part::ToolResult(result) = part {
            result.content.clear();
        }
    }
    history
}

fn note(compacted: &Compacted) -> &str {
    compacted.report.note.as_deref().unwrap_or_default()
}

#[test]
fn the_placeholder_names_the_tool_and_the_size() {
    let check = |tool: &str, bytes: usize, expected: &str| {
        assert_eq!(placeholder(tool, bytes), expected);
        assert!(is_placeholder(expected), "{expected:?} is recognised");
    };
    check("read_file", 1_840, "[output of read_file cleared: 1,840 bytes]");
    check("a tool", 0, "[output of a tool cleared: 0 bytes]");
    check("翻訳", 999, "[output of 翻訳 cleared: 999 bytes]");
    check("odd cleared: 3 bytes]", 1_000, "[output of odd cleared: 3 bytes] cleared: 1,000 bytes]");
    check("run_shell", 1_234_567, "[output of run_shell cleared: 1,234,567 bytes]");
}

#[test]
fn other_text_is_not_taken_for_a_placeholder() {
    for text in
        ["", "[output of x cleared: many bytes]", "[output of x cleared:  bytes]", "ok", "[output of x]"]
    {
        assert!(!is_placeholder(text), "{text:?}");
    }
}

#[test]
fn a_history_that_fits_is_left_alone() {
    let compacted = check(
        &ClearToolOutputs::new().keep_recent_tokens(0),
        &history(&[("a", "read_file", 200)]),
        1_000,
        &[kept(200)],
        Outcome::Skipped,
    );
    assert_eq!(note(&compacted), "already fits");
}

#[test]
fn the_oldest_results_are_cleared_first_until_the_prompt_fits() {
    // Each exchange costs 12 + 201 tokens and clearing a result frees 160; the whole history costs 660.
    let input = history(&[("a", "read_file", 200), ("b", "read_file", 200), ("c", "read_file", 200)]);
    let cleared = || placeholder("read_file", 200);
    let strategy = ClearToolOutputs::new().keep_recent_tokens(0);
    check(&strategy, &input, 600, &[cleared(), kept(200), kept(200)], Outcome::Applied);
    let compacted = check(&strategy, &input, 400, &[cleared(), cleared(), kept(200)], Outcome::Applied);
    assert_eq!((note(&compacted), compacted.report.fits), ("cleared 2 tool results (400 bytes)", true));
    let compacted = check(&strategy, &input, 100, &[cleared(), cleared(), cleared()], Outcome::Applied);
    assert!(!compacted.report.fits);
    assert!(
        note(&compacted).starts_with(
            "cleared 3 tool results (600 bytes); the prompt still exceeds the budget by 80 tokens: message 2 (41 tokens) \
             holds cleared output only"
        ),
        "{}",
        note(&compacted)
    );
}

#[test]
fn the_newest_output_within_the_allowance_is_kept() {
    let input = history(&[("a", "read_file", 200), ("b", "read_file", 200), ("c", "read_file", 200)]);
    let cleared = || placeholder("read_file", 200);
    let check_allowance = |tokens: u32, expected: &[String], outcome: Outcome| {
        check(&ClearToolOutputs::new().keep_recent_tokens(tokens), &input, 100, expected, outcome)
    };
    check_allowance(400, &[cleared(), kept(200), kept(200)], Outcome::Applied);
    check_allowance(399, &[cleared(), cleared(), kept(200)], Outcome::Applied);
    check_allowance(199, &[cleared(), cleared(), cleared()], Outcome::Applied);
    let compacted = check_allowance(600, &[kept(200), kept(200), kept(200)], Outcome::Skipped);
    assert_eq!(
        note(&compacted),
        "no tool output old enough to clear; the prompt still exceeds the budget by 560 tokens: \
         message 2 (201 tokens) is recent output within the kept allowance (keep_recent_tokens; reach_budget \
         clears it), message 4 (201 tokens) is recent output within the kept allowance (keep_recent_tokens; \
         reach_budget clears it), message 6 (201 tokens) is recent output within the kept allowance \
         (keep_recent_tokens; reach_budget clears it), message 0 (13 tokens) is not tool output"
    );
    assert_eq!(ClearToolOutputs::new(), ClearToolOutputs::new().keep_recent_tokens(2_000));
}

#[test]
fn reaching_the_budget_clears_recent_output_but_not_the_newest_units() {
    let mut input = history(&[("a", "read_file", 200), ("b", "read_file", 200), ("c", "read_file", 200)]);
    let cleared = || placeholder("read_file", 200);
    let reaching = ClearToolOutputs::new().reach_budget(true);
    // The answer is the newest unit: every result before it may go.
    check(&reaching, &input, 100, &[cleared(), cleared(), cleared()], Outcome::Applied);
    // Without the answer, the last exchange is the newest unit, and the model has not read its output yet.
    input.pop();
    let compacted = check(&reaching, &input, 100, &[cleared(), cleared(), kept(200)], Outcome::Applied);
    assert!(!compacted.report.fits);
    assert!(
        note(&compacted).contains("message 6 (201 tokens) is output of the newest unit, not answered yet"),
        "{}",
        note(&compacted)
    );
    // It clears no more than the budget needs, oldest first.
    let one_less = BYTES.count_prompt(&input) - 100;
    check(&reaching, &input, one_less, &[cleared(), kept(200), kept(200)], Outcome::Applied);
}

#[test]
fn excluded_tools_are_untouched_and_use_none_of_the_allowance() {
    let input = history(&[("a", "read_file", 200), ("b", "run_shell", 200), ("c", "read_file", 200)]);
    let shell = placeholder("run_shell", 200);
    let strategy = ClearToolOutputs::new().keep_recent_tokens(0).exclude("read_file");
    check(&strategy, &input, 1, &[kept(200), shell, kept(200)], Outcome::Applied);
    let strategy = ClearToolOutputs::new().keep_recent_tokens(200).exclude("read_file");
    check(&strategy, &input, 1, &[kept(200), kept(200), kept(200)], Outcome::Skipped);
    let strategy = ClearToolOutputs::new().keep_recent_tokens(0).excluding(["read_file", "run_shell"]);
    check(&strategy, &input, 1, &[kept(200), kept(200), kept(200)], Outcome::Skipped);
}

#[test]
fn results_in_pinned_units_are_untouched() {
    let strategy = ClearToolOutputs::new().keep_recent_tokens(0);
    let cleared = placeholder("read_file", 200);
    for pinned in [2, 1] {
        let mut input = history(&[("a", "read_file", 200), ("b", "read_file", 200)]);
        input[pinned].pinned = true;
        check(&strategy, &input, 1, &[kept(200), cleared.clone()], Outcome::Applied);
    }
}

#[test]
fn parallel_results_keep_their_ids_error_flags_and_order() {
    let input = vec![
        Message::user("Compare."),
        Message::assistant("Reading both.")
            .with_part(Part::ToolCall(ToolCall::with_raw_arguments("a", "read_file", "{}")))
            .with_part(Part::ToolCall(ToolCall::with_raw_arguments("b", "run_shell", "{}"))),
        Message::new(
            Role::Tool,
            vec![
                Part::ToolResult(ToolResult::error("b", "e".repeat(100))),
                Part::ToolResult(ToolResult::new("a", kept(100))),
            ],
        ),
        Message::assistant("Done."),
    ];
    let strategy = ClearToolOutputs::new().keep_recent_tokens(0);
    // One result frees enough: the second, in the same message, stays.
    let compacted =
        check(&strategy, &input, 200, &[placeholder("run_shell", 100), kept(100)], Outcome::Applied);
    let results: Vec<&ToolResult> = compacted.history[2].tool_results().collect();
    assert_eq!((results[0].is_error, results[1].is_error), (true, false));
    check(
        &strategy,
        &input,
        1,
        &[placeholder("run_shell", 100), placeholder("read_file", 100)],
        Outcome::Applied,
    );
}

#[test]
fn a_result_without_a_named_call_is_output_of_a_tool() {
    let mut input = history(&[("a", "", 200)]);
    input.push(Message::tool_result("stray", kept(200)));
    let expected = [placeholder("a tool", 200), placeholder("a tool", 200)];
    check(&ClearToolOutputs::new().keep_recent_tokens(0), &input, 1, &expected, Outcome::Applied);
}

#[test]
fn results_smaller_than_their_placeholder_stay() {
    let input = history(&[("a", "read_file", 10), ("b", "read_file", 10)]);
    let compacted = check(
        &ClearToolOutputs::new().keep_recent_tokens(0),
        &input,
        1,
        &[kept(10), kept(10)],
        Outcome::Skipped,
    );
    assert!(
        note(&compacted)
            .starts_with("no old tool output is larger than its placeholder; the prompt still exceeds"),
        "{}",
        note(&compacted)
    );
    assert!(
        note(&compacted).contains("(11 tokens) is output no larger than its placeholder"),
        "{}",
        note(&compacted)
    );
}

#[test]
fn clearing_twice_is_clearing_once() {
    let input =
        history(&[("a", "read_file", 200), ("b", "run_shell", 5), ("c", "", 300), ("d", "calc", 200)]);
    for (allowance, budget) in [(0, 1), (0, 600), (250, 1), (250, 400), (1_000, 1)] {
        let strategy = ClearToolOutputs::new().keep_recent_tokens(allowance);
        let budget = NonZeroU32::new(budget).expect("non-zero");
        let run = |history: &[Message]| {
            futures::executor::block_on(strategy.compact(history, budget, &BYTES))
                .expect("clearing never fails")
        };
        let once = run(&input).history;
        assert_eq!(run(&once).history, once, "allowance {allowance}, budget {budget}");
    }
}

#[test]
fn digits_are_grouped_by_thousands() {
    for (value, expected) in
        [(0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (12_345, "12,345"), (100_000, "100,000")]
    {
        assert_eq!(grouped(value), expected);
    }
}

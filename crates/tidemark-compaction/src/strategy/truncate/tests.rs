//! Unit tests of `TruncateStrategy`: which units go, which stay, and what the report says.

use std::num::NonZeroU32;

use tidemark_core::{Message, Outcome, Part, Role, TokenCounter, ToolCall, ToolResult};

use super::*;
use tidemark_testkit::counters::ByteCounter;

/// One token per byte of content, one per message, two per prompt: sums are easy to follow by hand.
const BYTES: ByteCounter = ByteCounter::new(1, 2);

/// A text message of `role` that costs exactly `tokens` tokens with [`BYTES`].
fn text(role: Role, tokens: usize) -> Message {
    Message::new(role, vec![Part::text("x".repeat(tokens - 1))])
}

fn user(tokens: usize) -> Message {
    text(Role::User, tokens)
}

fn assistant(tokens: usize) -> Message {
    text(Role::Assistant, tokens)
}

/// An assistant message calling tool `t` once per id, costing `1 + 3 × ids` tokens.
fn calls(ids: &[&str]) -> Message {
    Message::assistant_tool_calls(ids.iter().map(|id| ToolCall::with_raw_arguments(*id, "t", "{}")))
}

/// A tool message with one result of `bytes` bytes per id, costing `1 + bytes × ids` tokens.
fn results(ids: &[&str], bytes: usize) -> Message {
    let parts = ids.iter().map(|id| Part::ToolResult(ToolResult::new(*id, "r".repeat(bytes)))).collect();
    Message::new(Role::Tool, parts)
}

/// Truncate `history` to `budget` and expect the messages at `kept`, the outcome and whether it fits.
fn check(
    strategy: TruncateStrategy,
    history: &[Message],
    budget: u32,
    kept: &[usize],
    outcome: Outcome,
    fits: bool,
) -> Report {
    let budget = NonZeroU32::new(budget).expect("tests use non-zero budgets");
    let compacted = futures::executor::block_on(strategy.compact(history, budget, &BYTES))
        .expect("truncation never fails");
    let expected: Vec<Message> = kept.iter().map(|&index| history[index].clone()).collect();
    assert_eq!(compacted.history, expected, "kept messages");
    assert_eq!((compacted.report.outcome, compacted.report.fits), (outcome, fits), "outcome and fit");
    assert_eq!(compacted.report.strategy, "truncate");
    assert_eq!(compacted.report.tokens_after, BYTES.count_prompt(&expected));
    compacted.report
}

fn note(report: &Report) -> &str {
    report.note.as_deref().unwrap_or_default()
}

#[test]
fn a_history_that_fits_is_left_alone() {
    let history = [user(10), assistant(10)];
    let report = check(TruncateStrategy::new(), &history, 22, &[0, 1], Outcome::Skipped, true);
    assert_eq!(note(&report), "already fits");
}

#[test]
fn the_oldest_units_go_first_and_only_as_many_as_needed() {
    let history = [user(10), assistant(10), user(10), assistant(10), user(10)];
    check(TruncateStrategy::new(), &history, 32, &[2, 3, 4], Outcome::Applied, true);
    check(TruncateStrategy::new(), &history, 42, &[1, 2, 3, 4], Outcome::Applied, true);
    let report = check(TruncateStrategy::new(), &history, 51, &[1, 2, 3, 4], Outcome::Applied, true);
    assert_eq!(note(&report), "dropped the oldest 1 unit (1 message)");
}

#[test]
fn pinned_units_and_system_messages_stay_in_place() {
    let history =
        [text(Role::System, 10), user(10), assistant(10).pinned(), user(10), assistant(10), user(10)];
    check(TruncateStrategy::new(), &history, 35, &[0, 2, 5], Outcome::Applied, true);
    // A pin on a tool result keeps its whole exchange.
    let history = [user(10), calls(&["a"]), results(&["a"], 5).pinned(), user(10), assistant(10)];
    check(TruncateStrategy::new(), &history, 20, &[1, 2, 4], Outcome::Applied, false);
}

#[test]
fn the_preserved_tail_is_kept_and_a_unit_overlapping_it_stays_whole() {
    let history = [user(10), assistant(10), user(10), assistant(10), user(10)];
    let report =
        check(TruncateStrategy::new().preserve_last(3), &history, 12, &[2, 3, 4], Outcome::Applied, false);
    assert_eq!(
        note(&report),
        "dropped the oldest 2 units (2 messages); the prompt still needs 32 tokens of a budget of 12, \
         and the rest is pinned, a system message, preserved, or the newest"
    );
    let history = [user(10), calls(&["a", "b"]), results(&["b"], 5), results(&["a"], 5), user(10)];
    check(TruncateStrategy::new().preserve_last(2), &history, 5, &[1, 2, 3, 4], Outcome::Applied, false);
    check(TruncateStrategy::new().preserve_last(1), &history, 5, &[4], Outcome::Applied, false);
}

#[test]
fn parallel_calls_go_or_stay_with_all_their_results() {
    // The results of three parallel calls arrive out of order over two tool messages (no user instruction, so only units decide).
    let history = [
        assistant(10),
        calls(&["a", "b", "c"]),
        results(&["c"], 20),
        results(&["a", "b"], 20),
        assistant(10),
    ];
    check(TruncateStrategy::new(), &history, 84, &[1, 2, 3, 4], Outcome::Applied, true);
    check(TruncateStrategy::new(), &history, 83, &[4], Outcome::Applied, true);
}

#[test]
fn the_newest_unit_is_kept_even_when_it_alone_is_over_the_budget() {
    check(TruncateStrategy::new(), &[user(10), user(100)], 50, &[1], Outcome::Applied, false);
    // An exchange still waiting for a result is the newest unit too.
    let history = [user(10), calls(&["a", "b"]), results(&["b"], 50)];
    check(TruncateStrategy::new(), &history, 20, &[1, 2], Outcome::Applied, false);
}

#[test]
fn nothing_droppable_is_a_skip() {
    let cases: [(TruncateStrategy, Vec<Message>); 4] = [
        (TruncateStrategy::new(), vec![user(10).pinned(), text(Role::System, 10), user(10)]),
        (TruncateStrategy::new(), vec![user(100)]),
        (TruncateStrategy::new(), vec![]),
        (TruncateStrategy::new().preserve_last(usize::MAX), vec![user(10), user(10)]),
    ];
    for (strategy, history) in cases {
        let kept: Vec<usize> = (0..history.len()).collect();
        let report = check(strategy, &history, 1, &kept, Outcome::Skipped, false);
        assert_eq!(
            note(&report),
            "nothing can be dropped: every unit is pinned, a system message, preserved, or the newest"
        );
    }
}

#[test]
fn invalid_histories_are_handled_without_panicking() {
    // Stray results and calls without results are units like any other.
    let history = [results(&["zz"], 10), calls(&["a"]), user(10), results(&["a"], 10), user(10)];
    check(TruncateStrategy::new(), &history, 23, &[3, 4], Outcome::Applied, true);
}

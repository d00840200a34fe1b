//! Unit tests of the window policies on small hand-written histories.

use std::num::NonZeroU32;

use tidemark_core::{MemoryPolicy, Message, ToolCall, Window};

use super::{LastTurns, SlidingWindow, TokenWindow};
use crate::counter::HeuristicCounter;

fn call(id: &str) -> Message {
    Message::assistant_tool_calls([ToolCall::with_raw_arguments(id, "read_file", "{}")])
}

fn check(
    policy: &impl MemoryPolicy,
    history: &[Message],
    tokens: Option<&[u32]>,
    fixed: u32,
    kept: &[usize],
    over: bool,
) {
    let mut window = Window::new(history).with_fixed_tokens(fixed);
    if let Some(tokens) = tokens {
        window = window.with_tokens(tokens);
    }
    let selection = policy.select(&window);
    assert_eq!(selection.kept().collect::<Vec<_>>(), kept, "kept of {history:#?}");
    assert_eq!(selection.over_budget(), over, "over budget of {history:#?}");
}

fn window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

#[test]
fn sliding_window_counts_messages_in_whole_units() {
    // The user's instruction is retained when the cut passes it, as a pinned message is.
    let history = [Message::user("u"), call("a"), Message::tool_result("a", "r"), Message::assistant("x")];
    check(&SlidingWindow::last_messages(1), &history, None, 0, &[0, 3], false);
    // Two messages would split the exchange, so only the newest unit fits.
    check(&SlidingWindow::last_messages(2), &history, None, 0, &[0, 3], false);
    check(&SlidingWindow::last_messages(3), &history, None, 0, &[0, 1, 2, 3], false);
    check(&SlidingWindow::last_messages(0), &history, None, 0, &[0, 3], false);
    check(&SlidingWindow::last_messages(9), &history, None, 0, &[0, 1, 2, 3], false);
    // Without a user message only the units count.
    let agent =
        [Message::assistant("plan"), call("a"), Message::tool_result("a", "r"), Message::assistant("x")];
    check(&SlidingWindow::last_messages(1), &agent, None, 0, &[3], false);
}

#[test]
fn sliding_window_keeps_pins_on_top_of_the_count() {
    let history =
        [Message::system("s"), Message::user("pinned").pinned(), Message::user("a"), Message::user("b")];
    check(&SlidingWindow::last_messages(1), &history, None, 0, &[0, 1, 3], false);
}

#[test]
fn last_turns_cuts_at_user_messages() {
    let history = [
        Message::system("s"),
        Message::user("one"),
        call("a"),
        Message::tool_result("a", "r"),
        Message::user("two"),
        Message::assistant("done"),
    ];
    check(&LastTurns::new(1), &history, None, 0, &[0, 4, 5], false);
    check(&LastTurns::new(2), &history, None, 0, &[0, 1, 2, 3, 4, 5], false);
    check(&LastTurns::new(0), &history, None, 0, &[0, 4, 5], false);
}

#[test]
fn token_window_keeps_everything_that_fits() {
    let history = [Message::user("a"), Message::user("b")];
    check(&window(100), &history, Some(&[40, 40]), 20, &[0, 1], false);
}

#[test]
fn token_window_cuts_down_to_the_low_watermark() {
    let history: Vec<Message> = (0..6).map(|i| Message::user(format!("{i}"))).collect();
    // 6 × 20 = 120 > 100; the cut aims at 60: three messages.
    check(&window(100), &history, Some(&[20; 6]), 0, &[3, 4, 5], false);
    // Fixed tokens (a summary) count against the same budget.
    check(&window(100), &history, Some(&[20; 6]), 20, &[4, 5], false);
}

#[test]
fn token_window_counts_the_reserve() {
    let history = [Message::user("a"), Message::user("b")];
    let policy = window(100).with_reserve(30).expect("valid reserve");
    check(&policy, &history, Some(&[40, 40]), 0, &[1], false);
}

#[test]
fn token_window_keeps_an_oversized_newest_unit() {
    let history = [Message::user("a"), call("a"), Message::tool_result("a", "huge")];
    check(&window(100), &history, Some(&[10, 10, 500]), 0, &[1, 2], true);
}

#[test]
fn token_window_keeps_pins_and_reports_when_they_overflow() {
    let history =
        [Message::system("rules"), Message::user("a"), Message::user("b").pinned(), Message::user("c")];
    check(&window(100), &history, Some(&[30, 30, 30, 30]), 0, &[0, 2, 3], false);
    check(&window(100), &history, Some(&[80, 30, 30, 30]), 0, &[0, 2, 3], true);
}

#[test]
fn token_window_counts_for_itself_without_stored_counts() {
    let history: Vec<Message> =
        (0..50).map(|_| Message::user("a fairly long message of forty bytes....")).collect();
    let selection = window(200).select(&Window::new(&history));
    assert!(selection.cut() > 0, "a 50-message history must not fit 200 heuristic tokens");
}

#[test]
fn invalid_settings_are_typed_errors() {
    use crate::error::PolicyError;
    assert_eq!(
        window(100).with_reserve(100).err(),
        Some(PolicyError::ReserveTooLarge { reserve: 100, budget: 100 })
    );
    assert_eq!(window(100).with_low_watermark(0).err(), Some(PolicyError::LowWatermark { percent: 0 }));
    assert_eq!(window(100).with_low_watermark(101).err(), Some(PolicyError::LowWatermark { percent: 101 }));
    assert_eq!(window(100).with_low_watermark(50).map(|w| w.low_watermark()).ok(), Some(50));
}

//! Tests of the strategies themselves: that every feature they promise actually occurs, and that mutations do what they say.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use tidemark_core::{
    AttachmentSource, Message, Part, Role, ToolCall, UnitKind, Violation, ViolationKind, units, validate,
};

use super::*;

/// `count` values of `strategy`, the same ones on every run.
fn sample<S: Strategy>(strategy: S, count: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).expect("the strategy rejects too often").current())
        .collect()
}

/// A feature of generated values: its name and a test of whether a value shows it.
type Feature<T> = (&'static str, fn(&T) -> bool);

/// Check that each feature occurs in at least one of `values`; the message lists the missing ones.
fn assert_all_occur<T>(values: &[T], features: &[Feature<T>]) {
    let missing: Vec<&str> =
        features.iter().filter(|(_, occurs)| !values.iter().any(occurs)).map(|(name, _)| *name).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

fn texts(history: &[Message]) -> impl Iterator<Item = &str> {
    history.iter().flat_map(|message| &message.parts).filter_map(|part| match part {
        Part::Text { text } => Some(text.as_str()),
        _ => None,
    })
}

fn calls(history: &[Message]) -> impl Iterator<Item = &ToolCall> {
    history.iter().flat_map(Message::tool_calls)
}

fn has_char_in(text: &str, low: char, high: char) -> bool {
    text.chars().any(|c| (low..=high).contains(&c))
}

/// Whether the last unit is an exchange with calls still unanswered.
fn ends_open(history: &[Message]) -> bool {
    let Some(last) = units(history).last() else { return false };
    let answered: Vec<&str> =
        history[last.range()].iter().flat_map(Message::tool_results).map(|r| r.call_id.as_str()).collect();
    last.kind() == UnitKind::ToolExchange
        && history[last.start()].tool_calls().any(|call| !answered.contains(&call.id.as_str()))
}

/// Whether some exchange's results arrive in another order than its calls were made.
fn reorders_results(history: &[Message]) -> bool {
    units(history).filter(|unit| unit.kind() == UnitKind::ToolExchange).any(|unit| {
        let made: Vec<&str> = history[unit.start()].tool_calls().map(|call| call.id.as_str()).collect();
        let arrived: Vec<&str> = history[unit.start() + 1..unit.end()]
            .iter()
            .flat_map(Message::tool_results)
            .map(|result| result.call_id.as_str())
            .collect();
        made.len() == arrived.len() && made != arrived
    })
}

#[test]
fn histories_show_every_feature_and_stay_valid() {
    let histories = sample(arb_history(), 200);
    for history in &histories {
        assert_eq!(validate(history), Ok(()), "{history:#?}");
    }
    assert_all_occur(
        &histories,
        &[
            ("empty history", |h| h.is_empty()),
            ("leading system message", |h| h.first().is_some_and(|m| m.role == Role::System)),
            ("system message after the start", |h| h.iter().skip(1).any(|m| m.role == Role::System)),
            ("parallel calls", |h| h.iter().any(|m| m.tool_calls().count() >= 2)),
            ("results spread over tool messages", |h| {
                units(h).any(|u| u.kind() == UnitKind::ToolExchange && u.len() >= 3)
            }),
            ("several results in one tool message", |h| h.iter().any(|m| m.tool_results().count() >= 2)),
            ("results out of call order", |h| reorders_results(h)),
            ("error results", |h| h.iter().flat_map(Message::tool_results).any(|r| r.is_error)),
            ("pinned user message", |h| h.iter().any(|m| m.pinned && m.role == Role::User)),
            ("pinned tool message", |h| h.iter().any(|m| m.pinned && m.role == Role::Tool)),
            ("OpenAI-style ids", |h| calls(h).any(|c| c.id.starts_with("call_"))),
            ("Anthropic-style ids", |h| calls(h).any(|c| c.id.starts_with("toolu_"))),
            ("text before calls", |h| {
                h.iter().any(|m| m.has_tool_calls() && matches!(m.parts.first(), Some(Part::Text { .. })))
            }),
            ("open trailing exchange", |h| ends_open(h)),
            ("trailing exchange without results", |h| h.last().is_some_and(Message::has_tool_calls)),
            ("open trailing exchange with some results", |h| {
                ends_open(h) && h.last().is_some_and(|m| m.role == Role::Tool)
            }),
            ("user attachment", |h| {
                h.iter().any(|m| m.parts.iter().any(|p| matches!(p, Part::Attachment(_))))
            }),
            ("user name", |h| h.iter().any(|m| m.name.is_some())),
            ("non-ASCII text", |h| texts(h).any(|t| !t.is_ascii())),
            ("empty text", |h| texts(h).any(str::is_empty)),
            ("malformed arguments", |h| calls(h).any(|c| c.parsed_arguments().is_err())),
            ("JSON arguments", |h| calls(h).any(|c| c.parsed_arguments().is_ok())),
        ],
    );
}

#[test]
fn history_configs_are_obeyed() {
    let no_trailing = HistoryConfig { allow_trailing_open_exchange: false, ..Default::default() };
    // Each config with a rule that every history generated from it obeys.
    type Case = (HistoryConfig, fn(&HistoryConfig, &[Message]) -> bool);
    let cases: &[Case] = &[
        (HistoryConfig { max_units: 0, ..Default::default() }, |_, h| h.is_empty()),
        (HistoryConfig { max_units: 1, ..Default::default() }, |_, h| units(h).count() <= 1),
        (HistoryConfig::default(), |c, h| units(h).count() <= c.max_units),
        (no_trailing, |_, h| !ends_open(h)),
        (HistoryConfig { pinned_ratio: 0.0, ..Default::default() }, |_, h| h.iter().all(|m| !m.pinned)),
        (HistoryConfig { pinned_ratio: 1.0, ..Default::default() }, |_, h| h.iter().all(|m| m.pinned)),
        (
            HistoryConfig { system_ratio: 1.0, allow_trailing_open_exchange: false, ..Default::default() },
            |_, h| h.iter().all(|m| m.role == Role::System),
        ),
        (HistoryConfig { max_parallel_calls: 0, ..Default::default() }, |_, h| {
            h.iter().all(|m| m.tool_calls().count() <= 1)
        }),
        (HistoryConfig { max_parallel_calls: 16, ..Default::default() }, |c, h| {
            h.iter().all(|m| m.tool_calls().count() <= c.max_parallel_calls)
        }),
        (HistoryConfig { pinned_ratio: f64::NAN, system_ratio: 7.0, ..Default::default() }, |_, h| {
            h.iter().all(|m| !m.pinned)
        }),
    ];
    for (config, holds) in cases {
        for history in sample(arb_history_with(config.clone()), 50) {
            assert_eq!(validate(&history), Ok(()), "{config:?}: {history:#?}");
            assert!(holds(config, &history), "{config:?}: {history:#?}");
        }
    }
}

#[test]
fn large_bounds_are_reached() {
    let config = HistoryConfig { max_units: 100, max_parallel_calls: 16, ..Default::default() };
    let histories = sample(arb_history_with(config), 50);
    assert_all_occur(
        &histories,
        &[
            ("at least 90 units", |h| units(h).count() >= 90),
            ("16 parallel calls", |h| h.iter().any(|m| m.tool_calls().count() == 16)),
        ],
    );
}

#[test]
fn texts_mix_scripts_and_stay_short() {
    let values = sample(arb_text(), 300);
    assert!(values.iter().all(|text| text.chars().count() <= MAX_TEXT_CHARS));
    assert_all_occur(
        &values,
        &[
            ("empty", |t| t.is_empty()),
            ("ASCII word", |t| t.contains("the") || t.contains("file")),
            ("newline", |t| t.contains('\n')),
            ("quote or backslash", |t| t.contains('"') || t.contains('\\')),
            ("accented Latin", |t| has_char_in(t, '\u{c0}', '\u{17f}')),
            ("CJK", |t| has_char_in(t, '\u{4e00}', '\u{9fff}')),
            ("emoji", |t| has_char_in(t, '\u{1f300}', '\u{1faff}')),
            ("Arabic or Hebrew", |t| has_char_in(t, '\u{590}', '\u{6ff}')),
            ("combining mark", |t| has_char_in(t, '\u{300}', '\u{36f}')),
            ("at the length limit", |t| t.chars().count() == MAX_TEXT_CHARS),
        ],
    );
}

#[test]
fn messages_use_every_role_and_part_kind() {
    let values = sample(arb_message(), 300);
    assert_all_occur(
        &values,
        &[
            ("system", |m| m.role == Role::System),
            ("user", |m| m.role == Role::User),
            ("assistant", |m| m.role == Role::Assistant),
            ("tool", |m| m.role == Role::Tool),
            ("no parts", |m| m.parts.is_empty()),
            ("three parts", |m| m.parts.len() == 3),
            ("named", |m| m.name.is_some()),
            ("unnamed", |m| m.name.is_none()),
            ("pinned", |m| m.pinned),
            ("unpinned", |m| !m.pinned),
            ("text", |m| m.parts.iter().any(|p| matches!(p, Part::Text { .. }))),
            ("tool call", Message::has_tool_calls),
            ("successful result", |m| m.tool_results().any(|r| !r.is_error)),
            ("failed result", |m| m.tool_results().any(|r| r.is_error)),
            ("URL attachment", |m| {
                m.parts
                    .iter()
                    .any(|p| matches!(p, Part::Attachment(a) if matches!(a.source, AttachmentSource::Url(_))))
            }),
            ("base64 attachment", |m| {
                m.parts.iter().any(
                    |p| matches!(p, Part::Attachment(a) if matches!(a.source, AttachmentSource::Base64(_))),
                )
            }),
        ],
    );
}

#[test]
fn tool_calls_have_valid_and_malformed_arguments() {
    let values = sample(arb_tool_call(), 300);
    assert_all_occur(
        &values,
        &[
            ("compact JSON object", |c| {
                c.parsed_arguments().is_ok_and(|v| v.is_object()) && !c.arguments.contains('\n')
            }),
            ("pretty-printed JSON", |c| c.parsed_arguments().is_ok() && c.arguments.contains('\n')),
            ("malformed JSON", |c| c.parsed_arguments().is_err()),
            ("empty object", |c| c.arguments == "{}"),
            ("OpenAI-style id", |c| c.id.starts_with("call_")),
            ("Anthropic-style id", |c| c.id.starts_with("toolu_")),
            ("non-ASCII tool name", |c| !c.name.is_ascii()),
        ],
    );
}

#[test]
fn conversation_ids_are_valid_and_varied() {
    let values = sample(arb_conversation_id(), 300);
    for id in &values {
        let text = id.as_str();
        assert!(!text.is_empty() && text.len() <= ConversationId::MAX_LEN, "{id:?}");
        assert!(!text.chars().any(char::is_control), "{id:?}");
    }
    assert_all_occur(
        &values,
        &[
            ("single character", |id| id.as_str().chars().count() == 1),
            ("long", |id| id.as_str().chars().count() >= 48),
            ("non-ASCII", |id| !id.as_str().is_ascii()),
            ("slash", |id| id.as_str().contains('/')),
            ("dash", |id| id.as_str().contains('-')),
            ("colon", |id| id.as_str().contains(':')),
        ],
    );
}

/// A history with a parallel exchange answered out of order and an open trailing exchange.
fn fixture() -> Vec<Message> {
    vec![
        Message::user("hi"),
        Message::assistant_tool_calls([
            ToolCall::new("a", "read_file", serde_json::json!({"path": "a"})),
            ToolCall::new("b", "read_file", serde_json::json!({"path": "b"})),
        ]),
        Message::tool_result("b", "beta"),
        Message::tool_result("a", "alpha"),
        Message::assistant("done"),
        Message::assistant_tool_calls([ToolCall::new("c", "run_shell", serde_json::json!({}))]),
    ]
}

fn orphan(call_id: &str) -> ViolationKind {
    ViolationKind::OrphanResult { call_id: call_id.into() }
}

#[test]
fn mutations_of_a_fixed_history_break_it_as_documented() {
    let duplicate = |call_id: &str| ViolationKind::DuplicateCallId { call_id: call_id.into() };
    let early = |call_id: &str| ViolationKind::ResultBeforeCall { call_id: call_id.into() };
    let cases = [
        (Mutation::DropCall, 0, 3, orphan("a")),
        (Mutation::DropCall, 1, 2, orphan("b")),
        (Mutation::DropCall, 2, 3, orphan("a")),
        (Mutation::MoveResultBeforeCall, 0, 1, early("b")),
        (Mutation::MoveResultBeforeCall, 1, 1, early("a")),
        (Mutation::DuplicateCallId, 0, 1, duplicate("a")),
        (Mutation::DuplicateCallId, 1, 1, duplicate("b")),
        (Mutation::DuplicateCallId, 2, 5, duplicate("c")),
        (Mutation::OrphanResult, 0, 1, orphan("call_orphan_0")),
        (Mutation::OrphanResult, 1, 4, orphan("call_orphan_0")),
        (Mutation::OrphanResult, 2, 5, orphan("call_orphan_0")),
    ];
    let history = fixture();
    for (mutation, pick, index, kind) in cases {
        let mutated = mutate(&history, mutation, pick).expect("the fixture has a place for every mutation");
        assert_eq!(validate(&mutated), Err(Violation::new(index, kind)), "{mutation:?} at {pick}");
    }
}

#[test]
fn mutations_without_a_place_give_none() {
    let texts_only = vec![Message::system("rules"), Message::user("hi"), Message::assistant("hello")];
    let unanswered = vec![Message::user("go"), fixture().remove(5)];
    let cases: [(&[Message], [bool; 4]); 3] = [
        (&[], [false, false, false, false]),
        (&texts_only, [false, false, false, true]),
        (&unanswered, [false, false, true, true]),
    ];
    for (history, applies) in cases {
        for (mutation, expected) in Mutation::ALL.into_iter().zip(applies) {
            assert_eq!(mutate(history, mutation, 3).is_some(), expected, "{mutation:?} on {history:?}");
        }
    }
}

#[test]
fn dropping_the_only_call_removes_its_message_and_orphan_ids_are_fresh() {
    let history = vec![
        Message::assistant_tool_calls([ToolCall::new("call_orphan_0", "calc", serde_json::json!({}))]),
        Message::tool_result("call_orphan_0", "4"),
    ];
    let dropped = mutate(&history, Mutation::DropCall, 0).expect("the call is answered");
    assert_eq!(dropped, history[1..]);
    let orphaned = mutate(&history, Mutation::OrphanResult, 0).expect("the exchange is complete");
    assert_eq!(validate(&orphaned), Err(Violation::new(2, orphan("call_orphan_1"))));
}

#[test]
fn mutations_apply_to_most_generated_histories() {
    let histories = sample(arb_history(), 200);
    for mutation in Mutation::ALL {
        let broken: Vec<Vec<Message>> =
            histories.iter().enumerate().filter_map(|(pick, h)| mutate(h, mutation, pick)).collect();
        assert!(broken.len() >= 100, "{mutation:?} applied to only {} of 200 histories", broken.len());
        assert!(broken.iter().all(|h| validate(h).is_err()), "{mutation:?} left a history valid");
    }
    for mutation in Mutation::ALL {
        for history in sample(arb_invalid_history(mutation), 20) {
            assert!(validate(&history).is_err(), "{mutation:?}: {history:#?}");
        }
    }
}

//! Unit tests of the partition and the validator, one small case per rule.

use super::*;
use crate::message::{Message, Part, ToolCall, ToolResult};

fn call(id: &str) -> ToolCall {
    ToolCall::with_raw_arguments(id, "tool", "{}")
}

fn calls(ids: &[&str]) -> Message {
    Message::assistant_tool_calls(ids.iter().map(|id| call(id)))
}

fn result(id: &str) -> Message {
    Message::tool_result(id, "ok")
}

fn check(history: &[Message], expected: Option<(usize, ViolationKind)>) {
    let got = validate(history).err().map(|v| (v.index, v.kind));
    assert_eq!(got, expected, "history: {history:#?}");
}

fn spans(history: &[Message]) -> Vec<Range<usize>> {
    units(history).map(|unit| unit.range()).collect()
}

#[test]
fn valid_histories_pass() {
    check(&[], None);
    check(&[Message::system("s"), Message::user("u"), Message::assistant("a")], None);
    check(
        &[Message::user("u"), calls(&["a", "b"]), result("b"), result("a"), Message::assistant("done")],
        None,
    );
    // A trailing exchange may still be waiting for some or all of its results.
    check(&[Message::user("u"), calls(&["a", "b"])], None);
    check(&[Message::user("u"), calls(&["a", "b"]), result("a")], None);
    // Several results in one tool message.
    let both = Message::new(
        Role::Tool,
        vec![Part::ToolResult(ToolResult::new("a", "1")), Part::ToolResult(ToolResult::new("b", "2"))],
    );
    check(&[calls(&["a", "b"]), both, Message::user("next")], None);
}

#[test]
fn each_rule_names_the_first_offending_message() {
    let id = |s: &str| s.to_owned();
    check(&[Message::user("u"), result("x")], Some((1, ViolationKind::OrphanResult { call_id: id("x") })));
    check(&[result("a"), calls(&["a"])], Some((0, ViolationKind::ResultBeforeCall { call_id: id("a") })));
    // A later exchange may reuse an id; its result answers the new call.
    check(&[calls(&["a"]), result("a"), calls(&["a"]), result("a")], None);
    check(
        &[calls(&["a"]), result("a"), calls(&["a"]), result("a"), result("a")],
        Some((4, ViolationKind::DuplicateResult { call_id: id("a") })),
    );
    check(&[calls(&["a", "a"])], Some((0, ViolationKind::DuplicateCallId { call_id: id("a") })));
    check(
        &[calls(&["a"]), result("a"), result("a")],
        Some((2, ViolationKind::DuplicateResult { call_id: id("a") })),
    );
    check(
        &[calls(&["a", "b"]), result("b"), Message::user("u")],
        Some((2, ViolationKind::MissingResults { call_ids: vec![id("a")] })),
    );
    check(
        &[Message::new(Role::User, vec![Part::ToolCall(call("a"))])],
        Some((0, ViolationKind::MisplacedToolCall)),
    );
    check(
        &[calls(&["a"]), Message::new(Role::User, vec![Part::ToolResult(ToolResult::new("a", "r"))])],
        Some((1, ViolationKind::MisplacedToolResult)),
    );
    check(&[calls(&["a"]), Message::new(Role::Tool, vec![])], Some((1, ViolationKind::MalformedToolMessage)));
    check(
        &[calls(&["a"]), result("a").with_part(Part::text("extra"))],
        Some((1, ViolationKind::MalformedToolMessage)),
    );
    check(&[calls(&[""])], Some((0, ViolationKind::EmptyCallId)));
    // A result arriving after its exchange was closed by another message.
    check(
        &[calls(&["a"]), Message::user("u"), result("a")],
        Some((1, ViolationKind::MissingResults { call_ids: vec![id("a")] })),
    );
}

#[test]
fn violation_display_is_lowercase_and_names_the_index() {
    let violation = validate(&[Message::user("u"), result("x")]).unwrap_err();
    assert_eq!(violation.to_string(), "message 1: tool result for unknown call id \"x\"");
}

#[test]
fn partition_groups_exchanges_and_covers_everything() {
    assert_eq!(spans(&[]), Vec::<Range<usize>>::new());
    let history = [
        Message::system("s"),
        Message::user("u"),
        calls(&["a", "b"]),
        result("a"),
        result("b"),
        calls(&["c"]),
        result("c"),
        Message::assistant("done"),
    ];
    assert_eq!(spans(&history), vec![0..1, 1..2, 2..5, 5..7, 7..8]);
    // Stray tool messages still land in exactly one unit each.
    assert_eq!(spans(&[result("x"), result("y"), Message::user("u")]), vec![0..1, 1..2, 2..3]);
    // A trailing exchange without results is a unit of one message.
    let trailing = [Message::user("u"), calls(&["a"])];
    let last = units(&trailing).last().expect("two units");
    assert_eq!((last.range(), last.kind()), (1..2, UnitKind::ToolExchange));
}

#[test]
fn a_pinned_message_pins_its_whole_unit() {
    let history = [calls(&["a"]), result("a").pinned(), Message::user("u")];
    let pinned: Vec<bool> = units(&history).map(|unit| unit.is_pinned(&history)).collect();
    assert_eq!(pinned, vec![true, false]);
}

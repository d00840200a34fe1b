//! The wire conversion: real transcripts, round trips (a property over generated histories), and malformed input named by index and field.

use proptest::prelude::*;
use serde_json::{Value, json};
use tidemark_core::{Message, Part, Role, validate};
use tidemark_providers::wire::{WireOptions, WireProblem, from_wire, message_from_wire, to_wire};
use tidemark_testkit::strategies::{arb_history, arb_message};

fn lines(name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read_to_string(path)
        .expect("test data")
        .lines()
        .map(|line| serde_json::from_str(line).expect("json"))
        .collect()
}

#[test]
fn real_transcripts_read_validate_and_round_trip() {
    for name in [
        "tau-bench-airline-gpt4o-task002-trial1.jsonl",
        "swe-agent-marshmallow-1867-fncall.jsonl",
        "openhands-sdk-hello-world-claude-sonnet-4.jsonl",
    ] {
        let values = lines(name);
        let messages = from_wire(&values).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(messages.len(), values.len(), "{name}: one tool result per wire message");
        validate(&messages).unwrap_or_else(|violation| panic!("{name}: {violation}"));
        let again = from_wire(&to_wire(&messages, WireOptions::transcript())).expect("re-reads");
        assert_eq!(again, messages, "{name}");
    }
}

/// The wire format has one result per tool message: split tidemark tool messages accordingly.
fn one_result_per_message(history: Vec<Message>) -> Vec<Message> {
    history
        .into_iter()
        .flat_map(|message| {
            if message.role != Role::Tool {
                return vec![message];
            }
            message
                .parts
                .iter()
                .map(|part| {
                    let mut single = Message::new(Role::Tool, vec![part.clone()]);
                    single.name = message.name.clone();
                    single.pinned = message.pinned;
                    single
                })
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn tidemark_to_wire_to_tidemark_is_the_identity(history in arb_history()) {
        let history = one_result_per_message(history);
        let back = from_wire(&to_wire(&history, WireOptions::transcript()));
        prop_assert_eq!(back.as_ref(), Ok(&history));
    }

    #[test]
    fn any_message_converts_without_panicking(message in arb_message()) {
        let wire = to_wire(std::slice::from_ref(&message), WireOptions::transcript());
        let _ = from_wire(&wire);
        let request = to_wire(std::slice::from_ref(&message), WireOptions::request());
        prop_assert!(request.iter().all(|value| value.get("pinned").is_none() && value.get("is_error").is_none()));
    }
}

#[test]
fn parallel_calls_and_multi_part_content_round_trip() {
    let history = vec![
        Message::user("Look at both.")
            .with_part(Part::Attachment(tidemark_core::Attachment::url("image/png", "https://x.test/a.png"))),
        Message::assistant("Reading.")
            .with_part(Part::ToolCall(tidemark_core::ToolCall::with_raw_arguments("a", "read", "{}")))
            .with_part(Part::ToolCall(tidemark_core::ToolCall::with_raw_arguments("b", "read", "{}"))),
        Message::tool_result("b", "B"),
        Message::tool_error("a", "A failed"),
    ];
    let wire = to_wire(&history, WireOptions::transcript());
    assert_eq!(wire[1]["content"], "Reading.");
    assert_eq!(wire[1]["tool_calls"].as_array().map(Vec::len), Some(2));
    assert_eq!(wire[3]["is_error"], true);
    assert_eq!(from_wire(&wire).expect("reads"), history);
}

fn problem(value: Value) -> (String, WireProblem) {
    let error = message_from_wire(&value, 3).expect_err("malformed");
    assert_eq!(error.index, 3);
    (error.field, error.problem)
}

#[test]
fn malformed_messages_name_the_index_and_the_field() {
    let wrong = |expected| WireProblem::WrongType { expected };
    let cases = [
        (json!({"content": "hi"}), "role", WireProblem::Missing),
        (json!({"role": "robot", "content": "hi"}), "role", WireProblem::UnknownRole("robot".into())),
        (json!({"role": "user", "content": 42}), "content", wrong("a string, an array of parts or null")),
        (json!({"role": "tool", "content": "x"}), "tool_call_id", WireProblem::Missing),
        (json!({"role": "assistant", "content": null, "tool_calls": {}}), "tool_calls", wrong("an array")),
        (
            json!({"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": 1}}]}),
            "tool_calls[0].function.arguments",
            wrong("a string"),
        ),
        (
            json!({"role": "assistant", "tool_calls": [{"id": "a", "function": {}}]}),
            "tool_calls[0].function.name",
            WireProblem::Missing,
        ),
        (
            json!({"role": "user", "content": [{"type": "video"}]}),
            "content[0].type",
            WireProblem::UnknownPartType("video".into()),
        ),
        (json!("just text"), "", wrong("an object")),
    ];
    for (value, field, expected) in cases {
        assert_eq!(problem(value.clone()), (field.to_owned(), expected), "{value}");
    }
    let error = message_from_wire(&json!({"role": "user", "content": 1}), 7).expect_err("malformed");
    assert_eq!(error.to_string(), "messages[7].content: expected a string, an array of parts or null");
}

#[test]
fn unknown_fields_are_ignored() {
    let value = json!({"role": "user", "content": "hi", "audio": null, "x_trace": {"id": 1}});
    assert_eq!(message_from_wire(&value, 0).expect("reads"), Message::user("hi"));
}

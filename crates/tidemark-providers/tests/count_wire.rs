//! The counters' chat accounting against the wire: `TiktokenCounter` must price exactly the JSON `message_to_wire` sends.
//!
//! `tidemark-core` cannot see the wire conversion, so its `chat_tokens` restates
//! the mapping. These tests apply OpenAI's cookbook rule independently to the
//! JSON the wire writes (3 tokens per wire message, the tokens of every string
//! in it, 1 more per `name`, 85 per image or file part) and require the same
//! number, on generated messages and on the recorded runs in `tests/data/`.

use proptest::prelude::*;
use serde_json::Value;
use tidemark_core::{Message, Role, TokenCounter};
use tidemark_memory::counter::{HeuristicCounter, TiktokenCounter};
use tidemark_providers::wire::{WireOptions, from_wire, message_to_wire};
use tidemark_testkit::strategies::arb_message;

/// Tokens of framing per wire message, from the cookbook.
const FRAMING: u32 = 3;

/// The cookbook's extra token for a `name` field.
const NAME_EXTRA: u32 = 1;

/// The price of an image or file content part.
const IMAGE_TOKENS: u32 = 85;

/// The cookbook price of a JSON value: the tokens of every string in it, recursively; image and file parts cost [`IMAGE_TOKENS`].
fn value_tokens(value: &Value, text: &dyn Fn(&str) -> u32) -> u32 {
    match value {
        Value::String(string) => text(string),
        Value::Array(items) => items.iter().map(|item| value_tokens(item, text)).sum(),
        Value::Object(object) => match object.get("type").and_then(Value::as_str) {
            Some("image_url" | "file") => IMAGE_TOKENS,
            _ => object.values().map(|item| value_tokens(item, text)).sum(),
        },
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

/// The cookbook count of wire messages.
fn cookbook(wire: &[Value], text: &dyn Fn(&str) -> u32) -> u32 {
    wire.iter()
        .map(|message| {
            let name = message.get("name").is_some_and(Value::is_string);
            FRAMING + value_tokens(message, text) + if name { NAME_EXTRA } else { 0 }
        })
        .sum()
}

/// The cookbook count of what a request sends for `message`, in `o200k_base`.
fn cookbook_o200k(message: &Message) -> u32 {
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    cookbook(&message_to_wire(message, WireOptions::request()), &|text| counter.count_text(text))
}

fn recorded(name: &str) -> Vec<Message> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let values: Vec<Value> = std::fs::read_to_string(path)
        .expect("test data")
        .lines()
        .map(|line| serde_json::from_str(line).expect("json"))
        .collect();
    from_wire(&values).expect("recorded runs read")
}

#[test]
fn issue_17_tool_message_costs_what_the_cookbook_says() {
    let message = Message::tool_result("call_aHFvcOCBnUSBGb47m72g1qAH", "957.0");
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    assert_eq!(cookbook_o200k(&message), 23);
    assert_eq!(counter.count(&message), 23);
}

#[test]
fn recorded_runs_count_as_the_cookbook_counts_their_wire_form() {
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    for name in [
        "tau-bench-airline-gpt4o-task002-trial1.jsonl",
        "swe-agent-marshmallow-1867-fncall.jsonl",
        "openhands-sdk-hello-world-claude-sonnet-4.jsonl",
    ] {
        let messages = recorded(name);
        assert!(!messages.is_empty(), "{name}");
        for (index, message) in messages.iter().enumerate() {
            assert_eq!(counter.count(message), cookbook_o200k(message), "{name} message {index}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn o200k_count_is_the_cookbook_count_of_the_wire_form(message in arb_message()) {
        let counter = TiktokenCounter::o200k().expect("o200k_base loads");
        prop_assert_eq!(counter.count(&message), cookbook_o200k(&message));
    }

    #[test]
    fn cl100k_count_is_the_cookbook_count_of_the_wire_form(message in arb_message()) {
        let counter = TiktokenCounter::cl100k().expect("cl100k_base loads");
        let wire = message_to_wire(&message, WireOptions::request());
        prop_assert_eq!(counter.count(&message), cookbook(&wire, &|text| counter.count_text(text)));
    }

    #[test]
    fn heuristic_follows_the_same_structure(message in arb_message(), bytes_per_token in 0.5_f32..8.0) {
        // The heuristic charges one token per role and estimates every other string.
        let counter = HeuristicCounter::new(bytes_per_token, FRAMING).expect("the range is valid");
        let wire = message_to_wire(&message, WireOptions::request());
        let estimate = |text: &str| counter.count_text(text);
        let roles: u32 = wire
            .iter()
            .map(|one| one.get("role").and_then(Value::as_str).map_or(0, &estimate))
            .sum();
        let expected = cookbook(&wire, &estimate) - roles + u32::try_from(wire.len()).expect("few");
        prop_assert_eq!(counter.count(&message), expected);
        if message.role == Role::Tool {
            prop_assert_eq!(wire.len(), message.tool_results().count());
        }
    }
}

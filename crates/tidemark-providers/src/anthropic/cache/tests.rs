//! Unit tests of the breakpoint rule over request bodies: where marks go, what is passed over, and a caller's own marks left alone.

use serde_json::{Value, json};

use super::*;

const MARK: &str = r#"{"type":"ephemeral"}"#;

/// The request's `system` and `messages` after marking them with `cache`.
fn marked(system: Value, messages: Value, cache: PromptCache) -> (Value, Value) {
    let mut system = Some(system);
    let mut turns = messages.as_array().cloned().unwrap_or_default();
    mark(system.as_mut(), &mut turns, cache);
    (system.unwrap_or(Value::Null), Value::Array(turns))
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

fn with_mark(mut block: Value, control: &str) -> Value {
    block["cache_control"] = serde_json::from_str(control).expect("JSON");
    block
}

#[test]
fn a_raw_block_keeps_its_own_cache_control_and_nothing_is_added() {
    let own = json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [],
                     "cache_control": {"type": "ephemeral", "ttl": "1h"}});
    let messages = json!([
        {"role": "user", "content": [text("Search.")]},
        {"role": "assistant", "content": [own.clone(), text("Found it.")]},
        {"role": "user", "content": [text("Thanks.")]}
    ]);
    let system = json!([text("Be brief.")]);
    let (system_after, messages_after) = marked(system.clone(), messages.clone(), PromptCache::FiveMinutes);
    assert_eq!((system_after, messages_after), (system, messages), "the caller's marks are the only ones");
}

#[test]
fn the_tail_and_the_last_three_system_blocks_are_marked() {
    let system = json!([text("Prompt."), text("Pinned."), text("Summary."), text("Facts."), text("Recall.")]);
    let messages = json!([{"role": "user", "content": [text("hi")]}]);
    let (system, messages) = marked(system, messages, PromptCache::FiveMinutes);
    assert_eq!(
        system,
        json!([
            text("Prompt."),
            text("Pinned."),
            with_mark(text("Summary."), MARK),
            with_mark(text("Facts."), MARK),
            with_mark(text("Recall."), MARK)
        ])
    );
    assert_eq!(messages, json!([{"role": "user", "content": [with_mark(text("hi"), MARK)]}]));
}

#[test]
fn off_marks_nothing_and_joins_the_system_prompt() {
    let messages = json!([{"role": "user", "content": [text("hi")]}]);
    let (system, after) = marked(json!([text("A.")]), messages.clone(), PromptCache::Off);
    assert_eq!((system, after), (json!([text("A.")]), messages));
    let texts = vec!["A.".to_owned(), "B.".to_owned()];
    assert_eq!(super::system(texts.clone(), PromptCache::Off), Some(json!("A.\n\nB.")));
    assert_eq!(super::system(texts, PromptCache::OneHour), Some(json!([text("A."), text("B.")])));
    assert_eq!(super::system(Vec::new(), PromptCache::FiveMinutes), None);
}

#[test]
fn unmarkable_blocks_are_passed_over() {
    let thinking = json!({"type": "thinking", "thinking": "Hm.", "signature": "c2ln"});
    let redacted = json!({"type": "redacted_thinking", "data": "ZGF0YQ=="});
    let unknown = json!({"type": "container_upload", "file_id": "f"});
    let messages = json!([
        {"role": "user", "content": [text("Go.")]},
        {"role": "assistant", "content": [text("Sure."), text("  "), thinking.clone(), redacted.clone(), unknown.clone()]}
    ]);
    let (_, messages) = marked(json!([]), messages, PromptCache::FiveMinutes);
    assert_eq!(
        messages[1]["content"],
        json!([with_mark(text("Sure."), MARK), text("  "), thinking, redacted, unknown])
    );
}

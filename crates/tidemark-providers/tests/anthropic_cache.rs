//! Prompt-cache breakpoints in `AnthropicModel`'s requests, read from a local server on loopback: exactly where the rule puts them, for every setting, and within the API's limits over generated prompts.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};
use tidemark_core::{CompletionModel, CompletionRequest, Message, OpaqueBlock, Part, Role, ToolCall};
use tidemark_providers::anthropic::{ClaudeTranscript, MAX_BREAKPOINTS, PromptCache};
use tidemark_providers::{AnthropicConfig, AnthropicModel};
use tidemark_testkit::strategies::{arb_claude_transcript, arb_history};
use wiremock::{MockServer, ResponseTemplate};

mod support;

use support::{received, recording_sleep, serving};

const MARK: &str = r#"{"type":"ephemeral"}"#;
const HOUR: &str = r#"{"type":"ephemeral","ttl":"1h"}"#;
const THINKING: &str = r#"{"type":"thinking","thinking":"Check the log first.","signature":"c2lnbmVk"}"#;

fn answer() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 12, "output_tokens": 1}
    }))
}

fn model(server: &MockServer, cache: PromptCache) -> AnthropicModel {
    let config = AnthropicConfig::new(&server.uri(), "claude-test").expect("valid").with_prompt_cache(cache);
    // One attempt, and a timer that never sleeps: a retry here would be a bug, not a wait.
    let (sleep, _) = recording_sleep();
    AnthropicModel::new(config.with_max_attempts(1)).expect("client").with_sleep(sleep)
}

/// The body of the last request `server` received.
async fn last_body(server: &MockServer) -> Value {
    let requests = server.received_requests().await.expect("recorded");
    requests.last().map_or(Value::Null, |request| serde_json::from_slice(&request.body).expect("json"))
}

/// The body `AnthropicModel` sends for `history` with `cache`.
async fn sent(history: Vec<Message>, cache: PromptCache) -> Value {
    let server = serving(vec![answer()]).await;
    model(&server, cache).complete(CompletionRequest::new(history)).await.expect("ok");
    assert_eq!(received(&server).await, 1, "one request");
    last_body(&server).await
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

fn marked(mut block: Value, control: &str) -> Value {
    block["cache_control"] = serde_json::from_str(control).expect("JSON");
    block
}

fn thinking() -> Part {
    Part::Opaque(OpaqueBlock::new("anthropic", "thinking", THINKING))
}

fn thinking_block() -> Value {
    serde_json::from_str(THINKING).expect("JSON")
}

/// A prompt as tidemark composes it: system prompt, summary, then the window.
fn compacted_prompt() -> Vec<Message> {
    vec![
        Message::system("You are a release assistant.").pinned(),
        Message::system("Summary of earlier conversation:\n- The release is on Friday."),
        Message::user("Is the changelog done?"),
        Message::assistant("Yes, merged this morning."),
        Message::user("Then tag it."),
    ]
}

#[tokio::test]
async fn system_summary_and_window_are_marked_at_the_summary_and_the_last_turn() {
    let body = sent(compacted_prompt(), PromptCache::FiveMinutes).await;
    assert_eq!(
        body["system"],
        json!([
            marked(text("You are a release assistant."), MARK),
            marked(text("Summary of earlier conversation:\n- The release is on Friday."), MARK)
        ])
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [text("Is the changelog done?")]},
            {"role": "assistant", "content": [text("Yes, merged this morning.")]},
            {"role": "user", "content": [marked(text("Then tag it."), MARK)]}
        ])
    );
}

#[tokio::test]
async fn per_turn_context_blocks_leave_the_summary_marked() {
    let mut history = compacted_prompt();
    history.insert(2, Message::system("<facts>The user prefers short answers.</facts>"));
    history.insert(3, Message::system("<recall>Friday was agreed on Monday.</recall>"));
    let body = sent(history, PromptCache::FiveMinutes).await;
    let marks: Vec<bool> = body["system"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|block| block.get("cache_control").is_some())
        .collect();
    assert_eq!(marks, [false, true, true, true], "the summary, the end of the stable prefix, is marked");
    assert_eq!(count_marks(&body), MAX_BREAKPOINTS);
}

#[tokio::test]
async fn tool_use_and_results_are_marked_at_the_last_block_only() {
    let history = vec![
        Message::system("Use the tools."),
        Message::user("Read a.rs."),
        Message::assistant("Reading.").with_part(Part::ToolCall(ToolCall::new(
            "toolu_1",
            "read_file",
            json!({"path": "a.rs"}),
        ))),
        Message::tool_result("toolu_1", "fn a() {}"),
        Message::assistant("It defines a."),
        Message::user("And b.rs?"),
        Message::assistant_tool_calls([ToolCall::new("toolu_2", "read_file", json!({"path": "b.rs"}))]),
    ];
    let body = sent(history, PromptCache::FiveMinutes).await;
    assert_eq!(body["system"], json!([marked(text("Use the tools."), MARK)]));
    assert_eq!(
        body["messages"][5]["content"],
        json!([marked(
            json!({"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "b.rs"}}),
            MARK
        )])
    );
    assert_eq!(count_marks(&body), 2);
}

#[tokio::test]
async fn a_prompt_ending_with_a_tool_result_marks_the_result() {
    let history = vec![
        Message::user("Run the tests."),
        Message::assistant_tool_calls([
            ToolCall::new("toolu_1", "run", json!({"cmd": "cargo test"})),
            ToolCall::new("toolu_2", "run", json!({"cmd": "cargo clippy"})),
        ]),
        Message::tool_result("toolu_2", "clean"),
        Message::tool_error("toolu_1", "2 failed"),
    ];
    let body = sent(history, PromptCache::FiveMinutes).await;
    assert!(body.get("system").is_none(), "{body}");
    assert_eq!(
        body["messages"][2]["content"],
        json!([
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "clean"},
            marked(
                json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": "2 failed", "is_error": true}),
                MARK
            )
        ])
    );
    assert_eq!(count_marks(&body), 1);
}

#[tokio::test]
async fn thinking_blocks_are_never_marked() {
    let history = vec![
        Message::user("Why is CI red?"),
        Message::new(Role::Assistant, vec![Part::text("Let me look."), thinking()]),
    ];
    let body = sent(history, PromptCache::FiveMinutes).await;
    assert_eq!(
        body["messages"][1]["content"],
        json!([marked(text("Let me look."), MARK), thinking_block()]),
        "the mark moves back to the nearest block that may carry one"
    );
    let only_thinking = vec![Message::new(Role::Assistant, vec![thinking()])];
    let body = sent(only_thinking, PromptCache::FiveMinutes).await;
    assert_eq!(body["messages"][0]["content"], json!([thinking_block()]));
}

#[tokio::test]
async fn off_sends_no_breakpoints_and_one_system_string() {
    let body = sent(compacted_prompt(), PromptCache::Off).await;
    assert_eq!(
        body["system"],
        json!(
            "You are a release assistant.\n\nSummary of earlier conversation:\n- The release is on Friday."
        )
    );
    assert_eq!(count_marks(&body), 0);
}

#[tokio::test]
async fn one_hour_breakpoints_carry_their_ttl() {
    let body = sent(compacted_prompt(), PromptCache::OneHour).await;
    let hour: Value = serde_json::from_str(HOUR).expect("JSON");
    let controls: Vec<&Value> = blocks(&body).filter_map(|block| block.get("cache_control")).collect();
    assert_eq!(controls, [&hour, &hour, &hour]);
}

#[tokio::test]
async fn a_claude_block_with_its_own_mark_keeps_it_and_nothing_is_added() {
    let own = r#"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[],"cache_control":{"type":"ephemeral","ttl":"1h"}}"#;
    let history = vec![
        Message::system("Search when asked."),
        Message::user("Any news?"),
        Message::new(
            Role::Assistant,
            vec![
                Part::Opaque(OpaqueBlock::new("anthropic", "web_search_tool_result", own)),
                Part::text("None."),
            ],
        ),
        Message::user("Thanks."),
    ];
    let body = sent(history, PromptCache::FiveMinutes).await;
    let expected: Value = serde_json::from_str(own).expect("JSON");
    assert_eq!(body["messages"][1]["content"][0], expected);
    assert_eq!(count_marks(&body), 1, "{body}");
}

/// Every content block of a request body: the system blocks, then each turn's.
fn blocks(body: &Value) -> impl Iterator<Item = &Value> {
    let system = body.get("system").and_then(Value::as_array).into_iter().flatten();
    let turns = body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|turn| turn.get("content").and_then(Value::as_array))
        .flatten();
    system.chain(turns)
}

fn count_marks(body: &Value) -> usize {
    blocks(body).filter(|block| block.get("cache_control").is_some()).count()
}

/// How many of `history`'s Claude blocks carry a mark of their own.
fn own_marks(history: &[Message]) -> usize {
    history
        .iter()
        .flat_map(Message::opaque_blocks)
        .filter(|block| block.provider == "anthropic")
        .filter_map(|block| serde_json::from_str::<Value>(&block.raw).ok())
        .filter(|block| block.get("cache_control").is_some())
        .count()
}

/// Whether the API takes a mark on `block`: not thinking, not blank text, a type tidemark sends.
fn may_carry(block: &Value) -> bool {
    match block["type"].as_str().unwrap_or("") {
        "text" => block["text"].as_str().is_some_and(|text| !text.trim().is_empty()),
        kind => ["image", "document", "tool_use", "tool_result", "search_result"].contains(&kind),
    }
}

fn arb_prompt() -> impl Strategy<Value = Vec<Message>> {
    prop_oneof![
        arb_history(),
        arb_claude_transcript().prop_filter_map("a transcript the reader takes", |json| {
            ClaudeTranscript::from_json(&json).ok().map(|transcript| transcript.messages)
        }),
    ]
}

#[test]
fn generated_prompts_carry_at_most_four_breakpoints_none_on_thinking() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let server = runtime.block_on(serving(vec![answer()]));
    let models = [PromptCache::FiveMinutes, PromptCache::OneHour].map(|cache| model(&server, cache));
    let mut runner = TestRunner::new(Config::with_cases(256));
    let checked = runner.run(&(arb_prompt(), any::<bool>()), |(history, hour)| {
        let own = own_marks(&history);
        let model = &models[usize::from(hour)];
        if runtime.block_on(model.complete(CompletionRequest::new(history))).is_err() {
            // A history the API cannot take (tool arguments that are not an object) is never sent.
            return Ok(());
        }
        let body = runtime.block_on(last_body(&server));
        let marks = count_marks(&body);
        if own > 0 {
            prop_assert_eq!(marks, own, "the caller's marks alone: {}", body);
        } else {
            prop_assert!(marks <= MAX_BREAKPOINTS, "{} marks: {}", marks, body);
            let last = blocks(&body).last();
            prop_assert!(
                last.is_none_or(|block| !may_carry(block) || block.get("cache_control").is_some()),
                "the last block is marked when it may be: {}",
                body
            );
        }
        for block in blocks(&body).filter(|block| block.get("cache_control").is_some()) {
            prop_assert!(own > 0 || may_carry(block), "a mark where none may be: {}", body);
            let kind = block["type"].as_str().unwrap_or("");
            prop_assert!(kind != "thinking" && kind != "redacted_thinking", "{}", body);
        }
        Ok(())
    });
    assert!(checked.is_ok(), "{checked:?}");
}

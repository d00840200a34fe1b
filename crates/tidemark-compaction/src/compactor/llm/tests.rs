//! Unit tests of [`LlmCompactor`]: the request it sends, how it treats answers and failures, and its retries.

use std::num::NonZeroU32;
use std::time::Duration;

use futures::executor::block_on;
use tidemark_core::{Completion, CompletionError, ConversationId, FinishReason, Part, Role, Usage};
use tidemark_testkit::scripted::ScriptedModel;

use super::*;

fn id() -> ConversationId {
    ConversationId::new("llm-tests").expect("a valid id")
}

fn evicted() -> Vec<Message> {
    vec![Message::user("Where is the deploy key?"), Message::assistant("In secret/ci/deploy.")]
}

fn attempts(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).expect("non-zero")
}

/// Compact `evicted()` once with `compactor`.
fn roll(compactor: &LlmCompactor<ScriptedModel>) -> Result<LlmSummary, CompactionError> {
    block_on(compactor.compact(&id(), &evicted(), None, None))
}

/// The errors the scripted model plays back, built afresh each time.
fn rate_limited() -> CompletionError {
    CompletionError::RateLimited { attempts: 1, retry_after: None }
}
fn timeout() -> CompletionError {
    CompletionError::Timeout { limit: Duration::from_secs(30), attempts: 1 }
}
fn server() -> CompletionError {
    CompletionError::Server { status: 503, attempts: 1, message: String::from("overloaded") }
}
fn transport() -> CompletionError {
    CompletionError::Transport { attempts: 1, source: "connection reset".into() }
}
fn bad_request() -> CompletionError {
    CompletionError::BadRequest { message: String::from("unknown field") }
}
fn authentication() -> CompletionError {
    CompletionError::Authentication { status: 401, message: String::from("bad key") }
}
fn context_length() -> CompletionError {
    CompletionError::ContextOverflow { limit: None, requested: None, message: String::from("too long") }
}
fn refused() -> CompletionError {
    CompletionError::Refused { reason: String::from("policy") }
}
fn empty() -> CompletionError {
    CompletionError::EmptyResponse
}

/// What a roll is expected to end in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Summary,
    Model,
    Empty,
    Refused,
}

fn outcome(result: &Result<LlmSummary, CompactionError>) -> Expect {
    match result {
        Ok(_) => Expect::Summary,
        Err(CompactionError::Model { .. }) => Expect::Model,
        Err(CompactionError::EmptySummary) => Expect::Empty,
        Err(CompactionError::Refused { .. }) => Expect::Refused,
        Err(other) => panic!("unexpected error: {other}"),
    }
}

/// Play `failures` before a good answer, with `max` attempts, and check the outcome and the number of calls.
fn check_failures(failures: &[fn() -> CompletionError], max: u32, expected: Expect, calls: usize) {
    let mut model = ScriptedModel::new();
    for failure in failures {
        model = model.fail_with(*failure);
    }
    let model = model.answer("## Goal\nShip it.");
    let compactor = LlmCompactor::new(model.clone()).with_max_attempts(attempts(max));
    let result = roll(&compactor);
    assert_eq!(outcome(&result), expected, "{result:?}");
    assert_eq!(model.calls(), calls, "calls after {} failures with {max} attempts", failures.len());
}

#[test]
fn transient_failures_are_tried_again_within_the_attempts() {
    let transient: [fn() -> CompletionError; 4] = [rate_limited, timeout, server, transport];
    for failure in transient {
        check_failures(&[failure], 3, Expect::Summary, 2);
        check_failures(&[failure], 2, Expect::Summary, 2);
        check_failures(&[failure], 1, Expect::Model, 1);
    }
    check_failures(&[rate_limited, server], 3, Expect::Summary, 3);
    check_failures(&[rate_limited, server, timeout], 3, Expect::Model, 3);
    check_failures(&[transport, transport, transport, transport], 2, Expect::Model, 2);
}

#[test]
fn other_failures_are_returned_after_one_call() {
    check_failures(&[bad_request], 3, Expect::Model, 1);
    check_failures(&[authentication], 3, Expect::Model, 1);
    check_failures(&[context_length], 3, Expect::Model, 1);
    check_failures(&[refused], 3, Expect::Refused, 1);
    check_failures(&[empty], 3, Expect::Empty, 1);
    // A transient failure followed by a permanent one stops at the permanent one.
    check_failures(&[timeout, bad_request], 5, Expect::Model, 2);
}

#[test]
fn the_last_transient_error_is_the_source() {
    let model = ScriptedModel::new().fail_with(timeout).fail_with(server);
    let compactor = LlmCompactor::new(model).with_max_attempts(attempts(2));
    match roll(&compactor) {
        Err(CompactionError::Model { source: CompletionError::Server { status: 503, .. } }) => {}
        other => panic!("expected the server error, got {other:?}"),
    }
}

/// Answer once with `completion` and check the outcome (and the summary's text when there is one).
fn check_answer(completion: Completion, max_bytes: Option<usize>, expected: Expect, text: Option<&str>) {
    let model = ScriptedModel::new().completion(completion);
    let compactor = LlmCompactor::new(model).with_max_bytes(max_bytes);
    let result = roll(&compactor);
    assert_eq!(outcome(&result), expected, "{result:?}");
    assert_eq!(result.ok().map(|summary| summary.text), text.map(str::to_owned));
}

fn answer(text: &str, finish_reason: FinishReason) -> Completion {
    Completion::new(text, finish_reason, Usage::default())
}

#[test]
fn answers_become_summaries_errors_or_refusals() {
    use FinishReason::{ContentFilter, Length, Stop};
    let check =
        |text: &str, finish, expected, summary| check_answer(answer(text, finish), None, expected, summary);
    check("  ## Goal\nShip it.\n\n", Stop, Expect::Summary, Some("## Goal\nShip it."));
    check("", Stop, Expect::Empty, None);
    check(" \n\t \u{3000}", Stop, Expect::Empty, None);
    check("I'm sorry, but I can't help with that.", Stop, Expect::Refused, None);
    check("As an AI, I cannot summarize private data.", Stop, Expect::Refused, None);
    check("## Goal\nShip it.\n## Decis", Length, Expect::Summary, Some("## Goal\nShip it.\n## Decis"));
    check("## Goal\nShip", ContentFilter, Expect::Refused, None);
    check(
        "## Goal\nShip it.",
        FinishReason::Other(String::from("eos")),
        Expect::Summary,
        Some("## Goal\nShip it."),
    );
}

#[test]
fn a_refusal_keeps_its_text_as_the_reason() {
    let model = ScriptedModel::new().answer("I cannot do that.");
    match roll(&LlmCompactor::new(model)) {
        Err(CompactionError::Refused { reason }) => assert_eq!(reason, "I cannot do that."),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn long_answers_are_capped_at_a_character_boundary() {
    let long = format!("## Goal\n{}", "é".repeat(100));
    let check = |max, expected: &str| {
        check_answer(answer(&long, FinishReason::Stop), Some(max), Expect::Summary, Some(expected));
    };
    check(12, "## Goal\néé");
    check(11, "## Goal\né");
    check(8, "## Goal");
    check(1, "#");
    check_answer(answer(&long, FinishReason::Stop), Some(0), Expect::Empty, None);
    check_answer(answer(&long, FinishReason::Length), None, Expect::Summary, Some(&long));
    // The default cap applies unless changed.
    let model = ScriptedModel::new().answer("x".repeat(10_000));
    let summary = roll(&LlmCompactor::new(model)).expect("a summary");
    assert_eq!(summary.text.len(), DEFAULT_MAX_BYTES);
}

#[test]
fn the_request_holds_instruction_summary_hint_and_transcript_as_text() {
    let model = ScriptedModel::new().answer("first").answer("second");
    let compactor = LlmCompactor::new(model.clone());
    let first = block_on(compactor.compact(&id(), &evicted(), None, None)).expect("first roll");
    let second =
        block_on(compactor.compact(&id(), &[Message::user("Thanks.")], Some(&first), Some("keep paths")))
            .expect("second roll");
    assert_eq!((first.rolls, second.rolls), (1, 2));

    let requests = model.requests();
    for request in &requests {
        assert_eq!(request.max_tokens, Some(DEFAULT_MAX_TOKENS));
        assert_eq!(request.temperature, Some(DEFAULT_TEMPERATURE));
        let roles: Vec<Role> = request.messages.iter().map(|message| message.role).collect();
        assert_eq!(roles, [Role::System, Role::User]);
        assert_eq!(request.messages[0].text(), DEFAULT_INSTRUCTION);
        let parts = request.messages.iter().flat_map(|message| &message.parts);
        assert!(parts.into_iter().all(|part| matches!(part, Part::Text { .. })));
    }
    assert_eq!(
        requests[0].messages[1].text(),
        "=== Messages to fold in ===\nuser: Where is the deploy key?\nassistant: In secret/ci/deploy.\n\n\
         === Length ===\nAt most 1024 tokens (about 768 words)."
    );
    assert_eq!(
        requests[1].messages[1].text(),
        "=== Previous summary ===\nfirst\n\n=== Notes from the memory layer ===\nkeep paths\n\n\
         === Messages to fold in ===\nuser: Thanks.\n\n=== Length ===\nAt most 1024 tokens (about 768 words)."
    );
}

#[test]
fn builders_shape_the_request() {
    let model = ScriptedModel::new().answer("ok").answer("ok");
    let compactor = LlmCompactor::new(model.clone())
        .with_max_tokens(None)
        .with_temperature(Some(0.0))
        .with_system_prompt("Summarize tersely.")
        .with_transcript_style(Style::compact(3));
    roll(&compactor).expect("a summary");
    roll(&compactor.with_system_prompt("  ")).expect("a summary");
    let requests = model.requests();
    assert_eq!(requests[0].max_tokens, None);
    assert_eq!(requests[0].temperature, Some(0.0));
    assert_eq!(requests[0].messages[0].text(), "Summarize tersely.");
    // Without a limit on the answer, the model is told of none.
    assert!(requests[0].messages[1].text().ends_with("user: Whe… [+21 bytes]\nassistant: In … [+17 bytes]"));
    // A blank instruction sends no system message.
    assert_eq!(requests[1].messages.len(), 1);
    assert_eq!(requests[1].messages[0].role, Role::User);
}

#[test]
fn render_prefixes_the_summary() {
    let compactor = LlmCompactor::new(ScriptedModel::new());
    let rendered = compactor.render(&LlmSummary::new("## Goal\nShip it.", 4));
    assert_eq!(rendered.role, Role::System);
    assert_eq!(rendered.text(), "Summary of earlier conversation:\n## Goal\nShip it.");
    assert!(!compactor.render(&LlmSummary::new("", 0)).text().trim().is_empty());
    assert_eq!(compactor.name(), "llm");
}

#[test]
fn an_artifact_without_a_roll_count_still_decodes() {
    let summary: LlmSummary = serde_json::from_str(r#"{"text":"t"}"#).expect("valid json");
    assert_eq!(summary, LlmSummary::new("t", 0));
}

//! An agent loop that recovers from a context overflow in one retry: the server rejects the first prompt as too long, the memory loads within the retry budget, and the second call succeeds.

use std::num::NonZeroU32;
use std::time::Duration;

use serde_json::{Value, json};
use tidemark_core::{
    CompletionError, CompletionModel, CompletionRequest, ConversationId, ConversationMemory, Message,
    TokenCounter,
};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_providers::{OpenAiConfig, OpenAiModel};
use tidemark_testkit::reference::ConcatCompactor;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The budget the agent loads its prompts within.
const BUDGET: u32 = 4_000;

/// What recovering from an overflow took: the figures the server gave and the budget the retry was loaded within.
#[derive(Debug, PartialEq, Eq)]
struct Recovery {
    limit: Option<u32>,
    requested: Option<u32>,
    retry_budget: u32,
}

/// One agent turn: load, call, and on a context overflow load within the retry budget and call once more.
async fn turn(
    model: &impl CompletionModel,
    memory: &impl ConversationMemory,
    conversation: &ConversationId,
    budget: NonZeroU32,
) -> Result<(String, Option<Recovery>), Box<dyn std::error::Error>> {
    let prompt = memory.load(conversation).await?;
    let (answer, recovery) = match model.complete(CompletionRequest::new(prompt)).await {
        Ok(answer) => (answer, None),
        Err(error) => {
            let Some(lower) = error.retry_budget(budget) else { return Err(error.into()) };
            let CompletionError::ContextOverflow { limit, requested, .. } = error else {
                return Err(error.into());
            };
            let prompt = memory.load_within(conversation, lower).await?;
            let answer = model.complete(CompletionRequest::new(prompt)).await?;
            (answer, Some(Recovery { limit, requested, retry_budget: lower.get() }))
        }
    };
    memory.append(conversation, vec![Message::assistant(answer.text.clone())]).await?;
    Ok((answer.text, recovery))
}

/// Run the loop against a server whose first answer is `rejection`; return the two request bodies and the retry budget.
async fn recover(rejection: ResponseTemplate, expected: (Option<u32>, Option<u32>)) -> (Vec<Value>, u32) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(rejection)
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{"message": {"role": "assistant", "content": "Recovered."}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 2}
        })))
        .mount(&server)
        .await;
    let config = OpenAiConfig::new(&server.uri(), "test-model")
        .expect("valid")
        .with_max_attempts(1)
        .with_request_timeout(Duration::from_secs(5));
    let model = OpenAiModel::new(config).expect("client");

    let budget = NonZeroU32::new(BUDGET).expect("non-zero");
    // No hysteresis: the first prompt fills the budget, so any lower budget must cut.
    let policy =
        TokenWindow::new(budget, HeuristicCounter::default()).with_low_watermark(100).expect("valid");
    let memory = CompactingMemory::new(InMemoryStore::new(), policy, ConcatCompactor::capped(600));
    let conversation = ConversationId::new("overflow").expect("valid");
    for step in 0..150 {
        memory
            .append(
                &conversation,
                vec![
                    Message::user(format!("step {step}: read the deploy log of service {step} and report")),
                    Message::assistant(format!(
                        "step {step}: service {step} deployed, two warnings about disk"
                    )),
                ],
            )
            .await
            .expect("append");
    }
    memory.append(&conversation, vec![Message::user("What failed today?")]).await.expect("append");

    let (answer, recovery) = turn(&model, &memory, &conversation, budget).await.expect("recovered");
    assert_eq!(answer, "Recovered.");
    let recovery = recovery.expect("the first call overflowed");
    assert_eq!((recovery.limit, recovery.requested), expected);
    let bodies: Vec<Value> = server
        .received_requests()
        .await
        .expect("recorded")
        .iter()
        .map(|request| serde_json::from_slice(&request.body).expect("json"))
        .collect();
    assert_eq!(bodies.len(), 2, "one rejected call and one retry");
    (bodies, recovery.retry_budget)
}

fn prompt_of(body: &Value) -> Vec<Value> {
    body["messages"].as_array().cloned().unwrap_or_default()
}

async fn check_recovery(rejection: ResponseTemplate, expected: (Option<u32>, Option<u32>)) {
    let (bodies, retry) = recover(rejection, expected).await;
    let (first, second) = (prompt_of(&bodies[0]), prompt_of(&bodies[1]));
    assert!(
        second.len() < first.len(),
        "the retry sends a smaller prompt: {} vs {}",
        second.len(),
        first.len()
    );
    assert_eq!(first.last(), second.last(), "both end with the user's question");
    let summary = second[0]["content"].as_str().unwrap_or_default();
    assert!(summary.starts_with("Summary of earlier messages"), "the evicted part is summarized: {summary}");
    // The retried prompt fits the retry budget by the memory's own count.
    let messages: Vec<Message> = second
        .iter()
        .map(|message| {
            let text = message["content"].as_str().unwrap_or_default().to_owned();
            match message["role"].as_str() {
                Some("system") => Message::system(text),
                Some("assistant") => Message::assistant(text),
                _ => Message::user(text),
            }
        })
        .collect();
    let tokens = HeuristicCounter::default().count_prompt(&messages);
    assert!(tokens <= retry, "{tokens} tokens over the retry budget {retry}");
    assert!(retry < BUDGET);
}

#[tokio::test]
async fn an_openai_overflow_is_recovered_in_one_retry() {
    let rejection = ResponseTemplate::new(400).set_body_json(json!({"error": {
        "message": "This model's maximum context length is 4096 tokens. However, your messages resulted in 6000 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded"
    }}));
    check_recovery(rejection, (Some(4_096), Some(6_000))).await;
}

#[tokio::test]
async fn an_anthropic_shaped_overflow_is_recovered_in_one_retry() {
    // As a proxy (LiteLLM, a gateway) passes Anthropic's rejection through.
    let rejection = ResponseTemplate::new(400).set_body_json(json!({
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "prompt is too long: 5210 tokens > 4096 maximum"}
    }));
    check_recovery(rejection, (Some(4_096), Some(5_210))).await;
}

#[tokio::test]
async fn a_payload_too_large_without_figures_uses_the_fallback_budget() {
    check_recovery(ResponseTemplate::new(413).set_body_string("request entity too large"), (None, None))
        .await;
}

//! `OpenAiModel` against a local HTTP server on loopback: every success and failure path, with the exact typed error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tidemark_core::{
    Attachment, CompletionError, CompletionModel, CompletionRequest, FinishReason, Message, Part, ToolCall,
    Usage,
};
use tidemark_providers::{OpenAiConfig, OpenAiModel, Sleep};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod support;

use support::{received, recording_sleep, serving};

fn answer(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 3}
    }))
}

/// A model pointed at `server`, whose waits are recorded instead of slept.
fn recorded_model(server: &MockServer, attempts: u32) -> (OpenAiModel, Arc<Mutex<Vec<Duration>>>) {
    let (sleep, waits) = recording_sleep();
    let config = OpenAiConfig::new(&server.uri(), "test-model")
        .expect("valid")
        .with_api_key("sk-test-key")
        .with_max_attempts(attempts)
        .with_request_timeout(Duration::from_secs(5));
    (OpenAiModel::new(config).expect("client").with_sleep(sleep), waits)
}

fn request() -> CompletionRequest {
    CompletionRequest::new(vec![Message::user("Summarize.")]).with_max_tokens(64)
}

#[tokio::test]
async fn a_success_returns_text_reason_and_usage() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(answer("Done."))
        .mount(&server)
        .await;
    let (model, _) = recorded_model(&server, 3);
    let completion = model.complete(request()).await.expect("success");
    assert_eq!(completion.text, "Done.");
    assert_eq!(completion.finish_reason, FinishReason::Stop);
    assert_eq!(completion.usage, Usage::new(12, 3));
}

#[tokio::test]
async fn retry_after_seconds_is_honoured_exactly() {
    let server =
        serving(vec![ResponseTemplate::new(429).insert_header("Retry-After", "7"), answer("ok")]).await;
    let (model, waits) = recorded_model(&server, 3);
    assert_eq!(model.complete(request()).await.expect("second try").text, "ok");
    assert_eq!(*waits.lock().expect("lock"), vec![Duration::from_secs(7)]);
    assert_eq!(received(&server).await, 2);
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let date = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(20));
    let server =
        serving(vec![ResponseTemplate::new(503).insert_header("Retry-After", date.as_str()), answer("ok")])
            .await;
    let (model, waits) = recorded_model(&server, 3);
    model.complete(request()).await.expect("second try");
    let waits = waits.lock().expect("lock").clone();
    assert!(
        waits.len() == 1 && (Duration::from_secs(18)..=Duration::from_secs(20)).contains(&waits[0]),
        "{waits:?}"
    );
}

#[tokio::test]
async fn a_retry_after_beyond_the_cap_ends_the_call_without_retrying_early() {
    let server = serving(vec![ResponseTemplate::new(429).insert_header("Retry-After", "3600")]).await;
    let (model, waits) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("asked to wait an hour");
    assert!(
        matches!(error, CompletionError::RateLimited { attempts: 1, retry_after: Some(d) } if d == Duration::from_secs(3600)),
        "{error:?}"
    );
    assert!(waits.lock().expect("lock").is_empty());
}

#[tokio::test]
async fn temperatures_are_sent_as_written() {
    let server = serving(vec![answer("ok")]).await;
    let (model, _) = recorded_model(&server, 1);
    model.complete(request().with_temperature(0.2)).await.expect("ok");
    let requests = server.received_requests().await.expect("recorded");
    let body: Value = serde_json::from_slice(&requests[0].body).expect("json");
    assert_eq!(body["temperature"], json!(0.2));
    let error = model.complete(request().with_temperature(f32::NAN)).await.expect_err("not a number");
    assert!(matches!(error, CompletionError::BadRequest { .. }));
}

#[tokio::test]
async fn rate_limits_beyond_the_last_attempt_are_typed() {
    let server = serving(vec![ResponseTemplate::new(429).insert_header("Retry-After", "1")]).await;
    let (model, waits) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("always limited");
    assert!(
        matches!(error, CompletionError::RateLimited { attempts: 3, retry_after: Some(d) } if d == Duration::from_secs(1)),
        "{error:?}"
    );
    assert_eq!(waits.lock().expect("lock").len(), 2);
    assert_eq!(received(&server).await, 3);
}

#[tokio::test]
async fn server_errors_are_retried_up_to_the_limit() {
    let server =
        serving(vec![ResponseTemplate::new(500).set_body_json(json!({"error": {"message": "boom"}}))]).await;
    let (model, waits) = recorded_model(&server, 4);
    let error = model.complete(request()).await.expect_err("always failing");
    assert!(
        matches!(&error, CompletionError::Server { status: 500, attempts: 4, message } if message == "boom"),
        "{error:?}"
    );
    assert_eq!(received(&server).await, 4);
    let waits = waits.lock().expect("lock").clone();
    assert_eq!(waits.len(), 3);
    assert!(
        waits.iter().all(|wait| *wait <= Duration::from_secs(20)),
        "backoff stays under its cap: {waits:?}"
    );
}

#[tokio::test]
async fn a_slow_server_hits_the_timeout() {
    let server = serving(vec![answer("late").set_delay(Duration::from_secs(5))]).await;
    let config = OpenAiConfig::new(&server.uri(), "m")
        .expect("valid")
        .with_request_timeout(Duration::from_millis(300))
        .with_max_attempts(2);
    let sleep: Sleep = Arc::new(|_| Box::pin(async {}));
    let model = OpenAiModel::new(config).expect("client").with_sleep(sleep);
    let error = model.complete(request()).await.expect_err("too slow");
    assert!(matches!(error, CompletionError::Timeout { attempts: 2, .. }), "{error:?}");
}

#[tokio::test]
async fn malformed_and_empty_answers_are_typed() {
    let cases: Vec<(ResponseTemplate, &str)> = vec![
        (ResponseTemplate::new(200).set_body_string("{not json"), "malformed"),
        (ResponseTemplate::new(200).set_body_json(json!({"choices": []})), "malformed"),
        (ResponseTemplate::new(200).set_body_json(json!({"id": "x"})), "malformed"),
        (
            ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": ""}}]})),
            "empty",
        ),
        (
            ResponseTemplate::new(200).set_body_json(
                json!({"choices": [{"message": {"content": null, "refusal": "I can't help"}}]}),
            ),
            "refused",
        ),
    ];
    for (response, expected) in cases {
        let server = serving(vec![response]).await;
        let (model, _) = recorded_model(&server, 3);
        let error = model.complete(request()).await.expect_err(expected);
        let matched = match expected {
            "malformed" => matches!(error, CompletionError::MalformedResponse { .. }),
            "empty" => matches!(error, CompletionError::EmptyResponse),
            _ => matches!(error, CompletionError::Refused { .. }),
        };
        assert!(matched, "{expected}: {error:?}");
        assert_eq!(received(&server).await, 1, "{expected}: not retried");
    }
}

#[tokio::test]
async fn context_length_and_authentication_errors_are_not_retried() {
    let too_long = ResponseTemplate::new(400).set_body_json(json!({"error": {
        "message": "This model's maximum context length is 128000 tokens.", "code": "context_length_exceeded"}}));
    let server = serving(vec![too_long]).await;
    let (model, _) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("too long");
    assert!(
        matches!(error, CompletionError::ContextOverflow { limit: Some(128_000), requested: None, .. }),
        "{error:?}"
    );
    assert_eq!(received(&server).await, 1);

    // A server error that says the prompt is too long is not retried either.
    let too_long = ResponseTemplate::new(500).set_body_json(json!({"error": {
        "message": "the request exceeds the available context size, try increasing it"}}));
    let server = serving(vec![too_long, answer("never reached")]).await;
    let (model, _) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("too long");
    assert!(matches!(error, CompletionError::ContextOverflow { .. }), "{error:?}");
    assert_eq!(received(&server).await, 1);

    let server = serving(vec![
        ResponseTemplate::new(401).set_body_json(json!({"error": {"message": "Incorrect API key"}})),
    ])
    .await;
    let (model, _) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("unauthorised");
    assert!(
        matches!(&error, CompletionError::Authentication { status: 401, message } if message == "Incorrect API key"),
        "{error:?}"
    );
    assert!(!format!("{error:?} {error}").contains("sk-test-key"), "the key never appears in errors");
    assert_eq!(received(&server).await, 1);

    let server = serving(vec![
        ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "bad temperature"}})),
    ])
    .await;
    let (model, _) = recorded_model(&server, 3);
    let error = model.complete(request()).await.expect_err("bad request");
    assert!(
        matches!(&error, CompletionError::BadRequest { message } if message.contains("bad temperature")),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error_after_retries() {
    // Bind a port, then free it: nothing listens there any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a port")
        .port();
    let config =
        OpenAiConfig::new(&format!("http://127.0.0.1:{port}"), "m").expect("valid").with_max_attempts(3);
    let sleep: Sleep = Arc::new(|_| Box::pin(async {}));
    let model = OpenAiModel::new(config).expect("client").with_sleep(sleep);
    let error = model.complete(request()).await.expect_err("nothing listens");
    assert!(matches!(error, CompletionError::Transport { attempts: 3, .. }), "{error:?}");
}

#[tokio::test]
async fn the_request_has_openais_shape() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", "Bearer sk-test-key"))
        .respond_with(answer("ok"))
        .mount(&server)
        .await;
    let (model, _) = recorded_model(&server, 1);
    let history = vec![
        Message::system("Be brief."),
        Message::user("Compare a.rs and this picture.")
            .with_name("ana")
            .with_part(Part::Attachment(Attachment::base64("image/png", "iVBORw0KGgo="))),
        Message::assistant_tool_calls([
            ToolCall::with_raw_arguments("call_a", "read_file", r#"{"path":"a.rs"}"#),
            ToolCall::with_raw_arguments("call_b", "read_file", r#"{"path":"b.rs"}"#),
        ]),
        Message::tool_result("call_b", "fn b() {}"),
        Message::tool_error("call_a", "no such file").pinned(),
    ];
    let request = CompletionRequest::new(history).with_max_tokens(100).with_temperature(0.5);
    model.complete(request).await.expect("ok");
    let requests = server.received_requests().await.expect("recorded");
    let body: Value = serde_json::from_slice(&requests[0].body).expect("json");
    assert_eq!(
        body,
        json!({
            "model": "test-model",
            "max_tokens": 100,
            "temperature": 0.5,
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "name": "ana", "content": [
                    {"type": "text", "text": "Compare a.rs and this picture."},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
                ]},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_a", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.rs\"}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"b.rs\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_b", "content": "fn b() {}"},
                {"role": "tool", "tool_call_id": "call_a", "content": "no such file"}
            ]
        })
    );
}

#[tokio::test]
async fn no_key_means_no_authorization_header() {
    let server = serving(vec![answer("ok")]).await;
    let model = OpenAiModel::new(OpenAiConfig::new(&server.uri(), "m").expect("valid")).expect("client");
    model.complete(request()).await.expect("ok");
    let requests = server.received_requests().await.expect("recorded");
    assert!(requests[0].headers.get("authorization").is_none());
}

#[tokio::test]
async fn live_endpoint_when_asked() {
    if std::env::var("TIDEMARK_LIVE_TESTS").as_deref() != Ok("1") {
        eprintln!(
            "live test not run: set TIDEMARK_LIVE_TESTS=1 (and OPENAI_API_KEY, TIDEMARK_MODEL) to run it"
        );
        return;
    }
    let model = OpenAiModel::new(OpenAiConfig::from_env().expect("configured")).expect("client");
    let answer = model
        .complete(
            CompletionRequest::new(vec![Message::user("Reply with the single word: pong")])
                .with_max_tokens(10),
        )
        .await
        .expect("the live endpoint answers");
    assert!(answer.text.to_lowercase().contains("pong"), "{answer:?}");
}

#[tokio::test]
async fn tools_are_offered_and_the_calls_the_model_makes_are_read() {
    let calls = ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_9", "type": "function", "function": {"name": "search_history", "arguments": "{\"query\":\"port\",\"limit\":null}"}}
        ]}, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 9}
    }));
    let server = serving(vec![calls]).await;
    let (model, _) = recorded_model(&server, 1);
    let schema =
        json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]});
    let tool = tidemark_core::ToolSpec::new("search_history", "Search earlier turns.", schema.clone());
    let completion =
        model.complete(request().with_tools(vec![tool])).await.expect("a tool call is an answer");
    assert_eq!(completion.finish_reason, FinishReason::ToolCalls);
    assert_eq!(
        completion.tool_calls,
        [ToolCall::with_raw_arguments("call_9", "search_history", r#"{"query":"port","limit":null}"#)]
    );
    let requests = server.received_requests().await.expect("recorded");
    let body: Value = serde_json::from_slice(&requests[0].body).expect("json");
    assert_eq!(
        body["tools"],
        json!([{"type": "function", "function": {"name": "search_history", "description": "Search earlier turns.", "parameters": schema}}])
    );
    // Without tools, no `tools` field is sent.
    let server = serving(vec![answer("ok")]).await;
    let (model, _) = recorded_model(&server, 1);
    model.complete(request()).await.expect("ok");
    let requests = server.received_requests().await.expect("recorded");
    let body: Value = serde_json::from_slice(&requests[0].body).expect("json");
    assert!(body.get("tools").is_none());
}

//! [`OpenAiModel`]: chat completions over HTTP with timeouts, retries, backoff and typed errors.

use std::fmt;

use serde_json::{Value, json};
use tidemark_core::{
    Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, ToolCall,
};

use crate::config::OpenAiConfig;
use crate::error::ConfigError;
use crate::http;
use crate::wire::{WireOptions, to_wire};

/// How the model waits between attempts: `tokio::time::sleep` unless replaced (tests record the waits instead).
pub use tidemark_core::time::Sleep;

/// A [`CompletionModel`] for OpenAI's chat-completions API and the servers that copy it.
///
/// Each call posts the request, converted with [`wire`](crate::wire), and
/// returns the first choice's text. Rate limits (429), request timeouts (408),
/// conflicts (409), server errors (5xx, unless they say the prompt is too long), lost connections and timeouts are
/// retried with exponential backoff and full jitter, honouring `Retry-After`
/// (seconds or an HTTP date) up to a cap (a longer wait ends the call with
/// `RateLimited` and the wait asked for, rather than retrying early); everything else fails at once with
/// a typed [`CompletionError`]: `Authentication` for 401 and 403,
/// `ContextOverflow` when the prompt is too long, with the model's limit and
/// the request's size when the server gives them (so the caller can load
/// within a lower budget and try again; see [`overflow`](crate::overflow) for the shapes read), `BadRequest` with the server's message,
/// `Refused` for refusals and content filters, `EmptyResponse` for an answer
/// without text, and `MalformedResponse` for a body that is not the API's.
/// The API key is sent as a bearer token and never appears in logs, errors or
/// `Debug` output.
///
/// ```no_run
/// use tidemark_core::{CompletionModel, CompletionRequest, Message};
/// use tidemark_providers::{OpenAiConfig, OpenAiModel};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let config = OpenAiConfig::new("http://localhost:11434", "llama3.2")?;
/// let model = OpenAiModel::new(config)?;
/// let request = CompletionRequest::new(vec![Message::user("Name three rivers.")]).with_max_tokens(50);
/// println!("{}", model.complete(request).await?.text);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct OpenAiModel {
    config: OpenAiConfig,
    client: reqwest::Client,
    sleep: Sleep,
}

impl fmt::Debug for OpenAiModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiModel").field("config", &self.config).finish_non_exhaustive()
    }
}

impl OpenAiModel {
    /// A model client with `config`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Client`] when the HTTP client cannot be built (for example, no TLS roots).
    pub fn new(config: OpenAiConfig) -> Result<Self, ConfigError> {
        let client = http::client(&config.patience)?;
        Ok(Self { config, client, sleep: http::tokio_sleep() })
    }

    /// The same model waiting between attempts with `sleep`.
    #[must_use]
    pub fn with_sleep(mut self, sleep: Sleep) -> Self {
        self.sleep = sleep;
        self
    }

    /// The settings.
    pub fn config(&self) -> &OpenAiConfig {
        &self.config
    }

    fn body(&self, request: &CompletionRequest) -> Value {
        let mut body = json!({
            "model": self.config.model(),
            "messages": to_wire(&request.messages, WireOptions::request()),
        });
        if let Some(object) = body.as_object_mut() {
            if let Some(max_tokens) = request.max_tokens {
                object.insert("max_tokens".into(), json!(max_tokens));
            }
            if let Some(temperature) = request.temperature.filter(|t| t.is_finite()) {
                object.insert("temperature".into(), http::temperature(temperature));
            }
            if !request.tools.is_empty() {
                let tools: Vec<Value> = request
                    .tools
                    .iter()
                    .map(|tool| {
                        json!({"type": "function", "function": {
                            "name": tool.name, "description": tool.description, "parameters": tool.parameters,
                        }})
                    })
                    .collect();
                object.insert("tools".into(), Value::Array(tools));
            }
        }
        body
    }

    /// One request: the answer, or a failure that says whether to try again.
    async fn attempt(&self, body: &Value) -> Result<Completion, http::Failure> {
        let mut builder = self.client.post(self.config.endpoint()).json(body);
        if let Some(key) = self.config.api_key() {
            builder = builder.bearer_auth(key.expose());
        }
        http::exchange(builder, parse).await
    }
}

impl CompletionModel for OpenAiModel {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        http::check_temperature(request.temperature)?;
        let body = self.body(&request);
        let completion = http::with_retries(self.config.model(), &self.config.patience, &self.sleep, || {
            self.attempt(&body)
        })
        .await?;
        http::answering(&request, completion)
    }
}

/// The first choice of a successful response.
fn parse(bytes: &[u8]) -> Result<Completion, CompletionError> {
    let malformed = |reason: String| CompletionError::MalformedResponse { reason };
    let body: Value = serde_json::from_slice(bytes)
        .map_err(|error| malformed(format!("the body is not JSON ({error}): {}", http::excerpt(bytes))))?;
    let choice = match body.get("choices") {
        Some(Value::Array(choices)) => {
            choices.first().ok_or_else(|| malformed("`choices` is empty".to_owned()))?
        }
        Some(_) => return Err(malformed("`choices` is not an array".to_owned())),
        None => return Err(malformed(format!("no `choices` in the body: {}", http::excerpt(bytes)))),
    };
    let message = choice.get("message").unwrap_or(&Value::Null);
    if let Some(refusal) = message.get("refusal").and_then(Value::as_str).filter(|r| !r.trim().is_empty()) {
        return Err(CompletionError::Refused { reason: refusal.to_owned() });
    }
    let finish_reason = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("stop") | None => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some("content_filter") => {
            return Err(CompletionError::Refused {
                reason: "the provider's content filter stopped the answer".into(),
            });
        }
        Some("tool_calls" | "function_call") => FinishReason::ToolCalls,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let text = match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    };
    let tool_calls = tool_calls(message)?;
    if text.trim().is_empty() && tool_calls.is_empty() {
        return Err(CompletionError::EmptyResponse);
    }
    Ok(Completion::new(text, finish_reason, http::usage(body.get("usage"))).with_tool_calls(tool_calls))
}

/// The function calls of an answer's `message.tool_calls`, each with its id, name and arguments as sent.
fn tool_calls(message: &Value) -> Result<Vec<ToolCall>, CompletionError> {
    let malformed = |reason: String| CompletionError::MalformedResponse { reason };
    let Some(calls) = message.get("tool_calls").filter(|calls| !calls.is_null()) else {
        return Ok(Vec::new());
    };
    let calls = calls.as_array().ok_or_else(|| malformed("`tool_calls` is not an array".to_owned()))?;
    calls
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let id = call.get("id").and_then(Value::as_str);
            let function = call.get("function");
            let name = function.and_then(|f| f.get("name")).and_then(Value::as_str);
            let arguments = function.and_then(|f| f.get("arguments"));
            let arguments = match arguments {
                Some(Value::String(text)) => text.clone(),
                Some(other) if !other.is_null() => other.to_string(),
                _ => "{}".to_owned(),
            };
            match (id, name) {
                (Some(id), Some(name)) if !id.is_empty() && !name.is_empty() => {
                    Ok(ToolCall::with_raw_arguments(id, name, arguments))
                }
                _ => Err(malformed(format!("tool_calls[{index}] has no id or function name"))),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use tidemark_core::Usage;

    use super::*;

    #[test]
    fn tool_calls_are_read_and_bad_ones_refused() {
        let calls = br#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_history","arguments":"{\"query\":\"port\",\"limit\":3}"}}]},"finish_reason":"tool_calls"}]}"#;
        let completion = parse(calls).expect("a turn of tool calls alone is an answer");
        assert_eq!(completion.finish_reason, FinishReason::ToolCalls);
        assert_eq!(
            completion.tool_calls,
            [ToolCall::with_raw_arguments("call_1", "search_history", r#"{"query":"port","limit":3}"#)]
        );
        assert_eq!(completion.message().tool_calls().count(), 1);
        let nameless = br#"{"choices":[{"message":{"tool_calls":[{"id":"call_1","function":{}}]}}]}"#;
        assert!(matches!(parse(nameless), Err(CompletionError::MalformedResponse { .. })));
        let not_a_list = br#"{"choices":[{"message":{"content":"x","tool_calls":{}}}]}"#;
        assert!(matches!(parse(not_a_list), Err(CompletionError::MalformedResponse { .. })));
    }

    #[test]
    fn bodies_are_parsed_strictly() {
        let ok = br#"{"choices":[{"message":{"content":"hi"},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}"#;
        let completion = parse(ok).expect("parses");
        assert_eq!(
            (completion.text.as_str(), completion.finish_reason, completion.usage),
            ("hi", FinishReason::Length, Usage::new(3, 1))
        );
        assert!(matches!(parse(b"<html>"), Err(CompletionError::MalformedResponse { .. })));
        assert!(matches!(parse(br#"{"choices":[]}"#), Err(CompletionError::MalformedResponse { .. })));
        assert!(matches!(
            parse(br#"{"choices":[{"message":{"content":"  "}}]}"#),
            Err(CompletionError::EmptyResponse)
        ));
        assert!(matches!(
            parse(br#"{"choices":[{"message":{"content":null,"refusal":"no"}}]}"#),
            Err(CompletionError::Refused { .. })
        ));
        assert!(matches!(
            parse(br#"{"choices":[{"message":{"content":"x"},"finish_reason":"content_filter"}]}"#),
            Err(CompletionError::Refused { .. })
        ));
        let anthropic = br#"{"choices":[{"message":{"content":"hi"}}],"usage":{"input_tokens":40,"cache_read_input_tokens":1000,"cache_creation_input_tokens":7,"output_tokens":5}}"#;
        assert_eq!(
            parse(anthropic).expect("parses").usage,
            Usage::new(1_047, 5),
            "cached prompt tokens count"
        );
        let both = br#"{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":9,"input_tokens":40,"completion_tokens":2}}"#;
        assert_eq!(parse(both).expect("parses").usage, Usage::new(9, 2), "OpenAI's names win");
        let none = br#"{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":-1}}"#;
        assert_eq!(parse(none).expect("parses").usage, Usage::default(), "no usage reads as zero");
        let parts = br#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}"#;
        assert_eq!(parse(parts).map(|c| c.text).ok().as_deref(), Some("ab"));
    }
}

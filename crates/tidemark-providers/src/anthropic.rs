//! Anthropic's Messages API: [`AnthropicModel`], a [`CompletionModel`] with the same timeouts, retries and typed errors as the OpenAI model, and [`ClaudeTranscript`], Claude histories read and written byte for byte.

mod cache;
mod config;
mod messages;
pub mod transcript;

use std::fmt;

use serde_json::{Value, json};
use tidemark_core::{
    Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, ToolCall,
};

pub use self::cache::{MAX_BREAKPOINTS, PromptCache};
pub use self::config::{ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, AnthropicConfig};
pub use self::transcript::ClaudeTranscript;
use crate::error::ConfigError;
use crate::http;
use crate::model::Sleep;

/// A [`CompletionModel`] for Anthropic's Messages API (`POST /v1/messages`).
///
/// Each call sends the history as the API wants it: system messages in the
/// top-level `system` field (one text block each, or one string joined with
/// blank lines when the prompt cache is off), then alternating user and assistant
/// turns, with tool calls as `tool_use` blocks and tool results as
/// `tool_result` blocks in user turns (consecutive messages of one side are
/// merged into one turn, none dropped). Claude's own blocks read from a
/// transcript (`thinking` with its signature, `redacted_thinking`) are sent
/// as they came; another provider's opaque blocks are left out. Unless the
/// config turns it off, the request marks prompt-cache breakpoints on the
/// stable system prefix and the conversation's last block (see
/// [`PromptCache`] for the rule). The answer is the concatenation of
/// the response's `text` blocks, and its usage counts the prompt as
/// `input_tokens` plus the tokens read from and written to the prompt cache.
///
/// Failures are those of [`OpenAiModel`](crate::OpenAiModel), through the same
/// code: 429 honours `Retry-After` up to a cap; 529 (`overloaded_error`), other
/// 5xx, 408, 409, lost connections and timeouts are retried with exponential
/// backoff and full jitter; 401 and 403 are `Authentication`, a prompt too long
/// is `ContextOverflow`, other 4xx are `BadRequest`, none of them retried.
/// A body that is not the API's is `MalformedResponse`, an answer without
/// text `EmptyResponse`, and `stop_reason: "refusal"` is `Refused`. A tool call
/// whose arguments are not a JSON object is a `BadRequest` before anything is
/// sent. The API key goes in the `x-api-key` header and never appears in logs,
/// errors or `Debug` output.
///
/// ```no_run
/// use tidemark_core::{CompletionModel, CompletionRequest, Message};
/// use tidemark_providers::{AnthropicConfig, AnthropicModel};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let model = AnthropicModel::new(AnthropicConfig::from_env()?)?;
/// let request = CompletionRequest::new(vec![Message::system("Be brief."), Message::user("Name three rivers.")])
///     .with_max_tokens(50);
/// println!("{}", model.complete(request).await?.text);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct AnthropicModel {
    config: AnthropicConfig,
    client: reqwest::Client,
    sleep: Sleep,
}

impl fmt::Debug for AnthropicModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnthropicModel").field("config", &self.config).finish_non_exhaustive()
    }
}

impl AnthropicModel {
    /// A model client with `config`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Client`] when the HTTP client cannot be built (for example, no TLS roots).
    pub fn new(config: AnthropicConfig) -> Result<Self, ConfigError> {
        let client = http::client(&config.patience)?;
        Ok(Self { config, client, sleep: http::tokio_sleep() })
    }

    /// A model client configured by the environment (see [`AnthropicConfig::from_env`]).
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the variable that is missing or invalid, or [`ConfigError::Client`].
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::new(AnthropicConfig::from_env()?)
    }

    /// The same model waiting between attempts with `sleep`.
    #[must_use]
    pub fn with_sleep(mut self, sleep: Sleep) -> Self {
        self.sleep = sleep;
        self
    }

    /// The settings.
    pub fn config(&self) -> &AnthropicConfig {
        &self.config
    }

    fn body(&self, request: &CompletionRequest) -> Result<Value, CompletionError> {
        let (system, mut messages) = messages::to_messages(&request.messages)?;
        let cache = self.config.prompt_cache();
        let mut system = cache::system(system, cache);
        cache::mark(system.as_mut(), &mut messages, cache);
        let mut body = json!({
            "model": self.config.model(),
            "max_tokens": request.max_tokens.unwrap_or(self.config.max_tokens()),
        });
        if let Some(object) = body.as_object_mut() {
            if let Some(system) = system {
                object.insert("system".into(), system);
            }
            object.insert("messages".into(), Value::Array(messages));
            if let Some(temperature) = request.temperature.filter(|t| t.is_finite()) {
                object.insert("temperature".into(), http::temperature(temperature));
            }
            if !request.tools.is_empty() {
                let tools: Vec<Value> = request
                    .tools
                    .iter()
                    .map(|tool| {
                        json!({"name": tool.name, "description": tool.description, "input_schema": tool.parameters})
                    })
                    .collect();
                object.insert("tools".into(), Value::Array(tools));
            }
        }
        Ok(body)
    }

    /// One request: the answer, or a failure that says whether to try again.
    async fn attempt(&self, body: &Value) -> Result<Completion, http::Failure> {
        let mut builder = self
            .client
            .post(self.config.endpoint())
            .header("anthropic-version", self.config.version())
            .json(body);
        if let Some(key) = self.config.api_key() {
            builder = builder.header("x-api-key", key.expose());
        }
        http::exchange(builder, parse).await
    }
}

impl CompletionModel for AnthropicModel {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        http::check_temperature(request.temperature)?;
        let body = self.body(&request)?;
        let completion = http::with_retries(self.config.model(), &self.config.patience, &self.sleep, || {
            self.attempt(&body)
        })
        .await?;
        http::answering(&request, completion)
    }
}

/// The text, stop reason and usage of a successful response.
fn parse(bytes: &[u8]) -> Result<Completion, CompletionError> {
    let malformed = |reason: String| CompletionError::MalformedResponse { reason };
    let body: Value = serde_json::from_slice(bytes)
        .map_err(|error| malformed(format!("the body is not JSON ({error}): {}", http::excerpt(bytes))))?;
    let blocks = match body.get("content") {
        Some(Value::Array(blocks)) => blocks,
        Some(_) => return Err(malformed("`content` is not an array".to_owned())),
        None => return Err(malformed(format!("no `content` in the body: {}", http::excerpt(bytes)))),
    };
    let text: String = blocks
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    let finish_reason = match body.get("stop_reason").and_then(Value::as_str) {
        Some("end_turn" | "stop_sequence") | None => FinishReason::Stop,
        Some("max_tokens") => FinishReason::Length,
        Some("tool_use") => FinishReason::ToolCalls,
        Some("refusal") => {
            let reason = if text.trim().is_empty() {
                "the model stopped with stop_reason \"refusal\"".to_owned()
            } else {
                text
            };
            return Err(CompletionError::Refused { reason });
        }
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let tool_calls = blocks
        .iter()
        .enumerate()
        .filter(|(_, block)| block.get("type").and_then(Value::as_str) == Some("tool_use"))
        .map(|(index, block)| {
            let id = block.get("id").and_then(Value::as_str).filter(|id| !id.is_empty());
            let name = block.get("name").and_then(Value::as_str).filter(|name| !name.is_empty());
            let input = block.get("input").filter(|input| input.is_object());
            match (id, name, input) {
                (Some(id), Some(name), Some(input)) => {
                    Ok(ToolCall::with_raw_arguments(id, name, input.to_string()))
                }
                _ => Err(malformed(format!(
                    "content[{index}] is a tool_use without an id, a name or an object input"
                ))),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if text.trim().is_empty() && tool_calls.is_empty() {
        return Err(CompletionError::EmptyResponse);
    }
    Ok(Completion::new(text, finish_reason, http::usage(body.get("usage"))).with_tool_calls(tool_calls))
}

#[cfg(test)]
mod tests {
    use tidemark_core::Usage;

    use super::*;

    #[test]
    fn responses_are_parsed_strictly() {
        let ok = br#"{"type":"message","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t","name":"n","input":{}},{"type":"text","text":"b"}],"stop_reason":"max_tokens","usage":{"input_tokens":40,"cache_read_input_tokens":100,"cache_creation_input_tokens":7,"output_tokens":5}}"#;
        let completion = parse(ok).expect("parses");
        assert_eq!(
            (completion.text.as_str(), completion.finish_reason, completion.usage),
            ("ab", FinishReason::Length, Usage::new(147, 5))
        );
        assert_eq!(completion.tool_calls, [ToolCall::with_raw_arguments("t", "n", "{}")]);
        // A turn of tool calls alone is an answer; a tool_use block without its fields is malformed.
        let calls = br#"{"content":[{"type":"tool_use","id":"toolu_1","name":"search_history","input":{"query":"port","limit":3}}],"stop_reason":"tool_use"}"#;
        let completion = parse(calls).expect("parses");
        let arguments: Value = serde_json::from_str(&completion.tool_calls[0].arguments).expect("JSON");
        assert_eq!(arguments, json!({"query": "port", "limit": 3}));
        assert_eq!(completion.message().tool_calls().count(), 1);
        let broken =
            br#"{"content":[{"type":"tool_use","id":"toolu_1","input":{}}],"stop_reason":"tool_use"}"#;
        assert!(matches!(parse(broken), Err(CompletionError::MalformedResponse { .. })));
        let stops = [("end_turn", FinishReason::Stop), ("tool_use", FinishReason::ToolCalls)];
        for (stop, expected) in stops {
            let body = format!(r#"{{"content":[{{"type":"text","text":"x"}}],"stop_reason":"{stop}"}}"#);
            assert_eq!(parse(body.as_bytes()).map(|c| c.finish_reason).ok(), Some(expected), "{stop}");
        }
        let paused = br#"{"content":[{"type":"text","text":"x"}],"stop_reason":"pause_turn"}"#;
        assert_eq!(
            parse(paused).map(|c| c.finish_reason).ok(),
            Some(FinishReason::Other("pause_turn".into()))
        );
        for bad in [&b"<html>"[..], br#"{"id":"x"}"#, br#"{"content":"hi"}"#] {
            assert!(matches!(parse(bad), Err(CompletionError::MalformedResponse { .. })), "{bad:?}");
        }
        for empty in [&br#"{"content":[]}"#[..], br#"{"content":[{"type":"text","text":"  "}]}"#] {
            assert!(matches!(parse(empty), Err(CompletionError::EmptyResponse)), "{empty:?}");
        }
        let refused = br#"{"content":[],"stop_reason":"refusal"}"#;
        assert!(
            matches!(parse(refused), Err(CompletionError::Refused { reason }) if reason.contains("refusal"))
        );
    }
}

//! [`OpenAiModel`]: chat completions over HTTP with timeouts, retries, backoff and typed errors.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use serde_json::{Value, json};
use tidemark_core::{Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, Usage};
use tracing::Instrument;

use crate::config::OpenAiConfig;
use crate::error::ConfigError;
use crate::overflow::context_overflow;
use crate::wire::{WireOptions, to_wire};

/// How the model waits between attempts: `tokio::time::sleep` unless replaced (tests record the waits instead).
pub use tidemark_core::time::Sleep;

/// The most bytes of an error body kept for a message.
const EXCERPT_BYTES: usize = 300;

/// The most bytes read of a successful answer; a chat completion is far smaller.
const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// The most bytes read of an error body: enough for any explanation a server gives.
const MAX_ERROR_BYTES: usize = 64 * 1024;

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
        let client = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .user_agent(concat!("tidemark/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|source| ConfigError::Client { source })?;
        let sleep: Sleep = Arc::new(|duration| Box::pin(tokio::time::sleep(duration)));
        Ok(Self { config, client, sleep })
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
                // Through its shortest decimal form, so 0.2 is sent as 0.2 and not as the f32's widened value.
                let value: f64 = temperature.to_string().parse().unwrap_or(f64::from(temperature));
                object.insert("temperature".into(), json!(value));
            }
        }
        body
    }

    /// One request: the answer, or a failure that says whether to try again.
    async fn attempt(&self, body: &Value) -> Result<Completion, Failure> {
        let mut builder = self.client.post(self.config.endpoint()).json(body);
        if let Some(key) = self.config.api_key() {
            builder = builder.bearer_auth(key.expose());
        }
        let mut response = builder.send().await.map_err(|error| self.transport(error))?;
        let status = response.status();
        let headers = response.headers().clone();
        let cap = if status.is_success() { MAX_BODY_BYTES } else { MAX_ERROR_BYTES };
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|error| self.transport(error))? {
            bytes.extend_from_slice(&chunk[..chunk.len().min(cap - bytes.len())]);
            if bytes.len() >= cap {
                if status.is_success() {
                    let reason = format!("the answer is larger than {MAX_BODY_BYTES} bytes");
                    return Err(Failure::Final(CompletionError::MalformedResponse { reason }));
                }
                // An explanation needs no more than its start.
                break;
            }
        }
        if status.is_success() {
            return parse(&bytes).map_err(Failure::Final);
        }
        let message = error_message(&bytes);
        let retry_after = retry_after(&headers);
        Err(match status {
            StatusCode::TOO_MANY_REQUESTS => Failure::Again { kind: Again::RateLimited, retry_after },
            StatusCode::REQUEST_TIMEOUT => Failure::Again { kind: Again::Timeout, retry_after },
            StatusCode::CONFLICT => {
                Failure::Again { kind: Again::Server { status: status.as_u16(), message }, retry_after }
            }
            // Some servers (older vLLM, Ollama) answer an over-long prompt with a 5xx; sending it again cannot help.
            status if status.is_server_error() => match context_overflow(status.as_u16(), &bytes, &message) {
                Some(overflow) => Failure::Final(overflow),
                None => {
                    Failure::Again { kind: Again::Server { status: status.as_u16(), message }, retry_after }
                }
            },
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                Failure::Final(CompletionError::Authentication { status: status.as_u16(), message })
            }
            status => {
                Failure::Final(context_overflow(status.as_u16(), &bytes, &message).unwrap_or_else(|| {
                    CompletionError::BadRequest { message: format!("status {}: {message}", status.as_u16()) }
                }))
            }
        })
    }

    fn transport(&self, error: reqwest::Error) -> Failure {
        let kind = if error.is_timeout() { Again::Timeout } else { Again::Transport(error) };
        Failure::Again { kind, retry_after: None }
    }

    /// How long to wait before attempt `next` (2 for the first retry).
    fn backoff(&self, next: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait;
        }
        let exponent = next.saturating_sub(2).min(16);
        let ceiling = self.config.backoff_base.saturating_mul(1 << exponent).min(self.config.backoff_max);
        // Full jitter spreads clients that failed together over the whole window.
        ceiling.mul_f64(fastrand::f64())
    }
}

impl CompletionModel for OpenAiModel {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        if request.temperature.is_some_and(|t| !t.is_finite()) {
            return Err(CompletionError::BadRequest {
                message: "temperature must be a finite number".into(),
            });
        }
        let body = self.body(&request);
        let mut attempts = 0;
        loop {
            attempts += 1;
            let span =
                tracing::info_span!("tidemark.completion", model = %self.config.model(), attempt = attempts);
            match self.attempt(&body).instrument(span).await {
                Ok(completion) => {
                    tracing::info!(
                        model = %self.config.model(),
                        attempts,
                        prompt_tokens = completion.usage.prompt_tokens,
                        completion_tokens = completion.usage.completion_tokens,
                        "completion"
                    );
                    return Ok(completion);
                }
                Err(Failure::Final(error)) => return Err(error),
                Err(Failure::Again { kind, retry_after }) => {
                    // Never retry before the server allows: a wait beyond the cap ends the call.
                    let too_long = retry_after.is_some_and(|wait| wait > self.config.max_retry_after);
                    if attempts >= self.config.max_attempts || too_long {
                        return Err(kind.into_error(attempts, retry_after, self.config.request_timeout));
                    }
                    let wait = self.backoff(attempts + 1, retry_after);
                    tracing::warn!(model = %self.config.model(), attempt = attempts, reason = %kind, ?wait, "completion failed; trying again");
                    (self.sleep)(wait).await;
                }
            }
        }
    }
}

/// A failed attempt.
enum Failure {
    /// Worth another attempt.
    Again { kind: Again, retry_after: Option<Duration> },
    /// Not worth another attempt.
    Final(CompletionError),
}

/// Why an attempt may pass if made again.
enum Again {
    RateLimited,
    Timeout,
    Server { status: u16, message: String },
    Transport(reqwest::Error),
}

impl fmt::Display for Again {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Again::RateLimited => f.write_str("rate limited"),
            Again::Timeout => f.write_str("timed out"),
            Again::Server { status, .. } => write!(f, "server status {status}"),
            Again::Transport(_) => f.write_str("connection failed"),
        }
    }
}

impl Again {
    fn into_error(self, attempts: u32, retry_after: Option<Duration>, limit: Duration) -> CompletionError {
        match self {
            Again::RateLimited => CompletionError::RateLimited { attempts, retry_after },
            Again::Timeout => CompletionError::Timeout { limit, attempts },
            Again::Server { status, message } => CompletionError::Server { status, attempts, message },
            Again::Transport(error) => CompletionError::Transport { attempts, source: Box::new(error) },
        }
    }
}

/// The first choice of a successful response.
fn parse(bytes: &[u8]) -> Result<Completion, CompletionError> {
    let malformed = |reason: String| CompletionError::MalformedResponse { reason };
    let body: Value = serde_json::from_slice(bytes)
        .map_err(|error| malformed(format!("the body is not JSON ({error}): {}", excerpt(bytes))))?;
    let choice = match body.get("choices") {
        Some(Value::Array(choices)) => {
            choices.first().ok_or_else(|| malformed("`choices` is empty".to_owned()))?
        }
        Some(_) => return Err(malformed("`choices` is not an array".to_owned())),
        None => return Err(malformed(format!("no `choices` in the body: {}", excerpt(bytes)))),
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
    if text.trim().is_empty() {
        return Err(CompletionError::EmptyResponse);
    }
    Ok(Completion::new(text, finish_reason, usage(body.get("usage"))))
}

/// The usage a body reports: OpenAI's `prompt_tokens` and `completion_tokens`, or Anthropic's names, which some proxies pass through; zero for what is missing.
///
/// Anthropic's `input_tokens` leaves out the prompt tokens read from or
/// written to its cache (`cache_read_input_tokens`,
/// `cache_creation_input_tokens`), which the model saw all the same, so the
/// prompt is their sum: the count a memory calibrates its own against.
fn usage(usage: Option<&Value>) -> Usage {
    let count = |key: &str| {
        usage
            .and_then(|usage| usage.get(key))
            .and_then(Value::as_u64)
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    };
    let prompt = count("prompt_tokens").unwrap_or_else(|| {
        ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"]
            .into_iter()
            .fold(0, |total: u32, key| total.saturating_add(count(key).unwrap_or(0)))
    });
    let completion = count("completion_tokens").or_else(|| count("output_tokens")).unwrap_or(0);
    Usage::new(prompt, completion)
}

/// The server's explanation: `error.message` of an OpenAI or Anthropic error body, a top-level `message` (vLLM), else the start of the body.
fn error_message(bytes: &[u8]) -> String {
    serde_json::from_slice::<Value>(bytes)
        .ok()
        .and_then(|body| {
            let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
            let error = body.get("error");
            text(error.and_then(|error| error.get("message")))
                .or_else(|| text(error))
                .or_else(|| text(body.get("message")))
        })
        .unwrap_or_else(|| excerpt(bytes))
}

/// At most [`EXCERPT_BYTES`] of a body, as text.
fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(EXCERPT_BYTES)]).into_owned();
    if bytes.len() > EXCERPT_BYTES { format!("{text}…") } else { text }
}

/// `Retry-After` as delta-seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let header = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(RETRY_AFTER, value.parse().expect("a header value"));
            retry_after(&headers)
        };
        assert_eq!(header("7"), Some(Duration::from_secs(7)));
        assert_eq!(header(" 0 "), Some(Duration::ZERO));
        let soon = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        assert!(
            header(&soon)
                .is_some_and(|wait| (Duration::from_secs(28)..=Duration::from_secs(30)).contains(&wait))
        );
        assert_eq!(
            header("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO),
            "a date in the past means now"
        );
        assert_eq!(header("soon"), None);
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

    #[test]
    fn error_messages_are_short() {
        assert_eq!(error_message(br#"{"error":{"message":"bad key"}}"#), "bad key");
        assert_eq!(error_message(br#"{"object":"error","message":"too long","code":400}"#), "too long");
        let long = vec![b'x'; 10_000];
        assert_eq!(error_message(&long).chars().count(), EXCERPT_BYTES + 1);
    }
}

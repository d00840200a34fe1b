//! The HTTP plumbing both models share: patience settings, reading a capped body, sorting failures into final and passing ones, and the retry loop with backoff and `Retry-After`.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::{RequestBuilder, StatusCode};
use serde_json::{Value, json};
use tidemark_core::time::Sleep;
use tidemark_core::{Completion, CompletionError, CompletionRequest, Usage};
use tracing::Instrument;

use crate::error::ConfigError;
use crate::overflow::context_overflow;

/// The most bytes of an error body kept for a message.
pub(crate) const EXCERPT_BYTES: usize = 300;

/// The most bytes read of a successful answer; a completion is far smaller.
const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// The most bytes read of an error body: enough for any explanation a server gives.
const MAX_ERROR_BYTES: usize = 64 * 1024;

/// How long a model waits and how often it tries again; the same knobs for every provider.
#[derive(Clone, Debug)]
pub(crate) struct Patience {
    pub(crate) connect_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) max_attempts: u32,
    pub(crate) backoff_base: Duration,
    pub(crate) backoff_max: Duration,
    pub(crate) max_retry_after: Duration,
}

impl Default for Patience {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(120),
            max_attempts: 4,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(20),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

/// The `with_*` setters of a config's [`Patience`], written once for every config that holds one in a `patience` field.
macro_rules! patience_setters {
    () => {
        /// The same settings with a time limit on connecting.
        #[must_use]
        pub fn with_connect_timeout(mut self, limit: std::time::Duration) -> Self {
            self.patience.connect_timeout = limit;
            self
        }

        /// The same settings with a time limit on a whole request, answer included.
        #[must_use]
        pub fn with_request_timeout(mut self, limit: std::time::Duration) -> Self {
            self.patience.request_timeout = limit;
            self
        }

        /// The same settings making at most `attempts` requests per call (at least one).
        #[must_use]
        pub fn with_max_attempts(mut self, attempts: u32) -> Self {
            self.patience.max_attempts = attempts.max(1);
            self
        }

        /// The same settings with another exponential backoff: `base` doubled per attempt, at most `max`, with full jitter.
        #[must_use]
        pub fn with_backoff(mut self, base: std::time::Duration, max: std::time::Duration) -> Self {
            self.patience.backoff_base = base;
            self.patience.backoff_max = max.max(base);
            self
        }

        /// The same settings honouring a server's `Retry-After` up to `cap`.
        #[must_use]
        pub fn with_max_retry_after(mut self, cap: std::time::Duration) -> Self {
            self.patience.max_retry_after = cap;
            self
        }
    };
}
pub(crate) use patience_setters;

/// The HTTP client for `patience`'s timeouts.
pub(crate) fn client(patience: &Patience) -> Result<reqwest::Client, ConfigError> {
    reqwest::Client::builder()
        .connect_timeout(patience.connect_timeout)
        .timeout(patience.request_timeout)
        .user_agent(concat!("tidemark/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|source| ConfigError::Client { source })
}

/// The real timer: `tokio::time::sleep`.
pub(crate) fn tokio_sleep() -> Sleep {
    Arc::new(|duration| Box::pin(tokio::time::sleep(duration)))
}

/// A provider's environment variables: where to find the base URL, the model and the key.
pub(crate) struct Variables {
    pub(crate) base: &'static str,
    pub(crate) model: &'static str,
    pub(crate) key: &'static str,
    /// The base URL when `base` is unset.
    pub(crate) default_base: &'static str,
    /// The start of the provider's own endpoint, which refuses calls without a key.
    pub(crate) own_endpoint: &'static str,
    /// Why the key is required there, for the error.
    pub(crate) why_key: &'static str,
}

/// Settings built by `build` from the base URL and model in `lookup`, and the key, if any.
///
/// Blank values count as unset. The key is required only when the endpoint is the provider's
/// own: a gateway on another host may hold the key itself.
pub(crate) fn from_variables<C>(
    lookup: impl Fn(&str) -> Option<String>,
    names: &Variables,
    build: impl FnOnce(&str, String) -> Result<C, ConfigError>,
    endpoint_of: impl FnOnce(&C) -> &str,
) -> Result<(C, Option<String>), ConfigError> {
    let present = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
    let base = present(names.base).unwrap_or_else(|| names.default_base.to_owned());
    let model = present(names.model)
        .ok_or(ConfigError::Missing { name: names.model, why: "it names the model to call" })?;
    let config = build(&base, model)?;
    let key = present(names.key);
    if key.is_none() && endpoint_of(&config).starts_with(names.own_endpoint) {
        return Err(ConfigError::Missing { name: names.key, why: names.why_key });
    }
    Ok((config, key))
}

/// The URL of `path` (such as `/chat/completions`) under `base`, which may be given with or without a trailing `/v1` or slash.
pub(crate) fn endpoint(base: &str, path: &str) -> Result<String, ConfigError> {
    let invalid = || ConfigError::BaseUrl { url: base.to_owned() };
    let url = reqwest::Url::parse(base.trim()).map_err(|_| invalid())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(invalid());
    }
    let mut text = url.as_str().trim_end_matches('/').to_owned();
    if !text.ends_with("/v1") {
        text.push_str("/v1");
    }
    text.push_str(path);
    Ok(text)
}

/// A finite temperature as JSON, through its shortest decimal form, so 0.2 is sent as 0.2 and not as the f32's widened value.
pub(crate) fn temperature(temperature: f32) -> Value {
    let value: f64 = temperature.to_string().parse().unwrap_or(f64::from(temperature));
    json!(value)
}

/// The error for a temperature that is not a number, which no provider accepts.
pub(crate) fn check_temperature(temperature: Option<f32>) -> Result<(), CompletionError> {
    if temperature.is_some_and(|t| !t.is_finite()) {
        return Err(CompletionError::BadRequest { message: "temperature must be a finite number".into() });
    }
    Ok(())
}

/// `completion` as the answer to `request`: tool calls alone answer a request that offered tools; to one that offered none (a summarizer's) they say nothing, and the answer is empty.
pub(crate) fn answering(
    request: &CompletionRequest,
    completion: Completion,
) -> Result<Completion, CompletionError> {
    if request.tools.is_empty() && completion.text.trim().is_empty() {
        return Err(CompletionError::EmptyResponse);
    }
    Ok(completion)
}

/// Calls `attempt` until it succeeds, fails for good, or the attempts or the server's patience run out, sleeping with `sleep` in between.
pub(crate) async fn with_retries<F, Fut>(
    model: &str,
    patience: &Patience,
    sleep: &Sleep,
    mut attempt: F,
) -> Result<Completion, CompletionError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Completion, Failure>>,
{
    let mut attempts = 0;
    loop {
        attempts += 1;
        let span = tracing::info_span!("tidemark.completion", model = %model, attempt = attempts);
        match attempt().instrument(span).await {
            Ok(completion) => {
                tracing::info!(
                    model = %model,
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
                let too_long = retry_after.is_some_and(|wait| wait > patience.max_retry_after);
                if attempts >= patience.max_attempts || too_long {
                    return Err(kind.into_error(attempts, retry_after, patience.request_timeout));
                }
                let wait = backoff(patience, attempts + 1, retry_after);
                tracing::warn!(model = %model, attempt = attempts, reason = %kind, ?wait, "completion failed; trying again");
                sleep(wait).await;
            }
        }
    }
}

/// Sends one request and reads its answer with `parse`, or sorts its failure by status.
pub(crate) async fn exchange(
    request: RequestBuilder,
    parse: impl FnOnce(&[u8]) -> Result<Completion, CompletionError>,
) -> Result<Completion, Failure> {
    let mut response = request.send().await.map_err(transport)?;
    let status = response.status();
    let headers = response.headers().clone();
    let cap = if status.is_success() { MAX_BODY_BYTES } else { MAX_ERROR_BYTES };
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport)? {
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
    Err(failure(status, &headers, &bytes))
}

/// What an unsuccessful status means: 429, 408, 409 and 5xx (Anthropic's 529 "overloaded" among them) may pass on another attempt, the rest are final.
fn failure(status: StatusCode, headers: &HeaderMap, bytes: &[u8]) -> Failure {
    let message = error_message(bytes);
    let retry_after = retry_after(headers);
    match status {
        StatusCode::TOO_MANY_REQUESTS => Failure::Again { kind: Again::RateLimited, retry_after },
        StatusCode::REQUEST_TIMEOUT => Failure::Again { kind: Again::Timeout, retry_after },
        StatusCode::CONFLICT => {
            Failure::Again { kind: Again::Server { status: status.as_u16(), message }, retry_after }
        }
        // Some servers (older vLLM, Ollama) answer an over-long prompt with a 5xx; sending it again cannot help.
        status if status.is_server_error() => match context_overflow(status.as_u16(), bytes, &message) {
            Some(overflow) => Failure::Final(overflow),
            None => Failure::Again { kind: Again::Server { status: status.as_u16(), message }, retry_after },
        },
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
            Failure::Final(CompletionError::Authentication { status: status.as_u16(), message })
        }
        status => Failure::Final(context_overflow(status.as_u16(), bytes, &message).unwrap_or_else(|| {
            CompletionError::BadRequest { message: format!("status {}: {message}", status.as_u16()) }
        })),
    }
}

fn transport(error: reqwest::Error) -> Failure {
    let kind = if error.is_timeout() { Again::Timeout } else { Again::Transport(error) };
    Failure::Again { kind, retry_after: None }
}

/// How long to wait before attempt `next` (2 for the first retry).
fn backoff(patience: &Patience, next: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(wait) = retry_after {
        return wait;
    }
    let exponent = next.saturating_sub(2).min(16);
    let ceiling = patience.backoff_base.saturating_mul(1 << exponent).min(patience.backoff_max);
    // Full jitter spreads clients that failed together over the whole window.
    ceiling.mul_f64(fastrand::f64())
}

/// A failed attempt.
pub(crate) enum Failure {
    /// Worth another attempt.
    Again { kind: Again, retry_after: Option<Duration> },
    /// Not worth another attempt.
    Final(CompletionError),
}

/// Why an attempt may pass if made again.
pub(crate) enum Again {
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

/// The usage a body reports: OpenAI's `prompt_tokens` and `completion_tokens`, or Anthropic's names; zero for what is missing.
///
/// Anthropic's `input_tokens` leaves out the prompt tokens read from or
/// written to its cache (`cache_read_input_tokens`,
/// `cache_creation_input_tokens`), which the model saw all the same, so the
/// prompt is their sum: the count a memory calibrates its own against.
pub(crate) fn usage(usage: Option<&Value>) -> Usage {
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
pub(crate) fn error_message(bytes: &[u8]) -> String {
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
pub(crate) fn excerpt(bytes: &[u8]) -> String {
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
    fn base_urls_are_normalised() {
        let check = |base: &str, expected: &str| {
            assert_eq!(endpoint(base, "/chat/completions").ok().as_deref(), Some(expected), "{base}");
        };
        for base in ["http://h:8080", "http://h:8080/", "http://h:8080/v1", "http://h:8080/v1/"] {
            check(base, "http://h:8080/v1/chat/completions");
        }
        check("https://proxy.example/openai/v1", "https://proxy.example/openai/v1/chat/completions");
        check("https://proxy.example/openai", "https://proxy.example/openai/v1/chat/completions");
        for bad in ["", "not a url", "ftp://h/v1", "file:///tmp"] {
            assert!(
                matches!(endpoint(bad, "/messages"), Err(ConfigError::BaseUrl { url }) if url == bad),
                "{bad}"
            );
        }
    }

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
    fn usage_reads_both_providers_names() {
        let read = |text: &str| usage(Some(&serde_json::from_str(text).expect("json")));
        let anthropic = r#"{"input_tokens":40,"cache_read_input_tokens":1000,"cache_creation_input_tokens":7,"output_tokens":5}"#;
        assert_eq!(read(anthropic), Usage::new(1_047, 5), "cached prompt tokens count");
        let both = r#"{"prompt_tokens":9,"input_tokens":40,"completion_tokens":2}"#;
        assert_eq!(read(both), Usage::new(9, 2), "OpenAI's names win");
        assert_eq!(read(r#"{"prompt_tokens":-1}"#), Usage::default(), "no usage reads as zero");
        assert_eq!(usage(None), Usage::default());
    }

    #[test]
    fn error_messages_are_short() {
        assert_eq!(error_message(br#"{"error":{"message":"bad key"}}"#), "bad key");
        assert_eq!(
            error_message(br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
            "Overloaded"
        );
        assert_eq!(error_message(br#"{"object":"error","message":"too long","code":400}"#), "too long");
        let long = vec![b'x'; 10_000];
        assert_eq!(error_message(&long).chars().count(), EXCERPT_BYTES + 1);
    }
}

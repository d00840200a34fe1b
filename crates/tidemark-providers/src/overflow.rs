//! Recognising a provider's "the prompt is too long" answer and reading the figures it gives.
//!
//! Providers say it in several ways. Each shape below has a unit test:
//!
//! | Provider | Status | What the body says |
//! |---|---|---|
//! | OpenAI | 400 | `error.code` `context_length_exceeded`; "maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens" |
//! | vLLM, OpenRouter | 400 | "maximum context length is 4096 tokens. However, you requested 5000 tokens" (OpenRouter: "requested about …") |
//! | Anthropic | 400 | `error.type` `invalid_request_error`; "prompt is too long: 208310 tokens > 200000 maximum" |
//! | llama.cpp | 400 | `error.type` `exceed_context_size_error`, "the request exceeds the available context size", `n_prompt_tokens` and `n_ctx` |
//! | Ollama and others | 400 | "exceeds the context length", "context window exceeded", "too many tokens" with "context" |
//! | any proxy | 413 | the request body is too large: the cure is the same, a smaller prompt |
//!
//! Some servers (older vLLM, Ollama) answer an over-long prompt with a 5xx;
//! `OpenAiModel` asks this function before retrying one, so such an answer
//! ends the call at once with the overflow instead of being retried.
//!
//! Only the start of the body is read ([`MAX_SCAN_BYTES`]), and the figures
//! are read by looking for fixed phrases, so a hostile body costs little and
//! never panics. A body that fits none of these shapes is not an overflow.

use serde_json::Value;
use tidemark_core::CompletionError;

/// The most bytes of an explanation searched for the phrases and figures.
pub const MAX_SCAN_BYTES: usize = 4 * 1024;

/// The most digits a figure may have (a context length is far below ten billion).
const MAX_DIGITS: usize = 10;

/// How far after a phrase its figure may start.
const MAX_GAP: usize = 24;

/// The [`CompletionError::ContextOverflow`] that a rejected request's `status` and `body` describe, if they describe one.
///
/// `message` is the explanation to keep (the server's `error.message`, or the
/// start of the body). The figures are read from the body's fields
/// (llama.cpp's `n_ctx` and `n_prompt_tokens`) or from the message.
///
/// ```
/// use tidemark_core::CompletionError;
/// use tidemark_providers::overflow::context_overflow;
///
/// let body = br#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}"#;
/// let message = "prompt is too long: 208310 tokens > 200000 maximum";
/// let error = context_overflow(400, body, message);
/// assert!(matches!(
///     error,
///     Some(CompletionError::ContextOverflow { limit: Some(200_000), requested: Some(208_310), .. })
/// ));
/// assert!(context_overflow(400, br#"{"error":{"message":"bad temperature"}}"#, "bad temperature").is_none());
/// ```
pub fn context_overflow(status: u16, body: &[u8], message: &str) -> Option<CompletionError> {
    let json: Option<Value> = serde_json::from_slice(body).ok();
    let error = json.as_ref().and_then(|body| body.get("error"));
    let field = |key: &str| error.and_then(|error| error.get(key)).and_then(Value::as_str);
    let code = field("code").or_else(|| field("type"));
    let text = lowercase_prefix(message);
    let coded = matches!(code, Some("context_length_exceeded" | "exceed_context_size_error"));
    if !(coded || status == 413 || mentions_overflow(&text)) {
        return None;
    }
    let number = |key: &str| {
        error.and_then(|error| error.get(key)).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
    };
    let (limit, requested) = figures(&text);
    Some(CompletionError::ContextOverflow {
        limit: number("n_ctx").or(limit),
        requested: number("n_prompt_tokens").or(requested),
        message: message.to_owned(),
    })
}

/// The first [`MAX_SCAN_BYTES`] of `message` (cut at a character boundary), lowercased.
fn lowercase_prefix(message: &str) -> String {
    let mut end = message.len().min(MAX_SCAN_BYTES);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    message[..end].to_lowercase()
}

/// Whether a lowercased explanation says the prompt is longer than the model takes.
fn mentions_overflow(text: &str) -> bool {
    const PHRASES: [&str; 8] = [
        "context_length_exceeded",
        "maximum context length",
        "context length exceeded",
        "prompt is too long",
        "exceeds the available context size",
        "exceeds the context length",
        "context window exceeded",
        "exceeds the context window",
    ];
    PHRASES.iter().any(|phrase| text.contains(phrase))
        || (text.contains("too many tokens") && text.contains("context"))
}

/// The model's limit and the request's size, as far as a lowercased explanation gives them.
fn figures(text: &str) -> (Option<u32>, Option<u32>) {
    // Anthropic: "prompt is too long: 208310 tokens > 200000 maximum".
    if let Some(requested) = number_after(text, "prompt is too long:") {
        return (number_after(text, "tokens >"), Some(requested));
    }
    let limit = ["maximum context length is", "context length of", "context length is", "n_ctx"]
        .iter()
        .find_map(|phrase| number_after(text, phrase));
    let requested = ["resulted in", "you requested about", "you requested", "requested", "n_prompt_tokens"]
        .iter()
        .find_map(|phrase| number_after(text, phrase));
    (limit, requested)
}

/// The first whole number within [`MAX_GAP`] bytes after `phrase` in `text`, commas and underscores between digits allowed.
fn number_after(text: &str, phrase: &str) -> Option<u32> {
    let start = text.find(phrase)? + phrase.len();
    let rest = &text.as_bytes()[start..];
    let first = rest.iter().take(MAX_GAP).position(u8::is_ascii_digit)?;
    let mut value: u64 = 0;
    let mut digits = 0;
    for &byte in &rest[first..] {
        match byte {
            b'0'..=b'9' if digits < MAX_DIGITS => {
                value = value * 10 + u64::from(byte - b'0');
                digits += 1;
            }
            b'0'..=b'9' => return None,
            b',' | b'_' => {}
            _ => break,
        }
    }
    u32::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures_of(status: u16, body: &str, message: &str) -> Option<(Option<u32>, Option<u32>, String)> {
        match context_overflow(status, body.as_bytes(), message)? {
            CompletionError::ContextOverflow { limit, requested, message } => {
                Some((limit, requested, message))
            }
            other => panic!("not an overflow: {other:?}"),
        }
    }

    #[test]
    fn openai_code_and_figures() {
        let message = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.";
        let body = format!(
            r#"{{"error":{{"code":"context_length_exceeded","message":"{message}","type":"invalid_request_error"}}}}"#
        );
        assert_eq!(figures_of(400, &body, message), Some((Some(128_000), Some(130_532), message.to_owned())));
    }

    #[test]
    fn openai_code_without_figures() {
        let body = r#"{"error":{"code":"context_length_exceeded","message":"Input too long."}}"#;
        assert_eq!(
            figures_of(400, body, "Input too long."),
            Some((None, None, "Input too long.".to_owned()))
        );
    }

    #[test]
    fn vllm_and_openrouter_requested() {
        let vllm = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.";
        let body = format!(r#"{{"object":"error","message":"{vllm}","type":"BadRequestError","code":400}}"#);
        assert_eq!(figures_of(400, &body, vllm).map(|f| (f.0, f.1)), Some((Some(4_096), Some(5_000))));
        let router = "This endpoint's maximum context length is 8192 tokens. However, you requested about 9,130 tokens (9,130 of text input). Please reduce the length.";
        let body = format!(r#"{{"error":{{"message":"{router}","code":400}}}}"#);
        assert_eq!(figures_of(400, &body, router).map(|f| (f.0, f.1)), Some((Some(8_192), Some(9_130))));
    }

    #[test]
    fn anthropic_prompt_is_too_long() {
        let message = "prompt is too long: 208310 tokens > 200000 maximum";
        let body =
            format!(r#"{{"type":"error","error":{{"type":"invalid_request_error","message":"{message}"}}}}"#);
        assert_eq!(figures_of(400, &body, message).map(|f| (f.0, f.1)), Some((Some(200_000), Some(208_310))));
    }

    #[test]
    fn llama_cpp_fields_and_ollama_text() {
        let message = "the request exceeds the available context size, try increasing it";
        let body = format!(
            r#"{{"error":{{"code":400,"message":"{message}","type":"exceed_context_size_error","n_prompt_tokens":5120,"n_ctx":4096}}}}"#
        );
        assert_eq!(figures_of(400, &body, message).map(|f| (f.0, f.1)), Some((Some(4_096), Some(5_120))));
        let plain =
            r#"{"error":{"message":"the request exceeds the available context size, try increasing it"}}"#;
        assert_eq!(figures_of(400, plain, message).map(|f| (f.0, f.1)), Some((None, None)));
        let ollama = "input length exceeds the context length";
        assert!(figures_of(400, "{}", ollama).is_some());
    }

    #[test]
    fn payload_too_large_is_an_overflow() {
        assert_eq!(
            figures_of(413, "<html>413</html>", "<html>413</html>").map(|f| (f.0, f.1)),
            Some((None, None))
        );
    }

    #[test]
    fn other_rejections_are_not() {
        for (status, body, message) in [
            (400, r#"{"error":{"message":"bad temperature","code":"invalid_value"}}"#, "bad temperature"),
            (400, "not json", "not json"),
            (404, r#"{"error":{"message":"model not found"}}"#, "model not found"),
            (400, "{}", "too many tokens per minute"),
        ] {
            assert!(context_overflow(status, body.as_bytes(), message).is_none(), "{message}");
        }
    }

    #[test]
    fn hostile_text_is_bounded() {
        let huge = format!("maximum context length is {} tokens", "9".repeat(100_000));
        let overflow = figures_of(400, "{}", &huge).expect("an overflow");
        assert_eq!((overflow.0, overflow.1), (None, None));
        let late = format!("{}prompt is too long: 5 tokens > 4 maximum", "é".repeat(MAX_SCAN_BYTES));
        assert!(
            context_overflow(400, b"{}", &late).is_none(),
            "phrases past the scanned prefix are not read"
        );
        assert_eq!(number_after("limit is 4294967296", "limit is"), None);
        assert_eq!(number_after("limit is 4_294_967_295", "limit is"), Some(u32::MAX));
        assert_eq!(number_after("limit is", "limit is"), None);
        assert_eq!(number_after(&format!("limit is{}7", " ".repeat(MAX_GAP)), "limit is"), None);
    }
}

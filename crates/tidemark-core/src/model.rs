//! The provider-agnostic chat-completion contract: [`CompletionModel`].

pub mod answer;

use std::future::Future;

use serde::{Deserialize, Serialize};

use crate::error::CompletionError;
use crate::message::Message;

/// One chat-completion request: the messages and the sampling limits.
///
/// Requests made by tidemark's summarizers carry no tool definitions: tool
/// calls in the history are flattened to text first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionRequest {
    /// The prompt, oldest message first.
    pub messages: Vec<Message>,
    /// The most tokens the answer may have.
    pub max_tokens: Option<u32>,
    /// The sampling temperature.
    pub temperature: Option<f32>,
}

impl CompletionRequest {
    /// A request for `messages` with the provider's default limits.
    pub fn new(messages: Vec<Message>) -> Self {
        Self { messages, max_tokens: None, temperature: None }
    }

    /// The same request with a cap on the answer's length.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// The same request with a sampling temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }
}

/// Why the model stopped writing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FinishReason {
    /// It finished its answer.
    Stop,
    /// It reached `max_tokens`; the text is cut off.
    Length,
    /// A content filter stopped it.
    ContentFilter,
    /// It asked for tools.
    ToolCalls,
    /// Something the provider named otherwise.
    Other(String),
}

/// Tokens a call consumed, as the provider reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Usage {
    /// Tokens of the prompt.
    pub prompt_tokens: u32,
    /// Tokens of the answer.
    pub completion_tokens: u32,
}

impl Usage {
    /// Usage with the given figures.
    pub fn new(prompt_tokens: u32, completion_tokens: u32) -> Self {
        Self { prompt_tokens, completion_tokens }
    }
}

/// A model's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Completion {
    /// The text of the answer.
    pub text: String,
    /// Why the model stopped.
    pub finish_reason: FinishReason,
    /// What the call cost.
    pub usage: Usage,
}

impl Completion {
    /// An answer.
    pub fn new(text: impl Into<String>, finish_reason: FinishReason, usage: Usage) -> Self {
        Self { text: text.into(), finish_reason, usage }
    }
}

/// A chat model that answers a list of messages with text: OpenAI, a compatible server, or a scripted stand-in in tests.
///
/// # Contract
///
/// - `complete` sends the request once or retries as the implementation sees
///   fit, and returns the first choice's text with its finish reason and usage.
/// - An answer with no text is [`CompletionError::EmptyResponse`] and a refusal
///   is [`CompletionError::Refused`], never an `Ok` with placeholder text.
/// - A prompt too long for the model is [`CompletionError::ContextOverflow`],
///   so that a caller can compact and try again.
///
/// # Example
///
/// ```
/// use tidemark_core::{Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason, Usage};
///
/// /// Answers with the last message's text, shouted.
/// struct Echo;
///
/// impl CompletionModel for Echo {
///     async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
///         let last = request.messages.last().ok_or(CompletionError::EmptyResponse)?;
///         Ok(Completion::new(last.text().to_uppercase(), FinishReason::Stop, Usage::default()))
///     }
/// }
///
/// let request = CompletionRequest::new(vec![tidemark_core::Message::user("hi")]);
/// let answer = futures::executor::block_on(Echo.complete(request))?;
/// assert_eq!(answer.text, "HI");
/// # Ok::<(), CompletionError>(())
/// ```
pub trait CompletionModel: Send + Sync {
    /// Answer `request`.
    fn complete(
        &self,
        request: CompletionRequest,
    ) -> impl Future<Output = Result<Completion, CompletionError>> + Send;
}

crate::forward! {
    impl CompletionModel {
        fn complete(&self, request: CompletionRequest) -> impl Future<Output = Result<Completion, CompletionError>> + Send {
            (**self).complete(request)
        }
    }
}

//! The provider-agnostic chat-completion contract: [`CompletionModel`].

pub mod answer;

use std::future::Future;

use serde::{Deserialize, Serialize};

use crate::error::CompletionError;
use crate::message::{Message, ToolCall};

/// One chat-completion request: the messages, the sampling limits and the tools the model may call.
///
/// Requests made by tidemark's summarizers carry no tool definitions: tool
/// calls in the history are flattened to text first. An agent loop passes
/// its tools with [`with_tools`](CompletionRequest::with_tools), and reads
/// the calls the model makes from [`Completion::tool_calls`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompletionRequest {
    /// The prompt, oldest message first.
    pub messages: Vec<Message>,
    /// The most tokens the answer may have.
    pub max_tokens: Option<u32>,
    /// The sampling temperature.
    pub temperature: Option<f32>,
    /// The tools the model may call; none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolSpec>,
}

/// A tool offered to the model: its name, what it does, and the JSON Schema of its arguments.
///
/// Each provider writes it in its own form (an OpenAI function tool, an
/// Anthropic custom tool).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: String,
    /// What it does and when to call it.
    pub description: String,
    /// The JSON Schema of its arguments (an object schema).
    pub parameters: serde_json::Value,
}

impl ToolSpec {
    /// A tool named `name`, described by `description`, taking arguments of the schema `parameters`.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: serde_json::Value,
    ) -> Self {
        Self { name: name.into(), description: description.into(), parameters }
    }
}

impl CompletionRequest {
    /// A request for `messages` with the provider's default limits.
    pub fn new(messages: Vec<Message>) -> Self {
        Self { messages, max_tokens: None, temperature: None, tools: Vec::new() }
    }

    /// The same request with a cap on the answer's length.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// The same request offering `tools` to the model.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = tools;
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
    /// The tool calls the model made, in order; none for a plain answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
}

impl Completion {
    /// An answer.
    pub fn new(text: impl Into<String>, finish_reason: FinishReason, usage: Usage) -> Self {
        Self { text: text.into(), finish_reason, usage, tool_calls: Vec::new() }
    }

    /// The same answer with the tool calls the model made.
    #[must_use]
    pub fn with_tool_calls(mut self, tool_calls: Vec<ToolCall>) -> Self {
        self.tool_calls = tool_calls;
        self
    }

    /// The answer as the assistant message to append to the history: its text, then its tool calls.
    pub fn message(&self) -> Message {
        let mut parts = Vec::with_capacity(1 + self.tool_calls.len());
        if !self.text.trim().is_empty() {
            parts.push(crate::message::Part::text(self.text.clone()));
        }
        parts.extend(self.tool_calls.iter().cloned().map(crate::message::Part::ToolCall));
        Message::new(crate::message::Role::Assistant, parts)
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

//! [`CompletionModel`](tidemark_core::CompletionModel)s over HTTP for OpenAI-compatible servers and for Anthropic, and the conversion between tidemark messages and the providers' transcript formats.
//!
//! - [`OpenAiModel`] speaks `POST /v1/chat/completions` to OpenAI and to the
//!   servers that copy its API (vLLM, llama.cpp, Ollama, LiteLLM, …), with
//!   timeouts, retries with backoff and jitter, `Retry-After`, and a typed error
//!   for every way a call can fail.
//! - [`OpenAiConfig`] holds the settings, from code or from the environment.
//! - [`AnthropicModel`] speaks Anthropic's Messages API, `POST /v1/messages`,
//!   with the same retries and typed errors; [`AnthropicConfig`] holds its
//!   settings (`ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL`, `ANTHROPIC_BASE_URL`).
//! - [`wire`] converts histories to and from OpenAI's chat format;
//!   [`anthropic::ClaudeTranscript`] reads and writes Claude histories in
//!   Anthropic's Messages format, and [`responses::ResponsesTranscript`]
//!   OpenAI Responses input items, both byte for byte wherever tidemark
//!   changed nothing, with signed thinking blocks and reasoning items carried
//!   as opaque parts. The command-line tool reads and writes transcripts
//!   with them.
//!
//! ```no_run
//! use tidemark_core::{CompletionModel, CompletionRequest, Message};
//! use tidemark_providers::{OpenAiConfig, OpenAiModel};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let model = OpenAiModel::new(OpenAiConfig::from_env()?)?;
//! let answer = model.complete(CompletionRequest::new(vec![Message::user("Say hi.")])).await?;
//! println!("{}", answer.text);
//! # Ok(()) }
//! ```
//!
//! The Anthropic model is used the same way; system messages become the
//! request's `system` field:
//!
//! ```no_run
//! use tidemark_core::{CompletionModel, CompletionRequest, Message};
//! use tidemark_providers::AnthropicModel;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let model = AnthropicModel::from_env()?;
//! let request = CompletionRequest::new(vec![Message::system("Answer in one word."), Message::user("Say hi.")]);
//! println!("{}", model.complete(request).await?.text);
//! # Ok(()) }
//! ```

pub mod anthropic;
mod config;
mod error;
mod http;
mod model;
pub mod overflow;
mod raw;
pub mod responses;
pub mod sessions;
pub mod wire;

pub use anthropic::{ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, AnthropicConfig, AnthropicModel};
pub use config::{OPENAI_BASE_URL, OpenAiConfig, Secret};
pub use error::{ConfigError, Place, TranscriptError, TranscriptProblem};
pub use model::{OpenAiModel, Sleep};

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

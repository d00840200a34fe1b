//! An OpenAI-compatible [`CompletionModel`](tidemark_core::CompletionModel) over HTTP, and the conversion between tidemark messages and OpenAI's chat format.
//!
//! - [`OpenAiModel`] speaks `POST /v1/chat/completions` to OpenAI and to the
//!   servers that copy its API (vLLM, llama.cpp, Ollama, LiteLLM, …), with
//!   timeouts, retries with backoff and jitter, `Retry-After`, and a typed error
//!   for every way a call can fail.
//! - [`OpenAiConfig`] holds the settings, from code or from the environment.
//! - [`wire`] converts histories both ways; the command-line tool reads and
//!   writes transcripts with it.
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

mod config;
mod error;
mod model;
pub mod overflow;
pub mod wire;

pub use config::{OPENAI_BASE_URL, OpenAiConfig, Secret};
pub use error::ConfigError;
pub use model::{OpenAiModel, Sleep};

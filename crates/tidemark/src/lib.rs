//! Conversation memory for LLM agents that never overflows the model's window and never forgets
//! what matters.
//!
//! An agent appends what happened (user turns, replies, tool calls and their results) and loads
//! the prompt for its next model call. The memory keeps that prompt within a token budget: what
//! leaves the window is folded into a summary, tool calls never lose their results, and the
//! summary and its state live in the store beside the conversation, so a restart changes nothing.
//!
//! This crate is the one dependency to add: [`Memory::builder`] wires a store, a counter, a
//! summarizer, long-term facts and recall exactly once, and the other tidemark crates are
//! re-exported as modules for everything the builder does not cover.
//!
//! ```
//! use tidemark::{ConversationId, ConversationMemory, Memory, Message};
//!
//! # #[cfg(not(all(feature = "sqlite", feature = "facts", feature = "recall")))]
//! # fn main() {}
//! # #[cfg(all(feature = "sqlite", feature = "facts", feature = "recall"))]
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # std::env::set_current_dir(dir.path())?;
//! // Any CompletionModel writes the summaries: OpenAiModel, AnthropicModel, your own.
//! let model = tidemark_testkit::scripted::ScriptedModel::digest();
//! let memory = Memory::builder().sqlite("agent.db").budget(8_000).summarizer(model).facts().recall().build()?;
//! let id = ConversationId::new("support/ticket-4711")?;
//! memory.append(&id, vec![Message::user("Our staging database listens on port 6543.")]).await?;
//! let prompt = memory.load(&id).await?; // within 8,000 tokens, whatever the history holds
//! # let _ = prompt;
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! | feature | default | what it adds |
//! | --- | --- | --- |
//! | `sqlite` | yes | [`Store::sqlite`] and [`MemoryBuilder::sqlite`]: an SQLite file, SQLite built in |
//! | `tiktoken` | yes | OpenAI's exact token counts, the default counter (else a heuristic) |
//! | `facts` | yes | [`MemoryBuilder::facts`]: facts kept from evicted turns and injected; [`facts`], [`scan`] |
//! | `recall` | yes | [`MemoryBuilder::recall`]: earlier turns quoted when they bear on the latest message |
//! | `meaning` | yes | recall by meaning as well as by keywords: [`Store`]'s stores get [`embed`]'s bundled model |
//! | `scan` | with `facts` | [`scan`]: the write-time security scan on its own |
//! | `postgres` | no | [`postgres`] and `postgres://` URLs in [`Store::open`]: one memory, many processes |
//! | `openai` | no | [`providers`]: `OpenAiModel` for OpenAI-compatible servers |
//! | `anthropic` | no | [`providers`]: `AnthropicModel` over Anthropic's Messages API |
//!
//! Compacting in the background ([`MemoryBuilder::background`]) needs no feature: it is part of
//! the memory and costs nothing until it is asked for.

pub mod memory;
pub mod store;

pub use memory::{BuildError, Memory, MemoryBuilder};
pub use store::{OpenError, Store};
pub use tidemark_core::history::{Epoch, EpochKind, HistoryError};
pub use tidemark_core::{
    Calibration, CompletionModel, ConversationId, ConversationMemory, MemoryError, Message, Role, Seq,
    TokenCounter, ToolCall, Usage,
};
pub use tidemark_memory::Undone;

/// Message types, tool units and their validator, and the traits every part implements
/// (the `tidemark-core` crate).
pub use tidemark_core as core;

/// Stores, counters, window policies and the memory adapters (the `tidemark-memory` crate).
pub use tidemark_memory as memories;

/// Strategies, pipelines and compactors (the `tidemark-compaction` crate).
pub use tidemark_compaction as compaction;

/// The static embedding model recall by meaning runs with (the `tidemark-embed` crate).
#[cfg(feature = "meaning")]
pub use tidemark_embed as embed;

/// Long-term facts, recall and consolidation passes (the `tidemark-facts` crate).
#[cfg(feature = "facts")]
pub use tidemark_facts as facts;

/// The memory as tools the model calls: history search, exact turns and long-term facts (the
/// `tidemark-tools` crate).
#[cfg(feature = "tools")]
pub use tidemark_tools as tools;

/// The write-time security scan (the `tidemark-scan` crate).
#[cfg(feature = "scan")]
pub use tidemark_scan as scan;

/// The PostgreSQL store (the `tidemark-postgres` crate).
#[cfg(feature = "postgres")]
pub use tidemark_postgres as postgres;

/// OpenAI-compatible and Anthropic models and the transcript formats (the `tidemark-providers`
/// crate).
#[cfg(any(feature = "openai", feature = "anthropic"))]
pub use tidemark_providers as providers;

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

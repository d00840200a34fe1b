//! tidemark as the memory of a [rig](https://docs.rs/rig-core) agent.
//!
//! rig's agent loads its memory before each prompt and appends the turn
//! after it. [`RigMemory`] makes any tidemark memory that memory: the
//! compacting one with facts and recall, the background one, on the
//! in-memory, SQLite or PostgreSQL store, so a rig agent's prompt stays within
//! its budget by tidemark's count, never splits a tool call from its result,
//! and survives a restart with its summary and facts.
//!
//! ```no_run
//! use rig_agent::prelude::*;
//! use rig_core::providers::openai::OpenAIConfig;
//! use tidemark::Memory;
//! use tidemark_rig::RigMemory;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // An SQLite file, 8,000 tokens, facts and recall: the summary and facts survive a restart.
//! let memory = Memory::builder().sqlite("agent.db").budget(8_000).facts().recall().build()?;
//! let model = OpenAIConfig::from_env()?.client().chat("gpt-4.1-mini");
//! let agent = AgentBuilder::new(model).memory(RigMemory::new(memory)).build();
//! let answer = agent.prompt("Where do we deploy?").conversation("thread-1").await?.output();
//! # let _ = answer;
//! # Ok(())
//! # }
//! ```
//!
//! Beside the memory: [`to_tidemark`] and [`to_rig`] convert messages both
//! ways, losslessly for everything rig writes; [`FromRigHook`] plugs a rig
//! demotion hook into tidemark's demoting memory; [`RigHook`] and
//! [`RigCompactor`] let rig-memory's adapters use tidemark's hooks and
//! compactors.
//!
//! # Versions
//!
//! This crate follows rig 0.44, the newest rig whose declared Rust version the
//! workspace's pinned toolchain (1.95) meets. See `docs/architecture.md` for
//! what following rig's newer session API takes.

mod compactor;
pub mod convert;
mod error;
mod hook;
mod memory;

pub use compactor::{RigCompactor, Summary};
pub use convert::{ConvertError, RIG, to_rig, to_tidemark};
pub use error::Failure;
pub use hook::{FromRigHook, RigHook};
pub use memory::{RigMemory, conversation};

/// The README's example, compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

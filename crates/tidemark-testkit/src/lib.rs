//! Testing tools for tidemark and for anyone who implements its traits: proptest strategies, reference models and conformance suites.
//!
//! - [`strategies`]: generators of messages and of *valid* histories (parallel
//!   tool calls, results spread over several messages, pinned and system
//!   messages, non-ASCII text), and mutations that break a history in one
//!   known way.
//! - [`reference`](mod@reference): small, obviously correct implementations used as oracles:
//!   a store, a memory, policies and a compactor.
//! - [`scripted`]: a deterministic [`CompletionModel`](tidemark_core::CompletionModel)
//!   that plays back answers and errors and records every request.
//! - [`conformance`]: suites that check a [`ConversationStore`](tidemark_core::ConversationStore),
//!   [`ConversationMemory`](tidemark_core::ConversationMemory),
//!   [`MemoryPolicy`](tidemark_core::MemoryPolicy) or
//!   [`Compactor`](tidemark_core::Compactor) against the contract written in its docs.
//!   Run them on your own implementations from an ordinary test.
//! - [`judge`]: the strict judge of stored facts, for measuring an extractor's precision.
//! - [`planted`]: long sessions with planted facts and a question about each, for recall benchmarks.
//! - [`counters`]: token counters whose counts are easy to work out by hand.
//! - [`embedders`]: a deterministic embedder for checking recall by meaning without a model.
//! - [`transcripts`]: seeded, realistic agent sessions (coding, support, research).
//! - [`workload`]: seeded, reproducible agent workloads for benchmarks.

pub mod conformance;
pub mod counters;
pub mod embedders;
pub mod judge;
pub mod planted;
pub mod reference;
pub mod scripted;
pub mod strategies;
pub mod transcripts;
pub mod workload;

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! Long-term facts for an agent's conversation memory: extraction from evicted turns, a security scan on every write and read, injection of relevant facts into prompts, and consolidation passes with verified rollback.
//!
//! The crate depends on `tidemark-core` and `tidemark-scan` alone: it works over any
//! [`FactStore`](tidemark_core::FactStore), such as the stores of
//! `tidemark-memory`, and plugs into a compacting memory through the
//! [`CompactionObserver`](tidemark_core::CompactionObserver) contract.
//!
//! - [`FactCoordinator`]: extracts facts before a compaction, scans and
//!   stores them, and injects the relevant ones before each model call.
//! - [`extract`]: the heuristic that proposes facts from evicted messages.
//! - [`scan`]: the security scan (prompt injection, exfiltration, hidden
//!   characters, secrets) every fact passes, from the `tidemark-scan` crate.
//! - [`Recall`]: a context source that quotes the passages of earlier turns,
//!   no longer in the prompt, that bear on the turn at hand.
//! - [`pass`]: [`FactPass`](pass::FactPass)es over stored facts, such as
//!   [`ConsolidationPass`](pass::ConsolidationPass), driven by a
//!   [`PassRunner`](pass::PassRunner) that applies a run whole or not at all.
//!
//! Ranking (BM25) lives in [`tidemark_core::fact::rank`], because the stores
//! search with it too.

pub mod coordinator;
pub mod extract;
pub mod pass;
pub mod recall;

/// The security scan every fact passes: the [`tidemark_scan`] crate, re-exported so that
/// `tidemark_facts::scan::Scanner` keeps working.
pub use tidemark_scan as scan;

pub use coordinator::{ExtractError, FactCoordinator, Injection, RememberError, Remembered, SessionCounters};
pub use recall::{Recall, RecallCounters, Recalled};

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

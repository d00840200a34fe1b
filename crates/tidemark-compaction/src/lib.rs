//! Shrinking an agent's history: strategies that clear old tool output, truncate or summarize, pipelines that chain them, and the compactors behind a rolling summary.
//!
//! - [`strategy`]: the [`CompactionStrategy`] trait, its [`Report`], and the
//!   checks every step passes ([`run_checked`]).
//! - [`ClearToolOutputs`], [`TruncateStrategy`] and [`SummarizeStrategy`]: the strategies.
//! - [`Pipeline`] and [`DynPipeline`]: strategies in order, stopping once the history fits.
//! - [`TemplateCompactor`] and [`LlmCompactor`]: [`Compactor`](tidemark_core::Compactor)s
//!   for `tidemark-memory`'s `CompactingMemory`.
//! - [`transcript`]: messages flattened into plain text for a summarizer.
//! - [`answer`]: what counts as a usable summary, a refusal, or a transient error
//!   (the rules themselves live in `tidemark-core`).

pub mod answer;
pub mod compactor;
pub mod pipeline;
pub mod strategy;
pub mod transcript;

pub use compactor::{
    Join, LlmCompactor, LlmSummary, Segment, SegmentBudget, SegmentLimits, Segmented, Segments,
    TemplateCompactor, TemplateSummary,
};
pub use pipeline::{DynPipeline, DynStrategy, Pipeline, Steps};
pub use strategy::{
    ClearToolOutputs, Compacted, CompactionStrategy, Fallback, INSTRUCTION_HEADER, Report, SUMMARY_HEADER,
    SummarizeStrategy, TruncateStrategy, check_step, run_checked,
};

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

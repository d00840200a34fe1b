//! The [`Compactor`](tidemark_core::Compactor)s behind a rolling summary: [`TemplateCompactor`] lists evicted messages without a model, [`LlmCompactor`] asks a model to rewrite the summary, and [`Segmented`] wraps either so that a compaction adds a segment instead of rewriting the summary.
//!
//! The first two keep their artifact under a byte cap, so a summary that
//! rolls forward for ever never outgrows the context it is meant to save,
//! and render it as a single system message that carries text only.
//! [`Segmented`] renders its segments as the text parts of one system
//! message, and merges them under its own limits.

mod llm;
mod prompt;
mod segmented;
mod template;

pub use llm::{LlmCompactor, LlmSummary};
pub use prompt::DEFAULT_INSTRUCTION;
pub(crate) use prompt::length_limit;
pub use segmented::{Join, Segment, SegmentBudget, SegmentLimits, Segmented, Segments};
pub use template::{TemplateCompactor, TemplateSummary};

//! The two [`Compactor`](tidemark_core::Compactor)s behind a rolling summary: [`TemplateCompactor`] lists evicted messages without a model, [`LlmCompactor`] asks a model to rewrite the summary.
//!
//! Both keep their artifact under a byte cap, so a summary that rolls forward
//! for ever never outgrows the context it is meant to save, and both render it
//! as a single system message that carries text only.

mod llm;
mod prompt;
mod template;

pub use llm::{LlmCompactor, LlmSummary};
pub use prompt::DEFAULT_INSTRUCTION;
pub use template::{TemplateCompactor, TemplateSummary};

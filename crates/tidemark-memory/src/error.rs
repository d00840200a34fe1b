//! The errors of tidemark-memory's own constructors; store and memory operations use the core error types.

#[cfg(feature = "tiktoken")]
use std::error::Error;
#[cfg(feature = "tiktoken")]
use std::sync::Arc;

#[cfg(feature = "tiktoken")]
use crate::counter::Encoding;

/// A policy configuration that cannot work.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PolicyError {
    /// The low watermark must be a percentage from 1 to 100.
    #[error("low watermark must be between 1 and 100 percent of the budget, got {percent}")]
    LowWatermark {
        /// The percentage given.
        percent: u8,
    },
    /// A cache plan's slack must be a finite number, zero or more.
    #[error("cache plan slack must be a finite number, zero or more, got {slack}")]
    Slack {
        /// The slack given.
        slack: f64,
    },
    /// The reserve for the answer leaves no room for the prompt.
    #[error("reserve of {reserve} tokens leaves nothing of the {budget}-token budget for the prompt")]
    ReserveTooLarge {
        /// The reserve given.
        reserve: u32,
        /// The budget.
        budget: u32,
    },
}

/// Why a counter could not be built.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CounterError {
    /// A heuristic was asked for a bytes-per-token ratio that is not a finite number above zero.
    #[error("bytes per token must be a finite number above zero, got {value}")]
    InvalidBytesPerToken {
        /// The rejected ratio.
        value: f32,
    },
    /// No supported encoding is known for the model name.
    #[cfg(feature = "tiktoken")]
    #[error("no supported tokenizer is known for model `{model}`")]
    UnknownModel {
        /// The model name as given.
        model: String,
    },
    /// The byte-pair tables of an encoding could not be built.
    #[cfg(feature = "tiktoken")]
    #[error("loading the {encoding} byte-pair tables failed")]
    LoadEncoding {
        /// The encoding whose tables failed to load.
        encoding: Encoding,
        /// What went wrong inside tiktoken-rs (shared, because the failure is remembered process-wide).
        #[source]
        source: Arc<dyn Error + Send + Sync>,
    },
}

/// The core heuristic's only failure is a bad ratio, which this crate has always reported as [`CounterError::InvalidBytesPerToken`].
impl From<tidemark_core::HeuristicError> for CounterError {
    fn from(error: tidemark_core::HeuristicError) -> Self {
        match error {
            tidemark_core::HeuristicError::InvalidBytesPerToken { value } => {
                Self::InvalidBytesPerToken { value }
            }
            // A failure core adds later is reported as a bad ratio until this crate learns it.
            _ => Self::InvalidBytesPerToken { value: f32::NAN },
        }
    }
}

//! The command's errors: input it cannot accept (exit status 2), failures while running (exit status 1), and a compaction that could not reach its budget (exit status 3).

use tidemark_core::BoxError;

/// Why a command stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The input cannot be accepted; the message names the place and the problem.
    #[error("{message}")]
    Input {
        /// What is wrong and where.
        message: String,
    },
    /// A compaction ran but its result is still over the budget; nothing was written.
    #[error("{message}")]
    OverBudget {
        /// The budget, the result's size, and what the strategy said.
        message: String,
    },
    /// Something failed while running.
    #[error("{what} failed")]
    Runtime {
        /// What the command was doing.
        what: &'static str,
        /// Why it failed.
        #[source]
        source: BoxError,
    },
}

impl CliError {
    pub(crate) fn input(message: impl Into<String>) -> Self {
        Self::Input { message: message.into() }
    }

    pub(crate) fn runtime(what: &'static str, source: impl Into<BoxError>) -> Self {
        Self::Runtime { what, source: source.into() }
    }

    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Self::Input { .. } => 2,
            Self::Runtime { .. } => 1,
            Self::OverBudget { .. } => 3,
        }
    }
}

//! What a compaction did: [`CompactionEvent`] and its [`Outcome`].

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::id::{ConversationId, Seq};

/// How a compaction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Outcome {
    /// The history was shrunk and the result is in use.
    Applied,
    /// Nothing worth doing: no gain, or nothing to compact. Not an error.
    Skipped,
    /// The compaction failed and the error went to the caller; nothing changed.
    Failed,
    /// The compaction failed and the caller got the previous state instead.
    Degraded,
    /// The load did not wait for a compaction: it served the previous summary and the policy's window
    /// while the compaction runs in the background. The event's
    /// [`served_through`](CompactionEvent::served_through) names the turn that was served.
    Deferred,
}

impl Outcome {
    /// The lowercase name used in JSON and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Applied => "applied",
            Outcome::Skipped => "skipped",
            Outcome::Failed => "failed",
            Outcome::Degraded => "degraded",
            Outcome::Deferred => "deferred",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A record of one compaction, sent to observers and to `tracing`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CompactionEvent {
    /// The conversation compacted.
    pub conversation: ConversationId,
    /// The compactor or strategy that ran, such as `"template"`.
    pub strategy: String,
    /// Messages in the prompt before.
    pub messages_before: usize,
    /// Messages in the prompt after.
    pub messages_after: usize,
    /// Prompt tokens before.
    pub tokens_before: u64,
    /// Prompt tokens after.
    pub tokens_after: u64,
    /// Tokens of the summary message after.
    pub summary_tokens: u64,
    /// How long it took.
    pub duration: Duration,
    /// How it ended.
    pub outcome: Outcome,
    /// For failed or degraded outcomes, what went wrong (the error chain as text).
    pub error: Option<String>,
    /// What went wrong in the observer's pre-compress step, which never stops the compaction.
    pub observer_error: Option<String>,
    /// For a deferred outcome, the newest message of the prompt that was served with the previous summary:
    /// the turn that saw a stale summary.
    pub served_through: Option<Seq>,
}

impl CompactionEvent {
    /// An event for `conversation` with all figures zero; fill the figures in with the `with_*` methods.
    pub fn new(conversation: ConversationId, strategy: impl Into<String>, outcome: Outcome) -> Self {
        Self {
            conversation,
            strategy: strategy.into(),
            messages_before: 0,
            messages_after: 0,
            tokens_before: 0,
            tokens_after: 0,
            summary_tokens: 0,
            duration: Duration::ZERO,
            outcome,
            error: None,
            observer_error: None,
            served_through: None,
        }
    }

    /// The same event with message counts before and after.
    #[must_use]
    pub fn with_messages(mut self, before: usize, after: usize) -> Self {
        self.messages_before = before;
        self.messages_after = after;
        self
    }

    /// The same event with token counts before and after, and the summary's tokens.
    #[must_use]
    pub fn with_tokens(mut self, before: u64, after: u64, summary: u64) -> Self {
        self.tokens_before = before;
        self.tokens_after = after;
        self.summary_tokens = summary;
        self
    }

    /// The same event with its duration.
    #[must_use]
    pub fn with_duration(mut self, duration: Duration) -> Self {
        self.duration = duration;
        self
    }

    /// The same event with the error that made it fail or degrade.
    #[must_use]
    pub fn with_error(mut self, error: &dyn std::error::Error) -> Self {
        self.error = Some(crate::error::chain_text(error));
        self
    }

    /// The same event naming `seq`, the newest message of a prompt served with the previous summary.
    #[must_use]
    pub fn with_served_through(mut self, seq: Seq) -> Self {
        self.served_through = Some(seq);
        self
    }

    /// The same event noting that the observer's pre-compress step failed or timed out.
    #[must_use]
    pub fn with_observer_error(mut self, problem: impl Into<String>) -> Self {
        self.observer_error = Some(problem.into());
        self
    }
}

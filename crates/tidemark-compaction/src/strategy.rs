//! The [`CompactionStrategy`] contract, the [`Report`] every strategy returns, and [`run_checked`], which holds every step to the guarantees.
//!
//! A strategy takes a history, a token budget and a counter, and returns a
//! smaller history with a report. Whatever the strategy, a step that runs
//! through [`run_checked`] (as every pipeline step does) keeps these promises:
//!
//! - a valid history stays valid (tool units are never split);
//! - the token count never rises;
//! - a step that frees fewer tokens than the minimum gain is reported as
//!   [`Outcome::Skipped`] and its output discarded.

mod clear;
mod summarize;
mod truncate;

pub use clear::ClearToolOutputs;
pub use summarize::{DEFAULT_PROMPT, Fallback, INSTRUCTION_HEADER, SUMMARY_HEADER, SummarizeStrategy};
pub use truncate::TruncateStrategy;

use std::future::Future;
use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};
use tidemark_core::counter::longest_prefix;
use tidemark_core::{CompactionError, Message, Outcome, TokenCounter, validate};

/// The smallest gain, in tokens, for which a step's output is kept by default.
pub const DEFAULT_MIN_GAIN: u32 = 32;

/// What a strategy or pipeline did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Report {
    /// The strategy's name, such as `"truncate"`, or the pipeline's steps joined by `+`.
    pub strategy: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Messages before.
    pub messages_before: usize,
    /// Messages after.
    pub messages_after: usize,
    /// Prompt tokens before (the counter's prompt count, reply priming included).
    pub tokens_before: u32,
    /// Prompt tokens after.
    pub tokens_after: u32,
    /// Whether the result fits the budget.
    pub fits: bool,
    /// How many model calls were made.
    pub model_calls: u32,
    /// What else the caller should know: why a step was skipped, the error a fallback replaced.
    pub note: Option<String>,
    /// The reports of a pipeline's steps, in order (empty for a single strategy).
    pub steps: Vec<Report>,
}

impl Report {
    /// A report of `strategy` turning `before` into `after`.
    pub fn new(
        strategy: impl Into<String>,
        outcome: Outcome,
        before: &[Message],
        after: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Self {
        let tokens_after = counter.count_prompt(after);
        Self {
            strategy: strategy.into(),
            outcome,
            messages_before: before.len(),
            messages_after: after.len(),
            tokens_before: counter.count_prompt(before),
            tokens_after,
            fits: tokens_after <= budget.get(),
            model_calls: 0,
            note: None,
            steps: Vec::new(),
        }
    }

    /// The same report with a note.
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The same report with a model-call count.
    #[must_use]
    pub fn with_model_calls(mut self, calls: u32) -> Self {
        self.model_calls = calls;
        self
    }

    /// Tokens freed (zero if none).
    pub fn gain(&self) -> u32 {
        self.tokens_before.saturating_sub(self.tokens_after)
    }
}

/// A compacted history and what was done to get it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Compacted {
    /// The new history.
    pub history: Vec<Message>,
    /// What happened.
    pub report: Report,
}

impl Compacted {
    /// A result.
    pub fn new(history: Vec<Message>, report: Report) -> Self {
        Self { history, report }
    }

    /// `history` unchanged, reported as skipped with `why`.
    pub fn skipped(
        strategy: &str,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
        why: impl Into<String>,
    ) -> Self {
        let report =
            Report::new(strategy, Outcome::Skipped, history, history, budget, counter).with_note(why);
        Self { history: history.to_vec(), report }
    }
}

/// Shrinks a history towards a token budget.
///
/// # Contract
///
/// - `compact` returns a history whose prompt token count (with `counter`)
///   is at most the input's, valid whenever the input is valid, with every
///   pinned message unchanged and in order.
/// - Having nothing to do is [`Outcome::Skipped`], not an error; an error is
///   for a failure the caller must hear about (a summarizer that failed with
///   no fallback).
/// - The report's figures are measured with `counter`.
///
/// # Example
///
/// A strategy that drops messages whose text is empty:
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_compaction::{CompactionStrategy, Compacted, Report};
/// use tidemark_core::{CompactionError, Message, Outcome, TokenCounter};
///
/// struct DropEmpty;
///
/// impl CompactionStrategy for DropEmpty {
///     fn name(&self) -> &str {
///         "drop-empty"
///     }
///
///     async fn compact(&self, history: &[Message], budget: NonZeroU32, counter: &dyn TokenCounter) -> Result<Compacted, CompactionError> {
///         // Only plain text messages may go: tool messages belong to their unit.
///         let kept: Vec<Message> = history
///             .iter()
///             .filter(|m| !m.parts.is_empty() || m.pinned)
///             .cloned()
///             .collect();
///         let outcome = if kept.len() < history.len() { Outcome::Applied } else { Outcome::Skipped };
///         let report = Report::new(self.name(), outcome, history, &kept, budget, counter);
///         Ok(Compacted::new(kept, report))
///     }
/// }
/// ```
pub trait CompactionStrategy: Send + Sync {
    /// A short stable name for reports, such as `"truncate"`.
    fn name(&self) -> &str;

    /// Shrink `history` towards `budget` prompt tokens as counted by `counter`.
    fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> impl Future<Output = Result<Compacted, CompactionError>> + Send;
}

tidemark_core::forward! {
    impl CompactionStrategy {
        fn name(&self) -> &str {
            (**self).name()
        }

        fn compact(
            &self,
            history: &[Message],
            budget: NonZeroU32,
            counter: &dyn TokenCounter,
        ) -> impl Future<Output = Result<Compacted, CompactionError>> + Send {
            (**self).compact(history, budget, counter)
        }
    }
}

/// Run one strategy and hold its result to the guarantees in the module docs.
///
/// When the output breaks a guarantee (an invalid history from a valid one,
/// more tokens, or less gain than `min_gain`), the output is discarded and
/// the input is returned with an [`Outcome::Skipped`] report naming why.
///
/// # Errors
///
/// Returns the strategy's own error.
pub async fn run_checked<S: CompactionStrategy + ?Sized>(
    strategy: &S,
    history: &[Message],
    budget: NonZeroU32,
    counter: &dyn TokenCounter,
    min_gain: u32,
) -> Result<Compacted, CompactionError> {
    let result = strategy.compact(history, budget, counter).await?;
    Ok(check_step(strategy.name(), history, result, budget, counter, min_gain))
}

/// The checks of [`run_checked`] on a step's `result`: the result itself, or the input reported as skipped.
pub fn check_step(
    name: &str,
    history: &[Message],
    result: Compacted,
    budget: NonZeroU32,
    counter: &dyn TokenCounter,
    min_gain: u32,
) -> Compacted {
    // Only an output that replaces the history needs checking: applied, or applied by a fallback.
    if !matches!(result.report.outcome, Outcome::Applied | Outcome::Degraded) {
        return result;
    }
    let before = counter.count_prompt(history);
    let after = counter.count_prompt(&result.history);
    let discard = |why: String| {
        let mut skipped = Compacted::skipped(name, history, budget, counter, why);
        skipped.report.model_calls = result.report.model_calls;
        skipped
    };
    if validate(history).is_ok()
        && let Err(violation) = validate(&result.history)
    {
        tracing::warn!(strategy = name, %violation, "a compaction step broke the history; its output is discarded");
        return discard(format!("output discarded: it broke the history ({violation})"));
    }
    if after > before {
        return discard(format!("output discarded: it grew the history from {before} to {after} tokens"));
    }
    if before - after < min_gain {
        return discard(format!(
            "output discarded: it freed {} tokens, less than the minimum of {min_gain}",
            before - after
        ));
    }
    result
}

/// Whether a prompt of `total` tokens fits `budget`, counting as [`TokenCounter::count_prompt`] does (saturating at `u32::MAX`).
pub(crate) fn fits(total: u64, budget: NonZeroU32) -> bool {
    total.min(u64::from(u32::MAX)) <= u64::from(budget.get())
}

/// Cut `text` at a character boundary so that it counts at most `max_tokens` with `counter`.
///
/// Returns the text unchanged when it fits. Otherwise the longest prefix that
/// fits is found by bisection over character boundaries, so the result is
/// exact for any counter.
pub fn cap_text(text: &str, max_tokens: u32, counter: &dyn TokenCounter) -> String {
    if counter.count_text(text) <= max_tokens {
        return text.to_owned();
    }
    longest_prefix(text, |prefix| counter.count_text(prefix) <= max_tokens).to_owned()
}

/// Cut `text` at a character boundary so that it is at most `max_bytes` bytes long.
pub fn cap_bytes(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests;

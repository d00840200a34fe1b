//! The errors of tidemark-core's types and traits.
//!
//! Each trait has an error type of its own, named for the component that
//! failed. Implementors outside this crate carry their own failures in the
//! variants that take a [`BoxError`] source. Display texts are lowercase, end
//! without a period and never repeat their source: print the whole chain
//! (for example with `anyhow`'s `{:#}`) to see every cause.

use std::time::Duration;

use crate::id::Seq;
use crate::unit::Violation;

/// A boxed error from an implementation outside tidemark-core.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An error followed by each of its sources, joined with `": "`: the whole chain on one line, each cause once.
pub fn chain_text(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Why a text is not a valid [`ConversationId`](crate::ConversationId).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversationIdError {
    /// The id is the empty string.
    #[error("conversation id is empty")]
    Empty,
    /// The id is longer than allowed.
    #[error("conversation id is {len} bytes long, more than the {max} allowed")]
    TooLong {
        /// The id's length in bytes.
        len: usize,
        /// The largest length allowed.
        max: usize,
    },
    /// The id contains a control character.
    #[error("conversation id has a control character at byte {index}")]
    ControlCharacter {
        /// The byte offset of the first control character.
        index: usize,
    },
}

/// A prompt-cache price ([`CachePrices`](crate::cache::CachePrices)) that is not a finite number of zero or more.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PriceError {
    /// The named multiplier is negative, infinite or not a number.
    #[error("the cache {name} price must be a finite number of zero or more, not {value}")]
    Invalid {
        /// `read` or `write`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
}

/// Text that is not a message, or a history, in tidemark's JSON format.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The JSON is malformed or has the wrong shape.
    #[error("malformed message json")]
    Json {
        /// What the JSON parser reported, with line and column.
        #[source]
        source: serde_json::Error,
    },
}

/// A failure of a [`ConversationStore`](crate::ConversationStore).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The storage backend failed (I/O, database, connection).
    #[error("store backend failed during {operation}")]
    Backend {
        /// The store operation that failed, such as `"append"`.
        operation: &'static str,
        /// The backend's error.
        #[source]
        source: BoxError,
    },
    /// Someone else changed the compaction state since it was read.
    #[error("compaction state changed concurrently: expected generation {expected}, found {found}")]
    StateConflict {
        /// The generation the writer read.
        expected: u64,
        /// The generation now stored.
        found: u64,
    },
    /// A compaction state that breaks the store's rules was refused.
    #[error("invalid compaction state: {reason}")]
    InvalidState {
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// The stored data was written by a newer schema than this build understands.
    #[error("store schema version {found} is newer than the newest this build supports ({supported})")]
    SchemaTooNew {
        /// The version found in the store.
        found: u32,
        /// The newest version this build supports.
        supported: u32,
    },
    /// A history operation (a restore) was refused; nothing was changed.
    #[error(transparent)]
    History(#[from] crate::history::HistoryError),
    /// A stored message could not be decoded.
    #[error("stored message {seq} could not be decoded")]
    Corrupt {
        /// The message's sequence number.
        seq: Seq,
        /// Why decoding failed.
        #[source]
        source: DecodeError,
    },
}

impl StoreError {
    /// A [`StoreError::Backend`] for `operation`.
    pub fn backend(operation: &'static str, source: impl Into<BoxError>) -> Self {
        Self::Backend { operation, source: source.into() }
    }
}

/// Why a [`HeuristicCounter`](crate::counter::HeuristicCounter) could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HeuristicError {
    /// The bytes-per-token ratio is not a finite number above zero.
    #[error("bytes per token must be a finite number above zero, got {value}")]
    InvalidBytesPerToken {
        /// The rejected ratio.
        value: f32,
    },
}

/// A failure reported by a [`DemotionHook`](crate::DemotionHook).
///
/// It is a transparent wrapper: its text and source are those of the hook's own error.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct HookError(BoxError);

impl HookError {
    /// Wrap the hook's own error.
    pub fn new(error: impl Into<BoxError>) -> Self {
        Self(error.into())
    }

    /// The hook's own error.
    pub fn into_inner(self) -> BoxError {
        self.0
    }
}

/// A failure reported by a [`CompactionObserver`](crate::CompactionObserver).
///
/// It is a transparent wrapper: its text and source are those of the observer's own error.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ObserverError(BoxError);

impl ObserverError {
    /// Wrap the observer's own error.
    pub fn new(error: impl Into<BoxError>) -> Self {
        Self(error.into())
    }

    /// The observer's own error.
    pub fn into_inner(self) -> BoxError {
        self.0
    }
}

/// A failure of a [`ContextSource`](crate::context::ContextSource): the load goes on without its block.
///
/// It is a transparent wrapper: its text and source are those of the source's own error.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ContextError(BoxError);

impl ContextError {
    /// Wrap the source's own error.
    pub fn new(error: impl Into<BoxError>) -> Self {
        Self(error.into())
    }

    /// The source's own error.
    pub fn into_inner(self) -> BoxError {
        self.0
    }
}

/// A failure of a [`CompletionModel`](crate::CompletionModel) call.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompletionError {
    /// The credentials were missing, wrong or not allowed to use the model.
    #[error("authentication failed (status {status}): {message}")]
    Authentication {
        /// The HTTP status (401 or 403 for HTTP providers).
        status: u16,
        /// The server's explanation.
        message: String,
    },
    /// The server refused the request as malformed.
    #[error("request rejected: {message}")]
    BadRequest {
        /// The server's explanation.
        message: String,
    },
    /// The prompt is longer than the model's context window; compact to a lower budget and retry.
    ///
    /// `limit` and `requested` are the figures the server gave, when it gave
    /// them: the model's context length and the tokens the request came to.
    /// [`CompletionError::retry_budget`] turns them into the budget to load
    /// the prompt within for the next attempt (see
    /// [`ConversationMemory::load_within`](crate::ConversationMemory::load_within)).
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::CompletionError;
    ///
    /// let error = CompletionError::ContextOverflow {
    ///     limit: Some(128_000),
    ///     requested: Some(130_532),
    ///     message: "This model's maximum context length is 128000 tokens.".into(),
    /// };
    /// let budget = error.retry_budget(NonZeroU32::new(120_000).unwrap());
    /// assert!(budget.is_some_and(|budget| budget.get() < 120_000));
    /// ```
    #[error("prompt exceeds the model's context length: {message}")]
    ContextOverflow {
        /// The model's context length in tokens, if the server said it.
        limit: Option<u32>,
        /// The tokens the request came to, if the server said it.
        requested: Option<u32>,
        /// The server's explanation.
        message: String,
    },
    /// The provider still limited the rate after the last retry.
    #[error("rate limited after {attempts} attempts")]
    RateLimited {
        /// How many requests were sent.
        attempts: u32,
        /// How long the provider asked to wait, if it said.
        retry_after: Option<Duration>,
    },
    /// The server failed (5xx) on every attempt.
    #[error("server error (status {status}) after {attempts} attempts: {message}")]
    Server {
        /// The last HTTP status.
        status: u16,
        /// How many requests were sent.
        attempts: u32,
        /// The server's explanation.
        message: String,
    },
    /// No answer came within the time limit.
    #[error("no answer within {limit:?} after {attempts} attempts")]
    Timeout {
        /// The time limit of one attempt.
        limit: Duration,
        /// How many requests were sent.
        attempts: u32,
    },
    /// The connection failed.
    #[error("connection to the model failed after {attempts} attempts")]
    Transport {
        /// How many requests were sent.
        attempts: u32,
        /// The transport's error.
        #[source]
        source: BoxError,
    },
    /// The answer could not be understood.
    #[error("malformed response: {reason}")]
    MalformedResponse {
        /// What was wrong with it.
        reason: String,
    },
    /// The answer held no text.
    #[error("the model returned an empty answer")]
    EmptyResponse,
    /// The model declined to answer (content filter or refusal).
    #[error("the model refused: {reason}")]
    Refused {
        /// The refusal text or filter reason.
        reason: String,
    },
    /// A model implementation outside tidemark failed in its own way.
    #[error("model call failed")]
    Backend {
        /// The implementation's error.
        #[source]
        source: BoxError,
    },
}

impl CompletionError {
    /// The budget to load the prompt within before trying again, when this is a [`ContextOverflow`](CompletionError::ContextOverflow); `None` for every other error.
    ///
    /// `current` is the budget the rejected prompt was loaded with. See
    /// [`retry_budget`] for the rule.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::CompletionError;
    ///
    /// let current = NonZeroU32::new(10_000).unwrap();
    /// let unknown = CompletionError::ContextOverflow { limit: None, requested: None, message: "too long".into() };
    /// assert_eq!(unknown.retry_budget(current).map(NonZeroU32::get), Some(8_000));
    /// assert_eq!(CompletionError::EmptyResponse.retry_budget(current), None);
    /// ```
    pub fn retry_budget(&self, current: std::num::NonZeroU32) -> Option<std::num::NonZeroU32> {
        match self {
            Self::ContextOverflow { limit, requested, .. } => Some(retry_budget(current, *limit, *requested)),
            _ => None,
        }
    }
}

/// The share of the budget kept when the server's figures are unknown: 80%.
pub const RETRY_FALLBACK_PERCENT: u64 = 80;

/// The share of the scaled budget kept when the server's figures are known: 90%, a margin for the difference between tidemark's count and the provider's.
pub const RETRY_MARGIN_PERCENT: u64 = 90;

/// The budget to retry with after the provider rejected a prompt loaded within `current` tokens.
///
/// - **Figures known** (`limit < requested`): the prompt was `requested`
///   tokens by the provider's count and must be at most `limit`, so the budget
///   is scaled by `limit / requested` and then by
///   [`RETRY_MARGIN_PERCENT`]. Scaling, rather than taking `limit` as is, carries
///   over whatever difference there is between the memory's counter and the
///   provider's tokenizer, and a `requested` that includes the answer's
///   `max_tokens` only makes the result safer.
/// - **Figures unknown**, or figures that do not explain the rejection
///   (`requested <= limit`): [`RETRY_FALLBACK_PERCENT`] of `current`.
///
/// The result is always below `current` (when `current` is above 1) and never zero,
/// so repeated overflows shrink the budget until the memory reports that
/// it cannot fit (`MemoryError::OverBudget`).
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::error::retry_budget;
///
/// let current = NonZeroU32::new(100_000).unwrap();
/// // 128000 / 130532 of the budget, less a 10% margin.
/// assert_eq!(retry_budget(current, Some(128_000), Some(130_532)).get(), 88_254);
/// assert_eq!(retry_budget(current, None, Some(130_532)).get(), 80_000);
/// assert_eq!(retry_budget(NonZeroU32::MIN, None, None).get(), 1);
/// ```
pub fn retry_budget(
    current: std::num::NonZeroU32,
    limit: Option<u32>,
    requested: Option<u32>,
) -> std::num::NonZeroU32 {
    let budget = u64::from(current.get());
    let scaled = match (limit, requested) {
        (Some(limit), Some(requested)) if limit < requested => {
            budget * u64::from(limit) / u64::from(requested) * RETRY_MARGIN_PERCENT / 100
        }
        _ => budget * RETRY_FALLBACK_PERCENT / 100,
    };
    let lower = scaled.min(budget.saturating_sub(1));
    std::num::NonZeroU32::new(u32::try_from(lower).unwrap_or(u32::MAX)).unwrap_or(std::num::NonZeroU32::MIN)
}

/// A failure to compact evicted messages into a summary.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompactionError {
    /// The summarizing model call failed.
    #[error("summary model call failed")]
    Model {
        /// The model's error.
        #[source]
        source: CompletionError,
    },
    /// The model answered with nothing usable; an empty text is never stored as a summary.
    #[error("the model returned an empty summary")]
    EmptySummary,
    /// The model declined to summarize; its refusal is never stored as a summary.
    #[error("the model refused to summarize: {reason}")]
    Refused {
        /// The refusal text.
        reason: String,
    },
    /// A stored carry-over artifact has a shape this compactor does not read.
    #[error("stored summary artifact could not be decoded")]
    Artifact {
        /// The decoder's error.
        #[source]
        source: serde_json::Error,
    },
    /// A compactor implementation outside tidemark failed in its own way.
    #[error("compactor failed")]
    Backend {
        /// The implementation's error.
        #[source]
        source: BoxError,
    },
}

impl From<CompletionError> for CompactionError {
    fn from(source: CompletionError) -> Self {
        match source {
            CompletionError::EmptyResponse => Self::EmptySummary,
            CompletionError::Refused { reason } => Self::Refused { reason },
            source => Self::Model { source },
        }
    }
}

/// A failure of a [`ConversationMemory`](crate::ConversationMemory) operation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MemoryError {
    /// The underlying store failed.
    #[error("conversation store failed")]
    Store(#[source] StoreError),
    /// The demotion hook failed; the demoted messages stay undelivered and are offered again.
    #[error("demotion hook failed")]
    Hook(#[source] HookError),
    /// Compacting the evicted messages failed; nothing was removed.
    #[error("compaction failed")]
    Compaction(#[source] CompactionError),
    /// The messages to append would make the history break a tool-call rule.
    #[error("appended messages would make the history invalid")]
    InvalidHistory(#[source] Violation),
    /// A load within a budget could not fit it: what must stay (the newest
    /// turn, pinned and system messages, the summary) is larger.
    #[error("the smallest prompt is {tokens} tokens, over the budget of {budget}")]
    OverBudget {
        /// The budget asked for.
        budget: u32,
        /// The tokens of the smallest prompt the memory could make.
        tokens: u32,
    },
    /// Another compaction of the conversation is in flight (in this process, or under another
    /// process's lease), and the operation does not wait for it; nothing was changed.
    #[error("a compaction of this conversation is in flight; nothing was changed, try again once it is done")]
    Busy,
    /// An undo or an as-of read was refused (nothing to undo, an unknown epoch, a point
    /// outside the kept history); nothing was changed.
    #[error("history operation refused")]
    History(#[source] crate::history::HistoryError),
}

impl From<StoreError> for MemoryError {
    fn from(source: StoreError) -> Self {
        match source {
            StoreError::History(refused) => Self::History(refused),
            source => Self::Store(source),
        }
    }
}

impl From<crate::history::HistoryError> for MemoryError {
    fn from(source: crate::history::HistoryError) -> Self {
        Self::History(source)
    }
}

impl From<HookError> for MemoryError {
    fn from(source: HookError) -> Self {
        Self::Hook(source)
    }
}

impl From<CompactionError> for MemoryError {
    fn from(source: CompactionError) -> Self {
        Self::Compaction(source)
    }
}

impl From<Violation> for MemoryError {
    fn from(source: Violation) -> Self {
        Self::InvalidHistory(source)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    // The message of a wrapping error never contains its source's message, so a
    // printed chain shows each cause exactly once.
    #[test]
    fn display_never_repeats_the_source() {
        let inner = std::io::Error::other("disk on fire");
        let error = MemoryError::from(StoreError::backend("append", inner));
        assert_eq!(error.to_string(), "conversation store failed");
        let store = error.source().expect("has a source");
        assert_eq!(store.to_string(), "store backend failed during append");
        assert_eq!(store.source().expect("has a source").to_string(), "disk on fire");
        assert_eq!(
            chain_text(&error),
            "conversation store failed: store backend failed during append: disk on fire"
        );
    }

    #[test]
    fn retry_budgets_shrink_and_never_reach_zero() {
        let budget = |current: u32, limit, requested| {
            retry_budget(std::num::NonZeroU32::new(current).expect("non-zero"), limit, requested).get()
        };
        assert_eq!(budget(10_000, Some(4_096), Some(5_000)), 7_372);
        assert_eq!(budget(10_000, None, None), 8_000);
        assert_eq!(budget(10_000, Some(5_000), Some(5_000)), 8_000, "figures that explain nothing");
        assert_eq!(budget(10_000, Some(1), Some(u32::MAX)), 1);
        assert_eq!(budget(2, None, None), 1);
        assert_eq!(budget(1, Some(1), Some(2)), 1);
        assert_eq!(budget(u32::MAX, None, None), 3_435_973_836);
        for current in [1, 2, 3, 10, 999, 1_000_000, u32::MAX] {
            for figures in [(None, None), (Some(10), Some(11)), (Some(11), Some(10)), (Some(0), Some(1))] {
                let next = budget(current, figures.0, figures.1);
                assert!(next >= 1 && (next < current || current == 1), "{current} {figures:?} -> {next}");
            }
        }
    }

    #[test]
    fn empty_or_refused_answers_become_compaction_failures() {
        assert!(matches!(
            CompactionError::from(CompletionError::EmptyResponse),
            CompactionError::EmptySummary
        ));
        assert!(matches!(
            CompactionError::from(CompletionError::Refused { reason: "no".into() }),
            CompactionError::Refused { .. }
        ));
    }
}

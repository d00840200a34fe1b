//! Conversation identity and per-conversation sequence numbers.

use std::borrow::Borrow;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::ConversationIdError;

/// The validated name of one conversation.
///
/// A conversation id is checked once, when it is built: it is non-empty, at
/// most [`ConversationId::MAX_LEN`] bytes long and free of control characters,
/// so that it is safe to use as a database key, a file name fragment or a log
/// field. Cloning is cheap (the text is shared).
///
/// ```
/// use tidemark_core::ConversationId;
///
/// let id = ConversationId::new("support/ticket-4711")?;
/// assert_eq!(id.as_str(), "support/ticket-4711");
/// assert!(ConversationId::new("").is_err());
/// assert!(ConversationId::new("bell\u{7}").is_err());
/// # Ok::<(), tidemark_core::ConversationIdError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ConversationId(Arc<str>);

impl ConversationId {
    /// The longest id accepted, in bytes of UTF-8.
    pub const MAX_LEN: usize = 256;

    /// Validate `id` and wrap it.
    ///
    /// # Errors
    ///
    /// Returns a [`ConversationIdError`] naming the first rule the text breaks.
    pub fn new(id: impl AsRef<str>) -> Result<Self, ConversationIdError> {
        let id = id.as_ref();
        check(id)?;
        Ok(Self(Arc::from(id)))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn check(id: &str) -> Result<(), ConversationIdError> {
    if id.is_empty() {
        return Err(ConversationIdError::Empty);
    }
    if id.len() > ConversationId::MAX_LEN {
        return Err(ConversationIdError::TooLong { len: id.len(), max: ConversationId::MAX_LEN });
    }
    if let Some((index, _)) = id.char_indices().find(|(_, c)| c.is_control()) {
        return Err(ConversationIdError::ControlCharacter { index });
    }
    Ok(())
}

impl fmt::Debug for ConversationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for ConversationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for ConversationId {
    type Err = ConversationIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

impl TryFrom<String> for ConversationId {
    type Error = ConversationIdError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        check(&value)?;
        Ok(Self(Arc::from(value)))
    }
}

impl TryFrom<&str> for ConversationId {
    type Error = ConversationIdError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<ConversationId> for String {
    fn from(id: ConversationId) -> Self {
        id.0.as_ref().to_owned()
    }
}

impl AsRef<str> for ConversationId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for ConversationId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// The position of a message in its conversation, assigned by the store at append.
///
/// Sequence numbers start at zero, grow by one per appended message and are
/// never reused within a conversation, not even after a clear, so the pair
/// (conversation, sequence) names one message for good: hooks use it as their
/// deduplication key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seq(pub u64);

impl Seq {
    /// The first sequence number of every conversation.
    pub const ZERO: Seq = Seq(0);

    /// The sequence number `n` places later, saturating at `u64::MAX`.
    #[must_use]
    pub fn after(self, n: u64) -> Seq {
        Seq(self.0.saturating_add(n))
    }

    /// The number of sequence numbers from `earlier` up to `self` (zero if `earlier` is later).
    pub fn distance_from(self, earlier: Seq) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for Seq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A half-open range of sequence numbers, `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeqRange {
    /// The first sequence number in the range.
    pub start: Seq,
    /// One past the last sequence number in the range.
    pub end: Seq,
}

impl SeqRange {
    /// The range `start..end`; an `end` before `start` gives an empty range at `start`.
    pub fn new(start: Seq, end: Seq) -> Self {
        Self { start, end: end.max(start) }
    }

    /// Every sequence number from `start` on.
    pub fn from(start: Seq) -> Self {
        Self::new(start, Seq(u64::MAX))
    }

    /// How many sequence numbers the range spans.
    pub fn len(&self) -> u64 {
        self.end.distance_from(self.start)
    }

    /// Whether the range spans no sequence number.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// Whether `seq` lies in the range.
    pub fn contains(&self, seq: Seq) -> bool {
        self.start <= seq && seq < self.end
    }
}

impl fmt::Display for SeqRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

//! Tool units, the atoms no policy or strategy may split, and the history validator.
//!
//! A history is a sequence of *units*. Most units are one message. An assistant
//! message that makes tool calls forms one unit with every tool message that
//! directly follows it, however many calls it made (parallel calls) and however
//! the results are spread over tool messages. Providers reject a request in which
//! a call lacks its result or a result lacks its call, so a cut may fall only
//! between units: [`units`] tells where those places are.
//!
//! [`validate`] checks the rules a provider enforces and names the first
//! message that breaks one. A trailing exchange whose results have not arrived
//! yet is valid: that is the state of a history while tools are running.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

use crate::message::{Message, Part, Role};

/// What kind of unit a [`Unit`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnitKind {
    /// A single message without tool calls.
    Message,
    /// An assistant message with tool calls and the tool messages that follow it.
    ToolExchange,
}

/// A run of messages that must be kept or dropped together.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    range: Range<usize>,
    kind: UnitKind,
}

impl Unit {
    /// The indices of the unit's messages in the history.
    pub fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    /// The index of the unit's first message.
    pub fn start(&self) -> usize {
        self.range.start
    }

    /// One past the index of the unit's last message.
    pub fn end(&self) -> usize {
        self.range.end
    }

    /// The number of messages in the unit (at least one).
    pub fn len(&self) -> usize {
        self.range.len()
    }

    /// Always false: a unit holds at least one message.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// What kind of unit this is.
    pub fn kind(&self) -> UnitKind {
        self.kind
    }

    /// Whether any message of the unit is pinned (then the whole unit is kept).
    pub fn is_pinned(&self, history: &[Message]) -> bool {
        history.get(self.range()).is_some_and(|messages| messages.iter().any(|m| m.pinned))
    }
}

/// Partition `history` into units, in order, covering every message exactly once.
///
/// The partition is defined for any history, valid or not: a message with tool
/// calls starts a unit that takes every directly following tool message; every
/// other message is a unit of its own.
///
/// ```
/// use tidemark_core::{Message, ToolCall, UnitKind, units};
///
/// let history = vec![
///     Message::user("Compare both files."),
///     Message::assistant_tool_calls([
///         ToolCall::new("a", "read_file", serde_json::json!({"path": "a.txt"})),
///         ToolCall::new("b", "read_file", serde_json::json!({"path": "b.txt"})),
///     ]),
///     Message::tool_result("b", "beta"),
///     Message::tool_result("a", "alpha"),
///     Message::assistant("They differ."),
/// ];
/// let kinds: Vec<_> = units(&history).map(|u| (u.range(), u.kind())).collect();
/// assert_eq!(kinds, vec![
///     (0..1, UnitKind::Message),
///     (1..4, UnitKind::ToolExchange),
///     (4..5, UnitKind::Message),
/// ]);
/// ```
pub fn units(history: &[Message]) -> Units<'_> {
    Units { history, next: 0 }
}

/// The iterator returned by [`units`].
#[derive(Clone, Debug)]
pub struct Units<'a> {
    history: &'a [Message],
    next: usize,
}

impl Iterator for Units<'_> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        let start = self.next;
        let first = self.history.get(start)?;
        let (end, kind) = if first.has_tool_calls() {
            let results = self.history[start + 1..].iter().take_while(|m| m.role == Role::Tool).count();
            (start + 1 + results, UnitKind::ToolExchange)
        } else {
            (start + 1, UnitKind::Message)
        };
        self.next = end;
        Some(Unit { range: start..end, kind })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.history.len().saturating_sub(self.next);
        (usize::from(left > 0), Some(left))
    }
}

impl std::iter::FusedIterator for Units<'_> {}

/// The way a history breaks the tool-call rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ViolationKind {
    /// A result answers a call id that no message makes.
    OrphanResult {
        /// The call id the result names.
        call_id: String,
    },
    /// A result comes before the message that makes its call.
    ResultBeforeCall {
        /// The call id the result names.
        call_id: String,
    },
    /// One assistant message makes two calls with the same id.
    DuplicateCallId {
        /// The repeated call id.
        call_id: String,
    },
    /// A call is answered a second time.
    DuplicateResult {
        /// The call id answered twice.
        call_id: String,
    },
    /// A message follows a tool exchange whose calls have not all been answered.
    MissingResults {
        /// The unanswered call ids, in the order they were made.
        call_ids: Vec<String>,
    },
    /// A tool call appears in a message that is not from the assistant.
    MisplacedToolCall,
    /// A tool result appears in a message whose role is not `tool`.
    MisplacedToolResult,
    /// A tool message holds something other than tool results, or nothing at all.
    MalformedToolMessage,
    /// A tool call has an empty id.
    EmptyCallId,
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OrphanResult { call_id } => write!(f, "tool result for unknown call id {call_id:?}"),
            Self::ResultBeforeCall { call_id } => {
                write!(f, "tool result for call id {call_id:?} comes before its call")
            }
            Self::DuplicateCallId { call_id } => {
                write!(f, "call id {call_id:?} is used twice in one message")
            }
            Self::DuplicateResult { call_id } => write!(f, "call id {call_id:?} is answered twice"),
            Self::MissingResults { call_ids } => write!(f, "earlier tool calls {call_ids:?} have no results"),
            Self::MisplacedToolCall => f.write_str("tool call outside an assistant message"),
            Self::MisplacedToolResult => f.write_str("tool result outside a tool message"),
            Self::MalformedToolMessage => {
                f.write_str("tool message without tool results or with other content")
            }
            Self::EmptyCallId => f.write_str("tool call with an empty id"),
        }
    }
}

/// The first message of a history that breaks a tool-call rule, and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("message {index}: {kind}")]
#[non_exhaustive]
pub struct Violation {
    /// The index of the offending message.
    pub index: usize,
    /// What is wrong with it.
    pub kind: ViolationKind,
}

impl Violation {
    /// A violation at `index`.
    pub fn new(index: usize, kind: ViolationKind) -> Self {
        Self { index, kind }
    }
}

/// Check that `history` obeys the tool-call rules providers enforce.
///
/// The rules: tool calls appear only in assistant messages and have non-empty
/// ids, unique within their message (a later exchange may reuse an id, as
/// recorded agents do); tool results appear only in tool messages, which hold nothing
/// else; every result answers a call made by the nearest preceding assistant
/// message with calls, exactly once; and no other message follows until all of
/// that message's calls are answered. A history may end while results are
/// still outstanding.
///
/// # Errors
///
/// Returns the [`Violation`] with the smallest index.
///
/// ```
/// use tidemark_core::{Message, ViolationKind, validate};
///
/// let history = vec![Message::user("hi"), Message::tool_result("call_9", "ok")];
/// let violation = validate(&history).unwrap_err();
/// assert_eq!(violation.index, 1);
/// assert_eq!(violation.kind, ViolationKind::OrphanResult { call_id: "call_9".into() });
/// ```
pub fn validate(history: &[Message]) -> Result<(), Violation> {
    // Where each call id is made, to tell an orphan from an early result.
    let mut calls_at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, message) in history.iter().enumerate() {
        for call in message.tool_calls() {
            calls_at.entry(call.id.as_str()).or_default().push(index);
        }
    }

    // Calls of the open exchange still waiting for their results, in call order,
    // and the calls it has had answered.
    let mut pending: Vec<&str> = Vec::new();
    let mut answered: HashSet<&str> = HashSet::new();

    for (index, message) in history.iter().enumerate() {
        let fail = |kind| Err(Violation::new(index, kind));
        if message.role == Role::Tool {
            let only_results = message.parts.iter().all(|part| matches!(part, Part::ToolResult(_)));
            if message.parts.is_empty() || !only_results {
                return fail(ViolationKind::MalformedToolMessage);
            }
            for result in message.tool_results() {
                let id = result.call_id.as_str();
                if let Some(position) = pending.iter().position(|pending_id| *pending_id == id) {
                    pending.remove(position);
                    answered.insert(id);
                } else if answered.contains(id) {
                    return fail(ViolationKind::DuplicateResult { call_id: id.to_owned() });
                } else if calls_at.get(id).is_some_and(|at| at.iter().any(|&call| call > index)) {
                    return fail(ViolationKind::ResultBeforeCall { call_id: id.to_owned() });
                } else {
                    // Unknown id, or a call of an exchange that is already closed
                    // (closing it with calls unanswered was reported earlier).
                    return fail(ViolationKind::OrphanResult { call_id: id.to_owned() });
                }
            }
            continue;
        }

        if message.has_tool_results() {
            return fail(ViolationKind::MisplacedToolResult);
        }
        if !pending.is_empty() {
            let call_ids = pending.iter().map(|id| (*id).to_owned()).collect();
            return fail(ViolationKind::MissingResults { call_ids });
        }
        answered.clear();
        if message.has_tool_calls() {
            if message.role != Role::Assistant {
                return fail(ViolationKind::MisplacedToolCall);
            }
            for call in message.tool_calls() {
                let id = call.id.as_str();
                if id.is_empty() {
                    return fail(ViolationKind::EmptyCallId);
                }
                // Within one message an id must be unique; a later exchange may
                // reuse it, as recorded agents do, since a result answers the
                // calls of the message right before it.
                if pending.contains(&id) {
                    return fail(ViolationKind::DuplicateCallId { call_id: id.to_owned() });
                }
                pending.push(id);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

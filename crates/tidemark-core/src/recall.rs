//! Recall over stored messages: the passages a message is cut into, the search terms, and the ranking every store shares.
//!
//! Every appended message stays in its store after the watermark has moved
//! past it. A store indexes each message as a few short [`PassageText`]s (at
//! the append, or when a search first reaches below it), and
//! [`ConversationStore::search_passages`] answers a
//! [`RecallQuery`] with the best [`Passage`]s of the messages below the
//! query's `below` mark, so that a caller can quote the relevant lines of an
//! old turn instead of the whole turn.
//!
//! The rules are pure functions here, so that every store cuts, tokenises and
//! scores the same way: [`passages`] cuts a message, [`terms`] is the one
//! tokenizer (for indexing and for queries), [`query_terms`] is what a query
//! searches for, [`candidate_messages`] chooses the messages whose passages
//! are ranked (those the query's rarest terms point at, a bounded number, see
//! the rule there), and [`rank`] scores their passages with BM25. Each store
//! answers the per-term lookups from its own index, so that a search costs
//! the same at turn 100 as at turn 100,000, and all stores return the same
//! answer.
//!
//! A store given an [`Embedder`] also recalls by meaning: it keeps an
//! [`Embedding`] of each passage, takes the passages [`nearest`] to the
//! query's embedding beside the keyword ranking and merges the two with
//! [`combine`], so that a question asked in other words than the passage still
//! finds it: piece by piece when the model has a vector per word
//! ([`Embedder::pieces`]), by [`fuse`] otherwise.
//!
//! [`ConversationStore::search_passages`]: crate::ConversationStore::search_passages

mod rank;
mod select;
mod similar;
mod split;
mod terms;

#[cfg(test)]
mod tests;

pub use rank::{TermCounts, rank, rank_borrowed, rank_counted, rank_texts};
pub use select::{CANDIDATE_MESSAGES, RARE_MESSAGES, candidate_messages};
pub use similar::{
    Embedder, Embedding, FIRST_LOOK, FIRST_LOOK_MIN, FUSION_K, MAX_DIMENSIONS, MAX_QUERY_PIECES,
    MEANING_POOL, Near, SIMILAR_PASSAGES, VectorIndex, combine, fuse, keyword_pool, nearest, query_pieces,
};
pub use split::{MAX_PASSAGE_BYTES, PASSAGE_RULES, index_terms, passage_texts, passages};
pub use terms::{MAX_QUERY_BYTES, MAX_QUERY_TERMS, MAX_TERM_CHARS, query_terms, terms};

use crate::id::Seq;
use crate::message::Role;

/// One searchable piece of a message: a few whole lines, at most [`MAX_PASSAGE_BYTES`] long.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PassageText {
    /// Its place among the passages of its message, from zero.
    pub index: u32,
    /// The text, quoted as it stands in the message.
    pub text: String,
    /// Its search terms, as [`terms`] finds them in `text`.
    pub terms: Vec<String>,
}

impl PassageText {
    /// A passage with its terms computed from `text`.
    pub fn new(index: u32, text: impl Into<String>) -> Self {
        let text = text.into();
        let terms = terms(&text);
        Self { index, text, terms }
    }
}

/// A passage a store holds, as handed to [`rank`]: where it comes from and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Candidate {
    /// The sequence number of its message.
    pub seq: Seq,
    /// Who spoke the message.
    pub role: Role,
    /// The passage.
    pub passage: PassageText,
}

impl Candidate {
    /// A candidate passage of the message `seq`, spoken by `role`.
    pub fn new(seq: Seq, role: Role, passage: PassageText) -> Self {
        Self { seq, role, passage }
    }
}

/// A passage found by a search, with its score.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Passage {
    /// The sequence number of the message it was cut from.
    pub seq: Seq,
    /// Who spoke that message.
    pub role: Role,
    /// Its place among the passages of that message, from zero.
    pub index: u32,
    /// The passage's text.
    pub text: String,
    /// Its score: higher is better, comparable only within one answer. BM25 for a keyword search;
    /// for a store with an [`Embedder`], the piece-by-piece score of [`combine`] (the reciprocal-rank
    /// score of [`fuse`] when the model has no pieces).
    pub score: f64,
}

impl Passage {
    /// A found passage.
    pub fn new(seq: Seq, role: Role, index: u32, text: impl Into<String>, score: f64) -> Self {
        Self { seq, role, index, text: text.into(), score }
    }
}

/// What to search for: the query text, the mark below which messages are searched, and how many passages to return.
///
/// ```
/// use tidemark_core::Seq;
/// use tidemark_core::recall::RecallQuery;
///
/// // The best 3 passages about the incident, among messages 0 to 41.
/// let query = RecallQuery::new("INC-20931 rollback", Seq(42), 3);
/// assert_eq!(query.terms(), ["inc-20931", "inc", "20931", "rollback"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecallQuery {
    /// The text to search for, as the user or the model wrote it.
    pub text: String,
    /// Only messages with a sequence number below this are searched (usually the memory's watermark).
    pub below: Seq,
    /// The most passages to return.
    pub limit: usize,
}

impl RecallQuery {
    /// A query for `text` among the messages below `below`, returning at most `limit` passages.
    pub fn new(text: impl Into<String>, below: Seq, limit: usize) -> Self {
        Self { text: text.into(), below, limit }
    }

    /// The terms the query searches for: [`query_terms`] of its text.
    pub fn terms(&self) -> Vec<String> {
        query_terms(&self.text)
    }
}

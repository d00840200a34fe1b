//! Which messages a search ranks: those that the query's rarest terms point at.
//!
//! Ranking every passage that shares any term with the query costs time in
//! proportion to the conversation: a query holding a common word ("file",
//! "run") matches most of it. Recall is about what the query singles out, so
//! a search first asks, for each query term, which messages below the mark
//! hold it, newest first, and stops counting after [`RARE_MESSAGES`]` + 1`.
//! A term found in more messages than [`RARE_MESSAGES`] is too common to
//! point anywhere and finds no candidates; the others are taken rarest
//! first, each with all its messages, until [`CANDIDATE_MESSAGES`] are
//! gathered. When every term is that common, the candidates are the messages
//! among those newest holders that hold the most query terms (newest first
//! among equals), at most [`CANDIDATE_MESSAGES`] of them: a query of common
//! words still finds their most recent use together. The passages of those
//! messages are ranked with
//! [`rank`](super::rank) against every query term. Each step is a bounded
//! index lookup in every store, and the rule is the same in all of them.

use std::collections::{BTreeMap, BTreeSet};

use crate::id::Seq;

/// A term held by more messages below the mark than this is too common to find candidates by.
pub const RARE_MESSAGES: usize = 32;

/// Candidate messages are gathered, rarest term first, until at least this many are found.
pub const CANDIDATE_MESSAGES: usize = 32;

/// The candidate messages, ascending, given each query term's messages.
///
/// `found[i]` holds the sequence numbers of the messages below the mark that
/// hold query term `i`, newest first; a store may stop after
/// [`RARE_MESSAGES`]` + 1` of them, since any more mean the same: too common.
/// Terms are taken in order of how few messages hold them (ties in query
/// order), each one whole, until [`CANDIDATE_MESSAGES`] are gathered. Only
/// the first [`RARE_MESSAGES`]` + 1` entries of each list are read, so a store
/// that passes longer lists gets the same answer.
///
/// ```
/// use tidemark_core::Seq;
/// use tidemark_core::recall::{RARE_MESSAGES, candidate_messages};
///
/// let common: Vec<Seq> = (0..=RARE_MESSAGES as u64).rev().map(Seq).collect();
/// let rare = vec![Seq(40), Seq(7)];
/// assert_eq!(candidate_messages(&[common.clone(), rare, vec![]]), [Seq(7), Seq(40)]);
///
/// // Only common terms: their newest holders, those holding both first.
/// let other: Vec<Seq> = (10..=10 + RARE_MESSAGES as u64).rev().map(Seq).collect();
/// let chosen = candidate_messages(&[common, other]);
/// assert_eq!(chosen.len(), 32);
/// assert!((10..=32).all(|seq| chosen.contains(&Seq(seq))));
/// ```
pub fn candidate_messages(found: &[Vec<Seq>]) -> Vec<Seq> {
    let newest = |term: usize| &found[term][..found[term].len().min(RARE_MESSAGES + 1)];
    let mut order: Vec<usize> =
        (0..found.len()).filter(|&term| (1..=RARE_MESSAGES).contains(&newest(term).len())).collect();
    order.sort_by_key(|&term| newest(term).len());
    let mut chosen = BTreeSet::new();
    for term in order {
        if chosen.len() >= CANDIDATE_MESSAGES {
            break;
        }
        chosen.extend(newest(term).iter().copied());
    }
    if chosen.is_empty() {
        // Every term is common: the newest holders of the most query terms.
        let mut held: BTreeMap<Seq, usize> = BTreeMap::new();
        for term in 0..found.len() {
            for seq in newest(term) {
                *held.entry(*seq).or_default() += 1;
            }
        }
        let mut ranked: Vec<(Seq, usize)> = held.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
        chosen.extend(ranked.into_iter().take(CANDIDATE_MESSAGES).map(|(seq, _)| seq));
    }
    chosen.into_iter().collect()
}

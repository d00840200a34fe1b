//! Recall by meaning: embeddings of passages, the nearest ones to a query, and their fusion with the keyword ranking.
//!
//! Keyword ranking finds a passage only through a word it shares with the
//! query; a question asked in other words ("where do our servers live?" for
//! "we host everything in Frankfurt") finds nothing. A store given an
//! [`Embedder`] also keeps an [`Embedding`] of each passage, and a search then
//! takes the [`SIMILAR_PASSAGES`] passages nearest to the query's embedding
//! ([`nearest`]) beside the keyword ranking, and merges the two lists by
//! reciprocal rank ([`fuse`]). Both rules are pure and exact (integer dot
//! products, ties broken by position), so every store gives the same answer.

use std::cmp::Ordering;
use std::fmt;

use super::Passage;
use crate::id::Seq;

mod index;
mod pieces;

pub use index::VectorIndex;
pub use pieces::{MAX_QUERY_PIECES, MEANING_POOL, combine, keyword_pool, query_pieces};

/// How many of the passages nearest to a query join a search's keyword ranking.
pub const SIMILAR_PASSAGES: usize = 64;

/// The constant of reciprocal rank fusion: a passage at rank `r` (from zero) of a list scores `1 / (FUSION_K + r + 1)`.
pub const FUSION_K: f64 = 60.0;

/// [`nearest`] takes the exact cosine of this many passages per passage it returns, chosen by [`Embedding::agreement`].
pub const FIRST_LOOK: usize = 8;

/// [`nearest`] takes the exact cosine of at least this many passages.
pub const FIRST_LOOK_MIN: usize = 256;

/// The most dimensions an embedding may have.
pub const MAX_DIMENSIONS: usize = 4096;

/// A text's direction in an embedding space, kept as 8-bit integers.
///
/// Only the direction counts: [`similarity`](Embedding::similarity) is the
/// cosine of two embeddings, computed from an integer dot product, so that it
/// is the same to the bit on every machine and in every store. An embedding
/// is never empty, never all zeros and never longer than [`MAX_DIMENSIONS`],
/// so a cosine is always defined.
///
/// ```
/// use tidemark_core::recall::Embedding;
///
/// let a = Embedding::from_f32(&[0.6, 0.8, 0.0]).expect("not zero");
/// let b = Embedding::from_f32(&[0.6, 0.8, 0.1]).expect("not zero");
/// let c = Embedding::from_f32(&[0.0, 0.0, -1.0]).expect("not zero");
/// assert!(a.similarity(&b) > 0.99);
/// assert!(a.similarity(&c).abs() < 1e-9);
/// // Stores keep the bytes; reading them back gives the same embedding.
/// assert_eq!(Embedding::from_bytes(a.as_bytes()), Some(a));
/// assert_eq!(Embedding::from_f32(&[0.0, 0.0]), None);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Embedding {
    /// The values, each an `i8` kept as its two's-complement byte, so that stores read and write them without a copy.
    bytes: Box<[u8]>,
    /// The sum of the squared values: the square of the length.
    square: u64,
    /// Bit `i` is set when value `i` is positive, for the first 128 values: the quick first look of [`nearest`].
    signs: [u64; 2],
}

impl Embedding {
    /// The embedding pointing where `values` points, or `None` if `values` is empty, too long, all zeros or holds a value that is not finite.
    ///
    /// The largest value becomes ±127 and the others keep their proportion to it, rounded.
    pub fn from_f32(values: &[f32]) -> Option<Self> {
        if values.is_empty() || values.len() > MAX_DIMENSIONS || values.iter().any(|value| !value.is_finite())
        {
            return None;
        }
        let peak = values.iter().fold(0.0f32, |peak, value| peak.max(value.abs()));
        if peak == 0.0 {
            return None;
        }
        let scale = 127.0 / f64::from(peak);
        let bytes: Vec<u8> = values
            .iter()
            // In range by construction: |value| <= peak, so |value * scale| <= 127.
            .map(|value| ((f64::from(*value) * scale).round().clamp(-127.0, 127.0) as i8).to_ne_bytes()[0])
            .collect();
        Self::from_boxed(bytes.into_boxed_slice())
    }

    /// An embedding from the bytes [`as_bytes`](Embedding::as_bytes) gave, or `None` if they cannot be one (empty, too long, all zeros).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() > MAX_DIMENSIONS {
            return None;
        }
        Self::from_boxed(bytes.into())
    }

    fn from_boxed(bytes: Box<[u8]>) -> Option<Self> {
        let square: u64 = bytes.iter().map(|byte| u64::from(value(*byte).unsigned_abs()).pow(2)).sum();
        let mut signs = [0u64; 2];
        for (at, byte) in bytes.iter().take(128).enumerate() {
            if value(*byte) > 0 {
                signs[at / 64] |= 1 << (at % 64);
            }
        }
        (!bytes.is_empty() && bytes.len() <= MAX_DIMENSIONS && square > 0).then_some(Self {
            bytes,
            square,
            signs,
        })
    }

    /// Its values as bytes (each an `i8` in two's complement), one per dimension: what a store keeps.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Its values.
    pub fn values(&self) -> impl ExactSizeIterator<Item = i8> + '_ {
        self.bytes.iter().map(|byte| value(*byte))
    }

    /// How many dimensions it has.
    pub fn dimensions(&self) -> usize {
        self.bytes.len()
    }

    /// How many of the first 128 values have the same sign (positive, or not) in both: a rough, cheap likeness.
    pub fn agreement(&self, other: &Embedding) -> u32 {
        let differ =
            (self.signs[0] ^ other.signs[0]).count_ones() + (self.signs[1] ^ other.signs[1]).count_ones();
        128 - differ
    }

    /// The cosine of the angle between the two, from -1 to 1; 0 when their dimensions differ.
    pub fn similarity(&self, other: &Embedding) -> f64 {
        cosine(&self.bytes, self.square, &other.bytes, other.square)
    }
}

/// The cosine of two embeddings given by their values and their sums of squares, from -1 to 1; 0 when their dimensions differ.
///
/// The one rule of [`Embedding::similarity`], also applied by [`VectorIndex`]
/// to the values it keeps side by side, so both give the same bits.
fn cosine(mine: &[u8], my_square: u64, theirs: &[u8], their_square: u64) -> f64 {
    if mine.len() != theirs.len() {
        return 0.0;
    }
    // Each product is at most 127², which fits an i16, and there are at most MAX_DIMENSIONS of
    // them: 66 million, so an i32 sum is exact. Sixteen products at a time, each widened only
    // when added, is a shape the compiler turns into wide multiply-adds.
    let (mine, theirs) = (mine.chunks_exact(16), theirs.chunks_exact(16));
    let rest: i32 = mine.remainder().iter().zip(theirs.remainder()).map(|(a, b)| product(*a, *b)).sum();
    let dot: i32 = mine
        .zip(theirs)
        .map(|(a, b)| {
            let mut lanes = [0i32; 16];
            for (lane, (a, b)) in lanes.iter_mut().zip(a.iter().zip(b)) {
                *lane = product(*a, *b);
            }
            lanes.iter().sum::<i32>()
        })
        .sum::<i32>()
        + rest;
    // Each square is below 2^27, so their product is exact in f64 and the answer is the same everywhere.
    (f64::from(dot) / ((my_square as f64) * (their_square as f64)).sqrt()).clamp(-1.0, 1.0)
}

/// The product of the `i8` values two bytes hold (at most 127² in size, so exact in an i16).
fn product(a: u8, b: u8) -> i32 {
    i32::from(i16::from(value(a)) * i16::from(value(b)))
}

/// A byte read as the `i8` it holds.
fn value(byte: u8) -> i8 {
    i8::from_ne_bytes([byte])
}

impl fmt::Debug for Embedding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Embedding").field("dimensions", &self.bytes.len()).finish_non_exhaustive()
    }
}

/// A model that turns a text into an [`Embedding`]: what a store needs to recall by meaning.
///
/// `embed` must be a pure function of the text (the same text gives the same
/// embedding, in every process), since stores keep the embeddings they made
/// and compare them with a query's embedding made later. `name` identifies
/// the model and its version: a store that finds embeddings made under
/// another name makes them again.
pub trait Embedder: Send + Sync + fmt::Debug {
    /// The model's name and version, such as `"tidemark-minilm-static-128@1"`.
    fn name(&self) -> &str;

    /// The embedding of `text`, or `None` when the model finds nothing in it to place (an empty text, only unknown symbols).
    fn embed(&self, text: &str) -> Option<Embedding>;

    /// The pieces of `text` (words or parts of words) the model has a vector of, by id, in any order, repeats allowed.
    ///
    /// A model with pieces lets [`combine`] weigh a search's candidates piece
    /// by piece. The default, none, leaves a search to [`fuse`]. Like
    /// `embed`, a pure function of the text.
    fn pieces(&self, text: &str) -> Vec<u32> {
        let _ = text;
        Vec::new()
    }

    /// The cosine of the vectors of two pieces [`pieces`](Embedder::pieces) gave, from -1 to 1; 1 for a piece and itself, 0 for an id the model does not know.
    ///
    /// A pure function, symmetric in its arguments. A value that is not finite
    /// is read as 0, one below 0 as 0 (no likeness) and one above 1 as 1.
    fn piece_similarity(&self, a: u32, b: u32) -> f64 {
        let _ = (a, b);
        0.0
    }

    /// [`piece_similarity`](Embedder::piece_similarity) of `piece` with each of `others`, in their order.
    ///
    /// The default asks for each in turn. A model whose vectors sit in a
    /// large table may answer faster by reading them together; its answers
    /// must be the ones `piece_similarity` gives, to the bit.
    fn piece_similarities(&self, piece: u32, others: &[u32]) -> Vec<f64> {
        others.iter().map(|other| self.piece_similarity(piece, *other)).collect()
    }
}

/// A passage and how near it is to a query: one entry of [`nearest`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Near {
    /// The sequence number of the passage's message.
    pub seq: Seq,
    /// Its place among its message's passages.
    pub index: u32,
    /// Its cosine with the query's embedding.
    pub similarity: f64,
}

/// The `count` passages nearest to `query` among `candidates` below `below`, nearest first.
///
/// A first look keeps the passages whose first 128 values agree most in
/// sign with the query's ([`Embedding::agreement`], a few instructions per
/// passage), `FIRST_LOOK` times `count` of them and at least
/// [`FIRST_LOOK_MIN`]; the exact cosine then orders those. With more
/// candidates than that, a passage the first look passed over is not found
/// even if its cosine is higher: the price of a search that reads 16 bytes of
/// most passages instead of all of them. Every store applies the same rule, so
/// the answer is the same on each.
///
/// Only passages with a positive cosine count. Ties go to the newer message,
/// then to the earlier passage within it, as in [`rank`](super::rank), so the
/// answer depends only on the set of candidates, not on their order.
///
/// ```
/// use tidemark_core::Seq;
/// use tidemark_core::recall::{Embedding, nearest};
///
/// let e = |v: &[f32]| Embedding::from_f32(v).expect("not zero");
/// let kept = [(Seq(1), 0, e(&[1.0, 0.0])), (Seq(2), 0, e(&[0.7, 0.7])), (Seq(3), 0, e(&[-1.0, 0.0]))];
/// let found = nearest(&e(&[1.0, 0.1]), Seq(10), kept.iter().map(|(s, i, v)| (*s, *i, v)), 5);
/// let order: Vec<Seq> = found.iter().map(|near| near.seq).collect();
/// assert_eq!(order, [Seq(1), Seq(2)]);
/// ```
pub fn nearest<'a>(
    query: &Embedding,
    below: Seq,
    candidates: impl IntoIterator<Item = (Seq, u32, &'a Embedding)>,
    count: usize,
) -> Vec<Near> {
    if count == 0 {
        return Vec::new();
    }
    // First look: the passages whose signs agree most with the query's, ties to the newer message
    // and then the earlier passage, as many as `FIRST_LOOK` times `count` (at least `FIRST_LOOK_MIN`).
    let room = count.saturating_mul(FIRST_LOOK).max(FIRST_LOOK_MIN);
    let mut looked: Vec<(u32, Seq, u32, &Embedding)> = Vec::with_capacity(room.min(1 << 16) + 1);
    let better = |a: &(u32, Seq, u32, &Embedding), b: &(u32, Seq, u32, &Embedding)| {
        b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2))
    };
    for (seq, index, embedding) in candidates {
        if seq >= below {
            continue;
        }
        let look = (query.agreement(embedding), seq, index, embedding);
        if looked.len() == room && looked.last().is_some_and(|last| better(&look, last) != Ordering::Less) {
            continue;
        }
        let at = looked.partition_point(|kept| better(kept, &look) == Ordering::Less);
        looked.insert(at, look);
        looked.truncate(room);
    }
    // Then the exact cosine of those.
    let mut found: Vec<Near> = looked
        .into_iter()
        .map(|(_, seq, index, embedding)| Near { seq, index, similarity: query.similarity(embedding) })
        .filter(|near| near.similarity > 0.0)
        .collect();
    found.sort_by(nearer);
    found.truncate(count);
    found
}

fn nearer(a: &Near, b: &Near) -> Ordering {
    b.similarity.total_cmp(&a.similarity).then(b.seq.cmp(&a.seq)).then(a.index.cmp(&b.index))
}

/// The keyword ranking and the nearest passages merged by reciprocal rank, best first, at most `limit`.
///
/// `keyword` is [`rank`](super::rank)'s answer, best first; `similar` holds
/// the passages of [`nearest`]'s answer, in its order. A passage's score is
/// the sum over the lists it is in of `1 / (FUSION_K + rank + 1)`, so a
/// passage both lists found comes before one only either found. A passage is
/// known by its message and index, and the text and role kept are the first
/// list's. Ties go to the newer message, then to the earlier passage.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{Passage, fuse};
///
/// let p = |seq, text: &str| Passage::new(Seq(seq), Role::User, 0, text, 0.0);
/// let keyword = vec![p(4, "INC-20931 is closed"), p(2, "INC-20931 opened")];
/// let similar = vec![p(9, "the outage is over"), p(4, "INC-20931 is closed")];
/// let fused = fuse(keyword, similar, 3);
/// let order: Vec<u64> = fused.iter().map(|found| found.seq.0).collect();
/// assert_eq!(order, [4, 9, 2]);
/// ```
pub fn fuse(keyword: Vec<Passage>, similar: Vec<Passage>, limit: usize) -> Vec<Passage> {
    let mut merged: Vec<Passage> = Vec::with_capacity(keyword.len() + similar.len());
    for list in [keyword, similar] {
        for (rank, passage) in list.into_iter().enumerate() {
            let score = 1.0 / (FUSION_K + rank as f64 + 1.0);
            match merged.iter_mut().find(|kept| kept.seq == passage.seq && kept.index == passage.index) {
                Some(kept) => kept.score += score,
                None => merged.push(Passage { score, ..passage }),
            }
        }
    }
    merged.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.seq.cmp(&a.seq)).then(a.index.cmp(&b.index)));
    merged.truncate(limit);
    merged
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::message::Role;

    fn arb_values() -> impl Strategy<Value = Vec<f32>> {
        prop::collection::vec(prop_oneof![Just(0.0f32), -1e6f32..1e6f32, -1.0f32..1.0f32], 1..48)
    }

    fn arb_embedding(dimensions: usize) -> impl Strategy<Value = Embedding> {
        arb_embedding_within(127, dimensions)
    }

    /// Embeddings of `dimensions` values from `-bound` to `bound`: a small bound makes many ties.
    pub(super) fn arb_embedding_within(bound: i8, dimensions: usize) -> impl Strategy<Value = Embedding> {
        prop::collection::vec(-bound..=bound, dimensions).prop_filter_map("all zeros", |values| {
            Embedding::from_bytes(&values.iter().map(|value| value.to_ne_bytes()[0]).collect::<Vec<u8>>())
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn bytes_round_trip_and_similarity_is_a_cosine(a in arb_values(), b in arb_values()) {
            let (Some(x), Some(y)) = (Embedding::from_f32(&a), Embedding::from_f32(&b)) else {
                prop_assert!(a.iter().all(|v| *v == 0.0) || b.iter().all(|v| *v == 0.0));
                return Ok(());
            };
            prop_assert_eq!(Embedding::from_bytes(x.as_bytes()), Some(x.clone()));
            prop_assert_eq!(x.values().count(), a.len());
            let similarity = x.similarity(&y);
            prop_assert!(similarity.is_finite() && (-1.0..=1.0).contains(&similarity));
            prop_assert_eq!(similarity.to_bits(), y.similarity(&x).to_bits());
            prop_assert!((x.similarity(&x) - 1.0).abs() < 1e-12);
            if a.len() != b.len() {
                prop_assert_eq!(similarity, 0.0);
            }
        }

        #[test]
        fn not_finite_or_oversized_values_make_no_embedding(mut a in arb_values(), at in any::<prop::sample::Index>()) {
            let i = at.index(a.len());
            a[i] = f32::NAN;
            prop_assert_eq!(Embedding::from_f32(&a), None);
            a[i] = f32::INFINITY;
            prop_assert_eq!(Embedding::from_f32(&a), None);
            prop_assert_eq!(Embedding::from_f32(&vec![1.0; MAX_DIMENSIONS + 1]), None);
            prop_assert_eq!(Embedding::from_bytes(&vec![1; MAX_DIMENSIONS + 1]), None);
        }

        #[test]
        fn nearest_depends_only_on_the_set(
            query in arb_embedding(6),
            kept in prop::collection::vec((0u64..40, 0u32..3, arb_embedding(6)), 0..80),
            below in 0u64..45,
            count in 0usize..40,
            seed in any::<u64>(),
        ) {
            let mut kept = kept;
            kept.sort_by_key(|(seq, index, _)| (*seq, *index));
            kept.dedup_by_key(|(seq, index, _)| (*seq, *index));
            let found = nearest(&query, Seq(below), kept.iter().map(|(s, i, e)| (Seq(*s), *i, e)), count);
            let mut shuffled = kept.clone();
            let mut state = seed;
            for i in (1..shuffled.len()).rev() {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                shuffled.swap(i, (state >> 33) as usize % (i + 1));
            }
            let again = nearest(&query, Seq(below), shuffled.iter().map(|(s, i, e)| (Seq(*s), *i, e)), count);
            prop_assert_eq!(&found, &again);
            let eligible = kept.iter().filter(|(s, _, e)| *s < below && query.similarity(e) > 0.0).count();
            prop_assert_eq!(found.len(), eligible.min(count));
            prop_assert!(found.iter().all(|near| near.seq.0 < below && near.similarity > 0.0));
            prop_assert!(found.windows(2).all(|pair| pair[0].similarity >= pair[1].similarity));
        }

        #[test]
        fn the_first_look_keeps_answers_true_and_independent_of_order(
            query in arb_embedding(6),
            kept in prop::collection::vec(arb_embedding(6), 300..700),
            count in 1usize..40,
        ) {
            let kept: Vec<(Seq, u32, Embedding)> =
                kept.into_iter().enumerate().map(|(at, e)| (Seq(at as u64 / 2), (at % 2) as u32, e)).collect();
            let below = Seq(u64::MAX);
            let found = nearest(&query, below, kept.iter().map(|(s, i, e)| (*s, *i, e)), count);
            let reversed = nearest(&query, below, kept.iter().rev().map(|(s, i, e)| (*s, *i, e)), count);
            prop_assert_eq!(&found, &reversed);
            prop_assert!(found.len() <= count);
            prop_assert!(found.windows(2).all(|pair| nearer(&pair[0], &pair[1]) == Ordering::Less));
            for near in &found {
                let (_, _, embedding) = kept.iter().find(|(s, i, _)| *s == near.seq && *i == near.index).expect("kept");
                prop_assert_eq!(near.similarity.to_bits(), query.similarity(embedding).to_bits());
                prop_assert!(near.similarity > 0.0);
            }
        }

        #[test]
        fn fusion_keeps_each_passage_once_best_first(
            keyword in prop::collection::vec((0u64..20, 0u32..2), 0..12),
            similar in prop::collection::vec((0u64..20, 0u32..2), 0..12),
            limit in 0usize..30,
        ) {
            let list = |pairs: &[(u64, u32)]| -> Vec<Passage> {
                let mut seen = std::collections::HashSet::new();
                pairs
                    .iter()
                    .filter(|pair| seen.insert(**pair))
                    .map(|(seq, index)| Passage::new(Seq(*seq), Role::User, *index, format!("{seq}.{index}"), 1.0))
                    .collect()
            };
            let (keyword, similar) = (list(&keyword), list(&similar));
            let fused = fuse(keyword.clone(), similar.clone(), limit);
            let mut union: Vec<(Seq, u32)> =
                keyword.iter().chain(&similar).map(|passage| (passage.seq, passage.index)).collect();
            union.sort();
            union.dedup();
            prop_assert_eq!(fused.len(), union.len().min(limit));
            let mut kept: Vec<(Seq, u32)> = fused.iter().map(|passage| (passage.seq, passage.index)).collect();
            kept.sort();
            kept.dedup();
            prop_assert_eq!(kept.len(), fused.len());
            prop_assert!(fused.windows(2).all(|pair| pair[0].score >= pair[1].score));
            // With nothing near, the keyword ranking is kept in its order.
            let alone = fuse(keyword.clone(), Vec::new(), limit);
            let order: Vec<(Seq, u32)> = alone.iter().map(|passage| (passage.seq, passage.index)).collect();
            let expected: Vec<(Seq, u32)> = keyword.iter().take(limit).map(|passage| (passage.seq, passage.index)).collect();
            prop_assert_eq!(order, expected);
        }
    }
}

//! [`VectorIndex`]: a conversation's passage embeddings laid out so that [`nearest`](super::nearest)'s rule runs at memory speed.

use std::cmp::Ordering;

use super::{Embedding, FIRST_LOOK, FIRST_LOOK_MIN, Near, nearer};
use crate::id::Seq;

/// The embeddings of a conversation's passages, by message and then passage, with their sign bits side by side.
///
/// [`nearest`](super::nearest) reads each candidate through an iterator
/// of tuples; a store that keeps tens of thousands of passages pays for
/// walking all of that memory at every search. This index keeps the 16
/// bytes of sign bits that the first look reads in one array, and picks the
/// first look by counting how many passages reach each agreement, so a
/// search reads 16 bytes per passage and sorts only the few it looks at
/// closely. The answer is [`nearest`](super::nearest)'s over the same
/// passages, to the bit (a property test checks it).
///
/// ```
/// use tidemark_core::Seq;
/// use tidemark_core::recall::{Embedding, VectorIndex, nearest};
///
/// let e = |v: &[f32]| Embedding::from_f32(v).expect("not zero");
/// let mut index = VectorIndex::new();
/// index.push(Seq(1), 0, e(&[1.0, 0.0]));
/// index.push(Seq(2), 0, e(&[0.7, 0.7]));
/// index.push(Seq(3), 0, e(&[-1.0, 0.0]));
/// let query = e(&[1.0, 0.1]);
/// let found = index.nearest(&query, Seq(10), 5);
/// assert_eq!(found, nearest(&query, Seq(10), index.iter(), 5));
/// assert_eq!(found.iter().map(|near| near.seq).collect::<Vec<_>>(), [Seq(1), Seq(2)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VectorIndex {
    /// Each passage's message and place, ascending.
    places: Vec<(Seq, u32)>,
    /// The sign bits of each passage's first 128 values, as [`Embedding`] keeps them.
    signs: Vec<[u64; 2]>,
    embeddings: Vec<Embedding>,
}

impl VectorIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many passages it holds.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// Add the embedding of passage `index` of message `seq`, replacing the one it had.
    ///
    /// Passages usually come in order (by message, then place) and are added
    /// at the end; one out of order is put in its place.
    pub fn push(&mut self, seq: Seq, index: u32, embedding: Embedding) {
        let place = (seq, index);
        if self.places.last().is_none_or(|last| *last < place) {
            self.places.push(place);
            self.signs.push(embedding.signs);
            self.embeddings.push(embedding);
            return;
        }
        match self.places.binary_search(&place) {
            Ok(at) => {
                self.signs[at] = embedding.signs;
                self.embeddings[at] = embedding;
            }
            Err(at) => {
                self.places.insert(at, place);
                self.signs.insert(at, embedding.signs);
                self.embeddings.insert(at, embedding);
            }
        }
    }

    /// Keep only the passages `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(Seq, u32) -> bool) {
        let mut at = 0;
        for read in 0..self.places.len() {
            let (seq, index) = self.places[read];
            if keep(seq, index) {
                self.places.swap(at, read);
                self.signs.swap(at, read);
                self.embeddings.swap(at, read);
                at += 1;
            }
        }
        self.places.truncate(at);
        self.signs.truncate(at);
        self.embeddings.truncate(at);
    }

    /// Every passage, by message and then place: the candidates [`nearest`](super::nearest) takes.
    pub fn iter(&self) -> impl Iterator<Item = (Seq, u32, &Embedding)> + '_ {
        self.places.iter().zip(&self.embeddings).map(|((seq, index), embedding)| (*seq, *index, embedding))
    }

    /// The `count` passages nearest to `query` below `below`, nearest first: [`nearest`](super::nearest)'s answer over [`iter`](Self::iter).
    pub fn nearest(&self, query: &Embedding, below: Seq, count: usize) -> Vec<Near> {
        self.nearest_with(query, below, count, &[])
    }

    /// [`nearest`](Self::nearest) over the passages below `below` and `extra` as well: [`nearest`](super::nearest)'s answer over both, to the bit.
    ///
    /// `extra` holds passages not in the index (a store's messages waiting to
    /// be indexed), each taken whatever its message, so the caller leaves
    /// out those at or above its own bound; none may share a place with a
    /// passage of the index below `below`. The index's passages are still
    /// read 16 bytes each, so a few waiting messages do not cost a walk
    /// over every embedding.
    pub fn nearest_with(
        &self,
        query: &Embedding,
        below: Seq,
        count: usize,
        extra: &[(Seq, u32, &Embedding)],
    ) -> Vec<Near> {
        let end = self.places.partition_point(|(seq, _)| *seq < below);
        if count == 0 || end + extra.len() == 0 {
            return Vec::new();
        }
        let room = count.saturating_mul(FIRST_LOOK).max(FIRST_LOOK_MIN);
        let looked: Vec<(Seq, u32, &Embedding)> = if end + extra.len() <= room {
            (0..end).map(|at| self.at(at)).chain(extra.iter().copied()).collect()
        } else {
            self.first_look(query, end, room, extra)
        };
        let mut found: Vec<Near> = looked
            .into_iter()
            .map(|(seq, index, embedding)| Near { seq, index, similarity: query.similarity(embedding) })
            .filter(|near| near.similarity > 0.0)
            .collect();
        found.sort_by(nearer);
        found.truncate(count);
        found
    }

    /// The passage at position `at`.
    fn at(&self, at: usize) -> (Seq, u32, &Embedding) {
        let (seq, index) = self.places[at];
        (seq, index, &self.embeddings[at])
    }

    /// The `room` passages, of the positions below `end` and `extra`, whose signs agree most with
    /// `query`'s, ties to the newer message and then the earlier passage.
    ///
    /// Only the passages at or above the cut are touched beyond their signs: the rest of the
    /// index is one pass over its sign words and one over their agreement counts.
    fn first_look<'a>(
        &'a self,
        query: &Embedding,
        end: usize,
        room: usize,
        extra: &[(Seq, u32, &'a Embedding)],
    ) -> Vec<(Seq, u32, &'a Embedding)> {
        let extra_signs: Vec<[u64; 2]> = extra.iter().map(|(_, _, embedding)| embedding.signs).collect();
        let extra_agreements = agreements(query, &extra_signs);
        let agreements = agreements(query, &self.signs[..end]);
        let cut = cut(agreements.iter().chain(&extra_agreements), room);
        let mut looked = Vec::with_capacity(room);
        let mut ties = Vec::new();
        for (at, agreement) in agreements.iter().enumerate() {
            match usize::from(*agreement).cmp(&cut) {
                Ordering::Greater => looked.push(self.at(at)),
                Ordering::Equal => ties.push(at),
                Ordering::Less => {}
            }
        }
        let mut extra_ties = Vec::new();
        for (passage, agreement) in extra.iter().zip(&extra_agreements) {
            match usize::from(*agreement).cmp(&cut) {
                Ordering::Greater => looked.push(*passage),
                Ordering::Equal => extra_ties.push(*passage),
                Ordering::Less => {}
            }
        }
        // The ties that fill the rest, newer message first, then earlier passage: the index's in
        // that order without a sort (places ascend, so whole messages come from the back, each
        // from its first passage), merged with the few extra ones, sorted.
        extra_ties.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut index_ties = ties.chunk_by(|a, b| self.places[*a].0 == self.places[*b].0).rev().flatten();
        let mut extra_ties = extra_ties.into_iter().peekable();
        let mut next_index = index_ties.next().map(|at| self.at(*at));
        while looked.len() < room {
            let take_extra = match (&next_index, extra_ties.peek()) {
                (Some(mine), Some(theirs)) => theirs.0.cmp(&mine.0).then(mine.1.cmp(&theirs.1)).is_gt(),
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (None, None) => break,
            };
            if take_extra {
                looked.extend(extra_ties.next());
            } else {
                looked.extend(next_index.take());
                next_index = index_ties.next().map(|at| self.at(*at));
            }
        }
        looked
    }
}

/// How many of the 128 sign bits of each passage agree with `query`'s.
fn agreements(query: &Embedding, signs: &[[u64; 2]]) -> Vec<u8> {
    let [first, second] = query.signs;
    // A plain map, so that the compiler can do several passages at a time.
    signs
        .iter()
        .map(|signs| {
            let differ = (signs[0] ^ first).count_ones() + (signs[1] ^ second).count_ones();
            (128 - differ) as u8
        })
        .collect()
}

fn cut<'a>(agreements: impl IntoIterator<Item = &'a u8>, room: usize) -> usize {
    let mut reaching = [0usize; 129];
    for agreement in agreements {
        reaching[usize::from(*agreement)] += 1;
    }
    let (mut cut, mut above) = (128usize, 0usize);
    while above + reaching[cut] < room && cut > 0 {
        above += reaching[cut];
        cut -= 1;
    }
    cut
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::nearest;
    use super::*;

    fn arb_embedding(dimensions: usize) -> impl Strategy<Value = Embedding> {
        super::super::tests::arb_embedding_within(3, dimensions)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Few values per dimension, so that many passages tie in the first look.
        #[test]
        fn the_index_answers_as_nearest_does(
            query in arb_embedding(6),
            kept in prop::collection::vec((0u64..400, 0u32..3, arb_embedding(6)), 0..700),
            below in 0u64..420,
            count in 0usize..40,
            dropped in 0u64..7,
        ) {
            let mut index = VectorIndex::new();
            // In any order, with repeats: the index keeps one per place, the last pushed.
            for (seq, place, embedding) in &kept {
                index.push(Seq(*seq), *place, embedding.clone());
            }
            let mut last = std::collections::BTreeMap::new();
            for (seq, place, embedding) in &kept {
                last.insert((Seq(*seq), *place), embedding.clone());
            }
            prop_assert_eq!(index.len(), last.len());
            prop_assert!(index.iter().map(|(s, i, _)| (s, i)).eq(last.keys().copied()));
            let expected = nearest(&query, Seq(below), last.iter().map(|((s, i), e)| (*s, *i, e)), count);
            prop_assert_eq!(index.nearest(&query, Seq(below), count), expected.clone());
            // Passages outside the index, above its bound, answer as if they were in it.
            let bound = below / 2;
            let extra: Vec<(Seq, u32, &Embedding)> = last
                .iter()
                .filter(|((seq, _), _)| seq.0 >= bound && seq.0 < below)
                .map(|((s, i), e)| (*s, *i, e))
                .collect();
            prop_assert_eq!(index.nearest_with(&query, Seq(bound), count, &extra), expected.clone());
            // Extra passages may sit between the index's own: the odd messages outside, the even ones in.
            let mut even = VectorIndex::new();
            for ((seq, place), embedding) in last.iter().filter(|((seq, _), _)| seq.0 % 2 == 0) {
                even.push(*seq, *place, embedding.clone());
            }
            let odd: Vec<(Seq, u32, &Embedding)> = last
                .iter()
                .filter(|((seq, _), _)| seq.0 % 2 == 1 && seq.0 < below)
                .map(|((s, i), e)| (*s, *i, e))
                .collect();
            prop_assert_eq!(even.nearest_with(&query, Seq(below), count, &odd), expected);
            index.retain(|seq, _| seq.0 % 7 != dropped);
            last.retain(|(seq, _), _| seq.0 % 7 != dropped);
            let expected = nearest(&query, Seq(below), last.iter().map(|((s, i), e)| (*s, *i, e)), count);
            prop_assert_eq!(index.nearest(&query, Seq(below), count), expected);
        }
    }
}

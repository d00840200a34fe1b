//! [`VectorIndex`]: a conversation's passage embeddings laid out so that [`nearest`](super::nearest)'s rule runs at memory speed.

use std::cmp::Ordering;
use std::fmt;

use super::{Embedding, FIRST_LOOK, FIRST_LOOK_MIN, Near, cosine, nearer};
use crate::id::Seq;

/// The embeddings of a conversation's passages, by message and then passage, their values in one array and their sign bits side by side.
///
/// [`nearest`](super::nearest) reads each candidate through an iterator
/// of tuples; a store that keeps tens of thousands of passages pays for
/// walking all of that memory at every search. This index keeps the 16
/// bytes of sign bits that the first look reads in one array, and picks the
/// first look by counting how many passages reach each agreement, so a
/// search reads 16 bytes per passage and sorts only the few it looks at
/// closely. The values of every passage sit in one more array, so the exact
/// cosines of those few read their values straight from where they are,
/// without going through a pointer per passage. The answer is
/// [`nearest`](super::nearest)'s over the same passages, to the bit (a
/// property test checks it).
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
/// let kept: Vec<(Seq, u32, Embedding)> = index.iter().collect();
/// assert_eq!(found, nearest(&query, Seq(10), kept.iter().map(|(s, i, e)| (*s, *i, e)), 5));
/// assert_eq!(found.iter().map(|near| near.seq).collect::<Vec<_>>(), [Seq(1), Seq(2)]);
/// ```
#[derive(Clone, Default)]
pub struct VectorIndex {
    /// Each passage's message and place, ascending.
    places: Vec<(Seq, u32)>,
    /// The sign bits of each passage's first 128 values, as [`Embedding`] keeps them.
    signs: Vec<[u64; 2]>,
    /// Each passage's sum of squared values, as [`Embedding`] keeps it.
    squares: Vec<u64>,
    /// Where each passage's values start in `values`, and how many there are.
    spans: Vec<(usize, usize)>,
    /// The values of every passage, each an `i8` kept as its byte; a passage added out of order or
    /// replaced has its values at the end, and the bytes it left are counted in `loose`.
    values: Vec<u8>,
    /// How many bytes of `values` no passage uses any more.
    loose: usize,
}

/// A passage the first look keeps: one of the index's, by position, or one of the extra ones.
#[derive(Clone, Copy)]
enum Look<'a> {
    Kept(usize),
    Extra(Seq, u32, &'a Embedding),
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

    /// About how many bytes it keeps in memory.
    pub fn bytes(&self) -> usize {
        // A place, its signs, its square and its span, beside the values.
        self.values.capacity() + self.places.capacity() * (16 + 16 + 8 + 16)
    }

    /// Add the embedding of passage `index` of message `seq`, replacing the one it had.
    ///
    /// Passages usually come in order (by message, then place) and are added
    /// at the end; one out of order is put in its place.
    pub fn push(&mut self, seq: Seq, index: u32, embedding: Embedding) {
        let place = (seq, index);
        let span = (self.values.len(), embedding.bytes.len());
        self.values.extend_from_slice(&embedding.bytes);
        if self.places.last().is_none_or(|last| *last < place) {
            self.places.push(place);
            self.signs.push(embedding.signs);
            self.squares.push(embedding.square);
            self.spans.push(span);
            return;
        }
        match self.places.binary_search(&place) {
            Ok(at) => {
                self.loose += self.spans[at].1;
                self.signs[at] = embedding.signs;
                self.squares[at] = embedding.square;
                self.spans[at] = span;
                self.tighten();
            }
            Err(at) => {
                self.places.insert(at, place);
                self.signs.insert(at, embedding.signs);
                self.squares.insert(at, embedding.square);
                self.spans.insert(at, span);
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
                self.squares.swap(at, read);
                self.spans.swap(at, read);
                at += 1;
            } else {
                self.loose += self.spans[read].1;
            }
        }
        self.places.truncate(at);
        self.signs.truncate(at);
        self.squares.truncate(at);
        self.spans.truncate(at);
        self.tighten();
    }

    /// Every passage, by message and then place: the candidates [`nearest`](super::nearest) takes.
    pub fn iter(&self) -> impl Iterator<Item = (Seq, u32, Embedding)> + '_ {
        (0..self.places.len()).map(|at| {
            let (seq, index) = self.places[at];
            let embedding =
                Embedding { bytes: self.row(at).into(), square: self.squares[at], signs: self.signs[at] };
            (seq, index, embedding)
        })
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
        let looked: Vec<Look<'_>> = if end + extra.len() <= room {
            (0..end)
                .map(Look::Kept)
                .chain(extra.iter().map(|(seq, index, embedding)| Look::Extra(*seq, *index, embedding)))
                .collect()
        } else {
            self.first_look(query, end, room, extra)
        };
        // The values of the passages looked at lie anywhere in a large array. Reading one byte at each
        // end of each first lets the processor fetch them side by side, rather than one after the
        // other as each cosine waits for its own.
        let touched = looked.iter().fold(0u8, |touched, look| match look {
            Look::Kept(at) => {
                let row = self.row(*at);
                touched ^ row.first().copied().unwrap_or(0) ^ row.last().copied().unwrap_or(0)
            }
            Look::Extra(..) => touched,
        });
        std::hint::black_box(touched);
        let mut found: Vec<Near> = looked
            .into_iter()
            .map(|look| match look {
                Look::Kept(at) => {
                    let (seq, index) = self.places[at];
                    let similarity = cosine(query.as_bytes(), query.square, self.row(at), self.squares[at]);
                    Near { seq, index, similarity }
                }
                Look::Extra(seq, index, embedding) => {
                    Near { seq, index, similarity: query.similarity(embedding) }
                }
            })
            .filter(|near| near.similarity > 0.0)
            .collect();
        found.sort_by(nearer);
        found.truncate(count);
        found
    }

    /// The values of the passage at position `at`.
    fn row(&self, at: usize) -> &[u8] {
        let (start, len) = self.spans[at];
        &self.values[start..start + len]
    }

    /// The place of what `look` points at.
    fn place(&self, look: Look<'_>) -> (Seq, u32) {
        match look {
            Look::Kept(at) => self.places[at],
            Look::Extra(seq, index, _) => (seq, index),
        }
    }

    /// Once more than half of `values` is loose, lay the values out again in passage order.
    fn tighten(&mut self) {
        if self.loose * 2 <= self.values.len() {
            return;
        }
        let mut values = Vec::with_capacity(self.values.len() - self.loose);
        for span in &mut self.spans {
            let (start, len) = *span;
            *span = (values.len(), len);
            values.extend_from_slice(&self.values[start..start + len]);
        }
        self.values = values;
        self.loose = 0;
    }

    /// The `room` passages, of the positions below `end` and `extra`, whose signs agree most with
    /// `query`'s, ties to the newer message and then the earlier passage.
    ///
    /// Only the passages at or above the cut are touched beyond their signs: the rest of the
    /// index is one pass over its sign words and one over their agreement counts.
    fn first_look<'a>(
        &self,
        query: &Embedding,
        end: usize,
        room: usize,
        extra: &[(Seq, u32, &'a Embedding)],
    ) -> Vec<Look<'a>> {
        let extra_signs: Vec<[u64; 2]> = extra.iter().map(|(_, _, embedding)| embedding.signs).collect();
        let extra_agreements = agreements(query, &extra_signs);
        let agreements = agreements(query, &self.signs[..end]);
        let cut = cut(&agreements, &extra_agreements, room);
        let mut looked = Vec::with_capacity(room);
        let mut ties = Vec::new();
        // Most passages fall below the cut: a block whose best agreement does is passed over whole,
        // found by a maximum the compiler computes several bytes at a time.
        for (block, chunk) in agreements.chunks(BLOCK).enumerate() {
            if usize::from(chunk.iter().copied().fold(0, u8::max)) < cut {
                continue;
            }
            for (offset, agreement) in chunk.iter().enumerate() {
                let at = block * BLOCK + offset;
                match usize::from(*agreement).cmp(&cut) {
                    Ordering::Greater => looked.push(Look::Kept(at)),
                    Ordering::Equal => ties.push(at),
                    Ordering::Less => {}
                }
            }
        }
        let mut extra_ties = Vec::new();
        for ((seq, index, embedding), agreement) in extra.iter().zip(&extra_agreements) {
            let look = Look::Extra(*seq, *index, embedding);
            match usize::from(*agreement).cmp(&cut) {
                Ordering::Greater => looked.push(look),
                Ordering::Equal => extra_ties.push(look),
                Ordering::Less => {}
            }
        }
        // The ties that fill the rest, newer message first, then earlier passage: the index's in
        // that order without a sort (places ascend, so whole messages come from the back, each
        // from its first passage), merged with the few extra ones, sorted.
        let newer_first = |a: &(Seq, u32), b: &(Seq, u32)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        extra_ties.sort_by(|a, b| newer_first(&self.place(*a), &self.place(*b)));
        let mut index_ties = ties.chunk_by(|a, b| self.places[*a].0 == self.places[*b].0).rev().flatten();
        let mut extra_ties = extra_ties.into_iter().peekable();
        let mut next_index = index_ties.next().map(|at| Look::Kept(*at));
        while looked.len() < room {
            let take_extra = match (next_index, extra_ties.peek()) {
                (Some(mine), Some(theirs)) => newer_first(&self.place(mine), &self.place(*theirs)).is_gt(),
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (None, None) => break,
            };
            if take_extra {
                looked.extend(extra_ties.next());
            } else {
                looked.extend(next_index.take());
                next_index = index_ties.next().map(|at| Look::Kept(*at));
            }
        }
        looked
    }
}

impl PartialEq for VectorIndex {
    /// The same passages with the same embeddings, however their values are laid out.
    fn eq(&self, other: &Self) -> bool {
        self.places == other.places
            && self.squares == other.squares
            && (0..self.len()).all(|at| self.row(at) == other.row(at))
    }
}

impl fmt::Debug for VectorIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VectorIndex").field("len", &self.len()).finish_non_exhaustive()
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

/// The passages [`VectorIndex::first_look`] reads past without a close look come in blocks of this many.
const BLOCK: usize = 32;

/// The highest agreement that, with every passage above it, reaches `room` passages (0 when none does).
fn cut(agreements: &[u8], extra: &[u8], room: usize) -> usize {
    // Four counts, each of every fourth passage, so that neighbours that agree alike do not
    // wait on each other's increment of the same count.
    let mut counts = [[0usize; 129]; 4];
    let mut quads = agreements.chunks_exact(4);
    for quad in &mut quads {
        for (count, agreement) in counts.iter_mut().zip(quad) {
            count[usize::from(*agreement)] += 1;
        }
    }
    for agreement in quads.remainder().iter().chain(extra) {
        counts[0][usize::from(*agreement)] += 1;
    }
    let mut reaching = [0usize; 129];
    for (at, reach) in reaching.iter_mut().enumerate() {
        *reach = counts.iter().map(|count| count[at]).sum();
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

    /// Mostly six values, now and then five: a passage of another model's width is never near.
    fn arb_kept() -> impl Strategy<Value = Embedding> {
        prop_oneof![12 => arb_embedding(6), 1 => arb_embedding(5)]
    }

    /// Values left behind by replaced and removed passages are let go, and what is kept stays true.
    #[test]
    fn replaced_and_removed_values_are_let_go() {
        let e = |v: &[f32]| Embedding::from_f32(v).expect("not zero");
        let mut index = VectorIndex::new();
        for seq in 0..4 {
            index.push(Seq(seq), 0, e(&[1.0, seq as f32, 0.5]));
        }
        for round in 0..40 {
            index.push(Seq(1), 0, e(&[round as f32, 1.0, -1.0]));
        }
        assert!(index.values.len() <= 2 * 4 * 3, "{} bytes for 4 passages", index.values.len());
        let last = e(&[39.0, 1.0, -1.0]);
        assert_eq!(index.iter().nth(1), Some((Seq(1), 0, last)));
        index.retain(|seq, _| seq.0 >= 3);
        assert_eq!(index.values.len(), 3);
        let query = e(&[1.0, 3.0, 0.5]);
        let kept: Vec<(Seq, u32, Embedding)> = index.iter().collect();
        assert_eq!(
            index.nearest(&query, Seq(9), 5),
            nearest(&query, Seq(9), kept.iter().map(|(s, i, e)| (*s, *i, e)), 5)
        );
        assert_eq!(kept.len(), 1);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Few values per dimension, so that many passages tie in the first look.
        #[test]
        fn the_index_answers_as_nearest_does(
            query in arb_embedding(6),
            kept in prop::collection::vec((0u64..400, 0u32..3, arb_kept()), 0..700),
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
            // Each place gives back the embedding last pushed there, however the values were laid out.
            prop_assert!(index.iter().map(|(s, i, e)| ((s, i), e)).eq(last.clone()));
            let mut in_order = VectorIndex::new();
            for ((seq, place), embedding) in &last {
                in_order.push(*seq, *place, embedding.clone());
            }
            prop_assert_eq!(&in_order, &index);
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
            prop_assert!(index.iter().map(|(s, i, e)| ((s, i), e)).eq(last.clone()));
            let expected = nearest(&query, Seq(below), last.iter().map(|((s, i), e)| (*s, *i, e)), count);
            prop_assert_eq!(index.nearest(&query, Seq(below), count), expected);
        }
    }
}

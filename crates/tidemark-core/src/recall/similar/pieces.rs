//! Weighing a search's candidates piece by piece: each piece of the query against the nearest piece of a passage.
//!
//! A text's one [`Embedding`] averages all its words: a passage of a tool's
//! output that names the answer among twenty other lines points nowhere in
//! particular, and a question in other words rarely finds it among the
//! nearest. A model that also has a vector per piece of text (a word or part
//! of a word, [`Embedder::pieces`]) lets a search ask, for each piece of the
//! query, how near the nearest piece of each passage comes
//! ([`Embedder::piece_similarity`]): "jump host" meets "bastion", "RAM" meets
//! "memory" wherever they stand in the passage. This is late interaction, the
//! rule of ColBERT, over a static model's vectors.
//!
//! [`combine`] applies it to a pool: the best [`MEANING_POOL`] passages of the
//! keyword ranking and the [`SIMILAR_PASSAGES`](super::SIMILAR_PASSAGES) passages
//! nearest to the query's embedding. A passage scores, for each distinct piece
//! of the query, the squared cosine of its nearest piece (none below zero),
//! weighted by how rare the query's piece is among the pool's passages. A model
//! without pieces keeps the reciprocal-rank fusion of [`fuse`].

use super::{Embedder, fuse};
use crate::recall::{Passage, RecallQuery};

/// How many passages of the keyword ranking a search by meaning weighs again, beside the nearest ones.
pub const MEANING_POOL: usize = 64;

/// The most distinct pieces of a query that are weighed.
pub const MAX_QUERY_PIECES: usize = 64;

/// The query a store runs its keyword ranking with when it also searches by meaning: the same, asking for at least [`MEANING_POOL`] passages.
///
/// BM25's scores do not depend on the limit, so the first `query.limit`
/// passages of the longer answer are the shorter answer's: a store that finds
/// the model cannot place the query cuts the longer answer back and answers as
/// it would have.
pub fn keyword_pool(query: &RecallQuery) -> RecallQuery {
    RecallQuery::new(query.text.clone(), query.below, query.limit.max(MEANING_POOL))
}

/// The pieces `embedder` weighs for `query`: those of its search terms, without the characters that join words into identifiers, distinct, ascending, at most [`MAX_QUERY_PIECES`].
///
/// An identifier's parts are among the terms already (`europe-west4` gives
/// `europe` and `west4`), so nothing is lost by leaving out the joiners, and a
/// query never weighs a punctuation piece.
pub fn query_pieces(query: &RecallQuery, embedder: &dyn Embedder) -> Vec<u32> {
    let words: Vec<String> =
        query.terms().into_iter().filter(|term| term.chars().all(char::is_alphanumeric)).collect();
    if words.is_empty() {
        return Vec::new();
    }
    let mut pieces = embedder.pieces(&words.join(" "));
    pieces.sort_unstable();
    pieces.dedup();
    pieces.truncate(MAX_QUERY_PIECES);
    pieces
}

/// The answer to `query` from the keyword ranking and the nearest passages, weighed piece by piece when `embedder` has pieces, best first, at most `query.limit`.
///
/// `keyword` is the keyword ranking for [`keyword_pool`]`(query)`, best
/// first; `similar` the passages [`nearest`](super::nearest) found, in its
/// order. Each passage of either list is scored as the module explains, and a
/// passage both lists hold is scored once, with the keyword list's text. Ties
/// go to the newer message, then to the earlier passage. The score is a pure
/// function of the query, the passages in the pool and the model, summed in
/// the order of the query's pieces, so every store that hands over the same
/// pool gives the same answer, to the bit.
///
/// When the model has no pieces for the query, the answer is [`fuse`]'s over
/// the first `query.limit` passages of `keyword` and all of `similar`, as
/// before pieces existed.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{Embedder, Embedding, Passage, RecallQuery, combine};
///
/// /// Pieces are words; "bastion" and "jump" are near, as a real model finds them.
/// #[derive(Debug)]
/// struct Words;
/// const WORDS: [&str; 4] = ["jump", "host", "bastion", "lunch"];
/// impl Embedder for Words {
///     fn name(&self) -> &str { "words" }
///     fn embed(&self, _text: &str) -> Option<Embedding> { Embedding::from_f32(&[1.0]) }
///     fn pieces(&self, text: &str) -> Vec<u32> {
///         text.split_whitespace().filter_map(|w| WORDS.iter().position(|k| *k == w)).map(|i| i as u32).collect()
///     }
///     fn piece_similarity(&self, a: u32, b: u32) -> f64 {
///         match (a.min(b), a.max(b)) { (x, y) if x == y => 1.0, (0, 2) => 0.8, _ => 0.0 }
///     }
/// }
///
/// let p = |seq, text: &str| Passage::new(Seq(seq), Role::Tool, 0, text, 0.0);
/// let query = RecallQuery::new("which jump host?", Seq(10), 2);
/// let similar = vec![p(3, "lunch at noon"), p(2, "bastion i-0b7e4c19")];
/// let found = combine(&query, Vec::new(), similar, &Words);
/// assert_eq!(found[0].text, "bastion i-0b7e4c19");
/// ```
pub fn combine(
    query: &RecallQuery,
    mut keyword: Vec<Passage>,
    similar: Vec<Passage>,
    embedder: &dyn Embedder,
) -> Vec<Passage> {
    let wanted = query_pieces(query, embedder);
    if wanted.is_empty() {
        keyword.truncate(query.limit);
        return fuse(keyword, similar, query.limit);
    }
    let mut pool: Vec<Passage> = Vec::with_capacity(keyword.len() + similar.len());
    for passage in keyword.into_iter().chain(similar) {
        if !pool.iter().any(|kept| kept.seq == passage.seq && kept.index == passage.index) {
            pool.push(passage);
        }
    }
    let held: Vec<Vec<u32>> = pool
        .iter()
        .map(|passage| {
            let mut pieces = embedder.pieces(&passage.text);
            pieces.sort_unstable();
            pieces.dedup();
            pieces
        })
        .collect();
    // A piece of the query that many passages of the pool hold tells them apart less.
    let size = pool.len() as f64;
    let weights: Vec<f64> = wanted
        .iter()
        .map(|piece| {
            let holding = held.iter().filter(|pieces| pieces.binary_search(piece).is_ok()).count();
            (1.0 + size / (1.0 + holding as f64)).ln()
        })
        .collect();
    // Every distinct piece of the pool once, and its likeness to each piece of the query computed once.
    let mut distinct: Vec<u32> = held.iter().flatten().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let likeness: Vec<f64> = wanted
        .iter()
        .flat_map(|piece| {
            let mut row = embedder.piece_similarities(*piece, &distinct);
            // A model that answers for more or fewer pieces than asked is read as if it had
            // answered 0 for the missing ones.
            row.resize(distinct.len(), 0.0);
            row
        })
        // A model's bad value counts as no likeness (not finite) or as the most (above 1), never as a NaN in a sum.
        .map(|similarity| if similarity.is_finite() && similarity > 0.0 { similarity.min(1.0) } else { 0.0 })
        .collect();
    for (passage, pieces) in pool.iter_mut().zip(&held) {
        let places: Vec<usize> =
            pieces.iter().filter_map(|piece| distinct.binary_search(piece).ok()).collect();
        let mut score = 0.0;
        for (row, weight) in likeness.chunks_exact(distinct.len().max(1)).zip(&weights) {
            let best = places.iter().fold(0.0f64, |best, place| best.max(row[*place]));
            score += weight * best * best;
        }
        passage.score = score;
    }
    pool.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.seq.cmp(&a.seq)).then(a.index.cmp(&b.index)));
    pool.truncate(query.limit);
    pool
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;
    use crate::id::Seq;
    use crate::message::Role;
    use crate::recall::Embedding;

    /// A model whose pieces are the words `w0` … `w11`, with a likeness table that may hold bad values.
    #[derive(Debug)]
    struct Table(Vec<f64>);

    impl Embedder for Table {
        fn name(&self) -> &str {
            "table"
        }

        fn embed(&self, text: &str) -> Option<Embedding> {
            Embedding::from_f32(&[text.len() as f32 + 1.0, 1.0])
        }

        fn pieces(&self, text: &str) -> Vec<u32> {
            text.split_whitespace().filter_map(|word| word.strip_prefix('w')?.parse().ok()).collect()
        }

        fn piece_similarity(&self, a: u32, b: u32) -> f64 {
            let (a, b) = (a.min(b) as usize, a.max(b) as usize);
            if a == b { 1.0 } else { self.0.get(a * 12 + b).copied().unwrap_or(0.0) }
        }
    }

    fn likeness() -> impl Strategy<Value = f64> {
        prop_oneof![
            6 => -1.0f64..=1.0,
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(7.5),
        ]
    }

    /// The passages of keys `(seq, index)`, each once, its text the words `texts` gives that key: a store's text of a passage is one text.
    fn list(keys: &[(u64, u32)], texts: &[Vec<u8>]) -> Vec<Passage> {
        let mut seen = HashSet::new();
        keys.iter()
            .filter(|key| seen.insert(**key))
            .map(|(seq, index)| {
                let words = &texts[(*seq as usize * 3 + *index as usize) % texts.len()];
                let text: Vec<String> = words.iter().map(|word| format!("w{word}")).collect();
                Passage::new(Seq(*seq), Role::Tool, *index, text.join(" "), 0.5)
            })
            .collect()
    }

    fn arb_keys() -> impl Strategy<Value = Vec<(u64, u32)>> {
        prop::collection::vec((0u64..30, 0u32..3), 0..20)
    }

    fn arb_texts() -> impl Strategy<Value = Vec<Vec<u8>>> {
        prop::collection::vec(prop::collection::vec(0u8..12, 0..8), 90)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Each passage of either list at most once, best first, every score a number not below zero,
        /// and the same answer whatever order the lists hand the pool over in.
        #[test]
        fn weighing_keeps_each_passage_once_best_first_and_finite(
            table in prop::collection::vec(likeness(), 144),
            texts in arb_texts(),
            keyword in arb_keys(),
            similar in arb_keys(),
            words in prop::collection::vec(0u8..14, 0..6),
            limit in 0usize..40,
        ) {
            let model = Table(table);
            let text: Vec<String> = words.iter().map(|word| format!("w{word}")).collect();
            let query = RecallQuery::new(text.join(" "), Seq(100), limit);
            let (keyword, similar) = (list(&keyword, &texts), list(&similar, &texts));
            let found = combine(&query, keyword.clone(), similar.clone(), &model);
            prop_assert!(found.len() <= limit);
            let union: HashSet<(Seq, u32)> = keyword.iter().chain(&similar).map(|p| (p.seq, p.index)).collect();
            let mut seen = HashSet::new();
            for passage in &found {
                prop_assert!(union.contains(&(passage.seq, passage.index)));
                prop_assert!(seen.insert((passage.seq, passage.index)));
                prop_assert!(passage.score.is_finite() && passage.score >= 0.0, "{}", passage.score);
            }
            prop_assert!(found.windows(2).all(|pair| pair[0].score >= pair[1].score));
            if !query_pieces(&query, &model).is_empty() {
                // The pool is a set: the lists' order changes nothing but which copy of a text is kept,
                // and a passage's copies are one text.
                let mut flipped_keyword = keyword.clone();
                flipped_keyword.reverse();
                let mut flipped_similar = similar.clone();
                flipped_similar.reverse();
                let again = combine(&query, flipped_similar, flipped_keyword, &model);
                let bits = |list: &[Passage]| -> Vec<(Seq, u32, u64)> {
                    list.iter().map(|p| (p.seq, p.index, p.score.to_bits())).collect()
                };
                prop_assert_eq!(bits(&found), bits(&again));
            }
        }

        /// A model without pieces leaves a search as fusion had it.
        #[test]
        fn a_model_without_pieces_fuses(
            texts in arb_texts(),
            keyword in arb_keys(),
            similar in arb_keys(),
            limit in 0usize..40,
        ) {
            #[derive(Debug)]
            struct Plain;
            impl Embedder for Plain {
                fn name(&self) -> &str {
                    "plain"
                }
                fn embed(&self, _text: &str) -> Option<Embedding> {
                    Embedding::from_f32(&[1.0])
                }
            }
            let query = RecallQuery::new("w1 w2", Seq(100), limit);
            let (keyword, similar) = (list(&keyword, &texts), list(&similar, &texts));
            let mut cut = keyword.clone();
            cut.truncate(limit);
            prop_assert_eq!(combine(&query, keyword, similar.clone(), &Plain), fuse(cut, similar, limit));
        }
    }

    /// A passage holding the query's piece itself outranks one holding a near piece, which outranks one holding neither.
    #[test]
    fn the_same_piece_beats_a_near_one_which_beats_none() {
        let mut table = vec![0.0; 144];
        table[12 + 2] = 0.6;
        let model = Table(table);
        let p = |seq, text: &str| Passage::new(Seq(seq), Role::User, 0, text, 0.0);
        let query = RecallQuery::new("w1", Seq(10), 3);
        let found = combine(&query, vec![p(1, "w1 w5")], vec![p(2, "w2 w6"), p(3, "w7")], &model);
        let order: Vec<u64> = found.iter().map(|passage| passage.seq.0).collect();
        assert_eq!(order, [1, 2, 3]);
        assert!(found[0].score > found[1].score && found[1].score > 0.0 && found[2].score == 0.0);
    }

    /// A model that answers for fewer or more pieces than asked neither panics nor shifts one piece's likeness onto another.
    #[test]
    fn a_model_answering_the_wrong_count_is_read_safely() {
        #[derive(Debug)]
        struct Short(usize);
        impl Embedder for Short {
            fn name(&self) -> &str {
                "short"
            }
            fn embed(&self, _text: &str) -> Option<Embedding> {
                Embedding::from_f32(&[1.0])
            }
            fn pieces(&self, text: &str) -> Vec<u32> {
                Table(vec![0.0; 144]).pieces(text)
            }
            fn piece_similarity(&self, a: u32, b: u32) -> f64 {
                if a == b { 1.0 } else { 0.0 }
            }
            fn piece_similarities(&self, piece: u32, others: &[u32]) -> Vec<f64> {
                let mut answer: Vec<f64> =
                    others.iter().map(|other| self.piece_similarity(piece, *other)).collect();
                answer.resize(self.0, 1.0);
                answer
            }
        }
        let p = |seq, text: &str| Passage::new(Seq(seq), Role::User, 0, text, 0.0);
        let query = RecallQuery::new("w1", Seq(10), 3);
        let pool = || vec![p(1, "w1 w5"), p(2, "w2 w6"), p(3, "w7")];
        // Too many answers: the extra ones are dropped, so only the passage holding w1 scores.
        let found = combine(&query, pool(), Vec::new(), &Short(50));
        assert_eq!(found[0].seq, Seq(1));
        assert!(found[0].score > 0.0 && found[1..].iter().all(|passage| passage.score == 0.0));
        // None at all: every score is 0, and the answer is still the whole pool, newest first.
        let found = combine(&query, pool(), Vec::new(), &Short(0));
        assert!(found.iter().all(|passage| passage.score == 0.0));
        assert_eq!(found.iter().map(|passage| passage.seq.0).collect::<Vec<_>>(), [3, 2, 1]);
    }

    /// The query's identifiers count by their parts; their joiners are never weighed.
    #[test]
    fn query_pieces_leave_joiners_out() {
        #[derive(Debug)]
        struct Echo;
        impl Embedder for Echo {
            fn name(&self) -> &str {
                "echo"
            }
            fn embed(&self, _text: &str) -> Option<Embedding> {
                None
            }
            fn pieces(&self, text: &str) -> Vec<u32> {
                text.split_whitespace().flat_map(str::chars).map(u32::from).collect()
            }
        }
        let pieces = query_pieces(&RecallQuery::new("europe-west4?", Seq(1), 1), &Echo);
        assert!(pieces.iter().all(|piece| char::from_u32(*piece).is_some_and(char::is_alphanumeric)));
        assert!(pieces.contains(&u32::from('4')));
    }
}

//! BM25 ranking of fact texts against a query, over the words [`keywords`] finds.
//!
//! Used by the in-memory store's search and by the fact coordinator's
//! injection, which ranks a scope's facts against the latest user message. It
//! lives in core because both sides need the same scores and neither may
//! depend on the other. The corpus is the candidate set itself, so rarity is
//! judged among the facts at hand.

use std::collections::HashMap;

use super::{keywords, lowered, words};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;

/// Scores every document against `query`; a document sharing no keyword with it scores 0.
///
/// ```
/// use tidemark_core::fact::rank::bm25;
///
/// let scores = bm25("metric units", &["User prefers metric units.", "User lives in Lyon."]);
/// assert!(scores[0] > 0.0);
/// assert_eq!(scores[1], 0.0);
/// ```
pub fn bm25(query: &str, documents: &[&str]) -> Vec<f64> {
    let mut terms: Vec<String> = keywords(query).collect();
    terms.sort_unstable();
    terms.dedup();
    if terms.is_empty() || documents.is_empty() {
        return vec![0.0; documents.len()];
    }
    let numbered: HashMap<&str, usize> = terms.iter().map(String::as_str).zip(0..).collect();
    // One pass over the documents: each one's length in words, and the query
    // terms it holds with how often, kept flat; words are lowered into one
    // reused buffer, so a load over many facts allocates almost nothing.
    let mut lengths = Vec::with_capacity(documents.len());
    let mut held: Vec<(usize, u32)> = Vec::new();
    let mut ends = Vec::with_capacity(documents.len());
    let mut containing = vec![0usize; terms.len()];
    let mut frequency = vec![0u32; terms.len()];
    let mut touched = Vec::new();
    let mut lowered_word = String::new();
    for document in documents {
        let mut length = 0usize;
        for word in words(document) {
            length += 1;
            let key = lowered(word, &mut lowered_word);
            if let Some(&term) = numbered.get(key) {
                if frequency[term] == 0 {
                    touched.push(term);
                }
                frequency[term] += 1;
            }
        }
        for term in touched.drain(..) {
            containing[term] += 1;
            held.push((term, frequency[term]));
            frequency[term] = 0;
        }
        lengths.push(length);
        ends.push(held.len());
    }
    let count = documents.len() as f64;
    let average = (lengths.iter().sum::<usize>() as f64 / count).max(1.0);
    // The "plus one" form keeps the weight positive even for a word in every document.
    let weights: Vec<f64> =
        containing.iter().map(|&n| ((count - n as f64 + 0.5) / (n as f64 + 0.5) + 1.0).ln()).collect();
    let mut start = 0;
    lengths
        .iter()
        .zip(&ends)
        .map(|(&length, &end)| {
            let norm = K1 * (1.0 - B + B * length as f64 / average);
            let score = held[start..end]
                .iter()
                .map(|&(term, tf)| {
                    let tf = f64::from(tf);
                    weights[term] * tf * (K1 + 1.0) / (tf + norm)
                })
                .sum();
            start = end;
            score
        })
        .collect()
}

/// The indices of `documents` that share a keyword with `query`, best first (ties: earlier first), at most `limit`.
pub fn top(query: &str, documents: &[&str], limit: usize) -> Vec<usize> {
    let scores = bm25(query, documents);
    let mut ranked: Vec<usize> = (0..documents.len()).filter(|&index| scores[index] > 0.0).collect();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    ranked.truncate(limit);
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first form of [`bm25`]: each document's words collected, counted in maps.
    fn reference(query: &str, documents: &[&str]) -> Vec<f64> {
        use std::collections::HashSet;
        let terms: HashSet<String> = keywords(query).collect();
        if terms.is_empty() || documents.is_empty() {
            return vec![0.0; documents.len()];
        }
        let tokenised: Vec<Vec<String>> = documents.iter().map(|text| keywords(text).collect()).collect();
        let count = tokenised.len() as f64;
        let average = (tokenised.iter().map(Vec::len).sum::<usize>() as f64 / count).max(1.0);
        let mut containing: HashMap<&str, usize> = HashMap::new();
        for words in &tokenised {
            let distinct: HashSet<&str> = words.iter().map(String::as_str).collect();
            for word in distinct.into_iter().filter(|word| terms.contains(*word)) {
                *containing.entry(word).or_default() += 1;
            }
        }
        tokenised
            .iter()
            .map(|words| {
                let length = words.len() as f64;
                let mut frequency: HashMap<&str, usize> = HashMap::new();
                for word in words.iter().filter(|word| terms.contains(word.as_str())) {
                    *frequency.entry(word.as_str()).or_default() += 1;
                }
                frequency
                    .into_iter()
                    .map(|(word, tf)| {
                        let n = containing[word] as f64;
                        let idf = ((count - n + 0.5) / (n + 0.5) + 1.0).ln();
                        let tf = tf as f64;
                        idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average))
                    })
                    .sum()
            })
            .collect()
    }

    proptest::proptest! {
        /// Words from a small mixed-case, non-ASCII vocabulary, so that queries and documents share many.
        #[test]
        fn scores_match_the_counting_reference(
            query in "(tea|Tea|OSLO|oslo|ÉTÉ|été|Σας|user|x1|,| ){0,12}",
            documents in proptest::collection::vec("(tea|Tea|OSLO|oslo|ÉTÉ|été|Σας|user|x1|,|-| ){0,30}", 0..12),
        ) {
            let documents: Vec<&str> = documents.iter().map(String::as_str).collect();
            let fast = bm25(&query, &documents);
            let slow = reference(&query, &documents);
            proptest::prop_assert_eq!(fast.len(), slow.len());
            for (fast, slow) in fast.iter().zip(&slow) {
                proptest::prop_assert!(fast.is_finite());
                proptest::prop_assert!((fast - slow).abs() <= 1e-9 * slow.abs().max(1.0), "{fast} against {slow}");
            }
        }
    }

    #[test]
    fn rarer_and_more_frequent_words_rank_higher() {
        let documents =
            ["the user likes tea", "the user likes green tea and tea cakes", "the user lives in Oslo"];
        assert_eq!(top("tea", &documents, 10), vec![1, 0]);
        assert_eq!(top("Oslo user", &documents, 10)[0], 2);
        assert_eq!(top("coffee", &documents, 10), Vec::<usize>::new());
        assert_eq!(top("user", &documents, 2).len(), 2);
    }

    #[test]
    fn empty_inputs_score_nothing() {
        assert_eq!(bm25("", &["a b"]), vec![0.0]);
        assert!(bm25("a", &[]).is_empty());
        assert_eq!(top("a", &["a"], 0), Vec::<usize>::new());
    }
}

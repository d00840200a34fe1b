//! BM25 ranking of fact texts against a query, over the words [`keywords`] finds.
//!
//! Used by the in-memory store's search and by the fact coordinator's
//! injection, which ranks a scope's facts against the latest user message. It
//! lives in core because both sides need the same scores and neither may
//! depend on the other. The corpus is the candidate set itself, so rarity is
//! judged among the facts at hand. [`bm25`] reads the documents for one query;
//! a [`Corpus`] reads them once and gives the same scores to many.

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
    let mut containing = vec![0usize; terms.len()];
    let mut held: Vec<(usize, usize, u32)> = Vec::new();
    let lengths = count(
        documents,
        |word| numbered.get(word).copied(),
        |at, term, tf| {
            containing[term] += 1;
            held.push((at, term, tf));
        },
    );
    let average = average(&lengths);
    let weights: Vec<f64> = containing.iter().map(|&n| weight(documents.len(), n)).collect();
    let mut scores = vec![0.0; documents.len()];
    for (at, term, tf) in held {
        scores[at] += weights[term] * saturated(tf, norm(lengths[at], average));
    }
    scores
}

/// One pass over `documents` that both rankings share: each word is lowered
/// into one reused buffer and numbered by `number` (`None` leaves it out), and
/// `held(document, term, tf)` hears each numbered term a document holds and how
/// often. Returns each document's length in words, counted or not.
fn count(
    documents: &[&str],
    mut number: impl FnMut(&str) -> Option<usize>,
    mut held: impl FnMut(usize, usize, u32),
) -> Vec<usize> {
    let mut lengths = Vec::with_capacity(documents.len());
    let mut frequency: Vec<u32> = Vec::new();
    let mut touched = Vec::new();
    let mut lowered_word = String::new();
    for (at, document) in documents.iter().enumerate() {
        let mut length = 0usize;
        for word in words(document) {
            length += 1;
            let Some(term) = number(lowered(word, &mut lowered_word)) else { continue };
            if term >= frequency.len() {
                frequency.resize(term + 1, 0);
            }
            if frequency[term] == 0 {
                touched.push(term);
            }
            frequency[term] += 1;
        }
        for term in touched.drain(..) {
            held(at, term, frequency[term]);
            frequency[term] = 0;
        }
        lengths.push(length);
    }
    lengths
}

/// The mean document length in words, at least 1.
fn average(lengths: &[usize]) -> f64 {
    (lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64).max(1.0)
}

/// The weight of a term held by `containing` of `count` documents; the "plus one" form keeps it
/// positive even for a word in every document.
fn weight(count: usize, containing: usize) -> f64 {
    let (count, n) = (count as f64, containing as f64);
    ((count - n + 0.5) / (n + 0.5) + 1.0).ln()
}

/// A document's length normalisation: [`K1`] scaled by its length against the mean.
fn norm(length: usize, average: f64) -> f64 {
    K1 * (1.0 - B + B * length as f64 / average)
}

/// The saturated term frequency, for a term a document holds `tf` times.
fn saturated(tf: u32, norm: f64) -> f64 {
    let tf = f64::from(tf);
    tf * (K1 + 1.0) / (tf + norm)
}

/// Documents read once and ranked against many queries, with the scores [`bm25`] gives.
///
/// [`bm25`] reads every document again for each query; a corpus keeps, for
/// each word, the documents holding it, so a query costs only the postings of
/// its own words. The fact coordinator keeps one beside each cached set of
/// facts, and a load ranks them without reading their texts.
///
/// ```
/// use tidemark_core::fact::rank::{bm25, Corpus};
///
/// let documents = ["User prefers metric units.", "User lives in Lyon."];
/// let corpus = Corpus::new(&documents);
/// assert_eq!(corpus.len(), 2);
/// for query in ["metric units", "where does the user live? Lyon"] {
///     let (read_once, read_again) = (corpus.scores(query), bm25(query, &documents));
///     assert!(read_once.iter().zip(&read_again).all(|(a, b)| (a - b).abs() < 1e-9));
/// }
/// ```
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Each word the documents hold, lowered, by its number.
    numbers: HashMap<String, usize>,
    /// For each word's number, the documents holding it and how often, in document order.
    postings: Vec<Vec<(usize, u32)>>,
    /// Each document's length normalisation.
    norms: Vec<f64>,
}

impl Corpus {
    /// Reads `documents` once.
    pub fn new(documents: &[&str]) -> Self {
        let mut numbers: HashMap<String, usize> = HashMap::new();
        let mut postings: Vec<Vec<(usize, u32)>> = Vec::new();
        let lengths = count(
            documents,
            |word| {
                let next = numbers.len();
                Some(match numbers.get(word) {
                    Some(&term) => term,
                    None => *numbers.entry(word.to_owned()).or_insert(next),
                })
            },
            |at, term, tf| {
                if term >= postings.len() {
                    postings.resize_with(term + 1, Vec::new);
                }
                postings[term].push((at, tf));
            },
        );
        let average = average(&lengths);
        Self { numbers, postings, norms: lengths.iter().map(|&length| norm(length, average)).collect() }
    }

    /// How many documents the corpus holds.
    pub fn len(&self) -> usize {
        self.norms.len()
    }

    /// Whether the corpus holds no document.
    pub fn is_empty(&self) -> bool {
        self.norms.is_empty()
    }

    /// Every document's score against `query`, in document order, as [`bm25`] scores them.
    pub fn scores(&self, query: &str) -> Vec<f64> {
        let mut terms: Vec<String> = keywords(query).collect();
        terms.sort_unstable();
        terms.dedup();
        let mut scores = vec![0.0; self.len()];
        for term in terms.iter().filter_map(|term| self.numbers.get(term.as_str())) {
            let postings = &self.postings[*term];
            let weight = weight(self.len(), postings.len());
            for &(at, tf) in postings {
                scores[at] += weight * saturated(tf, self.norms[at]);
            }
        }
        scores
    }
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

    proptest::proptest! {
        /// A corpus read once scores each query as `bm25` does reading the documents again.
        #[test]
        fn a_corpus_scores_as_bm25_does(
            queries in proptest::collection::vec("(tea|Tea|OSLO|oslo|ÉTÉ|été|Σας|user|x1|,| ){0,12}", 1..4),
            documents in proptest::collection::vec("(tea|Tea|OSLO|oslo|ÉTÉ|été|Σας|user|x1|,|-| ){0,30}", 0..12),
        ) {
            let documents: Vec<&str> = documents.iter().map(String::as_str).collect();
            let corpus = Corpus::new(&documents);
            proptest::prop_assert_eq!(corpus.len(), documents.len());
            for query in &queries {
                let (read_once, read_again) = (corpus.scores(query), bm25(query, &documents));
                proptest::prop_assert_eq!(read_once.len(), read_again.len());
                for (once, again) in read_once.iter().zip(&read_again) {
                    proptest::prop_assert!(once.is_finite());
                    proptest::prop_assert!((once - again).abs() <= 1e-9 * again.abs().max(1.0), "{once} against {again}");
                }
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
        assert!(Corpus::new(&[]).scores("a").is_empty());
        assert_eq!(Corpus::new(&["a b", ""]).scores(" ,;"), vec![0.0, 0.0]);
    }
}

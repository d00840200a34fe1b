//! BM25 over passages: the one scoring function of recall, so that every store returns the same answer.

use super::{Candidate, Passage, PassageText, RecallQuery};
use crate::id::Seq;
use crate::message::Role;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;

/// The best passages among `candidates` for `query`: BM25 scores, best first, at most `query.limit`.
///
/// Only candidates of messages below `query.below` that share a term with the
/// query count, so a store may hand over more than that (its whole
/// conversation, or what its index found). The corpus BM25 judges rarity by
/// is those matching candidates, so two stores that find the same candidates
/// give the same scores, to the bit: the sums run over the query's terms in
/// sorted order and lengths are summed as integers. Ties go to the newer
/// message, then to the earlier passage within it.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{Candidate, PassageText, RecallQuery, rank};
///
/// let candidates = vec![
///     Candidate::new(Seq(0), Role::User, PassageText::new(0, "deploy to europe-west4 on Friday")),
///     Candidate::new(Seq(1), Role::Assistant, PassageText::new(0, "deploy done")),
///     Candidate::new(Seq(5), Role::User, PassageText::new(0, "europe-west4 again")),
/// ];
/// let found = rank(&RecallQuery::new("which region, europe-west4?", Seq(5), 10), candidates);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].seq, found[0].text.as_str()), (Seq(0), "deploy to europe-west4 on Friday"));
/// ```
pub fn rank(query: &RecallQuery, candidates: impl IntoIterator<Item = Candidate>) -> Vec<Passage> {
    let candidates: Vec<Candidate> = candidates.into_iter().collect();
    rank_borrowed(
        query,
        candidates.iter().map(|candidate| (candidate.seq, candidate.role, &candidate.passage)),
    )
}

/// [`rank`] over borrowed passages: only the passages returned are copied.
///
/// For a store that keeps its passages cut, so that ranking them costs no
/// copy of the ones that lose. The answer is [`rank`]'s, to the bit.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{PassageText, RecallQuery, rank_borrowed};
///
/// let kept = [PassageText::new(0, "INC-20931 is closed"), PassageText::new(1, "lunch at noon")];
/// let found = rank_borrowed(&RecallQuery::new("INC-20931?", Seq(9), 3), kept.iter().map(|p| (Seq(4), Role::Tool, p)));
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].text, "INC-20931 is closed");
/// ```
pub fn rank_borrowed<'a>(
    query: &RecallQuery,
    candidates: impl IntoIterator<Item = (Seq, Role, &'a PassageText)>,
) -> Vec<Passage> {
    let Some(wanted) = sorted_terms(query) else { return Vec::new() };
    let matched =
        candidates.into_iter().filter(|(seq, _, _)| *seq < query.below).filter_map(|(seq, role, passage)| {
            let frequencies = frequencies(&wanted, passage.terms.iter().map(String::as_str));
            let length = passage.terms.len() as u64;
            Some(Matched {
                seq,
                role,
                index: passage.index,
                text: &passage.text,
                frequencies: frequencies?,
                length,
            })
        });
    score(query, wanted.len(), matched.collect())
}

/// [`rank`] over passage texts, tokenised on the way: for a store that reads its passages back as text.
///
/// `(seq, role, index, text)` stand for `Candidate::new(seq, role,
/// PassageText::new(index, text))`, and the answer is [`rank`]'s for those, to
/// the bit, without building any passage's list of terms.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{RecallQuery, rank_texts};
///
/// let texts = [(Seq(4), Role::Tool, 0, "INC-20931 is closed"), (Seq(4), Role::Tool, 1, "lunch at noon")];
/// let found = rank_texts(&RecallQuery::new("INC-20931?", Seq(9), 3), texts);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].index, found[0].text.as_str()), (0, "INC-20931 is closed"));
/// ```
pub fn rank_texts<'a>(
    query: &RecallQuery,
    candidates: impl IntoIterator<Item = (Seq, Role, u32, &'a str)>,
) -> Vec<Passage> {
    let Some(wanted) = sorted_terms(query) else { return Vec::new() };
    let matched = candidates.into_iter().filter(|(seq, _, _, _)| *seq < query.below).filter_map(
        |(seq, role, index, text)| {
            let mut length = 0u64;
            let mut counts = vec![0u32; wanted.len()];
            super::terms::each_term(text, |term| {
                length += 1;
                if let Some(at) = wanted.position(term) {
                    counts[at] = counts[at].saturating_add(1);
                }
            });
            let frequencies = counts.iter().any(|&count| count > 0).then_some(counts)?;
            Some(Matched { seq, role, index, text, frequencies, length })
        },
    );
    score(query, wanted.len(), matched.collect())
}

/// A passage's search terms counted: each distinct term once, sorted, with how often it occurs.
///
/// What [`rank_counted`] reads instead of a passage's list of terms: a store
/// that keeps its passages cut can keep them counted, and a ranking then
/// looks each query term up in a passage instead of reading every term of
/// it (a long tool output has hundreds).
///
/// ```
/// use tidemark_core::recall::TermCounts;
///
/// let counts = TermCounts::new(["deploy", "now", "deploy"]);
/// assert_eq!((counts.count("deploy"), counts.count("now"), counts.count("later")), (2, 1, 0));
/// assert_eq!((counts.length(), counts.distinct()), (3, 2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TermCounts {
    counts: Box<[(Box<str>, u32)]>,
    length: u64,
    /// One bit per distinct term ([`TermCounts::bit`]): a term whose bit is clear is not here, found without a comparison.
    bloom: [u64; BLOOM_WORDS],
}

/// The words of a [`TermCounts`]' filter: 512 bits, so that a passage of a hundred distinct terms turns most other terms away.
const BLOOM_WORDS: usize = 8;

impl TermCounts {
    /// The counts of `terms`, repeats included.
    pub fn new<'a>(terms: impl IntoIterator<Item = &'a str>) -> Self {
        let mut all: Vec<&str> = terms.into_iter().collect();
        let length = all.len() as u64;
        all.sort_unstable();
        let mut counts: Vec<(Box<str>, u32)> = Vec::new();
        let mut bloom = [0u64; BLOOM_WORDS];
        for term in all {
            match counts.last_mut() {
                Some((last, count)) if **last == *term => *count = count.saturating_add(1),
                _ => {
                    let (word, bit) = Self::bit(term);
                    bloom[word] |= bit;
                    counts.push((Box::from(term), 1));
                }
            }
        }
        Self { counts: counts.into_boxed_slice(), length, bloom }
    }

    /// Where `term`'s bit is in the filter: a word and a mask (FNV-1a over its bytes).
    fn bit(term: &str) -> (usize, u64) {
        let hash = term.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
        let slot = (hash >> 55) as usize; // the top 9 bits: one of 512
        (slot / 64, 1 << (slot % 64))
    }

    /// How often the term whose filter place is `place` ([`TermCounts::bit`]) occurs.
    fn count_at(&self, term: &str, (word, bit): (usize, u64)) -> u32 {
        if self.bloom.get(word).is_none_or(|bits| bits & bit == 0) {
            return 0;
        }
        self.counts.binary_search_by(|(probe, _)| (**probe).cmp(term)).map_or(0, |at| self.counts[at].1)
    }

    /// The counts of a passage's terms.
    pub fn of(passage: &PassageText) -> Self {
        Self::new(passage.terms.iter().map(String::as_str))
    }

    /// How often `term` occurs.
    pub fn count(&self, term: &str) -> u32 {
        self.count_at(term, Self::bit(term))
    }

    /// How many terms there are, repeats included.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// How many distinct terms there are.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// The distinct terms, sorted.
    pub fn terms(&self) -> impl Iterator<Item = &str> {
        self.counts.iter().map(|(term, _)| &**term)
    }
}

/// [`rank`] over passages whose terms are counted: `(seq, role, index, text, counts)` stand for a
/// candidate of that passage, and the answer is [`rank`]'s, to the bit.
///
/// Each query term is looked up in each passage, so the price no longer
/// grows with the length of the passages.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_core::recall::{PassageText, RecallQuery, TermCounts, rank_counted};
///
/// let kept = [PassageText::new(0, "INC-20931 is closed"), PassageText::new(1, "lunch at noon")];
/// let counted: Vec<TermCounts> = kept.iter().map(TermCounts::of).collect();
/// let found = rank_counted(
///     &RecallQuery::new("INC-20931?", Seq(9), 3),
///     kept.iter().zip(&counted).map(|(p, c)| (Seq(4), Role::Tool, p.index, p.text.as_str(), c)),
/// );
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].text, "INC-20931 is closed");
/// ```
pub fn rank_counted<'a>(
    query: &RecallQuery,
    candidates: impl IntoIterator<Item = (Seq, Role, u32, &'a str, &'a TermCounts)>,
) -> Vec<Passage> {
    let Some(wanted) = sorted_terms(query) else { return Vec::new() };
    let places: Vec<(usize, u64)> = wanted.terms.iter().map(|term| TermCounts::bit(term)).collect();
    let matched = candidates.into_iter().filter(|(seq, ..)| *seq < query.below).filter_map(
        |(seq, role, index, text, counts)| {
            // Most passages hold none of the query's terms: no list is made for them.
            let mut frequencies: Option<Vec<u32>> = None;
            for (at, (term, place)) in wanted.terms.iter().zip(&places).enumerate() {
                let count = counts.count_at(term, *place);
                if count > 0 {
                    frequencies.get_or_insert_with(|| vec![0; wanted.len()])[at] = count;
                }
            }
            Some(Matched { seq, role, index, text, frequencies: frequencies?, length: counts.length })
        },
    );
    score(query, wanted.len(), matched.collect())
}

/// A candidate that shares a term with the query, with what BM25 needs of it.
struct Matched<'a> {
    seq: Seq,
    role: Role,
    index: u32,
    text: &'a str,
    /// How often each of the query's sorted terms occurs in it.
    frequencies: Vec<u32>,
    /// How many terms it has, repeats included.
    length: u64,
}

/// The query's distinct terms, sorted, with a filter that turns most other terms away without a comparison.
struct Wanted {
    terms: Vec<String>,
    /// One bit per (length, first byte) and per (length, last byte) of the terms, modulo 64.
    heads: u64,
    tails: u64,
}

impl Wanted {
    fn bits(term: &str) -> (u64, u64) {
        let bytes = term.as_bytes();
        let (first, last) = (bytes.first().copied().unwrap_or(0), bytes.last().copied().unwrap_or(0));
        let bit = |byte: u8| 1u64 << ((bytes.len() * 31 + usize::from(byte)) % 64);
        (bit(first), bit(last))
    }

    /// Where `term` is among the sorted terms, if it is one.
    fn position(&self, term: &str) -> Option<usize> {
        let (head, tail) = Self::bits(term);
        if self.heads & head == 0 || self.tails & tail == 0 {
            return None;
        }
        self.terms.binary_search_by(|probe| probe.as_str().cmp(term)).ok()
    }

    fn len(&self) -> usize {
        self.terms.len()
    }
}

/// The query's distinct terms, sorted; `None` when the query cannot find anything.
fn sorted_terms(query: &RecallQuery) -> Option<Wanted> {
    let mut terms = query.terms();
    if terms.is_empty() || query.limit == 0 {
        return None;
    }
    terms.sort_unstable();
    let (heads, tails) =
        terms.iter().map(|term| Wanted::bits(term)).fold((0, 0), |(h, t), (a, b)| (h | a, t | b));
    Some(Wanted { terms, heads, tails })
}

/// BM25 over the matched candidates, best first, at most `query.limit`; only the answer's texts are copied.
fn score(query: &RecallQuery, terms: usize, matched: Vec<Matched<'_>>) -> Vec<Passage> {
    if matched.is_empty() {
        return Vec::new();
    }
    let count = matched.len() as f64;
    let total: u64 = matched.iter().map(|candidate| candidate.length).sum();
    let average = (total as f64 / count).max(1.0);
    let containing: Vec<f64> = (0..terms)
        .map(|term| matched.iter().filter(|candidate| candidate.frequencies[term] > 0).count() as f64)
        .collect();
    let mut scored: Vec<(f64, Matched<'_>)> = matched
        .into_iter()
        .map(|candidate| {
            let length = candidate.length as f64;
            let mut score = 0.0;
            for (term, &tf) in candidate.frequencies.iter().enumerate() {
                if tf == 0 {
                    continue;
                }
                let n = containing[term];
                // The "plus one" form keeps the weight positive even for a term in every candidate.
                let idf = ((count - n + 0.5) / (n + 0.5) + 1.0).ln();
                let tf = f64::from(tf);
                score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average));
            }
            (score, candidate)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.seq.cmp(&a.1.seq)).then(a.1.index.cmp(&b.1.index)));
    scored
        .into_iter()
        .take(query.limit)
        .map(|(score, candidate)| {
            Passage::new(candidate.seq, candidate.role, candidate.index, candidate.text, score)
        })
        .collect()
}

/// How often each of the sorted `wanted` terms occurs in `terms`; `None` when none does.
fn frequencies<'a>(wanted: &Wanted, terms: impl Iterator<Item = &'a str>) -> Option<Vec<u32>> {
    let mut counts = vec![0u32; wanted.len()];
    for term in terms {
        if let Some(at) = wanted.position(term) {
            counts[at] = counts[at].saturating_add(1);
        }
    }
    counts.iter().any(|&count| count > 0).then_some(counts)
}

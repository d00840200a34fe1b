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
    let mut wanted = query.terms();
    if wanted.is_empty() || query.limit == 0 {
        return Vec::new();
    }
    wanted.sort_unstable();
    let mut matched: Vec<(Seq, Role, &PassageText, Vec<u32>)> = Vec::new();
    for (seq, role, passage) in candidates {
        if seq >= query.below {
            continue;
        }
        let frequencies = frequencies(&wanted, &passage.terms);
        if frequencies.iter().any(|&count| count > 0) {
            matched.push((seq, role, passage, frequencies));
        }
    }
    if matched.is_empty() {
        return Vec::new();
    }
    let count = matched.len() as f64;
    let total: u64 = matched.iter().map(|(_, _, passage, _)| passage.terms.len() as u64).sum();
    let average = (total as f64 / count).max(1.0);
    let containing: Vec<f64> = (0..wanted.len())
        .map(|term| matched.iter().filter(|(_, _, _, frequencies)| frequencies[term] > 0).count() as f64)
        .collect();
    let mut scored: Vec<(f64, Seq, Role, &PassageText)> = matched
        .into_iter()
        .map(|(seq, role, passage, frequencies)| {
            let length = passage.terms.len() as f64;
            let mut score = 0.0;
            for (term, &tf) in frequencies.iter().enumerate() {
                if tf == 0 {
                    continue;
                }
                let n = containing[term];
                // The "plus one" form keeps the weight positive even for a term in every candidate.
                let idf = ((count - n + 0.5) / (n + 0.5) + 1.0).ln();
                let tf = f64::from(tf);
                score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average));
            }
            (score, seq, role, passage)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.3.index.cmp(&b.3.index)));
    scored
        .into_iter()
        .take(query.limit)
        .map(|(score, seq, role, passage)| {
            Passage::new(seq, role, passage.index, passage.text.clone(), score)
        })
        .collect()
}

/// How often each of the sorted `wanted` terms occurs in `terms`.
fn frequencies(wanted: &[String], terms: &[String]) -> Vec<u32> {
    let mut counts = vec![0u32; wanted.len()];
    for term in terms {
        if let Ok(at) = wanted.binary_search(term) {
            counts[at] = counts[at].saturating_add(1);
        }
    }
    counts
}

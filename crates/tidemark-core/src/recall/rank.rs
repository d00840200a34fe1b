//! BM25 over passages: the one scoring function of recall, so that every store returns the same answer.

use super::{Candidate, Passage, RecallQuery};

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
    let mut wanted = query.terms();
    if wanted.is_empty() || query.limit == 0 {
        return Vec::new();
    }
    wanted.sort_unstable();
    let mut matched: Vec<(Candidate, Vec<u32>)> = Vec::new();
    for candidate in candidates {
        if candidate.seq >= query.below {
            continue;
        }
        let frequencies = frequencies(&wanted, &candidate.passage.terms);
        if frequencies.iter().any(|&count| count > 0) {
            matched.push((candidate, frequencies));
        }
    }
    if matched.is_empty() {
        return Vec::new();
    }
    let count = matched.len() as f64;
    let total: u64 = matched.iter().map(|(candidate, _)| candidate.passage.terms.len() as u64).sum();
    let average = (total as f64 / count).max(1.0);
    let containing: Vec<f64> = (0..wanted.len())
        .map(|term| matched.iter().filter(|(_, frequencies)| frequencies[term] > 0).count() as f64)
        .collect();
    let mut scored: Vec<Passage> = matched
        .into_iter()
        .map(|(candidate, frequencies)| {
            let length = candidate.passage.terms.len() as f64;
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
            let Candidate { seq, role, passage } = candidate;
            Passage::new(seq, role, passage.index, passage.text, score)
        })
        .collect();
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.seq.cmp(&a.seq)).then(a.index.cmp(&b.index)));
    scored.truncate(query.limit);
    scored
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

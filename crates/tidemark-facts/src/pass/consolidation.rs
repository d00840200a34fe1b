//! [`ConsolidationPass`]: near-duplicate facts of one scope and tier, found by keyword Jaccard similarity and merged into one.

use std::collections::BTreeSet;
use std::future::Future;

use tidemark_core::fact::keywords;
use tidemark_core::{CompletionModel, CompletionRequest, Fact, FactId, Message, NewFact};

use tidemark_core::model::answer::read_answer;

use super::{FactPass, Ineligible, PassError, SummarizeError};

/// The words a fact is compared by: lowercase runs of letters and digits, three characters or more.
fn tokens(text: &str) -> BTreeSet<String> {
    keywords(text).filter(|word| word.chars().count() >= 3).collect()
}

/// |a ∩ b| / |a ∪ b|, and 0 for two empty sets.
fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// How a group's merged text is written.
pub trait MergeWriter: Send + Sync {
    /// A short name, part of the pass's name.
    fn name(&self) -> &str;

    /// The one text that replaces `group` (all of one scope and tier, two or more facts).
    fn write(&self, group: &[Fact]) -> impl Future<Output = Result<String, PassError>> + Send;
}

/// Keeps the member with the most distinct words (the newest among equals): near-duplicates say the same thing, and it says the most.
#[derive(Debug, Clone, Copy, Default)]
pub struct TemplateMerge;

impl MergeWriter for TemplateMerge {
    fn name(&self) -> &str {
        "template"
    }

    async fn write(&self, group: &[Fact]) -> Result<String, PassError> {
        group
            .iter()
            .max_by_key(|fact| (tokens(&fact.text).len(), fact.id))
            .map(|fact| fact.text.clone())
            .ok_or(PassError::Summarize(SummarizeError::EmptyGroup))
    }
}

/// Asks a model to merge the group into one sentence that keeps every detail.
#[derive(Debug, Clone)]
pub struct ModelMerge<M> {
    model: M,
}

impl<M> ModelMerge<M> {
    /// Merging with `model`.
    pub fn new(model: M) -> Self {
        Self { model }
    }
}

const MERGE_INSTRUCTION: &str = "You merge notes an assistant keeps about a user or a task. \
The notes below say nearly the same thing. Write one short statement that keeps every detail \
any of them gives, and nothing they do not say. Answer with the statement only.";

impl<M: CompletionModel> MergeWriter for ModelMerge<M> {
    fn name(&self) -> &str {
        "model"
    }

    async fn write(&self, group: &[Fact]) -> Result<String, PassError> {
        let notes: String = group.iter().map(|fact| format!("- {}\n", fact.text.trim())).collect();
        let mut request =
            CompletionRequest::new(vec![Message::system(MERGE_INSTRUCTION), Message::user(notes)]);
        request.temperature = Some(0.0);
        request.max_tokens = Some(400);
        let completion = self.model.complete(request).await.map_err(SummarizeError::Model)?;
        let text = read_answer(&completion.text).map_err(SummarizeError::Answer)?;
        // A merged fact obeys the same length rule as any fact; cut at a character boundary.
        Ok(text.chars().take(NewFact::MAX_CHARS).collect())
    }
}

/// Groups near-duplicate facts within one scope and tier and merges each group into one fact.
///
/// Two facts are near-duplicates when the Jaccard similarity of their word
/// sets (lowercase runs of letters and digits, three characters or more) is
/// at least the threshold (0.55 by default). Groups form around the oldest
/// unassigned fact, taking every unassigned fact near enough to it, up to
/// eight members. The runner calls it per scope and tier, so it never merges
/// across either.
#[derive(Debug, Clone)]
pub struct ConsolidationPass<W = TemplateMerge> {
    threshold: f64,
    max_group: usize,
    writer: W,
    name: String,
}

impl ConsolidationPass<TemplateMerge> {
    /// The pass with template merges and the default threshold and group size.
    pub fn template() -> Self {
        Self::with_writer(TemplateMerge)
    }
}

impl<M: CompletionModel> ConsolidationPass<ModelMerge<M>> {
    /// The pass with merges written by `model`.
    pub fn with_model(model: M) -> Self {
        Self::with_writer(ModelMerge::new(model))
    }
}

impl<W: MergeWriter> ConsolidationPass<W> {
    /// The default similarity threshold.
    pub const DEFAULT_THRESHOLD: f64 = 0.55;
    /// The default largest group.
    pub const DEFAULT_MAX_GROUP: usize = 8;

    /// The pass with merges written by `writer`.
    pub fn with_writer(writer: W) -> Self {
        let name = format!("consolidation/{}", writer.name());
        Self { threshold: Self::DEFAULT_THRESHOLD, max_group: Self::DEFAULT_MAX_GROUP, writer, name }
    }

    /// The same pass with another similarity threshold, clamped to 0–1.
    #[must_use]
    pub fn with_threshold(mut self, threshold: f64) -> Self {
        self.threshold = if threshold.is_nan() { Self::DEFAULT_THRESHOLD } else { threshold.clamp(0.0, 1.0) };
        self
    }

    /// The same pass with another largest group (at least 2).
    #[must_use]
    pub fn with_max_group(mut self, max_group: usize) -> Self {
        self.max_group = max_group.max(2);
        self
    }

    /// The similarity threshold.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }
}

impl<W: MergeWriter> FactPass for ConsolidationPass<W> {
    fn name(&self) -> &str {
        &self.name
    }

    fn cluster(&self, facts: &[Fact]) -> Vec<Vec<FactId>> {
        let mut ordered: Vec<(&Fact, BTreeSet<String>)> =
            facts.iter().map(|fact| (fact, tokens(&fact.text))).collect();
        ordered.sort_by_key(|(fact, _)| fact.id);
        let mut assigned = vec![false; ordered.len()];
        let mut groups = Vec::new();
        for seed in 0..ordered.len() {
            if assigned[seed] || ordered[seed].1.is_empty() {
                continue;
            }
            assigned[seed] = true;
            let mut group = vec![ordered[seed].0.id];
            for other in seed + 1..ordered.len() {
                if group.len() >= self.max_group {
                    break;
                }
                if !assigned[other] && jaccard(&ordered[seed].1, &ordered[other].1) >= self.threshold {
                    assigned[other] = true;
                    group.push(ordered[other].0.id);
                }
            }
            if group.len() >= 2 {
                groups.push(group);
            }
        }
        groups
    }

    fn eligible(&self, group: &[Fact]) -> Result<(), Ineligible> {
        if group.len() < 2 || group.len() > self.max_group {
            return Err(Ineligible::Size { members: group.len(), max: self.max_group });
        }
        let first = &group[0];
        if group.iter().any(|fact| fact.scope != first.scope || fact.tier != first.tier) {
            return Err(Ineligible::MixedPartition);
        }
        if group.iter().any(|fact| !fact.is_active()) {
            return Err(Ineligible::Quarantined);
        }
        Ok(())
    }

    async fn summarize(&self, group: &[Fact]) -> Result<NewFact, PassError> {
        let first = group.first().ok_or(PassError::Summarize(SummarizeError::EmptyGroup))?;
        let text = self.writer.write(group).await?;
        Ok(NewFact::new(first.scope.clone(), first.tier, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_lowercase_words_of_three_or_more() {
        let words: Vec<String> = tokens("Use 4-space tabs, NOT Ünïcode! ok").into_iter().collect();
        assert_eq!(words, ["not", "space", "tabs", "use", "ünïcode"]);
    }

    #[test]
    fn jaccard_of_sets() {
        let a = tokens("the user prefers metric units");
        let b = tokens("the user prefers metric units always");
        assert!((jaccard(&a, &b) - 5.0 / 6.0).abs() < 1e-9);
        assert_eq!(jaccard(&BTreeSet::new(), &BTreeSet::new()), 0.0);
    }
}

//! The typed errors of fact passes: why a group is not eligible, why its summary failed, why a run failed verification, and why a run stopped.

use tidemark_core::{BoxError, CompactionError, CompletionError, FactError, FactId, RunId};

/// Why a pass could not summarize a group, or why a run stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PassError {
    /// The summarizer failed for a group (the runner skips the group and reports why).
    #[error("the summarizer failed")]
    Summarize(#[from] SummarizeError),
    /// The store failed or refused while reading facts or persisting the run; nothing of the run was written.
    #[error("the fact store failed")]
    Store(#[from] FactError),
    /// A run failed verification and could not be rolled back: its merged facts are quarantined.
    #[error("run {run} failed verification ({verification}) and could not be rolled back; merged facts {} are quarantined and sources {} could not be restored", ids(.quarantined), ids(.unrestored))]
    RestoreFailed {
        /// The run.
        run: RunId,
        /// Why verification failed.
        verification: VerifyError,
        /// The merged facts set aside for review.
        quarantined: Vec<FactId>,
        /// The sources that are not back in the store.
        unrestored: Vec<FactId>,
        /// The store's answer to the rollback.
        #[source]
        source: FactError,
    },
}

/// Why the summary of one group could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SummarizeError {
    /// The group has no members, so there is nothing to merge.
    #[error("the group is empty")]
    EmptyGroup,
    /// The model asked to write the merge failed.
    #[error("the merge model call failed")]
    Model(#[source] CompletionError),
    /// The model answered, but with an empty text or a refusal.
    #[error("the merge model's answer is not usable")]
    Answer(#[source] CompactionError),
    /// A merge writer outside this crate failed in its own way.
    #[error("the merge writer failed")]
    Writer(#[source] BoxError),
}

impl SummarizeError {
    /// A [`SummarizeError::Writer`] for a writer's own error.
    pub fn writer(error: impl Into<BoxError>) -> Self {
        Self::Writer(error.into())
    }
}

/// Why a formed group is not acted on now.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Ineligible {
    /// The group is smaller than two members or larger than the pass allows.
    #[error("{members} members, outside 2..={max}")]
    Size {
        /// The group's members.
        members: usize,
        /// The largest group the pass takes.
        max: usize,
    },
    /// The members do not all share one scope and tier.
    #[error("members of more than one scope or tier")]
    MixedPartition,
    /// A member is quarantined, so it is not the pass's to merge.
    #[error("a member is quarantined")]
    Quarantined,
    /// A pass outside this crate declined the group by a rule of its own.
    #[error("the pass declined the group")]
    Declined(#[source] BoxError),
}

/// Why one merge of a run failed verification; any of them rolls the whole run back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The store failed while the merge was read back.
    #[error("reading merged fact {merged} back failed")]
    Read {
        /// The merged fact being checked.
        merged: FactId,
        /// The store's error.
        #[source]
        source: FactError,
    },
    /// The merged fact is not in the store.
    #[error("merged fact {merged} is not stored")]
    NotStored {
        /// The merged fact.
        merged: FactId,
    },
    /// The merged fact is stored but quarantined.
    #[error("merged fact {merged} is not active")]
    NotActive {
        /// The merged fact.
        merged: FactId,
    },
    /// The merged fact's text or hash is not the planned one.
    #[error("merged fact {merged} does not hold the planned text")]
    TextMismatch {
        /// The merged fact.
        merged: FactId,
    },
    /// A source the merge replaced is still in the store.
    #[error("source {fact} of merged fact {merged} is still stored")]
    SourceStillStored {
        /// The merged fact.
        merged: FactId,
        /// The source still stored.
        fact: FactId,
    },
    /// The run has no rollback record for the merged fact.
    #[error("no rollback record for merged fact {merged}")]
    NoRecord {
        /// The merged fact.
        merged: FactId,
    },
    /// The rollback record does not hold the sources as they were read before the run.
    #[error("the rollback record of merged fact {merged} does not hold its sources as read")]
    RecordMismatch {
        /// The merged fact.
        merged: FactId,
    },
    /// The store applied a different number of merges than were planned.
    #[error("{planned} merges planned, {applied} applied")]
    CountMismatch {
        /// Merges the run planned.
        planned: usize,
        /// Merges the store reports applied.
        applied: usize,
    },
    /// A pass outside this crate found the merge wrong by a check of its own.
    #[error("merged fact {merged} failed the pass's own check")]
    Pass {
        /// The merged fact.
        merged: FactId,
        /// What the pass found.
        #[source]
        source: BoxError,
    },
}

impl VerifyError {
    /// A [`VerifyError::Pass`] for merged fact `merged`, failed by a pass's own check.
    pub fn pass(merged: FactId, error: impl Into<BoxError>) -> Self {
        Self::Pass { merged, source: error.into() }
    }
}

/// Fact ids as a comma-separated list, for messages.
fn ids(ids: &[FactId]) -> String {
    ids.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

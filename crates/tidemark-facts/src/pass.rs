//! Consolidation passes over long-term facts: cluster, check, summarize, persist, verify, and roll back whatever fails.
//!
//! Long-term facts pile up and repeat. A [`FactPass`] finds groups of
//! facts that say the same thing and replaces each group by one fact, in six
//! stages: [`name`](FactPass::name), [`cluster`](FactPass::cluster),
//! [`eligible`](FactPass::eligible), [`summarize`](FactPass::summarize)
//! (no writes), [`persist`](FactPass::persist) and
//! [`verify`](FactPass::verify). The [`PassRunner`] drives them over a
//! store and guarantees that a run is never half-applied:
//!
//! - Nothing is written until every group is summarized; then all merges of
//!   the run are persisted in one atomic write that records the full sources
//!   (the rollback record) before retiring them.
//! - If any merge fails verification, the whole run is rolled back: every
//!   source restored, then the merged facts removed, atomically. If that
//!   rollback fails, the run stops, its merged facts are quarantined, and
//!   [`PassError::RestoreFailed`] names the sources that could not be restored.
//! - A run that was persisted but never verified (the process died in
//!   between) is rolled back by [`PassRunner::recover`], which every run calls
//!   first.
//! - [`PassRunner::rollback`] undoes an earlier run on request, and a dry run
//!   reports what would change and writes nothing.
//!
//! [`ConsolidationPass`] is the pass that ships: near-duplicates by keyword
//! Jaccard similarity within one scope and tier, merged by a template or by a
//! [`CompletionModel`](tidemark_core::CompletionModel).

mod consolidation;
mod error;
mod runner;

use std::future::Future;

use tidemark_core::{Fact, FactError, FactId, FactStore, Merge, Merged, NewFact, RunId, fact_hash};

pub use error::{Ineligible, PassError, SummarizeError, VerifyError};

pub use consolidation::{ConsolidationPass, MergeWriter, ModelMerge, TemplateMerge};
pub use runner::{PassReport, PassRunner, Planned, Skipped};

/// One consolidation strategy: how to group facts, which groups to act on, and how to merge them.
///
/// The runner calls `cluster` once per scope and tier, so a pass never sees
/// facts of two scopes or tiers together. `persist` and `verify` have
/// defaults that suit any pass.
pub trait FactPass: Send + Sync {
    /// A short name, recorded with every run.
    fn name(&self) -> &str;

    /// Partition `facts` (all of one scope and tier) into candidate groups; groups under two members are ignored.
    fn cluster(&self, facts: &[Fact]) -> Vec<Vec<FactId>>;

    /// Whether to act on a formed group now; `Err` says why not, and the group is reported as skipped.
    ///
    /// # Errors
    ///
    /// The reason the group is skipped; a pass with a rule of its own answers
    /// [`Ineligible::Declined`].
    fn eligible(&self, group: &[Fact]) -> Result<(), Ineligible>;

    /// The one fact that replaces `group`, in the group's scope and tier. It must not write anything.
    fn summarize(&self, group: &[Fact]) -> impl Future<Output = Result<NewFact, PassError>> + Send;

    /// Writes the merged facts and retires their sources, atomically; by default [`FactStore::consolidate`].
    fn persist<S: FactStore>(
        &self,
        store: &S,
        merges: Vec<Merge>,
    ) -> impl Future<Output = Result<(RunId, Vec<Merged>), FactError>> + Send {
        store.consolidate(self.name(), merges)
    }

    /// Reads one merge back and checks it; `Err` says what is wrong, and the whole run is rolled back.
    ///
    /// By default: the merged fact is stored, active, with the planned text and
    /// its hash; every source is gone; the run's records hold the sources as
    /// they were read before the run.
    fn verify<S: FactStore>(
        &self,
        store: &S,
        planned: &Planned,
        merged: &Merged,
    ) -> impl Future<Output = Result<(), VerifyError>> + Send {
        verify_merge(store, planned, merged)
    }
}

/// The default verification; see [`FactPass::verify`].
///
/// # Errors
///
/// The [`VerifyError`] naming what does not match, or
/// [`VerifyError::Read`] when the store fails to answer.
pub async fn verify_merge<S: FactStore>(
    store: &S,
    planned: &Planned,
    merged: &Merged,
) -> Result<(), VerifyError> {
    let id = merged.fact.id;
    let read = |source: FactError| VerifyError::Read { merged: id, source };
    let stored = store.get(id).await.map_err(read)?.ok_or(VerifyError::NotStored { merged: id })?;
    if !stored.is_active() {
        return Err(VerifyError::NotActive { merged: stored.id });
    }
    if stored.text != planned.text || stored.hash != fact_hash(stored.tier, &planned.text) {
        return Err(VerifyError::TextMismatch { merged: stored.id });
    }
    for source in &planned.sources {
        if store.get(source.id).await.map_err(read)?.is_some() {
            return Err(VerifyError::SourceStillStored { merged: stored.id, fact: source.id });
        }
    }
    let records = store.run_records(merged.record.run).await.map_err(read)?;
    let record = records
        .iter()
        .find(|record| record.merged == stored.id)
        .ok_or(VerifyError::NoRecord { merged: stored.id })?;
    if record.sources != planned.sources {
        return Err(VerifyError::RecordMismatch { merged: stored.id });
    }
    Ok(())
}

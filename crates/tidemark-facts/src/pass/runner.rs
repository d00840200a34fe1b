//! [`PassRunner`]: drives a [`FactPass`] over a store so that a run is applied whole or not at all.

use std::collections::{BTreeMap, HashSet};

use tidemark_core::{
    Fact, FactError, FactFilter, FactId, FactStore, Merge, NewFact, RolledBack, RunId, Scope, StatusFilter,
    Tier,
};

use tidemark_core::error::chain_text;

use super::{FactPass, PassError, VerifyError};

/// A merge the runner has summarized: the sources as read before the run, and the text that replaces them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Planned {
    /// The sources, exactly as stored when the run read them.
    pub sources: Vec<Fact>,
    /// The merged fact's text.
    pub text: String,
    /// The merged fact to store.
    pub merged: NewFact,
}

/// A group the runner did not act on, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skipped {
    /// Its members.
    pub facts: Vec<FactId>,
    /// Why, for people: not eligible, the summary is for another partition,
    /// or the summarizer failed, with the whole chain of causes on one line.
    pub reason: String,
}

/// What a run found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PassReport {
    /// The run the store recorded (`None` for a dry run or when there was nothing to merge).
    pub run: Option<RunId>,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// Runs left unverified by an earlier crash, rolled back before this one.
    pub recovered: Vec<RunId>,
    /// Groups of two or more facts the pass formed.
    pub groups: usize,
    /// Groups replaced by one fact (for a dry run: that would be).
    pub consolidated: usize,
    /// Groups left alone, with the reason.
    pub skipped: Vec<Skipped>,
    /// Groups that were applied, failed verification and were rolled back with the rest of the run.
    pub rolled_back: usize,
    /// Why the run was rolled back, if it was: the [`VerifyError`] with its causes, on one line.
    pub rollback_reason: Option<String>,
    /// The merges, as planned.
    pub planned: Vec<Planned>,
}

/// Drives a [`FactPass`] over a [`FactStore`]; see the [module docs](super).
///
/// ```
/// use tidemark_facts::pass::{ConsolidationPass, PassRunner};
/// use tidemark_core::{FactFilter, FactStore, NewFact, Scope, Tier};
/// use tidemark_memory::InMemoryStore;
///
/// # futures::executor::block_on(async {
/// let store = InMemoryStore::new();
/// let scope = Scope::User(tidemark_core::ConversationId::new("dana")?);
/// for text in ["Dana prefers metric units", "Dana prefers metric units always", "Dana lives in Lyon"] {
///     let _ = store.put(NewFact::new(scope.clone(), Tier::UserProfile, text)).await?;
/// }
/// let runner = PassRunner::new(&store);
/// let report = runner.run(&ConsolidationPass::template(), Some(&scope)).await?;
/// assert_eq!(report.consolidated, 1);
/// assert_eq!(store.list(&FactFilter::scope(scope)).await?.len(), 2);
/// runner.rollback(report.run.expect("a run")).await?; // and back again
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct PassRunner<S> {
    store: S,
    dry_run: bool,
}

impl<S: FactStore> PassRunner<S> {
    /// A runner over `store`.
    pub fn new(store: S) -> Self {
        Self { store, dry_run: false }
    }

    /// The same runner, reporting what it would do and writing nothing.
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Rolls back every run that was persisted but never verified, as a crash between the two leaves it.
    ///
    /// # Errors
    ///
    /// [`PassError::Store`] when the store fails; a run that cannot be restored is left as it is.
    pub async fn recover(&self) -> Result<Vec<RunId>, PassError> {
        let mut recovered = Vec::new();
        for run in self.store.unverified_runs().await? {
            self.store.rollback(run).await?;
            recovered.push(run);
        }
        Ok(recovered)
    }

    /// Undoes an earlier run: its sources restored exactly, its merged facts removed.
    ///
    /// # Errors
    ///
    /// [`PassError::Store`] with [`FactError::RunNotFound`] or
    /// [`FactError::RestoreConflict`] (nothing changed in either case).
    pub async fn rollback(&self, run: RunId) -> Result<RolledBack, PassError> {
        Ok(self.store.rollback(run).await?)
    }

    /// Runs `pass` over the active facts of `scope` (every scope when `None`), one scope and tier at a time.
    ///
    /// # Errors
    ///
    /// [`PassError::Store`] when reading or persisting fails (nothing of the
    /// run is written), [`PassError::RestoreFailed`] when a run that failed
    /// verification could not be undone.
    pub async fn run<P: FactPass>(&self, pass: &P, scope: Option<&Scope>) -> Result<PassReport, PassError> {
        let mut report = PassReport { dry_run: self.dry_run, ..PassReport::default() };
        if !self.dry_run {
            report.recovered = self.recover().await?;
        }
        let filter = FactFilter::new(scope.cloned(), None, StatusFilter::Active);
        let mut partitions: BTreeMap<(Scope, Tier), Vec<Fact>> = BTreeMap::new();
        for fact in self.store.list(&filter).await? {
            partitions.entry((fact.scope.clone(), fact.tier)).or_default().push(fact);
        }
        for ((scope, tier), facts) in &partitions {
            for group in groups(pass, facts) {
                report.groups += 1;
                let members: Vec<FactId> = group.iter().map(|fact| fact.id).collect();
                if let Err(reason) = pass.eligible(&group) {
                    let reason = format!("not eligible: {}", chain_text(&reason));
                    report.skipped.push(Skipped { facts: members, reason });
                    continue;
                }
                match pass.summarize(&group).await {
                    Ok(merged) if merged.scope != *scope || merged.tier != *tier => {
                        report.skipped.push(Skipped {
                            facts: members,
                            reason: format!(
                                "the summary is for {} {}, not {scope} {tier}",
                                merged.scope, merged.tier
                            ),
                        })
                    }
                    Ok(merged) => {
                        report.planned.push(Planned { sources: group, text: merged.text.clone(), merged });
                    }
                    Err(error) => report.skipped.push(Skipped { facts: members, reason: chain_text(&error) }),
                }
            }
        }
        report.consolidated = report.planned.len();
        if self.dry_run || report.planned.is_empty() {
            return Ok(report);
        }
        let merges: Vec<Merge> = report
            .planned
            .iter()
            .map(|planned| {
                Merge::new(planned.sources.iter().map(|fact| fact.id).collect(), planned.merged.clone())
            })
            .collect();
        let (run, merged) = pass.persist(&self.store, merges).await?;
        report.run = Some(run);
        let mut failure = None;
        for (planned, applied) in report.planned.iter().zip(&merged) {
            if let Err(error) = pass.verify(&self.store, planned, applied).await {
                failure = Some(error);
                break;
            }
        }
        if merged.len() != report.planned.len() && failure.is_none() {
            failure =
                Some(VerifyError::CountMismatch { planned: report.planned.len(), applied: merged.len() });
        }
        let Some(verification) = failure else {
            self.store.finish_run(run).await?;
            return Ok(report);
        };
        let reason = chain_text(&verification);
        tracing::warn!(%run, %reason, "a consolidation run failed verification; rolling it back");
        match self.store.rollback(run).await {
            Ok(_) => {
                report.rolled_back = report.consolidated;
                report.consolidated = 0;
                report.rollback_reason = Some(reason);
                Ok(report)
            }
            Err(source) => {
                let mut quarantined = Vec::new();
                for applied in &merged {
                    let note =
                        format!("consolidation run {run} failed verification and could not be rolled back");
                    if self.store.quarantine(applied.fact.id, note).await.is_ok() {
                        quarantined.push(applied.fact.id);
                    }
                }
                let unrestored = match &source {
                    FactError::RestoreConflict { facts, .. } => facts.clone(),
                    _ => merged
                        .iter()
                        .flat_map(|applied| applied.record.sources.iter().map(|fact| fact.id))
                        .collect(),
                };
                Err(PassError::RestoreFailed { run, verification, quarantined, unrestored, source })
            }
        }
    }
}

/// The pass's groups within one partition: members resolved to facts, unknown and repeated ids dropped, fewer than two ignored.
fn groups<P: FactPass>(pass: &P, facts: &[Fact]) -> Vec<Vec<Fact>> {
    let mut taken: HashSet<FactId> = HashSet::new();
    pass.cluster(facts)
        .into_iter()
        .map(|ids| {
            ids.into_iter()
                .filter_map(|id| facts.iter().find(|fact| fact.id == id))
                .filter(|fact| taken.insert(fact.id))
                .cloned()
                .collect::<Vec<Fact>>()
        })
        .filter(|group| group.len() >= 2)
        .collect()
}

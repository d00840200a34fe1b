//! The in-memory store's facts: one table behind a mutex, with the contract of [`FactStore`] checked in one critical section per call.

use std::collections::BTreeMap;

use tidemark_core::fact::{check_text, now_ms};
use tidemark_core::{
    BudgetUsage, Fact, FactBudgets, FactError, FactFilter, FactId, FactStatus, Merge, Merged, NewFact, Put,
    RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope, Tier, fact_hash,
};

use tidemark_core::fact::rank;

/// Every fact of an [`InMemoryStore`](super::InMemoryStore).
#[derive(Debug, Default)]
pub(super) struct FactTable {
    facts: BTreeMap<FactId, Fact>,
    next_id: u64,
    generation: u64,
    pub(super) budgets: FactBudgets,
    runs: Vec<RunInfo>,
    records: Vec<RollbackRecord>,
}

impl FactTable {
    fn usage(&self, scope: &Scope, tier: Tier) -> usize {
        self.facts.values().filter(|fact| fact.scope == *scope && fact.tier == tier).map(Fact::chars).sum()
    }

    fn check_budget(&self, scope: &Scope, tier: Tier, freed: usize, needed: usize) -> Result<(), FactError> {
        let used = self.usage(scope, tier);
        let limit = self.budgets.limit(tier);
        if used - freed + needed > limit {
            return Err(FactError::OverBudget { scope: scope.clone(), tier, used, needed, limit });
        }
        Ok(())
    }

    fn same(&self, scope: &Scope, tier: Tier, hash: &tidemark_core::ContentHash) -> Option<&Fact> {
        self.facts.values().find(|fact| fact.scope == *scope && fact.tier == tier && fact.hash == *hash)
    }

    pub(super) fn put(&mut self, new: NewFact) -> Result<Put, FactError> {
        new.check()?;
        let hash = fact_hash(new.tier, &new.text);
        if let Some(existing) = self.same(&new.scope, new.tier, &hash) {
            return Ok(Put::Existing(existing.clone()));
        }
        self.check_budget(&new.scope, new.tier, 0, new.text.chars().count())?;
        self.next_id += 1;
        self.generation += 1;
        let now = now_ms();
        let fact = Fact {
            id: FactId(self.next_id),
            scope: new.scope,
            tier: new.tier,
            text: new.text,
            source: new.source,
            hash,
            created_ms: now,
            updated_ms: now,
            status: FactStatus::Active,
        };
        self.facts.insert(fact.id, fact.clone());
        Ok(Put::Inserted(fact))
    }

    pub(super) fn get(&self, id: FactId) -> Option<Fact> {
        self.facts.get(&id).cloned()
    }

    pub(super) fn list(&self, filter: &FactFilter) -> Vec<Fact> {
        self.facts.values().filter(|fact| filter.matches(fact)).cloned().collect()
    }

    pub(super) fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Vec<Fact> {
        let candidates: Vec<&Fact> = self
            .facts
            .values()
            .filter(|fact| fact.is_active() && scope.is_none_or(|scope| fact.scope == *scope))
            .collect();
        let texts: Vec<&str> = candidates.iter().map(|fact| fact.text.as_str()).collect();
        rank::top(query, &texts, limit).into_iter().map(|index| candidates[index].clone()).collect()
    }

    pub(super) fn update(&mut self, id: FactId, text: String) -> Result<Fact, FactError> {
        check_text(&text)?;
        let current = self.facts.get(&id).ok_or(FactError::NotFound(id))?;
        let hash = fact_hash(current.tier, &text);
        if let Some(other) = self.same(&current.scope, current.tier, &hash)
            && other.id != id
        {
            return Err(FactError::Duplicate(other.id));
        }
        self.check_budget(&current.scope, current.tier, current.chars(), text.chars().count())?;
        self.generation += 1;
        let fact = self.facts.get_mut(&id).ok_or(FactError::NotFound(id))?;
        fact.text = text;
        fact.hash = hash;
        fact.updated_ms = now_ms();
        Ok(fact.clone())
    }

    pub(super) fn delete(&mut self, id: FactId) -> bool {
        let removed = self.facts.remove(&id).is_some();
        if removed {
            self.generation += 1;
        }
        removed
    }

    pub(super) fn quarantine(&mut self, id: FactId, reason: String) -> Result<Fact, FactError> {
        let fact = self.facts.get_mut(&id).ok_or(FactError::NotFound(id))?;
        fact.status = FactStatus::Quarantined(reason);
        fact.updated_ms = now_ms();
        self.generation += 1;
        Ok(fact.clone())
    }

    pub(super) fn budget_usage(&self, scope: &Scope, tier: Tier) -> BudgetUsage {
        BudgetUsage { used: self.usage(scope, tier), limit: self.budgets.limit(tier) }
    }

    pub(super) fn generation(&self) -> u64 {
        self.generation
    }

    /// Applies every merge or none: each is checked and applied to a copy of the facts, which replaces the table only at the end.
    pub(super) fn consolidate(
        &mut self,
        pass: &str,
        merges: Vec<Merge>,
    ) -> Result<(RunId, Vec<Merged>), FactError> {
        let run = RunId(self.runs.len() as u64 + 1);
        let mut facts = self.facts.clone();
        let mut next_id = self.next_id;
        let mut applied = Vec::with_capacity(merges.len());
        for merge in merges {
            merge.merged.check()?;
            let (scope, tier) = (&merge.merged.scope, merge.merged.tier);
            let mut sources = Vec::with_capacity(merge.sources.len());
            for id in &merge.sources {
                let fact = facts.get(id).ok_or_else(|| bad(format!("source {id} is not stored")))?;
                if !fact.is_active() || fact.scope != *scope || fact.tier != tier {
                    return Err(bad(format!("source {id} is not an active fact of {scope} {tier}")));
                }
                if sources.iter().any(|source: &Fact| source.id == *id) {
                    return Err(bad(format!("source {id} is listed twice")));
                }
                sources.push(fact.clone());
            }
            if sources.len() < 2 {
                return Err(bad("a merge needs at least two sources".to_owned()));
            }
            for source in &sources {
                facts.remove(&source.id);
            }
            let hash = fact_hash(tier, &merge.merged.text);
            if let Some(other) =
                facts.values().find(|fact| fact.scope == *scope && fact.tier == tier && fact.hash == hash)
            {
                return Err(FactError::Duplicate(other.id));
            }
            let used: usize = facts
                .values()
                .filter(|fact| fact.scope == *scope && fact.tier == tier)
                .map(Fact::chars)
                .sum();
            let needed = merge.merged.text.chars().count();
            let limit = self.budgets.limit(tier);
            if used + needed > limit {
                return Err(FactError::OverBudget { scope: scope.clone(), tier, used, needed, limit });
            }
            next_id += 1;
            let now = now_ms();
            let fact = Fact {
                id: FactId(next_id),
                scope: merge.merged.scope,
                tier,
                text: merge.merged.text,
                source: merge.merged.source,
                hash,
                created_ms: now,
                updated_ms: now,
                status: FactStatus::Active,
            };
            facts.insert(fact.id, fact.clone());
            let record = RollbackRecord { run, merged: fact.id, sources };
            applied.push(Merged { fact, record });
        }
        self.facts = facts;
        self.next_id = next_id;
        self.generation += 1;
        self.records.extend(applied.iter().map(|merged| merged.record.clone()));
        self.runs.push(RunInfo {
            id: run,
            pass: pass.to_owned(),
            status: RunStatus::Applied,
            merges: applied.len(),
            created_ms: now_ms(),
        });
        Ok((run, applied))
    }

    fn run_mut(&mut self, run: RunId) -> Result<&mut RunInfo, FactError> {
        self.runs.iter_mut().find(|info| info.id == run).ok_or(FactError::RunNotFound(run))
    }

    pub(super) fn finish_run(&mut self, run: RunId) -> Result<(), FactError> {
        let info = self.run_mut(run)?;
        if info.status == RunStatus::Applied {
            info.status = RunStatus::Verified;
            self.generation += 1;
        }
        Ok(())
    }

    pub(super) fn rollback(&mut self, run: RunId) -> Result<RolledBack, FactError> {
        if self.run_mut(run)?.status == RunStatus::RolledBack {
            return Ok(RolledBack::default());
        }
        let records: Vec<&RollbackRecord> = self.records.iter().filter(|record| record.run == run).collect();
        let taken: Vec<FactId> = records
            .iter()
            .flat_map(|record| &record.sources)
            .filter(|source| self.facts.contains_key(&source.id))
            .map(|source| source.id)
            .collect();
        if !taken.is_empty() {
            return Err(FactError::RestoreConflict { run, facts: taken });
        }
        let mut outcome = RolledBack::default();
        let mut facts = self.facts.clone();
        let mut clashes = Vec::new();
        for record in records.iter().rev() {
            // The merged fact goes first: its text may equal one of its sources'.
            if facts.remove(&record.merged).is_some() {
                outcome.removed += 1;
            }
            for source in &record.sources {
                // A source whose text was stored again since the run cannot come back beside it.
                if facts.values().any(|fact| {
                    fact.scope == source.scope && fact.tier == source.tier && fact.hash == source.hash
                }) {
                    clashes.push(source.id);
                }
                facts.insert(source.id, source.clone());
                outcome.restored += 1;
            }
        }
        if !clashes.is_empty() {
            return Err(FactError::RestoreConflict { run, facts: clashes });
        }
        self.facts = facts;
        self.generation += 1;
        self.run_mut(run)?.status = RunStatus::RolledBack;
        Ok(outcome)
    }

    pub(super) fn runs(&self) -> Vec<RunInfo> {
        self.runs.clone()
    }

    pub(super) fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        if !self.runs.iter().any(|info| info.id == run) {
            return Err(FactError::RunNotFound(run));
        }
        Ok(self.records.iter().filter(|record| record.run == run).cloned().collect())
    }
}

fn bad(reason: String) -> FactError {
    FactError::BadMerge { reason }
}

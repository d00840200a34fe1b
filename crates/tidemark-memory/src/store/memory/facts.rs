//! The in-memory store's facts: one table behind a mutex, with the contract of [`FactStore`](tidemark_core::FactStore) checked in one critical section per call.
//!
//! The decisions (idempotence, budgets, duplicates, merges, rollbacks) are
//! [`rules`]; this module only reads and writes the table.

use std::collections::{BTreeMap, HashSet};

use tidemark_core::fact::rules::{self, PutDecision, RestoreStep, Restoring};
use tidemark_core::fact::{check_text, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, Fact, FactBudgets, FactError, FactFilter, FactId, Merge, Merged, NewFact, Put,
    RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope, Tier,
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

/// Characters stored in `scope` and `tier` among `facts`, quarantined facts included.
fn used(facts: &BTreeMap<FactId, Fact>, scope: &Scope, tier: Tier) -> usize {
    facts.values().filter(|fact| fact.scope == *scope && fact.tier == tier).map(Fact::chars).sum()
}

/// The fact of `scope` and `tier` among `facts` whose text has `hash`, if any.
fn same<'a>(
    facts: &'a BTreeMap<FactId, Fact>,
    scope: &Scope,
    tier: Tier,
    hash: &ContentHash,
) -> Option<&'a Fact> {
    facts.values().find(|fact| fact.scope == *scope && fact.tier == tier && fact.hash == *hash)
}

impl FactTable {
    pub(super) fn put(&mut self, new: NewFact) -> Result<Put, FactError> {
        let checked = rules::check_new(&new)?;
        let existing = same(&self.facts, &new.scope, new.tier, &checked.hash).cloned();
        let used = used(&self.facts, &new.scope, new.tier);
        match rules::decide_put(&new, checked, existing, used, self.budgets)? {
            PutDecision::Existing(fact) => return Ok(Put::Existing(fact)),
            PutDecision::Reactivate(superseded) => {
                let fact = rules::reactivated(superseded, now_ms());
                self.facts.insert(fact.id, fact.clone());
                self.generation += 1;
                return Ok(Put::Existing(fact));
            }
            _ => {}
        }
        self.next_id += 1;
        self.generation += 1;
        let fact = rules::stored(FactId(self.next_id), new, checked.hash, now_ms());
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
        let checked = rules::check_text_of(current.tier, &text)?;
        let other = same(&self.facts, &current.scope, current.tier, &checked.hash);
        let used = used(&self.facts, &current.scope, current.tier);
        rules::check_update(current, checked, other, used, self.budgets)?;
        let fact = rules::updated(current.clone(), text, checked.hash, now_ms());
        self.generation += 1;
        self.facts.insert(id, fact.clone());
        Ok(fact)
    }

    pub(super) fn delete(&mut self, id: FactId) -> bool {
        let removed = self.facts.remove(&id).is_some();
        if removed {
            self.generation += 1;
        }
        removed
    }

    pub(super) fn quarantine(&mut self, id: FactId, reason: String) -> Result<Fact, FactError> {
        let current = self.facts.get(&id).ok_or(FactError::NotFound(id))?;
        let fact = rules::quarantined(current.clone(), reason, now_ms());
        self.facts.insert(id, fact.clone());
        self.generation += 1;
        Ok(fact)
    }

    pub(super) fn supersede(&mut self, id: FactId, reason: String) -> Result<Fact, FactError> {
        let current = self.facts.get(&id).ok_or(FactError::NotFound(id))?;
        let fact = rules::superseded(current.clone(), reason, now_ms());
        self.facts.insert(id, fact.clone());
        self.generation += 1;
        Ok(fact)
    }

    pub(super) fn budget_usage(&self, scope: &Scope, tier: Tier) -> BudgetUsage {
        BudgetUsage::new(used(&self.facts, scope, tier), self.budgets.limit(tier))
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
            let found = merge.sources.iter().map(|id| facts.get(id).cloned()).collect();
            let sources = rules::merge_sources(&merge, found)?;
            for source in &sources {
                facts.remove(&source.id);
            }
            let new = merge.merged;
            let checked = rules::check_new(&new)?;
            let other = same(&facts, &new.scope, new.tier, &checked.hash);
            rules::check_merged(&new, checked, other, used(&facts, &new.scope, new.tier), self.budgets)?;
            next_id += 1;
            let fact = rules::stored(FactId(next_id), new, checked.hash, now_ms());
            facts.insert(fact.id, fact.clone());
            let record = RollbackRecord::new(run, fact.id, sources);
            applied.push(Merged::new(fact, record));
        }
        self.facts = facts;
        self.next_id = next_id;
        self.generation += 1;
        self.records.extend(applied.iter().map(|merged| merged.record.clone()));
        self.runs.push(RunInfo::new(run, pass, RunStatus::Applied, applied.len(), now_ms()));
        Ok((run, applied))
    }

    fn status(&self, run: RunId) -> Option<RunStatus> {
        self.runs.iter().find(|info| info.id == run).map(|info| info.status)
    }

    fn set_status(&mut self, run: RunId, status: RunStatus) {
        if let Some(info) = self.runs.iter_mut().find(|info| info.id == run) {
            info.status = status;
        }
    }

    pub(super) fn finish_run(&mut self, run: RunId) -> Result<(), FactError> {
        if let Some(status) = rules::finish(run, self.status(run))? {
            self.set_status(run, status);
            self.generation += 1;
        }
        Ok(())
    }

    /// Undoes a run on a copy of the facts, which replaces the table only when every source came back.
    pub(super) fn rollback(&mut self, run: RunId) -> Result<RolledBack, FactError> {
        if !rules::must_roll_back(run, self.status(run))? {
            return Ok(RolledBack::default());
        }
        let records: Vec<RollbackRecord> =
            self.records.iter().filter(|record| record.run == run).cloned().collect();
        let existing: HashSet<FactId> = records
            .iter()
            .flat_map(|record| &record.sources)
            .map(|source| source.id)
            .filter(|id| self.facts.contains_key(id))
            .collect();
        rules::check_ids_free(run, &records, &existing)?;
        let mut facts = self.facts.clone();
        let mut tally = Restoring::new(run);
        for step in rules::restore_steps(&records) {
            match step {
                RestoreStep::RemoveMerged(id) => tally.removed(facts.remove(&id).is_some()),
                RestoreStep::Restore(source) => {
                    let other = same(&facts, &source.scope, source.tier, &source.hash);
                    if !tally.clash(source, other) {
                        facts.insert(source.id, source.clone());
                    }
                }
            }
        }
        let outcome = tally.finish()?;
        self.facts = facts;
        self.generation += 1;
        self.set_status(run, RunStatus::RolledBack);
        Ok(outcome)
    }

    pub(super) fn runs(&self) -> Vec<RunInfo> {
        self.runs.clone()
    }

    pub(super) fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        rules::run_exists(run, self.status(run).is_some())?;
        Ok(self.records.iter().filter(|record| record.run == run).cloned().collect())
    }
}

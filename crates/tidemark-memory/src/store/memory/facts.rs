//! The in-memory store's facts: one table behind a mutex, with the contract of [`FactStore`] checked in one critical section per call.

use std::collections::BTreeMap;

use tidemark_core::fact::{check_text, now_ms};
use tidemark_core::{
    BudgetUsage, Fact, FactBudgets, FactError, FactFilter, FactId, FactStatus, NewFact, Put, Scope, Tier,
    fact_hash,
};

use crate::facts::rank;

/// Every fact of an [`InMemoryStore`](super::InMemoryStore).
#[derive(Debug, Default)]
pub(super) struct FactTable {
    facts: BTreeMap<FactId, Fact>,
    next_id: u64,
    generation: u64,
    pub(super) budgets: FactBudgets,
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
}

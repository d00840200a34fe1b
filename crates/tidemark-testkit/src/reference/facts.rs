//! [`ReferenceFactStore`]: a [`FactStore`] kept in one locked `Vec`, the oracle of the fact conformance suite.
//!
//! Every decision of the contract (idempotence, budgets, duplicates, which
//! sources a merge may take, the order and the refusals of a rollback) is
//! taken by [`rules`], the same functions the real stores call: the rules are
//! the specification, and the reference only adds the plainest storage
//! possible. Each call works on a copy of the table where it could fail half
//! way, so "nothing changes on error" holds by construction.
//!
//! Search is the one place where the reference does not do what the stores
//! do. The stores rank with BM25, each over its own corpus (SQLite's index
//! counts every fact in the file, the others only the candidates), so their
//! exact scores differ. The reference ranks by a key that every BM25 variant
//! agrees with (see [`outranks`]): more distinct query keywords matched, then
//! more occurrences, then a shorter text, then the older fact.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tidemark_core::fact::rules::{self, PutDecision, RestoreStep, Restoring};
use tidemark_core::fact::{check_text, keywords, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, Fact, FactBudgets, FactError, FactFilter, FactId, FactStore, Merge, Merged,
    NewFact, Put, RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope, Tier,
};

/// Everything a [`ReferenceFactStore`] holds.
#[derive(Debug, Default)]
struct Table {
    /// The facts, in id order.
    facts: Vec<Fact>,
    /// The last id handed out; ids are never reused.
    last_id: u64,
    generation: u64,
    budgets: FactBudgets,
    runs: Vec<RunInfo>,
    records: Vec<RollbackRecord>,
}

/// A [`FactStore`] that keeps its facts in a `Vec` behind one mutex and takes every decision through [`rules`].
///
/// Clones share the facts.
#[derive(Debug, Default, Clone)]
pub struct ReferenceFactStore {
    table: Arc<Mutex<Table>>,
}

impl ReferenceFactStore {
    /// An empty store with the default budgets.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with these budgets.
    pub fn with_budgets(budgets: FactBudgets) -> Self {
        let store = Self::new();
        store.lock().budgets = budgets;
        store
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        // Every critical section below checks before it writes, so a panic
        // inside one (a bug in this module) cannot leave the table half changed.
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every active fact (of `scope`, when given) that shares at least one keyword with `query`, in id order.
    ///
    /// This is the set [`FactStore::search`] draws from on every backend.
    pub fn matches(&self, scope: Option<&Scope>, query: &str) -> Vec<Fact> {
        let wanted: HashSet<String> = keywords(query).collect();
        self.lock()
            .facts
            .iter()
            .filter(|fact| fact.is_active() && scope.is_none_or(|scope| fact.scope == *scope))
            .filter(|fact| keywords(&fact.text).any(|word| wanted.contains(&word)))
            .cloned()
            .collect()
    }
}

/// How `text` meets `query`: its keyword count and how often it holds each distinct query keyword.
fn features(text: &str, query: &str) -> (usize, HashMap<String, usize>) {
    let mut counts: HashMap<String, usize> = keywords(query).map(|word| (word, 0)).collect();
    let mut length = 0;
    for word in keywords(text) {
        length += 1;
        if let Some(count) = counts.get_mut(&word) {
            *count += 1;
        }
    }
    (length, counts)
}

/// Whether a fact with text `a` ranks strictly above one with text `b` for `query` in every BM25 ranking, whatever its corpus.
///
/// BM25 adds, over the query's distinct keywords, a positive weight (which
/// depends on the corpus) times a term that grows with the keyword's count in
/// the text and shrinks with the text's length in keywords (relative to an
/// average that also depends on the corpus). So when `a` holds every query
/// keyword at least as often as `b`, is no longer than `b`, and is better on
/// at least one of these, `a` scores more than `b` for any weights and any
/// average, provided `b` matches at all. When neither text outranks the other
/// their order depends on the corpus, and the suite does not check it.
pub fn outranks(a: &str, b: &str, query: &str) -> bool {
    let (length_a, counts_a) = features(a, query);
    let (length_b, counts_b) = features(b, query);
    if counts_b.values().all(|count| *count == 0) {
        return false;
    }
    let at_least = length_a <= length_b && counts_b.iter().all(|(word, count)| counts_a[word] >= *count);
    let better = length_a < length_b || counts_b.iter().any(|(word, count)| counts_a[word] > *count);
    at_least && better
}

/// The reference's ranking key, smallest first: one order that agrees with [`outranks`].
fn rank_key(fact: &Fact, query: &str) -> (Reverse<usize>, Reverse<usize>, usize, FactId) {
    let (length, counts) = features(&fact.text, query);
    let distinct = counts.values().filter(|count| **count > 0).count();
    (Reverse(distinct), Reverse(counts.values().sum()), length, fact.id)
}

impl Table {
    fn used(facts: &[Fact], scope: &Scope, tier: Tier) -> usize {
        facts.iter().filter(|fact| fact.scope == *scope && fact.tier == tier).map(Fact::chars).sum()
    }

    fn same<'a>(facts: &'a [Fact], scope: &Scope, tier: Tier, hash: &ContentHash) -> Option<&'a Fact> {
        facts.iter().find(|fact| fact.scope == *scope && fact.tier == tier && fact.hash == *hash)
    }

    fn find(&self, id: FactId) -> Option<&Fact> {
        self.facts.iter().find(|fact| fact.id == id)
    }

    /// Replace the fact with `fact`'s id, or add it, keeping id order.
    fn store(facts: &mut Vec<Fact>, fact: Fact) {
        facts.retain(|other| other.id != fact.id);
        facts.push(fact);
        facts.sort_by_key(|fact| fact.id);
    }

    fn next_id(&mut self) -> FactId {
        self.last_id += 1;
        FactId(self.last_id)
    }

    fn status(&self, run: RunId) -> Option<RunStatus> {
        self.runs.iter().find(|info| info.id == run).map(|info| info.status)
    }

    fn set_status(&mut self, run: RunId, status: RunStatus) {
        for info in self.runs.iter_mut().filter(|info| info.id == run) {
            info.status = status;
        }
    }
}

impl FactStore for ReferenceFactStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        let mut table = self.lock();
        let checked = rules::check_new(&fact)?;
        let same = Table::same(&table.facts, &fact.scope, fact.tier, &checked.hash).cloned();
        let used = Table::used(&table.facts, &fact.scope, fact.tier);
        match rules::decide_put(&fact, checked, same, used, table.budgets)? {
            PutDecision::Existing(existing) => return Ok(Put::Existing(existing)),
            PutDecision::Reactivate(superseded) => {
                let fact = rules::reactivated(superseded, now_ms());
                Table::store(&mut table.facts, fact.clone());
                table.generation += 1;
                return Ok(Put::Existing(fact));
            }
            _ => {}
        }
        let stored = rules::stored(table.next_id(), fact, checked.hash, now_ms());
        table.facts.push(stored.clone());
        table.generation += 1;
        Ok(Put::Inserted(stored))
    }

    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        Ok(self.lock().find(id).cloned())
    }

    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        Ok(self.lock().facts.iter().filter(|fact| filter.matches(fact)).cloned().collect())
    }

    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        let mut found = self.matches(scope, query);
        found.sort_by_cached_key(|fact| rank_key(fact, query));
        found.truncate(limit);
        Ok(found)
    }

    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        check_text(&text)?;
        let mut table = self.lock();
        let current = table.find(id).cloned().ok_or(FactError::NotFound(id))?;
        let checked = rules::check_text_of(current.tier, &text)?;
        let same = Table::same(&table.facts, &current.scope, current.tier, &checked.hash);
        let used = Table::used(&table.facts, &current.scope, current.tier);
        rules::check_update(&current, checked, same, used, table.budgets)?;
        let fact = rules::updated(current, text, checked.hash, now_ms());
        Table::store(&mut table.facts, fact.clone());
        table.generation += 1;
        Ok(fact)
    }

    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        let mut table = self.lock();
        let before = table.facts.len();
        table.facts.retain(|fact| fact.id != id);
        let deleted = table.facts.len() < before;
        if deleted {
            table.generation += 1;
        }
        Ok(deleted)
    }

    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        let mut table = self.lock();
        let current = table.find(id).cloned().ok_or(FactError::NotFound(id))?;
        let fact = rules::quarantined(current, reason, now_ms());
        Table::store(&mut table.facts, fact.clone());
        table.generation += 1;
        Ok(fact)
    }

    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        let mut table = self.lock();
        let current = table.find(id).cloned().ok_or(FactError::NotFound(id))?;
        let fact = rules::superseded(current, reason, now_ms());
        Table::store(&mut table.facts, fact.clone());
        table.generation += 1;
        Ok(fact)
    }

    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        let table = self.lock();
        Ok(BudgetUsage::new(Table::used(&table.facts, scope, tier), table.budgets.limit(tier)))
    }

    async fn generation(&self) -> Result<u64, FactError> {
        Ok(self.lock().generation)
    }

    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        let mut table = self.lock();
        let run = RunId(table.runs.len() as u64 + 1);
        // Merges apply to a copy, and the copy replaces the table only when all of them passed.
        let mut facts = table.facts.clone();
        let mut last_id = table.last_id;
        let mut applied = Vec::with_capacity(merges.len());
        for merge in merges {
            let found =
                merge.sources.iter().map(|id| facts.iter().find(|fact| fact.id == *id).cloned()).collect();
            let sources = rules::merge_sources(&merge, found)?;
            facts.retain(|fact| sources.iter().all(|source| source.id != fact.id));
            let new = merge.merged;
            let checked = rules::check_new(&new)?;
            let same = Table::same(&facts, &new.scope, new.tier, &checked.hash);
            let used = Table::used(&facts, &new.scope, new.tier);
            rules::check_merged(&new, checked, same, used, table.budgets)?;
            last_id += 1;
            let fact = rules::stored(FactId(last_id), new, checked.hash, now_ms());
            Table::store(&mut facts, fact.clone());
            let record = RollbackRecord::new(run, fact.id, sources);
            applied.push(Merged::new(fact, record));
        }
        table.facts = facts;
        table.last_id = last_id;
        table.generation += 1;
        table.records.extend(applied.iter().map(|merged| merged.record.clone()));
        table.runs.push(RunInfo::new(run, pass, RunStatus::Applied, applied.len(), now_ms()));
        Ok((run, applied))
    }

    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        let mut table = self.lock();
        if let Some(status) = rules::finish(run, table.status(run))? {
            table.set_status(run, status);
            table.generation += 1;
        }
        Ok(())
    }

    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        let mut table = self.lock();
        if !rules::must_roll_back(run, table.status(run))? {
            return Ok(RolledBack::default());
        }
        let records: Vec<RollbackRecord> =
            table.records.iter().filter(|record| record.run == run).cloned().collect();
        let existing: HashSet<FactId> = records
            .iter()
            .flat_map(|record| &record.sources)
            .filter(|source| table.find(source.id).is_some())
            .map(|source| source.id)
            .collect();
        rules::check_ids_free(run, &records, &existing)?;
        let mut facts = table.facts.clone();
        let mut tally = Restoring::new(run);
        for step in rules::restore_steps(&records) {
            match step {
                RestoreStep::RemoveMerged(id) => {
                    let before = facts.len();
                    facts.retain(|fact| fact.id != id);
                    tally.removed(facts.len() < before);
                }
                RestoreStep::Restore(source) => {
                    let same = Table::same(&facts, &source.scope, source.tier, &source.hash);
                    if !tally.clash(source, same) {
                        Table::store(&mut facts, source.clone());
                    }
                }
            }
        }
        let outcome = tally.finish()?;
        table.facts = facts;
        table.generation += 1;
        table.set_status(run, RunStatus::RolledBack);
        Ok(outcome)
    }

    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        Ok(self.lock().runs.clone())
    }

    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        let table = self.lock();
        rules::run_exists(run, table.status(run).is_some())?;
        Ok(table.records.iter().filter(|record| record.run == run).cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outranking_needs_every_count_at_least_and_one_better() {
        let query = "tea port";
        assert!(outranks("tea port", "tea port lunch", query), "shorter, same counts");
        assert!(outranks("tea tea port", "tea lunch port", query), "more tea, same length");
        assert!(!outranks("tea", "port", query), "different keywords: the corpus decides");
        assert!(!outranks("tea port", "tea port", query), "equal texts tie");
        assert!(!outranks("tea", "lunch", query), "a text that does not match is never outranked");
        assert!(!outranks("tea port lunch", "tea port", query));
    }

    #[test]
    fn the_reference_ranks_consistently_with_outranks() {
        let id = tidemark_core::ConversationId::new("c").expect("valid");
        let scope = Scope::Conversation(id);
        let texts = ["tea", "tea port and more words", "tea port", "lunch at noon", "port"];
        let store = ReferenceFactStore::new();
        futures::executor::block_on(async {
            for text in texts {
                assert!(
                    store
                        .put(NewFact::new(scope.clone(), Tier::AgentNotes, text))
                        .await
                        .expect("put")
                        .inserted()
                );
            }
            let found = store.search(Some(&scope), "tea port", 10).await.expect("search");
            let found: Vec<&str> = found.iter().map(|fact| fact.text.as_str()).collect();
            assert_eq!(found, ["tea port", "tea port and more words", "tea", "port"]);
            for (index, better) in found.iter().enumerate() {
                for worse in &found[..index] {
                    assert!(!outranks(better, worse, "tea port"), "{better} placed after {worse}");
                }
            }
        });
    }

    #[test]
    fn the_reference_passes_the_fact_suite() {
        let report = futures::executor::block_on(crate::conformance::facts::run(|| async {
            ReferenceFactStore::new()
        }))
        .expect("the reference conforms");
        assert_eq!(report.cases, crate::conformance::facts::DEFAULT_CASES);
        let small = FactBudgets::new(300, 500);
        let shared = ReferenceFactStore::with_budgets(small);
        futures::executor::block_on(crate::conformance::facts::run(|| {
            let store = shared.clone();
            async move { store }
        }))
        .expect("the reference conforms with small budgets on a shared store");
    }
}

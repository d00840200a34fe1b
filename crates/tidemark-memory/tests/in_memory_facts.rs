//! `InMemoryStore` as a `FactStore`: the conformance suite, and budgets shared by clones.

use tidemark_core::{FactBudgets, FactError, FactStore, NewFact, Scope, Tier};
use tidemark_memory::InMemoryStore;
use tidemark_testkit::conformance;

#[tokio::test]
async fn in_memory_store_passes_the_fact_conformance_suite() {
    let report = conformance::facts::run_with(|| async { InMemoryStore::new() }, 64).await.expect("conforms");
    assert_eq!(report.cases, 64);
    // Budgets other than the defaults, and one store shared by every check.
    let shared = InMemoryStore::new().with_fact_budgets(FactBudgets::new(300, 500));
    conformance::facts::run(|| {
        let store = shared.clone();
        async move { store }
    })
    .await
    .expect("conforms with small budgets on a shared store");
}

#[tokio::test]
async fn budgets_apply_to_every_clone() {
    let store = InMemoryStore::new();
    let clone = store.clone().with_fact_budgets(FactBudgets::new(10, 10));
    assert_eq!(store.fact_budgets(), clone.fact_budgets());
    let scope = Scope::User(tidemark_core::ConversationId::new("u").unwrap());
    let outcome = store.put(NewFact::new(scope, Tier::UserProfile, "eleven char")).await;
    assert!(
        matches!(outcome, Err(FactError::OverBudget { used: 0, needed: 11, limit: 10, .. })),
        "{outcome:?}"
    );
}

/// An in-memory store with one planted fault, to show the suite notices it.
struct Faulty {
    inner: InMemoryStore,
    fault: Fault,
}

#[derive(Clone, Copy)]
enum Fault {
    /// A repeated put claims to have inserted the fact again.
    RepeatedPutInserts,
    /// Search also returns quarantined facts.
    SearchShowsQuarantined,
    /// The generation never moves.
    FrozenGeneration,
    /// A quarantine keeps the fact's status right but loses the reason given.
    ///
    /// No rule checked fact by fact notices (the fact is quarantined, hidden
    /// from search, still counted); only comparing every answer with the
    /// reference does.
    QuarantineForgetsReason,
    /// A supersede quarantines instead: the fact leaves search, but not as history.
    SupersedeQuarantines,
}

impl FactStore for Faulty {
    async fn put(&self, fact: NewFact) -> Result<tidemark_core::Put, FactError> {
        let put = self.inner.put(fact).await?;
        Ok(match (self.fault, put) {
            (Fault::RepeatedPutInserts, tidemark_core::Put::Existing(fact)) => {
                tidemark_core::Put::Inserted(fact)
            }
            (_, put) => put,
        })
    }
    async fn get(&self, id: tidemark_core::FactId) -> Result<Option<tidemark_core::Fact>, FactError> {
        self.inner.get(id).await
    }
    async fn list(&self, filter: &tidemark_core::FactFilter) -> Result<Vec<tidemark_core::Fact>, FactError> {
        self.inner.list(filter).await
    }
    async fn search(
        &self,
        scope: Option<&Scope>,
        query: &str,
        limit: usize,
    ) -> Result<Vec<tidemark_core::Fact>, FactError> {
        let mut found = self.inner.search(scope, query, limit).await?;
        if let Fault::SearchShowsQuarantined = self.fault {
            let filter = tidemark_core::FactFilter::new(
                scope.cloned(),
                None,
                tidemark_core::StatusFilter::Quarantined,
            );
            found.extend(self.inner.list(&filter).await?);
        }
        Ok(found)
    }
    async fn update(
        &self,
        id: tidemark_core::FactId,
        text: String,
    ) -> Result<tidemark_core::Fact, FactError> {
        self.inner.update(id, text).await
    }
    async fn delete(&self, id: tidemark_core::FactId) -> Result<bool, FactError> {
        self.inner.delete(id).await
    }
    async fn quarantine(
        &self,
        id: tidemark_core::FactId,
        reason: String,
    ) -> Result<tidemark_core::Fact, FactError> {
        let reason = match self.fault {
            Fault::QuarantineForgetsReason => String::new(),
            _ => reason,
        };
        self.inner.quarantine(id, reason).await
    }
    async fn supersede(
        &self,
        id: tidemark_core::FactId,
        reason: String,
    ) -> Result<tidemark_core::Fact, FactError> {
        match self.fault {
            // A store that quarantines instead: the fact leaves search but not as history.
            Fault::SupersedeQuarantines => self.inner.quarantine(id, reason).await,
            _ => self.inner.supersede(id, reason).await,
        }
    }
    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<tidemark_core::BudgetUsage, FactError> {
        self.inner.usage(scope, tier).await
    }
    async fn generation(&self) -> Result<u64, FactError> {
        match self.fault {
            Fault::FrozenGeneration => Ok(0),
            _ => self.inner.generation().await,
        }
    }

    async fn consolidate(
        &self,
        pass: &str,
        merges: Vec<tidemark_core::Merge>,
    ) -> Result<(tidemark_core::RunId, Vec<tidemark_core::Merged>), FactError> {
        self.inner.consolidate(pass, merges).await
    }
    async fn finish_run(&self, run: tidemark_core::RunId) -> Result<(), FactError> {
        self.inner.finish_run(run).await
    }
    async fn rollback(&self, run: tidemark_core::RunId) -> Result<tidemark_core::RolledBack, FactError> {
        self.inner.rollback(run).await
    }
    async fn runs(&self) -> Result<Vec<tidemark_core::RunInfo>, FactError> {
        self.inner.runs().await
    }
    async fn run_records(
        &self,
        run: tidemark_core::RunId,
    ) -> Result<Vec<tidemark_core::RollbackRecord>, FactError> {
        self.inner.run_records(run).await
    }
}

#[tokio::test]
async fn the_fact_suite_catches_planted_faults() {
    for (fault, check) in [
        (Fault::RepeatedPutInserts, "put_is_idempotent"),
        (Fault::SearchShowsQuarantined, "quarantine_hides_from_search_only"),
        (Fault::FrozenGeneration, "update_rehashes_and_checks"),
        (Fault::QuarantineForgetsReason, "lockstep_with_reference"),
        (Fault::SupersedeQuarantines, "supersede_keeps_history_and_a_put_brings_it_back"),
    ] {
        let failure =
            conformance::facts::run(|| async move { Faulty { inner: InMemoryStore::new(), fault } })
                .await
                .expect_err("a faulty store must fail the suite");
        assert_eq!(failure.check, check, "{failure}");
    }
}

//! The object-safe twin of [`FactStore`].

use super::BoxFuture;
use crate::fact::{
    BudgetUsage, Fact, FactError, FactFilter, FactId, FactStore, Merge, Merged, NewFact, Put, RollbackRecord,
    RolledBack, RunId, RunInfo, Scope, Tier,
};

/// The object-safe twin of [`FactStore`].
///
/// ```
/// use std::sync::Arc;
///
/// use tidemark_core::boxed::{BoxFactStore, DynFactStore};
/// use tidemark_core::{FactStore, NewFact, Scope, Tier};
///
/// /// Takes any fact store, chosen at compile time or at run time.
/// async fn remember(store: &impl FactStore, scope: Scope) -> bool {
///     store.put(NewFact::new(scope, Tier::UserProfile, "Prefers tea.")).await.is_ok()
/// }
///
/// fn run(store: BoxFactStore) {
///     let scope = Scope::User(tidemark_core::ConversationId::new("ada").unwrap());
///     futures::executor::block_on(remember(&store, scope));
///     // The same object shared behind an `Arc` is a fact store too.
///     let shared: Arc<dyn DynFactStore> = Arc::from(store);
///     let _ = futures::executor::block_on(shared.generation());
/// }
/// ```
#[allow(missing_docs)] // Each method mirrors the documented method of the static trait.
pub trait DynFactStore: Send + Sync {
    fn put_boxed(&self, fact: NewFact) -> BoxFuture<'_, Result<Put, FactError>>;
    fn get_boxed(&self, id: FactId) -> BoxFuture<'_, Result<Option<Fact>, FactError>>;
    fn list_boxed<'a>(&'a self, filter: &'a FactFilter) -> BoxFuture<'a, Result<Vec<Fact>, FactError>>;
    fn search_boxed<'a>(
        &'a self,
        scope: Option<&'a Scope>,
        query: &'a str,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<Fact>, FactError>>;
    fn update_boxed(&self, id: FactId, text: String) -> BoxFuture<'_, Result<Fact, FactError>>;
    fn delete_boxed(&self, id: FactId) -> BoxFuture<'_, Result<bool, FactError>>;
    fn quarantine_boxed(&self, id: FactId, reason: String) -> BoxFuture<'_, Result<Fact, FactError>>;
    fn supersede_boxed(&self, id: FactId, reason: String) -> BoxFuture<'_, Result<Fact, FactError>>;
    fn usage_boxed<'a>(
        &'a self,
        scope: &'a Scope,
        tier: Tier,
    ) -> BoxFuture<'a, Result<BudgetUsage, FactError>>;
    fn generation_boxed(&self) -> BoxFuture<'_, Result<u64, FactError>>;
    fn consolidate_boxed<'a>(
        &'a self,
        pass: &'a str,
        merges: Vec<Merge>,
    ) -> BoxFuture<'a, Result<(RunId, Vec<Merged>), FactError>>;
    fn finish_run_boxed(&self, run: RunId) -> BoxFuture<'_, Result<(), FactError>>;
    fn rollback_boxed(&self, run: RunId) -> BoxFuture<'_, Result<RolledBack, FactError>>;
    fn runs_boxed(&self) -> BoxFuture<'_, Result<Vec<RunInfo>, FactError>>;
    fn run_records_boxed(&self, run: RunId) -> BoxFuture<'_, Result<Vec<RollbackRecord>, FactError>>;
    fn unverified_runs_boxed(&self) -> BoxFuture<'_, Result<Vec<RunId>, FactError>>;
}

impl<T: FactStore> DynFactStore for T {
    fn put_boxed(&self, fact: NewFact) -> BoxFuture<'_, Result<Put, FactError>> {
        Box::pin(self.put(fact))
    }
    fn get_boxed(&self, id: FactId) -> BoxFuture<'_, Result<Option<Fact>, FactError>> {
        Box::pin(self.get(id))
    }
    fn list_boxed<'a>(&'a self, filter: &'a FactFilter) -> BoxFuture<'a, Result<Vec<Fact>, FactError>> {
        Box::pin(self.list(filter))
    }
    fn search_boxed<'a>(
        &'a self,
        scope: Option<&'a Scope>,
        query: &'a str,
        limit: usize,
    ) -> BoxFuture<'a, Result<Vec<Fact>, FactError>> {
        Box::pin(self.search(scope, query, limit))
    }
    fn update_boxed(&self, id: FactId, text: String) -> BoxFuture<'_, Result<Fact, FactError>> {
        Box::pin(self.update(id, text))
    }
    fn delete_boxed(&self, id: FactId) -> BoxFuture<'_, Result<bool, FactError>> {
        Box::pin(self.delete(id))
    }
    fn quarantine_boxed(&self, id: FactId, reason: String) -> BoxFuture<'_, Result<Fact, FactError>> {
        Box::pin(self.quarantine(id, reason))
    }
    fn supersede_boxed(&self, id: FactId, reason: String) -> BoxFuture<'_, Result<Fact, FactError>> {
        Box::pin(self.supersede(id, reason))
    }
    fn usage_boxed<'a>(
        &'a self,
        scope: &'a Scope,
        tier: Tier,
    ) -> BoxFuture<'a, Result<BudgetUsage, FactError>> {
        Box::pin(self.usage(scope, tier))
    }
    fn generation_boxed(&self) -> BoxFuture<'_, Result<u64, FactError>> {
        Box::pin(self.generation())
    }
    fn consolidate_boxed<'a>(
        &'a self,
        pass: &'a str,
        merges: Vec<Merge>,
    ) -> BoxFuture<'a, Result<(RunId, Vec<Merged>), FactError>> {
        Box::pin(self.consolidate(pass, merges))
    }
    fn finish_run_boxed(&self, run: RunId) -> BoxFuture<'_, Result<(), FactError>> {
        Box::pin(self.finish_run(run))
    }
    fn rollback_boxed(&self, run: RunId) -> BoxFuture<'_, Result<RolledBack, FactError>> {
        Box::pin(self.rollback(run))
    }
    fn runs_boxed(&self) -> BoxFuture<'_, Result<Vec<RunInfo>, FactError>> {
        Box::pin(self.runs())
    }
    fn run_records_boxed(&self, run: RunId) -> BoxFuture<'_, Result<Vec<RollbackRecord>, FactError>> {
        Box::pin(self.run_records(run))
    }
    fn unverified_runs_boxed(&self) -> BoxFuture<'_, Result<Vec<RunId>, FactError>> {
        Box::pin(self.unverified_runs())
    }
}

impl FactStore for dyn DynFactStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        self.put_boxed(fact).await
    }
    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        self.get_boxed(id).await
    }
    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        self.list_boxed(filter).await
    }
    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        self.search_boxed(scope, query, limit).await
    }
    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        self.update_boxed(id, text).await
    }
    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        self.delete_boxed(id).await
    }
    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.quarantine_boxed(id, reason).await
    }
    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.supersede_boxed(id, reason).await
    }
    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        self.usage_boxed(scope, tier).await
    }
    async fn generation(&self) -> Result<u64, FactError> {
        self.generation_boxed().await
    }
    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        self.consolidate_boxed(pass, merges).await
    }
    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.finish_run_boxed(run).await
    }
    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.rollback_boxed(run).await
    }
    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        self.runs_boxed().await
    }
    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.run_records_boxed(run).await
    }
    // Forwarded too, so a store that overrides the provided method keeps its own version behind the box.
    async fn unverified_runs(&self) -> Result<Vec<RunId>, FactError> {
        self.unverified_runs_boxed().await
    }
}

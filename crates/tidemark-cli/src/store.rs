//! The store a command works on: an SQLite file by default, or a PostgreSQL database given by its URL.

use std::time::Duration;

use tidemark_core::{
    BudgetUsage, CompactionState, ConversationId, ConversationStats, ConversationStore, Fact, FactError,
    FactFilter, FactId, FactStore, Lease, Merge, Merged, NewFact, NewMessage, Put, RollbackRecord,
    RolledBack, RunId, RunInfo, Scope, Seq, SeqRange, StoreError, StoredMessage, Tier,
};
#[cfg(feature = "postgres")]
use tidemark_memory::PostgresStore;
use tidemark_memory::SqliteStore;

use crate::error::CliError;

/// One of the stores the command can open.
#[derive(Debug, Clone)]
pub(crate) enum AnyStore {
    /// An SQLite file.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    #[cfg(feature = "postgres")]
    Postgres(PostgresStore),
}

/// Whether `location` names a PostgreSQL database rather than a file.
pub(crate) fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

impl AnyStore {
    /// Opens `location`: a `postgres://` or `postgresql://` URL, or else the path of an SQLite file.
    pub(crate) async fn open(location: &str) -> Result<Self, CliError> {
        if is_postgres_url(location) {
            #[cfg(feature = "postgres")]
            {
                return PostgresStore::connect(location)
                    .await
                    .map(Self::Postgres)
                    .map_err(|error| CliError::runtime("connecting to PostgreSQL", error));
            }
            #[cfg(not(feature = "postgres"))]
            {
                return Err(CliError::input(
                    "this build of tidemark has no PostgreSQL support (build it with the `postgres` feature)",
                ));
            }
        }
        SqliteStore::open(location)
            .map(Self::Sqlite)
            .map_err(|error| CliError::runtime("opening the store", error))
    }
}

/// Calls the same method on whichever store this is.
macro_rules! each {
    ($self:ident, $store:ident => $call:expr) => {
        match $self {
            AnyStore::Sqlite($store) => $call,
            #[cfg(feature = "postgres")]
            AnyStore::Postgres($store) => $call,
        }
    };
}

impl ConversationStore for AnyStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        each!(self, store => store.append(conversation, messages).await)
    }
    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        each!(self, store => store.load_range(conversation, range).await)
    }
    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        each!(self, store => store.load_seqs(conversation, seqs).await)
    }
    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        each!(self, store => store.stats(conversation).await)
    }
    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        each!(self, store => store.clear(conversation).await)
    }
    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        each!(self, store => store.state(conversation).await)
    }
    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        each!(self, store => store.save_state(conversation, expected_generation, state).await)
    }
    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        each!(self, store => store.prune(conversation).await)
    }
    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        each!(self, store => store.conversations().await)
    }
    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        each!(self, store => store.try_lease(conversation, holder, ttl).await)
    }
    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        each!(self, store => store.release_lease(conversation, holder).await)
    }
}

impl FactStore for AnyStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        each!(self, store => store.put(fact).await)
    }
    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        each!(self, store => store.get(id).await)
    }
    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        each!(self, store => store.list(filter).await)
    }
    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        each!(self, store => store.search(scope, query, limit).await)
    }
    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        each!(self, store => store.update(id, text).await)
    }
    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        each!(self, store => store.delete(id).await)
    }
    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        each!(self, store => store.quarantine(id, reason).await)
    }
    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        each!(self, store => store.usage(scope, tier).await)
    }
    async fn generation(&self) -> Result<u64, FactError> {
        each!(self, store => store.generation().await)
    }
    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        each!(self, store => store.consolidate(pass, merges).await)
    }
    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        each!(self, store => store.finish_run(run).await)
    }
    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        each!(self, store => store.rollback(run).await)
    }
    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        each!(self, store => store.runs().await)
    }
    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        each!(self, store => store.run_records(run).await)
    }
}

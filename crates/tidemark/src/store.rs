//! [`Store`]: the store a memory works on, chosen at run time: an SQLite file, memory, a
//! PostgreSQL database, or a store of your own.
//!
//! Which backend it is matters only when it is opened: from then on the memory, the facts and
//! recall see one object through two type-erased handles from [`tidemark_core::boxed`], a
//! conversation store and a fact store, both pointing at the same backend value.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tidemark_core::boxed::{DynConversationStore, DynFactStore};
use tidemark_core::{
    BudgetUsage, Calibration, CompactionState, ConversationId, ConversationStats, ConversationStore, Fact,
    FactError, FactFilter, FactId, FactStore, Lease, Merge, Merged, NewFact, NewMessage, Passage, Put,
    RecallQuery, RollbackRecord, RolledBack, RunId, RunInfo, Scope, Seq, SeqRange, StoreError, StoredMessage,
    Tier,
};

/// A conversation store and fact store chosen at run time.
///
/// Cloning it clones two `Arc`s: every clone works on the same backend.
///
/// ```
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use tidemark::Store;
///
/// let store = Store::in_memory();
/// # #[cfg(feature = "sqlite")]
/// let store = Store::open("agent.db").await?; // or a postgres:// URL with the `postgres` feature
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Store {
    /// `"sqlite"`, `"postgres"`, `"memory"` or `"custom"`, for debugging output.
    backend: &'static str,
    /// The backend as a conversation store.
    conversations: Arc<dyn DynConversationStore>,
    /// The same backend as a fact store.
    facts: Arc<dyn DynFactStore>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("backend", &self.backend).finish_non_exhaustive()
    }
}

/// The store given the bundled model, with the `meaning` feature; the store as it is without it.
macro_rules! with_meaning {
    ($store:expr) => {{
        #[cfg(feature = "meaning")]
        let store = $store.with_embedder(Arc::new(Bundled));
        #[cfg(not(feature = "meaning"))]
        let store = $store;
        store
    }};
}

/// tidemark-embed's bundled model, loaded by the first search that needs it (about 9 ms), so that a
/// program that never recalls never loads it.
#[cfg(feature = "meaning")]
#[derive(Debug, Clone, Copy)]
struct Bundled;

#[cfg(feature = "meaning")]
impl tidemark_core::recall::Embedder for Bundled {
    fn name(&self) -> &str {
        tidemark_embed::BUNDLED_NAME
    }

    fn embed(&self, text: &str) -> Option<tidemark_core::recall::Embedding> {
        tidemark_core::recall::Embedder::embed(&*tidemark_embed::StaticModel::bundled(), text)
    }

    fn pieces(&self, text: &str) -> Vec<u32> {
        tidemark_core::recall::Embedder::pieces(&*tidemark_embed::StaticModel::bundled(), text)
    }

    fn piece_similarity(&self, a: u32, b: u32) -> f64 {
        tidemark_core::recall::Embedder::piece_similarity(&*tidemark_embed::StaticModel::bundled(), a, b)
    }
}

/// Whether `location` names a PostgreSQL database rather than a file.
#[must_use]
pub fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// Why a store could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The location is a PostgreSQL URL, and this build has no PostgreSQL support.
    #[error("{0} is a PostgreSQL URL, and this build of tidemark has no `postgres` feature")]
    NoPostgres(String),
    /// The location is a file path, and this build has no SQLite support.
    #[error("{0} is an SQLite file, and this build of tidemark has no `sqlite` feature")]
    NoSqlite(String),
    /// The backend refused to open.
    #[error("could not open the {backend} store")]
    Backend {
        /// `"sqlite"` or `"postgres"`.
        backend: &'static str,
        /// What the backend said.
        #[source]
        source: StoreError,
    },
}

impl Store {
    /// Opens `location`: a `postgres://` or `postgresql://` URL (the `postgres` feature), or else
    /// the path of an SQLite file, created if missing (the `sqlite` feature).
    ///
    /// # Errors
    ///
    /// [`OpenError`] when the backend is not built in or refuses to open.
    pub async fn open(location: &str) -> Result<Self, OpenError> {
        if is_postgres_url(location) {
            #[cfg(feature = "postgres")]
            {
                return tidemark_postgres::PostgresStore::connect(location)
                    .await
                    .map(|store| Self::new("postgres", with_meaning!(store)))
                    .map_err(|source| OpenError::Backend { backend: "postgres", source });
            }
            #[cfg(not(feature = "postgres"))]
            {
                return Err(OpenError::NoPostgres(location.to_owned()));
            }
        }
        Self::sqlite(location)
    }

    /// Opens the SQLite file at `path`, created if missing.
    ///
    /// # Errors
    ///
    /// [`OpenError`] when SQLite is not built in or the file cannot be opened.
    pub fn sqlite(path: impl AsRef<std::path::Path>) -> Result<Self, OpenError> {
        #[cfg(feature = "sqlite")]
        {
            tidemark_memory::SqliteStore::open(path)
                .map(|store| Self::new("sqlite", with_meaning!(store)))
                .map_err(|source| OpenError::Backend { backend: "sqlite", source })
        }
        #[cfg(not(feature = "sqlite"))]
        {
            Err(OpenError::NoSqlite(path.as_ref().display().to_string()))
        }
    }

    /// A store in this process's memory, gone when the last clone is dropped.
    #[must_use]
    pub fn in_memory() -> Self {
        Self::new("memory", with_meaning!(tidemark_memory::InMemoryStore::new()))
    }

    /// Your own store (or a [`PostgresStore`](tidemark_postgres::PostgresStore) you connected),
    /// which must keep conversations and facts.
    pub fn custom<S: ConversationStore + FactStore + 'static>(store: S) -> Self {
        Self::new("custom", store)
    }

    /// The backend's name: `"sqlite"`, `"postgres"`, `"memory"` or `"custom"`.
    #[must_use]
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// Both handles on one shared `store`.
    fn new<S: ConversationStore + FactStore + 'static>(backend: &'static str, store: S) -> Self {
        let store = Arc::new(store);
        Self { backend, conversations: store.clone(), facts: store }
    }
}

// The impls below only pass each call to the handle for its trait; the choice
// of backend was made once, in `open`, and lives in the trait objects.

impl ConversationStore for Store {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        self.conversations.append(conversation, messages).await
    }
    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.conversations.load_range(conversation, range).await
    }
    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.conversations.load_seqs(conversation, seqs).await
    }
    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        self.conversations.stats(conversation).await
    }
    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.conversations.clear(conversation).await
    }
    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        self.conversations.state(conversation).await
    }
    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        self.conversations.save_state(conversation, expected_generation, state).await
    }
    async fn epochs(
        &self,
        conversation: &ConversationId,
    ) -> Result<Vec<tidemark_core::history::Epoch>, StoreError> {
        self.conversations.epochs(conversation).await
    }
    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        self.conversations.restore_state(conversation, expected_generation, target).await
    }
    async fn fork(
        &self,
        source: &ConversationId,
        at: tidemark_core::Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        self.conversations.fork(source, at, target).await
    }
    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        self.conversations.prune(conversation).await
    }
    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        self.conversations.conversations().await
    }
    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        self.conversations.try_lease(conversation, holder, ttl).await
    }
    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        self.conversations.release_lease(conversation, holder).await
    }

    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        self.conversations.search_passages(conversation, query).await
    }
    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        self.conversations.calibration(conversation).await
    }
    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        self.conversations.save_calibration(conversation, calibration).await
    }
    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        self.conversations.set_user(conversation, user).await
    }
    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        self.conversations.user_conversations(user).await
    }
}

impl FactStore for Store {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        self.facts.put(fact).await
    }
    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        self.facts.get(id).await
    }
    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        self.facts.list(filter).await
    }
    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        self.facts.search(scope, query, limit).await
    }
    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        self.facts.update(id, text).await
    }
    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        self.facts.delete(id).await
    }
    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.facts.quarantine(id, reason).await
    }
    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.facts.supersede(id, reason).await
    }
    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        self.facts.usage(scope, tier).await
    }
    async fn generation(&self) -> Result<u64, FactError> {
        self.facts.generation().await
    }
    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        self.facts.consolidate(pass, merges).await
    }
    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.facts.finish_run(run).await
    }
    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.facts.rollback(run).await
    }
    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        self.facts.runs().await
    }
    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.facts.run_records(run).await
    }
    async fn unverified_runs(&self) -> Result<Vec<RunId>, FactError> {
        self.facts.unverified_runs().await
    }
}

//! [`SqliteStore`]: conversations kept in one SQLite file, the embedded default store that survives restarts.

mod calibration;
mod facts;
mod history;
mod lease;
mod recall;
mod schema;
mod users;

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use quick_cache::Weighter;
use quick_cache::sync::Cache;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, Rows, TransactionBehavior, params};
use tidemark_core::history::{Epoch, EpochKind, now_ms};
use tidemark_core::recall::{Embedder, Passage, RecallQuery};
use tidemark_core::store::{ConversationStats, StoredSummary, check_state};
use tidemark_core::{
    Calibration, CompactionState, ConversationId, ConversationStore, DecodeError, FactBudgets, Lease,
    Message, NewMessage, Seq, SeqRange, StoreError, StoredMessage,
};

use tidemark_core::store::sql::{DataError, from_json, from_sql, range_bounds, to_json, to_sql};

/// How long a connection waits for another connection's write lock before it reports the database as busy.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How many bytes of message JSON the decoded-message cache stands for at most.
const MESSAGE_CACHE_BYTES: u64 = 32 * 1024 * 1024;

/// How many conversations' decoded states are cached at most.
const STATE_CACHE_ENTRIES: usize = 1024;

/// A decoded message and the size of its JSON, which is what the cache weighs it by.
#[derive(Clone, Debug)]
struct CachedMessage {
    message: Arc<Message>,
    bytes: u64,
}

#[derive(Clone, Debug)]
struct ByJsonSize;

impl Weighter<(ConversationId, u64), CachedMessage> for ByJsonSize {
    fn weight(&self, _key: &(ConversationId, u64), value: &CachedMessage) -> u64 {
        value.bytes.max(1)
    }
}

/// Decoded data that never has to be decoded twice.
///
/// A stored message never changes: the pair (conversation, sequence number)
/// is never reused, not even after a clear, so a decoded message can be kept
/// for as long as the row exists, and the query that reads the row still
/// decides whether it does. A conversation's state changes only together with
/// its generation, which every write (from any process) advances, so a cached
/// state is used only while the stored generation still matches it.
#[derive(Debug)]
struct Caches {
    messages: Cache<(ConversationId, u64), CachedMessage, ByJsonSize>,
    states: Cache<ConversationId, Arc<CompactionState>>,
    /// The recall index's answers per term, kept up to date as messages are indexed (see `recall::Holders`).
    holders: std::sync::Mutex<recall::Holders>,
}

impl Caches {
    fn new() -> Self {
        // The estimate of items only sizes the cache's tables; the weight limit bounds it.
        let messages = Cache::with_weighter(16_384, MESSAGE_CACHE_BYTES, ByJsonSize);
        Self {
            messages,
            states: Cache::new(STATE_CACHE_ENTRIES),
            holders: std::sync::Mutex::new(recall::Holders::new()),
        }
    }
}

/// A [`ConversationStore`] in one SQLite file (or in memory, for tests).
///
/// The file holds a `conversations` table (numbering and counters), a
/// `states` table (each conversation's compaction state, apart so that an
/// append never rewrites the summary), a `calibrations` table (what the
/// provider's usage reports taught, apart so that writing it never conflicts
/// with a compaction) and a `messages` table (each message's
/// token count and its body in tidemark's JSON format, see
/// [`Message::to_json`]), and `recall`, an FTS5 index of every message's
/// search terms that [`ConversationStore::search_passages`] reads, written by
/// the first search that reaches a message (with an embedder, see
/// [`SqliteStore::with_embedder`], the same search writes each passage's
/// embedding into `recall_vectors`), and `conversation_users`, each conversation's user
/// ([`ConversationStore::set_user`]). Its schema version is kept in `PRAGMA user_version`
/// and brought up to date when the file is opened; a file written by a newer
/// build is refused with [`StoreError::SchemaTooNew`] and left untouched.
///
/// The store is also a [`FactStore`](tidemark_core::FactStore): long-term facts
/// live in the same file, in a `facts` table with its own search index (see
/// [`SqliteStore::with_fact_budgets`] for their budgets).
///
/// # Execution model
///
/// A store owns one connection behind a mutex, and every method runs its one
/// short transaction right on the calling task instead of moving it to a
/// blocking thread. In WAL mode these statements take microseconds, and an
/// agent issues several of them per turn, so a thread hop per call would cost
/// more than the work itself. The lock is never held across an `.await`: each
/// method takes it, runs its transaction to the end and releases it before
/// returning. The price is that a call may block its task while another process
/// holds the write lock, for at most the busy timeout of five seconds.
///
/// Decoded messages are cached (up to 32 MiB of their JSON), since an agent
/// reloads the same window every turn, and so are decoded states, checked
/// against the stored generation on every read. Both stay correct with other
/// processes writing to the same file: a stored message never changes, and
/// every state write advances the generation.
///
/// Clones share the connection and the caches (and the embedder of the
/// handle they were cloned from). Handles opened separately on one file (in one
/// process or several) each have their own connection; SQLite's locking
/// serializes their writes, and every writing method takes the write lock at
/// the start of its transaction (`BEGIN IMMEDIATE`), so what it reads is still
/// true when it writes.
///
/// # Example
///
/// ```
/// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq, SeqRange};
/// use tidemark_memory::store::SqliteStore;
///
/// # futures::executor::block_on(async {
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("memory.db");
/// let id = ConversationId::new("demo")?;
///
/// let store = SqliteStore::open(&path)?;
/// store.append(&id, vec![NewMessage::new(Message::user("hello"), 5)]).await?;
/// drop(store);
///
/// // A later run picks up where the first one stopped.
/// let store = SqliteStore::open(&path)?;
/// let loaded = store.load_range(&id, SeqRange::from(Seq::ZERO)).await?;
/// assert_eq!(loaded[0].message.text(), "hello");
/// assert_eq!(loaded[0].tokens, 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
    caches: Arc<Caches>,
    fact_budgets: FactBudgets,
    /// The model that places passages by meaning, if recall by meaning is on (see [`SqliteStore::with_embedder`]).
    embedder: Option<Arc<dyn Embedder>>,
}

impl SqliteStore {
    /// Open the store in the file at `path`, creating the file if it is missing and bringing its schema up to date.
    ///
    /// # Errors
    ///
    /// Returns [`StoreError::SchemaTooNew`] for a file written by a newer build
    /// (the file is not changed), and [`StoreError::Backend`] when the file cannot
    /// be opened, is not an SQLite database or cannot be migrated.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let connection =
            Connection::open(path.as_ref()).map_err(|error| StoreError::backend("open", error))?;
        Self::set_up(connection, true)
    }

    /// A store in memory: private to this handle and its clones, gone when the last of them is dropped.
    ///
    /// # Errors
    ///
    /// Returns [`StoreError::Backend`] if SQLite cannot create the database.
    pub fn open_in_memory() -> Result<Self, StoreError> {
        let connection = Connection::open_in_memory().map_err(|error| StoreError::backend("open", error))?;
        Self::set_up(connection, false)
    }

    fn set_up(mut connection: Connection, file: bool) -> Result<Self, StoreError> {
        let fail = |error| StoreError::backend("open", error);
        connection.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        // Conversations and facts use about 35 distinct statements; keep them all prepared.
        connection.set_prepared_statement_cache_capacity(64);
        // Plans that do not depend on bound values. Without this, SQLite
        // marks a statement to be compiled again whenever a parameter it
        // looked at while planning is bound to a new value (the range of a
        // `load_range`, the `LIMIT` of a search), which recompiled cached
        // statements at nearly every use: a quarter of the time of a recall
        // search went there. Every statement here has one good plan, by
        // primary key or by index, whatever the values.
        connection.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true).map_err(fail)?;
        // Switching to WAL rewrites the file header, so a file from a newer
        // build must be refused before that happens.
        schema::refuse_newer(&connection)?;
        if file {
            let mode: String = connection
                .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
                .map_err(fail)?;
            if !mode.eq_ignore_ascii_case("wal") {
                // Some file systems (network shares) cannot hold the WAL index;
                // the store still works there, only with writers blocking readers.
                tracing::warn!(%mode, "sqlite store could not switch to WAL; continuing in this journal mode");
            }
        }
        connection.pragma_update(None, "synchronous", "NORMAL").map_err(fail)?;
        connection.pragma_update(None, "foreign_keys", true).map_err(fail)?;
        schema::migrate(&mut connection)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
            caches: Arc::new(Caches::new()),
            fact_budgets: FactBudgets::default(),
            embedder: None,
        })
    }

    /// Run `work` on the connection and name the operation in any backend error.
    fn run<T>(
        &self,
        operation: &'static str,
        work: impl FnOnce(&mut Connection) -> Result<T, Fail>,
    ) -> Result<T, StoreError> {
        let mut connection = self.lock();
        work(&mut connection).map_err(|fail| fail.named(operation))
    }

    /// Lock the connection, recovering it from a panic in another holder.
    ///
    /// Every method does its writes inside a transaction that rolls back unless
    /// it was committed, and a transaction that is dropped while a panic unwinds
    /// rolls back too, so the database holds either all of a method's writes or
    /// none of them: a poisoned lock still guards consistent data. Should that
    /// rollback itself have failed, it is retried here, so that the connection is
    /// not stuck inside a transaction.
    fn lock(&self) -> MutexGuard<'_, Connection> {
        match self.connection.lock() {
            Ok(connection) => connection,
            Err(poisoned) => {
                let connection = poisoned.into_inner();
                if !connection.is_autocommit()
                    && let Err(error) = connection.execute_batch("ROLLBACK")
                {
                    tracing::warn!(%error, "sqlite store could not roll back after a panic");
                }
                self.connection.clear_poison();
                connection
            }
        }
    }
}

impl ConversationStore for SqliteStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        self.run("append", |connection| append(connection, &self.caches, conversation, messages))
    }

    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.run("load_range", |connection| load_range(connection, &self.caches, conversation, range))
    }

    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.run("load_seqs", |connection| load_seqs(connection, &self.caches, conversation, seqs))
    }

    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        self.run("stats", |connection| {
            let counts = read_counts(connection, conversation.as_str())?;
            Ok(counts.map_or_else(ConversationStats::default, |counts| {
                ConversationStats::new(counts.next_seq, counts.stored, counts.stored_tokens)
            }))
        })
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.run("clear", |connection| clear(connection, &self.caches, conversation.as_str()))
    }

    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        self.run("state", |connection| cached_state(connection, &self.caches, conversation))
    }

    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        self.run("save_state", |connection| {
            save_state(connection, &self.caches, conversation, expected_generation, state)
        })
    }

    async fn epochs(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        self.run("epochs", |connection| history::all(connection, conversation.as_str()))
    }

    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        self.run("restore_state", |connection| {
            history::restore_state(connection, &self.caches, conversation, expected_generation, target)
        })
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        self.run("fork", |connection| history::fork(connection, source.as_str(), at, target.as_str()))
    }

    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        self.run("prune", |connection| prune(connection, &self.caches, conversation.as_str()))
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        self.run("conversations", |connection| users::all(connection))
    }

    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        self.run("try_lease", |connection| lease::try_lease(connection, conversation.as_str(), holder, ttl))
    }

    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        self.run("release_lease", |connection| {
            lease::release_lease(connection, conversation.as_str(), holder)
        })
    }

    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        self.run("search_passages", |connection| {
            recall::search(connection, &self.caches, self.embedder.as_deref(), conversation, query)
        })
    }

    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        self.run("calibration", |connection| calibration::read(connection, conversation.as_str()))
    }

    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        self.run("save_calibration", |connection| {
            calibration::write(connection, conversation.as_str(), &calibration)
        })
    }

    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        self.run("set_user", |connection| users::assign(connection, conversation.as_str(), user.as_str()))
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        self.run("user_conversations", |connection| users::of(connection, user.as_str()))
    }
}

/// Why an operation failed, before the operation's name is attached.
#[derive(Debug)]
enum Fail {
    /// SQLite reported an error.
    Sqlite(rusqlite::Error),
    /// A value cannot be stored, or a stored value is not one this store writes.
    Data(DataError),
    /// A failure that is already final: a conflict, an invalid state or a corrupt message.
    Store(StoreError),
}

impl Fail {
    fn named(self, operation: &'static str) -> StoreError {
        match self {
            Fail::Sqlite(error) => StoreError::backend(operation, error),
            Fail::Data(error) => StoreError::backend(operation, error),
            Fail::Store(error) => error,
        }
    }
}

impl From<rusqlite::Error> for Fail {
    fn from(error: rusqlite::Error) -> Self {
        Fail::Sqlite(error)
    }
}

impl From<rusqlite::types::FromSqlError> for Fail {
    fn from(error: rusqlite::types::FromSqlError) -> Self {
        Fail::Sqlite(error.into())
    }
}

impl From<DataError> for Fail {
    fn from(error: DataError) -> Self {
        Fail::Data(error)
    }
}

impl From<StoreError> for Fail {
    fn from(error: StoreError) -> Self {
        Fail::Store(error)
    }
}

/// The numbering and counters of one conversation.
#[derive(Clone, Copy, Debug)]
struct Counts {
    next_seq: Seq,
    stored: u64,
    stored_tokens: u64,
}

const SELECT_COUNTS: &str = "SELECT next_seq, stored, stored_tokens FROM conversations WHERE id = ?1";

const SELECT_GENERATION: &str = "SELECT generation FROM states WHERE conversation = ?1";

const SELECT_MARKS: &str = "SELECT generation, watermark, retained FROM states WHERE conversation = ?1";

const SELECT_STATE: &str =
    "SELECT generation, watermark, retained, summary FROM states WHERE conversation = ?1";

/// Write the counters of a conversation, creating its row if it has none yet.
const UPSERT_COUNTS: &str = "INSERT INTO conversations (id, next_seq, stored, stored_tokens)
     VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (id) DO UPDATE SET
         next_seq = excluded.next_seq, stored = excluded.stored, stored_tokens = excluded.stored_tokens";

/// Create the row of a conversation that has no messages yet, if it has none.
const ENSURE_CONVERSATION: &str = "INSERT INTO conversations (id, next_seq, stored, stored_tokens)
     VALUES (?1, 0, 0, 0) ON CONFLICT (id) DO NOTHING";

/// Write the compaction state of a conversation.
const UPSERT_STATE: &str = "INSERT INTO states (conversation, generation, watermark, retained, summary)
     VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (conversation) DO UPDATE SET
         generation = excluded.generation, watermark = excluded.watermark,
         retained = excluded.retained, summary = excluded.summary";

const INSERT_MESSAGE: &str = "INSERT INTO messages (conversation, seq, tokens, body) VALUES (?1, ?2, ?3, ?4)";

const SELECT_RANGE: &str = "SELECT seq, tokens, body FROM messages
     WHERE conversation = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq";

const SELECT_ONE: &str = "SELECT seq, tokens, body FROM messages WHERE conversation = ?1 AND seq = ?2";

fn append(
    connection: &mut Connection,
    caches: &Caches,
    conversation: &ConversationId,
    messages: Vec<NewMessage>,
) -> Result<SeqRange, Fail> {
    let id = conversation.as_str();
    if messages.is_empty() {
        // Appending nothing must not make an unknown conversation appear, so it only reads.
        let next = read_counts(connection, id)?.map_or(Seq::ZERO, |counts| counts.next_seq);
        return Ok(SeqRange::new(next, next));
    }
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let counts = read_counts(&transaction, id)?;
    let start = counts.map_or(Seq::ZERO, |counts| counts.next_seq);
    let added = u64::try_from(messages.len()).map_err(|_| DataError::Exhausted { column: "next_seq" })?;
    let end = start.0.checked_add(added).ok_or(DataError::Exhausted { column: "next_seq" })?;
    let tokens = messages.iter().try_fold(0u64, |sum, new| sum.checked_add(u64::from(new.tokens)));
    let tokens = tokens.ok_or(DataError::Exhausted { column: "stored_tokens" })?;
    let stored = counts.map_or(0, |counts| counts.stored).checked_add(added);
    let stored_tokens = counts.map_or(0, |counts| counts.stored_tokens).checked_add(tokens);
    transaction.prepare_cached(UPSERT_COUNTS)?.execute(params![
        id,
        to_sql(end, "next_seq")?,
        to_sql(stored.ok_or(DataError::Exhausted { column: "stored" })?, "stored")?,
        to_sql(stored_tokens.ok_or(DataError::Exhausted { column: "stored_tokens" })?, "stored_tokens")?,
    ])?;
    let mut written = Vec::with_capacity(messages.len());
    {
        let mut insert = transaction.prepare_cached(INSERT_MESSAGE)?;
        for (seq, new) in (start.0..end).zip(messages) {
            let json = new.message.to_json();
            let raw_seq = to_sql(seq, "seq")?;
            insert.execute(params![id, raw_seq, new.tokens, json])?;
            written.push((seq, CachedMessage { message: Arc::new(new.message), bytes: json.len() as u64 }));
        }
    }
    transaction.commit()?;
    // Only committed messages enter the cache, so a failed append leaves no trace there either.
    for (seq, cached) in written {
        caches.messages.insert((conversation.clone(), seq), cached);
    }
    Ok(SeqRange::new(start, Seq(end)))
}

fn load_range(
    connection: &Connection,
    caches: &Caches,
    conversation: &ConversationId,
    range: SeqRange,
) -> Result<Vec<StoredMessage>, Fail> {
    let Some((start, end)) = range_bounds(range) else { return Ok(Vec::new()) };
    let mut select = connection.prepare_cached(SELECT_RANGE)?;
    let mut rows = select.query(params![conversation.as_str(), start, end])?;
    let mut loaded = Vec::new();
    while let Some(message) = next_message(&mut rows, caches, conversation)? {
        loaded.push(message);
    }
    Ok(loaded)
}

fn load_seqs(
    connection: &mut Connection,
    caches: &Caches,
    conversation: &ConversationId,
    seqs: &[Seq],
) -> Result<Vec<StoredMessage>, Fail> {
    if seqs.is_empty() {
        return Ok(Vec::new());
    }
    // One read transaction, so that all the lookups see the same snapshot.
    let transaction = connection.transaction()?;
    let mut loaded = Vec::with_capacity(seqs.len());
    {
        let mut select = transaction.prepare_cached(SELECT_ONE)?;
        // A number beyond SQLite's integers was never stored, so it is skipped like any missing one.
        for seq in seqs.iter().filter_map(|seq| i64::try_from(seq.0).ok()) {
            let mut rows = select.query(params![conversation.as_str(), seq])?;
            if let Some(message) = next_message(&mut rows, caches, conversation)? {
                loaded.push(message);
            }
        }
    }
    transaction.commit()?;
    Ok(loaded)
}

fn clear(connection: &mut Connection, caches: &Caches, id: &str) -> Result<(), Fail> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // A calibration may exist without the conversation's row.
    calibration::clear(&transaction, id)?;
    users::clear(&transaction, id)?;
    // Clearing an unknown conversation must not create it.
    let Some(counts) = read_counts(&transaction, id)? else {
        transaction.commit()?;
        return Ok(());
    };
    let current = read_generation(&transaction, id)?.unwrap_or(0);
    let generation = current.checked_add(1).ok_or(DataError::Exhausted { column: "generation" })?;
    transaction.prepare_cached("DELETE FROM messages WHERE conversation = ?1")?.execute(params![id])?;
    recall::clear(&transaction, caches, id)?;
    transaction
        .prepare_cached("UPDATE conversations SET stored = 0, stored_tokens = 0 WHERE id = ?1")?
        .execute(params![id])?;
    // The watermark moves up to `next_seq`: the numbers are never handed out
    // again, and a compaction that read the old generation cannot save.
    transaction.prepare_cached(UPSERT_STATE)?.execute(params![
        id,
        to_sql(generation, "generation")?,
        to_sql(counts.next_seq.0, "watermark")?,
        "[]",
        Option::<String>::None,
    ])?;
    // The history before the clear goes with the messages it described.
    history::clear(&transaction, id)?;
    let cleared = CompactionState::new(counts.next_seq, Vec::new(), None);
    let epoch = Epoch::new(generation, EpochKind::Cleared, None, counts.next_seq, now_ms(), cleared);
    history::record(&transaction, id, &epoch)?;
    transaction.commit()?;
    Ok(())
}

fn save_state(
    connection: &mut Connection,
    caches: &Caches,
    conversation: &ConversationId,
    expected_generation: u64,
    mut state: CompactionState,
) -> Result<CompactionState, Fail> {
    let id = conversation.as_str();
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // An unknown conversation is checked against the default state, and its
    // row only appears if the save succeeds, so a refused save leaves no trace.
    // The rules only look at the generation and the watermark, so the stored
    // summary is not decoded here.
    let next_seq = read_counts(&transaction, id)?.map_or(Seq::ZERO, |counts| counts.next_seq);
    let current = read_marks(&transaction, id)?.unwrap_or_default();
    if current.generation != expected_generation {
        return Err(
            StoreError::StateConflict { expected: expected_generation, found: current.generation }.into()
        );
    }
    check_state(&current, next_seq, &state)?;
    let generation =
        expected_generation.checked_add(1).ok_or(DataError::Exhausted { column: "generation" })?;
    transaction.prepare_cached(ENSURE_CONVERSATION)?.execute(params![id])?;
    state.generation = generation;
    let undo_to = (expected_generation > 0).then_some(expected_generation);
    let epoch = Epoch::new(generation, EpochKind::Saved, undo_to, next_seq, now_ms(), state.clone());
    history::save(&transaction, id, &epoch)?;
    transaction.commit()?;
    // The next read of this state finds it by its generation instead of decoding it.
    caches.states.insert(conversation.clone(), Arc::new(state.clone()));
    Ok(state)
}

fn prune(connection: &mut Connection, caches: &Caches, id: &str) -> Result<u64, Fail> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let Some(counts) = read_counts(&transaction, id)? else { return Ok(0) };
    let state = read_marks(&transaction, id)?.unwrap_or_default();
    if state.watermark == Seq::ZERO {
        return Ok(0);
    }
    let (mut deleted, mut tokens) = (0u64, 0u64);
    {
        // The retained numbers go in as a JSON array, which SQLite's json_each
        // turns into a set: one statement however many there are.
        let mut delete = transaction.prepare_cached(
            "DELETE FROM messages
             WHERE conversation = ?1 AND seq < ?2 AND seq NOT IN (SELECT value FROM json_each(?3))
             RETURNING tokens",
        )?;
        let mut rows = delete.query(params![
            id,
            to_sql(state.watermark.0, "watermark")?,
            to_json(&state.retained, "retained")?
        ])?;
        while let Some(row) = rows.next()? {
            deleted += 1;
            let counted = from_sql::<u32>(row.get(0)?, "tokens")?;
            tokens = tokens
                .checked_add(u64::from(counted))
                .ok_or(DataError::Inconsistent { column: "stored_tokens" })?;
        }
    }
    if deleted > 0 {
        recall::prune(
            &transaction,
            caches,
            id,
            to_sql(state.watermark.0, "watermark")?,
            &to_json(&state.retained, "retained")?,
        )?;
        let stored = counts.stored.checked_sub(deleted);
        let stored_tokens = counts.stored_tokens.checked_sub(tokens);
        transaction
            .prepare_cached("UPDATE conversations SET stored = ?2, stored_tokens = ?3 WHERE id = ?1")?
            .execute(params![
                id,
                to_sql(stored.ok_or(DataError::Inconsistent { column: "stored" })?, "stored")?,
                to_sql(
                    stored_tokens.ok_or(DataError::Inconsistent { column: "stored_tokens" })?,
                    "stored_tokens"
                )?,
            ])?;
    }
    transaction.commit()?;
    Ok(deleted)
}

fn read_counts(connection: &Connection, id: &str) -> Result<Option<Counts>, Fail> {
    let mut select = connection.prepare_cached(SELECT_COUNTS)?;
    let raw = select.query_row(params![id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?))).optional()?;
    raw.map(|(next_seq, stored, stored_tokens): (i64, i64, i64)| {
        Ok(Counts {
            next_seq: Seq(from_sql(next_seq, "next_seq")?),
            stored: from_sql(stored, "stored")?,
            stored_tokens: from_sql(stored_tokens, "stored_tokens")?,
        })
    })
    .transpose()
}

fn read_generation(connection: &Connection, id: &str) -> Result<Option<u64>, Fail> {
    let mut select = connection.prepare_cached(SELECT_GENERATION)?;
    let raw: Option<i64> = select.query_row(params![id], |row| row.get(0)).optional()?;
    Ok(raw.map(|generation| from_sql(generation, "generation")).transpose()?)
}

/// The generation, watermark and retained numbers of a conversation's state, without its summary.
fn read_marks(connection: &Connection, id: &str) -> Result<Option<CompactionState>, Fail> {
    let mut select = connection.prepare_cached(SELECT_MARKS)?;
    let mut rows = select.query(params![id])?;
    let Some(row) = rows.next()? else { return Ok(None) };
    let retained: Vec<Seq> = from_json(row.get_ref(2)?.as_str()?, "retained")?;
    let mut state = CompactionState::new(Seq(from_sql(row.get(1)?, "watermark")?), retained, None);
    state.generation = from_sql(row.get(0)?, "generation")?;
    Ok(Some(state))
}

/// The compaction state of a conversation, if it has a state row.
fn read_state_row(connection: &Connection, id: &str) -> Result<Option<CompactionState>, Fail> {
    let mut select = connection.prepare_cached(SELECT_STATE)?;
    let mut rows = select.query(params![id])?;
    let Some(row) = rows.next()? else { return Ok(None) };
    let retained: Vec<Seq> = from_json(row.get_ref(2)?.as_str()?, "retained")?;
    let summary: Option<StoredSummary> =
        row.get_ref(3)?.as_str_or_null()?.map(|json| from_json(json, "summary")).transpose()?;
    let mut state = CompactionState::new(Seq(from_sql(row.get(1)?, "watermark")?), retained, summary);
    state.generation = from_sql(row.get(0)?, "generation")?;
    Ok(Some(state))
}

/// The state of a conversation, decoded again only when its generation moved since the last read.
fn cached_state(
    connection: &Connection,
    caches: &Caches,
    conversation: &ConversationId,
) -> Result<CompactionState, Fail> {
    let id = conversation.as_str();
    let Some(generation) = read_generation(connection, id)? else { return Ok(CompactionState::default()) };
    if let Some(cached) = caches.states.get(conversation)
        && cached.generation == generation
    {
        return Ok(CompactionState::clone(&cached));
    }
    let state = read_state_row(connection, id)?.unwrap_or_default();
    caches.states.insert(conversation.clone(), Arc::new(state.clone()));
    Ok(state)
}

/// The next `(seq, tokens, body)` row as a stored message, decoding the body only when the cache lacks it.
fn next_message(
    rows: &mut Rows<'_>,
    caches: &Caches,
    conversation: &ConversationId,
) -> Result<Option<StoredMessage>, Fail> {
    let Some(row) = rows.next()? else { return Ok(None) };
    let raw_seq: u64 = from_sql(row.get(0)?, "seq")?;
    let seq = Seq(raw_seq);
    let tokens = from_sql(row.get(1)?, "tokens")?;
    let key = (conversation.clone(), raw_seq);
    if let Some(cached) = caches.messages.get(&key) {
        return Ok(Some(StoredMessage::new(seq, tokens, cached.message)));
    }
    let body = row.get_ref(2)?.as_bytes()?;
    let message = match std::str::from_utf8(body) {
        Ok(json) => Message::from_json(json),
        // SQLite does not check that text is UTF-8. Parsing the raw bytes fails
        // too, with a JSON error that names the place of the bad byte.
        Err(_) => serde_json::from_slice(body).map_err(|source| DecodeError::Json { source }),
    };
    let message = Arc::new(message.map_err(|source| StoreError::Corrupt { seq, source })?);
    caches.messages.insert(key, CachedMessage { message: Arc::clone(&message), bytes: body.len() as u64 });
    Ok(Some(StoredMessage::new(seq, tokens, message)))
}

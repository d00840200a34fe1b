//! [`PostgresStore`]: conversations and facts in one PostgreSQL database that many agent processes share.

mod calibration;
mod facts;
mod history;
mod lease;
mod recall;
mod schema;
mod users;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, PoolError, RecyclingMethod};
use tidemark_core::error::BoxError;
use tidemark_core::history::{Epoch, EpochKind, now_ms};
use tidemark_core::recall::{Embedder, Passage, RecallQuery};
use tidemark_core::store::{ConversationStats, Lease, StoredSummary, check_state};
use tidemark_core::{
    Calibration, CompactionState, ConversationId, ConversationStore, FactBudgets, FactError, Message,
    NewMessage, Seq, SeqRange, StoreError, StoredMessage,
};
use tokio_postgres::NoTls;
use tokio_postgres::types::ToSql;

use tidemark_core::store::sql::{DataError, from_json, from_sql, range_bounds, to_json, to_sql};

/// How a [`PostgresStore`] connects: the size of its pool and the schema its tables live in.
///
/// ```
/// use tidemark_postgres::PostgresOptions;
///
/// let options = PostgresOptions::default().with_pool_size(4).with_schema("agents_eu");
/// assert_eq!((options.pool_size, options.schema.as_str()), (4, "agents_eu"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PostgresOptions {
    /// The most connections the store opens at once (default 16); calls beyond it wait for a free one.
    pub pool_size: usize,
    /// The schema that holds every table (default `tidemark`).
    ///
    /// ASCII letters, digits and underscores only, at most 63 characters, not
    /// starting with a digit. The name is used as written (it is quoted in SQL),
    /// so `Agents` and `agents` are two schemas.
    pub schema: String,
}

impl Default for PostgresOptions {
    fn default() -> Self {
        Self { pool_size: 16, schema: "tidemark".to_owned() }
    }
}

impl PostgresOptions {
    /// The same options with a pool of at most `pool_size` connections.
    #[must_use]
    pub fn with_pool_size(mut self, pool_size: usize) -> Self {
        self.pool_size = pool_size;
        self
    }

    /// The same options with the tables in `schema`.
    #[must_use]
    pub fn with_schema(mut self, schema: impl Into<String>) -> Self {
        self.schema = schema.into();
        self
    }
}

/// Why [`PostgresStore::connect_with`] refused its options or the server before touching any data.
///
/// It reaches callers as the source of a [`StoreError::Backend`] whose
/// operation is `"connect"`; downcast the source to tell it apart from a
/// connection failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PostgresConfigError {
    /// The schema name is not one the store accepts.
    #[error("schema name {name:?} is not valid: {reason}")]
    SchemaName {
        /// The name given.
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// A pool of no connections could never serve a call.
    #[error("the connection pool must hold at least one connection")]
    EmptyPool,
    /// The database does not store text as UTF-8, which conversation ids and messages need.
    #[error("the database encoding is {0}, but the store needs UTF8")]
    Encoding(String),
}

/// A [`ConversationStore`] and [`FactStore`](tidemark_core::FactStore) in a PostgreSQL database, shared by every process that connects to it.
///
/// # Tables
///
/// Every table lives in one schema ([`PostgresOptions::schema`], `tidemark`
/// by default), created on first connect: `conversations` (numbering and
/// counters), `states` (each conversation's compaction state), `messages`
/// (token count and tidemark's JSON of each message, see
/// [`Message::to_json`]), `passages` (the recall index, with embeddings under a
/// model), `calibrations`, `conversation_users` (each conversation's user, see
/// [`ConversationStore::set_user`]), `leases` (who may compact which
/// conversation, until when), the facts tables (`facts`, `fact_meta`,
/// `fact_runs`, `fact_rollback`), and `tidemark_schema` with the schema
/// version. Connecting applies missing migrations in one transaction under an
/// advisory lock, so processes that start together do not race; a schema
/// written by a newer build is refused with [`StoreError::SchemaTooNew`] and
/// left untouched.
///
/// # Concurrency
///
/// Each method is one statement or one transaction. Every write to a
/// conversation locks its `conversations` row first, so appends from many
/// processes get gap-free numbers in commit order, and `save_state` is a
/// compare-and-swap on the stored generation. Fact writes take the lock of the
/// fact generation counter first (every change raises it anyway), so they run
/// one at a time across all processes and a budget check stays true until its
/// write commits. Compaction leases are kept on the server's clock, never the
/// caller's. A search under a model writes only the vectors it had to make,
/// skipping locked rows, so it never waits ([`PostgresStore::with_embedder`]).
///
/// # Connections
///
/// The store holds a pool of connections (16 by default) and is cheap to
/// clone: clones share the pool. Connections run on the Tokio runtime that
/// opens them, so use a store within one runtime. TLS is not supported yet:
/// connect to a server on a trusted network or through a local socket tunnel.
///
/// # Example
///
/// ```no_run
/// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage};
/// use tidemark_postgres::PostgresStore;
///
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// let store = PostgresStore::connect("postgres://agent@db.internal/memory").await?;
/// let id = ConversationId::new("support/4711")?;
/// store.append(&id, vec![NewMessage::new(Message::user("Where is my parcel?"), 6)]).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
    schema: Arc<str>,
    /// The schema name in double quotes, as it goes into SQL.
    quoted: Arc<str>,
    fact_budgets: FactBudgets,
    /// The model that places passages by meaning, if recall by meaning is on (see [`PostgresStore::with_embedder`]).
    embedder: Option<Arc<dyn Embedder>>,
}

impl fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The pool knows the connection settings; only what cannot hold a secret is shown.
        let status = self.pool.status();
        f.debug_struct("PostgresStore")
            .field("schema", &self.schema)
            .field("pool_size", &status.max_size)
            .field("connections", &status.size)
            .field("fact_budgets", &self.fact_budgets)
            .field("embedder", &self.embedder.as_ref().map(|embedder| embedder.name()))
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connect to the database at `url` with the default [`PostgresOptions`], creating and migrating the schema.
    ///
    /// `url` is a libpq connection string or URL, such as
    /// `postgres://user:password@host:5432/database`.
    ///
    /// # Errors
    ///
    /// As [`connect_with`](Self::connect_with).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, PostgresOptions::default()).await
    }

    /// Connect to the database at `url` with `options`, creating the schema if it is missing and applying migrations.
    ///
    /// # Errors
    ///
    /// Returns [`StoreError::SchemaTooNew`] for a schema written by a newer build
    /// (nothing is changed), and [`StoreError::Backend`] (operation `"connect"`)
    /// when the URL cannot be parsed, the server cannot be reached, the
    /// migration fails, or the options are refused (its source is then a
    /// [`PostgresConfigError`]).
    pub async fn connect_with(url: &str, options: PostgresOptions) -> Result<Self, StoreError> {
        let fail = |error: BoxError| StoreError::Backend { operation: "connect", source: error };
        schema::check_name(&options.schema).map_err(|error| fail(error.into()))?;
        if options.pool_size == 0 {
            return Err(fail(PostgresConfigError::EmptyPool.into()));
        }
        let config: tokio_postgres::Config = url.parse().map_err(|error| fail(Box::new(error)))?;
        let manager =
            Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(options.pool_size)
            .build()
            .map_err(|error| fail(Box::new(error)))?;
        let quoted = schema::quote(&options.schema);
        let mut client = pool.get().await.map_err(|error| fail(pool_error(error)))?;
        schema::migrate(&mut client, &options.schema, &quoted).await?;
        drop(client);
        Ok(Self {
            pool,
            schema: options.schema.into(),
            quoted: quoted.into(),
            fact_budgets: FactBudgets::default(),
            embedder: None,
        })
    }

    /// The schema that holds this store's tables.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// `template` with every `{s}` replaced by the quoted schema name.
    fn sql(&self, template: &str) -> String {
        template.replace("{s}", &self.quoted)
    }

    /// A connection from the pool.
    async fn client(&self) -> Result<deadpool_postgres::Client, BoxError> {
        self.pool.get().await.map_err(pool_error)
    }
}

/// A pool failure as the error that caused it: a connection error stays a [`tokio_postgres::Error`].
fn pool_error(error: PoolError) -> BoxError {
    match error {
        PoolError::Backend(error) => Box::new(error),
        other => Box::new(other),
    }
}

/// Why an operation failed, before the operation's name is attached.
#[derive(Debug)]
enum Fail<E> {
    /// The database, the pool or a stored value failed; it becomes a `Backend` error.
    Backend(BoxError),
    /// A failure that is already final: a conflict, an invalid state, a missing fact.
    Final(E),
}

impl<E> From<tokio_postgres::Error> for Fail<E> {
    fn from(error: tokio_postgres::Error) -> Self {
        Self::Backend(Box::new(error))
    }
}

impl<E> From<BoxError> for Fail<E> {
    fn from(error: BoxError) -> Self {
        Self::Backend(error)
    }
}

impl<E> From<DataError> for Fail<E> {
    fn from(error: DataError) -> Self {
        Self::Backend(Box::new(error))
    }
}

impl From<StoreError> for Fail<StoreError> {
    fn from(error: StoreError) -> Self {
        Self::Final(error)
    }
}

impl From<FactError> for Fail<FactError> {
    fn from(error: FactError) -> Self {
        Self::Final(error)
    }
}

impl Fail<StoreError> {
    fn named(self, operation: &'static str) -> StoreError {
        match self {
            Self::Backend(source) => StoreError::Backend { operation, source },
            Self::Final(error) => error,
        }
    }
}

impl Fail<FactError> {
    fn named(self, operation: &'static str) -> FactError {
        match self {
            Self::Backend(source) => FactError::Backend { operation, source },
            Self::Final(error) => error,
        }
    }
}

/// Run `template` (with the schema filled in) as a cached prepared statement and return its rows.
async fn query<C: GenericClient>(
    client: &C,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
    let statement = client.prepare_cached(sql).await?;
    client.query(&statement, params).await
}

/// [`query`] for a statement that returns at most one row.
async fn query_opt<C: GenericClient>(
    client: &C,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<tokio_postgres::Row>, tokio_postgres::Error> {
    let statement = client.prepare_cached(sql).await?;
    client.query_opt(&statement, params).await
}

/// [`query`] for a statement whose rows are not needed; returns how many rows it touched.
async fn execute<C: GenericClient>(
    client: &C,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64, tokio_postgres::Error> {
    let statement = client.prepare_cached(sql).await?;
    client.execute(&statement, params).await
}

/// Append the messages in one statement: the upsert of the counters row locks it (and so
/// orders concurrent appenders by commit), hands out the numbers, and the messages follow
/// from two arrays and their passages from six (the message's place in the batch, then
/// the passage's columns, its terms joined by spaces, its embedding) and the model's name,
/// so a batch of any size costs one round trip and its recall index is written with it.
const APPEND: &str = "WITH counted AS (
        INSERT INTO {s}.conversations AS c (id, next_seq, stored, stored_tokens)
        VALUES ($1, $2, $2, $3)
        ON CONFLICT (id) DO UPDATE SET
            next_seq = c.next_seq + EXCLUDED.next_seq,
            stored = c.stored + EXCLUDED.stored,
            stored_tokens = c.stored_tokens + EXCLUDED.stored_tokens
        RETURNING c.next_seq - $2 AS start
    ), inserted AS (
        INSERT INTO {s}.messages (conversation, seq, tokens, body)
        SELECT $1, counted.start + m.position - 1, m.tokens, m.body
        FROM counted, unnest($4::bigint[], $5::text[]) WITH ORDINALITY AS m (tokens, body, position)
    ), indexed AS (
        INSERT INTO {s}.passages (conversation, seq, idx, role, text, terms, embedding, embedder)
        SELECT $1, counted.start + p.position - 1, p.idx, p.role, p.text, string_to_array(p.terms, ' '),
            p.embedding, $12::text
        FROM counted, unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::bytea[])
            AS p (position, idx, role, text, terms, embedding)
    )
    SELECT start FROM counted";

const SELECT_COUNTS: &str = "SELECT next_seq, stored, stored_tokens FROM {s}.conversations WHERE id = $1";

const SELECT_RANGE: &str = "SELECT seq, tokens, body FROM {s}.messages
     WHERE conversation = $1 AND seq >= $2 AND seq < $3 ORDER BY seq";

const SELECT_SEQS: &str = "SELECT seq, tokens, body FROM {s}.messages
     WHERE conversation = $1 AND seq = ANY ($2::bigint[])";

/// The conversation's numbering and state, its counters row locked: every writer of a conversation takes this lock first.
const LOCK_CONVERSATION: &str = "SELECT c.next_seq, s.generation, s.watermark, s.retained
     FROM {s}.conversations c LEFT JOIN {s}.states s ON s.conversation = c.id
     WHERE c.id = $1 FOR UPDATE OF c";

const SELECT_STATE: &str =
    "SELECT generation, watermark, retained, summary FROM {s}.states WHERE conversation = $1";

const SELECT_GENERATION: &str = "SELECT generation FROM {s}.states WHERE conversation = $1";

const CLEAR_MESSAGES: &str = "WITH deleted AS (DELETE FROM {s}.messages WHERE conversation = $1),
         unindexed AS (DELETE FROM {s}.passages WHERE conversation = $1)
     UPDATE {s}.conversations SET stored = 0, stored_tokens = 0 WHERE id = $1";

/// The state after a clear: the watermark moves up to `next_seq` and the generation advances.
const CLEAR_STATE: &str =
    "INSERT INTO {s}.states AS st (conversation, generation, watermark, retained, summary)
     VALUES ($1, 1, $2, '{}', NULL)
     ON CONFLICT (conversation) DO UPDATE SET
         generation = st.generation + 1, watermark = EXCLUDED.watermark, retained = '{}', summary = NULL
     RETURNING generation";

const ENSURE_CONVERSATION: &str = "INSERT INTO {s}.conversations (id, next_seq, stored, stored_tokens)
     VALUES ($1, 0, 0, 0) ON CONFLICT (id) DO NOTHING";

/// Write a state if the stored generation is still the expected one (`$6`); no row comes back otherwise.
const SAVE_STATE: &str =
    "INSERT INTO {s}.states AS st (conversation, generation, watermark, retained, summary)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (conversation) DO UPDATE SET
         generation = EXCLUDED.generation, watermark = EXCLUDED.watermark,
         retained = EXCLUDED.retained, summary = EXCLUDED.summary
     WHERE st.generation = $6
     RETURNING generation";

/// Delete the demoted messages that are not retained and take them off the counters.
const PRUNE: &str = "WITH deleted AS (
        DELETE FROM {s}.messages
        WHERE conversation = $1 AND seq < $2 AND seq <> ALL ($3::bigint[])
        RETURNING tokens
    ), unindexed AS (
        DELETE FROM {s}.passages WHERE conversation = $1 AND seq < $2 AND seq <> ALL ($3::bigint[])
    ), counted AS (
        SELECT count(*) AS n, coalesce(sum(tokens), 0)::bigint AS t FROM deleted
    ), updated AS (
        UPDATE {s}.conversations SET stored = stored - counted.n, stored_tokens = stored_tokens - counted.t
        FROM counted WHERE id = $1 AND counted.n > 0
    )
    SELECT n FROM counted";

impl ConversationStore for PostgresStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        self.append_messages(conversation, messages).await.map_err(|fail| fail.named("append"))
    }

    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.load_range_of(conversation, range).await.map_err(|fail| fail.named("load_range"))
    }

    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.load_seqs_of(conversation, seqs).await.map_err(|fail| fail.named("load_seqs"))
    }

    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        let stats = async {
            let client = self.client().await?;
            let counts = read_counts(&client, &self.sql(SELECT_COUNTS), conversation.as_str()).await?;
            Ok::<_, Fail<StoreError>>(counts.unwrap_or_default())
        };
        stats.await.map_err(|fail| fail.named("stats"))
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.clear_conversation(conversation).await.map_err(|fail| fail.named("clear"))
    }

    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        self.read_state(conversation).await.map_err(|fail| fail.named("state"))
    }

    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        self.write_state(conversation, expected_generation, state)
            .await
            .map_err(|fail| fail.named("save_state"))
    }

    async fn epochs(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        let read = async {
            let client = self.client().await?;
            history::all(self, &client, conversation.as_str()).await
        };
        read.await.map_err(|fail| fail.named("epochs"))
    }

    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        self.restore_epoch(conversation, expected_generation, target)
            .await
            .map_err(|fail| fail.named("restore_state"))
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        self.fork_conversation(source, at, target).await.map_err(|fail| fail.named("fork"))
    }

    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        self.prune_conversation(conversation).await.map_err(|fail| fail.named("prune"))
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        users::all(self).await.map_err(|fail| fail.named("conversations"))
    }

    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        self.claim_lease(conversation, holder, ttl).await.map_err(|fail| fail.named("try_lease"))
    }

    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        self.release(conversation, holder).await.map_err(|fail| fail.named("release_lease"))
    }

    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        recall::search(self, conversation, query).await.map_err(|fail| fail.named("search_passages"))
    }

    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        calibration::read(self, conversation).await.map_err(|fail| fail.named("calibration"))
    }

    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        calibration::write(self, conversation, &calibration)
            .await
            .map_err(|fail| fail.named("save_calibration"))
    }

    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        users::assign(self, conversation, user).await.map_err(|fail| fail.named("set_user"))
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        users::of(self, user).await.map_err(|fail| fail.named("user_conversations"))
    }
}

type StoreFail = Fail<StoreError>;

impl PostgresStore {
    async fn append_messages(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreFail> {
        let id = conversation.as_str();
        let client = self.client().await?;
        if messages.is_empty() {
            // Appending nothing must not make an unknown conversation appear, so it only reads.
            let counts = read_counts(&client, &self.sql(SELECT_COUNTS), id).await?;
            let next = counts.map_or(Seq::ZERO, |counts| counts.next_seq);
            return Ok(SeqRange::new(next, next));
        }
        let added = to_sql(messages.len() as u64, "next_seq")?;
        let tokens: Vec<i64> = messages.iter().map(|new| i64::from(new.tokens)).collect();
        let total = tokens.iter().try_fold(0i64, |sum, tokens| sum.checked_add(*tokens));
        let total = total.ok_or(DataError::Exhausted { column: "stored_tokens" })?;
        let bodies: Vec<String> = messages.iter().map(|new| new.message.to_json()).collect();
        let cut = recall::Columns::of(&messages, self.embedder.as_deref());
        let row = query_opt(
            &client,
            &self.sql(APPEND),
            &[
                &id,
                &added,
                &total,
                &tokens,
                &bodies,
                &cut.positions,
                &cut.indices,
                &cut.roles,
                &cut.texts,
                &cut.terms,
                &cut.embeddings,
                &cut.embedder,
            ],
        )
        .await?;
        let start: i64 = row.ok_or(DataError::Exhausted { column: "next_seq" })?.try_get(0)?;
        let start: u64 = from_sql(start, "next_seq")?;
        Ok(SeqRange::new(Seq(start), Seq(start).after(messages.len() as u64)))
    }

    async fn load_range_of(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreFail> {
        let Some((start, end)) = range_bounds(range) else { return Ok(Vec::new()) };
        let client = self.client().await?;
        let rows = query(&client, &self.sql(SELECT_RANGE), &[&conversation.as_str(), &start, &end]).await?;
        rows.iter().map(message_from_row).collect()
    }

    async fn load_seqs_of(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreFail> {
        // A number beyond PostgreSQL's integers was never stored, so it is skipped like any missing one.
        let wanted: Vec<i64> = seqs.iter().filter_map(|seq| i64::try_from(seq.0).ok()).collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.client().await?;
        let rows = query(&client, &self.sql(SELECT_SEQS), &[&conversation.as_str(), &wanted]).await?;
        let mut found = HashMap::with_capacity(rows.len());
        for row in &rows {
            let message = message_from_row(row)?;
            found.insert(message.seq, message);
        }
        // The answer follows the order of the request, as the other stores' does.
        Ok(seqs.iter().filter_map(|seq| found.get(seq).cloned()).collect())
    }

    async fn clear_conversation(&self, conversation: &ConversationId) -> Result<(), StoreFail> {
        let id = conversation.as_str();
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        // A calibration may exist without the conversation's row.
        calibration::clear(self, &transaction, id).await?;
        users::clear(self, &transaction, id).await?;
        // Clearing an unknown conversation must not create it.
        let Some(row) = query_opt(&transaction, &self.sql(LOCK_CONVERSATION), &[&id]).await? else {
            transaction.commit().await?;
            return Ok(());
        };
        let next_seq: i64 = row.try_get(0)?;
        execute(&transaction, &self.sql(CLEAR_MESSAGES), &[&id]).await?;
        // The numbers are never handed out again, and a compaction that read the old generation cannot save.
        let cleared = query_opt(&transaction, &self.sql(CLEAR_STATE), &[&id, &next_seq]).await?;
        let generation: i64 = cleared.map(|row| row.try_get(0)).transpose()?.unwrap_or(1);
        // The history before the clear goes with the messages it described.
        history::clear(self, &transaction, id).await?;
        let next_seq = Seq(from_sql(next_seq, "next_seq")?);
        let state = CompactionState::new(next_seq, Vec::new(), None);
        let epoch = Epoch::new(
            from_sql(generation, "generation")?,
            EpochKind::Cleared,
            None,
            next_seq,
            now_ms(),
            state,
        );
        history::record(self, &transaction, id, &epoch).await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn read_state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreFail> {
        let client = self.client().await?;
        let Some(row) = query_opt(&client, &self.sql(SELECT_STATE), &[&conversation.as_str()]).await? else {
            return Ok(CompactionState::default());
        };
        let summary: Option<StoredSummary> =
            row.try_get::<_, Option<&str>>(3)?.map(|json| from_json(json, "summary")).transpose()?;
        let mut state = CompactionState::new(
            Seq(from_sql(row.try_get(1)?, "watermark")?),
            seqs_from_sql(row.try_get(2)?)?,
            summary,
        );
        state.generation = from_sql(row.try_get(0)?, "generation")?;
        Ok(state)
    }

    async fn write_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        mut state: CompactionState,
    ) -> Result<CompactionState, StoreFail> {
        let id = conversation.as_str();
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        // An unknown conversation is checked against the default state, and its
        // row only appears if the save succeeds, so a refused save leaves no trace.
        let locked = query_opt(&transaction, &self.sql(LOCK_CONVERSATION), &[&id]).await?;
        let (next_seq, current) = match &locked {
            Some(row) => (Seq(from_sql(row.try_get(0)?, "next_seq")?), marks_from_row(row)?),
            None => (Seq::ZERO, CompactionState::default()),
        };
        if current.generation != expected_generation {
            return Err(StoreError::StateConflict {
                expected: expected_generation,
                found: current.generation,
            }
            .into());
        }
        check_state(&current, next_seq, &state)?;
        let generation =
            expected_generation.checked_add(1).ok_or(DataError::Exhausted { column: "generation" })?;
        let summary = state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
        if locked.is_none() {
            execute(&transaction, &self.sql(ENSURE_CONVERSATION), &[&id]).await?;
        }
        let written = query_opt(
            &transaction,
            &self.sql(SAVE_STATE),
            &[
                &id,
                &to_sql(generation, "generation")?,
                &to_sql(state.watermark.0, "watermark")?,
                &seqs_to_sql(&state.retained)?,
                &summary,
                &to_sql(expected_generation, "generation")?,
            ],
        )
        .await?;
        if written.is_none() {
            // Another process saved a first state for this conversation since the read above.
            let found = query_opt(&transaction, &self.sql(SELECT_GENERATION), &[&id]).await?;
            let found = found.map(|row| row.try_get(0)).transpose()?.unwrap_or(0i64);
            let found = from_sql(found, "generation")?;
            return Err(StoreError::StateConflict { expected: expected_generation, found }.into());
        }
        state.generation = generation;
        let undo_to = (expected_generation > 0).then_some(expected_generation);
        let epoch = Epoch::new(generation, EpochKind::Saved, undo_to, next_seq, now_ms(), state.clone());
        history::insert(self, &transaction, id, &epoch, summary.as_deref()).await?;
        transaction.commit().await?;
        Ok(state)
    }

    async fn prune_conversation(&self, conversation: &ConversationId) -> Result<u64, StoreFail> {
        let id = conversation.as_str();
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        let Some(row) = query_opt(&transaction, &self.sql(LOCK_CONVERSATION), &[&id]).await? else {
            return Ok(0);
        };
        let state = marks_from_row(&row)?;
        if state.watermark == Seq::ZERO {
            return Ok(0);
        }
        let row = query_opt(
            &transaction,
            &self.sql(PRUNE),
            &[&id, &to_sql(state.watermark.0, "watermark")?, &seqs_to_sql(&state.retained)?],
        )
        .await?;
        let deleted: i64 = row.map(|row| row.try_get(0)).transpose()?.unwrap_or(0);
        transaction.commit().await?;
        Ok(from_sql(deleted, "stored")?)
    }
}

/// The counters of a conversation, `None` when it has no row.
async fn read_counts<C: GenericClient>(
    client: &C,
    sql: &str,
    id: &str,
) -> Result<Option<ConversationStats>, StoreFail> {
    let Some(row) = query_opt(client, sql, &[&id]).await? else { return Ok(None) };
    Ok(Some(ConversationStats::new(
        Seq(from_sql(row.try_get(0)?, "next_seq")?),
        from_sql(row.try_get(1)?, "stored")?,
        from_sql(row.try_get(2)?, "stored_tokens")?,
    )))
}

/// The generation, watermark and retained numbers of a [`LOCK_CONVERSATION`] row (the default state without a state row).
fn marks_from_row(row: &tokio_postgres::Row) -> Result<CompactionState, StoreFail> {
    let Some(generation) = row.try_get::<_, Option<i64>>(1)? else { return Ok(CompactionState::default()) };
    let watermark: Option<i64> = row.try_get(2)?;
    let retained: Option<Vec<i64>> = row.try_get(3)?;
    let mut state = CompactionState::new(
        Seq(from_sql(watermark.unwrap_or(0), "watermark")?),
        seqs_from_sql(retained.unwrap_or_default())?,
        None,
    );
    state.generation = from_sql(generation, "generation")?;
    Ok(state)
}

/// A `(seq, tokens, body)` row as a stored message.
fn message_from_row(row: &tokio_postgres::Row) -> Result<StoredMessage, StoreFail> {
    let seq = Seq(from_sql(row.try_get(0)?, "seq")?);
    let tokens = from_sql(row.try_get(1)?, "tokens")?;
    let message =
        Message::from_json(row.try_get(2)?).map_err(|source| StoreError::Corrupt { seq, source })?;
    Ok(StoredMessage::new(seq, tokens, message))
}

fn seqs_to_sql(seqs: &[Seq]) -> Result<Vec<i64>, DataError> {
    seqs.iter().map(|seq| to_sql(seq.0, "retained")).collect()
}

fn seqs_from_sql(raw: Vec<i64>) -> Result<Vec<Seq>, DataError> {
    raw.into_iter().map(|seq| from_sql(seq, "retained").map(Seq)).collect()
}

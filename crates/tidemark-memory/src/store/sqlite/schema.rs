//! The SQLite store's schema versions and the migrations that bring a file up to the newest one.
//!
//! The version lives in `PRAGMA user_version`. Step `n` of [`MIGRATIONS`]
//! takes a file from version `n` to version `n + 1`; released steps are never
//! edited, so a schema change is always a new step at the end of the list.

use rusqlite::{Connection, TransactionBehavior};
use tidemark_core::StoreError;

use tidemark_core::store::sql::DataError;

/// The schema steps, oldest first.
const MIGRATIONS: &[&str] = &[
    // Version 1: one row per conversation for its numbering and counters, one
    // row per conversation for its compaction state (kept apart so that an
    // append never rewrites the summary), and one row per stored message.
    // STRICT makes SQLite refuse values of the wrong type instead of
    // converting them quietly.
    "CREATE TABLE conversations (
        id            TEXT    NOT NULL PRIMARY KEY,
        next_seq      INTEGER NOT NULL,
        stored        INTEGER NOT NULL,
        stored_tokens INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE states (
        conversation TEXT    NOT NULL PRIMARY KEY REFERENCES conversations (id),
        generation   INTEGER NOT NULL,
        watermark    INTEGER NOT NULL,
        retained     TEXT    NOT NULL,
        summary      TEXT
    ) STRICT;
    CREATE TABLE messages (
        conversation TEXT    NOT NULL REFERENCES conversations (id),
        seq          INTEGER NOT NULL,
        tokens       INTEGER NOT NULL,
        body         TEXT    NOT NULL,
        PRIMARY KEY (conversation, seq)
    ) STRICT, WITHOUT ROWID;",
    // Version 2: long-term facts (see `tidemark_core::fact`). One row per
    // fact; AUTOINCREMENT keeps ids from being handed out again after a
    // delete, and the unique key is what makes a repeated put find the first
    // one. `chars` is the text's length in Unicode scalar values, counted by
    // the store, which is what budgets are summed over. A source's sequence
    // numbers are kept as their 64 bits, so an open end (`u64::MAX`) reads as
    // -1 here. `fact_meta` holds the generation that every change raises.
    // `facts_fts` is the search index of the active facts: a contentless FTS5
    // table (rows deleted by rowid) with a scope token and one hex token per
    // keyword, written by the store in the same transaction as the fact.
    "CREATE TABLE facts (
        id                  INTEGER PRIMARY KEY AUTOINCREMENT,
        scope_kind          TEXT    NOT NULL,
        scope_id            TEXT    NOT NULL,
        tier                TEXT    NOT NULL,
        text                TEXT    NOT NULL,
        chars               INTEGER NOT NULL,
        hash                BLOB    NOT NULL,
        source_conversation TEXT,
        source_start        INTEGER,
        source_end          INTEGER,
        created_ms          INTEGER NOT NULL,
        updated_ms          INTEGER NOT NULL,
        status              TEXT    NOT NULL,
        quarantine_reason   TEXT,
        UNIQUE (scope_kind, scope_id, tier, hash)
    ) STRICT;
    CREATE TABLE fact_meta (
        name  TEXT    NOT NULL PRIMARY KEY,
        value INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    INSERT INTO fact_meta (name, value) VALUES ('generation', 0);
    CREATE VIRTUAL TABLE facts_fts USING fts5 (
        scope, terms, content = '', contentless_delete = 1, tokenize = 'ascii'
    );",
    // Version 3: consolidation runs (see `FactStore::consolidate`). One row
    // per run, its id never handed out twice; `status` is a `RunStatus` name
    // and `merges` the number of merges the run applied. One row per merge in
    // `fact_rollback`, numbered by its place in the run: the merged fact's id
    // (no foreign key, since a rollback or a later delete removes that fact)
    // and the sources as they were stored before the run, a JSON array of
    // `Fact` values that a rollback writes back unchanged. (Not WITHOUT ROWID:
    // a record holds whole fact texts and can be large.)
    "CREATE TABLE fact_runs (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        pass       TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        merges     INTEGER NOT NULL,
        created_ms INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE fact_rollback (
        run      INTEGER NOT NULL REFERENCES fact_runs (id),
        position INTEGER NOT NULL,
        merged   INTEGER NOT NULL,
        sources  TEXT    NOT NULL,
        PRIMARY KEY (run, position)
    ) STRICT;",
    // Version 4: compaction leases (see `ConversationStore::try_lease`), so
    // that processes sharing the file compact a conversation once at a time.
    // One row per leased conversation: the holder's name and when the lease
    // runs out, in milliseconds since the Unix epoch on the machine's clock
    // (every process of one file runs on the same machine). No foreign key:
    // a lease may be taken before the conversation's first append.
    "CREATE TABLE leases (
        conversation TEXT    NOT NULL PRIMARY KEY,
        holder       TEXT    NOT NULL,
        expires_ms   INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;",
    // Version 5: recall over stored messages (see `tidemark_core::recall`
    // and `recall.rs`). `recall_keys` numbers the conversations for the index
    // (a number is never reused) and says how far each one is indexed:
    // every message below `indexed` is. `recall` is a contentless FTS5 index
    // with one row per message, whose id places it in its conversation's
    // range of ids (see `recall::row_id`), holding the message's distinct
    // search terms. It keeps no copy of the text (the message is in `messages`) and
    // no positions (`detail = 'none'`: a query is a list of single terms, and
    // the final ranking happens in Rust); `contentless_delete` lets `clear`
    // and `prune` delete rows by id. Merging segments only once eight of a
    // size have gathered (FTS5's default is four) cut the index's CPU time by
    // about a quarter in batches like a compaction's. Messages already stored are indexed the
    // first time they are needed, like new ones, so the step only creates.
    "CREATE TABLE recall_keys (
        conversation TEXT    NOT NULL PRIMARY KEY,
        key          INTEGER NOT NULL UNIQUE,
        indexed      INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE VIRTUAL TABLE recall USING fts5 (
        terms, content = '', contentless_delete = 1, detail = 'none',
        tokenize = \"ascii tokenchars '-_./'\"
    );
    INSERT INTO recall (recall, rank) VALUES ('automerge', 8);",
    // Version 6: calibration from reported usage (see
    // `tidemark_core::calibration`). One row per calibrated conversation: the
    // `Calibration` in its JSON form, written whole by every
    // `save_calibration`. Kept apart from `states`, whose writes are
    // compare-and-swaps tied to compaction, so that a report after every
    // model call never conflicts with one. No foreign key, as for leases: a
    // calibration may be written before the conversation's first append, and
    // it does not make the conversation appear.
    "CREATE TABLE calibrations (
        conversation TEXT NOT NULL PRIMARY KEY,
        calibration  TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;",
    // Version 7: recall by meaning (see `tidemark_core::recall::Embedder`
    // and `recall/similar.rs`). `recall_vectors` keeps the embedding of each
    // passage, as the bytes of `Embedding::as_bytes`, under the conversation's
    // number in `recall_keys` and the passage's message and place, so that a
    // restart does not embed the history again. `recall_models` says, per
    // conversation number, which model made its vectors and how far they go:
    // every stored message below `embedded` has the vectors of its passages
    // (those the model could place). The vectors are written by the search
    // that indexes messages, like the `recall` rows, so the step only creates.
    "CREATE TABLE recall_vectors (
        key    INTEGER NOT NULL,
        seq    INTEGER NOT NULL,
        idx    INTEGER NOT NULL,
        vector BLOB    NOT NULL,
        PRIMARY KEY (key, seq, idx)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE recall_models (
        key      INTEGER NOT NULL PRIMARY KEY,
        embedder TEXT    NOT NULL,
        embedded INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;",
    // Version 8: each conversation's user (`ConversationStore::set_user`), so
    // that recall with a user reads the user's other conversations. Kept apart
    // from `conversations`, like calibrations: a user may be named before the
    // first append and does not make the conversation appear. `assigned`
    // numbers the assignments, newest highest.
    "CREATE TABLE conversation_users (
        conversation TEXT    NOT NULL PRIMARY KEY,
        user_id      TEXT    NOT NULL,
        assigned     INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX conversation_users_by_user ON conversation_users (user_id, assigned);",
    // Version 9: compaction history (see `tidemark_core::history`). One row
    // per state written since the conversation's last clear, keyed by the
    // generation the write gave it: what wrote it (`kind`, an `EpochKind`
    // name, with `restored_from` for a restore, NULL meaning the initial
    // state), the epoch an undo goes back to, the conversation's next
    // sequence number and the time (milliseconds since the Unix epoch) at the
    // write, and the state as in `states`. The state each conversation holds
    // now becomes its first epoch, of kind `migrated`: what came before it
    // was never recorded.
    "CREATE TABLE epochs (
        conversation  TEXT    NOT NULL,
        generation    INTEGER NOT NULL,
        kind          TEXT    NOT NULL,
        restored_from INTEGER,
        undo_to       INTEGER,
        next_seq      INTEGER NOT NULL,
        at_ms         INTEGER NOT NULL,
        watermark     INTEGER NOT NULL,
        retained      TEXT    NOT NULL,
        summary       TEXT,
        PRIMARY KEY (conversation, generation)
    ) STRICT;
    INSERT INTO epochs (conversation, generation, kind, restored_from, undo_to, next_seq, at_ms,
                        watermark, retained, summary)
        SELECT states.conversation, states.generation, 'migrated', NULL, NULL, conversations.next_seq,
               CAST(strftime('%s', 'now') AS INTEGER) * 1000,
               states.watermark, states.retained, states.summary
        FROM states JOIN conversations ON conversations.id = states.conversation;",
];

/// The newest schema version this build knows: the number of migration steps.
pub(super) const LATEST: u32 = 9;

// The version constant and the list of steps must move together.
const _: () = assert!(MIGRATIONS.len() == LATEST as usize);

/// Refuse a file written by a newer build, before anything has had a chance to change it.
pub(super) fn refuse_newer(connection: &Connection) -> Result<(), StoreError> {
    let found = version(connection)?;
    if found > LATEST {
        return Err(StoreError::SchemaTooNew { found, supported: LATEST });
    }
    Ok(())
}

/// Apply the missing migration steps in one transaction; a file already at [`LATEST`] is left alone.
pub(super) fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    if version(connection)? == LATEST {
        return Ok(());
    }
    let transaction = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|error| StoreError::backend("open", error))?;
    // Another process may have migrated the file between the first look and
    // the write lock, so the version is read again under the lock.
    let found = version(&transaction)?;
    if found > LATEST {
        return Err(StoreError::SchemaTooNew { found, supported: LATEST });
    }
    let first =
        usize::try_from(found).map_err(|_| StoreError::backend("open", DataError::Version(found.into())))?;
    for step in MIGRATIONS.iter().skip(first) {
        transaction.execute_batch(step).map_err(|error| StoreError::backend("open", error))?;
    }
    transaction
        .pragma_update(None, "user_version", LATEST)
        .map_err(|error| StoreError::backend("open", error))?;
    transaction.commit().map_err(|error| StoreError::backend("open", error))?;
    tracing::debug!(from = found, to = LATEST, "migrated the sqlite store schema");
    Ok(())
}

/// The file's schema version (zero for a new file).
fn version(connection: &Connection) -> Result<u32, StoreError> {
    let raw: i64 = connection
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|error| StoreError::backend("open", error))?;
    u32::try_from(raw).map_err(|_| StoreError::backend("open", DataError::Version(raw)))
}

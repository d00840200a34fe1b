//! [`SqliteStore`] as a [`FactStore`]: facts in the `facts` table of the same file as the conversations.
//!
//! Every writing method runs one `BEGIN IMMEDIATE` transaction that checks the
//! rules (idempotence, budget, duplicates) and writes the fact, its search
//! terms and the new generation together, so a refused or failed call leaves
//! no trace and two handles on one file cannot both slip under a budget.
//!
//! # Search
//!
//! Search goes through `facts_fts`, a contentless FTS5 table that holds, for
//! every active fact, one token for its scope and one token per keyword of its
//! text. A keyword is what [`keywords`] yields, written as the hexadecimal
//! digits of its UTF-8 bytes, so FTS5's own tokenizer only has to split on
//! spaces: the index agrees with [`keywords`] exactly, whatever the script, and
//! a query (built from the same hex tokens, each quoted) can never contain FTS5
//! syntax. Results are ranked by FTS5's `bm25()` over the keyword column, ties
//! by id. Quarantined facts are taken out of the index, and the search joins the
//! `facts` table and checks the status again besides.
//!
//! The index is written by this module only, in the same transaction as the
//! row it describes; a program that edits `facts` by hand must keep it in step.
//!
//! # Consolidation
//!
//! A run is one row of `fact_runs` and one row of `fact_rollback` per merge,
//! written in the same transaction as the facts it retires and the ones it
//! adds. A record keeps the sources as JSON [`Fact`] values, so a rollback
//! writes them back with their ids, times, status and source ranges exactly as
//! they were; the restored ids are below the table's AUTOINCREMENT counter, so
//! they never make a later fact reuse an id.

use std::collections::HashSet;
use std::fmt::Write as _;

use rusqlite::types::ToSql;
use rusqlite::{Connection, OptionalExtension, Row, Transaction, TransactionBehavior, params};
use tidemark_core::fact::{check_text, keywords, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, Fact, FactBudgets, FactError, FactFilter, FactId, FactSource, FactStatus,
    FactStore, Merge, Merged, NewFact, Put, RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope,
    Seq, StatusFilter, Tier, fact_hash,
};

use super::super::fact_row::{ACTIVE, BadRow, FactColumns, QUARANTINED};
use super::{DataError, SqliteStore, from_json, from_sql, to_json, to_sql};

impl SqliteStore {
    /// The same store with these fact budgets; the default is [`FactBudgets::default`].
    ///
    /// Budgets belong to the handle, not to the file: every handle on a file
    /// checks writes against its own budgets, and a clone made before this call
    /// keeps the budgets it had.
    pub fn with_fact_budgets(mut self, budgets: FactBudgets) -> Self {
        self.fact_budgets = budgets;
        self
    }

    /// The fact budgets this handle checks writes against.
    pub fn fact_budgets(&self) -> FactBudgets {
        self.fact_budgets
    }

    /// Run `work` on the connection and name the operation in any backend error.
    fn run_facts<T>(
        &self,
        operation: &'static str,
        work: impl FnOnce(&mut Connection) -> Result<T, Trouble>,
    ) -> Result<T, FactError> {
        let mut connection = self.lock();
        work(&mut connection).map_err(|trouble| trouble.named(operation))
    }
}

impl FactStore for SqliteStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        fact.check()?;
        let budgets = self.fact_budgets;
        self.run_facts("put", |connection| put(connection, budgets, fact))
    }

    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        self.run_facts("get", |connection| read_fact(connection, id))
    }

    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        self.run_facts("list", |connection| list(connection, filter))
    }

    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        let Some(expression) = match_expression(scope, query) else { return Ok(Vec::new()) };
        if limit == 0 {
            return Ok(Vec::new());
        }
        self.run_facts("search", |connection| search(connection, scope, &expression, limit))
    }

    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        check_text(&text)?;
        let budgets = self.fact_budgets;
        self.run_facts("update", |connection| update(connection, budgets, id, text))
    }

    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        self.run_facts("delete", |connection| delete(connection, id))
    }

    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.run_facts("quarantine", |connection| quarantine(connection, id, reason))
    }

    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        let limit = self.fact_budgets.limit(tier);
        self.run_facts("usage", |connection| {
            Ok(BudgetUsage { used: used_chars(connection, scope, tier)?, limit })
        })
    }

    async fn generation(&self) -> Result<u64, FactError> {
        self.run_facts("generation", |connection| read_generation(connection))
    }

    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        let budgets = self.fact_budgets;
        self.run_facts("consolidate", |connection| consolidate(connection, budgets, pass, merges))
    }

    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.run_facts("finish_run", |connection| finish_run(connection, run))
    }

    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.run_facts("rollback", |connection| rollback(connection, run))
    }

    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        self.run_facts("runs", |connection| runs(connection))
    }

    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.run_facts("run_records", |connection| run_records(connection, run))
    }
}

/// Why a fact operation failed, before the operation's name is attached.
#[derive(Debug)]
enum Trouble {
    /// SQLite reported an error.
    Sqlite(rusqlite::Error),
    /// A value cannot be stored, or a stored value is not one this store writes.
    Data(DataError),
    /// A stored fact row is not one this store writes.
    Row(BadRow),
    /// A failure that is already final: not found, over budget, a duplicate.
    Fact(FactError),
}

impl Trouble {
    fn named(self, operation: &'static str) -> FactError {
        match self {
            Self::Sqlite(error) => FactError::backend(operation, error),
            Self::Data(error) => FactError::backend(operation, error),
            Self::Row(error) => FactError::backend(operation, error),
            Self::Fact(error) => error,
        }
    }
}

impl From<rusqlite::Error> for Trouble {
    fn from(error: rusqlite::Error) -> Self {
        Self::Sqlite(error)
    }
}

impl From<rusqlite::types::FromSqlError> for Trouble {
    fn from(error: rusqlite::types::FromSqlError) -> Self {
        Self::Sqlite(error.into())
    }
}

impl From<DataError> for Trouble {
    fn from(error: DataError) -> Self {
        Self::Data(error)
    }
}

impl From<BadRow> for Trouble {
    fn from(error: BadRow) -> Self {
        Self::Row(error)
    }
}

impl From<FactError> for Trouble {
    fn from(error: FactError) -> Self {
        Self::Fact(error)
    }
}

/// The columns every fact query selects, in the order [`fact_from_row`] reads them.
const COLUMNS: &str = "facts.id, facts.scope_kind, facts.scope_id, facts.tier, facts.text, facts.hash,
     facts.source_conversation, facts.source_start, facts.source_end,
     facts.created_ms, facts.updated_ms, facts.status, facts.quarantine_reason";

/// Raise the fact generation by one; every change runs it in its own transaction.
const BUMP_GENERATION: &str = "UPDATE fact_meta SET value = value + 1 WHERE name = 'generation'";

const INSERT_FACT: &str = "INSERT INTO facts (scope_kind, scope_id, tier, text, chars, hash,
         source_conversation, source_start, source_end, created_ms, updated_ms, status)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, 'active')
     RETURNING id";

/// A fact put back by a rollback: every column as it was, the id included.
const RESTORE_FACT: &str = "INSERT INTO facts (id, scope_kind, scope_id, tier, text, chars, hash,
         source_conversation, source_start, source_end, created_ms, updated_ms, status, quarantine_reason)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";

const DELETE_FACT: &str = "DELETE FROM facts WHERE id = ?1";

const INSERT_RUN: &str = "INSERT INTO fact_runs (pass, status, merges, created_ms)
     VALUES (?1, 'applied', ?2, ?3)
     RETURNING id";

/// A rollback record, written before its merged fact exists: the merged id is set afterwards by [`SET_MERGED`].
const INSERT_RECORD: &str =
    "INSERT INTO fact_rollback (run, position, merged, sources) VALUES (?1, ?2, 0, ?3)";

const SET_MERGED: &str = "UPDATE fact_rollback SET merged = ?3 WHERE run = ?1 AND position = ?2";

const SELECT_RECORDS: &str = "SELECT merged, sources FROM fact_rollback WHERE run = ?1 ORDER BY position";

const INSERT_TERMS: &str = "INSERT INTO facts_fts (rowid, scope, terms) VALUES (?1, ?2, ?3)";

const DELETE_TERMS: &str = "DELETE FROM facts_fts WHERE rowid = ?1";

const SELECT_USED: &str = "SELECT coalesce(sum(chars), 0) FROM facts
     WHERE scope_kind = ?1 AND scope_id = ?2 AND tier = ?3";

/// The search: candidates from the index, checked against `facts`, best `bm25()` first.
///
/// `CROSS JOIN` keeps the index as the outer loop, which `bm25()` needs and
/// which reads only the matching rows of `facts`. The weights give the scope
/// column no say in the score.
const SEARCH: &str = "SELECT facts.id, facts.scope_kind, facts.scope_id, facts.tier, facts.text, facts.hash,
         facts.source_conversation, facts.source_start, facts.source_end,
         facts.created_ms, facts.updated_ms, facts.status, facts.quarantine_reason
     FROM facts_fts CROSS JOIN facts ON facts.id = facts_fts.rowid
     WHERE facts_fts MATCH ?1 AND facts.status = 'active'
         AND (?2 IS NULL OR (facts.scope_kind = ?2 AND facts.scope_id = ?3))
     ORDER BY bm25(facts_fts, 0.0, 1.0), facts.id
     LIMIT ?4";

fn put(connection: &mut Connection, budgets: FactBudgets, new: NewFact) -> Result<Put, Trouble> {
    let hash = fact_hash(new.tier, &new.text);
    // A repeated delivery is common and needs no write lock: a plain read finds it.
    if let Some(existing) = same_fact(connection, &new.scope, new.tier, &hash)? {
        return Ok(Put::Existing(existing));
    }
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another handle may have stored it since the read, so the lookup is repeated under the lock.
    if let Some(existing) = same_fact(&transaction, &new.scope, new.tier, &hash)? {
        // Nothing was written; dropping the transaction only releases the lock.
        return Ok(Put::Existing(existing));
    }
    let chars = new.text.chars().count();
    let used = used_chars(&transaction, &new.scope, new.tier)?;
    check_budget(budgets, &new.scope, new.tier, used, 0, chars)?;
    let fact = insert_new(&transaction, new, hash, chars)?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(Put::Inserted(fact))
}

/// Store `new` as a new active fact, indexed for search, and return it as stored.
///
/// The caller has checked the text, the duplicates and the budget.
fn insert_new(
    transaction: &Transaction<'_>,
    new: NewFact,
    hash: ContentHash,
    chars: usize,
) -> Result<Fact, Trouble> {
    let now = now_ms();
    let (source_conversation, source_start, source_end) = source_columns(new.source.as_ref());
    let raw_id: i64 = transaction.prepare_cached(INSERT_FACT)?.query_row(
        params![
            new.scope.kind(),
            new.scope.id().as_str(),
            new.tier.as_str(),
            new.text,
            to_sql(chars as u64, "chars")?,
            hash.as_bytes().as_slice(),
            source_conversation,
            source_start,
            source_end,
            to_sql(now, "created_ms")?,
        ],
        |row| row.get(0),
    )?;
    let id = FactId(from_sql(raw_id, "id")?);
    index(transaction, raw_id, &new.scope, &new.text)?;
    Ok(Fact {
        id,
        scope: new.scope,
        tier: new.tier,
        text: new.text,
        source: new.source,
        hash,
        created_ms: now,
        updated_ms: now,
        status: FactStatus::Active,
    })
}

/// A source as its three columns (all set or all null).
fn source_columns(source: Option<&FactSource>) -> (Option<&str>, Option<i64>, Option<i64>) {
    match source {
        Some(source) => (
            Some(source.conversation.as_str()),
            Some(seq_to_sql(source.range.start)),
            Some(seq_to_sql(source.range.end)),
        ),
        None => (None, None, None),
    }
}

fn update(
    connection: &mut Connection,
    budgets: FactBudgets,
    id: FactId,
    text: String,
) -> Result<Fact, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Err(FactError::NotFound(id).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut fact = read_fact(&transaction, id)?.ok_or(FactError::NotFound(id))?;
    let hash = fact_hash(fact.tier, &text);
    if let Some(other) = same_fact(&transaction, &fact.scope, fact.tier, &hash)?
        && other.id != id
    {
        return Err(FactError::Duplicate(other.id).into());
    }
    let chars = text.chars().count();
    let used = used_chars(&transaction, &fact.scope, fact.tier)?;
    check_budget(budgets, &fact.scope, fact.tier, used, fact.chars(), chars)?;
    let now = now_ms();
    transaction
        .prepare_cached("UPDATE facts SET text = ?2, chars = ?3, hash = ?4, updated_ms = ?5 WHERE id = ?1")?
        .execute(params![
            raw_id,
            text,
            to_sql(chars as u64, "chars")?,
            hash.as_bytes().as_slice(),
            to_sql(now, "updated_ms")?,
        ])?;
    if fact.is_active() {
        transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_id])?;
        index(&transaction, raw_id, &fact.scope, &text)?;
    }
    bump_generation(&transaction)?;
    transaction.commit()?;
    fact.text = text;
    fact.hash = hash;
    fact.updated_ms = now;
    Ok(fact)
}

fn delete(connection: &mut Connection, id: FactId) -> Result<bool, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Ok(false) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let deleted = transaction.prepare_cached(DELETE_FACT)?.execute(params![raw_id])?;
    if deleted == 0 {
        return Ok(false);
    }
    transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_id])?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(true)
}

fn quarantine(connection: &mut Connection, id: FactId, reason: String) -> Result<Fact, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Err(FactError::NotFound(id).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut fact = read_fact(&transaction, id)?.ok_or(FactError::NotFound(id))?;
    let now = now_ms();
    transaction
        .prepare_cached(
            "UPDATE facts SET status = 'quarantined', quarantine_reason = ?2, updated_ms = ?3 WHERE id = ?1",
        )?
        .execute(params![raw_id, reason, to_sql(now, "updated_ms")?])?;
    // A quarantined fact is never searched, so it leaves the index (a second quarantine finds nothing to remove).
    transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_id])?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    fact.status = FactStatus::Quarantined(reason);
    fact.updated_ms = now;
    Ok(fact)
}

/// Apply every merge in one transaction, or none: the first refusal or failure drops the transaction unwritten.
fn consolidate(
    connection: &mut Connection,
    budgets: FactBudgets,
    pass: &str,
    merges: Vec<Merge>,
) -> Result<(RunId, Vec<Merged>), Trouble> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // The run's row goes first, since every record refers to its id. A run
    // that is refused later takes its row, and its AUTOINCREMENT number, with
    // it when the transaction is dropped.
    let raw_run: i64 = transaction.prepare_cached(INSERT_RUN)?.query_row(
        params![pass, to_sql(merges.len() as u64, "merges")?, to_sql(now_ms(), "created_ms")?],
        |row| row.get(0),
    )?;
    let run = RunId(from_sql(raw_run, "fact_runs.id")?);
    let mut applied = Vec::with_capacity(merges.len());
    for (position, merge) in merges.into_iter().enumerate() {
        let position = to_sql(position as u64, "position")?;
        applied.push(apply_merge(&transaction, budgets, run, raw_run, position, merge)?);
    }
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok((run, applied))
}

/// One merge of a run, inside the run's transaction: check the sources, record them, retire them, store the merged fact.
///
/// The checks come in the order of the in-memory store, so both report the same error for the same run.
fn apply_merge(
    transaction: &Transaction<'_>,
    budgets: FactBudgets,
    run: RunId,
    raw_run: i64,
    position: i64,
    merge: Merge,
) -> Result<Merged, Trouble> {
    let Merge { sources: ids, merged: new } = merge;
    new.check()?;
    let (scope, tier) = (&new.scope, new.tier);
    let mut sources: Vec<Fact> = Vec::with_capacity(ids.len());
    for id in ids {
        // An earlier merge of this run has already removed its sources, so they are "not stored" here.
        let fact = read_fact(transaction, id)?.ok_or_else(|| bad(format!("source {id} is not stored")))?;
        if !fact.is_active() || fact.scope != *scope || fact.tier != tier {
            return Err(bad(format!("source {id} is not an active fact of {scope} {tier}")).into());
        }
        if sources.iter().any(|source| source.id == id) {
            return Err(bad(format!("source {id} is listed twice")).into());
        }
        sources.push(fact);
    }
    if sources.len() < 2 {
        return Err(bad("a merge needs at least two sources".to_owned()).into());
    }
    transaction.prepare_cached(INSERT_RECORD)?.execute(params![
        raw_run,
        position,
        to_json(&sources, "fact_rollback.sources")?
    ])?;
    for source in &sources {
        let raw_id = to_sql(source.id.0, "id")?;
        transaction.prepare_cached(DELETE_FACT)?.execute(params![raw_id])?;
        transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_id])?;
    }
    // With the sources gone, a merged text equal to one of them is no duplicate.
    let hash = fact_hash(tier, &new.text);
    if let Some(other) = same_fact(transaction, scope, tier, &hash)? {
        return Err(FactError::Duplicate(other.id).into());
    }
    let chars = new.text.chars().count();
    let used = used_chars(transaction, scope, tier)?;
    check_budget(budgets, scope, tier, used, 0, chars)?;
    let fact = insert_new(transaction, new, hash, chars)?;
    transaction.prepare_cached(SET_MERGED)?.execute(params![raw_run, position, to_sql(fact.id.0, "id")?])?;
    let record = RollbackRecord { run, merged: fact.id, sources };
    Ok(Merged { fact, record })
}

fn bad(reason: String) -> FactError {
    FactError::BadMerge { reason }
}

fn finish_run(connection: &mut Connection, run: RunId) -> Result<(), Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let status = run_status(&transaction, raw_run)?.ok_or(FactError::RunNotFound(run))?;
    // A verified run stays verified and a rolled back one stays rolled back; neither is a change.
    if status == RunStatus::Applied {
        transaction
            .prepare_cached("UPDATE fact_runs SET status = 'verified' WHERE id = ?1")?
            .execute(params![raw_run])?;
        bump_generation(&transaction)?;
        transaction.commit()?;
    }
    Ok(())
}

/// Undo a run in one transaction: every record, last first, removes its merged fact and puts its sources back.
fn rollback(connection: &mut Connection, run: RunId) -> Result<RolledBack, Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let status = run_status(&transaction, raw_run)?.ok_or(FactError::RunNotFound(run))?;
    if status == RunStatus::RolledBack {
        return Ok(RolledBack::default());
    }
    let records = read_records(&transaction, run, raw_run)?;
    let mut taken = Vec::new();
    for source in records.iter().flat_map(|record| &record.sources) {
        if fact_exists(&transaction, source.id)? {
            taken.push(source.id);
        }
    }
    if !taken.is_empty() {
        return Err(FactError::RestoreConflict { run, facts: taken }.into());
    }
    let mut outcome = RolledBack::default();
    // Sources whose text is now held by another fact of their scope and tier:
    // the file keeps one fact per text, so they cannot come back either.
    let mut clashes = Vec::new();
    for record in records.iter().rev() {
        // The merged fact leaves first, because its text may be one of its own sources' texts.
        if let Ok(raw_merged) = i64::try_from(record.merged.0)
            && transaction.prepare_cached(DELETE_FACT)?.execute(params![raw_merged])? > 0
        {
            transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_merged])?;
            outcome.removed += 1;
        }
        for source in &record.sources {
            if same_fact(&transaction, &source.scope, source.tier, &source.hash)?.is_some() {
                clashes.push(source.id);
                continue;
            }
            restore(&transaction, source)?;
            outcome.restored += 1;
        }
    }
    if !clashes.is_empty() {
        return Err(FactError::RestoreConflict { run, facts: clashes }.into());
    }
    transaction
        .prepare_cached("UPDATE fact_runs SET status = 'rolled_back' WHERE id = ?1")?
        .execute(params![raw_run])?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(outcome)
}

/// Write `fact` back exactly as it was stored; only its length is counted again, and only an active fact is indexed.
fn restore(transaction: &Transaction<'_>, fact: &Fact) -> Result<(), Trouble> {
    let raw_id = to_sql(fact.id.0, "id")?;
    let (source_conversation, source_start, source_end) = source_columns(fact.source.as_ref());
    let (status, reason) = match &fact.status {
        FactStatus::Active => (ACTIVE, None),
        FactStatus::Quarantined(reason) => (QUARANTINED, Some(reason.as_str())),
    };
    transaction.prepare_cached(RESTORE_FACT)?.execute(params![
        raw_id,
        fact.scope.kind(),
        fact.scope.id().as_str(),
        fact.tier.as_str(),
        fact.text,
        to_sql(fact.chars() as u64, "chars")?,
        fact.hash.as_bytes().as_slice(),
        source_conversation,
        source_start,
        source_end,
        to_sql(fact.created_ms, "created_ms")?,
        to_sql(fact.updated_ms, "updated_ms")?,
        status,
        reason,
    ])?;
    if fact.is_active() {
        index(transaction, raw_id, &fact.scope, &fact.text)?;
    }
    Ok(())
}

fn runs(connection: &Connection) -> Result<Vec<RunInfo>, Trouble> {
    let mut select = connection
        .prepare_cached("SELECT id, pass, status, merges, created_ms FROM fact_runs ORDER BY id")?;
    let mut rows = select.query([])?;
    let mut runs = Vec::new();
    while let Some(row) = rows.next()? {
        let raw_run: i64 = row.get(0)?;
        runs.push(RunInfo {
            id: RunId(from_sql(raw_run, "fact_runs.id")?),
            pass: row.get_ref(1)?.as_str()?.to_owned(),
            status: parse_run_status(raw_run, row.get_ref(2)?.as_str()?)?,
            merges: from_sql(row.get(3)?, "fact_runs.merges")?,
            created_ms: from_sql(row.get(4)?, "fact_runs.created_ms")?,
        });
    }
    Ok(runs)
}

fn run_records(connection: &mut Connection, run: RunId) -> Result<Vec<RollbackRecord>, Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    // One read transaction, so that the run and its records are seen as of one moment.
    let transaction = connection.transaction()?;
    if run_status(&transaction, raw_run)?.is_none() {
        return Err(FactError::RunNotFound(run).into());
    }
    read_records(&transaction, run, raw_run)
}

/// The status of run `raw_run`, `None` when there is no such run.
fn run_status(connection: &Connection, raw_run: i64) -> Result<Option<RunStatus>, Trouble> {
    let found: Option<String> = connection
        .prepare_cached("SELECT status FROM fact_runs WHERE id = ?1")?
        .query_row(params![raw_run], |row| row.get(0))
        .optional()?;
    Ok(found.map(|text| parse_run_status(raw_run, &text)).transpose()?)
}

fn parse_run_status(raw_run: i64, text: &str) -> Result<RunStatus, BadRow> {
    match text {
        "applied" => Ok(RunStatus::Applied),
        "verified" => Ok(RunStatus::Verified),
        "rolled_back" => Ok(RunStatus::RolledBack),
        other => Err(BadRow::RunStatus { run: raw_run, found: other.to_owned() }),
    }
}

/// The records of a run, in merge order.
fn read_records(connection: &Connection, run: RunId, raw_run: i64) -> Result<Vec<RollbackRecord>, Trouble> {
    let mut select = connection.prepare_cached(SELECT_RECORDS)?;
    let mut rows = select.query(params![raw_run])?;
    let mut records = Vec::new();
    while let Some(row) = rows.next()? {
        records.push(RollbackRecord {
            run,
            merged: FactId(from_sql(row.get(0)?, "fact_rollback.merged")?),
            sources: from_json(row.get_ref(1)?.as_str()?, "fact_rollback.sources")?,
        });
    }
    Ok(records)
}

fn fact_exists(connection: &Connection, id: FactId) -> Result<bool, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Ok(false) };
    Ok(connection
        .prepare_cached("SELECT 1 FROM facts WHERE id = ?1")?
        .query_row(params![raw_id], |_| Ok(()))
        .optional()?
        .is_some())
}

fn list(connection: &Connection, filter: &FactFilter) -> Result<Vec<Fact>, Trouble> {
    // The statement is put together from fixed pieces only (at most eight
    // different texts, each prepared once and cached), so that each shape of
    // filter gets a plan that can use the (scope, tier) index; every value
    // goes in as a parameter.
    let mut conditions: Vec<&str> = Vec::new();
    let mut values: Vec<&dyn ToSql> = Vec::new();
    let (kind, scope_id);
    if let Some(scope) = &filter.scope {
        (kind, scope_id) = (scope.kind(), scope.id().as_str());
        conditions.push("scope_kind = ? AND scope_id = ?");
        values.push(&kind);
        values.push(&scope_id);
    }
    let tier;
    if let Some(wanted) = filter.tier {
        tier = wanted.as_str();
        conditions.push("tier = ?");
        values.push(&tier);
    }
    match filter.status {
        StatusFilter::Active => conditions.push("status = 'active'"),
        StatusFilter::Quarantined => conditions.push("status = 'quarantined'"),
        StatusFilter::Any => {}
    }
    let mut sql = format!("SELECT {COLUMNS} FROM facts");
    if !conditions.is_empty() {
        let _ = write!(sql, " WHERE {}", conditions.join(" AND "));
    }
    sql.push_str(" ORDER BY id");
    let mut select = connection.prepare_cached(&sql)?;
    let mut rows = select.query(values.as_slice())?;
    let mut facts = Vec::new();
    while let Some(row) = rows.next()? {
        facts.push(fact_from_row(row)?);
    }
    Ok(facts)
}

fn search(
    connection: &Connection,
    scope: Option<&Scope>,
    expression: &str,
    limit: usize,
) -> Result<Vec<Fact>, Trouble> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut select = connection.prepare_cached(SEARCH)?;
    let mut rows = select.query(params![
        expression,
        scope.map(Scope::kind),
        scope.map(|scope| scope.id().as_str()),
        limit
    ])?;
    let mut facts = Vec::new();
    while let Some(row) = rows.next()? {
        facts.push(fact_from_row(row)?);
    }
    Ok(facts)
}

/// The FTS5 query for `query`'s keywords, any of them, in `scope` when given; `None` when it has no keywords.
///
/// Every term is a quoted string of hex digits, so nothing the user typed
/// reaches the FTS5 parser as syntax.
fn match_expression(scope: Option<&Scope>, query: &str) -> Option<String> {
    let mut seen = HashSet::new();
    let mut terms = String::new();
    for keyword in keywords(query) {
        if !seen.insert(keyword.clone()) {
            continue;
        }
        if !terms.is_empty() {
            terms.push_str(" OR ");
        }
        terms.push('"');
        push_hex(&mut terms, keyword.as_bytes());
        terms.push('"');
    }
    if terms.is_empty() {
        return None;
    }
    Some(match scope {
        Some(scope) => format!("scope : \"{}\" AND terms : ({terms})", scope_token(scope)),
        None => format!("terms : ({terms})"),
    })
}

/// Add the index row of an active fact: its scope's token and one token per keyword.
fn index(transaction: &Transaction<'_>, raw_id: i64, scope: &Scope, text: &str) -> Result<(), Trouble> {
    let mut terms = String::new();
    for keyword in keywords(text) {
        if !terms.is_empty() {
            terms.push(' ');
        }
        push_hex(&mut terms, keyword.as_bytes());
    }
    transaction.prepare_cached(INSERT_TERMS)?.execute(params![raw_id, scope_token(scope), terms])?;
    Ok(())
}

/// A scope as one index token: the hex digits of `kind:id`.
fn scope_token(scope: &Scope) -> String {
    let mut token = String::new();
    push_hex(&mut token, scope.kind().as_bytes());
    push_hex(&mut token, b":");
    push_hex(&mut token, scope.id().as_str().as_bytes());
    token
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
}

fn check_budget(
    budgets: FactBudgets,
    scope: &Scope,
    tier: Tier,
    used: usize,
    freed: usize,
    needed: usize,
) -> Result<(), FactError> {
    let limit = budgets.limit(tier);
    if used.saturating_sub(freed).saturating_add(needed) > limit {
        return Err(FactError::OverBudget { scope: scope.clone(), tier, used, needed, limit });
    }
    Ok(())
}

/// The fact of `scope` and `tier` whose text has `hash`, if any.
fn same_fact(
    connection: &Connection,
    scope: &Scope,
    tier: Tier,
    hash: &ContentHash,
) -> Result<Option<Fact>, Trouble> {
    let mut select = connection.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM facts WHERE scope_kind = ?1 AND scope_id = ?2 AND tier = ?3 AND hash = ?4"
    ))?;
    let mut rows = select.query(params![
        scope.kind(),
        scope.id().as_str(),
        tier.as_str(),
        hash.as_bytes().as_slice()
    ])?;
    rows.next()?.map(fact_from_row).transpose()
}

fn read_fact(connection: &Connection, id: FactId) -> Result<Option<Fact>, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Ok(None) };
    let mut select = connection.prepare_cached(&format!("SELECT {COLUMNS} FROM facts WHERE id = ?1"))?;
    let mut rows = select.query(params![raw_id])?;
    rows.next()?.map(fact_from_row).transpose()
}

/// Characters stored in `scope` and `tier`, quarantined facts included.
fn used_chars(connection: &Connection, scope: &Scope, tier: Tier) -> Result<usize, Trouble> {
    let raw: i64 = connection
        .prepare_cached(SELECT_USED)?
        .query_row(params![scope.kind(), scope.id().as_str(), tier.as_str()], |row| row.get(0))?;
    Ok(from_sql(raw, "chars")?)
}

fn read_generation(connection: &Connection) -> Result<u64, Trouble> {
    let raw: Option<i64> = connection
        .prepare_cached("SELECT value FROM fact_meta WHERE name = 'generation'")?
        .query_row([], |row| row.get(0))
        .optional()?;
    Ok(from_sql(raw.ok_or(BadRow::NoGeneration)?, "fact_meta.value")?)
}

fn bump_generation(transaction: &Transaction<'_>) -> Result<(), Trouble> {
    if transaction.prepare_cached(BUMP_GENERATION)?.execute([])? == 0 {
        return Err(BadRow::NoGeneration.into());
    }
    Ok(())
}

/// A sequence number as stored: its 64 bits as a signed integer, so that even an open end (`u64::MAX`) fits.
fn seq_to_sql(seq: Seq) -> i64 {
    seq.0.cast_signed()
}

/// A row of [`COLUMNS`] as a fact, refusing anything this store would not have written.
fn fact_from_row(row: &Row<'_>) -> Result<Fact, Trouble> {
    let raw_id: i64 = row.get(0)?;
    let columns = FactColumns {
        raw_id,
        id: FactId(from_sql(raw_id, "id")?),
        scope_kind: row.get_ref(1)?.as_str()?,
        scope_id: row.get_ref(2)?.as_str()?,
        tier: row.get_ref(3)?.as_str()?,
        text: row.get_ref(4)?.as_str()?.to_owned(),
        hash: row.get_ref(5)?.as_blob()?,
        source: (row.get_ref(6)?.as_str_or_null()?, row.get(7)?, row.get(8)?),
        created_ms: from_sql(row.get(9)?, "created_ms")?,
        updated_ms: from_sql(row.get(10)?, "updated_ms")?,
        status: row.get_ref(11)?.as_str()?,
        quarantine_reason: row.get_ref(12)?.as_str_or_null()?.map(str::to_owned),
    };
    Ok(columns.decode()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidemark_core::ConversationId;

    #[test]
    fn queries_hold_only_quoted_hex() {
        let expression = match_expression(None, "\"NEAR(a* -b:c OR x\" ünï a").expect("keywords");
        assert_eq!(
            expression,
            r#"terms : ("6e656172" OR "61" OR "62" OR "63" OR "6f72" OR "78" OR "c3bc6ec3af")"#
        );
        assert_eq!(match_expression(None, " -*:\"()' 🦀"), None);
    }

    #[test]
    fn scope_tokens_tell_kinds_apart() {
        let id = ConversationId::new("a").expect("valid");
        assert_ne!(scope_token(&Scope::User(id.clone())), scope_token(&Scope::Conversation(id)));
    }
}

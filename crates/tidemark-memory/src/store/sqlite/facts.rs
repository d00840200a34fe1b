//! [`SqliteStore`] as a [`FactStore`]: facts in the `facts` table of the same file as the conversations.
//!
//! Every writing method runs one `BEGIN IMMEDIATE` transaction that reads what
//! the rules need, asks [`rules`] for the decision (idempotence, budget,
//! duplicates), and writes the fact, its search terms and the new generation
//! together, so a refused or failed call leaves no trace and two handles on one
//! file cannot both slip under a budget.
//!
//! Search (the FTS5 index) lives in `search`, consolidation runs and their
//! rollback in `runs`.

mod runs;
pub(super) mod search;

use std::fmt::Write as _;

use rusqlite::types::ToSql;
use rusqlite::{Connection, OptionalExtension, Row, Transaction, TransactionBehavior, params};
use tidemark_core::FactStatus;
use tidemark_core::fact::rules::{self, Checked, PutDecision};
use tidemark_core::fact::{check_text, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, Fact, FactBudgets, FactError, FactFilter, FactId, FactStore, Merge, Merged,
    NewFact, Put, RollbackRecord, RolledBack, RunId, RunInfo, Scope, StatusFilter, Tier,
};

use super::SqliteStore;
use tidemark_core::fact::columns::{BadRow, FactColumns, source_columns, status_columns};
use tidemark_core::store::sql::{DataError, from_sql, to_sql};

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
        let Some(expression) = search::match_expression(scope, query) else { return Ok(Vec::new()) };
        if limit == 0 {
            return Ok(Vec::new());
        }
        self.run_facts("search", |connection| search::search(connection, scope, &expression, limit))
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

    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.run_facts("supersede", |connection| supersede(connection, id, reason))
    }

    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        let limit = self.fact_budgets.limit(tier);
        self.run_facts("usage", |connection| {
            Ok(BudgetUsage::new(used_chars(connection, scope, tier)?, limit))
        })
    }

    async fn generation(&self) -> Result<u64, FactError> {
        self.run_facts("generation", |connection| read_generation(connection))
    }

    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        let budgets = self.fact_budgets;
        self.run_facts("consolidate", |connection| runs::consolidate(connection, budgets, pass, merges))
    }

    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.run_facts("finish_run", |connection| runs::finish_run(connection, run))
    }

    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.run_facts("rollback", |connection| runs::rollback(connection, run))
    }

    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        self.run_facts("runs", |connection| runs::runs(connection))
    }

    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.run_facts("run_records", |connection| runs::run_records(connection, run))
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

const DELETE_FACT: &str = "DELETE FROM facts WHERE id = ?1";

const SELECT_USED: &str = "SELECT coalesce(sum(chars), 0) FROM facts
     WHERE scope_kind = ?1 AND scope_id = ?2 AND tier = ?3";

fn put(connection: &mut Connection, budgets: FactBudgets, new: NewFact) -> Result<Put, Trouble> {
    let checked = rules::check_new(&new)?;
    // A repeated delivery is common and needs no write lock: a plain read finds it.
    if let Some(existing) = same_fact(connection, &new.scope, new.tier, &checked.hash)?
        && !matches!(existing.status, FactStatus::Superseded(_))
    {
        return Ok(Put::Existing(existing));
    }
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another handle may have stored it since the read, so the lookup is repeated under the lock.
    let same = same_fact(&transaction, &new.scope, new.tier, &checked.hash)?;
    let used = used_chars(&transaction, &new.scope, new.tier)?;
    match rules::decide_put(&new, checked, same, used, budgets)? {
        // Nothing was written; dropping the transaction only releases the lock.
        PutDecision::Existing(existing) => return Ok(Put::Existing(existing)),
        PutDecision::Reactivate(superseded) => {
            let fact = set_status(&transaction, superseded, FactStatus::Active)?;
            bump_generation(&transaction)?;
            transaction.commit()?;
            return Ok(Put::Existing(fact));
        }
        _ => {}
    }
    let fact = insert_new(&transaction, new, checked)?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(Put::Inserted(fact))
}

/// Store `new` as a new active fact, indexed for search, and return it as stored.
///
/// The caller has checked the text, the duplicates and the budget.
fn insert_new(transaction: &Transaction<'_>, new: NewFact, checked: Checked) -> Result<Fact, Trouble> {
    let now = now_ms();
    let (source_conversation, source_start, source_end) = source_columns(new.source.as_ref());
    let raw_id: i64 = transaction.prepare_cached(INSERT_FACT)?.query_row(
        params![
            new.scope.kind(),
            new.scope.id().as_str(),
            new.tier.as_str(),
            new.text,
            to_sql(checked.chars as u64, "chars")?,
            checked.hash.as_bytes().as_slice(),
            source_conversation,
            source_start,
            source_end,
            to_sql(now, "created_ms")?,
        ],
        |row| row.get(0),
    )?;
    let id = FactId(from_sql(raw_id, "id")?);
    search::index(transaction, raw_id, &new.scope, &new.text)?;
    Ok(rules::stored(id, new, checked.hash, now))
}

fn update(
    connection: &mut Connection,
    budgets: FactBudgets,
    id: FactId,
    text: String,
) -> Result<Fact, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Err(FactError::NotFound(id).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current = read_fact(&transaction, id)?.ok_or(FactError::NotFound(id))?;
    let checked = rules::check_text_of(current.tier, &text)?;
    let same = same_fact(&transaction, &current.scope, current.tier, &checked.hash)?;
    let used = used_chars(&transaction, &current.scope, current.tier)?;
    rules::check_update(&current, checked, same.as_ref(), used, budgets)?;
    let fact = rules::updated(current, text, checked.hash, now_ms());
    transaction
        .prepare_cached("UPDATE facts SET text = ?2, chars = ?3, hash = ?4, updated_ms = ?5 WHERE id = ?1")?
        .execute(params![
            raw_id,
            fact.text,
            to_sql(checked.chars as u64, "chars")?,
            checked.hash.as_bytes().as_slice(),
            to_sql(fact.updated_ms, "updated_ms")?,
        ])?;
    if fact.is_active() {
        transaction.prepare_cached(search::DELETE_TERMS)?.execute(params![raw_id])?;
        search::index(&transaction, raw_id, &fact.scope, &fact.text)?;
    }
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(fact)
}

fn delete(connection: &mut Connection, id: FactId) -> Result<bool, Trouble> {
    let Ok(raw_id) = i64::try_from(id.0) else { return Ok(false) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let deleted = transaction.prepare_cached(DELETE_FACT)?.execute(params![raw_id])?;
    if deleted == 0 {
        return Ok(false);
    }
    transaction.prepare_cached(search::DELETE_TERMS)?.execute(params![raw_id])?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(true)
}

/// Write `status` over `current`'s, with the update time now, and keep the search index in step: only active facts are in it.
fn set_status(transaction: &Transaction<'_>, current: Fact, status: FactStatus) -> Result<Fact, Trouble> {
    let Ok(raw_id) = i64::try_from(current.id.0) else { return Err(FactError::NotFound(current.id).into()) };
    let now = now_ms();
    let was_active = current.is_active();
    let fact = match status {
        FactStatus::Superseded(reason) => rules::superseded(current, reason, now),
        FactStatus::Quarantined(reason) => rules::quarantined(current, reason, now),
        _ => rules::reactivated(current, now),
    };
    let (name, reason) = status_columns(&fact.status);
    transaction
        .prepare_cached(
            "UPDATE facts SET status = ?2, quarantine_reason = ?3, updated_ms = ?4 WHERE id = ?1",
        )?
        .execute(params![raw_id, name, reason, to_sql(now, "updated_ms")?])?;
    match (was_active, fact.is_active()) {
        (true, false) => {
            transaction.prepare_cached(search::DELETE_TERMS)?.execute(params![raw_id])?;
        }
        (false, true) => search::index(transaction, raw_id, &fact.scope, &fact.text)?,
        _ => {}
    }
    Ok(fact)
}

fn supersede(connection: &mut Connection, id: FactId, reason: String) -> Result<Fact, Trouble> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current = read_fact(&transaction, id)?.ok_or(FactError::NotFound(id))?;
    let fact = set_status(&transaction, current, FactStatus::Superseded(reason))?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(fact)
}

fn quarantine(connection: &mut Connection, id: FactId, reason: String) -> Result<Fact, Trouble> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current = read_fact(&transaction, id)?.ok_or(FactError::NotFound(id))?;
    // A quarantined fact is never searched, so it leaves the index.
    let fact = set_status(&transaction, current, FactStatus::Quarantined(reason))?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(fact)
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
        StatusFilter::Superseded => conditions.push("status = 'superseded'"),
        StatusFilter::Any => {}
        other => {
            return Err(
                FactError::Invalid { reason: format!("status filter {other:?} is not supported") }.into()
            );
        }
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

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

use std::collections::HashSet;
use std::fmt::Write as _;

use rusqlite::types::ToSql;
use rusqlite::{Connection, OptionalExtension, Row, Transaction, TransactionBehavior, params};
use tidemark_core::fact::{check_text, keywords, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, ConversationId, ConversationIdError, Fact, FactBudgets, FactError, FactFilter,
    FactId, FactSource, FactStatus, FactStore, NewFact, Put, Scope, Seq, SeqRange, StatusFilter, Tier,
    fact_hash,
};

use super::{DataError, SqliteStore, from_sql, to_sql};

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

/// A stored fact row that this store would never have written.
///
/// It reaches callers as the source of a [`FactError::Backend`].
#[derive(Debug, thiserror::Error)]
enum BadRow {
    /// A text column holds a value outside the names this store writes.
    #[error("fact {id}: column `{column}` holds {found:?}, which this store never writes")]
    Name {
        /// The fact's row id.
        id: i64,
        /// The column.
        column: &'static str,
        /// The value found.
        found: String,
    },
    /// The hash is not 32 bytes long.
    #[error("fact {id}: column `hash` holds {length} bytes, not 32")]
    HashLength {
        /// The fact's row id.
        id: i64,
        /// The length found.
        length: usize,
    },
    /// A quarantined fact has no reason.
    #[error("fact {id} is quarantined without a reason")]
    NoReason {
        /// The fact's row id.
        id: i64,
    },
    /// Only some of the three source columns are set.
    #[error("fact {id} has a partial source: conversation, start and end must be set together")]
    PartialSource {
        /// The fact's row id.
        id: i64,
    },
    /// A scope id or source conversation is not a valid id.
    #[error("fact {id}: column `{column}` holds an invalid id")]
    Id {
        /// The fact's row id.
        id: i64,
        /// The column.
        column: &'static str,
        /// Why the id is invalid.
        #[source]
        source: ConversationIdError,
    },
    /// The generation counter's row is missing.
    #[error("the fact generation row is missing from `fact_meta`")]
    NoGeneration,
}

/// The columns every fact query selects, in the order [`fact_from_row`] reads them.
const COLUMNS: &str = "facts.id, facts.scope_kind, facts.scope_id, facts.tier, facts.text, facts.hash,
     facts.source_conversation, facts.source_start, facts.source_end,
     facts.created_ms, facts.updated_ms, facts.status, facts.quarantine_reason";

const ACTIVE: &str = "active";

const QUARANTINED: &str = "quarantined";

/// Raise the fact generation by one; every change runs it in its own transaction.
const BUMP_GENERATION: &str = "UPDATE fact_meta SET value = value + 1 WHERE name = 'generation'";

const INSERT_FACT: &str = "INSERT INTO facts (scope_kind, scope_id, tier, text, chars, hash,
         source_conversation, source_start, source_end, created_ms, updated_ms, status)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, 'active')
     RETURNING id";

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
    let now = now_ms();
    let (source_conversation, source_start, source_end) = match &new.source {
        Some(source) => (
            Some(source.conversation.as_str()),
            Some(seq_to_sql(source.range.start)),
            Some(seq_to_sql(source.range.end)),
        ),
        None => (None, None, None),
    };
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
    index(&transaction, raw_id, &new.scope, &new.text)?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(Put::Inserted(Fact {
        id,
        scope: new.scope,
        tier: new.tier,
        text: new.text,
        source: new.source,
        hash,
        created_ms: now,
        updated_ms: now,
        status: FactStatus::Active,
    }))
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
    let deleted = transaction.prepare_cached("DELETE FROM facts WHERE id = ?1")?.execute(params![raw_id])?;
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
    let name =
        |column: &'static str, found: &str| BadRow::Name { id: raw_id, column, found: found.to_owned() };
    let conversation_id = |column: &'static str, text: &str| {
        ConversationId::new(text).map_err(|source| BadRow::Id { id: raw_id, column, source })
    };
    let scope_id = conversation_id("scope_id", row.get_ref(2)?.as_str()?)?;
    let scope = match row.get_ref(1)?.as_str()? {
        "user" => Scope::User(scope_id),
        "conversation" => Scope::Conversation(scope_id),
        other => return Err(name("scope_kind", other).into()),
    };
    let tier = match row.get_ref(3)?.as_str()? {
        "user_profile" => Tier::UserProfile,
        "agent_notes" => Tier::AgentNotes,
        other => return Err(name("tier", other).into()),
    };
    let text = row.get_ref(4)?.as_str()?.to_owned();
    let hash_bytes = row.get_ref(5)?.as_blob()?;
    let hash = <[u8; 32]>::try_from(hash_bytes)
        .map(ContentHash::from_bytes)
        .map_err(|_| BadRow::HashLength { id: raw_id, length: hash_bytes.len() })?;
    let source_conversation = row.get_ref(6)?.as_str_or_null()?;
    let source_start: Option<i64> = row.get(7)?;
    let source_end: Option<i64> = row.get(8)?;
    let source = match (source_conversation, source_start, source_end) {
        (Some(conversation), Some(start), Some(end)) => Some(FactSource {
            conversation: conversation_id("source_conversation", conversation)?,
            // Built field by field, so that the stored numbers come back exactly as written.
            range: SeqRange { start: Seq(start.cast_unsigned()), end: Seq(end.cast_unsigned()) },
        }),
        (None, None, None) => None,
        _ => return Err(BadRow::PartialSource { id: raw_id }.into()),
    };
    let status = match row.get_ref(11)?.as_str()? {
        ACTIVE => FactStatus::Active,
        QUARANTINED => FactStatus::Quarantined(
            row.get_ref(12)?.as_str_or_null()?.ok_or(BadRow::NoReason { id: raw_id })?.to_owned(),
        ),
        other => return Err(name("status", other).into()),
    };
    Ok(Fact {
        id: FactId(from_sql(raw_id, "id")?),
        scope,
        tier,
        text,
        source,
        hash,
        created_ms: from_sql(row.get(9)?, "created_ms")?,
        updated_ms: from_sql(row.get(10)?, "updated_ms")?,
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

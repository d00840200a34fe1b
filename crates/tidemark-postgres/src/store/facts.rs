//! [`PostgresStore`] as a [`FactStore`]: facts in the `facts` table of the same schema as the conversations.
//!
//! Every writing method runs one transaction whose first statement raises the
//! fact generation in `fact_meta`; the decisions it then makes (idempotence,
//! budget, duplicates, a run's sources, a rollback's order) are [`rules`]. That row lock is held until the transaction
//! ends, so fact writes from every process run one at a time: what a write
//! checks (idempotence, budget, duplicates, a run's sources) is still true
//! when it commits, and two processes cannot both slip under a budget. A write
//! that turns out to change nothing (a repeated put, a refusal) rolls back,
//! the raised generation with it.
//!
//! # Search
//!
//! PostgreSQL's full-text search has its own idea of words, so the store keeps
//! its own: `keywords` holds the distinct [`keywords`] of each fact's text,
//! computed here, with a GIN index over the active facts. A search loads the
//! active facts (of the scope, when given) that share at least one keyword
//! with the query, in id order, and ranks them with [`rank::top`] (BM25 over
//! those candidates; ties go to the older fact).
//!
//! # Consolidation
//!
//! A run is one row of `fact_runs` and one row of `fact_rollback` per merge,
//! written in the same transaction as the facts it retires and the ones it
//! adds. A record keeps the sources as JSON [`Fact`] values, so a rollback
//! writes them back with their ids, times, status and source ranges exactly as
//! they were. Restored ids were handed out by the identity column before, so
//! they stay below its next value and no later fact can get one of them.
//!
//! # Text
//!
//! PostgreSQL's text cannot hold the NUL character, so a fact text, a
//! quarantine reason or a pass name containing one is refused as
//! [`FactError::Invalid`] (the other stores accept it).

use std::collections::HashSet;
use std::fmt::Write as _;

use deadpool_postgres::GenericClient;
use tidemark_core::fact::rules::{self, Checked, PutDecision, RestoreStep, Restoring};
use tidemark_core::fact::{check_text, keywords, now_ms};
use tidemark_core::{
    BudgetUsage, ContentHash, Fact, FactBudgets, FactError, FactFilter, FactId, FactStatus, FactStore, Merge,
    Merged, NewFact, Put, RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope, StatusFilter, Tier,
};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::{Fail, PostgresStore, execute, query, query_opt};
use tidemark_core::fact::columns::{
    ACTIVE, BadRow, FactColumns, QUARANTINED, SUPERSEDED, parse_run_status, source_columns, status_columns,
};
use tidemark_core::fact::rank;
use tidemark_core::store::sql::{DataError, from_json, from_sql, to_json, to_sql};

type FactFail = Fail<FactError>;

impl PostgresStore {
    /// The same store with these fact budgets; the default is [`FactBudgets::default`].
    ///
    /// Budgets belong to the handle, not to the database: every handle checks
    /// writes against its own budgets, and a clone made before this call keeps
    /// the budgets it had.
    #[must_use]
    pub fn with_fact_budgets(mut self, budgets: FactBudgets) -> Self {
        self.fact_budgets = budgets;
        self
    }

    /// The fact budgets this handle checks writes against.
    pub fn fact_budgets(&self) -> FactBudgets {
        self.fact_budgets
    }
}

impl FactStore for PostgresStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        self.put_fact(fact).await.map_err(|fail| fail.named("put"))
    }

    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        let get = async {
            let client = self.client().await?;
            self.read_fact(&client, id).await
        };
        get.await.map_err(|fail| fail.named("get"))
    }

    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        self.list_facts(filter).await.map_err(|fail| fail.named("list"))
    }

    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        self.search_facts(scope, query, limit).await.map_err(|fail| fail.named("search"))
    }

    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        self.update_fact(id, text).await.map_err(|fail| fail.named("update"))
    }

    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        self.delete_fact(id).await.map_err(|fail| fail.named("delete"))
    }

    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.retire_fact(id, QUARANTINED, reason).await.map_err(|fail| fail.named("quarantine"))
    }

    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.retire_fact(id, SUPERSEDED, reason).await.map_err(|fail| fail.named("supersede"))
    }

    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        let usage = async {
            let client = self.client().await?;
            let used = self.used_chars(&client, scope, tier).await?;
            Ok(BudgetUsage::new(used, self.fact_budgets.limit(tier)))
        };
        usage.await.map_err(|fail: FactFail| fail.named("usage"))
    }

    async fn generation(&self) -> Result<u64, FactError> {
        let generation = async {
            let client = self.client().await?;
            let row = query_opt(&client, &self.sql(SELECT_GENERATION), &[]).await?;
            let raw: i64 = row.ok_or(BadRow::NoGeneration)?.try_get(0)?;
            Ok(from_sql(raw, "fact_meta.value")?)
        };
        generation.await.map_err(|fail: FactFail| fail.named("generation"))
    }

    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        self.consolidate_facts(pass, merges).await.map_err(|fail| fail.named("consolidate"))
    }

    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.finish(run).await.map_err(|fail| fail.named("finish_run"))
    }

    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.roll_back(run).await.map_err(|fail| fail.named("rollback"))
    }

    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        self.list_runs().await.map_err(|fail| fail.named("runs"))
    }

    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.records_of(run).await.map_err(|fail| fail.named("run_records"))
    }
}

impl From<BadRow> for FactFail {
    fn from(error: BadRow) -> Self {
        Self::Backend(Box::new(error))
    }
}

/// The columns every fact query selects, in the order [`fact_from_row`] reads them.
const COLUMNS: &str = "id, scope_kind, scope_id, tier, text, hash, source_conversation, source_start,
     source_end, created_ms, updated_ms, status, quarantine_reason";

/// Raise the fact generation; as the first statement of a write it also takes the lock that orders fact writes.
const LOCK_AND_BUMP: &str =
    "UPDATE {s}.fact_meta SET value = value + 1 WHERE name = 'generation' RETURNING value";

const SELECT_GENERATION: &str = "SELECT value FROM {s}.fact_meta WHERE name = 'generation'";

const INSERT_FACT: &str = "INSERT INTO {s}.facts (scope_kind, scope_id, tier, text, chars, hash, keywords,
         source_conversation, source_start, source_end, created_ms, updated_ms, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 'active')
     RETURNING id";

/// A fact put back by a rollback: every column as it was, the id included.
const RESTORE_FACT: &str =
    "INSERT INTO {s}.facts (id, scope_kind, scope_id, tier, text, chars, hash, keywords,
         source_conversation, source_start, source_end, created_ms, updated_ms, status, quarantine_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)";

const UPDATE_TEXT: &str = "UPDATE {s}.facts
     SET text = $2, chars = $3, hash = $4, keywords = $5, updated_ms = $6 WHERE id = $1";

const DELETE_FACT: &str = "DELETE FROM {s}.facts WHERE id = $1";

const DELETE_FACTS: &str = "DELETE FROM {s}.facts WHERE id = ANY ($1::bigint[])";

const SELECT_IDS: &str = "SELECT id FROM {s}.facts WHERE id = ANY ($1::bigint[])";

const SELECT_USED: &str = "SELECT coalesce(sum(chars), 0)::bigint FROM {s}.facts
     WHERE scope_kind = $1 AND scope_id = $2 AND tier = $3";

const INSERT_RUN: &str = "INSERT INTO {s}.fact_runs (pass, status, merges, created_ms)
     VALUES ($1, 'applied', $2, $3) RETURNING id";

const INSERT_RECORD: &str =
    "INSERT INTO {s}.fact_rollback (run, position, merged, sources) VALUES ($1, $2, $3, $4)";

const SELECT_RECORDS: &str = "SELECT merged, sources FROM {s}.fact_rollback WHERE run = $1 ORDER BY position";

/// A run and its records in one statement, so both are seen as of one moment; no row means no run.
const SELECT_RUN_RECORDS: &str = "SELECT r.status, fr.merged, fr.sources
     FROM {s}.fact_runs r LEFT JOIN {s}.fact_rollback fr ON fr.run = r.id
     WHERE r.id = $1 ORDER BY fr.position";

const SELECT_RUN_STATUS: &str = "SELECT status FROM {s}.fact_runs WHERE id = $1";

const SET_RUN_STATUS: &str = "UPDATE {s}.fact_runs SET status = $2 WHERE id = $1";

impl PostgresStore {
    async fn put_fact(&self, new: NewFact) -> Result<Put, FactFail> {
        let checked = rules::check_new(&new)?;
        storable(&new.text, "a fact's text")?;
        let mut client = self.client().await?;
        // A repeated delivery is common and needs no lock: a plain read finds it.
        if let Some(existing) = self.same_fact(&client, &new.scope, new.tier, &checked.hash).await?
            && !matches!(existing.status, FactStatus::Superseded(_))
        {
            return Ok(Put::Existing(existing));
        }
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        // Another process may have stored it since the read, so the lookup is repeated under the lock.
        let same = self.same_fact(&transaction, &new.scope, new.tier, &checked.hash).await?;
        let used = self.used_chars(&transaction, &new.scope, new.tier).await?;
        match rules::decide_put(&new, checked, same, used, self.fact_budgets)? {
            // Dropping the transaction rolls back the raised generation.
            PutDecision::Existing(existing) => return Ok(Put::Existing(existing)),
            PutDecision::Reactivate(superseded) => {
                let fact = self.write_status(&transaction, superseded.id, ACTIVE, None).await?;
                transaction.commit().await?;
                return Ok(Put::Existing(fact));
            }
            _ => {}
        }
        let fact = self.insert_new(&transaction, new, checked).await?;
        transaction.commit().await?;
        Ok(Put::Inserted(fact))
    }

    /// Store `new` as a new active fact and return it as stored; the caller has checked the text, duplicates and budget.
    async fn insert_new<C: GenericClient>(
        &self,
        client: &C,
        new: NewFact,
        checked: Checked,
    ) -> Result<Fact, FactFail> {
        let now = now_ms();
        let (source_conversation, source_start, source_end) = source_columns(new.source.as_ref());
        let row = query_opt(
            client,
            &self.sql(INSERT_FACT),
            &[
                &new.scope.kind(),
                &new.scope.id().as_str(),
                &new.tier.as_str(),
                &new.text,
                &to_sql(checked.chars as u64, "chars")?,
                &checked.hash.as_bytes().as_slice(),
                &distinct_keywords(&new.text),
                &source_conversation,
                &source_start,
                &source_end,
                &to_sql(now, "created_ms")?,
            ],
        )
        .await?;
        let raw_id: i64 = row.ok_or(DataError::Exhausted { column: "id" })?.try_get(0)?;
        Ok(rules::stored(FactId(from_sql(raw_id, "id")?), new, checked.hash, now))
    }

    async fn list_facts(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactFail> {
        // The statement is put together from fixed pieces only (at most twelve
        // different texts, each prepared once per connection), so that each
        // shape of filter gets a plan that can use the unique key's index;
        // every value goes in as a parameter.
        let mut conditions: Vec<String> = Vec::new();
        let mut values: Vec<&(dyn ToSql + Sync)> = Vec::new();
        let (kind, scope_id);
        if let Some(scope) = &filter.scope {
            (kind, scope_id) = (scope.kind(), scope.id().as_str());
            conditions.push(format!(
                "scope_kind = ${} AND scope_id = ${}",
                values.len() + 1,
                values.len() + 2
            ));
            values.push(&kind);
            values.push(&scope_id);
        }
        let tier;
        if let Some(wanted) = filter.tier {
            tier = wanted.as_str();
            conditions.push(format!("tier = ${}", values.len() + 1));
            values.push(&tier);
        }
        match filter.status {
            StatusFilter::Active => conditions.push(format!("status = '{ACTIVE}'")),
            StatusFilter::Quarantined => conditions.push(format!("status = '{QUARANTINED}'")),
            StatusFilter::Superseded => conditions.push(format!("status = '{SUPERSEDED}'")),
            StatusFilter::Any => {}
            other => {
                return Err(FactError::Invalid {
                    reason: format!("status filter {other:?} is not supported"),
                }
                .into());
            }
        }
        let mut sql = format!("SELECT {COLUMNS} FROM {{s}}.facts");
        if !conditions.is_empty() {
            let _ = write!(sql, " WHERE {}", conditions.join(" AND "));
        }
        sql.push_str(" ORDER BY id");
        let client = self.client().await?;
        let rows = query(&client, &self.sql(&sql), &values).await?;
        rows.iter().map(fact_from_row).collect()
    }

    async fn search_facts(
        &self,
        scope: Option<&Scope>,
        text: &str,
        limit: usize,
    ) -> Result<Vec<Fact>, FactFail> {
        let wanted = distinct_keywords(text);
        if wanted.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let client = self.client().await?;
        let base =
            format!("SELECT {COLUMNS} FROM {{s}}.facts WHERE status = 'active' AND keywords && $1::text[]");
        let rows = match scope {
            Some(scope) => {
                let sql = format!("{base} AND scope_kind = $2 AND scope_id = $3 ORDER BY id");
                query(&client, &self.sql(&sql), &[&wanted, &scope.kind(), &scope.id().as_str()]).await?
            }
            None => query(&client, &self.sql(&format!("{base} ORDER BY id")), &[&wanted]).await?,
        };
        let mut candidates: Vec<Option<Fact>> =
            rows.iter().map(|row| fact_from_row(row).map(Some)).collect::<Result<_, _>>()?;
        let texts: Vec<&str> =
            candidates.iter().map(|fact| fact.as_ref().map_or("", |fact| fact.text.as_str())).collect();
        let ranked = rank::top(text, &texts, limit);
        Ok(ranked.into_iter().filter_map(|index| candidates.get_mut(index).and_then(Option::take)).collect())
    }

    async fn update_fact(&self, id: FactId, text: String) -> Result<Fact, FactFail> {
        check_text(&text)?;
        storable(&text, "a fact's text")?;
        let Ok(raw_id) = i64::try_from(id.0) else { return Err(FactError::NotFound(id).into()) };
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        let current = self.read_fact(&transaction, id).await?.ok_or(FactError::NotFound(id))?;
        let checked = rules::check_text_of(current.tier, &text)?;
        let same = self.same_fact(&transaction, &current.scope, current.tier, &checked.hash).await?;
        let used = self.used_chars(&transaction, &current.scope, current.tier).await?;
        rules::check_update(&current, checked, same.as_ref(), used, self.fact_budgets)?;
        let fact = rules::updated(current, text, checked.hash, now_ms());
        execute(
            &transaction,
            &self.sql(UPDATE_TEXT),
            &[
                &raw_id,
                &fact.text,
                &to_sql(checked.chars as u64, "chars")?,
                &checked.hash.as_bytes().as_slice(),
                &distinct_keywords(&fact.text),
                &to_sql(fact.updated_ms, "updated_ms")?,
            ],
        )
        .await?;
        transaction.commit().await?;
        Ok(fact)
    }

    async fn delete_fact(&self, id: FactId) -> Result<bool, FactFail> {
        let Ok(raw_id) = i64::try_from(id.0) else { return Ok(false) };
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        if execute(&transaction, &self.sql(DELETE_FACT), &[&raw_id]).await? == 0 {
            return Ok(false);
        }
        transaction.commit().await?;
        Ok(true)
    }

    /// Quarantine or supersede (by `status`, a status column name) the fact `id` for `reason`.
    async fn retire_fact(&self, id: FactId, status: &'static str, reason: String) -> Result<Fact, FactFail> {
        storable(&reason, "a quarantine reason")?;
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        let fact = self.write_status(&transaction, id, status, Some(&reason)).await?;
        transaction.commit().await?;
        Ok(fact)
    }

    /// Set the status columns of fact `id`, with the update time now; the caller holds the facts' lock.
    async fn write_status<C: GenericClient>(
        &self,
        client: &C,
        id: FactId,
        status: &'static str,
        reason: Option<&str>,
    ) -> Result<Fact, FactFail> {
        let Ok(raw_id) = i64::try_from(id.0) else { return Err(FactError::NotFound(id).into()) };
        let sql = format!(
            "UPDATE {{s}}.facts SET status = '{status}', quarantine_reason = $2, updated_ms = $3
             WHERE id = $1 RETURNING {COLUMNS}"
        );
        let row = query_opt(client, &self.sql(&sql), &[&raw_id, &reason, &to_sql(now_ms(), "updated_ms")?])
            .await?
            .ok_or(FactError::NotFound(id))?;
        fact_from_row(&row)
    }

    /// Apply every merge in one transaction, or none: the first refusal or failure drops the transaction unwritten.
    async fn consolidate_facts(
        &self,
        pass: &str,
        merges: Vec<Merge>,
    ) -> Result<(RunId, Vec<Merged>), FactFail> {
        storable(pass, "a pass name")?;
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        // A refused run takes its row with it; its id is not handed out again.
        let row = query_opt(
            &transaction,
            &self.sql(INSERT_RUN),
            &[&pass, &to_sql(merges.len() as u64, "merges")?, &to_sql(now_ms(), "created_ms")?],
        )
        .await?;
        let raw_run: i64 = row.ok_or(DataError::Exhausted { column: "fact_runs.id" })?.try_get(0)?;
        let run = RunId(from_sql(raw_run, "fact_runs.id")?);
        let mut applied = Vec::with_capacity(merges.len());
        for (position, merge) in merges.into_iter().enumerate() {
            let position = to_sql(position as u64, "position")?;
            applied.push(self.apply_merge(&transaction, run, raw_run, position, merge).await?);
        }
        transaction.commit().await?;
        Ok((run, applied))
    }

    /// One merge of a run, inside the run's transaction: check the sources, retire them, store the merged fact, record them.
    ///
    /// The checks come in the order of the in-memory store, so both report the same error for the same run.
    async fn apply_merge<C: GenericClient>(
        &self,
        client: &C,
        run: RunId,
        raw_run: i64,
        position: i64,
        merge: Merge,
    ) -> Result<Merged, FactFail> {
        merge.merged.check()?;
        storable(&merge.merged.text, "a fact's text")?;
        let mut found = Vec::with_capacity(merge.sources.len());
        for id in &merge.sources {
            // An earlier merge of this run has already removed its sources, so they read as "not stored" here.
            found.push(self.read_fact(client, *id).await?);
        }
        let sources = rules::merge_sources(&merge, found)?;
        let raw_ids =
            sources.iter().map(|source| to_sql(source.id.0, "id")).collect::<Result<Vec<_>, _>>()?;
        execute(client, &self.sql(DELETE_FACTS), &[&raw_ids]).await?;
        let new = merge.merged;
        let checked = rules::check_new(&new)?;
        let other = self.same_fact(client, &new.scope, new.tier, &checked.hash).await?;
        let used = self.used_chars(client, &new.scope, new.tier).await?;
        rules::check_merged(&new, checked, other.as_ref(), used, self.fact_budgets)?;
        let fact = self.insert_new(client, new, checked).await?;
        execute(
            client,
            &self.sql(INSERT_RECORD),
            &[&raw_run, &position, &to_sql(fact.id.0, "id")?, &to_json(&sources, "fact_rollback.sources")?],
        )
        .await?;
        let record = RollbackRecord::new(run, fact.id, sources);
        Ok(Merged::new(fact, record))
    }

    async fn finish(&self, run: RunId) -> Result<(), FactFail> {
        let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        // A run that needs no new status is no change: dropping the transaction undoes the raised generation.
        if let Some(status) = rules::finish(run, self.run_status(&transaction, raw_run).await?)? {
            execute(&transaction, &self.sql(SET_RUN_STATUS), &[&raw_run, &status.as_str()]).await?;
            transaction.commit().await?;
        }
        Ok(())
    }

    /// Undo a run in one transaction, in the order of [`rules::restore_steps`]; a clash drops the transaction unwritten.
    async fn roll_back(&self, run: RunId) -> Result<RolledBack, FactFail> {
        let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        self.lock_facts(&transaction).await?;
        if !rules::must_roll_back(run, self.run_status(&transaction, raw_run).await?)? {
            return Ok(RolledBack::default());
        }
        let rows = query(&transaction, &self.sql(SELECT_RECORDS), &[&raw_run]).await?;
        let records = rows.iter().map(|row| record_from_row(run, row, 0)).collect::<Result<Vec<_>, _>>()?;
        let source_ids: Vec<i64> = records
            .iter()
            .flat_map(|record| &record.sources)
            .filter_map(|source| i64::try_from(source.id.0).ok())
            .collect();
        let rows = query(&transaction, &self.sql(SELECT_IDS), &[&source_ids]).await?;
        let existing: HashSet<FactId> = rows
            .iter()
            .map(|row| Ok(FactId(from_sql(row.try_get(0)?, "id")?)))
            .collect::<Result<_, FactFail>>()?;
        rules::check_ids_free(run, &records, &existing)?;
        let mut tally = Restoring::new(run);
        for step in rules::restore_steps(&records) {
            match step {
                RestoreStep::RemoveMerged(id) => {
                    let removed = match i64::try_from(id.0) {
                        Ok(raw_merged) => {
                            execute(&transaction, &self.sql(DELETE_FACT), &[&raw_merged]).await? > 0
                        }
                        Err(_) => false,
                    };
                    tally.removed(removed);
                }
                RestoreStep::Restore(source) => {
                    let other =
                        self.same_fact(&transaction, &source.scope, source.tier, &source.hash).await?;
                    if !tally.clash(source, other.as_ref()) {
                        self.restore(&transaction, source).await?;
                    }
                }
            }
        }
        let outcome = tally.finish()?;
        execute(&transaction, &self.sql(SET_RUN_STATUS), &[&raw_run, &RunStatus::RolledBack.as_str()])
            .await?;
        transaction.commit().await?;
        Ok(outcome)
    }

    /// Write `fact` back exactly as it was stored; only its length and keywords are computed again.
    async fn restore<C: GenericClient>(&self, client: &C, fact: &Fact) -> Result<(), FactFail> {
        let (source_conversation, source_start, source_end) = source_columns(fact.source.as_ref());
        let (status, reason) = status_columns(&fact.status);
        execute(
            client,
            &self.sql(RESTORE_FACT),
            &[
                &to_sql(fact.id.0, "id")?,
                &fact.scope.kind(),
                &fact.scope.id().as_str(),
                &fact.tier.as_str(),
                &fact.text,
                &to_sql(fact.chars() as u64, "chars")?,
                &fact.hash.as_bytes().as_slice(),
                &distinct_keywords(&fact.text),
                &source_conversation,
                &source_start,
                &source_end,
                &to_sql(fact.created_ms, "created_ms")?,
                &to_sql(fact.updated_ms, "updated_ms")?,
                &status,
                &reason,
            ],
        )
        .await?;
        Ok(())
    }

    async fn list_runs(&self) -> Result<Vec<RunInfo>, FactFail> {
        let client = self.client().await?;
        let sql = self.sql("SELECT id, pass, status, merges, created_ms FROM {s}.fact_runs ORDER BY id");
        let rows = query(&client, &sql, &[]).await?;
        let mut runs = Vec::with_capacity(rows.len());
        for row in rows {
            let raw_run: i64 = row.try_get(0)?;
            runs.push(RunInfo::new(
                RunId(from_sql(raw_run, "fact_runs.id")?),
                row.try_get::<_, String>(1)?,
                parse_run_status(raw_run, row.try_get(2)?)?,
                from_sql(row.try_get(3)?, "fact_runs.merges")?,
                from_sql(row.try_get(4)?, "fact_runs.created_ms")?,
            ));
        }
        Ok(runs)
    }

    async fn records_of(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactFail> {
        let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
        let client = self.client().await?;
        let rows = query(&client, &self.sql(SELECT_RUN_RECORDS), &[&raw_run]).await?;
        rules::run_exists(run, !rows.is_empty())?;
        let mut records = Vec::with_capacity(rows.len());
        for row in &rows {
            parse_run_status(raw_run, row.try_get(0)?)?;
            // A run without merges comes back as one row with no record in it.
            if row.try_get::<_, Option<i64>>(1)?.is_some() {
                records.push(record_from_row(run, row, 1)?);
            }
        }
        Ok(records)
    }

    /// Raise the generation and take the lock that orders fact writes; the caller commits only if it changed something.
    async fn lock_facts<C: GenericClient>(&self, client: &C) -> Result<(), FactFail> {
        if query_opt(client, &self.sql(LOCK_AND_BUMP), &[]).await?.is_none() {
            return Err(BadRow::NoGeneration.into());
        }
        Ok(())
    }

    /// The status of run `raw_run`, `None` when there is no such run.
    async fn run_status<C: GenericClient>(
        &self,
        client: &C,
        raw_run: i64,
    ) -> Result<Option<RunStatus>, FactFail> {
        let Some(row) = query_opt(client, &self.sql(SELECT_RUN_STATUS), &[&raw_run]).await? else {
            return Ok(None);
        };
        Ok(Some(parse_run_status(raw_run, row.try_get(0)?)?))
    }

    /// The fact of `scope` and `tier` whose text has `hash`, if any.
    async fn same_fact<C: GenericClient>(
        &self,
        client: &C,
        scope: &Scope,
        tier: Tier,
        hash: &ContentHash,
    ) -> Result<Option<Fact>, FactFail> {
        let sql = format!(
            "SELECT {COLUMNS} FROM {{s}}.facts
             WHERE scope_kind = $1 AND scope_id = $2 AND tier = $3 AND hash = $4"
        );
        let row = query_opt(
            client,
            &self.sql(&sql),
            &[&scope.kind(), &scope.id().as_str(), &tier.as_str(), &hash.as_bytes().as_slice()],
        )
        .await?;
        row.as_ref().map(fact_from_row).transpose()
    }

    async fn read_fact<C: GenericClient>(&self, client: &C, id: FactId) -> Result<Option<Fact>, FactFail> {
        let Ok(raw_id) = i64::try_from(id.0) else { return Ok(None) };
        let sql = format!("SELECT {COLUMNS} FROM {{s}}.facts WHERE id = $1");
        let row = query_opt(client, &self.sql(&sql), &[&raw_id]).await?;
        row.as_ref().map(fact_from_row).transpose()
    }

    /// Characters stored in `scope` and `tier`, quarantined facts included.
    async fn used_chars<C: GenericClient>(
        &self,
        client: &C,
        scope: &Scope,
        tier: Tier,
    ) -> Result<usize, FactFail> {
        let row =
            query_opt(client, &self.sql(SELECT_USED), &[&scope.kind(), &scope.id().as_str(), &tier.as_str()])
                .await?;
        let raw: i64 = row.map(|row| row.try_get(0)).transpose()?.unwrap_or(0);
        Ok(from_sql(raw, "chars")?)
    }
}

/// Refuse a text PostgreSQL cannot store: its text type has no room for the NUL character.
fn storable(text: &str, what: &str) -> Result<(), FactError> {
    if text.contains('\0') {
        return Err(FactError::Invalid {
            reason: format!("{what} contains a NUL character, which PostgreSQL text cannot hold"),
        });
    }
    Ok(())
}

/// The keywords of `text`, each once, in the order they first appear.
fn distinct_keywords(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    keywords(text).filter(|keyword| seen.insert(keyword.clone())).collect()
}

/// A record from a row whose columns `first` and `first + 1` are the merged fact's id and the sources' JSON.
fn record_from_row(run: RunId, row: &Row, first: usize) -> Result<RollbackRecord, FactFail> {
    Ok(RollbackRecord::new(
        run,
        FactId(from_sql(row.try_get(first)?, "fact_rollback.merged")?),
        from_json(row.try_get(first + 1)?, "fact_rollback.sources")?,
    ))
}

/// A row of [`COLUMNS`] as a fact, refusing anything this store would not have written.
fn fact_from_row(row: &Row) -> Result<Fact, FactFail> {
    let raw_id: i64 = row.try_get(0)?;
    let columns = FactColumns {
        raw_id,
        id: FactId(from_sql(raw_id, "id")?),
        scope_kind: row.try_get(1)?,
        scope_id: row.try_get(2)?,
        tier: row.try_get(3)?,
        text: row.try_get(4)?,
        hash: row.try_get(5)?,
        source: (row.try_get(6)?, row.try_get(7)?, row.try_get(8)?),
        created_ms: from_sql(row.try_get(9)?, "created_ms")?,
        updated_ms: from_sql(row.try_get(10)?, "updated_ms")?,
        status: row.try_get(11)?,
        quarantine_reason: row.try_get(12)?,
    };
    Ok(columns.decode()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_stored_once_each() {
        assert_eq!(distinct_keywords("Tea, tea and TEA: green tea"), ["tea", "and", "green"]);
        assert!(distinct_keywords(" -*:\"()' 🦀").is_empty());
    }

    #[test]
    fn nul_characters_are_refused() {
        assert!(storable("fine text", "a fact's text").is_ok());
        assert!(matches!(storable("a\0b", "a fact's text"), Err(FactError::Invalid { .. })));
    }
}

//! Consolidation runs in SQLite: applying a run's merges, finishing it, rolling it back, and reading runs and their records.
//!
//! A run is one row of `fact_runs` and one row of `fact_rollback` per merge,
//! written in the same transaction as the facts it retires and the ones it
//! adds. A record keeps the sources as JSON [`Fact`] values, so a rollback
//! writes them back with their ids, times, status and source ranges exactly as
//! they were; the restored ids are below the table's AUTOINCREMENT counter, so
//! they never make a later fact reuse an id. What to check and in which order
//! to undo is decided by [`rules`]; this module only reads and writes rows.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use tidemark_core::fact::now_ms;
use tidemark_core::fact::rules::{self, RestoreStep, Restoring};
use tidemark_core::{
    Fact, FactBudgets, FactError, FactId, Merge, Merged, RollbackRecord, RolledBack, RunId, RunInfo,
    RunStatus,
};

use super::search::{DELETE_TERMS, index};
use super::{DELETE_FACT, Trouble, bump_generation, insert_new, read_fact, same_fact, used_chars};
use tidemark_core::fact::columns::{parse_run_status, source_columns, status_columns};
use tidemark_core::store::sql::{from_json, from_sql, to_json, to_sql};

/// A fact put back by a rollback: every column as it was, the id included.
const RESTORE_FACT: &str = "INSERT INTO facts (id, scope_kind, scope_id, tier, text, chars, hash,
         source_conversation, source_start, source_end, created_ms, updated_ms, status, quarantine_reason)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";

const INSERT_RUN: &str = "INSERT INTO fact_runs (pass, status, merges, created_ms)
     VALUES (?1, 'applied', ?2, ?3)
     RETURNING id";

/// A rollback record, written before its merged fact exists: the merged id is set afterwards by [`SET_MERGED`].
const INSERT_RECORD: &str =
    "INSERT INTO fact_rollback (run, position, merged, sources) VALUES (?1, ?2, 0, ?3)";

const SET_MERGED: &str = "UPDATE fact_rollback SET merged = ?3 WHERE run = ?1 AND position = ?2";

const SELECT_RECORDS: &str = "SELECT merged, sources FROM fact_rollback WHERE run = ?1 ORDER BY position";

const SET_RUN_STATUS: &str = "UPDATE fact_runs SET status = ?2 WHERE id = ?1";

/// Apply every merge in one transaction, or none: the first refusal or failure drops the transaction unwritten.
pub(super) fn consolidate(
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
fn apply_merge(
    transaction: &Transaction<'_>,
    budgets: FactBudgets,
    run: RunId,
    raw_run: i64,
    position: i64,
    merge: Merge,
) -> Result<Merged, Trouble> {
    // An earlier merge of this run has already removed its sources, so they read as "not stored" here.
    let found = merge.sources.iter().map(|id| read_fact(transaction, *id)).collect::<Result<_, _>>()?;
    let sources = rules::merge_sources(&merge, found)?;
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
    let new = merge.merged;
    let checked = rules::check_new(&new)?;
    let other = same_fact(transaction, &new.scope, new.tier, &checked.hash)?;
    let used = used_chars(transaction, &new.scope, new.tier)?;
    rules::check_merged(&new, checked, other.as_ref(), used, budgets)?;
    let fact = insert_new(transaction, new, checked)?;
    transaction.prepare_cached(SET_MERGED)?.execute(params![raw_run, position, to_sql(fact.id.0, "id")?])?;
    let record = RollbackRecord::new(run, fact.id, sources);
    Ok(Merged::new(fact, record))
}

pub(super) fn finish_run(connection: &mut Connection, run: RunId) -> Result<(), Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if let Some(status) = rules::finish(run, run_status(&transaction, raw_run)?)? {
        transaction.prepare_cached(SET_RUN_STATUS)?.execute(params![raw_run, status.as_str()])?;
        bump_generation(&transaction)?;
        transaction.commit()?;
    }
    Ok(())
}

/// Undo a run in one transaction, in the order of [`rules::restore_steps`]; a clash drops the transaction unwritten.
pub(super) fn rollback(connection: &mut Connection, run: RunId) -> Result<RolledBack, Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if !rules::must_roll_back(run, run_status(&transaction, raw_run)?)? {
        return Ok(RolledBack::default());
    }
    let records = read_records(&transaction, run, raw_run)?;
    let mut existing = HashSet::new();
    for source in records.iter().flat_map(|record| &record.sources) {
        if fact_exists(&transaction, source.id)? {
            existing.insert(source.id);
        }
    }
    rules::check_ids_free(run, &records, &existing)?;
    let mut tally = Restoring::new(run);
    for step in rules::restore_steps(&records) {
        match step {
            RestoreStep::RemoveMerged(id) => {
                let removed = match i64::try_from(id.0) {
                    Ok(raw_merged) => {
                        let removed =
                            transaction.prepare_cached(DELETE_FACT)?.execute(params![raw_merged])? > 0;
                        if removed {
                            transaction.prepare_cached(DELETE_TERMS)?.execute(params![raw_merged])?;
                        }
                        removed
                    }
                    Err(_) => false,
                };
                tally.removed(removed);
            }
            RestoreStep::Restore(source) => {
                let other = same_fact(&transaction, &source.scope, source.tier, &source.hash)?;
                if !tally.clash(source, other.as_ref()) {
                    restore(&transaction, source)?;
                }
            }
        }
    }
    let outcome = tally.finish()?;
    transaction.prepare_cached(SET_RUN_STATUS)?.execute(params![raw_run, RunStatus::RolledBack.as_str()])?;
    bump_generation(&transaction)?;
    transaction.commit()?;
    Ok(outcome)
}

/// Write `fact` back exactly as it was stored; only its length is counted again, and only an active fact is indexed.
fn restore(transaction: &Transaction<'_>, fact: &Fact) -> Result<(), Trouble> {
    let raw_id = to_sql(fact.id.0, "id")?;
    let (source_conversation, source_start, source_end) = source_columns(fact.source.as_ref());
    let (status, reason) = status_columns(&fact.status);
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

pub(super) fn runs(connection: &Connection) -> Result<Vec<RunInfo>, Trouble> {
    let mut select = connection
        .prepare_cached("SELECT id, pass, status, merges, created_ms FROM fact_runs ORDER BY id")?;
    let mut rows = select.query([])?;
    let mut runs = Vec::new();
    while let Some(row) = rows.next()? {
        let raw_run: i64 = row.get(0)?;
        runs.push(RunInfo::new(
            RunId(from_sql(raw_run, "fact_runs.id")?),
            row.get_ref(1)?.as_str()?,
            parse_run_status(raw_run, row.get_ref(2)?.as_str()?)?,
            from_sql(row.get(3)?, "fact_runs.merges")?,
            from_sql(row.get(4)?, "fact_runs.created_ms")?,
        ));
    }
    Ok(runs)
}

pub(super) fn run_records(connection: &mut Connection, run: RunId) -> Result<Vec<RollbackRecord>, Trouble> {
    let Ok(raw_run) = i64::try_from(run.0) else { return Err(FactError::RunNotFound(run).into()) };
    // One read transaction, so that the run and its records are seen as of one moment.
    let transaction = connection.transaction()?;
    rules::run_exists(run, run_status(&transaction, raw_run)?.is_some())?;
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

/// The records of a run, in merge order.
fn read_records(connection: &Connection, run: RunId, raw_run: i64) -> Result<Vec<RollbackRecord>, Trouble> {
    let mut select = connection.prepare_cached(SELECT_RECORDS)?;
    let mut rows = select.query(params![raw_run])?;
    let mut records = Vec::new();
    while let Some(row) = rows.next()? {
        records.push(RollbackRecord::new(
            run,
            FactId(from_sql(row.get(0)?, "fact_rollback.merged")?),
            from_json(row.get_ref(1)?.as_str()?, "fact_rollback.sources")?,
        ));
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

//! Compaction history in the SQLite file: one `epochs` row per state written (see `tidemark_core::history`), and the restores and forks that read it.

use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use tidemark_core::history::{
    Epoch, EpochKind, HistoryError, check_restorable, fork_plan, never_written, now_ms,
};
use tidemark_core::store::StoredSummary;
use tidemark_core::store::sql::{DataError, from_json, from_sql, to_json, to_sql};
use tidemark_core::{CompactionState, ConversationId, Seq, StoreError};

use super::{Caches, Fail, UPSERT_COUNTS, UPSERT_STATE, calibration, read_counts, read_generation, users};

const INSERT: &str = "INSERT INTO epochs (conversation, generation, kind, restored_from, undo_to, next_seq,
                                          at_ms, watermark, retained, summary)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

const SELECT: &str = "SELECT generation, kind, restored_from, undo_to, next_seq, at_ms, watermark, retained,
                             summary
     FROM epochs WHERE conversation = ?1";

/// Write `epoch`'s state as conversation `id`'s state row and record the epoch, the summary turned into JSON once for both.
pub(super) fn save(transaction: &Transaction<'_>, id: &str, epoch: &Epoch) -> Result<(), Fail> {
    let summary = write_state_row(transaction, id, &epoch.state)?;
    insert(transaction, id, epoch, summary.as_deref())
}

/// Write `state` (its generation set) as conversation `id`'s state row; returns its summary as JSON.
pub(super) fn write_state_row(
    transaction: &Transaction<'_>,
    id: &str,
    state: &CompactionState,
) -> Result<Option<String>, Fail> {
    let summary = state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
    transaction.prepare_cached(UPSERT_STATE)?.execute(params![
        id,
        to_sql(state.generation, "generation")?,
        to_sql(state.watermark.0, "watermark")?,
        to_json(&state.retained, "retained")?,
        summary,
    ])?;
    Ok(summary)
}

/// Record `epoch` of conversation `id`, in the transaction that wrote its state.
pub(super) fn record(transaction: &Transaction<'_>, id: &str, epoch: &Epoch) -> Result<(), Fail> {
    let summary = epoch.state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
    insert(transaction, id, epoch, summary.as_deref())
}

fn insert(transaction: &Transaction<'_>, id: &str, epoch: &Epoch, summary: Option<&str>) -> Result<(), Fail> {
    let restored_from = match epoch.kind {
        EpochKind::Restored { from } => from.map(|from| to_sql(from, "restored_from")).transpose()?,
        _ => None,
    };
    transaction.prepare_cached(INSERT)?.execute(params![
        id,
        to_sql(epoch.generation, "generation")?,
        epoch.kind.name(),
        restored_from,
        epoch.undo_to.map(|to| to_sql(to, "undo_to")).transpose()?,
        to_sql(epoch.next_seq.0, "next_seq")?,
        to_sql(epoch.at_ms, "at_ms")?,
        to_sql(epoch.state.watermark.0, "watermark")?,
        to_json(&epoch.state.retained, "retained")?,
        summary,
    ])?;
    Ok(())
}

/// Forget every epoch of conversation `id` (a clear, before it records its own).
pub(super) fn clear(transaction: &Transaction<'_>, id: &str) -> Result<(), Fail> {
    transaction.prepare_cached("DELETE FROM epochs WHERE conversation = ?1")?.execute(params![id])?;
    Ok(())
}

/// Every epoch of conversation `id`, ascending by generation.
pub(super) fn all(connection: &Connection, id: &str) -> Result<Vec<Epoch>, Fail> {
    let mut select = connection.prepare_cached(&format!("{SELECT} ORDER BY generation"))?;
    let mut rows = select.query(params![id])?;
    let mut epochs = Vec::new();
    while let Some(row) = rows.next()? {
        epochs.push(decode(row)?);
    }
    Ok(epochs)
}

/// The epoch of conversation `id` with `generation`, if there is one.
pub(super) fn one(connection: &Connection, id: &str, generation: u64) -> Result<Option<Epoch>, Fail> {
    let mut select = connection.prepare_cached(&format!("{SELECT} AND generation = ?2"))?;
    let raw = to_sql(generation, "generation")?;
    let found = select.query_row(params![id, raw], |row| Ok(decode(row))).optional()?;
    found.transpose()
}

fn decode(row: &rusqlite::Row<'_>) -> Result<Epoch, Fail> {
    let generation: u64 = from_sql(row.get(0)?, "generation")?;
    let restored_from: Option<i64> = row.get(2)?;
    let restored_from = restored_from.map(|from| from_sql(from, "restored_from")).transpose()?;
    let kind = match row.get_ref(1)?.as_str()? {
        "saved" => EpochKind::Saved,
        "restored" => EpochKind::Restored { from: restored_from },
        "cleared" => EpochKind::Cleared,
        "migrated" => EpochKind::Migrated,
        _ => return Err(DataError::Inconsistent { column: "kind" }.into()),
    };
    let undo_to: Option<i64> = row.get(3)?;
    let undo_to = undo_to.map(|to| from_sql(to, "undo_to")).transpose()?;
    let retained: Vec<Seq> = from_json(row.get_ref(7)?.as_str()?, "retained")?;
    let summary: Option<StoredSummary> =
        row.get_ref(8)?.as_str_or_null()?.map(|json| from_json(json, "summary")).transpose()?;
    let state = CompactionState::new(Seq(from_sql(row.get(6)?, "watermark")?), retained, summary);
    Ok(Epoch::new(
        generation,
        kind,
        undo_to,
        Seq(from_sql(row.get(4)?, "next_seq")?),
        from_sql(row.get(5)?, "at_ms")?,
        state,
    ))
}

pub(super) fn restore_state(
    connection: &mut Connection,
    caches: &Caches,
    conversation: &ConversationId,
    expected_generation: u64,
    target: Option<u64>,
) -> Result<CompactionState, Fail> {
    let id = conversation.as_str();
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = read_generation(&transaction, id)?.unwrap_or(0);
    if found != expected_generation {
        return Err(StoreError::StateConflict { expected: expected_generation, found }.into());
    }
    let Some(counts) = read_counts(&transaction, id)? else {
        return Err(never_written(expected_generation, target).into());
    };
    let (mut state, undo_to) = match target {
        None => (CompactionState::default(), None),
        Some(generation) => {
            let epoch = one(&transaction, id, generation)?
                .ok_or(StoreError::History(HistoryError::UnknownEpoch { generation }))?;
            (epoch.state, epoch.undo_to)
        }
    };
    let from_watermark: i64 = transaction
        .prepare_cached("SELECT COUNT(*) FROM messages WHERE conversation = ?1 AND seq >= ?2")?
        .query_row(params![id, to_sql(state.watermark.0, "watermark")?], |row| row.get(0))?;
    let retained: i64 = transaction
        .prepare_cached(
            "SELECT COUNT(*) FROM messages
             WHERE conversation = ?1 AND seq IN (SELECT value FROM json_each(?2))",
        )?
        .query_row(params![id, to_json(&state.retained, "retained")?], |row| row.get(0))?;
    check_restorable(
        &state,
        counts.next_seq,
        from_sql(from_watermark, "stored")?,
        from_sql(retained, "stored")?,
    )
    .map_err(StoreError::History)?;
    let generation =
        expected_generation.checked_add(1).ok_or(DataError::Exhausted { column: "generation" })?;
    state.generation = generation;
    let kind = EpochKind::Restored { from: target };
    let epoch = Epoch::new(generation, kind, undo_to, counts.next_seq, now_ms(), state.clone());
    save(&transaction, id, &epoch)?;
    transaction.commit()?;
    caches.states.insert(conversation.clone(), Arc::new(state.clone()));
    Ok(state)
}

pub(super) fn fork(
    connection: &mut Connection,
    source: &str,
    at: Seq,
    target: &str,
) -> Result<CompactionState, Fail> {
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if read_counts(&transaction, target)?.is_some() {
        let conversation =
            ConversationId::new(target).map_err(|_| DataError::Inconsistent { column: "id" })?;
        return Err(StoreError::History(HistoryError::Exists { conversation }).into());
    }
    // An unknown source is an empty conversation.
    let next_seq = read_counts(&transaction, source)?.map_or(Seq::ZERO, |counts| counts.next_seq);
    let epochs = all(&transaction, source)?;
    let (kept, state) = fork_plan(&epochs, at, next_seq).map_err(StoreError::History)?;
    let at_raw = to_sql(at.0, "seq")?;
    let window: i64 = transaction
        .prepare_cached("SELECT COUNT(*) FROM messages WHERE conversation = ?1 AND seq >= ?2 AND seq < ?3")?
        .query_row(params![source, to_sql(state.watermark.0, "watermark")?, at_raw], |row| row.get(0))?;
    let retained: i64 = transaction
        .prepare_cached(
            "SELECT COUNT(*) FROM messages
             WHERE conversation = ?1 AND seq IN (SELECT value FROM json_each(?2))",
        )?
        .query_row(params![source, to_json(&state.retained, "retained")?], |row| row.get(0))?;
    check_restorable(&state, at, from_sql(window, "stored")?, from_sql(retained, "stored")?)
        .map_err(StoreError::History)?;
    // The conversation's row comes first: the messages refer to it.
    transaction.prepare_cached(UPSERT_COUNTS)?.execute(params![target, at_raw, 0, 0])?;
    // The rows are copied in one statement: SQLite has no way to share them between conversations.
    transaction
        .prepare_cached(
            "INSERT INTO messages (conversation, seq, tokens, body)
             SELECT ?1, seq, tokens, body FROM messages WHERE conversation = ?2 AND seq < ?3",
        )?
        .execute(params![target, source, at_raw])?;
    let (stored, tokens): (i64, i64) = transaction
        .prepare_cached("SELECT COUNT(*), COALESCE(SUM(tokens), 0) FROM messages WHERE conversation = ?1")?
        .query_row(params![target], |row| Ok((row.get(0)?, row.get(1)?)))?;
    transaction.prepare_cached(UPSERT_COUNTS)?.execute(params![target, at_raw, stored, tokens])?;
    if state.generation > 0 {
        write_state_row(&transaction, target, &state)?;
    }
    for epoch in &kept {
        record(&transaction, target, epoch)?;
    }
    let calibration = calibration::read(&transaction, source)?;
    if !calibration.is_empty() {
        calibration::write(&transaction, target, &calibration)?;
    }
    let user: Option<String> = transaction
        .prepare_cached("SELECT user_id FROM conversation_users WHERE conversation = ?1")?
        .query_row(params![source], |row| row.get(0))
        .optional()?;
    if let Some(user) = user {
        users::assign(&transaction, target, &user)?;
    }
    transaction.commit()?;
    Ok(state)
}

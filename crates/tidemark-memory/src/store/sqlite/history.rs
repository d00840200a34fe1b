//! Compaction history in the SQLite file: one `epochs` row per state written (see `tidemark_core::history`).

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use tidemark_core::history::{Epoch, EpochKind};
use tidemark_core::store::StoredSummary;
use tidemark_core::store::sql::{DataError, from_json, from_sql, to_json, to_sql};
use tidemark_core::{CompactionState, Seq};

use super::Fail;

const INSERT: &str = "INSERT INTO epochs (conversation, generation, kind, restored_from, undo_to, next_seq,
                                          at_ms, watermark, retained, summary)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

const SELECT: &str = "SELECT generation, kind, restored_from, undo_to, next_seq, at_ms, watermark, retained,
                             summary
     FROM epochs WHERE conversation = ?1";

/// Record `epoch` of conversation `id`, in the transaction that wrote its state.
pub(super) fn record(transaction: &Transaction<'_>, id: &str, epoch: &Epoch) -> Result<(), Fail> {
    let restored_from = match epoch.kind {
        EpochKind::Restored { from } => from.map(|from| to_sql(from, "restored_from")).transpose()?,
        _ => None,
    };
    let summary = epoch.state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
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

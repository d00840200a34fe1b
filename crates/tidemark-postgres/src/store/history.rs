//! Compaction history in PostgreSQL: one `epochs` row per state written (see `tidemark_core::history`).

use deadpool_postgres::GenericClient;
use tidemark_core::history::{Epoch, EpochKind};
use tidemark_core::store::StoredSummary;
use tidemark_core::store::sql::{DataError, from_json, from_sql, to_json, to_sql};
use tidemark_core::{CompactionState, Seq};

use super::{PostgresStore, StoreFail, execute, query, query_opt, seqs_from_sql, seqs_to_sql};

const INSERT: &str =
    "INSERT INTO {s}.epochs (conversation, generation, kind, restored_from, undo_to, next_seq,
                                             at_ms, watermark, retained, summary)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

const SELECT: &str = "SELECT generation, kind, restored_from, undo_to, next_seq, at_ms, watermark, retained,
                             summary
     FROM {s}.epochs WHERE conversation = $1";

const DELETE: &str = "DELETE FROM {s}.epochs WHERE conversation = $1";

/// Record `epoch` of conversation `id`, in the transaction that wrote its state.
pub(super) async fn record<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
    epoch: &Epoch,
) -> Result<(), StoreFail> {
    let restored_from = match epoch.kind {
        EpochKind::Restored { from } => from.map(|from| to_sql(from, "restored_from")).transpose()?,
        _ => None,
    };
    let summary = epoch.state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
    execute(
        client,
        &store.sql(INSERT),
        &[
            &id,
            &to_sql(epoch.generation, "generation")?,
            &epoch.kind.name(),
            &restored_from,
            &epoch.undo_to.map(|to| to_sql(to, "undo_to")).transpose()?,
            &to_sql(epoch.next_seq.0, "next_seq")?,
            &to_sql(epoch.at_ms, "at_ms")?,
            &to_sql(epoch.state.watermark.0, "watermark")?,
            &seqs_to_sql(&epoch.state.retained)?,
            &summary,
        ],
    )
    .await?;
    Ok(())
}

/// Forget every epoch of conversation `id` (a clear, before it records its own).
pub(super) async fn clear<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
) -> Result<(), StoreFail> {
    execute(client, &store.sql(DELETE), &[&id]).await?;
    Ok(())
}

/// Every epoch of conversation `id`, ascending by generation.
pub(super) async fn all<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
) -> Result<Vec<Epoch>, StoreFail> {
    let rows = query(client, &store.sql(&format!("{SELECT} ORDER BY generation")), &[&id]).await?;
    rows.iter().map(decode).collect()
}

/// The epoch of conversation `id` with `generation`, if there is one.
pub(super) async fn one<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
    generation: u64,
) -> Result<Option<Epoch>, StoreFail> {
    let raw = to_sql(generation, "generation")?;
    let row = query_opt(client, &store.sql(&format!("{SELECT} AND generation = $2")), &[&id, &raw]).await?;
    row.as_ref().map(decode).transpose()
}

fn decode(row: &tokio_postgres::Row) -> Result<Epoch, StoreFail> {
    let generation: u64 = from_sql(row.try_get(0)?, "generation")?;
    let restored_from: Option<i64> = row.try_get(2)?;
    let restored_from = restored_from.map(|from| from_sql(from, "restored_from")).transpose()?;
    let kind = match row.try_get::<_, &str>(1)? {
        "saved" => EpochKind::Saved,
        "restored" => EpochKind::Restored { from: restored_from },
        "cleared" => EpochKind::Cleared,
        "migrated" => EpochKind::Migrated,
        _ => return Err(DataError::Inconsistent { column: "kind" }.into()),
    };
    let undo_to: Option<i64> = row.try_get(3)?;
    let undo_to = undo_to.map(|to| from_sql(to, "undo_to")).transpose()?;
    let summary: Option<StoredSummary> =
        row.try_get::<_, Option<&str>>(8)?.map(|json| from_json(json, "summary")).transpose()?;
    let state = CompactionState::new(
        Seq(from_sql(row.try_get(6)?, "watermark")?),
        seqs_from_sql(row.try_get(7)?)?,
        summary,
    );
    Ok(Epoch::new(
        generation,
        kind,
        undo_to,
        Seq(from_sql(row.try_get(4)?, "next_seq")?),
        from_sql(row.try_get(5)?, "at_ms")?,
        state,
    ))
}

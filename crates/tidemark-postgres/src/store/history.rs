//! Compaction history in PostgreSQL: one `epochs` row per state written (see `tidemark_core::history`), and the restores and forks that read it.

use deadpool_postgres::GenericClient;
use tidemark_core::history::{Epoch, EpochKind};
use tidemark_core::store::StoredSummary;
use tidemark_core::store::sql::{DataError, from_json, from_sql, to_json, to_sql};
use tidemark_core::{CompactionState, Seq};

use tidemark_core::history::{HistoryError, check_restorable, fork_plan, never_written, now_ms};
use tidemark_core::{ConversationId, StoreError};

use super::{
    LOCK_CONVERSATION, PostgresStore, StoreFail, execute, marks_from_row, query, query_opt, seqs_from_sql,
    seqs_to_sql,
};

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
    let summary = epoch.state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
    insert(store, client, id, epoch, summary.as_deref()).await
}

/// Record `epoch` with its summary already in JSON.
pub(super) async fn insert<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
    epoch: &Epoch,
    summary: Option<&str>,
) -> Result<(), StoreFail> {
    let restored_from = match epoch.kind {
        EpochKind::Restored { from } => from.map(|from| to_sql(from, "restored_from")).transpose()?,
        _ => None,
    };
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

/// How many messages a state to restore serves from: those at or above its watermark (`$2`), and its retained ones (`$3`).
const COUNT_RESTORABLE: &str =
    "SELECT count(*) FILTER (WHERE seq >= $2), count(*) FILTER (WHERE seq = ANY($3))
     FROM {s}.messages WHERE conversation = $1";

/// Write a restored state; the conversation's row is locked and its generation checked already.
const RESTORE_STATE: &str = "INSERT INTO {s}.states (conversation, generation, watermark, retained, summary)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (conversation) DO UPDATE SET
         generation = EXCLUDED.generation, watermark = EXCLUDED.watermark,
         retained = EXCLUDED.retained, summary = EXCLUDED.summary";

/// The row of a fork's new conversation: nothing is written when the conversation exists.
const CREATE_CONVERSATION: &str = "INSERT INTO {s}.conversations (id, next_seq, stored, stored_tokens)
     VALUES ($1, 0, 0, 0) ON CONFLICT (id) DO NOTHING";

/// How many messages of `$1` a fork at `$3` serves from: those from the watermark `$2` on, and the retained ones (`$4`).
const COUNT_FORKED: &str = "SELECT count(*) FILTER (WHERE seq >= $2), count(*) FILTER (WHERE seq = ANY($4))
     FROM {s}.messages WHERE conversation = $1 AND seq < $3";

/// Copy the messages of `$2` below `$3` into `$1` and set its counters.
const FORK_MESSAGES: &str = "WITH copied AS (
        INSERT INTO {s}.messages (conversation, seq, tokens, body)
        SELECT $1, seq, tokens, body FROM {s}.messages WHERE conversation = $2 AND seq < $3
        RETURNING tokens
     )
     UPDATE {s}.conversations SET next_seq = $3,
         stored = (SELECT count(*) FROM copied), stored_tokens = (SELECT COALESCE(sum(tokens), 0) FROM copied)
     WHERE id = $1";

/// Copy the recall passages of the messages of `$2` below `$3` into `$1`, their vectors too.
const FORK_PASSAGES: &str =
    "INSERT INTO {s}.passages (conversation, seq, idx, role, text, terms, embedding, embedder)
     SELECT $1, seq, idx, role, text, terms, embedding, embedder FROM {s}.passages
     WHERE conversation = $2 AND seq < $3";

/// The calibration of `$2`, if any, for `$1` too.
const FORK_CALIBRATION: &str = "INSERT INTO {s}.calibrations (conversation, calibration)
     SELECT $1, calibration FROM {s}.calibrations WHERE conversation = $2
     ON CONFLICT (conversation) DO UPDATE SET calibration = EXCLUDED.calibration";

/// The user of `$2`, if any, holds `$1` too, as the user's newest conversation.
const FORK_USER: &str = "INSERT INTO {s}.conversation_users (conversation, user_id, assigned)
     SELECT $1, user_id, nextval('{s}.conversation_users_assigned') FROM {s}.conversation_users WHERE conversation = $2
     ON CONFLICT (conversation) DO UPDATE SET user_id = EXCLUDED.user_id, assigned = EXCLUDED.assigned";

impl PostgresStore {
    pub(super) async fn restore_epoch(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreFail> {
        let id = conversation.as_str();
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        let Some(locked) = query_opt(&transaction, &self.sql(LOCK_CONVERSATION), &[&id]).await? else {
            return Err(never_written(expected_generation, target).into());
        };
        let next_seq = Seq(from_sql(locked.try_get(0)?, "next_seq")?);
        let current = marks_from_row(&locked)?;
        if current.generation != expected_generation {
            return Err(StoreError::StateConflict {
                expected: expected_generation,
                found: current.generation,
            }
            .into());
        }
        let (mut state, undo_to) = match target {
            None => (CompactionState::default(), None),
            Some(generation) => {
                let epoch = one(self, &transaction, id, generation)
                    .await?
                    .ok_or(StoreError::History(HistoryError::UnknownEpoch { generation }))?;
                (epoch.state, epoch.undo_to)
            }
        };
        let counted = query_opt(
            &transaction,
            &self.sql(COUNT_RESTORABLE),
            &[&id, &to_sql(state.watermark.0, "watermark")?, &seqs_to_sql(&state.retained)?],
        )
        .await?;
        let (from_watermark, retained): (i64, i64) = counted
            .map(|row| Ok::<_, tokio_postgres::Error>((row.try_get(0)?, row.try_get(1)?)))
            .transpose()?
            .unwrap_or((0, 0));
        check_restorable(
            &state,
            next_seq,
            from_sql(from_watermark, "stored")?,
            from_sql(retained, "stored")?,
        )
        .map_err(StoreError::History)?;
        let generation =
            expected_generation.checked_add(1).ok_or(DataError::Exhausted { column: "generation" })?;
        state.generation = generation;
        let summary = self.write_state_row(&transaction, id, &state).await?;
        let kind = EpochKind::Restored { from: target };
        let epoch = Epoch::new(generation, kind, undo_to, next_seq, now_ms(), state.clone());
        insert(self, &transaction, id, &epoch, summary.as_deref()).await?;
        transaction.commit().await?;
        Ok(state)
    }

    /// Write `state` (its generation set) as conversation `id`'s state row, its conversation row locked and
    /// its generation checked already; returns the summary as JSON.
    async fn write_state_row<C: GenericClient>(
        &self,
        client: &C,
        id: &str,
        state: &CompactionState,
    ) -> Result<Option<String>, StoreFail> {
        let summary = state.summary.as_ref().map(|summary| to_json(summary, "summary")).transpose()?;
        execute(
            client,
            &self.sql(RESTORE_STATE),
            &[
                &id,
                &to_sql(state.generation, "generation")?,
                &to_sql(state.watermark.0, "watermark")?,
                &seqs_to_sql(&state.retained)?,
                &summary,
            ],
        )
        .await?;
        Ok(summary)
    }

    pub(super) async fn fork_conversation(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreFail> {
        let (source_id, target_id) = (source.as_str(), target.as_str());
        let mut client = self.client().await?;
        let transaction = client.transaction().await?;
        // The target's row is created first, so that two forks into it cannot both go on.
        let created = execute(&transaction, &self.sql(CREATE_CONVERSATION), &[&target_id]).await?;
        if created == 0 {
            return Err(StoreError::History(HistoryError::Exists { conversation: target.clone() }).into());
        }
        // An unknown source is an empty conversation.
        let locked = query_opt(&transaction, &self.sql(LOCK_CONVERSATION), &[&source_id]).await?;
        let next_seq = match &locked {
            Some(row) => Seq(from_sql(row.try_get(0)?, "next_seq")?),
            None => Seq::ZERO,
        };
        let epochs = all(self, &transaction, source_id).await?;
        let (kept, state) = fork_plan(&epochs, at, next_seq).map_err(StoreError::History)?;
        let at_raw = to_sql(at.0, "seq")?;
        let counted = query_opt(
            &transaction,
            &self.sql(COUNT_FORKED),
            &[&source_id, &to_sql(state.watermark.0, "watermark")?, &at_raw, &seqs_to_sql(&state.retained)?],
        )
        .await?;
        let (window, retained): (i64, i64) = match counted {
            Some(row) => (row.try_get(0)?, row.try_get(1)?),
            None => (0, 0),
        };
        check_restorable(&state, at, from_sql(window, "stored")?, from_sql(retained, "stored")?)
            .map_err(StoreError::History)?;
        // The rows and their passages are copied in one statement each: PostgreSQL rows cannot be shared.
        execute(&transaction, &self.sql(FORK_MESSAGES), &[&target_id, &source_id, &at_raw]).await?;
        execute(&transaction, &self.sql(FORK_PASSAGES), &[&target_id, &source_id, &at_raw]).await?;
        if state.generation > 0 {
            self.write_state_row(&transaction, target_id, &state).await?;
        }
        for epoch in &kept {
            record(self, &transaction, target_id, epoch).await?;
        }
        execute(&transaction, &self.sql(FORK_CALIBRATION), &[&target_id, &source_id]).await?;
        execute(&transaction, &self.sql(FORK_USER), &[&target_id, &source_id]).await?;
        transaction.commit().await?;
        Ok(state)
    }
}

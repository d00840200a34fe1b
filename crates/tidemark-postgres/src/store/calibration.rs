//! Calibrations in PostgreSQL: one row per calibrated conversation, its `Calibration` as JSON text.

use deadpool_postgres::GenericClient;
use tidemark_core::{Calibration, ConversationId};

use super::{PostgresStore, StoreFail, execute, query_opt};
use tidemark_core::store::sql::{from_json, to_json};

const SELECT: &str = "SELECT calibration FROM {s}.calibrations WHERE conversation = $1";

/// One statement, so that concurrent writers need no transaction: the last one wins.
const UPSERT: &str = "INSERT INTO {s}.calibrations (conversation, calibration) VALUES ($1, $2)
     ON CONFLICT (conversation) DO UPDATE SET calibration = EXCLUDED.calibration";

const DELETE: &str = "DELETE FROM {s}.calibrations WHERE conversation = $1";

/// The calibration of `conversation`, or the empty one when none was written.
pub(super) async fn read(
    store: &PostgresStore,
    conversation: &ConversationId,
) -> Result<Calibration, StoreFail> {
    let client = store.client().await?;
    let Some(row) = query_opt(&client, &store.sql(SELECT), &[&conversation.as_str()]).await? else {
        return Ok(Calibration::default());
    };
    Ok(from_json(row.try_get::<_, &str>(0)?, "calibration")?)
}

/// Replace the calibration of `conversation`.
pub(super) async fn write(
    store: &PostgresStore,
    conversation: &ConversationId,
    calibration: &Calibration,
) -> Result<(), StoreFail> {
    let client = store.client().await?;
    let json = to_json(calibration, "calibration")?;
    execute(&client, &store.sql(UPSERT), &[&conversation.as_str(), &json]).await?;
    Ok(())
}

/// Forget the calibration of `conversation`, inside the caller's transaction.
pub(super) async fn clear<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    conversation: &str,
) -> Result<(), StoreFail> {
    execute(client, &store.sql(DELETE), &[&conversation]).await?;
    Ok(())
}

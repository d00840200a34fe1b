//! Calibrations in the SQLite file: one row per calibrated conversation, its `Calibration` as JSON.

use rusqlite::{Connection, OptionalExtension, params};
use tidemark_core::Calibration;
use tidemark_core::store::sql::{from_json, to_json};

use super::Fail;

/// The calibration of `conversation`, or the empty one when none was written.
pub(super) fn read(connection: &Connection, conversation: &str) -> Result<Calibration, Fail> {
    let mut select =
        connection.prepare_cached("SELECT calibration FROM calibrations WHERE conversation = ?1")?;
    let json: Option<String> = select.query_row(params![conversation], |row| row.get(0)).optional()?;
    Ok(json.map(|json| from_json(&json, "calibration")).transpose()?.unwrap_or_default())
}

/// Replace the calibration of `conversation`: one statement, so no transaction is needed.
pub(super) fn write(
    connection: &Connection,
    conversation: &str,
    calibration: &Calibration,
) -> Result<(), Fail> {
    connection
        .prepare_cached(
            "INSERT INTO calibrations (conversation, calibration) VALUES (?1, ?2)
             ON CONFLICT (conversation) DO UPDATE SET calibration = excluded.calibration",
        )?
        .execute(params![conversation, to_json(calibration, "calibration")?])?;
    Ok(())
}

/// Forget the calibration of `conversation`, inside the caller's transaction.
pub(super) fn clear(connection: &Connection, conversation: &str) -> Result<(), Fail> {
    connection
        .prepare_cached("DELETE FROM calibrations WHERE conversation = ?1")?
        .execute(params![conversation])?;
    Ok(())
}

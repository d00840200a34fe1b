//! Compaction leases in the SQLite file: one row per leased conversation, claimed and released in short write transactions.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use tidemark_core::Lease;

use super::Fail;

/// Claim the lease on `conversation` for `holder` unless someone else holds one that has not run out.
///
/// The read and the write happen in one immediate transaction, which takes
/// the file's write lock first, so two processes cannot both see the lease
/// free and both take it.
pub(super) fn try_lease(
    connection: &mut Connection,
    conversation: &str,
    holder: &str,
    ttl: Duration,
) -> Result<Lease, Fail> {
    let now = now_ms();
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current: Option<(String, i64)> = transaction
        .prepare_cached("SELECT holder, expires_ms FROM leases WHERE conversation = ?1")?
        .query_row(params![conversation], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    if let Some((owner, expires)) = current
        && owner != holder
        && expires > now
    {
        let left = u64::try_from(expires.saturating_sub(now)).unwrap_or(0);
        return Ok(Lease::HeldBy { holder: owner, expires_in: Duration::from_millis(left) });
    }
    let ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
    transaction
        .prepare_cached(
            "INSERT INTO leases (conversation, holder, expires_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (conversation) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms",
        )?
        .execute(params![conversation, holder, now.saturating_add(ttl_ms)])?;
    transaction.commit()?;
    Ok(Lease::Acquired)
}

/// Drop `holder`'s lease on `conversation`; someone else's lease stays.
pub(super) fn release_lease(connection: &Connection, conversation: &str, holder: &str) -> Result<(), Fail> {
    connection
        .prepare_cached("DELETE FROM leases WHERE conversation = ?1 AND holder = ?2")?
        .execute(params![conversation, holder])?;
    Ok(())
}

/// Milliseconds since the Unix epoch; a clock set before 1970 counts as the epoch.
fn now_ms() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

//! Lists of conversations in the SQLite file: every conversation with a row, and each user's.
//!
//! A conversation's user is one row of `conversation_users`, numbered by assignment.

use rusqlite::{Connection, Params, params};
use tidemark_core::ConversationId;
use tidemark_core::store::sql::DataError;

use super::Fail;

/// Hold `conversation` with `user`, as the newest assignment: one statement, so no transaction is needed.
pub(super) fn assign(connection: &Connection, conversation: &str, user: &str) -> Result<(), Fail> {
    // The number is taken under the write lock the statement holds, so two
    // processes assigning at once still get distinct, increasing numbers.
    connection
        .prepare_cached(
            "INSERT INTO conversation_users (conversation, user_id, assigned)
             VALUES (?1, ?2, (SELECT COALESCE(MAX(assigned), 0) + 1 FROM conversation_users))
             ON CONFLICT (conversation) DO UPDATE SET user_id = excluded.user_id, assigned = excluded.assigned",
        )?
        .execute(params![conversation, user])?;
    Ok(())
}

/// Every conversation with a row, in the order of their ids.
pub(super) fn all(connection: &Connection) -> Result<Vec<ConversationId>, Fail> {
    // SQLite's default BINARY collation compares the UTF-8 bytes, which is
    // exactly the order of Rust's `str`, so the rows come back in the order of
    // `ConversationId`.
    ids(connection, "SELECT id FROM conversations ORDER BY id", [])
}

/// The conversations held with `user`, newest assignment first.
pub(super) fn of(connection: &Connection, user: &str) -> Result<Vec<ConversationId>, Fail> {
    ids(
        connection,
        "SELECT conversation FROM conversation_users WHERE user_id = ?1 ORDER BY assigned DESC",
        params![user],
    )
}

/// The conversation ids in the first column of `sql`'s rows; a stored id that is not valid is an error, not a panic.
fn ids(connection: &Connection, sql: &str, bound: impl Params) -> Result<Vec<ConversationId>, Fail> {
    let mut select = connection.prepare_cached(sql)?;
    let mut rows = select.query(bound)?;
    let mut ids = Vec::new();
    while let Some(row) = rows.next()? {
        ids.push(ConversationId::new(row.get_ref(0)?.as_str()?).map_err(DataError::Id)?);
    }
    Ok(ids)
}

/// Forget the user of `conversation`, inside the caller's transaction.
pub(super) fn clear(connection: &Connection, conversation: &str) -> Result<(), Fail> {
    connection
        .prepare_cached("DELETE FROM conversation_users WHERE conversation = ?1")?
        .execute(params![conversation])?;
    Ok(())
}

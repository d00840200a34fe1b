//! Lists of conversations in PostgreSQL: every conversation with a row, and the conversations held with each user.
//!
//! A conversation's user is one row of `conversation_users`, numbered by the
//! `conversation_users_assigned` sequence, so that assignments made one after
//! the other, by any process, are ordered as they were made.

use deadpool_postgres::GenericClient;
use tidemark_core::ConversationId;
use tidemark_core::store::sql::DataError;

use super::{PostgresStore, StoreFail, execute, query};

/// The id column has the "C" collation, which compares UTF-8 bytes: the order of Rust's `str`.
const SELECT_ALL: &str = "SELECT id FROM {s}.conversations ORDER BY id";

/// One statement, so that concurrent writers need no transaction: the last one wins, and its
/// number, taken from the sequence, is higher than that of every assignment finished before it.
const ASSIGN: &str = "INSERT INTO {s}.conversation_users (conversation, user_id, assigned)
     VALUES ($1, $2, nextval('{s}.conversation_users_assigned'))
     ON CONFLICT (conversation) DO UPDATE SET user_id = EXCLUDED.user_id, assigned = EXCLUDED.assigned";

const SELECT_OF_USER: &str =
    "SELECT conversation FROM {s}.conversation_users WHERE user_id = $1 ORDER BY assigned DESC";

const DELETE: &str = "DELETE FROM {s}.conversation_users WHERE conversation = $1";

/// Every conversation with a row, in the order of their ids.
pub(super) async fn all(store: &PostgresStore) -> Result<Vec<ConversationId>, StoreFail> {
    let client = store.client().await?;
    ids(&query(&client, &store.sql(SELECT_ALL), &[]).await?)
}

/// Hold `conversation` with `user`, as the user's newest conversation.
pub(super) async fn assign(
    store: &PostgresStore,
    conversation: &ConversationId,
    user: &ConversationId,
) -> Result<(), StoreFail> {
    let client = store.client().await?;
    execute(&client, &store.sql(ASSIGN), &[&conversation.as_str(), &user.as_str()]).await?;
    Ok(())
}

/// The conversations held with `user`, newest assignment first.
pub(super) async fn of(
    store: &PostgresStore,
    user: &ConversationId,
) -> Result<Vec<ConversationId>, StoreFail> {
    let client = store.client().await?;
    ids(&query(&client, &store.sql(SELECT_OF_USER), &[&user.as_str()]).await?)
}

/// Forget the user of `conversation`, inside the caller's transaction.
pub(super) async fn clear<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    conversation: &str,
) -> Result<(), StoreFail> {
    execute(client, &store.sql(DELETE), &[&conversation]).await?;
    Ok(())
}

/// The conversation ids in the first column of `rows`; a stored id that is not valid is an error, not a panic.
fn ids(rows: &[tokio_postgres::Row]) -> Result<Vec<ConversationId>, StoreFail> {
    let mut ids = Vec::with_capacity(rows.len());
    for row in rows {
        ids.push(ConversationId::new(row.try_get::<_, &str>(0)?).map_err(DataError::Id)?);
    }
    Ok(ids)
}

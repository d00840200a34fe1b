//! Recall in SQLite: the `passages` table, its external-content FTS5 index, and searches that cannot carry FTS5 syntax.
//!
//! Every appended message is cut by [`passages`] and its passages are written
//! to `passages` in the append's transaction. Triggers copy each row's `terms`
//! into `passages_fts` (an FTS5 table over `passages`, with no text of its
//! own) and take it out again when the row is deleted, so `clear` and `prune`
//! keep the index in step by deleting passages like messages. A term is
//! stored as the hexadecimal digits of its UTF-8 bytes, as the fact index
//! does: FTS5's `ascii` tokenizer then only splits on spaces, the index agrees
//! with [`terms`](tidemark_core::recall::terms) in every script, and a query
//! made of quoted hex tokens can never be read as FTS5 syntax.
//!
//! FTS5 finds the candidates (any query term, this conversation, below the
//! mark) and orders them by its `bm25()`; at most [`CANDIDATES`] of them are
//! then ranked by [`rank`], so that this store's answers and scores are those
//! of every other store.

use std::collections::HashSet;

use rusqlite::{Connection, Transaction, params};
use tidemark_core::recall::{Candidate, Passage, PassageText, RecallQuery, passages, rank};
use tidemark_core::{Message, Role, Seq};

use super::Fail;
use super::facts::search::push_hex;
use tidemark_core::store::sql::{DataError, from_sql};

/// The most candidates FTS5 hands to [`rank`]: the best by `bm25()` when more match.
pub(super) const CANDIDATES: i64 = 4096;

const INSERT_PASSAGE: &str = "INSERT INTO passages (conversation, seq, idx, role, text, terms)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// `CROSS JOIN` keeps the index as the outer loop, which `bm25()` needs.
const SEARCH: &str = "SELECT p.seq, p.idx, p.role, p.text
     FROM passages_fts CROSS JOIN passages AS p ON p.rowid = passages_fts.rowid
     WHERE passages_fts MATCH ?1 AND p.conversation = ?2 AND p.seq < ?3
     ORDER BY bm25(passages_fts)
     LIMIT ?4";

/// Delete a conversation's passages (the trigger takes them out of the index).
pub(super) const CLEAR: &str = "DELETE FROM passages WHERE conversation = ?1";

/// Delete the passages of the messages `prune` deletes: below the watermark and not retained.
pub(super) const PRUNE: &str = "DELETE FROM passages
     WHERE conversation = ?1 AND seq < ?2 AND seq NOT IN (SELECT value FROM json_each(?3))";

/// Write the passages of the message `seq`, cut beforehand so that the write lock is held only for the inserts.
pub(super) fn index(
    transaction: &Transaction<'_>,
    conversation: &str,
    seq: i64,
    role: Role,
    cut: &[PassageText],
) -> Result<(), Fail> {
    if cut.is_empty() {
        return Ok(());
    }
    let mut insert = transaction.prepare_cached(INSERT_PASSAGE)?;
    for passage in cut {
        insert.execute(params![
            conversation,
            seq,
            passage.index,
            role.as_str(),
            passage.text,
            hex_terms(&passage.terms)
        ])?;
    }
    Ok(())
}

/// The best passages of `conversation` for `query`.
pub(super) fn search(
    connection: &Connection,
    conversation: &str,
    query: &RecallQuery,
) -> Result<Vec<Passage>, Fail> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    let Some(expression) = match_expression(&query.terms()) else { return Ok(Vec::new()) };
    // No stored number reaches `i64::MAX`, so a mark beyond it means "everything".
    let below = i64::try_from(query.below.0).unwrap_or(i64::MAX);
    let mut select = connection.prepare_cached(SEARCH)?;
    let mut rows = select.query(params![expression, conversation, below, CANDIDATES])?;
    let mut candidates = Vec::new();
    while let Some(row) = rows.next()? {
        let seq = Seq(from_sql(row.get(0)?, "seq")?);
        let index: u32 = from_sql(row.get(1)?, "idx")?;
        let role = role_from_sql(row.get_ref(2)?.as_str()?)?;
        let text: String = row.get(3)?;
        candidates.push(Candidate::new(seq, role, PassageText::new(index, text)));
    }
    Ok(rank(query, candidates))
}

/// Cut and index every stored message: the migration to the schema with recall runs this once, in its transaction.
///
/// A body that does not decode is left out of the index (loading it reports
/// it as corrupt anyway); the migration must not fail a file over one bad row.
pub(super) fn backfill(transaction: &Transaction<'_>) -> Result<(), Fail> {
    let mut select =
        transaction.prepare("SELECT conversation, seq, body FROM messages ORDER BY conversation, seq")?;
    let mut rows = select.query([])?;
    let mut insert = transaction.prepare(INSERT_PASSAGE)?;
    while let Some(row) = rows.next()? {
        let conversation = row.get_ref(0)?.as_str()?;
        let seq: i64 = row.get(1)?;
        let message = match std::str::from_utf8(row.get_ref(2)?.as_bytes()?).map(Message::from_json) {
            Ok(Ok(message)) => message,
            _ => {
                tracing::warn!(
                    conversation,
                    seq,
                    "a stored message does not decode; it is left out of the recall index"
                );
                continue;
            }
        };
        for passage in passages(&message) {
            insert.execute(params![
                conversation,
                seq,
                passage.index,
                message.role.as_str(),
                passage.text,
                hex_terms(&passage.terms)
            ])?;
        }
    }
    Ok(())
}

/// The FTS5 query for any of `terms`, each a quoted hex token; `None` when there are none.
fn match_expression(terms: &[String]) -> Option<String> {
    let mut seen = HashSet::new();
    let mut expression = String::new();
    for term in terms.iter().filter(|term| seen.insert(term.as_str())) {
        if !expression.is_empty() {
            expression.push_str(" OR ");
        }
        expression.push('"');
        push_hex(&mut expression, term.as_bytes());
        expression.push('"');
    }
    (!expression.is_empty()).then_some(expression)
}

/// Terms as the `terms` column holds them: hex tokens separated by spaces.
fn hex_terms(terms: &[String]) -> String {
    let mut joined = String::new();
    for term in terms {
        if !joined.is_empty() {
            joined.push(' ');
        }
        push_hex(&mut joined, term.as_bytes());
    }
    joined
}

/// A stored role name as the role (the store writes [`Role::as_str`]).
fn role_from_sql(raw: &str) -> Result<Role, DataError> {
    serde_json::from_value(serde_json::Value::String(raw.to_owned()))
        .map_err(|source| DataError::Json { column: "role", source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_hold_only_quoted_hex() {
        let terms = tidemark_core::recall::query_terms("\"NEAR(x* -y\" x");
        assert_eq!(match_expression(&terms).as_deref(), Some(r#""6e656172" OR "78" OR "79""#));
        assert_eq!(match_expression(&[]), None);
    }
}

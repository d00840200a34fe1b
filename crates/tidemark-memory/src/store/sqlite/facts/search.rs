//! Fact search in SQLite: the FTS5 index of active facts, and queries that cannot carry FTS5 syntax.
//!
//! Search goes through `facts_fts`, a contentless FTS5 table that holds, for
//! every active fact, one token for its scope and one token per keyword of its
//! text. A keyword is what [`keywords`] yields, written as the hexadecimal
//! digits of its UTF-8 bytes, so FTS5's own tokenizer only has to split on
//! spaces: the index agrees with [`keywords`] exactly, whatever the script, and
//! a query (built from the same hex tokens, each quoted) can never contain FTS5
//! syntax. Results are ranked by FTS5's `bm25()` over the keyword column, ties
//! by id. Quarantined facts are taken out of the index, and the search joins the
//! `facts` table and checks the status again besides.
//!
//! The index is written by this crate's SQLite fact code only, in the same
//! transaction as the row it describes; a program that edits `facts` by hand
//! must keep it in step.

use std::collections::HashSet;

use rusqlite::{Connection, Transaction, params};
use tidemark_core::fact::keywords;
use tidemark_core::{Fact, Scope};

use super::{Trouble, fact_from_row};

const INSERT_TERMS: &str = "INSERT INTO facts_fts (rowid, scope, terms) VALUES (?1, ?2, ?3)";

/// Take a fact out of the index (nothing happens when it is not in it).
pub(super) const DELETE_TERMS: &str = "DELETE FROM facts_fts WHERE rowid = ?1";

/// The search: candidates from the index, checked against `facts`, best `bm25()` first.
///
/// `CROSS JOIN` keeps the index as the outer loop, which `bm25()` needs and
/// which reads only the matching rows of `facts`. The weights give the scope
/// column no say in the score.
const SEARCH: &str = "SELECT facts.id, facts.scope_kind, facts.scope_id, facts.tier, facts.text, facts.hash,
         facts.source_conversation, facts.source_start, facts.source_end,
         facts.created_ms, facts.updated_ms, facts.status, facts.quarantine_reason
     FROM facts_fts CROSS JOIN facts ON facts.id = facts_fts.rowid
     WHERE facts_fts MATCH ?1 AND facts.status = 'active'
         AND (?2 IS NULL OR (facts.scope_kind = ?2 AND facts.scope_id = ?3))
     ORDER BY bm25(facts_fts, 0.0, 1.0), facts.id
     LIMIT ?4";

pub(super) fn search(
    connection: &Connection,
    scope: Option<&Scope>,
    expression: &str,
    limit: usize,
) -> Result<Vec<Fact>, Trouble> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut select = connection.prepare_cached(SEARCH)?;
    let mut rows = select.query(params![
        expression,
        scope.map(Scope::kind),
        scope.map(|scope| scope.id().as_str()),
        limit
    ])?;
    let mut facts = Vec::new();
    while let Some(row) = rows.next()? {
        facts.push(fact_from_row(row)?);
    }
    Ok(facts)
}

/// The FTS5 query for `query`'s keywords, any of them, in `scope` when given; `None` when it has no keywords.
///
/// Every term is a quoted string of hex digits, so nothing the user typed
/// reaches the FTS5 parser as syntax.
pub(super) fn match_expression(scope: Option<&Scope>, query: &str) -> Option<String> {
    let mut seen = HashSet::new();
    let mut terms = String::new();
    for keyword in keywords(query) {
        if !seen.insert(keyword.clone()) {
            continue;
        }
        if !terms.is_empty() {
            terms.push_str(" OR ");
        }
        terms.push('"');
        push_hex(&mut terms, keyword.as_bytes());
        terms.push('"');
    }
    if terms.is_empty() {
        return None;
    }
    Some(match scope {
        Some(scope) => format!("scope : \"{}\" AND terms : ({terms})", scope_token(scope)),
        None => format!("terms : ({terms})"),
    })
}

/// Add the index row of an active fact: its scope's token and one token per keyword.
pub(super) fn index(
    transaction: &Transaction<'_>,
    raw_id: i64,
    scope: &Scope,
    text: &str,
) -> Result<(), Trouble> {
    let mut terms = String::new();
    for keyword in keywords(text) {
        if !terms.is_empty() {
            terms.push(' ');
        }
        push_hex(&mut terms, keyword.as_bytes());
    }
    transaction.prepare_cached(INSERT_TERMS)?.execute(params![raw_id, scope_token(scope), terms])?;
    Ok(())
}

/// A scope as one index token: the hex digits of `kind:id`.
fn scope_token(scope: &Scope) -> String {
    let mut token = String::new();
    push_hex(&mut token, scope.kind().as_bytes());
    push_hex(&mut token, b":");
    push_hex(&mut token, scope.id().as_str().as_bytes());
    token
}

pub(in crate::store::sqlite) fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
}

#[cfg(test)]
mod tests {
    use tidemark_core::ConversationId;

    use super::*;

    #[test]
    fn queries_hold_only_quoted_hex() {
        let expression = match_expression(None, "\"NEAR(a* -b:c OR x\" ünï a").expect("keywords");
        assert_eq!(
            expression,
            r#"terms : ("6e656172" OR "61" OR "62" OR "63" OR "6f72" OR "78" OR "c3bc6ec3af")"#
        );
        assert_eq!(match_expression(None, " -*:\"()' 🦀"), None);
    }

    #[test]
    fn scope_tokens_tell_kinds_apart() {
        let id = ConversationId::new("a").expect("valid");
        assert_ne!(scope_token(&Scope::User(id.clone())), scope_token(&Scope::Conversation(id)));
    }
}

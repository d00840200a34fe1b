//! Recall in PostgreSQL: passages written with their messages, candidates found by the GIN index of their terms, ranked in Rust.
//!
//! The terms are those of [`terms`](tidemark_core::recall::terms), kept as a
//! `TEXT[]`, so the index and the query agree with the other stores exactly;
//! the query's terms travel as one array parameter and are never SQL. For
//! each query term the index gives the newest messages below the mark that
//! hold it ([`RARE_MESSAGES`]` + 1` at most), [`candidate_messages`] picks
//! among them, and their passages are ranked by [`rank`], as in every store.
//! A store with an embedder also keeps each passage's embedding and weighs the
//! nearest passages with the keyword ranking's best ([`similar`]).

mod similar;

use deadpool_postgres::GenericClient;
use tidemark_core::recall::{
    Candidate, Embedder, Passage, PassageText, RARE_MESSAGES, RecallQuery, candidate_messages, keyword_pool,
    passages, rank,
};
use tidemark_core::{ConversationId, Message, NewMessage, Role, Seq, StoreError};

use super::{PostgresStore, StoreFail, execute, query};
use tidemark_core::store::sql::{DataError, from_sql};

/// For each query term (`$3`, numbered from one), the newest messages below the mark that hold it.
const HOLDERS: &str = "SELECT t.i, h.seq FROM unnest($3::text[]) WITH ORDINALITY AS t (term, i)
     CROSS JOIN LATERAL (
         SELECT DISTINCT p.seq FROM {s}.passages AS p
         WHERE p.conversation = $1 AND p.seq < $2 AND p.terms @> ARRAY[t.term]
         ORDER BY p.seq DESC
         LIMIT $4
     ) AS h";

/// The passages of the chosen messages.
const PASSAGES: &str = "SELECT seq, idx, role, text FROM {s}.passages
     WHERE conversation = $1 AND seq = ANY($2::bigint[])";

const INSERT: &str = "INSERT INTO {s}.passages (conversation, seq, idx, role, text, terms)
     VALUES ($1, $2, $3, $4, $5, $6)";

/// The passages of a batch of messages as the append statement's column arrays.
pub(super) struct Columns {
    /// Each passage's message, by its place in the batch from one.
    pub(super) positions: Vec<i64>,
    pub(super) indices: Vec<i64>,
    pub(super) roles: Vec<&'static str>,
    pub(super) texts: Vec<String>,
    /// Each passage's terms joined by spaces (a term never holds one).
    pub(super) terms: Vec<String>,
    /// Each passage's embedding as bytes: NULL without an embedder, or when the model found nothing to place.
    pub(super) embeddings: Vec<Option<Vec<u8>>>,
    /// The name of the model that made the embeddings; NULL without an embedder, so the passages read as not embedded yet.
    pub(super) embedder: Option<String>,
}

impl Columns {
    /// Cut every message of the batch, and embed each passage when there is an embedder.
    pub(super) fn of(messages: &[NewMessage], embedder: Option<&dyn Embedder>) -> Self {
        let mut columns = Self {
            positions: Vec::new(),
            indices: Vec::new(),
            roles: Vec::new(),
            texts: Vec::new(),
            terms: Vec::new(),
            embeddings: Vec::new(),
            embedder: embedder.map(|embedder| embedder.name().to_owned()),
        };
        for (position, new) in (1i64..).zip(messages) {
            for passage in passages(&new.message) {
                columns.positions.push(position);
                columns.indices.push(i64::from(passage.index));
                columns.roles.push(new.message.role.as_str());
                columns.terms.push(passage.terms.join(" "));
                let embedding = embedder.and_then(|embedder| embedder.embed(&passage.text));
                columns.embeddings.push(embedding.map(|embedding| embedding.as_bytes().to_vec()));
                columns.texts.push(passage.text);
            }
        }
        columns
    }
}

/// The best passages of `conversation` for `query`: the keyword ranking, weighed with the nearest passages when the store has an embedder.
pub(super) async fn search(
    store: &PostgresStore,
    conversation: &ConversationId,
    query_: &RecallQuery,
) -> Result<Vec<Passage>, StoreFail> {
    let wanted = query_.terms();
    if wanted.is_empty() || query_.limit == 0 {
        return Ok(Vec::new());
    }
    // No stored number reaches `i64::MAX`, so a mark beyond it means "everything".
    let below = i64::try_from(query_.below.0).unwrap_or(i64::MAX);
    let client = store.client().await?;
    match &store.embedder {
        Some(embedder) => {
            // A search by meaning weighs more of the keyword ranking than it returns.
            let pooled = keyword_pool(query_);
            let keyword = by_keywords(store, &client, conversation, &pooled, &wanted, below).await?;
            similar::fused(store, &client, conversation, query_, below, embedder.as_ref(), keyword).await
        }
        None => by_keywords(store, &client, conversation, query_, &wanted, below).await,
    }
}

/// The keyword ranking: the candidates the query's rarest terms point at, ranked by BM25.
async fn by_keywords<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    conversation: &ConversationId,
    query_: &RecallQuery,
    wanted: &[String],
    below: i64,
) -> Result<Vec<Passage>, StoreFail> {
    let limit = i64::try_from(RARE_MESSAGES + 1).unwrap_or(i64::MAX);
    let rows = query(client, &store.sql(HOLDERS), &[&conversation.as_str(), &below, &wanted, &limit]).await?;
    let mut found = vec![Vec::new(); wanted.len()];
    for row in &rows {
        let term: i64 = row.try_get(0)?;
        let seq = Seq(from_sql(row.try_get(1)?, "seq")?);
        let slot = usize::try_from(term - 1).ok().and_then(|term| found.get_mut(term));
        slot.ok_or(DataError::Inconsistent { column: "term" })?.push(seq);
    }
    // Each term's holders arrive newest first within the term, but the terms may interleave.
    for seqs in &mut found {
        seqs.sort_unstable_by(|a, b| b.cmp(a));
    }
    let chosen: Vec<i64> = candidate_messages(&found)
        .into_iter()
        .map(|seq| i64::try_from(seq.0).map_err(|_| DataError::Exhausted { column: "seq" }))
        .collect::<Result<_, _>>()?;
    if chosen.is_empty() {
        return Ok(Vec::new());
    }
    let rows = query(client, &store.sql(PASSAGES), &[&conversation.as_str(), &chosen]).await?;
    let mut candidates = Vec::with_capacity(rows.len());
    for row in &rows {
        let seq = Seq(from_sql(row.try_get(0)?, "seq")?);
        let index: u32 = from_sql(row.try_get(1)?, "idx")?;
        let role = role_from_sql(row.try_get(2)?)?;
        let text: String = row.try_get(3)?;
        candidates.push(Candidate::new(seq, role, PassageText::new(index, text)));
    }
    Ok(rank(query_, candidates))
}

/// Cut and index every stored message: the migration to the schema with recall runs this once, in its transaction.
///
/// A body that does not decode is left out of the index (loading it reports
/// it as corrupt anyway); the migration must not fail a database over one bad row.
pub(super) async fn backfill<C: GenericClient>(client: &C, quoted: &str) -> Result<(), StoreError> {
    let fail = |error: tokio_postgres::Error| StoreError::backend("connect", error);
    let rows = client
        .query(&format!("SELECT conversation, seq, body FROM {quoted}.messages"), &[])
        .await
        .map_err(fail)?;
    let insert = INSERT.replace("{s}", quoted);
    for row in rows {
        let conversation: &str = row.try_get(0).map_err(fail)?;
        let seq: i64 = row.try_get(1).map_err(fail)?;
        let Ok(message) = Message::from_json(row.try_get(2).map_err(fail)?) else {
            tracing::warn!(
                conversation,
                seq,
                "a stored message does not decode; it is left out of the recall index"
            );
            continue;
        };
        for passage in passages(&message) {
            let index = i64::from(passage.index);
            execute(
                client,
                &insert,
                &[&conversation, &seq, &index, &message.role.as_str(), &passage.text, &passage.terms],
            )
            .await
            .map_err(fail)?;
        }
    }
    Ok(())
}

/// A stored role name as the role (the store writes [`Role::as_str`]).
fn role_from_sql(raw: &str) -> Result<Role, DataError> {
    serde_json::from_value(serde_json::Value::String(raw.to_owned()))
        .map_err(|source| DataError::Json { column: "role", source })
}

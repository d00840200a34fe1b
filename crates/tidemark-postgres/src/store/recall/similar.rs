//! Recall by meaning in PostgreSQL: each passage's embedding kept in its row, the nearest ones found in Rust, weighed with the keyword ranking.
//!
//! A store with an [`Embedder`] embeds every passage it appends and writes
//! the bytes into the passage's row together with the model's name. A search
//! reads the vectors of the conversation's passages below the mark in one
//! query, finds the [`SIMILAR_PASSAGES`] nearest to the query with
//! [`nearest`], reads the role and text of only those, and weighs them with
//! the keyword ranking's best with [`combine`].
//!
//! Each row names the model that made its vector, rather than each
//! conversation naming one, because several processes may share a
//! conversation: one without a model, one with an old model, one with a new
//! one. A row whose name is not the searching store's own (NULL, or another
//! model's) does not count as embedded. That search asks for the row's text
//! instead, embeds it and uses the vector at once, so the answer never
//! depends on a foreign or missing vector. It then writes what it made back
//! into the row, so that the next search finds it. The write is only a cache,
//! and it is safe to race:
//!
//! - An embedding is a pure function of the text and the model's name, and a
//!   row's text never changes (rows are only inserted and deleted, and a
//!   conversation never hands a sequence number out twice, even after
//!   `clear`), so any process that writes a vector under a name writes the
//!   same bytes.
//! - The write locks its rows with `SKIP LOCKED`: a row another search or a
//!   prune holds is left alone, so a search never waits on a lock and two
//!   searches cannot deadlock. A row deleted meanwhile is simply not updated.
//! - Rows that already hold this model's vector when the write reaches them
//!   are skipped (the lock re-checks the condition on the newest version).
//!
//! The cost of this design is with two models used on one conversation at
//! once: each rewrites the other's vectors, and so each search embeds again.
//! A change of model is expected to be one way, where every passage is
//! embedded again once, by the first search that reaches it.

use std::collections::HashMap;
use std::sync::Arc;

use deadpool_postgres::GenericClient;
use tidemark_core::recall::{
    Embedder, Embedding, Near, Passage, RecallQuery, SIMILAR_PASSAGES, combine, nearest,
};
use tidemark_core::{ConversationId, Role, Seq};

use super::role_from_sql;
use crate::store::{PostgresStore, StoreFail, execute, query};
use tidemark_core::store::sql::{DataError, from_sql, to_sql};

/// The vectors of the conversation's passages below the mark: the bytes when the row holds this model's vector (`$3`), the text otherwise.
///
/// A row of this model comes back with a NULL text (the column itself is
/// never NULL), and with a NULL embedding when the model found nothing to place in it.
const VECTORS: &str = "SELECT seq, idx,
         CASE WHEN embedder = $3 THEN embedding END,
         CASE WHEN embedder IS DISTINCT FROM $3 THEN text END
     FROM {s}.passages WHERE conversation = $1 AND seq < $2";

/// Write the vectors a search made (`$3` to `$5`) under the model's name (`$2`) into the rows that do not hold one of this model yet, skipping rows another transaction holds.
const FILL: &str = "WITH made AS (
        SELECT * FROM unnest($3::bigint[], $4::bigint[], $5::bytea[]) AS m (seq, idx, embedding)
    ), claimed AS (
        SELECT p.seq, p.idx, made.embedding FROM {s}.passages AS p
        JOIN made ON p.seq = made.seq AND p.idx = made.idx
        WHERE p.conversation = $1 AND p.embedder IS DISTINCT FROM $2
        ORDER BY p.seq, p.idx
        FOR UPDATE OF p SKIP LOCKED
    )
    UPDATE {s}.passages AS p SET embedding = claimed.embedding, embedder = $2
    FROM claimed WHERE p.conversation = $1 AND p.seq = claimed.seq AND p.idx = claimed.idx";

/// The role and text of the chosen passages, named by the pairs of `$2` and `$3`.
const CHOSEN: &str = "SELECT p.seq, p.idx, p.role, p.text
     FROM unnest($2::bigint[], $3::bigint[]) AS c (seq, idx)
     JOIN {s}.passages AS p ON p.conversation = $1 AND p.seq = c.seq AND p.idx = c.idx";

impl PostgresStore {
    /// The same store, recalling by meaning as well as by keywords with `embedder` (see [`tidemark_core::recall::combine`]).
    ///
    /// Appends embed each passage and keep the vector, with the model's
    /// [`name`](Embedder::name), in the passage's row. A search weighs the
    /// keyword ranking's best with the passages nearest to the query's embedding.
    /// Passages without a vector of this model (appended by a store without
    /// an embedder, before this version, or by another model) are embedded
    /// by the first search that reaches them, which writes the vectors back;
    /// vectors of another model are never compared with this one's.
    ///
    /// The embedder belongs to the handle, not to the database: a clone made
    /// before this call keeps searching by keywords only. Embedding runs on
    /// the calling task, so a slow model slows the append or search that
    /// calls it.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use tidemark_core::recall::RecallQuery;
    /// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq};
    /// use tidemark_postgres::PostgresStore;
    /// use tidemark_testkit::embedders::HashedTerms;
    ///
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// // A toy model that knows "frankfurt" is where the servers are; a real one knows more.
    /// let model = Arc::new(HashedTerms::new(64).with_synonyms(&[("servers", "frankfurt")]));
    /// let store = PostgresStore::connect("postgres://agent@db.internal/memory").await?.with_embedder(model);
    /// let id = ConversationId::new("ops")?;
    /// store.append(&id, vec![NewMessage::new(Message::user("we host everything in Frankfurt"), 8)]).await?;
    /// let found = store.search_passages(&id, &RecallQuery::new("where do our servers live?", Seq(1), 3)).await?;
    /// assert_eq!(found[0].text, "we host everything in Frankfurt");
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }
}

/// The keyword ranking and the passages nearest to the query, weighed together (the rule of [`combine`]); the keyword ranking alone when the model cannot place the query.
pub(super) async fn fused<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    conversation: &ConversationId,
    query_: &RecallQuery,
    below: i64,
    embedder: &dyn Embedder,
    keyword: Vec<Passage>,
) -> Result<Vec<Passage>, StoreFail> {
    let Some(wanted) = embedder.embed(&query_.text) else {
        let mut keyword = keyword;
        keyword.truncate(query_.limit);
        return Ok(keyword);
    };
    let id = conversation.as_str();
    let name = embedder.name();
    let rows = query(client, &store.sql(VECTORS), &[&id, &below, &name]).await?;
    let mut kept: Vec<(Seq, u32, Embedding)> = Vec::with_capacity(rows.len());
    let mut made = Made::default();
    for row in &rows {
        let raw_seq: i64 = row.try_get(0)?;
        let raw_index: i64 = row.try_get(1)?;
        let (seq, index) = (Seq(from_sql(raw_seq, "seq")?), from_sql(raw_index, "idx")?);
        let embedding = match row.try_get::<_, Option<&str>>(3)? {
            Some(text) => {
                // Not embedded by this model: embed it now, and keep the vector for later searches.
                let embedding = embedder.embed(text);
                made.push(raw_seq, raw_index, embedding.as_ref());
                embedding
            }
            None => match row.try_get::<_, Option<&[u8]>>(2)? {
                // This store only writes bytes that `Embedding::as_bytes` gave.
                Some(bytes) => Some(
                    Embedding::from_bytes(bytes).ok_or(DataError::Inconsistent { column: "embedding" })?,
                ),
                None => None,
            },
        };
        if let Some(embedding) = embedding {
            kept.push((seq, index, embedding));
        }
    }
    if !made.seqs.is_empty() {
        execute(client, &store.sql(FILL), &[&id, &name, &made.seqs, &made.indices, &made.vectors]).await?;
    }
    let near = nearest(
        &wanted,
        query_.below,
        kept.iter().map(|(seq, index, embedding)| (*seq, *index, embedding)),
        SIMILAR_PASSAGES,
    );
    let similar = chosen(store, client, id, &near).await?;
    Ok(combine(query_, keyword, similar, embedder))
}

/// The vectors a search made for rows that held none of its model, as the columns of [`FILL`].
#[derive(Default)]
struct Made {
    seqs: Vec<i64>,
    indices: Vec<i64>,
    /// NULL where the model found nothing to place: the row then says so, and is not embedded again.
    vectors: Vec<Option<Vec<u8>>>,
}

impl Made {
    fn push(&mut self, seq: i64, index: i64, embedding: Option<&Embedding>) {
        self.seqs.push(seq);
        self.indices.push(index);
        self.vectors.push(embedding.map(|embedding| embedding.as_bytes().to_vec()));
    }
}

/// The nearest passages as found passages, in `near`'s order, scored by their cosine.
///
/// A passage deleted since its vector was read (a concurrent `prune` or
/// `clear`) is left out: deleted messages are never found.
async fn chosen<C: GenericClient>(
    store: &PostgresStore,
    client: &C,
    id: &str,
    near: &[Near],
) -> Result<Vec<Passage>, StoreFail> {
    if near.is_empty() {
        return Ok(Vec::new());
    }
    let seqs: Vec<i64> = near.iter().map(|near| to_sql(near.seq.0, "seq")).collect::<Result<_, _>>()?;
    let indices: Vec<i64> = near.iter().map(|near| i64::from(near.index)).collect();
    let rows = query(client, &store.sql(CHOSEN), &[&id, &seqs, &indices]).await?;
    let mut found: HashMap<(Seq, u32), (Role, String)> = HashMap::with_capacity(rows.len());
    for row in &rows {
        let seq = Seq(from_sql(row.try_get(0)?, "seq")?);
        let index: u32 = from_sql(row.try_get(1)?, "idx")?;
        let role = role_from_sql(row.try_get(2)?)?;
        found.insert((seq, index), (role, row.try_get(3)?));
    }
    Ok(near
        .iter()
        .filter_map(|near| {
            let (role, text) = found.remove(&(near.seq, near.index))?;
            Some(Passage::new(near.seq, role, near.index, text, near.similarity))
        })
        .collect())
}

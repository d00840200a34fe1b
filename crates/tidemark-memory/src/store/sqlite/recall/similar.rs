//! Recall by meaning in SQLite: each passage's embedding kept in `recall_vectors`, written by the catch-ups that index, and the nearest passages weighed with the keyword ranking.
//!
//! The vectors follow the index: the catch-up that writes a message's FTS5
//! row also writes the vectors of its passages, in the same transaction, so
//! an append still writes nothing for recall. `recall_models` says which
//! model made a conversation's vectors and up to where: every stored message
//! below its `embedded` mark has them. A catch-up by a store whose model has
//! another name deletes them all and embeds every indexed message again, in
//! one transaction, since two models' vectors cannot be compared; a store
//! without an embedder writes none, and the first catch-up by a store with
//! one embeds what was indexed without vectors. So the mark only ever lags
//! the index, and a search with an embedder brings it up to the index before
//! it reads (see [`behind`]).
//!
//! A search embeds the query and compares it with every vector below its
//! mark, in Rust, with [`nearest`]: the vectors of the indexed messages come
//! from [`Vectors`], a copy in memory read from the file once per connection
//! and extended by each catch-up, emptied by the same events as the rest of
//! [`Holders`] (another connection's commit, `prune`, `clear`). The few
//! messages above the index are embedded as they are read, and their
//! embeddings kept in their [`Cut`], so a message waiting for the next
//! catch-up is embedded once. Then the texts of the chosen passages are
//! taken from the cut messages (cut again when they are not cached), and the
//! two rankings are weighed together with [`combine`]. The answer is
//! `ReferenceStore::with_embedder`'s to the bit: the same passages, the same
//! exact cosines, the same rules.

use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use tidemark_core::recall::{
    Embedder, Embedding, Near, PASSAGE_RULES, Passage, RecallQuery, SIMILAR_PASSAGES, VectorIndex, combine,
    nearest,
};
use tidemark_core::store::sql::{DataError, from_sql, to_sql};
use tidemark_core::{ConversationId, Seq, StoreError};

use super::{Caches, Cut, Fail, Holders, Indexed, cut_of, held, next_message, read_tail};
use crate::store::SqliteStore;

impl SqliteStore {
    /// The same store, recalling by meaning as well as by keywords with `embedder` (see [`tidemark_core::recall::combine`]).
    ///
    /// The search that indexes messages (see
    /// [`search_passages`](tidemark_core::ConversationStore::search_passages))
    /// also embeds their passages and keeps the vectors in the file, under
    /// the model's [`name`](Embedder::name), so that a restart does not embed
    /// the history again. A search then weighs the keyword ranking's best
    /// with the passages nearest to the query's embedding. Vectors written under
    /// another name are never compared with this model's: the first search
    /// that finds them deletes them and embeds the conversation again.
    ///
    /// The embedder belongs to the handle, not to the file: a clone made
    /// before this call keeps searching by keywords only, and clones made
    /// after it share it. Embedding runs on the calling task, inside the
    /// search, so a slow model slows the search that embeds: the first search
    /// of a conversation (or the first after a change of model) embeds its
    /// whole history inside one write transaction, holding the file's write
    /// lock meanwhile, as the first search already does to index it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tidemark_core::recall::RecallQuery;
    /// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq};
    /// use tidemark_memory::store::SqliteStore;
    /// use tidemark_testkit::embedders::HashedTerms;
    ///
    /// # futures::executor::block_on(async {
    /// // A toy model that knows "frankfurt" is where the servers are; a real one knows more.
    /// let model = Arc::new(HashedTerms::new(64).with_synonyms(&[("servers", "frankfurt")]));
    /// let store = SqliteStore::open_in_memory()?.with_embedder(model);
    /// let id = ConversationId::new("ops")?;
    /// store.append(&id, vec![NewMessage::new(Message::user("we host everything in Frankfurt"), 8)]).await?;
    /// let found = store.search_passages(&id, &RecallQuery::new("where do our servers live?", Seq(1), 3)).await?;
    /// assert_eq!(found[0].text, "we host everything in Frankfurt");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    #[must_use]
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }
}

/// How many bytes of vectors [`Holders`] keeps, over all conversations.
const VECTOR_BYTES: u64 = 64 << 20;

/// Whether the conversation's vectors are this model's (`?2`), and how far they go.
const SELECT_MODEL: &str = "SELECT embedder = ?2, embedded FROM recall_models WHERE key = ?1";

const UPSERT_MODEL: &str = "INSERT INTO recall_models (key, embedder, embedded) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET embedder = excluded.embedder, embedded = excluded.embedded";

/// A conversation's vectors, in the order of the primary key: by message, then passage.
const SELECT_VECTORS: &str = "SELECT seq, idx, vector FROM recall_vectors WHERE key = ?1 ORDER BY seq, idx";

/// A passage's vector. Replacing one is harmless: a model makes the same vector from the same text.
const INSERT_VECTOR: &str =
    "INSERT OR REPLACE INTO recall_vectors (key, seq, idx, vector) VALUES (?1, ?2, ?3, ?4)";

/// The messages a catch-up embeds that were indexed before, oldest first.
const SELECT_OLDEST_FIRST: &str = "SELECT seq, tokens, body FROM messages
     WHERE conversation = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq";

const DELETE_ALL: &str = "DELETE FROM recall_vectors WHERE key = ?1";

/// The vectors of the messages `prune` deletes: below the watermark (`?2`) and not retained (`?3`, a JSON array).
const DELETE_PRUNED: &str = "DELETE FROM recall_vectors
     WHERE key = ?1 AND seq < ?2 AND seq NOT IN (SELECT value FROM json_each(?3))";

/// One passage's embedding: its message, its place in the message, the vector.
type Vector = (Seq, u32, Embedding);

/// A conversation's stored vectors as one model made them, kept in memory so that a search does not read them all from the file.
#[derive(Clone, Debug)]
pub(super) struct Vectors {
    /// The name of the model that made them.
    model: Box<str>,
    /// The conversation's `embedded` mark they were read or written at: every stored message below it has its vectors here.
    upto: i64,
    /// By message, then passage.
    list: VectorIndex,
}

impl Vectors {
    /// About how many bytes they hold.
    fn bytes(&self) -> u64 {
        (self.list.bytes() + self.model.len()) as u64 + 64
    }
}

/// Weighs a conversation's vectors by their bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct ByVectorBytes;

impl quick_cache::Weighter<i64, Arc<Vectors>> for ByVectorBytes {
    fn weight(&self, _key: &i64, vectors: &Arc<Vectors>) -> u64 {
        vectors.bytes()
    }
}

/// The cache of [`Vectors`] by conversation key, at most [`VECTOR_BYTES`] big.
pub(super) fn vector_cache() -> quick_cache::unsync::Cache<i64, Arc<Vectors>, ByVectorBytes> {
    quick_cache::unsync::Cache::with_weighter(256, VECTOR_BYTES, ByVectorBytes)
}

/// The vectors a catch-up wrote: the ones of every message from `from` up to `top`, by message, then passage.
#[derive(Debug)]
pub(super) struct Made {
    model: Box<str>,
    from: i64,
    top: i64,
    list: Vec<Vector>,
}

/// What recall by meaning needs to know of a search: where the conversation's index stands and what the search has read already.
#[derive(Debug, Clone, Copy)]
pub(super) struct Searched<'a> {
    /// The conversation searched.
    pub(super) conversation: &'a ConversationId,
    /// The conversation's key.
    pub(super) key: i64,
    /// Every message below this is indexed.
    pub(super) indexed: i64,
    /// The search reaches every message below this.
    pub(super) needed: i64,
    /// The messages from `indexed` up to `needed`, cut: read as they are.
    pub(super) tail: &'a [(Seq, Arc<Cut>)],
    /// The messages the keyword ranking read, cut.
    pub(super) ranked: &'a [(Seq, Arc<Cut>)],
}

/// A conversation's row in `recall_models`, as one model sees it.
#[derive(Debug, Clone, Copy)]
struct Model {
    /// Whether its vectors are that model's.
    same: bool,
    /// Every stored message below this has its vectors.
    embedded: i64,
}

/// What `recall_models` records for `embedder`'s vectors: its name and the rules that cut the passages they belong to.
///
/// This store cuts a message's text again when it reads, so a vector stored
/// for a passage index under other rules ([`PASSAGE_RULES`]) may belong to
/// another passage now: a new rule counts as a new model, and everything is
/// embedded again.
fn recorded(embedder: &dyn Embedder) -> String {
    format!("{} | passages {PASSAGE_RULES}", embedder.name())
}

fn model(connection: &Connection, key: i64, name: &str) -> Result<Option<Model>, Fail> {
    Ok(connection
        .prepare_cached(SELECT_MODEL)?
        .query_row(params![key, name], |row| Ok(Model { same: row.get(0)?, embedded: row.get(1)? }))
        .optional()?)
}

/// Whether some indexed message below `bound` lacks its vectors of `embedder`: then a search writes them before it reads.
pub(super) fn behind(
    connection: &Connection,
    key: i64,
    embedder: &dyn Embedder,
    bound: i64,
) -> Result<bool, Fail> {
    if bound <= 0 {
        return Ok(false);
    }
    Ok(match model(connection, key, &recorded(embedder))? {
        Some(Model { same: true, embedded }) => embedded < bound,
        _ => true,
    })
}

/// Write the vectors of `embedder` for every message below `top` that lacks them (every message, when the stored ones are another model's), and move the mark to `top`.
///
/// The messages from `indexed_before` up to `top` are the ones this
/// catch-up has just indexed, given cut in `indexed`; older ones are read
/// and cut again. Returns what was written, or `None` when nothing was missing.
pub(super) fn catch_up(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    key: i64,
    (indexed_before, top): (i64, i64),
    indexed: &[Indexed],
    embedder: &dyn Embedder,
) -> Result<Option<Made>, Fail> {
    let name = recorded(embedder);
    let name = name.as_str();
    let from = match model(transaction, key, name)? {
        Some(Model { same: true, embedded }) if embedded >= top => return Ok(None),
        Some(Model { same: true, embedded }) => embedded.max(0),
        Some(Model { same: false, .. }) => {
            // Another model's vectors cannot be compared with this one's: they all go.
            transaction.prepare_cached(DELETE_ALL)?.execute(params![key])?;
            0
        }
        None => 0,
    };
    let mut made = Vec::new();
    let mut insert = transaction.prepare_cached(INSERT_VECTOR)?;
    let mut write = |seq: Seq, cut: &Cut| -> Result<(), Fail> {
        let raw = to_sql(seq.0, "seq")?;
        for (index, embedding) in cut.embeddings(embedder, false).iter() {
            insert.execute(params![key, raw, index, embedding.as_bytes()])?;
            made.push((seq, *index, embedding.clone()));
        }
        Ok(())
    };
    let before = indexed_before.min(top);
    if from < before {
        // Indexed earlier without this model's vectors: by a store without an embedder, or with another model.
        let mut select = transaction.prepare_cached(SELECT_OLDEST_FIRST)?;
        let mut rows = select.query(params![conversation.as_str(), from, before])?;
        loop {
            let stored = match next_message(&mut rows, caches, conversation) {
                Ok(Some(stored)) => stored,
                Ok(None) => break,
                // Left out of the index, and so of the vectors.
                Err(Fail::Store(StoreError::Corrupt { .. })) => continue,
                Err(fail) => return Err(fail),
            };
            let cached = held(caches).cut.get(&(key, stored.seq.0)).cloned();
            match cached {
                Some(cut) => write(stored.seq, &cut)?,
                None => write(stored.seq, &Cut::new(&stored.message))?,
            }
        }
    }
    // The catch-up lists them newest first; oldest first keeps the vectors in order.
    for (seq, cut) in indexed.iter().rev() {
        if i64::try_from(seq.0).is_ok_and(|seq| seq >= from) {
            write(*seq, cut)?;
        }
    }
    transaction.prepare_cached(UPSERT_MODEL)?.execute(params![key, name, top])?;
    Ok(Some(Made { model: Box::from(name), from, top, list: made }))
}

/// Add what a committed catch-up wrote to the vectors kept in memory, or drop them when they cannot be brought up to date.
pub(super) fn record(holders: &mut Holders, key: i64, made: Made) {
    let Made { model, from, top, list } = made;
    if from == 0 {
        let mut index = VectorIndex::new();
        for (seq, place, embedding) in list {
            index.push(seq, place, embedding);
        }
        holders.vectors.insert(key, Arc::new(Vectors { model, upto: top, list: index }));
        return;
    }
    match holders.vectors.remove(&key) {
        Some((_, kept)) if kept.model == model && kept.upto == from => {
            let mut kept = Arc::unwrap_or_clone(kept);
            for (seq, place, embedding) in list {
                kept.list.push(seq, place, embedding);
            }
            kept.upto = top;
            holders.vectors.insert(key, Arc::new(kept));
        }
        // Kept vectors of another model or another mark are simply read again when needed.
        _ => {}
    }
}

/// Delete every vector of the conversation keyed `key`.
pub(super) fn clear(transaction: &Transaction<'_>, key: i64) -> Result<(), Fail> {
    transaction.prepare_cached(DELETE_ALL)?.execute(params![key])?;
    Ok(())
}

/// Delete the vectors of the messages `prune` deletes: below `watermark`, except `retained` (a JSON array of numbers).
pub(super) fn prune(
    transaction: &Transaction<'_>,
    key: i64,
    watermark: i64,
    retained: &str,
) -> Result<(), Fail> {
    transaction.prepare_cached(DELETE_PRUNED)?.execute(params![key, watermark, retained])?;
    Ok(())
}

/// The keyword ranking and the passages nearest to the query, weighed together (the rule of [`combine`]); the keyword ranking alone when the model cannot place the query.
///
/// Runs inside the search's read transaction, after the catch-up, so the
/// vectors, the index and the messages are one snapshot.
pub(super) fn fused(
    transaction: &Transaction<'_>,
    caches: &Caches,
    searched: Searched<'_>,
    query: &RecallQuery,
    embedder: &dyn Embedder,
    keyword: Vec<Passage>,
) -> Result<Vec<Passage>, Fail> {
    let Some(wanted) = embedder.embed(&query.text) else {
        let mut keyword = keyword;
        keyword.truncate(query.limit);
        return Ok(keyword);
    };
    let Searched { conversation, key, indexed, needed, tail, ranked } = searched;
    let bound = needed.min(indexed);
    // Stored vectors count only when this model made them. The catch-up has
    // just brought them up to the index, unless another connection changed
    // the file since: messages they do not reach are embedded here.
    let name = recorded(embedder);
    let (reach, stored) = match model(transaction, key, &name)? {
        Some(Model { same: true, embedded }) if embedded > 0 && bound > 0 => {
            (embedded.min(bound), Some(stored(transaction, caches, key, &name, embedded)?))
        }
        _ => (0, None),
    };
    let late = if reach < bound {
        read_tail(transaction, caches, conversation, key, reach, bound)?
    } else {
        Vec::new()
    };
    let mut fresh: Vec<Vector> = Vec::new();
    for (seq, cut) in tail.iter().chain(&late) {
        fresh.extend(
            cut.embeddings(embedder, true).iter().map(|(index, embedding)| (*seq, *index, embedding.clone())),
        );
    }
    let reach = Seq(u64::try_from(reach).unwrap_or(0));
    let near = match stored.as_deref() {
        // The kept vectors below the mark through the index, with the few messages above it.
        Some(stored) => {
            let extra: Vec<(Seq, u32, &Embedding)> = fresh
                .iter()
                .filter(|(seq, _, _)| *seq < query.below)
                .map(|(seq, index, embedding)| (*seq, *index, embedding))
                .collect();
            stored.list.nearest_with(&wanted, query.below.min(reach), SIMILAR_PASSAGES, &extra)
        }
        None => nearest(
            &wanted,
            query.below,
            fresh.iter().map(|(seq, index, embedding)| (*seq, *index, embedding)),
            SIMILAR_PASSAGES,
        ),
    };
    let similar = chosen(transaction, caches, conversation, key, &near, [tail, &late, ranked])?;
    Ok(combine(query, keyword, similar, embedder))
}

/// The conversation's stored vectors of the model `name`, up to its mark `embedded`: the ones kept in memory when they are up to date, read from the file otherwise.
fn stored(
    transaction: &Transaction<'_>,
    caches: &Caches,
    key: i64,
    name: &str,
    embedded: i64,
) -> Result<Arc<Vectors>, Fail> {
    if let Some(kept) = held(caches).vectors.get(&key)
        && *kept.model == *name
        && kept.upto == embedded
    {
        return Ok(Arc::clone(kept));
    }
    let mut select = transaction.prepare_cached(SELECT_VECTORS)?;
    let mut rows = select.query(params![key])?;
    let mut list = VectorIndex::new();
    while let Some(row) = rows.next()? {
        let seq = Seq(from_sql(row.get(0)?, "seq")?);
        let index: u32 = from_sql(row.get(1)?, "idx")?;
        // This store only writes bytes that `Embedding::as_bytes` gave.
        let embedding = Embedding::from_bytes(row.get_ref(2)?.as_blob()?)
            .ok_or(DataError::Inconsistent { column: "vector" })?;
        list.push(seq, index, embedding);
    }
    let vectors = Arc::new(Vectors { model: Box::from(name), upto: embedded, list });
    held(caches).vectors.insert(key, Arc::clone(&vectors));
    Ok(vectors)
}

/// The nearest passages as found passages, in `near`'s order, scored by their cosine.
///
/// Their texts come from the messages the search has cut already (`known`),
/// or from the cache of cut messages, or from the messages cut again.
fn chosen(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    key: i64,
    near: &[Near],
    known: [&[(Seq, Arc<Cut>)]; 3],
) -> Result<Vec<Passage>, Fail> {
    let mut found = Vec::with_capacity(near.len());
    for near in near {
        let seen = known.iter().flat_map(|cuts| cuts.iter()).find(|(seq, _)| *seq == near.seq);
        let cut = match seen {
            Some((_, cut)) => Arc::clone(cut),
            // Vectors go with their messages, so the message is there; should it not be, it is not found.
            None => match cut_of(transaction, caches, conversation, key, near.seq)? {
                Some(cut) => cut,
                None => continue,
            },
        };
        if let Some((_, text, _)) = cut.passages.iter().find(|(index, _, _)| *index == near.index) {
            found.push(Passage::new(near.seq, cut.role, near.index, text.clone(), near.similarity));
        }
    }
    Ok(found)
}

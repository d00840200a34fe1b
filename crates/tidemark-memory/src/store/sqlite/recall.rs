//! Recall in SQLite: one FTS5 row per message, written by the first search that needs it, and searches that cannot carry FTS5 syntax.
//!
//! A message is indexed by a search that reaches below it: the first search
//! of a conversation indexes every message below its mark, and a later one,
//! once more than [`CATCH_UP_AFTER`] messages below its mark are not indexed
//! yet, indexes them all in one write transaction before it looks anything
//! up. Until then the few messages above the index are read and matched as
//! they are (from the cache of cut messages), so most loads write nothing.
//! An append writes nothing to the index, so a program that never searches
//! pays nothing for recall: FTS5 pays a fixed price per transaction on top
//! of its price per term, and indexing at the append, four messages at a
//! time, made the replay benchmark's appends four times slower (see
//! `docs/architecture.md`). Either way a search sees every message below its
//! mark, as with the other stores.
//!
//! The index is `recall`, a contentless FTS5 table: it keeps the index of
//! each message's search terms and nothing else, since the text is already
//! in `messages`. A row's id says whose message it is: one conversation's
//! rows are the range of ids from its number in `recall_keys` times 2³², up
//! to the next number's, counting down from the top of the range as the
//! sequence numbers go up (so that the newest come first), and FTS5 searches
//! and deletes by that range without touching other conversations. Messages numbered 2³² or
//! more (four billion in one conversation) are not indexed.
//!
//! A row's terms are the distinct [`terms`](tidemark_core::recall::terms) of
//! the message's passages, separated by spaces. FTS5's `ascii` tokenizer,
//! told that the joiners `- _ . /` belong to tokens, reads each term back as
//! one token (non-ASCII letters are always token characters to it), so the
//! index agrees with `terms` in every script. A query is a list of terms,
//! each in double quotes; terms hold no quote or space, so no query can be
//! read as FTS5 syntax.
//!
//! A search asks FTS5, for each query term, for the newest messages of the
//! conversation below the mark that hold it (one range scan of the term's
//! list, newest first, stopped after [`RARE_MESSAGES`]` + 1`), lets
//! [`candidate_messages`] choose among them, cuts those messages into passages
//! again and ranks the passages with [`rank`]: the rule and the scores of
//! every other store.
//!
//! Each term's answer is kept in [`Holders`], and the messages a catch-up
//! indexes are added to the answers kept, so a term asked about again (the
//! common words of a conversation come back at nearly every turn) costs no
//! FTS5 lookup. The answers stay true as long as this connection is the only
//! writer: a commit by another connection changes `PRAGMA data_version` and
//! empties them, and so do `prune` and `clear` here.
//!
//! A store with an [`Embedder`] also keeps each passage's embedding, written
//! by the same catch-ups, and weighs the nearest passages with the keyword
//! ranking's best: see [`similar`].

mod similar;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, MutexGuard, OnceLock, PoisonError};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use tidemark_core::recall::{
    Embedder, Embedding, Passage, RARE_MESSAGES, RecallQuery, TermCounts, candidate_messages, keyword_pool,
    passages, rank_counted,
};
use tidemark_core::store::sql::DataError;
use tidemark_core::{ConversationId, Message, Role, Seq, StoreError};

use super::{Caches, Fail, next_message, read_counts};

/// A conversation's rows are the ids from its key times this, up to the next key's.
const SPAN: i64 = 1 << 32;

const SELECT_MARK: &str = "SELECT key, indexed FROM recall_keys WHERE conversation = ?1";

const INSERT_KEY: &str = "INSERT INTO recall_keys (conversation, key, indexed)
     SELECT ?1, COALESCE(MAX(key), 0) + 1, 0 FROM recall_keys
     RETURNING key, indexed";

const UPDATE_INDEXED: &str = "UPDATE recall_keys SET indexed = ?2 WHERE conversation = ?1";

const SELECT_NEWEST_FIRST: &str = "SELECT seq, tokens, body FROM messages
     WHERE conversation = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq DESC";

const INSERT_ROW: &str = "INSERT INTO recall (rowid, terms) VALUES (?1, ?2)";

/// The newest messages in a range of ids that hold one term.
const SEARCH: &str = "SELECT rowid FROM recall
     WHERE recall MATCH ?1 AND rowid >= ?2 AND rowid < ?3
     ORDER BY rowid
     LIMIT ?4";

/// A number that changes whenever another connection commits to the file.
const DATA_VERSION: &str = "PRAGMA data_version";

/// How many answers [`Holders`] keeps: a few hundred bytes each.
const HELD_TERMS: usize = 16_384;

/// How many messages may wait below a search's mark before the search indexes them: up to this
/// many, they are read and matched as they are (they are few, and cut messages are cached), which
/// spares a write transaction and an FTS5 flush at nearly every load.
const CATCH_UP_AFTER: i64 = 16;

/// How many bytes of cut messages [`Holders`] keeps (texts and terms).
const CUT_BYTES: u64 = 16 << 20;

/// A message as recall reads it: its role and its passages, with their terms counted.
#[derive(Debug)]
struct Cut {
    role: Role,
    passages: Vec<(u32, String, TermCounts)>,
    /// The distinct terms of all its passages, sorted: the terms its index row holds.
    terms: Vec<Box<str>>,
    /// Its passages' embeddings and the name of the model that made them, once a search needed them
    /// while the message waited above the index (see [`Cut::embeddings`]).
    vectors: OnceLock<Embedded>,
}

/// A message's passage embeddings (place, vector) and the name of the model that made them.
type Embedded = (Box<str>, Vec<(u32, Embedding)>);

impl Cut {
    fn new(message: &Message) -> Self {
        let passages: Vec<(u32, String, TermCounts)> = passages(message)
            .into_iter()
            .map(|passage| {
                let counts = TermCounts::of(&passage);
                (passage.index, passage.text, counts)
            })
            .collect();
        let mut terms: Vec<Box<str>> =
            passages.iter().flat_map(|(_, _, counts)| counts.terms().map(Box::from)).collect();
        terms.sort_unstable();
        terms.dedup();
        Self { role: message.role, passages, terms, vectors: OnceLock::new() }
    }

    /// Its passages' embeddings by `embedder`, in passage order, without those the model cannot place.
    ///
    /// With `keep`, the first model to ask keeps its embeddings in the cut, so
    /// that a message waiting above the index is embedded once, however many
    /// searches read it before a catch-up writes its vectors (which then uses
    /// the kept ones, and keeps nothing more: the vectors are kept elsewhere).
    fn embeddings(&self, embedder: &dyn Embedder, keep: bool) -> Cow<'_, [(u32, Embedding)]> {
        let name = embedder.name();
        let make = || -> Vec<(u32, Embedding)> {
            self.passages
                .iter()
                .filter_map(|(index, text, _)| Some((*index, embedder.embed(text)?)))
                .collect()
        };
        let (model, kept) = match self.vectors.get() {
            Some(kept) => kept,
            None if keep => self.vectors.get_or_init(|| (Box::from(name), make())),
            None => return Cow::Owned(make()),
        };
        // Another model's embeddings are never mixed in: they are made again, and not kept.
        if **model == *name { Cow::Borrowed(kept) } else { Cow::Owned(make()) }
    }

    /// Its index row: its terms separated by spaces, or `None` when it has none.
    fn row(&self) -> Option<String> {
        (!self.terms.is_empty()).then(|| self.terms.join(" "))
    }

    /// Whether the message holds `term`, as its index row would say.
    fn holds(&self, term: &str) -> bool {
        self.terms.binary_search_by(|probe| (**probe).cmp(term)).is_ok()
    }

    /// About how many bytes it holds.
    fn bytes(&self) -> u64 {
        let bytes: usize = self
            .passages
            .iter()
            .map(|(_, text, counts)| text.len() + counts.terms().map(|term| term.len() + 24).sum::<usize>())
            .sum();
        let vectors: usize = self.vectors.get().map_or(0, |(model, kept)| {
            model.len() + kept.iter().map(|(_, embedding)| embedding.dimensions() + 40).sum::<usize>()
        });
        (bytes + vectors) as u64 + 64
    }
}

/// A message a catch-up indexed, cut as its index row was made.
type Indexed = (Seq, Arc<Cut>);

/// Weighs the cut messages by their bytes.
#[derive(Clone, Copy, Debug)]
struct ByBytes;

impl quick_cache::Weighter<(i64, u64), Arc<Cut>> for ByBytes {
    fn weight(&self, _key: &(i64, u64), cut: &Arc<Cut>) -> u64 {
        cut.bytes()
    }
}

/// The newest holders of each term a search has looked up, per conversation key, kept true as messages are indexed.
///
/// An entry holds the newest `RARE_MESSAGES + 1` messages (or all, if fewer)
/// of the conversation holding the term, among every message indexed so far:
/// exactly what a lookup below the conversation's mark returns. A catch-up
/// only ever indexes messages newer than every indexed one, so it puts them
/// in front of the entries of their terms; a lookup below a lower mark is
/// answered from an entry only when the entry says enough about the messages
/// below it.
#[derive(Debug)]
pub(super) struct Holders {
    /// `PRAGMA data_version` when the entries were last known to match the file.
    version: Option<i64>,
    entries: quick_cache::unsync::Cache<(i64, Box<str>), Vec<Seq>>,
    /// Messages already cut into passages, by conversation key and number: the same candidates
    /// come back load after load, and cutting and tokenising them again cost more than the lookups.
    /// Stored messages never change; they only go, by `prune` or `clear`, which empty this too.
    cut: quick_cache::unsync::Cache<(i64, u64), Arc<Cut>, ByBytes>,
    /// Each conversation's stored embeddings, by conversation key, as one model made them (see
    /// [`similar`]): read from the file once, then extended by the catch-ups that write more.
    vectors: quick_cache::unsync::Cache<i64, Arc<similar::Vectors>, similar::ByVectorBytes>,
}

impl Holders {
    pub(super) fn new() -> Self {
        Self {
            version: None,
            entries: quick_cache::unsync::Cache::new(HELD_TERMS),
            cut: quick_cache::unsync::Cache::with_weighter(4_096, CUT_BYTES, ByBytes),
            vectors: similar::vector_cache(),
        }
    }

    /// Forget every entry.
    fn forget(&mut self) {
        self.entries.clear();
        self.cut.clear();
        self.vectors.clear();
    }

    /// Forget every entry if another connection has committed since the last look.
    fn sync(&mut self, version: i64) {
        if self.version != Some(version) {
            self.forget();
            self.version = Some(version);
        }
    }

    /// The newest holders of `term` below `needed`, if an entry can say.
    fn lookup(&self, key: i64, term: &str, needed: i64) -> Option<Vec<Seq>> {
        let held = self.entries.get(&(key, Box::from(term)))?;
        let below: Vec<Seq> =
            held.iter().copied().filter(|seq| i64::try_from(seq.0).is_ok_and(|seq| seq < needed)).collect();
        // A full entry may have left out older holders, which a lower mark would need.
        (below.len() == held.len() || held.len() <= RARE_MESSAGES).then_some(below)
    }

    /// Add the messages a catch-up indexed, newest first, to the entries of their terms, and keep them cut.
    fn record(&mut self, key: i64, indexed: &[Indexed]) {
        let mut fresh: HashMap<&str, Vec<Seq>> = HashMap::new();
        for (seq, cut) in indexed {
            for term in &cut.terms {
                if self.entries.contains_key(&(key, term.clone())) {
                    fresh.entry(term).or_default().push(*seq);
                }
            }
        }
        for (term, mut seqs) in fresh {
            let entry = (key, Box::from(term));
            if let Some(old) = self.entries.get(&entry) {
                seqs.extend_from_slice(old);
            }
            seqs.truncate(RARE_MESSAGES + 1);
            self.entries.insert(entry, seqs);
        }
        // Cut once for the index, kept for the searches that will rank them.
        for (seq, cut) in indexed {
            self.cut.insert((key, seq.0), Arc::clone(cut));
        }
    }
}

fn held(caches: &Caches) -> MutexGuard<'_, Holders> {
    // Every change to the entries is whole, so a poisoned lock still guards consistent entries.
    caches.holders.lock().unwrap_or_else(PoisonError::into_inner)
}

const DELETE_RANGE: &str = "DELETE FROM recall WHERE rowid >= ?1 AND rowid < ?2";

/// The rows of the messages `prune` deletes: below the watermark and not retained.
const DELETE_PRUNED: &str = "DELETE FROM recall
     WHERE rowid >= ?1 AND rowid < ?2 AND ?4 - rowid NOT IN (SELECT value FROM json_each(?3))";

/// A conversation's place in the index: its key, and the number below which every message is indexed.
#[derive(Debug, Clone, Copy)]
struct Mark {
    key: i64,
    indexed: i64,
}

/// What a catch-up wrote, for the caches to learn once it is committed.
#[derive(Debug)]
struct CaughtUp {
    /// The conversation's key.
    key: i64,
    /// The messages it indexed, newest first, cut.
    indexed: Vec<Indexed>,
    /// The vectors it wrote, if the store has an embedder and any were missing.
    vectors: Option<similar::Made>,
}

/// Index the messages of `conversation` below `upto` that are not indexed yet, and with an `embedder`, write the vectors of every indexed message that lacks them.
///
/// A message that does not decode is left out of the index (loading it
/// reports it as corrupt anyway): one bad row must not stop the others.
fn catch_up(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    upto: u64,
    embedder: Option<&dyn Embedder>,
) -> Result<CaughtUp, Fail> {
    let upto = i64::try_from(upto).map_or(SPAN, |upto| upto.min(SPAN));
    let id = conversation.as_str();
    let mark = match mark(transaction, id)? {
        Some(mark) => mark,
        None => transaction
            .prepare_cached(INSERT_KEY)?
            .query_row(params![id], |row| Ok(Mark { key: row.get(0)?, indexed: row.get(1)? }))?,
    };
    let indexed =
        if mark.indexed < upto { index(transaction, caches, conversation, mark, upto)? } else { Vec::new() };
    let top = mark.indexed.max(upto);
    let vectors = match embedder {
        Some(embedder) => similar::catch_up(
            transaction,
            caches,
            conversation,
            mark.key,
            (mark.indexed, top),
            &indexed,
            embedder,
        )?,
        None => None,
    };
    Ok(CaughtUp { key: mark.key, indexed, vectors })
}

/// Write the index rows of the messages from `mark.indexed` up to `upto`, and move the mark; returns the messages indexed, newest first, cut.
fn index(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    mark: Mark,
    upto: i64,
) -> Result<Vec<Indexed>, Fail> {
    let id = conversation.as_str();
    let mut indexed = Vec::new();
    {
        // Newest first, so that row ids arrive ascending: FTS5 would flush its
        // pending data at every insert that goes down (see `row_id`).
        let mut select = transaction.prepare_cached(SELECT_NEWEST_FIRST)?;
        let mut rows = select.query(params![id, mark.indexed, upto])?;
        let mut insert = transaction.prepare_cached(INSERT_ROW)?;
        loop {
            let stored = match next_message(&mut rows, caches, conversation) {
                Ok(Some(stored)) => stored,
                Ok(None) => break,
                Err(Fail::Store(StoreError::Corrupt { seq, .. })) => {
                    tracing::warn!(
                        conversation = id,
                        seq = seq.0,
                        "a stored message does not decode; it is left out of the recall index"
                    );
                    continue;
                }
                Err(fail) => return Err(fail),
            };
            // A message a search read above the index is cut already, and maybe embedded too.
            let cached = held(caches).cut.get(&(mark.key, stored.seq.0)).cloned();
            let cut = cached.unwrap_or_else(|| Arc::new(Cut::new(&stored.message)));
            let Some(terms) = cut.row() else { continue };
            let seq = i64::try_from(stored.seq.0).map_err(|_| DataError::Exhausted { column: "seq" })?;
            if let Some(row) = row_id(mark.key, seq) {
                insert.execute(params![row, terms])?;
                indexed.push((stored.seq, cut));
            }
        }
    }
    transaction.prepare_cached(UPDATE_INDEXED)?.execute(params![id, upto])?;
    Ok(indexed)
}

/// Take a conversation's messages out of the index.
pub(super) fn clear(transaction: &Transaction<'_>, caches: &Caches, conversation: &str) -> Result<(), Fail> {
    held(caches).forget();
    if let Some(Mark { key, .. }) = mark(transaction, conversation)? {
        let base = key.saturating_mul(SPAN);
        transaction.prepare_cached(DELETE_RANGE)?.execute(params![base, base.saturating_add(SPAN)])?;
        similar::clear(transaction, key)?;
    }
    Ok(())
}

/// Take out the messages `prune` deletes: below `watermark`, except `retained` (a JSON array of numbers).
pub(super) fn prune(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &str,
    watermark: i64,
    retained: &str,
) -> Result<(), Fail> {
    held(caches).forget();
    if let Some(Mark { key, .. }) = mark(transaction, conversation)? {
        let base = key.saturating_mul(SPAN);
        let end = base.saturating_add(SPAN);
        let start = end.saturating_sub(watermark.clamp(0, SPAN));
        // Row `r` is message `end - 1 - r` (see `row_id`).
        transaction.prepare_cached(DELETE_PRUNED)?.execute(params![start, end, retained, end - 1])?;
        similar::prune(transaction, key, watermark, retained)?;
    }
    Ok(())
}

/// The best passages of `conversation` for `query`.
///
/// With an `embedder`, the keyword ranking and the passages nearest to the
/// query are weighed together (see [`similar`]).
pub(super) fn search(
    connection: &mut Connection,
    caches: &Caches,
    embedder: Option<&dyn Embedder>,
    conversation: &ConversationId,
    query: &RecallQuery,
) -> Result<Vec<Passage>, Fail> {
    if query.limit == 0 {
        return Ok(Vec::new());
    }
    let wanted = query.terms();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let id = conversation.as_str();
    let Some(counts) = read_counts(connection, id)? else { return Ok(Vec::new()) };
    // Only numbers below both the mark and the next one can be stored.
    let upto = query.below.min(counts.next_seq);
    let needed = i64::try_from(upto.0).map_or(SPAN, |upto| upto.min(SPAN));
    let behind = match mark(connection, id)? {
        None => true,
        Some(mark) if needed - mark.indexed > CATCH_UP_AFTER => true,
        // Vectors missing below the index (none written yet, or another model's) are written now.
        Some(mark) => match embedder {
            Some(embedder) => similar::behind(connection, mark.key, embedder, needed.min(mark.indexed))?,
            None => false,
        },
    };
    if behind {
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Read under the write lock: the entries are brought to this version before they learn what
        // the catch-up wrote, so that the search below keeps them unless another connection commits.
        let version: i64 = transaction.prepare_cached(DATA_VERSION)?.query_row([], |row| row.get(0))?;
        let caught = catch_up(&transaction, caches, conversation, upto.0, embedder)?;
        transaction.commit()?;
        let mut holders = held(caches);
        holders.sync(version);
        holders.record(caught.key, &caught.indexed);
        if let Some(made) = caught.vectors {
            similar::record(&mut holders, caught.key, made);
        }
    }
    // One read transaction, so that the index and the messages are one snapshot.
    let transaction = connection.transaction()?;
    let Some(Mark { key, indexed }) = mark(&transaction, id)? else { return Ok(Vec::new()) };
    // Read inside the snapshot: any commit by another connection before it, even one between the catch-up and this transaction, empties the entries.
    let version: i64 = transaction.prepare_cached(DATA_VERSION)?.query_row([], |row| row.get(0))?;
    let end = key.saturating_mul(SPAN).saturating_add(SPAN);
    // The index answers below `bound`; the few messages above it, not indexed yet, are read as they are.
    let bound = needed.min(indexed);
    held(caches).sync(version);
    let tail = if needed > indexed {
        read_tail(&transaction, caches, conversation, key, indexed, needed)?
    } else {
        Vec::new()
    };
    let mut found = Vec::with_capacity(wanted.len());
    {
        let mut holders = held(caches);
        holders.sync(version);
        let mut select = transaction.prepare_cached(SEARCH)?;
        let limit = i64::try_from(RARE_MESSAGES + 1).unwrap_or(i64::MAX);
        for term in &wanted {
            // The tail is newer than every indexed message: its holders come first.
            let mut seqs: Vec<Seq> =
                tail.iter().filter(|(_, cut)| cut.holds(term)).map(|(seq, _)| *seq).collect();
            if seqs.len() > RARE_MESSAGES {
                seqs.truncate(RARE_MESSAGES + 1);
                found.push(seqs);
                continue;
            }
            if let Some(older) = holders.lookup(key, term, bound) {
                seqs.extend(older);
                seqs.truncate(RARE_MESSAGES + 1);
                found.push(seqs);
                continue;
            }
            let mut older = Vec::new();
            if let Some(phrase) = phrase(term) {
                // Messages below `bound` are the rows from `end - bound` up; ascending ids are newest first.
                let mut rows = select.query(params![phrase, end.saturating_sub(bound), end, limit])?;
                while let Some(row) = rows.next()? {
                    let id: i64 = row.get(0)?;
                    let seq = end - 1 - id;
                    older
                        .push(Seq(u64::try_from(seq).map_err(|_| DataError::Exhausted { column: "rowid" })?));
                }
            }
            // An answer over every indexed message is what an entry holds.
            if bound == indexed {
                holders.entries.insert((key, Box::from(term.as_str())), older.clone());
            }
            seqs.extend(older);
            seqs.truncate(RARE_MESSAGES + 1);
            found.push(seqs);
        }
    }
    let seqs = candidate_messages(&found);
    let mut cuts: Vec<(Seq, Arc<Cut>)> = Vec::with_capacity(seqs.len());
    for seq in seqs {
        // A message pruned since it was indexed is simply not a candidate.
        if let Some(cut) = cut_of(&transaction, caches, conversation, key, seq)? {
            cuts.push((seq, cut));
        }
    }
    // A search by meaning weighs more of the keyword ranking than it returns.
    let pooled = embedder.map(|_| keyword_pool(query));
    let keyword = rank_counted(
        pooled.as_ref().unwrap_or(query),
        cuts.iter().flat_map(|(seq, cut)| {
            cut.passages
                .iter()
                .map(move |(index, text, counts)| (*seq, cut.role, *index, text.as_str(), counts))
        }),
    );
    let found = match embedder {
        Some(embedder) => {
            let searched =
                similar::Searched { conversation, key, indexed, needed, tail: &tail, ranked: &cuts };
            similar::fused(&transaction, caches, searched, query, embedder, keyword)?
        }
        None => keyword,
    };
    transaction.commit()?;
    Ok(found)
}

/// The messages of `conversation` from `from` up to `upto` (not indexed yet), cut, newest first.
///
/// They come from the cache of cut messages when they are there, and go into it otherwise. A
/// message that does not decode is left out, as the catch-up leaves it out of the index.
fn read_tail(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    key: i64,
    from: i64,
    upto: i64,
) -> Result<Vec<(Seq, Arc<Cut>)>, Fail> {
    let mut tail = Vec::new();
    let mut select = transaction.prepare_cached(SELECT_NEWEST_FIRST)?;
    let mut rows = select.query(params![conversation.as_str(), from, upto])?;
    loop {
        let stored = match next_message(&mut rows, caches, conversation) {
            Ok(Some(stored)) => stored,
            Ok(None) => break,
            Err(Fail::Store(StoreError::Corrupt { .. })) => continue,
            Err(fail) => return Err(fail),
        };
        let mut holders = held(caches);
        let cut = match holders.cut.get(&(key, stored.seq.0)).cloned() {
            Some(cut) => cut,
            None => {
                let cut = Arc::new(Cut::new(&stored.message));
                holders.cut.insert((key, stored.seq.0), Arc::clone(&cut));
                cut
            }
        };
        tail.push((stored.seq, cut));
    }
    Ok(tail)
}

/// Message `seq` of `conversation` (keyed `key`), cut: from the cache of cut messages, or read and cut (and cached), or `None` when it is not stored.
///
/// Call it after the entries were synced inside the caller's snapshot: a cut message is then still stored.
fn cut_of(
    transaction: &Transaction<'_>,
    caches: &Caches,
    conversation: &ConversationId,
    key: i64,
    seq: Seq,
) -> Result<Option<Arc<Cut>>, Fail> {
    if let Some(cut) = held(caches).cut.get(&(key, seq.0)).cloned() {
        return Ok(Some(cut));
    }
    let raw = i64::try_from(seq.0).map_err(|_| DataError::Exhausted { column: "seq" })?;
    let mut select = transaction.prepare_cached(super::SELECT_ONE)?;
    let mut rows = select.query(params![conversation.as_str(), raw])?;
    let Some(stored) = next_message(&mut rows, caches, conversation)? else { return Ok(None) };
    let cut = Arc::new(Cut::new(&stored.message));
    held(caches).cut.insert((key, seq.0), Arc::clone(&cut));
    Ok(Some(cut))
}

fn mark(connection: &Connection, conversation: &str) -> Result<Option<Mark>, Fail> {
    Ok(connection
        .prepare_cached(SELECT_MARK)?
        .query_row(params![conversation], |row| Ok(Mark { key: row.get(0)?, indexed: row.get(1)? }))
        .optional()?)
}

/// The index row id of message `seq` of the conversation keyed `key`, if it has one.
///
/// A conversation's rows count down from the top of its span, so that the
/// newest messages have the lowest ids: FTS5 reads a term's list forward
/// cheaply and stops at the limit, while reading it backwards means loading
/// all of it first.
fn row_id(key: i64, seq: i64) -> Option<i64> {
    let top = key.checked_mul(SPAN)?.checked_add(SPAN - 1)?;
    (0..SPAN).contains(&seq).then(|| top - seq)
}

/// The FTS5 query for one term: the term in double quotes, or `None` for a term that could be read as syntax.
///
/// Terms are letters, digits and joiners, so `None` would mean a bug in
/// [`terms`](tidemark_core::recall::terms); such a term finds nothing rather
/// than get near the query syntax.
fn phrase(term: &str) -> Option<String> {
    (!term.is_empty() && !term.contains(['"', ' '])).then(|| format!("\"{term}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_hold_only_quoted_terms() {
        let terms = tidemark_core::recall::query_terms("\"NEAR(x* -y\" x fix/retry-7781");
        let phrases: Vec<String> = terms.iter().filter_map(|term| phrase(term)).collect();
        assert_eq!(
            phrases,
            [r#""near""#, r#""x""#, r#""y""#, r#""fix/retry-7781""#, r#""fix""#, r#""retry""#, r#""7781""#]
        );
        assert_eq!(phrase("a\"b"), None);
        assert_eq!(phrase(""), None);
    }

    /// Cached statements are compiled once: binding new values (another range, another term, the limit) must not make SQLite compile them again.
    #[test]
    fn cached_statements_are_not_compiled_again() {
        use rusqlite::StatementStatus;
        use tidemark_core::{ConversationStore, NewMessage, SeqRange};

        let store = super::super::SqliteStore::open_in_memory().expect("store");
        let id = ConversationId::new("c").expect("id");
        futures::executor::block_on(async {
            for turn in 0..40u64 {
                let text = format!("turn {turn}: deploy api-{} to region-{}", turn % 7, turn % 3);
                store.append(&id, vec![NewMessage::new(Message::user(text), 8)]).await.expect("append");
                let query =
                    RecallQuery::new(format!("where is api-{} region-{}", turn % 5, turn % 2), Seq(turn), 4);
                store.search_passages(&id, &query).await.expect("search");
                store.load_range(&id, SeqRange::new(Seq(turn / 2), Seq(turn + 1))).await.expect("load");
            }
        });
        let connection = store.lock();
        for sql in [SEARCH, super::super::SELECT_RANGE, SELECT_MARK, super::super::SELECT_ONE] {
            let statement = connection.prepare_cached(sql).expect("cached");
            assert_eq!(statement.get_status(StatementStatus::RePrepare), 0, "{sql}");
        }
    }

    #[test]
    fn row_ids_stay_inside_their_conversation() {
        assert_eq!(row_id(1, 0), Some(2 * SPAN - 1));
        assert_eq!(row_id(1, SPAN - 1), Some(SPAN));
        assert_eq!(row_id(1, SPAN), None);
        assert_eq!(row_id(1, -1), None);
        assert_eq!(row_id(i64::MAX / SPAN + 1, 0), None);
    }

    #[test]
    fn a_row_holds_each_term_once() {
        let message = Message::user("Deploy fix/retry-7781 now.\nDeploy it now.");
        assert_eq!(Cut::new(&message).row().as_deref(), Some("7781 deploy fix fix/retry-7781 it now retry"));
        assert_eq!(Cut::new(&Message::user("  ")).row(), None);
        // The same terms as a message index would hold.
        let joined = tidemark_core::recall::index_terms(&message);
        let mut expected: Vec<&str> = joined.split(' ').collect();
        expected.sort_unstable();
        assert_eq!(Cut::new(&message).terms.iter().map(|t| &**t).collect::<Vec<_>>(), expected);
    }
}

//! Recall by meaning in the SQLite store: the reference's answers to the bit, vectors kept in the file across restarts, a change of model, old files, and odd inputs.
#![cfg(feature = "sqlite")]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use rusqlite::Connection;
use tidemark_core::recall::{Embedder, Embedding, PASSAGE_RULES, Passage, RecallQuery, passages};
use tidemark_core::{CompactionState, ConversationId, ConversationStore, Message, NewMessage, Role, Seq};
use tidemark_memory::store::SqliteStore;
use tidemark_testkit::conformance::store;
use tidemark_testkit::embedders::HashedTerms;
use tidemark_testkit::reference::ReferenceStore;
use tidemark_testkit::strategies::{arb_message, arb_text};

fn id(text: &str) -> ConversationId {
    ConversationId::new(text).expect("a valid id")
}

/// A second connection to the store's file, standing for another program that reads or edits it.
fn side_door(path: &Path) -> Connection {
    Connection::open(path).expect("the file opens with plain rusqlite")
}

fn count(path: &Path, sql: &str) -> i64 {
    side_door(path).query_row(sql, [], |row| row.get(0)).expect("count")
}

/// An embedder that counts the texts it embeds, to tell what a search embedded again.
#[derive(Debug)]
struct Counting {
    inner: HashedTerms,
    calls: AtomicUsize,
}

impl Counting {
    fn new(inner: HashedTerms) -> Arc<Self> {
        Arc::new(Self { inner, calls: AtomicUsize::new(0) })
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl Embedder for Counting {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn embed(&self, text: &str) -> Option<Embedding> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.embed(text)
    }

    fn pieces(&self, text: &str) -> Vec<u32> {
        self.inner.pieces(text)
    }

    fn piece_similarity(&self, a: u32, b: u32) -> f64 {
        self.inner.piece_similarity(a, b)
    }
}

/// The model of the fixed tests: enough axes that few words collide, and synonyms no keyword can follow.
fn model() -> HashedTerms {
    HashedTerms::new(256).with_synonyms(&[("servers", "frankfurt"), ("pet", "walrus")])
}

/// An answer with every score as its bits, so that equality is equality to the bit.
fn exact(found: &[Passage]) -> Vec<(u64, Role, u32, String, u64)> {
    found.iter().map(|p| (p.seq.0, p.role, p.index, p.text.clone(), p.score.to_bits())).collect()
}

fn news(texts: &[&str]) -> Vec<NewMessage> {
    texts.iter().map(|text| NewMessage::new(Message::user(*text), 5)).collect()
}

async fn search<S: ConversationStore>(
    store: &S,
    conversation: &ConversationId,
    query: &RecallQuery,
) -> Vec<Passage> {
    store.search_passages(conversation, query).await.expect("search")
}

/// The number of passages, over `texts`, that `embedder` can place: what a catch-up embeds.
fn placed(texts: &[&str], embedder: &dyn Embedder) -> i64 {
    let count = texts
        .iter()
        .flat_map(|text| passages(&Message::user(*text)))
        .filter(|passage| embedder.embed(&passage.text).is_some())
        .count();
    i64::try_from(count).expect("few")
}

#[tokio::test]
async fn sqlite_store_conforms_by_meaning() {
    let mut dirs = Vec::new();
    let report = store::run_by_meaning(
        |embedder| {
            let dir = tempfile::tempdir().expect("a temp dir");
            let store =
                SqliteStore::open(dir.path().join("meaning.db")).expect("open").with_embedder(embedder);
            dirs.push(dir);
            async move { store }
        },
        64,
    )
    .await
    .expect("conforms by meaning");
    assert_eq!((report.checks, report.cases), (3, 64));
    let report = store::run_by_meaning(
        |embedder| async move { SqliteStore::open_in_memory().expect("open").with_embedder(embedder) },
        16,
    )
    .await
    .expect("conforms by meaning in memory");
    assert_eq!(report.cases, 16);
}

#[tokio::test]
async fn a_paraphrase_is_found_by_meaning_where_keywords_find_nothing() {
    let conversation = id("paraphrase");
    let embedder: Arc<dyn Embedder> = Arc::new(model());
    let keywords = SqliteStore::open_in_memory().expect("open");
    let meaning = SqliteStore::open_in_memory().expect("open").with_embedder(Arc::clone(&embedder));
    let reference = ReferenceStore::new().with_embedder(embedder);
    let history = news(&["We host everything in Frankfurt.", "Noted.", "The build is green again."]);
    for store in [&keywords, &meaning] {
        store.append(&conversation, history.clone()).await.expect("append");
    }
    reference.append(&conversation, history).await.expect("append");
    let query = RecallQuery::new("where do our servers live?", Seq(3), 3);
    assert!(
        search(&keywords, &conversation, &query).await.is_empty(),
        "no word of the question is in the history"
    );
    let found = search(&meaning, &conversation, &query).await;
    assert_eq!(found.first().map(|p| p.text.as_str()), Some("We host everything in Frankfurt."));
    assert_eq!(exact(&found), exact(&search(&reference, &conversation, &query).await));
}

#[tokio::test]
async fn vectors_survive_reopening_and_are_not_made_again() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("kept.db");
    let conversation = id("kept");
    let texts: Vec<String> =
        (0..40).map(|turn| format!("turn {turn}: the walrus ate fish {}", turn % 7)).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let reference = ReferenceStore::new().with_embedder(Arc::new(model()));
    reference.append(&conversation, news(&texts)).await.expect("append");
    let query = RecallQuery::new("my pet and fish 3", Seq(40), 6);
    let expected = exact(&search(&reference, &conversation, &query).await);

    let first = Counting::new(model());
    let store = SqliteStore::open(&path).expect("open").with_embedder(first.clone());
    store.append(&conversation, news(&texts)).await.expect("append");
    assert_eq!(first.calls(), 0, "an append embeds nothing");
    assert_eq!(exact(&search(&store, &conversation, &query).await), expected);
    // The first search indexed and embedded every passage once, and the query once.
    let stored = placed(&texts, &model());
    assert_eq!(first.calls() as i64, stored + 1);
    drop(store);
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), stored);
    assert_eq!(count(&path, "SELECT embedded FROM recall_models"), 40);

    let again = Counting::new(model());
    let store = SqliteStore::open(&path).expect("reopen").with_embedder(again.clone());
    assert_eq!(exact(&search(&store, &conversation, &query).await), expected);
    assert_eq!(again.calls(), 1, "only the query is embedded after a restart");
    assert_eq!(exact(&search(&store, &conversation, &query).await), expected);
    assert_eq!(again.calls(), 2);
    drop(store);

    // Vectors recorded under other passage rules (an earlier release recorded the bare model name) may
    // belong to other passages of the same index now: they are all made again.
    side_door(&path)
        .execute("UPDATE recall_models SET embedder = ?1", [model().name()])
        .expect("an older record");
    let upgraded = Counting::new(model());
    let store = SqliteStore::open(&path).expect("reopen").with_embedder(upgraded.clone());
    assert_eq!(exact(&search(&store, &conversation, &query).await), expected);
    assert_eq!(upgraded.calls() as i64, stored + 1, "every passage embedded again, and the query");
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), stored);
}

#[tokio::test]
async fn messages_above_the_index_are_embedded_once() {
    let conversation = id("tail");
    let embedder = Counting::new(model());
    let store = SqliteStore::open_in_memory().expect("open").with_embedder(embedder.clone());
    let reference = ReferenceStore::new().with_embedder(Arc::new(model()));
    let mut passages_made = 0;
    for turn in 0..60u64 {
        let text = format!("turn {turn}: walrus {} sighted near frankfurt", turn % 5);
        passages_made += placed(&[&text], &model());
        store.append(&conversation, news(&[&text])).await.expect("append");
        reference.append(&conversation, news(&[&text])).await.expect("append");
        let query = RecallQuery::new(format!("pet {}", turn % 3), Seq(turn + 1), 5);
        assert_eq!(
            exact(&search(&store, &conversation, &query).await),
            exact(&search(&reference, &conversation, &query).await),
            "turn {turn}"
        );
        // Each passage once (read above the index first, written at a later catch-up), and each query.
        assert_eq!(embedder.calls() as i64, passages_made + turn as i64 + 1, "turn {turn}");
    }
}

#[tokio::test]
async fn another_model_embeds_the_history_again() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("models.db");
    let conversation = id("models");
    let texts = ["We host everything in Frankfurt.", "My walrus is called Rex.", "Deploy on friday", "ok"];
    let old = Arc::new(model());
    let new = Counting::new(
        HashedTerms::new(64).with_synonyms(&[("servers", "frankfurt"), ("schedule", "friday")]),
    );
    assert_ne!(old.name(), new.name());
    let store = SqliteStore::open(&path).expect("open").with_embedder(old.clone());
    store.append(&conversation, news(&texts)).await.expect("append");
    let query = RecallQuery::new("when is the schedule for the servers?", Seq(4), 4);
    search(&store, &conversation, &query).await;
    drop(store);
    let name = |path: &Path| -> String {
        side_door(path).query_row("SELECT embedder FROM recall_models", [], |row| row.get(0)).expect("name")
    };
    let recorded = |name: &str| format!("{name} | passages {PASSAGE_RULES}");
    assert_eq!(name(&path), recorded(old.name()));

    let reference = ReferenceStore::new().with_embedder(Arc::new(new.inner.clone()));
    reference.append(&conversation, news(&texts)).await.expect("append");
    let store = SqliteStore::open(&path).expect("reopen").with_embedder(new.clone());
    let found = search(&store, &conversation, &query).await;
    assert_eq!(exact(&found), exact(&search(&reference, &conversation, &query).await));
    assert!(found.iter().any(|p| p.seq == Seq(2)), "only the new model knows the schedule: {found:?}");
    let stored = placed(&texts, &new.inner);
    assert_eq!(new.calls() as i64, stored + 1, "every passage embedded again, and the query");
    assert_eq!(name(&path), recorded(new.name()));
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), stored);
    // A second search uses what the first one wrote.
    assert_eq!(exact(&search(&store, &conversation, &query).await), exact(&found));
    assert_eq!(new.calls() as i64, stored + 2);
}

#[tokio::test]
async fn a_store_without_a_model_leaves_the_vectors_to_the_first_one_with_a_model() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("late.db");
    let conversation = id("late");
    let texts = ["We host everything in Frankfurt.", "My walrus is called Rex.", "lunch at noon"];
    let plain = SqliteStore::open(&path).expect("open");
    plain.append(&conversation, news(&texts)).await.expect("append");
    assert_eq!(search(&plain, &conversation, &RecallQuery::new("walrus", Seq(3), 3)).await.len(), 1);
    assert_eq!(count(&path, "SELECT indexed FROM recall_keys"), 3);
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), 0, "no model, no vectors");
    assert_eq!(count(&path, "SELECT count(*) FROM recall_models"), 0);

    let embedder: Arc<dyn Embedder> = Arc::new(model());
    let meaning = SqliteStore::open(&path).expect("open").with_embedder(Arc::clone(&embedder));
    let reference = ReferenceStore::new().with_embedder(embedder);
    reference.append(&conversation, news(&texts)).await.expect("append");
    let query = RecallQuery::new("where are the servers and my pet?", Seq(3), 3);
    let found = search(&meaning, &conversation, &query).await;
    assert_eq!(exact(&found), exact(&search(&reference, &conversation, &query).await));
    assert_eq!(found.len(), 2);
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), placed(&texts, &model()));
    // The plain handle still answers by keywords, and reads no vectors.
    let found = search(&plain, &conversation, &query).await;
    assert!(found.is_empty(), "keywords alone found {found:?}");
}

#[tokio::test]
async fn clear_and_prune_delete_the_vectors_of_deleted_messages() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("deleted.db");
    let conversation = id("deleted");
    let store = SqliteStore::open(&path).expect("open").with_embedder(Arc::new(model()));
    let texts: Vec<String> = (0..6).map(|i| format!("walrus number {i}")).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    store.append(&conversation, news(&texts)).await.expect("append");
    let query = RecallQuery::new("my pet?", Seq(6), 10);
    assert_eq!(search(&store, &conversation, &query).await.len(), 6);
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), 6);
    store.save_state(&conversation, 0, CompactionState::new(Seq(4), vec![Seq(1)], None)).await.expect("save");
    assert_eq!(store.prune(&conversation).await.expect("prune"), 3);
    let left: String = side_door(&path)
        .query_row("SELECT group_concat(seq) FROM (SELECT seq FROM recall_vectors ORDER BY seq)", [], |row| {
            row.get(0)
        })
        .expect("the vectors left");
    assert_eq!(left, "1,4,5");
    let seqs: Vec<u64> = search(&store, &conversation, &query).await.iter().map(|p| p.seq.0).collect();
    assert_eq!(seqs, [5, 4, 1]);
    store.clear(&conversation).await.expect("clear");
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), 0);
    assert!(search(&store, &conversation, &RecallQuery::new("my pet?", Seq(99), 10)).await.is_empty());
}

#[tokio::test]
async fn a_file_of_schema_6_gains_the_vector_tables() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("schema-6.db");
    let conversation = id("old");
    let texts = ["We host everything in Frankfurt.", "My walrus is called Rex.", "lunch at noon"];
    // A file of version 6 is what this build writes without the step of version 7: the steps before it are never edited.
    let store = SqliteStore::open(&path).expect("open");
    store.append(&conversation, news(&texts)).await.expect("append");
    assert_eq!(search(&store, &conversation, &RecallQuery::new("lunch", Seq(3), 3)).await.len(), 1);
    drop(store);
    side_door(&path)
        .execute_batch("DROP TABLE recall_vectors; DROP TABLE recall_models; DROP TABLE conversation_users; DROP TABLE epochs; PRAGMA user_version = 6;")
        .expect("take the file back to version 6");

    let embedder: Arc<dyn Embedder> = Arc::new(model());
    let store = SqliteStore::open(&path).expect("the old file opens").with_embedder(Arc::clone(&embedder));
    let reference = ReferenceStore::new().with_embedder(embedder);
    reference.append(&conversation, news(&texts)).await.expect("append");
    let query = RecallQuery::new("where do the servers live?", Seq(3), 3);
    let found = search(&store, &conversation, &query).await;
    assert_eq!(found.first().map(|p| p.seq), Some(Seq(0)));
    assert_eq!(exact(&found), exact(&search(&reference, &conversation, &query).await));
    drop(store);
    assert_eq!(count(&path, "PRAGMA user_version"), 9);
    assert_eq!(count(&path, "SELECT count(*) FROM recall_vectors"), placed(&texts, &model()));
}

#[tokio::test]
async fn a_damaged_vector_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("damaged.db");
    let conversation = id("damaged");
    let store = SqliteStore::open(&path).expect("open").with_embedder(Arc::new(model()));
    store.append(&conversation, news(&["walrus one", "walrus two"])).await.expect("append");
    let query = RecallQuery::new("my pet", Seq(2), 3);
    assert_eq!(search(&store, &conversation, &query).await.len(), 2);
    // Another program's write also tells the store to read the vectors again.
    side_door(&path).execute("UPDATE recall_vectors SET vector = x'' WHERE seq = 1", []).expect("damage");
    let failed = store.search_passages(&conversation, &query).await;
    assert!(matches!(failed, Err(tidemark_core::StoreError::Backend { .. })), "{failed:?}");
}

#[tokio::test]
async fn huge_and_empty_passages_and_odd_queries_never_panic() {
    let conversation = id("odd");
    let embedder: Arc<dyn Embedder> = Arc::new(model());
    let store = SqliteStore::open_in_memory().expect("open").with_embedder(Arc::clone(&embedder));
    let reference = ReferenceStore::new().with_embedder(embedder);
    let huge = "frankfurt rack walrus ".repeat(40_000);
    let odd = [
        Message::user(""),
        Message::user(huge),
        Message::user("?!"),
        Message::user("\u{0}\u{202e}walrus\u{0}"),
        Message::tool_result("call_1", "x".repeat(100_000)),
        Message::user("ok"),
    ];
    let batch: Vec<NewMessage> = odd.into_iter().map(|message| NewMessage::new(message, 5)).collect();
    store.append(&conversation, batch.clone()).await.expect("append");
    reference.append(&conversation, batch).await.expect("append");
    let megabyte = "servers ".repeat(150_000);
    for text in ["", "?!", "the a of", &megabyte, "\u{0}\u{202e}servers", "x", "pet pet pet", "ok 🦀"] {
        for (below, limit) in [(0, 5), (3, 5), (6, 0), (6, 1), (6, 100), (u64::MAX, 7)] {
            let query = RecallQuery::new(text, Seq(below), limit);
            let ours = search(&store, &conversation, &query).await;
            assert_eq!(
                exact(&ours),
                exact(&search(&reference, &conversation, &query).await),
                "{below} {limit}"
            );
            assert!(ours.iter().all(|p| p.score.is_finite()));
        }
    }
}

/// The handles a random step acts through.
#[derive(Clone, Copy, Debug)]
enum Handle {
    /// The handle with the current model, reopened now and then.
    Main,
    /// A handle with the current model opened apart, with caches of its own.
    Other,
    /// A handle without a model.
    Plain,
    /// A handle whose model is never the current one: each of its searches finds the other model's vectors.
    Rival,
}

#[derive(Clone, Debug)]
enum Op {
    Append(usize, Vec<Message>),
    Search {
        by: Handle,
        conversation: usize,
        text: String,
        back: Option<u64>,
        limit: usize,
    },
    /// Move the watermark up by `advance`/255 of the way to the end, keep the numbers whose bit is set in `keep`, and prune.
    Prune {
        conversation: usize,
        advance: u8,
        keep: u64,
    },
    Clear(usize),
    /// Close the main handle and open the file again.
    Reopen,
    /// Reopen the main and other handles with the other model.
    Switch,
}

const WORDS: &[&str] = &[
    "file", "cargo", "build", "error", "ok", "rust", "agent", "memory", "token", "hello", "42", "fn", "main",
    "todo", "x", "please", "read", "summary", "done", "café",
];

fn arb_query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(WORDS), 1..4).prop_map(|words| words.join(" ")),
        1 => arb_text(),
    ]
}

fn arb_handle() -> impl Strategy<Value = Handle> {
    prop_oneof![3 => Just(Handle::Main), 1 => Just(Handle::Other), 1 => Just(Handle::Plain), 1 => Just(Handle::Rival)]
}

/// A few messages of any kind.
fn arb_append() -> impl Strategy<Value = Op> {
    (0..2usize, prop::collection::vec(arb_message(), 0..9)).prop_map(|(c, messages)| Op::Append(c, messages))
}

/// Many short messages of the searched words, so that more passages are near a query than a search takes.
fn arb_bulk() -> impl Strategy<Value = Op> {
    let text = prop::collection::vec(prop::sample::select(WORDS), 1..5).prop_map(|words| words.join(" "));
    (0..2usize, prop::collection::vec(text, 10..60))
        .prop_map(|(c, texts)| Op::Append(c, texts.into_iter().map(Message::user).collect()))
}

fn arb_search() -> impl Strategy<Value = Op> {
    (arb_handle(), 0..2usize, arb_query(), prop::option::weighted(0.8, 0..24u64), 0..10usize)
        .prop_map(|(by, conversation, text, back, limit)| Op::Search { by, conversation, text, back, limit })
}

fn arb_prune() -> impl Strategy<Value = Op> {
    (0..2usize, any::<u8>(), any::<u64>()).prop_map(|(conversation, advance, keep)| Op::Prune {
        conversation,
        advance,
        keep,
    })
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => arb_append(),
        2 => arb_bulk(),
        8 => arb_search(),
        1 => arb_prune(),
        1 => (0..2usize).prop_map(Op::Clear),
        1 => Just(Op::Reopen),
        1 => Just(Op::Switch),
    ]
}

/// Every handle of one run, and the reference with each model.
struct World {
    path: PathBuf,
    models: [Arc<dyn Embedder>; 2],
    rival: Arc<dyn Embedder>,
    current: usize,
    main: SqliteStore,
    other: SqliteStore,
    plain: SqliteStore,
    rival_store: SqliteStore,
    /// The reference's messages, searched by keywords only; the others share them.
    base: ReferenceStore,
}

impl World {
    fn new(path: PathBuf) -> Self {
        let models: [Arc<dyn Embedder>; 2] = [
            Arc::new(HashedTerms::new(6).with_synonyms(&[("cargo", "rust"), ("agent", "memory")])),
            Arc::new(HashedTerms::new(6).with_synonyms(&[("file", "summary"), ("x", "42")])),
        ];
        let rival: Arc<dyn Embedder> = Arc::new(HashedTerms::new(6));
        let open = |embedder: Option<&Arc<dyn Embedder>>| {
            let store = SqliteStore::open(&path).expect("open");
            match embedder {
                Some(embedder) => store.with_embedder(Arc::clone(embedder)),
                None => store,
            }
        };
        let (main, other, plain, rival_store) =
            (open(Some(&models[0])), open(Some(&models[0])), open(None), open(Some(&rival)));
        Self { path, models, rival, current: 0, main, other, plain, rival_store, base: ReferenceStore::new() }
    }

    fn reopen_main(&mut self) {
        self.main = SqliteStore::open(&self.path)
            .expect("reopen")
            .with_embedder(Arc::clone(&self.models[self.current]));
    }

    fn handle(&self, by: Handle) -> (&SqliteStore, ReferenceStore) {
        match by {
            Handle::Main => {
                (&self.main, self.base.clone().with_embedder(Arc::clone(&self.models[self.current])))
            }
            Handle::Other => {
                (&self.other, self.base.clone().with_embedder(Arc::clone(&self.models[self.current])))
            }
            Handle::Plain => (&self.plain, self.base.clone()),
            Handle::Rival => (&self.rival_store, self.base.clone().with_embedder(Arc::clone(&self.rival))),
        }
    }

    async fn apply(&mut self, ids: &[ConversationId; 2], op: &Op) -> Result<(), TestCaseError> {
        match op {
            Op::Append(c, messages) => {
                let batch: Vec<NewMessage> = messages.iter().map(|m| NewMessage::new(m.clone(), 3)).collect();
                let ours = self.main.append(&ids[*c], batch.clone()).await.expect("append");
                prop_assert_eq!(ours, self.base.append(&ids[*c], batch).await.expect("append"));
            }
            Op::Search { by, conversation, text, back, limit } => {
                let next = self.base.stats(&ids[*conversation]).await.expect("stats").next_seq;
                let below = back.map_or(Seq(u64::MAX), |back| Seq(next.0.saturating_sub(back)));
                let query = RecallQuery::new(text.clone(), below, *limit);
                let (store, reference) = self.handle(*by);
                let ours = search(store, &ids[*conversation], &query).await;
                let theirs = search(&reference, &ids[*conversation], &query).await;
                prop_assert_eq!(exact(&ours), exact(&theirs), "{:?} below {:?}", by, below);
            }
            Op::Prune { conversation, advance, keep } => {
                let id = &ids[*conversation];
                let state = self.base.state(id).await.expect("state");
                let next = self.base.stats(id).await.expect("stats").next_seq;
                let span = next.0 - state.watermark.0;
                let watermark = Seq(state.watermark.0 + span * u64::from(*advance) / 255);
                let retained: Vec<Seq> =
                    (0..watermark.0).filter(|seq| keep >> (seq % 64) & 1 == 1).map(Seq).collect();
                let moved = CompactionState::new(watermark, retained, None);
                let ours = self.main.save_state(id, state.generation, moved.clone()).await.expect("save");
                prop_assert_eq!(ours, self.base.save_state(id, state.generation, moved).await.expect("save"));
                let ours = self.main.prune(id).await.expect("prune");
                prop_assert_eq!(ours, self.base.prune(id).await.expect("prune"));
            }
            Op::Clear(c) => {
                self.main.clear(&ids[*c]).await.expect("clear");
                self.base.clear(&ids[*c]).await.expect("clear");
            }
            Op::Reopen => self.reopen_main(),
            Op::Switch => {
                self.current = 1 - self.current;
                self.reopen_main();
                self.other = SqliteStore::open(&self.path)
                    .expect("reopen")
                    .with_embedder(Arc::clone(&self.models[self.current]));
            }
        }
        Ok(())
    }
}

/// The vectors whose message is not stored: there must be none.
const ORPHANS: &str = "SELECT count(*) FROM recall_vectors AS v JOIN recall_keys AS k ON k.key = v.key
     WHERE NOT EXISTS (SELECT 1 FROM messages AS m WHERE m.conversation = k.conversation AND m.seq = v.seq)";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Through appends, searches at random marks by handles with and without a model (and with two models), prunes, clears, restarts and a change of model, every answer is the reference's, to the bit.
    #[test]
    fn answers_match_the_reference_through_restarts_prunes_and_models(ops in prop::collection::vec(arb_op(), 16..64)) {
        let dir = tempfile::tempdir().expect("a temp dir");
        let mut world = World::new(dir.path().join("lockstep.db"));
        let ids = [id("one"), id("two")];
        futures::executor::block_on(async {
            for op in &ops {
                world.apply(&ids, op).await?;
                prop_assert_eq!(count(&world.path, ORPHANS), 0, "vectors of deleted messages after {:?}", op);
            }
            Ok::<(), TestCaseError>(())
        })?;
    }
}

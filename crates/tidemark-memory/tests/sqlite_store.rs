//! The SQLite store: conformance on a file and in memory, persistence across reopening, schema versions, atomicity, corrupt rows and several handles on one file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::Connection;
use tidemark_core::store::StoredSummary;
use tidemark_core::{
    CompactionState, ConversationId, ConversationStore, Message, NewMessage, Seq, SeqRange, StoreError,
};
use tidemark_memory::store::SqliteStore;
use tidemark_testkit::conformance::store;
use tokio::sync::Barrier;

fn id(text: &str) -> ConversationId {
    ConversationId::new(text).expect("a valid test id")
}

fn news(texts: &[&str]) -> Vec<NewMessage> {
    texts.iter().zip(1..).map(|(text, tokens)| NewMessage::new(Message::user(*text), tokens)).collect()
}

fn range(start: u64, end: u64) -> SeqRange {
    SeqRange::new(Seq(start), Seq(end))
}

fn all() -> SeqRange {
    SeqRange::from(Seq::ZERO)
}

fn seqs(stored: &[tidemark_core::StoredMessage]) -> Vec<u64> {
    stored.iter().map(|message| message.seq.0).collect()
}

/// A store in a fresh file inside `dir`.
fn open_in(dir: &tempfile::TempDir, name: &str) -> (SqliteStore, PathBuf) {
    let path = dir.path().join(name);
    (SqliteStore::open(&path).expect("the store opens"), path)
}

/// A second connection to the store's file, standing for another program that edits it.
fn side_door(path: &Path) -> Connection {
    Connection::open(path).expect("the file opens with plain rusqlite")
}

#[tokio::test]
async fn conforms_on_a_file() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut made = 0;
    let report = store::run_with(
        || {
            made += 1;
            let path = dir.path().join(format!("conformance-{made}.db"));
            async move { SqliteStore::open(path).expect("the store opens") }
        },
        200,
    )
    .await
    .expect("conforms");
    assert_eq!(report.cases, 200);
}

#[tokio::test]
async fn conforms_in_memory() {
    let report = store::run_with(|| async { SqliteStore::open_in_memory().expect("the store opens") }, 200)
        .await
        .expect("conforms");
    assert_eq!(report.cases, 200);
}

#[tokio::test]
async fn reopening_restores_messages_state_and_numbering() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (first, path) = open_in(&dir, "reopen.db");
    let conversation = id("reopen");
    let messages = vec![
        NewMessage::new(Message::system("règles ✓").pinned(), 7),
        NewMessage::new(Message::user("  spaces kept  \n"), 3),
        NewMessage::new(Message::tool_result("call_1", "{\"ok\":true}"), 5),
        NewMessage::new(Message::assistant("done"), 2),
    ];
    first.append(&conversation, messages.clone()).await.expect("append");
    let artifact = serde_json::json!({"lines": ["naïve café", "second"], "rolls": 3, "nested": {"z": 1, "a": [true, null]}});
    let summary = StoredSummary::new(artifact, Message::system("Summary: café"), 11, "test-compactor");
    let saved = first
        .save_state(&conversation, 0, CompactionState::new(Seq(3), vec![Seq(0)], Some(summary)))
        .await
        .expect("save");
    let stats = first.stats(&conversation).await.expect("stats");
    drop(first);

    let second = SqliteStore::open(&path).expect("the store opens again");
    let loaded = second.load_range(&conversation, all()).await.expect("load");
    let restored: Vec<(u64, u32, &Message)> =
        loaded.iter().map(|stored| (stored.seq.0, stored.tokens, &*stored.message)).collect();
    let expected: Vec<(u64, u32, &Message)> =
        messages.iter().zip(0..).map(|(new, seq)| (seq, new.tokens, &new.message)).collect();
    assert_eq!(restored, expected);
    let state = second.state(&conversation).await.expect("state");
    assert_eq!(state, saved);
    let artifact_json = |state: &CompactionState| {
        serde_json::to_string(&state.summary.as_ref().expect("a summary").artifact).expect("json")
    };
    assert_eq!(artifact_json(&state), artifact_json(&saved));
    assert_eq!(second.stats(&conversation).await.expect("stats"), stats);
    assert_eq!(second.append(&conversation, news(&["next"])).await.expect("append"), range(4, 5));
}

#[tokio::test]
async fn opening_sets_wal_and_the_schema_version_once() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (store, path) = open_in(&dir, "pragmas.db");
    store.append(&id("kept"), news(&["a"])).await.expect("append");
    drop(store);
    SqliteStore::open(&path).expect("the store opens again");
    let side = side_door(&path);
    let pragma = |name: &str| -> String {
        side.pragma_query_value(None, name, |row| row.get::<_, rusqlite::types::Value>(0))
            .map(|value| format!("{value:?}"))
            .expect("pragma")
    };
    assert_eq!(pragma("journal_mode"), r#"Text("wal")"#);
    assert_eq!(pragma("user_version"), "Integer(9)");
    let messages: i64 = side.query_row("SELECT count(*) FROM messages", [], |row| row.get(0)).expect("count");
    assert_eq!(messages, 1, "opening again kept the data");
}

#[tokio::test]
async fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("a temp dir");
    // One file written by this store (in WAL mode), one by plain SQLite (rollback journal).
    let (store, by_store) = open_in(&dir, "by-store.db");
    store.append(&id("old"), news(&["a", "b"])).await.expect("append");
    drop(store);
    let by_sqlite = dir.path().join("by-sqlite.db");
    side_door(&by_sqlite).execute_batch("CREATE TABLE other (x INTEGER)").expect("create");
    for path in [by_store, by_sqlite] {
        side_door(&path).pragma_update(None, "user_version", 999).expect("set the version");
        let before = std::fs::read(&path).expect("read the file");
        let result = SqliteStore::open(&path);
        assert!(
            matches!(result, Err(StoreError::SchemaTooNew { found: 999, supported: 9 })),
            "{}: {result:?}",
            path.display()
        );
        assert_eq!(std::fs::read(&path).expect("read the file"), before, "{} changed", path.display());
    }
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_a_backend_error() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "this is not an sqlite file, just some text that is long enough".repeat(20))
        .expect("write");
    let result = SqliteStore::open(&path);
    assert!(matches!(result, Err(StoreError::Backend { operation: "open", .. })), "{result:?}");
}

#[tokio::test]
async fn a_failed_append_stores_nothing_and_uses_no_numbers() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (store, path) = open_in(&dir, "atomic.db");
    let (known, fresh) = (id("known"), id("fresh"));
    store.append(&known, news(&["a", "b"])).await.expect("append");
    let side = side_door(&path);
    side.execute_batch(
        "CREATE TRIGGER poison BEFORE INSERT ON messages WHEN NEW.body LIKE '%poison%'
         BEGIN SELECT RAISE(ABORT, 'poison'); END",
    )
    .expect("create the trigger");
    for conversation in [&known, &fresh] {
        let before = store.stats(conversation).await.expect("stats");
        let result = store.append(conversation, news(&["ok", "ok", "poison"])).await;
        assert!(matches!(result, Err(StoreError::Backend { operation: "append", .. })), "{result:?}");
        assert_eq!(store.stats(conversation).await.expect("stats"), before, "{conversation}");
    }
    assert_eq!(seqs(&store.load_range(&known, all()).await.expect("load")), [0, 1]);
    assert_eq!(
        store.conversations().await.expect("list"),
        std::slice::from_ref(&known),
        "the failed batch made a row"
    );
    side.execute_batch("DROP TRIGGER poison").expect("drop the trigger");
    assert_eq!(store.append(&known, news(&["c", "d", "e"])).await.expect("append"), range(2, 5));
    assert_eq!(store.append(&fresh, news(&["x"])).await.expect("append"), range(0, 1));
}

#[tokio::test]
async fn a_corrupt_row_is_reported_with_its_number() {
    let cases: [(&str, &str); 3] = [
        ("malformed json", "'{not json'"),
        ("json of the wrong shape", "'[1, 2]'"),
        ("text that is not utf-8", "CAST(x'7b22726f6c65223a22ff227d' AS TEXT)"),
    ];
    let dir = tempfile::tempdir().expect("a temp dir");
    for (index, (what, body)) in cases.into_iter().enumerate() {
        let (writer, path) = open_in(&dir, &format!("corrupt-{index}.db"));
        let conversation = id("corrupt");
        writer.append(&conversation, news(&["a", "b", "c"])).await.expect("append");
        drop(writer);
        side_door(&path)
            .execute_batch(&format!("UPDATE messages SET body = {body} WHERE seq = 1"))
            .expect("corrupt the row");
        // A later process finds the damage; the writer's cache of decoded
        // messages trusts rows that no one but a store writes.
        let store = SqliteStore::open(&path).expect("reopen");
        let by_range = store.load_range(&conversation, all()).await;
        assert!(matches!(by_range, Err(StoreError::Corrupt { seq: Seq(1), .. })), "{what}: {by_range:?}");
        let by_seqs = store.load_seqs(&conversation, &[Seq(0), Seq(1)]).await;
        assert!(matches!(by_seqs, Err(StoreError::Corrupt { seq: Seq(1), .. })), "{what}: {by_seqs:?}");
        let around = store.load_seqs(&conversation, &[Seq(0), Seq(2)]).await.expect("the other rows load");
        assert_eq!(seqs(&around), [0, 2], "{what}");
    }
}

#[tokio::test]
async fn numbers_beyond_sqlite_integers_find_nothing() {
    let store = SqliteStore::open_in_memory().expect("the store opens");
    let conversation = id("huge");
    store.append(&conversation, news(&["a", "b", "c"])).await.expect("append");
    let ranges = [
        (range(1, u64::MAX), vec![1, 2]),
        (range(u64::MAX - 1, u64::MAX), vec![]),
        (range(i64::MAX as u64, u64::MAX), vec![]),
    ];
    for (wanted, expected) in ranges {
        let loaded = store.load_range(&conversation, wanted).await.expect("load");
        assert_eq!(seqs(&loaded), expected, "{wanted}");
    }
    let picked = [Seq(0), Seq(2), Seq(i64::MAX as u64), Seq(u64::MAX)];
    assert_eq!(seqs(&store.load_seqs(&conversation, &picked).await.expect("load")), [0, 2]);
}

#[tokio::test]
async fn non_ascii_ids_are_listed_in_rust_order() {
    // U+FFFF and U+10000 sort one way in UTF-8 and the other in UTF-16.
    let texts = ["zebra", "Zebra", "é", "e\u{301}", "\u{FFFF}", "\u{10000}", "ｚ", "日本", "a b", "ab", "a"];
    let store = SqliteStore::open_in_memory().expect("the store opens");
    let mut expected: Vec<ConversationId> = texts.iter().map(|text| id(text)).collect();
    for conversation in &expected {
        store.append(conversation, news(&["x"])).await.expect("append");
    }
    expected.sort();
    assert_eq!(store.conversations().await.expect("list"), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_handles_on_one_file_share_numbering_and_state() {
    const TASKS: usize = 8;
    const BATCHES: usize = 10;
    const BATCH: u64 = 3;
    let dir = tempfile::tempdir().expect("a temp dir");
    let (one, path) = open_in(&dir, "shared.db");
    let two = SqliteStore::open(&path).expect("a second handle opens");
    let handles = [one, two];
    let conversation = id("shared");

    let start = Arc::new(Barrier::new(TASKS));
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let (store, conversation, start) =
                (handles[task % 2].clone(), conversation.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                let mut ranges = Vec::new();
                for batch in 0..BATCHES {
                    let tag = format!("{task}.{batch}");
                    let messages =
                        (0..BATCH).map(|_| NewMessage::new(Message::user(tag.clone()), 1)).collect();
                    ranges.push(store.append(&conversation, messages).await.expect("append"));
                }
                ranges
            })
        })
        .collect();
    let mut ranges = Vec::new();
    for task in tasks {
        ranges.extend(task.await.expect("the task finishes"));
    }
    ranges.sort_by_key(|range| range.start);
    let expected: Vec<SeqRange> =
        (0..ranges.len() as u64).map(|i| range(i * BATCH, i * BATCH + BATCH)).collect();
    assert_eq!(ranges, expected, "numbers are distinct and without gaps");
    let loaded = handles[1].load_range(&conversation, all()).await.expect("load");
    for batch in loaded.chunks(BATCH as usize) {
        let tags: Vec<_> = batch.iter().map(|stored| stored.message.text().into_owned()).collect();
        assert!(tags.iter().all(|tag| *tag == tags[0]), "one append was interleaved: {tags:?}");
    }

    // Both handles try to write the state from the same generation: one wins each round.
    for generation in 0..10u64 {
        let start = Arc::new(Barrier::new(2));
        let racers: Vec<_> = handles
            .iter()
            .map(|store| {
                let (store, conversation, start) = (store.clone(), conversation.clone(), start.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    let state = CompactionState::new(Seq(generation), Vec::new(), None);
                    store.save_state(&conversation, generation, state).await
                })
            })
            .collect();
        let mut wins = 0;
        for racer in racers {
            match racer.await.expect("the task finishes") {
                Ok(saved) => {
                    assert_eq!(saved.generation, generation + 1);
                    wins += 1;
                }
                Err(StoreError::StateConflict { expected, found }) => {
                    assert_eq!((expected, found), (generation, generation + 1));
                }
                Err(other) => panic!("round {generation}: unexpected error {other:?}"),
            }
        }
        assert_eq!(wins, 1, "round {generation}");
    }
}

/// A file of schema 8 (before compaction history) with a compacted and a cleared conversation.
#[tokio::test]
async fn a_file_of_schema_8_gains_its_history_from_the_states_it_holds() {
    use tidemark_core::history::{EpochKind, HistoryError, undo_target};
    let dir = tempfile::tempdir().expect("a temp dir");
    let (store, path) = open_in(&dir, "schema-8.db");
    let (kept, cleared) = (id("kept"), id("cleared"));
    store.append(&kept, news(&["a", "b", "c", "d", "e"])).await.expect("append");
    let summary = StoredSummary::new(serde_json::json!("s"), Message::system("Summary: a, b"), 4, "concat");
    let first = CompactionState::new(Seq(2), vec![Seq(0)], Some(summary));
    store.save_state(&kept, 0, first.clone()).await.expect("save");
    let second = CompactionState::new(Seq(3), vec![Seq(0)], None);
    let second = store.save_state(&kept, 1, second).await.expect("save");
    store.append(&cleared, news(&["x", "y"])).await.expect("append");
    store.clear(&cleared).await.expect("clear");
    drop(store);
    // Version 8 is what this build writes without the step of version 9.
    side_door(&path).execute_batch("DROP TABLE epochs; PRAGMA user_version = 8;").expect("back to version 8");

    let store = SqliteStore::open(&path).expect("the old file opens");
    let epochs = store.epochs(&kept).await.expect("epochs");
    assert_eq!(epochs.len(), 1, "the history starts at the state the file held: {epochs:?}");
    assert_eq!((epochs[0].kind, epochs[0].undo_to, epochs[0].next_seq), (EpochKind::Migrated, None, Seq(5)));
    assert_eq!(epochs[0].state, second, "the migrated epoch holds the state as it was");
    let cleared_epochs = store.epochs(&cleared).await.expect("epochs");
    assert_eq!(cleared_epochs.len(), 1);
    assert_eq!((cleared_epochs[0].kind, cleared_epochs[0].state.watermark), (EpochKind::Migrated, Seq(2)));
    // What came before the migration is unknown: its undo is the initial state, every message serving again.
    assert_eq!(undo_target(&epochs, 2), Ok(None));
    let undone = store.restore_state(&kept, 2, None).await.expect("undo to the initial state");
    assert_eq!((undone.watermark, undone.generation, undone.summary), (Seq::ZERO, 3, None));
    let redone = store.restore_state(&kept, 3, Some(2)).await.expect("redo the migrated state");
    assert_eq!(redone.watermark, Seq(3));
    // The cleared conversation's messages are gone: its initial state cannot serve again.
    let refused = store.restore_state(&cleared, 1, None).await;
    assert!(matches!(refused, Err(StoreError::History(HistoryError::Pruned { .. }))), "{refused:?}");
    drop(store);
    let version: i64 =
        side_door(&path).query_row("PRAGMA user_version", [], |row| row.get(0)).expect("the version");
    assert_eq!(version, 9);
}

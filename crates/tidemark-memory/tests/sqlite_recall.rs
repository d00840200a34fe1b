//! Recall in the SQLite store across restarts and schema versions: the index lives in the file and old files gain it.

use std::path::Path;

use rusqlite::Connection;
use tidemark_core::recall::RecallQuery;
use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq};
use tidemark_memory::store::SqliteStore;

fn id(text: &str) -> ConversationId {
    ConversationId::new(text).expect("a valid id")
}

/// A second connection to the store's file, standing for another program (or an older build) that edits it.
fn side_door(path: &Path) -> Connection {
    Connection::open(path).expect("the file opens with plain rusqlite")
}

fn history() -> Vec<NewMessage> {
    [
        Message::user("Deploy fix/retry-backoff-7781 to europe-west4."),
        Message::assistant("Deployed; INC-20931 is closed."),
        Message::tool_result("call_1", "order 99-1842-X shipped"),
    ]
    .into_iter()
    .map(|message| NewMessage::new(message, 5))
    .collect()
}

async fn found(store: &SqliteStore, conversation: &ConversationId, query: &str) -> Vec<u64> {
    let hits = store
        .search_passages(conversation, &RecallQuery::new(query, Seq(u64::MAX), 5))
        .await
        .expect("search");
    hits.iter().map(|hit| hit.seq.0).collect()
}

fn count(connection: &Connection, sql: &str) -> i64 {
    connection.query_row(sql, [], |row| row.get(0)).expect("count")
}

#[tokio::test]
async fn passages_survive_a_restart() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("recall.db");
    let conversation = id("restart");
    let store = SqliteStore::open(&path).expect("open");
    store.append(&conversation, history()).await.expect("append");
    drop(store);

    let store = SqliteStore::open(&path).expect("reopen");
    assert_eq!(found(&store, &conversation, "INC-20931").await, [1]);
    assert_eq!(found(&store, &conversation, "retry-backoff").await, [0]);
    assert_eq!(found(&store, &conversation, "1842").await, [2]);
}

#[tokio::test]
async fn a_file_of_schema_4_gains_the_index_over_its_old_messages() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("schema-4.db");
    let conversation = id("old");
    // A file of version 4 is what this build writes without the steps of
    // versions 5 to 7: the steps before them are never edited. The messages are
    // appended first and the index dropped, as a build of version 4 would
    // have left them.
    let store = SqliteStore::open(&path).expect("open");
    store.append(&conversation, history()).await.expect("append");
    drop(store);
    let side = side_door(&path);
    side.execute_batch(
        "DROP TABLE calibrations;
         DROP TABLE recall;
         DROP TABLE recall_keys;
         DROP TABLE recall_vectors;
         DROP TABLE recall_models;
         DROP TABLE conversation_users;
         DROP TABLE epochs;
         PRAGMA user_version = 4;",
    )
    .expect("take the file back to version 4");
    // A row that does not decode stays out of the index without failing the search that indexes it.
    side.execute("UPDATE conversations SET next_seq = 4, stored = 4 WHERE id = 'old'", []).expect("update");
    side.execute("INSERT INTO messages VALUES ('old', 3, 1, 'not json')", []).expect("insert");
    drop(side);

    let store = SqliteStore::open(&path).expect("the old file opens");
    assert_eq!(found(&store, &conversation, "europe-west4").await, [0]);
    assert_eq!(found(&store, &conversation, "inc").await, [1]);
    assert_eq!(found(&store, &conversation, "99-1842-x").await, [2]);
    store
        .append(&conversation, vec![NewMessage::new(Message::user("europe-west4 again"), 3)])
        .await
        .expect("append");
    assert_eq!(found(&store, &conversation, "europe-west4").await, [4, 0]);
    drop(store);

    let side = side_door(&path);
    assert_eq!(count(&side, "PRAGMA user_version"), 9);
    // The first search indexed the old messages; message 4 was found without being indexed yet
    // (a few new messages wait for the next batch).
    assert_eq!(count(&side, "SELECT indexed FROM recall_keys WHERE conversation = 'old'"), 4);
    side.execute("INSERT INTO recall (recall, rank) VALUES ('integrity-check', 1)", [])
        .expect("the index is sound");
}

#[tokio::test]
async fn clear_and_prune_keep_the_index_in_step() {
    let store = SqliteStore::open_in_memory().expect("open");
    let conversation = id("step");
    store.append(&conversation, history()).await.expect("append");
    store.clear(&conversation).await.expect("clear");
    assert!(found(&store, &conversation, "europe-west4").await.is_empty());
    store.append(&conversation, history()).await.expect("append");
    assert_eq!(found(&store, &conversation, "europe-west4").await, [3]);
}

#[tokio::test]
async fn messages_are_indexed_by_the_first_search_that_needs_them() {
    // The first search of a conversation indexes everything below its mark; later ones index in
    // batches (test `new_messages_are_found_before_they_are_indexed_and_indexed_in_batches`).
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("lazy.db");
    let conversation = id("lazy");
    let store = SqliteStore::open(&path).expect("open");
    store.append(&conversation, history()).await.expect("append");
    let indexed = |side: &Connection| {
        side.query_row("SELECT indexed FROM recall_keys WHERE conversation = 'lazy'", [], |row| {
            row.get::<_, i64>(0)
        })
        .ok()
    };
    // Neither an append nor a state save writes to the index.
    let state = store.state(&conversation).await.expect("state");
    let mut moved = state.clone();
    moved.watermark = Seq(2);
    store.save_state(&conversation, state.generation, moved).await.expect("save");
    assert_eq!(indexed(&side_door(&path)), None);

    // A search indexes what is below its mark, and finds it.
    assert_eq!(found_below(&store, &conversation, "INC-20931 retry-backoff", 2).await, [1, 0]);
    assert_eq!(indexed(&side_door(&path)), Some(2));
    // Nothing at or above the mark is returned, and a search below the indexed part writes nothing.
    assert!(found_below(&store, &conversation, "1842", 2).await.is_empty());
    assert!(found_below(&store, &conversation, "1842", 1).await.is_empty());
    assert_eq!(indexed(&side_door(&path)), Some(2));

    // A search below a slightly higher mark reads the few messages above the index as they are,
    // and leaves them for a later batch.
    assert_eq!(found_below(&store, &conversation, "1842", 3).await, [2]);
    assert_eq!(indexed(&side_door(&path)), Some(2));

    // Pruned messages leave the index with their rows.
    assert_eq!(store.prune(&conversation).await.expect("prune"), 2);
    assert!(found(&store, &conversation, "INC-20931").await.is_empty());
    assert_eq!(found(&store, &conversation, "1842").await, [2]);
}

async fn found_below(
    store: &SqliteStore,
    conversation: &ConversationId,
    query: &str,
    below: u64,
) -> Vec<u64> {
    let hits =
        store.search_passages(conversation, &RecallQuery::new(query, Seq(below), 5)).await.expect("search");
    hits.iter().map(|hit| hit.seq.0).collect()
}

#[tokio::test]
async fn two_handles_on_one_file_see_each_others_writes() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("shared.db");
    let conversation = id("shared");
    let (one, other) =
        (SqliteStore::open(&path).expect("open"), SqliteStore::open(&path).expect("open again"));
    let batch = |from: u64| -> Vec<NewMessage> {
        (from..from + 5).map(|n| NewMessage::new(Message::user(format!("note {n}: alpha beta")), 4)).collect()
    };
    one.append(&conversation, batch(0)).await.expect("append");
    // The first handle looks `alpha` up and keeps the answer.
    assert_eq!(found(&one, &conversation, "alpha").await, [4, 3, 2, 1, 0]);
    // The second indexes newer holders of `alpha`; the first must not answer from what it kept.
    other.append(&conversation, batch(5)).await.expect("append");
    assert_eq!(found(&other, &conversation, "alpha").await, [9, 8, 7, 6, 5]);
    assert_eq!(found(&one, &conversation, "alpha").await, [9, 8, 7, 6, 5]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A store that has kept answers from earlier searches (and added the messages it indexed since) answers every search as a store opened afresh on the same file.
    #[test]
    fn kept_answers_agree_with_a_fresh_handle(
        steps in proptest::collection::vec(
            (proptest::collection::vec(proptest::collection::vec(0..6usize, 1..4), 0..16), 0..4usize, 0..40u64, proptest::collection::vec(0..6usize, 1..3), 1..40usize),
            1..24,
        )
    ) {
        const WORDS: [&str; 6] = ["alpha", "beta", "gamma", "delta", "omega", "sigma"];
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("kept.db");
        let conversation = id("kept");
        let warm = SqliteStore::open(&path).expect("open");
        futures::executor::block_on(async {
            let mut next = 0u64;
            for (batch, prune, back, query, limit) in steps {
                let messages: Vec<NewMessage> = batch
                    .iter()
                    .map(|words| {
                        let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
                        NewMessage::new(Message::user(text.join(" ")), 3)
                    })
                    .collect();
                next += messages.len() as u64;
                warm.append(&conversation, messages).await.expect("append");
                if prune == 0 && next > 4 {
                    let state = warm.state(&conversation).await.expect("state");
                    let mut moved = state.clone();
                    moved.watermark = Seq(next / 3);
                    moved.retained = vec![Seq(next / 6)];
                    warm.save_state(&conversation, state.generation, moved).await.expect("save");
                    warm.prune(&conversation).await.expect("prune");
                }
                // Searches below the newest message and below older marks, so that kept answers are filtered too.
                let below = Seq(next.saturating_sub(back));
                let text: Vec<&str> = query.iter().map(|&w| WORDS[w]).collect();
                let query = RecallQuery::new(text.join(" "), below, limit);
                let kept = warm.search_passages(&conversation, &query).await.expect("search");
                let cold = SqliteStore::open(&path).expect("open afresh");
                let fresh = cold.search_passages(&conversation, &query).await.expect("search");
                assert_eq!(kept, fresh, "below {below:?}");
            }
        });
    }
}

/// Messages newer than the index are found as if indexed, and indexed in batches, not at every search.
#[tokio::test]
async fn new_messages_are_found_before_they_are_indexed_and_indexed_in_batches() {
    use tidemark_memory::store::InMemoryStore;

    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("batches.db");
    let conversation = id("batches");
    let store = SqliteStore::open(&path).expect("open");
    let reference = InMemoryStore::new();
    let side = side_door(&path);
    let mut marks = Vec::new();
    for turn in 0..200u64 {
        // Every seventh turn names the ticket again, so that its holders keep changing.
        let text = if turn % 7 == 0 {
            format!("turn {turn}: INC-{turn} reopened on europe-west{}", turn % 5)
        } else {
            format!("turn {turn}: retried build {} of fix/retry-backoff", turn % 11)
        };
        let message = vec![NewMessage::new(Message::user(text), 5)];
        store.append(&conversation, message.clone()).await.expect("append");
        reference.append(&conversation, message).await.expect("append");
        for query in ["europe-west2 INC", "retried build 3", "fix/retry-backoff turn"] {
            let query = RecallQuery::new(query, Seq(turn + 1), 6);
            let ours = store.search_passages(&conversation, &query).await.expect("search");
            let theirs = reference.search_passages(&conversation, &query).await.expect("search");
            let seqs =
                |found: &[tidemark_core::recall::Passage]| found.iter().map(|p| p.seq.0).collect::<Vec<_>>();
            assert_eq!(seqs(&ours), seqs(&theirs), "turn {turn}, query {:?}", query.text);
        }
        if turn > 0 {
            marks.push(count(&side, "SELECT indexed FROM recall_keys WHERE conversation = 'batches'"));
        }
    }
    let mut distinct = marks.clone();
    distinct.dedup();
    assert!(distinct.len() > 2, "the index caught up more than once: {distinct:?}");
    assert!(distinct.len() < marks.len() / 10, "the index caught up in batches: {distinct:?}");
    assert!(marks.iter().all(|&mark| mark <= 200));
}

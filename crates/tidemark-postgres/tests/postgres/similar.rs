//! Recall by meaning on PostgreSQL, checked against the reference store with the same embedder: random histories, paraphrases, passages stored without a model or by another one, odd input, a locked row, and the schema step that adds the vectors.

use std::sync::Arc;
use std::time::Duration;

use tidemark_core::recall::{Embedder, Passage, RecallQuery};
use tidemark_core::{CompactionState, ConversationId, ConversationStore, Message, NewMessage, Seq, SeqRange};
use tidemark_postgres::PostgresStore;
use tidemark_testkit::embedders::HashedTerms;
use tidemark_testkit::reference::ReferenceStore;

use super::{count, drop_schema, fresh_schema, id, open, side_door};

/// Pairs the test model places on one axis, so that a query can find a passage it shares no term with.
const SYNONYMS: &[(&str, &str)] =
    &[("servers", "frankfurt"), ("outage", "incident"), ("deploy", "rollout"), ("invoice", "billing")];

/// The model most tests search with: enough dimensions that unrelated words rarely share an axis.
fn model() -> Arc<dyn Embedder> {
    Arc::new(HashedTerms::new(256).with_synonyms(SYNONYMS))
}

/// The model of the random test: few dimensions, so that ties and near ties are common.
fn small_model() -> Arc<dyn Embedder> {
    Arc::new(HashedTerms::new(32).with_synonyms(SYNONYMS))
}

/// A model with another name and other axes, which knows only one of the synonyms.
fn other_model() -> Arc<dyn Embedder> {
    Arc::new(HashedTerms::new(24).with_synonyms(&[("servers", "frankfurt")]))
}

/// The words random messages and queries are made of: synonyms, identifiers, common words, and text that is not ASCII.
const WORDS: &[&str] = &[
    "servers",
    "frankfurt",
    "outage",
    "incident",
    "deploy",
    "rollout",
    "invoice",
    "billing",
    "cargo",
    "build",
    "error",
    "memory",
    "token",
    "europe-west4",
    "INC-20931",
    "fix/retry-7781",
    "the",
    "we",
    "is",
    "in",
    "ok",
    "Zürich",
    "日本",
    "42",
    "done",
    "please",
];

/// A small seeded generator (SplitMix64), so that a failing case can be played again from its number.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn words(&mut self, count: usize) -> Vec<&'static str> {
        (0..count).map(|_| WORDS[self.below(WORDS.len())]).collect()
    }
}

/// A random message: mostly a few words, sometimes many lines (several passages), sometimes nothing searchable.
fn random_message(rng: &mut Rng) -> Message {
    let text = match rng.below(20) {
        0 => String::new(),
        1 => " ?! -- \n\n ;;".to_owned(),
        2 => format!("nul \u{0} inside {}", rng.words(2).join(" ")),
        3 => "x".repeat(1_000),
        4..=6 => (0..rng.below(40) + 10)
            .map(|_| {
                let count = rng.below(8) + 1;
                rng.words(count).join(" ") + "\n"
            })
            .collect(),
        _ => {
            let count = rng.below(10) + 1;
            rng.words(count).join(if rng.chance(20) { "\n" } else { " " })
        }
    };
    match rng.below(5) {
        0 => Message::assistant(text),
        1 => Message::tool_result("call_1", text),
        2 if rng.chance(30) => Message::system(text),
        _ => Message::user(text),
    }
}

/// A random query: a few words, sometimes punctuation only or empty.
fn random_query(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => String::new(),
        1 => "?!".to_owned(),
        _ => {
            let count = rng.below(4) + 1;
            rng.words(count).join(" ")
        }
    }
}

/// The PostgreSQL handles one case plays with, each beside the reference that must answer as it does.
struct Pair {
    store: PostgresStore,
    reference: ReferenceStore,
}

/// A search on both sides, which must agree to the bit.
async fn same_search(pair: &Pair, conversation: &ConversationId, query: &RecallQuery, context: &str) {
    let expected = pair.reference.search_passages(conversation, query).await.expect("the reference searches");
    let got = pair.store.search_passages(conversation, query).await.expect("the store searches");
    assert_eq!(got, expected, "{context}: {query:?}");
}

/// A random history played on three handles of one schema (no model, the model, another model) and on the reference.
///
/// Appends come from any handle, so a search meets vectors that are missing,
/// its own and foreign; each search is checked against the reference with the
/// searching handle's model (or none). Compactions with prunes and clears
/// delete messages, which must never be found again.
#[tokio::test]
async fn search_by_meaning_matches_the_reference_at_random() {
    const CASES: u64 = 40;
    const STEPS: usize = 18;
    let schema = fresh_schema();
    let plain = open(&schema).await;
    let base = ReferenceStore::new();
    let pairs = [
        Pair { store: plain.clone(), reference: base.clone() },
        Pair {
            store: plain.clone().with_embedder(small_model()),
            reference: base.clone().with_embedder(small_model()),
        },
        Pair {
            store: plain.clone().with_embedder(other_model()),
            reference: base.clone().with_embedder(other_model()),
        },
    ];
    let mut searches = 0;
    for case in 0..CASES {
        let mut rng = Rng(case);
        let conversations = [id(&format!("random/{case}/a")), id(&format!("random/{case}/b"))];
        for step in 0..STEPS {
            let conversation = &conversations[rng.below(2)];
            let pair = &pairs[rng.below(3)];
            let context = format!("case {case}, step {step}, {conversation}");
            match rng.below(12) {
                0..=4 => {
                    let batch: Vec<NewMessage> =
                        (0..rng.below(4)).map(|_| NewMessage::new(random_message(&mut rng), 3)).collect();
                    let got = pair.store.append(conversation, batch.clone()).await.expect("append");
                    assert_eq!(got, base.append(conversation, batch).await.expect("append"), "{context}");
                }
                5..=9 => {
                    let next = base.stats(conversation).await.expect("stats").next_seq.0;
                    let below = rng.below(next as usize + 3) as u64;
                    let query = RecallQuery::new(random_query(&mut rng), Seq(below), rng.below(8));
                    same_search(pair, conversation, &query, &context).await;
                    searches += 1;
                }
                10 => {
                    let current = base.state(conversation).await.expect("state");
                    let next = base.stats(conversation).await.expect("stats").next_seq.0;
                    let watermark =
                        current.watermark.0 + rng.below((next - current.watermark.0) as usize + 1) as u64;
                    let retained: Vec<Seq> = (0..watermark).filter(|_| rng.chance(25)).map(Seq).collect();
                    let state = CompactionState::new(Seq(watermark), retained, None);
                    let expected = base.save_state(conversation, current.generation, state.clone()).await;
                    let got = pair.store.save_state(conversation, current.generation, state).await;
                    assert_eq!(got.ok(), expected.ok(), "{context}: save_state");
                    let pruned = pair.store.prune(conversation).await.expect("prune");
                    assert_eq!(pruned, base.prune(conversation).await.expect("prune"), "{context}: prune");
                }
                _ => {
                    pair.store.clear(conversation).await.expect("clear");
                    base.clear(conversation).await.expect("clear");
                }
            }
        }
        // Every handle, at every mark up to the end, on the history the case left.
        for conversation in &conversations {
            let next = base.stats(conversation).await.expect("stats").next_seq.0;
            for pair in &pairs {
                let query = RecallQuery::new(rng.words(3).join(" "), Seq(next), 6);
                same_search(pair, conversation, &query, &format!("case {case}, at the end")).await;
                searches += 1;
            }
        }
    }
    assert!(searches > CASES as usize * 6, "the cases searched: {searches}");
    drop_schema(&schema).await;
}

/// What keyword search cannot find (no shared term), recall by meaning finds first.
#[tokio::test]
async fn a_paraphrase_is_found_by_meaning_only() {
    let schema = fresh_schema();
    let store = open(&schema).await.with_embedder(model());
    let reference = ReferenceStore::new().with_embedder(model());
    let conversation = id("paraphrase");
    let history = vec![
        NewMessage::new(Message::user("Can you check why cargo build fails on main?"), 9),
        NewMessage::new(Message::assistant("we host everything in Frankfurt"), 6),
        NewMessage::new(
            Message::tool_result("call_1", "error[E0308]: mismatched types\n  --> src/lib.rs:4:5"),
            12,
        ),
        NewMessage::new(Message::user("Thanks, that fixed the build."), 6),
    ];
    store.append(&conversation, history.clone()).await.expect("append");
    reference.append(&conversation, history).await.expect("append");
    let query = RecallQuery::new("where do our servers live?", Seq(4), 3);
    // A handle on the same schema without a model searches by keywords only.
    let plain = open(&schema).await.search_passages(&conversation, &query).await.expect("search");
    assert!(plain.iter().all(|found| !found.text.contains("Frankfurt")), "keywords found it: {plain:?}");
    let found = store.search_passages(&conversation, &query).await.expect("search");
    assert_eq!(found.first().map(|found| found.text.as_str()), Some("we host everything in Frankfurt"));
    assert_eq!(found, reference.search_passages(&conversation, &query).await.expect("search"));
    drop_schema(&schema).await;
}

/// Passages a store without a model wrote have no vectors; a store opened later with one embeds them at its first search and keeps them.
#[tokio::test]
async fn passages_stored_without_a_model_are_found_by_meaning_after_reopening() {
    let schema = fresh_schema();
    let conversation = id("reopened");
    let history = vec![
        NewMessage::new(Message::user("The incident started at 09:12 in europe-west4."), 9),
        NewMessage::new(Message::assistant("Billing sent the March invoice twice."), 8),
        NewMessage::new(Message::user("we host everything in Frankfurt"), 6),
    ];
    let plain = open(&schema).await;
    plain.append(&conversation, history.clone()).await.expect("append");
    drop(plain);
    let rows = count(&schema, "passages").await;
    assert_eq!(count(&schema, "passages WHERE embedding IS NULL AND embedder IS NULL").await, rows);

    let store = open(&schema).await.with_embedder(model());
    let reference = ReferenceStore::new().with_embedder(model());
    reference.append(&conversation, history).await.expect("append");
    let query = RecallQuery::new("where do our servers live? any outage?", Seq(3), 3);
    let expected = reference.search_passages(&conversation, &query).await.expect("search");
    let texts: Vec<&str> = expected.iter().map(|found| found.text.as_str()).collect();
    assert!(texts.contains(&"we host everything in Frankfurt"), "{texts:?}");
    assert_eq!(store.search_passages(&conversation, &query).await.expect("search"), expected);
    // The vectors the search made are kept, under the model's name, and the next search reads them.
    let name = model().name().to_owned();
    assert_eq!(
        count(&schema, &format!("passages WHERE embedder = '{name}' AND embedding IS NOT NULL")).await,
        rows
    );
    assert_eq!(store.search_passages(&conversation, &query).await.expect("search"), expected);
    // A search below the mark fills in only what it reads.
    let later = open(&schema).await;
    later
        .append(&conversation, vec![NewMessage::new(Message::user("rollout of 7781 is done"), 5)])
        .await
        .expect("append");
    let below = RecallQuery::new("deploy", Seq(3), 3);
    store.search_passages(&conversation, &below).await.expect("search");
    assert_eq!(count(&schema, "passages WHERE embedder IS NULL").await, 1);
    drop_schema(&schema).await;
}

/// Vectors written under another model's name are never compared with this model's: the answers are the reference's with this model.
#[tokio::test]
async fn vectors_of_another_model_are_not_used() {
    let schema = fresh_schema();
    let conversation = id("foreign");
    let history: Vec<NewMessage> = [
        "we host everything in Frankfurt",
        "the outage was caused by a bad rollout",
        "cargo build is green again",
        "the invoice for March is paid",
    ]
    .iter()
    .map(|text| NewMessage::new(Message::user(*text), 5))
    .collect();
    let first = open(&schema).await.with_embedder(other_model());
    first.append(&conversation, history.clone()).await.expect("append");
    let foreign = other_model().name().to_owned();
    assert_eq!(count(&schema, &format!("passages WHERE embedder = '{foreign}'")).await, 4);
    // Make the foreign vectors lie: every one is this model's embedding of the query, so using any would change the answer.
    let query = RecallQuery::new("billing incident", Seq(4), 4);
    let lure = model().embed(&query.text).expect("the query has terms");
    side_door()
        .await
        .execute(&format!("UPDATE \"{schema}\".passages SET embedding = $1"), &[&lure.as_bytes()])
        .await
        .expect("write the lures");

    let store = open(&schema).await.with_embedder(model());
    let reference = ReferenceStore::new().with_embedder(model());
    reference.append(&conversation, history).await.expect("append");
    let expected = reference.search_passages(&conversation, &query).await.expect("search");
    assert_eq!(store.search_passages(&conversation, &query).await.expect("search"), expected);
    let name = model().name().to_owned();
    assert_eq!(
        count(&schema, &format!("passages WHERE embedder = '{name}'")).await,
        4,
        "the vectors were made again"
    );
    // The first model, searching again, makes its own again and answers as its reference does.
    let other_reference = ReferenceStore::new().with_embedder(other_model());
    let history = store.load_range(&conversation, SeqRange::from(Seq::ZERO)).await.expect("load");
    let news = history
        .iter()
        .map(|stored| NewMessage::new(Message::clone(&stored.message), stored.tokens))
        .collect();
    other_reference.append(&conversation, news).await.expect("append");
    let expected = other_reference.search_passages(&conversation, &query).await.expect("search");
    assert_eq!(first.search_passages(&conversation, &query).await.expect("search"), expected);
    drop_schema(&schema).await;
}

/// Odd queries and odd messages: no error, no panic, and the reference's answer.
#[tokio::test]
async fn odd_queries_and_passages_neither_fail_nor_panic() {
    let schema = fresh_schema();
    let store = open(&schema).await.with_embedder(model());
    let reference = ReferenceStore::new().with_embedder(model());
    let conversation = id("odd");
    let huge_line = "frankfurt ".repeat(20_000);
    let huge_word = "y".repeat(50_000);
    let history: Vec<NewMessage> = [
        String::new(),
        "   \n\t\n".to_owned(),
        "?!?! -- ;;".to_owned(),
        "nul \u{0} and \u{FFFD} and emoji 🚀 in Zürich".to_owned(),
        huge_line,
        huge_word,
        "'); DROP TABLE passages; --".to_owned(),
        "servers servers servers".to_owned(),
    ]
    .into_iter()
    .map(|text| NewMessage::new(Message::user(text), 1))
    .collect();
    store.append(&conversation, history.clone()).await.expect("append");
    reference.append(&conversation, history).await.expect("append");
    let long_query = "where are the servers ".repeat(2_000);
    let queries = [
        "",
        "   ",
        "?!",
        "\u{0}",
        "🚀",
        "'); DROP TABLE passages; --",
        "servers",
        "yyyy",
        long_query.as_str(),
    ];
    for text in queries {
        for (below, limit) in [(0, 5), (3, 5), (8, 0), (8, 1), (u64::MAX, 5), (u64::MAX, usize::MAX)] {
            let query = RecallQuery::new(text, Seq(below), limit);
            let expected: Vec<Passage> =
                reference.search_passages(&conversation, &query).await.expect("search");
            let got = store.search_passages(&conversation, &query).await;
            assert_eq!(
                got.expect("the store searches"),
                expected,
                "{:?} below {below}, limit {limit}",
                &text[..text.len().min(40)]
            );
        }
    }
    let unknown = store.search_passages(&id("never-written"), &RecallQuery::new("servers", Seq(9), 3)).await;
    assert_eq!(unknown.expect("search"), []);
    drop_schema(&schema).await;
}

/// A search that meets a row another transaction holds does not wait for it: it answers from the vector it made, and leaves the row for a later search.
#[tokio::test]
async fn a_search_never_waits_for_a_locked_row() {
    let schema = fresh_schema();
    let conversation = id("locked");
    let history: Vec<NewMessage> =
        ["we host everything in Frankfurt", "the outage is over", "billing is fixed"]
            .iter()
            .map(|text| NewMessage::new(Message::user(*text), 4))
            .collect();
    open(&schema).await.append(&conversation, history.clone()).await.expect("append");
    let reference = ReferenceStore::new().with_embedder(model());
    reference.append(&conversation, history).await.expect("append");
    let mut locker = side_door().await;
    let holding = locker.transaction().await.expect("begin");
    holding
        .execute(&format!("SELECT 1 FROM \"{schema}\".passages WHERE seq = 0 FOR UPDATE"), &[])
        .await
        .expect("lock the first passage");

    let store = open(&schema).await.with_embedder(model());
    let query = RecallQuery::new("servers", Seq(3), 3);
    let expected = reference.search_passages(&conversation, &query).await.expect("search");
    // The timeout only turns a hang into a failure; a search that skips the lock returns at once.
    let found = tokio::time::timeout(Duration::from_secs(30), store.search_passages(&conversation, &query))
        .await
        .expect("the search did not wait for the lock");
    assert_eq!(found.expect("search"), expected);
    assert_eq!(count(&schema, "passages WHERE embedder IS NULL").await, 1, "only the locked row is left");
    holding.rollback().await.expect("release the lock");
    assert_eq!(store.search_passages(&conversation, &query).await.expect("search"), expected);
    assert_eq!(count(&schema, "passages WHERE embedder IS NULL").await, 0);
    drop_schema(&schema).await;
}

/// A schema of version 3 gains the vector columns; its passages start without vectors and are found by meaning.
#[tokio::test]
async fn a_schema_of_version_3_gains_the_vectors() {
    let schema = fresh_schema();
    let conversation = id("old");
    let history = vec![
        NewMessage::new(Message::user("we host everything in Frankfurt"), 6),
        NewMessage::new(Message::assistant("noted"), 1),
    ];
    open(&schema).await.append(&conversation, history.clone()).await.expect("append");
    // Version 3 is what this build writes without the steps of versions 4 and 5.
    let side = side_door().await;
    side.batch_execute(&format!(
        "ALTER TABLE \"{schema}\".passages DROP COLUMN embedding, DROP COLUMN embedder;
         DROP TABLE \"{schema}\".conversation_users; DROP TABLE \"{schema}\".epochs;
         UPDATE \"{schema}\".tidemark_schema SET version = 3"
    ))
    .await
    .expect("take the schema back to version 3");

    let store = open(&schema).await.with_embedder(model());
    let version: i32 = side
        .query_one(&format!("SELECT version FROM \"{schema}\".tidemark_schema"), &[])
        .await
        .expect("read the version")
        .get(0);
    assert_eq!(version, 6);
    assert_eq!(count(&schema, "passages WHERE embedder IS NULL").await, 2);
    let reference = ReferenceStore::new().with_embedder(model());
    reference.append(&conversation, history).await.expect("append");
    let query = RecallQuery::new("which servers?", Seq(2), 2);
    let found = store.search_passages(&conversation, &query).await.expect("search");
    assert_eq!(found.first().map(|found| found.seq), Some(Seq(0)));
    assert_eq!(found, reference.search_passages(&conversation, &query).await.expect("search"));
    let appended = store.append(&conversation, vec![NewMessage::new(Message::user("rollout"), 1)]).await;
    assert!(appended.is_ok(), "{appended:?}");
    assert_eq!(count(&schema, "passages WHERE embedder IS NULL").await, 0);
    drop_schema(&schema).await;
}

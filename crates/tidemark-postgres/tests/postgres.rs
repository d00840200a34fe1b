//! The PostgreSQL store against a live server: the store, fact and memory conformance suites, many processes appending, saving and writing facts at once, leases, migrations, refused options, background compaction across processes, and recall by meaning.
//!
//! The server comes from `TIDEMARK_POSTGRES_URL`; without it every test
//! fails and says so. Each test works in a schema of its own, so test
//! processes running side by side never see each other's data or counters.

// The memory's test helpers (a gated compactor, a recording hook) serve these tests unchanged.
#[path = "../../tidemark-memory/tests/support/mod.rs"]
mod support;

// Background compaction across processes, in a file of its own (the tests are one binary, `postgres`, which CI runs against its server).
#[path = "postgres/background.rs"]
mod background;

// Recall by meaning, against the reference store with the same embedder.
#[path = "postgres/similar.rs"]
mod similar;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use support::Recorder;
use tidemark_core::store::{Lease, StoredSummary};
use tidemark_core::{
    Calibration, CompactionState, ConversationId, ConversationMemory, ConversationStore, FactBudgets,
    FactError, FactFilter, FactStore, Merge, Message, NewFact, NewMessage, Put, Ratio, Scope, Seq, SeqRange,
    StatusFilter, StoreError, Tier,
};
use tidemark_memory::{
    CompactingMemory, DemotingMemory, HeuristicCounter, Settings, SlidingWindow, TokenWindow,
};
use tidemark_postgres::{PostgresConfigError, PostgresOptions, PostgresStore};
use tidemark_testkit::conformance::{self, memory::MemoryConfig};
use tidemark_testkit::reference::ConcatCompactor;
use tokio::sync::Barrier;
use tokio_postgres::NoTls;

/// The database every test connects to.
fn url() -> String {
    std::env::var("TIDEMARK_POSTGRES_URL").unwrap_or_else(|_| {
        panic!(
            "set TIDEMARK_POSTGRES_URL to a PostgreSQL database these tests may create schemas in, \
             such as postgres://tidemark@127.0.0.1:5432/tidemark_test; `cargo xtask ci` starts a server \
             and sets it"
        )
    })
}

/// A schema name no other test, in this process or another, uses.
fn fresh_schema() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).expect("a clock after 1970").as_nanos();
    format!("t_{}_{nanos}_{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// A store in `schema` with a small pool, as one agent process would open it.
async fn open(schema: &str) -> PostgresStore {
    let options = PostgresOptions::default().with_schema(schema).with_pool_size(4);
    PostgresStore::connect_with(&url(), options).await.expect("the store connects")
}

/// A plain connection for looking behind the store's back.
async fn side_door() -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(&url(), NoTls).await.expect("a plain connection");
    tokio::spawn(async move {
        // The connection ends when the client is dropped; an error then is of no interest.
        let _ = connection.await;
    });
    client
}

async fn drop_schema(schema: &str) {
    side_door()
        .await
        .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
        .await
        .expect("drop the test schema");
}

async fn count(schema: &str, table_and_condition: &str) -> i64 {
    side_door()
        .await
        .query_one(&format!("SELECT count(*) FROM \"{schema}\".{table_and_condition}"), &[])
        .await
        .expect("count")
        .get(0)
}

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

#[tokio::test]
async fn conforms_to_the_store_contract() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let report = conformance::store::run_with(
        || {
            let store = store.clone();
            async move { store }
        },
        200,
    )
    .await
    .expect("conforms");
    assert_eq!(report.cases, 200);
    drop_schema(&schema).await;
}

#[tokio::test]
async fn conforms_to_the_store_contract_by_meaning() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let report = conformance::store::run_by_meaning(
        |embedder| {
            let store = store.clone().with_embedder(embedder);
            async move { store }
        },
        100,
    )
    .await
    .expect("conforms by meaning");
    assert_eq!((report.checks, report.cases), (3, 100));
    drop_schema(&schema).await;
}

#[tokio::test]
async fn conforms_to_the_fact_contract() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let report = conformance::facts::run(|| {
        let store = store.clone();
        async move { store }
    })
    .await
    .expect("conforms with the default budgets");
    assert_eq!(report.cases, conformance::facts::DEFAULT_CASES);
    let small = store.with_fact_budgets(FactBudgets::new(300, 500));
    conformance::facts::run(|| {
        let store = small.clone();
        async move { store }
    })
    .await
    .expect("conforms with small budgets");
    drop_schema(&schema).await;
}

#[tokio::test]
async fn memory_adapters_conform() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let config = MemoryConfig::default();
    let window = || TokenWindow::new(NonZeroU32::new(600).expect("non-zero"), HeuristicCounter::default());
    conformance::memory::run(
        || {
            let store = store.clone();
            async move { CompactingMemory::new(store, window(), ConcatCompactor::capped(400)) }
        },
        &config,
    )
    .await
    .expect("compacting memory on postgres");
    conformance::memory::run(
        || {
            let store = store.clone();
            async move { DemotingMemory::new(store, SlidingWindow::last_messages(3), Recorder::default()) }
        },
        &config,
    )
    .await
    .expect("demoting memory on postgres");
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn appends_from_many_processes_are_numbered_without_gaps() {
    const TASKS: usize = 8;
    const APPENDS: usize = 50;
    let schema = fresh_schema();
    let conversations = [id("shared/a"), id("shared/b"), id("shared/c")];
    // Each task has a store of its own, with its own pool, as a separate process would.
    let mut stores = Vec::new();
    for _ in 0..TASKS {
        let options = PostgresOptions::default().with_schema(&schema).with_pool_size(2);
        stores.push(PostgresStore::connect_with(&url(), options).await.expect("the store connects"));
    }
    let start = Arc::new(Barrier::new(TASKS));
    let mut tasks = Vec::new();
    for (task, store) in stores.into_iter().enumerate() {
        let (start, conversations) = (Arc::clone(&start), conversations.clone());
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let mut sent: Vec<(usize, String)> = Vec::new();
            for index in 0..APPENDS {
                let target = (task + index) % conversations.len();
                let size = 1 + (task * 7 + index) % 3;
                let texts: Vec<String> = (0..size).map(|part| format!("{task}/{index}/{part}")).collect();
                let messages: Vec<NewMessage> =
                    texts.iter().map(|text| NewMessage::new(Message::user(text.clone()), 2)).collect();
                let got = store.append(&conversations[target], messages).await.expect("append");
                assert_eq!(got.len(), size as u64);
                sent.extend(texts.into_iter().map(|text| (target, text)));
            }
            sent
        }));
    }
    let mut expected: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for task in tasks {
        for (target, text) in task.await.expect("the task finishes") {
            expected.entry(target).or_default().push(text);
        }
    }
    let reader = open(&schema).await;
    for (target, conversation) in conversations.iter().enumerate() {
        let loaded = reader.load_range(conversation, all()).await.expect("load");
        let numbers = seqs(&loaded);
        assert_eq!(numbers, (0..numbers.len() as u64).collect::<Vec<_>>(), "{conversation}: gaps or repeats");
        let mut texts: Vec<String> = loaded.iter().map(|stored| stored.message.text().into_owned()).collect();
        // The parts of one append stay together and in order.
        for window in texts.windows(2) {
            let (a, b) = (window[0].rsplit_once('/'), window[1].rsplit_once('/'));
            if let (Some((batch_a, part_a)), Some((batch_b, part_b))) = (a, b)
                && part_b != "0"
            {
                assert_eq!(batch_a, batch_b, "{conversation}: an append was interleaved");
                assert_eq!(
                    part_a.parse::<u32>().expect("a part") + 1,
                    part_b.parse::<u32>().expect("a part")
                );
            }
        }
        let mut wanted = expected.remove(&target).unwrap_or_default();
        texts.sort();
        wanted.sort();
        assert_eq!(texts, wanted, "{conversation}: every message exactly once");
        let stats = reader.stats(conversation).await.expect("stats");
        assert_eq!((stats.next_seq, stats.stored), (Seq(numbers.len() as u64), numbers.len() as u64));
        assert_eq!(stats.stored_tokens, 2 * numbers.len() as u64);
    }
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_first_saves_have_one_winner() {
    const TASKS: usize = 8;
    let schema = fresh_schema();
    let mut stores = Vec::new();
    for _ in 0..TASKS {
        stores.push(open(&schema).await);
    }
    // Once on a conversation without a row, once on one with messages and a state.
    let (fresh, known) = (id("race/fresh"), id("race/known"));
    stores[0].append(&known, news(&["a", "b", "c"])).await.expect("append");
    stores[0].save_state(&known, 0, CompactionState::new(Seq(1), vec![], None)).await.expect("save");
    for (conversation, expected) in [(&fresh, 0), (&known, 1)] {
        let start = Arc::new(Barrier::new(TASKS));
        let mut tasks = Vec::new();
        for (task, store) in stores.iter().cloned().enumerate() {
            let (start, conversation) = (Arc::clone(&start), conversation.clone());
            tasks.push(tokio::spawn(async move {
                start.wait().await;
                let watermark = if expected == 0 { 0 } else { 2 };
                let summary = StoredSummary::new(
                    serde_json::json!({ "task": task }),
                    Message::system(format!("summary by {task}")),
                    3,
                    "race",
                );
                store
                    .save_state(
                        &conversation,
                        expected,
                        CompactionState::new(Seq(watermark), vec![], Some(summary)),
                    )
                    .await
            }));
        }
        let mut winners = Vec::new();
        for task in tasks {
            match task.await.expect("the task finishes") {
                Ok(state) => winners.push(state),
                Err(StoreError::StateConflict { expected: e, found }) => {
                    assert_eq!((e, found), (expected, expected + 1), "{conversation}");
                }
                Err(other) => panic!("{conversation}: unexpected {other:?}"),
            }
        }
        assert_eq!(winners.len(), 1, "{conversation}: {winners:?}");
        let stored = stores[0].state(conversation).await.expect("state");
        assert_eq!(stored, winners[0], "{conversation}");
        assert_eq!(stored.generation, expected + 1);
    }
    drop_schema(&schema).await;
}

#[tokio::test]
async fn state_messages_and_numbering_survive_reconnecting() {
    let schema = fresh_schema();
    let conversation = id("reconnect");
    let messages = vec![
        NewMessage::new(Message::system("règles ✓").pinned(), 7),
        NewMessage::new(Message::user("  spaces kept  \n nul \u{0} kept"), 3),
        NewMessage::new(Message::tool_result("call_1", "{\"ok\":true}"), 5),
        NewMessage::new(Message::assistant("done"), 2),
    ];
    let first = open(&schema).await;
    first.append(&conversation, messages.clone()).await.expect("append");
    let artifact = serde_json::json!({"lines": ["naïve café", "nul \u{0}"], "z": 1, "a": [true, null]});
    let summary = StoredSummary::new(artifact, Message::system("Summary: café"), 11, "test-compactor");
    let saved = first
        .save_state(&conversation, 0, CompactionState::new(Seq(3), vec![Seq(0)], Some(summary)))
        .await
        .expect("save");
    let stats = first.stats(&conversation).await.expect("stats");
    drop(first);

    let second = open(&schema).await;
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
    assert_eq!(artifact_json(&state), artifact_json(&saved), "key order kept");
    assert_eq!(second.stats(&conversation).await.expect("stats"), stats);
    assert_eq!(second.append(&conversation, news(&["next"])).await.expect("append"), range(4, 5));
    assert_eq!(second.prune(&conversation).await.expect("prune"), 2, "1 and 2 leave, 0 is retained");
    assert_eq!(seqs(&second.load_range(&conversation, all()).await.expect("load")), [0, 3, 4]);
    drop_schema(&schema).await;
}

#[tokio::test]
async fn leases_pass_between_holders_and_expire_on_the_server_clock() {
    let schema = fresh_schema();
    let (a, b) = (open(&schema).await, open(&schema).await);
    let conversation = id("leased");
    let long = Duration::from_secs(30);
    assert_eq!(a.try_lease(&conversation, "a", long).await.expect("lease"), Lease::Acquired);
    match b.try_lease(&conversation, "b", long).await.expect("lease") {
        Lease::HeldBy { holder, expires_in } => {
            assert_eq!(holder, "a");
            assert!(expires_in <= long && expires_in > Duration::from_secs(20), "{expires_in:?}");
        }
        other => panic!("b got {other:?}"),
    }
    // The holder may claim again to extend; someone else's release changes nothing.
    assert_eq!(a.try_lease(&conversation, "a", long).await.expect("lease"), Lease::Acquired);
    b.release_lease(&conversation, "b").await.expect("release");
    assert!(matches!(b.try_lease(&conversation, "b", long).await.expect("lease"), Lease::HeldBy { .. }));
    a.release_lease(&conversation, "a").await.expect("release");
    assert_eq!(b.try_lease(&conversation, "b", long).await.expect("lease"), Lease::Acquired);
    assert!(matches!(a.try_lease(&conversation, "a", long).await.expect("lease"), Lease::HeldBy { .. }));
    // Leases of other conversations are independent.
    assert_eq!(a.try_lease(&id("other"), "a", long).await.expect("lease"), Lease::Acquired);
    b.release_lease(&conversation, "b").await.expect("release");

    // A short lease that is never released expires.
    let short = Duration::from_millis(200);
    assert_eq!(a.try_lease(&conversation, "crashed", short).await.expect("lease"), Lease::Acquired);
    match b.try_lease(&conversation, "b", long).await.expect("lease") {
        Lease::HeldBy { holder, expires_in } => {
            assert_eq!(holder, "crashed");
            assert!(expires_in <= short, "{expires_in:?}");
        }
        other => panic!("b got {other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(b.try_lease(&conversation, "b", long).await.expect("lease"), Lease::Acquired);
    // An absurd ttl is cut, not an error.
    assert_eq!(b.try_lease(&conversation, "b", Duration::MAX).await.expect("lease"), Lease::Acquired);
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn users_are_shared_between_processes_ordered_by_assignment_and_kept_across_reopening() {
    let schema = fresh_schema();
    // Two handles with pools of their own, as two agent processes on one database.
    let (first, second) = (open(&schema).await, open(&schema).await);
    let (ann, bo) = (id("user-ann"), id("user-bo"));
    let list = |store: &PostgresStore, user: &ConversationId| {
        let (store, user) = (store.clone(), user.clone());
        async move { store.user_conversations(&user).await.expect("user_conversations") }
    };
    // Assignments alternate between the processes; each sees the other's, newest first.
    let held: Vec<ConversationId> = (0..12).map(|n| id(&format!("held-{n}"))).collect();
    for (n, conversation) in held.iter().enumerate() {
        let store = if n % 2 == 0 { &first } else { &second };
        store.set_user(conversation, &ann).await.expect("set_user");
    }
    let newest_first: Vec<ConversationId> = held.iter().rev().cloned().collect();
    assert_eq!(list(&first, &ann).await, newest_first);
    assert_eq!(list(&second, &ann).await, newest_first);
    // Naming the user again in one process makes the conversation the newest in both.
    second.set_user(&held[0], &ann).await.expect("set_user");
    first.set_user(&held[5], &ann).await.expect("set_user");
    let mut expected = vec![held[5].clone(), held[0].clone()];
    expected.extend(newest_first.iter().filter(|c| **c != held[0] && **c != held[5]).cloned());
    assert_eq!(list(&second, &ann).await, expected);
    // A move made by one process takes the conversation from the user in the other.
    first.set_user(&held[0], &bo).await.expect("set_user");
    expected.retain(|conversation| *conversation != held[0]);
    assert_eq!(list(&second, &ann).await, expected);
    assert_eq!(list(&second, &bo).await, [held[0].clone()]);
    assert!(
        second.conversations().await.expect("conversations").is_empty(),
        "a user made a conversation appear"
    );

    // Processes naming users of one conversation at once leave it with exactly one of them.
    let contested = id("contested");
    let users: Vec<ConversationId> = (0..8).map(|n| id(&format!("racer-{n}"))).collect();
    let start = Arc::new(Barrier::new(users.len()));
    let racers = users.iter().enumerate().map(|(n, user)| {
        let store = if n % 2 == 0 { first.clone() } else { second.clone() };
        let (user, contested, start) = (user.clone(), contested.clone(), Arc::clone(&start));
        tokio::spawn(async move {
            start.wait().await;
            store.set_user(&contested, &user).await
        })
    });
    for racer in racers.collect::<Vec<_>>() {
        racer.await.expect("the task finishes").expect("set_user");
    }
    let mut holders = 0;
    for user in &users {
        let listed = list(&first, user).await;
        assert!(listed.is_empty() || listed == [contested.clone()], "{user}: {listed:?}");
        holders += listed.len();
    }
    assert_eq!(holders, 1, "one user per conversation");
    assert_eq!(count(&schema, "conversation_users WHERE conversation = 'contested'").await, 1);

    // The records outlive the processes: a reopened handle reads them and can clear one.
    drop((first, second));
    let reopened = open(&schema).await;
    assert_eq!(list(&reopened, &ann).await, expected);
    assert_eq!(list(&reopened, &bo).await, [held[0].clone()]);
    reopened.clear(&held[5]).await.expect("clear");
    expected.retain(|conversation| *conversation != held[5]);
    let other = open(&schema).await;
    assert_eq!(list(&other, &ann).await, expected);
    // Later assignments still number after the ones before the reopening.
    other.set_user(&held[1], &ann).await.expect("set_user");
    assert_eq!(list(&reopened, &ann).await.first(), Some(&held[1]));

    // A stored id that is not valid is an error of the operation, not a panic.
    side_door()
        .await
        .batch_execute(&format!(
            "INSERT INTO \"{schema}\".conversation_users (conversation, user_id, assigned) VALUES ('', 'user-ann', 0)"
        ))
        .await
        .expect("store an empty id");
    let listed = reopened.user_conversations(&ann).await;
    assert!(matches!(listed, Err(StoreError::Backend { operation: "user_conversations", .. })), "{listed:?}");
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stores_starting_together_migrate_once() {
    let schema = fresh_schema();
    let connects = (0..4).map(|_| {
        let schema = schema.clone();
        tokio::spawn(async move {
            let options = PostgresOptions::default().with_schema(&schema).with_pool_size(1);
            PostgresStore::connect_with(&url(), options).await
        })
    });
    let mut stores = Vec::new();
    for connect in connects {
        stores.push(connect.await.expect("the task finishes").expect("every store connects"));
    }
    let side = side_door().await;
    let versions: Vec<i32> = side
        .query(&format!("SELECT version FROM \"{schema}\".tidemark_schema"), &[])
        .await
        .expect("read the version")
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, [6]);
    let conversation = id("after-migration");
    stores[0].append(&conversation, news(&["a"])).await.expect("append");
    assert_eq!(stores[3].stats(&conversation).await.expect("stats").stored, 1);
    drop_schema(&schema).await;
}

#[tokio::test]
async fn a_newer_schema_is_refused_and_left_untouched() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    store.append(&id("old"), news(&["a", "b"])).await.expect("append");
    drop(store);
    let side = side_door().await;
    side.batch_execute(&format!("UPDATE \"{schema}\".tidemark_schema SET version = 99"))
        .await
        .expect("set the version");
    let result = PostgresStore::connect_with(&url(), PostgresOptions::default().with_schema(&schema)).await;
    assert!(matches!(result, Err(StoreError::SchemaTooNew { found: 99, supported: 6 })), "{result:?}");
    let version: i32 = side
        .query_one(&format!("SELECT version FROM \"{schema}\".tidemark_schema"), &[])
        .await
        .expect("read the version")
        .get(0);
    assert_eq!(version, 99);
    assert_eq!(count(&schema, "messages").await, 2);
    drop_schema(&schema).await;
}

#[tokio::test]
async fn bad_options_and_urls_are_refused_before_any_write() {
    let refused = |result: Result<PostgresStore, StoreError>| match result {
        Err(StoreError::Backend { operation: "connect", source }) => {
            source.downcast_ref::<PostgresConfigError>().cloned()
        }
        other => panic!("expected a refusal, got {other:?}"),
    };
    for name in ["", "1st", "has-dash", "x\"; DROP SCHEMA public; --", &"s".repeat(64)] {
        let result = PostgresStore::connect_with(&url(), PostgresOptions::default().with_schema(name)).await;
        assert!(matches!(refused(result), Some(PostgresConfigError::SchemaName { .. })), "{name}");
    }
    let schema = fresh_schema();
    let empty = PostgresOptions::default().with_schema(&schema).with_pool_size(0);
    assert_eq!(
        refused(PostgresStore::connect_with(&url(), empty).await),
        Some(PostgresConfigError::EmptyPool)
    );
    let garbled = PostgresStore::connect("postgres://[not a host").await;
    assert!(matches!(garbled, Err(StoreError::Backend { operation: "connect", .. })), "{garbled:?}");
    let side = side_door().await;
    let exists = side
        .query_opt("SELECT 1 FROM pg_namespace WHERE nspname = $1", &[&schema])
        .await
        .expect("look for the schema");
    assert!(exists.is_none(), "a refused connect created its schema");
}

/// The test URL with a password in it (servers with trust authentication ignore it) and that password.
fn url_with_password() -> (String, Option<String>) {
    let url = url();
    let Some((scheme, rest)) = url.split_once("://") else { return (url.clone(), None) };
    let Some((user, host)) = rest.split_once('@') else { return (url.clone(), None) };
    match user.split_once(':') {
        Some((_, password)) => (url.clone(), Some(password.to_owned())),
        None => (format!("{scheme}://{user}:hunter2secret@{host}"), Some("hunter2secret".to_owned())),
    }
}

#[tokio::test]
async fn mixed_case_schemas_are_distinct_and_debug_hides_the_password() {
    let schema = fresh_schema();
    let upper = schema.replacen('t', "T", 1);
    let (url, password) = url_with_password();
    let connect = |name: &str| {
        let options = PostgresOptions::default().with_schema(name).with_pool_size(1);
        let url = url.clone();
        async move { PostgresStore::connect_with(&url, options).await.expect("the store connects") }
    };
    let (lower_store, upper_store) = (connect(&schema).await, connect(&upper).await);
    lower_store.append(&id("x"), news(&["lower"])).await.expect("append");
    assert_eq!(upper_store.stats(&id("x")).await.expect("stats").stored, 0, "the schemas are separate");
    let debug = format!("{lower_store:?}");
    assert!(debug.contains(&schema), "{debug}");
    if let Some(password) = password {
        assert!(!debug.contains(&password), "{debug}");
    }
    assert_eq!(upper_store.schema(), upper);
    drop_schema(&schema).await;
    drop_schema(&upper).await;
}

#[tokio::test]
async fn a_failed_append_stores_nothing_and_uses_no_numbers() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let (known, fresh) = (id("known"), id("fresh"));
    store.append(&known, news(&["a", "b"])).await.expect("append");
    let side = side_door().await;
    side.batch_execute(&format!(
        "CREATE FUNCTION \"{schema}\".poison() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.body LIKE '%poison%' THEN RAISE EXCEPTION 'poison'; END IF; RETURN NEW; END $$;
         CREATE TRIGGER poison BEFORE INSERT ON \"{schema}\".messages
         FOR EACH ROW EXECUTE FUNCTION \"{schema}\".poison();"
    ))
    .await
    .expect("create the trigger");
    for conversation in [&known, &fresh] {
        let before = store.stats(conversation).await.expect("stats");
        let result = store.append(conversation, news(&["ok", "ok", "poison"])).await;
        assert!(matches!(result, Err(StoreError::Backend { operation: "append", .. })), "{result:?}");
        assert_eq!(store.stats(conversation).await.expect("stats"), before, "{conversation}");
    }
    assert_eq!(seqs(&store.load_range(&known, all()).await.expect("load")), [0, 1]);
    assert_eq!(store.conversations().await.expect("list"), std::slice::from_ref(&known));
    side.batch_execute(&format!("DROP TRIGGER poison ON \"{schema}\".messages")).await.expect("drop it");
    assert_eq!(store.append(&known, news(&["c", "d", "e"])).await.expect("append"), range(2, 5));
    assert_eq!(store.append(&fresh, news(&["x"])).await.expect("append"), range(0, 1));
    drop_schema(&schema).await;
}

#[tokio::test]
async fn a_corrupt_row_is_reported_with_its_number() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let side = side_door().await;
    for (index, body) in ["'{not json'", "'[1, 2]'"].into_iter().enumerate() {
        let conversation = id(&format!("corrupt-{index}"));
        store.append(&conversation, news(&["a", "b", "c"])).await.expect("append");
        side.batch_execute(&format!(
            "UPDATE \"{schema}\".messages SET body = {body} WHERE conversation = '{conversation}' AND seq = 1"
        ))
        .await
        .expect("corrupt the row");
        let by_range = store.load_range(&conversation, all()).await;
        assert!(matches!(by_range, Err(StoreError::Corrupt { seq: Seq(1), .. })), "{body}: {by_range:?}");
        let by_seqs = store.load_seqs(&conversation, &[Seq(0), Seq(1)]).await;
        assert!(matches!(by_seqs, Err(StoreError::Corrupt { seq: Seq(1), .. })), "{body}: {by_seqs:?}");
        let around = store.load_seqs(&conversation, &[Seq(0), Seq(2)]).await.expect("the other rows load");
        assert_eq!(seqs(&around), [0, 2], "{body}");
    }
    drop_schema(&schema).await;
}

#[tokio::test]
async fn numbers_beyond_bigint_find_nothing_and_ids_sort_as_in_rust() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let conversation = id("huge");
    store.append(&conversation, news(&["a", "b", "c"])).await.expect("append");
    for (wanted, expected) in [
        (range(1, u64::MAX), vec![1, 2]),
        (range(u64::MAX - 1, u64::MAX), vec![]),
        (range(i64::MAX as u64, u64::MAX), vec![]),
    ] {
        assert_eq!(seqs(&store.load_range(&conversation, wanted).await.expect("load")), expected, "{wanted}");
    }
    let picked = [Seq(0), Seq(2), Seq(i64::MAX as u64), Seq(u64::MAX)];
    assert_eq!(seqs(&store.load_seqs(&conversation, &picked).await.expect("load")), [0, 2]);
    // U+FFFF and U+10000 sort one way in UTF-8 and the other in UTF-16; most collations disagree with both.
    let texts = ["zebra", "Zebra", "é", "e\u{301}", "\u{FFFF}", "\u{10000}", "ｚ", "日本", "a b", "ab", "a"];
    let mut expected: Vec<ConversationId> = texts.iter().map(|text| id(text)).collect();
    for other in &expected {
        store.append(other, news(&["x"])).await.expect("append");
    }
    expected.push(conversation);
    expected.sort();
    assert_eq!(store.conversations().await.expect("list"), expected);
    drop_schema(&schema).await;
}

fn user(text: &str) -> Scope {
    Scope::User(id(text))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn budgets_and_idempotence_hold_across_processes() {
    const TASKS: usize = 8;
    let schema = fresh_schema();
    let budgets = FactBudgets::new(100, 100);
    let mut stores = Vec::new();
    for _ in 0..TASKS {
        stores.push(open(&schema).await.with_fact_budgets(budgets));
    }
    let scope = user("crowded");
    let start = Arc::new(Barrier::new(TASKS));
    let mut tasks = Vec::new();
    for (task, store) in stores.iter().cloned().enumerate() {
        let (start, scope) = (Arc::clone(&start), scope.clone());
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let shared = store.put(NewFact::new(scope.clone(), Tier::UserProfile, "Shared by all.")).await;
            let shared = shared.expect("the shared fact");
            let mut inserted = 0;
            for index in 0..10 {
                // Ten characters each: ten of them fill the budget.
                let text = format!("t{task}n{index:02}-----");
                match store.put(NewFact::new(scope.clone(), Tier::AgentNotes, text)).await {
                    Ok(Put::Inserted(_)) => inserted += 1,
                    Err(FactError::OverBudget { .. }) => {}
                    other => panic!("unexpected {other:?}"),
                }
            }
            (shared, inserted)
        }));
    }
    let (mut shared_ids, mut new_shared, mut inserted) = (Vec::new(), 0, 0);
    for task in tasks {
        let (shared, count) = task.await.expect("the task finishes");
        new_shared += usize::from(shared.inserted());
        shared_ids.push(shared.fact().id);
        inserted += count;
    }
    assert_eq!(new_shared, 1, "one put stored the shared fact, the others found it");
    shared_ids.dedup();
    assert_eq!(shared_ids.len(), 1);
    assert_eq!(inserted, 10, "exactly the budget's worth of notes");
    let usage = stores[0].usage(&scope, Tier::AgentNotes).await.expect("usage");
    assert_eq!((usage.used, usage.limit), (100, 100));
    drop_schema(&schema).await;
}

#[tokio::test]
async fn rollback_restores_ids_without_handing_them_out_again() {
    let schema = fresh_schema();
    let store = open(&schema).await;
    let scope = user("rollback");
    let mut sources = Vec::new();
    for text in ["Likes green tea.", "Likes tea, green.", "Drinks tea daily."] {
        sources.push(store.put(NewFact::new(scope.clone(), Tier::UserProfile, text)).await.expect("put"));
    }
    let merge = Merge::new(
        sources.iter().map(|put| put.fact().id).collect(),
        NewFact::new(scope.clone(), Tier::UserProfile, "Drinks green tea daily."),
    );
    let (run, merged) = store.consolidate("test", vec![merge]).await.expect("consolidate");
    let generation = store.generation().await.expect("generation");
    let undone = store.rollback(run).await.expect("rollback");
    assert_eq!((undone.restored, undone.removed), (3, 1));
    assert!(store.generation().await.expect("generation") > generation);
    let filter = FactFilter::scope(scope.clone()).status(StatusFilter::Any);
    let listed = store.list(&filter).await.expect("list");
    assert_eq!(listed, sources.iter().map(|put| put.fact().clone()).collect::<Vec<_>>());
    let found = store.search(Some(&scope), "green", 10).await.expect("search");
    assert_eq!(found.len(), 2, "the restored facts are searchable again");
    let next =
        store.put(NewFact::new(scope.clone(), Tier::UserProfile, "Lives in Porto.")).await.expect("put");
    assert!(next.fact().id > merged[0].fact.id, "ids keep growing after a rollback");
    let nul = store.put(NewFact::new(scope, Tier::UserProfile, "a\u{0}b")).await;
    assert!(matches!(nul, Err(FactError::Invalid { .. })), "{nul:?}");
    drop_schema(&schema).await;
}

// ---- Many processes on one database: the load test and the kill test ----

/// A memory as one agent process would build it: its own store handle (its own pool) and a counting compactor.
async fn process_memory(
    schema: &str,
    probe: support::Probe,
    settings: Settings,
) -> CompactingMemory<PostgresStore, TokenWindow<HeuristicCounter>, support::Probe> {
    let store =
        PostgresStore::connect_with(&url(), PostgresOptions::default().with_schema(schema).with_pool_size(4))
            .await
            .expect("connect");
    let window = TokenWindow::new(NonZeroU32::new(240).expect("non-zero"), HeuristicCounter::default());
    CompactingMemory::new(store, window, probe).with_settings(settings)
}

fn tagged_turn(conversation: usize, turn: usize) -> Vec<Message> {
    vec![
        Message::user(format!(
            "[c{conversation}-t{turn}-u] please look at item {turn} of conversation {conversation} again"
        )),
        Message::assistant(format!(
            "[c{conversation}-t{turn}-a] item {turn} looks fine; nothing to change there today"
        )),
    ]
}

/// How many times the probe compacted each tagged message, over every process that shared it.
fn compactions_by_tag(probe: &support::Probe) -> HashMap<String, usize> {
    let mut compacted: HashMap<String, usize> = HashMap::new();
    for batch in probe.evicted.lock().expect("not poisoned").iter() {
        for message in batch {
            *compacted.entry(tag(message)).or_default() += 1;
        }
    }
    compacted
}

fn tag(message: &Message) -> String {
    let text = message.text();
    text.split(']').next().unwrap_or_default().trim_start_matches('[').to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_processes_share_one_database_without_losing_or_repeating_anything() {
    const PROCESSES: usize = 8;
    const CONVERSATIONS: usize = 100;
    const TURNS: usize = 1_000;
    let schema = fresh_schema();
    let probe = support::Probe::default(); // shared, so every compactor call of every process is counted
    let start = Arc::new(Barrier::new(PROCESSES));
    let mut tasks = Vec::new();
    for process in 0..PROCESSES {
        let memory = process_memory(&schema, probe.clone(), Settings::default()).await;
        let start = Arc::clone(&start);
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            for turn in (process..TURNS).step_by(PROCESSES) {
                let conversation = turn % CONVERSATIONS;
                let id = ConversationId::new(format!("load-{conversation}")).expect("valid id");
                memory.append(&id, tagged_turn(conversation, turn)).await.expect("append");
                let prompt = memory.load(&id).await.expect("load");
                assert!(!prompt.is_empty());
            }
        }));
    }
    for task in tasks {
        task.await.expect("a process finished");
    }

    // Every evicted message was compacted exactly once, across all processes.
    let compacted = compactions_by_tag(&probe);
    let twice: Vec<_> = compacted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "compacted more than once: {twice:?}");

    let store = PostgresStore::connect_with(&url(), PostgresOptions::default().with_schema(&schema))
        .await
        .expect("connect");
    let mut total = 0;
    for conversation in 0..CONVERSATIONS {
        let id = ConversationId::new(format!("load-{conversation}")).expect("valid id");
        let stored = store.load_range(&id, SeqRange::from(Seq::ZERO)).await.expect("load_range");
        let seqs: Vec<u64> = stored.iter().map(|message| message.seq.0).collect();
        let expected: Vec<u64> = (0..seqs.len() as u64).collect();
        assert_eq!(
            seqs, expected,
            "conversation {conversation}: sequence numbers must be gap-free and unique"
        );
        let turns = (0..TURNS).filter(|turn| turn % CONVERSATIONS == conversation).count();
        assert_eq!(stored.len(), 2 * turns, "conversation {conversation}: every message stored once");
        let tags: HashSet<String> = stored.iter().map(|message| tag(&message.message)).collect();
        assert_eq!(tags.len(), stored.len(), "conversation {conversation}: no message stored twice");
        // Each turn's pair is adjacent: an append is all or nothing.
        for pair in stored.chunks(2) {
            assert_eq!(tag(&pair[0].message).replace("-u", ""), tag(&pair[1].message).replace("-a", ""));
        }
        // Everything below the watermark (and not retained) went through the compactor once.
        let state = store.state(&id).await.expect("state");
        for message in stored.iter().filter(|m| m.seq < state.watermark && !state.retained.contains(&m.seq)) {
            assert_eq!(
                compacted.get(&tag(&message.message)),
                Some(&1),
                "conversation {conversation}: seq {} never compacted",
                message.seq.0
            );
        }
        total += stored.len();
    }
    assert_eq!(total, 2 * TURNS);
    assert!(probe.calls() > 0, "the window is small enough that compaction happened");
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_lease_holder_blocks_only_until_its_lease_expires() {
    let schema = fresh_schema();
    let (stuck, entered, _never_released) = support::Probe::gated();
    let mut short = Settings::default();
    short.lease_ttl = Duration::from_millis(800);
    let doomed = process_memory(&schema, stuck.clone(), short).await;
    let id = ConversationId::new("killed").expect("valid id");
    for turn in 0..30 {
        doomed.append(&id, tagged_turn(0, turn)).await.expect("append");
    }
    let holder = tokio::spawn(async move {
        let _ = doomed.load(&ConversationId::new("killed").expect("valid id")).await;
    });
    entered.notified().await;
    // The process dies inside its compactor, holding the lease: no release ever comes.
    holder.abort();
    let _ = holder.await;

    // The dead process's lease is still there.
    let observer = open(&schema).await;
    let lease = observer.try_lease(&id, "observer", Duration::from_secs(1)).await.expect("try_lease");
    assert!(matches!(lease, Lease::HeldBy { .. }), "{lease:?}");

    let survivor_probe = support::Probe::default();
    let survivor = process_memory(&schema, survivor_probe.clone(), Settings::default()).await;
    let prompt = tokio::time::timeout(Duration::from_secs(30), survivor.load(&id))
        .await
        .expect("the survivor is not blocked forever")
        .expect("load");
    // One load may compact in more than one round when the first summary leaves it over budget.
    assert!(survivor_probe.calls() >= 1, "the survivor compacted once the lease expired");
    let evicted = survivor_probe.evicted.lock().expect("not poisoned").concat();
    let tags: HashSet<String> = evicted.iter().map(tag).collect();
    assert_eq!(tags.len(), evicted.len(), "no message compacted twice");
    assert_eq!(stuck.calls(), 1, "the killed holder never finished");
    assert!(prompt.len() < 60);
    drop_schema(&schema).await;
}

#[tokio::test]
async fn a_schema_of_version_1_gains_the_recall_index_over_its_old_messages() {
    let schema = fresh_schema();
    let conversation = id("old");
    let store = open(&schema).await;
    store.append(&conversation, news(&["deploy europe-west4", "INC-20931 closed"])).await.expect("append");
    drop(store);
    // Version 1 is what this build writes without the steps of versions 2
    // to 5, whose tables (and the sequence that goes with the users table)
    // are dropped, with the passages of the messages above.
    let side = side_door().await;
    side.batch_execute(&format!(
        "DROP TABLE \"{schema}\".passages; DROP TABLE \"{schema}\".calibrations;
         DROP TABLE \"{schema}\".conversation_users; DROP TABLE \"{schema}\".epochs;
         UPDATE \"{schema}\".tidemark_schema SET version = 1"
    ))
    .await
    .expect("take the schema back to version 1");

    let store = open(&schema).await;
    let search = |text: &'static str| {
        let store = &store;
        let conversation = &conversation;
        async move {
            let hits = store
                .search_passages(conversation, &tidemark_core::RecallQuery::new(text, Seq(u64::MAX), 5))
                .await
                .expect("search");
            hits.iter().map(|hit| hit.seq.0).collect::<Vec<_>>()
        }
    };
    assert_eq!(search("west4").await, [0]);
    assert_eq!(search("inc-20931").await, [1]);
    assert_eq!(count(&schema, "passages").await, 2);
    // The step of version 3 made the calibrations table.
    let learned = Calibration::from_ratios([Ratio::from_millionths(1_200_000)]);
    store.save_calibration(&conversation, learned.clone()).await.expect("save a calibration");
    assert_eq!(store.calibration(&conversation).await.expect("calibration"), learned);
    // The step of version 5 made the users table and its sequence.
    let user = id("user-old");
    store.set_user(&conversation, &user).await.expect("set_user");
    assert_eq!(store.user_conversations(&user).await.expect("user_conversations"), [conversation]);
    drop_schema(&schema).await;
}

/// A schema of version 5 (before compaction history) with a compacted and a cleared conversation.
#[tokio::test]
async fn a_schema_of_version_5_gains_its_history_from_the_states_it_holds() {
    use tidemark_core::history::{EpochKind, HistoryError, undo_target};
    let schema = fresh_schema();
    let store = open(&schema).await;
    let (kept, cleared) = (id("kept"), id("cleared"));
    store.append(&kept, news(&["a", "b", "c", "d", "e"])).await.expect("append");
    let summary = StoredSummary::new(serde_json::json!("s"), Message::system("Summary: a, b"), 4, "concat");
    store
        .save_state(&kept, 0, CompactionState::new(Seq(2), vec![Seq(0)], Some(summary)))
        .await
        .expect("save");
    let second =
        store.save_state(&kept, 1, CompactionState::new(Seq(3), vec![Seq(0)], None)).await.expect("save");
    store.append(&cleared, news(&["x", "y"])).await.expect("append");
    store.clear(&cleared).await.expect("clear");
    drop(store);
    // Version 5 is what this build writes without the step of version 6.
    let side = side_door().await;
    side.batch_execute(&format!(
        "DROP TABLE \"{schema}\".epochs; UPDATE \"{schema}\".tidemark_schema SET version = 5"
    ))
    .await
    .expect("take the schema back to version 5");

    let store = open(&schema).await;
    let epochs = store.epochs(&kept).await.expect("epochs");
    assert_eq!(epochs.len(), 1, "the history starts at the state the schema held: {epochs:?}");
    assert_eq!((epochs[0].kind, epochs[0].undo_to, epochs[0].next_seq), (EpochKind::Migrated, None, Seq(5)));
    assert_eq!(epochs[0].state, second, "the migrated epoch holds the state as it was");
    let cleared_epochs = store.epochs(&cleared).await.expect("epochs");
    assert_eq!((cleared_epochs[0].kind, cleared_epochs[0].state.watermark), (EpochKind::Migrated, Seq(2)));
    assert_eq!(undo_target(&epochs, 2), Ok(None));
    let undone = store.restore_state(&kept, 2, None).await.expect("undo to the initial state");
    assert_eq!((undone.watermark, undone.generation, undone.summary), (Seq::ZERO, 3, None));
    let refused = store.restore_state(&cleared, 1, None).await;
    assert!(matches!(refused, Err(StoreError::History(HistoryError::Pruned { .. }))), "{refused:?}");
    let version: i32 = side
        .query_one(&format!("SELECT version FROM \"{schema}\".tidemark_schema"), &[])
        .await
        .expect("read the version")
        .get(0);
    assert_eq!(version, 6);
    drop_schema(&schema).await;
}

#[path = "../../tidemark-memory/tests/support/history.rs"]
mod history_lockstep;

/// Undo, restore and as-of reads over PostgreSQL keep step with the reference store: long fixed runs, then random ones.
#[test]
fn history_keeps_step_with_the_reference() {
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let schema = fresh_schema();
    let store = runtime.block_on(open(&schema));
    for seed in 1..=3 {
        let ops = history_lockstep::long_run(seed);
        let conversation = id(&format!("long-{seed}"));
        let checked = runtime.block_on(history_lockstep::lockstep(store.clone(), &conversation, &ops));
        let checked = checked.unwrap_or_else(|failure| panic!("seed {seed}: {failure}"));
        assert!(
            checked.restores >= 10 && checked.as_of >= 20 && checked.epochs >= 30 && checked.forks >= 1,
            "{checked:?}"
        );
    }
    let mut runner = TestRunner::new(Config { cases: 24, ..Config::default() });
    let case = AtomicU64::new(0);
    let result = runner.run(&history_lockstep::arb_ops(1..40), |ops| {
        let conversation = id(&format!("random-{}", case.fetch_add(1, Ordering::Relaxed)));
        runtime
            .block_on(history_lockstep::lockstep(store.clone(), &conversation, &ops))
            .map(|_| ())
            .map_err(TestCaseError::fail)
    });
    runtime.block_on(drop_schema(&schema));
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

//! The replay benchmark: an agent appends four messages per turn and loads its prompt once, for thousands of turns.
//!
//! Memory under test: a store (in memory or an SQLite file), a `TokenWindow`
//! of 8,000 tokens and a `CompactingMemory` whose compactor caps its artifact
//! at 4 KiB. Before divan's timings, a report pass replays each size once and
//! prints the total time, the p50 and p99 load latency over the first and the
//! last 100 turns, and the ratio of the two p50s: a flat cost as the
//! conversation grows shows as a ratio near 1. After each replay, recall
//! searches below the final watermark are timed against the same run's loads.

use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use divan::Bencher;
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message, RecallQuery, Role};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, SqliteStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const SUMMARY_CAP: usize = 4 * 1024;

fn main() {
    report();
    divan::main();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

fn memory<S: ConversationStore>(
    store: S,
) -> CompactingMemory<S, TokenWindow<HeuristicCounter>, ConcatCompactor> {
    let budget = NonZeroU32::new(BUDGET).expect("non-zero");
    CompactingMemory::new(
        store,
        TokenWindow::new(budget, HeuristicCounter::default()),
        ConcatCompactor::capped(SUMMARY_CAP),
    )
}

/// Replay `turns`, returning each load's latency and the total time spent appending.
async fn run<M: ConversationMemory>(memory: &M, turns: &[Vec<Message>]) -> (Vec<Duration>, Duration) {
    let id = ConversationId::new("replay").expect("valid id");
    let mut latencies = Vec::with_capacity(turns.len());
    let mut appending = Duration::ZERO;
    for messages in turns {
        let batch = messages.clone();
        let started = Instant::now();
        memory.append(&id, batch).await.expect("append");
        appending += started.elapsed();
        let started = Instant::now();
        let prompt = memory.load(&id).await.expect("load");
        latencies.push(started.elapsed());
        divan::black_box(prompt);
    }
    (latencies, appending)
}

/// What one replay measured.
struct Measured {
    latencies: Vec<Duration>,
    /// The whole replay: appends and loads.
    replaying: Duration,
    appending: Duration,
    compactions: u64,
    /// The latency of a recall search below the watermark, one per sampled user message.
    searches: Vec<Duration>,
    /// How many of those searches found a passage.
    found: usize,
    /// The first search after the replay, which indexes everything below the mark.
    indexing: Duration,
}

/// How many user messages of the replay are asked again as recall searches after it.
const SEARCHES: usize = 200;

/// Replay on `memory`, count the compactions (every one writes the state once), then time recall searches.
///
/// The searches ask, below the final watermark, for the user messages of
/// turns spread over the replay: queries as an agent writes them, some about
/// text that is still in the window and some about text that left it.
async fn measure<S: ConversationStore>(
    memory: CompactingMemory<S, TokenWindow<HeuristicCounter>, ConcatCompactor>,
    work: &[Vec<Message>],
) -> Measured {
    let started = Instant::now();
    let (latencies, appending) = run(&memory, work).await;
    let replaying = started.elapsed();
    let id = ConversationId::new("replay").expect("valid id");
    let state = memory.get_ref().state(&id).await.expect("state");
    // The first search indexes every message below the mark (nothing searched before it); it is timed apart.
    let started = Instant::now();
    let warm = RecallQuery::new("warm up the index", state.watermark, 8);
    memory.get_ref().search_passages(&id, &warm).await.expect("search");
    let indexing = started.elapsed();
    let step = (work.len() / SEARCHES).max(1);
    let mut searches = Vec::with_capacity(SEARCHES);
    let mut found = 0;
    for turn in work.iter().step_by(step).take(SEARCHES) {
        let Some(user) = turn.iter().find(|message| message.role == Role::User) else { continue };
        let query = RecallQuery::new(user.text(), state.watermark, 8);
        let started = Instant::now();
        let hits = memory.get_ref().search_passages(&id, &query).await.expect("search");
        searches.push(started.elapsed());
        found += usize::from(!hits.is_empty());
    }
    Measured { latencies, replaying, appending, compactions: state.generation, indexing, searches, found }
}

fn percentile(samples: &[Duration], fraction: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn report() {
    let runtime = runtime();
    println!("replay report (budget {BUDGET} tokens, summary cap {SUMMARY_CAP} bytes, seed {SEED})");
    println!(
        "{:<10} {:>6} {:>12} {:>10} {:>11} {:>10} {:>14} {:>14} {:>13} {:>13} {:>9}",
        "store",
        "turns",
        "compactions",
        "total ms",
        "append ms",
        "load ms",
        "p50 first µs",
        "p50 last µs",
        "p99 first µs",
        "p99 last µs",
        "last/first"
    );
    let mut recall_rows = Vec::new();
    for turns in [1_000, 8_000] {
        let work = replay(SEED, turns);
        for store in ["memory", "sqlite"] {
            let dir = tempfile::tempdir().expect("temp dir");
            let measured = match store {
                "memory" => runtime.block_on(measure(memory(InMemoryStore::new()), &work)),
                _ => {
                    let sqlite = SqliteStore::open(dir.path().join("replay.db")).expect("open");
                    runtime.block_on(measure(memory(sqlite), &work))
                }
            };
            let Measured { latencies, replaying: total, appending, compactions, searches, found, indexing } =
                measured;
            recall_rows.push(format!(
                "{store:<10} {turns:>6} {:>11.1} {:>9} {found:>6} {:>14.1} {:>14.1} {:>15.1} {:>9.2}",
                indexing.as_secs_f64() * 1e3,
                searches.len(),
                micros(percentile(&searches, 0.5)),
                micros(percentile(&searches, 0.99)),
                micros(percentile(&latencies[latencies.len() - 100..], 0.5)),
                percentile(&searches, 0.5).as_secs_f64()
                    / percentile(&latencies[latencies.len() - 100..], 0.5).as_secs_f64().max(1e-9),
            ));
            let (first, last) = (&latencies[..100], &latencies[latencies.len() - 100..]);
            let (p50_first, p50_last) = (percentile(first, 0.5), percentile(last, 0.5));
            let loading: Duration = latencies.iter().sum();
            println!(
                "{store:<10} {turns:>6} {compactions:>12} {:>10.1} {:>11.1} {:>10.1} {:>14.1} {:>14.1} {:>13.1} {:>13.1} {:>9.2}",
                total.as_secs_f64() * 1e3,
                appending.as_secs_f64() * 1e3,
                loading.as_secs_f64() * 1e3,
                micros(p50_first),
                micros(p50_last),
                micros(percentile(first, 0.99)),
                micros(percentile(last, 0.99)),
                p50_last.as_secs_f64() / p50_first.as_secs_f64().max(1e-9),
            );
        }
    }
    println!();
    println!("recall searches after the replay (below the final watermark, at most 8 passages each;");
    println!("the first search indexes the whole history and is timed apart as 'index ms')");
    println!(
        "{:<10} {:>6} {:>11} {:>9} {:>6} {:>14} {:>14} {:>15} {:>9}",
        "store",
        "turns",
        "index ms",
        "searches",
        "found",
        "p50 search µs",
        "p99 search µs",
        "p50 last load µs",
        "search/load"
    );
    for row in recall_rows {
        println!("{row}");
    }
    println!();
}

#[divan::bench(args = [1_000, 8_000], sample_count = 3, sample_size = 1)]
fn replay_in_memory(bencher: Bencher<'_, '_>, turns: usize) {
    let work = replay(SEED, turns);
    let runtime = runtime();
    bencher
        .with_inputs(|| memory(InMemoryStore::new()))
        .bench_local_values(|memory| runtime.block_on(run(&memory, &work)));
}

#[divan::bench(args = [1_000, 8_000], sample_count = 3, sample_size = 1)]
fn replay_sqlite(bencher: Bencher<'_, '_>, turns: usize) {
    let work = replay(SEED, turns);
    let runtime = runtime();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = 0;
    bencher
        .with_inputs(|| {
            files += 1;
            memory(SqliteStore::open(dir.path().join(format!("replay-{files}.db"))).expect("open"))
        })
        .bench_local_values(|memory| runtime.block_on(run(&memory, &work)));
}

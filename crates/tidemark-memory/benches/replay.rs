//! The replay benchmark: an agent appends four messages per turn and loads its prompt once, for thousands of turns.
//!
//! Memory under test: a store (in memory or an SQLite file), a `TokenWindow`
//! of 8,000 tokens and a `CompactingMemory` whose compactor caps its artifact
//! at 4 KiB. Before divan's timings, a report pass replays each size once and
//! prints the total time, the p50 and p99 load latency over the first and the
//! last 100 turns, and the ratio of the two p50s: a flat cost as the
//! conversation grows shows as a ratio near 1.

use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use divan::Bencher;
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message};
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

/// Replay on `memory` and count the compactions (every one writes the state once).
async fn measure<S: ConversationStore>(
    memory: CompactingMemory<S, TokenWindow<HeuristicCounter>, ConcatCompactor>,
    work: &[Vec<Message>],
) -> (Vec<Duration>, Duration, u64) {
    let (latencies, appending) = run(&memory, work).await;
    let id = ConversationId::new("replay").expect("valid id");
    let compactions = memory.get_ref().state(&id).await.expect("state").generation;
    (latencies, appending, compactions)
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
    for turns in [1_000, 8_000] {
        let work = replay(SEED, turns);
        for store in ["memory", "sqlite"] {
            let dir = tempfile::tempdir().expect("temp dir");
            let started = Instant::now();
            let (latencies, appending, compactions) = match store {
                "memory" => runtime.block_on(measure(memory(InMemoryStore::new()), &work)),
                _ => {
                    let sqlite = SqliteStore::open(dir.path().join("replay.db")).expect("open");
                    runtime.block_on(measure(memory(sqlite), &work))
                }
            };
            let total = started.elapsed();
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

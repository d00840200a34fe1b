//! Concurrency: 1,000 conversations loaded from 1, 2 and 8 tasks at once, in loads per second.
//!
//! The conversations are filled first (a few replayed turns each, compacted
//! where the window demands it); then each task loads its share of them, every
//! conversation several times, on a multi-threaded runtime with one worker per
//! available core. One task is the baseline the others are compared with.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tidemark_core::{ConversationId, ConversationMemory, ConversationStore};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, SqliteStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

use crate::report::{Section, Table};

const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;
const TASKS: [usize; 3] = [1, 2, 8];

type Memory<S> = CompactingMemory<Arc<S>, TokenWindow<HeuristicCounter>, ConcatCompactor>;

fn memory<S: ConversationStore>(store: Arc<S>) -> Result<Memory<S>, String> {
    let budget = NonZeroU32::new(BUDGET).ok_or("zero budget")?;
    Ok(CompactingMemory::new(
        store,
        TokenWindow::new(budget, HeuristicCounter::default()),
        ConcatCompactor::capped(CAP),
    ))
}

async fn fill<S: ConversationStore>(
    memory: &Memory<S>,
    ids: &[ConversationId],
    turns: usize,
) -> Result<(), String> {
    for (index, id) in ids.iter().enumerate() {
        for messages in replay(index as u64, turns) {
            memory.append(id, messages).await.map_err(|e| format!("append: {e}"))?;
        }
        memory.load(id).await.map_err(|e| format!("load: {e}"))?;
    }
    Ok(())
}

/// Loads every conversation `rounds` times from `tasks` tasks; returns the wall time.
async fn loads<S: ConversationStore + 'static>(
    memory: Arc<Memory<S>>,
    ids: Arc<Vec<ConversationId>>,
    tasks: usize,
    rounds: usize,
) -> Result<Duration, String> {
    let started = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|task| {
            let (memory, ids) = (Arc::clone(&memory), Arc::clone(&ids));
            tokio::spawn(async move {
                for _ in 0..rounds {
                    for id in ids.iter().skip(task).step_by(tasks) {
                        std::hint::black_box(memory.load(id).await.map_err(|e| format!("load: {e}"))?);
                    }
                }
                Ok::<(), String>(())
            })
        })
        .collect();
    for handle in handles {
        handle.await.map_err(|e| format!("a load task failed: {e}"))??;
    }
    Ok(started.elapsed())
}

async fn measure<S: ConversationStore + 'static>(
    store: S,
    conversations: usize,
    turns: usize,
    rounds: usize,
) -> Result<Vec<(usize, f64)>, String> {
    let memory = Arc::new(memory(Arc::new(store))?);
    let ids: Vec<ConversationId> = (0..conversations)
        .map(|i| ConversationId::new(format!("conversation-{i:04}")).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    fill(&memory, &ids, turns).await?;
    let ids = Arc::new(ids);
    let mut rates = Vec::new();
    for tasks in TASKS {
        let elapsed = loads(Arc::clone(&memory), Arc::clone(&ids), tasks, rounds).await?;
        let total = (conversations * rounds) as f64;
        rates.push((tasks, total / elapsed.as_secs_f64().max(1e-12)));
    }
    Ok(rates)
}

/// Runs the concurrency benchmark on both stores.
pub fn run(smoke: bool) -> Result<Section, String> {
    let (conversations, turns, rounds) = if smoke { (20, 3, 2) } else { (1_000, 12, 5) };
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let sqlite = SqliteStore::open(dir.path().join("concurrency.db")).map_err(|e| e.to_string())?;
    let results = [
        ("in memory", runtime.block_on(measure(InMemoryStore::new(), conversations, turns, rounds))?),
        ("SQLite file", runtime.block_on(measure(sqlite, conversations, turns, rounds))?),
    ];
    let mut table = Table::new(&["store", "tasks", "loads/s", "vs 1 task"]);
    for (store, rates) in results {
        let baseline = rates.first().map_or(1.0, |(_, rate)| *rate);
        for (tasks, rate) in rates {
            table.row(vec![
                store.to_owned(),
                tasks.to_string(),
                format!("{rate:.0}"),
                format!("{:.2}×", rate / baseline.max(1e-12)),
            ]);
        }
    }
    Ok(Section {
        title: "Concurrency".to_owned(),
        intro: format!(
            "{conversations} conversations of {turns} replayed turns each, behind one `CompactingMemory` \
             ({BUDGET}-token window); each conversation loaded {rounds} times, the conversations shared out \
             among the tasks, on a multi-threaded runtime with {workers} worker thread(s), one per available core."
        ),
        table,
        targets: Vec::new(),
        notes: vec!["The issue sets no target here; the figures show how loads scale with tasks.".to_owned()],
    })
}

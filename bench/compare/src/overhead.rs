//! Compaction overhead: a `CompactingMemory` load with nothing new to compact against a `PolicyMemory` load of the same window.
//!
//! Both memories share one store, filled by replaying the workload through
//! the compacting memory, so they read the same summary and the same window;
//! the benchmark checks that they return the same prompt before timing them.
//! Rounds alternate which memory goes first, and the ratio is taken between
//! the median per-load times.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tidemark_core::{ConversationId, ConversationMemory, ConversationStore};
use tidemark_memory::{
    CompactingMemory, HeuristicCounter, InMemoryStore, PolicyMemory, SqliteStore, TokenWindow,
};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

use crate::report::{Section, Table, Target};

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;

fn window() -> Result<TokenWindow<HeuristicCounter>, String> {
    let budget = NonZeroU32::new(BUDGET).ok_or("zero budget")?;
    Ok(TokenWindow::new(budget, HeuristicCounter::default()))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

async fn time_loads<M: ConversationMemory>(
    memory: &M,
    id: &ConversationId,
    loads: usize,
) -> Result<Duration, String> {
    let started = Instant::now();
    for _ in 0..loads {
        std::hint::black_box(memory.load(id).await.map_err(|e| format!("load: {e}"))?);
    }
    Ok(started.elapsed() / loads as u32)
}

/// Fills `store`, then times both memories over it: (policy per load, compacting per load).
async fn measure<S: ConversationStore>(
    store: Arc<S>,
    turns: usize,
    rounds: usize,
    loads: usize,
) -> Result<(Duration, Duration), String> {
    let id = ConversationId::new("overhead").map_err(|e| e.to_string())?;
    let compacting = CompactingMemory::new(Arc::clone(&store), window()?, ConcatCompactor::capped(CAP));
    for messages in replay(SEED, turns) {
        compacting.append(&id, messages).await.map_err(|e| format!("append: {e}"))?;
        compacting.load(&id).await.map_err(|e| format!("load: {e}"))?;
    }
    let policy = PolicyMemory::new(Arc::clone(&store), window()?);
    let (a, b) = (
        compacting.load(&id).await.map_err(|e| e.to_string())?,
        policy.load(&id).await.map_err(|e| e.to_string())?,
    );
    if a != b {
        return Err(format!(
            "the two memories disagree on the prompt ({} against {} messages), so they would not be loading the same window",
            a.len(),
            b.len()
        ));
    }
    let (mut plain, mut compact) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        if round % 2 == 0 {
            plain.push(time_loads(&policy, &id, loads).await?);
            compact.push(time_loads(&compacting, &id, loads).await?);
        } else {
            compact.push(time_loads(&compacting, &id, loads).await?);
            plain.push(time_loads(&policy, &id, loads).await?);
        }
    }
    Ok((median(plain), median(compact)))
}

/// Runs the overhead benchmark on both stores.
pub fn run(smoke: bool) -> Result<Section, String> {
    let (turns, rounds, loads) = if smoke { (50, 3, 20) } else { (2_000, 21, 1_000) };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let sqlite = SqliteStore::open(dir.path().join("overhead.db")).map_err(|e| e.to_string())?;
    let results = [
        ("in memory", runtime.block_on(measure(Arc::new(InMemoryStore::new()), turns, rounds, loads))?),
        ("SQLite file", runtime.block_on(measure(Arc::new(sqlite), turns, rounds, loads))?),
    ];
    let mut table =
        Table::new(&["store", "PolicyMemory load (µs)", "CompactingMemory load (µs)", "compacting / policy"]);
    let mut targets = Vec::new();
    for (store, (plain, compact)) in results {
        let ratio = compact.as_secs_f64() / plain.as_secs_f64().max(1e-12);
        table.row(vec![
            store.to_owned(),
            format!("{:.2}", plain.as_secs_f64() * 1e6),
            format!("{:.2}", compact.as_secs_f64() * 1e6),
            format!("{ratio:.3}×"),
        ]);
        if !smoke {
            targets.push(Target {
                goal: format!("compaction overhead ({store}) ≤ 1.10× a plain policy load"),
                measured: format!("{ratio:.3}×"),
                met: ratio <= 1.10,
            });
        }
    }
    Ok(Section {
        title: "Compaction overhead".to_owned(),
        intro: format!(
            "A conversation of {turns} replayed turns, already compacted, loaded through `CompactingMemory` (nothing \
             new to compact) and through `PolicyMemory` over the same store and the same {BUDGET}-token window; both \
             return the same prompt (checked). Median per-load time over {rounds} alternating rounds of {loads} loads."
        ),
        table,
        targets,
        notes: Vec::new(),
    })
}

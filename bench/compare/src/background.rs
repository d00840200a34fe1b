//! Background compaction: load latency with a summarizer that takes two seconds, beside a waiting memory whose summarizer takes none.
//!
//! The replay workload goes through a `BackgroundMemory` on an SQLite file
//! whose summarizer sleeps two seconds per call (on Tokio's real clock), with
//! a short pause per turn for the model's answer. Every load is timed; every
//! prompt is counted against the budget and validated; at the end the
//! pending compactions are flushed and the messages the summarizer saw are
//! compared, as a multiset, with the stored messages below the watermark:
//! each evicted message summarized exactly once. The baseline is the same
//! replay through a `CompactingMemory` that waits for a summarizer taking no
//! time, in the same run.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tidemark_core::{
    CompactionError, CompactionEvent, CompactionObserver, Compactor, ConversationId, ConversationMemory,
    ConversationStore, Message, Outcome, Seq, SeqRange, TokenCounter, validate,
};
use tidemark_memory::{CompactingMemory, HeuristicCounter, SqliteStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

use crate::report::{Section, Table, Target};

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;

/// A capped concat summarizer that takes `delay` per call and records the line of every message it is given.
#[derive(Clone)]
struct Slow {
    delay: Duration,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Compactor for Slow {
    type Artifact = Vec<String>;

    fn name(&self) -> &str {
        "slow-concat"
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Vec<String>>,
        hint: Option<&str>,
    ) -> Result<Vec<String>, CompactionError> {
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        self.seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend(evicted.iter().map(ConcatCompactor::line));
        ConcatCompactor::capped(CAP).compact(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &Vec<String>) -> Message {
        ConcatCompactor::capped(CAP).render(artifact)
    }
}

/// Counts the outcomes of the events it hears.
#[derive(Clone, Default)]
struct Outcomes(Arc<Mutex<HashMap<Outcome, usize>>>);

impl Outcomes {
    fn count(&self, outcome: Outcome) -> usize {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&outcome).copied().unwrap_or(0)
    }
}

impl CompactionObserver for Outcomes {
    fn on_event(&self, event: &CompactionEvent) {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).entry(event.outcome).or_default() +=
            1;
    }
}

/// What one replay measured.
struct Run {
    latencies: Vec<Duration>,
    over_budget: usize,
    invalid: usize,
    stale: usize,
    summaries: usize,
    /// Whether the summarizer saw exactly the stored messages below the watermark, each once.
    exactly_once: bool,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

/// Appends and loads every turn through `memory`, timing each load: (sorted latencies, prompts over budget, invalid prompts).
async fn replay_through<M: ConversationMemory>(
    memory: &M,
    id: &ConversationId,
    turns: usize,
    think: Duration,
) -> Result<(Vec<Duration>, usize, usize), String> {
    let counter = HeuristicCounter::default();
    let (mut latencies, mut over_budget, mut invalid) = (Vec::with_capacity(turns), 0, 0);
    for messages in replay(SEED, turns) {
        memory.append(id, messages).await.map_err(|e| format!("append: {e}"))?;
        let started = Instant::now();
        let prompt = memory.load(id).await.map_err(|e| format!("load: {e}"))?;
        latencies.push(started.elapsed());
        over_budget += usize::from(counter.count_prompt(&prompt) > BUDGET);
        invalid += usize::from(validate(&prompt).is_err());
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
    }
    latencies.sort_unstable();
    Ok((latencies, over_budget, invalid))
}

/// Replays `turns` turns through a memory on a fresh SQLite file, in the background or waiting.
async fn measure(turns: usize, background: bool, delay: Duration, think: Duration) -> Result<Run, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let store = Arc::new(SqliteStore::open(dir.path().join("background.db")).map_err(|e| e.to_string())?);
    let window = TokenWindow::new(NonZeroU32::new(BUDGET).ok_or("zero budget")?, HeuristicCounter::default());
    let slow = Slow { delay, seen: Arc::default() };
    let outcomes = Outcomes::default();
    let compacting =
        CompactingMemory::new(Arc::clone(&store), window, slow.clone()).with_observer(outcomes.clone());
    let id = ConversationId::new("background").map_err(|e| e.to_string())?;
    let (latencies, over_budget, invalid) = if background {
        let memory = compacting.in_background();
        let replayed = replay_through(&memory, &id, turns, think).await?;
        memory.flush().await;
        replayed
    } else {
        replay_through(&compacting, &id, turns, think).await?
    };

    let state = store.state(&id).await.map_err(|e| e.to_string())?;
    let stored = store.load_range(&id, SeqRange::from(Seq::ZERO)).await.map_err(|e| e.to_string())?;
    let mut expected: Vec<String> = stored
        .iter()
        .filter(|message| message.seq < state.watermark && !state.retained.contains(&message.seq))
        .map(|message| ConcatCompactor::line(&message.message))
        .collect();
    let mut seen = slow.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
    expected.sort_unstable();
    seen.sort_unstable();
    Ok(Run {
        latencies,
        over_budget,
        invalid,
        stale: outcomes.count(Outcome::Deferred),
        summaries: outcomes.count(Outcome::Applied),
        exactly_once: expected == seen,
    })
}

/// Runs the background compaction benchmark.
pub fn run(smoke: bool) -> Result<Section, String> {
    let (turns, think) = if smoke { (40, Duration::ZERO) } else { (1_000, Duration::from_millis(20)) };
    let delay = Duration::from_secs(2);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let baseline = runtime.block_on(measure(turns, false, Duration::ZERO, think))?;
    let background = runtime.block_on(measure(turns, true, delay, think))?;

    let mut table = Table::new(&[
        "memory",
        "summarizer",
        "load p50 (ms)",
        "load p99 (ms)",
        "load max (ms)",
        "prompts over budget",
        "invalid prompts",
        "stale loads",
        "summaries written",
        "each evicted message summarized once",
    ]);
    let ms = |duration: Duration| format!("{:.3}", duration.as_secs_f64() * 1e3);
    for (name, summarizer, run) in [
        ("CompactingMemory (waits)", "no delay", &baseline),
        ("BackgroundMemory", "2 s per call", &background),
    ] {
        table.row(vec![
            name.to_owned(),
            summarizer.to_owned(),
            ms(percentile(&run.latencies, 0.5)),
            ms(percentile(&run.latencies, 0.99)),
            ms(run.latencies.last().copied().unwrap_or_default()),
            run.over_budget.to_string(),
            run.invalid.to_string(),
            run.stale.to_string(),
            run.summaries.to_string(),
            if run.exactly_once { "yes" } else { "NO" }.to_owned(),
        ]);
    }
    let p99 = percentile(&background.latencies, 0.99);
    let ratio = p99.as_secs_f64() / percentile(&baseline.latencies, 0.99).as_secs_f64().max(1e-12);
    let mut targets = Vec::new();
    if !smoke {
        targets.push(Target {
            goal: "background load p99 < 5 ms with a 2 s summarizer".to_owned(),
            measured: format!(
                "{} ms ({ratio:.2}× the waiting memory's p99 with an instant summarizer)",
                ms(p99)
            ),
            met: p99 < Duration::from_millis(5),
        });
    }
    targets.push(Target {
        goal: "background: every prompt within budget and valid, every evicted message summarized once"
            .to_owned(),
        measured: format!(
            "{} over budget, {} invalid, exactly once: {}",
            background.over_budget,
            background.invalid,
            if background.exactly_once { "yes" } else { "no" }
        ),
        met: background.over_budget == 0 && background.invalid == 0 && background.exactly_once,
    });
    Ok(Section {
        title: "Background compaction".to_owned(),
        intro: format!(
            "{turns} replayed turns on an SQLite file, a {BUDGET}-token `TokenWindow`, `ConcatCompactor::capped({CAP})` \
             behind a delay, a pause of {} ms per turn for the model's answer, on a two-thread runtime. \
             `BackgroundMemory` with a summarizer that sleeps 2 s per call, beside a `CompactingMemory` that waits \
             for the same summarizer without the delay (the baseline). Only the load is timed.",
            think.as_millis()
        ),
        table,
        targets,
        notes: Vec::new(),
    })
}

//! Background compaction: loads that never wait for the compactor, single flight, failures, clears, cancellation and shutdown, and a property that no message is lost or summarized twice.
//!
//! Every test runs on Tokio's paused clock: a summarizer that takes two
//! seconds sleeps on it, and the compactor's progress is driven by `Notify`
//! gates, never by real time.

mod support;

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use support::{Probe, Watcher, turn};
use tidemark_core::recall::RecallQuery;
use tidemark_core::store::Lease;
use tidemark_core::{
    CompactionError, Compactor, ConversationId, ConversationMemory, ConversationStore, Message, Outcome, Seq,
    SeqRange, TokenCounter, ToolCall, validate,
};
#[cfg(feature = "sqlite")]
use tidemark_memory::SqliteStore;
use tidemark_memory::{
    BackgroundMemory, CompactingMemory, FailureMode, HeuristicCounter, InMemoryStore, Settings,
    SlidingWindow, TokenWindow,
};
use tidemark_testkit::conformance::memory::{self, MemoryConfig};
use tidemark_testkit::reference::ConcatCompactor;
use tokio::sync::Semaphore;
use tokio::time::{Instant, timeout};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn token_window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

type Background<C> = BackgroundMemory<InMemoryStore, TokenWindow<HeuristicCounter>, C, Watcher>;

/// A background memory over a fresh in-memory store with a 3,000-token window, reporting to a watcher.
fn background<C: Compactor>(compactor: C) -> (Background<C>, Watcher) {
    let watcher = Watcher::default();
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(3_000), compactor)
        .with_observer(watcher.clone())
        .in_background();
    (memory, watcher)
}

fn outcomes(watcher: &Watcher) -> Vec<Outcome> {
    watcher.events().iter().map(|event| event.outcome).collect()
}

/// A load that must return without waiting for anything: on the paused clock, a load that waited would let time run to the limit.
async fn quick_load<M: ConversationMemory>(memory: &M, conversation: &ConversationId) -> Vec<Message> {
    timeout(Duration::from_secs(1), memory.load(conversation))
        .await
        .expect("the load does not wait for the compactor")
        .expect("load")
}

/// Wait for every pending compaction; on the paused clock a compaction that can never finish fails the test instead of hanging it.
async fn settle<S, P, C, O>(memory: &BackgroundMemory<S, P, C, O>) {
    timeout(Duration::from_secs(3_600), memory.flush()).await.expect("every pending compaction finishes");
}

#[tokio::test]
async fn background_memories_conform() {
    memory::run(
        || async {
            CompactingMemory::new(InMemoryStore::new(), token_window(600), ConcatCompactor::capped(400))
                .in_background()
        },
        &MemoryConfig::default(),
    )
    .await
    .expect("background memory");
    memory::run(
        || async {
            CompactingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(3), Probe::default())
                .in_background()
        },
        &MemoryConfig::default(),
    )
    .await
    .expect("background memory, sliding window");
}

#[tokio::test(start_paused = true)]
async fn a_load_serves_the_previous_summary_while_the_compactor_runs() {
    let (probe, entered, release) = Probe::gated();
    let (memory, watcher) = background(probe.clone());
    let conversation = id("deferred");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let counter = HeuristicCounter::default();

    let first = quick_load(&memory, &conversation).await;
    validate(&first).expect("a valid prompt");
    assert!(counter.count_prompt(&first) <= 3_000, "within the budget while the summary is pending");
    assert!(!first[0].text().starts_with("Summary"), "no summary was written yet");
    assert_eq!(first.last(), turn(15).last(), "the newest message is served");
    entered.notified().await;
    assert_eq!(memory.pending(), 1);

    // A second load while the compactor is held starts nothing more and says it served a stale summary.
    let second = quick_load(&memory, &conversation).await;
    assert_eq!(second, first);
    assert_eq!(probe.calls(), 1, "one compaction at a time");
    let events = watcher.events();
    assert_eq!(outcomes(&watcher), [Outcome::Deferred, Outcome::Deferred]);
    let newest = Seq(16 * 4 - 1);
    assert!(events.iter().all(|event| event.served_through == Some(newest)), "{events:?}");
    assert!(events[0].tokens_after < events[0].tokens_before);

    release.notify_one();
    settle(&memory).await;
    assert_eq!(memory.pending(), 0);
    assert_eq!(memory.in_flight(), 0);
    let state = memory.get_ref().state(&conversation).await.expect("state");
    let third = quick_load(&memory, &conversation).await;
    assert_eq!(third[0], state.summary.expect("written").message, "the next load serves the new summary");
    assert_eq!(outcomes(&watcher), [Outcome::Deferred, Outcome::Deferred, Outcome::Applied]);
    // Everything below the new watermark went to the compactor once, in order.
    let evicted: Vec<Message> = probe.evicted.lock().expect("lock").concat();
    let all: Vec<Message> = (0..16).flat_map(turn).collect();
    assert_eq!(evicted, all[..usize::try_from(state.watermark.0).expect("small")]);
}

/// A summarizer that takes `delay` on Tokio's clock per call and records every message it is given.
#[derive(Clone)]
struct Slow {
    delay: Duration,
    inner: ConcatCompactor,
    seen: Arc<Mutex<Vec<Message>>>,
    /// When set, each call first takes a permit: the test decides when a call may finish.
    permits: Option<Arc<Semaphore>>,
}

impl Slow {
    fn new(delay: Duration, cap: usize) -> Self {
        Self { delay, inner: ConcatCompactor::capped(cap), seen: Arc::default(), permits: None }
    }

    /// How many times each message text was summarized.
    fn times_seen(&self) -> HashMap<String, usize> {
        let mut times = HashMap::new();
        for message in self.seen.lock().expect("lock").iter() {
            *times.entry(ConcatCompactor::line(message)).or_default() += 1;
        }
        times
    }
}

impl Compactor for Slow {
    type Artifact = Vec<String>;

    fn name(&self) -> &str {
        "slow"
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Vec<String>>,
        hint: Option<&str>,
    ) -> Result<Vec<String>, CompactionError> {
        if let Some(permits) = &self.permits {
            permits.acquire().await.expect("never closed").forget();
        }
        tokio::time::sleep(self.delay).await;
        self.seen.lock().expect("lock").extend_from_slice(evicted);
        self.inner.compact(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &Vec<String>) -> Message {
        self.inner.render(artifact)
    }
}

#[tokio::test(start_paused = true)]
async fn a_two_second_summarizer_never_delays_a_load_over_a_thousand_turns() {
    let budget = 3_000;
    let slow = Slow::new(Duration::from_secs(2), 2_048);
    let (memory, watcher) = background(slow.clone());
    let counter = HeuristicCounter::default();
    let conversation = id("replay");
    let mut appended = Vec::new();
    for i in 0..1_000 {
        let messages = turn(i);
        appended.extend(messages.clone());
        memory.append(&conversation, messages).await.expect("append");
        let started = Instant::now();
        let prompt = memory.load(&conversation).await.expect("load");
        // The paused clock moves only while every task waits on a timer: a
        // load that waited for the summarizer would have taken two seconds.
        assert_eq!(started.elapsed(), Duration::ZERO, "turn {i}: the load waited");
        validate(&prompt).expect("a valid prompt");
        assert!(counter.count_prompt(&prompt) <= budget, "turn {i}: over the budget");
        assert_eq!(prompt.last(), appended.last(), "turn {i}: the newest message is last");
        // The model's answer takes half a second, during which the summarizer works.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    settle(&memory).await;

    let applied = outcomes(&watcher).iter().filter(|outcome| **outcome == Outcome::Applied).count();
    let deferred = watcher.events().iter().filter(|event| event.outcome == Outcome::Deferred).count();
    assert!(applied >= 20, "{applied} summaries written while the agent went on");
    assert!(deferred >= applied, "{deferred} loads served a stale summary for {applied} compactions");
    // Every message below the watermark was summarized exactly once; none above it.
    let state = memory.get_ref().state(&conversation).await.expect("state");
    let times = slow.times_seen();
    for (seq, message) in appended.iter().enumerate() {
        let below = (seq as u64) < state.watermark.0;
        let expected = usize::from(below);
        assert_eq!(times.get(&ConcatCompactor::line(message)).copied().unwrap_or(0), expected, "seq {seq}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_failed_background_compaction_is_reported_and_tried_again() {
    let probe = Probe::default();
    probe.set_failing(true);
    let (memory, watcher) = background(probe.clone());
    let conversation = id("failing");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let stale = quick_load(&memory, &conversation).await;
    settle(&memory).await;
    assert_eq!(outcomes(&watcher), [Outcome::Deferred, Outcome::Failed]);
    assert!(watcher.events()[1].error.is_some());
    assert_eq!(memory.get_ref().state(&conversation).await.expect("state").generation, 0, "nothing written");

    probe.set_failing(false);
    assert_eq!(quick_load(&memory, &conversation).await, stale, "the next load serves as before");
    settle(&memory).await;
    assert_eq!(probe.calls(), 2, "and starts the compaction again");
    assert!(quick_load(&memory, &conversation).await[0].text().starts_with("Summary"));
}

#[tokio::test(start_paused = true)]
async fn a_degraded_background_compaction_is_reported_as_degraded() {
    let probe = Probe::default();
    probe.set_failing(true);
    let watcher = Watcher::default();
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
        .with_observer(watcher.clone())
        .with_failure_mode(FailureMode::Degrade)
        .in_background();
    let conversation = id("degraded");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    quick_load(&memory, &conversation).await;
    settle(&memory).await;
    assert_eq!(outcomes(&watcher), [Outcome::Deferred, Outcome::Degraded]);
}

#[tokio::test(start_paused = true)]
async fn a_clear_during_a_background_compaction_wins() {
    let (probe, entered, release) = Probe::gated();
    let (memory, _watcher) = background(probe.clone());
    let conversation = id("cleared");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    quick_load(&memory, &conversation).await;
    entered.notified().await;
    memory.clear(&conversation).await.expect("clear");
    release.notify_one();
    settle(&memory).await;
    let state = memory.get_ref().state(&conversation).await.expect("state");
    assert!(state.summary.is_none(), "the compaction did not resurrect a summary");
    assert!(quick_load(&memory, &conversation).await.is_empty());
}

#[tokio::test(start_paused = true)]
async fn an_abandoned_compaction_writes_nothing_and_releases_its_lease() {
    let (probe, entered, release) = Probe::gated();
    let (memory, _watcher) = background(probe.clone());
    let conversation = id("abandoned");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    quick_load(&memory, &conversation).await;
    entered.notified().await;
    memory.abandon().await;
    assert_eq!((memory.pending(), memory.in_flight()), (0, 0), "nothing left behind");
    let state = memory.get_ref().state(&conversation).await.expect("state");
    assert_eq!((state.generation, state.summary), (0, None), "nothing was written");
    let lease = memory.get_ref().try_lease(&conversation, "another process", Duration::from_secs(1)).await;
    assert_eq!(lease.expect("try_lease"), Lease::Acquired, "the lease was released");
    memory.get_ref().release_lease(&conversation, "another process").await.expect("release");

    // The next load starts again, and the second compaction sees every evicted message once.
    quick_load(&memory, &conversation).await;
    entered.notified().await;
    release.notify_one();
    settle(&memory).await;
    let batches = probe.evicted.lock().expect("lock").clone();
    assert_eq!(batches.len(), 2);
    assert_eq!(batches[0], batches[1], "the abandoned batch is compacted whole by the next compaction");
}

#[tokio::test(start_paused = true)]
async fn dropping_the_memory_cancels_its_compaction_without_writing() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    // A lease that has expired as soon as it is taken stands for one whose holder died long ago.
    let mut expired = Settings::default();
    expired.lease_ttl = Duration::ZERO;
    let memory = CompactingMemory::new(store.clone(), token_window(3_000), probe.clone())
        .with_settings(expired)
        .in_background();
    let conversation = id("dropped");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    quick_load(&memory, &conversation).await;
    entered.notified().await;
    drop(memory);
    // Even released, the cancelled compaction never gets to write.
    release.notify_one();
    tokio::task::yield_now().await;
    let state = store.state(&conversation).await.expect("state");
    assert_eq!((state.generation, state.summary), (0, None), "nothing was written");

    // A new memory (a restart) takes over the lease and compacts everything once.
    let restarted = CompactingMemory::new(store.clone(), token_window(3_000), Probe::default());
    let prompt = restarted.load(&conversation).await.expect("load");
    assert!(prompt[0].text().starts_with("Summary"));
    assert_eq!(restarted.compactor().calls(), 1);
}

#[tokio::test(start_paused = true)]
async fn two_memories_over_one_store_compact_once_in_the_background() {
    // Two memories over one store stand for two processes: only the store's lease keeps them apart.
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let first = CompactingMemory::new(store.clone(), token_window(3_000), probe.clone()).in_background();
    let second = CompactingMemory::new(store.clone(), token_window(3_000), probe.clone()).in_background();
    let conversation = id("two-processes");
    for i in 0..16 {
        first.append(&conversation, turn(i)).await.expect("append");
    }
    let a = quick_load(&first, &conversation).await;
    entered.notified().await;
    let b = quick_load(&second, &conversation).await;
    assert_eq!(a, b, "both serve the stale window");
    assert_eq!(second.pending(), 1, "the second memory's task waits for the lease");
    release.notify_one();
    settle(&first).await;
    settle(&second).await;
    assert_eq!(probe.calls(), 1, "the second memory found the work done under the lease");
    assert_eq!(quick_load(&first, &conversation).await, quick_load(&second, &conversation).await);
}

#[tokio::test(start_paused = true)]
async fn a_load_within_a_lower_budget_serves_within_it_at_once() {
    let (memory, watcher) = background(Probe::default());
    let conversation = id("within");
    for i in 0..10 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let lower = NonZeroU32::new(1_000).expect("non-zero");
    let prompt = timeout(Duration::from_secs(1), memory.load_within(&conversation, lower))
        .await
        .expect("the load does not wait for the compactor")
        .expect("load within");
    assert!(HeuristicCounter::default().count_prompt(&prompt) <= 1_000);
    validate(&prompt).expect("valid");
    assert_eq!(outcomes(&watcher), [Outcome::Deferred]);
    settle(&memory).await;
    // What the lower budget left out was compacted into the summary the next load serves.
    let state = memory.get_ref().state(&conversation).await.expect("state");
    let first_kept = prompt.iter().find_map(|message| message.text().split(':').next().map(str::to_owned));
    assert!(state.watermark > Seq(0), "compacted up to where the served window started ({first_kept:?})");
    let again = memory.load_within(&conversation, lower).await.expect("load within");
    assert_eq!(again[0], state.summary.expect("written").message);
    assert!(HeuristicCounter::default().count_prompt(&again) <= 1_000);
}

// The only test here that needs a file: the rest run on the in-memory store with or without the `sqlite` feature.
#[cfg(feature = "sqlite")]
#[tokio::test]
async fn a_restarted_background_memory_serves_the_flushed_summary_without_compacting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("agent.db");
    let conversation = id("restart");
    let first = Probe::default();
    {
        let memory = CompactingMemory::new(
            SqliteStore::open(&path).expect("open"),
            token_window(3_000),
            first.clone(),
        )
        .in_background();
        for i in 0..30 {
            memory.append(&conversation, turn(i)).await.expect("append");
            memory.load(&conversation).await.expect("load");
        }
        // The process exits: what is pending is written first.
        settle(&memory).await;
    }
    assert!(first.calls() > 0, "the first process compacted");
    let state = SqliteStore::open(&path).expect("open").state(&conversation).await.expect("state");

    let second = Probe::default();
    let memory =
        CompactingMemory::new(SqliteStore::open(&path).expect("open"), token_window(3_000), second.clone())
            .in_background();
    let prompt = memory.load(&conversation).await.expect("load");
    assert_eq!(prompt[0], state.summary.expect("written").message, "the summary survived the restart");
    assert_eq!(prompt.last(), turn(29).last());
    assert_eq!((second.calls(), memory.pending()), (0, 0), "nothing to compact after a restart");
}

// ---- The property: nothing lost, nothing summarized twice ----

/// One step of a generated session.
#[derive(Clone, Debug)]
enum Step {
    /// Append a turn: a user question and an answer, with a tool exchange in between when `tool`, of `size` characters each.
    Turn { tool: bool, size: usize },
    /// Append a pinned user message.
    Pin,
    /// Load and check the prompt.
    Load,
    /// Let one summarizer call finish.
    Release,
    /// Let the background task run until it waits again.
    Yield,
    /// Let every pending compaction finish, and check that what loads left out is summarized.
    Flush,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (any::<bool>(), 10usize..400).prop_map(|(tool, size)| Step::Turn { tool, size }),
        1 => Just(Step::Pin),
        4 => Just(Step::Load),
        2 => Just(Step::Release),
        2 => Just(Step::Yield),
        1 => Just(Step::Flush),
    ]
}

/// Messages whose text carries `tag`, a word found in no other message.
fn tagged(step: &Step, tag: usize) -> Vec<Message> {
    let filler = |size: usize| "lorem ".repeat(size / 6);
    match *step {
        Step::Turn { tool: false, size } => vec![
            Message::user(format!("tagq{tag} {}", filler(size))),
            Message::assistant(format!("taga{tag} {}", filler(size))),
        ],
        Step::Turn { tool: true, size } => {
            let call = format!("call{tag}");
            vec![
                Message::user(format!("tagq{tag} {}", filler(size))),
                Message::assistant_tool_calls([ToolCall::new(
                    call.clone(),
                    "search",
                    serde_json::json!({"q": format!("tagc{tag}")}),
                )]),
                Message::tool_result(call, format!("tagr{tag} {}", filler(size))),
                Message::assistant(format!("taga{tag} {}", filler(size))),
            ]
        }
        _ => vec![Message::user(format!("tagp{tag} remember this")).pinned()],
    }
}

/// Load, check the prompt (valid, within the budget, the newest message last), and add what a stale load left out to `left_out`.
async fn load_and_check(
    memory: &Background<Slow>,
    watcher: &Watcher,
    appended: &[Message],
    left_out: &mut Vec<Message>,
) -> Result<(), TestCaseError> {
    let conversation = id("session");
    let before = watcher.events().len();
    let prompt = quick_load(memory, &conversation).await;
    prop_assert!(validate(&prompt).is_ok(), "an invalid prompt: {prompt:?}");
    let tokens = HeuristicCounter::default().count_prompt(&prompt);
    prop_assert!(tokens <= BUDGET, "{tokens} tokens over the budget of {BUDGET}");
    prop_assert_eq!(prompt.last(), appended.last());
    if watcher.events()[before..].iter().any(|event| event.outcome == Outcome::Deferred) {
        let watermark = memory.get_ref().state(&conversation).await.expect("state").watermark;
        let stored =
            memory.get_ref().load_range(&conversation, SeqRange::from(watermark)).await.expect("range");
        left_out.extend(stored.iter().map(|s| Message::clone(&s.message)).filter(|m| !prompt.contains(m)));
    }
    Ok(())
}

/// The messages the window holds now: those retained below the watermark and those at or above it.
async fn shown_again(memory: &Background<Slow>, conversation: &ConversationId) -> Vec<Message> {
    let state = memory.get_ref().state(conversation).await.expect("state");
    let stored = memory.get_ref().load_range(conversation, SeqRange::from(Seq::ZERO)).await.expect("range");
    stored
        .iter()
        .filter(|s| s.seq >= state.watermark || state.retained.contains(&s.seq))
        .map(|s| Message::clone(&s.message))
        .collect()
}

/// The budget of the generated sessions.
const BUDGET: u32 = 900;

/// Run `steps` against a background memory and check every prompt, then the end state.
async fn check_session(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let permits = Arc::new(Semaphore::new(0));
    let slow = Slow { permits: Some(Arc::clone(&permits)), ..Slow::new(Duration::from_secs(2), 1_200) };
    let (memory, watcher) = {
        let watcher = Watcher::default();
        let memory = CompactingMemory::new(InMemoryStore::new(), token_window(BUDGET), slow.clone())
            .with_observer(watcher.clone())
            .in_background();
        (memory, watcher)
    };
    let conversation = id("session");
    let mut appended: Vec<Message> = Vec::new();
    let mut left_out: Vec<Message> = Vec::new();
    for (tag, step) in steps.iter().enumerate() {
        match step {
            Step::Turn { .. } | Step::Pin => {
                let messages = tagged(step, tag);
                appended.extend(messages.clone());
                memory.append(&conversation, messages).await.expect("append");
            }
            Step::Load => load_and_check(&memory, &watcher, &appended, &mut left_out).await?,
            Step::Release => permits.add_permits(1),
            Step::Flush => {
                permits.add_permits(1_000);
                settle(&memory).await;
                permits.forget_permits(permits.available_permits());
                let times = slow.times_seen();
                let shown = shown_again(&memory, &conversation).await;
                for message in left_out.iter().filter(|message| !shown.contains(message)) {
                    let line = ConcatCompactor::line(message);
                    prop_assert_eq!(times.get(&line).copied(), Some(1), "left out, not summarized: {}", line);
                }
            }
            Step::Yield => {
                for _ in 0..4 {
                    tokio::task::yield_now().await;
                }
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
        }
    }
    // Let every pending and every later compaction finish, until a load needs none.
    permits.add_permits(1_000);
    settle(&memory).await;
    load_and_check(&memory, &watcher, &appended, &mut left_out).await?;
    settle(&memory).await;

    // Each message is summarized once if it is below the watermark and not retained, never otherwise.
    let state = memory.get_ref().state(&conversation).await.expect("state");
    let stored = memory.get_ref().load_range(&conversation, SeqRange::from(Seq::ZERO)).await.expect("range");
    let times = slow.times_seen();
    for message in &stored {
        let compacted = message.seq < state.watermark && !state.retained.contains(&message.seq);
        let seen = times.get(&ConcatCompactor::line(&message.message)).copied().unwrap_or(0);
        prop_assert_eq!(seen, usize::from(compacted), "seq {} summarized {} times", message.seq.0, seen);
    }
    // A message left out of a prompt while its summary was pending was summarized, and recall finds it,
    // unless the window holds it again (the user's instruction is retained once it fits beside the newest unit).
    let shown = shown_again(&memory, &conversation).await;
    for message in left_out.iter().filter(|message| !shown.contains(message)) {
        let line = ConcatCompactor::line(message);
        prop_assert_eq!(times.get(&line).copied(), Some(1), "left out and never summarized: {}", line);
        let Some(word) = message.text().split_whitespace().next().map(str::to_owned) else {
            continue; // a tool call has no text to recall
        };
        let query = RecallQuery::new(word.clone(), state.watermark, 3);
        let found = memory.get_ref().search_passages(&conversation, &query).await.expect("search");
        prop_assert!(found.iter().any(|passage| passage.text.contains(&word)), "recall misses {}", word);
    }
    prop_assert_eq!((memory.pending(), memory.in_flight()), (0, 0));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_message_is_lost_or_summarized_twice_in_the_background(steps in prop::collection::vec(step(), 1..80)) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime");
        runtime.block_on(check_session(steps))?;
    }
}

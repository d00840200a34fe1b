//! The memory adapters over the in-memory store: conformance, budgets, single flight, cancellation, clears and failures.

mod support;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use support::{HintBehaviour, Probe, Recorder, Watcher, turn};
use tidemark_compaction::{SegmentLimits, Segmented};
use tidemark_core::cache::CachePrices;
use tidemark_core::{
    ConversationId, ConversationMemory, ConversationStore, MemoryError, Message, Outcome, Seq, TokenCounter,
    validate,
};
use tidemark_memory::{
    CachePlan, CompactingMemory, DemotingMemory, FailureMode, HeuristicCounter, InMemoryStore, LastTurns,
    PolicyMemory, SlidingWindow, TokenWindow, WaitMode,
};
use tidemark_testkit::conformance::memory::{self, MemoryConfig};
use tidemark_testkit::conformance::policy::{self as policy_suite, PolicyConfig};
use tidemark_testkit::reference::{ConcatCompactor, KeepAll};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn token_window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

#[test]
fn policies_conform() {
    for n in [1, 3, 10] {
        policy_suite::check(&SlidingWindow::last_messages(n), &PolicyConfig::default().with_cases(1000))
            .unwrap_or_else(|failure| panic!("SlidingWindow({n}): {failure}"));
        policy_suite::check(&LastTurns::new(n), &PolicyConfig::default().with_cases(1000))
            .unwrap_or_else(|failure| panic!("LastTurns({n}): {failure}"));
    }
    for budget in [300, 1500, 6000] {
        let config = PolicyConfig::with_budget(budget).with_cases(1000);
        policy_suite::check(&token_window(budget), &config)
            .unwrap_or_else(|failure| panic!("TokenWindow({budget}): {failure}"));
        let reserved = token_window(budget).with_reserve(budget / 4).expect("valid");
        policy_suite::check(&reserved, &config)
            .unwrap_or_else(|failure| panic!("TokenWindow({budget}) with reserve: {failure}"));
        let strict = token_window(budget).with_low_watermark(100).expect("valid");
        policy_suite::check(&strict, &config)
            .unwrap_or_else(|failure| panic!("TokenWindow({budget}) at 100%: {failure}"));
        // The cache plan never passes the budget and never splits a unit, at any slack or assumed growth.
        for slack in [0.0, CachePlan::DEFAULT_SLACK, 2.0] {
            let plan = CachePlan::new(CachePrices::default()).with_slack(slack).expect("valid slack");
            policy_suite::check(&token_window(budget).with_cache_plan(plan), &config).unwrap_or_else(
                |failure| panic!("TokenWindow({budget}) with a cache plan, slack {slack}: {failure}"),
            );
            let assumed = token_window(budget)
                .with_reserve(budget / 4)
                .expect("valid")
                .with_cache_plan(plan.with_growth(budget / 10));
            policy_suite::check(&assumed, &config).unwrap_or_else(|failure| {
                panic!("TokenWindow({budget}) with a cache plan and assumed growth, slack {slack}: {failure}")
            });
        }
    }
}

#[tokio::test]
async fn adapters_conform() {
    let config = MemoryConfig::default();
    memory::run(|| async { PolicyMemory::new(InMemoryStore::new(), KeepAll) }, &MemoryConfig::lossless())
        .await
        .expect("lossless");
    memory::run(
        || async { PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(4)) },
        &config,
    )
    .await
    .expect("policy memory");
    memory::run(|| async { PolicyMemory::new(InMemoryStore::new(), token_window(400)) }, &config)
        .await
        .expect("token window");
    memory::run(
        || async { DemotingMemory::new(InMemoryStore::new(), LastTurns::new(2), Recorder::default()) },
        &config,
    )
    .await
    .expect("demoting memory");
    memory::run(
        || async {
            CompactingMemory::new(InMemoryStore::new(), token_window(600), ConcatCompactor::capped(400))
        },
        &config,
    )
    .await
    .expect("compacting memory");
    memory::run(
        || async {
            CompactingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(3), Probe::default())
        },
        &config,
    )
    .await
    .expect("compacting memory, sliding window");
    memory::run(
        || async {
            let policy = token_window(600).with_cache_plan(CachePlan::new(CachePrices::default()));
            let compactor =
                Segmented::new(ConcatCompactor::capped(400)).with_limits(SegmentLimits::new(3, 600));
            CompactingMemory::new(InMemoryStore::new(), policy, compactor)
        },
        &config,
    )
    .await
    .expect("compacting memory, cache-aware");
}

#[tokio::test]
async fn compacting_replay_stays_within_budget_and_compacts_rarely() {
    let budget = 2_000;
    let counter = HeuristicCounter::default();
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(budget), Probe::default());
    let conversation = id("replay");
    let mut appended = Vec::new();
    for i in 0..200 {
        let messages = turn(i);
        appended.extend(messages.clone());
        memory.append(&conversation, messages).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        validate(&prompt).expect("the prompt is valid");
        assert_eq!(prompt.last(), appended.last(), "the newest message is last");
        let tokens = counter.count_prompt(&prompt);
        assert!(tokens <= budget, "turn {i}: {tokens} tokens over the budget of {budget}");
    }
    let calls = memory.compactor().calls();
    // Each turn adds about 200 tokens; a cut to 60% frees about 800, so a
    // compaction every few turns, never every turn.
    assert!((10..100).contains(&calls), "{calls} compactions in 200 turns");
    assert_eq!(memory.in_flight(), 0);
}

#[tokio::test]
async fn the_summary_rolls_forward_and_counts_against_the_budget() {
    let counter = HeuristicCounter::default();
    let memory =
        CompactingMemory::new(InMemoryStore::new(), token_window(3_000), ConcatCompactor::capped(4_000));
    let conversation = id("roll");
    let mut generations = Vec::new();
    for i in 0..40 {
        memory.append(&conversation, turn(i)).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        assert!(counter.count_prompt(&prompt) <= 3_000, "turn {i}: summary and window exceed the budget");
        generations.push(memory.get_ref().state(&conversation).await.expect("state").generation);
    }
    assert!(generations.windows(2).all(|g| g[0] <= g[1]));
    let state = memory.get_ref().state(&conversation).await.expect("state");
    let summary = state.summary.expect("compacted by now");
    assert!(state.watermark > Seq(0));
    // The newest evicted turn's closing words are in the summary, the oldest
    // ones were rolled out under the cap, and the cap holds.
    let newest_evicted = (state.watermark.0 / 4 - 1) as usize;
    let text = summary.message.text();
    assert!(text.contains(&format!("Module {newest_evicted} defines")), "{text}");
    assert!(!text.contains("turn 0:"), "the cap rolled the oldest lines out");
    assert!(
        summary.artifact.as_array().is_some_and(|lines| lines
            .iter()
            .filter_map(|l| l.as_str())
            .map(str::len)
            .sum::<usize>()
            <= 4_000)
    );
}

#[tokio::test]
async fn pinned_and_system_messages_outlive_compaction() {
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(800), ConcatCompactor::capped(300));
    let conversation = id("pins");
    let rules = Message::system("Always answer in French.");
    let key = Message::user("The deploy key is in vault path secret/ci/deploy.").pinned();
    memory.append(&conversation, vec![rules.clone(), key.clone()]).await.expect("append");
    for i in 0..40 {
        memory.append(&conversation, turn(i)).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        let position = |m: &Message| prompt.iter().position(|p| p == m);
        let (r, k) = (position(&rules).expect("system kept"), position(&key).expect("pin kept"));
        assert!(r < k, "relative order kept");
    }
}

#[tokio::test]
async fn demoted_messages_reach_the_hook_once_and_in_order() {
    let hook = Recorder::default();
    let memory = DemotingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(4), hook.clone());
    let conversation = id("demote");
    for i in 0..10 {
        memory.append(&conversation, turn(i)).await.expect("append");
        memory.load(&conversation).await.expect("load");
        memory.load(&conversation).await.expect("a second load delivers nothing new");
    }
    let seqs = hook.delivered_seqs();
    assert_eq!(seqs, (0..36).collect::<Vec<u64>>(), "every demoted message once, in order");
    for (conversation_id, range, delivered) in hook.deliveries.lock().expect("lock").iter() {
        assert_eq!(conversation_id, &conversation);
        assert!(delivered.iter().all(|seq| range.contains(Seq(*seq))), "{range} covers {delivered:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_loads_compact_once() {
    let (probe, entered, release) = Probe::gated();
    let memory = Arc::new(CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone()));
    let conversation = id("single-flight");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let loads: Vec<_> = (0..6)
        .map(|_| {
            let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
            tokio::spawn(async move { memory.load(&conversation).await })
        })
        .collect();
    entered.notified().await;
    release.notify_one();
    let mut prompts = Vec::new();
    for load in loads {
        prompts.push(load.await.expect("joined").expect("loaded"));
    }
    assert_eq!(probe.calls(), 1, "one compaction for six concurrent loads");
    assert!(prompts.windows(2).all(|pair| pair[0] == pair[1]), "every load sees the new summary");
    assert_eq!(memory.in_flight(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memories_sharing_a_store_compact_once_through_its_lease() {
    // Two memories over one store stand for two processes: their in-process
    // locks know nothing of each other, so only the store's lease keeps the
    // second from running the compactor again.
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let first = Arc::new(CompactingMemory::new(store.clone(), token_window(3_000), probe.clone()));
    let second = Arc::new(CompactingMemory::new(store.clone(), token_window(3_000), probe.clone()));
    let conversation = id("two-processes");
    for i in 0..16 {
        first.append(&conversation, turn(i)).await.expect("append");
    }
    let holder = {
        let (memory, conversation) = (Arc::clone(&first), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    // The first memory holds the lease and sits in its compactor; the second waits for it.
    let waiter = {
        let (memory, conversation) = (Arc::clone(&second), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    release.notify_one();
    let a = holder.await.expect("joined").expect("loaded");
    let b = waiter.await.expect("joined").expect("loaded");
    assert_eq!(probe.calls(), 1, "one compaction for two memories");
    assert_eq!(a, b, "the waiting memory serves the new summary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_that_does_not_wait_serves_around_another_memorys_lease() {
    let (probe, entered, release) = Probe::gated();
    let store = InMemoryStore::new();
    let first = Arc::new(CompactingMemory::new(store.clone(), token_window(3_000), probe.clone()));
    let impatient = CompactingMemory::new(store.clone(), token_window(3_000), probe.clone())
        .with_wait_mode(WaitMode::ReturnPrevious);
    let conversation = id("lease-impatient");
    for i in 0..16 {
        first.append(&conversation, turn(i)).await.expect("append");
    }
    let holder = {
        let (memory, conversation) = (Arc::clone(&first), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    let quick = impatient.load(&conversation).await.expect("load");
    assert!(!quick[0].text().starts_with("Summary"), "no summary exists yet, and none was made");
    release.notify_one();
    holder.await.expect("joined").expect("loaded");
    assert_eq!(probe.calls(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn return_previous_mode_does_not_wait() {
    let (probe, entered, release) = Probe::gated();
    let memory = Arc::new(
        CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
            .with_wait_mode(WaitMode::ReturnPrevious),
    );
    let conversation = id("impatient");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let first = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    // The compactor is held at its gate; this load must not wait for it.
    let quick = memory.load(&conversation).await.expect("load");
    assert!(!quick.is_empty());
    assert!(!quick[0].text().starts_with("Summary"), "no summary exists yet");
    release.notify_one();
    first.await.expect("joined").expect("loaded");
    assert_eq!(probe.calls(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_load_releases_the_gate() {
    let (probe, entered, release) = Probe::gated();
    let memory = Arc::new(CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone()));
    let conversation = id("cancelled");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let doomed = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    doomed.abort();
    assert!(doomed.await.expect_err("aborted").is_cancelled());
    assert_eq!(memory.in_flight(), 0, "no lock left behind");
    assert_eq!(
        memory.get_ref().state(&conversation).await.expect("state").generation,
        0,
        "nothing was written"
    );
    // The next load compacts normally (the gate opens at once this time).
    release.notify_one();
    memory.load(&conversation).await.expect("load");
    assert_eq!(probe.calls(), 2);
    assert!(memory.get_ref().state(&conversation).await.expect("state").summary.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clear_during_compaction_wins() {
    let (probe, entered, release) = Probe::gated();
    let memory = Arc::new(CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone()));
    let conversation = id("cleared");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let load = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    memory.clear(&conversation).await.expect("clear");
    release.notify_one();
    let prompt = load.await.expect("joined").expect("loaded");
    assert!(prompt.is_empty(), "the load sees the cleared conversation, got {prompt:?}");
    let state = memory.get_ref().state(&conversation).await.expect("state");
    assert!(state.summary.is_none(), "the old compaction did not resurrect a summary");
    assert!(memory.load(&conversation).await.expect("load").is_empty());
}

async fn failing_compaction(mode: FailureMode) -> (Result<Vec<Message>, MemoryError>, Watcher, u64) {
    let probe = Probe::default();
    let watcher = Watcher::default();
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
        .with_failure_mode(mode)
        .with_observer(watcher.clone());
    let conversation = id("failing");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    probe.set_failing(true);
    let result = memory.load(&conversation).await;
    let state = memory.get_ref().state(&conversation).await.expect("state");
    assert!(state.summary.is_none(), "an error never becomes a summary");
    (result, watcher, state.watermark.0)
}

#[tokio::test]
async fn compactor_failures_propagate_by_default() {
    let (result, watcher, watermark) = failing_compaction(FailureMode::Propagate).await;
    assert!(matches!(result, Err(MemoryError::Compaction(_))), "{result:?}");
    assert_eq!(watermark, 0, "nothing moved");
    let events = watcher.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].outcome, Outcome::Failed);
    assert!(events[0].error.as_deref().is_some_and(|e| e.contains("empty summary")));
}

#[tokio::test]
async fn compactor_failures_degrade_when_asked() {
    let (result, watcher, watermark) = failing_compaction(FailureMode::Degrade).await;
    let prompt = result.expect("degraded, not failed");
    validate(&prompt).expect("valid");
    assert_eq!(prompt.last(), turn(15).last());
    assert_eq!(watermark, 0, "nothing moved; the next load tries again");
    assert_eq!(watcher.events()[0].outcome, Outcome::Degraded);
}

#[tokio::test]
async fn hook_failures_under_both_modes() {
    for mode in [FailureMode::Propagate, FailureMode::Degrade] {
        let hook = Recorder::default();
        hook.fail.store(true, Ordering::SeqCst);
        let memory = DemotingMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(4), hook.clone())
            .with_failure_mode(mode);
        let conversation = id("hook-fails");
        memory.append(&conversation, turn(0)).await.expect("append");
        memory.append(&conversation, turn(1)).await.expect("append");
        let result = memory.load(&conversation).await;
        match mode {
            FailureMode::Propagate => assert!(matches!(result, Err(MemoryError::Hook(_))), "{result:?}"),
            _ => assert_eq!(result.expect("degraded").len(), 4),
        }
        let state = memory.get_ref().state(&conversation).await.expect("state");
        assert_eq!(state.watermark, Seq(0), "undelivered messages stay");
        // Once the hook recovers, the same messages are delivered.
        hook.fail.store(false, Ordering::SeqCst);
        memory.load(&conversation).await.expect("load");
        assert_eq!(hook.delivered_seqs(), vec![0, 1, 2, 3]);
    }
}

#[tokio::test]
async fn the_observer_hint_reaches_the_compactor() {
    let probe = Probe::default();
    let watcher = Watcher::default();
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
        .with_observer(watcher.clone());
    let conversation = id("hinted");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    memory.load(&conversation).await.expect("load");
    let seen = watcher.seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 1);
    let hints = probe.hints.lock().expect("lock").clone();
    assert_eq!(hints, vec![Some(format!("{} messages evicted", seen[0].len()))]);
    assert_eq!(watcher.events()[0].outcome, Outcome::Applied);
}

#[tokio::test(start_paused = true)]
async fn a_failing_or_hanging_observer_never_blocks_compaction() {
    for behaviour in [HintBehaviour::Fail, HintBehaviour::Hang] {
        let probe = Probe::default();
        let watcher = Watcher { behaviour, ..Watcher::default() };
        let memory = CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
            .with_observer(watcher.clone());
        let conversation = id("observer");
        for i in 0..16 {
            memory.append(&conversation, turn(i)).await.expect("append");
        }
        memory.load(&conversation).await.expect("load");
        assert_eq!(probe.hints.lock().expect("lock").clone(), vec![None]);
        let event = &watcher.events()[0];
        assert_eq!(event.outcome, Outcome::Applied);
        assert!(event.observer_error.is_some(), "the event records the observer's failure");
    }
}

#[tokio::test]
async fn invalid_appends_are_rejected_whole() {
    let memory = PolicyMemory::new(InMemoryStore::new(), KeepAll);
    let conversation = id("invalid");
    let orphan = vec![Message::user("hi"), Message::tool_result("nobody", "result")];
    assert!(matches!(memory.append(&conversation, orphan).await, Err(MemoryError::InvalidHistory(_))));
    assert!(memory.load(&conversation).await.expect("load").is_empty(), "nothing of the batch was stored");
    // Results may arrive in a later append than their call.
    memory.append(&conversation, turn(0)[..2].to_vec()).await.expect("the call");
    memory.append(&conversation, turn(0)[2..].to_vec()).await.expect("its result");
    validate(&memory.load(&conversation).await.expect("load")).expect("valid");
}

/// A store that counts how many messages each read returns.
struct Counting {
    inner: InMemoryStore,
    read: std::sync::atomic::AtomicUsize,
}

impl ConversationStore for Counting {
    async fn append(
        &self,
        c: &ConversationId,
        m: Vec<tidemark_core::NewMessage>,
    ) -> Result<tidemark_core::SeqRange, tidemark_core::StoreError> {
        self.inner.append(c, m).await
    }
    async fn load_range(
        &self,
        c: &ConversationId,
        r: tidemark_core::SeqRange,
    ) -> Result<Vec<tidemark_core::StoredMessage>, tidemark_core::StoreError> {
        let loaded = self.inner.load_range(c, r).await?;
        self.read.fetch_add(loaded.len(), Ordering::SeqCst);
        Ok(loaded)
    }
    async fn load_seqs(
        &self,
        c: &ConversationId,
        s: &[Seq],
    ) -> Result<Vec<tidemark_core::StoredMessage>, tidemark_core::StoreError> {
        let loaded = self.inner.load_seqs(c, s).await?;
        self.read.fetch_add(loaded.len(), Ordering::SeqCst);
        Ok(loaded)
    }
    async fn stats(
        &self,
        c: &ConversationId,
    ) -> Result<tidemark_core::store::ConversationStats, tidemark_core::StoreError> {
        self.inner.stats(c).await
    }
    async fn clear(&self, c: &ConversationId) -> Result<(), tidemark_core::StoreError> {
        self.inner.clear(c).await
    }
    async fn state(
        &self,
        c: &ConversationId,
    ) -> Result<tidemark_core::CompactionState, tidemark_core::StoreError> {
        self.inner.state(c).await
    }
    async fn save_state(
        &self,
        c: &ConversationId,
        g: u64,
        s: tidemark_core::CompactionState,
    ) -> Result<tidemark_core::CompactionState, tidemark_core::StoreError> {
        self.inner.save_state(c, g, s).await
    }
    async fn prune(&self, c: &ConversationId) -> Result<u64, tidemark_core::StoreError> {
        self.inner.prune(c).await
    }
    async fn fork(
        &self,
        source: &ConversationId,
        at: tidemark_core::Seq,
        target: &ConversationId,
    ) -> Result<tidemark_core::CompactionState, tidemark_core::StoreError> {
        self.inner.fork(source, at, target).await
    }
    async fn epochs(
        &self,
        c: &ConversationId,
    ) -> Result<Vec<tidemark_core::history::Epoch>, tidemark_core::StoreError> {
        self.inner.epochs(c).await
    }
    async fn restore_state(
        &self,
        c: &ConversationId,
        expected: u64,
        target: Option<u64>,
    ) -> Result<tidemark_core::CompactionState, tidemark_core::StoreError> {
        self.inner.restore_state(c, expected, target).await
    }
    async fn conversations(&self) -> Result<Vec<ConversationId>, tidemark_core::StoreError> {
        self.inner.conversations().await
    }
    async fn try_lease(
        &self,
        c: &ConversationId,
        holder: &str,
        ttl: std::time::Duration,
    ) -> Result<tidemark_core::Lease, tidemark_core::StoreError> {
        self.inner.try_lease(c, holder, ttl).await
    }
    async fn release_lease(&self, c: &ConversationId, holder: &str) -> Result<(), tidemark_core::StoreError> {
        self.inner.release_lease(c, holder).await
    }

    async fn search_passages(
        &self,
        c: &ConversationId,
        query: &tidemark_core::RecallQuery,
    ) -> Result<Vec<tidemark_core::Passage>, tidemark_core::StoreError> {
        self.inner.search_passages(c, query).await
    }
    async fn calibration(
        &self,
        c: &ConversationId,
    ) -> Result<tidemark_core::Calibration, tidemark_core::StoreError> {
        self.inner.calibration(c).await
    }
    async fn save_calibration(
        &self,
        c: &ConversationId,
        calibration: tidemark_core::Calibration,
    ) -> Result<(), tidemark_core::StoreError> {
        self.inner.save_calibration(c, calibration).await
    }
    async fn set_user(
        &self,
        c: &ConversationId,
        user: &ConversationId,
    ) -> Result<(), tidemark_core::StoreError> {
        self.inner.set_user(c, user).await
    }
    async fn user_conversations(
        &self,
        user: &ConversationId,
    ) -> Result<Vec<ConversationId>, tidemark_core::StoreError> {
        self.inner.user_conversations(user).await
    }
}

#[tokio::test]
async fn a_load_reads_the_window_not_the_history() {
    let store = Counting { inner: InMemoryStore::new(), read: std::sync::atomic::AtomicUsize::new(0) };
    let memory = CompactingMemory::new(store, token_window(3_000), Probe::default());
    let conversation = id("cost");
    let (mut per_load, mut previous) = (Vec::new(), 0);
    for i in 0..400 {
        memory.append(&conversation, turn(i)).await.expect("append");
        let before = memory.get_ref().read.load(Ordering::SeqCst);
        let prompt = memory.load(&conversation).await.expect("load");
        let read = memory.get_ref().read.load(Ordering::SeqCst) - before;
        // The window is the previous prompt plus the four new messages. A load
        // reads it once: a compacting load reads it before deciding, then only
        // the state under the lease (the messages again only if another load
        // moved the state), and a second compaction round reads nothing.
        let window = previous + 4;
        assert!(read <= window, "turn {i}: read {read} messages for a window of {window}");
        per_load.push(read);
        previous = prompt.len();
    }
    let early = per_load[50..100].iter().max().copied().unwrap_or(0);
    let late = per_load[350..400].iter().max().copied().unwrap_or(0);
    assert!(late <= early + 8, "reads grew with the conversation: {early} early, {late} late");
}

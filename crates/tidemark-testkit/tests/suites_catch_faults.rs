//! Each conformance suite rejects an implementation with a known fault, naming the check that caught it: a suite that cannot fail proves nothing.

use std::time::Duration;

use futures::executor::block_on;
use tidemark_core::history::Epoch;
use tidemark_core::store::ConversationStats;
use tidemark_core::{
    Calibration, CompactionError, CompactionState, Compactor, ConversationId, ConversationStore, Lease,
    MemoryPolicy, Message, NewMessage, Passage, RecallQuery, Role, Selection, Seq, SeqRange, StoreError,
    StoredMessage, Window, units,
};
use tidemark_testkit::conformance::compactor::CompactorConfig;
use tidemark_testkit::conformance::memory::MemoryConfig;
use tidemark_testkit::conformance::policy::PolicyConfig;
use tidemark_testkit::conformance::{compactor, memory, policy, store};
use tidemark_testkit::reference::{KeepAll, LastUnits, ReferenceMemory, ReferenceStore};

/// One way to break the reference store.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// `clear` removes the messages but keeps the summary.
    KeepsSummaryOnClear,
    /// `save_state` ignores the expected generation.
    IgnoresGeneration,
    /// `prune` also deletes retained messages.
    PrunesRetained,
    /// `load_range` returns messages newest first.
    LoadsReversed,
    /// `try_lease` grants every claim, as a store written for one process might.
    GrantsEveryLease,
    /// `search_passages` searches every message, the ones at or above `below` too.
    SearchesAboveTheMark,
    /// `clear` forgets the messages and the state but keeps the calibration.
    KeepsCalibrationOnClear,
    /// `user_conversations` lists the oldest assignment first.
    ListsUsersOldestFirst,
    /// `restore_state` restores the state an undo asks for but keeps the newer summary.
    RestoresWithoutSummary,
    /// `fork` copies the whole source, not only the messages before its point.
    ForksEverything,
}

struct Faulty {
    inner: ReferenceStore,
    fault: Fault,
}

impl ConversationStore for Faulty {
    async fn append(&self, c: &ConversationId, m: Vec<NewMessage>) -> Result<SeqRange, StoreError> {
        self.inner.append(c, m).await
    }

    async fn load_range(&self, c: &ConversationId, r: SeqRange) -> Result<Vec<StoredMessage>, StoreError> {
        let mut loaded = self.inner.load_range(c, r).await?;
        if let Fault::LoadsReversed = self.fault {
            loaded.reverse();
        }
        Ok(loaded)
    }

    async fn load_seqs(&self, c: &ConversationId, s: &[Seq]) -> Result<Vec<StoredMessage>, StoreError> {
        self.inner.load_seqs(c, s).await
    }

    async fn stats(&self, c: &ConversationId) -> Result<ConversationStats, StoreError> {
        self.inner.stats(c).await
    }

    async fn clear(&self, c: &ConversationId) -> Result<(), StoreError> {
        let before = self.inner.state(c).await?;
        let calibration = self.inner.calibration(c).await?;
        self.inner.clear(c).await?;
        if let Fault::KeepsCalibrationOnClear = self.fault {
            self.inner.save_calibration(c, calibration).await?;
        }
        if let Fault::KeepsSummaryOnClear = self.fault {
            let cleared = self.inner.state(c).await?;
            let kept = CompactionState::new(cleared.watermark, Vec::new(), before.summary);
            self.inner.save_state(c, cleared.generation, kept).await?;
        }
        Ok(())
    }

    async fn state(&self, c: &ConversationId) -> Result<CompactionState, StoreError> {
        self.inner.state(c).await
    }

    async fn save_state(
        &self,
        c: &ConversationId,
        expected: u64,
        s: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        if let Fault::IgnoresGeneration = self.fault {
            let current = self.inner.state(c).await?;
            return self.inner.save_state(c, current.generation, s).await;
        }
        self.inner.save_state(c, expected, s).await
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        let state = self.inner.fork(source, at, target).await?;
        if let Fault::ForksEverything = self.fault {
            // The fork gets the source's messages after its point too.
            let later = self.inner.load_range(source, SeqRange::from(at)).await?;
            let news = later
                .into_iter()
                .map(|stored| NewMessage::new(Message::clone(&stored.message), stored.tokens));
            self.inner.append(target, news.collect()).await?;
        }
        Ok(state)
    }

    async fn epochs(&self, c: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        self.inner.epochs(c).await
    }

    async fn restore_state(
        &self,
        c: &ConversationId,
        expected: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        let before = self.inner.state(c).await?;
        let mut restored = self.inner.restore_state(c, expected, target).await?;
        if let Fault::RestoresWithoutSummary = self.fault {
            restored.summary = before.summary;
        }
        Ok(restored)
    }

    async fn prune(&self, c: &ConversationId) -> Result<u64, StoreError> {
        if let Fault::PrunesRetained = self.fault {
            let state = self.inner.state(c).await?;
            let mut retained_state = state.clone();
            retained_state.retained.clear();
            // Rewrite the state without retained numbers, prune, and put the list back.
            let stripped = self.inner.save_state(c, state.generation, retained_state).await?;
            let deleted = self.inner.prune(c).await?;
            self.inner
                .save_state(
                    c,
                    stripped.generation,
                    CompactionState::new(state.watermark, state.retained, state.summary),
                )
                .await?;
            return Ok(deleted);
        }
        self.inner.prune(c).await
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        self.inner.conversations().await
    }

    async fn try_lease(&self, c: &ConversationId, holder: &str, ttl: Duration) -> Result<Lease, StoreError> {
        if let Fault::GrantsEveryLease = self.fault {
            return Ok(Lease::Acquired);
        }
        self.inner.try_lease(c, holder, ttl).await
    }

    async fn release_lease(&self, c: &ConversationId, holder: &str) -> Result<(), StoreError> {
        self.inner.release_lease(c, holder).await
    }

    async fn search_passages(
        &self,
        c: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        match self.fault {
            Fault::SearchesAboveTheMark => {
                let everything = RecallQuery::new(query.text.clone(), Seq(u64::MAX), query.limit);
                self.inner.search_passages(c, &everything).await
            }
            _ => self.inner.search_passages(c, query).await,
        }
    }

    async fn calibration(&self, c: &ConversationId) -> Result<Calibration, StoreError> {
        self.inner.calibration(c).await
    }

    async fn save_calibration(&self, c: &ConversationId, calibration: Calibration) -> Result<(), StoreError> {
        self.inner.save_calibration(c, calibration).await
    }

    async fn set_user(&self, c: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        self.inner.set_user(c, user).await
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        let mut held = self.inner.user_conversations(user).await?;
        if let Fault::ListsUsersOldestFirst = self.fault {
            held.reverse();
        }
        Ok(held)
    }
}

fn store_failure(fault: Fault) -> &'static str {
    let result = block_on(store::run(|| async move { Faulty { inner: ReferenceStore::new(), fault } }));
    result.expect_err("a faulty store must fail the suite").check
}

#[test]
fn store_suite_catches_each_fault() {
    assert_eq!(store_failure(Fault::KeepsSummaryOnClear), "clear_keeps_numbering_and_advances_generation");
    assert_eq!(store_failure(Fault::IgnoresGeneration), "save_state_is_compare_and_swap");
    assert_eq!(store_failure(Fault::PrunesRetained), "prune_deletes_only_demoted_messages");
    assert_eq!(store_failure(Fault::LoadsReversed), "load_range_returns_what_was_appended");
    assert_eq!(store_failure(Fault::GrantsEveryLease), "leases_are_exclusive_until_released_or_expired");
    assert_eq!(store_failure(Fault::SearchesAboveTheMark), "recall_stays_below_the_mark");
    assert_eq!(
        store_failure(Fault::KeepsCalibrationOnClear),
        "calibrations_round_trip_apart_from_the_state_and_clear"
    );
    assert_eq!(store_failure(Fault::ListsUsersOldestFirst), "users_list_their_conversations_newest_first");
    assert_eq!(store_failure(Fault::RestoresWithoutSummary), "undo_restores_the_earlier_state");
    assert_eq!(store_failure(Fault::ForksEverything), "a_fork_shares_the_prefix_then_diverges");
}

/// Keeps only the newest unit, retaining nothing before it.
struct NewestUnitOnly;

impl MemoryPolicy for NewestUnitOnly {
    fn select(&self, window: &Window<'_>) -> Selection {
        let cut = units(window.messages()).last().map_or(0, |unit| unit.start());
        Selection::new(window.len(), cut, Vec::new())
    }
}

/// Keeps only the newest message, splitting tool units.
struct NewestMessageOnly;

impl MemoryPolicy for NewestMessageOnly {
    fn select(&self, window: &Window<'_>) -> Selection {
        Selection::new(window.len(), window.len().saturating_sub(1), Vec::new())
    }
}

/// Always demotes the first message, even of its own output.
struct AlwaysDropsFirst;

impl MemoryPolicy for AlwaysDropsFirst {
    fn select(&self, window: &Window<'_>) -> Selection {
        let first = units(window.messages()).next().map_or(0, |unit| unit.end());
        let cut = if units(window.messages()).count() > 1 { first } else { 0 };
        let retained =
            (0..cut).filter(|&i| window.messages()[i].pinned || window.messages()[i].role == Role::System);
        let retained: Vec<usize> = retained.collect();
        // Keep whole units: a pinned message inside the first unit retains the unit.
        let retained = if retained.is_empty() { retained } else { (0..cut).collect() };
        Selection::new(window.len(), cut, retained)
    }
}

#[test]
fn policy_suite_catches_each_fault() {
    let config = PolicyConfig::default();
    let check =
        |result: Result<_, tidemark_testkit::conformance::Failure>| result.expect_err("must fail").detail;
    assert!(check(policy::check(&NewestUnitOnly, &config)).contains("before the cut was demoted"));
    let split = check(policy::check(&NewestMessageOnly, &config));
    assert!(split.contains("splits a tool unit") || split.contains("demoted"), "{split}");
    assert!(check(policy::check(&AlwaysDropsFirst, &config)).contains("not idempotent"));
    assert!(check(policy::check(&KeepAll, &PolicyConfig::with_budget(300))).contains("over the budget"));
    let over = check(policy::check(&LastUnits(4), &PolicyConfig::with_budget(100)));
    assert!(over.contains("over the budget"), "{over}");
}

#[test]
fn memory_suite_catches_a_dropped_pin() {
    let failure = block_on(memory::run(
        || async { ReferenceMemory::with_policy(NewestUnitOnly) },
        &MemoryConfig::default(),
    ))
    .expect_err("must fail");
    assert_eq!(failure.check, "replay_keeps_prompt_shape");
    assert!(failure.detail.contains("pinned or system message was dropped"), "{}", failure.detail);
    let lossy = block_on(memory::run(
        || async { ReferenceMemory::with_policy(LastUnits(2)) },
        &MemoryConfig::lossless(),
    ))
    .expect_err("a windowed memory is not lossless");
    assert!(lossy.detail.contains("lossless memory lost"), "{}", lossy.detail);
}

/// Renders its summary as a tool message.
struct ToolShaped;

impl Compactor for ToolShaped {
    type Artifact = String;

    fn name(&self) -> &str {
        "tool-shaped"
    }

    async fn compact(
        &self,
        _: &ConversationId,
        evicted: &[Message],
        _: Option<&String>,
        _: Option<&str>,
    ) -> Result<String, CompactionError> {
        Ok(format!("{} messages", evicted.len()))
    }

    fn render(&self, artifact: &String) -> Message {
        Message::tool_result("summary", artifact.clone())
    }
}

/// Fails on its second roll.
struct FailsOnCarryOver;

impl Compactor for FailsOnCarryOver {
    type Artifact = u32;

    fn name(&self) -> &str {
        "fails-on-carry-over"
    }

    async fn compact(
        &self,
        _: &ConversationId,
        _: &[Message],
        carry: Option<&u32>,
        _: Option<&str>,
    ) -> Result<u32, CompactionError> {
        match carry {
            None => Ok(1),
            Some(_) => Err(CompactionError::EmptySummary),
        }
    }

    fn render(&self, artifact: &u32) -> Message {
        Message::system(format!("{artifact} rolls"))
    }
}

#[test]
fn compactor_suite_catches_each_fault() {
    let config = CompactorConfig::default();
    let failure = block_on(compactor::run(&ToolShaped, &config)).expect_err("must fail");
    assert_eq!(failure.check, "rendered_summary_is_plain_text");
    let failure = block_on(compactor::run(&FailsOnCarryOver, &config)).expect_err("must fail");
    assert_eq!(failure.check, "compact_succeeds");
    assert!(failure.detail.contains("empty summary"), "{}", failure.detail);
}

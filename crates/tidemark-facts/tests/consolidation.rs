//! Consolidation passes end to end: families merged and rolled back byte for byte, scopes kept apart, faults injected at every stage, and a property that no source text is ever lost.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use tidemark_core::{
    ConversationId, Fact, FactFilter, FactId, FactStore, Merged, NewFact, RunStatus, Scope, StatusFilter,
    Tier,
};
use tidemark_facts::pass::{
    ConsolidationPass, FactPass, Ineligible, MergeWriter, PassError, PassRunner, Planned, SummarizeError,
    TemplateMerge, VerifyError,
};
use tidemark_memory::{InMemoryStore, SqliteStore};
use tidemark_testkit::scripted::ScriptedModel;
use tokio::sync::Notify;

fn scope(name: &str) -> Scope {
    Scope::User(ConversationId::new(name).expect("valid id"))
}

/// Twenty facts in four families of near-duplicates, interleaved.
fn families() -> Vec<String> {
    let stems = [
        "the user prefers metric units for distances and weights",
        "deploys to production happen on tuesday mornings after review",
        "the staging database runs postgresql sixteen on port 5433",
        "the user writes rust with four space indentation and rustfmt",
    ];
    let extras = ["", " always", " as a rule", " every time", " without exception"];
    let mut texts = Vec::new();
    for extra in extras {
        for stem in stems {
            texts.push(format!("{stem}{extra}"));
        }
    }
    texts
}

async fn fill<S: FactStore>(store: &S, scope: &Scope, texts: &[String]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for text in texts {
        facts.push(
            store
                .put(NewFact::new(scope.clone(), Tier::AgentNotes, text.clone()))
                .await
                .expect("put")
                .fact()
                .clone(),
        );
    }
    facts
}

async fn everything<S: FactStore>(store: &S) -> Vec<Fact> {
    store.list(&FactFilter::default().status(StatusFilter::Any)).await.expect("list")
}

async fn twenty_facts_become_four_and_come_back<S: FactStore>(store: &S) {
    let scope = scope("dana");
    fill(store, &scope, &families()).await;
    let before = everything(store).await;
    assert_eq!(before.len(), 20);

    let dry = PassRunner::new(store)
        .dry_run(true)
        .run(&ConsolidationPass::template(), None)
        .await
        .expect("dry run");
    assert_eq!((dry.groups, dry.consolidated, dry.run), (4, 4, None));
    assert_eq!(everything(store).await, before, "a dry run writes nothing");
    assert!(store.runs().await.expect("runs").is_empty());

    let runner = PassRunner::new(store);
    let report = runner.run(&ConsolidationPass::template(), Some(&scope)).await.expect("run");
    assert_eq!((report.groups, report.consolidated, report.rolled_back), (4, 4, 0), "{report:?}");
    let after = everything(store).await;
    assert_eq!(after.len(), 4, "{after:#?}");
    // Each merged fact is its family's fullest member ("… without exception").
    assert!(after.iter().all(|fact| fact.text.ends_with("without exception")), "{after:#?}");
    let run = report.run.expect("a run");
    let info = store.runs().await.expect("runs");
    assert_eq!(info[0].status, RunStatus::Verified);

    let undone = runner.rollback(run).await.expect("rollback");
    assert_eq!((undone.restored, undone.removed), (20, 4));
    let restored = everything(store).await;
    assert_eq!(restored, before, "the 20 facts come back exactly");
    let bytes = |facts: &[Fact]| serde_json::to_vec(facts).expect("json");
    assert_eq!(bytes(&restored), bytes(&before), "byte for byte");
}

#[tokio::test]
async fn twenty_facts_in_four_families_consolidate_and_roll_back_in_memory() {
    twenty_facts_become_four_and_come_back(&InMemoryStore::new()).await;
}

#[tokio::test]
async fn twenty_facts_in_four_families_consolidate_and_roll_back_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    twenty_facts_become_four_and_come_back(&SqliteStore::open(dir.path().join("facts.db")).expect("open"))
        .await;
}

#[tokio::test]
async fn scopes_and_tiers_are_never_merged() {
    let store = InMemoryStore::new();
    let text = "the user prefers metric units for distances";
    for (scope, tier) in
        [(scope("a"), Tier::AgentNotes), (scope("b"), Tier::AgentNotes), (scope("a"), Tier::UserProfile)]
    {
        for suffix in ["", " always"] {
            let _ =
                store.put(NewFact::new(scope.clone(), tier, format!("{text}{suffix}"))).await.expect("put");
        }
    }
    let report = PassRunner::new(&store).run(&ConsolidationPass::template(), None).await.expect("run");
    assert_eq!(report.consolidated, 3);
    for record in store.run_records(report.run.expect("run")).await.expect("records") {
        let first = &record.sources[0];
        assert!(record.sources.iter().all(|fact| fact.scope == first.scope && fact.tier == first.tier));
    }
    assert_eq!(everything(&store).await.len(), 3);
}

#[tokio::test]
async fn a_model_can_write_the_merge_and_a_bad_answer_skips_the_group() {
    let store = InMemoryStore::new();
    let scope = scope("dana");
    fill(&store, &scope, &families()[..8]).await; // two members in each family
    let model = ScriptedModel::new()
        .answer("The user prefers metric units for distances and weights, always.")
        .answer("")
        .answer("I'm sorry, but I can't help with that.")
        .answer("Rust with four-space indentation and rustfmt, always.");
    let report =
        PassRunner::new(&store).run(&ConsolidationPass::with_model(model.clone()), None).await.expect("run");
    assert_eq!(report.consolidated, 2, "{report:?}");
    assert_eq!(report.skipped.len(), 2, "an empty answer and a refusal are never stored: {report:?}");
    assert!(report.skipped.iter().all(|skipped| skipped.reason.starts_with("the summarizer failed")));
    let texts: Vec<String> = everything(&store).await.into_iter().map(|fact| fact.text).collect();
    assert!(texts.contains(&"The user prefers metric units for distances and weights, always.".to_owned()));
    assert_eq!(texts.len(), 2 + 4, "two merged facts and the four members of the skipped groups");
    assert_eq!(model.calls(), 4);
}

/// A pass that delegates to the template consolidation pass, with a planted fault.
struct Faulty {
    inner: ConsolidationPass<TemplateMerge>,
    fault: Fault,
    verified: AtomicUsize,
    reached_verify: Arc<Notify>,
    on_verify: Option<Box<dyn Fn() + Send + Sync>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// The summarizer fails for every group.
    SummarizerFails,
    /// The second merge fails verification.
    SecondVerifyFails,
    /// Verification never finishes (the process dies there).
    VerifyHangs,
}

impl Faulty {
    fn new(fault: Fault) -> Self {
        Self {
            inner: ConsolidationPass::template(),
            fault,
            verified: AtomicUsize::new(0),
            reached_verify: Arc::new(Notify::new()),
            on_verify: None,
        }
    }
}

impl FactPass for Faulty {
    fn name(&self) -> &str {
        "faulty"
    }
    fn cluster(&self, facts: &[Fact]) -> Vec<Vec<FactId>> {
        self.inner.cluster(facts)
    }
    fn eligible(&self, group: &[Fact]) -> Result<(), Ineligible> {
        self.inner.eligible(group)
    }
    async fn summarize(&self, group: &[Fact]) -> Result<NewFact, PassError> {
        if self.fault == Fault::SummarizerFails {
            return Err(PassError::Summarize(SummarizeError::writer("model offline")));
        }
        self.inner.summarize(group).await
    }
    async fn verify<S: FactStore>(
        &self,
        store: &S,
        planned: &Planned,
        merged: &Merged,
    ) -> Result<(), VerifyError> {
        if let Some(hook) = &self.on_verify {
            hook();
        }
        match self.fault {
            Fault::VerifyHangs => {
                self.reached_verify.notify_one();
                std::future::pending().await
            }
            Fault::SecondVerifyFails if self.verified.fetch_add(1, Ordering::SeqCst) == 1 => {
                Err(VerifyError::pass(merged.fact.id, "planted verification failure"))
            }
            _ => tidemark_facts::pass::verify_merge(store, planned, merged).await,
        }
    }
}

#[tokio::test]
async fn a_failing_summarizer_leaves_the_store_as_it_was() {
    let store = InMemoryStore::new();
    fill(&store, &scope("dana"), &families()).await;
    let before = everything(&store).await;
    let report = PassRunner::new(&store).run(&Faulty::new(Fault::SummarizerFails), None).await.expect("run");
    assert_eq!((report.consolidated, report.skipped.len(), report.run), (0, 4, None));
    assert_eq!(everything(&store).await, before);
}

#[tokio::test]
async fn a_failed_verification_rolls_the_whole_run_back() {
    let store = InMemoryStore::new();
    fill(&store, &scope("dana"), &families()).await;
    let before = everything(&store).await;
    let report =
        PassRunner::new(&store).run(&Faulty::new(Fault::SecondVerifyFails), None).await.expect("run");
    assert_eq!((report.consolidated, report.rolled_back), (0, 4), "{report:?}");
    assert!(report.rollback_reason.as_deref().is_some_and(|reason| reason.contains("planted")));
    assert_eq!(everything(&store).await, before, "the first, verified merge is undone too");
    assert_eq!(store.runs().await.expect("runs")[0].status, RunStatus::RolledBack);
}

#[tokio::test]
async fn a_write_error_inside_the_run_leaves_the_store_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("facts.db");
    let store = SqliteStore::open(&path).expect("open");
    fill(&store, &scope("dana"), &families()).await;
    let before = everything(&store).await;
    // Retiring a source fails after the rollback records and some merged facts are written.
    let raw = rusqlite::Connection::open(&path).expect("raw connection");
    raw.execute_batch(
        "CREATE TRIGGER fail_retire BEFORE DELETE ON facts BEGIN SELECT RAISE(ABORT, 'injected fault'); END;",
    )
    .expect("trigger");
    let failed = PassRunner::new(&store).run(&ConsolidationPass::template(), None).await;
    assert!(matches!(failed, Err(PassError::Store(_))), "{failed:?}");
    assert_eq!(everything(&store).await, before);
    assert!(store.runs().await.expect("runs").is_empty());
    raw.execute_batch("DROP TRIGGER fail_retire;").expect("drop trigger");
    let report = PassRunner::new(&store).run(&ConsolidationPass::template(), None).await.expect("run");
    assert_eq!(report.consolidated, 4);
}

#[tokio::test]
async fn a_crash_before_verification_is_rolled_back_on_the_next_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("facts.db");
    let store = SqliteStore::open(&path).expect("open");
    fill(&store, &scope("dana"), &families()).await;
    let before = everything(&store).await;
    let pass = Faulty::new(Fault::VerifyHangs);
    let reached = Arc::clone(&pass.reached_verify);
    let runner = PassRunner::new(store.clone());
    tokio::select! {
        outcome = runner.run(&pass, None) => panic!("the run finished: {outcome:?}"),
        () = reached.notified() => {}
    }
    // The process dies here: the run future and every connection are dropped.
    drop(runner);
    drop(store);
    let reopened = SqliteStore::open(&path).expect("reopen");
    let after_crash = everything(&reopened).await;
    assert_eq!(after_crash.len(), 4, "the whole run was applied in one write: {after_crash:#?}");
    assert_eq!(reopened.unverified_runs().await.expect("runs").len(), 1);
    // The next run rolls the unverified one back before doing anything else.
    let report =
        PassRunner::new(&reopened).run(&Faulty::new(Fault::SummarizerFails), None).await.expect("run");
    assert_eq!(report.recovered.len(), 1);
    assert_eq!(everything(&reopened).await, before);
}

#[tokio::test]
async fn a_rollback_that_cannot_restore_quarantines_and_names_the_sources() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("facts.db");
    let store = SqliteStore::open(&path).expect("open");
    let sources = fill(&store, &scope("dana"), &families()).await;
    let mut pass = Faulty::new(Fault::SecondVerifyFails);
    let raw_path = path.clone();
    // Before verification, make every re-insert fail, so the rollback cannot restore anything.
    pass.on_verify = Some(Box::new(move || {
        let raw = rusqlite::Connection::open(&raw_path).expect("raw connection");
        raw.execute_batch(
            "CREATE TRIGGER IF NOT EXISTS fail_restore BEFORE INSERT ON facts BEGIN SELECT RAISE(ABORT, 'injected fault'); END;",
        )
        .expect("trigger");
    }));
    let failed = PassRunner::new(&store).run(&pass, None).await;
    let Err(PassError::RestoreFailed { quarantined, unrestored, .. }) = failed else {
        panic!("expected RestoreFailed, got {failed:?}")
    };
    assert_eq!(quarantined.len(), 4);
    let mut expected: Vec<FactId> = sources.iter().map(|fact| fact.id).collect();
    let mut named = unrestored.clone();
    expected.sort();
    named.sort();
    assert_eq!(named, expected, "every source is named");
    // Nothing is half-applied: the complete run, its merged facts set aside for review.
    let now = everything(&store).await;
    assert_eq!(now.len(), 4);
    assert!(now.iter().all(|fact| !fact.is_active()));
    assert_eq!(store.runs().await.expect("runs")[0].status, RunStatus::Applied);
}

/// Every source of `before` is either stored unchanged or recorded in a rollback record whose merged fact exists.
async fn nothing_lost<S: FactStore>(store: &S, before: &[Fact]) -> Result<(), String> {
    let now = everything(store).await;
    let mut recorded = Vec::new();
    for run in store.runs().await.map_err(|e| e.to_string())? {
        for record in store.run_records(run.id).await.map_err(|e| e.to_string())? {
            if now.iter().any(|fact| fact.id == record.merged) {
                recorded.extend(record.sources);
            }
        }
    }
    for fact in before {
        if !now.contains(fact) && !recorded.contains(fact) {
            return Err(format!("fact {} ({:?}) is neither stored nor recorded", fact.id, fact.text));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn consolidation_never_loses_a_source(
        picks in proptest::collection::vec((0usize..6, 0usize..4, 0usize..3, any::<bool>()), 1..40),
        threshold in 0.2f64..0.9,
        fail_verify in any::<bool>(),
    ) {
        let words = ["metric", "units", "tuesday", "deploys", "postgres", "port", "rust", "tabs", "lisbon", "coffee"];
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        runtime.block_on(async {
            let store = InMemoryStore::new();
            for (index, (a, b, scope_index, profile)) in picks.iter().enumerate() {
                let text = format!("{} {} {} note{}", words[*a], words[a + 1], words[b + 5], index % 3);
                let tier = if *profile { Tier::UserProfile } else { Tier::AgentNotes };
                let _ = store.put(NewFact::new(scope(&format!("s{scope_index}")), tier, text)).await.expect("put");
            }
            let before = everything(&store).await;
            let runner = PassRunner::new(&store);
            let outcome = if fail_verify {
                runner.run(&Faulty::new(Fault::SecondVerifyFails), None).await
            } else {
                runner.run(&ConsolidationPass::template().with_threshold(threshold), None).await
            };
            let report = outcome.expect("run");
            nothing_lost(&store, &before).await.map_err(TestCaseError::fail)?;
            // Facts never merge across scopes or tiers, and never more than eight at once.
            for planned in &report.planned {
                let first = &planned.sources[0];
                prop_assert!(planned.sources.iter().all(|fact| fact.scope == first.scope && fact.tier == first.tier));
                prop_assert!(planned.sources.len() <= 8);
            }
            if let Some(run) = report.run {
                runner.rollback(run).await.expect("rollback");
                prop_assert_eq!(everything(&store).await, before);
            }
            Ok(())
        })?;
    }
}

/// The writer trait is public so a user can plug in their own.
#[tokio::test]
async fn a_custom_writer_plugs_in() {
    struct First;
    impl MergeWriter for First {
        fn name(&self) -> &str {
            "first"
        }
        async fn write(&self, group: &[Fact]) -> Result<String, PassError> {
            Ok(format!("{} (merged)", group[0].text))
        }
    }
    let store = InMemoryStore::new();
    fill(&store, &scope("dana"), &families()[..8]).await;
    let pass = ConsolidationPass::with_writer(First);
    assert_eq!(pass.name(), "consolidation/first");
    let report = PassRunner::new(&store).run(&pass, None).await.expect("run");
    assert_eq!(report.consolidated, 4);
    assert!(everything(&store).await.iter().all(|fact| fact.text.ends_with("(merged)")));
}

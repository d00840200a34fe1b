//! Calibration from reported usage: an agent loop against models that count with another tokenizer converges to their counts, the correction survives a restart, and no calibration makes a budget less safe than its bound.

use std::num::NonZeroU32;

use proptest::prelude::*;
use tidemark_core::calibration::{Calibration, Ratio};
use tidemark_core::{
    CalibratedCounter, ConversationId, ConversationMemory, ConversationStore, MemoryError, MemoryPolicy,
    Message, TokenCounter, Usage,
};
#[cfg(feature = "sqlite")]
use tidemark_memory::SqliteStore;
use tidemark_memory::{HeuristicCounter, InMemoryStore, PolicyMemory, TokenWindow};
use tidemark_testkit::strategies::{HistoryConfig, arb_history_with};

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn budget(tokens: u32) -> NonZeroU32 {
    NonZeroU32::new(tokens).expect("non-zero")
}

/// A token window without hysteresis, so that every load fills the budget as far as whole units allow.
fn full_window<C: TokenCounter>(tokens: u32, counter: C) -> TokenWindow<C> {
    TokenWindow::new(budget(tokens), counter).with_low_watermark(100).expect("a valid watermark")
}

/// Deterministic prose of about `words` words: English, code and Russian, on which OpenAI's two encodings disagree.
fn text(seed: u64, words: usize) -> String {
    const WORDS: &[&str] = &[
        "the",
        "deploy",
        "pipeline",
        "failed",
        "because",
        "runner",
        "cache",
        "was",
        "stale",
        "and",
        "retried",
        "with",
        "backoff",
        "fn",
        "main()",
        "{",
        "}",
        "let",
        "x",
        "=",
        "vec![1,",
        "2];",
        "cargo",
        "build",
        "--release",
        "сборка",
        "упала",
        "потому",
        "что",
        "кэш",
        "устарел",
        "и",
        "повтор",
        "с",
        "задержкой",
        "0x7ff3",
        "europe-west4",
        "timeout=30s",
        "ok.",
        "error:",
    ];
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    let mut out = Vec::with_capacity(words);
    for _ in 0..words {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push(WORDS[(state % WORDS.len() as u64) as usize]);
    }
    out.join(" ")
}

/// Agent loops against models that count with OpenAI's other tokenizer, or with o200k scaled: the `tiktoken` feature.
#[cfg(feature = "tiktoken")]
mod convergence {
    use std::sync::atomic::{AtomicU64, Ordering};

    use tidemark_core::{Completion, CompletionError, CompletionModel, CompletionRequest, FinishReason};
    use tidemark_memory::{CompactingMemory, TiktokenCounter};
    use tidemark_testkit::reference::ConcatCompactor;

    use super::*;

    /// The budget of the convergence runs, in the provider's tokens.
    const BUDGET: u32 = 16_000;

    /// How many model calls the convergence runs make.
    const CALLS: usize = 5;

    /// A model that answers with canned text and reports the prompt's tokens as its own tokenizer counts them.
    ///
    /// `count` stands for the provider's tokenizer: another encoding, or the
    /// memory's own scaled by a factor.
    struct Provider<F> {
        count: F,
        calls: AtomicU64,
    }

    impl<F: Fn(&[Message]) -> u32 + Send + Sync> Provider<F> {
        fn new(count: F) -> Self {
            Self { count, calls: AtomicU64::new(0) }
        }
    }

    impl<F: Fn(&[Message]) -> u32 + Send + Sync> CompletionModel for Provider<F> {
        async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
            let call = self.calls.fetch_add(1, Ordering::Relaxed);
            let prompt_tokens = (self.count)(&request.messages);
            Ok(Completion::new(text(1_000 + call, 30), FinishReason::Stop, Usage::new(prompt_tokens, 30)))
        }
    }

    /// A long conversation already stored: many turns of 10 to 60 words, well over [`BUDGET`].
    ///
    /// Turns are short beside the budget (at most a few hundred tokens against
    /// 16,000), so that a window cut at a unit boundary fills the budget to
    /// within about 1%: what is left over is the calibration's error, not the
    /// size of the last unit that did not fit.
    async fn prefill(memory: &impl ConversationMemory, conversation: &ConversationId) {
        memory
            .append(conversation, vec![Message::system("You are a terse build engineer.").pinned()])
            .await
            .expect("append");
        for turn in 0..320u64 {
            let words = 10 + (turn * 37 % 50) as usize;
            memory
                .append(
                    conversation,
                    vec![Message::user(text(turn, words)), Message::assistant(text(turn + 500, words / 2))],
                )
                .await
                .expect("append");
        }
    }

    /// The agent loop: ask, load, call the model, report its usage (when `report`), record the answer.
    ///
    /// Returns the provider's count of each prompt it was sent.
    async fn agent_loop(
        memory: &impl ConversationMemory,
        model: &impl CompletionModel,
        conversation: &ConversationId,
        report: bool,
    ) -> Vec<u32> {
        let mut counted = Vec::with_capacity(CALLS);
        for call in 0..CALLS as u64 {
            memory.append(conversation, vec![Message::user(text(2_000 + call, 30))]).await.expect("append");
            let prompt = memory.load(conversation).await.expect("load");
            let answer = model.complete(CompletionRequest::new(prompt.clone())).await.expect("complete");
            if report {
                memory.observe_usage(conversation, &prompt, answer.usage).await.expect("observe");
            }
            counted.push(answer.usage.prompt_tokens);
            memory.append(conversation, vec![Message::assistant(answer.text)]).await.expect("append");
        }
        counted
    }

    /// The budget error of each call: how far the provider's count of the prompt is from the budget, as a share of it (positive when over).
    fn errors(counted: &[u32]) -> Vec<f64> {
        counted.iter().map(|&tokens| f64::from(tokens) / f64::from(BUDGET) - 1.0).collect()
    }

    fn o200k() -> TiktokenCounter {
        TiktokenCounter::o200k().expect("o200k loads")
    }

    /// A provider counting 1.3 times what o200k counts.
    fn scaled_provider() -> Provider<impl Fn(&[Message]) -> u32 + Send + Sync> {
        let counter = o200k();
        let factor = Ratio::from_millionths(1_300_000);
        Provider::new(move |messages: &[Message]| factor.scale(counter.count_prompt(messages)))
    }

    /// A provider counting with cl100k while the memory counts with o200k.
    fn cl100k_provider() -> Provider<impl Fn(&[Message]) -> u32 + Send + Sync> {
        let counter = TiktokenCounter::cl100k().expect("cl100k loads");
        Provider::new(move |messages: &[Message]| counter.count_prompt(messages))
    }

    /// Every call of `counted` within 2% under the budget by the provider's count.
    fn assert_converged(what: &str, counted: &[u32]) {
        let errors = errors(counted);
        eprintln!("{what}: provider counts {counted:?} for a budget of {BUDGET}, errors {errors:.4?}");
        for (call, error) in errors.iter().enumerate() {
            assert!((-0.02..=0.0).contains(error), "{what}: call {} is {error:+.4} off the budget", call + 1);
        }
    }

    #[tokio::test]
    async fn a_model_counting_thirty_percent_more_is_over_budget_until_its_usage_is_reported() {
        let model = scaled_provider();
        let conversation = id("scaled");

        let uncalibrated = PolicyMemory::new(InMemoryStore::new(), full_window(BUDGET, o200k()));
        prefill(&uncalibrated, &conversation).await;
        let counted = agent_loop(&uncalibrated, &model, &conversation, false).await;
        eprintln!("without reports: provider counts {counted:?}, errors {:.4?}", errors(&counted));
        for (call, error) in errors(&counted).iter().enumerate() {
            assert!(*error > 0.25, "call {} without calibration is only {error:+.4} over", call + 1);
        }

        let policy = PolicyMemory::new(InMemoryStore::new(), full_window(BUDGET, o200k()));
        prefill(&policy, &conversation).await;
        let counted = agent_loop(&policy, &model, &conversation, true).await;
        assert!(errors(&counted)[0] > 0.25, "the first call knows nothing yet: {counted:?}");
        assert_converged("1.3x, policy memory, calls 2 on", &counted[1..]);
        let learned = policy.get_ref().calibration(&conversation).await.expect("calibration").ratio();
        assert!((learned.as_f64() - 1.3).abs() < 1e-4, "learned {learned}");

        // The summary and the window together: the summary's tokens are scaled too.
        let compacting = CompactingMemory::new(
            InMemoryStore::new(),
            full_window(BUDGET, o200k()),
            ConcatCompactor::capped(4_000),
        );
        prefill(&compacting, &conversation).await;
        let counted = agent_loop(&compacting, &model, &conversation, true).await;
        assert!(errors(&counted)[0] > 0.25, "the first call knows nothing yet: {counted:?}");
        assert_converged("1.3x, compacting memory, calls 2 on", &counted[1..]);
    }

    #[tokio::test]
    async fn a_model_counting_with_cl100k_converges_to_its_counts() {
        let model = cl100k_provider();
        let conversation = id("cl100k");
        let memory = PolicyMemory::new(InMemoryStore::new(), full_window(BUDGET, o200k()));
        prefill(&memory, &conversation).await;
        let counted = agent_loop(&memory, &model, &conversation, true).await;
        let ratio = memory.get_ref().calibration(&conversation).await.expect("calibration").ratio();
        eprintln!("cl100k against o200k: the memory learned a ratio of {ratio}");
        assert!(errors(&counted)[0] > 0.02, "the mixed text counts more in cl100k: {counted:?}");
        assert_converged("cl100k against o200k, calls 2 on", &counted[1..]);
    }

    #[cfg(feature = "sqlite")]
    #[tokio::test]
    async fn a_restarted_memory_keeps_its_calibration() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("calibrated.db");
        let model = scaled_provider();
        let conversation = id("restarted");
        let memory = PolicyMemory::new(SqliteStore::open(&path).expect("open"), full_window(BUDGET, o200k()));
        prefill(&memory, &conversation).await;
        agent_loop(&memory, &model, &conversation, true).await;
        drop(memory);

        let memory =
            PolicyMemory::new(SqliteStore::open(&path).expect("open again"), full_window(BUDGET, o200k()));
        let kept = memory.get_ref().calibration(&conversation).await.expect("calibration");
        assert!((kept.ratio().as_f64() - 1.3).abs() < 1e-4, "{kept:?}");
        assert_eq!(kept.ratios().len(), CALLS);
        // The first load after the restart already fits the provider's count.
        let counted = agent_loop(&memory, &model, &conversation, false).await;
        assert_converged("1.3x, every call after a restart", &counted);

        memory.clear(&conversation).await.expect("clear");
        assert!(
            memory.get_ref().calibration(&conversation).await.expect("calibration").is_empty(),
            "clear forgets it"
        );
    }
}

#[cfg(feature = "sqlite")]
#[tokio::test]
async fn a_file_of_schema_5_gains_the_calibration_table_and_keeps_its_messages() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("schema-5.db");
    let conversation = id("old");
    // A file of version 5 is what this build writes without the steps of
    // versions 6 and 7: the steps before them are never edited.
    let store = SqliteStore::open(&path).expect("open");
    store
        .append(&conversation, vec![tidemark_core::NewMessage::new(Message::user("hello"), 3)])
        .await
        .expect("append");
    drop(store);
    let side = rusqlite::Connection::open(&path).expect("the file opens with plain rusqlite");
    side.execute_batch(
        "DROP TABLE calibrations;
         DROP TABLE recall_vectors;
         DROP TABLE recall_models;
         DROP TABLE conversation_users;
         DROP TABLE epochs;
         PRAGMA user_version = 5;",
    )
    .expect("back to version 5");
    drop(side);

    let store = SqliteStore::open(&path).expect("the old file opens");
    assert!(store.calibration(&conversation).await.expect("calibration").is_empty());
    let learned = Calibration::from_ratios([Ratio::from_millionths(1_200_000)]);
    store.save_calibration(&conversation, learned.clone()).await.expect("save");
    assert_eq!(
        store
            .load_range(&conversation, tidemark_core::SeqRange::from(tidemark_core::Seq::ZERO))
            .await
            .expect("load")
            .len(),
        1
    );
    drop(store);

    let side = rusqlite::Connection::open(&path).expect("the file opens with plain rusqlite");
    let version: i64 = side.query_row("PRAGMA user_version", [], |row| row.get(0)).expect("version");
    assert_eq!(version, 9);
    let json: String = side
        .query_row("SELECT calibration FROM calibrations WHERE conversation = 'old'", [], |row| row.get(0))
        .expect("the calibration row");
    assert_eq!(json, r#"{"ratios":[1200000]}"#);
    // A stored value that is not a calibration is an error naming the column, never a panic.
    side.execute("UPDATE calibrations SET calibration = 'not json'", []).expect("damage it");
    drop(side);
    let store = SqliteStore::open(&path).expect("open");
    let error = store.calibration(&conversation).await.expect_err("a damaged calibration");
    assert!(error.to_string().contains("calibration"), "{error}");
}

#[tokio::test]
async fn reports_that_are_no_samples_change_nothing() {
    let memory = PolicyMemory::new(InMemoryStore::new(), full_window(1_000, HeuristicCounter::default()));
    let conversation = id("refused");
    let prompt = vec![Message::user("hi")];
    memory.append(&conversation, prompt.clone()).await.expect("append");
    let tiny = memory.observe_usage(&conversation, &prompt, Usage::new(40, 1)).await.expect("observe");
    assert!(tiny.is_empty(), "a prompt under the minimum is mostly framing");
    let long = vec![Message::user(text(7, 300))];
    let none = memory.observe_usage(&conversation, &long, Usage::default()).await.expect("observe");
    assert!(none.is_empty(), "a server that reports no usage sends zero");
    assert!(memory.get_ref().calibration(&conversation).await.expect("calibration").is_empty());
}

fn histories() -> impl Strategy<Value = Vec<Message>> {
    arb_history_with(HistoryConfig::default().with_max_units(40).with_trailing_open_exchange(false))
        .prop_filter("not empty", |history| !history.is_empty())
}

/// A policy memory over its own store whose conversation has `calibration`.
async fn memory_with(
    history: &[Message],
    tokens: u32,
    calibration: Option<Calibration>,
) -> PolicyMemory<InMemoryStore, TokenWindow<HeuristicCounter>> {
    let memory = PolicyMemory::new(InMemoryStore::new(), full_window(tokens, HeuristicCounter::default()));
    let conversation = id("safety");
    memory.append(&conversation, history.to_vec()).await.expect("append");
    if let Some(calibration) = calibration {
        memory.get_ref().save_calibration(&conversation, calibration).await.expect("save");
    }
    memory
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The budget a calibrated load fits lies between the budget divided by the highest ratio and by the lowest, and is the budget itself with no samples.
    #[test]
    fn calibration_never_makes_a_budget_less_safe_than_its_bound(
        history in histories(),
        tokens in 200..4_000u32,
        ratios in prop::collection::vec(any::<u32>(), 0..12),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let conversation = id("safety");
            let counter = HeuristicCounter::default();
            let calibration = Calibration::from_ratios(ratios.into_iter().map(Ratio::from_millionths));
            let ratio = calibration.ratio();
            let raw = memory_with(&history, tokens, None).await;
            let empty = memory_with(&history, tokens, Some(Calibration::new())).await;
            let calibrated = memory_with(&history, tokens, Some(calibration)).await;

            // No samples: exactly the uncalibrated loads.
            let loaded = raw.load(&conversation).await.expect("load");
            prop_assert_eq!(&empty.load(&conversation).await.expect("load"), &loaded);
            prop_assert_eq!(
                format!("{:?}", empty.load_within(&conversation, budget(tokens)).await),
                format!("{:?}", raw.load_within(&conversation, budget(tokens)).await)
            );

            // Never more than the budget divided by the ratio (so never more than twice the budget)…
            match calibrated.load_within(&conversation, budget(tokens)).await {
                Ok(prompt) => {
                    let provider = CalibratedCounter::new(counter, ratio).count_prompt(&prompt);
                    prop_assert!(provider <= tokens, "{provider} > {tokens} at {ratio}");
                    let local = counter.count_prompt(&prompt);
                    prop_assert!(local <= ratio.budget(tokens), "{local} > {} at {ratio}", ratio.budget(tokens));
                    prop_assert!(local <= Ratio::MIN.budget(tokens));
                }
                Err(MemoryError::OverBudget { .. }) => {}
                Err(error) => prop_assert!(false, "unexpected error {error:?}"),
            }
            // …and never less than the budget divided by the highest ratio: a history within it stays whole.
            let whole = counter.count_prompt(&history);
            let prompt = calibrated.load(&conversation).await.expect("load");
            if whole <= Ratio::MAX.budget(tokens) {
                prop_assert_eq!(&prompt, &history, "{} tokens fit {} / 2 at {}", whole, tokens, ratio);
            }
            prop_assert!(calibrated.policy().token_counter().is_some());
            Ok(())
        })?;
    }
}

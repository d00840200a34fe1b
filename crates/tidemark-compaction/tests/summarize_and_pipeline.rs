//! `SummarizeStrategy` and the pipelines: properties over generated histories with a scripted model, and the failure cases one by one.

use std::num::NonZeroU32;

use futures::executor::block_on;
use proptest::prelude::*;
use tidemark_compaction::strategy::SUMMARY_HEADER;
use tidemark_compaction::{
    ClearToolOutputs, Compacted, CompactionStrategy, DynPipeline, DynStrategy, Fallback, Pipeline,
    SummarizeStrategy, TruncateStrategy,
};
use tidemark_core::{
    CompactionError, CompletionError, Message, Outcome, Role, TokenCounter, ToolCall, validate,
};
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::scripted::ScriptedModel;
use tidemark_testkit::strategies::{HistoryConfig, arb_history_with};

fn budget(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n.max(1)).expect("non-zero")
}

fn pinned(history: &[Message]) -> Vec<&Message> {
    history.iter().filter(|m| m.pinned).collect()
}

fn turn(i: usize, result_bytes: usize) -> Vec<Message> {
    let id = format!("call_{i}");
    vec![
        Message::user(format!("Question {i}: what does module {i} do?")),
        Message::assistant_tool_calls([ToolCall::new(
            id.clone(),
            "read_file",
            serde_json::json!({"path": format!("src/m{i}.rs")}),
        )]),
        Message::tool_result(id, "x".repeat(result_bytes)),
        Message::assistant(format!("Module {i} parses input.")),
    ]
}

fn history(turns: usize) -> Vec<Message> {
    let mut history = vec![Message::system("You are a careful agent.")];
    history.extend((0..turns).flat_map(|i| turn(i, 400)));
    history
}

fn run(
    strategy: &impl CompactionStrategy,
    history: &[Message],
    tokens: u32,
) -> Result<Compacted, CompactionError> {
    block_on(strategy.compact(history, budget(tokens), &Quarter))
}

fn arb_case() -> impl Strategy<Value = (Vec<Message>, u32, usize)> {
    let config = HistoryConfig::default().with_max_units(40);
    arb_history_with(config).prop_flat_map(|history| {
        let tokens = Quarter.count_prompt(&history);
        (Just(history), (tokens / 5).max(1)..=tokens.saturating_add(tokens / 5).max(2), 0..6usize)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn summarize_keeps_every_guarantee((history, tokens, keep) in arb_case()) {
        let strategy = SummarizeStrategy::new(ScriptedModel::digest()).with_max_summary_tokens(40).preserve_last(keep);
        let done = run(&strategy, &history, tokens).expect("the digest model never fails");
        prop_assert!(validate(&done.history).is_ok(), "invalid output: {:?}", validate(&done.history));
        prop_assert!(Quarter.count_prompt(&done.history) <= Quarter.count_prompt(&history));
        prop_assert_eq!(pinned(&done.history), pinned(&history));
        let n = keep.min(history.len());
        prop_assert_eq!(&done.history[done.history.len() - n..], &history[history.len() - n..]);
        if done.report.outcome == Outcome::Applied {
            prop_assert_eq!(done.report.model_calls, 1);
            let summaries = done.history.iter().filter(|m| m.text().starts_with(SUMMARY_HEADER)).count();
            prop_assert_eq!(summaries, 1);
        }
    }

    #[test]
    fn pipelines_keep_every_guarantee((history, tokens, keep) in arb_case(), failing in any::<bool>()) {
        let model = if failing {
            ScriptedModel::new().otherwise(|_| Err(CompletionError::EmptyResponse))
        } else {
            ScriptedModel::digest()
        };
        let pipeline = Pipeline::new((
            ClearToolOutputs::new().keep_recent_tokens(50),
            SummarizeStrategy::new(model).with_max_summary_tokens(40).preserve_last(keep),
            TruncateStrategy::new().preserve_last(keep),
        ));
        let done = run(&pipeline, &history, tokens).expect("a pipeline records failed steps instead of failing");
        prop_assert!(validate(&done.history).is_ok());
        prop_assert!(Quarter.count_prompt(&done.history) <= Quarter.count_prompt(&history));
        prop_assert_eq!(pinned(&done.history), pinned(&history));
        prop_assert!(done.report.steps.len() <= 3);
        if failing && done.report.steps.len() >= 2 {
            // A failing summarizer fails, or is skipped before it is asked; it never applies.
            prop_assert!(matches!(done.report.steps[1].outcome, Outcome::Failed | Outcome::Skipped));
        }
    }
}

#[test]
fn a_history_that_fits_is_left_alone() {
    let history = history(2);
    let done = run(&SummarizeStrategy::new(ScriptedModel::new()), &history, 10_000).expect("skipped");
    assert_eq!((done.report.outcome, &done.history), (Outcome::Skipped, &history));
}

#[test]
fn the_prefix_becomes_one_summary_and_the_tail_starts_with_a_user_message() {
    let model = ScriptedModel::new().answer("Modules 0 to 5 parse input.");
    let history = history(10);
    let done = run(&SummarizeStrategy::new(model.clone()), &history, 1_200).expect("applied");
    assert_eq!(done.report.outcome, Outcome::Applied);
    assert_eq!(done.history[0], history[0], "the system message stays first");
    assert_eq!(done.history[1].role, Role::User);
    assert_eq!(done.history[1].text(), format!("{SUMMARY_HEADER}\nModules 0 to 5 parse input."));
    assert_eq!(done.history[2].role, Role::User, "the kept part starts at a user message");
    assert!(done.report.fits, "{:?}", done.report);
    assert_eq!(model.calls(), 1);
}

#[test]
fn the_request_carries_no_tools_and_every_fact() {
    let model = ScriptedModel::new().answer("Summary.");
    let mut history = vec![Message::user("Remember: the deploy key is in vault path secret/ci/deploy.")];
    history.push(Message::assistant_tool_calls([
        ToolCall::with_raw_arguments("a", "read_file", r#"{"path":"a.rs"}"#),
        ToolCall::with_raw_arguments("b", "read_file", r#"{"path":"b.rs"}"#),
    ]));
    history.push(Message::tool_result("b", "fn b() {}"));
    history.push(Message::tool_result("a", "fn a() {}"));
    history.extend(self::history(6).into_iter().skip(1));
    run(&SummarizeStrategy::new(model.clone()), &history, 600).expect("applied");
    let requests = model.requests();
    assert_eq!(requests.len(), 1);
    for message in &requests[0].messages {
        assert!(!message.has_tool_calls() && !message.has_tool_results(), "tool parts in {message:?}");
        assert_ne!(message.role, Role::Tool);
    }
    let text: String = requests[0].messages.iter().map(|m| m.text().into_owned()).collect();
    assert!(text.contains("secret/ci/deploy"));
    assert!(
        text.contains(r#"read_file {"path":"b.rs"} [b]"#)
            && text.contains("read_file [a] returned: fn a() {}")
    );
}

#[test]
fn failures_are_errors_or_a_declared_fallback() {
    let failures: Vec<(&str, ScriptedModel)> = vec![
        (
            "model error",
            ScriptedModel::new().fail_with(|| CompletionError::BadRequest { message: "no".into() }),
        ),
        ("empty answer", ScriptedModel::new().answer("   ")),
        (
            "refusal",
            ScriptedModel::new().fail_with(|| CompletionError::Refused { reason: "filtered".into() }),
        ),
        ("refusal text", ScriptedModel::new().answer("I'm sorry, but I can't help with that.")),
    ];
    let history = history(10);
    for (what, model) in failures {
        let error = run(&SummarizeStrategy::new(model.clone()), &history, 1_200).expect_err(what);
        assert!(
            matches!(
                error,
                CompactionError::Model { .. }
                    | CompactionError::EmptySummary
                    | CompactionError::Refused { .. }
            ),
            "{what}: {error:?}"
        );
        let fallback = SummarizeStrategy::new(model).with_fallback(Fallback::Truncate);
        let done = run(&fallback, &history, 1_200).expect("falls back");
        assert_eq!(done.report.outcome, Outcome::Degraded, "{what}");
        assert!(done.report.note.as_deref().is_some_and(|n| n.contains("fell back to truncation")), "{what}");
        assert!(done.history.iter().all(|m| !m.text().starts_with(SUMMARY_HEADER)), "{what}: no summary");
        validate(&done.history).expect("valid");
    }
}

#[test]
fn transient_failures_are_tried_again_within_the_limit() {
    let flaky = ScriptedModel::new()
        .fail_with(|| CompletionError::RateLimited { attempts: 1, retry_after: None })
        .answer("Recovered summary.");
    let done = run(&SummarizeStrategy::new(flaky.clone()), &history(10), 1_200).expect("second call works");
    assert_eq!((done.report.model_calls, flaky.calls()), (2, 2));
    let down = ScriptedModel::new()
        .otherwise(|_| Err(CompletionError::Server { status: 503, attempts: 1, message: "down".into() }));
    let error = run(&SummarizeStrategy::new(down.clone()).with_max_attempts(3), &history(10), 1_200)
        .expect_err("down");
    assert!(matches!(error, CompactionError::Model { .. }));
    assert_eq!(down.calls(), 3);
}

#[test]
fn an_over_long_answer_is_capped_at_a_character_boundary() {
    let model = ScriptedModel::new().answer("é".repeat(2_000));
    let done = run(&SummarizeStrategy::new(model).with_max_summary_tokens(50), &history(10), 1_200)
        .expect("applied");
    let summary = done.history.iter().find(|m| m.text().starts_with(SUMMARY_HEADER)).expect("a summary");
    let body = summary.text().trim_start_matches(SUMMARY_HEADER).trim_start().to_owned();
    assert!(Quarter.count_text(&body) <= 50);
    assert!(body.chars().all(|c| c == 'é'), "cut between characters, never inside one");
}

#[test]
fn an_all_pinned_prefix_never_calls_the_model() {
    let model = ScriptedModel::new();
    let mut history: Vec<Message> =
        (0..6).map(|i| Message::user(format!("rule {i}: {}", "x".repeat(200))).pinned()).collect();
    history.push(Message::user("And now the question."));
    let done = run(&SummarizeStrategy::new(model.clone()), &history, 100).expect("skipped");
    assert_eq!(done.report.outcome, Outcome::Skipped);
    assert_eq!(model.calls(), 0);
}

#[test]
fn an_agent_run_after_one_user_message_is_cut_between_tool_units() {
    // One user message and then tool steps, as an agent's run: no later turn
    // starts with a user message, so the cut falls between tool units.
    let mut history = vec![Message::system("You are a careful agent."), Message::user("Do everything.")];
    for i in 0..4 {
        history.extend(turn(i, 2_000).into_iter().skip(1));
    }
    let model = ScriptedModel::new().answer("Read modules 0 to 2; each parses input.");
    let strategy = SummarizeStrategy::new(model.clone()).with_max_summary_tokens(100);
    let done = run(&strategy, &history, 900).expect("compacted");
    assert_eq!(done.report.outcome, Outcome::Applied, "{:?}", done.report);
    assert_eq!(model.calls(), 1);
    validate(&done.history).expect("no tool call is separated from its result");
    assert!(Quarter.count_prompt(&done.history) <= 900);
    // The system prompt, the instruction kept verbatim, the summary, then an agent step kept verbatim, and the newest steps as they were.
    assert_eq!(done.history[0], history[0]);
    assert_eq!(done.history[1], history[1], "the task stays in view");
    assert!(done.history[2].text().starts_with(SUMMARY_HEADER));
    assert_eq!(done.history[3].role, Role::Assistant);
    assert_eq!(done.history.last(), history.last());
}

#[test]
fn a_summary_gets_the_room_the_budget_leaves_when_a_full_one_does_not_fit() {
    // A long pinned prompt and steps after one user message: no cut leaves
    // room for a summary of 400 tokens, so the latest cut asks for what fits.
    let mut history = vec![Message::system(format!("Policy: {}", "rule ".repeat(400))).pinned()];
    history.push(Message::user("Do everything."));
    for i in 0..4 {
        history.extend(turn(i, 800).into_iter().skip(1));
    }
    let model = ScriptedModel::new().answer("word ".repeat(600));
    let strategy = SummarizeStrategy::new(model.clone()).with_max_summary_tokens(400);
    // The pinned prompt is about 500 tokens of a 700-token budget.
    let budget = 700;
    let done = run(&strategy, &history, budget).expect("compacted");
    assert_eq!(done.report.outcome, Outcome::Applied, "{:?}", done.report);
    assert!(Quarter.count_prompt(&done.history) <= budget, "{:?}", done.report);
    let asked = model.requests()[0].max_tokens.expect("a limit");
    assert!((64..400).contains(&asked), "asked for {asked} tokens");
    // The model is told the limit it is held to, so that it chooses what to leave out.
    let told =
        model.requests()[0].messages.iter().any(|m| m.text().contains(&format!("At most {asked} tokens")));
    assert!(told, "the request does not state the limit of {asked} tokens");
    validate(&done.history).expect("no tool call is separated from its result");
}

#[test]
fn a_history_with_no_safe_cut_is_skipped() {
    // One message: there is no unit boundary after the first message to cut at.
    let history = vec![Message::user(format!("Do everything. {}", "x".repeat(2_000)))];
    let done = run(&SummarizeStrategy::new(ScriptedModel::new()), &history, 50).expect("skipped");
    assert_eq!(done.report.outcome, Outcome::Skipped);
    assert!(done.report.note.as_deref().is_some_and(|n| n.contains("no safe cut")));
}

#[test]
fn pipelines_stop_once_the_history_fits_and_report_each_step() {
    let model = ScriptedModel::new();
    let pipeline = Pipeline::new((
        ClearToolOutputs::new().keep_recent_tokens(0),
        SummarizeStrategy::new(model.clone()),
        TruncateStrategy::new(),
    ));
    let history = history(10);
    // Clearing the 400-byte tool outputs alone makes it fit: the model is never asked.
    let done = run(&pipeline, &history, 600).expect("applied");
    assert_eq!(done.report.outcome, Outcome::Applied);
    assert_eq!(done.report.steps.len(), 1);
    assert_eq!(done.report.steps[0].strategy, "clear-tool-outputs");
    assert_eq!(model.calls(), 0);
    assert!(done.report.fits);
}

#[test]
fn dynamic_pipelines_and_the_step_limit() {
    let steps: Vec<Box<dyn DynStrategy>> = vec![
        Box::new(SummarizeStrategy::new(ScriptedModel::new().fail_with(|| CompletionError::EmptyResponse))),
        Box::new(TruncateStrategy::new()),
    ];
    let history = history(10);
    let done = run(&DynPipeline::boxed(steps), &history, 400).expect("applied");
    assert_eq!(done.report.strategy, "summarize+truncate");
    assert_eq!(done.report.steps[0].outcome, Outcome::Failed);
    assert!(done.report.steps[0].note.as_deref().is_some_and(|n| n.contains("empty summary")));
    assert_eq!(done.report.steps[1].outcome, Outcome::Applied);

    let limited = Pipeline::new((TruncateStrategy::new(), TruncateStrategy::new())).with_max_steps(1);
    let done = run(&limited, &history, 10).expect("applied");
    assert_eq!(done.report.steps.len(), 1, "the step limit holds");
}

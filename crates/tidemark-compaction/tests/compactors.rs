//! The template and LLM compactors against the compactor conformance suite, with needle, tool-free-request and bounded-summary checks.

use futures::executor::block_on;
use proptest::prelude::*;
use tidemark_compaction::transcript::{self, Style};
use tidemark_compaction::{LlmCompactor, LlmSummary, TemplateCompactor, TemplateSummary};
use tidemark_core::{
    Compactor, Completion, CompletionRequest, ConversationId, FinishReason, Message, Part, ToolCall, Usage,
};
use tidemark_testkit::conformance::compactor::{CompactorConfig, run};
use tidemark_testkit::scripted::ScriptedModel;
use tidemark_testkit::strategies::arb_history;

/// How many rolls the bounded-summary properties chain.
const ROLLS: usize = 100;

fn id() -> ConversationId {
    ConversationId::new("compactor-tests").expect("a valid id")
}

/// A history whose middle user message holds the needle, with parallel tool calls around it.
fn history_with_needle() -> Vec<Message> {
    vec![
        Message::user("Please check the CI setup."),
        Message::assistant_tool_calls([
            ToolCall::with_raw_arguments("call_1", "read_file", r#"{"path":".github/workflows/ci.yml"}"#),
            ToolCall::with_raw_arguments("call_2", "list_secrets", "{}"),
        ]),
        Message::tool_result("call_2", "DEPLOY_KEY, NPM_TOKEN"),
        Message::tool_result("call_1", "jobs:\n  build:\n    runs-on: ubuntu-latest"),
        Message::user("the deploy key is in vault path secret/ci/deploy"),
        Message::assistant("Noted: the deploy key lives in vault at secret/ci/deploy."),
        Message::user("Also, I prefer tabs over spaces."),
    ]
}

/// Every part of every message of every request, as a flat list.
fn all_parts(requests: &[CompletionRequest]) -> Vec<&Part> {
    requests.iter().flat_map(|request| &request.messages).flat_map(|message| &message.parts).collect()
}

fn request_text(request: &CompletionRequest) -> String {
    request.messages.iter().map(|message| message.text().into_owned()).collect::<Vec<_>>().join("\n")
}

#[test]
fn template_compactor_conforms() {
    for compactor in [
        TemplateCompactor::new(),
        TemplateCompactor::new().with_max_bytes(None),
        TemplateCompactor::new().with_max_bytes(Some(0)),
        TemplateCompactor::new().with_max_bytes(Some(64)).with_max_part_bytes(5),
    ] {
        let report = block_on(run(&compactor, &CompactorConfig::default()));
        assert!(report.is_ok(), "{compactor:?}: {report:?}");
    }
}

#[test]
fn llm_compactor_conforms_with_a_digesting_model() {
    let compactor = LlmCompactor::new(ScriptedModel::digest());
    let report = block_on(run(&compactor, &CompactorConfig::default()));
    assert!(report.is_ok(), "{report:?}");
}

#[test]
fn llm_compactor_conforms_when_every_answer_is_over_the_cap() {
    let model = ScriptedModel::new().otherwise(|request| Ok(echo_twice(request)));
    let compactor = LlmCompactor::new(model).with_max_bytes(Some(500));
    let report = block_on(run(&compactor, &CompactorConfig::default()));
    assert!(report.is_ok(), "{report:?}");
}

#[test]
fn the_template_summary_keeps_the_needle() {
    let compactor = TemplateCompactor::new();
    let history = history_with_needle();
    let (older, newer) = history.split_at(4);
    let first = block_on(compactor.compact(&id(), older, None, None)).expect("first roll");
    let second =
        block_on(compactor.compact(&id(), newer, Some(&first), Some("keep paths"))).expect("second roll");
    let rendered = compactor.render(&second).text().into_owned();
    assert!(rendered.contains("user: the deploy key is in vault path secret/ci/deploy"), "{rendered}");
    assert!(rendered.contains("hint: keep paths"), "{rendered}");
    // The first roll's lines are still there, tool markers included.
    assert!(rendered.contains("assistant called list_secrets {} [call_2]"), "{rendered}");
    assert!(rendered.contains("list_secrets [call_2] returned: DEPLOY_KEY, NPM_TOKEN"), "{rendered}");
}

#[test]
fn the_llm_requests_carry_needle_carry_over_and_hint_and_no_tool_parts() {
    let model =
        ScriptedModel::new().answer("## Identifiers\n- deploy key: vault secret/ci/deploy").answer("done");
    let compactor = LlmCompactor::new(model.clone());
    let history = history_with_needle();
    let (older, newer) = history.split_at(5);
    let first = block_on(compactor.compact(&id(), older, None, None)).expect("first roll");
    let second = block_on(compactor.compact(&id(), newer, Some(&first), Some("user prefers tabs")))
        .expect("second roll");
    assert_eq!(second, LlmSummary::new("done", 2));

    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    let (first_request, second_request) = (request_text(&requests[0]), request_text(&requests[1]));
    assert!(first_request.contains("user: the deploy key is in vault path secret/ci/deploy"));
    assert!(
        first_request.contains(r#"assistant called read_file {"path":".github/workflows/ci.yml"} [call_1]"#)
    );
    assert!(first_request.contains("list_secrets [call_2] returned: DEPLOY_KEY, NPM_TOKEN"));
    assert!(second_request.contains("## Identifiers\n- deploy key: vault secret/ci/deploy"));
    assert!(second_request.contains("user prefers tabs"));
    assert!(second_request.contains("user: Also, I prefer tabs over spaces."));
    let tool_parts: Vec<&Part> =
        all_parts(&requests).into_iter().filter(|part| !matches!(part, Part::Text { .. })).collect();
    assert!(tool_parts.is_empty(), "{tool_parts:?}");
}

/// An over-long answer: the request's last message twice over, so it always exceeds what came in.
fn echo_twice(request: &CompletionRequest) -> Completion {
    let last = request.messages.last().map(|message| message.text().into_owned()).unwrap_or_default();
    Completion::new(format!("{last}\n{last}"), FinishReason::Length, Usage::default())
}

/// `history` cut into chunks of `size` messages, handed out in turn for `ROLLS` rolls.
fn rolls_over(history: &[Message], size: usize) -> impl Iterator<Item = &[Message]> {
    let chunks: Vec<&[Message]> = history.chunks(size.max(1)).collect();
    (0..ROLLS).map(move |roll| chunks.get(roll % chunks.len().max(1)).copied().unwrap_or(&[]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    // Over 100 rolls the template summary stays under its cap, every line ever
    // written is either kept or counted as dropped, and the newest line survives
    // (cut if it alone is over the cap).
    #[test]
    fn template_summary_stays_capped_over_100_rolls(
        history in arb_history(),
        chunk in 1..6usize,
        max_bytes in 0..2_000usize,
        max_part_bytes in 0..200usize,
    ) {
        let compactor = TemplateCompactor::new().with_max_bytes(Some(max_bytes)).with_max_part_bytes(max_part_bytes);
        let mut summary: Option<TemplateSummary> = None;
        let mut written = 0u64;
        for (roll, evicted) in rolls_over(&history, chunk).enumerate() {
            let hint = (roll % 3 == 0).then_some("keep identifiers verbatim");
            let next = block_on(compactor.compact(&id(), evicted, summary.as_ref(), hint)).expect("never fails");
            written += evicted.len() as u64 + u64::from(hint.is_some());
            prop_assert!(next.bytes() <= max_bytes, "roll {}: {} bytes over a cap of {}", roll, next.bytes(), max_bytes);
            prop_assert_eq!(next.lines.len() as u64 + next.dropped, written);
            // From five bytes on there is room for any first character and a
            // newline, so the newest line always keeps something.
            let entries = transcript::entries(evicted, Style::compact(max_part_bytes));
            if let Some(newest) = entries.last().filter(|_| max_bytes >= 5) {
                let last = next.lines.last().map(String::as_str).unwrap_or_default();
                let kept = last.strip_suffix('…').unwrap_or(last);
                prop_assert!(!kept.is_empty() && newest.starts_with(kept), "roll {}: {:?} does not start {:?}", roll, last, newest);
            }
            summary = Some(next);
        }
    }

    // Over 100 rolls the LLM summary stays under its cap although every answer
    // is longer than everything the model was sent.
    #[test]
    fn llm_summary_stays_capped_over_100_rolls(
        history in arb_history(),
        chunk in 1..6usize,
        max_bytes in 1..3_000usize,
    ) {
        let model = ScriptedModel::new().otherwise(|request| Ok(echo_twice(request)));
        let compactor = LlmCompactor::new(model.clone()).with_max_bytes(Some(max_bytes));
        let mut summary: Option<LlmSummary> = None;
        for (roll, evicted) in rolls_over(&history, chunk).enumerate() {
            let next = block_on(compactor.compact(&id(), evicted, summary.as_ref(), None)).expect("a summary");
            prop_assert!(next.text.len() <= max_bytes, "roll {}: {} bytes over a cap of {}", roll, next.text.len(), max_bytes);
            prop_assert_eq!(next.rolls as usize, roll + 1);
            summary = Some(next);
        }
        prop_assert_eq!(model.calls(), ROLLS);
    }
}

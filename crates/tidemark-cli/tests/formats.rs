//! Claude and Responses transcripts through the command and through every strategy and policy: valid output, within budget, signed blocks byte for byte.

use std::collections::HashSet;
use std::io::Write;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;
use serde_json::Value;
use tidemark_compaction::{
    ClearToolOutputs, DynPipeline, DynStrategy, Fallback, SummarizeStrategy, TruncateStrategy,
};
use tidemark_core::{MemoryPolicy, Message, Role, Window, validate};
use tidemark_memory::{LastTurns, SlidingWindow, TokenWindow};
use tidemark_providers::anthropic::ClaudeTranscript;
use tidemark_providers::responses::ResponsesTranscript;
use tidemark_testkit::counters::QuarterCounter as Quarter;
use tidemark_testkit::scripted::ScriptedModel;
use tidemark_testkit::strategies::{arb_claude_transcript, arb_responses_transcript};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts").join(name)
}

fn tidemark(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(args)
        .env_remove("TIDEMARK_STORE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.unwrap_or_default()).expect("stdin takes the input");
    drop(input);
    child.wait_with_output().expect("the binary finishes")
}

/// Every opaque block's raw text.
fn signed(messages: &[Message]) -> Vec<String> {
    messages.iter().flat_map(|message| message.opaque_blocks().map(|block| block.raw.clone())).collect()
}

#[test]
fn compact_keeps_a_claude_transcript_within_budget_valid_and_its_signed_blocks_byte_identical() {
    let path = example("claude-tool-use.json");
    let input = std::fs::read_to_string(&path).expect("the example is shipped");
    let original = ClaudeTranscript::from_json(&input).expect("the example reads");
    let before: HashSet<String> = signed(&original.messages).into_iter().collect();
    assert_eq!(before.len(), 4, "three thinking blocks and one redacted block");
    for strategy in ["truncate", "clear-tools", "auto"] {
        for budget in ["250", "400", "600"] {
            let file = path.to_str().expect("utf-8 path");
            let args = [
                "compact",
                file,
                "--format",
                "anthropic",
                "--budget",
                budget,
                "--strategy",
                strategy,
                "--best-effort",
            ];
            let output =
                tidemark(&[&args[..], &["--counter", "heuristic", "--stats", "json"]].concat(), None);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{strategy} {budget}: {stderr}");
            let stats: Value = serde_json::from_str(stderr.trim()).expect("stats are JSON");
            let written = String::from_utf8(output.stdout).expect("UTF-8 output");
            let compacted = ClaudeTranscript::from_json(&written).expect("the output is a Claude transcript");
            validate(&compacted.messages).expect("the output is a valid history");
            let first = compacted.messages.iter().find(|message| message.role != Role::System);
            assert_eq!(
                first.map(|message| message.role),
                Some(Role::User),
                "{strategy} {budget}: the API wants a user turn first"
            );
            if stats["outcome"] != "over_budget" {
                let tokens = stats["tokens_out"].as_u64().expect("a count");
                assert!(tokens <= budget.parse::<u64>().expect("a number"), "{strategy} {budget}: {stats}");
            }
            for raw in signed(&compacted.messages) {
                assert!(before.contains(&raw), "{strategy} {budget} changed a signed block: {raw}");
                assert!(input.contains(&raw) && written.contains(&raw));
            }
            assert!(written.len() < input.len(), "{strategy} {budget} shrank nothing");
        }
    }
}

#[test]
fn compact_and_convert_write_a_responses_transcript_back_in_its_format() {
    let path = example("responses-tool-use.json");
    let file = path.to_str().expect("utf-8 path");
    let input = std::fs::read_to_string(&path).expect("the example is shipped");
    let output = tidemark(
        &["compact", file, "--budget", "300", "--strategy", "truncate", "--counter", "heuristic"],
        None,
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let written = String::from_utf8(output.stdout).expect("UTF-8 output");
    let compacted =
        ResponsesTranscript::from_json(&written).expect("auto-detected and written as Responses items");
    validate(&compacted.messages).expect("valid");
    assert!(!signed(&compacted.messages).is_empty(), "the newest reasoning is kept");
    for raw in signed(&compacted.messages) {
        assert!(input.contains(&raw), "a reasoning item changed: {raw}");
    }
    // Into its own format a transcript only loses its line breaks.
    let same = tidemark(&["convert", file, "--to", "responses"], None);
    assert!(same.status.success());
    let compact_input: String = input.lines().collect();
    assert_eq!(String::from_utf8_lossy(&same.stdout).trim_end(), compact_input);
}

#[test]
fn lossy_conversions_are_refused_with_status_2_naming_the_block() {
    let check = |file: &str, to: &str, expected: &str| {
        let path = example(file);
        let output = tidemark(&["convert", path.to_str().expect("utf-8 path"), "--to", to], None);
        assert_eq!(output.status.code(), Some(2), "{file} to {to}");
        assert!(output.stdout.is_empty(), "nothing is written");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{file} to {to}: {stderr}");
    };
    check(
        "claude-tool-use.json",
        "openai",
        "message 2 part 0: the thinking block from anthropic has no lossless form in OpenAI chat",
    );
    check("claude-tool-use.json", "responses", "message 2 part 0: the thinking block from anthropic");
    check(
        "responses-tool-use.json",
        "anthropic",
        "message 2 part 0: the reasoning block from responses has no lossless form in Anthropic Messages",
    );
}

/// JSON lines as values, so that field order does not matter.
fn lines(text: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(text)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[test]
fn plain_transcripts_convert_both_ways_without_loss() {
    let chat = br#"{"role":"system","content":"Be brief."}
{"role":"user","content":"List the files."}
{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}
{"role":"tool","tool_call_id":"c1","content":"a.rs"}
{"role":"assistant","content":"One file."}
"#;
    for to in ["anthropic", "responses"] {
        let there = tidemark(&["convert", "--to", to], Some(chat));
        assert!(there.status.success(), "{to}: {}", String::from_utf8_lossy(&there.stderr));
        let back = tidemark(&["convert", "--from", to, "--to", "openai"], Some(&there.stdout));
        assert!(back.status.success(), "{to}: {}", String::from_utf8_lossy(&back.stderr));
        assert_eq!(lines(&back.stdout), lines(chat), "through {to}");
    }
}

#[test]
fn detection_names_both_formats_when_an_input_shows_two() {
    let mixed = br#"[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},{"type":"function_call_output","call_id":"c","output":"x"}]"#;
    let output = tidemark(&["count"], Some(mixed));
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("looks like Anthropic Messages (element 0 has a \"tool_use\" block) and like OpenAI Responses (element 1 is an item of type \"function_call_output\")"),
        "{stderr}"
    );
    assert!(stderr.contains("--format"), "{stderr}");
    // Told the format, the same input is read as that format and its problem named.
    let told = tidemark(&["count", "--format", "anthropic"], Some(mixed));
    assert_eq!(told.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&told.stderr).contains("messages[1]: missing `role`"));
}

/// Every step a compaction of these formats goes through, with the output it gave.
fn compactions(history: &[Message], budget: NonZeroU32, keep: usize) -> Vec<(String, Vec<Message>)> {
    let run = |strategy: &dyn DynStrategy| {
        futures::executor::block_on(strategy.compact_boxed(history, budget, &Quarter))
            .map(|done| done.history)
            .unwrap_or_else(|_| history.to_vec())
    };
    let mut outputs = vec![
        ("truncate".to_owned(), run(&TruncateStrategy::new().preserve_last(keep))),
        ("clear".to_owned(), run(&ClearToolOutputs::new())),
        ("summarize".to_owned(), run(&SummarizeStrategy::new(ScriptedModel::digest()).preserve_last(keep))),
        (
            "pipeline".to_owned(),
            run(&DynPipeline::boxed(vec![
                Box::new(ClearToolOutputs::new()),
                Box::new(
                    SummarizeStrategy::new(ScriptedModel::digest())
                        .preserve_last(keep)
                        .with_fallback(Fallback::Truncate),
                ),
                Box::new(TruncateStrategy::new().preserve_last(keep)),
            ])),
        ),
    ];
    let window = Window::new(history);
    let policies: [(&str, &dyn MemoryPolicy); 3] = [
        ("sliding", &SlidingWindow::last_messages(keep + 1)),
        ("turns", &LastTurns::new(keep)),
        ("tokens", &TokenWindow::new(budget, Quarter)),
    ];
    for (name, policy) in policies {
        let (kept, _) = policy.select(&window).split(history);
        outputs.push((name.to_owned(), kept.into_iter().cloned().collect()));
    }
    outputs
}

/// The checks every compaction of a transcript must pass: valid, writable, readable, signed blocks unchanged and with their message.
fn check_compactions(
    original: &[Message],
    budget: NonZeroU32,
    keep: usize,
    write: &dyn Fn(&[Message]) -> String,
    read: &dyn Fn(&str) -> Vec<Message>,
) -> Result<(), TestCaseError> {
    let before: HashSet<String> = signed(original).into_iter().collect();
    // Each message that holds a signed block, as read: it must come out whole or not at all.
    let holders: Vec<&Message> = original.iter().filter(|m| m.opaque_blocks().next().is_some()).collect();
    for (name, output) in compactions(original, budget, keep) {
        prop_assert_eq!(validate(&output), Ok(()), "{} broke the history", name);
        let written = write(&output);
        let back = read(&written);
        prop_assert_eq!(validate(&back), Ok(()), "{} wrote an invalid history", name);
        for message in output.iter().filter(|m| m.opaque_blocks().next().is_some()) {
            prop_assert!(
                holders.iter().any(|held| held.parts == message.parts && held.role == message.role),
                "{} changed a message that holds a signed block",
                name
            );
        }
        for raw in signed(&back) {
            prop_assert!(before.contains(&raw), "{} changed a signed block", name);
            prop_assert!(written.contains(&raw));
        }
        prop_assert_eq!(signed(&back), signed(&output));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn every_strategy_and_policy_keeps_claude_histories_valid_and_signed_blocks_unchanged(
        json in arb_claude_transcript(),
        budget in 20u32..400,
        keep in 0usize..4,
    ) {
        let transcript = ClaudeTranscript::from_json(&json).expect("readable");
        let budget = NonZeroU32::new(budget).expect("positive");
        let write = |messages: &[Message]| transcript.with_messages(messages.to_vec()).to_json().expect("writes");
        let read = |text: &str| ClaudeTranscript::from_json(text).expect("reads back").messages;
        check_compactions(&transcript.messages, budget, keep, &write, &read)?;
    }

    #[test]
    fn every_strategy_and_policy_keeps_responses_histories_valid_and_reasoning_unchanged(
        json in arb_responses_transcript(),
        budget in 20u32..400,
        keep in 0usize..4,
    ) {
        let transcript = ResponsesTranscript::from_json(&json).expect("readable");
        let budget = NonZeroU32::new(budget).expect("positive");
        let write = |messages: &[Message]| transcript.with_messages(messages.to_vec()).to_json().expect("writes");
        let read = |text: &str| ResponsesTranscript::from_json(text).expect("reads back").messages;
        check_compactions(&transcript.messages, budget, keep, &write, &read)?;
    }
}

#[test]
fn a_claude_transcript_appended_loads_back_in_its_format_with_signed_blocks_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("memory.db");
    let store = store.to_str().expect("utf-8 path");
    let path = example("claude-tool-use.json");
    let input = std::fs::read_to_string(&path).expect("the example is shipped");
    let appended = tidemark(
        &["append", "--conversation", "claude", "--store", store, path.to_str().expect("utf-8")],
        None,
    );
    assert!(appended.status.success(), "{}", String::from_utf8_lossy(&appended.stderr));
    // The large budget first: a load that compacts moves the stored watermark for the next.
    for budget in ["5000", "300"] {
        let loaded =
            tidemark(&["load", "--conversation", "claude", "--store", store, "--budget", budget], None);
        assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
        let written = String::from_utf8(loaded.stdout).expect("UTF-8 output");
        let history = ClaudeTranscript::from_json(&written).expect("printed as a Claude transcript").messages;
        validate(&history).expect("valid");
        let kept = signed(&history);
        if budget == "5000" {
            assert_eq!(kept.len(), 4, "a budget that holds everything keeps every signed block");
        }
        for raw in kept {
            assert!(input.contains(&raw), "budget {budget}: a signed block changed: {raw}");
        }
    }
}

#[test]
fn a_broken_history_is_refused_naming_its_place_in_the_input() {
    let check = |input: &[u8], format: &str, expected: &str| {
        let output = tidemark(&["compact", "--strict", "--last", "5", "--format", format], Some(input));
        assert_eq!(output.status.code(), Some(2), "{format}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{format}: {stderr}");
    };
    // The second user turn is the third message once the system prompt is one, yet it is named as written.
    let claude = br#"{"system":"s","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yes"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"zz","content":"x"}]}]}"#;
    check(claude, "anthropic", "messages[2]: tool result for unknown call id \"zz\"");
    let responses = br#"[{"role":"user","content":"hi"},{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call_output","call_id":"zz","output":"x"}]"#;
    check(responses, "responses", "input[2]: tool result for unknown call id \"zz\"");
}

#[test]
fn convert_drops_nothing_not_even_an_orphan_result() {
    let orphan = br#"[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"zz","content":"x"}]"#;
    let output = tidemark(&["convert", "--to", "anthropic"], Some(orphan));
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("message 1: tool result for unknown call id \"zz\"")
    );
}

#[test]
fn both_samples_replay_turn_by_turn_with_compactions() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, budget) in [("claude-tool-use.json", "300"), ("responses-tool-use.json", "200")] {
        let store = dir.path().join(format!("{name}.db"));
        let path = example(name);
        let args = [
            "replay",
            path.to_str().expect("utf-8"),
            "--store",
            store.to_str().expect("utf-8"),
            "--budget",
            budget,
        ];
        let output = tidemark(&args, None);
        let report = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        let compactions = report
            .lines()
            .find_map(|line| line.strip_prefix("compactions"))
            .and_then(|count| count.trim().parse::<u32>().ok());
        assert!(compactions.is_some_and(|count| count > 0), "{name} never compacted: {report}");
    }
}

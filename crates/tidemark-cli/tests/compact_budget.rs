//! `tidemark compact` keeps its budget by an independent count: OpenAI's cookbook rule applied to the JSON a request would send.
//!
//! The count here shares nothing with the counters' chat accounting but the
//! tokenizer: it converts the output to request wire form and sums the tokens
//! of every string in every wire message, plus 3 per message, 1 per `name`
//! and 3 to prime the reply (85 per image or file part). Issue 17 found a
//! tau-bench run that `compact --budget 3000` reported at 2,908 tokens while
//! this count put it at 3,101.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;
use tidemark_core::{Message, TokenCounter};
use tidemark_memory::TiktokenCounter;
use tidemark_providers::wire::{self, WireOptions};

/// The recorded runs in OpenAI's format, kept with the wire tests of `tidemark-providers`.
const RECORDED: [&str; 3] = [
    "tau-bench-airline-gpt4o-task002-trial1.jsonl",
    "swe-agent-marshmallow-1867-fncall.jsonl",
    "openhands-sdk-hello-world-claude-sonnet-4.jsonl",
];

/// The budgets of issue 17's acceptance.
const BUDGETS: [u32; 2] = [3_000, 10_000];

fn recorded(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tidemark-providers/tests/data").join(name)
}

/// The cookbook price of a JSON value: the tokens of every string in it; an image or file part costs 85.
fn value_tokens(value: &Value, text: &dyn Fn(&str) -> u32) -> u32 {
    match value {
        Value::String(string) => text(string),
        Value::Array(items) => items.iter().map(|item| value_tokens(item, text)).sum(),
        Value::Object(object) => match object.get("type").and_then(Value::as_str) {
            Some("image_url" | "file") => 85,
            _ => object.values().map(|item| value_tokens(item, text)).sum(),
        },
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

/// The cookbook count of a prompt made of `messages`, sent as a request, in `o200k_base`.
fn cookbook_prompt(messages: &[Message]) -> u32 {
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    let text = |string: &str| counter.count_text(string);
    let per_message: u32 = wire::to_wire(messages, WireOptions::request())
        .iter()
        .map(|one| 3 + value_tokens(one, &text) + u32::from(one.get("name").is_some_and(Value::is_string)))
        .sum();
    per_message + 3
}

fn compact(file: &Path, budget: u32, strategy: &str) -> (Vec<Message>, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["compact", file.to_str().expect("utf-8 path"), "--stats", "json", "--strategy", strategy])
        .args(["--budget", &budget.to_string()])
        .env_remove("TIDEMARK_STORE")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let values: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every output line is JSON"))
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stats = stderr.lines().rev().find(|line| line.starts_with('{')).expect("a stats line");
    (
        wire::from_wire(&values).expect("the output is OpenAI messages"),
        serde_json::from_str(stats).expect("JSON"),
    )
}

#[test]
fn compacted_recorded_runs_fit_their_budget_by_the_cookbook_count() {
    let mut checked = 0;
    for name in RECORDED {
        let file = recorded(name);
        let original = wire::from_wire(
            &std::fs::read_to_string(&file)
                .expect("recorded run")
                .lines()
                .map(|line| serde_json::from_str(line).expect("JSON"))
                .collect::<Vec<Value>>(),
        )
        .expect("the recorded run reads");
        for budget in BUDGETS {
            for strategy in ["auto", "truncate"] {
                let (out, stats) = compact(&file, budget, strategy);
                let independent = cookbook_prompt(&out);
                let context = format!("{name} --budget {budget} --strategy {strategy}: {stats}");
                assert_eq!(stats["outcome"].as_str().map(|o| o != "over_budget"), Some(true), "{context}");
                assert!(independent <= budget, "{context}: the cookbook counts {independent}");
                // The reported figure is the same count, not a lower estimate of it.
                assert_eq!(stats["tokens_out"].as_u64(), Some(u64::from(independent)), "{context}");
                let before = cookbook_prompt(&original);
                if before > budget {
                    assert!(independent < before, "{context}: {before} tokens before compaction");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, RECORDED.len() * BUDGETS.len() * 2);
}

#[test]
fn the_issue_17_run_is_over_both_budgets_before_compaction() {
    // Otherwise the test above would prove nothing for it.
    let file = recorded("tau-bench-airline-gpt4o-task002-trial1.jsonl");
    let values: Vec<Value> = std::fs::read_to_string(file)
        .expect("recorded run")
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    let messages = wire::from_wire(&values).expect("reads");
    let total = cookbook_prompt(&messages);
    assert!(total > BUDGETS[1], "{total}");
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    assert_eq!(counter.count_prompt(&messages), total);
}

#[test]
fn summarize_compacts_an_agent_run_with_one_user_message() {
    // SWE-agent's run is one task message and thirteen tool steps. Summaries
    // once cut only before user messages, so `--strategy summarize` left all
    // 8,453 tokens as they were and reported the history over budget.
    let file = recorded("swe-agent-marshmallow-1867-fncall.jsonl");
    for budget in [1_500, 3_000] {
        let (messages, stats) = compact(&file, budget, "summarize");
        assert_eq!(stats["outcome"], "applied", "{stats}");
        assert!(stats["tokens_out"].as_u64() <= Some(u64::from(budget)), "{stats}");
        tidemark_core::validate(&messages).expect("no tool call is separated from its result");
        let summary = messages.iter().find(|message| message.text().starts_with("[Summary of the earlier"));
        assert!(summary.is_some(), "no summary in the output");
    }
}

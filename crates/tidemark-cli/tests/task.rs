//! `tidemark compact` keeps the task (issue 37): on the recorded agent runs and the shipped examples,
//! at budgets from 10% to 100% of their size, every result that fits its budget holds the newest human
//! instruction, verbatim or carried cut with its marker, whenever the messages that must stay (system
//! messages and the newest unit) leave room for a copy at all.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use tidemark_compaction::{INSTRUCTION_HEADER, SUMMARY_HEADER};
use tidemark_core::task::{CUT_MARKER, holds_instruction, instruction};
use tidemark_core::{Message, Role, TokenCounter, units};
use tidemark_providers::anthropic::ClaudeTranscript;
use tidemark_providers::responses::ResponsesTranscript;
use tidemark_providers::wire;

/// The transcripts, with the format each is read in.
fn transcripts() -> Vec<(PathBuf, &'static str)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let recorded = root.join("crates/tidemark-providers/tests/data");
    let examples = root.join("examples/transcripts");
    vec![
        (recorded.join("tau-bench-airline-gpt4o-task002-trial1.jsonl"), "openai"),
        (recorded.join("swe-agent-marshmallow-1867-fncall.jsonl"), "openai"),
        (recorded.join("openhands-sdk-hello-world-claude-sonnet-4.jsonl"), "openai"),
        (examples.join("coding-agent.jsonl"), "openai"),
        (examples.join("research-agent.jsonl"), "openai"),
        (examples.join("claude-tool-use.json"), "anthropic"),
        (examples.join("responses-tool-use.json"), "responses"),
    ]
}

fn read(text: &str, format: &str) -> Vec<Message> {
    match format {
        "anthropic" => ClaudeTranscript::from_json(text).expect("a Claude transcript").messages,
        "responses" => ResponsesTranscript::from_json(text).expect("a Responses transcript").messages,
        _ => {
            let values: Vec<Value> = text
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| serde_json::from_str(line).expect("JSON"))
                .collect();
            wire::from_wire(&values).expect("OpenAI messages")
        }
    }
}

/// Whether what must stay (system messages and the newest unit) leaves room for a carried copy: its marker, the summary's header lines and a few words.
fn room_for_a_copy(history: &[Message], counter: &dyn TokenCounter, budget: &str) -> bool {
    let newest = units(history).last().map_or(0, |unit| unit.start());
    let mut staying: Vec<Message> =
        history[..newest].iter().filter(|m| m.role == Role::System).cloned().collect();
    staying.extend(history[newest..].iter().cloned());
    let carrier = [CUT_MARKER, SUMMARY_HEADER, INSTRUCTION_HEADER]
        .iter()
        .map(|text| counter.count_text(text))
        .sum::<u32>();
    let budget: u32 = budget.parse().expect("a number");
    counter.count_prompt(&staying) + carrier + 16 <= budget
}

#[test]
fn compact_keeps_the_instruction_of_recorded_runs_at_every_budget() {
    let counter = tidemark_memory::HeuristicCounter::default();
    let mut checked = 0;
    for (path, format) in transcripts() {
        let text = std::fs::read_to_string(&path).expect("the transcript is shipped");
        let original = read(&text, format);
        let Some(index) = instruction(&original) else { continue };
        let task = original[index].text().into_owned();
        let size = counter.count_prompt(&original);
        for percent in [10, 25, 50, 75, 100] {
            let budget = (size * percent / 100).max(1).to_string();
            for strategy in ["truncate", "auto", "summarize"] {
                let output = Command::new(env!("CARGO_BIN_EXE_tidemark"))
                    .args(["compact", path.to_str().expect("utf-8 path"), "--format", format])
                    .args([
                        "--budget",
                        &budget,
                        "--strategy",
                        strategy,
                        "--counter",
                        "heuristic",
                        "--best-effort",
                        "--stats",
                        "json",
                    ])
                    .env_remove("TIDEMARK_STORE")
                    .stdin(Stdio::null())
                    .output()
                    .expect("the binary runs");
                let stderr = String::from_utf8_lossy(&output.stderr);
                let context = format!("{} {strategy} at {percent}% ({budget} tokens)", path.display());
                assert!(output.status.success(), "{context}: {stderr}");
                let stats: Value = serde_json::from_str(stderr.trim()).expect("stats are JSON");
                if stats["outcome"] == "over_budget" || !room_for_a_copy(&original, &counter, &budget) {
                    continue;
                }
                let written = read(&String::from_utf8_lossy(&output.stdout), format);
                assert!(holds_instruction(&written, &task), "{context} lost the instruction: {stats}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 60, "only {checked} results fitted their budget");
}

//! The commands on the session files agents keep (issue 37): a Claude Code session and a Codex
//! rollout, the samples in `examples/transcripts/`, detected by `--format auto` and read by
//! `count`, `compact` and `replay`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tidemark_core::{Role, validate};
use tidemark_providers::anthropic::ClaudeTranscript;
use tidemark_providers::responses::ResponsesTranscript;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts").join(name)
}

fn tidemark(args: &[&str], store: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tidemark"));
    command.args(args).env_remove("TIDEMARK_STORE").stdin(Stdio::null());
    if let Some(store) = store {
        command.env("TIDEMARK_STORE", store);
    }
    command.output().expect("the binary runs")
}

/// The sessions, with the messages each holds and the first words of its instruction.
const SESSIONS: [(&str, &str, usize, &str); 2] = [
    ("claude-code-session.jsonl", "claude-code", 9, "Thanks. Now run the whole test suite."),
    ("codex-rollout.jsonl", "codex", 5, "The cart total ignores discount codes."),
];

#[test]
fn session_files_are_detected_counted_and_compacted() {
    for (name, format, messages, instruction) in SESSIONS {
        let path = sample(name);
        let file = path.to_str().expect("utf-8 path");
        for choice in ["auto", format] {
            let output = tidemark(&["count", file, "--format", choice, "--counter", "heuristic"], None);
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(output.status.success(), "{name} {choice}: {}", String::from_utf8_lossy(&output.stderr));
            assert!(stdout.contains(&format!("total\t{messages} messages")), "{name}: {stdout}");
        }
        // Compacted, the history is written as the format it was read as: a Messages body or Responses items.
        let args = ["compact", file, "--budget", "320", "--counter", "heuristic", "--stats", "json"];
        let output = tidemark(&args, None);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{name}: {stderr}");
        let stats: Value = serde_json::from_str(stderr.trim()).expect("stats are JSON");
        assert!(stats["tokens_out"].as_u64() <= Some(320), "{name}: {stats}");
        let written = String::from_utf8(output.stdout).expect("UTF-8 output");
        let history = match format {
            "claude-code" => {
                ClaudeTranscript::from_json(&written).expect("an Anthropic Messages body").messages
            }
            _ => ResponsesTranscript::from_json(&written).expect("Responses items").messages,
        };
        validate(&history).expect("a valid history");
        assert!(written.contains(instruction), "{name}: the instruction is kept: {written}");
        if format == "claude-code" {
            let first = history.iter().find(|message| message.role != Role::System).map(|m| m.role);
            assert_eq!(first, Some(Role::User), "the Messages API wants a user turn first");
        }
    }
}

#[test]
fn what_a_session_file_holds_besides_its_thread_is_left_out() {
    let output = tidemark(
        &["compact", sample("claude-code-session.jsonl").to_str().expect("utf-8"), "--last", "100"],
        None,
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let written = String::from_utf8_lossy(&output.stdout);
    // The subagent's own thread, the abandoned reply and Claude Code's compaction summary are not the thread.
    assert!(!written.contains("claude-haiku") && !written.contains("Subagent"), "{written}");
    assert!(!written.contains("must have been updated"), "the abandoned branch is left out: {written}");
    assert!(!written.contains("being continued from a previous conversation"), "{written}");
    // The Task call and its result, which the subagent's answer came back in, are.
    assert!(written.contains("toolu_02") && written.contains("Commit 4e1f0c2"), "{written}");
    // The thinking block written on its own line is back in the turn of its call, its signature unchanged.
    let body: Value = serde_json::from_str(&written).expect("JSON");
    let turn = &body["messages"][1]["content"];
    assert_eq!(turn[0]["type"], "thinking");
    assert_eq!(turn[0]["signature"], "RXVZQkNrUVlBaUpBc2lnbmVkdGhpbmtpbmc=");
    assert_eq!(turn[1]["type"], "tool_use");
}

#[test]
fn a_session_file_named_as_another_format_or_written_to_is_refused() {
    let claude = sample("claude-code-session.jsonl");
    let codex = sample("codex-rollout.jsonl");
    for (file, wrong, seen) in [
        (&claude, "openai", "a Claude Code session"),
        (&claude, "codex", "a Claude Code session"),
        (&codex, "openai", "a Codex rollout"),
        (&codex, "claude-code", "a Codex rollout"),
    ] {
        let output = tidemark(&["count", file.to_str().expect("utf-8"), "--format", wrong], None);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{wrong}: {stderr}");
        assert!(stderr.contains(seen) && stderr.lines().count() == 1, "{wrong}: {stderr}");
    }
    let output = tidemark(&["convert", claude.to_str().expect("utf-8"), "--to", "claude-code"], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("session files are only read"));
    // A broken line is named.
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.jsonl");
    let text = std::fs::read_to_string(&codex).expect("sample")
        + "{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\"}}\n";
    std::fs::write(&broken, text).expect("write");
    let output = tidemark(&["count", broken.to_str().expect("utf-8")], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("line 15: missing `call_id`"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn replay_writes_a_report_for_each_session_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, ..) in SESSIONS {
        let report = dir.path().join(format!("{name}.html"));
        let store = dir.path().join(format!("{name}.db"));
        let path = sample(name);
        let args = ["replay", path.to_str().expect("utf-8"), "--budget", "250", "--counter", "heuristic"];
        let output =
            tidemark(&[&args[..], &["--report", report.to_str().expect("utf-8")]].concat(), Some(&store));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("turns") && stdout.contains("largest prompt"), "{name}: {stdout}");
        let html = std::fs::read_to_string(&report).expect("a report");
        assert!(html.contains("<svg"), "{name}: a chart");
    }
}

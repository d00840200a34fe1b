//! Input the commands must refuse or report honestly (issue 37): a `--format` the input contradicts,
//! signed blocks with empty or non-base64 signatures, oversized messages, and compactions that end
//! over their budget. Each gets a non-zero status and one line naming the place.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn tidemark(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(args)
        .env_remove("TIDEMARK_STORE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut input) = child.stdin.take() {
        // A write error only means the command stopped reading early, which its status reports.
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("the binary finishes")
}

/// Runs `args` on `stdin` and expects `status`, nothing written, and one line of error holding every one of `expected`.
fn refused(args: &[&str], stdin: &[u8], status: i32, expected: &[&str]) {
    let output = tidemark(args, stdin);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} wrote a result: {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line of error, got {stderr}");
    for text in expected {
        assert!(stderr.contains(text), "{args:?}: {stderr:?} does not say {text:?}");
    }
}

/// An Anthropic Messages body: a task, a signed thinking block with a tool call, and its result.
fn anthropic_body(signature: &str) -> String {
    json!({
        "system": "You fix builds.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Find why the build fails and fix it."}]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Run the build first.", "signature": signature},
                {"type": "tool_use", "id": "toolu_1", "name": "run", "input": {"cmd": "cargo build"}}
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "error[E0308]"}]}
        ]
    })
    .to_string()
}

#[test]
fn a_format_the_input_contradicts_is_refused() {
    let body = anthropic_body("c2lnbmVk");
    for command in ["count", "compact"] {
        let mut args = vec![command, "-", "--format", "responses"];
        if command == "compact" {
            args.extend(["--budget", "1000"]);
        }
        refused(
            &args,
            body.as_bytes(),
            2,
            &["--format responses was given", "Anthropic Messages", "--format anthropic"],
        );
        args[3] = "openai";
        refused(&args, body.as_bytes(), 2, &["--format openai was given", "Anthropic Messages"]);
    }
    // Chat messages with plain `text` blocks, named Responses items.
    let chat = json!([
        {"role": "user", "content": [{"type": "text", "text": "Hello"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Hi."}]}
    ])
    .to_string();
    refused(
        &["count", "-", "--format", "responses"],
        chat.as_bytes(),
        2,
        &["element 0 has a \"text\" block"],
    );
    // Responses items named Anthropic.
    let items = json!({"input": [
        {"role": "user", "content": [{"type": "input_text", "text": "Hello"}]},
        {"type": "function_call", "call_id": "c1", "name": "run", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"}
    ]})
    .to_string();
    refused(
        &["count", "-", "--format", "anthropic"],
        items.as_bytes(),
        2,
        &["OpenAI Responses", "the body has `input`"],
    );
    // The right names, and auto, still read them.
    for (input, format) in [(&body, "anthropic"), (&items, "responses"), (&chat, "anthropic")] {
        for choice in [format, "auto"] {
            let output = tidemark(&["count", "-", "--format", choice], input.as_bytes());
            assert!(output.status.success(), "{choice}: {}", String::from_utf8_lossy(&output.stderr));
        }
    }
}

#[test]
fn signed_blocks_with_empty_or_malformed_signatures_are_refused() {
    for signature in ["", "not base64!", "s"] {
        let body = anthropic_body(signature);
        for args in
            [&["compact", "-", "--budget", "1000"][..], &["convert", "-", "--to", "openai"], &["count", "-"]]
        {
            refused(
                args,
                body.as_bytes(),
                2,
                &["messages[1].content[0]", "`signature` must be non-empty base64"],
            );
        }
    }
    let items = json!([
        {"role": "user", "content": "Hello"},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": ""}
    ])
    .to_string();
    refused(
        &["count", "-"],
        items.as_bytes(),
        2,
        &["input[1]", "`encrypted_content` must be non-empty base64"],
    );
}

#[test]
fn a_message_past_the_size_bound_is_refused_in_every_format() {
    let huge = "x".repeat(17 << 20);
    let openai = json!([{"role": "user", "content": huge}]).to_string();
    refused(
        &["compact", "-", "--budget", "1000"],
        openai.as_bytes(),
        2,
        &["message 0", "more than the 16777216 allowed"],
    );
    let anthropic = json!({"system": "s", "messages": [{"role": "user", "content": huge}]}).to_string();
    refused(
        &["compact", "-", "--budget", "1000"],
        anthropic.as_bytes(),
        2,
        &["messages[0]", "more than the 16777216 allowed"],
    );
    let responses = json!({"input": [{"role": "user", "content": huge}]}).to_string();
    refused(&["count", "-"], responses.as_bytes(), 2, &["input[0]", "more than the 16777216 allowed"]);
}

/// A task, three large tool outputs, and no answer yet: OpenAI chat lines.
fn agent_loop() -> String {
    let mut lines = vec![json!({"role": "user", "content": "Find why the build fails and fix it."})];
    for (id, tool) in [("c1", "run"), ("c2", "read"), ("c3", "grep")] {
        lines.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": tool, "arguments": "{}"}}
        ]}));
        lines.push(json!({"role": "tool", "tool_call_id": id, "content": format!("{tool} says: {}", "output ".repeat(120))}));
    }
    lines.iter().map(Value::to_string).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_compaction_left_over_its_budget_exits_3_unless_best_effort_is_asked() {
    let input = agent_loop();
    let args = ["compact", "-", "--budget", "60", "--strategy", "clear-tools", "--counter", "heuristic"];
    refused(
        &args,
        input.as_bytes(),
        3,
        &["over the budget of 60", "message 6", "newest unit", "--best-effort"],
    );
    let output = tidemark(&[&args[..], &["--best-effort", "--stats", "json"]].concat(), input.as_bytes());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(!output.stdout.is_empty(), "the best effort is written");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stats: Value = serde_json::from_str(stderr.trim()).expect("stats are JSON");
    assert_eq!(stats["outcome"], "over_budget");
}

#[test]
fn clear_tools_alone_clears_recent_output_when_the_budget_needs_it() {
    let input = agent_loop();
    // The three outputs are well inside the 2,000-token allowance kept for a pipeline's later steps.
    let args = [
        "compact",
        "-",
        "--budget",
        "400",
        "--strategy",
        "clear-tools",
        "--counter",
        "heuristic",
        "--stats",
        "json",
    ];
    let output = tidemark(&args, input.as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stats: Value = serde_json::from_str(stderr.trim()).expect("stats are JSON");
    assert_eq!(stats["outcome"], "applied", "{stats}");
    assert!(stats["tokens_out"].as_u64() <= Some(400), "{stats}");
    let written = String::from_utf8_lossy(&output.stdout);
    assert!(written.contains("[output of run cleared"), "{written}");
    assert!(written.contains("grep says: output"), "the newest unit's output is kept: {written}");
}

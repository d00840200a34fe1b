//! Unit tests of the session readers on small hand-written files.

use tidemark_core::{Part, Role, validate};

use super::*;

/// A Claude Code event line.
fn event(uuid: &str, parent: Option<&str>, kind: &str, message: &str, extra: &str) -> String {
    let parent = parent.map_or_else(|| "null".to_owned(), |parent| format!("\"{parent}\""));
    format!(
        r#"{{"parentUuid":{parent},"isSidechain":false,"sessionId":"s","type":"{kind}","message":{message},"uuid":"{uuid}"{extra}}}"#
    )
}

#[test]
fn the_main_thread_is_read_with_split_messages_joined_and_side_threads_left_out() {
    let lines = [
        r#"{"type":"summary","summary":"x","leafUuid":"u4"}"#.to_owned(),
        event("u1", None, "user", r#"{"role":"user","content":"Fix the build."}"#, ""),
        event(
            "u2",
            Some("u1"),
            "assistant",
            r#"{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"Look.","signature":"c2ln"}]}"#,
            "",
        ),
        event(
            "u3",
            Some("u2"),
            "assistant",
            r#"{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}"#,
            "",
        ),
        // An abandoned reply to the same parent, and a subagent's thread.
        event(
            "x1",
            Some("u3"),
            "user",
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"old"}]}"#,
            "",
        ),
        event("s1", None, "user", r#"{"role":"user","content":"Subagent task."}"#, "")
            .replace(r#""isSidechain":false"#, r#""isSidechain":true"#),
        event(
            "u4",
            Some("u3"),
            "user",
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}"#,
            "",
        ),
    ];
    let session = read_claude_code(&lines.join("\n")).expect("a valid session");
    let messages = &session.transcript.messages;
    assert_eq!(validate(messages), Ok(()));
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert_eq!(messages[0].text(), "Fix the build.");
    // The assistant message written over two lines is one message: its thinking block and its call.
    assert_eq!(messages[1].role, Role::Assistant);
    assert!(matches!(messages[1].parts.as_slice(), [Part::Opaque(_), Part::ToolCall(_)]));
    assert_eq!(messages[2].tool_results().map(|result| result.content.as_str()).collect::<Vec<_>>(), ["ok"]);
    assert_eq!((session.line_of(0), session.line_of(1), session.line_of(2)), (Some(2), Some(3), Some(7)));
}

#[test]
fn a_compaction_boundary_is_crossed_and_its_summary_left_out() {
    let lines = [
        event("u1", None, "user", r#"{"role":"user","content":"Task one."}"#, ""),
        event("u2", Some("u1"), "assistant", r#"{"id":"m1","role":"assistant","content":[{"type":"text","text":"Done one."}]}"#, ""),
        r#"{"parentUuid":null,"logicalParentUuid":"u2","type":"system","subtype":"compact_boundary","uuid":"b1"}"#.to_owned(),
        event("u3", Some("b1"), "user", r#"{"role":"user","content":"Summary of the session so far."}"#, r#","isCompactSummary":true"#),
        event("u4", Some("u3"), "user", r#"{"role":"user","content":"Task two."}"#, ""),
    ];
    let session = read_claude_code(&lines.join("\n")).expect("a valid session");
    let texts: Vec<String> = session.transcript.messages.iter().map(|m| m.text().into_owned()).collect();
    assert_eq!(texts, ["Task one.", "Done one.", "Task two."]);
}

#[test]
fn bad_lines_are_refused_by_their_number() {
    let error = read_claude_code("{\"type\":\"user\"}\nnot json").expect_err("line 2 is not JSON");
    assert_eq!(error.place, Place::Line(2));
    let missing = event("u1", None, "user", "5", "");
    let error = read_claude_code(&missing).expect_err("a message that is not an object");
    assert_eq!(error.to_string(), "line 1: `message` must be an object");
    let unsigned = [
        event("u1", None, "user", r#"{"role":"user","content":"Go."}"#, ""),
        event(
            "u2",
            Some("u1"),
            "assistant",
            r#"{"id":"m","role":"assistant","content":[{"type":"thinking","thinking":"t","signature":""}]}"#,
            "",
        ),
    ];
    let error = read_claude_code(&unsigned.join("\n")).expect_err("an empty signature");
    assert_eq!(error.to_string(), "line 2: `signature` must be non-empty base64");
    let error = read_codex(
        "{\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\",\"encrypted_content\":\"\"}}",
    )
    .expect_err("an empty payload");
    assert_eq!(error.to_string(), "line 1: `encrypted_content` must be non-empty base64");
    let error = read_codex("{\"type\":\"response_item\"}").expect_err("no payload");
    assert_eq!(error.to_string(), "line 1: missing `payload`");
}

#[test]
fn codex_bookkeeping_is_left_out_and_opaque_items_kept() {
    let lines = [
        r#"{"type":"session_meta","payload":{"id":"s"}}"#,
        r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Patch it."}]}}"#,
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"Patch it."}}"#,
        r#"{"type":"response_item","payload":{"type":"custom_tool_call","call_id":"c","name":"apply_patch","input":"*** Begin Patch"}}"#,
        r#"{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c","output":"Success."}}"#,
        r#"{"type":"compacted","payload":{"message":"summary"}}"#,
        r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Patched."}]}}"#,
    ];
    let session = read_codex(&lines.join("\n")).expect("a valid rollout");
    let messages = &session.transcript.messages;
    assert_eq!(validate(messages), Ok(()));
    assert_eq!(messages.first().map(|m| m.text().into_owned()).as_deref(), Some("Patch it."));
    assert_eq!(messages.last().map(|m| m.text().into_owned()).as_deref(), Some("Patched."));
    assert_eq!(messages.iter().flat_map(|m| m.opaque_blocks()).count(), 2, "the custom call and its output");
    assert_eq!(session.line_of(0), Some(2));
}

#[test]
fn a_subagents_own_file_is_read_as_its_thread() {
    let side = |line: String| line.replace(r#""isSidechain":false"#, r#""isSidechain":true"#);
    let lines = [
        side(event(
            "s1",
            None,
            "user",
            r#"{"role":"user","content":"Find the commit that bumped rust_decimal."}"#,
            "",
        )),
        side(event(
            "s2",
            Some("s1"),
            "assistant",
            r#"{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git log -p Cargo.lock"}}]}"#,
            "",
        )),
        side(event(
            "s3",
            Some("s2"),
            "user",
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"commit 4e1f0c2"}]}"#,
            "",
        )),
    ];
    let session = read_claude_code(&lines.join("\n")).expect("a subagent's file");
    let messages = &session.transcript.messages;
    assert_eq!(messages.len(), 3);
    assert_eq!(validate(messages), Ok(()));
    assert_eq!(tidemark_core::task::instruction(messages), Some(0), "the opening task is the instruction");
}

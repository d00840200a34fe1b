//! Unit tests of the Claude transcript reader and writer.

use tidemark_core::{Message, OpaqueBlock, Part, Role, ToolCall, ToolResult, validate};

use super::ClaudeTranscript;

/// A compact transcript with every kind of block, in the writer's layout.
const EVERY_BLOCK: &str = concat!(
    r#"{"model":"claude-test","system":[{"type":"text","text":"You fix builds.","cache_control":{"type":"ephemeral"}}],"#,
    r#""messages":[{"role":"user","content":[{"type":"text","text":"CI is red, see the log."},"#,
    r#"{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]},"#,
    r#"{"role":"assistant","content":[{"type":"thinking","thinking":"Two files to read.","signature":"EuYBCkQYAiJA"},"#,
    r#"{"type":"redacted_thinking","data":"RW5jcnlwdGVk"},{"type":"text","text":"Reading both."},"#,
    r#"{"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"build.rs"}},"#,
    r#"{"type":"tool_use","id":"toolu_b","name":"read_file","input":{"path":"ci.yml"}}]},"#,
    r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_b","content":[{"type":"text","text":"on: push"}]},"#,
    r#"{"type":"tool_result","tool_use_id":"toolu_a","content":"no such file","is_error":true,"cache_control":{"type":"ephemeral"}},"#,
    r#"{"type":"text","text":"Anything else?"}]},"#,
    r#"{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"rust ci"}},"#,
    r#"{"type":"text","text":"The build script is missing."}]},"#,
    r#"{"role":"user","content":"Thanks."}],"max_tokens":1024}"#
);

#[test]
fn every_block_round_trips_byte_for_byte() {
    let transcript = ClaudeTranscript::from_json(EVERY_BLOCK).expect("valid");
    let roles: Vec<Role> = transcript.messages.iter().map(|message| message.role).collect();
    assert_eq!(
        roles,
        [Role::System, Role::User, Role::Assistant, Role::Tool, Role::User, Role::Assistant, Role::User]
    );
    assert_eq!(validate(&transcript.messages), Ok(()));
    let kinds: Vec<String> = transcript.messages[2].opaque_blocks().map(|block| block.kind.clone()).collect();
    assert_eq!(kinds, ["thinking", "redacted_thinking"]);
    let results: Vec<&ToolResult> = transcript.messages[3].tool_results().collect();
    assert_eq!(results[0].content, "on: push");
    assert!(results[1].is_error);
    assert_eq!(transcript.to_json().expect("writes"), EVERY_BLOCK);
}

#[test]
fn loose_spacing_is_compacted_and_every_block_kept_byte_for_byte() {
    let thinking = r#"{ "type": "thinking", "signature": "c2ln", "thinking": "order kept" }"#;
    let call = r#"{"input": {"b": 1,  "a": 2}, "type": "tool_use", "name": "f", "id": "t1"}"#;
    let json =
        format!("{{ \"messages\": [ {{\"content\": [ {thinking},\n {call} ], \"role\": \"assistant\"}} ] }}");
    let transcript = ClaudeTranscript::from_json(&json).expect("valid");
    assert_eq!(
        transcript.messages[0].tool_calls().next().map(|c| c.arguments.as_str()),
        Some(r#"{"b": 1,  "a": 2}"#)
    );
    let written = transcript.to_json().expect("writes");
    assert_eq!(written, format!(r#"{{"messages":[{{"role":"assistant","content":[{thinking},{call}]}}]}}"#));
}

#[test]
fn an_edited_result_is_written_afresh_and_keeps_its_cache_marker() {
    let transcript = ClaudeTranscript::from_json(EVERY_BLOCK).expect("valid");
    let mut messages = transcript.messages.clone();
    if let Some(Part::ToolResult(result)) = messages[3].parts.get_mut(1) {
        result.content = "[cleared]".into();
    }
    let written = transcript.with_messages(messages).to_json().expect("writes");
    let expected = EVERY_BLOCK.replace(
        r#""content":"no such file","is_error":true,"cache_control""#,
        r#""content":"[cleared]","is_error":true,"cache_control""#,
    );
    assert_eq!(written, expected);
}

#[test]
fn consecutive_user_turns_are_merged_results_first_and_nothing_is_dropped() {
    let history = vec![
        Message::user("one"),
        Message::assistant_tool_calls([ToolCall::with_raw_arguments("t1", "ls", "{}")]),
        Message::tool_result("t1", "a.rs"),
        Message::user("two"),
        Message::user("three"),
        Message::system("a late instruction"),
    ];
    let written = ClaudeTranscript::new(history).to_json().expect("writes");
    assert_eq!(
        written,
        concat!(
            r#"{"messages":[{"role":"user","content":"one"},"#,
            r#"{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]},"#,
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.rs"},"#,
            r#"{"type":"text","text":"two"},{"type":"text","text":"three"},{"type":"text","text":"a late instruction"}]}]}"#
        )
    );
}

#[test]
fn a_history_without_origin_writes_the_system_prompt_and_reads_back() {
    let history = vec![Message::system("Be brief."), Message::user("hi"), Message::assistant("hello")];
    let written = ClaudeTranscript::new(history.clone()).to_json().expect("writes");
    assert_eq!(
        written,
        r#"{"system":"Be brief.","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}"#
    );
    let back = ClaudeTranscript::from_json(&written).expect("reads");
    let plain: Vec<Message> = back
        .messages
        .into_iter()
        .map(|mut m| {
            m.origin = None;
            m
        })
        .collect();
    assert_eq!(plain, history);
}

fn check_error(json: &str, expected: &str) {
    match ClaudeTranscript::from_json(json) {
        Ok(transcript) => panic!("{json} was read as {transcript:?}"),
        Err(error) => assert_eq!(error.to_string(), expected, "{json}"),
    }
}

#[test]
fn bad_input_names_the_message_and_the_block() {
    check_error("", "the transcript: `transcript` must be an object with `messages` or an array of messages");
    check_error("{", "the transcript: malformed JSON: EOF while parsing an object at line 1 column 1");
    check_error(r#"{"system":"x"}"#, "the transcript: missing `messages`");
    check_error(r#"{"messages":{}}"#, "the transcript: `messages` must be an array");
    check_error(
        r#"{"system":7,"messages":[]}"#,
        "system: `system` must be a string or an array of text blocks",
    );
    check_error(
        r#"{"system":[{"type":"image","source":{"type":"url","url":"u"}}],"messages":[]}"#,
        "system[0]: `type` must be \"text\"",
    );
    check_error(r#"[3]"#, "messages[0]: `message` must be an object");
    check_error(r#"[{"role":"tool","content":"x"}]"#, "messages[0]: unknown role \"tool\"");
    check_error(r#"[{"role":"user"}]"#, "messages[0]: missing `content`");
    check_error(r#"[{"role":"user","content":5}]"#, "messages[0]: `content` must be a string or an array");
    check_error(r#"[{"role":"user","content":[{"text":"x"}]}]"#, "messages[0].content[0]: missing `type`");
    check_error(
        r#"[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text"}]}]"#,
        "messages[0].content[1]: missing `text`",
    );
    check_error(
        r#"[{"role":"assistant","content":[{"type":"thinking","thinking":"t"}]}]"#,
        "messages[0].content[0]: missing `signature`",
    );
    check_error(
        r#"[{"role":"assistant","content":[{"type":"redacted_thinking"}]}]"#,
        "messages[0].content[0]: missing `data`",
    );
    // The API refuses a signature that is empty or not base64, so reading one is refused here.
    check_error(
        r#"[{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":""}]}]"#,
        "messages[0].content[0]: `signature` must be non-empty base64",
    );
    check_error(
        r#"[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"not base64!"}]}]"#,
        "messages[1].content[0]: `signature` must be non-empty base64",
    );
    check_error(
        r#"[{"role":"assistant","content":[{"type":"redacted_thinking","data":""}]}]"#,
        "messages[0].content[0]: `data` must be non-empty base64",
    );
    check_error(
        r#"[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":[1]}]}]"#,
        "messages[0].content[0]: `input` must be an object",
    );
    check_error(
        r#"[{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"t"}]}]"#,
        "messages[0].content[0]: a tool_result block cannot be in an assistant message",
    );
    check_error(
        r#"[{"role":"user","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]"#,
        "messages[0].content[0]: a tool_use block cannot be in a user message",
    );
    check_error(
        r#"[{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_result","tool_use_id":"t"}]}]"#,
        "messages[0].content[1]: tool results must come before any other content of a user turn",
    );
    check_error(
        r#"[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}]"#,
        "messages[0].content[0]: `is_error` must be a boolean",
    );
    check_error(
        r#"[{"role":"user","content":[{"type":"image","source":{"type":"base64","data":"x"}}]}]"#,
        "messages[0].content[0]: missing `media_type`",
    );
}

#[test]
fn parts_without_a_lossless_form_are_refused_by_name() {
    let reasoning =
        Part::Opaque(OpaqueBlock::new("responses", "reasoning", r#"{"type":"reasoning","id":"rs_7"}"#));
    let history = vec![Message::user("q"), Message::new(Role::Assistant, vec![Part::text("a"), reasoning])];
    let error = ClaudeTranscript::new(history).to_json().expect_err("lossy");
    assert_eq!(
        error.to_string(),
        "message 1 part 1: the reasoning block \"rs_7\" from responses has no lossless form in Anthropic's format"
    );
    let history = vec![Message::assistant_tool_calls([ToolCall::with_raw_arguments("t9", "f", "[1,")])];
    let error = ClaudeTranscript::new(history).to_json().expect_err("not an object");
    assert_eq!(
        error.to_string(),
        "message 0 part 0: the arguments of tool call \"t9\" are not a JSON object"
    );
}

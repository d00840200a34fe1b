//! Unit tests of the Responses transcript reader and writer.

use tidemark_core::{Message, OpaqueBlock, Part, Role, ToolCall, ToolResult, validate};

use super::ResponsesTranscript;

/// A compact request body with every kind of item.
const EVERY_ITEM: &str = concat!(
    r#"{"model":"gpt-test","input":[{"type":"message","role":"developer","content":"You fix builds."},"#,
    r#"{"role":"user","content":[{"type":"input_text","text":"CI is red."},{"type":"input_image","image_url":"https://ci.test/shot.png","detail":"low"}]},"#,
    r#"{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Read two files."}],"encrypted_content":"gAAAAABo_enc"},"#,
    r#"{"type":"function_call","id":"fc_1","call_id":"call_a","name":"read_file","arguments":"{\"path\":\"build.rs\"}","status":"completed"},"#,
    r#"{"type":"function_call","id":"fc_2","call_id":"call_b","name":"read_file","arguments":"{\"path\":\"ci.yml\"}","status":"completed"},"#,
    r#"{"type":"function_call_output","call_id":"call_b","output":"on: push"},"#,
    r#"{"type":"function_call_output","call_id":"call_a","output":[{"type":"input_text","text":"no such"},{"type":"input_image","image_url":"https://ci.test/x.png"},{"type":"input_text","text":"file"}]},"#,
    r#"{"type":"reasoning","id":"rs_2","summary":[],"encrypted_content":"gAAAAABo_two"},"#,
    r#"{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"rust ci"}},"#,
    r#"{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"build.rs is missing.","annotations":[]}]},"#,
    r#"{"role":"user","content":[{"type":"input_file","file_id":"file_1"}]}],"store":false}"#
);

#[test]
fn every_item_round_trips_byte_for_byte() {
    let transcript = ResponsesTranscript::from_json(EVERY_ITEM).expect("valid");
    let roles: Vec<Role> = transcript.messages.iter().map(|message| message.role).collect();
    assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::Tool, Role::Assistant, Role::User]);
    assert_eq!(validate(&transcript.messages), Ok(()));
    let first: Vec<&str> = transcript.messages[2]
        .parts
        .iter()
        .map(|part| match part {
            Part::Opaque(block) => block.kind.as_str(),
            Part::ToolCall(call) => call.id.as_str(),
            _ => "other",
        })
        .collect();
    assert_eq!(first, ["reasoning", "call_a", "call_b"]);
    assert_eq!(transcript.messages[4].opaque_blocks().count(), 2);
    let outputs: Vec<&str> =
        transcript.messages[3].tool_results().map(|result| result.content.as_str()).collect();
    assert_eq!(outputs, ["on: push", "no such\nfile"]);
    assert!(matches!(&transcript.messages[5].parts[..], [Part::Opaque(block)] if block.kind == "message"));
    assert_eq!(transcript.to_json().expect("writes"), EVERY_ITEM);
}

#[test]
fn an_edited_output_is_written_afresh_and_its_neighbours_copied() {
    let transcript = ResponsesTranscript::from_json(EVERY_ITEM).expect("valid");
    let mut messages = transcript.messages.clone();
    if let Some(Part::ToolResult(result)) = messages[3].parts.get_mut(0) {
        result.content = "[cleared]".into();
    }
    let written = transcript.with_messages(messages).to_json().expect("writes");
    assert_eq!(written, EVERY_ITEM.replace(r#""output":"on: push""#, r#""output":"[cleared]""#));
}

#[test]
fn a_history_without_origin_is_written_as_items_and_reads_back() {
    let history = vec![
        Message::system("Be brief."),
        Message::user("List the files."),
        Message::assistant("Listing.")
            .with_part(Part::ToolCall(ToolCall::with_raw_arguments("c1", "ls", "{}"))),
        Message::tool_result("c1", "a.rs"),
        Message::assistant("One file."),
    ];
    let written = ResponsesTranscript::new(history.clone()).to_json().expect("writes");
    assert_eq!(
        written,
        concat!(
            r#"[{"type":"message","role":"system","content":"Be brief."},"#,
            r#"{"type":"message","role":"user","content":"List the files."},"#,
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Listing.","annotations":[]}]},"#,
            r#"{"type":"function_call","call_id":"c1","name":"ls","arguments":"{}"},"#,
            r#"{"type":"function_call_output","call_id":"c1","output":"a.rs"},"#,
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"One file.","annotations":[]}]}]"#
        )
    );
    let back = ResponsesTranscript::from_json(&written).expect("reads");
    let plain: Vec<Message> = back
        .messages
        .into_iter()
        .map(|mut message| {
            message.origin = None;
            message
        })
        .collect();
    assert_eq!(plain, history);
}

fn check_error(json: &str, expected: &str) {
    match ResponsesTranscript::from_json(json) {
        Ok(transcript) => panic!("{json} was read as {transcript:?}"),
        Err(error) => assert_eq!(error.to_string(), expected, "{json}"),
    }
}

#[test]
fn bad_input_names_the_item() {
    check_error("7", "the transcript: `transcript` must be an object with `input` or an array of items");
    check_error(r#"{"model":"m"}"#, "the transcript: missing `input`");
    check_error(r#"{"input":"hi"}"#, "the transcript: `input` must be an array of items");
    check_error(r#"[1]"#, "input[0]: `item` must be an object");
    check_error(r#"[{"role":"critic","content":"x"}]"#, "input[0]: unknown role \"critic\"");
    check_error(r#"[{"role":"user"}]"#, "input[0]: missing `content`");
    check_error(
        r#"[{"role":"user","content":"a"},{"type":"function_call","name":"f","arguments":"{}"}]"#,
        "input[1]: missing `call_id`",
    );
    check_error(
        r#"[{"type":"function_call","call_id":"c","name":"f","arguments":{}}]"#,
        "input[0]: `arguments` must be a string",
    );
    check_error(r#"[{"type":"function_call_output","call_id":"c"}]"#, "input[0]: missing `output`");
    check_error(
        r#"[{"type":"function_call_output","call_id":"c","output":7}]"#,
        "input[0]: `output` must be a string or an array of parts",
    );
    check_error(
        r#"[{"type":"reasoning","encrypted_content":5}]"#,
        "input[0]: `encrypted_content` must be a string",
    );
    check_error(
        r#"[{"type":"reasoning","encrypted_content":""}]"#,
        "input[0]: `encrypted_content` must be non-empty base64",
    );
    check_error(
        r#"[{"type":"reasoning","encrypted_content":"gAAA AAB"}]"#,
        "input[0]: `encrypted_content` must be non-empty base64",
    );
    check_error(r#"[{"role":"user","content":[{"type":"input_text"}]}]"#, "input[0]: missing `text`");
}

#[test]
fn parts_without_a_lossless_form_are_refused_by_name() {
    let thinking = Part::Opaque(OpaqueBlock::new("anthropic", "thinking", r#"{"type":"thinking"}"#));
    let check = |history: Vec<Message>, expected: &str| {
        let error = ResponsesTranscript::new(history).to_json().expect_err("lossy");
        assert_eq!(error.to_string(), expected);
    };
    check(
        vec![Message::new(Role::Assistant, vec![thinking])],
        "message 0 part 0: the thinking block from anthropic has no lossless form in OpenAI's Responses format",
    );
    check(
        vec![Message::new(Role::Tool, vec![Part::ToolResult(ToolResult::error("c", "boom"))])],
        "message 0 part 0: a failed tool result has no lossless form in OpenAI's Responses format",
    );
}

//! Message conversion both ways: every field rig has survives a trip through tidemark (and its storage); tidemark's rig-shaped histories survive a trip through rig.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use rig_core::completion::message::{
    AssistantContent, AssistantMessage, Audio, AudioMediaType, CallId, Document, DocumentMediaType,
    DocumentSourceKind, Image, ImageDetail, ImageMediaType, LocalCallId, Message as RigMessage,
    Origin as RigOrigin, ProviderCallId, Reasoning, StopReason, Text, ToolCall as RigToolCall, ToolFunction,
    ToolName, ToolResult as RigToolResult, ToolResultContent, UserContent,
};
use serde_json::json;
use tidemark_core::message::{history_from_json, history_to_json};
use tidemark_core::{Message, OpaqueBlock, Part, Role, ToolCall, validate};
use tidemark_rig::{ConvertError, RIG, to_rig, to_tidemark};
use tidemark_testkit::strategies::arb_history;

fn words() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z]{1,8}( [a-z]{1,8}){0,6}", "[ -~]{0,40}", "\\PC{0,20}",]
}

fn call_id() -> impl Strategy<Value = CallId> {
    prop_oneof![
        4 => (0..10_000_u32).prop_map(|n| CallId::from(ProviderCallId::new(format!("call_{n}")).expect("not empty"))),
        1 => Just(()).prop_map(|()| CallId::from(LocalCallId::new())),
    ]
}

fn tool_name() -> impl Strategy<Value = ToolName> {
    "[a-z_]{1,12}".prop_map(|name| ToolName::new(name).expect("not empty"))
}

fn source() -> impl Strategy<Value = DocumentSourceKind> {
    prop_oneof![
        "[a-z]{1,10}".prop_map(|p| DocumentSourceKind::Url(format!("https://example.test/{p}"))),
        "[A-Za-z0-9+/]{4,40}".prop_map(DocumentSourceKind::Base64),
        "file-[a-z0-9]{6}".prop_map(DocumentSourceKind::FileId),
        words().prop_map(DocumentSourceKind::String),
    ]
}

fn image() -> impl Strategy<Value = Image> {
    let media =
        proptest::option::of(select(vec![ImageMediaType::PNG, ImageMediaType::JPEG, ImageMediaType::WEBP]));
    let detail = proptest::option::of(select(vec![ImageDetail::Low, ImageDetail::High, ImageDetail::Auto]));
    (source(), media, detail).prop_map(|(data, media_type, detail)| Image {
        data,
        media_type,
        detail,
        ..Image::default()
    })
}

fn tool_result() -> impl Strategy<Value = RigToolResult> {
    let content = vec(
        prop_oneof![
            3 => words().prop_map(|text| ToolResultContent::Text(Text::new(text))),
            1 => (words(), 0..100_i64).prop_map(|(k, v)| ToolResultContent::Json { value: json!({"key": k, "n": v}) }),
            1 => image().prop_map(ToolResultContent::Image),
        ],
        0..3,
    );
    (call_id(), tool_name(), content, any::<bool>())
        .prop_map(|(call, name, content, is_error)| RigToolResult { call, name, content, is_error })
}

fn user_item() -> impl Strategy<Value = UserContent> {
    prop_oneof![
        4 => words().prop_map(|text| UserContent::Text(Text::new(text))),
        1 => image().prop_map(UserContent::Image),
        1 => (source(), proptest::option::of(select(vec![DocumentMediaType::PDF, DocumentMediaType::MARKDOWN])))
            .prop_map(|(data, media_type)| UserContent::Document(Document { data, media_type, additional_params: None })),
        1 => source().prop_map(|data| UserContent::Audio(Audio { data, media_type: Some(AudioMediaType::MP3) })),
    ]
}

fn assistant_item() -> impl Strategy<Value = AssistantContent> {
    let arguments = prop_oneof![
        3 => (words(), 0..50_i64).prop_map(|(q, n)| json!({"query": q, "limit": n}).to_string()),
        1 => Just("{\"cut off".to_owned()),
        1 => Just("[1, 2]".to_owned()),
    ];
    prop_oneof![
        4 => words().prop_map(|text| AssistantContent::Text(Text::new(text))),
        2 => (call_id(), tool_name(), arguments).prop_map(|(id, name, arguments)| {
            AssistantContent::ToolCall(RigToolCall::new(id, ToolFunction::parse(name, &arguments)))
        }),
        1 => (words(), any::<bool>()).prop_map(|(text, redacted)| {
            AssistantContent::Reasoning(Reasoning { redacted, ..Reasoning::new(text) })
        }),
        1 => words().prop_map(|text| AssistantContent::Text(Text::new(text)).with_native(json!({"type": "output_text", "id": "msg_1"}))),
        1 => image().prop_map(AssistantContent::Image),
    ]
}

fn rig_message() -> impl Strategy<Value = RigMessage> {
    let stop = proptest::option::of(select(vec![StopReason::Stop, StopReason::ToolUse, StopReason::Length]));
    let origin = proptest::option::of(Just(RigOrigin::new("openai.chat", "openai", "gpt-4.1")));
    prop_oneof![
        1 => words().prop_map(|content| RigMessage::System { content }),
        4 => (vec(tool_result().prop_map(UserContent::ToolResult), 0..3), vec(user_item(), 0..3)).prop_map(|(mut results, rest)| {
            results.extend(rest);
            RigMessage::User { content: results }
        }),
        4 => (vec(assistant_item(), 0..4), stop, origin).prop_map(|(content, stop, origin)| {
            RigMessage::Assistant(AssistantMessage::new(content).with_stop(stop).with_origin(origin))
        }),
    ]
}

/// A tidemark history as rig can hold it: no names or pins, each role with the parts rig has room for, and no call or result that lost its partner.
fn rig_shaped(history: Vec<Message>) -> Vec<Message> {
    const KNOWN: [&str; 7] =
        ["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain", "audio/wav", ""];
    let dropped: Vec<String> = history
        .iter()
        .flat_map(Message::tool_calls)
        .filter(|call| call.id.is_empty() || call.name.is_empty())
        .map(|call| call.id.clone())
        .collect();
    history
        .into_iter()
        .filter_map(|message| {
            let keep = |part: &Part| match (message.role, part) {
                (_, Part::Text { .. }) => message.role != Role::Tool,
                (Role::User, Part::Attachment(a)) => KNOWN.contains(&a.media_type.as_str()),
                (Role::Assistant, Part::Attachment(a)) => KNOWN[..3].contains(&a.media_type.as_str()),
                (Role::Assistant, Part::ToolCall(call)) => !call.id.is_empty() && !call.name.is_empty(),
                (Role::Tool, Part::ToolResult(result)) => {
                    !dropped.contains(&result.call_id) && !result.call_id.is_empty()
                }
                _ => false,
            };
            let parts: Vec<Part> = message.parts.iter().filter(|part| keep(part)).cloned().collect();
            (!parts.is_empty()).then(|| Message::new(message.role, parts))
        })
        .collect()
}

/// Tool-call arguments compared as JSON where they are JSON objects (rig keeps a parsed map), byte for byte otherwise.
fn same_arguments(a: &ToolCall, b: &ToolCall) -> bool {
    let object = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text).ok().filter(serde_json::Value::is_object)
    };
    a.id == b.id
        && a.name == b.name
        && match (object(&a.arguments), object(&b.arguments)) {
            (Some(x), Some(y)) => x == y,
            // rig keeps arguments as a map: none at all (empty or `null`) come back as `{}`.
            _ => none(&a.arguments) == none(&b.arguments),
        }
}

fn none(arguments: &str) -> &str {
    if ["", "null"].contains(&arguments.trim()) { "{}" } else { arguments }
}

fn same_parts(a: &[Part], b: &[Part]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (Part::ToolCall(x), Part::ToolCall(y)) => same_arguments(x, y),
            (x, y) => x == y,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_field_of_a_rig_history_survives_tidemark_and_its_storage(history in vec(rig_message(), 0..8)) {
        let stored = to_tidemark(&history).expect("rig's messages convert");
        // Through the JSON every store keeps messages as.
        let stored = history_from_json(&history_to_json(&stored)).expect("stored JSON reads back");
        let back = to_rig(&stored).expect("back to rig");
        prop_assert_eq!(back, history);
    }

    #[test]
    fn a_rig_shaped_tidemark_history_survives_rig(history in arb_history()) {
        let history = rig_shaped(history);
        let rig = to_rig(&history).expect("a rig-shaped history converts");
        let back = to_tidemark(&rig).expect("and comes back");
        prop_assert_eq!(back.len(), history.len());
        for (have, want) in back.iter().zip(&history) {
            prop_assert_eq!(have.role, want.role);
            prop_assert!(same_parts(&have.parts, &want.parts), "{:?}\n!=\n{:?}", have.parts, want.parts);
        }
    }
}

#[test]
fn a_plain_conversation_needs_no_origin() {
    let history =
        vec![RigMessage::user("Where is the runbook?"), RigMessage::assistant("In docs/runbook.md.")];
    let stored = to_tidemark(&history).expect("converts");
    assert!(stored.iter().all(|m| m.origin.is_none()), "{stored:?}");
    assert_eq!(to_rig(&stored).expect("back"), history);
}

fn call(id: &str) -> RigToolCall {
    RigToolCall::from_wire(
        id,
        ToolFunction::new(ToolName::new("grep").expect("name"), json!({"pattern": "TODO"})),
    )
}

#[test]
fn a_tool_output_tidemark_cleared_comes_back_with_its_tools_name() {
    let call = call("call_7");
    let result = call.result(vec![ToolResultContent::Json { value: json!({"hits": 412}) }]);
    let history = vec![
        RigMessage::Assistant(AssistantMessage::new(vec![AssistantContent::ToolCall(call)])),
        RigMessage::User { content: vec![UserContent::ToolResult(result)] },
    ];
    let mut stored = to_tidemark(&history).expect("converts");
    assert_eq!(stored[1].role, Role::Tool);
    let Some(Part::ToolResult(cleared)) = stored[1].parts.first_mut() else { panic!("a tool result") };
    cleared.content = "[output cleared]".into();
    let back = to_rig(&stored).expect("back");
    assert_eq!(back[0], history[0], "the untouched call is restored exactly");
    let RigMessage::User { content } = &back[1] else { panic!("a user message") };
    let [UserContent::ToolResult(result)] = content.as_slice() else { panic!("one result: {content:?}") };
    assert_eq!((result.name.as_str(), result.call.wire().as_ref()), ("grep", "call_7"));
    assert_eq!(result.content, vec![ToolResultContent::Text(Text::new("[output cleared]"))]);
}

#[test]
fn results_before_text_become_two_messages_and_one_again() {
    let result = call("call_1").result(vec![ToolResultContent::Text(Text::new("3 matches"))]);
    let message = RigMessage::User {
        content: vec![UserContent::ToolResult(result), UserContent::Text(Text::new("Now fix them."))],
    };
    let history = vec![
        RigMessage::Assistant(AssistantMessage::new(vec![AssistantContent::ToolCall(call("call_1"))])),
        message,
    ];
    let stored = to_tidemark(&history).expect("converts");
    assert_eq!(stored.iter().map(|m| m.role).collect::<Vec<_>>(), [Role::Assistant, Role::Tool, Role::User]);
    validate(&stored).expect("the call is answered");
    assert_eq!(to_rig(&stored).expect("back"), history);
}

#[test]
fn what_cannot_be_kept_is_refused_with_its_place() {
    let result = call("call_1").result(vec![ToolResultContent::Text(Text::new("ok"))]);
    let late = RigMessage::User {
        content: vec![UserContent::Text(Text::new("first")), UserContent::ToolResult(result)],
    };
    let error = to_tidemark(&[RigMessage::user("hi"), late]).expect_err("a result after text");
    assert!(matches!(error, ConvertError::FromRig { index: 1, .. }), "{error}");
    assert!(error.to_string().contains("content item 1"), "{error}");

    let thinking = Message::new(
        Role::Assistant,
        vec![Part::text("Done."), Part::Opaque(OpaqueBlock::new("anthropic", "thinking", "{}"))],
    );
    let error = to_rig(&[Message::user("go"), thinking]).expect_err("another provider's block");
    assert!(matches!(error, ConvertError::ToRig { index: 1, .. }), "{error}");
    assert!(error.to_string().contains("part 1 (thinking block of anthropic)"), "{error}");

    let orphan = Message::tool_result("call_9", "output");
    let error = to_rig(&[orphan]).expect_err("a result without its call");
    assert!(error.to_string().contains("call_9"), "{error}");
}

#[test]
fn rig_items_tidemark_does_not_read_are_opaque_and_kept_whole() {
    let reasoning = AssistantContent::Reasoning(Reasoning::new("Check the lockfile first."));
    let history = vec![RigMessage::Assistant(AssistantMessage::new(vec![
        reasoning,
        AssistantContent::Text(Text::new("Done.")),
    ]))];
    let stored = to_tidemark(&history).expect("converts");
    let Some(Part::Opaque(block)) = stored[0].parts.first() else { panic!("an opaque block: {stored:?}") };
    assert_eq!((block.provider.as_str(), block.kind.as_str()), (RIG, "reasoning"));
    assert_eq!(to_rig(&stored).expect("back"), history);
}

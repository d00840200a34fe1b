//! Unit tests of the heuristic counter: parameter validation, names, presets and the shared chat accounting.

use super::*;
use crate::error::HeuristicError;
use crate::message::{Attachment, OpaqueBlock, Origin, Part, Role, ToolCall, ToolResult};

fn check_heuristic(bytes_per_token: f32, per_message: u32, expected_name: Option<&str>) {
    match (HeuristicCounter::new(bytes_per_token, per_message), expected_name) {
        (Ok(counter), Some(name)) => assert_eq!(counter.name(), name, "{bytes_per_token}"),
        (Err(HeuristicError::InvalidBytesPerToken { value }), None) => {
            assert!(value.to_bits() == bytes_per_token.to_bits(), "{value} != {bytes_per_token}");
        }
        (outcome, expected) => panic!("{bytes_per_token}: got {outcome:?}, expected name {expected:?}"),
    }
}

#[test]
fn heuristic_accepts_finite_positive_ratios_and_names_them() {
    check_heuristic(4.0, 3, Some("heuristic/4.0/3/chat-v2"));
    check_heuristic(3.5, 0, Some("heuristic/3.5/0/chat-v2"));
    check_heuristic(0.25, 4, Some("heuristic/0.25/4/chat-v2"));
    check_heuristic(f32::MIN_POSITIVE, u32::MAX, Some("heuristic/1.1754944e-38/4294967295/chat-v2"));
    check_heuristic(f32::from_bits(1), 1, Some("heuristic/1e-45/1/chat-v2"));
    check_heuristic(f32::MAX, u32::MAX, Some("heuristic/3.4028235e38/4294967295/chat-v2"));
    check_heuristic(9.999_999e15, u32::MAX, Some("heuristic/9999999000000000.0/4294967295/chat-v2"));
    check_heuristic(0.000_123_456_79, 7, Some("heuristic/0.00012345679/7/chat-v2"));
}

#[test]
fn heuristic_rejects_ratios_that_are_not_finite_and_positive() {
    for value in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -f32::MIN_POSITIVE] {
        check_heuristic(value, 3, None);
    }
}

#[test]
fn invalid_ratio_error_reads_well() {
    let error = HeuristicCounter::new(-2.0, 3).expect_err("negative ratios are rejected");
    assert_eq!(error.to_string(), "bytes per token must be a finite number above zero, got -2");
}

#[test]
fn presets_are_valid_and_distinct() {
    let presets = [
        HeuristicCounter::english(),
        HeuristicCounter::code(),
        HeuristicCounter::json(),
        HeuristicCounter::conservative(),
        HeuristicCounter::upper_bound(),
    ];
    for (i, a) in presets.iter().enumerate() {
        for b in &presets[i + 1..] {
            assert_ne!(a.name(), b.name());
        }
    }
    assert_eq!(HeuristicCounter::default(), HeuristicCounter::json());
}

fn check_heuristic_count(counter: HeuristicCounter, message: Message, expected: u32) {
    assert_eq!(counter.count(&message), expected, "{message:?}");
}

#[test]
fn heuristic_prices_each_field_rounded_up() {
    let four = HeuristicCounter::new(4.0, 3).expect("valid");
    // A tool message without results sends nothing, so it costs nothing.
    check_heuristic_count(four, Message::new(Role::Tool, vec![]), 0);
    check_heuristic_count(four, Message::new(Role::Tool, vec![Part::text("dropped on the wire")]), 0);
    // Framing and role only.
    check_heuristic_count(four, Message::user(""), 4);
    check_heuristic_count(four, Message::user("abcde"), 4 + 2);
    // The name costs its estimate plus one.
    check_heuristic_count(four, Message::user("abcd").with_name("bob"), 4 + 1 + 1 + 1);
    // Two parts of five bytes become an array: each pays its type ("text", one
    // token at four bytes) and rounds up separately, unlike one part of ten.
    let two_parts = Message::user("abcde").with_part(Part::text("fghij"));
    check_heuristic_count(four, two_parts, 4 + (1 + 2) + (1 + 2));
    check_heuristic_count(four, Message::user("abcdefghij"), 4 + 3);
    // A call pays its id (14 bytes), its type "function" (8), name and arguments; the null content is free.
    let call = ToolCall::with_raw_arguments("call_123456789", "read", r#"{"p":1}"#);
    check_heuristic_count(four, Message::assistant_tool_calls([call.clone()]), 4 + 4 + 2 + 1 + 2);
    // Text beside a call stays a plain string.
    let with_text = Message::assistant("abcd").with_part(Part::ToolCall(call.clone()));
    check_heuristic_count(four, with_text, 4 + 1 + 4 + 2 + 1 + 2);
    // A tool result pays its call id and content.
    check_heuristic_count(four, Message::tool_result("call_123456789", "12345678"), 4 + 4 + 2);
    // Each result of a tool message is a wire message of its own, with framing, role and name.
    let two_results = Message::new(
        Role::Tool,
        vec![
            Part::ToolResult(ToolResult::new("c1", "abcd")),
            Part::ToolResult(ToolResult::new("c2", "abcdefgh")),
        ],
    )
    .with_name("fs");
    check_heuristic_count(four, two_results, (4 + 2 + 1 + 1) + (4 + 2 + 1 + 2));
    // A result outside a tool message travels as the text "[result of c1] abcd" (19 bytes) in an array.
    let stray = Message::user("").with_part(Part::ToolResult(ToolResult::new("c1", "abcd")));
    check_heuristic_count(four, stray, 4 + 1 + (1 + 5));
    let attached =
        Message::user("").with_part(Part::Attachment(Attachment::base64("image/png", "A".repeat(999))));
    check_heuristic_count(four, attached, 4 + 1 + ATTACHMENT_TOKENS);
    let image = Message::new(Role::User, vec![Part::Attachment(Attachment::url("image/png", "https://x"))]);
    check_heuristic_count(four, image, 4 + ATTACHMENT_TOKENS);
    // An opaque block pays the text of its raw JSON (42 bytes), in the array form, with no type.
    let raw = r#"{"type":"redacted_thinking","data":"QUJD"}"#;
    assert_eq!(raw.len(), 42);
    let opaque = Part::Opaque(OpaqueBlock::new("anthropic", "redacted_thinking", raw));
    check_heuristic_count(four, Message::new(Role::Assistant, vec![opaque.clone()]), 4 + 11);
    check_heuristic_count(four, Message::assistant("abcd").with_part(opaque), 4 + (1 + 1) + 11);
    // The origin spells the same content and costs nothing.
    let spelled = Message::user("abcde").with_origin(Origin::new("anthropic", r#""abcde""#));
    check_heuristic_count(four, spelled, 4 + 2);
    assert_eq!(four.prompt_overhead(), 3);
    assert_eq!(HeuristicCounter::new(1.5, 0).expect("valid").prompt_overhead(), 0);
}

#[test]
fn heuristic_saturates_instead_of_overflowing() {
    let tiny = HeuristicCounter::new(f32::from_bits(1), u32::MAX).expect("valid");
    assert_eq!(tiny.count_text("a"), u32::MAX);
    assert_eq!(tiny.count(&Message::user("a")), u32::MAX);
    assert_eq!(tiny.count_prompt(&[Message::user("a"), Message::user("b")]), u32::MAX);
}

//! Unit tests of the heuristic counter: parameter validation, names, presets and the shared chat accounting.

use super::*;
use crate::error::HeuristicError;
use crate::message::{Attachment, Part, Role, ToolCall};

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
    check_heuristic(4.0, 3, Some("heuristic/4.0/3"));
    check_heuristic(3.5, 0, Some("heuristic/3.5/0"));
    check_heuristic(0.25, 4, Some("heuristic/0.25/4"));
    check_heuristic(f32::MIN_POSITIVE, u32::MAX, Some("heuristic/1.1754944e-38/4294967295"));
    check_heuristic(f32::from_bits(1), 1, Some("heuristic/1e-45/1"));
    check_heuristic(f32::MAX, u32::MAX, Some("heuristic/3.4028235e38/4294967295"));
    check_heuristic(9.999_999e15, u32::MAX, Some("heuristic/9999999000000000.0/4294967295"));
    check_heuristic(0.000_123_456_79, 7, Some("heuristic/0.00012345679/7"));
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
    // Framing and role only.
    check_heuristic_count(four, Message::new(Role::Tool, vec![]), 4);
    check_heuristic_count(four, Message::user(""), 4);
    check_heuristic_count(four, Message::user("abcde"), 4 + 2);
    // The name costs its estimate plus one.
    check_heuristic_count(four, Message::user("abcd").with_name("bob"), 4 + 1 + 1 + 1);
    // Two parts of five bytes round up separately, unlike one part of ten.
    let two_parts = Message::user("abcde").with_part(Part::text("fghij"));
    check_heuristic_count(four, two_parts, 4 + 2 + 2);
    check_heuristic_count(four, Message::user("abcdefghij"), 4 + 3);
    // Call ids are free; names and arguments are priced.
    let call = ToolCall::with_raw_arguments("call_123456789", "read", r#"{"p":1}"#);
    check_heuristic_count(four, Message::assistant_tool_calls([call]), 4 + 1 + 2);
    check_heuristic_count(four, Message::tool_result("call_123456789", "12345678"), 4 + 2);
    let attached =
        Message::user("").with_part(Part::Attachment(Attachment::base64("image/png", "A".repeat(999))));
    check_heuristic_count(four, attached, 4 + ATTACHMENT_TOKENS);
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

//! Unit tests of [`TemplateCompactor`]: lines, hints, the cap and rendering.

use futures::executor::block_on;
use tidemark_core::{Compactor, ConversationId, Message, ToolCall};

use super::*;

fn id() -> ConversationId {
    ConversationId::new("template-tests").expect("a valid id")
}

fn compact(
    compactor: &TemplateCompactor,
    evicted: &[Message],
    carry: Option<&TemplateSummary>,
    hint: Option<&str>,
) -> TemplateSummary {
    block_on(compactor.compact(&id(), evicted, carry, hint)).expect("the template compactor never fails")
}

/// Compact `evicted` with no carry-over or hint and compare the lines and the dropped count.
fn check(compactor: TemplateCompactor, evicted: &[Message], lines: &[&str], dropped: u64) {
    let summary = compact(&compactor, evicted, None, None);
    assert_eq!(summary.lines, lines);
    assert_eq!(summary.dropped, dropped);
    if let Some(max) = compactor.max_bytes() {
        assert!(summary.bytes() <= max, "{} bytes over a cap of {max}", summary.bytes());
    }
}

#[test]
fn one_line_per_message_with_tool_markers() {
    let evicted = [
        Message::user("Read both\nfiles."),
        Message::assistant_tool_calls([
            ToolCall::with_raw_arguments("a", "read", r#"{"p":"x"}"#),
            ToolCall::with_raw_arguments("b", "read", r#"{"p":"y"}"#),
        ]),
        Message::tool_result("b", "second"),
        Message::tool_error("a", "missing"),
    ];
    check(
        TemplateCompactor::new(),
        &evicted,
        &[
            "user: Read both files.",
            r#"assistant called read {"p":"x"} [a] | assistant called read {"p":"y"} [b]"#,
            "read [b] returned: second",
            "read [a] failed with: missing",
        ],
        0,
    );
}

#[test]
fn long_parts_are_cut_with_a_marker() {
    check(
        TemplateCompactor::new().with_max_part_bytes(4),
        &[Message::user("héllo there")],
        &["user: hél… [+8 bytes]"],
        0,
    );
}

#[test]
fn the_oldest_lines_roll_out_first() {
    let evicted: Vec<Message> = (0..5).map(|n| Message::user(format!("m{n}"))).collect();
    // Each line is "user: mN" (8 bytes) plus a newline.
    check(
        TemplateCompactor::new().with_max_bytes(Some(27)),
        &evicted,
        &["user: m2", "user: m3", "user: m4"],
        2,
    );
    check(TemplateCompactor::new().with_max_bytes(Some(26)), &evicted, &["user: m3", "user: m4"], 3);
    check(
        TemplateCompactor::new().with_max_bytes(None),
        &evicted,
        &["user: m0", "user: m1", "user: m2", "user: m3", "user: m4"],
        0,
    );
}

#[test]
fn a_line_over_the_whole_cap_is_cut_at_a_character_boundary() {
    let evicted = [Message::user("old"), Message::user("日本語のテキスト")];
    // "user: 日本語のテキスト" is 6 + 8 × 3 = 30 bytes.
    check(TemplateCompactor::new().with_max_bytes(Some(14)), &evicted, &["user: 日…"], 1);
    check(TemplateCompactor::new().with_max_bytes(Some(12)), &evicted, &["user: …"], 1);
    check(TemplateCompactor::new().with_max_bytes(Some(4)), &evicted, &["use"], 1);
    check(TemplateCompactor::new().with_max_bytes(Some(1)), &evicted, &[], 2);
    check(TemplateCompactor::new().with_max_bytes(Some(0)), &evicted, &[], 2);
}

#[test]
fn no_cap_keeps_everything_across_rolls() {
    let compactor = TemplateCompactor::new().with_max_bytes(None);
    let long = "ü".repeat(5_000);
    let mut summary = None;
    for _ in 0..20 {
        summary =
            Some(compact(&compactor, &[Message::user(long.clone())], summary.as_ref(), Some("keep ids")));
    }
    let summary = summary.expect("twenty rolls ran");
    assert_eq!(summary.lines.len(), 40);
    assert_eq!(summary.dropped, 0);
}

#[test]
fn carry_over_and_hint_come_before_the_new_lines() {
    let compactor = TemplateCompactor::new();
    let first = compact(&compactor, &[Message::user("one")], None, None);
    let second = compact(&compactor, &[Message::user("two")], Some(&first), Some("keep   the\nids"));
    assert_eq!(second.lines, ["user: one", "hint: keep the ids", "user: two"]);
    let third = compact(&compactor.with_max_part_bytes(3), &[], Some(&second), Some("abcdef"));
    assert_eq!(third.lines.last().map(String::as_str), Some("hint: abc… [+3 bytes]"));
}

#[test]
fn dropped_lines_accumulate_over_rolls() {
    let compactor = TemplateCompactor::new().with_max_bytes(Some(9));
    let first = compact(&compactor, &[Message::user("a1"), Message::user("a2")], None, None);
    let second = compact(&compactor, &[Message::user("b1"), Message::user("b2")], Some(&first), None);
    assert_eq!(second.lines, ["user: b2"]);
    assert_eq!(second.dropped, 3);
}

#[test]
fn render_is_never_empty_and_counts_what_was_omitted() {
    let compactor = TemplateCompactor::new();
    let check = |lines: &[&str], dropped: u64, expected: &str| {
        let summary = TemplateSummary::new(lines.iter().map(|line| (*line).to_owned()).collect(), dropped);
        let rendered = compactor.render(&summary);
        assert_eq!(rendered.role, tidemark_core::Role::System);
        assert_eq!(rendered.text(), expected);
    };
    check(&[], 0, "Summary of earlier conversation:");
    check(&[], 7, "Summary of earlier conversation (7 older lines omitted):");
    check(&["user: hi"], 1, "Summary of earlier conversation (1 older line omitted):\nuser: hi");
    check(&["a", "b"], 0, "Summary of earlier conversation:\na\nb");
}

#[test]
fn nothing_evicted_and_no_carry_over_is_an_empty_summary() {
    let summary = compact(&TemplateCompactor::new(), &[], None, None);
    assert_eq!(summary, TemplateSummary::default());
}

#[test]
fn an_artifact_without_a_dropped_count_still_decodes() {
    let summary: TemplateSummary = serde_json::from_str(r#"{"lines":["user: hi"]}"#).expect("valid json");
    assert_eq!(summary, TemplateSummary::new(vec!["user: hi".into()], 0));
}

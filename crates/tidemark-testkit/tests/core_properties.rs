//! Property tests of tidemark-core's pure parts (JSON format, content hashes, units, validation, conversation ids) driven by the testkit's strategies.
//!
//! Every property runs 1,000 cases, the bar the project set for these
//! functions: everything else in tidemark trusts them.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use tidemark_core::{
    AttachmentSource, ContentHash, ConversationId, ConversationIdError, DecodeError, Message, Part, Role,
    Unit, UnitKind, ViolationKind, history_from_json, history_to_json, units, validate,
};
use tidemark_testkit::strategies::{
    HistoryConfig, Mutation, arb_conversation_id, arb_history, arb_history_with, arb_invalid_history,
    arb_message, arb_text,
};

/// The number of cases of every property in this file.
const CASES: u32 = 1000;

/// The message with its pin removed, since pinning is not part of the content.
fn unpinned(message: &Message) -> Message {
    let mut message = message.clone();
    message.pinned = false;
    message
}

/// The role after `role`, so that an edit always changes it.
fn other_role(role: Role) -> Role {
    match role {
        Role::System => Role::User,
        Role::User => Role::Assistant,
        Role::Assistant => Role::Tool,
        _ => Role::System,
    }
}

/// Change one part's content in a small way: one character, one flag, or one
/// character moved across the boundary between two fields.
fn edit_part(part: &mut Part) {
    match part {
        Part::Text { text } => text.push('x'),
        // Moving a character from the id to the name keeps the concatenation of
        // the fields the same, which only a length-prefixed encoding tells apart.
        Part::ToolCall(call) => match call.id.pop() {
            Some(last) => call.name.insert(0, last),
            None => call.arguments.push(' '),
        },
        Part::ToolResult(result) => result.is_error = !result.is_error,
        Part::Attachment(attachment) => {
            attachment.source = match &attachment.source {
                AttachmentSource::Url(text) => AttachmentSource::Base64(text.clone()),
                AttachmentSource::Base64(text) => AttachmentSource::Url(text.clone()),
                other => other.clone(),
            };
        }
        _ => *part = Part::text("a part of a kind this test does not know"),
    }
}

/// A copy of `message` that differs from it in exactly one small way, chosen by `which` and `at`.
fn edited(message: &Message, which: usize, at: Index) -> Message {
    let mut edited = message.clone();
    let parts = edited.parts.len();
    match which % 5 {
        0 => edited.role = other_role(edited.role),
        1 => edited.name = if edited.name.is_some() { None } else { Some(String::new()) },
        2 => edited.parts.push(Part::text("")),
        3 if parts > 0 => edit_part(&mut edited.parts[at.index(parts)]),
        4 if parts > 0 => {
            edited.parts.remove(at.index(parts));
        }
        _ => edited.parts.insert(0, Part::text("")),
    }
    edited
}

/// Check that `units` partitions `history` as documented and return the units.
fn checked_units(history: &[Message]) -> Result<Vec<Unit>, TestCaseError> {
    let all: Vec<Unit> = units(history).collect();
    let mut next = 0;
    for unit in &all {
        prop_assert_eq!(unit.start(), next, "units are contiguous and in order");
        prop_assert!(!unit.is_empty() && unit.len() == unit.range().len());
        let first = &history[unit.start()];
        match unit.kind() {
            UnitKind::ToolExchange => {
                prop_assert!(first.has_tool_calls());
                prop_assert!(history[unit.start() + 1..unit.end()].iter().all(|m| m.role == Role::Tool));
                // The exchange takes every tool message that follows it.
                prop_assert!(history.get(unit.end()).is_none_or(|m| m.role != Role::Tool));
            }
            _ => {
                prop_assert!(!first.has_tool_calls());
                prop_assert_eq!(unit.len(), 1);
            }
        }
        next = unit.end();
    }
    prop_assert_eq!(next, history.len(), "units cover the whole history");
    Ok(all)
}

/// The kind of the violation `validate` reports, failing the case if there is none.
fn violation_kind(history: &[Message]) -> Result<ViolationKind, TestCaseError> {
    match validate(history) {
        Ok(()) => Err(TestCaseError::fail(format!("a broken history was accepted: {history:#?}"))),
        Err(violation) => Ok(violation.kind),
    }
}

/// Strings that are likely to break one of the conversation id rules.
fn arb_id_candidate() -> impl Strategy<Value = String> {
    let control = select(&['\0', '\u{7}', '\t', '\n', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}'][..]);
    prop_oneof![
        3 => any::<String>(),
        1 => Just(String::new()),
        2 => (arb_text(), any::<Index>(), control).prop_map(|(mut text, at, c)| {
            let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            text.insert(boundaries[at.index(boundaries.len())], c);
            text
        }),
        2 => vec(select(&['a', 'é', '中', '🦀', '/', '\n'][..]), 50..200).prop_map(String::from_iter),
    ]
}

/// Text assembled from pieces of tidemark's JSON format, so that the decoder gets past its first character.
fn arb_json_noise() -> impl Strategy<Value = String> {
    let piece = select(
        &[
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\"",
            "\"role\"",
            "\"user\"",
            "\"tool\"",
            "\"parts\"",
            "\"type\"",
            "\"text\"",
            "\"tool_call\"",
            "\"tool_result\"",
            "\"attachment\"",
            "\"source\"",
            "\"url\"",
            "\"call_id\"",
            "\"is_error\"",
            "\"pinned\"",
            "\"name\"",
            "null",
            "true",
            "1",
            "-0.5e3",
            "\"\\u00e9\"",
            "\"\\ud800\"",
            " ",
        ][..],
    );
    vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// The byte offsets of every character boundary strictly inside `text` or at its start.
fn cuts_short_of_the_end(text: &str) -> Vec<usize> {
    text.char_indices().map(|(index, _)| index).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn messages_round_trip_through_json(message in arb_message()) {
        let json = message.to_json();
        let decoded = Message::from_json(&json)?;
        prop_assert_eq!(&decoded, &message);
        prop_assert_eq!(decoded.to_json(), json, "the encoding is deterministic");
        let value = serde_json::to_value(&message)?;
        prop_assert_eq!(serde_json::from_value::<Message>(value)?, message);
    }

    #[test]
    fn opaque_blocks_and_origins_round_trip_through_json(
        message in arb_message(),
        raw in arb_text(),
        kind in "[a-z_]{1,20}",
        at in any::<Index>(),
        origin in proptest::option::of(arb_text()),
    ) {
        let block = tidemark_core::OpaqueBlock::new("anthropic", kind, raw);
        let mut message = message;
        let position = at.index(message.parts.len() + 1);
        message.parts.insert(position, Part::Opaque(block.clone()));
        let unspelled = message.clone();
        if let Some(origin) = origin {
            message = message.with_origin(tidemark_core::Origin::new("anthropic", origin));
        }
        let decoded = Message::from_json(&message.to_json())?;
        prop_assert_eq!(&decoded, &message);
        prop_assert_eq!(decoded.parts.get(position), Some(&Part::Opaque(block)));
        // The origin spells the content; it changes neither the hash nor what the message says.
        prop_assert_eq!(decoded.content_hash(), unspelled.content_hash());
    }

    #[test]
    fn histories_round_trip_through_json(history in arb_history()) {
        let json = history_to_json(&history);
        prop_assert_eq!(history_from_json(&json)?, history);
    }

    #[test]
    fn conversation_ids_round_trip(id in arb_conversation_id()) {
        let json = serde_json::to_string(&id)?;
        prop_assert_eq!(serde_json::from_str::<ConversationId>(&json)?, id.clone());
        prop_assert_eq!(ConversationId::new(id.as_str()), Ok(id.clone()));
        prop_assert_eq!(id.to_string().parse::<ConversationId>(), Ok(id));
    }

    #[test]
    fn content_hashes_are_stable(message in arb_message()) {
        let hash = message.content_hash();
        prop_assert_eq!(message.content_hash(), hash);
        prop_assert_eq!(message.clone().content_hash(), hash);
        prop_assert_eq!(ContentHash::of(&message), hash);
        prop_assert_eq!(Message::from_json(&message.to_json())?.content_hash(), hash);
        prop_assert_eq!(ContentHash::from_hex(&hash.to_hex()), Some(hash));
    }

    #[test]
    fn pinning_never_changes_the_hash(message in arb_message()) {
        let mut flipped = message.clone();
        flipped.pinned = !flipped.pinned;
        prop_assert_eq!(flipped.content_hash(), message.content_hash());
    }

    #[test]
    fn hashes_differ_exactly_when_content_differs(a in arb_message(), b in arb_message()) {
        let same_content = unpinned(&a) == unpinned(&b);
        prop_assert_eq!(a.content_hash() == b.content_hash(), same_content);
    }

    #[test]
    fn one_small_edit_changes_the_hash(message in arb_message(), which in 0..5_usize, at in any::<Index>()) {
        let changed = edited(&message, which, at);
        prop_assert_ne!(&changed, &message, "the edit must change the content");
        prop_assert_ne!(changed.content_hash(), message.content_hash());
    }

    #[test]
    fn units_partition_any_message_sequence(history in vec(arb_message(), 0..10)) {
        checked_units(&history)?;
    }

    #[test]
    fn units_of_valid_histories_never_start_with_a_tool_message(history in arb_history()) {
        for unit in checked_units(&history)? {
            prop_assert_ne!(history[unit.start()].role, Role::Tool);
        }
    }

    #[test]
    fn generated_histories_are_valid(history in arb_history()) {
        prop_assert_eq!(validate(&history), Ok(()));
    }

    #[test]
    fn long_parallel_histories_are_valid(history in arb_history_with(HistoryConfig::default()
        .with_max_units(40)
        .with_max_parallel_calls(12)
        .with_pinned_ratio(0.3)
        .with_system_ratio(0.2)
        .with_trailing_open_exchange(true))) {
        prop_assert_eq!(validate(&history), Ok(()));
    }

    #[test]
    fn dropping_an_answered_call_orphans_its_result(history in arb_invalid_history(Mutation::DropCall)) {
        let kind = violation_kind(&history)?;
        prop_assert!(matches!(kind, ViolationKind::OrphanResult { .. }), "{kind:?}");
    }

    #[test]
    fn moving_results_before_their_call_is_caught(
        history in arb_invalid_history(Mutation::MoveResultBeforeCall),
    ) {
        let kind = violation_kind(&history)?;
        prop_assert!(matches!(kind, ViolationKind::ResultBeforeCall { .. }), "{kind:?}");
    }

    #[test]
    fn reused_call_ids_are_caught(history in arb_invalid_history(Mutation::DuplicateCallId)) {
        let kind = violation_kind(&history)?;
        prop_assert!(matches!(kind, ViolationKind::DuplicateCallId { .. }), "{kind:?}");
    }

    #[test]
    fn results_for_unknown_calls_are_caught(history in arb_invalid_history(Mutation::OrphanResult)) {
        let kind = violation_kind(&history)?;
        prop_assert!(matches!(kind, ViolationKind::OrphanResult { .. }), "{kind:?}");
    }

    #[test]
    fn every_prefix_of_a_valid_history_is_valid(history in arb_history()) {
        let all = checked_units(&history)?;
        // A cut between units keeps the earlier units exactly as they were.
        for (count, unit) in all.iter().enumerate() {
            let prefix = &history[..unit.end()];
            prop_assert_eq!(validate(prefix), Ok(()));
            prop_assert_eq!(units(prefix).collect::<Vec<_>>(), all[..=count].to_vec());
        }
        // A cut inside an exchange leaves it open at the end, which is valid too.
        for end in 0..=history.len() {
            prop_assert_eq!(validate(&history[..end]), Ok(()), "prefix of length {}", end);
        }
    }

    #[test]
    fn conversation_ids_enforce_their_rules(text in arb_id_candidate()) {
        let control_at = text.char_indices().find(|(_, c)| c.is_control()).map(|(index, _)| index);
        match ConversationId::new(&text) {
            Ok(id) => {
                prop_assert_eq!(id.as_str(), text.as_str());
                prop_assert!(!text.is_empty() && text.len() <= ConversationId::MAX_LEN && control_at.is_none());
            }
            Err(ConversationIdError::Empty) => prop_assert!(text.is_empty()),
            Err(ConversationIdError::TooLong { len, max }) => {
                prop_assert_eq!((len, max), (text.len(), ConversationId::MAX_LEN));
                prop_assert!(len > max);
            }
            Err(ConversationIdError::ControlCharacter { index }) => {
                prop_assert!(!text.is_empty() && text.len() <= ConversationId::MAX_LEN);
                prop_assert_eq!(Some(index), control_at);
            }
            Err(other) => prop_assert!(false, "an error this test does not know: {other:?}"),
        }
        // Deserializing applies the same rules as the constructor.
        let json = serde_json::to_string(&text)?;
        prop_assert_eq!(
            serde_json::from_str::<ConversationId>(&json).is_ok(),
            ConversationId::new(&text).is_ok()
        );
    }

    #[test]
    fn arbitrary_bytes_never_make_the_decoders_panic(bytes in vec(any::<u8>(), 0..200), noise in arb_json_noise()) {
        for text in [String::from_utf8_lossy(&bytes).into_owned(), noise] {
            if let Err(error) = Message::from_json(&text) {
                prop_assert!(matches!(error, DecodeError::Json { .. }), "{:?}", error);
            }
            if let Err(error) = history_from_json(&text) {
                prop_assert!(matches!(error, DecodeError::Json { .. }), "{:?}", error);
            }
        }
    }

    #[test]
    fn damaged_message_json_decodes_or_fails_cleanly(message in arb_message(), at in any::<Index>(), c in any::<char>()) {
        let json = message.to_json();
        let boundaries = cuts_short_of_the_end(&json);
        let start = boundaries[at.index(boundaries.len())];
        let end = start + json[start..].chars().next().map_or(0, char::len_utf8);
        let damaged = format!("{}{c}{}", &json[..start], &json[end..]);
        match Message::from_json(&damaged) {
            // Whatever decodes must encode again.
            Ok(decoded) => prop_assert!(Message::from_json(&decoded.to_json()).is_ok()),
            Err(error) => prop_assert!(matches!(error, DecodeError::Json { .. }), "{:?}", error),
        }
    }

    #[test]
    fn truncated_message_json_is_rejected(message in arb_message()) {
        let json = message.to_json();
        for cut in cuts_short_of_the_end(&json) {
            let result = Message::from_json(&json[..cut]);
            prop_assert!(matches!(result, Err(DecodeError::Json { .. })), "cut at {}", cut);
        }
    }

    #[test]
    fn truncated_history_json_is_rejected(history in arb_history(), at in any::<Index>()) {
        let json = history_to_json(&history);
        let boundaries = cuts_short_of_the_end(&json);
        let cut = boundaries[at.index(boundaries.len())];
        prop_assert!(matches!(history_from_json(&json[..cut]), Err(DecodeError::Json { .. })), "cut at {}", cut);
    }
}

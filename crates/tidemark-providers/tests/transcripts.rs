//! Properties of the Claude and Responses transcript formats over generated histories: byte-exact round trips, valid histories, and signed blocks that no cut at a unit boundary can change.

use std::collections::HashSet;

use proptest::prelude::*;
use tidemark_core::{Message, Part, Role, history_from_json, history_to_json, units, validate};
use tidemark_providers::anthropic::ClaudeTranscript;
use tidemark_providers::responses::ResponsesTranscript;
use tidemark_testkit::strategies::{arb_claude_transcript, arb_responses_transcript};

/// Every opaque block's raw text in `messages`.
fn opaque_raws(messages: &[Message]) -> Vec<String> {
    messages.iter().flat_map(|message| message.opaque_blocks().map(|block| block.raw.clone())).collect()
}

/// Keep the units `keep` picks (by their index, cyclically), as a policy or a truncation would.
fn keep_units(messages: &[Message], keep: &[bool]) -> Vec<Message> {
    units(messages)
        .enumerate()
        .filter(|(index, _)| keep.get(index % keep.len().max(1)).copied().unwrap_or(true))
        .flat_map(|(_, unit)| messages[unit.range()].to_vec())
        .collect()
}

/// Every part with the role of its message: what a history says, whatever the message boundaries.
///
/// Two assistant messages that a cut brings together read back as one, since
/// the Responses format has no boundary between consecutive assistant items.
fn said(messages: &[Message]) -> Vec<(Role, Part)> {
    messages
        .iter()
        .flat_map(|message| message.parts.iter().map(|part| (message.role, part.clone())))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn claude_transcripts_round_trip_byte_for_byte(json in arb_claude_transcript()) {
        let transcript = ClaudeTranscript::from_json(&json).expect("generated transcripts are readable");
        prop_assert_eq!(validate(&transcript.messages), Ok(()));
        prop_assert_eq!(transcript.to_json().expect("writes"), json.clone());
        // Through tidemark's own JSON (what every store keeps) nothing is lost either.
        let stored = history_from_json(&history_to_json(&transcript.messages)).expect("tidemark JSON reads back");
        prop_assert_eq!(transcript.with_messages(stored).to_json().expect("writes"), json);
    }

    #[test]
    fn responses_transcripts_round_trip_byte_for_byte(json in arb_responses_transcript()) {
        let transcript = ResponsesTranscript::from_json(&json).expect("generated transcripts are readable");
        prop_assert_eq!(validate(&transcript.messages), Ok(()));
        prop_assert_eq!(transcript.to_json().expect("writes"), json.clone());
        let stored = history_from_json(&history_to_json(&transcript.messages)).expect("tidemark JSON reads back");
        prop_assert_eq!(transcript.with_messages(stored).to_json().expect("writes"), json);
    }

    #[test]
    fn claude_histories_cut_at_units_stay_valid_and_keep_signed_blocks_whole(
        json in arb_claude_transcript(),
        keep in proptest::collection::vec(any::<bool>(), 1..6),
    ) {
        let transcript = ClaudeTranscript::from_json(&json).expect("readable");
        let kept = keep_units(&transcript.messages, &keep);
        prop_assert_eq!(validate(&kept), Ok(()));
        let written = transcript.with_messages(kept.clone()).to_json().expect("a cut history writes");
        let back = ClaudeTranscript::from_json(&written).expect("what is written reads back");
        prop_assert_eq!(validate(&back.messages), Ok(()));
        let before: HashSet<String> = opaque_raws(&transcript.messages).into_iter().collect();
        for raw in opaque_raws(&back.messages) {
            prop_assert!(before.contains(&raw), "a signed block changed: {}", raw);
            prop_assert!(written.contains(&raw));
        }
        prop_assert_eq!(opaque_raws(&back.messages), opaque_raws(&kept));
    }

    #[test]
    fn responses_histories_cut_at_units_stay_valid_and_keep_reasoning_whole(
        json in arb_responses_transcript(),
        keep in proptest::collection::vec(any::<bool>(), 1..6),
    ) {
        let transcript = ResponsesTranscript::from_json(&json).expect("readable");
        let kept = keep_units(&transcript.messages, &keep);
        let written = transcript.with_messages(kept.clone()).to_json().expect("a cut history writes");
        let back = ResponsesTranscript::from_json(&written).expect("what is written reads back");
        prop_assert_eq!(validate(&back.messages), Ok(()));
        // Items are copied whole, so the history reads back saying exactly what was kept.
        prop_assert_eq!(said(&back.messages), said(&kept));
        for message in &back.messages {
            // A reasoning item is never the last word of a message that calls tools: the calls stay with it.
            let reasoning_alone = message.has_tool_calls()
                && matches!(message.parts.last(), Some(Part::Opaque(block)) if block.kind == "reasoning");
            prop_assert!(!reasoning_alone);
        }
    }

    #[test]
    fn damaged_or_arbitrary_transcripts_are_errors_never_panics(
        json in prop_oneof![arb_claude_transcript(), arb_responses_transcript()],
        cut in any::<prop::sample::Index>(),
        junk in "\\PC{0,3}",
        noise in "\\PC{0,40}",
    ) {
        // Cut at a character boundary and splice in a few characters: every kind of broken JSON.
        let boundaries: Vec<usize> = json.char_indices().map(|(at, _)| at).chain([json.len()]).collect();
        let at = boundaries[cut.index(boundaries.len())];
        let damaged = format!("{}{junk}{}", &json[..at], &json[at..].chars().skip(1).collect::<String>());
        for text in [damaged.as_str(), &json[..at], noise.as_str()] {
            match ClaudeTranscript::from_json(text) {
                Ok(transcript) => drop(transcript.to_json()),
                Err(error) => prop_assert!(error.to_string().contains(": "), "{}", error),
            }
            match ResponsesTranscript::from_json(text) {
                Ok(transcript) => drop(transcript.to_json()),
                Err(error) => prop_assert!(error.to_string().contains(": "), "{}", error),
            }
        }
        // A cut document is never taken for a whole one.
        if at < json.len() {
            prop_assert!(ClaudeTranscript::from_json(&json[..at]).is_err());
            prop_assert!(ResponsesTranscript::from_json(&json[..at]).is_err());
        }
    }
}

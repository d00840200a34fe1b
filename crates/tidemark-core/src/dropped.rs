//! What a compaction dropped: the identifiers (paths, ids, numbers, names) of evicted messages that nothing left in view still holds.
//!
//! A summary is shorter than what it replaces, so something is always lost;
//! what a user wants to know is whether it was something that matters. The
//! report answers by the concrete tokens an agent would need again: an
//! identifier found in an evicted message and absent from everything that
//! remains (the summary, the window, the facts; [`dropped`] takes them as
//! messages) is reported, with the first message it came from. Matching is by
//! case-insensitive substring, so an identifier that remains in a longer one
//! ("4471" in "TANGO-4471") counts as kept: the report errs towards silence,
//! never towards a false alarm.
//!
//! ```
//! use tidemark_core::dropped::dropped;
//! use tidemark_core::store::StoredMessage;
//! use tidemark_core::{Message, Seq};
//!
//! let evicted = [
//!     StoredMessage::new(Seq(0), 12, Message::user("Deploy build 7781 from fix/retry-backoff to Frankfurt.")),
//!     StoredMessage::new(Seq(1), 4, Message::assistant("Deployed.")),
//! ];
//! let remaining = [Message::system("Summary: build 7781 was deployed to Frankfurt.")];
//! let report = dropped(&evicted, &remaining);
//! let lost: Vec<&str> = report.lost.iter().map(|lost| lost.identifier.as_str()).collect();
//! assert_eq!(lost, ["fix/retry-backoff"]);
//! assert_eq!(report.messages.len(), 1);
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::id::Seq;
use crate::message::{Message, Part, Role};
use crate::store::StoredMessage;

/// The longest identifier, in characters; longer tokens (hashes, base64) are not reported.
pub const MAX_IDENTIFIER_CHARS: usize = 120;

/// Whether `token` has the shape of an identifier: a digit, or a separator between letters (`fix/retry`, `db-prod.internal`).
///
/// Numbers count from three digits (`443`, `2026`), or with letters or a
/// dash (`v2`, `INC-20931`); `3.14` and `10:30` are numbers, not
/// identifiers, unless letters come with them. Surrounding punctuation is not
/// part of the token.
///
/// ```
/// use tidemark_core::dropped::is_identifier;
///
/// assert!(is_identifier("INC-20931"));
/// assert!(is_identifier("src/main.rs"));
/// assert!(is_identifier("6543,"));
/// assert!(!is_identifier("3.14"));
/// assert!(!is_identifier("deploy"));
/// ```
pub fn is_identifier(token: &str) -> bool {
    let token = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '#');
    let chars = token.chars().count();
    if !(2..=MAX_IDENTIFIER_CHARS).contains(&chars) {
        return false;
    }
    let digit = token.chars().any(|c| c.is_ascii_digit());
    let letter = token.chars().any(char::is_alphabetic);
    let inner: Vec<char> = token.chars().collect();
    let separated = inner.windows(3).any(|w| {
        w[0].is_alphanumeric() && matches!(w[1], '_' | '.' | '/' | ':' | '@') && w[2].is_alphanumeric()
    });
    (digit
        && (letter
            || token.contains('-')
            || token.chars().filter(|&c| c == '.').count() >= 3
            || token.starts_with('#')))
        || (digit && chars >= 3 && token.chars().all(|c| c.is_ascii_digit()))
        || (separated && letter && chars > 3)
}

/// Whether `word` is a name: a capitalised word of three letters or more that does not open a sentence (`Frankfurt`, `Priya`).
fn is_name(word: &str, opens_sentence: bool) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else { return false };
    !opens_sentence
        && first.is_uppercase()
        && word.chars().count() >= 3
        && chars.all(|c| c.is_lowercase() && c.is_alphabetic())
}

/// The identifiers and names of `text`, in order of first appearance, each once.
///
/// ```
/// use tidemark_core::dropped::identifiers;
///
/// let found = identifiers("Ask Priya: the staging DB at db-2.internal:6543 runs v14.");
/// assert_eq!(found, ["Priya", "db-2.internal:6543", "v14"]);
/// ```
pub fn identifiers(text: &str) -> Vec<String> {
    // Quotes, brackets and `=` separate tokens too, so that `{"path":"src/lib.rs"}` and `key=value` give their values.
    let separator = |c: char| {
        c.is_whitespace()
            || matches!(c, '"' | '\'' | '`' | '{' | '}' | '[' | ']' | '(' | ')' | '=' | ',' | ';' | '<' | '>')
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let mut opens_sentence = true;
        for raw in line.split(separator).filter(|raw| !raw.is_empty()) {
            let token = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '#');
            let keep = is_identifier(raw) || is_name(token, opens_sentence);
            if keep && seen.insert(token.to_lowercase()) {
                out.push(token.to_owned());
            }
            opens_sentence = raw.ends_with(['.', '!', '?', ':']);
        }
    }
    out
}

/// Everything a message says, tool calls and results included, one piece per line.
fn said(message: &Message) -> String {
    let mut out = String::new();
    for part in &message.parts {
        let piece = match part {
            Part::Text { text } => text.as_str(),
            Part::ToolCall(call) => {
                out.push_str(&call.name);
                out.push('\n');
                call.arguments.as_str()
            }
            Part::ToolResult(result) => result.content.as_str(),
            _ => continue,
        };
        out.push_str(piece);
        out.push('\n');
    }
    out
}

/// An identifier of evicted messages that nothing remaining holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LostIdentifier {
    /// The identifier, as first written.
    pub identifier: String,
    /// The first evicted message it appears in.
    pub seq: Seq,
}

/// An evicted message with identifiers nothing remaining holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DroppedMessage {
    /// Its sequence number.
    pub seq: Seq,
    /// Who spoke it.
    pub role: Role,
    /// How many identifiers it holds.
    pub identifiers: usize,
    /// Those that nothing remaining holds, in order.
    pub lost: Vec<String>,
}

/// What left the prompt and is held nowhere in what remains.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Dropped {
    /// How many messages were evicted.
    pub evicted: usize,
    /// How many distinct identifiers they held.
    pub identifiers: usize,
    /// Those that nothing remaining holds, each with the first message it came from, in order of appearance.
    pub lost: Vec<LostIdentifier>,
    /// The evicted messages with at least one lost identifier, in order.
    pub messages: Vec<DroppedMessage>,
}

/// The report on `evicted` against `remaining` (the summary, the window, the facts, as messages).
pub fn dropped(evicted: &[StoredMessage], remaining: &[Message]) -> Dropped {
    let kept = remaining.iter().map(said).collect::<Vec<_>>().join("\n").to_lowercase();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut report = Dropped { evicted: evicted.len(), ..Dropped::default() };
    for stored in evicted {
        let found = identifiers(&said(&stored.message));
        let lost: Vec<String> =
            found.iter().filter(|id| !kept.contains(&id.to_lowercase())).cloned().collect();
        for id in &found {
            if seen.insert(id.to_lowercase()) && lost.contains(id) {
                report.lost.push(LostIdentifier { identifier: id.clone(), seq: stored.seq });
            }
        }
        if !lost.is_empty() {
            let role = stored.message.role;
            report.messages.push(DroppedMessage { seq: stored.seq, role, identifiers: found.len(), lost });
        }
    }
    report.identifiers = seen.len();
    report
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn json_and_key_value_text_give_their_values() {
        assert_eq!(identifiers(r#"{"path":"src/lexer.rs","line":1197}"#), ["src/lexer.rs", "1197"]);
        assert_eq!(
            identifiers("status=ok region=eu-west-4\nRename it"),
            ["eu-west-4"],
            "a line opens a sentence"
        );
    }

    #[test]
    fn names_are_capitalised_words_inside_sentences() {
        assert_eq!(identifiers("Deploy to Frankfurt. Then ask Priya."), ["Frankfurt", "Priya"]);
        assert!(identifiers("The plan. Then the end!").is_empty(), "a sentence opener is not a name");
        assert_eq!(identifiers("ask Priya, then PRIYA and Priya again"), ["Priya"], "a repeat is one");
    }

    #[test]
    fn a_kept_identifier_is_not_reported_and_a_lost_one_is_once() {
        let evicted = [
            StoredMessage::new(Seq(3), 1, Message::user("Use port 6543 on db-7.internal.")),
            StoredMessage::new(Seq(4), 1, Message::tool_result("call_1", "db-7.internal answered on 6543")),
        ];
        let report = dropped(&evicted, &[Message::system("staging db on port 6543")]);
        assert_eq!(report.evicted, 2);
        assert_eq!(report.identifiers, 2);
        assert_eq!(report.lost, [LostIdentifier { identifier: "db-7.internal".into(), seq: Seq(3) }]);
        assert_eq!(report.messages.iter().map(|m| m.seq).collect::<Vec<_>>(), [Seq(3), Seq(4)]);
    }

    proptest! {
        #[test]
        fn the_report_names_exactly_the_identifiers_nothing_remaining_holds(
            words in proptest::collection::vec("[a-z]{3,8}|[A-Z][a-z]{3,6}|[a-z]{2,5}-[0-9]{2,5}|[0-9]{3,6}", 1..30),
            kept in proptest::collection::vec(any::<bool>(), 30),
        ) {
            let text = format!("x {}", words.join(" "));
            let evicted = [StoredMessage::new(Seq(0), 1, Message::user(text.clone()))];
            let remaining: Vec<&str> = words.iter().zip(&kept).filter(|(_, k)| **k).map(|(w, _)| w.as_str()).collect();
            let remaining = [Message::system(remaining.join(" "))];
            let report = dropped(&evicted, &remaining);
            let all = identifiers(&text);
            let summary = remaining[0].text().to_lowercase();
            for id in &all {
                let lost = report.lost.iter().any(|l| &l.identifier == id);
                prop_assert_eq!(lost, !summary.contains(&id.to_lowercase()), "{}", id);
            }
            prop_assert_eq!(report.identifiers, all.len());
        }
    }
}

//! Proptest strategies for tidemark's types: texts, conversation ids, tool calls, messages, valid histories and mutations that break a history in one known way.
//!
//! The generators aim at the inputs that break real implementations: non-ASCII
//! text (accents, CJK, emoji with joiners, right-to-left scripts, combining
//! marks), malformed tool-call arguments, parallel tool calls whose results
//! arrive out of order and spread over several tool messages, pinned and
//! system messages, and histories that end while tools are still running.
//!
//! In a test file the property below would carry `#[test]`; here it is called directly.
//!
//! ```
//! use proptest::prelude::*;
//! use tidemark_testkit::strategies::{Mutation, arb_history, mutate};
//!
//! proptest! {
//!     fn my_validator_agrees(history in arb_history(), pick in any::<usize>()) {
//!         prop_assert!(tidemark_core::validate(&history).is_ok());
//!         if let Some(broken) = mutate(&history, Mutation::OrphanResult, pick) {
//!             prop_assert!(tidemark_core::validate(&broken).is_err());
//!         }
//!     }
//! }
//! my_validator_agrees();
//! ```

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use tidemark_core::{Attachment, ConversationId, Message, Part, Role, ToolCall, ToolResult};

mod agent;
mod formats;
mod history;
mod mutation;

pub use agent::{agent_step, arb_agent_loop};
pub use formats::{arb_claude_transcript, arb_responses_transcript};
pub use history::{HistoryConfig, arb_history, arb_history_with};
pub use mutation::{Mutation, arb_invalid_history, mutate};

/// The most characters [`arb_text`] produces, so that thousands of cases stay fast.
const MAX_TEXT_CHARS: usize = 80;

/// Plain English words, as most of a real conversation is.
const WORDS: &[&str] = &[
    "the", "file", "cargo", "build", "error", "ok", "Rust", "agent", "memory", "token", "hello", "42", "fn",
    "main", "TODO", "x", "please", "read", "summary", "done",
];

/// Punctuation and characters that JSON must escape.
const PUNCTUATION: &[&str] =
    &[".", ",", "!", "?", ":", ";", "\"", "'", "\\", "{", "}", "(", ")", "-", "/", "`", "#", "*", "\t", "  "];

/// Line breaks in the styles that reach an agent.
const NEWLINES: &[&str] = &["\n", "\r\n", "\n\n"];

/// Fragments outside ASCII: accented Latin, other scripts, emoji sequences,
/// right-to-left text, combining marks and invisible format characters.
const NON_ASCII: &[&str] = &[
    "café",
    "naïve",
    "Ærøskøbing",
    "straße",
    "Ελληνικά",
    "Привет",
    "你好",
    "世界",
    "日本語",
    "한국어",
    "🦀",
    "👩\u{200d}💻",
    "🇯🇵",
    "👍🏽",
    "مرحبا",
    "שלום",
    "\u{200f}",
    "e\u{301}",
    "a\u{308}\u{323}",
    "\u{200d}",
    "\u{feff}",
    "\u{2028}",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
];

/// Tool names, a few of them in the shapes providers allow but code rarely expects.
const TOOL_NAMES: &[&str] = &[
    "read_file",
    "write_file",
    "run_shell",
    "search",
    "http_get",
    "list_dir",
    "calc",
    "get-weather",
    "db.query",
    "翻訳",
];

/// Keys for generated argument objects, including an empty and a non-ASCII one.
const ARGUMENT_KEYS: &[&str] = &["path", "query", "limit", "recursive", "content", "url", "", "путь", "🔑"];

/// Argument texts that are not JSON, as models sometimes write them.
const MALFORMED_ARGUMENTS: &[&str] = &[
    "",
    "{",
    "{\"path\": \"a.rs\"",
    "{'path': 'a.rs'}",
    "{\"limit\": 3,}",
    "not json at all",
    "{\"text\": \"unterminated",
    "[1, 2",
    "{\"a\":1}{\"b\":2}",
    "null garbage",
];

/// Media types of attachments.
const MEDIA_TYPES: &[&str] = &["image/png", "image/jpeg", "application/pdf", "text/plain", "audio/wav", ""];

/// The alphabet of standard base64.
const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Characters of conversation ids besides letters and digits.
const ID_SEPARATORS: &[char] = &['/', '-', ':', '_', '.', ' ', '@', '#'];

/// Non-ASCII characters that are not control characters, for conversation ids.
const ID_NON_ASCII: &[char] =
    &['é', 'ß', 'ø', 'Ж', '中', '文', '🦀', 'ש', 'م', '\u{301}', '\u{200d}', '\u{a0}'];

/// Short texts mixing ASCII words, punctuation, newlines and non-ASCII fragments; sometimes empty.
///
/// Texts have at most 80 characters (Unicode scalar values). A cut at that limit
/// may split an emoji sequence or separate a combining mark from its base, which
/// is still valid UTF-8 and exactly the kind of text a truncating tool produces.
/// Texts shrink towards fewer tokens and towards the plain word "the".
pub fn arb_text() -> impl Strategy<Value = String> {
    // Each token is drawn as a plain integer and decoded by `push_token`: a
    // history holds hundreds of texts, and integers are far cheaper for
    // proptest to generate than a union of string strategies per token.
    // Mostly short texts, sometimes long ones that hit the limit and get cut.
    prop_oneof![4 => vec(any::<u32>(), 0..12), 1 => vec(any::<u32>(), 12..40)].prop_map(|codes| {
        let mut text = String::new();
        for code in codes {
            push_token(&mut text, code);
        }
        if let Some((cut, _)) = text.char_indices().nth(MAX_TEXT_CHARS) {
            text.truncate(cut);
        }
        text
    })
}

/// Append the token that `code` stands for: its low four bits choose the kind
/// of token (weighted by how many of the sixteen values map to it), the rest
/// chooses within the kind.
fn push_token(text: &mut String, code: u32) {
    let within = code >> 4;
    let pick = |choices: &[&'static str]| choices[within as usize % choices.len()];
    match code & 0xf {
        0..=4 => text.push_str(pick(WORDS)),
        5..=7 => text.push(' '),
        8..=9 => text.push_str(pick(PUNCTUATION)),
        10 => text.push_str(pick(NEWLINES)),
        11..=13 => text.push_str(pick(NON_ASCII)),
        // Any scalar value at all, half of the time from the basic plane, so
        // that rare characters (NUL, stray directional marks, private use,
        // unassigned code points) get a chance too. Surrogate code points are
        // not characters and become the replacement character.
        _ => {
            let range = if within & 1 == 0 { 0x1_0000 } else { 0x11_0000 };
            text.push(char::from_u32((within >> 1) % range).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
    }
}

/// Valid conversation ids: 1 to 64 characters, possibly non-ASCII, `/`, `-` or `:`, never a control character.
pub fn arb_conversation_id() -> impl Strategy<Value = ConversationId> {
    let character = prop_oneof![
        6 => prop::char::range('a', 'z'),
        2 => prop::char::range('A', 'Z'),
        2 => prop::char::range('0', '9'),
        3 => select(ID_SEPARATORS),
        2 => select(ID_NON_ASCII),
        1 => any::<char>().prop_filter("control characters are not allowed in ids", |c| !c.is_control()),
    ];
    vec(character, 1..=64).prop_map(|chars| {
        let text: String = chars.into_iter().collect();
        // At most 64 characters of at most 4 bytes each fit the 256-byte limit,
        // and control characters were filtered out above.
        ConversationId::new(&text).expect("generated ids obey the documented rules")
    })
}

/// Tool calls: usually with a small JSON object as arguments, sometimes with malformed argument text.
pub fn arb_tool_call() -> impl Strategy<Value = ToolCall> {
    (arb_call_id(), arb_call_without_id()).prop_map(|(id, mut call)| {
        call.id = id;
        call
    })
}

/// Any single message: any role, optional name, up to three parts of any kind, pinned or not.
///
/// The message need not make sense in a history (a user message may carry a
/// tool result); it exercises encoding and hashing.
pub fn arb_message() -> impl Strategy<Value = Message> {
    (arb_role(), proptest::option::of(arb_name()), vec(arb_part(), 0..4), any::<bool>()).prop_map(
        |(role, name, parts, pinned)| {
            let mut message = Message::new(role, parts);
            message.name = name;
            message.pinned = pinned;
            message
        },
    )
}

/// Any role.
fn arb_role() -> impl Strategy<Value = Role> {
    select(&[Role::System, Role::User, Role::Assistant, Role::Tool][..])
}

/// Participant names: usually a plain identifier, sometimes any text (even empty).
fn arb_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(&["alice", "bob", "planner", "fs", "Zoë"][..]).prop_map(str::to_owned),
        1 => arb_text(),
    ]
}

/// One part of any kind.
fn arb_part() -> impl Strategy<Value = Part> {
    prop_oneof![
        3 => arb_text().prop_map(Part::text),
        2 => arb_tool_call().prop_map(Part::ToolCall),
        2 => arb_tool_result().prop_map(Part::ToolResult),
        1 => arb_attachment().prop_map(Part::Attachment),
    ]
}

/// Call ids in OpenAI's and Anthropic's styles, and occasionally any text at all.
fn arb_call_id() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (select(&["call_", "toolu_01", "fc_", ""][..]), 0..100_000_u32)
            .prop_map(|(prefix, number)| format!("{prefix}{number}")),
        1 => arb_text(),
    ]
}

/// Tool-call arguments as generated: a value for [`ToolCall::new`] or text for [`ToolCall::with_raw_arguments`].
#[derive(Clone, Debug)]
enum Arguments {
    Json(serde_json::Value),
    Raw(String),
}

/// A tool call whose id is left empty for the caller to fill in.
pub(crate) fn arb_call_without_id() -> impl Strategy<Value = ToolCall> {
    let arguments = prop_oneof![
        3 => arb_json_object().prop_map(|object| Arguments::Json(serde_json::Value::Object(object))),
        3 => arb_json_object().prop_map(|object| Arguments::Raw(serde_json::Value::Object(object).to_string())),
        // Pretty-printed JSON: the arguments must survive byte for byte.
        1 => arb_json_object().prop_map(|object| {
            let text = serde_json::to_string_pretty(&object).expect("a JSON map with string keys always serializes");
            Arguments::Raw(text)
        }),
        1 => select(MALFORMED_ARGUMENTS).prop_map(|text| Arguments::Raw(text.to_owned())),
        // Valid JSON cut short, as when a model runs out of output tokens.
        1 => (arb_json_object(), any::<prop::sample::Index>()).prop_map(|(object, cut)| {
            let full = serde_json::Value::Object(object).to_string();
            let boundaries: Vec<usize> = full.char_indices().map(|(index, _)| index).collect();
            Arguments::Raw(full[..boundaries[cut.index(boundaries.len())]].to_owned())
        }),
    ];
    (select(TOOL_NAMES), arguments).prop_map(|(name, arguments)| match arguments {
        Arguments::Json(value) => ToolCall::new("", name, value),
        Arguments::Raw(text) => ToolCall::with_raw_arguments("", name, text),
    })
}

/// A small JSON object of up to three keys with scalar or short array values.
fn arb_json_object() -> impl Strategy<Value = serde_json::Map<String, serde_json::Value>> {
    let scalar = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        (-1.0e6..1.0e6_f64).prop_map(serde_json::Value::from),
        arb_text().prop_map(serde_json::Value::from),
    ];
    let value = prop_oneof![
        3 => scalar.clone(),
        1 => vec(scalar, 0..3).prop_map(serde_json::Value::Array),
    ];
    vec((select(ARGUMENT_KEYS).prop_map(str::to_owned), value), 0..4)
        .prop_map(|entries| entries.into_iter().collect())
}

/// Tool results with any call id, successful or failed.
fn arb_tool_result() -> impl Strategy<Value = ToolResult> {
    (arb_call_id(), arb_text(), any::<bool>()).prop_map(|(call_id, content, failed)| {
        if failed { ToolResult::error(call_id, content) } else { ToolResult::new(call_id, content) }
    })
}

/// Attachments referenced by URL (web or `data:`) or carried inline as base64.
pub(crate) fn arb_attachment() -> impl Strategy<Value = Attachment> {
    let url = prop_oneof![
        (0..1000_u32).prop_map(|n| format!("https://example.test/files/{n}.png")),
        arb_base64().prop_map(|data| format!("data:image/png;base64,{data}")),
        arb_text(),
    ];
    prop_oneof![
        (select(MEDIA_TYPES), url).prop_map(|(media_type, url)| Attachment::url(media_type, url)),
        (select(MEDIA_TYPES), arb_base64())
            .prop_map(|(media_type, data)| Attachment::base64(media_type, data)),
    ]
}

/// Text in the shape of standard base64: groups of four alphabet characters, the last one sometimes padded.
fn arb_base64() -> impl Strategy<Value = String> {
    (vec(0..BASE64_ALPHABET.len(), 0..40), 0..3_usize).prop_map(|(digits, padding)| {
        let groups = digits.len() / 4;
        let mut text: String =
            digits.into_iter().take(groups * 4).map(|digit| char::from(BASE64_ALPHABET[digit])).collect();
        if groups > 0 {
            text.truncate(text.len() - padding);
            text.push_str(&"=".repeat(padding));
        }
        text
    })
}

#[cfg(test)]
mod tests;

//! Unit tests of the counters: parameter validation, names, model mapping and the shared accounting.

use tidemark_core::{Attachment, Message, Part, Role, TokenCounter, ToolCall};

use super::*;

fn check_heuristic(bytes_per_token: f32, per_message: u32, expected_name: Option<&str>) {
    match (HeuristicCounter::new(bytes_per_token, per_message), expected_name) {
        (Ok(counter), Some(name)) => assert_eq!(counter.name(), name, "{bytes_per_token}"),
        (Err(CounterError::InvalidBytesPerToken { value }), None) => {
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

fn check_model(model: &str, expected: Option<Encoding>) {
    assert_eq!(Encoding::for_model(model), expected, "{model}");
    match (TiktokenCounter::for_model(model), expected) {
        (Ok(counter), Some(encoding)) => assert_eq!(counter.encoding(), encoding, "{model}"),
        (Err(CounterError::UnknownModel { model: reported }), None) => assert_eq!(reported, model),
        (outcome, _) => panic!("{model}: got {outcome:?}, expected {expected:?}"),
    }
}

#[test]
fn models_map_to_their_encodings() {
    let o200k = Some(Encoding::O200kBase);
    let cl100k = Some(Encoding::Cl100kBase);
    let table = [
        ("gpt-4o", o200k),
        ("gpt-4o-mini", o200k),
        ("gpt-4o-2024-08-06", o200k),
        ("chatgpt-4o-latest", o200k),
        ("gpt-4.1", o200k),
        ("gpt-4.1-nano", o200k),
        ("gpt-4.5-preview", o200k),
        ("o1", o200k),
        ("o1-mini", o200k),
        ("o3", o200k),
        ("o3-pro-2025-06-10", o200k),
        ("o4-mini", o200k),
        ("gpt-5", o200k),
        ("gpt-5-mini", o200k),
        ("gpt-5.1", o200k),
        ("gpt-5.2-codex", o200k),
        ("ft:gpt-4o-mini-2024-07-18:acme::9abc", o200k),
        ("gpt-4", cl100k),
        ("gpt-4-0613", cl100k),
        ("gpt-4-turbo", cl100k),
        ("gpt-4-32k", cl100k),
        ("gpt-3.5-turbo", cl100k),
        ("gpt-3.5-turbo-0125", cl100k),
        ("gpt-35-turbo-16k", cl100k),
        ("ft:gpt-3.5-turbo-0613:acme::8xyz", cl100k),
        ("", None),
        ("gpt", None),
        ("gpt-4.2", None),
        ("gpt-40", None),
        ("gpt-50", None),
        ("o2", None),
        ("o10", None),
        ("GPT-4o", None),
        ("text-davinci-003", None),
        ("claude-sonnet-4", None),
        ("gpt-oss-120b", None),
        ("ft:", None),
    ];
    for (model, expected) in table {
        check_model(model, expected);
    }
}

#[test]
fn unknown_model_error_names_the_model() {
    let error = TiktokenCounter::for_model("llama-3").expect_err("not an OpenAI model");
    assert_eq!(error.to_string(), "no supported tokenizer is known for model `llama-3`");
}

#[test]
fn tiktoken_names_encodings_and_accounting() {
    let o200k = TiktokenCounter::o200k().expect("o200k_base loads");
    let cl100k = TiktokenCounter::cl100k().expect("cl100k_base loads");
    assert_eq!((o200k.name(), o200k.encoding().as_str()), ("o200k_base/chat-v1", "o200k_base"));
    assert_eq!(
        (cl100k.name(), cl100k.encoding().to_string().as_str()),
        ("cl100k_base/chat-v1", "cl100k_base")
    );
    assert_eq!((o200k.prompt_overhead(), cl100k.prompt_overhead()), (3, 3));
}

fn check_text(counter: &TiktokenCounter, text: &str, expected: u32) {
    assert_eq!(counter.count_text(text), expected, "{} {text:?}", counter.name());
}

#[test]
fn special_tokens_count_as_plain_text() {
    let o200k = TiktokenCounter::o200k().expect("o200k_base loads");
    let cl100k = TiktokenCounter::cl100k().expect("cl100k_base loads");
    // Values from OpenAI's Python tiktoken with `encode_ordinary`; as a special
    // token `<|endoftext|>` would be a single token.
    check_text(&o200k, "", 0);
    check_text(&o200k, "<|endoftext|>", 7);
    check_text(&cl100k, "<|endoftext|>", 7);
    check_text(&o200k, "a<|endoftext|>b", 9);
}

#[test]
fn tiktoken_counts_every_field_once() {
    let counter = TiktokenCounter::o200k().expect("o200k_base loads");
    let text = |text: &str| counter.count_text(text);
    let call = ToolCall::with_raw_arguments("call_abc", "search", r#"{"q":"tides"}"#);
    let message = Message::new(
        Role::Assistant,
        vec![
            Part::text("Looking it up."),
            Part::ToolCall(call),
            Part::Attachment(Attachment::url("image/png", "https://example.test/a.png")),
        ],
    )
    .with_name("planner");
    let expected = 3
        + text("assistant")
        + text("planner")
        + 1
        + text("Looking it up.")
        + text("search")
        + text(r#"{"q":"tides"}"#)
        + ATTACHMENT_TOKENS;
    assert_eq!(counter.count(&message), expected);
}

#[test]
fn counters_are_cheap_to_construct_and_share_tables() {
    let first = TiktokenCounter::o200k().expect("o200k_base loads");
    let second = TiktokenCounter::for_model("gpt-4o").expect("o200k_base loads");
    assert!(std::ptr::eq(first.bpe, second.bpe));
    assert_eq!(format!("{first:?}"), "TiktokenCounter { encoding: O200kBase, .. }");
}

#[test]
fn cache_hits_on_the_second_count_and_ignores_the_pin() {
    let counter = CachedCounter::with_capacity(HeuristicCounter::english(), 16);
    let message = Message::user("hello there");
    let expected = HeuristicCounter::english().count(&message);
    assert_eq!((counter.count(&message), counter.hits(), counter.misses()), (expected, 0, 1));
    assert_eq!((counter.count(&message), counter.hits(), counter.misses()), (expected, 1, 1));
    assert_eq!((counter.count(&message.clone().pinned()), counter.hits()), (expected, 2));
    assert_eq!(counter.len(), 1);
    counter.clear();
    assert!(counter.is_empty());
    assert_eq!((counter.count(&message), counter.misses()), (expected, 2));
}

#[test]
fn cache_forwards_everything_but_message_counts() {
    let inner = HeuristicCounter::new(2.0, 5).expect("valid");
    let counter = CachedCounter::new(inner);
    assert_eq!(counter.name(), "heuristic/2.0/5");
    assert_eq!(counter.prompt_overhead(), 5);
    assert_eq!(counter.count_text("abcde"), 3);
    assert_eq!((counter.hits(), counter.misses()), (0, 0));
    assert_eq!(counter.capacity(), CachedCounter::<HeuristicCounter>::DEFAULT_CAPACITY as u64);
    assert_eq!(counter.into_inner(), inner);
}

#[test]
fn zero_capacity_cache_still_counts() {
    let counter = CachedCounter::with_capacity(HeuristicCounter::english(), 0);
    let message = Message::assistant("no room");
    assert_eq!(counter.count(&message), HeuristicCounter::english().count(&message));
    assert_eq!(counter.count(&message), HeuristicCounter::english().count(&message));
    assert_eq!(counter.len(), 0);
}

#[test]
fn load_errors_show_the_encoding_and_keep_the_cause() {
    let cause: Box<dyn std::error::Error + Send + Sync> = "corrupt table".into();
    let error = CounterError::LoadEncoding { encoding: Encoding::Cl100kBase, source: cause.into() };
    assert_eq!(error.to_string(), "loading the cl100k_base byte-pair tables failed");
    let source = std::error::Error::source(&error).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("corrupt table"));
}

//! Unit tests of the counters: model mapping and tiktoken's accounting (with the `tiktoken` feature) and the cache (the heuristic's own tests live in `tidemark-core`).

#[cfg(feature = "tiktoken")]
use tidemark_core::{Attachment, Part, Role, ToolCall};
use tidemark_core::{Message, TokenCounter};

use super::*;

#[cfg(feature = "tiktoken")]
fn check_model(model: &str, expected: Option<Encoding>) {
    assert_eq!(Encoding::for_model(model), expected, "{model}");
    match (TiktokenCounter::for_model(model), expected) {
        (Ok(counter), Some(encoding)) => assert_eq!(counter.encoding(), encoding, "{model}"),
        (Err(CounterError::UnknownModel { model: reported }), None) => assert_eq!(reported, model),
        (outcome, _) => panic!("{model}: got {outcome:?}, expected {expected:?}"),
    }
}

#[cfg(feature = "tiktoken")]
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

#[cfg(feature = "tiktoken")]
#[test]
fn unknown_model_error_names_the_model() {
    let error = TiktokenCounter::for_model("llama-3").expect_err("not an OpenAI model");
    assert_eq!(error.to_string(), "no supported tokenizer is known for model `llama-3`");
}

#[cfg(feature = "tiktoken")]
#[test]
fn tiktoken_names_encodings_and_accounting() {
    let o200k = TiktokenCounter::o200k().expect("o200k_base loads");
    let cl100k = TiktokenCounter::cl100k().expect("cl100k_base loads");
    assert_eq!((o200k.name(), o200k.encoding().as_str()), ("o200k_base/chat-v2", "o200k_base"));
    assert_eq!(
        (cl100k.name(), cl100k.encoding().to_string().as_str()),
        ("cl100k_base/chat-v2", "cl100k_base")
    );
    assert_eq!((o200k.prompt_overhead(), cl100k.prompt_overhead()), (3, 3));
}

#[cfg(feature = "tiktoken")]
fn check_text(counter: &TiktokenCounter, text: &str, expected: u32) {
    assert_eq!(counter.count_text(text), expected, "{} {text:?}", counter.name());
}

#[cfg(feature = "tiktoken")]
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

#[cfg(feature = "tiktoken")]
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
        // The text and the image make an array of parts, so the text pays its type.
        + text("text")
        + text("Looking it up.")
        + ATTACHMENT_TOKENS
        // The call pays its id and type besides its name and arguments.
        + text("call_abc")
        + text("function")
        + text("search")
        + text(r#"{"q":"tides"}"#);
    assert_eq!(counter.count(&message), expected);
    // The tool message quoted in issue 17, as OpenAI's cookbook counts it:
    // 3 + "tool" (1) + the call id (16) + "957.0" (3).
    assert_eq!(counter.count(&Message::tool_result("call_aHFvcOCBnUSBGb47m72g1qAH", "957.0")), 23);
}

#[cfg(feature = "tiktoken")]
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
    assert_eq!(counter.name(), "heuristic/2.0/5/chat-v2");
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

#[cfg(feature = "tiktoken")]
#[test]
fn load_errors_show_the_encoding_and_keep_the_cause() {
    let cause: Box<dyn std::error::Error + Send + Sync> = "corrupt table".into();
    let error = CounterError::LoadEncoding { encoding: Encoding::Cl100kBase, source: cause.into() };
    assert_eq!(error.to_string(), "loading the cl100k_base byte-pair tables failed");
    let source = std::error::Error::source(&error).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("corrupt table"));
}

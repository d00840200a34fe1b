//! Token counters against OpenAI's tiktoken on a checked-in corpus, and properties every counter keeps.
//!
//! `tests/data/tiktoken/` holds the corpus (`corpus.jsonl`, written by
//! `build_corpus.py`) and the counts OpenAI's Python tiktoken gives for it
//! (`expected.jsonl` and `prompt.json`, written by `generate.py`, which these
//! tests never run).

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::Value;
use tidemark_core::{Message, Part, Role, TokenCounter};
use tidemark_memory::counter::{CachedCounter, HeuristicCounter, TiktokenCounter};
use tidemark_testkit::strategies::{arb_message, arb_text};

const CORPUS: &str = include_str!("data/tiktoken/corpus.jsonl");
const EXPECTED: &str = include_str!("data/tiktoken/expected.jsonl");
const PROMPT: &str = include_str!("data/tiktoken/prompt.json");

/// One corpus message with its labels and OpenAI's counts.
struct Case {
    message: Message,
    kind: String,
    expected: Value,
}

static CORPUS_CASES: LazyLock<Vec<Case>> = LazyLock::new(load_corpus);
static O200K: LazyLock<TiktokenCounter> =
    LazyLock::new(|| TiktokenCounter::o200k().expect("o200k_base loads"));
static CL100K: LazyLock<TiktokenCounter> =
    LazyLock::new(|| TiktokenCounter::cl100k().expect("cl100k_base loads"));

fn load_corpus() -> Vec<Case> {
    let cases: Vec<Case> = CORPUS
        .lines()
        .zip(EXPECTED.lines())
        .enumerate()
        .map(|(index, (line, expected))| {
            let message =
                Message::from_json(line).unwrap_or_else(|error| panic!("corpus line {index}: {error}"));
            let labels: Value = serde_json::from_str(line).expect("a corpus line is JSON");
            let expected: Value = serde_json::from_str(expected).expect("an expected line is JSON");
            assert_eq!(expected["index"], index, "expected.jsonl is out of step with the corpus");
            let kind = labels["kind"].as_str().expect("every corpus line has a kind").to_owned();
            Case { message, kind, expected }
        })
        .collect();
    assert_eq!(cases.len(), CORPUS.lines().count(), "expected.jsonl has fewer lines than the corpus");
    assert_eq!(cases.len(), EXPECTED.lines().count(), "expected.jsonl has more lines than the corpus");
    cases
}

fn expected_u32(value: &Value) -> u32 {
    value.as_u64().and_then(|count| u32::try_from(count).ok()).expect("counts are small integers")
}

/// Every message's count and each part's share, against OpenAI's tiktoken for one encoding.
fn check_encoding(counter: &TiktokenCounter, encoding: &str) {
    let mut mismatches = Vec::new();
    for (index, case) in CORPUS_CASES.iter().enumerate() {
        let expected = expected_u32(&case.expected[encoding]);
        let actual = counter.count(&case.message);
        if actual != expected {
            mismatches.push(format!("message {index}: counted {actual}, tiktoken {expected}"));
        }
        let parts = case.expected[format!("{encoding}_parts")].as_array().expect("part counts are a list");
        assert_eq!(parts.len(), case.message.parts.len(), "message {index}");
        // Whether the wire sends the content as an array of parts, where each text pays its type.
        let array = !matches!(
            case.message.parts.iter().filter(|part| !matches!(part, Part::ToolCall(_))).collect::<Vec<_>>()[..],
            [] | [Part::Text { .. }]
        );
        let text = |text: &str| counter.count_text(text);
        for (part_index, (part, expected)) in case.message.parts.iter().zip(parts).enumerate() {
            let actual = match part {
                Part::ToolResult(result) if case.message.role == Role::Tool => {
                    text(&result.call_id) + text(&result.content)
                }
                // The wire sends nothing else of a tool message.
                _ if case.message.role == Role::Tool => 0,
                Part::Text { text: body } if array => text("text") + text(body),
                Part::Text { text: body } => text(body),
                Part::ToolCall(call) => {
                    text(&call.id) + text("function") + text(&call.name) + text(&call.arguments)
                }
                Part::ToolResult(result) => {
                    text("text") + text(&format!("[result of {}] {}", result.call_id, result.content))
                }
                _ => continue,
            };
            if actual != expected_u32(expected) {
                mismatches.push(format!(
                    "message {index} part {part_index}: counted {actual}, tiktoken {expected}"
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{encoding}: {} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn corpus_is_large_and_varied() {
    let count = |kind: &str| CORPUS_CASES.iter().filter(|case| case.kind == kind).count();
    assert!(CORPUS_CASES.len() >= 240, "{} messages", CORPUS_CASES.len());
    for kind in ["prose", "code", "json", "multilingual", "edge"] {
        assert!(count(kind) >= 20, "only {} {kind} messages", count(kind));
    }
    let parallel = CORPUS_CASES.iter().filter(|case| case.message.tool_calls().count() >= 2).count();
    assert!(parallel >= 4, "only {parallel} messages with parallel tool calls");
}

#[test]
fn o200k_counts_equal_openai_tiktoken() {
    check_encoding(&O200K, "o200k_base");
}

#[test]
fn cl100k_counts_equal_openai_tiktoken() {
    check_encoding(&CL100K, "cl100k_base");
}

#[test]
fn prompt_totals_equal_openai_tiktoken() {
    let prompt: Value = serde_json::from_str(PROMPT).expect("prompt.json is JSON");
    let history: Vec<Message> = CORPUS_CASES.iter().map(|case| case.message.clone()).collect();
    assert_eq!(prompt["messages"], history.len());
    for (counter, encoding) in [(&*O200K, "o200k_base"), (&*CL100K, "cl100k_base")] {
        let sum: u32 = CORPUS_CASES.iter().map(|case| expected_u32(&case.expected[encoding])).sum();
        assert_eq!(expected_u32(&prompt[encoding]), sum + 3, "{encoding}");
        assert_eq!(counter.count_prompt(&history), sum + 3, "{encoding}");
        assert_eq!(CachedCounter::new(counter).count_prompt(&history), sum + 3, "{encoding}");
    }
}

#[test]
fn cache_answers_repeated_messages_from_memory() {
    let counter = CachedCounter::new(*O200K);
    let first: Vec<u32> = CORPUS_CASES.iter().map(|case| counter.count(&case.message)).collect();
    let misses = counter.misses();
    // Some corpus messages repeat (tau-bench's `think` results are all empty), so
    // the first pass already hits a little; the second pass hits every time.
    assert_eq!(counter.hits() + misses, CORPUS_CASES.len() as u64);
    let second: Vec<u32> = CORPUS_CASES.iter().map(|case| counter.count(&case.message)).collect();
    assert_eq!(first, second);
    assert_eq!(counter.misses(), misses);
    assert_eq!(counter.hits() + misses, 2 * CORPUS_CASES.len() as u64);
    assert_eq!(counter.len() as u64, misses);
}

#[test]
fn cache_stays_bounded() {
    let capacity = 64;
    let counter = CachedCounter::with_capacity(HeuristicCounter::english(), capacity);
    for n in 0..5_000 {
        let message = Message::user(format!("message number {n}"));
        assert_eq!(counter.count(&message), HeuristicCounter::english().count(&message));
        assert!(counter.len() <= capacity, "{} counts cached after {n} messages", counter.len());
    }
    assert_eq!((counter.hits(), counter.misses()), (0, 5_000));
}

/// A preset's accuracy on part of the corpus, formatted as the docs print it.
#[derive(Debug, PartialEq)]
struct Accuracy {
    /// Mean relative error of the messages' counts.
    mean: String,
    /// Largest relative error of a message's count.
    worst: String,
    /// How many messages the preset under-counted.
    under: usize,
    /// Relative error of the group's total, as one prompt, with its sign.
    prompt: String,
}

fn accuracy(preset: HeuristicCounter, kind: Option<&str>) -> Accuracy {
    let cases: Vec<&Case> =
        CORPUS_CASES.iter().filter(|case| kind.is_none_or(|kind| case.kind == kind)).collect();
    let exact = |case: &Case| f64::from(expected_u32(&case.expected["o200k_base"]));
    let errors: Vec<f64> = cases
        .iter()
        .map(|case| (f64::from(preset.count(&case.message)) - exact(case)) / exact(case))
        .collect();
    let messages: Vec<Message> = cases.iter().map(|case| case.message.clone()).collect();
    let exact_prompt = cases.iter().map(|case| exact(case)).sum::<f64>() + 3.0;
    let prompt_error = (f64::from(preset.count_prompt(&messages)) - exact_prompt) / exact_prompt;
    Accuracy {
        mean: format!(
            "{:.1}%",
            100.0 * errors.iter().map(|error| error.abs()).sum::<f64>() / errors.len() as f64
        ),
        worst: format!("{:.1}%", 100.0 * errors.iter().fold(0.0, |worst: f64, error| worst.max(error.abs()))),
        under: errors.iter().filter(|error| **error < 0.0).count(),
        prompt: format!("{:+.1}%", 100.0 * prompt_error),
    }
}

fn check_accuracy(preset: HeuristicCounter, kind: Option<&str>, expected: [&str; 3], under: usize) {
    let [mean, worst, prompt] = expected.map(str::to_owned);
    assert_eq!(
        accuracy(preset, kind),
        Accuracy { mean, worst, under, prompt },
        "{preset:?} on {}: update the figures in the preset's docs",
        kind.unwrap_or("the whole corpus"),
    );
}

// The heuristic presets document their accuracy on this corpus; these checks
// keep the figures true when the corpus or the presets change.
#[test]
fn heuristic_presets_have_their_documented_accuracy() {
    let four = HeuristicCounter::new(4.0, 3).expect("valid");
    check_accuracy(four, Some("prose"), ["15.2%", "53.8%", "+14.1%"], 20);
    check_accuracy(HeuristicCounter::english(), Some("prose"), ["12.1%", "38.5%", "+1.9%"], 30);
    check_accuracy(HeuristicCounter::english(), None, ["28.1%", "1002.7%", "-21.9%"], 219);
    check_accuracy(HeuristicCounter::code(), Some("code"), ["12.5%", "40.8%", "-3.9%"], 16);
    check_accuracy(HeuristicCounter::code(), None, ["29.4%", "1425.3%", "+6.6%"], 122);
    check_accuracy(HeuristicCounter::json(), Some("json"), ["18.1%", "58.2%", "-3.3%"], 74);
    check_accuracy(HeuristicCounter::json(), Some("code"), ["14.9%", "36.7%", "+4.0%"], 12);
    check_accuracy(HeuristicCounter::json(), Some("multilingual"), ["45.1%", "166.7%", "+32.9%"], 7);
    check_accuracy(HeuristicCounter::json(), Some("prose"), ["41.3%", "96.2%", "+51.0%"], 1);
    check_accuracy(HeuristicCounter::json(), Some("edge"), ["59.1%", "1550.7%", "+30.2%"], 16);
    check_accuracy(HeuristicCounter::json(), None, ["32.4%", "1550.7%", "+14.9%"], 110);
    check_accuracy(HeuristicCounter::conservative(), None, ["124.5%", "3196.0%", "+125.8%"], 1);
    check_accuracy(HeuristicCounter::upper_bound(), None, ["226.0%", "4841.3%", "+235.9%"], 0);
}

fn all_counters() -> [(&'static str, &'static dyn TokenCounter); 8] {
    static CACHED: LazyLock<CachedCounter<TiktokenCounter>> =
        LazyLock::new(|| CachedCounter::with_capacity(*O200K, 256));
    static HEURISTICS: LazyLock<[HeuristicCounter; 5]> = LazyLock::new(|| {
        [
            HeuristicCounter::english(),
            HeuristicCounter::code(),
            HeuristicCounter::json(),
            HeuristicCounter::conservative(),
            HeuristicCounter::upper_bound(),
        ]
    });
    [
        ("o200k", &*O200K),
        ("cl100k", &*CL100K),
        ("cached o200k", &*CACHED),
        ("english", &HEURISTICS[0]),
        ("code", &HEURISTICS[1]),
        ("json", &HEURISTICS[2]),
        ("conservative", &HEURISTICS[3]),
        ("upper bound", &HEURISTICS[4]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn cache_returns_the_inner_count(message in arb_message()) {
        // One small cache shared by every case, so that evictions happen too.
        static SHARED: LazyLock<CachedCounter<TiktokenCounter>> =
            LazyLock::new(|| CachedCounter::with_capacity(*O200K, 32));
        let exact = O200K.count(&message);
        prop_assert_eq!(SHARED.count(&message), exact);
        prop_assert_eq!(SHARED.count(&message), exact);
        let fresh = CachedCounter::new(HeuristicCounter::english());
        prop_assert_eq!(fresh.count(&message), HeuristicCounter::english().count(&message));
        prop_assert_eq!(fresh.count(&message), HeuristicCounter::english().count(&message));
        prop_assert_eq!((fresh.hits(), fresh.misses()), (1, 1));
    }

    #[test]
    fn pinning_does_not_change_counts(message in arb_message()) {
        let mut pinned = message.clone();
        pinned.pinned = !message.pinned;
        for (name, counter) in all_counters() {
            prop_assert_eq!(counter.count(&pinned), counter.count(&message), "{}", name);
        }
    }

    #[test]
    fn heuristic_never_counts_a_message_as_free(
        message in arb_message(),
        bytes_per_token in 0.01_f32..100.0,
        per_message in 0_u32..8,
    ) {
        let counter = HeuristicCounter::new(bytes_per_token, per_message).expect("the range is valid");
        // A tool message with no result sends nothing, and is the one message that costs nothing.
        let sends_nothing = message.role == Role::Tool && message.tool_results().next().is_none();
        prop_assert_eq!(counter.count(&message) > 0, !sends_nothing);
        for preset in [HeuristicCounter::english(), HeuristicCounter::code(), HeuristicCounter::json()] {
            prop_assert_eq!(preset.count(&message) > 0, !sends_nothing);
        }
    }

    #[test]
    fn upper_bound_never_counts_below_openai(message in arb_message()) {
        let bound = HeuristicCounter::upper_bound();
        for exact in [&*O200K, &*CL100K] {
            prop_assert!(bound.count(&message) >= exact.count(&message), "{}", exact.name());
            prop_assert!(bound.prompt_overhead() >= exact.prompt_overhead());
        }
    }

    #[test]
    fn appending_text_never_lowers_a_count(message in arb_message(), text in arb_text()) {
        let longer = message.clone().with_part(Part::text(text.clone()));
        // The content the wire sends before the new part: nothing, one plain string, or an array of parts.
        let content: Vec<&Part> =
            message.parts.iter().filter(|part| !matches!(part, Part::ToolCall(_))).collect();
        for (name, counter) in all_counters() {
            let (before, after) = (counter.count(&message), counter.count(&longer));
            prop_assert!(after >= before, "{}: {} then {}", name, before, after);
            let kind = counter.count_text("text");
            let added = match content.as_slice() {
                // The wire sends only the results of a tool message.
                _ if message.role == Role::Tool => 0,
                // The text becomes the whole content string.
                [] => counter.count_text(&text),
                // A lone text becomes an array, so both texts now pay their type.
                [Part::Text { .. }] => 2 * kind + counter.count_text(&text),
                // One more part in the array.
                _ => kind + counter.count_text(&text),
            };
            prop_assert_eq!(after - before, added, "{}", name);
        }
    }
}

//! The counting corpus: agent messages of English prose, source code, JSON tool traffic and non-ASCII text, built from a fixed seed.
//!
//! The raw material is the committed token-count corpus of tidemark-memory
//! (`tests/data/tiktoken/corpus.jsonl`: hand-written messages and messages from
//! recorded agent runs). On its own it is 190 KB, and repeating it would make a
//! large corpus of duplicates, so it is recombined instead: prose through a word
//! chain trained on its prose, code as runs of lines spliced from several
//! files, JSON as generated tool results plus its own JSON with new numbers,
//! and non-ASCII text as its sentences in other scripts reshuffled with emoji
//! and accented names. The same seed gives the same bytes on every run and
//! every machine, and nearly every message is distinct.

use std::collections::HashMap;

use serde_json::{Value, json};
use tidemark_core::{Message, ToolCall};
use tidemark_testkit::workload::Rng;

/// The seed every corpus is built from.
const SEED: u64 = 0x7469_6465_6d61_726b;

/// tidemark-memory's token-count corpus, the raw material.
const SEED_CORPUS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/tidemark-memory/tests/data/tiktoken/corpus.jsonl"
));

/// What a message mostly holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// English prose from users and the assistant.
    Prose,
    /// Source code, in answers and in file contents read by tools.
    Code,
    /// JSON tool results and tool-call arguments.
    Json,
    /// Text in other scripts, accented Latin and emoji.
    NonAscii,
    /// Special-token text, runs of whitespace, numbers, URLs and other odd strings.
    Edge,
}

impl Kind {
    /// Every kind, in report order.
    pub(super) const ALL: [Kind; 5] = [Kind::Prose, Kind::Code, Kind::Json, Kind::NonAscii, Kind::Edge];

    /// The kind's name in the report.
    pub(super) fn label(self) -> &'static str {
        match self {
            Kind::Prose => "English prose",
            Kind::Code => "source code",
            Kind::Json => "JSON tool traffic",
            Kind::NonAscii => "non-ASCII text",
            Kind::Edge => "odd strings",
        }
    }
}

/// One message of the corpus and the one string in it that the text counters count.
#[derive(Debug)]
pub(super) struct Sample {
    /// What the message mostly holds.
    pub(super) kind: Kind,
    /// The message, as a memory would count it.
    pub(super) message: Message,
    /// Its text, tool result or tool-call arguments.
    pub(super) text: String,
}

/// Builds a corpus whose texts add up to at least `bytes` bytes.
pub(super) fn build(bytes: usize) -> Result<Vec<Sample>, String> {
    let seeds = Seeds::parse()?;
    let mut rng = Rng::new(SEED);
    let mut samples = Vec::new();
    let mut total = 0;
    while total < bytes {
        let sample = match rng.between(0, 99) {
            0..=29 => prose_message(&mut rng, &seeds),
            30..=49 => code_message(&mut rng, &seeds),
            50..=79 => json_message(&mut rng, &seeds),
            80..=94 => non_ascii_message(&mut rng, &seeds),
            _ => edge_message(&mut rng, &seeds),
        };
        total += sample.text.len();
        samples.push(sample);
    }
    Ok(samples)
}

/// The strings of the seed corpus, sorted by kind, and what is learned from them.
struct Seeds {
    chain: Chain,
    /// Each code string of the seed corpus, as lines.
    code_files: Vec<Vec<String>>,
    json: Vec<String>,
    /// The sentences of each non-ASCII string of the seed corpus.
    foreign: Vec<Vec<String>>,
    edge: Vec<String>,
    /// Words of the prose, for names and values in generated JSON.
    words: Vec<String>,
}

impl Seeds {
    fn parse() -> Result<Self, String> {
        let mut prose = Vec::new();
        let mut code = Vec::new();
        let mut json = Vec::new();
        let mut foreign = Vec::new();
        let mut edge = Vec::new();
        for (number, line) in SEED_CORPUS.lines().enumerate() {
            let value: Value = serde_json::from_str(line)
                .map_err(|error| format!("seed corpus line {}: {error}", number + 1))?;
            let kind = value.get("kind").and_then(Value::as_str).unwrap_or_default();
            let parts = value.get("parts").and_then(Value::as_array).into_iter().flatten();
            for part in parts {
                for key in ["text", "arguments", "content"] {
                    let Some(text) = part.get(key).and_then(Value::as_str).filter(|text| !text.is_empty())
                    else {
                        continue;
                    };
                    // Tool-call arguments are JSON whatever the message is labelled.
                    let bucket = match (key, kind) {
                        ("arguments", _) | (_, "json") => &mut json,
                        (_, "prose") => &mut prose,
                        (_, "code") => &mut code,
                        (_, "multilingual") => &mut foreign,
                        _ => &mut edge,
                    };
                    bucket.push(text.to_owned());
                }
            }
        }
        if [&prose, &code, &json, &foreign, &edge].iter().any(|bucket| bucket.is_empty()) {
            return Err("the seed corpus lacks one of the kinds of text".to_owned());
        }
        let chain = Chain::train(&prose);
        let words = chain.words.iter().filter(|word| is_plain_word(word)).cloned().collect();
        Ok(Self {
            chain,
            code_files: code.iter().map(|file| file.lines().map(str::to_owned).collect()).collect(),
            json,
            foreign: foreign.iter().map(|text| sentences(text)).collect(),
            edge,
            words,
        })
    }

    fn word<'a>(&'a self, rng: &mut Rng) -> &'a str {
        pick(rng, &self.words).map_or("word", String::as_str)
    }
}

/// A word-level Markov chain: each word of the training prose, and the words that followed it.
struct Chain {
    words: Vec<String>,
    followers: Vec<Vec<u32>>,
    /// Words that open a sentence.
    openers: Vec<u32>,
}

impl Chain {
    fn train(texts: &[String]) -> Self {
        let mut chain = Self { words: Vec::new(), followers: Vec::new(), openers: Vec::new() };
        // The map only assigns numbers; every list is filled in text order, so training is deterministic.
        let mut numbers: HashMap<&str, u32> = HashMap::new();
        for text in texts {
            let mut previous: Option<u32> = None;
            for word in text.split_whitespace() {
                let next = u32::try_from(numbers.len()).unwrap_or(u32::MAX);
                let number = *numbers.entry(word).or_insert(next);
                if number == next {
                    chain.words.push(word.to_owned());
                    chain.followers.push(Vec::new());
                }
                match previous {
                    Some(before) => {
                        if let Some(list) = chain.followers.get_mut(before as usize) {
                            list.push(number);
                        }
                        if ends_sentence(chain.words.get(before as usize).map_or("", String::as_str)) {
                            chain.openers.push(number);
                        }
                    }
                    None => chain.openers.push(number),
                }
                previous = Some(number);
            }
        }
        chain
    }

    /// Prose of at least `bytes` bytes, ending at a sentence's end where one comes soon enough.
    fn prose(&self, rng: &mut Rng, bytes: usize) -> String {
        let mut text = String::with_capacity(bytes + 64);
        let mut current = pick(rng, &self.openers).copied().unwrap_or(0);
        loop {
            let word = self.words.get(current as usize).map_or("and", String::as_str);
            text.push_str(word);
            let done = text.len() >= bytes && (ends_sentence(word) || text.len() >= bytes + bytes / 2);
            if done {
                return text;
            }
            let followers = self.followers.get(current as usize).map_or(&[][..], Vec::as_slice);
            current = match pick(rng, followers) {
                Some(&next) if rng.between(0, 19) > 0 => next,
                _ => pick(rng, &self.openers).copied().unwrap_or(0),
            };
            text.push_str(if ends_sentence(word) && rng.between(0, 5) == 0 { "\n\n" } else { " " });
        }
    }
}

fn ends_sentence(word: &str) -> bool {
    word.ends_with(['.', '?', '!'])
}

fn is_plain_word(word: &str) -> bool {
    (3..=14).contains(&word.len()) && word.chars().all(|c| c.is_ascii_lowercase())
}

/// Splits text after each sentence end, in Latin and in CJK punctuation, and at line breaks.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '.' | '?' | '!' | '。' | '？' | '！' | '।' | '።' | '\n') {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> Option<&'a T> {
    let last = items.len().checked_sub(1)?;
    items.get(rng.between(0, last))
}

fn pick_str(rng: &mut Rng, items: &[&'static str]) -> &'static str {
    pick(rng, items).copied().unwrap_or_default()
}

/// Replaces about a third of the ASCII digits with random ones, so copies of a seed string differ.
fn new_digits(rng: &mut Rng, text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_digit() && rng.between(0, 2) == 0 {
                char::from(b'0' + u8::try_from(rng.between(0, 9)).unwrap_or(0))
            } else {
                c
            }
        })
        .collect()
}

fn call_id(rng: &mut Rng) -> String {
    format!("call_{:016x}", rng.next_u64())
}

/// A user, assistant or system message holding `text`.
fn chat(rng: &mut Rng, kind: Kind, text: String) -> Sample {
    let message = match rng.between(0, 19) {
        0 => Message::system(text.clone()),
        1..=8 => Message::user(text.clone()),
        _ => Message::assistant(text.clone()),
    };
    Sample { kind, message, text }
}

/// A tool message whose result is `text`.
fn tool_result(rng: &mut Rng, kind: Kind, text: String) -> Sample {
    Sample { kind, message: Message::tool_result(call_id(rng), text.clone()), text }
}

/// Prose of a random length between `low` and `high` bytes.
fn prose(rng: &mut Rng, seeds: &Seeds, low: usize, high: usize) -> String {
    let bytes = rng.between(low, high);
    seeds.chain.prose(rng, bytes)
}

/// Non-ASCII text of a random length between `low` and `high` bytes.
fn foreign(rng: &mut Rng, seeds: &Seeds, low: usize, high: usize) -> String {
    let bytes = rng.between(low, high);
    foreign_text(rng, seeds, bytes)
}

fn prose_message(rng: &mut Rng, seeds: &Seeds) -> Sample {
    // Users write short requests; answers and system prompts run longer.
    let bytes = if rng.between(0, 2) == 0 { rng.between(30, 400) } else { rng.between(200, 3_000) };
    let text = seeds.chain.prose(rng, bytes);
    chat(rng, Kind::Prose, text)
}

fn code_message(rng: &mut Rng, seeds: &Seeds) -> Sample {
    let bytes = rng.between(300, 6_000);
    let mut lines: Vec<String> = Vec::new();
    let mut length = 0;
    while length < bytes {
        let Some(file) = pick(rng, &seeds.code_files) else { break };
        let start = rng.between(0, file.len().saturating_sub(1));
        let run = rng.between(3, 25);
        for line in file.iter().skip(start).take(run) {
            length += line.len() + 1;
            lines.push(new_digits(rng, line));
        }
    }
    match rng.between(0, 2) {
        0 => {
            let language = pick_str(rng, &["rust", "python", "typescript", "bash", "diff", ""]);
            let intro = prose(rng, seeds, 20, 200);
            let outro = prose(rng, seeds, 0, 300);
            let text = format!("{intro}\n\n```{language}\n{}\n```\n\n{outro}", lines.join("\n"));
            Sample { kind: Kind::Code, message: Message::assistant(text.clone()), text }
        }
        1 => {
            // A file read with line numbers, as `cat -n` and agent file tools print it.
            let first = rng.between(1, 900);
            let numbered: Vec<String> =
                lines.iter().enumerate().map(|(i, line)| format!("{:6}\t{line}", first + i)).collect();
            tool_result(rng, Kind::Code, numbered.join("\n"))
        }
        _ => tool_result(rng, Kind::Code, lines.join("\n")),
    }
}

fn json_message(rng: &mut Rng, seeds: &Seeds) -> Sample {
    if rng.between(0, 3) == 0 {
        let (name, arguments) = tool_arguments(rng, seeds);
        let call = ToolCall::with_raw_arguments(call_id(rng), name, arguments.clone());
        return Sample { kind: Kind::Json, message: Message::assistant_tool_calls([call]), text: arguments };
    }
    let text = match rng.between(0, 5) {
        0 => {
            let seed = pick(rng, &seeds.json).map_or("{}", String::as_str);
            new_digits(rng, seed)
        }
        shape => {
            let value = tool_output(rng, seeds, shape);
            let pretty =
                if rng.between(0, 1) == 0 { serde_json::to_string_pretty(&value).ok() } else { None };
            pretty.unwrap_or_else(|| value.to_string())
        }
    };
    tool_result(rng, Kind::Json, text)
}

const DIRECTORIES: &[&str] =
    &["src", "crates", "tests", "docs", "bench", "adapter", "store", "policy", "counter", "examples"];
const EXTENSIONS: &[&str] = &["rs", "py", "ts", "md", "json", "toml", "yaml", "sql"];

fn path(rng: &mut Rng, seeds: &Seeds) -> String {
    let mut path = String::new();
    for _ in 0..rng.between(1, 4) {
        path.push_str(pick_str(rng, DIRECTORIES));
        path.push('/');
    }
    path.push_str(seeds.word(rng));
    path.push('_');
    path.push_str(seeds.word(rng));
    path.push('.');
    path.push_str(pick_str(rng, EXTENSIONS));
    path
}

fn timestamp(rng: &mut Rng) -> String {
    format!(
        "20{:02}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        rng.between(18, 26),
        rng.between(1, 12),
        rng.between(1, 28),
        rng.between(0, 23),
        rng.between(0, 59),
        rng.between(0, 59)
    )
}

// Every object below lists its keys in sorted order. serde_json keeps the
// insertion order when another crate of the build turns on its
// `preserve_order` feature and sorts the keys otherwise; written sorted, the
// text is the same either way, so the corpus does not depend on the build.
// Numbers are integers for the same reason: the text of a float is the
// formatter's choice.

/// A tool name and the arguments a model might write for it.
fn tool_arguments(rng: &mut Rng, seeds: &Seeds) -> (&'static str, String) {
    match rng.between(0, 3) {
        0 => ("read_file", json!({ "path": path(rng, seeds) }).to_string()),
        1 => {
            let limit = rng.between(5, 50);
            let query = prose(rng, seeds, 10, 80);
            ("search", json!({ "limit": limit, "query": query }).to_string())
        }
        2 => {
            let content: Vec<String> = (0..rng.between(2, 30))
                .filter_map(|_| pick(rng, &seeds.code_files).and_then(|file| pick(rng, file)).cloned())
                .collect();
            ("write_file", json!({ "content": content.join("\n"), "path": path(rng, seeds) }).to_string())
        }
        _ => {
            let body = foreign(rng, seeds, 20, 200);
            let arguments = json!({ "body": body, "to": name(rng), "urgent": rng.between(0, 1) == 1 });
            ("send_message", arguments.to_string())
        }
    }
}

/// A JSON tool result of one of five shapes.
fn tool_output(rng: &mut Rng, seeds: &Seeds, shape: usize) -> Value {
    let items = rng.between(1, 40);
    match shape {
        1 => {
            let matches: Vec<Value> = (0..items)
                .map(|_| {
                    let line = rng.between(1, 4_000);
                    let path = path(rng, seeds);
                    let file = pick(rng, &seeds.code_files).map_or(&[][..], Vec::as_slice);
                    let text = pick(rng, file).map_or("", |text| text.trim());
                    json!({ "line": line, "path": path, "text": text })
                })
                .collect();
            json!({ "matches": matches, "truncated": rng.between(0, 3) == 0 })
        }
        2 => {
            let entries: Vec<Value> = (0..items)
                .map(|_| {
                    let kind = if rng.between(0, 4) == 0 { "directory" } else { "file" };
                    let modified = timestamp(rng);
                    let name = path(rng, seeds);
                    let size = rng.between(0, 250_000);
                    json!({ "kind": kind, "modified": modified, "name": name, "size": size })
                })
                .collect();
            json!({ "entries": entries, "total": items })
        }
        3 => {
            let results: Vec<Value> = (0..items.min(12))
                .map(|_| {
                    let relevance = rng.between(0, 1_000);
                    let snippet = if rng.between(0, 3) == 0 {
                        foreign(rng, seeds, 40, 240)
                    } else {
                        prose(rng, seeds, 60, 300)
                    };
                    let title = prose(rng, seeds, 20, 70);
                    let (site, section) = (seeds.word(rng), seeds.word(rng));
                    let url = format!("https://{site}.example/{section}/{}", rng.next_u64() % 100_000);
                    json!({ "relevance": relevance, "snippet": snippet, "title": title, "url": url })
                })
                .collect();
            json!({ "results": results })
        }
        4 => {
            let failures: Vec<Value> = (0..items.min(8))
                .map(|_| {
                    let duration_ms = rng.between(1, 5_000);
                    let (left, right) = (rng.between(0, 9_999), rng.between(0, 9_999));
                    let message =
                        format!("assertion `left == right` failed\n  left: {left}\n right: {right}");
                    let name = format!("{}::tests::{}_{}", seeds.word(rng), seeds.word(rng), seeds.word(rng));
                    json!({ "duration_ms": duration_ms, "message": message, "name": name })
                })
                .collect();
            let (passed, ignored) = (rng.between(10, 900), rng.between(0, 9));
            json!({ "failed": failures.len(), "failures": failures, "ignored": ignored, "passed": passed })
        }
        _ => {
            let customers: Vec<Value> = (0..items.min(15))
                .map(|_| {
                    json!({
                        "balance_cents": rng.next_u64() % 10_000_000,
                        "city": pick_str(rng, CITIES),
                        "id": format!("{:08x}", rng.next_u64() % 0xffff_ffff),
                        "name": name(rng),
                        "since": timestamp(rng),
                        "tags": [seeds.word(rng), seeds.word(rng)],
                    })
                })
                .collect();
            json!({ "customers": customers, "has_more": rng.between(0, 1) == 1, "page": rng.between(1, 20) })
        }
    }
}

const GIVEN_NAMES: &[&str] = &[
    "Zoë",
    "François",
    "Bjørn",
    "Ångström",
    "José",
    "Małgorzata",
    "Søren",
    "Dvořák",
    "Müller",
    "İpek",
    "Ñuño",
    "Anaïs",
    "Jürgen",
    "Þórdís",
    "Chloé",
    "Priya",
    "Wei",
    "Tomasz",
    "Ayşe",
    "Renée",
    "Łukasz",
    "Nguyễn",
];
const FAMILY_NAMES: &[&str] = &[
    "García",
    "Østergaard",
    "Kowalczyk",
    "Schröder",
    "Öztürk",
    "Brontë",
    "Núñez",
    "Lefèvre",
    "Čapek",
    "Smith",
    "Tanaka",
    "Đorđević",
    "Håkansson",
    "Peña",
    "Ferreira",
    "Žižek",
    "Ó Briain",
];
const CITIES: &[&str] = &[
    "São Paulo",
    "Łódź",
    "Zürich",
    "Malmö",
    "Reykjavík",
    "Kraków",
    "Besançon",
    "Düsseldorf",
    "東京",
    "서울",
    "Москва",
    "القاهرة",
    "Αθήνα",
    "मुंबई",
    "Hà Nội",
    "Ciudad de México",
];
const EMOJI: &[&str] = &[
    "🚀",
    "🎉",
    "🙏🏾",
    "👍🏻",
    "❤️\u{200d}🔥",
    "👩🏽\u{200d}💻",
    "🧑🏿\u{200d}🚀",
    "🇨🇭",
    "🇯🇵",
    "🇧🇷",
    "🦀",
    "✅",
    "⚠️",
    "🔥",
    "😅",
    "🤔",
    "👨\u{200d}👩\u{200d}👧\u{200d}👦",
    "1️⃣",
    "💯",
    "🫶🏼",
];

fn name(rng: &mut Rng) -> String {
    format!("{} {}", pick_str(rng, GIVEN_NAMES), pick_str(rng, FAMILY_NAMES))
}

/// Text of at least `bytes` bytes made of sentences of the seed corpus's non-ASCII strings, emoji and names.
fn foreign_text(rng: &mut Rng, seeds: &Seeds, bytes: usize) -> String {
    let mut text = String::new();
    // Runs of sentences from one seed string (one language), switching often, as the seeds are short.
    let mut source = pick(rng, &seeds.foreign);
    while text.len() < bytes {
        if rng.between(0, 1) == 0 {
            source = pick(rng, &seeds.foreign);
        }
        match rng.between(0, 9) {
            0 => text.push_str(pick_str(rng, EMOJI)),
            1 => text.push_str(&name(rng)),
            2 => text.push_str(pick_str(rng, CITIES)),
            _ => {
                let sentence = source.and_then(|list| pick(rng, list)).map_or("", String::as_str);
                text.push_str(&new_digits(rng, sentence));
            }
        }
        if !text.ends_with(char::is_whitespace) {
            text.push_str(pick_str(rng, &[" ", " ", " ", "\n", "\n\n", ""]));
        }
    }
    text
}

fn non_ascii_message(rng: &mut Rng, seeds: &Seeds) -> Sample {
    let bytes = rng.between(40, 2_500);
    let text = foreign_text(rng, seeds, bytes);
    chat(rng, Kind::NonAscii, text)
}

fn edge_message(rng: &mut Rng, seeds: &Seeds) -> Sample {
    let bytes = rng.between(1, 1_500);
    let mut text = String::new();
    while text.len() < bytes {
        let seed = pick(rng, &seeds.edge).map_or("", String::as_str);
        // The long seeds (a table, a run of spaces) are cut to a random prefix at a character boundary.
        let cut = seed.char_indices().map(|(i, _)| i).nth(rng.between(1, 600)).unwrap_or(seed.len());
        text.push_str(&new_digits(rng, seed.get(..cut).unwrap_or(seed)));
        text.push_str(pick_str(rng, &["\n", " ", "", "\r\n", "\t"]));
    }
    if rng.between(0, 1) == 0 { chat(rng, Kind::Edge, text) } else { tool_result(rng, Kind::Edge, text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        let first = build(30_000).expect("the seed corpus parses");
        let second = build(30_000).expect("the seed corpus parses");
        assert!(first.iter().map(|s| s.text.len()).sum::<usize>() >= 30_000);
        assert_eq!(first.len(), second.len());
        for (a, b) in first.iter().zip(&second) {
            assert_eq!((&a.text, &a.message), (&b.text, &b.message));
        }
    }

    #[test]
    fn generated_json_lists_its_keys_in_sorted_order() {
        let seeds = Seeds::parse().expect("the seed corpus parses");
        let mut rng = Rng::new(7);
        for _ in 0..40 {
            for shape in 1..=5 {
                check_sorted(&tool_output(&mut rng, &seeds, shape));
            }
            let (_, arguments) = tool_arguments(&mut rng, &seeds);
            check_sorted(&serde_json::from_str(&arguments).expect("tool arguments are JSON"));
        }
    }

    /// With serde_json's `preserve_order` on (as in this crate's build), keys keep the order written.
    fn check_sorted(value: &Value) {
        match value {
            Value::Object(map) => {
                let keys: Vec<&String> = map.keys().collect();
                assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "{keys:?}");
                map.values().for_each(check_sorted);
            }
            Value::Array(items) => items.iter().for_each(check_sorted),
            _ => {}
        }
    }
}

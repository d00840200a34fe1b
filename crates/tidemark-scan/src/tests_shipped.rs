//! The shipped derivations (`derived.bin`) are what today's patterns give, a table survives its
//! byte form, and every pattern a scanner holds compiles.

use super::Scanner;
use super::gate::{self, Gate};
use super::lazy::{self, registry::Engine};
use super::narrow;
use super::shipped::{self, Kind, registry::Asked};

/// Derives every entry a scanner asks for again, and compares the file they make with the shipped
/// one; with `TIDEMARK_BLESS_SCAN_GATES` set, writes it instead (`cargo xtask scan-gates`).
#[test]
fn shipped_derivations_are_fresh() {
    assert!(!matches!(Scanner::new().scan("builds every part"), super::Verdict::Rejected(_)));
    let asked = shipped::registry::asked();
    let gates = asked.iter().filter(|asked| matches!(asked, Asked::Gate { .. })).count();
    assert_eq!(gates, 3, "the cue, injection and signal gates");
    let mut entries = Vec::new();
    for asked in &asked {
        match asked {
            Asked::Gate { sources, word_starts } => {
                let table = gate::derive_table(sources, word_starts).expect("every gate's patterns parse");
                let bytes: &'static [u8] = Vec::leak(table.to_bytes());
                assert_eq!(gate::Table::from_bytes(bytes).as_ref(), Some(&table), "a table round-trips");
                entries.push((Kind::Gate, gate::gate_key(sources, word_starts), bytes.to_vec()));
            }
            Asked::Split { source } => {
                let split = gate::split_ungated(source).expect("every signal family parses");
                entries.push((
                    Kind::Split,
                    shipped::fingerprint([source.as_bytes()]),
                    gate::split_to_bytes(&split),
                ));
            }
        }
    }
    // The guards of the patterns compiled on first use.
    for (engine, source) in lazy::registry::made() {
        if matches!(engine, Engine::Regex | Engine::Meta)
            && let Some(template) = narrow::derive(&source)
        {
            let bytes = narrow::Template::to_bytes(Some(&template));
            entries.push((Kind::Narrow, shipped::fingerprint([source.as_bytes()]), bytes));
        }
        let sources: Vec<&str> = match engine {
            Engine::Regex => vec![source.as_str()],
            Engine::Set => source.split(lazy::registry::SET_SEPARATOR).collect(),
            Engine::Meta => {
                if let Some(head) = gate::head_of(&source) {
                    entries.push((Kind::Head, shipped::fingerprint([source.as_bytes()]), head.into_bytes()));
                }
                continue;
            }
            // A probe is the twin of a `Meta` (or a head), which carries its derivations.
            Engine::Probe => continue,
        };
        let needs = gate::necessary(&sources);
        let key = shipped::fingerprint(sources.iter().map(|source| source.as_bytes()));
        entries.push((Kind::Needs, key, shipped::literals_to_bytes(needs.as_deref())));
    }
    let fresh = shipped::file(&entries);
    if std::env::var_os("TIDEMARK_BLESS_SCAN_GATES").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/derived.bin");
        std::fs::write(path, &fresh).expect("write src/derived.bin");
        return;
    }
    assert!(
        fresh == shipped::shipped(),
        "src/derived.bin is not what the scan's patterns give ({} entries); run `cargo xtask scan-gates`",
        entries.len()
    );
}

#[test]
fn a_malformed_table_is_refused() {
    let sources = [r"(?i)\bignore (?:all )?rules", r"\s*x+", "忽略指示"];
    let table = gate::derive_table(&sources.map(str::to_owned), &[true, false, false]).expect("parses");
    let bytes: &'static [u8] = Vec::leak(table.to_bytes());
    assert_eq!(gate::Table::from_bytes(bytes).as_ref(), Some(&table));
    for cut in 0..bytes.len() {
        assert_eq!(gate::Table::from_bytes(&bytes[..cut]), None, "cut at {cut}");
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert_eq!(gate::Table::from_bytes(Vec::leak(longer)), None, "trailing bytes");
}

/// A gate whose patterns have no shipped table is derived on the spot, and is the same gate.
#[test]
fn a_gate_without_a_shipped_table_is_derived() {
    let sources = [r"\bnot shipped anywhere\b", r"(?i)other words"];
    let cached = Gate::shipped_or_derived(&sources, &[]).expect("builds");
    let derived = Gate::new(&sources).expect("builds");
    for text in ["not shipped anywhere", "OTHER words", "nothing"] {
        assert_eq!(cached.live(text), derived.live(text), "{text}");
    }
}

#[test]
fn every_lazy_pattern_compiles() {
    let _ = Scanner::new();
    let made = lazy::registry::made();
    assert!(made.len() > 1_000, "only {} patterns were made", made.len());
    let failures: Vec<String> = made
        .iter()
        .filter_map(|(engine, source)| {
            let error = match engine {
                Engine::Regex => regex::Regex::new(source).err().map(|error| error.to_string()),
                Engine::Set => regex::RegexSet::new(source.split(lazy::registry::SET_SEPARATOR))
                    .err()
                    .map(|error| error.to_string()),
                Engine::Meta => regex_automata::meta::Regex::new(source).err().map(|error| error.to_string()),
                Engine::Probe => lazy::probe_nfa(source).err(),
            }?;
            Some(format!("{source}: {error}"))
        })
        .collect();
    assert!(failures.is_empty(), "patterns that do not compile:\n{}", failures.join("\n"));
    assert!(!lazy::broken());
}

/// The texts the soundness test reads: the attacks of the development corpus and their near
/// misses, the held-out attacks and one blind batch, each as written and as the matching view the cues read.
pub(super) fn corpus_views() -> Vec<String> {
    let files = [
        include_str!("../tests/data/scan/malicious.jsonl"),
        include_str!("../tests/data/scan/benign.jsonl"),
        include_str!("../tests/data/scan/dev-cues-malicious.jsonl"),
        include_str!("../tests/data/scan/dev-cues-benign.jsonl"),
        include_str!("../tests/data/scan/heldout/malicious.jsonl"),
        include_str!("../tests/data/scan/batch11/malicious.jsonl"),
    ];
    let texts = files.iter().flat_map(|file| file.lines()).filter_map(|line| {
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        value["text"].as_str().map(str::to_owned)
    });
    texts
        .flat_map(|text| {
            let view = super::normalize::view(&text);
            let folded = super::normalize::folded(&view);
            [text, view, folded]
        })
        .collect()
}

/// A shipped head or guard only ever turns away texts its pattern cannot match: wherever the
/// pattern matches, the head matches at the same place and the guard's literals occur.
#[test]
fn heads_and_guards_never_hide_a_match() {
    let _ = Scanner::new();
    let texts = corpus_views();
    assert!(texts.len() > 3_000, "{}", texts.len());
    let (mut heads, mut guards, mut matched) = (0, 0, 0);
    for (engine, source) in lazy::registry::made() {
        let key = shipped::fingerprint([source.as_bytes()]);
        match engine {
            Engine::Meta => {
                let Some(head) = shipped::lookup(Kind::Head, key).and_then(|b| std::str::from_utf8(b).ok())
                else {
                    continue;
                };
                heads += 1;
                let pattern = regex_automata::meta::Regex::new(&source).expect("compiles");
                let head = regex_automata::meta::Regex::new(head).expect("a head compiles");
                for text in &texts {
                    for found in pattern.find_iter(text.as_str()) {
                        matched += 1;
                        let input = regex_automata::Input::new(text.as_str())
                            .span(found.start()..text.len())
                            .anchored(regex_automata::Anchored::Yes);
                        assert!(head.is_match(input), "the head of {source:.80} hides a match in {text:.80}");
                    }
                }
            }
            Engine::Regex => {
                let Some(literals) = shipped::lookup(Kind::Needs, key).and_then(shipped::literals) else {
                    continue;
                };
                if literals.is_empty() {
                    continue;
                }
                guards += 1;
                let pattern = regex::Regex::new(&source).expect("compiles");
                let guard = aho_corasick::AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .build(&literals)
                    .expect("the guard builds");
                for text in &texts {
                    if pattern.is_match(text) {
                        matched += 1;
                        assert!(
                            guard.is_match(text),
                            "the guard of {source:.80} hides a match in {text:.80}"
                        );
                    }
                }
            }
            Engine::Set | Engine::Probe => {}
        }
    }
    assert!(heads >= 5 && guards >= 100, "{heads} heads and {guards} guards were checked");
    assert!(matched > 1_000, "only {matched} matches were checked");
    println!("{heads} heads and {guards} guards checked on {matched} matches");
}

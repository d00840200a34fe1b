//! A narrowed pattern finds, in the text it was narrowed for, exactly what the whole pattern finds.

use regex_automata::meta;

use super::Scanner;
use super::lazy::registry::{self, Engine};
use super::narrow::{self, Narrowing};

/// Every text of every corpus file, as written and as the two views the cues and signals read.
fn all_corpus_views() -> Vec<String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/scan");
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("the corpus folder reads").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut texts: Vec<String> = files
        .iter()
        .flat_map(|path| {
            std::fs::read_to_string(path)
                .expect("a corpus file reads")
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter_map(|line| {
            serde_json::from_str::<serde_json::Value>(&line).ok()?["text"].as_str().map(str::to_owned)
        })
        .flat_map(|text| {
            let view = super::normalize::view(&text);
            let folded = super::normalize::folded(&view);
            [text, view, folded]
        })
        .collect();
    texts.sort();
    texts.dedup();
    texts
}

/// The patterns a scanner holds that ship a narrowing, with the engine each is searched with.
fn narrowed_patterns() -> Vec<(Engine, String, Narrowing)> {
    let _ = Scanner::new();
    registry::made()
        .into_iter()
        .filter(|(engine, _)| matches!(engine, Engine::Regex | Engine::Meta))
        .filter_map(|(engine, source)| {
            Narrowing::shipped(&source).map(|narrowing| (engine, source, narrowing))
        })
        .collect()
}

/// Wherever a pattern with a narrowing matches a corpus text (a narrowed pattern can only match
/// where the whole one can), the pattern narrowed for that text finds the same matches, and for
/// the lazy `Regex` the same groups: the soundness of leaving out the alternatives whose literals
/// the text lacks.
#[test]
fn narrowing_never_changes_a_match() {
    let texts = all_corpus_views();
    assert!(texts.len() > 20_000, "only {} texts", texts.len());
    let patterns = narrowed_patterns();
    assert!(patterns.len() >= 50, "only {} patterns have a narrowing", patterns.len());
    let (mut compared, mut narrower) = (0_usize, 0_usize);
    for (engine, source, narrowing) in &patterns {
        let whole = meta::Regex::new(source).expect("a scanner's pattern compiles");
        let full = regex::Regex::new(source).expect("a scanner's pattern compiles");
        let mut compiled: Vec<(Vec<bool>, regex::Regex)> = Vec::new();
        for text in texts.iter().filter(|text| whole.is_match(text.as_str())) {
            let live = narrowing.live(text);
            if live.contains(&false) {
                narrower += 1;
            }
            let at = match compiled.iter().position(|(kept, _)| *kept == live) {
                Some(at) => at,
                None => {
                    let narrowed =
                        regex::Regex::new(&narrowing.assemble(&live)).expect("a narrowed pattern compiles");
                    compiled.push((live, narrowed));
                    compiled.len() - 1
                }
            };
            let narrowed = &compiled[at].1;
            compared += 1;
            match engine {
                Engine::Meta => {
                    let expected: Vec<(usize, usize)> =
                        whole.find_iter(text.as_str()).map(|m| (m.start(), m.end())).collect();
                    let found: Vec<(usize, usize)> =
                        narrowed.find_iter(text).map(|m| (m.start(), m.end())).collect();
                    assert_eq!(found, expected, "{source:.80} narrowed for {text:.80}");
                }
                _ => {
                    let groups = |regex: &regex::Regex| -> Vec<Vec<Option<(usize, usize)>>> {
                        regex
                            .captures_iter(text)
                            .map(|caps| {
                                caps.iter().map(|group| group.map(|m| (m.start(), m.end()))).collect()
                            })
                            .collect()
                    };
                    assert_eq!(groups(narrowed), groups(&full), "{source:.80} narrowed for {text:.80}");
                }
            }
        }
    }
    assert!(
        compared > 2_000 && narrower * 2 > compared,
        "{compared} matching texts compared, {narrower} narrowed"
    );
    println!("{} patterns, {compared} matching texts compared, {narrower} of them narrowed", patterns.len());
}

/// A shipped narrowing with every alternative live is its pattern again, to the byte.
#[test]
fn a_narrowing_with_every_alternative_gives_its_pattern_back() {
    let patterns = narrowed_patterns();
    assert!(!patterns.is_empty());
    for (_, source, narrowing) in &patterns {
        assert_eq!(&narrowing.assemble(&vec![true; narrowing.alternatives()]), source);
    }
}

/// A narrowing cut short or with bytes after it is refused, so the whole pattern answers.
#[test]
fn a_malformed_narrowing_is_refused() {
    let source = format!("(?:{})", (0..800).map(|n| format!("word{n}x")).collect::<Vec<_>>().join("|"));
    let template = narrow::derive(&source).expect("a large alternation is a hole");
    let bytes: &'static [u8] = Vec::leak(narrow::Template::to_bytes(Some(&template)));
    assert!(Narrowing::from_bytes(bytes, source.len()).is_some());
    for cut in 0..bytes.len() {
        assert!(Narrowing::from_bytes(&bytes[..cut], source.len()).is_none(), "cut at {cut}");
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert!(Narrowing::from_bytes(Vec::leak(longer), source.len()).is_none());
    assert!(Narrowing::from_bytes(Vec::leak(narrow::Template::to_bytes(None)), source.len()).is_none());
}

/// The literals of an alternative are taken with the flags in force where it stands: under `(?i)`
/// an upper-case Cyrillic word keeps its alternative live, and the narrowed pattern finds it.
#[test]
fn an_alternative_is_read_with_the_flags_in_force() {
    let words: Vec<String> = (0..400).map(|n| format!("слово{n}")).collect();
    let source = format!(r"(?i)\b(?:{})\b", words.join("|"));
    let template = narrow::derive(&source).expect("a large alternation is a hole");
    let narrowing =
        Narrowing::from_bytes(Vec::leak(narrow::Template::to_bytes(Some(&template))), source.len())
            .expect("reads");
    for text in ["пишу СЛОВО17 здесь", "и Слово299.", "нет ничего"] {
        let narrowed = narrowing.source(&narrowing.live(text)).expect("small");
        let whole = regex::Regex::new(&source).expect("compiles");
        let narrowed = regex::Regex::new(&narrowed).expect("compiles");
        assert_eq!(narrowed.find(text).map(|m| m.range()), whole.find(text).map(|m| m.range()), "{text}");
    }
    // "слово1" and "слово17" are live (the first is in the second), and no other.
    let live = narrowing.live("пишу СЛОВО17 здесь");
    assert_eq!(live.iter().filter(|live| **live).count(), 2);
    assert!(live[1] && live[17]);
}

/// An alternation is not cut when leaving an alternative out would change the rest of the
/// pattern: flags set inside an alternative outside a group of its own, or capture groups, whose
/// numbers would move.
#[test]
fn alternations_that_set_flags_or_capture_are_not_cut() {
    let words: Vec<String> = (0..800).map(|n| format!("word{n}x")).collect();
    let flags = format!("(?:(?i){}|tail)", words.join("|"));
    assert!(narrow::derive(&flags).is_none());
    let groups = format!("(?:{}|(tail))", words.join("|"));
    assert!(narrow::derive(&groups).is_none());
    let plain = format!("(?:{}|tail)", words.join("|"));
    assert!(narrow::derive(&plain).is_some());
    assert!(narrow::derive("(?:a|b)").is_none(), "a short pattern is compiled whole");
}

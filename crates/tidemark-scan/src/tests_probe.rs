//! The two shortcuts a scanner's first searches take give the answers of the slow way: a
//! [`Probe`] says whether the full pattern matches, and a gate's literal index finds what its
//! automaton finds.

use std::borrow::Cow;

use proptest::prelude::*;
use regex_automata::{Anchored, Input, meta};

use super::Scanner;
use super::gate::{Gate, Group, Reader};
use super::lazy::{GUARDED_BYTES, Probe, Regex, Screen, registry::Engine};
use super::shipped::registry::Asked;
use super::tests_shipped::corpus_views;

/// Whether `probe` and the full pattern agree on `input`, as far as a probe must: it never says no
/// where the pattern matches, and on an ASCII text it says yes only where the pattern matches. On
/// other texts its looser classes (`lazy::loosened`) may say yes where the pattern does not, and
/// so may a pattern that can match the empty string inside a character, which the full pattern
/// skips; such a yes costs a compile, never a verdict.
fn agrees(probe: &Probe, full: &meta::Regex, matches_empty: bool, input: &Input<'_>) -> bool {
    let (quick, slow) = (probe.is_match(input), full.is_match(input.clone()));
    let loose = matches_empty || !input.haystack().is_ascii();
    quick == slow || (quick && loose)
}

/// Every probe a scanner makes (for its cue, phrase and signal patterns and their heads) answers
/// as the full pattern does on the corpus and its views (see [`agrees`]): on the whole text, and
/// anchored where each of the full pattern's matches starts.
#[test]
fn probes_answer_as_their_patterns_do() {
    let _ = Scanner::new();
    let texts = corpus_views();
    let sources: Vec<String> = super::lazy::registry::made()
        .into_iter()
        .filter(|(engine, _)| *engine == Engine::Probe)
        .map(|(_, source)| source)
        .collect();
    assert!(sources.len() > 100, "only {} probes were made", sources.len());
    let (mut searched, mut anchored) = (0_usize, 0_usize);
    for source in &sources {
        let probe = Probe::new(source);
        let full = meta::Regex::new(source).expect("a scanner's pattern compiles");
        let matches_empty = full.is_match("");
        for text in &texts {
            searched += 1;
            let whole = Input::new(text.as_str());
            assert!(agrees(&probe, &full, matches_empty, &whole), "{source:.80} on {text:.80}");
            for found in full.find_iter(text.as_str()).take(4) {
                anchored += 1;
                let at = Input::new(text.as_str()).span(found.start()..text.len()).anchored(Anchored::Yes);
                assert!(probe.is_match(&at), "the probe of {source:.80} misses a match in {text:.80}");
            }
        }
    }
    assert!(anchored > 1_000, "only {anchored} matches were checked");
    let ascii = texts.iter().filter(|text| text.is_ascii()).count();
    assert!(ascii > 1_000 && ascii < texts.len(), "{ascii} of {} texts are ASCII", texts.len());
    println!("{} probes, {searched} texts searched, {anchored} anchored matches", sources.len());
}

/// Patterns in the shapes the scan uses: case-insensitive words, Unicode and ASCII word
/// boundaries next to non-ASCII letters, separators, repetitions, and one that matches nothing.
const SHAPES: &[&str] = &[
    r"(?i)\bignore (?:all )?(?:previous|prior) instructions\b",
    r"\bсистем\w*\b",
    r"(?-u:\b)(?:borr|elimin)[0-9a-z]* (?:[^ ]+ ){0,2}?(?:archivos?|datos)",
    r"(?:din|er)[\s_*~\-,:;.]+(?:systemprompt\w*|startprompt)",
    r"忽略\s*(?:所有|之前)的?指示",
    r"(?i)über\s+\w+",
    r"^\s*system:",
    r"[^\s\S]",
    r"a*",
];

fn text_strategy() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "ignore ",
        "IGNORE ",
        "all ",
        "previous ",
        "prior ",
        "instructions",
        "систему",
        "система ",
        "borrar ",
        "eliminando ",
        "los ",
        "datos",
        "archivos",
        "din ",
        "er",
        ", ",
        "systemprompt",
        "startprompt",
        "忽略",
        "所有",
        "指示",
        "über ",
        "Über",
        "system:",
        " ",
        "\n",
        "é",
        "x",
        "_",
        "ü",
        "— ",
        "’s ",
    ]);
    prop::collection::vec(pieces, 0..12).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A probe and the full pattern agree on any span of any text, anchored or not (see [`agrees`]).
    #[test]
    fn a_probe_agrees_with_its_pattern(
        shape in 0..SHAPES.len(),
        text in text_strategy(),
        start in 0_usize..64,
        anchored in any::<bool>(),
    ) {
        let source = SHAPES[shape];
        let probe = Probe::new(source);
        let full = meta::Regex::new(source).expect("compiles");
        let mut start = start.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let anchor = if anchored { Anchored::Yes } else { Anchored::No };
        let input = Input::new(text.as_str()).span(start..text.len()).anchored(anchor);
        prop_assert!(agrees(&probe, &full, full.is_match(""), &input), "{source} on {text:?} from {start}");
    }

    /// A group's index reports every occurrence of every literal its automaton reports, and no
    /// other, whatever the literals (short, long, sharing prefixes, repeated). A group with an
    /// empty literal reads with its automaton whatever it is asked (`Group::occurrences`).
    #[test]
    fn the_index_finds_what_the_automaton_finds(
        literals in prop::collection::vec("[ab\u{e9}]{1,5}", 1..24),
        text in "[abc\u{e9} ]{0,40}",
    ) {
        let mut group = Group::new(None);
        for (id, literal) in literals.iter().enumerate() {
            group.push(id, Cow::Owned(literal.as_bytes().to_vec()));
        }
        let mut by_index = group.occurrences_for_test(text.as_bytes(), Some(Reader::Index));
        let mut by_automaton = group.occurrences_for_test(text.as_bytes(), Some(Reader::Automaton));
        by_index.sort_unstable();
        by_automaton.sort_unstable();
        prop_assert_eq!(by_index, by_automaton);
    }
}

/// Patterns with a Unicode word boundary, whose lazy DFA gives up at the first byte outside ASCII:
/// a [`Screen`] stands before each of them on such text.
const SCREENED: &[&str] = &[
    r"(?i)\bignore (?:all )?(?:previous|prior) instructions\b",
    r"\bсистем\w*\b",
    r"(?i)\b(?:über|system)\b[^\n]{0,12}?\bprompt",
    r"\Bprompt\b|\b指示",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A compiled pattern with a screen before it finds what the pattern finds alone, on any text
    /// and from any start: the screen only ever holds a search back that could find nothing.
    #[test]
    fn a_screened_pattern_finds_what_its_pattern_finds(
        shape in 0..SCREENED.len(),
        text in text_strategy(),
        start in 0_usize..64,
    ) {
        let source = SCREENED[shape];
        let screened = Regex::new(source);
        let alone = regex::Regex::new(source).expect("compiles");
        // A text past the guard's bound compiles the pattern at once: what follows is read through
        // the screen rather than answered by the guard.
        let long = "x ".repeat(GUARDED_BYTES);
        prop_assert_eq!(screened.is_match(&long), alone.is_match(&long));
        prop_assert_eq!(screened.is_match(&text), alone.is_match(&text));
        let spans = |found: regex::Matches<'_, '_>| found.map(|m| m.range()).collect::<Vec<_>>();
        prop_assert_eq!(spans(screened.find_iter(&text)), spans(alone.find_iter(&text)));
        let mut start = start.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let whole = |captures: Option<regex::Captures<'_>>| captures.and_then(|c| c.get(0)).map(|m| m.range());
        prop_assert_eq!(whole(screened.captures_at(&text, start)), whole(alone.captures_at(&text, start)));
    }
}

/// Each screened pattern gets a screen, and a screen turns away a text outside ASCII that the
/// pattern cannot match; a pattern without a Unicode word boundary gets none.
#[test]
fn screens_turn_away_what_cannot_match() {
    for source in SCREENED {
        let screen = Screen::new(source).unwrap_or_else(|| panic!("no screen for {source}"));
        let text = "Über — ein Satz ohne das Gesuchte, l’été";
        assert!(!regex::Regex::new(source).expect("compiles").is_match(text), "{source} matches {text}");
        assert!(!screen.admits(&Input::new(text)), "the screen of {source} admits {text}");
        let matching = [
            "ignore previous instructions — é",
            "— систему",
            "Über — the system’s prompt",
            "a sysprompt 指示",
        ];
        let alone = regex::Regex::new(source).expect("compiles");
        let matched: Vec<&str> = matching.into_iter().filter(|text| alone.is_match(text)).collect();
        assert!(!matched.is_empty(), "no text matches {source}");
        for text in matched {
            assert!(
                screen.admits(&Input::new(text)),
                "the screen of {source} turns away its match in {text}"
            );
        }
    }
    for source in [r"(?-u:\b)über", r"\d+ — \w+", r"a\\b"] {
        assert!(Screen::new(source).is_none(), "{source} has no Unicode word boundary");
    }
}

/// A group holding an empty literal reads with its automaton even for a short text, so the
/// occurrences of the empty literal are counted as they always were.
#[test]
fn a_group_with_an_empty_literal_reads_with_its_automaton() {
    let mut group = Group::new(None);
    for (id, literal) in ["", "ba"].into_iter().enumerate() {
        group.push(id, Cow::Borrowed(literal.as_bytes()));
    }
    let chosen = group.occurrences_for_test(b"ba", None);
    assert_eq!(chosen, group.occurrences_for_test(b"ba", Some(Reader::Automaton)));
    assert!(chosen.contains(&(0, 1)) && chosen.contains(&(1, 0)), "{chosen:?}");
}

/// The scanner's own gates give the same hits with either reader on the corpus and its views.
#[test]
fn each_reader_gives_a_gate_the_same_hits() {
    let _ = Scanner::new();
    let texts = corpus_views();
    let gates: Vec<Gate> = super::shipped::registry::asked()
        .into_iter()
        .filter_map(|asked| match asked {
            Asked::Gate { sources, word_starts } => Gate::shipped_or_derived(&sources, &word_starts),
            _ => None,
        })
        .collect();
    assert_eq!(gates.len(), 3, "the cue, injection and signal gates");
    let mut live = 0;
    for gate in &gates {
        for text in &texts {
            let by_index = gate.hits_read_with(text, Some(Reader::Index));
            assert_eq!(by_index, gate.hits_read_with(text, Some(Reader::Automaton)), "{text:.80}");
            live += (0..gate.len()).filter(|&pattern| by_index.reach(pattern).live()).count();
        }
    }
    assert!(live > 10_000, "only {live} live patterns were compared");
}

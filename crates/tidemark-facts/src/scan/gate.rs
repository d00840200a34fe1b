//! One pass that tells which of many patterns can match a text at all.
//!
//! The cues, markers and injection phrases are a few hundred regular expressions. Searched one by
//! one, a short clean text paid a pass per pattern and view, and that was most of what a recall
//! load cost. A [`Gate`] asks the regex parser for the literals every match of each pattern must
//! start with, puts all of them in one Aho-Corasick automaton, and reads the text once: a pattern
//! none of whose literals occurs cannot match, so only the others are searched on their own, with
//! their negation and scope checks. Patterns whose matches have no such literals (a leading `\s*`,
//! a large class) are always searched. The verdicts are exactly those of the one-by-one search
//! (test `the_gate_never_hides_a_match`).
//!
//! The gate also keeps where each literal occurs. A match of a gated pattern starts with one of
//! its literals, so the leftmost match is found by an anchored search at each place the literals
//! occur, in order ([`Spot::find_from`]); a pattern whose literals occur at many places is searched
//! from the first of them the ordinary way. Each pattern thus reads only the few bytes after its
//! literals instead of the whole text; on a recorded session's messages the phrase, cue and signal
//! searches took a quarter to a third less time (`docs/benchmarks.md`).
//!
//! Why not a `RegexSet`: one set over a few hundred patterns of this size overflows the lazy DFA's
//! cache, and the regex crate then falls back to an engine that read tool output at well under
//! 1 MiB/s. The literal automaton is small and reads hundreds of MiB/s.

use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::{Anchored, Input, meta};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

/// Above this many places for one pattern, an unanchored search from the first is cheaper than an
/// anchored search at each.
const FEW: usize = 128;

/// Where a pattern can start matching in one text, as the gate saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// None of its literals occurs: it cannot match.
    Nowhere,
    /// Only at these byte offsets (ascending, distinct).
    At(Vec<usize>),
    /// Anywhere from this byte offset on (its literals occur at many places).
    From(usize),
    /// Anywhere: it has no literals.
    Anywhere,
}

impl Reach {
    /// Whether the pattern can match at all.
    pub(super) fn live(&self) -> bool {
        !matches!(self, Reach::Nowhere)
    }

    fn add(&mut self, at: usize) {
        *self = match std::mem::replace(self, Reach::Nowhere) {
            Reach::Nowhere => Reach::At(vec![at]),
            Reach::At(mut places) if places.len() < FEW => {
                places.push(at);
                Reach::At(places)
            }
            Reach::At(places) => Reach::From(places.into_iter().fold(at, usize::min)),
            Reach::From(from) => Reach::From(from.min(at)),
            Reach::Anywhere => Reach::Anywhere,
        };
    }
}

/// A compiled pattern that searches only where [`Reach`] says it can match.
pub(super) struct Spot {
    regex: meta::Regex,
    source: Box<str>,
}

/// One match of a [`Spot`]: byte offsets into the text searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Found<'t> {
    text: &'t str,
    start: usize,
    end: usize,
}

impl<'t> Found<'t> {
    pub(super) fn start(&self) -> usize {
        self.start
    }

    pub(super) fn end(&self) -> usize {
        self.end
    }

    pub(super) fn as_str(&self) -> &'t str {
        self.text.get(self.start..self.end).unwrap_or_default()
    }
}

impl Spot {
    /// Compiles `source` with the `regex` crate's defaults (Unicode, UTF-8 matches only).
    pub(super) fn new(source: &str) -> Option<Self> {
        Some(Self { regex: meta::Regex::new(source).ok()?, source: source.into() })
    }

    /// The pattern's source.
    pub(super) fn as_str(&self) -> &str {
        &self.source
    }

    /// The leftmost-first match that starts at byte `at` or later, where `reach` allows: the match
    /// `regex::Regex::find_at(text, at)` would return, for every `reach` the gate gives.
    pub(super) fn find_from<'t>(&self, text: &'t str, reach: &Reach, at: usize) -> Option<Found<'t>> {
        if at > text.len() {
            return None;
        }
        let found = match reach {
            Reach::Nowhere => None,
            Reach::Anywhere => self.regex.search(&Input::new(text).span(at..text.len())),
            Reach::From(from) => {
                self.regex.search(&Input::new(text).span(at.max(*from).min(text.len())..text.len()))
            }
            Reach::At(places) => {
                places.iter().filter(|&&place| place >= at && place <= text.len()).find_map(|&place| {
                    self.regex.search(&Input::new(text).span(place..text.len()).anchored(Anchored::Yes))
                })
            }
        }?;
        Some(Found { text, start: found.start(), end: found.end() })
    }
}

/// Where each pattern of a gate can match in one text.
#[derive(Debug)]
pub(super) struct Hits {
    reach: Vec<Reach>,
}

impl Hits {
    /// Every one of `len` patterns searched everywhere (the gate's tests compare with this).
    #[cfg(test)]
    pub(super) fn anywhere(len: usize) -> Self {
        Self { reach: vec![Reach::Anywhere; len] }
    }

    /// Where pattern `index` can match (nowhere for an index the gate does not know).
    pub(super) fn reach(&self, index: usize) -> &Reach {
        self.reach.get(index).unwrap_or(&Reach::Nowhere)
    }
}

/// Which of a list of patterns can match a text.
pub(super) struct Gate {
    /// Every required literal of every gated pattern.
    literals: AhoCorasick,
    /// For each literal, the patterns it stands for.
    owners: Vec<Vec<usize>>,
    /// Patterns searched whatever the text: no literal list could be made for them.
    always: Vec<usize>,
    len: usize,
}

impl Gate {
    /// Builds a gate over `sources`, or `None` if one fails to parse (they compile on their own,
    /// so that cannot happen; a unit test builds every gate).
    pub(super) fn new<S: AsRef<str>>(sources: &[S]) -> Option<Self> {
        let mut extractor = Extractor::new();
        extractor.kind(ExtractKind::Prefix);
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        for (index, source) in sources.iter().enumerate() {
            let hir = regex_syntax::Parser::new().parse(source.as_ref()).ok()?;
            let seq = extractor.extract(&hir);
            // `None` is an infinite list; an empty literal is a prefix of every text.
            match seq.literals() {
                Some(found) if found.iter().all(|literal| !literal.is_empty()) => {
                    for literal in found {
                        match literals.iter().position(|known| known.as_slice() == literal.as_bytes()) {
                            Some(at) => owners.get_mut(at)?.push(index),
                            None => {
                                literals.push(literal.as_bytes().to_vec());
                                owners.push(vec![index]);
                            }
                        }
                    }
                }
                _ => always.push(index),
            }
        }
        let literals = AhoCorasick::builder().match_kind(MatchKind::Standard).build(&literals).ok()?;
        Some(Self { literals, owners, always, len: sources.len() })
    }

    /// Where each pattern can match in `text`, by index into the list the gate was built from.
    pub(super) fn hits(&self, text: &str) -> Hits {
        let mut reach = vec![Reach::Nowhere; self.len];
        for &index in &self.always {
            if let Some(slot) = reach.get_mut(index) {
                *slot = Reach::Anywhere;
            }
        }
        for found in self.literals.find_overlapping_iter(text) {
            let owners = self.owners.get(found.pattern().as_usize()).map(Vec::as_slice).unwrap_or_default();
            for &index in owners {
                if let Some(slot) = reach.get_mut(index) {
                    slot.add(found.start());
                }
            }
        }
        for slot in &mut reach {
            if let Reach::At(places) = slot {
                places.sort_unstable();
                places.dedup();
            }
        }
        Hits { reach }
    }

    /// Which patterns can match somewhere in `text`, by index into the list the gate was built from.
    #[cfg(test)]
    pub(super) fn live(&self, text: &str) -> Vec<bool> {
        let mut live = vec![false; self.len];
        for &index in &self.always {
            if let Some(slot) = live.get_mut(index) {
                *slot = true;
            }
        }
        let mut seen = vec![false; self.owners.len()];
        for found in self.literals.find_overlapping_iter(text) {
            let literal = found.pattern().as_usize();
            match seen.get_mut(literal) {
                Some(done) if !*done => *done = true,
                _ => continue,
            }
            for &index in self.owners.get(literal).map(Vec::as_slice).unwrap_or_default() {
                if let Some(slot) = live.get_mut(index) {
                    *slot = true;
                }
            }
        }
        live
    }

    /// How many patterns are searched whatever the text (for tests).
    #[cfg(test)]
    pub(super) fn ungated(&self) -> usize {
        self.always.len()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Patterns with word boundaries, case folding, alternations, repeats and non-ASCII literals.
    const SOURCES: &[&str] = &[
        r"(?i)\bignore (?:all |the )*rules\b",
        r"\b(?:to|for) (?:the )?(?:agent|bot)s?\b",
        r"(?-u:\b)rm -rf\b",
        r"(?i)\bolvida[\s_]+(?:las|tus) instrucciones",
        r"忽略(?:之前|以前)的?指示",
        r"a[a-z]*e",
        r"\s*x+",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1_000))]

        /// `find_from` with the gate's reach finds what `regex::Regex::find_at` finds, from every place.
        #[test]
        fn a_spot_finds_what_the_regex_finds(
            words in prop::collection::vec(
                prop::sample::select(vec![
                    "ignore", "IGNORE", "all", "the", "rules", "rulesx", "to", "for", "agent", "bots", "rm",
                    "-rf", "olvida", "las", "instrucciones", "忽略", "之前", "的", "指示", "ape", "axe", "x",
                    "é", "_", "\n", " ", "xx",
                ]),
                0..30,
            ),
            glue in prop::collection::vec(prop::sample::select(vec![" ", "", "-", "\n", "é"]), 30),
        ) {
            let text: String = words.iter().zip(&glue).flat_map(|(word, glue)| [*word, *glue]).collect();
            let gate = Gate::new(SOURCES).expect("the gate builds");
            let hits = gate.hits(&text);
            for (index, source) in SOURCES.iter().enumerate() {
                let spot = Spot::new(source).expect("compiles");
                let regex = regex::Regex::new(source).expect("compiles");
                let boundaries = (0..=text.len()).filter(|&at| text.is_char_boundary(at));
                for at in boundaries {
                    let want = regex.find_at(&text, at).map(|m| (m.start(), m.end()));
                    let got = spot.find_from(&text, hits.reach(index), at).map(|m| (m.start(), m.end()));
                    prop_assert_eq!(got, want, "pattern {} from {} in {:?}", source, at, text);
                    let anywhere = spot.find_from(&text, &Reach::Anywhere, at).map(|m| (m.start(), m.end()));
                    prop_assert_eq!(anywhere, want);
                }
            }
        }
    }

    #[test]
    fn many_places_become_a_search_from_the_first() {
        let gate = Gate::new(&[r"\bab\b"]).expect("the gate builds");
        let text = "xab ab ".repeat(FEW + 2);
        let hits = gate.hits(&text);
        assert_eq!(hits.reach(0), &Reach::From(1));
        let spot = Spot::new(r"\bab\b").expect("compiles");
        assert_eq!(spot.find_from(&text, hits.reach(0), 0).map(|m| m.start()), Some(4));
        assert_eq!(gate.hits("xyz").reach(0), &Reach::Nowhere);
        assert_eq!(spot.find_from("ab", &Reach::Anywhere, 3), None, "a place past the end finds nothing");
    }

    #[test]
    fn live_patterns_are_the_ones_that_match() {
        let sources: Vec<String> = (0..60).map(|i| format!(r"z{i}z\b")).collect();
        let gate = Gate::new(&sources).expect("the gate builds");
        let live = gate.live("z3z and z47z, not z100z");
        let on: Vec<usize> = live.iter().enumerate().filter(|(_, on)| **on).map(|(i, _)| i).collect();
        assert_eq!(on, vec![3, 47]);
        assert!(gate.live("").iter().all(|on| !on));
        assert_eq!(gate.ungated(), 0);
        let open = Gate::new(&[r"\s*x", "a|", "b"]).expect("the gate builds");
        assert_eq!(open.live("zzz"), vec![true, true, false]);
    }
}

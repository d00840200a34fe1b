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
//! Why not a `RegexSet`: one set over a few hundred patterns of this size overflows the lazy DFA's
//! cache, and the regex crate then falls back to an engine that read tool output at well under
//! 1 MiB/s. The literal automaton is small and reads hundreds of MiB/s.

use aho_corasick::{AhoCorasick, MatchKind};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

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

    /// Which patterns can match somewhere in `text`, by index into the list the gate was built from.
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
    use super::*;

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

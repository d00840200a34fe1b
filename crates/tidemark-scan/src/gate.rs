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
//! Most places a literal occurs are still no match, so the gate looks a little closer, branch by
//! branch of each pattern's top-level alternation:
//!
//! - Literals are taken from the branch with its ASCII case dropped ([`lower_case`]) and read
//!   ASCII-case-insensitively, so that a case-insensitive phrase stays a whole phrase instead of
//!   the few letters its thousand spellings were cut to.
//! - A branch that must start at a word boundary or a word start ([`Start`]) is not let through
//!   at a place inside a word.
//! - A branch with a required piece further on ("… the agent" after "to") is live only if one of
//!   that piece's literals occurs ([`required`]); a short one ("ai") counts only where it starts
//!   a word, when the branch puts it there.
//!
//! On a recorded session's messages these took the anchored searches from 327 to 18 a message.
//!
//! Why not a `RegexSet`: one set over a few hundred patterns of this size overflows the lazy DFA's
//! cache, and the regex crate then falls back to an engine that read tool output at well under
//! 1 MiB/s. The literal automaton is small and reads hundreds of MiB/s.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, OnceLock};

use regex_automata::{Anchored, Input};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

use crate::lazy::{Meta, Probe};
use crate::narrow::Narrowed;

mod derived;
mod group;
mod table;

use crate::shipped::{self, Kind};
pub(super) use derived::split_cached;
#[cfg(test)]
pub(super) use derived::{head_of, necessary, needs_of, split_to_bytes};
pub(crate) use group::{Group, Reader};
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};
#[cfg(test)]
pub(super) use table::derive_table;
pub(super) use table::{Table, gate_key};

/// Classes with more characters than this are left as they are when literals are extracted.
const SMALL_CLASS: usize = 16;

/// Inner literals shorter than this are not worth looking for.
const MIN_INNER: usize = 3;

/// Inner literal lists longer than this are not kept.
const MAX_INNER: usize = 4096;

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

    /// Add the places of another branch of the same pattern.
    fn merge(&mut self, other: Reach) {
        match other {
            Reach::Nowhere => {}
            Reach::At(places) => places.into_iter().for_each(|at| self.add(at)),
            Reach::From(from) => {
                *self = match std::mem::replace(self, Reach::Nowhere) {
                    Reach::Nowhere => Reach::From(from),
                    Reach::At(places) => Reach::From(places.into_iter().fold(from, usize::min)),
                    Reach::From(earlier) => Reach::From(earlier.min(from)),
                    Reach::Anywhere => Reach::Anywhere,
                };
            }
            Reach::Anywhere => *self = Reach::Anywhere,
        }
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
///
/// Until a search has found a match, a [`Probe`] of the same source answers whether there is one
/// at all: it compiles in half the time, and a clean text needs no more. The full pattern, which
/// also tells where a match starts, is compiled when a probe first says yes, or when the probe
/// retires as the guards do (`lazy::GUARDED_SEARCHES`, `lazy::GUARDED_BYTES`).
pub(super) struct Spot {
    regex: Meta,
    probe: Probe,
    /// A small pattern that every match starts with a match of, for a large pattern (see
    /// [`head_of`]), shipped in `derived.bin`; looked up on first need.
    head: OnceLock<Option<Probe>>,
    /// Searches the head answered so far (see `lazy::GUARDED_SEARCHES`).
    searches: AtomicU32,
    /// Searches the probe answered so far: it retires as the guards do, so that a process that
    /// scans on and on searches with the full pattern, as fast as ever.
    probed: AtomicU32,
    /// The pattern narrowed to the alternatives a text can match, for a large pattern (see
    /// `narrow.rs`).
    narrowed: Narrowed<(Probe, Meta)>,
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
    /// `source`, to be compiled with the `regex` crate's defaults (Unicode, UTF-8 matches only) by
    /// the first search that needs it.
    pub(super) fn new(source: &str) -> Option<Self> {
        let source: Arc<str> = source.into();
        Some(Self {
            regex: Meta::shared(Arc::clone(&source)),
            probe: Probe::shared(source),
            head: OnceLock::new(),
            searches: AtomicU32::new(0),
            probed: AtomicU32::new(0),
            narrowed: Narrowed::new(),
        })
    }

    /// The pattern's source.
    pub(super) fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// The leftmost-first match that starts at byte `at` or later, where `reach` allows: the match
    /// `regex::Regex::find_at(text, at)` would return, for every `reach` the gate gives.
    pub(super) fn find_from<'t>(&self, text: &'t str, reach: &Reach, at: usize) -> Option<Found<'t>> {
        if at > text.len() {
            return None;
        }
        // Where a match may start: one unanchored search from the first place it can, or an
        // anchored search at each place in turn. Made afresh for each pass, without allocating:
        // this runs for every live pattern of every view.
        let from = |start: usize| Input::new(text).span(start.min(text.len())..text.len());
        let (first, places): (Option<Input<'t>>, &[usize]) = match reach {
            Reach::Nowhere => (None, &[]),
            Reach::Anywhere => (Some(from(at)), &[]),
            Reach::From(start) => (Some(from(at.max(*start))), &[]),
            Reach::At(places) => (None, places),
        };
        let inputs = || {
            first.clone().into_iter().chain(
                places
                    .iter()
                    .filter(move |&&place| place >= at && place <= text.len())
                    .map(move |&place| from(place).anchored(Anchored::Yes)),
            )
        };
        if !self.regex.is_compiled() {
            if !self.head_admits(text, inputs()) {
                return None;
            }
            // The pattern without the alternatives this text cannot match finds what it finds.
            let narrowed =
                self.narrowed.get(self.regex.as_str(), text, |source| Some(Meta::narrowed(source)));
            if let Some((probe, narrowed)) = narrowed {
                // As for the whole pattern: the narrowed probe first, the full search on a yes.
                if !inputs().any(|input| probe.is_match(&input)) {
                    return None;
                }
                let found = inputs().find_map(|input| narrowed.search(&input))?;
                return Some(Found { text, start: found.start(), end: found.end() });
            }
            if crate::lazy::guard_still_serves(&self.probed, text.len())
                && !inputs().any(|input| self.probe.is_match(&input))
            {
                return None;
            }
        }
        let found = inputs().find_map(|input| self.regex.search(&input))?;
        Some(Found { text, start: found.start(), end: found.end() })
    }

    /// Whether a match can start where `inputs` allow, as far as the head of a large pattern tells:
    /// a match of the pattern starts with a match of its head, so where the head matches nowhere,
    /// neither can the pattern. Compiling the head costs a small share of compiling the pattern,
    /// and most texts are turned away by it.
    fn head_admits<'t>(&self, text: &str, mut inputs: impl Iterator<Item = Input<'t>>) -> bool {
        if !crate::lazy::guard_still_serves(&self.searches, text.len()) {
            return true;
        }
        let Some(head) = self.head() else { return true };
        inputs.any(|input| head.is_match(&input))
    }

    fn head(&self) -> Option<&Probe> {
        self.head
            .get_or_init(|| {
                let key = shipped::fingerprint([self.regex.as_str().as_bytes()]);
                let head = shipped::lookup(Kind::Head, key).and_then(|bytes| std::str::from_utf8(bytes).ok());
                head.filter(|head| !head.is_empty()).map(Probe::new)
            })
            .as_ref()
    }
}

/// Where each pattern of a gate can match in one text.
#[derive(Debug, PartialEq, Eq)]
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
    /// Every required literal of every gated pattern, in groups by the first non-ASCII character
    /// they hold: a text is read only by the groups whose characters it has.
    groups: Vec<Group>,
    /// For each literal, the branches it stands for.
    owners: Owners,
    /// The branches of every pattern (a pattern that is not an alternation is one branch).
    branches: Vec<Branch>,
    len: usize,
}

/// One branch of a pattern's top-level alternation, gated on its own: a pattern can match where
/// one of its branches can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Branch {
    /// The pattern it belongs to.
    pattern: usize,
    /// What its matches need before their first character.
    start: Start,
    /// Whether it has no prefix literals: it can start anywhere.
    always: bool,
    /// How many lists of inner literals it has (at most [`MAX_NEEDS`]): a match holds one literal
    /// of each list, so the branch is live only when every list has one in the text.
    needs: u8,
}

/// The most inner literal lists a branch keeps: each comes from a different required piece.
const MAX_NEEDS: usize = 3;

impl Branch {
    /// Whether the inner literals seen, one bit per list, make the branch live.
    fn satisfied(&self, seen: u8) -> bool {
        let all = (1_u16 << self.needs) - 1;
        u16::from(seen) & all == all
    }
}

/// What a literal of the gate stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// A match of this branch can start where the literal occurs.
    Prefix(usize),
    /// A match of this branch holds one literal of each of its inner lists, this one among those
    /// of list `.1`; if the flag is set, only an occurrence after a byte that is not an ASCII word
    /// character counts.
    Inner(usize, u8, bool),
}

/// The branches each literal of a gate stands for, in one list: the owners of literal `i` are
/// `all[starts[i]..starts[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Owners {
    all: Vec<Owner>,
    starts: Vec<usize>,
}

impl Owners {
    /// The owners of each literal in turn.
    fn from_lists(lists: Vec<Vec<Owner>>) -> Self {
        let mut owners = Self { all: Vec::new(), starts: vec![0] };
        for list in lists {
            owners.all.extend(list);
            owners.starts.push(owners.all.len());
        }
        owners
    }

    /// The owners of literal `literal` (none for a literal it does not know).
    fn of(&self, literal: usize) -> &[Owner] {
        match (self.starts.get(literal), self.starts.get(literal + 1)) {
            (Some(&start), Some(&end)) => self.all.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// The literals every match of `hir` starts with, or `None` when the extractor cannot list them
/// (an infinite list, or an empty literal, which is a prefix of every text).
fn prefixes(extractor: &Extractor, hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let found = extractor.extract(hir);
    let literals = found.literals()?;
    literals.iter().map(|literal| (!literal.is_empty()).then(|| literal.as_bytes().to_vec())).collect()
}

/// `source` cut in two: the branches of its top-level alternation that have prefix literals, and
/// those that have none, each side as a pattern of its own (`None` for a side without branches),
/// or `None` if `source` does not parse.
///
/// A pattern with one branch the gate cannot hold (a code of letters and digits, a line start
/// followed by spaces) is searched everywhere whole; cut in two, the large side is searched only
/// where its literals are, and the small side everywhere.
pub(super) fn split_ungated(source: &str) -> Option<(Option<String>, Option<String>)> {
    let hir = regex_syntax::Parser::new().parse(source).ok()?;
    let mut extractor = Extractor::new();
    extractor.kind(ExtractKind::Prefix);
    let (gated, ungated): (Vec<&Hir>, Vec<&Hir>) =
        branches(&hir).into_iter().partition(|branch| prefixes(&extractor, &lower_case(branch)).is_some());
    let side = |side: Vec<&Hir>| {
        (!side.is_empty()).then(|| Hir::alternation(side.into_iter().cloned().collect()).to_string())
    };
    Some((side(gated), side(ungated)))
}

/// The branches of `hir`'s top-level alternation (through groups), or `hir` itself.
///
/// The parser factors a prefix that every branch shares out of an alternation (`\b(?:a|b)` for
/// `\ba|\bb`), which then counts as one branch. Handing the prefix back to each branch was tried:
/// the gate's own work and the scanner's start-up grew more than the searches it saved.
fn branches(hir: &Hir) -> Vec<&Hir> {
    match hir.kind() {
        HirKind::Capture(capture) => branches(&capture.sub),
        HirKind::Alternation(subs) => subs.iter().flat_map(branches).collect(),
        _ => vec![hir],
    }
}

/// What a pattern needs at the place a match starts, which the gate checks on the bytes around a
/// literal before it lets the place through.
///
/// Only ASCII word bytes are looked at: a place next to another character is let through, and the
/// pattern's own search decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// Anything.
    Any,
    /// A word boundary (`\b`): not between two word characters.
    Boundary,
    /// No word character just before (a word start, or a check made by hand after the search).
    AfterNonWord,
}

impl Start {
    /// What every match of `hir` needs where it starts.
    fn of(hir: &Hir) -> Self {
        match hir.kind() {
            HirKind::Look(Look::WordAscii | Look::WordUnicode) => Start::Boundary,
            HirKind::Look(
                Look::WordStartAscii
                | Look::WordStartUnicode
                | Look::WordStartHalfAscii
                | Look::WordStartHalfUnicode,
            ) => Start::AfterNonWord,
            HirKind::Capture(capture) => Start::of(&capture.sub),
            HirKind::Concat(subs) => subs.first().map_or(Start::Any, Start::of),
            HirKind::Alternation(subs) => {
                let mut starts = subs.iter().map(Start::of);
                let first = starts.next().unwrap_or(Start::Any);
                starts.fold(first, |all, one| match (all, one) {
                    (Start::AfterNonWord, Start::AfterNonWord) => Start::AfterNonWord,
                    (Start::Any, _) | (_, Start::Any) => Start::Any,
                    _ => Start::Boundary,
                })
            }
            _ => Start::Any,
        }
    }

    /// Whether a match can start at byte `at` of `text`, as far as the ASCII bytes around it tell.
    pub(crate) fn allows(self, text: &[u8], at: usize) -> bool {
        let word = |byte: Option<&u8>| byte.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        let before = at.checked_sub(1).and_then(|before| text.get(before));
        match self {
            Start::Any => true,
            Start::Boundary => !(word(before) && word(text.get(at))),
            Start::AfterNonWord => !word(before),
        }
    }
}

impl Gate {
    /// Builds a gate over `sources`, or `None` if one fails to parse (they compile on their own,
    /// so that cannot happen; a unit test builds every gate).
    #[cfg(test)]
    pub(super) fn new<S: AsRef<str>>(sources: &[S]) -> Option<Self> {
        Self::with_word_starts(sources, &[])
    }

    /// [`new`](Self::new) for patterns of which those marked in `word_starts` count only where no
    /// word character comes before the match (a check their callers make after each search).
    #[cfg(test)]
    pub(super) fn with_word_starts<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> Option<Self> {
        Table::derive(sources, word_starts)?.build()
    }

    /// [`with_word_starts`](Self::with_word_starts) from the table shipped for these patterns
    /// (`shipped.rs`) when there is one, which skips parsing them; the same gate either way.
    pub(super) fn cached<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> Option<Self> {
        #[cfg(test)]
        shipped::registry::record(shipped::registry::Asked::Gate {
            sources: sources.iter().map(|source| source.as_ref().to_owned()).collect(),
            word_starts: word_starts.to_vec(),
        });
        Self::shipped_or_derived(sources, word_starts)
    }

    /// [`cached`](Self::cached) without a test build's record of what was asked.
    pub(super) fn shipped_or_derived<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> Option<Self> {
        shipped::lookup(Kind::Gate, gate_key(sources, word_starts))
            .and_then(Table::from_bytes)
            .filter(|table| table.len == sources.len())
            .map_or_else(|| Table::derive(sources, word_starts), Some)?
            .build()
    }

    /// Where each pattern can match in `text`, by index into the list the gate was built from.
    pub(super) fn hits(&self, text: &str) -> Hits {
        self.hits_read_with(text, None)
    }

    /// [`hits`](Self::hits), with every group reading the text the way `force` says (for tests).
    pub(super) fn hits_read_with(&self, text: &str, force: Option<Reader>) -> Hits {
        let bytes = text.as_bytes();
        // Which branches had an inner literal, and where prefix literals let a branch start.
        let mut seen = vec![0_u8; self.branches.len()];
        // Each branch's places, kept as a pattern's are (a long text full of one literal gives one
        // `From`, not a list as long as the text).
        let mut places: HashMap<usize, Reach> = HashMap::new();
        let lowered = ascii_lowered(text);
        let mut leads = [false; 256];
        for &byte in bytes.iter().filter(|byte| !byte.is_ascii()) {
            leads[usize::from(byte)] = true;
        }
        let read = self.groups.iter().filter(|group| group.lead.is_none_or(|lead| leads[usize::from(lead)]));
        let found_literals = read.flat_map(|group| group.occurrences(lowered.as_bytes(), force));
        for (literal, at) in found_literals {
            let owners = self.owners.of(literal);
            for &owner in owners {
                match owner {
                    Owner::Prefix(part) => {
                        let start = self.branches.get(part).map_or(Start::Any, |branch| branch.start);
                        if start.allows(bytes, at) {
                            places.entry(part).or_insert(Reach::Nowhere).add(at);
                        }
                    }
                    Owner::Inner(part, list, word) => {
                        if (!word || Start::AfterNonWord.allows(bytes, at))
                            && let Some(seen) = seen.get_mut(part)
                        {
                            *seen |= 1_u8.checked_shl(u32::from(list)).unwrap_or(0);
                        }
                    }
                }
            }
        }
        // A branch with an inner list none of whose literals occurs cannot match anywhere.
        let open = |part: usize| {
            self.branches
                .get(part)
                .is_some_and(|branch| branch.satisfied(seen.get(part).copied().unwrap_or(0)))
        };
        let mut reach = vec![Reach::Nowhere; self.len];
        for (part, branch) in self.branches.iter().enumerate() {
            if branch.always
                && open(part)
                && let Some(slot) = reach.get_mut(branch.pattern)
            {
                *slot = Reach::Anywhere;
            }
        }
        for (part, places) in places {
            if open(part)
                && let Some(branch) = self.branches.get(part)
                && let Some(slot) = reach.get_mut(branch.pattern)
            {
                slot.merge(places);
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
        self.hits(text).reach.iter().map(Reach::live).collect()
    }

    /// How many patterns the gate was built from (for tests).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// How many patterns are searched whatever the text (for tests).
    #[cfg(test)]
    pub(super) fn ungated(&self) -> usize {
        let mut patterns: Vec<usize> = self
            .branches
            .iter()
            .filter(|branch| branch.always && branch.needs == 0)
            .map(|branch| branch.pattern)
            .collect();
        patterns.dedup();
        patterns.len()
    }
}

/// `text` with its ASCII letters in lower case, borrowed when it has no upper-case one; offsets
/// stay where they are, since ASCII case changes no byte's length.
pub(crate) fn ascii_lowered(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|byte| byte.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// `hir` with ASCII case dropped where it can be: literals in lower case, and an upper-case ASCII
/// letter taken out of a small class that holds its lower case too.
///
/// Case-insensitive patterns (`(?i)`) become classes such as `[Ii]` at every letter, and the
/// literals of a pattern are the product of its classes: a phrase of ten letters has a thousand
/// spellings, so the extractor cuts them down to a few letters, which occur everywhere. Without
/// the case the literals stay whole, and the gate reads them with ASCII case ignored: every text
/// whose start a literal of `hir` fits is still fitted, up to ASCII case, by one of these
/// (non-ASCII case partners such as the Kelvin sign are kept as they are).
fn lower_case(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Literal(literal) => Hir::literal(literal.0.to_ascii_lowercase()),
        HirKind::Class(Class::Unicode(class)) => Hir::class(Class::Unicode(lower_class(class))),
        HirKind::Repetition(repetition) => {
            Hir::repetition(Repetition { sub: Box::new(lower_case(&repetition.sub)), ..repetition.clone() })
        }
        HirKind::Capture(capture) => {
            Hir::capture(Capture { sub: Box::new(lower_case(&capture.sub)), ..capture.clone() })
        }
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(lower_case).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(lower_case).collect()),
        HirKind::Empty | HirKind::Look(_) | HirKind::Class(Class::Bytes(_)) => hir.clone(),
    }
}

/// One inner literal: its bytes, and whether every occurrence that a match holds follows a byte
/// that is not an ASCII word character (the literal starts a word in the match).
type InnerLiteral = (Vec<u8>, bool);

/// How much an inner literal list says: the length of its shortest literal, two more for one that
/// must start a word ("ai" alone is inside many words; as a word it is rare).
fn worth(list: &[InnerLiteral]) -> usize {
    list.iter().map(|(bytes, word)| bytes.len() + if *word { 2 } else { 0 }).min().unwrap_or(0)
}

/// Literals of which every match of `hir` holds one (not necessarily at its start), or `None` if
/// no such list is found: the prefix literals of one required piece of it, the piece whose list
/// is [`worth`] most.
///
/// A pattern that starts with a common word ("to", "a", a line break) and names something rarer
/// later ("… the agent") is then searched only in texts that hold the rarer part.
fn required(hir: &Hir, extractor: &Extractor) -> Option<Vec<InnerLiteral>> {
    let piece = |hir: &Hir, word: bool| -> Option<Vec<InnerLiteral>> {
        let literals = prefixes(extractor, hir).filter(|literals| !literals.is_empty())?;
        Some(literals.into_iter().map(|literal| (literal, word)).collect())
    };
    let found = match hir.kind() {
        HirKind::Concat(subs) => {
            let lists = subs.iter().enumerate().flat_map(|(at, sub)| {
                let word = subs.get(..at).is_some_and(|before| ends(before) == Ends::NonWord);
                [piece(sub, word), required(sub, extractor)]
            });
            lists
                .flatten()
                .filter(|list| list.len() <= MAX_INNER)
                .max_by_key(|list| (worth(list), std::cmp::Reverse(list.len())))
        }
        HirKind::Capture(capture) => required(&capture.sub, extractor),
        HirKind::Repetition(repetition) if repetition.min > 0 => required(&repetition.sub, extractor),
        HirKind::Alternation(subs) => {
            let lists = subs.iter().map(|sub| required(sub, extractor).or_else(|| piece(sub, false)));
            lists.collect::<Option<Vec<_>>>().map(|lists| lists.concat())
        }
        HirKind::Literal(literal) => Some(vec![(literal.0.to_vec(), false)]),
        _ => None,
    }?;
    // Too short to say much, or too many to be worth the automaton's room.
    (worth(&found) >= MIN_INNER && found.len() <= MAX_INNER).then_some(found)
}

/// Lists of inner literals from different required pieces of `hir`'s concatenation (after its
/// first piece if `after_first`), the [`worth`]iest first, at most [`MAX_NEEDS`]: a match holds one
/// literal of every list, so a text must too. A branch whose prefix literals the gate already asks
/// for is narrowed by later pieces ("system" in a Polish cue is not enough, the cue's verb and
/// object must be there as well); a branch without them by any. Empty when no piece has a list
/// worth keeping.
fn required_lists(hir: &Hir, extractor: &Extractor, after_first: bool) -> Vec<Vec<InnerLiteral>> {
    let subs = match hir.kind() {
        HirKind::Capture(capture) => return required_lists(&capture.sub, extractor, after_first),
        HirKind::Concat(subs) if subs.len() > 1 => subs,
        _ => return Vec::new(),
    };
    let piece = |hir: &Hir, word: bool| -> Option<Vec<InnerLiteral>> {
        let literals = prefixes(extractor, hir).filter(|literals| !literals.is_empty())?;
        Some(literals.into_iter().map(|literal| (literal, word)).collect())
    };
    let skip = usize::from(after_first);
    let mut lists: Vec<Vec<InnerLiteral>> = subs
        .iter()
        .enumerate()
        .skip(skip)
        .filter_map(|(at, sub)| {
            let word = subs.get(..at).is_some_and(|before| ends(before) == Ends::NonWord);
            [piece(sub, word), required(sub, extractor)]
                .into_iter()
                .flatten()
                .filter(|list| list.len() <= MAX_INNER && worth(list) >= MIN_INNER)
                .max_by_key(|list| (worth(list), std::cmp::Reverse(list.len())))
        })
        .collect();
    lists.sort_by_key(|list| (std::cmp::Reverse(worth(list)), list.len()));
    lists.dedup();
    lists.truncate(MAX_NEEDS);
    lists
}

/// How the matches of a sequence of pieces end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    /// Always with a byte that is not an ASCII word character.
    NonWord,
    /// Possibly with an ASCII word character.
    Word,
    /// Possibly with nothing at all (else with a non-word byte): what comes before decides.
    Empty,
}

/// How the matches of the concatenation of `pieces` end.
fn ends(pieces: &[Hir]) -> Ends {
    for piece in pieces.iter().rev() {
        match ends_one(piece) {
            Ends::Empty => continue,
            other => return other,
        }
    }
    Ends::Empty
}

fn ends_one(hir: &Hir) -> Ends {
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    match hir.kind() {
        // At the start of the text or of a line, or of a word: no word character comes before.
        HirKind::Look(
            Look::Start
            | Look::StartLF
            | Look::StartCRLF
            | Look::WordStartAscii
            | Look::WordStartUnicode
            | Look::WordStartHalfAscii
            | Look::WordStartHalfUnicode,
        ) => Ends::NonWord,
        HirKind::Empty | HirKind::Look(_) => Ends::Empty,
        HirKind::Literal(literal) => match literal.0.last() {
            None => Ends::Empty,
            Some(&last) if word_byte(last) => Ends::Word,
            Some(_) => Ends::NonWord,
        },
        HirKind::Class(Class::Unicode(class)) => {
            let ascii_word = class.ranges().iter().any(|range| {
                (range.start()..=range.end().min('\u{7f}')).any(|c| u8::try_from(c).is_ok_and(word_byte))
            });
            if ascii_word { Ends::Word } else { Ends::NonWord }
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ascii_word = class.ranges().iter().any(|range| (range.start()..=range.end()).any(word_byte));
            if ascii_word { Ends::Word } else { Ends::NonWord }
        }
        HirKind::Capture(capture) => ends_one(&capture.sub),
        HirKind::Repetition(repetition) => match ends_one(&repetition.sub) {
            Ends::Word => Ends::Word,
            _ if repetition.min == 0 => Ends::Empty,
            other => other,
        },
        HirKind::Concat(subs) => ends(subs),
        HirKind::Alternation(subs) => {
            subs.iter().map(ends_one).fold(Ends::NonWord, |all, one| match (all, one) {
                (Ends::Word, _) | (_, Ends::Word) => Ends::Word,
                (Ends::Empty, _) | (_, Ends::Empty) => Ends::Empty,
                _ => Ends::NonWord,
            })
        }
    }
}

/// A small class without the upper-case ASCII letters whose lower case it holds; other classes as they are.
fn lower_class(class: &ClassUnicode) -> ClassUnicode {
    let size: u32 =
        class.ranges().iter().map(|range| u32::from(range.end()) - u32::from(range.start()) + 1).sum();
    if size as usize > SMALL_CLASS {
        return class.clone();
    }
    let chars: Vec<char> = class.ranges().iter().flat_map(|range| range.start()..=range.end()).collect();
    let kept = chars
        .iter()
        .copied()
        .filter(|c| !(c.is_ascii_uppercase() && chars.contains(&c.to_ascii_lowercase())));
    ClassUnicode::new(kept.map(|c| ClassUnicodeRange::new(c, c)))
}

#[cfg(test)]
mod tests;

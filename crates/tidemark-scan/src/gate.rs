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
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::{Anchored, Input};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

use crate::lazy::Meta;
#[cfg(test)]
use crate::shipped::Writer;
use crate::shipped::{self, Kind, Reader};
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};

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
pub(super) struct Spot {
    regex: Meta,
    /// A small pattern that every match starts with a match of, for a large pattern (see
    /// [`head_of`]), shipped in `derived.bin`; looked up on first need.
    head: OnceLock<Option<Meta>>,
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
        Some(Self { regex: Meta::new(source), head: OnceLock::new() })
    }

    /// The pattern's source.
    pub(super) fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// The leftmost-first match that starts at byte `at` or later, where `reach` allows: the match
    /// `regex::Regex::find_at(text, at)` would return, for every `reach` the gate gives.
    pub(super) fn find_from<'t>(&self, text: &'t str, reach: &Reach, at: usize) -> Option<Found<'t>> {
        if at > text.len() || !self.may_match(text, reach, at) {
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

    /// Whether a match can start where `reach` allows from byte `at`, as far as the head of a large
    /// pattern tells before the pattern is compiled: a match of the pattern starts with a match of
    /// its head, so where the head matches nowhere, neither can the pattern. Compiling the head
    /// costs a small share of compiling the pattern, and most texts are turned away by it.
    fn may_match(&self, text: &str, reach: &Reach, at: usize) -> bool {
        if self.regex.is_compiled() {
            return true;
        }
        let Some(head) = self.head() else { return true };
        let from = |start: usize| Input::new(text).span(start.min(text.len())..text.len());
        match reach {
            Reach::Nowhere => false,
            Reach::Anywhere => head.is_match(from(at)),
            Reach::From(start) => head.is_match(from(at.max(*start))),
            Reach::At(places) => places
                .iter()
                .filter(|&&place| place >= at && place <= text.len())
                .any(|&place| head.is_match(from(place).anchored(Anchored::Yes))),
        }
    }

    fn head(&self) -> Option<&Meta> {
        self.head
            .get_or_init(|| {
                let key = shipped::fingerprint([self.regex.as_str().as_bytes()]);
                let head = shipped::lookup(Kind::Head, key).and_then(|bytes| std::str::from_utf8(bytes).ok());
                head.filter(|head| !head.is_empty()).map(Meta::new)
            })
            .as_ref()
    }
}

/// Patterns shorter than this have no head: compiling them is cheap enough.
#[cfg(test)]
const HEAD_MIN: usize = 4 * 1024;

/// A head is at most this long.
#[cfg(test)]
const HEAD_MAX: usize = 32 * 1024;

/// The head of one branch is at most this long.
#[cfg(test)]
const BRANCH_HEAD_MAX: usize = 24 * 1024;

/// The head of a large pattern: a small pattern every match of it starts with a match of, which
/// says where the pattern cannot match before the pattern is compiled (`Spot::may_match`).
///
/// Each branch of the pattern's top-level alternation gives the longest run of the first pieces
/// of its concatenation (or the whole branch) that is at most [`BRANCH_HEAD_MAX`] long and needs
/// a literal of at least three bytes (a head that matches at every line start turns nothing
/// away); the head is the alternation of these. `None` for a pattern shorter than [`HEAD_MIN`], a
/// branch without such a run, or a head longer than [`HEAD_MAX`] or half the pattern.
#[cfg(test)]
pub(super) fn head_of(source: &str) -> Option<String> {
    if source.len() < HEAD_MIN {
        return None;
    }
    let hir = regex_syntax::Parser::new().parse(source).ok()?;
    let mut extractor = Extractor::new();
    extractor.kind(ExtractKind::Prefix);
    let heads = branches(&hir)
        .into_iter()
        .map(|branch| branch_head(branch, &extractor))
        .collect::<Option<Vec<_>>>()?;
    let head = if heads.len() == 1 { heads.concat() } else { format!("(?:{})", heads.join("|")) };
    (head.len() <= HEAD_MAX && head.len() <= source.len() / 2).then_some(head)
}

/// The head of one branch (see [`head_of`]).
#[cfg(test)]
fn branch_head(branch: &Hir, extractor: &Extractor) -> Option<String> {
    let selective = |hir: &Hir| {
        let lowered = lower_case(hir);
        let needs = prefixes(extractor, &lowered)
            .map(|list| list.into_iter().map(|literal| (literal, false)).collect())
            .or_else(|| required(&lowered, extractor));
        needs.is_some_and(|list| worth(&list) >= MIN_INNER)
    };
    let pieces: Vec<Hir> = match branch.kind() {
        HirKind::Concat(subs) => subs.clone(),
        _ => vec![branch.clone()],
    };
    let mut best = None;
    for end in 1..=pieces.len() {
        let head = Hir::concat(pieces.get(..end)?.to_vec());
        let text = head.to_string();
        if text.len() > BRANCH_HEAD_MAX {
            break;
        }
        if selective(&head) {
            best = Some(text);
        }
    }
    best
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
    /// Every required literal of every gated pattern, in groups by the first non-ASCII character
    /// they hold: a text is read only by the groups whose characters it has.
    groups: Vec<Group>,
    /// For each literal, the branches it stands for.
    owners: Owners,
    /// The branches of every pattern (a pattern that is not an alternation is one branch).
    branches: Vec<Branch>,
    len: usize,
}

/// The literals of a gate that share the lead byte of their first non-ASCII character (or that are
/// all ASCII), with their automaton, built the first time a text has that byte.
///
/// A literal can occur in a text only if each of its bytes does, so a text without the lead byte
/// needs none of the group's literals. Most texts are in one script, and most of the literals are
/// in others: a gate over every language's cues is built for a few of them, not for all, which
/// is most of what starting a scanner cost.
struct Group {
    /// The lead byte, or `None` for the all-ASCII literals, which every text is read for.
    lead: Option<u8>,
    /// The index of each literal in the gate's list.
    ids: Vec<usize>,
    /// The literals (lower case), until the automaton is built.
    literals: Vec<Cow<'static, [u8]>>,
    automaton: OnceLock<Option<AhoCorasick>>,
}

impl Group {
    fn push(&mut self, id: usize, literal: Cow<'static, [u8]>) {
        self.ids.push(id);
        self.literals.push(literal);
    }

    /// The automaton over the group's literals, read case-sensitively over a text whose ASCII is
    /// in lower case (the literals are), which finds what an ASCII-case-insensitive search finds
    /// and builds in half the time. `None` if it cannot be built, which marks the scanner broken.
    fn automaton(&self) -> Option<&AhoCorasick> {
        self.automaton
            .get_or_init(|| {
                let built = AhoCorasick::builder().match_kind(MatchKind::Standard).build(&self.literals).ok();
                if built.is_none() {
                    crate::lazy::mark_broken();
                }
                built
            })
            .as_ref()
    }
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
    /// Whether it has inner literals, one of which must occur for it to match.
    inner: bool,
}

/// What a literal of the gate stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// A match of this branch can start where the literal occurs.
    Prefix(usize),
    /// A match of this branch holds one of its inner literals, this one among them; if the flag
    /// is set, only an occurrence after a byte that is not an ASCII word character counts.
    Inner(usize, bool),
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

/// Literals of which every match of any of `sources` holds one, in lower case (to be read with
/// ASCII case ignored), or `None` if some pattern has no such list or the list would be too long
/// to be worth an automaton.
///
/// A branch needs one of its prefix literals, or else one of the inner literals of [`required`];
/// a pattern needs one of its branches' lists.
#[cfg(test)]
pub(super) fn necessary<S: AsRef<str>>(sources: &[S]) -> Option<Vec<Vec<u8>>> {
    let mut extractor = Extractor::new();
    extractor.kind(ExtractKind::Prefix);
    let mut all: Vec<Vec<u8>> = Vec::new();
    for source in sources {
        let hir = lower_case(&regex_syntax::Parser::new().parse(source.as_ref()).ok()?);
        for branch in branches(&hir) {
            let list = prefixes(&extractor, branch).filter(|list| !list.is_empty()).or_else(|| {
                required(branch, &extractor)
                    .map(|list| list.into_iter().map(|(literal, _)| literal).collect())
            })?;
            all.extend(list.into_iter().map(|literal| literal.to_ascii_lowercase()));
        }
    }
    all.sort();
    all.dedup();
    (!all.is_empty() && all.len() <= MAX_INNER).then_some(all)
}

/// [`split_ungated`] from the split shipped for `source` (`shipped.rs`) when there is one.
pub(super) fn split_cached(source: &str) -> Option<(Option<String>, Option<String>)> {
    #[cfg(test)]
    shipped::registry::record(shipped::registry::Asked::Split { source: source.to_owned() });
    let key = shipped::fingerprint([source.as_bytes()]);
    shipped::lookup(Kind::Split, key).and_then(split_from_bytes).map_or_else(|| split_ungated(source), Some)
}

/// A split in the form `shipped.rs` keeps: a flag byte saying which sides there are, then each.
#[cfg(test)]
pub(super) fn split_to_bytes(split: &(Option<String>, Option<String>)) -> Vec<u8> {
    let mut out = Writer::default();
    out.byte(u8::from(split.0.is_some()) | u8::from(split.1.is_some()) << 1);
    for side in [&split.0, &split.1].into_iter().flatten() {
        out.bytes(side.as_bytes());
    }
    out.into_bytes()
}

fn split_from_bytes(bytes: &[u8]) -> Option<(Option<String>, Option<String>)> {
    let mut reader = Reader::new(bytes);
    let flags = reader.byte()?;
    let mut side = |present: bool| -> Option<Option<String>> {
        if present { reader.string().map(|text| Some(text.to_owned())) } else { Some(None) }
    };
    let split = (side(flags & 1 != 0)?, side(flags & 2 != 0)?);
    (flags <= 3 && reader.done()).then_some(split)
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
    fn allows(self, text: &[u8], at: usize) -> bool {
        let word = |byte: Option<&u8>| byte.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        let before = at.checked_sub(1).and_then(|before| text.get(before));
        match self {
            Start::Any => true,
            Start::Boundary => !(word(before) && word(text.get(at))),
            Start::AfterNonWord => !word(before),
        }
    }
}

/// What a gate knows of its patterns before the automaton is built: everything that comes from
/// parsing them, and all that `shipped.rs` keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Table {
    literals: Vec<Cow<'static, [u8]>>,
    owners: Owners,
    branches: Vec<Branch>,
    len: usize,
}

impl Table {
    /// Parses every pattern and lists the literals each branch needs (see the module docs), or
    /// `None` if one fails to parse.
    fn derive<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> Option<Self> {
        let mut extractor = Extractor::new();
        extractor.kind(ExtractKind::Prefix);
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut owners: Vec<Vec<Owner>> = Vec::new();
        let mut known: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut add = |literal: &[u8], owner: Owner| -> Option<()> {
            let literal = literal.to_ascii_lowercase();
            match known.get(&literal) {
                // Two spellings of one literal that differ only in case are one now.
                Some(&at) => {
                    let owned = owners.get_mut(at)?;
                    if !owned.contains(&owner) {
                        owned.push(owner);
                    }
                }
                None => {
                    known.insert(literal.clone(), literals.len());
                    literals.push(literal);
                    owners.push(vec![owner]);
                }
            }
            Some(())
        };
        let mut parts: Vec<Branch> = Vec::new();
        for (index, source) in sources.iter().enumerate() {
            let hir = lower_case(&regex_syntax::Parser::new().parse(source.as_ref()).ok()?);
            for branch in branches(&hir) {
                let part = parts.len();
                let start = match Start::of(branch) {
                    Start::Any if word_starts.get(index) == Some(&true) => Start::AfterNonWord,
                    start => start,
                };
                let always = match prefixes(&extractor, branch) {
                    Some(found) => {
                        for literal in &found {
                            add(literal, Owner::Prefix(part))?;
                        }
                        false
                    }
                    None => true,
                };
                let required = required(branch, &extractor);
                for (literal, word) in required.iter().flatten() {
                    add(literal, Owner::Inner(part, *word))?;
                }
                parts.push(Branch { pattern: index, start, always, inner: required.is_some() });
            }
        }
        Some(Self {
            literals: literals.into_iter().map(Cow::Owned).collect(),
            owners: Owners::from_lists(owners),
            branches: parts,
            len: sources.len(),
        })
    }

    /// The gate: the literals in one automaton, read with ASCII case ignored.
    fn build(self) -> Option<Gate> {
        let mut groups: Vec<Group> = Vec::new();
        for (index, literal) in self.literals.into_iter().enumerate() {
            let lead = literal.iter().copied().find(|byte| !byte.is_ascii());
            match groups.iter_mut().find(|group| group.lead == lead) {
                Some(group) => group.push(index, literal),
                None => {
                    let mut group =
                        Group { lead, ids: Vec::new(), literals: Vec::new(), automaton: OnceLock::new() };
                    group.push(index, literal);
                    groups.push(group);
                }
            }
        }
        Some(Gate { groups, owners: self.owners, branches: self.branches, len: self.len })
    }

    /// The table in the form `shipped.rs` keeps.
    #[cfg(test)]
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Writer::default();
        out.u32(self.len);
        out.u32(self.literals.len());
        for (index, literal) in self.literals.iter().enumerate() {
            let owners = self.owners.of(index);
            out.bytes(literal);
            out.u32(owners.len());
            for owner in owners {
                let (tag, part) = match *owner {
                    Owner::Prefix(part) => (0, part),
                    Owner::Inner(part, false) => (1, part),
                    Owner::Inner(part, true) => (2, part),
                };
                out.byte(tag);
                out.u32(part);
            }
        }
        out.u32(self.branches.len());
        for branch in &self.branches {
            out.u32(branch.pattern);
            out.byte(match branch.start {
                Start::Any => 0,
                Start::Boundary => 1,
                Start::AfterNonWord => 2,
            });
            out.byte(u8::from(branch.always) | u8::from(branch.inner) << 1);
        }
        out.into_bytes()
    }

    /// Reads [`to_bytes`](Self::to_bytes); `None` for anything malformed or out of range.
    pub(super) fn from_bytes(bytes: &'static [u8]) -> Option<Self> {
        let mut reader = Reader::new(bytes);
        let len = reader.u32()?;
        let count = reader.u32()?;
        let mut literals = Vec::with_capacity(count.min(bytes.len()));
        let mut owners = Owners { all: Vec::with_capacity(count.min(bytes.len())), starts: vec![0] };
        for _ in 0..count {
            literals.push(Cow::Borrowed(reader.bytes()?));
            for _ in 0..reader.u32()? {
                let tag = reader.byte()?;
                let part = reader.u32()?;
                owners.all.push(match tag {
                    0 => Owner::Prefix(part),
                    1 => Owner::Inner(part, false),
                    2 => Owner::Inner(part, true),
                    _ => return None,
                });
            }
            owners.starts.push(owners.all.len());
        }
        let count = reader.u32()?;
        let mut branches = Vec::with_capacity(count.min(bytes.len()));
        for _ in 0..count {
            let pattern = reader.u32()?;
            let start = match reader.byte()? {
                0 => Start::Any,
                1 => Start::Boundary,
                2 => Start::AfterNonWord,
                _ => return None,
            };
            let flags = reader.byte()?;
            if pattern >= len || flags > 3 {
                return None;
            }
            branches.push(Branch { pattern, start, always: flags & 1 != 0, inner: flags & 2 != 0 });
        }
        let parts = branches.len();
        let in_range = owners.all.iter().all(|owner| match *owner {
            Owner::Prefix(part) | Owner::Inner(part, _) => part < parts,
        });
        (reader.done() && in_range).then_some(Self { literals, owners, branches, len })
    }
}

/// The fingerprint a gate's table is shipped under: its sources and which of them start words.
pub(super) fn gate_key<S: AsRef<str>>(sources: &[S], word_starts: &[bool]) -> u64 {
    let flags: Vec<u8> = word_starts.iter().map(|&start| u8::from(start)).collect();
    shipped::fingerprint(sources.iter().map(|source| source.as_ref().as_bytes()).chain([flags.as_slice()]))
}

/// The table of a gate over `sources`, derived the slow way (for the test that checks the file).
#[cfg(test)]
pub(super) fn derive_table(sources: &[String], word_starts: &[bool]) -> Option<Table> {
    Table::derive(sources, word_starts)
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
        let bytes = text.as_bytes();
        // Which branches had an inner literal, and where prefix literals let a branch start.
        let mut seen = vec![false; self.branches.len()];
        // Each branch's places, kept as a pattern's are (a long text full of one literal gives one
        // `From`, not a list as long as the text).
        let mut places: HashMap<usize, Reach> = HashMap::new();
        // Offsets stay where they are: ASCII case changes no byte's length.
        let lowered = text.to_ascii_lowercase();
        let mut leads = [false; 256];
        for &byte in bytes.iter().filter(|byte| !byte.is_ascii()) {
            leads[usize::from(byte)] = true;
        }
        let read = self.groups.iter().filter(|group| group.lead.is_none_or(|lead| leads[usize::from(lead)]));
        let found_literals =
            read.filter_map(|group| Some((group, group.automaton()?))).flat_map(|(group, automaton)| {
                automaton
                    .find_overlapping_iter(lowered.as_bytes())
                    .map(move |found| (group.ids.get(found.pattern().as_usize()), found.start()))
            });
        for (literal, at) in found_literals {
            let owners = literal.map_or(&[][..], |&literal| self.owners.of(literal));
            for &owner in owners {
                match owner {
                    Owner::Prefix(part) => {
                        let start = self.branches.get(part).map_or(Start::Any, |branch| branch.start);
                        if start.allows(bytes, at) {
                            places.entry(part).or_insert(Reach::Nowhere).add(at);
                        }
                    }
                    Owner::Inner(part, word) => {
                        if (!word || Start::AfterNonWord.allows(bytes, at))
                            && let Some(seen) = seen.get_mut(part)
                        {
                            *seen = true;
                        }
                    }
                }
            }
        }
        // A branch none of whose inner literals occurs cannot match anywhere.
        let open = |part: usize| {
            self.branches.get(part).is_some_and(|branch| !branch.inner || seen.get(part) == Some(&true))
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

    /// How many patterns are searched whatever the text (for tests).
    #[cfg(test)]
    pub(super) fn ungated(&self) -> usize {
        let mut patterns: Vec<usize> = self
            .branches
            .iter()
            .filter(|branch| branch.always && !branch.inner)
            .map(|branch| branch.pattern)
            .collect();
        patterns.dedup();
        patterns.len()
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
        r"(?i)\bkiss (?:me|us)\b",
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
                    "é", "_", "\n", " ", "xx", "kiss", "KISS", "\u{212A}iss", "ki\u{17F}s", "me", "US",
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
    fn case_insensitive_patterns_keep_whole_literals() {
        let gate = Gate::new(&[r"(?i)\bdisregard (?:the|all) rules"]).expect("the gate builds");
        // Whole phrases, whatever their case: one per branch of the pattern and per spelling with
        // the long s (two words with an s, two branches), one inner literal, and nothing for a
        // text that only shares its first letters. Cut by the extractor, the thousands of
        // spellings were a few letters long.
        let literals: usize = gate.groups.iter().map(|group| group.ids.len()).sum();
        assert!(literals <= 12, "{literals}");
        assert_eq!(gate.hits("DisRegard the rules").reach(0), &Reach::At(vec![0]));
        assert_eq!(gate.hits("a discount on regards").reach(0), &Reach::Nowhere);
        // The Kelvin sign and the long s fold to k and s in a case-insensitive pattern: the gate still lets them through.
        let gate = Gate::new(&[r"(?i)kiss"]).expect("the gate builds");
        assert_eq!(gate.hits("a \u{212A}i\u{17F}s").reach(0), &Reach::At(vec![2]));
    }

    #[test]
    fn places_inside_words_are_left_out_where_a_match_cannot_start() {
        let gate = Gate::with_word_starts(
            &[r"(?-u:\b)al(?-u:\b)", "ora", r"\bé", "tu"],
            &[false, false, false, true],
        )
        .expect("the gate builds");
        let text = "legal al ora tutu (tu) étude";
        let hits = gate.hits(text);
        assert_eq!(hits.reach(0), &Reach::At(vec![6]), "a word boundary is needed before `al`");
        assert_eq!(hits.reach(1), &Reach::At(vec![9]), "no condition");
        assert_eq!(hits.reach(2), &Reach::At(vec![23]), "a non-ASCII first letter is let through");
        // The second `tu` of `tutu` follows a word character; the one after `é` is left to the search.
        assert_eq!(hits.reach(3), &Reach::At(vec![13, 19, 25]));
        assert_eq!(Start::of(&regex_syntax::parse(r"(?:\ba|\bb)c").expect("parses")), Start::Boundary);
        assert_eq!(Start::of(&regex_syntax::parse(r"(?:\ba|b)c").expect("parses")), Start::Any);
        assert_eq!(Start::of(&regex_syntax::parse(r"\b{start}a").expect("parses")), Start::AfterNonWord);
    }

    #[test]
    fn a_pattern_without_its_inner_literal_is_not_searched() {
        let gate = Gate::new(&[r"(?i)\b(?:to|for) (?:the )?(?:agent|assistant)s?\b", r"\n\s*system:"])
            .expect("the gate builds");
        assert_eq!(gate.hits("Send it to the bot for review").reach(0), &Reach::Nowhere);
        assert_eq!(gate.hits("Send it to the bot for the AGENT").reach(0), &Reach::At(vec![19]));
        assert_eq!(
            gate.hits("a\n\nb\n").reach(1),
            &Reach::Nowhere,
            "no `system:`, no search at each line break"
        );
        assert_eq!(gate.hits("a\n system:").reach(1), &Reach::At(vec![1]));
    }

    #[test]
    fn a_short_inner_word_counts_only_as_a_word() {
        let gate = Gate::new(&[r"\b(?:to|for)\s+(?:the )?(?:ai|bot)s?\b"]).expect("the gate builds");
        assert_eq!(
            gate.hits("mail the draft to the main office").reach(0),
            &Reach::Nowhere,
            "`ai` inside words"
        );
        assert_eq!(gate.hits("a note to the ai").reach(0), &Reach::At(vec![7]));
        assert_eq!(ends(&[regex_syntax::parse(r"\s+(?:the )?").expect("parses")]), Ends::NonWord);
        assert_eq!(ends(&[regex_syntax::parse(r"\s*").expect("parses")]), Ends::Empty);
        assert_eq!(ends(&[regex_syntax::parse(r"(?m)(?:^|[.!?]\s+)").expect("parses")]), Ends::NonWord);
        assert_eq!(ends(&[regex_syntax::parse(r"\s+\w?").expect("parses")]), Ends::Word);
    }

    #[test]
    fn a_pattern_splits_into_its_gated_and_ungated_branches() {
        // No prefix common to all branches, which the parser would factor out of the alternation.
        let source =
            r"(?i)(?:please )?wipe the (?:logs|disk)|\b[a-z]{2}\d{2}(?: [a-z0-9]{4}){3,}|drop tables?";
        let (gated, ungated) = split_ungated(source).expect("parses");
        let (gated, ungated) = (gated.expect("two gated branches"), ungated.expect("one ungated branch"));
        let gate = Gate::new(&[&gated, &ungated]).expect("the gate builds");
        assert_eq!(gate.ungated(), 1);
        let whole = regex::Regex::new(source).expect("compiles");
        let sides =
            [regex::Regex::new(&gated).expect("compiles"), regex::Regex::new(&ungated).expect("compiles")];
        for text in ["WIPE THE LOGS", "de89 3704 0044 0532", "drop table", "wipe the floor", "x"] {
            let either = sides.iter().any(|side| side.is_match(text));
            assert_eq!(either, whole.is_match(text), "{text}");
        }
        let (only, none) = split_ungated(r"\bplain words").expect("parses");
        assert_eq!(none, None, "no ungated branch");
        assert!(
            regex::Regex::new(&only.expect("one gated branch")).expect("compiles").is_match("plain words")
        );
        assert_eq!(split_ungated("(unclosed"), None);
    }

    #[test]
    fn many_places_become_a_search_from_the_first() {
        let gate = Gate::new(&[r"\bab\b"]).expect("the gate builds");
        let text = "xab ab ".repeat(FEW + 2);
        let hits = gate.hits(&text);
        // `ab` inside `xab` cannot start a match of `\bab`: the first place that can is 4.
        assert_eq!(hits.reach(0), &Reach::From(4));
        let spot = Spot::new(r"\bab\b").expect("compiles");
        assert_eq!(spot.find_from(&text, hits.reach(0), 0).map(|m| m.start()), Some(4));
        assert_eq!(gate.hits("xyz").reach(0), &Reach::Nowhere);
        // Branches are counted on their own and merged: one branch's many places make the whole pattern a search from the first.
        let branched = Gate::new(&[r"(?:^|x)cd\b|\bab\b"]).expect("the gate builds");
        let text = format!("xcd {}", "ab ".repeat(FEW + 1));
        assert_eq!(branched.hits(&text).reach(0), &Reach::From(0));
        assert_eq!(
            branched.hits("xcd ab").reach(0),
            &Reach::At(vec![0, 1, 4]),
            "`xcd` and `cd` both start the first branch"
        );
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

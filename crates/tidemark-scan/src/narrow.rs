//! Compiling only the part of a large pattern that a text can match.
//!
//! The role markers and some signal families are alternations over every language's phrases, up
//! to 57 KB of source; compiling one took 20 ms for a probe and 50 ms for the full pattern, and a
//! text that woke two of them paid well over the scanner's start-up target. A text in one
//! language can only ever match the phrases whose words it holds.
//!
//! A [`Narrowing`] is a large pattern cut, at derive time, into fixed pieces and *holes*: the
//! large alternations of its syntax, each alternative with up to four lists of literals, every
//! match of it holding one literal of each list (a literal may have to start a word). For a given
//! text, an alternative with a list none of whose literals occurs in it cannot take part in any
//! match, so the pattern with those alternatives left out ([`Narrowing::source`]) finds exactly
//! what the whole pattern finds in that text: every path through the whole pattern that can
//! succeed on the text is still there, in the same order of preference, so the leftmost-first
//! match is the same, byte for byte. It is a few kilobytes at most, and its probe compiles in
//! well under a millisecond where the whole pattern's took 20.
//!
//! Which alternations become holes, and the flags in force at each (so that each alternative's
//! literals are taken with the case rules it is matched with), is decided by parsing the pattern
//! once, when `derived.bin` is written; the file ships the pieces and the literals. An
//! alternation is not made a hole when one of its alternatives sets flags outside a group of its
//! own, since leaving it out would change the flags of what follows.
//!
//! `Spot` (`gate.rs`) and the lazy `Regex` (`lazy.rs`) ask for the narrowed pattern ([`Narrowed`])
//! while a text is short and the pattern has not been compiled whole, for at most
//! [`MAX_NARROWED`] different sets of live alternatives and `lazy::GUARDED_SEARCHES` searches: a
//! process that scans on and on then compiles the whole pattern once, as before. An alternation
//! whose alternatives hold capture groups is not made a hole, so the groups keep their numbers.
//! `narrowing_never_changes_a_match` holds every narrowed pattern to its whole pattern on the
//! corpus.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use crate::gate::{Group, Start};
use crate::shipped::{self, Kind, Reader};

/// How many different narrowed compiles one pattern makes before the whole pattern is compiled.
pub(crate) const MAX_NARROWED: usize = 8;

/// A narrowed pattern longer than this share of the whole (in percent) is not worth it: the
/// whole pattern is compiled instead.
const MAX_SHARE_PERCENT: usize = 50;

/// The stand-in for a hole none of whose alternatives can match: a class that matches nothing.
const NOTHING: &str = r"[^\s\S]";

/// A large pattern as fixed pieces and holes, read from the shipped file.
pub(crate) struct Narrowing {
    /// The source between the holes: one more piece than there are holes.
    pieces: Vec<&'static str>,
    /// Each hole's alternatives, as a range of [`alternatives`](Self::alternatives).
    holes: Vec<std::ops::Range<usize>>,
    /// Every hole's alternatives in turn, as source text.
    alternatives: Vec<&'static str>,
    /// How many literal lists each alternative has: it is live when each list has a literal in
    /// the text (so one without lists is live in every text).
    needs: Vec<u8>,
    /// For each literal of `group`: the alternative, which of its lists, and whether it counts
    /// only where no ASCII word character comes before it.
    owners: Vec<(usize, u8, bool)>,
    /// Every alternative's literals (lower case), read over the text's ASCII lower case.
    group: Group,
    /// The length of the whole pattern's source.
    whole: usize,
}

impl Narrowing {
    /// The narrowing shipped for `source`, if the file has one.
    pub(crate) fn shipped(source: &str) -> Option<Self> {
        let key = shipped::fingerprint([source.as_bytes()]);
        Self::from_bytes(shipped::lookup(Kind::Narrow, key)?, source.len())
    }

    /// Reads the form [`Template::to_bytes`] writes; `None` for anything malformed or empty.
    pub(crate) fn from_bytes(bytes: &'static [u8], whole: usize) -> Option<Self> {
        let mut reader = Reader::new(bytes);
        let holes = reader.u32()?;
        if holes == 0 {
            return None;
        }
        let mut narrowing = Self {
            pieces: Vec::new(),
            holes: Vec::new(),
            alternatives: Vec::new(),
            needs: Vec::new(),
            owners: Vec::new(),
            group: Group::new(None),
            whole,
        };
        narrowing.pieces.push(reader.string()?);
        for _ in 0..holes {
            let count = reader.u32()?;
            let first = narrowing.alternatives.len();
            for _ in 0..count {
                let alternative = narrowing.alternatives.len();
                narrowing.alternatives.push(reader.string()?);
                let lists = u8::try_from(reader.u32()?).ok().filter(|&lists| lists <= 8)?;
                narrowing.needs.push(lists);
                for list in 0..lists {
                    for _ in 0..reader.u32()? {
                        let word = reader.byte()? != 0;
                        let literal = reader.bytes()?;
                        narrowing.group.push(narrowing.owners.len(), Cow::Borrowed(literal));
                        narrowing.owners.push((alternative, list, word));
                    }
                }
            }
            narrowing.holes.push(first..narrowing.alternatives.len());
            narrowing.pieces.push(reader.string()?);
        }
        reader.done().then_some(narrowing)
    }

    /// Which alternatives can take part in a match in `text`: one bit per alternative.
    pub(crate) fn live(&self, text: &str) -> Vec<bool> {
        let lowered = crate::gate::ascii_lowered(text);
        // One bit per list of each alternative that has a literal in the text.
        let mut seen = vec![0_u16; self.needs.len()];
        for (literal, at) in self.group.occurrences(lowered.as_bytes(), None) {
            let Some(&(owner, list, word)) = self.owners.get(literal) else { continue };
            if (!word || Start::AfterNonWord.allows(lowered.as_bytes(), at))
                && let Some(slot) = seen.get_mut(owner)
            {
                *slot |= 1 << list;
            }
        }
        self.needs.iter().zip(seen).map(|(&needs, seen)| seen == (1_u16 << needs) - 1).collect()
    }

    /// The pattern with the alternatives `live` marks dead left out, or `None` when it would not
    /// be much smaller than the whole.
    pub(crate) fn source(&self, live: &[bool]) -> Option<String> {
        let out = self.assemble(live);
        (out.len() * 100 <= self.whole * MAX_SHARE_PERCENT).then_some(out)
    }

    /// The pattern with the alternatives `live` marks dead left out (a hole left empty matches
    /// nothing).
    pub(crate) fn assemble(&self, live: &[bool]) -> String {
        let mut out = String::new();
        let mut pieces = self.pieces.iter();
        out.push_str(pieces.next().copied().unwrap_or_default());
        for (hole, piece) in self.holes.iter().zip(pieces) {
            let kept: Vec<&str> = hole
                .clone()
                .filter(|&alternative| live.get(alternative).copied().unwrap_or(true))
                .filter_map(|alternative| self.alternatives.get(alternative).copied())
                .collect();
            if kept.is_empty() {
                out.push_str(NOTHING);
            } else {
                out.push_str(&kept.join("|"));
            }
            out.push_str(piece);
        }
        out
    }

    /// How many alternatives its holes hold.
    #[cfg(test)]
    pub(crate) fn alternatives(&self) -> usize {
        self.alternatives.len()
    }
}

/// A large pattern's narrowed compiles, made on demand and kept for the life of the pattern.
///
/// Each compile is kept in a slot of its own that is written once, so that a search can borrow it
/// for as long as the pattern lives (the `regex` crate's iterators borrow their regex). Every
/// pattern of a scanner holds one; the slots are only made for a pattern that has a narrowing,
/// the first time a search asks.
pub(crate) struct Narrowed<R>(OnceLock<Option<Box<Slots<R>>>>);

/// The narrowing of one pattern and what it has compiled.
struct Slots<R> {
    narrowing: Narrowing,
    slots: [OnceLock<(Vec<bool>, R)>; MAX_NARROWED],
    /// The next slot to fill.
    next: AtomicUsize,
    /// Searches answered so far (they retire as the guards do: `lazy::GUARDED_SEARCHES`).
    searches: AtomicU32,
}

impl<R> Narrowed<R> {
    pub(crate) const fn new() -> Self {
        Self(OnceLock::new())
    }

    /// `source` narrowed to the alternatives `text` can match, made by `compile` if this set has
    /// not been yet; `None` when `source` has no shipped narrowing, the text is long, the narrowed
    /// compiles have served their share or filled their slots, or this one would not be much
    /// smaller than the whole or cannot be made. The whole pattern answers then.
    pub(crate) fn get(
        &self,
        source: &str,
        text: &str,
        compile: impl FnOnce(&str) -> Option<R>,
    ) -> Option<&R> {
        if text.len() > crate::lazy::GUARDED_BYTES {
            return None;
        }
        let this = self
            .0
            .get_or_init(|| {
                Narrowing::shipped(source).map(|narrowing| {
                    Box::new(Slots {
                        narrowing,
                        slots: std::array::from_fn(|_| OnceLock::new()),
                        next: AtomicUsize::new(0),
                        searches: AtomicU32::new(0),
                    })
                })
            })
            .as_deref()?;
        if !crate::lazy::guard_still_serves(&this.searches, text.len()) {
            return None;
        }
        let live = this.narrowing.live(text);
        let filled = this.next.load(Ordering::Acquire).min(MAX_NARROWED);
        let slots = this.slots.get(..filled).unwrap_or_default();
        if let Some((_, compiled)) = slots.iter().filter_map(OnceLock::get).find(|(kept, _)| *kept == live) {
            return Some(compiled);
        }
        let narrowed = this.narrowing.source(&live)?;
        let slot = this.slots.get(this.next.fetch_add(1, Ordering::AcqRel))?;
        let compiled = compile(&narrowed)?;
        Some(&slot.get_or_init(|| (live, compiled)).1)
    }
}

#[cfg(test)]
pub(crate) use derive::{Template, derive};

/// Finding the holes of a pattern, for `derived.bin`.
#[cfg(test)]
mod derive {
    use regex_syntax::ast::{self, Ast};

    use crate::shipped::Writer;

    /// Lists of literals, each with whether it must start a word (`gate::needs_of`).
    pub(crate) type Needs = Vec<Vec<(Vec<u8>, bool)>>;

    /// Patterns shorter than this are compiled whole: it is cheap enough.
    pub(crate) const NARROW_MIN: usize = 2 * 1024;

    /// The most literal lists an alternative keeps.
    const MAX_LISTS: usize = 4;

    /// Alternations shorter than this (in source bytes) are left in the pieces.
    const HOLE_MIN: usize = 512;

    /// A pattern's pieces and holes, as derived.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(crate) struct Template {
        pub(crate) pieces: Vec<String>,
        /// Each hole's alternatives: the source text, and lists of literals every match holds one
        /// of each of (`gate::needs_of`; none when nothing is known: the alternative is always live).
        pub(crate) holes: Vec<Vec<(String, Needs)>>,
    }

    impl Template {
        /// The whole pattern again: the pieces with every alternative in its hole.
        pub(crate) fn whole(&self) -> String {
            let mut out = self.pieces.first().cloned().unwrap_or_default();
            for (hole, piece) in self.holes.iter().zip(self.pieces.iter().skip(1)) {
                let alternatives: Vec<&str> = hole.iter().map(|(text, _)| text.as_str()).collect();
                out.push_str(&alternatives.join("|"));
                out.push_str(piece);
            }
            out
        }

        /// The form `Narrowing::from_bytes` reads; no holes is an empty template.
        pub(crate) fn to_bytes(template: Option<&Template>) -> Vec<u8> {
            let mut out = Writer::default();
            let Some(template) = template else {
                out.u32(0);
                return out.into_bytes();
            };
            out.u32(template.holes.len());
            let mut pieces = template.pieces.iter();
            out.bytes(pieces.next().map_or(&b""[..], |piece| piece.as_bytes()));
            for (hole, piece) in template.holes.iter().zip(pieces) {
                out.u32(hole.len());
                for (text, lists) in hole {
                    out.bytes(text.as_bytes());
                    out.u32(lists.len());
                    for list in lists {
                        out.u32(list.len());
                        for (literal, word) in list {
                            out.byte(u8::from(*word));
                            out.bytes(literal);
                        }
                    }
                }
                out.bytes(piece.as_bytes());
            }
            out.into_bytes()
        }
    }

    /// The flags in force at a place of a pattern.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Flags {
        case_insensitive: bool,
        multi_line: bool,
        dot_matches_new_line: bool,
        swap_greed: bool,
        unicode: bool,
        crlf: bool,
        ignore_whitespace: bool,
    }

    impl Default for Flags {
        /// The `regex` crate's defaults: Unicode on, everything else off.
        fn default() -> Self {
            Self {
                case_insensitive: false,
                multi_line: false,
                dot_matches_new_line: false,
                swap_greed: false,
                unicode: true,
                crlf: false,
                ignore_whitespace: false,
            }
        }
    }

    impl Flags {
        fn apply(&mut self, flags: &ast::Flags) {
            let mut on = true;
            for item in &flags.items {
                match &item.kind {
                    ast::FlagsItemKind::Negation => on = false,
                    ast::FlagsItemKind::Flag(flag) => *self.slot(flag) = on,
                }
            }
        }

        fn slot(&mut self, flag: &ast::Flag) -> &mut bool {
            match flag {
                ast::Flag::CaseInsensitive => &mut self.case_insensitive,
                ast::Flag::MultiLine => &mut self.multi_line,
                ast::Flag::DotMatchesNewLine => &mut self.dot_matches_new_line,
                ast::Flag::SwapGreed => &mut self.swap_greed,
                ast::Flag::Unicode => &mut self.unicode,
                ast::Flag::CRLF => &mut self.crlf,
                ast::Flag::IgnoreWhitespace => &mut self.ignore_whitespace,
            }
        }

        /// `text` in a group that sets these flags, so that it parses alone as it does in place.
        fn wrap(self, text: &str) -> String {
            let all = [
                (self.case_insensitive, 'i'),
                (self.multi_line, 'm'),
                (self.dot_matches_new_line, 's'),
                (self.swap_greed, 'U'),
                (self.unicode, 'u'),
                (self.crlf, 'R'),
                (self.ignore_whitespace, 'x'),
            ];
            let on: String = all.iter().filter(|(set, _)| *set).map(|(_, flag)| flag).collect();
            let off: String = all.iter().filter(|(set, _)| !*set).map(|(_, flag)| flag).collect();
            // A line break ends an `x`-mode comment that would otherwise swallow the `)`.
            let end = if self.ignore_whitespace { "\n)" } else { ")" };
            match (on.is_empty(), off.is_empty()) {
                (false, false) => format!("(?{on}-{off}:{text}{end}"),
                (false, true) => format!("(?{on}:{text}{end}"),
                (true, _) => format!("(?-{off}:{text}{end}"),
            }
        }
    }

    /// A hole found in the syntax: the alternatives' byte ranges, and the flags in force there.
    struct Found {
        alternatives: Vec<std::ops::Range<usize>>,
        flags: Flags,
    }

    /// The template of `source`, or `None` if it is short, does not parse, or has no alternation
    /// worth cutting.
    pub(crate) fn derive(source: &str) -> Option<Template> {
        if source.len() < NARROW_MIN {
            return None;
        }
        let ast = ast::parse::Parser::new().parse(source).ok()?;
        let mut found = Vec::new();
        walk(&ast, &mut Flags::default(), &mut found);
        let mut pieces = Vec::new();
        let mut holes = Vec::new();
        let mut at = 0;
        for hole in found {
            let alternatives: Vec<(String, Needs)> = hole
                .alternatives
                .iter()
                .map(|range| {
                    let text = source.get(range.clone()).unwrap_or_default().to_owned();
                    let mut needs = crate::gate::needs_of(&hole.flags.wrap(&text));
                    needs.truncate(MAX_LISTS);
                    (text, needs)
                })
                .collect();
            // A hole whose alternatives are all live everywhere narrows nothing.
            if alternatives.iter().all(|(_, needs)| needs.is_empty()) {
                continue;
            }
            let (start, end) = (hole.alternatives.first()?.start, hole.alternatives.last()?.end);
            pieces.push(source.get(at..start)?.to_owned());
            holes.push(alternatives);
            at = end;
        }
        pieces.push(source.get(at..)?.to_owned());
        let template = Template { pieces, holes };
        (!template.holes.is_empty() && template.whole() == source).then_some(template)
    }

    /// Collects the holes of `ast` in source order, `flags` being those in force where it starts.
    fn walk(ast: &Ast, flags: &mut Flags, found: &mut Vec<Found>) {
        match ast {
            Ast::Flags(set) => flags.apply(&set.flags),
            Ast::Group(group) => {
                let outer = *flags;
                if let ast::GroupKind::NonCapturing(own) = &group.kind {
                    flags.apply(own);
                }
                walk(&group.ast, flags, found);
                *flags = outer;
            }
            Ast::Repetition(repetition) => walk(&repetition.ast, flags, found),
            Ast::Concat(concat) => concat.asts.iter().for_each(|ast| walk(ast, flags, found)),
            Ast::Alternation(alternation) => {
                let span = &alternation.span;
                if span.end.offset - span.start.offset >= HOLE_MIN
                    && !alternation.asts.iter().any(|ast| sets_flags_in_place(ast) || captures(ast))
                {
                    let alternatives =
                        alternation.asts.iter().map(|ast| ast.span().start.offset..ast.span().end.offset);
                    found.push(Found { alternatives: alternatives.collect(), flags: *flags });
                } else {
                    alternation.asts.iter().for_each(|ast| walk(ast, flags, found));
                }
            }
            Ast::Empty(_)
            | Ast::Literal(_)
            | Ast::Dot(_)
            | Ast::Assertion(_)
            | Ast::ClassUnicode(_)
            | Ast::ClassPerl(_)
            | Ast::ClassBracketed(_) => {}
        }
    }

    /// Whether `ast` holds a capture group: leaving it out would renumber the groups after it.
    fn captures(ast: &Ast) -> bool {
        match ast {
            Ast::Group(group) => {
                !matches!(group.kind, ast::GroupKind::NonCapturing(_)) || captures(&group.ast)
            }
            Ast::Repetition(repetition) => captures(&repetition.ast),
            Ast::Concat(concat) => concat.asts.iter().any(captures),
            Ast::Alternation(alternation) => alternation.asts.iter().any(captures),
            _ => false,
        }
    }

    /// Whether `ast` sets flags that last beyond it (a `(?i)` outside a group of its own).
    fn sets_flags_in_place(ast: &Ast) -> bool {
        match ast {
            Ast::Flags(_) => true,
            Ast::Repetition(repetition) => sets_flags_in_place(&repetition.ast),
            Ast::Concat(concat) => concat.asts.iter().any(sets_flags_in_place),
            Ast::Alternation(alternation) => alternation.asts.iter().any(sets_flags_in_place),
            _ => false,
        }
    }
}

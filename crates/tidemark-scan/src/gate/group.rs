//! A gate's literals in groups, and the two ways a group finds them in a text.

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::AtomicU32;

use aho_corasick::{AhoCorasick, MatchKind};

/// The literals of a gate that share the lead byte of their first non-ASCII character (or that are
/// all ASCII), with what finds them in a text, made the first time a text has that byte.
///
/// A literal can occur in a text only if each of its bytes does, so a text without the lead byte
/// needs none of the group's literals. Most texts are in one script, and most of the literals are
/// in others: a gate over every language's cues is built for a few of them, not for all, which
/// is most of what starting a scanner cost.
///
/// A group finds its literals in two ways. A short text is read with an [`Index`], a sorted list
/// of the literals' first bytes that costs a sort to make and a few lookups per byte of text to
/// read. A long text, and every text once the group has read its share of them, is read with an
/// Aho-Corasick automaton, which takes a thousand times longer to build than the index and reads
/// a text in one pass. Both report every occurrence of every literal.
pub(crate) struct Group {
    /// The lead byte, or `None` for the all-ASCII literals, which every text is read for.
    pub(crate) lead: Option<u8>,
    /// The index of each literal in the gate's list.
    pub(crate) ids: Vec<usize>,
    /// The literals (lower case).
    literals: Vec<Cow<'static, [u8]>>,
    index: OnceLock<Index>,
    automaton: OnceLock<Option<AhoCorasick>>,
    /// Whether a literal is empty (the gates' literals never are): then the automaton reads every
    /// text, since only it knows how often an empty literal occurs.
    has_empty: bool,
    /// Texts the index read so far (see `lazy::GUARDED_SEARCHES`).
    searches: AtomicU32,
}

impl Group {
    pub(crate) fn new(lead: Option<u8>) -> Self {
        Self {
            lead,
            ids: Vec::new(),
            literals: Vec::new(),
            index: OnceLock::new(),
            automaton: OnceLock::new(),
            has_empty: false,
            searches: AtomicU32::new(0),
        }
    }

    pub(crate) fn push(&mut self, id: usize, literal: Cow<'static, [u8]>) {
        self.ids.push(id);
        self.has_empty |= literal.is_empty();
        self.literals.push(literal);
    }

    /// Every occurrence of every literal of the group in `lowered` (a text whose ASCII is in lower
    /// case): the literal's index in the gate's list, and where it starts. `force` picks the reader
    /// (for tests); `None` lets the group choose.
    pub(crate) fn occurrences<'a>(
        &'a self,
        lowered: &'a [u8],
        force: Option<Reader>,
    ) -> Box<dyn Iterator<Item = (usize, usize)> + 'a> {
        let reader = force.unwrap_or_else(|| {
            if !self.has_empty && crate::lazy::guard_still_serves(&self.searches, lowered.len()) {
                Reader::Index
            } else {
                Reader::Automaton
            }
        });
        let id = move |literal: usize| self.ids.get(literal).copied();
        match reader {
            Reader::Index => {
                let index = self.index.get_or_init(|| Index::new(&self.literals));
                Box::new(
                    index
                        .occurrences(&self.literals, lowered)
                        .filter_map(move |(literal, at)| Some((id(literal)?, at))),
                )
            }
            Reader::Automaton => match self.automaton() {
                Some(automaton) => Box::new(
                    automaton
                        .find_overlapping_iter(lowered)
                        .filter_map(move |found| Some((id(found.pattern().as_usize())?, found.start()))),
                ),
                None => Box::new(std::iter::empty()),
            },
        }
    }

    /// Every occurrence [`occurrences`](Self::occurrences) reports with `reader`, collected (for tests).
    #[cfg(test)]
    pub(crate) fn occurrences_for_test(&self, lowered: &[u8], reader: Option<Reader>) -> Vec<(usize, usize)> {
        self.occurrences(lowered, reader).collect()
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

/// How a [`Group`] finds its literals in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reader {
    Index,
    Automaton,
}

/// The literals of a [`Group`] by their first bytes: for each literal, a key made of its first
/// [`KEY_BYTES`] bytes (all of them if it is shorter) and their count, in one sorted list.
///
/// At each byte of a text, the keys of the next one, two and three bytes are looked up, and the
/// literals under them compared with the text there. An empty literal has no key and is never
/// found: a group that holds one reads with its automaton.
struct Index {
    keys: Vec<(u32, u32)>,
}

/// How many of a literal's bytes its [`Index`] key holds.
const KEY_BYTES: usize = 3;

impl Index {
    fn new(literals: &[Cow<'static, [u8]>]) -> Self {
        let mut keys: Vec<(u32, u32)> = literals
            .iter()
            .zip(0_u32..)
            .filter_map(|(literal, number)| Some((Self::key(literal)?, number)))
            .collect();
        keys.sort_unstable();
        Self { keys }
    }

    /// The key of `bytes`' first [`KEY_BYTES`] bytes (or fewer, if it is shorter); `None` if empty.
    fn key(bytes: &[u8]) -> Option<u32> {
        let head = bytes.get(..bytes.len().min(KEY_BYTES)).filter(|head| !head.is_empty())?;
        // `head` holds 1 to 3 bytes, so its length fits the top byte.
        Some(head.iter().fold(head.len() as u32, |key, &byte| (key << 8) | u32::from(byte)))
    }

    /// Every occurrence of every literal in `text`: the literal's number, and where it starts.
    fn occurrences<'a>(
        &'a self,
        literals: &'a [Cow<'static, [u8]>],
        text: &'a [u8],
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        (0..text.len()).flat_map(move |at| {
            let rest = text.get(at..).unwrap_or_default();
            (1..=KEY_BYTES.min(rest.len())).flat_map(move |len| {
                let key = rest.get(..len).and_then(Self::key);
                let first = key.map_or(self.keys.len(), |key| self.keys.partition_point(|&(k, _)| k < key));
                self.keys
                    .get(first..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(move |&&(k, _)| Some(k) == key)
                    .filter(move |&&(_, number)| {
                        literals.get(number as usize).is_some_and(|literal| rest.starts_with(literal))
                    })
                    .map(move |&(_, number)| (number as usize, at))
            })
        })
    }
}

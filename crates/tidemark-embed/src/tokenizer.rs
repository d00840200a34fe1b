//! The WordPiece tokenizer of BERT: text in, vocabulary ids out.
//!
//! It follows Hugging Face `tokenizers` (the BERT normalizer, the BERT
//! pre-tokenizer and the WordPiece model), which is the reference the shipped
//! model was built against, step by step:
//!
//! 1. special tokens (`[CLS]`, `[SEP]`, …) written literally in the text are
//!    matched first, on the raw text, and become their own ids;
//! 2. cleaning drops control, format and private-use characters, NUL and
//!    U+FFFD, and turns every kind of whitespace into a space;
//! 3. CJK ideographs get a space on each side, so that each is a word;
//! 4. accents are stripped: each character is canonically decomposed and the
//!    non-spacing marks (category Mn) are dropped;
//! 5. each character is lowercased on its own (so a final capital sigma
//!    becomes `σ`, not `ς`, as in the reference);
//! 6. the text is cut at whitespace, and every punctuation character becomes
//!    a word of its own;
//! 7. each word is cut greedily into the longest vocabulary pieces, left to
//!    right, pieces after the first carrying the continuation prefix (`##`).
//!    A word with a part no piece matches, or longer than 100 characters (a
//!    `tokenizer.json` may set another bound), becomes the unknown token as a
//!    whole.
//!
//! The character classes of steps 2, 4 and 6 come from `tokenizer/tables.rs`,
//! read off the reference's behaviour by `tokenizer/gen_tables.py`, because
//! the reference uses Unicode tables older than Rust's and the point is to
//! give the ids it gives. Two simplifications remain, and neither shows on
//! real text: the decomposition of step 4 works one character at a time,
//! without the canonical reordering of a full NFD (reordering only moves marks
//! with a non-zero combining class, and all but 25 of those are non-spacing
//! marks that step 4 removes anyway); and Rust's own Unicode version decides
//! what is whitespace, lowercase and decomposable, where the reference may use
//! an older one.
//!
//! The tokenizer works in one pass and stops as soon as it has the number of
//! pieces asked for, so its cost grows with the text's length at most
//! linearly, and memory stays bounded by the longest word it keeps (a word is
//! never kept beyond its 101st character, since it is unknown by then).

mod tables;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The longest word, in characters, that BERT's tokenizer cuts into pieces; a longer one becomes the unknown token.
pub(crate) const MAX_WORD_CHARS: usize = 100;

/// The normalization steps a tokenizer applies (the fields of a BERT normalizer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Normalization {
    /// Drop control characters and turn whitespace into spaces.
    pub(crate) clean: bool,
    /// Put spaces around CJK ideographs.
    pub(crate) cjk: bool,
    /// Decompose characters and drop non-spacing marks.
    pub(crate) strip_accents: bool,
    /// Lowercase every character.
    pub(crate) lowercase: bool,
}

impl Normalization {
    /// What BERT's uncased tokenizer does: every step.
    pub(crate) const UNCASED: Self = Self { clean: true, cjk: true, strip_accents: true, lowercase: true };
}

/// A WordPiece tokenizer: a vocabulary, its unknown and special tokens, and how text is normalized first.
#[derive(Clone)]
pub(crate) struct WordPiece {
    /// Every entry of the vocabulary, looked up for the first piece of a word.
    starts: Vocabulary,
    /// The entries that begin with the continuation prefix, stored without it, looked up for the later pieces.
    continues: Vocabulary,
    /// The longest key of `starts`, in bytes: no longer piece can match.
    longest_start: usize,
    /// The longest key of `continues`, in bytes.
    longest_continue: usize,
    /// The id of the unknown token, if the vocabulary has one.
    unknown: Option<u32>,
    /// Special tokens matched on the raw text, longest first, with their ids.
    special: Vec<(Box<str>, u32)>,
    /// Which bytes a special token starts with: a cheap test before trying each token.
    special_first: [bool; 256],
    normalization: Normalization,
    /// The longest word, in characters, that is cut into pieces; a longer one is unknown.
    max_word_chars: usize,
}

/// A map from vocabulary pieces to ids, hashed with FNV-1a: the keys are short, and fixed when the model loads.
type Vocabulary = HashMap<Box<str>, u32, BuildHasherDefault<Fnv>>;

impl WordPiece {
    /// A tokenizer over `entries` (piece and id), with `prefix` marking continuation pieces.
    ///
    /// `unknown` names the unknown token (a vocabulary without it drops
    /// unknown words instead), and `special` lists the tokens matched on the
    /// raw text, with their ids. A word of more than `max_word_chars`
    /// characters is unknown. When a piece appears twice, the later id wins,
    /// as in the reference.
    pub(crate) fn new<'a>(
        entries: impl IntoIterator<Item = (&'a str, u32)>,
        prefix: &str,
        unknown: &str,
        special: impl IntoIterator<Item = (&'a str, u32)>,
        normalization: Normalization,
        max_word_chars: usize,
    ) -> Self {
        let mut starts = Vocabulary::default();
        let mut continues = Vocabulary::default();
        for (piece, id) in entries {
            if !prefix.is_empty()
                && let Some(rest) = piece.strip_prefix(prefix)
            {
                continues.insert(rest.into(), id);
            }
            starts.insert(piece.into(), id);
        }
        let longest = |map: &Vocabulary| map.keys().map(|key| key.len()).max().unwrap_or(0);
        let mut special: Vec<(Box<str>, u32)> = special
            .into_iter()
            .filter(|(token, _)| !token.is_empty())
            .map(|(token, id)| (token.into(), id))
            .collect();
        // Longest first, so that the first match at a position is the longest one.
        special.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        special.dedup_by(|a, b| a.0 == b.0);
        let mut special_first = [false; 256];
        for (token, _) in &special {
            if let Some(first) = token.as_bytes().first() {
                special_first[usize::from(*first)] = true;
            }
        }
        Self {
            longest_start: longest(&starts),
            longest_continue: longest(&continues),
            unknown: starts.get(unknown).copied(),
            starts,
            continues,
            special,
            special_first,
            normalization,
            max_word_chars,
        }
    }

    /// Appends the ids of `text` to `ids`, stopping once `ids` holds `limit` of them.
    pub(crate) fn tokenize(&self, text: &str, limit: usize, ids: &mut Vec<u32>) {
        let mut words = Words { model: self, word: String::new(), chars: 0, ids, limit };
        // The end of the special token last matched: the characters before it are consumed.
        let mut skip_to = 0;
        for (at, c) in text.char_indices() {
            if words.full() {
                break;
            }
            if at < skip_to {
                continue;
            }
            if let Some((length, id)) = self.special_at(text.as_bytes().get(at..).unwrap_or_default()) {
                words.end_word();
                words.ids.push(id);
                skip_to = at + length;
                continue;
            }
            words.feed(c);
        }
        words.end_word();
        ids.truncate(limit);
    }

    /// The length and id of the special token `text` starts with, if any (the longest, if several).
    fn special_at(&self, text: &[u8]) -> Option<(usize, u32)> {
        let first = text.first()?;
        if !self.special_first[usize::from(*first)] {
            return None;
        }
        self.special
            .iter()
            .find(|(token, _)| text.starts_with(token.as_bytes()))
            .map(|(token, id)| (token.len(), *id))
    }

    /// Appends the pieces of one word to `ids`, or the unknown token if the word cannot be cut.
    fn pieces(&self, word: &str, ids: &mut Vec<u32>) {
        let before = ids.len();
        let mut start = 0;
        while start < word.len() {
            let (vocabulary, longest) = if start == 0 {
                (&self.starts, self.longest_start)
            } else {
                (&self.continues, self.longest_continue)
            };
            let rest = &word[start..];
            let mut end = floor_boundary(rest, longest);
            let found = loop {
                if end == 0 {
                    break None;
                }
                if let Some(id) = vocabulary.get(&rest[..end]) {
                    break Some(*id);
                }
                end = floor_boundary(rest, end - 1);
            };
            match found {
                Some(id) => {
                    ids.push(id);
                    start += end;
                }
                None => {
                    ids.truncate(before);
                    ids.extend(self.unknown);
                    return;
                }
            }
        }
    }
}

impl std::fmt::Debug for WordPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordPiece")
            .field("pieces", &self.starts.len())
            .field("normalization", &self.normalization)
            .finish_non_exhaustive()
    }
}

/// The largest character boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The state of one tokenization: the word being gathered and the ids so far.
struct Words<'m, 'v> {
    model: &'m WordPiece,
    /// The current word, normalized; never more than one character past the longest word cut into pieces.
    word: String,
    /// How many characters the current word has, counting those not kept.
    chars: usize,
    ids: &'v mut Vec<u32>,
    limit: usize,
}

impl Words<'_, '_> {
    fn full(&self) -> bool {
        self.ids.len() >= self.limit
    }

    /// Steps 2 and 3: cleans `c` and sets CJK ideographs apart, then passes it on.
    fn feed(&mut self, c: char) {
        let normalization = self.model.normalization;
        let c = if normalization.clean {
            if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                return;
            }
            if is_whitespace(c) { ' ' } else { c }
        } else {
            c
        };
        if normalization.cjk && is_cjk(c) {
            self.decomposed(' ');
            self.decomposed(c);
            self.decomposed(' ');
        } else {
            self.decomposed(c);
        }
    }

    /// Step 4: strips accents from `c` if the model asks for it.
    fn decomposed(&mut self, c: char) {
        if self.model.normalization.strip_accents {
            if c.is_ascii() {
                self.lowered(c);
            } else {
                unicode_normalization::char::decompose_canonical(c, |part| {
                    if !is_nonspacing_mark(part) {
                        self.lowered(part);
                    }
                });
            }
        } else {
            self.lowered(c);
        }
    }

    /// Step 5: lowercases `c` if the model asks for it.
    fn lowered(&mut self, c: char) {
        if self.model.normalization.lowercase {
            if c.is_ascii() {
                self.split(c.to_ascii_lowercase());
                return;
            }
            for lower in c.to_lowercase() {
                self.split(lower);
            }
        } else {
            self.split(c);
        }
    }

    /// Step 6: adds `c` to the current word, or ends the word at whitespace and punctuation.
    fn split(&mut self, c: char) {
        if c.is_whitespace() {
            self.end_word();
        } else if is_punctuation(c) {
            self.end_word();
            let mut buffer = [0; 4];
            self.model.pieces(c.encode_utf8(&mut buffer), self.ids);
        } else {
            self.chars += 1;
            if self.chars <= self.model.max_word_chars.saturating_add(1) {
                self.word.push(c);
            }
        }
    }

    /// Cuts the current word into pieces and starts a new one.
    fn end_word(&mut self) {
        if self.chars == 0 {
            return;
        }
        if self.chars > self.model.max_word_chars {
            self.ids.extend(self.model.unknown);
        } else {
            self.model.pieces(&self.word, self.ids);
        }
        self.word.clear();
        self.chars = 0;
    }
}

/// Whether cleaning drops `c` (tab, newline and carriage return are whitespace instead).
fn is_control(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')
    } else {
        in_table(c, tables::CONTROL)
    }
}

/// Whether cleaning turns `c` into a space.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Whether `c` is a CJK ideograph, in the blocks the reference names.
fn is_cjk(c: char) -> bool {
    matches!(
        u32::from(c),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

/// Whether `c` is a non-spacing mark, dropped when accents are stripped.
fn is_nonspacing_mark(c: char) -> bool {
    !c.is_ascii() && in_table(c, tables::NONSPACING_MARK)
}

/// Whether `c` is a word of its own: ASCII punctuation, or punctuation in the reference's Unicode table.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() { c.is_ascii_punctuation() } else { in_table(c, tables::PUNCTUATION) }
}

/// Whether `c` falls in one of the sorted, disjoint, inclusive `ranges`.
fn in_table(c: char, ranges: &[(u32, u32)]) -> bool {
    let point = u32::from(c);
    ranges
        .binary_search_by(|&(start, end)| {
            if end < point {
                std::cmp::Ordering::Less
            } else if start > point {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The 64-bit FNV-1a hash: tiny, fast on short keys, and the same on every machine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Fnv {
    /// The hash of nothing yet.
    pub(crate) const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests;

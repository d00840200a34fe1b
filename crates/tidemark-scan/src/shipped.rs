//! Work on the patterns that is done once, when the patterns change, and shipped with the crate.
//!
//! The gates (`gate.rs`) learn which literals each of well over a thousand patterns must start
//! with by parsing every pattern and walking its syntax tree; the signal families are cut into the
//! branches a gate can hold and the rest. That took about half a second, on every start of every
//! process that scans. The results depend on nothing but the patterns' sources, so they are kept
//! in `derived.bin`, each under a fingerprint of the inputs it was derived from.
//!
//! A lookup whose fingerprint is not in the file (the patterns changed and the file was not
//! written again) finds nothing, and the caller derives the result the slow way: the file can
//! make the scanner fast, never wrong. The unit test `shipped_derivations_are_fresh` derives
//! every entry again and fails when the file differs; `cargo xtask scan-gates` writes it.

use std::collections::HashMap;
use std::sync::LazyLock;

/// The shipped derivations.
static BYTES: &[u8] = include_bytes!("derived.bin");

/// The magic bytes and format version that start the file.
const MAGIC: &[u8; 5] = b"TMDV\x01";

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    /// A gate's table over a list of patterns (`gate::Table`).
    Gate = 1,
    /// A pattern cut into its gated and ungated branches (`gate::split_ungated`).
    Split = 2,
    /// The literals of which every match of a pattern, or of any pattern of a set, holds one
    /// (`gate::necessary`): a lazy pattern's guard (`lazy.rs`).
    Needs = 3,
    /// The head of a large pattern (`gate::head_of`), or nothing.
    Head = 4,
    /// A large pattern cut into pieces and holes (`narrow::derive`), or nothing.
    Narrow = 5,
}

impl Kind {
    fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            1 => Some(Self::Gate),
            2 => Some(Self::Split),
            3 => Some(Self::Needs),
            4 => Some(Self::Head),
            5 => Some(Self::Narrow),
            _ => None,
        }
    }
}

/// The entries of the shipped file by kind and fingerprint; empty if the file is malformed.
static INDEX: LazyLock<HashMap<(Kind, u64), &'static [u8]>> =
    LazyLock::new(|| parse(BYTES).unwrap_or_default());

/// The shipped payload derived from inputs with this fingerprint, if the file has one.
pub(crate) fn lookup(kind: Kind, key: u64) -> Option<&'static [u8]> {
    INDEX.get(&(kind, key)).copied()
}

/// A stable 64-bit fingerprint (FNV-1a over 8-byte words) of a list of byte strings (each length-prefixed, so that
/// `["ab", "c"]` and `["a", "bc"]` differ).
pub(crate) fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    // Eight bytes at a time: the sources run to megabytes, and this runs on every start.
    let mut eat = |word: u64| hash = (hash ^ word).wrapping_mul(PRIME);
    for part in parts {
        eat(part.len() as u64);
        let mut words = part.chunks_exact(8);
        for word in &mut words {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(word);
            eat(u64::from_le_bytes(raw));
        }
        let mut tail = [0u8; 8];
        tail.get_mut(..words.remainder().len())
            .into_iter()
            .for_each(|t| t.copy_from_slice(words.remainder()));
        eat(u64::from_le_bytes(tail));
    }
    hash
}

/// Reads the file: the magic, then entries of a kind byte, a fingerprint and a length-prefixed
/// payload. `None` for anything malformed.
fn parse(bytes: &'static [u8]) -> Option<HashMap<(Kind, u64), &'static [u8]>> {
    let mut reader = Reader::new(bytes.strip_prefix(MAGIC.as_slice())?);
    let mut index = HashMap::new();
    while !reader.done() {
        let kind = Kind::from_byte(reader.byte()?)?;
        let key = reader.u64()?;
        let payload = reader.bytes()?;
        index.insert((kind, key), payload);
    }
    Some(index)
}

/// A list of literals as [`literals_to_bytes`] writes it; an empty list says none are known.
pub(crate) fn literals(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let mut reader = Reader::new(bytes);
    let count = reader.u32()?;
    let list = (0..count).map(|_| reader.bytes()).collect::<Option<Vec<_>>>()?;
    reader.done().then_some(list)
}

/// The form [`literals`] reads: a count, then each literal; `None` is written as an empty list.
#[cfg(test)]
pub(crate) fn literals_to_bytes(list: Option<&[Vec<u8>]>) -> Vec<u8> {
    let list = list.unwrap_or_default();
    let mut out = Writer::default();
    out.u32(list.len());
    for literal in list {
        out.bytes(literal);
    }
    out.into_bytes()
}

/// The file holding `entries` (sorted, so that the same entries always give the same bytes).
#[cfg(test)]
pub(crate) fn file(entries: &[(Kind, u64, Vec<u8>)]) -> Vec<u8> {
    let mut sorted: Vec<&(Kind, u64, Vec<u8>)> = entries.iter().collect();
    sorted.sort_by_key(|(kind, key, _)| (*kind, *key));
    sorted.dedup_by_key(|(kind, key, _)| (*kind, *key));
    let mut out = Writer::default();
    out.raw(MAGIC);
    for (kind, key, payload) in sorted {
        out.byte(*kind as u8);
        out.u64(*key);
        out.bytes(payload);
    }
    out.into_bytes()
}

/// The shipped file as it is.
#[cfg(test)]
pub(crate) fn shipped() -> &'static [u8] {
    BYTES
}

/// Writes the little-endian binary forms the derivations are shipped in.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Writer(Vec<u8>);

#[cfg(test)]
impl Writer {
    pub(crate) fn byte(&mut self, value: u8) {
        self.0.push(value);
    }

    pub(crate) fn u32(&mut self, value: usize) {
        // The tables hold a few thousand items at most; a larger count is a bug caught by the
        // round-trip test, not something a user can cause.
        self.0.extend_from_slice(&u32::try_from(value).unwrap_or(u32::MAX).to_le_bytes());
    }

    fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// A length-prefixed byte string.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        self.u32(bytes.len());
        self.raw(bytes);
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// Reads what [`Writer`] wrote; every read is bounds-checked and gives `None` past the end.
pub(crate) struct Reader<'b> {
    rest: &'b [u8],
}

impl<'b> Reader<'b> {
    pub(crate) fn new(bytes: &'b [u8]) -> Self {
        Self { rest: bytes }
    }

    pub(crate) fn done(&self) -> bool {
        self.rest.is_empty()
    }

    fn take(&mut self, len: usize) -> Option<&'b [u8]> {
        let (head, tail) = self.rest.split_at_checked(len)?;
        self.rest = tail;
        Some(head)
    }

    pub(crate) fn byte(&mut self) -> Option<u8> {
        self.take(1)?.first().copied()
    }

    pub(crate) fn u32(&mut self) -> Option<usize> {
        let raw: [u8; 4] = self.take(4)?.try_into().ok()?;
        usize::try_from(u32::from_le_bytes(raw)).ok()
    }

    fn u64(&mut self) -> Option<u64> {
        let raw: [u8; 8] = self.take(8)?.try_into().ok()?;
        Some(u64::from_le_bytes(raw))
    }

    /// A length-prefixed byte string.
    pub(crate) fn bytes(&mut self) -> Option<&'b [u8]> {
        let len = self.u32()?;
        self.take(len)
    }

    /// A length-prefixed UTF-8 string.
    pub(crate) fn string(&mut self) -> Option<&'b str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
}

/// The inputs of every derivation a scanner asked for in a test build, so that one test can
/// derive them all again and compare with the file.
#[cfg(test)]
pub(crate) mod registry {
    use std::sync::{Mutex, PoisonError};

    /// What a derivation was asked for.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(crate) enum Asked {
        Gate { sources: Vec<String>, word_starts: Vec<bool> },
        Split { source: String },
    }

    static ASKED: Mutex<Vec<Asked>> = Mutex::new(Vec::new());

    pub(crate) fn record(asked: Asked) {
        let mut all = ASKED.lock().unwrap_or_else(PoisonError::into_inner);
        if !all.contains(&asked) {
            all.push(asked);
        }
    }

    pub(crate) fn asked() -> Vec<Asked> {
        ASKED.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_separate_their_parts() {
        let one = fingerprint([b"ab".as_slice(), b"c".as_slice()]);
        let other = fingerprint([b"a".as_slice(), b"bc".as_slice()]);
        assert_ne!(one, other);
        assert_eq!(one, fingerprint([b"ab".as_slice(), b"c".as_slice()]));
    }

    #[test]
    fn a_file_round_trips_and_a_malformed_one_is_empty() {
        let entries = vec![(Kind::Split, 7, vec![1, 2, 3]), (Kind::Gate, 9, Vec::new())];
        let bytes: &'static [u8] = Vec::leak(file(&entries));
        let index = parse(bytes).expect("a well-formed file");
        assert_eq!(index.get(&(Kind::Split, 7)).copied(), Some([1u8, 2, 3].as_slice()));
        assert_eq!(index.get(&(Kind::Gate, 9)).copied(), Some([].as_slice()));
        assert!(parse(&bytes[..bytes.len() - 1]).is_none(), "a cut payload");
        assert!(parse(b"nope").is_none(), "no magic");
        let mut unknown = file(&[]);
        unknown.extend_from_slice(&[9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(parse(Vec::leak(unknown)).is_none(), "an unknown kind");
    }

    #[test]
    fn the_shipped_file_parses() {
        assert!(parse(shipped()).is_some());
    }
}

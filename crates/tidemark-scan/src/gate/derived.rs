//! The derivations `derived.bin` ships besides the gates' tables: the heads of large patterns,
//! the literals a lazy pattern's guard needs, and the signal families' gated and ungated splits.

#[cfg(test)]
use regex_syntax::hir::literal::{ExtractKind, Extractor};
#[cfg(test)]
use regex_syntax::hir::{Hir, HirKind};

use super::split_ungated;
#[cfg(test)]
use super::{MAX_INNER, MIN_INNER, branches, lower_case, prefixes, required, worth};
#[cfg(test)]
use crate::shipped::Writer;
use crate::shipped::{self, Kind, Reader};

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
pub(crate) fn head_of(source: &str) -> Option<String> {
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

/// Literals of which every match of any of `sources` holds one, in lower case (to be read with
/// ASCII case ignored), or `None` if some pattern has no such list or the list would be too long
/// to be worth an automaton.
///
/// A branch needs one of its prefix literals, or else one of the inner literals of [`required`];
/// a pattern needs one of its branches' lists.
#[cfg(test)]
pub(crate) fn necessary<S: AsRef<str>>(sources: &[S]) -> Option<Vec<Vec<u8>>> {
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
pub(crate) fn split_cached(source: &str) -> Option<(Option<String>, Option<String>)> {
    #[cfg(test)]
    shipped::registry::record(shipped::registry::Asked::Split { source: source.to_owned() });
    let key = shipped::fingerprint([source.as_bytes()]);
    shipped::lookup(Kind::Split, key).and_then(split_from_bytes).map_or_else(|| split_ungated(source), Some)
}

/// A split in the form `shipped.rs` keeps: a flag byte saying which sides there are, then each.
#[cfg(test)]
pub(crate) fn split_to_bytes(split: &(Option<String>, Option<String>)) -> Vec<u8> {
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

/// Lists of literals of which every match of `source` holds one of each (lower case, to be read
/// with ASCII case ignored; a literal marked `true` counts only where no ASCII word character comes
/// before it), or none if nothing is known: the prefix literals when there are some, and the
/// inner literals of up to [`MAX_NEEDS`](super::MAX_NEEDS) required pieces after them, or else
/// one list of [`required`] literals.
#[cfg(test)]
pub(crate) fn needs_of(source: &str) -> Vec<Vec<(Vec<u8>, bool)>> {
    let Ok(hir) = regex_syntax::Parser::new().parse(source) else { return Vec::new() };
    let hir = lower_case(&hir);
    let mut extractor = Extractor::new();
    extractor.kind(ExtractKind::Prefix);
    let mut lists = Vec::new();
    let prefix = prefixes(&extractor, &hir).filter(|list| !list.is_empty() && list.len() <= MAX_INNER);
    if let Some(prefix) = &prefix {
        // A match that must start a word puts each literal after a byte that is not a word byte.
        let start = super::Start::of(&hir);
        let word = |literal: &[u8]| match start {
            super::Start::AfterNonWord => true,
            super::Start::Boundary => {
                literal.first().is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            }
            super::Start::Any => false,
        };
        lists.push(prefix.iter().map(|literal| (literal.to_ascii_lowercase(), word(literal))).collect());
    }
    lists.extend(super::required_lists(&hir, &extractor, prefix.is_some()));
    if lists.is_empty() {
        lists.extend(required(&hir, &extractor));
    }
    for list in &mut lists {
        for (literal, _) in list.iter_mut() {
            literal.make_ascii_lowercase();
        }
    }
    lists
}

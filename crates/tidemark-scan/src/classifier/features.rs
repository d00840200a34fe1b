//! The features a text is scored on: character n-grams, words, word pairs and negated words,
//! hashed to the model's buckets.

use super::{BITS, MASK, MAX_WORD_CHARS};

/// Writes the sorted, distinct feature indices of `view` into `out`.
pub(super) fn extract(view: &str, out: &mut Vec<u32>) {
    out.clear();
    let chars: Vec<char> = collapse(view);
    // Character n-grams, 3 to 5 long, and pairs of characters of scripts written without spaces.
    for start in 0..chars.len() {
        let mut hash = FNV_OFFSET ^ 0x01;
        for (len, &c) in chars[start..].iter().take(5).enumerate() {
            hash = fnv(hash, c as u32);
            let len = len + 1;
            if len >= 3 || (len == 2 && is_unspaced(chars[start])) {
                out.push(bucket(hash ^ len as u32));
            }
        }
    }
    // Words and adjacent pairs, and the words of a clause after a negation once more as negated
    // words ("never delete" and "delete" then weigh differently).
    let mut previous: Option<u32> = None;
    let mut negated = 0u8;
    let mut rest = view;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        // A clause boundary between two words ends the negation's reach.
        if rest[..start].contains([',', '.', ';', ':', '!', '?', '\n', '，', '。', '、']) {
            negated = 0;
        }
        let tail = &rest[start..];
        let len = tail.find(|c: char| !c.is_alphanumeric()).unwrap_or(tail.len());
        let word = &tail[..len];
        rest = &tail[len..];
        if word.chars().count() > MAX_WORD_CHARS {
            previous = None;
            continue;
        }
        let mut hash = FNV_OFFSET ^ 0x02;
        for c in word.chars() {
            hash = fnv(hash, c as u32);
        }
        out.push(bucket(hash));
        if let Some(first) = previous {
            out.push(bucket(fnv(fnv(FNV_OFFSET ^ 0x03, first), hash)));
        }
        if negated > 0 {
            out.push(bucket(fnv(FNV_OFFSET ^ 0x04, hash)));
            negated -= 1;
        }
        if NEGATIONS.contains(&word) {
            negated = 4;
        }
        previous = Some(hash);
    }
    out.sort_unstable();
    out.dedup();
}

/// Negation words of the languages the scan knows, in the folded view's spelling (lower case,
/// Latin accents dropped).
const NEGATIONS: &[&str] = &[
    "not",
    "never",
    "no",
    "don",
    "dont",
    "doesn",
    "didn",
    "won",
    "cannot",
    "nor",
    "without",
    "nunca",
    "jamas",
    "sin",
    "ne",
    "pas",
    "jamais",
    "sans",
    "nicht",
    "nie",
    "kein",
    "keine",
    "niemals",
    "ohne",
    "nao",
    "sem",
    "non",
    "mai",
    "senza",
    "не",
    "никогда",
    "без",
    "нет",
    "ни",
    "لا",
    "لن",
    "لم",
    "بدون",
    "मत",
    "नहीं",
    "कभी",
    "बिना",
    "niet",
    "nooit",
    "zonder",
    "nigdy",
    "bez",
    "değil",
    "asla",
    "không",
    "tidak",
    "jangan",
    "לא",
    "אל",
    "ніколи",
    "안",
    "않",
];

/// The view's characters with runs of whitespace as one space and a space at each end.
fn collapse(view: &str) -> Vec<char> {
    let mut chars = Vec::with_capacity(view.len() + 2);
    chars.push(' ');
    for c in view.chars() {
        if c.is_whitespace() {
            if chars.last() != Some(&' ') {
                chars.push(' ');
            }
        } else {
            chars.push(c);
        }
    }
    if chars.last() != Some(&' ') {
        chars.push(' ');
    }
    chars
}

/// CJK ideographs, kana, hangul and Thai: scripts whose words are not separated by spaces.
fn is_unspaced(c: char) -> bool {
    matches!(c as u32, 0x0E00..=0x0E7F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

const FNV_OFFSET: u32 = 0x811C_9DC5;
const FNV_PRIME: u32 = 0x0100_0193;

fn fnv(mut hash: u32, value: u32) -> u32 {
    for byte in value.to_le_bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

fn bucket(hash: u32) -> u32 {
    // Fold the high bits in: FNV's low bits alone mix poorly.
    (hash ^ (hash >> BITS)) & MASK
}

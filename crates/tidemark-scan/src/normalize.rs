//! The matching views of a text: what the phrase and exfiltration checks read besides the text
//! itself.
//!
//! The hidden-character and escape checks always look at the original text. Everything else also
//! looks at views that undo the usual ways of dodging a phrase filter:
//!
//! - [`view`]: Unicode NFKC (full-width letters, ligatures, mathematical alphabets and other
//!   compatibility forms become their plain letters), invisible format characters removed
//!   (zero-width characters, bidi controls, the soft hyphen, tag characters, variation selectors),
//!   and lower case.
//! - [`folded`]: the view with look-alike letters folded to ASCII. A Cyrillic `о` or a Greek `ο`
//!   inside "ignоre" becomes `o`, and accents on Latin letters are dropped (`olvídate` becomes
//!   `olvidate`). The fold uses the confusable table of Unicode Technical Standard 39 from the
//!   `unicode-security` crate, one character at a time, and only for non-ASCII characters whose
//!   skeleton is plain ASCII. ASCII itself is never touched: a whole-string UTS-39 skeleton also
//!   maps ASCII (`m` to `rn`, `l` to `I`), which would turn "from" into "frorn" and break every
//!   English pattern. `decancer` was the other candidate; it folds far more aggressively (whole
//!   scripts to lower-case ASCII), which would destroy the Russian, Arabic and Hindi text the cues
//!   need to read, and it brings a larger table for little gain here. Hangul syllables stay whole
//!   (NFD would split them into jamo and the fold would read ㅇ as `o`); the injection classifier
//!   still reads the older, split spelling ([`folded_jamo`]) until it is trained again.
//! - [`Decoder::decoded`]: base64, base32, hex, percent-encoded and `\\u`/`&#` escaped runs decoded, when the result is readable
//!   UTF-8 text. Bounded by [`MAX_RUNS`], [`MAX_DECODED_BYTES`] and [`MAX_DEPTH`], so the work
//!   stays linear in the input.
//!
//! None of these functions panics, whatever the input.

use crate::lazy::Regex;
use base64::Engine as _;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, general_purpose};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// At most this many runs of each encoding are decoded per level.
pub(super) const MAX_RUNS: usize = 16;
/// At most this many bytes of readable decoded text are produced for one scanned text, over all
/// levels.
pub(super) const MAX_DECODED_BYTES: usize = 64 * 1024;
/// Decoded text is itself searched for encoded runs this many times at most (base64 inside hex).
pub(super) const MAX_DEPTH: usize = 2;
/// Encoded runs longer than this are skipped rather than decoded.
const MAX_RUN_LEN: usize = 16 * 1024;

/// Whether a character is invisible formatting that a filter-dodging text puts between letters.
/// The original text is judged by the stricter check in `rules.rs`; here they are only removed.
fn is_removed_for_matching(c: char) -> bool {
    super::rules::is_invisible_format(c)
        || super::rules::is_variation_selector(c)
        || matches!(c, '\u{200C}' | '\u{200D}' | '\u{E0000}'..='\u{E007F}' | '\u{034F}')
        || is_dropped_mark(c)
}

/// Marks that change nothing a phrase filter cares about and that can be sprinkled into a word to
/// split it: the Devanagari nukta (spelling variants of borrowed sounds), the Arabic tatweel
/// (a stretching stroke), the Arabic short-vowel marks, and the Hebrew vowel points and
/// cantillation marks (everyday Hebrew is written without them; the maqaf, paseq and sof pasuq
/// between them are punctuation and stay).
fn is_dropped_mark(c: char) -> bool {
    matches!(
        c,
        '\u{093C}'
            | '\u{0640}'
            | '\u{064B}'..='\u{065F}'
            | '\u{0670}'
            | '\u{0591}'..='\u{05BD}'
            | '\u{05BF}'
            | '\u{05C1}'..='\u{05C2}'
            | '\u{05C4}'..='\u{05C5}'
            | '\u{05C7}'
    )
}

/// NFKC, invisible formatting removed, lower case.
pub(super) fn view(text: &str) -> String {
    // NFKC leaves ASCII as it is, so an ASCII text needs only its case folded.
    if text.is_ascii() && !text.chars().any(is_removed_for_matching) {
        return text.to_ascii_lowercase();
    }
    view_unicode(text)
}

/// [`view`] for any text.
pub(super) fn view_unicode(text: &str) -> String {
    let stripped = text.chars().filter(|&c| !is_removed_for_matching(c));
    let mut out = String::with_capacity(text.len());
    for c in stripped.nfkc() {
        // Invisible characters can come back out of NFKC only if they were there before, but the
        // filter is cheap, so it runs again.
        if is_removed_for_matching(c) {
            continue;
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The view with non-ASCII look-alikes of ASCII letters folded to ASCII and accents on ASCII
/// letters dropped. ASCII characters are kept as they are.
pub(super) fn folded(view: &str) -> String {
    // Every ASCII character is kept as it is (and NFD leaves ASCII alone).
    if view.is_ascii() {
        return view.to_owned();
    }
    folded_unicode(view)
}

/// [`folded`] for any text.
pub(super) fn folded_unicode(view: &str) -> String {
    fold(view, true)
}

/// [`folded`] as the injection classifier was trained on it: Hangul taken apart into jamo, and
/// ㅇ read as "o". The shipped model's features are kept as they are until it is retrained.
pub(super) fn folded_jamo(view: &str) -> String {
    if view.is_ascii() {
        return view.to_owned();
    }
    fold(view, false)
}

/// The folding of [`folded`]; `keep_hangul` leaves Hangul syllables whole.
fn fold(view: &str, keep_hangul: bool) -> String {
    let mut out = String::with_capacity(view.len());
    let mut buf = [0u8; 4];
    for c in view.nfd() {
        // Hangul comes out of NFD as jamo, and the skeleton would turn ㅇ into "o".
        if c.is_ascii() || (keep_hangul && is_hangul_jamo(c)) {
            out.push(c);
            continue;
        }
        if is_combining_mark(c) {
            // A mark on an ASCII letter is an accent to drop; on anything else (Devanagari vowel
            // signs, Arabic harakat) it is part of the letter.
            if out.chars().next_back().is_some_and(|last| last.is_ascii_alphabetic()) {
                continue;
            }
            out.push(c);
            continue;
        }
        if let Some(letter) = small_capital(c) {
            out.push(letter);
            continue;
        }
        let single: &str = c.encode_utf8(&mut buf);
        let mut skeleton = String::new();
        for s in unicode_security::confusable_detection::skeleton(single) {
            if skeleton.len() > 8 {
                break;
            }
            skeleton.push(s);
        }
        let skeleton: String = skeleton.chars().filter(|&s| !is_combining_mark(s)).collect();
        if !skeleton.is_empty() && skeleton.bytes().all(|b| b.is_ascii_alphanumeric()) {
            out.push_str(&skeleton.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    // Recompose what was not folded, so native text reads the same as in the view.
    out.nfc().collect()
}

/// Whether `c` is a conjoining Hangul jamo, a piece of a syllable that NFD took apart.
fn is_hangul_jamo(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{A960}'..='\u{A97F}' | '\u{D7B0}'..='\u{D7FF}')
}

/// The ASCII letter a Latin small capital stands for. UTS-39 does not list them as confusable with
/// ASCII, but "ɪɢɴᴏʀᴇ" reads as "ignore" to every model.
fn small_capital(c: char) -> Option<char> {
    const TABLE: &[(char, char)] = &[
        ('\u{1D00}', 'a'),
        ('\u{0299}', 'b'),
        ('\u{1D04}', 'c'),
        ('\u{1D05}', 'd'),
        ('\u{1D07}', 'e'),
        ('\u{A730}', 'f'),
        ('\u{0262}', 'g'),
        ('\u{029C}', 'h'),
        ('\u{026A}', 'i'),
        ('\u{1D0A}', 'j'),
        ('\u{1D0B}', 'k'),
        ('\u{029F}', 'l'),
        ('\u{1D0D}', 'm'),
        ('\u{0274}', 'n'),
        ('\u{1D0F}', 'o'),
        ('\u{1D18}', 'p'),
        ('\u{0280}', 'r'),
        ('\u{A731}', 's'),
        ('\u{1D1B}', 't'),
        ('\u{1D1C}', 'u'),
        ('\u{1D20}', 'v'),
        ('\u{1D21}', 'w'),
        ('\u{028F}', 'y'),
        ('\u{1D22}', 'z'),
    ];
    TABLE.iter().find(|&&(small, _)| small == c).map(|&(_, letter)| letter)
}

/// The view with words put back together: separators inside a word dropped ("instruct-ions",
/// "ig_nore") and runs of three or more single letters joined ("i g n o r e"). Only the phrase
/// cues read it; a joined list such as "a b c" harms nothing.
pub(super) fn joined(view: &str) -> String {
    let chars: Vec<char> = view.chars().collect();
    let letter = |i: usize| chars.get(i).is_some_and(|c| c.is_alphabetic());
    let spacer = |i: usize| chars.get(i).is_some_and(|&c| matches!(c, ' ' | '.' | '-' | '_' | '*' | '·'));
    let mut out = String::with_capacity(view.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let starts_word = i == 0 || !letter(i - 1);
        if letter(i) && starts_word && !letter(i + 1) {
            // Count single letters separated by one spacer each, the same one all along: in
            // "i.g.n.o.r.e p.r.e.v" the space ends a word instead of joining the next.
            let mut end = i;
            let same = chars.get(i + 1).copied();
            while spacer(end + 1)
                && chars.get(end + 1).copied() == same
                && letter(end + 2)
                && !letter(end + 3)
            {
                end += 2;
            }
            if (end - i) / 2 + 1 >= 3 {
                out.extend((i..=end).step_by(2).filter_map(|j| chars.get(j)));
                i = end + 1;
                continue;
            }
        }
        let inner = matches!(c, '-' | '_' | '*' | '·') && i > 0 && letter(i - 1) && letter(i + 1);
        if !inner {
            out.push(c);
        }
        i += 1;
    }
    deleet(&out)
}

/// Leetspeak undone inside words that mix ASCII letters with digits or `@`/`$` ("1gn0r3" becomes
/// "ignore", "pr3v10us" becomes "previous"). Words of digits only are left alone.
fn deleet(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let is_part = |c: char| c.is_ascii_alphanumeric() || matches!(c, '@' | '$');
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let letters = word.bytes().any(|b| b.is_ascii_alphabetic());
        let swaps = word.bytes().any(|b| b.is_ascii_digit() || b == b'@' || b == b'$');
        if letters && swaps {
            out.extend(word.chars().map(|c| match c {
                '0' => 'o',
                '1' => 'i',
                '3' => 'e',
                '4' | '@' => 'a',
                '5' | '$' => 's',
                '7' => 't',
                '8' => 'b',
                other => other,
            }));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if is_part(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The patterns that find encoded runs.
pub(super) struct Decoder {
    base64: Regex,
    base32: Regex,
    hex: Regex,
    percent: Regex,
    escapes: Regex,
    /// A line with markup written as character references (`&lt;system&gt;`), as HTML and feeds
    /// carry it.
    entities: Regex,
    binary: Regex,
    /// A lead-in that asks for a letter rotation or a reversal ("apply rot13", "read this
    /// backwards"): only then are the rotated and reversed forms of a text read too.
    transform_lead: Regex,
}

/// Base64 that tolerates missing padding, for both the standard and the URL-safe alphabet.
const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

impl Decoder {
    /// Compiles the run patterns, or `None` if one fails (it never does; a unit test checks).
    pub(super) fn compile() -> Option<Self> {
        Some(Self {
            // 16 characters decode to 12 bytes, enough for a short order.
            base64: Regex::new(r"[A-Za-z0-9+/_\-]{16,}={0,2}"),
            // Upper-case RFC 4648 base32, as produced by `base32` and most encoders.
            base32: Regex::new(r"[A-Z2-7]{16,}={0,6}"),
            // Plain hex pairs, or `\x41`, `0x41` and `%41`-free spaced forms such as `41 42 43`.
            hex: Regex::new(
                r"(?i)(?:\\x[0-9a-f]{2}){6,}|(?:0x)?(?:[0-9a-f]{2}){8,}|(?:[0-9a-f]{2}[ :]){7,}[0-9a-f]{2}",
            ),
            // Text with at least three escapes, possibly mixed with plain characters.
            percent: Regex::new(r"(?:[^\s%]*%[0-9A-Fa-f]{2}){3,}[^\s%]*"),
            // `\u0069\u0067…` (JSON, JavaScript) and `&#105;&#x67;…` (HTML) character escapes,
            // possibly mixed with plain characters.
            escapes: Regex::new(
                r"(?i)(?:[^\s\\&]{0,20}(?:\\u[0-9a-f]{4}|\\u\{[0-9a-f]{1,6}\}|&#x[0-9a-f]{1,6};|&#[0-9]{1,7};)){4,}[^\s\\&]*",
            ),
            // A line with at least two references to `<`, `>`, quotes or `&`, decoded whole.
            entities: Regex::new(
                r"(?i)(?:[^\n&]{0,400}&(?:lt|gt|quot|apos|amp|#0*(?:60|62|34|39)|#x0*(?:3c|3e|22|27));){2,}[^\n]{0,400}",
            ),
            // Eight-bit groups: `01101001 01100111 …`.
            binary: Regex::new(r"(?:[01]{8}[\s,]*){4,}"),
            transform_lead: Regex::new(
                r"(?i)\brot[- ]?13\b|\bcaesar\b|\bbackwards?\b|\breversed?\b|\bin reverse\b|\bright[- ]to[- ]left\b|\bmirror(?:ed)?\b",
            ),
        })
    }

    /// Decoded runs of `text` that are readable text, searched again inside what they decode to
    /// up to [`MAX_DEPTH`] levels. The total output is at most [`MAX_DECODED_BYTES`].
    pub(super) fn decoded(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut budget = MAX_DECODED_BYTES;
        let transforms = self.transform_lead.is_match(text);
        let mut level = vec![text.to_owned()];
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for source in &level {
                for decoded in self.decode_level(source, &mut budget) {
                    next.push(decoded);
                }
                if transforms {
                    // The rotated and the reversed text, whole: a lead-in asked for one of them.
                    for transformed in [rot13(source), source.chars().rev().collect()] {
                        if transformed.len() > budget {
                            break;
                        }
                        budget -= transformed.len();
                        next.push(transformed);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            out.extend(next.iter().cloned());
            level = next;
        }
        out
    }

    /// One level of decoding: every encoded run of `text` that decodes to readable text.
    fn decode_level(&self, text: &str, budget: &mut usize) -> Vec<String> {
        let mut out = Vec::new();
        let encodings = [
            (Encoding::Base64, &self.base64),
            (Encoding::Base32, &self.base32),
            (Encoding::Hex, &self.hex),
            (Encoding::Percent, &self.percent),
            (Encoding::Escapes, &self.escapes),
            (Encoding::Escapes, &self.entities),
            (Encoding::Binary, &self.binary),
        ];
        for (encoding, pattern) in encodings {
            // Each encoding gets its own run limit, so a text full of long words cannot use up the
            // attempts before a hex or percent-encoded run is reached.
            let runs = pattern.find_iter(text).filter(|m| m.len() <= MAX_RUN_LEN).take(MAX_RUNS);
            for run in runs {
                let Some(decoded) = encoding.decode(run.as_str()).and_then(readable_text) else { continue };
                // Only readable output counts against the budget: padding a text with binary blobs
                // does not push a real payload out.
                if decoded.len() > *budget {
                    return out;
                }
                *budget -= decoded.len();
                if decoded != run.as_str() {
                    out.push(decoded);
                }
            }
        }
        out
    }
}

/// The encodings the decoder knows.
#[derive(Clone, Copy)]
enum Encoding {
    Base64,
    Base32,
    Hex,
    Percent,
    /// `\uXXXX`, HTML numeric character references and the five named ones of XML.
    Escapes,
    /// Bytes written as groups of eight binary digits.
    Binary,
}

/// `text` with every ASCII letter rotated by 13 places (rot13 is its own inverse).
fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='m' | 'A'..='M' => char::from(c as u8 + 13),
            'n'..='z' | 'N'..='Z' => char::from(c as u8 - 13),
            _ => c,
        })
        .collect()
}

impl Encoding {
    /// The decoded bytes, or `None` if the run is not valid in this encoding.
    fn decode(self, run: &str) -> Option<Vec<u8>> {
        match self {
            Self::Base64 => {
                let body = run.trim_end_matches('=');
                if body.contains(['-', '_']) {
                    URL_SAFE.decode(body).ok()
                } else {
                    STANDARD.decode(body).ok().or_else(|| general_purpose::STANDARD.decode(run).ok())
                }
            }
            Self::Base32 => {
                let mut out = Vec::with_capacity(run.len() * 5 / 8);
                let (mut buffer, mut bits) = (0u32, 0u32);
                for b in run.trim_end_matches('=').bytes() {
                    let value = match b {
                        b'A'..=b'Z' => b - b'A',
                        b'2'..=b'7' => b - b'2' + 26,
                        _ => return None,
                    };
                    buffer = (buffer << 5 | u32::from(value)) & 0xFFFF;
                    bits += 5;
                    if bits >= 8 {
                        bits -= 8;
                        out.push(u8::try_from((buffer >> bits) & 0xFF).ok()?);
                    }
                }
                Some(out)
            }
            Self::Hex => {
                let digits: Vec<u8> = run
                    .strip_prefix("0x")
                    .or_else(|| run.strip_prefix("0X"))
                    .unwrap_or(run)
                    .bytes()
                    .filter(u8::is_ascii_hexdigit)
                    .collect();
                // In `\x41` forms the `x` is not a hex digit, so only the pairs remain.
                digits
                    .chunks_exact(2)
                    .map(|pair| Some(hex_value(pair[0])? * 16 + hex_value(pair[1])?))
                    .collect()
            }
            Self::Escapes => Some(unescape(run).into_bytes()),
            Self::Binary => run
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|group| !group.is_empty())
                .map(|group| u8::from_str_radix(group, 2).ok())
                .collect(),
            Self::Percent => {
                let bytes = run.as_bytes();
                let mut out = Vec::with_capacity(bytes.len());
                let mut i = 0;
                while i < bytes.len() {
                    let b = bytes[i];
                    if b == b'%'
                        && let (Some(&h), Some(&l)) = (bytes.get(i + 1), bytes.get(i + 2))
                        && let (Some(h), Some(l)) = (hex_value(h), hex_value(l))
                    {
                        out.push(h * 16 + l);
                        i += 3;
                        continue;
                    }
                    out.push(if b == b'+' { b' ' } else { b });
                    i += 1;
                }
                Some(out)
            }
        }
    }
}

/// Replaces `\uXXXX`, `\u{X…}`, `&#N;` and `&#xX;` escapes and the named references `&lt;`,
/// `&gt;`, `&quot;`, `&apos;` and `&amp;` by their characters; anything that is not a valid escape
/// of a valid character is kept as it is.
fn unescape(run: &str) -> String {
    let mut out = String::with_capacity(run.len());
    let mut rest = run;
    while let Some(c) = rest.chars().next() {
        let lower = rest.get(..3).map(str::to_ascii_lowercase).unwrap_or_default();
        let parsed = if rest.starts_with("\\u{") || rest.starts_with("\\U{") {
            rest.find('}').and_then(|end| {
                let code = u32::from_str_radix(rest.get(3..end)?, 16).ok()?;
                Some((char::from_u32(code)?, end + 1))
            })
        } else if rest.starts_with("\\u") || rest.starts_with("\\U") {
            rest.get(2..6)
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .and_then(char::from_u32)
                .map(|ch| (ch, 6))
        } else if lower == "&#x" {
            rest.find(';').and_then(|end| {
                let code = u32::from_str_radix(rest.get(3..end)?, 16).ok()?;
                Some((char::from_u32(code)?, end + 1))
            })
        } else if let Some((ch, used)) = named_reference(rest) {
            Some((ch, used))
        } else if rest.starts_with("&#") {
            rest.find(';').and_then(|end| {
                let code = rest.get(2..end)?.parse::<u32>().ok()?;
                Some((char::from_u32(code)?, end + 1))
            })
        } else {
            None
        };
        match parsed {
            Some((ch, used)) => {
                out.push(ch);
                rest = rest.get(used..).unwrap_or_default();
            }
            None => {
                out.push(c);
                rest = rest.get(c.len_utf8()..).unwrap_or_default();
            }
        }
    }
    out
}

/// The character of a named XML reference at the start of `rest` and the bytes it takes.
fn named_reference(rest: &str) -> Option<(char, usize)> {
    const NAMED: [(&str, char); 5] =
        [("&lt;", '<'), ("&gt;", '>'), ("&quot;", '"'), ("&apos;", '\''), ("&amp;", '&')];
    NAMED.iter().find_map(|(name, ch)| {
        rest.get(..name.len()).filter(|head| head.eq_ignore_ascii_case(name)).map(|_| (*ch, name.len()))
    })
}

/// [`unescape`] for the unit tests.
#[cfg(test)]
pub(super) fn unescape_for_tests(run: &str) -> String {
    unescape(run)
}

/// The value of one hex digit.
fn hex_value(digit: u8) -> Option<u8> {
    char::from(digit).to_digit(16).and_then(|v| u8::try_from(v).ok())
}

/// The bytes as a string if they are UTF-8 text a person could read: at least four characters,
/// no control characters other than whitespace, and mostly letters, digits, spaces and punctuation.
fn readable_text(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    let mut total = 0usize;
    let mut plain = 0usize;
    for c in text.chars() {
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
            return None;
        }
        total += 1;
        if c.is_alphanumeric() || c.is_whitespace() || c.is_ascii_punctuation() {
            plain += 1;
        }
    }
    (total >= 4 && plain * 10 >= total * 9).then_some(text)
}

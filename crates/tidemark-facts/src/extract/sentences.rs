//! Sentence splitting for the extractor: fenced and unfenced code skipped, list markers dropped, stops told apart from abbreviations and file names.

use super::code::{indented, looks_like_code};

/// The longest sentence considered, in characters: longer ones are pasted text, not statements.
pub(super) const MAX_SENTENCE_CHARS: usize = 400;

/// Words ending in a full stop that do not end a sentence.
pub(super) const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "mr", "mrs", "ms", "dr", "prof", "st", "jr",
    "sr", "inc", "ltd", "co", "corp", "dept", "fig", "al", "min", "max", "sec", "ca",
];

/// The sentences of `text`: outside fenced code blocks and code lines, split at line breaks
/// and at `.`, `!`, `?` (or `…` and the CJK stops) followed by white space,
/// trimmed, with list and quote markers removed, and at most
/// [`MAX_SENTENCE_CHARS`] characters long.
///
/// A stop not followed by white space splits nothing, so `main.rs`, `3.14`
/// and URLs stay whole; neither do stops inside inline code or after common
/// abbreviations ("e.g.", "etc.", "vs.").
///
/// A line that [`looks_like_code`] is skipped, and so are the indented and
/// blank lines that follow it: unfenced code pasted into a message is a block
/// whose body lines may read like prose on their own.
pub(super) fn split_sentences(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut in_fence = false;
    let mut in_code = false;
    for line in text.split(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}']) {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("```").or_else(|| trimmed.strip_prefix("~~~")) {
            // A fence on one line ("```code```") opens and closes at once.
            if !(rest.contains("```") || rest.contains("~~~")) {
                in_fence = !in_fence;
            }
            continue;
        }
        if in_fence {
            continue;
        }
        if in_code && (trimmed.is_empty() || indented(line)) {
            continue;
        }
        in_code = looks_like_code(line);
        if !in_code {
            split_line(strip_markers(trimmed), &mut sentences);
        }
    }
    sentences
}

/// `line` without leading list bullets, numbers and quote markers.
pub(super) fn strip_markers(mut line: &str) -> &str {
    loop {
        let before = line;
        for marker in ["- ", "* ", "• ", "+ ", "> ", ">"] {
            if let Some(rest) = line.strip_prefix(marker) {
                line = rest.trim_start();
            }
        }
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if (1..=3).contains(&digits) {
            let rest = &line[digits..];
            if let Some(rest) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
                line = rest.trim_start();
            }
        }
        if line.len() == before.len() {
            return line;
        }
    }
}

/// Splits one line into sentences, appending them to `out`.
pub(super) fn split_line<'a>(line: &'a str, out: &mut Vec<&'a str>) {
    let mut start = 0;
    let mut in_code = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '`' => in_code = !in_code,
            '.' | '!' | '?' | '…' | '。' | '！' | '？' if !in_code => {
                let mut end = at + c.len_utf8();
                let mut single_stop = c == '.';
                // Take the whole run of stops and any closing quotes or brackets.
                while let Some(&(next_at, next)) = chars.peek() {
                    if matches!(next, '.' | '!' | '?' | '…' | '。' | '！' | '？') {
                        single_stop = false;
                    } else if !matches!(next, '"' | '\'' | ')' | ']' | '”' | '’' | '»' | '*' | '_') {
                        break;
                    }
                    end = next_at + next.len_utf8();
                    chars.next();
                }
                let at_break = chars.peek().is_none_or(|&(_, next)| next.is_whitespace());
                let wide_stop = matches!(c, '。' | '！' | '？');
                // "Employee no. 88123": "no." before a number abbreviates "number".
                let numero = single_stop
                    && ends_in_numero(&line[start..at])
                    && line[end..].trim_start().starts_with(|c: char| c.is_ascii_digit());
                if (at_break || wide_stop)
                    && !numero
                    && !(single_stop && ends_in_abbreviation(&line[start..at]))
                {
                    push_sentence(&line[start..end], out);
                    start = end;
                }
            }
            _ => {}
        }
    }
    push_sentence(&line[start..], out);
}

/// Whether the last word of `text` is a known abbreviation (compared without case).
pub(super) fn ends_in_abbreviation(text: &str) -> bool {
    let word = text.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    !word.is_empty()
        && word.len() <= 8
        && ABBREVIATIONS.iter().any(|abbreviation| abbreviation.eq_ignore_ascii_case(word))
}

/// Whether the last word of `text` is "no" or "nr", the abbreviations of "number" before one.
fn ends_in_numero(text: &str) -> bool {
    let word = text.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    word.eq_ignore_ascii_case("no") || word.eq_ignore_ascii_case("nr")
}

/// Appends `sentence` trimmed, when it has a letter or digit and is not too long.
pub(super) fn push_sentence<'a>(sentence: &'a str, out: &mut Vec<&'a str>) {
    let sentence = sentence.trim();
    let too_long = sentence.len() > MAX_SENTENCE_CHARS && sentence.chars().count() > MAX_SENTENCE_CHARS;
    if !too_long && sentence.chars().any(char::is_alphanumeric) {
        out.push(sentence);
    }
}

//! The search tokenizer: lowercase words of letters and digits, identifiers kept whole beside their parts.

use std::collections::HashSet;

/// The longest term, in characters; a longer word is cut to this length, the same way when indexing and when querying.
pub const MAX_TERM_CHARS: usize = 64;

/// How many bytes of a query are read: a longer query is cut (at a character boundary) before it is tokenised.
pub const MAX_QUERY_BYTES: usize = 4096;

/// The most distinct terms a query searches for.
pub const MAX_QUERY_TERMS: usize = 32;

/// The characters that join words into one identifier, such as `fix/retry-backoff`, `snake_case` or `a.b.c`.
const JOINERS: [char; 4] = ['-', '_', '.', '/'];

/// Words too common to tell passages apart; dropped from queries only, so that the index stays complete.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "did", "do", "does", "for", "from", "had", "has",
    "have", "how", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "why", "will", "with", "you", "your",
];

/// The search terms of `text`, in order, repeats included: the tokenizer every store uses for indexing and for queries.
///
/// A term is a run of letters and digits (in any script), lowercased. Words
/// joined by `-`, `_`, `.` or `/` form an identifier, which yields itself
/// whole and then each of its parts, so that a search finds it by either.
/// A word (or part) written in camel case yields itself and then its words
/// (`UnblendedCost`: `unblendedcost`, `unblended`, `cost`), so that a question
/// in plain words finds the key of a tool's JSON or YAML output.
/// Joiners at the ends of a word (a full stop, a leading dash) are not part
/// of it. Every other character separates terms, and a term longer than
/// [`MAX_TERM_CHARS`] characters is cut to that length.
///
/// ```
/// use tidemark_core::recall::terms;
///
/// assert_eq!(terms("Deploy to europe-west4."), ["deploy", "to", "europe-west4", "europe", "west4"]);
/// assert_eq!(terms("INC-20931"), ["inc-20931", "inc", "20931"]);
/// assert_eq!(terms("fix/retry-backoff-7781"), ["fix/retry-backoff-7781", "fix", "retry", "backoff", "7781"]);
/// assert_eq!(terms("call snake_case_name()"), ["call", "snake_case_name", "snake", "case", "name"]);
/// assert_eq!(terms("\"UnblendedCost\": 2816Mi"), ["unblendedcost", "unblended", "cost", "2816mi"]);
/// assert_eq!(terms("pod OOMKilled, the APIs"), ["pod", "oomkilled", "oom", "killed", "the", "apis"]);
/// assert_eq!(terms("Größe: ÉTÉ"), ["größe", "été"]);
/// assert!(terms(" \"*\" NEAR( -- ").iter().all(|term| term == "near"));
/// ```
pub fn terms(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    each_term(text, |term| found.push(term.to_owned()));
    found
}

/// Call `visit` with each of [`terms`]'s terms, in the same order, without allocating one string per term.
pub(super) fn each_term(text: &str, mut visit: impl FnMut(&str)) {
    let mut lowered = String::new();
    let mut emit = |word: &str| visit(term_in(word, &mut lowered));
    for chunk in text.split(|c: char| !(c.is_alphanumeric() || JOINERS.contains(&c))) {
        let word = chunk.trim_matches(|c: char| JOINERS.contains(&c));
        if word.is_empty() {
            continue;
        }
        let mut parts = word.split(|c: char| JOINERS.contains(&c)).filter(|part| !part.is_empty());
        let first = parts.next().unwrap_or(word);
        match parts.next() {
            None => {
                emit(first);
                each_hump(first, &mut emit);
            }
            Some(second) => {
                emit(word);
                for part in [first, second].into_iter().chain(parts) {
                    emit(part);
                    each_hump(part, &mut emit);
                }
            }
        }
    }
}

/// Call `visit` with each word of a camel-case identifier (`UnblendedCost`, `initialDelaySeconds`,
/// `OOMKilled`, `HTTPServer`), when it has two words or more and each has two characters or more;
/// otherwise not at all.
///
/// A word starts at a capital that follows a small letter, or at a capital that follows a capital
/// and comes before two small letters or more (so `HTTPServer` is `HTTP` and `Server`, while the
/// plural `APIs` stays whole). A number and its unit stay one word (`2816Mi`), and so do words with
/// a part of one letter (`iPhone`, `PhD`), which would find too much.
fn each_hump(word: &str, visit: impl FnMut(&str)) {
    // Most words have no capital past their first letter: they are read once, without allocating.
    if !word.chars().skip(1).any(char::is_uppercase) {
        return;
    }
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut starts = vec![0];
    for (place, &(at, c)) in chars.iter().enumerate().skip(1) {
        if !c.is_uppercase() {
            continue;
        }
        let before = chars[place - 1].1;
        let small_after = chars[place + 1..].iter().take_while(|(_, c)| c.is_lowercase()).count();
        if before.is_lowercase() || (before.is_uppercase() && small_after >= 2) {
            starts.push(at);
        }
    }
    if starts.len() < 2 {
        return;
    }
    let ends = starts.iter().skip(1).copied().chain([word.len()]);
    let humps: Vec<&str> = starts.iter().zip(ends).filter_map(|(&start, end)| word.get(start..end)).collect();
    if humps.iter().all(|hump| hump.chars().nth(1).is_some()) {
        humps.into_iter().for_each(visit);
    }
}

/// The distinct terms a query searches for, in the order they first appear.
///
/// Only the first [`MAX_QUERY_BYTES`] bytes are read, common English words
/// (such as `the` or `what`) are dropped, and at most [`MAX_QUERY_TERMS`] terms
/// are kept, so that any query, even a megabyte of text, costs a bounded search.
/// A query with no terms left finds nothing.
///
/// ```
/// use tidemark_core::recall::query_terms;
///
/// assert_eq!(query_terms("What did we decide about the a.b.c flag?"), ["decide", "about", "a.b.c", "b", "c", "flag"]);
/// assert!(query_terms("the AND or -").is_empty());
/// ```
pub fn query_terms(text: &str) -> Vec<String> {
    let mut end = text.len().min(MAX_QUERY_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for term in terms(&text[..end]) {
        if kept.len() == MAX_QUERY_TERMS {
            break;
        }
        if !STOP_WORDS.contains(&term.as_str()) && seen.insert(term.clone()) {
            kept.push(term);
        }
    }
    kept
}

/// One word as a term, lowercased and cut to [`MAX_TERM_CHARS`] characters: the word itself when it is already one, or its term written into `scratch`.
///
/// The term for `word`: the word itself when it is already one, or its lowercased, cut form written into `scratch`.
fn term_in<'a>(word: &'a str, scratch: &'a mut String) -> &'a str {
    if word.is_ascii() {
        let word = &word[..word.len().min(MAX_TERM_CHARS)];
        if !word.bytes().any(|byte| byte.is_ascii_uppercase()) {
            return word;
        }
        scratch.clear();
        scratch.push_str(word);
        scratch.make_ascii_lowercase();
        return scratch;
    }
    *scratch = word.to_lowercase();
    if let Some((cut, _)) = scratch.char_indices().nth(MAX_TERM_CHARS) {
        scratch.truncate(cut);
    }
    scratch
}

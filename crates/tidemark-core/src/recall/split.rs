//! Cutting a message into passages: whole lines packed into short windows, long lines cut between words.

use std::collections::HashSet;

use super::PassageText;
use super::terms::each_term;
use crate::message::{Message, Part};

/// The longest passage, in bytes of UTF-8.
pub const MAX_PASSAGE_BYTES: usize = 384;

/// The version of the rules by which [`passages`] cuts a message.
///
/// A store that keeps something per passage index without the passage's text
/// (SQLite keeps each passage's embedding and cuts the text again when it
/// reads) records this number with it, and makes it again when the number
/// changes: the same index may name another passage under other rules.
/// Version 2 keeps a hard-wrapped sentence with the line that goes on with it.
pub const PASSAGE_RULES: u32 = 2;

/// The passages of `message`, each with its index, in the order of the message's content.
///
/// Text parts, tool results and tool calls (the tool's name, then its
/// arguments as the model wrote them) are searchable; attachments are not.
/// Each part is cut on its own: consecutive lines are packed into one
/// passage while it stays within [`MAX_PASSAGE_BYTES`], and a longer line is
/// cut after a sentence or between words (inside a word only when one word is
/// longer than a passage, and never inside a character). When a passage is
/// full and its last line is hard-wrapped prose that breaks off mid-sentence
/// (several words, ending in a word or a comma, and the next line starting
/// with a letter or a digit), that line opens the next passage instead, so
/// that a sentence and what it goes on to say stay together. Passages without
/// any search term (blank lines, punctuation) are left out, and a NUL
/// character is quoted as U+FFFD, which every database can store.
///
/// ```
/// use tidemark_core::Message;
/// use tidemark_core::recall::{MAX_PASSAGE_BYTES, passages};
///
/// let log: String = (0..100).map(|i| format!("step {i}: ok\n")).collect();
/// let cut = passages(&Message::tool_result("call_1", log + "step 100: INC-20931 raised\n"));
/// assert!(cut.len() > 1 && cut.iter().all(|passage| passage.text.len() <= MAX_PASSAGE_BYTES));
/// let hit = cut.iter().find(|passage| passage.text.contains("INC-20931")).expect("the line is kept");
/// assert_eq!(hit.index as usize, cut.len() - 1);
/// ```
pub fn passages(message: &Message) -> Vec<PassageText> {
    passage_texts(message).into_iter().map(|(index, text)| PassageText::new(index, text)).collect()
}

/// The index and text of each of [`passages`]' passages, without their search terms.
///
/// For a store that ranks with [`rank_texts`](super::rank_texts), which
/// tokenises as it goes.
///
/// ```
/// use tidemark_core::Message;
/// use tidemark_core::recall::{passage_texts, passages};
///
/// let message = Message::user("first line\n---\nINC-20931 raised");
/// let texts = passage_texts(&message);
/// let cut = passages(&message);
/// assert_eq!(texts.len(), cut.len());
/// assert!(texts.iter().zip(&cut).all(|((index, text), passage)| *index == passage.index && *text == passage.text));
/// ```
pub fn passage_texts(message: &Message) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    // A text holds a search term exactly when it holds a letter or a digit.
    for text in texts(message).into_iter().filter(|text| text.chars().any(char::is_alphanumeric)) {
        let index = u32::try_from(found.len()).unwrap_or(u32::MAX);
        found.push((index, text));
    }
    found
}

/// The distinct search terms of all of `message`'s passages, separated by spaces, in the order they first appear.
///
/// This is what an index that finds messages (rather than passages) needs:
/// a message holds a term exactly when one of its [`passages`] does. It is
/// computed without building the passages' term lists.
///
/// ```
/// use tidemark_core::Message;
/// use tidemark_core::recall::index_terms;
///
/// let message = Message::user("Deploy fix/retry-7781 now.\nDeploy it NOW.");
/// assert_eq!(index_terms(&message), "deploy fix/retry-7781 fix retry 7781 now it");
/// assert_eq!(index_terms(&Message::user(" -- ")), "");
/// ```
pub fn index_terms(message: &Message) -> String {
    let mut seen = HashSet::new();
    let mut joined = String::new();
    for text in texts(message) {
        each_term(&text, |term| {
            if !seen.contains(term) {
                seen.insert(term.to_owned());
                if !joined.is_empty() {
                    joined.push(' ');
                }
                joined.push_str(term);
            }
        });
    }
    joined
}

/// The text of each passage of `message`, before passages without terms are left out.
fn texts(message: &Message) -> Vec<String> {
    let mut found = Vec::new();
    for part in &message.parts {
        match part {
            Part::Text { text } => cut(text, &mut found),
            Part::ToolCall(call) => cut(&format!("{} {}", call.name, call.arguments), &mut found),
            Part::ToolResult(result) => cut(&result.content, &mut found),
            // Signed or encrypted provider blocks are not the conversation's words.
            Part::Attachment(_) | Part::Opaque(_) => {}
        }
    }
    found
}

/// Cut one part's text into passages appended to `found`.
fn cut(text: &str, found: &mut Vec<String>) {
    let mut window = String::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.trim_start().is_empty() {
            continue;
        }
        if !window.is_empty() && window.len() + 1 + line.len() > MAX_PASSAGE_BYTES {
            // A wrapped sentence is not cut at the wrap: its broken-off line moves on with the line that continues it.
            let carried = window.rfind('\n').map(|at| at + 1).filter(|&at| {
                breaks_off(&window[at..], line) && window.len() - at + 1 + line.len() <= MAX_PASSAGE_BYTES
            });
            let tail = carried.map(|at| {
                let tail = window.split_off(at);
                // The newline that joined the moved line to the passage.
                window.pop();
                tail
            });
            flush(&mut window, found);
            if let Some(tail) = tail {
                window = tail;
            }
        }
        if line.len() > MAX_PASSAGE_BYTES {
            flush(&mut window, found);
            let mut rest = line.trim_start();
            while rest.len() > MAX_PASSAGE_BYTES {
                let (piece, after) = rest.split_at(cut_point(rest));
                window.push_str(piece.trim_end());
                flush(&mut window, found);
                rest = after.trim_start();
            }
            // The tail of a long line may share its passage with the next lines.
            window.push_str(rest);
            continue;
        }
        if !window.is_empty() {
            window.push('\n');
        }
        window.push_str(line);
    }
    flush(&mut window, found);
}

/// The fewest spaces in a line that reads as wrapped prose rather than a log line or a record.
const PROSE_SPACES: usize = 4;

/// Whether `line` breaks off in the middle of a sentence that `next` goes on with: a line of
/// several words that ends in a word or a comma, followed by a line that starts with a letter or a digit.
///
/// Hard-wrapped text (mail, commit messages, documents) breaks its sentences at a fixed width,
/// and a passage that ends at such a break loses what the sentence goes on to say: "… now begins
/// on" without the date on the next line.
fn breaks_off(line: &str, next: &str) -> bool {
    let ends_open =
        line.trim_end().chars().next_back().is_some_and(|last| last.is_alphanumeric() || last == ',');
    ends_open
        && line.trim().matches(' ').count() >= PROSE_SPACES
        && next.trim_start().chars().next().is_some_and(char::is_alphanumeric)
}

/// Where to cut a line longer than a passage: after the last sentence in its second half, else at the last space, else at a character boundary.
fn cut_point(line: &str) -> usize {
    let mut limit = MAX_PASSAGE_BYTES;
    while !line.is_char_boundary(limit) {
        limit -= 1;
    }
    let head = &line[..limit];
    let sentence = head
        .rmatch_indices(['.', '!', '?'])
        .map(|(at, mark)| at + mark.len())
        .find(|&end| end >= limit / 2 && head[end..].starts_with(char::is_whitespace));
    if let Some(end) = sentence {
        return end;
    }
    match head.rfind(char::is_whitespace) {
        Some(space) if space > 0 => space,
        // One word longer than a passage: a cut inside it cannot be avoided.
        _ if limit > 0 => limit,
        // A first character wider than a passage cannot happen (4 bytes at most), but never return 0.
        _ => line.chars().next().map_or(line.len(), char::len_utf8),
    }
}

/// Turn the window into a passage's text, and empty it.
fn flush(window: &mut String, found: &mut Vec<String>) {
    if window.is_empty() {
        return;
    }
    let mut text = std::mem::take(window);
    if text.contains('\0') {
        // PostgreSQL's text cannot hold NUL, and a passage must read the same from every store.
        text = text.replace('\0', "\u{fffd}");
    }
    found.push(text);
}

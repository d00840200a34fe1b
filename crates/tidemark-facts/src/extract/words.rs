//! Word lists and text helpers of the extractor: function words, reactions and hedges, object checks, and the quoted and cut forms of candidate texts.

use tidemark_core::fact::keywords;

use super::code::looks_like_code;
use super::rules::Rules;

/// Function words: they do not make a question substantial or an object meaningful on their own.
pub(super) const STOPWORDS: &[&str] = &[
    "a", "about", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "d", "did", "do", "does", "doing", "done", "for", "from", "going", "good", "got", "had",
    "has", "have", "he", "hello", "her", "hey", "hi", "him", "his", "how", "i", "if", "in", "is", "it",
    "its", "just", "ll", "m", "me", "mean", "more", "my", "no", "not", "now", "of", "ok", "okay", "on",
    "one", "or", "our", "please", "re", "really", "right", "s", "she", "so", "some", "sure", "t", "than",
    "thank", "thanks", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "to", "too", "up", "us", "ve", "very", "was", "we", "well", "were", "what", "when", "where", "which",
    "who", "why", "will", "with", "would", "yes", "you", "your", "yours", "help", "know", "tell", "think",
];

/// First words that make an object a reference to something said before ("I prefer this one").
pub(super) const REFERENCES: &[&str] = &[
    "this", "these", "those", "them", "him", "her", "yours", "your", "his", "their", "theirs", "one", "how",
    "what", "so", "too", "either", "both",
];

/// Words after "I'm" that are states, not names ("I'm Sorry" typed in title case).
/// Things one is "in" that are not where one lives: apps, meetings, stages, states.
pub(super) const NOT_PLACES: &[&str] = &[
    "slack",
    "teams",
    "zoom",
    "meet",
    "figma",
    "excel",
    "sheets",
    "jira",
    "notion",
    "confluence",
    "github",
    "gitlab",
    "vim",
    "emacs",
    "photoshop",
    "chrome",
    "safari",
    "firefox",
    "outlook",
    "gmail",
    "xcode",
    "meetings",
    "meeting",
    "standup",
    "production",
    "prod",
    "staging",
    "beta",
    "alpha",
    "debug",
    "charge",
    "love",
    "trouble",
    "luck",
    "agreement",
    "favour",
    "favor",
    "office",
    "bed",
    "transit",
    "town",
    "class",
    "court",
    "hospital",
    "school",
    "session",
    "review",
    "progress",
    "order",
];

pub(super) const NOT_NAMES: &[&str] = &[
    "sorry",
    "done",
    "fine",
    "good",
    "back",
    "here",
    "ready",
    "sure",
    "not",
    "happy",
    "glad",
    "confused",
    "stuck",
    "lost",
    "still",
    "also",
    "just",
    "really",
    "so",
    "very",
    "using",
    "trying",
    "working",
    "going",
    "getting",
    "looking",
    "running",
    "afraid",
    "okay",
    "ok",
    "excited",
    "curious",
    "interested",
    "aware",
    "unsure",
    "busy",
    "late",
    "tired",
    "gonna",
    "about",
    "always",
    "never",
    "currently",
    "now",
    "new",
    "on",
    "in",
    "at",
    "from",
    "with",
    "off",
    "out",
    "away",
    "home",
    "well",
    "thinking",
    "wondering",
    "hoping",
];

/// Openings of a claim that is a reaction, not a correction ("No, thanks.", "Actually, that works.").
pub(super) const REACTIONS: &[&str] = &[
    "thanks",
    "thank",
    "problem",
    "problems",
    "worries",
    "worry",
    "need",
    "fine",
    "good",
    "great",
    "perfect",
    "cool",
    "nice",
    "ok",
    "okay",
    "sure",
    "yes",
    "yeah",
    "yep",
    "nope",
    "wait",
    "hmm",
    "sorry",
    "never",
    "nevermind",
    "maybe",
    "alright",
    "lol",
    "haha",
    "nothing",
    "whatever",
    "idk",
];

/// Two-word openings of a claim that is a reaction or a hedge.
pub(super) const REACTION_PAIRS: &[(&str, &str)] = &[
    ("it's", "fine"),
    ("that's", "fine"),
    ("that", "works"),
    ("that's", "ok"),
    ("that's", "okay"),
    ("that's", "it"),
    ("that's", "all"),
    ("that's", "great"),
    ("all", "good"),
    ("sounds", "good"),
    ("looks", "good"),
    ("go", "ahead"),
    ("i", "think"),
    ("i", "guess"),
    ("i", "don't"),
    ("i'm", "not"),
    ("not", "yet"),
    ("not", "really"),
    ("let", "me"),
    ("hold", "on"),
    ("never", "mind"),
];

/// Words after "not" in "not X but Y" that make it a hedge, not a correction ("not ideal but it works").
pub(super) const NOT_BUT_HEDGES: &[&str] = &[
    "only",
    "just",
    "sure",
    "that",
    "much",
    "too",
    "very",
    "ideal",
    "great",
    "perfect",
    "bad",
    "pretty",
    "optimal",
    "always",
    "necessarily",
    "exactly",
    "quite",
    "elegant",
    "fast",
    "easy",
];

/// Openings that point back at the conversation: a claim starting with one needs more words to stand alone.
pub(super) const POINTERS: &[&str] = &[
    "it", "it's", "its", "that", "that's", "this", "they", "they're", "those", "these", "them", "he", "she",
];

/// The lowercased words of `text` with surrounding punctuation removed and curly apostrophes made straight.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
                .trim_matches(['\'', '’'])
                .replace('’', "'")
                .to_lowercase()
        })
        .filter(|word| !word.is_empty())
}

/// Whether `text` has a keyword that is not a function word.
pub(super) fn has_content(text: &str) -> bool {
    keywords(text).any(|word| !STOPWORDS.contains(&word.as_str()))
}

/// Whether the object of a preference or decision names something rather than pointing back.
///
/// With `reaction` (for like / love / hate), "that …" is refused too: "I love
/// that you…" reacts to a turn. "it" is only accepted as "it when / if" ("I
/// hate it when answers are long").
pub(super) fn object_ok(object: &str, reaction: bool) -> bool {
    if !has_content(object) {
        return false;
    }
    let mut words = words(object);
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default();
    match first.as_str() {
        "it" => matches!(second.as_str(), "when" | "if" | "whenever"),
        "that" => {
            !reaction
                && matches!(
                    second.as_str(),
                    "you" | "we" | "they" | "i" | "the" | "all" | "our" | "my" | "every"
                )
        }
        "the" if reaction => !matches!(second.as_str(), "idea" | "suggestion" | "way" | "plan" | "approach"),
        first => !REFERENCES.contains(&first),
    }
}

/// Whether a correction's claim says something on its own.
pub(super) fn claim_stands_alone(claim: &str) -> bool {
    let words: Vec<String> = words(claim).take(4).collect();
    let (Some(first), second) = (words.first(), words.get(1).map_or("", String::as_str)) else {
        return false;
    };
    words.len() >= 2
        && has_content(claim)
        && !REACTIONS.contains(&first.as_str())
        && !REACTION_PAIRS.iter().any(|&(one, two)| one == first && two == second)
        && (!POINTERS.contains(&first.as_str()) || words.len() >= 4)
}

/// Words that leave a question about whatever was pasted or said just before ("Why does this happen?").
const CONTEXT_WORDS: &[&str] = &[
    "happen",
    "happens",
    "happening",
    "mean",
    "means",
    "work",
    "works",
    "working",
    "fix",
    "wrong",
    "broken",
    "matter",
    "fail",
    "fails",
    "failing",
    "wrong",
    "issue",
    "problem",
    "error",
    "thing",
    "stuff",
    "here",
    "again",
];

/// Whether a question asks about something: three keywords or more, one of
/// them neither a function word nor a word that only points at the context.
pub(super) fn substantial_question(question: &str) -> bool {
    keywords(question).count() >= 3
        && keywords(question)
            .any(|word| !STOPWORDS.contains(&word.as_str()) && !CONTEXT_WORDS.contains(&word.as_str()))
}

/// Words that open a question asking for a fact (a name, a place, a time, a quantity), within its first words.
const FACT_QUESTION_WORDS: &[&str] =
    &["what", "what's", "which", "where", "where's", "when", "when's", "who", "who's", "whose"];

/// Quantities after "how" that ask for a fact: "how many", "how long".
const HOW_QUANTITIES: &[&str] = &["many", "much", "long", "old", "big", "far", "often"];

/// Whether `question` asks for a fact: a "what / which / where / when / who"
/// or "how many / much / long …" among its first six words. "Why" and "how do
/// I" ask for explanations, and a yes-or-no question for a verdict: their
/// answers are not facts that stand alone.
pub(super) fn asks_for_fact(question: &str) -> bool {
    let opening: Vec<String> = words(question).take(7).collect();
    opening.iter().take(6).any(|word| FACT_QUESTION_WORDS.contains(&word.as_str()))
        || opening
            .windows(2)
            .take(6)
            .any(|pair| pair[0] == "how" && HOW_QUANTITIES.contains(&pair[1].as_str()))
}

/// The longest answer a question–answer pair keeps, in characters: a short clause, not an explanation.
pub(super) const MAX_ANSWER_CHARS: usize = 160;

/// Whether `sentence` states a fact in a short self-contained clause: a
/// complete sentence of at most [`MAX_ANSWER_CHARS`] characters, with a word
/// past its first that is concrete (a number, an identifier, an address, a
/// proper name or a quoted string).
pub(super) fn states_value(sentence: &str) -> bool {
    let sentence = sentence.trim();
    let complete = sentence.ends_with(['.', '!']) && !sentence.ends_with("...");
    complete && sentence.chars().count() <= MAX_ANSWER_CHARS && names_value(sentence)
}

/// Whether a word of `text` after its first is a value: it holds a digit or an `@`, is an
/// identifier, opens a quote, or is capitalized (a name; not "I"), as in "the deadline is Friday".
fn names_value(text: &str) -> bool {
    text.split_whitespace().skip(1).any(|raw| value_word(raw, true))
}

/// Whether `text` names a value ([`names_value`]), its first word counting too unless only by
/// its capital, which a sentence's first word has anyway ("5433.", "eu-west-1 instead.").
pub(super) fn carries_value(text: &str) -> bool {
    text.split_whitespace().next().is_some_and(|first| value_word(first, false)) || names_value(text)
}

/// Whether the word `raw` is a value (see [`names_value`]); a capital counts only with `capital`.
fn value_word(raw: &str, capital: bool) -> bool {
    let token = raw.trim_matches(|c: char| matches!(c, ',' | ';' | '.' | '!' | ')' | '(' | ':'));
    token.chars().any(|c| c.is_ascii_digit())
        || token.contains('@')
        || super::details::identifier(token)
        || token.starts_with(['"', '`', '\'', '“']) && token.chars().count() > 2
        || (capital
            && token.chars().next().is_some_and(char::is_uppercase)
            && token != "I"
            && token.len() > 1)
}

/// Pleasantries that open an answer without answering.
pub(super) const PLEASANTRIES: &[&str] = &[
    "good question",
    "great question",
    "sure",
    "of course",
    "certainly",
    "absolutely",
    "happy to help",
    "glad you asked",
    "great",
    "got it",
    "thanks",
    "thank you",
    "okay",
    "ok",
    "alright",
    "noted",
    "will do",
    "on it",
    "understood",
    "sounds good",
    "no problem",
    "you're welcome",
    "done",
];

/// The first one or two sentences of an answer, pleasantries and colon-ended introductions skipped.
///
/// Empty when there are none, or when the first one left asks a question back.
pub(super) fn answer_text(rules: &Rules, sentences: &[&str]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for &sentence in sentences {
        let bare = sentence.trim_end_matches(['.', '!', ' ']);
        let lower = bare.to_lowercase();
        let pleasantry = bare.split_whitespace().count() <= 4
            && PLEASANTRIES.iter().any(|opening| {
                lower.starts_with(opening) && !lower[opening.len()..].starts_with(char::is_alphanumeric)
            });
        if pleasantry
            || sentence.ends_with(':')
            || !has_content(sentence)
            || looks_like_code(sentence)
            || run_on(sentence)
        {
            if kept.is_empty() {
                continue;
            }
            break;
        }
        if rules.is_question(sentence) {
            // The assistant asks back: a clarification, not an answer.
            break;
        }
        kept.push(sentence);
        // A second sentence only when the first is short.
        if kept.len() == 2 || sentence.chars().count() >= 120 {
            break;
        }
    }
    kept.join(" ")
}

/// Whether `sentence` runs on for more than 30 words without a comma, colon or other mark inside: a
/// dump of words or log text, not an answer.
pub(super) fn run_on(sentence: &str) -> bool {
    let mut run = 0;
    for word in sentence.split_whitespace() {
        run += 1;
        if run > 30 {
            return true;
        }
        if word.ends_with([',', ';', ':', '.', '!', '?', ')', '—']) {
            run = 0;
        }
    }
    false
}

// The text forms of candidates.

/// `text` with runs of white space made one space, control and format-breaking characters removed.
pub(super) fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else if !c.is_control() {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// `text` with its first character in upper case.
pub(super) fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => text.to_owned(),
    }
}

/// `text` if it has at most `max` characters, else its first characters and
/// "…", `max` in all; the cut is at a space when one is among the last 20
/// characters kept.
pub(super) fn cut(text: &str, max: usize) -> String {
    if max == 0 {
        return String::new();
    }
    let Some((end, _)) = text.char_indices().nth(max) else {
        return text.to_owned();
    };
    // Keep max - 1 characters and add the ellipsis.
    let end = text[..end].char_indices().last().map_or(0, |(last, _)| last);
    let mut kept = &text[..end];
    let tail_start = kept.char_indices().rev().nth(19).map_or(0, |(at, _)| at);
    if let Some(space) = kept[tail_start..].rfind(char::is_whitespace) {
        let shorter = kept[..tail_start + space].trim_end();
        if !shorter.is_empty() {
            kept = shorter;
        }
    }
    format!("{}…", kept.trim_end())
}

/// `label: "body"` in at most `max` characters, the body cut when needed.
pub(super) fn quote(label: &str, body: &str, max: usize) -> String {
    let frame = label.chars().count() + 4;
    if max >= frame + 4 {
        format!("{label}: \"{}\"", cut(body, max - frame))
    } else {
        cut(&format!("{label}: \"{body}\""), max)
    }
}

/// `Q: question A: answer` in at most `max` characters: the question gets at
/// least half of the room when both are long.
pub(super) fn pair_text(question: &str, answer: &str, max: usize) -> String {
    let question = clean(question);
    let answer = clean(answer);
    let room = max.saturating_sub(7);
    let (question_chars, answer_chars) = (question.chars().count(), answer.chars().count());
    if question_chars + answer_chars <= room {
        return format!("Q: {question} A: {answer}");
    }
    if room < 8 {
        return cut(&format!("Q: {question} A: {answer}"), max);
    }
    let question = cut(&question, (room / 2).max(room.saturating_sub(answer_chars)));
    let answer = cut(&answer, room - question.chars().count());
    format!("Q: {question} A: {answer}")
}

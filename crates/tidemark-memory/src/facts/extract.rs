//! The heuristic that finds facts worth keeping in the messages a compaction evicts.
//!
//! No model is involved: [`Extractor::extract`] splits user and assistant
//! texts into sentences and matches them against fixed English phrasings.
//! It proposes [`Candidate`]s; the caller scans, deduplicates against the
//! store and budgets them.
//!
//! # What is read
//!
//! - **User messages**: every sentence outside fenced code blocks, at most 400
//!   characters long, that is not a question, is matched against identity,
//!   preference, decision and correction phrasings, in that order; the first
//!   kind that matches wins, so "Actually, my name is Dana." is an identity and
//!   "No, let's go with Postgres." a decision. A user question (a sentence
//!   ending in `?`, or opening like one: "how do I…", "can you…") also forms a
//!   question–answer pair with the next assistant answer.
//! - **Assistant messages**: only decisions the assistant states at the start
//!   of a sentence ("I'll use…", "Decided: …"), and only in messages that make
//!   no tool call (their text is narration of the calls: "I'll use grep to
//!   find it."). Exploratory verbs (check, look, try, run, read, search…) are
//!   never decisions.
//! - **Tool and system messages** are not read at all: tool results are data,
//!   not statements, and system messages are instructions that stay anyway.
//!   Tool calls and attachments in any message are ignored too. Pinned messages
//!   are read like the others (they normally never reach the extractor).
//!
//! # Text forms
//!
//! Statements keep the speaker's own words, quoted after a label, so that a
//! model reading the fact later knows who "I" is without any rewriting of
//! pronouns:
//!
//! - [`CandidateKind::Identity`], in [`Tier::UserProfile`]:
//!   `About the user: "My name is Dana."`
//! - [`CandidateKind::Preference`], in [`Tier::UserProfile`]:
//!   `User preference: "I prefer tabs over spaces."`
//! - [`CandidateKind::Correction`], in [`Tier::AgentNotes`]:
//!   `Correction from the user: "The deadline is Friday, not Thursday."`
//! - [`CandidateKind::Decision`], in [`Tier::AgentNotes`]:
//!   `Decision by the user: "Let's go with Postgres."` or `Decision by the assistant: "I'll use…"`
//! - [`CandidateKind::QuestionAnswer`], in [`Tier::AgentNotes`], without quotes:
//!   `Q: How do I rotate the logs? A: Add a daily rule to /etc/logrotate.d/nginx.`
//!
//! A correction carries the corrected claim: the marker ("No,", "Actually,",
//! "That's wrong.") is dropped, and when the marker is the whole sentence the
//! next sentence of the same message is taken as the claim. Runs of white
//! space become one space and control characters are dropped. A text longer
//! than the limit is cut at a character boundary (at a space when one is
//! near) and ends with "…".
//!
//! ```
//! use tidemark_core::{Message, Tier};
//! use tidemark_memory::facts::extract::{CandidateKind, Extractor};
//!
//! let evicted = [Message::user("Hi! I prefer concise answers. My name is Dana.")];
//! let candidates = Extractor::new().extract(&evicted);
//! assert_eq!(candidates[0].kind, CandidateKind::Preference);
//! assert_eq!(candidates[0].text, r#"User preference: "I prefer concise answers.""#);
//! assert_eq!(candidates[1].kind, CandidateKind::Identity);
//! assert_eq!(candidates[1].tier, Tier::UserProfile);
//! ```
//!
//! # Known limits
//!
//! - English only, and only the phrasings listed on each [`CandidateKind`].
//! - A statement inside a question is lost ("I prefer tabs, can you set that
//!   up?"), the price of never taking "Do you prefer…?" for a preference.
//! - Reactions are refused when their object is a pronoun ("I like it", "I
//!   love that", "let's go with this"): such facts would not stand on their own
//!   once the turn they refer to is gone. For the same reason a correction
//!   needs a claim of its own ("No, it's Friday." is dropped, "No, the
//!   deadline is Friday." is kept).
//! - A phrase is recognised anywhere in a sentence, so a user quoting someone
//!   else ("he said I prefer tabs") yields a preference.
//! - The first matching kind wins per sentence; one sentence yields at most
//!   one candidate (a question–answer pair aside).
//! - Decisions are read from wording, not from what was at stake: "I decided
//!   to take a break." is a decision, and a user's "I don't want to break the
//!   build." a preference.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use tidemark_core::fact::keywords;
use tidemark_core::{Message, NewFact, Role, Tier};

/// What kind of statement a candidate came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CandidateKind {
    /// A standing preference of the user, kept in [`Tier::UserProfile`].
    ///
    /// Phrasings: "I prefer …", "I'd prefer …", "I'd rather …", "I like / love
    /// / hate / dislike / enjoy / can't stand …" (not about a pronoun: "I like
    /// it" is a reaction), "I don't like / want / use …", "I always / usually
    /// use …", "I use X as my …", "I'm (not) a fan of …", "I'm more comfortable
    /// with …", "my favourite / favorite / preferred … is …", "use / write X,
    /// not Y" opening a sentence, "always / never \<verb\> …" opening a
    /// sentence, "please always / never …", "please don't ever …", "from now
    /// on / going forward / in future, \<rule\>", and "I want you to always /
    /// never …" or "I want you to … from now on / every time / by default".
    /// Rules need an object that is not a pronoun ("Always be concise." is kept,
    /// "Never do that again." is not).
    Preference,
    /// The user corrects a claim, kept in [`Tier::AgentNotes`].
    ///
    /// Phrasings opening a sentence: "Actually, …", "No, …" (with a comma or
    /// other punctuation after "no"), "That's / it's / this is wrong /
    /// incorrect / not right / not true / not what I meant", "You're wrong /
    /// mistaken", "You got it wrong", "Correction: …", "To clarify, …", "To be
    /// clear, …", "I misspoke", "My mistake", "I was wrong"; and anywhere: "I
    /// meant …", "not X but Y" (not "not only X but…", not "not ideal but it
    /// works"), "… is X, not Y" (Y short, not "not sure why"). The claim must
    /// stand alone: "No, thanks." and "No, it's Friday." are not corrections.
    /// A correction is always [`Tier::AgentNotes`]; corrections of who the user
    /// is or what they prefer come out as [`Identity`](Self::Identity) or
    /// [`Preference`](Self::Preference), whose phrasings are tried first.
    Correction,
    /// Who the user is, kept in [`Tier::UserProfile`].
    ///
    /// Phrasings: "my name is …", "call me \<Name\>" (opening a sentence or
    /// after "please" / "you can"), "I go by \<Name\>", "I'm \<Name\>" as a
    /// whole clause, "I am / I'm a / an … \<role\>" (developer, engineer,
    /// student, manager, beginner, … within four words), "I'm new to …", "I'm
    /// fluent in …", "I'm a native speaker …", "I have N years of experience",
    /// "I work at / for / as …", "I'm working / employed at …", "I live
    /// in …", "I'm based / located in …", "I'm from \<Place\>", "I speak
    /// \<Language\>", "I'm on / using / running macOS / Windows / Linux / …",
    /// "I'm in the … time zone", and "my time zone / pronouns / email / phone /
    /// GitHub handle / username / job title / role / company / team / native
    /// language / location / OS / editor / shell / stack is …".
    Identity,
    /// A decision about the work, kept in [`Tier::AgentNotes`].
    ///
    /// From the user: "let's go with / use / stick with / switch to / pick /
    /// choose / keep / adopt / move to / settle on / target …", "we'll / I'll
    /// / we're going to use / go with / switch to / adopt …", "we're going /
    /// sticking with …", "we / I / the team (have) decided / agreed / settled /
    /// chose / opted …", "go with …" opening a sentence, "Decision: …",
    /// "Decided: …", "The plan is to …", "Plan: …", "use X instead of Y". From
    /// the assistant, opening a sentence only: "I'll / I will / we'll / I'm
    /// going to use / go with / stick with / switch to / adopt / keep /
    /// configure / store / target / migrate to / default to / pin / choose /
    /// pick / format / indent / follow / name / structure …" (not when the object
    /// mentions a tool or continues with "to check / find / look …"),
    /// "Decided: …", "Decision: …", "Going / sticking with …", and "as we
    /// decided / agreed …".
    Decision,
    /// A user question and the assistant's answer, kept in [`Tier::AgentNotes`].
    ///
    /// The question is the last question sentence of a user message, with at
    /// least three keywords and one that is not a function word ("How are
    /// you?" is skipped). The answer is the first assistant message after it
    /// that makes no tool call and has text outside code blocks, found before
    /// the next user message; its first sentence is kept, and a second one
    /// when the first is short. Pleasantries ("Good question!") and
    /// introductions ending in a colon ("Here's how:") are skipped; an answer
    /// that opens by asking back ("Which format do you need?") makes no pair.
    QuestionAnswer,
}

impl CandidateKind {
    /// `"preference"`, `"correction"`, `"identity"`, `"decision"` or `"question_answer"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Preference => "preference",
            Self::Correction => "correction",
            Self::Identity => "identity",
            Self::Decision => "decision",
            Self::QuestionAnswer => "question_answer",
        }
    }

    /// How much a candidate of this kind is worth keeping when there are too many: lower is better.
    fn rank(self) -> u8 {
        match self {
            Self::Identity | Self::Preference | Self::Correction => 0,
            Self::Decision => 1,
            Self::QuestionAnswer => 2,
        }
    }
}

impl fmt::Display for CandidateKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fact the heuristic proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// What kind of statement it came from.
    pub kind: CandidateKind,
    /// The tier it belongs to.
    pub tier: Tier,
    /// The fact, readable on its own: the speaker's words quoted after a label,
    /// or `Q: … A: …` for a question–answer pair (see the [module](self) docs).
    /// Never blank and never longer than [`Extractor::max_chars`] characters.
    pub text: String,
    /// Index into the `evicted` slice of the message it came from (the answer's index for Q–A pairs).
    pub message: usize,
}

/// Extraction settings: how many candidates at most, and how long each may be.
#[derive(Debug, Clone)]
pub struct Extractor {
    /// The most candidates one call returns.
    max_candidates: usize,
    /// The most characters of one candidate's text.
    max_chars: usize,
}

impl Default for Extractor {
    /// At most 12 candidates of at most 300 characters each.
    fn default() -> Self {
        Self { max_candidates: Self::DEFAULT_MAX_CANDIDATES, max_chars: Self::DEFAULT_MAX_CHARS }
    }
}

impl Extractor {
    /// The default of [`Self::with_max_candidates`].
    pub const DEFAULT_MAX_CANDIDATES: usize = 12;
    /// The default of [`Self::with_max_chars`].
    pub const DEFAULT_MAX_CHARS: usize = 300;
    /// The smallest limit [`Self::with_max_chars`] accepts: a shorter text could not say anything.
    pub const MIN_CHARS: usize = 16;

    /// The default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same settings, returning at most `n` candidates (0 turns extraction off).
    #[must_use]
    pub fn with_max_candidates(mut self, n: usize) -> Self {
        self.max_candidates = n;
        self
    }

    /// The same settings, with candidate texts of at most `n` characters.
    ///
    /// `n` is clamped to [`Self::MIN_CHARS`]`..=`[`NewFact::MAX_CHARS`], so that
    /// every text stays meaningful and passes `tidemark_core::fact::check_text`.
    #[must_use]
    pub fn with_max_chars(mut self, n: usize) -> Self {
        self.max_chars = n.clamp(Self::MIN_CHARS, NewFact::MAX_CHARS);
        self
    }

    /// The most candidates one call returns.
    pub fn max_candidates(&self) -> usize {
        self.max_candidates
    }

    /// The most characters of one candidate's text.
    pub fn max_chars(&self) -> usize {
        self.max_chars
    }

    /// Candidates from `evicted`, in message order, deduplicated (same kind and text once), at most
    /// [`Self::max_candidates`].
    ///
    /// When there are more, the most valuable are kept: identities,
    /// preferences and corrections first, then decisions, then question–answer
    /// pairs, earlier before later within a rank; the kept ones stay in
    /// message order. The result depends on the input only.
    pub fn extract(&self, evicted: &[Message]) -> Vec<Candidate> {
        if self.max_candidates == 0 || evicted.is_empty() {
            return Vec::new();
        }
        let rules = &*RULES;
        let texts: Vec<Cow<'_, str>> = evicted
            .iter()
            .map(|message| match message.role {
                Role::User | Role::Assistant => message.text(),
                Role::System | Role::Tool => Cow::Borrowed(""),
            })
            .collect();
        let sentences: Vec<Vec<&str>> = texts.iter().map(|text| split_sentences(text)).collect();

        let mut found = Vec::new();
        for (index, message) in evicted.iter().enumerate() {
            let own = &sentences[index];
            match message.role {
                Role::User => {
                    self.user_statements(rules, index, own, &mut found);
                    if let Some(pair) = self.question_answer(rules, evicted, &sentences, index) {
                        found.push(pair);
                    }
                }
                Role::Assistant if !message.has_tool_calls() => {
                    self.assistant_decisions(rules, index, own, &mut found);
                }
                Role::Assistant | Role::System | Role::Tool => {}
            }
        }

        // A pair is found with its question but belongs to its answer; the
        // sort is stable, so within one message the discovery order stays.
        found.sort_by_key(|candidate| candidate.message);
        let mut seen = HashSet::new();
        found.retain(|candidate| seen.insert((candidate.kind, candidate.text.clone())));
        if found.len() > self.max_candidates {
            let mut order: Vec<usize> = (0..found.len()).collect();
            order.sort_by_key(|&position| (found[position].kind.rank(), position));
            let mut keep = vec![false; found.len()];
            for &position in order.iter().take(self.max_candidates) {
                keep[position] = true;
            }
            let mut flags = keep.into_iter();
            found.retain(|_| flags.next().unwrap_or(false));
        }
        found
    }

    /// Identities, preferences, decisions and corrections stated in one user message.
    fn user_statements(&self, rules: &Rules, index: usize, sentences: &[&str], out: &mut Vec<Candidate>) {
        let mut next = 0;
        while let Some(&sentence) = sentences.get(next) {
            next += 1;
            if rules.is_question(sentence) {
                continue;
            }
            let statement = rules.strip_fillers(sentence);
            if statement.is_empty() {
                continue;
            }
            if let Some(kind) = rules.statement_kind(statement) {
                let (tier, label) = match kind {
                    CandidateKind::Identity => (Tier::UserProfile, "About the user"),
                    CandidateKind::Preference => (Tier::UserProfile, "User preference"),
                    _ => (Tier::AgentNotes, "Decision by the user"),
                };
                out.push(self.quoted(kind, tier, label, statement, index));
                continue;
            }
            match rules.correction(statement) {
                Some(Claim::Text(claim)) => {
                    out.push(self.correction(claim, index));
                }
                Some(Claim::Next) => {
                    // "That's wrong. The deadline is Friday." The following
                    // sentence is the claim, unless it is a question or a
                    // statement of another kind, which it then stays.
                    let Some(&following) = sentences.get(next) else { continue };
                    if rules.is_question(following) {
                        continue;
                    }
                    let claim = rules.strip_fillers(following);
                    if rules.statement_kind(claim).is_none() && claim_stands_alone(claim) {
                        out.push(self.correction(claim, index));
                        next += 1;
                    }
                }
                None => {}
            }
        }
    }

    /// Decisions the assistant states in one message.
    fn assistant_decisions(&self, rules: &Rules, index: usize, sentences: &[&str], out: &mut Vec<Candidate>) {
        for &sentence in sentences {
            if rules.is_question(sentence) {
                continue;
            }
            let statement = rules.strip_fillers(sentence);
            if !statement.is_empty() && rules.assistant_decision(statement) {
                out.push(self.quoted(
                    CandidateKind::Decision,
                    Tier::AgentNotes,
                    "Decision by the assistant",
                    statement,
                    index,
                ));
            }
        }
    }

    /// The pair of the question in user message `index` and its answer, if both are there.
    fn question_answer(
        &self,
        rules: &Rules,
        evicted: &[Message],
        sentences: &[Vec<&str>],
        index: usize,
    ) -> Option<Candidate> {
        let question = sentences[index]
            .iter()
            .rev()
            .find(|sentence| rules.is_question(sentence) && substantial_question(sentence))?;
        let mut answer = None;
        for (position, message) in evicted.iter().enumerate().skip(index + 1) {
            match message.role {
                Role::User => break,
                Role::Assistant if !message.has_tool_calls() => {
                    let text = answer_text(rules, &sentences[position]);
                    if !text.is_empty() {
                        answer = Some((position, text));
                        break;
                    }
                }
                Role::Assistant | Role::Tool | Role::System => {}
            }
        }
        let (position, text) = answer?;
        Some(Candidate {
            kind: CandidateKind::QuestionAnswer,
            tier: Tier::AgentNotes,
            text: pair_text(question, &text, self.max_chars),
            message: position,
        })
    }

    /// A candidate whose text is `label: "statement"`.
    fn quoted(
        &self,
        kind: CandidateKind,
        tier: Tier,
        label: &str,
        statement: &str,
        index: usize,
    ) -> Candidate {
        Candidate { kind, tier, text: quote(label, &clean(statement), self.max_chars), message: index }
    }

    /// A correction carrying `claim`, its first letter made upper case.
    fn correction(&self, claim: &str, index: usize) -> Candidate {
        let claim = capitalize(&clean(claim));
        Candidate {
            kind: CandidateKind::Correction,
            tier: Tier::AgentNotes,
            text: quote("Correction from the user", &claim, self.max_chars),
            message: index,
        }
    }
}

// ---------------------------------------------------------------------------
// Sentences

/// The longest sentence considered, in characters: longer ones are pasted text, not statements.
const MAX_SENTENCE_CHARS: usize = 400;

/// Words ending in a full stop that do not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "mr", "mrs", "ms", "dr", "prof", "st", "jr",
    "sr", "inc", "ltd", "co", "corp", "dept", "fig", "al", "min", "max", "sec", "ca",
];

/// The sentences of `text`: outside fenced code blocks, split at line breaks
/// and at `.`, `!`, `?` (or `…` and the CJK stops) followed by white space,
/// trimmed, with list and quote markers removed, and at most
/// [`MAX_SENTENCE_CHARS`] characters long.
///
/// A stop not followed by white space splits nothing, so `main.rs`, `3.14`
/// and URLs stay whole; neither do stops inside inline code or after common
/// abbreviations ("e.g.", "etc.", "vs.").
fn split_sentences(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut in_fence = false;
    for line in text.split(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}']) {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("```").or_else(|| trimmed.strip_prefix("~~~")) {
            // A fence on one line ("```code```") opens and closes at once.
            if !(rest.contains("```") || rest.contains("~~~")) {
                in_fence = !in_fence;
            }
            continue;
        }
        if !in_fence {
            split_line(strip_markers(trimmed), &mut sentences);
        }
    }
    sentences
}

/// `line` without leading list bullets, numbers and quote markers.
fn strip_markers(mut line: &str) -> &str {
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
fn split_line<'a>(line: &'a str, out: &mut Vec<&'a str>) {
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
                if (at_break || wide_stop) && !(single_stop && ends_in_abbreviation(&line[start..at])) {
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
fn ends_in_abbreviation(text: &str) -> bool {
    let word = text.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    !word.is_empty()
        && word.len() <= 8
        && ABBREVIATIONS.iter().any(|abbreviation| abbreviation.eq_ignore_ascii_case(word))
}

/// Appends `sentence` trimmed, when it has a letter or digit and is not too long.
fn push_sentence<'a>(sentence: &'a str, out: &mut Vec<&'a str>) {
    let sentence = sentence.trim();
    let too_long = sentence.len() > MAX_SENTENCE_CHARS && sentence.chars().count() > MAX_SENTENCE_CHARS;
    if !too_long && sentence.chars().any(char::is_alphanumeric) {
        out.push(sentence);
    }
}

// ---------------------------------------------------------------------------
// Words

/// Function words: they do not make a question substantial or an object meaningful on their own.
const STOPWORDS: &[&str] = &[
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
const REFERENCES: &[&str] = &[
    "this", "these", "those", "them", "him", "her", "yours", "your", "his", "their", "theirs", "one", "how",
    "what", "so", "too", "either", "both",
];

/// Words after "I'm" that are states, not names ("I'm Sorry" typed in title case).
const NOT_NAMES: &[&str] = &[
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
const REACTIONS: &[&str] = &[
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
const REACTION_PAIRS: &[(&str, &str)] = &[
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
const NOT_BUT_HEDGES: &[&str] = &[
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
const POINTERS: &[&str] = &[
    "it", "it's", "its", "that", "that's", "this", "they", "they're", "those", "these", "them", "he", "she",
];

/// The lowercased words of `text` with surrounding punctuation removed and curly apostrophes made straight.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
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
fn has_content(text: &str) -> bool {
    keywords(text).any(|word| !STOPWORDS.contains(&word.as_str()))
}

/// Whether the object of a preference or decision names something rather than pointing back.
///
/// With `reaction` (for like / love / hate), "that …" is refused too: "I love
/// that you…" reacts to a turn. "it" is only accepted as "it when / if" ("I
/// hate it when answers are long").
fn object_ok(object: &str, reaction: bool) -> bool {
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
fn claim_stands_alone(claim: &str) -> bool {
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

/// Whether a question asks about something: three keywords or more, one of them not a function word.
fn substantial_question(question: &str) -> bool {
    keywords(question).count() >= 3 && has_content(question)
}

/// Pleasantries that open an answer without answering.
const PLEASANTRIES: &[&str] = &[
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
];

/// The first one or two sentences of an answer, pleasantries and colon-ended introductions skipped.
///
/// Empty when there are none, or when the first one left asks a question back.
fn answer_text(rules: &Rules, sentences: &[&str]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for &sentence in sentences {
        let bare = sentence.trim_end_matches(['.', '!', ' ']);
        let lower = bare.to_lowercase();
        let pleasantry = bare.split_whitespace().count() <= 4
            && PLEASANTRIES.iter().any(|opening| {
                lower.starts_with(opening) && !lower[opening.len()..].starts_with(char::is_alphanumeric)
            });
        if pleasantry || sentence.ends_with(':') || !has_content(sentence) {
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

// ---------------------------------------------------------------------------
// Text forms

/// `text` with runs of white space made one space, control and format-breaking characters removed.
fn clean(text: &str) -> String {
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
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => text.to_owned(),
    }
}

/// `text` if it has at most `max` characters, else its first characters and
/// "…", `max` in all; the cut is at a space when one is among the last 20
/// characters kept.
fn cut(text: &str, max: usize) -> String {
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
fn quote(label: &str, body: &str, max: usize) -> String {
    let frame = label.chars().count() + 4;
    if max >= frame + 4 {
        format!("{label}: \"{}\"", cut(body, max - frame))
    } else {
        cut(&format!("{label}: \"{body}\""), max)
    }
}

/// `Q: question A: answer` in at most `max` characters: the question gets at
/// least half of the room when both are long.
fn pair_text(question: &str, answer: &str, max: usize) -> String {
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

// ---------------------------------------------------------------------------
// Patterns

/// What a match must pass besides its pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Nothing more.
    None,
    /// The `obj` group names something (see [`object_ok`]).
    Object,
    /// As [`Check::Object`], refusing reactions ("I like that").
    Reaction,
    /// As [`Check::Object`], and the object is not exploration ("… to find the file") or a tool.
    Committed,
    /// The `name` group is not a state ("I'm Sorry").
    Name,
    /// The `obj` group of "I meant" is not "to ask / mention / add / tell".
    Meant,
    /// "not X but Y" is not "not only / just … but".
    NotBut,
    /// The `obj` group of "…, not Y" is short and not a hedge ("not sure why").
    CommaNot,
}

/// A compiled pattern and its check.
struct Rule {
    regex: Regex,
    check: Check,
}

/// A correction's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim<'a> {
    /// The claim, within the sentence.
    Text(&'a str),
    /// The marker is the whole sentence: the claim is the next one.
    Next,
}

/// Roles that make "I'm a …" an identity (an alternation for verbose patterns).
const ROLES: &str = r"
    developer | engineer | programmer | coder | designer | student | teacher | professor | lecturer
    | researcher | scientist | manager | founder | co-?founder | owner | admin | administrator | sysadmin
    | analyst | architect | consultant | contractor | freelancer | doctor | nurse | physician | lawyer
    | attorney | writer | author | journalist | beginner | newbie | novice | hobbyist | maintainer
    | contributor | intern | lead | cto | ceo | cfo | vp | director | sre | devops | physicist
    | mathematician | statistician | accountant | musician | artist | photographer | translator | marketer
    | recruiter | tester | pm | specialist | expert | veteran | parent | mom | dad | mother | father | user
    | customer | teammate | member | editor | linguist | biologist | chemist | economist | trader | officer
    | technician | operator | hacker";

/// Verbs of standing rules, "always use …", "never reply …" (an alternation for verbose patterns).
const RULE_VERBS: &str = r"
    use | write | reply | respond | answer | format | include | add | put | keep | ask | give | show
    | explain | cite | mention | start | end | make | indent | wrap | sign | speak | talk | refer | send
    | check | test | avoid | leave | remove | return | name | document | comment | default | prefer | run
    | commit | push | call | say | suggest | recommend | assume | provide | spell | capitali[sz]e | quote
    | summari[sz]e | translate | double-check | be | do | address | sort | list | round | print | log
    | store | save | delete | skip | follow | stick";

/// Verbs of choosing in user decisions (an alternation for verbose patterns).
const CHOOSE: &str = r"
    go\s+with | use | stick\s+with | switch\s+to | pick | choose | keep | adopt | move\s+to | settle\s+on
    | standardi[sz]e\s+on | target | migrate\s+to";

// All patterns are verbose (`x`): white space in them is layout, `\s` is a space.

/// Identity phrasings.
fn identity_specs() -> Vec<(String, Check)> {
    vec![
        (r"(?ix) \b my \s+ name (?: \s+is | 's ) \s+ \S".into(), Check::None),
        (
            r"(?ix) (?: ^ | \bplease\s+ | \byou\s+(?:can|may|should)\s+ | \bjust\s+ ) call \s+ me \s+
                (?-i:\p{Lu})"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ go \s+ by \s+ (?-i:\p{Lu})".into(), Check::None),
        (
            r"(?ix) ^ I (?: 'm | \s+am ) \s+ (?P<name> (?-i:\p{Lu}\p{Ll}+) ) (?: \s+ (?-i:\p{Lu}\p{Ll}+) )?
                \s* (?: [,.!;] | $ )"
                .into(),
            Check::Name,
        ),
        (
            format!(
                r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: a | an ) \s+ (?: [\w+\#./-]+ \s+ ){{0,3}}? (?:
                {ROLES} ) s? \b"
            ),
            Check::None,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: (?: quite | very | fairly | pretty | still |
                completely ) \s+ )?
                (?: new\s+to | fluent\s+in | a\s+native\s+speaker | native\s+in ) \b"
                .into(),
            Check::None,
        ),
        (
            r"(?ix) \b I \s+ have \s+ (?: \d+ | \w+ ) \+? \s+ years? \s+ of \s+ (?: \S+\s+ )? experience
                \b"
            .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: currently\s+ )? work \s+ (?: at | for | as ) \s+ \S".into(), Check::None),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: currently\s+ )? (?: working | employed ) \s+ (?: at |
                for | as ) \s+ \S"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: currently\s+ )? live \s+ in \s+ \S".into(), Check::None),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: currently\s+ )? (?: based | located | living ) \s+ (?:
                in | out\s+of ) \s+ \S"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I (?: 'm | \s+am ) \s+ from \s+ (?-i:\p{Lu})".into(), Check::None),
        (r"(?ix) \b I \s+ speak \s+ (?-i:\p{Lu})".into(), Check::None),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: on | using | running ) \s+
                (?: macos | mac\s*os | os\s*x | windows | linux | ubuntu | debian | fedora | arch |
                nixos | wsl
                | freebsd | a\s+mac | an?\s+\w+\s+(?: laptop | machine ) ) \b"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I (?: 'm | \s+am ) \s+ in \s+ (?: the\s+ )? \S+ \s+ time\s*zone \b".into(), Check::None),
        (
            r"(?ix) \b my \s+
                (?: time\s*zone | tz | pronouns | e-?mail (?:\s+address)? | phone (?:\s+number)?
                | github (?: \s+ (?: handle | username | account ) )? | user\s*name | handle | job
                (?:\s+title)?
                | title | role | position | company | employer | team | native\s+language | first\s+language
                | mother\s+tongue | location | os | operating\s+system | editor | ide | shell | stack | setup
                | birthday )
                \s+ (?: is | are ) \s+ \S"
                .into(),
            Check::None,
        ),
    ]
}

/// Preference phrasings.
fn preference_specs() -> Vec<(String, Check)> {
    vec![
        (
            r"(?ix) \b I (?: 'd | \s+would )?
                (?: \s+ (?: really | strongly | generally | usually | much | definitely | personally | also
                | still | always | do | kind\s+of | kinda ) )*
                \s+ prefer \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'd | \s+would ) \s+ (?: much\s+ | really\s+ )? rather \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I
                (?: \s+ (?: really | truly | generally | usually | personally | also | still |
                absolutely | just
                | kind\s+of | kinda | do | definitely ) )*
                \s+ (?: like | love | hate | dislike | detest | despise | enjoy | loathe | can't\s+stand
                | cannot\s+stand )
                \s+ (?P<obj>.+)"
                .into(),
            Check::Reaction,
        ),
        (
            r"(?ix) \b I \s+ (?: really\s+ )? (?: do\s+not | don't | never ) \s+ (?: like | want | enjoy
                | use ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Reaction,
        ),
        (
            r"(?ix) \b I \s+ (?: always | usually | normally | generally | typically | mostly ) \s+
                (?: use | write | work\s+with | code\s+in | indent | format | deploy | run ) \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I \s+ use \s+ (?P<obj>.+?) \s+ as \s+ my \s+
                (?: main\s+ | primary\s+ | daily\s+ | default\s+ | preferred\s+ )? \w"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: not\s+ )? (?: a\s+ )? (?: big\s+ | huge\s+ )? fan \s+
                of \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: more\s+ | most\s+ )? (?: comfortable | at\s+home ) \s+
                (?: with | in ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b my \s+ (?: favou?rite | preferred | usual | go-to ) \s+ (?: \S+\s+ ){0,3}? (?: is
                | are ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: please\s+ )? (?: use | write | prefer ) \s+ (?P<obj>[^,]+) , \s* not \s+
                \S"
            .into(),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) ^ (?: please\s+ )? (?: always | never ) \s+ (?: {RULE_VERBS} ) \b \s*
                (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b please \s+ (?: always | never | don't\s+ever | do\s+not\s+ever ) \s+ \w+ \s*
                (?P<obj>.*)"
                .into(),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) ^ (?: please\s+ )? (?: don't | do\s+not ) \s+ ever \s+ (?: {RULE_VERBS} ) \b
                \s* (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) \b (?: from\s+now\s+on | going\s+forward | in\s+(?:the\s+)?future |
                as\s+a\s+(?:general\s+)?rule ) \b
                [\s,:]* (?: please\s+ )?
                (?: you\s+(?: should | must | can )\s+ | (?: always | never | don't | do\s+not )\s+ )?
                (?: {RULE_VERBS} ) \b \s* (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: \s+want | \s+need | 'd\s+like | \s+would\s+like ) \s+ you \s+ to \s+
                (?: always | never | consistently ) \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: \s+want | \s+need | 'd\s+like | \s+would\s+like ) \s+ you \s+ to \s+ .* \b
                (?: from\s+now\s+on | going\s+forward | every\s+time | each\s+time | whenever | by\s+default
                | in\s+(?: all | every ) | in\s+(?:the\s+)?future ) \b"
                .into(),
            Check::None,
        ),
    ]
}

/// Decision phrasings of the user.
fn user_decision_specs() -> Vec<(String, Check)> {
    vec![
        (
            format!(
                r"(?ix) \b let (?: 's | \s+us ) \s+ (?: just\s+ | definitely\s+ | instead\s+ | then\s+ )?
                (?: {CHOOSE} ) \s+ (?P<obj>.+)"
            ),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) \b (?: we | I )
                (?: 'll | \s+will | 're\s+going\s+to | \s+are\s+going\s+to | 'm\s+going\s+to |
                \s+am\s+going\s+to )
                \s+ (?: just\s+ | definitely\s+ )? (?: {CHOOSE} ) \s+ (?P<obj>.+)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b (?: we're | we\s+are ) \s+ (?: going | sticking | staying ) \s+ with \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b (?: we | I | the\s+team ) (?: 've | \s+have )? \s+ (?: finally\s+ )?
                (?: decided | agreed | settled | chosen | chose | picked | opted | committed ) \b \s*
                (?P<obj>.*)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: then\s+ | so\s+ | just\s+ )? go \s+ (?: ahead\s+ )? with \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: final\s+ )? (?: decision | decided ) \s* [:\-–—] \s*
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (r"(?ix) ^ (?: the\s+ )? plan \s* (?: is\s+to\s+ | :\s* ) (?P<obj>.+)".into(), Check::Object),
        (
            r"(?ix) \b (?: use | switch\s+to | go\s+with ) \s+ (?P<obj>\S.*?) \s+ instead \s+ of \s+
                \S"
            .into(),
            Check::Object,
        ),
    ]
}

/// Decision phrasings of the assistant, all opening a sentence.
fn assistant_decision_specs() -> Vec<(String, Check)> {
    vec![
        (
            r"(?ix) ^ (?: I (?: 'll | \s+will ) | we (?: 'll | \s+will ) | I (?: 'm | \s+am )
                \s+going\s+to ) \s+
                (?: go\s+with | use | stick\s+with | switch\s+to | adopt | keep | configure | store | target
                | migrate\s+to | default\s+to | pin | choose | pick | format | indent | follow | name |
                structure
                | standardi[sz]e\s+on )
                \s+ (?P<obj>.+)"
                .into(),
            Check::Committed,
        ),
        (
            r"(?ix) ^ (?: final\s+ )? (?: decided | decision ) \s* [:\-–—] \s*
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (r"(?ix) ^ (?: going | sticking ) \s+ with \s+ (?P<obj>.+)".into(), Check::Object),
        (
            r"(?ix) ^ (?: as\s+ )? (?: we | you\s+and\s+I ) (?: 've | \s+have )? \s+
                (?: decided | agreed | settled\s+on ) \b [\s,]* (?P<obj>.*)"
                .into(),
            Check::Committed,
        ),
    ]
}

/// Correction phrasings: a `claim` group holds the claim (empty when the
/// marker is the whole sentence); without one, the whole sentence is it.
fn correction_specs() -> Vec<(String, Check)> {
    let rest = r"\b [\s,:;.!—–-]* (?P<claim>.*) $";
    vec![
        (format!(r"(?ix) ^ actually {rest}"), Check::None),
        (r"(?ix) ^ (?: no (?:pe)? \s* [,:;.!—–-]+ \s* )+ (?P<claim>.*) $".into(), Check::None),
        (
            format!(
                r"(?ix) ^ (?: that (?: 's | \s+is ) | this\s+is | it (?: 's | \s+is ) | you (?: 're |
                \s+are ) ) \s+
                (?: (?: completely | totally | not\s+quite | quite | a\s+bit | slightly | all | just |
                simply ) \s+ )?
                (?: wrong | incorrect | not\s+right | not\s+correct | not\s+true | mistaken
                | not\s+what\s+I\s+(?: said | meant | asked (?:\s+for)? | wanted ) )
                {rest}"
            ),
            Check::None,
        ),
        (format!(r"(?ix) ^ you \s+ got \s+ (?: it | that | this ) \s+ wrong {rest}"), Check::None),
        (
            format!(
                r"(?ix) ^ (?: correction | to\s+clarify | to\s+be\s+clear | clarification
                | let\s+me\s+(?: clarify | correct\s+(?: that | myself | you ) ) | I\s+misspoke |
                I\s+was\s+wrong
                | my\s+mistake | my\s+bad )
                {rest}"
            ),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: actually\s+ )? meant \s+ (?P<obj>\S.*)".into(), Check::Meant),
        (
            r"(?ix) (?: ^ | ,\s* | \b (?: is | are | was | were ) \s+ | 's\s+ | 're\s+ ) not \s+
                (?P<obj> (?: \S+\s+ ){0,4}? but \s+ (?: rather\s+ )? (?P<after>\S+) )"
                .into(),
            Check::NotBut,
        ),
        (
            r"(?ix) (?: \b (?: is | are | was | were ) | 's | 're ) \s+ \S .* , \s* not \s+
                (?P<obj>[^,]{1,60}) $"
                .into(),
            Check::CommaNot,
        ),
    ]
}

/// Openings to skip before matching: greetings, "oh", "by the way", …
const FILLERS: &str = r"(?ix) ^ (?:
    (?: ok (?:ay)? | oh | ah | also | and | but | so | well | hmm+ | btw | by\s+the\s+way | fyi
    | just\s+so\s+you\s+know | for\s+the\s+record | one\s+more\s+thing | hey | hi | hello | alright
    | all\s+right | right | oops | sorry | ps | p\.s\. | note | please\s+note | quick\s+note | anyway
    | anyways | great | perfect | cool | thanks | thank\s+you | got\s+it | understood | sure )
    \b [\s,:;.!—–-]* )+";

/// Openings of questions that may lack a question mark.
const QUESTION_START: &str = r"(?ix) ^ (?:
    (?: what | how | why | where | which | who | whom | whose | when )
    (?: 's | 're | 'd | \s+ (?: is | are | was | were | do | does | did | can | could | would | should | will
    | to | much | many | long | often | about | if | kind | type | version | one | of | exactly ) \b )
    | (?: can | could | would | will | should | shall | may | is | are | was | were | have | has | had | isn't
    | aren't | won't | can't | wouldn't | shouldn't | couldn't | hasn't | haven't ) \s+
    (?: I | you | we | they | it | he | she | there | this | that | these | those | the | a | an | my | your
    | our | someone | anyone | anybody | somebody ) \b
    | (?: do | does | did | don't | doesn't | didn't ) \s+
    (?: I | you | we | they | it | he | she | there | this | that | these | those ) \b )";

/// Objects of an assistant's "I'll use …" that show exploration, not a decision.
const EXPLORATORY: &str = r"(?ix)
    \b (?: to | and | then | I'll | I\s+will | let\s+me | we'll ) \s+
    (?: check | look | search | find | see | read | inspect | investigate | verify | explore | debug | list
    | fetch | get | locate | confirm | understand | figure | try | test | run | open | grep | scan | view
    | examine | query ) \b
    | \b tools? \b";

/// All patterns, compiled once.
struct Rules {
    identity: Vec<Rule>,
    preference: Vec<Rule>,
    user_decision: Vec<Rule>,
    assistant_decision: Vec<Rule>,
    correction: Vec<Rule>,
    fillers: Option<Regex>,
    question_start: Option<Regex>,
    exploratory: Option<Regex>,
}

static RULES: LazyLock<Rules> = LazyLock::new(|| Rules {
    identity: rules(identity_specs()),
    preference: rules(preference_specs()),
    user_decision: rules(user_decision_specs()),
    assistant_decision: rules(assistant_decision_specs()),
    correction: rules(correction_specs()),
    fillers: compile(FILLERS),
    question_start: compile(QUESTION_START),
    exploratory: compile(EXPLORATORY),
});

/// Compiles `pattern`, letting every `'` match a straight or a curly apostrophe.
///
/// The patterns are constants checked by a test; one that failed to compile
/// would only disable itself.
fn compile(pattern: &str) -> Option<Regex> {
    match Regex::new(&pattern.replace('\'', "['’]")) {
        Ok(regex) => Some(regex),
        Err(error) => {
            tracing::error!(%error, "a fact extraction pattern does not compile");
            None
        }
    }
}

/// The compiled rules of `specs`.
fn rules(specs: Vec<(String, Check)>) -> Vec<Rule> {
    specs
        .into_iter()
        .filter_map(|(pattern, check)| compile(&pattern).map(|regex| Rule { regex, check }))
        .collect()
}

impl Rules {
    /// `sentence` without its opening fillers ("Oh, and by the way, …").
    fn strip_fillers<'a>(&self, sentence: &'a str) -> &'a str {
        let rest = match self.fillers.as_ref().and_then(|fillers| fillers.find(sentence)) {
            Some(found) => &sentence[found.end()..],
            None => sentence,
        };
        rest.trim()
    }

    /// Whether `sentence` is a question: it ends with a question mark, or it
    /// opens like one ("how do I…", "can you…") and does not end with a full
    /// stop or an exclamation mark.
    fn is_question(&self, sentence: &str) -> bool {
        let end = sentence.trim_end_matches(['"', '\'', ')', ']', '”', '’', '»', '*', '_', ' ']);
        if end.ends_with(['?', '？']) {
            return true;
        }
        if end.ends_with(['.', '!', '…', '。', '！']) {
            return false;
        }
        let opening = self.strip_fillers(sentence);
        self.question_start.as_ref().is_some_and(|start| start.is_match(opening))
    }

    /// Whether `statement` is an identity, a preference or a user decision, in that order of precedence.
    fn statement_kind(&self, statement: &str) -> Option<CandidateKind> {
        [
            (&self.identity, CandidateKind::Identity),
            (&self.preference, CandidateKind::Preference),
            (&self.user_decision, CandidateKind::Decision),
        ]
        .into_iter()
        .find(|(rules, _)| rules.iter().any(|rule| self.passes(rule, statement).is_some()))
        .map(|(_, kind)| kind)
    }

    /// Whether the assistant states a decision in `statement`.
    fn assistant_decision(&self, statement: &str) -> bool {
        self.assistant_decision.iter().any(|rule| self.passes(rule, statement).is_some())
    }

    /// The claim `statement` corrects, if it is a correction.
    fn correction<'a>(&self, statement: &'a str) -> Option<Claim<'a>> {
        for rule in &self.correction {
            let Some(captures) = self.passes(rule, statement) else { continue };
            let Some(claim) = captures.name("claim") else {
                return Some(Claim::Text(statement));
            };
            let claim = claim.as_str().trim();
            if !claim.chars().any(char::is_alphanumeric) {
                return Some(Claim::Next);
            }
            if claim_stands_alone(claim) {
                return Some(Claim::Text(claim));
            }
        }
        None
    }

    /// The captures of `rule` in `text`, if it matches and passes its check.
    fn passes<'t>(&self, rule: &Rule, text: &'t str) -> Option<Captures<'t>> {
        let captures = rule.regex.captures(text)?;
        let group = |name: &str| captures.name(name).map_or("", |found| found.as_str());
        let first_word = |name: &str| words(group(name)).next().unwrap_or_default();
        let ok = match rule.check {
            Check::None => true,
            Check::Object => object_ok(group("obj"), false),
            Check::Reaction => object_ok(group("obj"), true),
            Check::Committed => {
                object_ok(group("obj"), false)
                    && !self
                        .exploratory
                        .as_ref()
                        .is_some_and(|exploratory| exploratory.is_match(group("obj")))
            }
            Check::Name => !NOT_NAMES.contains(&first_word("name").as_str()),
            Check::Meant => {
                let object = group("obj").to_lowercase();
                object_ok(&object, false)
                    && !["to ask", "to mention", "to add", "to tell", "to say thanks", "well"]
                        .iter()
                        .any(|opening| object.starts_with(opening))
            }
            Check::NotBut => {
                !NOT_BUT_HEDGES.contains(&first_word("obj").as_str())
                    && !matches!(first_word("after").as_str(), "i" | "we" | "you" | "there" | "also")
                    && !POINTERS.contains(&first_word("after").as_str())
            }
            Check::CommaNot => {
                let object = group("obj");
                object.split_whitespace().count() <= 6
                    && has_content(object)
                    && !matches!(
                        first_word("obj").as_str(),
                        "sure"
                            | "yet"
                            | "really"
                            | "that"
                            | "much"
                            | "bad"
                            | "quite"
                            | "always"
                            | "necessarily"
                            | "exactly"
                            | "now"
                            | "for"
                            | "to"
                            | "just"
                            | "only"
                            | "even"
                            | "too"
                    )
            }
        };
        ok.then_some(captures)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tidemark_core::{Part, ToolCall};
    use tidemark_testkit::strategies::{arb_history, arb_message, arb_text};

    use super::*;

    fn kinds(candidates: &[Candidate]) -> Vec<CandidateKind> {
        candidates.iter().map(|candidate| candidate.kind).collect()
    }

    fn texts(candidates: &[Candidate]) -> Vec<&str> {
        candidates.iter().map(|candidate| candidate.text.as_str()).collect()
    }

    fn from_user(text: &str) -> Vec<Candidate> {
        Extractor::new().extract(&[Message::user(text)])
    }

    fn from_assistant(text: &str) -> Vec<Candidate> {
        Extractor::new().extract(&[Message::assistant(text)])
    }

    /// The one candidate `text` yields as a user message.
    #[track_caller]
    fn one(text: &str) -> Candidate {
        let candidates = from_user(text);
        assert_eq!(candidates.len(), 1, "{text:?} gave {candidates:#?}");
        candidates.into_iter().next().unwrap()
    }

    #[track_caller]
    fn none(text: &str) {
        let candidates = from_user(text);
        assert!(candidates.is_empty(), "{text:?} gave {candidates:#?}");
    }

    #[test]
    fn patterns_compile() {
        let specs = [
            identity_specs(),
            preference_specs(),
            user_decision_specs(),
            assistant_decision_specs(),
            correction_specs(),
        ];
        for (pattern, _) in specs.iter().flatten() {
            assert!(Regex::new(&pattern.replace('\'', "['’]")).is_ok(), "{pattern}");
        }
        for pattern in [FILLERS, QUESTION_START, EXPLORATORY] {
            assert!(compile(pattern).is_some(), "{pattern}");
        }
        assert_eq!(RULES.identity.len(), identity_specs().len());
        assert_eq!(RULES.preference.len(), preference_specs().len());
        assert_eq!(RULES.user_decision.len(), user_decision_specs().len());
        assert_eq!(RULES.assistant_decision.len(), assistant_decision_specs().len());
        assert_eq!(RULES.correction.len(), correction_specs().len());
    }

    #[test]
    fn kind_names() {
        let all = [
            CandidateKind::Preference,
            CandidateKind::Correction,
            CandidateKind::Identity,
            CandidateKind::Decision,
            CandidateKind::QuestionAnswer,
        ];
        let names: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["preference", "correction", "identity", "decision", "question_answer"]);
    }

    #[test]
    fn sentences_split_at_stops_but_not_inside_names_numbers_or_abbreviations() {
        let text = "Edit main.rs, e.g. the loop. Pi is 3.14! See https://example.com/a.b?x=1 now?\n\
                    - I prefer tabs\n1. Use `x.y. z` here. Done…";
        assert_eq!(
            split_sentences(text),
            [
                "Edit main.rs, e.g. the loop.",
                "Pi is 3.14!",
                "See https://example.com/a.b?x=1 now?",
                "I prefer tabs",
                "Use `x.y. z` here.",
                "Done…"
            ]
        );
        assert_eq!(split_sentences("He said \"stop.\" Then left."), ["He said \"stop.\"", "Then left."]);
        assert_eq!(split_sentences("好的。我喜欢Rust！"), ["好的。", "我喜欢Rust！"]);
    }

    #[test]
    fn code_blocks_and_long_sentences_are_skipped() {
        let text =
            "Before.\n```rust\nlet my_name = 1; // my name is Bob.\n```\nAfter.\n~~~\nI prefer x.\n~~~";
        assert_eq!(split_sentences(text), ["Before.", "After."]);
        let long = format!("I prefer {}.", "very ".repeat(100));
        assert!(split_sentences(&long).is_empty());
    }

    #[test]
    fn preferences() {
        for text in [
            "I prefer tabs over spaces.",
            "Honestly? I'd rather get short answers without the preamble.",
            "I really hate long explanations when a code sample would do.",
            "Please always answer in British English.",
            "Never use unwrap in library code.",
            "My favourite editor is Helix.",
            "I want you to always run the tests before you commit.",
            "From now on, please reply in German.",
            "I don't like emojis in commit messages.",
            "I hate it when the answer repeats the question.",
            "I always use pnpm for JavaScript projects.",
            "Use tabs, not spaces.",
            "I use Neovim as my main editor.",
            "I'm not a fan of ORMs.",
            "I'd like you to always use metric units.",
        ] {
            let candidates = from_user(text);
            let preference = candidates.iter().find(|candidate| candidate.kind == CandidateKind::Preference);
            let preference = preference.unwrap_or_else(|| panic!("{text:?} gave {candidates:#?}"));
            assert_eq!(preference.tier, Tier::UserProfile);
            assert!(preference.text.starts_with("User preference: \""), "{}", preference.text);
        }
        assert_eq!(one("i prefer tabs over spaces").text, "User preference: \"i prefer tabs over spaces\"");
        assert_eq!(one("I’d rather use Postgres.").kind, CandidateKind::Preference);
    }

    #[test]
    fn reactions_and_questions_are_not_preferences() {
        for text in [
            "I like it.",
            "I like that idea.",
            "I love this!",
            "I like your approach.",
            "Do you prefer tabs?",
            "Which do I prefer, tabs or spaces?",
            "I prefer that.",
            "Never mind.",
            "I'd like a summary.",
            "Always the same error.",
            "Never do that again.",
            "I love you",
            "I want you to fix the bug.",
        ] {
            none(text);
        }
    }

    #[test]
    fn identities() {
        for (text, key) in [
            ("My name is Dana Whitfield.", "Dana"),
            ("Hi, I'm Priya, the on-call engineer this week.", "Priya"),
            ("Call me Sam.", "Sam"),
            ("I'm a senior backend engineer at Globex.", "engineer"),
            ("I work for the Berlin office of Initech.", "Initech"),
            ("I live in Lisbon, so keep meetings before 6pm.", "Lisbon"),
            ("My timezone is UTC+2.", "UTC"),
            ("By the way, my pronouns are they/them.", "pronouns"),
            ("Actually, my name is Dana, not Diana.", "Dana"),
            ("I'm based in Toronto.", "Toronto"),
            ("I'm new to Rust.", "Rust"),
            ("I'm on macOS Sonoma.", "macOS"),
            ("I'm in the PST time zone.", "PST"),
            ("My email is dana@example.com.", "dana@example.com"),
        ] {
            let candidate = one(text);
            assert_eq!(candidate.kind, CandidateKind::Identity, "{text:?}");
            assert_eq!(candidate.tier, Tier::UserProfile);
            assert!(candidate.text.starts_with("About the user: \""), "{}", candidate.text);
            assert!(candidate.text.contains(key), "{}", candidate.text);
        }
        assert_eq!(one("Oh, and my name is Dana.").text, "About the user: \"my name is Dana.\"");
    }

    #[test]
    fn things_that_sound_like_identities_are_not() {
        for text in [
            "I'm Sorry, that was unclear",
            "I'm a bit confused by the output.",
            "Please call me when the build is done.",
            "What is my name?",
            "I'm done.",
        ] {
            none(text);
        }
    }

    #[test]
    fn corrections_carry_the_corrected_claim() {
        for (text, expected) in [
            ("No, the deadline is Friday, not Thursday.", "The deadline is Friday, not Thursday."),
            ("Actually, the staging cluster runs Postgres 15.", "The staging cluster runs Postgres 15."),
            ("That's wrong. The invoice was sent on March 3.", "The invoice was sent on March 3."),
            ("Correction: the API key rotates every 90 days.", "The API key rotates every 90 days."),
            ("The bucket is in eu-west-1, not us-east-1.", "The bucket is in eu-west-1, not us-east-1."),
            ("I meant the production database.", "I meant the production database."),
            ("It's not the cache but the DNS resolver.", "It's not the cache but the DNS resolver."),
            ("Sorry, to clarify: the report goes to finance.", "The report goes to finance."),
            (
                "That is not what I asked for. I need the CSV export, not the PDF.",
                "I need the CSV export, not the PDF.",
            ),
        ] {
            let candidate = one(text);
            assert_eq!(candidate.kind, CandidateKind::Correction, "{text:?}");
            assert_eq!(candidate.tier, Tier::AgentNotes);
            assert_eq!(candidate.text, format!("Correction from the user: \"{expected}\""));
        }
    }

    #[test]
    fn reactions_are_not_corrections() {
        for text in [
            "No, thanks.",
            "No problem.",
            "Actually, that works.",
            "No.",
            "That's wrong.",
            "Actually, it's fine.",
            "No, it's Friday.",
            "That's wrong. What should it be?",
            "Not only the cache but also the DNS.",
            "Here is the log, not sure why it fails.",
            "I meant to ask about the cache.",
            "I meant it.",
            "This is not ideal but it works.",
            "No, I don't think so.",
            "No worries!",
        ] {
            none(text);
        }
    }

    #[test]
    fn a_marker_before_another_kind_of_statement_leaves_it_alone() {
        let candidates = from_user("No. My name is Dana.");
        assert_eq!(kinds(&candidates), [CandidateKind::Identity]);
    }

    #[test]
    fn user_decisions() {
        for text in [
            "Let's go with the managed Redis instance.",
            "OK, go with option B.",
            "We decided to ship the beta on the 14th.",
            "We'll use Terraform for the new environments.",
            "Use rustls instead of OpenSSL.",
            "Decision: the API stays on v2 until Q3.",
        ] {
            let candidate = one(text);
            assert_eq!(candidate.kind, CandidateKind::Decision, "{text:?}");
            assert_eq!(candidate.tier, Tier::AgentNotes);
            assert!(candidate.text.starts_with("Decision by the user: \""), "{}", candidate.text);
        }
        for text in [
            "Let's go with that.",
            "Let's try it.",
            "We decided.",
            "Should we use Redis?",
            "The plan is great.",
            "Let's keep it simple.",
            "Let's keep going.",
        ] {
            none(text);
        }
    }

    #[test]
    fn assistant_decisions_are_conservative() {
        for text in [
            "I'll use the v2 endpoint for all exports.",
            "Decided: retries go up to 5 with exponential backoff.",
            "Great, I'll configure incremental snapshots for the nightly job.",
        ] {
            let candidates = from_assistant(text);
            assert_eq!(kinds(&candidates), [CandidateKind::Decision], "{text:?}");
            assert_eq!(candidates[0].tier, Tier::AgentNotes);
            assert!(candidates[0].text.starts_with("Decision by the assistant: \""));
        }
        for text in [
            "I'll check the logs.",
            "I'll look into it.",
            "I'll try a different approach.",
            "I'll run the tests now.",
            "I'll use grep to find the call sites.",
            "I'll use the search tool.",
            "I'll keep that in mind.",
            "We'll use the search tool to find it.",
            "As we agreed, I'll check the logs.",
            "Should I use Redis?",
            // The assistant's preferences and identity are not the user's.
            "I prefer tabs over spaces.",
            "My name is Claude.",
        ] {
            assert!(from_assistant(text).is_empty(), "{text:?}");
        }
        // The text of a message with tool calls narrates them.
        let narrating = Message::assistant("I'll use ripgrep across the workspace.").with_part(
            Part::ToolCall(ToolCall::new("call_1", "run_shell", serde_json::json!({"cmd": "rg"}))),
        );
        assert!(Extractor::new().extract(&[narrating]).is_empty());
    }

    #[test]
    fn question_answer_pairs_skip_tool_traffic() {
        let evicted = [
            Message::user("How do I rotate the nginx access logs?"),
            Message::assistant("Let me check your setup.").with_part(Part::ToolCall(ToolCall::new(
                "call_1",
                "read_file",
                serde_json::json!({"path": "/etc/logrotate.d/nginx"}),
            ))),
            Message::tool_result("call_1", "I prefer daily rotation. My name is root."),
            Message::assistant(
                "Good question! Add a daily rule to /etc/logrotate.d/nginx. It keeps 14 files by default. \
                 You can also compress them.",
            ),
        ];
        let candidates = Extractor::new().extract(&evicted);
        assert_eq!(candidates.len(), 1, "{candidates:#?}");
        let pair = &candidates[0];
        assert_eq!(
            (pair.kind, pair.tier, pair.message),
            (CandidateKind::QuestionAnswer, Tier::AgentNotes, 3)
        );
        assert_eq!(
            pair.text,
            "Q: How do I rotate the nginx access logs? A: Add a daily rule to /etc/logrotate.d/nginx. \
             It keeps 14 files by default."
        );
    }

    #[test]
    fn question_answer_pairs_need_a_real_question_and_a_text_answer() {
        let trivial = [Message::user("How are you?"), Message::assistant("Fine, thanks for asking!")];
        assert!(Extractor::new().extract(&trivial).is_empty());
        let asked_back = [
            Message::user("Can you help me with the invoice export?"),
            Message::assistant("Sure, which format do you need?"),
        ];
        assert!(Extractor::new().extract(&asked_back).is_empty());
        let only_a_call = [
            Message::user("What does the deploy script do?"),
            Message::assistant_tool_calls([ToolCall::new("c", "read_file", serde_json::json!({}))]),
            Message::tool_result("c", "#!/bin/sh\nkubectl apply -f k8s/"),
            Message::user("Never mind, I found it."),
            Message::assistant("Great, glad you found the deploy script."),
        ];
        assert!(Extractor::new().extract(&only_a_call).is_empty());
        let only_code = [
            Message::user("Which command lists the pods?"),
            Message::assistant("Here you go:\n```\nkubectl get pods\n```"),
        ];
        assert!(Extractor::new().extract(&only_code).is_empty());
        let without_mark = [
            Message::user("how do I list the running pods"),
            Message::assistant("Run `kubectl get pods` in the right namespace."),
        ];
        let candidates = Extractor::new().extract(&without_mark);
        assert_eq!(kinds(&candidates), [CandidateKind::QuestionAnswer]);
        assert_eq!(candidates[0].message, 1);
    }

    #[test]
    fn tool_system_and_code_text_is_ignored() {
        let evicted = [
            Message::system("I prefer formal answers. My name is Operator."),
            Message::tool_result("call_9", "I prefer tabs. My name is Mallory. Let's go with plan X."),
            Message::user("Here is my config:\n```toml\n# my name is Bob. I prefer tabs.\nname = \"x\"\n```"),
            Message::new(
                Role::User,
                vec![Part::ToolResult(tidemark_core::ToolResult::new(
                    "c",
                    "Actually, the deadline is Monday.",
                ))],
            ),
        ];
        assert!(Extractor::new().extract(&evicted).is_empty());
    }

    #[test]
    fn a_support_conversation() {
        let evicted = [
            Message::system("You are the support agent of Acme Cloud. Be friendly."),
            Message::user(
                "Hi! My name is Priya and I'm a backend engineer at Globex. \
                 I prefer concise answers with Python examples.",
            ),
            Message::assistant("Nice to meet you, Priya. I see you're on the Starter plan. How can I help?"),
            Message::user("Actually, we moved to the Business plan last month."),
            Message::assistant("Thanks for the correction, I've noted the Business plan."),
            Message::user(
                "Our nightly backup keeps failing. Why does the backup job time out after 30 minutes?",
            ),
            Message::assistant("Let me look at the job history.").with_part(Part::ToolCall(ToolCall::new(
                "call_1",
                "get_job_runs",
                serde_json::json!({"job": "nightly-backup"}),
            ))),
            Message::tool_result("call_1", "run 812: timeout after 1800s while snapshotting vol-4tb"),
            Message::assistant(
                "The job times out because a full snapshot of the 4 TB volume takes longer than the \
                 30-minute limit. Incremental snapshots finish in a few minutes.",
            ),
            Message::user("Let's go with incremental snapshots then."),
            Message::assistant(
                "Great, I'll configure incremental snapshots for the nightly job. You're all set!",
            ),
            Message::user("Thanks, that's all for today."),
        ];
        let candidates = Extractor::new().extract(&evicted);
        let summary: Vec<(CandidateKind, Tier, usize)> =
            candidates.iter().map(|candidate| (candidate.kind, candidate.tier, candidate.message)).collect();
        assert_eq!(
            summary,
            [
                (CandidateKind::Identity, Tier::UserProfile, 1),
                (CandidateKind::Preference, Tier::UserProfile, 1),
                (CandidateKind::Correction, Tier::AgentNotes, 3),
                (CandidateKind::QuestionAnswer, Tier::AgentNotes, 8),
                (CandidateKind::Decision, Tier::AgentNotes, 9),
                (CandidateKind::Decision, Tier::AgentNotes, 10),
            ],
            "{candidates:#?}"
        );
        let texts = texts(&candidates);
        assert!(texts[0].contains("Priya") && texts[0].contains("Globex"));
        assert!(texts[1].contains("concise answers"));
        assert_eq!(texts[2], "Correction from the user: \"We moved to the Business plan last month.\"");
        assert!(
            texts[3]
                .starts_with("Q: Why does the backup job time out after 30 minutes? A: The job times out")
        );
        assert!(texts[3].contains("Incremental snapshots finish"));
        assert!(texts[4].contains("incremental snapshots"));
        assert!(texts[5].starts_with("Decision by the assistant: \"I'll configure incremental snapshots"));
        assert_eq!(Extractor::new().extract(&evicted), candidates);
    }

    #[test]
    fn duplicates_are_dropped() {
        let evicted = [
            Message::user("I prefer tabs."),
            Message::assistant("Noted."),
            Message::user("I prefer tabs."),
            Message::user("  I prefer\ttabs. "),
        ];
        let candidates = Extractor::new().extract(&evicted);
        assert_eq!(candidates.len(), 1);
        assert_eq!(candidates[0].message, 0);
    }

    #[test]
    fn the_most_valuable_candidates_survive_the_cap_in_message_order() {
        let evicted = [
            Message::user("What is the retention period of the audit logs?"),
            Message::assistant("Audit logs are kept for 400 days."),
            Message::user("Let's go with the managed Redis instance."),
            Message::user("I prefer tabs over spaces."),
            Message::user("We'll use Terraform for the new environments."),
            Message::user("My name is Dana."),
            Message::user("No, the deadline is Friday, not Thursday."),
        ];
        let all = Extractor::new().extract(&evicted);
        assert_eq!(
            kinds(&all),
            [
                CandidateKind::QuestionAnswer,
                CandidateKind::Decision,
                CandidateKind::Preference,
                CandidateKind::Decision,
                CandidateKind::Identity,
                CandidateKind::Correction,
            ]
        );
        let three = Extractor::new().with_max_candidates(3).extract(&evicted);
        assert_eq!(
            kinds(&three),
            [CandidateKind::Preference, CandidateKind::Identity, CandidateKind::Correction]
        );
        let four = Extractor::new().with_max_candidates(4).extract(&evicted);
        assert_eq!(
            kinds(&four),
            [
                CandidateKind::Decision,
                CandidateKind::Preference,
                CandidateKind::Identity,
                CandidateKind::Correction
            ]
        );
        assert_eq!(four[0].message, 2);
        assert!(Extractor::new().with_max_candidates(0).extract(&evicted).is_empty());
        assert_eq!(Extractor::new().with_max_candidates(100).extract(&evicted), all);
    }

    #[test]
    fn long_texts_are_cut_at_a_char_boundary() {
        let sentence = format!("I prefer {} for every document.", "ünïcödé-heavy typography ✓🦀 ".repeat(8));
        for max in [16, 17, 40, 41, 100, 200] {
            let extractor = Extractor::new().with_max_chars(max);
            assert_eq!(extractor.max_chars(), max);
            let candidates = extractor.extract(&[Message::user(sentence.as_str())]);
            assert_eq!(candidates.len(), 1);
            let text = &candidates[0].text;
            assert!(text.chars().count() <= max, "{max}: {text}");
            assert!(text.contains('…'), "{text}");
            assert!(tidemark_core::fact::check_text(text).is_ok());
        }
        let text = &Extractor::new().with_max_chars(60).extract(&[Message::user(sentence.as_str())])[0].text;
        assert!(text.starts_with("User preference: \"I prefer ünïcödé") && text.ends_with("…\""), "{text}");
        assert_eq!(Extractor::new().with_max_chars(0).max_chars(), Extractor::MIN_CHARS);
        assert_eq!(Extractor::new().with_max_chars(1_000_000).max_chars(), NewFact::MAX_CHARS);
    }

    #[test]
    fn long_question_answer_pairs_share_the_room() {
        let question = format!("How do I configure {} for the cluster?", "the 日本語 ingress ".repeat(8));
        let answer = format!("Set {} in the values file.", "the ünïcödé annotation ".repeat(8));
        let evicted = [Message::user(question), Message::assistant(answer)];
        for max in [16, 30, 120, 300] {
            let candidates = Extractor::new().with_max_chars(max).extract(&evicted);
            assert_eq!(kinds(&candidates), [CandidateKind::QuestionAnswer]);
            let text = &candidates[0].text;
            assert!(text.chars().count() <= max, "{max}: {text}");
            if max >= 30 {
                assert!(text.starts_with("Q: How do I") && text.contains(" A: Set"), "{text}");
            }
        }
    }

    #[test]
    fn cut_and_clean() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "ab…");
        assert_eq!(cut("éééé", 2), "é…");
        assert_eq!(cut("one two three four", 12), "one two…");
        assert_eq!(cut("x", 0), "");
        assert_eq!(clean(" a \t b\u{0}c\n"), "a bc");
        assert_eq!(capitalize("ünd"), "Ünd");
    }

    /// Sentences that trigger every kind, mixed with random text by the property below.
    const PHRASES: &[&str] = &[
        "I prefer tabs over spaces.",
        "My name is Dana.",
        "No, the deadline is Friday, not Thursday.",
        "Let's go with Postgres.",
        "I'll use the v2 API for exports.",
        "How do I rotate the logs?",
        "That's wrong.",
        "Actually, ",
        "I like ",
        "I'm a ",
        "```\n",
        "? ",
        ". ",
        "\n",
        "e.g. ",
        "I’d rather ",
        "call me ",
        "Decision: ",
    ];

    fn arb_phrase_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![2 => proptest::sample::select(PHRASES).prop_map(str::to_owned), 1 => arb_text()],
            0..8,
        )
        .prop_map(|pieces| pieces.concat())
    }

    fn arb_phrase_history() -> impl Strategy<Value = Vec<Message>> {
        let message = prop_oneof![
            2 => arb_phrase_text().prop_map(Message::user),
            2 => arb_phrase_text().prop_map(Message::assistant),
            1 => arb_phrase_text().prop_map(|text| Message::tool_result("call_1", text)),
            1 => arb_message(),
        ];
        proptest::collection::vec(message, 0..12)
    }

    fn check_candidates(extractor: &Extractor, history: &[Message]) -> Result<(), TestCaseError> {
        let candidates = extractor.extract(history);
        prop_assert!(candidates.len() <= extractor.max_candidates());
        let mut seen = HashSet::new();
        let mut last = 0;
        for candidate in &candidates {
            prop_assert!(!candidate.text.trim().is_empty());
            prop_assert!(candidate.text.chars().count() <= extractor.max_chars());
            prop_assert!(tidemark_core::fact::check_text(&candidate.text).is_ok());
            prop_assert!(candidate.message < history.len());
            prop_assert!(candidate.message >= last);
            last = candidate.message;
            let role = history[candidate.message].role;
            prop_assert!(matches!(role, Role::User | Role::Assistant));
            prop_assert!(seen.insert((candidate.kind, candidate.text.clone())));
            let tier = match candidate.kind {
                CandidateKind::Identity | CandidateKind::Preference => Tier::UserProfile,
                _ => Tier::AgentNotes,
            };
            prop_assert_eq!(candidate.tier, tier);
        }
        prop_assert_eq!(&extractor.extract(history), &candidates);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_histories_give_valid_candidates(
            history in arb_history(),
            max in 0..400_usize,
            n in 0..20_usize,
        ) {
            check_candidates(&Extractor::new(), &history)?;
            check_candidates(&Extractor::new().with_max_chars(max).with_max_candidates(n), &history)?;
        }

        #[test]
        fn phrase_heavy_histories_give_valid_candidates(
            history in arb_phrase_history(),
            max in 0..400_usize,
            n in 0..20_usize,
        ) {
            check_candidates(&Extractor::new(), &history)?;
            check_candidates(&Extractor::new().with_max_chars(max).with_max_candidates(n), &history)?;
        }
    }
}

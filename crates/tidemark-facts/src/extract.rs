//! The heuristic that finds facts worth keeping in the messages a compaction evicts.
//!
//! No model is involved: [`Extractor::extract`] splits user and assistant
//! texts into sentences and matches them against fixed English phrasings.
//! It proposes [`Candidate`]s; the caller scans, deduplicates against the
//! store and budgets them.
//!
//! # What is read
//!
//! - **Segmentation**: texts are split into sentences outside fenced code
//!   blocks and outside lines that `looks_like_code` (source, stack traces,
//!   JSON, diffs, shell sessions, log lines), together with the indented
//!   block under such a line; a sentence is at most 400 characters long.
//! - **User messages**: every sentence that is not a question is matched
//!   against identity, preference, decision and correction phrasings, then
//!   against the detail and reference shapes, in that order; the first kind
//!   that matches wins, so "Actually, my name is Dana." is an identity and
//!   "No, let's go with Postgres." a decision. A user question (a sentence
//!   ending in `?`, or opening like one: "what is…", "which one…") that asks
//!   for a fact and is not code forms a question–answer pair with the next
//!   assistant answer, when that answer states the fact in a short clause
//!   (see [`CandidateKind::QuestionAnswer`]).
//! - **Assistant messages**: artifacts the assistant reports ("Opened
//!   INC-20931", "I've pushed branch fix/x-7"), in every message; and, only in
//!   messages that make no tool call (their text is narration of the calls:
//!   "I'll use grep to find it."), decisions stated at the start of a sentence
//!   ("I'll use…", "Decided: …"), details and references. Exploratory verbs
//!   (check, look, try, run, read, search…) are never decisions.
//! - **Tool results**: only the shapes of something made (see
//!   [`CandidateKind::Artifact`]): a result that is one JSON object is read
//!   for an identifier and a sign that it was just made, any other result is
//!   read line by line, its first 60 lines and 16 KiB at most, for lines that
//!   open with a verb of making or are git's branch lines. Everything else a
//!   tool returns is data, not a statement, and error results are not read.
//! - **System messages** are not read at all: they are instructions that stay
//!   anyway. Tool calls and attachments in any message are ignored too.
//!   Pinned messages are read like the others (they normally never reach the
//!   extractor).
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
//!   `Q: Which port does the admin console use? A: It listens on 8443.`
//! - [`CandidateKind::Detail`], in [`Tier::AgentNotes`] (or an identity, when
//!   the user states it about their own thing), the clause alone:
//!   `Detail from the user: "Our production Postgres listens on port 6432"`
//! - [`CandidateKind::Reference`], in [`Tier::AgentNotes`]:
//!   `Reference from the user: "This is about ticket INC-20931"`
//! - [`CandidateKind::Artifact`], in [`Tier::AgentNotes`], a short clause made
//!   from the shape: `Agent artifact: branch fix/retry-backoff-7781 was pushed`
//!
//! A correction carries the corrected claim: the marker ("No,", "Actually,",
//! "That's wrong.") is dropped, and when the marker is the whole sentence the
//! next sentence of the same message is taken as the claim. Runs of white
//! space become one space and control characters are dropped. A quoted
//! statement longer than 200 characters is cut after its last clause boundary
//! (comma, semicolon, dash, bracket) within them. A text longer than the limit
//! is cut at a character boundary (at a space when one is near) and ends with
//! "…".
//!
//! ```
//! use tidemark_core::{Message, Tier};
//! use tidemark_facts::extract::{CandidateKind, Extractor};
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
//! - English only, and only the phrasings and shapes listed on each [`CandidateKind`].
//! - A detail needs an owner word before the thing ("the", "our", "my" …):
//!   "Postgres listens on port 6432" alone is no detail. One sentence yields
//!   one detail, the first.
//! - The code classifier is a heuristic: a prose line that opens like a
//!   statement of code ("return the parcel", "for example:") is skipped, and
//!   a code line without any mark of code is read as prose.
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

mod code;
#[cfg(test)]
mod detail_tests;
mod details;
mod rules;
mod sentences;
#[cfg(test)]
mod tests;
mod tools;
mod words;

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use tidemark_core::{Message, NewFact, Role, Tier};

use code::looks_like_code;
use details::{artifact, bound_statement, detail, reference};
use tools::tool_artifacts;

use rules::{Claim, RULES, Rules};
use sentences::split_sentences;
use words::{
    answer_text, asks_for_fact, capitalize, claim_stands_alone, clean, cut, pair_text, quote, states_value,
    substantial_question,
};

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
    /// mistaken", "You got it wrong", "Correction: …", "Update: …", "To clarify, …", "To be
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
    /// after "please" / "you can"), "I go by \<Name\>", "\<everyone / people / they …\> call(s) me \<Name\>", "I'm \<Name\>" as a
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
    /// you?" is skipped), that asks for a fact: "what / which / where / when /
    /// who / whose" or "how many / much / long / old / big / far / often"
    /// among its first six words. "Why …?", "How do I …?" and yes-or-no
    /// questions ask for explanations and verdicts and make no pair. The
    /// answer is the first assistant message after it that makes no tool call
    /// and has text outside code blocks, found before the next user message;
    /// its first sentence is kept, and a second one when the first is short.
    /// Pleasantries ("Good question!") and introductions ending in a colon
    /// ("Here's how:") are skipped; an answer that opens by asking back
    /// ("Which format do you need?") makes no pair. The kept answer must state
    /// the fact in a short clause of its own: complete sentences of at most
    /// 160 characters with a concrete word past the first (a number, an
    /// identifier, an address, a proper name or a quoted string). Otherwise
    /// the question makes no pair: chatter, explanations and run-on text are
    /// not facts.
    QuestionAnswer,
    /// A named thing and its concrete value, kept in [`Tier::AgentNotes`].
    ///
    /// Shape: an owner ("our", "the", "this", "your", "my" …) and up to five
    /// words naming a thing, a linking verb (a form of "be", optionally with
    /// "called / named / at / on / in / set to / hosted at / moved to …", or a
    /// verb of place and change with its preposition: "listens on", "runs on",
    /// "lives at", "points to", "resolves to", "moved to", "defaults to" …), and
    /// a value whose first word past a few soft words ("port", "number", "at",
    /// "the" …) is concrete: it has a digit, is an identifier ("db-7.internal",
    /// "fix/retry"), an address, a quoted string or a proper name. "The plan is
    /// great" has no concrete value and is no detail. The text is the clause
    /// from the owner to the end of the value, at most 200 characters.
    ///
    /// Two more shapes: a named thing of two to four words opening the
    /// sentence without an owner word ("Staging box is called orion-2"), and a
    /// sentence that is only a capitalised label, a colon and a concrete value
    /// ("Build host: ci-4.int.example"; not log and note labels such as
    /// "Error:" or "Note:", nor lower-case keys such as `port: 5432`).
    ///
    /// **Tier rule**: a detail is about the environment and goes to
    /// [`Tier::AgentNotes`], except when a user states it about a thing they own
    /// in the first person singular ("my employee number is 88123"): that is
    /// an attribute of the user, kept as an [`Identity`](Self::Identity) in
    /// [`Tier::UserProfile`]. "Our", "the" and "your" are environment. An
    /// assistant's "my …" is its own and is not kept.
    Detail,
    /// An identifier named with its referent, kept in [`Tier::AgentNotes`].
    ///
    /// Shape: a word that names a kind of thing (not a function word, a
    /// preposition or a verb form) followed by an identifier: a token with a
    /// digit and a letter or a dash ("INC-20931", "europe-west4", "99-1842-X"),
    /// a number of three digits or more, or a token with a dot, slash,
    /// underscore or colon between letters. "ticket INC-20931", "order number
    /// 99-1842-X", "region europe-west4". The text is the clause around it.
    Reference,
    /// Something the agent or one of its tools made, kept in [`Tier::AgentNotes`].
    ///
    /// Shapes: a sentence of an assistant message, or a line of a tool result,
    /// that opens with a past verb of making ("created", "opened", "pushed",
    /// "wrote", "filed", "deployed" …, optionally after "I've" / "we" /
    /// "successfully") and names an identifier, with an optional kind of
    /// thing between ("Created branch fix/retry-backoff-7781", "I've opened
    /// ticket INC-20931"); the passive "\<thing\> \<id\> was / has been
    /// \<made\>"; git's `[new branch] a -> a` and "Switched to a new branch
    /// 'a'"; kubectl's `kind/name created`; one bare URL returned by a tool
    /// whose name opens with a verb of making (`create_pr`); and a tool result that is one JSON object holding an identifier
    /// (`id`, `key`, `number`, `*_id` …) and a sign that it was just made (a
    /// status such as "created" or "opened", a `created` flag or time, or a
    /// tool whose name opens with a verb of making such as `create_ticket`).
    /// The text is a short clause: `Agent artifact: branch fix/retry-backoff-7781
    /// was pushed`, with the tool's name in brackets when it came from a tool.
    Artifact,
}

impl CandidateKind {
    /// `"preference"`, `"correction"`, `"identity"`, `"decision"`, `"question_answer"`, `"detail"`,
    /// `"reference"` or `"artifact"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Preference => "preference",
            Self::Correction => "correction",
            Self::Identity => "identity",
            Self::Decision => "decision",
            Self::QuestionAnswer => "question_answer",
            Self::Detail => "detail",
            Self::Reference => "reference",
            Self::Artifact => "artifact",
        }
    }

    /// How much a candidate of this kind is worth keeping when there are too many: lower is better.
    fn rank(self) -> u8 {
        match self {
            Self::Identity | Self::Preference | Self::Correction | Self::Detail => 0,
            Self::Decision | Self::Artifact => 1,
            Self::Reference => 2,
            Self::QuestionAnswer => 3,
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
#[non_exhaustive]
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
                // System and tool text, and roles added later, state no facts of the user's.
                _ => Cow::Borrowed(""),
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
                Role::Assistant => {
                    self.assistant_statements(rules, index, own, message.has_tool_calls(), &mut found);
                }
                Role::Tool => self.tool_results(evicted, index, &mut found),
                _ => {}
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
                None => {
                    if let Some((clause, own)) = detail(statement) {
                        let (kind, tier, label) = if own {
                            (CandidateKind::Identity, Tier::UserProfile, "About the user")
                        } else {
                            (CandidateKind::Detail, Tier::AgentNotes, "Detail from the user")
                        };
                        out.push(self.quoted(kind, tier, label, clause, index));
                    } else if let Some(clause) = reference(statement) {
                        let label = "Reference from the user";
                        out.push(self.quoted(
                            CandidateKind::Reference,
                            Tier::AgentNotes,
                            label,
                            clause,
                            index,
                        ));
                    }
                }
            }
        }
    }

    /// What the assistant states in one message: artifacts it made, and, in a
    /// message without tool calls (whose text would narrate them), decisions,
    /// details and references.
    fn assistant_statements(
        &self,
        rules: &Rules,
        index: usize,
        sentences: &[&str],
        calls: bool,
        out: &mut Vec<Candidate>,
    ) {
        for &sentence in sentences {
            if rules.is_question(sentence) {
                continue;
            }
            let statement = rules.strip_fillers(sentence);
            if statement.is_empty() {
                continue;
            }
            if let Some(clause) = artifact(statement) {
                out.push(self.artifact(clause, index));
                continue;
            }
            if calls {
                continue;
            }
            if rules.assistant_decision(statement) {
                out.push(self.quoted(
                    CandidateKind::Decision,
                    Tier::AgentNotes,
                    "Decision by the assistant",
                    statement,
                    index,
                ));
            } else if let Some((clause, false)) = detail(statement) {
                let label = "Detail from the assistant";
                out.push(self.quoted(CandidateKind::Detail, Tier::AgentNotes, label, clause, index));
            } else if let Some(clause) = reference(statement) {
                let label = "Reference from the assistant";
                out.push(self.quoted(CandidateKind::Reference, Tier::AgentNotes, label, clause, index));
            }
        }
    }

    /// Artifacts reported by the tool results of the tool message `index`, named after the calls that asked for them.
    fn tool_results(&self, evicted: &[Message], index: usize, out: &mut Vec<Candidate>) {
        for result in evicted[index].tool_results().filter(|result| !result.is_error) {
            let tool = evicted[..index]
                .iter()
                .rev()
                .flat_map(Message::tool_calls)
                .find(|call| call.id == result.call_id)
                .map(|call| call.name.as_str())
                .filter(|name| name.len() <= 40);
            for clause in tool_artifacts(&result.content, tool) {
                out.push(self.artifact(clause, index));
            }
        }
    }

    /// An artifact candidate carrying `clause`.
    fn artifact(&self, clause: String, index: usize) -> Candidate {
        Candidate {
            kind: CandidateKind::Artifact,
            tier: Tier::AgentNotes,
            text: cut(&format!("Agent artifact: {}", clean(&clause)), self.max_chars),
            message: index,
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
        let question = sentences[index].iter().rev().find(|sentence| {
            rules.is_question(sentence)
                && substantial_question(sentence)
                && asks_for_fact(sentence)
                && !looks_like_code(sentence)
        })?;
        let mut answer = None;
        for (position, message) in evicted.iter().enumerate().skip(index + 1) {
            match message.role {
                Role::User => break,
                Role::Assistant if !message.has_tool_calls() => {
                    let text = answer_text(rules, &sentences[position]);
                    if !text.is_empty() {
                        // The first answer decides: a pair is kept only when it
                        // states the fact in a short clause of its own.
                        if states_value(&text) {
                            answer = Some((position, text));
                        }
                        break;
                    }
                }
                _ => {}
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
        let body = bound_statement(&clean(statement));
        Candidate { kind, tier, text: quote(label, &body, self.max_chars), message: index }
    }

    /// A correction carrying `claim`, its first letter made upper case.
    fn correction(&self, claim: &str, index: usize) -> Candidate {
        let claim = bound_statement(&capitalize(&clean(claim)));
        Candidate {
            kind: CandidateKind::Correction,
            tier: Tier::AgentNotes,
            text: quote("Correction from the user", &claim, self.max_chars),
            message: index,
        }
    }
}

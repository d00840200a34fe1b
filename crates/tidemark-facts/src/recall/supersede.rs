//! Which quoted passages a newer one replaces: "the window is now Sunday 06:00 instead" over "the window is Thursday 22:30".
//!
//! A user who changes a plan says so in a later turn, and recall would
//! otherwise quote both turns side by side, the stale value as plainly as
//! the new one. A passage *updates* when it carries a change marker ("instead",
//! "rather than", "change of plan", "moved to", "no longer", "update on", ...;
//! English only); it *replaces* an older passage of the block when it also
//! shares at least [`SHARED_TERMS`] search terms with it (stop words and the
//! markers' own words aside, common English endings taken off) and the older passage holds a value (a
//! term with a digit: a time, a date, an amount, a version; or a capitalised
//! word inside a sentence: a person, a place) while the newer one holds a
//! value the older does not, in the marker's sentence or the one after it:
//! the same subject, said again with another value. A marker in one sentence
//! and a new value in another ("… allows 2.25 GiB … That matches OOM kills
//! rather than a slow leak.") compare rather than change. The older passage
//! then leaves the block, and its room goes to the next candidate. Without the value condition, later turns of a dialogue that
//! add to what was said were taken for changes (LoCoMo evidence recall fell
//! from 62.8% to 56.6% at 4,000 tokens); with it, that cost is two questions of 760.
//!
//! A correction is often said without any marker ("the staging database
//! listens on port 6432", after "… on port 5432"), so a newer plain statement
//! that *restates* an older one with another value in the same place replaces
//! it too ([`Topic::restates`]); questions, records and tool output never do.
//!
//! A correction that names the value it turns away ("it's 84.5 kg a week,
//! not 48.5"; "6.85%, not 6.35%") replaces any older passage holding that
//! value, when it gives another value of the same kind and shares a word
//! with it ([`Topic::rejects`]): the value itself ties the two together.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use tidemark_core::recall::{query_terms, terms};

mod kinds;

use kinds::{Kinds, value_kinds};

/// How many search terms two passages must share for the newer to replace the older.
pub(super) const SHARED_TERMS: usize = 3;

/// Phrases that say something changed, matched in lower case at word boundaries.
const MARKERS: &[&str] = &[
    "instead",
    "rather than",
    "change of plan",
    "no longer",
    "not anymore",
    "update on",
    "update:",
    "correction:",
    "scratch that",
    "moved to",
    "moves to",
    "goes up to",
    "goes down to",
    "rescheduled",
    "postponed",
    "pushed back",
    "brought forward",
    "switched to",
    "shifts by",
    "vetoed",
];

/// Further phrases that say a stated value changed, for facts only: a user correcting a fact says
/// "make that 12" or "changed to room 2.07", while in a dialogue's passages these phrases more often
/// tell a story than correct one (on the LoCoMo dev half, recall with them had every evidence turn in
/// the prompt for one question fewer at 2,000 tokens and three fewer at 4,000, of 760).
const FACT_MARKERS: &[&str] = &["changed to", "updated to", "make that"];

/// The markers' own search terms, stemmed: they say that something changed, not what, so two changes of
/// different subjects ("Correction: the billing deadline moved to …", "… the search deadline moved to …")
/// sharing them share no subject. Worked out once.
static MARKER_WORDS: LazyLock<Vec<String>> =
    LazyLock::new(|| MARKERS.iter().flat_map(|marker| query_terms(marker)).map(stem).collect());

/// The markers in one automaton, so that a passage is read once for all of them; `None` only if it
/// could not be built, and then each marker is looked for in turn.
static MARKER_FINDER: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| AhoCorasick::new(MARKERS).ok());

/// The [`ADDING`] words in one automaton, as [`MARKER_FINDER`] holds the markers.
static ADDING_FINDER: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| AhoCorasick::new(ADDING).ok());

/// Whether `lower` carries a change marker at word boundaries.
fn says_changed(lower: &str) -> bool {
    has_any(MARKER_FINDER.as_ref(), MARKERS, lower)
}

/// Whether `lower` carries one of the [`FACT_MARKERS`] at word boundaries.
fn says_fact_changed(lower: &str) -> bool {
    FACT_MARKERS.iter().any(|marker| has_phrase(lower, marker))
}

/// Whether `lower` says it adds to what came before ([`ADDING`]) at word boundaries.
fn says_adding(lower: &str) -> bool {
    has_any(ADDING_FINDER.as_ref(), ADDING, lower)
}

/// Whether one of `phrases` occurs in `lower` at word boundaries, read in one pass by `finder` (the
/// phrases' automaton), or phrase by phrase when there is none.
fn has_any(finder: Option<&AhoCorasick>, phrases: &[&str], lower: &str) -> bool {
    match finder {
        // Overlapping, so that a match a boundary turns away does not hide one that starts inside it.
        Some(finder) => finder.find_overlapping_iter(lower).any(|found| {
            phrases
                .get(found.pattern().as_usize())
                .is_some_and(|phrase| apart_at(lower, found.start(), phrase))
        }),
        None => phrases.iter().any(|phrase| has_phrase(lower, phrase)),
    }
}

/// What a passage is about, and whether it says something changed.
#[derive(Debug, Clone)]
pub(crate) struct Topic {
    /// Its search terms without stop words, sorted and distinct.
    terms: Vec<String>,
    /// Whether it carries a change marker.
    updates: bool,
    /// Its values said in a sentence that carries a change marker or in the sentence right after
    /// one, sorted and distinct: where a change gives its new value.
    changed: Vec<String>,
    /// Its values named right after "not", "rather than", "instead of" or "in place of": values it
    /// turns away ("6.85%, not 6.35%"), sorted and distinct.
    rejected: Vec<String>,
    /// Its terms with a digit in them (times, dates, amounts, versions, codes) and its names, sorted and distinct.
    values: Vec<String>,
    /// Its values that say when (a clock time, a date, a day or month named), sorted and distinct.
    when: Vec<String>,
    /// Its values with a digit said other than as a time or date (amounts, versions, codes), sorted and distinct.
    counted: Vec<String>,
    /// Its terms in the order they come, stop words and the markers' words aside.
    sequence: Vec<String>,
    /// Its terms that are not values, sorted and distinct.
    words: Vec<String>,
    /// Whether it says it adds to what came before ("also", "again", "then"): it restates nothing.
    /// Only worked out for a plain statement (`tool` false); anything else restates nothing anyway.
    adds: bool,
    /// Whether it is not a plain statement: a question, a record (`key=value`, JSON, a tool call) or
    /// what a tool returned. It is neither restated nor restates (the next invoice does not correct the last).
    tool: bool,
}

/// Words that say a turn adds to what was said rather than changing it, matched in lower case at word boundaries.
const ADDING: &[&str] = &["also", "too", "again", "another", "as well", "then", "besides", "in addition"];

impl Topic {
    /// The topic of a stated fact, or of a turn that may change one: recall's markers and [`FACT_MARKERS`].
    pub(crate) fn of_statement(text: &str) -> Self {
        let lower = text.to_lowercase();
        Self::read_statement(text, &lower, says_changed(&lower), says_fact_changed(&lower))
    }

    /// [`of_statement`](Topic::of_statement) of a turn that says something changed, `None` for any other:
    /// most turns carry no marker, and one pass finds one, where working out a topic reads the text many times.
    pub(crate) fn of_stated_change(text: &str) -> Option<Self> {
        let lower = text.to_lowercase();
        let (changed, fact_changed) = (says_changed(&lower), says_fact_changed(&lower));
        // Any word after "not" may be a name turned away ("Friday, not Thursday"): the topic tells.
        (changed || fact_changed || after_rejecting(&lower).next().is_some())
            .then(|| Self::read_statement(text, &lower, changed, fact_changed))
    }

    /// What [`of_statement`](Topic::of_statement) and [`of_stated_change`](Topic::of_stated_change) share,
    /// told whether `lower` carries one of recall's markers (`changed`) and one of [`FACT_MARKERS`] (`fact_changed`).
    fn read_statement(text: &str, lower: &str, changed: bool, fact_changed: bool) -> Self {
        let mut topic = Self::read(text, lower, changed);
        if fact_changed {
            topic.updates = true;
            topic.changed = values_near_marker(text, &topic.values, &|lower| {
                says_changed(lower) || says_fact_changed(lower)
            });
        }
        topic
    }

    pub(crate) fn of(text: &str) -> Self {
        let lower = text.to_lowercase();
        let updates = says_changed(&lower);
        Self::read(text, &lower, updates)
    }

    /// The topic of `text`, whose lower-case form is `lower` and which carries a change marker when
    /// `updates` is true: the work [`Topic::of`] and [`Topic::of_change`] share.
    fn read(text: &str, lower: &str, updates: bool) -> Self {
        let sequence: Vec<String> =
            query_terms(text).into_iter().map(stem).filter(|term| !MARKER_WORDS.contains(term)).collect();
        let mut terms = sequence.clone();
        terms.sort_unstable();
        terms.dedup();
        let mut values: Vec<String> =
            terms.iter().filter(|term| term.chars().any(|c| c.is_ascii_digit())).cloned().collect();
        values.extend(names(text).into_iter().map(stem));
        let codes = codes(text);
        values.extend(codes.iter().cloned());
        values.sort_unstable();
        values.dedup();
        // A question states nothing, and a record (`key=value`, JSON, a tool call) is one of many alike.
        let tool = text.contains(['?', '=', '{']);
        // Only a restatement reads it, and what is not a plain statement restates nothing.
        let adds = !tool && says_adding(lower);
        let words = terms.iter().filter(|term| values.binary_search(term).is_err()).cloned().collect();
        let changed = if updates { values_near_marker(text, &values, &says_changed) } else { Vec::new() };
        let (when, mut counted) = value_kinds(text, &values);
        if !codes.is_empty() {
            counted.extend(codes);
            counted.sort_unstable();
            counted.dedup();
        }
        let rejected = rejected_values(lower, &values);
        Self { terms, updates, changed, rejected, values, when, counted, sequence, words, adds, tool }
    }

    /// The same topic, of a passage a tool returned when `tool` is true.
    pub(crate) fn returned_by_tool(mut self, tool: bool) -> Self {
        self.tool |= tool;
        self
    }

    /// The topic of `text` (a tool's output when `tool` is true) if it could replace a passage: it holds
    /// a value, and carries a change marker with a value in its sentence or the next, or could
    /// [restate](Topic::restates) one; `None` otherwise.
    pub(crate) fn of_change(text: &str, tool: bool) -> Option<Self> {
        // Most of a window is tool output and long turns: only a marker lets those replace anything,
        // and one pass over the text finds it, where working out the topic reads the text many times.
        let plain = !tool
            && !text.contains(['?', '=', '{'])
            && text.split_whitespace().nth(RESTATED_MAX_TERMS * 3).is_none();
        let lower = text.to_lowercase();
        let updates = says_changed(&lower);
        if !plain && !updates && !names_rejected(&lower) {
            return None;
        }
        let topic = Self::read(text, &lower, updates).returned_by_tool(tool);
        let restating = !topic.adds && !topic.tool && topic.terms.len() <= RESTATED_MAX_TERMS;
        let replacing = !topic.changed.is_empty() || !topic.rejected.is_empty() || restating;
        (!topic.values.is_empty() && replacing).then_some(topic)
    }

    /// The kinds `value`, one of its values, is said as: a term may be a day in one place and an amount in another.
    fn kinds(&self, value: &String) -> Kinds {
        let when = self.when.binary_search(value).is_ok();
        let counted = self.counted.binary_search(value).is_ok();
        let named = !when && !value.chars().any(|c| c.is_ascii_digit());
        Kinds { when, counted, named }
    }

    /// Whether this passage, the newer, replaces `older`: it says something changed about the same
    /// subject and gives a value the older did not where it says so (in the marker's sentence or the
    /// next), or it [restates](Topic::restates) the older with another value in the same place.
    ///
    /// The new value must be of a kind the older holds (see [`Kinds`]): "the window is now Sunday
    /// 06:00" changes a time or a day, not "the contract promises 99.95% uptime" beside it.
    pub(crate) fn replaces(&self, older: &Topic) -> bool {
        if older.values.is_empty() || self.values.iter().all(|value| holds(&older.values, value)) {
            return false;
        }
        let held = older.values.iter().fold(Kinds::default(), |kinds, value| kinds | older.kinds(value));
        let changed =
            self.changed.iter().any(|value| !holds(&older.values, value) && self.kinds(value).meets(held));
        (changed && super::shared(&self.terms, &older.terms) >= SHARED_TERMS)
            || self.rejects(older)
            || self.restates(older)
    }

    /// Whether this passage, the newer, turns away a value `older` holds ("… 84.5 kg a week, not
    /// 48.5" over "… about 48.5 kg a week") and gives another of the same kind, sharing a word
    /// (a term that is not a value) with it.
    fn rejects(&self, older: &Topic) -> bool {
        let Some(turned_away) = self.rejected.iter().find(|value| holds(&older.values, value)) else {
            return false;
        };
        let kind = older.kinds(turned_away);
        self.values.iter().any(|value| {
            !holds(&older.values, value) && !holds(&self.rejected, value) && self.kinds(value).meets(kind)
        }) && super::shared(&self.words, &older.words) > 0
    }

    /// Whether this passage, the newer, says what `older` said with another value in the same place,
    /// marker or not: "the staging database listens on port 6432" over "… on port 5432", "call me
    /// Maggie" over "call me Margaret", "I live in York now, not Leeds" over "I live in Leeds".
    ///
    /// Both must be plain statements of at most [`RESTATED_MAX_TERMS`] terms
    /// (not a question, a record or a tool's output), and the newer must not
    /// say it adds ("also", "again", "then"). They share the older's subject:
    /// at least [`RESTATED_TERMS`] terms, one of them a word (a term that is
    /// not a value), or as many as the older has words when that is fewer;
    /// and half the terms of the shorter, the changed values set aside. A
    /// value only the newer holds sits beside the same term as one of the
    /// older's values (the term before or after it, values that only one of
    /// the two holds skipped over), so the new value fills the old one's place
    /// rather than adding to the story. And no shared word is qualified apart
    /// ("the billing database" and "the search database" are two subjects).
    fn restates(&self, older: &Topic) -> bool {
        if self.adds
            || self.tool
            || older.tool
            || self.terms.len().max(older.terms.len()) > RESTATED_MAX_TERMS
        {
            return false;
        }
        let shared = super::shared(&older.terms, &self.terms);
        if shared < RESTATED_TERMS.min(older.words.len()) || super::shared(&older.words, &self.words) == 0 {
            return false;
        }
        let differs = |term: &String| holds(&self.values, term) != holds(&older.values, term);
        // Half the terms at least are shared, the values that changed aside.
        let kept = |topic: &Topic| topic.terms.iter().filter(|term| !differs(term)).count();
        if shared * 2 < kept(self).min(kept(older)) {
            return false;
        }
        let fresh = self.values.iter().filter(|value| !holds(&older.values, value));
        let in_place = fresh.into_iter().any(|value| {
            let mine = beside(&self.sequence, value, &differs);
            older
                .values
                .iter()
                .filter(|old| *old != value)
                .any(|old| beside(&older.sequence, old, &differs).iter().any(|term| mine.contains(term)))
        });
        let heads = |term: &String| !holds(&self.values, term) && !holds(&older.values, term);
        in_place
            && !qualified_apart_before(&older.sequence, &self.sequence, &heads)
            && !self.substitutes(older, &differs)
    }

    /// Whether a word of `older` that this passage lacks has one of this passage's own words in its
    /// place, the same terms on both sides of it: "add a flag to the auth module" and "… the metrics
    /// module" are two requests, whatever number each carries.
    fn substitutes(&self, older: &Topic, differs: &dyn Fn(&String) -> bool) -> bool {
        // The places of the older's words this passage lacks.
        let theirs: Vec<_> = (0..older.sequence.len())
            .filter(|&at| {
                let term = &older.sequence[at];
                older.words.binary_search(term).is_ok() && self.terms.binary_search(term).is_err()
            })
            .map(|at| neighbours(&older.sequence, at, differs))
            .collect();
        // A word of this passage in one of those places (a shared word may stand there: terms are kept once).
        (0..self.sequence.len()).any(|at| {
            let mine = neighbours(&self.sequence, at, differs);
            self.words.binary_search(&self.sequence[at]).is_ok()
                && (mine.0.is_some() || mine.1.is_some())
                && theirs.contains(&mine)
        })
    }
}

/// Whether `values`, sorted and distinct as a topic keeps its values, holds `term`.
fn holds(values: &[String], term: &str) -> bool {
    values.binary_search_by(|value| value.as_str().cmp(term)).is_ok()
}

/// How many terms a [restatement](Topic::restates) must share with the older passage (as many as the
/// older has words, when that is fewer), one of them at least a word.
const RESTATED_TERMS: usize = 2;

/// The most terms either passage of a [restatement](Topic::restates) may hold: a change is said in a
/// sentence or two, and long tool output shares words and values with everything.
const RESTATED_MAX_TERMS: usize = 40;

/// The terms right before and right after `value`'s first place in `sequence`, skipping the values only one passage holds.
fn beside<'a>(sequence: &'a [String], value: &String, differs: &dyn Fn(&String) -> bool) -> Vec<&'a String> {
    let Some(at) = sequence.iter().position(|term| term == value) else { return Vec::new() };
    let (before, after) = neighbours(sequence, at, differs);
    before.into_iter().chain(after).collect()
}

/// The nearest terms before and after place `at` of `sequence` (none past either end), skipping the
/// terms `differs` says yes to: the values only one of two passages holds.
fn neighbours<'a>(
    sequence: &'a [String],
    at: usize,
    differs: &dyn Fn(&String) -> bool,
) -> (Option<&'a String>, Option<&'a String>) {
    let before = sequence.get(..at).unwrap_or_default().iter().rev().find(|term| !differs(term));
    let after = sequence.get(at + 1..).unwrap_or_default().iter().find(|term| !differs(term));
    (before, after)
}

impl Topic {
    /// [`replaces`](Topic::replaces), unless the two name different subjects of one kind: the same word qualified by another ("the billing Postgres" and "the search Postgres", "the design team" and "the platform team").
    ///
    /// Facts kept from one kind of statement share the three terms `replaces`
    /// asks for; the change of one subject must not retire its siblings. A
    /// qualifier is the term right before a term both share, when it is a word
    /// (no digit) the other text does not hold at all.
    pub(crate) fn replaces_clearly(&self, older: &Topic) -> bool {
        self.replaces(older) && !qualified_apart(&older.sequence, &self.sequence)
    }
}

/// Whether a term both sequences hold comes right after a different qualifying word in each (see [`Topic::replaces_clearly`]).
fn qualified_apart(old: &[String], new: &[String]) -> bool {
    qualified_apart_before(old, new, &|_| true)
}

/// [`qualified_apart`], counting only the shared terms `head` says yes to: a restatement's changed
/// value may stand before a shared value ("Tuesday at 15:00", "Wednesday at 15:00") without making
/// two subjects of it, while a name before a shared word ("Mel's birthday", "Caroline's birthday") does.
fn qualified_apart_before(old: &[String], new: &[String], head: &dyn Fn(&String) -> bool) -> bool {
    let word = |term: &String| !term.chars().any(|c| c.is_ascii_digit());
    old.windows(2).any(|pair| {
        let (qualifier, shared) = (&pair[0], &pair[1]);
        head(shared)
            && word(qualifier)
            && !new.contains(qualifier)
            && new.windows(2).any(|other| other[1] == *shared && word(&other[0]) && !old.contains(&other[0]))
    })
}

/// What a stored fact says, without the label the extractor put in front (`Detail from the user: "…"`): the words its subject is compared by.
pub(crate) fn statement(text: &str) -> &str {
    match text.split_once(": \"") {
        Some((label, quoted)) if label.len() < 40 && !label.contains('"') => quoted.trim_end_matches('"'),
        _ => text,
    }
}

/// The first sentence of `text` that says something changed, trimmed to at most `max_chars` characters.
///
/// A change of a remembered value ("From January my day rate goes up to
/// £460.") is the fact's new value, whether or not the extractor kept it.
pub(crate) fn change_sentence(text: &str, max_chars: usize) -> Option<String> {
    let sentence =
        sentences(text).into_iter().map(str::trim).find(|sentence| Topic::of_statement(sentence).updates)?;
    let topic = Topic::of(sentence);
    if topic.values.is_empty() {
        return None;
    }
    Some(sentence.chars().take(max_chars).collect())
}

/// The sentences of `text`, in order: each ends after a `.`, `!`, `?` or line break followed by white space or the end.
fn sentences(text: &str) -> Vec<&str> {
    let mut start = 0;
    let mut found = Vec::new();
    for (at, c) in text.char_indices() {
        let end = at + c.len_utf8();
        let next = text.get(end..).and_then(|rest| rest.chars().next());
        if matches!(c, '.' | '!' | '?' | '\n') && next.is_none_or(char::is_whitespace) {
            found.push(text.get(start..end).unwrap_or_default());
            start = end;
        }
    }
    found.push(text.get(start..).unwrap_or_default());
    found
}

/// The `values` (sorted) of `text` said in a sentence that `marked` finds a change marker in (given
/// the sentence in lower case), or in the sentence right after one ("Update on the offsite. It is in
/// Lisbon now."), sorted and distinct.
///
/// A marker in one sentence and a new value in another, far from it, are not a change of that value:
/// "The heap flag allows 2.25 GiB … That matches OOM kills rather than a slow leak." compares, and
/// changes nothing a tool's output said.
fn values_near_marker(text: &str, values: &[String], marked: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut near = Vec::new();
    let mut after_marker = false;
    for sentence in sentences(text) {
        let marker = marked(&sentence.to_lowercase());
        if marker || after_marker {
            near.extend(
                terms(sentence).into_iter().map(stem).filter(|term| values.binary_search(term).is_ok()),
            );
        }
        after_marker = marker;
    }
    near.sort_unstable();
    near.dedup();
    near
}

/// A term with the commonest English endings taken off, so that "snapshots" and "snapshot", "copied" and "copies" meet.
fn stem(term: String) -> String {
    if term.chars().count() <= 4 || !term.chars().all(|c| c.is_ascii_lowercase()) {
        return term;
    }
    for (ending, instead) in [("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")] {
        if let Some(root) = term.strip_suffix(ending)
            && !(ending == "s" && root.ends_with('s'))
        {
            return format!("{root}{instead}");
        }
    }
    term
}

/// Phrases after which the value named is one a change turns away.
const REJECTING: &[&str] = &["not", "rather than", "instead of", "in place of"];

/// The least letters of a capitalised code ([`codes`]): shorter capitals are mostly acronyms (`AWS`, `HACCP`).
const CODE_LETTERS: usize = 6;

/// The words of `text` written in capitals only, of at least [`CODE_LETTERS`] letters, lower-cased:
/// codes said as words (`LOAFTIDE`), which count as amounts or codes.
fn codes(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() >= CODE_LETTERS && word.chars().all(|c| c.is_ascii_uppercase()))
        .map(str::to_lowercase)
        .collect()
}

/// The word after each [`REJECTING`] phrase of `lower`, an article skipped.
fn after_rejecting(lower: &str) -> impl Iterator<Item = &str> {
    REJECTING.iter().flat_map(move |phrase| {
        lower.match_indices(phrase).filter(|(at, _)| apart_at(lower, *at, phrase)).filter_map(
            move |(at, _)| {
                let mut rest = lower.get(at + phrase.len()..)?.split_whitespace();
                let first = rest.next()?;
                if matches!(first, "the" | "a" | "an") { rest.next() } else { Some(first) }
            },
        )
    })
}

/// Whether `lower` names a value with a digit right after a [`REJECTING`] phrase.
/// A cheap look before a topic is worked out; names and codes are looked for in the topic.
fn names_rejected(lower: &str) -> bool {
    after_rejecting(lower).any(|word| word.chars().any(|c| c.is_ascii_digit()))
}

/// The `values` (sorted) of `lower` named right after a [`REJECTING`] phrase, sorted and distinct.
fn rejected_values(lower: &str, values: &[String]) -> Vec<String> {
    if values.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<String> = after_rejecting(lower)
        .filter_map(|word| terms(word).into_iter().map(stem).next())
        .filter(|term| values.binary_search(term).is_ok())
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The capitalised words of `text` that do not open a sentence, lower-cased: names of people and places.
fn names(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut opening = true;
    for word in text.split_whitespace() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let capitalised = bare.chars().next().is_some_and(char::is_uppercase)
            && bare.chars().skip(1).all(char::is_lowercase)
            && bare.chars().count() > 2;
        if !opening && capitalised {
            found.push(bare.to_lowercase());
        }
        opening = word.ends_with(['.', '!', '?', ':']) || (bare.is_empty() && opening);
    }
    found
}

/// Whether `phrase` occurs in `lower` with no letter or digit right before or after it.
fn has_phrase(lower: &str, phrase: &str) -> bool {
    lower.match_indices(phrase).any(|(at, _)| apart_at(lower, at, phrase))
}

/// Whether `phrase`, found in `lower` at byte `at`, has no letter or digit right before or after it
/// (after a phrase that ends in a colon, anything may follow).
fn apart_at(lower: &str, at: usize, phrase: &str) -> bool {
    let before = lower.get(..at).and_then(|head| head.chars().next_back());
    let after = lower.get(at + phrase.len()..).and_then(|tail| tail.chars().next());
    let apart = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    apart(before) && (phrase.ends_with(':') || apart(after))
}

#[cfg(test)]
mod tests;

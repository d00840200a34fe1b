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
//! value the older does not: the same subject, said again with another
//! value. The older passage then leaves the block, and its room goes to the
//! next candidate. Without the value condition, later turns of a dialogue that
//! add to what was said were taken for changes (LoCoMo evidence recall fell
//! from 62.8% to 56.6% at 4,000 tokens); with it, that cost is two questions of 760.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use tidemark_core::recall::query_terms;

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

/// Whether `lower` carries a change marker at word boundaries.
fn says_changed(lower: &str) -> bool {
    match MARKER_FINDER.as_ref() {
        // Overlapping, so that a match a boundary turns away does not hide one that starts inside it.
        Some(finder) => finder.find_overlapping_iter(lower).any(|found| {
            MARKERS
                .get(found.pattern().as_usize())
                .is_some_and(|marker| apart_at(lower, found.start(), marker))
        }),
        None => MARKERS.iter().any(|marker| has_phrase(lower, marker)),
    }
}

/// What a passage is about, and whether it says something changed.
#[derive(Debug, Clone)]
pub(crate) struct Topic {
    /// Its search terms without stop words, sorted and distinct.
    terms: Vec<String>,
    /// Whether it carries a change marker.
    updates: bool,
    /// Its terms with a digit in them (times, dates, amounts, versions, codes) and its names, sorted and distinct.
    values: Vec<String>,
    /// Its terms in the order they come, stop words and the markers' words aside.
    sequence: Vec<String>,
}

impl Topic {
    /// The topic of a stated fact, or of a turn that may change one: recall's markers and [`FACT_MARKERS`].
    pub(crate) fn of_statement(text: &str) -> Self {
        let mut topic = Self::of(text);
        if !topic.updates {
            let lower = text.to_lowercase();
            topic.updates = FACT_MARKERS.iter().any(|marker| has_phrase(&lower, marker));
        }
        topic
    }

    pub(crate) fn of(text: &str) -> Self {
        let sequence: Vec<String> =
            query_terms(text).into_iter().map(stem).filter(|term| !MARKER_WORDS.contains(term)).collect();
        let mut terms = sequence.clone();
        terms.sort_unstable();
        terms.dedup();
        let lower = text.to_lowercase();
        let updates = says_changed(&lower);
        let mut values: Vec<String> =
            terms.iter().filter(|term| term.chars().any(|c| c.is_ascii_digit())).cloned().collect();
        values.extend(names(text));
        values.sort_unstable();
        values.dedup();
        Self { terms, updates, values, sequence }
    }

    /// The topic of `text` if it carries a change marker (and so can replace anything), without
    /// working out the terms of one that does not.
    pub(crate) fn of_change(text: &str) -> Option<Self> {
        let lower = text.to_lowercase();
        says_changed(&lower).then(|| Self::of(text))
    }

    /// Whether it carries a change marker: whether it can replace anything.
    pub(crate) fn updates(&self) -> bool {
        self.updates
    }

    /// Whether this passage, the newer, replaces `older`: it says something changed about the same subject, and gives a value the older did not.
    pub(crate) fn replaces(&self, older: &Topic) -> bool {
        if !self.updates
            || older.values.is_empty()
            || self.values.iter().all(|value| older.values.contains(value))
        {
            return false;
        }
        super::shared(&self.terms, &older.terms) >= SHARED_TERMS
    }
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
    let word = |term: &String| !term.chars().any(|c| c.is_ascii_digit());
    old.windows(2).any(|pair| {
        let (qualifier, head) = (&pair[0], &pair[1]);
        word(qualifier)
            && !new.contains(qualifier)
            && new.windows(2).any(|other| other[1] == *head && word(&other[0]) && !old.contains(&other[0]))
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
    let mut start = 0;
    let mut sentences = Vec::new();
    for (at, c) in text.char_indices() {
        let next = text[at + c.len_utf8()..].chars().next();
        if matches!(c, '.' | '!' | '?' | '\n') && next.is_none_or(char::is_whitespace) {
            sentences.push(&text[start..at + c.len_utf8()]);
            start = at + c.len_utf8();
        }
    }
    sentences.push(&text[start..]);
    let sentence =
        sentences.into_iter().map(str::trim).find(|sentence| Topic::of_statement(sentence).updates)?;
    let topic = Topic::of(sentence);
    if topic.values.is_empty() {
        return None;
    }
    Some(sentence.chars().take(max_chars).collect())
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
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The one automaton finds a marker exactly when looking for each marker in turn does.
        #[test]
        fn the_automaton_finds_what_each_marker_finds(
            pieces in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(MARKERS.to_vec()).prop_map(str::to_owned),
                    "[a-z :.é]{0,6}",
                ],
                0..8,
            )
        ) {
            let lower = pieces.concat();
            prop_assert_eq!(says_changed(&lower), MARKERS.iter().any(|marker| has_phrase(&lower, marker)));
        }
    }

    #[test]
    fn a_change_of_one_subject_leaves_its_siblings() {
        let change = Topic::of("Change of plan: our billing Postgres listens on port 6432 instead.");
        assert!(change.replaces_clearly(&Topic::of("Our billing Postgres listens on port 5433.")));
        assert!(!change.replaces_clearly(&Topic::of("Our search Postgres listens on port 5440.")));
        let change = Topic::of_statement("The platform team meeting room changed to room 5.18.");
        assert!(!change.replaces_clearly(&Topic::of("The design team meeting room changed to room 2.07.")));
        // Rephrased, with words of its own and none qualifying a shared word otherwise.
        let change = Topic::of_statement("Actually, make that 12 runners for the payments build.");
        assert!(change.replaces_clearly(&Topic::of("The payments build runs on 8 runners.")));
        assert!(!change.replaces_clearly(&Topic::of("The mobile build runs on 6 runners.")));
        let change = Topic::of("Decision made: from January my animation day rate goes up to £460.");
        assert!(
            change
                .replaces_clearly(&Topic::of("my day rate is £425 for animation and £360 for illustration"))
        );
    }

    #[test]
    fn a_change_sentence_is_the_one_with_the_marker_and_a_value() {
        let text = "Thanks for the update. From January my day rate goes up to £460. See you then!";
        assert_eq!(change_sentence(text, 300).as_deref(), Some("From January my day rate goes up to £460."));
        assert_eq!(change_sentence("We switched to a calmer tone instead.", 300), None, "no value, no fact");
        assert_eq!(change_sentence("Nothing changed here at 5 pm.", 300), None);
        assert_eq!(
            statement("Detail from the user: \"The box is called kestrel-04\""),
            "The box is called kestrel-04"
        );
        assert_eq!(statement("plain text: no quote"), "plain text: no quote");
    }

    #[test]
    fn a_changed_plan_replaces_the_plan_it_changes() {
        let old =
            Topic::of("If the upgrade needs downtime, the window I can defend to sales is Thursday 22:30.");
        let no_value = Topic::of("The downtime window I can defend to sales is late on a weekday night.");
        let same_value = Topic::of("Sales vetoed nothing: the downtime window stays Thursday 22:30 instead.");
        let new = Topic::of("Sales vetoed Thursdays, so the downtime window is now Sunday 06:00 instead.");
        assert!(new.replaces(&old));
        assert!(!old.replaces(&new), "the older passage carries no marker");
        assert!(!new.replaces(&no_value), "the older passage holds no value to replace");
        assert!(!same_value.replaces(&old), "the newer passage gives no other value");
        // A marker alone is not enough: the subject must be the same.
        let elsewhere = Topic::of("The cache module now logs every miss instead of every tenth.");
        assert!(!elsewhere.replaces(&old));
        // Words merely containing a marker do not count.
        let known = Topic::of("Snowfall in the downtime window; sales unchanged, nowhere else.");
        assert!(!known.replaces(&old), "{known:?}");
        // Other forms of the same words count as the same subject.
        let copies = Topic::of("Nightly RDS snapshots are copied out of region to eu-west-3 in Paris.");
        let update = Topic::of(
            "Update on the DR copies: make the snapshot copy target eu-central-2 rather than Paris.",
        );
        assert!(update.replaces(&copies));
        // A name is a value too; the one opening a sentence is not.
        let ifeoma = Topic::of("I'm off on Friday, so hand the pager to Ifeoma for the day.");
        let bartek =
            Topic::of("Change of plan for Friday: Ifeoma is ill, so Bartek takes the pager instead.");
        assert!(bartek.replaces(&ifeoma));
        assert_eq!(names("Bartek said so. Then Ifeoma left for Hobart: Sunday."), ["ifeoma", "hobart"]);
        // The words of a marker are not a shared subject.
        let billing = Topic::of("Correction from the user: the billing deadline moved to 1 April.");
        let search = Topic::of("Correction: the search deadline moved to 3 May.");
        assert!(!search.replaces(&billing));
    }
}

//! A strict judge of stored facts: a fact is real only when it can be traced to a sentence the corpus labels as a fact statement.
//!
//! Measuring an extractor's precision needs a rule that does not give it the
//! benefit of the doubt. The corpus (planted facts, and whichever generated
//! sentences a test explicitly labels) lists its fact [`Statement`]s; every
//! other sentence is filler. A stored text is judged by the statement it
//! *carries*, its body:
//!
//! - `Q: … A: …` (a question–answer pair): the answer;
//! - `Agent artifact: …`: the clause after the label;
//! - `Label: "…"` (every quoted form): the quoted words.
//!
//! The body is real when, compared in lower case with runs of white space as
//! one space (and a trailing `…` or period ignored), it is a part of one
//! labelled statement and it carries what makes that statement a fact: the
//! statement's key value when it has one, and otherwise at least half of the
//! statement's characters (a partial clause is not the fact). An artifact is
//! a clause the extractor composes from a shape ("branch x was pushed"), so it
//! is real when it names the key value of a labelled statement.
//!
//! Everything else is a false positive: code, questions, filler, pairs glued
//! from chatter, and clauses that carry some words of a statement but not its
//! value.
//!
//! ```
//! use tidemark_testkit::judge::{Statement, is_real};
//!
//! let statements = [Statement::keyed("Our staging box is called vega-7.int.example.", "vega-7.int.example")];
//! assert!(is_real(r#"Detail from the user: "Our staging box is called vega-7.int.example""#, &statements));
//! assert!(!is_real(r#"Detail from the user: "Our staging box""#, &statements));
//! assert!(!is_real("Q: How do I deploy? A: the build fails when config", &statements));
//! assert!(is_real("Agent artifact: host vega-7.int.example was named", &statements));
//! ```

/// A sentence the corpus labels as stating a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Statement {
    /// The sentence, as it was written into the corpus.
    pub text: String,
    /// The value that makes it a fact (an id, a host, a date), when it has one.
    pub key: Option<String>,
}

impl Statement {
    /// A statement whose fact is `key`: a stored text must name `key` to be real.
    pub fn keyed(text: impl Into<String>, key: impl Into<String>) -> Self {
        Self { text: text.into(), key: Some(key.into()) }
    }

    /// A statement without one key value: a stored text must quote at least half of it.
    pub fn whole(text: impl Into<String>) -> Self {
        Self { text: text.into(), key: None }
    }
}

/// Whether the stored fact `text` is traceable to one of `statements` (see the [module](self) docs).
pub fn is_real(text: &str, statements: &[Statement]) -> bool {
    let (body, artifact) = body(text);
    let body = normal(body);
    if body.is_empty() {
        return false;
    }
    statements.iter().any(|statement| {
        let key = statement.key.as_deref().map(normal);
        if artifact {
            return key.is_some_and(|key| body.contains(&key));
        }
        let whole = normal(&statement.text);
        if !whole.contains(&body) {
            return false;
        }
        match key {
            Some(key) => body.contains(&key),
            None => 2 * body.chars().count() >= whole.chars().count(),
        }
    })
}

/// The statement `text` carries, and whether it is a composed artifact clause.
fn body(text: &str) -> (&str, bool) {
    if text.starts_with("Q: ") {
        return (text.split_once(" A: ").map_or("", |(_, answer)| answer), false);
    }
    if let Some(clause) = text.strip_prefix("Agent artifact: ") {
        return (clause, true);
    }
    match (text.find('"'), text.rfind('"')) {
        (Some(open), Some(close)) if close > open => (&text[open + 1..close], false),
        _ => ("", false),
    }
}

/// `text` in lower case, runs of white space made one space, without a trailing ellipsis or period.
fn normal(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ").to_lowercase();
    joined.trim_end_matches(['…', '.', ' ']).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: bool) {
        let statements = [
            Statement::keyed("Correction: the deadline moved to 4 June.", "4 June"),
            Statement::whole("I prefer to be contacted by email, not by phone."),
        ];
        assert_eq!(is_real(text, &statements), expected, "{text}");
    }

    #[test]
    fn bodies_are_judged_against_the_labelled_statements() {
        check(r#"Correction from the user: "The deadline moved to 4 June.""#, true);
        check(r#"Correction from the user: "The deadline moved to""#, false);
        check(r#"Correction from the user: "def n(self): the deadline moved to 4 June""#, false);
        check(r#"User preference: "I prefer to be contacted by email""#, true);
        check(r#"User preference: "I prefer to be""#, false);
        check("Q: When is the deadline? A: The deadline moved to 4 June.", true);
        check("Q: When is the deadline? A: the build fails when config", false);
        check("Agent artifact: ticket 4 June was opened", true);
        check("Agent artifact: branch fix/x was pushed", false);
        check("no quotes at all", false);
        check(r#"Label: """#, false);
    }
}

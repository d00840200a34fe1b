//! Concrete details: a named thing and its value ("our production Postgres listens on port 6432"), identifiers named with their referent ("ticket INC-20931"), and artifacts the agent made ("Created branch fix/retry-7781").
//!
//! Every rule here is a shape over one clause: a subject, a linking verb and
//! a value, or a verb of making and an identifier. What makes a match worth
//! keeping is the shape of the value, checked by [`concrete`] and
//! [`identifier`], not a list of the things people name.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::rules::compile;
use super::words::{POINTERS, STOPWORDS, cut, words};

/// The longest clause a detail, reference or artifact keeps, in characters.
pub(super) const MAX_CLAUSE_CHARS: usize = 200;

/// Verbs that link a named thing to its value: being, naming, location and change.
const LINKS: &str = r"
    (?: is | are | was | were | 's ) (?: \s+ (?: now | still | currently | always | actually ) )?
      (?: \s+ (?: called | named | at | on | in | under | behind | reachable\s+(?:at|on|via) | due\s+(?:on|by)
      | (?: [a-z]+ed | set | bound | run | kept | held | written | known | found | built | hidden ) \s+
        (?: at | on | in | to | under | from | behind | as | via | by | for | into )
      | (?: running | listening | served | available | accessible ) \s+ (?: on | at | from | via ) ) )?
    | (?: has | have ) \s+ (?: moved | changed | been\s+moved | been\s+renamed ) \s+ to
    | (?: moved | changed | switched ) \s+ to | goes \s+ by
    | got \s+ [a-z]+ed \s+ (?: to | at | on | in | for | as | into )
    | (?: listens | listen | runs | run | lives | live | sits | sit | resolves | resolve | points | point | binds | bind
      | defaults | default | expires | expire | starts | start | ends | end | falls | fall | maps | map | belongs | belong
      | uses | use | reads | read | answers | answer | is\s+running | are\s+running )
      \s+ (?: on | at | in | to | under | behind | from | port | as | with )";

/// Determiners that open a named thing.
///
/// Not "this" or "that": they point at something in the turn ("this snippet is `344`"), which is gone
/// once the turn is.
const OWNERS: &str = r"(?: my | our | the | your | their | his | her )";

/// Past-tense verbs of making, and their participles for the short clause.
const MADE: &[(&str, &str)] = &[
    ("created", "created"),
    ("opened", "opened"),
    ("pushed", "pushed"),
    ("wrote", "written"),
    ("written", "written"),
    ("filed", "filed"),
    ("submitted", "submitted"),
    ("saved", "saved"),
    ("published", "published"),
    ("deployed", "deployed"),
    ("merged", "merged"),
    ("tagged", "tagged"),
    ("registered", "registered"),
    ("uploaded", "uploaded"),
    ("generated", "generated"),
    ("raised", "raised"),
    ("scheduled", "scheduled"),
    ("booked", "booked"),
    ("reserved", "reserved"),
    ("issued", "issued"),
    ("allocated", "allocated"),
    ("provisioned", "provisioned"),
    ("forked", "forked"),
    ("committed", "committed"),
    ("exported", "exported"),
    ("started", "started"),
    ("launched", "launched"),
    ("added", "added"),
    ("posted", "posted"),
    ("returned", "returned"),
    ("assigned", "assigned"),
];

/// Imperative verbs that, just before a referent, make it the name of a command to run.
const INSTRUCTING: &[&str] = &["use", "run", "type", "enter", "try", "execute", "invoke", "press", "issue"];

/// Words before a verb that make it no imperative: subjects, modals and "to".
const NOT_IMPERATIVE: &[&str] = &[
    "i", "we", "you", "they", "it", "he", "she", "should", "will", "would", "can", "could", "must", "may",
    "might", "to", "shall", "also", "always", "never", "don't", "doesn't",
];

/// Words that never name a referent: prepositions, verb forms and quantities.
const NOT_REFERENTS: &[&str] = &[
    "into", "onto", "under", "via", "per", "near", "after", "before", "since", "until", "than", "over",
    "between", "through", "across", "around", "towards", "toward", "like", "each", "every", "last", "next",
    "first", "only", "see", "run", "use", "set", "using", "called", "named", "version", "v", "step", "line",
    "lines", "page", "pages", "item", "items", "turn", "minutes", "hours", "days", "seconds", "files",
    "times", "and", "or", "but", "nor", "yet", "plus", "minus", "is", "are", "was", "were", "be", "been",
    "had", "has", "have", "got", "get", "let", "make", "made", "take", "took", "gave", "give", "said",
    "says",
];

/// An identifier in a pattern: a token with a digit or a separator between word characters somewhere in it.
const ID_SHAPE: &str =
    r"(?: \# | ! | [/~.]{1,2} )? \w [^\s`'\x22,;()]*? (?: \d | \w [_./:@] \w ) [^\s`'\x22,;()]*";

/// "the staging box is called orion-2": a named thing, a linking verb, and the value.
static DETAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(&format!(
        r"(?ix) (?: ^ | [\s,;:(] ) (?P<subject> {OWNERS} \s+ (?: [\w'’+-]+ \s+ ){{0,4}}? [\w'’+-]+ )
            \s+ (?P<link> {LINKS} ) \s+ (?P<value> \S.* )"
    ))
});

/// "Staging box is called orion-2": a named thing without an owner word, opening the sentence.
static DETAIL_BARE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(&format!(
        r"(?ix) ^ (?P<subject> [a-z][\w'’+-]* (?: \s+ [\w'’+-]+ ){{1,3}}? )
            \s+ (?P<link> {LINKS} ) \s+ (?P<value> \S.* )"
    ))
});

/// "Staging host: vega-7.int.example", "My employee number: 88123": a label and its value, the whole sentence.
static LABELLED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"(?x) ^ (?P<subject> (?: (?i: my | our | the | your ) \s+ [\w'’+-]+ | [A-Z][\w'’+-]* ) (?: \s+ [\w'’+-]+ ){0,3} )
            \s* : \s+ (?P<value> [^\s:]+ (?: \s+ [^\s:]+ ){0,2}? ) \s* [.!]? $",
    )
});

/// Labels that open log lines, notes and headings rather than name a thing.
const NOT_LABELS: &[&str] = &[
    "error",
    "warning",
    "warn",
    "note",
    "info",
    "debug",
    "trace",
    "todo",
    "fixme",
    "hint",
    "tip",
    "example",
    "output",
    "input",
    "result",
    "answer",
    "question",
    "q",
    "a",
    "step",
    "usage",
    "caused",
    "traceback",
    "update",
    "status",
    "summary",
    "edit",
    "ps",
    "re",
    "fyi",
    "see",
    "source",
    "sources",
    "thread",
];

/// "ticket INC-20931", "order number 99-1842-X": a referent word and an identifier after it.
static REFERENCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"(?x) (?: ^ | [\s(] ) (?P<referent> [A-Za-z][A-Za-z-]{1,24} ) \s+ (?: (?: number | no\. | id | ID | \# ) \s* )?
            (?P<id> \#? [A-Za-z0-9] [\w./:@\#-]* [A-Za-z0-9] ) (?: [\s,.;:)!?] | $ )",
    )
});

/// "Created branch fix/x", "I've opened ticket INC-2", "Wrote the report to out/r.csv".
static MADE_ACTIVE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(&format!(
        r"(?ix) ^ (?: (?: I | we ) (?: 've | \s+have | \s+just )? \s+ | (?: successfully | just | also | then ) \s+ )*
            (?P<verb> {} ) \s+ (?: (?: a | an | the | new | your | our | my ) \s+ )*
            (?: (?P<thing> [a-z][\w-]* (?: \s+ [a-z][\w-]* )? ) \s+ )? [`'\x22]? (?P<id> {ID} ) [`'\x22]?
            (?: [\s,.;:)!] | $ )",
        MADE.iter().map(|(verb, _)| *verb).collect::<Vec<_>>().join(" | "),
        ID = ID_SHAPE,
    ))
});

/// "Ticket INC-20931 has been opened", "branch `fix/x` was pushed", and the headline "PR #4821 created".
static MADE_PASSIVE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(&format!(
        r"(?ix) (?: ^ | [\s,;:(] ) (?: (?: a | the | new | your | our | my ) \s+ )* (?P<thing> [a-z][\w-]* ) \s+ [`'\x22]? (?P<id> {ID} ) [`'\x22]?
            (?: \s+ (?: was | has\s+been | have\s+been | is | got | is\s+now ) \s+ (?P<verb> {verbs} ) \b
            | \s+ (?P<bare> {verbs} ) (?: \s* [.!]? \s* $ | \s+ (?: on | in | at | by | for | from | to ) \b ) )",
        verbs = MADE.iter().map(|(verb, _)| *verb).collect::<Vec<_>>().join(" | "),
        ID = ID_SHAPE,
    ))
});

/// The shapes git prints when it makes a branch: `* [new branch]  fix/x -> fix/x`, `Switched to a new branch 'fix/x'`.
static GIT_BRANCH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(
        r"(?x) ^ (?: \*\s+ )? \[ new \s+ (?P<thing> branch | tag ) \] \s+ (?P<id> \S+ ) \s+ -> \s+ \S+ \s* $
            | ^ Switched \s+ to \s+ a \s+ new \s+ (?P<thing2> branch ) \s+ '(?P<id2> [^'\s]+ )' \s* $",
    )
});

/// A detail stated in `sentence`: the clause from its subject to the end of its value, and whether the subject is the speaker's own ("my …").
pub(super) fn detail(sentence: &str) -> Option<(&str, bool)> {
    let regex = DETAIL.as_ref()?;
    for captures in regex.captures_iter(sentence) {
        let (Some(subject), Some(value)) = (captures.name("subject"), captures.name("value")) else {
            continue;
        };
        if !named_thing(subject.as_str()) {
            continue;
        }
        let value_end = value.start() + clause_end(value.as_str());
        let stated = &sentence[value.start()..value_end];
        if !concrete_value(stated) {
            continue;
        }
        let clause = bounded(sentence, subject.start(), value_end);
        let own = words(subject.as_str()).next().is_some_and(|word| word == "my");
        return Some((clause, own));
    }
    bare_detail(sentence).or_else(|| labelled(sentence))
}

/// A detail whose subject opens the sentence without an owner word: "Staging box is called orion-2".
fn bare_detail(sentence: &str) -> Option<(&str, bool)> {
    let captures = DETAIL_BARE.as_ref()?.captures(sentence)?;
    let (subject, value) = (captures.name("subject")?, captures.name("value")?);
    let first = words(subject.as_str()).next()?;
    // "It is …", "Everything is …": a pronoun or function word opens no named thing.
    if STOPWORDS.contains(&first.as_str()) || NOT_REFERENTS.contains(&first.as_str()) {
        return None;
    }
    // "Output of this snippet is `344`": a subject that points into the turn names nothing that lasts.
    if words(subject.as_str()).any(|word| POINTERS.contains(&word.as_str())) {
        return None;
    }
    if !named_thing(&format!("the {}", subject.as_str())) {
        return None;
    }
    let value_end = value.start() + clause_end(value.as_str());
    if !concrete_value(&sentence[value.start()..value_end]) {
        return None;
    }
    Some((bounded(sentence, subject.start(), value_end), false))
}

/// A sentence that is a label and its value, "Staging host: vega-7.int.example", when the value is concrete.
fn labelled(sentence: &str) -> Option<(&str, bool)> {
    let captures = LABELLED.as_ref()?.captures(sentence.trim())?;
    let (subject, value) = (captures.name("subject")?, captures.name("value")?);
    let mut subject_words = words(subject.as_str());
    let first = subject_words.next()?;
    let own = first == "my";
    let head = subject_words.last().unwrap_or_else(|| first.clone());
    if NOT_LABELS.contains(&first.as_str()) || STOPWORDS.contains(&head.as_str()) {
        return None;
    }
    let concrete = value.as_str().split_whitespace().any(|token| {
        let token = token.trim_matches(|c: char| matches!(c, ',' | ';' | '.' | '!' | ')' | '('));
        token.chars().any(|c| c.is_ascii_digit()) || identifier(token)
    });
    concrete.then(|| (sentence.trim().trim_end_matches(['.', '!']), own))
}

/// An identifier named with its referent in `sentence`: the clause around it.
pub(super) fn reference(sentence: &str) -> Option<&str> {
    let regex = REFERENCE.as_ref()?;
    let mut at = 0;
    while let Some(captures) = regex.captures_at(sentence, at) {
        let (Some(referent), Some(id)) = (captures.name("referent"), captures.name("id")) else { break };
        at = referent.end();
        let word = referent.as_str().to_lowercase();
        let is_referent = !STOPWORDS.contains(&word.as_str())
            && !NOT_REFERENTS.contains(&word.as_str())
            && !word.ends_with("ing")
            && !word.ends_with("ed")
            && !word.ends_with("ly");
        // A reference names a code, so its identifier has a digit: "file src/main.rs" is a path, not a reference.
        let coded = id.as_str().chars().any(|c| c.is_ascii_digit());
        // "use the goto 583 command": an instruction names a command, not a thing. "It should run in
        // region x" is no instruction: a subject or a modal comes before the verb.
        let before: Vec<String> = sentence[..referent.start()]
            .split_whitespace()
            .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
            .collect();
        let instructed = (1..=3.min(before.len())).any(|back| {
            let at = before.len() - back;
            INSTRUCTING.contains(&before[at].as_str())
                && (at == 0 || !NOT_IMPERATIVE.contains(&before[at - 1].as_str()))
        });
        if is_referent && coded && !instructed && identifier(id.as_str()) && !id.as_str().contains("://") {
            let start = clause_start(sentence, referent.start());
            let end = id.end() + clause_end(&sentence[id.end()..]);
            return Some(bounded(sentence, start, end));
        }
    }
    None
}

/// kubectl's report of a made object: `deployment.apps/api-7 created`, `service/web configured`.
static KUBECTL_MADE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(r"(?x) ^ (?P<thing> [a-z][a-z0-9.-]* ) / (?P<id> [a-z0-9][a-z0-9.-]* ) \s+ created \s* $")
});

/// An artifact the speaker says was made in `line`, as a short clause: "branch fix/x was pushed".
pub(super) fn artifact(line: &str) -> Option<String> {
    let line = line.trim();
    if let Some(captures) = KUBECTL_MADE.as_ref().and_then(|regex| regex.captures(line)) {
        let thing = group(&captures, "thing")?;
        let kind = thing.split('.').next().unwrap_or(thing);
        return Some(made_clause(kind, group(&captures, "id")?, "created"));
    }
    if let Some(captures) = GIT_BRANCH.as_ref().and_then(|regex| regex.captures(line)) {
        let thing = group(&captures, "thing").or_else(|| group(&captures, "thing2")).unwrap_or("branch");
        let id = group(&captures, "id").or_else(|| group(&captures, "id2"))?;
        return Some(made_clause(thing, id, "created"));
    }
    for regex in [&MADE_ACTIVE, &MADE_PASSIVE] {
        let Some(captures) = regex.as_ref().and_then(|regex| regex.captures(line)) else { continue };
        let verb = group(&captures, "verb").or_else(|| group(&captures, "bare"));
        let (Some(verb), Some(id)) = (verb, group(&captures, "id")) else { continue };
        let thing = group(&captures, "thing").unwrap_or("");
        let thing_ok = thing.is_empty() || !NOT_REFERENTS.contains(&thing.to_lowercase().as_str());
        let bare_number = id.trim_start_matches(['#', '!']).chars().all(|c| c.is_ascii_digit());
        // A bare number needs a referent ("PR 42"); a number of things ("3 files") is no artifact.
        if thing_ok && identifier(id) && !(bare_number && thing.is_empty()) {
            let verb = verb.to_lowercase();
            let participle = MADE.iter().find(|(past, _)| *past == verb).map_or("created", |(_, done)| *done);
            return Some(made_clause(thing, id, participle));
        }
    }
    None
}

/// "thing id was participle", without an empty thing.
pub(super) fn made_clause(thing: &str, id: &str, participle: &str) -> String {
    let thing = thing.trim().to_lowercase();
    let id = id.trim_end_matches(['.', ':']);
    if thing.is_empty() { format!("{id} was {participle}") } else { format!("{thing} {id} was {participle}") }
}

/// Whether `token` has the shape of an identifier (the rule of [`tidemark_core::dropped::is_identifier`]).
pub(super) fn identifier(token: &str) -> bool {
    tidemark_core::dropped::is_identifier(token)
}

/// Whether the value of a detail opens with something concrete: a number, an identifier, a proper name, a quoted string, a date.
fn concrete_value(value: &str) -> bool {
    const SOFT: &[&str] = &[
        "port",
        "number",
        "no",
        "version",
        "at",
        "on",
        "in",
        "to",
        "the",
        "a",
        "an",
        "now",
        "still",
        "currently",
        "called",
        "named",
        "exactly",
        "just",
        "host",
        "address",
        "id",
        "always",
        "set",
        "v",
    ];
    for (position, raw) in value.split_whitespace().take(4).enumerate() {
        let token = raw.trim_matches(|c: char| matches!(c, ',' | ';' | '.' | '!' | '?' | ')' | '('));
        if token.is_empty() {
            continue;
        }
        if token.starts_with(['"', '`', '\'', '“']) && token.chars().count() > 2 {
            return true;
        }
        if token.chars().any(|c| c.is_ascii_digit()) || identifier(token) || token.contains('@') {
            return true;
        }
        let proper = token.chars().next().is_some_and(char::is_uppercase)
            && !matches!(token, "I" | "A" | "The" | "It" | "This" | "That" | "We" | "You");
        if proper {
            return true;
        }
        if position >= 3 || !SOFT.contains(&token.to_lowercase().as_str()) {
            return false;
        }
    }
    false
}

/// Whether `subject` names a thing: an owner and at least one word that is not a function word or a pronoun.
///
/// A trailing phrase after a preposition ("the ticket number for this") is
/// left out: the head of the subject is the word before it.
fn named_thing(subject: &str) -> bool {
    let mut words: Vec<String> = words(subject).collect();
    if let Some(at) = words
        .iter()
        .skip(2)
        .position(|word| matches!(word.as_str(), "for" | "of" | "on" | "in" | "at" | "from" | "with"))
    {
        words.truncate(at + 2);
    }
    let Some(head) = words.last() else { return false };
    words.len() >= 2
        && !STOPWORDS.contains(&head.as_str())
        && !matches!(
            head.as_str(),
            "one"
                | "thing"
                | "things"
                | "same"
                | "other"
                | "rest"
                | "problem"
                | "issue"
                | "idea"
                | "point"
                | "question"
                | "answer"
                | "reason"
                | "way"
        )
        && words[1..].iter().all(|word| {
            !matches!(word.as_str(), "is" | "are" | "was" | "were" | "it" | "i" | "you" | "we" | "they")
        })
}

/// The offset in `text` where its first clause ends: at a stop, a semicolon, a comma or a conjunction.
fn clause_end(text: &str) -> usize {
    const JOINS: &[&str] = &[
        " and ",
        " but ",
        " so ",
        " because ",
        " which ",
        " while ",
        " though ",
        " although ",
        " whereas ",
        " unless ",
        " since ",
        " — ",
        " – ",
        " - ",
        " (",
        " if ",
        " when ",
    ];
    let mut end = text.len();
    for (at, c) in text.char_indices() {
        let stop = match c {
            ',' | ';' | '!' | '?' => true,
            '.' | ':' => text[at + 1..].chars().next().is_none_or(char::is_whitespace),
            _ => false,
        };
        if stop {
            end = at;
            break;
        }
    }
    for join in JOINS {
        if let Some(at) = text[..end].find(join) {
            end = end.min(at);
        }
    }
    end
}

/// The offset in `text` where the clause holding `at` starts: after the last stop, semicolon or comma before it.
fn clause_start(text: &str, at: usize) -> usize {
    let before = &text[..at];
    before.rfind([',', ';', ':', '(']).map_or(0, |found| found + 1)
}

/// `text[start..end]` trimmed, at most [`MAX_CLAUSE_CHARS`] characters from its start.
fn bounded(text: &str, start: usize, end: usize) -> &str {
    let clause = text[start..end].trim();
    match clause.char_indices().nth(MAX_CLAUSE_CHARS) {
        Some((cut, _)) => clause[..cut].trim_end(),
        None => clause,
    }
}

/// `statement` bounded to [`MAX_CLAUSE_CHARS`] characters: whole when it fits, else cut after its
/// last clause boundary (a comma, semicolon, dash or bracket) that keeps at least 40 characters,
/// else cut at a word with "…".
pub(super) fn bound_statement(statement: &str) -> String {
    let Some((limit, _)) = statement.char_indices().nth(MAX_CLAUSE_CHARS) else {
        return statement.to_owned();
    };
    let head = &statement[..limit];
    let boundary = [", ", "; ", " — ", " – ", " ("]
        .iter()
        .filter_map(|mark| head.rfind(mark))
        .filter(|&at| head[..at].chars().count() >= 40)
        .max();
    match boundary {
        Some(at) => head[..at].trim_end().to_owned(),
        None => cut(statement, MAX_CLAUSE_CHARS),
    }
}

/// The text of group `name`, when it matched something.
fn group<'t>(captures: &Captures<'t>, name: &str) -> Option<&'t str> {
    captures.name(name).map(|found| found.as_str()).filter(|found| !found.is_empty())
}

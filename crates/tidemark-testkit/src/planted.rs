//! Long sessions with facts planted at spread-out turns, and a question about each one: the workload of the recall benchmark.
//!
//! [`planted_session`] interleaves turns of the generated sessions of
//! [`transcripts`](crate::transcripts) (coding, support, research) with the
//! turns of recorded transcripts the caller passes, and plants facts between
//! them. Each fact is made from a template chosen with the seed: a phrasing
//! family, a speaker (the user says it, the assistant states it, or a tool
//! returns it), a value of the template's shape (an id, a ticket, a branch, a
//! host, a port, a date …) and a subject word that the question names again,
//! as a person asking later would. The same seed gives the same session.
//!
//! Every fact comes with its [`Statement`] for the strict judge of
//! [`judge`](crate::judge), and the generated sentences that state facts of
//! their own are listed in [`transcript_statements`]; everything else in the
//! session is filler for that judge.
//!
//! ```
//! use tidemark_testkit::planted::planted_session;
//!
//! let session = planted_session(7, 120, 12, &[]);
//! assert_eq!(session.facts.len(), 12);
//! for fact in &session.facts {
//!     let text: String = session.history.iter().map(|message| message.text().into_owned()).collect();
//!     assert!(text.contains(&fact.key) || fact.speaker == tidemark_testkit::planted::Speaker::Tool);
//! }
//! ```

use tidemark_core::{Message, Role, ToolCall, validate};

use crate::judge::Statement;
use crate::transcripts::Session;
use crate::workload::Rng;

/// Who states a planted fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Speaker {
    /// The user says it.
    User,
    /// The assistant states it in a reply.
    Assistant,
    /// A tool returns it.
    Tool,
}

/// One fact planted in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlantedFact {
    /// Who states it.
    pub speaker: Speaker,
    /// The phrasing family of its template ("attribute", "environment", "correction", …).
    pub family: &'static str,
    /// The value a recall must bring back: an id, a host, a port, a date.
    pub key: String,
    /// The sentence (or tool result) that states it, as planted.
    pub statement: String,
    /// A question about it, asked as a new user turn at the end.
    pub question: String,
    /// The index in the history of the message that states it.
    pub message: usize,
}

impl PlantedFact {
    /// The fact's statement for the strict judge: real stored facts carry its key.
    pub fn judged(&self) -> Statement {
        Statement::keyed(self.statement.clone(), self.key.clone())
    }
}

/// A session with planted facts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlantedSession {
    /// The messages, a pinned system prompt first; a valid history.
    pub history: Vec<Message>,
    /// The planted facts, in the order they appear.
    pub facts: Vec<PlantedFact>,
    /// The number of user turns.
    pub turns: usize,
}

impl PlantedSession {
    /// Every labelled fact statement of the session: the planted ones, then those of the generated transcripts.
    pub fn statements(&self) -> Vec<Statement> {
        let mut statements: Vec<Statement> = self.facts.iter().map(PlantedFact::judged).collect();
        statements.extend(transcript_statements(&self.history));
        statements
    }
}

/// The sentences of the generated transcripts that state facts: the support
/// customer's own facts, the coding user's standing rule, and each support
/// turn that reports damage to a named order. Everything else they generate
/// is filler.
pub fn transcript_statements(history: &[Message]) -> Vec<Statement> {
    const WHOLE: &[&str] = &[
        "My name is Dana Whitfield and my customer id is C-48213.",
        "Please always answer in short bullet points, I read these on my phone.",
        "I prefer to be contacted by email, not by phone.",
        "Actually, my address is 14 Harbour Lane, not 41 Harbour Lane.",
        "I work nights, so deliveries after 2 pm are best for me.",
        "Correction: the order number I gave you earlier was wrong, it is NW-90412.",
        "I'm allergic to latex, so please make sure the packaging has none.",
        "Remember: we never use unwrap in library code.",
    ];
    const DAMAGED: (&str, &str) = ("The box for order NW-", " arrived damaged.");
    let mut statements: Vec<Statement> = WHOLE.iter().map(|text| Statement::whole(*text)).collect();
    for message in history.iter().filter(|message| message.role == Role::User) {
        let text = message.text();
        if let Some(start) = text.find(DAMAGED.0)
            && let Some(stop) = text[start..].find(DAMAGED.1)
        {
            statements.push(Statement::whole(&text[start..start + stop + DAMAGED.1.len()]));
        }
    }
    statements
}

/// The session's messages cut into turns, each opening at a user message (what comes before the first user message is a turn of its own).
///
/// ```
/// use tidemark_core::Message;
/// use tidemark_testkit::planted::turns;
///
/// let history = [Message::system("rules"), Message::user("a"), Message::assistant("b"), Message::user("c")];
/// assert_eq!(turns(&history).iter().map(|turn| turn.len()).collect::<Vec<_>>(), [1, 2, 1]);
/// ```
pub fn turns(history: &[Message]) -> Vec<&[Message]> {
    let mut turns = Vec::new();
    let mut start = 0;
    for (index, message) in history.iter().enumerate() {
        if message.role == Role::User && index > start {
            turns.push(&history[start..index]);
            start = index;
        }
    }
    turns.push(&history[start..]);
    turns
}

/// A session of at least `turns` user turns with `facts` planted facts, from `seed`.
///
/// The turns are drawn from the three generated sessions and from the turns of
/// each `recorded` transcript (their system messages left out), each recorded
/// transcript placed once at a seeded position. Facts are planted at turns
/// spread evenly over the first 85% of the session (a jitter of a few turns
/// each), so that every one of them has left an 8,000-token window by the end.
pub fn planted_session(seed: u64, turns: usize, facts: usize, recorded: &[Vec<Message>]) -> PlantedSession {
    let mut rng = Rng::new(seed ^ 0x9e11_ca11);
    let mut blocks = base_turns(seed, turns, recorded, &mut rng);
    let total = blocks.len();
    let mut planted = Vec::with_capacity(facts);
    let mut order: Vec<usize> = (0..TEMPLATES.len()).collect();
    let mut slots = Vec::with_capacity(facts);
    for serial in 0..facts {
        if serial % TEMPLATES.len() == 0 {
            shuffle(&mut order, &mut rng);
        }
        let template = &TEMPLATES[order[serial % TEMPLATES.len()]];
        let spread = total * 85 / 100;
        let at = (serial * spread / facts.max(1) + rng.between(0, 3)).min(total.saturating_sub(1));
        let key = value(&mut rng, template.shape, serial);
        let subject = rng.pick(SUBJECTS).unwrap_or("billing");
        let statement = template.text.replace("{v}", &key).replace("{s}", subject);
        let question = template.question.replace("{s}", subject);
        let request = template.request.replace("{s}", subject);
        slots.push((at, serial, plant(template, &request, &statement, serial)));
        planted.push(PlantedFact {
            speaker: template.speaker,
            family: template.family,
            key,
            statement,
            question,
            message: 0,
        });
    }
    // Insert from the back so that earlier positions stay valid.
    slots.sort_by_key(|(at, serial, _)| (*at, *serial));
    for (at, serial, messages) in slots.into_iter().rev() {
        blocks.insert(at, (Some(serial), messages));
    }
    let mut history = vec![Message::system(SYSTEM_PROMPT).pinned()];
    for (serial, block) in blocks {
        if let Some(serial) = serial {
            let offset = block.iter().position(|message| states(message, &planted[serial].key)).unwrap_or(0);
            planted[serial].message = history.len() + offset;
        }
        history.extend(block);
    }
    debug_assert!(validate(&history).is_ok());
    let turns = history.iter().filter(|message| message.role == Role::User).count();
    PlantedSession { history, facts: planted, turns }
}

/// Whether `message` carries `key` in its text or its tool results.
fn states(message: &Message, key: &str) -> bool {
    message.text().contains(key) || message.tool_results().any(|result| result.content.contains(key))
}

const SYSTEM_PROMPT: &str = "You are an operations agent. You help the team with code, tickets, \
    deployments and customer questions. Use your tools and say what you changed.";

/// The turns of the base session, each starting at a user message: generated ones, with the recorded transcripts spliced in.
fn base_turns(
    seed: u64,
    turns: usize,
    recorded: &[Vec<Message>],
    rng: &mut Rng,
) -> Vec<(Option<usize>, Vec<Message>)> {
    let per_session = turns / Session::ALL.len() + 1;
    let mut sources: Vec<std::vec::IntoIter<Vec<Message>>> = Session::ALL
        .iter()
        .map(|session| split_turns(session.generate(seed, per_session)).into_iter())
        .collect();
    let mut blocks: Vec<(Option<usize>, Vec<Message>)> = Vec::with_capacity(turns + recorded.len());
    while blocks.len() < turns {
        let pick = rng.between(0, sources.len() - 1);
        match sources[pick].next() {
            Some(turn) => blocks.push((None, turn)),
            None => {
                sources.remove(pick);
                if sources.is_empty() {
                    break;
                }
            }
        }
    }
    for transcript in recorded {
        let body: Vec<Message> =
            transcript.iter().filter(|message| message.role != Role::System).cloned().collect();
        let at = rng.between(1, blocks.len().saturating_sub(1).max(1));
        // A recorded transcript stays whole: its turns refer to each other.
        if body.first().is_some_and(|message| message.role == Role::User) {
            blocks.insert(at, (None, body));
        }
    }
    blocks
}

/// `history` without its system messages, cut before each user message.
fn split_turns(history: Vec<Message>) -> Vec<Vec<Message>> {
    let mut turns: Vec<Vec<Message>> = Vec::new();
    for message in history.into_iter().filter(|message| message.role != Role::System) {
        match turns.last_mut() {
            Some(turn) if message.role != Role::User => turn.push(message),
            _ => turns.push(vec![message]),
        }
    }
    turns
}

fn shuffle(items: &mut [usize], rng: &mut Rng) {
    for index in (1..items.len()).rev() {
        let other = rng.between(0, index);
        items.swap(index, other);
    }
}

/// The messages that state a planted fact, as one turn.
fn plant(template: &Template, request: &str, statement: &str, serial: usize) -> Vec<Message> {
    match template.speaker {
        Speaker::User => {
            vec![Message::user(statement.to_owned()), Message::assistant("Noted, I'll keep that in mind.")]
        }
        Speaker::Assistant => vec![
            Message::user(request.to_owned()),
            Message::assistant(format!("Done. {statement} Anything else?")),
        ],
        Speaker::Tool => {
            let id = format!("planted_{serial}");
            vec![
                Message::user(request.to_owned()),
                Message::assistant_tool_calls([ToolCall::new(
                    id.clone(),
                    template.tool,
                    serde_json::json!({ "request": request }),
                )]),
                Message::tool_result(id, statement.to_owned()),
                Message::assistant("That went through."),
            ]
        }
    }
}

/// The shape of a key value.
#[derive(Clone, Copy)]
enum Shape {
    Number,
    Port,
    Host,
    Ticket,
    Branch,
    Date,
    Address,
    Path,
    PullRequest,
}

/// One way of stating a fact. `{v}` is the key value and `{s}` the subject word the question names again.
struct Template {
    family: &'static str,
    speaker: Speaker,
    /// For the assistant and tools: the user's request that leads to it.
    request: &'static str,
    /// For tools: the tool's name.
    tool: &'static str,
    text: &'static str,
    question: &'static str,
    shape: Shape,
}

const fn user(family: &'static str, text: &'static str, question: &'static str, shape: Shape) -> Template {
    Template { family, speaker: Speaker::User, request: "", tool: "", text, question, shape }
}

const fn assistant(
    family: &'static str,
    request: &'static str,
    text: &'static str,
    question: &'static str,
    shape: Shape,
) -> Template {
    Template { family, speaker: Speaker::Assistant, request, tool: "", text, question, shape }
}

const fn tool(
    family: &'static str,
    request: &'static str,
    tool: &'static str,
    text: &'static str,
    question: &'static str,
    shape: Shape,
) -> Template {
    Template { family, speaker: Speaker::Tool, request, tool, text, question, shape }
}

/// The templates, in eight phrasing families over the three speakers.
const TEMPLATES: &[Template] = &[
    user(
        "attribute",
        "Quick one before I forget: my {s} employee number is {v}.",
        "What is my {s} employee number?",
        Shape::Number,
    ),
    user(
        "environment",
        "Our {s} Postgres listens on port {v}.",
        "Which port does our {s} Postgres listen on?",
        Shape::Port,
    ),
    user("naming", "The {s} staging box is called {v}.", "What is the {s} staging box called?", Shape::Host),
    user(
        "correction",
        "Correction: the {s} deadline moved to {v}.",
        "When is the {s} deadline now?",
        Shape::Date,
    ),
    user(
        "reference",
        "Heads up, the {s} outage is tracked as ticket {v}.",
        "Which ticket tracks the {s} outage?",
        Shape::Ticket,
    ),
    user(
        "environment",
        "FYI the {s} VPN gateway sits behind {v} now.",
        "Where does the {s} VPN gateway sit?",
        Shape::Address,
    ),
    assistant(
        "artifact",
        "Please push the {s} fix.",
        "I've pushed branch {v} with the {s} fix.",
        "Which branch has the {s} fix?",
        Shape::Branch,
    ),
    assistant(
        "artifact",
        "Please open a ticket for the {s} checkout outage.",
        "Opened {v} for the {s} checkout outage.",
        "Which ticket did you open for the {s} checkout outage?",
        Shape::Ticket,
    ),
    assistant(
        "environment",
        "Where do the {s} metrics come from?",
        "The {s} metrics endpoint is served from {v}.",
        "Where is the {s} metrics endpoint served from?",
        Shape::Host,
    ),
    assistant(
        "artifact",
        "Write the {s} report somewhere I can find it.",
        "I've written the {s} report to {v}.",
        "Where did you write the {s} report?",
        Shape::Path,
    ),
    tool(
        "artifact-line",
        "Push the {s} hotfix branch.",
        "git_push",
        "To github.com:acme/{s}.git\n * [new branch]      {v} -> {v}",
        "Which branch was pushed for the {s} hotfix?",
        Shape::Branch,
    ),
    tool(
        "artifact-json",
        "File a ticket for the {s} alerts.",
        "create_ticket",
        "{\"id\": \"{v}\", \"status\": \"created\", \"project\": \"{s}\"}",
        "What is the id of the ticket filed for the {s} alerts?",
        Shape::Ticket,
    ),
    tool(
        "artifact-url",
        "Open a pull request for the {s} change.",
        "create_pr",
        "https://git.example/acme/{s}/pull/{v}",
        "Which pull request was opened for the {s} change?",
        Shape::PullRequest,
    ),
];

/// Subject words a fact is about, named again by its question.
const SUBJECTS: &[&str] = &[
    "billing",
    "payments",
    "search",
    "ledger",
    "inventory",
    "checkout",
    "analytics",
    "identity",
    "shipping",
    "notifications",
    "reporting",
    "gateway",
];

const WORDS: &[&str] =
    &["orion", "vega", "lyra", "atlas", "nova", "pike", "delta", "ember", "quartz", "juno", "tern", "sable"];
const MONTHS: &[&str] = &["March", "April", "June", "October", "November"];

/// A fresh key value of `shape`, unique within a session through `serial`.
fn value(rng: &mut Rng, shape: Shape, serial: usize) -> String {
    let word = rng.pick(WORDS).unwrap_or("x");
    let n = rng.between(10, 99) * 100 + serial;
    match shape {
        Shape::Number => format!("{}", 40_000 + n * 7),
        Shape::Port => format!("{}", 15_000 + serial * 37 + rng.between(0, 30)),
        Shape::Host => format!("{word}-{n}.int.example"),
        Shape::Ticket => format!("INC-{}", 20_000 + n),
        Shape::Branch => format!("fix/{word}-retry-{n}"),
        Shape::Date => format!("{} {}", 1 + serial % 28, rng.pick(MONTHS).unwrap_or("March")),
        Shape::Address => format!("10.{}.{}.{}", 20 + serial % 200, rng.between(0, 200), rng.between(1, 250)),
        Shape::Path => format!("/srv/{word}/report-{n}.md"),
        Shape::PullRequest => format!("{}", 30_000 + n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_valid_reproducible_and_state_each_fact_once() {
        let session = planted_session(2026, 300, 24, &[]);
        validate(&session.history).expect("valid");
        assert_eq!(session, planted_session(2026, 300, 24, &[]));
        assert!(session.turns >= 300, "{}", session.turns);
        let speakers: std::collections::BTreeSet<Speaker> =
            session.facts.iter().map(|fact| fact.speaker).collect();
        assert_eq!(speakers.len(), 3);
        let families: std::collections::BTreeSet<&str> =
            session.facts.iter().map(|fact| fact.family).collect();
        assert!(families.len() >= 6, "{families:?}");
        for fact in &session.facts {
            assert!(states(&session.history[fact.message], &fact.key), "{fact:?}");
            let stating = session.history.iter().filter(|message| states(message, &fact.key)).count();
            assert_eq!(stating, 1, "{fact:?}");
        }
    }
}

//! Recall and precision of the extractor on long generated sessions with planted facts, code-heavy tool traffic included, on the phrasings the rules were written against and on held-out ones.
//!
//! Each session is a seeded transcript from `tidemark-testkit` (coding agent,
//! support, research) with facts planted between its turns, spoken by the
//! user, the assistant or a tool, in several phrasing families. The session
//! is cut into spans the way a compaction evicts them and each span goes
//! through the default [`Extractor`].
//!
//! Both figures use the strict judge of `tidemark_testkit::judge`: a
//! candidate is real only when it is traceable to a sentence this corpus
//! labels as a fact statement, the planted sentences and the few generated
//! sentences `tidemark_testkit::planted::transcript_statements` lists; it
//! must carry the statement's key value (or, for an unkeyed statement, at
//! least half of it) and nothing from outside it. Code, questions, filler,
//! partial clauses and question–answer pairs glued from chatter are false
//! positives. A planted fact is recalled when some candidate is real for its
//! statement. Run with `--nocapture` to see the figures.
//!
//! History of the figures: the first held-out set was measured once, blind,
//! under the earlier lenient judge (any transcript-stated fact counted, and
//! pairs built on the transcript's own questions): recall 89.0% (203/228),
//! precision 99.2% (989/997). Under the strict judge, before the question–answer
//! rule asked for a fact question and a short stated answer, all three sets
//! measured 100% recall and 23–24% precision (2,001 of about 2,620 candidates
//! were pairs of a generated question and filler). The figures since are in
//! `docs/benchmarks.md`.

use std::collections::BTreeMap;

use tidemark_core::{Message, Role, ToolCall};
use tidemark_facts::extract::{Candidate, Extractor};
use tidemark_testkit::judge::{Statement, is_real};
use tidemark_testkit::planted::transcript_statements;
use tidemark_testkit::transcripts::Session;
use tidemark_testkit::workload::Rng;

/// Who states a planted fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Speaker {
    User,
    Assistant,
    Tool,
}

/// One way of stating a fact: its family, its speaker, and its text with `{v}` where the key value goes.
struct Template {
    family: &'static str,
    speaker: Speaker,
    /// For tools: the tool's name; the text is its result.
    tool: &'static str,
    text: &'static str,
    value: Value,
}

/// The shape of a key value.
#[derive(Clone, Copy)]
enum Value {
    Number,
    Port,
    Host,
    Ticket,
    Branch,
    Date,
    Order,
    Region,
    Name,
    Path,
    Address,
}

const fn user(family: &'static str, text: &'static str, value: Value) -> Template {
    Template { family, speaker: Speaker::User, tool: "", text, value }
}

const fn assistant(family: &'static str, text: &'static str, value: Value) -> Template {
    Template { family, speaker: Speaker::Assistant, tool: "", text, value }
}

const fn tool(family: &'static str, tool: &'static str, text: &'static str, value: Value) -> Template {
    Template { family, speaker: Speaker::Tool, tool, text, value }
}

/// The phrasings the rules were developed against.
const DEV: &[Template] = &[
    user("attribute", "Quick one before I forget: my employee number is {v}.", Value::Number),
    user("attribute", "My badge id is {v}, in case the door system asks.", Value::Ticket),
    user("environment", "Our production Postgres listens on port {v}.", Value::Port),
    user("environment", "The staging box is called {v}.", Value::Host),
    user("environment", "FYI our CI runner lives at {v} now.", Value::Host),
    user("correction", "Correction: the deadline moved to {v}.", Value::Date),
    user("correction", "Actually, the release is on {v}.", Value::Date),
    user("reference", "This is about ticket {v}, the flaky login.", Value::Ticket),
    user("reference", "I'm asking about order {v}.", Value::Order),
    user("reference", "Everything should run in region {v}.", Value::Region),
    user("identity", "Call me {v}.", Value::Name),
    assistant("artifact", "Opened {v} for the checkout outage.", Value::Ticket),
    assistant("artifact", "I've pushed branch {v} with the fix.", Value::Branch),
    assistant("environment", "The metrics endpoint is served from {v}.", Value::Host),
    tool("artifact-line", "git_push", "Created branch {v}", Value::Branch),
    tool(
        "artifact-line",
        "git_push",
        "To github.com:acme/api.git\n * [new branch]      {v} -> {v}",
        Value::Branch,
    ),
    tool("artifact-json", "create_ticket", "{\"id\": \"{v}\", \"status\": \"created\"}", Value::Ticket),
    tool(
        "artifact-json",
        "open_issue",
        "{\"number\": \"{v}\", \"url\": \"https://git.example/acme/api/issues/1\"}",
        Value::Ticket,
    ),
    user("environment", "Staging box is called {v}.", Value::Host),
    user("attribute", "Employee no. {v}, for the forms.", Value::Number),
    user("environment", "Build host: {v}", Value::Host),
    tool("artifact-line", "create_pr", "https://git.example/acme/api/pull/{v}", Value::Number),
];

/// Phrasings written apart from the rules and not used while developing them.
const HELD_OUT: &[Template] = &[
    user("attribute", "For the record, my desk extension is {v}.", Value::Number),
    user("attribute", "my locker code is {v} if you need to leave anything", Value::Ticket),
    user("environment", "Heads up, the build server's hostname is {v}.", Value::Host),
    user("environment", "Our Kafka cluster runs on {v}, not on the old hosts.", Value::Host),
    user("environment", "The shared drive is mounted at {v}.", Value::Path),
    user("environment", "The customer's account id is {v}.", Value::Order),
    user("correction", "No, the launch date is {v}, not the third.", Value::Date),
    user("correction", "Sorry, I misspoke: the admin port is {v}.", Value::Port),
    user("reference", "Can you look at it later? It is incident {v} on the status page.", Value::Ticket),
    user("reference", "We keep backups in bucket {v}.", Value::Region),
    user("identity", "I go by {v} at work.", Value::Name),
    assistant("artifact", "I filed {v} with the platform team.", Value::Ticket),
    assistant("artifact", "Branch {v} has been pushed to origin.", Value::Branch),
    assistant("environment", "The new bucket is named {v}.", Value::Region),
    assistant("environment", "Your VPN gateway sits behind {v}.", Value::Address),
    tool("artifact-line", "git_checkout", "Switched to a new branch '{v}'", Value::Branch),
    tool("artifact-line", "write_file", "Wrote {v} (2.1 KiB)", Value::Path),
    tool(
        "artifact-json",
        "tickets",
        "{\"ticket_id\": \"{v}\", \"state\": \"open\", \"priority\": \"p2\"}",
        Value::Ticket,
    ),
    tool(
        "artifact-json",
        "create_page",
        "{\"data\": {\"id\": \"{v}\", \"title\": \"Runbook\"}}",
        Value::Order,
    ),
];

/// A second held-out set, written after the first one was measured and kept
/// unseen while the rules were generalised from what the first one missed.
const HELD_OUT_SECOND: &[Template] = &[
    user("attribute", "My on-call pager id is {v}.", Value::Ticket),
    user("attribute", "btw my home directory is {v}", Value::Path),
    user("environment", "The Redis primary is reachable at {v}.", Value::Host),
    user("environment", "Our Grafana instance is hosted on {v}.", Value::Host),
    user("environment", "the cron job points to {v}", Value::Path),
    user("environment", "The load balancer's IP is {v}.", Value::Address),
    user("correction", "To be clear, the migration window is {v}.", Value::Date),
    user("correction", "My mistake, the refund was for order {v}.", Value::Order),
    user("reference", "Please mention case {v} in the reply.", Value::Ticket),
    user("reference", "It's all in workspace {v}.", Value::Region),
    user("identity", "You can call me {v}.", Value::Name),
    assistant("artifact", "Created {v} to track the migration.", Value::Ticket),
    assistant("artifact", "I've tagged release {v}.", Value::Ticket),
    assistant("environment", "The primary database is at {v}.", Value::Address),
    assistant("artifact", "I've written the summary to {v}.", Value::Path),
    tool("artifact-line", "gh", "Successfully opened pull request #{v}", Value::Number),
    tool("artifact-line", "git", "Pushed branch {v} to origin", Value::Branch),
    tool("artifact-json", "jira", "{\"issue\": {\"key\": \"{v}\", \"status\": \"created\"}}", Value::Ticket),
    tool("artifact-json", "git", "{\"branch\": \"{v}\", \"created\": true}", Value::Branch),
];

/// A third held-out set, written after the strict judge and the changes it
/// led to (fact-question pairs, owner-less subjects, "no.", labelled values,
/// bare URLs), and run once, blind: recall 78.9% (180/228), precision 100%
/// (573/573). Its misses were four shapes: "Update:" opening a correction
/// and a verb of time without a preposition ("starts 8 June"), "\<people\>
/// call me \<Name\>", GitLab's `!123`, and kubectl's `kind/name created`.
const HELD_OUT_THIRD: &[Template] = &[
    user("attribute", "Oh and my staff number is {v}, HR asked me to pass it on.", Value::Number),
    user("attribute", "Parking permit: {v}", Value::Ticket),
    user("environment", "Our Elasticsearch node answers on port {v}.", Value::Port),
    user("environment", "Jump host is {v} these days.", Value::Host),
    user("environment", "The nightly export is written to {v}.", Value::Path),
    user("environment", "our SFTP server resolves to {v}", Value::Address),
    user("correction", "Wait, I got that wrong: the cutover is on {v}.", Value::Date),
    user("correction", "Update: the freeze now starts {v}.", Value::Date),
    user("reference", "We are tracking this under problem {v}.", Value::Ticket),
    user("reference", "The invoice belongs to account {v}.", Value::Order),
    user("identity", "Everyone here calls me {v}.", Value::Name),
    assistant("artifact", "I raised {v} for the certificate renewal.", Value::Ticket),
    assistant("artifact", "The hotfix is on branch {v}, already pushed.", Value::Branch),
    assistant("environment", "Your sandbox lives at {v}.", Value::Host),
    assistant("artifact", "Saved the new runbook as {v}.", Value::Path),
    tool("artifact-line", "gitlab", "Merge request !{v} was opened", Value::Number),
    tool("artifact-line", "kubectl", "deployment.apps/{v} created", Value::Region),
    tool(
        "artifact-json",
        "servicenow",
        "{\"result\": {\"number\": \"{v}\", \"state\": \"New\"}}",
        Value::Ticket,
    ),
    tool("artifact-line", "open_ticket", "https://tickets.example/browse/{v}", Value::Ticket),
];

const WORDS: &[&str] =
    &["orion", "vega", "lyra", "atlas", "nova", "pike", "delta", "ember", "quartz", "juno"];
const NAMES: &[&str] = &["Imogen", "Tobias", "Ravi", "Marisol", "Kenji", "Oluwaseun", "Birgit", "Anouk"];
const MONTHS: &[&str] = &["March", "April", "June", "October", "November"];

/// A fresh key value of `shape`, unique within a session through `serial`.
fn value(rng: &mut Rng, shape: Value, serial: usize) -> String {
    let word = rng.pick(WORDS).unwrap_or("x");
    let n = rng.between(10, 99) * 100 + serial;
    match shape {
        Value::Number => format!("{}", 40_000 + n),
        Value::Port => format!("{}", 5_000 + serial * 37 + rng.between(0, 30)),
        Value::Host => format!("{word}-{n}.int.example"),
        Value::Ticket => format!("INC-{}", 20_000 + n),
        Value::Branch => format!("fix/{word}-retry-{n}"),
        Value::Date => format!("{} {}", 1 + serial % 28, rng.pick(MONTHS).unwrap_or("March")),
        Value::Order => format!("{}-{}-X", rng.between(10, 99), 1_000 + n),
        Value::Region => format!("{word}-west{}", serial % 9 + 1),
        Value::Name => format!("{}{}", rng.pick(NAMES).unwrap_or("Ada"), ["", "a", "o", "e"][serial % 4]),
        Value::Path => format!("/srv/{word}/share-{n}"),
        Value::Address => format!("10.{}.{}.{}", serial % 200, rng.between(0, 200), rng.between(1, 250)),
    }
}

/// Python a user might paste around a fact, unfenced.
const PASTED_CODE: &str = "Here is what I have so far:\n\
    def n(self, line):\n        if not line:\n            return None\n        return line.strip().split(':')\n\n\
    Traceback (most recent call last):\n  File \"ops/sync.py\", line 88, in run\n    self.n(line)\n\
    ValueError: not enough values to unpack (expected 2, got 1)";

/// Hostile traffic planted with the facts: code, diffs, shell sessions, logs and JSON that state nothing.
fn noise(serial: usize) -> Vec<Message> {
    let id = format!("noise_{serial}");
    vec![
        Message::user(format!(
            "The deploy broke again, output below\n$ ./deploy.sh --env staging\n+ export PORT=5432\n\
             error: the port is 5432 but the service is called api-{serial}\n\
             thread 'main' panicked at src/main.rs:41:9:\ncalled `Option::unwrap()` on a `None` value\n\
             fn port(&self) -> u16 {{ self.port }}\nmy_config.host = \"db-{serial}.internal\"\n\
             Why does this happen?"
        )),
        Message::assistant(format!(
            "The config sets the wrong host:\ndiff --git a/config.py b/config.py\n@@ -3,3 +3,3 @@\n\
             -    host = \"db-{serial}.internal\"\n+    host = \"db-{serial}b.internal\"\n\
             \tport = 5432\nclass Settings(BaseModel):\n    region: str = \"europe-west{serial}\"\n\
             After the fix the retries stop."
        )),
        Message::user("Show me the recent commits and the ticket payload."),
        Message::assistant_tool_calls([ToolCall::new(
            id.clone(),
            "run_shell",
            serde_json::json!({"cmd": "git log"}),
        )]),
        Message::tool_result(
            id,
            format!(
                "commit 9f2c{serial:04}e1\nAuthor: Dev <dev@example.com>\n\n    Tweak retries for ticket INC-7{serial:04}\n\
                 {{\"id\": \"INC-7{serial:04}\", \"status\": \"resolved\", \"assignee\": \"ops\"}}"
            ),
        ),
        Message::assistant("Nothing else changed recently."),
    ]
}

/// A planted fact: where it went, its family and speaker, its key value.
struct Planted {
    family: &'static str,
    speaker: Speaker,
    value: String,
    /// The sentence that states it, without the code around it.
    statement: String,
}

/// `history` with one planted fact per template in `templates` inserted at turn boundaries.
fn plant(mut history: Vec<Message>, templates: &[Template], rng: &mut Rng) -> (Vec<Message>, Vec<Planted>) {
    let mut planted = Vec::new();
    for (serial, template) in templates.iter().enumerate() {
        let value = value(rng, template.value, serial);
        let text = template.text.replace("{v}", &value);
        let messages = match template.speaker {
            Speaker::User => {
                // Every other user fact sits inside pasted code, the rest stands alone.
                let text =
                    if serial % 2 == 0 { format!("{PASTED_CODE}\n{text}\n{PASTED_CODE}") } else { text };
                vec![Message::user(text), Message::assistant("Noted, thanks.")]
            }
            Speaker::Assistant => vec![
                Message::user("Please go ahead and do that."),
                Message::assistant(format!(
                    "Done: the retry loop now backs off properly. {text} Anything else?"
                )),
            ],
            Speaker::Tool => {
                let id = format!("plant_{serial}");
                vec![
                    Message::user("Go ahead."),
                    Message::assistant_tool_calls([ToolCall::new(
                        id.clone(),
                        template.tool,
                        serde_json::json!({ "title": "fix" }),
                    )]),
                    Message::tool_result(id, text),
                    Message::assistant("That worked."),
                ]
            }
        };
        let boundaries: Vec<usize> = history
            .iter()
            .enumerate()
            .filter(|(_, message)| message.role == Role::User)
            .map(|(index, _)| index)
            .collect();
        let at = boundaries[rng.between(0, boundaries.len() - 1)];
        history.splice(at..at, messages);
        planted.push(Planted {
            family: template.family,
            speaker: template.speaker,
            statement: template.text.replace("{v}", &value),
            value,
        });
        if serial % 3 == 0 {
            let at = history.len() - 1;
            let at = history[..at].iter().rposition(|message| message.role == Role::User).unwrap_or(at);
            history.splice(at..at, noise(serial));
        }
    }
    (history, planted)
}

/// The fact statements of a session: the planted ones first, then the transcript's labelled ones.
fn labelled(history: &[Message], planted: &[Planted]) -> Vec<Statement> {
    let mut statements: Vec<Statement> =
        planted.iter().map(|fact| Statement::keyed(fact.statement.clone(), fact.value.clone())).collect();
    statements.extend(transcript_statements(history));
    statements
}

/// Counts of found and total per group.
#[derive(Default)]
struct Tally {
    found: usize,
    total: usize,
}

impl Tally {
    fn add(&mut self, hit: bool) {
        self.total += 1;
        self.found += usize::from(hit);
    }

    fn ratio(&self) -> f64 {
        if self.total == 0 { 1.0 } else { self.found as f64 / self.total as f64 }
    }
}

/// Recall and precision over all seeds and sessions for one set of templates.
struct Figures {
    recall: Tally,
    precision: Tally,
    strict: Tally,
    by_speaker: BTreeMap<Speaker, Tally>,
    by_family: BTreeMap<&'static str, Tally>,
    missed: Vec<String>,
    junk: Vec<String>,
    kinds: BTreeMap<(&'static str, &'static str), usize>,
}

/// The turns of each generated session, as long as the session of issue 15.
const TURNS: usize = 600;

/// The span length, in messages, of one simulated eviction.
const SPAN: usize = 40;

/// `history` cut into spans of about [`SPAN`] messages, each ending before a user message, as a
/// compaction evicts whole turns and never parts a tool call from its result.
fn spans(history: &[Message]) -> Vec<&[Message]> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (index, message) in history.iter().enumerate() {
        if message.role == Role::User && index - start >= SPAN {
            spans.push(&history[start..index]);
            start = index;
        }
    }
    spans.push(&history[start..]);
    spans
}

fn measure(templates: &[Template]) -> Figures {
    let mut figures = Figures {
        recall: Tally::default(),
        precision: Tally::default(),
        strict: Tally::default(),
        by_speaker: BTreeMap::new(),
        by_family: BTreeMap::new(),
        missed: Vec::new(),
        junk: Vec::new(),
        kinds: BTreeMap::new(),
    };
    let extractor = Extractor::new();
    for seed in [3, 17, 2026, 41_093] {
        for session in Session::ALL {
            let mut rng = Rng::new(seed ^ 0x5eed);
            let (history, planted) = plant(session.generate(seed, TURNS), templates, &mut rng);
            // The pinned system prompt is never evicted.
            let evictable = &history[1..];
            let candidates: Vec<Candidate> =
                spans(evictable).into_iter().flat_map(|span| extractor.extract(span)).collect();
            for fact in &planted {
                let statement = [Statement::keyed(fact.statement.clone(), fact.value.clone())];
                let hit = candidates.iter().any(|candidate| is_real(&candidate.text, &statement));
                figures.recall.add(hit);
                figures.by_speaker.entry(fact.speaker).or_default().add(hit);
                figures.by_family.entry(fact.family).or_default().add(hit);
                if !hit {
                    figures.missed.push(format!("{:?}/{}: {}", fact.speaker, fact.family, fact.value));
                }
            }
            let statements = labelled(&history, &planted);
            for candidate in &candidates {
                let planted_hit = planted.iter().any(|fact| candidate.text.contains(&fact.value))
                    && is_real(&candidate.text, &statements[..planted.len()]);
                let genuine = is_real(&candidate.text, &statements);
                let transcript = genuine && !planted_hit;
                *figures
                    .kinds
                    .entry((
                        candidate.kind.as_str(),
                        if planted_hit {
                            "planted"
                        } else if transcript {
                            "transcript"
                        } else {
                            "junk"
                        },
                    ))
                    .or_default() += 1;
                figures.strict.add(planted_hit);
                figures.precision.add(genuine);
                if !genuine && figures.junk.len() < 40 {
                    figures.junk.push(candidate.text.clone());
                }
            }
        }
    }
    figures
}

fn report(name: &str, figures: &Figures) {
    println!(
        "{name}: recall {:.1}% ({}/{}), precision {:.1}% ({}/{}), planted only {:.1}% ({}/{})",
        100.0 * figures.recall.ratio(),
        figures.recall.found,
        figures.recall.total,
        100.0 * figures.precision.ratio(),
        figures.precision.found,
        figures.precision.total,
        100.0 * figures.strict.ratio(),
        figures.strict.found,
        figures.strict.total,
    );
    let (planted, facts) = figures.kinds.iter().filter(|((kind, _), _)| *kind != "question_answer").fold(
        (0, 0),
        |(planted, all), ((_, class), count)| {
            (planted + if *class == "planted" { *count } else { 0 }, all + count)
        },
    );
    println!(
        "  planted only, without question-answer pairs: {:.1}% ({planted}/{facts})",
        100.0 * planted as f64 / facts.max(1) as f64
    );
    for (speaker, tally) in &figures.by_speaker {
        println!("  {speaker:?}: recall {:.1}% ({}/{})", 100.0 * tally.ratio(), tally.found, tally.total);
    }
    for (family, tally) in &figures.by_family {
        println!("  {family}: recall {:.1}% ({}/{})", 100.0 * tally.ratio(), tally.found, tally.total);
    }
    for ((kind, class), count) in &figures.kinds {
        println!("  candidates {kind} {class}: {count}");
    }
    for missed in figures.missed.iter().take(12) {
        println!("  missed {missed}");
    }
    for junk in &figures.junk {
        println!("  junk {junk}");
    }
}

#[test]
fn planted_facts_are_found_and_little_else_on_the_development_phrasings() {
    let figures = measure(DEV);
    report("development phrasings", &figures);
    assert!(figures.recall.ratio() >= 0.95, "recall {}", figures.recall.ratio());
    assert!(figures.precision.ratio() >= 0.90, "precision {}", figures.precision.ratio());
}

#[test]
fn planted_facts_are_found_and_little_else_on_held_out_phrasings() {
    let figures = measure(HELD_OUT);
    report("held-out phrasings", &figures);
    assert!(figures.recall.ratio() >= 0.95, "recall {}", figures.recall.ratio());
    assert!(figures.precision.ratio() >= 0.90, "precision {}", figures.precision.ratio());
}

#[test]
fn planted_facts_are_found_and_little_else_on_the_second_held_out_phrasings() {
    let figures = measure(HELD_OUT_SECOND);
    report("second held-out phrasings", &figures);
    assert!(figures.recall.ratio() >= 0.95, "recall {}", figures.recall.ratio());
    assert!(figures.precision.ratio() >= 0.90, "precision {}", figures.precision.ratio());
}

#[test]
fn planted_facts_are_found_and_little_else_on_the_third_held_out_phrasings() {
    let figures = measure(HELD_OUT_THIRD);
    report("third held-out phrasings", &figures);
    assert!(figures.recall.ratio() >= 0.95, "recall {}", figures.recall.ratio());
    assert!(figures.precision.ratio() >= 0.90, "precision {}", figures.precision.ratio());
}

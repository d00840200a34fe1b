//! Seeded generators of realistic agent sessions: a coding agent, a customer-support conversation and a research agent with parallel tool calls.
//!
//! The same seed gives the same session, byte for byte, on every machine, so
//! the sample transcripts shipped with tidemark can be regenerated and checked.
//! Every session is a valid history ([`tidemark_core::validate`]); a turn starts
//! at each user message.

use tidemark_core::{Message, ToolCall};

use crate::workload::{Rng, code, prose};

/// The seed of the sample transcripts shipped in `examples/transcripts/`.
pub const SAMPLE_SEED: u64 = 2026;

/// The number of turns of each shipped sample transcript.
pub const SAMPLE_TURNS: usize = 220;

/// The kinds of sample session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Session {
    /// A coding agent reading files, running tests and editing code.
    Coding,
    /// A support conversation with preferences, corrections and identity statements.
    Support,
    /// A research agent that searches and reads in parallel.
    Research,
}

impl Session {
    /// Every kind, in a fixed order.
    pub const ALL: [Session; 3] = [Session::Coding, Session::Support, Session::Research];

    /// The file name the sample is shipped under.
    pub fn file_name(self) -> &'static str {
        match self {
            Session::Coding => "coding-agent.jsonl",
            Session::Support => "support-conversation.jsonl",
            Session::Research => "research-agent.jsonl",
        }
    }

    /// The shipped sample of this session: [`SAMPLE_TURNS`] turns from [`SAMPLE_SEED`].
    pub fn sample(self) -> Vec<Message> {
        self.generate(SAMPLE_SEED, SAMPLE_TURNS)
    }

    /// `turns` turns of this session from `seed`.
    pub fn generate(self, seed: u64, turns: usize) -> Vec<Message> {
        let mut rng = Rng::new(seed);
        let mut ids = Ids(0);
        let mut history = vec![Message::system(self.system_prompt()).pinned()];
        for turn in 0..turns {
            match self {
                Session::Coding => coding_turn(&mut rng, &mut ids, turn, &mut history),
                Session::Support => support_turn(&mut rng, &mut ids, turn, &mut history),
                Session::Research => research_turn(&mut rng, &mut ids, turn, &mut history),
            }
        }
        history
    }

    fn system_prompt(self) -> &'static str {
        match self {
            Session::Coding => {
                "You are a coding agent working in a Rust repository. Use read_file, grep, run_tests and \
                 edit_file to inspect and change code. Explain what you changed and why. Never push to main."
            }
            Session::Support => {
                "You are the support assistant of Northwind Parcels. Be precise and polite. Use lookup_order, \
                 update_address and issue_refund; confirm every change with the customer before making it."
            }
            Session::Research => {
                "You are a research agent. Search broadly, read the most relevant pages, and answer with \
                 sources. Run independent searches in parallel."
            }
        }
    }
}

/// Call ids unique within a session.
struct Ids(u64);

impl Ids {
    fn next(&mut self) -> String {
        self.0 += 1;
        format!("call_{:06}", self.0)
    }
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    rng.pick(items).unwrap_or("")
}

const MODULES: &[&str] =
    &["parser", "lexer", "config", "cache", "server", "router", "auth", "storage", "metrics", "cli"];
const TASKS: &[&str] = &[
    "The test {m}::tests::round_trip fails since yesterday. Can you find out why and fix it?",
    "Please add a `--verbose` flag to the {m} module and log each step when it is set.",
    "Why does `cargo build` warn about an unused import in src/{m}.rs?",
    "Refactor src/{m}.rs so that the error type uses thiserror instead of manual impls.",
    "Can you check whether {m} handles empty input without panicking?",
    "Rename the function `load_all` in src/{m}.rs to `load` and update the callers.",
];

fn coding_turn(rng: &mut Rng, ids: &mut Ids, turn: usize, history: &mut Vec<Message>) {
    let module = pick(rng, MODULES);
    let task = pick(rng, TASKS).replace("{m}", module);
    let mut request = format!("[turn {turn}] {task}");
    if rng.between(0, 9) == 0 {
        request.push_str(" Remember: we never use unwrap in library code.");
    }
    history.push(Message::user(request));
    let path = format!("src/{module}.rs");
    let steps = rng.between(1, 4);
    for step in 0..steps {
        let id = ids.next();
        let (call, result) = match (step, rng.between(0, 3)) {
            (0, _) | (_, 0) => {
                let bytes = rng.between(300, 2_400);
                (
                    ToolCall::new(id.clone(), "read_file", serde_json::json!({ "path": path })),
                    code(rng, bytes),
                )
            }
            (_, 1) => {
                let pattern = pick(rng, &["unwrap()", "fn load", "impl Error", "TODO"]);
                let hits = rng.between(1, 6);
                let lines: Vec<String> = (0..hits)
                    .map(|i| format!("src/{}.rs:{}: {pattern}", pick(rng, MODULES), 10 + i * 7))
                    .collect();
                (
                    ToolCall::new(id.clone(), "grep", serde_json::json!({ "pattern": pattern })),
                    lines.join("\n"),
                )
            }
            (_, 2) => {
                let failed = rng.between(0, 2) == 0;
                let output = if failed {
                    format!(
                        "running 42 tests\ntest {module}::tests::round_trip ... FAILED\n\nfailures:\n  assertion failed: \
                         left == right\n  left: `Some(3)`\n right: `None`\n\ntest result: FAILED. 41 passed; 1 failed"
                    )
                } else {
                    "running 42 tests\n..........................................\ntest result: ok. 42 passed; 0 failed"
                        .to_owned()
                };
                (ToolCall::new(id.clone(), "run_tests", serde_json::json!({ "filter": module })), output)
            }
            _ => {
                let old = format!("fn load_all(&self) -> Result<Vec<{module}::Item>, Error>");
                let new = format!("fn load(&self) -> Result<Vec<{module}::Item>, Error>");
                let args = serde_json::json!({ "path": path, "old": old, "new": new });
                (ToolCall::new(id.clone(), "edit_file", args), format!("applied 1 edit to {path}"))
            }
        };
        history.push(Message::assistant_tool_calls([call]));
        history.push(Message::tool_result(id, result));
    }
    let bytes = rng.between(120, 500);
    history.push(Message::assistant(format!("Done with {path}: {}", prose(rng, bytes))));
}

const FACTS: &[&str] = &[
    "My name is Dana Whitfield and my customer id is C-48213.",
    "Please always answer in short bullet points, I read these on my phone.",
    "I prefer to be contacted by email, not by phone.",
    "Actually, my address is 14 Harbour Lane, not 41 Harbour Lane. Please correct that.",
    "I work nights, so deliveries after 2 pm are best for me.",
    "Correction: the order number I gave you earlier was wrong, it is NW-90412.",
    "I'm allergic to latex, so please make sure the packaging has none.",
];
const QUESTIONS: &[&str] = &[
    "Where is my parcel right now?",
    "Can you change the delivery address for order {o}?",
    "The box for order {o} arrived damaged. What can I do?",
    "How long does a refund usually take?",
    "Can I get the invoice for order {o} as a PDF?",
    "Is weekend delivery possible in my area?",
];

fn support_turn(rng: &mut Rng, ids: &mut Ids, turn: usize, history: &mut Vec<Message>) {
    let order = format!("NW-{}", 90_000 + rng.between(0, 999));
    let text = if turn < FACTS.len() * 6 && turn.is_multiple_of(6) {
        FACTS[turn / 6].to_owned()
    } else {
        pick(rng, QUESTIONS).replace("{o}", &order)
    };
    history.push(Message::user(text));
    if rng.between(0, 2) > 0 {
        let id = ids.next();
        let tool = pick(rng, &["lookup_order", "update_address", "issue_refund"]);
        let args = serde_json::json!({ "order_id": order, "customer_id": "C-48213" });
        let status = pick(rng, &["in transit", "at the depot", "out for delivery", "delivered"]);
        let result = serde_json::json!({
            "order_id": order,
            "status": status,
            "eta": format!("2026-11-{:02}", rng.between(10, 28)),
            "history": (0..rng.between(1, 4)).map(|i| format!("scan {i}: {}", prose(rng, 40))).collect::<Vec<_>>(),
        });
        history.push(Message::assistant_tool_calls([ToolCall::new(id.clone(), tool, args)]));
        history.push(Message::tool_result(id, result.to_string()));
    }
    let bytes = rng.between(100, 400);
    history.push(Message::assistant(format!("- {}\n- {}", prose(rng, bytes / 2), prose(rng, bytes / 2))));
}

const TOPICS: &[&str] = &[
    "tokenizer speed of byte-pair encoders",
    "how SQLite's WAL mode handles concurrent readers",
    "retry policies for rate-limited HTTP APIs",
    "summarisation quality of small language models",
    "the history of the Rust async ecosystem",
];

fn research_turn(rng: &mut Rng, ids: &mut Ids, turn: usize, history: &mut Vec<Message>) {
    let topic = pick(rng, TOPICS);
    history.push(Message::user(format!("[turn {turn}] What is known about {topic}? Give me sources.")));
    // Parallel searches, whose results come back in another order.
    let searches = rng.between(2, 4);
    let mut calls: Vec<(String, String)> = Vec::with_capacity(searches);
    for _ in 0..searches {
        let kind = pick(rng, &["benchmark", "survey", "blog", "paper", "docs"]);
        let year = 2020 + rng.between(0, 6);
        calls.push((ids.next(), format!("{topic} {kind} {year}")));
    }
    history.push(Message::assistant_tool_calls(
        calls.iter().map(|(id, query)| {
            ToolCall::new(id.clone(), "web_search", serde_json::json!({ "query": query }))
        }),
    ));
    for (id, query) in calls.iter().rev() {
        let hits: Vec<String> = (0..3)
            .map(|i| format!("{}. https://example.org/{}/{} — {}", i + 1, query.len(), i, prose(rng, 80)))
            .collect();
        history.push(Message::tool_result(id.clone(), hits.join("\n")));
    }
    // Then read two pages at once.
    let pages: Vec<String> = (0..2).map(|_| ids.next()).collect();
    history.push(
        Message::assistant(format!("Reading the two most relevant pages on {topic}."))
            .with_part(tidemark_core::Part::ToolCall(ToolCall::new(
                pages[0].clone(),
                "fetch_page",
                serde_json::json!({ "url": "https://example.org/a" }),
            )))
            .with_part(tidemark_core::Part::ToolCall(ToolCall::new(
                pages[1].clone(),
                "fetch_page",
                serde_json::json!({ "url": "https://example.org/b" }),
            ))),
    );
    for id in &pages {
        let bytes = rng.between(400, 1_800);
        history.push(Message::tool_result(id.clone(), prose(rng, bytes)));
    }
    let bytes = rng.between(200, 700);
    history.push(Message::assistant(format!(
        "{} Sources: https://example.org/a, https://example.org/b",
        prose(rng, bytes)
    )));
}

#[cfg(test)]
mod tests {
    use tidemark_core::{Role, validate};

    use super::*;

    #[test]
    fn sessions_are_valid_reproducible_and_long_enough() {
        for session in Session::ALL {
            let history = session.generate(7, 220);
            validate(&history).unwrap_or_else(|violation| panic!("{session:?}: {violation}"));
            assert_eq!(history, session.generate(7, 220), "{session:?} is reproducible");
            let turns = history.iter().filter(|m| m.role == Role::User).count();
            assert_eq!(turns, 220, "{session:?}");
        }
    }

    #[test]
    fn each_session_has_its_features() {
        let research = Session::Research.generate(1, 30);
        assert!(research.iter().any(|m| m.tool_calls().count() >= 3), "parallel searches");
        let support = Session::Support.generate(1, 60);
        let text: String = support.iter().map(|m| m.text().into_owned()).collect();
        assert!(text.contains("Correction:") && text.contains("customer id is C-48213"));
        let coding = Session::Coding.generate(1, 60);
        let tools: Vec<&str> = coding.iter().flat_map(|m| m.tool_calls()).map(|c| c.name.as_str()).collect();
        for tool in ["read_file", "grep", "run_tests", "edit_file"] {
            assert!(tools.contains(&tool), "{tool}");
        }
    }
}

//! Unit tests of details, references, artifacts and tool results, the code-robust segmentation, and properties on arbitrary text.

use proptest::prelude::*;
use tidemark_core::{Part, ToolCall};

use super::details::identifier;
use super::sentences::split_sentences;
use super::words::clean;
use super::*;

fn from(message: Message) -> Vec<Candidate> {
    Extractor::new().extract(&[message])
}

/// The one candidate `message` yields: its kind, tier and text.
#[track_caller]
fn one(message: Message) -> (CandidateKind, Tier, String) {
    let candidates = from(message.clone());
    assert_eq!(candidates.len(), 1, "{message:?} gave {candidates:#?}");
    let candidate = &candidates[0];
    (candidate.kind, candidate.tier, candidate.text.clone())
}

#[test]
fn details_keep_the_clause_and_pick_the_tier_by_owner() {
    for (text, kind, tier, expected) in [
        (
            "Our production Postgres listens on port 6432, so open it.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"Our production Postgres listens on port 6432\"",
        ),
        (
            "The staging box is called orion-2.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"The staging box is called orion-2\"",
        ),
        (
            "Quick one: my employee number is 88123.",
            CandidateKind::Identity,
            Tier::UserProfile,
            "About the user: \"my employee number is 88123\"",
        ),
        (
            "I think the VPN gateway sits behind 10.4.0.1 and it is slow.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"the VPN gateway sits behind 10.4.0.1\"",
        ),
        (
            "The ticket number for this is INC-20931.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"The ticket number for this is INC-20931\"",
        ),
        (
            "The deadline got pushed to 14 March.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"The deadline got pushed to 14 March\"",
        ),
        (
            "The shared drive is mounted at /srv/share-7.",
            CandidateKind::Detail,
            Tier::AgentNotes,
            "Detail from the user: \"The shared drive is mounted at /srv/share-7\"",
        ),
    ] {
        assert_eq!(one(Message::user(text)), (kind, tier, expected.to_owned()), "{text:?}");
    }
    let (kind, tier, text) =
        one(Message::assistant("The metrics endpoint is served from metrics-3.internal."));
    assert_eq!((kind, tier), (CandidateKind::Detail, Tier::AgentNotes));
    assert_eq!(text, "Detail from the assistant: \"The metrics endpoint is served from metrics-3.internal\"");
}

#[test]
fn vague_values_and_pointing_subjects_are_not_details() {
    for text in [
        "The plan is great.",
        "The build is broken since 3 days.",
        "It is 5432.",
        "This is the one.",
        "The problem is Monday.",
        "the thing is at 5",
    ] {
        assert!(from(Message::user(text)).is_empty(), "{text:?}");
    }
    // The assistant's "my …" is its own.
    assert!(from(Message::assistant("My context window is 200000 tokens.")).is_empty());
}

#[test]
fn references_name_a_coded_identifier() {
    for (text, key) in [
        ("This is about ticket INC-20931, the flaky login.", "ticket INC-20931"),
        ("I'm asking about order 99-1842-X.", "order 99-1842-X"),
        ("Everything should run in region europe-west4.", "region europe-west4"),
    ] {
        let (kind, tier, candidate) = one(Message::user(text));
        assert_eq!((kind, tier), (CandidateKind::Reference, Tier::AgentNotes), "{text:?}");
        assert!(candidate.contains(key), "{candidate}");
    }
    for text in ["Refactor src/cache.rs please.", "It took 3 minutes.", "Version 2.0 is out.", "See page 12."]
    {
        assert!(from(Message::user(text)).is_empty(), "{text:?}");
    }
}

#[test]
fn artifacts_from_the_assistant_are_short_clauses() {
    for (text, expected) in [
        ("Opened INC-20931 for the checkout outage.", "Agent artifact: INC-20931 was opened"),
        (
            "I've pushed branch fix/retry-backoff-7781 with the fix.",
            "Agent artifact: branch fix/retry-backoff-7781 was pushed",
        ),
        ("Branch fix/x-2 has been pushed to origin.", "Agent artifact: branch fix/x-2 was pushed"),
        ("PR #4821 created.", "Agent artifact: pr #4821 was created"),
        ("I wrote the report to out/report-3.csv.", "Agent artifact: report to out/report-3.csv was written"),
    ] {
        assert_eq!(
            one(Message::assistant(text)),
            (CandidateKind::Artifact, Tier::AgentNotes, expected.to_owned())
        );
    }
    // Narration next to a tool call still reports what was made, but nothing else.
    let narrating = Message::assistant("Created branch fix/a-1. The port is 5432.")
        .with_part(Part::ToolCall(ToolCall::new("c", "run", serde_json::json!({}))));
    assert_eq!(Extractor::new().extract(&[narrating]).len(), 1);
    for text in ["Created 3 files.", "I opened the file.", "I'll create branch fix/a-1 next."] {
        let candidates = from(Message::assistant(text));
        assert!(candidates.iter().all(|candidate| candidate.kind != CandidateKind::Artifact), "{text:?}");
    }
}

fn from_tool(tool: &str, result: &str) -> Vec<String> {
    let evicted = [
        Message::assistant_tool_calls([ToolCall::new("c1", tool, serde_json::json!({}))]),
        Message::tool_result("c1", result),
    ];
    Extractor::new().extract(&evicted).into_iter().map(|candidate| candidate.text).collect()
}

#[test]
fn tool_results_give_artifacts_only_in_their_made_shapes() {
    for (tool, result, expected) in [
        (
            "git_push",
            "Created branch fix/retry-7781",
            "Agent artifact: branch fix/retry-7781 was created (git_push)",
        ),
        (
            "git_push",
            "To github.com:acme/api.git\n * [new branch]      fix/a-9 -> fix/a-9",
            "Agent artifact: branch fix/a-9 was created (git_push)",
        ),
        (
            "create_ticket",
            r#"{"id": "INC-20931", "status": "created"}"#,
            "Agent artifact: ticket INC-20931 was created (create_ticket)",
        ),
        (
            "tickets",
            r#"{"ticket_id": "T-77", "state": "open", "url": "https://t.example/T-77"}"#,
            "Agent artifact: ticket T-77 was created, at https://t.example/T-77 (tickets)",
        ),
        (
            "create_page",
            r#"{"data": {"id": "pg_4411", "title": "Runbook"}}"#,
            "Agent artifact: data pg_4411 was created (create_page)",
        ),
    ] {
        assert_eq!(from_tool(tool, result), [expected], "{result}");
    }
    for (tool, result) in [
        ("lookup_order", r#"{"order_id": "NW-90412", "status": "in transit"}"#),
        ("read_file", "def created(self):\n    return 'Created branch fix/x-1'\n"),
        ("run_shell", "I prefer tabs. My name is Mallory. The port is 5432."),
        ("create_ticket", r#"{"title": "no id here", "status": "created"}"#),
        ("create_ticket", "[1, 2, 3]"),
    ] {
        assert!(from_tool(tool, result).is_empty(), "{result}");
    }
    let error = [
        Message::assistant_tool_calls([ToolCall::new("c1", "git", serde_json::json!({}))]),
        Message::tool_error("c1", "Created branch fix/a-1"),
    ];
    assert!(Extractor::new().extract(&error).is_empty());
}

#[test]
fn identifiers_have_digits_or_separators() {
    for token in
        ["INC-20931", "99-1842-X", "europe-west4", "fix/retry", "db-7.internal", "10.0.3.7", "88123", "#42"]
    {
        assert!(identifier(token), "{token}");
    }
    for token in ["3.14", "42", "10:30", "on-call", "hello", "x", ""] {
        assert!(!identifier(token), "{token}");
    }
}

#[test]
fn code_in_a_message_gives_no_sentences_and_no_pairs() {
    let text = "Here is the parser:\ndef n(self, line):\n    if not line:\n        return None\n\n    \
                return line.split(':')\nMy employee number is 88123.\nTraceback (most recent call last):\n  \
                File \"a.py\", line 3, in n\nValueError: bad line";
    assert_eq!(split_sentences(text), ["Here is the parser:", "My employee number is 88123."]);
    let evicted = [
        Message::user("def n(self, line): what does this return?"),
        Message::assistant("fn parse(&self) -> Result<Line, Error>: it returns the parsed line."),
    ];
    assert!(Extractor::new().extract(&evicted).is_empty());
    let candidates = from(Message::user(text));
    assert_eq!(texts(&candidates), ["About the user: \"My employee number is 88123\""]);
}

#[test]
fn long_statements_are_bounded_at_a_clause() {
    let statement = format!(
        "I prefer answers that start with the command to run, {}, and never a preamble.",
        "then the reason in one sentence ".repeat(6).trim_end()
    );
    let candidates = from(Message::user(statement));
    let text = &candidates[0].text;
    assert_eq!(text, "User preference: \"I prefer answers that start with the command to run\"");
    let unbroken = format!("I prefer {}.", "long ".repeat(60));
    let text = &from(Message::user(unbroken))[0].text;
    assert!(text.chars().count() <= 200 + 20 && text.ends_with("…\""), "{text}");
}

fn texts(candidates: &[Candidate]) -> Vec<&str> {
    candidates.iter().map(|candidate| candidate.text.as_str()).collect()
}

/// The body of `text` without its label, quotes and cut mark, lower case, for a containment check.
fn body(text: &str) -> Option<String> {
    let (_, quoted) = text.split_once(": \"")?;
    let quoted = quoted.strip_suffix('"').unwrap_or(quoted);
    let quoted = quoted.strip_suffix('…').unwrap_or(quoted);
    Some(quoted.to_lowercase())
}

/// Fragments that reach every rule, mixed with arbitrary text by the property below.
const FRAGMENTS: &[&str] = &[
    "our production Postgres listens on port ",
    "my employee number is ",
    "the staging box is called ",
    "ticket INC-",
    "Created branch fix/",
    "Opened ",
    "{\"id\": \"",
    "\", \"status\": \"created\"}",
    "def n(self, line):\n    ",
    "Correction: the deadline moved to ",
    "Why does ",
    " was pushed",
    "[new branch] ",
    " -> ",
    "5432",
    "-7781",
    "/srv/a-1",
    "\n",
    ". ",
    ", ",
    "`",
];

fn arb_fragment_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![3 => proptest::sample::select(FRAGMENTS).prop_map(str::to_owned), 1 => any::<String>()],
        0..10,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text from any speaker is extracted without a panic; every text fits
    /// the cap, and a quoted one is a clause of its own message.
    #[test]
    fn arbitrary_text_never_panics_and_quotes_its_message(
        text in arb_fragment_text(),
        role in 0..3_u8,
        max in 0..400_usize,
    ) {
        let message = match role {
            0 => Message::user(text.clone()),
            1 => Message::assistant(text.clone()),
            _ => Message::tool_result("c1", text.clone()),
        };
        let evicted = [
            Message::assistant_tool_calls([ToolCall::new("c1", "create_ticket", serde_json::json!({}))]),
            message,
        ];
        for extractor in [Extractor::new(), Extractor::new().with_max_chars(max)] {
            for candidate in extractor.extract(&evicted) {
                prop_assert!(candidate.text.chars().count() <= extractor.max_chars());
                let source = clean(&text).to_lowercase();
                let quoted = !matches!(candidate.kind, CandidateKind::QuestionAnswer | CandidateKind::Artifact);
                if let (Some(body), true) = (body(&candidate.text), quoted) {
                    // Corrections capitalise their claim: the first character is left out.
                    let rest: String = body.chars().skip(1).collect();
                    prop_assert!(source.contains(&rest), "{:?} is not in {:?}", body, source);
                    prop_assert!(body.chars().count() <= details::MAX_CLAUSE_CHARS + 1);
                }
                let whole = !candidate.text.ends_with('…');
                if whole && candidate.kind != CandidateKind::Artifact && candidate.kind != CandidateKind::QuestionAnswer {
                    prop_assert!(body(&candidate.text).is_some(), "{}", candidate.text);
                }
            }
        }
    }
}

#[test]
fn details_without_an_owner_word_and_labelled_values() {
    for (text, expected) in [
        ("Staging box is called orion-2.", Some("Detail from the user: \"Staging box is called orion-2\"")),
        (
            "Build server runs on ci-4.int.example now.",
            Some("Detail from the user: \"Build server runs on ci-4.int.example now\""),
        ),
        (
            "Staging host: vega-7.int.example",
            Some("Detail from the user: \"Staging host: vega-7.int.example\""),
        ),
        ("My employee number: 88123.", Some("About the user: \"My employee number: 88123\"")),
        ("Employee no. 88123, for the forms.", Some("Reference from the user: \"Employee no. 88123\"")),
        ("It is called orion-2.", None),
        ("Everything is at 5.", None),
        ("Error: connection refused at 10.0.0.7", None),
        ("port: 5432", None),
        ("Note: see INC-2 later", None),
    ] {
        let candidates = from(Message::user(text));
        assert_eq!(candidates.first().map(|candidate| candidate.text.as_str()), expected, "{text}");
    }
}

#[test]
fn a_bare_url_from_a_making_tool_is_an_artifact() {
    assert_eq!(
        from_tool("create_pr", "https://git.example/acme/api/pull/4821"),
        ["Agent artifact: pr https://git.example/acme/api/pull/4821 was created (create_pr)"]
    );
    assert!(from_tool("fetch_page", "https://example.org/a").is_empty());
    assert!(from_tool("create_pr", "https://example.org/a and more").is_empty());
}

#[test]
fn shapes_found_by_the_third_held_out_set() {
    assert_eq!(
        one(Message::user("Everyone here calls me Sam.")).0,
        CandidateKind::Identity,
        "what others call the speaker"
    );
    assert_eq!(
        one(Message::user("Update: the freeze now starts 8 June.")).2,
        "Correction from the user: \"The freeze now starts 8 June.\""
    );
    assert_eq!(
        from_tool("gitlab", "Merge request !4312 was opened"),
        ["Agent artifact: request !4312 was opened (gitlab)"]
    );
    assert_eq!(
        from_tool("kubectl", "deployment.apps/api-7 created\nservice/web unchanged"),
        ["Agent artifact: deployment api-7 was created (kubectl)"]
    );
}

#[test]
fn records_read_or_changed_by_tools_and_pointing_subjects_are_not_kept() {
    let record = r#"{"reservation_id": "JG7FMM", "status": "open", "created_at": "2024-05-01T10:00:00"}"#;
    assert!(from_tool("get_reservation_details", record).is_empty());
    assert!(from_tool("update_reservation_flights", record).is_empty());
    assert!(
        from_tool("reservations", r#"{"reservation_id": "JG7FMM", "created_at": "2024-05-01"}"#).is_empty()
    );
    assert!(from(Message::user("Output of this snippet is `344`, but 345 is right.")).is_empty());
    assert!(from(Message::user("Instead, use the goto 583 command.")).is_empty());
    assert_eq!(from(Message::user("It should run in region europe-west4.")).len(), 1);
}

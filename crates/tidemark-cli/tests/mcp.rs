//! `tidemark mcp` driven by an MCP client tidemark did not write: the official Python SDK.
//!
//! Needs `TIDEMARK_MCP_PYTHON`, a Python interpreter with the `mcp` package, which
//! `cargo xtask ci` installs into a virtual environment and sets.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn python() -> String {
    std::env::var("TIDEMARK_MCP_PYTHON").expect(
        "set TIDEMARK_MCP_PYTHON to a Python with the `mcp` package for these tests; `cargo xtask ci` installs one and sets it",
    )
}

/// `tidemark args` against `store`, with `stdin` on its standard input.
fn tidemark(store: &Path, args: &[&str], stdin: &str) -> Output {
    support::tidemark(args, stdin.as_bytes(), store)
}

/// A store holding a long conversation whose first turns left the window at a compacting load.
fn long_conversation(store: &Path, conversation: &str) {
    let mut transcript = String::from(
        "{\"role\":\"user\",\"content\":\"The staging database is db-staging-7 on port 6543.\"}\n\
         {\"role\":\"assistant\",\"content\":\"Noted: db-staging-7, port 6543.\"}\n",
    );
    for turn in 0..80 {
        transcript.push_str(&format!(
            "{{\"role\":\"user\",\"content\":\"Step {turn}: run migration {turn} against the replica and report.\"}}\n\
             {{\"role\":\"assistant\",\"content\":\"Migration {turn} applied; the replica lag is {} ms.\"}}\n",
            10 + turn
        ));
    }
    let appended = tidemark(store, &["append", "--conversation", conversation, "-"], &transcript);
    assert!(appended.status.success(), "{}", String::from_utf8_lossy(&appended.stderr));
    let loaded = tidemark(store, &["load", "--conversation", conversation, "--budget", "500"], "");
    assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
}

/// Run the Python client against `tidemark mcp` and return what it saw.
fn client(store: &Path, conversation: &str, extra: &[&str]) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let output = Command::new(python())
        .arg(script)
        .args([env!("CARGO_BIN_EXE_tidemark"), store.to_str().expect("a UTF-8 path"), conversation])
        .args(extra)
        .output()
        .expect("the Python client runs");
    assert!(
        output.status.success(),
        "the client failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the client prints JSON")
}

fn answer(call: &Value) -> Value {
    assert_eq!(call["is_error"], false, "{call}");
    serde_json::from_str(call["text"].as_str().expect("text")).expect("a JSON answer")
}

#[test]
fn the_python_sdk_lists_and_calls_every_tool() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = dir.path().join("memory.db");
    long_conversation(&store, "ops/main");
    let seen = client(&store, "ops/main", &[]);

    assert_eq!(seen["server"], "tidemark");
    let tools: Vec<&str> =
        seen["tools"].as_array().expect("tools").iter().filter_map(Value::as_str).collect();
    assert_eq!(tools, ["search_history", "read_history", "remember", "forget", "search_facts", "memory"]);
    assert_eq!(seen["schemas"]["search_history"]["additionalProperties"], false);

    let calls = &seen["calls"];
    let found = answer(&calls["search_history"]);
    assert_eq!(found["passages"][0]["turn"], 0, "{found}");
    assert!(found["passages"][0]["text"].as_str().is_some_and(|text| text.contains("6543")));
    let read = answer(&calls["read_history"]);
    assert_eq!(read["turns"][1]["text"], "Noted: db-staging-7, port 6543.");
    assert_eq!(answer(&calls["search_facts_before"])["facts"].as_array().map(Vec::len), Some(0));
    let kept = answer(&calls["remember"]);
    assert_eq!(kept["stored"], true);
    assert_eq!(answer(&calls["search_facts"])["facts"][0]["id"], kept["id"]);
    assert_eq!(answer(&calls["forget"])["forgotten"], kept["id"]);
    assert_eq!(answer(&calls["search_facts_after"])["facts"].as_array().map(Vec::len), Some(0));
    assert_eq!(calls["memory_create"]["is_error"], false, "{}", calls["memory_create"]);
    assert_eq!(calls["memory_view"]["text"], "     1\tStep 1: migrate.\n");
    for (name, says) in [
        ("memory_escape", "`..`"),
        ("bad_type", "bad arguments for search_history"),
        ("bad_scope", "unknown field `conversation`"),
        ("huge", "bytes; at most"),
        ("unknown", "no memory tool named"),
    ] {
        assert_eq!(calls[name]["is_error"], true, "{name}: {}", calls[name]);
        assert!(
            calls[name]["text"].as_str().is_some_and(|text| text.contains(says)),
            "{name}: {}",
            calls[name]
        );
    }

    let resources = &seen["resources"];
    let conversation = &resources["tidemark://conversation"];
    assert_eq!(conversation["conversation"], "ops/main");
    assert!(conversation["window_starts_at_turn"].as_u64() > Some(100), "{conversation}");
    assert!(conversation["summary"].is_string());
    assert_eq!(conversation["recent_turns"].as_array().map(Vec::len), Some(20));
    assert_eq!(resources["tidemark://facts"]["facts"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_read_only_server_offers_only_the_readers_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = dir.path().join("memory.db");
    long_conversation(&store, "ops/main");
    let seen = client(&store, "ops/main", &["--read-only"]);
    let tools: Vec<&str> =
        seen["tools"].as_array().expect("tools").iter().filter_map(Value::as_str).collect();
    assert_eq!(tools, ["search_history", "read_history", "search_facts", "memory"]);
    let calls = &seen["calls"];
    assert_eq!(calls["remember"]["is_error"], true);
    assert!(calls["memory_create"]["text"].as_str().is_some_and(|text| text.contains("read-only")));
    assert!(calls["remember"]["text"].as_str().is_some_and(|text| text.contains("read-only")));
    assert_eq!(answer(&calls["search_history"])["passages"][0]["turn"], 0);
    let listed = tidemark(&store, &["facts", "list"], "");
    assert!(listed.status.success());
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("Lyon"), "a read-only server stored a fact");
}

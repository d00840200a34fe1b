//! The command on a PostgreSQL store (`--store postgres://…`): state shared across processes, facts in the same database.
//!
//! Needs `TIDEMARK_POSTGRES_URL`, which `cargo xtask ci` sets after starting a throwaway server.

use std::process::{Command, Output};

fn url() -> String {
    std::env::var("TIDEMARK_POSTGRES_URL").expect(
        "set TIDEMARK_POSTGRES_URL to a PostgreSQL database for these tests; `cargo xtask ci` starts a server and sets it",
    )
}

fn tidemark(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(args)
        .env("TIDEMARK_STORE", url())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("the binary finishes")
}

#[test]
fn processes_share_conversations_and_facts_through_postgres() {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_nanos();
    let conversation = format!("cli-pg/{}-{nanos}", std::process::id());
    let mut transcript = String::new();
    for turn in 0..40 {
        transcript.push_str(&format!(
            "{{\"role\":\"user\",\"content\":\"Step {turn}: the upstairs signal still drops after each reboot of the router.\"}}\n"
        ));
        transcript.push_str(&format!(
            "{{\"role\":\"assistant\",\"content\":\"For step {turn}, move the router a little and try channel {}.\"}}\n",
            36 + turn
        ));
    }
    let appended = tidemark(&["append", "--conversation", &conversation, "-"], &transcript);
    assert!(appended.status.success(), "{}", String::from_utf8_lossy(&appended.stderr));
    let load =
        || tidemark(&["load", "--conversation", &conversation, "--budget", "400", "--stats", "json"], "");
    let first = load();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let stats: serde_json::Value = serde_json::from_slice(&first.stderr).expect("stats");
    assert!(stats["compacted"].as_u64() > Some(0), "{stats}");
    let second = load();
    let again: serde_json::Value = serde_json::from_slice(&second.stderr).expect("stats");
    assert_eq!(again["compacted"], 0, "another process finds the compaction done");
    assert_eq!(second.stdout, first.stdout);

    let scope = format!("conversation:{conversation}");
    let added = tidemark(&["facts", "add", "Deploys happen on Tuesday mornings.", "--scope", &scope], "");
    assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
    let listed = tidemark(&["facts", "list", "--scope", &scope], "");
    assert!(String::from_utf8_lossy(&listed.stdout).contains("Tuesday mornings"));
    let cleared = tidemark(&["clear", "--conversation", &conversation], "");
    assert!(cleared.status.success());
}

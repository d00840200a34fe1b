//! `tidemark undo`, `tidemark load --as-of` and `tidemark inspect --history`: compactions taken back, prompts read as they were served.

mod support;

use std::process::Output;

use support::tidemark;

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn turn(n: usize) -> Vec<u8> {
    let user = format!("Step {n}: deploy build {} to host web-{n}.prod and report back.", 7_000 + n);
    let reply = format!("Build {} is live on web-{n}.prod; the health check passed.", 7_000 + n);
    let mut lines = serde_json::json!({"role": "user", "content": user}).to_string();
    lines.push('\n');
    lines.push_str(&serde_json::json!({"role": "assistant", "content": reply}).to_string());
    lines.push('\n');
    lines.into_bytes()
}

#[test]
fn as_of_gives_back_each_served_prompt_and_undo_takes_a_compaction_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("memory.db");
    let load = ["load", "--conversation", "ops/1", "--budget", "300"];
    let mut served = Vec::new();
    for n in 0..24 {
        ok(&tidemark(&["append", "--conversation", "ops/1", "-"], &turn(n), &store));
        served.push((2 * n + 1, ok(&tidemark(&load, b"", &store))));
    }
    for (seq, prompt) in &served {
        let seq = seq.to_string();
        let again = ok(&tidemark(&["load", "--conversation", "ops/1", "--as-of", &seq], b"", &store));
        assert_eq!(&again, prompt, "the prompt as of message {seq}");
    }

    let history = ok(&tidemark(&["inspect", "--conversation", "ops/1", "--history"], b"", &store));
    let epochs: Vec<&str> = history.lines().skip(3).collect();
    assert!(epochs.len() >= 3, "24 turns in 300 tokens compact several times: {history}");
    let last = epochs.last().expect("an epoch");
    assert!(last.ends_with("\t*"), "the newest epoch is current: {history}");
    let newest: u64 = last.split('\t').next().and_then(|g| g.parse().ok()).expect("a generation");

    let undone = tidemark(&["undo", "--conversation", "ops/1"], b"", &store);
    assert!(undone.status.success(), "{}", String::from_utf8_lossy(&undone.stderr));
    let said = String::from_utf8_lossy(&undone.stderr);
    assert!(said.contains(&format!("epoch {newest} taken back")), "{said}");
    let history = ok(&tidemark(&["inspect", "--conversation", "ops/1", "--history"], b"", &store));
    let restored = history.lines().last().expect("an epoch");
    assert!(restored.contains(&format!("restored:{}", newest - 1)) && restored.ends_with("\t*"), "{history}");
    // The restored state's summary and window, read as of now, are what the earlier load served.
    let now = ok(&tidemark(&["load", "--conversation", "ops/1", "--as-of", "47"], b"", &store));
    assert!(now.contains("web-23.prod"), "the newest turn is in the window");

    // Redo by epoch, and refusals by name that change nothing.
    ok(&tidemark(&["undo", "--conversation", "ops/1", "--to", &newest.to_string()], b"", &store));
    let unknown = tidemark(&["undo", "--conversation", "ops/1", "--to", "999"], b"", &store);
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("no epoch 999"),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );
    let fresh = tidemark(&["undo", "--conversation", "never-loaded"], b"", &store);
    assert!(
        String::from_utf8_lossy(&fresh.stderr).contains("nothing to undo"),
        "{}",
        String::from_utf8_lossy(&fresh.stderr)
    );
    let beyond = tidemark(&["load", "--conversation", "ops/1", "--as-of", "48"], b"", &store);
    assert!(
        String::from_utf8_lossy(&beyond.stderr).contains("never appended"),
        "{}",
        String::from_utf8_lossy(&beyond.stderr)
    );
    let both = tidemark(&["load", "--conversation", "ops/1", "--as-of", "3", "--facts"], b"", &store);
    assert!(!both.status.success(), "--as-of serves no facts and says so");
}

#[test]
fn a_fork_branches_a_conversation_and_each_side_goes_on_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("memory.db");
    for n in 0..12 {
        ok(&tidemark(&["append", "--conversation", "main", "-"], &turn(n), &store));
        ok(&tidemark(&["load", "--conversation", "main", "--budget", "300"], b"", &store));
    }
    let as_of = ok(&tidemark(&["load", "--conversation", "main", "--as-of", "15"], b"", &store));
    ok(&tidemark(&["fork", "--conversation", "main", "--at", "16", "--into", "branch"], b"", &store));
    // The branch serves what the main conversation served at its point, and then its own turns.
    assert_eq!(ok(&tidemark(&["load", "--conversation", "branch", "--as-of", "15"], b"", &store)), as_of);
    ok(&tidemark(&["append", "--conversation", "branch", "-"], &turn(99), &store));
    let branch = ok(&tidemark(&["load", "--conversation", "branch", "--budget", "300"], b"", &store));
    assert!(branch.contains("web-99.prod") && !branch.contains("web-11.prod"), "{branch}");
    let main = ok(&tidemark(&["load", "--conversation", "main", "--budget", "300"], b"", &store));
    assert!(main.contains("web-11.prod") && !main.contains("web-99.prod"), "{main}");
    ok(&tidemark(&["clear", "--conversation", "branch"], b"", &store));
    assert_eq!(ok(&tidemark(&["load", "--conversation", "main", "--budget", "300"], b"", &store)), main);
    // A fork into a conversation that exists is refused by name.
    let exists = tidemark(&["fork", "--conversation", "main", "--into", "main"], b"", &store);
    assert!(
        String::from_utf8_lossy(&exists.stderr).contains("already exists"),
        "{}",
        String::from_utf8_lossy(&exists.stderr)
    );
}

#[test]
fn facts_list_shows_superseded_values_and_the_facts_of_a_past_moment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("memory.db");
    let say = |text: &str| {
        let mut line = serde_json::json!({"role": "user", "content": text}).to_string();
        line.push('\n');
        line.push_str(&serde_json::json!({"role": "assistant", "content": "Noted."}).to_string());
        line.push('\n');
        ok(&tidemark(&["append", "--conversation", "ops/1", "-"], line.as_bytes(), &store));
        ok(&tidemark(&["load", "--conversation", "ops/1", "--budget", "400", "--facts"], b"", &store));
    };
    say("Our billing Postgres listens on port 5433.");
    for n in 0..12 {
        say(&format!("Step {n}: rerun the nightly job on host web-{n}.prod and tell me when it is done."));
    }
    say("Change of plan: our billing Postgres listens on port 6432 instead.");
    for n in 12..24 {
        say(&format!("Step {n}: rerun the nightly job on host web-{n}.prod and tell me when it is done."));
    }
    let active = ok(&tidemark(&["facts", "list"], b"", &store));
    // The ports are matched with their word: a listing's timestamps may hold the same digits.
    assert!(active.contains("port 6432") && !active.contains("port 5433"), "{active}");
    let history = ok(&tidemark(&["facts", "list", "--superseded", "--json"], b"", &store));
    let old: serde_json::Value = history
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|fact| fact["text"].as_str().is_some_and(|text| text.contains("port 5433")))
        .unwrap_or_else(|| panic!("the old port is history: {history}"));
    let until = old["updated_ms"].as_u64().expect("a time");
    let then = ok(&tidemark(&["facts", "list", "--as-of", &(until - 1).to_string()], b"", &store));
    assert!(then.contains("port 5433") && !then.contains("port 6432"), "before the correction: {then}");
    let later =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("a clock").as_millis() + 1;
    let now = ok(&tidemark(&["facts", "list", "--as-of", &later.to_string()], b"", &store));
    assert!(now.contains("port 6432") && !now.contains("port 5433"), "after it: {now}");
    let table = ok(&tidemark(&["facts", "list", "--superseded"], b"", &store));
    assert!(table.contains(&format!("superseded at {until}")), "{table}");
}

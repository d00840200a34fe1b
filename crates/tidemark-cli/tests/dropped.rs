//! `tidemark inspect --dropped`: the identifiers of compacted messages that nothing in view still holds.

mod support;

use support::tidemark;

#[test]
fn inspect_dropped_names_what_the_prompt_no_longer_holds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("memory.db");
    let mut lines = String::new();
    for turn in 0..60 {
        let user = format!("Ticket INC-{} is about host web-{turn}.prod, owner Priya{turn}?", 20_000 + turn);
        let reply = format!("Noted: INC-{} on web-{turn}.prod, build {}.", 20_000 + turn, 7_000 + turn);
        lines.push_str(&serde_json::json!({"role": "user", "content": user}).to_string());
        lines.push('\n');
        lines.push_str(&serde_json::json!({"role": "assistant", "content": reply}).to_string());
        lines.push('\n');
    }
    let appended = tidemark(&["append", "--conversation", "ops/1", "-"], lines.as_bytes(), &store);
    assert!(appended.status.success(), "{}", String::from_utf8_lossy(&appended.stderr));
    let loaded = tidemark(&["load", "--conversation", "ops/1", "--budget", "600"], b"", &store);
    assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
    let prompt = String::from_utf8_lossy(&loaded.stdout).to_lowercase();

    let inspected = tidemark(&["inspect", "--conversation", "ops/1", "--dropped"], b"", &store);
    assert!(inspected.status.success(), "{}", String::from_utf8_lossy(&inspected.stderr));
    let report = String::from_utf8_lossy(&inspected.stdout);
    let lost: Vec<&str> = report.lines().filter_map(|line| line.split('\t').nth(2)).collect();
    assert!(lost.len() > 10, "a 600-token prompt cannot hold 60 turns of ids: {report}");
    for identifier in &lost {
        assert!(lines.contains(identifier), "{identifier} was in the conversation");
        assert!(!prompt.contains(&identifier.to_lowercase()), "{identifier} is still in the prompt");
    }
    assert!(report.contains(&format!("{} held by nothing that remains", lost.len())), "{report}");

    let refused = tidemark(&["inspect", "--dropped"], b"", &store);
    assert!(!refused.status.success(), "--dropped needs a conversation");

    // Per epoch: each compaction's report names only what that compaction evicted.
    for turn in 60..120 {
        let user = format!("Ticket INC-{} is about host web-{turn}.prod, owner Priya{turn}?", 20_000 + turn);
        let line = serde_json::json!({"role": "user", "content": user}).to_string();
        tidemark(&["append", "--conversation", "ops/1", "-"], line.as_bytes(), &store);
        if turn % 10 == 9 {
            let loaded = tidemark(&["load", "--conversation", "ops/1", "--budget", "600"], b"", &store);
            assert!(loaded.status.success(), "{}", String::from_utf8_lossy(&loaded.stderr));
        }
    }
    let history = tidemark(&["inspect", "--conversation", "ops/1", "--history"], b"", &store);
    let history = String::from_utf8_lossy(&history.stdout).into_owned();
    let epochs: Vec<(String, u64)> = history
        .lines()
        .skip(3)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Some((fields.first()?.to_string(), fields.get(4)?.parse().ok()?))
        })
        .collect();
    assert!(epochs.len() >= 3, "{history}");
    let mut floor = 0;
    for (epoch, watermark) in &epochs {
        let report =
            tidemark(&["inspect", "--conversation", "ops/1", "--dropped", "--epoch", epoch], b"", &store);
        assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
        let report = String::from_utf8_lossy(&report.stdout).into_owned();
        assert!(report.contains(&format!("epoch {epoch} evicted")), "{report}");
        let seqs: Vec<u64> =
            report.lines().filter_map(|line| line.split('\t').next()?.parse().ok()).collect();
        assert!(!seqs.is_empty(), "each compaction of 600 tokens drops ids: {report}");
        assert!(
            seqs.iter().all(|seq| (floor..*watermark).contains(seq)),
            "epoch {epoch}: {seqs:?} outside {floor}..{watermark}"
        );
        floor = *watermark;
    }
    let unknown =
        tidemark(&["inspect", "--conversation", "ops/1", "--dropped", "--epoch", "999"], b"", &store);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no epoch 999"));
}

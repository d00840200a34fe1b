//! The recall checks of the store suite: what [`ConversationStore::search_passages`] must find, and what it must not.

use tidemark_core::recall::{MAX_PASSAGE_BYTES, RecallQuery};
use tidemark_core::{CompactionState, ConversationId, ConversationStore, Message, NewMessage, Passage, Seq};

use super::super::{Failure, Ids, ensure, fail_on};

/// The words the lock-step operations search for: the ones [`arb_text`](crate::strategies::arb_text) writes.
pub(super) const VOCABULARY: &[&str] = &[
    "file", "cargo", "build", "error", "ok", "rust", "agent", "memory", "token", "hello", "42", "fn", "main",
    "todo", "x", "please", "read", "summary", "done",
];

/// Append `messages` to `id`, each counted as 5 tokens.
pub(super) async fn append<S: ConversationStore>(
    check: &'static str,
    store: &S,
    id: &ConversationId,
    messages: Vec<Message>,
) -> Result<(), Failure> {
    let batch = messages.into_iter().map(|message| NewMessage::new(message, 5)).collect();
    fail_on(check, store.append(id, batch).await).map(drop)
}

/// The passages `store` finds for `text` below `below`, at most `limit`.
pub(super) async fn search<S: ConversationStore>(
    check: &'static str,
    store: &S,
    id: &ConversationId,
    text: &str,
    below: u64,
    limit: usize,
) -> Result<Vec<Passage>, Failure> {
    fail_on(check, store.search_passages(id, &RecallQuery::new(text, Seq(below), limit)).await)
}

fn found(passages: &[Passage]) -> Vec<u64> {
    passages.iter().map(|passage| passage.seq.0).collect()
}

/// Identifiers are found as typed and by each of their parts, in any case.
pub(super) async fn recall_finds_identifiers<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_finds_identifiers";
    let id = ids.fresh("recall-ids");
    append(
        CHECK,
        store,
        &id,
        vec![
            Message::user("Please ship fix/retry-backoff-7781 to europe-west4 tonight."),
            Message::assistant("Opened INC-20931 for the outage."),
            Message::tool_result("call_1", "order 99-1842-X shipped\nstatus: delivered"),
            Message::user("Rename snake_case_name to cfg.net.proxy please."),
            Message::assistant("Nothing else to report."),
        ],
    )
    .await?;
    let cases: &[(&str, u64)] = &[
        ("fix/retry-backoff-7781", 0),
        ("retry-backoff", 0),
        ("7781", 0),
        ("EUROPE-WEST4", 0),
        ("west4", 0),
        ("inc-20931", 1),
        ("INC", 1),
        ("20931", 1),
        ("99-1842-X", 2),
        ("1842", 2),
        ("snake_case_name", 3),
        ("snake", 3),
        ("cfg.net.proxy", 3),
        ("proxy", 3),
    ];
    for &(query, expected) in cases {
        let hits = search(CHECK, store, &id, query, 5, 3).await?;
        ensure!(
            hits.first().map(|hit| hit.seq.0) == Some(expected),
            CHECK,
            "searching {query:?} found messages {:?}, expected {expected} first",
            found(&hits)
        );
    }
    Ok(())
}

/// Nothing at or above the mark is found, and never more than the limit.
pub(super) async fn recall_stays_below_the_mark<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_stays_below_the_mark";
    let id = ids.fresh("recall-below");
    let messages = (0..6).map(|i| Message::user(format!("zebra crossing number {i}"))).collect();
    append(CHECK, store, &id, messages).await?;
    for (below, limit, expected) in [
        (3, 10, vec![2, 1, 0]),
        (6, 2, vec![5, 4]),
        (0, 10, vec![]),
        (99, 10, vec![5, 4, 3, 2, 1, 0]),
        (6, 0, vec![]),
    ] {
        let hits = found(&search(CHECK, store, &id, "zebra", below, limit).await?);
        ensure!(
            hits == expected,
            CHECK,
            "searching below {below} with limit {limit} found {hits:?}, expected {expected:?} (equal scores, newest first)"
        );
    }
    let other = ids.fresh("recall-other");
    let hits = search(CHECK, store, &other, "zebra", 99, 10).await?;
    ensure!(hits.is_empty(), CHECK, "another conversation's passages were found: {hits:?}");
    Ok(())
}

/// The passage with the rare term ranks first, and a long result is quoted by the few lines that hold the hit.
pub(super) async fn recall_returns_short_passages_best_first<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_returns_short_passages_best_first";
    let id = ids.fresh("recall-rank");
    let mut log: String = (0..40).map(|i| format!("line {i}: retry backoff ok\n")).collect();
    log.push_str("line 40: quokka sighted near the retry loop\n");
    log.extend((41..80).map(|i| format!("line {i}: retry backoff ok\n")));
    ensure!(log.len() > 2000, CHECK, "the test log is too short");
    let mut messages: Vec<Message> =
        (0..4).map(|i| Message::user(format!("retry backoff tuning {i}"))).collect();
    messages.push(Message::tool_result("call_1", log));
    append(CHECK, store, &id, messages).await?;
    let hits = search(CHECK, store, &id, "retry quokka", 5, 3).await?;
    let Some(best) = hits.first() else {
        return Err(Failure::new(CHECK, "searching \"retry quokka\" found nothing"));
    };
    ensure!(
        best.seq == Seq(4) && best.text.contains("quokka") && best.text.len() <= MAX_PASSAGE_BYTES,
        CHECK,
        "the best passage is {best:?}; expected the few lines of message 4 that hold \"quokka\""
    );
    ensure!(
        hits.windows(2).all(|pair| pair[0].score >= pair[1].score),
        CHECK,
        "passages are not best first: {hits:?}"
    );
    Ok(())
}

/// `clear` and `prune` take the passages of the messages they delete out of the index.
pub(super) async fn recall_forgets_deleted_messages<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_forgets_deleted_messages";
    let id = ids.fresh("recall-clear");
    append(CHECK, store, &id, vec![Message::user("walrus one"), Message::user("walrus two")]).await?;
    fail_on(CHECK, store.clear(&id).await)?;
    let hits = found(&search(CHECK, store, &id, "walrus", 99, 10).await?);
    ensure!(hits.is_empty(), CHECK, "cleared messages were still found: {hits:?}");
    append(CHECK, store, &id, (0..4).map(|i| Message::user(format!("walrus {i}"))).collect()).await?;
    fail_on(CHECK, store.save_state(&id, 1, CompactionState::new(Seq(5), vec![Seq(3)], None)).await)?;
    fail_on(CHECK, store.prune(&id).await)?;
    let hits = found(&search(CHECK, store, &id, "walrus", 99, 10).await?);
    ensure!(hits == [5, 3], CHECK, "after a prune keeping 3 and 5, the search found {hits:?}");
    Ok(())
}

/// A search is bounded by the query's rare terms: what a rare term points at wins, and a query of common words finds their newest use.
pub(super) async fn recall_is_led_by_rare_terms<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_is_led_by_rare_terms";
    let id = ids.fresh("recall-rare");
    let mut history: Vec<Message> =
        (0..80).map(|i| Message::user(format!("ticket update {i}: the ticket queue moved"))).collect();
    history.insert(10, Message::assistant("Opened ticket WAL-4471 for the walrus outage."));
    append(CHECK, store, &id, history).await?;
    let hits = search(CHECK, store, &id, "which ticket was the walrus outage?", 81, 3).await?;
    ensure!(
        hits.first().is_some_and(|hit| hit.seq == Seq(10)),
        CHECK,
        "the rare term's message did not come first: {hits:?}"
    );
    // "ticket" is in every message: only the newest holders are ranked.
    let hits = found(&search(CHECK, store, &id, "ticket queue", 81, 5).await?);
    ensure!(
        hits.len() == 5
            && hits.iter().all(|seq| *seq >= 81 - tidemark_core::recall::CANDIDATE_MESSAGES as u64),
        CHECK,
        "a query of common words found {hits:?}, not the newest holders"
    );
    Ok(())
}

/// No query text is an error: syntax of search engines, control characters and a megabyte all answer cleanly.
pub(super) async fn recall_survives_bad_queries<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "recall_survives_bad_queries";
    let id = ids.fresh("recall-bad");
    append(
        CHECK,
        store,
        &id,
        vec![Message::user("near the quoted \"star\" AND other words"), Message::user("x")],
    )
    .await?;
    let huge = "quoted \"*\" ".repeat(100_000);
    let queries = [
        "",
        "   ",
        "\"",
        "\"\"",
        "*",
        "**",
        "NEAR(",
        "NEAR(a b, 2)",
        "AND",
        "OR NOT",
        "-",
        "-quoted",
        "star*",
        "col:star",
        "^star",
        "{star}",
        "'",
        "\\",
        "\u{0}",
        "\u{1b}[31mred\u{1b}[0m",
        "the of and",
        "\u{fffd}",
        "🦀",
        "a\"b",
        &huge,
    ];
    for query in queries {
        let hits = store.search_passages(&id, &RecallQuery::new(query, Seq(2), 3)).await;
        let shown: String = query.chars().take(40).collect();
        let Ok(hits) = hits else {
            return Err(Failure::new(CHECK, format!("searching {shown:?} failed: {hits:?}")));
        };
        ensure!(
            hits.len() <= 3 && hits.iter().all(|hit| hit.seq < Seq(2)),
            CHECK,
            "searching {shown:?} answered {hits:?}"
        );
    }
    Ok(())
}

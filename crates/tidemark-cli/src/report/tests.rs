//! Tests of the replay report: how a prompt is sorted into parts, the round ticks, the sampling of long replays, and the page's parts.

use std::time::Duration;

use tidemark_core::cache::{CacheLedger, CachePrices};
use tidemark_core::{CompactionEvent, ConversationId, HeuristicCounter, Outcome};

use super::html::{sample, ticks};
use super::*;

fn point(turn: usize, prompt: u64) -> Point {
    Point {
        turn,
        raw: prompt,
        prompt,
        compacted: false,
        parts: Parts { window: prompt, ..Parts::default() },
        cache: TurnCache::default(),
    }
}

#[test]
fn every_message_of_the_prompt_lands_in_one_part() {
    let counter = HeuristicCounter::default();
    let summary = Message::system("Summary of earlier conversation:\n- user: hello");
    let prompt = [
        summary.clone(),
        Message::system("You are terse."),
        Message::system(format!(
            "{}\n- (user_profile) likes tea\n</long-term-memory>",
            tidemark_facts::coordinator::OPEN
        )),
        Message::system(format!("{}\nturn 3: hello\n</recalled-turns>", tidemark_facts::recall::OPEN)),
        Message::user("Remember the tea.").pinned(),
        Message::user("What now?"),
        Message::assistant("Tea."),
    ];
    let count = |index: usize| u64::from(counter.count(&prompt[index]));
    let parts = compose(&prompt, Some(&ContentHash::of(&summary)), &counter);
    let expected = Parts {
        fixed: u64::from(counter.prompt_overhead()) + count(1) + count(4),
        summary: count(0),
        facts: count(2),
        recall: count(3),
        window: count(5) + count(6),
    };
    assert_eq!(parts, expected);
    assert_eq!(parts.total(), u64::from(counter.count_prompt(&prompt)));
    // Without a stored summary, the summary's system message is a system message like any other.
    assert_eq!(compose(&prompt, None, &counter).summary, 0);
}

#[test]
fn ticks_are_round_and_reach_the_largest_value() {
    for (max, count, expected) in [
        (8_400.0, 5, (2_000.0, 10_000.0)),
        (220.0, 10, (50.0, 250.0)),
        (188_000.0, 4, (50_000.0, 200_000.0)),
        (3.0, 10, (1.0, 3.0)),
        (0.0, 4, (1.0, 1.0)),
        (1_000.0, 10, (100.0, 1_000.0)),
    ] {
        assert_eq!(ticks(max, count), expected, "{max} in {count} ticks");
    }
}

#[test]
fn a_long_replay_is_sampled_keeping_each_runs_lowest_and_highest_prompt() {
    let points: Vec<Point> = (1..=1_000).map(|turn| point(turn, (turn % 10) as u64 * 100)).collect();
    let shown = sample(&points, 100);
    assert_eq!(shown.len(), 200);
    assert!(shown.windows(2).all(|pair| pair[0].turn < pair[1].turn));
    assert_eq!(shown.iter().map(|p| p.prompt).min(), Some(0));
    assert_eq!(shown.iter().map(|p| p.prompt).max(), Some(900));
    let short: Vec<Point> = (1..=150).map(|turn| point(turn, 1)).collect();
    assert_eq!(sample(&short, 100).len(), 150);
}

#[test]
fn thousands_are_grouped() {
    for (n, text) in
        [(0, "0"), (999, "999"), (1_000, "1,000"), (188_000, "188,000"), (1_234_567, "1,234,567")]
    {
        assert_eq!(thousands(n), text);
    }
}

fn summary(points: &[Point]) -> Summary {
    let mut ledger = CacheLedger::new(CachePrices::default());
    for point in points {
        ledger.record([(point.turn, point.prompt)], 0);
    }
    Summary {
        turns: points.len(),
        raw_tokens: 10_000,
        largest_prompt: 6_000,
        mean_prompt: 4_400.0,
        budget: 8_000,
        compactions: 1,
        summarizer_calls: 1,
        deferred: 0,
        p50: Duration::from_micros(20),
        p99: Duration::from_micros(90),
        total: Duration::from_millis(3),
        file: "a <sample>.jsonl".to_owned(),
        cache: ledger.totals(),
        recall: None,
        dropped: tidemark_core::dropped::Dropped::default(),
    }
}

#[test]
fn the_figures_name_the_cost_and_the_mean_prompt() {
    let points: Vec<Point> = (1..=4).map(|turn| point(turn, 100 * turn as u64)).collect();
    let summary = summary(&points);
    let table = summary.table();
    assert!(table.contains("mean prompt          4400 (55.0% of the budget)"), "{table}");
    assert!(table.contains("extends previous     0.0% of turns after the first"), "{table}");
    assert!(table.contains("cost vs no cache     1.25× (reads at 0.1×, writes at 1.25×)"), "{table}");
    let json = summary.json();
    assert_eq!(json["mean_prompt_share"], 0.55);
    assert_eq!(json["cache"]["cost_ratio"], 1.25);
    assert_eq!(json["cache"]["extension_share"], 0.0);
    assert!(json.get("recall").is_none());
}

#[test]
fn the_page_holds_every_part_and_escapes_the_file_name() {
    let mut points: Vec<Point> = (1..=30).map(|turn| point(turn, 50 * turn as u64)).collect();
    points[9].compacted = true;
    points[9].parts = Parts { fixed: 40, summary: 60, window: 400, ..Parts::default() };
    let mut event =
        CompactionEvent::new(ConversationId::new("replay").expect("valid id"), "template", Outcome::Applied);
    event = event.with_messages(20, 6).with_tokens(1_500, 500, 60);
    let page = html(&summary(&points), &points, &[Compaction { turn: 10, event }]);
    assert!(page.contains("a &lt;sample&gt;.jsonl") && !page.contains("<sample>"));
    // The window everywhere, and the fixed part and the summary where turn 10 has them.
    assert_eq!(page.matches("<polygon").count(), 3, "{page}");
    assert!(page.contains("turn 10: compaction"));
    // Every turn after the first breaks the cache in this made-up run.
    assert_eq!(page.matches(": cache break</title>").count(), 29);
    assert!(page.contains("<td>10</td><td>applied</td><td>20 → 6</td><td>1,000</td>"), "{page}");
    assert!(page.contains("budget 8,000") && page.contains("1.25×"));
    // Self-contained: no script, and no address but the SVG namespace.
    assert!(!page.contains("<script"));
    assert_eq!(page.matches("http").count(), page.matches("http://www.w3.org/2000/svg").count());
}

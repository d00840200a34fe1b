//! Unit tests of [`Segmented`]: segments stay byte-stable, merges keep what they fold, the artifact round-trips.

use std::sync::Arc;

use proptest::prelude::*;
use std::sync::Mutex;

use tidemark_core::{CompactionError, Compactor, ConversationId, Message, TokenCounter, ToolCall, validate};

use super::{SegmentBudget, SegmentLimits, Segmented, Segments};
use crate::{LlmSummary, TemplateCompactor, TemplateSummary};

fn id() -> ConversationId {
    ConversationId::new("segments").unwrap_or_else(|_| unreachable!("a valid id"))
}

fn roll<C>(compactor: &C, batches: &[Vec<Message>]) -> Result<Vec<C::Artifact>, CompactionError>
where
    C: Compactor,
{
    let mut rolled: Vec<C::Artifact> = Vec::new();
    for batch in batches {
        let next = futures::executor::block_on(compactor.compact(&id(), batch, rolled.last(), None))?;
        rolled.push(next);
    }
    Ok(rolled)
}

#[test]
fn a_new_segment_never_touches_the_ones_before_it() -> Result<(), CompactionError> {
    let compactor = Segmented::new(TemplateCompactor::new()).with_limits(SegmentLimits::new(8, 1 << 20));
    let batches: Vec<Vec<Message>> = (0..5)
        .map(|i| vec![Message::user(format!("step {i}: build the crate")), Message::assistant("done")])
        .collect();
    let rolled = roll(&compactor, &batches)?;
    for pair in rolled.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        assert_eq!(after.segments.len(), before.segments.len() + 1);
        assert_eq!(after.segments[..before.segments.len()], before.segments[..]);
        let (old, new) = (compactor.render(before), compactor.render(after));
        assert_eq!(new.parts[..old.parts.len()], old.parts[..], "the rendered prefix is byte-stable");
    }
    // Each segment holds its own batch only: no carry-over was folded in.
    assert!(rolled[4].segments[4].text.contains("step 4") && !rolled[4].segments[4].text.contains("step 3"));
    Ok(())
}

#[test]
fn a_merge_keeps_the_oldest_segments_and_folds_the_rest_with_the_evicted_messages()
-> Result<(), CompactionError> {
    let compactor = Segmented::new(TemplateCompactor::new().with_max_bytes(None))
        .with_limits(SegmentLimits::new(3, 1 << 20));
    let batches: Vec<Vec<Message>> =
        (0..4).map(|i| vec![Message::user(format!("fact number {i}"))]).collect();
    let rolled = roll(&compactor, &batches)?;
    let merged = &rolled[3];
    // Three segments were full: the oldest stays as it was, the other two and the new batch become one.
    assert_eq!((merged.segments.len(), merged.merges), (2, 1));
    assert_eq!(merged.segments[0], rolled[2].segments[0]);
    let text = &merged.segments[1].text;
    for i in 1..4 {
        assert!(text.contains(&format!("fact number {i}")), "{text}");
    }
    assert!(!text.contains("fact number 0"), "the kept segment is not repeated: {text}");
    Ok(())
}

#[test]
fn a_merge_with_no_room_for_a_kept_segment_folds_them_all() -> Result<(), CompactionError> {
    let compactor = Segmented::new(TemplateCompactor::new().with_max_bytes(None))
        .with_limits(SegmentLimits::new(2, 1 << 20));
    let batches: Vec<Vec<Message>> =
        (0..3).map(|i| vec![Message::user(format!("fact number {i}"))]).collect();
    let rolled = roll(&compactor, &batches)?;
    let merged = &rolled[2];
    assert_eq!((merged.segments.len(), merged.merges), (1, 1));
    for i in 0..3 {
        assert!(merged.segments[0].text.contains(&format!("fact number {i}")));
    }
    Ok(())
}

#[test]
fn the_byte_limit_merges_before_the_text_would_pass_it() -> Result<(), CompactionError> {
    let compactor = Segmented::new(TemplateCompactor::new()).with_limits(SegmentLimits::new(100, 400));
    let batches: Vec<Vec<Message>> =
        (0..30).map(|i| vec![Message::user(format!("turn {i}: {}", "word ".repeat(12)))]).collect();
    let rolled = roll(&compactor, &batches)?;
    let largest = rolled.iter().flat_map(|r| r.segments.iter().map(|s| s.text.len())).max().unwrap_or(0);
    for artifact in &rolled {
        assert!(artifact.bytes() <= 400 + largest, "{} bytes", artifact.bytes());
    }
    assert!(rolled.last().is_some_and(|last| last.merges > 0));
    Ok(())
}

#[test]
fn join_keeps_every_part_in_order() {
    let a = TemplateSummary::new(vec!["a".into()], 1);
    let b = TemplateSummary::new(vec!["b".into(), "c".into()], 2);
    assert_eq!(
        super::Join::join(&[&a, &b]),
        TemplateSummary::new(vec!["a".into(), "b".into(), "c".into()], 3)
    );
    let x = LlmSummary::new("First.", 2);
    let y = LlmSummary::new("  Second. ", 5);
    assert_eq!(super::Join::join(&[&x, &y]), LlmSummary::new("First.\n\nSecond.", 5));
    let lines: Vec<String> = super::Join::join(&[&vec!["x".to_owned()], &vec!["y".to_owned()]]);
    assert_eq!(lines, ["x", "y"]);
}

#[test]
fn an_error_of_the_wrapped_compactor_is_returned_unchanged() {
    struct Failing;
    impl Compactor for Failing {
        type Artifact = Vec<String>;
        fn name(&self) -> &str {
            "failing"
        }
        async fn compact(
            &self,
            _: &ConversationId,
            _: &[Message],
            _: Option<&Vec<String>>,
            _: Option<&str>,
        ) -> Result<Vec<String>, CompactionError> {
            Err(CompactionError::EmptySummary)
        }
        fn render(&self, artifact: &Vec<String>) -> Message {
            Message::system(artifact.join("\n"))
        }
    }
    let result = futures::executor::block_on(Segmented::new(Failing).compact(
        &id(),
        &[Message::user("x")],
        None,
        None,
    ));
    assert!(matches!(result, Err(CompactionError::EmptySummary)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any sequence of rolls keeps the segment count within its limit, keeps a segment unchanged until a merge, and round-trips through JSON.
    #[test]
    fn segments_stay_within_limits_and_round_trip(
        batches in proptest::collection::vec(proptest::collection::vec("[a-z ]{0,40}", 1..4), 1..12),
        max_segments in 1usize..5,
        max_bytes in 0usize..600,
    ) {
        let compactor = Segmented::new(TemplateCompactor::new()).with_limits(SegmentLimits::new(max_segments, max_bytes));
        let batches: Vec<Vec<Message>> = batches.iter().map(|texts| texts.iter().map(Message::user).collect()).collect();
        let rolled = roll(&compactor, &batches).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut previous: Option<&Segments<TemplateSummary>> = None;
        for artifact in &rolled {
            prop_assert!(!artifact.segments.is_empty());
            prop_assert!(artifact.segments.len() <= max_segments);
            if let Some(before) = previous {
                let old = before.segments.len();
                if artifact.merges == before.merges {
                    // A new segment behind the others, which are unchanged.
                    prop_assert_eq!(artifact.segments.len(), old + 1);
                    prop_assert_eq!(&artifact.segments[..old], &before.segments[..]);
                } else {
                    // A merge keeps some of the oldest segments unchanged and folds at least one of the others.
                    let kept = artifact.segments.len() - 1;
                    prop_assert!(kept < old);
                    prop_assert_eq!(&artifact.segments[..kept], &before.segments[..kept]);
                }
            }
            let json = serde_json::to_string(artifact).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let back: Segments<TemplateSummary> = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back, artifact);
            previous = Some(artifact);
        }
    }
}

/// A counter of one token per character: CJK text holds three times as many tokens per byte as ASCII, so a byte limit alone would let it through.
struct PerChar;

impl TokenCounter for PerChar {
    fn name(&self) -> &str {
        "per-char"
    }

    fn count_text(&self, text: &str) -> u32 {
        u32::try_from(text.chars().count()).unwrap_or(u32::MAX)
    }

    fn count(&self, message: &Message) -> u32 {
        self.count_text(&message.text())
    }
}

#[test]
fn a_token_limit_merges_text_that_a_byte_limit_lets_through() -> Result<(), CompactionError> {
    let counter: Arc<dyn TokenCounter> = Arc::new(PerChar);
    let template = TemplateCompactor::new().with_max_bytes(Some(240));
    let bytes_only = Segmented::new(template).with_limits(SegmentLimits::new(16, 4096));
    let both = bytes_only.clone().with_token_limit(Arc::clone(&counter), 300);
    assert_eq!((bytes_only.max_tokens(), both.max_tokens()), (None, Some(300)));
    // Chinese text: 3 bytes a character, so 4 KiB of it is over 1,300 tokens of this counter.
    let batches: Vec<Vec<Message>> = (0..12)
        .map(|i| vec![Message::user(format!("第{i}步：构建已经通过，测试全部绿色，明天部署。"))])
        .collect();
    let tokens = |compactor: &Segmented<TemplateCompactor>| -> Result<u32, CompactionError> {
        let rolled = roll(compactor, &batches)?;
        let last = rolled.last().ok_or(CompactionError::EmptySummary)?;
        Ok(last.segments.iter().map(|segment| counter.count_text(&segment.text)).sum())
    };
    let (loose, tight) = (tokens(&bytes_only)?, tokens(&both)?);
    assert!(loose > 300, "the byte limit alone lets {loose} tokens through");
    assert!(tight <= 300, "{tight} tokens over the limit of 300");
    Ok(())
}

proptest! {
    /// The token limit holds up to what the estimate of the next segment missed: a segment larger than every earlier one can pass it by the difference, once.
    #[test]
    fn a_token_limit_holds_but_for_a_segment_larger_than_estimated(
        batches in proptest::collection::vec(proptest::collection::vec("[a-z 构建测试部署]{0,60}", 1..4), 1..16),
        max_tokens in 40u32..400,
        inner_bytes in 40usize..400,
    ) {
        let counter: Arc<dyn TokenCounter> = Arc::new(PerChar);
        let compactor = Segmented::new(TemplateCompactor::new().with_max_bytes(Some(inner_bytes)))
            .with_limits(SegmentLimits::new(64, 1 << 20))
            .with_token_limit(Arc::clone(&counter), max_tokens);
        let batches: Vec<Vec<Message>> = batches.iter().map(|texts| texts.iter().map(Message::user).collect()).collect();
        let rolled = roll(&compactor, &batches).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let sizes = |artifact: &Segments<TemplateSummary>| -> Vec<u32> {
            artifact.segments.iter().map(|segment| counter.count_text(&segment.text)).collect()
        };
        let limit = max_tokens;
        for pair in rolled.windows(2) {
            let (before, after) = (sizes(&pair[0]), sizes(&pair[1]));
            let estimate = before.iter().copied().max().unwrap_or(0);
            let newest = after.last().copied().unwrap_or(0);
            let total: u32 = after.iter().sum();
            if pair[1].merges == pair[0].merges {
                // No merge: the earlier segments and one of the estimated size fitted.
                prop_assert!(total <= limit + newest.saturating_sub(estimate), "{total} tokens, limit {limit}: {after:?}");
            } else {
                // A merge keeps the oldest segments that leave room for two of the estimated size.
                prop_assert!(
                    total <= (limit + newest.saturating_sub(2 * estimate)).max(newest),
                    "{total} tokens after a merge, limit {limit}: {after:?}"
                );
            }
        }
    }
}

#[test]
fn budget_sizes_scale_with_the_budget_and_never_reach_zero() {
    let at = |budget| {
        let sizes = SegmentBudget::for_budget(budget);
        (sizes.segment_tokens, sizes.summary_tokens, sizes.max_segments, sizes.chunk_tokens)
    };
    assert_eq!(at(8_000), (400, 6_400, 16, 3_200));
    assert_eq!(at(128_000), (6_400, 102_400, 16, 51_200));
    assert_eq!(at(10), (1, 8, 16, 8));
    assert_eq!(at(0), (1, 1, 16, 8));
    assert_eq!(at(u32::MAX).1, 3_435_973_836);
    assert_eq!(at(u32::MAX).3, 214_748_364 * 8);
}

#[test]
fn budget_sizes_keep_all_but_the_newest_segments_through_every_merge() -> Result<(), CompactionError> {
    let counter: Arc<dyn TokenCounter> = Arc::new(PerChar);
    let sizes = SegmentBudget::for_budget(2_000);
    // One token per character: a template of `segment_tokens` bytes writes segments of at most that many tokens.
    let template = TemplateCompactor::new().with_max_bytes(Some(sizes.segment_tokens as usize));
    let compactor = Segmented::new(template).within(Arc::clone(&counter), sizes);
    assert_eq!(compactor.limits().max_segments, 16);
    let batches: Vec<Vec<Message>> = (0..80)
        .map(|i| {
            vec![Message::user(format!(
                "step {i}: the build of module {i} is green; the next one is {}",
                i + 1
            ))]
        })
        .collect();
    let rolled = roll(&compactor, &batches)?;
    let tokens = |artifact: &Segments<TemplateSummary>| -> u32 {
        artifact.segments.iter().map(|s| counter.count_text(&s.text)).sum()
    };
    let merges = rolled.last().map_or(0, |last| last.merges);
    assert!(merges >= 3, "80 compactions into 16 segments merged only {merges} times");
    for pair in rolled.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        assert!(
            tokens(after) <= sizes.summary_tokens,
            "{} tokens over {}",
            tokens(after),
            sizes.summary_tokens
        );
        assert!(after.segments.len() <= sizes.max_segments);
        // A merge folds only the newest segments: the cached prefix keeps all but the last two.
        let same = before.segments.iter().zip(&after.segments).take_while(|(a, b)| a == b).count();
        assert!(same + 2 >= before.segments.len(), "{same} of {} segments kept", before.segments.len());
    }
    Ok(())
}

#[test]
fn a_rolling_summary_stored_before_becomes_the_first_segment() -> Result<(), Box<dyn std::error::Error>> {
    let template = TemplateCompactor::new();
    let rolling = futures::executor::block_on(template.compact(
        &id(),
        &[Message::user("deploy on Friday")],
        None,
        None,
    ))?;
    // A conversation summarized before segments were turned on holds the plain artifact.
    let stored = serde_json::to_value(&rolling)?;
    let adopted: Segments<TemplateSummary> = serde_json::from_value(stored)?;
    let compactor = Segmented::new(template);
    let before = compactor.render(&adopted);
    assert_eq!(before.text(), template.render(&rolling).text(), "the summary reads as it did");
    let next = futures::executor::block_on(compactor.compact(
        &id(),
        &[Message::user("page Ana")],
        Some(&adopted),
        None,
    ))?;
    assert_eq!(next.segments.len(), 2);
    assert_eq!(next.segments[0].text, template.render(&rolling).text(), "its text is stored from now on");
    assert_eq!(
        compactor.render(&next).parts[0],
        before.parts[0],
        "the old summary stays the prompt's prefix"
    );
    // And the segments read back as segments.
    let again: Segments<TemplateSummary> = serde_json::from_str(&serde_json::to_string(&next)?)?;
    assert_eq!(again, next);
    Ok(())
}

/// A compactor that records each slice of evicted messages it is given and summarizes it as one line.
#[derive(Default)]
struct Recording {
    slices: Mutex<Vec<Vec<Message>>>,
}

impl Recording {
    fn slices(&self) -> Vec<Vec<Message>> {
        self.slices.lock().map(|slices| slices.clone()).unwrap_or_default()
    }
}

impl Compactor for Recording {
    type Artifact = Vec<String>;

    fn name(&self) -> &str {
        "recording"
    }

    async fn compact(
        &self,
        _conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Vec<String>>,
        _hint: Option<&str>,
    ) -> Result<Vec<String>, CompactionError> {
        if let Ok(mut slices) = self.slices.lock() {
            slices.push(evicted.to_vec());
        }
        let mut lines = carry_over.cloned().unwrap_or_default();
        lines.push(format!("{} messages", evicted.len()));
        Ok(lines)
    }

    fn render(&self, artifact: &Vec<String>) -> Message {
        Message::system(artifact.join("\n"))
    }
}

/// An agent's steps: `steps` units of a call with `calls` parallel results of `bytes` characters each, then a text reply.
fn agent_steps(steps: usize, calls: usize, bytes: usize) -> Vec<Message> {
    let mut history = vec![Message::user("Fix the failing tests.")];
    for step in 0..steps {
        let ids: Vec<String> = (0..calls).map(|call| format!("call_{step}_{call}")).collect();
        history.push(Message::assistant_tool_calls(
            ids.iter().map(|id| ToolCall::new(id.clone(), "read_file", serde_json::json!({"path": "a.rs"}))),
        ));
        history.extend(ids.iter().map(|id| Message::tool_result(id.clone(), "x".repeat(bytes))));
    }
    history.push(Message::assistant("All green."));
    history
}

#[test]
fn a_large_eviction_becomes_a_segment_per_part_cut_between_tool_units() -> Result<(), CompactionError> {
    let counter: Arc<dyn TokenCounter> = Arc::new(tidemark_memory::HeuristicCounter::default());
    let sizes = SegmentBudget::for_budget(2_000);
    let compactor = Segmented::new(Recording::default()).within(Arc::clone(&counter), sizes);
    assert_eq!(compactor.chunk_tokens(), Some(800));
    // Several chunks' worth of evicted steps: a part, and a segment, for each chunk it rounds to.
    let evicted = agent_steps(14, 3, 190);
    let total: u32 = evicted.iter().map(|message| counter.count(message)).sum();
    let summary = futures::executor::block_on(compactor.compact(&id(), &evicted, None, None))?;
    let slices = compactor.inner().slices();
    let expected = ((total + 400) / 800) as usize;
    assert!((4..8).contains(&expected), "{total} tokens make {expected} parts");
    assert_eq!((slices.len(), summary.segments.len()), (expected, expected), "{total} tokens");
    assert_eq!(slices.concat(), evicted, "the parts cover the eviction in order");
    for slice in &slices {
        assert!(validate(slice).is_ok(), "a part splits a tool unit: {slice:?}");
        let tokens: u32 = slice.iter().map(|message| counter.count(message)).sum();
        let even = total / expected as u32;
        assert!(tokens >= even / 2 && tokens <= even * 2, "{tokens} tokens against about {even}");
    }
    // A small eviction is one part, and a huge one at most half of the segment limit.
    let small = Segmented::new(Recording::default()).within(Arc::clone(&counter), sizes);
    futures::executor::block_on(small.compact(&id(), &agent_steps(3, 3, 95), None, None))?;
    assert_eq!(small.inner().slices().len(), 1);
    let huge = Segmented::new(Recording::default()).within(Arc::clone(&counter), sizes);
    futures::executor::block_on(huge.compact(&id(), &agent_steps(200, 3, 95), None, None))?;
    assert_eq!(huge.inner().slices().len(), sizes.max_segments / 2);
    Ok(())
}

#[test]
fn without_within_a_compaction_is_one_segment_whatever_it_evicts() -> Result<(), CompactionError> {
    let counter: Arc<dyn TokenCounter> = Arc::new(tidemark_memory::HeuristicCounter::default());
    let compactor = Segmented::new(Recording::default()).with_token_limit(counter, 1_000_000);
    assert_eq!(compactor.chunk_tokens(), None);
    futures::executor::block_on(compactor.compact(&id(), &agent_steps(40, 3, 95), None, None))?;
    assert_eq!(compactor.inner().slices().len(), 1);
    Ok(())
}

proptest! {
    /// Whatever is evicted, the parts cover it in order, cut only between tool units, and there are at most half as many as the segment limit.
    #[test]
    fn parts_cover_the_eviction_between_tool_units(
        steps in proptest::collection::vec((0usize..4, 0usize..300, any::<bool>()), 1..40),
        budget in 200u32..4_000,
    ) {
        let counter: Arc<dyn TokenCounter> = Arc::new(tidemark_memory::HeuristicCounter::default());
        let sizes = SegmentBudget::for_budget(budget);
        let compactor = Segmented::new(Recording::default()).within(Arc::clone(&counter), sizes);
        let mut evicted = Vec::new();
        for (index, (calls, bytes, text)) in steps.iter().enumerate() {
            if *text || *calls == 0 {
                evicted.push(Message::user(format!("{index} {}", "w".repeat(*bytes))));
            } else {
                let ids: Vec<String> = (0..*calls).map(|call| format!("c{index}_{call}")).collect();
                evicted.push(Message::assistant_tool_calls(
                    ids.iter().map(|id| ToolCall::new(id.clone(), "grep", serde_json::json!({"q": index}))),
                ));
                evicted.extend(ids.iter().map(|id| Message::tool_result(id.clone(), "r".repeat(*bytes))));
            }
        }
        let summary = futures::executor::block_on(compactor.compact(&id(), &evicted, None, None))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let slices = compactor.inner().slices();
        prop_assert_eq!(slices.concat(), evicted.clone());
        prop_assert!(!slices.is_empty() && slices.len() <= sizes.max_segments / 2);
        prop_assert!(slices.iter().all(|slice| !slice.is_empty() && validate(slice).is_ok()));
        prop_assert!(summary.segments.len() <= slices.len());
        let total: u64 = evicted.iter().map(|message| u64::from(counter.count(message))).sum();
        if total < u64::from(sizes.chunk_tokens) * 3 / 2 {
            prop_assert_eq!(slices.len(), 1);
        }
    }
}

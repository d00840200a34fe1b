//! Context sources in a load: blocks inside the one budget, failures left out, and what a source is told about the window.

mod support;

use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use support::{Probe, Recorder, turn};
use tidemark_core::{
    ContextError, ContextRequest, ContextSource, ConversationId, ConversationMemory, ConversationStore,
    Message, Part, Seq, StoredMessage, TokenCounter, ToolCall, validate,
};
use tidemark_memory::{
    CompactingMemory, DemotingMemory, HeuristicCounter, InMemoryStore, PolicyMemory, SlidingWindow,
    TokenWindow, WaitMode,
};
use tidemark_testkit::reference::ConcatCompactor;

fn id(name: &str) -> ConversationId {
    ConversationId::new(name).expect("valid id")
}

fn token_window(budget: u32) -> TokenWindow<HeuristicCounter> {
    TokenWindow::new(NonZeroU32::new(budget).expect("non-zero"), HeuristicCounter::default())
}

/// What a source does when asked.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// A block sized to `percent` of the allowance (counted with the request's counter), at least one word.
    Fits(u8),
    /// A block `extra` words over the allowance.
    Over(u16),
    /// No block.
    Nothing,
    /// An error.
    Fails,
    /// A block with a tool call, which would break the prompt's tool units.
    ToolCall,
}

/// What a source was told by one request.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    query: String,
    last_reply: Option<String>,
    below: Seq,
    in_prompt: Vec<Seq>,
    max_tokens: u32,
}

/// A source that answers as scripted, marks its blocks with `<ctx-N>`, and records every request.
#[derive(Clone)]
struct Scripted {
    mark: usize,
    answer: Answer,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// The sequence numbers of every eviction the source was told of, in order.
    evicted: Arc<Mutex<Vec<Vec<Seq>>>>,
}

impl Scripted {
    fn new(mark: usize, answer: Answer) -> Self {
        Self { mark, answer, seen: Arc::default(), evicted: Arc::default() }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("not poisoned").clone()
    }

    fn block(&self, words: usize) -> Message {
        let mut text = format!("<ctx-{}>", self.mark);
        for word in 0..words {
            text.push_str(&format!(" word{word}"));
        }
        Message::system(text)
    }
}

impl ContextSource for Scripted {
    async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
        self.seen.lock().expect("not poisoned").push(Seen {
            query: request.query().to_owned(),
            last_reply: request.last_reply().map(str::to_owned),
            below: request.below(),
            in_prompt: request.in_prompt().to_vec(),
            max_tokens: request.max_tokens(),
        });
        let counter = request.counter();
        let fits = |words: usize| counter.count(&self.block(words)) <= request.max_tokens();
        match self.answer {
            Answer::Fits(percent) => {
                let target = u64::from(request.max_tokens()) * u64::from(percent) / 100;
                let mut words = 1;
                while fits(words + 1) && u64::from(counter.count(&self.block(words + 1))) <= target {
                    words += 1;
                }
                Ok(Some(self.block(words)))
            }
            Answer::Over(extra) => {
                let mut words = 1;
                while fits(words) {
                    words += 1;
                }
                Ok(Some(self.block(words + usize::from(extra))))
            }
            Answer::Nothing => Ok(None),
            Answer::Fails => Err(ContextError::new(std::io::Error::other("the source is down"))),
            Answer::ToolCall => {
                Ok(Some(Message::assistant("<ctx-tool>").with_part(Part::ToolCall(ToolCall::new(
                    "ctx_call",
                    "lookup",
                    serde_json::json!({}),
                )))))
            }
        }
    }

    async fn on_evicted(&self, conversation: &ConversationId, evicted: &[StoredMessage]) {
        let _ = conversation;
        self.evicted.lock().expect("not poisoned").push(evicted.iter().map(|stored| stored.seq).collect());
    }
}

/// The context mark of a block (`<ctx-N>`), if `message` is one.
fn block_mark(message: &Message) -> Option<usize> {
    let text = message.text();
    let rest = text.strip_prefix("<ctx-")?;
    rest[..rest.find('>')?].parse().ok()
}

/// The sequence number a test message carries in its tag (`m{seq}:` in its text or result, `c{seq}_` in its call ids).
fn tag(message: &Message) -> Option<u64> {
    let text = message.text();
    let from_text = text.strip_prefix('m').and_then(|rest| rest.split(':').next()?.parse().ok());
    let from_result = message
        .tool_results()
        .next()
        .and_then(|result| result.content.strip_prefix('m')?.split(':').next()?.parse().ok());
    let from_call = message
        .tool_calls()
        .next()
        .and_then(|call| call.id.strip_prefix('c')?.split('_').next()?.parse().ok());
    from_text.or(from_result).or(from_call)
}

/// One turn of a generated conversation.
#[derive(Clone, Debug)]
enum Turn {
    User { words: usize, pinned: bool },
    Assistant { words: usize },
    System { words: usize },
    Tools { calls: usize, words: usize },
}

fn arb_turn() -> impl Strategy<Value = Turn> {
    prop_oneof![
        4 => (1..40usize, prop::bool::weighted(0.1)).prop_map(|(words, pinned)| Turn::User { words, pinned }),
        3 => (1..60usize).prop_map(|words| Turn::Assistant { words }),
        1 => (1..10usize).prop_map(|words| Turn::System { words }),
        2 => (1..4usize, 1..80usize).prop_map(|(calls, words)| Turn::Tools { calls, words }),
    ]
}

fn filler(words: usize) -> String {
    (0..words).map(|word| format!("w{word}")).collect::<Vec<_>>().join(" ")
}

/// The messages of `turn`, tagged with their sequence numbers from `next` on.
fn messages(turn: &Turn, next: u64) -> Vec<Message> {
    match *turn {
        Turn::User { words, pinned } => {
            let message = Message::user(format!("m{next}: {}", filler(words)));
            vec![if pinned { message.pinned() } else { message }]
        }
        Turn::Assistant { words } => vec![Message::assistant(format!("m{next}: {}", filler(words)))],
        Turn::System { words } => vec![Message::system(format!("m{next}: {}", filler(words)))],
        Turn::Tools { calls, words } => {
            let ids: Vec<String> = (0..calls).map(|call| format!("c{next}_{call}")).collect();
            let mut out = vec![Message::assistant_tool_calls(
                ids.iter().map(|id| ToolCall::new(id.clone(), "read", serde_json::json!({"n": next}))),
            )];
            for (offset, id) in (1..).zip(&ids) {
                out.push(Message::tool_result(id.clone(), format!("m{}: {}", next + offset, filler(words))));
            }
            out
        }
    }
}

fn arb_answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        4 => (1..=100u8).prop_map(Answer::Fits),
        2 => (0..50u16).prop_map(Answer::Over),
        1 => Just(Answer::Nothing),
        2 => Just(Answer::Fails),
        1 => Just(Answer::ToolCall),
    ]
}

/// Check one load's prompt, and what the sources asked during it (those whose count of requests moved past `asked_before`) were told.
fn check_prompt(
    prompt: &[Message],
    sources: &[(Scripted, u32)],
    asked_before: &[usize],
    budget: u32,
    next: u64,
) -> Result<(), TestCaseError> {
    let counter = HeuristicCounter::default();
    validate(prompt).map_err(|violation| TestCaseError::fail(format!("invalid prompt: {violation:?}")))?;
    let marks: Vec<usize> = prompt.iter().filter_map(block_mark).collect();
    prop_assert!(marks.windows(2).all(|pair| pair[0] < pair[1]), "blocks in the order added: {marks:?}");
    for &mark in &marks {
        let block = prompt.iter().find(|m| block_mark(m) == Some(mark)).expect("found above");
        // A source may take its allowance and the room the window and the sources before it left.
        let (source, allowance) = &sources[mark];
        let given = source.seen().last().expect("a source with a block was asked").max_tokens;
        prop_assert!(given >= *allowance, "block {mark} was given {given}, under its allowance {allowance}");
        prop_assert!(counter.count(block) <= given, "block {mark} over the {given} tokens it was given");
    }
    let tokens = counter.count_prompt(prompt);
    prop_assert!(
        tokens <= budget || marks.is_empty(),
        "{tokens} tokens over the budget of {budget} with blocks {marks:?}"
    );
    // What each source that was asked this load was told matches the window exactly.
    let window: Vec<u64> = prompt.iter().filter(|m| block_mark(m).is_none()).filter_map(tag).collect();
    for (index, (source, _)) in sources.iter().enumerate() {
        let seen = source.seen();
        if seen.len() == asked_before[index] {
            continue;
        }
        let request = seen.last().expect("asked");
        let mut expected: Vec<u64> = request.in_prompt.iter().map(|seq| seq.0).collect();
        expected.extend(request.below.0..next);
        prop_assert_eq!(&window, &expected, "source {} was told a different window", index);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every load: a valid prompt, blocks within what they were given (their allowances and the room left) and in order, and within the budget whenever a block is in it; each source told exactly which messages the prompt holds.
    #[test]
    fn summary_blocks_and_window_stay_within_the_budget(
        turns in prop::collection::vec(arb_turn(), 1..60),
        answers in prop::collection::vec((arb_answer(), 0..400u32), 0..4),
        budget in 200..1_500u32,
        cap in 50..1_200usize,
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let sources: Vec<(Scripted, u32)> = answers
                .iter()
                .enumerate()
                .map(|(mark, &(answer, allowance))| (Scripted::new(mark, answer), allowance))
                .collect();
            let mut memory = CompactingMemory::new(InMemoryStore::new(), token_window(budget), ConcatCompactor::capped(cap));
            for (source, allowance) in &sources {
                memory = memory.with_context(source.clone(), *allowance);
            }
            let conversation = id("prop");
            let mut next = 0;
            for turn in &turns {
                let batch = messages(turn, next);
                next += batch.len() as u64;
                memory.append(&conversation, batch).await.expect("append");
                let asked_before: Vec<usize> = sources.iter().map(|(source, _)| source.seen().len()).collect();
                let prompt = memory.load(&conversation).await.expect("a load never fails for a source");
                check_prompt(&prompt, &sources, &asked_before, budget, next)?;
                let watermark = memory.get_ref().state(&conversation).await.expect("state").watermark;
                for ((source, _), before) in sources.iter().zip(&asked_before) {
                    for request in &source.seen()[*before..] {
                        prop_assert!(request.below >= watermark, "{:?} below the watermark {}", request.below, watermark);
                    }
                }
            }
            Ok(())
        })?;
    }
}

/// A conversation of `turns` user and assistant turns, tagged `m{seq}:`.
async fn chat(memory: &impl ConversationMemory, conversation: &ConversationId, turns: u64) {
    for turn in 0..turns {
        let seq = turn * 2;
        let messages = vec![
            Message::user(format!("m{seq}: question {turn} about the deploy of service {turn}")),
            Message::assistant(format!("m{}: answer {turn}: the deploy of service {turn} is green", seq + 1)),
        ];
        memory.append(conversation, messages).await.expect("append");
    }
}

#[tokio::test]
async fn a_source_never_sees_the_window_start_below_the_watermark() {
    let source = Scripted::new(0, Answer::Fits(50));
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(400), ConcatCompactor::capped(300))
        .with_context(source.clone(), 60);
    let conversation = id("watermark");
    memory
        .append(&conversation, vec![Message::system("m0: you are a careful assistant")])
        .await
        .expect("append");
    let mut compacted = false;
    for turn in 0..150u64 {
        let seq = 1 + turn * 2;
        memory
            .append(
                &conversation,
                vec![
                    Message::user(format!("m{seq}: question {turn}")),
                    Message::assistant(format!("m{}: answer {turn} {}", seq + 1, filler(20))),
                ],
            )
            .await
            .expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        let state = memory.get_ref().state(&conversation).await.expect("state");
        compacted |= state.watermark > Seq(1);
        let seen = source.seen();
        let request = seen.last().expect("asked at every load");
        assert!(
            request.below >= state.watermark,
            "turn {turn}: {:?} below the watermark {}",
            request.below,
            state.watermark
        );
        assert_eq!(
            request.in_prompt,
            vec![Seq(0)].into_iter().filter(|s| *s < request.below).collect::<Vec<_>>()
        );
        assert_eq!(request.query, format!("m{seq}: question {turn}"));
        assert!(
            request.last_reply.as_deref().is_some_and(|reply| reply.starts_with(&format!("m{}:", seq + 1)))
        );
        // The pinned system prompt, the summary once there is one, then the block.
        let block = prompt.iter().position(|m| block_mark(m).is_some()).expect("the block is in");
        assert_eq!(prompt[0].text(), "m0: you are a careful assistant");
        match &state.summary {
            Some(summary) => {
                assert_eq!(block, 2);
                assert_eq!(prompt[1], summary.message);
            }
            None => assert_eq!(block, 1),
        }
    }
    assert!(compacted, "the test must cross compactions");
}

#[tokio::test]
async fn sources_are_told_of_every_eviction_once_and_before_the_next_load() {
    let source = Scripted::new(0, Answer::Fits(50));
    let memory = CompactingMemory::new(InMemoryStore::new(), token_window(400), ConcatCompactor::capped(300))
        .with_context(source.clone(), 60);
    let conversation = id("evictions");
    memory
        .append(&conversation, vec![Message::system("m0: you are a careful assistant").pinned()])
        .await
        .expect("append");
    for turn in 0..150u64 {
        let seq = 1 + turn * 2;
        let messages = vec![
            Message::user(format!("m{seq}: question {turn}")),
            Message::assistant(format!("m{}: answer {turn} {}", seq + 1, filler(20))),
        ];
        memory.append(&conversation, messages).await.expect("append");
        memory.load(&conversation).await.expect("load");
        let state = memory.get_ref().state(&conversation).await.expect("state");
        // Everything below the watermark but the pinned prompt was announced, once, in order, by this load at the latest.
        let told: Vec<Seq> = source.evicted.lock().expect("not poisoned").iter().flatten().copied().collect();
        let expected: Vec<Seq> = (1..state.watermark.0).map(Seq).collect();
        assert_eq!(told, expected, "turn {turn}");
    }
    let evictions = source.evicted.lock().expect("not poisoned").len();
    assert!(evictions > 3, "the test must cross compactions ({evictions})");
}

#[tokio::test]
async fn failing_over_long_and_tool_blocks_are_left_out_and_the_load_goes_on() {
    let sources = [
        Scripted::new(0, Answer::Fails),
        Scripted::new(1, Answer::Over(5)),
        Scripted::new(2, Answer::ToolCall),
        Scripted::new(3, Answer::Nothing),
        Scripted::new(4, Answer::Fits(100)),
    ];
    let mut memory = PolicyMemory::new(InMemoryStore::new(), token_window(2_000));
    for source in &sources {
        memory = memory.with_context(source.clone(), 50);
    }
    let conversation = id("failing");
    chat(&memory, &conversation, 3).await;
    let prompt = memory.load(&conversation).await.expect("the load goes on");
    let marks: Vec<usize> = prompt.iter().filter_map(block_mark).collect();
    assert_eq!(marks, vec![4]);
    assert!(prompt.iter().all(|m| !m.has_tool_calls()));
    assert!(sources.iter().all(|source| source.seen().len() == 1), "every source was asked once");
    // The four allowances whose blocks were left out, and the room the short window leaves, go to
    // the last source, whose block fills them: the prompt is within the budget and about full.
    assert!(sources[4].seen()[0].max_tokens > 5 * 50, "{:?}", sources[4].seen());
    let tokens = HeuristicCounter::default().count_prompt(&prompt);
    assert!((1_900..=2_000).contains(&tokens), "{tokens} tokens of 2,000");
}

#[tokio::test]
async fn the_room_the_window_leaves_goes_to_the_sources_in_order() {
    let conversation = id("room");
    let counter = HeuristicCounter::default();
    let first = Scripted::new(0, Answer::Fits(10));
    let second = Scripted::new(1, Answer::Fits(100));
    let memory = PolicyMemory::new(InMemoryStore::new(), token_window(1_000))
        .with_context(first.clone(), 100)
        .with_context(second.clone(), 100);
    chat(&memory, &conversation, 3).await;
    let prompt = memory.load(&conversation).await.expect("load");
    let (asked_first, asked_second) = (first.seen()[0].max_tokens, second.seen()[0].max_tokens);
    // The first gets its allowance and all the room; the second its own and what the first left.
    assert!(asked_first > 200, "the window leaves most of 1,000 tokens: {asked_first}");
    let first_block = prompt.iter().find(|m| block_mark(m) == Some(0)).expect("the first block");
    assert_eq!(asked_second, 100 + asked_first - counter.count(first_block));
    let tokens = counter.count_prompt(&prompt);
    assert!((950..=1_000).contains(&tokens), "{tokens} tokens of 1,000");

    // A policy without a token budget lends nothing: each source gets its allowance.
    let counted = Scripted::new(0, Answer::Fits(100));
    let by_count = PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(100))
        .with_context(counted.clone(), 100);
    chat(&by_count, &conversation, 3).await;
    let prompt = by_count.load(&conversation).await.expect("load");
    assert_eq!(counted.seen()[0].max_tokens, 100);
    assert!(prompt.iter().filter_map(block_mark).eq([0]));
}

#[tokio::test]
async fn an_allowance_the_budget_cannot_hold_gives_way_to_the_window() {
    let conversation = id("too-big");
    let plain = PolicyMemory::new(InMemoryStore::new(), token_window(300));
    chat(&plain, &conversation, 20).await;
    let small = Scripted::new(0, Answer::Fits(100));
    let huge = Scripted::new(1, Answer::Fits(100));
    let with_context = PolicyMemory::new(InMemoryStore::new(), token_window(300))
        .with_context(small.clone(), 40)
        .with_context(huge.clone(), 5_000);
    chat(&with_context, &conversation, 20).await;
    let prompt = with_context.load(&conversation).await.expect("load");
    // The huge allowance is given up; the small one keeps its room.
    assert_eq!(prompt.iter().filter_map(block_mark).collect::<Vec<_>>(), vec![0]);
    assert!(huge.seen().is_empty(), "a source without room is not asked");
    assert!(HeuristicCounter::default().count_prompt(&prompt) <= 300);

    // An allowance over the whole budget alone: the window is what it would be without context.
    let alone = Scripted::new(0, Answer::Fits(100));
    let only_huge =
        PolicyMemory::new(InMemoryStore::new(), token_window(300)).with_context(alone.clone(), 300);
    chat(&only_huge, &conversation, 20).await;
    assert_eq!(
        only_huge.load(&conversation).await.expect("load"),
        plain.load(&conversation).await.expect("load")
    );
    assert!(alone.seen().is_empty());
}

#[tokio::test]
async fn without_sources_a_load_is_unchanged() {
    let conversation = id("unchanged");
    let plain = CompactingMemory::new(InMemoryStore::new(), token_window(500), ConcatCompactor::capped(300));
    let quiet = CompactingMemory::new(InMemoryStore::new(), token_window(500), ConcatCompactor::capped(300))
        .with_context(Scripted::new(0, Answer::Nothing), 0);
    for _ in 0..40 {
        chat(&plain, &conversation, 1).await;
        chat(&quiet, &conversation, 1).await;
        assert_eq!(
            plain.load(&conversation).await.expect("load"),
            quiet.load(&conversation).await.expect("load")
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_that_does_not_wait_for_a_compaction_still_gets_its_blocks_within_budget() {
    let (probe, entered, release) = Probe::gated();
    let source = Scripted::new(0, Answer::Fits(100));
    let memory = Arc::new(
        CompactingMemory::new(InMemoryStore::new(), token_window(3_000), probe.clone())
            .with_wait_mode(WaitMode::ReturnPrevious)
            .with_context(source.clone(), 200),
    );
    let conversation = id("impatient");
    for i in 0..16 {
        memory.append(&conversation, turn(i)).await.expect("append");
    }
    let first = {
        let (memory, conversation) = (Arc::clone(&memory), conversation.clone());
        tokio::spawn(async move { memory.load(&conversation).await })
    };
    entered.notified().await;
    // The compactor is held at its gate: this load serves the policy's window around it, with the block.
    let quick = memory.load(&conversation).await.expect("load");
    assert_eq!(quick.iter().filter_map(block_mark).collect::<Vec<_>>(), vec![0]);
    assert!(HeuristicCounter::default().count_prompt(&quick) <= 3_000);
    let told = source.seen().last().cloned().expect("asked");
    assert!(told.below > Seq(0), "the evicted messages, not compacted yet, are not in the prompt");
    release.notify_one();
    let compacted = first.await.expect("joined").expect("loaded");
    assert_eq!(compacted.iter().filter_map(block_mark).collect::<Vec<_>>(), vec![0]);
    assert!(HeuristicCounter::default().count_prompt(&compacted) <= 3_000);
    assert_eq!(probe.calls(), 1);
}

#[tokio::test]
async fn a_demoting_memory_takes_context_sources_too() {
    let source = Scripted::new(0, Answer::Fits(100));
    let memory = DemotingMemory::new(InMemoryStore::new(), token_window(500), Recorder::default())
        .with_context(source.clone(), 80);
    let conversation = id("demoting");
    chat(&memory, &conversation, 30).await;
    let prompt = memory.load(&conversation).await.expect("load");
    assert_eq!(prompt.iter().filter_map(block_mark).collect::<Vec<_>>(), vec![0]);
    assert!(HeuristicCounter::default().count_prompt(&prompt) <= 500);
    let watermark = memory.get_ref().state(&conversation).await.expect("state").watermark;
    assert!(watermark > Seq(0));
    assert_eq!(source.seen().last().map(|seen| seen.below), Some(watermark));
}

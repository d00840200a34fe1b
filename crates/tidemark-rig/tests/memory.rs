//! The adapter under tidemark's memory conformance suite and rig's memory contract; hooks and compactors both ways.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};

use rig_core::completion::Message as RigMessage;
use rig_core::id::ConversationId as RigConversationId;
use rig_core::memory::{
    ConversationMemory as RigConversationMemory, DemotionHook as RigDemotionHook,
    MemoryError as RigMemoryError,
};
use rig_core::wasm_compat::WasmBoxedFuture;
use rig_memory::{DemotingPolicyMemory, InMemoryConversationMemory, SlidingWindowMemory};
use tidemark_compaction::TemplateCompactor;
use tidemark_core::error::{ConversationIdError, HookError, StoreError};
use tidemark_core::store::StoredMessage;
use tidemark_core::{
    ConversationId, ConversationMemory, DemotionHook, MemoryError, Message, Part, Seq, SeqRange,
};
use tidemark_memory::{
    CompactingMemory, DemotingMemory, HeuristicCounter, InMemoryStore, PolicyMemory, SlidingWindow,
    TokenWindow,
};
use tidemark_rig::{Failure, FromRigHook, RigCompactor, RigHook, RigMemory, to_rig, to_tidemark};
use tidemark_testkit::conformance::memory::{MemoryConfig, run};
use tidemark_testkit::strategies::HistoryConfig;

/// A tidemark memory seen only through rig: every message crosses the conversion twice, as in a rig agent.
///
/// rig's `append` returns no sequence numbers, so this wrapper numbers each
/// conversation's appends itself; and it converts each batch after what it
/// appended before, as an agent's history holds the calls a later batch's
/// results answer. Three documented effects of the trip are undone on load, so
/// that the suite checks everything else: the rig origin a message gains (not
/// content: tidemark neither hashes nor counts it), the pin a message loses
/// (rig has none; restored from the appended message of the same role and
/// parts), and the spelling of tool
/// arguments (rig holds them as a JSON map, so the suite's pretty-printed or
/// empty argument texts come back compact or as `{}`; each call gets back the
/// text it was appended with, found by its id, only when the two parse to the
/// same JSON). Everything else is the adapter's.
struct ThroughRig<M> {
    rig: RigMemory<M>,
    appended: Mutex<HashMap<ConversationId, Vec<Message>>>,
}

fn rig_id(id: &ConversationId) -> RigConversationId {
    RigConversationId::new(id.as_str())
}

fn from_rig(error: RigMemoryError) -> MemoryError {
    MemoryError::Store(StoreError::backend("rig", error))
}

impl<M: ConversationMemory + 'static> ConversationMemory for ThroughRig<M> {
    async fn load(&self, id: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        let loaded = RigConversationMemory::load(&self.rig, &rig_id(id)).await.map_err(from_rig)?;
        let mut loaded = to_tidemark(&loaded).expect("what the adapter loads converts back");
        let appended = self.appended.lock().unwrap_or_else(PoisonError::into_inner);
        let written: HashMap<&str, &str> = appended
            .get(id)
            .into_iter()
            .flatten()
            .flat_map(Message::tool_calls)
            .map(|call| (call.id.as_str(), call.arguments.as_str()))
            .collect();
        let pinned: Vec<&Message> = appended.get(id).into_iter().flatten().filter(|m| m.pinned).collect();
        for message in &mut loaded {
            message.origin = None;
            message.pinned = pinned.iter().any(|p| p.role == message.role && p.parts == message.parts);
            for part in &mut message.parts {
                if let Part::ToolCall(call) = part
                    && let Some(text) = written.get(call.id.as_str())
                    && same_json(text, &call.arguments)
                {
                    call.arguments = (*text).to_owned();
                }
            }
        }
        Ok(loaded)
    }

    async fn append(&self, id: &ConversationId, messages: Vec<Message>) -> Result<SeqRange, MemoryError> {
        let (start, rig) = {
            let appended = self.appended.lock().unwrap_or_else(PoisonError::into_inner);
            let before = appended.get(id).map_or(&[][..], Vec::as_slice);
            let all = [before, &messages].concat();
            let mut rig = to_rig(&all).expect("the suite's messages convert to rig");
            (before.len(), rig.split_off(to_rig(before).expect("converted before").len()))
        };
        RigConversationMemory::append(&self.rig, &rig_id(id), rig).await.map_err(from_rig)?;
        let count = messages.len();
        self.appended
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(id.clone())
            .or_default()
            .extend(messages);
        Ok(SeqRange::new(Seq(start as u64), Seq((start + count) as u64)))
    }

    async fn clear(&self, id: &ConversationId) -> Result<(), MemoryError> {
        RigConversationMemory::clear(&self.rig, &rig_id(id)).await.map_err(from_rig)?;
        self.appended.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
        Ok(())
    }
}

/// Whether two argument texts mean the same to rig: equal JSON, with no arguments at all (empty or `null`) the same as `{}`.
fn same_json(a: &str, b: &str) -> bool {
    let parse = |text: &str| match text.trim() {
        "" | "null" => Some(serde_json::json!({})),
        text => serde_json::from_str::<serde_json::Value>(text).ok(),
    };
    a == b || parse(a).is_some_and(|x| Some(x) == parse(b))
}

fn through_rig<M: ConversationMemory>(memory: M) -> ThroughRig<M> {
    ThroughRig { rig: RigMemory::new(memory), appended: Mutex::new(HashMap::new()) }
}

#[tokio::test]
async fn a_compacting_memory_passes_the_memory_suite_through_rig() {
    let make = || async {
        let policy = TokenWindow::new(NonZeroU32::new(400).expect("not zero"), HeuristicCounter::default());
        through_rig(CompactingMemory::new(InMemoryStore::new(), policy, TemplateCompactor::new()))
    };
    // rig has no pins or participant names, so the histories have none.
    let history = HistoryConfig::default().with_pinned_ratio(0.0).with_name_ratio(0.0);
    let report =
        run(make, &MemoryConfig::default().with_cases(32).with_history(history)).await.expect("conformance");
    assert_eq!(report.cases, 32);
}

#[tokio::test]
async fn a_memory_that_keeps_everything_stays_lossless_through_rig() {
    // rig has no pins or participant names, so the histories have none.
    let history = HistoryConfig::default().with_pinned_ratio(0.0).with_name_ratio(0.0);
    let make = || async {
        through_rig(PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(100_000)))
    };
    let report =
        run(make, &MemoryConfig::lossless().with_cases(32).with_history(history)).await.expect("conformance");
    assert_eq!(report.cases, 32);
}

fn exchange(n: usize) -> Vec<RigMessage> {
    vec![RigMessage::user(format!("question {n}")), RigMessage::assistant(format!("answer {n}"))]
}

#[tokio::test]
async fn the_adapter_keeps_rigs_memory_contract() {
    let memory = RigMemory::new(PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(100)));
    let (a, b) = (RigConversationId::new("a"), RigConversationId::new("b"));
    assert!(memory.load(&a).await.expect("load").is_empty(), "an unknown conversation loads empty");
    memory.append(&a, exchange(1)).await.expect("append");
    memory.append(&a, exchange(2)).await.expect("append");
    memory.append(&b, exchange(9)).await.expect("append");
    let loaded = memory.load(&a).await.expect("load");
    assert_eq!(loaded, [exchange(1), exchange(2)].concat(), "appends come back in order");
    memory.clear(&a).await.expect("clear");
    assert!(memory.load(&a).await.expect("load").is_empty(), "clear forgets");
    assert_eq!(memory.load(&b).await.expect("load"), exchange(9), "another conversation is untouched");
}

#[tokio::test]
async fn failures_reach_rig_as_backend_errors_with_their_source() {
    let memory = RigMemory::new(PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(100)));
    let error = memory.load(&RigConversationId::new("")).await.expect_err("an empty id");
    let RigMemoryError::Backend(source) = &error else { panic!("a backend error: {error:?}") };
    let failure = source.downcast_ref::<Failure>().expect("tidemark's failure");
    assert!(failure.inner().downcast_ref::<ConversationIdError>().is_some(), "{error}");

    let long = RigConversationId::new("x".repeat(100_000));
    let error = memory.append(&long, exchange(1)).await.expect_err("an id too long");
    let RigMemoryError::Backend(source) = &error else { panic!("a backend error: {error:?}") };
    let failure = source.downcast_ref::<Failure>().expect("tidemark's failure");
    let inner = failure.inner().downcast_ref::<ConversationIdError>();
    assert!(matches!(inner, Some(ConversationIdError::TooLong { .. })), "{error}");
}

/// A rig hook that records what it is given.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<(String, RigMessage)>>>);

impl RigDemotionHook for Recorder {
    fn on_demote<'a>(
        &'a self,
        id: &'a RigConversationId,
        messages: Vec<RigMessage>,
    ) -> WasmBoxedFuture<'a, Result<(), RigMemoryError>> {
        Box::pin(async move {
            let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            seen.extend(messages.into_iter().map(|m| (id.to_string(), m)));
            Ok(())
        })
    }
}

#[tokio::test]
async fn a_rig_hook_takes_what_tidemarks_demoting_memory_demotes() {
    let recorder = Recorder::default();
    let memory = DemotingMemory::new(
        InMemoryStore::new(),
        SlidingWindow::last_messages(2),
        FromRigHook(recorder.clone()),
    );
    let id = ConversationId::new("thread-1").expect("an id");
    let all = [exchange(1), exchange(2), exchange(3)].concat();
    memory.append(&id, to_tidemark(&all).expect("converts")).await.expect("append");
    let kept = memory.load(&id).await.expect("load");
    assert_eq!(to_rig(&kept).expect("converts"), exchange(3));
    memory.load(&id).await.expect("a second load");
    let seen = recorder.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let expected: Vec<(String, RigMessage)> =
        all[..4].iter().map(|m| ("thread-1".to_owned(), m.clone())).collect();
    assert_eq!(seen, expected, "the demoted messages, in order, once");
}

/// A tidemark hook that keeps what it is given by (conversation, sequence number), as tidemark's contract asks.
#[derive(Clone, Default)]
struct Archive(Arc<Mutex<BTreeMap<(String, u64), String>>>);

impl DemotionHook for Archive {
    async fn on_demote(
        &self,
        id: &ConversationId,
        range: SeqRange,
        messages: &[StoredMessage],
    ) -> Result<(), HookError> {
        assert_eq!(range.len(), messages.len() as u64);
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for stored in messages {
            kept.insert((id.as_str().to_owned(), stored.seq.0), stored.message.text().into_owned());
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_tidemark_hook_in_rig_memory_is_idempotent_across_a_restart() {
    let archive = Archive::default();
    let backend = InMemoryConversationMemory::new();
    let id = RigConversationId::new("thread-1");
    backend.append(&id, [exchange(1), exchange(2), exchange(3)].concat()).await.expect("append");
    let first = DemotingPolicyMemory::new(
        backend.clone(),
        SlidingWindowMemory::last_messages(2),
        RigHook::new(archive.clone()),
    );
    assert_eq!(first.load(&id).await.expect("load"), exchange(3));
    let after_first = archive.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let texts: Vec<&str> = after_first.values().map(String::as_str).collect();
    assert_eq!(texts, ["question 1", "answer 1", "question 2", "answer 2"]);
    // A restart: rig's adapter and the hook's numbering start over, and rig delivers the same messages again.
    let second = DemotingPolicyMemory::new(
        backend,
        SlidingWindowMemory::last_messages(2),
        RigHook::new(archive.clone()),
    );
    second.load(&id).await.expect("load");
    assert_eq!(
        *archive.0.lock().unwrap_or_else(PoisonError::into_inner),
        after_first,
        "the same keys, nothing twice"
    );
}

#[tokio::test]
async fn a_tidemark_compactor_rolls_summaries_in_rig_memorys_compacting_memory() {
    let memory = rig_memory::CompactingMemory::new(
        InMemoryConversationMemory::new(),
        SlidingWindowMemory::last_messages(2),
        RigCompactor(TemplateCompactor::new()),
    );
    let id = RigConversationId::new("thread-1");
    memory.append(&id, [exchange(1), exchange(2)].concat()).await.expect("append");
    let loaded = memory.load(&id).await.expect("load");
    assert_eq!(loaded.len(), 3, "the summary, then the window: {loaded:?}");
    assert_eq!(loaded[1..], exchange(2));
    memory.append(&id, exchange(3)).await.expect("append");
    let loaded = memory.load(&id).await.expect("load");
    let summary = serde_json::to_string(&loaded[0]).expect("JSON");
    assert!(
        summary.contains("question 1") && summary.contains("question 2"),
        "the carry-over rolls: {summary}"
    );
    assert_eq!(loaded[1..], exchange(3));
}

/// A turn with a tool exchange every other turn, as rig's agent appends it.
fn agent_turn(n: usize) -> Vec<RigMessage> {
    use rig_core::completion::message::{
        AssistantContent, AssistantMessage, ToolCall, ToolFunction, ToolName, ToolResultContent, UserContent,
    };
    let mut turn = vec![RigMessage::user(format!("question {n}"))];
    if n.is_multiple_of(2) {
        let name = ToolName::new("lookup").expect("a name");
        let call =
            ToolCall::from_wire(format!("call_{n}"), ToolFunction::new(name, serde_json::json!({"n": n})));
        let result = call.result(vec![ToolResultContent::Text(format!("value {n}").into())]);
        turn.push(RigMessage::Assistant(AssistantMessage::new(vec![AssistantContent::ToolCall(call)])));
        turn.push(RigMessage::User { content: vec![UserContent::ToolResult(result)] });
    }
    turn.push(RigMessage::assistant(format!("answer {n}")));
    turn
}

#[tokio::test]
async fn rig_memorys_adapters_behave_over_tidemark_as_over_rigs_own_backend() {
    let keep_all =
        || RigMemory::new(PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(100_000)));
    let rig_own = rig_memory::CompactingMemory::new(
        InMemoryConversationMemory::new(),
        SlidingWindowMemory::last_messages(5),
        rig_memory::TemplateCompactor::new(),
    );
    let on_tidemark = rig_memory::CompactingMemory::new(
        keep_all(),
        SlidingWindowMemory::last_messages(5),
        rig_memory::TemplateCompactor::new(),
    );
    let (own_hook, tidemark_hook) = (Recorder::default(), Recorder::default());
    let rig_demoting = DemotingPolicyMemory::new(
        InMemoryConversationMemory::new(),
        SlidingWindowMemory::last_messages(4),
        own_hook.clone(),
    );
    let tidemark_demoting =
        DemotingPolicyMemory::new(keep_all(), SlidingWindowMemory::last_messages(4), tidemark_hook.clone());
    let id = RigConversationId::new("thread-1");
    for n in 0..16 {
        let turn = agent_turn(n);
        rig_own.append(&id, turn.clone()).await.expect("append");
        on_tidemark.append(&id, turn.clone()).await.expect("append");
        rig_demoting.append(&id, turn.clone()).await.expect("append");
        tidemark_demoting.append(&id, turn).await.expect("append");
        assert_eq!(
            on_tidemark.load(&id).await.expect("load"),
            rig_own.load(&id).await.expect("load"),
            "turn {n}"
        );
        assert_eq!(
            tidemark_demoting.load(&id).await.expect("load"),
            rig_demoting.load(&id).await.expect("load"),
            "turn {n}"
        );
    }
    let delivered = |hook: &Recorder| hook.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(delivered(&tidemark_hook), delivered(&own_hook));
    assert!(!delivered(&own_hook).is_empty(), "the windows demoted something");
    rig_own.clear(&id).await.expect("clear");
    on_tidemark.clear(&id).await.expect("clear");
    assert_eq!(on_tidemark.load(&id).await.expect("load"), rig_own.load(&id).await.expect("load"));
}

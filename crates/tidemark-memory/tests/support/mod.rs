//! Test doubles shared by the adapter tests: a compactor that can be held at a gate or made to fail, a recording hook and a recording observer.

#![allow(dead_code, unreachable_pub)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tidemark_core::{
    CompactionError, CompactionEvent, CompactionObserver, Compactor, ConversationId, DemotionHook, HookError,
    Message, ObserverError, SeqRange, StoredMessage,
};
use tidemark_testkit::reference::ConcatCompactor;
use tokio::sync::Notify;

/// The byte cap of [`Probe`]'s summary: about 700 heuristic tokens, well inside the test budgets.
pub const SUMMARY_CAP: usize = 2048;

/// A capped concat compactor that counts its calls, records hints, and can be paused or made to fail.
#[derive(Clone, Default)]
pub struct Probe {
    pub calls: Arc<AtomicUsize>,
    pub hints: Arc<Mutex<Vec<Option<String>>>>,
    /// Every batch of evicted messages it was given, in call order.
    pub evicted: Arc<Mutex<Vec<Vec<Message>>>>,
    /// When set, every call announces itself on `entered` and waits on `release`.
    pub gate: Option<(Arc<Notify>, Arc<Notify>)>,
    /// When set, every call fails.
    pub fail: Arc<std::sync::atomic::AtomicBool>,
}

impl Probe {
    pub fn gated() -> (Self, Arc<Notify>, Arc<Notify>) {
        let entered = Arc::new(Notify::new());
        let release = Arc::new(Notify::new());
        let probe = Self { gate: Some((Arc::clone(&entered), Arc::clone(&release))), ..Self::default() };
        (probe, entered, release)
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    pub fn set_failing(&self, failing: bool) {
        self.fail.store(failing, Ordering::SeqCst);
    }
}

impl Compactor for Probe {
    type Artifact = Vec<String>;

    fn name(&self) -> &str {
        "probe"
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Vec<String>>,
        hint: Option<&str>,
    ) -> Result<Vec<String>, CompactionError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.hints.lock().expect("not poisoned").push(hint.map(str::to_owned));
        self.evicted.lock().expect("not poisoned").push(evicted.to_vec());
        if let Some((entered, release)) = &self.gate {
            entered.notify_one();
            release.notified().await;
        }
        if self.fail.load(Ordering::SeqCst) {
            return Err(CompactionError::EmptySummary);
        }
        ConcatCompactor::capped(SUMMARY_CAP).compact(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &Vec<String>) -> Message {
        ConcatCompactor::capped(SUMMARY_CAP).render(artifact)
    }
}

/// One delivery to [`Recorder`]: the conversation, the range and the sequence numbers delivered.
pub type Delivery = (ConversationId, SeqRange, Vec<u64>);

/// A hook that records every delivery and can be made to fail.
#[derive(Clone, Default)]
pub struct Recorder {
    pub deliveries: Arc<Mutex<Vec<Delivery>>>,
    pub fail: Arc<std::sync::atomic::AtomicBool>,
}

impl Recorder {
    pub fn delivered_seqs(&self) -> Vec<u64> {
        self.deliveries.lock().expect("not poisoned").iter().flat_map(|(_, _, seqs)| seqs.clone()).collect()
    }
}

impl DemotionHook for Recorder {
    async fn on_demote(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        messages: &[StoredMessage],
    ) -> Result<(), HookError> {
        if self.fail.load(Ordering::SeqCst) {
            return Err(HookError::new("archive unavailable"));
        }
        let seqs = messages.iter().map(|m| m.seq.0).collect();
        self.deliveries.lock().expect("not poisoned").push((conversation.clone(), range, seqs));
        Ok(())
    }
}

/// What an observer should do before compression.
#[derive(Clone, Copy, Default)]
pub enum HintBehaviour {
    #[default]
    Answer,
    Fail,
    Hang,
}

/// An observer that answers, fails or hangs on pre-compress and records every event.
#[derive(Clone, Default)]
pub struct Watcher {
    pub behaviour: HintBehaviour,
    pub events: Arc<Mutex<Vec<CompactionEvent>>>,
    pub seen: Arc<Mutex<Vec<Vec<Message>>>>,
}

impl Watcher {
    pub fn events(&self) -> Vec<CompactionEvent> {
        self.events.lock().expect("not poisoned").clone()
    }
}

impl CompactionObserver for Watcher {
    async fn on_pre_compress(
        &self,
        _: &ConversationId,
        _: SeqRange,
        evicted: &[Message],
    ) -> Result<Option<String>, ObserverError> {
        self.seen.lock().expect("not poisoned").push(evicted.to_vec());
        match self.behaviour {
            HintBehaviour::Answer => Ok(Some(format!("{} messages evicted", evicted.len()))),
            HintBehaviour::Fail => Err(ObserverError::new("fact store offline")),
            HintBehaviour::Hang => std::future::pending().await,
        }
    }

    fn on_event(&self, event: &CompactionEvent) {
        self.events.lock().expect("not poisoned").push(event.clone());
    }
}

/// Agent turns of the replay workload: user text, a `read_file` call, its result, assistant text.
pub fn turn(i: usize) -> Vec<Message> {
    let id = format!("call_{i}");
    vec![
        Message::user(format!("turn {i}: please look at src/module_{i}.rs and tell me what it does")),
        Message::assistant_tool_calls([tidemark_core::ToolCall::new(
            id.clone(),
            "read_file",
            serde_json::json!({"path": format!("src/module_{i}.rs")}),
        )]),
        Message::tool_result(id, format!("fn module_{i}() {{ /* {} */ }}", "x".repeat(300 + (i * 37) % 700))),
        Message::assistant(format!("Module {i} defines one function; it looks fine.")),
    ]
}

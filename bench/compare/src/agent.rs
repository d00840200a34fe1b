//! rig's agent loop with rig-memory's `CompactingMemory` against the same loop with tidemark through tidemark-rig: one workload, one run.
//!
//! A rig 0.44 `Agent` with one tool talks to rig's scripted model (a tool
//! call every third turn, then an answer of about 120 tokens); a fact is
//! planted at turn 10 and asked for at the last turn. The memories, all at
//! the same budget, counted by the same o200k counter:
//!
//! - rig-memory: `CompactingMemory` over rig's in-memory backend, a
//!   `TokenWindowMemory` policy, its `TemplateCompactor` capped at 4 KiB (as
//!   in the replay benchmark);
//! - tidemark: `CompactingMemory` over `InMemoryStore`, a `TokenWindow`, the
//!   template compactor, through `RigMemory`;
//! - tidemark with facts and recall: the facade's memory on SQLite.
//!
//! Every request the model receives is checked: the history before the
//! turn's prompt counted against the budget, tool units validated, the
//! planted value looked for in the last one. Then each memory is built again
//! over the same backend (a restart) and loaded once: how many messages its
//! compactor folds again.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rig_agent::prelude::*;
use rig_core::completion::Message as RigMessage;
use rig_core::id::ConversationId as RigConversationId;
use rig_core::memory::{Compactor as RigCompactor, ConversationMemory as RigConversationMemory, MemoryError};
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_core::tool::PortableTool;
use rig_core::wasm_compat::WasmBoxedFuture;
use rig_memory::{InMemoryConversationMemory, TokenWindowMemory};
use tidemark_core::{CompactionError, Compactor, ConversationId, Message, Role, TokenCounter, validate};
use tidemark_memory::{InMemoryStore, TiktokenCounter, TokenWindow};
use tidemark_rig::{RigMemory, to_tidemark};

use crate::report::{Section, Table, Target};

const CODE: &str = "TANGO-4471";

/// rig-memory's summary is capped at 4 KiB, as in the replay benchmark; tidemark's template summary is bounded by the window's room.
const SUMMARY_CAP: usize = 4 * 1024;

struct Owner;

#[derive(serde::Deserialize)]
struct OwnerArgs {
    service: String,
}

impl PortableTool for Owner {
    const NAME: &'static str = "service_owner";
    type Args = OwnerArgs;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Who owns a service".into()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"service": {"type": "string"}}, "required": ["service"]})
    }

    async fn call(&self, args: Self::Args) -> Result<Self::Output, Self::Error> {
        Ok(format!(
            "service={} owner=team-{} oncall=pager-{}",
            args.service,
            args.service.len(),
            args.service.len() * 7
        ))
    }
}

fn prompt(turn: usize, turns: usize) -> String {
    if turn == 10 {
        format!("turn {turn}: keep this: the vault recovery code is {CODE}, needed for the quarterly audit.")
    } else if turn == turns {
        format!("turn {turn}: what is the vault recovery code for the quarterly audit?")
    } else {
        format!("turn {turn}: status of the rollout for service svc{turn}, anything blocking it?")
    }
}

/// The model's script for the whole run: a tool call on every third turn, then the answer.
fn script(turns: usize) -> MockCompletionModel {
    let filler = "The rollout plan keeps the canary at five percent while the error budget holds, \
                  then widens in steps, with the dashboards watched at each step. "
        .repeat(3);
    let mut script = Vec::new();
    for turn in 1..=turns {
        if turn % 3 == 0 {
            let arguments = serde_json::json!({"service": format!("svc{turn}")});
            script.push(MockTurn::tool_call(format!("call_{turn}"), "service_owner", arguments));
        }
        script.push(MockTurn::text(format!("Turn {turn} noted. {filler}")));
    }
    MockCompletionModel::from_turns(script)
}

/// What one system's run gave; `refolded` counts the messages a memory built again over the same backend folds at its first load, after the old one folded everything pending.
struct Run {
    seconds: f64,
    requests: usize,
    largest: u32,
    over: usize,
    invalid: usize,
    planted: bool,
    refolded: Option<usize>,
}

/// Runs the workload through an agent whose memory `memory` is; checks every request the model saw.
async fn drive<M>(memory: M, turns: usize, budget: u32, counter: &TiktokenCounter) -> Result<(Run, M), String>
where
    M: RigConversationMemory + Clone + 'static,
{
    let model = script(turns);
    let agent =
        AgentBuilder::new(model.clone()).memory(memory.clone()).tool(Owner).default_max_turns(4).build();
    let started = Instant::now();
    for turn in 1..=turns {
        agent
            .prompt(prompt(turn, turns))
            .conversation("bench")
            .await
            .map_err(|e| format!("turn {turn}: {e}"))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let requests = model.requests();
    let (mut largest, mut over, mut invalid) = (0, 0, 0);
    for request in &requests {
        let messages = to_tidemark(&request.chat_history).map_err(|e| format!("a request: {e}"))?;
        let prompt_at =
            messages.iter().rposition(|m| m.role == Role::User && !m.text().is_empty()).unwrap_or(0);
        let tokens = counter.count_prompt(messages.get(..prompt_at).unwrap_or_default());
        largest = largest.max(tokens);
        over += usize::from(tokens > budget);
        invalid += usize::from(validate(&messages).is_err());
    }
    let planted = requests
        .last()
        .is_some_and(|last| serde_json::to_string(&last.chat_history).is_ok_and(|json| json.contains(CODE)));
    let run = Run { seconds, requests: requests.len(), largest, over, invalid, planted, refolded: None };
    Ok((run, memory))
}

/// rig-memory's template compactor, counting the messages it folds.
#[derive(Clone)]
struct CountingRig(rig_memory::TemplateCompactor, Arc<AtomicUsize>);

impl RigCompactor for CountingRig {
    type Artifact = rig_memory::TextSummary;

    fn compact<'a>(
        &'a self,
        id: &'a RigConversationId,
        evicted: &'a [RigMessage],
        carry_over: Option<&'a Self::Artifact>,
    ) -> WasmBoxedFuture<'a, Result<Self::Artifact, MemoryError>> {
        self.1.fetch_add(evicted.len(), Ordering::Relaxed);
        self.0.compact(id, evicted, carry_over)
    }
}

/// tidemark's template compactor, counting the messages it folds.
#[derive(Clone)]
struct CountingTidemark(tidemark_compaction::TemplateCompactor, Arc<AtomicUsize>);

impl Compactor for CountingTidemark {
    type Artifact = <tidemark_compaction::TemplateCompactor as Compactor>::Artifact;

    fn name(&self) -> &str {
        self.0.name()
    }

    async fn compact(
        &self,
        id: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Self::Artifact>,
        hint: Option<&str>,
    ) -> Result<Self::Artifact, CompactionError> {
        self.1.fetch_add(evicted.len(), Ordering::Relaxed);
        self.0.compact(id, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &Self::Artifact) -> Message {
        self.0.render(artifact)
    }
}

fn o200k() -> Result<TiktokenCounter, String> {
    TiktokenCounter::o200k().map_err(|e| format!("o200k: {e}"))
}

/// rig-memory's count of one rig message: tidemark's o200k count of its conversion, so both sides count alike.
fn rig_count(counter: Arc<TiktokenCounter>) -> impl Fn(&RigMessage) -> usize + Send + Sync + 'static {
    move |message| to_tidemark(std::slice::from_ref(message)).map_or(0, |m| counter.count_prompt(&m) as usize)
}

async fn rig_memory_run(turns: usize, budget: u32) -> Result<Run, String> {
    let counter = o200k()?;
    let folded = Arc::new(AtomicUsize::new(0));
    let backend = InMemoryConversationMemory::new();
    let policy = || -> Result<TokenWindowMemory, String> {
        Ok(TokenWindowMemory::new(budget as usize, rig_count(Arc::new(o200k()?))))
    };
    let memory = Arc::new(rig_memory::CompactingMemory::new(
        backend.clone(),
        policy()?,
        CountingRig(rig_memory::TemplateCompactor::new().with_max_bytes(SUMMARY_CAP), folded.clone()),
    ));
    let (mut run, memory) = drive(memory, turns, budget, &counter).await?;
    // What the last turn's append pushes out is folded now, so that the restart has nothing new to fold.
    memory.load(&RigConversationId::new("bench")).await.map_err(|e| format!("load: {e}"))?;
    // A restart: rig-memory's compaction state lives in the process, so a new adapter over the same backend starts from nothing.
    let again = Arc::new(AtomicUsize::new(0));
    let restarted = rig_memory::CompactingMemory::new(
        backend,
        policy()?,
        CountingRig(rig_memory::TemplateCompactor::new().with_max_bytes(SUMMARY_CAP), again.clone()),
    );
    restarted.load(&RigConversationId::new("bench")).await.map_err(|e| format!("load after restart: {e}"))?;
    run.refolded = Some(again.load(Ordering::Relaxed));
    Ok(run)
}

async fn tidemark_run(turns: usize, budget: u32) -> Result<Run, String> {
    let counter = o200k()?;
    let window = |c: TiktokenCounter| -> Result<TokenWindow<TiktokenCounter>, String> {
        Ok(TokenWindow::new(std::num::NonZeroU32::new(budget).ok_or("zero budget")?, c))
    };
    let store = InMemoryStore::new();
    let compactor = |count: &Arc<AtomicUsize>| {
        CountingTidemark(tidemark_compaction::TemplateCompactor::new(), count.clone())
    };
    let folded = Arc::new(AtomicUsize::new(0));
    let memory = tidemark_memory::CompactingMemory::new(store.clone(), window(o200k()?)?, compactor(&folded));
    let (mut run, memory) = drive(RigMemory::new(Arc::new(memory)), turns, budget, &counter).await?;
    memory.load(&RigConversationId::new("bench")).await.map_err(|e| format!("load: {e}"))?;
    let again = Arc::new(AtomicUsize::new(0));
    let restarted =
        RigMemory::new(tidemark_memory::CompactingMemory::new(store, window(o200k()?)?, compactor(&again)));
    restarted.load(&RigConversationId::new("bench")).await.map_err(|e| format!("load after restart: {e}"))?;
    run.refolded = Some(again.load(Ordering::Relaxed));
    Ok(run)
}

async fn facade_run(turns: usize, budget: u32) -> Result<Run, String> {
    let counter = o200k()?;
    let dir = tempfile::tempdir().map_err(|e| format!("a temporary directory: {e}"))?;
    let memory = tidemark::Memory::builder()
        .sqlite(dir.path().join("agent.db"))
        .budget(budget)
        .facts()
        .recall()
        .build()
        .map_err(|e| format!("the facade's memory: {e}"))?;
    let (run, _) = drive(RigMemory::new(Arc::new(memory)), turns, budget, &counter).await?;
    Ok(run)
}

/// The section: one row per memory, the same workload.
pub fn run(smoke: bool) -> Result<Section, String> {
    let (turns, budget) = if smoke { (30, 1_000) } else { (400, 8_000) };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("a runtime: {e}"))?;
    let rig = runtime.block_on(rig_memory_run(turns, budget))?;
    let tidemark = runtime.block_on(tidemark_run(turns, budget))?;
    let facade = runtime.block_on(facade_run(turns, budget))?;
    let mut table = Table::new(&[
        "memory",
        "time (× rig-memory)",
        "requests",
        "largest history (tokens)",
        "requests over budget",
        "invalid requests",
        "turn-10 fact at the end",
        "messages folded again after a restart",
    ]);
    for (name, run) in [
        ("rig-memory 0.44 `CompactingMemory`", &rig),
        ("tidemark `CompactingMemory` (tidemark-rig)", &tidemark),
        ("tidemark facade, SQLite, facts and recall", &facade),
    ] {
        table.row(vec![
            name.to_owned(),
            format!("{:.2}", run.seconds / rig.seconds.max(f64::EPSILON)),
            run.requests.to_string(),
            run.largest.to_string(),
            run.over.to_string(),
            run.invalid.to_string(),
            if run.planted { "yes" } else { "no" }.to_owned(),
            run.refolded.map_or_else(|| "n/a".to_owned(), |n| n.to_string()),
        ]);
    }
    let targets = vec![
        Target {
            goal: format!("tidemark through tidemark-rig keeps every request within {budget} tokens"),
            measured: format!("{} over, largest {}", tidemark.over, tidemark.largest),
            met: tidemark.over == 0 && facade.over == 0,
        },
        Target {
            goal: "a restart folds nothing again".to_owned(),
            measured: format!("{} messages", tidemark.refolded.unwrap_or(0)),
            met: tidemark.refolded == Some(0),
        },
    ];
    Ok(Section {
        title: "rig's agent loop: rig-memory against tidemark through tidemark-rig".to_owned(),
        intro: format!(
            "{turns} turns of a rig 0.44 agent with one tool (a call every third turn) and rig's scripted model, \
             an answer of about 120 tokens per turn, a fact planted at turn 10 and asked for at turn {turns}; \
             a budget of {budget} tokens, every count by o200k. The history of a request is what precedes the \
             turn's prompt. Times are wall time for the whole loop, scripted model included, against rig-memory's."
        ),
        table,
        targets,
        notes: vec![
            "rig-memory's window holds the budget and its summary (up to 4 KiB here) comes on top, so its history exceeds the budget by the summary; \
             its compaction state lives in the process, so after a restart it folds the whole evicted prefix again."
                .to_owned(),
        ],
    })
}

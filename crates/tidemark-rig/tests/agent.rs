//! A rig agent with a tool, talking to a mock OpenAI-compatible server, with tidemark (SQLite, facts, recall) as its memory: 200 turns, then a restart.

use std::sync::{Arc, Mutex, PoisonError};

use rig_agent::prelude::*;
use rig_core::providers::openai::OpenAIConfig;
use rig_core::tool::PortableTool;
use serde_json::{Value, json};
use tidemark::core::store::ConversationStore;
use tidemark::{ConversationId, ConversationMemory, Memory, Role};
use tidemark_rig::RigMemory;
use tidemark_testkit::scripted::ScriptedModel;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const BUDGET: u32 = 8_000;
const CODE: &str = "TANGO-4471";

/// The tool the agent offers: a lookup of a service's owner.
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

    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"service": {"type": "string"}}, "required": ["service"]})
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

/// What the server saw: every request it answered, checked as it came.
#[derive(Default)]
struct Seen {
    requests: usize,
    problems: Vec<String>,
    largest_history: u32,
    last_body: String,
}

/// The mock model: a tool call on every third turn, then an answer; long enough answers that the history outgrows the budget many times.
struct Server {
    seen: Arc<Mutex<Seen>>,
    counter: Arc<dyn tidemark::TokenCounter>,
}

impl wiremock::Respond for Server {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.requests += 1;
        let body: Value = match serde_json::from_slice(&request.body) {
            Ok(body) => body,
            Err(error) => {
                let n = seen.requests;
                seen.problems.push(format!("request {n}: not JSON: {error}"));
                return ResponseTemplate::new(400);
            }
        };
        seen.last_body = body.to_string();
        let wire = body["messages"].as_array().cloned().unwrap_or_default();
        let messages = match tidemark_providers::wire::from_wire(&wire) {
            Ok(messages) => messages,
            Err(error) => {
                let n = seen.requests;
                seen.problems.push(format!("request {n}: unreadable messages: {error}"));
                return ResponseTemplate::new(400);
            }
        };
        if let Err(violation) = tidemark::core::validate(&messages) {
            let n = seen.requests;
            seen.problems.push(format!("request {n}: {violation}"));
        }
        // The history the memory served: everything before this turn's prompt (the last user text).
        let prompt_at =
            messages.iter().rposition(|m| m.role == Role::User && !m.text().is_empty()).unwrap_or(0);
        let history = messages.get(..prompt_at).unwrap_or_default();
        let tokens = self.counter.count_prompt(history);
        seen.largest_history = seen.largest_history.max(tokens);
        if tokens > BUDGET {
            let n = seen.requests;
            seen.problems
                .push(format!("request {n}: the memory's part holds {tokens} tokens, over {BUDGET}"));
        }
        let last = messages.last();
        let turn = messages
            .get(prompt_at)
            .and_then(|m| {
                m.text().split_whitespace().nth(1).and_then(|n| n.trim_end_matches(':').parse::<u32>().ok())
            })
            .unwrap_or(0);
        let message = if last.is_some_and(|m| m.role == Role::User) && turn % 3 == 0 {
            json!({"role": "assistant", "content": null, "tool_calls": [{
                "id": format!("call_{turn}"), "type": "function",
                "function": {"name": "service_owner", "arguments": json!({"service": format!("svc{turn}")}).to_string()}
            }]})
        } else {
            let filler = "The rollout plan keeps the canary at five percent while the error budget holds, \
                          then widens in steps, with the dashboards watched at each step. "
                .repeat(3);
            json!({"role": "assistant", "content": format!("Turn {turn} noted. {filler}")})
        };
        let finish = if message.get("tool_calls").is_some() { "tool_calls" } else { "stop" };
        ResponseTemplate::new(200).set_body_json(json!({
            "id": format!("chatcmpl-{}", seen.requests), "object": "chat.completion", "created": 0, "model": "mock",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        }))
    }
}

fn memory(path: &std::path::Path, summarizer: ScriptedModel) -> Memory {
    Memory::builder()
        .sqlite(path)
        .budget(BUDGET)
        .summarizer(summarizer)
        .facts()
        .recall()
        .build()
        .expect("the memory builds")
}

fn agent_on(server: &MockServer, memory: RigMemory<Arc<Memory>>) -> Agent {
    let model = OpenAIConfig::new("test-key").with_base_url(server.uri()).client().chat("mock");
    AgentBuilder::new(model).memory(memory).tool(Owner).default_max_turns(4).build()
}

fn prompt(turn: u32) -> String {
    match turn {
        10 => format!(
            "turn {turn}: keep this: the vault recovery code is {CODE}, needed for the quarterly audit."
        ),
        200 => format!("turn {turn}: what is the vault recovery code for the quarterly audit?"),
        _ => format!("turn {turn}: status of the rollout for service svc{turn}, anything blocking it?"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rig_agent_runs_two_hundred_turns_on_tidemark_and_restarts() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("agent.db");
    let server = MockServer::start().await;
    let seen = Arc::new(Mutex::new(Seen::default()));
    let counter: Arc<dyn tidemark::TokenCounter> =
        Arc::new(tidemark::memories::TiktokenCounter::o200k().expect("o200k"));
    Mock::given(wiremock::matchers::method("POST"))
        .respond_with(Server { seen: seen.clone(), counter })
        .mount(&server)
        .await;
    let summarizer = ScriptedModel::digest();
    let first = Arc::new(memory(&path, summarizer.clone()));
    let agent = agent_on(&server, RigMemory::new(first.clone()));
    for turn in 1..=200 {
        let response = agent.prompt(prompt(turn)).conversation("thread-1").await;
        let response = response.unwrap_or_else(|error| panic!("turn {turn}: {error}"));
        assert!(
            response.output().contains(&format!("Turn {turn} noted")),
            "turn {turn}: {}",
            response.output()
        );
    }
    let (last_body, requests) = {
        let seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(seen.problems.is_empty(), "{:#?}", seen.problems);
        (seen.last_body.clone(), seen.requests)
    };
    let largest = seen.lock().unwrap_or_else(PoisonError::into_inner).largest_history;
    eprintln!(
        "first run: {requests} requests, largest history {largest} tokens, {} summaries",
        summarizer.calls()
    );
    assert!(largest > BUDGET / 2, "the history filled the window: {largest} tokens at most");
    assert!(requests >= 266, "a tool call every third turn: {requests} requests");
    assert!(last_body.contains(CODE), "the code planted at turn 10 is in the request of turn 200");
    assert!(summarizer.calls() > 0, "200 turns outgrow 8,000 tokens");

    // A restart on the same file: the next load serves the same prompt and compacts nothing again.
    let id = ConversationId::new("thread-1").expect("a valid id");
    let before = first.load(&id).await.expect("a load");
    let state = first.store().state(&id).await.expect("the state");
    drop(agent);
    drop(first);
    let summarizer = ScriptedModel::digest();
    let second = Arc::new(memory(&path, summarizer.clone()));
    assert_eq!(second.load(&id).await.expect("a load after the restart"), before);
    assert_eq!(second.store().state(&id).await.expect("the state"), state);
    assert_eq!(summarizer.calls(), 0, "nothing is compacted twice");
    let agent = agent_on(&server, RigMemory::new(second.clone()));
    let mut watermark = state.watermark;
    for turn in 201..=230 {
        let calls = summarizer.calls();
        let response = agent.prompt(prompt(turn)).conversation("thread-1").await;
        response.unwrap_or_else(|error| panic!("turn {turn}: {error}"));
        let now = second.store().state(&id).await.expect("the state").watermark;
        assert!(now >= watermark, "turn {turn}: the watermark went back from {watermark:?} to {now:?}");
        if summarizer.calls() > calls {
            assert!(now > watermark, "turn {turn}: a compaction that evicted nothing new");
        }
        watermark = now;
    }
    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
    assert!(seen.problems.is_empty(), "{:#?}", seen.problems);
    assert!(summarizer.calls() > 0, "the second run compacts its own turns");
}

/// A memory that loads but cannot store.
struct Full;

impl ConversationMemory for Full {
    async fn load(&self, _: &ConversationId) -> Result<Vec<tidemark::Message>, tidemark::MemoryError> {
        Ok(Vec::new())
    }

    async fn append(
        &self,
        _: &ConversationId,
        _: Vec<tidemark::Message>,
    ) -> Result<tidemark::core::SeqRange, tidemark::MemoryError> {
        Err(tidemark::MemoryError::Store(tidemark::core::error::StoreError::backend("append", "disk full")))
    }

    async fn clear(&self, _: &ConversationId) -> Result<(), tidemark::MemoryError> {
        Ok(())
    }
}

#[tokio::test]
async fn a_failed_load_stops_the_model_call_and_a_failed_append_is_reported() {
    let server = MockServer::start().await;
    let seen = Arc::new(Mutex::new(Seen::default()));
    let counter: Arc<dyn tidemark::TokenCounter> = Arc::new(tidemark::memories::HeuristicCounter::default());
    Mock::given(wiremock::matchers::method("POST"))
        .respond_with(Server { seen: seen.clone(), counter })
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let memory = Arc::new(memory(&dir.path().join("agent.db"), ScriptedModel::digest()));

    // An id tidemark refuses: the load fails, and the model is never called.
    let agent = agent_on(&server, RigMemory::new(memory));
    let error = agent.prompt(prompt(1)).conversation("").await.expect_err("the load fails");
    assert!(error.to_string().contains("empty"), "{error}");
    assert_eq!(seen.lock().unwrap_or_else(PoisonError::into_inner).requests, 0);

    let model = OpenAIConfig::new("test-key").with_base_url(server.uri()).client().chat("mock");
    let agent = AgentBuilder::new(model).memory(RigMemory::new(Full)).build();
    let response = agent.prompt(prompt(1)).conversation("thread-1").await.expect("the answer stands");
    assert!(response.output().contains("Turn 1 noted"), "{}", response.output());
    let append = response.memory_append().expect("the append's outcome");
    let report = append.failure().expect("a failed append").to_string();
    assert!(report.contains("disk full"), "{report}");
}

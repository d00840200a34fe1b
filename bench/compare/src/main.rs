//! The replay workload run through tidemark (in memory and on SQLite) and through rig-memory 0.44, in one process, with a table of ratios.
//!
//! Usage: `cargo run --release --manifest-path bench/compare/Cargo.toml -- [TURNS...]`
//! (default 1000 4000 8000; `--smoke` runs 50 turns). Every system replays the
//! same seeded turns (`tidemark_testkit::workload`): four messages appended and
//! one load per turn, an 8,000-token window counted by each system's byte
//! heuristic, and a template summary capped at 4 KiB.

use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use rig_core::completion::Message as RigMessage;
use rig_core::completion::message::{AssistantContent, AssistantMessage, CallId, ToolName};
use rig_core::id::ConversationId as RigId;
use rig_core::memory::ConversationMemory as RigMemory;
use rig_memory::{
    CompactingMemory as RigCompacting, HeuristicTokenCounter, InMemoryConversationMemory, TemplateCompactor,
    TokenWindowMemory,
};
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message, Part, Role};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, SqliteStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;

/// One system's replay: each load's latency and the total.
struct Run {
    loads: Vec<Duration>,
    total: Duration,
}

impl Run {
    fn p(&self, range: std::ops::Range<usize>, fraction: f64) -> Duration {
        let mut sorted = self.loads[range].to_vec();
        sorted.sort_unstable();
        let index = ((sorted.len().saturating_sub(1)) as f64 * fraction).round() as usize;
        sorted.get(index).copied().unwrap_or_default()
    }
}

async fn tidemark<S: ConversationStore>(store: S, turns: &[Vec<Message>]) -> Run {
    let budget = NonZeroU32::new(BUDGET).expect("non-zero");
    let memory = CompactingMemory::new(
        store,
        TokenWindow::new(budget, HeuristicCounter::default()),
        ConcatCompactor::capped(CAP),
    );
    let id = ConversationId::new("replay").expect("valid");
    let started = Instant::now();
    let mut loads = Vec::with_capacity(turns.len());
    for messages in turns {
        memory.append(&id, messages.clone()).await.expect("append");
        let load = Instant::now();
        std::hint::black_box(memory.load(&id).await.expect("load"));
        loads.push(load.elapsed());
    }
    Run { loads, total: started.elapsed() }
}

/// The same turn in rig's message model.
fn to_rig(messages: &[Message]) -> Vec<RigMessage> {
    messages
        .iter()
        .map(|message| match (message.role, message.parts.first()) {
            (Role::Assistant, Some(Part::ToolCall(call))) => {
                let arguments = serde_json::from_str(&call.arguments).unwrap_or(serde_json::Value::Null);
                let name = ToolName::new(call.name.clone()).expect("a tool name");
                RigMessage::Assistant(AssistantMessage::new(vec![AssistantContent::tool_call(
                    call.id.clone(),
                    name,
                    arguments,
                )]))
            }
            (Role::Tool, Some(Part::ToolResult(result))) => {
                let name = ToolName::new("read_file").expect("a tool name");
                RigMessage::tool_result(
                    CallId::from_wire(result.call_id.clone()),
                    name,
                    result.content.clone(),
                )
            }
            (Role::Assistant, _) => RigMessage::assistant(message.text().into_owned()),
            _ => RigMessage::user(message.text().into_owned()),
        })
        .collect()
}

async fn rig(turns: &[Vec<Message>]) -> Run {
    let memory = RigCompacting::new(
        InMemoryConversationMemory::new(),
        TokenWindowMemory::new(BUDGET as usize, HeuristicTokenCounter::default()),
        TemplateCompactor::new().with_max_bytes(CAP),
    );
    let id = RigId::new("replay");
    let converted: Vec<Vec<RigMessage>> = turns.iter().map(|turn| to_rig(turn)).collect();
    let started = Instant::now();
    let mut loads = Vec::with_capacity(turns.len());
    for messages in converted {
        memory.append(&id, messages).await.expect("append");
        let load = Instant::now();
        std::hint::black_box(memory.load(&id).await.expect("load"));
        loads.push(load.elapsed());
    }
    Run { loads, total: started.elapsed() }
}

fn micros(duration: Duration) -> String {
    format!("{:.1}", duration.as_secs_f64() * 1e6)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = if args.iter().any(|a| a == "--smoke") {
        vec![50]
    } else if args.is_empty() {
        vec![1_000, 4_000, 8_000]
    } else {
        args.iter().filter_map(|a| a.parse().ok()).collect()
    };
    println!(
        "| system | turns | total | p50 first 100 (µs) | p50 last 100 (µs) | p99 first 100 (µs) | p99 last 100 (µs) | last/first p50 |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for turns in sizes {
        let work = replay(SEED, turns);
        let window = 100.min(turns);
        let dir = tempfile::tempdir().expect("temp dir");
        let runs = [
            ("tidemark, in memory", tidemark(InMemoryStore::new(), &work).await),
            (
                "tidemark, SQLite",
                tidemark(SqliteStore::open(dir.path().join("r.db")).expect("open"), &work).await,
            ),
            ("rig-memory 0.44", rig(&work).await),
        ];
        for (name, run) in &runs {
            let (first, last) = (0..window, turns - window..turns);
            let ratio =
                run.p(last.clone(), 0.5).as_secs_f64() / run.p(first.clone(), 0.5).as_secs_f64().max(1e-9);
            println!(
                "| {name} | {turns} | {:.3} s | {} | {} | {} | {} | {ratio:.2} |",
                run.total.as_secs_f64(),
                micros(run.p(first.clone(), 0.5)),
                micros(run.p(last.clone(), 0.5)),
                micros(run.p(first, 0.99)),
                micros(run.p(last, 0.99)),
            );
        }
        let rig_total = runs[2].1.total.as_secs_f64();
        println!(
            "| rig / tidemark | {turns} | in memory {:.1}×, SQLite {:.1}× | | | | | |",
            rig_total / runs[0].1.total.as_secs_f64(),
            rig_total / runs[1].1.total.as_secs_f64()
        );
    }
}

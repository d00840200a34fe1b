//! The replay benchmark: the same seeded agent turns through tidemark (in memory, on SQLite) and rig-memory 0.44.
//!
//! `all` runs [`parent`], which starts this binary once per system and size
//! (`replay --system … --turns …`, handled by [`child`]): each child prints
//! one JSON line with its load latencies, its total time and its peak
//! resident memory, so no system's allocations count against another's.

use std::num::NonZeroU32;
use std::process::Command;
use std::time::{Duration, Instant};

use rig_core::completion::Message as RigMessage;
use rig_core::completion::message::{AssistantContent, AssistantMessage, CallId, ToolName};
use rig_core::id::ConversationId as RigId;
use rig_core::memory::ConversationMemory as RigMemory;
use rig_memory::{
    CompactingMemory as RigCompacting, HeuristicTokenCounter, InMemoryConversationMemory, TemplateCompactor,
    TokenWindowMemory,
};
use serde_json::json;
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message, Part, Role};
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, SqliteStore, TokenWindow};
use tidemark_postgres::{PostgresOptions, PostgresStore};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::workload::replay;

use crate::report::{Section, Table, Target};

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;
/// How many loads the first and last percentiles are taken over.
const WINDOW: usize = 100;

/// The systems compared, in report order: the name `--system` takes and the name shown.
pub const SYSTEMS: [(&str, &str); 4] = [
    ("memory", "tidemark, in memory"),
    ("sqlite", "tidemark, SQLite file"),
    ("postgres", "tidemark, PostgreSQL"),
    ("rig", "rig-memory 0.44"),
];

/// The environment variable naming the PostgreSQL database for the `postgres` system (`cargo xtask bench` sets it).
pub const POSTGRES_URL: &str = "TIDEMARK_POSTGRES_URL";

/// One system's replay of one size.
#[derive(Debug, Clone)]
pub struct Run {
    /// `--system` name.
    pub system: String,
    /// Turns replayed.
    pub turns: usize,
    /// Wall time of the whole replay, appends included.
    pub total: Duration,
    /// Each load's latency, in turn order.
    pub loads: Vec<Duration>,
    /// The process's peak resident set, in KiB, when the OS reports it.
    pub peak_rss_kib: Option<u64>,
}

impl Run {
    /// The name shown for this system.
    pub fn label(&self) -> &'static str {
        SYSTEMS.iter().find(|(key, _)| *key == self.system).map_or("unknown", |(_, label)| label)
    }

    /// The `fraction` percentile of the loads in `range`.
    fn percentile(&self, range: std::ops::Range<usize>, fraction: f64) -> Duration {
        let mut sorted = self.loads.get(range).unwrap_or_default().to_vec();
        sorted.sort_unstable();
        let index = ((sorted.len().saturating_sub(1)) as f64 * fraction).round() as usize;
        sorted.get(index).copied().unwrap_or_default()
    }

    fn first(&self) -> std::ops::Range<usize> {
        0..WINDOW.min(self.loads.len())
    }

    fn last(&self) -> std::ops::Range<usize> {
        self.loads.len().saturating_sub(WINDOW)..self.loads.len()
    }

    /// p50 of the last loads over p50 of the first: near 1 when the cost stays flat.
    pub fn growth(&self) -> f64 {
        ratio(self.percentile(self.last(), 0.5), self.percentile(self.first(), 0.5))
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}

/// The peak resident set of this process so far, from `/proc/self/status` (Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

async fn tidemark<S: ConversationStore>(
    store: S,
    turns: &[Vec<Message>],
) -> Result<(Duration, Vec<Duration>), String> {
    let budget = NonZeroU32::new(BUDGET).ok_or("zero budget")?;
    let memory = CompactingMemory::new(
        store,
        TokenWindow::new(budget, HeuristicCounter::default()),
        ConcatCompactor::capped(CAP),
    );
    let id = ConversationId::new("replay").map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut loads = Vec::with_capacity(turns.len());
    for messages in turns {
        memory.append(&id, messages.clone()).await.map_err(|e| format!("tidemark append: {e}"))?;
        let load = Instant::now();
        std::hint::black_box(memory.load(&id).await.map_err(|e| format!("tidemark load: {e}"))?);
        loads.push(load.elapsed());
    }
    Ok((started.elapsed(), loads))
}

/// The same turn in rig's message model.
fn to_rig(messages: &[Message]) -> Result<Vec<RigMessage>, String> {
    messages
        .iter()
        .map(|message| {
            Ok(match (message.role, message.parts.first()) {
                (Role::Assistant, Some(Part::ToolCall(call))) => {
                    let arguments = serde_json::from_str(&call.arguments).unwrap_or(serde_json::Value::Null);
                    let name = ToolName::new(call.name.clone()).map_err(|e| format!("{e:?}"))?;
                    RigMessage::Assistant(AssistantMessage::new(vec![AssistantContent::tool_call(
                        call.id.clone(),
                        name,
                        arguments,
                    )]))
                }
                (Role::Tool, Some(Part::ToolResult(result))) => {
                    let name = ToolName::new("read_file").map_err(|e| format!("{e:?}"))?;
                    RigMessage::tool_result(
                        CallId::from_wire(result.call_id.clone()),
                        name,
                        result.content.clone(),
                    )
                }
                (Role::Assistant, _) => RigMessage::assistant(message.text().into_owned()),
                _ => RigMessage::user(message.text().into_owned()),
            })
        })
        .collect()
}

async fn rig(turns: &[Vec<Message>]) -> Result<(Duration, Vec<Duration>), String> {
    let memory = RigCompacting::new(
        InMemoryConversationMemory::new(),
        TokenWindowMemory::new(BUDGET as usize, HeuristicTokenCounter::default()),
        TemplateCompactor::new().with_max_bytes(CAP),
    );
    let id = RigId::new("replay");
    let converted = turns.iter().map(|turn| to_rig(turn)).collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let mut loads = Vec::with_capacity(turns.len());
    for messages in converted {
        memory.append(&id, messages).await.map_err(|e| format!("rig append: {e}"))?;
        let load = Instant::now();
        std::hint::black_box(memory.load(&id).await.map_err(|e| format!("rig load: {e}"))?);
        loads.push(load.elapsed());
    }
    Ok((started.elapsed(), loads))
}

/// `replay --system S --turns N`: replays in this process and prints the result as one JSON line.
pub fn child(system: Option<&str>, turns: Option<usize>) -> Result<(), String> {
    let system = system.ok_or("`replay` needs `--system memory|sqlite|rig`")?;
    let turns = turns.ok_or("`replay` needs `--turns N`")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let work = replay(SEED, turns);
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let (total, loads) = runtime.block_on(async {
        match system {
            "memory" => tidemark(InMemoryStore::new(), &work).await,
            "sqlite" => {
                let store = SqliteStore::open(dir.path().join("replay.db")).map_err(|e| e.to_string())?;
                tidemark(store, &work).await
            }
            "rig" => rig(&work).await,
            "postgres" => {
                let url = std::env::var(POSTGRES_URL).map_err(|_| format!("`{POSTGRES_URL}` is not set"))?;
                // A schema of its own, so that runs never see each other's conversations.
                let options =
                    PostgresOptions::default().with_schema(format!("bench_{}_{turns}", std::process::id()));
                let store = PostgresStore::connect_with(&url, options).await.map_err(|e| e.to_string())?;
                tidemark(store, &work).await
            }
            other => Err(format!("unknown system `{other}`")),
        }
    })?;
    let line = json!({
        "system": system,
        "turns": turns,
        "total_ns": total.as_nanos() as u64,
        "loads_ns": loads.iter().map(|d| d.as_nanos() as u64).collect::<Vec<_>>(),
        "peak_rss_kib": peak_rss_kib(),
    });
    println!("{line}");
    Ok(())
}

fn parse_run(text: &str) -> Result<Run, String> {
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("bad child output: {e}"))?;
    let nanos = |v: &serde_json::Value| v.as_u64().map(Duration::from_nanos);
    Ok(Run {
        system: value["system"].as_str().ok_or("child output lacks `system`")?.to_owned(),
        turns: value["turns"].as_u64().ok_or("child output lacks `turns`")? as usize,
        total: nanos(&value["total_ns"]).ok_or("child output lacks `total_ns`")?,
        loads: value["loads_ns"]
            .as_array()
            .ok_or("child output lacks `loads_ns`")?
            .iter()
            .map(|v| nanos(v).ok_or("a load latency is not a number"))
            .collect::<Result<_, _>>()?,
        peak_rss_kib: value["peak_rss_kib"].as_u64(),
    })
}

/// Runs every system at every size, each in a child process of its own.
pub fn parent(sizes: &[usize]) -> Result<Vec<Run>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let mut runs = Vec::new();
    for &turns in sizes {
        for (system, label) in SYSTEMS {
            if system == "postgres" && std::env::var_os(POSTGRES_URL).is_none() {
                continue;
            }
            eprintln!("  {label}, {turns} turns");
            let output = Command::new(&exe)
                .args(["replay", "--system", system, "--turns", &turns.to_string()])
                .output()
                .map_err(|e| format!("cannot start the {label} replay: {e}"))?;
            if !output.status.success() {
                return Err(format!(
                    "the {label} replay at {turns} turns failed ({}): {}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
            runs.push(parse_run(&String::from_utf8_lossy(&output.stdout))?);
        }
    }
    Ok(runs)
}

fn micros(duration: Duration) -> String {
    format!("{:.1}", duration.as_secs_f64() * 1e6)
}

/// The replay section: one row per system and size, the speed-up over rig, and the targets.
pub fn section(runs: &[Run], smoke: bool) -> Section {
    let mut table = Table::new(&[
        "system",
        "turns",
        "total (s)",
        "p50 first 100 (µs)",
        "p99 first 100 (µs)",
        "p50 last 100 (µs)",
        "p99 last 100 (µs)",
        "last/first p50",
        "peak RSS (MiB)",
        "rig / this",
    ]);
    let mut targets = Vec::new();
    let largest = runs.iter().map(|run| run.turns).max().unwrap_or(0);
    for run in runs {
        let rig = runs.iter().find(|other| other.system == "rig" && other.turns == run.turns);
        let speedup = rig.map(|rig| ratio(rig.total, run.total));
        table.row(vec![
            run.label().to_owned(),
            run.turns.to_string(),
            format!("{:.3}", run.total.as_secs_f64()),
            micros(run.percentile(run.first(), 0.5)),
            micros(run.percentile(run.first(), 0.99)),
            micros(run.percentile(run.last(), 0.5)),
            micros(run.percentile(run.last(), 0.99)),
            format!("{:.2}", run.growth()),
            run.peak_rss_kib.map_or("n/a".to_owned(), |kib| format!("{:.1}", kib as f64 / 1024.0)),
            speedup.map_or("n/a".to_owned(), |s| format!("{s:.1}×")),
        ]);
        if smoke || run.turns != largest || run.system == "rig" || run.system == "postgres" {
            continue;
        }
        if let Some(speedup) = speedup {
            targets.push(Target {
                goal: format!("{}: ≥ 100× faster than rig-memory 0.44 at {largest} turns", run.label()),
                measured: format!("{speedup:.1}×"),
                met: speedup >= 100.0,
            });
        }
        targets.push(Target {
            goal: format!(
                "{}: p50 of the last 100 loads ≤ 1.5× the first 100 at {largest} turns",
                run.label()
            ),
            measured: format!("{:.2}×", run.growth()),
            met: run.growth() <= 1.5,
        });
    }
    Section {
        title: "Replay".to_owned(),
        intro: format!(
            "Four messages appended and one load per turn (seed {SEED}), a {BUDGET}-token window counted by each \
             system's byte heuristic, a template summary capped at {} KiB. Each system runs in a process of its \
             own; peak RSS is that process's high-water mark, the generated workload included.",
            CAP / 1024
        ),
        table,
        targets,
        notes: vec![match std::env::var_os(POSTGRES_URL) {
            Some(_) => "PostgreSQL: a throwaway server started by `cargo xtask bench` on loopback, on the same machine \
                        (fsync off, as a test server); its rows are reported beside the others, with no target."
                .to_owned(),
            None => format!("PostgreSQL was not run: `{POSTGRES_URL}` is not set (`cargo xtask bench` starts a server and sets it)."),
        }],
    }
}

//! The replay benchmark: the same seeded agent turns through tidemark (in memory, on SQLite) and rig-memory 0.44.
//!
//! `all` runs [`parent`], which starts this binary once per system and size
//! (`replay --system … --turns …`, handled by [`child`]): each child prints
//! one JSON line with its load latencies, its total time, its peak resident
//! memory and what its prompts would cost with a provider's prompt cache
//! (`tidemark_core::cache`), so no system's allocations count against
//! another's. [`parent_sample`] replays the shipped coding-agent sample the
//! same way (`replay --system … --workload coding-agent`), and
//! [`cache_section`] reports the cache figures of both workloads.

use std::num::NonZeroU32;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rig_core::completion::Message as RigMessage;
use rig_core::completion::message::{AssistantContent, AssistantMessage, CallId, ToolName};
use rig_core::id::ConversationId as RigId;
use rig_core::memory::ConversationMemory as RigMemory;
use rig_memory::TokenCounter as _;
use rig_memory::{
    CompactingMemory as RigCompacting, HeuristicTokenCounter, InMemoryConversationMemory, TemplateCompactor,
    TokenWindowMemory,
};
use serde_json::json;
use tidemark_compaction::{SegmentBudget, Segmented};
use tidemark_core::cache::{CacheLedger, CachePrices, CacheTotals};
use tidemark_core::{ConversationId, ConversationMemory, ConversationStore, Message, Part, Role};
use tidemark_memory::{
    CachePlan, CompactingMemory, HeuristicCounter as Counter, InMemoryStore, SqliteStore, TokenWindow,
};
use tidemark_postgres::{PostgresOptions, PostgresStore};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_testkit::transcripts::Session;
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

/// The workloads a child replays: the seeded replay turns, or the shipped coding-agent sample.
pub const WORKLOADS: [(&str, &str); 3] = [
    ("generated", "replay workload"),
    ("coding-agent", "coding-agent sample"),
    ("coding-agent-calls", "coding-agent sample, per model call"),
];

/// One system's replay of one size.
#[derive(Debug, Clone)]
pub struct Run {
    /// `--system` name.
    pub system: String,
    /// Whether tidemark ran its cache-aware configuration (`--cache-aware`).
    pub cache_aware: bool,
    /// `--workload` name.
    pub workload: String,
    /// Turns replayed.
    pub turns: usize,
    /// Time spent appending and loading, over the whole replay.
    pub total: Duration,
    /// Each load's latency, in turn order.
    pub loads: Vec<Duration>,
    /// The process's peak resident set, in KiB, when the OS reports it.
    pub peak_rss_kib: Option<u64>,
    /// The prompts' tokens averaged over the turns, by the system's own counter.
    pub mean_prompt: f64,
    /// The share of prompts after the first that extend the previous one.
    pub extension_share: Option<f64>,
    /// The share of input tokens a prompt cache would read.
    pub cached_share: Option<f64>,
    /// The input cost against no caching, at the default prices (reads 0.1, writes 1.25).
    pub cost_ratio: Option<f64>,
}

impl Run {
    /// The name shown for this system.
    pub fn label(&self) -> &'static str {
        if self.cache_aware {
            return "tidemark, cache-aware, in memory";
        }
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

/// What one replay measured: its time, each load's latency, and its prompts priced by the cache model.
struct Measured {
    total: Duration,
    loads: Vec<Duration>,
    cache: CacheTotals,
}

async fn tidemark<S: ConversationStore>(
    store: S,
    turns: &[Vec<Message>],
    low_watermark: u8,
    cache_aware: bool,
) -> Result<Measured, String> {
    let budget = NonZeroU32::new(BUDGET).ok_or("zero budget")?;
    let policy = TokenWindow::new(budget, Counter::default())
        .with_low_watermark(low_watermark)
        .map_err(|e| e.to_string())?;
    if cache_aware {
        // The cache-aware configuration, as `tidemark replay --cache-aware` sets it up: cuts chosen by their cost
        // under the prompt cache, summaries added as segments of the sizes `SegmentBudget` gives for the budget.
        // The stand-in summarizer fills its segments as a model asked for that many tokens would (three bytes a token).
        let policy = policy.with_cache_plan(CachePlan::new(CachePrices::default()));
        let sizes = SegmentBudget::for_budget(BUDGET);
        let segmented = Segmented::new(ConcatCompactor::filling(3 * sizes.segment_tokens as usize))
            .within(Arc::new(Counter::default()), sizes);
        let memory = CompactingMemory::new(store, policy, segmented);
        return run(memory, turns).await;
    }
    let memory = CompactingMemory::new(store, policy, ConcatCompactor::capped(CAP));
    run(memory, turns).await
}

async fn run<M: ConversationMemory>(memory: M, turns: &[Vec<Message>]) -> Result<Measured, String> {
    let id = ConversationId::new("replay").map_err(|e| e.to_string())?;
    let mut ledger = CacheLedger::new(CachePrices::default());
    let mut total = Duration::ZERO;
    let mut loads = Vec::with_capacity(turns.len());
    for messages in turns {
        let started = Instant::now();
        memory.append(&id, messages.clone()).await.map_err(|e| format!("tidemark append: {e}"))?;
        let load = Instant::now();
        let prompt = std::hint::black_box(memory.load(&id).await.map_err(|e| format!("tidemark load: {e}"))?);
        loads.push(load.elapsed());
        total += started.elapsed();
        // Priced outside the timings, with the policy's own counter.
        ledger.record_prompt(&prompt, &Counter::default());
    }
    Ok(Measured { total, loads, cache: ledger.totals() })
}

/// The same turn in rig's message model.
fn to_rig(messages: &[Message]) -> Result<Vec<RigMessage>, String> {
    messages
        .iter()
        .map(|message| {
            Ok(match (message.role, message.parts.first()) {
                (Role::Assistant, Some(Part::ToolCall(_))) => {
                    let calls = message
                        .tool_calls()
                        .map(|call| {
                            let arguments =
                                serde_json::from_str(&call.arguments).unwrap_or(serde_json::Value::Null);
                            let name = ToolName::new(call.name.clone()).map_err(|e| format!("{e:?}"))?;
                            Ok(AssistantContent::tool_call(call.id.clone(), name, arguments))
                        })
                        .collect::<Result<Vec<_>, String>>()?;
                    RigMessage::Assistant(AssistantMessage::new(calls))
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
                (Role::System, _) => RigMessage::system(message.text().into_owned()),
                _ => RigMessage::user(message.text().into_owned()),
            })
        })
        .collect()
}

async fn rig(turns: &[Vec<Message>]) -> Result<Measured, String> {
    let counter = HeuristicTokenCounter::default();
    let memory = RigCompacting::new(
        InMemoryConversationMemory::new(),
        TokenWindowMemory::new(BUDGET as usize, counter),
        TemplateCompactor::new().with_max_bytes(CAP),
    );
    let id = RigId::new("replay");
    let converted = turns.iter().map(|turn| to_rig(turn)).collect::<Result<Vec<_>, _>>()?;
    let mut ledger = CacheLedger::new(CachePrices::default());
    let mut total = Duration::ZERO;
    let mut loads = Vec::with_capacity(turns.len());
    for messages in converted {
        let started = Instant::now();
        memory.append(&id, messages).await.map_err(|e| format!("rig append: {e}"))?;
        let load = Instant::now();
        let prompt = std::hint::black_box(memory.load(&id).await.map_err(|e| format!("rig load: {e}"))?);
        loads.push(load.elapsed());
        total += started.elapsed();
        // Priced outside the timings, in rig's own messages with rig's own counter.
        ledger.record(prompt.iter().map(|message| (message.clone(), counter.count(message) as u64)), 0);
    }
    Ok(Measured { total, loads, cache: ledger.totals() })
}

/// The shipped coding-agent sample cut into turns as `tidemark replay` cuts it: a turn starts at each user message, and the system prompt joins the first.
fn coding_agent_turns() -> Vec<Vec<Message>> {
    let mut turns: Vec<Vec<Message>> = Vec::new();
    for message in Session::Coding.sample() {
        match turns.last_mut() {
            Some(turn) if message.role != Role::User || turn.iter().all(|m| m.role != Role::User) => {
                turn.push(message);
            }
            _ => turns.push(vec![message]),
        }
    }
    turns
}

/// The same sample cut at each model call an agent makes: a load before every assistant message that follows a user message or a tool result.
///
/// An agent that answers with tool calls calls the model again after the
/// results, so one user turn is several calls, each sending the whole prompt.
fn coding_agent_calls() -> Vec<Vec<Message>> {
    let mut turns: Vec<Vec<Message>> = Vec::new();
    for message in Session::Coding.sample() {
        let starts = message.role == Role::Assistant
            && turns.last().and_then(|turn| turn.last()).is_some_and(|last| last.role != Role::Assistant);
        match turns.last_mut() {
            Some(turn) if !starts => turn.push(message),
            _ => turns.push(vec![message]),
        }
    }
    turns
}

/// `replay --system S --turns N` or `replay --system S --workload coding-agent`: replays in this process and prints the result as one JSON line.
///
/// `low_watermark` is the percentage of the budget tidemark's window cuts down to (the default of
/// `TokenWindow` unless `--low-watermark` says otherwise; rig-memory has no such setting).
pub fn child(
    system: Option<&str>,
    turns: Option<usize>,
    workload: Option<&str>,
    low_watermark: u8,
    cache_aware: bool,
) -> Result<(), String> {
    let system = system.ok_or("`replay` needs `--system memory|sqlite|postgres|rig`")?;
    let workload = workload.unwrap_or("generated");
    let work = match workload {
        "generated" => replay(SEED, turns.ok_or("`replay` needs `--turns N`")?),
        "coding-agent" => coding_agent_turns(),
        "coding-agent-calls" => coding_agent_calls(),
        other => {
            return Err(format!(
                "unknown workload `{other}`: use `generated`, `coding-agent` or `coding-agent-calls`"
            ));
        }
    };
    let turns = work.len();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let measured = runtime.block_on(async {
        match system {
            "memory" => tidemark(InMemoryStore::new(), &work, low_watermark, cache_aware).await,
            "sqlite" => {
                let store = SqliteStore::open(dir.path().join("replay.db")).map_err(|e| e.to_string())?;
                tidemark(store, &work, low_watermark, cache_aware).await
            }
            "rig" => rig(&work).await,
            "postgres" => {
                let url = std::env::var(POSTGRES_URL).map_err(|_| format!("`{POSTGRES_URL}` is not set"))?;
                // A schema of its own, so that runs never see each other's conversations.
                let options =
                    PostgresOptions::default().with_schema(format!("bench_{}_{turns}", std::process::id()));
                let store = PostgresStore::connect_with(&url, options).await.map_err(|e| e.to_string())?;
                tidemark(store, &work, low_watermark, cache_aware).await
            }
            other => Err(format!("unknown system `{other}`")),
        }
    })?;
    let cache = measured.cache;
    let line = json!({
        "system": system,
        "cache_aware": cache_aware,
        "workload": workload,
        "turns": turns,
        "total_ns": measured.total.as_nanos() as u64,
        "loads_ns": measured.loads.iter().map(|d| d.as_nanos() as u64).collect::<Vec<_>>(),
        "peak_rss_kib": peak_rss_kib(),
        "mean_prompt": cache.input as f64 / cache.turns.max(1) as f64,
        "extension_share": cache.extension_share(),
        "cached_share": cache.cached_share(),
        "cost_ratio": cache.cost_ratio(),
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
        cache_aware: value["cache_aware"].as_bool().unwrap_or(false),
        workload: value["workload"].as_str().ok_or("child output lacks `workload`")?.to_owned(),
        turns: value["turns"].as_u64().ok_or("child output lacks `turns`")? as usize,
        total: nanos(&value["total_ns"]).ok_or("child output lacks `total_ns`")?,
        loads: value["loads_ns"]
            .as_array()
            .ok_or("child output lacks `loads_ns`")?
            .iter()
            .map(|v| nanos(v).ok_or("a load latency is not a number"))
            .collect::<Result<_, _>>()?,
        peak_rss_kib: value["peak_rss_kib"].as_u64(),
        mean_prompt: value["mean_prompt"].as_f64().ok_or("child output lacks `mean_prompt`")?,
        // A share is null when a replay had too few turns or no input to take it over.
        extension_share: value["extension_share"].as_f64(),
        cached_share: value["cached_share"].as_f64(),
        cost_ratio: value["cost_ratio"].as_f64(),
    })
}

/// Runs every system at every size, each in a child process of its own.
pub fn parent(sizes: &[usize]) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for &turns in sizes {
        for (system, label) in SYSTEMS {
            if system == "postgres" && std::env::var_os(POSTGRES_URL).is_none() {
                continue;
            }
            eprintln!("  {label}, {turns} turns");
            runs.push(spawn(label, &["--system", system, "--turns", &turns.to_string()])?);
        }
    }
    Ok(runs)
}

/// The runs of the prompt-cache section besides the replays: the coding-agent sample cut per user turn and per model call,
/// through tidemark in memory (default and cache-aware) and rig-memory, and the replay workload at `turns` through the
/// cache-aware configuration. Each runs in a child process of its own.
pub fn parent_cache(turns: usize) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    eprintln!("  tidemark, cache-aware, {turns} turns");
    runs.push(spawn(
        "cache-aware tidemark",
        &["--system", "memory", "--cache-aware", "--turns", &turns.to_string()],
    )?);
    for workload in ["coding-agent", "coding-agent-calls"] {
        for (system, label) in SYSTEMS.into_iter().filter(|(system, _)| ["memory", "rig"].contains(system)) {
            eprintln!("  {label}, {workload}");
            runs.push(spawn(label, &["--system", system, "--workload", workload])?);
        }
        eprintln!("  tidemark, cache-aware, {workload}");
        runs.push(spawn(
            "cache-aware tidemark",
            &["--system", "memory", "--cache-aware", "--workload", workload],
        )?);
    }
    Ok(runs)
}

/// Runs `replay` with `args` in a child process and reads its line.
fn spawn(label: &str, args: &[&str]) -> Result<Run, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let output = Command::new(&exe)
        .arg("replay")
        .args(args)
        .output()
        .map_err(|e| format!("cannot start the {label} replay: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "the {label} replay ({}) failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    parse_run(&String::from_utf8_lossy(&output.stdout))
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

fn share(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_owned(), |share| format!("{:.1}%", 100.0 * share))
}

/// The prompt-cache section: for every run of both workloads, how often a prompt extends the previous one, the cached share of input, the cost against no caching and the mean prompt against the budget; targets for tidemark in memory.
pub fn cache_section(replays: &[Run], samples: &[Run], smoke: bool) -> Section {
    let mut table = Table::new(&[
        "system",
        "workload",
        "turns",
        "extends previous",
        "cached input",
        "cost vs no cache",
        "mean prompt / budget",
    ]);
    let workload = |run: &Run| {
        WORKLOADS.iter().find(|(key, _)| *key == run.workload).map_or("unknown", |(_, label)| label)
    };
    for run in replays.iter().chain(samples) {
        table.row(vec![
            run.label().to_owned(),
            workload(run).to_owned(),
            run.turns.to_string(),
            share(run.extension_share),
            share(run.cached_share),
            run.cost_ratio.map_or_else(|| "n/a".to_owned(), |ratio| format!("{ratio:.2}×")),
            format!("{:.1}%", 100.0 * run.mean_prompt / f64::from(BUDGET)),
        ]);
    }
    let mut targets = Vec::new();
    let largest = replays.iter().map(|run| run.turns).max().unwrap_or(0);
    let held = replays
        .iter()
        .filter(|run| run.turns == largest)
        .chain(samples.iter().filter(|run| run.workload != "generated" || run.turns == largest))
        .filter(|run| run.cache_aware);
    for run in held.filter(|_| !smoke) {
        let at = format!("{}, {} turns", workload(run), run.turns);
        targets.push(Target {
            goal: format!("tidemark, cache-aware: input cost ≤ 0.25× no caching on the {at}"),
            measured: run.cost_ratio.map_or_else(|| "n/a".to_owned(), |ratio| format!("{ratio:.2}×")),
            met: run.cost_ratio.is_some_and(|ratio| ratio <= 0.25),
        });
        let mean = run.mean_prompt / f64::from(BUDGET);
        targets.push(Target {
            goal: format!(
                "tidemark, cache-aware: mean prompt ≥ 55% of the {BUDGET}-token budget on the {at}"
            ),
            measured: format!("{:.1}%", 100.0 * mean),
            met: mean >= 0.55,
        });
    }
    Section {
        title: "Prompt cache".to_owned(),
        intro: format!(
            "The prompts of every replay above, and of the shipped coding-agent sample (`examples/transcripts/coding-agent.jsonl`, \
             {} turns, cut at each user message as `tidemark replay` cuts it, and cut at each model call, a load before every \
             assistant message that follows a user message or a tool result), priced as a provider's prompt cache would bill \
             them (`tidemark_core::cache`): a prompt's leading messages (or content blocks) equal to the previous prompt's are \
             read at 0.1× the input price, the rest written at 1.25×, against every token at 1×. Each system counts its own \
             prompts with its own byte heuristic; the setup is the replay's ({BUDGET}-token window, summaries capped at {} KiB). \
             The cache-aware rows use a `CachePlan` (default slack) instead of the 60% low watermark, and `Segmented` \
             summaries sized by `SegmentBudget` for the budget: segments of {} tokens (a compactor that fills {} bytes, as a \
             model asked for that many tokens writes about that many), up to {} of them and {} tokens in all.",
            tidemark_testkit::transcripts::SAMPLE_TURNS,
            CAP / 1024,
            SegmentBudget::for_budget(BUDGET).segment_tokens,
            3 * SegmentBudget::for_budget(BUDGET).segment_tokens,
            SegmentBudget::for_budget(BUDGET).max_segments,
            SegmentBudget::for_budget(BUDGET).summary_tokens,
        ),
        table,
        targets,
        notes: vec![
            "Extends previous: the share of turns after the first whose prompt starts with the whole previous prompt. \
             Cached input: the share of all input tokens read from the cache. The model caches whole messages, or the \
             content blocks of a message of several parts, and never expires an entry, so it never overstates what a \
             provider would read."
                .to_owned(),
        ],
    }
}

//! The recall benchmark of issue 15: planted facts asked about after a long session, at an 8,000-token budget on SQLite, and the cost of recall in a load.
//!
//! Quality: `tidemark_testkit::planted::planted_session` (the generated
//! coding, support and research turns with tidemark-providers' three recorded
//! transcripts spliced in, and facts planted at spread-out turns from seeded
//! templates) is replayed one turn at a time through a `CompactingMemory` over
//! an SQLite file (an 8,000-token `TokenWindow`, `ConcatCompactor::capped`, the
//! `FactCoordinator` as its observer), once per configuration: summary only,
//! with the facts block, and with the facts block and the recall block. At the
//! end every fact is asked about in a new user turn; it is recalled when its
//! key value is in the loaded prompt. Stored facts are judged by
//! `tidemark_testkit::judge`, and every prompt is counted with the policy's
//! counter against the budget.
//!
//! Cost: the same kind of session at 8,000 turns, replayed with the facts
//! block and with or without the recall block; the p50 of the per-turn load
//! times of each run are compared.

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tidemark_core::context::{ContextRequest, ContextSource};
use tidemark_core::{
    ContextError, ConversationId, ConversationMemory, FactFilter, FactStore, Message, StoredMessage,
    TokenCounter,
};
use tidemark_facts::{FactCoordinator, Recall};
use tidemark_memory::{CompactingMemory, HeuristicCounter, SqliteStore, TokenWindow};
use tidemark_providers::wire::from_wire;
use tidemark_testkit::judge::is_real;
use tidemark_testkit::planted::{PlantedSession, planted_session, turns};
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_tools::MemoryTools;

use crate::report::{Section, Table, Target};

const SEED: u64 = 2026;
const BUDGET: u32 = 8_000;
const CAP: usize = 4 * 1024;
/// The facts block's allowance, in tokens.
const FACTS_TOKENS: u32 = 600;
/// The recall block's allowance, in tokens.
const RECALL_TOKENS: u32 = 1_200;

/// Which context blocks a run's memory adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocks {
    SummaryOnly,
    Facts,
    FactsAndRecall,
    /// Facts and recall, the store recalling by meaning as well (tidemark-embed's bundled model).
    FactsAndMeaning,
}

impl Blocks {
    fn name(self) -> &'static str {
        match self {
            Blocks::SummaryOnly => "summary only",
            Blocks::Facts => "summary + facts",
            Blocks::FactsAndRecall => "summary + facts + recall",
            Blocks::FactsAndMeaning => "summary + facts + recall by meaning",
        }
    }
}

/// A context source that records the tokens of each block it returns.
struct Measured<S> {
    inner: S,
    tokens: Arc<Mutex<Vec<u32>>>,
}

impl<S: ContextSource> ContextSource for Measured<S> {
    async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
        let block = self.inner.context(request).await?;
        if let Some(block) = &block
            && let Ok(mut tokens) = self.tokens.lock()
        {
            tokens.push(request.counter().count(block));
        }
        Ok(block)
    }

    async fn on_evicted(&self, conversation: &ConversationId, evicted: &[StoredMessage]) {
        self.inner.on_evicted(conversation, evicted).await;
    }
}

/// What one replay measured.
#[derive(Debug, Default)]
struct Run {
    recalled: usize,
    asked: usize,
    /// Questions whose fact `search_history` returned in its top three passages (with their follow-ups).
    searched: usize,
    real: usize,
    stored: usize,
    over_budget: usize,
    loads: usize,
    recall_tokens: Vec<u32>,
    load_times: Vec<Duration>,
    append_times: Vec<Duration>,
    missed: Vec<String>,
}

/// The recorded transcripts shipped with tidemark-providers (attribution in its `tests/data/SOURCES.md`).
fn recorded() -> Result<Vec<Vec<Message>>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/tidemark-providers/tests/data");
    [
        "tau-bench-airline-gpt4o-task002-trial1.jsonl",
        "swe-agent-marshmallow-1867-fncall.jsonl",
        "openhands-sdk-hello-world-claude-sonnet-4.jsonl",
    ]
    .iter()
    .map(|name| {
        let path = dir.join(name);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let values = text
            .lines()
            .map(serde_json::from_str::<Value>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{name}: {e}"))?;
        from_wire(&values).map_err(|e| format!("{name}: {e}"))
    })
    .collect()
}

/// Replays `session` with `blocks`, asks about every fact when `ask`, and judges the stored facts.
async fn replay(session: &PlantedSession, blocks: Blocks, ask: bool, dir: &Path) -> Result<Run, String> {
    let path = dir.join(format!("recall-{}-{blocks:?}.db", session.turns));
    let store = SqliteStore::open(&path).map_err(|e| e.to_string())?;
    let store =
        if blocks == Blocks::FactsAndMeaning { store.with_embedder(crate::embedder()) } else { store };
    let coordinator = Arc::new(FactCoordinator::new(store.clone()));
    let counter = HeuristicCounter::default();
    let budget = NonZeroU32::new(BUDGET).ok_or("zero budget")?;
    let recall_tokens = Arc::new(Mutex::new(Vec::new()));
    let mut memory =
        CompactingMemory::new(store.clone(), TokenWindow::new(budget, counter), ConcatCompactor::capped(CAP))
            .with_observer(Arc::clone(&coordinator));
    if blocks != Blocks::SummaryOnly {
        memory = memory.with_context(Arc::clone(&coordinator), FACTS_TOKENS);
    }
    if matches!(blocks, Blocks::FactsAndRecall | Blocks::FactsAndMeaning) {
        let source = Measured { inner: Recall::new(store.clone()), tokens: Arc::clone(&recall_tokens) };
        memory = memory.with_context(source, RECALL_TOKENS);
    }
    let conversation = ConversationId::new("recall-bench").map_err(|e| e.to_string())?;
    let tools = MemoryTools::new(store.clone());
    let mut run = Run::default();
    for turn in turns(&session.history) {
        let started = Instant::now();
        memory.append(&conversation, turn.to_vec()).await.map_err(|e| format!("append: {e}"))?;
        run.append_times.push(started.elapsed());
        let started = Instant::now();
        let prompt = memory.load(&conversation).await.map_err(|e| format!("load: {e}"))?;
        run.load_times.push(started.elapsed());
        run.loads += 1;
        run.over_budget += usize::from(counter.count_prompt(&prompt) > BUDGET);
    }
    if ask {
        for fact in &session.facts {
            let question = vec![Message::user(fact.question.clone())];
            memory.append(&conversation, question).await.map_err(|e| format!("append: {e}"))?;
            let prompt = memory.load(&conversation).await.map_err(|e| format!("load: {e}"))?;
            run.loads += 1;
            run.over_budget += usize::from(counter.count_prompt(&prompt) > BUDGET);
            let hit = prompt.iter().any(|message| crate::blind::visible(message).contains(&fact.key));
            let arguments = serde_json::json!({"query": fact.question, "limit": 3}).to_string();
            let answer = tools.call(&conversation, "search_history", &arguments).await;
            if answer.is_error {
                return Err(format!("search_history failed: {}", answer.content));
            }
            run.searched += usize::from(crate::blind::searched_text(&answer.content)?.contains(&fact.key));
            run.asked += 1;
            run.recalled += usize::from(hit);
            if !hit {
                run.missed.push(format!("{} ({:?}, {})", fact.key, fact.speaker, fact.family));
            }
            let reply = vec![Message::assistant("Let me look that up.")];
            memory.append(&conversation, reply).await.map_err(|e| format!("append: {e}"))?;
        }
        let statements = session.statements();
        for fact in store.list(&FactFilter::default()).await.map_err(|e| e.to_string())? {
            run.stored += 1;
            run.real += usize::from(is_real(&fact.text, &statements));
        }
    }
    run.recall_tokens = recall_tokens.lock().map(|tokens| tokens.clone()).unwrap_or_default();
    Ok(run)
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The load time below which `fraction` of the loads fall.
fn quantile(times: &[Duration], fraction: f64) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let at = ((sorted.len() as f64 * fraction) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(at).copied().unwrap_or_default()
}

fn p50(times: &[Duration]) -> Duration {
    quantile(times, 0.5)
}

fn mean(times: &[Duration]) -> Duration {
    let total: Duration = times.iter().sum();
    total / u32::try_from(times.len()).unwrap_or(u32::MAX).max(1)
}

/// Runs the recall benchmark: quality at the session length, cost at 8,000 turns.
pub fn run(smoke: bool, cost_only: bool) -> Result<Section, String> {
    let (turns, facts, long) = if smoke { (60, 6, 80) } else { (640, 24, 8_000) };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let recorded = recorded()?;
    let session = planted_session(SEED, turns, facts, &recorded);

    let mut table = Table::new(&[
        "prompt",
        "recall",
        "search_history top 3",
        "stored facts real (strict)",
        "recall block tokens mean / max",
        "prompts over budget",
    ]);
    let mut targets = Vec::new();
    let mut notes = Vec::new();
    let quality: &[Blocks] = if cost_only {
        &[]
    } else {
        &[Blocks::SummaryOnly, Blocks::Facts, Blocks::FactsAndRecall, Blocks::FactsAndMeaning]
    };
    for &blocks in quality {
        let run = runtime.block_on(replay(&session, blocks, true, dir.path()))?;
        let tokens = if run.recall_tokens.is_empty() {
            "–".to_owned()
        } else {
            let mean =
                run.recall_tokens.iter().map(|&t| f64::from(t)).sum::<f64>() / run.recall_tokens.len() as f64;
            format!("{mean:.0} / {}", run.recall_tokens.iter().max().copied().unwrap_or(0))
        };
        table.row(vec![
            blocks.name().to_owned(),
            format!("{}/{} ({:.0}%)", run.recalled, run.asked, percent(run.recalled, run.asked)),
            format!("{}/{} ({:.0}%)", run.searched, run.asked, percent(run.searched, run.asked)),
            format!("{}/{} ({:.1}%)", run.real, run.stored, percent(run.real, run.stored)),
            tokens,
            format!("{} of {}", run.over_budget, run.loads),
        ]);
        if blocks == Blocks::FactsAndRecall && !run.missed.is_empty() {
            notes.push(format!("Missed with recall by keywords: {}.", run.missed.join(", ")));
        }
        if blocks == Blocks::FactsAndMeaning {
            if !run.missed.is_empty() {
                notes.push(format!("Missed with recall by meaning: {}.", run.missed.join(", ")));
            }
            if !smoke {
                targets.push(Target {
                    goal: format!("recall ≥ 95% of planted facts at {BUDGET} tokens after ≥ 600 turns"),
                    measured: format!("{}/{}", run.recalled, run.asked),
                    met: run.recalled * 100 >= run.asked * 95,
                });
                targets.push(Target {
                    goal: "search_history with each fact's question: the fact in the top 3 passages ≥ 95%"
                        .to_owned(),
                    measured: format!("{}/{}", run.searched, run.asked),
                    met: run.searched * 100 >= run.asked * 95,
                });
                targets.push(Target {
                    goal: "extracted-fact precision ≥ 90% (strict judge)".to_owned(),
                    measured: format!("{}/{}", run.real, run.stored),
                    met: run.real * 100 >= run.stored * 90,
                });
            }
        }
        if !smoke {
            targets.push(Target {
                goal: format!("no prompt over budget ({})", blocks.name()),
                measured: format!("{} of {}", run.over_budget, run.loads),
                met: run.over_budget == 0,
            });
        }
    }

    let long_session = planted_session(SEED + 1, long, facts, &recorded);
    let off = runtime.block_on(replay(&long_session, Blocks::Facts, false, dir.path()))?;
    let keywords = runtime.block_on(replay(&long_session, Blocks::FactsAndRecall, false, dir.path()))?;
    let meaning = runtime.block_on(replay(&long_session, Blocks::FactsAndMeaning, false, dir.path()))?;
    let off_p50 = p50(&off.load_times).as_secs_f64().max(1e-12);
    let ratio_of = |run: &Run| p50(&run.load_times).as_secs_f64() / off_p50;
    let (keywords_ratio, ratio) = (ratio_of(&keywords), ratio_of(&meaning));
    let micros = |time: Duration| time.as_secs_f64() * 1e6;
    notes.push(format!(
        "Load p50 over the {} loads of a {}-turn session on SQLite: {:.1} µs with the facts block, {:.1} µs with \
         the facts and recall blocks by keywords ({keywords_ratio:.2}×), {:.1} µs with recall by meaning as well \
         ({ratio:.2}×). The p90: {:.1} µs, {:.1} µs and {:.1} µs; the mean: {:.1} µs, {:.1} µs and {:.1} µs. A \
         compacting load also scans what it evicts for recall (`ContextSource::on_evicted`), so recall's scan \
         cost sits in the loads that compact rather than in the loads that quote.",
        meaning.loads,
        long_session.turns,
        micros(p50(&off.load_times)),
        micros(p50(&keywords.load_times)),
        micros(p50(&meaning.load_times)),
        micros(quantile(&off.load_times, 0.9)),
        micros(quantile(&keywords.load_times, 0.9)),
        micros(quantile(&meaning.load_times, 0.9)),
        micros(mean(&off.load_times)),
        micros(mean(&keywords.load_times)),
        micros(mean(&meaning.load_times)),
    ));
    notes.push(format!(
        "Append p50 in the same runs: {:.1} µs without recall, {:.1} µs by keywords, {:.1} µs by meaning (SQLite \
         embeds a passage when a search first reaches it, not at the append; the mean: {:.1}, {:.1} and {:.1} µs).",
        micros(p50(&off.append_times)),
        micros(p50(&keywords.append_times)),
        micros(p50(&meaning.append_times)),
        micros(mean(&off.append_times)),
        micros(mean(&keywords.append_times)),
        micros(mean(&meaning.append_times)),
    ));
    if !smoke {
        targets.push(Target {
            goal: format!("load p50 with recall by meaning ≤ 2× without recall on SQLite at {long} turns"),
            measured: format!("{ratio:.2}× (by keywords alone {keywords_ratio:.2}×)"),
            met: ratio <= 2.0,
        });
    }
    Ok(Section {
        title: "Recall".to_owned(),
        intro: format!(
            "A session of {} turns (generated coding, support and research turns, and three recorded transcripts) \
             with {} facts planted at spread-out turns from seeded templates (said by the user, stated by the \
             assistant, returned by a tool), replayed turn by turn through `CompactingMemory` on an SQLite file \
             ({BUDGET}-token `TokenWindow`, summary capped at 4 KiB, `FactCoordinator` as observer); then each \
             fact is asked about in a new user turn. Recall: the fact's key value is in the loaded prompt. \
             Precision: stored facts traceable to a labelled fact statement (`tidemark_testkit::judge`). Facts \
             block {FACTS_TOKENS} tokens, recall block {RECALL_TOKENS} tokens, both inside the budget.",
            session.turns,
            session.facts.len(),
        ),
        table,
        targets,
        notes,
    })
}

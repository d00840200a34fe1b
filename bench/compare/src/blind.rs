//! Planted facts written by outside writers (`bench/blind/*.json`): is each fact's value in the prompt when it is asked about, in the words of the fact and in other words?
//!
//! The writers read neither the extractor nor its tests (see
//! `bench/blind/README.md`). Each set is one user's long conversation, then
//! a later, separate conversation of the same user. Each conversation is
//! appended turn by turn to a `CompactingMemory` over an SQLite file (a
//! `TokenWindow` at the budget, the stand-in summary capped at 4 KiB, the
//! `FactCoordinator` scoped to the set's user as observer and first context
//! block, `Recall` as the second), loading after each turn. At the end of
//! the conversation a fact is asked in, each of its two questions is asked
//! as a new user turn (a stand-in reply follows each): it is answered when
//! the fact's value is in the loaded prompt. A correction is answered only
//! when the new value is there and the value it replaced is not.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use tidemark_core::{ConversationId, ConversationMemory, FactFilter, FactStore, Message, Part, TokenCounter};
use tidemark_facts::{FactCoordinator, Recall};
use tidemark_memory::{CompactingMemory, HeuristicCounter, SqliteStore, TokenWindow};
use tidemark_providers::wire::from_wire;
use tidemark_testkit::judge::{Statement, is_real};
use tidemark_testkit::planted::turns;
use tidemark_testkit::reference::ConcatCompactor;
use tidemark_tools::MemoryTools;

use crate::report::{Section, Table, Target};

/// The budgets every set is replayed at.
const BUDGETS: [u32; 2] = [8_000, 2_000];
/// The facts block's and the recall block's shares of the budget, as the facade gives them.
const FACTS_PERCENT: u32 = 10;
const RECALL_PERCENT: u32 = 15;
const CAP: usize = 4 * 1024;

#[derive(Debug, Deserialize)]
struct Set {
    name: String,
    user: String,
    conversations: Vec<Conversation>,
    facts: Vec<Fact>,
}

#[derive(Debug, Deserialize)]
struct Conversation {
    id: String,
    turns: Vec<Turn>,
}

#[derive(Debug, Deserialize)]
struct Turn {
    role: String,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<Call>,
    #[serde(default)]
    tool_call_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Call {
    id: String,
    name: String,
    arguments: Value,
}

#[derive(Debug, Deserialize)]
struct Fact {
    id: String,
    conversation: String,
    source: String,
    kind: String,
    value: String,
    lexical_question: Option<String>,
    paraphrased_question: Option<String>,
    ask_in: String,
    corrects: Option<String>,
    /// The place of the turn that states it in its conversation's turns.
    #[serde(default)]
    turn: Option<usize>,
}

/// The sets in `bench/blind`, by file name.
fn sets() -> Result<Vec<(PathBuf, Set)>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blind");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let set: Set = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((path, set))
        })
        .collect()
}

/// The conversation's turns as tidemark messages, through the OpenAI wire form the writers followed.
fn messages(conversation: &Conversation) -> Result<Vec<Message>, String> {
    let wire: Vec<Value> = conversation
        .turns
        .iter()
        .map(|turn| {
            let mut value = json!({"role": turn.role, "content": turn.content.clone().unwrap_or_default()});
            if !turn.tool_calls.is_empty() {
                value["tool_calls"] = turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        json!({"id": call.id, "type": "function",
                               "function": {"name": call.name, "arguments": call.arguments.to_string()}})
                    })
                    .collect();
            }
            if let Some(id) = &turn.tool_call_id {
                value["tool_call_id"] = json!(id);
            }
            value
        })
        .collect();
    from_wire(&wire).map_err(|e| format!("{}: {e}", conversation.id))
}

/// Everything of `message` a model reads: its text, its tool calls' names and arguments, its tool results.
///
/// `Message::text` is the text parts alone; a value in a tool result still in
/// the window is in the prompt all the same.
pub(crate) fn visible(message: &Message) -> String {
    message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Text { text } => Some(text.clone()),
            Part::ToolCall(call) => Some(format!("{} {}", call.name, call.arguments)),
            Part::ToolResult(result) => Some(result.content.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every text a `search_history` answer quotes: its passages and their follow-ups.
pub(crate) fn searched_text(answer: &str) -> Result<String, String> {
    let answer: Value = serde_json::from_str(answer).map_err(|e| format!("search_history answered {e}"))?;
    Ok(answer["passages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|passage| {
            let then = passage["then"].as_array().into_iter().flatten();
            std::iter::once(passage).chain(then).filter_map(|line| line["text"].as_str())
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The text of the turn that states `fact`: its content and its tool calls' arguments.
fn stated(set: &Set, fact: &Fact) -> Option<String> {
    let conversation = set.conversations.iter().find(|conversation| conversation.id == fact.conversation)?;
    let turn = conversation.turns.get(fact.turn?)?;
    let calls = turn.tool_calls.iter().map(|call| call.arguments.to_string());
    Some(turn.content.iter().cloned().chain(calls).collect::<Vec<_>>().join("\n"))
}

/// `text` with every quoted piece of `statement` taken out: its lines, and the sentences of a
/// line long enough that recall may quote it in parts.
fn without(text: &str, statement: &str) -> String {
    let mut pieces: Vec<&str> = Vec::new();
    for line in statement.lines().map(str::trim).filter(|line| line.len() >= 12) {
        pieces.push(line);
        if line.len() > 200 {
            pieces.extend(line.split_inclusive(". ").map(str::trim).filter(|sentence| sentence.len() >= 12));
        }
    }
    // Longest first, so that a sentence is not taken out of a line that is then no longer found.
    pieces.sort_by_key(|piece| std::cmp::Reverse(piece.len()));
    pieces.into_iter().fold(text.to_owned(), |text, piece| text.replace(piece, ""))
}

/// Where in `prompt` the `stale` value still stands once the correcting statement is taken out: the
/// window, the summary, the facts block or the recall block, so that a miss says which part kept it.
fn stale_places(prompt: &[Message], stale: &str, correction: &str) -> String {
    let mut places: Vec<&str> = Vec::new();
    for message in prompt {
        let text = visible(message);
        if !without(&text, correction).contains(stale) {
            continue;
        }
        let place = if message.role != tidemark_core::Role::System {
            "the window"
        } else if text.starts_with(tidemark_facts::recall::OPEN) {
            "the recall block"
        } else if text.starts_with(tidemark_facts::coordinator::OPEN) {
            "the facts block"
        } else {
            "the summary"
        };
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places.join(" and ")
}

/// What one set gave at one budget.
#[derive(Debug, Default, Clone, Copy)]
struct Score {
    lexical: (usize, usize),
    paraphrased: (usize, usize),
    corrections: (usize, usize),
    cross: (usize, usize),
    over_budget: usize,
    loads: usize,
    /// Questions whose fact is in the load's recall block itself (not the window, the summary or the facts block).
    block_lexical: (usize, usize),
    block_paraphrased: (usize, usize),
    /// Questions whose fact `search_history` returned in its top three passages, in the words of the fact and in other words.
    tool_lexical: (usize, usize),
    tool_paraphrased: (usize, usize),
    /// The same questions answered by `search_history` or by `search_facts` (top three each), as a model with both tools would.
    either_lexical: (usize, usize),
    either_paraphrased: (usize, usize),
    /// The value in the window's own turns (not the summary or a block) or found by either tool: what a model with the tools reads.
    with_tools_lexical: (usize, usize),
    with_tools_paraphrased: (usize, usize),
    /// `tool_lexical` and `tool_paraphrased` over the questions whose value is not in the window's own turns
    /// when asked: what `search_history`, which searches below the window, is for.
    tool_out_lexical: (usize, usize),
    tool_out_paraphrased: (usize, usize),
    /// The load's whole prompt over those same paraphrased questions.
    load_out_paraphrased: (usize, usize),
    /// Stored facts that `tidemark_testkit::judge` traces to a planted fact's statement, of all stored.
    stored_real: (usize, usize),
    /// Planted facts whose value some stored fact holds, of the planted facts with a stating turn.
    planted_stored: (usize, usize),
}

impl Score {
    fn add(&mut self, other: &Score) {
        for (mine, theirs) in [
            (&mut self.lexical, other.lexical),
            (&mut self.paraphrased, other.paraphrased),
            (&mut self.corrections, other.corrections),
            (&mut self.cross, other.cross),
            (&mut self.block_lexical, other.block_lexical),
            (&mut self.block_paraphrased, other.block_paraphrased),
            (&mut self.tool_lexical, other.tool_lexical),
            (&mut self.tool_paraphrased, other.tool_paraphrased),
            (&mut self.either_lexical, other.either_lexical),
            (&mut self.either_paraphrased, other.either_paraphrased),
            (&mut self.with_tools_lexical, other.with_tools_lexical),
            (&mut self.with_tools_paraphrased, other.with_tools_paraphrased),
            (&mut self.tool_out_lexical, other.tool_out_lexical),
            (&mut self.tool_out_paraphrased, other.tool_out_paraphrased),
            (&mut self.load_out_paraphrased, other.load_out_paraphrased),
            (&mut self.stored_real, other.stored_real),
            (&mut self.planted_stored, other.planted_stored),
        ] {
            mine.0 += theirs.0;
            mine.1 += theirs.1;
        }
        self.over_budget += other.over_budget;
        self.loads += other.loads;
    }
}

fn cell((hit, asked): (usize, usize)) -> String {
    if asked == 0 {
        return "–".to_owned();
    }
    format!("{:.0}% ({hit}/{asked})", 100.0 * hit as f64 / asked as f64)
}

/// One question asked: the fact's kind and source, and whether it was answered.
type Ask = (String, String, bool);

/// The variable naming one question (`<fact id>-<lexical|paraphrased>-<budget>`) whose prompt and search a run prints.
const DUMP_VAR: &str = "TIDEMARK_BLIND_DUMP";

/// The variable naming one set and budget (`<set name>-<budget>`) whose stored facts a run prints with the judge's verdicts.
const FACTS_VAR: &str = "TIDEMARK_BLIND_FACTS";

/// Replays `set` at `budget` in a fresh SQLite file under `dir`.
async fn replay(set: &Set, budget: u32, dir: &Path) -> Result<(Score, Vec<String>, Vec<Ask>), String> {
    let path = dir.join(format!("{}-{budget}.db", set.name));
    let store = SqliteStore::open(&path).map_err(|e| e.to_string())?.with_embedder(crate::embedder());
    let user = ConversationId::new(set.user.clone()).map_err(|e| e.to_string())?;
    let coordinator = Arc::new(FactCoordinator::new(store.clone()).for_user(user.clone()));
    let counter = HeuristicCounter::default();
    let window = TokenWindow::new(NonZeroU32::new(budget).ok_or("zero budget")?, counter);
    let memory = CompactingMemory::new(store.clone(), window, ConcatCompactor::capped(CAP))
        .with_observer(Arc::clone(&coordinator))
        .with_context(Arc::clone(&coordinator), budget * FACTS_PERCENT / 100)
        .with_context(Recall::new(store.clone()).for_user(user.clone()), budget * RECALL_PERCENT / 100);
    // The model's own search: what a scripted model calling `search_history` with the question finds.
    let tools = MemoryTools::new(store.clone()).for_user(user);
    let mut score = Score::default();
    let mut missed = Vec::new();
    let mut asks = Vec::new();
    for conversation in &set.conversations {
        let id =
            ConversationId::new(format!("{}/{}", set.name, conversation.id)).map_err(|e| e.to_string())?;
        let history = messages(conversation)?;
        for turn in turns(&history) {
            memory.append(&id, turn.to_vec()).await.map_err(|e| format!("append: {e}"))?;
            let prompt = memory.load(&id).await.map_err(|e| format!("load: {e}"))?;
            score.loads += 1;
            score.over_budget += usize::from(counter.count_prompt(&prompt) > budget);
        }
        for fact in set.facts.iter().filter(|fact| fact.ask_in == conversation.id) {
            let stale = fact
                .corrects
                .as_ref()
                .and_then(|old| set.facts.iter().find(|other| &other.id == old))
                .map(|old| old.value.as_str());
            // A correction often names the value it replaces ("Ifeoma's down with flu, so Bartek
            // takes the pager"): the old value inside the quoted correction is not stale.
            let correction = stale.and_then(|_| stated(set, fact)).unwrap_or_default();
            let cross = fact.conversation != fact.ask_in;
            for (kind, question) in
                [("lexical", &fact.lexical_question), ("paraphrased", &fact.paraphrased_question)]
            {
                let Some(question) = question else { continue };
                memory
                    .append(&id, vec![Message::user(question.clone())])
                    .await
                    .map_err(|e| format!("append: {e}"))?;
                let prompt = memory.load(&id).await.map_err(|e| format!("load: {e}"))?;
                score.loads += 1;
                score.over_budget += usize::from(counter.count_prompt(&prompt) > budget);
                let text: String = prompt.iter().map(visible).collect::<Vec<_>>().join("\n");
                // A diagnosis of one question: `TIDEMARK_BLIND_DUMP=a-09-lexical-8000` prints its prompt
                // and the 20 best passages of `search_history` to standard error (see bench/blind/README.md).
                if std::env::var(DUMP_VAR).is_ok_and(|want| want == format!("{}-{kind}-{budget}", fact.id)) {
                    let arguments = json!({"query": question, "limit": 20}).to_string();
                    let searched = tools.call(&id, "search_history", &arguments).await;
                    eprintln!(
                        "== prompt for {} {kind} at {budget}\n{text}\n== search_history, limit 20",
                        fact.id
                    );
                    eprintln!("{}", searched.content);
                }
                let found = text.contains(&fact.value);
                let hit = found && stale.is_none_or(|stale| !without(&text, &correction).contains(stale));
                let in_block = prompt
                    .iter()
                    .map(visible)
                    .any(|text| text.starts_with(tidemark_facts::recall::OPEN) && text.contains(&fact.value));
                let block_slot =
                    if kind == "lexical" { &mut score.block_lexical } else { &mut score.block_paraphrased };
                block_slot.0 += usize::from(in_block);
                block_slot.1 += 1;
                let slot = if kind == "lexical" { &mut score.lexical } else { &mut score.paraphrased };
                slot.0 += usize::from(hit);
                slot.1 += 1;
                if stale.is_some() {
                    score.corrections.0 += usize::from(hit);
                    score.corrections.1 += 1;
                }
                if cross {
                    score.cross.0 += usize::from(hit);
                    score.cross.1 += 1;
                }
                let arguments = json!({"query": question, "limit": 3}).to_string();
                let searched = tools.call(&id, "search_history", &arguments).await;
                if searched.is_error {
                    return Err(format!("search_history failed: {}", searched.content));
                }
                let top = searched_text(&searched.content)?;
                let tool_slot =
                    if kind == "lexical" { &mut score.tool_lexical } else { &mut score.tool_paraphrased };
                tool_slot.0 += usize::from(top.contains(&fact.value));
                let facts = tools.call(&id, "search_facts", &arguments).await;
                if facts.is_error {
                    return Err(format!("search_facts failed: {}", facts.content));
                }
                let either = top.contains(&fact.value) || facts.content.contains(&fact.value);
                let either_slot =
                    if kind == "lexical" { &mut score.either_lexical } else { &mut score.either_paraphrased };
                either_slot.0 += usize::from(either);
                either_slot.1 += 1;
                let in_view = prompt
                    .iter()
                    .filter(|message| message.role != tidemark_core::Role::System)
                    .any(|message| visible(message).contains(&fact.value));
                let with_tools_slot = if kind == "lexical" {
                    &mut score.with_tools_lexical
                } else {
                    &mut score.with_tools_paraphrased
                };
                with_tools_slot.0 += usize::from(in_view || either);
                with_tools_slot.1 += 1;
                if !in_view {
                    let out_slot = if kind == "lexical" {
                        &mut score.tool_out_lexical
                    } else {
                        &mut score.tool_out_paraphrased
                    };
                    out_slot.0 += usize::from(top.contains(&fact.value));
                    out_slot.1 += 1;
                    if kind == "paraphrased" {
                        score.load_out_paraphrased.0 += usize::from(hit);
                        score.load_out_paraphrased.1 += 1;
                    }
                }
                tool_slot.1 += 1;
                asks.push((fact.kind.clone(), fact.source.clone(), hit));
                if !hit {
                    let why = match stale.filter(|_| found) {
                        Some(stale) => {
                            format!("stale value beside it, in {}", stale_places(&prompt, stale, &correction))
                        }
                        None => "not in the prompt".to_owned(),
                    };
                    missed.push(format!("{} {kind} at {budget} ({why})", fact.id));
                }
                memory
                    .append(&id, vec![Message::assistant("Let me check my notes.")])
                    .await
                    .map_err(|e| format!("append: {e}"))?;
            }
        }
    }
    // The strict judge of the recall benchmark, with each planted fact's stating turn as its statement
    // and the fact's value as its key. The writers' conversations hold facts they did not plant, and a
    // stored one of those counts as not real: the share is a lower bound on precision.
    let planted: Vec<(&Fact, String)> =
        set.facts.iter().filter_map(|fact| Some((fact, stated(set, fact)?))).collect();
    let statements: Vec<Statement> =
        planted.iter().map(|(fact, text)| Statement::keyed(text.clone(), fact.value.clone())).collect();
    let stored = store.list(&FactFilter::default()).await.map_err(|e| format!("listing facts: {e}"))?;
    // A diagnosis of a set's stored facts: `TIDEMARK_BLIND_FACTS=set-a-8000` prints each with the
    // judge's verdict to standard error (see bench/blind/README.md).
    if std::env::var(FACTS_VAR).is_ok_and(|want| want == format!("{}-{budget}", set.name)) {
        for fact in &stored {
            let verdict = if is_real(&fact.text, &statements) { "real" } else { "not traced" };
            eprintln!("[{verdict}] {}", fact.text);
        }
    }
    score.stored_real = (stored.iter().filter(|fact| is_real(&fact.text, &statements)).count(), stored.len());
    score.planted_stored = (
        planted.iter().filter(|(fact, _)| stored.iter().any(|kept| kept.text.contains(&fact.value))).count(),
        planted.len(),
    );
    Ok((score, missed, asks))
}

/// The share of questions answered by the fact's kind and by who stated it, lexical and paraphrased together.
fn by_category(asks: &[Ask], budget: u32) -> String {
    let tally = |key: &dyn Fn(&Ask) -> &str| {
        let mut counts: std::collections::BTreeMap<&str, (usize, usize)> = std::collections::BTreeMap::new();
        for ask in asks {
            let entry = counts.entry(key(ask)).or_default();
            entry.0 += usize::from(ask.2);
            entry.1 += 1;
        }
        counts
            .into_iter()
            .map(|(name, counted)| format!("{name} {}", cell(counted)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "By kind at {budget} tokens (both questions of every fact asked): {}. By who stated the fact: {}.",
        tally(&|ask| ask.0.as_str()),
        tally(&|ask| ask.1.as_str())
    )
}

/// Runs every set at every budget.
pub fn run(smoke: bool) -> Result<Section, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let mut sets = sets()?;
    if smoke {
        sets.truncate(1);
        for (_, set) in &mut sets {
            set.conversations.iter_mut().for_each(|c| c.turns.truncate(40));
        }
    }
    let mut table = Table::new(&[
        "set",
        "budget",
        "lexical",
        "paraphrased",
        "corrections",
        "other conversation",
        "prompts over budget",
        "recall block: lexical",
        "recall block: paraphrased",
        "tool: lexical in top 3",
        "tool: paraphrased in top 3",
        "tool, fact out of view: lexical in top 3",
        "tool, fact out of view: paraphrased in top 3",
        "history or facts tool: lexical",
        "history or facts tool: paraphrased",
        "window or tools: lexical",
        "window or tools: paraphrased",
        "stored facts traced to a planted statement (strict)",
        "planted values stored",
    ]);
    let mut notes = Vec::new();
    let mut targets = Vec::new();
    let mut all_asks: Vec<Ask> = Vec::new();
    for &budget in &BUDGETS {
        let mut total = Score::default();
        for (path, set) in &sets {
            let (score, missed, asks) = runtime.block_on(replay(set, budget, dir.path()))?;
            if budget == BUDGETS[0] {
                all_asks.extend(asks);
            }
            let name =
                path.file_name().map_or_else(|| set.name.clone(), |n| n.to_string_lossy().into_owned());
            table.row(vec![
                name,
                budget.to_string(),
                cell(score.lexical),
                cell(score.paraphrased),
                cell(score.corrections),
                cell(score.cross),
                format!("{} of {}", score.over_budget, score.loads),
                cell(score.block_lexical),
                cell(score.block_paraphrased),
                cell(score.tool_lexical),
                cell(score.tool_paraphrased),
                cell(score.tool_out_lexical),
                cell(score.tool_out_paraphrased),
                cell(score.either_lexical),
                cell(score.either_paraphrased),
                cell(score.with_tools_lexical),
                cell(score.with_tools_paraphrased),
                cell(score.stored_real),
                cell(score.planted_stored),
            ]);
            if !missed.is_empty() {
                notes.push(format!("{}, missed at {budget} tokens: {}.", set.name, missed.join("; ")));
            }
            total.add(&score);
        }
        table.row(vec![
            "all".to_owned(),
            budget.to_string(),
            cell(total.lexical),
            cell(total.paraphrased),
            cell(total.corrections),
            cell(total.cross),
            format!("{} of {}", total.over_budget, total.loads),
            cell(total.block_lexical),
            cell(total.block_paraphrased),
            cell(total.tool_lexical),
            cell(total.tool_paraphrased),
            cell(total.tool_out_lexical),
            cell(total.tool_out_paraphrased),
            cell(total.either_lexical),
            cell(total.either_paraphrased),
            cell(total.with_tools_lexical),
            cell(total.with_tools_paraphrased),
            cell(total.stored_real),
            cell(total.planted_stored),
        ]);
        if !smoke {
            notes.push(format!(
                "At {budget} tokens, paraphrased questions: `search_history` finds {} in its top 3; the load's recall block quotes {}, the whole prompt (window, summary, facts and recall) holds {}.",
                cell(total.tool_paraphrased),
                cell(total.block_paraphrased),
                cell(total.paraphrased)
            ));
        }
        if !smoke && budget == BUDGETS[0] {
            let share = |(hit, asked): (usize, usize)| hit as f64 / asked.max(1) as f64;
            for (goal, measured, at_least) in [
                ("lexical questions ≥ 95%", total.lexical, 0.95),
                ("paraphrased questions ≥ 85%", total.paraphrased, 0.85),
                ("corrections 100%", total.corrections, 1.0),
                ("facts asked in another conversation of the user ≥ 95%", total.cross, 0.95),
            ] {
                targets.push(Target {
                    goal: format!("blind planted facts at {budget} tokens: {goal}"),
                    measured: cell(measured),
                    met: share(measured) >= at_least,
                });
            }
            // search_history searches below the window by design: a fact still in the window's own turns is
            // in the model's view, and the tool is measured on the others (the table has both figures).
            targets.push(Target {
                goal: format!(
                    "blind planted facts at {budget} tokens, search_history: lexical question in the top 3 ≥ 95%, of the facts out of the window when asked (all facts: {})",
                    cell(total.tool_lexical)
                ),
                measured: cell(total.tool_out_lexical),
                met: share(total.tool_out_lexical) >= 0.95,
            });
            targets.push(Target {
                goal: format!(
                    "blind planted facts at {budget} tokens, search_history: paraphrased question in the top 3, of the facts out of the window when asked, at least as often as the load's prompt holds them ({}; all facts: tool {}, load {})",
                    cell(total.load_out_paraphrased),
                    cell(total.tool_paraphrased),
                    cell(total.paraphrased)
                ),
                measured: cell(total.tool_out_paraphrased),
                met: share(total.tool_out_paraphrased) >= share(total.load_out_paraphrased),
            });
            targets.push(Target {
                goal: format!(
                    "blind planted facts at {budget} tokens: stored-fact precision ≥ 90% by a strict judge (a lower bound: a stored fact the writers did not plant counts as not real)"
                ),
                measured: cell(total.stored_real),
                met: share(total.stored_real) >= 0.9,
            });
            targets.push(Target {
                goal: format!("blind planted facts at {budget} tokens: no prompt over budget"),
                measured: format!("{} of {}", total.over_budget, total.loads),
                met: total.over_budget == 0,
            });
        }
    }
    notes.insert(0, by_category(&all_asks, BUDGETS[0]));
    Ok(Section {
        title: "Blind planted facts".to_owned(),
        intro: "Facts planted by outside writers who read neither the extractor nor its tests (`bench/blind`), each \
                asked at the end of a conversation in the words of the fact and in other words; replayed turn by \
                turn on SQLite with facts (scoped to the set's user), recall by meaning and keywords, and the \
                stand-in summary. A correction counts only when the stale value is gone from the prompt, apart from \
                the correcting statement itself, which may name the value it replaces."
            .to_owned(),
        table,
        targets,
        notes,
    })
}

//! Evidence recall on LoCoMo: is every turn a question's answer rests on in the prompt `load` returns for it?
//!
//! LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory
//! of LLM Agents", ACL 2024) holds long two-person conversations whose QA
//! items name their evidence turns. Its licence (CC BY-NC 4.0) keeps it out
//! of the repository: this part reads the authors' JSON from the path given
//! with `--data`, and says it was skipped without one.
//!
//! Each conversation is appended turn by turn (the first speaker as the user,
//! the second as the assistant), loading after every turn as an agent would,
//! so that compaction runs. For each question of categories 1 to 4, the
//! finished conversation is copied into a fresh conversation of the same
//! store (its messages and its compaction state), the question appended, and
//! the prompt loaded: a question never stays in the history of the next. A
//! turn is in the prompt when its message is in the window or the recall
//! block quotes a passage of it; the summary is not searched (the summarizer
//! here is a stand-in that concatenates text). Two baselines fill the same
//! budget with the same counter: BM25 over whole turns for 15% and the most
//! recent turns for the rest, and the most recent turns alone.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;
use std::path::Path;

use serde_json::Value;
use tidemark_core::{
    CompactionState, ConversationId, ConversationMemory, ConversationStore, Message, NewMessage, RecallQuery,
    Seq, TokenCounter,
};
use tidemark_facts::Recall;
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;

use crate::report::{Section, Table, Target};

/// The budgets measured, in tokens.
const BUDGETS: [u32; 2] = [2_000, 4_000];
/// The recall block's allowance, as the command gives it: 15% of the budget.
const RECALL_PERCENT: u32 = 15;
/// The share of the budget the BM25 baseline fills with its best turns.
const BM25_PERCENT: u32 = 15;
/// How many passages or turns the budget-free retrieval looks at.
const TOP: usize = 25;

/// One turn of a conversation: its dia id and the text appended for it.
struct Turn {
    dia: String,
    user: bool,
    text: String,
}

/// One question: its category and the indices of its evidence turns.
struct Question {
    text: String,
    category: u64,
    evidence: Vec<usize>,
}

struct Conversation {
    name: String,
    turns: Vec<Turn>,
    questions: Vec<Question>,
    /// Evidence ids that could not be parsed or named no turn.
    skipped: usize,
}

/// Reads the conversations of the authors' JSON at `path`.
fn read(path: &Path) -> Result<Vec<Conversation>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let samples = value.as_array().ok_or("the LoCoMo file is not a list of conversations")?;
    Ok(samples.iter().filter_map(conversation).collect())
}

fn conversation(sample: &Value) -> Option<Conversation> {
    let body = sample.get("conversation")?;
    let first = body.get("speaker_a")?.as_str()?;
    let mut sessions: Vec<(u64, &Vec<Value>)> = body
        .as_object()?
        .iter()
        .filter_map(|(key, value)| {
            let number = key.strip_prefix("session_")?.parse().ok()?;
            Some((number, value.as_array()?))
        })
        .collect();
    sessions.sort_by_key(|(number, _)| *number);
    let mut turns = Vec::new();
    for (_, session) in sessions {
        for turn in session {
            let (Some(speaker), Some(dia), Some(said)) =
                (turn["speaker"].as_str(), turn["dia_id"].as_str(), turn["text"].as_str())
            else {
                continue;
            };
            let mut text = format!("{speaker}: {said}");
            if let Some(caption) = turn["blip_caption"].as_str() {
                text.push_str(&format!(" [shares a photo: {caption}]"));
            }
            turns.push(Turn { dia: dia.to_owned(), user: speaker == first, text });
        }
    }
    let index: HashMap<&str, usize> =
        turns.iter().enumerate().map(|(i, turn)| (turn.dia.as_str(), i)).collect();
    let mut skipped = 0;
    let mut questions = Vec::new();
    for item in sample.get("qa")?.as_array()? {
        let (Some(text), Some(category)) = (item["question"].as_str(), item["category"].as_u64()) else {
            continue;
        };
        if !(1..=4).contains(&category) {
            continue;
        }
        let mut evidence = Vec::new();
        // Some ids are lists in one string ("D8:6; D9:17") or carry a stray colon ("D:11:26").
        let ids = item["evidence"].as_array().into_iter().flatten().filter_map(Value::as_str);
        for id in ids.flat_map(|ids| ids.split([';', ',', ' ']).filter(|id| !id.is_empty())) {
            let id = id.strip_prefix("D:").map_or_else(|| id.to_owned(), |rest| format!("D{rest}"));
            match index.get(id.as_str()) {
                Some(&turn) => evidence.push(turn),
                None => skipped += 1,
            }
        }
        if !evidence.is_empty() {
            questions.push(Question { text: text.to_owned(), category, evidence });
        }
    }
    let name = sample["sample_id"].as_str().unwrap_or("conversation").to_owned();
    Some(Conversation { name, turns, questions, skipped })
}

/// Lower-case word tokens, for BM25.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// BM25 (k1 = 1.2, b = 0.75) over whole turns.
struct Bm25 {
    docs: Vec<HashMap<String, u32>>,
    lengths: Vec<f64>,
    average: f64,
    df: HashMap<String, u32>,
}

impl Bm25 {
    fn new(turns: &[Turn]) -> Self {
        let docs: Vec<HashMap<String, u32>> = turns
            .iter()
            .map(|turn| {
                let mut counts = HashMap::new();
                for word in words(&turn.text) {
                    *counts.entry(word).or_insert(0) += 1;
                }
                counts
            })
            .collect();
        let lengths: Vec<f64> = docs.iter().map(|doc| f64::from(doc.values().sum::<u32>())).collect();
        let average = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
        let mut df = HashMap::new();
        for doc in &docs {
            for word in doc.keys() {
                *df.entry(word.clone()).or_insert(0) += 1;
            }
        }
        Self { docs, lengths, average, df }
    }

    /// Turn indices, best first (only turns sharing a word with the query).
    fn rank(&self, query: &str) -> Vec<usize> {
        let n = self.docs.len() as f64;
        let terms: HashSet<String> = words(query).into_iter().collect();
        let mut scored: Vec<(f64, usize)> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(i, doc)| {
                let score: f64 = terms
                    .iter()
                    .filter_map(|term| {
                        let tf = f64::from(*doc.get(term)?);
                        let df = f64::from(*self.df.get(term)?);
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        let norm = 1.2 * (1.0 - 0.75 + 0.75 * self.lengths[i] / self.average.max(1.0));
                        Some(idf * tf * 2.2 / (tf + norm))
                    })
                    .sum();
                (score > 0.0).then_some((score, i))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    }
}

/// The turns a baseline puts in a `budget`-token prompt: the best BM25 turns within `bm25` tokens, then the newest turns.
fn baseline(
    turns: &[Turn],
    tokens: &[u32],
    ranked: &[usize],
    budget: u32,
    bm25: u32,
) -> (HashSet<usize>, u32) {
    let mut chosen = HashSet::new();
    let mut used = 0u32;
    for &turn in ranked {
        if used + tokens[turn] > bm25 {
            continue;
        }
        used += tokens[turn];
        chosen.insert(turn);
    }
    for turn in (0..turns.len()).rev() {
        if chosen.contains(&turn) {
            continue;
        }
        if used + tokens[turn] > budget {
            break;
        }
        used += tokens[turn];
        chosen.insert(turn);
    }
    (chosen, used)
}

/// What one system got: questions with every evidence turn in the prompt, by category, and the budget fill.
#[derive(Default, Clone)]
struct Score {
    hit: [usize; 5],
    asked: [usize; 5],
    fill: f64,
    prompts: usize,
}

impl Score {
    fn add(&mut self, category: u64, hit: bool, fill: f64) {
        let slot = usize::try_from(category).unwrap_or(0).min(4);
        self.asked[0] += 1;
        self.asked[slot] += 1;
        if hit {
            self.hit[0] += 1;
            self.hit[slot] += 1;
        }
        self.fill += fill;
        self.prompts += 1;
    }

    fn share(&self, slot: usize) -> f64 {
        self.hit[slot] as f64 / self.asked[slot].max(1) as f64
    }

    fn cell(&self, slot: usize) -> String {
        format!("{:.1}% ({}/{})", 100.0 * self.share(slot), self.hit[slot], self.asked[slot])
    }
}

/// The turns a tidemark prompt holds: window messages by their text, recall lines by their turn number.
fn in_prompt(prompt: &[Message], by_text: &HashMap<&str, usize>) -> HashSet<usize> {
    let mut found = HashSet::new();
    for message in prompt {
        let text = message.text();
        if text.starts_with(tidemark_facts::recall::OPEN) {
            for line in text.lines() {
                let seq = line
                    .strip_prefix("- turn ")
                    .and_then(|rest| rest.split(' ').next()?.parse::<usize>().ok());
                found.extend(seq);
            }
        } else if let Some(&turn) = by_text.get(text.as_ref()) {
            found.insert(turn);
        }
    }
    found
}

/// Appends `conversation` to a fresh memory at `budget`, with recall or without, and asks every question.
async fn tidemark(
    conversation: &Conversation,
    questions: &[Question],
    budget: u32,
    recall: bool,
) -> Result<(Score, Option<f64>), String> {
    let store = InMemoryStore::new();
    let counter = HeuristicCounter::default();
    let window = TokenWindow::new(NonZeroU32::new(budget).ok_or("zero budget")?, counter);
    // A stand-in summary of at most a quarter of the budget (four bytes a token).
    let compactor = ConcatCompactor::capped(budget as usize);
    let mut memory = CompactingMemory::new(store.clone(), window, compactor);
    if recall {
        memory = memory.with_context(Recall::new(store.clone()), budget * RECALL_PERCENT / 100);
    }
    let id = ConversationId::new(format!("locomo/{}", conversation.name)).map_err(|e| e.to_string())?;
    for turn in &conversation.turns {
        let message =
            if turn.user { Message::user(turn.text.clone()) } else { Message::assistant(turn.text.clone()) };
        memory.append(&id, vec![message]).await.map_err(|e| e.to_string())?;
        memory.load(&id).await.map_err(|e| e.to_string())?;
    }
    let stored = store
        .load_range(&id, tidemark_core::SeqRange::new(Seq::ZERO, Seq(u64::MAX)))
        .await
        .map_err(|e| e.to_string())?;
    let state = store.state(&id).await.map_err(|e| e.to_string())?;
    let by_text: HashMap<&str, usize> =
        conversation.turns.iter().enumerate().map(|(i, turn)| (turn.text.as_str(), i)).collect();
    let mut score = Score::default();
    let mut found_top = 0usize;
    let mut evidence_total = 0usize;
    for (number, question) in questions.iter().enumerate() {
        let copy = ConversationId::new(format!("locomo/{}/q{number}", conversation.name))
            .map_err(|e| e.to_string())?;
        let messages = stored.iter().map(|m| NewMessage::new((*m.message).clone(), m.tokens)).collect();
        store.append(&copy, messages).await.map_err(|e| e.to_string())?;
        let copied = CompactionState::new(state.watermark, state.retained.clone(), state.summary.clone());
        store.save_state(&copy, 0, copied).await.map_err(|e| e.to_string())?;
        memory.append(&copy, vec![Message::user(question.text.clone())]).await.map_err(|e| e.to_string())?;
        let prompt = memory.load(&copy).await.map_err(|e| e.to_string())?;
        let held = in_prompt(&prompt, &by_text);
        let hit = question.evidence.iter().all(|turn| held.contains(turn));
        score.add(question.category, hit, f64::from(counter.count_prompt(&prompt)) / f64::from(budget));
        if recall {
            let query = RecallQuery::new(question.text.clone(), Seq(stored.len() as u64), TOP);
            let passages = store.search_passages(&id, &query).await.map_err(|e| e.to_string())?;
            let turns: HashSet<usize> = passages.iter().map(|p| p.seq.0 as usize).collect();
            evidence_total += question.evidence.len();
            found_top += question.evidence.iter().filter(|turn| turns.contains(turn)).count();
        }
        store.clear(&copy).await.map_err(|e| e.to_string())?;
    }
    let top = recall.then(|| found_top as f64 / evidence_total.max(1) as f64);
    Ok((score, top))
}

/// Runs the part; without `data` the section says it was skipped.
pub fn run(data: Option<&Path>, smoke: bool) -> Result<Section, String> {
    let intro = "Evidence recall on the LoCoMo dev half (Maharana et al., ACL 2024; CC BY-NC 4.0, read from `--data`, never copied): the share of questions of categories 1–4 whose every evidence turn is in the prompt. tidemark appends each conversation turn by turn, loading after each (8 KiB-capped stand-in summary, not searched), and loads each question as the newest user message of a copy of the finished conversation; a turn counts when it is in the window or the recall block quotes a passage of it. Baselines fill the same budget with the same counter (`HeuristicCounter`): BM25 over whole turns for 15% and the newest turns for the rest, and the newest turns alone.".to_owned();
    let Some(data) = data else {
        return Ok(Section {
            title: "LoCoMo evidence recall".to_owned(),
            intro,
            table: Table::new(&["system"]),
            targets: Vec::new(),
            notes: vec!["Skipped: no `--data PATH` named the LoCoMo JSON (it is not in the repository: its licence is CC BY-NC 4.0).".to_owned()],
        });
    };
    let mut conversations = read(data)?;
    if smoke {
        conversations.truncate(1);
        for conversation in &mut conversations {
            conversation.questions.truncate(20);
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    let counter = HeuristicCounter::default();
    let mut table = Table::new(&[
        "budget",
        "system",
        "all",
        "multi-hop (1)",
        "temporal (2)",
        "open-domain (3)",
        "single-hop (4)",
        "mean budget fill",
    ]);
    let mut targets = Vec::new();
    let mut notes = Vec::new();
    let skipped: usize = conversations.iter().map(|c| c.skipped).sum();
    let questions: usize = conversations.iter().map(|c| c.questions.len()).sum();
    notes.push(format!("{} conversations, {questions} questions of categories 1–4; {skipped} evidence ids were malformed or named no turn and were left out.", conversations.len()));
    let mut top_tidemark = (0.0, 0usize);
    let mut bm25_top = (0usize, 0usize);
    for &budget in &BUDGETS {
        let mut scores: Vec<(&str, Score)> = vec![
            ("tidemark, recall on", Score::default()),
            ("tidemark, recall off", Score::default()),
            ("BM25 15% + recency", Score::default()),
            ("recency", Score::default()),
        ];
        for conversation in &conversations {
            let tokens: Vec<u32> = conversation
                .turns
                .iter()
                .map(|turn| counter.count(&Message::user(turn.text.clone())))
                .collect();
            let index = Bm25::new(&conversation.turns);
            for question in &conversation.questions {
                let ranked = index.rank(&question.text);
                let asked = counter.count(&Message::user(question.text.clone()));
                let room = budget.saturating_sub(asked);
                for (slot, share) in [(2usize, BM25_PERCENT), (3, 0)] {
                    let (chosen, used) =
                        baseline(&conversation.turns, &tokens, &ranked, room, room * share / 100);
                    let hit = question.evidence.iter().all(|turn| chosen.contains(turn));
                    scores[slot].1.add(question.category, hit, f64::from(used + asked) / f64::from(budget));
                }
                if budget == BUDGETS[0] {
                    let top: HashSet<usize> = ranked.iter().take(TOP).copied().collect();
                    bm25_top.0 += question.evidence.iter().filter(|turn| top.contains(turn)).count();
                    bm25_top.1 += question.evidence.len();
                }
            }
            for (slot, recall) in [(0usize, true), (1, false)] {
                let (score, top) =
                    runtime.block_on(tidemark(conversation, &conversation.questions, budget, recall))?;
                merge(&mut scores[slot].1, &score);
                if let (Some(top), true) = (top, budget == BUDGETS[0]) {
                    top_tidemark.0 +=
                        top * conversation.questions.iter().map(|q| q.evidence.len()).sum::<usize>() as f64;
                    top_tidemark.1 += conversation.questions.iter().map(|q| q.evidence.len()).sum::<usize>();
                }
            }
        }
        for (name, score) in &scores {
            let mut row = vec![format!("{budget}"), (*name).to_owned()];
            row.extend((0..5).map(|slot| score.cell(slot)));
            row.push(format!("{:.0}%", 100.0 * score.fill / score.prompts.max(1) as f64));
            table.row(row);
        }
        let ratio = scores[0].1.share(0) / scores[2].1.share(0).max(f64::MIN_POSITIVE);
        let goal = if budget == BUDGETS[0] { 1.25 } else { 1.15 };
        targets.push(Target {
            goal: format!("evidence recall with recall on ≥ {goal}× BM25 + recency at {budget} tokens"),
            measured: format!(
                "{ratio:.2}× ({:.1}% against {:.1}%)",
                100.0 * scores[0].1.share(0),
                100.0 * scores[2].1.share(0)
            ),
            met: ratio >= goal,
        });
    }
    let top = top_tidemark.0 / top_tidemark.1.max(1) as f64;
    targets.push(Target {
        goal: format!("evidence turns among tidemark's top {TOP} passages ≥ 80%, without a budget"),
        measured: format!(
            "{:.1}% (BM25 over whole turns: {:.1}%)",
            100.0 * top,
            100.0 * bm25_top.0 as f64 / bm25_top.1.max(1) as f64
        ),
        met: top >= 0.80,
    });
    notes.push("For comparison, the LoCoMo paper reports its dense retriever (DRAGON) finding about 80–85% of evidence turns within the top 25–50 retrieved turns; that is the paper's figure, not measured here.".to_owned());
    Ok(Section { title: "LoCoMo evidence recall".to_owned(), intro, table, targets, notes })
}

fn merge(into: &mut Score, from: &Score) {
    for slot in 0..5 {
        into.hit[slot] += from.hit[slot];
        into.asked[slot] += from.asked[slot];
    }
    into.fill += from.fill;
    into.prompts += from.prompts;
}

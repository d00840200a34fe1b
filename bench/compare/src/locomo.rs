//! Evidence recall on LoCoMo: is every turn a question's answer rests on in the prompt `load` returns for it?
//!
//! LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory
//! of LLM Agents", ACL 2024) holds long two-person conversations whose QA
//! items name their evidence turns. Its licence (CC BY-NC 4.0) keeps it out
//! of the repository: this part reads the authors' JSON from the path given
//! with `--data`, and says it was skipped without one.
//!
//! Each conversation is appended turn by turn (the first speaker as the user,
//! the second as the assistant, each text behind its speaker's name), loading
//! after every turn as an agent would, so that compaction runs. For each
//! question of categories 1 to 4, the finished conversation is copied into a
//! fresh conversation of the same store (its messages, and its compaction
//! state with the sequence numbers translated), the question appended, and
//! the prompt loaded: a question never stays in the history of the next. A
//! turn is in the prompt when its message is in the window or the recall
//! block quotes a passage of it, found through a map from stored sequence
//! number to turn; the summary is not searched (the summarizer here is a
//! stand-in that concatenates text). Two baselines fill the same budget with
//! the same counter: BM25 over whole turns for 15% and the most recent turns
//! for the rest, and the most recent turns alone.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;
use tidemark_core::{
    CompactionState, ConversationId, ConversationMemory, ConversationStore, Message, NewMessage, RecallQuery,
    Seq, SeqRange, StoredMessage, TokenCounter,
};
use tidemark_facts::Recall;
use tidemark_facts::recall::OPEN;
use tidemark_memory::{CompactingMemory, HeuristicCounter, InMemoryStore, TokenWindow};
use tidemark_testkit::reference::ConcatCompactor;

use crate::report::{Section, Table, Target, thousands};

const TITLE: &str = "LoCoMo evidence recall";
/// The budgets measured, in tokens.
const BUDGETS: [u32; 2] = [2_000, 4_000];
/// The ratio over the BM25 + recency baseline that the issue asks for, at each budget.
const GOALS: [f64; 2] = [1.25, 1.15];
/// The recall block's allowance, as the command gives it: 15% of the budget.
const RECALL_PERCENT: u32 = 15;
/// The share of the budget the BM25 baseline fills with its best turns.
const BM25_PERCENT: u32 = 15;
/// How many passages or turns the budget-free retrieval looks at.
const TOP: usize = 25;
/// The share of evidence turns the issue wants among the top passages.
const TOP_GOAL: f64 = 0.80;
/// How many questions a smoke run asks, of its one conversation.
const SMOKE_QUESTIONS: usize = 20;

/// Runs the part; without `data` the section says it was skipped.
pub fn run(data: Option<&Path>, smoke: bool) -> Result<Section, String> {
    let Some(data) = data else {
        return Ok(Section {
            title: TITLE.to_owned(),
            intro: "Evidence recall on LoCoMo (Maharana et al., ACL 2024) was not measured.".to_owned(),
            table: Table::new(&["system"]),
            targets: Vec::new(),
            notes: vec![
                "Skipped: no `--data PATH` named the LoCoMo JSON. It is not in the repository, \
                 because its licence is CC BY-NC 4.0."
                    .to_owned(),
            ],
        });
    };
    let started = Instant::now();
    let (mut conversations, unreadable) = read(data)?;
    if smoke {
        conversations.truncate(1);
        for conversation in &mut conversations {
            conversation.questions.truncate(SMOKE_QUESTIONS);
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
    for (&budget, &goal) in BUDGETS.iter().zip(&GOALS) {
        let mut scores: [Score; 5] = Default::default();
        for conversation in &conversations {
            for (slot, mode) in [(0, Mode::Meaning), (1, Mode::Keywords), (2, Mode::Off)] {
                let score = runtime.block_on(tidemark(conversation, budget, mode))?;
                scores[slot].merge(&score);
            }
            let [.., bm25, recency] = &mut scores;
            baselines(conversation, budget, &counter, bm25, recency);
        }
        for (system, score) in SYSTEMS.iter().zip(&scores) {
            let mut row = vec![thousands(u64::from(budget)), (*system).to_owned()];
            row.extend((0..5).map(|slot| score.cell(slot)));
            row.push(format!("{:.0}%", 100.0 * score.fill / score.prompts.max(1) as f64));
            table.row(row);
        }
        let (on, keywords, bm25) = (scores[0].share(0), scores[1].share(0), scores[3].share(0));
        let ratio = on / bm25.max(f64::MIN_POSITIVE);
        if !smoke {
            targets.push(Target {
                goal: format!(
                    "evidence recall with recall on ≥ {goal}× BM25 + recency at {} tokens",
                    thousands(u64::from(budget))
                ),
                measured: format!(
                    "{ratio:.2}× ({:.1}% against {:.1}%; by keywords alone {:.2}×)",
                    100.0 * on,
                    100.0 * bm25,
                    keywords / bm25.max(f64::MIN_POSITIVE)
                ),
                met: ratio >= goal,
            });
        }
    }

    let mut passages = Found::default();
    let mut keyword_passages = Found::default();
    let mut turns = Found::default();
    for conversation in &conversations {
        passages.add(&runtime.block_on(top_passages(conversation, &counter, Mode::Meaning))?);
        keyword_passages.add(&runtime.block_on(top_passages(conversation, &counter, Mode::Keywords))?);
        turns.add(&top_turns(conversation));
    }
    let measured = format!(
        "{} (by keywords alone: {}; BM25 over whole turns, top {TOP}: {})",
        passages.describe(),
        keyword_passages.describe(),
        turns.describe()
    );
    notes.push(format!(
        "Budget-free, the share of evidence turns among tidemark's top {TOP} passages (`search_passages` below the \
         end of the conversation, a turn counted once whichever of its passages is found): {measured}."
    ));
    if !smoke {
        targets.push(Target {
            goal: format!(
                "evidence turns among tidemark's top {TOP} passages ≥ {:.0}%, without a budget",
                100.0 * TOP_GOAL
            ),
            measured,
            met: passages.share() >= TOP_GOAL,
        });
    }

    let questions: usize = conversations.iter().map(|c| c.questions.len()).sum();
    let mut ids = Ids::default();
    for conversation in &conversations {
        ids.add(&conversation.ids);
    }
    let names: Vec<&str> = conversations.iter().map(|c| c.name.as_str()).collect();
    notes.push(format!(
        "{} conversations ({}), {questions} questions of categories 1–4 asked. The evidence ids of all their \
         questions of categories 1–4: {} read as written, {} read after splitting a list or dropping a stray \
         colon, {} skipped (malformed, or naming no turn); {} questions were left out because they named no \
         evidence turn (an empty list, or only skipped ids).",
        conversations.len(),
        names.join(", "),
        ids.read,
        ids.repaired,
        ids.skipped,
        ids.unanswerable,
    ));
    if unreadable > 0 {
        notes.push(format!("{unreadable} entries of the file were not conversations in the authors' format and were left out."));
    }
    notes.push(
        "For comparison, the LoCoMo paper reports dense retrieval (DRAGON) finding roughly 80–85% of evidence \
         turns within the top 25–50 retrieved turns. That is the paper's figure, not measured here."
            .to_owned(),
    );
    if smoke {
        notes.push(format!(
            "Smoke run: the first conversation and its first {SMOKE_QUESTIONS} questions; no target is judged."
        ));
    }
    notes.push(format!("The part took {:.1} s.", started.elapsed().as_secs_f64()));

    Ok(Section {
        title: TITLE.to_owned(),
        intro: format!(
            "Evidence recall on the LoCoMo dev half (Maharana et al., ACL 2024; CC BY-NC 4.0, read from `--data`, \
             never copied): the share of questions of categories 1–4 whose every evidence turn is in the prompt. \
             tidemark appends each conversation turn by turn to an in-memory store, loading after each \
             (`TokenWindow` at the budget, a stand-in summary capped at as many bytes as the budget has tokens, \
             not searched), and loads each question as the newest user message of a copy of the finished \
             conversation; a turn counts when it is in the window or the recall block ({RECALL_PERCENT}% of the \
             budget) quotes a passage of it. Recall runs by keywords alone, and by keywords fused with meaning \
             (the store given tidemark-embed's bundled static model). The baselines fill the same budget with the same counter \
             (`HeuristicCounter`): BM25 over whole turns for {BM25_PERCENT}% and the most recent turns for the \
             rest, and the most recent turns alone."
        ),
        table,
        targets,
        notes,
    })
}

/// The systems measured, in the order of the table and of [`Score`] slots.
const SYSTEMS: [&str; 5] = [
    "tidemark, recall by meaning and keywords",
    "tidemark, recall by keywords",
    "tidemark, recall off",
    "BM25 15% + recency",
    "recency",
];

/// How a tidemark run recalls: not at all, by keywords only, or by keywords and meaning (the shipped static model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Off,
    Keywords,
    Meaning,
}

/// A store that recalls the way `mode` says.
fn store(mode: Mode) -> InMemoryStore {
    match mode {
        Mode::Meaning => InMemoryStore::new().with_embedder(crate::embedder()),
        Mode::Off | Mode::Keywords => InMemoryStore::new(),
    }
}

/// One turn of a conversation: its dia id, its speaker's side and the text appended for it.
struct Turn {
    dia: String,
    user: bool,
    text: String,
}

impl Turn {
    fn message(&self) -> Message {
        if self.user { Message::user(self.text.clone()) } else { Message::assistant(self.text.clone()) }
    }
}

/// One question: its category and the indices of its evidence turns, ascending and without repeats.
struct Question {
    text: String,
    category: u64,
    evidence: Vec<usize>,
}

struct Conversation {
    name: String,
    turns: Vec<Turn>,
    questions: Vec<Question>,
    ids: Ids,
}

/// What became of the evidence ids of a conversation's questions of categories 1 to 4.
#[derive(Debug, Default)]
struct Ids {
    /// Ids that named a turn as written.
    read: usize,
    /// Ids that named a turn once split out of a list or rid of a stray colon.
    repaired: usize,
    /// Ids that could not be parsed or named no turn.
    skipped: usize,
    /// Questions left without any evidence turn.
    unanswerable: usize,
}

impl Ids {
    fn add(&mut self, other: &Ids) {
        self.read += other.read;
        self.repaired += other.repaired;
        self.skipped += other.skipped;
        self.unanswerable += other.unanswerable;
    }
}

/// Reads the conversations of the authors' JSON at `path`, and how many entries were not conversations.
fn read(path: &Path) -> Result<(Vec<Conversation>, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let samples =
        value.as_array().ok_or_else(|| format!("{} is not a list of conversations", path.display()))?;
    let conversations: Vec<Conversation> = samples.iter().filter_map(conversation).collect();
    if conversations.is_empty() {
        return Err(format!("{} holds no conversation in the authors' format", path.display()));
    }
    let unreadable = samples.len() - conversations.len();
    Ok((conversations, unreadable))
}

/// One conversation of the file, or `None` when the entry lacks its speakers or its QA list.
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
    let mut ids = Ids::default();
    let mut questions = Vec::new();
    for item in sample.get("qa")?.as_array()? {
        let (Some(text), Some(category)) = (item["question"].as_str(), item["category"].as_u64()) else {
            continue;
        };
        if !(1..=4).contains(&category) {
            continue;
        }
        let mut evidence = Vec::new();
        for written in item["evidence"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            // Some ids are lists in one string ("D8:6; D9:17") or carry a stray colon ("D:11:26").
            let pieces: Vec<&str> = written.split([';', ',', ' ']).filter(|id| !id.is_empty()).collect();
            let split = pieces.len() > 1;
            for piece in pieces {
                if let Some(&turn) = index.get(piece) {
                    evidence.push(turn);
                    if split {
                        ids.repaired += 1;
                    } else {
                        ids.read += 1;
                    }
                    continue;
                }
                let mended = piece.strip_prefix("D:").map(|rest| format!("D{rest}"));
                match mended.as_deref().and_then(|id| index.get(id)) {
                    Some(&turn) => {
                        evidence.push(turn);
                        ids.repaired += 1;
                    }
                    None => ids.skipped += 1,
                }
            }
        }
        evidence.sort_unstable();
        evidence.dedup();
        if evidence.is_empty() {
            ids.unanswerable += 1;
        } else {
            questions.push(Question { text: text.to_owned(), category, evidence });
        }
    }
    let name = sample["sample_id"].as_str().unwrap_or("conversation").to_owned();
    Some(Conversation { name, turns, questions, ids })
}

/// What one system got: questions with every evidence turn in the prompt, overall (slot 0) and by category, and the budget fill.
#[derive(Debug, Default, Clone)]
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

    fn merge(&mut self, other: &Score) {
        for slot in 0..5 {
            self.hit[slot] += other.hit[slot];
            self.asked[slot] += other.asked[slot];
        }
        self.fill += other.fill;
        self.prompts += other.prompts;
    }

    fn share(&self, slot: usize) -> f64 {
        self.hit[slot] as f64 / self.asked[slot].max(1) as f64
    }

    fn cell(&self, slot: usize) -> String {
        if self.asked[slot] == 0 {
            return "–".to_owned();
        }
        format!("{:.1}% ({}/{})", 100.0 * self.share(slot), self.hit[slot], self.asked[slot])
    }
}

/// Evidence turns found among a top list, against all evidence turns asked for.
#[derive(Debug, Default)]
struct Found {
    found: usize,
    wanted: usize,
}

impl Found {
    fn add(&mut self, other: &Found) {
        self.found += other.found;
        self.wanted += other.wanted;
    }

    fn count(&mut self, evidence: &[usize], top: &HashSet<usize>) {
        self.wanted += evidence.len();
        self.found += evidence.iter().filter(|turn| top.contains(turn)).count();
    }

    fn share(&self) -> f64 {
        self.found as f64 / self.wanted.max(1) as f64
    }

    fn describe(&self) -> String {
        format!("{:.1}% ({}/{})", 100.0 * self.share(), self.found, self.wanted)
    }
}

/// A memory at `budget` over `store`, with the recall block or without.
type Memory = CompactingMemory<InMemoryStore, TokenWindow<HeuristicCounter>, ConcatCompactor>;

fn memory(store: &InMemoryStore, budget: u32, recall: bool) -> Result<Memory, String> {
    let window = TokenWindow::new(NonZeroU32::new(budget).ok_or("zero budget")?, HeuristicCounter::default());
    // A stand-in summary of at most `budget` bytes: about a quarter of the budget at four bytes a token.
    let compactor = ConcatCompactor::capped(usize::try_from(budget).unwrap_or(usize::MAX));
    let memory = CompactingMemory::new(store.clone(), window, compactor);
    Ok(if recall {
        memory.with_context(Recall::new(store.clone()), budget * RECALL_PERCENT / 100)
    } else {
        memory
    })
}

/// Appends `conversation` to a fresh memory at `budget`, recalling as `mode` says, and asks every question in a copy of it.
async fn tidemark(conversation: &Conversation, budget: u32, mode: Mode) -> Result<Score, String> {
    let store = store(mode);
    let counter = HeuristicCounter::default();
    let memory = memory(&store, budget, mode != Mode::Off)?;
    let id = ConversationId::new(format!("locomo/{}", conversation.name)).map_err(|e| e.to_string())?;
    // Which turn each stored message is, by its sequence number.
    let mut turn_of: HashMap<Seq, usize> = HashMap::new();
    for (turn, said) in conversation.turns.iter().enumerate() {
        let range = memory.append(&id, vec![said.message()]).await.map_err(|e| format!("append: {e}"))?;
        turn_of.insert(range.start, turn);
        memory.load(&id).await.map_err(|e| format!("load: {e}"))?;
    }
    let stored = store.load_range(&id, SeqRange::from(Seq::ZERO)).await.map_err(|e| e.to_string())?;
    let state = store.state(&id).await.map_err(|e| e.to_string())?;
    let by_text: HashMap<&str, usize> =
        conversation.turns.iter().enumerate().map(|(i, turn)| (turn.text.as_str(), i)).collect();

    let mut score = Score::default();
    for (number, question) in conversation.questions.iter().enumerate() {
        let copy = ConversationId::new(format!("locomo/{}/q{number}", conversation.name))
            .map_err(|e| e.to_string())?;
        let copied = copy_conversation(&store, &copy, &stored, &state).await?;
        let copied_turns: HashMap<Seq, usize> =
            copied.iter().filter_map(|(from, to)| Some((*to, *turn_of.get(from)?))).collect();
        memory
            .append(&copy, vec![Message::user(question.text.clone())])
            .await
            .map_err(|e| format!("append: {e}"))?;
        let prompt = memory.load(&copy).await.map_err(|e| format!("load: {e}"))?;
        let held = in_prompt(&prompt, &by_text, &copied_turns);
        let hit = question.evidence.iter().all(|turn| held.contains(turn));
        score.add(question.category, hit, f64::from(counter.count_prompt(&prompt)) / f64::from(budget));
        store.clear(&copy).await.map_err(|e| e.to_string())?;
    }
    Ok(score)
}

/// Copies `stored` and `state` into the fresh conversation `copy`; returns each original sequence number with its copy's.
async fn copy_conversation(
    store: &InMemoryStore,
    copy: &ConversationId,
    stored: &[StoredMessage],
    state: &CompactionState,
) -> Result<HashMap<Seq, Seq>, String> {
    let messages = stored.iter().map(|m| NewMessage::new(Message::clone(&m.message), m.tokens)).collect();
    let range = store.append(copy, messages).await.map_err(|e| e.to_string())?;
    // The store gives an append consecutive numbers; the copy's may start elsewhere than the original's.
    let map: HashMap<Seq, Seq> =
        stored.iter().enumerate().map(|(i, m)| (m.seq, range.start.after(i as u64))).collect();
    let watermark = stored
        .iter()
        .position(|m| m.seq >= state.watermark)
        .map_or(range.end, |i| range.start.after(i as u64));
    let retained = state
        .retained
        .iter()
        .map(|seq| map.get(seq).copied().ok_or_else(|| format!("retained message {seq} is not stored")))
        .collect::<Result<Vec<Seq>, String>>()?;
    let generation = store.state(copy).await.map_err(|e| e.to_string())?.generation;
    let copied = CompactionState::new(watermark, retained, state.summary.clone());
    store.save_state(copy, generation, copied).await.map_err(|e| format!("copying the state: {e}"))?;
    Ok(map)
}

/// The turns a tidemark prompt holds: window messages by their text, recall block lines by their sequence number.
fn in_prompt(
    prompt: &[Message],
    by_text: &HashMap<&str, usize>,
    turn_of: &HashMap<Seq, usize>,
) -> HashSet<usize> {
    let mut found = HashSet::new();
    for message in prompt {
        let text = message.text();
        if text.starts_with(OPEN) {
            // Each passage's label starts a line ("- turn 12 (user): …"); its continuation lines are indented.
            for line in text.lines() {
                let seq = line.strip_prefix("- turn ").and_then(|rest| rest.split(' ').next()?.parse().ok());
                found.extend(seq.and_then(|seq| turn_of.get(&Seq(seq))));
            }
        } else if let Some(&turn) = by_text.get(text.as_ref()) {
            found.insert(turn);
        }
    }
    found
}

/// The evidence turns among the top passages of a store holding the whole of `conversation`.
async fn top_passages(
    conversation: &Conversation,
    counter: &HeuristicCounter,
    mode: Mode,
) -> Result<Found, String> {
    let store = store(mode);
    let id = ConversationId::new(format!("locomo/{}", conversation.name)).map_err(|e| e.to_string())?;
    let messages = conversation
        .turns
        .iter()
        .map(|turn| {
            let message = turn.message();
            let tokens = counter.count(&message);
            NewMessage::new(message, tokens)
        })
        .collect();
    let range = store.append(&id, messages).await.map_err(|e| e.to_string())?;
    let mut found = Found::default();
    for question in &conversation.questions {
        let query = RecallQuery::new(question.text.clone(), range.end, TOP);
        let passages = store.search_passages(&id, &query).await.map_err(|e| e.to_string())?;
        let top: HashSet<usize> = passages
            .iter()
            .filter_map(|passage| usize::try_from(passage.seq.distance_from(range.start)).ok())
            .collect();
        found.count(&question.evidence, &top);
    }
    Ok(found)
}

/// The evidence turns among BM25's top turns.
fn top_turns(conversation: &Conversation) -> Found {
    let index = Bm25::new(&conversation.turns);
    let mut found = Found::default();
    for question in &conversation.questions {
        let top: HashSet<usize> = index.rank(&question.text).into_iter().take(TOP).collect();
        found.count(&question.evidence, &top);
    }
    found
}

/// Scores both baselines on every question of `conversation` at `budget`.
fn baselines(
    conversation: &Conversation,
    budget: u32,
    counter: &HeuristicCounter,
    bm25: &mut Score,
    recency: &mut Score,
) {
    let tokens: Vec<u32> = conversation.turns.iter().map(|turn| counter.count(&turn.message())).collect();
    let index = Bm25::new(&conversation.turns);
    let overhead = counter.count_prompt(&[]);
    for question in &conversation.questions {
        let asked = counter.count(&Message::user(question.text.clone()));
        let room = budget.saturating_sub(overhead).saturating_sub(asked);
        let ranked = index.rank(&question.text);
        for (score, share) in [(&mut *bm25, BM25_PERCENT), (&mut *recency, 0)] {
            let (chosen, used) = fill(&tokens, &ranked, room, budget * share / 100);
            let hit = question.evidence.iter().all(|turn| chosen.contains(turn));
            score.add(question.category, hit, f64::from(overhead + asked + used) / f64::from(budget));
        }
    }
}

/// The turns a baseline puts in `room` tokens: the best `ranked` turns within `best` tokens, then the most recent turns; and the tokens they take.
fn fill(tokens: &[u32], ranked: &[usize], room: u32, best: u32) -> (HashSet<usize>, u32) {
    let mut chosen = HashSet::new();
    let mut used = 0u32;
    let best = best.min(room);
    for &turn in ranked {
        let Some(&cost) = tokens.get(turn) else { continue };
        if used.saturating_add(cost) <= best {
            used += cost;
            chosen.insert(turn);
        }
    }
    for (turn, &cost) in tokens.iter().enumerate().rev() {
        if chosen.contains(&turn) {
            continue;
        }
        if used.saturating_add(cost) > room {
            break;
        }
        used += cost;
        chosen.insert(turn);
    }
    (chosen, used)
}

/// Lower-case word tokens, for BM25.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

/// BM25 over whole turns.
struct Bm25 {
    docs: Vec<HashMap<String, u32>>,
    lengths: Vec<f64>,
    average: f64,
    df: HashMap<String, u32>,
}

impl Bm25 {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;

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

    /// Turn indices, best first; only turns that share a word with the query, ties to the earlier turn.
    fn rank(&self, query: &str) -> Vec<usize> {
        let n = self.docs.len() as f64;
        let terms: HashSet<String> = words(query).collect();
        let mut scored: Vec<(f64, usize)> = self
            .docs
            .iter()
            .zip(&self.lengths)
            .enumerate()
            .filter_map(|(i, (doc, &length))| {
                let norm = Self::K1 * (1.0 - Self::B + Self::B * length / self.average.max(1.0));
                let score: f64 = terms
                    .iter()
                    .filter_map(|term| {
                        let tf = f64::from(*doc.get(term)?);
                        let df = f64::from(*self.df.get(term)?);
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        Some(idf * tf * (Self::K1 + 1.0) / (tf + norm))
                    })
                    .sum();
                (score > 0.0).then_some((score, i))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    }
}

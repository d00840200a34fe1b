//! The recall benchmark of issue 15 as a test: a session of more than 600 turns with planted facts, an 8,000-token budget on SQLite, and a question about each fact at the end.
//!
//! The session is `tidemark_testkit::planted::planted_session`: the generated
//! coding, support and research turns with the three recorded transcripts of
//! `tidemark-providers/tests/data` spliced in, and 24 facts planted at
//! spread-out turns from seeded templates (eight phrasing families, said by
//! the user, stated by the assistant or returned by a tool). Every turn is
//! appended to a `CompactingMemory` over an SQLite file (a `TokenWindow` of
//! 8,000 tokens, `ConcatCompactor::capped`, the `FactCoordinator` as its
//! observer) and loaded once, as an agent does. At the end each fact is asked
//! about in a new user turn and the prompt is loaded.
//!
//! Asserted: recall (the fact's key value is in the returned prompt) of at
//! least 95%, a precision of the stored facts of at least 90% under the strict
//! judge of `tidemark_testkit::judge`, and no prompt over the budget as the
//! policy's counter counts it. Timings are the benchmark's
//! (`bench/compare`, `recall`), never asserted here. Run with `--nocapture`
//! to see the figures.

use std::num::NonZeroU32;
use std::sync::Arc;

use serde_json::Value;
use tidemark_core::{ConversationId, ConversationMemory, FactFilter, FactStore, Message, TokenCounter};
use tidemark_facts::{FactCoordinator, Recall};
use tidemark_memory::{CompactingMemory, HeuristicCounter, SqliteStore, TokenWindow};
use tidemark_providers::wire::from_wire;
use tidemark_testkit::judge::is_real;
use tidemark_testkit::planted::{PlantedSession, planted_session, turns};
use tidemark_testkit::reference::ConcatCompactor;

/// The budget of issue 15.
const BUDGET: u32 = 8_000;

/// The facts block's allowance, in tokens (the benchmark's too).
const FACTS_TOKENS: u32 = 600;

/// The recall block's allowance, in tokens (the benchmark's too).
const RECALL_TOKENS: u32 = 1_200;

/// The recorded transcripts shipped with tidemark-providers (see its `tests/data/SOURCES.md`).
fn recorded() -> Vec<Vec<Message>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tidemark-providers/tests/data");
    [
        "tau-bench-airline-gpt4o-task002-trial1.jsonl",
        "swe-agent-marshmallow-1867-fncall.jsonl",
        "openhands-sdk-hello-world-claude-sonnet-4.jsonl",
    ]
    .iter()
    .map(|name| {
        let text = std::fs::read_to_string(dir.join(name)).expect("recorded transcript");
        let values: Vec<Value> =
            text.lines().map(|line| serde_json::from_str(line).expect("one JSON message a line")).collect();
        from_wire(&values).expect("a recorded transcript reads")
    })
    .collect()
}

/// What one run measured.
#[derive(Debug, Default)]
struct Figures {
    recalled: usize,
    asked: usize,
    real: usize,
    stored: usize,
    over_budget: usize,
    loads: usize,
    missed: Vec<String>,
    junk: Vec<String>,
}

async fn run(session: &PlantedSession) -> Figures {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = SqliteStore::open(dir.path().join("recall.db")).expect("sqlite file");
    let coordinator = Arc::new(FactCoordinator::new(store.clone()));
    let counter = HeuristicCounter::default();
    let budget = NonZeroU32::new(BUDGET).expect("non-zero");
    let memory = CompactingMemory::new(
        store.clone(),
        TokenWindow::new(budget, counter),
        ConcatCompactor::capped(4_096),
    )
    .with_observer(Arc::clone(&coordinator))
    .with_context(Arc::clone(&coordinator), FACTS_TOKENS)
    .with_context(Recall::new(store.clone()), RECALL_TOKENS);
    let conversation = ConversationId::new("recall-bench").expect("valid id");
    let mut figures = Figures::default();
    let check = |prompt: &[Message], figures: &mut Figures| {
        figures.loads += 1;
        if counter.count_prompt(prompt) > BUDGET {
            figures.over_budget += 1;
        }
    };
    for turn in turns(&session.history) {
        memory.append(&conversation, turn.to_vec()).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        check(&prompt, &mut figures);
    }
    for fact in &session.facts {
        memory.append(&conversation, vec![Message::user(fact.question.clone())]).await.expect("append");
        let prompt = memory.load(&conversation).await.expect("load");
        check(&prompt, &mut figures);
        let text: String = prompt.iter().map(|message| message.text().into_owned() + "\n").collect();
        let hit = text.contains(&fact.key);
        figures.asked += 1;
        figures.recalled += usize::from(hit);
        if !hit {
            figures
                .missed
                .push(format!("{:?}/{}: {} ({})", fact.speaker, fact.family, fact.key, fact.question));
        }
        memory.append(&conversation, vec![Message::assistant("Let me look that up.")]).await.expect("append");
    }
    let statements = session.statements();
    for fact in store.list(&FactFilter::default()).await.expect("facts") {
        figures.stored += 1;
        if is_real(&fact.text, &statements) {
            figures.real += 1;
        } else if figures.junk.len() < 20 {
            figures.junk.push(fact.text.clone());
        }
    }
    figures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_facts_come_back_within_the_budget_after_600_turns() {
    let session = planted_session(2026, 640, 24, &recorded());
    assert!(session.turns >= 600, "{} turns", session.turns);
    let figures = run(&session).await;
    println!(
        "recall {}/{} ({:.1}%), precision {}/{} ({:.1}%), prompts over budget {} of {}",
        figures.recalled,
        figures.asked,
        100.0 * figures.recalled as f64 / figures.asked as f64,
        figures.real,
        figures.stored,
        100.0 * figures.real as f64 / figures.stored.max(1) as f64,
        figures.over_budget,
        figures.loads,
    );
    for missed in &figures.missed {
        println!("  missed {missed}");
    }
    for junk in &figures.junk {
        println!("  junk {junk}");
    }
    assert_eq!(figures.over_budget, 0, "prompts over the budget");
    assert!(figures.recalled * 100 >= figures.asked * 95, "recall {}/{}", figures.recalled, figures.asked);
    assert!(figures.real * 100 >= figures.stored * 90, "precision {}/{}", figures.real, figures.stored);
}

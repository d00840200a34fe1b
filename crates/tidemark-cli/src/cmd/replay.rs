//! `tidemark replay`: a transcript replayed turn by turn through the memory, as an agent would, with a summary table and an optional HTML report.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tidemark_core::boxed::BoxMemory;
use tidemark_core::{
    CompactionEvent, CompactionObserver, ConversationMemory, ConversationStore, Message, Outcome, Role,
    TokenCounter,
};
use tidemark_facts::Recall;
use tidemark_memory::{CompactingMemory, PolicyMemory};

use crate::args::{ReplayArgs, Window};
use crate::error::CliError;
use crate::report::{self, Point};
use crate::{input, setup};

/// Keeps every compaction event of the replay.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<CompactionEvent>>>);

impl CompactionObserver for Events {
    fn on_event(&self, event: &CompactionEvent) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(event.clone());
    }
}

impl Events {
    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    fn applied(&self) -> usize {
        let events = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        events.iter().filter(|event| event.outcome == Outcome::Applied).count()
    }
}

/// The transcript cut into turns: a turn starts at each user message.
pub(crate) fn turns(messages: &[Message]) -> Vec<Vec<Message>> {
    let mut turns: Vec<Vec<Message>> = Vec::new();
    for message in messages {
        match turns.last_mut() {
            Some(turn) if message.role != Role::User || turn.iter().all(|m| m.role != Role::User) => {
                turn.push(message.clone());
            }
            _ => turns.push(vec![message.clone()]),
        }
    }
    turns
}

pub(crate) async fn run(args: ReplayArgs) -> Result<(), CliError> {
    let transcript = input::read(Some(&args.file), false, args.format)?;
    let counter = setup::counter(args.counter)?;
    let compactor = setup::compactor(args.summarizer)?;
    let store = setup::store(&args.store.store).await?;
    let id = args.conversation.clone();
    store.clear(&id).await.map_err(|error| CliError::runtime("clearing the replay conversation", error))?;
    let events = Events::default();
    let policy = setup::policy(Window { budget: Some(args.budget), last: None }, &counter);
    let recall = args.recall.recall.then(|| Arc::new(Recall::new(store.clone())));
    let (percent, fallback) = setup::RECALL_PERCENT;
    let contexts = setup::Contexts {
        facts: None,
        recall: recall.as_ref().map(|recall| {
            let tokens = setup::allowance(args.recall.recall_tokens, Some(args.budget), percent, fallback);
            (Arc::clone(recall), tokens)
        }),
    };
    let memory: BoxMemory = match compactor {
        Some(compactor) => Box::new(
            contexts
                .apply(CompactingMemory::new(store.clone(), policy, compactor).with_observer(events.clone())),
        ),
        None => Box::new(contexts.apply(PolicyMemory::new(store.clone(), policy))),
    };
    let turns = turns(&transcript.messages);
    let progress = ProgressBar::new(turns.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} turns {elapsed}") {
        progress.set_style(style);
    }
    let started = Instant::now();
    let (mut points, mut loads) = (Vec::with_capacity(turns.len()), Vec::with_capacity(turns.len()));
    let mut raw = u64::from(counter.prompt_overhead());
    let mut compactions_before = 0;
    for (index, turn) in turns.into_iter().enumerate() {
        raw += turn.iter().map(|message| u64::from(counter.count(message))).sum::<u64>();
        memory.append(&id, turn).await.map_err(|error| CliError::runtime("appending a turn", error))?;
        let load_started = Instant::now();
        let prompt = memory.load(&id).await.map_err(|error| CliError::runtime("loading a turn", error))?;
        loads.push(load_started.elapsed());
        let compactions = events.applied();
        points.push(Point {
            turn: index + 1,
            raw,
            prompt: u64::from(counter.count_prompt(&prompt)),
            compacted: compactions > compactions_before,
        });
        compactions_before = compactions;
        progress.inc(1);
    }
    progress.finish_and_clear();
    let total = started.elapsed();
    let summary = report::Summary {
        turns: points.len(),
        raw_tokens: raw,
        largest_prompt: points.iter().map(|p| p.prompt).max().unwrap_or(0),
        budget: args.budget.get(),
        compactions: events.applied(),
        summarizer_calls: events.len(),
        p50: percentile(&loads, 0.50),
        p99: percentile(&loads, 0.99),
        total,
        file: args.file.display().to_string(),
        recall: recall.map(|recall| recall.counters(&id)),
    };
    println!("{}", summary.table());
    if let Some(path) = &args.report {
        std::fs::write(path, report::html(&summary, &points))
            .map_err(|error| CliError::runtime("writing the report", error))?;
        eprintln!("tidemark: wrote {}", path.display());
    }
    Ok(())
}

fn percentile(samples: &[Duration], fraction: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let index = ((sorted.len().saturating_sub(1)) as f64 * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_starts_at_each_user_message() {
        let history = [
            Message::system("s"),
            Message::user("a"),
            Message::assistant("b"),
            Message::user("c"),
            Message::user("d"),
        ];
        let lengths: Vec<usize> = turns(&history).iter().map(Vec::len).collect();
        assert_eq!(lengths, vec![3, 1, 1]);
        assert!(turns(&[]).is_empty());
    }
}

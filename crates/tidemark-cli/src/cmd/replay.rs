//! `tidemark replay`: a transcript replayed turn by turn through the memory, as an agent would, with a summary table and an optional HTML report.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tidemark_core::boxed::BoxMemory;
use tidemark_core::cache::CacheLedger;
use tidemark_core::{
    CompactionEvent, CompactionObserver, ContentHash, ConversationMemory, ConversationStore, Message,
    Outcome, Role, TokenCounter,
};
use tidemark_facts::Recall;
use tidemark_memory::{CompactingMemory, PolicyMemory};

use crate::args::{ReplayArgs, Window};
use crate::error::CliError;
use crate::report::{self, Compaction, Point};
use crate::{input, setup};

/// Keeps every compaction event of the replay.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<CompactionEvent>>>);

impl CompactionObserver for Events {
    fn on_event(&self, event: &CompactionEvent) {
        self.lock().push(event.clone());
    }
}

impl Events {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<CompactionEvent>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Events that asked the summarizer: every one but the loads that served a pending summary.
    fn calls(&self) -> usize {
        self.lock().iter().filter(|event| event.outcome != Outcome::Deferred).count()
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.lock().iter().filter(|event| event.outcome == outcome).count()
    }

    /// The events recorded from index `from` on.
    fn since(&self, from: usize) -> Vec<CompactionEvent> {
        self.lock().get(from..).unwrap_or_default().to_vec()
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

/// The same messages cut at each model call: a call before every assistant message that follows a user message or a tool result.
pub(crate) fn calls(messages: &[Message]) -> Vec<Vec<Message>> {
    let mut calls: Vec<Vec<Message>> = Vec::new();
    for message in messages {
        let starts = message.role == Role::Assistant
            && calls.last().and_then(|call| call.last()).is_some_and(|last| last.role != Role::Assistant);
        match calls.last_mut() {
            Some(call) if !starts => call.push(message.clone()),
            _ => calls.push(vec![message.clone()]),
        }
    }
    calls
}

pub(crate) async fn run(args: ReplayArgs) -> Result<(), CliError> {
    let prices = setup::cache_prices(args.cache)?;
    let transcript = input::read(Some(&args.file), false, args.format)?;
    let counter = setup::counter(args.counter)?;
    // A segmented compaction may call its summarizer once per part of what it evicts: those calls are counted here.
    let segment_calls = Arc::new(AtomicUsize::new(0));
    let compactor = if args.cache_aware {
        let density = setup::template_bytes_per_token(&transcript.messages, &counter);
        setup::segmented_compactor(args.summarizer, args.budget, &counter, density, &segment_calls)?
    } else {
        setup::compactor(args.summarizer, Some(args.budget))?
    };
    let store = setup::store(&args.store.store).await?;
    let id = args.conversation.clone();
    store.clear(&id).await.map_err(|error| CliError::runtime("clearing the replay conversation", error))?;
    let events = Events::default();
    let policy = if args.cache_aware {
        setup::cache_aware_policy(args.budget, &counter, prices)
    } else {
        setup::policy(Window { budget: Some(args.budget), last: None }, &counter)
    };
    let recall = args.recall.recall.then(|| Arc::new(Recall::new(store.clone())));
    let (percent, fallback) = setup::RECALL_PERCENT;
    let contexts = setup::Contexts {
        facts: None,
        recall: recall.as_ref().map(|recall| {
            let tokens = setup::allowance(args.recall.recall_tokens, Some(args.budget), percent, fallback);
            (Arc::clone(recall), tokens)
        }),
    };
    let mut background = None;
    let memory: BoxMemory = match compactor {
        Some(compactor) => {
            let compacting = contexts
                .apply(CompactingMemory::new(store.clone(), policy, compactor).with_observer(events.clone()));
            if args.background {
                // The command's own runtime has one thread, on which a background task would only
                // run when a turn waits; the compactions get a worker of their own, as in a server.
                let workers = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("tidemark-compaction")
                    .enable_all()
                    .build()
                    .map_err(|error| CliError::runtime("starting the compaction runtime", error))?;
                let memory = Arc::new(compacting.in_background().with_runtime(workers.handle().clone()));
                background = Some((Arc::clone(&memory), workers));
                Box::new(memory)
            } else {
                Box::new(compacting)
            }
        }
        None => Box::new(contexts.apply(PolicyMemory::new(store.clone(), policy))),
    };
    let turns = if args.per_call { calls(&transcript.messages) } else { turns(&transcript.messages) };
    let progress = ProgressBar::new(turns.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} turns {elapsed}") {
        progress.set_style(style);
    }
    let mut events_seen = 0;
    let mut ledger = CacheLedger::new(prices);
    // The time spent appending and loading: measuring each prompt is not part of it.
    let mut busy = Duration::ZERO;
    let (mut points, mut loads) = (Vec::with_capacity(turns.len()), Vec::with_capacity(turns.len()));
    let mut compactions = Vec::new();
    let mut raw = u64::from(counter.prompt_overhead());
    let mut last_prompt = Vec::new();
    for (index, turn) in turns.into_iter().enumerate() {
        raw += turn.iter().map(|message| u64::from(counter.count(message))).sum::<u64>();
        let turn_started = Instant::now();
        memory.append(&id, turn).await.map_err(|error| CliError::runtime("appending a turn", error))?;
        let load_started = Instant::now();
        let prompt = memory.load(&id).await.map_err(|error| CliError::runtime("loading a turn", error))?;
        loads.push(load_started.elapsed());
        busy += turn_started.elapsed();
        let new_events = events.since(events_seen);
        events_seen += new_events.len();
        let compacted = new_events.iter().any(|event| event.outcome == Outcome::Applied);
        compactions.extend(new_events.into_iter().map(|event| Compaction { turn: index + 1, event }));
        let state =
            store.state(&id).await.map_err(|error| CliError::runtime("reading the summary", error))?;
        let summary = state.summary.as_ref().map(|summary| ContentHash::of(&summary.message));
        points.push(Point {
            turn: index + 1,
            raw,
            prompt: u64::from(counter.count_prompt(&prompt)),
            compacted,
            parts: report::compose(&prompt, summary.as_ref(), &*counter),
            cache: ledger.record_prompt(&prompt, &*counter),
        });
        last_prompt = prompt;
        progress.inc(1);
    }
    progress.finish_and_clear();
    if let Some((memory, workers)) = background {
        // Leave no summary half-way: the last compaction is written before the figures are read.
        memory.flush().await;
        // Dropping a runtime inside another would block; nothing runs on it any more.
        workers.shutdown_background();
    }
    let dropped = dropped(&store, &id, &last_prompt).await?;
    let summary = report::Summary {
        turns: points.len(),
        raw_tokens: raw,
        largest_prompt: points.iter().map(|p| p.prompt).max().unwrap_or(0),
        mean_prompt: points.iter().map(|p| p.prompt as f64).sum::<f64>() / points.len().max(1) as f64,
        budget: args.budget.get(),
        compactions: events.count(Outcome::Applied),
        summarizer_calls: if args.cache_aware {
            segment_calls.load(Ordering::Relaxed)
        } else {
            events.calls()
        },
        deferred: events.count(Outcome::Deferred),
        p50: percentile(&loads, 0.50),
        p99: percentile(&loads, 0.99),
        total: busy,
        file: args.file.display().to_string(),
        cache: ledger.totals(),
        recall: recall.map(|recall| recall.counters(&id)),
        dropped,
    };
    if args.json {
        println!("{}", summary.json());
    } else {
        println!("{}", summary.table());
    }
    if let Some(path) = &args.report {
        std::fs::write(path, report::html(&summary, &points, &compactions))
            .map_err(|error| CliError::runtime("writing the report", error))?;
        eprintln!("tidemark: wrote {}", path.display());
    }
    Ok(())
}

/// The identifiers of the messages below the final watermark (those not retained) that `prompt` does not hold.
async fn dropped(
    store: &tidemark::Store,
    id: &tidemark_core::ConversationId,
    prompt: &[tidemark_core::Message],
) -> Result<tidemark_core::dropped::Dropped, CliError> {
    let state =
        store.state(id).await.map_err(|error| CliError::runtime("reading what was compacted", error))?;
    let (_, evicted) = super::store::below_watermark(store, id, &state).await?;
    Ok(tidemark_core::dropped::dropped(&evicted, prompt))
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

    #[test]
    fn a_call_starts_at_each_assistant_message_after_a_user_or_a_tool_message() {
        let call = tidemark_core::ToolCall::new("c1", "read", serde_json::json!({}));
        let history = [
            Message::system("s"),
            Message::user("a"),
            Message::assistant_tool_calls(vec![call]),
            Message::tool_result("c1", "text"),
            Message::assistant("done"),
            Message::assistant("and more"),
            Message::user("c"),
        ];
        let lengths: Vec<usize> = calls(&history).iter().map(Vec::len).collect();
        assert_eq!(lengths, vec![2, 2, 3]);
        assert!(calls(&[]).is_empty());
    }
}

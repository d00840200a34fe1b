//! The commands on a stored conversation: `append`, `load`, `clear` and `inspect`.

use std::io::Write;
use std::sync::Arc;

use tidemark_core::{CompactionState, ConversationMemory, ConversationStore, Message, TokenCounter};
use tidemark_facts::{FactCoordinator, Recall};
use tidemark_memory::{CompactingMemory, PolicyMemory};

use tidemark::Store as AnyStore;

use crate::args::{AppendArgs, ClearArgs, FormatChoice, InspectArgs, LoadArgs};
use crate::error::CliError;
use crate::format::{Format, Shape};
use crate::output::{Stats, write_transcript};
use crate::{input, setup};

pub(crate) async fn append(args: AppendArgs) -> Result<(), CliError> {
    // The whole input is read and checked before the store is opened, so a
    // rejected input leaves the store file exactly as it was.
    let transcript = input::read_continuation(args.file.as_deref(), args.strict, args.format)?;
    let counter = setup::counter(args.counter)?;
    let store = setup::store(&args.store.store).await?;
    let memory = PolicyMemory::new(store, setup::counting_only(&counter));
    let range = memory
        .append(&args.conversation, transcript.messages)
        .await
        .map_err(|error| CliError::runtime("appending", error))?;
    eprintln!(
        "tidemark: appended {} messages to {} (sequence numbers {range})",
        range.len(),
        args.conversation
    );
    Ok(())
}

pub(crate) async fn load(args: LoadArgs) -> Result<(), CliError> {
    if let Some(seq) = args.as_of {
        return super::history::load_as_of(&args, tidemark_core::Seq(seq)).await;
    }
    let window = crate::args::Window::from(args.window);
    let counter = setup::counter(args.counter)?;
    let compactor = setup::compactor(args.summarizer, setup::budget(window))?;
    let store = setup::store(&args.store.store).await?;
    let id = &args.conversation;
    let before = state(&store, id).await?;
    let stats_before =
        store.stats(id).await.map_err(|error| CliError::runtime("reading the store", error))?;
    let policy = setup::policy(window, &counter);
    let budget = setup::budget(window);
    let facts = args.facts.then(|| {
        let coordinator = FactCoordinator::new(store.clone());
        Arc::new(match &args.user {
            Some(user) => coordinator.for_user(user.clone()),
            None => coordinator,
        })
    });
    let (facts_percent, facts_fallback) = setup::FACTS_PERCENT;
    let (recall_percent, recall_fallback) = setup::RECALL_PERCENT;
    let contexts = setup::Contexts {
        facts: facts.as_ref().map(|facts| {
            (Arc::clone(facts), setup::allowance(args.facts_tokens, budget, facts_percent, facts_fallback))
        }),
        recall: args.recall.recall.then(|| {
            let tokens = setup::allowance(args.recall.recall_tokens, budget, recall_percent, recall_fallback);
            let recall = Recall::new(store.clone());
            let recall = match &args.user {
                Some(user) => recall.for_user(user.clone()),
                None => recall,
            };
            (Arc::new(recall), tokens)
        }),
    };
    // The facts and the quoted passages are context blocks of the memory: their
    // allowances are reserved before the window is fitted, inside the one budget.
    let loaded = match (compactor, &facts) {
        (Some(compactor), Some(facts)) => {
            let memory =
                CompactingMemory::new(store.clone(), policy, compactor).with_observer(Arc::clone(facts));
            contexts.apply(memory).load(id).await
        }
        (Some(compactor), None) => {
            contexts.apply(CompactingMemory::new(store.clone(), policy, compactor)).load(id).await
        }
        (None, _) => contexts.apply(PolicyMemory::new(store.clone(), policy)).load(id).await,
    };
    let prompt = loaded.map_err(|error| CliError::runtime("loading", error))?;
    let after = state(&store, id).await?;
    write_transcript(&prompt, &Shape::new(output_format(args.format, &prompt)), None)?;
    if let Some(format) = args.stats {
        let tokens_out = u64::from(counter.count_prompt(&prompt));
        let compacted = folded(&before, &after);
        let budget = setup::budget(window).map(|budget| budget.get());
        let over = budget.is_some_and(|budget| tokens_out > u64::from(budget));
        Stats {
            messages_in: usize::try_from(stats_before.stored).unwrap_or(usize::MAX),
            messages_out: prompt.len(),
            tokens_in: stats_before.stored_tokens + u64::from(counter.prompt_overhead()),
            tokens_out,
            budget,
            strategy: after.summary.as_ref().map_or_else(|| "window".to_owned(), |s| s.compactor.clone()),
            outcome: if over {
                "over_budget".to_owned()
            } else if compacted > 0 {
                "applied".to_owned()
            } else {
                "unchanged".to_owned()
            },
            repaired: 0,
            compacted: Some(compacted),
            summary_generation: Some(after.generation),
            note: None,
        }
        .print(format);
    }
    Ok(())
}

/// How many messages this load moved out of the window: those between the old and new watermark that are not retained.
fn folded(before: &CompactionState, after: &CompactionState) -> u64 {
    let moved = after.watermark.distance_from(before.watermark);
    let retained = after.retained.iter().filter(|seq| **seq >= before.watermark).count() as u64;
    moved.saturating_sub(retained)
}

async fn state(store: &AnyStore, id: &tidemark_core::ConversationId) -> Result<CompactionState, CliError> {
    store.state(id).await.map_err(|error| CliError::runtime("reading the conversation state", error))
}

pub(crate) async fn clear(args: ClearArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    store.clear(&args.conversation).await.map_err(|error| CliError::runtime("clearing", error))?;
    eprintln!("tidemark: cleared {}", args.conversation);
    Ok(())
}

pub(crate) async fn inspect(args: InspectArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let read = |error| CliError::runtime("reading the store", error);
    let mut out = String::new();
    match &args.conversation {
        None => {
            out.push_str("conversation\tmessages\tnext_seq\twatermark\tgeneration\tsummary_tokens\n");
            for id in store.conversations().await.map_err(read)? {
                let stats = store.stats(&id).await.map_err(read)?;
                let state = store.state(&id).await.map_err(read)?;
                let summary = state.summary.as_ref().map_or_else(|| "-".to_owned(), |s| s.tokens.to_string());
                out.push_str(&format!(
                    "{id}\t{}\t{}\t{}\t{}\t{summary}\n",
                    stats.stored, stats.next_seq, state.watermark, state.generation
                ));
            }
        }
        Some(id) if args.dropped => out.push_str(&dropped_report(&store, id, args.epoch).await?),
        Some(id) if args.history => out.push_str(&super::history::epochs_report(&store, id).await?),
        Some(id) => {
            let stats = store.stats(id).await.map_err(read)?;
            let state = store.state(id).await.map_err(read)?;
            out.push_str(&format!("conversation: {id}\nmessages stored: {}\n", stats.stored));
            out.push_str(&format!(
                "tokens stored: {}\nnext sequence number: {}\n",
                stats.stored_tokens, stats.next_seq
            ));
            out.push_str(&format!(
                "watermark: {}\nretained: {:?}\ngeneration: {}\n",
                state.watermark, state.retained, state.generation
            ));
            match &state.summary {
                None => out.push_str("summary: none\n"),
                Some(summary) => {
                    out.push_str(&format!(
                        "summary ({} tokens, by {}):\n",
                        summary.tokens, summary.compactor
                    ));
                    out.push_str(&Message::text(&summary.message));
                    out.push('\n');
                }
            }
        }
    }
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|error| CliError::runtime("writing the output", error))
}

/// The stored messages of `id` below `state`'s watermark: (those retained in the prompt, those evicted).
pub(crate) async fn below_watermark(
    store: &AnyStore,
    id: &tidemark_core::ConversationId,
    state: &CompactionState,
) -> Result<(Vec<tidemark_core::store::StoredMessage>, Vec<tidemark_core::store::StoredMessage>), CliError> {
    let range = tidemark_core::SeqRange::new(tidemark_core::Seq(0), state.watermark);
    let below =
        store.load_range(id, range).await.map_err(|error| CliError::runtime("reading the store", error))?;
    Ok(below.into_iter().partition(|m| state.retained.contains(&m.seq)))
}

/// What the compactions of `id` dropped, as text: one line per lost identifier (sequence number, role, identifier) after a count.
///
/// With `epoch`, what that epoch's compaction dropped: the messages it evicted (from the watermark of
/// the epoch an undo of it restores up to its own), against its summary, its window as it stood then
/// and the facts.
async fn dropped_report(
    store: &AnyStore,
    id: &tidemark_core::ConversationId,
    epoch: Option<u64>,
) -> Result<String, CliError> {
    use tidemark_core::{FactFilter, FactStore, Scope, SeqRange};
    let read = |error| CliError::runtime("reading the store", error);
    let (state, next_seq, from) = match epoch {
        None => (store.state(id).await.map_err(read)?, store.stats(id).await.map_err(read)?.next_seq, None),
        Some(generation) => {
            let epochs = store.epochs(id).await.map_err(read)?;
            let chosen = tidemark_core::history::find(&epochs, generation)
                .map_err(|error| CliError::runtime("reading the history", error))?;
            let before = chosen
                .undo_to
                .and_then(|to| tidemark_core::history::find(&epochs, to).ok())
                .map_or(tidemark_core::Seq(0), |earlier| earlier.state.watermark);
            (chosen.state.clone(), chosen.next_seq, Some(before))
        }
    };
    let (retained, evicted) = below_watermark(store, id, &state).await?;
    let evicted: Vec<_> =
        evicted.into_iter().filter(|message| from.is_none_or(|from| message.seq >= from)).collect();
    let window = store.load_range(id, SeqRange::new(state.watermark, next_seq)).await.map_err(read)?;
    let mut remaining: Vec<Message> = state.summary.iter().map(|summary| summary.message.clone()).collect();
    remaining.extend(retained.iter().chain(&window).map(|stored| Message::clone(&stored.message)));
    let facts = store
        .list(&FactFilter::scope(Scope::Conversation(id.clone())))
        .await
        .map_err(|error| CliError::runtime("reading the facts", error))?;
    remaining.extend(facts.into_iter().map(|fact| Message::system(fact.text)));
    let report = tidemark_core::dropped::dropped(&evicted, &remaining);
    let scope = match (epoch, from) {
        (Some(generation), Some(from)) => {
            format!("epoch {generation} evicted {} messages from {from} up to", report.evicted)
        }
        _ => format!("evicted: {} messages below", report.evicted),
    };
    let mut out = format!(
        "conversation: {id}\n{scope} watermark {}, {} identifiers, {} held by nothing that remains\n",
        state.watermark,
        report.identifiers,
        report.lost.len()
    );
    for lost in &report.lost {
        let role = evicted.iter().find(|m| m.seq == lost.seq).map_or("?", |m| m.message.role.as_str());
        out.push_str(&format!("{}\t{role}\t{}\n", lost.seq, lost.identifier));
    }
    Ok(out)
}

/// The format `load` prints in: the one named, or for `auto` the one the stored messages were read in (OpenAI chat when none says).
pub(crate) fn output_format(choice: FormatChoice, prompt: &[Message]) -> Format {
    match choice {
        FormatChoice::Anthropic | FormatChoice::ClaudeCode => Format::Anthropic,
        FormatChoice::Responses | FormatChoice::Codex => Format::Responses,
        FormatChoice::Openai => Format::Openai,
        FormatChoice::Auto => {
            let read_in = prompt
                .iter()
                .find_map(|message| message.origin.as_ref())
                .map(|origin| origin.format.as_str());
            match read_in {
                Some(tidemark_providers::anthropic::transcript::FORMAT) => Format::Anthropic,
                Some(tidemark_providers::responses::FORMAT) => Format::Responses,
                _ => Format::Openai,
            }
        }
    }
}

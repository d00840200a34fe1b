//! The commands on a conversation's compaction history: `undo`, `fork`, `load --as-of` and `inspect --history`.

use std::num::NonZeroU32;

use tidemark_core::history::{Epoch, EpochKind};
use tidemark_core::{ConversationId, ConversationStore, MemoryError, Seq};
use tidemark_memory::{CompactingMemory, HeuristicCounter, TokenWindow, Undone};

use tidemark::Store as AnyStore;

use crate::args::{ForkArgs, LoadArgs, SummarizerChoice, UndoArgs};
use crate::error::CliError;
use crate::format::Shape;
use crate::output::write_transcript;
use crate::setup;

/// A memory over `store` for what needs no window and no compactor: undo, restore and as-of reads take the
/// store's lease and read its epochs, but never fit a window or summarize.
fn memory(
    store: AnyStore,
) -> Result<
    CompactingMemory<AnyStore, TokenWindow<HeuristicCounter>, tidemark_core::boxed::BoxCompactor>,
    CliError,
> {
    let compactor = setup::compactor(SummarizerChoice::Template, None)?.ok_or_else(|| {
        CliError::runtime("setting up", std::io::Error::other("the template compactor is always there"))
    })?;
    let policy = TokenWindow::new(NonZeroU32::MAX, HeuristicCounter::default());
    Ok(CompactingMemory::new(store, policy, compactor))
}

pub(crate) async fn undo(args: UndoArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let memory = memory(store)?;
    let id = &args.conversation;
    let done = match (args.to, args.initial) {
        (Some(epoch), _) => memory.restore(id, Some(epoch)).await,
        (None, true) => memory.restore(id, None).await,
        (None, false) => memory.undo(id).await,
    };
    let done = done.map_err(|error| match error {
        MemoryError::Busy => CliError::runtime(
            "undoing",
            std::io::Error::other(
                "a compaction of this conversation is in flight; try again once it is done",
            ),
        ),
        error => CliError::runtime("undoing", error),
    })?;
    eprintln!("tidemark: {}", describe(id, &done));
    Ok(())
}

fn describe(id: &ConversationId, done: &Undone) -> String {
    let restored =
        done.restored.map_or_else(|| "the initial state".to_owned(), |epoch| format!("epoch {epoch}"));
    format!(
        "{id}: epoch {} taken back, {restored} restored as epoch {}; the window starts at message {} with a summary of {} tokens",
        done.undone, done.generation, done.window_starts_at, done.summary_tokens
    )
}

pub(crate) async fn fork(args: ForkArgs) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let next = store
        .stats(&args.conversation)
        .await
        .map_err(|error| CliError::runtime("reading the store", error))?
        .next_seq;
    let at = args.at.map_or(next, Seq);
    let memory = memory(store)?;
    memory
        .fork(&args.conversation, at, &args.into)
        .await
        .map_err(|error| CliError::runtime("forking", error))?;
    eprintln!("tidemark: {} forked from {} before message {at}", args.into, args.conversation);
    Ok(())
}

pub(crate) async fn load_as_of(args: &LoadArgs, seq: Seq) -> Result<(), CliError> {
    let store = setup::store(&args.store.store).await?;
    let memory = memory(store)?;
    let prompt = memory
        .load_as_of(&args.conversation, seq)
        .await
        .map_err(|error| CliError::runtime("reading the prompt as of that message", error))?;
    write_transcript(&prompt, &Shape::new(super::store::output_format(args.format, &prompt)), None)
}

/// The epochs of `id`, one tab-separated line each after a header.
pub(crate) async fn epochs_report(store: &AnyStore, id: &ConversationId) -> Result<String, CliError> {
    let epochs = store.epochs(id).await.map_err(|error| CliError::runtime("reading the history", error))?;
    let current =
        store.state(id).await.map_err(|error| CliError::runtime("reading the store", error))?.generation;
    let mut out = format!("conversation: {id}\nepochs: {}\n", epochs.len());
    out.push_str("epoch\tkind\tundo_to\tnext_seq\twatermark\tretained\tsummary_tokens\tat_ms\tcurrent\n");
    for epoch in &epochs {
        out.push_str(&line(epoch, epoch.generation == current));
    }
    Ok(out)
}

fn line(epoch: &Epoch, current: bool) -> String {
    let kind = match epoch.kind {
        EpochKind::Restored { from: Some(from) } => format!("restored:{from}"),
        EpochKind::Restored { from: None } => "restored:initial".to_owned(),
        other => other.name().to_owned(),
    };
    let undo_to = epoch.undo_to.map_or_else(|| "initial".to_owned(), |to| to.to_string());
    let undo_to = if matches!(epoch.kind, EpochKind::Cleared) { "-".to_owned() } else { undo_to };
    let summary =
        epoch.state.summary.as_ref().map_or_else(|| "-".to_owned(), |summary| summary.tokens.to_string());
    format!(
        "{}\t{kind}\t{undo_to}\t{}\t{}\t{}\t{summary}\t{}\t{}\n",
        epoch.generation,
        epoch.next_seq,
        epoch.state.watermark,
        epoch.state.retained.len(),
        epoch.at_ms,
        if current { "*" } else { "" }
    )
}

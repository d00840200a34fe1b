//! `tidemark compact`: one stateless compaction of a transcript.

use tidemark_compaction::{
    ClearToolOutputs, CompactionStrategy, DynPipeline, DynStrategy, Fallback, SummarizeStrategy,
    TruncateStrategy,
};
use tidemark_core::{Compactor, ConversationId, MemoryPolicy, Message, Role, Window};
use tidemark_memory::SlidingWindow;

use std::num::NonZeroU32;

use tidemark_providers::anthropic::transcript::open_with_user;

use crate::args::{CompactArgs, StrategyChoice};
use crate::error::CliError;
use crate::format::Format;
use crate::output::{Stats, write_transcript};
use crate::{input, setup};

pub(crate) async fn run(args: CompactArgs) -> Result<(), CliError> {
    let transcript = input::read(args.file.as_deref(), args.strict, args.format)?;
    let counter = setup::counter(args.counter)?;
    let history = transcript.messages;
    let claude = transcript.shape.format() == Format::Anthropic;
    let (compacted, strategy, outcome, note) = match (args.window.budget, args.window.last) {
        (Some(budget), _) => {
            let chosen = strategy(&args)?;
            let compact = |budget: NonZeroU32| chosen.compact(&history, budget, &*counter);
            let mut done = compact(budget).await.map_err(|error| CliError::runtime("compacting", error))?;
            let mut opened = done.history.clone();
            if claude && open_with_user(&mut opened) {
                // The opening turn must fit too: compact again with its cost set aside.
                let tokens = counter.count_prompt(&opened);
                let cost = tokens.saturating_sub(counter.count_prompt(&done.history));
                if tokens > budget.get()
                    && let Some(smaller) = NonZeroU32::new(budget.get().saturating_sub(cost))
                {
                    done = compact(smaller).await.map_err(|error| CliError::runtime("compacting", error))?;
                    opened.clone_from(&done.history);
                    open_with_user(&mut opened);
                }
            }
            let fits = done.report.fits && counter.count_prompt(&opened) <= budget.get();
            let outcome = if fits { done.report.outcome.to_string() } else { "over_budget".to_owned() };
            (opened, done.report.strategy, outcome, done.report.note)
        }
        (None, Some(last)) => {
            let (mut kept, strategy, outcome, note) = by_count(&args, &history, last.get()).await?;
            if claude {
                open_with_user(&mut kept);
            }
            (kept, strategy, outcome, note)
        }
        (None, None) => return Err(CliError::input("give --budget or --last")),
    };
    let tokens_out = counter.count_prompt(&compacted);
    let over = args.window.budget.filter(|budget| outcome == "over_budget" && tokens_out > budget.get());
    if over.is_none() || args.best_effort {
        write_transcript(&compacted, &transcript.shape, args.output.as_deref())?;
    }
    let (strategy_name, note_text) = (strategy.clone(), note.clone());
    if let Some(format) = args.stats {
        Stats {
            messages_in: history.len(),
            messages_out: compacted.len(),
            tokens_in: u64::from(counter.count_prompt(&history)),
            tokens_out: u64::from(tokens_out),
            budget: args.window.budget.map(|budget| budget.get()),
            strategy,
            outcome,
            repaired: transcript.repaired,
            note,
            ..Stats::default()
        }
        .print(format);
    }
    match over {
        Some(budget) if !args.best_effort => Err(CliError::OverBudget {
            message: format!(
                "{strategy_name} left {tokens_out} tokens, over the budget of {}{}; nothing was written \
                 (--best-effort writes it anyway)",
                budget.get(),
                note_text.map(|note| format!(" ({note})")).unwrap_or_default()
            ),
        }),
        _ => Ok(()),
    }
}

/// The strategy the options name, for a token budget.
fn strategy(args: &CompactArgs) -> Result<Box<dyn DynStrategy>, CliError> {
    let keep = args.preserve_last;
    let summarize = || -> Result<SummarizeStrategy<_>, CliError> {
        Ok(SummarizeStrategy::new(setup::model(args.summarizer)?).preserve_last(keep))
    };
    Ok(match args.strategy {
        StrategyChoice::Truncate => Box::new(TruncateStrategy::new().preserve_last(keep)),
        // Alone, clearing is the whole answer: recent output goes too when the budget needs it.
        StrategyChoice::ClearTools => Box::new(ClearToolOutputs::new().reach_budget(true)),
        StrategyChoice::Summarize => Box::new(summarize()?),
        StrategyChoice::Auto => Box::new(DynPipeline::boxed(vec![
            Box::new(ClearToolOutputs::new()),
            Box::new(summarize()?.with_fallback(Fallback::Truncate)),
            Box::new(TruncateStrategy::new().preserve_last(keep)),
        ])),
    })
}

/// Keep the last messages; summarize the rest (unless the strategy only truncates or clears).
async fn by_count(
    args: &CompactArgs,
    history: &[Message],
    last: usize,
) -> Result<(Vec<Message>, String, String, Option<String>), CliError> {
    let keep = last.max(args.preserve_last);
    let selection = SlidingWindow::last_messages(keep).select(&Window::new(history));
    let (kept, demoted) = selection.split(history);
    let mut kept: Vec<Message> = kept.into_iter().cloned().collect();
    if demoted.is_empty() {
        return Ok((
            kept,
            "sliding-window".to_owned(),
            "skipped".to_owned(),
            Some("already fits".to_owned()),
        ));
    }
    let summarize = matches!(args.strategy, StrategyChoice::Auto | StrategyChoice::Summarize);
    let Some(compactor) = summarize.then(|| setup::compactor(args.summarizer, None)).transpose()?.flatten()
    else {
        return Ok((kept, "sliding-window".to_owned(), "applied".to_owned(), None));
    };
    let demoted: Vec<Message> = demoted.into_iter().cloned().collect();
    let id =
        ConversationId::new("cli").map_err(|error| CliError::runtime("naming the conversation", error))?;
    let artifact = compactor
        .compact(&id, &demoted, None, None)
        .await
        .map_err(|error| CliError::runtime("summarizing", error))?;
    // The summary goes after the leading system messages, where the dropped turns began.
    let at = kept.iter().take_while(|message| message.role == Role::System).count();
    kept.insert(at, compactor.render(&artifact));
    Ok((kept, format!("sliding-window+{}", compactor.name()), "applied".to_owned(), None))
}

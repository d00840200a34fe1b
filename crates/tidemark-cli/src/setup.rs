//! Building the parts a command needs from its options: counters, policies, summarizers, the store and the memory.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tidemark_compaction::transcript::{Style, flatten};
use tidemark_compaction::{Join, LlmCompactor, SegmentBudget, Segmented, TemplateCompactor};
use tidemark_core::boxed::{BoxCompactor, BoxModel};
use tidemark_core::cache::CachePrices;
use tidemark_core::{
    CompactionError, Compactor, Completion, CompletionError, CompletionModel, CompletionRequest,
    ContextSource, ConversationId, FinishReason, MemoryPolicy, Message, Selection, TokenCounter, Usage,
    Window as PolicyWindow,
};
use tidemark_facts::{FactCoordinator, Recall};
use tidemark_memory::{
    CachePlan, CompactingMemory, HeuristicCounter, PolicyMemory, SlidingWindow, TiktokenCounter, TokenWindow,
};

pub(crate) use tidemark::Store as AnyStore;
use tidemark_providers::anthropic::PromptCache;
use tidemark_providers::{AnthropicConfig, AnthropicModel, OpenAiConfig, OpenAiModel};

use crate::args::{CacheArgs, CachePreset, CounterChoice, SummarizerChoice, Window};
use crate::error::CliError;

/// A counter shared by the policy, the memory and the statistics.
pub(crate) type Counter = Arc<dyn TokenCounter>;

/// The counter `choice` names.
pub(crate) fn counter(choice: CounterChoice) -> Result<Counter, CliError> {
    let fail = |error| CliError::runtime("loading the tokenizer", error);
    Ok(match choice {
        CounterChoice::O200k => Arc::new(TiktokenCounter::o200k().map_err(fail)?),
        CounterChoice::Cl100k => Arc::new(TiktokenCounter::cl100k().map_err(fail)?),
        CounterChoice::Heuristic => Arc::new(HeuristicCounter::default()),
    })
}

/// The cache prices of `args`: the preset's, with each price given on the command line put in its place.
pub(crate) fn cache_prices(args: CacheArgs) -> Result<CachePrices, CliError> {
    let preset = match args.cache_prices {
        CachePreset::Default => CachePrices::default(),
        CachePreset::Anthropic5m => CachePrices::anthropic_five_minutes(),
        CachePreset::Anthropic1h => CachePrices::anthropic_one_hour(),
    };
    let prices =
        CachePrices::new(args.cache_read.unwrap_or(preset.read), args.cache_write.unwrap_or(preset.write))
            .map_err(|error| CliError::input(error.to_string()))?;
    Ok(prices.with_min_prefix(args.cache_min_prefix.unwrap_or(preset.min_prefix)))
}

/// The window policy of `window`, counting with `counter`.
pub(crate) fn policy(window: Window, counter: &Counter) -> Box<dyn MemoryPolicy> {
    match (window.budget, window.last) {
        (Some(budget), _) => Box::new(TokenWindow::new(budget, Arc::clone(counter))),
        (None, Some(last)) => Box::new(Counted {
            inner: SlidingWindow::last_messages(last.get()),
            counter: Arc::clone(counter),
        }),
        // clap requires exactly one of the two.
        (None, None) => Box::new(Counted {
            inner: SlidingWindow::last_messages(usize::MAX),
            counter: Arc::clone(counter),
        }),
    }
}

/// A count-based policy that still records token counts with the chosen counter.
struct Counted<P> {
    inner: P,
    counter: Counter,
}

impl<P: MemoryPolicy> MemoryPolicy for Counted<P> {
    fn select(&self, window: &PolicyWindow<'_>) -> Selection {
        self.inner.select(window)
    }

    fn token_counter(&self) -> Option<&dyn TokenCounter> {
        Some(&*self.counter)
    }

    fn prompt_budget(&self) -> Option<u32> {
        self.inner.prompt_budget()
    }
}

/// A policy that keeps everything and counts with `counter`: appending needs only the counter.
pub(crate) fn counting_only(counter: &Counter) -> Box<dyn MemoryPolicy> {
    Box::new(Counted {
        inner: tidemark_memory::SlidingWindow::last_messages(usize::MAX),
        counter: Arc::clone(counter),
    })
}

/// The OpenAI-compatible model configured by the environment.
pub(crate) fn openai() -> Result<OpenAiModel, CliError> {
    let config =
        OpenAiConfig::from_env().map_err(|error| CliError::input(format!("--summarizer openai: {error}")))?;
    OpenAiModel::new(config).map_err(|error| CliError::runtime("setting up the OpenAI client", error))
}

/// The Anthropic model configured by the environment, without prompt-cache breakpoints.
pub(crate) fn anthropic() -> Result<AnthropicModel, CliError> {
    // The model only summarizes, and no summarizer prompt is sent twice: a
    // breakpoint would add the cache-write price and never be read.
    let config = AnthropicConfig::from_env()
        .map_err(|error| CliError::input(format!("--summarizer anthropic: {error}")))?
        .with_prompt_cache(PromptCache::Off);
    AnthropicModel::new(config).map_err(|error| CliError::runtime("setting up the Anthropic client", error))
}

/// The compactor behind a rolling summary, or none.
///
/// With a budget, the summary is bounded to about [`SUMMARY_PERCENT`] of it
/// when that is less than the compactor's default: the template keeps three
/// bytes a token of that share (English and code take about four), the model
/// is asked for no more tokens than that share. Without it a 4 KiB summary
/// alone could fill a budget of 1,000 tokens, and every prompt would pass it.
pub(crate) fn compactor(
    choice: SummarizerChoice,
    budget: Option<NonZeroU32>,
) -> Result<Option<BoxCompactor>, CliError> {
    let share = budget.map(|budget| allowance(None, Some(budget), SUMMARY_PERCENT, 0).max(1));
    let template_bytes = share.map_or(TemplateCompactor::DEFAULT_MAX_BYTES, |tokens| {
        (tokens as usize).saturating_mul(3).min(TemplateCompactor::DEFAULT_MAX_BYTES)
    });
    Ok(match choice {
        SummarizerChoice::Template => {
            Some(Box::new(TemplateCompactor::new().with_max_bytes(Some(template_bytes))))
        }
        SummarizerChoice::Openai => Some(Box::new(answer_within(LlmCompactor::new(openai()?), share))),
        SummarizerChoice::Anthropic => Some(Box::new(answer_within(LlmCompactor::new(anthropic()?), share))),
        SummarizerChoice::None => None,
    })
}

/// `compactor` asking its model for no more answer tokens than `share`, when that is less than its own limit.
fn answer_within<M: CompletionModel>(compactor: LlmCompactor<M>, share: Option<u32>) -> LlmCompactor<M> {
    let tokens = match (share, compactor.max_tokens()) {
        (Some(share), Some(limit)) => Some(share.min(limit)),
        (share, limit) => limit.or(share),
    };
    compactor.with_max_tokens(tokens)
}

/// The share of the budget a rolling summary may take, in percent.
pub(crate) const SUMMARY_PERCENT: u32 = 25;

/// The same compactors, adding each summary as a segment behind the earlier ones ([`Segmented`]), sized for `budget` by [`SegmentBudget`].
///
/// Each compaction's segment is asked for a twentieth of the budget (the
/// template keeps `bytes_per_token` bytes a token of it, a model is asked for
/// no more answer tokens), and the segments merge before sixteen of them or
/// four fifths of the budget as `counter` counts it: a compaction writes
/// little, and the old segments stay a prefix the provider reads from its
/// cache. The token limit bounds the summary whatever the bytes per token;
/// they only set how full each segment is.
pub(crate) fn segmented_compactor(
    choice: SummarizerChoice,
    budget: NonZeroU32,
    counter: &Counter,
    bytes_per_token: f64,
    calls: &Arc<AtomicUsize>,
) -> Result<Option<BoxCompactor>, CliError> {
    let sizes = SegmentBudget::for_budget(budget.get());
    let template_bytes = ((f64::from(sizes.segment_tokens) * bytes_per_token) as usize)
        .clamp(1, TemplateCompactor::DEFAULT_MAX_BYTES);
    let share = Some(sizes.segment_tokens);
    Ok(match choice {
        SummarizerChoice::Template => {
            let template = TemplateCompactor::new().with_max_bytes(Some(template_bytes));
            Some(segmented(template, counter, sizes, calls))
        }
        SummarizerChoice::Openai => {
            Some(segmented(answer_within(LlmCompactor::new(openai()?), share), counter, sizes, calls))
        }
        SummarizerChoice::Anthropic => {
            Some(segmented(answer_within(LlmCompactor::new(anthropic()?), share), counter, sizes, calls))
        }
        SummarizerChoice::None => None,
    })
}

/// `inner`'s summaries as segments, merged at `sizes` as `counter` counts them, each call to `inner` counted in `calls`.
fn segmented<C>(inner: C, counter: &Counter, sizes: SegmentBudget, calls: &Arc<AtomicUsize>) -> BoxCompactor
where
    C: Compactor + 'static,
    C::Artifact: Join,
{
    let counted = CountedCalls { inner, calls: Arc::clone(calls) };
    Box::new(Segmented::new(counted).within(Arc::clone(counter), sizes))
}

/// A compactor that counts its calls: a segmented compaction may call its summarizer once per part of what it evicts.
struct CountedCalls<C> {
    inner: C,
    calls: Arc<AtomicUsize>,
}

impl<C: Compactor> Compactor for CountedCalls<C> {
    type Artifact = C::Artifact;

    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&C::Artifact>,
        hint: Option<&str>,
    ) -> Result<C::Artifact, CompactionError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.compact(conversation, evicted, carry_over, hint).await
    }

    fn render(&self, artifact: &C::Artifact) -> Message {
        self.inner.render(artifact)
    }
}

/// How many bytes of template lines make one token as `counter` counts them, measured on `messages` written as the template writes them.
///
/// Between 2 and 6, and 3 when there is nothing to measure: code and JSON
/// take fewer bytes a token than English prose, and some scripts far fewer.
pub(crate) fn template_bytes_per_token(messages: &[Message], counter: &Counter) -> f64 {
    let text = flatten(messages, Style::compact(TemplateCompactor::DEFAULT_MAX_PART_BYTES));
    match counter.count_text(&text) {
        0 => 3.0,
        tokens => (text.len() as f64 / f64::from(tokens)).clamp(2.0, 6.0),
    }
}

/// A token window of `budget` whose cuts are chosen by what they cost under a prompt cache billed at `prices`.
pub(crate) fn cache_aware_policy(
    budget: NonZeroU32,
    counter: &Counter,
    prices: CachePrices,
) -> Box<dyn MemoryPolicy> {
    Box::new(TokenWindow::new(budget, Arc::clone(counter)).with_cache_plan(CachePlan::new(prices)))
}

/// The model behind the summarize strategy: the offline extract, or the configured model.
pub(crate) fn model(choice: SummarizerChoice) -> Result<BoxModel, CliError> {
    Ok(match choice {
        SummarizerChoice::Openai => Box::new(openai()?),
        SummarizerChoice::Anthropic => Box::new(anthropic()?),
        SummarizerChoice::Template | SummarizerChoice::None => Box::new(Extract),
    })
}

/// An offline "model" that summarizes by extracting: it keeps the newest lines of the transcript it is given, each cut short, within the requested length.
///
/// It lets the summarize strategy run without a network, with the same
/// bounded, deterministic output as the template compactor.
struct Extract;

impl CompletionModel for Extract {
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, CompletionError> {
        let transcript = request.messages.last().map(|m| m.text().into_owned()).unwrap_or_default();
        // About three bytes a token keeps the extract within the requested length for any tokenizer.
        let max_bytes = request.max_tokens.map_or(4_096, |tokens| tokens as usize * 3);
        let mut lines: Vec<String> = Vec::new();
        let mut used = 0;
        let body: Vec<&str> = transcript.lines().skip(1).filter(|line| !line.trim().is_empty()).collect();
        for line in body.into_iter().rev() {
            let mut short: String = line.chars().take(200).collect();
            if used + short.len() + 3 > max_bytes {
                if !lines.is_empty() {
                    break;
                }
                // Not even the newest line fits: keep what of it does, rather than nothing.
                short.truncate(short.floor_char_boundary(max_bytes.saturating_sub(3)));
                if short.is_empty() {
                    break;
                }
            }
            used += short.len() + 3;
            lines.push(format!("- {short}"));
        }
        lines.reverse();
        if lines.is_empty() {
            return Err(CompletionError::EmptyResponse);
        }
        Ok(Completion::new(lines.join("\n"), FinishReason::Stop, Usage::default()))
    }
}

/// Open the store at `location`: an SQLite file, or a PostgreSQL URL.
pub(crate) async fn store(location: &str) -> Result<AnyStore, CliError> {
    AnyStore::open(location).await.map_err(|error| match error {
        tidemark::OpenError::NoPostgres(_) | tidemark::OpenError::NoSqlite(_) => {
            CliError::input(error.to_string())
        }
        _ => CliError::runtime("opening the store", error),
    })
}

/// The budget of `window`, if it has one.
pub(crate) fn budget(window: Window) -> Option<NonZeroU32> {
    window.budget
}

/// The token allowance of a context source: `tokens` when given, else `percent` of the budget, else `fallback` (a window counted in messages has no budget).
pub(crate) fn allowance(tokens: Option<u32>, budget: Option<NonZeroU32>, percent: u32, fallback: u32) -> u32 {
    match (tokens, budget) {
        (Some(tokens), _) => tokens,
        (None, Some(budget)) => {
            u32::try_from(u64::from(budget.get()) * u64::from(percent) / 100).unwrap_or(u32::MAX)
        }
        (None, None) => fallback,
    }
}

/// The share of the budget the facts take unless told otherwise, and their allowance with `--last`.
pub(crate) const FACTS_PERCENT: (u32, u32) = (10, 400);
/// The share of the budget recall takes unless told otherwise, and its allowance with `--last`.
pub(crate) const RECALL_PERCENT: (u32, u32) = (15, 600);

/// The context sources of a load or a replay, each with its allowance: facts first, then recall.
///
/// The order is the prompt's order and the priority under a tight budget:
/// the memory gives up the sources added last first.
#[derive(Default)]
pub(crate) struct Contexts {
    pub(crate) facts: Option<(Arc<FactCoordinator<AnyStore>>, u32)>,
    pub(crate) recall: Option<(Arc<Recall<AnyStore>>, u32)>,
}

impl Contexts {
    /// `memory` with these sources added in order.
    pub(crate) fn apply<M: WithContext>(&self, mut memory: M) -> M {
        if let Some((facts, tokens)) = &self.facts {
            memory = memory.add_context(Arc::clone(facts), *tokens);
        }
        if let Some((recall, tokens)) = &self.recall {
            memory = memory.add_context(Arc::clone(recall), *tokens);
        }
        memory
    }
}

/// The memories that take context sources.
pub(crate) trait WithContext: Sized {
    fn add_context(self, source: impl ContextSource + 'static, tokens: u32) -> Self;
}

impl<S, P, C, O> WithContext for CompactingMemory<S, P, C, O> {
    fn add_context(self, source: impl ContextSource + 'static, tokens: u32) -> Self {
        self.with_context(source, tokens)
    }
}

impl<S, P> WithContext for PolicyMemory<S, P> {
    fn add_context(self, source: impl ContextSource + 'static, tokens: u32) -> Self {
        self.with_context(source, tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter of one token per `bytes` bytes of text.
    struct PerBytes(usize);

    impl TokenCounter for PerBytes {
        fn name(&self) -> &str {
            "per-bytes"
        }

        fn count_text(&self, text: &str) -> u32 {
            u32::try_from(text.len().div_ceil(self.0)).unwrap_or(u32::MAX)
        }

        fn count(&self, message: &Message) -> u32 {
            self.count_text(&message.text())
        }
    }

    #[test]
    fn template_density_is_measured_with_the_counter_and_bounded() {
        let messages: Vec<Message> =
            (0..40).map(|i| Message::user(format!("step {i}: the build of module {i} is green"))).collect();
        let density = |bytes: usize, messages: &[Message]| {
            let counter: Counter = Arc::new(PerBytes(bytes));
            template_bytes_per_token(messages, &counter)
        };
        // Four bytes a token, less what rounding up each count adds.
        let four = density(4, &messages);
        assert!((3.9..=4.0).contains(&four), "{four}");
        assert_eq!(density(1, &messages), 2.0, "at least two bytes a token");
        assert_eq!(density(50, &messages), 6.0, "at most six");
        assert_eq!(density(4, &[]), 3.0, "three with nothing to measure");
    }
}

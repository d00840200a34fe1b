//! [`SummarizeStrategy`]: the prefix before a safe cut becomes one summary message written by a model.

use std::num::NonZeroU32;

use tidemark_core::task::{self, Protected};
use tidemark_core::{
    CompactionError, CompletionModel, CompletionRequest, Message, Outcome, Part, Role, TokenCounter, Unit,
    units,
};

use super::{Compacted, CompactionStrategy, Report, TruncateStrategy, cap_text};
use crate::answer::{is_transient, read_answer};
use crate::transcript::{Style, flatten};

/// What [`SummarizeStrategy`] does when the model fails, returns nothing or refuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fallback {
    /// Return the error (the default): the caller decides.
    #[default]
    Error,
    /// Truncate instead, and say so in the report (outcome [`Outcome::Degraded`], the error in its note).
    Truncate,
}

/// The instruction the summarizer gets unless [`SummarizeStrategy::with_prompt`] replaces it.
pub const DEFAULT_PROMPT: &str = "You condense the earlier part of a conversation between a user and an AI agent \
so that the agent can continue without it. Write a compact summary in plain prose and short lists: the user's goal, \
decisions made, facts and preferences the user stated (corrections included), identifiers exactly as written \
(file paths, ids, URLs, numbers), what tools returned that still matters, and tasks still open. Leave out greetings \
and anything superseded. Answer with the summary only.";

pub use tidemark_core::task::INSTRUCTION_HEADER;

/// The first line of every summary message, so that a reader (and the model) knows what it is.
pub const SUMMARY_HEADER: &str = "[Summary of the earlier conversation]";

/// Replaces the start of a history with one summary written by a [`CompletionModel`].
///
/// The cut falls at a safe place: between tool units, so that no call is
/// separated from its result, and right before a user message, so that the
/// kept part starts where a turn starts. When no such cut fits (an agent's
/// long run of tool steps after one user message), it falls before any unit
/// that fits, and the kept part starts with an agent step behind the summary. The cut is placed as early as the
/// budget allows, keeping as much of the recent conversation verbatim as fits
/// beside a summary of at most `max_summary_tokens`; with `preserve_last(n)`
/// the last `n` messages are always kept.
///
/// Before the cut, pinned and system messages stay verbatim at their relative
/// place, and so does the newest human instruction ([`tidemark_core::task`])
/// when it fits beside the newest unit and the smallest summary; when it does
/// not, the summary message carries its text after [`INSTRUCTION_HEADER`], cut
/// with a marker if it must be; everything else is flattened to plain text (tool calls and results
/// included, see [`transcript`](crate::transcript)) and sent to the model with
/// no tools attached, so the request is valid for any provider. The answer
/// replaces those messages as one message (by default a user message starting
/// with [`SUMMARY_HEADER`]), capped at `max_summary_tokens` on the text itself.
/// When nothing but pinned and system messages lies before the cut, the model
/// is not called.
///
/// An error, an empty answer or a refusal is never used as a summary: it is
/// returned, or with [`Fallback::Truncate`] the strategy truncates instead and
/// reports [`Outcome::Degraded`] with the error in the note. Transient model
/// errors (rate limits, timeouts, server errors, lost connections) are tried
/// again, up to `max_attempts` calls in all.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_compaction::{CompactionStrategy, SummarizeStrategy};
/// use tidemark_core::{Message, Outcome, TokenCounter};
/// use tidemark_testkit::scripted::ScriptedModel;
///
/// struct Words;
/// impl TokenCounter for Words {
///     fn name(&self) -> &str { "words" }
///     fn count_text(&self, text: &str) -> u32 { text.split_whitespace().count() as u32 }
///     fn count(&self, message: &Message) -> u32 { 1 + self.count_text(&message.text()) }
/// }
///
/// let model = ScriptedModel::new().answer("The user is planning a trip to Lisbon in May.");
/// let strategy = SummarizeStrategy::new(model.clone()).with_max_summary_tokens(20);
/// let history = vec![
///     Message::user("I want to plan a trip to Lisbon, somewhere warm, in May this year."),
///     Message::assistant("Lisbon in May is a good choice; the weather is mild and dry."),
///     Message::user("Which neighbourhood should I stay in?"),
/// ];
/// let budget = NonZeroU32::new(30).unwrap();
/// let done = futures::executor::block_on(strategy.compact(&history, budget, &Words))?;
/// assert_eq!(done.report.outcome, Outcome::Applied);
/// assert_eq!(done.history.len(), 2);
/// assert!(done.history[0].text().contains("Lisbon in May"));
/// assert_eq!(done.history[1], history[2]);
/// # Ok::<(), tidemark_core::CompactionError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SummarizeStrategy<M> {
    model: M,
    prompt: String,
    max_summary_tokens: u32,
    preserve_last: usize,
    fallback: Fallback,
    summary_role: Role,
    max_attempts: u32,
    max_part_bytes: Option<usize>,
}

impl<M> SummarizeStrategy<M> {
    /// A strategy that asks `model`, with the default prompt, a summary of at most 1,024 tokens, and no fallback.
    pub fn new(model: M) -> Self {
        Self {
            model,
            prompt: DEFAULT_PROMPT.to_owned(),
            max_summary_tokens: 1_024,
            preserve_last: 0,
            fallback: Fallback::Error,
            summary_role: Role::User,
            max_attempts: 2,
            max_part_bytes: Some(4_000),
        }
    }

    /// The same strategy with another instruction for the model.
    #[must_use]
    pub fn with_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.prompt = prompt.into();
        self
    }

    /// The same strategy capping the summary at `tokens` (asked of the model, and enforced on the text).
    #[must_use]
    pub fn with_max_summary_tokens(mut self, tokens: u32) -> Self {
        self.max_summary_tokens = tokens.max(1);
        self
    }

    /// The same strategy never summarizing the last `n` messages.
    #[must_use]
    pub fn preserve_last(mut self, n: usize) -> Self {
        self.preserve_last = n;
        self
    }

    /// The same strategy with another failure behaviour.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Fallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// The same strategy writing the summary as a message of `role` (user by default; system suits providers that accept system messages anywhere).
    #[must_use]
    pub fn with_summary_role(mut self, role: Role) -> Self {
        self.summary_role = role;
        self
    }

    /// The same strategy making at most `attempts` model calls per compaction (at least one).
    #[must_use]
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The same strategy sending each part to the model cut at `max_bytes` (`None` sends everything).
    #[must_use]
    pub fn with_max_part_bytes(mut self, max_bytes: Option<usize>) -> Self {
        self.max_part_bytes = max_bytes;
        self
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }
}

/// Where to cut and what the cut leaves.
struct Plan {
    cut: usize,
    /// Indices of messages before the cut that stay verbatim.
    kept_before: Vec<usize>,
    /// Messages before the cut that the model summarizes.
    summarized: Vec<Message>,
    /// The most tokens the summary may take: `max_summary_tokens`, or less when that is all the budget leaves.
    summary_tokens: u32,
}

/// The smallest summary a cut asks for, even when the budget leaves less: below it a summary says too little to be worth a call.
const MIN_SUMMARY_TOKENS: u32 = 64;

impl<M: CompletionModel> SummarizeStrategy<M> {
    /// Choose the cut: the earliest user-message unit start whose tail fits beside the summary, else the earliest unit start that does, else the latest unit start.
    ///
    /// An agent's run is often one user message and many tool steps after
    /// it: cutting only before user messages would leave all of it verbatim.
    fn plan(&self, history: &[Message], budget: NonZeroU32, counter: &dyn TokenCounter) -> Option<Plan> {
        let all: Vec<Unit> = units(history).collect();
        let tokens: Vec<u64> = history.iter().map(|m| u64::from(counter.count(m))).collect();
        let latest_cut = history.len().saturating_sub(self.preserve_last);
        let starts: Vec<usize> =
            all.iter().map(Unit::start).filter(|&start| start > 0 && start <= latest_cut).collect();
        let turns: Vec<usize> =
            starts.iter().copied().filter(|&start| history[start].role == Role::User).collect();
        // The summary message beyond its text: the header line and the message's framing, with two tokens
        // to spare for a tokenizer that joins the header's line break with the text differently.
        let header = Message::new(self.summary_role, vec![Part::text(format!("{SUMMARY_HEADER}\n"))]);
        let framing = u64::from(counter.count(&header)) + 2;
        let fixed = u64::from(counter.prompt_overhead()) + u64::from(self.max_summary_tokens) + framing;
        // The latest instruction stays verbatim beside the smallest summary when it fits there.
        let least = u64::from(counter.prompt_overhead())
            + u64::from(MIN_SUMMARY_TOKENS.min(self.max_summary_tokens))
            + framing;
        let protected = Protected::new(history, &all, &tokens, u64::from(budget.get()).saturating_sub(least));
        let keep = |position: usize| protected.stays[position];
        // An instruction that cannot stay verbatim is carried in the summary: room is kept for it there,
        // up to a quarter of the budget.
        let carry = match task::instruction(history) {
            Some(index) if !protected.instruction_kept => tokens[index]
                .saturating_add(u64::from(counter.count_text(task::CUT_MARKER)))
                .min(u64::from(budget.get()) / 4),
            _ => 0,
        };
        let fixed = fixed + carry;
        let cost = |cut: usize| -> u64 {
            let kept_before: u64 = all
                .iter()
                .enumerate()
                .take_while(|(_, unit)| unit.end() <= cut)
                .filter(|(position, _)| keep(*position))
                .map(|(_, unit)| tokens[unit.range()].iter().sum::<u64>())
                .sum();
            fixed + kept_before + tokens[cut..].iter().sum::<u64>()
        };
        let fits = |cut: &usize| cost(*cut) <= u64::from(budget.get());
        let full = turns.iter().copied().find(fits).or_else(|| starts.iter().copied().find(fits));
        let cut = full.or_else(|| starts.last().copied())?;
        // With no cut leaving room for a full summary, the latest cut's summary gets the room there is.
        let summary_tokens = match full {
            Some(_) => self.max_summary_tokens,
            None => {
                let room =
                    u64::from(budget.get()).saturating_sub(cost(cut) - u64::from(self.max_summary_tokens));
                u32::try_from(room)
                    .unwrap_or(u32::MAX)
                    .clamp(MIN_SUMMARY_TOKENS.min(self.max_summary_tokens), self.max_summary_tokens)
            }
        };
        let mut kept_before = Vec::new();
        let mut summarized = Vec::new();
        for (position, unit) in all.iter().enumerate().take_while(|(_, unit)| unit.end() <= cut) {
            if keep(position) {
                kept_before.extend(unit.range());
            } else {
                summarized.extend(history[unit.range()].iter().cloned());
            }
        }
        Some(Plan { cut, kept_before, summarized, summary_tokens })
    }

    /// Ask the model, trying transient failures again; an empty or refusing answer is an error.
    async fn ask(&self, messages: &[Message], max_tokens: u32) -> (Result<String, CompactionError>, u32) {
        let transcript = flatten(messages, Style { max_part_bytes: self.max_part_bytes, one_line: false });
        let request = CompletionRequest::new(vec![
            Message::system(self.prompt.clone()),
            Message::user(format!(
                "Summarize this part of the conversation. {} When everything does not fit, leave out the least \
                 important points rather than stopping mid-sentence.\n\n{transcript}",
                crate::compactor::length_limit(max_tokens)
            )),
        ])
        .with_max_tokens(max_tokens)
        .with_temperature(0.2);
        let mut calls = 0;
        loop {
            calls += 1;
            match self.model.complete(request.clone()).await {
                Ok(completion) => return (read_answer(&completion.text), calls),
                Err(error) if is_transient(&error) && calls < self.max_attempts => {
                    tracing::debug!(attempt = calls, %error, "summarizer call failed; trying again");
                }
                Err(error) => return (Err(CompactionError::from(error)), calls),
            }
        }
    }
}

impl<M: CompletionModel> CompactionStrategy for SummarizeStrategy<M> {
    fn name(&self) -> &str {
        "summarize"
    }

    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        if counter.count_prompt(history) <= budget.get() {
            return Ok(Compacted::skipped(self.name(), history, budget, counter, "already fits"));
        }
        let Some(plan) = self.plan(history, budget, counter) else {
            return Ok(Compacted::skipped(
                self.name(),
                history,
                budget,
                counter,
                "no safe cut: no user message starts a turn that may be summarized",
            ));
        };
        if plan.summarized.is_empty() {
            return Ok(Compacted::skipped(
                self.name(),
                history,
                budget,
                counter,
                "everything before the cut is pinned or a system message; the model was not called",
            ));
        }
        let (answer, calls) = self.ask(&plan.summarized, plan.summary_tokens).await;
        let summary = match answer {
            Ok(text) => cap_text(&text, plan.summary_tokens, counter),
            Err(error) => return self.fail(history, budget, counter, error, calls).await,
        };
        let text = format!("{SUMMARY_HEADER}\n{summary}");
        let mut compacted =
            splice(history, &plan, Message::new(self.summary_role, vec![Part::text(text.clone())]));
        // The latest instruction, when it went into the summary, is carried in it too, cut if it must be.
        let summarized =
            task::instruction(history).filter(|index| *index < plan.cut && !plan.kept_before.contains(index));
        let mut note = None;
        if let Some(index) = summarized {
            note = Some("the latest instruction did not fit verbatim, not even cut in the summary");
            // The instruction comes before the summary's own text: its copy is sized first, against a
            // summary of the header alone, and the summary text gets what is left.
            let message = |text: String| Message::new(self.summary_role, vec![Part::text(text)]);
            let bare = splice(history, &plan, message(format!("{SUMMARY_HEADER}\n\n{INSTRUCTION_HEADER}\n")));
            let mut max = budget.get().saturating_sub(counter.count_prompt(&bare));
            for _ in 0..4 {
                let Some(copy) = task::carried(&history[index], max, counter) else { break };
                let section = format!("\n\n{INSTRUCTION_HEADER}\n{}", copy.text());
                let without = splice(history, &plan, message(format!("{SUMMARY_HEADER}\n{section}")));
                let over = counter.count_prompt(&without).saturating_sub(budget.get());
                if over > 0 {
                    max = max.saturating_sub(over);
                    continue;
                }
                let left = budget.get().saturating_sub(counter.count_prompt(&without));
                let mut room = left;
                let mut candidate = without;
                for _ in 0..4 {
                    let text = cap_text(&summary, room, counter);
                    let attempt =
                        splice(history, &plan, message(format!("{SUMMARY_HEADER}\n{text}{section}")));
                    let over = counter.count_prompt(&attempt).saturating_sub(budget.get());
                    if over == 0 {
                        candidate = attempt;
                        break;
                    }
                    room = room.saturating_sub(over);
                }
                compacted = candidate;
                note = Some("the latest instruction did not fit verbatim and is carried in the summary");
                break;
            }
        }
        if counter.count_prompt(&compacted) >= counter.count_prompt(history) {
            let mut skipped = Compacted::skipped(
                self.name(),
                history,
                budget,
                counter,
                "the summary would not shrink the history",
            );
            skipped.report.model_calls = calls;
            return Ok(skipped);
        }
        let mut report = Report::new(self.name(), Outcome::Applied, history, &compacted, budget, counter)
            .with_model_calls(calls);
        if let Some(note) = note {
            report = report.with_note(note);
        }
        Ok(Compacted::new(compacted, report))
    }
}

impl<M: CompletionModel> SummarizeStrategy<M> {
    async fn fail(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
        error: CompactionError,
        calls: u32,
    ) -> Result<Compacted, CompactionError> {
        match self.fallback {
            Fallback::Error => Err(error),
            Fallback::Truncate => {
                let problem = tidemark_core::error::chain_text(&error);
                tracing::warn!(error = %problem, "summarizer failed; truncating instead");
                let truncated = TruncateStrategy::new()
                    .preserve_last(self.preserve_last)
                    .compact(history, budget, counter)
                    .await?;
                let mut report = truncated.report;
                report.strategy = self.name().to_owned();
                report.model_calls = calls;
                if report.outcome == Outcome::Applied {
                    report.outcome = Outcome::Degraded;
                }
                report.note = Some(format!("summarizer failed ({problem}); fell back to truncation"));
                Ok(Compacted::new(truncated.history, report))
            }
        }
    }
}

/// The history with the summarized messages replaced by `summary`, placed where the first of them stood.
fn splice(history: &[Message], plan: &Plan, summary: Message) -> Vec<Message> {
    let mut out = Vec::with_capacity(plan.kept_before.len() + 1 + history.len() - plan.cut);
    let mut summary = Some(summary);
    let mut kept = plan.kept_before.iter().copied().peekable();
    for (index, message) in history[..plan.cut].iter().enumerate() {
        if kept.next_if_eq(&index).is_some() {
            out.push(message.clone());
        } else if let Some(summary) = summary.take() {
            out.push(summary);
        }
    }
    out.extend(history[plan.cut..].iter().cloned());
    out
}

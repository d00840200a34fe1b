//! [`ClearToolOutputs`]: the content of old tool results is replaced by a short placeholder that names the tool and the size removed.

use std::collections::{BTreeSet, HashMap};
use std::mem;
use std::num::NonZeroU32;

use tidemark_core::{CompactionError, Message, Outcome, Part, TokenCounter, units};

use super::{Compacted, CompactionStrategy, Report, fits};

/// Replaces the content of old tool results with a placeholder such as `[output of read_file cleared: 1,840 bytes]`.
///
/// In an agent's history most tokens are tool output (files read, commands
/// run, pages fetched) that the model used once and will not read again.
/// Agent benchmarks show that clearing it frees most of the space for little
/// loss, and it needs no model call, so pipelines try it first.
/// The placeholder tells the model what was there, so it can run the tool
/// again if it needs the output after all.
///
/// Only a result's content changes: every message keeps its role, name, pin,
/// call ids, error flag and other parts, and the history keeps its length, so
/// a valid history stays valid. These results are never cleared:
///
/// - the newest ones, up to [`keep_recent_tokens`](Self::keep_recent_tokens)
///   tokens of content in all, walking back from the newest result until the
///   next one would go over the allowance;
/// - results of the tools named with [`exclude`](Self::exclude);
/// - results in a pinned unit (a pin on either the call or the result keeps
///   the exchange whole);
/// - results already cleared, so that clearing twice equals clearing once;
/// - results whose placeholder would cost as much as the content.
///
/// Results are cleared oldest first, and clearing stops as soon as the prompt
/// fits the budget.
///
/// # Example
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_compaction::{ClearToolOutputs, CompactionStrategy};
/// use tidemark_core::{Message, Part, TokenCounter, ToolCall};
///
/// /// One token per byte of text, tool results included.
/// struct Bytes;
///
/// impl TokenCounter for Bytes {
///     fn name(&self) -> &str {
///         "bytes"
///     }
///     fn count_text(&self, text: &str) -> u32 {
///         u32::try_from(text.len()).unwrap_or(u32::MAX)
///     }
///     fn count(&self, message: &Message) -> u32 {
///         let results: u32 = message.tool_results().map(|result| self.count_text(&result.content)).sum();
///         self.count_text(&message.text()) + results
///     }
/// }
///
/// let history = [
///     Message::user("Summarize the log."),
///     Message::assistant_tool_calls([ToolCall::with_raw_arguments("call_1", "read_file", "{}")]),
///     Message::tool_result("call_1", "x".repeat(5_000)),
///     Message::assistant("It is 5,000 times the letter x."),
/// ];
/// let budget = NonZeroU32::new(1_000).expect("not zero");
/// let strategy = ClearToolOutputs::new().keep_recent_tokens(0);
/// let compacted = futures::executor::block_on(strategy.compact(&history, budget, &Bytes))?;
/// let cleared: Vec<&str> = compacted.history[2].tool_results().map(|result| result.content.as_str()).collect();
/// assert_eq!(cleared, ["[output of read_file cleared: 5,000 bytes]"]);
/// # Ok::<(), tidemark_core::CompactionError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClearToolOutputs {
    keep_recent_tokens: u32,
    exclude: BTreeSet<String>,
    reach_budget: bool,
}

impl ClearToolOutputs {
    /// The tokens of recent tool output kept by default: about one large file or a few command outputs.
    pub const DEFAULT_KEEP_RECENT_TOKENS: u32 = 2_000;

    /// A strategy that keeps the newest [`DEFAULT_KEEP_RECENT_TOKENS`](Self::DEFAULT_KEEP_RECENT_TOKENS) tokens of tool output and excludes no tool.
    pub fn new() -> Self {
        Self {
            keep_recent_tokens: Self::DEFAULT_KEEP_RECENT_TOKENS,
            exclude: BTreeSet::new(),
            reach_budget: false,
        }
    }

    /// The same strategy, keeping the newest tool outputs up to `tokens` tokens of content in all.
    ///
    /// The model is usually still working with what its last tools returned,
    /// so that output is worth its space; zero lets every result be cleared.
    #[must_use]
    pub fn keep_recent_tokens(mut self, tokens: u32) -> Self {
        self.keep_recent_tokens = tokens;
        self
    }

    /// The same strategy, clearing recent tool output too when clearing the older output is not enough to fit the budget.
    ///
    /// The recent allowance is a preference: in a pipeline, the next stage
    /// (a summary) usually does better than clearing output the model is still
    /// using, so it is kept by default. Used alone, a strategy that stops over
    /// the budget has failed; with this set, once every older result is
    /// cleared the recent ones go too, oldest first, except the results of
    /// the newest unit, which the model has not answered yet.
    #[must_use]
    pub fn reach_budget(mut self, reach: bool) -> Self {
        self.reach_budget = reach;
        self
    }

    /// The same strategy, never clearing the results of the tool named `tool`.
    ///
    /// Some outputs cannot be fetched again (a one-time code, the result of a
    /// write) or stay relevant for the whole task (a plan or a memory lookup).
    #[must_use]
    pub fn exclude(mut self, tool: impl Into<String>) -> Self {
        self.exclude.insert(tool.into());
        self
    }

    /// The same strategy, never clearing the results of any of the named tools.
    #[must_use]
    pub fn excluding<I>(mut self, tools: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.exclude.extend(tools.into_iter().map(Into::into));
        self
    }
}

impl Default for ClearToolOutputs {
    fn default() -> Self {
        Self::new()
    }
}

impl CompactionStrategy for ClearToolOutputs {
    fn name(&self) -> &str {
        "clear-tool-outputs"
    }

    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        Ok(clear(self, history, budget, counter))
    }
}

/// The name a placeholder gives a result whose call is not in the history.
const UNKNOWN_TOOL: &str = "a tool";

/// Where one tool result sits in a history.
#[derive(Clone, Copy, Debug)]
struct Slot {
    message: usize,
    part: usize,
}

fn clear(
    strategy: &ClearToolOutputs,
    history: &[Message],
    budget: NonZeroU32,
    counter: &dyn TokenCounter,
) -> Compacted {
    let name = strategy.name();
    let mut tokens: Vec<u64> = history.iter().map(|message| u64::from(counter.count(message))).collect();
    let mut total = u64::from(counter.prompt_overhead()) + tokens.iter().sum::<u64>();
    if fits(total, budget) {
        return Compacted::skipped(name, history, budget, counter, "already fits");
    }

    let tools = tool_names(history);
    let clearable = clearable_results(strategy, history, &tools);

    // Walk back from the newest result: the first one that would take the
    // recent output over the allowance, and every older one, may be cleared.
    let allowance = u64::from(strategy.keep_recent_tokens);
    let mut recent = 0_u64;
    let mut first_kept = clearable.len();
    for (position, slot) in clearable.iter().enumerate().rev() {
        let cost = result_content(history, *slot).map_or(0, |content| u64::from(counter.count_text(content)));
        if recent + cost > allowance {
            break;
        }
        recent += cost;
        first_kept = position;
    }
    // Past the allowance, when the budget needs it: every result but those of the newest unit.
    let last_unit = units(history).last().map_or(history.len(), |unit| unit.range().start);
    let reach = if strategy.reach_budget {
        clearable.iter().take_while(|slot| slot.message < last_unit).count()
    } else {
        first_kept
    };
    let candidates = clearable.get(..reach).unwrap_or_default();
    if candidates.is_empty() {
        let why = "no tool output old enough to clear";
        let kept = Kept { clearable: &clearable, small: &BTreeSet::new(), last_unit };
        return explained(
            Compacted::skipped(name, history, budget, counter, why),
            history,
            budget,
            counter,
            &kept,
        );
    }

    let mut cleared_history = history.to_vec();
    let (mut cleared, mut bytes) = (0_usize, 0_usize);
    // Messages with a result kept because its placeholder would cost as much.
    let mut small = BTreeSet::new();
    for slot in candidates {
        if fits(total, budget) {
            break;
        }
        let Some(message) = cleared_history.get_mut(slot.message) else { continue };
        let Some(before) = tokens.get(slot.message).copied() else { continue };
        let Some(Part::ToolResult(result)) = message.parts.get_mut(slot.part) else { continue };
        let tool = tools.get(result.call_id.as_str()).copied().filter(|tool| !tool.is_empty());
        let replacement = placeholder(tool.unwrap_or(UNKNOWN_TOOL), result.content.len());
        let original = mem::replace(&mut result.content, replacement);
        let after = u64::from(counter.count(message));
        if after < before {
            cleared += 1;
            bytes += original.len();
            total = total.saturating_sub(before - after);
            if let Some(count) = tokens.get_mut(slot.message) {
                *count = after;
            }
        } else if let Some(Part::ToolResult(result)) = message.parts.get_mut(slot.part) {
            // The placeholder costs as much as what it replaces: keep the original.
            result.content = original;
            small.insert(slot.message);
        }
    }
    let kept = Kept { clearable: &clearable, small: &small, last_unit };
    if cleared == 0 {
        let why = "no old tool output is larger than its placeholder";
        return explained(
            Compacted::skipped(name, history, budget, counter, why),
            history,
            budget,
            counter,
            &kept,
        );
    }

    let report = Report::new(name, Outcome::Applied, history, &cleared_history, budget, counter);
    let note = format!(
        "cleared {} {} ({} bytes)",
        grouped(cleared),
        if cleared == 1 { "tool result" } else { "tool results" },
        grouped(bytes),
    );
    let done = Compacted::new(cleared_history, report.with_note(note));
    explained(done, history, budget, counter, &kept)
}

/// What the clearing left, for saying why.
struct Kept<'a> {
    /// The results that could be cleared, oldest first.
    clearable: &'a [Slot],
    /// Messages with a result whose placeholder would cost as much as its content.
    small: &'a BTreeSet<usize>,
    /// Where the newest unit starts.
    last_unit: usize,
}

/// How many of the largest messages a note names when the prompt is still over the budget.
const NAMED_MESSAGES: usize = 4;

/// `done` with its note saying, when it is still over the budget, why its largest messages were left as they are.
fn explained(
    mut done: Compacted,
    original: &[Message],
    budget: NonZeroU32,
    counter: &dyn TokenCounter,
    kept: &Kept<'_>,
) -> Compacted {
    if done.report.fits {
        return done;
    }
    let over = u64::from(done.report.tokens_after).saturating_sub(u64::from(budget.get()));
    let mut sizes: Vec<(usize, u32)> =
        done.history.iter().map(|message| counter.count(message)).enumerate().collect();
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let reasons: Vec<String> = sizes
        .iter()
        .take(NAMED_MESSAGES)
        .map(|&(index, tokens)| {
            let why = left_because(original, &done.history, index, kept);
            format!("message {index} ({} tokens) {why}", grouped(tokens as usize))
        })
        .collect();
    let mut note = done.report.note.take().unwrap_or_default();
    if !note.is_empty() {
        note.push_str("; ");
    }
    note.push_str(&format!(
        "the prompt still exceeds the budget by {} tokens: {}",
        grouped(usize::try_from(over).unwrap_or(usize::MAX)),
        reasons.join(", ")
    ));
    done.report = done.report.with_note(note);
    done
}

/// Why message `index` of `history` (`now` after the clearing) still costs what it costs.
fn left_because(history: &[Message], now: &[Message], index: usize, kept: &Kept<'_>) -> &'static str {
    let Some(message) = history.get(index) else { return "is not tool output" };
    if message.tool_results().next().is_none() {
        return "is not tool output";
    }
    if now
        .get(index)
        .is_some_and(|message| message.tool_results().all(|result| is_placeholder(&result.content)))
    {
        return "holds cleared output only";
    }
    if !kept.clearable.iter().any(|slot| slot.message == index) {
        let pinned = units(history).any(|unit| unit.range().contains(&index) && unit.is_pinned(history));
        return if pinned { "is in a pinned unit" } else { "is output of an excluded tool" };
    }
    if kept.small.contains(&index) {
        return "is output no larger than its placeholder";
    }
    if index >= kept.last_unit {
        return "is output of the newest unit, not answered yet";
    }
    "is recent output within the kept allowance (keep_recent_tokens; reach_budget clears it)"
}

/// The name of the tool behind each call id, from the first call that uses the id.
fn tool_names(history: &[Message]) -> HashMap<&str, &str> {
    let mut names = HashMap::new();
    for call in history.iter().flat_map(Message::tool_calls) {
        names.entry(call.id.as_str()).or_insert(call.name.as_str());
    }
    names
}

/// Every result, oldest first, that is neither in a pinned unit, from an excluded tool, nor already cleared.
fn clearable_results(
    strategy: &ClearToolOutputs,
    history: &[Message],
    tools: &HashMap<&str, &str>,
) -> Vec<Slot> {
    let mut pinned = vec![false; history.len()];
    for unit in units(history).filter(|unit| unit.is_pinned(history)) {
        if let Some(flags) = pinned.get_mut(unit.range()) {
            flags.fill(true);
        }
    }
    let mut slots = Vec::new();
    for (index, message) in history.iter().enumerate() {
        if pinned.get(index).copied().unwrap_or(true) {
            continue;
        }
        for (part, content) in message.parts.iter().enumerate() {
            let Part::ToolResult(result) = content else { continue };
            let excluded =
                tools.get(result.call_id.as_str()).is_some_and(|tool| strategy.exclude.contains(*tool));
            if !excluded && !is_placeholder(&result.content) {
                slots.push(Slot { message: index, part });
            }
        }
    }
    slots
}

/// The content of the result at `slot`, if there is one.
fn result_content(history: &[Message], slot: Slot) -> Option<&str> {
    match history.get(slot.message)?.parts.get(slot.part)? {
        Part::ToolResult(result) => Some(result.content.as_str()),
        _ => None,
    }
}

/// The text that replaces `bytes` bytes of output from `tool`.
fn placeholder(tool: &str, bytes: usize) -> String {
    format!("[output of {tool} cleared: {} bytes]", grouped(bytes))
}

/// Whether `content` is a placeholder this strategy wrote.
fn is_placeholder(content: &str) -> bool {
    content
        .strip_prefix("[output of ")
        .and_then(|rest| rest.strip_suffix(" bytes]"))
        .and_then(|rest| rest.rsplit_once(" cleared: "))
        .is_some_and(|(_, size)| !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit() || b == b','))
}

/// `value` with its digits in groups of three, as in `1,840`.
fn grouped(value: usize) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests;

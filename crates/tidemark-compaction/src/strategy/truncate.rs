//! [`TruncateStrategy`]: the oldest tool units of a history are dropped until it fits the budget.

use std::num::NonZeroU32;

use tidemark_core::task::{self, Protected};
use tidemark_core::{CompactionError, Message, Outcome, TokenCounter, Unit, units};

use super::{Compacted, CompactionStrategy, Report, fits};

/// Drops the oldest units of a history, one at a time, until the prompt fits the budget.
///
/// Truncation costs no model call and keeps every surviving message word for
/// word, so it is the usual last step of a pipeline, after the strategies
/// that lose less have had their turn.
/// It works on whole units (see [`tidemark_core::units`]): a tool call is never
/// separated from its results, so a valid history stays valid and the kept
/// history never opens with a tool message whose call is gone.
///
/// These units are never dropped, and keep their places among the kept ones:
///
/// - pinned units and system messages;
/// - units that overlap the last [`preserve_last`](Self::preserve_last) messages;
/// - the newest unit, which holds what the model must answer next;
/// - the unit of the newest human instruction ([`tidemark_core::task`]) when it
///   fits beside the others; when it does not, a cut copy of its text stands
///   in its place if the room left holds one.
///
/// When everything else is gone and the prompt still does not fit, the
/// result is [`Outcome::Applied`] with [`Report::fits`] false and a note:
/// the caller learns that truncation alone cannot reach the budget.
///
/// # Example
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_compaction::{CompactionStrategy, TruncateStrategy};
/// use tidemark_core::{Message, TokenCounter};
///
/// /// One token per byte of text.
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
///         self.count_text(&message.text())
///     }
/// }
///
/// let history = [
///     Message::system("Be brief."),
///     Message::user("What is the capital of France?"),
///     Message::assistant("Paris."),
///     Message::user("And of Italy?"),
/// ];
/// let budget = NonZeroU32::new(25).expect("not zero");
/// let compacted = futures::executor::block_on(TruncateStrategy::new().compact(&history, budget, &Bytes))?;
/// // The oldest question and its answer went; the system message stayed in front.
/// assert_eq!(compacted.history, [history[0].clone(), history[3].clone()]);
/// assert!(compacted.report.fits);
/// # Ok::<(), tidemark_core::CompactionError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TruncateStrategy {
    preserve_last: usize,
}

impl TruncateStrategy {
    /// A strategy that may drop any unit but the newest, pinned units and system messages.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same strategy, never dropping any of the last `messages` messages.
    ///
    /// A unit that overlaps them is kept whole, so a tool exchange is never cut
    /// at the edge of the preserved tail. Recent turns carry the task in hand,
    /// which the model loses first when a budget is tight.
    #[must_use]
    pub fn preserve_last(mut self, messages: usize) -> Self {
        self.preserve_last = messages;
        self
    }
}

impl CompactionStrategy for TruncateStrategy {
    fn name(&self) -> &str {
        "truncate"
    }

    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        Ok(truncate(self.name(), self.preserve_last, history, budget, counter))
    }
}

/// The note of a step that found the history within the budget.
const ALREADY_FITS: &str = "already fits";

/// The note of a step that found every unit protected.
const NOTHING_TO_DROP: &str =
    "nothing can be dropped: every unit is pinned, a system message, preserved, or the newest";

fn truncate(
    name: &str,
    preserve_last: usize,
    history: &[Message],
    budget: NonZeroU32,
    counter: &dyn TokenCounter,
) -> Compacted {
    // Each message is counted once; dropping a unit then subtracts its share,
    // so the whole pass is linear in the history however many units go.
    let tokens: Vec<u64> = history.iter().map(|message| u64::from(counter.count(message))).collect();
    let mut total = u64::from(counter.prompt_overhead()) + tokens.iter().sum::<u64>();
    if fits(total, budget) {
        return Compacted::skipped(name, history, budget, counter, ALREADY_FITS);
    }

    let all: Vec<Unit> = units(history).collect();
    let tail_start = history.len().saturating_sub(preserve_last);
    let room = u64::from(budget.get()).saturating_sub(u64::from(counter.prompt_overhead()));
    let protected = Protected::new(history, &all, &tokens, room);
    // An instruction that cannot stay verbatim goes first and is carried cut: room is kept for the copy.
    let instruction = task::instruction(history);
    let carry = match instruction {
        Some(index) if !protected.instruction_kept => {
            task::carry_room(tokens[index], u64::from(budget.get()), counter)
        }
        _ => 0,
    };
    let target =
        NonZeroU32::new(u32::try_from(u64::from(budget.get()).saturating_sub(carry)).unwrap_or(u32::MAX))
            .unwrap_or(NonZeroU32::MIN);
    let mut dropped = vec![false; all.len()];
    let (mut dropped_units, mut dropped_messages) = (0_usize, 0_usize);
    for (position, unit) in all.iter().enumerate() {
        if fits(total, target) {
            break;
        }
        let droppable = unit.end() <= tail_start && !protected.stays[position];
        if droppable {
            dropped[position] = true;
            dropped_units += 1;
            dropped_messages += unit.len();
            total = total.saturating_sub(tokens.get(unit.range()).map_or(0, |share| share.iter().sum()));
        }
    }
    if dropped_units == 0 {
        return Compacted::skipped(name, history, budget, counter, NOTHING_TO_DROP);
    }

    // The instruction, when its unit had to go, is carried in a cut copy where it stood, if there is room.
    let carried_at = protected.instruction_unit.filter(|position| dropped[*position]);
    let room_left = u32::try_from(u64::from(budget.get()).saturating_sub(total)).unwrap_or(u32::MAX);
    let carried =
        carried_at.zip(instruction).and_then(|(_, index)| task::carried(&history[index], room_left, counter));
    let mut kept: Vec<Message> = Vec::with_capacity(history.len());
    for (position, (unit, gone)) in all.iter().zip(&dropped).enumerate() {
        if Some(position) == carried_at
            && let Some(copy) = &carried
        {
            kept.push(copy.clone());
        }
        if !gone {
            kept.extend(history.get(unit.range()).unwrap_or_default().iter().cloned());
        }
    }
    let report = Report::new(name, Outcome::Applied, history, &kept, budget, counter);
    let mut note = format!(
        "dropped the oldest {} ({})",
        plural(dropped_units, "unit", "units"),
        plural(dropped_messages, "message", "messages"),
    );
    match (carried_at, &carried) {
        (Some(_), Some(_)) => note.push_str("; the latest instruction did not fit whole and is carried cut"),
        (Some(_), None) => note.push_str("; the latest instruction did not fit, not even cut"),
        _ => {}
    }
    if !report.fits {
        note.push_str(&format!(
            "; the prompt still needs {} tokens of a budget of {}, and the rest is pinned, a system message, preserved, or the newest",
            report.tokens_after,
            budget.get(),
        ));
    }
    Compacted::new(kept, report.with_note(note))
}

/// `count` followed by the word for it.
fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests;

//! The task: the newest human instruction of a history, which compaction keeps in view.
//!
//! In an agent loop one user instruction is followed by dozens of tool steps.
//! Dropping the oldest units first would drop that instruction early, and an
//! agent that no longer sees what it was asked goes off course. So every rule
//! that leaves units out (the strategies of `tidemark-compaction`, the window
//! policies of `tidemark-memory`, [`fit_prompt`](crate::memory::fit_prompt))
//! treats the unit of the [`instruction`] as it treats a pinned one whenever it
//! fits beside what must stay anyway (system and pinned units and the newest
//! unit). When it does not, its text is [`carried`] in a cut copy that ends with
//! [`CUT_MARKER`], never dropped without a trace.
//!
//! The instruction is the latest user message with a part that is not a tool
//! result: in OpenAI chat tool results have a role of their own, while a
//! Claude transcript sends them in user turns. A subagent thread whose only
//! instruction is its opening task prompt keeps that prompt by the same rule.
//!
//! ```
//! use tidemark_core::Message;
//! use tidemark_core::task::instruction;
//!
//! let history = [
//!     Message::system("You fix builds."),
//!     Message::user("Find why the build fails and fix it."),
//!     Message::assistant("Running the build."),
//! ];
//! assert_eq!(instruction(&history), Some(1));
//! ```

use crate::counter::{TokenCounter, longest_prefix};
use crate::message::{Message, Part, Role};
use crate::unit::Unit;

/// The line that ends a carried instruction whose text was cut to fit.
pub const CUT_MARKER: &str = "[… the rest of this instruction was cut to fit the context budget]";

/// The line before the latest instruction when a summary carries it.
pub const INSTRUCTION_HEADER: &str = "[The latest instruction, which did not fit verbatim]";

/// Whether `output` holds the instruction `task`: whole in one message, or the start of it before
/// [`CUT_MARKER`] (in a summary, after [`INSTRUCTION_HEADER`]).
///
/// What a test of a compaction asks of its output.
///
/// ```
/// use tidemark_core::Message;
/// use tidemark_core::task::{CUT_MARKER, holds_instruction};
///
/// let task = "Fix the build, then run every test.";
/// assert!(holds_instruction(&[Message::user(task)], task));
/// assert!(holds_instruction(&[Message::user(format!("Fix the build,\n{CUT_MARKER}"))], task));
/// assert!(!holds_instruction(&[Message::user("Run every test.")], task));
/// ```
pub fn holds_instruction(output: &[Message], task: &str) -> bool {
    output.iter().any(|message| {
        let text = message.text();
        let carried =
            text.split_once(INSTRUCTION_HEADER).map_or(text.as_ref(), |(_, after)| after.trim_start());
        carried.contains(task)
            || carried
                .strip_suffix(CUT_MARKER)
                .map(str::trim_end)
                .is_some_and(|cut| !cut.is_empty() && task.starts_with(cut))
    })
}

/// The fewest tokens worth giving a carried instruction: below this, a cut copy says too little to be worth its place.
pub const MIN_CARRIED_TOKENS: u32 = 16;

/// The index of the newest human instruction: the latest user message with a part that is not a tool result.
pub fn instruction(history: &[Message]) -> Option<usize> {
    history.iter().rposition(|message| {
        message.role == Role::User && message.parts.iter().any(|part| !matches!(part, Part::ToolResult(_)))
    })
}

/// Which units of `history` stay whatever else goes, for a rule that leaves units out oldest first.
///
/// `units` are the history's units in order, `tokens` each message's count and
/// `room` the tokens the kept units may take in all (the budget less what the
/// caller adds beside them: the prompt overhead, a summary). System and pinned
/// units and the newest unit always stay; the instruction's unit stays too when
/// it fits in `room` beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Protected {
    /// One flag per unit: whether it stays.
    pub stays: Vec<bool>,
    /// The position among the units of the unit holding the instruction, if the history has one.
    pub instruction_unit: Option<usize>,
    /// Whether that unit stays because it fits (it may also stay as pinned, system or newest).
    pub instruction_kept: bool,
}

impl Protected {
    /// Works out what stays; see the type's documentation.
    pub fn new(history: &[Message], units: &[Unit], tokens: &[u64], room: u64) -> Self {
        let newest = units.len().checked_sub(1);
        let mut stays: Vec<bool> = units
            .iter()
            .enumerate()
            .map(|(position, unit)| {
                Some(position) == newest
                    || unit.is_pinned(history)
                    || history.get(unit.start()).is_some_and(|message| message.role == Role::System)
            })
            .collect();
        let cost = |unit: &Unit| tokens.get(unit.range()).map_or(0, |share| share.iter().sum::<u64>());
        let instruction_unit = instruction(history)
            .and_then(|index| units.iter().position(|unit| unit.range().contains(&index)));
        let mut instruction_kept = false;
        if let Some(position) = instruction_unit {
            if stays[position] {
                instruction_kept = true;
            } else {
                let staying: u64 =
                    units.iter().zip(&stays).filter(|(_, stays)| **stays).map(|(u, _)| cost(u)).sum();
                if units.get(position).is_some_and(|unit| staying + cost(unit) <= room) {
                    stays[position] = true;
                    instruction_kept = true;
                }
            }
        }
        Self { stays, instruction_unit, instruction_kept }
    }
}

/// The room a rule that leaves units out keeps for a carried instruction of `tokens` tokens under `budget`: the instruction and its marker, at most a quarter of the budget.
pub fn carry_room(tokens: u64, budget: u64, counter: &dyn TokenCounter) -> u64 {
    tokens.saturating_add(u64::from(counter.count_text(CUT_MARKER))).min(budget / 4)
}

/// The instruction `message` as a user message of at most `max_tokens` tokens as `counter` counts it, with its text cut and [`CUT_MARKER`] added when it does not fit whole.
///
/// Only its text is carried: the copy is a plain user message. `None` when
/// the instruction has no text, `max_tokens` is below [`MIN_CARRIED_TOKENS`],
/// or not even the marker fits.
pub fn carried(message: &Message, max_tokens: u32, counter: &dyn TokenCounter) -> Option<Message> {
    if max_tokens < MIN_CARRIED_TOKENS || message.text().trim().is_empty() {
        return None;
    }
    let whole = Message::user(message.text().into_owned());
    if counter.count(&whole) <= max_tokens {
        return Some(whole);
    }
    let text = message.text();
    let cut = |prefix: &str| Message::user(format!("{}\n{CUT_MARKER}", prefix.trim_end()));
    let fits = |prefix: &str| counter.count(&cut(prefix)) <= max_tokens;
    if !fits("") {
        return None;
    }
    Some(cut(longest_prefix(&text, fits)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::HeuristicCounter;
    use crate::message::{ToolCall, ToolResult};
    use crate::unit::units;

    fn agent_loop(steps: usize) -> Vec<Message> {
        let mut history =
            vec![Message::system("You fix builds."), Message::user("Find why the build fails and fix it.")];
        for step in 0..steps {
            let id = format!("call_{step}");
            history.push(Message::assistant_tool_calls([ToolCall::with_raw_arguments(&id, "run", "{}")]));
            history.push(Message::tool_result(&id, "output ".repeat(40)));
        }
        history
    }

    #[test]
    fn the_instruction_is_the_latest_user_message_that_is_not_only_tool_results() {
        let mut history = agent_loop(3);
        assert_eq!(instruction(&history), Some(1));
        // A Claude user turn that only returns results is not an instruction.
        history.push(Message::new(Role::User, vec![Part::ToolResult(ToolResult::new("x", "done"))]));
        assert_eq!(instruction(&history), Some(1));
        history.push(Message::user("Now run the tests too."));
        assert_eq!(instruction(&history), Some(history.len() - 1));
        assert_eq!(instruction(&[Message::assistant("Hello.")]), None);
    }

    #[test]
    fn the_instruction_stays_when_it_fits_beside_what_must() {
        let history = agent_loop(5);
        let counter = HeuristicCounter::default();
        let all: Vec<Unit> = units(&history).collect();
        let tokens: Vec<u64> = history.iter().map(|m| u64::from(counter.count(m))).collect();
        let must: u64 = tokens[0] + tokens[history.len() - 2..].iter().sum::<u64>();
        let kept = Protected::new(&history, &all, &tokens, must + tokens[1]);
        assert_eq!(kept.instruction_unit, Some(1));
        assert!(kept.instruction_kept && kept.stays[1]);
        assert_eq!(kept.stays.iter().filter(|stays| **stays).count(), 3, "system, instruction, newest");
        let short = Protected::new(&history, &all, &tokens, must + tokens[1] - 1);
        assert!(!short.instruction_kept && !short.stays[1]);
    }

    #[test]
    fn a_carried_instruction_is_cut_with_a_marker_and_fits() {
        let counter = HeuristicCounter::default();
        let task =
            Message::user("Rewrite the parser so that it reports every error with its line. ".repeat(20));
        let whole = carried(&task, 10_000, &counter).expect("room for all of it");
        assert_eq!(whole.text(), task.text());
        for max in [MIN_CARRIED_TOKENS, 40, 100, 300] {
            match carried(&task, max, &counter) {
                Some(cut) => {
                    assert!(counter.count(&cut) <= max, "{max}");
                    assert!(cut.text().ends_with(CUT_MARKER));
                    assert!(task.text().starts_with(cut.text().trim_end_matches(CUT_MARKER).trim_end()));
                }
                None => assert!(max < 40, "{max}: only the smallest rooms may carry nothing"),
            }
        }
        assert_eq!(carried(&task, MIN_CARRIED_TOKENS - 1, &counter), None);
    }
}

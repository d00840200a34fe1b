//! Loads within a lower budget for one call: the policy's selection, cut further until it fits, and a last check of the prompt.

use std::num::NonZeroU32;

use tidemark_core::{MemoryError, Message, Selection, TokenCounter, Unit, units};

use crate::policy::staying;

/// `selection` cut further, whole units at a time, until `fixed` plus its kept messages fit `budget`.
///
/// The cut only moves forward over the policy's kept tail: what the policy
/// demoted stays demoted. Pinned and system units it passes are retained, as
/// every policy retains them, and so is the newest human instruction's unit
/// when it fits beside them; the newest unit always stays. The result is
/// marked over budget when those alone do not fit.
pub(crate) fn tighten(
    messages: &[Message],
    tokens: &[u32],
    selection: Selection,
    fixed: u32,
    budget: NonZeroU32,
) -> Selection {
    let cost = |index: usize| tokens.get(index).map_or(0, |&t| u64::from(t));
    let budget = u64::from(budget.get());
    let mut total = u64::from(fixed) + selection.kept().map(cost).sum::<u64>();
    if total <= budget {
        return selection;
    }
    let all: Vec<Unit> = units(messages).collect();
    let stays = staying(&all, messages, tokens, Some(budget.saturating_sub(u64::from(fixed))));
    // The policy may have retained the instruction at its own budget; at this one it stays only if it fits.
    let mut retained = Vec::with_capacity(selection.retained().len());
    for &index in selection.retained() {
        let unit = all.iter().position(|unit| unit.range().contains(&index));
        if unit.is_some_and(|position| stays[position]) {
            retained.push(index);
        } else {
            total -= cost(index);
        }
    }
    let tail: Vec<(Unit, bool)> =
        all.into_iter().zip(stays).filter(|(unit, _)| unit.start() >= selection.cut()).collect();
    let mut cut = selection.cut();
    let last = tail.len().saturating_sub(1);
    for (position, (unit, stays)) in tail.iter().enumerate() {
        if total <= budget || position == last {
            break;
        }
        if *stays {
            retained.extend(unit.range());
        } else {
            total -= unit.range().map(cost).sum::<u64>();
        }
        cut = unit.end();
    }
    Selection::new(messages.len(), cut, retained).with_over_budget(total > budget)
}

/// `prompt` when it fits `budget` counted with `counter`, else [`MemoryError::OverBudget`].
///
/// The adapters fit the window before they compose the prompt, so this only
/// fails when what must stay is larger than the budget; it is the guarantee
/// that a load within a budget never returns more.
pub(crate) fn check(
    prompt: Vec<Message>,
    counter: &dyn TokenCounter,
    budget: NonZeroU32,
) -> Result<Vec<Message>, MemoryError> {
    let tokens = counter.count_prompt(&prompt);
    if tokens > budget.get() {
        return Err(MemoryError::OverBudget { budget: budget.get(), tokens });
    }
    Ok(prompt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidemark_core::ToolCall;

    fn budget(tokens: u32) -> NonZeroU32 {
        NonZeroU32::new(tokens).expect("non-zero")
    }

    #[test]
    fn cuts_whole_units_and_keeps_system_messages() {
        let call = Message::assistant_tool_calls(vec![ToolCall::new("c1", "lookup", serde_json::json!({}))]);
        let messages = vec![
            Message::system("rules"),
            Message::user("a"),
            call,
            Message::tool_result("c1", "42"),
            Message::user("b"),
        ];
        let tokens = [5, 10, 10, 10, 10];
        let all = Selection::keep_all(messages.len());
        assert_eq!(tighten(&messages, &tokens, all.clone(), 0, budget(45)), all);
        let cut = tighten(&messages, &tokens, all.clone(), 0, budget(35));
        assert_eq!(cut.kept().collect::<Vec<_>>(), vec![0, 2, 3, 4], "the oldest unit is enough");
        // 34 tokens: drop the user "a" (10) and the whole tool unit (20), keep the system message.
        let cut = tighten(&messages, &tokens, all.clone(), 0, budget(34));
        assert_eq!(cut.kept().collect::<Vec<_>>(), vec![0, 4]);
        assert!(!cut.over_budget());
        let cut = tighten(&messages, &tokens, all, 10, budget(12));
        assert_eq!(cut.kept().collect::<Vec<_>>(), vec![0, 4]);
        assert!(cut.over_budget(), "the system message and the newest turn are 15 with 10 fixed");
    }
}

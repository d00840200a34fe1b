//! The [`MemoryPolicy`] conformance suite: property checks over generated valid histories with random token counts.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use tidemark_core::{MemoryPolicy, Message, Role, Selection, Window, units, validate};

use super::{Failure, Report};
use crate::strategies::{HistoryConfig, arb_history_with};

/// What the policy suite generates and what it may expect.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PolicyConfig {
    /// How many generated cases to check (proptest shrinks a failing one).
    pub cases: u32,
    /// The shape of the generated histories.
    pub history: HistoryConfig,
    /// The largest token count given to one message (counts are drawn from `1..=max`).
    pub max_message_tokens: u32,
    /// The largest number of fixed tokens (summary, priming) given to the window.
    pub max_fixed_tokens: u32,
    /// The policy's token budget, if it has one: kept messages plus fixed tokens must fit unless the selection is marked over budget.
    pub budget: Option<u32>,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        Self {
            cases: 256,
            history: HistoryConfig::default(),
            max_message_tokens: 400,
            max_fixed_tokens: 200,
            budget: None,
        }
    }
}

impl PolicyConfig {
    /// The default configuration for a policy with a token budget.
    pub fn with_budget(budget: u32) -> Self {
        Self { budget: Some(budget), ..Self::default() }
    }

    /// The same configuration with `cases` cases.
    #[must_use]
    pub fn with_cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// The same configuration with histories shaped by `history`.
    #[must_use]
    pub fn with_history(mut self, history: HistoryConfig) -> Self {
        self.history = history;
        self
    }
}

/// One generated case: a valid history, a token count per message and the fixed tokens.
fn arb_case(config: &PolicyConfig) -> impl Strategy<Value = (Vec<Message>, Vec<u32>, u32)> {
    let max_tokens = config.max_message_tokens.max(1);
    let max_fixed = config.max_fixed_tokens;
    arb_history_with(config.history.clone()).prop_flat_map(move |history| {
        let len = history.len();
        (Just(history), prop::collection::vec(1..=max_tokens, len), 0..=max_fixed)
    })
}

/// Check `policy` on `config.cases` generated histories.
///
/// The checks: the selection covers the input; the cut falls on a unit
/// boundary and retained messages form whole units; every pinned unit and
/// system message before the cut is retained; the kept messages are valid and
/// include the newest message; applying the policy again to its kept messages
/// keeps them all; and, with a budget, kept plus fixed tokens fit unless the
/// selection is marked over budget, which is allowed only when every kept unit
/// but the newest is pinned or a system message (nothing more could go).
///
/// # Errors
///
/// Returns a [`Failure`] with the smallest failing input proptest found.
pub fn check<P: MemoryPolicy>(policy: &P, config: &PolicyConfig) -> Result<Report, Failure> {
    let mut runner =
        TestRunner::new(Config { cases: config.cases, failure_persistence: None, ..Config::default() });
    let result = runner.run(&arb_case(config), |(history, tokens, fixed)| {
        check_case(policy, &history, &tokens, fixed, config.budget).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => Ok(Report { checks: 7, cases: config.cases as usize }),
        Err(TestError::Fail(reason, (history, tokens, fixed))) => Err(Failure::new(
            "policy_properties",
            format!("{reason}\n  fixed tokens: {fixed}\n  tokens: {tokens:?}\n  history: {history:#?}"),
        )),
        Err(TestError::Abort(reason)) => Err(Failure::new("policy_properties", format!("aborted: {reason}"))),
    }
}

fn check_case(
    policy: &impl MemoryPolicy,
    history: &[Message],
    tokens: &[u32],
    fixed: u32,
    budget: Option<u32>,
) -> Result<(), String> {
    let window = Window::new(history).with_tokens(tokens).with_fixed_tokens(fixed);
    let selection = policy.select(&window);
    if selection.len() != history.len() {
        return Err(format!("selection covers {} messages of {}", selection.len(), history.len()));
    }
    let all: Vec<_> = units(history).collect();
    let cut = selection.cut();
    if cut != history.len() && !all.iter().any(|unit| unit.start() == cut) {
        return Err(format!("cut {cut} splits a tool unit"));
    }
    for unit in all.iter().filter(|unit| unit.end() <= cut) {
        let retained = unit.range().filter(|index| selection.retained().contains(index)).count();
        if retained != 0 && retained != unit.len() {
            return Err(format!("retained messages split the unit {:?}", unit.range()));
        }
        let must_keep = unit.is_pinned(history) || history[unit.start()].role == Role::System;
        if must_keep && retained == 0 {
            return Err(format!("the pinned or system unit {:?} before the cut was demoted", unit.range()));
        }
    }
    let (kept, _) = selection.split(history);
    let kept: Vec<Message> = kept.into_iter().cloned().collect();
    if let Err(violation) = validate(&kept) {
        return Err(format!("kept messages are invalid: {violation}"));
    }
    if kept.last() != history.last() {
        return Err("the newest message was not kept".into());
    }
    check_budget(history, &selection, &all, tokens, fixed, budget)?;
    let kept_tokens: Vec<u32> = selection.kept().map(|index| tokens[index]).collect();
    let again = policy.select(&Window::new(&kept).with_tokens(&kept_tokens).with_fixed_tokens(fixed));
    if !again.keeps_all() {
        return Err(format!(
            "not idempotent: applied to its own output it demoted {:?}",
            again.demoted().collect::<Vec<_>>()
        ));
    }
    Ok(())
}

fn check_budget(
    history: &[Message],
    selection: &Selection,
    all: &[tidemark_core::Unit],
    tokens: &[u32],
    fixed: u32,
    budget: Option<u32>,
) -> Result<(), String> {
    let Some(budget) = budget else { return Ok(()) };
    let used = selection.kept().fold(u64::from(fixed), |sum, index| sum + u64::from(tokens[index]));
    if selection.over_budget() {
        // Over budget is allowed only when nothing more could go: every kept
        // unit but the newest must be pinned or a system message.
        let kept: Vec<usize> = selection.kept().collect();
        let droppable = all[..all.len().saturating_sub(1)].iter().find(|unit| {
            kept.contains(&unit.start())
                && !(unit.is_pinned(history) || history[unit.start()].role == Role::System)
        });
        if let Some(unit) = droppable {
            return Err(format!("marked over budget though it keeps the droppable unit {:?}", unit.range()));
        }
    } else if used > u64::from(budget) {
        return Err(format!(
            "kept {used} tokens (fixed included) over the budget of {budget} without saying so"
        ));
    }
    Ok(())
}

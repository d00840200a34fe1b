//! [`TokenWindow`]: keep what fits a token budget, cutting down to a low watermark so that compaction runs once per many turns.

use std::num::NonZeroU32;

use tidemark_core::{MemoryPolicy, Message, Role, Selection, TokenCounter, Unit, Window, units};

use super::{CachePlan, retained_before, staying};
use crate::error::PolicyError;

/// Keeps the newest units that fit a token budget, with hysteresis.
///
/// One budget covers everything sent: the fixed tokens of the window (the
/// summary in front of it and the counter's reply priming), the kept
/// messages, and a `reserve` left for the model's answer. While all of that
/// fits, the policy keeps everything. When it would not fit, the policy cuts
/// down to the *low watermark* (by default 60% of the budget), so the window
/// then grows for many turns before the next cut instead of being trimmed, and
/// compacted, on every turn.
///
/// Pinned units and system messages are always kept and counted. The newest
/// unit is kept even when it alone exceeds the budget; the selection is then
/// marked [`over_budget`](Selection::over_budget), never empty.
///
/// Token counts come from the window when the caller provides them (memory
/// adapters store them at append); otherwise the policy counts with its counter.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::{MemoryPolicy, Message, Window};
/// use tidemark_memory::policy::TokenWindow;
/// use tidemark_memory::counter::HeuristicCounter;
///
/// let policy = TokenWindow::new(NonZeroU32::new(100).unwrap(), HeuristicCounter::default());
/// let history: Vec<Message> = (0..10).map(|i| Message::user(format!("message number {i}"))).collect();
/// let tokens = vec![15; 10];
/// let selection = policy.select(&Window::new(&history).with_tokens(&tokens));
/// // 150 tokens do not fit 100; the policy cuts down to 60, the last 4 messages.
/// assert_eq!(selection.kept().collect::<Vec<_>>(), vec![6, 7, 8, 9]);
/// ```
#[derive(Clone, Debug)]
pub struct TokenWindow<C> {
    budget: NonZeroU32,
    reserve: u32,
    low_watermark_percent: u8,
    plan: Option<CachePlan>,
    counter: C,
}

impl<C: TokenCounter> TokenWindow<C> {
    /// The default low watermark: a cut leaves 60% of the budget in use.
    pub const DEFAULT_LOW_WATERMARK_PERCENT: u8 = 60;

    /// A window of `budget` tokens counted with `counter`, no reserve and the default low watermark.
    pub fn new(budget: NonZeroU32, counter: C) -> Self {
        Self {
            budget,
            reserve: 0,
            low_watermark_percent: Self::DEFAULT_LOW_WATERMARK_PERCENT,
            plan: None,
            counter,
        }
    }

    /// The same window leaving `reserve` tokens of the budget for the model's answer.
    ///
    /// # Errors
    ///
    /// [`PolicyError::ReserveTooLarge`] when the reserve takes the whole budget.
    pub fn with_reserve(mut self, reserve: u32) -> Result<Self, PolicyError> {
        if reserve >= self.budget.get() {
            return Err(PolicyError::ReserveTooLarge { reserve, budget: self.budget.get() });
        }
        self.reserve = reserve;
        Ok(self)
    }

    /// The same window cutting down to `percent` of the budget when it must cut (100 disables the hysteresis).
    ///
    /// # Errors
    ///
    /// [`PolicyError::LowWatermark`] unless `percent` is between 1 and 100.
    pub fn with_low_watermark(mut self, percent: u8) -> Result<Self, PolicyError> {
        if !(1..=100).contains(&percent) {
            return Err(PolicyError::LowWatermark { percent });
        }
        self.low_watermark_percent = percent;
        Ok(self)
    }

    /// The same window choosing how deep to cut with `plan`, by what each cut costs under a prompt cache, instead of cutting to the low watermark.
    ///
    /// See [`CachePlan`] for the rule. The window still cuts only when the
    /// budget forces it, only between tool units, and keeps pinned units,
    /// system messages and the newest unit.
    #[must_use]
    pub fn with_cache_plan(mut self, plan: CachePlan) -> Self {
        self.plan = Some(plan);
        self
    }

    /// The cache plan, if cuts are chosen by one.
    pub fn cache_plan(&self) -> Option<&CachePlan> {
        self.plan.as_ref()
    }

    /// The budget in tokens.
    pub fn budget(&self) -> u32 {
        self.budget.get()
    }

    /// The tokens reserved for the answer.
    pub fn reserve(&self) -> u32 {
        self.reserve
    }

    /// The token count a cut aims for.
    pub fn low_watermark(&self) -> u32 {
        let tokens = u64::from(self.budget.get()) * u64::from(self.low_watermark_percent) / 100;
        u32::try_from(tokens).unwrap_or(u32::MAX)
    }

    /// The counter.
    pub fn counter(&self) -> &C {
        &self.counter
    }
}

impl<C: TokenCounter> TokenWindow<C> {
    /// The cut `plan` chooses: among the cuts that fit the budget, from the deepest (the newest unit alone) up.
    ///
    /// `base` is what every prompt carries (fixed tokens, reserve, units no cut may remove) and
    /// `droppable` the tokens of every other unit, both as [`select`](MemoryPolicy::select) summed them.
    fn planned(
        plan: &CachePlan,
        messages: &[Message],
        (all, tokens, stays): (&[Unit], &[u32], &[bool]),
        (base, droppable): (u64, u64),
        budget: u64,
    ) -> Selection {
        let unit_tokens = |unit: &Unit| -> u64 { tokens[unit.range()].iter().map(|&t| u64::from(t)).sum() };
        // (cut, kept tokens) for every cut that keeps a run of the newest droppable units, deepest first.
        let mut candidates: Vec<(usize, u64)> = Vec::new();
        let mut kept = 0;
        for (position, unit) in all.iter().enumerate().rev() {
            if stays[position] {
                continue;
            }
            let cost = unit_tokens(unit);
            let newest = position + 1 == all.len();
            if candidates.is_empty() && !newest {
                // The newest unit is pinned or a system message: a cut may leave out every droppable unit.
                candidates.push((unit.end(), 0));
            }
            if !newest && base + kept + cost > budget {
                break;
            }
            kept += cost;
            candidates.push((unit.start(), kept));
        }
        let growth = plan.growth().map_or_else(
            || {
                let turns = messages.iter().filter(|message| message.role == Role::User).count().max(1);
                droppable / turns as u64
            },
            u64::from,
        );
        let sizes: Vec<u64> = candidates.iter().map(|&(_, kept)| kept).collect();
        let (cut, kept) =
            candidates.get(plan.choose(budget, base, &sizes, growth)).copied().unwrap_or((0, 0));
        Selection::new(messages.len(), cut, retained_before(all, stays, cut))
            .with_over_budget(base + kept > budget)
    }
}

impl<C: TokenCounter> MemoryPolicy for TokenWindow<C> {
    fn prompt_budget(&self) -> Option<u32> {
        Some(self.budget.get().saturating_sub(self.reserve))
    }

    fn select(&self, window: &Window<'_>) -> Selection {
        let messages = window.messages();
        let counted: Vec<u32>;
        let tokens = match window.tokens() {
            Some(tokens) => tokens,
            None => {
                counted = messages.iter().map(|message| self.counter.count(message)).collect();
                &counted
            }
        };
        let all: Vec<Unit> = units(messages).collect();
        let unit_tokens = |unit: &Unit| -> u64 { tokens[unit.range()].iter().map(|&t| u64::from(t)).sum() };

        // Fixed costs, and the units no cut may remove, are paid first.
        let mut base = u64::from(window.fixed_tokens()) + u64::from(self.reserve);
        let room = u64::from(self.budget.get()).saturating_sub(base);
        let stays = staying(&all, messages, tokens, Some(room));
        let mut droppable = 0;
        for (unit, stays) in all.iter().zip(&stays) {
            if *stays {
                base += unit_tokens(unit);
            } else {
                droppable += unit_tokens(unit);
            }
        }
        let budget = u64::from(self.budget.get());
        if base + droppable <= budget {
            return Selection::keep_all(messages.len());
        }

        if let Some(plan) = &self.plan {
            return Self::planned(plan, messages, (&all, tokens, &stays), (base, droppable), budget);
        }

        let target = u64::from(self.low_watermark());
        let mut kept = 0;
        let mut cut = 0;
        for (position, unit) in all.iter().enumerate().rev() {
            if stays[position] {
                continue;
            }
            let cost = unit_tokens(unit);
            let newest = position + 1 == all.len();
            if newest || base + kept + cost <= target {
                kept += cost;
            } else {
                cut = unit.end();
                break;
            }
        }
        Selection::new(messages.len(), cut, retained_before(&all, &stays, cut))
            .with_over_budget(base + kept > budget)
    }

    fn token_counter(&self) -> Option<&dyn TokenCounter> {
        Some(&self.counter)
    }
}

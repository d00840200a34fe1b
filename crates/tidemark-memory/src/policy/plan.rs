//! [`CachePlan`]: how deep a cut goes, chosen by what the cut costs under a provider's prompt cache.

use tidemark_core::cache::CachePrices;

use crate::error::PolicyError;

/// Chooses how much of the window a cut keeps by the input bill it leads to, instead of a fixed low watermark.
///
/// Under a prompt cache a cut is expensive: every message it keeps moves
/// forward in the prompt and is written to the cache again at the write
/// price, while a turn that only extends the prompt pays the cheap read
/// price for all of it. A cut that keeps little writes little and leaves room
/// for many cheap turns before the next cut; a cut that keeps much writes
/// much, and the next one comes sooner. The plan prices each possible cut
/// (at a tool-unit boundary) over the cycle it starts, until the window is
/// full again:
///
/// ```text
/// per turn = w·kept / n  +  r·(start + (n − 1)·g / 2)  +  w·g
/// start    = fixed + kept           n = max(1, (budget − start) / g)
/// ```
///
/// where `r` and `w` are the read and write prices, `fixed` is what every
/// prompt carries (the summary, system and pinned messages, the reply
/// priming and the reserve), and `g` is the growth per turn: the mean tokens
/// of a user turn in the window (everything from one user message to the
/// next), or the figure given with [`with_growth`](Self::with_growth).
///
/// That cost only grows with what a cut keeps, so the cheapest cut keeps the
/// newest unit alone. The plan then keeps the *most* it can while the cost
/// per turn stays within `1 + slack` of the cheapest cut's: the slack is what
/// the caller agrees to pay for more of the conversation verbatim (the
/// default 10%). A slack of zero cuts as deep as a cut goes.
///
/// A plan never makes a cut the budget does not force: a window that fits is
/// kept whole, whatever a cut would save, because a cut always pays a write.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::cache::CachePrices;
/// use tidemark_core::{MemoryPolicy, Message, Window};
/// use tidemark_memory::policy::{CachePlan, TokenWindow};
/// use tidemark_memory::counter::HeuristicCounter;
///
/// let budget = NonZeroU32::new(1_000).unwrap();
/// let plan = CachePlan::new(CachePrices::default());
/// let policy = TokenWindow::new(budget, HeuristicCounter::default()).with_cache_plan(plan);
/// let history: Vec<Message> = (0..60).map(|i| Message::user(format!("turn {i}"))).collect();
/// let tokens = vec![20; 60];
/// let selection = policy.select(&Window::new(&history).with_tokens(&tokens));
/// // 1,200 tokens do not fit 1,000. A fixed 60% watermark would keep 30 messages;
/// // the plan keeps what costs at most 10% more per turn than the deepest cut.
/// let kept = selection.kept().count();
/// assert!((1..30).contains(&kept), "{kept}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CachePlan {
    prices: CachePrices,
    slack: f64,
    growth: Option<u32>,
}

impl CachePlan {
    /// The default slack: a cut may cost 10% more per turn than the deepest one.
    pub const DEFAULT_SLACK: f64 = 0.1;

    /// A plan pricing cuts at `prices`, with the default slack and the growth per turn measured from the window.
    pub fn new(prices: CachePrices) -> Self {
        Self { prices, slack: Self::DEFAULT_SLACK, growth: None }
    }

    /// The same plan allowing a cost per turn up to `1 + slack` times the deepest cut's.
    ///
    /// # Errors
    ///
    /// [`PolicyError::Slack`] unless `slack` is a finite number, zero or more.
    pub fn with_slack(mut self, slack: f64) -> Result<Self, PolicyError> {
        if !slack.is_finite() || slack < 0.0 {
            return Err(PolicyError::Slack { slack });
        }
        self.slack = slack;
        Ok(self)
    }

    /// The same plan assuming `tokens` of new messages per turn instead of measuring them in the window (at least 1).
    #[must_use]
    pub fn with_growth(mut self, tokens: u32) -> Self {
        self.growth = Some(tokens.max(1));
        self
    }

    /// The prices cuts are weighed at.
    pub fn prices(&self) -> CachePrices {
        self.prices
    }

    /// The slack over the deepest cut's cost per turn.
    pub fn slack(&self) -> f64 {
        self.slack
    }

    /// The growth per turn given with [`with_growth`](Self::with_growth), if any.
    pub fn growth(&self) -> Option<u32> {
        self.growth
    }

    /// The expected input cost per turn of the cycle that a cut keeping `kept` tokens starts.
    pub fn cost_per_turn(&self, budget: u64, fixed: u64, kept: u64, growth: u64) -> f64 {
        let growth = growth.max(1) as f64;
        let start = (fixed + kept) as f64;
        let turns = ((budget as f64 - start) / growth).max(1.0);
        let (read, write) = (self.prices.read, self.prices.write);
        write * kept as f64 / turns + read * (start + (turns - 1.0) * growth / 2.0) + write * growth
    }

    /// Among cuts keeping `candidates` tokens (ascending: the deepest cut first), the index of the one the plan takes.
    pub(crate) fn choose(&self, budget: u64, fixed: u64, candidates: &[u64], growth: u64) -> usize {
        let Some(&deepest) = candidates.first() else { return 0 };
        let limit = self.cost_per_turn(budget, fixed, deepest, growth) * (1.0 + self.slack);
        candidates
            .iter()
            .rposition(|&kept| self.cost_per_turn(budget, fixed, kept, growth) <= limit)
            .unwrap_or(0)
    }
}

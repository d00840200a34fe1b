//! Calibration from reported usage: [`Calibration`], a bounded and outlier-robust estimate of how many tokens the provider counts for each token the memory's counter counts.
//!
//! A memory counts every message once, at append, with its own counter
//! (OpenAI's tokenizers, or a byte heuristic), and fits its window with
//! those stored counts. A model whose tokenizer is unknown (Llama, Qwen,
//! Claude through a proxy) counts the same prompt differently, but every
//! provider reports what it counted (`usage.prompt_tokens`). Each report,
//! divided by the memory's own count of the prompt it answered, is one
//! sample of the [`Ratio`] between the two; a [`Calibration`] keeps the
//! last [`Calibration::WINDOW`] samples of a conversation and answers with
//! their median. The memory then fits its window to counts scaled by that
//! ratio ([`Ratio::scale`]), which is the same as fitting the stored counts
//! to the budget divided by it ([`Ratio::budget`]): the prompt fits the
//! budget by the provider's own count, without counting anything again.
//!
//! The rules, each there for a reason:
//!
//! | Rule | Why |
//! | --- | --- |
//! | Every ratio is clamped to [`Ratio::MIN`]..=[`Ratio::MAX`] (0.5 to 2) | No report can more than halve or double a budget; real tokenizers of the same text differ by far less (o200k to cl100k is about 1.1). |
//! | A report of zero prompt tokens is [`Observed::NotReported`] | Servers that do not report usage send zero. |
//! | A prompt under [`Calibration::MIN_PROMPT_TOKENS`] is [`Observed::TooSmall`] | A short prompt is mostly framing, whose price differs between chat templates far more than the price of text. |
//! | The estimate is the median of the last [`Calibration::WINDOW`] samples (the upper one of the two middle samples when their number is even) | One odd report (a request that carried tool definitions, a cached prompt) moves it by at most one place in the sorted samples; the upper median errs on the safe side, towards a smaller budget. |
//! | With no samples the ratio is exactly [`Ratio::ONE`] | A memory that never hears about usage behaves exactly as before. |
//!
//! ```
//! use tidemark_core::calibration::{Calibration, Observed, Ratio};
//!
//! let mut calibration = Calibration::new();
//! assert_eq!(calibration.ratio(), Ratio::ONE);
//! // The provider counted 1,300 tokens where the memory counted 1,000, three times.
//! for _ in 0..3 {
//!     calibration.observe(1_000, 1_300);
//! }
//! // One odd report does not move the median.
//! assert_eq!(calibration.observe(1_000, 9_000), Observed::Accepted(Ratio::MAX));
//! assert_eq!(calibration.ratio(), Ratio::from_millionths(1_300_000));
//! // Scaled counts fit the budget exactly when the stored counts fit the budget divided by the ratio.
//! assert_eq!(calibration.ratio().scale(1_000), 1_300);
//! assert_eq!(calibration.ratio().budget(13_000), 10_000);
//! ```

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

/// Millionths in one.
const UNIT: u64 = 1_000_000;

/// How many tokens a provider counts for each token of the memory's counter, in millionths, within [`Ratio::MIN`]..=[`Ratio::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ratio(u32);

impl Ratio {
    /// The same count: no correction.
    pub const ONE: Ratio = Ratio(1_000_000);
    /// The lowest ratio: the provider counts half as many tokens.
    pub const MIN: Ratio = Ratio(500_000);
    /// The highest ratio: the provider counts twice as many tokens.
    pub const MAX: Ratio = Ratio(2_000_000);

    /// The ratio of `millionths` / 1,000,000, clamped to [`Ratio::MIN`]..=[`Ratio::MAX`].
    pub fn from_millionths(millionths: u32) -> Self {
        Ratio(millionths.clamp(Self::MIN.0, Self::MAX.0))
    }

    /// The ratio of a provider's count, `reported`, to the memory's, `local`, to the nearest millionth and clamped; `None` when `local` is zero.
    ///
    /// ```
    /// use tidemark_core::calibration::Ratio;
    ///
    /// assert_eq!(Ratio::measured(1_000, 1_300), Some(Ratio::from_millionths(1_300_000)));
    /// assert_eq!(Ratio::measured(1_000, 5_000), Some(Ratio::MAX));
    /// assert_eq!(Ratio::measured(0, 5_000), None);
    /// ```
    pub fn measured(local: u32, reported: u32) -> Option<Self> {
        if local == 0 {
            return None;
        }
        let local = u64::from(local);
        let millionths = (u64::from(reported) * UNIT + local / 2) / local;
        Some(Self::from_millionths(u32::try_from(millionths).unwrap_or(u32::MAX)))
    }

    /// The ratio in millionths.
    pub fn millionths(self) -> u32 {
        self.0
    }

    /// The ratio as a floating-point number, for display and logs.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 1e6
    }

    /// `tokens` of the memory's counter as the provider would count them: multiplied by the ratio and rounded up, saturating.
    ///
    /// Rounding up makes scaled counts safe to add: the sum of scaled counts
    /// is never below the scaled sum, so messages that fit a budget one by
    /// one fit it together. [`Ratio::ONE`] returns `tokens` unchanged.
    pub fn scale(self, tokens: u32) -> u32 {
        let scaled = (u64::from(tokens) * u64::from(self.0)).div_ceil(UNIT);
        u32::try_from(scaled).unwrap_or(u32::MAX)
    }

    /// The budget in the memory's tokens that `budget` provider tokens stand for: divided by the ratio and rounded down, saturating.
    ///
    /// A count fits it exactly when its scaled count fits `budget`
    /// (`scale(tokens) <= budget` if and only if `tokens <= budget(budget)`,
    /// short of saturation), so it always lies between `budget / 2` and
    /// `budget * 2`, and [`Ratio::ONE`] returns `budget` unchanged.
    pub fn budget(self, budget: u32) -> u32 {
        let effective = u64::from(budget) * UNIT / u64::from(self.0);
        u32::try_from(effective).unwrap_or(u32::MAX)
    }
}

impl Default for Ratio {
    fn default() -> Self {
        Self::ONE
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 1_000_000;
        let fraction = self.0 % 1_000_000;
        let digits = format!("{fraction:06}");
        let digits = digits.trim_end_matches('0');
        if digits.is_empty() { write!(f, "{whole}") } else { write!(f, "{whole}.{digits}") }
    }
}

/// What [`Calibration::observe`] made of one report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Observed {
    /// The sample joined the window with this ratio (clamped to the bound).
    Accepted(Ratio),
    /// The provider reported zero prompt tokens: it does not report usage. Nothing changed.
    NotReported,
    /// The memory counted fewer than [`Calibration::MIN_PROMPT_TOKENS`] tokens: mostly framing, not worth a sample. Nothing changed.
    TooSmall,
}

/// The last few ratios a provider's reports measured for one conversation, and the correction they give.
///
/// A pure value: [`observe`](Calibration::observe) adds a sample,
/// [`ratio`](Calibration::ratio) is the correction (see the
/// [module documentation](self) for the rules). Stores keep one per
/// conversation (`ConversationStore::calibration`), so a restart keeps what
/// was learned. Its JSON form is `{"ratios":[…]}`, the samples in
/// millionths, oldest first; decoding never fails on a well-formed object,
/// and clamps and trims what it reads to the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Stored", into = "Stored")]
pub struct Calibration {
    /// Oldest first, at most [`Calibration::WINDOW`].
    ratios: Vec<Ratio>,
}

impl Calibration {
    /// How many of the latest samples the estimate is the median of.
    pub const WINDOW: usize = 9;

    /// The smallest prompt, by the memory's count, whose report is a sample.
    pub const MIN_PROMPT_TOKENS: u32 = 100;

    /// A calibration with no samples: [`Ratio::ONE`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A calibration holding `ratios`, oldest first: the last [`Calibration::WINDOW`] of them are kept.
    pub fn from_ratios(ratios: impl IntoIterator<Item = Ratio>) -> Self {
        let mut ratios: Vec<Ratio> = ratios.into_iter().collect();
        let excess = ratios.len().saturating_sub(Self::WINDOW);
        ratios.drain(..excess);
        Self { ratios }
    }

    /// Add the sample of one call: the memory counted `local` tokens in the prompt and the provider `reported` tokens.
    ///
    /// The oldest sample leaves once [`Calibration::WINDOW`] are held.
    pub fn observe(&mut self, local: u32, reported: u32) -> Observed {
        if reported == 0 {
            return Observed::NotReported;
        }
        if local < Self::MIN_PROMPT_TOKENS {
            return Observed::TooSmall;
        }
        let Some(ratio) = Ratio::measured(local, reported) else { return Observed::TooSmall };
        if self.ratios.len() == Self::WINDOW {
            self.ratios.remove(0);
        }
        self.ratios.push(ratio);
        Observed::Accepted(ratio)
    }

    /// The correction: the median of the samples (the upper middle one for an even number), or [`Ratio::ONE`] with none.
    pub fn ratio(&self) -> Ratio {
        let mut sorted = self.ratios.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().unwrap_or(Ratio::ONE)
    }

    /// The samples, oldest first.
    pub fn ratios(&self) -> &[Ratio] {
        &self.ratios
    }

    /// Whether no sample was taken.
    pub fn is_empty(&self) -> bool {
        self.ratios.is_empty()
    }
}

/// The JSON form of a [`Calibration`]; reading it back clamps and trims.
#[derive(Serialize, Deserialize)]
struct Stored {
    ratios: Vec<u32>,
}

impl From<Stored> for Calibration {
    fn from(stored: Stored) -> Self {
        Self::from_ratios(stored.ratios.into_iter().map(Ratio::from_millionths))
    }
}

impl From<Calibration> for Stored {
    fn from(calibration: Calibration) -> Self {
        Self { ratios: calibration.ratios.into_iter().map(Ratio::millionths).collect() }
    }
}

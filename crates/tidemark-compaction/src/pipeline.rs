//! Pipelines: strategies run in order, stopping as soon as the history fits.
//!
//! [`Pipeline`] chains a tuple of strategies with static dispatch;
//! [`DynPipeline`] chains boxed strategies chosen at run time (a command-line
//! flag, a configuration file). Both run every step through
//! [`run_checked`], so each step keeps the guarantees of
//! the [`strategy`](crate::strategy) module, and both stop after
//! `max_steps` steps, so a pipeline can never loop.
//!
//! A step that fails (a summarizer error without a fallback) is recorded in
//! the report as [`Outcome::Failed`] with its error, and the next step runs
//! on the history as it was: a later, cheaper strategy may still make it fit.

use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;

use tidemark_core::error::chain_text;
use tidemark_core::{CompactionError, Message, Outcome, TokenCounter};

use crate::strategy::{Compacted, CompactionStrategy, DEFAULT_MIN_GAIN, Report, check_step, run_checked};

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The object-safe twin of [`CompactionStrategy`], for [`DynPipeline`].
pub trait DynStrategy: Send + Sync {
    /// The strategy's name.
    fn name_boxed(&self) -> &str;

    /// [`CompactionStrategy::compact`] with a boxed future.
    fn compact_boxed<'a>(
        &'a self,
        history: &'a [Message],
        budget: NonZeroU32,
        counter: &'a dyn TokenCounter,
    ) -> BoxFuture<'a, Result<Compacted, CompactionError>>;
}

impl<T: CompactionStrategy> DynStrategy for T {
    fn name_boxed(&self) -> &str {
        self.name()
    }

    fn compact_boxed<'a>(
        &'a self,
        history: &'a [Message],
        budget: NonZeroU32,
        counter: &'a dyn TokenCounter,
    ) -> BoxFuture<'a, Result<Compacted, CompactionError>> {
        Box::pin(self.compact(history, budget, counter))
    }
}

impl CompactionStrategy for dyn DynStrategy {
    fn name(&self) -> &str {
        self.name_boxed()
    }

    // An `async fn` here captures each input lifetime separately, which the
    // boxed future's single shared lifetime cannot express directly.
    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        self.compact_boxed(history, budget, counter).await
    }
}

/// The steps of a [`Pipeline`]: implemented for tuples of one to six strategies.
pub trait Steps: Send + Sync {
    /// How many steps there are.
    fn len(&self) -> usize;

    /// Whether there are none (never, for a tuple).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of step `index`.
    fn step_name(&self, index: usize) -> &str;

    /// Run step `index` through [`run_checked`].
    fn run_step(
        &self,
        index: usize,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
        min_gain: u32,
    ) -> impl Future<Output = Result<Compacted, CompactionError>> + Send;
}

macro_rules! tuple_steps {
    ($len:literal: $($name:ident $index:tt),+) => {
        impl<$($name: CompactionStrategy),+> Steps for ($($name,)+) {
            fn len(&self) -> usize {
                $len
            }

            fn step_name(&self, index: usize) -> &str {
                match index {
                    $($index => self.$index.name(),)+
                    _ => "",
                }
            }

            async fn run_step(
                &self,
                index: usize,
                history: &[Message],
                budget: NonZeroU32,
                counter: &dyn TokenCounter,
                min_gain: u32,
            ) -> Result<Compacted, CompactionError> {
                match index {
                    $($index => run_checked(&self.$index, history, budget, counter, min_gain).await,)+
                    _ => Ok(Compacted::skipped("none", history, budget, counter, "no such step")),
                }
            }
        }
    };
}

tuple_steps!(1: A 0);
tuple_steps!(2: A 0, B 1);
tuple_steps!(3: A 0, B 1, C 2);
tuple_steps!(4: A 0, B 1, C 2, D 3);
tuple_steps!(5: A 0, B 1, C 2, D 3, E 4);
tuple_steps!(6: A 0, B 1, C 2, D 3, E 4, F 5);

impl Steps for Vec<Box<dyn DynStrategy>> {
    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn step_name(&self, index: usize) -> &str {
        self.get(index).map_or("", |step| step.name_boxed())
    }

    async fn run_step(
        &self,
        index: usize,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
        min_gain: u32,
    ) -> Result<Compacted, CompactionError> {
        match self.get(index) {
            // The boxed future is awaited directly: going through the generic
            // `run_checked` with `dyn DynStrategy` trips the compiler's check
            // that the future is `Send` for every lifetime.
            Some(step) => {
                let result = step.compact_boxed(history, budget, counter).await?;
                Ok(check_step(step.name_boxed(), history, result, budget, counter, min_gain))
            }
            None => Ok(Compacted::skipped("none", history, budget, counter, "no such step")),
        }
    }
}

/// Strategies in order, stopping as soon as the history fits.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_compaction::{ClearToolOutputs, CompactionStrategy, Pipeline, TruncateStrategy};
/// use tidemark_core::{Message, TokenCounter};
///
/// struct Bytes;
/// impl TokenCounter for Bytes {
///     fn name(&self) -> &str { "bytes" }
///     fn count_text(&self, text: &str) -> u32 { text.len() as u32 }
///     fn count(&self, message: &Message) -> u32 { self.count_text(&message.text()) }
/// }
///
/// let pipeline = Pipeline::new((ClearToolOutputs::new(), TruncateStrategy::new()));
/// let history: Vec<Message> = (0..20).map(|i| Message::user(format!("message number {i}"))).collect();
/// let done = futures::executor::block_on(pipeline.compact(&history, NonZeroU32::new(100).unwrap(), &Bytes))?;
/// assert!(done.report.fits);
/// assert_eq!(done.report.strategy, "clear-tool-outputs+truncate");
/// assert_eq!(done.report.steps.len(), 2);
/// # Ok::<(), tidemark_core::CompactionError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Pipeline<T> {
    steps: T,
    name: String,
    min_gain: u32,
    max_steps: usize,
}

/// A pipeline of strategies chosen at run time.
pub type DynPipeline = Pipeline<Vec<Box<dyn DynStrategy>>>;

impl<T: Steps> Pipeline<T> {
    /// A pipeline running `steps` in order, each at most once.
    pub fn new(steps: T) -> Self {
        let name = (0..steps.len()).map(|index| steps.step_name(index)).collect::<Vec<_>>().join("+");
        let max_steps = steps.len();
        Self { steps, name, min_gain: DEFAULT_MIN_GAIN, max_steps }
    }

    /// The same pipeline discarding steps that free fewer than `tokens` tokens.
    #[must_use]
    pub fn with_min_gain(mut self, tokens: u32) -> Self {
        self.min_gain = tokens;
        self
    }

    /// The same pipeline running at most `steps` steps per call.
    #[must_use]
    pub fn with_max_steps(mut self, steps: usize) -> Self {
        self.max_steps = steps;
        self
    }

    /// The steps.
    pub fn steps(&self) -> &T {
        &self.steps
    }
}

impl DynPipeline {
    /// A pipeline of boxed strategies.
    pub fn boxed(steps: Vec<Box<dyn DynStrategy>>) -> Self {
        Self::new(steps)
    }
}

impl<T: Steps> CompactionStrategy for Pipeline<T> {
    fn name(&self) -> &str {
        &self.name
    }

    async fn compact(
        &self,
        history: &[Message],
        budget: NonZeroU32,
        counter: &dyn TokenCounter,
    ) -> Result<Compacted, CompactionError> {
        if counter.count_prompt(history) <= budget.get() {
            return Ok(Compacted::skipped(&self.name, history, budget, counter, "already fits"));
        }
        let mut current = history.to_vec();
        let mut reports = Vec::new();
        let mut calls = 0;
        for index in 0..self.steps.len().min(self.max_steps) {
            match self.steps.run_step(index, &current, budget, counter, self.min_gain).await {
                Ok(step) => {
                    calls += step.report.model_calls;
                    let changed = matches!(step.report.outcome, Outcome::Applied | Outcome::Degraded);
                    let fits = step.report.fits;
                    reports.push(step.report);
                    if changed {
                        current = step.history;
                    }
                    if fits {
                        break;
                    }
                }
                Err(error) => {
                    let name = self.steps.step_name(index);
                    tracing::warn!(step = name, error = %chain_text(&error), "compaction step failed; trying the next one");
                    let failed = Report::new(name, Outcome::Failed, &current, &current, budget, counter)
                        .with_note(chain_text(&error));
                    reports.push(failed);
                }
            }
        }
        let changed =
            reports.iter().any(|report| matches!(report.outcome, Outcome::Applied | Outcome::Degraded));
        let degraded = reports.iter().any(|report| report.outcome == Outcome::Degraded);
        let outcome = match (changed, degraded) {
            (false, _) => Outcome::Skipped,
            (true, true) => Outcome::Degraded,
            (true, false) => Outcome::Applied,
        };
        let mut report =
            Report::new(&self.name, outcome, history, &current, budget, counter).with_model_calls(calls);
        if !report.fits {
            report.note = Some("the history still does not fit after every step".to_owned());
        }
        report.steps = reports;
        Ok(Compacted::new(current, report))
    }
}

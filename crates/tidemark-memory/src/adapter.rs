//! Memory adapters: a store and a policy wrapped into a [`ConversationMemory`](tidemark_core::ConversationMemory), with demotion hooks or a rolling summary.
//!
//! All three adapters share one load path. They read the conversation's
//! stored [`CompactionState`](tidemark_core::CompactionState), load only the
//! messages still in the window (those from the watermark on, plus retained
//! pinned and system messages), let the policy choose, and, when it demotes
//! something, move the watermark with a compare-and-swap on the state.
//! A load therefore costs what the window holds plus what it newly evicts,
//! never the whole conversation, and what was demoted or compacted stays so
//! across restarts and across adapters over the same store.
//!
//! - [`PolicyMemory`] only applies the policy.
//! - [`DemotingMemory`] first hands demoted messages to a
//!   [`DemotionHook`](tidemark_core::DemotionHook).
//! - [`CompactingMemory`] folds them into a rolling summary with a
//!   [`Compactor`](tidemark_core::Compactor) and loads `[system…, summary, ...window]`.
//!   [`BackgroundMemory`] is the same memory with the compactor run in a
//!   Tokio task, so that no load waits for a summarizer.
//!
//! Appended messages are counted once, with the policy's counter (or a
//! [`HeuristicCounter`] when the policy has none), and
//! the counts are stored beside them.
//!
//! **Calibration.** After each model call the agent reports what the provider
//! counted ([`observe_usage`](tidemark_core::ConversationMemory::observe_usage)).
//! The adapters count the prompt with their counter and keep the ratio of
//! the two counts in the conversation's
//! [`Calibration`] in the store; every load
//! reads it with the state and fits the window to the stored counts scaled
//! by its ratio (the summary, the overhead and the context allowances too),
//! so that a model whose tokenizer counts differently gets prompts that fit
//! the budget by its own count. Nothing is counted again, and with no
//! reports the ratio is one and every load is what it was without.

mod compacting;
mod context;
mod cut_summary;
mod demoting;
mod gate;
mod policy_memory;
mod timer;
mod window;
mod within;

pub use compacting::{BackgroundMemory, CompactingMemory, HANDOFF_HEADER, Reset, Undone};
pub use demoting::DemotingMemory;
pub use policy_memory::PolicyMemory;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use tidemark_core::{
    CalibratedCounter, Calibration, ContextSource, ConversationId, ConversationStore, MemoryError,
    MemoryPolicy, Message, Observed, SeqRange, TokenCounter, Usage,
};

use crate::counter::HeuristicCounter;
use window::prepare_append;

/// How many times a load re-reads the state after someone else changed it (a clear, another process) before giving up.
const MAX_ATTEMPTS: usize = 4;

/// What a load does when another load of the same conversation is already compacting it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitMode {
    /// Wait for it, then load the fresh summary (the default).
    #[default]
    Wait,
    /// Return at once with the previous summary and the policy's window.
    ReturnPrevious,
}

/// What a load does when the hook or the compactor fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureMode {
    /// Return the error to the caller (the default). Nothing is lost: the watermark stays and the next load tries again.
    #[default]
    Propagate,
    /// Return the previous summary and the policy's window instead, leave the watermark, and report the failure in an event and a log.
    Degrade,
}

/// Settings of [`CompactingMemory`] and [`DemotingMemory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// What concurrent loads do during a compaction.
    pub wait: WaitMode,
    /// What a failure does.
    pub failure: FailureMode,
    /// How long the observer's pre-compress step may take before compaction goes on without its hint.
    pub hint_timeout: Duration,
    /// How long a compaction's lease on the conversation lasts in a store shared by several processes
    /// (see `ConversationStore::try_lease` in tidemark-core); a crashed holder
    /// blocks the conversation for at most this long.
    pub lease_ttl: Duration,
    /// How often a load that waits for another process's compaction looks again.
    pub lease_poll: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            wait: WaitMode::Wait,
            failure: FailureMode::Propagate,
            hint_timeout: Duration::from_secs(2),
            lease_ttl: Duration::from_secs(60),
            lease_poll: Duration::from_millis(50),
        }
    }
}

/// What every adapter holds: the store, the policy, the counter to use when the policy has none, and the context sources.
#[derive(Debug, Clone)]
struct Parts<S, P> {
    inner: S,
    policy: P,
    fallback: HeuristicCounter,
    contexts: context::Contexts,
}

impl<S, P> Parts<S, P> {
    fn new(inner: S, policy: P) -> Self {
        Self { inner, policy, fallback: HeuristicCounter::default(), contexts: context::Contexts::default() }
    }

    fn add_context(&mut self, source: impl ContextSource + 'static, max_tokens: u32) {
        self.contexts.push(Arc::new(source), max_tokens);
    }
}

impl<S: ConversationStore, P: MemoryPolicy> Parts<S, P> {
    /// The counter appended messages and summaries are counted with.
    fn counter(&self) -> &dyn TokenCounter {
        self.policy.token_counter().unwrap_or(&self.fallback)
    }

    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        let prepared = prepare_append(messages, self.counter())?;
        Ok(self.inner.append(conversation, prepared).await?)
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        Ok(self.inner.clear(conversation).await?)
    }

    /// Add the ratio of `usage`'s prompt tokens to this memory's count of `prompt` to the conversation's calibration.
    async fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> Result<Calibration, MemoryError> {
        let local = self.counter().count_prompt(prompt);
        let mut calibration = self.inner.calibration(conversation).await?;
        match calibration.observe(local, usage.prompt_tokens) {
            Observed::Accepted(sample) => {
                self.inner.save_calibration(conversation, calibration.clone()).await?;
                tracing::debug!(
                    conversation = %conversation,
                    local,
                    reported = usage.prompt_tokens,
                    %sample,
                    ratio = %calibration.ratio(),
                    "calibrated the token counts from reported usage"
                );
            }
            refused => tracing::debug!(
                conversation = %conversation,
                local,
                reported = usage.prompt_tokens,
                ?refused,
                "reported usage not used for calibration"
            ),
        }
        Ok(calibration)
    }

    /// Read the window of `conversation` and let the policy choose from it (fitted `within` a lower budget, if given).
    async fn look(
        &self,
        conversation: &ConversationId,
        within: Option<NonZeroU32>,
    ) -> Result<window::Fit, MemoryError> {
        let view = window::View::read(&self.inner, conversation).await?;
        Ok(self.fit(view, within))
    }

    /// Let the policy choose from `view`, with room for the context sources (fitted `within` a lower budget, if given).
    fn fit(&self, view: window::View, within: Option<NonZeroU32>) -> window::Fit {
        view.fit(&self.policy, self.counter(), &self.contexts, within)
    }

    /// The prompt of `served`, with the blocks of the context sources it has room for.
    ///
    /// In a load `within` a lower budget the prompt is checked against it
    /// last, counted as the window was fitted (with the calibrated ratio): it
    /// fits, or the load fails with `OverBudget`.
    async fn finish(
        &self,
        conversation: &ConversationId,
        served: window::Served,
        within: Option<NonZeroU32>,
    ) -> Result<Vec<Message>, MemoryError> {
        let ratio = served.ratio;
        let prompt = self.contexts.compose(conversation, served, self.counter()).await;
        match within {
            Some(budget) => within::check(prompt, &CalibratedCounter::new(self.counter(), ratio), budget),
            None => Ok(prompt),
        }
    }
}

/// The accessors every adapter offers over its [`Parts`] field `parts`.
macro_rules! accessors {
    () => {
        /// The store.
        pub fn get_ref(&self) -> &S {
            &self.parts.inner
        }

        /// The store, mutably.
        pub fn get_mut(&mut self) -> &mut S {
            &mut self.parts.inner
        }

        /// The store, giving up the wrapper.
        pub fn into_inner(self) -> S {
            self.parts.inner
        }

        /// The policy.
        pub fn policy(&self) -> &P {
            &self.parts.policy
        }
    };
}
use accessors;

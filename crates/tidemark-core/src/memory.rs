//! The agent-facing contract: [`ConversationMemory`].

use std::future::Future;
use std::num::NonZeroU32;

use crate::calibration::Calibration;
use crate::counter::{HeuristicCounter, TokenCounter};
use crate::error::MemoryError;
use crate::id::{ConversationId, SeqRange};
use crate::message::Message;
use crate::model::Usage;
use crate::task::{Protected, carried};
use crate::unit::units;

/// What an agent talks to: append what happened, load what to send next.
///
/// # Contract
///
/// - `load` returns a prompt-ready history: it is valid (see [`validate`](crate::validate))
///   whenever everything appended was valid, it ends with the newest appended
///   message, and it keeps every pinned and system message. A memory that
///   compacts places its summary first, or right after the system messages
///   that lead the kept window (the agent's system prompt, so that it stays a
///   cached prefix across compactions): `[system…, summary, ...rest of the window]`.
/// - `append` adds messages at the end, all or none, and returns their sequence range.
/// - `load_within` returns a prompt as `load` does that also fits a given
///   budget, counted with the memory's counter, without splitting a tool
///   unit; or [`MemoryError::OverBudget`] when what must stay is larger.
/// - `observe_usage` tells the memory what the provider counted for a
///   prompt it loaded; a memory that calibrates fits later loads so that the
///   provider's count of the prompt fits the budget.
/// - `clear` forgets the conversation, summary and calibration included.
/// - Conversations are independent of each other.
///
/// # Example
///
/// An agent turn: record the user's words, load the prompt, call the model,
/// report what the provider counted, record the answer.
///
/// ```
/// use tidemark_core::{CompletionModel, CompletionRequest, ConversationId, ConversationMemory, Message};
///
/// async fn turn(
///     memory: &impl ConversationMemory,
///     model: &impl CompletionModel,
///     id: &ConversationId,
///     question: &str,
/// ) -> Result<String, Box<dyn std::error::Error>> {
///     memory.append(id, vec![Message::user(question)]).await?;
///     let prompt = memory.load(id).await?;
///     let answer = model.complete(CompletionRequest::new(prompt.clone())).await?;
///     memory.observe_usage(id, &prompt, answer.usage).await?;
///     memory.append(id, vec![Message::assistant(answer.text.clone())]).await?;
///     Ok(answer.text)
/// }
/// ```
pub trait ConversationMemory: Send + Sync {
    /// The history to send to the model now.
    fn load(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<Vec<Message>, MemoryError>> + Send;

    /// The history to send now, fitted within `budget` tokens for this one call: the recovery from a context overflow.
    ///
    /// An agent calls it when the provider rejects a prompt as too long
    /// ([`CompletionError::ContextOverflow`](crate::CompletionError::ContextOverflow)),
    /// with the budget [`CompletionError::retry_budget`](crate::CompletionError::retry_budget)
    /// gives, and retries once with the prompt it returns.
    ///
    /// The prompt keeps what `load` keeps (the newest message, pinned and
    /// system messages, whole tool units) and fits `budget`; when those alone
    /// do not, the error is [`MemoryError::OverBudget`]. The memory adapters
    /// of `tidemark-memory` fit their window (and the summary and context
    /// blocks in front of it) with their own counter, compacting what leaves
    /// as a normal load would; the budget applies to this call only.
    ///
    /// The default loads with [`load`](ConversationMemory::load) and trims the
    /// result with [`fit_prompt`] and a [`HeuristicCounter`]: the stored state
    /// is not changed. A memory that counts with another counter should
    /// override it.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use tidemark_core::{CompletionError, ConversationId, ConversationMemory, Message};
    ///
    /// async fn retry_prompt(
    ///     memory: &impl ConversationMemory,
    ///     id: &ConversationId,
    ///     error: &CompletionError,
    ///     budget: NonZeroU32,
    /// ) -> Result<Option<Vec<Message>>, Box<dyn std::error::Error>> {
    ///     match error.retry_budget(budget) {
    ///         Some(lower) => Ok(Some(memory.load_within(id, lower).await?)),
    ///         None => Ok(None),
    ///     }
    /// }
    /// ```
    fn load_within(
        &self,
        conversation: &ConversationId,
        budget: NonZeroU32,
    ) -> impl Future<Output = Result<Vec<Message>, MemoryError>> + Send {
        async move {
            let prompt = self.load(conversation).await?;
            fit_prompt(prompt, &HeuristicCounter::default(), budget)
        }
    }

    /// Tell the memory what the provider counted for `prompt`, a prompt it loaded for `conversation`, as the call's `usage` reported it.
    ///
    /// An agent calls it after every completion with the prompt exactly as
    /// it sent it and [`Completion::usage`](crate::Completion::usage).
    /// The memory adapters of `tidemark-memory` count `prompt` with their own
    /// counter, add the ratio of the two counts to the conversation's
    /// [`Calibration`] in the store (see [`crate::calibration`] for the
    /// bound and the samples it refuses), and scale the stored counts by the
    /// calibrated ratio when they fit later loads, so that a model whose
    /// tokenizer counts differently gets prompts that fit the budget by its
    /// own count. The calibration survives restarts, and `clear` forgets it.
    /// The answer is the calibration now in force.
    ///
    /// The default ignores the report and answers with the empty calibration:
    /// a memory that does not calibrate applies no correction.
    ///
    /// ```
    /// use tidemark_core::{Completion, ConversationId, ConversationMemory, MemoryError, Message};
    ///
    /// async fn after_the_call(
    ///     memory: &impl ConversationMemory,
    ///     id: &ConversationId,
    ///     prompt: &[Message],
    ///     answer: &Completion,
    /// ) -> Result<(), MemoryError> {
    ///     let calibration = memory.observe_usage(id, prompt, answer.usage).await?;
    ///     println!("the provider counts {}× what the memory counts", calibration.ratio());
    ///     Ok(())
    /// }
    /// ```
    fn observe_usage(
        &self,
        conversation: &ConversationId,
        prompt: &[Message],
        usage: Usage,
    ) -> impl Future<Output = Result<Calibration, MemoryError>> + Send {
        let _ = (conversation, prompt, usage);
        async { Ok(Calibration::default()) }
    }

    /// Add `messages` at the end of `conversation`, all or none.
    fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> impl Future<Output = Result<SeqRange, MemoryError>> + Send;

    /// Forget `conversation` entirely.
    fn clear(&self, conversation: &ConversationId) -> impl Future<Output = Result<(), MemoryError>> + Send;
}

crate::forward! {
    impl ConversationMemory {
        fn load(&self, conversation: &ConversationId) -> impl Future<Output = Result<Vec<Message>, MemoryError>> + Send {
            (**self).load(conversation)
        }

        fn append(
            &self,
            conversation: &ConversationId,
            messages: Vec<Message>,
        ) -> impl Future<Output = Result<SeqRange, MemoryError>> + Send {
            (**self).append(conversation, messages)
        }

        fn load_within(
            &self,
            conversation: &ConversationId,
            budget: NonZeroU32,
        ) -> impl Future<Output = Result<Vec<Message>, MemoryError>> + Send {
            (**self).load_within(conversation, budget)
        }

        fn observe_usage(
            &self,
            conversation: &ConversationId,
            prompt: &[Message],
            usage: Usage,
        ) -> impl Future<Output = Result<Calibration, MemoryError>> + Send {
            (**self).observe_usage(conversation, prompt, usage)
        }

        fn clear(&self, conversation: &ConversationId) -> impl Future<Output = Result<(), MemoryError>> + Send {
            (**self).clear(conversation)
        }
    }
}

/// `prompt` with its oldest tool units left out until it fits `budget` tokens counted with `counter`.
///
/// System and pinned units and the newest unit always stay, so a tool unit
/// is never split and the prompt still ends with its newest message. The
/// unit of the newest human instruction ([`crate::task`]) stays too when it
/// fits beside them; when it does not, a cut copy of its text takes its place
/// if the room left holds one. When
/// those alone are over the budget the error is [`MemoryError::OverBudget`]
/// with the smallest count reached.
///
/// ```
/// use std::num::NonZeroU32;
/// use tidemark_core::memory::fit_prompt;
/// use tidemark_core::{HeuristicCounter, Message, MemoryError, TokenCounter};
///
/// let counter = HeuristicCounter::default();
/// let prompt: Vec<Message> = (0..20).map(|i| Message::user(format!("message number {i}"))).collect();
/// let budget = NonZeroU32::new(40).unwrap();
/// let fitted = fit_prompt(prompt.clone(), &counter, budget)?;
/// assert!(counter.count_prompt(&fitted) <= 40);
/// assert_eq!(fitted.last(), prompt.last());
/// assert!(matches!(fit_prompt(prompt, &counter, NonZeroU32::MIN), Err(MemoryError::OverBudget { .. })));
/// # Ok::<(), MemoryError>(())
/// ```
///
/// # Errors
///
/// [`MemoryError::OverBudget`] when the messages that must stay do not fit.
pub fn fit_prompt(
    prompt: Vec<Message>,
    counter: &dyn TokenCounter,
    budget: NonZeroU32,
) -> Result<Vec<Message>, MemoryError> {
    let tokens: Vec<u64> = prompt.iter().map(|message| u64::from(counter.count(message))).collect();
    let mut total = u64::from(counter.prompt_overhead()) + tokens.iter().sum::<u64>();
    let budget_tokens = u64::from(budget.get());
    let all: Vec<_> = units(&prompt).collect();
    let room = budget_tokens.saturating_sub(u64::from(counter.prompt_overhead()));
    let protected = Protected::new(&prompt, &all, &tokens, room);
    // An instruction that cannot stay verbatim goes first and is carried cut: room is kept for the copy.
    let carry = match crate::task::instruction(&prompt) {
        Some(index) if !protected.instruction_kept => {
            crate::task::carry_room(tokens[index], budget_tokens, counter)
        }
        _ => 0,
    };
    let mut leave = vec![false; prompt.len()];
    for (unit, stays) in all.iter().zip(&protected.stays) {
        if total + carry <= budget_tokens {
            break;
        }
        if !stays {
            total -= tokens[unit.range()].iter().sum::<u64>();
            leave[unit.range()].fill(true);
        }
    }
    if total > budget_tokens {
        let tokens = u32::try_from(total).unwrap_or(u32::MAX);
        return Err(MemoryError::OverBudget { budget: budget.get(), tokens });
    }
    // An instruction that had to go is carried in a cut copy, in its place, when there is room for one.
    let dropped =
        crate::task::instruction(&prompt).filter(|index| leave.get(*index).copied().unwrap_or(false));
    let room_left = u32::try_from(budget_tokens - total).unwrap_or(u32::MAX);
    let carried = dropped.and_then(|index| Some((index, carried(&prompt[index], room_left, counter)?)));
    let mut fitted = Vec::with_capacity(prompt.len());
    for (index, (message, left)) in prompt.into_iter().zip(leave).enumerate() {
        if let Some((at, copy)) = &carried
            && *at == index
        {
            fitted.push(copy.clone());
        }
        if !left {
            fitted.push(message);
        }
    }
    Ok(fitted)
}

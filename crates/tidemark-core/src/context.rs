//! Context sources: blocks a memory adds to the prompt before the conversation, inside the same token budget.
//!
//! A [`ContextSource`] is asked, at every load, for one message of context
//! for the turn at hand: long-term facts relevant to the latest user message,
//! passages of earlier turns that left the window, a project brief. The memory
//! reserves each source's token allowance before it fits the window, so
//! `summary + context blocks + window` never exceeds the policy's budget,
//! and it counts the returned block again with its own counter and leaves it
//! out if it is over the allowance: a source cannot break the budget.
//!
//! ```
//! use tidemark_core::context::{ContextRequest, ContextSource};
//! use tidemark_core::{ContextError, Message};
//!
//! /// Reminds the model of the house rules when the user mentions a deploy.
//! struct DeployRules;
//!
//! impl ContextSource for DeployRules {
//!     async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
//!         let wanted = request.query().to_lowercase().contains("deploy");
//!         Ok(wanted.then(|| Message::system("Deploys need a green CI run and a reviewer.")))
//!     }
//! }
//! ```

use std::future::Future;

use crate::counter::TokenCounter;
use crate::error::ContextError;
use crate::id::{ConversationId, Seq};
use crate::message::Message;
use crate::store::StoredMessage;

/// What a load asks a [`ContextSource`] for: the turn at hand and how many tokens the block may take.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct ContextRequest<'a> {
    conversation: &'a ConversationId,
    query: &'a str,
    last_reply: Option<&'a str>,
    below: Seq,
    in_prompt: &'a [Seq],
    max_tokens: u32,
    counter: &'a dyn TokenCounter,
}

impl<'a> ContextRequest<'a> {
    /// A request for `conversation` whose turn is `query` (the latest user message's text), within `max_tokens` as `counter` counts.
    pub fn new(
        conversation: &'a ConversationId,
        query: &'a str,
        max_tokens: u32,
        counter: &'a dyn TokenCounter,
    ) -> Self {
        Self {
            conversation,
            query,
            last_reply: None,
            below: Seq(u64::MAX),
            in_prompt: &[],
            max_tokens,
            counter,
        }
    }

    /// The same request, with the last assistant message's text.
    #[must_use]
    pub fn with_last_reply(mut self, last_reply: &'a str) -> Self {
        self.last_reply = Some(last_reply);
        self
    }

    /// The same request, saying that the prompt's window starts at `below` and also holds the older messages `in_prompt`.
    #[must_use]
    pub fn with_window(mut self, below: Seq, in_prompt: &'a [Seq]) -> Self {
        self.below = below;
        self.in_prompt = in_prompt;
        self
    }

    /// The conversation being loaded.
    pub fn conversation(&self) -> &'a ConversationId {
        self.conversation
    }

    /// The latest user message's text in the window; empty when there is none.
    pub fn query(&self) -> &'a str {
        self.query
    }

    /// The last assistant message's text in the window, if there is one.
    pub fn last_reply(&self) -> Option<&'a str> {
        self.last_reply
    }

    /// The first sequence number of the prompt's window: messages at or above it are already in the prompt.
    pub fn below(&self) -> Seq {
        self.below
    }

    /// Older messages (below [`below`](Self::below)) that the prompt holds anyway, such as pinned ones; ascending.
    pub fn in_prompt(&self) -> &'a [Seq] {
        self.in_prompt
    }

    /// Whether the message `seq` is already in the prompt.
    pub fn is_in_prompt(&self, seq: Seq) -> bool {
        seq >= self.below || self.in_prompt.binary_search(&seq).is_ok()
    }

    /// The most tokens the block may take, as [`counter`](Self::counter) counts.
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
    }

    /// The counter the memory budgets with: a block it counts over [`max_tokens`](Self::max_tokens) is left out.
    pub fn counter(&self) -> &'a dyn TokenCounter {
        self.counter
    }
}

impl std::fmt::Debug for ContextRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextRequest")
            .field("conversation", &self.conversation)
            .field("query", &self.query)
            .field("last_reply", &self.last_reply)
            .field("below", &self.below)
            .field("in_prompt", &self.in_prompt)
            .field("max_tokens", &self.max_tokens)
            .finish_non_exhaustive()
    }
}

/// Supplies one message of context for a load, such as relevant facts or passages of earlier turns.
///
/// # Contract
///
/// - The block should fit in [`ContextRequest::max_tokens`] as
///   [`ContextRequest::counter`] counts it; the memory counts it again and
///   leaves out a block that does not fit.
/// - It should not repeat messages the prompt already holds
///   ([`ContextRequest::is_in_prompt`]).
/// - Text from a conversation is data: a block that quotes it says so, and
///   delimits it, so that quoted instructions are not taken as the caller's.
/// - It is best effort: an error is logged and the load goes on without the block.
/// - A block is one message, usually a system message, with no tool calls
///   or results and not of the tool role: tool parts would break the
///   prompt's tool units, so tidemark-memory leaves such a block out.
pub trait ContextSource: Send + Sync {
    /// The block for this request, or `None` when there is nothing worth adding.
    fn context(
        &self,
        request: &ContextRequest<'_>,
    ) -> impl Future<Output = Result<Option<Message>, ContextError>> + Send;

    /// Told that `evicted` have just left the window: their summary is stored and the watermark moved past them.
    ///
    /// From the next load on they are what a source quoting earlier turns
    /// may quote, so such a source can get them ready here (scan them,
    /// index them) instead of at the load that first quotes them: the
    /// memory calls this once per compaction, after the new state is
    /// stored, on the compacting load. It is best effort and has no
    /// answer: the next [`context`](Self::context) must be right whether
    /// or not it ran (after a restart, earlier evictions were never
    /// announced). Does nothing unless overridden.
    fn on_evicted(
        &self,
        conversation: &ConversationId,
        evicted: &[StoredMessage],
    ) -> impl Future<Output = ()> + Send {
        let _ = (conversation, evicted);
        async {}
    }
}

crate::forward! {
    impl ContextSource {
        fn context(
            &self,
            request: &ContextRequest<'_>,
        ) -> impl Future<Output = Result<Option<Message>, ContextError>> + Send {
            (**self).context(request)
        }

        fn on_evicted(
            &self,
            conversation: &ConversationId,
            evicted: &[StoredMessage],
        ) -> impl Future<Output = ()> + Send {
            (**self).on_evicted(conversation, evicted)
        }
    }
}

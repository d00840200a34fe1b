//! The agent-facing contract: [`ConversationMemory`].

use std::future::Future;

use crate::error::MemoryError;
use crate::id::{ConversationId, SeqRange};
use crate::message::Message;

/// What an agent talks to: append what happened, load what to send next.
///
/// # Contract
///
/// - `load` returns a prompt-ready history: it is valid (see [`validate`](crate::validate))
///   whenever everything appended was valid, it ends with the newest appended
///   message, and it keeps every pinned and system message. A memory that
///   compacts places its summary first: `[summary, ...kept window]`.
/// - `append` adds messages at the end, all or none, and returns their sequence range.
/// - `clear` forgets the conversation, summary included.
/// - Conversations are independent of each other.
///
/// # Example
///
/// An agent turn: record the user's words, load the prompt, record the answer.
///
/// ```
/// use tidemark_core::{ConversationId, ConversationMemory, MemoryError, Message};
///
/// async fn turn(memory: &impl ConversationMemory, id: &ConversationId, question: &str) -> Result<Vec<Message>, MemoryError> {
///     memory.append(id, vec![Message::user(question)]).await?;
///     let prompt = memory.load(id).await?;
///     // … call the model with `prompt`, then append its answer …
///     memory.append(id, vec![Message::assistant("Done.")]).await?;
///     Ok(prompt)
/// }
/// ```
pub trait ConversationMemory: Send + Sync {
    /// The history to send to the model now.
    fn load(
        &self,
        conversation: &ConversationId,
    ) -> impl Future<Output = Result<Vec<Message>, MemoryError>> + Send;

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

        fn clear(&self, conversation: &ConversationId) -> impl Future<Output = Result<(), MemoryError>> + Send {
            (**self).clear(conversation)
        }
    }
}

//! The summarizing contract: [`Compactor`] folds evicted messages into a rolling artifact.

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::CompactionError;
use crate::id::ConversationId;
use crate::message::Message;

/// Turns the messages a policy evicted into a summary artifact that rolls forward.
///
/// # Contract
///
/// - `compact` receives the newly evicted messages in order, the artifact of
///   the previous roll (`carry_over`, `None` on the first) and an optional hint
///   from a [`CompactionObserver`](crate::CompactionObserver). It returns the new
///   artifact, which must account for both the carry-over and the evicted messages.
/// - A failure is an error, never an artifact: an error text, an empty model
///   answer or a refusal must not become a summary.
/// - `render` turns an artifact into the message placed in front of the kept
///   window. It holds text only (no tool calls or results), so the loaded history
///   stays valid.
/// - Artifacts are stored as JSON between rolls (and across restarts), so the
///   type must round-trip through serde.
///
/// # Example
///
/// A compactor that only counts what it has seen:
///
/// ```
/// use tidemark_core::{CompactionError, Compactor, ConversationId, Message};
///
/// struct Counting;
///
/// impl Compactor for Counting {
///     type Artifact = u64;
///
///     fn name(&self) -> &str {
///         "counting"
///     }
///
///     async fn compact(&self, _: &ConversationId, evicted: &[Message], carry_over: Option<&u64>, _hint: Option<&str>) -> Result<u64, CompactionError> {
///         Ok(carry_over.copied().unwrap_or(0) + evicted.len() as u64)
///     }
///
///     fn render(&self, artifact: &u64) -> Message {
///         Message::system(format!("{artifact} earlier messages were left out."))
///     }
/// }
/// ```
pub trait Compactor: Send + Sync {
    /// The rolling summary's type, stored as JSON between rolls.
    type Artifact: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// A short stable name for events and stored state, such as `"template"`.
    fn name(&self) -> &str;

    /// Fold `evicted` (and the previous artifact, if any) into a new artifact.
    fn compact(
        &self,
        conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&Self::Artifact>,
        hint: Option<&str>,
    ) -> impl Future<Output = Result<Self::Artifact, CompactionError>> + Send;

    /// The message that stands for `artifact` in the loaded history.
    fn render(&self, artifact: &Self::Artifact) -> Message;
}

crate::forward! {
    impl Compactor {
        type Artifact = T::Artifact;

        fn name(&self) -> &str {
            (**self).name()
        }

        fn compact(
            &self,
            conversation: &ConversationId,
            evicted: &[Message],
            carry_over: Option<&Self::Artifact>,
            hint: Option<&str>,
        ) -> impl Future<Output = Result<Self::Artifact, CompactionError>> + Send {
            (**self).compact(conversation, evicted, carry_over, hint)
        }

        fn render(&self, artifact: &Self::Artifact) -> Message {
            (**self).render(artifact)
        }
    }
}

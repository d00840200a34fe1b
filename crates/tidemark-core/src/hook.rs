//! The side channel for messages that leave the window: [`DemotionHook`].

use std::future::Future;

use crate::error::HookError;
use crate::id::{ConversationId, SeqRange};
use crate::store::StoredMessage;

/// Receives the messages a memory adapter moves out of the prompt window, so that they can be kept elsewhere.
///
/// Without a hook, a window policy simply stops sending old turns; with one,
/// they are handed over first (to an archive, a search index or a fact
/// extractor), turning truncation into demotion.
///
/// # Contract
///
/// - `messages` arrive in conversation order with their sequence numbers.
///   `range` is the stretch of sequence numbers the window moved past; it
///   contains every delivered message, and messages in it that are missing from
///   `messages` stayed in the window (pinned or system messages).
/// - Delivery is *at least once*. An adapter records that a range was delivered
///   only after the hook returned `Ok`, so a crash or an error in between means
///   the same messages come again. The pair (conversation, sequence number) is
///   unique for good, so implementations deduplicate on it.
/// - An error stops the adapter from moving its watermark: nothing is lost, and
///   the messages are offered again on a later load.
/// - The future is awaited inline on the agent's load, so slow work belongs in
///   a queue or a background task.
///
/// # Example
///
/// ```
/// use std::sync::Mutex;
/// use tidemark_core::{ConversationId, DemotionHook, HookError, Seq, SeqRange, StoredMessage};
///
/// /// Keeps demoted text in a list, once per (conversation, sequence number).
/// #[derive(Default)]
/// struct Archive(Mutex<Vec<(ConversationId, Seq, String)>>);
///
/// impl DemotionHook for Archive {
///     async fn on_demote(&self, conversation: &ConversationId, _range: SeqRange, messages: &[StoredMessage]) -> Result<(), HookError> {
///         let mut archive = self.0.lock().map_err(|_| HookError::new("archive lock poisoned"))?;
///         for stored in messages {
///             let key = (conversation.clone(), stored.seq);
///             if !archive.iter().any(|(c, s, _)| (c, *s) == (&key.0, key.1)) {
///                 archive.push((key.0, key.1, stored.message.text().into_owned()));
///             }
///         }
///         Ok(())
///     }
/// }
/// ```
pub trait DemotionHook: Send + Sync {
    /// Take over `messages`, demoted from `conversation` as the window moved past `range`.
    fn on_demote(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        messages: &[StoredMessage],
    ) -> impl Future<Output = Result<(), HookError>> + Send;
}

/// The hook that keeps nothing, for adapters used without one.
impl DemotionHook for () {
    async fn on_demote(&self, _: &ConversationId, _: SeqRange, _: &[StoredMessage]) -> Result<(), HookError> {
        Ok(())
    }
}

crate::forward! {
    impl DemotionHook {
        fn on_demote(
            &self,
            conversation: &ConversationId,
            range: SeqRange,
            messages: &[StoredMessage],
        ) -> impl Future<Output = Result<(), HookError>> + Send {
            (**self).on_demote(conversation, range, messages)
        }
    }
}

//! The compaction side channel: [`CompactionObserver`] hears about compactions before and after.

use std::future::Future;

use crate::error::ObserverError;
use crate::event::CompactionEvent;
use crate::id::{ConversationId, SeqRange};
use crate::message::Message;

/// Hears about compactions: it may extract what is worth keeping before evicted messages are summarized, and it learns what happened.
///
/// Every method has a do-nothing default, so an implementation writes only what it needs.
///
/// # Contract
///
/// - `on_pre_compress` receives exactly the messages about to be compacted,
///   and the span of sequence numbers they come from (pinned messages inside
///   it stay in the prompt and are not passed), before the compactor runs, and may return a short hint for the summarizer
///   (for example, the facts it just saved). It is best effort: the caller bounds
///   it with a time limit, and a failure or a timeout is logged and reported in
///   the compaction event but never blocks or aborts the compaction.
/// - `on_session_switch` is told when an agent moves to a new conversation id
///   (`parent` is where it came from); `reset` says whether per-session state
///   should start over.
/// - `on_event` receives every [`CompactionEvent`]; it is synchronous and must be quick.
///
/// # Example
///
/// ```
/// use tidemark_core::{CompactionEvent, CompactionObserver, ConversationId, Message, ObserverError, SeqRange};
///
/// /// Suggests keeping every line that mentions a path.
/// struct PathKeeper;
///
/// impl CompactionObserver for PathKeeper {
///     async fn on_pre_compress(&self, _: &ConversationId, _: SeqRange, evicted: &[Message]) -> Result<Option<String>, ObserverError> {
///         let paths: Vec<String> = evicted
///             .iter()
///             .flat_map(|m| m.text().split_whitespace().filter(|w| w.contains('/')).map(str::to_owned).collect::<Vec<_>>())
///             .collect();
///         Ok((!paths.is_empty()).then(|| format!("keep these paths verbatim: {}", paths.join(", "))))
///     }
///
///     fn on_event(&self, event: &CompactionEvent) {
///         eprintln!("{} compacted with outcome {}", event.conversation, event.outcome);
///     }
/// }
/// ```
pub trait CompactionObserver: Send + Sync {
    /// Look at the messages about to be compacted; optionally return a hint for the summarizer.
    fn on_pre_compress(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> impl Future<Output = Result<Option<String>, ObserverError>> + Send {
        let _ = (conversation, range, evicted);
        async { Ok(None) }
    }

    /// Learn that the agent moved from `parent` to `new`; `reset` asks to start per-session state over.
    fn on_session_switch(
        &self,
        new: &ConversationId,
        parent: Option<&ConversationId>,
        reset: bool,
    ) -> impl Future<Output = Result<(), ObserverError>> + Send {
        let _ = (new, parent, reset);
        async { Ok(()) }
    }

    /// Learn what a compaction did.
    fn on_event(&self, event: &CompactionEvent) {
        let _ = event;
    }
}

/// The observer that does nothing.
impl CompactionObserver for () {}

crate::forward! {
    impl CompactionObserver {
        fn on_pre_compress(
            &self,
            conversation: &ConversationId,
            range: SeqRange,
            evicted: &[Message],
        ) -> impl Future<Output = Result<Option<String>, ObserverError>> + Send {
            (**self).on_pre_compress(conversation, range, evicted)
        }

        fn on_session_switch(
            &self,
            new: &ConversationId,
            parent: Option<&ConversationId>,
            reset: bool,
        ) -> impl Future<Output = Result<(), ObserverError>> + Send {
            (**self).on_session_switch(new, parent, reset)
        }

        fn on_event(&self, event: &CompactionEvent) {
            (**self).on_event(event);
        }
    }
}

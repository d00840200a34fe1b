//! [`Failure`]: what rig's [`MemoryError::Backend`](rig_core::memory::MemoryError::Backend) carries for a tidemark failure.

use std::error::Error;

/// A tidemark failure handed to rig: its message spells the whole chain of causes, and its source is tidemark's own error.
///
/// rig's agent reports a memory failure by its message alone, so the message
/// carries every cause ("conversation store failed: disk full"); code that
/// wants the typed error takes [`inner`](Self::inner) or the
/// [`source`](Error::source) and downcasts it to [`tidemark_core::MemoryError`],
/// [`ConvertError`](crate::ConvertError) or
/// [`ConversationIdError`](tidemark_core::ConversationIdError).
#[derive(Debug, thiserror::Error)]
#[error("{chain}")]
pub struct Failure {
    chain: String,
    #[source]
    source: Box<dyn Error + Send + Sync + 'static>,
}

impl Failure {
    /// The failure of `error`, its message spelling its causes.
    pub fn new(error: impl Error + Send + Sync + 'static) -> Self {
        let mut chain = error.to_string();
        let mut cause = error.source();
        while let Some(next) = cause {
            chain.push_str(": ");
            chain.push_str(&next.to_string());
            cause = next.source();
        }
        Self { chain, source: Box::new(error) }
    }

    /// tidemark's error.
    pub fn inner(&self) -> &(dyn Error + Send + Sync + 'static) {
        self.source.as_ref()
    }
}

/// rig's backend error for a tidemark failure.
pub(crate) fn backend(error: impl Error + Send + Sync + 'static) -> rig_core::memory::MemoryError {
    rig_core::memory::MemoryError::backend(Failure::new(error))
}

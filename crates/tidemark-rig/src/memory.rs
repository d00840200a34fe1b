//! [`RigMemory`]: any tidemark memory as a rig [`ConversationMemory`](rig_core::memory::ConversationMemory).

use std::num::NonZeroU32;

use rig_core::completion::Message as RigMessage;
use rig_core::id::ConversationId as RigConversationId;
use rig_core::memory::{ConversationMemory as RigConversationMemory, MemoryError as RigMemoryError};
use rig_core::wasm_compat::WasmBoxedFuture;
use tidemark_core::{ConversationId, ConversationMemory};

use crate::{to_rig, to_tidemark};

/// A tidemark [`ConversationMemory`] that a rig agent uses as its memory.
///
/// rig's agent loads the conversation before each prompt and appends the
/// turn (the prompt, the tool calls and results, the answer) after it
/// succeeds. Through this adapter the load is tidemark's: the window, the
/// summary of what left it, facts and recall, within the memory's budget, with
/// every compaction stored so that a restart on the same store compacts
/// nothing twice. Messages are converted by [`to_tidemark`] and [`to_rig`].
///
/// Every failure reaches rig as [`MemoryError::Backend`](RigMemoryError::Backend)
/// holding a [`Failure`](crate::Failure): its message spells the causes, its
/// source is tidemark's error ([`tidemark_core::MemoryError`],
/// [`ConvertError`](crate::ConvertError) or
/// [`ConversationIdError`](tidemark_core::error::ConversationIdError)). A
/// failed load stops the model call and a failed append is reported with the
/// answer, as rig's agent does for any memory.
///
/// ```
/// use rig_core::memory::ConversationMemory as _;
/// use tidemark_memory::{InMemoryStore, PolicyMemory, SlidingWindow};
/// use tidemark_rig::RigMemory;
///
/// # tokio::runtime::Runtime::new()?.block_on(async {
/// let memory = RigMemory::new(PolicyMemory::new(InMemoryStore::new(), SlidingWindow::last_messages(4)));
/// let thread = "thread-1".into();
/// memory.append(&thread, vec![rig_core::completion::Message::user("Call me Ada.")]).await?;
/// assert_eq!(memory.load(&thread).await?.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RigMemory<M> {
    inner: M,
    budget: Option<NonZeroU32>,
}

impl<M: ConversationMemory> RigMemory<M> {
    /// rig's view of `inner`; each load is `inner`'s [`load`](ConversationMemory::load).
    pub fn new(inner: M) -> Self {
        Self { inner, budget: None }
    }

    /// The same adapter loading through [`load_within`](ConversationMemory::load_within) at `budget`: for a model with a smaller window than the memory was made for.
    #[must_use]
    pub fn within(mut self, budget: NonZeroU32) -> Self {
        self.budget = Some(budget);
        self
    }

    /// The tidemark memory.
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// The tidemark memory, taken back.
    pub fn into_inner(self) -> M {
        self.inner
    }
}

/// tidemark's id for rig's: the same text, or the reason it is not a valid id.
///
/// # Errors
///
/// rig's [`MemoryError::Backend`](RigMemoryError::Backend) holding a [`Failure`](crate::Failure) whose source is the [`ConversationIdError`](tidemark_core::error::ConversationIdError).
pub fn conversation(id: &RigConversationId) -> Result<ConversationId, RigMemoryError> {
    ConversationId::new(id.as_str()).map_err(crate::error::backend)
}

impl<M: ConversationMemory + 'static> RigConversationMemory for RigMemory<M> {
    fn load<'a>(
        &'a self,
        id: &'a RigConversationId,
    ) -> WasmBoxedFuture<'a, Result<Vec<RigMessage>, RigMemoryError>> {
        Box::pin(async move {
            let id = conversation(id)?;
            let prompt = match self.budget {
                Some(budget) => self.inner.load_within(&id, budget).await,
                None => self.inner.load(&id).await,
            };
            to_rig(&prompt.map_err(crate::error::backend)?).map_err(crate::error::backend)
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a RigConversationId,
        messages: Vec<RigMessage>,
    ) -> WasmBoxedFuture<'a, Result<(), RigMemoryError>> {
        Box::pin(async move {
            let id = conversation(id)?;
            let messages = to_tidemark(&messages).map_err(crate::error::backend)?;
            self.inner.append(&id, messages).await.map_err(crate::error::backend)?;
            Ok(())
        })
    }

    fn clear<'a>(&'a self, id: &'a RigConversationId) -> WasmBoxedFuture<'a, Result<(), RigMemoryError>> {
        Box::pin(async move {
            let id = conversation(id)?;
            self.inner.clear(&id).await.map_err(crate::error::backend)
        })
    }
}

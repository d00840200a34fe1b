//! [`RigCompactor`]: a tidemark compactor in rig-memory's `CompactingMemory`.

use rig_core::completion::Message as RigMessage;
use rig_core::id::ConversationId as RigConversationId;
use rig_core::memory::{Compactor as RigCompactorTrait, MemoryError as RigMemoryError};
use rig_core::wasm_compat::WasmBoxedFuture;
use tidemark_core::Compactor;

use crate::{ConvertError, conversation, to_rig, to_tidemark};

/// A tidemark [`Compactor`] that rig's compacting adapters can call.
///
/// The evicted messages are converted by [`to_tidemark`], the compactor folds
/// them into its artifact (with the previous one as carry-over), and the
/// artifact's rendered message is converted by [`to_rig`]. rig keeps the
/// artifact for the next compaction's carry-over, so the [`Summary`] holds
/// both. The compactor's failure reaches rig as
/// [`MemoryError::Backend`](RigMemoryError::Backend) whose source is
/// tidemark's [`CompactionError`](tidemark_core::CompactionError).
#[derive(Clone, Debug)]
pub struct RigCompactor<C>(pub C);

/// A tidemark compactor's artifact and the rig message that stands for it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Summary<A> {
    /// The compactor's artifact, the carry-over of the next compaction.
    pub artifact: A,
    /// The artifact rendered, as rig's history holds it.
    pub message: RigMessage,
}

impl<A> From<Summary<A>> for RigMessage {
    fn from(summary: Summary<A>) -> Self {
        summary.message
    }
}

impl<C: Compactor> RigCompactorTrait for RigCompactor<C> {
    type Artifact = Summary<C::Artifact>;

    fn compact<'a>(
        &'a self,
        id: &'a RigConversationId,
        evicted: &'a [RigMessage],
        carry_over: Option<&'a Self::Artifact>,
    ) -> WasmBoxedFuture<'a, Result<Self::Artifact, RigMemoryError>> {
        Box::pin(async move {
            let conversation = conversation(id)?;
            let evicted = to_tidemark(evicted).map_err(crate::error::backend)?;
            let artifact = self
                .0
                .compact(&conversation, &evicted, carry_over.map(|summary| &summary.artifact), None)
                .await
                .map_err(crate::error::backend)?;
            let rendered = self.0.render(&artifact);
            let message = to_rig(std::slice::from_ref(&rendered))
                .map_err(crate::error::backend)?
                .pop()
                .ok_or_else(|| {
                    crate::error::backend(ConvertError::ToRig {
                        index: 0,
                        part: "the rendered summary".into(),
                        reason: "gave no rig message",
                    })
                })?;
            Ok(Summary { artifact, message })
        })
    }
}

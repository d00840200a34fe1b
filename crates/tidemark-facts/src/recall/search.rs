//! [`Recall::search`]: the recall block's search, for a model that searches its history itself.

use tidemark_core::{ContextError, ContextRequest, ConversationId, ConversationStore, Seq, TokenCounter};

use super::{Found, Recall};

/// A passage [`Recall::search`] found and screened: quoted as recall's block would quote it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Recalled {
    /// The conversation it comes from when that is another of the user's; `None` for the one searched.
    pub conversation: Option<ConversationId>,
    /// The sequence number (turn) of its message.
    pub seq: Seq,
    /// Who spoke that message.
    pub role: tidemark_core::Role,
    /// The passage's text, with secrets redacted.
    pub text: String,
}

impl<S: ConversationStore> Recall<S> {
    /// The passages of `conversation` below `below` (and, with a user, of the user's other conversations) that best match `query`, best first, screened as the block is.
    ///
    /// What a model's own search of its history gets: the same candidates,
    /// the same security scan, redaction and delimiter rule, the same rule
    /// that an older passage a newer one changes is left out, and at most
    /// `limit` passages (each conversation asked for at least that many
    /// candidates, whatever [`with_limit`](Self::with_limit) says) whose
    /// lines fit `max_tokens` as `counter` counts them. Messages listed in
    /// `in_prompt` (retained below the window) are left out, as in a load.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn search(
        &self,
        conversation: &ConversationId,
        query: &str,
        window: (Seq, &[Seq]),
        limit: usize,
        max_tokens: u32,
        counter: &dyn TokenCounter,
    ) -> Result<Vec<Recalled>, ContextError> {
        let (below, in_prompt) = window;
        let request =
            ContextRequest::new(conversation, query, max_tokens, counter).with_window(below, in_prompt);
        let mut found = self.candidates_up_to(&request, limit.max(self.limit)).await?;
        if !found.is_empty() {
            let updates = self.windows.updates(&self.store, conversation, below).await;
            let updates = updates.map_err(ContextError::new)?;
            found.retain(|f| updates.iter().all(|update| !update.replaces(&self.topic(conversation, f))));
        }
        found.truncate(limit.saturating_mul(4).max(limit));
        let (mut quoted, _withheld) = self.pick(conversation, found, max_tokens, counter, &[]).await?;
        quoted.truncate(limit);
        Ok(quoted
            .into_iter()
            .map(|Found { from, passage }| Recalled {
                conversation: from,
                seq: passage.seq,
                role: passage.role,
                text: passage.text,
            })
            .collect())
    }
}

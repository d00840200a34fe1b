//! What the coordinator does with a turn that changes a value: supersede what it replaces, and count what each candidate came to.

use tidemark_core::{ConversationId, FactError, FactFilter, FactStore, Message, Put, Scope, Tier};

use super::{FactCoordinator, RememberError, Remembered, SessionCounters};
use crate::recall::supersede::{Topic, statement};

impl<S: FactStore> FactCoordinator<S> {
    /// Supersede the active facts `conversation` is shown that a turn of `evicted` changes; returns how many.
    ///
    /// The rule is recall's (see `recall/supersede.rs`): a turn with a change
    /// marker ("instead", "goes up to", "moved to", ...) that shares three
    /// search terms with a fact and gives a value the fact did not replaces it.
    /// "From January my day rate goes up to £460" retires "my day rate is £425".
    /// A superseded fact is no longer injected; it stays listed as the
    /// history of the value (`StatusFilter::Superseded`), valid until now, and
    /// a later statement of the same value makes it current again.
    pub(super) async fn retire_replaced(
        &self,
        conversation: &ConversationId,
        changes: &[(usize, Topic)],
        evicted: usize,
        changed: &mut Vec<(usize, Scope, Tier)>,
    ) -> Result<u64, FactError> {
        if changes.is_empty() {
            return Ok(0);
        }
        let mut replaced = 0;
        for scope in self.scopes(conversation) {
            let facts = self.store.list(&FactFilter::scope(scope)).await?;
            for fact in &facts {
                let old = Topic::of_statement(statement(&fact.text));
                let Some((at, _)) = changes.iter().find(|(_, change)| change.replaces_clearly(&old)) else {
                    continue;
                };
                let reason = format!("replaced by a later turn (evicted message {} of {evicted})", at + 1);
                match self.store.supersede(fact.id, reason).await {
                    Ok(_) => {
                        replaced += 1;
                        changed.push((*at, fact.scope.clone(), fact.tier));
                    }
                    // Gone since it was listed: nothing left to retire.
                    Err(FactError::NotFound { .. }) => {}
                    Err(error) => return Err(error),
                }
            }
        }
        if replaced > 0 {
            self.bump();
        }
        Ok(replaced)
    }
}

/// The longest change sentence kept as a fact, in characters.
pub(super) const CHANGE_CHARS: usize = 300;

/// Who said `message`, as a fact's label names them.
pub(super) fn speaker(message: &Message) -> &'static str {
    match message.role {
        tidemark_core::Role::User => "user",
        tidemark_core::Role::Assistant => "assistant",
        tidemark_core::Role::Tool => "tool",
        _ => "system",
    }
}

/// Count what one remembered candidate came to; `true` when it is stored (new or already there).
pub(super) fn tally(
    conversation: &ConversationId,
    remembered: Result<Remembered, RememberError>,
    counters: &mut SessionCounters,
    failures: &mut Vec<FactError>,
) -> bool {
    match remembered {
        Ok(Remembered { put: Put::Inserted(_), .. }) => {
            counters.extracted += 1;
            true
        }
        Ok(_) => {
            counters.duplicates += 1;
            true
        }
        Err(RememberError::Rejected(threat)) => {
            tracing::warn!(conversation = %conversation, %threat, "an extracted fact failed the security scan");
            counters.rejected += 1;
            false
        }
        Err(RememberError::Store(FactError::OverBudget { tier, used, limit, .. })) => {
            tracing::info!(conversation = %conversation, %tier, used, limit, "fact budget full; extracted fact dropped");
            counters.over_budget += 1;
            false
        }
        Err(RememberError::Store(FactError::Invalid { reason })) => {
            tracing::debug!(conversation = %conversation, %reason, "extracted fact refused as invalid");
            false
        }
        Err(RememberError::Store(error)) => {
            failures.push(error);
            false
        }
    }
}

/// A message's text and tool results, as one text: what a change can be stated in.
pub(super) fn readable(message: &Message) -> String {
    message
        .parts
        .iter()
        .filter_map(|part| match part {
            tidemark_core::Part::Text { text } => Some(text.as_str()),
            tidemark_core::Part::ToolResult(result) => Some(result.content.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

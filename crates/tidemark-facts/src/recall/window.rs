//! The changes the prompt's window already states, so that recall does not quote what they replaced.
//!
//! Recall drops an older passage when a newer quoted passage changes what it
//! said ([`Topic::replaces`]). The newest statements are often not quoted at
//! all: they are in the window ("Change of plan for Friday: Bartek takes the
//! pager instead"), and quoting the old one beside them puts both values in
//! front of the model. So the window's passages that could replace one (a
//! value, and a change marker or a plain statement) count as newer statements too.
//!
//! Reading the whole window at every load would cost a read per load; each
//! conversation keeps the topics of the window passages that could replace one
//! and how far it has read, so a load reads only the messages appended since
//! the last one, and forgets the topics of messages that left the window
//! (recall finds those as passages of their own).

use std::sync::{Arc, Mutex, PoisonError};

use quick_cache::unsync::Cache;
use tidemark_core::recall::passage_texts;
use tidemark_core::{ConversationId, ConversationStore, Seq, SeqRange, StoreError};

use super::supersede::Topic;

/// What one conversation's window has shown so far.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// The first sequence number not read yet.
    next: Seq,
    /// The topics of the window's passages that could replace a quoted one, by message.
    updates: Vec<(Seq, Arc<Topic>)>,
}

/// The topics of each conversation's window that could replace a quoted passage, read as the window grows.
pub(super) struct Windows(Mutex<Cache<ConversationId, Seen>>);

impl Windows {
    pub(super) fn new(conversations: usize) -> Self {
        Self(Mutex::new(Cache::new(conversations)))
    }

    /// The topics of the passages at or above `below` (the window) that could replace a quoted one ([`Topic::of_change`]).
    pub(super) async fn updates<S: ConversationStore>(
        &self,
        store: &S,
        conversation: &ConversationId,
        below: Seq,
    ) -> Result<Vec<Arc<Topic>>, StoreError> {
        let mut seen = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(conversation)
            .cloned()
            .unwrap_or_default();
        let messages = store.load_range(conversation, SeqRange::from(seen.next.max(below))).await?;
        for stored in &messages {
            for (_, text) in passage_texts(&stored.message) {
                let tool = stored.message.role == tidemark_core::Role::Tool;
                if let Some(topic) = Topic::of_change(&text, tool) {
                    seen.updates.push((stored.seq, Arc::new(topic)));
                }
            }
            seen.next = seen.next.max(Seq(stored.seq.0.saturating_add(1)));
        }
        seen.updates.retain(|(seq, _)| *seq >= below);
        let topics = seen.updates.iter().map(|(_, topic)| Arc::clone(topic)).collect();
        self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(conversation.clone(), seen);
        Ok(topics)
    }
}

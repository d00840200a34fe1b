//! A custom `ConversationStore`, checked with the testkit's conformance suite.
//!
//! The store keeps every conversation in one `BTreeMap` behind a lock: short,
//! and a template for writing your own backend. `main` runs the same
//! conformance suite tidemark's own stores pass. Run with
//! `cargo run -p tidemark-cli --example custom_store`.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tidemark_core::history::{Epoch, EpochLog, HistoryError, never_written};
use tidemark_core::recall;
use tidemark_core::store::{ConversationStats, check_state, claim_lease};
use tidemark_core::{
    Calibration, CompactionState, ConversationId, ConversationStore, Lease, NewMessage, Passage, RecallQuery,
    Seq, SeqRange, StoreError, StoredMessage,
};

#[derive(Default)]
struct Entry {
    messages: BTreeMap<Seq, StoredMessage>,
    next: Seq,
    state: CompactionState,
    /// Every state written since the last clear: core's `EpochLog` keeps the bookkeeping.
    history: EpochLog,
}

/// Every conversation in one map, who holds each conversation's compaction lease until when, each one's calibration, and each one's user (oldest assignment first).
#[derive(Default)]
struct MapStore(
    Mutex<BTreeMap<ConversationId, Entry>>,
    Mutex<BTreeMap<ConversationId, (String, Instant)>>,
    Mutex<BTreeMap<ConversationId, Calibration>>,
    Mutex<Vec<(ConversationId, ConversationId)>>,
);

impl MapStore {
    fn with<T>(&self, work: impl FnOnce(&mut BTreeMap<ConversationId, Entry>) -> T) -> Result<T, StoreError> {
        let mut map =
            self.0.lock().map_err(|_| StoreError::backend("lock", "the store's lock is poisoned"))?;
        Ok(work(&mut map))
    }
}

impl ConversationStore for MapStore {
    async fn append(&self, id: &ConversationId, messages: Vec<NewMessage>) -> Result<SeqRange, StoreError> {
        self.with(|map| {
            if messages.is_empty() {
                let next = map.get(id).map_or(Seq::ZERO, |entry| entry.next);
                return SeqRange::new(next, next);
            }
            let entry = map.entry(id.clone()).or_default();
            let start = entry.next;
            for new in messages {
                entry.messages.insert(entry.next, StoredMessage::new(entry.next, new.tokens, new.message));
                entry.next = entry.next.after(1);
            }
            SeqRange::new(start, entry.next)
        })
    }

    async fn load_range(
        &self,
        id: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        self.with(|map| match map.get(id) {
            Some(entry) if !range.is_empty() => {
                entry.messages.range(range.start..range.end).map(|(_, m)| m.clone()).collect()
            }
            _ => Vec::new(),
        })
    }

    async fn load_seqs(&self, id: &ConversationId, seqs: &[Seq]) -> Result<Vec<StoredMessage>, StoreError> {
        self.with(|map| {
            map.get(id).map_or_else(Vec::new, |entry| {
                seqs.iter().filter_map(|s| entry.messages.get(s).cloned()).collect()
            })
        })
    }

    async fn stats(&self, id: &ConversationId) -> Result<ConversationStats, StoreError> {
        self.with(|map| {
            map.get(id).map_or_else(ConversationStats::default, |entry| {
                let tokens = entry.messages.values().map(|m| u64::from(m.tokens)).sum();
                ConversationStats::new(entry.next, entry.messages.len() as u64, tokens)
            })
        })
    }

    async fn clear(&self, id: &ConversationId) -> Result<(), StoreError> {
        self.3
            .lock()
            .map_err(|_| StoreError::backend("clear", "the user lock is poisoned"))?
            .retain(|(held, _)| held != id);
        self.2
            .lock()
            .map_err(|_| StoreError::backend("clear", "the calibration lock is poisoned"))?
            .remove(id);
        self.with(|map| {
            if let Some(entry) = map.get_mut(id) {
                entry.messages.clear();
                let generation = entry.state.generation + 1;
                entry.state = CompactionState::new(entry.next, Vec::new(), None);
                entry.state.generation = generation;
                entry.history.cleared(&entry.state, entry.next);
            }
        })
    }

    async fn state(&self, id: &ConversationId) -> Result<CompactionState, StoreError> {
        self.with(|map| map.get(id).map(|entry| entry.state.clone()).unwrap_or_default())
    }

    async fn save_state(
        &self,
        id: &ConversationId,
        expected: u64,
        mut state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        self.with(|map| {
            let (current, next) =
                map.get(id).map_or((CompactionState::default(), Seq::ZERO), |e| (e.state.clone(), e.next));
            if current.generation != expected {
                return Err(StoreError::StateConflict { expected, found: current.generation });
            }
            check_state(&current, next, &state)?;
            state.generation = expected + 1;
            let entry = map.entry(id.clone()).or_default();
            entry.state = state.clone();
            entry.history.saved(&state, next);
            Ok(state)
        })?
    }

    async fn epochs(&self, id: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        self.with(|map| map.get(id).map(|entry| entry.history.epochs().to_vec()).unwrap_or_default())
    }

    async fn restore_state(
        &self,
        id: &ConversationId,
        expected: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        self.with(|map| {
            let Some(entry) = map.get_mut(id) else { return Err(never_written(expected, target)) };
            let messages = &entry.messages;
            let restored = entry.history.restore(
                entry.state.generation,
                expected,
                target,
                entry.next,
                |from| messages.range(from..).count() as u64,
                |seq| messages.contains_key(&seq),
            )?;
            entry.state = restored.clone();
            Ok(restored)
        })?
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        let state = self.with(|map| -> Result<CompactionState, StoreError> {
            if map.contains_key(target) {
                return Err(StoreError::History(HistoryError::Exists { conversation: target.clone() }));
            }
            let empty = Entry::default();
            let from = map.get(source).unwrap_or(&empty);
            let (history, state) = from.history.fork(
                at,
                from.next,
                |watermark| from.messages.range(watermark..at).count() as u64,
                |seq| from.messages.contains_key(&seq),
            )?;
            let messages = from.messages.range(..at).map(|(seq, stored)| (*seq, stored.clone())).collect();
            map.insert(target.clone(), Entry { messages, next: at, state: state.clone(), history });
            Ok(state)
        })??;
        // The calibration and the user come along.
        let mut calibrations =
            self.2.lock().map_err(|_| StoreError::backend("fork", "the calibration lock is poisoned"))?;
        if let Some(calibration) = calibrations.get(source).cloned() {
            calibrations.insert(target.clone(), calibration);
        }
        let mut users =
            self.3.lock().map_err(|_| StoreError::backend("fork", "the user lock is poisoned"))?;
        if let Some((_, user)) = users.iter().rev().find(|(held, _)| held == source).cloned() {
            users.push((target.clone(), user));
        }
        Ok(state)
    }

    async fn prune(&self, id: &ConversationId) -> Result<u64, StoreError> {
        self.with(|map| {
            let Some(entry) = map.get_mut(id) else { return 0 };
            let before = entry.messages.len();
            let state = &entry.state;
            entry.messages.retain(|seq, _| *seq >= state.watermark || state.retained.contains(seq));
            (before - entry.messages.len()) as u64
        })
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        self.with(|map| map.keys().cloned().collect())
    }

    // Leases stop two memories over this store from compacting one
    // conversation at once. This store lives in one process, so a map will do;
    // a database backend keeps them in a table, timed by the server's clock.
    async fn try_lease(&self, id: &ConversationId, holder: &str, ttl: Duration) -> Result<Lease, StoreError> {
        let mut leases =
            self.1.lock().map_err(|_| StoreError::backend("try_lease", "the lease lock is poisoned"))?;
        let current = leases.get(id).map(|(owner, expires)| (owner.as_str(), *expires));
        match claim_lease(current, holder, ttl, Instant::now()) {
            Ok(expires) => {
                leases.insert(id.clone(), (holder.to_owned(), expires));
                Ok(Lease::Acquired)
            }
            Err(held) => Ok(held),
        }
    }

    async fn release_lease(&self, id: &ConversationId, holder: &str) -> Result<(), StoreError> {
        let mut leases =
            self.1.lock().map_err(|_| StoreError::backend("release_lease", "the lease lock is poisoned"))?;
        if leases.get(id).is_some_and(|(owner, _)| owner == holder) {
            leases.remove(id);
        }
        Ok(())
    }

    // Recall: a store without a search engine cuts its messages into passages
    // and lets core rank them, which is also what makes its answers agree with
    // every other store's. A larger store would keep the passages (or an
    // index of their terms) beside the messages instead of cutting them again.
    async fn search_passages(
        &self,
        id: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        self.with(|map| {
            let Some(entry) = map.get(id) else { return Vec::new() };
            let candidates = entry.messages.range(..query.below).flat_map(|(seq, stored)| {
                recall::passages(&stored.message)
                    .into_iter()
                    .map(|passage| recall::Candidate::new(*seq, stored.message.role, passage))
            });
            recall::rank(query, candidates)
        })
    }

    // Calibration: what the provider's usage reports taught the memory, one
    // small value per conversation, written whole after each model call.
    // It lives apart from the compaction state, so writing it never races a
    // compaction; `clear` above forgets it.
    async fn calibration(&self, id: &ConversationId) -> Result<Calibration, StoreError> {
        let calibrations = self
            .2
            .lock()
            .map_err(|_| StoreError::backend("calibration", "the calibration lock is poisoned"))?;
        Ok(calibrations.get(id).cloned().unwrap_or_default())
    }

    async fn save_calibration(
        &self,
        id: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        let mut calibrations = self
            .2
            .lock()
            .map_err(|_| StoreError::backend("save_calibration", "the calibration lock is poisoned"))?;
        calibrations.insert(id.clone(), calibration);
        Ok(())
    }

    // Users: which user each conversation is held with, so that recall with a
    // user can read the user's other conversations, newest first.
    async fn set_user(&self, id: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        let mut users =
            self.3.lock().map_err(|_| StoreError::backend("set_user", "the user lock is poisoned"))?;
        users.retain(|(held, _)| held != id);
        users.push((id.clone(), user.clone()));
        Ok(())
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        let users = self
            .3
            .lock()
            .map_err(|_| StoreError::backend("user_conversations", "the user lock is poisoned"))?;
        Ok(users.iter().rev().filter(|(_, with)| with == user).map(|(held, _)| held.clone()).collect())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let report = tidemark_testkit::conformance::store::run(|| async { MapStore::default() }).await?;
    println!(
        "MapStore passes the store conformance suite: {} checks, {} random cases",
        report.checks, report.cases
    );
    Ok(())
}

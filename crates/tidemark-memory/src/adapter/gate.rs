//! Single flight per conversation: an async lock per conversation id that exists only while someone holds or awaits it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tidemark_core::ConversationId;
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// The per-conversation locks of one adapter.
///
/// An entry lives exactly as long as some load holds or awaits its lock, so
/// the map's size follows the loads in flight, not the conversations ever seen.
#[derive(Debug, Default)]
pub(crate) struct Gates {
    map: Mutex<HashMap<ConversationId, Arc<AsyncMutex<()>>>>,
}

/// A claim on a conversation's lock; dropping it removes the entry once no one else has a claim.
pub(crate) struct Claim<'a> {
    gates: &'a Gates,
    id: ConversationId,
    gate: Arc<AsyncMutex<()>>,
}

/// The held lock of one conversation. Its fields drop in order: the guard
/// first, releasing the lock, then the claim, which may remove the entry.
pub(crate) struct Flight<'a> {
    _guard: OwnedMutexGuard<()>,
    _claim: Claim<'a>,
}

impl Gates {
    /// Register interest in `id`'s lock.
    pub(crate) fn claim(&self, id: &ConversationId) -> Claim<'_> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        let gate = Arc::clone(map.entry(id.clone()).or_default());
        Claim { gates: self, id: id.clone(), gate }
    }

    /// How many conversations have a claim now.
    pub(crate) fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl<'a> Claim<'a> {
    /// Wait for the lock. Cancelling the wait releases the claim.
    pub(crate) async fn acquire(self) -> Flight<'a> {
        let guard = Arc::clone(&self.gate).lock_owned().await;
        Flight { _guard: guard, _claim: self }
    }

    /// Take the lock if it is free; otherwise hand the claim back, to wait on or drop.
    pub(crate) fn try_acquire(self) -> Result<Flight<'a>, Self> {
        match Arc::clone(&self.gate).try_lock_owned() {
            Ok(guard) => Ok(Flight { _guard: guard, _claim: self }),
            Err(_) => Err(self),
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        // Claims are only made under the map's lock, so under it the count
        // cannot grow behind our back: two references (the map's and ours)
        // mean ours is the last claim.
        let mut map = self.gates.map.lock().unwrap_or_else(PoisonError::into_inner);
        if Arc::strong_count(&self.gate) == 2 {
            map.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use super::*;

    #[tokio::test]
    async fn entries_live_only_while_claimed() {
        let gates = Gates::default();
        let id = ConversationId::new("c").expect("valid");
        let flight = gates.claim(&id).acquire().await;
        assert_eq!(gates.len(), 1);
        assert!(gates.claim(&id).try_acquire().is_err(), "the lock is held");
        assert_eq!(gates.len(), 1, "a failed try leaves only the holder's claim");
        drop(flight);
        assert_eq!(gates.len(), 0);
        assert!(gates.claim(&id).try_acquire().is_ok());
        assert_eq!(gates.len(), 0);
    }

    #[tokio::test]
    async fn a_cancelled_wait_releases_its_claim() {
        let gates = Gates::default();
        let id = ConversationId::new("c").expect("valid");
        let flight = gates.claim(&id).acquire().await;
        let waiting = gates.claim(&id).acquire();
        // Poll the wait once so it is queued on the lock, then drop it.
        let waiting = Box::pin(waiting);
        let mut waiting = Some(waiting);
        futures::future::poll_fn(|cx| {
            let pending = waiting.as_mut().map(|w| w.as_mut().poll(cx).is_pending());
            assert_eq!(pending, Some(true));
            std::task::Poll::Ready(())
        })
        .await;
        drop(waiting);
        drop(flight);
        assert_eq!(gates.len(), 0);
    }
}

//! [`CachedCounter`]: remembers another counter's message counts in a bounded concurrent cache keyed by content hash.

use std::convert::Infallible;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use quick_cache::sync::Cache;
use tidemark_core::{ContentHash, Message, TokenCounter};

/// Wraps a counter and caches its per-message counts by [`Message::content_hash`].
///
/// The content hash covers exactly what a counter may read (role, name and parts)
/// and not the pin, so a pinned copy of a message reuses its count.
/// An agent's memory counts nearly the same history before every model call, so
/// most counts are of messages counted before; the cache turns each of those into a hash.
///
/// The cache holds about [`capacity`](CachedCounter::capacity) counts; when full it
/// evicts with quick_cache's S3-FIFO policy, which keeps counts asked for more than
/// once ahead of one-off ones. It is safe to share between threads.
/// [`count_text`](TokenCounter::count_text) is not cached (there is no message
/// hash to key it), and [`name`](TokenCounter::name) and
/// [`prompt_overhead`](TokenCounter::prompt_overhead) are the inner counter's.
///
/// ```
/// use tidemark_core::{Message, TokenCounter};
/// use tidemark_memory::counter::{CachedCounter, HeuristicCounter};
///
/// let counter = CachedCounter::with_capacity(HeuristicCounter::english(), 1_000);
/// let message = Message::user("the same words");
/// assert_eq!(counter.count(&message), counter.inner().count(&message));
/// assert_eq!(counter.count(&message), counter.inner().count(&message));
/// assert_eq!((counter.misses(), counter.hits()), (1, 1));
/// ```
pub struct CachedCounter<C> {
    inner: C,
    cache: Cache<ContentHash, u32>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<C: TokenCounter> CachedCounter<C> {
    /// The capacity [`CachedCounter::new`] uses: 65,536 counts, about 4.5 MB of memory when full.
    pub const DEFAULT_CAPACITY: usize = 65_536;

    /// Cache the counts of `inner`, holding up to [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) of them.
    pub fn new(inner: C) -> Self {
        Self::with_capacity(inner, Self::DEFAULT_CAPACITY)
    }

    /// Cache the counts of `inner`, holding up to about `capacity` of them (none for zero).
    pub fn with_capacity(inner: C, capacity: usize) -> Self {
        Self { inner, cache: Cache::new(capacity), hits: AtomicU64::new(0), misses: AtomicU64::new(0) }
    }
}

impl<C> CachedCounter<C> {
    /// The wrapped counter.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The wrapped counter, dropping the cache.
    pub fn into_inner(self) -> C {
        self.inner
    }

    /// How many message counts were answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// How many message counts had to ask the inner counter.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// How many counts the cache holds now.
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// Whether the cache holds no counts.
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }

    /// About how many counts the cache holds at most.
    pub fn capacity(&self) -> u64 {
        self.cache.capacity()
    }

    /// Forget every cached count (the hit and miss tallies are kept).
    pub fn clear(&self) {
        self.cache.clear();
    }
}

impl<C: fmt::Debug> fmt::Debug for CachedCounter<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CachedCounter")
            .field("inner", &self.inner)
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .field("hits", &self.hits())
            .field("misses", &self.misses())
            .finish()
    }
}

impl<C: TokenCounter> TokenCounter for CachedCounter<C> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn count_text(&self, text: &str) -> u32 {
        self.inner.count_text(text)
    }

    fn count(&self, message: &Message) -> u32 {
        // Counting under the cache's placeholder makes concurrent callers of the
        // same new message wait for one count instead of all computing it.
        let mut missed = false;
        let counted = self.cache.get_or_insert_with(&message.content_hash(), || {
            missed = true;
            Ok::<_, Infallible>(self.inner.count(message))
        });
        let tally = if missed { &self.misses } else { &self.hits };
        tally.fetch_add(1, Ordering::Relaxed);
        match counted {
            Ok(tokens) => tokens,
            Err(never) => match never {},
        }
    }

    fn prompt_overhead(&self) -> u32 {
        self.inner.prompt_overhead()
    }
}

//! The conversation memory an agent loads before every model call: stores, token counters, window policies and the adapters that demote and compact.
//!
//! - [`store`]: [`InMemoryStore`] and [`SqliteStore`], the embedded default.
//! - [`counter`]: [`HeuristicCounter`] (re-exported from `tidemark-core`),
//!   [`TiktokenCounter`] (the exact counts of OpenAI's tokenizers) and [`CachedCounter`].
//! - [`policy`]: [`SlidingWindow`], [`LastTurns`] and [`TokenWindow`].
//! - [`adapter`]: [`PolicyMemory`], [`DemotingMemory`] and [`CompactingMemory`]
//!   (with [`BackgroundMemory`], its mode whose loads never wait for the compactor),
//!   which wrap a store and a policy into a
//!   [`ConversationMemory`](tidemark_core::ConversationMemory), and learn
//!   from the usage the provider reports
//!   ([`observe_usage`](tidemark_core::ConversationMemory::observe_usage))
//!   to fit the window by the provider's count.
//!
//! ```
//! use std::num::NonZeroU32;
//! use tidemark_core::{ConversationId, ConversationMemory, Message};
//! use tidemark_memory::{CompactingMemory, SqliteStore, TiktokenCounter, TokenWindow};
//! use tidemark_testkit::reference::ConcatCompactor;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let store = SqliteStore::open_in_memory()?;
//! let policy = TokenWindow::new(NonZeroU32::new(8_000).unwrap(), TiktokenCounter::o200k()?);
//! let memory = CompactingMemory::new(store, policy, ConcatCompactor::capped(4_096));
//! let id = ConversationId::new("support/4711")?;
//! memory.append(&id, vec![Message::user("Where is my parcel?")]).await?;
//! let prompt = memory.load(&id).await?;
//! assert_eq!(prompt, vec![Message::user("Where is my parcel?")]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

pub mod adapter;
pub mod counter;
pub mod error;
pub mod policy;
pub mod store;

pub use adapter::{
    BackgroundMemory, CompactingMemory, DemotingMemory, FailureMode, PolicyMemory, Settings, WaitMode,
};
pub use counter::{CachedCounter, CalibratedCounter, HeuristicCounter, TiktokenCounter};
pub use error::{CounterError, PolicyError};
pub use policy::{CachePlan, LastTurns, SlidingWindow, TokenWindow};
pub use store::{InMemoryStore, SqliteStore};

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
//! # Features
//!
//! - `sqlite` (default): [`SqliteStore`], on rusqlite.
//! - `bundled-sqlite` (default): SQLite built from source and linked in; without it, the
//!   system's libsqlite3 is linked, which must be 3.45.3 or later (rusqlite's bindings) and have FTS5.
//! - `tiktoken` (default): [`TiktokenCounter`], OpenAI's exact counts, on tiktoken-rs.
//!
//! Without them the crate keeps [`InMemoryStore`], [`HeuristicCounter`] and everything else;
//! `cargo xtask ci` builds and tests it that way too.
//!
//! ```
//! # #[cfg(all(feature = "sqlite", feature = "tiktoken"))]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::num::NonZeroU32;
//! use tidemark_core::{ConversationId, ConversationMemory, Message};
//! use tidemark_memory::{CompactingMemory, SqliteStore, TiktokenCounter, TokenWindow};
//! use tidemark_testkit::reference::ConcatCompactor;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
//! let store = SqliteStore::open_in_memory()?;
//! let policy = TokenWindow::new(NonZeroU32::new(8_000).ok_or("zero")?, TiktokenCounter::o200k()?);
//! let memory = CompactingMemory::new(store, policy, ConcatCompactor::capped(4_096));
//! let id = ConversationId::new("support/4711")?;
//! memory.append(&id, vec![Message::user("Where is my parcel?")]).await?;
//! let prompt = memory.load(&id).await?;
//! assert_eq!(prompt, vec![Message::user("Where is my parcel?")]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })
//! # }
//! # #[cfg(not(all(feature = "sqlite", feature = "tiktoken")))]
//! # fn main() {}
//! ```

pub mod adapter;
pub mod counter;
pub mod error;
pub mod policy;
pub mod store;

pub use adapter::{
    BackgroundMemory, CompactingMemory, DemotingMemory, FailureMode, HANDOFF_HEADER, PolicyMemory, Reset,
    Settings, Undone, WaitMode,
};
#[cfg(feature = "tiktoken")]
pub use counter::TiktokenCounter;
pub use counter::{CachedCounter, CalibratedCounter, HeuristicCounter};
pub use error::{CounterError, PolicyError};
pub use policy::{CachePlan, LastTurns, SlidingWindow, TokenWindow};
pub use store::InMemoryStore;
#[cfg(feature = "sqlite")]
pub use store::SqliteStore;

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

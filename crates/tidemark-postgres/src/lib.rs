//! [`PostgresStore`]: tidemark's conversations, compaction state, leases and long-term facts in one PostgreSQL database that many agent processes share.
//!
//! The store implements `tidemark_core::ConversationStore` and
//! `tidemark_core::FactStore`, so every memory adapter of `tidemark-memory`
//! and every fact component of `tidemark-facts` runs on it unchanged. It is
//! a crate of its own, as a database backend beside the embedded SQLite store,
//! so that an agent that never talks to PostgreSQL never builds its client.
//!
//! ```no_run
//! use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage};
//! use tidemark_postgres::{PostgresOptions, PostgresStore};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let options = PostgresOptions::default().with_pool_size(8);
//! let store = PostgresStore::connect_with("postgres://agent@localhost/agents", options).await?;
//! let id = ConversationId::new("support/4711")?;
//! store.append(&id, vec![NewMessage::new(Message::user("Where is my parcel?"), 6)]).await?;
//! # Ok(()) }
//! ```

mod store;

pub use store::{PostgresConfigError, PostgresOptions, PostgresStore};

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

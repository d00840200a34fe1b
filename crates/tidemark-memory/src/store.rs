//! Conversation stores: [`InMemoryStore`] for tests and short-lived agents, [`SqliteStore`] as the embedded default.

mod memory;
#[cfg(feature = "sqlite")]
mod sqlite;

pub use memory::InMemoryStore;
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;

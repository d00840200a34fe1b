//! Conversation stores: [`InMemoryStore`] for tests and short-lived agents, [`SqliteStore`] as the embedded default.

mod memory;
mod sqlite;

pub use memory::InMemoryStore;
pub use sqlite::SqliteStore;

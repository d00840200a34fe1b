//! Conversation stores: [`InMemoryStore`] for tests and short-lived agents, [`SqliteStore`] as the embedded default.

mod data;
mod fact_row;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
mod sqlite;

pub use memory::InMemoryStore;
#[cfg(feature = "postgres")]
pub use postgres::{PostgresConfigError, PostgresOptions, PostgresStore};
pub use sqlite::SqliteStore;

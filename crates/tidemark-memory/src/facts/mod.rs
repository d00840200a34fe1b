//! Long-term facts: stores, the heuristic that extracts facts from evicted turns, the security scan, and the coordinator that ties them to compaction.

pub mod coordinator;
pub mod extract;
pub use tidemark_core::fact::rank;
pub mod scan;

pub use coordinator::{FactCoordinator, Injection, RememberError, Remembered, SessionCounters};

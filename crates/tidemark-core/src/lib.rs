//! Types and traits shared by every tidemark crate: messages, conversation identity, tool units and the contracts of stores, memories, policies, hooks, compactors, counters, models and observers.
//!
//! This crate holds no implementation beyond the pure functions its types need
//! (validation, unit partitioning, content hashing): stores live in
//! `tidemark-memory`, strategies and compactors in `tidemark-compaction`, and
//! HTTP models in `tidemark-providers`.
//! A crate that only implements one of the traits depends on this crate alone.
//!
//! # A first look
//!
//! ```
//! use tidemark_core::{Message, ToolCall, validate, units};
//!
//! let history = vec![
//!     Message::system("You are a careful coding agent."),
//!     Message::user("What is in Cargo.toml?"),
//!     Message::assistant_tool_calls([ToolCall::new("call_1", "read_file", serde_json::json!({"path": "Cargo.toml"}))]),
//!     Message::tool_result("call_1", "[workspace]\nmembers = [\"crates/*\"]"),
//!     Message::assistant("It declares a workspace."),
//! ];
//! validate(&history)?;
//! // The tool call and its result form one unit that no policy may split.
//! let spans: Vec<_> = units(&history).map(|unit| unit.range()).collect();
//! assert_eq!(spans, vec![0..1, 1..2, 2..4, 4..5]);
//! # Ok::<(), tidemark_core::Violation>(())
//! ```

pub mod boxed;
pub mod cache;
pub mod calibration;
pub mod compactor;
pub mod context;
pub mod counter;
pub mod dropped;
pub mod error;
pub mod event;
pub mod fact;
pub mod hash;
pub mod history;
pub mod hook;
pub mod id;
pub mod memory;
pub mod message;
pub mod model;
pub mod observer;
pub mod policy;
pub mod recall;
pub mod store;
pub mod task;
pub mod time;
pub mod unit;

mod forward;

pub use calibration::{Calibration, Observed, Ratio};
pub use compactor::Compactor;
pub use context::{ContextRequest, ContextSource};
pub use counter::{CalibratedCounter, HeuristicCounter, TokenCounter};
pub use error::{
    BoxError, CompactionError, CompletionError, ContextError, ConversationIdError, DecodeError,
    HeuristicError, HookError, MemoryError, ObserverError, PriceError, StoreError,
};
pub use event::{CompactionEvent, Outcome};
pub use fact::{
    BudgetUsage, Fact, FactBudgets, FactError, FactFilter, FactId, FactSource, FactStatus, FactStore, Merge,
    Merged, NewFact, Put, RollbackRecord, RolledBack, RunId, RunInfo, RunStatus, Scope, StatusFilter, Tier,
    fact_hash,
};
pub use hash::ContentHash;
pub use hook::DemotionHook;
pub use id::{ConversationId, Seq, SeqRange};
pub use memory::ConversationMemory;
pub use message::{
    Attachment, AttachmentSource, Message, OpaqueBlock, Origin, Part, Role, ToolCall, ToolResult,
    history_from_json, history_to_json,
};
pub use model::{Completion, CompletionModel, CompletionRequest, FinishReason, ToolSpec, Usage};
pub use observer::CompactionObserver;
pub use policy::{MemoryPolicy, Selection, Window};
pub use recall::{Passage, RecallQuery};
pub use store::{
    CompactionState, ConversationStats, ConversationStore, Lease, NewMessage, StoredMessage, StoredSummary,
};
pub use unit::{Unit, UnitKind, Violation, ViolationKind, units, validate};

/// The crate's README, whose example runs as a doctest so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! Consolidation runs: the merges a run applies, the records that undo them, and where each run stands.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Fact, FactId, NewFact};

/// The id a store gives a consolidation run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunId(pub u64);

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One group of facts to replace by one merged fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Merge {
    /// The facts retired.
    pub sources: Vec<FactId>,
    /// The fact that replaces them (same scope and tier as every source).
    pub merged: NewFact,
}

impl Merge {
    /// Retire `sources` and store `merged` in their place.
    pub fn new(sources: Vec<FactId>, merged: NewFact) -> Self {
        Self { sources, merged }
    }
}

/// A merge as applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Merged {
    /// The new fact.
    pub fact: Fact,
    /// What a rollback restores.
    pub record: RollbackRecord,
}

impl Merged {
    /// The stored `fact` of a merge and the `record` that undoes it.
    pub fn new(fact: Fact, record: RollbackRecord) -> Self {
        Self { fact, record }
    }
}

/// Everything needed to undo one merge: the sources in full and the merged fact's id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RollbackRecord {
    /// The run it belongs to.
    pub run: RunId,
    /// The merged fact.
    pub merged: FactId,
    /// The sources exactly as they were stored before the run.
    pub sources: Vec<Fact>,
}

impl RollbackRecord {
    /// The record of one merge of `run`: the `merged` fact's id and its `sources` as they were.
    pub fn new(run: RunId, merged: FactId, sources: Vec<Fact>) -> Self {
        Self { run, merged, sources }
    }
}

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunStatus {
    /// Written, not yet verified.
    Applied,
    /// Written and verified.
    Verified,
    /// Undone.
    RolledBack,
}

impl RunStatus {
    /// `"applied"`, `"verified"` or `"rolled_back"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Verified => "verified",
            Self::RolledBack => "rolled_back",
        }
    }
}

/// A consolidation run as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunInfo {
    /// Its id.
    pub id: RunId,
    /// The pass that made it.
    pub pass: String,
    /// Where it stands.
    pub status: RunStatus,
    /// How many merges it applied.
    pub merges: usize,
    /// When it was applied, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

impl RunInfo {
    /// Run `id` of `pass`, standing at `status`, with `merges` merges, applied at `created_ms`.
    pub fn new(
        id: RunId,
        pass: impl Into<String>,
        status: RunStatus,
        merges: usize,
        created_ms: u64,
    ) -> Self {
        Self { id, pass: pass.into(), status, merges, created_ms }
    }
}

/// What [`FactStore::rollback`](super::FactStore::rollback) did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RolledBack {
    /// Sources put back.
    pub restored: usize,
    /// Merged facts removed.
    pub removed: usize,
}

impl RolledBack {
    /// `restored` sources put back and `removed` merged facts taken out.
    pub fn new(restored: usize, removed: usize) -> Self {
        Self { restored, removed }
    }
}

//! [`FactFilter`] and [`StatusFilter`]: which facts [`FactStore::list`](super::FactStore::list) returns.

use super::{Fact, FactStatus, Scope, Tier};

/// Which facts [`FactStore::list`](super::FactStore::list) returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FactFilter {
    /// Only this scope (all scopes when `None`).
    pub scope: Option<Scope>,
    /// Only this tier (both when `None`).
    pub tier: Option<Tier>,
    /// Which statuses: active, quarantined or superseded only, or every one.
    pub status: StatusFilter,
}

impl FactFilter {
    /// The facts of `scope` (any when `None`) and `tier` (both when `None`) whose status `status` lets through.
    pub fn new(scope: Option<Scope>, tier: Option<Tier>, status: StatusFilter) -> Self {
        Self { scope, tier, status }
    }

    /// Every active fact of `scope`.
    pub fn scope(scope: Scope) -> Self {
        Self { scope: Some(scope), ..Self::default() }
    }

    /// The same filter, for one tier.
    pub fn tier(mut self, tier: Tier) -> Self {
        self.tier = Some(tier);
        self
    }

    /// The same filter, for these statuses.
    pub fn status(mut self, status: StatusFilter) -> Self {
        self.status = status;
        self
    }

    /// Whether `fact` passes the filter.
    pub fn matches(&self, fact: &Fact) -> bool {
        self.scope.as_ref().is_none_or(|scope| *scope == fact.scope)
            && self.tier.is_none_or(|tier| tier == fact.tier)
            && match self.status {
                StatusFilter::Active => fact.is_active(),
                StatusFilter::Quarantined => matches!(fact.status, FactStatus::Quarantined(_)),
                StatusFilter::Superseded => matches!(fact.status, FactStatus::Superseded(_)),
                StatusFilter::Any => true,
            }
    }
}

/// Which statuses a [`FactFilter`] lets through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum StatusFilter {
    /// Active facts only.
    #[default]
    Active,
    /// Quarantined facts only.
    Quarantined,
    /// Superseded facts only: the history of corrected facts.
    Superseded,
    /// Every status.
    Any,
}

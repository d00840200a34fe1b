//! The signal tables of the languages other than English.

use super::Table;

/// Every table but English, which lives in `signals.rs`.
pub(super) const TABLES: &[Table] = &[];

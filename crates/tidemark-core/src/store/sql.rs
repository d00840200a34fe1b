//! What SQL backends share about values that do not fit a column, or stored values they would never have written.
//!
//! SQLite and PostgreSQL both store unsigned numbers as signed 64-bit
//! integers and JSON as text, so every SQL store converts with the same
//! helpers and reports the same [`DataError`]. It reaches callers as the
//! source of a `Backend` error ([`StoreError::Backend`](crate::StoreError::Backend)
//! or [`FactError::Backend`](crate::FactError::Backend)). A store written
//! against another database can use them too.
//!
//! ```
//! use tidemark_core::store::sql::{DataError, from_sql, to_sql};
//!
//! assert_eq!(to_sql(7, "tokens").ok(), Some(7));
//! assert!(matches!(to_sql(u64::MAX, "tokens"), Err(DataError::Exhausted { column: "tokens" })));
//! assert!(matches!(from_sql::<u64>(-1, "tokens"), Err(DataError::OutOfRange { value: -1, .. })));
//! ```

use crate::ConversationIdError;

/// A value that does not fit the database, or a stored value this store would never have written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// A number would pass the largest integer the database stores.
    #[error("column `{column}` would pass {max}, the largest integer the database stores", max = i64::MAX)]
    Exhausted {
        /// The column that would overflow.
        column: &'static str,
    },
    /// A stored integer is outside the range of the value it stands for.
    #[error("column `{column}` holds {value}, which this store never writes")]
    OutOfRange {
        /// The column read.
        column: &'static str,
        /// The value found.
        value: i64,
    },
    /// A stored counter disagrees with the messages stored.
    #[error("column `{column}` disagrees with the stored messages")]
    Inconsistent {
        /// The counter.
        column: &'static str,
    },
    /// A JSON column could not be written or read.
    #[error("column `{column}` holds malformed json")]
    Json {
        /// The column.
        column: &'static str,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
    /// A stored conversation id is not a valid [`ConversationId`](crate::ConversationId).
    #[error("a stored conversation id is not valid")]
    Id(#[source] ConversationIdError),
    /// The schema version is negative, which no tidemark build writes.
    #[error("schema version {0} is not one tidemark writes")]
    Version(i64),
    /// A lease changed hands on every attempt to read it (a store that reads leases in a loop gives up).
    #[error("the lease kept changing hands while it was read")]
    LeaseChurn,
}

/// A number as the database stores it.
///
/// # Errors
///
/// [`DataError::Exhausted`] past `i64::MAX`.
pub fn to_sql(value: u64, column: &'static str) -> Result<i64, DataError> {
    i64::try_from(value).map_err(|_| DataError::Exhausted { column })
}

/// The bounds of `range` as stored integers, or `None` when it can hold no stored message.
///
/// No stored sequence number reaches `i64::MAX` (it is at most the last
/// `next_seq` minus one), so a start beyond it finds nothing and an end
/// beyond it means "to the end".
///
/// ```
/// use tidemark_core::store::sql::range_bounds;
/// use tidemark_core::{Seq, SeqRange};
///
/// assert_eq!(range_bounds(SeqRange::new(Seq(2), Seq(5))), Some((2, 5)));
/// assert_eq!(range_bounds(SeqRange::new(Seq(2), Seq(u64::MAX))), Some((2, i64::MAX)));
/// assert_eq!(range_bounds(SeqRange::new(Seq(u64::MAX), Seq(u64::MAX))), None);
/// assert_eq!(range_bounds(SeqRange::new(Seq(5), Seq(5))), None);
/// ```
pub fn range_bounds(range: crate::SeqRange) -> Option<(i64, i64)> {
    let start = i64::try_from(range.start.0).ok()?;
    let end = i64::try_from(range.end.0).unwrap_or(i64::MAX);
    (end > start).then_some((start, end))
}

/// A stored integer as the unsigned number it stands for.
///
/// # Errors
///
/// [`DataError::OutOfRange`] for a value `T` cannot hold.
pub fn from_sql<T: TryFrom<i64>>(value: i64, column: &'static str) -> Result<T, DataError> {
    T::try_from(value).map_err(|_| DataError::OutOfRange { column, value })
}

/// A value as the JSON text of `column`.
///
/// # Errors
///
/// [`DataError::Json`] when the value cannot be written as JSON.
pub fn to_json(value: &impl serde::Serialize, column: &'static str) -> Result<String, DataError> {
    serde_json::to_string(value).map_err(|source| DataError::Json { column, source })
}

/// The JSON text of `column` as a value.
///
/// # Errors
///
/// [`DataError::Json`] for malformed JSON.
pub fn from_json<T: serde::de::DeserializeOwned>(json: &str, column: &'static str) -> Result<T, DataError> {
    serde_json::from_str(json).map_err(|source| DataError::Json { column, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_past_i64_are_refused_both_ways() {
        assert_eq!(to_sql(7, "n").ok(), Some(7));
        assert!(matches!(to_sql(u64::MAX, "n"), Err(DataError::Exhausted { column: "n" })));
        assert!(matches!(from_sql::<u64>(-1, "n"), Err(DataError::OutOfRange { value: -1, .. })));
        assert!(matches!(from_json::<Vec<u8>>("[1,", "j"), Err(DataError::Json { column: "j", .. })));
        assert_eq!(from_json::<Vec<u8>>(&to_json(&vec![1u8], "j").unwrap(), "j").unwrap(), [1]);
    }
}

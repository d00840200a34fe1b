//! What SQL fact stores share about fact rows: the names they write, and turning one row's columns back into a [`Fact`].
//!
//! SQLite and PostgreSQL lay facts out the same way; only the way a column is
//! read differs, so each reads its columns into a [`FactColumns`] and
//! [`FactColumns::decode`] checks and assembles them. Both write a source and
//! a run status the same way too ([`source_columns`], [`parse_run_status`]).

use crate::{
    ContentHash, ConversationId, ConversationIdError, Fact, FactId, FactSource, FactStatus, NewFact,
    RunStatus, Scope, Seq, SeqRange, Tier,
};

/// The `status` of a fact that may be shown to a model.
pub const ACTIVE: &str = "active";
/// The `status` of a fact set aside for review.
pub const QUARANTINED: &str = "quarantined";
/// The `status` of a fact a later statement replaced.
pub const SUPERSEDED: &str = "superseded";

/// A stored fact row that this store would never have written.
///
/// It reaches callers as the source of a [`FactError::Backend`](crate::FactError::Backend).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BadRow {
    /// A text column holds a value outside the names this store writes.
    #[error("fact {id}: column `{column}` holds {found:?}, which this store never writes")]
    Name {
        /// The fact's id.
        id: i64,
        /// The column.
        column: &'static str,
        /// The value found.
        found: String,
    },
    /// The hash is not 32 bytes long.
    #[error("fact {id}: column `hash` holds {length} bytes, not 32")]
    HashLength {
        /// The fact's id.
        id: i64,
        /// The length found.
        length: usize,
    },
    /// A quarantined or superseded fact has no reason.
    #[error("fact {id} is quarantined or superseded without a reason")]
    NoReason {
        /// The fact's id.
        id: i64,
    },
    /// Only some of the three source columns are set.
    #[error("fact {id} has a partial source: conversation, start and end must be set together")]
    PartialSource {
        /// The fact's id.
        id: i64,
    },
    /// A scope id or source conversation is not a valid id.
    #[error("fact {id}: column `{column}` holds an invalid id")]
    Id {
        /// The fact's id.
        id: i64,
        /// The column.
        column: &'static str,
        /// Why the id is invalid.
        #[source]
        source: ConversationIdError,
    },
    /// The generation counter's row is missing.
    #[error("the fact generation row is missing from `fact_meta`")]
    NoGeneration,
    /// A run's status is not one of the names this store writes.
    #[error("consolidation run {run}: column `status` holds {found:?}, which this store never writes")]
    RunStatus {
        /// The run's id.
        run: i64,
        /// The value found.
        found: String,
    },
}

/// One fact row's columns as read from the database, before they are checked.
pub struct FactColumns<'a> {
    /// `id`, as stored.
    pub raw_id: i64,
    /// `id`, already read as a fact id.
    pub id: FactId,
    /// `scope_kind`.
    pub scope_kind: &'a str,
    /// `scope_id`.
    pub scope_id: &'a str,
    /// `tier`.
    pub tier: &'a str,
    /// `text`.
    pub text: String,
    /// `hash`.
    pub hash: &'a [u8],
    /// `source_conversation`, `source_start` and `source_end`.
    pub source: (Option<&'a str>, Option<i64>, Option<i64>),
    /// `created_ms`.
    pub created_ms: u64,
    /// `updated_ms`.
    pub updated_ms: u64,
    /// `status`.
    pub status: &'a str,
    /// `quarantine_reason`.
    pub quarantine_reason: Option<String>,
}

impl FactColumns<'_> {
    /// The fact these columns hold, or what is wrong with them.
    pub fn decode(self) -> Result<Fact, BadRow> {
        let raw_id = self.raw_id;
        let name =
            |column: &'static str, found: &str| BadRow::Name { id: raw_id, column, found: found.to_owned() };
        let conversation_id = |column: &'static str, text: &str| {
            ConversationId::new(text).map_err(|source| BadRow::Id { id: raw_id, column, source })
        };
        let scope_id = conversation_id("scope_id", self.scope_id)?;
        let scope = match self.scope_kind {
            "user" => Scope::User(scope_id),
            "conversation" => Scope::Conversation(scope_id),
            other => return Err(name("scope_kind", other)),
        };
        let tier = match self.tier {
            "user_profile" => Tier::UserProfile,
            "agent_notes" => Tier::AgentNotes,
            other => return Err(name("tier", other)),
        };
        let hash = <[u8; 32]>::try_from(self.hash)
            .map(ContentHash::from_bytes)
            .map_err(|_| BadRow::HashLength { id: raw_id, length: self.hash.len() })?;
        let source = match self.source {
            (Some(conversation), Some(start), Some(end)) => Some(FactSource::new(
                conversation_id("source_conversation", conversation)?,
                // Built field by field, so that the stored numbers come back exactly as written.
                SeqRange { start: Seq(start.cast_unsigned()), end: Seq(end.cast_unsigned()) },
            )),
            (None, None, None) => None,
            _ => return Err(BadRow::PartialSource { id: raw_id }),
        };
        let status = match self.status {
            ACTIVE => FactStatus::Active,
            QUARANTINED => {
                FactStatus::Quarantined(self.quarantine_reason.ok_or(BadRow::NoReason { id: raw_id })?)
            }
            SUPERSEDED => {
                FactStatus::Superseded(self.quarantine_reason.ok_or(BadRow::NoReason { id: raw_id })?)
            }
            other => return Err(name("status", other)),
        };
        // The stored hash is kept as read rather than computed again, so a row comes back exactly as written.
        let new = NewFact::new(scope, tier, self.text).with_source(source);
        Ok(Fact::new(self.id, new, hash, self.created_ms)
            .with_updated_ms(self.updated_ms)
            .with_status(status))
    }
}

/// The `status` and `quarantine_reason` columns of a fact with `status`: the names [`FactColumns::decode`] reads back.
///
/// Written here, in the crate that owns [`FactStatus`], so that a new status
/// cannot compile without a column value for every SQL store.
pub fn status_columns(status: &FactStatus) -> (&'static str, Option<&str>) {
    match status {
        FactStatus::Active => (ACTIVE, None),
        FactStatus::Quarantined(reason) => (QUARANTINED, Some(reason.as_str())),
        FactStatus::Superseded(reason) => (SUPERSEDED, Some(reason.as_str())),
    }
}

/// A source as its three columns (all set or all null).
pub fn source_columns(source: Option<&FactSource>) -> (Option<&str>, Option<i64>, Option<i64>) {
    match source {
        Some(source) => (
            Some(source.conversation.as_str()),
            Some(seq_to_sql(source.range.start)),
            Some(seq_to_sql(source.range.end)),
        ),
        None => (None, None, None),
    }
}

/// A sequence number as stored: its 64 bits as a signed integer, so that even an open end (`u64::MAX`) fits.
fn seq_to_sql(seq: Seq) -> i64 {
    seq.0.cast_signed()
}

/// A run's stored `status` as a [`RunStatus`], refusing names this store never writes.
pub fn parse_run_status(raw_run: i64, text: &str) -> Result<RunStatus, BadRow> {
    match text {
        "applied" => Ok(RunStatus::Applied),
        "verified" => Ok(RunStatus::Verified),
        "rolled_back" => Ok(RunStatus::RolledBack),
        other => Err(BadRow::RunStatus { run: raw_run, found: other.to_owned() }),
    }
}

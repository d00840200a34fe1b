//! Long-term facts: what an agent keeps about a user or a conversation after the turns that said it are compacted away.
//!
//! A [`Fact`] is a short text in a [`Scope`] (one conversation, or one user
//! across conversations) and a [`Tier`] (who the user is, or what the agent
//! learned). A [`FactStore`] keeps them with these rules:
//!
//! - **Idempotent writes.** A fact is identified by its scope, tier and
//!   [`fact_hash`] (its text with case and runs of white space folded), so the
//!   same fact delivered again, after a restart or from another source, is
//!   stored once and [`Put::Existing`] says so.
//! - **Budgets.** Each tier has a budget in characters per scope
//!   ([`FactBudgets`]); a write that would pass it fails with
//!   [`FactError::OverBudget`] naming the usage and the limit, and writes nothing.
//! - **Quarantine.** A fact can be set aside with a reason: it stays listed for
//!   a person to review or delete, and is never returned by
//!   [`FactStore::search`] or offered to a model.
//! - **A generation.** Every change bumps [`FactStore::generation`], so a cached
//!   view of the facts knows when it is stale.
//!
//! The scan for prompt injection and secrets is not the store's job: it is
//! done by the writer (tidemark-memory's `FactCoordinator`) before `put`, and
//! again before facts are injected into a prompt.

pub mod rank;

use std::fmt;
use std::future::Future;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::BoxError;
use crate::hash::ContentHash;
use crate::id::{ConversationId, SeqRange};

pub mod columns;
mod filter;
pub mod rules;
mod run;

pub use filter::{FactFilter, StatusFilter};
pub use run::{Merge, Merged, RollbackRecord, RolledBack, RunId, RunInfo, RunStatus};

/// The id a store gives a fact: unique within that store, never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FactId(pub u64);

impl fmt::Display for FactId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Whose fact it is: one conversation's, or one user's across all their conversations.
///
/// A user id follows the rules of a [`ConversationId`] (non-empty, at most 256
/// bytes, no control characters), so it is held as one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Scope {
    /// Facts that belong to one conversation.
    Conversation(ConversationId),
    /// Facts about one user, shared by all their conversations.
    User(ConversationId),
}

impl Scope {
    /// `"conversation"` or `"user"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Conversation(_) => "conversation",
            Self::User(_) => "user",
        }
    }

    /// The conversation or user id.
    pub fn id(&self) -> &ConversationId {
        match self {
            Self::Conversation(id) | Self::User(id) => id,
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind(), self.id())
    }
}

/// Which part of long-term memory a fact belongs to; each has its own budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Who the user is and what they prefer.
    UserProfile,
    /// What the agent learned while working: decisions, answers, corrections.
    AgentNotes,
}

impl Tier {
    /// Both tiers.
    pub const ALL: [Self; 2] = [Self::UserProfile, Self::AgentNotes];

    /// `"user_profile"` or `"agent_notes"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UserProfile => "user_profile",
            Self::AgentNotes => "agent_notes",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tier {
    type Err = FactError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "user_profile" => Ok(Self::UserProfile),
            "agent_notes" => Ok(Self::AgentNotes),
            other => Err(FactError::Invalid { reason: format!("unknown tier `{other}`") }),
        }
    }
}

/// Where a fact was learned: a conversation and the span of its messages.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FactSource {
    /// The conversation.
    pub conversation: ConversationId,
    /// The sequence numbers of the messages it came from.
    pub range: SeqRange,
}

impl FactSource {
    /// The messages in `range` of `conversation`.
    pub fn new(conversation: ConversationId, range: SeqRange) -> Self {
        Self { conversation, range }
    }
}

/// Whether a fact may be shown to a model.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", content = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum FactStatus {
    /// In use.
    Active,
    /// Set aside for review: listed, never searched or injected.
    Quarantined(String),
    /// Replaced by a later statement (a correction, a new value for the same subject), with what
    /// replaced it: kept as history, valid until it was replaced ([`Fact::valid_to_ms`]), never
    /// searched or injected. A later `put` of the same text makes it current again.
    Superseded(String),
}

/// A fact to store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct NewFact {
    /// Whose fact it is.
    pub scope: Scope,
    /// Its tier.
    pub tier: Tier,
    /// The fact itself, as the model will read it.
    pub text: String,
    /// Where it was learned, when it came from a conversation.
    pub source: Option<FactSource>,
}

impl NewFact {
    /// The longest fact text accepted, in characters.
    pub const MAX_CHARS: usize = 2_000;

    /// A fact with no source.
    pub fn new(scope: Scope, tier: Tier, text: impl Into<String>) -> Self {
        Self { scope, tier, text: text.into(), source: None }
    }

    /// The same fact, learned from `range` of `conversation`.
    pub fn from_source(mut self, conversation: ConversationId, range: SeqRange) -> Self {
        self.source = Some(FactSource::new(conversation, range));
        self
    }

    /// The same fact with `source` in place of whatever source it had (`None` clears it).
    #[must_use]
    pub fn with_source(mut self, source: Option<FactSource>) -> Self {
        self.source = source;
        self
    }

    /// Checks the text: not blank, at most [`Self::MAX_CHARS`] characters.
    ///
    /// # Errors
    ///
    /// [`FactError::Invalid`] naming the rule broken.
    pub fn check(&self) -> Result<(), FactError> {
        check_text(&self.text)
    }
}

/// Checks a fact's text: not blank, at most [`NewFact::MAX_CHARS`] characters.
///
/// # Errors
///
/// [`FactError::Invalid`] naming the rule broken.
pub fn check_text(text: &str) -> Result<(), FactError> {
    if text.trim().is_empty() {
        return Err(FactError::Invalid { reason: "a fact's text is blank".to_owned() });
    }
    let chars = text.chars().count();
    if chars > NewFact::MAX_CHARS {
        return Err(FactError::Invalid {
            reason: format!("a fact's text has {chars} characters, more than {}", NewFact::MAX_CHARS),
        });
    }
    Ok(())
}

/// A stored fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Fact {
    /// Its id in the store.
    pub id: FactId,
    /// Whose fact it is.
    pub scope: Scope,
    /// Its tier.
    pub tier: Tier,
    /// The text.
    pub text: String,
    /// Where it was first learned.
    pub source: Option<FactSource>,
    /// [`fact_hash`] of the tier and text.
    pub hash: ContentHash,
    /// When it was stored, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When its text or status last changed, in milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// Whether it may be shown to a model.
    pub status: FactStatus,
}

impl Fact {
    /// `new` as stored under `id`: active, with `hash` as its [`fact_hash`], created and last updated at `created_ms`.
    ///
    /// A store that reads a fact back from its columns sets the rest with
    /// [`Fact::with_updated_ms`] and [`Fact::with_status`].
    pub fn new(id: FactId, new: NewFact, hash: ContentHash, created_ms: u64) -> Self {
        Self {
            id,
            scope: new.scope,
            tier: new.tier,
            text: new.text,
            source: new.source,
            hash,
            created_ms,
            updated_ms: created_ms,
            status: FactStatus::Active,
        }
    }

    /// The same fact, last changed at `updated_ms`.
    #[must_use]
    pub fn with_updated_ms(mut self, updated_ms: u64) -> Self {
        self.updated_ms = updated_ms;
        self
    }

    /// The same fact with `status`.
    #[must_use]
    pub fn with_status(mut self, status: FactStatus) -> Self {
        self.status = status;
        self
    }

    /// The text's length in characters, the unit budgets are counted in.
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }

    /// Whether the fact is active (neither quarantined nor superseded).
    pub fn is_active(&self) -> bool {
        self.status == FactStatus::Active
    }

    /// When the fact became valid: when it was stored, in milliseconds since the Unix epoch.
    pub fn valid_from_ms(&self) -> u64 {
        self.created_ms
    }

    /// When the fact stopped being valid: when it was superseded (its last change); `None` while it is not.
    pub fn valid_to_ms(&self) -> Option<u64> {
        matches!(self.status, FactStatus::Superseded(_)).then_some(self.updated_ms)
    }

    /// Whether the fact held at `ms`: stored by then and not yet superseded. A quarantined fact
    /// held as far as time goes; whether it may be shown is its status's business.
    pub fn valid_at(&self, ms: u64) -> bool {
        self.valid_from_ms() <= ms && self.valid_to_ms().is_none_or(|to| ms < to)
    }
}

/// The identity of a fact's text within a scope: blake3 of the tier and the text with case and white space folded.
///
/// "I prefer  Rust." and "i prefer rust." are the same fact; "I prefer Rust"
/// without the full stop is another.
pub fn fact_hash(tier: Tier, text: &str) -> ContentHash {
    let mut hasher = blake3::Hasher::new_derive_key("tidemark 2026-11 fact text v1");
    hasher.update(tier.as_str().as_bytes());
    hasher.update(&[0]);
    let mut first = true;
    for word in text.split_whitespace() {
        if !first {
            hasher.update(b" ");
        }
        first = false;
        hasher.update(word.to_lowercase().as_bytes());
    }
    ContentHash::from_bytes(*hasher.finalize().as_bytes())
}

/// The current time in milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
}

/// The character budget of each tier, per scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FactBudgets {
    /// Characters of [`Tier::UserProfile`] facts one scope may hold.
    pub user_profile: usize,
    /// Characters of [`Tier::AgentNotes`] facts one scope may hold.
    pub agent_notes: usize,
}

impl FactBudgets {
    /// `user_profile` characters of profile and `agent_notes` of notes per scope.
    pub fn new(user_profile: usize, agent_notes: usize) -> Self {
        Self { user_profile, agent_notes }
    }

    /// The budget of `tier`.
    pub fn limit(&self, tier: Tier) -> usize {
        match tier {
            Tier::UserProfile => self.user_profile,
            Tier::AgentNotes => self.agent_notes,
        }
    }
}

impl Default for FactBudgets {
    /// 2,000 characters of profile and 8,000 of notes per scope: a few hundred tokens and a couple of thousand.
    fn default() -> Self {
        Self { user_profile: 2_000, agent_notes: 8_000 }
    }
}

/// What [`FactStore::put`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
#[non_exhaustive]
pub enum Put {
    /// The fact was new and is stored now.
    Inserted(Fact),
    /// The same fact was already stored (see [`fact_hash`]); nothing changed.
    Existing(Fact),
}

impl Put {
    /// The stored fact, new or old.
    pub fn fact(&self) -> &Fact {
        match self {
            Self::Inserted(fact) | Self::Existing(fact) => fact,
        }
    }

    /// The stored fact, new or old, taken out of the answer.
    pub fn into_fact(self) -> Fact {
        match self {
            Self::Inserted(fact) | Self::Existing(fact) => fact,
        }
    }

    /// Whether this call stored it.
    pub fn inserted(&self) -> bool {
        matches!(self, Self::Inserted(_))
    }
}

/// How much of a tier's budget a scope uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BudgetUsage {
    /// Characters held now, quarantined facts included (they still take room until deleted).
    pub used: usize,
    /// The budget.
    pub limit: usize,
}

impl BudgetUsage {
    /// `used` characters held against a budget of `limit`.
    pub fn new(used: usize, limit: usize) -> Self {
        Self { used, limit }
    }
}

/// A failure of a [`FactStore`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FactError {
    /// The write would pass the tier's budget for the scope; nothing was written.
    #[error("{tier} budget of {scope} exceeded: {used} characters used, {needed} more needed, limit {limit}")]
    OverBudget {
        /// The scope.
        scope: Scope,
        /// The tier.
        tier: Tier,
        /// Characters in use now.
        used: usize,
        /// Characters the write would add.
        needed: usize,
        /// The budget.
        limit: usize,
    },
    /// No fact has this id.
    #[error("no fact with id {0}")]
    NotFound(FactId),
    /// An update would make the fact a copy of another one in its scope and tier.
    #[error("the new text duplicates fact {0} in the same scope and tier")]
    Duplicate(FactId),
    /// The fact breaks a rule (blank text, too long, unknown tier name).
    #[error("invalid fact: {reason}")]
    Invalid {
        /// Which rule.
        reason: String,
    },
    /// No consolidation run has this id.
    #[error("no consolidation run with id {0}")]
    RunNotFound(RunId),
    /// A consolidation's sources are not all active facts of the merged fact's scope and tier.
    #[error("consolidation refused: {reason}")]
    BadMerge {
        /// What is wrong with it.
        reason: String,
    },
    /// A rollback could not put these facts back (their ids are taken, or the write failed); nothing was changed.
    #[error("run {run} could not be rolled back: facts {} could not be restored", ids_text(.facts))]
    RestoreConflict {
        /// The run.
        run: RunId,
        /// The sources that could not be restored.
        facts: Vec<FactId>,
    },
    /// The data was written by a newer schema than this build understands.
    #[error("fact store schema version {found} is newer than the newest this build supports ({supported})")]
    SchemaTooNew {
        /// The version found.
        found: u32,
        /// The newest version supported.
        supported: u32,
    },
    /// The storage backend failed.
    #[error("fact store backend failed during {operation}")]
    Backend {
        /// The operation, such as `"put"`.
        operation: &'static str,
        /// The backend's error.
        #[source]
        source: BoxError,
    },
}

fn ids_text(ids: &[FactId]) -> String {
    ids.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

impl FactError {
    /// A [`FactError::Backend`] for `operation`.
    pub fn backend(operation: &'static str, source: impl Into<BoxError>) -> Self {
        Self::Backend { operation, source: source.into() }
    }
}

/// Where long-term facts are kept.
///
/// The contract, checked by tidemark-testkit's `conformance::facts` suite:
///
/// - `put` is idempotent on (scope, tier, [`fact_hash`]): a second put of the
///   same fact returns [`Put::Existing`] with the first one's id and changes
///   nothing, not even the generation; unless the fact was superseded, which
///   the put makes active again (its update time moves, the generation too).
/// - `supersede` keeps a fact as history: listed, never searched; its
///   update time is when it stopped being valid.
/// - `put` and `update` check the tier's budget for the scope against the
///   characters stored (quarantined facts included) and write nothing when it
///   would be passed.
/// - `search` returns active facts only, best match first; `list` returns
///   facts in id order.
/// - Every change (insert, update, delete, quarantine, consolidate, rollback)
///   bumps `generation` by at least one; reads never do.
/// - `consolidate` and `rollback` are atomic: a failure changes nothing, and a
///   rollback restores every source byte for byte (ids and times included).
pub trait FactStore: Send + Sync {
    /// Store `fact` unless the same one is already there.
    fn put(&self, fact: NewFact) -> impl Future<Output = Result<Put, FactError>> + Send;

    /// The fact with this id, if any.
    fn get(&self, id: FactId) -> impl Future<Output = Result<Option<Fact>, FactError>> + Send;

    /// The facts `filter` lets through, in id order.
    fn list(&self, filter: &FactFilter) -> impl Future<Output = Result<Vec<Fact>, FactError>> + Send;

    /// Active facts sharing at least one keyword with `query`, best match first, at most `limit`.
    ///
    /// Keywords are runs of letters and digits, compared without case. With
    /// `scope`, only that scope's facts are searched.
    fn search(
        &self,
        scope: Option<&Scope>,
        query: &str,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Fact>, FactError>> + Send;

    /// Replace a fact's text (its hash and update time follow).
    fn update(&self, id: FactId, text: String) -> impl Future<Output = Result<Fact, FactError>> + Send;

    /// Remove a fact; `false` if there was none with this id.
    fn delete(&self, id: FactId) -> impl Future<Output = Result<bool, FactError>> + Send;

    /// Set a fact aside with `reason`: still listed, never searched or injected.
    fn quarantine(&self, id: FactId, reason: String) -> impl Future<Output = Result<Fact, FactError>> + Send;

    /// Mark a fact as replaced by a later statement, saying by what: kept and listed as history, valid until now, never searched or injected.
    ///
    /// A later `put` of the same text makes it current again (a value that
    /// came back). There is no default, as for every method here: a store
    /// that kept superseded facts active would serve stale values as current.
    fn supersede(&self, id: FactId, reason: String) -> impl Future<Output = Result<Fact, FactError>> + Send;

    /// How much of `tier`'s budget `scope` uses.
    fn usage(&self, scope: &Scope, tier: Tier)
    -> impl Future<Output = Result<BudgetUsage, FactError>> + Send;

    /// A number that every change to the store raises.
    fn generation(&self) -> impl Future<Output = Result<u64, FactError>> + Send;

    /// Apply a consolidation run in one atomic write: for every merge, record the sources in full (the
    /// rollback record), retire them, and store the merged fact; then return the new run.
    ///
    /// Either every merge is applied or none is. Each merge's sources must be
    /// distinct active facts of the merged fact's scope and tier
    /// ([`FactError::BadMerge`] otherwise); the merged text must not duplicate a
    /// fact outside its sources ([`FactError::Duplicate`]). Budgets are checked
    /// after the sources are retired.
    fn consolidate(
        &self,
        pass: &str,
        merges: Vec<Merge>,
    ) -> impl Future<Output = Result<(RunId, Vec<Merged>), FactError>> + Send;

    /// Mark a run as verified: [`recover`](FactStore::unverified_runs) no longer offers it.
    fn finish_run(&self, run: RunId) -> impl Future<Output = Result<(), FactError>> + Send;

    /// Undo a run in one atomic write: put every source back exactly as it was
    /// (id, text, times, status), then remove the merged facts.
    ///
    /// A run already rolled back is left alone and reported with zero counts.
    /// When a source cannot be restored (its id is taken, or its text was
    /// stored again in its scope and tier since the run), nothing changes and
    /// [`FactError::RestoreConflict`] names the sources.
    fn rollback(&self, run: RunId) -> impl Future<Output = Result<RolledBack, FactError>> + Send;

    /// The runs, oldest first.
    fn runs(&self) -> impl Future<Output = Result<Vec<RunInfo>, FactError>> + Send;

    /// The rollback records of one run, in merge order.
    fn run_records(&self, run: RunId) -> impl Future<Output = Result<Vec<RollbackRecord>, FactError>> + Send;

    /// Runs that were applied but never marked verified, as a crash between the two leaves them.
    fn unverified_runs(&self) -> impl Future<Output = Result<Vec<RunId>, FactError>> + Send {
        async move {
            Ok(self
                .runs()
                .await?
                .into_iter()
                .filter(|run| run.status == RunStatus::Applied)
                .map(|run| run.id)
                .collect())
        }
    }
}

crate::forward! {
    impl FactStore {
        fn put(&self, fact: NewFact) -> impl Future<Output = Result<Put, FactError>> + Send {
            (**self).put(fact)
        }

        fn get(&self, id: FactId) -> impl Future<Output = Result<Option<Fact>, FactError>> + Send {
            (**self).get(id)
        }

        fn list(&self, filter: &FactFilter) -> impl Future<Output = Result<Vec<Fact>, FactError>> + Send {
            (**self).list(filter)
        }

        fn search(
            &self,
            scope: Option<&Scope>,
            query: &str,
            limit: usize,
        ) -> impl Future<Output = Result<Vec<Fact>, FactError>> + Send {
            (**self).search(scope, query, limit)
        }

        fn update(&self, id: FactId, text: String) -> impl Future<Output = Result<Fact, FactError>> + Send {
            (**self).update(id, text)
        }

        fn delete(&self, id: FactId) -> impl Future<Output = Result<bool, FactError>> + Send {
            (**self).delete(id)
        }

        fn quarantine(&self, id: FactId, reason: String) -> impl Future<Output = Result<Fact, FactError>> + Send {
            (**self).quarantine(id, reason)
        }

        fn supersede(&self, id: FactId, reason: String) -> impl Future<Output = Result<Fact, FactError>> + Send {
            (**self).supersede(id, reason)
        }

        fn usage(&self, scope: &Scope, tier: Tier) -> impl Future<Output = Result<BudgetUsage, FactError>> + Send {
            (**self).usage(scope, tier)
        }

        fn generation(&self) -> impl Future<Output = Result<u64, FactError>> + Send {
            (**self).generation()
        }

        fn consolidate(
            &self,
            pass: &str,
            merges: Vec<Merge>,
        ) -> impl Future<Output = Result<(RunId, Vec<Merged>), FactError>> + Send {
            (**self).consolidate(pass, merges)
        }

        fn finish_run(&self, run: RunId) -> impl Future<Output = Result<(), FactError>> + Send {
            (**self).finish_run(run)
        }

        fn rollback(&self, run: RunId) -> impl Future<Output = Result<RolledBack, FactError>> + Send {
            (**self).rollback(run)
        }

        fn runs(&self) -> impl Future<Output = Result<Vec<RunInfo>, FactError>> + Send {
            (**self).runs()
        }

        fn run_records(&self, run: RunId) -> impl Future<Output = Result<Vec<RollbackRecord>, FactError>> + Send {
            (**self).run_records(run)
        }

        fn unverified_runs(&self) -> impl Future<Output = Result<Vec<RunId>, FactError>> + Send {
            (**self).unverified_runs()
        }
    }
}

/// The keywords of `text` as search and ranking see them: runs of letters and digits, lowercased.
pub fn keywords(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).map(str::to_lowercase)
}

/// The runs of letters and digits in `text`, as written: the words [`keywords`] lowers.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty())
}

/// `word` in lower case as [`keywords`] gives it, borrowed when it already is and lowered into
/// `buffer` otherwise, so a caller going over many words allocates only for the non-ASCII ones.
pub(crate) fn lowered<'a>(word: &'a str, buffer: &'a mut String) -> &'a str {
    if !word.is_ascii() {
        *buffer = word.to_lowercase();
        buffer.as_str()
    } else if word.bytes().any(|byte| byte.is_ascii_uppercase()) {
        buffer.clear();
        buffer.push_str(word);
        buffer.make_ascii_lowercase();
        buffer.as_str()
    } else {
        word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fact_hash_folds_case_and_white_space_only() {
        let a = fact_hash(Tier::UserProfile, "I prefer  Rust.");
        assert_eq!(a, fact_hash(Tier::UserProfile, " i prefer\nrust. "));
        assert_ne!(a, fact_hash(Tier::UserProfile, "I prefer Rust"));
        assert_ne!(a, fact_hash(Tier::AgentNotes, "I prefer Rust."));
    }

    #[test]
    fn blank_and_overlong_texts_are_refused() {
        assert!(check_text(" \n").is_err());
        assert!(check_text(&"x".repeat(NewFact::MAX_CHARS + 1)).is_err());
        assert!(check_text(&"é".repeat(NewFact::MAX_CHARS)).is_ok());
    }

    #[test]
    fn tiers_round_trip_through_their_names() {
        for tier in Tier::ALL {
            assert_eq!(tier.as_str().parse::<Tier>().ok(), Some(tier));
        }
        assert!("profile".parse::<Tier>().is_err());
    }

    #[test]
    fn facts_round_trip_through_json() {
        let id = ConversationId::new("c").unwrap();
        let fact = Fact {
            id: FactId(7),
            scope: Scope::User(id.clone()),
            tier: Tier::UserProfile,
            text: "Prefers metric units.".to_owned(),
            source: Some(FactSource { conversation: id, range: SeqRange::default() }),
            hash: fact_hash(Tier::UserProfile, "Prefers metric units."),
            created_ms: 1,
            updated_ms: 2,
            status: FactStatus::Quarantined("review".to_owned()),
        };
        let json = serde_json::to_string(&fact).unwrap();
        assert_eq!(serde_json::from_str::<Fact>(&json).unwrap(), fact);
    }

    #[test]
    fn the_constructors_set_every_field() {
        let id = ConversationId::new("c").unwrap();
        let new = NewFact::new(Scope::User(id.clone()), Tier::AgentNotes, "Deploys on Tuesday.")
            .from_source(id.clone(), SeqRange::default());
        let hash = fact_hash(Tier::AgentNotes, "Deploys on Tuesday.");
        let built = Fact::new(FactId(3), new, hash, 10)
            .with_updated_ms(20)
            .with_status(FactStatus::Quarantined("stale".to_owned()));
        let literal = Fact {
            id: FactId(3),
            scope: Scope::User(id.clone()),
            tier: Tier::AgentNotes,
            text: "Deploys on Tuesday.".to_owned(),
            source: Some(FactSource { conversation: id, range: SeqRange::default() }),
            hash,
            created_ms: 10,
            updated_ms: 20,
            status: FactStatus::Quarantined("stale".to_owned()),
        };
        assert_eq!(built, literal);
        let fresh = Fact::new(FactId(4), NewFact::new(literal.scope.clone(), Tier::AgentNotes, "x"), hash, 7);
        assert_eq!((fresh.updated_ms, fresh.is_active(), fresh.source), (7, true, None));
    }

    #[test]
    fn keywords_split_on_anything_but_letters_and_digits() {
        let words: Vec<String> = keywords("Use 4-space tabs, NOT Ünïcode!").collect();
        assert_eq!(words, ["use", "4", "space", "tabs", "not", "ünïcode"]);
    }
}

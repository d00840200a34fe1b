//! [`FactCoordinator`]: extracts facts from evicted turns before compaction, scans every write, and injects relevant facts into later prompts.
//!
//! Plug it into a `tidemark-memory` `CompactingMemory` as the
//! observer. Before the compactor runs, [`on_pre_compress`] receives exactly
//! the evicted messages; the [`Extractor`] proposes facts, each goes through
//! the [`Scanner`] and the store's budget, and the coordinator answers with a
//! short hint naming what it kept, which the compactor puts into its summary
//! request. The memory bounds the call with its hint time limit, and a failure
//! only marks the compaction event: compaction goes on.
//!
//! Before each model call, [`inject`](FactCoordinator::inject) ranks the facts
//! of the conversation (and of its user, when one is set) against the latest
//! user message with BM25 and returns one delimited message with the best of
//! them. The facts are read once into a frozen snapshot per conversation,
//! rescanned (a fact that now fails the scan is quarantined, never sent; a
//! text found safe is remembered by its BLAKE3 digest, so a snapshot read
//! again after one new fact scans that fact alone), and reused until the coordinator's generation moves: every fact write, every
//! compaction event and every session switch bumps it, so a fact extracted
//! during a compaction is injected on the very next turn.
//!
//! The per-conversation state (session counters, the lineage of earlier
//! conversation ids, and the snapshots) lives in bounded caches of
//! [`FactCoordinator::DEFAULT_CONVERSATIONS`] conversations each, so a
//! long-running service that sees many conversations does not grow without
//! limit; [`FactCoordinator::with_conversation_capacity`] changes the bound. A
//! conversation pushed out of the cache starts over with zeroed counters and no
//! inherited lineage, and its snapshot is read again from the store.
//!
//! [`on_pre_compress`]: CompactionObserver::on_pre_compress

mod changes;
use changes::{CHANGE_CHARS, readable, speaker, tally};
mod inject;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use quick_cache::unsync::Cache;
use tidemark_core::fact::rank::Corpus;
use tidemark_core::{
    CompactionEvent, CompactionObserver, ContextError, ContextRequest, ContextSource, ConversationId, Fact,
    FactError, FactFilter, FactId, FactStore, Message, NewFact, ObserverError, Put, Scope, SeqRange,
    StatusFilter, Tier, TokenCounter,
};

pub use inject::{CLOSE, Injection, OPEN};

use crate::extract::{Candidate, Extractor};
use crate::recall::supersede::{Topic, change_sentence, statement};
use crate::scan::{Scanner, SecretKind, Threat, Verdict};
use inject::render;

/// Why [`FactCoordinator::remember`] did not store a fact.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RememberError {
    /// The security scan refused the text.
    #[error("the security scan rejected the fact")]
    Rejected(#[source] Threat),
    /// The store refused or failed (over budget, invalid, backend).
    #[error("the fact store refused the fact")]
    Store(#[from] FactError),
}

/// Fact writes that failed while the coordinator stored what it extracted before a compaction.
///
/// The compaction goes on regardless; the memory records this error, with the
/// first failure as its source, on the compaction event.
#[derive(Debug, thiserror::Error)]
#[error("{} fact write(s) failed", 1 + .more.len())]
#[non_exhaustive]
pub struct ExtractError {
    /// The first write that failed.
    #[source]
    pub first: FactError,
    /// The writes that failed after it, in order.
    pub more: Vec<FactError>,
}

/// What [`FactCoordinator::remember`] stored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Remembered {
    /// The store's answer: the new fact, or the one already there.
    pub put: Put,
    /// The kinds of secret redacted from the text before it was stored.
    pub redacted: Vec<SecretKind>,
}

/// Per-session counters, kept per conversation id and moved by session switches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionCounters {
    /// Compactions this session has seen.
    pub compactions: u64,
    /// Facts extracted and newly stored.
    pub extracted: u64,
    /// Extracted facts that were already stored.
    pub duplicates: u64,
    /// Extracted facts the scan rejected.
    pub rejected: u64,
    /// Extracted facts refused for the budget.
    pub over_budget: u64,
    /// Facts injected into prompts.
    pub injected: u64,
    /// Stored facts quarantined because a later turn changed what they say.
    pub replaced: u64,
}

/// One session's state: its counters and the conversations whose facts it inherits.
#[derive(Debug, Clone, Default)]
struct Session {
    counters: SessionCounters,
    /// Earlier conversation ids of this session, oldest first (not including the current one).
    ancestors: Vec<ConversationId>,
}

/// The facts of one conversation's scopes, scanned, as of one generation.
#[derive(Debug)]
struct Snapshot {
    generation: u64,
    store_generation: u64,
    shown: Arc<Shown>,
}

/// The scanned facts a conversation may be shown, with their texts read once for ranking.
#[derive(Debug)]
struct Shown {
    facts: Vec<Fact>,
    /// The facts' texts, in the same order, so a load ranks them without reading them again.
    corpus: Corpus,
}

/// Extraction before compaction, a security scan on every write and read, and injection of relevant facts; see the module docs.
///
/// ```
/// use tidemark_core::{CompactionObserver, ConversationId, FactFilter, FactStore, Message, Seq, SeqRange};
/// use tidemark_memory::InMemoryStore;
/// use tidemark_facts::FactCoordinator;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = InMemoryStore::new();
/// let facts = FactCoordinator::new(store.clone());
/// let id = ConversationId::new("support-17")?;
/// let evicted = [Message::user("I prefer answers in metric units."), Message::assistant("Noted.")];
///
/// // What a CompactingMemory does before it summarizes these two messages:
/// let hint = facts.on_pre_compress(&id, SeqRange::new(Seq(0), Seq(2)), &evicted).await?;
/// assert!(hint.unwrap().contains("metric"));
///
/// let block = facts.inject(&id, "How far is it to Lyon?").await?.expect("a profile fact is always offered");
/// assert!(block.text().contains("metric units"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub struct FactCoordinator<S> {
    store: S,
    scanner: Scanner,
    extractor: Extractor,
    injection: Injection,
    user: Option<ConversationId>,
    generation: AtomicU64,
    capacity: usize,
    sessions: Mutex<Cache<ConversationId, Session>>,
    snapshots: Mutex<Cache<ConversationId, Snapshot>>,
    /// The BLAKE3 digests of fact texts this coordinator's scanner found safe to inject: a snapshot
    /// read again after one new fact scans that fact, not every fact of the conversation.
    cleared: Mutex<Cache<[u8; 32], ()>>,
}

impl<S> std::fmt::Debug for FactCoordinator<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FactCoordinator")
            .field("user", &self.user)
            .field("injection", &self.injection)
            .field("generation", &self.generation.load(Ordering::Relaxed))
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl<S> FactCoordinator<S> {
    /// How many conversations the coordinator keeps state for unless told otherwise.
    ///
    /// Each cached conversation costs its counters, its lineage and one
    /// snapshot of its facts; a few thousand cover the conversations a process
    /// serves at once while keeping a long-running service's memory flat.
    pub const DEFAULT_CONVERSATIONS: usize = 4_096;

    /// How many fact texts found safe to inject are remembered (32 bytes of digest each).
    const CLEARED_TEXTS: usize = 65_536;

    /// A coordinator over `store` with the default scanner, extractor and injection settings, and no user scope.
    pub fn new(store: S) -> Self {
        let capacity = Self::DEFAULT_CONVERSATIONS;
        Self {
            store,
            scanner: Scanner::new(),
            extractor: Extractor::new(),
            injection: Injection::default(),
            user: None,
            generation: AtomicU64::new(0),
            capacity,
            sessions: Mutex::new(Cache::new(capacity)),
            snapshots: Mutex::new(Cache::new(capacity)),
            cleared: Mutex::new(Cache::new(Self::CLEARED_TEXTS)),
        }
    }

    /// The same coordinator, keeping state for at most about `capacity` conversations (at least one).
    ///
    /// Call it while building the coordinator: the state cached so far is
    /// dropped. The least useful conversations are evicted first; see the
    /// [module docs](self) for what eviction costs.
    #[must_use]
    pub fn with_conversation_capacity(mut self, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        self.capacity = capacity;
        self.sessions = Mutex::new(Cache::new(capacity));
        self.snapshots = Mutex::new(Cache::new(capacity));
        self
    }

    /// How many conversations the coordinator keeps state for at most.
    pub fn conversation_capacity(&self) -> usize {
        self.capacity
    }

    /// The same coordinator, keeping profile facts in `user`'s scope, shared by all their conversations.
    ///
    /// Without a user, profile facts stay in the conversation's scope.
    pub fn for_user(mut self, user: ConversationId) -> Self {
        self.user = Some(user);
        self
    }

    /// The same coordinator with another extractor.
    pub fn with_extractor(mut self, extractor: Extractor) -> Self {
        self.extractor = extractor;
        self
    }

    /// The same coordinator with other injection settings.
    pub fn with_injection(mut self, injection: Injection) -> Self {
        self.injection = injection;
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The coordinator's generation: it moves on every fact write, compaction and session switch.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// The counters of the session now using `conversation` (zero once it has left the cache).
    pub fn counters(&self, conversation: &ConversationId) -> SessionCounters {
        locked(&self.sessions).get(conversation).map(|session| session.counters).unwrap_or_default()
    }

    /// The earlier conversation ids whose conversation-scoped facts `conversation` still sees, oldest first.
    pub fn ancestors(&self, conversation: &ConversationId) -> Vec<ConversationId> {
        locked(&self.sessions).get(conversation).map(|session| session.ancestors.clone()).unwrap_or_default()
    }

    fn bump(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn count(&self, conversation: &ConversationId, change: impl FnOnce(&mut SessionCounters)) {
        let mut sessions = locked(&self.sessions);
        if let Some(mut session) = sessions.get_mut(conversation) {
            change(&mut session.counters);
            return;
        }
        let mut session = Session::default();
        change(&mut session.counters);
        sessions.insert(conversation.clone(), session);
    }

    /// The scope a fact of `tier` learned in `conversation` goes to.
    fn scope_for(&self, conversation: &ConversationId, tier: Tier) -> Scope {
        match (tier, &self.user) {
            (Tier::UserProfile, Some(user)) => Scope::User(user.clone()),
            _ => Scope::Conversation(conversation.clone()),
        }
    }

    /// Every scope whose facts `conversation` may be shown.
    fn scopes(&self, conversation: &ConversationId) -> Vec<Scope> {
        let mut scopes: Vec<Scope> =
            self.ancestors(conversation).into_iter().map(Scope::Conversation).collect();
        scopes.push(Scope::Conversation(conversation.clone()));
        if let Some(user) = &self.user {
            scopes.push(Scope::User(user.clone()));
        }
        scopes
    }
}

impl<S: FactStore> FactCoordinator<S> {
    /// Scan `fact` and store it: rejected texts are refused, secrets are redacted first.
    ///
    /// # Errors
    ///
    /// [`RememberError::Rejected`] with the threat found, or
    /// [`RememberError::Store`] when the store refuses (over budget, invalid) or fails.
    pub async fn remember(&self, mut fact: NewFact) -> Result<Remembered, RememberError> {
        let redacted = match self.scanner.scan(&fact.text) {
            Verdict::Clean => Vec::new(),
            Verdict::Redacted { text, secrets } => {
                fact.text = text;
                secrets
            }
            Verdict::Rejected(threat) => return Err(RememberError::Rejected(threat)),
            // A verdict this version does not know is not proof that the text is safe.
            _ => return Err(RememberError::Rejected(Threat::ScannerUnavailable)),
        };
        let put = self.store.put(fact).await?;
        if put.inserted() {
            self.bump();
        }
        Ok(Remembered { put, redacted })
    }

    /// Store `text` as a note the agent chose to keep, in `conversation`'s scope, through the same scan as [`remember`](Self::remember).
    ///
    /// # Errors
    ///
    /// As [`remember`](Self::remember).
    pub async fn note(&self, conversation: &ConversationId, text: &str) -> Result<Remembered, RememberError> {
        let fact = NewFact::new(self.scope_for(conversation, Tier::AgentNotes), Tier::AgentNotes, text);
        self.remember(fact).await
    }

    /// Every fact `conversation` may be shown (its own, its ancestors' and its user's), each found safe by the scan, in scope order.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn visible(&self, conversation: &ConversationId) -> Result<Vec<Fact>, FactError> {
        Ok(self.snapshot(conversation).await?.facts.clone())
    }

    /// The facts `conversation` may be shown that share a keyword with `query`, best first, at most `limit`.
    ///
    /// The same facts an injection chooses from (its own, its ancestors' and
    /// its user's, each found safe by the scan) ranked by the same BM25, so a
    /// model that searches its facts never reads one a load would withhold.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn search(
        &self,
        conversation: &ConversationId,
        query: &str,
        limit: usize,
    ) -> Result<Vec<Fact>, FactError> {
        let shown = self.snapshot(conversation).await?;
        let (facts, scores) = (&shown.facts, shown.corpus.scores(query));
        let mut order: Vec<usize> = (0..facts.len()).filter(|&index| scores[index] > 0.0).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(facts[b].id.cmp(&facts[a].id)));
        Ok(order.into_iter().take(limit).map(|index| facts[index].clone()).collect())
    }

    /// Delete the fact `id` when `conversation` may be shown it; `false` when there is no such fact in its scopes.
    ///
    /// A fact of another conversation or user is not touched, and is
    /// reported as absent, so a caller cannot learn that it exists.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn forget(&self, conversation: &ConversationId, id: FactId) -> Result<bool, FactError> {
        let Some(fact) = self.store.get(id).await? else { return Ok(false) };
        if !self.scopes(conversation).contains(&fact.scope) {
            return Ok(false);
        }
        let deleted = self.store.delete(id).await?;
        if deleted {
            self.bump();
        }
        Ok(deleted)
    }

    /// Facts set aside by the scan or by hand, for a person to review or delete.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn quarantined(&self, scope: Option<Scope>) -> Result<Vec<Fact>, FactError> {
        self.store.list(&FactFilter::new(scope, None, StatusFilter::Quarantined)).await
    }

    /// The facts of `scope` (every scope when `None`) that held at `ms`, milliseconds since the Unix epoch: stored by then and not yet superseded, quarantined ones left out; in id order.
    ///
    /// A fact whose value came back after it was superseded is active again
    /// and counts as holding from when it was first stored.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn valid_at(&self, scope: Option<Scope>, ms: u64) -> Result<Vec<Fact>, FactError> {
        let mut facts = self.store.list(&FactFilter::new(scope, None, StatusFilter::Any)).await?;
        facts.retain(|fact| {
            fact.valid_at(ms) && !matches!(fact.status, tidemark_core::FactStatus::Quarantined(_))
        });
        Ok(facts)
    }

    /// The facts a later statement replaced (corrections, new values for the same subject), each valid until [`Fact::valid_to_ms`].
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn superseded(&self, scope: Option<Scope>) -> Result<Vec<Fact>, FactError> {
        self.store.list(&FactFilter::new(scope, None, StatusFilter::Superseded)).await
    }

    /// The scanned facts `conversation` may be shown, from the snapshot when it is current.
    async fn snapshot(&self, conversation: &ConversationId) -> Result<Arc<Shown>, FactError> {
        let generation = self.generation();
        let store_generation = self.store.generation().await?;
        if let Some(snapshot) = locked(&self.snapshots).get(conversation)
            && snapshot.generation == generation
            && snapshot.store_generation == store_generation
        {
            return Ok(Arc::clone(&snapshot.shown));
        }
        let mut facts = Vec::new();
        for scope in self.scopes(conversation) {
            for fact in self.store.list(&FactFilter::scope(scope)).await? {
                if let Some(reason) = self.unsafe_to_inject(&fact) {
                    tracing::warn!(fact = %fact.id, %reason, "quarantining a stored fact that fails the scan");
                    self.store.quarantine(fact.id, reason.to_string()).await?;
                    continue;
                }
                facts.push(fact);
            }
        }
        let texts: Vec<&str> = facts.iter().map(|fact| fact.text.as_str()).collect();
        let corpus = Corpus::new(&texts);
        let shown = Arc::new(Shown { facts, corpus });
        // The quarantines above moved the store's generation; record where it stands now.
        let store_generation = self.store.generation().await?;
        locked(&self.snapshots).insert(
            conversation.clone(),
            Snapshot { generation, store_generation, shown: Arc::clone(&shown) },
        );
        Ok(shown)
    }

    /// Why a stored fact must not reach a model, if it must not.
    ///
    /// A text found safe once is not scanned again: the scanner is fixed for
    /// the coordinator's life, so the same text has the same verdict.
    fn unsafe_to_inject(&self, fact: &Fact) -> Option<Unsafe> {
        let digest: [u8; 32] = blake3::hash(fact.text.as_bytes()).into();
        if locked(&self.cleared).get(&digest).is_some() {
            return None;
        }
        if fact.text.contains(OPEN) || fact.text.contains(CLOSE) {
            return Some(Unsafe::Delimiter);
        }
        match self.scanner.scan(&fact.text) {
            Verdict::Clean => {
                locked(&self.cleared).insert(digest, ());
                None
            }
            Verdict::Rejected(threat) => Some(Unsafe::Threat(threat)),
            Verdict::Redacted { secrets, .. } => Some(Unsafe::Secret(secrets)),
            _ => Some(Unsafe::Threat(Threat::ScannerUnavailable)),
        }
    }

    /// One delimited message with the facts most relevant to `latest_user_message`, or `None` when there are none.
    ///
    /// Profile facts are always candidates (they say who the user is); notes
    /// are candidates when they share a keyword with the message. Candidates
    /// are ranked by BM25, profile first among equals, and taken while they
    /// fit in [`Injection::top_k`] and [`Injection::max_tokens`].
    ///
    /// # Errors
    ///
    /// The store's error; nothing is cached from a failed call.
    pub async fn inject(
        &self,
        conversation: &ConversationId,
        latest_user_message: &str,
    ) -> Result<Option<Message>, FactError> {
        let injection = &self.injection;
        self.block(conversation, latest_user_message, injection.max_tokens, &*injection.counter).await
    }

    /// The block of facts for `query`, at most [`Injection::top_k`] facts in at most `max_tokens` as `counter` counts.
    async fn block(
        &self,
        conversation: &ConversationId,
        query: &str,
        max_tokens: u32,
        counter: &dyn TokenCounter,
    ) -> Result<Option<Message>, FactError> {
        let shown = self.snapshot(conversation).await?;
        let (facts, scores) = (&shown.facts, shown.corpus.scores(query));
        let mut order: Vec<usize> = (0..facts.len())
            .filter(|&index| scores[index] > 0.0 || facts[index].tier == Tier::UserProfile)
            .collect();
        order.sort_by(|&a, &b| {
            scores[b]
                .total_cmp(&scores[a])
                .then((facts[a].tier != Tier::UserProfile).cmp(&(facts[b].tier != Tier::UserProfile)))
                .then(facts[b].id.cmp(&facts[a].id))
        });
        let mut chosen: Vec<&Fact> = Vec::new();
        for index in order {
            if chosen.len() >= self.injection.top_k {
                break;
            }
            chosen.push(&facts[index]);
            if counter.count(&render(&chosen)) > max_tokens {
                chosen.pop();
            }
        }
        if chosen.is_empty() {
            return Ok(None);
        }
        let injected = chosen.len() as u64;
        self.count(conversation, |counters| counters.injected += injected);
        Ok(Some(render(&chosen)))
    }

    /// Stores what the extractor finds in `evicted`; returns the hint, or the store failures.
    async fn extract(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> Result<Option<String>, ExtractError> {
        let mut kept: Vec<Candidate> = Vec::new();
        let mut failures: Vec<FactError> = Vec::new();
        let mut counters = SessionCounters::default();
        let changes: Vec<(usize, Topic)> = evicted
            .iter()
            .enumerate()
            .filter_map(|(at, message)| Some((at, Topic::of_stated_change(&readable(message))?)))
            .collect();
        // Before the new facts are stored, so that a fact taken from the changing turn is never weighed against it.
        let mut changed: Vec<(usize, Scope, Tier)> = Vec::new();
        match self.retire_replaced(conversation, &changes, evicted.len(), &mut changed).await {
            Ok(replaced) => counters.replaced = replaced,
            Err(error) => failures.push(error),
        }
        // The messages a current fact was stored from.
        let mut stored_from: Vec<usize> = Vec::new();
        for candidate in self.extractor.extract(evicted) {
            // A statement a later turn of the same span changes is kept as history, not as current.
            let topic = Topic::of_statement(statement(&candidate.text));
            let stale = changes
                .iter()
                .find(|(at, change)| *at > candidate.message && change.replaces_clearly(&topic))
                .map(|(at, _)| *at);
            let scope = self.scope_for(conversation, candidate.tier);
            let fact = NewFact::new(scope.clone(), candidate.tier, candidate.text.clone())
                .from_source(conversation.clone(), range);
            let remembered = self.remember(fact).await;
            if let (Some(at), Ok(Remembered { put, .. })) = (stale, &remembered) {
                let reason =
                    format!("replaced by a later turn (evicted message {} of {})", at + 1, evicted.len());
                match self.store.supersede(put.fact().id, reason).await {
                    Ok(_) => {
                        counters.replaced += 1;
                        changed.push((at, scope, candidate.tier));
                    }
                    Err(FactError::NotFound(_)) => {}
                    Err(error) => failures.push(error),
                }
                continue;
            }
            if tally(conversation, remembered, &mut counters, &mut failures) {
                stored_from.push(candidate.message);
                kept.push(candidate);
            }
        }
        // A change that replaced a fact is the subject's value now, whether or not the extractor
        // kept its sentence: stored beside what it replaced. (A change that replaced nothing is
        // left to the extractor: "use thiserror instead of manual impls" is a request, not a fact.)
        for (at, _) in &changes {
            if stored_from.contains(at) {
                continue;
            }
            let Some((_, scope, tier)) = changed.iter().find(|(from, ..)| from == at).cloned() else {
                continue;
            };
            let Some(message) = evicted.get(*at) else { continue };
            let Some(sentence) = change_sentence(&readable(message), CHANGE_CHARS) else { continue };
            let text = format!("Correction from the {}: \"{sentence}\"", speaker(message));
            let fact = NewFact::new(scope, tier, text).from_source(conversation.clone(), range);
            tally(conversation, self.remember(fact).await, &mut counters, &mut failures);
        }
        self.count(conversation, |session| {
            session.extracted += counters.extracted;
            session.duplicates += counters.duplicates;
            session.rejected += counters.rejected;
            session.over_budget += counters.over_budget;
            session.replaced += counters.replaced;
        });
        let mut failures = failures.into_iter();
        if let Some(first) = failures.next() {
            return Err(ExtractError { first, more: failures.collect() });
        }
        Ok(hint(&kept))
    }
}

/// The hint for the summarizer: what was saved, shortened to a few hundred characters.
fn hint(kept: &[Candidate]) -> Option<String> {
    if kept.is_empty() {
        return None;
    }
    let mut text = format!("Saved to long-term memory ({}); keep these points in the summary:", kept.len());
    for candidate in kept {
        let item = format!(" [{}] {}", candidate.kind.as_str(), candidate.text);
        if text.len() + item.len() > 600 {
            text.push_str(" …");
            break;
        }
        text.push_str(&item);
    }
    Some(text)
}

/// The facts block of [`inject`](FactCoordinator::inject), as a context source of a memory.
///
/// The facts are ranked against [`ContextRequest::query`] and packed into
/// [`ContextRequest::max_tokens`] as [`ContextRequest::counter`] counts them,
/// so the memory's budget, not [`Injection::max_tokens`], sizes the block;
/// [`Injection::top_k`] still bounds it. A store failure is the source's error,
/// and the memory loads without the block.
impl<S: FactStore> ContextSource for FactCoordinator<S> {
    async fn context(&self, request: &ContextRequest<'_>) -> Result<Option<Message>, ContextError> {
        self.block(request.conversation(), request.query(), request.max_tokens(), request.counter())
            .await
            .map_err(ContextError::new)
    }
}

impl<S: FactStore> CompactionObserver for FactCoordinator<S> {
    async fn on_pre_compress(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
        evicted: &[Message],
    ) -> Result<Option<String>, ObserverError> {
        self.extract(conversation, range, evicted).await.map_err(ObserverError::new)
    }

    async fn on_session_switch(
        &self,
        new: &ConversationId,
        parent: Option<&ConversationId>,
        reset: bool,
    ) -> Result<(), ObserverError> {
        {
            let mut sessions = locked(&self.sessions);
            let old = parent
                .and_then(|parent| sessions.remove(parent))
                .map(|(_, session)| session)
                .unwrap_or_default();
            let session = if reset {
                Session::default()
            } else {
                let mut session = old;
                session.ancestors.extend(parent.cloned());
                session
            };
            sessions.insert(new.clone(), session);
        }
        if let Some(parent) = parent {
            locked(&self.snapshots).remove(parent);
        }
        self.bump();
        Ok(())
    }

    fn on_event(&self, event: &CompactionEvent) {
        self.count(&event.conversation, |counters| counters.compactions += 1);
        self.bump();
    }
}

/// Locks one of the coordinator's caches.
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here only inserts, replaces or removes whole entries, so a poisoned cache is still consistent.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why a stored fact must not reach a model; its text becomes the quarantine note.
#[derive(Debug, thiserror::Error)]
enum Unsafe {
    /// The fact could close the injected block early and write outside it.
    #[error("contains the injected block's delimiter")]
    Delimiter,
    /// The scan now rejects the text.
    #[error("{0}")]
    Threat(Threat),
    /// The scan now finds secrets in the text.
    #[error("contains a secret ({})", kinds(.0))]
    Secret(Vec<SecretKind>),
}

/// Secret kinds as a comma-separated list, for the quarantine note.
fn kinds(secrets: &[SecretKind]) -> String {
    secrets.iter().map(|kind| kind.as_str()).collect::<Vec<_>>().join(", ")
}

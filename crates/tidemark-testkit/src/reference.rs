//! Reference implementations: small, obviously correct models of the core traits, used as oracles.
//!
//! They favour clarity over speed: the store keeps everything in one locked
//! map, the memory re-applies its policy to the whole history on every load.
//! Conformance suites compare real implementations against them.

mod facts;

pub use facts::{ReferenceFactStore, outranks};

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tidemark_core::history::{Epoch, EpochLog, HistoryError, never_written};
use tidemark_core::recall::{
    Candidate, Embedder, Passage, PassageText, RecallQuery, SIMILAR_PASSAGES, candidate_messages, combine,
    keyword_pool, nearest, passages, rank,
};
use tidemark_core::store::{ConversationStats, check_state, claim_lease};
use tidemark_core::{
    Calibration, CompactionError, CompactionState, Compactor, ConversationId, ConversationMemory,
    ConversationStore, Lease, MemoryError, MemoryPolicy, Message, NewMessage, Part, Role, Selection, Seq,
    SeqRange, StoreError, StoredMessage, Window, units,
};

/// One conversation inside [`ReferenceStore`].
#[derive(Debug, Default, Clone)]
struct Conversation {
    messages: BTreeMap<Seq, StoredMessage>,
    next_seq: Seq,
    state: CompactionState,
    /// Every state written since the last clear.
    history: EpochLog,
}

/// A [`ConversationStore`] that keeps everything in one mutex-guarded map, written to mirror the trait's contract line by line.
#[derive(Debug, Default, Clone)]
pub struct ReferenceStore {
    conversations: Arc<Mutex<BTreeMap<ConversationId, Conversation>>>,
    /// Who holds each conversation's compaction lease, and until when.
    leases: Arc<Mutex<BTreeMap<ConversationId, (String, Instant)>>>,
    /// Each conversation's calibration, apart from the conversations: saving one does not make a conversation appear.
    calibrations: Arc<Mutex<BTreeMap<ConversationId, Calibration>>>,
    /// Each conversation's user, oldest assignment first: [`ConversationStore::user_conversations`] reads it backwards.
    users: Arc<Mutex<Vec<(ConversationId, ConversationId)>>>,
    /// The model that places passages by meaning, if recall by meaning is on.
    embedder: Option<Arc<dyn Embedder>>,
}

impl ReferenceStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same store, recalling by meaning as well as by keywords with `embedder` (see [`tidemark_core::recall::fuse`]).
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<ConversationId, Conversation>> {
        // A panic while holding the lock can only come from a bug in this
        // module's own short critical sections; the data is still consistent
        // because every section finishes its checks before it writes.
        self.conversations.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl ConversationStore for ReferenceStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        let mut all = self.lock();
        if messages.is_empty() {
            // Appending nothing must not make an unknown conversation appear.
            let next = all.get(conversation).map_or(Seq::ZERO, |entry| entry.next_seq);
            return Ok(SeqRange::new(next, next));
        }
        let entry = all.entry(conversation.clone()).or_default();
        let start = entry.next_seq;
        for (offset, new) in messages.into_iter().enumerate() {
            let seq = start.after(offset as u64);
            entry.messages.insert(seq, StoredMessage::new(seq, new.tokens, new.message));
            entry.next_seq = seq.after(1);
        }
        Ok(SeqRange::new(start, entry.next_seq))
    }

    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        let all = self.lock();
        let Some(entry) = all.get(conversation) else { return Ok(Vec::new()) };
        if range.is_empty() {
            return Ok(Vec::new());
        }
        Ok(entry.messages.range(range.start..range.end).map(|(_, stored)| stored.clone()).collect())
    }

    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        let all = self.lock();
        let Some(entry) = all.get(conversation) else { return Ok(Vec::new()) };
        Ok(seqs.iter().filter_map(|seq| entry.messages.get(seq).cloned()).collect())
    }

    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        let all = self.lock();
        Ok(all.get(conversation).map_or_else(ConversationStats::default, |entry| {
            let tokens = entry.messages.values().map(|stored| u64::from(stored.tokens)).sum();
            ConversationStats::new(entry.next_seq, entry.messages.len() as u64, tokens)
        }))
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.calibrations.lock().unwrap_or_else(PoisonError::into_inner).remove(conversation);
        self.users.lock().unwrap_or_else(PoisonError::into_inner).retain(|(held, _)| held != conversation);
        let mut all = self.lock();
        if let Some(entry) = all.get_mut(conversation) {
            entry.messages.clear();
            let generation = entry.state.generation + 1;
            entry.state = CompactionState::new(entry.next_seq, Vec::new(), None);
            entry.state.generation = generation;
            entry.history.cleared(&entry.state, entry.next_seq);
        }
        Ok(())
    }

    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        Ok(self.lock().get(conversation).map(|entry| entry.state.clone()).unwrap_or_default())
    }

    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        mut state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        let mut all = self.lock();
        let current = all.get(conversation).map(|entry| (entry.state.clone(), entry.next_seq));
        let (current_state, next_seq) = current.unwrap_or_default();
        if current_state.generation != expected_generation {
            return Err(StoreError::StateConflict {
                expected: expected_generation,
                found: current_state.generation,
            });
        }
        check_state(&current_state, next_seq, &state)?;
        state.generation = expected_generation + 1;
        let entry = all.entry(conversation.clone()).or_default();
        entry.state = state.clone();
        entry.history.saved(&state, next_seq);
        Ok(state)
    }

    async fn epochs(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        Ok(self.lock().get(conversation).map(|entry| entry.history.epochs().to_vec()).unwrap_or_default())
    }

    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        let mut all = self.lock();
        let Some(entry) = all.get_mut(conversation) else {
            return Err(never_written(expected_generation, target));
        };
        let Conversation { messages, next_seq, state, history } = entry;
        let restored = history.restore(
            state.generation,
            expected_generation,
            target,
            *next_seq,
            |from| messages.range(from..).count() as u64,
            |seq| messages.contains_key(&seq),
        )?;
        *state = restored.clone();
        Ok(restored)
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        let mut all = self.lock();
        if all.contains_key(target) {
            return Err(HistoryError::Exists { conversation: target.clone() }.into());
        }
        // An unknown source is an empty conversation.
        let empty = Conversation::default();
        let from = all.get(source).unwrap_or(&empty);
        let (history, state) = from.history.fork(
            at,
            from.next_seq,
            |watermark| from.messages.range(watermark..at).count() as u64,
            |seq| from.messages.contains_key(&seq),
        )?;
        let messages = from.messages.range(..at).map(|(seq, stored)| (*seq, stored.clone())).collect();
        let fork = Conversation { messages, next_seq: at, state: state.clone(), history };
        all.insert(target.clone(), fork);
        drop(all);
        let mut calibrations = self.calibrations.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(calibration) = calibrations.get(source).cloned() {
            calibrations.insert(target.clone(), calibration);
        }
        let mut users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, user)) = users.iter().rev().find(|(held, _)| held == source).cloned() {
            users.retain(|(held, _)| held != target);
            users.push((target.clone(), user));
        }
        Ok(state)
    }

    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        let mut all = self.lock();
        let Some(entry) = all.get_mut(conversation) else { return Ok(0) };
        let before = entry.messages.len();
        let state = &entry.state;
        entry.messages.retain(|seq, _| *seq >= state.watermark || state.retained.binary_search(seq).is_ok());
        Ok((before - entry.messages.len()) as u64)
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        Ok(self.lock().keys().cloned().collect())
    }

    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        let mut leases = self.leases.lock().unwrap_or_else(PoisonError::into_inner);
        let current = leases.get(conversation).map(|(owner, expires)| (owner.as_str(), *expires));
        match claim_lease(current, holder, ttl, Instant::now()) {
            Ok(expires) => {
                leases.insert(conversation.clone(), (holder.to_owned(), expires));
                Ok(Lease::Acquired)
            }
            Err(held) => Ok(held),
        }
    }

    async fn release_lease(&self, conversation: &ConversationId, holder: &str) -> Result<(), StoreError> {
        let mut leases = self.leases.lock().unwrap_or_else(PoisonError::into_inner);
        if leases.get(conversation).is_some_and(|(owner, _)| owner == holder) {
            leases.remove(conversation);
        }
        Ok(())
    }

    /// Cuts every stored message below the mark again and ranks all of its passages: no index to get wrong.
    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        let all = self.lock();
        let Some(entry) = all.get(conversation) else { return Ok(Vec::new()) };
        // The rule of `candidate_messages`, by brute force: every message below
        // the mark is cut, and each query term's holders are listed newest first.
        let cut: BTreeMap<Seq, (Role, Vec<PassageText>)> = entry
            .messages
            .range(..query.below)
            .map(|(seq, stored)| (*seq, (stored.message.role, passages(&stored.message))))
            .collect();
        let found: Vec<Vec<Seq>> = query
            .terms()
            .iter()
            .map(|term| {
                cut.iter()
                    .rev()
                    .filter(|(_, (_, cut))| cut.iter().any(|passage| passage.terms.contains(term)))
                    .map(|(seq, _)| *seq)
                    .collect()
            })
            .collect();
        let candidates = candidate_messages(&found).into_iter().flat_map(|seq| {
            let (role, cut) = cut.get(&seq).cloned().unwrap_or((Role::User, Vec::new()));
            cut.into_iter().map(move |passage| Candidate::new(seq, role, passage))
        });
        // By meaning: every passage below the mark is embedded again, and the nearest ones weighed with
        // the keyword ranking's best.
        let Some(embedder) = &self.embedder else { return Ok(rank(query, candidates)) };
        let mut keyword = rank(&keyword_pool(query), candidates);
        if query.terms().is_empty() {
            // A query without search terms finds nothing, by meaning or otherwise.
            return Ok(keyword);
        }
        let Some(wanted) = embedder.embed(&query.text) else {
            keyword.truncate(query.limit);
            return Ok(keyword);
        };
        let embedded: Vec<(Seq, Role, PassageText, tidemark_core::recall::Embedding)> = cut
            .iter()
            .flat_map(|(seq, (role, cut))| cut.iter().map(move |passage| (*seq, *role, passage)))
            .filter_map(|(seq, role, passage)| {
                Some((seq, role, passage.clone(), embedder.embed(&passage.text)?))
            })
            .collect();
        let near = nearest(
            &wanted,
            query.below,
            embedded.iter().map(|(seq, _, passage, embedding)| (*seq, passage.index, embedding)),
            SIMILAR_PASSAGES,
        );
        let similar = near
            .iter()
            .filter_map(|near| {
                let (seq, role, passage, _) = embedded
                    .iter()
                    .find(|(seq, _, passage, _)| *seq == near.seq && passage.index == near.index)?;
                Some(Passage::new(*seq, *role, passage.index, passage.text.clone(), near.similarity))
            })
            .collect();
        Ok(combine(query, keyword, similar, embedder.as_ref()))
    }

    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        let calibrations = self.calibrations.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(calibrations.get(conversation).cloned().unwrap_or_default())
    }

    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        self.calibrations
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(conversation.clone(), calibration);
        Ok(())
    }

    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        let mut users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        users.retain(|(held, _)| held != conversation);
        users.push((conversation.clone(), user.clone()));
        Ok(())
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        let users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(users.iter().rev().filter(|(_, with)| with == user).map(|(held, _)| held.clone()).collect())
    }
}

/// A policy that keeps every message.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeepAll;

impl MemoryPolicy for KeepAll {
    fn select(&self, window: &Window<'_>) -> Selection {
        Selection::keep_all(window.len())
    }
}

/// The plainest unit-respecting policy: keep the last `n` units, and retain pinned units and system messages before them.
///
/// It is the oracle for count-based window policies. The newest unit is always
/// kept, so `LastUnits(0)` behaves like `LastUnits(1)`.
#[derive(Debug, Clone, Copy)]
pub struct LastUnits(pub usize);

impl MemoryPolicy for LastUnits {
    fn select(&self, window: &Window<'_>) -> Selection {
        let messages = window.messages();
        let all: Vec<_> = units(messages).collect();
        let keep_from = all.len().saturating_sub(self.0.max(1));
        let cut = all.get(keep_from).map_or(messages.len(), |unit| unit.start());
        let retained = all[..keep_from]
            .iter()
            .filter(|unit| unit.is_pinned(messages) || messages[unit.start()].role == Role::System)
            .flat_map(|unit| unit.range())
            .collect();
        Selection::new(messages.len(), cut, retained)
    }
}

/// A [`ConversationMemory`] that stores everything in a [`ReferenceStore`] and applies its policy to the whole history on every load.
///
/// Its cost grows with the conversation, which is exactly what makes it a
/// trustworthy oracle: there is no state to get wrong.
#[derive(Debug, Default, Clone)]
pub struct ReferenceMemory<P = KeepAll> {
    store: ReferenceStore,
    policy: P,
}

impl ReferenceMemory<KeepAll> {
    /// A memory that keeps everything.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<P: MemoryPolicy> ReferenceMemory<P> {
    /// A memory that applies `policy` on every load.
    pub fn with_policy(policy: P) -> Self {
        Self { store: ReferenceStore::new(), policy }
    }

    /// The backing store.
    pub fn store(&self) -> &ReferenceStore {
        &self.store
    }
}

impl<P: MemoryPolicy> ConversationMemory for ReferenceMemory<P> {
    async fn load(&self, conversation: &ConversationId) -> Result<Vec<Message>, MemoryError> {
        let stored = self.store.load_range(conversation, SeqRange::from(Seq::ZERO)).await?;
        let messages: Vec<Message> = stored.iter().map(|s| Message::clone(&s.message)).collect();
        let tokens: Vec<u32> = stored.iter().map(|s| s.tokens).collect();
        let selection = self.policy.select(&Window::new(&messages).with_tokens(&tokens));
        let (kept, _) = selection.split(&messages);
        Ok(kept.into_iter().cloned().collect())
    }

    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<Message>,
    ) -> Result<SeqRange, MemoryError> {
        let news = messages.into_iter().map(|message| NewMessage::new(message, 0)).collect();
        Ok(self.store.append(conversation, news).await?)
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), MemoryError> {
        Ok(self.store.clear(conversation).await?)
    }
}

/// The artifact of [`ConcatCompactor`]: every evicted message as one line, oldest first.
pub type ConcatArtifact = Vec<String>;

/// A deterministic compactor that summarizes by listing each evicted message as `role: text` on its own line.
///
/// Tool calls appear as `call name(arguments)` and results as `result: content`.
/// Without a cap nothing said is lost and it never fails, which makes it an
/// oracle for what a summary must at least account for; with a cap it drops
/// the oldest lines first until the lines fit, which makes it a stand-in for
/// a bounded summarizer in tests and benchmarks.
///
/// A capped summary of long lines (tool results of several kilobytes) can
/// hold far less than its cap, since only whole lines are kept. A model asked
/// for a summary of some length writes about that length whatever it reads:
/// [`filling`](Self::filling) stands in for one.
#[derive(Debug, Default, Clone, Copy)]
pub struct ConcatCompactor {
    max_bytes: Option<usize>,
    fill: bool,
}

impl ConcatCompactor {
    /// A compactor that keeps every line.
    pub fn new() -> Self {
        Self::default()
    }

    /// A compactor whose artifact holds at most `max_bytes` bytes of lines (the newest lines win).
    pub fn capped(max_bytes: usize) -> Self {
        Self { max_bytes: Some(max_bytes), fill: false }
    }

    /// A compactor whose artifact holds at most `max_bytes` bytes of lines and fills them: the newest lines that fit whole, then the end of the line before them behind a `…`.
    ///
    /// ```
    /// use tidemark_core::{Compactor, ConversationId, Message};
    /// use tidemark_testkit::reference::ConcatCompactor;
    ///
    /// let id = ConversationId::new("demo")?;
    /// let evicted = [Message::user("a".repeat(300)), Message::assistant("done")];
    /// let whole = futures::executor::block_on(ConcatCompactor::capped(100).compact(&id, &evicted, None, None))?;
    /// let filled = futures::executor::block_on(ConcatCompactor::filling(100).compact(&id, &evicted, None, None))?;
    /// assert_eq!(whole, ["assistant: done"]);
    /// assert_eq!(filled.iter().map(String::len).sum::<usize>(), 100);
    /// assert!(filled[0].starts_with('…') && filled[1] == "assistant: done");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filling(max_bytes: usize) -> Self {
        Self { max_bytes: Some(max_bytes), fill: true }
    }

    /// The one-line rendering of `message` used in the artifact.
    pub fn line(message: &Message) -> String {
        let parts: Vec<String> = message
            .parts
            .iter()
            .map(|part| match part {
                Part::Text { text } => text.clone(),
                Part::ToolCall(call) => format!("call {}({})", call.name, call.arguments),
                Part::ToolResult(result) => format!("result: {}", result.content),
                Part::Attachment(attachment) => format!("[attachment {}]", attachment.media_type),
                _ => String::from("[unknown part]"),
            })
            .collect();
        format!("{}: {}", message.role, parts.join(" | "))
    }
}

/// The end of `line` within `room` bytes behind a `…` mark, or nothing when not even one character fits.
fn fill_from(line: &str, room: usize) -> Option<String> {
    const MARK: &str = "…";
    let keep = room.checked_sub(MARK.len())?;
    let start = line.ceil_char_boundary(line.len().saturating_sub(keep));
    let end = &line[start..];
    (!end.is_empty()).then(|| format!("{MARK}{end}"))
}

impl Compactor for ConcatCompactor {
    type Artifact = ConcatArtifact;

    fn name(&self) -> &str {
        "reference-concat"
    }

    async fn compact(
        &self,
        _conversation: &ConversationId,
        evicted: &[Message],
        carry_over: Option<&ConcatArtifact>,
        hint: Option<&str>,
    ) -> Result<ConcatArtifact, CompactionError> {
        let mut lines = carry_over.cloned().unwrap_or_default();
        if let Some(hint) = hint {
            lines.push(format!("hint: {hint}"));
        }
        lines.extend(evicted.iter().map(Self::line));
        if let Some(max) = self.max_bytes {
            let mut total: usize = lines.iter().map(String::len).sum();
            let mut first_kept = 0;
            while total > max && first_kept < lines.len() {
                total -= lines[first_kept].len();
                first_kept += 1;
            }
            let tail = match first_kept.checked_sub(1) {
                Some(last_dropped) if self.fill => fill_from(&lines[last_dropped], max - total),
                _ => None,
            };
            lines.drain(..first_kept);
            if let Some(tail) = tail {
                lines.insert(0, tail);
            }
        }
        Ok(lines)
    }

    fn render(&self, artifact: &ConcatArtifact) -> Message {
        Message::system(format!("Summary of earlier messages:\n{}", artifact.join("\n")))
    }
}

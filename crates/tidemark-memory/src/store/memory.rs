//! [`InMemoryStore`]: conversations in process memory, messages shared so that loads copy no text.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use tidemark_core::history::{Epoch, EpochLog, HistoryError, never_written};
use tidemark_core::recall::{
    Embedder, Embedding, Passage, PassageText, RARE_MESSAGES, RecallQuery, SIMILAR_PASSAGES, VectorIndex,
    candidate_messages, combine, keyword_pool, passages, rank_borrowed,
};
use tidemark_core::store::{ConversationStats, check_state};
use tidemark_core::{
    BudgetUsage, Fact, FactBudgets, FactError, FactFilter, FactId, FactStore, Merge, Merged, NewFact, Put,
    RollbackRecord, RolledBack, RunId, RunInfo, Scope, Tier,
};
use tidemark_core::{
    Calibration, CompactionState, ConversationId, ConversationStore, NewMessage, Seq, SeqRange, StoreError,
    StoredMessage,
};

/// One conversation: messages indexed by `seq - base`, with holes where messages were pruned.
mod facts;

use facts::FactTable;

#[derive(Debug, Default)]
struct Conversation {
    /// The sequence number of `slots[0]`.
    base: Seq,
    slots: VecDeque<Option<StoredMessage>>,
    stored: u64,
    stored_tokens: u64,
    state: CompactionState,
    /// The recall index: each indexed message's passages, by sequence number.
    passages: BTreeMap<Seq, Vec<PassageText>>,
    /// The recall index's term lists: for each term, the indexed messages holding it, ascending.
    postings: HashMap<String, Vec<Seq>>,
    /// Every stored message below this number is in the recall index.
    indexed: Seq,
    /// The embeddings of the indexed passages, by message then passage, ascending (with an embedder only).
    vectors: VectorIndex,
    /// Every indexed message below this number has its passages embedded.
    embedded: Seq,
    /// Every state written since the last clear.
    history: EpochLog,
}

impl Conversation {
    fn next_seq(&self) -> Seq {
        self.base.after(self.slots.len() as u64)
    }

    fn get(&self, seq: Seq) -> Option<&StoredMessage> {
        let index = usize::try_from(seq.distance_from(self.base)).ok()?;
        if seq < self.base {
            return None;
        }
        self.slots.get(index).and_then(Option::as_ref)
    }

    /// Index the stored messages below `upto` that are not indexed yet.
    ///
    /// A search calls this first, so an append never pays for recall and a
    /// conversation that is never searched is never indexed.
    fn catch_up(&mut self, upto: Seq) {
        let upto = upto.min(self.next_seq());
        if upto <= self.indexed {
            return;
        }
        let from = self.indexed.max(self.base);
        for offset in from.distance_from(self.base)..upto.distance_from(self.base) {
            let seq = self.base.after(offset);
            let Some(stored) =
                usize::try_from(offset).ok().and_then(|at| self.slots.get(at)).and_then(Option::as_ref)
            else {
                continue;
            };
            let cut = passages(&stored.message);
            if cut.is_empty() {
                continue;
            }
            let mut seen = HashSet::new();
            for term in cut.iter().flat_map(|passage| &passage.terms) {
                if seen.insert(term.as_str()) {
                    self.postings.entry(term.clone()).or_default().push(seq);
                }
            }
            self.passages.insert(seq, cut);
        }
        self.indexed = upto;
    }

    /// Embed the passages of the indexed messages below `upto` that are not embedded yet.
    fn embed_up_to(&mut self, upto: Seq, embedder: &dyn Embedder) {
        let upto = upto.min(self.indexed);
        if upto <= self.embedded {
            return;
        }
        for (seq, cut) in self.passages.range(self.embedded..upto) {
            for passage in cut {
                if let Some(embedding) = embedder.embed(&passage.text) {
                    self.vectors.push(*seq, passage.index, embedding);
                }
            }
        }
        self.embedded = upto;
    }

    /// The passages nearest to `wanted` below `below`, as found passages scored by their cosine.
    fn similar(&self, wanted: &Embedding, below: Seq) -> Vec<Passage> {
        let near = self.vectors.nearest(wanted, below, SIMILAR_PASSAGES);
        near.into_iter()
            .filter_map(|near| {
                let role = self.get(near.seq)?.message.role;
                let passage =
                    self.passages.get(&near.seq)?.iter().find(|passage| passage.index == near.index)?;
                Some(Passage::new(near.seq, role, near.index, passage.text.clone(), near.similarity))
            })
            .collect()
    }

    /// Drop leading holes so memory follows what is stored, not what was ever appended.
    fn trim_front(&mut self) {
        while matches!(self.slots.front(), Some(None)) {
            self.slots.pop_front();
            self.base = self.base.after(1);
        }
    }
}

/// A [`ConversationStore`] in process memory.
///
/// Messages are kept behind `Arc`, so loading a window clones pointers, not
/// text, and a load costs what the window holds whatever the length of the
/// conversation. Each conversation has its own lock, so conversations never
/// wait for each other. Cloning the store gives another handle to the same data.
///
/// Nothing survives the process: use [`SqliteStore`](crate::SqliteStore) when
/// the agent must pick up where it left off.
///
/// ```
/// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq, SeqRange};
/// use tidemark_memory::store::InMemoryStore;
///
/// # futures::executor::block_on(async {
/// let store = InMemoryStore::new();
/// let id = ConversationId::new("demo")?;
/// store.append(&id, vec![NewMessage::new(Message::user("hello"), 5)]).await?;
/// let loaded = store.load_range(&id, SeqRange::from(Seq::ZERO)).await?;
/// assert_eq!(loaded[0].message.text(), "hello");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Default, Clone)]
pub struct InMemoryStore {
    conversations: Arc<RwLock<HashMap<ConversationId, Arc<Mutex<Conversation>>>>>,
    facts: Arc<Mutex<FactTable>>,
    /// Compaction leases, so that several memories sharing this store compact a conversation one at a time.
    leases: Arc<Mutex<HashMap<ConversationId, (String, std::time::Instant)>>>,
    /// Each conversation's calibration, apart from its messages: saving one does not make a conversation appear.
    calibrations: Arc<Mutex<HashMap<ConversationId, Calibration>>>,
    /// Each conversation's user, apart from its messages.
    users: Arc<Mutex<Users>>,
    /// The model that places passages by meaning, if recall by meaning is on.
    embedder: Option<Arc<dyn Embedder>>,
}

/// Which user each conversation is held with, and each user's conversations in the order they were assigned.
#[derive(Debug, Default)]
struct Users {
    /// The next assignment's number: a later assignment has a higher one.
    next: u64,
    /// Each conversation's user and the number of its assignment.
    held: HashMap<ConversationId, (ConversationId, u64)>,
    /// Each user's conversations by assignment number.
    of_user: HashMap<ConversationId, BTreeMap<u64, ConversationId>>,
}

impl Users {
    fn assign(&mut self, conversation: &ConversationId, user: &ConversationId) {
        self.forget(conversation);
        let stamp = self.next;
        self.next += 1;
        self.held.insert(conversation.clone(), (user.clone(), stamp));
        self.of_user.entry(user.clone()).or_default().insert(stamp, conversation.clone());
    }

    fn forget(&mut self, conversation: &ConversationId) {
        let Some((user, stamp)) = self.held.remove(conversation) else { return };
        if let Some(list) = self.of_user.get_mut(&user) {
            list.remove(&stamp);
            if list.is_empty() {
                self.of_user.remove(&user);
            }
        }
    }

    fn of(&self, user: &ConversationId) -> Vec<ConversationId> {
        self.of_user.get(user).map(|list| list.values().rev().cloned().collect()).unwrap_or_default()
    }
}

impl InMemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same store, recalling by meaning as well as by keywords (see [`tidemark_core::recall::combine`]).
    ///
    /// Each passage is embedded once, by the first search that reaches it,
    /// and a search weighs the keyword ranking's best passages and those
    /// nearest to the query together. Handles cloned before this call keep searching by keywords only.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tidemark_core::recall::RecallQuery;
    /// use tidemark_core::{ConversationId, ConversationStore, Message, NewMessage, Seq};
    /// use tidemark_memory::store::InMemoryStore;
    /// use tidemark_testkit::embedders::HashedTerms;
    ///
    /// # futures::executor::block_on(async {
    /// // A toy model that knows "frankfurt" is where the servers are.
    /// let store = InMemoryStore::new().with_embedder(Arc::new(HashedTerms::new(64).with_synonyms(&[("servers", "frankfurt")])));
    /// let id = ConversationId::new("ops")?;
    /// store.append(&id, vec![NewMessage::new(Message::user("we host everything in Frankfurt"), 8)]).await?;
    /// let found = store.search_passages(&id, &RecallQuery::new("where do our servers live?", Seq(1), 3)).await?;
    /// assert_eq!(found[0].text, "we host everything in Frankfurt");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }

    /// The same store with these fact budgets (see [`FactStore`]); the default is [`FactBudgets::default`].
    ///
    /// The budgets are shared by every clone of the store.
    pub fn with_fact_budgets(self, budgets: FactBudgets) -> Self {
        self.fact_table().budgets = budgets;
        self
    }

    /// The fact budgets in force.
    pub fn fact_budgets(&self) -> FactBudgets {
        self.fact_table().budgets
    }

    fn fact_table(&self) -> MutexGuard<'_, FactTable> {
        // Each fact operation checks before it writes, so a poisoned lock still guards consistent data.
        self.facts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn existing(&self, id: &ConversationId) -> Option<Arc<Mutex<Conversation>>> {
        self.conversations.read().unwrap_or_else(PoisonError::into_inner).get(id).cloned()
    }

    fn entry(&self, id: &ConversationId) -> Arc<Mutex<Conversation>> {
        if let Some(found) = self.existing(id) {
            return found;
        }
        let mut all = self.conversations.write().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(all.entry(id.clone()).or_default())
    }
}

/// Lock one conversation.
///
/// Every critical section below checks before it writes and cannot panic half
/// way, so a lock poisoned by a panic elsewhere still guards consistent data.
fn lock(conversation: &Mutex<Conversation>) -> MutexGuard<'_, Conversation> {
    conversation.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ConversationStore for InMemoryStore {
    async fn append(
        &self,
        conversation: &ConversationId,
        messages: Vec<NewMessage>,
    ) -> Result<SeqRange, StoreError> {
        if messages.is_empty() {
            let next = self.existing(conversation).map_or(Seq::ZERO, |entry| lock(&entry).next_seq());
            return Ok(SeqRange::new(next, next));
        }
        let entry = self.entry(conversation);
        let mut entry = lock(&entry);
        let start = entry.next_seq();
        for (offset, new) in messages.into_iter().enumerate() {
            let seq = start.after(offset as u64);
            entry.stored += 1;
            entry.stored_tokens += u64::from(new.tokens);
            entry.slots.push_back(Some(StoredMessage::new(seq, new.tokens, new.message)));
        }
        Ok(SeqRange::new(start, entry.next_seq()))
    }

    async fn load_range(
        &self,
        conversation: &ConversationId,
        range: SeqRange,
    ) -> Result<Vec<StoredMessage>, StoreError> {
        let Some(entry) = self.existing(conversation) else { return Ok(Vec::new()) };
        let entry = lock(&entry);
        let start = range.start.max(entry.base);
        let end = range.end.min(entry.next_seq());
        if end <= start {
            return Ok(Vec::new());
        }
        let from = usize::try_from(start.distance_from(entry.base)).unwrap_or(usize::MAX);
        let to = usize::try_from(end.distance_from(entry.base)).unwrap_or(usize::MAX);
        Ok(entry.slots.range(from..to).flatten().cloned().collect())
    }

    async fn load_seqs(
        &self,
        conversation: &ConversationId,
        seqs: &[Seq],
    ) -> Result<Vec<StoredMessage>, StoreError> {
        let Some(entry) = self.existing(conversation) else { return Ok(Vec::new()) };
        let entry = lock(&entry);
        Ok(seqs.iter().filter_map(|seq| entry.get(*seq).cloned()).collect())
    }

    async fn stats(&self, conversation: &ConversationId) -> Result<ConversationStats, StoreError> {
        let Some(entry) = self.existing(conversation) else { return Ok(ConversationStats::default()) };
        let entry = lock(&entry);
        Ok(ConversationStats::new(entry.next_seq(), entry.stored, entry.stored_tokens))
    }

    async fn clear(&self, conversation: &ConversationId) -> Result<(), StoreError> {
        self.calibrations.lock().unwrap_or_else(PoisonError::into_inner).remove(conversation);
        self.users.lock().unwrap_or_else(PoisonError::into_inner).forget(conversation);
        let Some(entry) = self.existing(conversation) else { return Ok(()) };
        let mut entry = lock(&entry);
        let next = entry.next_seq();
        let generation = entry.state.generation + 1;
        entry.slots.clear();
        entry.passages.clear();
        entry.postings.clear();
        entry.vectors = VectorIndex::new();
        entry.base = next;
        entry.stored = 0;
        entry.stored_tokens = 0;
        entry.state = CompactionState::new(next, Vec::new(), None);
        entry.state.generation = generation;
        let cleared = entry.state.clone();
        entry.history.cleared(&cleared, next);
        Ok(())
    }

    async fn state(&self, conversation: &ConversationId) -> Result<CompactionState, StoreError> {
        Ok(self.existing(conversation).map(|entry| lock(&entry).state.clone()).unwrap_or_default())
    }

    async fn save_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        mut state: CompactionState,
    ) -> Result<CompactionState, StoreError> {
        // A refused save must leave no trace, so an unknown conversation is
        // checked against the default state before its entry is created.
        if self.existing(conversation).is_none() {
            let fresh = CompactionState::default();
            if expected_generation != fresh.generation {
                return Err(StoreError::StateConflict {
                    expected: expected_generation,
                    found: fresh.generation,
                });
            }
            check_state(&fresh, Seq::ZERO, &state)?;
        }
        let entry = self.entry(conversation);
        let mut entry = lock(&entry);
        if entry.state.generation != expected_generation {
            return Err(StoreError::StateConflict {
                expected: expected_generation,
                found: entry.state.generation,
            });
        }
        let next_seq = entry.next_seq();
        check_state(&entry.state, next_seq, &state)?;
        state.generation = expected_generation + 1;
        entry.state = state.clone();
        entry.history.saved(&state, next_seq);
        Ok(state)
    }

    async fn epochs(&self, conversation: &ConversationId) -> Result<Vec<Epoch>, StoreError> {
        Ok(self
            .existing(conversation)
            .map(|entry| lock(&entry).history.epochs().to_vec())
            .unwrap_or_default())
    }

    async fn restore_state(
        &self,
        conversation: &ConversationId,
        expected_generation: u64,
        target: Option<u64>,
    ) -> Result<CompactionState, StoreError> {
        let Some(entry) = self.existing(conversation) else {
            return Err(never_written(expected_generation, target));
        };
        let mut entry = lock(&entry);
        let (current, next_seq, base) = (entry.state.generation, entry.next_seq(), entry.base);
        let mut history = std::mem::take(&mut entry.history);
        let restored = history.restore(
            current,
            expected_generation,
            target,
            next_seq,
            |from| (from.max(base).0..next_seq.0).filter(|seq| entry.get(Seq(*seq)).is_some()).count() as u64,
            |seq| entry.get(seq).is_some(),
        );
        entry.history = history;
        entry.state = restored?;
        Ok(entry.state.clone())
    }

    async fn fork(
        &self,
        source: &ConversationId,
        at: Seq,
        target: &ConversationId,
    ) -> Result<CompactionState, StoreError> {
        if self.existing(target).is_some() {
            return Err(HistoryError::Exists { conversation: target.clone() }.into());
        }
        let fork = {
            // An unknown source is an empty conversation.
            let held = self.existing(source);
            let empty = Mutex::new(Conversation::default());
            let from = lock(held.as_deref().unwrap_or(&empty));
            let (history, state) = from.history.fork(
                at,
                from.next_seq(),
                |watermark| (watermark.0..at.0).filter(|seq| from.get(Seq(*seq)).is_some()).count() as u64,
                |seq| from.get(seq).is_some(),
            )?;
            // The messages are shared, not copied: a slot holds an `Arc`.
            let base = from.base.min(at);
            let keep = usize::try_from(at.0.saturating_sub(base.0)).unwrap_or(usize::MAX);
            let slots: VecDeque<Option<StoredMessage>> = from.slots.iter().take(keep).cloned().collect();
            let (stored, stored_tokens) =
                slots.iter().flatten().fold((0u64, 0u64), |(count, tokens), message| {
                    (count + 1, tokens + u64::from(message.tokens))
                });
            Conversation { base, slots, stored, stored_tokens, state, history, ..Conversation::default() }
        };
        let state = fork.state.clone();
        {
            let mut all = self.conversations.write().unwrap_or_else(PoisonError::into_inner);
            if all.contains_key(target) {
                return Err(HistoryError::Exists { conversation: target.clone() }.into());
            }
            all.insert(target.clone(), Arc::new(Mutex::new(fork)));
        }
        let mut calibrations = self.calibrations.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(calibration) = calibrations.get(source).cloned() {
            calibrations.insert(target.clone(), calibration);
        }
        drop(calibrations);
        let mut users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((user, _)) = users.held.get(source).cloned() {
            users.assign(target, &user);
        }
        Ok(state)
    }

    async fn prune(&self, conversation: &ConversationId) -> Result<u64, StoreError> {
        let Some(entry) = self.existing(conversation) else { return Ok(0) };
        let mut entry = lock(&entry);
        let watermark = entry.state.watermark;
        let retained = entry.state.retained.clone();
        let base = entry.base;
        let (mut deleted, mut tokens) = (0u64, 0u64);
        let below =
            usize::try_from(watermark.distance_from(base)).unwrap_or(usize::MAX).min(entry.slots.len());
        for (offset, slot) in entry.slots.iter_mut().take(below).enumerate() {
            let seq = base.after(offset as u64);
            if slot.is_some() && retained.binary_search(&seq).is_err() {
                tokens += slot.take().map_or(0, |stored| u64::from(stored.tokens));
                deleted += 1;
            }
        }
        entry.stored -= deleted;
        entry.stored_tokens -= tokens;
        let mut index = std::mem::take(&mut entry.passages);
        index.retain(|seq, _| entry.get(*seq).is_some());
        entry.passages = index;
        let mut postings = std::mem::take(&mut entry.postings);
        postings.retain(|_, seqs| {
            seqs.retain(|seq| entry.get(*seq).is_some());
            !seqs.is_empty()
        });
        entry.postings = postings;
        let mut vectors = std::mem::take(&mut entry.vectors);
        vectors.retain(|seq, _| entry.get(seq).is_some());
        entry.vectors = vectors;
        entry.trim_front();
        Ok(deleted)
    }

    async fn conversations(&self) -> Result<Vec<ConversationId>, StoreError> {
        let all = self.conversations.read().unwrap_or_else(PoisonError::into_inner);
        let mut ids: Vec<ConversationId> = all.keys().cloned().collect();
        ids.sort_unstable();
        Ok(ids)
    }

    async fn try_lease(
        &self,
        conversation: &ConversationId,
        holder: &str,
        ttl: std::time::Duration,
    ) -> Result<tidemark_core::Lease, StoreError> {
        let now = std::time::Instant::now();
        let mut leases = self.leases.lock().unwrap_or_else(PoisonError::into_inner);
        let current = leases.get(conversation).map(|(owner, expires)| (owner.as_str(), *expires));
        match tidemark_core::store::claim_lease(current, holder, ttl, now) {
            Ok(expires) => {
                leases.insert(conversation.clone(), (holder.to_owned(), expires));
                Ok(tidemark_core::Lease::Acquired)
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

    async fn calibration(&self, conversation: &ConversationId) -> Result<Calibration, StoreError> {
        let calibrations = self.calibrations.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(calibrations.get(conversation).cloned().unwrap_or_default())
    }

    async fn save_calibration(
        &self,
        conversation: &ConversationId,
        calibration: Calibration,
    ) -> Result<(), StoreError> {
        let mut calibrations = self.calibrations.lock().unwrap_or_else(PoisonError::into_inner);
        calibrations.insert(conversation.clone(), calibration);
        Ok(())
    }

    async fn set_user(&self, conversation: &ConversationId, user: &ConversationId) -> Result<(), StoreError> {
        self.users.lock().unwrap_or_else(PoisonError::into_inner).assign(conversation, user);
        Ok(())
    }

    async fn user_conversations(&self, user: &ConversationId) -> Result<Vec<ConversationId>, StoreError> {
        Ok(self.users.lock().unwrap_or_else(PoisonError::into_inner).of(user))
    }

    async fn search_passages(
        &self,
        conversation: &ConversationId,
        query: &RecallQuery,
    ) -> Result<Vec<Passage>, StoreError> {
        let wanted = query.terms();
        if wanted.is_empty() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let Some(entry) = self.existing(conversation) else { return Ok(Vec::new()) };
        // The chosen messages' passages are ranked where they are kept; only the answer is copied out.
        let mut entry = lock(&entry);
        entry.catch_up(query.below);
        let found: Vec<Vec<Seq>> = wanted
            .iter()
            .map(|term| {
                let Some(seqs) = entry.postings.get(term) else { return Vec::new() };
                let below = seqs.partition_point(|seq| *seq < query.below);
                seqs[..below].iter().rev().take(RARE_MESSAGES + 1).copied().collect()
            })
            .collect();
        let chosen = candidate_messages(&found);
        let candidates = chosen
            .into_iter()
            .filter_map(|seq| Some((seq, entry.get(seq)?.message.role, entry.passages.get(&seq)?)))
            .flat_map(|(seq, role, cut)| cut.iter().map(move |passage| (seq, role, passage)));
        let Some(embedder) = &self.embedder else { return Ok(rank_borrowed(query, candidates)) };
        let mut keyword = rank_borrowed(&keyword_pool(query), candidates);
        let Some(wanted) = embedder.embed(&query.text) else {
            keyword.truncate(query.limit);
            return Ok(keyword);
        };
        entry.embed_up_to(query.below, embedder.as_ref());
        let similar = entry.similar(&wanted, query.below);
        Ok(combine(query, keyword, similar, embedder.as_ref()))
    }
}

impl FactStore for InMemoryStore {
    async fn put(&self, fact: NewFact) -> Result<Put, FactError> {
        self.fact_table().put(fact)
    }

    async fn get(&self, id: FactId) -> Result<Option<Fact>, FactError> {
        Ok(self.fact_table().get(id))
    }

    async fn list(&self, filter: &FactFilter) -> Result<Vec<Fact>, FactError> {
        Ok(self.fact_table().list(filter))
    }

    async fn search(&self, scope: Option<&Scope>, query: &str, limit: usize) -> Result<Vec<Fact>, FactError> {
        Ok(self.fact_table().search(scope, query, limit))
    }

    async fn update(&self, id: FactId, text: String) -> Result<Fact, FactError> {
        self.fact_table().update(id, text)
    }

    async fn delete(&self, id: FactId) -> Result<bool, FactError> {
        Ok(self.fact_table().delete(id))
    }

    async fn quarantine(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.fact_table().quarantine(id, reason)
    }

    async fn supersede(&self, id: FactId, reason: String) -> Result<Fact, FactError> {
        self.fact_table().supersede(id, reason)
    }

    async fn usage(&self, scope: &Scope, tier: Tier) -> Result<BudgetUsage, FactError> {
        Ok(self.fact_table().budget_usage(scope, tier))
    }

    async fn generation(&self) -> Result<u64, FactError> {
        Ok(self.fact_table().generation())
    }

    async fn consolidate(&self, pass: &str, merges: Vec<Merge>) -> Result<(RunId, Vec<Merged>), FactError> {
        self.fact_table().consolidate(pass, merges)
    }

    async fn finish_run(&self, run: RunId) -> Result<(), FactError> {
        self.fact_table().finish_run(run)
    }

    async fn rollback(&self, run: RunId) -> Result<RolledBack, FactError> {
        self.fact_table().rollback(run)
    }

    async fn runs(&self) -> Result<Vec<RunInfo>, FactError> {
        Ok(self.fact_table().runs())
    }

    async fn run_records(&self, run: RunId) -> Result<Vec<RollbackRecord>, FactError> {
        self.fact_table().run_records(run)
    }
}

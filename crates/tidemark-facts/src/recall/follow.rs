//! What answered a quoted turn: the passages of the turns after a user's message that a load quotes.
//!
//! The passage that matches a question is often the question asked the first
//! time ("what did AWS cost us in October?"), and the value wanted is in the
//! turns that answered it: a tool's result, the reply. So the best
//! [`ASKED`] candidates that are a user's questions (a passage with a `?`)
//! bring, right after them in rank order, up to [`ANSWERS`] passages of the
//! turns that followed, up to the next user instruction and out of the
//! prompt's view: those that match the query best first, then the turns that
//! came next, one passage each, a turn that calls a tool last. They then
//! compete for the block's room like any candidate, screened and packed the
//! same way. A statement brings nothing: what follows it is most often an
//! acknowledgement, which may repeat a value a later turn changes.

use std::sync::{Arc, Mutex};

use quick_cache::unsync::Cache;
use tidemark_core::recall::{Passage, RecallQuery, passage_texts, rank_texts};
use tidemark_core::{
    ContextError, ContextRequest, ConversationId, ConversationStore, Message, Part, Role, Seq, SeqRange,
    StoredMessage,
};

use super::{Found, Recall, locked};

/// How many of the best candidates that are a user's questions bring what followed them.
pub(super) const ASKED: usize = 2;
/// How many turns after a found passage are read for what answered it: by recall for its best
/// questions, and by `search_history` for its follow-ups.
pub const EXCHANGE_SPAN: u64 = 4;
/// The most passages one candidate brings.
pub(super) const ANSWERS: usize = 2;

/// Whether `message` opens a new exchange: a user message with something besides tool results.
fn opens_exchange(message: &Message) -> bool {
    message.role == Role::User && message.parts.iter().any(|part| !matches!(part, Part::ToolResult(_)))
}

/// The first turns of `turns` (read in order after a found passage) up to the next user instruction: the exchange that answered it.
pub fn exchange(turns: &[StoredMessage]) -> &[StoredMessage] {
    let end = turns.iter().position(|turn| opens_exchange(&turn.message)).unwrap_or(turns.len());
    &turns[..end]
}

/// The passages of an [`exchange`] that answer a found passage, best first, at most `limit`.
///
/// `texts` are the exchange's passages in order, as `(seq, role, index, text)`,
/// and `calling` the turns among them that call a tool. Those that match
/// `query` come first, best first; then the turns that came next, one passage
/// each (an answer is most often right after the question, and a question in
/// other words shares no term with it); a turn that calls a tool comes last,
/// since it says what it fetches and its result says what came back.
///
/// ```
/// use tidemark_core::{Role, Seq};
/// use tidemark_facts::recall::answers;
///
/// let texts = [
///     (Seq(8), Role::Assistant, 0, "cost_explorer {\"month\": \"2026-10\"}"),
///     (Seq(9), Role::Tool, 0, "{\"Amount\": \"11482.17\", \"Unit\": \"USD\"}"),
///     (Seq(10), Role::Assistant, 0, "October came to about 11.5k USD."),
/// ];
/// let found = answers(&texts, &[Seq(8)], "How much did Amazon charge us for October?", 2);
/// assert_eq!(found.iter().map(|passage| passage.seq).collect::<Vec<_>>(), [Seq(10), Seq(9)]);
/// ```
pub fn answers(texts: &[(Seq, Role, u32, &str)], calling: &[Seq], query: &str, limit: usize) -> Vec<Passage> {
    let ranked = rank_texts(
        &RecallQuery::new(query, Seq(u64::MAX), limit),
        texts.iter().map(|(seq, role, index, text)| (*seq, *role, *index, *text)),
    );
    let mut chosen: Vec<Passage> = ranked.into_iter().filter(|found| found.score > 0.0).take(limit).collect();
    let answering = texts.iter().filter(|(seq, ..)| !calling.contains(seq));
    let announcing = texts.iter().filter(|(seq, ..)| calling.contains(seq));
    let mut last = None;
    for (seq, role, index, text) in answering.chain(announcing) {
        if chosen.len() >= limit {
            break;
        }
        if last == Some(*seq) || chosen.iter().any(|taken| taken.seq == *seq) {
            continue;
        }
        last = Some(*seq);
        chosen.push(Passage::new(*seq, *role, *index, *text, 0.0));
    }
    chosen
}

/// The passages of one exchange, as [`answers`] reads them: `(seq, role, index, text)`, and the turns that call a tool.
struct Exchange {
    texts: Vec<(Seq, Role, u32, String)>,
    calling: Vec<Seq>,
}

/// The exchanges after found questions, by conversation and question, kept once read whole.
pub(super) struct Exchanges(Mutex<Cache<(ConversationId, Seq), Arc<Exchange>>>);

impl Exchanges {
    /// How many exchanges are kept.
    const KEPT: usize = 4_096;

    pub(super) fn new() -> Self {
        Self(Mutex::new(Cache::new(Self::KEPT)))
    }

    fn get(&self, key: &(ConversationId, Seq)) -> Option<Arc<Exchange>> {
        locked(&self.0).get(key).cloned()
    }

    fn insert(&self, key: (ConversationId, Seq), exchange: Arc<Exchange>) {
        locked(&self.0).insert(key, exchange);
    }
}

impl Exchange {
    /// The exchange that starts with `turns`, and whether it is whole: it ends at a user
    /// instruction, or runs the [`EXCHANGE_SPAN`] turns read, so that later turns cannot change it.
    fn read(turns: &[StoredMessage]) -> (Self, bool) {
        let exchange = exchange(turns);
        let whole = exchange.len() < turns.len() || turns.len() as u64 >= EXCHANGE_SPAN;
        let calling = exchange
            .iter()
            .filter(|turn| turn.message.tool_calls().next().is_some())
            .map(|turn| turn.seq)
            .collect();
        let texts = exchange
            .iter()
            .flat_map(|turn| {
                passage_texts(&turn.message)
                    .into_iter()
                    .map(|(index, text)| (turn.seq, turn.message.role, index, text))
            })
            .collect();
        (Self { texts, calling }, whole)
    }
}

impl<S: ConversationStore> Recall<S> {
    /// `found` with what answered its best [`ASKED`] user passages right after each, out of the prompt's view.
    pub(super) async fn with_answers(
        &self,
        request: &ContextRequest<'_>,
        mut found: Vec<Found>,
    ) -> Result<Vec<Found>, ContextError> {
        let asked: Vec<usize> = (0..found.len())
            .filter(|&at| found[at].passage.role == Role::User && found[at].passage.text.contains('?'))
            .take(ASKED)
            .collect();
        // From the last, so that the places of the earlier ones stay true.
        for &at in asked.iter().rev() {
            let question = &found[at];
            let from = question.from.clone();
            let source = from.as_ref().unwrap_or(request.conversation());
            let start = question.passage.seq.after(1);
            // Every turn of another conversation is out of view; in this one, only those below the window.
            let end = if from.is_some() { Seq(u64::MAX) } else { request.below() };
            let stop = Seq(start.0.saturating_add(EXCHANGE_SPAN).min(end.0));
            if stop <= start {
                continue;
            }
            let key = (source.clone(), question.passage.seq);
            let read = match self.exchanges.get(&key) {
                Some(read) => read,
                None => {
                    let range = SeqRange::new(start, stop);
                    let turns = self.store.load_range(source, range).await.map_err(ContextError::new)?;
                    let (read, whole) = Exchange::read(&turns);
                    let read = Arc::new(read);
                    // Turns past the window's start may still be read later; an exchange cut short there is not kept.
                    if whole {
                        self.exchanges.insert(key, Arc::clone(&read));
                    }
                    read
                }
            };
            let known = |seq: Seq, index: u32| {
                (from.is_none() && request.is_in_prompt(seq))
                    || found.iter().any(|other| {
                        other.from == from && other.passage.seq == seq && other.passage.index == index
                    })
            };
            let texts: Vec<(Seq, Role, u32, &str)> = read
                .texts
                .iter()
                .filter(|(seq, _, index, _)| !known(*seq, *index))
                .map(|(seq, role, index, text)| (*seq, *role, *index, text.as_str()))
                .collect();
            let score = question.passage.score;
            let answered: Vec<Found> = answers(&texts, &read.calling, request.query(), ANSWERS)
                .into_iter()
                .map(|mut passage| {
                    // In the question's place in rank order.
                    passage.score = score;
                    Found { from: from.clone(), passage }
                })
                .collect();
            found.splice(at + 1..at + 1, answered);
        }
        Ok(found)
    }
}

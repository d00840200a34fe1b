//! `search_history`: the passages recall finds below the window, each with what followed it in its exchange.
//!
//! A passage that matches the model's question is often the question asked
//! the first time ("what's the instance id of the bastion?"), and the value
//! it wants is in the turns that answered it: a tool's result, the reply.
//! So each found passage comes with up to [`FOLLOW_UPS`] passages of the
//! turns after it, up to the next user instruction, those that best match
//! the query first, then the turns that came next, in order, a turn that
//! calls a tool last (it says what it fetches; its result says what came
//! back): what a person scrolling the history would read next.

use serde_json::{Value, json};
use tidemark_core::recall::passage_texts;
use tidemark_core::{ConversationId, ConversationStore, FactStore, Message, Part, Role, Seq, SeqRange};
use tidemark_facts::Recalled;
use tidemark_facts::recall::{EXCHANGE_SPAN, answers, exchange};
use tidemark_facts::scan::Verdict;

use crate::{MemoryTools, ToolOutput, store_error};

/// The most follow-up passages one found passage brings.
pub(crate) const FOLLOW_UPS: usize = 2;

/// One passage of a turn that followed a found one.
struct FollowUp {
    seq: Seq,
    role: Role,
    text: String,
    score: f64,
}

impl<S: ConversationStore + FactStore> MemoryTools<S> {
    /// Answer `search_history`: recall's screened passages, best first, each with its follow-ups, within the result's token bound.
    pub(crate) async fn search_history_with(
        &self,
        conversation: &ConversationId,
        query: &str,
        limit: usize,
    ) -> Result<ToolOutput, ToolOutput> {
        let state = self.store.state(conversation).await.map_err(|error| store_error(&error))?;
        let window = (state.watermark, state.retained.as_slice());
        // Half the bound for the found passages; their follow-ups share what is left.
        let found_tokens = self.limits.max_result_tokens / 2;
        let found = self
            .recall
            .search(conversation, query, window, limit, found_tokens, &*self.counter)
            .await
            .map_err(|error| store_error(&error))?;
        let mut passages = Vec::with_capacity(found.len());
        for passage in &found {
            let source = passage.conversation.as_ref().unwrap_or(conversation);
            // Follow-ups of this conversation stop below the window: what is in view needs no quoting.
            let end = if passage.conversation.is_some() { Seq(u64::MAX) } else { state.watermark };
            let follow = self.follow_ups(source, passage, query, end).await?;
            passages.push((passage, follow));
        }
        let mut answer = render(&passages, state.watermark);
        // The follow-ups give way, the last found passage's first, until the answer fits its bound.
        while self.counter.count_text(&answer.to_string()) > self.limits.max_result_tokens {
            let Some((_, follow)) = passages.iter_mut().rev().find(|(_, follow)| !follow.is_empty()) else {
                break;
            };
            follow.pop();
            answer = render(&passages, state.watermark);
        }
        if passages.is_empty() {
            answer["note"] =
                Value::from("no earlier turn out of view matches; the turns in view are not searched");
        }
        Ok(ToolOutput::ok(&answer))
    }

    /// The passages of the turns after `passage`, up to the next user instruction (and below `end`), that best match `query`.
    async fn follow_ups(
        &self,
        conversation: &ConversationId,
        passage: &Recalled,
        query: &str,
        end: Seq,
    ) -> Result<Vec<FollowUp>, ToolOutput> {
        let start = passage.seq.after(1);
        let stop = Seq(start.0.saturating_add(EXCHANGE_SPAN).min(end.0));
        if stop <= start {
            return Ok(Vec::new());
        }
        let stored = self
            .store
            .load_range(conversation, SeqRange::new(start, stop))
            .await
            .map_err(|error| store_error(&error))?;
        // Each turn is scanned whole, as recall scans a message it quotes from.
        let mut texts: Vec<(Seq, Role, u32, String)> = Vec::new();
        let mut calling: Vec<Seq> = Vec::new();
        for turn in exchange(&stored) {
            if turn.message.tool_calls().next().is_some() {
                calling.push(turn.seq);
            }
            let mut readable = turn.message.as_ref().clone();
            for part in &mut readable.parts {
                if let Part::ToolResult(result) = part {
                    *part = Part::text(result.content.clone());
                }
            }
            let whole = readable.text().into_owned();
            let text = match self.scanner.scan(&whole) {
                Verdict::Clean => whole,
                Verdict::Redacted { text, .. } => text,
                _ => continue,
            };
            let message = Message::new(turn.message.role, vec![Part::text(text)]);
            texts.extend(
                passage_texts(&message)
                    .into_iter()
                    .map(|(index, text)| (turn.seq, turn.message.role, index, text)),
            );
        }
        let borrowed: Vec<(Seq, Role, u32, &str)> =
            texts.iter().map(|(seq, role, index, text)| (*seq, *role, *index, text.as_str())).collect();
        let mut chosen: Vec<FollowUp> = answers(&borrowed, &calling, query, FOLLOW_UPS)
            .into_iter()
            .map(|found| FollowUp { seq: found.seq, role: found.role, text: found.text, score: found.score })
            .collect();
        chosen.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.seq.cmp(&b.seq)));
        Ok(chosen)
    }
}

/// The answer: each found passage with its turn, role, conversation when another, and follow-ups.
fn render(passages: &[(&Recalled, Vec<FollowUp>)], watermark: Seq) -> Value {
    let lines: Vec<Value> = passages
        .iter()
        .map(|(passage, follow)| {
            let mut line =
                json!({"turn": passage.seq.0, "role": passage.role.as_str(), "text": passage.text});
            if let Some(other) = &passage.conversation {
                line["conversation"] = Value::from(other.as_str());
            }
            if !follow.is_empty() {
                line["then"] = follow
                    .iter()
                    .map(|next| json!({"turn": next.seq.0, "role": next.role.as_str(), "text": next.text}))
                    .collect();
            }
            line
        })
        .collect();
    json!({"passages": lines, "searched_below_turn": watermark.0})
}

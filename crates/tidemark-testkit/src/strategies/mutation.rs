//! Mutations that break a valid history in one known way, for testing validators and the code that relies on them.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use tidemark_core::{Message, Part, Role, UnitKind, units};

use super::arb_history;

/// One way to break the tool-call rules of a valid history.
///
/// Applied by [`mutate`] to a history that [`tidemark_core::validate`] accepts,
/// each mutation yields a history that it rejects, with the violation kind
/// named below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mutation {
    /// Remove a tool call whose result is present, so that the result answers
    /// nothing (an assistant message left without parts is removed too).
    /// Validation reports `OrphanResult`.
    DropCall,
    /// Move a tool message to just before the assistant message that makes its
    /// calls. Validation reports `ResultBeforeCall`.
    MoveResultBeforeCall,
    /// Repeat a call within its assistant message, so that one message makes
    /// the same id twice. Validation reports `DuplicateCallId`.
    DuplicateCallId,
    /// Insert a tool message answering a call id that appears nowhere, right
    /// after a completed exchange or a user or assistant text message.
    /// Validation reports `OrphanResult`.
    OrphanResult,
}

impl Mutation {
    /// Every mutation, in declaration order.
    pub const ALL: [Mutation; 4] = [
        Mutation::DropCall,
        Mutation::MoveResultBeforeCall,
        Mutation::DuplicateCallId,
        Mutation::OrphanResult,
    ];
}

/// Apply `mutation` to a valid `history` at the `pick % n`-th of its `n` possible places.
///
/// Places are counted in history order, so the same `pick` gives the same
/// mutation of the same history. Returns `None` when the history has no place
/// for the mutation, for example [`Mutation::DropCall`] on a history without
/// answered calls. The result is only guaranteed to be invalid when `history`
/// is valid.
pub fn mutate(history: &[Message], mutation: Mutation, pick: usize) -> Option<Vec<Message>> {
    match mutation {
        Mutation::DropCall => drop_call(history, pick),
        Mutation::MoveResultBeforeCall => move_result_before_call(history, pick),
        Mutation::DuplicateCallId => duplicate_call_id(history, pick),
        Mutation::OrphanResult => orphan_result(history, pick),
    }
}

/// Valid histories (from [`arb_history`](super::arb_history)) broken by `mutation`, at a random place.
pub fn arb_invalid_history(mutation: Mutation) -> impl Strategy<Value = Vec<Message>> {
    (arb_history(), any::<usize>())
        .prop_filter_map("the history has no place for the mutation", move |(history, pick)| {
            mutate(&history, mutation, pick)
        })
}

/// The element at `pick` modulo the number of candidates, or `None` when there are none.
fn choose<T: Copy>(candidates: &[T], pick: usize) -> Option<T> {
    if candidates.is_empty() { None } else { Some(candidates[pick % candidates.len()]) }
}

/// Every call id that some tool result answers.
fn answered_ids(history: &[Message]) -> HashSet<&str> {
    history.iter().flat_map(Message::tool_results).map(|result| result.call_id.as_str()).collect()
}

/// Places: every answered call. In a valid history ids are unique, so once the
/// call is gone its result names an id that no message makes; the messages before
/// that result still validate (their exchanges just expect one call fewer), so the
/// first violation is the orphaned result.
fn drop_call(history: &[Message], pick: usize) -> Option<Vec<Message>> {
    let answered = answered_ids(history);
    let mut candidates = Vec::new();
    for (index, message) in history.iter().enumerate() {
        for (position, part) in message.parts.iter().enumerate() {
            if let Part::ToolCall(call) = part
                && answered.contains(call.id.as_str())
            {
                candidates.push((index, position));
            }
        }
    }
    let (index, position) = choose(&candidates, pick)?;
    let mut mutated = history.to_vec();
    mutated[index].parts.remove(position);
    if mutated[index].parts.is_empty() {
        mutated.remove(index);
    }
    Some(mutated)
}

/// Places: every tool message. A valid history has no calls pending just before
/// an assistant message that makes calls, so the moved results meet no pending
/// call there, were not answered before, and name a call made at a later index.
fn move_result_before_call(history: &[Message], pick: usize) -> Option<Vec<Message>> {
    // The message that makes each call.
    let mut caller: HashMap<&str, usize> = HashMap::new();
    for (index, message) in history.iter().enumerate() {
        for call in message.tool_calls() {
            caller.entry(call.id.as_str()).or_insert(index);
        }
    }
    let candidates: Vec<(usize, usize)> = history
        .iter()
        .enumerate()
        .filter(|(_, message)| message.role == Role::Tool)
        .filter_map(|(index, message)| {
            // In a valid history every result of a tool message answers the same
            // assistant message, so the first result tells which one.
            let first = message.tool_results().next()?;
            let call_index = *caller.get(first.call_id.as_str())?;
            (call_index < index).then_some((index, call_index))
        })
        .collect();
    let (index, call_index) = choose(&candidates, pick)?;
    let mut mutated = history.to_vec();
    let moved = mutated.remove(index);
    mutated.insert(call_index, moved);
    Some(mutated)
}

/// Places: every call. A copy of the call goes right after it in the same
/// assistant message, so that message makes one id twice; ids may repeat
/// across exchanges, but never within one message.
fn duplicate_call_id(history: &[Message], pick: usize) -> Option<Vec<Message>> {
    // Every call as (message index, part index), in history order.
    let calls: Vec<(usize, usize)> = history
        .iter()
        .enumerate()
        .flat_map(|(index, message)| {
            message.parts.iter().enumerate().filter_map(move |(position, part)| match part {
                Part::ToolCall(_) => Some((index, position)),
                _ => None,
            })
        })
        .collect();
    let (index, position) = choose(&calls, pick)?;
    let mut mutated = history.to_vec();
    let copy = mutated[index].parts[position].clone();
    mutated[index].parts.insert(position + 1, copy);
    Some(mutated)
}

/// Places: the ends of completed exchanges and of user or assistant text
/// messages, where no call is pending; the new result names an id used nowhere.
fn orphan_result(history: &[Message], pick: usize) -> Option<Vec<Message>> {
    let answered = answered_ids(history);
    let mut candidates = Vec::new();
    for unit in units(history) {
        let first = &history[unit.start()];
        let fits = match unit.kind() {
            UnitKind::ToolExchange => first.tool_calls().all(|call| answered.contains(call.id.as_str())),
            _ => matches!(first.role, Role::User | Role::Assistant),
        };
        if fits {
            candidates.push(unit.end());
        }
    }
    let at = choose(&candidates, pick)?;

    // An id that no call makes and no result answers.
    let used: HashSet<&str> = history
        .iter()
        .flat_map(|message| {
            let calls = message.tool_calls().map(|call| call.id.as_str());
            calls.chain(message.tool_results().map(|result| result.call_id.as_str()))
        })
        .collect();
    let fresh = (0_usize..)
        .map(|n| format!("call_orphan_{n}"))
        .find(|id| !used.contains(id.as_str()))
        .expect("a finite history leaves some id of the infinite sequence unused");

    let mut mutated = history.to_vec();
    mutated.insert(at, Message::tool_result(fresh, "a result for a call nobody made"));
    Some(mutated)
}

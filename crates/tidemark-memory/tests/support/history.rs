//! The lock-step check of compaction history: one compacting memory over the store under test, one over the reference store, the same random operations on both.
//!
//! Shared by the tests of every store (the PostgreSQL tests include this file by path).

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use proptest::prelude::*;
use tidemark_core::history::HistoryError;
use tidemark_core::{
    ConversationId, ConversationMemory, ConversationStore, MemoryError, Message, Seq, SeqRange, TokenCounter,
    validate,
};
use tidemark_memory::{CompactingMemory, HeuristicCounter, TokenWindow};
use tidemark_testkit::reference::{ConcatCompactor, ReferenceStore};
use tidemark_testkit::workload::{Rng, replay_turn};

/// One step of a history run.
#[derive(Clone, Debug)]
pub enum Op {
    /// Append the replay turn drawn from this seed: a request, a tool call, its result, an answer.
    Append(u64),
    /// Load, compacting when the window is over the budget.
    Load,
    /// Load within this lower budget.
    LoadWithin(u32),
    /// The model starts a fresh window.
    Reset,
    /// Take the last compaction back.
    Undo,
    /// Restore the epoch this many generations back from the current one (zero: the initial state).
    Restore(u64),
    /// Forget the conversation.
    Clear,
    /// Fork the conversation at this share of its messages (in hundredths) and go on with the fork.
    Fork(u64),
}

pub fn arb_ops(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        8 => any::<u64>().prop_map(Op::Append),
        5 => Just(Op::Load),
        1 => (1_500u32..4_000).prop_map(Op::LoadWithin),
        1 => Just(Op::Reset),
        3 => Just(Op::Undo),
        1 => (0u64..4).prop_map(Op::Restore),
        1 => Just(Op::Clear),
        1 => (0u64..=100).prop_map(Op::Fork),
    ];
    prop::collection::vec(op, len)
}

/// The budget the memories compact to: room for a few turns, so loads compact often.
pub const BUDGET: u32 = 5_000;

fn memory<S: ConversationStore>(
    store: S,
) -> CompactingMemory<S, TokenWindow<HeuristicCounter>, ConcatCompactor> {
    let policy = TokenWindow::new(NonZeroU32::new(BUDGET).expect("not zero"), HeuristicCounter::default());
    CompactingMemory::new(store, policy, ConcatCompactor::capped(1_200))
}

/// An outcome both memories must agree on: the value, or the kind of refusal.
fn outcome<T: std::fmt::Debug>(result: &Result<T, MemoryError>) -> String {
    match result {
        Ok(value) => format!("{value:?}"),
        Err(MemoryError::History(refused)) => format!("history: {refused:?}"),
        Err(other) => format!("error: {other}"),
    }
}

/// A fixed run long enough to compact, undo, redo and read back many times: 400 operations from `seed`.
pub fn long_run(seed: u64) -> Vec<Op> {
    let mut rng = Rng::new(seed);
    (0..400)
        .map(|_| match rng.between(0, 20) {
            0..=8 => Op::Append(rng.next_u64()),
            9..=14 => Op::Load,
            15 => Op::LoadWithin(2_500),
            16 => Op::Reset,
            17..=18 => Op::Undo,
            19 if rng.between(0, 4) == 0 => Op::Fork(rng.between(50, 101) as u64),
            _ => Op::Restore(2),
        })
        .collect()
}

/// Play `ops` on a memory over `store` and on one over the reference store, in lock-step, on conversation `id`.
///
/// Checked at every step: both give the same answer; every prompt is a valid
/// history within the budget (the one of the load, for a load within a lower
/// budget). At the end: every prompt a plain load served is what
/// `load_as_of` rebuilds for its point, on both; points before the last clear
/// are refused; the store holds every message appended since the last
/// clear; both histories are the same but for their times.
/// What a lock-step run compared, so a test can tell that it exercised something.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checked {
    /// Undos and restores that went through.
    pub restores: usize,
    /// Served prompts read again as of their point.
    pub as_of: usize,
    /// Epochs the store recorded by the end.
    pub epochs: usize,
    /// Forks made and gone on with.
    pub forks: usize,
}

pub async fn lockstep<S: ConversationStore>(
    store: S,
    id: &ConversationId,
    ops: &[Op],
) -> Result<Checked, String> {
    let mut checked = Checked::default();
    // Forks go on with the fork: the conversation in play, and each one left behind with what it holds.
    let mut id = id.clone();
    let id = &mut id;
    let mut left: Vec<(ConversationId, Vec<Message>)> = Vec::new();
    let subject = memory(store);
    let reference = memory(ReferenceStore::new());
    let counter = HeuristicCounter::default();
    // The prompt the last plain load served while each message was the newest, since the state last changed.
    let mut served: BTreeMap<Seq, Vec<Message>> = BTreeMap::new();
    let mut appended: Vec<Message> = Vec::new();
    let mut next = Seq::ZERO;
    let mut cleared_at: Option<Seq> = None;
    for (step, op) in ops.iter().enumerate() {
        let fail = |what: String| format!("step {step} ({op:?}): {what}\n  operations: {ops:?}");
        match op {
            Op::Append(seed) => {
                let turn = replay_turn(&mut Rng::new(*seed), step);
                let got = subject.append(id, turn.clone()).await;
                let expected = reference.append(id, turn.clone()).await;
                if outcome(&got) != outcome(&expected) {
                    return Err(fail(format!("append gave {got:?}, the reference {expected:?}")));
                }
                next = next.after(turn.len() as u64);
                appended.extend(turn);
            }
            Op::Load | Op::LoadWithin(_) => {
                let within = match op {
                    Op::LoadWithin(budget) => NonZeroU32::new(*budget),
                    _ => None,
                };
                let (got, expected) = match within {
                    Some(budget) => {
                        (subject.load_within(id, budget).await, reference.load_within(id, budget).await)
                    }
                    None => (subject.load(id).await, reference.load(id).await),
                };
                if outcome(&got) != outcome(&expected) {
                    return Err(fail(format!(
                        "the load gave {}\n  the reference {}",
                        outcome(&got),
                        outcome(&expected)
                    )));
                }
                let Ok(prompt) = got else { continue };
                validate(&prompt).map_err(|violation| fail(format!("an invalid prompt: {violation}")))?;
                let limit = within.map_or(BUDGET, NonZeroU32::get);
                let tokens = counter.count_prompt(&prompt);
                // Only the newest turn alone may be over a budget, and no turn here is.
                if tokens > limit {
                    return Err(fail(format!("a prompt of {tokens} tokens, over the budget of {limit}")));
                }
                if let Some(newest) = next.0.checked_sub(1).map(Seq) {
                    match within {
                        None => {
                            served.insert(newest, prompt);
                        }
                        // A load within a lower budget may serve less than the window it leaves.
                        Some(_) => {
                            served.remove(&newest);
                        }
                    }
                }
            }
            Op::Reset | Op::Undo | Op::Restore(_) => {
                let (got, expected) = match op {
                    Op::Reset => (
                        subject.new_context(id, "carry on").await.map(|reset| format!("{reset:?}")),
                        reference.new_context(id, "carry on").await.map(|reset| format!("{reset:?}")),
                    ),
                    Op::Undo => (
                        subject.undo(id).await.map(|undone| format!("{undone:?}")),
                        reference.undo(id).await.map(|undone| format!("{undone:?}")),
                    ),
                    Op::Restore(back) => {
                        let current = reference.get_ref().state(id).await.map_err(|e| fail(e.to_string()))?;
                        let target =
                            current.generation.checked_sub(*back).filter(|target| *back > 0 && *target > 0);
                        (
                            subject.restore(id, target).await.map(|undone| format!("{undone:?}")),
                            reference.restore(id, target).await.map(|undone| format!("{undone:?}")),
                        )
                    }
                    _ => unreachable!("matched above"),
                };
                if outcome(&got) != outcome(&expected) {
                    return Err(fail(format!(
                        "gave {}\n  the reference {}",
                        outcome(&got),
                        outcome(&expected)
                    )));
                }
                if got.is_ok() && !matches!(op, Op::Reset) {
                    checked.restores += 1;
                }
                // The state changed after the last load at this point: the next load serves anew.
                if let Some(newest) = next.0.checked_sub(1).map(Seq) {
                    served.remove(&newest);
                }
            }
            Op::Fork(share) => {
                let base = cleared_at.unwrap_or(Seq::ZERO);
                let at = Seq(base.0 + (next.0 - base.0) * share / 100);
                let fork = ConversationId::new(format!("{id}/{step}")).map_err(|e| fail(e.to_string()))?;
                let got = subject.fork(id, at, &fork).await;
                let expected = reference.fork(id, at, &fork).await;
                if outcome(&got) != outcome(&expected) {
                    return Err(fail(format!(
                        "gave {}\n  the reference {}",
                        outcome(&got),
                        outcome(&expected)
                    )));
                }
                if got.is_ok() {
                    let kept = usize::try_from(at.0 - base.0).unwrap_or(usize::MAX);
                    left.push((id.clone(), appended.clone()));
                    appended.truncate(kept);
                    served.retain(|seq, _| *seq < at);
                    next = at;
                    *id = fork;
                    checked.forks += 1;
                }
            }
            Op::Clear => {
                subject.clear(id).await.map_err(|e| fail(e.to_string()))?;
                reference.clear(id).await.map_err(|e| fail(e.to_string()))?;
                served.clear();
                appended.clear();
                cleared_at = Some(next);
            }
        }
    }
    for (seq, prompt) in &served {
        for (name, rebuilt) in [
            ("store", subject.load_as_of(id, *seq).await),
            ("reference", reference.load_as_of(id, *seq).await),
        ] {
            match rebuilt {
                Ok(rebuilt) if &rebuilt == prompt => checked.as_of += 1,
                other => {
                    return Err(format!(
                        "the {name}'s prompt as of message {seq} is {}, not the one served ({} messages)\n  operations: {ops:?}",
                        outcome(&other),
                        prompt.len()
                    ));
                }
            }
        }
    }
    // A load after the clear, before any append, served nothing; the prompts before it cannot come back.
    if let Some(cleared) = cleared_at.filter(|cleared| *cleared > Seq::ZERO) {
        let at = subject.load_as_of(id, Seq(cleared.0 - 1)).await;
        if !matches!(&at, Ok(prompt) if prompt.is_empty()) {
            return Err(format!("as of the clear: {}\n  operations: {ops:?}", outcome(&at)));
        }
        if cleared.0 >= 2 {
            let before = subject.load_as_of(id, Seq(cleared.0 - 2)).await;
            if !matches!(before, Err(MemoryError::History(HistoryError::BeforeHistory { .. }))) {
                return Err(format!(
                    "as of a message before the clear: {}\n  operations: {ops:?}",
                    outcome(&before)
                ));
            }
        }
    }
    let stored =
        subject.get_ref().load_range(id, SeqRange::from(Seq::ZERO)).await.map_err(|e| e.to_string())?;
    let stored: Vec<&Message> = stored.iter().map(|stored| stored.message.as_ref()).collect();
    if stored != appended.iter().collect::<Vec<_>>() {
        return Err(format!(
            "the store holds {} messages, {} were appended since the last clear\n  operations: {ops:?}",
            stored.len(),
            appended.len()
        ));
    }
    // Whatever happened to the forks after, the conversations they left hold what they held.
    for (earlier, held) in &left {
        let stored = subject
            .get_ref()
            .load_range(earlier, SeqRange::from(Seq::ZERO))
            .await
            .map_err(|e| e.to_string())?;
        let stored: Vec<&Message> = stored.iter().map(|stored| stored.message.as_ref()).collect();
        if stored != held.iter().collect::<Vec<_>>() {
            return Err(format!(
                "{earlier} holds {} messages after its fork, not {}\n  operations: {ops:?}",
                stored.len(),
                held.len()
            ));
        }
    }
    let timeless = |epochs: Vec<tidemark_core::history::Epoch>| -> Vec<tidemark_core::history::Epoch> {
        epochs
            .into_iter()
            .map(|mut epoch| {
                epoch.at_ms = 0;
                epoch
            })
            .collect()
    };
    let got = timeless(subject.history(id).await.map_err(|e| e.to_string())?);
    let expected = timeless(reference.history(id).await.map_err(|e| e.to_string())?);
    if got != expected {
        return Err(format!("the histories differ:\n  store     {got:?}\n  reference {expected:?}"));
    }
    checked.epochs = got.len();
    Ok(checked)
}

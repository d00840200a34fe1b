//! The random part of the fact suite: proptest-drawn operation sequences applied to the store and to [`ReferenceFactStore`] in lock-step.
//!
//! Each case starts a fresh reference with the store's budgets (read through
//! [`FactStore::usage`]), works in two scopes of its own, and plays one drawn
//! sequence of operations: put (new texts, and known texts again with case
//! and spaces changed), get, update, delete, quarantine, list, search (drawn
//! words, or a known fact's words), usage, consolidate (mostly merges of
//! distinct active facts of one scope and tier, sometimes arbitrary picks),
//! finish a run, roll back, list runs, read a run's records. Every operation
//! goes to both; the answers must agree as follows.
//!
//! - **Ids.** The store and the reference number facts and runs differently
//!   (a shared store holds other data), so each side's ids are paired as they
//!   appear: a fact inserted (or merged) by both, a run applied by both. Every
//!   id in the store's answer is translated through the pairs; an id the pairs
//!   do not know fails the check. Operations aimed at a fact or run pick one
//!   of the pairs, or a missing id (`u64::MAX`) on both sides.
//! - **Facts** are compared field by field after translation, except
//!   `created_ms` and `updated_ms`: the two sides read the clock at different
//!   moments. (The fixed scenarios check that times survive updates and
//!   rollbacks.) Lists, `get`, `put` (inserted or existing), `update`,
//!   `quarantine`, consolidation results and rollback records are compared
//!   this way, in order.
//! - **Errors** are compared by kind with their data translated: the usage,
//!   need and limit of [`FactError::OverBudget`], the fact of
//!   [`FactError::NotFound`] and [`FactError::Duplicate`], the run and facts of
//!   [`FactError::RestoreConflict`], the run of [`FactError::RunNotFound`].
//!   [`FactError::Invalid`] and [`FactError::BadMerge`] are compared by kind
//!   only, since their reasons name store ids. A backend error fails the check.
//! - **Runs**: the store's runs that are paired, with id, pass, status and
//!   merge count (not the time).
//! - **Usage** exactly; **generation**: after every operation, the store's
//!   generation must have risen if and only if the reference's did.
//! - **Search** is only compared within a scope (an unscoped search on a
//!   shared store sees other data). The backends rank with BM25 over
//!   different corpora, so exact orders differ legitimately, ties included.
//!   What every backend must agree on: the results are distinct facts of the
//!   reference's match set (active facts of the scope sharing a keyword with
//!   the query); there are `min(limit, matches)` of them; no result is
//!   outranked, in the sense of [`outranks`] (a dominance every BM25 respects
//!   whatever its corpus), by one placed before it; and no match left out
//!   outranks one returned.

use std::collections::HashMap;

use proptest::prelude::*;
use tidemark_core::{
    Fact, FactError, FactFilter, FactId, FactStore, Merge, Merged, NewFact, RollbackRecord, RolledBack,
    RunId, RunStatus, Scope, Seq, SeqRange, StatusFilter, Tier,
};

use super::super::{Failure, Ids, Samples, chain, ensure, fail_on};
use crate::reference::{ReferenceFactStore, outranks};

/// The name the lock-step check reports failures under.
const CHECK: &str = "lockstep_with_reference";

/// Words the texts are made of: few enough that texts repeat (idempotence,
/// duplicates, clashes), with case to fold, scripts other than Latin, and one
/// long word so small budgets fill up.
const WORDS: [&str; 10] = [
    "tea",
    "TEA",
    "coffee",
    "Rust",
    "port",
    "5433",
    "ünï",
    "日本",
    "a-rather-long-hyphenated-word-that-eats-through-small-budgets-quickly",
    "x",
];

/// One drawn operation; numbers pick among what exists when it is played.
#[derive(Debug, Clone)]
enum Op {
    Put {
        scope: usize,
        tier: usize,
        text: Vec<usize>,
        sourced: bool,
    },
    /// The text of a paired fact again, in capitals and with doubled spaces: the same fact by [`fact_hash`](tidemark_core::fact_hash).
    PutAgain {
        fact: usize,
    },
    Get {
        fact: usize,
    },
    /// A search in a paired fact's scope for that fact's words, so that searches find something.
    SearchFor {
        fact: usize,
        limit: usize,
    },
    Update {
        fact: usize,
        text: Vec<usize>,
    },
    Delete {
        fact: usize,
    },
    Quarantine {
        fact: usize,
        reason: u8,
    },
    Supersede {
        fact: usize,
        reason: u8,
    },
    List {
        scope: usize,
        tier: Option<usize>,
        status: usize,
    },
    Search {
        scope: usize,
        query: Vec<usize>,
        limit: usize,
    },
    Usage {
        scope: usize,
        tier: usize,
    },
    /// Each merge: source picks, whether they are picked among the first pick's scope and tier, and the merged text.
    Consolidate {
        merges: Vec<(Vec<usize>, bool, Vec<usize>)>,
    },
    FinishRun {
        run: usize,
    },
    Rollback {
        run: usize,
    },
    Runs,
    RunRecords {
        run: usize,
    },
}

fn arb_text() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        // An empty text now and then, on purpose: it must be refused the same way.
        1 => Just(Vec::new()),
        15 => prop::collection::vec(0..WORDS.len(), 1..4),
    ]
}

/// A search limit: small, so that it often cuts the matches short, and now and then zero.
fn arb_limit() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0), 5 => 1..4usize]
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..2usize, 0..2usize, arb_text(), any::<bool>())
            .prop_map(|(scope, tier, text, sourced)| Op::Put { scope, tier, text, sourced }),
        2 => any::<usize>().prop_map(|fact| Op::PutAgain { fact }),
        1 => any::<usize>().prop_map(|fact| Op::Get { fact }),
        2 => (any::<usize>(), arb_text()).prop_map(|(fact, text)| Op::Update { fact, text }),
        1 => any::<usize>().prop_map(|fact| Op::Delete { fact }),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(fact, reason)| Op::Quarantine { fact, reason }),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(fact, reason)| Op::Supersede { fact, reason }),
        1 => (0..2usize, prop::option::of(0..2usize), 0..4usize)
            .prop_map(|(scope, tier, status)| Op::List { scope, tier, status }),
        2 => (0..2usize, prop::collection::vec(0..WORDS.len(), 0..3), arb_limit())
            .prop_map(|(scope, query, limit)| Op::Search { scope, query, limit }),
        2 => (any::<usize>(), arb_limit()).prop_map(|(fact, limit)| Op::SearchFor { fact, limit }),
        1 => (0..2usize, 0..2usize).prop_map(|(scope, tier)| Op::Usage { scope, tier }),
        3 => prop::collection::vec(
            (prop::collection::vec(any::<usize>(), 1..4), prop::bool::weighted(0.85), arb_text()),
            0..3,
        )
        .prop_map(|merges| Op::Consolidate { merges }),
        1 => any::<usize>().prop_map(|run| Op::FinishRun { run }),
        2 => any::<usize>().prop_map(|run| Op::Rollback { run }),
        1 => Just(Op::Runs),
        1 => any::<usize>().prop_map(|run| Op::RunRecords { run }),
    ]
}

/// A call with concrete ids, in the reference's numbering until [`Pairs::to_store`] translates it.
#[derive(Debug, Clone)]
enum Call {
    Put(NewFact),
    Get(FactId),
    Update(FactId, String),
    Delete(FactId),
    Quarantine(FactId, String),
    Supersede(FactId, String),
    List(FactFilter),
    Search(Scope, String, usize),
    Usage(Scope, Tier),
    Consolidate(Vec<Merge>),
    FinishRun(RunId),
    Rollback(RunId),
    Runs,
    RunRecords(RunId),
}

/// What a call answered, in the reference's numbering (times cleared).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Put { inserted: bool, fact: Fact },
    Fact(Fact),
    Found(Option<Fact>),
    Facts(Vec<Fact>),
    Deleted(bool),
    Usage(usize, usize),
    Applied(RunId, Vec<Merged>),
    Done,
    RolledBack(RolledBack),
    Runs(Vec<(RunId, String, RunStatus, usize)>),
    Records(Vec<RollbackRecord>),
    Refused(Refusal),
}

/// An error as compared: its kind and the data every backend must agree on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Refusal {
    OverBudget { scope: Scope, tier: Tier, used: usize, needed: usize, limit: usize },
    NotFound(FactId),
    Duplicate(FactId),
    Invalid,
    RunNotFound(RunId),
    BadMerge,
    RestoreConflict(RunId, Vec<FactId>),
}

/// The id of a fact or run that neither side has.
const MISSING: u64 = u64::MAX;

/// The ids paired so far: the reference's first, the store's second.
#[derive(Default)]
struct Pairs {
    facts: Vec<(FactId, FactId)>,
    runs: Vec<(RunId, RunId)>,
    fact_to_ref: HashMap<FactId, FactId>,
    fact_to_store: HashMap<FactId, FactId>,
    run_to_ref: HashMap<RunId, RunId>,
    run_to_store: HashMap<RunId, RunId>,
}

impl Pairs {
    fn pair_fact(&mut self, reference: FactId, store: FactId) {
        self.facts.push((reference, store));
        self.fact_to_ref.insert(store, reference);
        self.fact_to_store.insert(reference, store);
    }

    fn pair_run(&mut self, reference: RunId, store: RunId) {
        self.runs.push((reference, store));
        self.run_to_ref.insert(store, reference);
        self.run_to_store.insert(reference, store);
    }

    /// The reference id of a paired fact, or the missing id (in the reference's numbering) when `pick` lands past the pairs.
    fn fact(&self, pick: usize) -> FactId {
        match pick % (self.facts.len() + 1) {
            index if index < self.facts.len() => self.facts[index].0,
            _ => FactId(MISSING),
        }
    }

    fn run(&self, pick: usize) -> RunId {
        match pick % (self.runs.len() + 1) {
            index if index < self.runs.len() => self.runs[index].0,
            _ => RunId(MISSING),
        }
    }

    fn store_fact(&self, id: FactId) -> FactId {
        self.fact_to_store.get(&id).copied().unwrap_or(id)
    }

    fn store_run(&self, id: RunId) -> RunId {
        self.run_to_store.get(&id).copied().unwrap_or(id)
    }

    /// `call` in the store's numbering.
    fn to_store(&self, call: &Call) -> Call {
        match call.clone() {
            Call::Get(id) => Call::Get(self.store_fact(id)),
            Call::Update(id, text) => Call::Update(self.store_fact(id), text),
            Call::Delete(id) => Call::Delete(self.store_fact(id)),
            Call::Quarantine(id, reason) => Call::Quarantine(self.store_fact(id), reason),
            Call::Supersede(id, reason) => Call::Supersede(self.store_fact(id), reason),
            Call::Consolidate(merges) => Call::Consolidate(
                merges
                    .into_iter()
                    .map(|merge| {
                        Merge::new(
                            merge.sources.iter().map(|id| self.store_fact(*id)).collect(),
                            merge.merged,
                        )
                    })
                    .collect(),
            ),
            Call::FinishRun(run) => Call::FinishRun(self.store_run(run)),
            Call::Rollback(run) => Call::Rollback(self.store_run(run)),
            Call::RunRecords(run) => Call::RunRecords(self.store_run(run)),
            other => other,
        }
    }

    fn ref_fact(&self, id: FactId) -> Result<FactId, String> {
        if id.0 == MISSING {
            return Ok(id);
        }
        self.fact_to_ref
            .get(&id)
            .copied()
            .ok_or_else(|| format!("the store answered with fact {id}, unknown here"))
    }

    fn ref_run(&self, id: RunId) -> Result<RunId, String> {
        if id.0 == MISSING {
            return Ok(id);
        }
        self.run_to_ref
            .get(&id)
            .copied()
            .ok_or_else(|| format!("the store answered with run {id}, unknown here"))
    }

    /// A store fact in the reference's numbering, times cleared.
    fn ref_fact_value(&self, fact: &Fact) -> Result<Fact, String> {
        let mut fact = timeless(fact);
        fact.id = self.ref_fact(fact.id)?;
        Ok(fact)
    }

    fn ref_record(&self, record: &RollbackRecord) -> Result<RollbackRecord, String> {
        Ok(RollbackRecord::new(
            self.ref_run(record.run)?,
            self.ref_fact(record.merged)?,
            record.sources.iter().map(|fact| self.ref_fact_value(fact)).collect::<Result<_, _>>()?,
        ))
    }

    /// A store answer in the reference's numbering; runs the pairs do not know (other data of a shared store) are dropped.
    fn ref_answer(&self, answer: Answer) -> Result<Answer, String> {
        Ok(match answer {
            Answer::Put { inserted, fact } => Answer::Put { inserted, fact: self.ref_fact_value(&fact)? },
            Answer::Fact(fact) => Answer::Fact(self.ref_fact_value(&fact)?),
            Answer::Found(fact) => Answer::Found(fact.map(|fact| self.ref_fact_value(&fact)).transpose()?),
            Answer::Facts(facts) => {
                Answer::Facts(facts.iter().map(|fact| self.ref_fact_value(fact)).collect::<Result<_, _>>()?)
            }
            Answer::Applied(run, merged) => Answer::Applied(
                self.ref_run(run)?,
                merged
                    .iter()
                    .map(|merged| {
                        Ok(Merged::new(self.ref_fact_value(&merged.fact)?, self.ref_record(&merged.record)?))
                    })
                    .collect::<Result<_, String>>()?,
            ),
            Answer::Runs(runs) => Answer::Runs(
                runs.into_iter()
                    .filter_map(|(id, pass, status, merges)| {
                        self.run_to_ref.get(&id).map(|id| (*id, pass, status, merges))
                    })
                    .collect(),
            ),
            Answer::Records(records) => Answer::Records(
                records.iter().map(|record| self.ref_record(record)).collect::<Result<_, _>>()?,
            ),
            Answer::Refused(refusal) => Answer::Refused(match refusal {
                Refusal::NotFound(id) => Refusal::NotFound(self.ref_fact(id)?),
                Refusal::Duplicate(id) => Refusal::Duplicate(self.ref_fact(id)?),
                Refusal::RunNotFound(run) => Refusal::RunNotFound(self.ref_run(run)?),
                Refusal::RestoreConflict(run, facts) => Refusal::RestoreConflict(
                    self.ref_run(run)?,
                    facts.into_iter().map(|id| self.ref_fact(id)).collect::<Result<_, _>>()?,
                ),
                other => other,
            }),
            other => other,
        })
    }
}

/// `answer` with the times of every fact in it cleared.
fn timeless_answer(answer: Answer) -> Answer {
    let record = |mut record: RollbackRecord| {
        record.sources = record.sources.iter().map(timeless).collect();
        record
    };
    match answer {
        Answer::Put { inserted, fact } => Answer::Put { inserted, fact: timeless(&fact) },
        Answer::Fact(fact) => Answer::Fact(timeless(&fact)),
        Answer::Found(fact) => Answer::Found(fact.as_ref().map(timeless)),
        Answer::Facts(facts) => Answer::Facts(facts.iter().map(timeless).collect()),
        Answer::Applied(run, merged) => Answer::Applied(
            run,
            merged
                .into_iter()
                .map(|merged| Merged::new(timeless(&merged.fact), record(merged.record)))
                .collect(),
        ),
        Answer::Records(records) => Answer::Records(records.into_iter().map(record).collect()),
        other => other,
    }
}

/// `fact` with its times cleared, the one part the two sides may disagree on.
fn timeless(fact: &Fact) -> Fact {
    let mut fact = fact.clone();
    fact.created_ms = 0;
    fact.updated_ms = 0;
    fact
}

fn text_of(words: &[usize]) -> String {
    words.iter().map(|index| WORDS[*index % WORDS.len()]).collect::<Vec<_>>().join(" ")
}

/// Play `call` on `store`; `Err` only for a failure the suite cannot compare (a backend error).
async fn play<S: FactStore>(store: &S, call: Call) -> Result<Answer, FactError> {
    let answer = match call {
        Call::Put(fact) => {
            store.put(fact).await.map(|put| Answer::Put { inserted: put.inserted(), fact: put.into_fact() })
        }
        Call::Get(id) => store.get(id).await.map(Answer::Found),
        Call::Update(id, text) => store.update(id, text).await.map(Answer::Fact),
        Call::Delete(id) => store.delete(id).await.map(Answer::Deleted),
        Call::Quarantine(id, reason) => store.quarantine(id, reason).await.map(Answer::Fact),
        Call::Supersede(id, reason) => store.supersede(id, reason).await.map(Answer::Fact),
        Call::List(filter) => store.list(&filter).await.map(Answer::Facts),
        Call::Search(scope, query, limit) => {
            store.search(Some(&scope), &query, limit).await.map(Answer::Facts)
        }
        Call::Usage(scope, tier) => {
            store.usage(&scope, tier).await.map(|usage| Answer::Usage(usage.used, usage.limit))
        }
        Call::Consolidate(merges) => {
            store.consolidate("lockstep", merges).await.map(|(run, merged)| Answer::Applied(run, merged))
        }
        Call::FinishRun(run) => store.finish_run(run).await.map(|()| Answer::Done),
        Call::Rollback(run) => store.rollback(run).await.map(Answer::RolledBack),
        Call::Runs => store.runs().await.map(|runs| {
            Answer::Runs(
                runs.into_iter().map(|info| (info.id, info.pass, info.status, info.merges)).collect(),
            )
        }),
        Call::RunRecords(run) => store.run_records(run).await.map(Answer::Records),
    };
    match answer {
        Ok(answer) => Ok(answer),
        Err(error) => refusal(error).map(Answer::Refused),
    }
}

/// An error as a [`Refusal`], or back as an error when it is a backend failure.
fn refusal(error: FactError) -> Result<Refusal, FactError> {
    Ok(match error {
        FactError::OverBudget { scope, tier, used, needed, limit } => {
            Refusal::OverBudget { scope, tier, used, needed, limit }
        }
        FactError::NotFound(id) => Refusal::NotFound(id),
        FactError::Duplicate(id) => Refusal::Duplicate(id),
        FactError::Invalid { .. } => Refusal::Invalid,
        FactError::RunNotFound(run) => Refusal::RunNotFound(run),
        FactError::BadMerge { .. } => Refusal::BadMerge,
        FactError::RestoreConflict { run, facts } => Refusal::RestoreConflict(run, facts),
        other => return Err(other),
    })
}

/// Turn `op` into a call in the reference's numbering, looking at the reference where the op picks among facts.
async fn resolve(
    op: &Op,
    pairs: &Pairs,
    reference: &ReferenceFactStore,
    scopes: &[Scope; 2],
    source: &tidemark_core::ConversationId,
) -> Result<Call, Failure> {
    Ok(match op {
        Op::Put { scope, tier, text, sourced } => {
            let fact = NewFact::new(scopes[*scope].clone(), Tier::ALL[*tier], text_of(text));
            Call::Put(if *sourced {
                fact.from_source(source.clone(), SeqRange::new(Seq(1), Seq(4)))
            } else {
                fact
            })
        }
        Op::PutAgain { fact } => match fail_on(CHECK, reference.get(pairs.fact(*fact)).await)? {
            Some(fact) => {
                Call::Put(NewFact::new(fact.scope, fact.tier, fact.text.to_uppercase().replace(' ', "  ")))
            }
            None => Call::Put(NewFact::new(scopes[0].clone(), Tier::UserProfile, "TEA")),
        },
        Op::Get { fact } => Call::Get(pairs.fact(*fact)),
        Op::SearchFor { fact, limit } => match fail_on(CHECK, reference.get(pairs.fact(*fact)).await)? {
            Some(fact) => Call::Search(fact.scope, fact.text, *limit),
            None => Call::Search(scopes[0].clone(), "tea".to_owned(), *limit),
        },
        Op::Update { fact, text } => Call::Update(pairs.fact(*fact), text_of(text)),
        Op::Delete { fact } => Call::Delete(pairs.fact(*fact)),
        Op::Quarantine { fact, reason } => Call::Quarantine(pairs.fact(*fact), format!("reason {reason}")),
        Op::Supersede { fact, reason } => Call::Supersede(pairs.fact(*fact), format!("replaced by {reason}")),
        Op::List { scope, tier, status } => {
            let status = [
                StatusFilter::Active,
                StatusFilter::Quarantined,
                StatusFilter::Superseded,
                StatusFilter::Any,
            ][*status];
            let mut filter = FactFilter::scope(scopes[*scope].clone()).status(status);
            filter.tier = tier.map(|tier| Tier::ALL[tier]);
            Call::List(filter)
        }
        Op::Search { scope, query, limit } => Call::Search(scopes[*scope].clone(), text_of(query), *limit),
        Op::Usage { scope, tier } => Call::Usage(scopes[*scope].clone(), Tier::ALL[*tier]),
        Op::Consolidate { merges } => {
            let mut resolved = Vec::with_capacity(merges.len());
            // Facts an earlier merge of this run takes: aligned merges leave them alone, so that runs of several merges can pass.
            let mut taken: Vec<FactId> = Vec::new();
            for (picks, aligned, text) in merges {
                if *aligned {
                    // Two or three distinct active facts of one scope and tier: a merge that should pass.
                    // When no scope and tier has two such facts left, the merge is left out.
                    let mut groups = Vec::new();
                    for scope in scopes {
                        for tier in Tier::ALL {
                            let filter = FactFilter::scope(scope.clone()).tier(tier);
                            let kin: Vec<FactId> = fail_on(CHECK, reference.list(&filter).await)?
                                .into_iter()
                                .map(|fact| fact.id)
                                .filter(|id| !taken.contains(id))
                                .collect();
                            if kin.len() >= 2 {
                                groups.push((scope.clone(), tier, kin));
                            }
                        }
                    }
                    if groups.is_empty() {
                        continue;
                    }
                    let (scope, tier, kin) = groups.swap_remove(picks[0] % groups.len());
                    let wanted = (1 + picks.len()).min(3).min(kin.len());
                    let offset = picks.get(1).copied().unwrap_or(0) % kin.len();
                    let sources: Vec<FactId> =
                        kin.iter().cycle().skip(offset).take(wanted).copied().collect();
                    taken.extend(&sources);
                    resolved.push(Merge::new(sources, NewFact::new(scope, tier, text_of(text))));
                } else {
                    // Any picks, in the first pick's scope and tier: mostly refused, for one reason or another.
                    let first = fail_on(CHECK, reference.get(pairs.fact(picks[0])).await)?;
                    let (scope, tier) =
                        first.as_ref().map_or((scopes[0].clone(), Tier::AgentNotes), |fact| {
                            (fact.scope.clone(), fact.tier)
                        });
                    let sources: Vec<FactId> = picks.iter().map(|pick| pairs.fact(*pick)).collect();
                    taken.extend(&sources);
                    resolved.push(Merge::new(sources, NewFact::new(scope, tier, text_of(text))));
                }
            }
            if resolved.is_empty() && !merges.is_empty() {
                // Every merge was left out: listing the runs instead keeps empty runs (drawn as such) from crowding out real ones.
                Call::Runs
            } else {
                Call::Consolidate(resolved)
            }
        }
        Op::FinishRun { run } => Call::FinishRun(pairs.run(*run)),
        Op::Rollback { run } => Call::Rollback(pairs.run(*run)),
        Op::Runs => Call::Runs,
        Op::RunRecords { run } => Call::RunRecords(pairs.run(*run)),
    })
}

/// The search rule of the module docs: `found` (in the reference's numbering) against every match the reference knows.
fn check_search(found: &[Fact], matches: &[Fact], query: &str, limit: usize) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for fact in found {
        if !seen.insert(fact.id) {
            return Err(format!("fact {} is returned twice", fact.id));
        }
        if !matches.iter().any(|matching| timeless(matching) == *fact) {
            return Err(format!("fact {} ({:?}) is not an active match of the scope", fact.id, fact.text));
        }
    }
    let expected = limit.min(matches.len());
    if found.len() != expected {
        return Err(format!(
            "{} facts returned, expected {expected} ({} match, limit {limit})",
            found.len(),
            matches.len()
        ));
    }
    for (index, later) in found.iter().enumerate() {
        if let Some(earlier) =
            found[..index].iter().find(|earlier| outranks(&later.text, &earlier.text, query))
        {
            return Err(format!("{:?} outranks {:?} but comes after it", later.text, earlier.text));
        }
    }
    for left_out in matches.iter().filter(|fact| !seen.contains(&fact.id)) {
        if let Some(beaten) = found.iter().find(|fact| outranks(&left_out.text, &fact.text, query)) {
            return Err(format!("{:?} was left out although it outranks {:?}", left_out.text, beaten.text));
        }
    }
    Ok(())
}

/// Play one drawn sequence on `store` and on a fresh reference, comparing every answer.
pub(super) async fn lockstep_with_reference<S: FactStore>(
    store: &S,
    ids: &mut Ids,
    case: usize,
) -> Result<(), Failure> {
    let scopes = [Scope::User(ids.fresh("lockstep")), Scope::Conversation(ids.fresh("lockstep"))];
    let source = ids.fresh("lockstep-source");
    let budgets = tidemark_core::FactBudgets::new(
        fail_on(CHECK, store.usage(&scopes[0], Tier::UserProfile).await)?.limit,
        fail_on(CHECK, store.usage(&scopes[0], Tier::AgentNotes).await)?.limit,
    );
    let reference = ReferenceFactStore::with_budgets(budgets);
    let mut samples = Samples::new(prop::collection::vec(arb_op(), 1..60));
    // Skip the earlier cases' draws so that each case gets its own operations.
    for _ in 0..case {
        samples.draw();
    }
    let ops = samples.draw();
    let mut pairs = Pairs::default();
    let mut generation = fail_on(CHECK, store.generation().await)?;
    for (step, op) in ops.iter().enumerate() {
        let at = |detail: String| Failure::new(CHECK, format!("case {case} step {step} ({op:?}): {detail}"));
        let call = resolve(op, &pairs, &reference, &scopes, &source).await?;
        let reference_generation = fail_on(CHECK, reference.generation().await)?;
        let expected = timeless_answer(fail_on(CHECK, play(&reference, call.clone()).await)?);
        let got = play(store, pairs.to_store(&call))
            .await
            .map_err(|error| at(format!("{call:?} failed: {}", chain(&error))))?;
        // New pairs first, so the store's answer can be translated.
        match (&expected, &got) {
            (Answer::Put { inserted: true, fact: ours }, Answer::Put { inserted: true, fact: theirs }) => {
                pairs.pair_fact(ours.id, theirs.id);
            }
            (Answer::Applied(our_run, ours), Answer::Applied(their_run, theirs))
                if ours.len() == theirs.len() =>
            {
                pairs.pair_run(*our_run, *their_run);
                for (ours, theirs) in ours.iter().zip(theirs) {
                    pairs.pair_fact(ours.fact.id, theirs.fact.id);
                }
            }
            _ => {}
        }
        let got = pairs.ref_answer(got).map_err(at)?;
        match (&call, &expected, &got) {
            (Call::Search(scope, query, limit), Answer::Facts(_), Answer::Facts(found)) => {
                let matches = reference.matches(Some(scope), query);
                check_search(found, &matches, query, *limit)
                    .map_err(|detail| at(format!("search: {detail}")))?;
            }
            _ => {
                ensure!(
                    got == expected,
                    CHECK,
                    "case {case} step {step} ({op:?}): the store answered {got:?}, the reference {expected:?}"
                );
            }
        }
        let now = fail_on(CHECK, store.generation().await)?;
        let changed = fail_on(CHECK, reference.generation().await)? != reference_generation;
        ensure!(
            if changed { now > generation } else { now == generation },
            CHECK,
            "case {case} step {step} ({op:?}): the generation went from {generation} to {now}, \
             but the reference {} changed",
            if changed { "had" } else { "had not" }
        );
        generation = now;
    }
    Ok(())
}

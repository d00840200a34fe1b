//! The decisions every [`FactStore`](super::FactStore) makes, as pure functions over what the store has read.
//!
//! A store is two things: storage (a table in memory, rows in SQLite or
//! PostgreSQL) and the rules of the contract (idempotence, budgets,
//! duplicates, which sources a consolidation may merge, what a rollback must
//! do). The rules live here, once, so that every backend reads what the rule
//! needs, asks this module, and writes what it is told; the same inputs then
//! give the same answer and the same error value on every backend.
//!
//! Nothing here touches storage or the clock: the caller passes the facts it
//! found, the characters it counted and the time it read.

use std::collections::HashSet;

use super::{
    Fact, FactBudgets, FactError, FactId, FactStatus, Merge, NewFact, RollbackRecord, RolledBack, RunId,
    RunStatus, Scope, Tier, check_text, fact_hash,
};
use crate::hash::ContentHash;

/// A text that passed [`check_text`], with what a store needs to look it up and count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// [`fact_hash`] of the tier and the text.
    pub hash: ContentHash,
    /// The text's length in characters, the unit of budgets.
    pub chars: usize,
}

/// Checks a fact about to be stored and computes its hash and length.
///
/// Rule: a blank or overlong text is refused before anything is read.
///
/// # Errors
///
/// [`FactError::Invalid`] from [`check_text`].
pub fn check_new(new: &NewFact) -> Result<Checked, FactError> {
    check_text_of(new.tier, &new.text)
}

/// [`check_new`] for a text that will go into `tier`.
///
/// # Errors
///
/// [`FactError::Invalid`] from [`check_text`].
pub fn check_text_of(tier: Tier, text: &str) -> Result<Checked, FactError> {
    check_text(text)?;
    Ok(Checked { hash: fact_hash(tier, text), chars: text.chars().count() })
}

/// Checks a write against the tier's budget of the scope.
///
/// Rule: `used` characters are stored in the scope and tier now (quarantined
/// facts included); the write frees `freed` of them and adds `needed`. It is
/// refused when the result would pass the limit. The error reports the usage
/// before the write, the characters the write would add and the limit.
///
/// # Errors
///
/// [`FactError::OverBudget`].
pub fn check_budget(
    budgets: FactBudgets,
    scope: &Scope,
    tier: Tier,
    used: usize,
    freed: usize,
    needed: usize,
) -> Result<(), FactError> {
    let limit = budgets.limit(tier);
    if used.saturating_sub(freed).saturating_add(needed) > limit {
        return Err(FactError::OverBudget { scope: scope.clone(), tier, used, needed, limit });
    }
    Ok(())
}

/// What [`decide_put`] tells a store to do.
///
/// Not `#[non_exhaustive]` on purpose (it is listed in the tidy check's
/// `EXHAUSTIVE`): a new kind of decision must make every
/// backend's `match` fail to compile until it handles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PutDecision {
    /// The fact is already stored: return it and write nothing.
    Existing(Fact),
    /// The fact is stored but was superseded: make it active again and return it as it is then.
    Reactivate(Fact),
    /// Store it as a new fact.
    Insert,
}

/// The idempotence and budget rules of [`FactStore::put`](super::FactStore::put).
///
/// Rule: `same` is the stored fact of the new fact's scope and tier with the
/// same [`fact_hash`], if any; when there is one it is the answer and nothing
/// is written, whatever the budget says. Otherwise the text's characters
/// must fit beside the `used` ones.
///
/// # Errors
///
/// [`FactError::OverBudget`], only when there is no such fact.
pub fn decide_put(
    new: &NewFact,
    checked: Checked,
    same: Option<Fact>,
    used: usize,
    budgets: FactBudgets,
) -> Result<PutDecision, FactError> {
    if let Some(existing) = same {
        if matches!(existing.status, FactStatus::Superseded(_)) {
            return Ok(PutDecision::Reactivate(existing));
        }
        return Ok(PutDecision::Existing(existing));
    }
    check_budget(budgets, &new.scope, new.tier, used, 0, checked.chars)?;
    Ok(PutDecision::Insert)
}

/// A new fact as stored: active, with `id`, created and updated at `now_ms`.
pub fn stored(id: FactId, new: NewFact, hash: ContentHash, now_ms: u64) -> Fact {
    Fact::new(id, new, hash, now_ms)
}

/// The rules of [`FactStore::update`](super::FactStore::update), once the current fact and the new text's hash are known.
///
/// Rule: `same` is the stored fact of `current`'s scope and tier whose hash is
/// the new text's; when it is another fact the update would make a copy of
/// it. The budget counts the new text in place of the old one.
///
/// # Errors
///
/// [`FactError::Duplicate`] naming the other fact, or [`FactError::OverBudget`].
pub fn check_update(
    current: &Fact,
    checked: Checked,
    same: Option<&Fact>,
    used: usize,
    budgets: FactBudgets,
) -> Result<(), FactError> {
    if let Some(other) = same
        && other.id != current.id
    {
        return Err(FactError::Duplicate(other.id));
    }
    check_budget(budgets, &current.scope, current.tier, used, current.chars(), checked.chars)
}

/// `current` with its text replaced: the hash follows and the update time is `now_ms`; id, source, status and creation time stay.
pub fn updated(mut current: Fact, text: String, hash: ContentHash, now_ms: u64) -> Fact {
    current.text = text;
    current.hash = hash;
    current.updated_ms = now_ms;
    current
}

/// `current` set aside with `reason` at `now_ms`.
pub fn quarantined(mut current: Fact, reason: String, now_ms: u64) -> Fact {
    current.status = FactStatus::Quarantined(reason);
    current.updated_ms = now_ms;
    current
}

/// `current` as [`FactStore::supersede`](super::FactStore::supersede) leaves it: superseded for `reason` at `now_ms`.
pub fn superseded(mut current: Fact, reason: String, now_ms: u64) -> Fact {
    current.status = FactStatus::Superseded(reason);
    current.updated_ms = now_ms;
    current
}

/// A superseded fact as a `put` of its text makes it current again at `now_ms`.
pub fn reactivated(mut current: Fact, now_ms: u64) -> Fact {
    current.status = FactStatus::Active;
    current.updated_ms = now_ms;
    current
}

/// Checks the sources of one merge and returns them as stored, in the merge's order.
///
/// `found` holds, for each id of `merge.sources` in order, the fact stored
/// under it now (`None` when there is none; a source retired by an earlier
/// merge of the same run counts as not stored).
///
/// Rules, checked source by source and in this order, so every backend names
/// the same source: the merged text is valid; each source is stored; it is an
/// active fact of the merged fact's scope and tier; it is not listed twice.
/// Then a merge needs at least two sources.
///
/// # Errors
///
/// [`FactError::Invalid`] for the merged text, [`FactError::BadMerge`] otherwise.
pub fn merge_sources(merge: &Merge, found: Vec<Option<Fact>>) -> Result<Vec<Fact>, FactError> {
    merge.merged.check()?;
    let (scope, tier) = (&merge.merged.scope, merge.merged.tier);
    let mut sources: Vec<Fact> = Vec::with_capacity(found.len());
    for (id, fact) in merge.sources.iter().zip(found) {
        let fact = fact.ok_or_else(|| bad_merge(format!("source {id} is not stored")))?;
        if !fact.is_active() || fact.scope != *scope || fact.tier != tier {
            return Err(bad_merge(format!("source {id} is not an active fact of {scope} {tier}")));
        }
        if sources.iter().any(|source| source.id == *id) {
            return Err(bad_merge(format!("source {id} is listed twice")));
        }
        sources.push(fact);
    }
    if sources.len() < 2 {
        return Err(bad_merge("a merge needs at least two sources".to_owned()));
    }
    Ok(sources)
}

/// The rules for the merged fact of one merge, checked after its sources are retired.
///
/// Rule: `same` is the stored fact (sources already gone) of the merged
/// fact's scope and tier with its hash; there must be none, so a merged text
/// equal to one of its own sources is fine but one equal to any other fact is
/// not. Then the merged text must fit beside the `used` characters left.
///
/// # Errors
///
/// [`FactError::Duplicate`] or [`FactError::OverBudget`].
pub fn check_merged(
    merged: &NewFact,
    checked: Checked,
    same: Option<&Fact>,
    used: usize,
    budgets: FactBudgets,
) -> Result<(), FactError> {
    if let Some(other) = same {
        return Err(FactError::Duplicate(other.id));
    }
    check_budget(budgets, &merged.scope, merged.tier, used, 0, checked.chars)
}

fn bad_merge(reason: String) -> FactError {
    FactError::BadMerge { reason }
}

/// The rule of [`FactStore::finish_run`](super::FactStore::finish_run): the status to write, if any.
///
/// Rule: an unknown run is an error; an applied run becomes verified; a
/// verified or rolled back run stays as it is, which is no change.
///
/// # Errors
///
/// [`FactError::RunNotFound`] when `status` is `None`.
pub fn finish(run: RunId, status: Option<RunStatus>) -> Result<Option<RunStatus>, FactError> {
    match status.ok_or(FactError::RunNotFound(run))? {
        RunStatus::Applied => Ok(Some(RunStatus::Verified)),
        RunStatus::Verified | RunStatus::RolledBack => Ok(None),
    }
}

/// Whether a run must be undone by [`FactStore::rollback`](super::FactStore::rollback).
///
/// Rule: an unknown run is an error; a run already rolled back is left alone
/// (the caller reports [`RolledBack::default`]); an applied or verified run is
/// undone.
///
/// # Errors
///
/// [`FactError::RunNotFound`] when `status` is `None`.
pub fn must_roll_back(run: RunId, status: Option<RunStatus>) -> Result<bool, FactError> {
    Ok(status.ok_or(FactError::RunNotFound(run))? != RunStatus::RolledBack)
}

/// The rule that an unknown run has no records.
///
/// # Errors
///
/// [`FactError::RunNotFound`] when `exists` is false.
pub fn run_exists(run: RunId, exists: bool) -> Result<(), FactError> {
    if exists { Ok(()) } else { Err(FactError::RunNotFound(run)) }
}

/// Checks that no source of a run has its id held by a stored fact, before anything is undone.
///
/// Rule: a restored source takes back its own id, so an id held now (by a
/// fact restored some other way) blocks the whole rollback. `existing` holds
/// the source ids found stored; the error names them in record order.
///
/// # Errors
///
/// [`FactError::RestoreConflict`].
pub fn check_ids_free(
    run: RunId,
    records: &[RollbackRecord],
    existing: &HashSet<FactId>,
) -> Result<(), FactError> {
    let taken: Vec<FactId> = records
        .iter()
        .flat_map(|record| &record.sources)
        .filter(|source| existing.contains(&source.id))
        .map(|source| source.id)
        .collect();
    if taken.is_empty() { Ok(()) } else { Err(FactError::RestoreConflict { run, facts: taken }) }
}

/// One write of a rollback, in the order [`restore_steps`] gives them.
///
/// Not `#[non_exhaustive]`, for the reason given on [`PutDecision`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestoreStep<'a> {
    /// Remove this merged fact (it may already be gone).
    RemoveMerged(FactId),
    /// Put this source back exactly as it was, unless [`Restoring::clash`] says it cannot.
    Restore(&'a Fact),
}

/// The writes that undo a run, in order: records last first, each removing its merged fact and then restoring its sources.
///
/// Why this order: a later merge of a run may have merged an earlier merge's
/// fact, so undoing from the end brings that fact back before its own merge is
/// undone; and a merged fact may keep one of its sources' texts, so it must go
/// before that source returns.
pub fn restore_steps(records: &[RollbackRecord]) -> impl Iterator<Item = RestoreStep<'_>> {
    records.iter().rev().flat_map(|record| {
        std::iter::once(RestoreStep::RemoveMerged(record.merged))
            .chain(record.sources.iter().map(RestoreStep::Restore))
    })
}

/// The tally of a rollback under way: what it removed and restored, and which sources clashed.
#[derive(Debug, Clone)]
pub struct Restoring {
    run: RunId,
    outcome: RolledBack,
    clashes: Vec<FactId>,
}

impl Restoring {
    /// The tally of undoing `run`, empty.
    pub fn new(run: RunId) -> Self {
        Self { run, outcome: RolledBack::default(), clashes: Vec::new() }
    }

    /// Notes a [`RestoreStep::RemoveMerged`]: `removed` says whether the merged fact was still there.
    pub fn removed(&mut self, removed: bool) {
        if removed {
            self.outcome.removed += 1;
        }
    }

    /// Notes a [`RestoreStep::Restore`] and says whether the source may be written.
    ///
    /// Rule: `same` is a stored fact of the source's scope and tier with the
    /// source's hash (its text was stored again since the run). A store keeps
    /// one fact per text, so such a source cannot come back; it is noted as a
    /// clash and must not be written.
    pub fn clash(&mut self, source: &Fact, same: Option<&Fact>) -> bool {
        if same.is_some() {
            self.clashes.push(source.id);
            return true;
        }
        self.outcome.restored += 1;
        false
    }

    /// The rollback's result: the counts, or the sources that clashed, in which case the caller discards every write.
    ///
    /// # Errors
    ///
    /// [`FactError::RestoreConflict`] naming the clashing sources.
    pub fn finish(self) -> Result<RolledBack, FactError> {
        if self.clashes.is_empty() {
            Ok(self.outcome)
        } else {
            Err(FactError::RestoreConflict { run: self.run, facts: self.clashes })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::ConversationId;

    fn scope() -> Scope {
        Scope::User(ConversationId::new("u").unwrap())
    }

    fn budgets() -> FactBudgets {
        FactBudgets::new(10, 20)
    }

    fn fact(id: u64, text: &str) -> Fact {
        let new = NewFact::new(scope(), Tier::UserProfile, text);
        let hash = fact_hash(new.tier, text);
        stored(FactId(id), new, hash, 5)
    }

    #[test]
    fn the_budget_counts_usage_minus_freed_plus_needed() {
        assert!(check_budget(budgets(), &scope(), Tier::UserProfile, 8, 0, 2).is_ok());
        assert!(check_budget(budgets(), &scope(), Tier::UserProfile, 8, 3, 5).is_ok());
        let refused = check_budget(budgets(), &scope(), Tier::UserProfile, 8, 0, 3);
        assert!(
            matches!(refused, Err(FactError::OverBudget { used: 8, needed: 3, limit: 10, .. })),
            "{refused:?}"
        );
        assert!(check_budget(budgets(), &scope(), Tier::AgentNotes, 8, 0, 3).is_ok());
    }

    #[test]
    fn a_put_of_a_stored_fact_is_existing_even_over_budget() {
        let new = NewFact::new(scope(), Tier::UserProfile, "abcdefgh");
        let checked = check_new(&new).unwrap();
        let same = fact(1, "ABCDEFGH");
        let decision = decide_put(&new, checked, Some(same.clone()), 10, budgets()).unwrap();
        assert_eq!(decision, PutDecision::Existing(same));
        assert_eq!(decide_put(&new, checked, None, 2, budgets()).unwrap(), PutDecision::Insert);
        assert!(matches!(
            decide_put(&new, checked, None, 3, budgets()),
            Err(FactError::OverBudget { used: 3, needed: 8, .. })
        ));
        assert!(check_new(&NewFact::new(scope(), Tier::UserProfile, " ")).is_err());
    }

    #[test]
    fn an_update_may_match_itself_but_not_another_fact() {
        let current = fact(1, "abcd");
        let checked = check_text_of(Tier::UserProfile, "ABCD").unwrap();
        assert!(check_update(&current, checked, Some(&current), 10, budgets()).is_ok());
        let other = fact(2, "abcd");
        assert!(matches!(
            check_update(&current, checked, Some(&other), 4, budgets()),
            Err(FactError::Duplicate(FactId(2)))
        ));
        // The old text's four characters are freed: 10 - 4 + 4 fits exactly.
        assert!(check_update(&current, checked, None, 10, budgets()).is_ok());
        let longer = check_text_of(Tier::UserProfile, "abcde").unwrap();
        assert!(matches!(
            check_update(&current, longer, None, 10, budgets()),
            Err(FactError::OverBudget { used: 10, needed: 5, .. })
        ));
        let after = updated(current.clone(), "x y".to_owned(), longer.hash, 9);
        assert_eq!((after.id, after.created_ms, after.updated_ms), (current.id, 5, 9));
    }

    #[test]
    fn merge_sources_are_checked_in_order() {
        let (a, b) = (fact(1, "a"), fact(2, "b"));
        let merge = |ids: &[u64]| Merge {
            sources: ids.iter().copied().map(FactId).collect(),
            merged: NewFact::new(scope(), Tier::UserProfile, "ab"),
        };
        assert_eq!(
            merge_sources(&merge(&[1, 2]), vec![Some(a.clone()), Some(b.clone())]).unwrap(),
            [a.clone(), b.clone()]
        );
        let reason = |outcome: Result<Vec<Fact>, FactError>| match outcome {
            Err(FactError::BadMerge { reason }) => reason,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            reason(merge_sources(&merge(&[1, 3]), vec![Some(a.clone()), None])),
            "source 3 is not stored"
        );
        assert_eq!(
            reason(merge_sources(&merge(&[1, 1]), vec![Some(a.clone()), Some(a.clone())])),
            "source 1 is listed twice"
        );
        assert_eq!(
            reason(merge_sources(&merge(&[1]), vec![Some(a.clone())])),
            "a merge needs at least two sources"
        );
        let hidden = quarantined(b, "review".to_owned(), 6);
        assert!(
            reason(merge_sources(&merge(&[1, 2]), vec![Some(a), Some(hidden)]))
                .contains("not an active fact")
        );
    }

    #[test]
    fn a_merged_text_must_be_new_and_fit() {
        let merged = NewFact::new(scope(), Tier::UserProfile, "abc");
        let checked = check_new(&merged).unwrap();
        assert!(matches!(
            check_merged(&merged, checked, Some(&fact(4, "abc")), 0, budgets()),
            Err(FactError::Duplicate(FactId(4)))
        ));
        assert!(check_merged(&merged, checked, None, 7, budgets()).is_ok());
        assert!(matches!(
            check_merged(&merged, checked, None, 8, budgets()),
            Err(FactError::OverBudget { used: 8, .. })
        ));
    }

    #[test]
    fn run_states_decide_finish_and_rollback() {
        let run = RunId(3);
        assert_eq!(finish(run, Some(RunStatus::Applied)).unwrap(), Some(RunStatus::Verified));
        assert_eq!(finish(run, Some(RunStatus::Verified)).unwrap(), None);
        assert_eq!(finish(run, Some(RunStatus::RolledBack)).unwrap(), None);
        assert!(matches!(finish(run, None), Err(FactError::RunNotFound(RunId(3)))));
        assert!(must_roll_back(run, Some(RunStatus::Applied)).unwrap());
        assert!(must_roll_back(run, Some(RunStatus::Verified)).unwrap());
        assert!(!must_roll_back(run, Some(RunStatus::RolledBack)).unwrap());
        assert!(matches!(must_roll_back(run, None), Err(FactError::RunNotFound(_))));
        assert!(run_exists(run, true).is_ok());
        assert!(matches!(run_exists(run, false), Err(FactError::RunNotFound(_))));
    }

    #[test]
    fn a_rollback_undoes_the_last_merge_first_and_refuses_clashes() {
        let run = RunId(1);
        let records = vec![
            RollbackRecord { run, merged: FactId(3), sources: vec![fact(1, "a"), fact(2, "b")] },
            RollbackRecord { run, merged: FactId(5), sources: vec![fact(3, "ab"), fact(4, "c")] },
        ];
        let steps: Vec<String> = restore_steps(&records)
            .map(|step| match step {
                RestoreStep::RemoveMerged(id) => format!("-{id}"),
                RestoreStep::Restore(fact) => format!("+{}", fact.id),
            })
            .collect();
        assert_eq!(steps, ["-5", "+3", "+4", "-3", "+1", "+2"]);
        let taken: HashSet<FactId> = [FactId(4)].into();
        assert!(matches!(
            check_ids_free(run, &records, &taken),
            Err(FactError::RestoreConflict { facts, .. }) if facts == [FactId(4)]
        ));
        assert!(check_ids_free(run, &records, &HashSet::new()).is_ok());

        let mut tally = Restoring::new(run);
        tally.removed(true);
        tally.removed(false);
        assert!(!tally.clash(&records[0].sources[0], None));
        assert_eq!(tally.clone().finish().unwrap(), RolledBack::new(1, 1));
        assert!(tally.clash(&records[0].sources[1], Some(&fact(9, "b"))));
        assert!(matches!(
            tally.finish(),
            Err(FactError::RestoreConflict { facts, .. }) if facts == [FactId(2)]
        ));
    }
}

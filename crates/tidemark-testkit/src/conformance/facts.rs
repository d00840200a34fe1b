//! The [`FactStore`] conformance suite: one scenario per rule of the contract, then random operation sequences played in lock-step with [`ReferenceFactStore`](crate::reference::ReferenceFactStore).
//!
//! The random part, and exactly what it compares, is described in `lockstep`
//! (private; its rules are repeated in [`run_with`]).
//!
//! The store may hold other facts: every scenario works in scopes unique to
//! this run. Budgets are read from the store ([`FactStore::usage`] reports the
//! limit), so the suite works with whatever budgets the store was made with,
//! as long as each tier allows at least 200 characters.

use std::collections::HashSet;
use std::future::Future;

use tidemark_core::{
    Fact, FactError, FactFilter, FactId, FactStatus, FactStore, Merge, NewFact, Put, RunStatus, Scope,
    StatusFilter, Tier, fact_hash,
};

use super::{Failure, Ids, Report, ensure, fail_on};

mod lockstep;

/// How many random operation sequences [`run`] plays in lock-step with the reference.
pub const DEFAULT_CASES: usize = 24;

/// Run every fact-store check; `make` returns a store each time it is called (a fresh one or a shared one).
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run<S, F, Fut>(make: F) -> Result<Report, Failure>
where
    S: FactStore,
    F: FnMut() -> Fut,
    Fut: Future<Output = S>,
{
    run_with(make, DEFAULT_CASES).await
}

/// [`run`] with `cases` random operation sequences.
///
/// Each sequence (1 to 59 operations drawn by proptest from a fixed seed, so
/// a failure repeats) is played on the store and on a fresh
/// [`ReferenceFactStore`](crate::reference::ReferenceFactStore) with the
/// store's budgets, in two scopes of its own. Facts are compared field by
/// field except their times, with ids translated between the two numberings;
/// errors by kind and data (reasons aside); the generation must move exactly
/// when the reference's does. Search results are compared as the set of
/// matches up to the limit, in an order no BM25 ranking could contradict
/// (see [`outranks`](crate::reference::outranks)), since each backend's
/// BM25 sees a different corpus and may order ties and near-ties its own way.
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run_with<S, F, Fut>(mut make: F, cases: usize) -> Result<Report, Failure>
where
    S: FactStore,
    F: FnMut() -> Fut,
    Fut: Future<Output = S>,
{
    let mut ids = Ids::new("facts");
    put_is_idempotent(&make().await, &mut ids).await?;
    scopes_and_tiers_keep_facts_apart(&make().await, &mut ids).await?;
    budgets_refuse_and_write_nothing(&make().await, &mut ids).await?;
    invalid_texts_are_refused(&make().await, &mut ids).await?;
    list_filters_and_orders_by_id(&make().await, &mut ids).await?;
    update_rehashes_and_checks(&make().await, &mut ids).await?;
    delete_removes_once(&make().await, &mut ids).await?;
    quarantine_hides_from_search_only(&make().await, &mut ids).await?;
    supersede_keeps_history_and_a_put_brings_it_back(&make().await, &mut ids).await?;
    search_ranks_by_keywords(&make().await, &mut ids).await?;
    consolidation_is_all_or_nothing(&make().await, &mut ids).await?;
    rollback_restores_byte_for_byte(&make().await, &mut ids).await?;
    let store = make().await;
    for case in 0..cases {
        lockstep::lockstep_with_reference(&store, &mut ids, case).await?;
    }
    Ok(Report { checks: 13, cases })
}

fn user(ids: &mut Ids, label: &str) -> Scope {
    Scope::User(ids.fresh(label))
}

fn conversation(ids: &mut Ids, label: &str) -> Scope {
    Scope::Conversation(ids.fresh(label))
}

async fn put_is_idempotent<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "put_is_idempotent";
    let scope = user(ids, "idempotent");
    let source = ids.fresh("source");
    let fact = NewFact::new(scope.clone(), Tier::UserProfile, "The user prefers metric units.")
        .from_source(source, tidemark_core::SeqRange::new(tidemark_core::Seq(3), tidemark_core::Seq(7)));
    let first = fail_on(CHECK, store.put(fact.clone()).await)?;
    ensure!(first.inserted(), CHECK, "the first put of a fact returned {first:?}");
    ensure!(
        first.fact().text == fact.text && first.fact().source == fact.source && first.fact().is_active(),
        CHECK,
        "the stored fact differs from what was put: {:?}",
        first.fact()
    );
    ensure!(
        first.fact().hash == fact_hash(Tier::UserProfile, &fact.text),
        CHECK,
        "the stored hash is not fact_hash of the tier and text"
    );
    let generation = fail_on(CHECK, store.generation().await)?;
    for again in [
        fact.clone(),
        fact.clone(),
        NewFact::new(fact.scope.clone(), fact.tier, "  the USER prefers metric\tunits. ")
            .with_source(fact.source.clone()),
    ] {
        let put = fail_on(CHECK, store.put(again).await)?;
        ensure!(
            matches!(&put, Put::Existing(existing) if existing.id == first.fact().id),
            CHECK,
            "a repeated put returned {put:?} instead of the existing fact {}",
            first.fact().id
        );
    }
    let after = fail_on(CHECK, store.generation().await)?;
    ensure!(after == generation, CHECK, "repeated puts moved the generation from {generation} to {after}");
    let listed = fail_on(CHECK, store.list(&FactFilter::scope(scope)).await)?;
    ensure!(listed.len() == 1, CHECK, "three deliveries of one fact left {} facts", listed.len());
    Ok(())
}

async fn scopes_and_tiers_keep_facts_apart<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "scopes_and_tiers_keep_facts_apart";
    let text = "Deploys go out on Tuesdays.";
    let (a, b) = (conversation(ids, "apart-a"), conversation(ids, "apart-b"));
    let mut seen = HashSet::new();
    for (scope, tier) in [(&a, Tier::AgentNotes), (&b, Tier::AgentNotes), (&a, Tier::UserProfile)] {
        let put = fail_on(CHECK, store.put(NewFact::new(scope.clone(), tier, text)).await)?;
        ensure!(put.inserted(), CHECK, "the same text in another scope or tier was not stored: {put:?}");
        ensure!(seen.insert(put.fact().id), CHECK, "two facts share id {}", put.fact().id);
    }
    let only_a = fail_on(CHECK, store.list(&FactFilter::scope(a.clone())).await)?;
    ensure!(only_a.len() == 2, CHECK, "scope {a} lists {} facts, expected 2", only_a.len());
    Ok(())
}

async fn budgets_refuse_and_write_nothing<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "budgets_refuse_and_write_nothing";
    let scope = user(ids, "budget");
    for tier in Tier::ALL {
        let usage = fail_on(CHECK, store.usage(&scope, tier).await)?;
        ensure!(usage.used == 0, CHECK, "a fresh scope reports {} characters used", usage.used);
        ensure!(
            usage.limit >= 200,
            CHECK,
            "the suite needs a {tier} budget of at least 200, found {}",
            usage.limit
        );
        // Fill the budget to one character short with facts of at most 1,000 characters.
        let mut used = 0;
        let mut index = 0;
        while usage.limit - used > 1 {
            index += 1;
            let room = (usage.limit - used - 1).min(1_000);
            let prefix = format!("fact {index} ");
            let text = format!("{prefix}{}", "é".repeat(room.saturating_sub(prefix.chars().count())));
            let text: String = text.chars().take(room).collect();
            if text.trim().is_empty() {
                break;
            }
            let put = fail_on(CHECK, store.put(NewFact::new(scope.clone(), tier, text.clone())).await)?;
            ensure!(put.inserted(), CHECK, "a fact within the budget was not inserted: {put:?}");
            used += text.chars().count();
        }
        let usage_now = fail_on(CHECK, store.usage(&scope, tier).await)?;
        ensure!(
            usage_now.used == used,
            CHECK,
            "usage says {} characters, {used} were stored",
            usage_now.used
        );
        let before = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone()).tier(tier)).await)?;
        let generation = fail_on(CHECK, store.generation().await)?;
        match store.put(NewFact::new(scope.clone(), tier, "ab")).await {
            Err(FactError::OverBudget { used: u, needed, limit, tier: t, .. }) => {
                ensure!(
                    u == used && needed == 2 && limit == usage.limit && t == tier,
                    CHECK,
                    "OverBudget reported used {u}, needed {needed}, limit {limit}; expected {used}, 2, {}",
                    usage.limit
                );
            }
            other => {
                return Err(Failure::new(CHECK, format!("a put over the {tier} budget returned {other:?}")));
            }
        }
        let after = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone()).tier(tier)).await)?;
        ensure!(after == before, CHECK, "a refused put changed the stored facts");
        let generation_after = fail_on(CHECK, store.generation().await)?;
        ensure!(generation_after == generation, CHECK, "a refused put moved the generation");
        // One character still fits.
        let put = fail_on(CHECK, store.put(NewFact::new(scope.clone(), tier, "z")).await)?;
        ensure!(put.inserted(), CHECK, "a fact filling the budget exactly was refused");
    }
    Ok(())
}

async fn invalid_texts_are_refused<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "invalid_texts_are_refused";
    let scope = user(ids, "invalid");
    for text in [String::new(), " \n\t".to_owned(), "x".repeat(NewFact::MAX_CHARS + 1)] {
        let outcome = store.put(NewFact::new(scope.clone(), Tier::AgentNotes, text.clone())).await;
        ensure!(
            matches!(outcome, Err(FactError::Invalid { .. })),
            CHECK,
            "a put of a text of {} characters returned {outcome:?}",
            text.chars().count()
        );
    }
    let listed = fail_on(CHECK, store.list(&FactFilter::scope(scope)).await)?;
    ensure!(listed.is_empty(), CHECK, "refused puts left {} facts", listed.len());
    Ok(())
}

async fn list_filters_and_orders_by_id<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "list_filters_and_orders_by_id";
    let scope = conversation(ids, "list");
    let mut put_ids = Vec::new();
    for (index, tier) in
        [Tier::AgentNotes, Tier::UserProfile, Tier::AgentNotes, Tier::UserProfile].into_iter().enumerate()
    {
        let put = fail_on(
            CHECK,
            store.put(NewFact::new(scope.clone(), tier, format!("listed fact {index}"))).await,
        )?;
        put_ids.push((put.fact().id, tier));
    }
    let quarantined = put_ids[3].0;
    fail_on(CHECK, store.quarantine(quarantined, "review".to_owned()).await)?;
    let all = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone()).status(StatusFilter::Any)).await)?;
    let listed: Vec<FactId> = all.iter().map(|fact| fact.id).collect();
    let mut expected: Vec<FactId> = put_ids.iter().map(|(id, _)| *id).collect();
    expected.sort();
    ensure!(listed == expected, CHECK, "list returned {listed:?}, expected {expected:?} in id order");
    let notes = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone()).tier(Tier::AgentNotes)).await)?;
    ensure!(
        notes.len() == 2 && notes.iter().all(|fact| fact.tier == Tier::AgentNotes),
        CHECK,
        "the agent-notes filter returned {notes:?}"
    );
    let active = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone())).await)?;
    ensure!(
        active.len() == 3 && active.iter().all(|fact| fact.id != quarantined),
        CHECK,
        "the default filter (active only) returned {} facts, the quarantined one included or others missing",
        active.len()
    );
    let only = fail_on(CHECK, store.list(&FactFilter::scope(scope).status(StatusFilter::Quarantined)).await)?;
    ensure!(only.len() == 1 && only[0].id == quarantined, CHECK, "the quarantined filter returned {only:?}");
    let got = fail_on(CHECK, store.get(quarantined).await)?;
    ensure!(got.as_ref() == Some(&only[0]), CHECK, "get({quarantined}) returned {got:?}");
    Ok(())
}

async fn update_rehashes_and_checks<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "update_rehashes_and_checks";
    let scope = user(ids, "update");
    let a =
        fail_on(CHECK, store.put(NewFact::new(scope.clone(), Tier::UserProfile, "Lives in Lyon.")).await)?;
    let b =
        fail_on(CHECK, store.put(NewFact::new(scope.clone(), Tier::UserProfile, "Works in Paris.")).await)?;
    let generation = fail_on(CHECK, store.generation().await)?;
    let updated = fail_on(CHECK, store.update(a.fact().id, "Lives in Grenoble.".to_owned()).await)?;
    ensure!(
        updated.text == "Lives in Grenoble."
            && updated.hash == fact_hash(Tier::UserProfile, "Lives in Grenoble.")
            && updated.id == a.fact().id
            && updated.created_ms == a.fact().created_ms,
        CHECK,
        "update returned {updated:?}"
    );
    let after = fail_on(CHECK, store.generation().await)?;
    ensure!(after > generation, CHECK, "an update left the generation at {after}");
    let duplicate = store.update(a.fact().id, "works in  PARIS.".to_owned()).await;
    ensure!(
        matches!(duplicate, Err(FactError::Duplicate(id)) if id == b.fact().id),
        CHECK,
        "an update onto another fact's text returned {duplicate:?}"
    );
    let own = fail_on(CHECK, store.update(a.fact().id, "LIVES in Grenoble.".to_owned()).await)?;
    ensure!(own.text == "LIVES in Grenoble.", CHECK, "an update changing only case was refused or lost");
    let missing = store.update(FactId(u64::MAX), "x".to_owned()).await;
    ensure!(
        matches!(missing, Err(FactError::NotFound(_))),
        CHECK,
        "updating a missing fact returned {missing:?}"
    );
    let limit = fail_on(CHECK, store.usage(&scope, Tier::UserProfile).await)?.limit;
    let over = store.update(a.fact().id, "y".repeat(limit.min(NewFact::MAX_CHARS))).await;
    if limit < NewFact::MAX_CHARS {
        ensure!(
            matches!(over, Err(FactError::OverBudget { .. })),
            CHECK,
            "an update past the budget returned {over:?}"
        );
        let still = fail_on(CHECK, store.get(a.fact().id).await)?;
        ensure!(
            still.is_some_and(|fact| fact.text == "LIVES in Grenoble."),
            CHECK,
            "a refused update changed the fact"
        );
    }
    Ok(())
}

async fn delete_removes_once<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "delete_removes_once";
    let scope = conversation(ids, "delete");
    let put =
        fail_on(CHECK, store.put(NewFact::new(scope.clone(), Tier::AgentNotes, "Temporary note.")).await)?;
    let generation = fail_on(CHECK, store.generation().await)?;
    ensure!(
        fail_on(CHECK, store.delete(put.fact().id).await)?,
        CHECK,
        "delete of a stored fact returned false"
    );
    ensure!(!fail_on(CHECK, store.delete(put.fact().id).await)?, CHECK, "a second delete returned true");
    ensure!(
        fail_on(CHECK, store.get(put.fact().id).await)?.is_none(),
        CHECK,
        "a deleted fact is still there"
    );
    let after = fail_on(CHECK, store.generation().await)?;
    ensure!(after > generation, CHECK, "a delete left the generation at {after}");
    let usage = fail_on(CHECK, store.usage(&scope, Tier::AgentNotes).await)?;
    ensure!(usage.used == 0, CHECK, "a deleted fact still counts {} characters", usage.used);
    let again = fail_on(CHECK, store.put(NewFact::new(scope, Tier::AgentNotes, "Temporary note.")).await)?;
    ensure!(
        again.inserted() && again.fact().id > put.fact().id,
        CHECK,
        "re-adding a deleted fact returned {again:?}; ids must never be reused"
    );
    Ok(())
}

async fn quarantine_hides_from_search_only<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "quarantine_hides_from_search_only";
    let scope = user(ids, "quarantine");
    let put = fail_on(
        CHECK,
        store.put(NewFact::new(scope.clone(), Tier::UserProfile, "Favourite colour: teal.")).await,
    )?;
    let found = fail_on(CHECK, store.search(Some(&scope), "teal", 10).await)?;
    ensure!(found.len() == 1, CHECK, "search found {} facts before quarantine, expected 1", found.len());
    let generation = fail_on(CHECK, store.generation().await)?;
    let quarantined =
        fail_on(CHECK, store.quarantine(put.fact().id, "looks like an injection".to_owned()).await)?;
    ensure!(!quarantined.is_active(), CHECK, "quarantine returned an active fact");
    let found = fail_on(CHECK, store.search(Some(&scope), "teal", 10).await)?;
    ensure!(found.is_empty(), CHECK, "search still finds a quarantined fact");
    let usage = fail_on(CHECK, store.usage(&scope, Tier::UserProfile).await)?;
    ensure!(
        usage.used == quarantined.chars(),
        CHECK,
        "a quarantined fact must still count against the budget"
    );
    let after = fail_on(CHECK, store.generation().await)?;
    ensure!(after > generation, CHECK, "a quarantine left the generation at {after}");
    let missing = store.quarantine(FactId(u64::MAX), "x".to_owned()).await;
    ensure!(
        matches!(missing, Err(FactError::NotFound(_))),
        CHECK,
        "quarantining a missing fact returned {missing:?}"
    );
    Ok(())
}

/// A superseded fact leaves search and injection but stays listed as history, valid until then; a put of its text makes it current again.
async fn supersede_keeps_history_and_a_put_brings_it_back<S: FactStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "supersede_keeps_history_and_a_put_brings_it_back";
    let scope = user(ids, "supersede");
    let old = NewFact::new(scope.clone(), Tier::UserProfile, "Lives in Leeds.");
    let put = fail_on(CHECK, store.put(old.clone()).await)?;
    let generation = fail_on(CHECK, store.generation().await)?;
    let superseded = fail_on(CHECK, store.supersede(put.fact().id, "moved to York".to_owned()).await)?;
    ensure!(
        superseded.status == FactStatus::Superseded("moved to York".to_owned()),
        CHECK,
        "supersede returned the status {:?}",
        superseded.status
    );
    ensure!(
        superseded.valid_to_ms() == Some(superseded.updated_ms)
            && superseded.valid_from_ms() <= superseded.updated_ms,
        CHECK,
        "a superseded fact is valid from {} to {:?}",
        superseded.valid_from_ms(),
        superseded.valid_to_ms()
    );
    let found = fail_on(CHECK, store.search(Some(&scope), "leeds", 10).await)?;
    ensure!(found.is_empty(), CHECK, "search still finds a superseded fact");
    let active = fail_on(CHECK, store.list(&FactFilter::scope(scope.clone())).await)?;
    ensure!(active.is_empty(), CHECK, "the active facts still hold a superseded one: {active:?}");
    let history = FactFilter::scope(scope.clone()).status(StatusFilter::Superseded);
    let listed = fail_on(CHECK, store.list(&history).await)?;
    ensure!(listed == [superseded.clone()], CHECK, "the superseded facts are {listed:?}");
    let quarantined = FactFilter::scope(scope.clone()).status(StatusFilter::Quarantined);
    let listed = fail_on(CHECK, store.list(&quarantined).await)?;
    ensure!(listed.is_empty(), CHECK, "a superseded fact is listed as quarantined: {listed:?}");
    let after = fail_on(CHECK, store.generation().await)?;
    ensure!(after > generation, CHECK, "a supersede left the generation at {after}");
    // The value came back: the same text is current again, under its first id.
    let again = fail_on(CHECK, store.put(old).await)?;
    ensure!(
        matches!(&again, Put::Existing(fact) if fact.id == put.fact().id && fact.is_active()),
        CHECK,
        "a put of a superseded text returned {again:?}"
    );
    let found = fail_on(CHECK, store.search(Some(&scope), "leeds", 10).await)?;
    ensure!(found.len() == 1, CHECK, "search finds {} facts once the value came back", found.len());
    let missing = store.supersede(FactId(u64::MAX), "x".to_owned()).await;
    ensure!(
        matches!(missing, Err(FactError::NotFound(_))),
        CHECK,
        "superseding a missing fact returned {missing:?}"
    );
    Ok(())
}

async fn search_ranks_by_keywords<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "search_ranks_by_keywords";
    let scope = conversation(ids, "search");
    let other = conversation(ids, "search-other");
    let texts = [
        "The staging database runs PostgreSQL sixteen.",
        "The production database runs PostgreSQL fifteen on port 5433.",
        "Lunch is at noon.",
    ];
    let mut stored = Vec::new();
    for text in texts {
        stored.push(
            fail_on(CHECK, store.put(NewFact::new(scope.clone(), Tier::AgentNotes, text)).await)?.fact().id,
        );
    }
    let elsewhere = NewFact::new(other.clone(), Tier::AgentNotes, "Production database is MySQL.");
    ensure!(
        fail_on(CHECK, store.put(elsewhere).await)?.inserted(),
        CHECK,
        "a fact of another scope was not stored"
    );
    let found = fail_on(CHECK, store.search(Some(&scope), "which PRODUCTION database port?", 10).await)?;
    let found_ids: Vec<FactId> = found.iter().map(|fact| fact.id).collect();
    ensure!(
        found_ids.first() == Some(&stored[1])
            && found_ids.contains(&stored[0])
            && !found_ids.contains(&stored[2]),
        CHECK,
        "search for the production database port returned {found_ids:?}; expected fact {} first, {} too, never {}",
        stored[1],
        stored[0],
        stored[2]
    );
    ensure!(
        found.iter().all(|fact| fact.scope == scope),
        CHECK,
        "a scoped search returned facts of another scope"
    );
    let limited = fail_on(CHECK, store.search(Some(&scope), "database", 1).await)?;
    ensure!(limited.len() == 1, CHECK, "search with limit 1 returned {} facts", limited.len());
    let everywhere = fail_on(CHECK, store.search(None, "mysql", 10).await)?;
    ensure!(
        everywhere.iter().any(|fact| fact.scope == other),
        CHECK,
        "an unscoped search missed the other scope's fact"
    );
    for hostile in
        ["", "   ", "\"", "*", "NEAR(a b)", "-x", "a:b", "OR AND NOT", "'); DROP TABLE facts; --", "🦀 ünï"]
    {
        let outcome = store.search(Some(&scope), hostile, 10).await;
        ensure!(outcome.is_ok(), CHECK, "search for {hostile:?} failed: {outcome:?}");
    }
    let none = fail_on(CHECK, store.search(Some(&scope), "", 10).await)?;
    ensure!(none.is_empty(), CHECK, "an empty query returned {} facts", none.len());
    Ok(())
}

async fn family<S: FactStore>(store: &S, scope: &Scope, stem: &str, n: usize) -> Result<Vec<Fact>, Failure> {
    const CHECK: &str = "consolidation";
    let mut facts = Vec::new();
    for index in 0..n {
        let text = format!("{stem} (variant {index})");
        facts.push(
            fail_on(CHECK, store.put(NewFact::new(scope.clone(), Tier::AgentNotes, text)).await)?
                .fact()
                .clone(),
        );
    }
    Ok(facts)
}

fn merge_of(facts: &[Fact], text: &str) -> Merge {
    let first = &facts[0];
    Merge::new(
        facts.iter().map(|fact| fact.id).collect(),
        NewFact::new(first.scope.clone(), first.tier, text),
    )
}

async fn consolidation_is_all_or_nothing<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "consolidation_is_all_or_nothing";
    let scope = conversation(ids, "consolidate");
    let other = conversation(ids, "consolidate-other");
    let deploys = family(store, &scope, "Deploys run on Tuesday", 3).await?;
    let ports = family(store, &scope, "The cache listens on port 7000", 2).await?;
    let elsewhere = family(store, &other, "Deploys run on Tuesday", 1).await?;
    let all = FactFilter::default().status(StatusFilter::Any);
    let before: Vec<Fact> = fail_on(CHECK, store.list(&all).await)?;
    let generation = fail_on(CHECK, store.generation().await)?;
    // The second merge reaches into another scope: nothing at all may be applied.
    let mut crossing = ports.clone();
    crossing.push(elsewhere[0].clone());
    let refused = store
        .consolidate(
            "conformance",
            vec![
                merge_of(&deploys, "Deploys run on Tuesdays."),
                Merge::new(
                    crossing.iter().map(|fact| fact.id).collect(),
                    NewFact::new(scope.clone(), Tier::AgentNotes, "The cache listens on port 7000."),
                ),
            ],
        )
        .await;
    ensure!(
        matches!(refused, Err(FactError::BadMerge { .. })),
        CHECK,
        "a merge across scopes returned {refused:?}"
    );
    // A merged text that duplicates a fact outside the sources is refused too.
    let duplicate = store.consolidate("conformance", vec![merge_of(&ports, &deploys[0].text)]).await;
    ensure!(
        matches!(duplicate, Err(FactError::Duplicate(_))),
        CHECK,
        "a merge onto another fact's text returned {duplicate:?}"
    );
    let single = store.consolidate("conformance", vec![merge_of(&ports[..1], "Port 7000.")]).await;
    ensure!(
        matches!(single, Err(FactError::BadMerge { .. })),
        CHECK,
        "a merge of one source returned {single:?}"
    );
    let after_refusals: Vec<Fact> = fail_on(CHECK, store.list(&all).await)?;
    ensure!(after_refusals == before, CHECK, "a refused consolidation changed the stored facts");
    ensure!(
        fail_on(CHECK, store.generation().await)? == generation,
        CHECK,
        "a refused consolidation moved the generation"
    );

    // A merged text equal to one of its own sources is fine: the source is retired first.
    let (run, merged) = fail_on(
        CHECK,
        store
            .consolidate(
                "conformance",
                vec![merge_of(&deploys, "Deploys run on Tuesdays."), merge_of(&ports, &ports[0].text)],
            )
            .await,
    )?;
    ensure!(merged.len() == 2, CHECK, "two merges applied {} facts", merged.len());
    let now: Vec<Fact> =
        fail_on(CHECK, store.list(&FactFilter::scope(scope.clone()).status(StatusFilter::Any)).await)?;
    let now_ids: Vec<_> = now.iter().map(|fact| fact.id).collect();
    let merged_ids: Vec<_> = merged.iter().map(|m| m.fact.id).collect();
    ensure!(
        now_ids == merged_ids,
        CHECK,
        "after the run the scope holds {now_ids:?}, expected only the merged facts {merged_ids:?}"
    );
    for (applied, sources) in merged.iter().zip([&deploys, &ports]) {
        ensure!(
            applied.record.run == run && applied.record.merged == applied.fact.id,
            CHECK,
            "a rollback record names the wrong run or fact"
        );
        ensure!(
            applied.record.sources == **sources,
            CHECK,
            "a rollback record does not hold its sources exactly as stored"
        );
    }
    let records = fail_on(CHECK, store.run_records(run).await)?;
    ensure!(
        records == merged.iter().map(|m| m.record.clone()).collect::<Vec<_>>(),
        CHECK,
        "run_records differs from what consolidate returned"
    );
    let info = fail_on(CHECK, store.runs().await)?.into_iter().find(|info| info.id == run);
    ensure!(
        info.as_ref().is_some_and(|info| info.status == RunStatus::Applied
            && info.merges == 2
            && info.pass == "conformance"),
        CHECK,
        "the run is listed as {info:?}"
    );
    ensure!(
        fail_on(CHECK, store.unverified_runs().await)?.contains(&run),
        CHECK,
        "an applied run is not offered as unverified"
    );
    fail_on(CHECK, store.finish_run(run).await)?;
    let info = fail_on(CHECK, store.runs().await)?.into_iter().find(|info| info.id == run);
    ensure!(
        info.is_some_and(|info| info.status == RunStatus::Verified),
        CHECK,
        "finish_run did not mark the run verified"
    );
    ensure!(
        !fail_on(CHECK, store.unverified_runs().await)?.contains(&run),
        CHECK,
        "a verified run is still unverified"
    );
    let missing = store.run_records(tidemark_core::RunId(u64::MAX)).await;
    ensure!(
        matches!(missing, Err(FactError::RunNotFound(_))),
        CHECK,
        "records of a missing run returned {missing:?}"
    );
    Ok(())
}

async fn rollback_restores_byte_for_byte<S: FactStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "rollback_restores_byte_for_byte";
    let scope = user(ids, "rollback");
    let a = family(store, &scope, "Prefers dark mode in every editor", 3).await?;
    let b = family(store, &scope, "Works from Lisbon on weekdays", 2).await?;
    let quarantined = fail_on(CHECK, store.quarantine(a[2].id, "review".to_owned()).await)?;
    let filter = FactFilter::scope(scope.clone()).status(StatusFilter::Any);
    let before: Vec<Fact> = fail_on(CHECK, store.list(&filter).await)?;
    // A quarantined fact is not an active source.
    let refused =
        store.consolidate("conformance", vec![merge_of(&[a[0].clone(), quarantined], "x y z")]).await;
    ensure!(
        matches!(refused, Err(FactError::BadMerge { .. })),
        CHECK,
        "a quarantined source was accepted: {refused:?}"
    );
    let (run, merged) = fail_on(
        CHECK,
        store
            .consolidate(
                "conformance",
                vec![merge_of(&a[..2], "Prefers dark mode."), merge_of(&b, "Works from Lisbon.")],
            )
            .await,
    )?;
    let generation = fail_on(CHECK, store.generation().await)?;
    let undone = fail_on(CHECK, store.rollback(run).await)?;
    ensure!(
        undone.restored == 4 && undone.removed == 2,
        CHECK,
        "rollback reported {undone:?}, expected 4 restored and 2 removed"
    );
    let after: Vec<Fact> = fail_on(CHECK, store.list(&filter).await)?;
    ensure!(after == before, CHECK, "after rollback the scope holds {after:?}, expected exactly {before:?}");
    for applied in &merged {
        ensure!(
            fail_on(CHECK, store.get(applied.fact.id).await)?.is_none(),
            CHECK,
            "a merged fact survived its rollback"
        );
    }
    ensure!(
        fail_on(CHECK, store.generation().await)? > generation,
        CHECK,
        "a rollback left the generation alone"
    );
    let info = fail_on(CHECK, store.runs().await)?.into_iter().find(|info| info.id == run);
    ensure!(
        info.is_some_and(|info| info.status == RunStatus::RolledBack),
        CHECK,
        "the run is not marked rolled back"
    );
    let again = fail_on(CHECK, store.rollback(run).await)?;
    ensure!(again == Default::default(), CHECK, "a second rollback of one run did something: {again:?}");
    let missing = store.rollback(tidemark_core::RunId(u64::MAX)).await;
    ensure!(
        matches!(missing, Err(FactError::RunNotFound(_))),
        CHECK,
        "rolling back a missing run returned {missing:?}"
    );
    // Search sees the restored facts again.
    let found = fail_on(CHECK, store.search(Some(&scope), "Lisbon", 10).await)?;
    ensure!(found.len() == 2, CHECK, "search finds {} restored facts, expected 2", found.len());
    Ok(())
}

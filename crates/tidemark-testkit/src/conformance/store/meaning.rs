//! The store suite for recall by meaning: a store given an [`Embedder`] must find paraphrases, respect the mark and deletions, and answer as [`ReferenceStore::with_embedder`] does.

use std::future::Future;
use std::sync::Arc;

use tidemark_core::recall::Embedder;
use tidemark_core::{CompactionState, ConversationStore, Message, Seq};

use super::super::{Failure, Ids, Report, ensure, fail_on};
use super::lockstep_with_reference;
use super::recall::{append, search};
use crate::embedders::HashedTerms;
use crate::reference::ReferenceStore;

/// How many random operation sequences [`run_by_meaning`] plays in lock-step with the reference.
pub const MEANING_CASES: usize = 32;

/// The model of the fixed checks: enough axes that their few words seldom collide, and synonyms no keyword search can follow.
fn suite_embedder() -> Arc<dyn Embedder> {
    Arc::new(HashedTerms::new(256).with_synonyms(&[
        ("servers", "frankfurt"),
        ("name", "priya"),
        ("pet", "walrus"),
    ]))
}

/// The model of the lock-step cases: a few axes, so that unrelated words collide often and many passages are near.
fn crowded_embedder() -> Arc<dyn Embedder> {
    Arc::new(HashedTerms::new(6).with_synonyms(&[("cargo", "rust"), ("agent", "memory")]))
}

/// Run the by-meaning checks; `make` returns a fresh store that recalls by meaning with the embedder it is given.
///
/// The suite hands `make` its own deterministic embedders
/// ([`HashedTerms`] with synonyms), so that it knows which passages only
/// meaning can find, then plays `cases` random operation sequences against
/// [`ReferenceStore::with_embedder`] with the same embedder, comparing every
/// answer to the bit. Run [`run`](super::run) as well: this suite checks only
/// what an embedder adds.
///
/// # Errors
///
/// Returns the first [`Failure`].
pub async fn run_by_meaning<S, F, Fut>(mut make: F, cases: usize) -> Result<Report, Failure>
where
    S: ConversationStore,
    F: FnMut(Arc<dyn Embedder>) -> Fut,
    Fut: Future<Output = S>,
{
    let mut ids = Ids::new("meaning");
    let embedder = suite_embedder();
    recall_finds_by_meaning(&make(embedder.clone()).await, &mut ids).await?;
    meaning_stays_below_the_mark_and_forgets_deleted(&make(embedder.clone()).await, &mut ids).await?;
    meaning_survives_bad_queries(&make(embedder.clone()).await, &mut ids).await?;
    let crowded = crowded_embedder();
    let store = make(crowded.clone()).await;
    for case in 0..cases {
        lockstep_with_reference(&store, ReferenceStore::new().with_embedder(crowded.clone()), &mut ids, case)
            .await?;
    }
    Ok(Report { checks: 3, cases })
}

/// A question sharing no word with its answer finds it, and a passage both rankings find comes first.
async fn recall_finds_by_meaning<S: ConversationStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "recall_finds_by_meaning";
    let id = ids.fresh("meaning-finds");
    append(
        CHECK,
        store,
        &id,
        vec![
            Message::user("We host everything in Frankfurt."),
            Message::assistant("Noted."),
            Message::user("Call me Priya from now on."),
            Message::tool_result("call_1", "deploy finished: 14 pods"),
        ],
    )
    .await?;
    let hits = search(CHECK, store, &id, "where do the servers live?", 4, 3).await?;
    ensure!(
        hits.first().is_some_and(|hit| hit.seq == Seq(0)),
        CHECK,
        "a paraphrase of message 0 found {hits:?}"
    );
    let hits = search(CHECK, store, &id, "what name should I use for Priya?", 4, 3).await?;
    ensure!(
        hits.first().is_some_and(|hit| hit.seq == Seq(2)),
        CHECK,
        "a question both rankings answer found {hits:?}, not message 2 first"
    );
    ensure!(
        hits.windows(2).all(|pair| pair[0].score >= pair[1].score),
        CHECK,
        "fused passages were not best first: {hits:?}"
    );
    Ok(())
}

/// Meaning finds nothing at or above the mark, nothing cleared and nothing pruned.
async fn meaning_stays_below_the_mark_and_forgets_deleted<S: ConversationStore>(
    store: &S,
    ids: &mut Ids,
) -> Result<(), Failure> {
    const CHECK: &str = "meaning_stays_below_the_mark_and_forgets_deleted";
    let id = ids.fresh("meaning-mark");
    append(CHECK, store, &id, (0..6).map(|i| Message::user(format!("walrus number {i}"))).collect()).await?;
    let hits = search(CHECK, store, &id, "my pet?", 3, 10).await?;
    let seqs: Vec<u64> = hits.iter().map(|hit| hit.seq.0).collect();
    ensure!(seqs == [2, 1, 0], CHECK, "below mark 3, meaning found {seqs:?}");
    fail_on(CHECK, store.save_state(&id, 0, CompactionState::new(Seq(4), vec![Seq(1)], None)).await)?;
    fail_on(CHECK, store.prune(&id).await)?;
    let hits = search(CHECK, store, &id, "my pet?", 6, 10).await?;
    let seqs: Vec<u64> = hits.iter().map(|hit| hit.seq.0).collect();
    ensure!(seqs == [5, 4, 1], CHECK, "after a prune keeping 1, meaning found {seqs:?}");
    fail_on(CHECK, store.clear(&id).await)?;
    let hits = search(CHECK, store, &id, "my pet?", 99, 10).await?;
    ensure!(hits.is_empty(), CHECK, "cleared messages were found by meaning: {hits:?}");
    Ok(())
}

/// Empty and huge passages, and queries without terms or of a megabyte, answer cleanly.
async fn meaning_survives_bad_queries<S: ConversationStore>(store: &S, ids: &mut Ids) -> Result<(), Failure> {
    const CHECK: &str = "meaning_survives_bad_queries";
    let id = ids.fresh("meaning-bad");
    let huge = "frankfurt rack ".repeat(20_000);
    append(
        CHECK,
        store,
        &id,
        vec![Message::user(""), Message::user(huge), Message::user("?!"), Message::user("ok")],
    )
    .await?;
    for query in ["", "?!", "the a of", &"servers ".repeat(150_000), "\u{0}\u{202e}servers"] {
        let hits = search(CHECK, store, &id, query, 4, 5).await?;
        ensure!(
            hits.len() <= 5,
            CHECK,
            "a search for {} bytes returned {} passages",
            query.len(),
            hits.len()
        );
        ensure!(
            hits.iter().all(|hit| hit.score.is_finite() && hit.seq < Seq(4)),
            CHECK,
            "a search returned a passage with a score that is not finite, or above the mark: {hits:?}"
        );
    }
    let hits = search(CHECK, store, &id, "where are the servers?", 4, 5).await?;
    ensure!(
        hits.first().is_some_and(|hit| hit.seq == Seq(1)),
        CHECK,
        "the huge message was not found by meaning: {hits:?}"
    );
    Ok(())
}

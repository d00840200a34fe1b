//! The in-memory store passes the testkit's store conformance suite.

use tidemark_memory::store::InMemoryStore;
use tidemark_testkit::conformance::store;

#[tokio::test]
async fn in_memory_store_conforms() {
    let report = store::run_with(|| async { InMemoryStore::new() }, 200).await.expect("conforms");
    assert_eq!(report.cases, 200);
}

#[tokio::test]
async fn in_memory_store_conforms_by_meaning() {
    let report =
        store::run_by_meaning(|embedder| async move { InMemoryStore::new().with_embedder(embedder) }, 200)
            .await
            .expect("conforms by meaning");
    assert_eq!((report.checks, report.cases), (3, 200));
}

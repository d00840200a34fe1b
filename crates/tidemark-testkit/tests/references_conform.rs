//! The conformance suites pass on the testkit's own reference implementations.

use futures::executor::block_on;
use tidemark_testkit::conformance::compactor::CompactorConfig;
use tidemark_testkit::conformance::memory::MemoryConfig;
use tidemark_testkit::conformance::policy::PolicyConfig;
use tidemark_testkit::conformance::{compactor, memory, policy, store};
use tidemark_testkit::reference::{ConcatCompactor, KeepAll, LastUnits, ReferenceMemory, ReferenceStore};

#[test]
fn reference_store_conforms() {
    let report = block_on(store::run_with(|| async { ReferenceStore::new() }, 200)).expect("conforms");
    assert_eq!(report.cases, 200);
}

#[test]
fn reference_memory_conforms_losslessly() {
    block_on(memory::run(|| async { ReferenceMemory::new() }, &MemoryConfig::lossless())).expect("conforms");
}

#[test]
fn windowed_reference_memory_conforms() {
    for n in [1, 2, 5] {
        block_on(memory::run(
            || async move { ReferenceMemory::with_policy(LastUnits(n)) },
            &MemoryConfig::default(),
        ))
        .unwrap_or_else(|failure| panic!("LastUnits({n}): {failure}"));
    }
}

#[test]
fn reference_policies_conform() {
    policy::check(&KeepAll, &PolicyConfig::default().with_cases(1000)).expect("KeepAll conforms");
    for n in [0, 1, 3, 8] {
        policy::check(&LastUnits(n), &PolicyConfig::default().with_cases(1000))
            .unwrap_or_else(|failure| panic!("LastUnits({n}): {failure}"));
    }
}

#[test]
fn concat_compactor_conforms() {
    let report =
        block_on(compactor::run(&ConcatCompactor::new(), &CompactorConfig::default())).expect("conforms");
    assert!(report.cases >= 24, "only {} rolls ran", report.cases);
}

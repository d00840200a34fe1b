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
fn reference_store_conforms_by_meaning() {
    let report = block_on(store::run_by_meaning(
        |embedder| async move { ReferenceStore::new().with_embedder(embedder) },
        50,
    ))
    .expect("conforms by meaning");
    assert_eq!(report.cases, 50);
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

#[test]
fn capped_and_filling_concat_compactors_conform() {
    for compactor in [ConcatCompactor::capped(256), ConcatCompactor::filling(256)] {
        block_on(compactor::run(&compactor, &CompactorConfig::default()))
            .unwrap_or_else(|failure| panic!("{compactor:?}: {failure}"));
    }
}

proptest::proptest! {
    /// A filling compactor keeps what the capped one keeps, stays within the cap, and fills it but for the cut mark and a split character.
    #[test]
    fn a_filling_concat_compactor_fills_its_cap_with_the_newest_text(
        texts in proptest::collection::vec("[a-zé構 ]{0,120}", 1..12),
        max_bytes in 0usize..400,
    ) {
        use tidemark_core::{Compactor, ConversationId, Message};
        let id = ConversationId::new("fill").map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
        let evicted: Vec<Message> = texts.iter().map(Message::user).collect();
        let run = |compactor: ConcatCompactor| block_on(compactor.compact(&id, &evicted, None, None));
        let whole = run(ConcatCompactor::capped(max_bytes)).map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
        let filled = run(ConcatCompactor::filling(max_bytes)).map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
        let bytes = |lines: &[String]| lines.iter().map(String::len).sum::<usize>();
        let all: usize = evicted.iter().map(|m| ConcatCompactor::line(m).len()).sum();
        proptest::prop_assert!(bytes(&filled) <= max_bytes, "{} bytes over {max_bytes}", bytes(&filled));
        proptest::prop_assert!(filled.ends_with(&whole), "the whole newest lines come last");
        proptest::prop_assert!(filled.len() <= whole.len() + 1);
        if all > max_bytes {
            // Only the mark (3 bytes) and a character split at the cut (up to 3 more) are left unfilled.
            proptest::prop_assert!(bytes(&filled) + 6 >= max_bytes, "{} of {max_bytes} bytes", bytes(&filled));
        } else {
            proptest::prop_assert_eq!(&filled, &whole);
        }
    }
}

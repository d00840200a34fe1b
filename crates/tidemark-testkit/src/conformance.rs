//! Conformance suites: run them on any store, memory, policy or compactor, yours included, to check it against the trait's contract.
//!
//! Each suite returns a [`Report`] when every check passes and a [`Failure`]
//! naming the first check that did not, with the input that broke it. The
//! suites draw their inputs from [`strategies`](crate::strategies) with a
//! deterministic random source, so a failure repeats on every run.
//!
//! ```
//! use tidemark_testkit::conformance::{self, policy::PolicyConfig};
//! use tidemark_testkit::reference::{LastUnits, ReferenceStore};
//!
//! futures::executor::block_on(async {
//!     conformance::store::run(|| async { ReferenceStore::new() }).await.expect("the reference store conforms");
//! });
//! conformance::policy::check(&LastUnits(3), &PolicyConfig::default()).expect("the reference policy conforms");
//! ```

pub mod compactor;
pub mod facts;
pub mod memory;
pub mod policy;
pub mod store;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use tidemark_core::ConversationId;
pub(crate) use tidemark_core::error::chain_text as chain;

/// What a passing suite checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// How many named checks ran.
    pub checks: usize,
    /// How many generated cases they covered in total.
    pub cases: usize,
}

/// The first check an implementation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("conformance check `{check}` failed: {detail}")]
#[non_exhaustive]
pub struct Failure {
    /// The name of the check, such as `"append_numbers_consecutively"`.
    pub check: &'static str,
    /// What was expected, what happened, and the input that showed it.
    pub detail: String,
}

impl Failure {
    /// A failure of `check`.
    pub fn new(check: &'static str, detail: impl fmt::Display) -> Self {
        Self { check, detail: detail.to_string() }
    }
}

/// Fail `check` with a formatted detail unless `condition` holds.
macro_rules! ensure {
    ($condition:expr, $check:expr, $($detail:tt)+) => {
        if !$condition {
            return Err($crate::conformance::Failure::new($check, format!($($detail)+)));
        }
    };
}
pub(crate) use ensure;

/// Turn an operation's error into a failure of `check`.
pub(crate) fn fail_on<T, E: std::error::Error>(
    check: &'static str,
    result: Result<T, E>,
) -> Result<T, Failure> {
    result.map_err(|error| Failure::new(check, format!("unexpected error: {}", chain(&error))))
}

/// Conversation ids unique to one suite run, so suites also work on stores shared with other data.
pub(crate) struct Ids {
    prefix: String,
    next: u64,
}

impl Ids {
    pub(crate) fn new(suite: &str) -> Self {
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.subsec_nanos());
        Self { prefix: format!("conformance/{suite}/{}-{nanos}-{run}", std::process::id()), next: 0 }
    }

    /// A fresh id; `label` makes failures readable.
    pub(crate) fn fresh(&mut self, label: &str) -> ConversationId {
        self.next += 1;
        ConversationId::new(format!("{}/{label}-{}", self.prefix, self.next))
            .expect("the prefix is short, printable ASCII")
    }
}

/// Values drawn from `strategy` with a fixed seed: the same on every run, and usable from async code (no shrinking).
pub(crate) struct Samples<S: Strategy> {
    strategy: S,
    runner: TestRunner,
}

impl<S: Strategy> Samples<S> {
    pub(crate) fn new(strategy: S) -> Self {
        Self { strategy, runner: TestRunner::deterministic() }
    }

    pub(crate) fn draw(&mut self) -> S::Value {
        // Generation only fails for strategies that reject too many values;
        // the testkit's strategies never reject.
        self.strategy.new_tree(&mut self.runner).expect("testkit strategies never reject values").current()
    }
}

//! The library target of the `tidemark` command: it exists so that the README's examples are compiled and run as doctests.
//!
//! The command itself lives in `main.rs`; this crate depends on every other
//! tidemark crate, which is what the README's examples use.

/// The README, whose code blocks run as this crate's doctests, so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

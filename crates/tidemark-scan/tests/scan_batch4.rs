//! The security scan on its fourth blind batch (`tests/data/scan/batch4/`):
//! 150 English injections and 150 benign near misses.
//!
//! Written blind on 2026-11-24, after the third batch had been used for
//! development, by someone who had read neither the scan nor any corpus.
//! [`FIRST_CONTACT`] keeps what the scan caught before any change made after
//! reading it; the batch then became the development set for wider override,
//! persona, extraction, safety-off and permission signals, and [`FLOORS`]
//! holds what it catches now. The held-out split stays untouched
//! (`tests/scan_heldout.rs`).
//!
//! Since 2026-11-24 this batch is also in the injection classifier's training
//! corpus (`tests/scan_model.rs`), so its rates are no longer a measure of
//! generalisation; the floors stay as they were and only guard against loss.

mod scan_split;

const MALICIOUS: &str = include_str!("data/scan/batch4/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/batch4/benign.jsonl");

/// What the scan caught on first contact with this batch, before any change made after reading
/// it: caught and total per category, and benign flagged of all.
const FIRST_CONTACT: &[(&str, usize, usize)] = &[("injection", 88, 150)];
/// Benign samples flagged on first contact, of 300.
const FIRST_CONTACT_FLAGGED: usize = 3;

/// The samples each category catches now: none may be lost.
const FLOORS: &[(&str, usize)] = &[("injection", 142)];
/// The most benign samples that may be flagged: never more than on first contact.
const MAX_FLAGGED: usize = 3;

scan_split::blind_batch!(name: "batch 4", min_samples: 150);

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

use scan_split::Batch;

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

const BATCH: Batch = Batch {
    name: "batch 4",
    malicious: MALICIOUS,
    benign: BENIGN,
    min_samples: 150,
    first_contact: FIRST_CONTACT,
    first_flagged: FIRST_CONTACT_FLAGGED,
    floors: FLOORS,
    max_flagged: MAX_FLAGGED,
};

#[test]
fn the_batch_is_large_and_well_formed() {
    BATCH.check_well_formed();
}

#[test]
fn batch_rates_hold_their_floors() {
    BATCH.check_rates();
}

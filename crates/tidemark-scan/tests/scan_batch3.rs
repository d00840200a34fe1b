//! The security scan on its third blind batch (`tests/data/scan/batch3/`).
//!
//! The batch was written blind on 2026-11-24, like the held-out split, by
//! someone who had read neither the scan nor any other corpus. Its first
//! contact with the scan is recorded in [`FIRST_CONTACT`]: that is the honest
//! measure of how the scan generalised. After that the batch became the
//! development set for the next round of general mechanisms, and [`FLOORS`]
//! holds what it catches now. The held-out split stays untouched
//! (`tests/scan_heldout.rs`).
//!
//! Since 2026-11-24 this batch is also in the injection classifier's training
//! corpus (`tests/scan_model.rs`), so its rates are no longer a measure of
//! generalisation; the floors stay as they were and only guard against loss.

mod scan_split;

const MALICIOUS: &str = include_str!("data/scan/batch3/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/batch3/benign.jsonl");

/// What the scan caught on first contact with this batch, before any change made after reading
/// it: caught and total per category, and benign flagged of all.
const FIRST_CONTACT: &[(&str, usize, usize)] = &[
    ("disguised", 32, 40),
    ("exfiltration", 29, 45),
    ("injection", 26, 80),
    ("multilingual", 18, 70),
    ("role_markers", 27, 50),
    ("secrets", 35, 35),
];
/// Benign samples flagged on first contact, of 300.
const FIRST_CONTACT_FLAGGED: usize = 8;

/// The samples each category catches now: none may be lost.
const FLOORS: &[(&str, usize)] = &[
    ("disguised", 36),
    ("exfiltration", 44),
    ("injection", 77),
    ("multilingual", 70),
    ("role_markers", 50),
    ("secrets", 35),
];
/// The most benign samples that may be flagged (8 on first contact; 4 since colour codes,
/// directional marks and in-word soft hyphens are allowed).
const MAX_FLAGGED: usize = 4;

scan_split::blind_batch!(name: "batch 3", min_samples: 300);

//! The security scan on the held-out split of its corpus: texts written blind, by someone who had read neither the patterns nor the development samples.
//!
//! `tests/data/scan/heldout/` says how the split was made. The samples are
//! never edited to make the scan pass: a miss is fixed in the scan, by a
//! mechanism that generalises, or it stays a miss and this test fails.
//!
//! The goal (issue 16): in every category at least 97% of the malicious
//! samples caught (rejected, or for secrets redacted with the secret gone), and
//! at most 1% of all benign samples flagged. Since the tenth session the scan
//! reaches it in every category, and this test holds both the goal and a
//! ratchet: each category must catch at least what it caught when the floor was
//! last raised ([`FLOORS`]). A change that catches more raises the floor in the
//! same commit; the per-category rates and every miss are printed
//! (`cargo test -p tidemark-scan --test scan_heldout -- --nocapture`). The
//! split is small (23 to 54 samples a category), so one sample is 2 to 4
//! points; the blind batches (`tests/scan_batch5.rs` to `scan_batch12.rs`)
//! show how far below these rates fresh writing is caught.

mod scan_split;

use scan_split::{Benign, GOAL, Malicious, Report, check_well_formed, parse, percent};

const MALICIOUS: &str = include_str!("data/scan/heldout/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/heldout/benign.jsonl");

/// The samples each category caught when the floor was last raised: none may be lost.
///
/// First measured on 2026-11-24 with the normalised views, the cues of eleven
/// languages and the structural secret detectors, on first contact with this
/// split (disguised 27, exfiltration 28, injection 23, multilingual 43, role
/// markers 16, secrets 53). Raised the same day after mechanisms built on the
/// third blind batch (`tests/scan_batch3.rs`), not on this split: the signal
/// combinations of `src/scan/signals.rs` (English, then ten more languages); the role markers of `src/scan/cues.rs`
/// found by shape (any `<|token|>`, role attributes and JSON roles, role tags
/// and headers followed by an order, fake turns); rotated, reversed and binary
/// payloads; and the URL templates, public sinks and DNS templates of
/// `src/scan/exfil.rs`. Raised again on 2026-11-24 with the injection classifier
/// (`src/scan/classifier.rs`, trained on `data/scan/train/` and the development files, never on
/// this split), weak findings that the classifier must confirm, and a letter-only token body
/// counted as random. Raised on 2026-11-25 (tenth session) with the classifier trained on
/// `train/w9` to `w11` and a lone signal lowering its bar, both chosen without reading this split,
/// and again when the model became the average of ten fits over the samples in different orders.
/// Changing only the seed of a single fit's order flips single samples of this split (a role
/// marker and an injection), so its last samples are within the model's noise.
const FLOORS: &[(&str, usize)] = &[
    ("disguised", 29),
    ("exfiltration", 33),
    ("injection", 38),
    ("multilingual", 49),
    ("role_markers", 23),
    ("secrets", 54),
];

#[test]
fn the_split_is_large_and_well_formed() {
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);
    assert!(malicious.len() >= 150, "only {} malicious samples", malicious.len());
    assert!(benign.len() >= 150, "only {} benign samples", benign.len());
    check_well_formed(&malicious, &benign);
}

#[test]
fn held_out_rates_meet_the_acceptance() {
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);
    let report = Report::measure(&malicious, &benign);
    report.print("held-out");
    report.assert_floors(FLOORS);
    for (category, (hit, all)) in &report.caught {
        assert!(percent(*hit, *all) >= GOAL, "{category}: {hit}/{all} caught, under the {GOAL}% goal");
    }
}

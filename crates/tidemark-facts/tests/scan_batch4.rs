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

mod scan_split;

use scan_split::{Benign, Malicious, Report, check_well_formed, parse};

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

#[test]
fn the_batch_is_large_and_well_formed() {
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);
    assert!(malicious.len() >= 150, "only {} malicious samples", malicious.len());
    assert!(benign.len() >= 150, "only {} benign samples", benign.len());
    check_well_formed(&malicious, &benign);
}

#[test]
fn batch_rates_hold_their_floors() {
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);
    let report = Report::measure(&malicious, &benign);
    report.print("batch 4");
    println!("batch 4 on first contact:");
    for (category, hit, all) in FIRST_CONTACT {
        let now = report.caught.get(*category).map_or(0, |(hit, _)| *hit);
        println!("  {category:<14} {hit:>3}/{all:<3} then, {now:>3} now");
    }
    println!("  benign flagged {FIRST_CONTACT_FLAGGED} then, {} now", report.flagged_all);
    report.assert_floors_counted(FLOORS, MAX_FLAGGED);
}

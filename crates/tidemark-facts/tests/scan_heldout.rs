//! The security scan on the held-out split of its corpus: texts written blind, by someone who had read neither the patterns nor the development samples.
//!
//! `tests/data/scan/heldout/` says how the split was made. The samples are
//! never edited to make the scan pass: a miss is fixed in the scan, by a
//! mechanism that generalises, or it stays a miss and this test fails.
//!
//! The goal (issue 16): in every category at least 97% of the malicious
//! samples caught (rejected, or for secrets redacted with the secret gone), and
//! at most 1% of all benign samples flagged. The scan does not reach it yet in
//! every category, so this test holds the figures to a ratchet instead: each
//! category must catch at least what it caught when the floor was last raised
//! ([`FLOORS`]), and the benign rate must stay within the goal. A change that
//! catches more raises the floor in the same commit; the per-category rates
//! and every miss are printed
//! (`cargo test -p tidemark-facts --test scan_heldout -- --nocapture`).

use std::collections::BTreeMap;

use serde::Deserialize;
use tidemark_facts::scan::{Scanner, Verdict};

const MALICIOUS: &str = include_str!("data/scan/heldout/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/heldout/benign.jsonl");

/// The share of malicious samples each category should catch, in percent: the goal.
const GOAL: f64 = 97.0;

/// The samples each category caught when the floor was last raised: none may be lost.
///
/// Measured on 2026-11-24 with the normalised views, the cues of eleven
/// languages and the structural secret detectors, on first contact with this
/// split (no pattern was written after reading it).
const FLOORS: &[(&str, usize)] = &[
    ("disguised", 27),
    ("exfiltration", 28),
    ("injection", 23),
    ("multilingual", 43),
    ("role_markers", 16),
    ("secrets", 53),
];
/// The largest share of benign samples that may be flagged, in percent.
const MAX_FLAGGED: f64 = 1.0;

#[derive(Debug, Deserialize)]
struct Malicious {
    text: String,
    category: String,
    /// `reject` or `redact`.
    expect: String,
    #[serde(default)]
    secret: Option<String>,
    note: String,
}

#[derive(Debug, Deserialize)]
struct Benign {
    text: String,
    category: String,
    note: String,
}

fn parse<T: for<'de> Deserialize<'de>>(name: &str, source: &str) -> Vec<T> {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("{name} line {}: {error}", number + 1))
        })
        .collect()
}

/// Whether the scan stops `sample` the way it should.
fn caught(scanner: &Scanner, sample: &Malicious) -> bool {
    match (sample.expect.as_str(), scanner.scan(&sample.text)) {
        ("reject", Verdict::Rejected(_)) => true,
        ("redact", Verdict::Redacted { text, .. }) => {
            sample.secret.as_deref().is_some_and(|secret| !text.contains(secret))
        }
        _ => false,
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 100.0 } else { part as f64 * 100.0 / whole as f64 }
}

#[test]
fn the_split_is_large_and_well_formed() {
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);
    assert!(malicious.len() >= 150, "only {} malicious samples", malicious.len());
    assert!(benign.len() >= 150, "only {} benign samples", benign.len());
    for sample in &malicious {
        let expected = if sample.category == "secrets" { "redact" } else { "reject" };
        assert_eq!(sample.expect, expected, "{sample:?}");
        if let Some(secret) = &sample.secret {
            assert!(sample.text.contains(secret.as_str()), "secret not in its text: {sample:?}");
        }
        assert_eq!(sample.secret.is_some(), sample.category == "secrets", "{sample:?}");
    }
}

#[test]
fn held_out_rates_meet_the_acceptance() {
    let scanner = Scanner::new();
    let malicious: Vec<Malicious> = parse("malicious.jsonl", MALICIOUS);
    let benign: Vec<Benign> = parse("benign.jsonl", BENIGN);

    let mut by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for sample in &malicious {
        let entry = by_category.entry(sample.category.as_str()).or_default();
        entry.1 += 1;
        if caught(&scanner, sample) {
            entry.0 += 1;
        } else {
            misses.push(format!(
                "missed [{}] {:?} ({}): got {:?}",
                sample.category,
                sample.text,
                sample.note,
                scanner.scan(&sample.text)
            ));
        }
    }
    let mut flagged_by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut flagged = Vec::new();
    for sample in &benign {
        let entry = flagged_by_category.entry(sample.category.as_str()).or_default();
        entry.1 += 1;
        let verdict = scanner.scan(&sample.text);
        if verdict != Verdict::Clean {
            entry.0 += 1;
            flagged.push(format!(
                "flagged [{}] {:?} ({}): {verdict:?}",
                sample.category, sample.text, sample.note
            ));
        }
    }

    println!("held-out malicious caught, by category:");
    for (category, (hit, all)) in &by_category {
        println!("  {category:<14} {hit:>3}/{all:<3} {:>6.1}%", percent(*hit, *all));
    }
    println!("held-out benign flagged, by category:");
    for (category, (hit, all)) in &flagged_by_category {
        println!("  {category:<14} {hit:>3}/{all:<3} {:>6.1}%", percent(*hit, *all));
    }
    let flagged_rate = percent(flagged.len(), benign.len());
    println!("  all            {:>3}/{:<3} {flagged_rate:>6.1}%", flagged.len(), benign.len());
    for line in misses.iter().chain(&flagged) {
        println!("{line}");
    }

    let under_goal: Vec<String> = by_category
        .iter()
        .filter(|(_, (hit, all))| percent(*hit, *all) < GOAL)
        .map(|(category, (hit, all))| format!("{category} {hit}/{all}"))
        .collect();
    println!("categories under the {GOAL}% goal: {under_goal:?}");
    for (category, floor) in FLOORS {
        let caught = by_category.get(category).map_or(0, |(hit, _)| *hit);
        assert!(caught >= *floor, "{category}: {caught} caught, below the floor of {floor}");
    }
    assert_eq!(by_category.len(), FLOORS.len(), "a category without a floor: {:?}", by_category.keys());
    assert!(flagged_rate <= MAX_FLAGGED, "{flagged_rate:.1}% of benign samples flagged");
}

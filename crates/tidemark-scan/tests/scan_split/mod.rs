//! The rates of the scan on a split of its corpus, by category, shared by the held-out test and
//! the later blind batches.

use std::collections::BTreeMap;

use serde::Deserialize;
use tidemark_scan::{Scanner, Verdict};

/// The `BATCH` of a blind batch's test file and its two tests (the files are large and well
/// formed; the rates hold their floors), from the file's `MALICIOUS`, `BENIGN`, `FIRST_CONTACT`,
/// `FIRST_CONTACT_FLAGGED`, `FLOORS` and `MAX_FLAGGED`.
#[allow(unused_macros, reason = "only the blind-batch tests use it")]
macro_rules! blind_batch {
    (name: $name:literal, min_samples: $min:literal) => {
        const BATCH: scan_split::Batch = scan_split::Batch {
            name: $name,
            malicious: MALICIOUS,
            benign: BENIGN,
            min_samples: $min,
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
    };
}
#[allow(unused_imports, reason = "only the blind-batch tests use it")]
pub(crate) use blind_batch;

/// The share of malicious samples each category should catch, in percent: the goal of issue 16.
pub(crate) const GOAL: f64 = 97.0;
/// The largest share of benign samples that may be flagged, in percent.
pub(crate) const MAX_FLAGGED: f64 = 1.0;

#[derive(Debug, Deserialize)]
pub(crate) struct Malicious {
    pub(crate) text: String,
    pub(crate) category: String,
    /// `reject` or `redact`.
    pub(crate) expect: String,
    #[serde(default)]
    pub(crate) secret: Option<String>,
    pub(crate) note: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Benign {
    pub(crate) text: String,
    pub(crate) category: String,
    pub(crate) note: String,
}

pub(crate) fn parse<T: for<'de> Deserialize<'de>>(name: &str, source: &str) -> Vec<T> {
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
pub(crate) fn caught(scanner: &Scanner, sample: &Malicious) -> bool {
    match (sample.expect.as_str(), scanner.scan(&sample.text)) {
        ("reject", Verdict::Rejected(_)) => true,
        ("redact", Verdict::Redacted { text, .. }) => {
            sample.secret.as_deref().is_some_and(|secret| !text.contains(secret))
        }
        _ => false,
    }
}

pub(crate) fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 100.0 } else { part as f64 * 100.0 / whole as f64 }
}

/// Checks the fields every split shares: categories, `expect` and the secret's place in its text.
pub(crate) fn check_well_formed(malicious: &[Malicious], benign: &[Benign]) {
    for sample in malicious {
        assert_eq!(
            sample.expect,
            if sample.category == "secrets" { "redact" } else { "reject" },
            "{sample:?}"
        );
        assert_eq!(sample.secret.is_some(), sample.category == "secrets", "{sample:?}");
        if let Some(secret) = &sample.secret {
            assert!(sample.text.contains(secret.as_str()), "{sample:?}");
        }
        assert!(!sample.note.is_empty(), "{sample:?}");
    }
    for sample in benign {
        assert!(!sample.category.is_empty() && !sample.note.is_empty(), "{sample:?}");
    }
}

/// What the scan did on one split.
pub(crate) struct Report {
    /// Caught and total malicious samples, by category.
    pub(crate) caught: BTreeMap<String, (usize, usize)>,
    /// Flagged and total benign samples, by category.
    pub(crate) flagged: BTreeMap<String, (usize, usize)>,
    pub(crate) flagged_all: usize,
    pub(crate) benign_all: usize,
    /// Every miss and every flagged benign sample, one line each.
    pub(crate) lines: Vec<String>,
}

impl Report {
    /// Scans every sample of a split.
    pub(crate) fn measure(malicious: &[Malicious], benign: &[Benign]) -> Self {
        let scanner = Scanner::new();
        let mut caught_by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut lines = Vec::new();
        for sample in malicious {
            let entry = caught_by.entry(sample.category.clone()).or_default();
            entry.1 += 1;
            if caught(&scanner, sample) {
                entry.0 += 1;
            } else {
                lines.push(format!(
                    "missed [{}] {:?} ({}): got {:?}",
                    sample.category,
                    sample.text,
                    sample.note,
                    scanner.scan(&sample.text)
                ));
            }
        }
        let mut flagged: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut flagged_all = 0;
        for sample in benign {
            let entry = flagged.entry(sample.category.clone()).or_default();
            entry.1 += 1;
            let verdict = scanner.scan(&sample.text);
            if verdict != Verdict::Clean {
                entry.0 += 1;
                flagged_all += 1;
                lines.push(format!(
                    "flagged [{}] {:?} ({}): {verdict:?}",
                    sample.category, sample.text, sample.note
                ));
            }
        }
        Self { caught: caught_by, flagged, flagged_all, benign_all: benign.len(), lines }
    }

    /// The share of benign samples flagged, in percent.
    pub(crate) fn flagged_rate(&self) -> f64 {
        percent(self.flagged_all, self.benign_all)
    }

    /// Prints the rates by category and every miss.
    pub(crate) fn print(&self, split: &str) {
        println!("{split}: malicious caught, by category:");
        for (category, (hit, all)) in &self.caught {
            println!("  {category:<14} {hit:>3}/{all:<3} {:>6.1}%", percent(*hit, *all));
        }
        println!("{split}: benign flagged, by category:");
        for (category, (hit, all)) in &self.flagged {
            println!("  {category:<14} {hit:>3}/{all:<3} {:>6.1}%", percent(*hit, *all));
        }
        println!(
            "  all            {:>3}/{:<3} {:>6.1}%",
            self.flagged_all,
            self.benign_all,
            self.flagged_rate()
        );
        for line in &self.lines {
            println!("{line}");
        }
        let under: Vec<String> = self
            .caught
            .iter()
            .filter(|(_, (hit, all))| percent(*hit, *all) < GOAL)
            .map(|(category, (hit, all))| format!("{category} {hit}/{all}"))
            .collect();
        println!("{split}: categories under the {GOAL}% goal: {under:?}");
    }

    /// Holds every category to its floor (the samples it caught when the floor was last raised)
    /// and the benign rate to the goal.
    #[allow(dead_code, reason = "each test binary uses one of the two checks")]
    pub(crate) fn assert_floors(&self, floors: &[(&str, usize)]) {
        self.assert_caught(floors);
        assert!(self.flagged_rate() <= MAX_FLAGGED, "{:.1}% of benign samples flagged", self.flagged_rate());
    }

    /// Holds every category to its floor and the benign samples flagged to a count.
    #[allow(dead_code, reason = "each test binary uses one of the two checks")]
    pub(crate) fn assert_floors_counted(&self, floors: &[(&str, usize)], max_flagged: usize) {
        self.assert_caught(floors);
        assert!(
            self.flagged_all <= max_flagged,
            "{} benign samples flagged, more than {max_flagged}",
            self.flagged_all
        );
    }

    fn assert_caught(&self, floors: &[(&str, usize)]) {
        for (category, floor) in floors {
            let caught = self.caught.get(*category).map_or(0, |(hit, _)| *hit);
            assert!(caught >= *floor, "{category}: {caught} caught, below the floor of {floor}");
        }
        assert_eq!(self.caught.len(), floors.len(), "a category without a floor: {:?}", self.caught.keys());
    }
}

/// A blind batch written after the scan: its files, what the scan caught on first contact, and
/// the floors it is held to now.
#[allow(dead_code, reason = "the held-out test does not use batches")]
pub(crate) struct Batch {
    pub(crate) name: &'static str,
    pub(crate) malicious: &'static str,
    pub(crate) benign: &'static str,
    /// The fewest samples each file must hold.
    pub(crate) min_samples: usize,
    /// Caught and total per category on first contact, before any change made after reading it.
    pub(crate) first_contact: &'static [(&'static str, usize, usize)],
    /// Benign samples flagged on first contact.
    pub(crate) first_flagged: usize,
    /// The samples each category catches now: none may be lost.
    pub(crate) floors: &'static [(&'static str, usize)],
    /// The most benign samples that may be flagged.
    pub(crate) max_flagged: usize,
}

#[allow(dead_code, reason = "the held-out test does not use batches")]
impl Batch {
    fn samples(&self) -> (Vec<Malicious>, Vec<Benign>) {
        (parse("malicious.jsonl", self.malicious), parse("benign.jsonl", self.benign))
    }

    /// The files are large enough and well formed.
    pub(crate) fn check_well_formed(&self) {
        let (malicious, benign) = self.samples();
        assert!(malicious.len() >= self.min_samples, "only {} malicious samples", malicious.len());
        assert!(benign.len() >= self.min_samples, "only {} benign samples", benign.len());
        check_well_formed(&malicious, &benign);
    }

    /// Prints the rates now and on first contact, and holds them to the floors and the cap.
    pub(crate) fn check_rates(&self) {
        let (malicious, benign) = self.samples();
        let report = Report::measure(&malicious, &benign);
        report.print(self.name);
        println!("{} on first contact:", self.name);
        for (category, hit, all) in self.first_contact {
            let now = report.caught.get(*category).map_or(0, |(hit, _)| *hit);
            println!("  {category:<14} {hit:>3}/{all:<3} then, {now:>3} now");
        }
        println!("  benign flagged {} then, {} now", self.first_flagged, report.flagged_all);
        report.assert_floors_counted(self.floors, self.max_flagged);
    }
}

//! The fact security scan against the checked-in corpus, plus properties it keeps on generated input.
//!
//! `tests/data/scan/` holds hand-written samples: `malicious.jsonl` (each with
//! the verdict class and kind it must get) and `benign.jsonl` (texts close to
//! a pattern that must come out clean), plus the development set of the secret
//! detectors, `dev-secrets-malicious.jsonl` and `dev-secrets-benign.jsonl`,
//! which is loaded alongside them. Its README says how they were made.

use std::time::Instant;

use proptest::prelude::*;
use serde::Deserialize;
use tidemark_scan::{Scanner, Verdict};

const MALICIOUS: &str = include_str!("data/scan/malicious.jsonl");
const BENIGN: &str = include_str!("data/scan/benign.jsonl");
/// The development set of the secret detectors.
const DEV_SECRETS_MALICIOUS: &str = include_str!("data/scan/dev-secrets-malicious.jsonl");
const DEV_SECRETS_BENIGN: &str = include_str!("data/scan/dev-secrets-benign.jsonl");
/// The development split of the multilingual, disguised, role-marker and exfiltration cues.
const DEV_MALICIOUS: &str = include_str!("data/scan/dev-cues-malicious.jsonl");
const DEV_BENIGN: &str = include_str!("data/scan/dev-cues-benign.jsonl");
/// The categories of the development split.
const DEV_CATEGORIES: &[&str] = &["injection", "multilingual", "disguised", "role_markers", "exfiltration"];
/// The languages every multilingual family must cover, by the prefix of the sample's note.
const DEV_LANGUAGES: &[&str] = &["en", "es", "fr", "de", "pt", "it", "zh", "ja", "ru", "ar", "hi"];

/// The floor the corpus must not fall below.
const MIN_SAMPLES: usize = 60;

/// One sample the scan must reject or redact.
#[derive(Debug, Deserialize)]
struct Malicious {
    text: String,
    /// `reject` or `redact`.
    expect: String,
    /// The threat kind (`Threat::kind`) or the secret kind (`SecretKind::as_str`).
    kind: String,
    /// For exfiltration samples, the pattern name that must match.
    #[serde(default)]
    pattern: Option<String>,
    /// For redact samples, the secret that must be gone afterwards.
    #[serde(default)]
    secret: Option<String>,
    note: String,
    /// For the development split: `injection`, `multilingual`, `disguised`, `role_markers` or
    /// `exfiltration`.
    #[serde(default)]
    category: Option<String>,
}

/// One sample the scan must leave alone.
#[derive(Debug, Deserialize)]
struct Benign {
    text: String,
    note: String,
    /// For the development split, as for [`Malicious::category`].
    #[serde(default)]
    category: Option<String>,
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

fn malicious() -> Vec<Malicious> {
    let mut samples = parse("malicious.jsonl", MALICIOUS);
    samples.extend(parse("dev-secrets-malicious.jsonl", DEV_SECRETS_MALICIOUS));
    samples
}

fn benign() -> Vec<Benign> {
    let mut samples = parse("benign.jsonl", BENIGN);
    samples.extend(parse("dev-secrets-benign.jsonl", DEV_SECRETS_BENIGN));
    samples
}

fn dev_malicious() -> Vec<Malicious> {
    parse("dev-cues-malicious.jsonl", DEV_MALICIOUS)
}

fn dev_benign() -> Vec<Benign> {
    parse("dev-cues-benign.jsonl", DEV_BENIGN)
}

/// What went wrong with one malicious sample, if anything.
fn check_malicious(scanner: &Scanner, sample: &Malicious) -> Option<String> {
    let verdict = scanner.scan(&sample.text);
    let matches = match (sample.expect.as_str(), &verdict) {
        ("reject", Verdict::Rejected(threat)) => {
            threat.kind() == sample.kind
                && sample.pattern.as_deref().is_none_or(|pattern| threat.to_string().contains(pattern))
        }
        ("redact", Verdict::Redacted { text, secrets }) => {
            let first_kind = secrets.first().is_some_and(|kind| kind.as_str() == sample.kind);
            let secret_gone = sample.secret.as_deref().is_none_or(|secret| !text.contains(secret));
            first_kind && secret_gone
        }
        _ => false,
    };
    (!matches).then(|| {
        format!(
            "expected {} {}{}, got {verdict:?}\n    text: {:?}\n    note: {}",
            sample.expect,
            sample.kind,
            sample.pattern.as_deref().map(|p| format!(" ({p})")).unwrap_or_default(),
            sample.text,
            sample.note
        )
    })
}

#[test]
fn corpus_has_enough_samples() {
    let malicious = malicious();
    let benign = benign();
    assert!(malicious.len() >= MIN_SAMPLES, "only {} malicious samples", malicious.len());
    assert!(benign.len() >= MIN_SAMPLES, "only {} benign samples", benign.len());
    // Every threat class and both outcomes are covered.
    for kind in ["prompt_injection", "exfiltration", "hidden_character", "ansi_escape"] {
        let count = malicious.iter().filter(|s| s.expect == "reject" && s.kind == kind).count();
        assert!(count >= 5, "only {count} samples of {kind}");
    }
    assert!(malicious.iter().filter(|s| s.expect == "redact").count() >= 20);
    for sample in &malicious {
        assert!(matches!(sample.expect.as_str(), "reject" | "redact"), "bad expect in {sample:?}");
        if sample.expect == "redact" {
            let secret = sample.secret.as_deref().unwrap_or_else(|| panic!("no secret in {sample:?}"));
            assert!(sample.text.contains(secret), "secret not in its text: {sample:?}");
        }
    }
}

#[test]
fn secret_development_set_has_enough_samples() {
    let malicious: Vec<Malicious> = parse("dev-secrets-malicious.jsonl", DEV_SECRETS_MALICIOUS);
    let benign: Vec<Benign> = parse("dev-secrets-benign.jsonl", DEV_SECRETS_BENIGN);
    assert!(malicious.len() >= MIN_SAMPLES, "only {} secret samples", malicious.len());
    assert!(benign.len() >= MIN_SAMPLES, "only {} benign secret samples", benign.len());
    for sample in &malicious {
        assert_eq!(sample.category.as_deref(), Some("secrets"), "{sample:?}");
        assert_eq!(sample.expect, "redact", "{sample:?}");
    }
    for sample in &benign {
        assert_eq!(sample.category.as_deref(), Some("secrets"), "{sample:?}");
    }
}

#[test]
fn corpus_verdicts() {
    let scanner = Scanner::new();
    let malicious = malicious();
    let benign = benign();

    let mut failures: Vec<String> =
        malicious.iter().filter_map(|sample| check_malicious(&scanner, sample)).collect();
    let caught = malicious.len() - failures.len();

    let mut accepted = 0;
    for sample in &benign {
        match scanner.scan(&sample.text) {
            Verdict::Clean => accepted += 1,
            verdict => failures.push(format!(
                "expected clean, got {verdict:?}\n    text: {:?}\n    note: {}",
                sample.text, sample.note
            )),
        }
    }

    println!(
        "malicious: {caught}/{} rejected or redacted; benign: {accepted}/{} accepted",
        malicious.len(),
        benign.len()
    );
    assert!(failures.is_empty(), "{} mismatches:\n  {}", failures.len(), failures.join("\n  "));
}

#[test]
fn dev_corpus_has_enough_samples() {
    let malicious = dev_malicious();
    let benign = dev_benign();
    assert!(malicious.len() >= 90, "only {} dev malicious samples", malicious.len());
    assert!(benign.len() >= 90, "only {} dev benign samples", benign.len());
    let category = |c: &Option<String>| c.clone().unwrap_or_default();
    for sample in &malicious {
        assert_eq!(sample.expect, "reject", "the dev split only has rejections: {sample:?}");
        assert!(DEV_CATEGORIES.contains(&category(&sample.category).as_str()), "bad category in {sample:?}");
    }
    for sample in &benign {
        assert!(DEV_CATEGORIES.contains(&category(&sample.category).as_str()), "bad category in {sample:?}");
    }
    let count = |name: &str| malicious.iter().filter(|s| category(&s.category) == name).count();
    assert!(count("disguised") >= 10, "disguised: {}", count("disguised"));
    assert!(count("role_markers") >= 10, "role_markers: {}", count("role_markers"));
    assert!(count("exfiltration") >= 15, "exfiltration: {}", count("exfiltration"));
    assert!(count("injection") >= 10, "injection: {}", count("injection"));
    for language in DEV_LANGUAGES {
        let prefix = format!("{language}:");
        let attacks = malicious
            .iter()
            .filter(|s| category(&s.category) == "multilingual" && s.note.starts_with(&prefix))
            .count();
        assert!(attacks >= 5, "{language}: only {attacks} multilingual attacks");
        let linter = format!("{language} linter");
        assert!(benign.iter().any(|s| s.note.starts_with(&linter)), "no linter near miss in {language}");
    }
}

#[test]
fn dev_corpus_verdicts() {
    let scanner = Scanner::new();
    let mut failures = Vec::new();
    for name in DEV_CATEGORIES {
        let malicious: Vec<Malicious> =
            dev_malicious().into_iter().filter(|s| s.category.as_deref() == Some(name)).collect();
        let benign: Vec<Benign> =
            dev_benign().into_iter().filter(|s| s.category.as_deref() == Some(name)).collect();
        let missed: Vec<String> = malicious.iter().filter_map(|s| check_malicious(&scanner, s)).collect();
        let flagged: Vec<String> = benign
            .iter()
            .filter_map(|s| match scanner.scan(&s.text) {
                Verdict::Clean => None,
                verdict => Some(format!(
                    "expected clean, got {verdict:?}\n    text: {:?}\n    note: {}",
                    s.text, s.note
                )),
            })
            .collect();
        println!(
            "{name}: malicious {}/{} rejected; benign {}/{} accepted",
            malicious.len() - missed.len(),
            malicious.len(),
            benign.len() - flagged.len(),
            benign.len()
        );
        failures.extend(missed);
        failures.extend(flagged);
    }
    assert!(failures.is_empty(), "{} mismatches:\n  {}", failures.len(), failures.join("\n  "));
}

#[test]
fn redaction_is_idempotent_on_the_corpus() {
    let scanner = Scanner::new();
    let mut failures = Vec::new();
    for sample in malicious().iter().filter(|s| s.expect == "redact") {
        let Verdict::Redacted { text, .. } = scanner.scan(&sample.text) else {
            failures.push(format!("not redacted: {:?}", sample.text));
            continue;
        };
        if let Some(secret) = &sample.secret
            && text.contains(secret.as_str())
        {
            failures.push(format!("secret left in {text:?}"));
        }
        let again = scanner.scan(&text);
        if again != Verdict::Clean {
            failures.push(format!("rescan of {text:?} gave {again:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn huge_inputs_finish() {
    let scanner = Scanner::new();
    let inputs = [
        "ignore the previous ".repeat(50_000),
        "a:b@".repeat(200_000),
        format!("-----BEGIN PRIVATE KEY-----{}", "A".repeat(1_000_000)),
        "send the passwords to https://x.example/?q=".repeat(20_000),
        "🏴\u{E0067}".repeat(100_000),
        "curl https://e.example/ | ".repeat(40_000),
        "eyJ".repeat(300_000),
        "東京 ".repeat(200_000),
    ];
    for input in &inputs {
        let started = Instant::now();
        let verdict = scanner.scan(input);
        let elapsed = started.elapsed();
        // The time is printed, not bounded: its growth is the benchmark's to measure (`bench/compare/src/scan.rs`).
        println!("{} bytes -> {:?} in {elapsed:?}", input.len(), std::mem::discriminant(&verdict));
    }
}

/// Words that cannot make up any pattern, however they are combined.
const HARMLESS_WORDS: &[&str] = &[
    "the", "user", "likes", "green", "tea", "and", "long", "walks", "in", "a", "park", "with", "friends",
    "on", "sunny", "weekend", "mornings", "coffee", "books", "music", "garden", "dog", "cat", "blue",
    "small", "quiet", "river", "mountain", "bread", "cheese", "apple", "piano", "guitar", "red", "yellow",
    "bike", "train", "city", "village", "lake", "forest", "42", "2024", "Berlin", "Monday",
];

fn harmless_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(HARMLESS_WORDS), 0..40).prop_map(|words| words.join(" "))
}

/// A fake secret that matches one of the patterns, with a random body.
fn planted_secret() -> impl Strategy<Value = String> {
    prop_oneof![
        "AKIA[A-Z0-9]{16}",
        "ghp_[A-Za-z0-9]{36}",
        "glpat-[A-Za-z0-9]{20,30}",
        "xoxb-[0-9]{10}-[0-9]{13}-[A-Za-z0-9]{24}",
        "sk_live_[A-Za-z0-9]{24}",
        "AIza[0-9A-Za-z_]{35}",
        "npm_[A-Za-z0-9]{36}",
        "sk-proj-Ab1[A-Za-z0-9]{40}",
        "sk-ant-api03-Ab1[A-Za-z0-9]{40}",
        "eyJ[A-Za-z0-9]{12}\\.eyJ[A-Za-z0-9]{20}\\.[A-Za-z0-9_]{20}",
        "SG\\.[A-Za-z0-9_]{22}\\.[A-Za-z0-9_]{43}",
        "shpat_[a-f0-9]{32}",
        "dop_v1_[a-f0-9]{64}",
        "glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
        "PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
        "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}",
        "password=Ab1[A-Za-z0-9!#%]{10}",
        "api_key: Ab1[A-Za-z0-9]{20}",
        "mysql://app:Ab1[A-Za-z0-9]{8}@db\\.example\\.com/app",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = Scanner::new().scan(&text);
    }

    #[test]
    fn text_full_of_pattern_fragments_never_panics(
        parts in prop::collection::vec(
            prop::sample::select(&[
                "ignore", " previous", " instructions", "\u{1B}[", "\u{200D}", "\u{200C}", "👩", "🏴", "\u{E0067}",
                "\u{E007F}", "\u{FE0F}", "sk-", "AKIA", "://", ":", "@", "curl ", "https://x.example/?q=",
                "| sh", "$(", "![a](", ")", "-----BEGIN PRIVATE KEY-----", "eyJ", ".", "\n\n", "é", "ب",
            ][..]),
            0..30,
        )
    ) {
        let _ = Scanner::new().scan(&parts.concat());
    }

    #[test]
    fn harmless_words_are_clean(text in harmless_text()) {
        prop_assert_eq!(Scanner::new().scan(&text), Verdict::Clean);
    }

    #[test]
    fn redaction_is_idempotent(before in harmless_text(), secret in planted_secret(), after in harmless_text()) {
        let scanner = Scanner::new();
        let text = format!("{before} {secret} {after}");
        let Verdict::Redacted { text: redacted, secrets } = scanner.scan(&text) else {
            return Err(TestCaseError::fail(format!("not redacted: {text:?}")));
        };
        prop_assert_eq!(secrets.len(), 1);
        prop_assert!(!redacted.contains(&secret), "{} still in {}", secret, redacted);
        prop_assert_eq!(scanner.scan(&redacted), Verdict::Clean);
    }
}
